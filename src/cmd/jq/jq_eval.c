/*
 * jq_eval.c - the evaluator of sbx's jq engine: a continuation-passing tree
 * walk over jq_parse.c's resolved tree (see jq_int.h for the protocol).
 *
 * Paths: every evaluation carries the path of its input alongside the value
 * (an array, or an invalid when paths are not wanted). Path expressions
 * (., .a, .[i], .[], .., getpath, pipes, conditionals, function calls,
 * reduce/foreach, label, try, //) extend it; any other expression evaluated
 * while paths are wanted yields "Invalid path expression with result ...".
 * Assignments (=, |=, op=, //=) collect the paths first, then update.
 *
 * Bounds: every node evaluation counts a step and every 4096 steps polls the
 * host (deadline, cancel) and the value memory budget; the C stack is
 * checked against the thread's real stack on every call, so deep recursion
 * in a jq program becomes a jq error, never a crash.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/jq/jq_int.h"
#include "cmd/lib/buf.h"


/* jq_eval recurses once per node: the forms with big locals (parameter
 * frames, message buffers) stay out of its frame, so a deep program's
 * stack holds small frames. */
#define NOINLINE __attribute__((noinline))

/* ---- errors ---------------------------------------------------------------------- */

jqv jq_error_fmt(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return jqv_invalid_with_msg(jqv_string(buf));
}

int jq_raise(jq_interp *I, jqv msg) {
  jqv_free(I->err);
  I->err = msg;
  return JQ_ERR;
}

/* "type (text)" with the text cut at 11 bytes + "..." like jq 1.8. */
char *jq_value_brief(const jqv *v, char *buf, size_t size) {
  jqv_buf b = {0};
  b.limit = 4096;
  jqv_dump(&b, v, 0, NULL);
  const char *t = b.data ? b.data : "";
  size_t n = b.len;
  char text[64];
  if (n > 29) {
    /* jq 1.8 keeps 26 bytes and adds "..."; a string also drops its last
     * (possibly cut) character */
    size_t cut = 26;
    if (v->kind == JQV_KIND_STRING) {
      while (cut > 0 && ((unsigned char)t[cut - 1] & 0xc0) == 0x80) cut--;
      if (cut > 0) cut--;
    }
    snprintf(text, sizeof text, "%.*s...%s", (int)cut, t, v->kind == JQV_KIND_STRING ? "\"" : "");
  } else {
    snprintf(text, sizeof text, "%s", t);
  }
  snprintf(buf, size, "%s (%s)", jqv_kind_name((jqv_kind)v->kind), text);
  jqv_buf_free(&b);
  return buf;
}

bool jq_truthy(const jqv *v) { return !(v->kind == JQV_KIND_NULL || v->kind == JQV_KIND_FALSE); }

/* ---- stack and polling ------------------------------------------------------------- */

/* The running interpreter's stack floor, for the value functions that recurse
 * over a path (setpath, delpaths) without an interpreter at hand: a path of
 * JQV_MAX_DEPTH levels fits an optimized build's stack but not every stack
 * (sanitizers make frames several times larger), so they stop at the floor too. */
static _Thread_local char *path_stack_floor;

static bool path_stack_low(void) {
  char here;
  return path_stack_floor && &here < path_stack_floor;
}

static void stack_init(jq_interp *I) {
  pthread_attr_t attr;
  I->stack_limit = NULL;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr;
    size_t size;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      size_t margin = 256 * 1024;
      I->stack_limit = size > 4 * margin ? (char *)addr + margin : (char *)addr + size / 2;
    }
    pthread_attr_destroy(&attr);
  }
  path_stack_floor = I->stack_limit;
}

static int step(jq_interp *I) {
  char here;
  if (I->stack_limit && &here < I->stack_limit) {
    return jq_raise(I, jqv_invalid_with_msg(jqv_string("program too deeply nested (stack limit)")));
  }
  if (I->mem_budget && jqv_mem_used > I->mem_budget) {
    I->stop_msg = "memory limit exceeded";
    I->stop_status = 5;
    return JQ_STOP;
  }
  if ((++I->steps & 4095) == 0 && I->host.poll && I->host.poll(I->host.ud)) {
    I->stop_status = 130;
    return JQ_STOP;
  }
  return JQ_OK;
}

/* ---- indexing and paths ------------------------------------------------------------ */

static bool to_index(double d, long *out) {
  if (isnan(d)) return false;
  if (d >= 1e15) d = 1e15;
  if (d <= -1e15) d = -1e15;
  *out = (long)floor(d);
  return true;
}

jqv jq_index(jqv t, jqv k) {
  char b1[128], b2[128];
  if (t.kind == JQV_KIND_OBJECT && k.kind == JQV_KIND_STRING) {
    jqv r = jqv_object_get(t, k);
    return jqv_is_valid(r) ? r : jqv_null();
  }
  if (t.kind == JQV_KIND_ARRAY && k.kind == JQV_KIND_NUMBER) {
    long i;
    if (!to_index(k.num, &i)) {
      jqv_free(t);
      return jqv_null();
    }
    jqv r = jqv_array_get(t, i);
    return jqv_is_valid(r) ? r : jqv_null();
  }
  if (t.kind == JQV_KIND_NULL && (k.kind == JQV_KIND_STRING || k.kind == JQV_KIND_NUMBER || k.kind == JQV_KIND_OBJECT)) {
    jqv_free(k);
    return jqv_null();
  }
  if (k.kind == JQV_KIND_OBJECT && (t.kind == JQV_KIND_ARRAY || t.kind == JQV_KIND_STRING || t.kind == JQV_KIND_NULL)) {
    /* slice object {start, end} */
    jqv s = jqv_object_get(jqv_copy(k), jqv_string("start"));
    jqv e = jqv_object_get(jqv_copy(k), jqv_string("end"));
    jqv_free(k);
    if (!jqv_is_valid(s) || !jqv_is_valid(e)) {
      jqv_free(s);
      jqv_free(e);
      jqv_free(t);
      return jq_error_fmt("Start and end indices of an array slice must be numbers");
    }
    if (t.kind == JQV_KIND_NULL) {
      jqv_free(s);
      jqv_free(e);
      return jqv_null();
    }
    if ((s.kind != JQV_KIND_NUMBER && s.kind != JQV_KIND_NULL) || (e.kind != JQV_KIND_NUMBER && e.kind != JQV_KIND_NULL)) {
      jqv_free(s);
      jqv_free(e);
      jqv_free(t);
      return jq_error_fmt("Start and end indices of an array slice must be numbers");
    }
    bool str = t.kind == JQV_KIND_STRING;
    size_t len = str ? jqv_string_length_codepoints(jqv_copy(t)) : jqv_array_len(t);
    double ds = s.kind == JQV_KIND_NULL ? 0 : s.num, de = e.kind == JQV_KIND_NULL ? (double)len : e.num;
    if (isnan(ds)) ds = 0;
    if (isnan(de)) de = (double)len;
    if (ds < 0) ds += (double)len;
    if (de < 0) de += (double)len;
    if (ds < 0) ds = 0;
    if (de < 0) de = 0;
    if (ds > (double)len) ds = (double)len;
    if (de > (double)len) de = (double)len;
    size_t si = (size_t)floor(ds), ei = (size_t)ceil(de);
    if (ei > len) ei = len;
    if (ei < si) ei = si;
    if (!str) return jqv_array_slice(t, si, ei);
    const unsigned char *p = (const unsigned char *)jqv_string_value(t);
    size_t n = jqv_string_len(t), cp = 0, bs = n, be = n;
    for (size_t i = 0; i <= n; i++) {
      if (i == n || (p[i] & 0xc0) != 0x80) {
        if (cp == si && bs == n) bs = i;
        if (cp == ei) {
          be = i;
          break;
        }
        cp++;
      }
    }
    if (bs > be) bs = be;
    jqv r = jqv_string_raw((const char *)p + bs, be - bs);
    jqv_free(t);
    return r;
  }
  if (t.kind == JQV_KIND_ARRAY && k.kind == JQV_KIND_ARRAY) {
    /* indices of a subarray */
    jqv r = jqv_array();
    size_t n = jqv_array_len(t), m = jqv_array_len(k);
    if (m > 0)
      for (size_t i = 0; i + m <= n; i++) {
        bool eq = true;
        for (size_t j = 0; j < m && eq; j++) eq = jqv_equal(jqv_copy(*jqv_array_at(t, i + j)), jqv_copy(*jqv_array_at(k, j)));
        if (eq) r = jqv_array_append(r, jqv_number((double)i));
      }
    jqv_free(t);
    jqv_free(k);
    return r;
  }
  char kb[128];
  jqv e = jq_error_fmt("Cannot index %s with %s", jqv_kind_name((jqv_kind)t.kind), jq_value_brief(&k, kb, sizeof kb));
  (void)b1;
  (void)b2;
  jqv_free(t);
  jqv_free(k);
  return e;
}

jqv jq_getpath(jqv v, jqv path) {
  if (path.kind != JQV_KIND_ARRAY) {
    jqv_free(v);
    jqv_free(path);
    return jq_error_fmt("Path must be specified as an array");
  }
  if (jqv_array_len(path) > JQV_MAX_DEPTH) {
    jqv_free(v);
    jqv_free(path);
    return jq_error_fmt("Path too deep");
  }
  size_t n = jqv_array_len(path);
  for (size_t i = 0; i < n; i++) {
    if (v.kind == JQV_KIND_NULL) break;
    v = jq_index(v, jqv_copy(*jqv_array_at(path, i)));
    if (!jqv_is_valid(v)) break;
  }
  jqv_free(path);
  return v;
}

static jqv setpath_at(jqv v, jqv path, size_t i, jqv nv, int depth) {
  if (i == jqv_array_len(path)) {
    jqv_free(v);
    return nv;
  }
  if (depth > JQV_MAX_DEPTH || path_stack_low()) {
    jqv_free(v);
    jqv_free(nv);
    return jq_error_fmt("Path too deep");
  }
  jqv k = *jqv_array_at(path, i);
  if (k.kind == JQV_KIND_STRING) {
    if (v.kind == JQV_KIND_NULL) {
      jqv_free(v);
      v = jqv_object();
    }
    if (v.kind != JQV_KIND_OBJECT) {
      char kb[128];
      jqv e = jq_error_fmt("Cannot index %s with %s", jqv_kind_name((jqv_kind)v.kind), jq_value_brief(&k, kb, sizeof kb));
      jqv_free(v);
      jqv_free(nv);
      return e;
    }
    const jqv *old = jqv_object_find(v, jqv_string_value(k), jqv_string_len(k));
    jqv child = old ? jqv_copy(*old) : jqv_null();
    if (old) v = jqv_object_set(v, jqv_copy(k), jqv_null()); /* drop our reference for COW */
    child = setpath_at(child, path, i + 1, nv, depth + 1);
    if (!jqv_is_valid(child)) {
      jqv_free(v);
      return child;
    }
    return jqv_object_set(v, jqv_copy(k), child);
  }
  if (k.kind == JQV_KIND_NUMBER) {
    if (v.kind == JQV_KIND_NULL) {
      jqv_free(v);
      v = jqv_array();
    }
    if (v.kind != JQV_KIND_ARRAY) {
      char kb[128];
      jqv e = jq_error_fmt("Cannot index %s with %s", jqv_kind_name((jqv_kind)v.kind), jq_value_brief(&k, kb, sizeof kb));
      jqv_free(v);
      jqv_free(nv);
      return e;
    }
    long idx;
    if (isnan(k.num)) {
      jqv_free(v);
      jqv_free(nv);
      return jq_error_fmt("Cannot set array element at NaN index");
    }
    if (!to_index(k.num, &idx)) idx = 0;
    long len = (long)jqv_array_len(v);
    if (idx < 0) idx += len;
    if (idx < 0) {
      jqv_free(v);
      jqv_free(nv);
      return jq_error_fmt("Out of bounds negative array index");
    }
    if (idx > 536870911) {
      jqv_free(v);
      jqv_free(nv);
      return jq_error_fmt("Array index too large");
    }
    jqv child = idx < len ? jqv_copy(*jqv_array_at(v, (size_t)idx)) : jqv_null();
    if (idx < len) v = jqv_array_set(v, idx, jqv_null());
    child = setpath_at(child, path, i + 1, nv, depth + 1);
    if (!jqv_is_valid(child)) {
      jqv_free(v);
      return child;
    }
    return jqv_array_set(v, idx, child);
  }
  if (k.kind == JQV_KIND_OBJECT) {
    if (v.kind == JQV_KIND_NULL) {
      jqv_free(v);
      v = jqv_array();
    }
    if (v.kind != JQV_KIND_ARRAY) {
      jqv e = v.kind == JQV_KIND_STRING ? jq_error_fmt("Cannot update string slices")
                                        : jq_error_fmt("Cannot update field at object index of %s", jqv_kind_name((jqv_kind)v.kind));
      jqv_free(v);
      jqv_free(nv);
      return e;
    }
    /* slice assignment */
    jqv cur = jq_index(jqv_copy(v), jqv_copy(k));
    if (!jqv_is_valid(cur)) {
      jqv_free(v);
      jqv_free(nv);
      return cur;
    }
    jqv repl = setpath_at(cur, path, i + 1, nv, depth + 1);
    if (!jqv_is_valid(repl)) {
      jqv_free(v);
      return repl;
    }
    if (repl.kind != JQV_KIND_ARRAY) {
      jqv_free(v);
      jqv_free(repl);
      return jq_error_fmt("A slice of an array can only be assigned another array");
    }
    size_t len = jqv_array_len(v);
    jqv s = jqv_object_get(jqv_copy(k), jqv_string("start")), e = jqv_object_get(jqv_copy(k), jqv_string("end"));
    double ds = s.kind == JQV_KIND_NUMBER ? s.num : 0, de = e.kind == JQV_KIND_NUMBER ? e.num : (double)len;
    jqv_free(s);
    jqv_free(e);
    if (isnan(ds)) ds = 0;
    if (isnan(de)) de = (double)len;
    if (ds < 0) ds += (double)len;
    if (de < 0) de += (double)len;
    if (ds < 0) ds = 0;
    if (ds > (double)len) ds = (double)len;
    if (de > (double)len) de = (double)len;
    if (de < ds) de = ds;
    size_t si = (size_t)floor(ds), ei = (size_t)ceil(de);
    if (ei > len) ei = len;
    if (ei < si) ei = si;
    jqv r = jqv_array_slice(jqv_copy(v), 0, si);
    r = jqv_array_concat(r, repl);
    r = jqv_array_concat(r, jqv_array_slice(v, ei, len));
    return r;
  }
  jqv err;
  if (v.kind == JQV_KIND_ARRAY) err = jq_error_fmt("Cannot update field at array index of array");
  else {
    char kb[128];
    err = jq_error_fmt("Cannot index %s with %s", jqv_kind_name((jqv_kind)v.kind), jq_value_brief(&k, kb, sizeof kb));
  }
  jqv_free(v);
  jqv_free(nv);
  return err;
}

