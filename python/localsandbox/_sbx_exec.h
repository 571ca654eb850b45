/*
 * _sbx_exec.h - the shell and Python sections of localsandbox._sbx:
 *   shell:  Sandbox.bash, set_limits / get_limits, cancel, reset_shell, and
 *           limits_preset() (when sbx.h declares sbx_bash);
 *   Python: Sandbox.python_exec with host tools, the context calls,
 *           python_stop, and probe() (when sbx.h declares sbx_python_exec).
 *
 * Included by _sbx.c (after the Sandbox type and its enter/leave helpers)
 * when either is available, so the package builds against a library with or
 * without them.
 *
 * Key decisions (shell):
 *  - Output is always collected here (sbx_bash_ex streams to our receivers),
 *    so a call with an on_output callback still returns its whole output.
 *    The callback runs with the GIL taken back (PyGILState_Ensure: the
 *    shell may call from one of its pipeline task threads, not the caller's);
 *    an exception in it cancels the call and is re-raised from bash().
 *  - The library holds the handle lock while it calls the receivers, so a
 *    callback that calls back into its own sandbox gets RuntimeError instead
 *    of a deadlock (cb_begin with nested calls refused).
 *  - Per-call limits are set with sbx_set_limits before the call and the
 *    previous ones restored after it, under the same lock.
 *  - sbx_cancel takes no lock in the library; here it takes only
 *    `cancel_lock`, which close() also takes, so a cancel never races a close.
 */

/* The limit fields of sbx_limits by the names of the Python API. */
static const struct limit_field {
  const char *name;
  size_t offset;
} limit_fields[] = {
    {"loop_iterations", offsetof(sbx_limits, loop_iterations)},
    {"command_count", offsetof(sbx_limits, command_count)},
    {"function_depth", offsetof(sbx_limits, function_depth)},
    {"output_bytes", offsetof(sbx_limits, output_bytes)},
    {"string_size", offsetof(sbx_limits, string_size)},
    {"array_size", offsetof(sbx_limits, array_size)},
    {"timeout_ms", offsetof(sbx_limits, timeout_ms)},
    {"bg_jobs", offsetof(sbx_limits, bg_jobs)},
    {"bg_lifetime_ms", offsetof(sbx_limits, bg_lifetime_ms)},
    {"bg_cpu_ms", offsetof(sbx_limits, bg_cpu_ms)},
};
#define N_LIMIT_FIELDS (sizeof limit_fields / sizeof limit_fields[0])

#define LIMIT_FIELD(lim, i) (*(uint64_t *)((char *)(lim) + limit_fields[i].offset))

/* A dict {name: int} to sbx_limits; unknown names are ignored (the Python
 * layer checks names; quotas and Python limits share its dict). Fields not
 * in the dict are 0 ("keep"). */
static int dict_to_limits(PyObject *d, sbx_limits *lim) {
  memset(lim, 0, sizeof *lim);
  if (d == Py_None) return 0;
  if (!PyDict_Check(d)) {
    PyErr_SetString(PyExc_TypeError, "limits must be a dict of name -> int");
    return -1;
  }
  for (size_t i = 0; i < N_LIMIT_FIELDS; i++) {
    PyObject *v = PyDict_GetItemString(d, limit_fields[i].name); /* borrowed */
    if (!v) continue;
    uint64_t x;
    if (!conv_u64(v, &x)) return -1;
    LIMIT_FIELD(lim, i) = x;
  }
  return 0;
}

static PyObject *limits_to_dict(const sbx_limits *lim) {
  PyObject *d = PyDict_New();
  for (size_t i = 0; d && i < N_LIMIT_FIELDS; i++) {
    PyObject *v = PyLong_FromUnsignedLongLong(LIMIT_FIELD(lim, i));
    if (!v || PyDict_SetItemString(d, limit_fields[i].name, v) < 0) Py_CLEAR(d);
    Py_XDECREF(v);
  }
  return d;
}

/* limits_preset(name) -> dict: the limits of "strict", "normal", "permissive". */
static PyObject *module_limits_preset(PyObject *mod, PyObject *args) {
  const char *name;
  if (!PyArg_ParseTuple(args, "s:limits_preset", &name)) return NULL;
  int preset = !strcmp(name, "strict")       ? SBX_PRESET_STRICT
               : !strcmp(name, "normal")     ? SBX_PRESET_NORMAL
               : !strcmp(name, "permissive") ? SBX_PRESET_PERMISSIVE
                                             : 0;
  sbx_limits lim;
  if (sbx_limits_preset(preset, &lim) != SBX_OK) {
    PyErr_Format(PyExc_ValueError, "unknown preset %R", PyTuple_GET_ITEM(args, 0));
    return NULL;
  }
  return limits_to_dict(&lim);
}

static PyObject *sandbox_set_limits(SandboxObject *self, PyObject *arg) {
  sbx_limits lim;
  if (dict_to_limits(arg, &lim) < 0) return NULL;
  SBX_RETURN_CALL(self, sbx_set_limits(self->h, &lim));
}

static PyObject *sandbox_get_limits(SandboxObject *self, PyObject *unused) {
  sbx_limits lim;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_get_limits(self->h, &lim));
  if (rc != SBX_OK) return raise_call_err(&e);
  return limits_to_dict(&lim);
}

static PyObject *sandbox_reset_shell(SandboxObject *self, PyObject *unused) {
  return call_handle(self, sbx_shell_reset);
}

/* cancel(): stops the running call, if any (any thread, no waiting). */
static PyObject *sandbox_cancel(SandboxObject *self, PyObject *unused) {
  pthread_mutex_lock(&self->cancel_lock);
  if (self->h) sbx_cancel(self->h);
  pthread_mutex_unlock(&self->cancel_lock);
  Py_RETURN_NONE;
}

/* One growing byte buffer of captured output. */
typedef struct out_buf {
  char *data; /* malloc'd, or NULL */
  size_t len; /* bytes used */
  size_t cap; /* bytes allocated */
} out_buf;

/* The receivers' state for one bash call (lives on the caller's stack). */
typedef struct bash_stream {
  SandboxObject *self; /* the sandbox (borrowed) */
  PyObject *callback;  /* on_output(stream, bytes), or NULL (borrowed) */
  out_buf buf[2];      /* captured stdout [0] and stderr [1] */
  int oom;             /* an append failed: the output is incomplete */
  PyObject *exc_type;  /* the callback's exception (owned, PyErr_Fetch), */
  PyObject *exc_value; /* or all NULL */
  PyObject *exc_tb;
} bash_stream;

static void out_buf_add(bash_stream *st, out_buf *b, const void *data, size_t n) {
  if (st->oom || n == 0) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      st->oom = 1;
      return;
    }
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, n);
  b->len += n;
}

static void stream_emit(bash_stream *st, int which, const void *data, size_t n) {
  out_buf_add(st, &st->buf[which], data, n);
  if (!st->callback || st->exc_type || n == 0) return;
  PyGILState_STATE g = PyGILState_Ensure();
  cb_state prev = cb_begin(st->self, 0);
  PyObject *bytes = PyBytes_FromStringAndSize(data, (Py_ssize_t)n);
  PyObject *r = bytes ? PyObject_CallFunction(st->callback, "sO",
                                              which ? "stderr" : "stdout", bytes)
                      : NULL;
  cb_end(prev);
  if (!r) {
    PyErr_Fetch(&st->exc_type, &st->exc_value, &st->exc_tb);
    sbx_cancel(st->self->h); /* the lock is held by this call: h is alive */
  }
  Py_XDECREF(r);
  Py_XDECREF(bytes);
  PyGILState_Release(g);
}

