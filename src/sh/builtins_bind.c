/*
 * builtins_bind.c - bind: readline's key bindings, kept as a table.
 *
 * There is no line editor in the sandbox (no terminal), but scripts and the
 * conformance kit use bind to list, query and change bindings, as a
 * non-interactive bash does: every call first warns that line editing is not
 * enabled, then works on readline's tables. The tables here are readline's
 * command names, its variables with their defaults, the control-key bindings
 * of the emacs keymap, and the bindings a script adds (-x commands and
 * KEYSEQ:FUNCTION), per keymap (emacs or vi), in the session: bind is global
 * state, like readline's. Bounded to SH_BIND_MAX bindings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/builtins.h"
#include "sh/sh.h"

static const char *const bind_functions[] = {"abort", "accept-line", "alias-expand-line", "arrow-key-prefix", "backward-byte", "backward-char", "backward-delete-char", "backward-kill-line", "backward-kill-word", "backward-word", "beginning-of-history", "beginning-of-line", "bracketed-paste-begin", "call-last-kbd-macro", "capitalize-word", "character-search", "character-search-backward", "clear-display", "clear-screen", "complete", "complete-command", "complete-filename", "complete-hostname", "complete-into-braces", "complete-username", "complete-variable", "copy-backward-word", "copy-forward-word", "copy-region-as-kill", "dabbrev-expand", "delete-char", "delete-char-or-list", "delete-horizontal-space", "digit-argument", "display-shell-version", "do-lowercase-version", "downcase-word", "dump-functions", "dump-macros", "dump-variables", "dynamic-complete-history", "edit-and-execute-command", "emacs-editing-mode", "end-kbd-macro", "end-of-history", "end-of-line", "exchange-point-and-mark", "fetch-history", "forward-backward-delete-char", "forward-byte", "forward-char", "forward-search-history", "forward-word", "glob-complete-word", "glob-expand-word", "glob-list-expansions", "history-and-alias-expand-line", "history-expand-line", "history-search-backward", "history-search-forward", "history-substring-search-backward", "history-substring-search-forward", "insert-comment", "insert-completions", "insert-last-argument", "kill-line", "kill-region", "kill-whole-line", "kill-word", "magic-space", "menu-complete", "menu-complete-backward", "next-history", "next-screen-line", "non-incremental-forward-search-history", "non-incremental-forward-search-history-again", "non-incremental-reverse-search-history", "non-incremental-reverse-search-history-again", "old-menu-complete", "operate-and-get-next", "overwrite-mode", "possible-command-completions", "possible-completions", "possible-filename-completions", "possible-hostname-completions", "possible-username-completions", "possible-variable-completions", "previous-history", "previous-screen-line", "print-last-kbd-macro", "quoted-insert", "re-read-init-file", "redraw-current-line", "reverse-search-history", "revert-line", "self-insert", "set-mark", "shell-backward-kill-word", "shell-backward-word", "shell-expand-line", "shell-forward-word", "shell-kill-word", "shell-transpose-words", "skip-csi-sequence", "spell-correct-word", "start-kbd-macro", "tab-insert", "tilde-expand", "transpose-chars", "transpose-words", "tty-status", "undo", "universal-argument", "unix-filename-rubout", "unix-line-discard", "unix-word-rubout", "upcase-word", "vi-append-eol", "vi-append-mode", "vi-arg-digit", "vi-bWord", "vi-back-to-indent", "vi-backward-bigword", "vi-backward-word", "vi-bword", "vi-change-case", "vi-change-char", "vi-change-to", "vi-char-search", "vi-column", "vi-complete", "vi-delete", "vi-delete-to", "vi-eWord", "vi-edit-and-execute-command", "vi-editing-mode", "vi-end-bigword", "vi-end-word", "vi-eof-maybe", "vi-eword", "vi-fWord", "vi-fetch-history", "vi-first-print", "vi-forward-bigword", "vi-forward-word", "vi-fword", "vi-goto-mark", "vi-insert-beg", "vi-insertion-mode", "vi-match", "vi-movement-mode", "vi-next-word", "vi-overstrike", "vi-overstrike-delete", "vi-prev-word", "vi-put", "vi-redo", "vi-replace", "vi-rubout", "vi-search", "vi-search-again", "vi-set-mark", "vi-subst", "vi-tilde-expand", "vi-undo", "vi-unix-word-rubout", "vi-yank-arg", "vi-yank-pop", "vi-yank-to", "yank", "yank-last-arg", "yank-nth-arg", "yank-pop", };
#define NFUNCS (sizeof bind_functions / sizeof bind_functions[0])

/* readline's variables and their defaults (bind -v) */
static const struct { const char *name, *value; } bind_vars[] = {{"bind-tty-special-chars", "on"}, {"blink-matching-paren", "off"}, {"byte-oriented", "off"}, {"colored-completion-prefix", "off"}, {"colored-stats", "off"}, {"completion-ignore-case", "off"}, {"completion-map-case", "off"}, {"convert-meta", "off"}, {"disable-completion", "off"}, {"echo-control-characters", "on"}, {"enable-active-region", "on"}, {"enable-bracketed-paste", "on"}, {"enable-keypad", "off"}, {"enable-meta-key", "on"}, {"expand-tilde", "off"}, {"history-preserve-point", "off"}, {"horizontal-scroll-mode", "off"}, {"input-meta", "on"}, {"mark-directories", "on"}, {"mark-modified-lines", "off"}, {"mark-symlinked-directories", "off"}, {"match-hidden-files", "on"}, {"menu-complete-display-prefix", "off"}, {"meta-flag", "on"}, {"output-meta", "on"}, {"page-completions", "on"}, {"prefer-visible-bell", "on"}, {"print-completions-horizontally", "off"}, {"revert-all-at-newline", "off"}, {"show-all-if-ambiguous", "off"}, {"show-all-if-unmodified", "off"}, {"show-mode-in-prompt", "off"}, {"skip-completed-text", "off"}, {"visible-stats", "off"}, {"bell-style", "audible"}, {"comment-begin", "#"}, {"completion-display-width", "-1"}, {"completion-prefix-display-length", "0"}, {"completion-query-items", "100"}, {"editing-mode", "emacs"}, {"emacs-mode-string", "@"}, {"history-size", "0"}, {"keymap", "emacs"}, {"keyseq-timeout", "500"}, {"vi-cmd-mode-string", "(cmd)"}, {"vi-ins-mode-string", "(ins)"}, };
#define NVARS (sizeof bind_vars / sizeof bind_vars[0])

