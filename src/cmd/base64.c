/*
 * base64, base32 - encode/decode data and print to standard output.
 *
 *   Usage: base64 [OPTION]... [FILE]     (base32: the same options)
 *   -d, --decode          decode data
 *   -i, --ignore-garbage  when decoding, ignore non-alphabet characters
 *   -w, --wrap=COLS       wrap encoded lines after COLS characters (default
 *                         76, 0 disables wrapping)
 *
 * Design: one file for both (CMD_DEFINE twice; ctx->name picks the alphabet):
 * they share the streaming structure and GNU's decoding rules, which are
 * gnulib's: newlines are skipped, a group is decoded byte by byte as it is
 * validated (so "aGVsbG8*" prints "hello" before "invalid input"), padding
 * may end a group in the middle of the stream, and -i drops everything that
 * is neither in the alphabet nor '='. base32 only decodes complete 8-char
 * groups. Input is streamed in 64 KiB blocks.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("base64", cmd_base64_main);
CMD_DEFINE("base32", cmd_base64_main);

#define B64_BLOCK 65536

static const char b64_alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b32_alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

typedef struct b64_state {
  cmd_ctx *ctx;
  bool b32;              /* base32 instead of base64 */
  signed char val[256];  /* alphabet value or -1 */
  size_t wrap, col;      /* wrap width, current column */
  unsigned char out[B64_BLOCK * 2]; /* staging */
  size_t olen;
} b64_state;

static void b64_flush(b64_state *st) {
  if (st->olen) cmd_out(st->ctx, st->out, st->olen);
  st->olen = 0;
}

static void b64_put(b64_state *st, unsigned char c) {
  if (st->olen == sizeof st->out) b64_flush(st);
  st->out[st->olen++] = c;
}

static void b64_put_enc(b64_state *st, char c) {
  b64_put(st, (unsigned char)c);
  if (st->wrap && ++st->col == st->wrap) {
    b64_put(st, '\n');
    st->col = 0;
  }
}

/* Encodes n bytes (a multiple of the group size unless final). */
static void b64_encode(b64_state *st, const unsigned char *p, size_t n) {
  if (!st->b32) {
    for (; n >= 3; p += 3, n -= 3) {
      uint32_t v = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
      for (int k = 18; k >= 0; k -= 6) b64_put_enc(st, b64_alpha[(v >> k) & 63]);
    }
    if (n) {
      uint32_t v = (uint32_t)p[0] << 16 | (n > 1 ? (uint32_t)p[1] << 8 : 0);
      b64_put_enc(st, b64_alpha[(v >> 18) & 63]);
      b64_put_enc(st, b64_alpha[(v >> 12) & 63]);
      b64_put_enc(st, n > 1 ? b64_alpha[(v >> 6) & 63] : '=');
      b64_put_enc(st, '=');
    }
    return;
  }
  for (; n > 0;) {
    size_t k = n < 5 ? n : 5;
    uint64_t v = 0;
    for (size_t i = 0; i < 5; i++) v = (v << 8) | (i < k ? p[i] : 0);
    static const int chars_for[6] = {0, 2, 4, 5, 7, 8};
    int c = chars_for[k];
    for (int i = 0; i < 8; i++)
      b64_put_enc(st, i < c ? b32_alpha[(v >> (35 - 5 * i)) & 31] : '=');
    p += k;
    n -= k;
  }
}

/* Decodes one group (4 or 8 chars, fewer at EOF) like gnulib: bytes are
 * emitted as they validate. false on invalid input. */
static bool b64_decode_group(b64_state *st, const unsigned char *in, size_t inlen) {
  const signed char *v = st->val;
  if (!st->b32) {
    if (inlen < 2 || v[in[0]] < 0 || v[in[1]] < 0) return false;
    b64_put(st, (unsigned char)((v[in[0]] << 2) | (v[in[1]] >> 4)));
    if (inlen == 2) return false;
    if (in[2] == '=') {
      if (inlen != 4 || in[3] != '=') return false;
      return true;
    }
    if (v[in[2]] < 0) return false;
    b64_put(st, (unsigned char)(((v[in[1]] << 4) & 0xf0) | (v[in[2]] >> 2)));
    if (inlen == 3) return false;
    if (in[3] == '=') return inlen == 4;
    if (v[in[3]] < 0) return false;
    b64_put(st, (unsigned char)(((v[in[2]] << 6) & 0xc0) | v[in[3]]));
    return true;
  }
  if (inlen < 8) return false;
  if (v[in[0]] < 0 || v[in[1]] < 0) return false;
  b64_put(st, (unsigned char)((v[in[0]] << 3) | (v[in[1]] >> 2)));
  if (in[2] == '=') {
    for (int i = 3; i < 8; i++)
      if (in[i] != '=') return false;
    return true;
  }
  if (v[in[2]] < 0 || v[in[3]] < 0) return false;
  b64_put(st, (unsigned char)(((v[in[1]] << 6) & 0xc0) | (v[in[2]] << 1) | (v[in[3]] >> 4)));
  if (in[4] == '=') {
    for (int i = 5; i < 8; i++)
      if (in[i] != '=') return false;
    return true;
  }
  if (v[in[4]] < 0) return false;
  b64_put(st, (unsigned char)(((v[in[3]] << 4) & 0xf0) | (v[in[4]] >> 1)));
  if (in[5] == '=') return in[6] == '=' && in[7] == '=';
  if (v[in[5]] < 0 || v[in[6]] < 0) return false;
  b64_put(st, (unsigned char)(((v[in[4]] << 7) & 0x80) | (v[in[5]] << 2) | (v[in[6]] >> 3)));
  if (in[7] == '=') return true;
  if (v[in[7]] < 0) return false;
  b64_put(st, (unsigned char)(((v[in[6]] << 5) & 0xe0) | v[in[7]]));
  return true;
}

