/*
 * md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, b2sum, cksum,
 * sum - compute and check message digests and checksums (coreutils 9.1).
 *
 *   Usage: md5sum [OPTION]... [FILE]...      (and the other *sum commands)
 *   -b, --binary  -t, --text  --tag  -z, --zero  -c, --check
 *   --ignore-missing  --quiet  --status  --strict  -w, --warn
 *   b2sum -l, --length=BITS
 *   cksum [-a ALGO] [-l BITS] [--tag|--untagged] [-c] [FILE]...
 *         ALGO: bsd sysv crc (default) md5 sha1 sha224 sha256 sha384 sha512 blake2b
 *   sum [-r|-s] [FILE]...
 *
 * Design: one file, as in GNU's digest.c, because the commands share the
 * output format ("HASH  NAME", BSD "ALG (NAME) = HASH", names with \n, \r or
 * \\ escaped behind a leading backslash) and the whole --check machinery
 * (messages, warnings, exit status). MD5 and SHA come from OpenSSL's EVP;
 * BLAKE2b is implemented here from RFC 7693 because its output length is a
 * parameter of the hash (b2sum -l) that OpenSSL 3.0's EVP does not expose.
 * The POSIX CRC (cksum) and the BSD/SysV sums are table/loop code.
 */
#include <errno.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("md5sum", cmd_digest_main);
CMD_DEFINE("sha1sum", cmd_digest_main);
CMD_DEFINE("sha224sum", cmd_digest_main);
CMD_DEFINE("sha256sum", cmd_digest_main);
CMD_DEFINE("sha384sum", cmd_digest_main);
CMD_DEFINE("sha512sum", cmd_digest_main);
CMD_DEFINE("b2sum", cmd_digest_main);
CMD_DEFINE("cksum", cmd_digest_main);
CMD_DEFINE("sum", cmd_digest_main);

#define DG_BLOCK 65536

enum dg_algo { A_BSD, A_SYSV, A_CRC, A_MD5, A_SHA1, A_SHA224, A_SHA256, A_SHA384,
               A_SHA512, A_BLAKE2B, A_COUNT };

/* Names as in `cksum -a`, tags of BSD-style lines, and digest sizes. */
static const char *const dg_names[A_COUNT] = {"bsd",    "sysv",   "crc",    "md5",
                                              "sha1",   "sha224", "sha256", "sha384",
                                              "sha512", "blake2b"};
static const char *const dg_tags[A_COUNT] = {NULL,     NULL,     NULL,     "MD5",
                                             "SHA1",   "SHA224", "SHA256", "SHA384",
                                             "SHA512", "BLAKE2b"};
static const int dg_bytes[A_COUNT] = {0, 0, 0, 16, 20, 28, 32, 48, 64, 64};

/* ---- BLAKE2b (RFC 7693) ------------------------------------------------------ */

typedef struct b2_ctx {
  uint64_t h[8];          /* chain value */
  uint64_t t[2];          /* byte counter */
  unsigned char buf[128]; /* pending block */
  size_t len;             /* bytes in buf */
  size_t outlen;          /* digest bytes (1..64) */
} b2_ctx;

static const uint64_t b2_iv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
                                  0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                                  0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                  0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const unsigned char b2_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

#define B2_G(a, b, c, d, x, y)       \
  do {                               \
    v[a] = v[a] + v[b] + (x);        \
    v[d] = rotr64(v[d] ^ v[a], 32);  \
    v[c] = v[c] + v[d];              \
    v[b] = rotr64(v[b] ^ v[c], 24);  \
    v[a] = v[a] + v[b] + (y);        \
    v[d] = rotr64(v[d] ^ v[a], 16);  \
    v[c] = v[c] + v[d];              \
    v[b] = rotr64(v[b] ^ v[c], 63);  \
  } while (0)

static void b2_compress(b2_ctx *c, const unsigned char *block, bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; i++) {
    uint64_t w = 0;
    for (int k = 7; k >= 0; k--) w = (w << 8) | block[i * 8 + k];
    m[i] = w;
  }
  for (int i = 0; i < 8; i++) {
    v[i] = c->h[i];
    v[i + 8] = b2_iv[i];
  }
  v[12] ^= c->t[0];
  v[13] ^= c->t[1];
  if (last) v[14] = ~v[14];
  for (int r = 0; r < 12; r++) {
    const unsigned char *s = b2_sigma[r];
    B2_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
    B2_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
    B2_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
    B2_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
    B2_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
    B2_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
    B2_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
    B2_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; i++) c->h[i] ^= v[i] ^ v[i + 8];
}

