/*
 * python.c - the host side of Python calls: starting the worker in its jail
 * with the FUSE server of its root, running calls (timeouts, output limits,
 * nested calls from tool callbacks), contexts, and the history records.
 *
 * One call, as a state machine (per request id):
 *
 *            send EXEC
 *   [sent] ─────────────> [running] ──RESULT──> [done]
 *                           │  ^  TOOL_CALL / TOOL_SEARCH / STDIN_READ:
 *                           │  └─ served here, reply sent, still running
 *                           │ deadline
 *                           v
 *                      [interrupted] ──RESULT──> [done: timeout, context kept]
 *                           ^ also: sbx_cancel (h->py_cancels changed), the
 *                           │ on_output callback or the stream asked to stop
 *                           │ grace passed, or EOF, or a protocol violation
 *                           v
 *                        [killed] ──> jail and FUSE stopped; next call restarts
 *
 * Invariants:
 *  P1. The channel (ctl socket) is used by one thread at a time: the caller,
 *      or the tool runner while the caller waits for a callback, or a python3
 *      command on a pipeline stage of a script that such a runner runs while
 *      the runner waits for that script (chan_owner; chan_enter).
 *  P2. Anything W sends that does not fit the state above (a RESULT for
 *      another id, a frame that does not decode) kills the worker: the jail
 *      may forge messages, the host never guesses.
 *  P3. No Python runs outside the jail: every failure to build it is SBX_JAIL.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "py/py_int.h"

/* A growing output buffer. */
typedef struct py_obuf {
  char *data;   /* bytes (NUL-terminated when non-NULL) */
  size_t len;   /* bytes kept */
  size_t cap;   /* allocated */
} py_obuf;

/* One stream's output when the caller keeps only its head and tail
 * (sbx_py_options.keep_output): the head fills `out`/`err` of the call, the
 * last bytes go round a ring, and the bytes in between are only counted. */
typedef struct py_trim {
  size_t head_max; /* bytes of the head (0: not trimming) */
  char *ring;      /* the tail ring (malloc'd), ring_max bytes */
  size_t ring_max; /* its size */
  size_t ring_pos; /* where the next byte goes */
  size_t ring_len; /* bytes in it (<= ring_max) */
  uint64_t total;  /* bytes the stream produced */
} py_trim;

/* The state of one call while it runs. */
typedef struct py_call {
  uint32_t id;              /* request id */
  double deadline;          /* monotonic seconds: interrupt */
  double grace;             /* seconds from the interrupt to the kill */
  double kill_at;           /* monotonic seconds: kill (after the interrupt) */
  int interrupted;          /* the interrupt was sent */
  int why_interrupt;        /* SBX_PY_TIMEOUT, SBX_PY_OUTPUT_LIMIT or SBX_PY_CANCELED */
  unsigned cancels;         /* h->py_cancels when the call began */
  uint64_t produced;        /* bytes of stdout+stderr the code wrote */
  int (*on_output)(void *, int, const char *, size_t); /* sbx_py_options.on_output */
  void *on_output_ud;
  int output_stop; /* on_output asked to stop the code */
  py_trim trim[2]; /* stdout, stderr (keep_output) */
  py_obuf images;  /* PNG images from RESULT: u64 length + bytes each */
  size_t nimages;
  uint64_t max_output;      /* bytes of stdout+stderr kept */
  int output_over;          /* more output than max_output came */
  sbx *h;                   /* the sandbox */
  const py_stream *stream;  /* streaming output/stdin, or NULL; its callbacks
                               run the caller's shell, so they hold the store */
  int stream_broken;        /* the stream's write failed: output dropped */
  py_obuf out, err;         /* collected output */
  /* From RESULT: */
  int done;                 /* RESULT received */
  int killed;               /* the worker was stopped during the call */
  char *kill_reason;        /* why (malloc'd) */
  uint64_t status, exit_code;
  char *errkind, *errtype, *message, *traceback, *repr; /* malloc'd or NULL */
} py_call;

double py_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *py_utf8_clean(const char *s, size_t n) {
  /* Worst case: every byte becomes U+FFFD (3 bytes). */
  char *o = malloc(n * 3 + 1), *p = o;
  if (!o) return NULL;
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    unsigned c = u[i];
    size_t need = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 9;
    int ok = need != 9 && c != 0 && i + need < n + (need == 0);
    uint32_t cp = need == 0 ? c : need == 1 ? c & 0x1f : need == 2 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; ok && k <= need; k++) {
      if (i + k >= n || (u[i + k] & 0xc0) != 0x80) ok = 0;
      else cp = cp << 6 | (u[i + k] & 0x3f);
    }
    static const uint32_t minv[] = {0, 0x80, 0x800, 0x10000};
    if (ok && need && (cp < minv[need] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = 0;
    if (!ok) {
      memcpy(p, "\xef\xbf\xbd", 3);
      p += 3;
      i++;
      continue;
    }
    memcpy(p, s + i, need + 1);
    p += need + 1;
    i += need + 1;
  }
  *p = 0;
  return o;
}

/* ---- state and channel ------------------------------------------------------------ */

py_state *py_state_get(sbx *h) {
  if (h->py) return h->py;
  py_state *ps = calloc(1, sizeof *ps);
  if (!ps) return NULL;
  ps->msg = malloc(sizeof *ps->msg);
  if (!ps->msg) {
    free(ps);
    return NULL;
  }
  jail_init(&ps->j);
  pthread_mutex_init(&ps->chan_lock, NULL);
  pthread_mutex_init(&ps->runners_lock, NULL);
  static const sandbox_section section = {py_sandbox_close, py_loan_api_enter,
                                          py_loan_api_leave};
  h->py = ps;
  h->py_section = &section;
  return ps;
}

/* Takes the channel (P1): free, or already ours (a nested call), or - for a
 * python3 command (`command`) - held by the thread that entered the running
 * shell, which waits for us: the command runs on a pipeline stage's thread of
 * a script that a tool callback started. *saved gets the owner to restore. */