jqv jq_setpath(jqv v, jqv path, jqv nv) {
  if (path.kind != JQV_KIND_ARRAY) {
    jqv_free(v);
    jqv_free(path);
    jqv_free(nv);
    return jq_error_fmt("Path must be specified as an array");
  }
  if (jqv_array_len(path) > JQV_MAX_DEPTH) {
    jqv_free(v);
    jqv_free(path);
    jqv_free(nv);
    return jq_error_fmt("Path too deep");
  }
  jqv r = setpath_at(v, path, 0, nv, 0);
  jqv_free(path);
  return r;
}

static jqv delpath_one(jqv v, jqv path, size_t i, int depth) {
  size_t n = jqv_array_len(path);
  if (v.kind == JQV_KIND_NULL) return v;
  if (depth > JQV_MAX_DEPTH || path_stack_low()) {
    jqv_free(v);
    return jq_error_fmt("Path too deep");
  }
  jqv k = *jqv_array_at(path, i);
  if (i + 1 == n) {
    if (k.kind == JQV_KIND_STRING && v.kind == JQV_KIND_OBJECT) return jqv_object_delete(v, jqv_copy(k));
    if (k.kind == JQV_KIND_NUMBER && v.kind == JQV_KIND_ARRAY) {
      long idx, len = (long)jqv_array_len(v);
      if (!to_index(k.num, &idx)) return v;
      if (idx < 0) idx += len;
      if (idx < 0 || idx >= len) return v;
      jqv r = jqv_array_slice(jqv_copy(v), 0, (size_t)idx);
      r = jqv_array_concat(r, jqv_array_slice(v, (size_t)idx + 1, (size_t)len));
      return r;
    }
    if (k.kind == JQV_KIND_OBJECT && v.kind == JQV_KIND_ARRAY) {
      size_t len = jqv_array_len(v);
      jqv s = jqv_object_get(jqv_copy(k), jqv_string("start")), e = jqv_object_get(jqv_copy(k), jqv_string("end"));
      double ds = s.kind == JQV_KIND_NUMBER ? s.num : 0, de = e.kind == JQV_KIND_NUMBER ? e.num : (double)len;
      jqv_free(s);
      jqv_free(e);
      if (ds < 0) ds += (double)len;
      if (de < 0) de += (double)len;
      if (ds < 0) ds = 0;
      if (ds > (double)len) ds = (double)len;
      if (de > (double)len) de = (double)len;
      if (de < ds) de = ds;
      size_t si = (size_t)floor(ds), ei = (size_t)ceil(de);
      if (ei > len) ei = len;
      jqv r = jqv_array_slice(jqv_copy(v), 0, si);
      return jqv_array_concat(r, jqv_array_slice(v, ei, len));
    }
    jqv err;
    if (k.kind == JQV_KIND_STRING)
      err = jq_error_fmt("Cannot delete field at object index of %s", jqv_kind_name((jqv_kind)v.kind));
    else err = jq_error_fmt("Cannot delete field at index of %s", jqv_kind_name((jqv_kind)v.kind));
    jqv_free(v);
    return err;
  }
  jqv child = jq_index(jqv_copy(v), jqv_copy(k));
  if (!jqv_is_valid(child)) {
    jqv_free(v);
    return child;
  }
  if (child.kind == JQV_KIND_NULL) {
    jqv_free(child);
    return v;
  }
  jqv nc = delpath_one(child, path, i + 1, depth + 1);
  if (!jqv_is_valid(nc)) {
    jqv_free(v);
    return nc;
  }
  jqv p1 = jqv_array_append(jqv_array(), jqv_copy(k));
  return jq_setpath(v, p1, nc);
}

/* Rewrites negative array indexes and slice bounds of each path as
 * absolute positions in v, so that deleting in sorted order from the end
 * removes what each path named in the original value. */
static jqv normalise_paths(jqv v, jqv paths) {
  jqv out = jqv_array();
  for (size_t i = 0; i < jqv_array_len(paths); i++) {
    jqv p = *jqv_array_at(paths, i);
    if (p.kind != JQV_KIND_ARRAY) {
      out = jqv_array_append(out, jqv_copy(p));
      continue;
    }
    jqv np = jqv_array();
    jqv cur = jqv_copy(v);
    for (size_t j = 0; j < jqv_array_len(p); j++) {
      jqv k = jqv_copy(*jqv_array_at(p, j));
      if (cur.kind == JQV_KIND_ARRAY) {
        double len = (double)jqv_array_len(cur);
        if (k.kind == JQV_KIND_NUMBER && k.num < 0) k = jqv_number(k.num + len);
        else if (k.kind == JQV_KIND_OBJECT) {
          jqv s = jqv_object_get(jqv_copy(k), jqv_string("start")), e = jqv_object_get(jqv_copy(k), jqv_string("end"));
          double ds = s.kind == JQV_KIND_NUMBER ? s.num : 0, de = e.kind == JQV_KIND_NUMBER ? e.num : len;
          jqv_free(s);
          jqv_free(e);
          if (ds < 0) ds += len;
          if (de < 0) de += len;
          if (ds < 0) ds = 0;
          if (de > len) de = len;
          jqv_free(k);
          k = jqv_object_set(jqv_object_set(jqv_object(), jqv_string("start"), jqv_number(floor(ds))), jqv_string("end"),
                             jqv_number(ceil(de)));
        }
      }
      np = jqv_array_append(np, jqv_copy(k));
      jqv next = jq_index(cur, k);
      if (!jqv_is_valid(next)) {
        jqv_free(next);
        next = jqv_null();
      }
      cur = next;
    }
    jqv_free(cur);
    out = jqv_array_append(out, np);
  }
  jqv_free(v);
  jqv_free(paths);
  return out;
}

jqv jq_delpaths(jqv v, jqv paths) {
  if (paths.kind != JQV_KIND_ARRAY) {
    jqv_free(v);
    jqv_free(paths);
    return jq_error_fmt("Paths must be specified as an array");
  }
  paths = normalise_paths(jqv_copy(v), paths);
  paths = jqv_sort(paths);
  for (long i = (long)jqv_array_len(paths) - 1; i >= 0; i--) {
    jqv p = *jqv_array_at(paths, (size_t)i);
    /* a path given twice deletes once (the sorted paths hold it side by side) */
    if (i + 1 < (long)jqv_array_len(paths) && jqv_cmp(&p, jqv_array_at(paths, (size_t)i + 1)) == 0) continue;
    if (p.kind != JQV_KIND_ARRAY) {
      jqv e = jq_error_fmt("Path must be specified as array, not %s", jqv_kind_name((jqv_kind)p.kind));
      jqv_free(v);
      jqv_free(paths);
      return e;
    }
    if (jqv_array_len(p) > JQV_MAX_DEPTH) {
      jqv_free(v);
      jqv_free(paths);
      return jq_error_fmt("Path too deep");
    }
    if (jqv_array_len(p) == 0) {
      jqv_free(v);
      jqv_free(paths);
      return jqv_null();
    }
    v = delpath_one(v, p, 0, 0);
    if (!jqv_is_valid(v)) break;
  }
  jqv_free(paths);
  return v;
}

/* ---- arithmetic ---------------------------------------------------------------------- */

static jqv binop_err(const char *what, jqv a, jqv b) {
  char b1[128], b2[128];
  jqv e = jq_error_fmt("%s and %s cannot be %s", jq_value_brief(&a, b1, sizeof b1), jq_value_brief(&b, b2, sizeof b2), what);
  jqv_free(a);
  jqv_free(b);
  return e;
}

static jqv str_repeat(jqv s, double n) {
  /* jq 1.8: negative counts give null, counts below 1 the empty string */
  if (n < 0 || isnan(n)) {
    jqv_free(s);
    return jqv_null();
  }
  size_t len = jqv_string_len(s);
  double times = n < 1 ? 0 : floor(n);
  if (times * (double)len > 64.0 * 1024 * 1024) {
    jqv_free(s);
    return jq_error_fmt("Repeat string result too long");
  }
  size_t t = (size_t)times;
  jqv_buf b = {0};
  if (len > 0)
    for (size_t i = 0; i < t; i++) jqv_buf_add(&b, jqv_string_value(s), len);
  jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  jqv_free(s);
  return r;
}

/* A double as an integer, saturating at the int64 range (NaN: 0). */
static long long dtoi(double t) {
  if (isnan(t)) return 0;
  if (t >= 9223372036854775807.0) return LLONG_MAX;
  if (t <= -9223372036854775808.0) return LLONG_MIN;
  return (long long)t;
}

