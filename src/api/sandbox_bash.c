/*
 * sandbox_bash.c - the shell section of the C API (include/sbx.h): sbx_bash,
 * sbx_bash_ex, limits and presets, sbx_cancel, sbx_shell_reset.
 *
 * The handle owns one shell session (src/sh/session.c), created on the first
 * call so that handles which never run a script pay nothing. A call holds the
 * handle's lock for its whole duration (the shell's tasks use the store one at
 * a time under it); sbx_cancel takes no lock and only sets an atomic flag that
 * the running call polls.
 *
 * Nested calls: while a script waits in python3 or tool, a tool callback may
 * call sbx_bash on the same sandbox; it runs on the script's loan
 * (sandbox_lock, src/py/py_loan.c). The persistent session is in the middle
 * of the waiting script then, so the nested call runs in a session of its
 * own, reset before each call: it starts like a fresh shell (cwd /data, the
 * default environment and the persistent session's limits), and the waiting
 * script's state is neither seen nor changed. Those sessions live until
 * sbx_close, so that sbx_cancel (which takes no lock) can reach them.
 *
 * Background jobs outlive the call that started them (src/sh/session.c, "Jobs
 * between calls"): between calls the session's driver thread runs them, in
 * slices, each under h->lock (hold_lock below), so that every other call of
 * the handle finds the store and the session quiet while it holds the lock.
 * Close and reset stop the driver first (without the lock: it may be waiting
 * for it), then end the jobs under the lock.
 *
 * History: with opts->record every front (C API, CLI, MCP, the Python package)
 * writes the same "bash" row ({"command", "cwd"} / {"exitCode"}), built here
 * once, inside the call's locked section, so that no other call on the handle
 * runs between the script and its row.
 *
 * Process isolation (SBX_OPEN_PROCESS): no session lives here; sbx_bash_ex,
 * sbx_shell_reset and sbx_cancel hand over to src/api/sandbox_iso.c, and the
 * limits (h->shell_limits, sandbox_bash_limits) travel with each call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/sandbox_int.h"
#include "sh/sched.h"
#include "sh/sh.h"

static void to_sh_limits(const sbx_limits *in, sh_limits *out) {
  if (in->loop_iterations) out->loop_iterations = in->loop_iterations;
  if (in->command_count) out->commands = in->command_count;
  if (in->function_depth) out->function_depth = in->function_depth;
  if (in->output_bytes) out->output_bytes = in->output_bytes;
  if (in->string_size) out->string_size = in->string_size;
  if (in->array_size) out->array_size = in->array_size;
  if (in->timeout_ms) out->timeout_ms = in->timeout_ms;
  if (in->bg_jobs) out->bg_jobs = in->bg_jobs;
  if (in->bg_lifetime_ms) out->bg_lifetime_ms = in->bg_lifetime_ms;
  if (in->bg_cpu_ms) out->bg_cpu_ms = in->bg_cpu_ms;
}

static void from_sh_limits(const sh_limits *in, sbx_limits *out) {
  out->loop_iterations = in->loop_iterations;
  out->command_count = in->commands;
  out->function_depth = in->function_depth;
  out->output_bytes = in->output_bytes;
  out->string_size = in->string_size;
  out->array_size = in->array_size;
  out->timeout_ms = in->timeout_ms;
  out->bg_jobs = in->bg_jobs;
  out->bg_lifetime_ms = in->bg_lifetime_ms;
  out->bg_cpu_ms = in->bg_cpu_ms;
}

int sbx_limits_preset(int preset, sbx_limits *lim) {
  if (!lim) return SBX_MISUSE;
  switch (preset) {
  case SBX_PRESET_STRICT: from_sh_limits(&sh_limits_strict, lim); return SBX_OK;
  case SBX_PRESET_NORMAL: from_sh_limits(&sh_limits_normal, lim); return SBX_OK;
  case SBX_PRESET_PERMISSIVE: from_sh_limits(&sh_limits_permissive, lim); return SBX_OK;
  default: return SBX_MISUSE;
  }
}

/* The driver's side of h->lock (a plain lock: the driver is not a thread
 * that holds a loan). */
