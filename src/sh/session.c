/*
 * session.c - a shell session: the persistent shell state of one sandbox
 * handle and the entry point that runs one script in it (sh_session_run).
 *
 * A call sets up fds 0/1/2 for that call (stdin bytes or a host fd; stdout and
 * stderr sinks), takes the baton as the main task, runs the script line by
 * line, and reports the status, the limit that stopped it if any, and the
 * file error of the failing command. Everything else (cwd, variables,
 * functions, aliases, options, traps, other fds) stays for the next call.
 *
 * Jobs between calls. Without jobs_outlive a call waits for its background
 * jobs at its end (bash -c as its caller sees it). With it (sbx_bash), the
 * call returns and its jobs go on, detached:
 *  - Their tasks get their own limits (bg_lifetime, bg_cpu; sh_poll), and
 *    the call's stdout/stderr sinks they hold are pointed at the session's
 *    pending output (bg_out/bg_err, SH_BG_OUTPUT_MAX each), which the next
 *    call shows at its start, after `wait` and `jobs`, and at its end.
 *  - A driver thread runs them while no call does: it takes the sandbox's
 *    lock (s->hold), enters the scheduler as the main task and yields to the
 *    jobs for a slice (a detached task yields after JOB_SLICE_NS, shell.c),
 *    then leaves and releases the lock, so that API calls get in between
 *    slices. A job that sleeps naps off the baton (sh_task_nap), and the
 *    driver sleeps until the first nap ends. It exits when no task is left.
 *  - A call entering the session takes the lock, so the driver is between
 *    slices then and nobody holds the baton (invariant 4 of sched.h): the
 *    call's main task takes it, and the jobs run whenever the call blocks
 *    (wait, a pipe) or sleeps.
 *  - Close and reset end every job: the driver is told to leave (a
 *    generation count; close also waits for its thread, without the lock),
 *    then, under the lock, the tasks are told to stop (jobs_stop), their
 *    blocking calls fail, and they end at their next poll; nothing outlives
 *    the session.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
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

/* ---- pending output of detached jobs ------------------------------------------------ */

static void bg_keep(sh_session *s, sh_buf *b, const void *buf, size_t n) {
  size_t room = b->len < SH_BG_OUTPUT_MAX ? SH_BG_OUTPUT_MAX - b->len : 0;
  size_t take = n < room ? n : room;
  if (take) sh_buf_add(b, buf, take);
  s->bg_dropped += n - take;
}

static ssize_t bg_sink_out(void *ud, const void *buf, size_t n) {
  sh_session *s = ud;
  bg_keep(s, &s->bg_out, buf, n);
  return (ssize_t)n;
}

static ssize_t bg_sink_err(void *ud, const void *buf, size_t n) {
  sh_session *s = ud;
  bg_keep(s, &s->bg_err, buf, n);
  return (ssize_t)n;
}

void sh_session_flush_bg(sh_shell *sh) {
  sh_session *s = sh->sess;
  if (!s->bg_out.len && !s->bg_err.len && !s->bg_dropped) return;
  sh_buf out = s->bg_out, err = s->bg_err;
  uint64_t dropped = s->bg_dropped;
  memset(&s->bg_out, 0, sizeof s->bg_out);
  memset(&s->bg_err, 0, sizeof s->bg_err);
  s->bg_dropped = 0;
  if (out.len) sh_write_fd(sh, 1, out.data, out.len);
  if (err.len) sh_write_fd(sh, 2, err.data, err.len);
  if (dropped)
    sh_printf_fd(sh, 2, "%s: output of background jobs: %" PRIu64 " bytes dropped (%u kept)\n",
                 s->sh_name ? s->sh_name : "sbx", dropped, SH_BG_OUTPUT_MAX);
  sh_buf_free(&out);
  sh_buf_free(&err);
}

/* ---- the driver: detached jobs between calls ------------------------------------------ */

