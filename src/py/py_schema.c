/*
 * py_schema.c - the JSON Schema subset that host tools declare their payloads
 * and results with (jansson values).
 *
 * Supported keywords: type (string or list; "integer" accepts integral reals),
 * properties, required, additionalProperties (bool or schema), items (schema),
 * enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
 * minLength, maxLength (in code points), minItems, maxItems, anyOf, oneOf,
 * allOf, not. Unknown keywords (description, title, $schema, format...) are
 * ignored, as the specification says. Recursion is bounded (PY_SCHEMA_DEPTH)
 * on both the schema and the instance, so hostile documents cannot overflow
 * the stack. Errors name the JSON path: "$.items[2].name: expected string".
 */
#include "py/py_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PY_SCHEMA_DEPTH 64

typedef struct schema_err {
  char *buf;   /* message out */
  size_t size; /* its size */
} schema_err;

static int fail(schema_err *e, const char *path, const char *fmt, const char *arg) {
  if (e && e->buf && e->size) {
    int n = snprintf(e->buf, e->size, "%s: ", path);
    if (n >= 0 && (size_t)n < e->size) snprintf(e->buf + n, e->size - (size_t)n, fmt, arg);
  }
  return -1;
}

static const char *type_name(const json_t *v) {
  switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
  }
}

static int type_matches(const char *t, const json_t *v) {
  if (strcmp(t, "object") == 0) return json_is_object(v);
  if (strcmp(t, "array") == 0) return json_is_array(v);
  if (strcmp(t, "string") == 0) return json_is_string(v);
  if (strcmp(t, "boolean") == 0) return json_is_boolean(v);
  if (strcmp(t, "null") == 0) return json_is_null(v);
  if (strcmp(t, "number") == 0) return json_is_number(v);
  if (strcmp(t, "integer") == 0) {
    if (json_is_integer(v)) return 1;
    if (json_is_real(v)) {
      double d = json_real_value(v);
      return isfinite(d) && d == floor(d);
    }
  }
  return 0;
}

static size_t utf8_len(const char *s, size_t n) {
  size_t cps = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xc0) != 0x80) cps++;
  return cps;
}

static int validate(const json_t *schema, const json_t *v, char *path, size_t plen, int depth,
                    schema_err *e);

/* The size bounds of a string (minLength/maxLength, n in code points) or an
 * array (minItems/maxItems): 0, or -1 with the message of the bound that n
 * breaks. An integer bound counts; any other value of the keyword is
 * ignored. */
static int check_size(const json_t *schema, size_t n, const char *path, schema_err *e,
                      const char *min_key, const char *below_min, const char *max_key,
                      const char *above_max) {
  const json_t *m;
  if ((m = json_object_get(schema, min_key)) && json_is_integer(m) &&
      (json_int_t)n < json_integer_value(m))
    return fail(e, path, "%s", below_min);
  if ((m = json_object_get(schema, max_key)) && json_is_integer(m) &&
      (json_int_t)n > json_integer_value(m))
    return fail(e, path, "%s", above_max);
  return 0;
}

/* Appends ".key" or "[i]" to the path buffer (bounded); returns the old length. */
static size_t path_push(char *path, size_t cap, const char *key, size_t index) {
  size_t old = strlen(path);
  if (key) snprintf(path + old, cap - old, ".%.64s", key);
  else snprintf(path + old, cap - old, "[%zu]", index);
  return old;
}

static int validate_object(const json_t *schema, const json_t *v, char *path, size_t plen,
                           int depth, schema_err *e) {
  const json_t *req = json_object_get(schema, "required");
  if (json_is_array(req)) {
    size_t i;
    const json_t *r;
    json_array_foreach(req, i, r) {
      if (json_is_string(r) && !json_object_get(v, json_string_value(r)))
        return fail(e, path, "missing required property '%s'", json_string_value(r));
    }
  }
  const json_t *props = json_object_get(schema, "properties");
  const json_t *addl = json_object_get(schema, "additionalProperties");
  const char *key;
  const json_t *val;
  json_object_foreach((json_t *)v, key, val) {
    const json_t *ps = json_is_object(props) ? json_object_get(props, key) : NULL;
    size_t old = path_push(path, plen, key, 0);
    int r = 0;
    if (ps) {
      r = validate(ps, val, path, plen, depth + 1, e);
    } else if (json_is_false(addl)) {
      path[old] = 0;
      return fail(e, path, "unexpected property '%s'", key);
    } else if (json_is_object(addl)) {
      r = validate(addl, val, path, plen, depth + 1, e);
    }
    path[old] = 0;
    if (r) return r;
  }
  return 0;
}

/* How many schemas of the array `list` accept v, counting up to `most` (anyOf
 * needs one, oneOf two). */
static size_t count_matches(const json_t *list, const json_t *v, char *path, size_t plen, int depth,
                            size_t most) {
  size_t i, count = 0;
  const json_t *s;
  json_array_foreach(list, i, s) {
    if (count >= most) break;
    if (validate(s, v, path, plen, depth + 1, NULL) == 0) count++;
  }
  return count;
}

