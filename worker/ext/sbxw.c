/*
 * sbxw.c - W's C half: the extension module `_sbxw` that Debian's own
 * /usr/bin/python3.11 loads inside the jail and that serves the py protocol
 * (src/py/py_proto.h) on fd 3.
 *
 * Why an extension module and not a program embedding libpython: Debian's
 * interpreter binary is built with PGO and LTO, while the libpython3.11.a
 * it ships for embedding has PGO only; compute-bound Python ran up to 1.4x
 * slower in a program linked with that archive (docs/python.md has the
 * figures). So W execs the interpreter itself (worker/main.c):
 *   python3.11 -I -S -B -c "<load /proc/self/fd/5 as _sbxw>; _sbxw.main()"
 * with this module's shared object in a sealed memfd on fd 5, and user code
 * runs at exactly python3's speed. main() never returns.
 *
 * Split of work: this file owns the protocol loop, interrupts and per-call
 * limits; worker/bootstrap.py (linked in with .incbin and run once as the
 * module `_sbx`) owns what a call means. The same module gives bootstrap.py
 * the calls that need the protocol: tool_call, tool_search and stdin_read.
 *
 * Nesting: while sandboxed code waits for a host tool's reply, the host may
 * send a new request (its callback ran Python in the same sandbox). wait_for()
 * serves such requests recursively, up to PYW_MAX_DEPTH, so a callback can
 * call back without deadlock.
 *
 * Threads: sandboxed code may call host tools from any number of threads.
 * Two locks keep the channel whole (the host serves one call at a time, in
 * order, so serializing calls here costs no parallelism):
 *  - the channel lock (chan_enter/chan_leave; recursive, for nested calls)
 *    is held by the one thread that has a call out, from sending it until
 *    its reply is decoded, and by the main loop while it reads a request:
 *    every reply read is the reply of the thread that reads it;
 *  - the output lock (out_begin/send_out) is held while one frame is built
 *    in W.out and written; the write itself runs without the GIL, so a
 *    thread reading a large reply is never stuck behind a thread writing.
 * Both are waited for without the GIL (a thread holding one of them may
 * need the GIL to let go of it), and neither is held while waiting for the
 * other in the opposite order: chan before out, never out before chan.
 *
 * Interrupts: a watcher thread reads 4-byte request ids from fd 4 and sends
 * SIGINT to the main thread only when that id is the running EXEC, so a late
 * interrupt never hits the next call; bootstrap.py's handler raises
 * KeyboardInterrupt only while user code runs.
 *
 * Forks: user code may call os.fork() and let the child return, so the
 * child comes back here with a copy of everything. It must never touch the
 * channel (the host would see two workers' frames and kill both): a
 * pthread_atfork handler points fds 3 and 4 of every child at /dev/null, and
 * a child that returns from its cell exits at once (forked_exit) with the
 * status python3 would give it. The channel fds are close-on-exec once the
 * interpreter runs, so programs that code starts never hold them either.
 */
#define PY_SSIZE_T_CLEAN
#include "sbxw.h"

#include <Python.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "jail/jail.h"
#include "py/py_proto.h"

#define PYW_MAX_DEPTH 8

/* bootstrap.py, embedded at build time (NUL-terminated). */
__asm__(".section .rodata\n"
        ".global pyw_bootstrap_src\n"
        ".hidden pyw_bootstrap_src\n"
        ".type pyw_bootstrap_src, @object\n"
        "pyw_bootstrap_src:\n"
        ".incbin \"worker/bootstrap.py\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char pyw_bootstrap_src[];

/* The worker's state (one per process). */
static struct {
  py_reader rd;               /* frames from the host */
  py_buf out;                 /* frames to the host */
  PyObject *boot;             /* the _sbx module (bootstrap.py) */
  pthread_t main_thread;      /* receives SIGINT on interrupt */
  _Atomic uint32_t running;   /* id of the EXEC running now, 0 if none */
  uint32_t next_call_id;      /* ids of TOOL_CALL / STDIN_READ */
  int depth;                  /* nested requests being served */
  pthread_mutex_t mu;         /* guards chan_* (held only briefly) */
  pthread_cond_t cv;          /* chan_depth went to 0 */
  pthread_t chan_owner;       /* the thread holding the channel lock */
  int chan_depth;             /* its recursion depth, 0 when free */
  pthread_mutex_t out_mu;     /* the output lock: W.out and the write */
  uint8_t *req_copy;          /* the main loop's copy of the request it serves */
  size_t req_cap;             /* allocated */
  pid_t pid;                  /* the worker's own pid: any other is a forked child */
} W = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
       .out_mu = PTHREAD_MUTEX_INITIALIZER};

