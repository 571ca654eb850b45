/*
 * iso_helper.c - the helper process of process isolation (SBX_OPEN_PROCESS):
 * "sbx-pyworker shell DB FLAGS KEY=VALUE...", started by src/api/sandbox_iso.c
 * with the channel on fd 3 and /dev/null on 0, 1, 2.
 *
 * It is an ordinary client of the public API: it opens the sandbox's
 * database with sbx_open (the same SQLite file as the host, WAL mode, so
 * both see each other's committed writes), runs one empty script so the
 * shell session exists and SQLite has opened its -wal and -shm files, and
 * only then seals itself (src/jail/jail_seal.c): from there on no path of
 * the host can be opened or stat'ed, no socket made, no program run. So
 * that SQLite never needs either, its fstat is pointed at the fstat syscall
 * (glibc's goes through newfstatat, which the seal denies) and its
 * temporary files (statement journals of big changes, sorts) are kept in
 * memory. Then it serves calls one at a time until the channel closes,
 * streaming output as frames.
 *
 * The host stops a call by sending SIGUSR1 (the handler does sbx_cancel, an
 * atomic store) and, at the deadline, by SIGKILL: this process needs no
 * cooperation to die. It never closes the database (a kill is the normal
 * end), which SQLite's WAL survives by design.
 *
 * Test hooks (only when started with "hooks=1", which the host passes when
 * its environment has SBX_SHELL_TEST_HOOKS=1; documented as test-only in
 * docs/shell.md): a script that is exactly "#sbx-test:spin" prints
 * "spinning" and spins forever without polling, "#sbx-test:crash" writes
 * through a NULL pointer, "#sbx-test:badframe", "#sbx-test:flood" and
 * "#sbx-test:exit" answer as a compromised helper might (a malformed frame,
 * endless output past every limit, an exit mid-call), and
 * "#sbx-test:probe" tries what the seal forbids (open and stat a host file,
 * make a socket, fork, exec) and prints each result, and whether it is root.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "iso/iso.h"
#include "cmd/lib/gnu.h"
#include "jail/jail.h"
#include "re/re.h"
#include "api/sandbox_int.h"
#include "sbx.h"
#include "sh/sh.h"

static sbx *helper_sandbox; /* the open sandbox (for the SIGUSR1 handler) */
/* Output is queued and sent in batches: with the DONE frame (one send and
 * one wake-up of the host for a short call), when ISO_FLUSH_BYTES are
 * queued, and at most ISO_FLUSH_MS after it was queued, so the host holds
 * it should this process be killed. That last one is a one-shot
 * ITIMER_REAL armed by the first queued frame: its SIGALRM (blocked in
 * every thread) wakes the flusher thread in sigwaitinfo. A short call costs
 * two setitimer calls and no thread wake-up. A caller that streams
 * (on_stdout / on_stderr) gets every write at once instead. */
#define ISO_FLUSH_MS 10
#define ISO_FLUSH_BYTES 65536
static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER; /* guards the four below */
static iso_buf pending;   /* whole frames not sent yet */
static size_t last_frame; /* offset of the last frame in `pending` */
static int timer_armed;   /* the flush timer runs */
static int stream_now;    /* this call's caller streams: no batching */
static int send_failed;   /* the host went away: stop sending */

static void set_flush_timer(int on) {
  struct itimerval it = {{0, 0}, {0, on ? ISO_FLUSH_MS * 1000 : 0}};
  setitimer(ITIMER_REAL, &it, NULL);
  timer_armed = on;
}

static void on_cancel(int sig) {
  (void)sig;
  if (helper_sandbox) sbx_cancel(helper_sandbox); /* atomic stores only */
}

