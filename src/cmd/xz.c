/*
 * xz, unxz, xzcat, bzip2, bunzip2, bzcat - compress or expand single files
 * (libarchive's xz and bzip2 filters over its "raw" format).
 *
 *   xz [-zdtkcfqv0-9] [FILE]...        bzip2 [-zdtkcfqvs1-9] [FILE]...
 *
 * One front end for both tools; only the suffix, the filter and the wording
 * of messages differ (xz 5.4: "xz: a: File format not recognized"; bzip2
 * 1.0.8: "bzip2: a is not a bzip2 file."). FILE becomes FILE.xz / FILE.bz2
 * (mode and times kept, the original removed unless -k or -c). With no FILE,
 * stdin to stdout. Output goes through the store: a decompression bomb stops
 * at the quota, and a failed output file is removed.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/archive_io.h"

CMD_DEFINE("xz", cmd_xz_main);
CMD_DEFINE("unxz", cmd_xz_main);
CMD_DEFINE("xzcat", cmd_xz_main);
CMD_DEFINE("bzip2", cmd_xz_main);
CMD_DEFINE("bunzip2", cmd_xz_main);
CMD_DEFINE("bzcat", cmd_xz_main);

typedef struct xz_tool {
  bool bz;             /* bzip2 (else xz) */
  const char *suffix;  /* ".xz" / ".bz2" */
  bool decompress, to_stdout, keep, force, test, quiet, verbose;
  int level;
  int status;
} xz_tool;

static void fail(xz_tool *t, int st) {
  if (st > t->status) t->status = st;
}

/* Streams in_fd through the (de)compressor into out_fd (1: buffered stdout,
 * -1: discard). Returns 0, a negative errno for I/O, or 1 for bad input. */
static int transform(cmd_ctx *ctx, xz_tool *t, int in_fd, int out_fd, const char **why) {
  arc_io *in = malloc(sizeof *in), *out = malloc(sizeof *out);
  char *buf = malloc(65536);
  int rc = 0;
  *why = NULL;
  if (!in || !out || !buf) {
    rc = -ENOMEM;
    goto done;
  }
  in->ctx = out->ctx = ctx;
  in->fd = in_fd;
  out->fd = out_fd;
  if (!t->decompress && !t->test) {
    struct archive *w = archive_write_new();
    if (t->bz) archive_write_add_filter_bzip2(w);
    else archive_write_add_filter_xz(w);
    char lv[4];
    snprintf(lv, sizeof lv, "%d", t->level);
    archive_write_set_filter_option(w, NULL, "compression-level", lv);
    archive_write_set_format_raw(w);
    archive_write_set_bytes_in_last_block(w, 1);
    if (archive_write_open(w, out, NULL, arc_write_cb, NULL) != ARCHIVE_OK) {
      *why = archive_error_string(w);
      rc = 1;
    } else {
      struct archive_entry *e = archive_entry_new();
      archive_entry_set_filetype(e, AE_IFREG);
      archive_write_header(w, e);
      archive_entry_free(e);
      for (;;) {
        ssize_t r = ctx->io->read(ctx->io_ud, in_fd, buf, 65536);
        if (r < 0) { rc = (int)r; break; }
        if (r == 0) break;
        if (archive_write_data(w, buf, (size_t)r) < 0) {
          rc = archive_errno(w) > 0 ? -archive_errno(w) : -EIO;
          break;
        }
      }
      if (archive_write_close(w) != ARCHIVE_OK && rc == 0)
        rc = archive_errno(w) > 0 ? -archive_errno(w) : -EIO;
    }
    archive_write_free(w);
    goto done;
  }
  struct archive *r = archive_read_new();
  if (t->bz) archive_read_support_filter_bzip2(r);
  else archive_read_support_filter_xz(r), archive_read_support_filter_lzma(r);
  archive_read_support_format_raw(r);
  struct archive_entry *e;
  if (archive_read_open(r, in, NULL, arc_read_cb, NULL) != ARCHIVE_OK ||
      archive_read_next_header(r, &e) != ARCHIVE_OK ||
      archive_filter_code(r, 0) == ARCHIVE_FILTER_NONE) {
    int e_no = archive_errno(r);
    /* Our read callback's own failures are I/O; everything else is bad input. */
    rc = e_no == ECANCELED || e_no == EIO || e_no == EACCES ? -e_no : 1;
    *why = "not recognized";
  } else {
    for (;;) {
      la_ssize_t n = archive_read_data(r, buf, 65536);
      if (n == 0) break;
      if (n < 0) {
        *why = "Compressed data is corrupt";
        rc = 1;
        break;
      }
      if (out_fd == -1) continue;
      int wr = out_fd == 1 ? cmd_out(ctx, buf, (size_t)n) : cmd_write_fd(ctx, out_fd, buf, (size_t)n);
      if (wr < 0) {
        rc = wr;
        break;
      }
    }
  }
  archive_read_free(r);
done:
  free(in);
  free(out);
  free(buf);
  return rc;
}

