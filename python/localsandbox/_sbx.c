/*
 * _sbx.c - localsandbox._sbx, the CPython extension over include/sbx.h.
 *
 * One type, `Sandbox`, owns one `sbx *` handle; its methods map one to one
 * onto the sbx_* calls (open, snapshot, files, kv, history, forks,
 * transactions, quotas) and return plain Python values (bytes, str, tuples,
 * lists). The published API (LocalSandbox, the error tree, toolsets) is the
 * thin Python layer in core.py above this module; nothing here knows it.
 *
 * Key decisions:
 *  - The GIL is released around every sbx_* call, so calls on different
 *    sandboxes run in parallel from threads or asyncio.to_thread. sbx.h lets
 *    one handle be used by one thread at a time, so each Sandbox has its own
 *    mutex, taken only after the GIL is released (taking it with the GIL held
 *    would deadlock against a thread that holds the mutex and waits for the
 *    GIL to return). A call from the thread that already holds the mutex, or
 *    from a bash output callback (the library holds its handle lock then), is
 *    refused with RuntimeError instead of deadlocking; a host tool handler
 *    may call back into its sandbox (the library allows it while the Python
 *    call waits), so those nested calls skip the mutex (see "Callbacks").
 *  - sbx_errmsg() is valid only until the next call on the handle, so the
 *    message, errno and path of a failure are copied out while the mutex is
 *    still held, and the exception is built after the GIL is back.
 *  - Failures raise localsandbox._sbx.Error with the attributes rc (extended
 *    code), code (primary SBX_* code), errno, path and message; the Python
 *    layer picks the published exception class from those, never from text.
 *    A closed handle raises RuntimeError ("... has been destroyed").
 *  - Sandbox paths are str (encoded with the filesystem encoding and
 *    surrogateescape, so non-UTF-8 names round-trip) or bytes; names coming
 *    back are decoded the same way. kv keys, JSON text and history names are
 *    UTF-8 str.
 *  - The shell (sbx_bash) and Python (sbx_python_*) sections of sbx.h are
 *    bound in _sbx_exec.h.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

#include "sbx.h"

/* Room for the longest sbx_errmsg(): "OP PATH -> PATH: REASON". */
#define ERRMSG_MAX (2 * 4096 + 512)
#define ERRPATH_MAX 4096

static PyObject *sbx_error_type;       /* localsandbox._sbx.Error */
static PyTypeObject *stat_result_type; /* localsandbox._sbx.StatResult */

/* ---- the Sandbox object ------------------------------------------------------ */

typedef struct {
  PyObject_HEAD sbx *h;        /* the handle; NULL once closed (or never opened) */
  pthread_mutex_t lock;        /* serializes the calls on h (taken without the GIL) */
  pthread_t owner;             /* the thread inside a call, valid when `busy` */
  int busy;                    /* 1 while a thread holds `lock` (atomic access) */
  pthread_mutex_t cancel_lock; /* keeps h alive for cancel(), which must not
                                  wait for `lock`; close takes both */
  PyObject *weakreflist;       /* for weakref.ref(sandbox) */
  sbx_job **jobs;              /* the handles of start() (freed by sbx_close; this array
                                  with the handle), looked up by pid under `lock` */
  size_t njobs, capjobs;
  /* The sandbox's own toolset (set_tools): registered on h from set_tools
   * until replaced, and again after each python_exec with a toolset of its
   * own, so every later call and the shell's `tool` command reach it. */
  PyObject *toolset;           /* (tools list, dispatch) keeping the strings alive, or NULL */
  sbx_tool_def *toolset_defs;  /* views into toolset's tuples (PyMem), or NULL */
  size_t toolset_n;            /* entries in toolset_defs */
  void *toolset_ctx;           /* the trampoline's tool_ctx (PyMem), or NULL */
  struct bash_runner *runner;  /* abash's thread (bash_submit), or NULL until first used */
} SandboxObject;

static void runner_stop(SandboxObject *self);
static void runner_free(SandboxObject *self);

/* Forgets the toolset's Python side (the handle's registration is gone with
 * sbx_tools_clear or sbx_close). Needs the GIL. */
static void toolset_release(SandboxObject *self) {
  Py_CLEAR(self->toolset);
  PyMem_Free(self->toolset_defs);
  PyMem_Free(self->toolset_ctx);
  self->toolset_defs = NULL;
  self->toolset_ctx = NULL;
  self->toolset_n = 0;
}

/* A failure copied out of the handle while the lock was held. */
typedef struct call_err {
  int rc;                 /* extended result code (SBX_OK: no failure) */
  int err;                /* sbx_errno() */
  char path[ERRPATH_MAX]; /* sbx_errpath() */
  char msg[ERRMSG_MAX];   /* sbx_errmsg() */
} call_err;

static void capture_error(sbx *h, int rc, call_err *e) {
  e->rc = rc;
  e->err = sbx_errno(h);
  snprintf(e->path, sizeof e->path, "%s", sbx_errpath(h));
  snprintf(e->msg, sizeof e->msg, "%s", sbx_errmsg(h));
}

/* Raises Error(message) with rc, code, errno, path, message attributes.
 * `msg` and `path` may be NULL. Always returns NULL. */
static PyObject *raise_error(int rc, int err, const char *path, const char *msg) {
  if (!msg || !*msg) msg = "sbx call failed";
  PyObject *m = PyUnicode_DecodeUTF8(msg, strlen(msg), "replace");
  PyObject *p =
      path && *path ? PyUnicode_DecodeFSDefault(path) : (Py_INCREF(Py_None), Py_None);
  PyObject *exc = m ? PyObject_CallOneArg(sbx_error_type, m) : NULL;
  if (exc && p) {
    PyObject *vrc = PyLong_FromLong(rc), *vcode = PyLong_FromLong(sbx_errcode(rc));
    PyObject *verr = PyLong_FromLong(err);
    if (vrc && vcode && verr && PyObject_SetAttrString(exc, "rc", vrc) == 0 &&
        PyObject_SetAttrString(exc, "code", vcode) == 0 &&
        PyObject_SetAttrString(exc, "errno", verr) == 0 &&
        PyObject_SetAttrString(exc, "path", p) == 0 &&
        PyObject_SetAttrString(exc, "message", m) == 0)
      PyErr_SetObject(sbx_error_type, exc);
    Py_XDECREF(vrc);
    Py_XDECREF(vcode);
    Py_XDECREF(verr);
  }
  Py_XDECREF(exc);
  Py_XDECREF(m);
  Py_XDECREF(p);
  return NULL;
}

