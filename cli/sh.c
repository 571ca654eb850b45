/*
 * sh.c - the shell in the CLI:
 *
 *   sbx DB                      interactive prompt with line editing (libedit);
 *                               when stdin is not a terminal, the script on stdin
 *   sbx DB -c SCRIPT [NAME [ARG...]]
 *   sbx sh [-c SCRIPT [NAME [ARG...]] | FILE [ARG...] | < SCRIPT]
 *                               a fresh in-memory sandbox: the conformance kit's
 *                               and the command tests' entry point
 *
 * `sbx sh` is a test mode and the only place where sbx reads host files for the
 * shell: at startup it creates the host's current directory inside the
 * in-memory sandbox as the working directory and copies that directory's
 * regular files and its immediate subdirectories (with their files) into it
 * (at most 256 files of 1 MiB each), and
 * when the script mentions $REPO_ROOT it copies $REPO_ROOT/spec/testdata and
 * $REPO_ROOT/spec/bin (read-only, bounded) to the same paths. It imports the
 * host environment, provides the kit's helper programs (argv.py, ...) and names
 * itself "bash" in messages. Nothing is ever written back to the host.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"
#include "api/sandbox_int.h"
#include "sh/parse.h"
#include "sh/sh.h"
#include "sh/vars.h"

extern char **environ;

/* Runs a script with the host's stdin and streaming output; exit_trap runs
 * the EXIT trap afterwards, as a shell that ends. */
static int run_script(sbx *h, const char *script, size_t len, const char *name, char **args, int nargs,
                      int stdin_fd, int exit_trap, int record) {
  sbx_bash_opts o = {0};
  o.record = record;
  o.stdin_fd = stdin_fd;
  o.name = name;
  o.args = args;
  o.nargs = nargs;
  o.run_exit_trap = exit_trap;
  /* the prompt's jobs run on between lines, as in bash; `sbx DB -c` and a
   * script file are bash -c: the sandbox closes when they end, so they wait */
  o.wait_jobs = !(h->shell && h->shell->root->interactive);
  int status = cli_bash_streamed(h, script, len, &o);
  if (status < 0) {
    fprintf(stderr, "sbx: %s\n", sbx_errmsg(h));
    return 2;
  }
  return status;
}

/* ---- interactive --------------------------------------------------------------------------- */

/* The session's cwd and whether `exit` ran: from the session, or from the
 * isolated shell's last answer (--isolation process). */
static const char *session_state(sbx *h, int *exited) {
  if (h->iso) return sandbox_iso_session(h, exited);
  *exited = h->shell && h->shell->last_flow == SH_FLOW_EXIT;
  return h->shell ? h->shell->root->cwd : "/data";
}

static int interactive(sbx *h) {
  sh_session *s = h->shell;
  if (s) s->root->interactive = true;
  if (h->iso) sandbox_iso_interactive(h);
  sh_buf pending = {0};
  int status = 0;
  int exited;
  for (;;) {
    const char *cwd = session_state(h, &exited);
    char prompt[512];
    if (pending.len) snprintf(prompt, sizeof prompt, "> ");
    else snprintf(prompt, sizeof prompt, "sbx:%s$ ", cwd);
    char *line = readline(prompt);
    if (!line) {
      fputc('\n', stdout);
      break;
    }
    if (*line) add_history(line);
    sh_buf_adds(&pending, line);
    sh_buf_addc(&pending, '\n');
    free(line);
    int c = sh_parse_check(pending.data, pending.len);
    if (c == 0) continue;
    if (!h->shell && !h->iso) {
      /* create the session with the first (empty) call, then mark it interactive */
      sbx_bash_result r;
      sbx_bash(h, "", 0, &r);
      sbx_bash_result_free(&r);
      h->shell->root->interactive = true;
      h->shell->root->opt[SH_SHOPT_EXPAND_ALIASES] = true;
    }
    status = run_script(h, pending.data, pending.len, "sbx", NULL, 0, -1, 0, 1);
    sh_buf_clear(&pending);
    /* `exit` ends the session (the call has already reset the shell's flow) */
    session_state(h, &exited);
    if (exited) break;
  }
  sh_buf_free(&pending);
  /* the EXIT trap runs once, when the interactive shell ends */
  /* (isolated: only the helper knows the traps; an empty call that runs
   * the EXIT trap does nothing when there is none) */
  if (h->iso || (h->shell && h->shell->root->traps.action[SH_TRAP_EXIT])) {
    int st = run_script(h, "", 0, "sbx", NULL, 0, -1, 1, 0);
    if (st) status = st;
  }
  return status;
}