static int chan_enter(sbx *h, py_state *ps, int command, pthread_t *saved) {
  int ok = 0;
  pthread_t self = pthread_self();
  pthread_mutex_lock(&ps->chan_lock);
  *saved = self;
  if (ps->chan_depth == 0) {
    ps->chan_owner = self;
    ps->chan_depth = 1;
    ok = 1;
  } else if (ps->chan_depth < PY_MAX_DEPTH &&
             (pthread_equal(ps->chan_owner, self) ||
              (command && h->shell_depth > 0 && pthread_equal(ps->chan_owner, h->shell_thread)))) {
    *saved = ps->chan_owner;
    ps->chan_owner = self;
    ps->chan_depth++;
    ok = 1;
  }
  pthread_mutex_unlock(&ps->chan_lock);
  return ok;
}

static void chan_leave(py_state *ps, pthread_t saved) {
  pthread_mutex_lock(&ps->chan_lock);
  ps->chan_depth--;
  ps->chan_owner = saved;
  pthread_mutex_unlock(&ps->chan_lock);
}

void py_sync_view(sbx *h, py_state *ps) {
  if (ps->mirror) py_tier_export(h, ps);
  if (!ps->fuse) return;
  int t = py_store_enter(h, ps);
  int stale = fuse_server_stale(ps->fuse);
  py_store_leave(h, ps, t);
  if (stale) {
    fuse_server_invalidate(ps->fuse);
    ps->view_moved = 1;
  }
}

void py_stop_worker(py_state *ps) {
  jail_stop(&ps->j, 2000);
  fuse_server_stop(ps->fuse);
  ps->fuse = NULL;
  py_reader_free(&ps->rd);
  py_buf_free(&ps->out);
  ps->running = 0;
}

int py_send(py_state *ps) {
  size_t off = 0;
  int rc = 0;
  double deadline = py_now() + 30;
  while (off < ps->out.len) {
    /* send(MSG_NOSIGNAL): a dead worker must not SIGPIPE the host. */
    ssize_t w = send(ps->j.ctl_fd, ps->out.data + off, ps->out.len - off, MSG_NOSIGNAL);
    if (w >= 0) {
      off += (size_t)w;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      rc = -errno;
      break;
    }
    /* W is not reading (busy or stuck): wait, but not forever. */
    struct pollfd p = {ps->j.ctl_fd, POLLOUT, 0};
    double left = deadline - py_now();
    if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) == 0) {
      rc = -ETIMEDOUT;
      break;
    }
  }
  ps->out.len = 0;
  return rc;
}

/* ---- starting the worker --------------------------------------------------------------- */

/* /tmp and /data exist in every sandbox that runs Python (as the shell expects). */
static void ensure_dirs(sbx *h, py_state *ps) {
  int t = py_store_enter(h, ps);
  store_stat st;
  if (store_path_lstat(h->st, "/", "/tmp", &st) == -ENOENT &&
      store_path_mkdir(h->st, "/", "/tmp", 01777) == 0)
    store_path_chmod(h->st, "/", "/tmp", 01777);
  if (store_path_lstat(h->st, "/", "/data", &st) == -ENOENT) store_path_mkdir(h->st, "/", "/data", 0755);
  py_store_leave(h, ps, t);
}

static void read_stderr_tail(py_state *ps, char *buf, size_t n) {
  buf[0] = 0;
  if (ps->j.err_fd < 0) return;
  ssize_t r = read(ps->j.err_fd, buf, n - 1);
  if (r <= 0) return;
  buf[r] = 0;
  /* The last non-empty line: a one-line message, or a traceback's error. */
  while (r > 0 && buf[r - 1] == '\n') buf[--r] = 0;
  char *nl = strrchr(buf, '\n');
  if (nl) memmove(buf, nl + 1, strlen(nl + 1) + 1);
}

/* Reads frames until one decodes (1), EOF/error (-1) or the deadline (0). */
static int read_msg(py_state *ps, double deadline) {
  for (;;) {
    const uint8_t *body;
    size_t len;
    int r = py_reader_frame(&ps->rd, &body, &len);
    if (r < 0) return -1;
    if (r == 1) return py_msg_decode(body, len, 1, ps->msg) == 0 ? 1 : -1;
    double left = deadline - py_now();
    if (left <= 0) return 0;
    struct pollfd p = {ps->j.ctl_fd, POLLIN, 0};
    int pr = poll(&p, 1, (int)(left * 1000) + 1);
    if (pr < 0 && errno != EINTR) return -1;
    if (pr <= 0) continue;
    ssize_t n = py_reader_fill(&ps->rd, ps->j.ctl_fd);
    if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR)) return -1;
  }
}

static int start_worker(sbx *h, py_state *ps) {
  if (h->sealed) /* the shell's helper process (SBX_OPEN_PROCESS) can exec nothing */
    return sandbox_fail(h, SBX_JAIL, "python: not available in a process-isolated shell");
  ensure_dirs(h, ps);
  int rc = py_tier_start(h, ps);
  if (rc) return rc;
  fcntl(ps->j.ctl_fd, F_SETFL, O_NONBLOCK);
  fcntl(ps->j.out_fd, F_SETFL, O_NONBLOCK);
  fcntl(ps->j.err_fd, F_SETFL, O_NONBLOCK);
  int r = read_msg(ps, py_now() + 15);
  if (r != 1 || ps->msg->type != PY_MSG_HELLO ||
      py_msg_u64(ps->msg, PY_T_VERSION, 0) != PY_PROTO_VERSION) {
    char tail[256];
    usleep(20000);
    read_stderr_tail(ps, tail, sizeof tail);
    py_stop_worker(ps);
    return sandbox_fail(h, SBX_JAIL, "python: the worker did not start in the jail%s%s",
                        tail[0] ? ": " : "", tail);
  }
  ps->running = 1;
  return SBX_OK;
}

/* ---- one call ------------------------------------------------------------------------------ */

static void obuf_add(py_obuf *b, const char *data, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) return; /* keep what we have */
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = 0;
}

