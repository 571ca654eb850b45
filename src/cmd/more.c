/*
 * more, less - page through text; with no terminal (always, in the sandbox)
 * they copy their input, as the real ones do when stdout is not a tty.
 *
 *   Usage: more [OPTIONS] [FILE]...     less [OPTIONS] [FILE]...
 *
 * Design: options are accepted and ignored (paging options mean nothing
 * without a terminal). more puts util-linux's banner before each file when
 * there are several; less copies them one after the other. A missing file is
 * reported and the others are still copied; the status stays 0, as with
 * util-linux more and less.
 */
#include <errno.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("more", cmd_more_main);
CMD_DEFINE("less", cmd_more_main);

static int copy(cmd_ctx *ctx, cmd_in *in) {
  char buf[16384];
  ssize_t n;
  while ((n = cmd_in_read(in, buf, sizeof buf)) > 0) {
    if (cmd_poll(ctx)) return -EINTR;
    int rc = cmd_out(ctx, buf, (size_t)n);
    if (rc < 0) return rc;
  }
  return n < 0 ? (int)n : 0;
}

int cmd_more_main(cmd_ctx *ctx, int argc, char **argv) {
  bool is_less = !strcmp(ctx->name, "less") || strstr(ctx->name, "/less");
  int first = 1;
  /* options (-d, -s, -N, +NUM, -R...) only shape the pager's screen */
  while (first < argc && (argv[first][0] == '-' || argv[first][0] == '+') && argv[first][1]) {
    if (!strcmp(argv[first], "--")) {
      first++;
      break;
    }
    if (!strcmp(argv[first], "--help")) {
      cmd_outs(ctx, is_less ? "Usage: less [OPTIONS] [FILE]...\n"
                            : "Usage: more [options] <file>...\n");
      return 0;
    }
    if (!strcmp(argv[first], "--version")) return cmd_print_version(ctx);
    first++;
  }
  int status = 0;
  if (first >= argc) {
    cmd_in *in = cmd_in_fd(ctx, 0);
    if (!in) return 1;
    int rc = copy(ctx, in);
    cmd_in_close(in);
    return rc == -EPIPE ? 141 : rc < 0 ? 1 : 0;
  }
  for (int i = first; i < argc; i++) {
    cmd_in *in;
    int rc = cmd_in_open(ctx, argv[i], &in);
    if (rc < 0) {
      if (is_less) cmd_outf(ctx, "%s: %s\n", argv[i], cmd_strerror(rc)); /* less: on stdout */
      else cmd_errorf(ctx, "cannot open %s: %s", argv[i], cmd_strerror(rc));
      cmd_record_error(ctx, rc, argv[i]); /* both still exit 0, as util-linux and less */
      continue;
    }
    if (!is_less && argc - first > 1)
      cmd_outf(ctx, "::::::::::::::\n%s\n::::::::::::::\n", argv[i]);
    rc = copy(ctx, in);
    cmd_in_close(in);
    if (rc == -EPIPE) return 141;
    if (rc < 0) status = 1;
  }
  return status;
}
