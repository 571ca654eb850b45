/*
 * py_int.h - the host side of Python in a sandbox: the per-handle state that
 * src/py/ hangs off `struct sbx` (h->py), shared by python.c (the worker's
 * life and calls), py_tools.c (the tool bridge), py_schema.c and the shell's
 * python3/tool commands.
 *
 * Threads: the handle's user calls in one thread at a time. A tool callback
 * runs on a runner thread of ours while the calling thread waits for it; the
 * worker channel is "lent" to that thread for the time of the callback, so
 * the callback may make nested calls (chan_owner). Everything else in
 * py_state is touched only by the channel's current owner, except the tool
 * runner's job handoff (runner_lock).
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
#include "py/py_proto.h"
#include "sandbox_int.h"
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

/* The tool runner: one thread that runs callbacks one at a time. */
typedef struct py_runner {
  pthread_t thread;       /* the thread */
  pthread_mutex_t lock;   /* guards job, quit and the job's done/abandoned */
  pthread_cond_t cond;    /* job posted, job done, quit */
  py_job *job;            /* the job to run, NULL when idle */
  int quit;               /* 1: exit when idle */
  int busy;               /* 1 while a job runs */
  struct py_runner *next; /* list of runners abandoned after a timeout */
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
  int store_held;           /* 1: the caller's shell holds h->lock (lend it) */
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

  pthread_mutex_t chan_lock; /* guards chan_owner / chan_depth */
  pthread_t chan_owner;     /* thread allowed to use the channel */
  int chan_depth;           /* calls in progress on the channel (nesting) */

  py_tool *tools;           /* declared tools */
  size_t ntools, tools_cap;
  py_runner *runner;        /* the current runner, or NULL before the first call */
  py_runner *abandoned;     /* runners still finishing a timed-out callback */

  /* Store lending (python3/tool commands): the shell holds h->lock for its
   * whole script, so during such a call the store is lent to the FUSE thread
   * instead (fuse_server_config.lent) and our own store calls reclaim it. */
  int lending;              /* 1: the caller's shell owns the store */
  _Atomic int store_lent;   /* the FUSE thread may borrow the store now */
  _Atomic int store_borrowers; /* borrowers inside the store */
} py_state;

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

/* Our own store calls during a Python call: the lock, or (lending) taking
 * the store back from the FUSE thread. */
void py_store_enter(sbx *h, py_state *ps);
void py_store_leave(sbx *h, py_state *ps);
/* Stops the worker, its jail and its FUSE server (contexts are lost). */
void py_stop_worker(py_state *ps);
/* Brings the jail's view of the store up to date (after host-side writes). */
void py_sync_view(sbx *h, py_state *ps);

/* ---- py_tools.c ------------------------------------------------------------------ */

/* Serves a TOOL_CALL or TOOL_SEARCH from W: replies on the channel. */
void py_tools_serve(sbx *h, const py_msg *m);
/* A tool call as the shell's `tool` command makes it (store_held: the shell
 * holds h->lock). On failure *result is NULL and *kind / msg say why. */
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