static void bash_stream_stdout(void *ud, const void *buf, size_t n) {
  stream_emit(ud, 0, buf, n);
}
static void bash_stream_stderr(void *ud, const void *buf, size_t n) {
  stream_emit(ud, 1, buf, n);
}

static const char *limit_kind(int rc) {
  switch (sbx_errcode(rc)) {
    case SBX_LIMIT:
      return "limit";
    case SBX_TIMEOUT:
      return "timeout";
    case SBX_CANCELED:
      return "canceled";
    case SBX_CRASHED:
      return "crashed";
    default:
      return NULL;
  }
}

/* The value of a finished bash call (GIL held): its result tuple, or NULL
 * with the callback's exception, the call's error or MemoryError set. Frees
 * the captured output and `res` either way. */
static PyObject *bash_build(bash_stream *st, int rc, sbx_bash_result *res, const call_err *e) {
  PyObject *result = NULL;
  if (st->exc_type) {
    PyErr_Restore(st->exc_type, st->exc_value, st->exc_tb);
  } else if (rc != SBX_OK && !limit_kind(rc)) {
    raise_call_err(e);
  } else if (st->oom) {
    PyErr_NoMemory();
  } else {
    PyObject *kind =
        limit_kind(rc) ? PyUnicode_FromString(limit_kind(rc)) : Py_NewRef(Py_None);
    PyObject *lname =
        res->limit_name ? PyUnicode_FromString(res->limit_name) : Py_NewRef(Py_None);
    PyObject *epath =
        res->err_path ? PyUnicode_DecodeFSDefault(res->err_path) : Py_NewRef(Py_None);
    if (kind && lname && epath)
      result =
          Py_BuildValue("(y#y#idOOKiOO)", st->buf[0].data ? st->buf[0].data : "",
                        (Py_ssize_t)st->buf[0].len, st->buf[1].data ? st->buf[1].data : "",
                        (Py_ssize_t)st->buf[1].len, res->exit_code, res->duration_ms, kind,
                        lname, (unsigned long long)res->limit_value, res->err_errno, epath,
                        res->killed ? Py_True : Py_False);
    Py_XDECREF(kind);
    Py_XDECREF(lname);
    Py_XDECREF(epath);
  }
  free(st->buf[0].data);
  free(st->buf[1].data);
  st->buf[0].data = st->buf[1].data = NULL;
  sbx_bash_result_free(res);
  return result;
}

/*
 * bash(script, limits=None, on_output=None, record=None) -> (stdout: bytes,
 *     stderr: bytes, exit_code, duration_ms, kind, limit_name, limit_value,
 *     errno, errpath)
 *
 * kind is None when the script ran to its end (any exit code), else "limit",
 * "timeout" or "canceled". limits: a dict of limit overrides for this call.
 * record: true to record the call in the history as "bash" (the library
 * writes the row every front writes: sbx_bash_opts.record).
 */
static PyObject *sandbox_bash(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"script", "limits", "on_output", "record", NULL};
  PyObject *script_obj, *limits_obj = Py_None, *callback = Py_None;
  int record = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "U|OOp:bash", kwlist, &script_obj,
                                   &limits_obj, &callback, &record))
    return NULL;
  Py_ssize_t len;
  const char *script = PyUnicode_AsUTF8AndSize(script_obj, &len);
  if (!script) return NULL;
  if (callback != Py_None && !PyCallable_Check(callback)) {
    PyErr_SetString(PyExc_TypeError, "on_output must be callable");
    return NULL;
  }
  int with_limits = limits_obj != Py_None;
  sbx_limits lim, saved;
  if (with_limits && dict_to_limits(limits_obj, &lim) < 0) return NULL;

  bash_stream st = {.self = self, .callback = callback != Py_None ? callback : NULL};
  sbx_bash_opts opts = {
      .stdin_fd = -1, .on_stdout = bash_stream_stdout, .on_stderr = bash_stream_stderr, .ud = &st,
      .record = record};
  sbx_bash_result res;
  call_err e;
  int rc = SBX_OK;
  PyThreadState *ts;
  if (enter(self, &ts) < 0) return NULL;
  if (with_limits) {
    rc = sbx_get_limits(self->h, &saved);
    if (rc == SBX_OK) rc = sbx_set_limits(self->h, &lim);
  }
  if (rc == SBX_OK) {
    rc = sbx_bash_ex(self->h, script, (size_t)len, &opts, &res);
    if (rc != SBX_OK && !limit_kind(rc)) capture_error(self->h, rc, &e);
    if (with_limits) sbx_set_limits(self->h, &saved);
  } else {
    capture_error(self->h, rc, &e);
    memset(&res, 0, sizeof res);
  }
  leave(self, ts);
  return bash_build(&st, rc, &res, &e);
}

/* ---- abash's runner (bash_submit / bash_collect) ----------------------------
 * asyncio.to_thread costs ~60 us a call (a pool job, a concurrent future, a
 * wake-up of the loop through its self-pipe): 8x a warm bash('echo hi'). The
 * async path hands the call to one C thread per sandbox instead, which runs
 * it without the GIL (no Python in between) and finishes it in one of two ways:
 *   - the submitter waits up to RUNNER_SPIN_NS for it (the GIL released,
 *     spinning): a short call comes back from bash_submit itself and the
 *     coroutine never yields to the loop;
 *   - past that, bash_submit returns with the call still running; the runner
 *     writes the sandbox's eventfd when it ends, the loop's reader calls
 *     bash_collect and the Python layer completes the awaiting future.
 * The runner spins as long for the next call before it sleeps, so a task
 * issuing calls back to back finds it awake. A call still queued when its task
 * is cancelled is dropped (bash_abandon); a running one is cancelled. Closing
 * the sandbox stops the runner after its current call; calls still queued end
 * with "destroyed". No output callbacks on this path (abash falls back to the
 * thread pool for on_output). A child of fork() starts a runner of its own. */

#include <sched.h>
#include <sys/eventfd.h>
#include <time.h>

#define RUNNER_SPIN_NS 50000 /* 50 us: the submitter's wait, and the idle runner's */

typedef struct bash_req {
  struct bash_req *next;
  unsigned long long ticket;
  char *script;
  size_t len;
  int record, with_limits;
  sbx_limits lim;
  int state;  /* REQ_QUEUED, REQ_RUNNING, REQ_DONE (atomic: the submitter spins on it) */
  int notify; /* the submitter stopped waiting: write the eventfd when done */
  int closed; /* never ran: the sandbox was closed first */
  int rc;
  bash_stream st;
  sbx_bash_result res;
  call_err e;
} bash_req;

enum { REQ_QUEUED, REQ_RUNNING, REQ_DONE };

typedef struct bash_runner {
  pthread_t thread;
  int efd;                   /* eventfd: calls finished for the loop (kept until dealloc) */
  pthread_mutex_t mu;        /* guards everything below */
  pthread_cond_t cv;         /* the runner sleeps on it */
  bash_req *head, *tail;     /* queued */
  bash_req *done;            /* finished, waiting for bash_collect (any order) */
  bash_req *running;         /* the one it runs, or NULL */
  int sleeping, stop, alive; /* alive: the thread runs (joined by runner_stop) */
  unsigned long long next_ticket;
  pid_t pid;                 /* the process the thread runs in (see runner_get) */
} bash_runner;