static void b2_init(b2_ctx *c, size_t outlen) {
  memset(c, 0, sizeof *c);
  memcpy(c->h, b2_iv, sizeof c->h);
  c->h[0] ^= 0x01010000ULL ^ (uint64_t)outlen;
  c->outlen = outlen;
}

static void b2_add(b2_ctx *c, size_t n) {
  c->t[0] += n;
  if (c->t[0] < n) c->t[1]++;
}

static void b2_update(b2_ctx *c, const unsigned char *p, size_t n) {
  while (n > 0) {
    if (c->len == 128) { /* only compress once more data follows */
      b2_add(c, 128);
      b2_compress(c, c->buf, false);
      c->len = 0;
    }
    size_t k = 128 - c->len < n ? 128 - c->len : n;
    memcpy(c->buf + c->len, p, k);
    c->len += k;
    p += k;
    n -= k;
  }
}

static void b2_final(b2_ctx *c, unsigned char *out) {
  b2_add(c, c->len);
  memset(c->buf + c->len, 0, 128 - c->len);
  b2_compress(c, c->buf, true);
  for (size_t i = 0; i < c->outlen; i++) out[i] = (unsigned char)(c->h[i / 8] >> (8 * (i % 8)));
}

/* ---- CRC and sums ---------------------------------------------------------------- */

/* Filled once for the process (pthread_once: a sandbox on another thread
 * must not see a half-filled table). */
static uint32_t crc_table[256];
static pthread_once_t crc_table_once = PTHREAD_ONCE_INIT;

static void crc_fill_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i << 24;
    for (int k = 0; k < 8; k++) c = (c & 0x80000000u) ? (c << 1) ^ 0x04c11db7u : c << 1;
    crc_table[i] = c;
  }
}

/* ---- hashing a file --------------------------------------------------------------- */

typedef struct dg_result {
  unsigned char md[64];  /* digest bytes */
  uint32_t sum;          /* crc / bsd / sysv value */
  uintmax_t size;        /* bytes read */
} dg_result;

/* Hashes one input. Returns 0 or a negative errno. */
static int dg_file(cmd_ctx *ctx, const char *name, enum dg_algo algo, size_t outlen,
                   unsigned char *buf, dg_result *res) {
  int fd = cmd_open_input(ctx, name);
  if (fd < 0) return fd;
  memset(res, 0, sizeof *res);
  EVP_MD_CTX *md = NULL;
  b2_ctx b2;
  uint32_t crc = 0, bsd = 0, sysv = 0;
  if (algo >= A_MD5 && algo <= A_SHA512) {
    const EVP_MD *type = algo == A_MD5      ? EVP_md5()
                         : algo == A_SHA1   ? EVP_sha1()
                         : algo == A_SHA224 ? EVP_sha224()
                         : algo == A_SHA256 ? EVP_sha256()
                         : algo == A_SHA384 ? EVP_sha384()
                                            : EVP_sha512();
    md = EVP_MD_CTX_new();
    if (!md || !EVP_DigestInit_ex(md, type, NULL)) {
      EVP_MD_CTX_free(md);
      cmd_close_input(ctx, fd);
      return -ENOMEM;
    }
  } else if (algo == A_BLAKE2B) {
    b2_init(&b2, outlen);
  } else if (algo == A_CRC) {
    pthread_once(&crc_table_once, crc_fill_table);
  }
  int rc = 0;
  for (;;) {
    if (cmd_poll(ctx)) {
      rc = -EINTR;
      break;
    }
    ssize_t n = ctx->io->read(ctx->io_ud, fd, buf, DG_BLOCK);
    if (n == -EINTR) continue;
    if (n < 0) {
      rc = (int)n;
      break;
    }
    if (n == 0) break;
    res->size += (uintmax_t)n;
    switch (algo) {
    case A_BSD:
      for (ssize_t i = 0; i < n; i++) {
        bsd = (bsd >> 1) + ((bsd & 1) << 15);
        bsd = (bsd + buf[i]) & 0xffff;
      }
      break;
    case A_SYSV:
      for (ssize_t i = 0; i < n; i++) sysv += buf[i];
      break;
    case A_CRC:
      for (ssize_t i = 0; i < n; i++) crc = (crc << 8) ^ crc_table[(crc >> 24) ^ buf[i]];
      break;
    case A_BLAKE2B: b2_update(&b2, buf, (size_t)n); break;
    default: EVP_DigestUpdate(md, buf, (size_t)n); break;
    }
  }
  cmd_close_input(ctx, fd);
  if (rc == 0) {
    if (algo == A_BSD) {
      res->sum = bsd;
    } else if (algo == A_SYSV) {
      uint32_t r = (sysv & 0xffff) + ((sysv & 0xffffffffu) >> 16);
      res->sum = (r & 0xffff) + (r >> 16);
    } else if (algo == A_CRC) {
      for (uintmax_t len = res->size; len; len >>= 8)
        crc = (crc << 8) ^ crc_table[(crc >> 24) ^ (len & 0xff)];
      res->sum = ~crc;
    } else if (algo == A_BLAKE2B) {
      b2_final(&b2, res->md);
    } else {
      unsigned int l;
      EVP_DigestFinal_ex(md, res->md, &l);
    }
  }
  EVP_MD_CTX_free(md);
  return rc;
}

