/*
 * test_escape.c - the escape suite: each case is code run inside the sandbox
 * that tries to get out or to hurt the host, and each is proven blocked by
 * the value the code itself observes. After every case the host is alive
 * (we are) and the sandbox still answers.
 *
 * The cases end with an expression whose repr is compared exactly; most print
 * the errno name the kernel (or seccomp, or the mounts) answered.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "escape_util.h"
#include "py_util.h"

static sbx *H;

static void expect(const char *code, const char *want) { escape_expect(H, code, want); }

TEST(read_host_files) {
  expect("err(lambda: open('/etc/shadow').read())", "'ENOENT'");
  expect("err(lambda: os.listdir('/root'))", "'ENOENT'");
  expect("err(lambda: os.listdir('/home'))", "'ENOENT'");
  /* pid 1 here is the jail's init: the host's init is not in this pid
   * namespace at all, and the jail's is not dumpable, so its environment
   * and root are closed to the sandbox user (init_cannot_be_taken_over). */
  expect("err(lambda: open('/proc/1/environ', 'rb').read())", "'EACCES'");
  expect("open('/proc/1/cmdline', 'rb').read().split(b'\\0')[:2]", "[b'sbx-pyworker', b'jail']");
  /* J1, the worker and the fork server Z. */
  expect("sorted(p for p in os.listdir('/proc') if p.isdigit())", "['1', '2', '3']");
  expect("err(lambda: open('/proc/1/root/etc/passwd').read())", "'EACCES'");
  /* /proc/self/root is the jail's root, not the host's. */
  expect("'sandbox:x:1000' in open('/proc/self/root/etc/passwd').read()", "True");
}

TEST(write_outside_the_store) {
  expect("[err(lambda: open(p, 'w')) for p in "
         "('/usr/x', '/usr/lib/x', '/bin/x', '/etc/x', '/dev/x', '/proc/x')]",
         "['EROFS', 'EROFS', 'EROFS', 'EROFS', 'EROFS', 'ENOENT']");
  expect("err(lambda: os.mkdir('/usr/d'))", "'EROFS'");
  expect("err(lambda: os.remove('/etc/passwd'))", "'EROFS'");
  /* EBUSY from the FUSE server (a mount point), or EACCES from the kernel
   * before it when the mount belongs to the jail's user namespace. */
  expect("err(lambda: os.rmdir('/usr')) in ('EBUSY', 'EACCES')", "True");
}

TEST(network_is_absent) {
  expect("[err(lambda: socket.socket(f, socket.SOCK_STREAM)) for f in "
         "(socket.AF_INET, socket.AF_INET6)]",
         "['EAFNOSUPPORT', 'EAFNOSUPPORT']");
  expect("err(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW))", "'EAFNOSUPPORT'");
  expect("err(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW))", "'EAFNOSUPPORT'");
  expect("err(lambda: socket.create_connection(('127.0.0.1', 22), timeout=1))", "'EAFNOSUPPORT'");
  expect("err(lambda: socket.create_connection(('8.8.8.8', 53), timeout=1))", "'EAFNOSUPPORT'");
  /* Raw syscalls with the family's high bits set do not slip through either. */
  expect("sc(41, 0x100000002, 1, 0)", "'EAFNOSUPPORT'");
  /* Unix sockets work (Python's multiprocessing needs them). */
  expect("len(socket.socketpair())", "2");
}

TEST(name_resolution_fails) {
  expect("try:\n"
         "    socket.getaddrinfo('example.com', 80)\n"
         "    r = 'resolved'\n"
         "except socket.gaierror:\n"
         "    r = 'gaierror'\n"
         "r",
         "'gaierror'");
}

TEST(ptrace_and_process_access) {
  expect("sc(101, 0, 0, 0, 0)", "'EPERM'");        /* ptrace(TRACEME) */
  expect("sc(101, 16, 1, 0, 0)", "'EPERM'");       /* ptrace(ATTACH, init) */
  expect("sc(310, 1, 0, 0, 0, 0, 0)", "'EPERM'");  /* process_vm_readv */
  expect("sc(438, 0, 0, 0)", "'EPERM'");           /* pidfd_getfd */
}

TEST(mount_and_namespaces) {
  escape_mount_and_namespaces(H);
}

