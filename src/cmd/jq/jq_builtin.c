/*
 * jq_builtin.c - the builtins of sbx's jq engine written in C: the table
 * the resolver looks names up in (special forms that take closures are
 * evaluated by jq_eval.c; the rest get their arguments as values, every
 * combination of argument outputs, the last argument varying slowest like
 * jq), plus @formats, regular expressions (PCRE2 with jq's flags) and
 * dates. Every conversion of a double to an integer is range-checked.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/jq/jq_int.h"
#include "cmd/lib/datetime.h"

static jqv type_error(jqv v, const char *what) {
  char b[128];
  jqv e = jq_error_fmt("%s %s", jq_value_brief(&v, b, sizeof b), what);
  jqv_free(v);
  return e;
}

static jqv type_error2(jqv a, jqv b, const char *what) {
  char b1[128], b2[128];
  jqv e = jq_error_fmt("%s and %s %s", jq_value_brief(&a, b1, sizeof b1), jq_value_brief(&b, b2, sizeof b2), what);
  jqv_free(a);
  jqv_free(b);
  return e;
}

/* `.[]` on a value that is neither array nor object, as the evaluator words it. */
static jqv iterate_error(jqv v) {
  char b[128];
  jqv e = v.kind == JQV_KIND_NULL ? jq_error_fmt("Cannot iterate over null")
                                  : jq_error_fmt("Cannot iterate over %s", jq_value_brief(&v, b, sizeof b));
  jqv_free(v);
  return e;
}

/* An object's values in order (jq's builtins written with `reduce .[]` take them). */
static jqv object_values(jqv in) {
  jqv vals = jqv_array();
  for (size_t i = 0; i < jqv_object_len(in); i++) vals = jqv_array_append(vals, jqv_copy(*jqv_object_value_at(in, i)));
  jqv_free(in);
  return vals;
}

/* ---- basic ------------------------------------------------------------------------ */

static jqv f_not(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  bool t = jq_truthy(&in);
  jqv_free(in);
  return jqv_bool(!t);
}

static jqv f_length(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  switch (in.kind) {
  case JQV_KIND_NULL: return jqv_number(0);
  case JQV_KIND_NUMBER: return jqv_number_abs(in);
  case JQV_KIND_STRING: return jqv_number((double)jqv_string_length_codepoints(in));
  case JQV_KIND_ARRAY: return jqv_number((double)jqv_array_length(in));
  case JQV_KIND_OBJECT: return jqv_number((double)jqv_object_length(in));
  default: return type_error(in, "has no length");
  }
}

static jqv f_utf8bytelength(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_STRING) return type_error(in, "only strings have UTF-8 byte length");
  return jqv_number((double)jqv_string_length_bytes(in));
}

static jqv f_type(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  jqv r = jqv_string(jqv_kind_name((jqv_kind)in.kind));
  jqv_free(in);
  return r;
}

static jqv f_keys(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind == JQV_KIND_OBJECT) return jqv_keys(in);
  if (in.kind == JQV_KIND_ARRAY) {
    size_t n = jqv_array_length(in);
    jqv r = jqv_array_sized(n);
    for (size_t i = 0; i < n; i++) r = jqv_array_append(r, jqv_number((double)i));
    return r;
  }
  return type_error(in, "has no keys");
}
static jqv f_keys_unsorted(jq_interp *I, jqv in, jqv *a) {
  if (in.kind == JQV_KIND_OBJECT) return jqv_keys_unsorted(in);
  return f_keys(I, in, a);
}

static jqv f_has(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  jqv k = a[0];
  if (in.kind == JQV_KIND_OBJECT && k.kind == JQV_KIND_STRING) return jqv_bool(jqv_object_has(in, jqv_copy(k)));
  if (in.kind == JQV_KIND_ARRAY && k.kind == JQV_KIND_NUMBER) {
    size_t n = jqv_array_length(in);
    return jqv_bool(k.num >= 0 && k.num < (double)n);
  }
  jqv e = jq_error_fmt("Cannot check whether %s has a %s key", jqv_kind_name((jqv_kind)in.kind), jqv_kind_name((jqv_kind)k.kind));
  jqv_free(in);
  return e;
}

static jqv f_contains(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != a[0].kind && !((in.kind == JQV_KIND_TRUE || in.kind == JQV_KIND_FALSE) &&
                                (a[0].kind == JQV_KIND_TRUE || a[0].kind == JQV_KIND_FALSE)))
    return type_error2(in, jqv_copy(a[0]), "cannot have their containment checked");
  jqv_too_deep = false;
  bool r = jqv_contains(&in, &a[0]);
  jqv_free(in);
  return jqv_too_deep ? jq_error_fmt("Containment check too deep") : jqv_bool(r);
}

/* A builtin of its input alone (no interpreter, no arguments): one line each. */
#define BUILTIN_OF_INPUT(name, expr)              \
  static jqv name(jq_interp *I, jqv in, jqv *a) { \
    (void)I, (void)a;                             \
    return expr;                                  \
  }

BUILTIN_OF_INPUT(f_tostring, jq_tostring(in))

jqv jq_tostring(jqv v) {
  if (v.kind == JQV_KIND_STRING) return v;
  return jqv_dump_string(v, 0);
}

BUILTIN_OF_INPUT(f_tojson, jqv_dump_string(in, 0))

static jqv f_fromjson(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_STRING) return type_error(in, "only strings can be parsed");
  jqv r = jqv_parse(jqv_string_value(in), jqv_string_len(in));
  if (!jqv_is_valid(r)) {
    jqv msg = jqv_invalid_get_msg(r);
    jqv e = jq_error_fmt("%s (while parsing '%s')", jqv_string_value(msg), jqv_string_value(in));
    jqv_free(msg);
    jqv_free(in);
    return e;
  }
  jqv_free(in);
  return r;
}

static jqv f_tonumber(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind == JQV_KIND_NUMBER) return in;
  if (in.kind != JQV_KIND_STRING) return type_error(in, "cannot be parsed as a number");
  const char *s = jqv_string_value(in);
  size_t n = jqv_string_len(in);
  char *end = NULL;
  double d = 0;
  bool ok = n > 0 && n < 4096 && !isspace((unsigned char)s[0]) && strlen(s) == n;
  if (ok) {
    const char *q = s;
    if (*q == '-' || *q == '+') q++;
    ok = isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1]));
    if (ok) {
      d = strtod(s, &end);
      ok = end && *end == '\0';
    }
    for (const char *c = s; ok && *c; c++)
      if (!(isdigit((unsigned char)*c) || strchr("+-.eE", *c))) ok = false;
  }
  if (!ok) return type_error(in, "cannot be parsed as a number");
  jqv r = jqv_number_literal(s, n, d);
  jqv_free(in);
  return r;
}

static jqv f_toboolean(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind == JQV_KIND_TRUE || in.kind == JQV_KIND_FALSE) return in;
  if (in.kind == JQV_KIND_STRING) {
    const char *s = jqv_string_len(in) == strlen(jqv_string_value(in)) ? jqv_string_value(in) : "";
    if (strcmp(s, "true") == 0) {
      jqv_free(in);
      return jqv_true();
    }
    if (strcmp(s, "false") == 0) {
      jqv_free(in);
      return jqv_false();
    }
    char b[128];
    jqv e = jq_error_fmt("%s cannot be parsed as a boolean", jq_value_brief(&in, b, sizeof b));
    jqv_free(in);
    return e;
  }
  return type_error(in, "cannot be parsed as a boolean");
}