jqv jq_binop(int op, jqv a, jqv b) {
  switch (op) {
  case '+':
    if (a.kind == JQV_KIND_NULL) {
      jqv_free(a);
      return b;
    }
    if (b.kind == JQV_KIND_NULL) {
      jqv_free(b);
      return a;
    }
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER) return jqv_number(a.num + b.num);
    if (a.kind == JQV_KIND_STRING && b.kind == JQV_KIND_STRING) {
      size_t lim = jqv_text_limit ? jqv_text_limit : (64u << 20);
      if (jqv_string_len(a) + jqv_string_len(b) > lim) {
        jqv_free(a);
        jqv_free(b);
        return jq_error_fmt("Cannot build a string longer than %zu bytes (the sandbox's string limit)", lim);
      }
      return jqv_string_concat(a, b);
    }
    if (a.kind == JQV_KIND_ARRAY && b.kind == JQV_KIND_ARRAY) return jqv_array_concat(a, b);
    if (a.kind == JQV_KIND_OBJECT && b.kind == JQV_KIND_OBJECT) return jqv_object_merge(a, b);
    return binop_err("added", a, b);
  case '-':
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER) return jqv_number(a.num - b.num);
    if (a.kind == JQV_KIND_ARRAY && b.kind == JQV_KIND_ARRAY) {
      jqv r = jqv_array();
      for (size_t i = 0; i < jqv_array_len(a); i++) {
        bool found = false;
        for (size_t j = 0; j < jqv_array_len(b) && !found; j++)
          found = jqv_equal(jqv_copy(*jqv_array_at(a, i)), jqv_copy(*jqv_array_at(b, j)));
        if (!found) r = jqv_array_append(r, jqv_copy(*jqv_array_at(a, i)));
      }
      jqv_free(a);
      jqv_free(b);
      return r;
    }
    return binop_err("subtracted", a, b);
  case '*':
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER) return jqv_number(a.num * b.num);
    if (a.kind == JQV_KIND_STRING && b.kind == JQV_KIND_NUMBER) return str_repeat(a, b.num);
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_STRING) return str_repeat(b, a.num);
    if (a.kind == JQV_KIND_OBJECT && b.kind == JQV_KIND_OBJECT) {
      jqv_too_deep = false;
      jqv r = jqv_object_merge_recursive(a, b);
      if (!jqv_too_deep) return r;
      jqv_free(r);
      return jq_error_fmt("Object merge too deep");
    }
    return binop_err("multiplied", a, b);
  case '/':
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER) {
      if (b.num == 0) return binop_err("divided because the divisor is zero", a, b);
      return jqv_number(a.num / b.num);
    }
    if (a.kind == JQV_KIND_STRING && b.kind == JQV_KIND_STRING) {
      jqv r = jqv_array();
      const char *s = jqv_string_value(a), *sep = jqv_string_value(b);
      size_t n = jqv_string_len(a), m = jqv_string_len(b);
      if (n == 0) {
        /* "" / x is [] */
      } else if (m == 0) {
        /* split into characters */
        size_t i = 0;
        while (i < n) {
          size_t j = i + 1;
          while (j < n && ((unsigned char)s[j] & 0xc0) == 0x80) j++;
          r = jqv_array_append(r, jqv_string_raw(s + i, j - i));
          i = j;
        }
      } else {
        size_t i = 0;
        for (;;) {
          const char *f = memmem(s + i, n - i, sep, m);
          if (!f) {
            r = jqv_array_append(r, jqv_string_raw(s + i, n - i));
            break;
          }
          r = jqv_array_append(r, jqv_string_raw(s + i, (size_t)(f - s) - i));
          i = (size_t)(f - s) + m;
        }
      }
      jqv_free(a);
      jqv_free(b);
      return r;
    }
    return binop_err("divided", a, b);
  case '%':
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER) {
      double x = a.num, y = b.num;
      if (isnan(x) || isnan(y)) return jqv_number(NAN);
      /* jq 1.8: truncate both to integers (saturating), error on zero divisor */
      long long ix = dtoi(x), iy = dtoi(y);
      if (iy == 0) return binop_err("divided (remainder) because the divisor is zero", a, b);
      if (iy == 1 || iy == -1) return jqv_number(0);
      if (iy == LLONG_MIN) return jqv_number(ix == LLONG_MIN ? 0 : (double)ix);
      return jqv_number((double)(ix % (iy < 0 ? -iy : iy))); /* C's sign: the dividend's */
    }
    return binop_err("divided", a, b);
  case 'E':
  case 'N': {
    jqv_too_deep = false;
    bool eq = jqv_equal(a, b);
    if (jqv_too_deep) return jq_error_fmt("Equality check too deep");
    return jqv_bool(op == 'E' ? eq : !eq);
  }
  case '<':
  case 'L':
  case '>':
  case 'G': {
    jqv_too_deep = false;
    int c = jqv_cmp(&a, &b);
    /* jq compares a NaN as null against the other side, so NaN < NaN holds
     * (sorting keeps jqv_cmp's consistent order: all NaNs print alike) */
    if (a.kind == JQV_KIND_NUMBER && b.kind == JQV_KIND_NUMBER && isnan(a.num) && isnan(b.num)) c = -1;
    jqv_free(a);
    jqv_free(b);
    if (jqv_too_deep) return jq_error_fmt("Comparison too deep");
    return jqv_bool(op == '<' ? c < 0 : op == 'L' ? c <= 0 : op == '>' ? c > 0 : c >= 0);
  }
  }
  jqv_free(a);
  jqv_free(b);
  return jq_error_fmt("unknown operator");
}

/* ---- the evaluator ------------------------------------------------------------------- */

/* The dumped text of v as jq quotes it in path errors (cut like briefs). */
static const char *value_text(const jqv *v, char *buf, size_t size) {
  char b[160];
  jq_value_brief(v, b, sizeof b);
  const char *open = strchr(b, '(');
  size_t n = open ? strlen(open + 1) : 0;
  if (n > 0) n--; /* the closing parenthesis */
  snprintf(buf, size, "%.*s", (int)n, open ? open + 1 : "");
  return buf;
}

static int invalid_path(jq_interp *I, jqv v) {
  char b[160];
  jqv e = jq_error_fmt("Invalid path expression with result %s", value_text(&v, b, sizeof b));
  jqv_free(v);
  return jq_raise(I, e);
}

/* A path marker for values computed inside a path expression that are not
 * paths themselves: null (a real path is an array). */
static bool bad_path(const jqv *p) { return p->kind == JQV_KIND_NULL; }

static jqv path_add(jqv path, jqv k) {
  if (path.kind != JQV_KIND_ARRAY) {
    jqv_free(k);
    return path;
  }
  return jqv_array_append(path, k);
}

static int emit(jq_interp *I, jq_cb cb, void *ud, jqv v, jqv path) { return cb(I, ud, v, path); }

/* Wraps a callback and remembers whether an error came from it (downstream),
 * so try/?// don't catch errors that are not their own. */
typedef struct {
  jq_cb cb;
  void *ud;
  bool downstream_err;
  int emitted;
} guard;
static int guard_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  guard *g = ud;
  g->emitted++;
  int rc = g->cb(I, g->ud, v, path);
  if (rc == JQ_ERR || rc == JQ_BREAK) g->downstream_err = true;
  return rc;
}

/* Collect outputs into an array (values only). */
typedef struct {
  jqv arr;
} collector;
static int collect_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  (void)I;
  collector *c = ud;
  jqv_free(path);
  c->arr = jqv_array_append(c->arr, v);
  return JQ_OK;
}

/* Collect paths only (path mode required). */
static int invalid_path(jq_interp *I, jqv v);
static bool bad_path(const jqv *p);
static int collect_path_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  collector *c = ud;
  if (bad_path(&path)) return invalid_path(I, v);
  jqv_free(v);
  c->arr = jqv_array_append(c->arr, path);
  return JQ_OK;
}

/* Evaluates n in non-path mode, collecting its outputs. */
static int eval_collect(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv *out) {
  collector c = {jqv_array()};
  int rc = jq_eval(I, n, env, in, jqv_invalid(), collect_cb, &c);
  if (rc != JQ_OK) {
    jqv_free(c.arr);
    *out = jqv_invalid();
    return rc;
  }
  *out = c.arr;
  return JQ_OK;
}

/* ---- index-like nodes ---- */

typedef struct {
  const jq_node *n;
  jq_frame *env;
  jqv key;       /* for N_INDEX / N_FIELD */
  jqv from, to;  /* for N_SLICE */
  jq_cb cb;
  void *ud;
  bool opt;
} index_ctx;

static NOINLINE int do_index(jq_interp *I, index_ctx *x, jqv t, jqv path, jqv key) {
  if (bad_path(&path)) {
    char b1[160], b2[160];
    jqv e = jq_error_fmt("Invalid path expression near attempt to access element %s of %s", value_text(&key, b1, sizeof b1),
                         value_text(&t, b2, sizeof b2));
    jqv_free(t);
    jqv_free(key);
    return jq_raise(I, e);
  }
  jqv r = jq_index(t, jqv_copy(key));
  if (!jqv_is_valid(r)) {
    jqv_free(path);
    jqv_free(key);
    return jq_raise(I, r);
  }
  path = path_add(path, key);
  return emit(I, x->cb, x->ud, r, path);
}

static int index_cb(jq_interp *I, void *ud, jqv t, jqv path) {
  index_ctx *x = ud;
  return do_index(I, x, t, path, jqv_copy(x->key));
}

typedef struct {
  index_ctx *x;
  jqv t, tpath;
} index_key_ctx;

static int slice_key(jqv from, jqv to, jqv *key) {
  *key = jqv_object_set(jqv_object_set(jqv_object(), jqv_string("start"), from), jqv_string("end"), to);
  return 0;
}

static NOINLINE int eval_index(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud);

static NOINLINE int iter_cb(jq_interp *I, void *ud, jqv t, jqv path) {
  index_ctx *x = ud;
  int rc = JQ_OK;
  if (bad_path(&path)) {
    char b[160];
    jqv e = jq_error_fmt("Invalid path expression near attempt to iterate through %s", value_text(&t, b, sizeof b));
    jqv_free(t);
    return jq_raise(I, e);
  }
  if (t.kind == JQV_KIND_ARRAY) {
    size_t n = jqv_array_len(t);
    for (size_t i = 0; i < n && rc == JQ_OK; i++) {
      jqv p = path.kind == JQV_KIND_ARRAY ? jqv_array_append(jqv_copy(path), jqv_number((double)i)) : jqv_invalid();
      rc = emit(I, x->cb, x->ud, jqv_copy(*jqv_array_at(t, i)), p);
      if (rc == JQ_OK) rc = step(I);
    }
  } else if (t.kind == JQV_KIND_OBJECT) {
    size_t n = jqv_object_len(t);
    for (size_t i = 0; i < n && rc == JQ_OK; i++) {
      jqv p = path.kind == JQV_KIND_ARRAY ? jqv_array_append(jqv_copy(path), jqv_copy(*jqv_object_key_at(t, i))) : jqv_invalid();
      rc = emit(I, x->cb, x->ud, jqv_copy(*jqv_object_value_at(t, i)), p);
      if (rc == JQ_OK) rc = step(I);
    }
  } else {
    char b[128];
    jqv e = jq_error_fmt("Cannot iterate over %s", jq_value_brief(&t, b, sizeof b));
    jqv_free(t);
    jqv_free(path);
    return jq_raise(I, e);
  }
  jqv_free(t);
  jqv_free(path);
  return rc;
}

/* ---- recursion (.., recurse(f)) ---- */

typedef struct {
  const jq_node *f; /* NULL: .[]? */
  jq_frame *env;
  jq_cb cb;
  void *ud;
} recurse_ctx;

/* Collects (value, path) pairs. */
typedef struct {
  jqv vals, paths;
} pair_collector;
static int collect_pair_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  (void)I;
  pair_collector *c = ud;
  c->vals = jqv_array_append(c->vals, v);
  c->paths = jqv_array_append(c->paths, path);
  return JQ_OK;
}

/* The children of v for `..` (f NULL: .[]?) or recurse(f), as pairs. */
static int recurse_children(jq_interp *I, recurse_ctx *r, const jqv *v, const jqv *path, pair_collector *pc) {
  pc->vals = jqv_array();
  pc->paths = jqv_array();
  if (r->f) return jq_eval(I, r->f, r->env, jqv_copy(*v), jqv_copy(*path), collect_pair_cb, pc);
  if (path->kind == JQV_KIND_NULL) return JQ_OK;
  bool track = path->kind == JQV_KIND_ARRAY;
  if (v->kind == JQV_KIND_ARRAY) {
    for (size_t i = 0; i < jqv_array_len(*v); i++) {
      pc->vals = jqv_array_append(pc->vals, jqv_copy(*jqv_array_at(*v, i)));
      pc->paths = jqv_array_append(pc->paths, track ? jqv_array_append(jqv_copy(*path), jqv_number((double)i)) : jqv_invalid());
    }
  } else if (v->kind == JQV_KIND_OBJECT) {
    for (size_t i = 0; i < jqv_object_len(*v); i++) {
      pc->vals = jqv_array_append(pc->vals, jqv_copy(*jqv_object_value_at(*v, i)));
      pc->paths = jqv_array_append(pc->paths, track ? jqv_array_append(jqv_copy(*path), jqv_copy(*jqv_object_key_at(*v, i))) : jqv_invalid());
    }
  }
  return JQ_OK;
}

/* `def recurse(f): def r: ., (f | r); r;` without C recursion: a
 * depth-first walk over an explicit stack of pending children, each level
 * dropped as soon as its last child is taken (so repeat/while/recurse
 * over a chain run in constant memory). f's outputs for one value are
 * collected before the walk goes on. */