TEST(kill_host_processes) {
  char code[256];
  /* Our pid means nothing in the jail's pid namespace. */
  snprintf(code, sizeof code, "err(lambda: os.kill(%d, 9))", (int)getpid());
  expect(code, getpid() <= 3 ? "'OK'" : "'ESRCH'");
  /* The jail's init ignores signals from inside; -1 reaches only the jail:
   * the fork server, which J1 starts again (test_jailprog). */
  expect("os.kill(1, 9)\n'init lives' if os.path.exists('/proc/1') else 'init died'", "'init lives'");
  expect("err(lambda: os.kill(-1, 15))", "'OK'");
}

TEST(forged_control_messages) {
  /* Garbage on our own control socket: the host refuses it and restarts. */
  escape_expect_killed(H, "import os\nos.write(3, b'\\xff\\xff\\xff\\x7fgarbage' * 10)\n"
                          "import time\ntime.sleep(1)", "malformed");
  /* A well-formed RESULT for a request that does not exist. */
  escape_expect_killed(H, "import os, struct\n"
                          "body = bytes([65]) + struct.pack('<I', 999999) + bytes([13]) + struct.pack('<I', 8) + bytes(8)\n"
                          "os.write(3, struct.pack('<I', len(body)) + body)\n"
                          "import time\ntime.sleep(1)", NULL);
  /* A host request type sent by the worker is refused too. */
  escape_expect_killed(H, "import os, struct\n"
                          "body = bytes([1]) + struct.pack('<I', 1) + bytes([2]) + struct.pack('<I', 1) + b'1'\n"
                          "os.write(3, struct.pack('<I', len(body)) + body)\n"
                          "import time\ntime.sleep(1)", NULL);
}

