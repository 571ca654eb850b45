/*
 * expand.h - word expansion: brace, tilde, parameter, command and arithmetic
 * substitution, process substitution, IFS splitting, pathname expansion and
 * quote removal, in bash's order.
 *
 * Every function returns malloc'd results owned by the caller. On an error
 * (bad substitution, ${x?}, unbound variable, limit) a message has been printed,
 * the function returns non-zero / NULL, and sh->flow may have been set (fatal
 * errors end a non-interactive shell).
 */
#ifndef SBX_SH_EXPAND_H
#define SBX_SH_EXPAND_H

#include "sh/sh.h"

/* Flags for the single-string expansions. */
#define SH_XF_ASSIGN 0x01   /* assignment value: tilde after = and : */
#define SH_XF_NOSPLIT 0x02  /* (implied by the string forms) */
#define SH_XF_PATTERN 0x04  /* result is a pattern: quoted chars are escaped */
#define SH_XF_REGEX 0x08    /* result is an ERE: quoted ERE chars are escaped */
#define SH_XF_NOTILDE 0x10  /* no tilde expansion at the start */
#define SH_XF_HEREDOC 0x20  /* here-document body */
#define SH_XF_DECL 0x40     /* with ASSIGN: a declaration builtin's NAME=value argument */

/* Expands words into fields (all expansions, splitting, globbing). Appends to
 * out. Returns 0, or 1 on an error. */
int sh_expand_words(sh_shell *sh, sh_word *const *words, size_t n, sh_strv *out);
/* Like sh_expand_words for one word, without brace expansion and globbing but
 * with splitting (used for `for` with `in` words ... no: see exec.c). */
int sh_expand_word_fields(sh_shell *sh, sh_word *w, sh_strv *out);

/* One string, no splitting or globbing ("$@" joined by spaces). NULL on error. */
char *sh_expand_string(sh_shell *sh, const sh_word *w, int flags);
/* When w is a lone $((...)) (as in x=$((...))): writes its value's text into
 * buf (SH_I64_LEN bytes) and returns 1; 0 when w (maybe NULL) is anything
 * else; -1 after an error (reported), as sh_expand_string's NULL. */
int sh_expand_lone_arith(sh_shell *sh, const sh_word *w, char *buf);

/* Expands text that is to be evaluated as arithmetic (parses $ expansions
 * within it). NULL on error. */
char *sh_expand_arith_text(sh_shell *sh, const char *text);
/* Expands an arithmetic word and evaluates it. Returns 0 and *out or 1. */
int sh_expand_arith(sh_shell *sh, const sh_word *w, int64_t *out);

/* For redirection targets: expands; globs when the result is a single match
 * (bash's rule); error "ambiguous redirect" when it splits into several. */
char *sh_expand_redir_target(sh_shell *sh, const sh_word *w);

/* Brace expansion of a word into words (allocated in `a`). Returns the count
 * (1 with the word itself when there is nothing to expand); -1 when the
 * result would exceed `limit` words. */
long sh_brace_expand(sh_arena *a, sh_word *w, sh_word ***out, uint64_t limit);

/* Quotes a string for reuse as shell input (printf %q, ${x@Q}, set, declare -p). */
char *sh_quote(const char *s, bool dollar_style);
/* Single-quote style used by ${x@Q} and declare -p. */
char *sh_quote_single(const char *s);

/* Splits a string by IFS as `read` does (field count limit: max_fields, the
 * last gets the rest when `rest_last`). */
void sh_ifs_split(sh_shell *sh, const char *s, sh_strv *out, size_t max_fields);

/* Expands prompt escapes (\u \h \w \$ ...) as ${x@P} and PS4 do. */
char *sh_expand_prompt(sh_shell *sh, const char *s);

/* Expands subscript text given as a string (unset 'a[$k]', namerefs to
 * elements): quotes removed, parameters expanded, no splitting. NULL on error. */
char *sh_expand_subscript(sh_shell *sh, const char *text);
/* Assigns to "name[sub]" given as text (a nameref to an element). */
int sh_assign_ref_elem(sh_shell *sh, const char *ref, const char *value, bool append);

/* Number of characters (UTF-8 code points; invalid bytes count one each). */
size_t sh_utf8_len(const char *s, size_t n);

#endif