static NOINLINE int recurse_rec(jq_interp *I, recurse_ctx *r, jqv v, jqv path, int depth) {
  (void)depth;
  typedef struct {
    jqv vals, paths;
    size_t i;
  } level;
  level *st = NULL;
  size_t n = 0, cap = 0;
  int rc = emit(I, r->cb, r->ud, jqv_copy(v), jqv_copy(path));
  for (;;) {
    if (rc == JQ_OK) {
      pair_collector pc;
      rc = recurse_children(I, r, &v, &path, &pc);
      if (rc == JQ_OK && jqv_array_len(pc.vals) > 0) {
        if (cmd_grow(&st, &cap, n + 1, sizeof *st)) {
          jqv_free(pc.vals);
          jqv_free(pc.paths);
          rc = jq_raise(I, jq_error_fmt("out of memory"));
          break;
        }
        st[n++] = (level){pc.vals, pc.paths, 0};
      } else {
        jqv_free(pc.vals);
        jqv_free(pc.paths);
      }
    }
    jqv_free(v);
    jqv_free(path);
    v = jqv_invalid();
    path = jqv_invalid();
    if (rc != JQ_OK || n == 0) break;
    level *top = &st[n - 1];
    v = jqv_copy(*jqv_array_at(top->vals, top->i));
    path = jqv_copy(*jqv_array_at(top->paths, top->i));
    if (++top->i == jqv_array_len(top->vals)) {
      jqv_free(top->vals);
      jqv_free(top->paths);
      n--;
    }
    rc = step(I);
    if (rc == JQ_OK) rc = emit(I, r->cb, r->ud, jqv_copy(v), jqv_copy(path));
  }
  jqv_free(v);
  jqv_free(path);
  while (n > 0) {
    n--;
    jqv_free(st[n].vals);
    jqv_free(st[n].paths);
  }
  free(st);
  return rc;
}

/* ---- pattern binding ---- */

typedef struct {
  jq_frame *frames; /* the group's frames, [0] bottom */
  int n;
} binding;

static int bind_pattern(jq_interp *I, const jq_node *pat, jq_frame *env, binding *b, jqv v);

static void set_var(binding *b, int hops, jqv v) {
  int idx = b->n - 1 - hops;
  jqv_free(b->frames[idx].val);
  b->frames[idx].val = v;
}

static int bind_pattern(jq_interp *I, const jq_node *pat, jq_frame *env, binding *b, jqv v) {
  if (pat->type == N_PAT_VAR) {
    set_var(b, pat->hops, v);
    return JQ_OK;
  }
  if (pat->type == N_PAT_ARRAY) {
    if (v.kind != JQV_KIND_ARRAY && v.kind != JQV_KIND_NULL) {
      jqv e = jq_error_fmt("Cannot index %s with number", jqv_kind_name((jqv_kind)v.kind));
      jqv_free(v);
      return jq_raise(I, e);
    }
    for (int i = 0; i < pat->nargs; i++) {
      jqv el = v.kind == JQV_KIND_ARRAY ? jqv_array_get(jqv_copy(v), i) : jqv_null();
      if (!jqv_is_valid(el)) el = jqv_null();
      int rc = bind_pattern(I, pat->args[i], env, b, el);
      if (rc != JQ_OK) {
        jqv_free(v);
        return rc;
      }
    }
    jqv_free(v);
    return JQ_OK;
  }
  /* object pattern */
  jq_frame *top = b->n ? &b->frames[b->n - 1] : env;
  for (int i = 0; i < pat->nargs; i++) {
    const jq_node *e = pat->args[i];
    jqv keys;
    int rc = eval_collect(I, e->a, top, jqv_copy(v), &keys);
    if (rc != JQ_OK) {
      jqv_free(v);
      return rc;
    }
    for (size_t k = 0; k < jqv_array_len(keys); k++) {
      jqv key = jqv_copy(*jqv_array_at(keys, k));
      if (key.kind != JQV_KIND_STRING) {
        char bb[128];
        jqv err = jq_error_fmt("Cannot index %s with %s", jqv_kind_name((jqv_kind)v.kind), jqv_kind_name((jqv_kind)key.kind));
        if (v.kind == JQV_KIND_OBJECT) {
          jqv_free(err);
          err = jq_error_fmt("Cannot use %s as object key", jq_value_brief(&key, bb, sizeof bb));
        }
        jqv_free(key);
        jqv_free(keys);
        jqv_free(v);
        return jq_raise(I, err);
      }
      jqv val = jq_index(jqv_copy(v), jqv_copy(key));
      jqv_free(key);
      if (!jqv_is_valid(val)) {
        jqv_free(keys);
        jqv_free(v);
        return jq_raise(I, val);
      }
      if (e->name) set_var(b, e->hops, jqv_copy(val));
      if (e->b) {
        rc = bind_pattern(I, e->b, env, b, val);
        if (rc != JQ_OK) {
          jqv_free(keys);
          jqv_free(v);
          return rc;
        }
      } else {
        jqv_free(val);
      }
    }
    jqv_free(keys);
  }
  jqv_free(v);
  return JQ_OK;
}

/* ---- context structs for the combinators ---- */

typedef struct {
  const jq_node *n;
  jq_frame *env;
  jq_cb cb;
  void *ud;
  jqv in, path; /* original input (borrowed) */
  jqv extra;    /* per-node scratch */
  int idx;
  guard *g;
} gen_ctx;

static int pipe_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  gen_ctx *c = ud;
  return jq_eval(I, c->n->b, c->env, v, path, c->cb, c->ud);
}

/* N_BINOP: b outer, a inner. */
static int binop_inner_cb(jq_interp *I, void *ud, jqv a, jqv path) {
  gen_ctx *c = ud;
  jqv_free(path);
  jqv r = jq_binop(c->n->op, a, jqv_copy(c->extra));
  if (!jqv_is_valid(r)) return jq_raise(I, r);
  return emit(I, c->cb, c->ud, r, jqv_invalid());
}
static int binop_outer_cb(jq_interp *I, void *ud, jqv b, jqv path) {
  gen_ctx *c = ud;
  jqv_free(path);
  gen_ctx inner = *c;
  inner.extra = b;
  int rc = jq_eval(I, c->n->a, c->env, jqv_copy(c->in), jqv_invalid(), binop_inner_cb, &inner);
  jqv_free(b);
  return rc;
}

static int and_inner_cb(jq_interp *I, void *ud, jqv b, jqv path) {
  gen_ctx *c = ud;
  jqv_free(path);
  bool t = jq_truthy(&b);
  jqv_free(b);
  return emit(I, c->cb, c->ud, jqv_bool(t), jqv_invalid());
}
static int and_outer_cb(jq_interp *I, void *ud, jqv a, jqv path) {
  gen_ctx *c = ud;
  jqv_free(path);
  bool t = jq_truthy(&a);
  jqv_free(a);
  bool is_and = c->n->type == N_AND;
  if (is_and && !t) return emit(I, c->cb, c->ud, jqv_false(), jqv_invalid());
  if (!is_and && t) return emit(I, c->cb, c->ud, jqv_true(), jqv_invalid());
  return jq_eval(I, c->n->b, c->env, jqv_copy(c->in), jqv_invalid(), and_inner_cb, c);
}

static int neg_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  gen_ctx *c = ud;
  jqv_free(path);
  if (v.kind != JQV_KIND_NUMBER) {
    char b[128];
    jqv e = jq_error_fmt("%s cannot be negated", jq_value_brief(&v, b, sizeof b));
    jqv_free(v);
    return jq_raise(I, e);
  }
  return emit(I, c->cb, c->ud, jqv_number_negate(v), jqv_invalid());
}

static int if_cb(jq_interp *I, void *ud, jqv cond, jqv cpath) {
  gen_ctx *c = ud;
  jqv_free(cpath);
  bool t = jq_truthy(&cond);
  jqv_free(cond);
  const jq_node *branch = t ? c->n->b : c->n->c;
  if (!branch) return emit(I, c->cb, c->ud, jqv_copy(c->in), jqv_copy(c->path));
  return jq_eval(I, branch, c->env, jqv_copy(c->in), jqv_copy(c->path), c->cb, c->ud);
}

static int alt_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  gen_ctx *c = ud;
  if (!jq_truthy(&v)) {
    jqv_free(v);
    jqv_free(path);
    return JQ_OK;
  }
  c->idx++;
  int rc = c->g->cb(I, c->g->ud, v, path);
  if (rc != JQ_OK) c->g->downstream_err = true;
  return rc;
}

static int array_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  (void)I;
  gen_ctx *c = ud;
  jqv_free(path);
  c->extra = jqv_array_append(c->extra, v);
  return JQ_OK;
}

/* strings: parts evaluated right to left (the last part is the outer loop) */
static jqv format_value(jq_interp *I, const char *fmt, jqv v);

typedef struct strctx {
  const jq_node *n;
  jq_frame *env;
  jqv in;
  jqv *parts; /* chosen value per part */
  int i;
  jq_cb cb;
  void *ud;
} strctx;
static int string_level(jq_interp *I, strctx *s, int i);
static int string_part_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  void **pp = ud;
  strctx *s = pp[0];
  int i = *(int *)pp[1];
  jqv_free(path);
  jqv t;
  if (s->n->name) t = format_value(I, s->n->name, v);
  else t = v.kind == JQV_KIND_STRING ? v : jq_tostring(v);
  if (!jqv_is_valid(t)) return jq_raise(I, t);
  s->parts[i] = t;
  int rc = string_level(I, s, i - 1);
  jqv_free(s->parts[i]);
  s->parts[i] = jqv_invalid();
  return rc;
}
static int string_level(jq_interp *I, strctx *s, int i) {
  if (i < 0) {
    jqv r = jqv_string("");
    for (int k = 0; k < s->n->nargs; k++) r = jqv_string_concat(r, jqv_copy(s->parts[k]));
    return emit(I, s->cb, s->ud, r, jqv_invalid());
  }
  const jq_node *part = s->n->args[i];
  if (part->type == N_LITERAL && (i % 2 == 0)) {
    s->parts[i] = jqv_copy(part->val);
    int rc = string_level(I, s, i - 1);
    jqv_free(s->parts[i]);
    s->parts[i] = jqv_invalid();
    return rc;
  }
  void *pp[2] = {s, &i};
  return jq_eval(I, part, s->env, jqv_copy(s->in), jqv_invalid(), string_part_cb, pp);
}

/* objects: entries left to right, key outer, value inner */
typedef struct objctx {
  const jq_node *n;
  jq_frame *env;
  jqv in;
  jqv obj;
  jqv key;
  int i;
  jq_cb cb;
  void *ud;
} objctx;
static int object_level(jq_interp *I, objctx *o, int i, jqv obj);
typedef struct {
  objctx *o;
  int i;
  jqv obj;
  jqv key;
} objlevel;
static int object_val_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  objlevel *l = ud;
  jqv_free(path);
  jqv obj = jqv_object_set(jqv_copy(l->obj), jqv_copy(l->key), v);
  return object_level(I, l->o, l->i + 1, obj);
}
static int object_key_cb(jq_interp *I, void *ud, jqv k, jqv path) {
  objlevel *l = ud;
  jqv_free(path);
  if (k.kind != JQV_KIND_STRING) {
    char b[128];
    jqv e = jq_error_fmt("Object keys must be strings");
    if (k.kind != JQV_KIND_NULL || 1) {
      jqv_free(e);
      e = jq_error_fmt("Cannot use %s as object key", jq_value_brief(&k, b, sizeof b));
    }
    jqv_free(k);
    return jq_raise(I, e);
  }
  const jq_node *ent = l->o->n->args[l->i];
  objlevel inner = *l;
  inner.key = k;
  int rc;
  if (ent->b) {
    rc = jq_eval(I, ent->b, l->o->env, jqv_copy(l->o->in), jqv_invalid(), object_val_cb, &inner);
  } else {
    jqv v = jq_index(jqv_copy(l->o->in), jqv_copy(k));
    if (!jqv_is_valid(v)) rc = jq_raise(I, v);
    else rc = object_val_cb(I, &inner, v, jqv_invalid());
  }
  jqv_free(k);
  return rc;
}
static int object_level(jq_interp *I, objctx *o, int i, jqv obj) {
  if (i == o->n->nargs) return emit(I, o->cb, o->ud, obj, jqv_invalid());
  objlevel l = {o, i, obj, jqv_invalid()};
  const jq_node *ent = o->n->args[i];
  int rc = jq_eval(I, ent->a, o->env, jqv_copy(o->in), jqv_invalid(), object_key_cb, &l);
  jqv_free(obj);
  return rc;
}

/* ---- function calls ---- */

static NOINLINE int call_builtin(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud);
static int mark_bad_path_cb(jq_interp *I, void *ud, jqv v, jqv path);

typedef struct callctx {
  const jq_node *def;   /* the function */
  const jq_node *call;  /* the call */
  jq_frame *callenv;    /* the caller's environment */
  jq_frame *frames;     /* the param frames */
  jqv in, path;
  jq_cb cb;
  void *ud;
} callctx;

