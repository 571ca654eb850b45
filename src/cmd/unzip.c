/*
 * unzip - list, test and extract ZIP archives (libarchive).
 *
 *   unzip [-l | -Z1 | -t | -p] [-oqnj] ZIPFILE [MEMBER...] [-x MEMBER...] [-d DIR]
 *
 * Output and messages follow Info-ZIP unzip 6.0 ("Archive:  x.zip",
 * "  inflating: name", the -l table, exit 9 for a missing or broken archive,
 * 11 when a named member is absent). Without -o an existing file is not
 * replaced: with no terminal to ask, the answer is Info-ZIP's "[N]one".
 *
 * Safety, as in tar: a member with a ".." component is skipped with a warning,
 * a leading "/" is removed, the directories above a member are created
 * without following symlinks (so a planted symlink cannot carry the
 * extraction out of DIR), and every byte goes through the store and its quota.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/archive_io.h"

CMD_DEFINE("unzip", cmd_unzip_main);

#define UNZIP_MAX_NAMES 256

typedef struct unzip_opts {
  char mode;          /* 'x' extract, 'l' list, '1' names only, 't' test, 'p' pipe */
  bool overwrite, never, quiet, junk;
  int qq;             /* -qq: no "Archive:" line either */
  const char *dir;    /* -d */
  const char *inc[UNZIP_MAX_NAMES]; /* member patterns */
  int ninc;
  const char *exc[UNZIP_MAX_NAMES]; /* -x patterns */
  int nexc;
  int status;
} unzip_opts;

static bool selected(unzip_opts *o, const char *name, bool *hits) {
  for (int i = 0; i < o->nexc; i++)
    if (fnmatch(o->exc[i], name, 0) == 0) return false;
  if (o->ninc == 0) return true;
  for (int i = 0; i < o->ninc; i++) {
    if (fnmatch(o->inc[i], name, 0) == 0) {
      hits[i] = true;
      return true;
    }
  }
  return false;
}

/* The compression method of member `name` from the central directory of the
 * archive bytes (0 stored, 8 deflated), or -1 when not found. */
static int member_method(const unsigned char *a, size_t len, const char *name) {
  if (len < 22) return -1;
  size_t eocd = len - 22, stop = len > 22 + 65535 ? len - 22 - 65535 : 0;
  while (!(a[eocd] == 0x50 && a[eocd + 1] == 0x4b && a[eocd + 2] == 5 && a[eocd + 3] == 6)) {
    if (eocd == stop) return -1;
    eocd--;
  }
  unsigned count = a[eocd + 10] | a[eocd + 11] << 8;
  size_t off = a[eocd + 16] | a[eocd + 17] << 8 | a[eocd + 18] << 16 | (size_t)a[eocd + 19] << 24;
  size_t nlen_want = strlen(name);
  for (unsigned i = 0; i < count && off + 46 <= len; i++) {
    const unsigned char *p = a + off;
    size_t nlen = p[28] | p[29] << 8, xlen = p[30] | p[31] << 8, clen = p[32] | p[33] << 8;
    if (off + 46 + nlen > len) return -1;
    if (nlen == nlen_want && memcmp(p + 46, name, nlen) == 0) return p[10] | p[11] << 8;
    off += 46 + nlen + xlen + clen;
  }
  return -1;
}

static int copy_data(struct archive *a, cmd_ctx *ctx, int fd) {
  const void *buf;
  size_t size;
  la_int64_t off;
  for (;;) {
    int r = archive_read_data_block(a, &buf, &size, &off);
    if (r == ARCHIVE_EOF) return 0;
    if (r < ARCHIVE_WARN) return -EIO;
    if (fd == -1) continue; /* test mode: decompress and check only */
    int rc = fd == 1 ? cmd_out(ctx, buf, size) : cmd_write_fd(ctx, fd, buf, size);
    if (rc < 0) return rc;
  }
}

