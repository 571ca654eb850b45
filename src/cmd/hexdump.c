/*
 * hexdump, hd - display file contents in hexadecimal, decimal, octal, or
 * ascii (util-linux 2.38).
 *
 *   Usage: hexdump [options] <file>...     hd = hexdump -C
 *   -b one-byte octal   -c one-byte character   -C canonical hex+ASCII
 *   -d two-byte decimal -o two-byte octal       -x two-byte hex
 *   -n length  -s offset  -v (no '*' squeezing)
 *   (no option: two-byte hex "%04x" columns)
 *
 * Design: the fixed display formats of util-linux are table entries (unit
 * size, printf shape of a unit, literal separators) applied to 16-byte
 * blocks; several options print one line each per block, in order. A short
 * last block prints blanks of each missing unit's width and zero-pads a
 * partial unit, as hexdump's engine does, and the final address line uses
 * the last format's address width. The general -e FORMAT language is not
 * implemented (a clear error says so).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("hexdump", cmd_hexdump_main);
CMD_DEFINE("hd", cmd_hexdump_main);

enum hd_kind { HD_DEFAULT, HD_X, HD_B, HD_C, HD_D, HD_O, HD_CANON };

#define HD_MAX_FORMATS 16

static int hd_unit_size(enum hd_kind k) {
  return k == HD_B || k == HD_C || k == HD_CANON ? 1 : 2;
}

/* Width of one printed unit, for blank filling. */
static int hd_unit_width(enum hd_kind k) {
  switch (k) {
  case HD_DEFAULT: return 5;  /* "%04x " */
  case HD_X: return 8;        /* "   %04x " */
  case HD_B: return 4;        /* "%03o " */
  case HD_C: return 4;        /* "%3_c " */
  case HD_D: return 8;        /* "  %05u " */
  case HD_O: return 8;        /* " %06o " */
  default: return 3;          /* "%02x " */
  }
}

/* Formats one unit into buf (always with its trailing blank). */
static void hd_unit(char *buf, size_t sz, enum hd_kind k, const unsigned char *p) {
  unsigned v = hd_unit_size(k) == 2 ? (unsigned)(p[0] | (p[1] << 8)) : p[0];
  switch (k) {
  case HD_DEFAULT: snprintf(buf, sz, "%04x ", v); break;
  case HD_X: snprintf(buf, sz, "   %04x ", v); break;
  case HD_B: snprintf(buf, sz, "%03o ", v); break;
  case HD_D: snprintf(buf, sz, "  %05u ", v); break;
  case HD_O: snprintf(buf, sz, " %06o ", v); break;
  case HD_CANON: snprintf(buf, sz, "%02x ", v); break;
  case HD_C: {
    const char *e = v == 0 ? "\\0" : cmd_c_escape(v);
    if (e) snprintf(buf, sz, "%3s ", e);
    else if (v >= 0x20 && v < 0x7f) snprintf(buf, sz, "%3c ", (char)v);
    else snprintf(buf, sz, "%03o ", v);
    break;
  }
  }
}

static void hd_line(cmd_ctx *ctx, enum hd_kind k, uintmax_t addr, const unsigned char *blk,
                    size_t n) {
  int size = hd_unit_size(k);
  int units = 16 / size;
  if (k == HD_CANON) cmd_outf(ctx, "%08jx  ", addr);
  else cmd_outf(ctx, "%07jx ", addr);
  for (int u = 0; u < units; u++) {
    if (k == HD_CANON && u == 8) cmd_outc(ctx, ' ');
    size_t off = (size_t)u * (size_t)size;
    /* Like util-linux, the last unit of a line drops its trailing blank
     * (except in -C, where more text follows). */
    bool last = u == units - 1 && k != HD_CANON;
    if (off < n) {
      unsigned char tmp[2] = {blk[off], off + 1 < n ? blk[off + 1] : 0};
      char ub[16];
      hd_unit(ub, sizeof ub, k, tmp);
      size_t ul = strlen(ub);
      cmd_out(ctx, ub, last ? ul - 1 : ul);
    } else {
      cmd_outf(ctx, "%*s", hd_unit_width(k) - (last ? 1 : 0), "");
    }
  }
  if (k == HD_CANON) {
    cmd_outs(ctx, " |");
    for (size_t i = 0; i < n; i++) cmd_outc(ctx, blk[i] >= 0x20 && blk[i] < 0x7f ? blk[i] : '.');
    cmd_outc(ctx, '|');
  }
  cmd_outc(ctx, '\n');
}