/* Adds produced bytes to a trimmed stream (py_trim). */
static void trim_add(py_trim *t, py_obuf *head, const char *data, size_t n) {
  t->total += n;
  if (head->len < t->head_max) {
    size_t k = n < t->head_max - head->len ? n : t->head_max - head->len;
    obuf_add(head, data, k);
    data += k;
    n -= k;
  }
  if (!n || !t->ring) return;
  if (n > t->ring_max) { /* only the last ring_max bytes can stay */
    data += n - t->ring_max;
    n = t->ring_max;
  }
  size_t first = t->ring_max - t->ring_pos < n ? t->ring_max - t->ring_pos : n;
  memcpy(t->ring + t->ring_pos, data, first);
  memcpy(t->ring, data + first, n - first);
  t->ring_pos = (t->ring_pos + n) % t->ring_max;
  t->ring_len = t->ring_len + n > t->ring_max ? t->ring_max : t->ring_len + n;
}

/* The trimmed stream's head, the marker line when bytes were left out, then
 * the tail, into `head` (which becomes the call's whole output). */
static void trim_finish(py_trim *t, py_obuf *head) {
  if (!t->ring) return;
  uint64_t left_out = t->total - head->len - t->ring_len;
  if (left_out) {
    char mark[96];
    int n = snprintf(mark, sizeof mark, "%s[... %llu bytes of output left out ...]\n",
                     head->len && head->data[head->len - 1] != '\n' ? "\n" : "",
                     (unsigned long long)left_out);
    obuf_add(head, mark, (size_t)n);
  }
  size_t start = (t->ring_pos + t->ring_max - t->ring_len) % t->ring_max;
  size_t first = t->ring_max - start < t->ring_len ? t->ring_max - start : t->ring_len;
  obuf_add(head, t->ring + start, first);
  obuf_add(head, t->ring, t->ring_len - first);
  free(t->ring);
  t->ring = NULL;
}

/* Drains what the pipes hold now (non-blocking). */
static void drain_output(py_state *ps, py_call *c) {
  int fds[2] = {ps->j.out_fd, ps->j.err_fd};
  char buf[65536];
  for (int i = 0; i < 2; i++) {
    for (;;) {
      ssize_t r = read(fds[i], buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      if (c->stream) {
        if (!c->stream_broken) {
          int t = py_store_enter(c->h, ps);
          if (c->stream->write(c->stream->ud, i + 1, buf, (size_t)r) < 0) c->stream_broken = 1;
          py_store_leave(c->h, ps, t);
        }
        /* Streamed output is kept only as far as the history record shows it. */
        py_obuf *hb = i == 0 ? &c->out : &c->err;
        if (hb->len < PY_HISTORY_MAX)
          obuf_add(hb, buf, (size_t)r < PY_HISTORY_MAX - hb->len ? (size_t)r : PY_HISTORY_MAX - hb->len);
        continue;
      }
      py_obuf *b = i == 0 ? &c->out : &c->err;
      if (c->on_output && !c->output_stop &&
          c->on_output(c->on_output_ud, i + 1, buf, (size_t)r))
        c->output_stop = 1;
      if (c->trim[i].head_max) {
        /* The stored output is bounded by the trim; the limit counts every byte. */
        c->produced += (uint64_t)r;
        if (c->produced > c->max_output) c->output_over = 1;
        trim_add(&c->trim[i], b, buf, (size_t)r);
        continue;
      }
      size_t used = c->out.len + c->err.len, keep = (size_t)r;
      if (used + keep > c->max_output) {
        keep = used >= c->max_output ? 0 : (size_t)(c->max_output - used);
        c->output_over = 1;
      }
      if (keep) obuf_add(b, buf, keep);
    }
  }
}

static void call_kill(py_state *ps, py_call *c, const char *why) {
  if (!c->kill_reason) c->kill_reason = strdup(why);
  drain_output(ps, c);
  py_stop_worker(ps);
  c->killed = 1;
}

static void take_result(py_state *ps, py_call *c) {
  const py_msg *m = ps->msg;
  c->status = py_msg_u64(m, PY_T_STATUS, 1);
  c->exit_code = py_msg_u64(m, PY_T_EXIT, 0);
  c->errkind = py_msg_strdup(m, PY_T_ERRKIND);
  c->errtype = py_msg_strdup(m, PY_T_ERRTYPE);
  c->message = py_msg_strdup(m, PY_T_MESSAGE);
  c->traceback = py_msg_strdup(m, PY_T_TRACEBACK);
  c->repr = py_msg_strdup(m, PY_T_REPR);
  for (uint32_t i = 0; i < m->nfields; i++) {
    if (m->fields[i].tag != PY_T_DATA) continue;
    uint64_t len = m->fields[i].len;
    obuf_add(&c->images, (const char *)&len, sizeof len);
    obuf_add(&c->images, (const char *)m->fields[i].data, m->fields[i].len);
    c->nimages++;
  }
  c->done = 1;
}

static void serve_stdin(py_state *ps, py_call *c) {
  uint64_t want = py_msg_u64(ps->msg, PY_T_MAX, 0);
  if (want > (1u << 20)) want = 1u << 20;
  char *buf = malloc(want ? want : 1);
  ssize_t got = 0;
  if (buf && c->stream && c->stream->read && want) {
    int t = py_store_enter(c->h, ps);
    got = c->stream->read(c->stream->ud, buf, want);
    py_store_leave(c->h, ps, t);
    if (got < 0) got = 0;
  }
  py_msg_begin(&ps->out, PY_MSG_STDIN_DATA, ps->msg->id);
  py_msg_add(&ps->out, PY_T_DATA, buf ? buf : "", (size_t)got);
  py_msg_end(&ps->out);
  free(buf);
  if (py_send(ps)) call_kill(ps, c, "the worker stopped reading its channel");
}

/* The wait loop of one call: serves the worker until RESULT or a kill. */
static void run_call(sbx *h, py_state *ps, py_call *c) {
  while (!c->done && !c->killed) {
    double t = py_now();
    int cancel = 0;
    if (c->stream && c->stream->cancelled) {
      int tk = py_store_enter(h, ps);
      cancel = c->stream->cancelled(c->stream->ud);
      py_store_leave(h, ps, tk);
    }
    int api_cancel = atomic_load(&h->py_cancels) != c->cancels || c->output_stop;
    if (!c->interrupted && (t >= c->deadline || c->output_over || c->stream_broken ||
                            cancel || api_cancel)) {
      c->interrupted = 1;
      /* A streamed call (the python3 command) reports any stop as its shell
       * does: a timeout. */
      c->why_interrupt = c->output_over ? SBX_PY_OUTPUT_LIMIT
                         : api_cancel && t < c->deadline && !c->stream ? SBX_PY_CANCELED
                                                                       : SBX_PY_TIMEOUT;
      c->kill_at = t + c->grace;
      jail_interrupt(&ps->j, c->id);
    }
    if (c->interrupted && t >= c->kill_at) {
      call_kill(
          ps, c,
          c->why_interrupt == SBX_PY_OUTPUT_LIMIT
              ? "the output limit was passed and the code did not stop"
          : c->why_interrupt == SBX_PY_CANCELED
              ? "cancelled, and the interrupt did not stop the code"
              : "the time limit was passed and the interrupt did not stop the code");
      break;
    }
    /* Serve frames already buffered before polling. */
    const uint8_t *body;
    size_t len;
    int fr = py_reader_frame(&ps->rd, &body, &len);
    if (fr < 0 || (fr == 1 && py_msg_decode(body, len, 1, ps->msg) != 0)) {
      call_kill(ps, c, "the worker sent a malformed message");
      break;
    }
    if (fr == 1) {
      const py_msg *m = ps->msg;
      if (m->type == PY_MSG_RESULT && m->id == c->id) {
        take_result(ps, c);
      } else if (m->type == PY_MSG_TOOL_CALL || m->type == PY_MSG_TOOL_SEARCH) {
        /* The reduced tier: the tool sees what the code wrote so far. */
        char imp[256];
        py_tier_import(h, ps, imp, sizeof imp);
        if (imp[0]) obuf_add(&c->err, imp, strlen(imp));
        py_tools_serve(h, m);
        if (!ps->running) {
          c->killed = 1;
          if (!c->kill_reason) c->kill_reason = strdup("the worker stopped during a tool call");
        }
      } else if (m->type == PY_MSG_STDIN_READ) {
        serve_stdin(ps, c);
      } else {
        call_kill(ps, c, "the worker sent an unexpected message");
      }
      continue;
    }
    double until = c->interrupted ? c->kill_at : c->deadline;
    double left = until - py_now();
    if (left < 0) left = 0;
    if (left > 0.05) left = 0.05; /* see sbx_cancel and the stream's cancel */
    struct pollfd p[3] = {{ps->j.ctl_fd, POLLIN, 0}, {ps->j.out_fd, POLLIN, 0}, {ps->j.err_fd, POLLIN, 0}};
    int pr = poll(p, 3, (int)(left * 1000) + 1);
    if (pr < 0 && errno != EINTR) {
      call_kill(ps, c, "poll failed");
      break;
    }
    if (pr <= 0) continue;
    if (p[1].revents || p[2].revents) drain_output(ps, c);
    if (p[0].revents) {
      ssize_t n = py_reader_fill(&ps->rd, ps->j.ctl_fd);
      if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR)) {
        /* EOF: W is gone. Its exit status says how, unless the jail's
         * memory limit killed it (asked before the jail is torn down). */
        drain_output(ps, c);
        char mem[256];
        if (jail_memory_killed(&ps->j, mem, sizeof mem) && !c->kill_reason)
          c->kill_reason = strdup(mem);
        py_stop_worker(ps);
        c->killed = 1;
        int st = ps->j.wait_status;
        char why[160];
        if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) > 128)
          snprintf(why, sizeof why, "the worker was killed by signal %d (%s)", WEXITSTATUS(st) - 128,
                   strsignal(WEXITSTATUS(st) - 128));
        else if (st >= 0 && WIFEXITED(st))
          snprintf(why, sizeof why, "the worker exited with status %d", WEXITSTATUS(st));
        else
          snprintf(why, sizeof why, "the worker ended");
        if (!c->kill_reason) c->kill_reason = strdup(why);
      }
    }
  }
  if (c->done && ps->running) drain_output(ps, c);
}

