/*
 * test_escape_reduced.c - the escape suite on the reduced jail tier
 * (src/jail/jail_reduced.c): each case is code in the sandbox that tries to
 * get out or to hurt the host, proven blocked by what the code observes.
 * What this tier cannot block is listed in docs/security.md, not here.
 *
 * The tier is forced with sbx_python_require(SBX_TIER_REDUCED) on a host
 * where the full jail works, and reached the natural way when the suite runs
 * under tools/sbx-nons (a default container's seccomp answer to namespaces,
 * optionally as a non-root uid without /dev/fuse): scripts/suites/py-reduced.sh.
 * Either way the first case checks that the tier in use is the reduced one.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "escape_util.h"
#include "py_util.h"

static sbx *H;
static char bait[64];  /* a host directory outside the sandbox (mkdtemp) */

static void expect(const char *code, const char *want) { escape_expect(H, code, want); }

TEST(the_tier_is_the_reduced_one) {
  char *info = NULL;
  REQUIRE(sbx_jail_info(H, &info) == SBX_OK);
  CHECK(strstr(info, "\"tier\":\"reduced\"") != NULL);
  CHECK(strstr(info, "\"lost\":[") != NULL);
  sbx_free(info);
  expect("os.environ['SBX_JAIL_TIER']", "'reduced'");
}

/* sbx_python_require: an unknown tier is a misuse; where the host refuses
 * the full jail (under sbx-nons), requiring it fails with SBX_JAIL and says
 * why, instead of running on the reduced tier. */
TEST(require_full_refuses_the_reduced_tier) {
  sbx *h = NULL;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  CHECK_EQ(sbx_python_require(h, 7), SBX_MISUSE);
  if (getenv("SBX_ESCAPE_NATURAL")) {
    CHECK_EQ(sbx_python_require(h, SBX_TIER_FULL), SBX_OK);
    sbx_py_result *r = NULL;
    CHECK_EQ(sbx_python_exec(h, "1", NULL, &r), SBX_JAIL);
    CHECK(strstr(sbx_errmsg(h), "the full jail is required") != NULL);
    CHECK(r == NULL);
    char *info = NULL;
    CHECK_EQ(sbx_jail_info(h, &info), SBX_JAIL);
    CHECK(info == NULL);
  }
  sbx_close(h);
}

TEST(read_host_files) {
  expect("[err(lambda: open(p, 'rb').read()) for p in "
         "('/etc/shadow', '/etc/passwd', '/etc/hostname', '/proc/1/environ', "
         "'/proc/self/environ', '/proc/self/mem', '/sys/kernel/notes')]",
         "['EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES']");
  expect("[err(lambda: os.listdir(p)) for p in ('/', '/root', '/etc', '/proc', '/tmp', '/var')]",
         "['EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES']");
  char code[256];
  snprintf(code, sizeof code, "err(lambda: os.listdir('%s'))", bait);
  expect(code, "'EACCES'");
  /* The runtime is readable (that is what it is for), never writable. */
  expect("os.path.exists('/usr/bin/python3.11')", "True");
}

TEST(write_outside_the_sandbox) {
  char code[512];
  snprintf(code, sizeof code,
           "[err(lambda: open(p, 'w')) for p in ('/usr/x', '/usr/lib/x', '/etc/x', '/tmp/x', "
           "'/dev/shm/x', '%s/x')]",
           bait);
  expect(code, "['EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES', 'EACCES']");
  expect("[err(lambda: f()) for f in (lambda: os.mkdir('/usr/d'), lambda: os.remove('/etc/passwd'), "
         "lambda: os.rename('/usr/bin/ls', 'ls'), lambda: os.truncate('/usr/bin/ls', 0))]",
         "['EACCES', 'EACCES', 'EACCES', 'EACCES']");
  expect("err(lambda: os.mknod('dev', 0o600 | 0o020000, os.makedev(1, 3)))", "'EACCES'");
}