int cmd_hexdump_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] =
      "b(one-byte-octal)c(one-byte-char)C(canonical)d(two-bytes-decimal)"
      "o(two-bytes-octal)x(two-bytes-hex)e:(format)f:(format-file)n:(length)s:(skip)"
      "v(no-squeezing)h(help)V(version)";
  enum hd_kind fmts[HD_MAX_FORMATS];
  int nfmt = 0;
  const char *base = strrchr(ctx->name, '/') ? strrchr(ctx->name, '/') + 1 : ctx->name;
  if (strcmp(base, "hd") == 0) fmts[nfmt++] = HD_CANON;
  uintmax_t length = UINTMAX_MAX, skip = 0;
  bool squeeze = true;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    enum hd_kind k;
    switch (c) {
    case 'b': k = HD_B; break;
    case 'c': k = HD_C; break;
    case 'C': k = HD_CANON; break;
    case 'd': k = HD_D; break;
    case 'o': k = HD_O; break;
    case 'x': k = HD_X; break;
    case 'e': case 'f':
      cmd_errorf(ctx, "custom formats (-e, -f) are not supported in this sandbox");
      return 1;
    case 'n':
      if (cmd_parse_umax(g.arg, "bkKmMGTPEZY0", &length) != CMD_NUM_OK) {
        cmd_errorf(ctx, "failed to parse length: '%s'", g.arg);
        return 1;
      }
      continue;
    case 's':
      if (cmd_parse_umax(g.arg, "bkKmMGTPEZY0", &skip) != CMD_NUM_OK) {
        cmd_errorf(ctx, "failed to parse offset: '%s'", g.arg);
        return 1;
      }
      continue;
    case 'v': squeeze = false; continue;
    case 'h':
      cmd_outs(ctx, "\nUsage:\n hexdump [options] <file>...\n\n"
                    "Display file contents in hexadecimal, decimal, octal, or ascii.\n\nOptions:\n"
                    " -b, --one-byte-octal      one-byte octal display\n"
                    " -c, --one-byte-char       one-byte character display\n"
                    " -C, --canonical           canonical hex+ASCII display\n"
                    " -d, --two-bytes-decimal   two-byte decimal display\n"
                    " -o, --two-bytes-octal     two-byte octal display\n"
                    " -x, --two-bytes-hex       two-byte hexadecimal display\n"
                    " -n, --length <length>     interpret only length bytes of input\n"
                    " -s, --skip <offset>       skip offset bytes from the beginning\n"
                    " -v, --no-squeezing        output identical lines\n");
      return 0;
    case 'V': cmd_outs(ctx, "hexdump from util-linux 2.38.1 (sbx)\n"); return 0;
    default: return 1; /* cmd_getopt printed the message */
    }
    if (nfmt < HD_MAX_FORMATS) fmts[nfmt++] = k;
  }
  if (nfmt == 0) fmts[nfmt++] = HD_DEFAULT;

  int nfiles;
  char **files = cmd_file_operands(argc, argv, g.ind, &nfiles);
  int fi = 0, fd = -1, failed = 0, opened = 0;
  unsigned char blk[16], prev[16];
  bool have_prev = false, in_dup = false;
  uintmax_t addr = 0, to_skip = skip;
  int status = 0;
  for (;;) {
    /* Fill one 16-byte block from the file sequence (skipping first). */
    size_t n = 0;
    while (n < 16 && length > 0) {
      if (fd < 0) {
        if (fi >= nfiles) break;
        const char *name = files[fi++];
        fd = cmd_open_input(ctx, name);
        if (fd == -EISDIR) { /* util-linux opens it; the read fails: warned, status kept */
          cmd_perror(ctx, name, fd);
          opened++;
          fd = -1;
          continue;
        }
        if (fd < 0) {
          cmd_perror(ctx, name, fd);
          failed++;
          fd = -1;
          status = 1;
          continue;
        }
        opened++;
      }
      unsigned char tmp[16];
      size_t want = 16 - n;
      if (to_skip) want = to_skip < sizeof tmp ? (size_t)to_skip : sizeof tmp;
      else if (length < want) want = (size_t)length;
      ssize_t r = ctx->io->read(ctx->io_ud, fd, tmp, want);
      if (r == -EINTR) continue;
      if (r <= 0) {
        if (r < 0) {
          cmd_perror(ctx, files[fi - 1], (int)r);
          status = 1;
        }
        cmd_close_input(ctx, fd);
        fd = -1;
        continue;
      }
      if (to_skip) {
        to_skip -= (uintmax_t)r;
        addr += (uintmax_t)r;
        continue;
      }
      memcpy(blk + n, tmp, (size_t)r);
      n += (size_t)r;
      length -= (uintmax_t)r;
    }
    if (n == 0) break;
    if (squeeze && have_prev && n == 16 && memcmp(prev, blk, 16) == 0) {
      if (!in_dup) cmd_outs(ctx, "*\n");
      in_dup = true;
    } else {
      in_dup = false;
      for (int f = 0; f < nfmt; f++) hd_line(ctx, fmts[f], addr, blk, n);
    }
    memcpy(prev, blk, n);
    have_prev = n == 16;
    addr += n;
    if (cmd_poll(ctx) || ctx->out_err) break;
    if (n < 16) break;
  }
  if (fd >= 0) cmd_close_input(ctx, fd);
  if (failed && opened == 0 && nfiles > 0 && g.ind < argc) {
    cmd_errorf(ctx, "all input file arguments failed");
    return 1;
  }
  if (addr > 0) {
    if (fmts[nfmt - 1] == HD_CANON) cmd_outf(ctx, "%08jx\n", addr);
    else cmd_outf(ctx, "%07jx\n", addr);
  }
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