/* Sends `pending` (send_lock held). */
static void flush_locked(void) {
  const char *p = pending.data;
  size_t n = pending.len;
  while (n > 0 && !send_failed) {
    ssize_t w = send(ISO_FD_CHANNEL, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      send_failed = 1;
    else
      p += w, n -= (size_t)w;
  }
  pending.len = 0;
  if (pending.oom) send_failed = 1;
  if (timer_armed) set_flush_timer(0);
}

/* Queues one frame; output of the same kind as the last queued frame
 * extends it. `now`: send everything at once (DONE, READY). */
static void send_frame(uint32_t type, const void *p, size_t n, int now) {
  pthread_mutex_lock(&send_lock);
  iso_frame_head last;
  if (!now && pending.len > 0) memcpy(&last, pending.data + last_frame, sizeof last);
  if (!now && pending.len > 0 && last.type == type) {
    last.len += n;
    memcpy(pending.data + last_frame, &last, sizeof last);
  } else {
    iso_frame_head head = {type, 0, n};
    last_frame = pending.len;
    iso_buf_add(&pending, &head, sizeof head);
  }
  iso_buf_add(&pending, p, n);
  if (now || stream_now || pending.len >= ISO_FLUSH_BYTES || pending.oom)
    flush_locked();
  else if (!timer_armed)
    set_flush_timer(1);
  pthread_mutex_unlock(&send_lock);
}

/* The flusher thread: woken by the flush timer's SIGALRM. */
static void *flusher(void *arg) {
  sigset_t *alarm = arg;
  for (;;) {
    if (sigwaitinfo(alarm, NULL) < 0) continue;
    pthread_mutex_lock(&send_lock);
    timer_armed = 0;
    flush_locked();
    pthread_mutex_unlock(&send_lock);
  }
  return NULL;
}

static void stream_out(void *ud, const void *buf, size_t n) {
  (void)ud;
  send_frame(ISO_MSG_OUT, buf, n, 0);
}

static void stream_err(void *ud, const void *buf, size_t n) {
  (void)ud;
  send_frame(ISO_MSG_ERR, buf, n, 0);
}

/* Startup failure: tell the host why, then exit. */
static int fail_startup(const char *fmt, const char *detail) {
  char msg[1024];
  snprintf(msg, sizeof msg, fmt, detail);
  iso_send(ISO_FD_CHANNEL, ISO_MSG_FAIL, msg, strlen(msg), -1);
  return 1;
}

/* DONE: the outcome, then the session's state the CLI's prompt shows
 * (whether `exit` ran, the cwd). */
static void send_done(sbx *h, const sbx_bash_result *r) {
  iso_buf b = {0};
  iso_buf_u64(&b, (uint64_t)(int64_t)r->exit_code);
  iso_buf_u64(&b, (uint64_t)r->limit);
  iso_buf_u64(&b, r->limit_value);
  iso_buf_u64(&b, (uint64_t)(r->duration_ms * 1e6));
  iso_buf_u64(&b, (uint64_t)r->err_errno);
  iso_buf_u64(&b, r->err_path != NULL);
  const char *p = r->err_path ? r->err_path : "";
  iso_buf_bytes(&b, p, strlen(p));
  sh_session *s = h->shell;
  iso_buf_u64(&b, s && s->last_flow == SH_FLOW_EXIT);
  const char *cwd = s && s->root->cwd ? s->root->cwd : "/data";
  iso_buf_bytes(&b, cwd, strlen(cwd));
  if (!b.oom)
    send_frame(ISO_MSG_DONE, b.data, b.len, 1);
  else
    send_failed = 1;
  iso_buf_free(&b);
}

/* Re-arms the CPU-time limit for one call: what we used so far plus eight
 * times the call's timeout plus 2 s (the hard limit set at startup bounds
 * it). The host's wall-clock kill comes first; this is the backstop for a
 * spin that outlives a dead host. */
static void arm_cpu_limit(uint64_t timeout_ms) {
  static struct rlimit rl; /* as last set (rlim_max 0: not read yet) */
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return;
  if (rl.rlim_max == 0 && getrlimit(RLIMIT_CPU, &rl) != 0) return;
  rlim_t used = (rlim_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1);
  /* eight times: pipeline stages may burn CPU in parallel */
  rlim_t want = used + 8 * (rlim_t)(timeout_ms ? timeout_ms / 1000 + 1 : 3600) + 2;
  if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max) want = rl.rlim_max;
  /* the common case, a call like the last: the limit is armed already */
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= want && rl.rlim_cur <= want + 1)
    return;
  rl.rlim_cur = want;
  setrlimit(RLIMIT_CPU, &rl);
}

