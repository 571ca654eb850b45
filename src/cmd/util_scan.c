/*
 * util_scan.c - bulk byte counting (see util_scan.h).
 *
 * Design: counting newlines with memchr costs one call per line (~40-byte
 * lines make that most of `wc -l`). Here 16-byte vectors are compared with
 * the byte and the matches accumulated in per-lane 8-bit counters, which are
 * summed (psadbw) every 255 vectors before they can overflow: ~1 instruction
 * per 16 bytes, so the count runs at memory speed. SSE2 is part of x86-64,
 * so no run-time dispatch is needed; other machines use a word-at-a-time
 * (SWAR) loop with the same result.
 */
#include "cmd/util_scan.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || (defined(__SSE2__) && defined(__i386__))
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