static PyObject *raise_call_err(const call_err *e) {
  return raise_error(e->rc, e->err, e->path, e->msg);
}

/*
 * Callbacks. While a Python callback of a call on sandbox S runs (a bash
 * output receiver, a host tool), its thread records S here, and whether the
 * library allows that callback to call back into S:
 *   - bash output receivers run while the library holds S's handle lock: a
 *     call back into S would deadlock, so it is refused (RuntimeError);
 *   - host tools run while S's Python call waits and the library supports
 *     nested calls on S from them: such a call goes ahead without taking our
 *     lock, which the waiting outer call holds.
 * Thread-local, so concurrent callbacks on other threads are unaffected.
 */
static _Thread_local SandboxObject *tls_cb_sandbox; /* S, or NULL */
static _Thread_local int tls_cb_nested_ok;          /* 1: nested calls allowed */

/* Sets the callback state of this thread; returns the previous one. */
typedef struct cb_state {
  SandboxObject *sandbox; /* tls_cb_sandbox */
  int nested_ok;          /* tls_cb_nested_ok */
} cb_state;

static inline cb_state cb_begin(SandboxObject *s, int nested_ok) {
  cb_state prev = {tls_cb_sandbox, tls_cb_nested_ok};
  tls_cb_sandbox = s;
  tls_cb_nested_ok = nested_ok;
  return prev;
}

static inline void cb_end(cb_state prev) {
  tls_cb_sandbox = prev.sandbox;
  tls_cb_nested_ok = prev.nested_ok;
}

/* A nested call from a tool callback of this very sandbox (no locking). */
static int is_nested(SandboxObject *s) {
  return tls_cb_sandbox == s && tls_cb_nested_ok;
}

/* Whether the current thread must not enter a call on `s`: it is the thread
 * already inside one, or it runs a callback of `s` that may not nest. */
static int is_reentry(SandboxObject *s) {
  if (tls_cb_sandbox == s) return !tls_cb_nested_ok;
  return __atomic_load_n(&s->busy, __ATOMIC_ACQUIRE) &&
         pthread_equal(s->owner, pthread_self());
}

/*
 * enter/leave bracket every call on the handle:
 *   enter: (GIL held) refuse re-entry; release the GIL; take the mutex
 *          (not for a nested call, see above); check the handle is open.
 *          -> 0, or -1 with an exception set
 *   leave: release the mutex; take the GIL back.
 * Between them the caller runs sbx_* calls and must not touch Python objects.
 */
static int enter(SandboxObject *s, PyThreadState **ts) {
  if (is_reentry(s)) {
    PyErr_SetString(PyExc_RuntimeError,
                    "the sandbox is already in a call on this thread (an output callback "
                    "cannot call back into its own sandbox)");
    return -1;
  }
  int nested = is_nested(s);
  *ts = PyEval_SaveThread();
  if (!nested) pthread_mutex_lock(&s->lock);
  if (!s->h) {
    if (!nested) pthread_mutex_unlock(&s->lock);
    PyEval_RestoreThread(*ts);
    PyErr_SetString(PyExc_RuntimeError, "LocalSandbox instance has been destroyed");
    return -1;
  }
  if (!nested) {
    s->owner = pthread_self();
    __atomic_store_n(&s->busy, 1, __ATOMIC_RELEASE);
  }
  return 0;
}

static void leave(SandboxObject *s, PyThreadState *ts) {
  if (!is_nested(s)) {
    __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&s->lock);
  }
  PyEval_RestoreThread(ts);
}

/* The common shape "one sbx call returning an int": runs `expr` between
 * enter and leave, captures a failure, leaves `rc_`, then runs `cleanup`
 * (also when enter fails, before returning NULL). */
#define SBX_CALL_THEN(self, rc_, err_, expr, cleanup)             \
  do {                                                            \
    PyThreadState *ts_;                                           \
    if (enter((self), &ts_) < 0) {                                \
      cleanup;                                                    \
      return NULL;                                                \
    }                                                             \
    (rc_) = (expr);                                               \
    if ((rc_) != SBX_OK) capture_error((self)->h, (rc_), (err_)); \
    leave((self), ts_);                                           \
    cleanup;                                                      \
  } while (0)

#define SBX_CALL(self, rc_, err_, expr) SBX_CALL_THEN(self, rc_, err_, expr, (void)0)

/* The whole end of a method that returns nothing: `expr` and `cleanup` as in
 * SBX_CALL_THEN, then None or the failure raised. */
#define SBX_RETURN_CALL_THEN(self, expr, cleanup)  \
  do {                                             \
    call_err e_;                                   \
    int rc_;                                       \
    SBX_CALL_THEN(self, rc_, &e_, expr, cleanup);  \
    return none_or_raise(rc_, &e_);                \
  } while (0)

#define SBX_RETURN_CALL(self, expr) SBX_RETURN_CALL_THEN(self, expr, (void)0)

/* A new, unopened Sandbox object (h NULL). */
static SandboxObject *sandbox_alloc(PyTypeObject *type) {
  SandboxObject *s = (SandboxObject *)type->tp_alloc(type, 0);
  if (!s) return NULL;
  pthread_mutex_init(&s->lock, NULL);
  pthread_mutex_init(&s->cancel_lock, NULL);
  s->h = NULL;
  s->busy = 0;
  s->weakreflist = NULL;
  s->runner = NULL;
  return s;
}

static PyObject *sandbox_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  return (PyObject *)sandbox_alloc(type);
}