static int validate(const json_t *schema, const json_t *v, char *path, size_t plen, int depth,
                    schema_err *e) {
  if (depth > PY_SCHEMA_DEPTH) return fail(e, path, "%s", "nested too deeply");
  if (json_is_true(schema)) return 0;
  if (json_is_false(schema)) return fail(e, path, "%s", "no value is allowed here");
  if (!json_is_object(schema)) return 0;

  const json_t *t = json_object_get(schema, "type");
  if (json_is_string(t)) {
    if (!type_matches(json_string_value(t), v))
      return fail(e, path, "expected %s", json_string_value(t));
  } else if (json_is_array(t)) {
    size_t i;
    const json_t *x;
    int ok = 0;
    json_array_foreach(t, i, x) {
      if (json_is_string(x) && type_matches(json_string_value(x), v)) ok = 1;
    }
    if (!ok) return fail(e, path, "unexpected type %s", type_name(v));
  }
  const json_t *en = json_object_get(schema, "enum");
  if (json_is_array(en)) {
    size_t i;
    const json_t *x;
    int ok = 0;
    json_array_foreach(en, i, x) {
      if (json_equal((json_t *)x, (json_t *)v)) ok = 1;
    }
    if (!ok) return fail(e, path, "%s", "value is not one of the allowed (enum)");
  }
  const json_t *cn = json_object_get(schema, "const");
  if (cn && !json_equal((json_t *)cn, (json_t *)v))
    return fail(e, path, "%s", "value differs from the schema's const");

  if (json_is_number(v)) {
    double d = json_number_value(v);
    const json_t *m;
    if ((m = json_object_get(schema, "minimum")) && json_is_number(m) && d < json_number_value(m))
      return fail(e, path, "%s", "below the minimum");
    if ((m = json_object_get(schema, "maximum")) && json_is_number(m) && d > json_number_value(m))
      return fail(e, path, "%s", "above the maximum");
    if ((m = json_object_get(schema, "exclusiveMinimum")) && json_is_number(m) &&
        d <= json_number_value(m))
      return fail(e, path, "%s", "not above the exclusive minimum");
    if ((m = json_object_get(schema, "exclusiveMaximum")) && json_is_number(m) &&
        d >= json_number_value(m))
      return fail(e, path, "%s", "not below the exclusive maximum");
  }
  if (json_is_string(v) &&
      check_size(schema, utf8_len(json_string_value(v), json_string_length(v)), path, e,
                 "minLength", "string shorter than minLength", "maxLength",
                 "string longer than maxLength"))
    return -1;
  if (json_is_array(v)) {
    if (check_size(schema, json_array_size(v), path, e, "minItems", "fewer items than minItems",
                   "maxItems", "more items than maxItems"))
      return -1;
    const json_t *items = json_object_get(schema, "items");
    if (json_is_object(items) || json_is_boolean(items)) {
      size_t i;
      const json_t *x;
      json_array_foreach(v, i, x) {
        size_t old = path_push(path, plen, NULL, i);
        int r = validate(items, x, path, plen, depth + 1, e);
        path[old] = 0;
        if (r) return r;
      }
    }
  }
  if (json_is_object(v) && validate_object(schema, v, path, plen, depth, e)) return -1;

  const json_t *all = json_object_get(schema, "allOf");
  if (json_is_array(all)) {
    size_t i;
    const json_t *s;
    json_array_foreach(all, i, s) {
      if (validate(s, v, path, plen, depth + 1, e)) return -1;
    }
  }
  const json_t *any = json_object_get(schema, "anyOf");
  if (json_is_array(any) && !count_matches(any, v, path, plen, depth, 1))
    return fail(e, path, "%s", "matches none of anyOf");
  const json_t *one = json_object_get(schema, "oneOf");
  if (json_is_array(one)) {
    size_t count = count_matches(one, v, path, plen, depth, 2);
    if (count != 1) return fail(e, path, "%s", count ? "matches more than one of oneOf" : "matches none of oneOf");
  }
  const json_t *nt = json_object_get(schema, "not");
  if (nt && validate(nt, v, path, plen, depth + 1, NULL) == 0)
    return fail(e, path, "%s", "matches the schema under 'not'");
  return 0;
}

int py_schema_validate(const json_t *schema, const json_t *value, char *err, size_t errlen) {
  if (!schema) return 0;
  char path[512] = "$";
  schema_err e = {err, errlen};
  if (err && errlen) err[0] = 0;
  return validate(schema, value, path, sizeof path, 0, &e);
}

/* A schema must be an object or a boolean, and no deeper than we check. */
static int schema_depth_ok(const json_t *s, int depth) {
  if (depth > PY_SCHEMA_DEPTH) return 0;
  if (json_is_object(s)) {
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)s, k, v) {
      if (!schema_depth_ok(v, depth + 1)) return 0;
    }
  } else if (json_is_array(s)) {
    size_t i;
    const json_t *v;
    json_array_foreach(s, i, v) {
      if (!schema_depth_ok(v, depth + 1)) return 0;
    }
  }
  return 1;
}

int py_schema_check(const json_t *schema) {
  return (json_is_object(schema) || json_is_boolean(schema)) && schema_depth_ok(schema, 0);
}