TEST(tampering_with_the_worker_channels) {
  /* The interrupt channel closed: the interrupt cannot arrive, the kill does;
   * writing to a channel nobody reads must not hurt the host (SIGPIPE). */
  check_py_timeout(H, "import os, signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                      "os.close(4)\nos.close(1)\nwhile True: pass",
                   0.3, 0.3, 1);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
  /* The control socket closed: the host sees the worker end. */
  CHECK_EQ(py_error(H, "import os\nos.close(3)\n'unreachable'", NULL), SBX_PY_KILLED);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

TEST(kernel_modules_and_kernel_surface) {
  escape_kernel_surface(H);
  expect("sc(105, 0)", "'EINVAL'"); /* setuid(0): uid 0 is not mapped */
}

TEST(raising_limits) {
  expect("import resource\n"
         "h = resource.getrlimit(resource.RLIMIT_NPROC)[1]\n"
         "try:\n"
         "    resource.setrlimit(resource.RLIMIT_NPROC, (h + 1, h + 1))\n"
         "    r = 'raised'\n"
         "except (ValueError, OSError):\n"
         "    r = 'refused'\n"
         "r",
         "'refused'");
  expect("import resource\n"
         "try:\n"
         "    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\n"
         "    r = 'raised'\n"
         "except (ValueError, OSError):\n"
         "    r = 'refused'\n"
         "r",
         "'refused'");
}

TEST(fork_bomb) {
  escape_fork_bomb(H);
}

TEST(memory_bomb) {
  escape_memory_bomb(H);
}

TEST(filling_the_disk) {
  sbx_quota q = {.max_bytes = 1u << 20};
  REQUIRE(sbx_set_quota(H, &q) == SBX_OK);
  expect("def fill():\n"
         "    with open('/data/fill.bin', 'wb') as f:\n"
         "        for i in range(64):\n"
         "            f.write(b'x' * 65536)\n"
         "            f.flush()\n"
         "err(fill)",
         "'ENOSPC'");
  sbx_stat st;
  CHECK_EQ(sbx_stat_path(H, "/data/fill.bin", 0, &st), SBX_OK);
  CHECK(st.size <= (1u << 20));
  q.max_bytes = 0;
  REQUIRE(sbx_set_quota(H, &q) == SBX_OK);
  CHECK_EQ(sbx_remove(H, "/data/fill.bin", 0), SBX_OK);
}

TEST(symlinks_out_of_the_store) {
  expect("os.symlink('/../../../../etc/shadow', '/data/l1')\nerr(lambda: open('/data/l1').read())",
         "'ENOENT'");
  expect("os.symlink('../../../../../../etc/passwd', '/data/l2')\n"
         "'sandbox:x:1000' in open('/data/l2').read()",
         "True");
  /* The host side resolves the same links inside the store only. */
  void *data;
  size_t len;
  CHECK_EQ(sbx_read_file(H, "/data/l2", &data, &len), SBX_FS | (2 << 8)); /* ENOENT */
  CHECK_EQ(sbx_read_file(H, "/data/l1", &data, &len), SBX_FS | (2 << 8));
}

TEST(hard_links_out_of_the_store) {
  expect("err(lambda: os.link('/etc/passwd', '/data/h1'))", "'EXDEV'");
  expect("err(lambda: os.link('/usr/bin/python3.11', '/data/h2'))", "'EXDEV'");
  expect("err(lambda: os.link('/proc/self/exe', '/data/h3'))", "'EXDEV'");
}

TEST(bad_syscall_architecture_kills_only_the_worker) {
  /* An x32 system call number: the filter kills the process outright. */
  sbx_py_result *r = py_run(H, "import ctypes\nctypes.CDLL(None).syscall(0x40000000 | 39)");
  REQUIRE(r);
  CHECK_EQ(r->error, SBX_PY_KILLED);
  CHECK(r->error_message && strstr(r->error_message, "signal"));
  sbx_free(r);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

TEST(devices_are_minimal) {
  expect("sorted(os.listdir('/dev'))",
         "['fd', 'full', 'null', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'urandom', 'zero']");
  expect("err(lambda: open('/dev/fuse'))", "'ENOENT'");
  /* mknod of a char device: Landlock (EACCES) or the FUSE server (EPERM). */
  expect("sc(133, b'/data/node', 0o20666, 0x0103) in ('EACCES', 'EPERM')", "True");
}

/* The worker execs /usr/bin/python3.11 after J1's restrictions: every one of
 * them holds in the process that runs the code, the extension's memfd (fd 5)
 * is closed before any request, and the process is not dumpable again. */
TEST(worker_process_after_exec) {
  expect("os.readlink('/proc/self/exe')", "'/usr/bin/python3.11'");
  expect("[err(lambda: os.fstat(fd)) for fd in (5, 6, 7)]", "['EBADF', 'EBADF', 'EBADF']");
  expect("libc.prctl(3, 0, 0, 0, 0)", "0"); /* PR_GET_DUMPABLE */
  expect("sorted(l for l in open('/proc/self/status').read().splitlines()\n"
         "       if l.split(':')[0] in ('NoNewPrivs', 'Seccomp', 'CapEff', 'CapPrm', 'CapBnd', 'Uid'))",
         "['CapBnd:\\t0000000000000000', 'CapEff:\\t0000000000000000', 'CapPrm:\\t0000000000000000', "
         "'NoNewPrivs:\\t1', 'Seccomp:\\t2', 'Uid:\\t1000\\t1000\\t1000\\t1000']");
}

/* The jail's init (pid 1) runs with the sandbox user's uid. It must not be
 * writable through /proc (a review wrote shellcode into its wait4 path
 * through /proc/1/mem), and no fd it holds may be a host file (its fd 2 was
 * the host's stderr). */
TEST(init_cannot_be_taken_over) {
  expect("err(lambda: open('/proc/1/mem', 'r+b'))", "'EACCES'");
  expect("err(lambda: open('/proc/1/mem', 'rb'))", "'EACCES'");
  expect("err(lambda: os.listdir('/proc/1/fd'))", "'EACCES'");
  expect("[err(lambda: open('/proc/1/fd/%d' % n, 'w')) for n in range(4)]",
         "['EACCES', 'EACCES', 'EACCES', 'EACCES']");
  expect("err(lambda: os.readlink('/proc/1/exe'))", "'EACCES'");
  /* Every fd link the sandbox can read anywhere is a pipe, a socket, an
   * anonymous inode or a file of the jail: none names a host path. A link
   * counts when it stays through three scans 0.3 s apart: a Python that
   * starts beside the test (the fork server's next child) holds each .pth
   * and module file of its start-up for an instant, and one CI run caught
   * one; an fd leaked into the jail stays. */
  expect("import time\n"
         "def scan():\n"
         "    links = set()\n"
         "    for p in os.listdir('/proc'):\n"
         "        if not p.isdigit():\n"
         "            continue\n"
         "        try:\n"
         "            fds = os.listdir('/proc/%s/fd' % p)\n"
         "        except OSError:\n"
         "            continue\n"
         "        for f in fds:\n"
         "            try:\n"
         "                links.add((p, f, os.readlink('/proc/%s/fd/%s' % (p, f))))\n"
         "            except OSError:\n"
         "                pass\n"
         "    return links\n"
         "links = scan()\n"
         "for _ in range(2):\n"
         "    time.sleep(0.3)\n"
         "    links &= scan()\n"
         "bad = [l for _, _, l in links if not l.startswith(('pipe:', 'socket:', 'anon_inode:', '/dev/null', '/proc/'))]\n"
         "(len(links) > 0, bad)",
         "(True, [])");
  /* J1 is not dumpable (its status file says so through the owner). */
  expect("os.stat('/proc/1/mem').st_uid != os.getuid()", "True");
}

/* The same attack against a jail started while the host's stderr is a file:
 * every way to pid 1's fds and memory fails and the file stays untouched. */
TEST(init_hijack_leaves_host_stderr_alone) {
  char path[] = "/tmp/sbx-escape-stderr-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  /* World-writable, as a log file in a shared directory may be: only the
   * jail's structure may stop the sandbox user, not the file's mode. */
  REQUIRE(fchmod(fd, 0666) == 0);
  REQUIRE(write(fd, "before\n", 7) == 7);
  fflush(stderr);
  int saved = dup(2);
  REQUIRE(saved >= 0);
  REQUIRE(dup2(fd, 2) == 2);
  sbx *h2 = NULL;
  int rc = sbx_open(NULL, SBX_OPEN_MEMORY, &h2);
  const char *got = "<not run>";
  static char buf[256];
  if (rc == SBX_OK) {
    snprintf(buf, sizeof buf, "%s",
             py_eval(h2, "import os\n"
                         "def attempt(f):\n"
                         "    try:\n"
                         "        f()\n"
                         "        return 'done'\n"
                         "    except OSError as e:\n"
                         "        return 'refused'\n"
                         "def poke():\n"
                         "    addr = int(open('/proc/1/maps').readline().split('-')[0], 16)\n"
                         "    with open('/proc/1/mem', 'r+b', buffering=0) as m:\n"
                         "        m.seek(addr)\n"
                         "        old = m.read(16)\n"
                         "        m.seek(addr)\n"
                         "        m.write(old)\n"
                         "def trunc(n):\n"
                         "    with open('/proc/1/fd/%d' % n, 'r+') as f:\n"
                         "        f.truncate(0)\n"
                         "        f.write('HIJACK\\n')\n"
                         "r = [attempt(poke)] + [attempt(lambda: trunc(n)) for n in range(3)]\n"
                         "r += [attempt(lambda: os.truncate('/proc/1/fd/2', 0))]\n"
                         "r"));
    got = buf;
    CHECK_STR(py_eval(h2, "1 + 1"), "2");
    sbx_close(h2);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  CHECK_EQ(rc, SBX_OK);
  CHECK_STR(got, "['refused', 'refused', 'refused', 'refused', 'refused']");
  char content[64] = {0};
  ssize_t n = pread(fd, content, sizeof content - 1, 0);
  close(fd);
  unlink(path);
  CHECK_EQ(n, 7);
  CHECK_STR(content, "before\n");
}

/* ---- memory of the whole jail ---------------------------------------------------
 *
 * RLIMIT_AS is per process and counts only mapped memory: memfds, SysV
 * segments and forked children each escaped it. Each attack below runs under
 * a 512 MiB call limit and must end there: refused (no memory cgroup: the
 * calls are denied), or killed with a message naming the memory limit (the
 * cgroup's OOM killer, or J1's watch). ALL_PATHS runs them in a jail with
 * whatever this host gives (a cgroup where one can be delegated); the
 * fallback run (SBX_JAIL_NO_CGROUP=1) checks that path exactly. */
#define ATTACK_LIMIT_MB 512
#define STR_(x) #x
#define STR(x) STR_(x)

static int fallback_run; /* 1: this run's jails have no cgroup */

/* Runs an attack that prints the MiB it holds after each step; checks the
 * figures never passed the limit. Returns the result (caller frees). */
static sbx_py_result *attack(sbx *h, const char *code) {
  static char buf[8192];
  snprintf(buf, sizeof buf, "%s%s", ESCAPE_PRELUDE, code);
  sbx_py_options o = {.max_memory = (uint64_t)ATTACK_LIMIT_MB << 20, .timeout = 60};
  sbx_py_result *r = py_run_opt(h, buf, &o);
  if (!r) return NULL;
  long held = 0;
  for (const char *p = r->out; p && *p;) {
    held = strtol(p, NULL, 10) > held ? strtol(p, NULL, 10) : held;
    p = strchr(p, '\n');
    if (p) p++;
  }
  if (held > ATTACK_LIMIT_MB) fprintf(stderr, "  held %ld MiB\n", held);
  CHECK(held <= ATTACK_LIMIT_MB);
  return r;
}

/* A kill by the memory limit: the call says so. */
static int killed_by_memory_limit(const sbx_py_result *r) {
  return r->error == SBX_PY_KILLED && r->killed && r->error_message &&
         strstr(r->error_message, "memory limit") != NULL;
}

/* Holds up to 3 GiB in 64 MiB units made by `unit` (Python lines of a
 * function body that raise OSError when refused): refused at once without a
 * cgroup, else killed at the limit. */
static void fill_attack(const char *prelude, const char *unit) {
  char code[2048];
  snprintf(code, sizeof code,
           "%s"
           "total = 0\n"
           "def unit():\n"
           "%s"
           "def fill():\n"
           "    global total\n"
           "    while total < 3072:\n"
           "        unit()\n"
           "        total += 64\n"
           "        print(total, flush=True)\n"
           "(err(fill), total)",
           prelude, unit);
  sbx_py_result *r = attack(H, code);
  REQUIRE(r);
  if (fallback_run) CHECK_STR(r->repr ? r->repr : "", "('EPERM', 0)");
  else CHECK(killed_by_memory_limit(r) || (r->repr && strcmp(r->repr, "('EPERM', 0)") == 0));
  sbx_free(r);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

TEST(memfd_fill) {
  fill_attack("fds = []\n"
              "chunk = b'x' * (1 << 20)\n",
              "    fd = os.memfd_create('fill')\n"
              "    fds.append(fd)\n"
              "    for i in range(64):\n"
              "        os.write(fd, chunk)\n");
}

/* Each segment is detached once filled: RLIMIT_AS never sees it again. */
TEST(sysv_shm_fill) {
  fill_attack("libc.shmat.restype = ctypes.c_void_p\n",
              "    sid = libc.shmget(0, 64 << 20, 0o1600)\n"
              "    if sid < 0:\n"
              "        raise OSError(ctypes.get_errno(), 'shmget')\n"
              "    addr = libc.shmat(sid, None, 0)\n"
              "    if addr is None or addr == ctypes.c_void_p(-1).value:\n"
              "        raise OSError(ctypes.get_errno(), 'shmat')\n"
              "    ctypes.memset(addr, 1, 64 << 20)\n"
              "    libc.shmdt(ctypes.c_void_p(addr))\n");
}

/* Four children each touch 60% of the limit and hold it: one fits, two do
 * not. At most one may get all of its share. `block` makes 16 MiB. */
static void forked_children(const char *prelude, const char *block) {
  char code[2048];
  snprintf(code, sizeof code,
           "import time, mmap\n"
           "%s"
           "share = 16 * (" STR(ATTACK_LIMIT_MB) " * 6 // 10 // 16)\n"
           "def block():\n"
           "%s"
           "pids = []\n"
           "for i in range(4):\n"
           "    pid = os.fork()\n"
           "    if pid == 0:\n"
           "        hold = []\n"
           "        try:\n"
           "            for k in range(share // 16):\n"
           "                hold.append(block())\n"
           "        except (MemoryError, OSError):\n"
           "            os._exit(3)\n"
           "        time.sleep(3)\n"
           "        os._exit(0)\n"
           "    pids.append(pid)\n"
           "codes = sorted(os.waitpid(p, 0)[1] for p in pids)\n"
           "full = codes.count(0)\n"
           "(full <= 1, full, codes)",
           prelude, block);
  sbx_py_result *r = attack(H, code);
  REQUIRE(r);
  if (fallback_run) {
    CHECK(killed_by_memory_limit(r));
  } else if (!killed_by_memory_limit(r)) {
    /* A cgroup that kills the largest process (v1) leaves the worker: the
     * children it killed show SIGKILL, and at most one kept its share. */
    CHECK_EQ(r->error, SBX_PY_OK);
    CHECK(r->repr && strncmp(r->repr, "(True, ", 7) == 0);
    if (r->repr && strncmp(r->repr, "(True, ", 7) != 0) fprintf(stderr, "  %s\n", r->repr);
  }
  if (r->error_message && !killed_by_memory_limit(r) && r->error != SBX_PY_OK)
    fprintf(stderr, "  %s\n", r->error_message);
  sbx_free(r);
  CHECK_STR(py_eval(H, "1 + 1"), "2");
}

#define ANON_BLOCK "    return bytearray(b'\\x01') * (16 << 20)\n"
TEST(forked_children_fill) { forked_children("", ANON_BLOCK); }

/* The call's limit is the soft RLIMIT_AS, which the code may raise to the
 * hard one: the jail-wide bound must not follow it. */
TEST(forked_children_fill_after_raising_rlimit_as) {
  forked_children("import resource\n"
                  "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
                  "resource.setrlimit(resource.RLIMIT_AS, (hard, hard))\n",
                  ANON_BLOCK);
}

/* The same with MAP_SHARED anonymous memory (shmem pages, not anon ones). */
TEST(forked_children_fill_shared_mappings) {
  forked_children("", "    m = mmap.mmap(-1, 16 << 20)\n"
                  "    m.write(b'\\x01' * (16 << 20))\n"
                  "    return m\n");
}

/* After each attack the sandbox answers again (a new jail when the old one
 * was killed); main()'s closing check finds no jail process left. */
static void run_memory_attacks(int fallback) {
  fallback_run = fallback;
  RUN(memfd_fill);
  RUN(sysv_shm_fill);
  RUN(forked_children_fill);
  RUN(forked_children_fill_shared_mappings);
  RUN(forked_children_fill_after_raising_rlimit_as);
}

int main(int argc, char **argv) {
  if (py_test_begin(argc, argv, &H)) return 1;
  int before = count_jail_processes();
  RUN(read_host_files);
  RUN(write_outside_the_store);
  RUN(network_is_absent);
  RUN(name_resolution_fails);
  RUN(ptrace_and_process_access);
  RUN(mount_and_namespaces);
  RUN(kill_host_processes);
  RUN(forged_control_messages);
  RUN(tampering_with_the_worker_channels);
  RUN(kernel_modules_and_kernel_surface);
  RUN(raising_limits);
  RUN(fork_bomb);
  RUN(memory_bomb);
  RUN(filling_the_disk);
  RUN(symlinks_out_of_the_store);
  RUN(hard_links_out_of_the_store);
  RUN(bad_syscall_architecture_kills_only_the_worker);
  RUN(devices_are_minimal);
  RUN(worker_process_after_exec);
  RUN(init_cannot_be_taken_over);
  RUN(init_hijack_leaves_host_stderr_alone);
  run_memory_attacks(getenv("SBX_JAIL_NO_CGROUP") != NULL);
  sbx_close(H);
  /* The same attacks in jails without a cgroup, whatever this host offers. */
  if (!getenv("SBX_JAIL_NO_CGROUP")) {
    setenv("SBX_JAIL_NO_CGROUP", "1", 1);
    if (sbx_open(NULL, SBX_OPEN_MEMORY, &H) != SBX_OK) return 1;
    run_memory_attacks(1);
    sbx_close(H);
    unsetenv("SBX_JAIL_NO_CGROUP");
  }
  /* The suite's closing check: nothing of any jail is left on the host. */
  check_no_jail_processes_left(before);
  return harness_done();
}
