/*
 * sandbox_iso.c - the host side of process isolation (SBX_OPEN_PROCESS): the
 * shell of a sandbox runs in a sealed helper process (src/iso/iso_helper.c)
 * and sbx_bash_ex, sbx_shell_reset and sbx_cancel talk to it over a
 * socketpair (protocol: src/iso/iso.h).
 *
 * Key decisions:
 *  - The helper is exec'd (posix_spawn of "sbx-pyworker shell"), never just
 *    forked: the host may be multi-threaded (Python), and the helper must not
 *    inherit a copy of the host's memory. Only the channel crosses (fd 3).
 *  - One helper per sandbox, started by the first call and kept: the shell
 *    session (cwd, variables, functions) lives in it between calls.
 *  - Stopping needs no cooperation. The call waits in poll() on the channel
 *    and an eventfd that sbx_cancel writes. Cancel first asks (SIGUSR1: the
 *    shell stops at its next poll and keeps its session), the deadline is the
 *    shell's own timeout plus ISO_GRACE_MS; past either the helper gets
 *    SIGKILL. The call then returns SBX_TIMEOUT / SBX_CANCELED with the output
 *    streamed so far and the shell's own limit message, res->killed = 1, and
 *    the next call starts a fresh helper. SQLite's WAL makes the kill safe
 *    for the store (an unfinished transaction is simply not there).
 *  - The helper is untrusted once it has run a script: every frame is parsed
 *    incrementally (a helper that stops mid-frame cannot block us), lengths
 *    are bounded, output beyond the output limit plus slack is a protocol
 *    violation, and any violation kills it (reported as "crashed").
 *  - A helper that dies (a signal: a memory-safety bug of the interpreter,
 *    its rlimits) gives SBX_CRASHED, res->limit SBX_LIMIT_CRASHED and exit
 *    code 128 + the signal. The host is never affected (MSG_NOSIGNAL, no
 *    shared memory).
 *  - Quotas: each process keeps running totals; after a call the host forgets
 *    its totals (store_usage_forget) and the helper re-sums them before each
 *    call (sbx_set_quota), so neither trusts stale counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "iso/iso.h"
#include "jail/jail.h"
#include "api/sandbox_int.h"
#include "sh/sh.h"

/* How long past the shell's own timeout the host waits before killing. */
#define ISO_GRACE_MS 250
/* How long a cancelled call may take to stop by itself. */
#define ISO_CANCEL_GRACE_MS 100
/* Startup (exec, open, seal) and reset. */
#define ISO_START_MS 10000
/* Output a helper may send beyond the output limit (the shell's limit
 * message, a last chunk) before it counts as a protocol violation. */
#define ISO_OUTPUT_SLACK (1u << 20)
/* rlimits of the helper. */
#define ISO_MEM_BYTES ((uint64_t)4 << 30)
#define ISO_CPU_SECONDS 86400
#define ISO_FSIZE_BYTES ((uint64_t)64 << 30)
#define ISO_NOFILE 64

struct sandbox_iso {
  pid_t pid;                /* the helper, or -1 when none runs */
  int chan;                 /* our end of the channel, or -1 */
  int wake_fd;              /* eventfd written by sbx_cancel (any thread) */
  char *rbuf;               /* bytes received and not yet parsed */
  size_t rlen, rcap;        /* bytes in rbuf / allocated */
  int interactive;          /* the CLI's prompt drives the shell */
  int exited;               /* the last call ran `exit` (the prompt ends) */
  char cwd[STORE_PATH_MAX]; /* the session's cwd after the last call */
};

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int sandbox_iso_open(sbx *h) {
  struct sandbox_iso *iso = calloc(1, sizeof *iso);
  if (!iso) return sandbox_fail(h, SBX_NOMEM, "open: out of memory");
  iso->pid = -1;
  iso->chan = -1;
  iso->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (iso->wake_fd < 0) {
    int e = errno;
    free(iso);
    return sandbox_fail(h, SBX_ERROR, "open: eventfd: %s", strerror(e));
  }
  h->iso = iso;
  return SBX_OK;
}