/* The test hooks (see the header comment). 1 when `script` was one. */
static int test_hook(const char *script, size_t len, sbx_bash_result *res) {
  static const char spin[] = "#sbx-test:spin", crash[] = "#sbx-test:crash",
                    probe[] = "#sbx-test:probe";
  if (len == sizeof spin - 1 && memcmp(script, spin, len) == 0) {
    stream_out(NULL, "spinning\n", 9);
    for (volatile unsigned long i = 0;; i++) {
    }
  }
  if (len == sizeof crash - 1 && memcmp(script, crash, len) == 0) {
    volatile int *null = NULL;
    *null = 1;
    return 1;
  }
  /* A compromised helper's answers: a malformed frame, output far past the
   * output limit, an exit in the middle of a call. */
  static const char badframe[] = "#sbx-test:badframe", flood[] = "#sbx-test:flood",
                    quit[] = "#sbx-test:exit";
  if (len == sizeof badframe - 1 && memcmp(script, badframe, len) == 0) {
    iso_frame_head head = {ISO_MSG_OUT, 1, 0};
    send(ISO_FD_CHANNEL, &head, sizeof head, MSG_NOSIGNAL);
    for (;;) pause();
  }
  if (len == sizeof flood - 1 && memcmp(script, flood, len) == 0) {
    static char chunk[65536];
    memset(chunk, 'f', sizeof chunk);
    for (;;) iso_send(ISO_FD_CHANNEL, ISO_MSG_OUT, chunk, sizeof chunk, -1);
  }
  if (len == sizeof quit - 1 && memcmp(script, quit, len) == 0) _exit(3);
  if (len == sizeof probe - 1 && memcmp(script, probe, len) == 0) {
    char out[512];
    int fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
    int e_open = fd < 0 ? errno : 0;
    struct stat sb;
    int e_stat = stat("/etc/passwd", &sb) != 0 ? errno : 0;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int e_sock = s < 0 ? errno : 0;
    long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0); /* a fork */
    if (pid == 0) _exit(0);
    int e_fork = pid < 0 ? errno : 0;
    char *argv[] = {"true", NULL}, *envp[] = {NULL};
    execve("/bin/true", argv, envp);
    int e_exec = errno;
    int n = snprintf(
        out, sizeof out, "open %s\nstat %s\nsocket %s\nfork %s\nexec %s\nroot %s\n",
        e_open ? strerrorname_np(e_open) : "ok", e_stat ? strerrorname_np(e_stat) : "ok",
        e_sock ? strerrorname_np(e_sock) : "ok", e_fork ? strerrorname_np(e_fork) : "ok",
        strerrorname_np(e_exec), geteuid() == 0 ? "yes" : "no");
    stream_out(NULL, out, (size_t)n);
    res->exit_code = 0;
    return 1;
  }
  return 0;
}

