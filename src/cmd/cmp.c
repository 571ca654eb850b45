/*
 * cmp - compare two files byte by byte (GNU diffutils 3.8).
 *
 *   Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
 *   -b, --print-bytes        print differing bytes
 *   -i, --ignore-initial=SKIP[:SKIP2]  skip bytes at the start of the inputs
 *   -l, --verbose            output byte numbers and differing byte values
 *   -n, --bytes=LIMIT        compare at most LIMIT bytes
 *   -s, --quiet, --silent    suppress all normal output
 *   Exit status: 0 same, 1 different, 2 trouble.
 *
 * Design: both inputs are read in 64 KiB blocks and compared with memcmp;
 * newlines are counted only when a message needs a line number. Messages
 * are diffutils': "A B differ: byte N, line M" (with -b also both bytes in
 * octal and cat -v notation), "cmp: EOF on X after byte N, line M", "EOF on X
 * which is empty"; -l columns are as wide as the smaller regular file's size
 * (or the -n limit) needs. Usage errors print "cmp: Try 'cmp --help'...".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/getopt_msg.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("cmp", cmd_cmp_main);

#define CMP_BLOCK 65536

static int cmp_try(cmd_ctx *ctx) {
  cmd_err_raw(ctx, "%s: Try '%s --help' for more information.\n", ctx->name, ctx->name);
  return 2;
}

/* SKIP values: decimal with kB/K/MB/M... suffixes (xstrtoumax "kKMGTPEZY0"). */
static bool cmp_skip(const char *s, uintmax_t *v) {
  int e = cmd_parse_umax(s, "kKMGTPEZY0", v);
  if (e == CMD_NUM_OVERFLOW) {
    *v = UINTMAX_MAX;
    return true;
  }
  return e == CMD_NUM_OK;
}

/* cat -v style rendering of one byte. */
static void cmp_sprintc(char *buf, unsigned c) {
  char *p = buf;
  if (!(c >= 0x20 && c < 0x7f)) {
    if (c >= 128) {
      *p++ = 'M';
      *p++ = '-';
      c -= 128;
    }
    if (c < 32) {
      *p++ = '^';
      c += 64;
    } else if (c == 127) {
      *p++ = '^';
      c = '?';
    }
  }
  *p++ = (char)c;
  *p = 0;
}

/* Skips n bytes of an input (seeking when possible). */
static int cmp_do_skip(cmd_ctx *ctx, int fd, uintmax_t n, unsigned char *buf) {
  int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
  if (cur >= 0 && n <= (uintmax_t)INT64_MAX - (uintmax_t)cur &&
      ctx->io->lseek(ctx->io_ud, fd, cur + (int64_t)n, SEEK_SET) >= 0)
    return 0;
  while (n > 0) {
    ssize_t r = ctx->io->read(ctx->io_ud, fd, buf, n < CMP_BLOCK ? (size_t)n : CMP_BLOCK);
    if (r < 0) return (int)r;
    if (r == 0) break;
    n -= (uintmax_t)r;
  }
  return 0;
}

/* Remaining size of a seekable input, or -1. */
static int64_t cmp_remaining(cmd_ctx *ctx, int fd) {
  int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
  if (cur < 0) return -1;
  int64_t end = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END);
  ctx->io->lseek(ctx->io_ud, fd, cur, SEEK_SET);
  return end < 0 ? -1 : end - cur;
}

