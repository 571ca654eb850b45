/*
 * tput, clear - terminal capabilities without a terminal (ncurses 6.4).
 *
 *   tput [-T TERM] [-x] CAPNAME [PARAM]...      tput [-T TERM] -S < CAPNAMES
 *   clear [-x] [-T TERM]
 *
 * The sandbox has no terminal, so no terminfo database is read: the entries
 * of the terminals an agent's TERM is likely to be (xterm, xterm-256color,
 * dumb) are built in, with the common capabilities: attributes (bold, dim,
 * sitm, smul, rev, blink, sgr0...), colors (setaf/setab, op, colors),
 * cursor motion (cup, cuu, cud, cuf, cub, hpa, vpa, home, sc, rc, civis,
 * cnorm), erasing (clear, el, el1, ed, ech), the alternate screen (smcup,
 * rmcup), numbers (cols, lines: $COLUMNS / $LINES first, as ncurses does
 * without a tty) and booleans (exit status 0 present, 1 absent). Parameters
 * go through the subset of terminfo's %-language these entries use (%p1 %d
 * %i %{n} %< %- %? %t %e %;). Errors and exit statuses are ncurses':
 * 2 no $TERM, 3 unknown terminal, 4 unknown capability, 1 absent string.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

CMD_DEFINE("tput", cmd_tput_main);
CMD_DEFINE("clear", cmd_clear_main);

typedef struct tp_cap {
  const char *name;
  const char *value; /* string capability (NULL: see num / boolean) */
  int num;           /* numeric capability when value is NULL and num >= 0 */
} tp_cap;

#define TP_BOOL (-2) /* a boolean that is present */

static const tp_cap tp_xterm[] = {{"am", NULL, TP_BOOL},
                                  {"bce", NULL, TP_BOOL},
                                  {"km", NULL, TP_BOOL},
                                  {"mir", NULL, TP_BOOL},
                                  {"msgr", NULL, TP_BOOL},
                                  {"xenl", NULL, TP_BOOL},
                                  {"npc", NULL, TP_BOOL},
                                  {"cols", NULL, 80},
                                  {"lines", NULL, 24},
                                  {"colors", NULL, 8},
                                  {"pairs", NULL, 64},
                                  {"it", NULL, 8},
                                  {"bold", "\033[1m", 0},
                                  {"dim", "\033[2m", 0},
                                  {"sitm", "\033[3m", 0},
                                  {"ritm", "\033[23m", 0},
                                  {"smul", "\033[4m", 0},
                                  {"rmul", "\033[24m", 0},
                                  {"blink", "\033[5m", 0},
                                  {"rev", "\033[7m", 0},
                                  {"invis", "\033[8m", 0},
                                  {"smso", "\033[7m", 0},
                                  {"rmso", "\033[27m", 0},
                                  {"sgr0", "\033(B\033[m", 0},
                                  {"op", "\033[39;49m", 0},
                                  {"setaf", "\033[3%p1%dm", 0},
                                  {"setab", "\033[4%p1%dm", 0},
                                  {"clear", "\033[H\033[2J", 0},
                                  {"E3", "\033[3J", 0},
                                  {"el", "\033[K", 0},
                                  {"el1", "\033[1K", 0},
                                  {"ed", "\033[J", 0},
                                  {"ech", "\033[%p1%dX", 0},
                                  {"civis", "\033[?25l", 0},
                                  {"cnorm", "\033[?12l\033[?25h", 0},
                                  {"cvvis", "\033[?12;25h", 0},
                                  {"smcup", "\033[?1049h\033[22;0;0t", 0},
                                  {"rmcup", "\033[?1049l\033[23;0;0t", 0},
                                  {"sc", "\0337", 0},
                                  {"rc", "\0338", 0},
                                  {"home", "\033[H", 0},
                                  {"cup", "\033[%i%p1%d;%p2%dH", 0},
                                  {"cuu1", "\033[A", 0},
                                  {"cud1", "\n", 0},
                                  {"cub1", "\b", 0},
                                  {"cuf1", "\033[C", 0},
                                  {"cuu", "\033[%p1%dA", 0},
                                  {"cud", "\033[%p1%dB", 0},
                                  {"cuf", "\033[%p1%dC", 0},
                                  {"cub", "\033[%p1%dD", 0},
                                  {"hpa", "\033[%i%p1%dG", 0},
                                  {"vpa", "\033[%i%p1%dd", 0},
                                  {"il1", "\033[L", 0},
                                  {"dl1", "\033[M", 0},
                                  {"il", "\033[%p1%dL", 0},
                                  {"dl", "\033[%p1%dM", 0},
                                  {"ind", "\n", 0},
                                  {"ri", "\033M", 0},
                                  {"cr", "\r", 0},
                                  {"ht", "\t", 0},
                                  {"bel", "\a", 0},
                                  {"smam", "\033[?7h", 0},
                                  {"rmam", "\033[?7l", 0},
                                  {"smkx", "\033[?1h\033=", 0},
                                  {"rmkx", "\033[?1l\033>", 0},
                                  {"kbs", "\177", 0},
                                  {NULL, NULL, 0}};