static void hold_lock(void *ud) {
  sbx *h = ud;
  /* calls waiting for the sandbox go first (a mutex is not fair: the driver
   * would take it again before they wake); for 50 ms at most, so that the
   * jobs are not starved by a stream of calls */
  for (int i = 0; i < 250 && atomic_load(&h->lock_waiters) > 0; i++)
    nanosleep(&(struct timespec){0, 200000}, NULL);
  pthread_mutex_lock(&h->lock);
  /* the driver's slice is a call as python3 and tool see it (the loan,
   * src/py/py_loan.c: the thread that holds the store for the script) */
  h->shell_depth = 1;
  h->shell_thread = pthread_self();
}

static void release_lock(void *ud) {
  sbx *h = ud;
  h->shell_depth = 0;
  pthread_mutex_unlock(&h->lock);
}

static sh_session *session_of(sbx *h) {
  if (!h->shell) {
    sh_limits lim = sh_limits_normal;
    if (h->shell_limits) to_sh_limits(h->shell_limits, &lim);
    h->shell = sh_session_new(h->st, &lim);
    if (h->shell) {
      h->shell->sandbox = h; /* for python3 / tool */
      h->shell->hold = hold_lock;
      h->shell->release = release_lock;
      h->shell->hold_ud = h;
    }
  }
  return h->shell;
}

/* The session for a call nested `depth` deep (1..SANDBOX_SHELL_NEST), fresh:
 * see "Nested calls" above. h->shell exists (an outer call is running). */
static sh_session *nested_session(sbx *h, int depth) {
  _Atomic(sh_session *) *slot = &h->shell_nested[depth - 1];
  sh_session *s = atomic_load(slot);
  if (!s) {
    s = sh_session_new(h->st, &h->shell->limits);
    if (!s) return NULL;
    s->sandbox = h;
    atomic_store(slot, s);
  } else {
    sh_session_reset(s);
    s->limits = h->shell->limits;
  }
  /* A cancel of the sandbox reaches every running call. */
  atomic_store(&s->cancel, atomic_load(&h->shell_cancel));
  return s;
}

int sbx_set_limits(sbx *h, const sbx_limits *lim) {
  if (!h || !lim) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  sandbox_lock(h);
  if (h->shell) {
    to_sh_limits(lim, &h->shell->limits);
  } else {
    if (!h->shell_limits) {
      h->shell_limits = calloc(1, sizeof *h->shell_limits);
      if (!h->shell_limits) {
        sandbox_unlock(h);
        return sandbox_fail(h, SBX_NOMEM, "out of memory");
      }
    }
    sbx_limits *s = h->shell_limits;
#define KEEP(f) if (lim->f) s->f = lim->f
    KEEP(loop_iterations); KEEP(command_count); KEEP(function_depth); KEEP(output_bytes);
    KEEP(string_size); KEEP(array_size); KEEP(timeout_ms); KEEP(bg_jobs); KEEP(bg_lifetime_ms);
    KEEP(bg_cpu_ms);
#undef KEEP
  }
  sandbox_unlock(h);
  return SBX_OK;
}

void sandbox_bash_limits(sbx *h, sbx_limits *out) {
  sh_limits l = h->shell ? h->shell->limits : sh_limits_normal;
  if (!h->shell && h->shell_limits) to_sh_limits(h->shell_limits, &l);
  from_sh_limits(&l, out);
}

int sbx_get_limits(sbx *h, sbx_limits *lim) {
  if (!h || !lim) return SBX_MISUSE;
  if (!h->st) return SBX_MISUSE;
  sandbox_lock(h);
  sandbox_bash_limits(h, lim);
  sandbox_unlock(h);
  return SBX_OK;
}

/* Output collection into the result. */
typedef struct collector {
  sh_buf out, err;
  const sbx_bash_opts *opts;
} collector;

static ssize_t collect_out(void *ud, const void *buf, size_t n) {
  collector *c = ud;
  if (c->opts && c->opts->on_stdout) c->opts->on_stdout(c->opts->ud, buf, n);
  else sh_buf_add(&c->out, buf, n);
  return (ssize_t)n;
}