static long long mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* One step of a wait for the other thread: give it the CPU if it waits for
 * one (on a busy host both threads may share a core). */
static inline void cpu_relax(void) {
  sched_yield();
}

static void req_free(bash_req *r) {
  if (!r) return;
  free(r->script);
  free(r->st.buf[0].data);
  free(r->st.buf[1].data);
  sbx_bash_result_free(&r->res);
  free(r);
}

/* Runs one call as bash() does between enter and leave (no GIL). */
static void runner_run(SandboxObject *s, bash_req *r) {
  sbx_bash_opts opts = {.stdin_fd = -1, .on_stdout = bash_stream_stdout,
                        .on_stderr = bash_stream_stderr, .ud = &r->st, .record = r->record};
  sbx_limits saved;
  pthread_mutex_lock(&s->lock);
  if (!s->h) {
    pthread_mutex_unlock(&s->lock);
    r->closed = 1;
    return;
  }
  s->owner = pthread_self();
  __atomic_store_n(&s->busy, 1, __ATOMIC_RELEASE);
  int rc = SBX_OK;
  if (r->with_limits) {
    rc = sbx_get_limits(s->h, &saved);
    if (rc == SBX_OK) rc = sbx_set_limits(s->h, &r->lim);
  }
  if (rc == SBX_OK) {
    rc = sbx_bash_ex(s->h, r->script, r->len, &opts, &r->res);
    if (rc != SBX_OK && !limit_kind(rc)) capture_error(s->h, rc, &r->e);
    if (r->with_limits) sbx_set_limits(s->h, &saved);
  } else {
    capture_error(s->h, rc, &r->e);
  }
  r->rc = rc;
  __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&s->lock);
}

static void runner_notify(bash_runner *rn) {
  uint64_t one = 1;
  ssize_t w = write(rn->efd, &one, sizeof one); /* fails only when the counter is full */
  (void)w;
}

static void *runner_main(void *arg) {
  SandboxObject *s = arg;
  bash_runner *rn = s->runner;
  pthread_mutex_lock(&rn->mu);
  for (;;) {
    if (!rn->head && !rn->stop) {
      /* spin a while for the next call, then sleep */
      pthread_mutex_unlock(&rn->mu);
      long long until = mono_ns() + RUNNER_SPIN_NS;
      while (!__atomic_load_n(&rn->head, __ATOMIC_ACQUIRE) &&
             !__atomic_load_n(&rn->stop, __ATOMIC_ACQUIRE) && mono_ns() < until)
        cpu_relax();
      pthread_mutex_lock(&rn->mu);
      while (!rn->head && !rn->stop) {
        rn->sleeping = 1;
        pthread_cond_wait(&rn->cv, &rn->mu);
        rn->sleeping = 0;
      }
    }
    if (rn->stop) break;
    bash_req *r = rn->head;
    __atomic_store_n(&rn->head, r->next, __ATOMIC_RELEASE); /* read by the spin above */
    if (!rn->head) rn->tail = NULL;
    rn->running = r;
    __atomic_store_n(&r->state, REQ_RUNNING, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&rn->mu);
    runner_run(s, r);
    pthread_mutex_lock(&rn->mu);
    rn->running = NULL;
    r->next = rn->done;
    rn->done = r;
    __atomic_store_n(&r->state, REQ_DONE, __ATOMIC_RELEASE);
    if (r->notify) runner_notify(rn);
  }
  pthread_mutex_unlock(&rn->mu);
  return NULL;
}

/* In a child of fork() the runner's thread is gone and its lock, queue and
 * eventfd (shared with the parent) are not ours: start afresh. */
static int runner_forked(bash_runner *rn) {
  bash_req *lists[3] = {rn->head, rn->done, rn->running};
  for (int i = 0; i < 3; i++)
    for (bash_req *r = lists[i], *next; r; r = next) {
      next = i < 2 ? r->next : NULL;
      req_free(r);
    }
  rn->head = rn->tail = rn->done = rn->running = NULL;
  rn->sleeping = rn->stop = rn->alive = 0;
  pthread_mutex_init(&rn->mu, NULL);
  pthread_cond_init(&rn->cv, NULL);
  close(rn->efd);
  rn->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  rn->pid = getpid();
  return rn->efd < 0 ? -1 : 0;
}

/* Stops the thread after its current call (no GIL; the caller does not hold
 * s->lock). Queued calls end as closed; the loop is told. */
static void runner_stop(SandboxObject *s) {
  bash_runner *rn = s->runner;
  if (!rn) return;
  if (rn->pid != getpid()) runner_forked(rn); /* no thread to join here */
  pthread_mutex_lock(&rn->mu);
  int alive = rn->alive;
  __atomic_store_n(&rn->stop, 1, __ATOMIC_RELEASE);
  pthread_cond_signal(&rn->cv);
  pthread_mutex_unlock(&rn->mu);
  if (alive) pthread_join(rn->thread, NULL);
  pthread_mutex_lock(&rn->mu);
  rn->alive = 0;
  int any = 0;
  while (rn->head) {
    bash_req *r = rn->head;
    __atomic_store_n(&rn->head, r->next, __ATOMIC_RELEASE);
    r->closed = 1;
    r->next = rn->done;
    rn->done = r;
    __atomic_store_n(&r->state, REQ_DONE, __ATOMIC_RELEASE);
    any |= r->notify;
  }
  rn->tail = NULL;
  if (any) runner_notify(rn);
  pthread_mutex_unlock(&rn->mu);
}

/* Frees the runner (dealloc: the thread is stopped, nothing awaits). */
static void runner_free(SandboxObject *s) {
  bash_runner *rn = s->runner;
  if (!rn) return;
  runner_stop(s);
  while (rn->done) {
    bash_req *r = rn->done;
    rn->done = r->next;
    req_free(r);
  }
  close(rn->efd);
  pthread_mutex_destroy(&rn->mu);
  pthread_cond_destroy(&rn->cv);
  free(rn);
  s->runner = NULL;
}

/* The runner of s, started if need be (GIL held). NULL with an exception. */
static bash_runner *runner_get(SandboxObject *s) {
  bash_runner *rn = s->runner;
  if (rn && rn->pid != getpid() && runner_forked(rn) < 0)
    return (bash_runner *)PyErr_SetFromErrno(PyExc_OSError);
  if (!rn) {
    rn = calloc(1, sizeof *rn);
    if (!rn) return (bash_runner *)PyErr_NoMemory();
    rn->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (rn->efd < 0) {
      free(rn);
      return (bash_runner *)PyErr_SetFromErrno(PyExc_OSError);
    }
    pthread_mutex_init(&rn->mu, NULL);
    pthread_cond_init(&rn->cv, NULL);
    rn->pid = getpid();
    s->runner = rn;
  }
  if (!rn->alive) {
    if (rn->stop) {
      PyErr_SetString(PyExc_RuntimeError, "LocalSandbox instance has been destroyed");
      return NULL;
    }
    pthread_attr_t at;
    pthread_attr_init(&at);
    int e = pthread_create(&rn->thread, &at, runner_main, s);
    pthread_attr_destroy(&at);
    if (e) {
      errno = e;
      return (bash_runner *)PyErr_SetFromErrno(PyExc_OSError);
    }
    rn->alive = 1;
  }
  return rn;
}

