/*
 * files.c - the file subcommands of `sbx DB ...`: ls, cat, write, rm, mkdir,
 * stat, mv, ln -s, readlink. Each is a thin loop over the sbx_* file helpers;
 * the C API does the validation, so these only parse options, format output
 * and report errors as "sbx: VERB PATH: reason" (continuing with the next
 * operand, like coreutils, and exiting 1 if any failed).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* "drwxr-xr-x" style type and permission bits into buf (11 bytes). */
static void mode_string(uint32_t mode, char *buf) {
  char t = '?';
  switch (mode & S_IFMT) {
    case S_IFREG: t = '-'; break;
    case S_IFDIR: t = 'd'; break;
    case S_IFLNK: t = 'l'; break;
    case S_IFIFO: t = 'p'; break;
    case S_IFCHR: t = 'c'; break;
    case S_IFBLK: t = 'b'; break;
    case S_IFSOCK: t = 's'; break;
  }
  static const char rwx[] = "rwxrwxrwx";
  buf[0] = t;
  for (int i = 0; i < 9; i++) buf[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
  if (mode & S_ISUID) buf[3] = (mode & 0100) ? 's' : 'S';
  if (mode & S_ISGID) buf[6] = (mode & 0010) ? 's' : 'S';
  if (mode & S_ISVTX) buf[9] = (mode & 0001) ? 't' : 'T';
  buf[10] = '\0';
}

/* "dir/name" (malloc'd), without doubling the slash after "/". */
static char *join_path(const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  int slash = dl > 0 && dir[dl - 1] != '/';
  char *p = malloc(dl + slash + nl + 1);
  if (!p) return NULL;
  memcpy(p, dir, dl);
  if (slash) p[dl] = '/';
  memcpy(p + dl + slash, name, nl + 1);
  return p;
}

/* One `ls -l` line for `shown` (the name printed) with metadata of `path`. */
static int ls_long_line(cli_ctx *c, const char *path, const char *shown) {
  sbx_stat st;
  if (sbx_stat_path(c->h, path, 1, &st) != SBX_OK) return cli_fail(c, "ls", path);
  char mode[11], when[32];
  mode_string(st.mode, mode);
  time_t t = (time_t)st.mtime;
  struct tm tm;
  if (gmtime_r(&t, &tm))
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
  else
    snprintf(when, sizeof when, "%" PRId64, st.mtime);
  printf("%s %3" PRIu32 " %5" PRIu32 " %5" PRIu32 " %10" PRIu64 " %s %s", mode, st.nlink,
         st.uid, st.gid, st.size, when, shown);
  if (st.type == SBX_TYPE_SYMLINK) {
    char *target = NULL;
    if (sbx_readlink(c->h, path, &target) == SBX_OK) printf(" -> %s", target);
    sbx_free(target);
  }
  putchar('\n');
  return 0;
}

int cli_ls_main(cli_ctx *c, int argc, char **argv) {
  int lng;
  if (cli_flag_option(argc, argv, 'l', &lng) != 0) return cli_usage("ls");
  if (argc - optind > 1) return cli_usage("ls");
  const char *path = optind < argc ? argv[optind] : "/";

  sbx_stat st;
  if (sbx_stat_path(c->h, path, 0, &st) != SBX_OK) {
    /* A dangling symlink is still listed by its name, like ls. */
    if (sbx_stat_path(c->h, path, 1, &st) != SBX_OK) return cli_fail(c, "ls", path);
  }
  if (st.type != SBX_TYPE_DIR) {
    if (lng) return ls_long_line(c, path, path);
    printf("%s\n", path);
    return 0;
  }
  sbx_dirent *ents;
  size_t n;
  if (sbx_listdir(c->h, path, &ents, &n) != SBX_OK) return cli_fail(c, "ls", path);
  int status = 0;
  for (size_t i = 0; i < n; i++) {
    if (!lng) {
      printf("%s\n", ents[i].name);
      continue;
    }
    char *child = join_path(path, ents[i].name);
    if (!child) {
      status = cli_error("ls: out of memory");
      break;
    }
    if (ls_long_line(c, child, ents[i].name)) status = 1;
    free(child);
  }
  sbx_free(ents);
  return status;
}

int cli_cat_main(cli_ctx *c, int argc, char **argv) {
  int status = 0;
  if (argc < 2) return cli_usage("cat");
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0 && i == 1) continue;
    void *data;
    size_t len;
    if (sbx_read_file(c->h, argv[i], &data, &len) != SBX_OK) {
      status = cli_fail(c, "cat", argv[i]);
      continue;
    }
    fflush(stdout);
    int e = cli_write_all(1, data, len);
    sbx_free(data);
    if (e) return e == EPIPE ? 1 : cli_error("cat: write error: %s", strerror(e));
  }
  return status;
}

