/*
 * awk_interp.c - the tree-walking interpreter of the awk command.
 *
 * Expressions return owned awk_val (see awk.h); statements return a control
 * code (normal, break, continue, next, nextfile, exit, return). `next`,
 * `nextfile` and `exit` executed inside a user function unwind to the rule
 * loop with a longjmp (in->exit_jmp), fatal errors to the driver (in->
 * fatal_jmp); both are safe because every string and array is on the
 * interpreter's live lists and every frame is on its frame stack.
 *
 * Records: $0 is one string reused in place when nothing else holds it, so
 * reading a record allocates nothing; fields are split lazily, only when a
 * field or NF is used, with the FS in force when the record was read.
 * Assigning a field marks $0 stale; it is rebuilt with OFS when read.
 *
 * Lvalues are resolved after the right-hand side is evaluated (gawk's order:
 * `a[i++] = i` stores under the old i the value of the new... as gawk does),
 * and a compound assignment resolves its target once.
 *
 * Limits: user function nesting (AWK_MAX_DEPTH), loop iterations between
 * cmd_poll checks, a total iteration budget (SBX_AWK_MAX_ITER in the
 * environment, default 2^32), string sizes (ctx->max_string), field indexes,
 * and the bytes held by strings, array elements and fields together
 * (SBX_AWK_MAX_MEM, default max(1 GiB, 16 * max_string)).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"
#include "cmd/lib/buf.h"

enum { EX_NORMAL = 0, EX_BREAK, EX_CONTINUE, EX_NEXT, EX_NEXTFILE, EX_EXIT, EX_RETURN };

/* ---- errors ------------------------------------------------------------------------ */

static void msg_prefix(awk_interp *in, char *buf, size_t cap) {
  size_t o = 0;
  if (in->srcline > 0)
    o += (size_t)snprintf(buf + o, cap - o, "%s: %s:%d: ", in->progname, in->srcname,
                          in->srcline);
  else
    o += (size_t)snprintf(buf + o, cap - o, "%s: ", in->progname);
  if (o < cap && in->fnr > 0) {
    awk_cell *fc = &in->globals[AWK_V_FILENAME];
    const char *fn = fc->kind == AWK_CELL_VAL && fc->v.s ? fc->v.s->p : "";
    snprintf(buf + o, cap - o, "(FILENAME=%s FNR=%lld) ", fn, (long long)in->fnr);
  }
}