struct sh_driver {
  pthread_mutex_t mu; /* guards live (waited for without the sandbox's lock) */
  pthread_cond_t cv;  /* signalled when a driver thread ends */
  int live;           /* driver threads not yet ended (detached threads) */
  bool running;       /* the current driver drives (set and cleared with the
                         sandbox's lock held: a call that ends sees it) */
  atomic_int gen;     /* close/reset add one: a driver started before leaves */
};

/* What a driver thread gets: its session and the generation it serves. */
typedef struct driver_arg {
  sh_session *s;
  int gen;
} driver_arg;

static bool driver_stopped(struct sh_driver *d, int gen) { return atomic_load(&d->gen) != gen; }

/* Sleeps up to ns, in steps that notice a stop. */
static void driver_sleep(struct sh_driver *d, int gen, int64_t ns) {
  while (ns > 0 && !driver_stopped(d, gen)) {
    int64_t step = ns < 5000000 ? ns : 5000000;
    nanosleep(&(struct timespec){0, (long)step}, NULL);
    ns -= step;
  }
}

static void *driver_main(void *argp) {
  driver_arg arg = *(driver_arg *)argp;
  free(argp);
  sh_session *s = arg.s;
  struct sh_driver *d = s->driver;
  int gen = arg.gen;
  while (!driver_stopped(d, gen)) {
    s->hold(s->hold_ud);
    if (driver_stopped(d, gen)) {
      s->release(s->hold_ud); /* a newer driver, or none, is in charge now */
      break;
    }
    if (sh_sched_ntasks(s->sched) == 0) {
      d->running = false; /* under the lock: the next call that ends starts one */
      s->release(s->hold_ud);
      break;
    }
    /* one slice: the jobs run until they all wait, or the slice ends */
    sh_task *main_task = sh_sched_enter(s->sched);
    int64_t end = sh_now_ns() + 10000000;
    do {
      sh_task_yield(main_task);
    } while (sh_sched_has_ready(s->sched) && sh_now_ns() < end && !driver_stopped(d, gen));
    bool ready = sh_sched_has_ready(s->sched);
    int64_t wake = sh_sched_next_wake(s->sched);
    sh_sched_leave(s->sched, main_task);
    s->release(s->hold_ud);
    /* let API calls in; then come back when a job can run */
    int64_t nap = 10000000;
    if (ready) nap = 200000;
    else if (wake) nap = wake - sh_now_ns();
    if (nap < 200000) nap = 200000;
    if (nap > 10000000) nap = 10000000;
    driver_sleep(d, gen, nap);
  }
  pthread_mutex_lock(&d->mu);
  d->live--;
  pthread_cond_broadcast(&d->cv);
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

/* The call that ends leaves detached jobs: make sure a driver runs them
 * (the caller holds the sandbox's lock). Driver threads are detached: nothing
 * that holds the lock ever waits for one (it may be waiting for the lock);
 * close waits for `live` to drop without it. */
static void driver_start(sh_session *s) {
  if (!s->hold) return; /* no lock to share (a session without a sandbox): calls run them */
  if (!s->driver) {
    s->driver = sh_xcalloc(1, sizeof *s->driver);
    pthread_mutex_init(&s->driver->mu, NULL);
    pthread_cond_init(&s->driver->cv, NULL);
  }
  struct sh_driver *d = s->driver;
  if (d->running) return;
  driver_arg *arg = malloc(sizeof *arg);
  if (!arg) return; /* the jobs run while later calls wait or sleep */
  *arg = (driver_arg){s, atomic_load(&d->gen)};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t th;
  pthread_mutex_lock(&d->mu);
  if (pthread_create(&th, &attr, driver_main, arg) == 0) {
    d->live++;
    d->running = true;
  } else {
    free(arg);
  }
  pthread_mutex_unlock(&d->mu);
  pthread_attr_destroy(&attr);
}

void sh_session_stop_driver(sh_session *s) {
  struct sh_driver *d = s ? s->driver : NULL;
  if (d) atomic_fetch_add(&d->gen, 1);
}

void sh_session_wait_drivers(sh_session *s) {
  struct sh_driver *d = s ? s->driver : NULL;
  if (!d) return;
  pthread_mutex_lock(&d->mu);
  while (d->live > 0) pthread_cond_wait(&d->cv, &d->mu);
  pthread_mutex_unlock(&d->mu);
}

void sh_session_kill_jobs(sh_session *s) {
  if (!s) return;
  if (s->driver) s->driver->running = false; /* stopped (stop_driver): the next one starts anew */
  if (sh_sched_ntasks(s->sched) == 0) return;
  atomic_store(&s->jobs_stop, 1);
  sh_task *main_task = sh_sched_enter(s->sched);
  /* each round: blocked tasks fail out of their waits, everyone runs to its
   * next poll and ends (a task that is mid-command ends at its next poll) */
  while (sh_sched_ntasks(s->sched) > 0) {
    sh_sched_break_all(s->sched);
    sh_task_yield(main_task);
    if (sh_sched_ntasks(s->sched) > 0 && !sh_sched_has_ready(s->sched))
      nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  sh_sched_leave(s->sched, main_task);
  atomic_store(&s->jobs_stop, 0);
  sh_buf_free(&s->bg_out);
  sh_buf_free(&s->bg_err);
  memset(&s->bg_out, 0, sizeof s->bg_out);
  memset(&s->bg_err, 0, sizeof s->bg_err);
  s->bg_dropped = 0;
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
  sh_session_stop_driver(s);
  sh_session_wait_drivers(s); /* the caller does not hold the sandbox's lock */
  sh_session_kill_jobs(s);
  if (s->driver) {
    pthread_mutex_destroy(&s->driver->mu);
    pthread_cond_destroy(&s->driver->cv);
  }
  free(s->driver);
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
  sh_session_kill_jobs(s); /* the caller stopped the driver (sh_session_stop_driver) */
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
  main_task->call_sh = sh;
  s->in_call = true;
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
  s->limit_sink = call->err;
  s->limit_sink_ud = call->err_ud;
  if (!call->start_job) sh_session_flush_bg(sh); /* what detached jobs wrote since the last call */
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
  if (!call->start_job) sh_session_flush_bg(sh);
  if (s->jobs_outlive && sh_sched_ntasks(s->sched) > 0) {
    /* the jobs go on after the call - even one that a limit stopped: the
     * call's limits apply to what it waited for (docs/shell.md). They are
     * detached, writing to the pending output (the sinks are the call's
     * objects, shared by the jobs' fd tables). */
    if (!call->start_job) {
      out->sink = bg_sink_out;
      out->sink_ud = s;
      err->sink = bg_sink_err;
      err->sink_ud = s;
    }
    int64_t life = (int64_t)s->limits.bg_lifetime_ms * 1000000;
    sh_sched_detach_all(s->sched, life ? sh_now_ns() + life : 0);
    driver_start(s);
  } else {
    /* background jobs finish within the call (bounded by the same limits) */
    sh_wait_all(sh);
  }
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
  s->in_call = false;
  main_task->call_sh = NULL;
  sh_sched_leave(s->sched, main_task);
  sh_file_unref(out);
  sh_file_unref(err);
  sh->status = res->status;
  res->duration_ns = sh_now_ns() - t0;
  return res->status;
}

sh_task *sh_session_job_task(sh_session *s, int64_t pid) {
  sh_task *t = sh_jobs_task_of(s->root, pid);
  if (t) sh_task_ref(t);
  return t;
}

int sh_session_signal_job(sh_session *s, int64_t pid, int sig) {
  sh_task *main_task = sh_sched_enter(s->sched); /* the baton: the job table is ours */
  s->root->task = main_task;
  int r = sh_jobs_signal_pid(s->root, pid, sig);
  s->root->task = NULL;
  sh_sched_leave(s->sched, main_task);
  return r;
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
