/*
 * test_jail.c - the jail by itself (src/jail): programs run in it with a tmpfs
 * root, and each restriction of jail.h is checked from the inside: ids and id
 * maps, capabilities, no_new_privs, seccomp, the network, the mounts, limits,
 * and that stopping it leaves no process behind.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "jail/jail.h"
#include "py/py_util.h"

/* Runs argv in a fresh jail (tmpfs root); stdout and stderr concatenated into
 * out. Returns the program's exit status, or -1 when the jail failed. */
static int run_in_jail(char *const argv[], char *out, size_t outsz) {
  jail_config cfg = {.root = JAIL_ROOT_TMPFS, .cwd = "/data", .exec_argv = argv};
  cfg.limits.nproc = 32;
  cfg.limits.nofile = 128;
  cfg.limits.mem_bytes = 1ull << 30;
  cfg.limits.fsize_bytes = 1u << 20;
  jail j;
  char err[JAIL_ERRMSG_MAX];
  out[0] = 0;
  if (jail_start(&cfg, &j, err, sizeof err) || jail_wait_ready(&j, 10000, err, sizeof err)) {
    fprintf(stderr, "  jail failed: %s\n", err);
    return -1;
  }
  size_t used = 0;
  int open_fds = 2;
  struct pollfd p[2] = {{j.out_fd, POLLIN, 0}, {j.err_fd, POLLIN, 0}};
  while (open_fds > 0 && poll(p, 2, 10000) > 0) {
    for (int i = 0; i < 2; i++) {
      if (!p[i].revents) continue;
      char buf[4096];
      ssize_t r = read(p[i].fd, buf, sizeof buf);
      if (r <= 0) {
        p[i].fd = -1;
        open_fds--;
        continue;
      }
      size_t k = (size_t)r < outsz - 1 - used ? (size_t)r : outsz - 1 - used;
      memcpy(out + used, buf, k);
      used += k;
      out[used] = 0;
    }
  }
  jail_wait_exit(&j, 5000); /* W is done: its status, not a kill's */
  jail_stop(&j, 5000);
  int st = j.wait_status;
  return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char OUT[65536];

/* The value after "Key:" in text (first line that has it), or "". */
static const char *field(const char *text, const char *key) {
  static char v[256];
  v[0] = 0;
  const char *p = strstr(text, key);
  if (!p) return v;
  p += strlen(key);
  while (*p == ' ' || *p == '\t') p++;
  size_t n = strcspn(p, "\n");
  if (n >= sizeof v) n = sizeof v - 1;
  memcpy(v, p, n);
  v[n] = 0;
  return v;
}

TEST(runtime_entries_follow_the_host) {
  jail_runtime_entry rt[JAIL_MAX_RUNTIME];
  int n = jail_runtime_entries(rt, JAIL_MAX_RUNTIME);
  int have_usr = 0, have_etc = 0, have_proc = 0, have_dev = 0;
  for (int i = 0; i < n; i++) {
    have_usr |= strcmp(rt[i].name, "usr") == 0 && rt[i].bind_host;
    have_etc |= strcmp(rt[i].name, "etc") == 0 && !rt[i].bind_host;
    have_proc |= strcmp(rt[i].name, "proc") == 0;
    have_dev |= strcmp(rt[i].name, "dev") == 0;
    char path[sizeof rt[i].name + 1];
    snprintf(path, sizeof path, "/%.*s", (int)sizeof rt[i].name - 1, rt[i].name);
    struct stat st;
    if (rt[i].is_symlink) {
      char t[64];
      ssize_t l = readlink(path, t, sizeof t - 1);
      REQUIRE(l > 0);
      t[l] = 0;
      CHECK_STR(rt[i].target, t);
    } else if (rt[i].bind_host) {
      CHECK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode));
    }
  }
  CHECK(have_usr && have_etc && have_proc && have_dev);
}