/* Unlinks r from the done list (rn->mu held). */
static void done_unlink(bash_runner *rn, bash_req *r) {
  for (bash_req **p = &rn->done; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      return;
    }
}

/* The outcome of a finished request as a value (GIL held): the result tuple,
 * or the exception object it raises (never raised here). Frees r. */
static PyObject *req_outcome(bash_req *r) {
  PyObject *v;
  if (r->closed) {
    PyErr_SetString(PyExc_RuntimeError, "LocalSandbox instance has been destroyed");
    v = NULL;
    free(r->st.buf[0].data);
    free(r->st.buf[1].data);
    r->st.buf[0].data = r->st.buf[1].data = NULL;
  } else {
    v = bash_build(&r->st, r->rc, &r->res, &r->e);
  }
  if (!v) {
    PyObject *t, *val, *tb;
    PyErr_Fetch(&t, &val, &tb);
    PyErr_NormalizeException(&t, &val, &tb);
    if (val && tb) PyException_SetTraceback(val, tb);
    Py_XDECREF(t);
    Py_XDECREF(tb);
    v = val ? val : Py_NewRef(Py_None);
  }
  r->res = (sbx_bash_result){0};
  req_free(r);
  return v;
}

/*
 * bash_submit(script, limits=None, record=False) -> (ticket, outcome | None)
 *
 * Queues a bash call for the runner and waits up to RUNNER_SPIN_NS for it.
 * outcome is what bash() returns (the tuple) or the exception it would raise,
 * as a value; None: the call still runs, its outcome comes from bash_collect
 * after the eventfd (runner_fd()) is readable.
 */
static PyObject *sandbox_bash_submit(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"script", "limits", "record", NULL};
  PyObject *script_obj, *limits_obj = Py_None;
  int record = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "U|Op:bash_submit", kwlist, &script_obj,
                                   &limits_obj, &record))
    return NULL;
  if (!self->h) {
    PyErr_SetString(PyExc_RuntimeError, "LocalSandbox instance has been destroyed");
    return NULL;
  }
  if (is_reentry(self) || tls_cb_sandbox == self) {
    PyErr_SetString(PyExc_RuntimeError,
                    "the sandbox is already in a call on this thread (an output callback "
                    "cannot call back into its own sandbox)");
    return NULL;
  }
  Py_ssize_t len;
  const char *script = PyUnicode_AsUTF8AndSize(script_obj, &len);
  if (!script) return NULL;
  bash_req *r = calloc(1, sizeof *r);
  if (!r) return PyErr_NoMemory();
  r->st.self = self;
  r->record = record;
  r->with_limits = limits_obj != Py_None;
  if ((r->with_limits && dict_to_limits(limits_obj, &r->lim) < 0) ||
      !(r->script = malloc((size_t)len + 1))) {
    free(r);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  memcpy(r->script, script, (size_t)len + 1);
  r->len = (size_t)len;
  bash_runner *rn = runner_get(self);
  if (!rn) {
    req_free(r);
    return NULL;
  }
  unsigned long long ticket;
  int done = 0;
  Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&rn->mu);
  ticket = r->ticket = ++rn->next_ticket;
  if (rn->tail) rn->tail->next = r;
  else __atomic_store_n(&rn->head, r, __ATOMIC_RELEASE);
  rn->tail = r;
  if (rn->sleeping) pthread_cond_signal(&rn->cv);
  pthread_mutex_unlock(&rn->mu);
  long long until = mono_ns() + RUNNER_SPIN_NS;
  while (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) != REQ_DONE && mono_ns() < until)
    cpu_relax();
  pthread_mutex_lock(&rn->mu);
  if (r->state == REQ_DONE) {
    done_unlink(rn, r);
    done = 1;
  } else {
    r->notify = 1; /* r may be freed by bash_collect once the lock is dropped */
  }
  pthread_mutex_unlock(&rn->mu);
  Py_END_ALLOW_THREADS
  if (!done) return Py_BuildValue("(KO)", ticket, Py_None);
  PyObject *v = req_outcome(r);
  if (!v) return NULL;
  PyObject *t = Py_BuildValue("(KN)", ticket, v);
  return t;
}

/* runner_fd() -> int: the eventfd that turns readable when a call submitted
 * with bash_submit (and not finished there) ends. */
static PyObject *sandbox_runner_fd(SandboxObject *self, PyObject *unused) {
  if (self->runner && self->runner->pid == getpid()) return PyLong_FromLong(self->runner->efd);
  bash_runner *rn = runner_get(self);
  if (!rn) return NULL;
  return PyLong_FromLong(rn->efd);
}

/* bash_collect() -> [(ticket, outcome)]: the finished calls whose
 * bash_submit returned without them (reads the eventfd). Works on a closed
 * sandbox too. */
static PyObject *sandbox_bash_collect(SandboxObject *self, PyObject *unused) {
  bash_runner *rn = self->runner;
  PyObject *list = PyList_New(0);
  if (!rn || !list || (rn->pid != getpid() && runner_forked(rn) < 0)) return list;
  bash_req *got;
  Py_BEGIN_ALLOW_THREADS uint64_t n;
  ssize_t rd = read(rn->efd, &n, sizeof n); /* nonblocking: resets the counter */
  (void)rd;
  pthread_mutex_lock(&rn->mu);
  /* only the calls whose submitter stopped waiting (notify): one still
   * spinning in bash_submit on another thread takes its own */
  got = NULL;
  for (bash_req **p = &rn->done; *p;) {
    bash_req *r = *p;
    if (r->notify) {
      *p = r->next;
      r->next = got;
      got = r;
    } else {
      p = &r->next;
    }
  }
  pthread_mutex_unlock(&rn->mu);
  Py_END_ALLOW_THREADS
  while (got) {
    bash_req *r = got;
    got = r->next;
    unsigned long long ticket = r->ticket;
    PyObject *v = req_outcome(r);
    PyObject *t = v ? Py_BuildValue("(KN)", ticket, v) : NULL;
    if (!t || PyList_Append(list, t) < 0) {
      Py_XDECREF(t);
      while (got) {
        r = got;
        got = r->next;
        req_free(r);
      }
      Py_DECREF(list);
      return NULL;
    }
    Py_DECREF(t);
  }
  return list;
}

/* bash_abandon(ticket) -> bool: drops a queued call (True), or cancels it
 * if it runs (False). For a cancelled abash task. */
static PyObject *sandbox_bash_abandon(SandboxObject *self, PyObject *arg) {
  unsigned long long ticket = PyLong_AsUnsignedLongLong(arg);
  if (PyErr_Occurred()) return NULL;
  bash_runner *rn = self->runner;
  if (!rn || (rn->pid != getpid() && runner_forked(rn) < 0)) Py_RETURN_FALSE;
  int dropped = 0, running = 0;
  bash_req *gone = NULL;
  Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&rn->mu);
  bash_req *prev = NULL;
  for (bash_req *r = rn->head; r; prev = r, r = r->next)
    if (r->ticket == ticket) {
      if (prev) prev->next = r->next;
      else __atomic_store_n(&rn->head, r->next, __ATOMIC_RELEASE);
      if (rn->tail == r) rn->tail = prev;
      gone = r;
      dropped = 1;
      break;
    }
  if (!dropped && rn->running && rn->running->ticket == ticket) running = 1;
  if (!dropped && !running) /* finished meanwhile: nobody will collect it */
    for (bash_req *r = rn->done; r; r = r->next)
      if (r->ticket == ticket) {
        done_unlink(rn, r);
        gone = r;
        break;
      }
  pthread_mutex_unlock(&rn->mu);
  if (running) {
    pthread_mutex_lock(&self->cancel_lock);
    if (self->h) sbx_cancel(self->h);
    pthread_mutex_unlock(&self->cancel_lock);
  }
  Py_END_ALLOW_THREADS
  req_free(gone);
  return PyBool_FromLong(dropped);
}