static jqv f_ascii_case(jqv in, bool up) {
  if (in.kind != JQV_KIND_STRING) return type_error(in, up ? "cannot be ascii_upcased" : "cannot be ascii_downcased");
  size_t n = jqv_string_len(in);
  char *b = malloc(n + 1);
  if (!b) {
    jqv_free(in);
    return jq_error_fmt("out of memory");
  }
  memcpy(b, jqv_string_value(in), n);
  for (size_t i = 0; i < n; i++) {
    if (up && b[i] >= 'a' && b[i] <= 'z') b[i] = (char)(b[i] - 32);
    if (!up && b[i] >= 'A' && b[i] <= 'Z') b[i] = (char)(b[i] + 32);
  }
  jqv r = jqv_string_raw(b, n);
  free(b);
  jqv_free(in);
  return r;
}
BUILTIN_OF_INPUT(f_ascii_downcase, f_ascii_case(in, false))
BUILTIN_OF_INPUT(f_ascii_upcase, f_ascii_case(in, true))

static jqv f_explode(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("explode input must be a string");
  }
  const unsigned char *s = (const unsigned char *)jqv_string_value(in);
  size_t n = jqv_string_len(in);
  jqv r = jqv_array();
  for (size_t i = 0; i < n;) {
    unsigned c = s[i], cp;
    int len;
    if (c < 0x80) cp = c, len = 1;
    else if (c >= 0xf0) cp = c & 7, len = 4;
    else if (c >= 0xe0) cp = c & 15, len = 3;
    else cp = c & 31, len = 2;
    for (int k = 1; k < len && i + (size_t)k < n; k++) cp = (cp << 6) | (s[i + (size_t)k] & 0x3f);
    r = jqv_array_append(r, jqv_number(cp));
    i += (size_t)len;
  }
  jqv_free(in);
  return r;
}

static jqv f_implode(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_ARRAY) {
    jqv_free(in);
    return jq_error_fmt("implode input must be an array");
  }
  jqv_buf b = {0};
  for (size_t i = 0; i < jqv_array_len(in); i++) {
    const jqv *c = jqv_array_at(in, i);
    if (c->kind != JQV_KIND_NUMBER || isnan(c->num)) { /* nan: "number (null)" (jq 1.8) */
      jqv_buf_free(&b);
      jqv e = type_error(jqv_copy(*c), "can't be imploded, unicode codepoint needs to be numeric");
      jqv_free(in);
      return e;
    }
    double d = c->num;
    int cp = isnan(d) || d < 0 || d > 0x10ffff ? 0xfffd : (int)d;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    jqv s = jqv_string_from_codepoint(cp);
    jqv_buf_add(&b, jqv_string_value(s), jqv_string_len(s));
    jqv_free(s);
  }
  jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  jqv_free(in);
  return r;
}

static jqv f_ltrimstr(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING || a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("startswith() requires string inputs");
  }
  size_t n = jqv_string_len(in), m = jqv_string_len(a[0]);
  if (m <= n && memcmp(jqv_string_value(in), jqv_string_value(a[0]), m) == 0) {
    jqv r = jqv_string_raw(jqv_string_value(in) + m, n - m);
    jqv_free(in);
    return r;
  }
  return in;
}
static jqv f_rtrimstr(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING || a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("endswith() requires string inputs");
  }
  size_t n = jqv_string_len(in), m = jqv_string_len(a[0]);
  if (m <= n && memcmp(jqv_string_value(in) + n - m, jqv_string_value(a[0]), m) == 0) {
    jqv r = jqv_string_raw(jqv_string_value(in), n - m);
    jqv_free(in);
    return r;
  }
  return in;
}
static jqv f_trimstr(jq_interp *I, jqv in, jqv *a) { return f_rtrimstr(I, f_ltrimstr(I, in, a), a); }

static jqv f_startswith(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING || a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("startswith() requires string inputs");
  }
  size_t n = jqv_string_len(in), m = jqv_string_len(a[0]);
  bool r = m <= n && memcmp(jqv_string_value(in), jqv_string_value(a[0]), m) == 0;
  jqv_free(in);
  return jqv_bool(r);
}
static jqv f_endswith(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING || a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("endswith() requires string inputs");
  }
  size_t n = jqv_string_len(in), m = jqv_string_len(a[0]);
  bool r = m <= n && memcmp(jqv_string_value(in) + n - m, jqv_string_value(a[0]), m) == 0;
  jqv_free(in);
  return jqv_bool(r);
}

/* Length of the whitespace character at s[i..n) (ASCII and the Unicode
 * White_Space code points jq 1.8 trims), or 0. */
static size_t space_len(const unsigned char *s, size_t i, size_t n) {
  unsigned c = s[i];
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  if (c == 0xc2 && i + 1 < n && (s[i + 1] == 0x85 || s[i + 1] == 0xa0)) return 2;
  if (c == 0xe1 && i + 2 < n && s[i + 1] == 0x9a && s[i + 2] == 0x80) return 3;
  if (c == 0xe2 && i + 2 < n && s[i + 1] == 0x80 &&
      ((s[i + 2] >= 0x80 && s[i + 2] <= 0x8a) || s[i + 2] == 0xa8 || s[i + 2] == 0xa9 || s[i + 2] == 0xaf))
    return 3;
  if (c == 0xe2 && i + 2 < n && s[i + 1] == 0x81 && s[i + 2] == 0x9f) return 3;
  if (c == 0xe3 && i + 2 < n && s[i + 1] == 0x80 && s[i + 2] == 0x80) return 3;
  return 0;
}

static jqv trim_impl(jqv in, bool left, bool right) {
  if (in.kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("trim input must be a string");
  }
  const unsigned char *s = (const unsigned char *)jqv_string_value(in);
  size_t n = jqv_string_len(in), i = 0, j = n;
  if (left) {
    size_t l;
    while (i < j && (l = space_len(s, i, j)) > 0) i += l;
  }
  if (right) {
    while (j > i) {
      size_t k = j - 1;
      while (k > i && (s[k] & 0xc0) == 0x80) k--;
      size_t l = space_len(s, k, j);
      if (l == 0 || k + l != j) break;
      j = k;
    }
  }
  jqv r = jqv_string_raw((const char *)s + i, j - i);
  jqv_free(in);
  return r;
}

BUILTIN_OF_INPUT(f_trim, trim_impl(in, true, true))
BUILTIN_OF_INPUT(f_ltrim, trim_impl(in, true, false))
BUILTIN_OF_INPUT(f_rtrim, trim_impl(in, false, true))

static jqv f_split1(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING || a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("split input and separator must be strings");
  }
  return jq_binop('/', in, jqv_copy(a[0]));
}

