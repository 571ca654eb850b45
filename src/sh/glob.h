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

/* Does pattern (plen bytes) match the string s (slen bytes) entirely? */
bool sh_fnmatch(const char *pat, size_t plen, const char *s, size_t slen, int flags);
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