/* ---- the result --------------------------------------------------------------------------------- */

static int kind_code(const py_call *c) {
  if (c->killed) return c->interrupted ? c->why_interrupt : SBX_PY_KILLED;
  const char *k = c->errkind ? c->errkind : "";
  if (c->output_over && c->interrupted) return SBX_PY_OUTPUT_LIMIT;
  if (c->status == 0) return c->output_over ? SBX_PY_OUTPUT_LIMIT : SBX_PY_OK;
  if (strcmp(k, "syntax") == 0) return SBX_PY_SYNTAX;
  if (strcmp(k, "interrupt") == 0) return c->interrupted ? c->why_interrupt : SBX_PY_EXCEPTION;
  if (strcmp(k, "memory") == 0) return SBX_PY_MEMORY;
  if (strcmp(k, "cpu") == 0) return SBX_PY_CPU;
  if (strcmp(k, "exit") == 0) return SBX_PY_EXIT;
  if (strcmp(k, "protected") == 0) return SBX_PY_PROTECTED;
  if (strcmp(k, "preload") == 0) return SBX_PY_PRELOAD;
  if (strcmp(k, "cwd") == 0) return SBX_PY_CWD;
  return SBX_PY_EXCEPTION;
}

static size_t slen(const char *s) { return s ? strlen(s) + 1 : 0; }

static char *put(char **p, const char *s, size_t n) {
  if (!s) return NULL;
  char *d = *p;
  memcpy(d, s, n);
  d[n] = 0;
  *p += n + 1;
  return d;
}