/* ---- background jobs with a handle (sbx_start) ------------------------------
 * The handles stay in the Sandbox (self->jobs) and are named by their pid;
 * sbx_close frees them with the handle. Waiting is the Python layer's loop
 * over job_poll (short calls), so no call holds the sandbox while a job runs. */

/* The handle of pid (under the Sandbox's lock), or NULL. */
static sbx_job *job_of(SandboxObject *self, long long pid) {
  for (size_t i = 0; i < self->njobs; i++)
    if (sbx_job_pid(self->jobs[i]) == pid) return self->jobs[i];
  return NULL;
}

static PyObject *sandbox_job_start(SandboxObject *self, PyObject *args) {
  PyObject *script_obj;
  if (!PyArg_ParseTuple(args, "U:job_start", &script_obj)) return NULL;
  Py_ssize_t len;
  const char *script = PyUnicode_AsUTF8AndSize(script_obj, &len);
  if (!script) return NULL;
  if (self->njobs == self->capjobs) {
    size_t cap = self->capjobs ? 2 * self->capjobs : 8;
    sbx_job **v = realloc(self->jobs, cap * sizeof *v);
    if (!v) return PyErr_NoMemory();
    self->jobs = v;
    self->capjobs = cap;
  }
  sbx_job *j = NULL;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_start(self->h, script, (size_t)len, &j));
  if (rc != SBX_OK) return raise_call_err(&e);
  self->jobs[self->njobs++] = j; /* the GIL serializes this array's users */
  return PyLong_FromLongLong((long long)sbx_job_pid(j));
}

/* job_poll(pid) -> None while it runs, else its exit code. */
static PyObject *sandbox_job_poll(SandboxObject *self, PyObject *args) {
  long long pid;
  if (!PyArg_ParseTuple(args, "L:job_poll", &pid)) return NULL;
  sbx_job *j = job_of(self, pid);
  if (!j) return PyErr_Format(PyExc_KeyError, "no job %lld", pid);
  int code = 0, rc;
  call_err e;
  SBX_CALL(self, rc, &e, sbx_job_wait(j, 0, &code));
  if (rc == SBX_TIMEOUT) Py_RETURN_NONE;
  if (rc != SBX_OK) return raise_call_err(&e);
  return PyLong_FromLong(code);
}

static PyObject *sandbox_job_kill(SandboxObject *self, PyObject *args) {
  long long pid;
  int sig = 15;
  if (!PyArg_ParseTuple(args, "L|i:job_kill", &pid, &sig)) return NULL;
  sbx_job *j = job_of(self, pid);
  if (!j) return PyErr_Format(PyExc_KeyError, "no job %lld", pid);
  SBX_RETURN_CALL(self, sbx_job_kill(j, sig));
}

/* job_output(pid, fd, from) -> (bytes, next) */
static PyObject *sandbox_job_output(SandboxObject *self, PyObject *args) {
  long long pid;
  int fd;
  unsigned long long from;
  if (!PyArg_ParseTuple(args, "LiK:job_output", &pid, &fd, &from)) return NULL;
  sbx_job *j = job_of(self, pid);
  if (!j) return PyErr_Format(PyExc_KeyError, "no job %lld", pid);
  void *data = NULL;
  size_t len = 0;
  uint64_t next = 0;
  int rc;
  call_err e;
  SBX_CALL(self, rc, &e, sbx_job_output(j, fd, from, &data, &len, &next));
  if (rc != SBX_OK) return raise_call_err(&e);
  PyObject *b = PyBytes_FromStringAndSize(data ? data : "", (Py_ssize_t)len);
  sbx_free(data);
  if (!b) return NULL;
  return Py_BuildValue("(NK)", b, (unsigned long long)next);
}

/* list_of() item maker over an sbx_job * array: the job's pid. */
static PyObject *job_pid(const void *items, size_t i) {
  return PyLong_FromLongLong((long long)sbx_job_pid(((sbx_job *const *)items)[i]));
}

/* jobs() -> [pid, ...]: the started jobs that run now. */
static PyObject *sandbox_jobs(SandboxObject *self, PyObject *unused) {
  sbx_job **v = NULL;
  size_t n = 0;
  int rc;
  call_err e;
  SBX_CALL(self, rc, &e, sbx_jobs(self->h, &v, &n));
  return list_or_raise(rc, &e, v, n, job_pid);
}

#define SBX_PYAPI_BASH_METHODS                                                           \
  SANDBOX_METHOD(job_start, METH_VARARGS,                                                \
                 "job_start(script) -> pid\n\nStarts a background job (sbx_start)."),    \
      SANDBOX_METHOD(job_poll, METH_VARARGS, "job_poll(pid) -> None | exit_code"),       \
      SANDBOX_METHOD(job_kill, METH_VARARGS, "job_kill(pid, sig=15)"),                   \
      SANDBOX_METHOD(job_output, METH_VARARGS,                                           \
                     "job_output(pid, fd, from) -> (bytes, next)"),                      \
      SANDBOX_METHOD(jobs, METH_NOARGS, "jobs() -> [pid]: running ones"),                \
      SANDBOX_METHOD(                                                                    \
          bash_submit, METH_VARARGS | METH_KEYWORDS,                                     \
          "bash_submit(script, limits=None, record=False) -> (ticket, outcome | None)"), \
      SANDBOX_METHOD(bash_collect, METH_NOARGS,                                          \
                     "bash_collect() -> [(ticket, outcome)]"),                           \
      SANDBOX_METHOD(bash_abandon, METH_O, "bash_abandon(ticket) -> dropped: bool"),     \
      SANDBOX_METHOD(runner_fd, METH_NOARGS,                                             \
                     "runner_fd() -> eventfd of finished bash_submit calls"),            \
      SANDBOX_METHOD(                                                                    \
          bash, METH_VARARGS | METH_KEYWORDS,                                            \
          "bash(script, limits=None, on_output=None, record=None) -> (stdout, stderr, "  \
          "exit_code, duration_ms, kind, limit_name, limit_value, errno, errpath, "      \
          "killed)\n\nRuns a script in the sandbox's shell session (sbx_bash_ex); "      \
          "record: write its history row."),                                             \
      SANDBOX_METHOD(set_limits, METH_O,                                                 \
                     "set_limits(dict)\n\nSets the shell limits of later calls (absent " \
                     "names keep theirs)."),                                             \
      SANDBOX_METHOD(get_limits, METH_NOARGS,                                            \
                     "get_limits() -> dict\n\nThe shell limits in force."),              \
      SANDBOX_METHOD(reset_shell, METH_NOARGS,                                           \
                     "reset_shell()\n\nA fresh shell session (sbx_shell_reset)."),       \
      SANDBOX_METHOD(                                                                    \
          cancel, METH_NOARGS,                                                           \
          "cancel()\n\nStops the running call, from any thread (sbx_cancel)."),