/* ---- names ------------------------------------------------------------------------- */

static bool dg_needs_escape(const char *name) { return strpbrk(name, "\\\n\r") != NULL; }

static void dg_out_name(cmd_ctx *ctx, const char *name, bool escape) {
  if (!escape) {
    cmd_outs(ctx, name);
    return;
  }
  for (const char *p = name; *p; p++) {
    if (*p == '\\') cmd_outs(ctx, "\\\\");
    else if (*p == '\n') cmd_outs(ctx, "\\n");
    else if (*p == '\r') cmd_outs(ctx, "\\r");
    else cmd_outc(ctx, *p);
  }
}

static void dg_out_hex(cmd_ctx *ctx, const unsigned char *md, size_t n) {
  static const char hex[] = "0123456789abcdef";
  char s[129];
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = hex[md[i] >> 4];
    s[2 * i + 1] = hex[md[i] & 15];
  }
  cmd_out(ctx, s, n * 2);
}

/* "BLAKE2b" or "BLAKE2b-256" for a non-default length. */
static const char *dg_tag(cmd_ctx *ctx, enum dg_algo algo, size_t outlen) {
  if (algo != A_BLAKE2B || outlen == 64) return dg_tags[algo];
  char *s = cmd_alloc(ctx, 40);
  if (s) snprintf(s, 40, "BLAKE2b-%zu", outlen * 8);
  return s ? s : "BLAKE2b";
}

/* ---- check mode -------------------------------------------------------------------- */

typedef struct dg_opts {
  enum dg_algo algo;      /* the algorithm (cksum without -a: A_CRC) */
  bool algo_given;        /* cksum -a was used (or a *sum command) */
  size_t outlen;          /* digest bytes */
  bool tag;               /* BSD-style output */
  bool binary;            /* -b: '*' marker */
  bool zero;              /* -z */
  bool quiet, status, strict, warn, ignore_missing;
  const char *algo_name;  /* "MD5", "SHA1"... for messages */
} dg_opts;

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Unescapes a name from a checksum line in place; false if invalid. */
static bool dg_unescape(char *s) {
  char *o = s;
  for (char *p = s; *p; p++) {
    if (*p != '\\') {
      *o++ = *p;
      continue;
    }
    p++;
    if (*p == '\\') *o++ = '\\';
    else if (*p == 'n') *o++ = '\n';
    else if (*p == 'r') *o++ = '\r';
    else return false;
  }
  *o = 0;
  return true;
}

static bool dg_is_white(char c) { return c == ' ' || c == '\t'; }

static bool dg_hex_ok(const char *h, size_t len) {
  if (strlen(h) != len * 2) return false;
  for (; *h; h++)
    if (hexval((unsigned char)*h) < 0) return false;
  return true;
}

/* Parses one checksum line like GNU's split_3: BSD "TAG (NAME) = HEX" (only
 * this command's tag; any tag for cksum without -a) or "HEX NAME", where a
 * ' ' or '*' after the separator marks text/binary unless the first line of
 * the file used the single-space form (*bsd_reversed, -1 = undecided).
 * Returns false if improperly formatted. */