/* Sandbox(path=None, flags=0): opens a sandbox (sbx_open). */
static int sandbox_init(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "flags", NULL};
  PyObject *path_obj = Py_None;
  int flags = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|Oi:Sandbox", kwlist, &path_obj, &flags))
    return -1;
  if (self->h) {
    PyErr_SetString(PyExc_RuntimeError, "Sandbox.__init__ called twice");
    return -1;
  }
  PyObject *path_bytes = NULL;
  if (path_obj != Py_None && !PyUnicode_FSConverter(path_obj, &path_bytes)) return -1;
  const char *path = path_bytes ? PyBytes_AS_STRING(path_bytes) : NULL;
  sbx *h = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sbx_open(path, flags, &h);
  Py_END_ALLOW_THREADS Py_XDECREF(path_bytes);
  if (rc != SBX_OK) {
    raise_error(rc, h ? sbx_errno(h) : 0, h ? sbx_errpath(h) : NULL,
                h ? sbx_errmsg(h) : "open: out of memory");
    Py_BEGIN_ALLOW_THREADS sbx_close(h);
    Py_END_ALLOW_THREADS return -1;
  }
  self->h = h;
  return 0;
}

static void close_handle(SandboxObject *self) {
  sbx *h;
  Py_BEGIN_ALLOW_THREADS runner_stop(self); /* before the lock: its call ends first */
  pthread_mutex_lock(&self->lock);
  pthread_mutex_lock(&self->cancel_lock);
  h = self->h;
  self->h = NULL;
  pthread_mutex_unlock(&self->cancel_lock);
  sbx_close(h); /* ends the jobs and frees their handles */
  free(self->jobs);
  self->jobs = NULL;
  self->njobs = self->capjobs = 0;
  pthread_mutex_unlock(&self->lock);
  Py_END_ALLOW_THREADS
}

static void sandbox_dealloc(SandboxObject *self) {
  if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
  if (self->h) close_handle(self);
  runner_free(self);
  toolset_release(self);
  pthread_mutex_destroy(&self->lock);
  pthread_mutex_destroy(&self->cancel_lock);
  PyTypeObject *tp = Py_TYPE(self);
  tp->tp_free((PyObject *)self);
}

/* ---- argument helpers ------------------------------------------------------- */

/* "O&" converter: a sandbox path (str or bytes, no NUL) to a bytes object. */
static int conv_path(PyObject *o, void *out) {
  if (o == NULL) { /* cleanup call */
    return 0;
  }
  if (!PyUnicode_Check(o) && !PyBytes_Check(o)) {
    PyErr_Format(PyExc_TypeError, "path must be str or bytes, not %.100s",
                 Py_TYPE(o)->tp_name);
    return 0;
  }
  return PyUnicode_FSConverter(o, out);
}

/* "O&" converter: an optional UTF-8 text argument (str or None) to a
 * borrowed const char * (valid while the str lives). */
static int conv_opt_text(PyObject *o, void *out) {
  const char **p = out;
  if (o == Py_None) {
    *p = NULL;
    return 1;
  }
  if (!PyUnicode_Check(o)) {
    PyErr_Format(PyExc_TypeError, "expected str or None, not %.100s",
                 Py_TYPE(o)->tp_name);
    return 0;
  }
  Py_ssize_t n;
  const char *s = PyUnicode_AsUTF8AndSize(o, &n);
  if (!s) return 0;
  if ((size_t)n != strlen(s)) {
    PyErr_SetString(PyExc_ValueError, "embedded NUL character");
    return 0;
  }
  *p = s;
  return 1;
}

/* Same as conv_opt_text but None is refused. */
static int conv_text(PyObject *o, void *out) {
  if (o == Py_None) {
    PyErr_SetString(PyExc_TypeError, "expected str, not None");
    return 0;
  }
  return conv_opt_text(o, out);
}

/* "O&" converter: a non-negative int to uint64_t (OverflowError when
 * negative or too large, TypeError when not an int). */
static int conv_u64(PyObject *o, void *out) {
  if (!PyLong_Check(o) || PyBool_Check(o)) {
    PyErr_Format(PyExc_TypeError, "expected int, not %.100s", Py_TYPE(o)->tp_name);
    return 0;
  }
  unsigned long long v = PyLong_AsUnsignedLongLong(o);
  if (v == (unsigned long long)-1 && PyErr_Occurred()) return 0;
  *(uint64_t *)out = v;
  return 1;
}

#define PATH(b) PyBytes_AS_STRING(b)

/* ---- result helpers ------------------------------------------------------------ */

/* The end of a call that returns nothing: None, or the captured failure raised. */
static PyObject *none_or_raise(int rc, const call_err *e) {
  if (rc != SBX_OK) return raise_call_err(e);
  Py_RETURN_NONE;
}

/* bytes from a buffer the library allocated; frees `data` (may be NULL when
 * len is 0). */
static PyObject *bytes_take(void *data, size_t len) {
  PyObject *r = PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
  sbx_free(data);
  return r;
}

/* A new list of `n` items, item i made by `make(items, i)` (a new reference or
 * NULL with an exception set, which drops the list). `items` is borrowed. */
static PyObject *list_of(const void *items, size_t n,
                         PyObject *(*make)(const void *items, size_t i)) {
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *item = make(items, i);
    if (!item) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, item);
  }
  return list;
}

/* The end of a call that returns an array the library allocated: the list of
 * `make(items, i)`, or the failure raised. Frees `items` either way. */
static PyObject *list_or_raise(int rc, const call_err *e, void *items, size_t n,
                               PyObject *(*make)(const void *items, size_t i)) {
  PyObject *list = rc == SBX_OK ? list_of(items, n, make) : raise_call_err(e);
  sbx_free(items);
  return list;
}

/* A method with no arguments over `fn(h)`: None, or the failure raised. */
static PyObject *call_handle(SandboxObject *self, int (*fn)(sbx *h)) {
  SBX_RETURN_CALL(self, fn(self->h));
}

/* A method with two path arguments (`format` names them for errors) over
 * `fn(h, a, b)`: None, or the failure raised. */
static PyObject *call_two_paths(SandboxObject *self, PyObject *args, const char *format,
                                int (*fn)(sbx *h, const char *a, const char *b)) {
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, format, conv_path, &a, conv_path, &b)) return NULL;
  SBX_RETURN_CALL_THEN(self, fn(self->h, PATH(a), PATH(b)), {
    Py_DECREF(a);
    Py_DECREF(b);
  });
}

/* A method with a path and one boolean (`format` and `kwlist` name them) over
 * `fn(h, path, flag)`: None, or the failure raised. */
