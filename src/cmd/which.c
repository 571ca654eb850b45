/*
 * which - locate a command (Debian's which).
 *
 *   which [-a] COMMAND...
 *   -a   print all matching pathnames of each argument
 *
 * Design decision: the sandbox's commands live in its command table, not in
 * files; they are reported in the standard directories of PATH (/usr/local/bin,
 * /usr/bin, /bin) where a Debian system keeps them, after any executable file
 * of that name that the store holds earlier in PATH (cmd_fs_which); other
 * names are found where the jail's runtime has them (/usr/bin/git: host
 * programs the shell runs in the jail, src/cmd/host.c). Status 1
 * when some COMMAND is not found (nothing printed for it), 2 for bad options.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"

CMD_DEFINE("which", cmd_which_main);

/* Printing state for -a. */
typedef struct which_out {
  cmd_ctx *ctx; /* the command */
  int found;    /* matches printed */
} which_out;

static void print_path(void *ud, const char *path) {
  which_out *w = ud;
  cmd_outs(w->ctx, path);
  cmd_outc(w->ctx, '\n');
  w->found++;
}

int cmd_which_main(cmd_ctx *ctx, int argc, char **argv) {
  bool all = false;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1]) break;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'a') all = true;
      else {
        cmd_err_raw(ctx, "Usage: %s [-a] args\n", "/usr/bin/which");
        return 2;
      }
    }
  }
  if (i >= argc) return 1;
  const char *path = cmd_getenv(ctx, "PATH");
  if (!path) path = "/usr/bin:/bin";
  int status = 0;
  for (; i < argc; i++) {
    which_out w = {ctx, 0};
    if (all) {
      cmd_fs_which(ctx, argv[i], path, true, print_path, &w);
    } else {
      const char *p = cmd_fs_which(ctx, argv[i], path, false, NULL, NULL);
      if (p) print_path(&w, p);
    }
    if (!w.found) status = 1;
  }
  return status;
}
