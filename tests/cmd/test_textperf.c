/*
 * test_textperf.c - the fast paths of the text commands against simple
 * reference implementations, over random inputs the .t files cannot
 * enumerate: cmd_count_byte (every alignment and length, counters that
 * would overflow), cmd_count_lines_with (line ends dense and sparse), wc -l, grep -c/-v -c/-n over inputs larger than grep's
 * read size (matches across buffer boundaries, no final newline, NULs),
 * sort's radix path (NUL and 0xff bytes, shared prefixes past the radix
 * depth, -r, -u), and that a deadline stops a big sort.
 */
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/bytescan.h"
#include "cmd_testutil.h"
#include "harness.h"
#include "store/store.h"

static store *st;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

static void put(const char *path, const void *data, size_t len) {
  int rc = store_path_write_file(st, "/", path, data, len, 0644, STORE_WRITE_MKDIRS);
  if (rc < 0) fprintf(stderr, "write %s: %d\n", path, rc);
}

static cmd_standalone_result run(char **argv) {
  return cmd_test_run(st, "/w", NULL, argv);
}

/* ---- cmd_count_byte ------------------------------------------------------------ */

static size_t naive_count(const unsigned char *p, size_t n, unsigned char c) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += p[i] == c;
  return k;
}

TEST(count_byte_matches_naive_at_every_alignment_and_length) {
  unsigned char buf[1024];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)"\n\0a\xff"[rnd() % 4];
  int bad = 0;
  for (size_t off = 0; off < 17; off++)
    for (size_t n = 0; off + n <= 700; n++)
      for (int c = 0; c < 4; c++) {
        unsigned char b = (unsigned char)"\n\0a\xff"[c];
        if (cmd_count_byte(buf + off, n, b) != naive_count(buf + off, n, b)) bad++;
      }
  CHECK_EQ(bad, 0);
  CHECK_EQ(cmd_count_byte(NULL, 0, '\n'), 0);
}

TEST(count_byte_lane_counters_do_not_overflow) {
  /* every byte matches: 255 rounds of 64 bytes fill each 8-bit lane */
  size_t n = 255 * 64 * 3 + 77;
  unsigned char *p = malloc(n);
  REQUIRE(p);
  memset(p, '\n', n);
  CHECK_EQ(cmd_count_byte(p, n, '\n'), n);
  CHECK_EQ(cmd_count_byte(p + 1, n - 1, '\n'), n - 1);
  CHECK_EQ(cmd_count_byte(p, n, 'x'), 0);
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(rnd() & 3 ? 'x' : '\n');
  CHECK_EQ(cmd_count_byte(p, n, '\n'), naive_count(p, n, '\n'));
  free(p);
}

/* Lines of p[0..n) holding lit[0..m), the slow way. */
static size_t naive_lines_with(const unsigned char *p, size_t n, const char *lit, size_t m) {
  size_t count = 0, s = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && p[i] != '\n') continue;
    if (i > s || i < n) { /* a line [s, i) (the last one only when not empty) */
      for (size_t j = s; j + m <= i; j++)
        if (memcmp(p + j, lit, m) == 0) {
          count++;
          break;
        }
    }
    s = i + 1;
  }
  return count;
}

TEST(count_lines_with_matches_naive) {
  static const char *const lits[] = {"x", "ab", "aba", "abcab", "q"};
  unsigned char buf[3000];
  int bad = 0;
  for (int round = 0; round < 40; round++) {
    /* dense or sparse line ends, long lines spanning several blocks */
    unsigned nl_every = round % 4 == 0 ? 3 : round % 4 == 1 ? 40 : round % 4 == 2 ? 200 : 5000;
    for (size_t i = 0; i < sizeof buf; i++)
      buf[i] = rnd() % nl_every == 0 ? '\n' : (unsigned char)"abcx"[rnd() % 4];
    for (int l = 0; l < 5; l++) {
      size_t m = strlen(lits[l]);
      for (size_t off = 0; off < 3; off++) {
        size_t n = sizeof buf - off - (size_t)(rnd() % 200);
        if (cmd_count_lines_with(buf + off, n, lits[l], m, '\n') !=
            naive_lines_with(buf + off, n, lits[l], m))
          bad++;
      }
    }
  }
  CHECK_EQ(bad, 0);
  CHECK_EQ(cmd_count_lines_with("x", 1, "xy", 2, '\n'), 0);
  CHECK_EQ(cmd_count_lines_with("", 0, "x", 1, '\n'), 0);
}