int cli_sh_main(cli_ctx *c, int argc, char **argv) {
  /* `sbx DB sh --timeout 5 -c ...`: limit options first (main() applied
   * those before the subcommand's name) */
  int i = 1, k;
  while ((k = cli_limit_option(argc, argv, &i)) > 0) {}
  if (k < 0) return 1;
  if (i > 1 && cli_apply_limits(c) != 0) return 1;
  argv += i - 1;
  argc -= i - 1;
  if (argc >= 2 && strcmp(argv[1], "-c") == 0) {
    if (argc < 3) return cli_error("-c: option requires an argument");
    const char *script = argv[2];
    const char *name = argc > 3 ? argv[3] : "sbx";
    return run_script(c->h, script, strlen(script), name, argc > 4 ? argv + 4 : NULL,
                      argc > 4 ? argc - 4 : 0, 0, 1, 1);
  }
  if (argc >= 2) return cli_error("sh: unexpected argument '%s' (use -c SCRIPT)", argv[1]);
  if (isatty(0)) return interactive(c->h);
  char *data;
  size_t len;
  int e = cli_read_fd(0, &data, &len);
  if (e) return cli_error("reading the script: %s", strerror(e));
  int st = run_script(c->h, data, len, "sbx", NULL, 0, -1, 1, 1);
  free(data);
  return st;
}

/* ---- sbx sh: the test mode ------------------------------------------------------------------- */

#define SEED_MAX_FILES 256
#define SEED_MAX_SIZE (1u << 20)
#define SEED_MAX_DEPTH 8

static int copy_host_file(sbx *h, const char *hostpath, const char *sbxpath, mode_t mode) {
  char *data;
  size_t len;
  int fd = open(hostpath, O_RDONLY | O_NOFOLLOW);
  if (fd < 0) return errno;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SEED_MAX_SIZE) {
    close(fd);
    return EINVAL;
  }
  int e = cli_read_fd(fd, &data, &len);
  close(fd);
  if (e) return e;
  int rc = sbx_write_file(h, sbxpath, data, len, SBX_WRITE_MKDIRS);
  free(data);
  if (rc != SBX_OK) return EIO;
  /* keep the executable bits */
  store_path_chmod(h->st, "/", sbxpath, mode & 0777);
  return 0;
}

/* Copies a host directory's regular files (recursively when depth > 0). */
static void copy_host_dir(sbx *h, const char *hostdir, int depth, int *budget) {
  DIR *d = opendir(hostdir);
  if (!d) return;
  sbx_mkdir(h, hostdir, 1);
  struct dirent *e;
  while ((e = readdir(d)) && *budget > 0) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", hostdir, e->d_name) >= sizeof path) continue;
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      if (copy_host_file(h, path, path, st.st_mode) == 0) (*budget)--;
    } else if (S_ISDIR(st.st_mode) && depth > 0) {
      copy_host_dir(h, path, depth - 1, budget);
    }
  }
  closedir(d);
}

