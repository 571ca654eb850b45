/*
 * mktemp - create a temporary file or directory (GNU coreutils compatible).
 *
 *   mktemp [OPTION]... [TEMPLATE]
 *   -d, --directory  -u, --dry-run  -q, --quiet  --suffix=SUFF
 *   -p DIR, --tmpdir[=DIR]  -t
 *
 * Design decisions: names use the store's /tmp (or $TMPDIR) like the host
 * would; the X's are replaced from getrandom(2) (62 letters and digits) and
 * creation is exclusive (O_CREAT|O_EXCL, mkdir), retried on collision. Files
 * are 0600 and directories 0700, as GNU makes them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("mktemp", cmd_mktemp_main);

static const char mktemp_usage[] =
    "Usage: mktemp [OPTION]... [TEMPLATE]\n"
    "Create a temporary file or directory, safely, and print its name.\n"
    "TEMPLATE must contain at least 3 consecutive 'X's in last component.\n"
    "If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.\n"
    "Files are created u+rw, and directories u+rwx, minus umask restrictions.\n"
    "\n"
    "  -d, --directory     create a directory, not a file\n"
    "  -u, --dry-run       do not create anything; merely print a name (unsafe)\n"
    "  -q, --quiet         suppress diagnostics about file/dir-creation failure\n"
    "      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.\n"
    "  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR\n"
    "  -t                  interpret TEMPLATE as a single file name component,\n"
    "                        relative to a directory: $TMPDIR, if set; else the\n"
    "                        directory specified via -p; else /tmp [deprecated]\n"
    CMD_HELP_VERSION_LINES;

enum { O_SUFFIX = CMD_OPT_LONG, O_TMPDIR };
static const char mktemp_options[] =
    "(suffix):(tmpdir)::(help)(version)d(directory)u(dry-run)q(quiet)p:t";

int cmd_mktemp_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool use_tmpdir = false;
  const char *tmpdir = NULL;
  /* A loop for the last of -p DIR and --tmpdir[=DIR], the one directory. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, mktemp_options, NULL)) != -1;) {
    switch (c) {
    case 'p': case O_TMPDIR: use_tmpdir = true; tmpdir = st.arg; break;
    CMD_CASES_HELP_VERSION(ctx, mktemp_usage);
    case '?': return 1;
    }
  }
  bool dir = cmd_opt_on(&st, 'd'), dry = cmd_opt_on(&st, 'u'), quiet = cmd_opt_on(&st, 'q'),
       use_t = cmd_opt_on(&st, 't');
  const char *suffix = cmd_opt_arg(&st, O_SUFFIX);
  if (argc - st.ind > 1) {
    cmd_errorf(ctx, "too many templates");
    return cmd_usage_hint(ctx, 1);
  }
  const char *tmpl = st.ind < argc ? argv[st.ind] : NULL;
  if (!tmpl) {
    tmpl = "tmp.XXXXXXXXXX";
    use_tmpdir = true;
  }
  /* suffix: explicit, or what follows the last X */
  size_t tl = strlen(tmpl);
  const char *sfx = suffix ? suffix : "";
  char *base = cmd_strdup(ctx, tmpl);
  if (!base) return 1;
  if (!suffix) {
    const char *lastx = strrchr(tmpl, 'X');
    if (lastx) {
      sfx = cmd_strdup(ctx, lastx + 1);
      base[lastx + 1 - tmpl] = 0;
    }
  } else if (tl && tmpl[tl - 1] != 'X') {
    cmd_errorf(ctx, "with --suffix, template %s must end in X", cmd_gnu_quote(ctx, tmpl));
    return 1;
  }
  if (strchr(sfx, '/')) {
    cmd_errorf(ctx, "invalid suffix %s, contains directory separator", cmd_gnu_quote(ctx, sfx));
    return 1;
  }
  size_t bl = strlen(base), nx = 0;
  while (nx < bl && base[bl - 1 - nx] == 'X') nx++;
  if (nx < 3) {
    size_t l = strlen(base) + strlen(sfx) + 1;
    char *full = cmd_alloc(ctx, l);
    snprintf(full, l, "%s%s", base, sfx);
    cmd_errorf(ctx, "too few X's in template %s", cmd_gnu_quote(ctx, full));
    return 1;
  }
  const char *dirpart = NULL;
  if (use_t || use_tmpdir) {
    if (use_t || !tmpdir || !*tmpdir) {
      const char *env = cmd_getenv(ctx, "TMPDIR");
      if (use_t && env && *env) dirpart = env;
      else if (tmpdir && *tmpdir) dirpart = tmpdir;
      else if (env && *env) dirpart = env;
      else dirpart = "/tmp";
    } else {
      dirpart = tmpdir;
    }
    if (strchr(base, '/') && (use_t || st.ind < argc)) {
      size_t l = strlen(base) + strlen(sfx) + 1;
      char *full = cmd_alloc(ctx, l);
      snprintf(full, l, "%s%s", base, sfx);
      cmd_errorf(ctx, "invalid template, %s, contains directory separator",
                 cmd_gnu_quote(ctx, full));
      return 1;
    }
  }
  size_t total = (dirpart ? strlen(dirpart) + 1 : 0) + strlen(base) + strlen(sfx) + 1;
  char *name = cmd_alloc(ctx, total);
  if (!name) return 1;
  snprintf(name, total, "%s%s%s%s", dirpart ? dirpart : "",
           dirpart && dirpart[strlen(dirpart) - 1] != '/' ? "/" : "", base, sfx);
  size_t xstart = strlen(name) - strlen(sfx) - nx;
  char *shown_tmpl = cmd_strdup(ctx, name);
  static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int rc = -EEXIST;
  for (int attempt = 0; attempt < 100 && rc == -EEXIST; attempt++) {
    unsigned char rnd[64];
    size_t need = nx < sizeof rnd ? nx : sizeof rnd;
    if (getrandom(rnd, need, 0) != (ssize_t)need) {
      for (size_t i = 0; i < need; i++) rnd[i] = (unsigned char)(rand() & 0xff);
    }
    for (size_t i = 0; i < nx; i++) name[xstart + i] = alnum[rnd[i % need] % 62];
    if (dry) {
      store_stat s;
      rc = cmd_fs_lstat(ctx, name, &s) == 0 ? -EEXIST : 0;
      break;
    }
    if (dir) {
      rc = store_path_mkdir(ctx->store, ctx->cwd, name, 0700);
      if (rc == 0) store_path_chmod(ctx->store, ctx->cwd, name, 0700);
    } else {
      store_stat s;
      rc = store_path_open(ctx->store, ctx->cwd, name, O_WRONLY | O_CREAT | O_EXCL, 0600, &s);
      if (rc == 0) store_path_chmod(ctx->store, ctx->cwd, name, 0600);
    }
  }
  if (rc < 0) {
    if (!quiet)
      cmd_errorf(ctx, "failed to create %s via template %s: %s", dir ? "directory" : "file",
                 cmd_gnu_quote(ctx, shown_tmpl), cmd_strerror(rc));
    cmd_record_error(ctx, rc, name);
    return 1;
  }
  cmd_outs(ctx, name);
  cmd_outc(ctx, '\n');
  return 0;
}