static sbx_py_result *make_result(py_call *c, double ms) {
  int code = kind_code(c);
  const char *message = c->message;
  char buf[256];
  if (c->killed) {
    message = c->kill_reason ? c->kill_reason : "the worker was stopped";
  } else if (code == SBX_PY_TIMEOUT && !message) {
    message = "interrupted by the time limit";
  }
  if (code == SBX_PY_OUTPUT_LIMIT) {
    snprintf(buf, sizeof buf, "output passed the limit of %llu bytes (truncated)",
             (unsigned long long)c->max_output);
    message = buf;
  } else if (code == SBX_PY_TIMEOUT && !c->killed) {
    snprintf(buf, sizeof buf, "interrupted after the time limit (the context is kept)");
    message = buf;
  } else if (code == SBX_PY_CANCELED && !c->killed) {
    snprintf(buf, sizeof buf, "cancelled: interrupted (the context is kept)");
    message = buf;
  }
  const char *etype = c->killed ? NULL : c->errtype;
  if (code == SBX_PY_TIMEOUT) etype = "TimeoutError";
  if (code == SBX_PY_CANCELED) etype = "CancelledError";
  for (int i = 0; i < 2; i++) trim_finish(&c->trim[i], i == 0 ? &c->out : &c->err);
  size_t total = sizeof(sbx_py_result) + c->nimages * sizeof(sbx_py_image) +
                 c->images.len + c->out.len + 1 + c->err.len + 1 + slen(c->repr) +
                 slen(etype) + slen(message) + slen(c->killed ? NULL : c->traceback);
  sbx_py_result *r = malloc(total);
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  char *p = (char *)(r + 1);
  if (c->nimages) {
    r->images = (sbx_py_image *)p;
    r->nimages = c->nimages;
    p += c->nimages * sizeof(sbx_py_image);
    const char *q = c->images.data;
    for (size_t i = 0; i < c->nimages; i++) {
      uint64_t len;
      memcpy(&len, q, sizeof len);
      q += sizeof len;
      memcpy(p, q, (size_t)len);
      r->images[i] = (sbx_py_image){"image/png", (const unsigned char *)p, (size_t)len};
      p += len;
      q += len;
    }
  }
  r->out = put(&p, c->out.data ? c->out.data : "", c->out.len);
  r->out_len = c->out.len;
  r->err = put(&p, c->err.data ? c->err.data : "", c->err.len);
  r->err_len = c->err.len;
  r->repr = c->repr && c->repr[0] ? put(&p, c->repr, strlen(c->repr)) : NULL;
  r->error_type = code != SBX_PY_OK ? put(&p, etype, etype ? strlen(etype) : 0) : NULL;
  r->error_message = code != SBX_PY_OK ? put(&p, message, message ? strlen(message) : 0) : NULL;
  const char *tb = c->killed ? NULL : c->traceback;
  r->traceback = code != SBX_PY_OK && tb && tb[0] ? put(&p, tb, strlen(tb)) : NULL;
  r->error = code;
  r->exit_code = (int)c->exit_code;
  r->killed = c->killed;
  r->duration_ms = ms;
  return r;
}

static void call_free(py_call *c) {
  for (int i = 0; i < 2; i++) free(c->trim[i].ring);
  free(c->images.data);
  free(c->out.data);
  free(c->err.data);
  free(c->kill_reason);
  free(c->errkind);
  free(c->errtype);
  free(c->message);
  free(c->traceback);
  free(c->repr);
}

/* ---- history ----------------------------------------------------------------------------------- */

static char *json_text(json_t *v) {
  char *s = v ? json_dumps(v, JSON_COMPACT) : NULL;
  json_decref(v);
  return s;
}

static json_t *clean_string(const char *s, size_t n) {
  if (n > PY_HISTORY_MAX) n = PY_HISTORY_MAX;
  char *c = py_utf8_clean(s ? s : "", s ? n : 0);
  json_t *j = c ? json_string(c) : NULL;
  free(c);
  return j ? j : json_string("");
}

static int64_t history_start(sbx *h, const char *code, const char *ctx, const char *cwd,
                             char *const *argv) {
  json_t *p = json_object();
  json_object_set_new(p, "code", clean_string(code, strlen(code)));
  json_object_set_new(p, "context", json_string(ctx));
  if (cwd) json_object_set_new(p, "cwd", clean_string(cwd, strlen(cwd)));
  if (argv) {
    json_t *a = json_array();
    for (size_t i = 0; argv[i] && i < 256; i++) json_array_append_new(a, clean_string(argv[i], strlen(argv[i])));
    json_object_set_new(p, "argv", a);
  }
  char *text = json_text(p);
  int64_t id = -1;
  if (text) {
    int t = py_store_enter(h, h->py);
    uint64_t g = store_generation(h->st);
    if (store_call_start(h->st, "python", text, &id) < 0) id = -1;
    py_mirror_known_write(h->py->mirror, g, store_generation(h->st));
    py_store_leave(h, h->py, t);
  }
  free(text);
  return id;
}

static const char *const kind_names[] = {
    "ok",  "syntax", "exception", "timeout", "memory", "killed",   "output_limit",
    "cpu", "exit",   "protected", "preload", "cwd",    "cancelled"};

static void history_finish(sbx *h, int64_t id, const sbx_py_result *r) {
  if (id < 0 || !r) return;
  json_t *o = json_object();
  json_object_set_new(o, "stdout", clean_string(r->out, r->out_len));
  json_object_set_new(o, "stderr", clean_string(r->err, r->err_len));
  json_object_set_new(o, "repr", r->repr ? clean_string(r->repr, strlen(r->repr)) : json_null());
  json_object_set_new(o, "exit_code", json_integer(r->exit_code));
  char *text = json_text(o), *err = NULL;
  if (r->error != SBX_PY_OK) {
    size_t n = strlen(r->error_message ? r->error_message : "") + 64;
    err = malloc(n);
    if (err)
      snprintf(err, n, "[%s] %s%s%s", kind_names[r->error], r->error_type ? r->error_type : "",
               r->error_type ? ": " : "", r->error_message ? r->error_message : "");
  }
  int t = py_store_enter(h, h->py);
  uint64_t g = store_generation(h->st);
  store_call_finish(h->st, id, err ? NULL : text, err);
  py_mirror_known_write(h->py->mirror, g, store_generation(h->st));
  py_store_leave(h, h->py, t);
  free(text);
  free(err);
}

/* ---- the public calls -------------------------------------------------------------------------- */

