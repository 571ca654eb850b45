/*
 * re_pcre.c - Perl-syntax patterns (grep -P) through PCRE2 (libpcre2-8).
 *
 * Compiled like GNU grep 3.8 does: PCRE2_DOLLAR_ENDONLY, PCRE2_CASELESS for
 * -i, and in UTF-8 mode PCRE2_UTF | PCRE2_MATCH_INVALID_UTF so invalid bytes
 * in the subject are never matched by a character but never fail the call.
 * PCRE2 backtracks, so every match runs under a match limit, a depth limit
 * and a heap limit (from the caller's step budget, capped): hitting one is
 * RE_ELIMIT. The JIT is used when available, with its own bounded stack.
 * Semantics are Perl's (leftmost-first), not POSIX leftmost-longest.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

#define RE_PCRE_MATCH_LIMIT 10000000u /* PCRE2's own default, as GNU grep uses */
#define RE_PCRE_DEPTH_LIMIT 100000u
#define RE_PCRE_HEAP_KB (64u * 1024u) /* 64 MB */

struct re_pcre {
  pcre2_code *code;             /* compiled pattern */
  pcre2_match_data *md;         /* ovector storage */
  pcre2_match_context *mctx;    /* limits */
  pcre2_jit_stack *jstack;      /* JIT stack (NULL without JIT) */
  uint64_t limit_set;           /* match limit currently in mctx */
};

int re_pcre_compile(re_pcre **out, const char *pat, size_t len, unsigned flags, re_err *err,
                    size_t *nsub) {
  *out = NULL;
  uint32_t opts = PCRE2_DOLLAR_ENDONLY;
  if (flags & RE_NOCASE) opts |= PCRE2_CASELESS;
  if (flags & RE_UTF8) opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  if (flags & (RE_NEWLINE | RE_MULTILINE)) opts |= PCRE2_MULTILINE;
  int ec;
  PCRE2_SIZE eoff;
  pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
  if (cctx) pcre2_set_max_pattern_length(cctx, 1u << 20);
  pcre2_code *code = pcre2_compile((PCRE2_SPTR)pat, len, opts, &ec, &eoff, cctx);
  pcre2_compile_context_free(cctx);
  if (!code) {
    if (err) {
      err->code = RE_EPERL;
      err->offset = eoff;
      PCRE2_UCHAR buf[200];
      if (pcre2_get_error_message(ec, buf, sizeof buf) < 0) strcpy((char *)buf, "invalid pattern");
      snprintf(err->msg, sizeof err->msg, "%s", (char *)buf);
    }
    return RE_EPERL;
  }
  re_pcre *p = calloc(1, sizeof *p);
  if (!p) {
    pcre2_code_free(code);
    re_set_error(err, RE_ECOMPNOMEM, 0);
    return RE_ECOMPNOMEM;
  }
  p->code = code;
  if (pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0) {
    p->jstack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
  }
  p->md = pcre2_match_data_create_from_pattern(code, NULL);
  p->mctx = pcre2_match_context_create(NULL);
  if (!p->md || !p->mctx) {
    re_pcre_free(p);
    re_set_error(err, RE_ECOMPNOMEM, 0);
    return RE_ECOMPNOMEM;
  }
  if (p->jstack) pcre2_jit_stack_assign(p->mctx, NULL, p->jstack);
  pcre2_set_depth_limit(p->mctx, RE_PCRE_DEPTH_LIMIT);
  pcre2_set_heap_limit(p->mctx, RE_PCRE_HEAP_KB);
  uint32_t cc = 0;
  pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &cc);
  *nsub = cc;
  *out = p;
  return 0;
}

void re_pcre_free(re_pcre *p) {
  if (!p) return;
  pcre2_match_data_free(p->md);
  pcre2_match_context_free(p->mctx);
  if (p->jstack) pcre2_jit_stack_free(p->jstack);
  pcre2_code_free(p->code);
  free(p);
}

int re_pcre_exec(re_pcre *p, re_run *run, size_t start, bool anchored, re_span *m, size_t nm) {
  uint64_t left = run->max_steps > run->steps ? run->max_steps - run->steps : 0;
  uint64_t lim = left < RE_PCRE_MATCH_LIMIT ? left : RE_PCRE_MATCH_LIMIT;
  if (lim == 0) return RE_ELIMIT;
  if (lim != p->limit_set) {
    pcre2_set_match_limit(p->mctx, (uint32_t)lim);
    p->limit_set = lim;
  }
  if (run->ctl && run->ctl->poll && run->ctl->poll(run->ctl->ud)) return RE_ECANCEL;
  uint32_t opts = 0;
  if (run->eflags & RE_NOTBOL) opts |= PCRE2_NOTBOL;
  if (run->eflags & RE_NOTEOL) opts |= PCRE2_NOTEOL;
  if (anchored) opts |= PCRE2_ANCHORED;
  int rc = pcre2_match(p->code, (PCRE2_SPTR)run->s, run->len, start, opts, p->md, p->mctx);
  run->steps += 1 + (run->len - start) / 16;
  if (rc == PCRE2_ERROR_NOMATCH) return RE_NOMATCH;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
      rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
      rc == PCRE2_ERROR_RECURSELOOP)
    return RE_ELIMIT;
  if (rc == PCRE2_ERROR_NOMEMORY) return RE_ENOMEM;
  if (rc < 0) return RE_NOMATCH;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
  uint32_t pairs = pcre2_get_ovector_count(p->md);
  for (size_t i = 0; i < nm; i++) {
    if (i < pairs && i < (size_t)rc && ov[2 * i] != PCRE2_UNSET) {
      m[i].so = (ptrdiff_t)ov[2 * i];
      m[i].eo = (ptrdiff_t)ov[2 * i + 1];
    } else {
      m[i].so = m[i].eo = -1;
    }
  }
  return RE_MATCH;
}