int cmd_base64_main(cmd_ctx *ctx, int argc, char **argv) {
  b64_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  const char *base = strrchr(ctx->name, '/') ? strrchr(ctx->name, '/') + 1 : ctx->name;
  st->b32 = strcmp(base, "base32") == 0;
  st->wrap = 76;
  static const char spec[] = "(help)(version)d(decode)i(ignore-garbage)w:(wrap)";
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* -w is read at once, so a bad size is reported before a later bad option */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'w': {
      uintmax_t w;
      if (cmd_parse_count_or_max(ctx, g.arg, "invalid wrap size", &w) < 0) return 1;
      st->wrap = w > SIZE_MAX ? SIZE_MAX : (size_t)w;
      break;
    }
    case CMD_OPT_HELP:
      cmd_outf(ctx, "Usage: %s [OPTION]... [FILE]\n"
                    "%s encode or decode FILE, or standard input, to standard output.\n\n"
                    "With no FILE, or when FILE is -, read standard input.\n\n"
                    "  -d, --decode          decode data\n"
                    "  -i, --ignore-garbage  when decoding, ignore non-alphabet characters\n"
                    "  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).\n"
                    "                          Use 0 to disable line wrapping\n"
                    CMD_HELP_VERSION_LINES,
               base, st->b32 ? "Base32" : "Base64");
      return 0;
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  bool decode = cmd_opt_on(&g, 'd'), garbage = cmd_opt_on(&g, 'i');
  if (argc - g.ind > 1) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + 1]));
    return cmd_usage_hint(ctx, 1);
  }
  const char *name = g.ind < argc ? argv[g.ind] : "-";
  memset(st->val, -1, sizeof st->val);
  const char *alpha = st->b32 ? b32_alpha : b64_alpha;
  for (int i = 0; alpha[i]; i++) st->val[(unsigned char)alpha[i]] = (signed char)i;
  int fd = cmd_open_input(ctx, name);
  if (fd < 0) return cmd_gnu_perror(ctx, name, fd);
  unsigned char *buf = cmd_alloc(ctx, B64_BLOCK + 8);
  if (!buf) {
    cmd_close_input(ctx, fd);
    return 1;
  }
  size_t group = st->b32 ? 8 : 4;
  size_t enc_unit = st->b32 ? 5 : 3;
  unsigned char pend[8];
  size_t npend = 0;
  int status = 0;
  bool failed = false;
  for (;;) {
    if (cmd_poll(ctx)) {
      status = 1;
      break;
    }
    ssize_t n = ctx->io->read(ctx->io_ud, fd, buf + npend * !decode, B64_BLOCK - 8);
    if (n == -EINTR) continue;
    if (n < 0) {
      status = cmd_gnu_perror(ctx, name, (int)n);
      break;
    }
    if (!decode) {
      /* Carry an incomplete unit to the next block. */
      if (npend) memcpy(buf, pend, npend);
      size_t total = npend + (size_t)n;
      if (n == 0) {
        b64_encode(st, buf, total);
        break;
      }
      size_t whole = total - total % enc_unit;
      b64_encode(st, buf, whole);
      npend = total - whole;
      memcpy(pend, buf + whole, npend);
      continue;
    }
    if (n == 0) {
      if (npend && !b64_decode_group(st, pend, npend)) failed = true;
      break;
    }
    for (ssize_t k = 0; k < n && !failed; k++) {
      unsigned char ch = buf[k];
      if (ch == '\n') continue;
      if (garbage && st->val[ch] < 0 && ch != '=') continue;
      pend[npend++] = ch;
      if (npend == group) {
        if (!b64_decode_group(st, pend, group)) failed = true;
        npend = 0;
      }
    }
    if (failed) break;
    if (st->olen > B64_BLOCK) b64_flush(st);
  }
  cmd_close_input(ctx, fd);
  if (!decode && st->wrap && st->col) b64_put(st, '\n');
  b64_flush(st);
  if (failed) {
    cmd_errorf(ctx, "invalid input");
    status = 1;
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