static jqv f_join(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  /* jq: reduce .[] as $i (null; (if . == null then "" else . + $x end) + ($i | ...)) // "" */
  if (in.kind == JQV_KIND_OBJECT) in = object_values(in);
  if (in.kind != JQV_KIND_ARRAY) return iterate_error(in);
  jqv_buf b = {0};
  for (size_t i = 0; i < jqv_array_len(in); i++) {
    if (i && a[0].kind == JQV_KIND_STRING) {
      jqv_buf_add(&b, jqv_string_value(a[0]), jqv_string_len(a[0]));
    } else if (i && a[0].kind != JQV_KIND_NULL) { /* string + null is the string; anything else fails */
      jqv acc = jqv_string_raw(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv_free(in);
      return type_error2(acc, jqv_copy(a[0]), "cannot be added");
    }
    const jqv *x = jqv_array_at(in, i);
    if (x->kind == JQV_KIND_NULL) continue;
    if (x->kind == JQV_KIND_STRING) jqv_buf_add(&b, jqv_string_value(*x), jqv_string_len(*x));
    else if (x->kind == JQV_KIND_NUMBER || x->kind == JQV_KIND_TRUE || x->kind == JQV_KIND_FALSE) {
      jqv t = jqv_dump_string(jqv_copy(*x), 0);
      jqv_buf_add(&b, jqv_string_value(t), jqv_string_len(t));
      jqv_free(t);
    } else {
      jqv acc = jqv_string_raw(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv e = type_error2(acc, jqv_copy(*x), "cannot be added");
      jqv_free(in);
      return e;
    }
  }
  jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  jqv_free(in);
  return r;
}

static jqv f_setpath(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  return jq_setpath(in, jqv_copy(a[0]), jqv_copy(a[1]));
}
static jqv f_delpaths(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  return jq_delpaths(in, jqv_copy(a[0]));
}

static jqv f_sort(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_ARRAY) return type_error(in, "cannot be sorted, as it is not an array");
  jqv_too_deep = false;
  in = jqv_sort(in);
  if (!jqv_too_deep) return in;
  jqv_free(in);
  return jq_error_fmt("Comparison too deep");
}
static jqv f_unique(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_ARRAY) {
    jqv keys = jqv_array();
    if (in.kind == JQV_KIND_OBJECT)
      for (size_t i = 0; i < jqv_object_len(in); i++)
        keys = jqv_array_append(keys, jqv_array_append(jqv_array(), jqv_copy(*jqv_object_value_at(in, i))));
    return type_error2(in, keys, "cannot be sorted, as they are not both arrays");
  }
  jqv_too_deep = false;
  in = jqv_sort(in);
  jqv r = jqv_array();
  for (size_t i = 0; i < jqv_array_len(in); i++)
    if (i == 0 || jqv_cmp(jqv_array_at(in, i), jqv_array_at(in, i - 1)) != 0) r = jqv_array_append(r, jqv_copy(*jqv_array_at(in, i)));
  jqv_free(in);
  if (!jqv_too_deep) return r;
  jqv_free(r);
  return jq_error_fmt("Comparison too deep");
}
static jqv minmax(jqv in, bool max) {
  if (in.kind != JQV_KIND_ARRAY) return type_error2(jqv_copy(in), in, "cannot be iterated over");
  size_t n = jqv_array_len(in);
  if (n == 0) {
    jqv_free(in);
    return jqv_null();
  }
  size_t best = 0;
  for (size_t i = 1; i < n; i++) {
    int c = jqv_cmp(jqv_array_at(in, i), jqv_array_at(in, best));
    if (max ? c >= 0 : c < 0) best = i;
  }
  jqv r = jqv_copy(*jqv_array_at(in, best));
  jqv_free(in);
  return r;
}
BUILTIN_OF_INPUT(f_min, minmax(in, false))
BUILTIN_OF_INPUT(f_max, minmax(in, true))

static jqv f_reverse(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind == JQV_KIND_NULL) {
    jqv_free(in);
    return jqv_array();
  }
  if (in.kind == JQV_KIND_STRING) {
    jqv cps = f_explode(I, in, a);
    jqv r = jqv_array();
    for (size_t i = jqv_array_len(cps); i-- > 0;) r = jqv_array_append(r, jqv_copy(*jqv_array_at(cps, i)));
    jqv_free(cps);
    return f_implode(I, r, a);
  }
  if (in.kind != JQV_KIND_ARRAY) {
    jqv e = jq_error_fmt("Cannot index %s with number", jqv_kind_name((jqv_kind)in.kind));
    jqv_free(in);
    return e;
  }
  jqv r = jqv_array_sized(jqv_array_len(in));
  for (size_t i = jqv_array_len(in); i-- > 0;) r = jqv_array_append(r, jqv_copy(*jqv_array_at(in, i)));
  jqv_free(in);
  return r;
}

/* jq: _flatten($x) descends into an array element while $x != 0, with $x - 1
 * (so a fractional depth never reaches 0 and flattens everything). A depth
 * that is not a number fails at the first subtraction, as `"" - 1` does. */
static jqv flatten_rec(jqv r, const jqv *a, const jqv *depth, double d, int level) {
  for (size_t i = 0; i < jqv_array_len(*a) && r.kind == JQV_KIND_ARRAY; i++) {
    const jqv *x = jqv_array_at(*a, i);
    if (x->kind == JQV_KIND_ARRAY && depth->kind != JQV_KIND_NUMBER) {
      jqv_free(r);
      return type_error2(jqv_copy(*depth), jqv_number(1), "cannot be subtracted");
    }
    if (x->kind == JQV_KIND_ARRAY && d != 0 && level < JQV_MAX_DEPTH) r = flatten_rec(r, x, depth, d - 1, level + 1);
    else r = jqv_array_append(r, jqv_copy(*x));
  }
  return r;
}
static jqv f_flatten(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  /* `$x < 0` in jq's order: null, false and true sort below every number */
  bool negative = a[0].kind == JQV_KIND_NUMBER ? a[0].num < 0
                  : a[0].kind == JQV_KIND_NULL || a[0].kind == JQV_KIND_FALSE || a[0].kind == JQV_KIND_TRUE;
  if (negative) {
    jqv_free(in);
    return jq_error_fmt("flatten depth must not be negative");
  }
  if (in.kind == JQV_KIND_OBJECT) in = object_values(in); /* jq flattens with reduce .[] */
  if (in.kind != JQV_KIND_ARRAY) return iterate_error(in);
  jqv r = flatten_rec(jqv_array(), &in, &a[0], a[0].kind == JQV_KIND_NUMBER ? a[0].num : 1, 0);
  jqv_free(in);
  return r;
}

/* indices in code points (jq 1.8) */
static jqv f_indices(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  jqv x = a[0];
  if (in.kind == JQV_KIND_NULL) return in;
  if (in.kind == JQV_KIND_STRING && x.kind == JQV_KIND_STRING) {
    const char *s = jqv_string_value(in), *t = jqv_string_value(x);
    size_t n = jqv_string_len(in), m = jqv_string_len(x);
    jqv r = jqv_array();
    if (m == 0) {
      jqv_free(in);
      return r; /* no position matches the empty string */
    }
    size_t cp = 0;
    for (size_t i = 0; i + m <= n; i++) {
      if (((unsigned char)s[i] & 0xc0) == 0x80) continue;
      if (memcmp(s + i, t, m) == 0) r = jqv_array_append(r, jqv_number((double)cp));
      cp++;
    }
    jqv_free(in);
    return r;
  }
  if (in.kind == JQV_KIND_ARRAY && x.kind == JQV_KIND_ARRAY) return jq_index(in, jqv_copy(x));
  if (in.kind == JQV_KIND_ARRAY) return jq_index(in, jqv_array_append(jqv_array(), jqv_copy(x)));
  return jq_index(in, jqv_copy(x));
}

static jqv f_tojson_format(jq_interp *I, jqv in, jqv *a) {
  if (a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return type_error(jqv_copy(a[0]), "is not a valid format");
  }
  extern jqv jq_format(jq_interp * I, const char *fmt, jqv v);
  return jq_format(I, jqv_string_value(a[0]), in);
}

/* Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF):
 * @urid's decoded bytes must be text (jq 1.8). */
static bool utf8_valid(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    unsigned cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xc0) != 0x80) return false;
      cp = cp << 6 | (s[i + k] & 0x3f);
    }
    static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