static bool dg_parse_line(const dg_opts *o, char *s, size_t slen, int *bsd_reversed,
                          enum dg_algo *algo, size_t *outlen, char **hex, char **name) {
  size_t i = 0;
  while (dg_is_white(s[i])) i++;
  bool escaped = s[i] == '\\';
  if (escaped) i++;
  for (int a = A_MD5; a < A_COUNT; a++) {
    if (o->algo_given && a != (int)o->algo) continue;
    size_t tl = strlen(dg_tags[a]);
    if (strncmp(s + i, dg_tags[a], tl) != 0) continue;
    size_t k = i + tl;
    size_t len = (size_t)dg_bytes[a];
    if (a == A_BLAKE2B && s[k] == '-') {
      char *end;
      unsigned long bits = strtoul(s + k + 1, &end, 10);
      if (end == s + k + 1 || bits == 0 || bits > 512 || bits % 8) return false;
      len = bits / 8;
      k = (size_t)(end - s);
    }
    if (s[k] == ' ') k++;
    if (s[k] != '(') {
      if (o->algo_given) return false;
      continue;
    }
    k++;
    /* The name runs to the last ')'. */
    size_t e = slen;
    while (e > k && s[e - 1] != ')') e--;
    if (e == k) return false;
    size_t close = e - 1;
    s[close] = 0;
    *name = s + k;
    if (escaped && !dg_unescape(*name)) return false;
    size_t m = close + 1;
    while (dg_is_white(s[m])) m++;
    if (s[m] != '=') return false;
    m++;
    while (dg_is_white(s[m])) m++;
    *hex = s + m;
    *algo = (enum dg_algo)a;
    *outlen = len;
    return dg_hex_ok(*hex, len);
  }
  if (!o->algo_given) return false; /* cksum -c without -a: tagged lines only */
  size_t n = 0;
  while (hexval((unsigned char)s[i + n]) >= 0) n++;
  size_t want = o->outlen ? o->outlen * 2 : n; /* b2sum -c: any length */
  if (n == 0 || n != want || n > 128 || n % 2) return false;
  if (slen - i < want + 2) return false;
  if (!dg_is_white(s[i + n])) return false;
  s[i + n] = 0;
  *hex = s + i;
  size_t k = i + n + 1;
  if (slen - k == 1 || (s[k] != ' ' && s[k] != '*')) {
    if (*bsd_reversed == 0) return false;
    *bsd_reversed = 1;
  } else if (*bsd_reversed != 1) {
    *bsd_reversed = 0;
    k++;
  }
  *name = s + k;
  *algo = o->algo;
  *outlen = n / 2;
  return !escaped || dg_unescape(*name);
}

