/*
 * bytescan.c - bulk byte counting (see lib/bytescan.h).
 *
 * Design: counting newlines with memchr costs one call per line (~40-byte
 * lines make that most of `wc -l`). Here 16-byte vectors are compared with
 * the byte and the matches accumulated in per-lane 8-bit counters, which are
 * summed (psadbw) every 255 rounds before they can overflow: ~1 instruction
 * per 16 bytes, so the count runs at memory speed. SSE2 is part of x86-64,
 * so no run-time dispatch is needed; other machines use a word-at-a-time
 * (SWAR) loop with the same result.
 *
 * Lines containing a literal: 64 bytes at a time, one bit mask of the
 * positions holding the literal's first byte (and its last byte m-1 further,
 * which filters most false candidates), one of the line ends. Candidates are
 * verified with memcmp; the first match of a line counts it and moves the
 * scan past that line's end, found in the same end mask (or in a following
 * block). The literal holds no line end, so a match never spans two lines.
 */
#include "cmd/lib/bytescan.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && !defined(SBX_NO_SIMD) /* SBX_NO_SIMD: test the fallback */
#include <emmintrin.h>

size_t cmd_count_byte(const void *p, size_t n, unsigned char c) {
  const unsigned char *s = p;
  size_t total = 0;
  const __m128i needle = _mm_set1_epi8((char)c), zero = _mm_setzero_si128();
  while (n >= 64) {
    /* Up to 255 rounds of 4 vectors: each lane counter stays below 256. */
    size_t rounds = n / 64;
    if (rounds > 255) rounds = 255;
    __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
    for (size_t r = 0; r < rounds; r++, s += 64) {
      /* a match is 0xff (-1): subtracting it counts it */
      acc0 = _mm_sub_epi8(acc0, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)s), needle));
      acc1 = _mm_sub_epi8(acc1, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 16)), needle));
      acc2 = _mm_sub_epi8(acc2, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 32)), needle));
      acc3 = _mm_sub_epi8(acc3, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 48)), needle));
    }
    __m128i sum = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(acc0, zero), _mm_sad_epu8(acc1, zero)),
                                _mm_add_epi64(_mm_sad_epu8(acc2, zero), _mm_sad_epu8(acc3, zero)));
    total += (size_t)_mm_cvtsi128_si64(sum) +
             (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
    n -= rounds * 64;
  }
  for (size_t i = 0; i < n; i++) total += s[i] == c;
  return total;
}

/* Bit i set when p[i] == v, for i in 0..63. */
static inline uint64_t mask64(const unsigned char *p, __m128i v) {
  uint64_t a = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), v));
  uint64_t b = (uint16_t)_mm_movemask_epi8(
      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), v));
  uint64_t c = (uint16_t)_mm_movemask_epi8(
      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), v));
  uint64_t d = (uint16_t)_mm_movemask_epi8(
      _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), v));
  return a | b << 16 | c << 32 | d << 48;
}

/* The vector part of cmd_count_lines_with: blocks while a whole block and
 * the literal's tail fit. *pos gets where the scalar rest starts (the first
 * byte not yet known to be in a counted line). */
static size_t count_lines_blocks(const unsigned char *p, size_t n, const unsigned char *lit,
                                 size_t m, unsigned char eol, size_t *pos) {
  const __m128i vf = _mm_set1_epi8((char)lit[0]), vl = _mm_set1_epi8((char)lit[m - 1]),
                ve = _mm_set1_epi8((char)eol);
  size_t count = 0, i = 0;
  size_t skip = 0;      /* leading bytes of this block inside a counted line */
  bool pending = false; /* a counted line's end is still ahead */
  for (; n >= m - 1 + 64 && i <= n - (m - 1) - 64; i += 64, skip = 0) {
    uint64_t ends = mask64(p + i, ve);
    if (pending) {
      if (!ends) continue; /* the whole block is inside the counted line */
      skip = (size_t)__builtin_ctzll(ends) + 1;
      pending = false;
    }
    uint64_t cand = mask64(p + i, vf);
    if (m > 1) cand &= mask64(p + i + m - 1, vl);
    if (skip) cand = skip >= 64 ? 0 : cand & (~0ull << skip);
    while (cand) {
      unsigned b = (unsigned)__builtin_ctzll(cand);
      if (m > 2 && memcmp(p + i + b + 1, lit + 1, m - 2) != 0) {
        cand &= cand - 1;
        continue;
      }
      count++;
      uint64_t later = ends & (~1ull << b); /* line ends after the match */
      if (!later) {
        pending = true;
        break;
      }
      unsigned e = (unsigned)__builtin_ctzll(later);
      cand = e >= 63 ? 0 : cand & (~0ull << (e + 1));
    }
  }
  if (pending) { /* the rest of the counted line is not to be searched */
    const unsigned char *q = i < n ? memchr(p + i, eol, n - i) : NULL;
    i = q ? (size_t)(q - p) + 1 : n;
  }
  *pos = i;
  return count;
}

#define HAVE_COUNT_LINES_BLOCKS 1

#else

size_t cmd_count_byte(const void *p, size_t n, unsigned char c) {
  const unsigned char *s = p;
  size_t total = 0;
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const uint64_t pat = ones * c;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    uint64_t x = w ^ pat; /* zero bytes where equal */
    /* exact zero-byte mask: high bit set iff the byte is zero */
    uint64_t z = ~(((x & ~highs) + ~highs) | x | ~highs);
    total += (size_t)__builtin_popcountll(z);
    s += 8;
    n -= 8;
  }
  for (size_t i = 0; i < n; i++) total += s[i] == c;
  return total;
}

#endif

size_t cmd_count_lines_with(const void *data, size_t n, const void *litp, size_t m,
                            unsigned char eol) {
  const unsigned char *p = data, *lit = litp;
  size_t count = 0, pos = 0;
  if (m == 0 || n < m) return 0;
#ifdef HAVE_COUNT_LINES_BLOCKS
  count = count_lines_blocks(p, n, lit, m, eol, &pos);
#endif
  while (pos < n) {
    const unsigned char *hit = memmem(p + pos, n - pos, lit, m);
    if (!hit) break;
    count++;
    const unsigned char *q = memchr(hit, eol, n - (size_t)(hit - p));
    if (!q) break;
    pos = (size_t)(q - p) + 1;
  }
  return count;
}
