/*
 * cut_list.c - cut's LIST parser (see cut/cut_list.h).
 *
 * Follows gnulib set_fields as coreutils 9.1 uses it, message for message:
 * a lone "-" is an error, 0 is "numbered from 1", "3-1" is a decreasing
 * range, numbers that overflow are "too large", any other byte is an
 * "invalid field value" quoting the rest of the list. Ranges are sorted and
 * only overlapping ones merged, since cut's --output-delimiter separates
 * adjacent ranges ("-b1,2" prints "a:b").
 */
#include "cmd/cut/cut_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

static int add_range(cmd_ranges *r, size_t *cap, uintmax_t lo, uintmax_t hi) {
  if (cmd_grow(&r->v, cap, r->n + 1, sizeof *r->v)) return -1;
  r->v[r->n].lo = lo;
  r->v[r->n].hi = hi;
  r->n++;
  return 0;
}

static int cmp_range(const void *a, const void *b) {
  const cmd_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Writes gnulib quote(s) (‘s’ with escapes) into buf. */
static void quote_into(char *buf, size_t len, const char *s, size_t n) {
  size_t o = 0;
  const char lq[] = CMD_LQ, rq[] = CMD_RQ;
  if (len < 16) {
    if (len) buf[0] = 0;
    return;
  }
  memcpy(buf, lq, 3);
  o = 3;
  for (size_t i = 0; i < n && o + 8 < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') { buf[o++] = '\\'; buf[o++] = '\\'; }
    else if (c == '\n') { buf[o++] = '\\'; buf[o++] = 'n'; }
    else if (c == '\t') { buf[o++] = '\\'; buf[o++] = 't'; }
    else if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(buf + o, len - o, "\\%03o", c);
    else buf[o++] = (char)c;
  }
  memcpy(buf + o, rq, 3);
  buf[o + 3] = 0;
}

int cmd_ranges_parse(const char *s, unsigned flags, cmd_ranges *out, const char **msg,
                     char *errbuf, size_t errlen) {
  bool pos = flags & CMD_RANGES_POS;
  cmd_ranges r = {0};
  size_t cap = 0;
  uintmax_t initial = 1, value = 0;
  bool lhs = false, rhs = false, dash = false, in_digits = false;
  const char *num_start = NULL;
  *msg = NULL;
  for (;;) {
    if (*s == '-') {
      in_digits = false;
      if (dash) {
        *msg = pos ? "invalid byte or character range" : "invalid field range";
        goto fail;
      }
      dash = true;
      s++;
      if (lhs && !value) {
        *msg = pos ? "byte/character positions are numbered from 1" : "fields are numbered from 1";
        goto fail;
      }
      initial = lhs ? value : 1;
      value = 0;
    } else if (*s == ',' || *s == ' ' || *s == '\t' || *s == '\0') {
      in_digits = false;
      if (dash) {
        dash = false;
        if (!lhs && !rhs) {
          *msg = "invalid range with no endpoint: -";
          goto fail;
        }
        if (!rhs) {
          if (add_range(&r, &cap, initial, UINTMAX_MAX) < 0) goto oom;
        } else {
          if (value < initial) {
            *msg = "invalid decreasing range";
            goto fail;
          }
          if (add_range(&r, &cap, initial, value) < 0) goto oom;
        }
        value = 0;
      } else {
        if (value == 0) {
          *msg = pos ? "byte/character positions are numbered from 1"
                     : "fields are numbered from 1";
          goto fail;
        }
        if (add_range(&r, &cap, value, value) < 0) goto oom;
        value = 0;
      }
      if (*s == '\0') break;
      s++;
      lhs = rhs = false;
    } else if (*s >= '0' && *s <= '9') {
      if (!in_digits || !num_start) num_start = s;
      in_digits = true;
      if (dash) rhs = true;
      else lhs = true;
      uintmax_t d = (uintmax_t)(*s - '0');
      if (value > (UINTMAX_MAX - d) / 10 || value * 10 + d == UINTMAX_MAX) {
        size_t n = strspn(num_start, "0123456789");
        char q[128];
        quote_into(q, sizeof q, num_start, n < 40 ? n : 40);
        snprintf(errbuf, errlen, pos ? "byte/character offset %s is too large"
                                     : "field number %s is too large", q);
        *msg = errbuf;
        goto fail;
      }
      value = value * 10 + d;
      s++;
    } else {
      size_t n = strlen(s);
      size_t room = errlen > 64 ? (errlen - 64) / 4 : 0;
      char *q = malloc(room * 4 + 16);
      if (!q) goto oom;
      quote_into(q, room * 4 + 16, s, n < room ? n : room);
      snprintf(errbuf, errlen, pos ? "invalid byte/character position %s"
                                   : "invalid field value %s", q);
      free(q);
      *msg = errbuf;
      goto fail;
    }
  }
  if (r.n == 0) {
    *msg = pos ? "missing list of byte/character positions" : "missing list of fields";
    goto fail;
  }
  qsort(r.v, r.n, sizeof *r.v, cmp_range);
  size_t k = 0;
  for (size_t i = 1; i < r.n; i++) {
    if (r.v[k].hi >= r.v[i].lo) {
      if (r.v[i].hi > r.v[k].hi) r.v[k].hi = r.v[i].hi;
    } else {
      r.v[++k] = r.v[i];
    }
  }
  r.n = k + 1;
  if (flags & CMD_RANGES_COMPLEMENT) {
    cmd_ranges c = {0};
    size_t ccap = 0;
    if (r.v[0].lo > 1 && add_range(&c, &ccap, 1, r.v[0].lo - 1) < 0) goto oom_c;
    for (size_t i = 1; i < r.n; i++) {
      if (r.v[i - 1].hi + 1 == r.v[i].lo) continue;
      if (add_range(&c, &ccap, r.v[i - 1].hi + 1, r.v[i].lo - 1) < 0) goto oom_c;
    }
    if (r.v[r.n - 1].hi < UINTMAX_MAX &&
        add_range(&c, &ccap, r.v[r.n - 1].hi + 1, UINTMAX_MAX) < 0)
      goto oom_c;
    free(r.v);
    r = c;
    goto done;
  oom_c:
    free(c.v);
    goto oom;
  }
done:
  *out = r;
  return 0;
oom:
  *msg = "memory exhausted";
fail:
  free(r.v);
  return -1;
}

void cmd_ranges_free(cmd_ranges *r) {
  free(r->v);
  r->v = NULL;
  r->n = 0;
}