static int call_bind(jq_interp *I, callctx *c, int param, int fi);
typedef struct {
  callctx *c;
  int param, fi;
} bindlevel;
static int call_param_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  bindlevel *b = ud;
  jqv_free(path);
  jq_frame *f = &b->c->frames[b->fi + 1];
  jqv old = f->val;
  f->val = v;
  int rc = call_bind(I, b->c, b->param + 1, b->fi + 2);
  jqv_free(f->val);
  f->val = old;
  return rc;
}
static int call_bind(jq_interp *I, callctx *c, int param, int fi) {
  if (param == c->def->nparams) {
    jq_frame *top = fi ? &c->frames[fi - 1] : NULL;
    if (!top) top = c->frames ? NULL : NULL;
    return jq_eval(I, c->def->a, fi ? &c->frames[fi - 1] : c->frames[0].up, jqv_copy(c->in), jqv_copy(c->path), c->cb, c->ud);
  }
  if (c->def->params[param][0] != '$') return call_bind(I, c, param + 1, fi + 1);
  bindlevel b = {c, param, fi};
  return jq_eval(I, c->call->args[param], c->callenv, jqv_copy(c->in), jqv_invalid(), call_param_cb, &b);
}

static jq_frame *frame_up(jq_frame *env, int hops) {
  while (hops-- > 0 && env) env = env->up;
  return env;
}

static NOINLINE int call_with_params(jq_interp *I, const jq_node *n, jq_frame *f, jq_frame *env, jqv in, jqv path,
                                     jq_cb cb, void *ud);
static int call_function(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  jq_frame *f = n->res == R_GLOBAL ? I->globals[n->gidx] : frame_up(env, n->hops);
  if (!f) {
    jqv_free(in);
    jqv_free(path);
    return jq_raise(I, jq_error_fmt("internal error: unresolved %s", n->name));
  }
  if (f->kind == F_CLOSURE) return jq_eval(I, f->fn, f->fenv, in, path, cb, ud);
  if (f->fn->nparams == 0) return jq_eval(I, f->fn->a, f, in, path, cb, ud);
  return call_with_params(I, n, f, env, in, path, cb, ud);
}

/* A call of a function with parameters: a frame per closure parameter,
 * two per $parameter (the closure and the value bound in turn). */
static NOINLINE int call_with_params(jq_interp *I, const jq_node *n, jq_frame *f, jq_frame *env, jqv in, jqv path,
                                     jq_cb cb, void *ud) {
  const jq_node *def = f->fn;
  jq_frame frames[64];
  jq_frame *up = f;
  int fi = 0;
  for (int i = 0; i < def->nparams; i++) {
    frames[fi] = (jq_frame){up, F_CLOSURE, jqv_invalid(), n->args[i], env, 0};
    up = &frames[fi++];
    if (def->params[i][0] == '$') {
      frames[fi] = (jq_frame){up, F_VAR, jqv_null(), NULL, NULL, 0};
      up = &frames[fi++];
    }
  }
  callctx c = {def, n, env, frames, in, path, cb, ud};
  int rc = call_bind(I, &c, 0, 0);
  jqv_free(in);
  jqv_free(path);
  return rc;
}

/* ---- reduce / foreach ---- */

typedef struct {
  const jq_node *n;
  jq_frame *env;
  binding b;
  jqv acc, accpath; /* the state (and its path when tracking) */
  bool have;        /* the update produced output */
  jq_cb cb;
  void *ud;
  jqv in;
} reduce_ctx;

static int reduce_update_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  reduce_ctx *r = ud;
  jqv_free(r->acc);
  jqv_free(r->accpath);
  r->acc = v;
  r->accpath = path;
  r->have = true;
  return JQ_OK;
}

static int foreach_update_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  reduce_ctx *r = ud;
  jqv_free(r->acc);
  jqv_free(r->accpath);
  r->acc = jqv_copy(v);
  r->accpath = jqv_copy(path);
  if (!r->n->d) return emit(I, r->cb, r->ud, v, path);
  return jq_eval(I, r->n->d, &r->b.frames[r->b.n - 1], v, path, r->cb, r->ud);
}

static int reduce_src_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  reduce_ctx *r = ud;
  jqv_free(path);
  int rc = step(I);
  if (rc != JQ_OK) {
    jqv_free(v);
    return rc;
  }
  /* bind (first pattern; alternatives: try in order) */
  for (int i = 0; i < r->b.n; i++) {
    jqv_free(r->b.frames[i].val);
    r->b.frames[i].val = jqv_null();
  }
  rc = JQ_ERR;
  for (int p = 0; p < r->n->nargs; p++) {
    rc = bind_pattern(I, r->n->args[p], r->env, &r->b, jqv_copy(v));
    if (rc != JQ_ERR || p == r->n->nargs - 1) break;
  }
  jqv_free(v);
  if (rc != JQ_OK) return rc;
  jq_frame *top = r->b.n ? &r->b.frames[r->b.n - 1] : r->env;
  jqv acc = r->acc, accpath = r->accpath;
  r->acc = jqv_null();
  r->accpath = jqv_is_valid(accpath) ? jqv_array() : jqv_invalid();
  if (r->n->type == N_REDUCE) {
    r->have = false;
    jqv saved_path = jqv_copy(accpath);
    rc = jq_eval(I, r->n->c, top, acc, accpath, reduce_update_cb, r);
    if (rc == JQ_OK && !r->have) {
      /* jq 1.8: an empty update makes the state null */
      jqv_free(r->acc);
      r->acc = jqv_null();
    }
    jqv_free(saved_path);
    return rc;
  }
  return jq_eval(I, r->n->c, top, acc, accpath, foreach_update_cb, r);
}

static int reduce_init_cb(jq_interp *I, void *ud, jqv init, jqv path) {
  reduce_ctx *base = ud;
  reduce_ctx r = *base;
  r.acc = init;
  r.accpath = path;
  jq_frame frames[64];
  jq_frame *up = base->env;
  for (int i = 0; i < base->n->nframes; i++) {
    frames[i] = (jq_frame){up, F_VAR, jqv_null(), NULL, NULL, 0};
    up = &frames[i];
  }
  r.b.frames = frames;
  r.b.n = base->n->nframes;
  int rc = jq_eval(I, base->n->a, base->env, jqv_copy(base->in), jqv_invalid(), reduce_src_cb, &r);
  for (int i = 0; i < r.b.n; i++) jqv_free(frames[i].val);
  if (rc == JQ_OK && base->n->type == N_REDUCE) return emit(I, base->cb, base->ud, r.acc, r.accpath);
  jqv_free(r.acc);
  jqv_free(r.accpath);
  return rc;
}

/* ---- as bindings ---- */

typedef struct {
  const jq_node *n;
  jq_frame *env;
  jqv in, path;
  jq_cb cb;
  void *ud;
} as_ctx;

static int as_cb(jq_interp *I, void *ud, jqv v, jqv vpath) {
  as_ctx *a = ud;
  jqv_free(vpath);
  jq_frame frames[64];
  jq_frame *up = a->env;
  int nf = a->n->nframes;
  for (int i = 0; i < nf; i++) {
    frames[i] = (jq_frame){up, F_VAR, jqv_null(), NULL, NULL, 0};
    up = &frames[i];
  }
  binding b = {frames, nf};
  int rc = JQ_OK;
  for (int p = 0; p < a->n->nargs; p++) {
    bool last = p == a->n->nargs - 1;
    for (int i = 0; i < nf; i++) {
      jqv_free(frames[i].val);
      frames[i].val = jqv_null();
    }
    rc = bind_pattern(I, a->n->args[p], a->env, &b, jqv_copy(v));
    if (rc == JQ_ERR && !last) {
      continue;
    }
    if (rc != JQ_OK) break;
    guard g = {a->cb, a->ud, false, 0};
    rc = jq_eval(I, a->n->b, nf ? &frames[nf - 1] : a->env, jqv_copy(a->in), jqv_copy(a->path), last ? a->cb : guard_cb,
                 last ? a->ud : (void *)&g);
    if (rc == JQ_ERR && !last && !g.downstream_err) continue;
    break;
  }
  for (int i = 0; i < nf; i++) jqv_free(frames[i].val);
  jqv_free(v);
  return rc;
}

/* ---- assignment ---- */

typedef struct {
  const jq_node *n;
  jq_frame *env;
  jqv in;
  jq_cb cb;
  void *ud;
} assign_ctx;

static int collect_paths(jq_interp *I, const jq_node *lhs, jq_frame *env, jqv in, jqv *paths) {
  collector c = {jqv_array()};
  int rc = jq_eval(I, lhs, env, in, jqv_array(), collect_path_cb, &c);
  if (rc != JQ_OK) {
    jqv_free(c.arr);
    return rc;
  }
  *paths = c.arr;
  return JQ_OK;
}

/* `lhs = $v`, `lhs op= $v`, `lhs //= $v` for one value of the rhs. */
static int assign_value_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  assign_ctx *a = ud;
  jqv_free(path);
  jqv paths;
  int rc = collect_paths(I, a->n->a, a->env, jqv_copy(a->in), &paths);
  if (rc != JQ_OK) {
    jqv_free(v);
    return rc;
  }
  jqv r = jqv_copy(a->in);
  int op = a->n->op;
  for (size_t i = 0; i < jqv_array_len(paths); i++) {
    jqv p = jqv_copy(*jqv_array_at(paths, i));
    jqv nv;
    if (op == '=') {
      nv = jqv_copy(v);
    } else {
      jqv old = jq_getpath(jqv_copy(r), jqv_copy(p));
      if (!jqv_is_valid(old)) {
        jqv_free(p);
        jqv_free(r);
        jqv_free(paths);
        jqv_free(v);
        return jq_raise(I, old);
      }
      if (op == 'A') {
        if (jq_truthy(&old)) nv = old;
        else {
          jqv_free(old);
          nv = jqv_copy(v);
        }
      } else {
        nv = jq_binop(op, old, jqv_copy(v));
      }
      if (!jqv_is_valid(nv)) {
        jqv_free(p);
        jqv_free(r);
        jqv_free(paths);
        jqv_free(v);
        return jq_raise(I, nv);
      }
    }
    r = jq_setpath(r, p, nv);
    if (!jqv_is_valid(r)) {
      jqv_free(paths);
      jqv_free(v);
      return jq_raise(I, r);
    }
  }
  jqv_free(paths);
  jqv_free(v);
  return emit(I, a->cb, a->ud, r, jqv_invalid());
}

typedef struct {
  jqv val;
  bool have;
} first_ctx;
static int first_value_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  (void)I;
  first_ctx *f = ud;
  jqv_free(path);
  f->val = v;
  f->have = true;
  return JQ_BREAK + 100; /* stop after the first */
}

static NOINLINE int eval_modify(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jq_cb cb, void *ud) {
  jqv paths;
  int rc = collect_paths(I, n->a, env, jqv_copy(in), &paths);
  if (rc != JQ_OK) {
    jqv_free(in);
    return rc;
  }
  jqv r = in;
  jqv dels = jqv_array();
  for (size_t i = 0; i < jqv_array_len(paths); i++) {
    jqv p = jqv_copy(*jqv_array_at(paths, i));
    jqv old = jq_getpath(jqv_copy(r), jqv_copy(p));
    if (!jqv_is_valid(old)) {
      jqv_free(p);
      jqv_free(r);
      jqv_free(paths);
      jqv_free(dels);
      return jq_raise(I, old);
    }
    first_ctx f = {jqv_invalid(), false};
    rc = jq_eval(I, n->b, env, old, jqv_invalid(), first_value_cb, &f);
    if (rc == JQ_BREAK + 100) rc = JQ_OK;
    if (rc != JQ_OK) {
      jqv_free(p);
      jqv_free(r);
      jqv_free(paths);
      jqv_free(dels);
      jqv_free(f.val);
      return rc;
    }
    if (!f.have) {
      dels = jqv_array_append(dels, p);
      continue;
    }
    r = jq_setpath(r, p, f.val);
    if (!jqv_is_valid(r)) {
      jqv_free(paths);
      jqv_free(dels);
      return jq_raise(I, r);
    }
  }
  jqv_free(paths);
  if (jqv_array_len(dels)) {
    r = jq_delpaths(r, dels);
    if (!jqv_is_valid(r)) return jq_raise(I, r);
  } else {
    jqv_free(dels);
  }
  return emit(I, cb, ud, r, jqv_invalid());
}

/* ---- try ---- */

static NOINLINE int eval_try(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  guard g = {cb, ud, false, 0};
  jqv in2 = jqv_copy(in);
  int rc = jq_eval(I, n->a, env, in, path, guard_cb, &g);
  if (rc != JQ_ERR || g.downstream_err) {
    jqv_free(in2);
    return rc;
  }
  jqv err = I->err;
  I->err = jqv_invalid();
  jqv msg = jqv_invalid_get_msg(err);
  /* break out of the try: errors stop it, and the handler runs on the message */
  if (!n->b) {
    jqv_free(msg);
    jqv_free(in2);
    return JQ_OK;
  }
  jqv_free(in2);
  if (msg.kind == JQV_KIND_OBJECT) {
    /* an internal "__jq" error from halt? not used */
  }
  return jq_eval(I, n->b, env, msg, jqv_invalid(), cb, ud);
}