static int check_context_name(sbx *h, const char *name) {
  if (!name || !*name) return sandbox_fail(h, SBX_MISUSE, "python: the context name is empty");
  if (strlen(name) > 128) return sandbox_fail(h, SBX_MISUSE, "python: the context name is longer than 128 bytes");
  char *c = py_utf8_clean(name, strlen(name));
  int ok = c && strcmp(c, name) == 0;
  free(c);
  if (!ok) return sandbox_fail(h, SBX_MISUSE, "python: the context name is not valid UTF-8");
  return SBX_OK;
}

/* A call's hold on the channel and its part in the loan (enter .. leave). */
typedef struct py_entry {
  pthread_t chan_saved;   /* the channel's owner to restore */
  py_loan_frame loan;     /* py_loan.c */
} py_entry;

/* Ends a call: restores its holds on the store, leaves the loan, frees the
 * channel. */
static void leave(py_state *ps, py_entry *e) {
  py_loan_restore(ps, &e->loan);
  py_loan_end(ps, &e->loan);
  chan_leave(ps, e->chan_saved);
}

/* Takes the channel and makes sure a worker is up. `command`: the python3
 * command, whose shell holds the store (it opens or joins the loan). While
 * the call runs its holds on the store are released (L4 of py_loan.c). */
static int enter(sbx *h, py_state **out, int command, py_entry *e) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!h->st) return sandbox_fail(h, SBX_MISUSE, "the sandbox is not open");
  py_state *ps = py_state_get(h);
  if (!ps) return sandbox_fail(h, SBX_NOMEM, "python: out of memory");
  if (!chan_enter(h, ps, command, &e->chan_saved))
    return sandbox_fail(h, SBX_MISUSE, "python: another thread is running Python in this sandbox");
  py_loan_begin(ps, command, &e->loan);
  py_loan_release(ps, &e->loan);
  if (!ps->running) {
    int rc = start_worker(h, ps);
    if (rc) {
      leave(ps, e);
      return rc;
    }
  }
  py_sync_view(h, ps);
  *out = ps;
  return SBX_OK;
}

int py_jail_up(sbx *h, py_state *ps, int restart) {
  if (restart && ps->running) {
    /* The jail went away under a running worker (killed from outside):
     * start a new one, unless a call is inside the worker now. */
    pthread_t saved;
    if (!chan_enter(h, ps, 1, &saved))
      return sandbox_fail(h, SBX_MISUSE, "python: another thread is running Python in this sandbox");
    int busy = ps->chan_depth > 1;
    if (!busy) py_stop_worker(ps);
    chan_leave(ps, saved);
    if (busy) return sandbox_fail(h, SBX_JAIL, "the jail ended while Python was running in it");
  }
  if (!ps->running) {
    pthread_t saved;
    if (!chan_enter(h, ps, 1, &saved))
      return sandbox_fail(h, SBX_MISUSE, "python: another thread is running Python in this sandbox");
    int rc = ps->running ? SBX_OK : start_worker(h, ps);
    chan_leave(ps, saved);
    if (rc) return rc;
  }
  py_sync_view(h, ps);
  return SBX_OK;
}

