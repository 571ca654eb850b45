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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/sandbox_int.h"
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
  return sandbox_read_fd(fd, 65535, data, len);
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
  return store_write_all(fd, buf, len);
}

static void stream_to_stdout(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(1, buf, n);
}

static void stream_to_stderr(void *ud, const void *buf, size_t n) {
  (void)ud;
  cli_write_all(2, buf, n);
}

int cli_bash_streamed(sbx *h, const char *script, size_t len, sbx_bash_opts *o) {
  o->on_stdout = stream_to_stdout;
  o->on_stderr = stream_to_stderr;
  sbx_bash_result res;
  int rc = sbx_bash_ex(h, script, len, o, &res);
  int status = res.exit_code;
  sbx_bash_result_free(&res);
  if (rc != SBX_OK && rc != SBX_LIMIT && rc != SBX_TIMEOUT && rc != SBX_CANCELED) return -1;
  return status;
}

int cli_open_flags;
const char *cli_python_paths[CLI_MAX_PYTHON_PATHS + 1];
char **cli_programs;

int cli_sandbox_setup(sbx *h) {
  int rc = cli_python_paths[0] ? sbx_python_set_paths(h, cli_python_paths) : SBX_OK;
  if (rc == SBX_OK && cli_programs) rc = sbx_set_programs(h, (const char *const *)cli_programs);
  return rc;
}

/* The limit options given so far (cli_limit_set). */
static struct {
  int given;           /* any option was given */
  int preset;          /* SBX_PRESET_*, 0: normal */
  sbx_limits override; /* fields set by --timeout / --limit (0: the preset's) */
} cli_limit_opts;

int cli_limit_set(const char *opt, const char *value) {
  char *end;
  if (strcmp(opt, "preset") == 0) {
    int p = strcmp(value, "strict") == 0       ? SBX_PRESET_STRICT
            : strcmp(value, "normal") == 0     ? SBX_PRESET_NORMAL
            : strcmp(value, "permissive") == 0 ? SBX_PRESET_PERMISSIVE
                                               : 0;
    if (!p) return cli_error("--preset: '%s' is not strict, normal or permissive", value);
    cli_limit_opts.preset = p;
    /* a preset given later replaces the earlier overrides too */
    memset(&cli_limit_opts.override, 0, sizeof cli_limit_opts.override);
  } else if (strcmp(opt, "timeout") == 0) {
    errno = 0;
    double t = strtod(value, &end);
    if (errno || *end || end == value || !(t > 0) || t > 86400)
      return cli_error("--timeout: '%s' is not a number of seconds (0 < T <= 86400)", value);
    cli_limit_opts.override.timeout_ms = (uint64_t)(t * 1000) ? (uint64_t)(t * 1000) : 1;
  } else {
    static const struct {
      const char *name;
      size_t offset;
    } fields[] = {{"loop_iterations", offsetof(sbx_limits, loop_iterations)},
                  {"command_count", offsetof(sbx_limits, command_count)},
                  {"function_depth", offsetof(sbx_limits, function_depth)},
                  {"output_bytes", offsetof(sbx_limits, output_bytes)},
                  {"string_size", offsetof(sbx_limits, string_size)},
                  {"array_size", offsetof(sbx_limits, array_size)},
                  {"timeout_ms", offsetof(sbx_limits, timeout_ms)}};
    const char *eq = strchr(value, '=');
    size_t i = 0, n = sizeof fields / sizeof fields[0];
    while (eq && i < n &&
           !(strlen(fields[i].name) == (size_t)(eq - value) &&
             memcmp(fields[i].name, value, (size_t)(eq - value)) == 0))
      i++;
    if (!eq || i == n)
      return cli_error("--limit: '%s' is not NAME=N with NAME one of loop_iterations, "
                       "command_count, function_depth, output_bytes, string_size, "
                       "array_size, timeout_ms", value);
    errno = 0;
    unsigned long long v = strtoull(eq + 1, &end, 10);
    if (errno || *end || end == eq + 1 || eq[1] == '-' || v == 0)
      return cli_error("--limit: '%s': the value is not a positive integer", value);
    *(uint64_t *)((char *)&cli_limit_opts.override + fields[i].offset) = v;
  }
  cli_limit_opts.given = 1;
  return 0;
}

int cli_limit_option(int argc, char **argv, int *i) {
  static const char *const opts[] = {"preset", "timeout", "limit"};
  if (*i >= argc || strncmp(argv[*i], "--", 2) != 0) return 0;
  const char *a = argv[*i];
  for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
    size_t n = strlen(opts[k]);
    if (strncmp(a + 2, opts[k], n) != 0 || (a[2 + n] != '=' && a[2 + n] != '\0')) continue;
    const char *value = a[2 + n] == '=' ? a + 3 + n : *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!value) {
      cli_error("--%s: a value is needed", opts[k]);
      return -1;
    }
    *i += a[2 + n] == '=' ? 1 : 2;
    return cli_limit_set(opts[k], value) ? -1 : 1;
  }
  return 0;
}

int cli_limits(sbx_limits *lim) {
  sbx_limits_preset(cli_limit_opts.preset ? cli_limit_opts.preset : SBX_PRESET_NORMAL, lim);
  const sbx_limits *o = &cli_limit_opts.override;
#define OVER(f) if (o->f) lim->f = o->f
  OVER(loop_iterations); OVER(command_count); OVER(function_depth); OVER(output_bytes);
  OVER(string_size); OVER(array_size); OVER(timeout_ms);
#undef OVER
  return cli_limit_opts.given;
}

int cli_apply_limits(cli_ctx *c) {
  sbx_limits lim;
  if (!cli_limits(&lim) || !c->h) return 0;
  if (sbx_set_limits(c->h, &lim) != SBX_OK) return cli_error("%s", sbx_errmsg(c->h));
  return 0;
}

int cli_open(cli_ctx *c, int create) {
  int rc = sbx_open(c->db, (create ? 0 : SBX_OPEN_NOCREATE) | cli_open_flags, &c->h);
  if (rc == SBX_OK) rc = cli_sandbox_setup(c->h);
  if (rc == SBX_OK) return cli_apply_limits(c);
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
