/*
 * py_int.h - the host side of Python in a sandbox: the per-handle state that
 * src/py/ hangs off `struct sbx` (h->py), shared by python.c (the worker's
 * life and calls), py_tools.c (the tool bridge), py_schema.c and the shell's
 * python3/tool commands.
 *
 * Threads: the handle's user calls in one thread at a time. A tool callback
 * runs on a runner thread of ours while the calling thread waits for it; the
 * worker channel is "lent" to that thread for the time of the callback, so
 * the callback may make nested calls (chan_owner). When a shell script that
 * holds the sandbox waits in python3/tool, the store is lent along the same
 * chain (py_loan.c). Everything else in py_state is touched only by the
 * channel's current owner, except the runners' job handoff (each runner's
 * lock) and the runner lists (runners_lock).
 */
#ifndef SBX_PY_INT_H
#define SBX_PY_INT_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "fuse/fuse_server.h"
#include "jail/jail.h"
#include "py/py_mirror.h"
#include "py/py_proto.h"
#include "api/sandbox_int.h"
#include "py/py_spawn.h"
#include "sbx.h"

#define PY_DEFAULT_TIMEOUT 30.0
#define PY_DEFAULT_GRACE 1.0
#define PY_DEFAULT_OUTPUT (16u << 20)
#define PY_CALL_MEMORY (2ull << 30)     /* default per-call address space */
#define PY_JAIL_MEMORY (4ull << 30)     /* the jail's hard address-space limit */
#define PY_JAIL_NPROC 64
#define PY_JAIL_NOFILE 1024
#define PY_TOOL_TIMEOUT 30.0
#define PY_HISTORY_MAX (64u << 10)      /* bytes of stdout/stderr kept in history */
#define PY_MAX_DEPTH 8                  /* nested calls through tool callbacks */
#define PY_MAX_ARGS 16000               /* sys.argv entries (the frame's field limit) */

/* One declared host tool. */
typedef struct py_tool {
  char *name;             /* unique */
  char *description;      /* "" when none */
  json_t *input_schema;   /* NULL: anything */
  json_t *output_schema;  /* NULL: anything */
  char *schema_text;      /* both schemas as text, for search */
  double timeout;         /* seconds */
  sbx_tool_fn fn;         /* the callback */
  void *ud;               /* its user data */
} py_tool;

/* A tool callback handed to the runner thread. */
typedef struct py_job {
  sbx *h;                 /* the sandbox */
  sbx_tool_fn fn;         /* callback and its data */
  void *ud;
  char *name, *args;      /* owned copies */
  char *result, *error;   /* from the callback (malloc'd) */
  int rc;                 /* its return value */
  int done;               /* 1 when the callback returned */
  int abandoned;          /* 1 when the caller gave up (timeout): runner frees it */
} py_job;

/* A tool runner: a thread that runs callbacks one at a time. A callback
 * that is running when another tool call arrives (it called back into the
 * sandbox, whose code called a tool) makes the next call use another runner. */
typedef struct py_runner {
  pthread_t thread;       /* the thread */
  pthread_mutex_t lock;   /* guards job, quit and the job's done/abandoned */
  pthread_cond_t cond;    /* job posted, job done, quit */
  py_job *job;            /* the job to run, NULL when idle */
  int quit;               /* 1: exit when idle */
  int busy;               /* 1 while a job runs */
  int reserved;           /* 1: taken by a caller that is about to post a job */
  struct py_runner *next; /* next in ps->runners or ps->abandoned */
} py_runner;

/* Where the stdin and output of a call go when they stream (python3 command). */
typedef struct py_stream {
  void *ud;               /* caller's data */
  /* Reads up to n bytes of stdin; 0 at end, <0 on error. */
  ssize_t (*read)(void *ud, void *buf, size_t n);
  /* Writes output of fd 1 or 2; <0 (e.g. -EPIPE) stops the call's output. */
  int (*write)(void *ud, int fd, const void *buf, size_t n);
  /* Non-zero when the caller wants the call stopped (the shell's cancel or
   * limits); may be NULL. */
  int (*cancelled)(void *ud);
  int store_held;           /* 1: the caller's shell holds the store (h->lock or
                               a loan): the call opens or joins the loan */
  char *const *env;         /* the shell's exported environment ("K=V",
                               NULL-terminated) for os.environ; NULL: the
                               worker's own */
} py_stream;

