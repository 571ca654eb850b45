/*
 * tee - read from standard input and write to standard output and files.
 *
 *   Usage: tee [OPTION]... [FILE]...
 *   -a, --append               append to the given FILEs, do not overwrite
 *   -i, --ignore-interrupts    ignore interrupt signals (no signals here)
 *   -p                         diagnose errors writing to non pipes
 *       --output-error[=MODE]  warn, warn-nopipe (default for -p), exit,
 *                              exit-nopipe
 *
 * Design: files are opened through ctx->io (so they live in the store),
 * blocks go to stdout and every open file as they arrive, so `tee` in a
 * pipeline streams. A file that fails is reported once ("tee: F: reason")
 * and dropped; the others go on (status 1). As in GNU, "-" is a file name.
 * A closed stdout pipe ends tee (status 141) unless -p / a *-nopipe mode,
 * in which case the files still receive everything.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("tee", cmd_tee_main);

#define TEE_BLOCK 65536

enum { OE_DEFAULT, OE_WARN, OE_WARN_NOPIPE, OE_EXIT, OE_EXIT_NOPIPE };

static int tee_write_all(cmd_ctx *ctx, int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = ctx->io->write(ctx->io_ud, fd, p, n);
    if (w == -EINTR) continue;
    if (w < 0) return (int)w;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static const char tee_usage[] =
    "Usage: tee [OPTION]... [FILE]...\n"
    "Copy standard input to each FILE, and also to standard output.\n\n"
    "  -a, --append              append to the given FILEs, do not overwrite\n"
    "  -i, --ignore-interrupts   ignore interrupt signals\n"
    "  -p                        diagnose errors writing to non pipes\n"
    "      --output-error[=MODE]   set behavior on write error.  See MODE below\n"
    CMD_HELP_VERSION_LINES;

int cmd_tee_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_OUTPUT_ERROR = CMD_OPT_LONG };
  bool append = false;
  int mode = OE_DEFAULT;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: the last of -p and --output-error counts. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv,
                              "(output-error)::(help)(version)a(append)i(ignore-interrupts)p",
                              NULL)) != -1;) {
    switch (c) {
    case 'a': append = true; break;
    case 'i': break;
    case 'p': mode = OE_WARN_NOPIPE; break;
    case O_OUTPUT_ERROR: {
      static const char *const names[] = {"warn", "warn-nopipe", "exit", "exit-nopipe"};
      if (!g.arg) {
        mode = OE_WARN_NOPIPE;
        break;
      }
      int found = -1, nmatch = 0;
      for (int i = 0; i < 4; i++) {
        if (strcmp(g.arg, names[i]) == 0) { found = i; nmatch = 1; break; }
        if (*g.arg && strncmp(g.arg, names[i], strlen(g.arg)) == 0) { found = i; nmatch++; }
      }
      if (nmatch != 1) {
        cmd_errorf(ctx, "%s argument %s for " CMD_LQ "--output-error" CMD_RQ,
                   nmatch ? "ambiguous" : "invalid", cmd_gnu_quote(ctx, g.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n");
        for (int i = 0; i < 4; i++) cmd_err_raw(ctx, "  - " CMD_LQ "%s" CMD_RQ "\n", names[i]);
        return cmd_usage_hint(ctx, 1);
      }
      mode = OE_WARN + found;
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, tee_usage);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  int nfiles = argc - g.ind;
  int *fds = cmd_alloc(ctx, sizeof(int) * (size_t)(nfiles + 1));
  char *buf = cmd_alloc(ctx, TEE_BLOCK);
  if (!fds || !buf) return 1;
  int status = 0;
  int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
  for (int i = 0; i < nfiles; i++) {
    const char *name = argv[g.ind + i];
    fds[i] = ctx->io->open(ctx->io_ud, name, flags, 0666);
    if (fds[i] < 0) {
      status = cmd_gnu_perror(ctx, name, fds[i]);
      fds[i] = -1;
      if (mode == OE_EXIT || mode == OE_EXIT_NOPIPE) goto out;
    }
  }
  bool stdout_ok = true;
  for (;;) {
    if (cmd_poll(ctx)) {
      status = 1;
      break;
    }
    ssize_t n = ctx->io->read(ctx->io_ud, 0, buf, TEE_BLOCK);
    if (n == -EINTR) continue;
    if (n < 0) {
      status = cmd_gnu_perror(ctx, "-", (int)n);
      break;
    }
    if (n == 0) break;
    if (stdout_ok) {
      int r = cmd_out(ctx, buf, (size_t)n);
      if (r == 0) r = cmd_flush(ctx);
      if (r < 0) {
        bool pipe = r == -EPIPE;
        if (pipe && (mode == OE_DEFAULT)) {
          status = 141;
          goto out;
        }
        if (!pipe || mode == OE_WARN || mode == OE_EXIT) {
          cmd_errorf(ctx, "standard output: %s", cmd_strerror(r));
          status = 1;
        }
        if (mode == OE_EXIT || (mode == OE_EXIT_NOPIPE && !pipe)) goto out;
        stdout_ok = false;
        ctx->out_err = 0;
      }
    }
    bool any = stdout_ok;
    for (int i = 0; i < nfiles; i++) {
      if (fds[i] < 0) continue;
      int r = tee_write_all(ctx, fds[i], buf, (size_t)n);
      if (r < 0) {
        status = cmd_gnu_perror(ctx, argv[g.ind + i], r);
        ctx->io->close(ctx->io_ud, fds[i]);
        fds[i] = -1;
        if (mode == OE_EXIT || mode == OE_EXIT_NOPIPE) goto out;
        continue;
      }
      any = true;
    }
    if (!any) break;
  }
out:
  for (int i = 0; i < nfiles; i++)
    if (fds[i] >= 0) ctx->io->close(ctx->io_ud, fds[i]);
  return status;
}
