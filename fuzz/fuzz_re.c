/*
 * fuzz_re.c - libFuzzer target for the regex engine (src/re).
 *
 * Input: byte 0 selects compile flags, then the pattern up to the first NUL
 * byte, then the subject. Every compiled pattern is run through re_exec
 * (with submatches, from two start offsets) and re_first_end under a small
 * step budget, and the results are checked for consistency: spans inside
 * the subject, group spans inside the whole match, re_first_end agreeing on
 * whether there is a match. When the pattern has no back-references and no
 * GNU-only syntax, the overall span is compared with glibc's regexec (a
 * different POSIX implementation: both must find the same leftmost-longest
 * match); glibc is only consulted on short, simple patterns without
 * back-references or stacked quantifiers, where it cannot run away (it does
 * on others: one reason it is not the engine).
 */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "re/re.h"

static int compare_with_glibc(const char *pat, size_t plen, unsigned flags, const char *subj,
                              size_t slen) {
  if (plen > 24 || slen > 64) return 0;
  if (flags & ~(RE_EXTENDED | RE_NEWLINE)) return 0;
  /* glibc needs NUL-terminated strings and differs on GNU extensions. */
  if (memchr(pat, 0, plen) || memchr(subj, 0, slen)) return 0;
  /* glibc itself runs away on some patterns (exponential regcomp on stacked
   * quantifiers like "(.?)+++++", endless regexec on nested empty groups):
   * only simple patterns are compared. */
  int quants = 0;
  for (size_t i = 0; i < plen; i++) {
    unsigned char c = (unsigned char)pat[i];
    if (c == '\\' || c >= 0x80 || c == '[' || c == '{' || c == '\n') return 0;
    bool q = c == '*' || c == '+' || c == '?';
    if (q && ++quants > 3) return 0;
    if (q && i > 0 && (pat[i - 1] == '*' || pat[i - 1] == '+' || pat[i - 1] == '?' || pat[i - 1] == ')'))
      return 0;
    if (c == ')' && i > 0 && pat[i - 1] == '(') return 0;
  }
  for (size_t i = 0; i < slen; i++)
    if ((unsigned char)subj[i] >= 0x80) return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static const unsigned flagsets[] = {
      0, RE_EXTENDED, RE_NOCASE, RE_EXTENDED | RE_NOCASE, RE_UTF8, RE_EXTENDED | RE_UTF8,
      RE_NEWLINE, RE_EXTENDED | RE_NEWLINE, RE_LITERAL, RE_NLALT | RE_EXTENDED,
      RE_EXTENDED | RE_UTF8 | RE_NOCASE, RE_NEWLINE | RE_NOTNL | RE_UTF8,
      RE_EXTENDED | RE_WHOLE_WORD, RE_WHOLE_LINE | RE_NEWLINE, RE_MULTILINE, RE_PERL,
  };
  unsigned flags = flagsets[data[0] % (sizeof flagsets / sizeof *flagsets)];
  const char *rest = (const char *)data + 1;
  size_t rlen = size - 1;
  const char *sep = memchr(rest, 0, rlen);
  size_t plen = sep ? (size_t)(sep - rest) : rlen;
  const char *subj = sep ? sep + 1 : "";
  size_t slen = sep ? rlen - plen - 1 : 0;
  if (plen > 2000) return 0;

  re *r = NULL;
  re_err err = {0};
  if (re_compile(&r, rest, plen, flags, &err) != 0) {
    if (r != NULL || err.msg[0] == 0) __builtin_trap();
    return 0;
  }
  re_ctl ctl = {200000, NULL, NULL};
  re_span m[10];
  size_t nsub = re_nsub(r);
  size_t nm = nsub + 1 > 10 ? 10 : nsub + 1;
  for (size_t start = 0; start <= slen && start < 3; start += 2) {
    int rc = re_exec(r, subj, slen, start, 0, m, nm, &ctl);
    if (rc == RE_MATCH) {
      if (m[0].so < (ptrdiff_t)start || m[0].eo < m[0].so || m[0].eo > (ptrdiff_t)slen)
        __builtin_trap();
      for (size_t i = 1; i < nm; i++) {
        if (m[i].so == -1) continue;
        if (m[i].so < 0 || m[i].eo < m[i].so || m[i].eo > (ptrdiff_t)slen) __builtin_trap();
      }
    }
    size_t end = 0;
    int fe = re_first_end(r, subj, slen, start, 0, &end, &ctl);
    if (rc >= 0 && fe >= 0 && !(flags & RE_PERL)) {
      if ((rc == RE_MATCH) != (fe == RE_MATCH)) __builtin_trap();
      if (fe == RE_MATCH && (end < start || end > slen || (ptrdiff_t)end > m[0].eo)) __builtin_trap();
    }
    if (start == 0 && rc >= 0 && !re_has_backrefs(r) && compare_with_glibc(rest, plen, flags, subj, slen)) {
      char *p = strndup(rest, plen), *s = strndup(subj, slen);
      regex_t g;
      int gf = ((flags & RE_EXTENDED) ? REG_EXTENDED : 0) | ((flags & RE_NEWLINE) ? REG_NEWLINE : 0);
      if (p && s && regcomp(&g, p, gf) == 0) {
        regmatch_t gm[1];
        int gr = regexec(&g, s, 1, gm, 0);
        if ((gr == 0) != (rc == RE_MATCH)) {
          fprintf(stderr, "glibc %d ours %d on /%s/ '%s'\n", gr, rc, p, s);
          __builtin_trap();
        }
        if (gr == 0 && (gm[0].rm_so != m[0].so || gm[0].rm_eo != m[0].eo)) {
          fprintf(stderr, "span glibc (%d,%d) ours (%td,%td) on /%s/ '%s'\n", gm[0].rm_so,
                  gm[0].rm_eo, m[0].so, m[0].eo, p, s);
          __builtin_trap();
        }
        regfree(&g);
      }
      free(p);
      free(s);
    }
  }
  re_free(r);
  return 0;
}
