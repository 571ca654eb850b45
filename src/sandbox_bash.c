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
 * History: with opts->record every front (C API, CLI, MCP, the Python package)
 * writes the same "bash" row ({"command", "cwd"} / {"exitCode"}), built here
 * once, inside the call's locked section, so that no other call on the handle
 * runs between the script and its row.
 *
 * Process isolation (SBX_OPEN_PROCESS): no session lives here; sbx_bash_ex,
 * sbx_shell_reset and sbx_cancel hand over to src/sandbox_iso.c, and the
 * limits (h->shell_limits, sandbox_bash_limits) travel with each call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_int.h"
#include "sh/sh.h"

static void to_sh_limits(const sbx_limits *in, sh_limits *out) {
  if (in->loop_iterations) out->loop_iterations = in->loop_iterations;
  if (in->command_count) out->commands = in->command_count;
  if (in->function_depth) out->function_depth = in->function_depth;
  if (in->output_bytes) out->output_bytes = in->output_bytes;
  if (in->string_size) out->string_size = in->string_size;
  if (in->array_size) out->array_size = in->array_size;
  if (in->timeout_ms) out->timeout_ms = in->timeout_ms;
}

static void from_sh_limits(const sh_limits *in, sbx_limits *out) {
  out->loop_iterations = in->loop_iterations;
  out->command_count = in->commands;
  out->function_depth = in->function_depth;
  out->output_bytes = in->output_bytes;
  out->string_size = in->string_size;
  out->array_size = in->array_size;
  out->timeout_ms = in->timeout_ms;
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

static sh_session *session_of(sbx *h) {
  if (!h->shell) {
    sh_limits lim = sh_limits_normal;
    if (h->shell_limits) to_sh_limits(h->shell_limits, &lim);
    h->shell = sh_session_new(h->st, &lim);
    if (h->shell) h->shell->sandbox = h; /* for python3 / tool */
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
    KEEP(string_size); KEEP(array_size); KEEP(timeout_ms);
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

int sh_session_exit(sh_session *s, const sh_call *call);

/* Appends s[0..n) to b as a JSON string: quotes, escapes, and each byte that
 * does not start a valid UTF-8 sequence as U+FFFD (a script may hold any
 * bytes but NUL; the history is JSON text). */
static void json_quote(sh_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  sh_buf_addc(b, '"');
  size_t i = 0;
  while (i < n) {
    unsigned c = p[i];
    if (c == '"' || c == '\\') {
      sh_buf_addc(b, '\\');
      sh_buf_addc(b, (char)c);
      i++;
    } else if (c < 0x20 || c == 0x7f) {
      char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      sh_buf_add(b, e, sizeof e);
      i++;
    } else if (c < 0x80) {
      sh_buf_addc(b, (char)c);
      i++;
    } else {
      /* the length of a valid sequence starting here, or 0 */
      size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
      if (len > n - i) len = 0;
      for (size_t k = 1; k < len; k++)
        if ((p[i + k] & 0xc0) != 0x80) len = 0;
      if (len == 3 && ((c == 0xe0 && p[i + 1] < 0xa0) || (c == 0xed && p[i + 1] > 0x9f)))
        len = 0; /* overlong, or a surrogate */
      if (len == 4 && ((c == 0xf0 && p[i + 1] < 0x90) || (c == 0xf4 && p[i + 1] > 0x8f)))
        len = 0; /* overlong, or past U+10FFFF */
      if (len) {
        sh_buf_add(b, p + i, len);
        i += len;
      } else {
        sh_buf_adds(b, "\\ufffd");
        i++;
      }
    }
  }
  sh_buf_addc(b, '"');
}

/* The history row of a finished bash call (opts->record); a failure to write
 * it does not fail the call. Called with the handle locked. */
static void record_call(sbx *h, const char *script, size_t len, const char *cwd,
                        const sbx_bash_result *res) {
  sh_buf params = {0};
  sh_buf_adds(&params, "{\"command\":");
  json_quote(&params, script, len);
  sh_buf_adds(&params, ",\"cwd\":");
  json_quote(&params, cwd, strlen(cwd));
  sh_buf_addc(&params, '}');
  char result[40];
  snprintf(result, sizeof result, "{\"exitCode\":%d}", res->exit_code);
  store_call_record(h->st, "bash", sh_buf_str(&params), result, NULL, 0, res->duration_ms, NULL);
  sh_buf_free(&params);
}

static int recorded(int rc) {
  return rc == SBX_OK || rc == SBX_LIMIT || rc == SBX_TIMEOUT || rc == SBX_CANCELED;
}

int sbx_bash_ex(sbx *h, const char *script, size_t len, const sbx_bash_opts *opts,
                sbx_bash_result *res) {
  if (res) memset(res, 0, sizeof *res);
  if (!h || !res || (!script && len)) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  if (memchr(script ? script : "", 0, len))
    return sandbox_fail(h, SBX_MISUSE, "the script contains a NUL byte");
  sandbox_lock(h);
  if (h->iso) {
    int exited;
    char *cwd = opts && opts->record ? strdup(sandbox_iso_session(h, &exited)) : NULL;
    int rc = sandbox_iso_bash(h, script ? script : "", len, opts, res);
    if (cwd && recorded(rc)) record_call(h, script ? script : "", len, cwd, res);
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
  if (start_cwd) record_call(h, call.script, len, start_cwd, res);
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
  if (h->shell) sh_session_reset(h->shell);
  if (h->iso) sandbox_iso_reset(h);
  sandbox_unlock(h);
  return SBX_OK;
}

void sandbox_bash_close(sbx *h) {
  if (!h) return;
  sh_session_free(h->shell);
  h->shell = NULL;
  for (int i = 0; i < SANDBOX_SHELL_NEST; i++) {
    sh_session_free(atomic_load(&h->shell_nested[i]));
    atomic_store(&h->shell_nested[i], NULL);
  }
  free(h->shell_limits);
  h->shell_limits = NULL;
}
