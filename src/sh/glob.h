/*
 * glob.h - shell pattern matching (case, [[ ]], ${x#p}, ${x/p/r}) and pathname
 * expansion over the store.
 *
 * Patterns are byte strings where a backslash quotes the next character (the
 * expander escapes every quoted character that way), `*`, `?`, `[...]` (with
 * ranges, negation by ! or ^, and [:classes:]) and, with SH_FNM_EXTGLOB,
 * `?(..) *(..) +(..) @(..) !(..)`. `?` and brackets match UTF-8 characters.
 */
#ifndef SBX_SH_GLOB_H
#define SBX_SH_GLOB_H

#include "sh/sh.h"

#define SH_FNM_PERIOD 0x01   /* a leading '.' must be matched explicitly */
#define SH_FNM_CASEFOLD 0x02 /* ignore ASCII case */
#define SH_FNM_EXTGLOB 0x04  /* extended patterns */

/* Does pattern (plen bytes) match the string s (slen bytes) entirely? Hostile
 * patterns stop after a fixed amount of work (then: no match). */
bool sh_fnmatch(const char *pat, size_t plen, const char *s, size_t slen, int flags);
/* The same within a call: polls sh_poll while it works, so the call's timeout
 * and sbx_cancel end a long match (it fails and sh->flow is SH_FLOW_ABORT). */
bool sh_fnmatch_sh(sh_shell *sh, const char *pat, size_t plen, const char *s, size_t slen, int flags);
/* One pattern tested against many slices of one subject (${x//p/r} tries
 * every offset): what the matcher learns about sub-slices is kept between
 * tests. Polls sh like sh_fnmatch_sh. The pattern and subject are borrowed. */
typedef struct sh_matcher sh_matcher;
sh_matcher *sh_matcher_new(sh_shell *sh, const char *pat, size_t plen, const char *subject, int flags);
/* Does the pattern match subject[i,j)? */
bool sh_matcher_test(sh_matcher *mt, size_t i, size_t j);
void sh_matcher_free(sh_matcher *mt);

/* The shape of a pattern, for the fast paths of ${x#p} ${x%p} ${x/p/r}: what
 * every match must look like, read once instead of matched at every offset. */
typedef struct sh_pattern_shape {
  bool fixed;      /* no `*` and no extglob group: each element takes one byte
                    * (a literal) or one character (`?`, a bracket) */
  bool literal;    /* fixed and only literals: it matches exactly lit */
  bool any_only;   /* fixed and only `?`: it matches any nelems characters */
  char *lit;       /* literal: the bytes (malloc'd, the caller frees), else NULL */
  size_t lit_n;    /* their count */
  size_t nelems;   /* elements of the pattern (a fixed match takes nelems to
                    * 4 * nelems bytes) */
  int first, last; /* the byte every match starts / ends with, or -1 */
} sh_pattern_shape;
void sh_pattern_shape_of(const char *pat, size_t plen, int flags, sh_pattern_shape *shape);
/* For a fixed pattern: where its one possible match starting at s[0] ends
 * (SIZE_MAX when it runs past sn). */
size_t sh_pattern_fixed_end(const char *pat, size_t plen, const char *s, size_t sn, int flags);
/* Does the pattern contain an unquoted special character? */
bool sh_has_glob(const char *pat, int flags);
/* Removes the quoting backslashes of a pattern (malloc'd). */
char *sh_pattern_unescape(const char *pat);
/* Pathname expansion: appends sorted matches to out; returns their count. */
void sh_glob_list_dir(sh_shell *sh, const char *dir, sh_strv *out);
size_t sh_glob(sh_shell *sh, const char *pat, sh_strv *out);
/* Flags for matching in the shell's current option state. */
int sh_fnm_flags(sh_shell *sh, bool for_case);

#endif
