/*
 * zstd, unzstd, zstdcat - Zstandard compression (libzstd; zstd 1.5 CLI).
 *
 *   zstd [-#] [-d | -t] [-c | -o FILE] [-f] [-k | --rm] [-q] [FILE]...
 *
 * FILE becomes FILE.zst (decompressing: FILE without .zst / .tzst -> .tar);
 * the source is kept unless --rm, as the zstd CLI does; with no FILE (or
 * "-") stdin goes to stdout. Frames are written as the CLI writes them
 * (level 3 by default, 1..19, --ultra up to 22; content size when the input
 * is a file; an XXH64 checksum), so `zstd -c f` gives the CLI's bytes.
 * Decompression accepts concatenated frames and checks checksums; a bad
 * frame is "FILE: unsupported format" / "corrupted block detected", status 1.
 * Nothing is printed on success (the CLI's progress and summary lines are
 * for terminals); errors use the CLI's wording. Output goes through the
 * store (a bomb stops at the quota) and a failed output file is removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("zstd", cmd_zstd_main);
CMD_DEFINE("unzstd", cmd_zstd_main);
CMD_DEFINE("zstdcat", cmd_zstd_main);

typedef struct zs_opts {
  bool decompress, test, to_stdout, force, rm, quiet;
  int level;
  const char *output; /* -o */
  int status;
} zs_opts;

/* Streams in_fd to out_fd (1 = stdout, -1 = discard). Returns 0, a negative
 * errno, or 1 with *why set for bad input. size: the input's size, or -1. */
static int zs_stream(cmd_ctx *ctx, zs_opts *o, int in_fd, int out_fd, long long size,
                     const char **why) {
  size_t inz = ZSTD_CStreamInSize(), outz = ZSTD_CStreamOutSize();
  if (o->decompress || o->test) inz = ZSTD_DStreamInSize(), outz = ZSTD_DStreamOutSize();
  char *ib = malloc(inz), *ob = malloc(outz);
  ZSTD_CCtx *cc = NULL;
  ZSTD_DCtx *dc = NULL;
  int rc = 0;
  *why = NULL;
  if (!ib || !ob) {
    rc = -ENOMEM;
    goto out;
  }
  if (o->decompress || o->test) {
    dc = ZSTD_createDCtx();
    if (!dc) {
      rc = -ENOMEM;
      goto out;
    }
  } else {
    cc = ZSTD_createCCtx();
    if (!cc) {
      rc = -ENOMEM;
      goto out;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, o->level);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    if (size >= 0) ZSTD_CCtx_setPledgedSrcSize(cc, (unsigned long long)size);
  }
  bool any = false;
  size_t pending = 0; /* decompression: non-zero while a frame is unfinished */
  for (;;) {
    if (cmd_poll(ctx)) {
      rc = -ECANCELED;
      goto out;
    }
    ssize_t n = ctx->io->read(ctx->io_ud, in_fd, ib, inz);
    if (n < 0) {
      rc = (int)n;
      goto out;
    }
    bool last = n == 0;
    ZSTD_inBuffer in = {ib, (size_t)n, 0};
    if (dc) {
      if (last) break;
      any = true;
      while (in.pos < in.size) {
        ZSTD_outBuffer ob2 = {ob, outz, 0};
        size_t r = ZSTD_decompressStream(dc, &ob2, &in);
        if (ZSTD_isError(r)) {
          ZSTD_ErrorCode e = ZSTD_getErrorCode(r);
          *why = e == ZSTD_error_prefix_unknown   ? "unsupported format"
                 : e == ZSTD_error_checksum_wrong ? "Restored data doesn't match checksum"
                                                  : ZSTD_getErrorName(r);
          rc = 1;
          goto out;
        }
        pending = r;
        if (ob2.pos && out_fd >= 0) {
          rc = out_fd == 1 ? cmd_out(ctx, ob, ob2.pos)
                           : cmd_write_fd(ctx, out_fd, ob, ob2.pos);
          if (rc < 0) goto out;
        }
        if (cmd_poll(ctx)) {
          rc = -ECANCELED;
          goto out;
        }
      }
      continue;
    }
    ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    bool done = false;
    while (!done) {
      ZSTD_outBuffer ob2 = {ob, outz, 0};
      size_t r = ZSTD_compressStream2(cc, &ob2, &in, mode);
      if (ZSTD_isError(r)) {
        *why = ZSTD_getErrorName(r);
        rc = 1;
        goto out;
      }
      if (ob2.pos) {
        rc = out_fd == 1 ? cmd_out(ctx, ob, ob2.pos)
                         : cmd_write_fd(ctx, out_fd, ob, ob2.pos);
        if (rc < 0) goto out;
      }
      done = last ? r == 0 : in.pos == in.size;
    }
    if (last) break;
  }
  if (dc && !any) {
    *why = "unexpected end of file";
    rc = 1;
  } else if (dc && pending) {
    *why = "premature end";
    rc = 1;
  }
out:
  ZSTD_freeCCtx(cc);
  ZSTD_freeDCtx(dc);
  free(ib);
  free(ob);
  return rc;
}

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n > k && strcmp(s + n - k, suf) == 0;
}