/* the emacs keymap's control keys (the rest of readline's defaults are not listed) */
static const struct { const char *keys, *function; } bind_defaults[] = {{"\\C-g", "abort"}, {"\\C-j", "accept-line"}, {"\\C-m", "accept-line"}, {"\\C-b", "backward-char"}, {"\\C-h", "backward-delete-char"}, {"\\C-?", "backward-delete-char"}, {"\\C-a", "beginning-of-line"}, {"\\C-]", "character-search"}, {"\\C-l", "clear-screen"}, {"\\C-i", "complete"}, {"\\C-d", "delete-char"}, {"\\C-e", "end-of-line"}, {"\\C-f", "forward-char"}, {"\\C-s", "forward-search-history"}, {"\\C-k", "kill-line"}, {"\\C-n", "next-history"}, {"\\C-o", "operate-and-get-next"}, {"\\C-p", "previous-history"}, {"\\C-q", "quoted-insert"}, {"\\C-v", "quoted-insert"}, {"\\C-r", "reverse-search-history"}, {"\\C-@", "set-mark"}, {"\\C-t", "transpose-chars"}, {"\\C-_", "undo"}, {"\\C-u", "unix-line-discard"}, {"\\C-w", "unix-word-rubout"}, {"\\C-y", "yank"}, };
#define NDEFAULTS (sizeof bind_defaults / sizeof bind_defaults[0])

static bool is_function(const char *name) {
  for (size_t i = 0; i < NFUNCS; i++)
    if (!strcmp(bind_functions[i], name)) return true;
  return false;
}

/* A readline command name, or false after bash's message. */
static bool known_function(sh_shell *sh, const char *name) {
  if (is_function(name)) return true;
  sh_error(sh, "bind: `%s': unknown function name", name);
  return false;
}

