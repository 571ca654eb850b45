/*
 * readlink - print resolved symbolic links or canonical file names;
 * realpath - print the resolved path (GNU coreutils compatible).
 *
 *   readlink [OPTION]... FILE...
 *   -f (all but the last component must exist), -e (all must exist),
 *   -m (none need exist), -n, -q/-s (quiet, the default), -v, -z
 *   realpath [OPTION]... FILE...
 *   -e, -m, -L, -P, -q, -s/--strip/--no-symlinks, -z, --relative-to=DIR,
 *   --relative-base=DIR
 *
 * Design decision: both use cmd_fs_canonicalize (lib/fs), which walks the
 * store component by component with lstat/readlink like gnulib's
 * canonicalize_filename_mode, so -f/-e/-m agree with GNU on missing
 * components, loops (ELOOP) and non-directories in the middle (ENOTDIR).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("readlink", cmd_readlink_main);
CMD_DEFINE("realpath", cmd_realpath_main);

static const char readlink_usage[] =
    "Usage: readlink [OPTION]... FILE...\n"
    "Print value of a symbolic link or canonical file name\n"
    "\n"
    "  -f, --canonicalize            canonicalize by following every symlink in\n"
    "                                every component of the given name recursively;\n"
    "                                all but the last component must exist\n"
    "  -e, --canonicalize-existing   canonicalize by following every symlink in\n"
    "                                every component of the given name recursively,\n"
    "                                all components must exist\n"
    "  -m, --canonicalize-missing    canonicalize by following every symlink in\n"
    "                                every component of the given name recursively,\n"
    "                                without requirements on components existence\n"
    "  -n, --no-newline              do not output the trailing delimiter\n"
    "  -q, --quiet\n"
    "  -s, --silent                  suppress most error messages (on by default)\n"
    "  -v, --verbose                 report error messages\n"
    "  -z, --zero                    end each output line with NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

static const char realpath_usage[] =
    "Usage: realpath [OPTION]... FILE...\n"
    "Print the resolved absolute file name;\n"
    "all but the last component must exist\n"
    "\n"
    "  -e, --canonicalize-existing  all components of the path must exist\n"
    "  -m, --canonicalize-missing   no path components need exist or be a directory\n"
    "  -L, --logical                resolve '..' components before symlinks\n"
    "  -P, --physical               resolve symlinks as encountered (default)\n"
    "  -q, --quiet                  suppress most error messages\n"
    "      --relative-to=DIR        print the resolved path relative to DIR\n"
    "      --relative-base=DIR      print absolute paths unless paths below DIR\n"
    "  -s, --strip, --no-symlinks   don't expand symlinks\n"
    "  -z, --zero                   end each output line with NUL, not newline\n"
    CMD_HELP_VERSION_LINES;

static const char readlink_options[] =
    "(help)(version)f(canonicalize)e(canonicalize-existing)m(canonicalize-missing)"
    "n(no-newline)q(quiet)s(silent)v(verbose)z(zero)";

int cmd_readlink_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int mode = -1;
  bool verbose = false;
  /* A loop: the last of -e/-f/-m and the last of -q/-s/-v count. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, readlink_options, NULL)) != -1;) {
    switch (c) {
    case 'e': mode = CMD_CANON_EXISTING; break;
    case 'f': mode = CMD_CANON_ALL_BUT_LAST; break;
    case 'm': mode = CMD_CANON_MISSING; break;
    case 'q': case 's': verbose = false; break;
    case 'v': verbose = true; break;
    CMD_CASES_HELP_VERSION(ctx, readlink_usage);
    case '?': return 1;
    }
  }
  bool no_newline = cmd_opt_on(&st, 'n'), zero = cmd_opt_on(&st, 'z');
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  if (no_newline && argc - st.ind > 1) {
    cmd_errorf(ctx, "ignoring --no-newline with multiple arguments");
    no_newline = false;
  }
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    const char *path = argv[i];
    char *res = NULL;
    int rc;
    if (mode >= 0) {
      rc = cmd_fs_canonicalize(ctx, path, mode, &res);
    } else {
      rc = store_path_readlink(ctx->store, ctx->cwd, path, &res);
      if (rc == 0) {
        char *a = cmd_strdup(ctx, res);
        free(res);
        res = a;
      }
    }
    if (rc < 0) {
      if (verbose) cmd_gnu_perror(ctx, path, rc);
      else cmd_record_error(ctx, rc, path);
      status = 1;
      continue;
    }
    cmd_outs(ctx, res);
    if (!no_newline) cmd_outc(ctx, zero ? '\0' : '\n');
  }
  return status;
}

/* Is `path` equal to `base` or below it? */
static bool path_within(const char *path, const char *base) {
  size_t l = strlen(base);
  if (strcmp(base, "/") == 0) return true;
  return strncmp(path, base, l) == 0 && (path[l] == 0 || path[l] == '/');
}

enum { O_REL_TO = CMD_OPT_LONG, O_REL_BASE };
static const char realpath_options[] =
    "(relative-to):(relative-base):(help)(version)e(canonicalize-existing)"
    "m(canonicalize-missing)L(logical)P(physical)q(quiet)s(strip)(no-symlinks)z(zero)";

int cmd_realpath_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int mode = CMD_CANON_ALL_BUT_LAST, flags = 0;
  /* A loop: the last of -e/-m counts, -L/-P/-s change each other's flags. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, realpath_options, NULL)) != -1;) {
    switch (c) {
    case 'e': mode = CMD_CANON_EXISTING; break;
    case 'm': mode = CMD_CANON_MISSING; break;
    case 'L': flags |= CMD_CANON_LOGICAL; flags &= ~CMD_CANON_NOLINKS; break;
    case 'P': flags &= ~(CMD_CANON_LOGICAL | CMD_CANON_NOLINKS); break;
    case 's': flags |= CMD_CANON_NOLINKS; break;
    CMD_CASES_HELP_VERSION(ctx, realpath_usage);
    case '?': return 1;
    }
  }
  bool quiet = cmd_opt_on(&st, 'q'), zero = cmd_opt_on(&st, 'z');
  const char *rel_to = cmd_opt_arg(&st, O_REL_TO), *rel_base = cmd_opt_arg(&st, O_REL_BASE);
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  char *to = NULL, *base = NULL;
  if (rel_to) {
    int rc = cmd_fs_canonicalize(ctx, rel_to, mode | flags, &to);
    if (rc < 0) return cmd_gnu_perror(ctx, rel_to, rc);
  }
  if (rel_base) {
    int rc = cmd_fs_canonicalize(ctx, rel_base, mode | flags, &base);
    if (rc < 0) return cmd_gnu_perror(ctx, rel_base, rc);
  }
  if (base && !to) to = base;
  if (base && to && !path_within(to, base)) {
    /* --relative-to outside --relative-base: print absolute names */
    to = NULL;
    base = NULL;
  }
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    char *res = NULL;
    int rc = cmd_fs_canonicalize(ctx, argv[i], mode | flags, &res);
    if (rc < 0) {
      if (!quiet) cmd_gnu_perror(ctx, argv[i], rc);
      else cmd_record_error(ctx, rc, argv[i]);
      status = 1;
      continue;
    }
    const char *show = res;
    if (to && (!base || path_within(res, base))) show = cmd_fs_relpath(ctx, res, to);
    cmd_outs(ctx, show);
    cmd_outc(ctx, zero ? '\0' : '\n');
  }
  return status;
}
