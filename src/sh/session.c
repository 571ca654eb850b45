/*
 * session.c - a shell session: the persistent shell state of one sandbox
 * handle and the entry point that runs one script in it (sh_session_run).
 *
 * A call sets up fds 0/1/2 for that call (stdin bytes or a host fd; stdout and
 * stderr sinks), takes the baton as the main task, runs the script line by
 * line, lets background jobs finish (bounded by the same limits), and reports
 * the status, the limit that stopped it if any, and the file error of the
 * failing command. Everything else (cwd, variables, functions, aliases,
 * options, traps, other fds) stays for the next call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sh/builtins.h"
#include "sh/io.h"
#include "sh/sched.h"
#include "sh/sh.h"
#include "sh/vars.h"

/* The limit message goes to the call's stderr sink, whichever task hit the
 * limit: pipeline stages and background jobs run on their own threads, so the
 * sink lives in the session, not in a thread-local. */
void sh_session_report_limit(sh_session *s, const char *msg, size_t n) {
  if (s->limit_sink) s->limit_sink(s->limit_sink_ud, msg, n);
}

static void init_root(sh_session *s) {
  s->root = sh_shell_new(s);
  sh_shell *sh = s->root;
  /* the default working directory (DESIGN.md section 4) */
  store_path_mkdir_p(s->st, "/", "/data", 0755);
  store_path_mkdir_p(s->st, "/", "/tmp", 01777);
  store_stat st;
  if (store_path_stat(s->st, "/", "/data", &st) == 0 && S_ISDIR(st.mode)) {
    free(sh->cwd);
    sh->cwd = sh_xstrdup("/data");
  }
  sh_var_set(sh, "PWD", sh->cwd, 0);
  sh_var_set(sh, "HOME", "/data", 0);
  sh_var_set(sh, "PATH", "/usr/local/bin:/usr/bin:/bin", 0);
  sh_var *v;
  if ((v = sh_var_find_noref(sh, "PWD"))) v->flags |= SH_V_EXPORT;
  if ((v = sh_var_find_noref(sh, "HOME"))) v->flags |= SH_V_EXPORT;
  if ((v = sh_var_find_noref(sh, "PATH"))) v->flags |= SH_V_EXPORT;
  sh_var_set(sh, "USER", "root", 0);
  if ((v = sh_var_find_noref(sh, "USER"))) v->flags |= SH_V_EXPORT;
  sh_var_set(sh, "LANG", "C.UTF-8", 0);
  if ((v = sh_var_find_noref(sh, "LANG"))) v->flags |= SH_V_EXPORT;
}

sh_session *sh_session_new(store *st, const sh_limits *lim) {
  sh_session *s = sh_xcalloc(1, sizeof *s);
  s->st = st;
  s->limits = lim ? *lim : sh_limits_normal;
  s->sched = sh_sched_new();
  s->sh_name = "sbx";
  s->shell_pid = 1000 + (int64_t)(time(NULL) % 1000) * 0;
  s->next_pid = s->shell_pid;
  s->start_epoch = (int64_t)time(NULL);
  atomic_init(&s->cancel, 0);
  init_root(s);
  return s;
}

void sh_session_free(sh_session *s) {
  if (!s) return;
  sh_shell_free(s->root);
  sh_sched_free(s->sched);
  for (size_t i = 0; i < s->nbinds; i++) {
    free(s->binds[i].keys);
    free(s->binds[i].value);
  }
  free(s->binds);
  free(s);
}

void sh_session_reset(sh_session *s) {
  sh_shell_free(s->root);
  s->next_pid = s->shell_pid;
  init_root(s);
}