/* One RUN frame. */
static void run_call(sbx *h, const iso_buf *payload, int fd, int hooks) {
  iso_reader r = {payload->data, payload->len, 0};
  sbx_limits lim;
  lim.loop_iterations = iso_read_u64(&r);
  lim.command_count = iso_read_u64(&r);
  lim.function_depth = iso_read_u64(&r);
  lim.output_bytes = iso_read_u64(&r);
  lim.string_size = iso_read_u64(&r);
  lim.array_size = iso_read_u64(&r);
  lim.timeout_ms = iso_read_u64(&r);
  sbx_quota q;
  q.max_bytes = iso_read_u64(&r);
  q.max_inodes = iso_read_u64(&r);
  q.max_file_size = iso_read_u64(&r);
  uint64_t flags = iso_read_u64(&r);
  size_t name_len, script_len, stdin_len;
  const char *name = iso_read_bytes(&r, &name_len);
  const char *script = iso_read_bytes(&r, &script_len);
  const char *in = iso_read_bytes(&r, &stdin_len);
  uint64_t nargs = iso_read_u64(&r);
  sbx_bash_result res = {0};
  char *name_z = NULL;
  char **args = NULL;
  if (!r.bad && nargs <= r.left / sizeof(uint64_t))
    args = calloc(nargs + 1, sizeof *args);
  for (uint64_t i = 0; args && i < nargs && !r.bad; i++) {
    size_t n;
    const char *a = iso_read_bytes(&r, &n);
    if (a && (args[i] = strndup(a, n)) == NULL) r.bad = 1;
  }
  if ((flags & ISO_RUN_NAME) && name && !(name_z = strndup(name, name_len))) r.bad = 1;
  if (r.bad || !args) {
    /* The host built this frame; a bad one means memory ran out here. */
    const char msg[] = "sbx: the isolated shell could not read the call\n";
    stream_err(NULL, msg, sizeof msg - 1);
    res.exit_code = 126;
  } else if (!(hooks && test_hook(script, script_len, &res))) {
    /* limits as sent (when they changed); quotas re-summed whenever set,
     * since the host may have written since */
    static sbx_limits last_lim;
    static sbx_quota last_q;
    if (memcmp(&lim, &last_lim, sizeof lim) != 0) sbx_set_limits(h, &lim);
    if (q.max_bytes || q.max_inodes || memcmp(&q, &last_q, sizeof q) != 0)
      sbx_set_quota(h, &q);
    last_lim = lim;
    last_q = q;
    arm_cpu_limit(lim.timeout_ms);
    pthread_mutex_lock(&send_lock);
    stream_now = (flags & ISO_RUN_STREAM) != 0;
    pthread_mutex_unlock(&send_lock);
    /* jobs finish within their call here: the helper is killed at a call's
     * deadline, and nothing would run them between calls (docs/shell.md) */
    sbx_bash_opts o = {.stdin_fd = -1, .on_stdout = stream_out, .on_stderr = stream_err,
                       .wait_jobs = 1};
    if (in && stdin_len) {
      o.stdin_data = in;
      o.stdin_len = stdin_len;
    } else if ((flags & ISO_RUN_STDIN_FD) && fd >= 0) {
      o.stdin_fd = fd;
    }
    o.name = name_z;
    if (flags & ISO_RUN_ARGS) {
      o.args = args;
      o.nargs = (int)nargs;
    }
    o.run_exit_trap = (flags & ISO_RUN_EXIT_TRAP) != 0;
    if ((flags & ISO_RUN_INTERACTIVE) && h->shell) { /* as cli/sh.c does in-process */
      h->shell->root->interactive = true;
      h->shell->root->opt[SH_SHOPT_EXPAND_ALIASES] = true;
    }
    sbx_bash_ex(h, script, script_len, &o, &res);
  }
  send_done(h, &res);
  sbx_bash_result_free(&res);
  for (uint64_t i = 0; args && i < nargs; i++) free(args[i]);
  free(args);
  free(name_z);
}

#ifdef SYS_fstat
/* SQLite's fstat as the plain fstat(2) syscall: the seal denies newfstatat,
 * which glibc's fstat() uses and which would also stat paths by name. */
static int fstat_by_fd(int fd, struct stat *st) {
  return (int)syscall(SYS_fstat, fd, st);
}
#endif

/* Parses "KEY=N" into *v when argv[i] starts with KEY=. */
static void parse_kv(const char *arg, const char *key, uint64_t *v) {
  size_t k = strlen(key);
  if (strncmp(arg, key, k) == 0 && arg[k] == '=') *v = strtoull(arg + k + 1, NULL, 10);
}