static PyObject *call_path_flag(SandboxObject *self, PyObject *args, PyObject *kw,
                                const char *format, char **kwlist,
                                int (*fn)(sbx *h, const char *path, int flag)) {
  PyObject *path;
  int flag = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, format, kwlist, conv_path, &path, &flag))
    return NULL;
  SBX_RETURN_CALL_THEN(self, fn(self->h, PATH(path), flag), { Py_DECREF(path); });
}

/* ---- open, close, properties ------------------------------------------------ */

static PyObject *sandbox_from_snapshot(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"data", "flags", NULL};
  Py_buffer buf;
  int flags = SBX_OPEN_MEMORY;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|i:from_snapshot", kwlist, &buf, &flags))
    return NULL;
  SandboxObject *s = sandbox_alloc(type);
  if (!s) {
    PyBuffer_Release(&buf);
    return NULL;
  }
  sbx *h = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sbx_open_snapshot(buf.buf, (size_t)buf.len, flags, &h);
  Py_END_ALLOW_THREADS PyBuffer_Release(&buf);
  if (rc != SBX_OK) {
    raise_error(rc, h ? sbx_errno(h) : 0, NULL,
                h ? sbx_errmsg(h) : "open snapshot: out of memory");
    sbx_close(h);
    Py_DECREF(s);
    return NULL;
  }
  s->h = h;
  return (PyObject *)s;
}

static PyObject *sandbox_close(SandboxObject *self, PyObject *unused) {
  if (tls_cb_sandbox == self || is_reentry(self)) {
    PyErr_SetString(PyExc_RuntimeError,
                    "cannot close a sandbox from inside one of its calls");
    return NULL;
  }
  close_handle(self);
  toolset_release(self);
  Py_RETURN_NONE;
}

static PyObject *sandbox_get_closed(SandboxObject *self, void *c) {
  return PyBool_FromLong(self->h == NULL);
}

static PyObject *sandbox_get_path(SandboxObject *self, void *c) {
  PyThreadState *ts;
  if (enter(self, &ts) < 0) return NULL;
  const char *p = sbx_path(self->h);
  size_t n = strlen(p);
  char *copy = malloc(n + 1);
  if (copy) memcpy(copy, p, n + 1);
  leave(self, ts);
  if (!copy) return PyErr_NoMemory();
  PyObject *r = PyUnicode_DecodeFSDefaultAndSize(copy, (Py_ssize_t)n);
  free(copy);
  return r;
}

/* ---- transactions and quotas ------------------------------------------------ */

static PyObject *sandbox_begin(SandboxObject *self, PyObject *unused) {
  return call_handle(self, sbx_begin);
}

static PyObject *sandbox_commit(SandboxObject *self, PyObject *unused) {
  return call_handle(self, sbx_commit);
}

static PyObject *sandbox_rollback(SandboxObject *self, PyObject *unused) {
  return call_handle(self, sbx_rollback);
}

/* set_quota: the fields given replace the quotas in force; the others keep
 * theirs (a sandbox starts with the defaults, docs/limits.md). 0 lifts one. */
static PyObject *sandbox_set_quota(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"max_bytes", "max_inodes", "max_file_size", NULL};
  PyObject *given[3] = {NULL, NULL, NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO:set_quota", kwlist, &given[0], &given[1],
                                   &given[2]))
    return NULL;
  sbx_quota q;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_get_quota(self->h, &q));
  if (rc != SBX_OK) return none_or_raise(rc, &e);
  uint64_t *field[3] = {&q.max_bytes, &q.max_inodes, &q.max_file_size};
  for (int k = 0; k < 3; k++)
    if (given[k] && !conv_u64(given[k], field[k])) return NULL;
  SBX_CALL(self, rc, &e, sbx_set_quota(self->h, &q));
  return none_or_raise(rc, &e);
}

static PyObject *sandbox_get_quota(SandboxObject *self, PyObject *unused) {
  sbx_quota q;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_get_quota(self->h, &q));
  if (rc != SBX_OK) return none_or_raise(rc, &e);
  return Py_BuildValue("{s:K,s:K,s:K}", "max_bytes", (unsigned long long)q.max_bytes,
                       "max_inodes", (unsigned long long)q.max_inodes, "max_file_size",
                       (unsigned long long)q.max_file_size);
}

/* set_programs(names): the host programs the shell may run in the jail
 * (a list of names or absolute paths; None: all of the runtime). */
static PyObject *sandbox_set_programs(SandboxObject *self, PyObject *arg) {
  if (arg == Py_None) SBX_RETURN_CALL(self, sbx_set_programs(self->h, NULL));
  PyObject *seq = PySequence_Fast(arg, "programs must be a list of str or None");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
  if (!names) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    Py_ssize_t len;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len) : NULL;
    if (!s || (Py_ssize_t)strlen(s) != len) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "programs must be a list of str without NUL");
      PyMem_Free(names);
      Py_DECREF(seq);
      return NULL;
    }
    names[i] = s;
  }
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_set_programs(self->h, names));
  PyMem_Free(names);
  Py_DECREF(seq);
  return none_or_raise(rc, &e);
}

/* ---- files ------------------------------------------------------------------- */

static PyObject *sandbox_read_file(SandboxObject *self, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&:read_file", conv_path, &path)) return NULL;
  void *data = NULL;
  size_t len = 0;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e, sbx_read_file(self->h, PATH(path), &data, &len),
                { Py_DECREF(path); });
  if (rc != SBX_OK) return raise_call_err(&e);
  return bytes_take(data, len);
}

static PyObject *sandbox_write_file(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "data", "flags", NULL};
  PyObject *path;
  Py_buffer buf;
  int flags = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&y*|i:write_file", kwlist, conv_path,
                                   &path, &buf, &flags))
    return NULL;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e,
                sbx_write_file(self->h, PATH(path), buf.buf, (size_t)buf.len, flags), {
                  Py_DECREF(path);
                  PyBuffer_Release(&buf);
                });
  return none_or_raise(rc, &e);
}