static void die(const char *what) {
  fprintf(stderr, "sbx-pyworker: %s\n", what);
  _exit(1);
}

/* 1 in a child that user code forked (it shares nothing with the host). */
static int forked(void) {
  return getpid() != W.pid;
}

/* pthread_atfork, in every child: the channel is the parent's alone. Only
 * async-signal-safe calls (the parent may have had other threads). */
static void fork_child(void) {
  int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  dup3(fd, JAIL_WFD_CTL, O_CLOEXEC);
  dup3(fd, JAIL_WFD_INTR, O_CLOEXEC);
  close(fd);
}

/* A forked child came back from its cell (it did not exit): it ends here,
 * as it would at the end of a python3 script, with the cell's status (0, 1
 * after an exception, whose traceback goes to its stderr, or the SystemExit
 * code). Never returns. */
static void forked_exit(PyObject *t) {
  int code = 1;
  if (t && PyTuple_Check(t) && PyTuple_GET_SIZE(t) >= 7) {
    long status = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
    long exit_code = PyLong_AsLong(PyTuple_GET_ITEM(t, 6));
    PyObject *tb = PyTuple_GET_ITEM(t, 4);
    code = status == 0 ? 0 : exit_code ? (int)(exit_code & 0xff) : 1;
    Py_ssize_t n;
    const char *text = PyUnicode_Check(tb) ? PyUnicode_AsUTF8AndSize(tb, &n) : NULL;
    if (text && n > 0 && write(2, text, (size_t)n) < 0) code = code ? code : 1;
  }
  _exit(code);
}

/* ---- protocol I/O ------------------------------------------------------------ */

/* Takes the channel lock (GIL held on entry and on return). */
static void chan_enter(void) {
  pthread_t self = pthread_self();
  pthread_mutex_lock(&W.mu);
  if (W.chan_depth > 0 && pthread_equal(W.chan_owner, self)) {
    W.chan_depth++;
    pthread_mutex_unlock(&W.mu);
    return;
  }
  if (W.chan_depth == 0) {
    W.chan_owner = self;
    W.chan_depth = 1;
    pthread_mutex_unlock(&W.mu);
    return;
  }
  /* Busy: wait without the GIL, so the owner can finish its call; W.mu is
   * let go before the GIL is taken back (its holders may hold the GIL). */
  pthread_mutex_unlock(&W.mu);
  Py_BEGIN_ALLOW_THREADS
  pthread_mutex_lock(&W.mu);
  while (W.chan_depth > 0) pthread_cond_wait(&W.cv, &W.mu);
  W.chan_owner = self;
  W.chan_depth = 1;
  pthread_mutex_unlock(&W.mu);
  Py_END_ALLOW_THREADS
}

static void chan_leave(void) {
  pthread_mutex_lock(&W.mu);
  if (--W.chan_depth == 0) pthread_cond_broadcast(&W.cv);
  pthread_mutex_unlock(&W.mu);
}

/* Takes the output lock and starts a frame in W.out (GIL held). */
static void out_begin(uint8_t type, uint32_t id) {
  if (forked()) _exit(0); /* a backstop: forked children never send */
  if (pthread_mutex_trylock(&W.out_mu) != 0) {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&W.out_mu);
    Py_END_ALLOW_THREADS
  }
  py_msg_begin(&W.out, type, id);
}

/* Drops a frame that could not be finished, and the output lock. */
static void out_abort(void) {
  W.out.len = 0;
  pthread_mutex_unlock(&W.out_mu);
}

/* Writes the frame(s) in W.out without the GIL, then lets go of the lock. */
static int send_out(void) {
  int r;
  Py_BEGIN_ALLOW_THREADS
  r = py_buf_send(&W.out, JAIL_WFD_CTL);
  Py_END_ALLOW_THREADS
  if (r) _exit(0); /* the host is gone */
  pthread_mutex_unlock(&W.out_mu);
  return 0;
}