int iso_helper_main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr,
            "usage: sbx-pyworker shell DB FLAGS KEY=VALUE... (started by libsbx)\n");
    return 2;
  }
  /* Only the channel (and 0-2, /dev/null) may cross into the sealed helper. */
  if (syscall(SYS_close_range, ISO_FD_CHANNEL + 1, ~0U, 0) != 0)
    for (int fd = ISO_FD_CHANNEL + 1; fd < 1024; fd++) close(fd);
  /* SIGALRM (the flush timer) is for the flusher's sigwaitinfo only: blocked
   * here, before any thread exists, so every thread inherits the mask. */
  static sigset_t alarm_set;
  sigemptyset(&alarm_set);
  sigaddset(&alarm_set, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm_set, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN); /* RLIMIT_FSIZE: a write fails with EFBIG instead */
  struct sigaction sa = {.sa_handler = on_cancel, .sa_flags = SA_RESTART};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);

  jail_limits lim = {0};
  uint64_t hooks = 0, nofile = 0;
  for (int i = 4; i < argc; i++) {
    parse_kv(argv[i], "mem", &lim.mem_bytes);
    parse_kv(argv[i], "cpu", &lim.cpu_seconds);
    parse_kv(argv[i], "fsize", &lim.fsize_bytes);
    parse_kv(argv[i], "nofile", &nofile);
    parse_kv(argv[i], "hooks", &hooks);
  }
  lim.nofile = (uint32_t)nofile;
  tzset(); /* the zone file is read now, while paths still open */
#ifdef SYS_fstat
  sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
  if (vfs && vfs->xSetSystemCall)
    vfs->xSetSystemCall(vfs, "fstat", (sqlite3_syscall_ptr)fstat_by_fd);
#endif

  int flags = SBX_OPEN_NOCREATE | (atoi(argv[3]) & SBX_OPEN_READONLY);
  sbx *h = NULL;
  if (sbx_open(argv[2], flags, &h) != SBX_OK) {
    int rc =
        fail_startup("cannot open the sandbox: %s", h ? sbx_errmsg(h) : "out of memory");
    sbx_close(h);
    return rc;
  }
  h->sealed = 1; /* python3 in a script: a clear error, no attempt */
  /* SQLite's temporary files (statement journals of big changes, sorts)
   * could not be created once sealed: keep them in memory. */
  sqlite3_exec(store_db(h->st), "PRAGMA temp_store=MEMORY", NULL, NULL, NULL);
  /* Warm up before the seal: the session exists and SQLite has its WAL open. */
  sbx_bash_result warm;
  if (sbx_bash(h, "", 0, &warm) != SBX_OK)
    return fail_startup("cannot start the shell: %s", sbx_errmsg(h));
  sbx_bash_result_free(&warm);
  /* The C.UTF-8 locale objects of the shell and the commands are read from
   * /usr/lib/locale on first use, which the seal forbids: load them now. */
  re_utf8_locale();
  cmd_utf8_locale();
  cmd_file_preload();  /* libmagic's database */
  cmd_iconv_preload(); /* glibc's gconv configuration and common modules */
  sbx_stat st;
  sbx_stat_path(h, "/", 0, &st);

  pthread_t flush_thread;
  if (pthread_create(&flush_thread, NULL, flusher, &alarm_set) != 0)
    return fail_startup("cannot start the shell: %s", "no thread for the output");
  char err[512];
  int abi;
  if (jail_seal_process(&lim, &abi, err, sizeof err) != 0)
    return fail_startup("cannot seal the shell process: %s", err);
  helper_sandbox = h;
  char ready[32];
  int n = snprintf(ready, sizeof ready, "landlock=%d", abi);
  send_frame(ISO_MSG_READY, ready, (size_t)n, 1);

  iso_buf payload = {0};
  while (!send_failed) {
    uint32_t type;
    int fd;
    int rc = iso_recv(ISO_FD_CHANNEL, &type, &payload, &fd);
    if (rc != 0) break; /* the host closed the channel (or broke it): done */
    if (type == ISO_MSG_RUN) {
      run_call(h, &payload, fd, hooks != 0);
    } else if (type == ISO_MSG_RESET) {
      sbx_shell_reset(h);
      sbx_bash_result none = {0};
      send_done(h, &none);
    }
    if (fd >= 0) close(fd);
  }
  /* No sbx_close: nothing to flush (every call committed), and the host may
   * still be using the database. */
  _exit(0);
}
