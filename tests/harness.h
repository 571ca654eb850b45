/*
 * harness.h - the plain C test harness used by every tests/<module>/test_*.c.
 *
 * A test program is a list of `TEST(name) { ... }` functions run from main() with
 * RUN(name). CHECK(cond) records a failure and continues; REQUIRE(cond) records
 * and returns from the test. main() ends with `return harness_done();`, which
 * prints the closing line "N passed, N failed" that CI reads, and returns 1 when
 * anything failed. A test counts as passed when none of its checks failed.
 * harness_nested builds the deeply nested sources that limit tests feed the
 * parsers; harness_now_s and harness_now_ms read the monotonic clock.
 */
#ifndef SBX_TESTS_HARNESS_H
#define SBX_TESTS_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int harness_passed, harness_failed; /* tests that passed / failed */
static int harness_cur_failed;             /* checks failed in the running test */
static const char *harness_filter;         /* run only tests containing this */

#define TEST(name) static void test_##name(void)

#define RUN(name)                                                          \
  do {                                                                     \
    if (harness_filter && !strstr(#name, harness_filter)) break;          \
    harness_cur_failed = 0;                                                \
    test_##name();                                                         \
    if (harness_cur_failed) {                                              \
      harness_failed++;                                                    \
      fprintf(stderr, "FAIL %s\n", #name);                                 \
    } else {                                                               \
      harness_passed++;                                                    \
    }                                                                      \
  } while (0)

/* Records a failed check: where, what kind of check, the condition's text. */
#define HARNESS_FAIL(kind, text)                                          \
  do {                                                                    \
    fprintf(stderr, "  %s:%d: %s: %s\n", __FILE__, __LINE__, kind, text); \
    harness_cur_failed++;                                                 \
  } while (0)

#define CHECK(cond)                                   \
  do {                                                \
    if (!(cond)) HARNESS_FAIL("check failed", #cond); \
  } while (0)

#define REQUIRE(cond)                  \
  do {                                 \
    if (!(cond)) {                     \
      HARNESS_FAIL("required", #cond); \
      return;                          \
    }                                  \
  } while (0)

/* Integer equality that prints both sides. */
#define CHECK_EQ(a, b)                                                     \
  do {                                                                     \
    long long ha_ = (long long)(a), hb_ = (long long)(b);                  \
    if (ha_ != hb_) {                                                      \
      fprintf(stderr, "  %s:%d: %s == %s: got %lld, want %lld\n",          \
              __FILE__, __LINE__, #a, #b, ha_, hb_);                       \
      harness_cur_failed++;                                                \
    }                                                                      \
  } while (0)

/* String equality (NULL-safe) that prints both sides. */
#define CHECK_STR(a, b)                                                    \
  do {                                                                     \
    const char *hs_a = (a), *hs_b = (b);                                   \
    if (!hs_a || !hs_b || strcmp(hs_a, hs_b) != 0) {                       \
      fprintf(stderr, "  %s:%d: %s == %s:\n    got  \"%s\"\n    want \"%s\"\n", \
              __FILE__, __LINE__, #a, #b, hs_a ? hs_a : "(null)",          \
              hs_b ? hs_b : "(null)");                                     \
      harness_cur_failed++;                                                \
    }                                                                      \
  } while (0)

/* A malloc'd string: head, depth copies of open, mid, depth copies of close,
 * tail: the deep nesting that limit tests feed a parser (NULL if out of
 * memory). */
static inline char *harness_nested(const char *head, const char *open, const char *mid,
                                   const char *close, const char *tail, size_t depth) {
  size_t lh = strlen(head), lo = strlen(open), lm = strlen(mid), lc = strlen(close),
         lt = strlen(tail);
  char *s = malloc(lh + depth * (lo + lc) + lm + lt + 1);
  if (!s) return NULL;
  char *o = s;
  memcpy(o, head, lh);
  o += lh;
  for (size_t i = 0; i < depth; i++, o += lo) memcpy(o, open, lo);
  memcpy(o, mid, lm);
  o += lm;
  for (size_t i = 0; i < depth; i++, o += lc) memcpy(o, close, lc);
  memcpy(o, tail, lt + 1);
  return s;
}

/* Seconds, and milliseconds, on the monotonic clock: for the bounds a test
 * puts on how long something may take to stop (never a speed check). */
static inline double harness_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static inline double harness_now_ms(void) {
  return harness_now_s() * 1e3;
}

static inline void harness_init(int argc, char **argv) {
  harness_filter = argc > 1 ? argv[1] : getenv("TEST_FILTER");
}

static inline int harness_done(void) {
  printf("%d passed, %d failed\n", harness_passed, harness_failed);
  return harness_failed ? 1 : 0;
}

#endif