/* Blocks (without the GIL when `gil` is set) until the next frame decodes. */
static void read_frame(py_msg *m, int gil) {
  for (;;) {
    const uint8_t *body;
    size_t len;
    int r = py_reader_frame(&W.rd, &body, &len);
    if (r < 0) die("protocol error from the host");
    if (r == 1) {
      if (py_msg_decode(body, len, 0, m) != 0) die("undecodable message from the host");
      return;
    }
    ssize_t n;
    if (forked()) _exit(0); /* never read the parent's requests */
    if (gil) {
      Py_BEGIN_ALLOW_THREADS
      n = py_reader_fill(&W.rd, JAIL_WFD_CTL);
      Py_END_ALLOW_THREADS
    } else {
      n = py_reader_fill(&W.rd, JAIL_WFD_CTL);
    }
    if (n == 0) _exit(0); /* host closed: normal end */
    if (n < 0) _exit(1);
  }
}

static PyObject *field_str(const py_msg *m, uint8_t tag, const char *def) {
  const py_field *f = py_msg_get(m, tag);
  if (!f) return PyUnicode_FromString(def);
  return PyUnicode_DecodeUTF8((const char *)f->data, f->len, "surrogateescape");
}

static PyObject *field_list(const py_msg *m, uint8_t tag) {
  PyObject *l = PyList_New(0);
  for (uint32_t i = 0; l && i < m->nfields; i++) {
    if (m->fields[i].tag != tag) continue;
    PyObject *s = PyUnicode_DecodeUTF8((const char *)m->fields[i].data, m->fields[i].len,
                                       "surrogateescape");
    if (!s || PyList_Append(l, s)) {
      Py_XDECREF(s);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(s);
  }
  return l;
}

/* A Python str as UTF-8 bytes (lone surrogates become backslash escapes, so
 * the host always gets valid UTF-8), or NULL for nothing. Done before the
 * output lock is taken: encoding may run Python code (a finalizer, through
 * the garbage collector), which may itself send a frame. */
static PyObject *utf8_of(PyObject *s) {
  if (!s || !PyUnicode_Check(s) || PyUnicode_GET_LENGTH(s) == 0) return NULL;
  PyObject *b = PyUnicode_AsEncodedString(s, "utf-8", "backslashreplace");
  if (!b) PyErr_Clear();
  return b;
}

/* Adds encoded bytes (utf8_of) as a string field; NUL is not allowed in
 * protocol strings, so it cuts there. */
static void add_utf8(uint8_t tag, PyObject *b) {
  if (!b) return;
  const char *p = PyBytes_AS_STRING(b);
  py_msg_add(&W.out, tag, p, strnlen(p, (size_t)PyBytes_GET_SIZE(b)));
}

/* Sends RESULT for a failure inside the worker itself (not the user's code). */
static void send_internal_error(uint32_t id, const char *kind, const char *msg) {
  out_begin(PY_MSG_RESULT, id);
  py_msg_add_u64(&W.out, PY_T_STATUS, 1);
  py_msg_add_str(&W.out, PY_T_ERRKIND, kind);
  py_msg_add_str(&W.out, PY_T_MESSAGE, msg);
  py_msg_end(&W.out);
  send_out();
}

/* Sends a RESULT from a bootstrap tuple (status, kind, type, msg, tb, repr,
 * exit[, images]) or (status, kind, msg). images: a list of bytes (PNG), one
 * DATA field each. */
static void send_result(uint32_t id, PyObject *t) {
  Py_ssize_t size = t && PyTuple_Check(t) ? PyTuple_GET_SIZE(t) : 0;
  if (size != 7 && size != 8 && size != 3) {
    if (PyErr_Occurred()) {
      int mem = PyErr_ExceptionMatches(PyExc_MemoryError);
      PyErr_Clear();
      send_internal_error(id, mem ? "memory" : "internal", mem ? "out of memory" : "worker error");
    } else {
      send_internal_error(id, "internal", "worker error");
    }
    return;
  }
  long status = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
  int full = size >= 7;
  PyObject *images =
      size == 8 && PyList_Check(PyTuple_GET_ITEM(t, 7)) ? PyTuple_GET_ITEM(t, 7) : NULL;
  long code = full ? PyLong_AsLong(PyTuple_GET_ITEM(t, 6)) : 0;
  /* kind, then (message) or (type, message, traceback, repr). */
  static const uint8_t tags3[] = {PY_T_ERRKIND, PY_T_MESSAGE};
  static const uint8_t tags7[] = {PY_T_ERRKIND, PY_T_ERRTYPE, PY_T_MESSAGE, PY_T_TRACEBACK, PY_T_REPR};
  const uint8_t *tags = full ? tags7 : tags3;
  size_t nstr = full ? sizeof tags7 : sizeof tags3;
  PyObject *enc[5] = {NULL};
  for (size_t i = 0; i < nstr; i++) enc[i] = utf8_of(PyTuple_GET_ITEM(t, (Py_ssize_t)i + 1));
  PyErr_Clear();
  out_begin(PY_MSG_RESULT, id);
  py_msg_add_u64(&W.out, PY_T_STATUS, status == 0 ? 0 : 1);
  for (size_t i = 0; i < nstr; i++) add_utf8(tags[i], enc[i]);
  if (code) py_msg_add_u64(&W.out, PY_T_EXIT, (uint64_t)(code & 0xff));
  for (Py_ssize_t i = 0; images && i < PyList_GET_SIZE(images); i++) {
    PyObject *b = PyList_GET_ITEM(images, i);
    if (PyBytes_Check(b))
      py_msg_add(&W.out, PY_T_DATA, PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
  }
  int too_large = py_msg_end(&W.out) != 0;
  if (too_large) out_abort();
  else send_out();
  for (size_t i = 0; i < nstr; i++) Py_XDECREF(enc[i]);
  /* A result too large for one frame (a huge repr): say so instead. */
  if (too_large) send_internal_error(id, "internal", "result too large for the protocol");
}

/* ---- per-call limits ---------------------------------------------------------- */

static void apply_call_limits(uint64_t mem, uint64_t cpu) {
  struct rlimit r;
#if !defined(__SANITIZE_ADDRESS__)
  if (getrlimit(RLIMIT_AS, &r) == 0) {
    rlim_t want = mem ? (rlim_t)mem : r.rlim_max;
    if (want > r.rlim_max) want = r.rlim_max;
    r.rlim_cur = want;
    setrlimit(RLIMIT_AS, &r);
  }
#else
  (void)mem;
#endif
  if (getrlimit(RLIMIT_CPU, &r) == 0) {
    rlim_t want = r.rlim_max;
    if (cpu) {
      struct rusage ru;
      getrusage(RUSAGE_SELF, &ru);
      want = (rlim_t)ru.ru_utime.tv_sec + (rlim_t)ru.ru_stime.tv_sec + 1 + (rlim_t)cpu;
      if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) want = r.rlim_max;
    }
    r.rlim_cur = want;
    setrlimit(RLIMIT_CPU, &r);
  }
}

/* ---- requests ------------------------------------------------------------------- */

static PyObject *call_boot(const char *fn, const char *fmt, ...) {
  PyObject *f = PyObject_GetAttrString(W.boot, fn);
  if (!f) return NULL;
  va_list ap;
  va_start(ap, fmt);
  PyObject *args = Py_VaBuildValue(fmt, ap);
  va_end(ap);
  PyObject *r = args ? PyObject_CallObject(f, args) : NULL;
  Py_XDECREF(args);
  Py_DECREF(f);
  return r;
}

static void handle_exec(const py_msg *m) {
  uint32_t id = m->id;
  uint64_t flags = py_msg_u64(m, PY_T_FLAGS, 0);
  uint64_t mem = py_msg_u64(m, PY_T_MEM, 0), cpu = py_msg_u64(m, PY_T_CPU, 0);
  /* Copy everything out of the frame first: running the code may read more
   * frames (tool replies), which reuses the reader's buffer. */
  PyObject *ctx = field_str(m, PY_T_CTX, "default");
  PyObject *code = field_str(m, PY_T_CODE, "");
  PyObject *fname = field_str(m, PY_T_FILENAME, "");
  PyObject *cwd = field_str(m, PY_T_CWD, "");
  PyObject *argv = field_list(m, PY_T_ARG);
  PyObject *preload = field_list(m, PY_T_PRELOAD);
  PyObject *env = flags & PY_EXEC_ENV ? field_list(m, PY_T_ENV) : (Py_INCREF(Py_None), Py_None);
  if (!ctx || !code || !fname || !cwd || !argv || !preload || !env) {
    PyErr_Clear();
    send_internal_error(id, "internal", "cannot decode the request");
  } else {
    uint32_t outer = atomic_load(&W.running);
    apply_call_limits(mem, cpu);
    atomic_store(&W.running, id);
    PyObject *r = call_boot("run", "(OOOKOOOO)", ctx, code, fname, (unsigned long long)flags, argv,
                            preload, cwd, env);
    if (forked()) forked_exit(r);
    atomic_store(&W.running, outer);
    apply_call_limits(0, 0);
    send_result(id, r);
    Py_XDECREF(r);
  }
  Py_XDECREF(ctx);
  Py_XDECREF(code);
  Py_XDECREF(fname);
  Py_XDECREF(cwd);
  Py_XDECREF(argv);
  Py_XDECREF(preload);
  Py_XDECREF(env);
}

static void handle_ctx(const py_msg *m) {
  PyObject *ctx = field_str(m, PY_T_CTX, "default"), *r = NULL;
  if (!ctx) {
    PyErr_Clear();
    send_internal_error(m->id, "internal", "cannot decode the request");
    return;
  }
  switch (m->type) {
    case PY_MSG_CTX_CREATE: r = call_boot("ctx_create", "(O)", ctx); break;
    case PY_MSG_CTX_RESET: r = call_boot("ctx_reset", "(O)", ctx); break;
    case PY_MSG_CTX_DELETE: r = call_boot("ctx_delete", "(O)", ctx); break;
    case PY_MSG_CTX_FORK: {
      PyObject *src = field_str(m, PY_T_SRC, "");
      if (src) r = call_boot("ctx_fork", "(OO)", ctx, src);
      Py_XDECREF(src);
      break;
    }
    case PY_MSG_SET_VAR: {
      PyObject *name = field_str(m, PY_T_NAME, ""), *json = field_str(m, PY_T_JSON, "null");
      if (name && json) r = call_boot("set_var", "(OOO)", ctx, name, json);
      Py_XDECREF(name);
      Py_XDECREF(json);
      break;
    }
    case PY_MSG_PROTECT: {
      PyObject *name = field_str(m, PY_T_NAME, "");
      if (name) r = call_boot("protect", "(OO)", ctx, name);
      Py_XDECREF(name);
      break;
    }
    default: break;
  }
  Py_DECREF(ctx);
  send_result(m->id, r);
  Py_XDECREF(r);
}

/* Serves one request. Replies that nobody waits for are dropped. */
static void dispatch(const py_msg *m) {
  switch (m->type) {
    case PY_MSG_EXEC: handle_exec(m); break;
    case PY_MSG_CTX_CREATE:
    case PY_MSG_CTX_FORK:
    case PY_MSG_CTX_RESET:
    case PY_MSG_CTX_DELETE:
    case PY_MSG_SET_VAR:
    case PY_MSG_PROTECT: handle_ctx(m); break;
    case PY_MSG_PING:
      out_begin(PY_MSG_RESULT, m->id);
      py_msg_add_u64(&W.out, PY_T_STATUS, 0);
      py_msg_end(&W.out);
      send_out();
      break;
    default: break;
  }
}

/* Waits for the reply `type` with `id`, serving nested requests meanwhile.
 * On return *m is the reply (valid until the next read). */
static int wait_for(uint8_t type, uint32_t id, py_msg *m) {
  for (;;) {
    read_frame(m, 1);
    if (m->type == type && m->id == id) return 0;
    if (m->type == PY_MSG_TOOL_REPLY || m->type == PY_MSG_STDIN_DATA) continue; /* stale */
    if (W.depth >= PYW_MAX_DEPTH) {
      send_internal_error(m->id, "internal", "too many nested calls into the sandbox");
      continue;
    }
    W.depth++;
    dispatch(m);
    W.depth--;
  }
}

/* The main loop's next request: read under the channel lock (a thread may
 * be in a tool call), then copied out of the shared reader so the lock can
 * go before the request runs (its code may call tools from threads). */
static void next_request(py_msg *m) {
  for (;;) {
    chan_enter();
    const uint8_t *body;
    size_t len;
    int r = py_reader_frame(&W.rd, &body, &len);
    if (r < 0) die("protocol error from the host");
    if (r == 0) {
      ssize_t n;
      if (forked()) _exit(0);
      Py_BEGIN_ALLOW_THREADS
      n = py_reader_fill(&W.rd, JAIL_WFD_CTL);
      Py_END_ALLOW_THREADS
      chan_leave();
      if (n == 0) _exit(0); /* host closed: normal end */
      if (n < 0) _exit(1);
      continue;
    }
    if (len > W.req_cap) {
      uint8_t *nb = realloc(W.req_copy, len);
      if (!nb) die("out of memory");
      W.req_copy = nb;
      W.req_cap = len;
    }
    memcpy(W.req_copy, body, len);
    chan_leave();
    if (py_msg_decode(W.req_copy, len, 0, m) != 0) die("undecodable message from the host");
    /* A reply here has no caller left (its call was interrupted): dropped. */
    if (m->type == PY_MSG_TOOL_REPLY || m->type == PY_MSG_STDIN_DATA) continue;
    return;
  }
}

/* ---- the _sbxw module --------------------------------------------------------------- */

static py_msg *g_reply; /* scratch for replies (large; not on the stack) */

/* Host calls need the channel, which a forked child does not have. */
static int refuse_in_child(void) {
  if (!forked()) return 0;
  PyErr_SetString(PyExc_RuntimeError, "the host is not reachable from a forked process");
  return 1;
}

/* Returns (status, body, kind) from a TOOL_REPLY. */
static PyObject *reply_tuple(const py_msg *m) {
  uint64_t st = py_msg_u64(m, PY_T_STATUS, 1);
  PyObject *body = field_str(m, st == 0 ? PY_T_JSON : PY_T_MESSAGE, st == 0 ? "null" : "");
  PyObject *kind = field_str(m, PY_T_ERRKIND, st == 0 ? "" : "internal_error");
  PyObject *r = body && kind ? Py_BuildValue("(iOO)", st == 0 ? 0 : 1, body, kind) : NULL;
  Py_XDECREF(body);
  Py_XDECREF(kind);
  return r;
}

/* Ends a TOOL_CALL or TOOL_SEARCH request begun in W.out (the channel
 * entered), sends it and waits for its TOOL_REPLY: the reply's tuple, or
 * NULL with ValueError(too_large) when the request does not fit a frame. */
static PyObject *tool_request_finish(uint32_t id, const char *too_large) {
  if (py_msg_end(&W.out) != 0) {
    out_abort();
    chan_leave();
    PyErr_SetString(PyExc_ValueError, too_large);
    return NULL;
  }
  send_out();
  wait_for(PY_MSG_TOOL_REPLY, id, g_reply);
  PyObject *r = reply_tuple(g_reply);
  chan_leave();
  return r;
}

static PyObject *w_tool_call(PyObject *self, PyObject *args) {
  const char *name, *json;
  Py_ssize_t nl, jl;
  if (!PyArg_ParseTuple(args, "s#s#", &name, &nl, &json, &jl)) return NULL;
  if (refuse_in_child()) return NULL;
  chan_enter();
  uint32_t id = ++W.next_call_id;
  out_begin(PY_MSG_TOOL_CALL, id);
  py_msg_add(&W.out, PY_T_NAME, name, (size_t)nl);
  py_msg_add(&W.out, PY_T_JSON, json, (size_t)jl);
  return tool_request_finish(id, "tool call too large (name <= 255 bytes, payload <= 16 MiB)");
}

static PyObject *w_tool_search(PyObject *self, PyObject *args) {
  const char *q, *detail;
  int limit;
  if (!PyArg_ParseTuple(args, "ssi", &q, &detail, &limit)) return NULL;
  if (refuse_in_child()) return NULL;
  chan_enter();
  uint32_t id = ++W.next_call_id;
  out_begin(PY_MSG_TOOL_SEARCH, id);
  py_msg_add_str(&W.out, PY_T_QUERY, q);
  py_msg_add_str(&W.out, PY_T_DETAIL, detail);
  py_msg_add_u64(&W.out, PY_T_LIMIT, limit < 0 ? 0 : (uint64_t)limit);
  return tool_request_finish(id, "search query too large");
}

static PyObject *w_stdin_read(PyObject *self, PyObject *args) {
  Py_ssize_t n;
  if (!PyArg_ParseTuple(args, "n", &n)) return NULL;
  if (n <= 0) return PyBytes_FromStringAndSize("", 0);
  if (n > (1 << 20)) n = 1 << 20;
  if (refuse_in_child()) return NULL;
  chan_enter();
  uint32_t id = ++W.next_call_id;
  out_begin(PY_MSG_STDIN_READ, id);
  py_msg_add_u64(&W.out, PY_T_MAX, (uint64_t)n);
  py_msg_end(&W.out);
  send_out();
  wait_for(PY_MSG_STDIN_DATA, id, g_reply);
  const py_field *f = py_msg_get(g_reply, PY_T_DATA);
  size_t len = f ? f->len : 0;
  if (len > (size_t)n) len = (size_t)n; /* never more than asked */
  PyObject *r = PyBytes_FromStringAndSize(f ? (const char *)f->data : "", (Py_ssize_t)len);
  chan_leave();
  return r;
}

/* ---- start-up ---------------------------------------------------------------------- */

static void *interrupt_watcher(void *arg) {
  (void)arg;
  for (;;) {
    uint32_t id;
    ssize_t n = read(JAIL_WFD_INTR, &id, sizeof id);
    if (n < 0 && errno == EINTR) continue;
    if (n != (ssize_t)sizeof id) return NULL;
    if (id != 0 && id == atomic_load(&W.running)) pthread_kill(W.main_thread, SIGINT);
  }
}

/* _sbxw.main(): called once by the interpreter's -c command (SBXW_LOADER) in
 * the main thread; serves requests until the host closes the channel, then
 * exits the process. Never returns normally. */
static PyObject *w_main(PyObject *self, PyObject *unused) {
  static int started;
  if (started) {
    PyErr_SetString(PyExc_RuntimeError, "_sbxw.main() runs once");
    return NULL;
  }
  started = 1;
  /* The shared object is mapped: its memfd is not needed any more and must
   * not reach user code. */
  close(SBXW_EXT_FD);
  /* The interpreter runs: the channel need not survive exec any more, and
   * programs that user code starts (os.system) must not inherit it. */
  fcntl(JAIL_WFD_CTL, F_SETFD, FD_CLOEXEC);
  fcntl(JAIL_WFD_INTR, F_SETFD, FD_CLOEXEC);
  W.pid = getpid();
  if (pthread_atfork(NULL, NULL, fork_child) != 0) die("pthread_atfork");
  /* exec made the process dumpable again; J1's uid change had cleared it.
   * Keep W as the embedding worker was: its /proc files not open to other
   * processes of the sandbox user (those run user code too). */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  W.main_thread = pthread_self();
  g_reply = malloc(sizeof *g_reply);
  py_msg *m = malloc(sizeof *m);
  if (!g_reply || !m) die("out of memory");
  /* sys.argv as an embedded interpreter has it (calls that run a script set
   * their own), not the loader's ['-c']. */
  PyObject *argv = Py_BuildValue("[s]", "");
  if (!argv || PySys_SetObject("argv", argv) != 0) die("cannot set sys.argv");
  Py_DECREF(argv);
  /* bootstrap.py imports _sbxw by name: the loader did not register us. */
  if (PyDict_SetItemString(PyImport_GetModuleDict(), "_sbxw", self) != 0) {
    PyErr_Print();
    die("cannot register _sbxw");
  }
  PyObject *code = Py_CompileString(pyw_bootstrap_src, "<sbx-worker>", Py_file_input);
  if (!code) {
    PyErr_Print();
    die("bootstrap does not compile");
  }
  W.boot = PyImport_ExecCodeModuleEx("_sbx", code, "<sbx-worker>");
  Py_DECREF(code);
  if (!W.boot) {
    PyErr_Print();
    die("bootstrap failed");
  }
  pthread_t t;
  sigset_t block, old;
  /* The watcher never takes SIGINT itself. */
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  if (pthread_create(&t, NULL, interrupt_watcher, NULL) != 0) die("cannot start the interrupt thread");
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_detach(t);
  out_begin(PY_MSG_HELLO, 0);
  py_msg_add_u64(&W.out, PY_T_VERSION, PY_PROTO_VERSION);
  py_msg_end(&W.out);
  send_out();
  for (;;) {
    next_request(m);
    dispatch(m);
  }
}

static PyMethodDef w_methods[] = {
    {"main", w_main, METH_NOARGS, "main() -> never returns: serve the host"},
    {"tool_call", w_tool_call, METH_VARARGS, "tool_call(name, json) -> (status, body, kind)"},
    {"tool_search", w_tool_search, METH_VARARGS, "tool_search(q, detail, limit) -> (status, body, kind)"},
    {"stdin_read", w_stdin_read, METH_VARARGS, "stdin_read(n) -> bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef w_module = {PyModuleDef_HEAD_INIT, "_sbxw", "sbx worker internals", -1,
                                      w_methods, NULL, NULL, NULL, NULL};

/* The only exported symbol (the link hides everything else). */
PyMODINIT_FUNC PyInit__sbxw(void) { return PyModule_Create(&w_module); }
