/*
 * tabstops.c - TAB stop lists for expand and unexpand (see lib/tabstops.h),
 * following GNU expand-common's parsing and validation messages.
 */
#include "cmd/lib/tabstops.h"

#include <string.h>

#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

static int add_stop(cmd_ctx *ctx, cmd_tabs *t, uintmax_t v) {
  if (cmd_grow_arena(ctx, &t->list, &t->cap, t->n + 1, sizeof *t->list)) return -1;
  t->list[t->n++] = v;
  return 0;
}

/* Sets the "/N" (`spec` '/') or "+N" ('+') of a list, *field; false after
 * GNU's message when one was already set (it must come with the last value). */
static bool set_once(cmd_ctx *ctx, char spec, uintmax_t *field, uintmax_t v) {
  bool ok = true;
  if (*field) {
    cmd_errorf(ctx, "'%c' specifier only allowed with the last value", spec);
    ok = false;
  }
  *field = v;
  return ok;
}

int cmd_tabs_parse(cmd_ctx *ctx, cmd_tabs *t, const char *s) {
  bool have = false, ext = false, inc = false, ok = true;
  uintmax_t val = 0;
  const char *num_start = NULL;
  for (; *s; s++) {
    if (*s == ',' || *s == ' ' || *s == '\t') {
      if (have) {
        if (ext) {
          if (!set_once(ctx, '/', &t->extend, val)) { ok = false; break; }
        } else if (inc) {
          if (!set_once(ctx, '+', &t->increment, val)) { ok = false; break; }
        } else if (add_stop(ctx, t, val) < 0) {
          return -1;
        }
      }
      have = false;
    } else if (*s == '/' || *s == '+') {
      if (have) {
        cmd_errorf(ctx, "'%c' specifier not at start of number: %s", *s,
                   cmd_gnu_quote(ctx, s));
        ok = false;
      }
      ext = *s == '/';
      inc = *s == '+';
    } else if (*s >= '0' && *s <= '9') {
      if (!have) {
        val = 0;
        have = true;
        num_start = s;
      }
      uintmax_t d = (uintmax_t)(*s - '0');
      if (val > (UINTMAX_MAX - d) / 10) {
        size_t len = strspn(num_start, "0123456789");
        cmd_errorf(ctx, "tab stop is too large %s",
                   cmd_gnu_quote_n(ctx, num_start, (long)len));
        ok = false;
        s = num_start + len - 1;
      } else {
        val = val * 10 + d;
      }
    } else {
      cmd_errorf(ctx, "tab size contains invalid character(s): %s", cmd_gnu_quote(ctx, s));
      ok = false;
      break;
    }
  }
  if (ok && have) {
    if (ext) ok = set_once(ctx, '/', &t->extend, val);
    else if (inc) ok = set_once(ctx, '+', &t->increment, val);
    else if (add_stop(ctx, t, val) < 0) return -1;
  }
  return ok ? 0 : -1;
}

int cmd_tabs_getopt_all(cmd_ctx *ctx, cmd_tabs *t, cmd_getopt_state *g, int argc,
                        char **argv, const char *spec, const char *usage) {
  for (;;) {
    /* An obsolete "-N[,M]..." at g's position (not inside a cluster). */
    while (g->pos == 0 && g->ind < argc && argv[g->ind][0] == '-' &&
           argv[g->ind][1] >= '0' && argv[g->ind][1] <= '9') {
      if (cmd_tabs_parse(ctx, t, argv[g->ind] + 1) < 0) return 1;
      g->ind++;
    }
    switch (cmd_getopt(ctx, g, argc, argv, spec, NULL)) {
    case -1: return -1;
    case 't':
      if (cmd_tabs_parse(ctx, t, g->arg) < 0) return 1;
      break;
    CMD_CASES_HELP_VERSION(ctx, usage);
    case '?': return 1;
    }
  }
}

int cmd_tabs_finalize(cmd_ctx *ctx, cmd_tabs *t) {
  uintmax_t prev = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (t->list[i] == 0) {
      cmd_errorf(ctx, "tab size cannot be 0");
      return -1;
    }
    if (t->list[i] <= prev) {
      cmd_errorf(ctx, "tab sizes must be ascending");
      return -1;
    }
    prev = t->list[i];
  }
  if (t->increment && t->extend) {
    cmd_errorf(ctx, "'/' specifier is mutually exclusive with '+'");
    return -1;
  }
  if (t->n == 0)
    t->tab_size = t->extend ? t->extend : t->increment ? t->increment : 8;
  else if (t->n == 1 && !t->extend && !t->increment)
    t->tab_size = t->list[0];
  else
    t->tab_size = 0;
  return 0;
}

uintmax_t cmd_tabs_next(const cmd_tabs *t, uintmax_t column, size_t *index, bool *last) {
  *last = false;
  if (t->tab_size) return column + (t->tab_size - column % t->tab_size);
  for (; *index < t->n; (*index)++)
    if (column < t->list[*index]) return t->list[*index];
  if (t->extend) return column + (t->extend - column % t->extend);
  if (t->increment) {
    uintmax_t end = t->list[t->n - 1];
    return column + (t->increment - ((column - end) % t->increment));
  }
  *last = true;
  return 0;
}