static void report(cmd_ctx *ctx, xz_tool *t, const char *name, int rc, const char *why) {
  const char *prog = ctx->name;
  if (rc < 0) {
    if (rc == -EPIPE) { fail(t, 1); return; }
    cmd_record_error(ctx, rc, name);
    if (t->bz)
      cmd_err_raw(ctx, "%s: I/O or other error, bailing out.  Possible reason follows.\n", prog);
    cmd_err_raw(ctx, "%s: %s: %s\n", prog, name, cmd_strerror(rc));
    fail(t, 1);
    return;
  }
  if (t->bz)
    cmd_err_raw(ctx, "%s: %s is not a bzip2 file.\n", prog, name);
  else if (why && strcmp(why, "not recognized") == 0)
    cmd_err_raw(ctx, "%s: %s: File format not recognized\n", prog, name);
  else
    cmd_err_raw(ctx, "%s: %s: %s\n", prog, name, why ? why : "Compressed data is corrupt");
  fail(t, t->bz ? 2 : 1);
}

static void do_file(cmd_ctx *ctx, xz_tool *t, const char *path) {
  const char *prog = ctx->name;
  if (strcmp(path, "-") == 0) {
    const char *why;
    int rc = transform(ctx, t, 0, t->test ? -1 : 1, &why);
    if (rc) report(ctx, t, "(stdin)", rc, why);
    return;
  }
  store_stat st;
  int rc = cmd_fs_stat(ctx, path, &st);
  if (rc < 0) {
    cmd_record_error(ctx, rc, path);
    if (t->bz)
      cmd_err_raw(ctx, "%s: Can't open input file %s: %s.\n", prog, path, cmd_strerror(rc));
    else
      cmd_err_raw(ctx, "%s: %s: %s\n", prog, path, cmd_strerror(rc));
    fail(t, 1);
    return;
  }
  if (S_ISDIR(st.mode)) {
    if (t->bz) cmd_err_raw(ctx, "%s: Input file %s is a directory.\n", prog, path);
    else cmd_err_raw(ctx, "%s: %s: Is a directory, skipping\n", prog, path);
    fail(t, t->bz ? 1 : 2);
    return;
  }
  size_t n = strlen(path), sl = strlen(t->suffix);
  char *outname = NULL;
  bool to_file = !t->to_stdout && !t->test;
  if (t->decompress || t->test) {
    if (n > sl && strcmp(path + n - sl, t->suffix) == 0) {
      outname = strndup(path, n - sl);
    } else if (t->bz && n > 4 && strcmp(path + n - 4, ".tbz") == 0) {
      outname = malloc(n + 1);
      sprintf(outname, "%.*s.tar", (int)(n - 4), path);
    } else if (!t->bz && n > 4 && strcmp(path + n - 4, ".txz") == 0) {
      outname = malloc(n + 1);
      sprintf(outname, "%.*s.tar", (int)(n - 4), path);
    } else if (to_file) {
      if (t->bz) {
        cmd_err_raw(ctx, "%s: Can't guess original name for %s -- using %s.out\n", prog, path, path);
        outname = malloc(n + 5);
        sprintf(outname, "%s.out", path);
      } else {
        cmd_err_raw(ctx, "%s: %s: Filename has an unknown suffix, skipping\n", prog, path);
        fail(t, 2);
        return;
      }
    }
  } else {
    if (n > sl && strcmp(path + n - sl, t->suffix) == 0 && to_file && !t->force) {
      if (t->bz)
        cmd_err_raw(ctx, "%s: Input file %s already has %s suffix.\n", prog, path, t->suffix + 1);
      else
        cmd_err_raw(ctx, "%s: %s: File already has `%s' suffix, skipping\n", prog, path, t->suffix);
      fail(t, t->bz ? 1 : 2);
      return;
    }
    outname = malloc(n + sl + 1);
    if (outname) sprintf(outname, "%s%s", path, t->suffix);
  }
  int in_fd = ctx->io->open(ctx->io_ud, path, O_RDONLY, 0);
  if (in_fd < 0) {
    cmd_record_error(ctx, in_fd, path);
    cmd_err_raw(ctx, "%s: %s: %s\n", prog, path, cmd_strerror(in_fd));
    fail(t, 1);
    free(outname);
    return;
  }
  int out_fd = t->test ? -1 : 1;
  if (to_file) {
    store_stat ost;
    if (store_path_lstat(ctx->store, ctx->cwd, outname, &ost) == 0) {
      if (!t->force) {
        if (t->bz) cmd_err_raw(ctx, "%s: Output file %s already exists.\n", prog, outname);
        else cmd_err_raw(ctx, "%s: %s: File exists\n", prog, outname);
        fail(t, 1);
        ctx->io->close(ctx->io_ud, in_fd);
        free(outname);
        return;
      }
      store_path_unlink(ctx->store, ctx->cwd, outname);
    }
    out_fd = ctx->io->open(ctx->io_ud, outname, O_WRONLY | O_CREAT | O_EXCL, st.mode & 07777);
    if (out_fd < 0) {
      cmd_record_error(ctx, out_fd, outname);
      cmd_err_raw(ctx, "%s: %s: %s\n", prog, outname, cmd_strerror(out_fd));
      fail(t, 1);
      ctx->io->close(ctx->io_ud, in_fd);
      free(outname);
      return;
    }
  }
  const char *why;
  rc = transform(ctx, t, in_fd, out_fd, &why);
  ctx->io->close(ctx->io_ud, in_fd);
  if (to_file) ctx->io->close(ctx->io_ud, out_fd);
  if (rc) {
    report(ctx, t, rc < 0 && (rc == -ENOSPC || rc == -EFBIG) ? outname : path, rc, why);
    if (to_file) store_path_unlink(ctx->store, ctx->cwd, outname); /* nothing half-written */
  } else if (to_file) {
    struct timespec times[2] = {{st.atime, st.atime_nsec}, {st.mtime, st.mtime_nsec}};
    store_path_utimes(ctx->store, ctx->cwd, outname, times, 0);
    if (!t->keep) store_path_unlink(ctx->store, ctx->cwd, path);
  }
  free(outname);
}