/* write_files([(path, data), ...], flags=0): one transaction. */
static PyObject *sandbox_write_files(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"files", "flags", NULL};
  PyObject *seq_in;
  int flags = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|i:write_files", kwlist, &seq_in, &flags))
    return NULL;
  PyObject *seq =
      PySequence_Fast(seq_in, "write_files: files must be a sequence of (path, data)");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  sbx_file *files = PyMem_Calloc(n ? (size_t)n : 1, sizeof *files);
  PyObject **paths = PyMem_Calloc(n ? (size_t)n : 1, sizeof *paths);
  Py_buffer *bufs = PyMem_Calloc(n ? (size_t)n : 1, sizeof *bufs);
  Py_ssize_t got = 0;
  PyObject *result = NULL;
  if (!files || !paths || !bufs) {
    PyErr_NoMemory();
    goto out;
  }
  for (; got < n; got++) {
    PyObject *item = PySequence_Fast_GET_ITEM(seq, got);
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
      PyErr_SetString(PyExc_TypeError,
                      "write_files: each item must be a (path, data) tuple");
      goto out;
    }
    if (!conv_path(PyTuple_GET_ITEM(item, 0), &paths[got])) goto out;
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(item, 1), &bufs[got], PyBUF_SIMPLE) < 0) {
      Py_CLEAR(paths[got]);
      goto out;
    }
    files[got].path = PATH(paths[got]);
    files[got].data = bufs[got].buf;
    files[got].len = (size_t)bufs[got].len;
  }
  {
    call_err e;
    int rc;
    PyThreadState *ts;
    if (enter(self, &ts) < 0) goto out;
    rc = sbx_write_files(self->h, files, (size_t)n, flags);
    if (rc != SBX_OK) capture_error(self->h, rc, &e);
    leave(self, ts);
    if (rc != SBX_OK)
      raise_call_err(&e);
    else
      result = (Py_INCREF(Py_None), Py_None);
  }
out:
  for (Py_ssize_t i = 0; i < got; i++) {
    Py_XDECREF(paths[i]);
    PyBuffer_Release(&bufs[i]);
  }
  PyMem_Free(files);
  PyMem_Free(paths);
  PyMem_Free(bufs);
  Py_DECREF(seq);
  return result;
}

static PyObject *sandbox_mkdir(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "parents", NULL};
  return call_path_flag(self, args, kw, "O&|p:mkdir", kwlist, sbx_mkdir);
}

static PyObject *sandbox_remove(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "recursive", NULL};
  return call_path_flag(self, args, kw, "O&|p:remove", kwlist, sbx_remove);
}

static PyStructSequence_Field stat_fields[] = {
    {"ino", "inode number"},
    {"mode", "st_mode: type and permission bits"},
    {"type", "TYPE_FILE, TYPE_DIR, TYPE_SYMLINK or TYPE_OTHER"},
    {"nlink", "link count"},
    {"uid", "owner uid"},
    {"gid", "owner gid"},
    {"size", "size in bytes"},
    {"atime", "access time, float seconds"},
    {"mtime", "modification time, float seconds"},
    {"ctime", "change time, float seconds"},
    {NULL, NULL}};

static PyStructSequence_Desc stat_desc = {
    "localsandbox._sbx.StatResult", "The result of Sandbox.stat().", stat_fields, 10};

static PyObject *sandbox_stat(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "nofollow", NULL};
  PyObject *path;
  int nofollow = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|p:stat", kwlist, conv_path, &path,
                                   &nofollow))
    return NULL;
  sbx_stat st;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e, sbx_stat_path(self->h, PATH(path), nofollow, &st),
                { Py_DECREF(path); });
  if (rc != SBX_OK) return raise_call_err(&e);
  PyObject *r = PyStructSequence_New(stat_result_type);
  if (!r) return NULL;
  PyObject *v[10] = {
      PyLong_FromLongLong(st.ino),
      PyLong_FromUnsignedLong(st.mode),
      PyLong_FromLong(st.type),
      PyLong_FromUnsignedLong(st.nlink),
      PyLong_FromUnsignedLong(st.uid),
      PyLong_FromUnsignedLong(st.gid),
      PyLong_FromUnsignedLongLong(st.size),
      PyFloat_FromDouble((double)st.atime + st.atime_nsec / 1e9),
      PyFloat_FromDouble((double)st.mtime + st.mtime_nsec / 1e9),
      PyFloat_FromDouble((double)st.ctime + st.ctime_nsec / 1e9),
  };
  int bad = 0;
  for (int i = 0; i < 10; i++) {
    if (!v[i]) bad = 1;
    PyStructSequence_SET_ITEM(r, i, v[i] ? v[i] : (Py_INCREF(Py_None), Py_None));
  }
  if (bad) {
    Py_DECREF(r);
    return NULL;
  }
  return r;
}

/* list_of() item makers over an sbx_dirent array. */
static PyObject *dirent_tuple(const void *items, size_t i) {
  const sbx_dirent *d = (const sbx_dirent *)items + i;
  return Py_BuildValue("(NLi)", PyUnicode_DecodeFSDefault(d->name), (long long)d->ino,
                       d->type);
}

static PyObject *dirent_name(const void *items, size_t i) {
  return PyUnicode_DecodeFSDefault(((const sbx_dirent *)items)[i].name);
}

/* listdir and listnames: one path argument (`format`), sbx_listdir, a list of
 * `make(ents, i)`. */
static PyObject *list_directory(SandboxObject *self, PyObject *args, const char *format,
                                PyObject *(*make)(const void *items, size_t i)) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, format, conv_path, &path)) return NULL;
  sbx_dirent *ents = NULL;
  size_t n = 0;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e, sbx_listdir(self->h, PATH(path), &ents, &n),
                { Py_DECREF(path); });
  return list_or_raise(rc, &e, ents, n, make);
}

/* listdir(path) -> [(name, ino, type), ...] sorted by name bytes. */
static PyObject *sandbox_listdir(SandboxObject *self, PyObject *args) {
  return list_directory(self, args, "O&:listdir", dirent_tuple);
}

/* listnames(path) -> [name, ...]: listdir without the tuples (list_files). */
static PyObject *sandbox_listnames(SandboxObject *self, PyObject *args) {
  return list_directory(self, args, "O&:listnames", dirent_name);
}

/* exists(path) -> bool: stat succeeds (following symlinks). Only ENOENT and
 * ENOTDIR mean "no"; any other failure raises. */