int cli_write_main(cli_ctx *c, int argc, char **argv) {
  int append;
  if (cli_flag_option(argc, argv, 'a', &append) != 0) return cli_usage("write");
  if (argc - optind != 1) return cli_usage("write");
  const char *path = argv[optind];
  char *data;
  size_t len;
  int e = cli_read_fd(0, &data, &len);
  if (e) return cli_error("write %s: reading stdin: %s", path, strerror(e));
  int rc = sbx_write_file(c->h, path, data, len,
                          SBX_WRITE_MKDIRS | (append ? SBX_WRITE_APPEND : 0));
  free(data);
  return rc == SBX_OK ? 0 : cli_fail(c, "write", path);
}

int cli_rm_main(cli_ctx *c, int argc, char **argv) {
  int recursive = 0, force = 0, opt;
  cli_getopt_reset();
  while ((opt = getopt(argc, argv, "rRf")) != -1) {
    if (opt == 'r' || opt == 'R')
      recursive = 1;
    else if (opt == 'f')
      force = 1;
    else
      return cli_usage("rm");
  }
  if (optind >= argc && !force) return cli_usage("rm");
  int status = 0;
  for (int i = optind; i < argc; i++) {
    if (sbx_remove(c->h, argv[i], recursive) == SBX_OK) continue;
    if (force && sbx_errno(c->h) == ENOENT) continue;
    status = cli_fail(c, "rm", argv[i]);
  }
  return status;
}

int cli_mkdir_main(cli_ctx *c, int argc, char **argv) {
  int parents;
  if (cli_flag_option(argc, argv, 'p', &parents) != 0) return cli_usage("mkdir");
  if (optind >= argc) return cli_usage("mkdir");
  int status = 0;
  for (int i = optind; i < argc; i++)
    if (sbx_mkdir(c->h, argv[i], parents) != SBX_OK) status = cli_fail(c, "mkdir", argv[i]);
  return status;
}

static void print_time(const char *field, int64_t sec, uint32_t nsec) {
  time_t t = (time_t)sec;
  struct tm tm;
  char buf[64];
  if (gmtime_r(&t, &tm) && strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm))
    printf("%s: %s.%09" PRIu32 "Z\n", field, buf, nsec);
  else
    printf("%s: %" PRId64 "\n", field, sec);
}

int cli_stat_main(cli_ctx *c, int argc, char **argv) {
  int follow;
  if (cli_flag_option(argc, argv, 'L', &follow) != 0) return cli_usage("stat");
  if (argc - optind != 1) return cli_usage("stat");
  const char *path = argv[optind];
  sbx_stat st;
  if (sbx_stat_path(c->h, path, !follow, &st) != SBX_OK) return cli_fail(c, "stat", path);
  static const char *const types[] = {"?", "file", "directory", "symlink", "other"};
  printf("path: %s\n", path);
  printf("type: %s\n", st.type >= 1 && st.type <= 4 ? types[st.type] : "?");
  if (st.type == SBX_TYPE_SYMLINK) {
    char *target = NULL;
    if (sbx_readlink(c->h, path, &target) != SBX_OK) return cli_fail(c, "stat", path);
    printf("target: %s\n", target);
    sbx_free(target);
  }
  printf("size: %" PRIu64 "\n", st.size);
  printf("mode: %04o\n", (unsigned)(st.mode & 07777));
  printf("ino: %" PRId64 "\n", st.ino);
  printf("nlink: %" PRIu32 "\n", st.nlink);
  printf("uid: %" PRIu32 "\n", st.uid);
  printf("gid: %" PRIu32 "\n", st.gid);
  print_time("atime", st.atime, st.atime_nsec);
  print_time("mtime", st.mtime, st.mtime_nsec);
  print_time("ctime", st.ctime, st.ctime_nsec);
  return 0;
}

int cli_mv_main(cli_ctx *c, int argc, char **argv) {
  int first = (argc > 1 && strcmp(argv[1], "--") == 0) ? 2 : 1;
  if (argc - first != 2) return cli_usage("mv");
  const char *from = argv[first], *to = argv[first + 1];
  if (sbx_rename(c->h, from, to) == SBX_OK) return 0;
  if (sbx_errno(c->h))
    return cli_error("mv %s %s: %s", from, to, strerror(sbx_errno(c->h)));
  return cli_error("%s", sbx_errmsg(c->h));
}

int cli_ln_main(cli_ctx *c, int argc, char **argv) {
  int symbolic;
  if (cli_flag_option(argc, argv, 's', &symbolic) != 0) return cli_usage("ln");
  if (!symbolic) return cli_error("ln: only symbolic links (-s) are supported");
  if (argc - optind != 2) return cli_usage("ln");
  const char *target = argv[optind], *link = argv[optind + 1];
  if (sbx_symlink(c->h, target, link) != SBX_OK) return cli_fail(c, "ln", link);
  return 0;
}

int cli_readlink_main(cli_ctx *c, int argc, char **argv) {
  int first = (argc > 1 && strcmp(argv[1], "--") == 0) ? 2 : 1;
  if (argc - first != 1) return cli_usage("readlink");
  char *target;
  if (sbx_readlink(c->h, argv[first], &target) != SBX_OK)
    return cli_fail(c, "readlink", argv[first]);
  printf("%s\n", target);
  sbx_free(target);
  return 0;
}