static ssize_t collect_err(void *ud, const void *buf, size_t n) {
  collector *c = ud;
  if (c->opts && c->opts->on_stderr) c->opts->on_stderr(c->opts->ud, buf, n);
  else sh_buf_add(&c->err, buf, n);
  return (ssize_t)n;
}

/* The history row of a finished bash call (opts->record), under
 * opts->record_name or "bash"; a failure to write it does not fail the
 * call. Called with the handle locked. */
static void record_call(sbx *h, const char *script, size_t len, const char *cwd,
                        const sbx_bash_opts *opts, const sbx_bash_result *res) {
  sh_buf params = {0};
  sh_buf_adds(&params, "{\"command\":");
  sandbox_json_quote(&params, script, len);
  if (opts->args) {
    sh_buf_adds(&params, ",\"args\":[");
    for (int i = 0; i < opts->nargs; i++) {
      if (i) sh_buf_addc(&params, ',');
      sandbox_json_quote(&params, opts->args[i], strlen(opts->args[i]));
    }
    sh_buf_addc(&params, ']');
  }
  sh_buf_adds(&params, ",\"cwd\":");
  sandbox_json_quote(&params, cwd, strlen(cwd));
  sh_buf_addc(&params, '}');
  char result[40];
  snprintf(result, sizeof result, "{\"exitCode\":%d}", res->exit_code);
  const char *name = opts->record_name && *opts->record_name ? opts->record_name : "bash";
  sandbox_record(h, name, sh_buf_str(&params), result, NULL, res->duration_ms);
  sh_buf_free(&params);
}

static int recorded(int rc) {
  return rc == SBX_OK || rc == SBX_LIMIT || rc == SBX_TIMEOUT || rc == SBX_CANCELED;
}

/* What sbx_bash_ex and sbx_start check of a script call (h is not NULL)
 * before they take the sandbox: that it is open, and that the script has no
 * NUL byte (`what`: the message's prefix, "" or "start: "). Returns SBX_OK
 * with the sandbox locked, or the error recorded on h. */
static int script_enter(sbx *h, const char *script, size_t len, const char *what) {
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  if (memchr(script ? script : "", 0, len))
    return sandbox_fail(h, SBX_MISUSE, "%sthe script contains a NUL byte", what);
  sandbox_lock(h);
  return SBX_OK;
}