/* ---- wc -l and grep -c over big random text ------------------------------------- */

/* Random lines of 0..maxlen bytes from `alpha`; `final_nl` ends the text
 * with a newline. Returns a malloc'd buffer of *len bytes. */
static unsigned char *random_text(size_t nlines, size_t maxlen, const char *alpha,
                                  size_t nalpha, bool final_nl, size_t *len) {
  unsigned char *p = malloc(nlines * (maxlen + 1) + 1);
  size_t k = 0;
  for (size_t i = 0; i < nlines; i++) {
    size_t l = (size_t)(rnd() % (maxlen + 1));
    for (size_t j = 0; j < l; j++) p[k++] = (unsigned char)alpha[rnd() % nalpha];
    if (i + 1 < nlines || final_nl) p[k++] = '\n';
  }
  *len = k;
  return p;
}

/* Lines of t[0..n) (a last one without newline counts) containing `c`. */
static size_t lines_with(const unsigned char *t, size_t n, unsigned char c, size_t *total) {
  size_t hits = 0, lines = 0;
  bool has = false, open = false;
  for (size_t i = 0; i < n; i++) {
    open = true;
    if (t[i] == c) has = true;
    if (t[i] == '\n') {
      hits += has;
      lines++;
      has = open = false;
    }
  }
  if (open) {
    hits += has;
    lines++;
  }
  *total = lines;
  return hits;
}

TEST(wc_l_and_grep_c_agree_with_a_reference_on_large_inputs) {
  for (int round = 0; round < 4; round++) {
    size_t n;
    /* ~400 KB: several of grep's 96 KiB reads and wc's blocks */
    unsigned char *t = random_text(12000, 60, "abcdefxyz  ", 11, round % 2 == 0, &n);
    put("/w/big", t, n);
    size_t lines, hits = lines_with(t, n, 'x', &lines);
    size_t nl = naive_count(t, n, '\n');
    char want[64];

    cmd_standalone_result r = run((char *[]){"wc", "-l", "big", NULL});
    snprintf(want, sizeof want, "%zu big\n", nl);
    CHECK_STR(r.out, want);
    cmd_test_done(&r);

    r = run((char *[]){"grep", "-c", "x", "big", NULL});
    snprintf(want, sizeof want, "%zu\n", hits);
    CHECK_STR(r.out, want);
    cmd_test_done(&r);

    r = run((char *[]){"grep", "-vc", "x", "big", NULL});
    snprintf(want, sizeof want, "%zu\n", lines - hits);
    CHECK_STR(r.out, want);
    cmd_test_done(&r);

    /* a longer fixed string, and the same through the regex (-E 'a|a') */
    snprintf(want, sizeof want, "%zu\n", naive_lines_with(t, n, "ax", 2));
    r = run((char *[]){"grep", "-c", "ax", "big", NULL});
    CHECK_STR(r.out, want);
    cmd_test_done(&r);
    r = run((char *[]){"grep", "-Ec", "ax|ax", "big", NULL});
    CHECK_STR(r.out, want);
    cmd_test_done(&r);
    snprintf(want, sizeof want, "%zu\n", lines - naive_lines_with(t, n, "x y", 3));
    r = run((char *[]){"grep", "-vFc", "x y", "big", NULL});
    CHECK_STR(r.out, want);
    cmd_test_done(&r);

    /* -n numbers the last match by counting newlines before it */
    r = run((char *[]){"grep", "-n", "x", "big", NULL});
    const char *last = r.out && r.outlen ? r.out + r.outlen - 1 : NULL;
    while (last && last > r.out && last[-1] != '\n') last--;
    size_t lastno = 0, ln = 1;
    for (size_t i = 0; i < n; i++) {
      if (t[i] == 'x') lastno = ln;
      if (t[i] == '\n') ln++;
    }
    CHECK(last && strtoul(last, NULL, 10) == lastno);
    cmd_test_done(&r);
    free(t);
  }
}