/* "awk: FILE:LINE: KIND: message" on stderr (gawk's form). */
static void vmessage(awk_interp *in, const char *kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static void vmessage(awk_interp *in, const char *kind, const char *fmt, va_list ap) {
  char pre[600], msg[1024];
  msg_prefix(in, pre, sizeof pre);
  vsnprintf(msg, sizeof msg, fmt, ap);
  cmd_err_raw(in->ctx, "%s%s: %s\n", pre, kind, msg);
}

void awk_fatal(awk_interp *in, const char *fmt, ...) {
  cmd_flush(in->ctx);
  va_list ap;
  va_start(ap, fmt);
  vmessage(in, "fatal", fmt, ap);
  va_end(ap);
  in->status = 2;
  if (in->fatal_set) longjmp(in->fatal_jmp, 1);
  abort(); /* unreachable: the driver always arms fatal_jmp */
}

void awk_warning(awk_interp *in, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(in, "warning", fmt, ap);
  va_end(ap);
}

void awk_mem_over(awk_interp *in) {
  uint64_t lim = in->mem_limit;
  in->mem_limit = 0; /* no second report while unwinding */
  awk_fatal(in, "memory limit exceeded (%llu bytes)", (unsigned long long)lim);
}

/* The memory budget: SBX_AWK_MAX_MEM bytes, else 16 times the largest
 * string, at least 1 GiB. */
static uint64_t max_mem(awk_interp *in) {
  const char *e = cmd_getenv(in->ctx, "SBX_AWK_MAX_MEM");
  if (e && *e) {
    unsigned long long v = strtoull(e, NULL, 10);
    if (v) return v;
  }
  uint64_t m = in->ctx->max_string ? in->ctx->max_string * 16 : 0;
  return m > ((uint64_t)1 << 30) ? m : (uint64_t)1 << 30;
}

static uint64_t max_iter(awk_interp *in) {
  static const uint64_t dflt = (uint64_t)1 << 32;
  const char *e = cmd_getenv(in->ctx, "SBX_AWK_MAX_ITER");
  if (e && *e) {
    unsigned long long v = strtoull(e, NULL, 10);
    if (v) return v;
  }
  return dflt;
}


void awk_poll(awk_interp *in) {
  if (cmd_poll(in->ctx)) {
    in->status = 126;
    cmd_flush(in->ctx);
    cmd_err_raw(in->ctx, "%s: interrupted (timeout, cancel or limit)\n", in->progname);
    longjmp(in->fatal_jmp, 1);
  }
}

static inline void tick(awk_interp *in) {
  if ((++in->ticks & (AWK_POLL_EVERY - 1)) == 0) {
    awk_poll(in);
    if (in->ticks >= in->iter_limit) {
      in->srcline = in->srcline ? in->srcline : 1;
      awk_fatal(in, "iteration limit exceeded (%llu loop iterations)",
                (unsigned long long)in->iter_limit);
    }
  }
}

/* ---- records and fields ------------------------------------------------------------ */

static void capture_splitter(awk_interp *in) {
  in->split_mode = in->fs_mode;
  in->split_char = in->fs_char;
  in->split_re = in->fs_re;
}

/* Returns s (NULL, or a reference the caller gives up) holding p[0..len):
 * s itself when only the caller holds it and it is large enough (p may lie
 * inside it), else a new string with slack for the next values (at least
 * `least` bytes, else len + len / slack; len alone past max_string). */
static inline awk_str *str_refill(awk_interp *in, awk_str *s, const char *p, size_t len,
                                  size_t least, size_t slack) {
  if (s && s->ref == 1 && s->cap >= len) {
    memmove(s->p, p, len);
    s->p[len] = 0;
    s->len = len;
    s->ascii = 0;
    return s;
  }
  if (s) awk_str_unref(in, s);
  size_t cap = len < least ? least : len + len / slack;
  if (cap > in->ctx->max_string) cap = len;
  s = awk_str_alloc(in, cap);
  memcpy(s->p, p, len);
  s->p[len] = 0;
  s->len = len;
  return s;
}

void awk_set_rec(awk_interp *in, const char *p, size_t len) {
  in->rec = str_refill(in, in->rec, p, len, 256, 4);
  in->rec_valid = true;
  in->fields_valid = false;
  in->split_nf = in->split_off = 0;
  capture_splitter(in);
}

void awk_set_rec_str(awk_interp *in, awk_str *s) {
  if (in->rec) awk_str_unref(in, in->rec);
  in->rec = s;
  in->rec_valid = true;
  in->fields_valid = false;
  in->split_nf = in->split_off = 0;
  capture_splitter(in);
}

static void fields_grow(awk_interp *in, size_t n) {
  if (n >= AWK_MAX_FIELDS) awk_fatal(in, "too many fields (limit %d)", AWK_MAX_FIELDS);
  size_t nc = in->fields_cap ? in->fields_cap * 2 : 64;
  while (nc < n + 1) nc *= 2;
  awk_mem_charge(in, (nc - in->fields_cap) * sizeof(awk_val));
  awk_val *nf = realloc(in->fields, nc * sizeof *nf);
  if (!nf) awk_fatal(in, "out of memory");
  memset(nf + in->fields_cap, 0, (nc - in->fields_cap) * sizeof *nf);
  in->fields = nf;
  in->fields_cap = nc;
}

static inline void fields_reserve(awk_interp *in, size_t n) {
  if (n + 1 > in->fields_cap) fields_grow(in, n);
}

/* Sets field i (1-based) to the bytes p[0..len) as a strnum, reusing the
 * field's string when possible. */
static inline void put_field(awk_interp *in, size_t i, const char *p, size_t len) {
  awk_val *f = &in->fields[i];
  /* slack so that the next records' fields reuse this string */
  f->s = str_refill(in, f->s, p, len, 24, 2);
  f->type = AWK_STRNUM;
  f->flags = 0;
}

/* Field slots beyond NF keep their strings as buffers for the next
 * records (put_field reuses them); nothing reads a slot beyond NF. */

/* Splits fields of $0 with a blank or single-character FS until `want`
 * fields exist or the record ends (then all fields are valid). Only the
 * fields a program reads are copied out: `$1` on a long line stops early. */
static void split_some(awk_interp *in, size_t want) {
  awk_str *r = in->rec;
  const char *s = r ? r->p : "";
  size_t len = r ? r->len : 0;
  size_t nf = in->split_nf, i = in->split_off;
  if (in->split_mode == 0) { /* default: blanks */
    /* 1 blank, 2 NUL: the record's terminating NUL ends both scans */
    static const unsigned char kind[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, [0] = 2};
    const unsigned char *u = (const unsigned char *)s;
    if (r) r->p[len] = 0;
    for (;;) {
      while (kind[u[i]] == 1) i++;
      if (i >= len) break;
      if (nf >= want) goto partial;
      size_t st = i;
      for (;;) {
        while (!kind[u[i]]) i++;
        if (u[i] || i >= len) break;
        i++; /* a NUL byte inside the record */
      }
      fields_reserve(in, nf + 1);
      put_field(in, ++nf, s + st, i - st);
    }
  } else if (len > 0 && i <= len) { /* one literal character; i == len + 1 when done */
    char c = in->split_char;
    bool para = in->rs_mode == 1;
    for (;;) {
      if (nf >= want) goto partial;
      const char *q = memchr(s + i, c, len - i);
      if (para) {
        const char *nl = memchr(s + i, '\n', len - i);
        if (nl && (!q || nl < q)) q = nl;
      }
      size_t e = q ? (size_t)(q - s) : len;
      fields_reserve(in, nf + 1);
      put_field(in, ++nf, s + i, e - i);
      i = e + 1;
      if (!q) break;
    }
  }
  in->fields_valid = true;
  in->nf = nf;
  return;
partial:
  in->split_nf = nf;
  in->split_off = i;
}

void awk_split_record(awk_interp *in) {
  if (in->fields_valid) return;
  if (in->split_mode <= 1) {
    split_some(in, SIZE_MAX);
    return;
  }
  in->fields_valid = true;
  awk_str *r = in->rec;
  const char *s = r ? r->p : "";
  size_t len = r ? r->len : 0;
  size_t nf = 0;
  bool para = in->rs_mode == 1;
  switch (in->split_mode) {
  case 3: { /* empty FS: characters */
    size_t i = 0;
    while (i < len) {
      size_t n = awk_utf8_char(s + i, len - i);
      fields_reserve(in, nf + 1);
      put_field(in, ++nf, s + i, n);
      i += n;
    }
    break;
  }
  default: { /* regex */
    if (len == 0) break;
    size_t st = 0, from = 0;
    for (;;) {
      size_t ms, me;
      int found = awk_re_search(in->split_re, s, len, from, false, &ms, &me);
      while (found && me == ms) { /* skip empty matches */
        if (ms >= len) {
          found = 0;
          break;
        }
        from = ms + 1;
        found = awk_re_search(in->split_re, s, len, from, false, &ms, &me);
      }
      if (para) {
        const char *nl = memchr(s + st, '\n', len - st);
        if (nl && (!found || (size_t)(nl - s) < ms)) {
          found = 1;
          ms = (size_t)(nl - s);
          me = ms + 1;
        }
      }
      fields_reserve(in, nf + 1);
      if (!found) {
        put_field(in, ++nf, s + st, len - st);
        break;
      }
      put_field(in, ++nf, s + st, ms - st);
      st = from = me;
    }
    break;
  }
  }
  in->nf = nf;
}

static void rebuild_record(awk_interp *in) {
  awk_str *out = awk_str_alloc(in, 64);
  for (size_t i = 1; i <= in->nf; i++) {
    if (i > 1) awk_str_append(in, &out, in->ofs->p, in->ofs->len);
    awk_val *f = &in->fields[i];
    if (f->type == AWK_UNINIT) continue;
    awk_str *fs = awk_to_str(in, f);
    awk_str_append(in, &out, fs->p, fs->len);
    awk_str_unref(in, fs);
  }
  if (in->rec) awk_str_unref(in, in->rec);
  in->rec = out;
  in->rec_valid = true;
}

awk_str *awk_get_rec(awk_interp *in) {
  if (!in->rec_valid) rebuild_record(in);
  if (!in->rec) in->rec = awk_str_alloc(in, 64);
  return in->rec;
}

awk_val *awk_get_field(awk_interp *in, size_t i) {
  if (!in->fields_valid) {
    if (in->split_mode <= 1) {
      if (i <= in->split_nf) return &in->fields[i];
      split_some(in, i);
      if (!in->fields_valid) return &in->fields[i];
    } else {
      awk_split_record(in);
    }
  }
  if (i > in->nf) return NULL;
  return &in->fields[i];
}

void awk_set_field(awk_interp *in, size_t i, awk_val v) {
  awk_split_record(in);
  if (i > in->nf) {
    fields_reserve(in, i);
    for (size_t k = in->nf + 1; k < i; k++) {
      awk_val_free(in, &in->fields[k]);
      in->fields[k] = awk_strv(awk_str_new(in, "", 0));
    }
    in->nf = i;
  }
  awk_val_free(in, &in->fields[i]);
  /* fields keep their type; numbers stay numbers until $0 is rebuilt */
  in->fields[i] = v;
  in->rec_valid = false;
}

void awk_set_nf(awk_interp *in, size_t nf) {
  awk_split_record(in);
  if (nf > in->nf) {
    fields_reserve(in, nf);
    for (size_t k = in->nf + 1; k <= nf; k++) {
      awk_val_free(in, &in->fields[k]);
      in->fields[k] = awk_strv(awk_str_new(in, "", 0));
    }
  } else {
    for (size_t k = nf + 1; k <= in->nf; k++) {
      awk_val_free(in, &in->fields[k]);
      in->fields[k].type = AWK_UNINIT;
    }
  }
  in->nf = nf;
  in->rec_valid = false;
}

/* ---- special variables ----------------------------------------------------------- */

static awk_str *cell_str(awk_interp *in, int idx) {
  awk_cell *c = &in->globals[idx];
  if (c->kind != AWK_CELL_VAL) return awk_str_new(in, "", 0);
  return awk_to_str(in, &c->v);
}

void awk_set_FS(awk_interp *in) {
  awk_str *fs = cell_str(in, AWK_V_FS);
  if (in->fs) awk_str_unref(in, in->fs);
  in->fs = fs;
  in->fs_re = NULL;
  if (fs->len == 1 && fs->p[0] == ' ') {
    in->fs_mode = 0;
  } else if (fs->len == 0) {
    in->fs_mode = 3;
  } else if (fs->len == 1 && fs->p[0] != '\\') {
    in->fs_mode = 1;
    in->fs_char = fs->p[0];
  } else if (fs->len == 2 && fs->p[0] == '\\' && fs->p[1] != '\\' &&
             strchr("\\^$.[]|()*+?{}", fs->p[1])) {
    in->fs_mode = 1;
    in->fs_char = fs->p[1];
  } else {
    in->fs_mode = 2;
    in->fs_re = awk_str_re(in, fs);
  }
  if (in->fs_mode == 1 && in->fs_char == ' ') in->fs_mode = 0;
}

static void set_cached(awk_interp *in, awk_str **slot, int idx) {
  awk_str *s = cell_str(in, idx);
  if (*slot) awk_str_unref(in, *slot);
  *slot = s;
}

awk_val awk_special_get(awk_interp *in, int idx) {
  switch (idx) {
  case AWK_V_NF:
    awk_split_record(in);
    return awk_num((double)in->nf);
  case AWK_V_NR:
    return awk_num((double)in->nr);
  case AWK_V_FNR:
    return awk_num((double)in->fnr);
  default: {
    awk_cell *c = &in->globals[idx];
    if (c->kind == AWK_CELL_VAL) return awk_val_copy(&c->v);
    if (c->kind == AWK_CELL_ARR) awk_fatal(in, "attempt to use array `%s' in a scalar context",
                                           in->prog.globals[idx]);
    return awk_uninit();
  }
  }
}

void awk_special_set(awk_interp *in, int idx, awk_val v) {
  switch (idx) {
  case AWK_V_NF: {
    double d = awk_to_num(in, &v);
    awk_val_free(in, &v);
    if (d < 0) awk_fatal(in, "NF set to negative value");
    if (d > AWK_MAX_FIELDS) awk_fatal(in, "NF too large (limit %d)", AWK_MAX_FIELDS);
    awk_set_nf(in, (size_t)d);
    return;
  }
  case AWK_V_NR:
    in->nr = (int64_t)awk_to_num(in, &v);
    awk_val_free(in, &v);
    return;
  case AWK_V_FNR:
    in->fnr = (int64_t)awk_to_num(in, &v);
    awk_val_free(in, &v);
    return;
  case AWK_V_ENVIRON:
  case AWK_V_ARGV:
  case AWK_V_PROCINFO:
    awk_val_free(in, &v);
    awk_fatal(in, "attempt to use array `%s' in a scalar context", in->prog.globals[idx]);
  default:
    break;
  }
  awk_cell *c = &in->globals[idx];
  if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
  c->kind = AWK_CELL_VAL;
  c->v = v;
  switch (idx) {
  case AWK_V_FS:
    /* the current record keeps splitting with the FS it was read with */
    if (!in->fields_valid && in->rec) awk_split_record(in);
    awk_set_FS(in);
    break;
  case AWK_V_OFS:
    awk_get_rec(in); /* $0 rebuilt with the old OFS if stale */
    set_cached(in, &in->ofs, idx);
    break;
  case AWK_V_ORS: set_cached(in, &in->ors, idx); break;
  case AWK_V_SUBSEP: set_cached(in, &in->subsep, idx); break;
  case AWK_V_CONVFMT: set_cached(in, &in->convfmt, idx); break;
  case AWK_V_OFMT: set_cached(in, &in->ofmt, idx); break;
  case AWK_V_RS: awk_set_RS(in); break;
  case AWK_V_IGNORECASE: {
    awk_val t = awk_val_copy(&c->v);
    in->icase = awk_is_true(in, &t);
    awk_val_free(in, &t);
    awk_set_FS(in);
    awk_set_RS(in);
    break;
  }
  default:
    break;
  }
}

void awk_assign_global(awk_interp *in, int idx, awk_val v) {
  if (idx < AWK_NSPECIAL) {
    awk_special_set(in, idx, v);
    return;
  }
  awk_cell *c = &in->globals[idx];
  if (c->kind == AWK_CELL_ARR) {
    awk_val_free(in, &v);
    awk_fatal(in, "attempt to use array `%s' in a scalar context", in->prog.globals[idx]);
  }
  if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
  c->kind = AWK_CELL_VAL;
  c->v = v;
}

/* ---- cells, locals, arrays -------------------------------------------------------- */

static awk_cell *local_cell(awk_interp *in, int idx) {
  return &in->frames[in->depth - 1].locals[idx];
}

static const char *local_name(awk_interp *in, int idx) {
  (void)in;
  (void)idx;
  return "parameter";
}

/* The cell holding a scalar for a variable node (VAR or LOCAL). */
static awk_cell *scalar_cell(awk_interp *in, awk_node *n) {
  awk_cell *c;
  if (n->type == AN_VAR) {
    c = &in->globals[n->idx];
    if (c->kind == AWK_CELL_ARR)
      awk_fatal(in, "attempt to use array `%s' in a scalar context", in->prog.globals[n->idx]);
    return c;
  }
  c = local_cell(in, n->idx);
  if (c->kind == AWK_CELL_REF) {
    awk_cell *t = c->ref;
    if (t->kind == AWK_CELL_ARR)
      awk_fatal(in, "attempt to use array `%s' in a scalar context", local_name(in, n->idx));
    /* an untyped variable passed by reference and used as a scalar here:
     * it becomes a local scalar; the caller's variable stays untyped */
    c->kind = AWK_CELL_NONE;
    c->ref = NULL;
    return c;
  }
  if (c->kind == AWK_CELL_ARR)
    awk_fatal(in, "attempt to use array `%s' in a scalar context", local_name(in, n->idx));
  return c;
}

awk_arr *awk_get_array(awk_interp *in, awk_node *n) {
  awk_cell *c;
  const char *name;
  if (n->type == AN_VAR) {
    c = &in->globals[n->idx];
    name = in->prog.globals[n->idx];
    if (n->idx < AWK_NSPECIAL && c->kind != AWK_CELL_ARR)
      awk_fatal(in, "attempt to use scalar `%s' as an array", name);
  } else if (n->type == AN_LOCAL) {
    c = local_cell(in, n->idx);
    name = "parameter";
    if (c->kind == AWK_CELL_REF) c = c->ref;
  } else {
    awk_fatal(in, "attempt to use a scalar value as array");
  }
  if (c->kind == AWK_CELL_ARR) return c->arr;
  if (c->kind == AWK_CELL_VAL) {
    if (n->type == AN_LOCAL)
      awk_fatal(in, "attempt to use scalar parameter `%s' as an array", name);
    awk_fatal(in, "attempt to use scalar `%s' as an array", name);
  }
  c->kind = AWK_CELL_ARR;
  c->arr = awk_arr_new(in);
  return c->arr;
}

awk_str *awk_subscript(awk_interp *in, awk_node *subs) {
  if (!subs->next) {
    awk_val v = awk_eval(in, subs);
    awk_str *s;
    if (v.type == AWK_NUM) {
      s = awk_num_to_str(in, v.num, in->convfmt->p);
    } else {
      s = awk_to_str(in, &v);
    }
    awk_val_free(in, &v);
    return s;
  }
  awk_str *out = NULL;
  for (awk_node *e = subs; e; e = e->next) {
    if (e != subs) awk_str_append(in, &out, in->subsep->p, in->subsep->len);
    awk_val v = awk_eval(in, e);
    awk_str *s = awk_to_str(in, &v);
    awk_val_free(in, &v);
    awk_str_append(in, &out, s->p, s->len);
    awk_str_unref(in, s);
  }
  return out;
}

/* ---- lvalues ----------------------------------------------------------------------- */

enum { LV_CELL, LV_FIELD, LV_SPECIAL };

typedef struct lref {
  int kind;        /* LV_* */
  awk_cell *cell;  /* LV_CELL */
  size_t field;    /* LV_FIELD */
  int idx;         /* LV_SPECIAL */
} lref;

static size_t field_index(awk_interp *in, awk_node *e) {
  awk_val v = awk_eval(in, e);
  double d = awk_to_num(in, &v);
  awk_val_free(in, &v);
  if (d < 0 || isnan(d)) {
    if (isnan(d)) awk_fatal(in, "attempt to access field -nan");
    /* %.0f, not a cast: a huge negative double does not fit a long long */
    awk_fatal(in, "attempt to access field %.0f", d < 0 && d > -1 ? 0.0 : trunc(d));
  }
  if (d >= AWK_MAX_FIELDS) awk_fatal(in, "field index %.0f too large (limit %d)", d, AWK_MAX_FIELDS);
  return (size_t)d;
}

static lref resolve(awk_interp *in, awk_node *n) {
  lref r = {0};
  switch (n->type) {
  case AN_VAR:
    if (n->idx < AWK_NSPECIAL) {
      r.kind = LV_SPECIAL;
      r.idx = n->idx;
      awk_cell *c = &in->globals[n->idx];
      if (c->kind == AWK_CELL_ARR)
        awk_fatal(in, "attempt to use array `%s' in a scalar context", in->prog.globals[n->idx]);
      return r;
    }
    r.kind = LV_CELL;
    r.cell = scalar_cell(in, n);
    return r;
  case AN_LOCAL:
    r.kind = LV_CELL;
    r.cell = scalar_cell(in, n);
    return r;
  case AN_FIELD:
    r.kind = LV_FIELD;
    r.field = field_index(in, n->a);
    return r;
  case AN_INDEX: {
    awk_str *key = awk_subscript(in, n->b);
    awk_arr *a = awk_get_array(in, n->a);
    r.kind = LV_CELL;
    r.cell = awk_arr_get(in, a, key, true);
    awk_str_unref(in, key);
    return r;
  }
  default:
    awk_fatal(in, "assignment to a non-lvalue");
  }
}

static awk_val lref_get(awk_interp *in, lref *r) {
  switch (r->kind) {
  case LV_SPECIAL:
    return awk_special_get(in, r->idx);
  case LV_FIELD:
    if (r->field == 0) return awk_strnumv(awk_str_ref(awk_get_rec(in)));
    {
      awk_val *f = awk_get_field(in, r->field);
      return f ? awk_val_copy(f) : awk_strv(awk_str_new(in, "", 0));
    }
  default:
    if (r->cell->kind == AWK_CELL_VAL) return awk_val_copy(&r->cell->v);
    return awk_uninit();
  }
}

static void lref_set(awk_interp *in, lref *r, awk_val v) {
  switch (r->kind) {
  case LV_SPECIAL:
    awk_special_set(in, r->idx, v);
    return;
  case LV_FIELD:
    if (r->field == 0) {
      awk_str *s = awk_to_str(in, &v);
      awk_val_free(in, &v);
      awk_set_rec_str(in, s);
      return;
    }
    awk_set_field(in, r->field, v);
    return;
  default:
    if (r->cell->kind == AWK_CELL_ARR) {
      awk_val_free(in, &v);
      awk_fatal(in, "attempt to use array in a scalar context");
    }
    if (r->cell->kind == AWK_CELL_VAL) awk_val_free(in, &r->cell->v);
    r->cell->kind = AWK_CELL_VAL;
    r->cell->v = v;
  }
}

void awk_assign(awk_interp *in, awk_node *lv, awk_val v) {
  lref r = resolve(in, lv);
  lref_set(in, &r, v);
}

awk_cell *awk_lvalue_cell(awk_interp *in, awk_node *n) {
  lref r = resolve(in, n);
  return r.kind == LV_CELL ? r.cell : NULL;
}

/* ---- regex helpers ----------------------------------------------------------------- */

awk_regex *awk_dynamic_re(awk_interp *in, awk_val *v) {
  awk_str *s = awk_to_str(in, v);
  for (int i = 0; i < AWK_RECACHE; i++) {
    awk_recache *e = &in->recache[i];
    if (e->re && e->icase == in->icase && e->src->len == s->len &&
        memcmp(e->src->p, s->p, s->len) == 0) {
      awk_str_unref(in, s);
      return e->re;
    }
  }
  char *err = NULL;
  awk_regex *re = awk_re_compile(s->p, s->len, in->icase, &err);
  if (!re) {
    char msg[300];
    snprintf(msg, sizeof msg, "%s", err ? err : "invalid regex");
    free(err);
    char pat[200];
    snprintf(pat, sizeof pat, "%s", s->p);
    awk_str_unref(in, s);
    awk_fatal(in, "%s: /%s/", msg, pat);
  }
  awk_recache *e = &in->recache[in->recache_next];
  in->recache_next = (in->recache_next + 1) % AWK_RECACHE;
  if (e->re) {
    awk_re_free(e->re);
    awk_str_unref(in, e->src);
  }
  e->re = re;
  e->src = s;
  e->icase = in->icase;
  return re;
}

/* The string is wrapped in a value of its own so that awk_dynamic_re's cache
 * can keep a reference to it. */
awk_regex *awk_str_re(awk_interp *in, awk_str *s) {
  awk_val v = awk_strv(awk_str_ref(s));
  awk_regex *re = awk_dynamic_re(in, &v);
  awk_val_free(in, &v);
  return re;
}

awk_regex *awk_node_re(awk_interp *in, awk_node *n) {
  if (n->type == AN_REGEX) {
    if (in->icase) return awk_str_re(in, n->str);
    return n->re;
  }
  awk_val v = awk_eval(in, n);
  awk_regex *re = awk_dynamic_re(in, &v);
  awk_val_free(in, &v);
  return re;
}

static bool match_rec(awk_interp *in, awk_node *re_node) {
  awk_str *r = awk_get_rec(in);
  awk_regex *re = awk_node_re(in, re_node);
  return awk_re_test(re, r->p, r->len) != 0;
}

/* ---- functions ----------------------------------------------------------------------- */

static void push_frame(awk_interp *in, awk_str *blob, int n) {
  if (cmd_grow(&in->frames, &in->frames_cap, (size_t)in->depth + 1, sizeof *in->frames))
    awk_fatal(in, "out of memory"); /* blob and its cells are tracked */
  in->frames[in->depth].blob = blob;
  in->frames[in->depth].locals = (awk_cell *)(void *)blob->p;
  in->frames[in->depth].nlocals = n;
  in->depth++;
}

static void pop_frame(awk_interp *in) {
  awk_frame *f = &in->frames[--in->depth];
  for (int i = 0; i < f->nlocals; i++) {
    awk_cell *c = &f->locals[i];
    if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
    else if (c->kind == AWK_CELL_ARR) awk_arr_free(in, c->arr);
  }
  awk_str_unref(in, f->blob);
}

static int exec(awk_interp *in, awk_node *s);

static awk_val call_func(awk_interp *in, awk_node *n) {
  awk_func *f = &in->prog.funcs[n->idx];
  if (in->depth >= AWK_MAX_DEPTH)
    awk_fatal(in, "function `%s': call nesting too deep (limit %d)", f->name, AWK_MAX_DEPTH);
  tick(in);
  int np = f->nparams;
  /* the cells live in a tracked blob: a fatal error while the arguments
   * are evaluated leaks nothing */
  awk_str *blob = awk_str_alloc(in, (size_t)(np ? np : 1) * sizeof(awk_cell));
  memset(blob->p, 0, (size_t)(np ? np : 1) * sizeof(awk_cell));
  awk_cell *locals = (awk_cell *)(void *)blob->p;
  int i = 0;
  for (awk_node *a = n->a; a; a = a->next, i++) {
    if (i >= np) {
      awk_val v = awk_eval(in, a);
      awk_val_free(in, &v);
      continue;
    }
    awk_cell *dst = &locals[i];
    if (a->type == AN_VAR || (a->type == AN_LOCAL && in->depth > 0)) {
      awk_cell *src;
      if (a->type == AN_VAR) {
        src = &in->globals[a->idx];
      } else {
        src = &in->frames[in->depth - 1].locals[a->idx];
        if (src->kind == AWK_CELL_REF) src = src->ref;
      }
      bool special = a->type == AN_VAR && a->idx < AWK_NSPECIAL;
      if (!special && (src->kind == AWK_CELL_ARR || src->kind == AWK_CELL_NONE)) {
        dst->kind = AWK_CELL_REF;
        dst->ref = src;
        continue;
      }
    }
    awk_val v = awk_eval(in, a);
    dst->kind = AWK_CELL_VAL;
    dst->v = v;
  }
  push_frame(in, blob, np);
  int saved_line = in->srcline;
  int code = exec(in, f->body);
  in->srcline = saved_line;
  pop_frame(in);
  awk_val r = awk_uninit();
  if (code == EX_RETURN) {
    r = in->retval;
    in->retval = awk_uninit();
  } else if (code == EX_NEXT || code == EX_NEXTFILE || code == EX_EXIT) {
    longjmp(in->exit_jmp, code);
  }
  return r;
}

/* ---- expressions ------------------------------------------------------------------- */

static double do_arith(awk_interp *in, int op, double a, double b) {
  switch (op) {
  case AOP_ADD: return a + b;
  case AOP_SUB: return a - b;
  case AOP_MUL: return a * b;
  case AOP_DIV:
    if (b == 0) awk_fatal(in, "division by zero attempted");
    return a / b;
  case AOP_MOD:
    if (b == 0) awk_fatal(in, "division by zero attempted in `%%'");
    return fmod(a, b);
  case AOP_POW: {
    /* integer exponents by repeated multiplication, like gawk */
    if (b == (double)(long)b && fabs(b) < 1e9) {
      long n = (long)b;
      bool neg = n < 0;
      if (neg) n = -n;
      double r = 1, x = a;
      while (n) {
        if (n & 1) r *= x;
        x *= x;
        n >>= 1;
      }
      return neg ? 1 / r : r;
    }
    return pow(a, b);
  }
  }
  return 0;
}

static awk_val eval_concat(awk_interp *in, awk_node *n) {
  /* flatten left-deep chains iteratively */
  awk_node *stack[64];
  int sp = 0;
  awk_node *cur = n;
  while (cur->type == AN_CONCAT && sp < 64) {
    stack[sp++] = cur->b;
    cur = cur->a;
  }
  awk_val v = awk_eval(in, cur);
  awk_str *out = awk_to_str(in, &v);
  awk_val_free(in, &v);
  if (out->ref > 1) {
    awk_str *c = awk_str_alloc(in, out->len + 32);
    memcpy(c->p, out->p, out->len + 1);
    c->len = out->len;
    awk_str_unref(in, out);
    out = c;
  }
  while (sp > 0) {
    awk_val w = awk_eval(in, stack[--sp]);
    awk_str *s = awk_to_str(in, &w);
    awk_val_free(in, &w);
    awk_str_append(in, &out, s->p, s->len);
    awk_str_unref(in, s);
  }
  return awk_strv(out);
}

/* `v = v x y ...` for a plain variable v holding a string: appends to v's
 * string in place (amortized growth) instead of copying it, so building a
 * string in a loop is linear like gawk. The operands are evaluated first; if
 * that changed v (a function call, say), the ordinary path's result is
 * built from v's old value. Returns false when the shape does not apply. */
static bool assign_append(awk_interp *in, awk_node *n, awk_val *ret) {
  awk_node *lhs = n->a, *cur = n->b, *stack[64];
  int sp = 0;
  while (cur->type == AN_CONCAT && sp < 64) {
    stack[sp++] = cur->b;
    cur = cur->a;
  }
  if (!((lhs->type == AN_VAR && lhs->idx >= AWK_NSPECIAL) || lhs->type == AN_LOCAL) ||
      cur->type != lhs->type || cur->idx != lhs->idx)
    return false;
  awk_cell *c = scalar_cell(in, lhs);
  if (c->kind != AWK_CELL_VAL || (c->v.type != AWK_STR && c->v.type != AWK_STRNUM) || !c->v.s)
    return false;
  awk_str *snap = awk_str_ref(c->v.s), *piece[64];
  int np = 0;
  while (sp > 0) {
    awk_val w = awk_eval(in, stack[--sp]);
    piece[np++] = awk_to_str(in, &w);
    awk_val_free(in, &w);
  }
  c = scalar_cell(in, lhs); /* frames may have moved */
  awk_str *out;
  bool inplace = c->kind == AWK_CELL_VAL && c->v.s == snap && snap->ref == 2 &&
                 (c->v.type == AWK_STR || c->v.type == AWK_STRNUM);
  if (inplace) {
    awk_str_unref(in, snap);
    out = c->v.s;
    c->v.s = NULL;
  } else {
    out = awk_str_alloc(in, snap->len + 32);
    memcpy(out->p, snap->p, snap->len + 1);
    out->len = snap->len;
    awk_str_unref(in, snap);
  }
  for (int i = 0; i < np; i++) {
    awk_str_append(in, &out, piece[i]->p, piece[i]->len);
    awk_str_unref(in, piece[i]);
  }
  if (!inplace) {
    lref lr = resolve(in, lhs);
    *ret = awk_strv(awk_str_ref(out));
    lref_set(in, &lr, awk_strv(out));
    return true;
  }
  c->v.type = AWK_STR;
  c->v.flags = 0;
  c->v.s = out;
  *ret = awk_strv(awk_str_ref(out));
  return true;
}

static awk_val eval_getline(awk_interp *in, awk_node *n);

/* Evaluates n for its truth (a condition, a pattern, && || !). */
static bool eval_truth(awk_interp *in, awk_node *n) {
  awk_val v = awk_eval(in, n);
  bool t = awk_is_true(in, &v);
  awk_val_free(in, &v);
  return t;
}

awk_val awk_eval(awk_interp *in, awk_node *n) {
  awk_stack_check(in);
  switch (n->type) {
  case AN_NUM:
    return awk_num(n->num);
  case AN_STR:
    return awk_strv(awk_str_ref(n->str));
  case AN_REGEX:
    return awk_num(match_rec(in, n));
  case AN_GROUP:
    if (n->nargs == 1) return awk_eval(in, n->a);
    return awk_strv(awk_subscript(in, n->a));
  case AN_VAR: {
    if (n->idx < AWK_NSPECIAL) return awk_special_get(in, n->idx);
    awk_cell *c = &in->globals[n->idx];
    if (c->kind == AWK_CELL_VAL) return awk_val_copy(&c->v);
    if (c->kind == AWK_CELL_ARR)
      awk_fatal(in, "attempt to use array `%s' in a scalar context", in->prog.globals[n->idx]);
    return awk_uninit();
  }
  case AN_LOCAL: {
    awk_cell *c = local_cell(in, n->idx);
    if (c->kind == AWK_CELL_VAL) return awk_val_copy(&c->v);
    if (c->kind == AWK_CELL_REF) {
      if (c->ref->kind == AWK_CELL_ARR)
        awk_fatal(in, "attempt to use array `%s' in a scalar context", local_name(in, n->idx));
      return awk_uninit();
    }
    if (c->kind == AWK_CELL_ARR)
      awk_fatal(in, "attempt to use array `%s' in a scalar context", local_name(in, n->idx));
    return awk_uninit();
  }
  case AN_FIELD: {
    size_t i = field_index(in, n->a);
    if (i == 0) return awk_strnumv(awk_str_ref(awk_get_rec(in)));
    awk_val *f = awk_get_field(in, i);
    /* a field beyond NF is the empty string (compares as a string) */
    return f ? awk_val_copy(f) : awk_strv(awk_str_new(in, "", 0));
  }
  case AN_INDEX: {
    awk_str *key = awk_subscript(in, n->b);
    awk_arr *a = awk_get_array(in, n->a);
    awk_cell *c = awk_arr_get(in, a, key, true);
    awk_str_unref(in, key);
    if (c->kind == AWK_CELL_VAL) return awk_val_copy(&c->v);
    return awk_uninit();
  }
  case AN_ASSIGN: {
    awk_val r;
    if (n->op == AOP_NONE && n->b->type == AN_CONCAT && assign_append(in, n, &r)) return r;
    r = awk_eval(in, n->b);
    lref lr = resolve(in, n->a);
    if (n->op != AOP_NONE) {
      awk_val cur = lref_get(in, &lr);
      double a = awk_to_num(in, &cur), b = awk_to_num(in, &r);
      awk_val_free(in, &cur);
      awk_val_free(in, &r);
      r = awk_num(do_arith(in, n->op, a, b));
    } else if (r.type == AWK_UNINIT) {
      /* assigning an uninitialized value keeps it untyped-ish: strnum "" */
    }
    awk_val ret = awk_val_copy(&r);
    lref_set(in, &lr, r);
    return ret;
  }
  case AN_COND: {
    bool t = eval_truth(in, n->a);
    return awk_eval(in, t ? n->b : n->c);
  }
  case AN_AND: return awk_num(eval_truth(in, n->a) && eval_truth(in, n->b));
  case AN_OR: return awk_num(eval_truth(in, n->a) || eval_truth(in, n->b));
  case AN_NOT: return awk_num(!eval_truth(in, n->a));
  case AN_BINARY: {
    awk_val a = awk_eval(in, n->a);
    double x = awk_to_num(in, &a);
    awk_val_free(in, &a);
    awk_val b = awk_eval(in, n->b);
    double y = awk_to_num(in, &b);
    awk_val_free(in, &b);
    return awk_num(do_arith(in, n->op, x, y));
  }
  case AN_UNARY: {
    awk_val a = awk_eval(in, n->a);
    double x = awk_to_num(in, &a);
    awk_val_free(in, &a);
    return awk_num(n->op == AOP_NEG ? -x : x);
  }
  case AN_CMP: {
    awk_val a = awk_eval(in, n->a);
    awk_val b = awk_eval(in, n->b);
    int c = awk_compare(in, &a, &b);
    awk_val_free(in, &a);
    awk_val_free(in, &b);
    bool r;
    if (c == 2) return awk_num(n->op == AOP_NE);
    switch (n->op) {
    case AOP_LT: r = c < 0; break;
    case AOP_LE: r = c <= 0; break;
    case AOP_EQ: r = c == 0; break;
    case AOP_NE: r = c != 0; break;
    case AOP_GT: r = c > 0; break;
    default: r = c >= 0; break;
    }
    return awk_num(r);
  }
  case AN_MATCH: {
    awk_val a = awk_eval(in, n->a);
    awk_str *s = awk_to_str(in, &a);
    awk_val_free(in, &a);
    awk_regex *re = awk_node_re(in, n->b);
    int m = awk_re_test(re, s->p, s->len);
    awk_str_unref(in, s);
    return awk_num(n->op == AOP_MATCH ? m != 0 : m == 0);
  }
  case AN_CONCAT:
    return eval_concat(in, n);
  case AN_INCDEC: {
    lref lr = resolve(in, n->a);
    awk_val cur = lref_get(in, &lr);
    double x = awk_to_num(in, &cur);
    awk_val_free(in, &cur);
    double nx = (n->op == AOP_PREINC || n->op == AOP_POSTINC) ? x + 1 : x - 1;
    lref_set(in, &lr, awk_num(nx));
    return awk_num((n->op == AOP_PREINC || n->op == AOP_PREDEC) ? nx : x);
  }
  case AN_IN: {
    awk_str *key = awk_subscript(in, n->a);
    awk_arr *a = awk_get_array(in, n->b);
    bool r = awk_arr_get(in, a, key, false) != NULL;
    awk_str_unref(in, key);
    return awk_num(r);
  }
  case AN_CALL:
    return call_func(in, n);
  case AN_BUILTIN:
    return awk_call_builtin(in, n);
  case AN_GETLINE:
    return eval_getline(in, n);
  default:
    awk_fatal(in, "internal error: bad node %d", n->type);
  }
}

/* ---- getline ------------------------------------------------------------------------- */

static awk_val eval_getline(awk_interp *in, awk_node *n) {
  if (n->op == AOP_RED_NONE) {
    awk_str *var_rec = NULL;
    int r = awk_next_main_record(in, n->a ? &var_rec : NULL);
    if (r > 0 && n->a) awk_assign(in, n->a, awk_strnumv(var_rec));
    return awk_num(r);
  }
  /* file or command */
  awk_val t = awk_eval(in, n->b);
  awk_str *name = awk_to_str(in, &t);
  awk_val_free(in, &t);
  awk_stream *st = awk_stream_get(in, n->op == AOP_RED_IN ? AOP_RED_IN : AOP_RED_CMD, name, true);
  awk_str_unref(in, name);
  if (!st) return awk_num(-1);
  const char *rec, *sep;
  size_t len, seplen;
  int r = awk_reader_record(in, &st->rd, &rec, &len, &sep, &seplen);
  if (r <= 0) return awk_num(r < 0 ? -1 : 0);
  awk_str *rt = awk_str_new(in, sep, seplen);
  if (n->a) {
    awk_str *s = awk_str_new(in, rec, len);
    /* gawk: `cmd | getline` and `getline < file` leave NR and FNR alone */
    awk_special_set(in, AWK_V_RT, awk_strv(rt));
    awk_assign(in, n->a, awk_strnumv(s));
  } else {
    awk_set_rec(in, rec, len);
    awk_special_set(in, AWK_V_RT, awk_strv(rt));
  }
  return awk_num(1);
}

/* ---- output ---------------------------------------------------------------------------- */

static awk_stream *out_stream(awk_interp *in, awk_node *s) {
  if (s->op == AOP_RED_NONE) return NULL;
  awk_val t = awk_eval(in, s->b);
  awk_str *name = awk_to_str(in, &t);
  awk_val_free(in, &t);
  awk_stream *st = awk_stream_get(in, s->op, name, false);
  awk_str_unref(in, name);
  return st;
}

static void emit(awk_interp *in, awk_stream *st, const char *p, size_t n) {
  if (!st) {
    int rc = cmd_out(in->ctx, p, n);
    if (rc < 0) {
      in->stdout_failed = true;
      in->status = rc == -EPIPE ? 141 : 2;
      if (rc != -EPIPE) {
        cmd_err_raw(in->ctx, "%s: write failure: %s\n", in->progname, cmd_strerror(rc));
      }
      longjmp(in->fatal_jmp, 1);
    }
    return;
  }
  awk_stream_write(in, st, p, n);
}

static void exec_print(awk_interp *in, awk_node *s) {
  if (s->type == AS_PRINT) {
    /* evaluate all arguments first, then the redirection (gawk's order) */
    awk_str *line = in->pbuf;
    in->pbuf = NULL; /* a nested print (in a function argument) gets its own */
    if (line) line->len = 0;
    if (s->nargs == 0) {
      awk_str *r = awk_get_rec(in);
      awk_str_reserve(in, &line, r->len + in->ors->len);
      awk_str_append(in, &line, r->p, r->len);
    } else {
      bool first = true;
      for (awk_node *a = s->a; a; a = a->next) {
        if (!first) awk_str_append(in, &line, in->ofs->p, in->ofs->len);
        first = false;
        awk_val v = awk_eval(in, a);
        if (v.type == AWK_NUM) {
          awk_str *t = awk_to_str_out(in, &v);
          awk_str_append(in, &line, t->p, t->len);
          awk_str_unref(in, t);
        } else if (v.s) {
          awk_str_append(in, &line, v.s->p, v.s->len);
        } else if (!line) {
          awk_str_reserve(in, &line, 16);
        }
        awk_val_free(in, &v);
      }
    }
    awk_str_append(in, &line, in->ors->p, in->ors->len);
    awk_stream *st = out_stream(in, s);
    emit(in, st, line->p, line->len);
    if (!in->pbuf && line->cap <= 65536) in->pbuf = line;
    else awk_str_unref(in, line);
    return;
  }
  /* printf */
  int nargs;
  awk_str *blob = awk_eval_args(in, s->a, &nargs);
  awk_val *vals = (awk_val *)(void *)blob->p;
  awk_str *fmt = awk_to_str(in, &vals[0]);
  awk_str *out = NULL;
  awk_format_vals(in, fmt->p, fmt->len, vals + 1, nargs - 1, &out);
  awk_str_unref(in, fmt);
  awk_keys_free(in, blob, (size_t)nargs);
  awk_stream *st = out_stream(in, s);
  emit(in, st, out->p, out->len);
  awk_str_unref(in, out);
}

awk_str *awk_eval_args(awk_interp *in, awk_node *args, int *nargs) {
  int n = 0;
  for (awk_node *a = args; a; a = a->next) n++;
  awk_str *blob = awk_str_alloc(in, (size_t)(n ? n : 1) * sizeof(awk_val));
  awk_val *vals = (awk_val *)(void *)blob->p;
  int i = 0;
  for (awk_node *a = args; a; a = a->next, i++) {
    vals[i] = awk_uninit();
    *nargs = i;
    vals[i] = awk_eval(in, a);
  }
  *nargs = n;
  return blob;
}

/* ---- statements -------------------------------------------------------------------- */

static int exec_block(awk_interp *in, awk_node *s) {
  for (; s; s = s->next) {
    int c = exec(in, s);
    if (c) return c;
  }
  return EX_NORMAL;
}

static int exec(awk_interp *in, awk_node *s) {
  awk_stack_check(in);
  in->srcline = s->line;
  switch (s->type) {
  case AS_BLOCK:
    return exec_block(in, s->a);
  case AS_EXPR: {
    awk_node *e = s->a;
    /* common statement shapes without a temporary value */
    if (e->type == AN_INCDEC && e->a->type == AN_VAR && e->a->idx >= AWK_NSPECIAL) {
      awk_cell *c = &in->globals[e->a->idx];
      if (c->kind == AWK_CELL_VAL && c->v.type == AWK_NUM) {
        c->v.num += (e->op == AOP_PREINC || e->op == AOP_POSTINC) ? 1 : -1;
        return EX_NORMAL;
      }
    }
    awk_val v = awk_eval(in, e);
    awk_val_free(in, &v);
    return EX_NORMAL;
  }
  case AS_PRINT:
  case AS_PRINTF:
    exec_print(in, s);
    return EX_NORMAL;
  case AS_IF: {
    bool t = eval_truth(in, s->a);
    if (t) return exec(in, s->b);
    if (s->c) return exec(in, s->c);
    return EX_NORMAL;
  }
  case AS_WHILE:
    for (;;) {
      tick(in);
      bool t = eval_truth(in, s->a);
      if (!t) break;
      int r = exec(in, s->b);
      if (r == EX_BREAK) break;
      if (r == EX_CONTINUE || r == EX_NORMAL) continue;
      return r;
    }
    return EX_NORMAL;
  case AS_DO:
    for (;;) {
      tick(in);
      int r = exec(in, s->b);
      if (r == EX_BREAK) break;
      if (r != EX_CONTINUE && r != EX_NORMAL) return r;
      bool t = eval_truth(in, s->a);
      if (!t) break;
    }
    return EX_NORMAL;
  case AS_FOR:
    if (s->a) {
      int r = exec(in, s->a);
      if (r) return r;
    }
    for (;;) {
      tick(in);
      if (s->b) {
        bool t = eval_truth(in, s->b);
        if (!t) break;
      }
      int r = exec(in, s->d);
      if (r == EX_BREAK) break;
      if (r != EX_CONTINUE && r != EX_NORMAL) return r;
      if (s->c) {
        r = exec(in, s->c);
        if (r) return r;
      }
    }
    return EX_NORMAL;
  case AS_FORIN: {
    awk_arr *a = awk_get_array(in, s->b);
    size_t n;
    awk_str *blob = awk_arr_keys(in, a, &n);
    awk_val *keys = (awk_val *)(void *)blob->p;
    int result = EX_NORMAL;
    for (size_t i = 0; i < n; i++) {
      tick(in);
      awk_assign(in, s->a, awk_val_copy(&keys[i]));
      int r = exec(in, s->d);
      if (r == EX_BREAK) break;
      if (r != EX_CONTINUE && r != EX_NORMAL) {
        result = r;
        break;
      }
    }
    awk_keys_free(in, blob, n);
    return result;
  }
  case AS_NEXT:
    return EX_NEXT;
  case AS_NEXTFILE:
    return EX_NEXTFILE;
  case AS_EXIT:
    if (s->a) {
      awk_val v = awk_eval(in, s->a);
      in->exit_code = (int)(int64_t)awk_to_num(in, &v) & 0xff;
      awk_val_free(in, &v);
    }
    return EX_EXIT;
  case AS_RETURN:
    awk_val_free(in, &in->retval);
    in->retval = s->a ? awk_eval(in, s->a) : awk_uninit();
    return EX_RETURN;
  case AS_BREAK:
    return EX_BREAK;
  case AS_CONTINUE:
    return EX_CONTINUE;
  case AS_DELETE: {
    awk_arr *a = awk_get_array(in, s->a);
    if (!s->b) {
      awk_arr_clear(in, a);
      return EX_NORMAL;
    }
    awk_str *key = awk_subscript(in, s->b);
    awk_arr_delete(in, a, key);
    awk_str_unref(in, key);
    return EX_NORMAL;
  }
  default:
    awk_fatal(in, "internal error: bad statement %d", s->type);
  }
}

/* ---- running ------------------------------------------------------------------------ */

static bool rule_matches(awk_interp *in, awk_rule *r) {
  if (!r->pattern) return true;
  if (r->pattern2) {
    if (!r->in_range) {
      bool t = eval_truth(in, r->pattern);
      if (!t) return false;
      r->in_range = true;
    }
    bool t = eval_truth(in, r->pattern2);
    if (t) r->in_range = false;
    return true;
  }
  if (r->pattern->type == AN_REGEX && !in->icase) {
    in->srcline = r->pattern->line;
    awk_str *rec = awk_get_rec(in);
    return awk_re_test(r->pattern->re, rec->p, rec->len) != 0;
  }
  bool t = eval_truth(in, r->pattern);
  return t;
}

static void unwind_frames(awk_interp *in) {
  while (in->depth > 0) pop_frame(in);
}

/* Runs a list of rules without patterns (BEGIN/END/BEGINFILE/ENDFILE).
 * Returns EX_EXIT if exit was executed. */
static int run_actions(awk_interp *in, awk_rule *list) {
  /* BEGINFILE/ENDFILE run from inside the main loop: keep its jump target */
  jmp_buf saved;
  memcpy(saved, in->exit_jmp, sizeof saved);
  awk_rule *volatile r = list;
  volatile int result = EX_NORMAL;
  for (; r; r = r->next) {
    in->ticks++;
    int code = setjmp(in->exit_jmp);
    if (code) {
      unwind_frames(in);
      if (code == EX_EXIT || code == EX_NEXTFILE) {
        result = code;
        break;
      }
      continue; /* next in BEGIN: rejected at parse time; ignore here */
    }
    int c = exec(in, r->action);
    if (c == EX_EXIT || c == EX_NEXTFILE) {
      result = c;
      break;
    }
  }
  memcpy(in->exit_jmp, saved, sizeof saved);
  return result;
}

static int run_main_rules(awk_interp *in) {
  for (;;) {
    int code = setjmp(in->exit_jmp);
    if (code) {
      unwind_frames(in);
      if (code == EX_EXIT) return EX_EXIT;
      if (code == EX_NEXTFILE) in->nextfile_req = 1;
      /* EX_NEXT: go on with the next record */
    }
    for (;;) {
      if (in->nextfile_req) {
        in->nextfile_req = 0;
        extern void awk_skip_file(awk_interp * in);
        awk_skip_file(in);
      }
      int r = awk_next_main_record(in, NULL);
      if (r <= 0) return EX_NORMAL;
      if ((in->nr & 1023) == 0) awk_poll(in);
      for (awk_rule *rule = in->prog.main; rule; rule = rule->next) {
        if (!rule_matches(in, rule)) continue;
        int c;
        if (!rule->action) {
          awk_str *rec = awk_get_rec(in);
          emit(in, NULL, rec->p, rec->len);
          emit(in, NULL, in->ors->p, in->ors->len);
          c = EX_NORMAL;
        } else {
          c = exec(in, rule->action);
        }
        if (c == EX_NEXT) break;
        if (c == EX_NEXTFILE) {
          in->nextfile_req = 1;
          break;
        }
        if (c == EX_EXIT) return EX_EXIT;
      }
    }
  }
}

int awk_run_file_rules(awk_interp *in, awk_rule *list) {
  return run_actions(in, list) == EX_EXIT;
}

/* A regex match that was cancelled or ran out of its step budget. */
static void regex_failed(void *ud, int kind) {
  awk_interp *in = ud;
  if (kind == AWK_RE_CANCELLED) awk_poll(in); /* reports the interruption */
  if (kind == AWK_RE_NOMEM) awk_fatal(in, "out of memory");
  awk_fatal(in, "regular expression too complex");
}

int awk_run(awk_interp *in) {
  in->iter_limit = max_iter(in);
  in->mem_limit = max_mem(in);
  awk_re_set_env(in->ctx, regex_failed, in);
  int c = run_actions(in, in->prog.begin);
  if (c != EX_EXIT && !in->exiting) {
    if (in->prog.main) {
      c = run_main_rules(in);
    } else if (in->prog.end || in->prog.beginfile || in->prog.endfile) {
      /* END only: read all input (NR and $0 are defined in END) */
      for (;;) {
        int code = setjmp(in->exit_jmp);
        if (code) {
          unwind_frames(in);
          if (code == EX_EXIT) {
            c = EX_EXIT;
            break;
          }
        }
        if (awk_next_main_record(in, NULL) <= 0) break;
        if ((in->nr & 1023) == 0) awk_poll(in);
      }
    }
  }
  /* exit in BEGIN or in a rule still runs END; exit in END stops it */
  in->in_end = true;
  in->exiting = false;
  run_actions(in, in->prog.end);
  return in->exit_code;
}
