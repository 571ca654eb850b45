/*
 * interactive.c - what makes `bash -i` different from a script: the
 * read-eval loop over stdin with PS1/PS2 prompts and PROMPT_COMMAND, and the
 * command history (`history`, `fc -l`, HISTFILE, HISTSIZE, HISTFILESIZE).
 *
 * Design: the loop reads fd 0 one byte at a time up to each newline, so a
 * command that itself reads stdin (`read x`) gets the next line, as with
 * bash. Input accumulates until it parses as complete commands
 * (sh_parse_check), then it enters the history and runs through
 * sh_eval_string at depth 1, where a fatal error (bad substitution, unbound
 * variable) abandons only that input (exec.c). Prompts go to stderr.
 *
 * The history is a list of lines per shell (copied into subshells). Entries
 * are numbered from `base` (bash's history_base): shrinking the list with
 * HISTSIZE raises base, `history -c` resets it to 1. `new_from` marks the
 * first entry not yet written to HISTFILE (history -a, the append at exit),
 * `file_lines` how many lines of HISTFILE were read (history -n).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/io.h"
#include "sh/parse.h"
#include "sh/vars.h"

typedef struct sh_history {
  sh_strv lines;      /* entries, oldest first (no trailing newline) */
  int base;           /* the number of lines.v[0] */
  size_t new_from;    /* first entry not yet appended to HISTFILE */
  size_t file_lines;  /* lines of HISTFILE read so far (history -n) */
  bool current;       /* the last entry is the command running now (fc -l skips it) */
} sh_history;

#define HIST_MAX_DEFAULT 500
#define HIST_LINE_MAX (1u << 20) /* one input line */

static sh_history *hist_get(sh_shell *sh) {
  if (!sh->hist) {
    sh->hist = sh_xcalloc(1, sizeof *sh->hist);
    sh->hist->base = 1;
  }
  return sh->hist;
}

sh_history *sh_hist_copy(const sh_history *h) {
  sh_history *c = sh_xcalloc(1, sizeof *c);
  for (size_t i = 0; i < h->lines.n; i++) sh_strv_pushdup(&c->lines, h->lines.v[i]);
  c->base = h->base;
  c->new_from = h->new_from;
  c->file_lines = h->file_lines;
  c->current = h->current;
  return c;
}

void sh_hist_free(sh_history *h) {
  if (!h) return;
  sh_strv_free(&h->lines);
  free(h);
}

/* A numeric variable's value, or def when unset, empty or not a number. */
static long num_var(sh_shell *sh, const char *name, long def) {
  const char *v = sh_var_get(sh, name);
  if (!v || !*v) return def;
  char *end;
  long n = strtol(v, &end, 10);
  if (*end || n < 0) return def;
  return n;
}

/* Drops the oldest entries beyond HISTSIZE (bash's stifle_history). */
static void hist_stifle(sh_shell *sh, sh_history *h) {
  long max = num_var(sh, "HISTSIZE", HIST_MAX_DEFAULT);
  if ((long)h->lines.n <= max) return;
  size_t drop = h->lines.n - (size_t)max;
  for (size_t i = 0; i < drop; i++) free(h->lines.v[i]);
  memmove(h->lines.v, h->lines.v + drop, (h->lines.n - drop + 1) * sizeof *h->lines.v);
  h->lines.n -= drop;
  h->base += (int)drop;
  h->new_from = h->new_from > drop ? h->new_from - drop : 0;
}

static void hist_push(sh_shell *sh, const char *s, size_t n) {
  sh_history *h = hist_get(sh);
  sh_strv_push(&h->lines, sh_xstrndup(s, n));
  hist_stifle(sh, h);
}

void sh_hist_add(sh_shell *sh, const char *line, size_t n) {
  if (!sh->opt[SH_OPT_HISTORY]) return;
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
  size_t k = 0;
  while (k < n && (line[k] == ' ' || line[k] == '\t' || line[k] == '\n')) k++;
  if (k == n) return; /* blank lines are not recorded */
  hist_push(sh, line, n);
  sh->hist->current = true;
}