int cmd_xz_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] = "z(compress)d(decompress)(uncompress)t(test)k(keep)c(stdout)"
                             "(to-stdout)f(force)q(quiet)v(verbose)h(help)V(version)01(fast)"
                             "23456789(best)s(small)T:(threads)";
  const char *base = strrchr(ctx->name, '/');
  base = base ? base + 1 : ctx->name;
  xz_tool t = {.level = 6};
  t.bz = base[0] == 'b';
  t.suffix = t.bz ? ".bz2" : ".xz";
  if (t.bz) t.level = 9;
  if (strncmp(base, "un", 2) == 0 || strncmp(base, "bun", 3) == 0) t.decompress = true;
  if (strstr(base, "cat")) t.decompress = t.to_stdout = true;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'z': t.decompress = false; break;
      case 'd': t.decompress = true; break;
      case 't': t.test = true; break;
      case 'k': t.keep = true; break;
      case 'c': t.to_stdout = true; break;
      case 'f': t.force = true; break;
      case 'q': t.quiet = true; break;
      case 'v': t.verbose = true; break;
      case 's': case 'T': break;
      case 'h':
        cmd_outf(ctx,
                 "Usage: %s [OPTION]... [FILE]...\n"
                 "Compress or decompress FILEs in the .%s format.\n\n"
                 "  -z, --compress      force compression\n"
                 "  -d, --decompress    force decompression\n"
                 "  -t, --test          test compressed file integrity\n"
                 "  -k, --keep          keep (don't delete) input files\n"
                 "  -f, --force         force overwrite of output file\n"
                 "  -c, --stdout        write to standard output and don't delete input files\n"
                 "  -0 ... -9           compression preset\n"
                 "  -q, --quiet         suppress warnings\n\n"
                 "With no FILE, or when FILE is -, read standard input.\n",
                 base, t.bz ? "bz2" : "xz");
        return 0;
      case 'V': return cmd_print_version(ctx);
      case '?': return 1;
      default:
        if (c >= '0' && c <= '9') t.level = c == '0' && t.bz ? 1 : c - '0';
    }
  }
  if (st.ind >= argc) {
    do_file(ctx, &t, "-");
  } else {
    for (int i = st.ind; i < argc && !cmd_poll(ctx); i++) do_file(ctx, &t, argv[i]);
  }
  return t.status;
}