static void zs_file(cmd_ctx *ctx, zs_opts *o, const char *path) {
  bool is_stdin = strcmp(path, "-") == 0;
  store_stat st = {0};
  if (!is_stdin) {
    int rc = cmd_fs_stat(ctx, path, &st);
    if (rc == 0 && S_ISDIR(st.mode)) {
      cmd_err_raw(ctx, "zstd: %s is a directory -- ignored \n", path);
      o->status = 1;
      return;
    }
    if (rc < 0) {
      cmd_record_error(ctx, rc, path);
      cmd_err_raw(ctx, "zstd: can't stat %s : %s -- ignored \n", path, cmd_strerror(rc));
      o->status = 1;
      return;
    }
  }
  /* where the output goes */
  const char *outname = NULL;
  bool to_stdout = o->to_stdout || o->test || (is_stdin && !o->output);
  if (!to_stdout) {
    if (o->output) {
      outname = strcmp(o->output, "-") == 0 ? NULL : o->output;
      if (!outname) to_stdout = true;
    } else if (o->decompress) {
      if (ends_with(path, ".zst")) {
        outname = cmd_strdup(ctx, path);
        ((char *)outname)[strlen(path) - 4] = '\0';
      } else if (ends_with(path, ".tzst")) {
        size_t n = strlen(path);
        char *p = cmd_alloc(ctx, n + 1);
        memcpy(p, path, n - 5);
        strcpy(p + n - 5, ".tar");
        outname = p;
      } else {
        cmd_err_raw(
            ctx,
            "zstd: %s: unknown suffix (.zst/.tzst/.gz/.tgz/.lzma/.xz/.txz/.lz4/.tlz4 "
            "expected). Can't derive the "
            "output file name. Specify it with -o dstFileName. Ignoring.\n",
            path);
        o->status = 1;
        return;
      }
    } else {
      size_t n = strlen(path);
      char *p = cmd_alloc(ctx, n + 5);
      memcpy(p, path, n);
      strcpy(p + n, ".zst");
      outname = p;
    }
  }
  int in_fd = is_stdin ? 0 : ctx->io->open(ctx->io_ud, path, O_RDONLY, 0);
  if (in_fd < 0) {
    cmd_record_error(ctx, in_fd, path);
    cmd_err_raw(ctx, "zstd: %s: %s \n", path, cmd_strerror(in_fd));
    o->status = 1;
    return;
  }
  int out_fd = o->test ? -1 : 1;
  if (outname) {
    store_stat ost;
    if (cmd_fs_lstat(ctx, outname, &ost) == 0) {
      if (!o->force) {
        cmd_err_raw(ctx, "zstd: %s already exists; not overwritten  \n", outname);
        if (in_fd != 0) ctx->io->close(ctx->io_ud, in_fd);
        o->status = 1;
        return;
      }
      store_path_unlink(ctx->store, ctx->cwd, outname);
    }
    out_fd = ctx->io->open(ctx->io_ud, outname, O_WRONLY | O_CREAT | O_EXCL,
                           is_stdin ? 0666 & ~ctx->umask : st.mode & 07777);
    if (out_fd < 0) {
      cmd_record_error(ctx, out_fd, outname);
      cmd_err_raw(ctx, "zstd: %s: %s \n", outname, cmd_strerror(out_fd));
      if (in_fd != 0) ctx->io->close(ctx->io_ud, in_fd);
      o->status = 1;
      return;
    }
  }
  const char *why;
  int rc = zs_stream(ctx, o, in_fd, out_fd, is_stdin ? -1 : (long long)st.size, &why);
  if (in_fd != 0) ctx->io->close(ctx->io_ud, in_fd);
  if (outname) ctx->io->close(ctx->io_ud, out_fd);
  if (rc != 0) {
    if (rc == 1)
      cmd_err_raw(ctx, "zstd: %s: %s \n", is_stdin ? "stdin" : path, why);
    else if (rc != -EPIPE && rc != -ECANCELED)
      cmd_err_raw(ctx, "zstd: %s: %s \n", outname ? outname : path, cmd_strerror(rc));
    if (outname)
      store_path_unlink(ctx->store, ctx->cwd, outname); /* nothing half-written */
    o->status = 1;
    return;
  }
  if (outname && !is_stdin) {
    struct timespec times[2] = {{st.atime, (long)st.atime_nsec},
                                {st.mtime, (long)st.mtime_nsec}};
    store_path_utimes(ctx->store, ctx->cwd, outname, times, 0);
    if (o->rm) store_path_unlink(ctx->store, ctx->cwd, path);
  }
}

