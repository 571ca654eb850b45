/*
 * truncate - shrink or extend the size of a file (GNU coreutils compatible).
 *
 *   truncate OPTION... FILE...
 *   -c, --no-create  -o, --io-blocks  -r, --reference=RFILE  -s, --size=SIZE
 *   SIZE: [+-<>/%]NUMBER[K|KB|KiB|M|...]  (extend by, reduce by, at most,
 *   at least, round down to a multiple of, round up to a multiple of)
 *
 * Design decision: sizes go through store_truncate (sparse growth reads as
 * zeros; quotas apply: EFBIG/ENOSPC are reported like GNU's "failed to
 * truncate").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("truncate", cmd_truncate_main);

static const char truncate_usage[] =
    "Usage: truncate OPTION... FILE...\n"
    "Shrink or extend the size of each FILE to the specified size\n"
    "\n"
    "A FILE argument that does not exist is created.\n"
    "\n"
    "  -c, --no-create        do not create any files\n"
    "  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes\n"
    "  -r, --reference=RFILE  base size on RFILE\n"
    "  -s, --size=SIZE        set or adjust the file size by SIZE bytes\n"
    CMD_HELP_VERSION_LINES;

int cmd_truncate_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int done = cmd_getopt_all(ctx, &st, argc, argv,
                            "(help)(version)c(no-create)o(io-blocks)r:(reference)s:(size)",
                            truncate_usage);
  if (done >= 0) return done;
  bool nocreate = cmd_opt_on(&st, 'c'), io_blocks = cmd_opt_on(&st, 'o');
  const char *ref = cmd_opt_arg(&st, 'r'), *size_arg = cmd_opt_arg(&st, 's');
  char mode = 0;
  int64_t size = 0;
  if (size_arg) {
    const char *p = size_arg;
    while (*p == ' ' || *p == '\t') p++;
    if (strchr("+-<>/%", *p) && *p) mode = *p++;
    while (*p == ' ' || *p == '\t') p++;
    uint64_t v;
    int rc = cmd_parse_size(p, "0EgGkKmMPtTYZ", &v);
    if (rc < 0 || *p == '-' || *p == '+') {
      if (rc == -ERANGE) {
        cmd_errorf(ctx, "Invalid number: %s: %s", cmd_gnu_quote(ctx, size_arg),
                   cmd_strerror(-EOVERFLOW));
      } else {
        cmd_errorf(ctx, "Invalid number: %s", cmd_gnu_quote(ctx, size_arg));
      }
      return 1;
    }
    if (v > INT64_MAX) {
      cmd_errorf(ctx, "Invalid number: %s: %s", cmd_gnu_quote(ctx, size_arg),
                 cmd_strerror(-EOVERFLOW));
      return 1;
    }
    size = (int64_t)v;
    if (io_blocks) {
      if (size > INT64_MAX / CMD_FS_BLKSIZE) {
        cmd_errorf(ctx, "overflow in %jd * %d byte blocks for file %s", (intmax_t)size,
                   CMD_FS_BLKSIZE, cmd_gnu_quoteaf(ctx, st.ind < argc ? argv[st.ind] : ""));
        return 1;
      }
      size *= CMD_FS_BLKSIZE;
    }
    if ((mode == '/' || mode == '%') && size == 0) {
      cmd_errorf(ctx, "division by zero");
      return 1;
    }
  }
  if (!size_arg && !ref) {
    cmd_errorf(ctx, "you must specify either %s or %s", cmd_gnu_quote(ctx, "--size"),
               cmd_gnu_quote(ctx, "--reference"));
    return cmd_usage_hint(ctx, 1);
  }
  if (ref && size_arg && !mode) {
    cmd_errorf(ctx, "you must specify a relative %s with %s", cmd_gnu_quote(ctx, "--size"),
               cmd_gnu_quote(ctx, "--reference"));
    return cmd_usage_hint(ctx, 1);
  }
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing file operand");
    return cmd_usage_hint(ctx, 1);
  }
  int64_t ref_size = -1;
  if (ref) {
    store_stat rs;
    int rc = cmd_fs_stat(ctx, ref, &rs);
    if (rc < 0) {
      cmd_errorf(ctx, "cannot stat %s: %s", cmd_gnu_quoteaf(ctx, ref), cmd_strerror(rc));
      return 1;
    }
    ref_size = (int64_t)rs.size;
  }
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    const char *path = argv[i];
    store_stat fs;
    int flags = O_WRONLY | (nocreate ? 0 : O_CREAT);
    int rc = store_path_open(ctx->store, ctx->cwd, path, flags, 0666 & ~(ctx->umask & 0777), &fs);
    if (rc == -ENOENT && nocreate) continue;
    if (rc < 0) {
      cmd_errorf(ctx, "cannot open %s for writing: %s", cmd_gnu_quoteaf(ctx, path),
                 cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      status = 1;
      continue;
    }
    int64_t cur = ref_size >= 0 ? ref_size : (int64_t)fs.size;
    int64_t target;
    switch (mode) {
    case '+': target = cur > INT64_MAX - size ? -1 : cur + size; break;
    case '-': target = cur - size < 0 ? 0 : cur - size; break;
    case '<': target = cur < size ? cur : size; break;
    case '>': target = cur > size ? cur : size; break;
    case '/': target = cur / size * size; break;
    case '%': { /* up to a multiple; -1 (overflow) when that is past INT64_MAX */
      int64_t rest = cur % size;
      target = rest == 0 ? cur : cur > INT64_MAX - (size - rest) ? -1 : cur + (size - rest);
      break;
    }
    default: target = ref_size >= 0 && !size_arg ? ref_size : size;
    }
    if (target < 0) {
      cmd_errorf(ctx, "overflow extending size of file %s", cmd_gnu_quoteaf(ctx, path));
      status = 1;
      continue;
    }
    rc = store_truncate(ctx->store, fs.ino, (uint64_t)target);
    if (rc < 0) {
      cmd_errorf(ctx, "failed to truncate %s at %jd bytes: %s", cmd_gnu_quoteaf(ctx, path),
                 (intmax_t)target, cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      status = 1;
    }
  }
  return status;
}