int sbx_bash_ex(sbx *h, const char *script, size_t len, const sbx_bash_opts *opts,
                sbx_bash_result *res) {
  if (res) memset(res, 0, sizeof *res);
  if (!h || !res || (!script && len)) return SBX_MISUSE;
  int rc = script_enter(h, script, len, "");
  if (rc) return rc;
  if (h->iso) {
    int exited;
    char *cwd = opts && opts->record ? strdup(sandbox_iso_session(h, &exited)) : NULL;
    rc = sandbox_iso_bash(h, script ? script : "", len, opts, res);
    if (cwd && recorded(rc)) record_call(h, script ? script : "", len, cwd, opts, res);
    free(cwd);
    sandbox_unlock(h);
    return rc;
  }
  int depth = h->shell_depth;
  if (depth > SANDBOX_SHELL_NEST) {
    sandbox_unlock(h);
    return sandbox_fail(h, SBX_MISUSE, "bash: calls nested more than %d deep (tool callbacks)",
                        SANDBOX_SHELL_NEST);
  }
  sh_session *s = depth == 0 ? session_of(h) : nested_session(h, depth);
  if (!s) {
    sandbox_unlock(h);
    return sandbox_fail(h, SBX_NOMEM, "bash: out of memory");
  }
  if (depth == 0) {
    atomic_store(&s->cancel, 0);
    h->shell_cancel = 0;
  }
  /* the persistent session's jobs outlive the call; a nested call's do not */
  s->jobs_outlive = depth == 0 && !(opts && opts->wait_jobs);
  pthread_t outer_thread = h->shell_thread;
  h->shell_depth = depth + 1;
  h->shell_thread = pthread_self();
  collector col = {.opts = opts};
  sh_call call = {0};
  call.script = script ? script : "";
  call.len = len;
  call.host_stdin = -1;
  if (opts) {
    call.in = opts->stdin_data;
    call.inlen = opts->stdin_len;
    if (opts->stdin_fd >= 0 && !opts->stdin_data) call.host_stdin = opts->stdin_fd;
    call.name = opts->name;
    if (opts->args) {
      sh_strv_free(&s->root->params);
      for (int i = 0; i < opts->nargs; i++) sh_strv_pushdup(&s->root->params, opts->args[i]);
    }
  }
  call.out = collect_out;
  call.err = collect_err;
  call.out_ud = call.err_ud = &col;
  char *start_cwd = opts && opts->record ? strdup(s->root->cwd) : NULL;
  sh_call_result r;
  sh_session_run(s, &call, &r);
  if (opts && opts->run_exit_trap) {
    int st = sh_session_exit(s, &call);
    if (!r.limit) r.status = st;
  }
  h->shell_depth = depth;
  h->shell_thread = outer_thread;
  res->exit_code = r.status;
  res->duration_ms = (double)r.duration_ns / 1e6;
  if (start_cwd) record_call(h, call.script, len, start_cwd, opts, res);
  free(start_cwd);
  sandbox_unlock(h);
  res->out_len = col.out.len;
  res->out = sh_buf_steal(&col.out);
  res->err_len = col.err.len;
  res->err = sh_buf_steal(&col.err);
  if (r.err_errno) {
    res->err_errno = r.err_errno;
    res->err_path = strdup(r.err_path);
  }
  res->limit = (int)r.limit;
  res->limit_name = r.limit ? sh_limit_name(r.limit) : NULL;
  res->limit_value = r.limit_value;
  if (r.limit == SH_LIMIT_TIMEOUT) return SBX_TIMEOUT;
  if (r.limit == SH_LIMIT_CANCEL) return SBX_CANCELED;
  if (r.limit) return SBX_LIMIT;
  return SBX_OK;
}

int sbx_bash(sbx *h, const char *script, size_t len, sbx_bash_result *res) {
  return sbx_bash_ex(h, script, len, NULL, res);
}

void sbx_bash_result_free(sbx_bash_result *res) {
  if (!res) return;
  free(res->out);
  free(res->err);
  free(res->err_path);
  memset(res, 0, sizeof *res);
}

int sbx_cancel(sbx *h) {
  if (!h) return SBX_MISUSE;
  h->shell_cancel = 1;
  atomic_fetch_add(&h->py_cancels, 1);
  sandbox_iso_cancel(h);
  sh_session *s = h->shell;
  if (s) atomic_store(&s->cancel, 1);
  for (int i = 0; i < SANDBOX_SHELL_NEST; i++)
    if ((s = atomic_load(&h->shell_nested[i]))) atomic_store(&s->cancel, 1);
  return SBX_OK;
}

int sbx_shell_reset(sbx *h) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  sandbox_lock(h);
  if (h->shell_depth > 0) {
    /* A tool callback of the running script: its state is in use. */
    sandbox_unlock(h);
    return sandbox_fail(h, SBX_MISUSE, "shell reset: a script of this sandbox is running");
  }
  if (h->shell) {
    /* the jobs end with the old shell; the driver (between its slices now:
     * we hold the lock) leaves, and the next call with jobs starts another */
    sh_session_stop_driver(h->shell);
    sh_session_reset(h->shell);
  }
  if (h->iso) sandbox_iso_reset(h);
  sandbox_unlock(h);
  return SBX_OK;
}

void sandbox_bash_stop_jobs(sbx *h) {
  if (!h || !h->shell) return;
  sh_session_stop_driver(h->shell);
  sh_session_wait_drivers(h->shell);
  pthread_mutex_lock(&h->lock);
  sh_session_kill_jobs(h->shell);
  pthread_mutex_unlock(&h->lock);
}

static void jobs_free_all(sbx *h);