/* The per-sandbox state (h->py). */
typedef struct py_state {
  int running;              /* a worker is up (jail, fuse, HELLO received) */
  jail j;                   /* its jail */
  fuse_server *fuse;        /* the FUSE server of its root */
  py_reader rd;             /* frames from W */
  py_buf out;               /* frames to W */
  uint32_t next_id;         /* request ids (never 0) */
  py_msg *msg;              /* scratch for decoding (large) */
  char **python_paths;      /* sbx_python_set_paths: host directories bound
                               read-only in the jail (NULL-terminated, malloc'd
                               with their strings), or NULL */

  pthread_mutex_t chan_lock; /* guards chan_owner / chan_depth and the loan's
                               lending / loan_owner / api_calls */
  pthread_t chan_owner;     /* thread allowed to use the channel */
  int chan_depth;           /* calls in progress on the channel (nesting) */

  py_tool *tools;           /* declared tools */
  size_t ntools, tools_cap;
  pthread_mutex_t runners_lock; /* guards the two lists below */
  py_runner *runners;       /* runner threads (idle or running a callback) */
  py_runner *abandoned;     /* runners still finishing a timed-out callback */

  /* The loan (py_loan.c): while a shell that holds the sandbox waits in a
   * python3/tool command, the store is shared by the chain of calls it waits
   * for and the FUSE thread (fuse_server_config.lent / borrowers). */
  int lending;              /* python3/tool commands in progress (L1) */
  pthread_t loan_owner;     /* the thread that may enter the C API on the loan */
  int api_calls;            /* C API calls in progress on the loan (L3) */
  int hold;                 /* store sections of the chain in progress (L2) */
  _Atomic int store_lent;   /* the FUSE thread may borrow the store now */
  _Atomic int store_borrowers; /* borrowers inside the store */

  /* The jail tier (py_tier.c). */
  int require;              /* SBX_TIER_*: what sbx_python_require asked */
  jail_tier tier;           /* the running worker's tier */
  py_mirror *mirror;        /* reduced tier: the private directory, or NULL */
  int view_moved;           /* the FUSE view was invalidated since the last EXEC */
  char tier_note[384];      /* why this tier (the full one's failure) */
  char **programs;          /* host programs the shell may run: names or
                               absolute paths, NULL-terminated (owned);
                               NULL: every program of the jail's runtime */
} py_state;

/* One call's part in the loan (py_loan_begin .. py_loan_end). */
typedef struct py_loan_frame {
  int active;               /* 1: the call is on the loan */
  int command;              /* 1: a python3/tool command (it opened or joined the loan) */
  pthread_t prev_owner;     /* the loan's owner before this command */
  int released;             /* 1 between py_loan_release and py_loan_restore */
  int saved_hold;           /* `hold` when released */
} py_loan_frame;

/* The loan handed to a runner for one callback (py_loan_pass). */
typedef struct py_loan_handoff {
  int passed;               /* 1: the caller owned the loan and passed it */
  int api_calls0;           /* api_calls when passed (L3) */
} py_loan_handoff;

/* ---- python.c ----------------------------------------------------------------- */

/* The handle's Python state, created on first use (NULL: out of memory). */
py_state *py_state_get(sbx *h);
/* Monotonic seconds. */
double py_now(void);
/* Frees the Python state of a handle (stops the worker). sandbox.c calls it. */
void py_sandbox_close(sbx *h);

/* Runs code with full control (the python3 command): flags PY_EXEC_*, the
 * file name for tracebacks and __file__ (NULL: a cell name), argv (sys.argv,
 * may be NULL), a stream for stdin/stdout/stderr (may be NULL: output
 * collected into the result). */
int py_exec(sbx *h, const char *code, const sbx_py_options *opt, uint64_t flags,
            const char *filename, char *const *argv, const py_stream *stream,
            sbx_py_result **out);

/* ---- py_loan.c -------------------------------------------------------------------- */

/* The loan's side of sandbox_lock / sandbox_unlock (registered in the
 * handle's py_section): 1 when the public call went on the loan. */
int py_loan_api_enter(sbx *h);
int py_loan_api_leave(sbx *h);

/* Our own store calls: the lock, or on the loan (this thread owns it)
 * taking the store from the FUSE thread. Returns the token for leave. */
