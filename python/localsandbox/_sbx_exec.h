/*
 * _sbx_exec.h - the shell section of localsandbox._sbx: Sandbox.bash,
 * set_limits / get_limits, cancel, reset_shell, and limits_preset().
 *
 * Included by _sbx.c (after the Sandbox type and its enter/leave helpers)
 * only when sbx.h declares sbx_bash, so the package builds against a library
 * with or without the shell.
 *
 * Key decisions:
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
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_set_limits(self->h, &lim));
  if (rc != SBX_OK) return raise_call_err(&e);
  Py_RETURN_NONE;
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
  call_err e;
  int rc;
  SBX_CALL(self, rc, &e, sbx_shell_reset(self->h));
  if (rc != SBX_OK) return raise_call_err(&e);
  Py_RETURN_NONE;
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
  char *data;  /* malloc'd, or NULL */
  size_t len;  /* bytes used */
  size_t cap;  /* bytes allocated */
} out_buf;

/* The receivers' state for one bash call (lives on the caller's stack). */
typedef struct bash_stream {
  SandboxObject *self;  /* the sandbox (borrowed) */
  PyObject *callback;   /* on_output(stream, bytes), or NULL (borrowed) */
  out_buf buf[2];       /* captured stdout [0] and stderr [1] */
  int oom;              /* an append failed: the output is incomplete */
  PyObject *exc_type;   /* the callback's exception (owned, PyErr_Fetch), */
  PyObject *exc_value;  /* or all NULL */
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
  PyObject *r = bytes ? PyObject_CallFunction(st->callback, "sO", which ? "stderr" : "stdout",
                                              bytes)
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

static void on_stdout(void *ud, const void *buf, size_t n) { stream_emit(ud, 0, buf, n); }
static void on_stderr(void *ud, const void *buf, size_t n) { stream_emit(ud, 1, buf, n); }

static const char *limit_kind(int rc) {
  switch (sbx_errcode(rc)) {
  case SBX_LIMIT: return "limit";
  case SBX_TIMEOUT: return "timeout";
  case SBX_CANCELED: return "canceled";
  default: return NULL;
  }
}

/*
 * bash(script, limits=None, on_output=None) -> (stdout: bytes, stderr: bytes,
 *     exit_code, duration_ms, kind, limit_name, limit_value, errno, errpath)
 *
 * kind is None when the script ran to its end (any exit code), else "limit",
 * "timeout" or "canceled". limits: a dict of limit overrides for this call.
 */
static PyObject *sandbox_bash(SandboxObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"script", "limits", "on_output", NULL};
  PyObject *script_obj, *limits_obj = Py_None, *callback = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "U|OO:bash", kwlist, &script_obj, &limits_obj,
                                   &callback))
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
  sbx_bash_opts opts = {.stdin_fd = -1, .on_stdout = on_stdout, .on_stderr = on_stderr, .ud = &st};
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

  PyObject *result = NULL;
  if (st.exc_type) {
    PyErr_Restore(st.exc_type, st.exc_value, st.exc_tb);
  } else if (rc != SBX_OK && !limit_kind(rc)) {
    raise_call_err(&e);
  } else if (st.oom) {
    PyErr_NoMemory();
  } else {
    PyObject *kind = limit_kind(rc) ? PyUnicode_FromString(limit_kind(rc)) : Py_NewRef(Py_None);
    PyObject *lname = res.limit_name ? PyUnicode_FromString(res.limit_name) : Py_NewRef(Py_None);
    PyObject *epath = res.err_path ? PyUnicode_DecodeFSDefault(res.err_path) : Py_NewRef(Py_None);
    if (kind && lname && epath)
      result = Py_BuildValue("(y#y#idOOKiO)", st.buf[0].data ? st.buf[0].data : "",
                             (Py_ssize_t)st.buf[0].len, st.buf[1].data ? st.buf[1].data : "",
                             (Py_ssize_t)st.buf[1].len, res.exit_code, res.duration_ms, kind,
                             lname, (unsigned long long)res.limit_value, res.err_errno, epath);
    Py_XDECREF(kind);
    Py_XDECREF(lname);
    Py_XDECREF(epath);
  }
  free(st.buf[0].data);
  free(st.buf[1].data);
  sbx_bash_result_free(&res);
  return result;
}

#define SBX_PYAPI_EXEC_METHODS                                                                  \
  {"bash", (PyCFunction)(void (*)(void))sandbox_bash, METH_VARARGS | METH_KEYWORDS,            \
   "bash(script, limits=None, on_output=None) -> (stdout, stderr, exit_code, duration_ms, "    \
   "kind, limit_name, limit_value, errno, errpath)\n\nRuns a script in the sandbox's shell "   \
   "session (sbx_bash_ex)."},                                                                   \
      {"set_limits", (PyCFunction)sandbox_set_limits, METH_O,                                  \
       "set_limits(dict)\n\nSets the shell limits of later calls (absent names keep theirs)."}, \
      {"get_limits", (PyCFunction)sandbox_get_limits, METH_NOARGS,                             \
       "get_limits() -> dict\n\nThe shell limits in force."},                                  \
      {"reset_shell", (PyCFunction)sandbox_reset_shell, METH_NOARGS,                           \
       "reset_shell()\n\nA fresh shell session (sbx_shell_reset)."},                           \
      {"cancel", (PyCFunction)sandbox_cancel, METH_NOARGS,                                     \
       "cancel()\n\nStops the running call, from any thread (sbx_cancel)."},

#define SBX_PYAPI_EXEC_MODULE_METHODS                                                  \
  {"limits_preset", (PyCFunction)module_limits_preset, METH_VARARGS,                  \
   "limits_preset(name) -> dict\n\nThe limits of a preset: strict, normal, permissive."},
