/*
 * gzip, gunzip, zcat - compress or expand files (zlib).
 *
 *   gzip [-cdfhklnNqrtv19] [-S SUF] [FILE]...
 *   gunzip = gzip -d      zcat = gzip -dc
 *
 * Behaves like GNU gzip 1.12: FILE becomes FILE.gz (mode and times kept, the
 * original removed unless -k or -c); with no FILE or "-", stdin to stdout.
 * Decompression reads concatenated members; -f passes non-gzip data through
 * with -c; -l lists sizes the way GNU does (ISIZE of the last member); -t tests.
 * Messages are GNU's, all under the name "gzip" (as GNU's gunzip and zcat
 * scripts print them), including the leading blank line GNU puts before
 * format errors. Exit status: 0, 1 on errors, 2 when only warnings.
 *
 * Safety: output goes through the store, so a decompression bomb stops at the
 * sandbox's quota (ENOSPC/EFBIG) and the partial output file is removed; every
 * loop polls for cancel/timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"

CMD_DEFINE("gzip", cmd_gzip_main);
CMD_DEFINE("gunzip", cmd_gzip_main);
CMD_DEFINE("zcat", cmd_gzip_main);

#define GZ_CHUNK 65536

typedef struct gz_opts {
  bool decompress, to_stdout, force, keep, list, quiet, recursive, test, verbose;
  bool save_name;   /* -N (default when compressing) vs -n */
  int level;        /* 1..9 */
  const char *suffix;
  int status;       /* 0, 1 (error) or 2 (warning) so far */
  /* -l totals */
  uint64_t total_in, total_out, total_overhead;
  int listed;
} gz_opts;

static void warn(gz_opts *o, int st) {
  if (st == 1 || o->status == 0) o->status = st;
}

/* Writes all of buf to fd (1 = buffered stdout). */
static int put(cmd_ctx *ctx, int fd, const void *buf, size_t n) {
  if (fd == 1) return cmd_out(ctx, buf, n);
  return cmd_write_fd(ctx, fd, buf, n);
}