void sh_hist_ran(sh_shell *sh) {
  if (sh->hist) sh->hist->current = false;
}

/* HISTFILE's value, or NULL when unset or empty. */
static const char *histfile(sh_shell *sh) {
  const char *f = sh_var_get(sh, "HISTFILE");
  return f && *f ? f : NULL;
}

/* Appends the lines of `data` (from line `skip` on) to the history. */
static size_t hist_add_text(sh_shell *sh, const char *data, size_t len, size_t skip) {
  size_t line = 0;
  const char *p = data, *end = data + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    if (line >= skip && e > p) hist_push(sh, p, (size_t)(e - p));
    line++;
    p = nl ? nl + 1 : end;
  }
  return line;
}

/* Reads HISTFILE (all of it, or the lines after those read before). */
static int hist_read_file(sh_shell *sh, bool only_new, bool quiet) {
  const char *f = histfile(sh);
  if (!f) return 1;
  void *data;
  size_t len;
  int r = store_path_read_file(sh->sess->st, sh->cwd, f, &data, &len);
  if (r < 0) {
    if (!quiet) sh_error(sh, "history: %s: %s", f, cmd_strerror(r));
    return 1;
  }
  sh_history *h = hist_get(sh);
  size_t n = hist_add_text(sh, data, len, only_new ? h->file_lines : 0);
  h->file_lines = n;
  h->new_from = h->lines.n;
  free(data);
  return 0;
}

/* Writes entries [from, n) to HISTFILE (appending or replacing it). */
static int hist_write_file(sh_shell *sh, size_t from, bool append) {
  const char *f = histfile(sh);
  if (!f) return 1;
  sh_history *h = hist_get(sh);
  sh_buf b = {0};
  for (size_t i = from; i < h->lines.n; i++) {
    sh_buf_adds(&b, h->lines.v[i]);
    sh_buf_addc(&b, '\n');
  }
  int r = store_path_write_file(sh->sess->st, sh->cwd, f, b.data ? b.data : "", b.len, 0600,
                                append ? STORE_WRITE_APPEND : 0);
  sh_buf_free(&b);
  if (r < 0) {
    sh_error(sh, "history: %s: %s", f, cmd_strerror(r));
    return 1;
  }
  h->new_from = h->lines.n;
  return 0;
}

/* Keeps the last HISTFILESIZE lines of HISTFILE. */
static void hist_truncate_file(sh_shell *sh) {
  const char *f = histfile(sh);
  const char *v = sh_var_get(sh, "HISTFILESIZE");
  if (!f || !v || !*v) return;
  char *end;
  long max = strtol(v, &end, 10);
  if (*end || max < 0) return;
  void *data;
  size_t len;
  if (store_path_read_file(sh->sess->st, sh->cwd, f, &data, &len) < 0) return;
  const char *d = data;
  size_t lines = 0;
  for (size_t i = 0; i < len; i++)
    if (d[i] == '\n') lines++;
  if (len && d[len - 1] != '\n') lines++;
  if ((long)lines > max) {
    size_t skip = lines - (size_t)max, i = 0;
    while (skip && i < len)
      if (d[i++] == '\n') skip--;
    store_path_write_file(sh->sess->st, sh->cwd, f, d + i, len - i, 0600, 0);
  }
  free(data);
}

void sh_hist_var_changed(sh_shell *sh, const char *name) {
  if (!strcmp(name, "HISTSIZE")) {
    if (sh->hist) hist_stifle(sh, sh->hist);
  } else if (!strcmp(name, "HISTFILESIZE")) {
    hist_truncate_file(sh);
  }
}

void sh_hist_load(sh_shell *sh) {
  hist_read_file(sh, false, true);
}

void sh_hist_save(sh_shell *sh) {
  if (!sh->hist || !histfile(sh) || !sh->opt[SH_OPT_HISTORY]) return;
  sh_history *h = sh->hist;
  if (h->new_from >= h->lines.n) return;
  /* bash appends the new lines when histappend is set or when they fit in
   * the list; otherwise it rewrites the file from the list */
  long max = num_var(sh, "HISTSIZE", HIST_MAX_DEFAULT);
  bool append = sh->opt[SH_SHOPT_HISTAPPEND] || (long)(h->lines.n - h->new_from) < max;
  hist_write_file(sh, append ? h->new_from : 0, append);
  hist_truncate_file(sh);
}

