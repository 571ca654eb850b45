/*
 * py_spawn.c - runs a program in the sandbox's jail for the shell: `python3`
 * (a fresh interpreter per invocation) and host programs (git, make, gcc,
 * node, ...), with their stdin, stdout and stderr streamed through the
 * shell's pipeline and their exit status reported back.
 *
 * The jail's fork server Z (worker/forkserver.py) starts every process. One
 * request is one datagram on the spawn socket carrying the program, its
 * directory, argv and environment, and four fds: the call's own reply socket
 * and three pipes. Z forks a child in a process group of its own; the child
 * either execs the program or, for this interpreter, runs the script itself
 * (a warm interpreter forked per call). Z reports "X <wait status>" on the
 * reply socket once it has reaped the child (and killed what is left of its
 * group); the child itself says "E <errno>" when exec fails.
 *
 *   shell task ──(read stdin)──> in pipe  ──> child fd 0
 *   shell task <──(write 1/2)── out, err pipes <── child fds 1, 2
 *   shell task <── reply socket ── Z ("E n", "X n"); closing it kills the group
 *   shell task <──> tools socket <──> a script run in place: its host_tools
 *                   calls, one JSON line each way, run like the `tool` command
 *
 * Stopping: the shell's cancel, time limits and `timeout` reach us through
 * the io's `cancelled` hook, polled at least every 50 ms; we then send "K"
 * (or just close the reply socket) and Z kills the child's whole process
 * group at once.
 *
 * The store: the shell that runs the command holds it, so the call opens the
 * loan (py_loan.c) and releases its holds while it waits in poll(), so the
 * FUSE server serves the program's file operations meanwhile; every callback
 * into the shell (stdin, output, cancel) runs with the holds restored.
 *
 * Design decision: the pipeline's pipes are the shell's own (in memory), so
 * the bytes are pumped here rather than the shell's fds passed into the jail;
 * writing to a pipe whose reader is gone blocks SIGPIPE for this thread and
 * takes the pending signal back, so the host never dies of it.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <fcntl.h>
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

#define SPAWN_MAX_PROGRAMS 4096
#define SPAWN_MAX_NAME 4096

#define SPAWN_MAX_REQUEST (200u << 10) /* args + environment in one datagram */
#define SPAWN_CHUNK 65536
#define SPAWN_POLL_MS 50
#define SPAWN_KILL_WAIT 2.0 /* seconds a kill waits for Z to reap the program */
#define SPAWN_STDIN_RETRY 0.02 /* seconds between looks at a host stdin that had nothing */

/* One running program: our ends of its fds and what we know of it. */
typedef struct spawn_call {
  int reply;            /* the reply socket, -1 once closed (the kill) */
  int tools;            /* the script's host_tools socket, -1 once closed */
  char *tbuf;           /* what it sent that is not a whole line yet */
  size_t tlen, tcap;
  int in, out, err;     /* our ends of the pipes, -1 once closed */
  char *pending;        /* stdin bytes read from the shell, not yet written */
  size_t pend_off, pend_len;
  int stdin_eof;        /* the shell's stdin ended (in is closed after pending) */
  double stdin_retry;   /* stdin had nothing (-EAGAIN): ask again from then on */
  int exited;           /* "X" received */
  int wait_status;      /* its raw wait status */
  int exec_errno;       /* "E" received: exec failed with this errno */
} spawn_call;

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Appends s and a NUL to the request; 0, or -E2BIG when it would not fit. */
static int put_field(char *buf, size_t *len, const char *s) {
  size_t n = strlen(s) + 1;
  if (*len + n > SPAWN_MAX_REQUEST) return -E2BIG;
  memcpy(buf + *len, s, n);
  *len += n;
  return 0;
}

/* Sends the request with the five child-side fds. 0 or -errno. */
static int send_request(int sock, const char *data, size_t len, const int fds[5]) {
  struct iovec iov = {(void *)data, len};
  jail_cmsg_buf cb;
  struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
  jail_cmsg_put_fds(&mh, &cb, fds, 5);
  for (;;) {
    ssize_t r = sendmsg(sock, &mh, MSG_NOSIGNAL);
    if (r >= 0) return 0;
    if (errno != EINTR) return -errno;
  }
}

/* write(2) on a pipe without SIGPIPE: the signal is blocked for this thread
 * and a pending one taken back. >= 0 bytes or -errno. */