TEST(ids_and_no_host_root) {
  char *argv[] = {"/usr/bin/id", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK_STR(OUT, "uid=1000(sandbox) gid=1000(sandbox) groups=1000(sandbox)\n");
  char *maps[] = {"/usr/bin/cat", "/proc/self/uid_map", "/proc/self/gid_map", NULL};
  CHECK_EQ(run_in_jail(maps, OUT, sizeof OUT), 0);
  unsigned in, host, count;
  REQUIRE(sscanf(OUT, "%u %u %u", &in, &host, &count) == 3);
  CHECK_EQ(in, 1000);
  CHECK_EQ(count, 1);
  CHECK(host != 0); /* I1: host root is never mapped */
  if (geteuid() == 0) CHECK(host >= JAIL_HOST_ID_BASE && host < JAIL_HOST_ID_BASE + JAIL_HOST_ID_SPAN);
  else CHECK_EQ(host, geteuid());
}

TEST(no_capabilities_nnp_and_seccomp) {
  char *argv[] = {"/usr/bin/cat", "/proc/self/status", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK_STR(field(OUT, "CapInh:"), "0000000000000000");
  CHECK_STR(field(OUT, "CapPrm:"), "0000000000000000");
  CHECK_STR(field(OUT, "CapEff:"), "0000000000000000");
  CHECK_STR(field(OUT, "CapBnd:"), "0000000000000000");
  CHECK_STR(field(OUT, "CapAmb:"), "0000000000000000");
  CHECK_STR(field(OUT, "NoNewPrivs:"), "1");
  CHECK_STR(field(OUT, "Seccomp:"), "2");
}

TEST(only_loopback_network) {
  char *argv[] = {"/usr/bin/cat", "/proc/self/net/dev", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK(strstr(OUT, "lo:") != NULL);
  /* Two header lines and lo: nothing else. */
  int lines = 0;
  for (const char *p = OUT; *p; p++) lines += *p == '\n';
  CHECK_EQ(lines, 3);
}

TEST(hostname_and_pid_namespace) {
  char *argv[] = {"/usr/bin/sh", "-c", "uname -n; echo $$; set -- /proc/[0-9]*; echo $#", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  /* sandbox; the shell is pid 2 (init is 1); /proc shows only the jail:
   * init and sh (the shell expands the glob itself: no child whose start
   * races the listing, as `ls /proc | grep` had). */
  CHECK_STR(OUT, "sandbox\n2\n2\n");
}

TEST(runtime_is_read_only_root_is_writable) {
  char *argv[] = {"/usr/bin/sh", "-c",
                  "touch /usr/x 2>/dev/null && echo usr-writable; "
                  "touch /etc/x 2>/dev/null && echo etc-writable; "
                  "touch /dev/x 2>/dev/null && echo dev-writable; "
                  "echo ok > /data/f && cat /data/f; echo t > /tmp/t && cat /tmp/t",
                  NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK_STR(OUT, "ok\nt\n");
}

TEST(proc_hides_the_kernel_knobs) {
  char *argv[] = {"/usr/bin/sh", "-c", "ls /proc/sys /proc/kcore /proc/sysrq-trigger 2>&1 | wc -l; "
                                       "test -e /proc/self/status && echo self",
                  NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK(strstr(OUT, "self\n") != NULL);
  CHECK(strstr(OUT, "No such file") == NULL || strncmp(OUT, "3\n", 2) == 0);
}

TEST(rlimits_are_applied) {
  char *argv[] = {"/usr/bin/cat", "/proc/self/limits", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK(strstr(OUT, "Max processes             32                   32") != NULL);
  CHECK(strstr(OUT, "Max open files            128                  128") != NULL);
  CHECK(strstr(OUT, "Max file size             1048576              1048576") != NULL);
  CHECK(strstr(OUT, "Max address space         1073741824           1073741824") != NULL);
  CHECK(strstr(OUT, "Max core file size        0                    0") != NULL);
  /* The file size limit is enforced. */
  char *big[] = {"/usr/bin/sh", "-c", "head -c 2000000 /dev/zero > /data/big; ls -l /data/big | cut -d' ' -f5",
                 NULL};
  run_in_jail(big, OUT, sizeof OUT);
  CHECK(strstr(OUT, "1048576\n") != NULL);
}

TEST(denied_calls_answer_eperm) {
  /* unshare(1) and mount(8) exist in Debian's util-linux, inside /usr. */
  char *argv[] = {"/usr/bin/sh", "-c",
                  "unshare -U true 2>&1 | grep -c 'Operation not permitted'; "
                  "mount -t tmpfs none /tmp 2>&1 | grep -c -i 'permission denied\\|not permitted\\|must be superuser'",
                  NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  CHECK_STR(OUT, "1\n1\n");
}

TEST(exec_failure_is_reported) {
  char *argv[] = {"/usr/bin/does-not-exist", NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 127);
  CHECK(strstr(OUT, "No such file or directory") != NULL);
}

TEST(a_missing_helper_is_a_clear_error) {
  jail_config cfg = {.root = JAIL_ROOT_TMPFS, .helper_path = "/nonexistent/sbx-pyworker"};
  jail j;
  char err[JAIL_ERRMSG_MAX];
  CHECK_EQ(jail_start(&cfg, &j, err, sizeof err), -1);
  CHECK(strstr(err, "/nonexistent/sbx-pyworker") != NULL);
}

TEST(stop_leaves_nothing_running) {
  int before = count_jail_processes();
  char *argv[] = {"/usr/bin/sh", "-c", "sleep 100 & sleep 100 & sleep 100", NULL};
  jail_config cfg = {.root = JAIL_ROOT_TMPFS, .cwd = "/", .exec_argv = argv};
  cfg.limits.nproc = 32;
  jail j;
  char err[JAIL_ERRMSG_MAX];
  REQUIRE(jail_start(&cfg, &j, err, sizeof err) == 0);
  REQUIRE(jail_wait_ready(&j, 10000, err, sizeof err) == 0);
  usleep(100000);
  CHECK(count_jail_processes() >= before + 5); /* P1, J1, sh, three sleeps */
  jail_stop(&j, 5000);
  CHECK_EQ(count_jail_processes(), before);
  CHECK_EQ(j.helper_pid, -1);
  CHECK_EQ(j.ctl_fd, -1);
  /* Stopping twice is harmless. */
  jail_stop(&j, 100);
}

TEST(fork_bomb_is_contained) {
  char *argv[] = {"/usr/bin/python3", "-I", "-S", "-c",
                  "import os, time\n"
                  "n = 0\n"
                  "try:\n"
                  "    while n < 500:\n"
                  "        if os.fork() == 0:\n"
                  "            time.sleep(3)\n"
                  "            os._exit(0)\n"
                  "        n += 1\n"
                  "except OSError as e:\n"
                  "    print(n, e.errno)\n",
                  NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  /* RLIMIT_NPROC = 32 stops it with EAGAIN long before 500. */
  int n = -1, err = -1;
  CHECK(sscanf(OUT, "%d %d", &n, &err) == 2);
  CHECK(n > 0 && n < 32);
  CHECK_EQ(err, EAGAIN);
}

TEST(probe_reports_each_piece) {
  jail_probe_item items[24];
  int ok = 0;
  int n = jail_probe(items, 24, &ok);
  CHECK(n >= 8);
  int saw_userns = 0, saw_seccomp = 0, saw_full = 0, saw_memory = 0;
  for (int i = 0; i < n; i++) {
    /* The memory bound is reported either way: a cgroup, or the fallback. */
    if (strcmp(items[i].name, "jail memory limit") == 0)
      saw_memory = items[i].ok == 1 ? strstr(items[i].detail, "cgroup v") != NULL
                                    : strstr(items[i].detail, "no memory cgroup") != NULL;
    if (strcmp(items[i].name, "user namespaces") == 0) saw_userns = items[i].ok == 1;
    if (strcmp(items[i].name, "seccomp") == 0) saw_seccomp = items[i].ok == 1;
    if (strcmp(items[i].name, "full jail") == 0) saw_full = items[i].ok == 1;
    if (items[i].ok == 0) CHECK(items[i].fix[0] != 0); /* every failure says what to change */
  }
  CHECK(saw_userns && saw_seccomp && saw_full && saw_memory);
  CHECK_EQ(ok, 1);
}

/* J1's fds 0-2 are the jail's /dev/null, and J1 is not dumpable: the
 * sandbox user (same uid) cannot open its fds, memory or root. */
TEST(init_holds_no_host_fd_and_is_not_dumpable) {
  char *argv[] = {"/usr/bin/sh", "-c",
                  "ls /proc/1/fd >/dev/null 2>&1 && echo fd-open || echo fd-closed; "
                  "(: > /proc/1/mem) 2>/dev/null && echo mem-open || echo mem-closed; "
                  "stat -c %u /proc/1/mem",
                  NULL};
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  /* The owner of a non-dumpable process's files is root, unmapped here. */
  CHECK_STR(OUT, "fd-closed\nmem-closed\n65534\n");
}

/* A cgroup for one jail: made with its limit, removed without a trace; or,
 * where the host has none for us, a reason. */
TEST(cgroup_is_made_and_removed) {
  jail_cgroup cg;
  char why[JAIL_ERRMSG_MAX] = "";
  if (jail_cgroup_create(&cg, 256u << 20, 16, why, sizeof why) != 0) {
    CHECK(why[0] != 0);
    CHECK_EQ(cg.version, 0);
    return;
  }
  CHECK(cg.version == 1 || cg.version == 2);
  char path[JAIL_CGROUP_PATH + 64], buf[64] = "";
  snprintf(path, sizeof path, "%s/%s", cg.dir, cg.version == 2 ? "memory.max" : "memory.limit_in_bytes");
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) {
    CHECK(fgets(buf, sizeof buf, f) != NULL);
    fclose(f);
  }
  CHECK_EQ(strtoull(buf, NULL, 10), 256ull << 20);
  CHECK_EQ(jail_cgroup_set_memory(&cg, 128u << 20), 0);
  CHECK_EQ(jail_cgroup_oom_kills(&cg), 0);
  char dir[JAIL_CGROUP_PATH];
  snprintf(dir, sizeof dir, "%s", cg.dir);
  jail_cgroup_remove(&cg);
  CHECK(access(dir, F_OK) != 0);
  /* Refused on request, with the reason. */
  setenv("SBX_JAIL_NO_CGROUP", "1", 1);
  CHECK(jail_cgroup_create(&cg, 256u << 20, 16, why, sizeof why) != 0);
  CHECK(strstr(why, "SBX_JAIL_NO_CGROUP") != NULL);
  unsetenv("SBX_JAIL_NO_CGROUP");
}

/* Without a cgroup, W cannot make memfds or SysV segments (their pages
 * escape RLIMIT_AS); with one it can, and the cgroup counts them. */
TEST(memory_filter_without_a_cgroup) {
  char *argv[] = {"/usr/bin/python3.11", "-I", "-S", "-c",
                  "import os, ctypes\n"
                  "libc = ctypes.CDLL(None, use_errno=True)\n"
                  "try:\n"
                  "    os.memfd_create('x'); print('memfd ok')\n"
                  "except OSError as e:\n"
                  "    print('memfd', e.errno)\n"
                  "r = libc.shmget(0, 4096, 0o1600)\n"
                  "print('shmget', 'ok' if r >= 0 else ctypes.get_errno())\n",
                  NULL};
  setenv("SBX_JAIL_NO_CGROUP", "1", 1);
  CHECK_EQ(run_in_jail(argv, OUT, sizeof OUT), 0);
  unsetenv("SBX_JAIL_NO_CGROUP");
  CHECK_STR(OUT, "memfd 1\nshmget 1\n"); /* EPERM */
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  become_subreaper();
  RUN(runtime_entries_follow_the_host);
  RUN(ids_and_no_host_root);
  RUN(no_capabilities_nnp_and_seccomp);
  RUN(only_loopback_network);
  RUN(hostname_and_pid_namespace);
  RUN(runtime_is_read_only_root_is_writable);
  RUN(proc_hides_the_kernel_knobs);
  RUN(rlimits_are_applied);
  RUN(denied_calls_answer_eperm);
  RUN(exec_failure_is_reported);
  RUN(a_missing_helper_is_a_clear_error);
  RUN(stop_leaves_nothing_running);
  RUN(fork_bomb_is_contained);
  RUN(probe_reports_each_piece);
  RUN(init_holds_no_host_fd_and_is_not_dumpable);
  RUN(cgroup_is_made_and_removed);
  RUN(memory_filter_without_a_cgroup);
  return harness_done();
}
