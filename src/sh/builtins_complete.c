/*
 * builtins_complete.c - programmable completion as scripts see it: compgen
 * (generate the candidates for a word), complete (record a command's
 * completion spec) and compopt (change the options of the completion running).
 *
 * The sandbox has no line editor, so completion is never triggered by a key:
 * what matters is compgen's output (bash-completion scripts and agents call
 * it directly) and complete -p round-tripping. Candidates come in bash's
 * order: the simple name lists of -A actions (alias ... variable, each
 * sorted), then directories and files, then -G, -W and -F results; -X, -P
 * and -S apply to all of them. Specs live in the shell (sh_shell.compspecs),
 * copied into subshells like the other shell state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/glob.h"
#include "sh/parse.h"
#include "sh/vars.h"

/* Actions, in the order bash generates them. */
enum {
  A_ALIAS, A_ARRAYVAR, A_BINDING, A_BUILTIN, A_COMMAND, A_DISABLED, A_ENABLED, A_EXPORT,
  A_FUNCTION, A_GROUP, A_HELPTOPIC, A_HOSTNAME, A_JOB, A_KEYWORD, A_RUNNING, A_SERVICE,
  A_SETOPT, A_SHOPT, A_SIGNAL, A_STOPPED, A_USER, A_VARIABLE, A_DIRECTORY, A_FILE, A_COUNT
};

static const char *const action_names[A_COUNT] = {
    "alias", "arrayvar", "binding", "builtin", "command", "disabled", "enabled", "export",
    "function", "group", "helptopic", "hostname", "job", "keyword", "running", "service",
    "setopt", "shopt", "signal", "stopped", "user", "variable", "directory", "file"};

/* complete -o options */
static const char *const copt_names[] = {"bashdefault", "default", "dirnames", "filenames",
                                         "noquote", "nosort", "nospace", "plusdirs", NULL};

typedef struct compspec {
  uint32_t actions;  /* 1 << A_* */
  uint32_t opts;     /* 1 << index in copt_names */
  char *glob;        /* -G */
  char *words;       /* -W */
  char *func;        /* -F */
  char *cmd;         /* -C */
  char *filter;      /* -X */
  char *prefix;      /* -P */
  char *suffix;      /* -S */
} compspec;

void sh_compspec_free(void *v) {
  compspec *c = v;
  if (!c) return;
  free(c->glob);
  free(c->words);
  free(c->func);
  free(c->cmd);
  free(c->filter);
  free(c->prefix);
  free(c->suffix);
  free(c);
}

static char *dup_or_null(const char *s) { return s ? sh_xstrdup(s) : NULL; }

void *sh_compspec_copy(const void *v) {
  const compspec *c = v;
  compspec *n = sh_xcalloc(1, sizeof *n);
  n->actions = c->actions;
  n->opts = c->opts;
  n->glob = dup_or_null(c->glob);
  n->words = dup_or_null(c->words);
  n->func = dup_or_null(c->func);
  n->cmd = dup_or_null(c->cmd);
  n->filter = dup_or_null(c->filter);
  n->prefix = dup_or_null(c->prefix);
  n->suffix = dup_or_null(c->suffix);
  return n;
}

static const char *const keyword_list[] = {"!", "[[", "]]", "case", "coproc", "do", "done", "elif",
                                           "else", "esac", "fi", "for", "function", "if", "in",
                                           "select", "then", "time", "until", "while", "{", "}", NULL};

static const char *const signal_list[] = {
    "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
    "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD",
    "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ",
    "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS", NULL};

/* ---- option parsing (shared by compgen and complete) ------------------------------------ */

typedef struct compargs {
  compspec spec;
  bool print, remove, dflt, empty, initial;
  int first_name;   /* index of the first non-option argument */
} compargs;

static int action_index(const char *name) {
  for (int i = 0; i < A_COUNT; i++)
    if (!strcmp(action_names[i], name)) return i;
  return -1;
}

/* The action an option letter stands for (-a is -A alias, ...), or -1. */
static int action_of_letter(char letter) {
  static const struct {
    char letter; /* complete's option */
    int action;  /* A_* */
  } letters[] = {{'a', A_ALIAS},   {'b', A_BUILTIN}, {'c', A_COMMAND}, {'d', A_DIRECTORY},
                 {'e', A_EXPORT},  {'f', A_FILE},    {'g', A_GROUP},   {'j', A_JOB},
                 {'k', A_KEYWORD}, {'s', A_SERVICE}, {'u', A_USER},    {'v', A_VARIABLE}};
  for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
    if (letters[i].letter == letter) return letters[i].action;
  return -1;
}