static ssize_t write_nosigpipe(int fd, const void *buf, size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  ssize_t w = write(fd, buf, n);
  int e = errno;
  if (w < 0 && e == EPIPE && !sigismember(&old, SIGPIPE)) {
    struct timespec zero = {0, 0};
    sigtimedwait(&pipe_set, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return w < 0 ? -e : w;
}

/* Reads the reply socket: "E n" and "X n"; EOF without "X" means Z is gone. */
static void read_reply(spawn_call *c) {
  char m[64];
  ssize_t r = recv(c->reply, m, sizeof m - 1, MSG_DONTWAIT);
  if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (r <= 0) {
    close_fd(&c->reply);
    if (!c->exited) {
      c->exited = 1;
      c->wait_status = SIGKILL; /* as if killed: the server went away */
    }
    return;
  }
  m[r] = 0;
  if (m[0] == 'E' && m[1] == ' ') c->exec_errno = atoi(m + 2);
  if (m[0] == 'X' && m[1] == ' ') {
    c->exited = 1;
    c->wait_status = atoi(m + 2);
  }
}

/* Moves what one output pipe holds to the shell (holds restored). Returns
 * 1 when data moved, 0 when nothing was there. */
static int pump_output(py_state *ps, py_loan_frame *f, const py_proc_io *io, int *fd, int which) {
  char buf[SPAWN_CHUNK];
  ssize_t r = read(*fd, buf, sizeof buf);
  if (r < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
  if (r <= 0) {
    close_fd(fd);
    return 0;
  }
  py_loan_restore(ps, f);
  int w = io->write(io->ud, which, buf, (size_t)r);
  py_loan_release(ps, f);
  /* The reader is gone (`| head`): the program sees EPIPE / SIGPIPE. */
  if (w < 0) close_fd(fd);
  return 1;
}

/* Feeds the program's stdin: writes what is pending; reads more from the
 * shell (which may wait for the stage before us) when the pipe has room. */
static void pump_input(py_state *ps, py_loan_frame *f, const py_proc_io *io, spawn_call *c) {
  if (c->in < 0) return;
  if (c->pend_off == c->pend_len && !c->stdin_eof) {
    py_loan_restore(ps, f);
    ssize_t r = io->read(io->ud, c->pending, SPAWN_CHUNK);
    py_loan_release(ps, f);
    c->pend_off = 0;
    c->pend_len = r > 0 ? (size_t)r : 0;
    if (r == -EAGAIN) {
      c->stdin_retry = py_now() + SPAWN_STDIN_RETRY;
      return;
    }
    if (r <= 0) c->stdin_eof = 1;
  }
  while (c->pend_off < c->pend_len) {
    ssize_t w = write_nosigpipe(c->in, c->pending + c->pend_off, c->pend_len - c->pend_off);
    if (w == -EAGAIN || w == -EINTR) return;
    if (w < 0) { /* the program closed its stdin */
      close_fd(&c->in);
      return;
    }
    c->pend_off += (size_t)w;
  }
  if (c->stdin_eof) close_fd(&c->in);
}

/* Writes a whole reply line to the script's tools socket, waiting at most
 * a few seconds for room (the script waits for it; one that does not read
 * loses its channel). */
static void tools_reply(spawn_call *c, json_t *reply) {
  char *text = json_dumps(reply, JSON_COMPACT | JSON_ENSURE_ASCII);
  json_decref(reply);
  size_t n = text ? strlen(text) : 0, off = 0;
  double until = py_now() + 5;
  while (text && off <= n && c->tools >= 0) {
    const char *p = off < n ? text + off : "\n";
    size_t len = off < n ? n - off : 1;
    ssize_t w = send(c->tools, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0) {
      off += (size_t)w;
      if (off == n + 1) break;
      continue;
    }
    struct pollfd pf = {c->tools, POLLOUT, 0};
    if ((w < 0 && errno != EAGAIN && errno != EINTR) || py_now() > until || poll(&pf, 1, 50) < 0)
      close_fd(&c->tools);
  }
  free(text);
}

/* One host_tools request line of the script: ["call", NAME, PAYLOAD] or
 * ["search", QUERY, DETAIL, LIMIT]; answered [0, RESULT] or [1, "[kind] msg"],
 * the tool run as the `tool` command runs it (holds restored). */
static void tools_serve(sbx *h, py_state *ps, py_loan_frame *f, spawn_call *c, const char *line,
                        size_t len) {
  json_t *req = json_loadb(line, len, 0, NULL);
  const char *op = json_string_value(json_array_get(req, 0));
  char *out = NULL, msg[1100] = "[value_error] a malformed host_tools request";
  int ok = 0;
  py_loan_restore(ps, f);
  if (op && !strcmp(op, "call") && json_is_string(json_array_get(req, 1)) &&
      json_is_string(json_array_get(req, 2))) {
    ok = py_tool_call(h, json_string_value(json_array_get(req, 1)),
                      json_string_value(json_array_get(req, 2)), 1, &out, msg, sizeof msg) == 0;
  } else if (op && !strcmp(op, "search") && json_is_string(json_array_get(req, 1)) &&
             json_is_string(json_array_get(req, 2)) && json_is_integer(json_array_get(req, 3))) {
    json_int_t lim = json_integer_value(json_array_get(req, 3));
    ok = sbx_tools_search(h, json_string_value(json_array_get(req, 1)),
                          json_string_value(json_array_get(req, 2)),
                          lim < 0 ? 0 : lim > 1000 ? 1000 : (int)lim, &out) == SBX_OK;
    if (!ok) snprintf(msg, sizeof msg, "[value_error] %s", sbx_errmsg(h));
  }
  py_loan_release(ps, f);
  json_decref(req);
  tools_reply(c, ok ? json_pack("[is]", 0, out ? out : "null") : json_pack("[is]", 1, msg));
  free(out);
}

/* Reads the tools socket and serves every whole line (a line is at most one
 * protocol frame: 16 MiB). */
static void tools_pump(sbx *h, py_state *ps, py_loan_frame *f, spawn_call *c) {
  if (c->tcap - c->tlen < SPAWN_CHUNK) {
    size_t cap = c->tcap ? c->tcap * 2 : 2 * SPAWN_CHUNK;
    char *nb = cap <= PY_PROTO_MAX_FRAME + 2 * SPAWN_CHUNK ? realloc(c->tbuf, cap) : NULL;
    if (!nb) {
      close_fd(&c->tools); /* too long a request: the script's call fails */
      return;
    }
    c->tbuf = nb;
    c->tcap = cap;
  }
  ssize_t r = recv(c->tools, c->tbuf + c->tlen, c->tcap - c->tlen, MSG_DONTWAIT);
  if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (r <= 0) {
    close_fd(&c->tools);
    return;
  }
  c->tlen += (size_t)r;
  char *nl;
  while (c->tools >= 0 && (nl = memchr(c->tbuf, '\n', c->tlen))) {
    size_t len = (size_t)(nl - c->tbuf);
    tools_serve(h, ps, f, c, c->tbuf, len);
    memmove(c->tbuf, nl + 1, c->tlen - len - 1);
    c->tlen -= len + 1;
  }
}

/* The status a shell reports for a wait status. */
static int shell_status(int st) {
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return 1;
}

/* The wait loop (holds released). Returns the shell status. */
static int run_loop(sbx *h, py_state *ps, py_loan_frame *f, const py_proc_io *io, spawn_call *c,
                    int *killed) {
  while (!c->exited) {
    int stop = 0;
    if (io->cancelled) {
      py_loan_restore(ps, f);
      stop = io->cancelled(io->ud);
      py_loan_release(ps, f);
    }
    if (stop) {
      /* "K" makes Z kill the process group; its "X" says the leader is
       * reaped (waited for a little: closing the socket kills too). */
      send(c->reply, "K", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      for (double until = py_now() + SPAWN_KILL_WAIT; !c->exited && c->reply >= 0 && py_now() < until;) {
        struct pollfd p = {c->reply, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) read_reply(c);
      }
      close_fd(&c->reply);
      *killed = 1;
      return 128 + SIGKILL;
    }
    double t = py_now();
    int want_in = c->in >= 0 && (c->pend_off < c->pend_len || (!c->stdin_eof && t >= c->stdin_retry));
    int wait_ms = SPAWN_POLL_MS;
    if (c->in >= 0 && !want_in && !c->stdin_eof && c->stdin_retry - t < SPAWN_POLL_MS / 1e3)
      wait_ms = (int)((c->stdin_retry - t) * 1e3) + 1;
    struct pollfd p[5] = {{c->reply, POLLIN, 0},
                          {c->out, POLLIN, 0},
                          {c->err, POLLIN, 0},
                          {want_in ? c->in : -1, POLLOUT, 0},
                          {c->tools, POLLIN, 0}};
    int pr = poll(p, 5, wait_ms);
    if (pr < 0 && errno != EINTR) break;
    if (pr <= 0) continue;
    if (p[1].revents) pump_output(ps, f, io, &c->out, 1);
    if (p[2].revents) pump_output(ps, f, io, &c->err, 2);
    if (p[3].revents & (POLLERR | POLLHUP)) close_fd(&c->in);
    else if (p[3].revents) pump_input(ps, f, io, c);
    if (p[4].revents) tools_pump(h, ps, f, c);
    if (p[0].revents) read_reply(c);
  }
  /* Everything the program wrote before it ended is in the pipes now (a
   * process that left the group with setsid may still write: bounded). */
  for (int n = 0; n < 1024 && c->out >= 0 && pump_output(ps, f, io, &c->out, 1); n++) {
  }
  for (int n = 0; n < 1024 && c->err >= 0 && pump_output(ps, f, io, &c->err, 2); n++) {
  }
  return shell_status(c->wait_status);
}

int py_spawn_run(sbx *h, const char *path, char *const *argv, char *const *env, const char *cwd,
                 const py_proc_io *io, py_proc_result *res) {
  memset(res, 0, sizeof *res);
  if (h->sealed) {
    snprintf(res->msg, sizeof res->msg,
             "programs of the jail cannot run in a process-isolated shell");
    return -1;
  }
  py_state *ps = py_state_get(h);
  if (!ps) {
    snprintf(res->msg, sizeof res->msg, "out of memory");
    return -1;
  }
  char *req = malloc(SPAWN_MAX_REQUEST);
  spawn_call c = {.reply = -1, .in = -1, .out = -1, .err = -1, .tools = -1};
  c.pending = malloc(SPAWN_CHUNK);
  if (!req || !c.pending) {
    free(req);
    free(c.pending);
    snprintf(res->msg, sizeof res->msg, "out of memory");
    return -1;
  }
  size_t len = 0;
  size_t nargs = 0;
  while (argv[nargs]) nargs++;
  char num[24];
  snprintf(num, sizeof num, "%zu", nargs);
  int rc = put_field(req, &len, path);
  if (!rc) rc = put_field(req, &len, cwd && cwd[0] == '/' ? cwd : "/");
  if (!rc) rc = put_field(req, &len, num);
  for (size_t i = 0; !rc && i < nargs; i++) rc = put_field(req, &len, argv[i]);
  for (size_t i = 0; !rc && env && env[i]; i++)
    if (strchr(env[i], '=')) rc = put_field(req, &len, env[i]);
  if (rc) {
    free(req);
    free(c.pending);
    res->exec_errno = E2BIG;
    return 0;
  }

  py_loan_frame f;
  py_loan_begin(ps, 1, &f);
  py_loan_release(ps, &f);
  int status = -1;
  if (py_jail_up(h, ps, 0) != SBX_OK) {
    snprintf(res->msg, sizeof res->msg, "%s", sbx_errmsg(h));
    goto out;
  }
  if (ps->j.spawn_fd < 0) {
    /* The jail runs no fork server: the reduced tier's helper runs W only,
     * and has no /data for a program's paths (docs/python.md, "The reduced
     * tier"). */
    snprintf(res->msg, sizeof res->msg,
             "programs of the jail do not run on the reduced jail tier (execute_python does)");
    res->reduced_tier = 1;
    goto out;
  }
  int reply[2] = {-1, -1}, in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1},
      tools[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, reply) || pipe2(in, O_CLOEXEC) ||
      pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, tools)) {
    snprintf(res->msg, sizeof res->msg, "socketpair/pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++)
      close_fd(&reply[i]), close_fd(&in[i]), close_fd(&outp[i]), close_fd(&errp[i]), close_fd(&tools[i]);
    goto out;
  }
  const int child_fds[5] = {reply[1], in[0], outp[1], errp[1], tools[1]};
  int sr = send_request(ps->j.spawn_fd, req, len, child_fds);
  if (sr == -EPIPE || sr == -ECONNRESET || sr == -ENOTCONN) {
    /* The jail is gone (killed from outside): once more in a new one. */
    if (py_jail_up(h, ps, 1) == SBX_OK && ps->j.spawn_fd >= 0)
      sr = send_request(ps->j.spawn_fd, req, len, child_fds);
  }
  close_fd(&reply[1]);
  close_fd(&in[0]);
  close_fd(&outp[1]);
  close_fd(&errp[1]);
  close_fd(&tools[1]);
  c.tools = tools[0];
  c.reply = reply[0];
  c.in = in[1];
  c.out = outp[0];
  c.err = errp[0];
  if (sr) {
    snprintf(res->msg, sizeof res->msg, "the jail's fork server is not running (%s)", strerror(-sr));
  } else {
    fcntl(c.in, F_SETFL, O_NONBLOCK);
    fcntl(c.out, F_SETFL, O_NONBLOCK);
    fcntl(c.err, F_SETFL, O_NONBLOCK);
    status = run_loop(h, ps, &f, io, &c, &res->killed);
    res->status = status;
    res->exec_errno = c.exec_errno;
  }
  close_fd(&c.reply);
  close_fd(&c.in);
  close_fd(&c.out);
  close_fd(&c.err);
  close_fd(&c.tools);
out:
  py_loan_restore(ps, &f);
  py_loan_end(ps, &f);
  free(req);
  free(c.pending);
  free(c.tbuf);
  return status < 0 ? -1 : 0;
}

/* ---- which programs the shell sees ------------------------------------------------ */

static jail_runtime_entry runtime[JAIL_MAX_RUNTIME];
static int nruntime;
static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;

static void runtime_init(void) { nruntime = jail_runtime_entries(runtime, JAIL_MAX_RUNTIME); }

/* The runtime entry of the first component of an absolute path, or NULL. */
static const jail_runtime_entry *runtime_entry(const char *path, size_t *rest) {
  pthread_once(&runtime_once, runtime_init);
  const char *p = path + 1;
  size_t n = strcspn(p, "/");
  for (int i = 0; i < nruntime; i++)
    if (strlen(runtime[i].name) == n && !strncmp(runtime[i].name, p, n)) {
      *rest = 1 + n;
      return &runtime[i];
    }
  return NULL;
}

/* The host path the jail shows at `path` (through the runtime's merged-/usr
 * links), or 0 when the jail does not take it from the host. */
static int host_path(const char *path, char *out, size_t outsz) {
  size_t rest;
  const jail_runtime_entry *e = runtime_entry(path, &rest);
  if (!e) return 0;
  int n;
  if (e->is_symlink) {
    if (e->target[0] == '/') return 0;
    n = snprintf(out, outsz, "/%s%s", e->target, path + rest);
  } else {
    if (!e->bind_host) return 0;
    n = snprintf(out, outsz, "%s", path);
  }
  return n > 0 && (size_t)n < outsz;
}

static int allowed(char **list, const char *path) {
  if (!list) return 1;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  for (size_t i = 0; list[i]; i++)
    if (!strcmp(list[i], list[i][0] == '/' ? path : base)) return 1;
  return 0;
}

int py_program_visible(sbx *h, const char *path) {
  if (!h || !path || path[0] != '/' || strstr(path, "/../") || strlen(path) >= SPAWN_MAX_NAME)
    return 0;
  if (h->py && !allowed(h->py->programs, path)) return 0;
  char hp[SPAWN_MAX_NAME + 64], real[PATH_MAX];
  if (!host_path(path, hp, sizeof hp)) return 0;
  /* Where the host's links lead must be the runtime too (the jail has
   * nothing else of the host): /etc/alternatives/x -> /usr/bin/y is fine. */
  if (!realpath(hp, real)) return 0;
  size_t rest;
  const jail_runtime_entry *e = runtime_entry(real, &rest);
  if (!e || !e->bind_host) return 0;
  struct stat st;
  /* The jail's user is not the owner and has no capabilities: "other" x. */
  return stat(real, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXOTH);
}

int sbx_set_programs(sbx *h, const char *const *names) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  size_t n = 0;
  for (; names && names[n]; n++) {
    size_t l = strlen(names[n]);
    if (l == 0 || l >= SPAWN_MAX_NAME || (names[n][0] != '/' && strchr(names[n], '/')))
      return sandbox_fail(h, SBX_MISUSE, "programs: '%s' is neither a program name nor an absolute path",
                          names[n]);
    if (n >= SPAWN_MAX_PROGRAMS)
      return sandbox_fail(h, SBX_MISUSE, "programs: more than %d names", SPAWN_MAX_PROGRAMS);
  }
  char **list = NULL;
  if (names) {
    list = calloc(n + 1, sizeof *list);
    for (size_t i = 0; list && i < n; i++)
      if (!(list[i] = strdup(names[i]))) {
        for (size_t k = 0; k < i; k++) free(list[k]);
        free(list);
        list = NULL;
      }
    if (!list) return sandbox_fail(h, SBX_NOMEM, "programs: out of memory");
  }
  pthread_mutex_lock(&h->lock);
  py_state *ps = py_state_get(h);
  char **old = NULL;
  if (ps) {
    old = ps->programs;
    ps->programs = list;
  }
  pthread_mutex_unlock(&h->lock);
  if (!ps) old = list;
  for (size_t i = 0; old && old[i]; i++) free(old[i]);
  free(old);
  return ps ? SBX_OK : sandbox_fail(h, SBX_NOMEM, "programs: out of memory");
}