int py_exec(sbx *h, const char *code, const sbx_py_options *opt, uint64_t flags,
            const char *filename, char *const *argv, const py_stream *stream,
            sbx_py_result **out) {
  if (out) *out = NULL;
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!code || !out) return sandbox_fail(h, SBX_MISUSE, "python: code and out must not be NULL");
  sbx_py_options none;
  memset(&none, 0, sizeof none);
  if (!opt) opt = &none;
  const char *ctx = opt->context ? opt->context : "default";
  int rc = check_context_name(h, ctx);
  if (rc) return rc;
  if (strlen(code) > PY_PROTO_MAX_FRAME - 65536)
    return sandbox_fail(h, SBX_MISUSE, "python: the code is larger than 16 MiB");
  if (opt->timeout < 0 || opt->grace < 0 || isnan(opt->timeout) || isnan(opt->grace))
    return sandbox_fail(h, SBX_MISUSE, "python: negative timeout");
  size_t nargs = 0;
  for (; argv && argv[nargs]; nargs++)
    if (strlen(argv[nargs]) > 128 * 1024)
      return sandbox_fail(h, SBX_MISUSE, "python: argument %zu is longer than 128 KiB", nargs);
  if (nargs > PY_MAX_ARGS)
    return sandbox_fail(h, SBX_MISUSE, "python: argument list too long (more than %d arguments)",
                        PY_MAX_ARGS);
  py_state *ps;
  py_entry e;
  /* Read before the worker starts: a cancel while it starts counts too. */
  unsigned cancels = atomic_load(&h->py_cancels);
  if ((rc = enter(h, &ps, stream && stream->store_held, &e))) return rc;

  double t0 = py_now();
  py_call c;
  memset(&c, 0, sizeof c);
  c.id = ++ps->next_id ? ps->next_id : ++ps->next_id;
  double timeout = opt->timeout > 0 ? opt->timeout : PY_DEFAULT_TIMEOUT;
  c.deadline = t0 + (timeout > 1e7 ? 1e7 : timeout);
  c.grace = opt->grace > 0 ? (opt->grace > 3600 ? 3600 : opt->grace) : PY_DEFAULT_GRACE;
  c.max_output = opt->max_output ? opt->max_output : PY_DEFAULT_OUTPUT;
  c.stream = stream;
  c.h = h;
  c.cancels = cancels;
  c.on_output = opt->on_output;
  c.on_output_ud = opt->on_output_ud;
  if (opt->keep_output && !stream) {
    uint64_t keep = opt->keep_output < 2            ? 2
                    : opt->keep_output > (1u << 30) ? 1u << 30
                                                    : opt->keep_output;
    for (int i = 0; i < 2; i++) {
      c.trim[i].ring_max = (size_t)(keep / 2);
      c.trim[i].head_max = (size_t)(keep - keep / 2);
      c.trim[i].ring = malloc(c.trim[i].ring_max);
      if (!c.trim[i].ring) {
        call_free(&c);
        leave(ps, &e);
        return sandbox_fail(h, SBX_NOMEM, "python: out of memory");
      }
    }
  }
  int64_t hid = history_start(h, code, ctx, opt->cwd, argv);

  const char *cwd = opt->cwd;
  if (!cwd) {
    store_stat st;
    int t = py_store_enter(h, ps);
    cwd = store_path_stat(h->st, "/", "/data", &st) == 0 && S_ISDIR(st.mode) ? "/data" : "/";
    py_store_leave(h, ps, t);
  }
  uint64_t f = flags & (PY_EXEC_SCRIPT | PY_EXEC_MODULE | PY_EXEC_STDIN | PY_EXEC_FILE);
  if (stream && stream->env) f |= PY_EXEC_ENV;
  if (!opt->no_repr && !(flags & (PY_EXEC_SCRIPT | PY_EXEC_MODULE))) f |= PY_EXEC_REPR;
  if (ps->fuse && !ps->view_moved) f |= PY_EXEC_VIEW;
  ps->view_moved = 0;
  py_msg_begin(&ps->out, PY_MSG_EXEC, c.id);
  py_msg_add_str(&ps->out, PY_T_CTX, ctx);
  py_msg_add_str(&ps->out, PY_T_CODE, code);
  char cwdbuf[2 * STORE_PATH_MAX];
  py_msg_add_str(&ps->out, PY_T_CWD, py_tier_path(ps, cwd, cwdbuf, sizeof cwdbuf));
  if (filename) py_msg_add_str(&ps->out, PY_T_FILENAME, filename);
  py_msg_add_u64(&ps->out, PY_T_FLAGS, f);
  uint64_t mem = opt->max_memory ? opt->max_memory : PY_CALL_MEMORY;
  py_msg_add_u64(&ps->out, PY_T_MEM, mem);
  /* The same bound for all the jail's processes together (RLIMIT_AS, which
   * W sets from PY_T_MEM, is per process). */
  jail_set_memory(&ps->j, mem);
  if (opt->max_cpu) py_msg_add_u64(&ps->out, PY_T_CPU, opt->max_cpu);
  for (size_t i = 0; argv && argv[i]; i++) py_msg_add_str(&ps->out, PY_T_ARG, argv[i]);
  for (size_t i = 0; opt->preload && opt->preload[i] && i < 256; i++)
    py_msg_add_str(&ps->out, PY_T_PRELOAD, opt->preload[i]);
  /* The environment, as far as the frame's field count allows (a shell has
   * a few dozen variables; a script with more gets the first ones). */
  size_t nfields = nargs;
  for (size_t i = 0; stream && stream->env && stream->env[i] && nfields < PY_PROTO_MAX_FIELDS - 16; i++) {
    if (strlen(stream->env[i]) > 128 * 1024) continue;
    char envbuf[2 * STORE_PATH_MAX];
    const char *kv = py_tier_env(ps, stream->env[i], envbuf, sizeof envbuf);
    py_msg_add(&ps->out, PY_T_ENV, kv, strlen(kv));
    nfields++;
  }
  if (stream && stream->env) py_tier_env_extra(ps, stream->env);
  if (py_msg_end(&ps->out) != 0) {
    leave(ps, &e);
    return sandbox_fail(h, SBX_MISUSE, "python: the request is too large (16 MiB)");
  }
  if (py_send(ps) != 0) call_kill(ps, &c, "the worker stopped reading its channel");
  else run_call(h, ps, &c);
  /* The reduced tier: what the code wrote goes back into the store. */
  char imp[256];
  py_tier_import(h, ps, imp, sizeof imp);
  if (imp[0]) obuf_add(&c.err, imp, strlen(imp));
  sbx_py_result *r = make_result(&c, (py_now() - t0) * 1000);
  call_free(&c);
  if (r) history_finish(h, hid, r);
  leave(ps, &e);
  if (!r) return sandbox_fail(h, SBX_NOMEM, "python: out of memory");
  sandbox_clear_error(h); /* a failed history record is not the call's failure */
  *out = r;
  return SBX_OK;
}

int sbx_python_exec(sbx *h, const char *code, const sbx_py_options *opt, sbx_py_result **out) {
  return py_exec(h, code, opt, 0, NULL, NULL, NULL, out);
}

/* Sends a context request and waits for its RESULT (5 s; the worker answers
 * these without running user code). */
static int ctx_request(sbx *h, uint8_t type, const char *ctx, const char *src, const char *name,
                       const char *json, const char *what) {
  py_state *ps;
  py_entry e;
  int rc = enter(h, &ps, 0, &e);
  if (rc) return rc;
  uint32_t id = ++ps->next_id ? ps->next_id : ++ps->next_id;
  py_msg_begin(&ps->out, type, id);
  py_msg_add_str(&ps->out, PY_T_CTX, ctx);
  if (src) py_msg_add_str(&ps->out, PY_T_SRC, src);
  if (name) py_msg_add_str(&ps->out, PY_T_NAME, name);
  if (json) py_msg_add_str(&ps->out, PY_T_JSON, json);
  if (py_msg_end(&ps->out) != 0) {
    leave(ps, &e);
    return sandbox_fail(h, SBX_MISUSE, "python %s: the request is too large", what);
  }
  py_call c;
  memset(&c, 0, sizeof c);
  c.id = id;
  c.deadline = py_now() + 30;
  c.grace = 1;
  c.max_output = PY_DEFAULT_OUTPUT;
  c.h = h;
  if (py_send(ps) != 0) call_kill(ps, &c, "the worker stopped reading its channel");
  else run_call(h, ps, &c);
  leave(ps, &e);
  if (c.killed || !c.done) {
    rc = sandbox_fail(h, SBX_ERROR, "python %s: %s", what,
                      c.kill_reason ? c.kill_reason : "the worker did not answer");
  } else if (c.status != 0) {
    int notfound = c.errkind && strcmp(c.errkind, "context") == 0 && c.message &&
                   strncmp(c.message, "no context", 10) == 0;
    rc = sandbox_fail(h, notfound ? SBX_NOTFOUND : c.errkind && strcmp(c.errkind, "value") == 0 ? SBX_MISUSE : SBX_ERROR,
                      "python %s: %s", what, c.message ? c.message : "failed");
  }
  call_free(&c);
  return rc;
}