TEST(grep_c_counts_nul_separated_records_in_binary_files) {
  /* GNU: a NUL makes the file binary and NULs end lines; -c counts them */
  size_t n = 300000;
  unsigned char *t = malloc(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t x = rnd() % 16;
    t[i] = x == 0 ? '\n' : x == 1 ? 0 : x == 2 ? 'x' : 'a';
  }
  put("/w/bin", t, n);
  for (size_t i = 0; i < n; i++)
    if (t[i] == 0) t[i] = '\n';
  size_t lines, hits = lines_with(t, n, 'x', &lines);
  char want[64];
  snprintf(want, sizeof want, "%zu\n", hits);
  cmd_standalone_result r = run((char *[]){"grep", "-c", "x", "bin", NULL});
  CHECK_STR(r.out, want);
  cmd_test_done(&r);
  free(t);
}

/* ---- sort's radix path --------------------------------------------------------------- */

typedef struct span {
  const unsigned char *p;
  size_t n;
} span;

static int span_cmp(const void *a, const void *b) {
  const span *x = a, *y = b;
  size_t m = x->n < y->n ? x->n : y->n;
  int d = memcmp(x->p, y->p, m);
  return d ? d : x->n < y->n ? -1 : x->n != y->n;
}

/* The expected output of sort [-r] [-u] over t[0..n). */
static unsigned char *reference_sort(const unsigned char *t, size_t n, bool rev, bool uniq,
                                     size_t *outlen) {
  size_t cnt = 0;
  for (size_t i = 0; i < n; i++) cnt += t[i] == '\n';
  if (n && t[n - 1] != '\n') cnt++;
  span *v = malloc((cnt + 1) * sizeof *v);
  size_t k = 0, s = 0;
  for (size_t i = 0; i <= n; i++)
    if (i == n ? s < n : t[i] == '\n') {
      v[k].p = t + s;
      v[k++].n = i - s;
      s = i + 1;
    }
  qsort(v, k, sizeof *v, span_cmp);
  unsigned char *o = malloc(n + 2), *q = o;
  for (size_t i = 0; i < k; i++) {
    size_t j = rev ? k - 1 - i : i;
    if (uniq && i > 0 && span_cmp(&v[j], &v[rev ? j + 1 : j - 1]) == 0) continue;
    memcpy(q, v[j].p, v[j].n);
    q += v[j].n;
    *q++ = '\n';
  }
  free(v);
  *outlen = (size_t)(q - o);
  return o;
}

static void check_sort(const unsigned char *t, size_t n, const char *label) {
  put("/w/s", t, n);
  static const char *const opts[] = {NULL, "-r", "-u", "-ru"};
  for (int o = 0; o < 4; o++) {
    size_t wl;
    unsigned char *want = reference_sort(t, n, o & 1, o >= 2, &wl);
    cmd_standalone_result r = o ? run((char *[]){"sort", (char *)opts[o], "s", NULL})
                                : run((char *[]){"sort", "s", NULL});
    bool same = r.status == 0 && r.outlen == wl && memcmp(r.out, want, wl) == 0;
    if (!same) fprintf(stderr, "  sort %s differs on %s\n", opts[o] ? opts[o] : "", label);
    CHECK(same);
    cmd_test_done(&r);
    free(want);
  }
}