static int dg_check(cmd_ctx *ctx, const dg_opts *o, const char *listname, unsigned char *buf) {
  cmd_in *in;
  int r = cmd_in_open(ctx, listname, &in);
  if (r < 0) return cmd_gnu_perror(ctx, listname, r);
  const char *shown = strcmp(listname, "-") == 0 ? "standard input" : listname;
  uintmax_t lineno = 0, bad_format = 0, unreadable = 0, mismatched = 0, properly = 0,
            verified = 0;
  int bsd_reversed = -1;
  int status = 0;
  for (;;) {
    char *line;
    ssize_t n = cmd_in_getdelim(in, &line, o->zero ? '\0' : '\n');
    if (n < 0) {
      cmd_gnu_perror(ctx, listname, (int)n);
      status = 1;
      break;
    }
    if (n == 0) break;
    lineno++;
    size_t len = (size_t)n;
    if (line[len - 1] == (o->zero ? '\0' : '\n')) len--;
    if (len && line[len - 1] == '\r' && !o->zero) len--;
    if (len == 0 || line[0] == '#') continue; /* empty and comment lines */
    char *copy = strndup(line, len);
    if (!copy) break;
    enum dg_algo algo;
    size_t outlen;
    char *hex, *name;
    if (!dg_parse_line(o, copy, len, &bsd_reversed, &algo, &outlen, &hex, &name)) {
      bad_format++;
      if (o->warn)
        cmd_errorf(ctx, "%s: %ju: improperly formatted %s checksum line",
                   cmd_gnu_quotef(ctx, shown), lineno, o->algo_name);
      free(copy);
      continue;
    }
    properly++;
    dg_result res;
    r = dg_file(ctx, name, algo, outlen, buf, &res);
    /* In check output only a newline forces the escaped form (as GNU). */
    bool esc = strchr(name, '\n') != NULL;
    if (r < 0) {
      if (r == -EINTR) {
        free(copy);
        status = 1;
        break;
      }
      if (!(o->ignore_missing && r == -ENOENT)) {
        cmd_gnu_perror(ctx, name, r);
        unreadable++;
        if (!o->status) {
          if (esc) cmd_outc(ctx, '\\');
          dg_out_name(ctx, name, esc);
          cmd_outs(ctx, ": FAILED open or read\n");
        }
      }
      free(copy);
      continue;
    }
    verified++;
    bool ok = true;
    for (size_t i = 0; i < outlen; i++) {
      int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
      if ((unsigned)(hi * 16 + lo) != res.md[i]) ok = false;
    }
    if (!ok) mismatched++;
    if (!o->status && (!ok || !o->quiet)) {
      if (esc) cmd_outc(ctx, '\\');
      dg_out_name(ctx, name, esc);
      cmd_outs(ctx, ok ? ": OK\n" : ": FAILED\n");
    }
    free(copy);
    if (ctx->out_err) break;
  }
  cmd_in_close(in);
  if (properly == 0) {
    cmd_errorf(ctx, "%s: no properly formatted checksum lines found",
               cmd_gnu_quotef(ctx, shown));
    return 1;
  }
  if (!o->status) {
    if (bad_format)
      cmd_errorf(ctx, "WARNING: %ju line%s improperly formatted", bad_format,
                 bad_format == 1 ? " is" : "s are");
    if (unreadable)
      cmd_errorf(ctx, "WARNING: %ju listed file%s could not be read", unreadable,
                 unreadable == 1 ? "" : "s");
    if (mismatched)
      cmd_errorf(ctx, "WARNING: %ju computed checksum%s did NOT match", mismatched,
                 mismatched == 1 ? "" : "s");
    if (o->ignore_missing && verified == 0)
      cmd_errorf(ctx, "%s: no file was verified", cmd_gnu_quotef(ctx, shown));
  }
  if (mismatched || unreadable || (o->strict && bad_format) ||
      (o->ignore_missing && verified == 0))
    status = 1;
  return status;
}

/* ---- main --------------------------------------------------------------------------- */

static int dg_usage(cmd_ctx *ctx, bool is_cksum) {
  cmd_outf(ctx, "Usage: %s [OPTION]... [FILE]...\n", ctx->name);
  if (is_cksum) cmd_outs(ctx, "Print or verify checksums.\nBy default use the 32 bit CRC algorithm.\n");
  else cmd_outf(ctx, "Print or check %s checksums.\n", ctx->name);
  cmd_outs(ctx, "\nWith no FILE, or when FILE is -, read standard input.\n\n"
                "  -b, --binary         read in binary mode\n"
                "  -c, --check          read checksums from the FILEs and check them\n"
                "      --tag            create a BSD-style checksum\n"
                "  -t, --text           read in text mode (default)\n"
                "  -z, --zero           end each output line with NUL, not newline,\n"
                "                         and disable file name escaping\n"
                "      --ignore-missing  don't fail or report status for missing files\n"
                "      --quiet          don't print OK for each successfully verified file\n"
                "      --status         don't output anything, status code shows success\n"
                "      --strict         exit non-zero for improperly formatted checksum lines\n"
                "  -w, --warn           warn about improperly formatted checksum lines\n"
                CMD_HELP_VERSION_LINES);
  return 0;
}

static const char sum_usage[] =
    "Usage: sum [OPTION]... [FILE]...\nPrint or check BSD (16-bit) checksums.\n\n"
    "  -r              use BSD sum algorithm (the default), use 1K blocks\n"
    "  -s, --sysv      use System V sum algorithm, use 512 bytes blocks\n"
    CMD_HELP_VERSION_LINES;

