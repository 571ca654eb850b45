/*
 * shuf - generate random permutations.
 *
 *   Usage: shuf [OPTION]... [FILE]
 *     or:  shuf -e [OPTION]... [ARG]...
 *     or:  shuf -i LO-HI [OPTION]...
 *   -e, --echo   -i, --input-range=LO-HI   -n, --head-count=COUNT
 *   -o, --output=FILE   --random-source=FILE   -r, --repeat   -z, --zero-terminated
 *
 * Design: lines (or -e arguments) are read whole (bounded by 8 x
 * ctx->max_string) and shuffled with Fisher-Yates; -i LO-HI never builds the
 * range: a partial Fisher-Yates over a small hash map of displaced values
 * draws -n COUNT distinct numbers from ranges of any size, and -r draws with
 * replacement (forever without -n, until the reader stops or the call is
 * cancelled). The generator is xoshiro256** seeded from the clock and
 * addresses, or from the first 32 bytes of --random-source (so a source file
 * gives a reproducible order, though not GNU's). Uniform draws use rejection
 * sampling. -o writes after all input is read, so it may name the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("shuf", cmd_shuf_main);

typedef struct shuf_rng {
  uint64_t s[4]; /* xoshiro256** state */
} shuf_rng;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(shuf_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A uniform integer in [0, n) (n > 0). */
static uint64_t rng_below(shuf_rng *r, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t v;
  do v = rng_next(r);
  while (v >= limit);
  return v % n;
}

/* A small open-addressing map for the sparse Fisher-Yates over -i ranges. */
typedef struct shuf_map {
  uint64_t *keys, *vals; /* slots (key UINT64_MAX = empty) */
  size_t cap, used;
} shuf_map;

static uint64_t map_get(shuf_map *m, uint64_t k) {
  if (m->cap == 0) return k;
  for (size_t i = (size_t)(k * 0x9e3779b97f4a7c15ULL) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == UINT64_MAX) return k;
    if (m->keys[i] == k) return m->vals[i];
  }
}

static int map_put(shuf_map *m, uint64_t k, uint64_t v) {
  if ((m->used + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = malloc(nc * sizeof *nk), *nv = malloc(nc * sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return -1;
    }
    for (size_t i = 0; i < nc; i++) nk[i] = UINT64_MAX;
    shuf_map old = *m;
    m->keys = nk;
    m->vals = nv;
    m->cap = nc;
    m->used = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i] != UINT64_MAX) map_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
  }
  size_t i = (size_t)(k * 0x9e3779b97f4a7c15ULL) & (m->cap - 1);
  while (m->keys[i] != UINT64_MAX && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
  if (m->keys[i] == UINT64_MAX) m->used++;
  m->keys[i] = k;
  m->vals[i] = v;
  return 0;
}

static int shuf_range_error(cmd_ctx *ctx, const char *s) {
  cmd_errorf(ctx, "invalid input range: %s", cmd_gnu_quote(ctx, s));
  return 1;
}

static const char shuf_usage[] =
    "Usage: shuf [OPTION]... [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n"
    "  or:  shuf -i LO-HI [OPTION]...\n"
    "Write a random permutation of the input lines to standard output.\n\n"
    "  -e, --echo                treat each ARG as an input line\n"
    "  -i, --input-range=LO-HI   treat each number LO through HI as an input line\n"
    "  -n, --head-count=COUNT    output at most COUNT lines\n"
    "  -o, --output=FILE         write result to FILE instead of standard output\n"
    "      --random-source=FILE  get random bytes from FILE\n"
    "  -r, --repeat              output lines can be repeated\n"
    "  -z, --zero-terminated     line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