static PyObject *sandbox_exists(SandboxObject *self, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&:exists", conv_path, &path)) return NULL;
  sbx_stat st;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e, sbx_stat_path(self->h, PATH(path), 0, &st),
                { Py_DECREF(path); });
  if (rc == SBX_OK) Py_RETURN_TRUE;
  int err = sbx_rc_errno(rc);
  if (err == ENOENT || err == ENOTDIR || err == ELOOP || err == ENAMETOOLONG)
    Py_RETURN_FALSE;
  return raise_call_err(&e);
}

static PyObject *sandbox_rename(SandboxObject *self, PyObject *args) {
  return call_two_paths(self, args, "O&O&:rename", sbx_rename);
}

static PyObject *sandbox_symlink(SandboxObject *self, PyObject *args) {
  return call_two_paths(self, args, "O&O&:symlink", sbx_symlink);
}

static PyObject *sandbox_import_dir(SandboxObject *self, PyObject *args) {
  return call_two_paths(self, args, "O&O&:import_dir", sbx_import_dir);
}

static PyObject *sandbox_export_dir(SandboxObject *self, PyObject *args) {
  return call_two_paths(self, args, "O&O&:export_dir", sbx_export_dir);
}

static PyObject *sandbox_readlink(SandboxObject *self, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&:readlink", conv_path, &path)) return NULL;
  char *target = NULL;
  call_err e;
  int rc;
  SBX_CALL_THEN(self, rc, &e, sbx_readlink(self->h, PATH(path), &target),
                { Py_DECREF(path); });
  if (rc != SBX_OK) return raise_call_err(&e);
  PyObject *r = PyUnicode_DecodeFSDefault(target);
  sbx_free(target);
  return r;
}

/* ---- key-value store -------------------------------------------------------- */

/* kv_get(key) -> JSON text, or None for a missing key. */
static PyObject *sandbox_kv_get(SandboxObject *self, PyObject *args) {
  const char *key;
  if (!PyArg_ParseTuple(args, "O&:kv_get", conv_text, &key)) return NULL;
  char *json = NULL;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_kv_get(self->h, key, &json));
  if (sbx_errcode(rc) == SBX_NOTFOUND) Py_RETURN_NONE;
  if (rc != SBX_OK) return raise_call_err(&e);
  PyObject *r = PyUnicode_DecodeUTF8(json, strlen(json), "surrogateescape");
  sbx_free(json);
  return r;
}

static PyObject *sandbox_kv_set(SandboxObject *self, PyObject *args) {
  const char *key, *json;
  if (!PyArg_ParseTuple(args, "O&O&:kv_set", conv_text, &key, conv_text, &json))
    return NULL;
  SBX_RETURN_CALL(self, sbx_kv_set(self->h, key, json));
}

static PyObject *sandbox_kv_delete(SandboxObject *self, PyObject *args) {
  const char *key;
  if (!PyArg_ParseTuple(args, "O&:kv_delete", conv_text, &key)) return NULL;
  SBX_RETURN_CALL(self, sbx_kv_delete(self->h, key));
}

/* list_of() item maker over a char * array: UTF-8 text (surrogateescape). */
static PyObject *key_text(const void *items, size_t i) {
  const char *k = ((char *const *)items)[i];
  return PyUnicode_DecodeUTF8(k, strlen(k), "surrogateescape");
}

static PyObject *sandbox_kv_keys(SandboxObject *self, PyObject *args) {
  const char *prefix = NULL;
  if (!PyArg_ParseTuple(args, "|O&:kv_keys", conv_opt_text, &prefix)) return NULL;
  char **keys = NULL;
  size_t n = 0;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_kv_keys(self->h, prefix, &keys, &n));
  return list_or_raise(rc, &e, keys, n, key_text);
}

/* ---- history --------------------------------------------------------------- */

static PyObject *sandbox_history_start(SandboxObject *self, PyObject *args) {
  const char *name, *params = NULL;
  if (!PyArg_ParseTuple(args, "O&|O&:history_start", conv_text, &name, conv_opt_text,
                        &params))
    return NULL;
  int64_t id = 0;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_history_start(self->h, name, params, &id));
  if (rc != SBX_OK) return raise_call_err(&e);
  return PyLong_FromLongLong(id);
}

static PyObject *sandbox_history_finish(SandboxObject *self, PyObject *args,
                                        PyObject *kw) {
  static char *kwlist[] = {"id", "result", "error", NULL};
  long long id;
  const char *result = NULL, *error = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "L|O&O&:history_finish", kwlist, &id,
                                   conv_opt_text, &result, conv_opt_text, &error))
    return NULL;
  SBX_RETURN_CALL(self, sbx_history_finish(self->h, id, result, error));
}

/* history_record(name, params, result, error=None, started_at=0, duration_ms=0):
 * one finished call, in one statement (sbx_history_record). */
static PyObject *sandbox_history_record(SandboxObject *self, PyObject *args) {
  const char *name, *params = NULL, *result = NULL, *error = NULL;
  double started_at = 0, duration_ms = 0;
  if (!PyArg_ParseTuple(args, "O&O&O&|O&dd:history_record", conv_text, &name, conv_opt_text,
                        &params, conv_opt_text, &result, conv_opt_text, &error, &started_at,
                        &duration_ms))
    return NULL;
  int64_t id = 0;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e,
           sbx_history_record(self->h, name, params, result, error, started_at, duration_ms, &id));
  if (rc != SBX_OK) return raise_call_err(&e);
  return PyLong_FromLongLong(id);
}

static PyObject *opt_str(const char *s) {
  if (!s) Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(s, strlen(s), "surrogateescape");
}

/* list_of() item maker over an sbx_history_entry array. */
static PyObject *history_tuple(const void *items, size_t i) {
  const sbx_history_entry *x = (const sbx_history_entry *)items + i;
  return Py_BuildValue("(LNNNNNddd)", (long long)x->id, opt_str(x->name),
                       opt_str(x->parameters), opt_str(x->result), opt_str(x->error),
                       opt_str(x->status), x->started_at, x->completed_at, x->duration_ms);
}

/* history_list(limit=0) -> [(id, name, parameters, result, error, status,
 * started_at, completed_at, duration_ms), ...] newest first. */