static int sum_main(cmd_ctx *ctx, int argc, char **argv) {
  enum dg_algo algo = A_BSD;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  static const char spec[] = "(help)(version)rs(sysv)";
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'r': algo = A_BSD; break; /* the last of -r and -s counts */
    case 's': algo = A_SYSV; break;
    CMD_CASES_HELP_VERSION(ctx, sum_usage);
    case '?': return 1;
    }
  }
  unsigned char *buf = cmd_alloc(ctx, DG_BLOCK);
  if (!buf) return 1;
  int nfiles;
  char **files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int status = 0;
  for (int i = 0; i < nfiles; i++) {
    dg_result res;
    int r = dg_file(ctx, files[i], algo, 0, buf, &res);
    if (r < 0) {
      status = cmd_gnu_perror(ctx, files[i], r);
      continue;
    }
    if (algo == A_BSD) cmd_outf(ctx, "%05u %5ju", res.sum, (res.size + 1023) / 1024);
    else cmd_outf(ctx, "%u %ju", res.sum, (res.size + 511) / 512);
    if (g.ind < argc) cmd_outf(ctx, " %s", files[i]);
    cmd_outc(ctx, '\n');
  }
  return status;
}

int cmd_digest_main(cmd_ctx *ctx, int argc, char **argv) {
  const char *base = strrchr(ctx->name, '/') ? strrchr(ctx->name, '/') + 1 : ctx->name;
  if (strcmp(base, "sum") == 0) return sum_main(ctx, argc, argv);
  bool is_cksum = strcmp(base, "cksum") == 0, is_b2 = strcmp(base, "b2sum") == 0;
  dg_opts o = {0};
  o.algo_given = !is_cksum;
  o.algo = is_cksum ? A_CRC
           : is_b2 ? A_BLAKE2B
           : strncmp(base, "md5", 3) == 0 ? A_MD5
           : strncmp(base, "sha1", 4) == 0 ? A_SHA1
           : strncmp(base, "sha224", 6) == 0 ? A_SHA224
           : strncmp(base, "sha256", 6) == 0 ? A_SHA256
           : strncmp(base, "sha384", 6) == 0 ? A_SHA384
                                            : A_SHA512;
  /* Every name has --length and --algorithm (-l and -a only b2sum and cksum). */
  enum { O_TAG = CMD_OPT_LONG, O_UNTAGGED, O_IGNORE_MISSING, O_QUIET, O_STATUS, O_STRICT,
         O_LENGTH, O_ALGORITHM };
#define DG_SPEC(letters)                                                             \
  "(tag)(untagged)(ignore-missing)(quiet)(status)(strict)(length):(algorithm):(debug)" \
  "(help)(version)" letters "b(binary)c(check)t(text)z(zero)w(warn)"
  const char *spec = is_cksum ? DG_SPEC("a:l:") : is_b2 ? DG_SPEC("l:") : DG_SPEC("");
#undef DG_SPEC
  bool untagged = false, tag_option = false;
  const char *length = NULL;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* In the order given: -a is checked at once; the last of -b/-t, of --tag/--untagged
   * and of -l/--length counts. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'a':
    case O_ALGORITHM: {
      int found = -1;
      for (int a = 0; a < A_COUNT; a++)
        if (strcmp(g.arg, dg_names[a]) == 0) found = a;
      if (found < 0) {
        cmd_errorf(ctx, "invalid argument %s for " CMD_LQ "--algorithm" CMD_RQ,
                   cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n");
        static const int order[] = {A_BSD, A_SYSV, A_CRC, A_MD5, A_SHA1, A_SHA224,
                                    A_SHA256, A_SHA384, A_SHA512, A_BLAKE2B};
        for (int k = 0; k < A_COUNT; k++)
          cmd_err_raw(ctx, "  - " CMD_LQ "%s" CMD_RQ "\n", dg_names[order[k]]);
        cmd_err_raw(ctx, "  - " CMD_LQ "sm3" CMD_RQ "\n");
        return cmd_usage_hint(ctx, 1);
      }
      o.algo = (enum dg_algo)found;
      o.algo_given = true;
      break;
    }
    case 'b': o.binary = true; break;
    case 't': o.binary = false; break;
    case 'l':
    case O_LENGTH: length = g.arg; break;
    case O_TAG: o.tag = tag_option = true; untagged = false; break;
    case O_UNTAGGED: untagged = true; o.tag = false; break;
    case CMD_OPT_HELP: return dg_usage(ctx, is_cksum);
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  bool check = cmd_opt_on(&g, 'c');
  o.zero = cmd_opt_on(&g, 'z');
  o.warn = cmd_opt_on(&g, 'w');
  o.ignore_missing = cmd_opt_on(&g, O_IGNORE_MISSING);
  o.quiet = cmd_opt_on(&g, O_QUIET);
  o.status = cmd_opt_on(&g, O_STATUS);
  o.strict = cmd_opt_on(&g, O_STRICT);
  if (is_cksum && o.algo_given && o.algo >= A_MD5 && !untagged) o.tag = true;
  o.outlen = (size_t)dg_bytes[o.algo];
  if (length) {
    uintmax_t bits;
    if (cmd_parse_umax(length, "", &bits) != CMD_NUM_OK) {
      cmd_errorf(ctx, "invalid length: %s", cmd_gnu_quote(ctx, length));
      return 1;
    }
    if (bits > 512) {
      cmd_errorf(ctx, "invalid length: %s", cmd_gnu_quote(ctx, length));
      cmd_errorf(ctx, "maximum digest length for " CMD_LQ "BLAKE2b" CMD_RQ " is 512 bits");
      return 1;
    }
    if (bits % 8) {
      cmd_errorf(ctx, "invalid length: %s", cmd_gnu_quote(ctx, length));
      cmd_errorf(ctx, "length is not a multiple of 8");
      return 1;
    }
    if (o.algo != A_BLAKE2B && is_cksum) {
      cmd_errorf(ctx, "--length is only supported with --algorithm=blake2b");
      return 1;
    }
    o.outlen = bits ? (size_t)(bits / 8) : 64;
  }
  /* b2sum -c accepts any length (-l is ignored, as in GNU). */
  if (check && o.algo == A_BLAKE2B) o.outlen = 0;
  o.algo_name = o.algo == A_BLAKE2B ? "BLAKE2b" : dg_tags[o.algo] ? dg_tags[o.algo] : "";
  if (check && o.algo <= A_CRC && o.algo_given) {
    cmd_errorf(ctx, "--check is not supported with --algorithm={bsd,sysv,crc}");
    return 1;
  }
  if (!check && (o.ignore_missing || o.quiet || o.status || o.strict || o.warn)) {
    const char *opt = o.ignore_missing ? "--ignore-missing" : o.status ? "--status"
                      : o.warn ? "--warn" : o.quiet ? "--quiet" : "--strict";
    cmd_errorf(ctx, "the %s option is meaningful only when verifying checksums", opt);
    return cmd_usage_hint(ctx, 1);
  }
  if (check && tag_option) {
    cmd_errorf(ctx, "the --tag option is meaningless when verifying checksums");
    return cmd_usage_hint(ctx, 1);
  }
  unsigned char *buf = cmd_alloc(ctx, DG_BLOCK);
  if (!buf) return 1;
  int nfiles;
  char **files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int status = 0;
  if (check) {
    for (int i = 0; i < nfiles; i++) status |= dg_check(ctx, &o, files[i], buf);
    if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
    return status;
  }
  for (int i = 0; i < nfiles; i++) {
    dg_result res;
    int r = dg_file(ctx, files[i], o.algo, o.outlen, buf, &res);
    if (r == -EINTR) return 1;
    if (r < 0) {
      status = cmd_gnu_perror(ctx, files[i], r);
      continue;
    }
    const char *name = files[i];
    if (o.algo <= A_CRC) {
      if (o.algo == A_CRC) cmd_outf(ctx, "%u %ju", res.sum, res.size);
      else if (o.algo == A_BSD) cmd_outf(ctx, "%05u %5ju", res.sum, (res.size + 1023) / 1024);
      else cmd_outf(ctx, "%u %ju", res.sum, (res.size + 511) / 512);
      if (g.ind < argc) cmd_outf(ctx, " %s", name);
      cmd_outc(ctx, o.zero ? '\0' : '\n');
      continue;
    }
    bool esc = !o.zero && dg_needs_escape(name);
    if (esc) cmd_outc(ctx, '\\');
    if (o.tag) {
      cmd_outf(ctx, "%s (", dg_tag(ctx, o.algo, o.outlen));
      dg_out_name(ctx, name, esc);
      cmd_outs(ctx, ") = ");
      dg_out_hex(ctx, res.md, o.outlen);
    } else {
      dg_out_hex(ctx, res.md, o.outlen);
      cmd_outs(ctx, o.binary ? " *" : "  ");
      dg_out_name(ctx, name, esc);
    }
    cmd_outc(ctx, o.zero ? '\0' : '\n');
    if (ctx->out_err) break;
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