int sbx_python_context_create(sbx *h, const char *name) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  int rc = check_context_name(h, name);
  return rc ? rc : ctx_request(h, PY_MSG_CTX_CREATE, name, NULL, NULL, NULL, "context create");
}

int sbx_python_context_fork(sbx *h, const char *src, const char *name) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  int rc = check_context_name(h, src);
  if (!rc) rc = check_context_name(h, name);
  return rc ? rc : ctx_request(h, PY_MSG_CTX_FORK, name, src, NULL, NULL, "context fork");
}

int sbx_python_context_reset(sbx *h, const char *name) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  int rc = check_context_name(h, name);
  return rc ? rc : ctx_request(h, PY_MSG_CTX_RESET, name, NULL, NULL, NULL, "context reset");
}

int sbx_python_context_delete(sbx *h, const char *name) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  int rc = check_context_name(h, name);
  return rc ? rc : ctx_request(h, PY_MSG_CTX_DELETE, name, NULL, NULL, NULL, "context delete");
}

int sbx_python_set_var(sbx *h, const char *context, const char *name, const char *json) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  const char *ctx = context ? context : "default";
  int rc = check_context_name(h, ctx);
  if (rc) return rc;
  if (!name || !*name || strlen(name) > 255 || !json)
    return sandbox_fail(h, SBX_MISUSE, "python set var: a name (1..255 bytes) and JSON are needed");
  json_error_t je;
  json_t *v = json_loads(json, JSON_DECODE_ANY, &je);
  if (!v) return sandbox_fail(h, SBX_MISUSE, "python set var %s: invalid JSON: %s", name, je.text);
  json_decref(v);
  return ctx_request(h, PY_MSG_SET_VAR, ctx, NULL, name, json, "set var");
}

int sbx_python_protect(sbx *h, const char *context, const char *name) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  const char *ctx = context ? context : "default";
  int rc = check_context_name(h, ctx);
  if (rc) return rc;
  if (!name || !*name || strlen(name) > 255)
    return sandbox_fail(h, SBX_MISUSE, "python protect: the name must be 1..255 bytes");
  return ctx_request(h, PY_MSG_PROTECT, ctx, NULL, name, NULL, "protect");
}

int sbx_python_stop(sbx *h) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  py_state *ps = h->py;
  if (!ps) return SBX_OK;
  pthread_t saved;
  if (!chan_enter(h, ps, 0, &saved))
    return sandbox_fail(h, SBX_MISUSE, "python: another thread is running Python in this sandbox");
  if (ps->chan_depth > 1) {
    chan_leave(ps, saved);
    return sandbox_fail(h, SBX_MISUSE, "python: cannot stop the worker from inside a call");
  }
  if (ps->running) py_stop_worker(ps);
  chan_leave(ps, saved);
  return SBX_OK;
}

static void free_paths(char **paths) {
  for (size_t i = 0; paths && paths[i]; i++) free(paths[i]);
  free(paths);
}

static int same_paths(char **a, const char *const *b) {
  size_t i = 0;
  for (; a && a[i] && b && b[i]; i++)
    if (strcmp(a[i], b[i]) != 0) return 0;
  return !(a && a[i]) && !(b && b[i]);
}

int sbx_python_set_paths(sbx *h, const char *const *dirs) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  size_t n = 0;
  for (; dirs && dirs[n]; n++) {
    const char *d = dirs[n];
    struct stat st;
    if (n == JAIL_MAX_RO_DIRS)
      return sandbox_fail(h, SBX_MISUSE, "python paths: more than %d directories",
                          JAIL_MAX_RO_DIRS);
    if (d[0] != '/' || strlen(d) >= 4096 || strchr(d, ':'))
      return sandbox_fail(h, SBX_MISUSE,
                          "python paths: '%s' is not an absolute path without ':'", d);
    if (stat(d, &st) != 0)
      return sandbox_fail(h, SBX_MISUSE, "python paths: %s: %s", d, strerror(errno));
    if (!S_ISDIR(st.st_mode))
      return sandbox_fail(h, SBX_MISUSE, "python paths: %s: not a directory", d);
  }
  py_state *ps = py_state_get(h);
  if (!ps) return sandbox_fail(h, SBX_NOMEM, "python: out of memory");
  pthread_t saved;
  if (!chan_enter(h, ps, 0, &saved))
    return sandbox_fail(h, SBX_MISUSE,
                        "python: another thread is running Python in this sandbox");
  int rc = SBX_OK;
  if (ps->chan_depth > 1) {
    rc = sandbox_fail(h, SBX_MISUSE,
                      "python paths: cannot change them from inside a call");
  } else if (!same_paths(ps->python_paths, dirs)) {
    char **copy = n ? calloc(n + 1, sizeof *copy) : NULL;
    for (size_t i = 0; copy && i < n; i++)
      if (!(copy[i] = strdup(dirs[i]))) {
        free_paths(copy);
        copy = NULL;
      }
    if (n && !copy) {
      rc = sandbox_fail(h, SBX_NOMEM, "python: out of memory");
    } else {
      if (ps->running) py_stop_worker(ps); /* the jail's mounts are fixed at its start */
      free_paths(ps->python_paths);
      ps->python_paths = copy;
    }
  }
  chan_leave(ps, saved);
  return rc;
}

int sbx_python_cancel(sbx *h) {
  if (!h) return SBX_MISUSE;
  atomic_fetch_add(&h->py_cancels, 1); /* the running call compares (run_call) */
  return SBX_OK;
}

void py_sandbox_close(sbx *h) {
  py_state *ps = h->py;
  if (!ps) return;
  if (ps->running) py_stop_worker(ps);
  py_mirror_free(ps->mirror);
  py_tools_free(ps);
  free_paths(ps->python_paths);
  py_reader_free(&ps->rd);
  py_buf_free(&ps->out);
  pthread_mutex_destroy(&ps->chan_lock);
  pthread_mutex_destroy(&ps->runners_lock);
  for (size_t i = 0; ps->programs && ps->programs[i]; i++) free(ps->programs[i]);
  free(ps->programs);
  free(ps->msg);
  free(ps);
  h->py = NULL;
}