#define SBX_PYAPI_BASH_MODULE_METHODS                                        \
  {"limits_preset", (PyCFunction)module_limits_preset, METH_VARARGS,         \
   "limits_preset(name) -> dict\n\nThe limits of a preset: strict, normal, " \
   "permissive."},

/*
 * Key decisions (Python):
 *  - Host tools of one python_exec call are registered on the handle for
 *    that call and cleared after it, under the same lock; the sandbox's own
 *    toolset (set_tools) is registered again then, so a call sees its own
 *    tools over the sandbox's, and later calls the sandbox's alone. The library runs a tool's callback on one
 *    of its threads while the call waits and allows that callback to use the
 *    handle, so the trampoline marks the thread (cb_begin with nested calls
 *    allowed): a handler may read files or run bash in its own sandbox.
 *  - The dispatcher (Python) never raises; anything it lets through is turned
 *    into the error text the sandboxed caller sees.
 */

/* The host side of one python_exec call's tools. */
typedef struct tool_ctx {
  SandboxObject *self; /* the sandbox (borrowed) */
  PyObject *dispatch;  /* dispatch(name, args_json) -> (ok, text) (borrowed) */
} tool_ctx;

static char *dup_utf8(PyObject *o) {
  const char *s = o && PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  if (!s) {
    PyErr_Clear();
    return NULL;
  }
  return strdup(s);
}

static int tool_trampoline(void *ud, sbx *h, const char *name, const char *args_json,
                           char **result_json, char **error) {
  tool_ctx *tc = ud;
  int rc = 1;
  PyGILState_STATE g = PyGILState_Ensure();
  cb_state prev = cb_begin(tc->self, 1);
  PyObject *r =
      PyObject_CallFunction(tc->dispatch, "ss", name, args_json ? args_json : "null");
  if (r && PyTuple_Check(r) && PyTuple_GET_SIZE(r) >= 2) {
    int ok = PyObject_IsTrue(PyTuple_GET_ITEM(r, 0)) == 1;
    char *text = dup_utf8(PyTuple_GET_ITEM(r, 1));
    if (ok && text) {
      *result_json = text;
      rc = 0;
    } else {
      *error = text;
    }
  } else if (!r) {
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyObject *msg = v ? PyObject_Str(v) : NULL;
    *error = dup_utf8(msg);
    Py_XDECREF(msg);
    Py_XDECREF(t);
    Py_XDECREF(v);
    Py_XDECREF(tb);
    PyErr_Clear();
  }
  if (rc && !*error) *error = strdup("the host tool failed");
  Py_XDECREF(r);
  cb_end(prev);
  PyGILState_Release(g);
  return rc;
}

static const char *py_kind_name(int error) {
  static const char *const names[] = {
      NULL,  "syntax", "exception", "timeout", "memory", "killed",   "output_limit",
      "cpu", "exit",   "protected", "preload", "cwd",    "cancelled"};
  if (error >= 0 && (size_t)error < sizeof names / sizeof names[0]) return names[error];
  return "error";
}

static PyObject *str_or_none(const char *s) {
  if (!s) Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(s, strlen(s), "replace");
}

/* Keeps UTF-8 views of a list of str alive for a call. */
typedef struct str_list {
  PyObject *seq;      /* the list (owned), or NULL */
  const char **items; /* NULL-terminated views into it (PyMem), or NULL */
} str_list;

static int str_list_init(str_list *l, PyObject *o, const char *what) {
  l->seq = NULL;
  l->items = NULL;
  if (o == Py_None) return 0;
  l->seq = PySequence_Fast(o, what);
  if (!l->seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(l->seq);
  l->items = PyMem_Calloc((size_t)n + 1, sizeof *l->items);
  if (!l->items) {
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (!conv_text(PySequence_Fast_GET_ITEM(l->seq, i), &l->items[i])) return -1;
  return 0;
}

static void str_list_free(str_list *l) {
  PyMem_Free(l->items);
  Py_XDECREF(l->seq);
}

/* The tool definitions of a call: [(name, description, input_schema_json,
 * output_schema_json, timeout_seconds), ...] -> sbx_tool_def[] viewing the
 * tuples' strings (valid while `tools` lives). */
static sbx_tool_def *tool_defs(PyObject *tools, size_t *n) {
  PyObject *seq = PySequence_Fast(tools, "tools must be a list of tuples");
  if (!seq) return NULL;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
  sbx_tool_def *defs = PyMem_Calloc(count ? (size_t)count : 1, sizeof *defs);
  if (!defs) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    return NULL;
  }
  for (Py_ssize_t i = 0; i < count; i++) {
    PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyTuple_Check(t) ||
        !PyArg_ParseTuple(t, "O&O&O&O&d", conv_text, &defs[i].name, conv_opt_text,
                          &defs[i].description, conv_opt_text, &defs[i].input_schema,
                          conv_opt_text, &defs[i].output_schema, &defs[i].timeout)) {
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "tools must be a list of tuples");
      PyMem_Free(defs);
      Py_DECREF(seq);
      return NULL;
    }
  }
  *n = (size_t)count;
  Py_DECREF(seq); /* the tuples are kept alive by `tools` */
  return defs;
}

/* on_output of one python_exec call: the Python callback, and its first
 * exception (raised from python_exec once the call has stopped). */
typedef struct py_output_ctx {
  SandboxObject *self;                     /* the sandbox (borrowed) */
  PyObject *callback;                      /* on_output(stream, bytes) (borrowed) */
  PyObject *exc_type, *exc_value, *exc_tb; /* PyErr_Fetch, or all NULL */
} py_output_ctx;

static int py_output_trampoline(void *ud, int fd, const char *data, size_t n) {
  py_output_ctx *oc = ud;
  if (oc->exc_type) return 1;
  PyGILState_STATE g = PyGILState_Ensure();
  cb_state prev = cb_begin(oc->self, 0);
  PyObject *bytes = PyBytes_FromStringAndSize(data, (Py_ssize_t)n);
  PyObject *r = bytes ? PyObject_CallFunction(oc->callback, "sO",
                                              fd == 2 ? "stderr" : "stdout", bytes)
                      : NULL;
  cb_end(prev);
  if (!r) PyErr_Fetch(&oc->exc_type, &oc->exc_value, &oc->exc_tb);
  Py_XDECREF(r);
  Py_XDECREF(bytes);
  PyGILState_Release(g);
  return oc->exc_type != NULL;
}

/*
 * python_exec(code, context=None, cwd=None, preload=None, timeout=0.0,
 *             max_memory=0, max_output=0, max_cpu=0, no_repr=False,
 *             tools=None, dispatch=None, on_output=None, keep_output=0)
 *   -> (stdout: bytes, stderr: bytes, kind, error_type, error_message,
 *       traceback, repr, exit_code, killed, duration_ms, images)
 *
 * kind is None when the code ran to its end, else "syntax", "exception",
 * "timeout", "memory", "killed", "output_limit", "cpu", "exit", "protected",
 * "preload", "cwd" or "cancelled". on_output(stream, bytes) is called as the
 * code writes (an exception in it stops the code and is raised here);
 * keep_output trims each stream to its head and tail (sbx_py_options).
 * images: a list of PNG bytes (figures).
 */