int cmd_shuf_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_RANDOM_SOURCE = CMD_OPT_LONG };
  /* --help and --version after these: "--h" names '--head-count' '--help' */
  static const char spec[] = "(help)(version)(random-source):e(echo)i:(input-range)n:(head-count)o:(output)"
                             "r(repeat)z(zero-terminated)";
  bool echo = false, repeat = false;
  const char *range = NULL, *outpath = NULL, *source = NULL;
  uintmax_t count = UINTMAX_MAX;
  char eol = '\n';
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'e': echo = true; break;
    case 'i':
      if (range) {
        cmd_errorf(ctx, "multiple -i options specified");
        return 1;
      }
      range = g.arg;
      break;
    case 'n': {
      uintmax_t v;
      if (cmd_parse_count_or_max(ctx, g.arg, "invalid line count", &v) < 0) return 1;
      if (v < count) count = v;
      break;
    }
    case 'o':
      if (outpath && strcmp(outpath, g.arg) != 0) {
        cmd_errorf(ctx, "multiple output files specified");
        return 1;
      }
      outpath = g.arg;
      break;
    case O_RANDOM_SOURCE:
      if (source && strcmp(source, g.arg) != 0) {
        cmd_errorf(ctx, "multiple random sources specified");
        return 1;
      }
      source = g.arg;
      break;
    case 'r': repeat = true; break;
    case 'z': eol = '\0'; break;
    CMD_CASES_HELP_VERSION(ctx, shuf_usage);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (echo && range) {
    cmd_errorf(ctx, "cannot combine -e and -i options");
    return cmd_usage_hint(ctx, 1);
  }
  int nops = argc - g.ind;
  if (!echo && nops > (range ? 0 : 1)) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + (range ? 0 : 1)]));
    return cmd_usage_hint(ctx, 1);
  }
  /* -i LO-HI */
  uintmax_t lo = 0, hi = 0;
  if (range) {
    const char *dash = strchr(range, '-');
    if (!dash) return shuf_range_error(ctx, range);
    char *lostr = cmd_alloc(ctx, (size_t)(dash - range) + 1);
    if (!lostr) return 1;
    memcpy(lostr, range, (size_t)(dash - range));
    if (cmd_parse_umax(lostr, NULL, &lo) != CMD_NUM_OK ||
        cmd_parse_umax(dash + 1, NULL, &hi) != CMD_NUM_OK || (hi < lo && hi + 1 != lo) ||
        (lo == 0 && hi == UINTMAX_MAX))
      return shuf_range_error(ctx, range);
  }
  /* The generator. */
  shuf_rng rng;
  if (source) {
    unsigned char seed[32];
    cmd_in *in;
    int r = cmd_in_open(ctx, source, &in);
    if (r < 0) return cmd_gnu_perror(ctx, source, r);
    memset(seed, 0, sizeof seed);
    ssize_t got = cmd_in_read(in, seed, sizeof seed);
    cmd_in_close(in);
    if (got <= 0) {
      cmd_errorf(ctx, "%s: end of file", cmd_gnu_quotef(ctx, source));
      return 1;
    }
    uint64_t x = 0;
    for (int i = 0; i < 32; i++) x = x * 131 + seed[i];
    for (int i = 0; i < 4; i++) rng.s[i] = splitmix(&x);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)(uintptr_t)&rng;
    for (int i = 0; i < 4; i++) rng.s[i] = splitmix(&x);
  }
  /* Input lines. */
  char **lines = NULL;
  size_t *lens = NULL;
  size_t nlines = 0;
  char *data = NULL;
  if (echo) {
    nlines = (size_t)nops;
    lines = argv + g.ind;
  } else if (!range) {
    size_t len;
    const char *name = nops ? argv[g.ind] : "-";
    size_t limit = ctx->max_string ? (size_t)ctx->max_string * 8 : (size_t)1 << 30;
    int r = cmd_read_all(ctx, name, limit, &data, &len);
    if (r < 0) return cmd_gnu_perror(ctx, name, r);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += data[i] == eol;
    if (len && data[len - 1] != eol) n++;
    lines = malloc((n ? n : 1) * sizeof *lines);
    lens = malloc((n ? n : 1) * sizeof *lens);
    if (!lines || !lens) {
      free(lines);
      free(lens);
      free(data);
      return 1;
    }
    for (size_t p = 0; p < len;) {
      char *e = memchr(data + p, eol, len - p);
      size_t l = e ? (size_t)(e - data) - p : len - p;
      lines[nlines] = data + p;
      lens[nlines++] = l;
      p += l + 1;
    }
  }
  int status = 0;
  cmd_outfile out;
  int r = cmd_outfile_open(ctx, &out, outpath, O_WRONLY | O_CREAT | O_TRUNC);
  if (r < 0) {
    status = cmd_gnu_perror(ctx, outpath, r);
    goto done;
  }
  uint64_t total = range ? (uint64_t)(hi - lo + 1) : nlines; /* hi+1 == lo gives 0 */
  if (range && hi + 1 == lo) total = 0;
  if (repeat) {
    if (total == 0) {
      if (count > 0) {
        cmd_errorf(ctx, "no lines to repeat");
        status = 1;
      }
    } else {
      for (uintmax_t k = 0; k < count; k++) {
        uint64_t i = rng_below(&rng, total);
        if (range) {
          char num[32];
          int l = snprintf(num, sizeof num, "%ju%c", (uintmax_t)(lo + i), eol);
          cmd_outfile_write(&out, num, (size_t)l);
        } else {
          cmd_outfile_write(&out, lines[i], lens ? lens[i] : strlen(lines[i]));
          cmd_outfile_write(&out, &eol, 1);
        }
        if (out.err || ((k & 1023) == 0 && cmd_poll(ctx))) break;
      }
    }
  } else {
    uint64_t want = count < total ? count : total;
    if (range) {
      shuf_map m = {0};
      for (uint64_t k = 0; k < want; k++) {
        uint64_t j = k + rng_below(&rng, total - k);
        uint64_t vj = map_get(&m, j), vk = map_get(&m, k);
        if (map_put(&m, j, vk) < 0) break;
        char num[32];
        int l = snprintf(num, sizeof num, "%ju%c", (uintmax_t)(lo + vj), eol);
        cmd_outfile_write(&out, num, (size_t)l);
        if (out.err || ((k & 1023) == 0 && cmd_poll(ctx))) break;
      }
      free(m.keys);
      free(m.vals);
    } else {
      for (uint64_t k = 0; k < want; k++) {
        uint64_t j = k + rng_below(&rng, total - k);
        char *t = lines[j];
        lines[j] = lines[k];
        lines[k] = t;
        if (lens) {
          size_t tl = lens[j];
          lens[j] = lens[k];
          lens[k] = tl;
        }
        cmd_outfile_write(&out, lines[k], lens ? lens[k] : strlen(lines[k]));
        cmd_outfile_write(&out, &eol, 1);
        if (out.err) break;
      }
    }
  }
  {
    bool to_stdout = out.fd == 1;
    int w = cmd_outfile_close(&out);
    if (w < 0) {
      if (to_stdout) status = cmd_write_error(ctx, w);
      else status = cmd_gnu_perror(ctx, outpath, w);
    }
  }
done:
  if (!echo) {
    free(lines);
    free(lens);
  }
  free(data);
  return status;
}