/* ---- label ---- */

static NOINLINE int eval_label(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  jq_frame l = {env, F_LABEL, jqv_invalid(), NULL, NULL, ++I->next_label};
  int rc = jq_eval(I, n->a, &l, in, path, cb, ud);
  if (rc == JQ_BREAK && I->break_label == l.label) return JQ_OK;
  return rc;
}

/* Re-emits a value with the "not a path" marker. */
static int mark_bad_path_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  struct {
    jq_cb cb;
    void *ud;
  } *w = ud;
  jqv_free(path);
  return w->cb(I, w->ud, v, jqv_null());
}

/* ---- main dispatcher ---- */

int jq_eval(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  int rc = step(I);
  if (rc != JQ_OK) {
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  bool paths = jqv_is_valid(path);
  switch (n->type) {
  case N_IDENTITY: return emit(I, cb, ud, in, path);
  case N_RECURSE: {
    recurse_ctx r = {NULL, env, cb, ud};
    return recurse_rec(I, &r, in, path, 0);
  }
  case N_FIELD: {
    index_ctx x = {n, env, n->val, jqv_invalid(), jqv_invalid(), cb, ud, false};
    if (n->a) return jq_eval(I, n->a, env, in, path, index_cb, &x);
    return do_index(I, &x, in, path, jqv_copy(n->val));
  }
  case N_INDEX:
  case N_SLICE: return eval_index(I, n, env, in, path, cb, ud);
  case N_ITER: {
    index_ctx x = {n, env, jqv_invalid(), jqv_invalid(), jqv_invalid(), cb, ud, false};
    if (n->a) return jq_eval(I, n->a, env, in, path, iter_cb, &x);
    return iter_cb(I, &x, in, path);
  }
  case N_PIPE: {
    gen_ctx c = {n, env, cb, ud, jqv_invalid(), jqv_invalid(), jqv_invalid(), 0, NULL};
    return jq_eval(I, n->a, env, in, path, pipe_cb, &c);
  }
  case N_COMMA:
    rc = jq_eval(I, n->a, env, jqv_copy(in), jqv_copy(path), cb, ud);
    if (rc != JQ_OK) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    return jq_eval(I, n->b, env, in, path, cb, ud);
  case N_IF: {
    gen_ctx c = {n, env, cb, ud, in, path, jqv_invalid(), 0, NULL};
    rc = jq_eval(I, n->a, env, jqv_copy(in), jqv_invalid(), if_cb, &c);
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  case N_ALT: {
    guard g = {cb, ud, false, 0};
    gen_ctx c = {n, env, cb, ud, in, path, jqv_invalid(), 0, &g};
    rc = jq_eval(I, n->a, env, jqv_copy(in), jqv_copy(path), alt_cb, &c);
    if (g.downstream_err) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    if (rc == JQ_ERR) {
      jqv_free(I->err);
      I->err = jqv_invalid();
      rc = JQ_OK;
    }
    if (rc != JQ_OK || c.idx > 0) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    return jq_eval(I, n->b, env, in, path, cb, ud);
  }
  case N_TRY: return eval_try(I, n, env, in, path, cb, ud);
  case N_REDUCE:
  case N_FOREACH: {
    reduce_ctx r = {n, env, {NULL, 0}, jqv_invalid(), jqv_invalid(), false, cb, ud, in};
    rc = jq_eval(I, n->b, env, jqv_copy(in), paths ? jqv_copy(path) : jqv_invalid(), reduce_init_cb, &r);
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  case N_FUNCDEF: {
    if (n->global >= 0) return jq_eval(I, n->b, I->globals[n->global], in, path, cb, ud);
    jq_frame f = {env, F_DEF, jqv_invalid(), n, env, 0};
    return jq_eval(I, n->b, &f, in, path, cb, ud);
  }
  case N_CALL:
    if (n->res == R_BUILTIN) return call_builtin(I, n, env, in, path, cb, ud);
    return call_function(I, n, env, in, path, cb, ud);
  case N_AS: {
    as_ctx a = {n, env, in, path, cb, ud};
    rc = jq_eval(I, n->a, env, jqv_copy(in), jqv_invalid(), as_cb, &a);
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  case N_LABEL: return eval_label(I, n, env, in, path, cb, ud);
  case N_BREAK: {
    jq_frame *f = frame_up(env, n->hops);
    jqv_free(in);
    jqv_free(path);
    if (!f || f->kind != F_LABEL) return jq_raise(I, jq_error_fmt("break without a label"));
    I->break_label = f->label;
    return JQ_BREAK;
  }
  default: break;
  }

  /* value-only nodes */
  jqv_free(path);
  if (paths) {
    /* a value computed inside a path expression: not a path itself */
    typedef struct {
      jq_cb cb;
      void *ud;
    } np;
    np w = {cb, ud};
    return jq_eval(I, n, env, in, jqv_invalid(), mark_bad_path_cb, &w);
  }
  switch (n->type) {
  case N_LITERAL: jqv_free(in); return emit(I, cb, ud, jqv_copy(n->val), jqv_invalid());
  case N_LOC: {
    jqv_free(in);
    jqv o = jqv_object_set(jqv_object(), jqv_string("file"), jqv_string("<top-level>"));
    o = jqv_object_set(o, jqv_string("line"), jqv_number(n->line));
    return emit(I, cb, ud, o, jqv_invalid());
  }
  case N_VAR: {
    jqv_free(in);
    if (n->res == R_BUILTIN) return emit(I, cb, ud, jqv_copy(I->positional), jqv_invalid());
    jq_frame *f = n->res == R_GLOBAL ? I->globals[n->gidx] : frame_up(env, n->hops);
    if (!f) return jq_raise(I, jq_error_fmt("internal error: unresolved $%s", n->name));
    return emit(I, cb, ud, jqv_copy(f->val), jqv_invalid());
  }
  case N_STRING: {
    jqv *parts = calloc((size_t)n->nargs + 1, sizeof *parts);
    if (!parts) {
      jqv_free(in);
      return jq_raise(I, jq_error_fmt("out of memory"));
    }
    for (int i = 0; i < n->nargs; i++) parts[i] = jqv_invalid();
    strctx s = {n, env, in, parts, 0, cb, ud};
    rc = string_level(I, &s, n->nargs - 1);
    for (int i = 0; i < n->nargs; i++) jqv_free(parts[i]);
    free(parts);
    jqv_free(in);
    return rc;
  }
  case N_FORMAT: {
    jqv r = format_value(I, n->name, in);
    if (!jqv_is_valid(r)) return jq_raise(I, r);
    return emit(I, cb, ud, r, jqv_invalid());
  }
  case N_ARRAY: {
    if (!n->a) {
      jqv_free(in);
      return emit(I, cb, ud, jqv_array(), jqv_invalid());
    }
    gen_ctx c = {n, env, cb, ud, jqv_invalid(), jqv_invalid(), jqv_array(), 0, NULL};
    rc = jq_eval(I, n->a, env, in, jqv_invalid(), array_cb, &c);
    if (rc != JQ_OK) {
      jqv_free(c.extra);
      return rc;
    }
    return emit(I, cb, ud, c.extra, jqv_invalid());
  }
  case N_OBJECT: {
    objctx o = {n, env, in, jqv_invalid(), jqv_invalid(), 0, cb, ud};
    rc = object_level(I, &o, 0, jqv_object());
    jqv_free(in);
    return rc;
  }
  case N_NEG: {
    gen_ctx c = {n, env, cb, ud, jqv_invalid(), jqv_invalid(), jqv_invalid(), 0, NULL};
    return jq_eval(I, n->a, env, in, jqv_invalid(), neg_cb, &c);
  }
  case N_BINOP: {
    gen_ctx c = {n, env, cb, ud, in, jqv_invalid(), jqv_invalid(), 0, NULL};
    rc = jq_eval(I, n->b, env, jqv_copy(in), jqv_invalid(), binop_outer_cb, &c);
    jqv_free(in);
    return rc;
  }
  case N_AND:
  case N_OR: {
    gen_ctx c = {n, env, cb, ud, in, jqv_invalid(), jqv_invalid(), 0, NULL};
    rc = jq_eval(I, n->a, env, jqv_copy(in), jqv_invalid(), and_outer_cb, &c);
    jqv_free(in);
    return rc;
  }
  case N_ASSIGN: {
    if (n->op == '|') return eval_modify(I, n, env, in, cb, ud);
    assign_ctx a = {n, env, in, cb, ud};
    rc = jq_eval(I, n->b, env, jqv_copy(in), jqv_invalid(), assign_value_cb, &a);
    jqv_free(in);
    return rc;
  }
  default: jqv_free(in); return jq_raise(I, jq_error_fmt("internal error: bad node %d", (int)n->type));
  }
}

/* .[k] / .[from:to] with generator keys (keys outer, term inner). */
typedef struct {
  const jq_node *n;
  jq_frame *env;
  jqv in, path;
  jq_cb cb;
  void *ud;
  jqv from;
} idxgen;

static int index_key_cb(jq_interp *I, void *ud, jqv k, jqv kpath) {
  idxgen *g = ud;
  jqv_free(kpath);
  index_ctx x = {g->n, g->env, k, jqv_invalid(), jqv_invalid(), g->cb, g->ud, false};
  int rc;
  if (g->n->a) rc = jq_eval(I, g->n->a, g->env, jqv_copy(g->in), jqv_copy(g->path), index_cb, &x);
  else rc = do_index(I, &x, jqv_copy(g->in), jqv_copy(g->path), jqv_copy(k));
  jqv_free(k);
  return rc;
}
static int slice_to_cb(jq_interp *I, void *ud, jqv to, jqv tpath) {
  idxgen *g = ud;
  jqv_free(tpath);
  if ((g->from.kind != JQV_KIND_NUMBER && g->from.kind != JQV_KIND_NULL) ||
      (to.kind != JQV_KIND_NUMBER && to.kind != JQV_KIND_NULL)) {
    jqv_free(to);
    return jq_raise(I, jq_error_fmt("Start and end indices of an array slice must be numbers"));
  }
  jqv key;
  slice_key(jqv_copy(g->from), to, &key);
  return index_key_cb(I, g, key, jqv_invalid());
}
static int slice_from_cb(jq_interp *I, void *ud, jqv from, jqv fpath) {
  idxgen *g = ud;
  jqv_free(fpath);
  idxgen g2 = *g;
  g2.from = from;
  int rc;
  if (g->n->c) rc = jq_eval(I, g->n->c, g->env, jqv_copy(g->in), jqv_invalid(), slice_to_cb, &g2);
  else rc = slice_to_cb(I, &g2, jqv_null(), jqv_invalid());
  jqv_free(from);
  return rc;
}

static NOINLINE int eval_index(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  idxgen g = {n, env, in, path, cb, ud, jqv_invalid()};
  int rc;
  if (n->type == N_INDEX) rc = jq_eval(I, n->b, env, jqv_copy(in), jqv_invalid(), index_key_cb, &g);
  else if (n->b) rc = jq_eval(I, n->b, env, jqv_copy(in), jqv_invalid(), slice_from_cb, &g);
  else rc = slice_from_cb(I, &g, jqv_null(), jqv_invalid());
  jqv_free(in);
  jqv_free(path);
  return rc;
}

/* ---- builtins with closures (special forms) ------------------------------------------- */


typedef struct {
  jq_cb cb;
  void *ud;
  long count, limit;
  uint64_t label;
  int special;
  bool found;
  jqv val, path;
} spec_ctx;

static int limit_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  spec_ctx *s = ud;
  s->count++;
  if (s->special == S_SKIP) {
    if (s->count <= s->limit) {
      jqv_free(v);
      jqv_free(path);
      return JQ_OK;
    }
    return s->cb(I, s->ud, v, path);
  }
  int rc = s->cb(I, s->ud, v, path);
  if (rc != JQ_OK) return rc;
  if (s->count >= s->limit) {
    I->break_label = s->label;
    return JQ_BREAK;
  }
  return JQ_OK;
}

static int found_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  spec_ctx *s = ud;
  s->found = true;
  jqv_free(s->val);
  jqv_free(s->path);
  s->val = v;
  s->path = path;
  if (s->special == S_LAST1) return JQ_OK;
  I->break_label = s->label;
  return JQ_BREAK;
}

static int any_all_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  spec_ctx *s = ud;
  jqv_free(path);
  bool t = jq_truthy(&v);
  jqv_free(v);
  if ((s->special == S_ANY2 && t) || (s->special == S_ALL2 && !t)) {
    s->found = true;
    I->break_label = s->label;
    return JQ_BREAK;
  }
  return JQ_OK;
}

/* any/all: the condition over each output of the generator */
typedef struct {
  const jq_node *cond;
  jq_frame *env;
  spec_ctx *s;
} anyc;
static int any_gen_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  anyc *a = ud;
  jqv_free(path);
  return jq_eval(I, a->cond, a->env, v, jqv_invalid(), any_all_cb, a->s);
}