int cli_shtest_main(cli_ctx *c, int argc, char **argv) {
  (void)c;
  const char *script = NULL;
  size_t len = 0;
  char *owned = NULL;
  const char *name = "bash";
  const char *file = NULL; /* the script's host path (sbx sh FILE) */
  char **args = NULL;
  int nargs = 0;
  int i = 1;
  if (i < argc && strcmp(argv[i], "-c") == 0) {
    if (i + 1 >= argc) return cli_error("sh: -c: option requires an argument");
    script = argv[i + 1];
    len = strlen(script);
    i += 2;
    if (i < argc) name = argv[i++];
    args = argv + i;
    nargs = argc - i;
  } else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
    return cli_error("sh: usage: sbx sh [-c SCRIPT [NAME [ARG...]] | FILE [ARG...]] (script on stdin otherwise)");
  } else if (i < argc) {
    /* a host script file, run as `bash FILE ARG...`: $0 and the messages
     * name the file */
    file = argv[i++];
    int fd = open(file, O_RDONLY);
    if (fd < 0) {
      fprintf(stderr, "bash: %s: %s\n", file, strerror(errno));
      return 127;
    }
    int e = cli_read_fd(fd, &owned, &len);
    close(fd);
    if (e) return cli_error("sh: reading %s: %s", file, strerror(e));
    script = owned;
    name = file;
    args = argv + i;
    nargs = argc - i;
  } else {
    int e = cli_read_fd(0, &owned, &len);
    if (e) return cli_error("sh: reading the script: %s", strerror(e));
    script = owned;
  }
  sbx *h;
  int rc = sbx_open(NULL, SBX_OPEN_MEMORY, &h);
  if (rc != SBX_OK) {
    fprintf(stderr, "sbx: %s\n", h ? sbx_errmsg(h) : "out of memory");
    sbx_close(h);
    free(owned);
    return 2;
  }
  /* generous limits: the kit's own timeout bounds each case */
  sbx_limits lim = {0};
  sbx_limits_preset(SBX_PRESET_PERMISSIVE, &lim);
  lim.loop_iterations = 10000000;
  lim.command_count = 100000000;
  lim.function_depth = 10000;
  lim.timeout_ms = 60000;
  sbx_set_limits(h, &lim);
  /* no quota: a throwaway sandbox that runs as `bash FILE` would, over the
   * host's files (docs/limits.md: `sbx sh` is the one front that lifts the
   * default quota, as it lifts the shell's limits) */
  sbx_quota none = {0};
  sbx_set_quota(h, &none);
  /* the host cwd, its files, and $REPO_ROOT's test data */
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/data");
  int budget = SEED_MAX_FILES;
  sbx_history_files(h, 0); /* setup, not the script's calls: no history rows */
  copy_host_dir(h, cwd, 1, &budget); /* its files, and one level of subdirectories */
  const char *repo = getenv("REPO_ROOT");
  if (repo && *repo == '/' && memmem(script, len, "REPO_ROOT", 9)) {
    char p[4096];
    int b2 = 1024;
    snprintf(p, sizeof p, "%s/spec/testdata", repo);
    copy_host_dir(h, p, SEED_MAX_DEPTH, &b2);
    snprintf(p, sizeof p, "%s/spec/bin", repo);
    copy_host_dir(h, p, 0, &b2);
    snprintf(p, sizeof p, "%s/spec", repo); /* the spec files themselves (compgen -f spec/) */
    copy_host_dir(h, p, 0, &b2);
  }
  sbx_history_files(h, 1);
  /* the session: test mode, host environment, cwd */
  sbx_bash_result r;
  sbx_bash(h, "", 0, &r);
  sbx_bash_result_free(&r);
  sh_session *s = h->shell;
  s->test_mode = true;
  s->sh_name = "bash";
  sh_shell *sh = s->root;
  for (char **e = environ; *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    char *k = strndup(*e, (size_t)(eq - *e));
    if (sh_is_name(k) && strcmp(k, "SHLVL") && strcmp(k, "PWD") && strcmp(k, "OLDPWD")) {
      sh_var_set(sh, k, eq + 1, SH_SET_FORCE);
      sh_var *v = sh_var_find_noref(sh, k);
      if (v) v->flags |= SH_V_EXPORT;
    }
    free(k);
  }
  free(sh->cwd);
  sh->cwd = strdup(cwd);
  sh_var_set(sh, "PWD", cwd, 0);
  const char *home = getenv("HOME");
  if (home) sh_var_set(sh, "HOME", home, 0);
  else sh_var_unset(sh, "HOME", false); /* bash sets no HOME of its own */
  sh->dash_c = owned == NULL; /* -c SCRIPT */
  free(sh->arg0);
  sh->arg0 = strdup(name); /* $0: "bash" (stdin), the -c NAME or the FILE */
  if (file) sh_frames_start_script(sh, sh->arg0);
  int status = run_script(h, script, len, name, args, nargs, owned && !file ? -1 : 0, 1, 0);
  sbx_close(h);
  free(owned);
  return status;
}