/* The number the next history entry gets (the prompt's \!). */
int sh_history_number(sh_shell *sh) {
  if (!sh->hist) return 1;
  return sh->hist->base + (int)sh->hist->lines.n - (sh->hist->current ? 1 : 0);
}

/* ---- history ------------------------------------------------------------------------------ */

static bool parse_long(const char *s, long *out) {
  if (!*s) return false;
  char *end;
  errno = 0;
  long n = strtol(s, &end, 10);
  if (*end || errno) return false;
  *out = n;
  return true;
}

/* history -d: an entry number (negative: from the end) to an index, or -1. */
static long hist_pos(sh_history *h, long n) {
  long len = (long)h->lines.n;
  long i = n < 0 ? len + n : n - h->base;
  return i >= 0 && i < len ? i : -1;
}

static int hist_delete(sh_shell *sh, const char *arg) {
  sh_history *h = hist_get(sh);
  long a, b;
  const char *dash = arg[0] == '-' ? strchr(arg + 1, '-') : strchr(arg, '-');
  long ia, ib;
  if (dash) {
    char *first = sh_xstrndup(arg, (size_t)(dash - arg));
    bool ok = parse_long(first, &a) && parse_long(dash + 1, &b);
    free(first);
    if (!ok) {
      sh_error(sh, "history: %s: history position out of range", arg);
      return 1;
    }
    ia = hist_pos(h, a);
    ib = hist_pos(h, b);
    if (ia < 0 || ib < 0 || ia > ib) {
      sh_error(sh, "history: %s: history position out of range", arg);
      return 1;
    }
  } else {
    if (!parse_long(arg, &a) || (ia = hist_pos(h, a)) < 0) {
      sh_error(sh, "history: %s: history position out of range", arg);
      return 1;
    }
    ib = ia;
  }
  for (long i = ia; i <= ib; i++) free(h->lines.v[i]);
  size_t cnt = (size_t)(ib - ia + 1);
  memmove(h->lines.v + ia, h->lines.v + ib + 1, (h->lines.n - (size_t)ib) * sizeof *h->lines.v);
  h->lines.n -= cnt;
  if (h->new_from > (size_t)ia) h->new_from = h->new_from > (size_t)ib ? h->new_from - cnt : (size_t)ia;
  return 0;
}

int sh_bi_history(sh_shell *sh, int argc, char **argv) {
  char action = 0;
  const char *del = NULL;
  sh_bi_getopt g = SH_BI_GETOPT("history", "#canrwpsd:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    if (c == 'd') del = g.arg;
    else action = (char)c;
  }
  if (c < 0) return 2;
  int i = g.i;
  if (del) return hist_delete(sh, del);
  sh_history *h = hist_get(sh);
  switch (action) {
  case 'c':
    for (size_t k = 0; k < h->lines.n; k++) free(h->lines.v[k]);
    h->lines.n = 0;
    h->base = 1;
    h->new_from = 0;
    h->current = false;
    return 0;
  case 's': {
    /* replaces the `history -s` entry itself with the arguments */
    sh_buf b = {0};
    for (int k = i; k < argc; k++) {
      if (k > i) sh_buf_addc(&b, ' ');
      sh_buf_adds(&b, argv[k]);
    }
    if (h->current && h->lines.n) {
      free(h->lines.v[--h->lines.n]);
      h->lines.v[h->lines.n] = NULL;
    }
    if (b.len) hist_push(sh, b.data, b.len);
    sh_buf_free(&b);
    return 0;
  }
  case 'p':
    for (int k = i; k < argc; k++) sh_printf_fd(sh, 1, "%s\n", argv[k]);
    return 0;
  case 'a': case 'n': case 'r': case 'w': {
    char *saved = NULL;
    if (i < argc) {
      /* a file name argument stands in for HISTFILE */
      const char *cur = sh_var_get(sh, "HISTFILE");
      saved = sh_xstrdup(cur ? cur : "");
      sh_var_set(sh, "HISTFILE", argv[i], SH_SET_FORCE);
    }
    int st;
    if (action == 'a') st = hist_write_file(sh, h->new_from, true);
    else if (action == 'w') st = hist_write_file(sh, 0, false);
    else st = hist_read_file(sh, action == 'n', false);
    if (action == 'a' || action == 'w') hist_truncate_file(sh);
    if (saved) {
      if (*saved) sh_var_set(sh, "HISTFILE", saved, SH_SET_FORCE);
      else sh_var_unset(sh, "HISTFILE", false);
      free(saved);
    }
    return st;
  }
  default:
    break;
  }
  long count = (long)h->lines.n;
  if (i < argc) {
    if (i + 1 < argc) {
      sh_error(sh, "history: too many arguments");
      return 1;
    }
    if (!parse_long(argv[i], &count) || count < 0) {
      sh_error(sh, "history: %s: numeric argument required", argv[i]);
      return 1;
    }
  }
  size_t from = count < (long)h->lines.n ? h->lines.n - (size_t)count : 0;
  sh_buf b = {0};
  for (size_t k = from; k < h->lines.n; k++)
    sh_buf_addf(&b, "%5d  %s\n", h->base + (int)k, h->lines.v[k]);
  if (b.len) sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
  return 0;
}