void sandbox_bash_close(sbx *h) {
  if (!h) return;
  jobs_free_all(h); /* before the session: the records hold its tasks */
  sh_session_free(h->shell);
  h->shell = NULL;
  for (int i = 0; i < SANDBOX_SHELL_NEST; i++) {
    sh_session_free(atomic_load(&h->shell_nested[i]));
    atomic_store(&h->shell_nested[i], NULL);
  }
  free(h->shell_limits);
  h->shell_limits = NULL;
}

/* ---- sbx_start: background jobs with a handle ------------------------------------------ */

/* One stream of a job's output: the newest bytes (between SBX_JOB_OUTPUT_MAX
 * and twice that are kept, so that dropping the oldest is amortized). */
typedef struct job_stream {
  sh_buf buf;      /* the kept bytes */
  uint64_t total;  /* every byte written; the kept ones end here */
} job_stream;

/* A handle's record, on h->jobs until sbx_close. The job's sinks point at it,
 * so it outlives sbx_job_free; a released record whose job ended keeps only
 * this struct (the buffers and command are freed, later bytes are dropped). */
struct sbx_job {
  sbx *h;                 /* the sandbox */
  struct sh_task *task;   /* the job's task (a reference), NULL once released */
  int64_t pid;            /* $! of the job */
  char *command;          /* the script (malloc'd) */
  job_stream out, err;    /* fd 1 and fd 2 */
  int64_t history_id;     /* its history entry (0: none) */
  int finished;           /* on_done ran (or it had ended when the handle was made) */
  int status;             /* exit status then */
  int released;           /* sbx_job_free ran */
  struct sbx_job *next;   /* h->jobs */
};

static void stream_add(job_stream *s, const void *buf, size_t n, int discard) {
  s->total += n;
  if (discard) return;
  if (n >= SBX_JOB_OUTPUT_MAX) {
    sh_buf_clear(&s->buf);
    sh_buf_add(&s->buf, (const char *)buf + n - SBX_JOB_OUTPUT_MAX, SBX_JOB_OUTPUT_MAX);
    return;
  }
  if (s->buf.len + n > 2 * (size_t)SBX_JOB_OUTPUT_MAX) {
    size_t keep = SBX_JOB_OUTPUT_MAX - n;
    memmove(s->buf.data, s->buf.data + s->buf.len - keep, keep);
    s->buf.len = keep;
  }
  sh_buf_add(&s->buf, buf, n);
}

/* The job's sinks (a baton holder writes, under the lock its thread's
 * entry holds; the API reads under h->lock: never at once). */
static ssize_t job_sink_out(void *ud, const void *buf, size_t n) {
  sbx_job *j = ud;
  stream_add(&j->out, buf, n, j->released && j->finished);
  return (ssize_t)n;
}

static ssize_t job_sink_err(void *ud, const void *buf, size_t n) {
  sbx_job *j = ud;
  stream_add(&j->err, buf, n, j->released && j->finished);
  return (ssize_t)n;
}

static void job_forget_data(sbx_job *j) {
  sh_buf_free(&j->out.buf);
  sh_buf_free(&j->err.buf);
  memset(&j->out.buf, 0, sizeof j->out.buf);
  memset(&j->err.buf, 0, sizeof j->err.buf);
  free(j->command);
  j->command = NULL;
}

/* The job ended: its history entry is finished (the store is ours: the
 * baton, invariant 4 of src/sh/sched.h). */
static void job_done(void *ud, int status, int sig) {
  sbx_job *j = ud;
  (void)sig;
  j->finished = 1;
  j->status = status;
  if (j->history_id) {
    char result[64];
    snprintf(result, sizeof result, "{\"exit_code\":%d}", status);
    store_call_finish(j->h->st, j->history_id, result, NULL);
    j->history_id = 0;
  }
  if (j->released) job_forget_data(j);
}