static PyObject *sandbox_history_list(SandboxObject *self, PyObject *args) {
  int limit = 0;
  if (!PyArg_ParseTuple(args, "|i:history_list", &limit)) return NULL;
  sbx_history_entry *ents = NULL;
  size_t n = 0;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_history_list(self->h, limit, &ents, &n));
  return list_or_raise(rc, &e, ents, n, history_tuple);
}

/* history_retention(max_rows, max_age_s=0): sbx_history_retention. */
static PyObject *sandbox_history_retention(SandboxObject *self, PyObject *args) {
  long long rows = 0, age = 0;
  if (!PyArg_ParseTuple(args, "L|L:history_retention", &rows, &age)) return NULL;
  SBX_RETURN_CALL(self, sbx_history_retention(self->h, rows, age));
}

/* history_files(on) -> bool: sbx_history_files (the previous setting). */
static PyObject *sandbox_history_files(SandboxObject *self, PyObject *args) {
  int on, was = 1;
  if (!PyArg_ParseTuple(args, "p:history_files", &on)) return NULL;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, (was = sbx_history_files(self->h, on), SBX_OK));
  (void)rc;
  return PyBool_FromLong(was);
}

/* ---- snapshots and forks --------------------------------------------------- */

static PyObject *sandbox_snapshot(SandboxObject *self, PyObject *unused) {
  void *bytes = NULL;
  size_t len = 0;
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_snapshot(self->h, &bytes, &len));
  if (rc != SBX_OK) return raise_call_err(&e);
  return bytes_take(bytes, len);
}

/* fork(path) -> Sandbox: copies into a new file at host `path` and opens it. */
static PyObject *sandbox_fork(SandboxObject *self, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&:fork", PyUnicode_FSConverter, &path)) return NULL;
  SandboxObject *copy = sandbox_alloc(Py_TYPE(self));
  if (!copy) {
    Py_DECREF(path);
    return NULL;
  }
  sbx *h = NULL;
  call_err e;
  int rc;
  PyThreadState *ts;
  if (enter(self, &ts) < 0) {
    Py_DECREF(path);
    Py_DECREF(copy);
    return NULL;
  }
  rc = sbx_fork(self->h, PATH(path), &h);
  if (rc != SBX_OK) capture_error(self->h, rc, &e);
  leave(self, ts);
  Py_DECREF(path);
  if (rc != SBX_OK) {
    Py_DECREF(copy);
    return raise_call_err(&e);
  }
  copy->h = h;
  return (PyObject *)copy;
}

/* ---- the shell and Python sections -------------------------------------------- */

#include "_sbx_exec.h"

/* ---- type and module ---------------------------------------------------------- */

/* A method table entry of sandbox_NAME (any calling convention: the cast
 * through void (*)(void) is CPython's usual one). */