static jqv f_strindices(jq_interp *I, jqv in, jqv *a) {
  if (in.kind != JQV_KIND_STRING) return type_error(in, "cannot be searched, as it is not a string");
  if (a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return type_error(jqv_copy(a[0]), "is not a string"); /* jq 1.8's text for the argument */
  }
  return f_indices(I, in, a);
}

static jqv f_builtins(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  jqv_free(in);
  jqv r = jqv_array();
  for (int i = 0; i < jq_nbuiltins; i++) {
    if (jq_builtins[i].name[0] == '_') continue;
    r = jqv_array_append(r, jqv_string_fmt("%s/%d", jq_builtins[i].name, jq_builtins[i].nargs));
  }
  for (int i = 0; i < I->prog->nglobals; i++) {
    const jq_node *d = I->prog->global_defs[i];
    if (!d || d->name[0] == '_') continue;
    r = jqv_array_append(r, jqv_string_fmt("%s/%d", d->name, d->nparams));
    if (strcmp(d->name, "tojson") == 0) break;
  }
  return r;
}

static jqv f_input_filename(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  jqv_free(in);
  return I->host.input_filename ? I->host.input_filename(I->host.ud) : jqv_null();
}

static jqv f_debug(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  if (I->host.debug_msg) I->host.debug_msg(I->host.ud, jqv_copy(in));
  return in;
}
static jqv f_stderr(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  if (I->host.stderr_msg) I->host.stderr_msg(I->host.ud, jqv_copy(in));
  return in;
}

static jqv f_now(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  jqv_free(in);
  return jqv_number(I->now);
}


static jqv f_infinite(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  jqv_free(in);
  return jqv_number(INFINITY);
}
static jqv f_nan(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  jqv_free(in);
  return jqv_number(NAN);
}
static jqv num_pred(jqv in, int which) {
  if (in.kind != JQV_KIND_NUMBER) return type_error(in, "number required");
  double d = in.num;
  bool r = which == 0 ? isinf(d) : which == 1 ? isnan(d) : isnormal(d);
  return jqv_bool(r);
}
BUILTIN_OF_INPUT(f_isinfinite, num_pred(in, 0))
BUILTIN_OF_INPUT(f_isnan, num_pred(in, 1))
BUILTIN_OF_INPUT(f_isnormal, num_pred(in, 2))

/* bsearch: the index of a[0] in the sorted input, or -1 - insertion point. */
static jqv f_bsearch(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_ARRAY) return type_error(in, "cannot be searched from");
  long lo = 0, hi = (long)jqv_array_len(in) - 1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    int c = jqv_cmp(jqv_array_at(in, (size_t)mid), &a[0]);
    if (c == 0) {
      jqv_free(in);
      return jqv_number((double)mid);
    }
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  jqv_free(in);
  return jqv_number(-1.0 - (double)lo);
}

/* ---- math ---------------------------------------------------------------------------- */

#define MATH1(name, expr)                                                                     \
  static jqv m_##name(jq_interp *I, jqv in, jqv *a) {                                        \
    (void)I, (void)a;                                                                         \
    if (in.kind != JQV_KIND_NUMBER) return type_error(in, "number required");                 \
    double x = in.num;                                                                        \
    return jqv_number(expr);                                                                  \
  }
MATH1(floor, floor(x))
MATH1(ceil, ceil(x))
MATH1(round, round(x))
MATH1(trunc, trunc(x))
MATH1(rint, rint(x))
MATH1(nearbyint, nearbyint(x))
MATH1(fabs, fabs(x))
MATH1(sqrt, sqrt(x))
MATH1(cbrt, cbrt(x))
MATH1(exp, exp(x))
MATH1(exp2, exp2(x))
MATH1(exp10, pow(10, x))
MATH1(expm1, expm1(x))
MATH1(log, log(x))
MATH1(log2, log2(x))
MATH1(log10, log10(x))
MATH1(log1p, log1p(x))
MATH1(logb, logb(x))
MATH1(gamma, lgamma(x))
MATH1(lgamma, lgamma(x))
MATH1(tgamma, tgamma(x))
MATH1(lgamma_r, lgamma(x))
MATH1(sin, sin(x))
MATH1(cos, cos(x))
MATH1(tan, tan(x))
MATH1(asin, asin(x))
MATH1(acos, acos(x))
MATH1(atan, atan(x))
MATH1(sinh, sinh(x))
MATH1(cosh, cosh(x))
MATH1(tanh, tanh(x))
MATH1(asinh, asinh(x))
MATH1(acosh, acosh(x))
MATH1(atanh, atanh(x))
MATH1(significand, (x == 0 || isinf(x) || isnan(x)) ? x : scalbn(x, -ilogb(x)))
MATH1(j0, j0(x))
MATH1(j1, j1(x))
MATH1(y0, y0(x))
MATH1(y1, y1(x))
MATH1(erf, erf(x))
MATH1(erfc, erfc(x))

#define MATH2(name, expr)                                                                     \
  static jqv m_##name(jq_interp *I, jqv in, jqv *a) {                                        \
    (void)I;                                                                                  \
    jqv_free(in);                                                                             \
    if (a[0].kind != JQV_KIND_NUMBER || a[1].kind != JQV_KIND_NUMBER)                         \
      return jq_error_fmt("%s number required", a[0].kind != JQV_KIND_NUMBER ? jqv_kind_name((jqv_kind)a[0].kind) : jqv_kind_name((jqv_kind)a[1].kind)); \
    double x = a[0].num, y = a[1].num;                                                        \
    return jqv_number(expr);                                                                  \
  }
MATH2(pow, pow(x, y))
MATH2(atan2, atan2(x, y))
MATH2(fmod, fmod(x, y))
MATH2(hypot, hypot(x, y))
MATH2(copysign, copysign(x, y))
MATH2(fmin, fmin(x, y))
MATH2(fmax, fmax(x, y))
MATH2(fdim, fdim(x, y))
MATH2(drem, remainder(x, y))
MATH2(remainder, remainder(x, y))
MATH2(nextafter, nextafter(x, y))
MATH2(nexttoward, nexttoward(x, y))
MATH2(scalb, x * pow(2, y))
MATH2(ldexp, ldexp(x, y > 100000 ? 100000 : y < -100000 ? -100000 : (int)y))
MATH2(scalbln, scalbln(x, y > 100000 ? 100000 : y < -100000 ? -100000 : (long)y))
MATH2(jn, jn(x > 1000 ? 1000 : x < -1000 ? -1000 : isnan(x) ? 0 : (int)x, y))
MATH2(yn, yn(x > 1000 ? 1000 : x < -1000 ? -1000 : isnan(x) ? 0 : (int)x, y))

static jqv m_fma(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  jqv_free(in);
  if (a[0].kind != JQV_KIND_NUMBER || a[1].kind != JQV_KIND_NUMBER || a[2].kind != JQV_KIND_NUMBER)
    return jq_error_fmt("fma/3 requires numbers");
  return jqv_number(fma(a[0].num, a[1].num, a[2].num));
}

static jqv m_frexp(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_NUMBER) return type_error(in, "number required");
  int e = 0;
  double m = frexp(in.num, &e);
  return JQV_ARRAY(jqv_number(m), jqv_number(e));
}
static jqv m_modf(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_NUMBER) return type_error(in, "number required");
  double ip;
  double f = modf(in.num, &ip);
  return JQV_ARRAY(jqv_number(f), jqv_number(ip));
}

/* ---- formats ------------------------------------------------------------------------ */

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