/* Refuses what the handle API cannot do now: see sbx.h. */
static int job_refuse(sbx *h, const char *what) {
  if (h->iso)
    return sandbox_fail(h, SBX_MISUSE, "%s: background jobs with a handle need the in-process shell",
                        what);
  if (h->shell_depth > 0)
    return sandbox_fail(h, SBX_MISUSE, "%s: a script of this sandbox is running", what);
  return SBX_OK;
}

int sbx_start(sbx *h, const char *script, size_t len, sbx_job **out) {
  if (out) *out = NULL;
  if (!h || !out || (!script && len)) return SBX_MISUSE;
  int rc = script_enter(h, script, len, "start: ");
  if (rc) return rc;
  rc = job_refuse(h, "start");
  sh_session *s = rc ? NULL : session_of(h);
  if (!rc && !s) rc = sandbox_fail(h, SBX_NOMEM, "start: out of memory");
  if (rc) {
    sandbox_unlock(h);
    return rc;
  }
  sbx_job *j = calloc(1, sizeof *j);
  char *text = j ? malloc(len + 16) : NULL;
  if (!j || !text || !(j->command = strndup(script ? script : "", len))) {
    free(j ? j->command : NULL);
    free(j);
    free(text);
    sandbox_unlock(h);
    return sandbox_fail(h, SBX_NOMEM, "start: out of memory");
  }
  j->h = h;
  /* one job: a group, so that `a; b` and `a | b` are all of it */
  int tl = snprintf(text, len + 16, "{\n%.*s\n} &", (int)len, script ? script : "");
  int64_t before = s->root->last_bg;
  sh_call call = {0};
  call.script = text;
  call.len = (size_t)tl;
  call.host_stdin = -1;
  call.out = job_sink_out;
  call.err = job_sink_err;
  call.out_ud = call.err_ud = j;
  call.start_job = true;
  atomic_store(&s->cancel, 0);
  s->jobs_outlive = true;
  sh_call_result r;
  sh_session_run(s, &call, &r);
  free(text);
  int64_t pid = s->root->last_bg;
  j->task = pid != before ? sh_session_job_task(s, pid) : NULL;
  if (!j->task) {
    /* not started: a syntax error, or the bg_jobs limit; its message went to
     * the job's stderr */
    rc = sandbox_fail(h, SBX_LIMIT, "start: %.*s", (int)(j->err.buf.len > 400 ? 400 : j->err.buf.len),
                      j->err.buf.data ? j->err.buf.data : "the job did not start");
    if (r.status == 2) h->err_rc = rc = SBX_ERROR;
    job_forget_data(j);
    free(j);
    sandbox_unlock(h);
    return rc;
  }
  j->pid = pid;
  /* the history entry: the command as a JSON string */
  sh_buf pj = {0};
  sh_buf_adds(&pj, "{\"command\":\"");
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)script[i];
    if (c == '"' || c == '\\') {
      sh_buf_addc(&pj, '\\');
      sh_buf_addc(&pj, (char)c);
    } else if (c < 0x20) {
      char e[8];
      snprintf(e, sizeof e, "\\u%04x", c);
      sh_buf_adds(&pj, e);
    } else {
      sh_buf_addc(&pj, (char)c);
    }
  }
  sh_buf_addf(&pj, "\",\"pid\":%lld}", (long long)pid);
  if (store_call_start(h->st, "bash_background", sh_buf_str(&pj), &j->history_id) < 0)
    j->history_id = 0;
  sh_buf_free(&pj);
  /* no task runs while we hold the lock: set the end hook, or it ended already */
  int st, sig;
  if (sh_task_finished(j->task, &st, &sig)) job_done(j, st, sig);
  else {
    j->task->on_done = job_done;
    j->task->on_done_ud = j;
  }
  j->next = h->jobs;
  h->jobs = j;
  sandbox_unlock(h);
  *out = j;
  return SBX_OK;
}

int sbx_job_wait(sbx_job *j, int timeout_ms, int *exit_code) {
  if (!j || j->released) return SBX_MISUSE;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    int st, sig;
    /* the scheduler's own lock: no need for the sandbox's */
    if (sh_task_finished(j->task, &st, &sig)) {
      if (exit_code) *exit_code = st;
      return SBX_OK;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - t0.tv_sec) * 1e3 + (double)(now.tv_nsec - t0.tv_nsec) / 1e6;
    if (timeout_ms >= 0 && ms >= timeout_ms) return SBX_TIMEOUT;
    nanosleep(&(struct timespec){0, 2000000}, NULL);
  }
}

