/*
 * dd - copy a file, converting and formatting according to the operands.
 *
 *   Usage: dd [OPERAND]...
 *   if=FILE of=FILE bs=N ibs=N obs=N count=N skip=N seek=N
 *   conv=notrunc,ucase,lcase,sync,noerror,fsync,fdatasync,excl,nocreat
 *   iflag=fullblock,count_bytes,skip_bytes  oflag=seek_bytes,append
 *   status=none|noxfer|progress
 *
 * Design: GNU's record model. Each input record is one read of up to ibs
 * bytes (a short one is a partial record, "+1"; iflag=fullblock reads until
 * ibs or EOF); with bs= each record is written as it came (one output record
 * per input record), otherwise output is cut into obs-sized records. The
 * summary goes to stderr as GNU's three lines; its third line has a wall
 * time and rate, so tests look at the first two (or use status=none).
 * Numbers take GNU's suffixes (c w b kB K KiB MB M MiB ... and NxM
 * products). of= without notrunc truncates the file at the seek offset, as
 * ftruncate(2) in GNU, which also extends a shorter one (sparse; through the
 * store: of= is a store path).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("dd", cmd_dd_main);

static const char dd_usage[] =
    "Usage: dd [OPERAND]...\n"
    "  or:  dd OPTION\n"
    "Copy a file, converting and formatting according to the operands.\n"
    "\n"
    "  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n"
    "                  overrides ibs and obs\n"
    "  count=N         copy only N input blocks\n"
    "  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n"
    "  if=FILE         read from FILE instead of stdin\n"
    "  iflag=FLAGS     read as per the comma separated symbol list\n"
    "  obs=BYTES       write BYTES bytes at a time (default: 512)\n"
    "  of=FILE         write to FILE instead of stdout\n"
    "  oflag=FLAGS     write as per the comma separated symbol list\n"
    "  seek=N          skip N obs-sized output blocks\n"
    "  skip=N          skip N ibs-sized input blocks\n"
    "  status=LEVEL    none, noxfer or progress\n"
    "  conv=CONVS      convert the file as per the comma separated symbol list\n";

#define DD_MAX_BLOCK ((uint64_t)1 << 30)

enum {
  C_NOTRUNC = 1, C_UCASE = 2, C_LCASE = 4, C_SYNC = 8, C_EXCL = 16, C_NOCREAT = 32,
  F_FULLBLOCK = 1, F_COUNT_BYTES = 2, F_SKIP_BYTES = 4, F_SEEK_BYTES = 8, F_APPEND = 16,
};

/* GNU's numbers: digits with an optional suffix, products with 'x'. */
static bool parse_num(const char *s, uint64_t *out) {
  uint64_t total = 1;
  for (;;) {
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0;
    while (*s >= '0' && *s <= '9') {
      if (v > (UINT64_MAX - 9) / 10) return false;
      v = v * 10 + (uint64_t)(*s++ - '0');
    }
    /* c w b, xM, and for each of k K M G T P E (Z Y R Q overflow): X and XiB
     * powers of 1024, XB powers of 1000 (GNU's xstrtoumax; k and K alike) */
    uint64_t mul = 1;
    static const char powers[] = "kKMGTPEZYRQ";
    static const int power_of[] = {1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const char *pl = *s ? strchr(powers, *s) : NULL;
    if ((*s == 'c' || *s == 'w' || *s == 'b') && (s[1] == 0 || s[1] == 'x')) {
      mul = *s == 'c' ? 1 : *s == 'w' ? 2 : 512;
      s++;
    } else if (s[0] == 'x' && s[1] == 'M' && s[2] == 0) {
      mul = 1 << 20;
      s += 2;
    } else if (pl) {
      size_t l = s[1] == 'B' ? 2 : (s[1] == 'i' && s[2] == 'B') ? 3 : 1;
      if (s[l] != 0 && s[l] != 'x') return false;
      uint64_t base = l == 2 ? 1000 : 1024;
      for (int p = power_of[pl - powers]; p > 0; p--) {
        if (mul > UINT64_MAX / base) return false;
        mul *= base;
      }
      s += l;
    }
    if (mul && v > UINT64_MAX / mul) return false;
    v *= mul;
    if (v && total > UINT64_MAX / v) return false;
    total *= v;
    if (*s == 0) break;
    if (*s != 'x') return false;
    s++;
  }
  *out = total;
  return true;
}

/* A comma-separated list of names into bits; false on an unknown name. */
static bool parse_flags(cmd_ctx *ctx, const char *what, const char *list,
                        const char *const *names, const int *bits, int *out) {
  const char *p = list;
  while (*p) {
    const char *c = strchr(p, ',');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    bool found = false;
    for (int i = 0; names[i]; i++)
      if (strlen(names[i]) == l && !strncmp(names[i], p, l)) {
        *out |= bits[i];
        found = true;
      }
    if (!found) {
      char *bad = cmd_alloc(ctx, l + 1);
      if (bad) memcpy(bad, p, l);
      cmd_errorf(ctx, "invalid %s: %s", what, cmd_gnu_quote(ctx, bad ? bad : p));
      return false;
    }
    p += l;
    if (*p == ',') p++;
  }
  return true;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "1.0 kB" / "143 kB": GNU's autoscaled figure, one decimal below 10. */
static void human(double v, int base, const char *const *units, char *buf, size_t n) {
  int u = 0;
  while (v >= base && units[u + 1]) v /= base, u++;
  if (u == 0) snprintf(buf, n, "%.0f %s", v, units[0]);
  else if (v < 10) snprintf(buf, n, "%.1f %s", v, units[u]);
  else snprintf(buf, n, "%.0f %s", v, units[u]);
}

static void summary(cmd_ctx *ctx, int status_level, uint64_t in_full, uint64_t in_part,
                    uint64_t out_full, uint64_t out_part, uint64_t bytes, double secs) {
  if (status_level == 0) return;
  cmd_flush(ctx);
  cmd_err_raw(ctx, "%llu+%llu records in\n%llu+%llu records out\n", (unsigned long long)in_full,
              (unsigned long long)in_part, (unsigned long long)out_full,
              (unsigned long long)out_part);
  if (status_level == 1) return;
  static const char *const si[] = {"B", "kB", "MB", "GB", "TB", "PB", NULL};
  static const char *const iec[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
  char a[32], b[32], rate[48];
  if (bytes == 1) cmd_err_raw(ctx, "1 byte copied");
  else cmd_err_raw(ctx, "%llu bytes", (unsigned long long)bytes);
  if (bytes >= 1000) {
    human((double)bytes, 1000, si, a, sizeof a);
    if (bytes >= 1024) {
      human((double)bytes, 1024, iec, b, sizeof b);
      cmd_err_raw(ctx, " (%s, %s)", a, b);
    } else {
      cmd_err_raw(ctx, " (%s)", a);
    }
  }
  if (bytes != 1) cmd_err_raw(ctx, " copied");
  if (secs > 0) {
    human((double)bytes / secs, 1000, si, rate, sizeof rate);
    cmd_err_raw(ctx, ", %g s, %s/s\n", secs, rate);
  } else {
    cmd_err_raw(ctx, ", %g s, Infinity B/s\n", secs);
  }
}

int cmd_dd_main(cmd_ctx *ctx, int argc, char **argv) {
  const char *in_path = NULL, *out_path = NULL;
  uint64_t ibs = 512, obs = 512, bs = 0, count = UINT64_MAX, skip = 0, seek = 0;
  int conv = 0, iflag = 0, oflag = 0, status_level = 2;
  static const char *const conv_names[] = {"notrunc", "ucase", "lcase", "sync", "excl",
                                           "nocreat", "noerror", "fsync", "fdatasync", NULL};
  static const int conv_bits[] = {C_NOTRUNC, C_UCASE, C_LCASE, C_SYNC, C_EXCL, C_NOCREAT, 0, 0, 0};
  static const char *const iflag_names[] = {"fullblock", "count_bytes", "skip_bytes", "direct",
                                            "dsync", "sync", "nonblock", "noatime", "nocache",
                                            "noctty", "nofollow", "binary", "text", NULL};
  static const int iflag_bits[] = {F_FULLBLOCK, F_COUNT_BYTES, F_SKIP_BYTES, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0};
  static const char *const oflag_names[] = {"seek_bytes", "append", "direct", "dsync", "sync",
                                            "nonblock", "noatime", "nocache", "noctty",
                                            "nofollow", "binary", "text", NULL};
  static const int oflag_bits[] = {F_SEEK_BYTES, F_APPEND, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help")) {
      cmd_outs(ctx, dd_usage);
      return 0;
    }
    if (!strcmp(a, "--version")) return cmd_print_version(ctx);
    if (!strcmp(a, "--")) continue;
    const char *eq = strchr(a, '=');
    if (!eq) {
      cmd_errorf(ctx, "unrecognized operand %s", cmd_gnu_quote(ctx, a));
      return cmd_usage_hint(ctx, 1);
    }
    size_t kl = (size_t)(eq - a);
    const char *v = eq + 1;
#define KEY(k) (kl == strlen(k) && !strncmp(a, k, kl))
    if (KEY("if")) in_path = v;
    else if (KEY("of")) out_path = v;
    else if (KEY("conv")) { if (!parse_flags(ctx, "conversion", v, conv_names, conv_bits, &conv)) return cmd_usage_hint(ctx, 1); }
    else if (KEY("iflag")) { if (!parse_flags(ctx, "input flag", v, iflag_names, iflag_bits, &iflag)) return cmd_usage_hint(ctx, 1); }
    else if (KEY("oflag")) { if (!parse_flags(ctx, "output flag", v, oflag_names, oflag_bits, &oflag)) return cmd_usage_hint(ctx, 1); }
    else if (KEY("status")) {
      if (!strcmp(v, "none")) status_level = 0;
      else if (!strcmp(v, "noxfer")) status_level = 1;
      else if (!strcmp(v, "progress")) status_level = 2;
      else {
        cmd_errorf(ctx, "invalid status level: %s", cmd_gnu_quote(ctx, v));
        return cmd_usage_hint(ctx, 1);
      }
    } else if (KEY("bs") || KEY("ibs") || KEY("obs") || KEY("count") || KEY("skip") ||
               KEY("seek") || KEY("iseek") || KEY("oseek")) {
      uint64_t n;
      bool block = KEY("bs") || KEY("ibs") || KEY("obs");
      if (!parse_num(v, &n) || (block && (n == 0 || n > DD_MAX_BLOCK))) {
        cmd_errorf(ctx, "invalid number: %s", cmd_gnu_quote(ctx, v));
        return 1;
      }
      if (KEY("bs")) bs = n;
      else if (KEY("ibs")) ibs = n;
      else if (KEY("obs")) obs = n;
      else if (KEY("count")) count = n;
      else if (KEY("skip") || KEY("iseek")) skip = n;
      else seek = n;
    } else {
      cmd_errorf(ctx, "unrecognized operand %s", cmd_gnu_quote(ctx, a));
      return cmd_usage_hint(ctx, 1);
    }
#undef KEY
  }
  if ((conv & C_UCASE) && (conv & C_LCASE)) {
    cmd_errorf(ctx, "cannot combine lcase and ucase");
    return 1;
  }
  if ((conv & C_EXCL) && (conv & C_NOCREAT)) {
    cmd_errorf(ctx, "cannot combine excl and nocreat");
    return 1;
  }
  if (bs) ibs = obs = bs;

  int status = 0;
  int in = 0, out = 1;
  if (in_path) {
    in = ctx->io->open(ctx->io_ud, in_path, O_RDONLY, 0);
    if (in < 0) {
      cmd_record_error(ctx, in, in_path);
      cmd_errorf(ctx, "failed to open %s: %s", cmd_gnu_quoteaf(ctx, in_path), cmd_strerror(in));
      return 1;
    }
  }
  uint64_t seek_off = (oflag & F_SEEK_BYTES) ? seek : seek * obs;
  if (out_path) {
    int fl = O_WRONLY | ((conv & C_NOCREAT) ? 0 : O_CREAT) | ((conv & C_EXCL) ? O_EXCL : 0) |
             ((oflag & F_APPEND) ? O_APPEND : 0);
    out = ctx->io->open(ctx->io_ud, out_path, fl, 0666);
    if (out < 0) {
      cmd_record_error(ctx, out, out_path);
      cmd_errorf(ctx, "failed to open %s: %s", cmd_gnu_quoteaf(ctx, out_path), cmd_strerror(out));
      if (in_path) ctx->io->close(ctx->io_ud, in);
      return 1;
    }
    if (!(conv & C_NOTRUNC) && !(oflag & F_APPEND)) {
      store_stat st;
      if (cmd_fs_stat(ctx, out_path, &st) == 0 && S_ISREG(st.mode) && st.ino && st.size != seek_off)
        store_truncate(ctx->store, st.ino, seek_off);
    }
  }
  if (seek_off) {
    cmd_flush(ctx);
    int64_t r = ctx->io->lseek(ctx->io_ud, out, (int64_t)seek_off, SEEK_SET);
    if (r < 0) {
      cmd_errorf(ctx, "%s: cannot seek: %s", out_path ? cmd_gnu_quote(ctx, out_path) : "'standard output'",
                 cmd_strerror((int)r));
      status = 1;
      goto done_files;
    }
  }

  double t0 = now_seconds();
  uint64_t in_full = 0, in_part = 0, out_full = 0, out_part = 0, bytes = 0;
  uint64_t skip_bytes = (iflag & F_SKIP_BYTES) ? skip : skip * ibs;
  if (skip_bytes) {
    int64_t r = ctx->io->lseek(ctx->io_ud, in, (int64_t)skip_bytes, SEEK_CUR);
    if (r < 0) { /* a pipe: read and drop */
      char tmp[8192];
      uint64_t left = skip_bytes;
      while (left > 0 && !cmd_poll(ctx)) {
        ssize_t n = ctx->io->read(ctx->io_ud, in, tmp, left < sizeof tmp ? (size_t)left : sizeof tmp);
        if (n <= 0) break;
        left -= (uint64_t)n;
      }
    }
  }
  unsigned char *ibuf = malloc((size_t)ibs);
  unsigned char *obuf = bs ? NULL : malloc((size_t)obs);
  size_t olen = 0;
  if (!ibuf || (!bs && !obuf)) {
    free(ibuf);
    free(obuf);
    cmd_errorf(ctx, "memory exhausted");
    status = 1;
    goto done_files;
  }
  uint64_t left_bytes = (iflag & F_COUNT_BYTES) ? count : UINT64_MAX;
  uint64_t records = 0;
  bool out_stdout = out == 1;
#define WRITE_OUT(buf, len)                                                          \
  do {                                                                               \
    int wr = out_stdout ? cmd_out(ctx, (buf), (len)) : cmd_write_fd(ctx, out, (buf), (len)); \
    if (wr < 0) {                                                                    \
      if (wr != -EPIPE) cmd_errorf(ctx, "error writing %s: %s",                      \
                                   out_path ? cmd_gnu_quote(ctx, out_path) : "'standard output'", \
                                   cmd_strerror(wr));                                \
      status = wr == -EPIPE ? 141 : 1;                                               \
      goto copy_done;                                                                \
    }                                                                                \
  } while (0)
  while ((iflag & F_COUNT_BYTES) ? left_bytes > 0 : records < count) {
    if (cmd_poll(ctx)) {
      status = 1;
      break;
    }
    size_t want = (size_t)ibs;
    if ((iflag & F_COUNT_BYTES) && left_bytes < want) want = (size_t)left_bytes;
    size_t got = 0;
    for (;;) {
      ssize_t n = ctx->io->read(ctx->io_ud, in, ibuf + got, want - got);
      if (n == -EINTR) continue;
      if (n < 0) {
        cmd_errorf(ctx, "error reading %s: %s", in_path ? cmd_gnu_quote(ctx, in_path) : "'standard input'",
                   cmd_strerror((int)n));
        status = 1;
        goto copy_done;
      }
      got += (size_t)n;
      if (n == 0 || got == want || !(iflag & F_FULLBLOCK)) break;
    }
    if (got == 0) break;
    records++;
    if (got == ibs) in_full++;
    else in_part++;
    if ((iflag & F_COUNT_BYTES)) left_bytes -= got;
    if ((conv & C_SYNC) && got < ibs) {
      memset(ibuf + got, 0, (size_t)ibs - got);
      got = (size_t)ibs;
    }
    if (conv & (C_UCASE | C_LCASE))
      for (size_t k = 0; k < got; k++) {
        unsigned char c = ibuf[k];
        if ((conv & C_UCASE) && c >= 'a' && c <= 'z') ibuf[k] = (unsigned char)(c - 32);
        if ((conv & C_LCASE) && c >= 'A' && c <= 'Z') ibuf[k] = (unsigned char)(c + 32);
      }
    if (bs) {
      WRITE_OUT(ibuf, got);
      if (got == bs) out_full++;
      else out_part++;
      bytes += got;
      continue;
    }
    for (size_t k = 0; k < got;) {
      size_t take = (size_t)obs - olen < got - k ? (size_t)obs - olen : got - k;
      memcpy(obuf + olen, ibuf + k, take);
      olen += take;
      k += take;
      if (olen == obs) {
        WRITE_OUT(obuf, olen);
        out_full++;
        bytes += olen;
        olen = 0;
      }
    }
  }
  if (olen) {
    WRITE_OUT(obuf, olen);
    out_part++;
    bytes += olen;
  }
#undef WRITE_OUT
copy_done:
  free(ibuf);
  free(obuf);
  if (status != 141) {
    int fr = cmd_flush(ctx);
    if (fr < 0 && !status) status = fr == -EPIPE ? 141 : 1;
    summary(ctx, status_level, in_full, in_part, out_full, out_part, bytes, now_seconds() - t0);
  }
done_files:
  if (in_path) ctx->io->close(ctx->io_ud, in);
  if (out_path) ctx->io->close(ctx->io_ud, out);
  return status;
}
