/*
 * host.c - a host program run from the shell: git, make, gcc, node, perl or
 * any executable of the jail's runtime (or one the sandbox built, like
 * ./a.out), run in the sandbox's jail over the same files (src/py/py_spawn.c).
 *
 * The shell resolves the name (PATH in the jail's view, the programs
 * allow-list: py_program_visible) and runs it like a table command, so
 * pipes, redirections, $?, PIPESTATUS, `timeout`, the call's limits and
 * cancel all apply: stdin is read from the ctx, stdout and stderr are written
 * to it as they come, the environment is the exported variables and the
 * directory the shell's. Status as bash reports it: the program's, 128 + N
 * after signal N, 126 "cannot execute" / 127 "No such file or directory"
 * when exec fails in the jail, 127 "command not found" with the reason when
 * the jail cannot run here (no user namespaces, a process-isolated shell).
 */
#include "cmd/host.h"

#include <errno.h>
#include <string.h>

#include "py/py_spawn.h"

static ssize_t host_read(void *ud, void *buf, size_t n) {
  cmd_ctx *ctx = ud;
  if (ctx->io->read_ready && !ctx->io->read_ready(ctx->io_ud, 0)) return -EAGAIN;
  return ctx->io->read(ctx->io_ud, 0, buf, n);
}

static int host_write(void *ud, int fd, const void *buf, size_t n) {
  return cmd_write_fd(ud, fd, buf, n) < 0 ? -EPIPE : 0;
}

static int host_cancelled(void *ud) { return cmd_poll(ud); }

int cmd_jail_exec(cmd_ctx *ctx, const char *path, int argc, char **argv) {
  return cmd_jail_exec_or(ctx, path, argc, argv, NULL);
}

int cmd_jail_exec_or(cmd_ctx *ctx, const char *path, int argc, char **argv,
                     int (*fallback)(cmd_ctx *ctx, int argc, char **argv)) {
  if (!ctx->sandbox) {
    cmd_err_raw(ctx, "%s: command not found (programs of the jail need a sandbox; this runner has none)\n",
                ctx->name);
    return 127;
  }
  cmd_flush(ctx);
  py_proc_io io = {.ud = ctx, .read = host_read, .write = host_write, .cancelled = host_cancelled};
  py_proc_result r;
  if (py_spawn_run(ctx->sandbox, path, argv, ctx->env, ctx->cwd, &io, &r) != 0) {
    if (r.reduced_tier && fallback) return fallback(ctx, argc, argv);
    cmd_err_raw(ctx, "%s: command not found (it would run in the sandbox's jail: %s)\n", ctx->name,
                r.msg);
    return 127;
  }
  if (r.exec_errno) {
    /* bash's words for a failed exec */
    if (r.exec_errno == E2BIG) {
      cmd_errorf(ctx, "Argument list too long");
      return 126;
    }
    cmd_err_raw(ctx, "%s: %s\n", ctx->name, cmd_strerror(r.exec_errno));
    return r.exec_errno == ENOENT ? 127 : 126;
  }
  return r.status;
}

int cmd_host_main(cmd_ctx *ctx, int argc, char **argv) {
  return cmd_jail_exec(ctx, ctx->jail_path ? ctx->jail_path : argv[0], argc, argv);
}