TEST(network_is_absent) {
  expect("[err(lambda: socket.socket(f, socket.SOCK_STREAM)) for f in "
         "(socket.AF_INET, socket.AF_INET6)]",
         "['EAFNOSUPPORT', 'EAFNOSUPPORT']");
  expect("err(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW))", "'EAFNOSUPPORT'");
  expect("err(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW))", "'EAFNOSUPPORT'");
  expect("err(lambda: socket.create_connection(('127.0.0.1', 22), timeout=1))", "'EAFNOSUPPORT'");
  expect("sc(41, 0x100000002, 1, 0)", "'EAFNOSUPPORT'");
  /* No unix socket of our own: a path socket of the host (docker.sock,
   * /dev/log) could otherwise be reached by name. */
  expect("err(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))", "'EACCES'");
  expect("err(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))", "'EACCES'");
  expect("err(lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM))", "'EPERM'");
  expect("sc(42, 3, 0, 0)", "'EPERM'");   /* connect on the channel's fd */
  expect("sc(49, 3, 0, 0)", "'EPERM'");   /* bind */
  expect("sc(44, 3, b'x', 1, 0, ctypes.c_char_p(b'\\x01\\x00/dev/log'), 12)", "'EPERM'"); /* sendto addr */
  /* Stream pairs work (multiprocessing, asyncio need them). */
  expect("len(socket.socketpair())", "2");
}

TEST(a_host_unix_socket_is_out_of_reach) {
  char path[108];
  snprintf(path, sizeof path, "%s/host.sock", bait);
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
  REQUIRE(s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 && listen(s, 4) == 0);
  chmod(path, 0777);
  chmod(bait, 0755);
  char code[512];
  snprintf(code, sizeof code,
           "def c():\n"
           "    x = socket.socket(socket.AF_UNIX)\n"
           "    x.connect('%s')\n"
           "err(c)",
           path);
  expect(code, "'EACCES'");
  close(s);
  unlink(path);
  chmod(bait, 0700);
}

TEST(ptrace_and_process_access) {
  expect("sc(101, 0, 0, 0, 0)", "'EPERM'");       /* ptrace(TRACEME) */
  expect("sc(101, 16, os.getppid(), 0, 0)", "'EPERM'"); /* ptrace(ATTACH, P1) */
  expect("sc(310, os.getppid(), 0, 0, 0, 0, 0)", "'EPERM'"); /* process_vm_readv */
  expect("sc(438, 0, 0, 0)", "'EPERM'");          /* pidfd_getfd */
  expect("err(lambda: open('/proc/%d/mem' % os.getppid(), 'rb'))", "'EACCES'");
}

TEST(mount_and_namespaces) {
  escape_mount_and_namespaces(H);
  expect("sc(56, 0x20000000 | 17, 0, 0, 0, 0)", "'EPERM'"); /* clone(NEWPID) */
}

TEST(signals_stay_inside) {
  char code[256];
  /* The host, its supervisor P1 and init: Landlock's signal scope (ABI 6). */
  snprintf(code, sizeof code, "[err(lambda: os.kill(p, 0)) for p in (%d, os.getppid(), 1)]",
           (int)getpid());
  expect(code, "['EPERM', 'EPERM', 'EPERM']");
  /* Leaving the process group (what a timeout kills) is refused. */
  expect("[err(os.setsid), err(lambda: os.setpgid(0, 0)), err(lambda: os.setpgid(0, 1))]",
         "['EPERM', 'EPERM', 'EPERM']");
}

TEST(kernel_surface) {
  escape_kernel_surface(H);
  expect("sc(248, b'user', b'k', b'v', 1, -4)", "'EPERM'"); /* add_key */
  expect("sc(105, 0)", "'EPERM'");                          /* setuid(0) */
  expect("libc.prctl(39, 0, 0, 0, 0)", "1"); /* PR_GET_NO_NEW_PRIVS */
}

TEST(symlinks_and_hard_links_out) {
  expect("os.symlink('/etc/passwd', 'lnk')\nerr(lambda: open('lnk').read())", "'EACCES'");
  /* Landlock (EXDEV: the link would gain rights) or, before it,
   * protected_hardlinks (EPERM: not the file's owner). */
  expect("[err(lambda: os.link(p, 'hl')) in ('EXDEV', 'EPERM') for p in "
         "('/etc/passwd', '/usr/bin/ls')]",
         "[True, True]");
  /* The host imports the link as a link, never what it points at. */
  char *target = NULL;
  CHECK(sbx_readlink(H, "/data/lnk", &target) == SBX_OK && target &&
        strcmp(target, "/etc/passwd") == 0);
  sbx_free(target);
}

/* A background process swaps the directory the host is about to write into
 * for a symlink to a host directory, again and again: the host's export and
 * import open every component with O_NOFOLLOW, so nothing lands outside. */