int cmd_cmp_main(cmd_ctx *ctx, int argc, char **argv) {
  /* Quiet (':'): diffutils' hint after the message is "cmp: Try...", status 2. */
  static const char spec[] = ":(help)b(print-bytes)c(print-chars)i:(ignore-initial)"
                             "l(verbose)n:(bytes)s(silent)(quiet)v(version)";
  uintmax_t skip[2] = {0, 0}, limit = UINTMAX_MAX;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* -i and -n are checked at once, in the order given. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'i': {
      const char *colon = strchr(g.arg, ':');
      bool ok;
      const char *bad = g.arg;
      if (colon) {
        char *first = cmd_alloc(ctx, (size_t)(colon - g.arg) + 1);
        if (!first) return 2;
        memcpy(first, g.arg, (size_t)(colon - g.arg));
        ok = cmp_skip(first, &skip[0]);
        /* diffutils names the part that failed: all of "x:1", or "x" of "1:x" */
        if (ok && !(ok = cmp_skip(colon + 1, &skip[1]))) bad = colon + 1;
      } else {
        ok = cmp_skip(g.arg, &skip[0]);
        skip[1] = skip[0];
      }
      if (!ok) {
        cmd_errorf(ctx, "invalid --ignore-initial value '%s'", bad);
        return cmp_try(ctx);
      }
      break;
    }
    case 'n':
      if (!cmp_skip(g.arg, &limit)) {
        cmd_errorf(ctx, "invalid --bytes value '%s'", g.arg);
        return cmp_try(ctx);
      }
      break;
    case 'v': cmd_outs(ctx, "cmp (GNU diffutils) 3.8 (sbx)\n"); return 0;
    case CMD_OPT_HELP:
      cmd_outs(ctx, "Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\n"
                    "Compare two files byte by byte.\n\n"
                    "  -b, --print-bytes          print differing bytes\n"
                    "  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs\n"
                    "  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and\n"
                    "                                      first SKIP2 bytes of FILE2\n"
                    "  -l, --verbose              output byte numbers and differing byte values\n"
                    "  -n, --bytes=LIMIT          compare at most LIMIT bytes\n"
                    "  -s, --quiet, --silent      suppress all normal output\n"
                    "      --help                 display this help and exit\n"
                    "  -v, --version              output version information and exit\n\n"
                    "Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.\n");
      return 0;
    case ':':
    case '?':
      cmd_getopt_report(ctx, &g, argc, argv, c, NULL);
      return cmp_try(ctx);
    }
  }
  bool print_bytes = cmd_opt_on(&g, 'b') || cmd_opt_on(&g, 'c');
  bool verbose = cmd_opt_on(&g, 'l'), silent = cmd_opt_on(&g, 's');
  if (verbose && silent) {
    cmd_errorf(ctx, "options -l and -s are incompatible");
    return cmp_try(ctx);
  }
  int nops = argc - g.ind;
  if (nops < 1) {
    cmd_errorf(ctx, "missing operand after '%s'", ctx->name);
    return cmp_try(ctx);
  }
  if (nops > 4) {
    cmd_errorf(ctx, "extra operand '%s'", argv[g.ind + 4]);
    return cmp_try(ctx);
  }
  for (int k = 0; k < 2 && 2 + k < nops; k++) {
    if (!cmp_skip(argv[g.ind + 2 + k], &skip[k])) {
      cmd_errorf(ctx, "invalid --ignore-initial value '%s'", argv[g.ind + 2 + k]);
      return cmp_try(ctx);
    }
  }
  const char *name[2] = {argv[g.ind], nops >= 2 ? argv[g.ind + 1] : "-"};
  if (strcmp(name[0], "-") == 0 && strcmp(name[1], "-") == 0 && skip[0] == skip[1]) return 0;
  int fd[2] = {-1, -1};
  unsigned char *buf[2] = {cmd_alloc(ctx, CMP_BLOCK), cmd_alloc(ctx, CMP_BLOCK)};
  if (!buf[0] || !buf[1]) return 2;
  int status = 2;
  for (int f = 0; f < 2; f++) {
    fd[f] = cmd_open_input(ctx, name[f]);
    if (fd[f] < 0) {
      cmd_perror(ctx, name[f], fd[f]);
      fd[f] = -1;
      goto out;
    }
    int r = cmp_do_skip(ctx, fd[f], skip[f], buf[f]);
    if (r < 0) {
      cmd_perror(ctx, name[f], r);
      goto out;
    }
  }
  int width = 1;
  if (verbose) {
    uintmax_t maxb = limit;
    for (int f = 0; f < 2; f++) {
      int64_t rem = cmp_remaining(ctx, fd[f]);
      if (rem >= 0 && (uintmax_t)rem < maxb) maxb = (uintmax_t)rem;
    }
    if (maxb > (uintmax_t)INT64_MAX) maxb = (uintmax_t)INT64_MAX;
    while (maxb /= 10) width++;
  }
  uintmax_t offset = 0, lines = 0;
  bool last_nl = false; /* the last byte both inputs shared was '\n' */
  size_t have[2] = {0, 0}, pos[2] = {0, 0};
  bool eof[2] = {false, false}, differ = false;
  status = 0;
  for (;;) {
    if (offset >= limit) break;
    for (int f = 0; f < 2; f++) {
      if (pos[f] == have[f] && !eof[f]) {
        ssize_t r;
        do r = ctx->io->read(ctx->io_ud, fd[f], buf[f], CMP_BLOCK);
        while (r == -EINTR);
        if (r < 0) {
          cmd_perror(ctx, name[f], (int)r);
          status = 2;
          goto out;
        }
        if (r == 0) eof[f] = true;
        have[f] = (size_t)r;
        pos[f] = 0;
      }
    }
    size_t n0 = have[0] - pos[0], n1 = have[1] - pos[1];
    size_t n = n0 < n1 ? n0 : n1;
    if (n > limit - offset) n = (size_t)(limit - offset);
    if (n == 0) {
      if (n0 == 0 && n1 == 0) break; /* both ended */
      /* One input ended first. */
      int f = n0 == 0 ? 0 : 1;
      if (!silent) {
        cmd_flush(ctx);
        if (offset == 0)
          cmd_err_raw(ctx, "%s: EOF on %s which is empty\n", ctx->name, name[f]);
        else if (verbose)
          cmd_err_raw(ctx, "%s: EOF on %s after byte %ju\n", ctx->name, name[f], offset);
        else if (last_nl)
          cmd_err_raw(ctx, "%s: EOF on %s after byte %ju, line %ju\n", ctx->name, name[f],
                      offset, lines);
        else /* diffutils: the partial last line counts, as "in line" */
          cmd_err_raw(ctx, "%s: EOF on %s after byte %ju, in line %ju\n", ctx->name, name[f],
                      offset, lines + 1);
      }
      status = 1;
      break;
    }
    const unsigned char *a = buf[0] + pos[0], *b = buf[1] + pos[1];
    if (memcmp(a, b, n) == 0) {
      if (!verbose)
        for (const unsigned char *p = a; (p = memchr(p, '\n', (size_t)(a + n - p))); p++) lines++;
      last_nl = a[n - 1] == '\n';
      offset += n;
      pos[0] += n;
      pos[1] += n;
    } else {
      for (size_t k = 0; k < n; k++) {
        if (a[k] == b[k]) {
          if (a[k] == '\n') lines++;
          last_nl = a[k] == '\n';
          continue;
        }
        differ = true;
        uintmax_t byte = offset + k + 1;
        if (silent) break;
        if (!verbose) {
          if (print_bytes) {
            char ca[8], cb[8];
            cmp_sprintc(ca, a[k]);
            cmp_sprintc(cb, b[k]);
            cmd_outf(ctx, "%s %s differ: byte %ju, line %ju is %3o %s %3o %s\n", name[0],
                     name[1], byte, lines + 1, a[k], ca, b[k], cb);
          } else {
            cmd_outf(ctx, "%s %s differ: byte %ju, line %ju\n", name[0], name[1], byte,
                     lines + 1);
          }
          break;
        }
        if (print_bytes) {
          char ca[8], cb[8];
          cmp_sprintc(ca, a[k]);
          cmp_sprintc(cb, b[k]);
          cmd_outf(ctx, "%*ju %3o %-4s %3o %s\n", width, byte, a[k], ca, b[k], cb);
        } else {
          cmd_outf(ctx, "%*ju %3o %3o\n", width, byte, a[k], b[k]);
        }
      }
      if (differ && (!verbose || silent)) {
        status = 1;
        break;
      }
      offset += n;
      pos[0] += n;
      pos[1] += n;
    }
    if (cmd_poll(ctx) || ctx->out_err) {
      status = 2;
      break;
    }
  }
  if (differ) status = 1;
out:
  for (int f = 0; f < 2; f++)
    if (fd[f] >= 0) cmd_close_input(ctx, fd[f]);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err) == 141 ? 141 : 2;
  return status;
}