/* Compresses in_fd into out_fd. name/mtime go into the header when given. */
static int gz_compress(cmd_ctx *ctx, gz_opts *o, int in_fd, int out_fd, const char *name,
                       int64_t mtime, uint64_t *nin, uint64_t *nout) {
  z_stream zs = {0};
  if (deflateInit2(&zs, o->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return -ENOMEM;
  unsigned char hdr[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
  if (name && o->save_name) hdr[3] = 0x08; /* FNAME */
  if (mtime > 0 && o->save_name) {
    for (int i = 0; i < 4; i++) hdr[4 + i] = (unsigned char)(mtime >> (8 * i));
  }
  hdr[8] = o->level == 9 ? 2 : o->level == 1 ? 4 : 0;
  int rc = put(ctx, out_fd, hdr, sizeof hdr);
  uint64_t written = sizeof hdr;
  if (rc == 0 && name && o->save_name) {
    rc = put(ctx, out_fd, name, strlen(name) + 1);
    written += strlen(name) + 1;
  }
  unsigned char *in = malloc(GZ_CHUNK), *out = malloc(GZ_CHUNK);
  uLong crc = crc32(0, NULL, 0);
  uint64_t total = 0;
  if (!in || !out) rc = -ENOMEM;
  int flush = Z_NO_FLUSH;
  while (rc == 0 && flush != Z_FINISH) {
    ssize_t r = ctx->io->read(ctx->io_ud, in_fd, in, GZ_CHUNK);
    if (r < 0) {
      rc = (int)r;
      break;
    }
    if (cmd_poll(ctx)) {
      rc = -ECANCELED;
      break;
    }
    flush = r == 0 ? Z_FINISH : Z_NO_FLUSH;
    crc = crc32(crc, in, (uInt)r);
    total += (uint64_t)r;
    zs.next_in = in;
    zs.avail_in = (uInt)r;
    do {
      zs.next_out = out;
      zs.avail_out = GZ_CHUNK;
      deflate(&zs, flush);
      size_t have = GZ_CHUNK - zs.avail_out;
      if (have) {
        rc = put(ctx, out_fd, out, have);
        written += have;
      }
    } while (rc == 0 && zs.avail_out == 0);
  }
  if (rc == 0) {
    unsigned char trailer[8];
    for (int i = 0; i < 4; i++) trailer[i] = (unsigned char)(crc >> (8 * i));
    for (int i = 0; i < 4; i++) trailer[4 + i] = (unsigned char)(total >> (8 * i));
    rc = put(ctx, out_fd, trailer, 8);
    written += 8;
  }
  deflateEnd(&zs);
  free(in);
  free(out);
  *nin = total;
  *nout = written;
  return rc;
}

/* Why decompression stopped, for the messages. */
enum gz_fail { GZ_OK, GZ_NOTGZ, GZ_EOF, GZ_CORRUPT, GZ_CRC, GZ_TRAILING, GZ_IO };

typedef struct gz_reader {
  cmd_ctx *ctx;
  int fd;
  uint64_t consumed; /* bytes handed out by rd_byte (headers and trailers) */
  unsigned char buf[GZ_CHUNK];
  size_t pos, len;
  bool eof;
  int err;
} gz_reader;

static int rd_fill(gz_reader *r) {
  if (r->pos < r->len) return 1;
  if (r->eof) return 0;
  ssize_t n = r->ctx->io->read(r->ctx->io_ud, r->fd, r->buf, sizeof r->buf);
  if (n < 0) {
    r->err = (int)n;
    r->eof = true;
    return 0;
  }
  if (n == 0) {
    r->eof = true;
    return 0;
  }
  r->pos = 0;
  r->len = (size_t)n;
  return 1;
}

static int rd_byte(gz_reader *r) {
  if (!rd_fill(r)) return -1;
  r->consumed++;
  return r->buf[r->pos++];
}

/* Decompresses every member from r into out_fd (-1: discard, for -t / -l).
 * passthrough: non-gzip input is copied as is (zcat -f). */
static enum gz_fail gz_decompress(cmd_ctx *ctx, gz_reader *r, int out_fd, bool passthrough,
                                  uint64_t *nout, uint32_t *last_isize, int *werr,
                                  uint64_t *overhead) {
  unsigned char *out = malloc(GZ_CHUNK);
  if (!out) {
    *werr = -ENOMEM;
    return GZ_IO;
  }
  enum gz_fail result = GZ_OK;
  bool first = true;
  *nout = 0;
  for (;;) {
    int b0 = rd_byte(r);
    if (b0 < 0) {
      if (first) result = passthrough ? GZ_OK : GZ_EOF;
      break;
    }
    int b1 = rd_byte(r);
    if (b0 != 0x1f || b1 != 0x8b) {
      if (first && passthrough) {
        unsigned char two[2] = {(unsigned char)b0, (unsigned char)b1};
        *werr = put(ctx, out_fd, two, b1 < 0 ? 1 : 2);
        while (*werr == 0 && rd_fill(r)) {
          *werr = put(ctx, out_fd, r->buf + r->pos, r->len - r->pos);
          r->pos = r->len;
        }
        result = *werr ? GZ_IO : GZ_OK;
        break;
      }
      result = first ? GZ_NOTGZ : GZ_TRAILING;
      break;
    }
    int method = rd_byte(r), flags = rd_byte(r);
    if (method != 8) {
      result = first ? GZ_NOTGZ : GZ_TRAILING;
      break;
    }
    for (int i = 0; i < 6; i++) rd_byte(r); /* mtime, xfl, os */
    if (flags & 4) {                         /* FEXTRA */
      int lo = rd_byte(r), hi = rd_byte(r);
      if (hi < 0) { result = GZ_EOF; break; }
      for (int n = lo | hi << 8; n > 0; n--)
        if (rd_byte(r) < 0) break;
    }
    if (flags & 8) { int c; while ((c = rd_byte(r)) > 0) {} }  /* FNAME */
    if (flags & 16) { int c; while ((c = rd_byte(r)) > 0) {} } /* FCOMMENT */
    if (flags & 2) { rd_byte(r); rd_byte(r); }                  /* FHCRC */
    if (r->err || (r->eof && r->pos >= r->len)) { result = GZ_EOF; break; }
    first = false;

    z_stream zs = {0};
    if (inflateInit2(&zs, -15) != Z_OK) { *werr = -ENOMEM; result = GZ_IO; break; }
    uLong crc = crc32(0, NULL, 0);
    uint32_t size = 0;
    int zr = Z_OK;
    while (zr != Z_STREAM_END) {
      if (!rd_fill(r)) { result = GZ_EOF; break; }
      if (cmd_poll(ctx)) { *werr = -ECANCELED; result = GZ_IO; break; }
      zs.next_in = r->buf + r->pos;
      zs.avail_in = (uInt)(r->len - r->pos);
      do {
        zs.next_out = out;
        zs.avail_out = GZ_CHUNK;
        zr = inflate(&zs, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) break;
        size_t have = GZ_CHUNK - zs.avail_out;
        crc = crc32(crc, out, (uInt)have);
        size += (uint32_t)have;
        *nout += have;
        if (have && out_fd >= 0 && (*werr = put(ctx, out_fd, out, have)) != 0) break;
      } while (zs.avail_out == 0 && zr != Z_STREAM_END);
      r->pos = r->len - zs.avail_in;
      if (*werr) { result = GZ_IO; break; }
      if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) { result = GZ_CORRUPT; break; }
    }
    inflateEnd(&zs);
    if (result != GZ_OK) break;
    unsigned char t[8];
    int i = 0;
    for (; i < 8; i++) {
      int c = rd_byte(r);
      if (c < 0) break;
      t[i] = (unsigned char)c;
    }
    if (i < 8) { result = GZ_EOF; break; }
    uint32_t want_crc = t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;
    uint32_t isize = t[4] | t[5] << 8 | t[6] << 16 | (uint32_t)t[7] << 24;
    *last_isize = isize;
    if (want_crc != (uint32_t)crc || isize != size) { result = GZ_CRC; break; }
  }
  free(out);
  if (overhead) *overhead = r->consumed; /* headers and trailers of all members */
  return result;
}

static void fail_msg(cmd_ctx *ctx, gz_opts *o, enum gz_fail f, const char *name, int werr) {
  /* Each data failure's message, whether -q hides it, and its status (warn). */
  static const struct {
    const char *msg;
    bool quiet_hides;
    int status;
  } fails[] = {
      [GZ_NOTGZ] = {"not in gzip format", true, 1},
      [GZ_EOF] = {"unexpected end of file", false, 1},
      [GZ_CORRUPT] = {"invalid compressed data--format violated", false, 1},
      [GZ_CRC] = {"invalid compressed data--crc error", false, 1},
      [GZ_TRAILING] = {"decompression OK, trailing garbage ignored", true, 2},
  };
  if (f == GZ_OK) return;
  if (f == GZ_IO) {
    if (werr == -EPIPE || werr == -ECANCELED) { warn(o, 1); return; }
    cmd_record_error(ctx, werr, name);
    cmd_err_raw(ctx, "gzip: %s: %s\n", name, cmd_strerror(werr));
    warn(o, 1);
    return;
  }
  if (!o->quiet || !fails[f].quiet_hides)
    cmd_err_raw(ctx, "\ngzip: %s: %s\n", name, fails[f].msg);
  warn(o, fails[f].status);
}

/* GNU's ratio compares the deflate data (the file minus its headers and
 * trailers, `overhead`) with the uncompressed size. */
static void list_line(cmd_ctx *ctx, gz_opts *o, uint64_t comp, uint64_t uncomp,
                      uint64_t overhead, const char *name) {
  if (o->listed++ == 0)
    cmd_outs(ctx, "         compressed        uncompressed  ratio uncompressed_name\n");
  double data = (double)comp - (double)overhead;
  double ratio = uncomp ? 100.0 * ((double)uncomp - data) / (double)uncomp : 0.0;
  cmd_outf(ctx, "%19llu %19llu %5.1f%% %s\n", (unsigned long long)comp,
           (unsigned long long)uncomp, ratio, name);
}

/* Output name for decompressing `path`, or NULL (unknown suffix). Arena. */
static char *strip_suffix(cmd_ctx *ctx, gz_opts *o, const char *path) {
  static const char *const known[] = {".gz", "-gz", ".z", "-z", "_z", ".Z", NULL};
  size_t n = strlen(path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t bn = strlen(base);
  if (o->suffix) {
    size_t s = strlen(o->suffix);
    if (bn > s && strcmp(path + n - s, o->suffix) == 0) {
      char *r = cmd_strdup(ctx, path);
      r[n - s] = '\0';
      return r;
    }
  }
  for (int i = 0; known[i]; i++) {
    size_t s = strlen(known[i]);
    if (bn > s && strcmp(path + n - s, known[i]) == 0) {
      char *r = cmd_strdup(ctx, path);
      r[n - s] = '\0';
      return r;
    }
  }
  if (bn > 4 && strcmp(path + n - 4, ".tgz") == 0) {
    char *r = cmd_alloc(ctx, n + 1);
    memcpy(r, path, n - 4);
    strcpy(r + n - 4, ".tar");
    return r;
  }
  return NULL;
}

static void do_file(cmd_ctx *ctx, gz_opts *o, const char *path, int depth);

static void do_dir(cmd_ctx *ctx, gz_opts *o, const char *path, int depth) {
  if (depth > 256) {
    cmd_err_raw(ctx, "gzip: %s: directory nesting too deep\n", path);
    warn(o, 1);
    return;
  }
  char **names;
  int n = cmd_fs_listdir(ctx, path, &names);
  if (n < 0) {
    cmd_err_raw(ctx, "gzip: %s: %s\n", path, cmd_strerror(n));
    warn(o, 1);
  }
  for (int i = 0; i < n && !cmd_poll(ctx); i++)
    do_file(ctx, o, cmd_join_path(ctx, path, names[i]), depth + 1);
}

static void do_stdin(cmd_ctx *ctx, gz_opts *o) {
  uint64_t nin = 0, nout = 0;
  if (!o->decompress && !o->list && !o->test) {
    int rc = gz_compress(ctx, o, 0, 1, NULL, 0, &nin, &nout);
    if (rc < 0 && rc != -EPIPE) {
      cmd_err_raw(ctx, "gzip: stdin: %s\n", cmd_strerror(rc));
      warn(o, 1);
    }
    return;
  }
  gz_reader *r = calloc(1, sizeof *r);
  if (!r) { warn(o, 1); return; }
  r->ctx = ctx;
  r->fd = 0;
  uint32_t isize = 0;
  int werr = 0;
  int out_fd = (o->list || o->test) ? -1 : 1;
  enum gz_fail f =
      gz_decompress(ctx, r, out_fd, o->force && o->to_stdout, &nout, &isize, &werr, NULL);
  fail_msg(ctx, o, f, "stdin", werr);
  free(r);
}

static void do_file(cmd_ctx *ctx, gz_opts *o, const char *path, int depth) {
  if (strcmp(path, "-") == 0) {
    do_stdin(ctx, o);
    return;
  }
  store_stat st;
  int rc = cmd_fs_lstat(ctx, path, &st);
  if (rc == 0 && S_ISLNK(st.mode) && !o->to_stdout && !o->force) {
    if (!o->quiet)
      cmd_err_raw(ctx, "gzip: %s: Too many levels of symbolic links\n", path);
    warn(o, 2);
    return;
  }
  if (rc == 0) rc = cmd_fs_stat(ctx, path, &st);
  if (rc < 0) {
    cmd_record_error(ctx, rc, path);
    cmd_err_raw(ctx, "gzip: %s: %s\n", path, cmd_strerror(rc));
    warn(o, 1);
    return;
  }
  if (S_ISDIR(st.mode)) {
    if (o->recursive) {
      do_dir(ctx, o, path, depth);
      return;
    }
    if (!o->quiet) cmd_err_raw(ctx, "gzip: %s is a directory -- ignored\n", path);
    warn(o, 2);
    return;
  }

  const char *outname = NULL;
  if (o->decompress || o->list || o->test) {
    outname = strip_suffix(ctx, o, path);
    if (!outname && !o->to_stdout && !o->list && !o->test) {
      if (!o->quiet) cmd_err_raw(ctx, "gzip: %s: unknown suffix -- ignored\n", path);
      warn(o, 2);
      return;
    }
  } else {
    const char *suf = o->suffix ? o->suffix : ".gz";
    size_t n = strlen(path), s = strlen(suf);
    if (n > s && strcmp(path + n - s, suf) == 0 && !o->to_stdout && !o->force) {
      if (!o->quiet)
        cmd_err_raw(ctx, "gzip: %s already has %s suffix -- unchanged\n", path, suf);
      return;
    }
    char *on = cmd_alloc(ctx, n + s + 1);
    memcpy(on, path, n);
    memcpy(on + n, suf, s + 1);
    outname = on;
  }

  int in_fd = ctx->io->open(ctx->io_ud, path, O_RDONLY, 0);
  if (in_fd < 0) {
    cmd_record_error(ctx, in_fd, path);
    cmd_err_raw(ctx, "gzip: %s: %s\n", path, cmd_strerror(in_fd));
    warn(o, 1);
    return;
  }
  int out_fd = 1;
  bool to_file = !o->to_stdout && !o->list && !o->test;
  if (to_file) {
    store_stat ost;
    if (store_path_lstat(ctx->store, ctx->cwd, outname, &ost) == 0) {
      if (!o->force) {
        cmd_err_raw(ctx, "gzip: %s already exists;\tnot overwritten\n", outname);
        warn(o, 2);
        ctx->io->close(ctx->io_ud, in_fd);
        return;
      }
      store_path_unlink(ctx->store, ctx->cwd, outname);
    }
    out_fd = ctx->io->open(ctx->io_ud, outname, O_WRONLY | O_CREAT | O_EXCL, st.mode & 07777);
    if (out_fd < 0) {
      cmd_record_error(ctx, out_fd, outname);
      cmd_err_raw(ctx, "gzip: %s: %s\n", outname, cmd_strerror(out_fd));
      warn(o, 1);
      ctx->io->close(ctx->io_ud, in_fd);
      return;
    }
  }

  bool ok;
  uint64_t nin = 0, nout = 0;
  if (!o->decompress && !o->list && !o->test) {
    const char *base = strrchr(path, '/');
    rc = gz_compress(ctx, o, in_fd, out_fd, base ? base + 1 : path, st.mtime, &nin, &nout);
    ok = rc == 0;
    if (!ok && rc != -EPIPE) {
      const char *which = rc == -ENOSPC || rc == -EFBIG ? outname : path;
      cmd_record_error(ctx, rc, which);
      cmd_err_raw(ctx, "gzip: %s: %s\n", which, cmd_strerror(rc));
      warn(o, 1);
    }
    if (ok && o->verbose) {
      double ratio = nin ? 100.0 * ((double)nin - (double)nout) / (double)nin : 0.0;
      cmd_err_raw(ctx, "%s:\t%5.1f%% -- %s %s\n", path, ratio,
                  o->to_stdout ? "created" : "replaced with", o->to_stdout ? "" : outname);
    }
  } else {
    gz_reader *r = calloc(1, sizeof *r);
    enum gz_fail f = GZ_IO;
    uint32_t isize = 0;
    uint64_t overhead = 0;
    int werr = r ? 0 : -ENOMEM;
    if (r) {
      r->ctx = ctx;
      r->fd = in_fd;
      f = gz_decompress(ctx, r, (o->list || o->test) ? -1 : out_fd,
                        o->force && o->to_stdout, &nout, &isize, &werr, &overhead);
    }
    free(r);
    fail_msg(ctx, o, f, path, werr);
    ok = f == GZ_OK || f == GZ_TRAILING;
    if (ok && o->list) {
      list_line(ctx, o, st.size, isize, overhead, outname ? outname : path);
      o->total_in += st.size, o->total_out += isize, o->total_overhead += overhead;
    }
    if (ok && o->verbose && !o->list) {
      if (o->test)
        cmd_err_raw(ctx, "%s:\t OK\n", path);
      else {
        double ratio = nout ? 100.0 * ((double)nout - (double)st.size) / (double)nout : 0.0;
        cmd_err_raw(ctx, "%s:\t%5.1f%% -- %s %s\n", path, ratio,
                    o->to_stdout ? "created" : "replaced with", o->to_stdout ? "" : outname);
      }
    }
  }
  ctx->io->close(ctx->io_ud, in_fd);
  if (to_file) {
    ctx->io->close(ctx->io_ud, out_fd);
    if (!ok) {
      store_path_unlink(ctx->store, ctx->cwd, outname); /* no half-written output */
      return;
    }
    struct timespec times[2] = {{st.atime, st.atime_nsec}, {st.mtime, st.mtime_nsec}};
    store_path_utimes(ctx->store, ctx->cwd, outname, times, 0);
    if (!o->keep) store_path_unlink(ctx->store, ctx->cwd, path);
  }
}

int cmd_gzip_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] =
      "(synchronous)(rsyncable)c(stdout)(to-stdout)d(decompress)(uncompress)f(force)"
      "h(help)k(keep)l(list)n(no-name)N(name)q(quiet)(silent)r(recursive)S:(suffix)"
      "t(test)v(verbose)V(version)1(fast)9(best)2345678";
  const char *base = strrchr(ctx->name, '/');
  base = base ? base + 1 : ctx->name;
  gz_opts o = {.level = 6, .save_name = true};
  if (strcmp(base, "gunzip") == 0) o.decompress = true;
  if (strcmp(base, "zcat") == 0) o.decompress = o.to_stdout = true;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: the last of -q and -v counts, a suffix is checked as it comes. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'c': o.to_stdout = true; break;
      case 'd': o.decompress = true; break;
      case 'f': o.force = true; break;
      case 'k': o.keep = true; break;
      case 'l': o.list = true; break;
      case 'n': o.save_name = false; break;
      case 'N': o.save_name = true; break;
      case 'q': o.quiet = true, o.verbose = false; break;
      case 'r': o.recursive = true; break;
      case 'S':
        if (!*st.arg || strlen(st.arg) > 30 || strchr(st.arg, '/')) {
          cmd_err_raw(ctx, "gzip: invalid suffix '%s'\n", st.arg);
          return 1;
        }
        o.suffix = st.arg;
        break;
      case 't': o.test = true; break;
      case 'v': o.verbose = true, o.quiet = false; break;
      case 'h':
        cmd_outf(ctx,
                 "Usage: %s [OPTION]... [FILE]...\n"
                 "Compress or uncompress FILEs (by default, compress FILES in-place).\n\n"
                 "  -c, --stdout      write on standard output, keep original files unchanged\n"
                 "  -d, --decompress  decompress\n"
                 "  -f, --force       force overwrite of output file and compress links\n"
                 "  -k, --keep        keep (don't delete) input files\n"
                 "  -l, --list        list compressed file contents\n"
                 "  -n, --no-name     do not save or restore the original name and timestamp\n"
                 "  -N, --name        save or restore the original name and timestamp\n"
                 "  -q, --quiet       suppress all warnings\n"
                 "  -r, --recursive   operate recursively on directories\n"
                 "  -S, --suffix=SUF  use suffix SUF on compressed files\n"
                 "  -t, --test        test compressed file integrity\n"
                 "  -v, --verbose     verbose mode\n"
                 "  -1, --fast        compress faster\n"
                 "  -9, --best        compress better\n\n"
                 "With no FILE, or when FILE is -, read standard input.\n",
                 base);
        return 0;
      case 'V': cmd_outs(ctx, "gzip (sbx) 1.12\n"); return 0;
      case CMD_OPT_LONG: case CMD_OPT_LONG + 1: break; /* --synchronous, --rsyncable */
      case '?': return 1;
      default:
        if (c >= '1' && c <= '9') o.level = c - '0';
    }
  }
  if (st.ind >= argc) {
    do_stdin(ctx, &o);
  } else {
    for (int i = st.ind; i < argc && !cmd_poll(ctx); i++) do_file(ctx, &o, argv[i], 0);
  }
  if (o.list && o.listed > 1)
    list_line(ctx, &o, o.total_in, o.total_out, o.total_overhead, "(totals)");
  return o.status;
}