#define SANDBOX_METHOD(name, flags, doc) \
  { #name, (PyCFunction)(void (*)(void))sandbox_##name, (flags), doc }

static PyMethodDef sandbox_methods[] = {
    SANDBOX_METHOD(
        from_snapshot, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
        "from_snapshot(data, flags=OPEN_MEMORY) -> Sandbox\n\nOpens a new sandbox from "
        "snapshot bytes (sbx_open_snapshot); the bytes are copied."),
    SANDBOX_METHOD(
        close, METH_NOARGS,
        "close()\n\nCloses the handle (idempotent); later calls raise RuntimeError."),
    SANDBOX_METHOD(begin, METH_NOARGS, "begin()\n\nStarts a transaction group."),
    SANDBOX_METHOD(commit, METH_NOARGS, "commit()\n\nCommits a group."),
    SANDBOX_METHOD(rollback, METH_NOARGS, "rollback()\n\nRolls a group back."),
    SANDBOX_METHOD(set_programs, METH_O,
                   "set_programs(names): host programs the shell may run (None: all)"),
    SANDBOX_METHOD(set_quota, METH_VARARGS | METH_KEYWORDS,
                   "set_quota(max_bytes=, max_inodes=, max_file_size=)\n\nSets the "
                   "quotas given (0: no limit); the others keep theirs."),
    SANDBOX_METHOD(
        get_quota, METH_NOARGS,
        "get_quota() -> dict\n\nThe quotas in force (a new sandbox has the defaults)."),
    SANDBOX_METHOD(read_file, METH_VARARGS,
                   "read_file(path) -> bytes\n\nReads a whole file."),
    SANDBOX_METHOD(write_file, METH_VARARGS | METH_KEYWORDS,
                   "write_file(path, data, flags=0)\n\nWrites a whole file atomically "
                   "(WRITE_MKDIRS, WRITE_APPEND)."),
    SANDBOX_METHOD(write_files, METH_VARARGS | METH_KEYWORDS,
                   "write_files([(path, data), ...], flags=0)\n\nWrites many files in "
                   "one transaction."),
    SANDBOX_METHOD(mkdir, METH_VARARGS | METH_KEYWORDS,
                   "mkdir(path, parents=False)\n\nCreates a directory."),
    SANDBOX_METHOD(
        remove, METH_VARARGS | METH_KEYWORDS,
        "remove(path, recursive=False)\n\nRemoves a file, symlink or directory."),
    SANDBOX_METHOD(stat, METH_VARARGS | METH_KEYWORDS,
                   "stat(path, nofollow=False) -> StatResult"),
    SANDBOX_METHOD(listdir, METH_VARARGS,
                   "listdir(path) -> [(name, ino, type), ...]\n\nSorted by name bytes, "
                   "without . and ..."),
    SANDBOX_METHOD(listnames, METH_VARARGS,
                   "listnames(path) -> [name, ...]\n\nThe names of listdir()."),
    SANDBOX_METHOD(
        exists, METH_VARARGS,
        "exists(path) -> bool\n\nWhether the path resolves (following symlinks)."),
    SANDBOX_METHOD(rename, METH_VARARGS, "rename(src, dst)"),
    SANDBOX_METHOD(symlink, METH_VARARGS, "symlink(target, linkpath)"),
    SANDBOX_METHOD(readlink, METH_VARARGS, "readlink(path) -> str"),
    SANDBOX_METHOD(import_dir, METH_VARARGS,
                   "import_dir(hostdir, path)\n\nCopies a host directory tree into the "
                   "sandbox (sbx_import_dir)."),
    SANDBOX_METHOD(export_dir, METH_VARARGS,
                   "export_dir(path, hostdir)\n\nCopies a sandbox tree into a new host "
                   "directory (sbx_export_dir)."),
    SANDBOX_METHOD(
        kv_get, METH_VARARGS,
        "kv_get(key) -> str | None\n\nThe stored JSON text, or None for a missing key."),
    SANDBOX_METHOD(kv_set, METH_VARARGS,
                   "kv_set(key, json)\n\nStores JSON text (validated)."),
    SANDBOX_METHOD(kv_delete, METH_VARARGS, "kv_delete(key)"),
    SANDBOX_METHOD(kv_keys, METH_VARARGS,
                   "kv_keys(prefix=None) -> [str]\n\nKeys starting with prefix, sorted."),
    SANDBOX_METHOD(history_files, METH_VARARGS,
                   "history_files(on) -> bool\n\nWhether the file helpers record their "
                   "calls (sbx_history_files); returns the previous setting."),
    SANDBOX_METHOD(history_retention, METH_VARARGS,
                   "history_retention(max_rows, max_age_s=0)\n\nBounds the history (0: "
                   "no bound); the newest calls are kept."),
    SANDBOX_METHOD(history_start, METH_VARARGS,
                   "history_start(name, parameters_json=None) -> id"),
    SANDBOX_METHOD(history_finish, METH_VARARGS | METH_KEYWORDS,
                   "history_finish(id, result=None, error=None)"),
    SANDBOX_METHOD(history_record, METH_VARARGS,
                   "history_record(name, parameters_json, result_json, error=None, "
                   "started_at=0, duration_ms=0) -> id\n\nOne finished call in one "
                   "statement (sbx_history_record)."),
    SANDBOX_METHOD(history_list, METH_VARARGS,
                   "history_list(limit=0) -> [(id, name, parameters, result, error, "
                   "status, started_at, completed_at, duration_ms)]"),
    SANDBOX_METHOD(snapshot, METH_NOARGS,
                   "snapshot() -> bytes\n\nThe whole sandbox as one SQLite image."),
    SANDBOX_METHOD(fork, METH_VARARGS,
                   "fork(path) -> Sandbox\n\nCopies the sandbox into a new file at path "
                   "and opens it."),
    SBX_PYAPI_EXEC_METHODS{NULL, NULL, 0, NULL}};

static PyGetSetDef sandbox_getset[] = {
    {"closed", (getter)sandbox_get_closed, NULL, "True once close() was called.", NULL},
    {"path", (getter)sandbox_get_path, NULL, "The database file path ('' in memory).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject sandbox_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "localsandbox._sbx.Sandbox",
    .tp_doc =
        "Sandbox(path=None, flags=0)\n\nOne sbx handle (sbx_open). The GIL is released "
        "during every call; calls on one Sandbox from several threads are serialized.",
    .tp_basicsize = sizeof(SandboxObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = sandbox_new,
    .tp_init = (initproc)sandbox_init,
    .tp_dealloc = (destructor)sandbox_dealloc,
    .tp_methods = sandbox_methods,
    .tp_getset = sandbox_getset,
    .tp_weaklistoffset = offsetof(SandboxObject, weakreflist),
};

static PyMethodDef module_methods[] = {
    SBX_PYAPI_EXEC_MODULE_METHODS
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_methods = module_methods,
    .m_name = "localsandbox._sbx",
    .m_doc =
        "The C extension of localsandbox: the sbx_* API of include/sbx.h over one "
        "Sandbox "
        "type.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__sbx(void) {
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  sbx_error_type = PyErr_NewExceptionWithDoc(
      "localsandbox._sbx.Error",
      "A failed sbx_* call: attributes rc, code, errno, path, message.", NULL, NULL);
  if (!sbx_error_type || PyModule_AddObjectRef(m, "Error", sbx_error_type) < 0) goto fail;
  stat_result_type = PyStructSequence_NewType(&stat_desc);
  if (!stat_result_type ||
      PyModule_AddObjectRef(m, "StatResult", (PyObject *)stat_result_type) < 0)
    goto fail;
  if (PyType_Ready(&sandbox_type) < 0 ||
      PyModule_AddObjectRef(m, "Sandbox", (PyObject *)&sandbox_type) < 0)
    goto fail;
  struct {
    const char *name;
    long value;
  } consts[] = {
      {"OK", SBX_OK},
      {"ERROR", SBX_ERROR},
      {"FS", SBX_FS},
      {"NOMEM", SBX_NOMEM},
      {"NOTFOUND", SBX_NOTFOUND},
      {"CORRUPT", SBX_CORRUPT},
      {"SCHEMA", SBX_SCHEMA},
      {"READONLY", SBX_READONLY},
      {"MISUSE", SBX_MISUSE},
      {"LIMIT", SBX_LIMIT},
      {"TIMEOUT", SBX_TIMEOUT},
      {"CANCELED", SBX_CANCELED},
      {"JAIL", SBX_JAIL},
      {"QUOTA", SBX_QUOTA},
      {"CRASHED", SBX_CRASHED},
      {"OPEN_TEMP", SBX_OPEN_TEMP},
      {"OPEN_MEMORY", SBX_OPEN_MEMORY},
      {"OPEN_READONLY", SBX_OPEN_READONLY},
      {"OPEN_NOCREATE", SBX_OPEN_NOCREATE},
      {"OPEN_PROCESS", SBX_OPEN_PROCESS},
      {"TIER_ANY", SBX_TIER_ANY},
      {"TIER_FULL", SBX_TIER_FULL},
      {"TIER_REDUCED", SBX_TIER_REDUCED},
      {"WRITE_MKDIRS", SBX_WRITE_MKDIRS},
      {"HISTORY_DEFAULT_ROWS", SBX_HISTORY_DEFAULT_ROWS},
      {"WRITE_APPEND", SBX_WRITE_APPEND},
      {"TYPE_FILE", SBX_TYPE_FILE},
      {"TYPE_DIR", SBX_TYPE_DIR},
      {"TYPE_SYMLINK", SBX_TYPE_SYMLINK},
      {"TYPE_OTHER", SBX_TYPE_OTHER},
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0) goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