int sh_session_run(sh_session *s, const sh_call *call, sh_call_result *res) {
  memset(res, 0, sizeof *res);
  int64_t t0 = sh_now_ns();
  s->call_start_ns = t0;
  s->deadline_ns = s->limits.timeout_ms ? t0 + (int64_t)s->limits.timeout_ms * 1000000 : 0;
  s->ncommands = 0;
  s->out_bytes = 0;
  s->limit_hit = SH_LIMIT_NONE;
  s->limit_value = 0;
  s->err_errno = 0;
  s->err_path[0] = 0;
  sh_shell *sh = s->root;
  sh_task *main_task = sh_sched_enter(s->sched);
  main_task->pid = s->shell_pid;
  sh->task = main_task;
  sh->flow = SH_FLOW_NONE;
  /* fds 0, 1, 2 of this call */
  sh_file *in;
  if (call->host_stdin >= 0) {
    in = sh_file_new(SH_F_HOSTIN);
    in->hostfd = call->host_stdin;
    in->oflags = O_RDONLY;
  } else {
    in = sh_file_mem(call->in ? call->in : "", call->in ? call->inlen : 0);
  }
  sh_file *out = sh_file_sink(call->out, call->out_ud);
  sh_file *err = sh_file_sink(call->err, call->err_ud);
  sh_fd_set(sh, 0, in);
  sh_fd_set(sh, 1, out);
  sh_fd_set(sh, 2, err);
  sh_file_unref(in);
  sh_file_unref(out);
  sh_file_unref(err);
  s->limit_sink = call->err;
  s->limit_sink_ud = call->err_ud;
  /* the source name of the top-level text (BASH_SOURCE in its functions): bash
   * calls -c text "environment" and standard input "main" */
  int status;
  if (sh->script_frame && sh->nframes >= 1 && sh->frames[0].file && sh->frames[0].source)
    status = sh_eval_file(sh, call->script, call->len, sh->frames[0].source); /* sbx sh FILE */
  else
    status = sh_eval_string(sh, call->script, call->len, sh->dash_c ? "environment" : "main", 1);
  if (sh->flow == SH_FLOW_EXIT || sh->flow == SH_FLOW_ABORT) status = sh->exit_status;
  sh_flow final_flow = sh->flow;
  s->last_flow = final_flow;
  sh->flow = SH_FLOW_NONE;
  /* background jobs finish within the call (bounded by the same limits) */
  sh_wait_all(sh);
  if (s->limit_hit != SH_LIMIT_NONE) status = 126;
  (void)final_flow;
  res->status = status & 0xff;
  res->limit = s->limit_hit;
  res->limit_value = s->limit_value;
  if (status != 0 && s->err_errno) {
    res->err_errno = s->err_errno;
    snprintf(res->err_path, sizeof res->err_path, "%s", s->err_path);
  }
  /* detach the call's fds */
  sh_file *nul = sh_file_new(SH_F_NULL);
  sh_fd_set(sh, 0, nul);
  sh_fd_set(sh, 1, nul);
  sh_fd_set(sh, 2, nul);
  sh_file_unref(nul);
  for (int fd = 3; fd < sh->fds.n; fd++) {
    sh_file *f = sh->fds.f[fd];
    if (f && (f->kind == SH_F_SINK || f->kind == SH_F_HOSTIN)) sh_fd_close(sh, fd);
  }
  s->limit_sink = NULL;
  s->limit_sink_ud = NULL;
  sh->task = NULL;
  sh_sched_leave(s->sched, main_task);
  sh->status = res->status;
  res->duration_ns = sh_now_ns() - t0;
  return res->status;
}

/* Runs the EXIT trap of the persistent shell (a fresh shell's exit). */
int sh_session_exit(sh_session *s, const sh_call *call) {
  sh_shell *sh = s->root;
  if (!sh->traps.action[SH_TRAP_EXIT]) return sh->status;
  sh_call c = *call;
  char *action = sh_xstrdup(sh->traps.action[SH_TRAP_EXIT]);
  free(sh->traps.action[SH_TRAP_EXIT]);
  sh->traps.action[SH_TRAP_EXIT] = NULL;
  int saved = sh->status;
  c.script = action;
  c.len = strlen(action);
  sh_call_result r;
  sh->in_trap = true; /* BASH_COMMAND keeps naming the last command */
  sh_session_run(s, &c, &r);
  sh->in_trap = false;
  free(action);
  if (r.status != 0 && r.limit) return r.status;
  if (s->last_flow == SH_FLOW_EXIT) return r.status; /* `exit N` in the trap */
  return saved;
}