jqv jq_format(jq_interp *I, const char *fmt, jqv v) {
  (void)I;
  if (strcmp(fmt, "text") == 0) return jq_tostring(v);
  if (strcmp(fmt, "json") == 0) return jqv_dump_string(v, 0);
  if (strcmp(fmt, "html") == 0 || strcmp(fmt, "uri") == 0 || strcmp(fmt, "sh") == 0 || strcmp(fmt, "base64") == 0 ||
      strcmp(fmt, "base64d") == 0 || strcmp(fmt, "base32") == 0 || strcmp(fmt, "base32d") == 0 ||
      strcmp(fmt, "urid") == 0) {
    if (strcmp(fmt, "sh") == 0 && v.kind == JQV_KIND_ARRAY) {
      jqv_buf b = {0};
      for (size_t i = 0; i < jqv_array_len(v); i++) {
        jqv x = jqv_copy(*jqv_array_at(v, i));
        if (x.kind == JQV_KIND_ARRAY || x.kind == JQV_KIND_OBJECT) {
          jqv_buf_free(&b);
          jqv e = type_error(x, "can not be escaped for shell");
          jqv_free(v);
          return e;
        }
        jqv t = jq_format(I, "sh", x);
        if (i) jqv_buf_addc(&b, ' ');
        jqv_buf_add(&b, jqv_string_value(t), jqv_string_len(t));
        jqv_free(t);
      }
      jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv_free(v);
      return r;
    }
    if (strcmp(fmt, "sh") == 0 && v.kind == JQV_KIND_OBJECT) return type_error(v, "can not be escaped for shell");
    if (strcmp(fmt, "sh") == 0 && v.kind != JQV_KIND_STRING) return jq_tostring(v);
    v = jq_tostring(v);
    const unsigned char *s = (const unsigned char *)jqv_string_value(v);
    size_t n = jqv_string_len(v);
    jqv_buf b = {0};
    if (strcmp(fmt, "html") == 0) {
      for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<': jqv_buf_adds(&b, "&lt;"); break;
        case '>': jqv_buf_adds(&b, "&gt;"); break;
        case '&': jqv_buf_adds(&b, "&amp;"); break;
        case '\'': jqv_buf_adds(&b, "&apos;"); break;
        case '"': jqv_buf_adds(&b, "&quot;"); break;
        default: jqv_buf_addc(&b, (char)s[i]);
        }
      }
    } else if (strcmp(fmt, "uri") == 0) {
      for (size_t i = 0; i < n; i++) {
        if (isalnum(s[i]) || (s[i] && strchr("-_.~", s[i]))) jqv_buf_addc(&b, (char)s[i]);
        else {
          char t[4];
          snprintf(t, sizeof t, "%%%02X", s[i]);
          jqv_buf_adds(&b, t);
        }
      }
    } else if (strcmp(fmt, "urid") == 0) {
      for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
          if (!(i + 2 < n && isxdigit(s[i + 1]) && isxdigit(s[i + 2]))) {
            jqv_buf_free(&b);
            char br[128];
            jqv e = jq_error_fmt("%s is not a valid uri encoding", jq_value_brief(&v, br, sizeof br));
            jqv_free(v);
            return e;
          }
          char t[3] = {(char)s[i + 1], (char)s[i + 2], 0};
          jqv_buf_addc(&b, (char)strtol(t, NULL, 16));
          i += 2;
        } else jqv_buf_addc(&b, (char)s[i]);
      }
      if (!utf8_valid((const unsigned char *)(b.data ? b.data : ""), b.len)) {
        jqv_buf_free(&b);
        char br[128];
        jqv e = jq_error_fmt("%s is not a valid uri encoding", jq_value_brief(&v, br, sizeof br));
        jqv_free(v);
        return e;
      }
      jqv r = jqv_string_sized(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv_free(v);
      return r;
    } else if (strcmp(fmt, "sh") == 0) {
      jqv_buf_addc(&b, '\'');
      for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') jqv_buf_adds(&b, "'\\''");
        else jqv_buf_addc(&b, (char)s[i]);
      }
      jqv_buf_addc(&b, '\'');
    } else if (strcmp(fmt, "base64") == 0) {
      for (size_t i = 0; i < n; i += 3) {
        unsigned x = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
        jqv_buf_addc(&b, b64chars[(x >> 18) & 63]);
        jqv_buf_addc(&b, b64chars[(x >> 12) & 63]);
        jqv_buf_addc(&b, i + 1 < n ? b64chars[(x >> 6) & 63] : '=');
        jqv_buf_addc(&b, i + 2 < n ? b64chars[x & 63] : '=');
      }
    } else if (strcmp(fmt, "base64d") == 0) {
      unsigned acc = 0;
      int bits = 0;
      size_t valid = 0;
      for (size_t i = 0; i < n; i++) {
        const char *p = s[i] ? strchr(b64chars, s[i]) : NULL;
        if (s[i] == '=') break;
        if (!p) {
          jqv_buf_free(&b);
          char br[128];
          jqv e = jq_error_fmt("%s is not valid base64 data", jq_value_brief(&v, br, sizeof br));
          jqv_free(v);
          return e;
        }
        valid++;
        acc = (acc << 6) | (unsigned)(p - b64chars);
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          jqv_buf_addc(&b, (char)((acc >> bits) & 0xff));
        }
      }
      if (valid % 4 == 1) {
        jqv_buf_free(&b);
        char br[128];
        jqv e = jq_error_fmt("%s trailing base64 byte found", jq_value_brief(&v, br, sizeof br));
        jqv_free(v);
        return e;
      }
      jqv r = jqv_string_sized(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv_free(v);
      return r;
    } else if (strcmp(fmt, "base32") == 0) {
      static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
      for (size_t i = 0; i < n; i += 5) {
        unsigned char blk[5] = {0};
        size_t k = n - i < 5 ? n - i : 5;
        memcpy(blk, s + i, k);
        uint64_t x = 0;
        for (int j = 0; j < 5; j++) x = x << 8 | blk[j];
        static const int outs[6] = {0, 2, 4, 5, 7, 8};
        int o = outs[k];
        for (int j = 0; j < 8; j++) jqv_buf_addc(&b, j < o ? b32[(x >> (35 - 5 * j)) & 31] : '=');
      }
    } else if (strcmp(fmt, "base32d") == 0) {
      static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
      uint64_t acc = 0;
      int bits = 0;
      for (size_t i = 0; i < n; i++) {
        if (s[i] == '=') break;
        const char *p = s[i] ? strchr(b32, s[i]) : NULL;
        if (!p) continue;
        acc = (acc << 5) | (uint64_t)(p - b32);
        bits += 5;
        if (bits >= 8) {
          bits -= 8;
          jqv_buf_addc(&b, (char)((acc >> bits) & 0xff));
        }
      }
      jqv r = jqv_string_sized(b.data ? b.data : "", b.len);
      jqv_buf_free(&b);
      jqv_free(v);
      return r;
    }
    jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
    jqv_buf_free(&b);
    jqv_free(v);
    return r;
  }
  if (strcmp(fmt, "csv") == 0 || strcmp(fmt, "tsv") == 0) {
    bool csv = fmt[0] == 'c';
    if (v.kind != JQV_KIND_ARRAY) return type_error(v, csv ? "cannot be csv-formatted, only an array can be" : "cannot be tsv-formatted, only an array can be");
    jqv_buf b = {0};
    for (size_t i = 0; i < jqv_array_len(v); i++) {
      if (i) jqv_buf_addc(&b, csv ? ',' : '\t');
      const jqv *x = jqv_array_at(v, i);
      switch (x->kind) {
      case JQV_KIND_NULL: break;
      case JQV_KIND_TRUE: jqv_buf_adds(&b, "true"); break;
      case JQV_KIND_FALSE: jqv_buf_adds(&b, "false"); break;
      case JQV_KIND_NUMBER: {
        if (isnan(x->num)) break; /* jq renders a NaN as an empty field */
        char t[JQV_NUMBER_TEXT_SIZE];
        const char *lit = jqv_number_get_literal(x);
        if (!lit) jqv_number_text(x->num, t), lit = t;
        jqv_buf_adds(&b, lit);
        break;
      }
      case JQV_KIND_STRING: {
        const char *s = jqv_string_value(*x);
        size_t n = jqv_string_len(*x);
        if (csv) jqv_buf_addc(&b, '"');
        for (size_t k = 0; k < n; k++) {
          if (csv && s[k] == '"') jqv_buf_adds(&b, "\"\"");
          else if (!csv && s[k] == '\t') jqv_buf_adds(&b, "\\t");
          else if (!csv && s[k] == '\n') jqv_buf_adds(&b, "\\n");
          else if (!csv && s[k] == '\r') jqv_buf_adds(&b, "\\r");
          else if (!csv && s[k] == '\\') jqv_buf_adds(&b, "\\\\");
          else jqv_buf_addc(&b, s[k]);
        }
        if (csv) jqv_buf_addc(&b, '"');
        break;
      }
      default: {
        jqv_buf_free(&b);
        jqv e = type_error(jqv_copy(*x), csv ? "is not valid in a csv row" : "is not valid in a tsv row");
        jqv_free(v);
        return e;
      }
      }
    }
    jqv r = jqv_string_raw(b.data ? b.data : "", b.len);
    jqv_buf_free(&b);
    jqv_free(v);
    return r;
  }
  jqv_free(v);
  return jq_error_fmt("%s is not a valid format", fmt);
}

