/*
 * util.c - helpers shared by the `sbx` subcommands: error messages in the
 * "sbx: CONTEXT: reason" form, getopt resets, and whole-stream reads and
 * writes on host file descriptors (stdin, stdout, snapshot files).
 *
 * Errors on the sandbox are reported with the subcommand's own verb ("cat
 * /x") and strerror of sbx_errno(), so the CLI reads like coreutils; other
 * failures print sbx_errmsg(), which already names its context.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_error(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fputs("sbx: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 1;
}

int cli_fail(cli_ctx *c, const char *verb, const char *path) {
  int e = sbx_errno(c->h);
  if (e && path) return cli_error("%s %s: %s", verb, path, strerror(e));
  return cli_error("%s", sbx_errmsg(c->h));
}

void cli_getopt_reset(void) {
  optind = 0; /* glibc: 0 reinitializes the scanner completely */
  opterr = 1;
}

int cli_read_fd(int fd, char **data, size_t *len) {
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) return ENOMEM;
  for (;;) {
    if (n == cap) {
      if (cap > ((size_t)-1) / 4) {
        free(buf);
        return EFBIG;
      }
      char *p = realloc(buf, cap * 2 + 1);
      if (!p) {
        free(buf);
        return ENOMEM;
      }
      buf = p;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      free(buf);
      return e;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}

int cli_read_host_file(const char *path, char **data, size_t *len) {
  if (strcmp(path, "-") == 0) return cli_read_fd(0, data, len);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  int e = cli_read_fd(fd, data, len);
  close(fd);
  return e;
}

int cli_write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

int cli_open_flags;
char **cli_programs;

int cli_open(cli_ctx *c, int create) {
  int rc = sbx_open(c->db, (create ? 0 : SBX_OPEN_NOCREATE) | cli_open_flags, &c->h);
  if (rc == SBX_OK && cli_programs) rc = sbx_set_programs(c->h, (const char *const *)cli_programs);
  if (rc == SBX_OK) return 0;
  cli_error("%s", c->h ? sbx_errmsg(c->h) : "out of memory");
  sbx_close(c->h);
  c->h = NULL;
  return 1;
}

int cli_flag_option(int argc, char **argv, int letter, int *set) {
  const char opts[2] = {(char)letter, '\0'};
  int opt;
  *set = 0;
  cli_getopt_reset();
  while ((opt = getopt(argc, argv, opts)) != -1) {
    if (opt != letter) return -1;
    *set = 1;
  }
  return 0;
}