static void extract(struct archive *a, struct archive_entry *e, cmd_ctx *ctx, unzip_opts *o,
                    const char *raw, bool stored) {
  const char *name = raw;
  while (*name == '/') name++;
  if (arc_has_dotdot(name)) {
    cmd_err_raw(ctx, "warning:  skipped \"../\" path component(s) in %s\n", raw);
    o->status = o->status ? o->status : 1;
    return;
  }
  if (o->junk) {
    const char *b = strrchr(name, '/');
    if (b && b[1] == '\0') return; /* directories vanish with -j */
    if (b) name = b + 1;
  }
  if (!*name) return;
  const char *base = o->dir ? o->dir : ".";
  bool dir = S_ISDIR(archive_entry_mode(e)) || name[strlen(name) - 1] == '/';
  char *full = arc_join(base, name);
  if (!full) return;
  const char *shown = o->dir ? full : name;
  /* "d/" names the directory d: its parents are what must exist first. */
  size_t fl = strlen(full);
  char *trimmed = strdup(full);
  if (trimmed)
    while (fl > 1 && trimmed[fl - 1] == '/') trimmed[--fl] = '\0';
  int rc = trimmed ? arc_make_parents(ctx, trimmed, strlen(base)) : -ENOMEM;
  free(trimmed);
  if (rc < 0) {
    cmd_err_raw(ctx, "checkdir error:  %s: %s\n", shown,
                rc == -ELOOP ? "path goes through a symbolic link" : cmd_strerror(rc));
    o->status = 50;
    free(full);
    return;
  }
  store_stat st;
  bool exists = store_path_lstat(ctx->store, ctx->cwd, full, &st) == 0;
  if (dir) {
    if (!exists) {
      if (!o->quiet) cmd_outf(ctx, "   creating: %s\n", shown);
      rc = store_path_mkdir(ctx->store, ctx->cwd, full, 0755 & ~ctx->umask);
      if (rc < 0) cmd_err_raw(ctx, "checkdir error:  cannot create %s\n", shown);
    }
    free(full);
    return;
  }
  if (exists) {
    if (o->never || !o->overwrite) {
      if (!o->never) {
        cmd_err_raw(ctx, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n"
                      "(EOF or read error, treating as \"[N]one\" ...)\n", shown);
        o->never = true; /* "[N]one" holds for the rest of the archive */
      }
      free(full);
      return;
    }
    store_path_unlink(ctx->store, ctx->cwd, full);
  }
  if (!o->quiet)
    cmd_outf(ctx, "%s: %-22s  \n", stored ? " extracting" : "  inflating", shown);
  if (S_ISLNK(archive_entry_mode(e)) && archive_entry_symlink(e)) {
    rc = store_path_symlink(ctx->store, ctx->cwd, archive_entry_symlink(e), full);
  } else {
    int fd = ctx->io->open(ctx->io_ud, full, O_WRONLY | O_CREAT | O_TRUNC, 0644 & ~ctx->umask);
    if (fd < 0) {
      cmd_record_error(ctx, fd, full);
      cmd_err_raw(ctx, "error:  cannot create %s\n        %s\n", shown, cmd_strerror(fd));
      o->status = 50;
      free(full);
      return;
    }
    rc = copy_data(a, ctx, fd);
    ctx->io->close(ctx->io_ud, fd);
    if (rc < 0) {
      cmd_record_error(ctx, rc, full);
      cmd_err_raw(ctx, "error:  %s: %s\n", shown,
                  rc == -EIO ? archive_error_string(a) : cmd_strerror(rc));
      store_path_unlink(ctx->store, ctx->cwd, full); /* no half-written file */
      o->status = rc == -ENOSPC || rc == -EFBIG ? 50 : 2;
      free(full);
      return;
    }
    uint32_t mode = archive_entry_mode(e) & 0777;
    if (mode) store_path_chmod(ctx->store, ctx->cwd, full, mode);
  }
  struct timespec ts[2] = {{archive_entry_mtime(e), 0}, {archive_entry_mtime(e), 0}};
  store_path_utimes(ctx->store, ctx->cwd, full, ts, STORE_NOFOLLOW);
  free(full);
}