static int copt_index(const char *name) {
  for (int i = 0; copt_names[i]; i++)
    if (!strcmp(copt_names[i], name)) return i;
  return -1;
}

static void set_str(char **dst, const char *v) {
  free(*dst);
  *dst = sh_xstrdup(v);
}

/* Returns 0, or 2 after a usage message (use parse_compargs). */
static int read_compargs(sh_shell *sh, const char *bname, int argc, char **argv, compargs *a,
                         bool is_complete) {
  memset(a, 0, sizeof *a);
  int i = 1;
  for (; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "--")) {
      i++;
      break;
    }
    if ((s[0] != '-' && s[0] != '+') || !s[1]) break;
    bool plus = s[0] == '+';
    for (const char *c = s + 1; *c; c++) {
      const char *arg = NULL;
      if (strchr("oAGWFCXPS", *c)) {
        if (c[1]) arg = c + 1;
        else if (i + 1 < argc) arg = argv[++i];
        else {
          sh_error(sh, "%s: -%c: option requires an argument", bname, *c);
          return 2;
        }
      }
      int action = action_of_letter(*c);
      if (action >= 0) {
        a->spec.actions |= 1u << action;
        continue;
      }
      switch (*c) {
      case 'p': a->print = true; break;
      case 'r': a->remove = true; break;
      case 'D': a->dflt = true; break;
      case 'E': a->empty = true; break;
      case 'I': a->initial = true; break;
      case 'o': {
        int k = copt_index(arg);
        if (k < 0) {
          sh_error(sh, "%s: %s: invalid option name", bname, arg);
          return 2;
        }
        if (plus) a->spec.opts &= ~(1u << k);
        else a->spec.opts |= 1u << k;
        break;
      }
      case 'A': {
        int k = action_index(arg);
        if (k < 0) {
          sh_error(sh, "%s: %s: invalid action name", bname, arg);
          return 2;
        }
        a->spec.actions |= 1u << k;
        break;
      }
      case 'G': set_str(&a->spec.glob, arg); break;
      case 'W': set_str(&a->spec.words, arg); break;
      case 'F': set_str(&a->spec.func, arg); break;
      case 'C': set_str(&a->spec.cmd, arg); break;
      case 'X': set_str(&a->spec.filter, arg); break;
      case 'P': set_str(&a->spec.prefix, arg); break;
      case 'S': set_str(&a->spec.suffix, arg); break;
      default:
        sh_error(sh, "%s: -%c: invalid option", bname, *c);
        sh_bi_usage(sh, is_complete ? "complete" : "compgen");
        return 2;
      }
      if (arg) break;
    }
  }
  a->first_name = i;
  return 0;
}

static void compargs_free(compargs *a) {
  free(a->spec.glob);
  free(a->spec.words);
  free(a->spec.func);
  free(a->spec.cmd);
  free(a->spec.filter);
  free(a->spec.prefix);
  free(a->spec.suffix);
}

/* complete's and compgen's arguments into a. Returns 0 (free a with
 * compargs_free), or 2 after a usage message (nothing to free then). */
static int parse_compargs(sh_shell *sh, const char *bname, int argc, char **argv, compargs *a,
                          bool is_complete) {
  int r = read_compargs(sh, bname, argc, argv, a, is_complete);
  if (r) compargs_free(a);
  return r;
}

/* ---- candidate generation ------------------------------------------------------------------ */

static bool has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* The keys of map m (sorted) that start with word. */
static void add_map_matches(sh_strv *out, const sh_map *m, const char *word) {
  size_t n;
  const char **names = sh_map_keys(m, &n);
  for (size_t i = 0; i < n; i++)
    if (has_prefix(names[i], word)) sh_strv_pushdup(out, names[i]);
  free(names);
}