static PyObject *sandbox_python_exec(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {
      "code",    "context", "cwd",   "preload",  "timeout",   "max_memory",  "max_output",
      "max_cpu", "no_repr", "tools", "dispatch", "on_output", "keep_output", NULL};
  const char *code, *context = NULL, *cwd = NULL;
  PyObject *preload_obj = Py_None, *tools_obj = Py_None, *dispatch = Py_None,
           *on_output = Py_None;
  double timeout = 0;
  uint64_t max_memory = 0, max_output = 0, max_cpu = 0, keep_output = 0;
  int no_repr = 0;
  if (!PyArg_ParseTupleAndKeywords(
          args, kw, "O&|O&O&OdO&O&O&pOOOO&:python_exec", kwlist, conv_text, &code,
          conv_opt_text, &context, conv_opt_text, &cwd, &preload_obj, &timeout, conv_u64,
          &max_memory, conv_u64, &max_output, conv_u64, &max_cpu, &no_repr, &tools_obj,
          &dispatch, &on_output, conv_u64, &keep_output))
    return NULL;
  if (on_output != Py_None && !PyCallable_Check(on_output)) {
    PyErr_SetString(PyExc_TypeError, "on_output must be callable");
    return NULL;
  }
  if (max_cpu > UINT32_MAX) max_cpu = UINT32_MAX;
  if (tools_obj != Py_None && !PyCallable_Check(dispatch)) {
    PyErr_SetString(PyExc_TypeError, "tools need a callable dispatch");
    return NULL;
  }
  str_list preload;
  if (str_list_init(&preload, preload_obj, "preload must be a list of str") < 0) {
    str_list_free(&preload);
    return NULL;
  }
  size_t ntools = 0;
  sbx_tool_def *defs = NULL;
  if (tools_obj != Py_None && !(defs = tool_defs(tools_obj, &ntools))) {
    str_list_free(&preload);
    return NULL;
  }
  sbx_py_options opt = {.context = context,
                        .cwd = cwd,
                        .timeout = timeout,
                        .preload = preload.items,
                        .max_memory = max_memory,
                        .max_output = max_output,
                        .max_cpu = (uint32_t)max_cpu,
                        .no_repr = no_repr,
                        .keep_output = keep_output};
  py_output_ctx oc = {.self = self, .callback = on_output};
  if (on_output != Py_None) {
    opt.on_output = py_output_trampoline;
    opt.on_output_ud = &oc;
  }
  tool_ctx tc = {.self = self, .dispatch = dispatch};
  sbx_py_result *res = NULL;
  call_err e;
  int rc = SBX_OK;
  PyThreadState *ts;
  if (enter(self, &ts) < 0) {
    PyMem_Free(defs);
    str_list_free(&preload);
    return NULL;
  }
  if (defs) rc = sbx_tools_register(self->h, defs, ntools, tool_trampoline, &tc);
  if (rc == SBX_OK) rc = sbx_python_exec(self->h, code, &opt, &res);
  if (rc != SBX_OK) capture_error(self->h, rc, &e);
  if (defs) {
    sbx_tools_clear(self->h);
    if (self->toolset_n) /* the sandbox's own toolset again (set_tools) */
      sbx_tools_register(self->h, self->toolset_defs, self->toolset_n, tool_trampoline,
                         self->toolset_ctx);
  }
  leave(self, ts);
  PyMem_Free(defs);
  str_list_free(&preload);
  if (oc.exc_type) { /* on_output raised: that is the call's outcome */
    sbx_free(res);
    PyErr_Restore(oc.exc_type, oc.exc_value, oc.exc_tb);
    return NULL;
  }
  if (rc != SBX_OK) {
    sbx_free(res);
    return raise_call_err(&e);
  }
  const char *kind = py_kind_name(res->error);
  PyObject *images = PyList_New((Py_ssize_t)res->nimages);
  for (size_t i = 0; images && i < res->nimages; i++) {
    PyObject *b = PyBytes_FromStringAndSize((const char *)res->images[i].data,
                                            (Py_ssize_t)res->images[i].len);
    if (!b)
      Py_CLEAR(images);
    else
      PyList_SET_ITEM(images, (Py_ssize_t)i, b);
  }
  PyObject *r =
      images ? Py_BuildValue("(y#y#NNNNNiOdN)", res->out, (Py_ssize_t)res->out_len,
                             res->err, (Py_ssize_t)res->err_len, str_or_none(kind),
                             str_or_none(res->error_type),
                             str_or_none(res->error_message), str_or_none(res->traceback),
                             str_or_none(res->repr), res->exit_code,
                             res->killed ? Py_True : Py_False, res->duration_ms, images)
             : NULL;
  sbx_free(res);
  return r;
}

/* python_set_paths(dirs): host directories importable in the jail
 * (sbx_python_set_paths); a list of str, or None. */
static PyObject *sandbox_python_set_paths(SandboxObject *self, PyObject *arg) {
  str_list dirs;
  if (str_list_init(&dirs, arg, "python paths must be a list of str") < 0) {
    str_list_free(&dirs);
    return NULL;
  }
  int rc;
  call_err e;
  SBX_CALL_THEN(self, rc, &e, sbx_python_set_paths(self->h, dirs.items),
                str_list_free(&dirs));
  if (rc != SBX_OK) return raise_call_err(&e);
  Py_RETURN_NONE;
}

/* python_cancel(): stops the running Python call, if any (any thread, no
 * waiting; the shell is not touched). */
static PyObject *sandbox_python_cancel(SandboxObject *self, PyObject *unused) {
  pthread_mutex_lock(&self->cancel_lock);
  if (self->h) sbx_python_cancel(self->h);
  pthread_mutex_unlock(&self->cancel_lock);
  Py_RETURN_NONE;
}

/*
 * set_tools(tools, dispatch) / set_tools(None): the sandbox's own toolset,
 * declared once (sbx_tools_register) for every later call: python_exec
 * without tools of its own, and the shell's `tool` command. tools as for
 * python_exec. Replaces the previous toolset; None forgets it.
 */
static PyObject *sandbox_set_tools(SandboxObject *self, PyObject *args) {
  PyObject *tools_obj, *dispatch = Py_None;
  if (!PyArg_ParseTuple(args, "O|O:set_tools", &tools_obj, &dispatch)) return NULL;
  if (tools_obj != Py_None && !PyCallable_Check(dispatch)) {
    PyErr_SetString(PyExc_TypeError, "tools need a callable dispatch");
    return NULL;
  }
  PyObject *keep = NULL;
  sbx_tool_def *defs = NULL;
  tool_ctx *tc = NULL;
  size_t n = 0;
  if (tools_obj != Py_None) {
    keep = Py_BuildValue("(OO)", tools_obj, dispatch);
    tc = PyMem_Calloc(1, sizeof *tc);
    if (!keep || !tc || !(defs = tool_defs(tools_obj, &n))) {
      if (!tc) PyErr_NoMemory();
      Py_XDECREF(keep);
      PyMem_Free(tc);
      return NULL;
    }
    tc->self = self;
    tc->dispatch = dispatch; /* kept alive by `keep` */
  }
  call_err e;
  int rc = SBX_OK;
  PyThreadState *ts;
  if (enter(self, &ts) < 0) {
    Py_XDECREF(keep);
    PyMem_Free(tc);
    PyMem_Free(defs);
    return NULL;
  }
  rc = sbx_tools_clear(self->h);
  if (rc == SBX_OK && defs) rc = sbx_tools_register(self->h, defs, n, tool_trampoline, tc);
  if (rc != SBX_OK) {
    capture_error(self->h, rc, &e);
    if (self->toolset_n) /* keep the previous toolset */
      sbx_tools_register(self->h, self->toolset_defs, self->toolset_n, tool_trampoline,
                         self->toolset_ctx);
  }
  leave(self, ts);
  if (rc != SBX_OK) {
    Py_XDECREF(keep);
    PyMem_Free(tc);
    PyMem_Free(defs);
    return raise_call_err(&e);
  }
  toolset_release(self);
  self->toolset = keep;
  self->toolset_defs = defs;
  self->toolset_n = n;
  self->toolset_ctx = tc;
  Py_RETURN_NONE;
}