TEST(swapped_directories_cannot_redirect_the_host) {
  char code[1024];
  snprintf(code, sizeof code,
           "import os\nos.mkdir('d')\n"
           "if os.fork() == 0:\n"
           "    for i in range(200000):\n"
           "        try:\n"
           "            os.rename('d', 'd.old')\n"
           "            os.symlink('%s', 'd')\n"
           "            os.unlink('d')\n"
           "            os.rename('d.old', 'd')\n"
           "        except OSError:\n"
           "            pass\n"
           "    os._exit(0)\n"
           "'started'",
           bait);
  CHECK_STR(py_eval(H, code), "'started'");
  for (int i = 0; i < 20; i++) {
    char data[32];
    snprintf(data, sizeof data, "round %d", i);
    sbx_write_file(H, "/data/d/f.txt", data, strlen(data), SBX_WRITE_MKDIRS);
    py_eval(H, "1");
  }
  char path[128];
  snprintf(path, sizeof path, "%s/f.txt", bait);
  CHECK(access(path, F_OK) != 0);
  sbx_python_stop(H); /* ends the swapper */
}

/* A FIFO where the host will write a file: the host neither blocks on it
 * nor keeps it; the file arrives. */
TEST(a_fifo_in_place_of_a_file_does_not_block_the_host) {
  REQUIRE(sbx_write_file(H, "/data/ff.txt", "one", 3, 0) == SBX_OK);
  expect("os.remove('ff.txt')\nos.mkfifo('ff.txt')\n'fifo'", "'fifo'");
  REQUIRE(sbx_write_file(H, "/data/ff.txt", "two", 3, 0) == SBX_OK);
  expect("import stat\n(stat.S_ISREG(os.lstat('ff.txt').st_mode), open('ff.txt').read())",
         "(True, 'two')");
}

/* The host walks the code's tree to a bounded depth (MIRROR_MAX_DEPTH, 256):
 * deeper is reported on the call's stderr, nothing is deleted from the store
 * on a walk that stopped early, and removing the tree heals it. */
TEST(a_tree_deeper_than_the_walk_limit_is_reported) {
  REQUIRE(sbx_write_file(H, "/data/keep.txt", "kept", 4, 0) == SBX_OK);
  sbx_py_result *r = py_run(H, "import os\nos.makedirs('/'.join(['deep'] + ['d'] * 300))\n'made'");
  REQUIRE(r);
  CHECK_STR(r->repr ? r->repr : "", "'made'");
  CHECK(r->err && strstr(r->err, "deeper than 256 levels") != NULL);
  sbx_free(r);
  sbx_stat st;
  CHECK_EQ(sbx_stat_path(H, "/data/keep.txt", 0, &st), SBX_OK);
  r = py_run(H, "import shutil\nshutil.rmtree('deep')\nos.remove('keep.txt')\n'gone'");
  REQUIRE(r);
  CHECK(r->err_len == 0);
  sbx_free(r);
  CHECK(sbx_stat_path(H, "/data/keep.txt", 0, &st) != SBX_OK);
  CHECK(sbx_stat_path(H, "/data/deep", 0, &st) != SBX_OK);
}

TEST(fork_bomb_is_bounded) {
  /* RLIMIT_NPROC counts a uid's processes: it bounds the jail only when it
   * has a uid of its own, i.e. when the host is root (docs/security.md). */
  if (geteuid() != 0) return;
  escape_fork_bomb(H);
}

TEST(memory_bomb) {
  escape_memory_bomb(H);
}

TEST(a_big_file_is_refused) {
  /* RLIMIT_FSIZE is the sandbox's max_file_size. */
  sbx_quota q = {.max_file_size = 1u << 20};
  REQUIRE(sbx_set_quota(H, &q) == SBX_OK);
  sbx_python_stop(H); /* the limit is the jail's: a new one */
  expect("import signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
         "err(lambda: open('big', 'wb').write(b'x' * (2 << 20)))",
         "'EFBIG'");
  sbx_quota none = {0};
  sbx_set_quota(H, &none);
  sbx_python_stop(H);
}

