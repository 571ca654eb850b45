/*
 * sandbox_int.h - the private layout of the sandbox handle (`struct sbx`) and
 * the helpers that every src/ file implementing an sbx_* section shares.
 *
 * The handle is one struct owned by src/api/sandbox.c (open, close, errors, files,
 * kv, history, snapshots, quotas). Other sections hang their own state off it:
 * add a field in the marked block below, with a comment, and free it in
 * sandbox_close_extensions() (sandbox.c calls it first thing in sbx_close).
 *
 * Error reporting: every public function starts with sandbox_clear_error(h)
 * and ends with `return sandbox_fail*(...)` on failure, which fills rc, errno,
 * path and message in one place so sbx_errmsg() is consistent everywhere.
 */
#ifndef SBX_SANDBOX_INT_H
#define SBX_SANDBOX_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "sbx.h"
#include "sh/util.h"
#include "store/store.h"

/* How deep sbx_bash calls may nest (tool callbacks of a running script). */
#define SANDBOX_SHELL_NEST 4

/* Room for "OP PATH -> PATH: REASON" with two maximal paths. */
#define SANDBOX_ERRMSG_MAX (2 * STORE_PATH_MAX + 512)

struct sbx {
  store *st;           /* the open store; NULL in an error-only handle from a
                          failed sbx_open (every call then gives SBX_MISUSE) */
  char *path;          /* database file path (malloc'd); "" when in memory */
  int flags;           /* the SBX_OPEN_* flags it was opened with */
  int remove_on_close; /* 1: `path` is our temporary file, unlinked on close */
  sbx_quota quota;     /* current quotas (also pushed into the store) */
  int files_quiet;     /* 1: file helpers leave no history row (sbx_history_files) */
  int txn_depth;       /* open sbx_begin groups (quota changes and forks wait
                          for 0) */
  pthread_mutex_t lock; /* held around every store call made through the
                           handle; a server thread working on the same store
                           (the FUSE server) takes it too */
  _Atomic int lock_waiters; /* threads waiting in sandbox_lock (the jobs' driver
                               waits for them before it takes the lock again) */

  /* The last failure (sbx_errmsg / sbx_errno / sbx_errpath). */
  int err_rc;                         /* last result code (SBX_OK after success) */
  int err_errno;                      /* errno of the last SBX_FS failure, else 0 */
  char err_path[STORE_PATH_MAX];      /* sandbox path of the last SBX_FS failure */
  char err_msg[SANDBOX_ERRMSG_MAX];   /* "write /a/b: No such file or directory" */

  /* ---- other sections add their fields here (each with a comment) ---- */
  /* shell session: owned by src/sh (the shell engineer) */
  struct sh_session *shell;  /* the persistent shell (created on first sbx_bash; NULL before) */
  struct sbx_limits *shell_limits; /* limits set before the session exists (malloc'd) or NULL */
  _Atomic int shell_cancel;  /* sbx_cancel before/while a call: forwarded to the session */
  _Atomic unsigned py_cancels; /* sbx_cancel calls: a Python call that sees it change
                                  while it runs stops (src/py/python.c) */
  int shell_depth;           /* sbx_bash calls running now (> 1: nested ones, made by
                                tool callbacks on the loan of a waiting script) */
  pthread_t shell_thread;    /* the thread that entered the innermost running call
                                (its python3 commands act for it) */
  _Atomic(struct sh_session *) shell_nested[SANDBOX_SHELL_NEST]; /* the sessions of
                                nested calls, by depth (created on first use, reset
                                before each call, freed on close) */
  struct sbx_job *jobs;      /* sbx_start's handles, live or released-but-running
                                (src/api/sandbox_bash.c); freed on close */
  /* process isolation (SBX_OPEN_PROCESS): src/api/sandbox_iso.c */
  struct sandbox_iso *iso;   /* the helper process and its channel; NULL in-process */
  int sealed;                /* 1: this handle is the one inside an isolated shell's
                                sealed helper (src/iso): no Python jail can start */
  int memory_as_file;        /* 1: an in-memory sandbox kept in the temporary file
                                `path` so the helper can open it (sbx_path gives "") */
  /* python worker: owned by src/py */
  struct py_state *py; /* the Python worker, its jail and the host tools
                          (src/py/py_int.h); NULL until first used */
  _Atomic(const struct sandbox_section *) py_section; /* what src/py plugs in
                          when it creates h->py (py_state_get); NULL before */
};

/* What a section above this layer plugs into the handle, so that this layer
 * calls nothing of it (src/py registers itself when it first starts; the
 * dependency runs one way, from src/py to src/api). */
typedef struct sandbox_section {
  /* sbx_close: stops what the section runs and frees its state */
  void (*close)(sbx *h);
  /* sandbox_lock / sandbox_unlock: 1 when the call went on the section's
   * loan of the handle instead of h->lock (src/py/py_loan.c) */
  int (*lock_enter)(sbx *h);
  int (*lock_leave)(sbx *h);
} sandbox_section;