/* Kills and reaps the helper; *status gets its wait status (may be NULL). */
static void helper_kill(struct sandbox_iso *iso, int *status) {
  int st = 0;
  if (iso->pid > 0) {
    kill(iso->pid, SIGKILL);
    while (waitpid(iso->pid, &st, 0) < 0 && errno == EINTR) {
    }
  }
  if (status) *status = st;
  if (iso->chan >= 0) close(iso->chan);
  iso->pid = -1;
  iso->chan = -1;
  iso->rlen = 0;
}

void sandbox_iso_close(sbx *h) {
  struct sandbox_iso *iso = h->iso;
  if (!iso) return;
  helper_kill(iso, NULL);
  close(iso->wake_fd);
  free(iso->rbuf);
  free(iso);
  h->iso = NULL;
}

void sandbox_iso_cancel(sbx *h) {
  if (h->iso) {
    uint64_t one = 1;
    ssize_t w = write(h->iso->wake_fd, &one, sizeof one);
    (void)w; /* a full counter is a pending wake-up already */
  }
}

/* ---- the incremental reader ---------------------------------------------- */

/* Reads what the channel has (non-blocking). 1 read something, 0 nothing
 * yet, -1 end of file or error. */
static int chan_fill(struct sandbox_iso *iso) {
  if (iso->rcap - iso->rlen < 65536) {
    size_t cap = iso->rcap ? iso->rcap * 2 : 131072;
    char *p = realloc(iso->rbuf, cap);
    if (!p) return -1;
    iso->rbuf = p;
    iso->rcap = cap;
  }
  ssize_t r;
  do r = recv(iso->chan, iso->rbuf + iso->rlen, iso->rcap - iso->rlen, MSG_DONTWAIT);
  while (r < 0 && errno == EINTR);
  if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  if (r <= 0) return -1;
  iso->rlen += (size_t)r;
  return 1;
}

/* The next complete frame: 1 (type, payload pointing into rbuf, valid until
 * frame_drop), 0 none yet, -1 malformed or over `max`. */
static int frame_peek(struct sandbox_iso *iso, uint64_t max, uint32_t *type,
                      const char **p, size_t *n) {
  iso_frame_head head;
  if (iso->rlen < sizeof head) return 0;
  memcpy(&head, iso->rbuf, sizeof head);
  if (head.reserved != 0 || head.len > max) return -1;
  if (iso->rlen - sizeof head < head.len) {
    /* grow so the whole frame fits */
    if (iso->rcap < sizeof head + head.len) {
      char *q = realloc(iso->rbuf, sizeof head + head.len);
      if (!q) return -1;
      iso->rbuf = q;
      iso->rcap = sizeof head + head.len;
    }
    return 0;
  }
  *type = head.type;
  *p = iso->rbuf + sizeof head;
  *n = (size_t)head.len;
  return 1;
}

static void frame_drop(struct sandbox_iso *iso, size_t n) {
  size_t used = sizeof(iso_frame_head) + n;
  memmove(iso->rbuf, iso->rbuf + used, iso->rlen - used);
  iso->rlen -= used;
}

/* Waits up to timeout_ms for one small frame (READY, FAIL, DONE of a reset). */
static int wait_small_frame(struct sandbox_iso *iso, int timeout_ms, uint32_t *type,
                            char *text, size_t textsz) {
  long long deadline = now_ms() + timeout_ms;
  for (;;) {
    const char *p;
    size_t n;
    int f = frame_peek(iso, ISO_SMALL_MAX, type, &p, &n);
    if (f < 0) return -1;
    if (f > 0) {
      snprintf(text, textsz, "%.*s", (int)n, p);
      frame_drop(iso, n);
      return 0;
    }
    long long left = deadline - now_ms();
    if (left <= 0) return -1;
    struct pollfd pf = {iso->chan, POLLIN, 0};
    if (poll(&pf, 1, (int)left) < 0 && errno != EINTR) return -1;
    if (pf.revents && chan_fill(iso) < 0) return -1;
  }
}

/* ---- starting the helper ------------------------------------------------- */