/* ---- fc --------------------------------------------------------------------------------------- */

/* An fc history specification to an index into the list (of `n` entries
 * before the fc command itself, which is number `cur`). */
static long fc_spec(sh_history *h, const char *s, long n, long cur) {
  long v;
  if (parse_long(s, &v)) {
    long num = v < 0 ? cur + v : v;
    long i = num - h->base;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return i;
  }
  /* the most recent command starting with s */
  size_t l = strlen(s);
  for (long i = n - 1; i >= 0; i--)
    if (!strncmp(h->lines.v[i], s, l)) return i;
  return -1;
}

int sh_bi_fc(sh_shell *sh, int argc, char **argv) {
  sh_bi_getopt g = SH_BI_GETOPT("fc", "#lnrse:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {} /* -e EDITOR: fc never edits here */
  if (c < 0) return 2;
  bool list = sh_bi_getopt_given(&g, 'l'), nonum = sh_bi_getopt_given(&g, 'n');
  bool rev = sh_bi_getopt_given(&g, 'r'), subst = sh_bi_getopt_given(&g, 's');
  int i = g.i;
  sh_history *h = hist_get(sh);
  long n = (long)h->lines.n;
  if (h->current && n > 0) n--; /* the fc command itself */
  long cur = h->base + n;       /* its number */
  if (subst || !list) {
    /* fc -s [pat=rep] [command]: re-run a command (the editor form runs it too) */
    const char *pat = NULL;
    if (i < argc && strchr(argv[i], '=')) pat = argv[i++];
    long k = n - 1;
    if (i < argc) k = fc_spec(h, argv[i], n, cur);
    if (n <= 0 || k < 0) {
      sh_error(sh, "fc: no command found");
      return 1;
    }
    char *cmd = sh_xstrdup(h->lines.v[k]);
    if (pat) {
      const char *eq = strchr(pat, '=');
      char *old = sh_xstrndup(pat, (size_t)(eq - pat));
      char *at = *old ? strstr(cmd, old) : NULL;
      if (at) {
        char *r = sh_xasprintf("%.*s%s%s", (int)(at - cmd), cmd, eq + 1, at + strlen(old));
        free(cmd);
        cmd = r;
      }
      free(old);
    }
    if (h->current && h->lines.n) {
      free(h->lines.v[h->lines.n - 1]);
      h->lines.v[h->lines.n - 1] = sh_xstrdup(cmd);
    }
    sh_printf_fd(sh, 2, "%s\n", cmd);
    int st = sh_eval_string(sh, cmd, strlen(cmd), "fc", sh->lineno);
    free(cmd);
    return st;
  }
  if (n <= 0) return 0;
  long first, last;
  if (i < argc) {
    first = fc_spec(h, argv[i], n, cur);
    last = i + 1 < argc ? fc_spec(h, argv[i + 1], n, cur) : n - 1;
    if (first < 0 || last < 0) {
      sh_error(sh, "fc: history specification out of range");
      return 1;
    }
  } else {
    last = n - 1;
    first = n > 16 ? n - 16 : 0;
  }
  if (first > last) {
    long t = first;
    first = last;
    last = t;
    rev = !rev;
  }
  sh_buf b = {0};
  for (long k = 0; k <= last - first; k++) {
    long idx = rev ? last - k : first + k;
    if (nonum) sh_buf_addf(&b, "\t %s\n", h->lines.v[idx]);
    else sh_buf_addf(&b, "%ld\t %s\n", h->base + idx, h->lines.v[idx]);
  }
  if (b.len) sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
  return 0;
}

/* ---- the read-eval loop ------------------------------------------------------------------------ */

static void prompt(sh_shell *sh, const char *var) {
  const char *ps = sh_var_get(sh, var);
  if (!ps || !*ps) return;
  int saved = sh->status;
  char *p = sh_expand_prompt(sh, ps);
  sh_write_str(sh, 2, p);
  free(p);
  sh->status = saved;
  if (sh->flow == SH_FLOW_EXIT && sh->fatal) {
    sh->flow = SH_FLOW_NONE;
    sh->fatal = 0;
  }
}

/* PROMPT_COMMAND (a string, or an array of commands as in bash 5.1) sees $?
 * of the last command; its errors are reported and forgotten. */
static void prompt_command(sh_shell *sh) {
  sh_var *v = sh_var_find(sh, "PROMPT_COMMAND");
  if (!v || !sh_var_isset(v)) return;
  sh_strv cmds = {0};
  sh_var_values(sh, v, &cmds);
  int saved = sh->status;
  for (size_t i = 0; i < cmds.n && sh->flow == SH_FLOW_NONE; i++) {
    if (!*cmds.v[i]) continue;
    sh_eval_string(sh, cmds.v[i], strlen(cmds.v[i]), "PROMPT_COMMAND", sh->lineno);
    if (sh->flow == SH_FLOW_EXIT && sh->fatal) {
      sh->flow = SH_FLOW_NONE;
      sh->fatal = 0;
    }
  }
  sh_strv_free(&cmds);
  if (sh->flow == SH_FLOW_NONE) sh->status = saved;
}

/* Reads one line (with its newline) from fd 0 into b; false at end of input. */
static bool read_line(sh_shell *sh, sh_buf *b) {
  size_t start = b->len;
  for (;;) {
    char c;
    ssize_t r = sh_fd_read(sh, 0, &c, 1);
    if (r <= 0) return b->len > start;
    sh_buf_addc(b, c);
    if (c == '\n') return true;
    if (b->len - start > HIST_LINE_MAX) return true;
  }
}

int sh_interactive_loop(sh_shell *sh) {
  sh_buf in = {0};
  int status = 0, line = 1;
  bool more = true;
  while (more && sh->flow == SH_FLOW_NONE) {
    prompt_command(sh);
    if (sh->flow != SH_FLOW_NONE) break;
    prompt(sh, "PS1");
    sh_buf_clear(&in);
    int first_line = line;
    for (;;) {
      if (!read_line(sh, &in)) {
        more = false;
        break;
      }
      line++;
      if (sh_parse_check(in.data, in.len) != 0) break;
      prompt(sh, "PS2");
    }
    if (!in.len) break;
    if (sh_poll(sh)) break;
    sh_hist_add(sh, in.data, in.len);
    status = sh_eval_string(sh, in.data, in.len, sh->arg0, first_line);
    sh_hist_ran(sh);
    if (sh->flow == SH_FLOW_RETURN || sh->flow == SH_FLOW_BREAK || sh->flow == SH_FLOW_CONTINUE)
      sh->flow = SH_FLOW_NONE;
  }
  if (sh->flow == SH_FLOW_NONE) sh_write_str(sh, 2, "exit\n");
  sh_buf_free(&in);
  return status;
}