static int path_out_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  spec_ctx *s = ud;
  if (bad_path(&path)) return invalid_path(I, v);
  jqv_free(v);
  return s->cb(I, s->ud, path, jqv_invalid());
}

typedef struct {
  jq_interp *I;
  const jq_node *n;
  jq_frame *env;
  jqv in;
  jqv *argv;
  int argc;
  jqv path;
  jq_cb cb;
  void *ud;
  int bi;
} cargs_ctx;

static int cfunc_level(jq_interp *I, cargs_ctx *c, int i);
typedef struct {
  cargs_ctx *c;
  int i;
} cargs_level;
static int cfunc_arg_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  cargs_level *l = ud;
  jqv_free(path);
  l->c->argv[l->i] = v;
  int rc = cfunc_level(I, l->c, l->i - 1);
  jqv_free(l->c->argv[l->i]);
  l->c->argv[l->i] = jqv_invalid();
  return rc;
}
static int cfunc_level(jq_interp *I, cargs_ctx *c, int i) {
  if (i < 0) {
    const jq_builtin *b = &jq_builtins[c->bi];
    jqv r = b->fn(I, jqv_copy(c->in), c->argv);
    if (!jqv_is_valid(r)) {
      if (!jqv_invalid_has_msg(jqv_copy(r))) return JQ_OK; /* no output */
      jqv msg = jqv_invalid_get_msg(jqv_copy(r));
      if (msg.kind == JQV_KIND_OBJECT && jqv_object_find(msg, "__jq_halt", 9)) {
        jqv_free(msg);
        jqv_free(r);
        return JQ_STOP;
      }
      jqv_free(msg);
      return jq_raise(I, r);
    }
    return emit(I, c->cb, c->ud, r, jqv_invalid());
  }
  cargs_level l = {c, i};
  return jq_eval(I, c->n->args[i], c->env, jqv_copy(c->in), jqv_invalid(), cfunc_arg_cb, &l);
}

static int range_emit(jq_interp *I, jq_cb cb, void *ud, double from, double upto, double by) {
  int rc = JQ_OK;
  if (by > 0) {
    for (double x = from; x < upto && rc == JQ_OK; x += by) {
      rc = step(I);
      if (rc == JQ_OK) rc = emit(I, cb, ud, jqv_number(x), jqv_invalid());
    }
  } else if (by < 0) {
    for (double x = from; x > upto && rc == JQ_OK; x += by) {
      rc = step(I);
      if (rc == JQ_OK) rc = emit(I, cb, ud, jqv_number(x), jqv_invalid());
    }
  } else if (from < upto) {
    /* by == 0: jq loops forever emitting from; the deadline stops it */
    while (rc == JQ_OK) {
      rc = step(I);
      if (rc == JQ_OK) rc = emit(I, cb, ud, jqv_number(from), jqv_invalid());
    }
  }
  return rc;
}

typedef struct {
  jq_cb cb;
  void *ud;
  jqv vals[3];
  int n;
  const jq_node *node;
  jq_frame *env;
  jqv in;
} range_ctx;
static int range_level(jq_interp *I, range_ctx *r, int i);
typedef struct {
  range_ctx *r;
  int i;
} range_lv;
static int range_arg_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  range_lv *l = ud;
  jqv_free(path);
  if (v.kind != JQV_KIND_NUMBER) {
    jqv_free(v);
    return jq_raise(I, jq_error_fmt("Range bounds must be numeric"));
  }
  l->r->vals[l->i] = v;
  return range_level(I, l->r, l->i + 1);
}
static int range_level(jq_interp *I, range_ctx *r, int i) {
  if (i == r->n) {
    if (r->n == 1) return range_emit(I, r->cb, r->ud, 0, r->vals[0].num, 1);
    if (r->n == 2) return range_emit(I, r->cb, r->ud, r->vals[0].num, r->vals[1].num, 1);
    return range_emit(I, r->cb, r->ud, r->vals[0].num, r->vals[1].num, r->vals[2].num);
  }
  range_lv l = {r, i};
  return jq_eval(I, r->node->args[i], r->env, jqv_copy(r->in), jqv_invalid(), range_arg_cb, &l);
}

/* stable sort of values by keys */
typedef struct {
  jqv key;
  size_t idx;
} keyed;
static int keyed_cmp(const void *x, const void *y) {
  const keyed *a = x, *b = y;
  int c = jqv_cmp(&a->key, &b->key);
  if (c) return c;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int eval_by(jq_interp *I, int special, const jq_node *f, jq_frame *env, jqv in, jq_cb cb, void *ud) {
  if (in.kind != JQV_KIND_ARRAY) {
    /* jq computes map([f]) first (errors from f come first), then the
     * implementation refuses the input */
    jqv keys = jqv_array();
    if (in.kind == JQV_KIND_OBJECT) {
      for (size_t i = 0; i < jqv_object_len(in); i++) {
        jqv k;
        int rc = eval_collect(I, f, env, jqv_copy(*jqv_object_value_at(in, i)), &k);
        if (rc != JQ_OK) {
          jqv_free(keys);
          jqv_free(in);
          return rc;
        }
        keys = jqv_array_append(keys, k);
      }
    } else {
      jqv_free(keys);
      jqv e = jq_error_fmt("Cannot iterate over %s", jqv_kind_name((jqv_kind)in.kind));
      if (in.kind != JQV_KIND_NULL) {
        char b[128];
        jqv_free(e);
        e = jq_error_fmt("Cannot iterate over %s", jq_value_brief(&in, b, sizeof b));
      }
      jqv_free(in);
      return jq_raise(I, e);
    }
    char b1[128], b2[128];
    jqv e = jq_error_fmt("%s and %s %s", jq_value_brief(&in, b1, sizeof b1), jq_value_brief(&keys, b2, sizeof b2),
                         special == S_MIN_BY || special == S_MAX_BY ? "cannot be iterated over"
                                                                    : "cannot be sorted, as they are not both arrays");
    jqv_free(keys);
    jqv_free(in);
    return jq_raise(I, e);
  }
  size_t n = jqv_array_len(in);
  keyed *ks = calloc(n ? n : 1, sizeof *ks);
  if (!ks) {
    jqv_free(in);
    return jq_raise(I, jq_error_fmt("out of memory"));
  }
  for (size_t i = 0; i < n; i++) {
    jqv key;
    int rc = eval_collect(I, f, env, jqv_copy(*jqv_array_at(in, i)), &key);
    if (rc != JQ_OK) {
      for (size_t j = 0; j < i; j++) jqv_free(ks[j].key);
      free(ks);
      jqv_free(in);
      return rc;
    }
    ks[i].key = key;
    ks[i].idx = i;
  }
  qsort(ks, n, sizeof *ks, keyed_cmp);
  jqv out;
  if (special == S_SORT_BY) {
    out = jqv_array_sized(n);
    for (size_t i = 0; i < n; i++) out = jqv_array_append(out, jqv_copy(*jqv_array_at(in, ks[i].idx)));
  } else if (special == S_GROUP_BY || special == S_UNIQUE_BY) {
    out = jqv_array();
    jqv group = jqv_invalid();
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && jqv_cmp(&ks[i].key, &ks[i - 1].key) == 0) {
        if (special == S_GROUP_BY) group = jqv_array_append(group, jqv_copy(*jqv_array_at(in, ks[i].idx)));
        continue;
      }
      if (jqv_is_valid(group)) out = jqv_array_append(out, group);
      group = jqv_invalid();
      if (special == S_GROUP_BY) group = jqv_array_append(jqv_array(), jqv_copy(*jqv_array_at(in, ks[i].idx)));
      else out = jqv_array_append(out, jqv_copy(*jqv_array_at(in, ks[i].idx)));
    }
    if (jqv_is_valid(group)) out = jqv_array_append(out, group);
  } else {
    /* min_by: first minimum; max_by: last maximum (jq semantics) */
    if (n == 0) out = jqv_null();
    else {
      size_t best = 0;
      for (size_t i = 1; i < n; i++) {
        /* find in original order */
        (void)i;
      }
      size_t bi = 0;
      for (size_t i = 0; i < n; i++) {
        size_t oi = ks[i].idx;
        (void)oi;
      }
      if (special == S_MIN_BY) bi = ks[0].idx;
      else bi = ks[n - 1].idx;
      (void)best;
      out = jqv_copy(*jqv_array_at(in, bi));
    }
  }
  for (size_t i = 0; i < n; i++) jqv_free(ks[i].key);
  free(ks);
  jqv_free(in);
  return emit(I, cb, ud, out, jqv_invalid());
}

/* `def until(cond; update): if cond then . else (update | until(cond; update)) end`
 * as a loop while cond and update give one output each (C recursion only
 * for the branches of generators). */
static int until_loop(jq_interp *I, const jq_node *cond, const jq_node *upd, jq_frame *env, jqv v, jq_cb cb, void *ud) {
  for (;;) {
    int rc = step(I);
    jqv conds = jqv_invalid();
    if (rc == JQ_OK) rc = eval_collect(I, cond, env, jqv_copy(v), &conds);
    if (rc != JQ_OK) {
      jqv_free(v);
      return rc;
    }
    size_t nc = jqv_array_len(conds);
    if (nc == 1 && !jq_truthy(jqv_array_at(conds, 0))) {
      jqv_free(conds);
      jqv ups;
      rc = eval_collect(I, upd, env, v, &ups);
      if (rc != JQ_OK) return rc;
      if (jqv_array_len(ups) == 1) {
        v = jqv_array_get(ups, 0);
        continue;
      }
      for (size_t i = 0; i < jqv_array_len(ups) && rc == JQ_OK; i++)
        rc = until_loop(I, cond, upd, env, jqv_copy(*jqv_array_at(ups, i)), cb, ud);
      jqv_free(ups);
      return rc;
    }
    for (size_t k = 0; k < nc && rc == JQ_OK; k++) {
      if (jq_truthy(jqv_array_at(conds, k))) {
        rc = emit(I, cb, ud, jqv_copy(v), jqv_invalid());
        continue;
      }
      jqv ups;
      rc = eval_collect(I, upd, env, jqv_copy(v), &ups);
      for (size_t i = 0; rc == JQ_OK && i < jqv_array_len(ups); i++)
        rc = until_loop(I, cond, upd, env, jqv_copy(*jqv_array_at(ups, i)), cb, ud);
      if (rc == JQ_OK || jqv_is_valid(ups)) jqv_free(ups);
    }
    jqv_free(conds);
    jqv_free(v);
    return rc;
  }
}