static int helper_start(sbx *h) {
  struct sandbox_iso *iso = h->iso;
  char helper[4096];
  if (jail_find_helper(helper, sizeof helper) != 0)
    return sandbox_fail(
        h, SBX_JAIL,
        "bash: the isolated shell needs sbx-pyworker: set SBX_PYWORKER to its "
        "absolute path or install it in /usr/local/libexec/sbx/");
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return sandbox_fail(h, SBX_ERROR, "bash: socketpair: %s", strerror(errno));
  char flags[16], mem[32], cpu[32], fsize[32], nofile[32];
  snprintf(flags, sizeof flags, "%d", h->flags & SBX_OPEN_READONLY);
  snprintf(mem, sizeof mem, "mem=%llu", (unsigned long long)ISO_MEM_BYTES);
  snprintf(cpu, sizeof cpu, "cpu=%d", ISO_CPU_SECONDS);
  snprintf(fsize, sizeof fsize, "fsize=%llu", (unsigned long long)ISO_FSIZE_BYTES);
  snprintf(nofile, sizeof nofile, "nofile=%d", ISO_NOFILE);
  const char *hooks_env = getenv("SBX_SHELL_TEST_HOOKS");
  char *argv[] = {"sbx-pyworker",
                  "shell",
                  h->path,
                  flags,
                  mem,
                  cpu,
                  fsize,
                  nofile,
                  hooks_env && strcmp(hooks_env, "1") == 0 ? "hooks=1" : NULL,
                  NULL};
  /* The environment: only TZ, so that dates print as in the host. */
  char tz[256];
  char *envp[2] = {NULL, NULL};
  const char *tzv = getenv("TZ");
  if (tzv && strlen(tzv) < sizeof tz - 4) {
    snprintf(tz, sizeof tz, "TZ=%s", tzv);
    envp[0] = tz;
  }
  /* the channel onto fd 3 (ISO_FD_CHANNEL), from a high fd: were it 3
   * already, dup2 onto itself would keep its CLOEXEC */
  int high = fcntl(sv[1], F_DUPFD_CLOEXEC, 64);
  close(sv[1]);
  pid_t pid;
  int rc = high < 0 ? errno : jail_spawn(helper, argv, envp, &high, 1, 1, &pid);
  if (high >= 0) close(high);
  if (rc != 0) {
    close(sv[0]);
    return sandbox_fail(h, SBX_JAIL, "bash: cannot start %s: %s", helper, strerror(rc));
  }
  iso->pid = pid;
  iso->chan = sv[0];
  iso->rlen = 0;
  uint32_t type = 0;
  char text[ISO_SMALL_MAX / 64];
  if (wait_small_frame(iso, ISO_START_MS, &type, text, sizeof text) != 0 ||
      type != ISO_MSG_READY) {
    int st;
    helper_kill(iso, &st);
    if (type == ISO_MSG_FAIL) return sandbox_fail(h, SBX_JAIL, "bash: %s", text);
    return sandbox_fail(h, SBX_JAIL, "bash: the isolated shell did not start (%s %d)",
                        WIFSIGNALED(st) ? "signal" : "exit status",
                        WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
  }
  return SBX_OK;
}

/* ---- one call ---------------------------------------------------------- */

/* Where the output of a call goes. */
typedef struct iso_out {
  sh_buf out, err;           /* collected (when not streamed) */
  const sbx_bash_opts *opts; /* the caller's receivers, or NULL */
  uint64_t total;            /* bytes received */
} iso_out;

static void emit(iso_out *o, int to_err, const void *p, size_t n) {
  o->total += n;
  if (!n) return;
  if (o->opts && (to_err ? o->opts->on_stderr : o->opts->on_stdout))
    (to_err ? o->opts->on_stderr : o->opts->on_stdout)(o->opts->ud, p, n);
  else
    sh_buf_add(to_err ? &o->err : &o->out, p, n);
}

static void build_run(sbx *h, iso_buf *b, const char *script, size_t len,
                      const sbx_bash_opts *opts, const sbx_limits *lim, int *pass_fd) {
  iso_buf_u64(b, lim->loop_iterations);
  iso_buf_u64(b, lim->command_count);
  iso_buf_u64(b, lim->function_depth);
  iso_buf_u64(b, lim->output_bytes);
  iso_buf_u64(b, lim->string_size);
  iso_buf_u64(b, lim->array_size);
  iso_buf_u64(b, lim->timeout_ms);
  iso_buf_u64(b, h->quota.max_bytes);
  iso_buf_u64(b, h->quota.max_inodes);
  iso_buf_u64(b, h->quota.max_file_size);
  uint64_t flags = 0;
  *pass_fd = -1;
  if (opts) {
    if (opts->run_exit_trap) flags |= ISO_RUN_EXIT_TRAP;
    if (opts->args) flags |= ISO_RUN_ARGS;
    if (opts->name) flags |= ISO_RUN_NAME;
    if (opts->on_stdout || opts->on_stderr) flags |= ISO_RUN_STREAM;
    if (opts->stdin_fd >= 0 && !opts->stdin_data) {
      flags |= ISO_RUN_STDIN_FD;
      *pass_fd = opts->stdin_fd;
    }
  }
  if (h->iso->interactive) flags |= ISO_RUN_INTERACTIVE;
  iso_buf_u64(b, flags);
  const char *name = opts && opts->name ? opts->name : "";
  iso_buf_bytes(b, name, strlen(name));
  iso_buf_bytes(b, script, len);
  iso_buf_bytes(b, opts ? opts->stdin_data : NULL,
                opts && opts->stdin_data ? opts->stdin_len : 0);
  int nargs = opts && opts->args && opts->nargs > 0 ? opts->nargs : 0;
  iso_buf_u64(b, (uint64_t)nargs);
  for (int i = 0; i < nargs; i++) iso_buf_bytes(b, opts->args[i], strlen(opts->args[i]));
}

/* How a call ended without a DONE frame. */
enum iso_end { ISO_END_DONE, ISO_END_TIMEOUT, ISO_END_CANCEL, ISO_END_CRASH };

/* Waits for the call's DONE (filling res) or ends it; see the header. */
static enum iso_end wait_call(sbx *h, iso_out *o, uint64_t timeout_ms, uint64_t out_limit,
                              sbx_bash_result *res) {
  struct sandbox_iso *iso = h->iso;
  long long start = now_ms();
  /* (a timeout beyond ~100 days is no deadline: no overflow) */
  long long deadline = timeout_ms && timeout_ms < (1ull << 33)
                           ? start + (long long)timeout_ms + ISO_GRACE_MS
                           : -1;
  long long cancel_deadline = -1;
  uint64_t out_max = out_limit ? out_limit + ISO_OUTPUT_SLACK : UINT64_MAX;
  for (;;) {
    /* every complete frame first */
    uint32_t type;
    const char *p;
    size_t n;
    int f;
    /* a frame may not claim more than the output still allowed (plus room
     * for a DONE): a lying header cannot make us allocate a gigabyte */
    uint64_t room =
        out_max == UINT64_MAX ? ISO_FRAME_MAX : out_max - o->total + ISO_SMALL_MAX;
    while ((f = frame_peek(iso, room < ISO_FRAME_MAX ? room : ISO_FRAME_MAX, &type, &p,
                           &n)) > 0) {
      if (type == ISO_MSG_OUT || type == ISO_MSG_ERR) {
        if (o->total + n > out_max) return ISO_END_CRASH;
        emit(o, type == ISO_MSG_ERR, p, n);
      } else if (type == ISO_MSG_DONE && n <= ISO_SMALL_MAX) {
        iso_reader r = {p, n, 0};
        res->exit_code = (int)(int64_t)iso_read_u64(&r);
        uint64_t limit = iso_read_u64(&r);
        res->limit_value = iso_read_u64(&r);
        res->duration_ms = (double)iso_read_u64(&r) / 1e6;
        uint64_t eno = iso_read_u64(&r);
        uint64_t has_path = iso_read_u64(&r);
        size_t plen;
        const char *path = iso_read_bytes(&r, &plen);
        iso->exited = iso_read_u64(&r) != 0;
        size_t clen;
        const char *cwd = iso_read_bytes(&r, &clen);
        if (!r.bad && clen < sizeof iso->cwd) {
          memcpy(iso->cwd, cwd, clen);
          iso->cwd[clen] = 0;
        }
        if (r.bad || limit > SBX_LIMIT_NESTING_DEPTH || eno > 4095 ||
            res->exit_code < 0 || res->exit_code > 255 || plen >= STORE_PATH_MAX)
          return ISO_END_CRASH;
        res->limit = (int)limit;
        res->err_errno = (int)eno;
        if (has_path) res->err_path = strndup(path, plen);
        frame_drop(iso, n);
        return ISO_END_DONE;
      } else {
        return ISO_END_CRASH;
      }
      frame_drop(iso, n);
    }
    if (f < 0) return ISO_END_CRASH;

    long long now = now_ms();
    if (deadline >= 0 && now >= deadline) return ISO_END_TIMEOUT;
    if (cancel_deadline >= 0 && now >= cancel_deadline) return ISO_END_CANCEL;
    long long wait = -1;
    if (deadline >= 0) wait = deadline - now;
    if (cancel_deadline >= 0 && (wait < 0 || cancel_deadline - now < wait))
      wait = cancel_deadline - now;
    struct pollfd pf[2] = {{iso->chan, POLLIN, 0}, {iso->wake_fd, POLLIN, 0}};
    int pr = poll(pf, 2, wait > INT32_MAX ? INT32_MAX : (int)wait);
    if (pr < 0 && errno != EINTR) return ISO_END_CRASH;
    if (pr <= 0) continue;
    if (pf[1].revents) {
      uint64_t v;
      ssize_t rd = read(iso->wake_fd, &v, sizeof v);
      (void)rd;
      if (atomic_load(&h->shell_cancel) && cancel_deadline < 0) {
        kill(iso->pid, SIGUSR1); /* the shell stops at its next poll */
        cancel_deadline = now_ms() + ISO_CANCEL_GRACE_MS;
      }
    }
    if (pf[0].revents && chan_fill(iso) < 0) {
      /* end of file: parse what is left (a DONE may be there), then report */
      while ((f = frame_peek(iso, room < ISO_FRAME_MAX ? room : ISO_FRAME_MAX, &type, &p,
                             &n)) > 0 &&
             type != ISO_MSG_DONE) {
        if (type != ISO_MSG_OUT && type != ISO_MSG_ERR) break;
        if (o->total + n > out_max) break;
        emit(o, type == ISO_MSG_ERR, p, n);
        frame_drop(iso, n);
      }
      return ISO_END_CRASH;
    }
  }
}

int sandbox_iso_bash(sbx *h, const char *script, size_t len, const sbx_bash_opts *opts,
                     sbx_bash_result *res) {
  struct sandbox_iso *iso = h->iso;
  if (h->txn_depth > 0)
    return sandbox_fail(h, SBX_MISUSE,
                        "bash: a process-isolated shell cannot run inside a transaction "
                        "(sbx_begin): the helper could not write");
  if (h->shell_depth > 0)
    return sandbox_fail(h, SBX_MISUSE, "bash: a process-isolated shell does not nest");
  sbx_limits lim;
  sandbox_bash_limits(h, &lim);
  iso_buf run = {0};
  int pass_fd;
  build_run(h, &run, script, len, opts, &lim, &pass_fd);
  if (run.oom || run.len > ISO_FRAME_MAX) {
    iso_buf_free(&run);
    return sandbox_fail(
        h, run.oom ? SBX_NOMEM : SBX_MISUSE,
        run.oom ? "bash: out of memory" : "bash: script and stdin over 1 GiB");
  }
  /* A cancel before the call does not count (as in-process). sbx_cancel
   * sets the flag before it writes the eventfd: with the flag clear there is
   * nothing to drain, and a late write only wakes us to find it clear. */
  if (atomic_exchange(&h->shell_cancel, 0)) {
    uint64_t drain;
    while (read(iso->wake_fd, &drain, sizeof drain) > 0) {
    }
  }
  int rc = SBX_OK;
  for (int attempt = 0; attempt < 2; attempt++) {
    if (iso->pid < 0 && (rc = helper_start(h)) != SBX_OK) break;
    int e = iso_send(iso->chan, ISO_MSG_RUN, run.data, run.len, pass_fd);
    if (e == 0) break;
    /* The idle helper died since the last call (killed from outside): one
     * fresh start. */
    helper_kill(iso, NULL);
    rc = sandbox_fail(h, SBX_CRASHED, "bash: the isolated shell is gone (%s)",
                      strerror(-e));
  }
  iso_buf_free(&run);
  if (rc != SBX_OK) return rc;

  iso_out o = {.opts = opts};
  long long t0 = now_ms();
  enum iso_end end = wait_call(h, &o, lim.timeout_ms, lim.output_bytes, res);
  const char *name = opts && opts->name ? opts->name : "sbx";
  char msg[256];
  int n = 0, status = 0;
  rc = SBX_OK;
  switch (end) {
    case ISO_END_DONE:
      if (res->limit == SBX_LIMIT_TIMEOUT)
        rc = SBX_TIMEOUT;
      else if (res->limit == SBX_LIMIT_CANCELLED)
        rc = SBX_CANCELED;
      else if (res->limit)
        rc = SBX_LIMIT;
      break;
    case ISO_END_TIMEOUT:
    case ISO_END_CANCEL:
      /* The same message and result as the in-process shell's own limit. */
      helper_kill(iso, NULL);
      res->killed = 1;
      res->exit_code = 126;
      if (end == ISO_END_TIMEOUT) {
        res->limit = SBX_LIMIT_TIMEOUT;
        res->limit_value = lim.timeout_ms;
        n = snprintf(msg, sizeof msg, "%s: execution limit exceeded: timeout (%llu ms)\n",
                     name, (unsigned long long)lim.timeout_ms);
        rc = SBX_TIMEOUT;
      } else {
        res->limit = SBX_LIMIT_CANCELLED;
        n = snprintf(msg, sizeof msg, "%s: execution cancelled\n", name);
        rc = SBX_CANCELED;
      }
      break;
    case ISO_END_CRASH:
      helper_kill(iso, &status);
      res->limit_value = 0; /* nothing of a rejected DONE is kept */
      res->err_errno = 0;
      free(res->err_path);
      res->err_path = NULL;
      res->killed = 1;
      res->limit = SBX_LIMIT_CRASHED;
      if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
        int sig = WTERMSIG(status);
        res->exit_code = 128 + sig;
        res->limit_value = (uint64_t)sig;
        n = snprintf(
            msg, sizeof msg,
            "%s: the shell process crashed (signal %d, %s); its session is lost\n", name,
            sig, strsignal(sig));
      } else if (WIFEXITED(status)) {
        res->exit_code = 126;
        n = snprintf(msg, sizeof msg,
                     "%s: the shell process ended unexpectedly (exit status %d); its "
                     "session is lost\n",
                     name, WEXITSTATUS(status));
      } else {
        /* our SIGKILL after a malformed frame, or the kernel's OOM killer */
        res->exit_code = 126;
        n = snprintf(msg, sizeof msg,
                     "%s: the shell process was killed (a malformed answer, or out of "
                     "memory); its session is lost\n",
                     name);
      }
      rc = SBX_CRASHED;
      break;
  }
  if (n > 0) {
    emit(&o, 1, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    res->duration_ms = (double)(now_ms() - t0);
  }
  res->limit_name = res->limit == SBX_LIMIT_CRASHED ? "crashed"
                    : res->limit ? sh_limit_name((sh_limit_kind)res->limit)
                                 : NULL;
  res->out_len = o.out.len;
  res->out = sh_buf_steal(&o.out);
  res->err_len = o.err.len;
  res->err = sh_buf_steal(&o.err);
  /* The helper may have changed usage: recount at the next quota check. */
  if (h->quota.max_bytes || h->quota.max_inodes) store_usage_forget(h->st);
  if (rc == SBX_CRASHED) sandbox_fail(h, rc, "%.*s", n > 0 ? n - 1 : 0, msg);
  return rc;
}

void sandbox_iso_interactive(sbx *h) {
  h->iso->interactive = 1;
}

const char *sandbox_iso_session(sbx *h, int *exited) {
  struct sandbox_iso *iso = h->iso;
  if (iso->pid < 0) { /* none yet, or killed: a fresh session */
    *exited = 0;
    return "/data";
  }
  *exited = iso->exited;
  return iso->cwd[0] ? iso->cwd : "/data";
}

int sandbox_iso_reset(sbx *h) {
  struct sandbox_iso *iso = h->iso;
  if (iso->pid < 0) return SBX_OK; /* the next helper starts fresh anyway */
  uint32_t type = 0;
  char text[64];
  if (iso_send(iso->chan, ISO_MSG_RESET, NULL, 0, -1) != 0 ||
      wait_small_frame(iso, ISO_START_MS, &type, text, sizeof text) != 0 ||
      type != ISO_MSG_DONE)
    helper_kill(iso, NULL); /* a fresh one is a reset too */
  return SBX_OK;
}