/* The names of a NULL-terminated list that start with word. */
static void add_list_matches(sh_strv *out, const char *const *list, const char *word) {
  for (; *list; list++)
    if (has_prefix(*list, word)) sh_strv_pushdup(out, *list);
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Files (or directories) completing `word`: the entries of its directory
 * part whose names start with its last component. Hidden ones only when the
 * component starts with '.'. */
static void gen_files(sh_shell *sh, const char *word, bool dirs_only, sh_strv *out) {
  const char *slash = strrchr(word, '/');
  char *dir = slash ? sh_xstrndup(word, (size_t)(slash - word) + 1) : sh_xstrdup("");
  const char *base = slash ? slash + 1 : word;
  sh_strv names = {0};
  sh_glob_list_dir(sh, *dir ? dir : ".", &names);
  qsort(names.v, names.n, sizeof *names.v, cmp_strp);
  for (size_t i = 0; i < names.n; i++) {
    const char *nm = names.v[i];
    if (!has_prefix(nm, base)) continue;
    if (nm[0] == '.' && base[0] != '.') continue;
    char *full = sh_xasprintf("%s%s", dir, nm);
    if (dirs_only) {
      store_stat st;
      if (store_path_stat(sh->sess->st, sh->cwd, full, &st) != 0 || !S_ISDIR(st.mode)) {
        free(full);
        continue;
      }
    }
    sh_strv_push(out, full);
  }
  sh_strv_free(&names);
  free(dir);
}

static void gen_command(sh_shell *sh, const char *word, sh_strv *out) {
  add_map_matches(out, &sh->aliases, word);
  add_list_matches(out, keyword_list, word);
  add_map_matches(out, &sh->funcs, word);
  for (size_t i = 0; i < sh_builtin_count; i++) {
    const sh_builtin *b = &sh_builtin_table[i];
    if ((b->flags & SH_BI_TESTMODE) && !sh->sess->test_mode) continue;
    if (has_prefix(b->name, word)) sh_strv_pushdup(out, b->name);
  }
  /* the programs: the command table (and scripts on PATH are files) */
  for (const cmd_entry *e = cmd_table; e->name; e++)
    if (has_prefix(e->name, word) && !sh_builtin_find(sh, e->name)) sh_strv_pushdup(out, e->name);
}

static void gen_action(sh_shell *sh, int act, const char *word, sh_strv *out) {
  size_t n;
  switch (act) {
  case A_ALIAS:
    add_map_matches(out, &sh->aliases, word);
    break;
  case A_ARRAYVAR:
  case A_VARIABLE:
  case A_EXPORT: {
    const char **k = sh_vars_names(sh, &n);
    for (size_t i = 0; i < n; i++) {
      if (!has_prefix(k[i], word)) continue;
      sh_var *v = sh_var_find_noref(sh, k[i]);
      if (!v) continue;
      if (act == A_EXPORT && !(v->flags & SH_V_EXPORT)) continue;
      if (act == A_ARRAYVAR && !(v->flags & (SH_V_ARRAY | SH_V_ASSOC))) continue;
      if (i && !strcmp(k[i], k[i - 1])) continue; /* a local and the global it hides */
      sh_strv_pushdup(out, k[i]);
    }
    free(k);
    break;
  }
  case A_BUILTIN:
  case A_ENABLED:
  case A_HELPTOPIC:
    for (size_t i = 0; i < sh_builtin_count; i++) {
      const sh_builtin *b = &sh_builtin_table[i];
      if (b->flags & SH_BI_TESTMODE) continue;
      if (has_prefix(b->name, word)) sh_strv_pushdup(out, b->name);
    }
    break;
  case A_COMMAND:
    gen_command(sh, word, out);
    break;
  case A_FUNCTION:
    add_map_matches(out, &sh->funcs, word);
    break;
  case A_KEYWORD:
    add_list_matches(out, keyword_list, word);
    break;
  case A_SETOPT:
    for (int i = 0; i < SH_SET_COUNT; i++)
      if (has_prefix(sh_optinfo_table[i].name, word)) sh_strv_pushdup(out, sh_optinfo_table[i].name);
    break;
  case A_SHOPT:
    for (int i = SH_SHOPT_FIRST; i < SH_OPT_COUNT; i++)
      if (sh_optinfo_table[i].name && has_prefix(sh_optinfo_table[i].name, word))
        sh_strv_pushdup(out, sh_optinfo_table[i].name);
    break;
  case A_SIGNAL:
    add_list_matches(out, signal_list, word);
    break;
  case A_USER:
    if (has_prefix("root", word)) sh_strv_pushdup(out, "root");
    break;
  case A_GROUP:
    if (has_prefix("root", word)) sh_strv_pushdup(out, "root");
    break;
  case A_HOSTNAME:
    if (has_prefix("localhost", word)) sh_strv_pushdup(out, "localhost");
    break;
  case A_DIRECTORY:
    gen_files(sh, word, true, out);
    break;
  case A_FILE:
    gen_files(sh, word, false, out);
    break;
  default:
    break; /* bindings, jobs by name, services: none in the sandbox */
  }
}

/* -W: the list split at IFS outside quotes and substitutions, then each
 * piece expanded (a word may expand to several). */
static int gen_wordlist(sh_shell *sh, const char *text, const char *word, sh_strv *out) {
  const char *ifs = sh_var_get(sh, "IFS");
  sh_var *iv = sh_var_find(sh, "IFS");
  if (!iv || !sh_var_isset(iv)) ifs = " \t\n";
  if (!ifs) ifs = "";
  sh_strv raw = {0};
  sh_buf cur = {0};
  bool have = false;
  int depth = 0;
  char q = 0;
  for (const char *p = text; *p; p++) {
    char c = *p;
    if (q) {
      if (c == '\\' && q == '"' && p[1]) {
        sh_buf_addc(&cur, c);
        sh_buf_addc(&cur, *++p);
        continue;
      }
      if (c == q) q = 0;
      sh_buf_addc(&cur, c);
      continue;
    }
    if (c == '\\' && p[1]) {
      sh_buf_addc(&cur, c);
      sh_buf_addc(&cur, *++p);
      have = true;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      q = c;
      sh_buf_addc(&cur, c);
      have = true;
      continue;
    }
    if (c == '$' && (p[1] == '(' || p[1] == '{')) {
      depth++;
      sh_buf_addc(&cur, c);
      sh_buf_addc(&cur, *++p);
      have = true;
      continue;
    }
    if (depth > 0 && (c == ')' || c == '}')) depth--;
    if (depth == 0 && strchr(ifs, c) && c) {
      if (have) sh_strv_push(&raw, sh_buf_steal(&cur));
      have = false;
      continue;
    }
    sh_buf_addc(&cur, c);
    have = true;
  }
  if (have) sh_strv_push(&raw, sh_buf_steal(&cur));
  sh_buf_free(&cur);
  int st = 0;
  for (size_t i = 0; i < raw.n && !st; i++) {
    sh_arena *a = sh_arena_new();
    char *err = NULL;
    sh_word *w = sh_parse_word_string(a, raw.v[i], strlen(raw.v[i]), sh->lineno, &err);
    if (!w) {
      sh_error(sh, "%s", err ? err : "syntax error");
      free(err);
      st = 1;
    } else {
      sh_strv ex = {0};
      if (sh_expand_words(sh, &w, 1, &ex)) st = 1;
      for (size_t k = 0; k < ex.n; k++)
        if (has_prefix(ex.v[k], word)) sh_strv_pushdup(out, ex.v[k]);
      sh_strv_free(&ex);
    }
    sh_arena_unref(a);
  }
  sh_strv_free(&raw);
  if (sh->flow == SH_FLOW_EXIT && sh->fatal == SH_FATAL_DISCARD) {
    /* an expansion error fails compgen, not the script */
    sh->flow = SH_FLOW_NONE;
    sh->fatal = 0;
    st = 1;
  }
  return st;
}

static _Thread_local bool in_completion; /* a -F function is running (compopt works) */

/* -F: the function runs with $1 the command, $2 the word, $3 the previous
 * word and COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT set; its COMPREPLY
 * (an array or a scalar) are the candidates. */
static int gen_function(sh_shell *sh, const char *fname, const char *cmdname, const char *word,
                        sh_strv *out) {
  sh_func *f = sh_func_get(sh, fname);
  if (!f) {
    sh_error(sh, "compgen: %s: function not found", fname);
    return 1;
  }
  sh_var *w = sh_var_get_for_write(sh, "COMP_WORDS", 0, &(int){0});
  if (w) {
    sh_var_clear_value(w);
    sh_var_make_array(w);
    w->flags &= ~SH_V_UNSET;
  }
  sh_var_set(sh, "COMP_CWORD", "-1", SH_SET_FORCE);
  sh_var_set(sh, "COMP_LINE", "", SH_SET_FORCE);
  sh_var_set(sh, "COMP_POINT", "0", SH_SET_FORCE);
  char *args[5] = {(char *)fname, (char *)cmdname, (char *)word, (char *)"", NULL};
  bool saved = in_completion;
  in_completion = true;
  int st = sh_call_function(sh, f, 4, args);
  in_completion = saved;
  if (sh->flow == SH_FLOW_EXIT && sh->fatal == SH_FATAL_DISCARD) {
    sh->flow = SH_FLOW_NONE;
    sh->fatal = 0;
    return 1;
  }
  (void)st;
  sh_var *r = sh_var_find(sh, "COMPREPLY");
  if (r && sh_var_isset(r)) {
    sh_strv vals = {0};
    sh_var_values(sh, r, &vals);
    for (size_t i = 0; i < vals.n; i++) sh_strv_pushdup(out, vals.v[i]);
    sh_strv_free(&vals);
  }
  return 0;
}

/* -C: the command's output lines. */
static int gen_command_output(sh_shell *sh, const char *cmd, const char *cmdname, const char *word,
                              sh_strv *out) {
  char *qw = sh_quote_single(word);
  char *script = sh_xasprintf("%s %s %s ''", cmd, cmdname, qw);
  free(qw);
  /* run it in a command substitution */
  char *sub = sh_xasprintf("$(%s)", script);
  sh_arena *a2 = sh_arena_new();
  char *err = NULL;
  sh_word *sw = sh_parse_word_string(a2, sub, strlen(sub), sh->lineno, &err);
  int st = 0;
  if (sw) {
    char *o = sh_expand_string(sh, sw, 0);
    if (o) {
      for (char *line = o, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) {
          sh_strv_pushdup(out, line);
          break;
        }
        *nl = 0;
        sh_strv_pushdup(out, line);
      }
      free(o);
    } else {
      st = 1;
    }
  } else {
    st = 1;
  }
  free(err);
  sh_arena_unref(a2);
  free(sub);
  free(script);
  return st;
}