int cmd_unzip_main(cmd_ctx *ctx, int argc, char **argv) {
  unzip_opts o = {.mode = 'x'};
  const char *zipname = NULL;
  bool xlist = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      cmd_outs(ctx,
               "Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]\n"
               "  -l  list files    -t  test archive    -p  extract files to pipe\n"
               "  -d  extract files into exdir          -x  exclude files that follow\n"
               "  -o  overwrite files WITHOUT prompting  -n  never overwrite existing files\n"
               "  -q  quiet mode (-qq => quieter)       -j  junk paths (do not make directories)\n"
               "  -Z1 list names only\n");
      return 0;
    }
    if (strcmp(a, "-d") == 0 && i + 1 < argc) {
      o.dir = argv[++i];
      continue;
    }
    if (strcmp(a, "-x") == 0) {
      xlist = true;
      continue;
    }
    if (strcmp(a, "-Z1") == 0 || strcmp(a, "-Z") == 0) {
      o.mode = '1';
      continue;
    }
    if (a[0] == '-' && a[1]) {
      for (const char *p = a + 1; *p; p++) {
        switch (*p) {
          case 'l': o.mode = 'l'; break;
          case 't': o.mode = 't'; break;
          case 'p': o.mode = 'p'; o.quiet = true; break;
          case 'o': o.overwrite = true; break;
          case 'n': o.never = true; break;
          case 'q': if (o.quiet) o.qq++; o.quiet = true; break;
          case 'j': o.junk = true; break;
          case 'a': case 'b': case 'C': case 'L': case 'X': case 'v': break;
          case 'd':
            if (p[1]) { o.dir = p + 1; p += strlen(p) - 1; }
            else if (i + 1 < argc) o.dir = argv[++i];
            break;
          default:
            cmd_err_raw(ctx, "unzip:  invalid option -%c\n", *p);
            return 10;
        }
      }
      continue;
    }
    if (!zipname) zipname = a;
    else if (xlist) { if (o.nexc < UNZIP_MAX_NAMES) o.exc[o.nexc++] = a; }
    else if (o.ninc < UNZIP_MAX_NAMES) o.inc[o.ninc++] = a;
  }
  if (!zipname) {
    cmd_err_raw(ctx, "unzip:  no zipfile specified\n");
    return 10;
  }
  /* Info-ZIP tries NAME, NAME.zip and NAME.ZIP. */
  char *tryname = malloc(strlen(zipname) + 5);
  int fd = -ENOENT;
  const char *sufs[] = {"", ".zip", ".ZIP"};
  for (int k = 0; k < 3 && fd < 0; k++) {
    sprintf(tryname, "%s%s", zipname, sufs[k]);
    store_stat st;
    if (store_path_stat(ctx->store, ctx->cwd, tryname, &st) == 0 && S_ISREG(st.mode))
      fd = ctx->io->open(ctx->io_ud, tryname, O_RDONLY, 0);
  }
  if (fd < 0) {
    cmd_err_raw(ctx, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", zipname, zipname,
                zipname);
    free(tryname);
    return 9;
  }
  if (o.dir && o.mode == 'x') {
    int rc = store_path_mkdir_p(ctx->store, ctx->cwd, o.dir, 0755 & ~ctx->umask);
    if (rc < 0) {
      cmd_err_raw(ctx, "checkdir error:  cannot create %s\n                 %s\n", o.dir,
                  cmd_strerror(rc));
      ctx->io->close(ctx->io_ud, fd);
      free(tryname);
      return 50;
    }
  }
  /* The whole archive in memory (bounded by the string limit): libarchive then
   * reads the central directory, and we can look up each member's method. */
  char *data = NULL;
  size_t datalen = 0;
  cmd_in *in = cmd_in_fd(ctx, fd);
  int rc = in ? cmd_in_slurp(in, &data, &datalen) : -ENOMEM;
  cmd_in_close(in);
  ctx->io->close(ctx->io_ud, fd);
  struct archive *a = archive_read_new();
  bool *hits = calloc(UNZIP_MAX_NAMES, 1);
  if (rc < 0 || !a || !hits) {
    if (rc < 0) cmd_err_raw(ctx, "unzip:  cannot read %s: %s\n", tryname, cmd_strerror(rc));
    archive_read_free(a);
    free(data);
    free(hits);
    free(tryname);
    return rc == -EFBIG ? 9 : 1;
  }
  archive_read_support_format_zip(a);
  struct archive_entry *e;
  int r = archive_read_open_memory(a, data, datalen);
  if (r == ARCHIVE_OK) r = archive_read_next_header(a, &e);
  if (r != ARCHIVE_OK && r != ARCHIVE_WARN && r != ARCHIVE_EOF) {
    if (!o.qq && o.mode != 'p') cmd_outf(ctx, "Archive:  %s\n", tryname);
    cmd_err_raw(ctx,
                "  End-of-central-directory signature not found.  Either this file is not\n"
                "  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n"
                "  latter case the central directory and zipfile comment will be found on\n"
                "  the last disk(s) of this archive.\n"
                "unzip:  cannot find zipfile directory in one of %s or\n"
                "        %s.zip, and cannot find %s.ZIP, period.\n",
                zipname, zipname, zipname);
    o.status = 9;
    goto out;
  }
  if (!o.quiet && o.mode != '1') cmd_outf(ctx, "Archive:  %s\n", tryname);
  if (o.mode == 'l')
    cmd_outs(ctx, "  Length      Date    Time    Name\n---------  ---------- -----   ----\n");
  uint64_t total = 0;
  unsigned files = 0;
  int errors = 0;
  while (r == ARCHIVE_OK || r == ARCHIVE_WARN) {
    if (cmd_poll(ctx)) break;
    const char *name = archive_entry_pathname(e);
    if (name && selected(&o, name, hits)) {
      if (o.mode == 'l') {
        char date[32];
        time_t t = archive_entry_mtime(e);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
        cmd_outf(ctx, "%9lld  %s   %s\n", (long long)archive_entry_size(e), date, name);
        total += (uint64_t)archive_entry_size(e);
        files++;
      } else if (o.mode == '1') {
        cmd_outf(ctx, "%s\n", name);
      } else if (o.mode == 't') {
        int trc = copy_data(a, ctx, -1);
        if (trc < 0) {
          cmd_outf(ctx, "    testing: %-22s   bad\n", name);
          errors++;
        } else if (!o.quiet) {
          cmd_outf(ctx, "    testing: %-22s   OK\n", name);
        }
      } else if (o.mode == 'p') {
        if (copy_data(a, ctx, 1) < 0) o.status = 2;
      } else {
        extract(a, e, ctx, &o, name,
                member_method((unsigned char *)data, datalen, name) == 0);
      }
    }
    r = archive_read_next_header(a, &e);
  }
  if (r == ARCHIVE_FATAL) {
    cmd_err_raw(ctx, "unzip: %s\n", archive_error_string(a));
    o.status = 2;
  }
  if (o.mode == 'l')
    cmd_outf(ctx, "---------                     -------\n%9llu                     %u file%s\n",
             (unsigned long long)total, files, files == 1 ? "" : "s");
  if (o.mode == 't') {
    if (errors) {
      cmd_outf(ctx, "At least one error was detected in %s.\n", tryname);
      o.status = 2;
    } else {
      cmd_outf(ctx, "No errors detected in compressed data of %s.\n", tryname);
    }
  }
  for (int i = 0; i < o.ninc; i++) {
    if (!hits[i]) {
      cmd_err_raw(ctx, "caution: filename not matched:  %s\n", o.inc[i]);
      if (!o.status) o.status = 11;
    }
  }
out:
  archive_read_free(a);
  free(data);
  free(hits);
  free(tryname);
  return o.status;
}