/* Resets the error state at the start of a public call. */
void sandbox_clear_error(sbx *h);
/* Records `rc` with a printf-style message; returns rc. */
int sandbox_fail(sbx *h, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records a filesystem failure "OP PATH: strerror(err)" (err > 0) as
 * SBX_FS | err << 8, with `path` as sbx_errpath; returns the code. */
int sandbox_fail_errno(sbx *h, const char *op, const char *path, int err);
/* Maps a negative store result (a -errno or STORE_E*) to an sbx result code
 * and records it with the message "OP PATH: REASON"; `path` may be NULL. */
int sandbox_fail_store(sbx *h, int store_rc, const char *op, const char *path);

/* Frees what other sections attached to the handle (called by sbx_close
 * before the store closes). Defined in sandbox.c; extend it there. */
void sandbox_close_extensions(sbx *h);
/* Ends the shell's background jobs: the first thing sbx_close does (they may
 * use the store, the Python worker and the helper). src/api/sandbox_bash.c. */
void sandbox_bash_stop_jobs(sbx *h);
/* Frees the shell session (src/api/sandbox_bash.c). */
void sandbox_bash_close(sbx *h);

/* The limits of the next sbx_bash call (no lock taken; src/api/sandbox_bash.c). */
void sandbox_bash_limits(sbx *h, sbx_limits *out);

/* Process isolation (src/api/sandbox_iso.c). open: creates h->iso (no helper
 * yet); bash: one sbx_bash_ex call in the helper, under the handle's lock;
 * reset: sbx_shell_reset; cancel: wakes the waiting call (any thread, no
 * lock); close: kills the helper and frees h->iso. */
int sandbox_iso_open(sbx *h);
int sandbox_iso_bash(sbx *h, const char *script, size_t len, const sbx_bash_opts *opts,
                     sbx_bash_result *res);
int sandbox_iso_reset(sbx *h);
void sandbox_iso_cancel(sbx *h);
void sandbox_iso_close(sbx *h);
/* For the CLI's prompt (cli/sh.c), which reads an in-process session
 * directly: later calls make an interactive shell (aliases expand); the
 * session's cwd (owned by h, valid until the next call) and whether the
 * last call ran `exit`. */
void sandbox_iso_interactive(sbx *h);
const char *sandbox_iso_session(sbx *h, int *exited);

/* ---- history rows (src/api/sandbox_history.c) ---- */

/* Appends s[0..n) as a JSON string (invalid UTF-8 as U+FFFD). */
void sandbox_json_quote(sh_buf *b, const char *s, size_t n);
/* Appends "key":"s" / "key":v to the JSON object being built in b ('{'
 * first when b is empty; sandbox_record_file closes it). */
void sandbox_json_key_str(sh_buf *b, const char *key, const char *s);
void sandbox_json_key_int(sh_buf *b, const char *key, long long v);
/* Milliseconds since t0 (CLOCK_MONOTONIC). */
double sandbox_ms_since(const struct timespec *t0);
/* The one way a front's call becomes a history row: buffered in the store
 * (store_call_log), written with the next commit. error non-NULL: a failed
 * call (result dropped). Called with the handle locked; never fails the call. */
void sandbox_record(sbx *h, const char *name, const char *parameters, const char *result,
                    const char *error, double duration_ms);
/* One file helper call being recorded: sandbox_call_begin (after the
 * argument checks; `writes`: the call runs in a transaction that its row
 * joins), parameters added to `params` with sandbox_json_key_*, then
 * sandbox_call_end: the row (result {key: count}, or {} for key NULL, when
 * rc is SBX_OK, else the handle's error), the commit; returns rc, or the
 * commit's failure. */
typedef struct sandbox_call {
  struct timespec t0; /* start (CLOCK_MONOTONIC) */
  int tx;             /* 1: a store_begin to commit */
  sh_buf params;      /* the parameters object being built */
} sandbox_call;
void sandbox_call_begin(sbx *h, sandbox_call *c, int writes);
int sandbox_call_end(sbx *h, sandbox_call *c, const char *name, int rc, const char *key,
                     long long count);

/* Takes the sandbox for one call: h->lock, or, on the thread that holds the
 * sandbox on loan from a shell script waiting for it (a tool callback of the
 * script's python3/tool command; h->py_section's lock_enter), the loan.
 * Every public call that uses the store or the shell goes through these
 * (sandbox.c). */
void sandbox_lock(sbx *h);
void sandbox_unlock(sbx *h);

/* Reads a host fd to its end into a malloc'd buffer, NUL-terminated beyond
 * *len (sandbox_tree.c; `hint`, the expected size, sizes the first buffer).
 * Returns 0 or an errno; the caller frees *data. */
int sandbox_read_fd(int fd, size_t hint, char **data, size_t *len);

#endif