static PyObject *sandbox_python_context(SandboxObject *self, PyObject *args) {
  const char *op, *name, *src = NULL;
  if (!PyArg_ParseTuple(args, "sO&|O&:python_context", &op, conv_text, &name,
                        conv_opt_text, &src))
    return NULL;
  int which = !strcmp(op, "create")   ? 1
              : !strcmp(op, "fork")   ? 2
              : !strcmp(op, "reset")  ? 3
              : !strcmp(op, "delete") ? 4
                                      : 0;
  if (!which || (which == 2 && !src)) {
    PyErr_Format(PyExc_ValueError, "python_context: bad operation %s", op);
    return NULL;
  }
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e,
           which == 1   ? sbx_python_context_create(self->h, name)
           : which == 2 ? sbx_python_context_fork(self->h, src, name)
           : which == 3 ? sbx_python_context_reset(self->h, name)
                        : sbx_python_context_delete(self->h, name));
  if (rc != SBX_OK) return raise_call_err(&e);
  Py_RETURN_NONE;
}

static PyObject *sandbox_python_set_var(SandboxObject *self, PyObject *args) {
  const char *ctx, *name, *json;
  if (!PyArg_ParseTuple(args, "O&O&O&:python_set_var", conv_opt_text, &ctx, conv_text,
                        &name, conv_text, &json))
    return NULL;
  SBX_RETURN_CALL(self, sbx_python_set_var(self->h, ctx, name, json));
}

static PyObject *sandbox_python_protect(SandboxObject *self, PyObject *args) {
  const char *ctx, *name;
  if (!PyArg_ParseTuple(args, "O&O&:python_protect", conv_opt_text, &ctx, conv_text,
                        &name))
    return NULL;
  SBX_RETURN_CALL(self, sbx_python_protect(self->h, ctx, name));
}

static PyObject *sandbox_python_stop(SandboxObject *self, PyObject *unused) {
  return call_handle(self, sbx_python_stop);
}

/* python_require(tier): SBX_TIER_ANY / FULL / REDUCED (sbx_python_require). */
static PyObject *sandbox_python_require(SandboxObject *self, PyObject *args) {
  int tier;
  if (!PyArg_ParseTuple(args, "i", &tier)) return NULL;
  SBX_RETURN_CALL(self, sbx_python_require(self->h, tier));
}

/* jail_info() -> str: the JSON text of sbx_jail_info. */
static PyObject *sandbox_jail_info(SandboxObject *self, PyObject *unused) {
  call_err e;
  int rc;
  char *json = NULL;
  SBX_CALL(self, rc, &e, sbx_jail_info(self->h, &json));
  if (rc != SBX_OK) return raise_call_err(&e);
  PyObject *r = PyUnicode_FromString(json);
  sbx_free(json);
  return r;
}

/* probe() -> ([(name, ok, detail, fix), ...], jail_ok) */
static PyObject *module_probe(PyObject *mod, PyObject *unused) {
  sbx_probe_item *items = NULL;
  size_t n = 0;
  int jail_ok = 0, rc;
  Py_BEGIN_ALLOW_THREADS rc = sbx_probe(&items, &n, &jail_ok);
  Py_END_ALLOW_THREADS if (rc != SBX_OK) {
    sbx_free(items);
    return raise_error(rc, 0, NULL, "probe failed");
  }
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *t = Py_BuildValue("(NiNN)", str_or_none(items[i].name), items[i].ok,
                                str_or_none(items[i].detail), str_or_none(items[i].fix));
    if (!t) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  sbx_free(items);
  if (!list) return NULL;
  return Py_BuildValue("(NO)", list, jail_ok ? Py_True : Py_False);
}

#define SBX_PYAPI_PYTHON_METHODS                                                         \
  SANDBOX_METHOD(python_exec, METH_VARARGS | METH_KEYWORDS,                              \
                 "python_exec(code, context=None, cwd=None, preload=None, timeout=0.0, " \
                 "max_memory=0, max_output=0, max_cpu=0, no_repr=False, tools=None, "    \
                 "dispatch=None, on_output=None, keep_output=0) -> tuple\n\nRuns "       \
                 "Python in the sandbox's jailed worker (sbx_python_exec)."),            \
      SANDBOX_METHOD(                                                                    \
          python_set_paths, METH_O,                                                      \
          "python_set_paths(dirs)\n\nHost directories importable in the jail."),         \
      SANDBOX_METHOD(                                                                    \
          python_cancel, METH_NOARGS,                                                    \
          "python_cancel()\n\nStops the running Python call (sbx_python_cancel)."),      \
      SANDBOX_METHOD(                                                                    \
          set_tools, METH_VARARGS,                                                       \
          "set_tools(tools, dispatch) | set_tools(None)\n\nThe sandbox's own toolset, "  \
          "declared once for every later call and the shell's tool command."),           \
      SANDBOX_METHOD(python_context, METH_VARARGS,                                       \
                     "python_context(op, name, src=None)\n\nop: create, fork (from "     \
                     "src), reset, delete."),                                            \
      SANDBOX_METHOD(python_set_var, METH_VARARGS,                                       \
                     "python_set_var(context, name, json)"),                             \
      SANDBOX_METHOD(python_protect, METH_VARARGS, "python_protect(context, name)"),     \
      SANDBOX_METHOD(python_stop, METH_NOARGS,                                           \
                     "python_stop()\n\nStops the worker (contexts are lost)."),          \
      SANDBOX_METHOD(python_require, METH_VARARGS,                                       \
                     "python_require(tier)\n\nTIER_ANY, TIER_FULL or TIER_REDUCED."),    \
      SANDBOX_METHOD(                                                                    \
          jail_info, METH_NOARGS,                                                        \
          "jail_info() -> str\n\nThe jail tier and its guarantees, as JSON text."),

#define SBX_PYAPI_PYTHON_MODULE_METHODS             \
  {"probe", (PyCFunction)module_probe, METH_NOARGS, \
   "probe() -> ([(name, ok, detail, fix)], jail_ok)\n\nWhich jail features work here."},

#define SBX_PYAPI_EXEC_METHODS SBX_PYAPI_BASH_METHODS SBX_PYAPI_PYTHON_METHODS
#define SBX_PYAPI_EXEC_MODULE_METHODS \
  SBX_PYAPI_BASH_MODULE_METHODS SBX_PYAPI_PYTHON_MODULE_METHODS
