/*
 * basename - strip directory and suffix from file names; dirname - strip
 * the last component (GNU coreutils compatible).
 *
 *   basename NAME [SUFFIX]
 *   basename OPTION... NAME...     (-a, --multiple; -s, --suffix=SUFFIX; -z)
 *   dirname [OPTION] NAME...       (-z, --zero)
 *
 * Design decision: pure string functions (no file access), as in GNU on
 * Linux (where "//" is not a distinct root, so dirname "//a" is "/").
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("basename", cmd_basename_main);
CMD_DEFINE("dirname", cmd_dirname_main);

static const char basename_usage[] =
    "Usage: basename NAME [SUFFIX]\n"
    "  or:  basename OPTION... NAME...\n"
    "Print NAME with any leading directory components removed.\n"
    "If specified, also remove a trailing SUFFIX.\n"
    "\n"
    "  -a, --multiple       support multiple arguments and treat each as a NAME\n"
    "  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a\n"
    "  -z, --zero           end each output line with NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

static const char dirname_usage[] =
    "Usage: dirname [OPTION] NAME...\n"
    "Output each NAME with its last non-slash component and trailing slashes\n"
    "removed; if NAME contains no /'s, output '.' (meaning the current directory).\n"
    "\n"
    "  -z, --zero     end each output line with NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

static void base_one(cmd_ctx *ctx, const char *name, const char *suffix, char end) {
  size_t len = strlen(name);
  const char *out;
  size_t olen;
  /* strip trailing slashes; all slashes: "/" (or "//" kept as "/") */
  while (len > 1 && name[len - 1] == '/') len--;
  if (len == 1 && name[0] == '/') {
    out = "/";
    olen = 1;
  } else {
    size_t start = len;
    while (start > 0 && name[start - 1] != '/') start--;
    out = name + start;
    olen = len - start;
    if (suffix) {
      size_t sl = strlen(suffix);
      if (sl < olen && memcmp(out + olen - sl, suffix, sl) == 0) olen -= sl;
    }
  }
  cmd_out(ctx, out, olen);
  cmd_outc(ctx, end);
}

int cmd_basename_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &st, argc, argv,
                          "+(help)(version)a(multiple)s:(suffix)z(zero)", basename_usage);
  if (rc >= 0) return rc;
  const char *suffix = cmd_opt_arg(&st, 's');
  bool multiple = cmd_opt_on(&st, 'a') || suffix, zero = cmd_opt_on(&st, 'z');
  int n = argc - st.ind;
  if (n < 1) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  char end = zero ? '\0' : '\n';
  if (multiple) {
    for (int i = st.ind; i < argc; i++) base_one(ctx, argv[i], suffix, end);
    return 0;
  }
  if (n > 2) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[st.ind + 2]));
    return cmd_usage_hint(ctx, 1);
  }
  base_one(ctx, argv[st.ind], n == 2 ? argv[st.ind + 1] : NULL, end);
  return 0;
}

int cmd_dirname_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &st, argc, argv, "(help)(version)z(zero)", dirname_usage);
  if (rc >= 0) return rc;
  bool zero = cmd_opt_on(&st, 'z');
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  for (int i = st.ind; i < argc; i++) {
    const char *p = argv[i];
    size_t len = strlen(p);
    /* strip trailing slashes, the last component, then its slashes */
    size_t l = len;
    while (l > 0 && p[l - 1] == '/') l--;
    while (l > 0 && p[l - 1] != '/') l--;
    bool had_slash = l > 0;
    while (l > 0 && p[l - 1] == '/') l--;
    if (l == 0) {
      if (had_slash || (len > 0 && p[0] == '/')) {
        cmd_outc(ctx, '/'); /* Linux: "//" is not a distinct root */
      } else {
        cmd_outc(ctx, '.');
      }
    } else {
      cmd_out(ctx, p, l);
    }
    cmd_outc(ctx, zero ? '\0' : '\n');
  }
  return 0;
}