/* ---- regular expressions ------------------------------------------------------------- */

/* Code point count of s[0..n). */
static size_t cp_count(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xc0) != 0x80) c++;
  return c;
}

static jqv f_match_impl(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING) {
    char b[128];
    jqv e = jq_error_fmt("%s cannot be matched, as it is not a string", jq_value_brief(&in, b, sizeof b));
    jqv_free(in);
    return e;
  }
  if (a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return type_error(jqv_copy(a[0]), "is not a string");
  }
  bool global = false, test = a[2].kind == JQV_KIND_TRUE;
  uint32_t opts = PCRE2_UTF | PCRE2_UCP;
  bool skip_empty = false;
  if (a[1].kind == JQV_KIND_STRING) {
    for (const char *f = jqv_string_value(a[1]); *f; f++) {
      switch (*f) {
      case 'g': global = true; break;
      case 'i': opts |= PCRE2_CASELESS; break;
      case 'x': opts |= PCRE2_EXTENDED; break;
      case 's': opts |= PCRE2_DOTALL; break;
      case 'n': skip_empty = true; break;
      case 'p': opts |= PCRE2_DOTALL; break;
      case 'l': break;
      default: {
        jqv e = jq_error_fmt("%s is not a valid modifier string", jqv_string_value(a[1]));
        jqv_free(in);
        return e;
      }
      }
    }
  } else if (a[1].kind != JQV_KIND_NULL) {
    jqv_free(in);
    return type_error(jqv_copy(a[1]), "is not a string");
  }
  int errcode;
  PCRE2_SIZE erroff;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)jqv_string_value(a[0]), jqv_string_len(a[0]), opts, &errcode, &erroff, NULL);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(errcode, msg, sizeof msg);
    jqv e = jq_error_fmt("%s (at offset %zu) is not a valid regex: %s", jqv_string_value(a[0]), (size_t)erroff, (char *)msg);
    jqv_free(in);
    return e;
  }
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
  pcre2_match_context *mc = pcre2_match_context_create(NULL);
  if (mc) pcre2_set_match_limit(mc, 10000000);
  const char *s = jqv_string_value(in);
  size_t n = jqv_string_len(in);
  uint32_t ncap = 0, namecount = 0, entry = 0;
  PCRE2_SPTR nametable = NULL;
  pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
  pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &namecount);
  pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry);
  pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &nametable);
  jqv result = test ? jqv_false() : jqv_array();
  size_t start = 0;
  int guard = 0;
  while (start <= n) {
    if ((++guard & 1023) == 0 && I->host.poll && I->host.poll(I->host.ud)) break;
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, 0, md, mc);
    if (rc < 0) break;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    size_t ms = ov[0], me = ov[1];
    if (test && !(skip_empty && ms == me)) {
      jqv_free(result);
      result = jqv_true();
      break;
    }
    if (!test && !(skip_empty && ms == me)) {
      jqv m = jqv_object();
      size_t cpo = cp_count(s, ms);
      m = jqv_object_set(m, jqv_string("offset"), jqv_number((double)cpo));
      m = jqv_object_set(m, jqv_string("length"), jqv_number((double)cp_count(s + ms, me - ms)));
      m = jqv_object_set(m, jqv_string("string"), jqv_string_raw(s + ms, me - ms));
      jqv caps = jqv_array();
      for (uint32_t c = 1; c <= ncap; c++) {
        jqv cap = jqv_object();
        const char *name = NULL;
        for (uint32_t k = 0; k < namecount; k++) {
          PCRE2_SPTR e = nametable + k * entry;
          if (((uint32_t)e[0] << 8 | e[1]) == c) name = (const char *)e + 2;
        }
        if (ov[2 * c] == PCRE2_UNSET) {
          cap = jqv_object_set(cap, jqv_string("offset"), jqv_number(-1));
          cap = jqv_object_set(cap, jqv_string("length"), jqv_number(0));
          cap = jqv_object_set(cap, jqv_string("string"), jqv_null());
        } else {
          size_t cs = ov[2 * c], ce = ov[2 * c + 1];
          cap = jqv_object_set(cap, jqv_string("offset"), jqv_number((double)cp_count(s, cs)));
          cap = jqv_object_set(cap, jqv_string("length"), jqv_number((double)cp_count(s + cs, ce - cs)));
          cap = jqv_object_set(cap, jqv_string("string"), jqv_string_raw(s + cs, ce - cs));
        }
        cap = jqv_object_set(cap, jqv_string("name"), name ? jqv_string(name) : jqv_null());
        caps = jqv_array_append(caps, cap);
      }
      m = jqv_object_set(m, jqv_string("captures"), caps);
      result = jqv_array_append(result, m);
    }
    if (!global && !(test && skip_empty)) break;
    if (me == ms) {
      if (me >= n) break;
      start = me + 1;
      while (start < n && ((unsigned char)s[start] & 0xc0) == 0x80) start++;
    } else {
      start = me;
    }
  }
  pcre2_match_context_free(mc);
  pcre2_match_data_free(md);
  pcre2_code_free(re);
  jqv_free(in);
  return result;
}

/* ---- dates -------------------------------------------------------------------------- */

static jqv tm_to_array(const struct tm *tm, double fsec) {
  jqv r = jqv_array();
  r = jqv_array_append(r, jqv_number(tm->tm_year + 1900.0));
  r = jqv_array_append(r, jqv_number(tm->tm_mon));
  r = jqv_array_append(r, jqv_number(tm->tm_mday));
  r = jqv_array_append(r, jqv_number(tm->tm_hour));
  r = jqv_array_append(r, jqv_number(tm->tm_min));
  r = jqv_array_append(r, jqv_number(tm->tm_sec + fsec));
  r = jqv_array_append(r, jqv_number(tm->tm_wday));
  r = jqv_array_append(r, jqv_number(tm->tm_yday));
  return r;
}