int py_store_enter(sbx *h, py_state *ps);
void py_store_leave(sbx *h, py_state *ps, int token);
/* 1 when this thread owns the open loan. */
int py_loan_mine(py_state *ps);
/* A call begins / ends its part in the loan: `command` for python3/tool
 * (their shell holds the store), else a C API call that joins the loan when
 * this thread owns it. */
void py_loan_begin(py_state *ps, int command, py_loan_frame *f);
void py_loan_end(py_state *ps, py_loan_frame *f);
/* Around a wait for the worker: the FUSE thread and nested calls may use
 * the store meanwhile (L4). No-ops for inactive frames. */
void py_loan_release(py_state *ps, py_loan_frame *f);
void py_loan_restore(py_state *ps, py_loan_frame *f);
/* Hands the loan to a runner thread for a callback (when this thread owns
 * it); take_back returns it. revoke_locked (chan_lock held) takes it back
 * for an abandon, or returns 0 when the runner is inside a call (L3). */
int py_loan_pass(py_state *ps, pthread_t to, py_loan_handoff *ho);
void py_loan_take_back(py_state *ps, const py_loan_handoff *ho);
int py_loan_revoke_locked(py_state *ps, const py_loan_handoff *ho);
/* Stops the worker, its jail and its FUSE server (contexts are lost). */
void py_stop_worker(py_state *ps);
/* Brings the jail's view of the store up to date (after host-side writes). */
void py_sync_view(sbx *h, py_state *ps);

/* ---- py_tier.c ------------------------------------------------------------------- */

/* Starts the jail of a new worker on the tier the host allows (full first,
 * then reduced, unless forced or required) and brings it to "ready" with its
 * file view; the caller then waits for HELLO. SBX_OK, or SBX_JAIL with the
 * message set on h. */
int py_tier_start(sbx *h, py_state *ps);
/* The reduced tier's file sync around a call: export before (store ->
 * directory), import after (directory -> store). No-ops on the full tier.
 * Import failures are described in msg ("" when none). */
void py_tier_export(sbx *h, py_state *ps);
void py_tier_import(sbx *h, py_state *ps, char *msg, size_t n);
/* A store path as the worker sees it ("/data" -> "D/data" on the reduced
 * tier), into buf. */
const char *py_tier_path(py_state *ps, const char *path, char *buf, size_t n);
/* An environment entry for the worker: on the reduced tier HOME, TMPDIR,
 * PWD and OLDPWD with an absolute store path are given as the worker's path
 * (docs/python.md); anything else as is. */
const char *py_tier_env(py_state *ps, const char *kv, char *buf, size_t n);
/* Adds to the EXEC frame being built the reduced tier's SBX_ROOT, and
 * TMPDIR when `env` has none (the worker's own would be replaced). */
void py_tier_env_extra(py_state *ps, char *const *env);
/* Brings the jail up for a python3/host program command that has opened the
 * loan and released its holds (py_spawn.c): starts the worker (and with it
 * the fork server) if needed and syncs the jail's view of the store;
 * `restart`: the jail is gone although the worker seemed up (its spawn
 * socket is dead), start a new one. SBX_OK, or an error code with the
 * message on the handle. */
int py_jail_up(sbx *h, py_state *ps, int restart);

/* ---- py_tools.c ------------------------------------------------------------------ */

/* Serves a TOOL_CALL or TOOL_SEARCH from W: replies on the channel. */
void py_tools_serve(sbx *h, const py_msg *m);
/* A tool call as the shell's `tool` command makes it (store_held: the shell
 * holds the store). On failure *result is NULL and msg says why. */
int py_tool_call(sbx *h, const char *name, const char *args, int store_held, char **result,
                 char *msg, size_t msglen);
/* Frees the tool registry and joins the runners. */
void py_tools_free(py_state *ps);
/* Sends one frame on the channel (the caller owns it). 0 or -errno. */
int py_send(py_state *ps);

/* ---- py_schema.c ---------------------------------------------------------------- */

/* 0 when `value` satisfies `schema` (NULL schema: always); else -1 with the
 * reason in err ("$.a[1]: expected string"). */
int py_schema_validate(const json_t *schema, const json_t *value, char *err, size_t errlen);
/* 1 when `schema` is usable (an object or boolean, not nested too deeply). */
int py_schema_check(const json_t *schema);

/* ---- shared helpers ----------------------------------------------------------------- */

/* A malloc'd copy of n bytes with invalid UTF-8 replaced by U+FFFD, so it can
 * go into JSON text. */
char *py_utf8_clean(const char *s, size_t n);

#endif