TEST(a_timeout_kills_every_process) {
  int before = count_jail_processes();
  check_py_timeout(H,
                   "import os, signal, time\n"
                   "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                   "if os.fork() == 0:\n"
                   "    if os.fork() == 0:\n"
                   "        time.sleep(600)\n"
                   "    os._exit(0)\n"
                   "while True: pass",
                   0.5, 0.3, 1);
  /* The orphaned grandchild went with the worker. */
  int left = count_jail_processes();
  for (int i = 0; i < 50 && left > before; i++) {
    usleep(20000);
    left = count_jail_processes();
  }
  CHECK(left <= before);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

/* Where Landlock has no signal scope the worker could kill its supervisor
 * P1 (here it cannot: EPERM above). Simulated the only way the test can:
 * the host kills P1 itself while a grandchild sleeps; stopping the worker
 * still leaves nothing behind. */
TEST(a_dead_supervisor_leaves_no_orphan) {
  sbx_python_stop(H);
  int before = count_jail_processes();
  CHECK_STR(py_eval(H, "import os, time\n"
                       "if os.fork() == 0:\n"
                       "    if os.fork() == 0:\n"
                       "        time.sleep(600)\n"
                       "    os._exit(0)\n"
                       "os.wait()\n"
                       "'forked'"),
            "'forked'");
  char ppid[64];
  snprintf(ppid, sizeof ppid, "%s", py_eval(H, "os.getppid()"));
  REQUIRE(atoi(ppid) > 1);
  kill((pid_t)atoi(ppid), SIGKILL);
  usleep(100000);
  sbx_python_stop(H);
  /* Orphans come to us (become_subreaper): once killed, they are reaped
   * here; one still alive would keep the count up. */
  int left = -1;
  for (int i = 0; i < 50 && left != before; i++) {
    usleep(20000);
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    left = count_jail_processes();
  }
  CHECK_EQ(left, before);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

TEST(forged_control_messages) {
  escape_expect_killed(H, "import os\nos.write(3, b'\\xff\\xff\\xff\\x7fgarbage' * 10)\n"
                          "import time\ntime.sleep(1)", NULL);
}

TEST(files_stay_consistent_with_the_store) {
  REQUIRE(sbx_write_file(H, "/data/in.txt", "from host", 9, SBX_WRITE_MKDIRS) == SBX_OK);
  expect("open('in.txt').read()", "'from host'");
  expect("open('out.txt', 'w').write('from code')\n"
         "os.makedirs('sub/deep')\nopen('sub/deep/x', 'w').write('x')\n"
         "os.remove('in.txt')\nos.chmod('out.txt', 0o600)\n'ok'",
         "'ok'");
  char *data = NULL;
  size_t len = 0;
  CHECK(sbx_read_file(H, "/data/out.txt", (void **)&data, &len) == SBX_OK && len == 9 &&
        memcmp(data, "from code", 9) == 0);
  sbx_free(data);
  sbx_stat st;
  CHECK(sbx_stat_path(H, "/data/in.txt", 0, &st) != SBX_OK);
  CHECK(sbx_stat_path(H, "/data/sub/deep/x", 0, &st) == SBX_OK);
  CHECK(sbx_stat_path(H, "/data/out.txt", 0, &st) == SBX_OK && (st.mode & 0777) == 0600);
  /* A host-side removal and rename reach the code at its next call. */
  REQUIRE(sbx_remove(H, "/data/sub", 1) == SBX_OK);
  REQUIRE(sbx_rename(H, "/data/out.txt", "/data/moved.txt") == SBX_OK);
  expect("[n in os.listdir('.') for n in ('in.txt', 'sub', 'out.txt', 'moved.txt')]",
         "[False, False, False, True]");
}

int main(int argc, char **argv) {
  snprintf(bait, sizeof bait, "/tmp/sbx-bait-XXXXXX");
  if (!mkdtemp(bait) || py_test_begin(argc, argv, &H)) return 1;
  if (sbx_mkdir(H, "/data", 1) != SBX_OK) return 1;
  /* Forced here unless the host itself refuses the full jail (sbx-nons). */
  if (!getenv("SBX_ESCAPE_NATURAL")) sbx_python_require(H, SBX_TIER_REDUCED);
  int before = count_jail_processes();
  RUN(the_tier_is_the_reduced_one);
  RUN(require_full_refuses_the_reduced_tier);
  RUN(read_host_files);
  RUN(write_outside_the_sandbox);
  RUN(network_is_absent);
  RUN(a_host_unix_socket_is_out_of_reach);
  RUN(ptrace_and_process_access);
  RUN(mount_and_namespaces);
  RUN(signals_stay_inside);
  RUN(kernel_surface);
  RUN(symlinks_and_hard_links_out);
  RUN(swapped_directories_cannot_redirect_the_host);
  RUN(a_fifo_in_place_of_a_file_does_not_block_the_host);
  RUN(a_tree_deeper_than_the_walk_limit_is_reported);
  RUN(fork_bomb_is_bounded);
  RUN(memory_bomb);
  RUN(a_big_file_is_refused);
  RUN(a_timeout_kills_every_process);
  RUN(a_dead_supervisor_leaves_no_orphan);
  RUN(forged_control_messages);
  RUN(files_stay_consistent_with_the_store);
  sbx_close(H);
  rmdir(bait);
  check_no_jail_processes_left(before);
  return harness_done();
}