int cmd_zstd_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --long, --no-progress, --progress, --check and --sparse are accepted and
   * ignored. zstd itself takes no abbreviation: the order in which an
   * ambiguous prefix names its possibilities is ours (--help and --version
   * last, as GNU's). */
  enum { OPT_RM = CMD_OPT_LONG, OPT_ULTRA, OPT_FAST };
  static const char spec[] = "(help)(version)(rm)(ultra)(fast)::(long)::(no-progress)(progress)(check)(sparse)"
                             "d(decompress)(uncompress)z(compress)c(stdout)f(force)k(keep)"
                             "t(test)q(quiet)v(verbose)T:(threads)o:";
  zs_opts o = {.level = 3};
  const char *base = strrchr(argv[0], '/');
  base = base ? base + 1 : argv[0];
  if (strcmp(base, "unzstd") == 0) o.decompress = true;
  if (strcmp(base, "zstdcat") == 0) o.decompress = o.to_stdout = true;
  bool ultra = false;
  int level = -1000;
  /* -# (a level, "-19") is taken out before the options are parsed */
  char **nv = cmd_alloc(ctx, ((size_t)argc + 1) * sizeof *nv);
  if (!nv) return 1;
  int nc = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i > 0 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' &&
        strspn(a + 1, "0123456789") == strlen(a + 1)) {
      level = strlen(a + 1) > 4 ? 1000 : atoi(a + 1);
      continue;
    }
    nv[nc++] = argv[i];
    if (strcmp(a, "--") == 0) {
      while (++i < argc) nv[nc++] = argv[i];
    }
  }
  nv[nc] = NULL;
  argc = nc, argv = nv;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'd':
        o.decompress = true;
        break;
      case 'z':
        o.decompress = false;
        break;
      case 'c':
        o.to_stdout = true;
        break;
      case 'f':
        o.force = true;
        break;
      case 'k':
        o.rm = false;
        break;
      case OPT_RM:
        o.rm = true;
        break;
      case 't':
        o.test = o.decompress = true;
        break;
      case 'q':
        o.quiet = true;
        break;
      case 'v':
      case 'T':
        break;
      case 'o':
        o.output = g.arg;
        break;
      case OPT_ULTRA:
        ultra = true;
        break;
      case OPT_FAST:
        level = g.arg ? -atoi(g.arg) : -1;
        break;
      case CMD_OPT_HELP:
        cmd_outs(ctx,
                 "Usage: zstd [OPTION]... [FILE]...\n"
                 "Compress or uncompress FILEs (with no FILE or when FILE is `-`, read "
                 "standard input).\n\n"
                 "  -#           # compression level (1-19, default: 3)\n"
                 "  -d, --decompress  decompression\n"
                 "  -c, --stdout write to standard output (even if it is the console)\n"
                 "  -o FILE      result stored into `FILE` (only 1 output file)\n"
                 "  -f, --force  overwrite output without prompting\n"
                 "  --rm         remove source file(s) after successful (de)compression\n"
                 "  -k, --keep   preserve source file(s) (default)\n"
                 "  -t, --test   test compressed file integrity\n"
                 "  -q, --quiet  suppress warnings\n"
                 "  --ultra      enable levels beyond 19, up to 22\n");
        return 0;
      case CMD_OPT_VERSION:
        cmd_outf(ctx, "*** Zstandard CLI (sbx), v%s ***\n", ZSTD_versionString());
        return 0;
      case '?':
        return 1;
    }
  }
  if (level != -1000) {
    int max = ultra ? 22 : 19;
    if (level > max) {
      if (!o.quiet)
        cmd_err_raw(ctx, "Warning : compression level higher than max, reduced to %d \n",
                    max);
      level = max;
    }
    o.level = level;
  }
  int nfiles = argc - g.ind;
  if (o.output && nfiles > 1) {
    cmd_err_raw(ctx, "zstd: -o cannot be used with multiple files\n");
    return 1;
  }
  if (nfiles == 0) zs_file(ctx, &o, "-");
  for (int i = g.ind; i < argc && !cmd_poll(ctx); i++) zs_file(ctx, &o, argv[i]);
  return o.status;
}