/* The keymap named by -m: 0 emacs, 1 vi, -1 unknown. */
static int keymap_of(const char *name) {
  if (!strcmp(name, "emacs") || !strcmp(name, "emacs-standard") || !strcmp(name, "emacs-meta") ||
      !strcmp(name, "emacs-ctlx"))
    return 0;
  if (!strcmp(name, "vi") || !strcmp(name, "vi-command") || !strcmp(name, "vi-move") ||
      !strcmp(name, "vi-insert"))
    return 1;
  return -1;
}

static void bind_remove(sh_session *s, int map, const char *keys) {
  size_t k = 0;
  for (size_t i = 0; i < s->nbinds; i++) {
    sh_binding *b = &s->binds[i];
    if (b->keymap == map && !strcmp(b->keys, keys)) {
      free(b->keys);
      free(b->value);
      continue;
    }
    s->binds[k++] = *b;
  }
  s->nbinds = k;
}

static int bind_add(sh_shell *sh, int map, const char *keys, const char *value, bool command) {
  sh_session *s = sh->sess;
  bind_remove(s, map, keys);
  if (s->nbinds >= SH_BIND_MAX) {
    sh_error(sh, "bind: too many key bindings");
    return 1;
  }
  if (s->nbinds == s->capbinds) {
    s->capbinds = s->capbinds ? s->capbinds * 2 : 8;
    s->binds = sh_xrealloc(s->binds, s->capbinds * sizeof *s->binds);
  }
  sh_binding *b = &s->binds[s->nbinds++];
  b->keymap = map;
  b->command = command;
  b->keys = sh_xstrdup(keys);
  b->value = sh_xstrdup(value);
  return 0;
}

/* Splits '"KEYSEQ": VALUE' (or KEYSEQ: VALUE); false when malformed. The
 * value loses one level of double quotes (-x "cmd"). */
static bool split_binding(const char *arg, char **keys, char **value) {
  const char *p = arg, *kend;
  while (*p == ' ' || *p == '\t') p++;
  if (*p == '"') {
    const char *q = p + 1;
    while (*q && *q != '"') q += q[0] == '\\' && q[1] ? 2 : 1;
    if (!*q) return false;
    *keys = sh_xstrndup(p + 1, (size_t)(q - p - 1));
    kend = q + 1;
  } else {
    kend = strchr(p, ':');
    if (!kend) return false;
    *keys = sh_xstrndup(p, (size_t)(kend - p));
  }
  while (*kend == ' ' || *kend == '\t') kend++;
  if (*kend != ':') {
    free(*keys);
    return false;
  }
  kend++;
  while (*kend == ' ' || *kend == '\t') kend++;
  size_t n = strlen(kend);
  if (n >= 2 && kend[0] == '"' && kend[n - 1] == '"') *value = sh_xstrndup(kend + 1, n - 2);
  else *value = sh_xstrdup(kend);
  return true;
}

/* The key sequences bound to fn in map, in bash's order (byte order). */
static void keys_of(sh_session *s, int map, const char *fn, sh_strv *out) {
  for (size_t i = 0; i < s->nbinds; i++)
    if (s->binds[i].keymap == map && !s->binds[i].command && !strcmp(s->binds[i].value, fn))
      sh_strv_pushdup(out, s->binds[i].keys);
  if (map == 0)
    for (size_t i = 0; i < NDEFAULTS; i++) {
      bool shadowed = false;
      for (size_t j = 0; j < s->nbinds && !shadowed; j++)
        shadowed = s->binds[j].keymap == 0 && !strcmp(s->binds[j].keys, bind_defaults[i].keys);
      if (!shadowed && !strcmp(bind_defaults[i].function, fn)) sh_strv_pushdup(out, bind_defaults[i].keys);
    }
  for (size_t i = 1; i < out->n; i++) /* a few entries: insertion sort */
    for (size_t j = i; j > 0 && strcmp(out->v[j - 1], out->v[j]) > 0; j--) {
      char *t = out->v[j];
      out->v[j] = out->v[j - 1];
      out->v[j - 1] = t;
    }
}

static void print_keys(sh_buf *b, const sh_strv *keys) {
  for (size_t i = 0; i < keys->n; i++) sh_buf_addf(b, "%s\"%s\"", i ? ", " : "", keys->v[i]);
}