/* All candidates of a spec for `word`, filtered and decorated. */
static int generate(sh_shell *sh, const compspec *c, const char *cmdname, const char *word,
                    sh_strv *out) {
  int st = 0;
  for (int act = 0; act < A_COUNT; act++)
    if (c->actions & (1u << act)) gen_action(sh, act, word, out);
  if (c->opts & (1u << 2)) { /* dirnames: directories when nothing else */
    if (!out->n) gen_files(sh, word, true, out);
  }
  if (c->opts & (1u << 7)) gen_files(sh, word, true, out); /* plusdirs */
  if (c->glob) {
    sh_glob(sh, c->glob, out);
  }
  if (c->words && gen_wordlist(sh, c->words, word, out)) st = 1;
  if (c->func && gen_function(sh, c->func, cmdname, word, out)) st = 1;
  if (c->cmd && gen_command_output(sh, c->cmd, cmdname, word, out)) st = 1;
  if (c->opts & (1u << 1)) { /* default: files when nothing else */
    if (!out->n) gen_files(sh, word, false, out);
  }
  if (c->filter) {
    const char *pat = c->filter;
    bool neg = pat[0] == '!';
    if (neg) pat++;
    int fl = sh->opt[SH_SHOPT_EXTGLOB] ? SH_FNM_EXTGLOB : 0;
    size_t k = 0;
    for (size_t i = 0; i < out->n; i++) {
      bool m = sh_fnmatch(pat, strlen(pat), out->v[i], strlen(out->v[i]), fl);
      if (m != neg) free(out->v[i]);
      else out->v[k++] = out->v[i];
    }
    out->n = k;
    if (out->v) out->v[k] = NULL;
  }
  if (c->prefix || c->suffix) {
    for (size_t i = 0; i < out->n; i++) {
      char *d = sh_xasprintf("%s%s%s", c->prefix ? c->prefix : "", out->v[i], c->suffix ? c->suffix : "");
      free(out->v[i]);
      out->v[i] = d;
    }
  }
  return st;
}