static bool clampi(double d, int *out) {
  if (isnan(d) || d > 2e9 || d < -2e9) return false;
  *out = (int)d;
  return true;
}

static bool array_to_tm(const jqv *a, struct tm *tm, double *fsec) {
  memset(tm, 0, sizeof *tm);
  if (a->kind != JQV_KIND_ARRAY) return false;
  int *fields[8] = {&tm->tm_year, &tm->tm_mon, &tm->tm_mday, &tm->tm_hour, &tm->tm_min, &tm->tm_sec, &tm->tm_wday, &tm->tm_yday};
  for (size_t i = 0; i < 8 && i < jqv_array_len(*a); i++) {
    const jqv *x = jqv_array_at(*a, i);
    if (x->kind != JQV_KIND_NUMBER) return false;
    if (!clampi(floor(x->num), fields[i])) return false;
    if (i == 5 && fsec) *fsec = x->num - floor(x->num);
  }
  tm->tm_year -= 1900;
  return true;
}

static int64_t days_from_civil(int64_t y, int m, int d) { return cmd_time_from_civil(y, m, d); }

static jqv f_gmtime(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_NUMBER) return type_error(in, "gmtime() requires a number");
  double t = in.num;
  if (isnan(t) || fabs(t) > 1e15) return jq_error_fmt("gmtime() requires a valid time");
  double fl = floor(t);
  int64_t secs = (int64_t)fl;
  int64_t days = secs / 86400, rem = secs % 86400;
  if (rem < 0) rem += 86400, days--;
  int64_t y;
  int mon, d;
  cmd_time_to_civil(days, &y, &mon, &d);
  struct tm tm = {0};
  tm.tm_year = (int)(y - 1900);
  tm.tm_mon = mon - 1;
  tm.tm_mday = d;
  tm.tm_hour = (int)(rem / 3600);
  tm.tm_min = (int)(rem % 3600 / 60);
  tm.tm_sec = (int)(rem % 60);
  tm.tm_wday = (int)(((days % 7) + 11) % 7);
  tm.tm_yday = (int)(days - days_from_civil(y, 1, 1));
  return tm_to_array(&tm, t - fl);
}

static jqv f_localtime(jq_interp *I, jqv in, jqv *a) {
  (void)a;
  if (in.kind != JQV_KIND_NUMBER) return type_error(in, "localtime() requires a number");
  double t = in.num;
  if (isnan(t) || fabs(t) > 1e15) return jq_error_fmt("localtime() requires a valid time");
  struct tm tm;
  if (!I->tzinfo || !cmd_time_local(I->tzinfo, (int64_t)floor(t), &tm)) return f_gmtime(I, in, a);
  return tm_to_array(&tm, t - floor(t));
}

static jqv f_mktime(jq_interp *I, jqv in, jqv *a) {
  (void)I, (void)a;
  if (in.kind != JQV_KIND_ARRAY) return type_error(in, "mktime requires array of 6 numbers");
  struct tm tm;
  if (!array_to_tm(&in, &tm, NULL)) {
    jqv_free(in);
    return jq_error_fmt("mktime requires parsed datetime inputs");
  }
  jqv_free(in);
  int64_t days = days_from_civil(tm.tm_year + 1900LL, 1, 1);
  /* normalise month overflow */
  int64_t y = tm.tm_year + 1900LL + (tm.tm_mon >= 0 ? tm.tm_mon / 12 : -((11 - tm.tm_mon) / 12));
  int mon = ((tm.tm_mon % 12) + 12) % 12;
  days = days_from_civil(y, mon + 1, 1) + tm.tm_mday - 1;
  double t = (double)days * 86400 + tm.tm_hour * 3600.0 + tm.tm_min * 60.0 + tm.tm_sec;
  return jqv_number(t);
}

static jqv do_strftime(jq_interp *I, jqv in, jqv *a, bool local, const char *name) {
  if (in.kind == JQV_KIND_NUMBER) in = local ? f_localtime(I, in, a) : f_gmtime(I, in, a);
  if (!jqv_is_valid(in)) return in;
  if (in.kind != JQV_KIND_ARRAY) {
    jqv_free(in);
    return jq_error_fmt("%s/1 requires parsed datetime inputs", name);
  }
  if (a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("%s/1 requires a string format", name);
  }
  struct tm tm;
  double fsec = 0;
  if (!array_to_tm(&in, &tm, &fsec)) {
    jqv_free(in);
    return jq_error_fmt("%s/1 requires parsed datetime inputs", name);
  }
  jqv_free(in);
  int64_t t = days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1, tm.tm_mday) * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
  if (!local) {
    tm.tm_gmtoff = 0;
    tm.tm_zone = "UTC";
  } else if (I->tzinfo) {
    struct tm lt;
    int64_t guess;
    if (cmd_time_mk(I->tzinfo, &tm, &guess) && cmd_time_local(I->tzinfo, guess, &lt)) {
      tm.tm_gmtoff = lt.tm_gmtoff;
      tm.tm_zone = lt.tm_zone;
      t = guess;
    }
  }
  char *out = NULL;
  long n = cmd_strftime(&out, 1 << 20, jqv_string_value(a[0]), &tm, t, 0);
  if (n < 0) {
    free(out);
    return jq_error_fmt("%s/1: unknown system failure", name);
  }
  jqv r = jqv_string_sized(out ? out : "", (size_t)n);
  free(out);
  return r;
}
static jqv f_strftime(jq_interp *I, jqv in, jqv *a) {
  if (in.kind != JQV_KIND_NUMBER && in.kind != JQV_KIND_ARRAY) {
    jqv_free(in);
    return jq_error_fmt("strftime/1 requires parsed datetime inputs");
  }
  return do_strftime(I, in, a, false, "strftime");
}
static jqv f_strflocaltime(jq_interp *I, jqv in, jqv *a) {
  if (in.kind != JQV_KIND_NUMBER && in.kind != JQV_KIND_ARRAY) {
    jqv_free(in);
    return jq_error_fmt("strflocaltime/1 requires parsed datetime inputs");
  }
  return do_strftime(I, in, a, true, "strflocaltime");
}

static jqv f_strptime(jq_interp *I, jqv in, jqv *a) {
  (void)I;
  if (in.kind != JQV_KIND_STRING) {
    char b[128];
    jqv e = jq_error_fmt("strptime/1 requires string inputs and arguments");
    (void)b;
    jqv_free(in);
    return e;
  }
  if (a[0].kind != JQV_KIND_STRING) {
    jqv_free(in);
    return jq_error_fmt("strptime/1 requires string inputs and arguments");
  }
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  tm.tm_wday = 8;
  tm.tm_yday = 367;
  const char *s = jqv_string_value(in);
  const char *end = strptime(s, jqv_string_value(a[0]), &tm);
  if (!end || *end) {
    jqv e = jq_error_fmt("date \"%s\" does not match format \"%s\"", s, jqv_string_value(a[0]));
    jqv_free(in);
    return e;
  }
  jqv_free(in);
  /* compute wday/yday from the date (jq's my_mktime + timegm) */
  int64_t days = days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1, tm.tm_mday);
  tm.tm_wday = (int)(((days % 7) + 11) % 7);
  tm.tm_yday = (int)(days - days_from_civil(tm.tm_year + 1900LL, 1, 1));
  return tm_to_array(&tm, 0);
}

/* ---- the table ------------------------------------------------------------------------- */