TEST(sort_radix_matches_bytewise_reference) {
  size_t n;
  /* short lines over a tiny alphabet with NUL and 0xff: many ties */
  unsigned char *t = random_text(5000, 12, "ab\0\xff", 4, true, &n);
  check_sort(t, n, "tiny alphabet");
  free(t);
  /* no final newline, empty lines */
  t = random_text(3000, 20, "xyz", 3, false, &n);
  check_sort(t, n, "no final newline");
  free(t);
  /* long shared prefixes: ties past the radix levels (128 bytes) */
  size_t lines = 2000, k = 0;
  t = malloc(lines * 400);
  for (size_t i = 0; i < lines; i++) {
    size_t pre = (size_t)(rnd() % 3) * 90; /* 0, 90 or 180 common bytes */
    for (size_t j = 0; j < pre; j++) t[k++] = (unsigned char)('A' + j % 7);
    size_t l = (size_t)(rnd() % 12);
    for (size_t j = 0; j < l; j++) t[k++] = (unsigned char)("a\0b"[rnd() % 3]);
    t[k++] = '\n';
  }
  check_sort(t, k, "shared prefixes");
  free(t);
  /* many identical long lines and lengths 0..9 around the key window */
  k = 0;
  t = malloc(200000);
  for (size_t i = 0; i < 3000; i++) {
    size_t l = (size_t)(rnd() % 10);
    if (rnd() % 4 == 0) l = 40;
    for (size_t j = 0; j < l; j++) t[k++] = j < 9 ? 'q' : (unsigned char)('q' + (rnd() & 1));
    t[k++] = '\n';
  }
  check_sort(t, k, "lengths around the window");
  free(t);
  /* more than SORT_RADIX_CMP_MAX lines tied over 150 bytes: radix levels
   * all the way down to the merge-sort fallback past 128 bytes */
  k = 0;
  t = malloc(3000 * 170);
  for (size_t i = 0; i < 3000; i++) {
    for (size_t j = 0; j < 150; j++) t[k++] = (unsigned char)('a' + j % 5);
    size_t l = (size_t)(rnd() % 12);
    for (size_t j = 0; j < l; j++) t[k++] = (unsigned char)("xy\0"[rnd() % 3]);
    t[k++] = '\n';
  }
  check_sort(t, k, "deep ties");
  free(t);
}

/* ---- limits in the fast paths ---------------------------------------------------------- */

TEST(deadline_stops_a_big_sort) {
  /* 2.5 million short random lines (10 MB) */
  size_t n;
  unsigned char *t = random_text(2500000, 6, "abcdefghij", 10, true, &n);
  put("/w/huge", t, n);
  free(t);
  /* reading takes ~10 ms, sorting ~300 ms: the deadline falls in the sort */
  cmd_limits lim = {.max_ms = 60, .max_out = 0, .max_string = 0, .env = NULL};
  char *argv_sort[] = {"sort", "huge", NULL};
  cmd_standalone_result r;
  long ms = 0;
  double t0 = harness_now_ms();
  cmd_run_limited(st, "/w", 2, argv_sort, NULL, 0, &lim, &r, &ms);
  double took = harness_now_ms() - t0;
  CHECK(r.status != 0);    /* stopped, not finished */
  CHECK(r.outlen < n);     /* not the whole output */
  CHECK(took < 5000);
  cmd_test_done(&r);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  store_path_mkdir(st, "/", "/w", 0755);
  RUN(count_byte_matches_naive_at_every_alignment_and_length);
  RUN(count_byte_lane_counters_do_not_overflow);
  RUN(count_lines_with_matches_naive);
  RUN(wc_l_and_grep_c_agree_with_a_reference_on_large_inputs);
  RUN(grep_c_counts_nul_separated_records_in_binary_files);
  RUN(sort_radix_matches_bytewise_reference);
  RUN(deadline_stops_a_big_sort);
  store_close(st);
  return harness_done();
}