static NOINLINE int call_builtin(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud) {
  const jq_builtin *b = &jq_builtins[n->builtin];
  bool paths = jqv_is_valid(path);
  int rc;
  switch (b->special) {
  case 0: break;
  case S_EMPTY:
    jqv_free(in);
    jqv_free(path);
    return JQ_OK;
  case S_ERROR0: {
    jqv_free(path);
    return jq_raise(I, jqv_invalid_with_msg(in));
  }
  case S_ERROR1: {
    jqv_free(path);
    jqv msgs;
    rc = eval_collect(I, n->args[0], env, in, &msgs);
    if (rc != JQ_OK) return rc;
    if (jqv_array_len(msgs) == 0) {
      jqv_free(msgs);
      return JQ_OK;
    }
    jqv m = jqv_array_get(msgs, 0);
    return jq_raise(I, jqv_invalid_with_msg(m));
  }
  case S_PATH: {
    jqv_free(path);
    spec_ctx s = {cb, ud, 0, 0, 0, 0, false, jqv_invalid(), jqv_invalid()};
    return jq_eval(I, n->args[0], env, in, jqv_array(), path_out_cb, &s);
  }
  case S_PATHS1: break;
  case S_GETPATH: {
    jqv ps;
    rc = eval_collect(I, n->args[0], env, jqv_copy(in), &ps);
    if (rc != JQ_OK) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    for (size_t i = 0; i < jqv_array_len(ps) && rc == JQ_OK; i++) {
      jqv p = jqv_copy(*jqv_array_at(ps, i));
      jqv r = jq_getpath(jqv_copy(in), jqv_copy(p));
      if (!jqv_is_valid(r)) {
        if (paths) { /* the path still counts (jq 1.8): p goes on below */
          jqv_free(r);
          r = jqv_null();
        } else {
          jqv_free(p);
          rc = jq_raise(I, r);
          break;
        }
      }
      jqv np = path.kind == JQV_KIND_ARRAY ? jqv_array_concat(jqv_copy(path), p) : (jqv_free(p), jqv_copy(path));
      rc = emit(I, cb, ud, r, np);
    }
    jqv_free(ps);
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  case S_RANGE1:
  case S_RANGE2:
  case S_RANGE3: {
    jqv_free(path);
    range_ctx r = {cb, ud, {jqv_invalid(), jqv_invalid(), jqv_invalid()}, n->nargs, n, env, in};
    rc = range_level(I, &r, 0);
    for (int i = 0; i < 3; i++) jqv_free(r.vals[i]);
    jqv_free(in);
    return rc;
  }
  case S_LIMIT:
  case S_SKIP: {
    jqv ns;
    rc = eval_collect(I, n->args[0], env, jqv_copy(in), &ns);
    if (rc != JQ_OK) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    for (size_t i = 0; i < jqv_array_len(ns) && rc == JQ_OK; i++) {
      jqv nv = *jqv_array_at(ns, i);
      if (nv.kind != JQV_KIND_NUMBER) {
        rc = jq_raise(I, jq_error_fmt(b->special == S_LIMIT ? "Invalid limit: must be a number" : "Invalid skip: must be a number"));
        break;
      }
      if (nv.num < 0) {
        rc = jq_raise(I, jq_error_fmt(b->special == S_LIMIT ? "limit doesn't support negative count" : "skip doesn't support negative count"));
        break;
      }
      if (b->special == S_LIMIT && nv.num <= 0) continue;
      spec_ctx s = {cb, ud, 0, nv.num > 1e18 ? (long)1e18 : (long)ceil(nv.num), ++I->next_label, b->special, false, jqv_invalid(), jqv_invalid()};
      rc = jq_eval(I, n->args[1], env, jqv_copy(in), jqv_copy(path), limit_cb, &s);
      if (rc == JQ_BREAK && I->break_label == s.label) rc = JQ_OK;
    }
    jqv_free(ns);
    jqv_free(in);
    jqv_free(path);
    return rc;
  }
  case S_FIRST:
  case S_LAST1:
  case S_ISEMPTY: {
    spec_ctx s = {cb, ud, 0, 0, ++I->next_label, b->special, false, jqv_invalid(), jqv_invalid()};
    rc = jq_eval(I, n->args[0], env, in, b->special == S_ISEMPTY ? (jqv_free(path), jqv_invalid()) : path, found_cb, &s);
    if (rc == JQ_BREAK && I->break_label == s.label) rc = JQ_OK;
    if (rc != JQ_OK) {
      jqv_free(s.val);
      jqv_free(s.path);
      return rc;
    }
    if (b->special == S_ISEMPTY) {
      jqv_free(s.val);
      jqv_free(s.path);
      return emit(I, cb, ud, jqv_bool(!s.found), jqv_invalid());
    }
    if (!s.found) return JQ_OK;
    return emit(I, cb, ud, s.val, s.path);
  }
  case S_ANY2:
  case S_ALL2: {
    jqv_free(path);
    spec_ctx s = {cb, ud, 0, 0, ++I->next_label, b->special, false, jqv_invalid(), jqv_invalid()};
    anyc a = {n->args[1], env, &s};
    rc = jq_eval(I, n->args[0], env, in, jqv_invalid(), any_gen_cb, &a);
    if (rc == JQ_BREAK && I->break_label == s.label) rc = JQ_OK;
    if (rc != JQ_OK) return rc;
    return emit(I, cb, ud, jqv_bool(b->special == S_ANY2 ? s.found : !s.found), jqv_invalid());
  }
  case S_INPUT: {
    jqv_free(in);
    jqv_free(path);
    jqv v = I->host.next_input ? I->host.next_input(I->host.ud) : jqv_invalid();
    if (!jqv_is_valid(v)) {
      if (jqv_invalid_has_msg(jqv_copy(v))) return jq_raise(I, v);
      return jq_raise(I, jq_error_fmt("No more inputs"));
    }
    return emit(I, cb, ud, v, jqv_invalid());
  }
  case S_INPUTS: {
    jqv_free(in);
    jqv_free(path);
    for (;;) {
      rc = step(I);
      if (rc != JQ_OK) return rc;
      jqv v = I->host.next_input ? I->host.next_input(I->host.ud) : jqv_invalid();
      if (!jqv_is_valid(v)) {
        if (jqv_invalid_has_msg(jqv_copy(v))) return jq_raise(I, v);
        return JQ_OK;
      }
      rc = emit(I, cb, ud, v, jqv_invalid());
      if (rc != JQ_OK) return rc;
    }
  }
  case S_RECURSE1: {
    recurse_ctx r = {n->args[0], env, cb, ud};
    return recurse_rec(I, &r, in, path, 0);
  }
  case S_SORT_BY:
  case S_GROUP_BY:
  case S_UNIQUE_BY:
  case S_MIN_BY:
  case S_MAX_BY: jqv_free(path); return eval_by(I, b->special, n->args[0], env, in, cb, ud);
  case S_DEBUG1: {
    jqv msgs;
    rc = eval_collect(I, n->args[0], env, jqv_copy(in), &msgs);
    if (rc != JQ_OK) {
      jqv_free(in);
      jqv_free(path);
      return rc;
    }
    for (size_t i = 0; i < jqv_array_len(msgs); i++)
      if (I->host.debug_msg) I->host.debug_msg(I->host.ud, jqv_copy(*jqv_array_at(msgs, i)));
    jqv_free(msgs);
    return emit(I, cb, ud, in, path);
  }
  case S_DEL: {
    jqv_free(path);
    jqv ps;
    rc = collect_paths(I, n->args[0], env, jqv_copy(in), &ps);
    if (rc != JQ_OK) {
      jqv_free(in);
      return rc;
    }
    jqv r = jq_delpaths(in, ps);
    if (!jqv_is_valid(r)) return jq_raise(I, r);
    return emit(I, cb, ud, r, jqv_invalid());
  }
  case S_PICK: {
    jqv_free(path);
    jqv ps;
    rc = collect_paths(I, n->args[0], env, jqv_copy(in), &ps);
    if (rc != JQ_OK) {
      jqv_free(in);
      return rc;
    }
    jqv r = jqv_null();
    for (size_t i = 0; i < jqv_array_len(ps); i++) {
      jqv p = jqv_copy(*jqv_array_at(ps, i));
      jqv v = jq_getpath(jqv_copy(in), jqv_copy(p));
      if (!jqv_is_valid(v)) {
        jqv_free(p);
        jqv_free(r);
        jqv_free(ps);
        jqv_free(in);
        return jq_raise(I, v);
      }
      r = jq_setpath(r, p, v);
      if (!jqv_is_valid(r)) {
        jqv_free(ps);
        jqv_free(in);
        return jq_raise(I, r);
      }
    }
    jqv_free(ps);
    jqv_free(in);
    return emit(I, cb, ud, r, jqv_invalid());
  }
  case S_HALT:
    jqv_free(in);
    jqv_free(path);
    I->halted = true;
    I->halt_code = 0;
    return JQ_STOP;
  case S_HALT_ERROR1: {
    jqv_free(path);
    jqv codes;
    rc = eval_collect(I, n->args[0], env, jqv_copy(in), &codes);
    if (rc != JQ_OK) {
      jqv_free(in);
      return rc;
    }
    if (jqv_array_len(codes) == 0) {
      jqv_free(codes);
      jqv_free(in);
      return JQ_OK;
    }
    jqv c = jqv_array_get(codes, 0);
    if (c.kind != JQV_KIND_NUMBER) {
      char br[128];
      jqv e = jq_error_fmt("%s halt_error/1: number required", jq_value_brief(&in, br, sizeof br));
      jqv_free(c);
      jqv_free(in);
      return jq_raise(I, e);
    }
    I->halted = true;
    /* jq converts the code to an int; out of range (inf, nan) gives 0 */
    I->halt_code = isfinite(c.num) && c.num > -2147483648.0 && c.num < 2147483648.0 ? (int)c.num : 0;
    jqv_free(I->halt_msg);
    I->halt_msg = in;
    return JQ_STOP;
  }
  case S_UNTIL: jqv_free(path); return until_loop(I, n->args[0], n->args[1], env, in, cb, ud);
  case S_INPUT_LINE: {
    jqv_free(in);
    jqv_free(path);
    return emit(I, cb, ud, jqv_number(I->host.input_line ? I->host.input_line(I->host.ud) : 0), jqv_invalid());
  }
  case S_NOT: break;
  default: break;
  }
  if (paths) {
    /* C functions are not path expressions */
    jqv_free(path);
    struct {
      jq_cb cb;
      void *ud;
    } w = {cb, ud};
    return call_builtin(I, n, env, in, jqv_invalid(), mark_bad_path_cb, &w);
  }
  jqv_free(path);
  jqv argv[8];
  for (int i = 0; i < 8; i++) argv[i] = jqv_invalid();
  cargs_ctx c = {I, n, env, in, argv, n->nargs, jqv_invalid(), cb, ud, n->builtin};
  rc = cfunc_level(I, &c, n->nargs - 1);
  jqv_free(in);
  return rc;
}


/* ---- formats --------------------------------------------------------------------------- */

jqv jq_format(jq_interp *I, const char *fmt, jqv v);
static jqv format_value(jq_interp *I, const char *fmt, jqv v) { return jq_format(I, fmt, v); }

/* ---- program entry --------------------------------------------------------------------- */

int jq_interp_init(jq_interp *I, jq_program *p, jqv *named_vals) {
  I->prog = p;
  I->err = jqv_invalid();
  I->halt_msg = jqv_invalid();
  stack_init(I);
  I->global_store = calloc((size_t)(p->nglobals ? p->nglobals : 1), sizeof(jq_frame));
  I->globals = calloc((size_t)(p->nglobals ? p->nglobals : 1), sizeof(jq_frame *));
  if (!I->global_store || !I->globals) return -1;
  jq_frame *up = NULL;
  int named = 0;
  for (int i = 0; i < p->nglobals; i++) {
    jq_frame *f = &I->global_store[i];
    f->up = up;
    if (p->global_defs[i]) {
      f->kind = F_DEF;
      f->fn = p->global_defs[i];
      f->val = jqv_invalid();
    } else {
      f->kind = F_VAR;
      const char *name = p->global_names[i];
      if (strcmp(name, "ENV") == 0) f->val = jqv_copy(I->env);
      else if (strcmp(name, "ARGS") == 0)
        f->val = jqv_object_set(jqv_object_set(jqv_object(), jqv_string("positional"), jqv_copy(I->positional)),
                                jqv_string("named"), jqv_copy(I->named_args));
      else f->val = jqv_copy(named_vals[named++]);
    }
    I->globals[i] = f;
    up = f;
  }
  /* the global definitions (the prelude's ~80, the user's) bind nothing
   * per input: each input starts at the first node under them, in the
   * innermost global frame, as evaluating each N_FUNCDEF in turn would */
  I->body = p->root;
  I->body_env = NULL;
  while (I->body->type == N_FUNCDEF && I->body->global >= 0) {
    I->body_env = I->globals[I->body->global];
    I->body = I->body->b;
  }
  const jq_node *b = I->body, *it = b->type == N_PIPE ? b->a : b;
  bool iter = it->type == N_ITER && (!it->a || it->a->type == N_IDENTITY);
  I->each_f = iter && b->type == N_PIPE ? b->b : NULL;
  I->each_iter = iter && b == it;
  return 0;
}

void jq_interp_free(jq_interp *I) {
  if (I->prog && I->global_store)
    for (int i = 0; i < I->prog->nglobals; i++) jqv_free(I->global_store[i].val);
  free(I->global_store);
  free(I->globals);
  jqv_free(I->err);
  jqv_free(I->halt_msg);
  I->global_store = NULL;
  I->globals = NULL;
  I->err = jqv_invalid();
  I->halt_msg = jqv_invalid();
}

int jq_eval_program(jq_interp *I, jqv in, jq_cb cb, void *ud) {
  return jq_eval(I, I->body, I->body_env, in, jqv_invalid(), cb, ud);
}

/* `.[] | f` on [e] is f on e (`.[]` emits e, and outside a path expression
 * that is all it does), without building [e] and iterating it. */
int jq_eval_element(jq_interp *I, jqv e, jq_cb cb, void *ud) {
  if (I->each_f) return jq_eval(I, I->each_f, I->body_env, e, jqv_invalid(), cb, ud);
  if (I->each_iter) {
    int rc = step(I);
    if (rc != JQ_OK) {
      jqv_free(e);
      return rc;
    }
    return cb(I, ud, e, jqv_invalid());
  }
  return jq_eval_program(I, jqv_array_append(jqv_array(), e), cb, ud);
}