const jq_builtin jq_builtins[] = {
    {"empty", 0, NULL, S_EMPTY},
    {"error", 0, NULL, S_ERROR0},
    {"error", 1, NULL, S_ERROR1},
    {"path", 1, NULL, S_PATH},
    {"getpath", 1, NULL, S_GETPATH},
    {"range", 1, NULL, S_RANGE1},
    {"range", 2, NULL, S_RANGE2},
    {"range", 3, NULL, S_RANGE3},
    {"limit", 2, NULL, S_LIMIT},
    {"skip", 2, NULL, S_SKIP},
    {"first", 1, NULL, S_FIRST},
    {"last", 1, NULL, S_LAST1},
    {"isempty", 1, NULL, S_ISEMPTY},
    {"input", 0, NULL, S_INPUT},
    {"inputs", 0, NULL, S_INPUTS},
    {"recurse", 1, NULL, S_RECURSE1},
    {"sort_by", 1, NULL, S_SORT_BY},
    {"group_by", 1, NULL, S_GROUP_BY},
    {"unique_by", 1, NULL, S_UNIQUE_BY},
    {"min_by", 1, NULL, S_MIN_BY},
    {"max_by", 1, NULL, S_MAX_BY},
    {"del", 1, NULL, S_DEL},
    {"pick", 1, NULL, S_PICK},
    {"any", 2, NULL, S_ANY2},
    {"until", 2, NULL, S_UNTIL},
    {"all", 2, NULL, S_ALL2},
    {"halt", 0, NULL, S_HALT},
    {"halt_error", 1, NULL, S_HALT_ERROR1},
    {"input_line_number", 0, NULL, S_INPUT_LINE},
    {"not", 0, f_not, 0},
    {"length", 0, f_length, 0},
    {"utf8bytelength", 0, f_utf8bytelength, 0},
    {"type", 0, f_type, 0},
    {"keys", 0, f_keys, 0},
    {"keys_unsorted", 0, f_keys_unsorted, 0},
    {"has", 1, f_has, 0},
    {"contains", 1, f_contains, 0},
    {"tostring", 0, f_tostring, 0},
    {"tojson", 0, f_tojson, 0},
    {"fromjson", 0, f_fromjson, 0},
    {"tonumber", 0, f_tonumber, 0},
    {"toboolean", 0, f_toboolean, 0},
    {"ascii_downcase", 0, f_ascii_downcase, 0},
    {"ascii_upcase", 0, f_ascii_upcase, 0},
    {"explode", 0, f_explode, 0},
    {"implode", 0, f_implode, 0},
    {"ltrimstr", 1, f_ltrimstr, 0},
    {"rtrimstr", 1, f_rtrimstr, 0},
    {"trimstr", 1, f_trimstr, 0},
    {"startswith", 1, f_startswith, 0},
    {"endswith", 1, f_endswith, 0},
    {"trim", 0, f_trim, 0},
    {"ltrim", 0, f_ltrim, 0},
    {"rtrim", 0, f_rtrim, 0},
    {"split", 1, f_split1, 0},
    {"join", 1, f_join, 0},
    {"setpath", 2, f_setpath, 0},
    {"delpaths", 1, f_delpaths, 0},
    {"sort", 0, f_sort, 0},
    {"unique", 0, f_unique, 0},
    {"min", 0, f_min, 0},
    {"max", 0, f_max, 0},
    {"reverse", 0, f_reverse, 0},
    {"flatten", 1, f_flatten, 0},
    {"indices", 1, f_indices, 0},
    {"_strindices", 1, f_strindices, 0},
    {"bsearch", 1, f_bsearch, 0},
    {"format", 1, f_tojson_format, 0},
    {"builtins", 0, f_builtins, 0},
    {"input_filename", 0, f_input_filename, 0},
    {"debug", 0, f_debug, 0},
    {"stderr", 0, f_stderr, 0},
    {"now", 0, f_now, 0},
    {"infinite", 0, f_infinite, 0},
    {"nan", 0, f_nan, 0},
    {"isinfinite", 0, f_isinfinite, 0},
    {"isnan", 0, f_isnan, 0},
    {"isnormal", 0, f_isnormal, 0},
    {"_match_impl", 3, f_match_impl, 0},
    {"gmtime", 0, f_gmtime, 0},
    {"localtime", 0, f_localtime, 0},
    {"mktime", 0, f_mktime, 0},
    {"strftime", 1, f_strftime, 0},
    {"strflocaltime", 1, f_strflocaltime, 0},
    {"strptime", 1, f_strptime, 0},
    {"floor", 0, m_floor, 0},
    {"ceil", 0, m_ceil, 0},
    {"round", 0, m_round, 0},
    {"trunc", 0, m_trunc, 0},
    {"rint", 0, m_rint, 0},
    {"nearbyint", 0, m_nearbyint, 0},
    {"fabs", 0, m_fabs, 0},
    {"sqrt", 0, m_sqrt, 0},
    {"cbrt", 0, m_cbrt, 0},
    {"exp", 0, m_exp, 0},
    {"exp2", 0, m_exp2, 0},
    {"exp10", 0, m_exp10, 0},
    {"expm1", 0, m_expm1, 0},
    {"log", 0, m_log, 0},
    {"log2", 0, m_log2, 0},
    {"log10", 0, m_log10, 0},
    {"log1p", 0, m_log1p, 0},
    {"logb", 0, m_logb, 0},
    {"gamma", 0, m_gamma, 0},
    {"lgamma", 0, m_lgamma, 0},
    {"tgamma", 0, m_tgamma, 0},
    {"lgamma_r", 0, m_lgamma_r, 0},
    {"sin", 0, m_sin, 0},
    {"cos", 0, m_cos, 0},
    {"tan", 0, m_tan, 0},
    {"asin", 0, m_asin, 0},
    {"acos", 0, m_acos, 0},
    {"atan", 0, m_atan, 0},
    {"sinh", 0, m_sinh, 0},
    {"cosh", 0, m_cosh, 0},
    {"tanh", 0, m_tanh, 0},
    {"asinh", 0, m_asinh, 0},
    {"acosh", 0, m_acosh, 0},
    {"atanh", 0, m_atanh, 0},
    {"significand", 0, m_significand, 0},
    {"j0", 0, m_j0, 0},
    {"j1", 0, m_j1, 0},
    {"y0", 0, m_y0, 0},
    {"y1", 0, m_y1, 0},
    {"erf", 0, m_erf, 0},
    {"erfc", 0, m_erfc, 0},
    {"frexp", 0, m_frexp, 0},
    {"modf", 0, m_modf, 0},
    {"pow", 2, m_pow, 0},
    {"atan2", 2, m_atan2, 0},
    {"fmod", 2, m_fmod, 0},
    {"hypot", 2, m_hypot, 0},
    {"copysign", 2, m_copysign, 0},
    {"fmin", 2, m_fmin, 0},
    {"fmax", 2, m_fmax, 0},
    {"fdim", 2, m_fdim, 0},
    {"drem", 2, m_drem, 0},
    {"remainder", 2, m_remainder, 0},
    {"nextafter", 2, m_nextafter, 0},
    {"nexttoward", 2, m_nexttoward, 0},
    {"scalb", 2, m_scalb, 0},
    {"ldexp", 2, m_ldexp, 0},
    {"scalbln", 2, m_scalbln, 0},
    {"jn", 2, m_jn, 0},
    {"yn", 2, m_yn, 0},
    {"fma", 3, m_fma, 0},
};
const int jq_nbuiltins = (int)(sizeof jq_builtins / sizeof jq_builtins[0]);

int jq_builtin_find(const char *name, int nargs) {
  for (int i = 0; i < jq_nbuiltins; i++)
    if (jq_builtins[i].nargs == nargs && strcmp(jq_builtins[i].name, name) == 0) return i;
  return -1;
}