/* What xterm-256color changes. */
static const tp_cap tp_xterm256[] = {
    {"colors", NULL, 256},
    {"pairs", NULL, 65536},
    {"setaf", "\033[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m", 0},
    {"setab", "\033[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m", 0},
    {NULL, NULL, 0}};

static const tp_cap tp_dumb[] = {
    {"am", NULL, TP_BOOL}, {"cols", NULL, 80}, {"bel", "\a", 0}, {"cr", "\r", 0},
    {"cud1", "\n", 0},     {"ind", "\n", 0},   {NULL, NULL, 0}};

/* Every name the capability tables could hold, for "unknown capability". */
static const char *const tp_known[] = {
    "lines", "colors", "pairs", "it", "hs", "longname", "xon", "bw",    "da",
    "db",    "eo",     "hc",    "in", "os", "ul",       "xhp", "blink", NULL};

typedef struct tp_term {
  const char *name, *longname;
  const tp_cap *base, *over;
} tp_term;

static const tp_term tp_terms[] = {
    {"xterm", "xterm terminal emulator (X Window System)", tp_xterm, NULL},
    {"xterm-256color", "xterm with 256 colors", tp_xterm, tp_xterm256},
    {"dumb", "80-column dumb tty", tp_dumb, NULL},
};

static const tp_cap *tp_lookup(const tp_term *t, const char *name) {
  for (const tp_cap *c = t->over; c && c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  for (const tp_cap *c = t->base; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

static bool tp_known_name(const char *name) {
  for (const tp_cap *c = tp_xterm; c->name; c++)
    if (strcmp(c->name, name) == 0) return true;
  for (int i = 0; tp_known[i]; i++)
    if (strcmp(tp_known[i], name) == 0) return true;
  return false;
}

/* Expands the %-language subset with up to 9 parameters. */
/* From the letter of a %t or %e: the ';' of the %; that closes its
 * conditional, or with at_else the 'e' of a %e at its level, whichever comes
 * first; the string's NUL when neither does. */
static const char *tp_skip_branch(const char *s, bool at_else) {
  int depth = 0;
  for (s++; *s; s++) {
    if (*s != '%' || !s[1]) continue;
    s++;
    if (*s == '?')
      depth++;
    else if (*s == ';' && depth-- == 0)
      break;
    else if (at_else && *s == 'e' && depth == 0)
      break;
  }
  return s;
}

static void tp_expand(cmd_ctx *ctx, const char *s, long *p, int np) {
  long stack[16];
  int sp = 0;
  long params[9] = {0};
  for (int i = 0; i < np && i < 9; i++) params[i] = p[i];
  for (; *s; s++) {
    if (*s != '%') {
      cmd_outc(ctx, *s);
      continue;
    }
    s++;
    switch (*s) {
      case '%':
        cmd_outc(ctx, '%');
        break;
      case 'i':
        params[0]++, params[1]++;
        break;
      case 'p':
        if (s[1] >= '1' && s[1] <= '9' && sp < 16) stack[sp++] = params[s[1] - '1'];
        if (s[1]) s++;
        break;
      case 'd':
        if (sp > 0) cmd_outf(ctx, "%ld", stack[--sp]);
        break;
      case '{': {
        long v = 0;
        while (s[1] >= '0' && s[1] <= '9') v = v * 10 + (*++s - '0');
        if (s[1] == '}') s++;
        if (sp < 16) stack[sp++] = v;
        break;
      }
      case '<':
      case '-':
      case '+':
      case '>':
      case '=':
        if (sp >= 2) {
          long b = stack[--sp], a = stack[--sp];
          stack[sp++] = *s == '<'   ? a < b
                        : *s == '>' ? a > b
                        : *s == '=' ? a == b
                        : *s == '-' ? a - b
                                    : a + b;
        }
        break;
      case '?':
      case ';':
        break;
      case 't': {
        long v = sp > 0 ? stack[--sp] : 0;
        if (v) break;
        s = tp_skip_branch(s, true); /* to the matching %e or %; */
        if (!*s) return;
        break;
      }
      case 'e': /* the then-branch ran: skip to the closing %; */
        s = tp_skip_branch(s, false);
        if (!*s) return;
        break;
      case '\0':
        return;
      default:
        cmd_outc(ctx, '%'), cmd_outc(ctx, *s);
        break;
    }
  }
}

static const tp_term *tp_find_term(cmd_ctx *ctx, const char *tname, const char *who) {
  if (!tname || !*tname) {
    cmd_errorf(ctx, "No value for $TERM and no -T specified");
    return NULL;
  }
  for (size_t i = 0; i < sizeof tp_terms / sizeof tp_terms[0]; i++)
    if (strcmp(tp_terms[i].name, tname) == 0) return &tp_terms[i];
  (void)who;
  cmd_errorf(ctx, "unknown terminal \"%s\"", tname);
  return NULL;
}

/* One capability with its parameters; returns tput's status. */
static int tp_one(cmd_ctx *ctx, const tp_term *t, int argc, char **argv, bool no_e3) {
  const char *name = argv[0];
  if (strcmp(name, "longname") == 0) {
    cmd_outs(ctx, t->longname);
    return 0;
  }
  const tp_cap *c = tp_lookup(t, name);
  if (!c) {
    if (tp_known_name(name)) return strcmp(name, "clear") == 0 ? 2 : 1;
    cmd_errorf(ctx, "unknown terminfo capability '%s'", name);
    return 4;
  }
  if (!c->value) {
    if (c->num == TP_BOOL) return 0;
    const char *env = strcmp(name, "cols") == 0    ? cmd_getenv(ctx, "COLUMNS")
                      : strcmp(name, "lines") == 0 ? cmd_getenv(ctx, "LINES")
                                                   : NULL;
    if (env && atoi(env) > 0)
      cmd_outf(ctx, "%d\n", atoi(env));
    else
      cmd_outf(ctx, "%d\n", c->num);
    return 0;
  }
  long p[9];
  int np = 0;
  for (int i = 1; i < argc && np < 9; i++) p[np++] = strtol(argv[i], NULL, 10);
  tp_expand(ctx, c->value, p, np);
  if (strcmp(name, "clear") == 0 && !no_e3) {
    const tp_cap *e3 = tp_lookup(t, "E3");
    if (e3) cmd_outs(ctx, e3->value);
  }
  return 0;
}

/* The option loop of tput and clear: -V prints the version at once (0), a
 * bad option prints `usage` (status `bad`); else -1, the options in g
 * (-T TERM, -S, -x). */
static int tp_options(cmd_ctx *ctx, cmd_getopt_state *g, int argc, char **argv,
                      const char *spec, const char *usage, int bad) {
  for (int c; (c = cmd_getopt(ctx, g, argc, argv, spec, NULL)) != -1;) {
    if (c == 'V') {
      cmd_outs(ctx, "ncurses 6.4 (sbx)\n");
      return 0;
    }
    if (c == '?') {
      cmd_err_raw(ctx, "%s", usage);
      return bad;
    }
  }
  return -1;
}

int cmd_tput_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = tp_options(ctx, &g, argc, argv, "+T:SxV",
                      "Usage: tput [-V] [-S] [-T term] [-x] capname\n", 2);
  if (rc >= 0) return rc;
  const char *tname = cmd_opt_on(&g, 'T') ? cmd_opt_arg(&g, 'T') : cmd_getenv(ctx, "TERM");
  bool from_stdin = cmd_opt_on(&g, 'S'), no_e3 = cmd_opt_on(&g, 'x');
  const tp_term *t = tp_find_term(ctx, tname, "tput");
  if (!t) return tname && *tname ? 3 : 2;
  if (from_stdin) {
    cmd_in *in = cmd_in_fd(ctx, 0);
    if (!in) return 4;
    char *line;
    ssize_t n;
    int st = 0;
    while ((n = cmd_in_getdelim(in, &line, '\n')) > 0 && !cmd_poll(ctx)) {
      char *words[10];
      int nw = 0;
      for (char *tok = strtok(line, " \t\n"); tok && nw < 10; tok = strtok(NULL, " \t\n"))
        words[nw++] = tok;
      if (nw) st = tp_one(ctx, t, nw, words, no_e3);
    }
    cmd_in_close(in);
    return st;
  }
  if (g.ind >= argc) {
    cmd_err_raw(ctx, "Usage: tput [-V] [-S] [-T term] [-x] capname\n");
    return 2;
  }
  /* several capabilities in one call, each followed by its numeric parameters */
  int st = 0;
  for (int i = g.ind; i < argc;) {
    int j = i + 1;
    while (j < argc) {
      char *end;
      strtol(argv[j], &end, 10);
      if (!*argv[j] || *end) break;
      j++;
    }
    st = tp_one(ctx, t, j - i, argv + i, no_e3);
    if (st == 4 || st == 2) return st;
    i = j;
  }
  return st;
}

int cmd_clear_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int rc = tp_options(ctx, &g, argc, argv, "T:xV", "Usage: clear [options]\n", 1);
  if (rc >= 0) return rc;
  const char *tname = cmd_opt_on(&g, 'T') ? cmd_opt_arg(&g, 'T') : cmd_getenv(ctx, "TERM");
  bool no_e3 = cmd_opt_on(&g, 'x');
  const tp_term *t = tp_find_term(ctx, tname, "clear");
  if (!t) return 1;
  const tp_cap *cl = tp_lookup(t, "clear");
  if (!cl) return 1;
  cmd_outs(ctx, cl->value);
  const tp_cap *e3 = no_e3 ? NULL : tp_lookup(t, "E3");
  if (e3) cmd_outs(ctx, e3->value);
  return 0;
}