int sh_bi_compgen(sh_shell *sh, int argc, char **argv) {
  compargs a;
  int r = parse_compargs(sh, "compgen", argc, argv, &a, false);
  if (r) return r;
  const char *word = a.first_name < argc ? argv[a.first_name] : "";
  sh_strv out = {0};
  int st = generate(sh, &a.spec, "compgen", word, &out);
  if (st) sh_strv_free(&out); /* a failed expansion shows nothing */
  sh_buf b = {0};
  for (size_t i = 0; i < out.n; i++) {
    sh_buf_adds(&b, out.v[i]);
    sh_buf_addc(&b, '\n');
  }
  if (b.len) sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
  if (!st && !out.n) st = 1;
  sh_strv_free(&out);
  compargs_free(&a);
  return st;
}

static void print_spec(sh_shell *sh, const char *name, const compspec *c) {
  sh_buf b = {0};
  sh_buf_adds(&b, "complete");
  for (int i = 0; copt_names[i]; i++)
    if (c->opts & (1u << i)) sh_buf_addf(&b, " -o %s", copt_names[i]);
  for (int i = 0; i < A_COUNT; i++)
    if (c->actions & (1u << i)) sh_buf_addf(&b, " -A %s", action_names[i]);
  struct { const char *flag; const char *v; } strs[] = {
      {"-G", c->glob}, {"-W", c->words}, {"-X", c->filter}, {"-P", c->prefix},
      {"-S", c->suffix}, {"-F", c->func}, {"-C", c->cmd}};
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
    if (!strs[i].v) continue;
    bool quote = strs[i].flag[1] == 'W' || strs[i].flag[1] == 'G' || strs[i].flag[1] == 'X' ||
                 strs[i].flag[1] == 'P' || strs[i].flag[1] == 'S' || strs[i].flag[1] == 'C';
    if (quote) {
      char *q = sh_quote_single(strs[i].v);
      sh_buf_addf(&b, " %s %s", strs[i].flag, q);
      free(q);
    } else {
      sh_buf_addf(&b, " %s %s", strs[i].flag, strs[i].v);
    }
  }
  if (!strcmp(name, "-D") || !strcmp(name, "-E") || !strcmp(name, "-I")) sh_buf_addf(&b, " %s\n", name);
  else sh_buf_addf(&b, " %s\n", name);
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
}