int sbx_job_kill(sbx_job *j, int sig) {
  if (!j || j->released) return SBX_MISUSE;
  sbx *h = j->h;
  sandbox_clear_error(h);
  if (sig < 0 || sig >= SH_NSIG) return sandbox_fail(h, SBX_MISUSE, "kill: %d: invalid signal", sig);
  sandbox_lock(h);
  int rc = job_refuse(h, "kill");
  if (!rc && !sh_task_finished(j->task, NULL, NULL) && h->shell)
    sh_session_signal_job(h->shell, j->pid, sig ? sig : 15);
  sandbox_unlock(h);
  return rc;
}

int sbx_job_output(sbx_job *j, int fd, uint64_t from, void **data, size_t *len, uint64_t *next) {
  if (data) *data = NULL;
  if (len) *len = 0;
  if (!j || j->released || !data || !len || (fd != 1 && fd != 2)) return SBX_MISUSE;
  sbx *h = j->h;
  sandbox_clear_error(h);
  sandbox_lock(h);
  int rc = h->shell_depth > 0 ? sandbox_fail(h, SBX_MISUSE, "job output: a script of this sandbox is running") : SBX_OK;
  if (!rc) {
    job_stream *s = fd == 1 ? &j->out : &j->err;
    uint64_t start = s->total - s->buf.len;
    if (from < start) from = start;
    if (from > s->total) from = s->total;
    size_t n = (size_t)(s->total - from);
    if (n) {
      *data = malloc(n);
      if (!*data) rc = sandbox_fail(h, SBX_NOMEM, "job output: out of memory");
      else memcpy(*data, s->buf.data + (from - start), n);
    }
    if (!rc) {
      *len = n;
      if (next) *next = s->total;
    }
  }
  sandbox_unlock(h);
  return rc;
}

int64_t sbx_job_pid(const sbx_job *j) { return j ? j->pid : 0; }

const char *sbx_job_command(const sbx_job *j) { return j && j->command ? j->command : ""; }

int sbx_job_running(sbx_job *j) {
  return j && !j->released && !sh_task_finished(j->task, NULL, NULL);
}

int sbx_jobs(sbx *h, sbx_job ***jobs, size_t *n) {
  if (jobs) *jobs = NULL;
  if (n) *n = 0;
  if (!h || !jobs || !n) return SBX_MISUSE;
  sandbox_clear_error(h);
  sandbox_lock(h);
  size_t count = 0;
  for (sbx_job *j = h->jobs; j; j = j->next)
    if (!j->released && !sh_task_finished(j->task, NULL, NULL)) count++;
  sbx_job **v = calloc(count + 1, sizeof *v);
  if (!v) {
    sandbox_unlock(h);
    return sandbox_fail(h, SBX_NOMEM, "jobs: out of memory");
  }
  size_t k = 0;
  for (sbx_job *j = h->jobs; j && k < count; j = j->next)
    if (!j->released && !sh_task_finished(j->task, NULL, NULL)) v[k++] = j;
  sandbox_unlock(h);
  *jobs = v;
  *n = k;
  return SBX_OK;
}

void sbx_job_free(sbx_job *j) {
  if (!j || j->released) return;
  sbx *h = j->h;
  sandbox_lock(h);
  j->released = 1;
  struct sh_task *t = j->task;
  j->task = NULL;
  if (j->finished) job_forget_data(j);
  sandbox_unlock(h);
  if (t) sh_task_unref(t);
}

/* sbx_close, after the jobs ended: the records go. */
static void jobs_free_all(sbx *h) {
  while (h->jobs) {
    sbx_job *j = h->jobs;
    h->jobs = j->next;
    if (j->task) sh_task_unref(j->task);
    job_forget_data(j);
    free(j);
  }
}