int sh_bi_bind(sh_shell *sh, int argc, char **argv) {
  sh_session *s = sh->sess;
  sh_error(sh, "bind: warning: line editing not enabled");
  int map = 0, st = 0;
  sh_buf out = {0};
  sh_bi_getopt g = SH_BI_GETOPT("bind", "lpPvVsSXm:f:q:u:r:x:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    const char *arg = g.arg;
    switch (c) {
    case 'l':
      for (size_t k = 0; k < NFUNCS; k++) sh_buf_addf(&out, "%s\n", bind_functions[k]);
      break;
    case 'p': case 'P':
      for (size_t k = 0; k < NFUNCS; k++) {
        sh_strv keys = {0};
        keys_of(s, map, bind_functions[k], &keys);
        if (c == 'P') {
          if (!keys.n) sh_buf_addf(&out, "%s is not bound to any keys\n", bind_functions[k]);
          else {
            sh_buf_addf(&out, "%s can be found on ", bind_functions[k]);
            print_keys(&out, &keys);
            sh_buf_adds(&out, ".\n");
          }
        } else if (!keys.n) {
          sh_buf_addf(&out, "# %s (not bound)\n", bind_functions[k]);
        } else {
          for (size_t j = 0; j < keys.n; j++) sh_buf_addf(&out, "\"%s\": %s\n", keys.v[j], bind_functions[k]);
        }
        sh_strv_free(&keys);
      }
      break;
    case 'v': case 'V':
      for (size_t k = 0; k < NVARS; k++)
        if (c == 'v') sh_buf_addf(&out, "set %s %s\n", bind_vars[k].name, bind_vars[k].value);
        else sh_buf_addf(&out, "%s is set to `%s'\n", bind_vars[k].name, bind_vars[k].value);
      break;
    case 's': case 'S':
      break; /* no macros */
    case 'X':
      for (size_t k = 0; k < s->nbinds; k++)
        if (s->binds[k].keymap == map && s->binds[k].command)
          sh_buf_addf(&out, "\"%s\": \"%s\"\n", s->binds[k].keys, s->binds[k].value);
      break;
    case 'm':
      map = keymap_of(arg);
      if (map < 0) {
        sh_error(sh, "bind: `%s': invalid keymap name", arg);
        sh_buf_free(&out);
        return 1;
      }
      break;
    case 'q': case 'u': {
      /* the keys bound to a function: -q names them, -u unbinds them */
      if (!known_function(sh, arg)) {
        st = 1;
        break;
      }
      sh_strv keys = {0};
      keys_of(s, map, arg, &keys);
      if (c == 'u') {
        for (size_t k = 0; k < keys.n; k++) bind_add(sh, map, keys.v[k], "self-insert", false);
      } else if (!keys.n) {
        sh_buf_addf(&out, "%s is not bound to any keys.\n", arg);
        st = 1;
      } else {
        sh_buf_addf(&out, "%s can be invoked via ", arg);
        print_keys(&out, &keys);
        sh_buf_adds(&out, ".\n");
      }
      sh_strv_free(&keys);
      break;
    }
    case 'r':
      bind_remove(s, map, arg);
      /* a default control key is shadowed by an unbound entry */
      for (size_t k = 0; k < NDEFAULTS; k++)
        if (map == 0 && !strcmp(bind_defaults[k].keys, arg)) bind_add(sh, 0, arg, "", false);
      break;
    case 'x': {
      char *keys, *value;
      if (!split_binding(arg, &keys, &value)) {
        sh_error(sh, "bind: %s: missing colon separator", arg);
        st = 1;
        break;
      }
      if (bind_add(sh, map, keys, value, true)) st = 1;
      free(keys);
      free(value);
      break;
    }
    case 'f':
      break; /* no inputrc is read */
    }
  }
  if (c < 0) {
    sh_buf_free(&out);
    return 2;
  }
  int i = g.i;
  for (; i < argc; i++) {
    char *keys, *value;
    if (!split_binding(argv[i], &keys, &value)) {
      if (strchr(argv[i], ' ') || argv[i][0] == 's') continue; /* "set VAR VALUE": accepted */
      sh_error(sh, "bind: %s: missing colon separator", argv[i]);
      st = 1;
      continue;
    }
    if (bind_add(sh, map, keys, value, false)) st = 1;
    free(keys);
    free(value);
  }
  sh_write_fd(sh, 1, out.data, out.len);
  sh_buf_free(&out);
  return st;
}