int sh_bi_complete(sh_shell *sh, int argc, char **argv) {
  compargs a;
  int r = parse_compargs(sh, "complete", argc, argv, &a, true);
  if (r) return r;
  int st = 0;
  bool any_spec = a.spec.actions || a.spec.opts || a.spec.glob || a.spec.words || a.spec.func ||
                  a.spec.cmd || a.spec.filter || a.spec.prefix || a.spec.suffix;
  bool named = a.first_name < argc || a.dflt || a.empty || a.initial;
  if (a.print || (!any_spec && !a.remove && !named)) {
    /* print: all specs (insertion order), or the named ones */
    if (a.first_name >= argc) {
      for (size_t i = 0; i < sh->compnames.n; i++) {
        compspec *c = sh_map_get(&sh->compspecs, sh->compnames.v[i]);
        if (c) print_spec(sh, sh->compnames.v[i], c);
      }
    } else {
      for (int i = a.first_name; i < argc; i++) {
        compspec *c = sh_map_get(&sh->compspecs, argv[i]);
        if (c) print_spec(sh, argv[i], c);
        else {
          sh_error(sh, "complete: %s: no completion specification", argv[i]);
          st = 1;
        }
      }
    }
    compargs_free(&a);
    return st;
  }
  if (a.remove) {
    if (a.first_name >= argc) {
      sh_map_free(&sh->compspecs, sh_compspec_free);
      sh_strv_free(&sh->compnames);
    }
    for (int i = a.first_name; i < argc; i++) sh_compspec_free(sh_map_del(&sh->compspecs, argv[i]));
    compargs_free(&a);
    return 0;
  }
  if (!named) {
    /* options without a command name */
    sh_bi_usage(sh, "complete");
    compargs_free(&a);
    return 2;
  }
  const char *special = a.dflt ? "-D" : a.empty ? "-E" : a.initial ? "-I" : NULL;
  for (int i = special ? argc : a.first_name; i <= argc; i++) {
    const char *name = i < argc ? argv[i] : special;
    if (!name) break;
    compspec *c = sh_compspec_copy(&a.spec);
    compspec *old = sh_map_set(&sh->compspecs, name, c);
    if (old) sh_compspec_free(old);
    else sh_strv_pushdup(&sh->compnames, name);
    if (i == argc) break;
  }
  compargs_free(&a);
  return 0;
}

int sh_bi_compopt(sh_shell *sh, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if ((s[0] == '-' || s[0] == '+') && s[1] == 'o') {
      const char *name = s[2] ? s + 2 : i + 1 < argc ? argv[++i] : NULL;
      if (!name || copt_index(name) < 0) {
        sh_error(sh, "compopt: %s: invalid option name", name ? name : "");
        return 2;
      }
    } else if (s[0] == '-' && (s[1] == 'D' || s[1] == 'E' || s[1] == 'I')) {
      continue;
    } else if (s[0] == '-' && s[1]) {
      sh_error(sh, "compopt: %s: invalid option", s);
      return 2;
    }
  }
  if (!in_completion) {
    sh_error(sh, "compopt: not currently executing completion function");
    return 1;
  }
  return 0;
}
