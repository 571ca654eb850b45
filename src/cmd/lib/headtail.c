/*
 * headtail.c - the input plumbing head and tail share (see headtail.h): a
 * read and a write that keep the first error of each kind, the bounded
 * window, and the open-and-header / close-and-report steps of each operand.
 * The messages are GNU's, byte for byte.
 */
#include "cmd/lib/headtail.h"

#include <errno.h>
#include <string.h>

ssize_t cmd_headtail_read(cmd_headtail *j, void *buf, size_t n) {
  ssize_t r = cmd_read_once(j->ctx, j->fd, buf, n);
  if (r >= 0) return r;
  if (r == -EINTR) j->fatal = -EINTR; /* cancelled */
  else j->read_err = (int)r;
  return -1;
}

int cmd_headtail_out(cmd_headtail *j, const void *p, size_t n) {
  if (n == 0) return 0;
  int r = cmd_out(j->ctx, p, n);
  if (r < 0) j->fatal = r;
  return r;
}

int cmd_headtail_window_reserve(cmd_headtail *j, cmd_window *w) {
  size_t limit = j->ctx->max_string + CMD_HEADTAIL_BLOCK * 8;
  if (cmd_window_reserve(w, CMD_HEADTAIL_BLOCK, limit) == 0) return 0;
  cmd_errorf(j->ctx, "memory exhausted");
  j->fatal = -ENOMEM;
  return -1;
}

/* Opens operand `name` and prints its header when `header`; returns the
 * descriptor, -EISDIR for a directory (header printed, reading it is the
 * error), or another negative errno after the "cannot open" message. */
static int headtail_open(cmd_ctx *ctx, const char *name, bool header, bool *first) {
  int fd = cmd_open_input(ctx, name);
  if (fd < 0 && fd != -EISDIR) {
    cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, name),
               cmd_strerror(fd));
    cmd_record_error(ctx, fd, name);
    return fd;
  }
  if (header)
    cmd_outf(ctx, "%s==> %s <==\n", *first ? "" : "\n",
             strcmp(name, "-") == 0 ? "standard input" : name);
  *first = false;
  return fd;
}

/* Closes j's input and reports it: 0 to go on (a read error printed and
 * *status set to 1), or the exit status to stop with after a fatal error. */
static int headtail_close(cmd_headtail *j, const char *name, int *status) {
  cmd_ctx *ctx = j->ctx;
  cmd_close_input(ctx, j->fd);
  if (j->fatal == -EINTR || j->fatal == -ENOMEM) return 1;
  if (j->fatal) return cmd_write_error(ctx, j->fatal);
  if (j->read_err) {
    cmd_errorf(ctx, "error reading %s: %s", cmd_gnu_quoteaf(ctx, name),
               cmd_strerror(j->read_err));
    cmd_record_error(ctx, j->read_err, name);
    *status = 1;
  }
  return 0;
}

int cmd_headtail_each(cmd_ctx *ctx, int ac, char **av, int ind, int headers, char delim,
                      cmd_headtail_fn fn, const void *opts, int *opened) {
  *opened = 0;
  int nfiles;
  char *const *files = cmd_file_operands(ac, av, ind, &nfiles);
  bool header = headers == CMD_HEADTAIL_HEADERS_ALWAYS ||
                (headers == CMD_HEADTAIL_HEADERS_AUTO && nfiles > 1);
  char *buf = cmd_alloc(ctx, CMD_HEADTAIL_BLOCK);
  if (!buf) return 1;
  int status = 0;
  bool first = true;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    int fd = headtail_open(ctx, name, header, &first);
    if (fd < 0 && fd != -EISDIR) {
      status = 1;
      continue;
    }
    ++*opened;
    cmd_headtail j = {ctx, fd, delim, buf, 0, 0};
    if (fd == -EISDIR) j.read_err = -EISDIR;
    else fn(&j, opts);
    int stop = headtail_close(&j, name, &status);
    if (stop) return stop;
  }
  return status;
}

char **cmd_headtail_drop_first(cmd_ctx *ctx, int argc, char **argv, int *ac) {
  char **av = cmd_alloc(ctx, sizeof(char *) * (size_t)(argc + 1));
  if (!av) return NULL;
  av[0] = argv[0];
  for (int i = 2; i < argc; i++) av[i - 1] = argv[i];
  *ac = argc - 1;
  return av;
}
