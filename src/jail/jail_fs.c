/*
 * jail_fs.c - the jail's root filesystem, built by J1 in its new mount
 * namespace, plus the id steps around it (dropping root, the id maps, the
 * privileged FUSE mount of hostmount mode).
 *
 * The root is assembled at a staging directory (plan->stage, "/tmp" of the
 * namespace's copy of the host tree, hidden from the host because / is made
 * recursively private first) and then becomes / with pivot_root:
 *
 *   /            the store over FUSE (or a tmpfs for the jail tests)
 *   /usr, /bin.. the host's runtime: read-only, nosuid, nodev bind mounts
 *                (merged-/usr symlinks are served as symlinks by the FUSE root)
 *   /etc         a tmpfs written here (passwd, group, hosts, nsswitch.conf,
 *                resolv.conf, hostname, alternatives symlinks, the loader cache,
 *                fontconfig's directory bound read-only), then made read-only
 *   /proc        a new proc of the jail's pid namespace (subset=pid when the
 *                kernel has it: no /proc/sys, /proc/kcore, ...)
 *   /dev         a tmpfs with null, zero, full, random, urandom bound from the
 *                host, fd/std* links and a size-limited /dev/shm; read-only
 *   /run         a read-only tmpfs; the host directories the API exposes to
 *                Python (sbx_python_set_paths) are bound read-only at
 *                /run/sbx/pypath/N
 *
 * Nothing of the host is writable from the jail: every host mount is bound
 * read-only, and everything else is a fresh tmpfs or the store.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

int jail_write_file(const char *path, const char *data, int mode) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) return -1;
  size_t len = strlen(data), off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
    off += (size_t)w;
  }
  return close(fd);
}

void jail_fuse_opts(char *buf, size_t n, int fd, uint32_t uid, uint32_t gid) {
  /* No allow_other: only the jail's user (uid/gid) may use the mount, which is
   * every process of the jail and nobody on the host. */
  snprintf(buf, n, "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd, uid, gid);
}

int jail_fuse_hostmount(uint32_t uid, uint32_t gid, int *devfd, int *mntfd, jail_err *e) {
  *devfd = *mntfd = -1;
  int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (dev < 0) return jail_fail(e, "open /dev/fuse");
  int fs = fsopen("fuse", FSOPEN_CLOEXEC);
  if (fs < 0) {
    jail_fail(e, "fsopen fuse");
    close(dev);
    return -1;
  }
  char v[32];
  int ok = 1;
  snprintf(v, sizeof v, "%d", dev);
  ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "fd", v, 0) == 0;
  ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "rootmode", "40000", 0) == 0;
  snprintf(v, sizeof v, "%u", uid);
  ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "user_id", v, 0) == 0;
  snprintf(v, sizeof v, "%u", gid);
  ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "group_id", v, 0) == 0;
  ok = ok && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0;
  if (!ok) {
    jail_fail(e, "fsconfig fuse");
    close(fs);
    close(dev);
    return -1;
  }
  /* The mount is detached: it is in no mount tree of the host, only in the
   * jail once J1 attaches it; closing the fd unmounts it. */
  int m = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  close(fs);
  if (m < 0) {
    jail_fail(e, "fsmount fuse");
    close(dev);
    return -1;
  }
  *devfd = dev;
  *mntfd = m;
  return 0;
}

uint32_t jail_pick_host_id(void) {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) r = (uint32_t)getpid() * 2654435761u;
  return JAIL_HOST_ID_BASE + r % JAIL_HOST_ID_SPAN;
}

int jail_drop_root(uint32_t id, jail_err *e) {
  uid_t r, ef, s;
  if (getresuid(&r, &ef, &s)) return jail_fail(e, "getresuid");
  if (r != 0 && ef != 0 && s != 0) return 0;
  /* I1: the jail's user namespace is created by an unprivileged id, so the
   * only host id it can map is that one, never 0. */
  if (setgroups(0, NULL) || setresgid(id, id, id) || setresuid(id, id, id))
    return jail_fail(e, "drop root to uid %u", id);
  if (setuid(0) == 0) return jail_failx(e, "drop root: uid 0 could be regained");
  /* After a uid change the process is not dumpable, which makes its
   * /proc/PID files root-owned; the child inherits that and we could not write
   * its uid_map. Nothing secret is left in this fresh process image. */
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  return 0;
}

static int write_proc(pid_t pid, const char *file, const char *text, jail_err *e) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return jail_fail(e, "open %s", path);
  ssize_t w = write(fd, text, strlen(text));
  int saved = errno;
  close(fd);
  errno = saved;
  if (w != (ssize_t)strlen(text)) return jail_fail(e, "write %s", path);
  return 0;
}

int jail_write_idmaps(pid_t pid, jail_err *e) {
  char map[64];
  if (write_proc(pid, "setgroups", "deny", e)) return -1;
  snprintf(map, sizeof map, "%d %u 1", JAIL_UID, (unsigned)getuid());
  if (write_proc(pid, "uid_map", map, e)) return -1;
  snprintf(map, sizeof map, "%d %u 1", JAIL_GID, (unsigned)getgid());
  if (write_proc(pid, "gid_map", map, e)) return -1;
  return 0;
}

/* Read-only, nosuid, nodev on a bind mount and everything below it. */
static int make_readonly(const char *path, jail_err *e) {
  struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
  if (mount_setattr(AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr) == 0) return 0;
  if (errno != ENOSYS) return jail_fail(e, "mount_setattr %s read-only", path);
  /* Kernels before 5.12: the top mount only. */
  if (mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
    return jail_fail(e, "remount %s read-only", path);
  return 0;
}

static int bind_file(const char *src, const char *dst, jail_err *e) {
  int fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return jail_fail(e, "create %s", dst);
  close(fd);
  if (mount(src, dst, NULL, MS_BIND, NULL)) return jail_fail(e, "bind %s", src);
  return 0;
}

/* Copies the symlinks of the host's /etc/alternatives (Debian's tool links:
 * /usr/bin/awk -> /etc/alternatives/awk -> /usr/bin/mawk). */
static void copy_alternatives(void) {
  DIR *d = opendir("/etc/alternatives");
  if (!d) return;
  if (mkdir("etc/alternatives", 0755)) {
    closedir(d);
    return;
  }
  int count = 0;
  struct dirent *de;
  while ((de = readdir(d)) && count < 2048) {
    if (de->d_name[0] == '.') continue;
    char src[512], dst[512], target[512];
    snprintf(src, sizeof src, "/etc/alternatives/%s", de->d_name);
    ssize_t l = readlink(src, target, sizeof target - 1);
    if (l <= 0) continue;
    target[l] = 0;
    snprintf(dst, sizeof dst, "etc/alternatives/%s", de->d_name);
    if (symlink(target, dst) == 0) count++;
  }
  closedir(d);
}

static int setup_etc(jail_err *e) {
  if (mount("tmpfs", "etc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=1m"))
    return jail_fail(e, "mount tmpfs on /etc");
  static const struct {
    const char *name, *text;
  } files[] = {
      {"etc/passwd", "root:x:0:0:root:/root:/usr/sbin/nologin\n"
                     "sandbox:x:1000:1000:sandbox:/tmp:/bin/sh\n"
                     "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"},
      {"etc/group", "root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n"},
      {"etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\tsandbox\n"},
      {"etc/hostname", "sandbox\n"},
      {"etc/nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\nhosts: files\n"},
      {"etc/resolv.conf", "# no network in the sandbox\n"},
      {"etc/shells", "/bin/sh\n/bin/bash\n"},
      /* pip installs into the user site (PYTHONUSERBASE, under /data): the
       * system's site-packages is the host's, read-only here, and Debian's
       * "externally managed" marker protects only that one. No network. */
      {"etc/pip.conf", "[global]\nbreak-system-packages = true\n"
                       "disable-pip-version-check = true\nno-input = true\n"},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (jail_write_file(files[i].name, files[i].text, 0644)) return jail_fail(e, "write /%s", files[i].name);
  /* The loader cache only lists library paths under /usr; without it every
   * program started inside searches the default directories. */
  if (access("/etc/ld.so.cache", R_OK) == 0 && bind_file("/etc/ld.so.cache", "etc/ld.so.cache", e))
    return -1;
  /* Fontconfig's configuration (matplotlib, Pillow): without it every font
   * lookup prints "Cannot load default config file". */
  struct stat fst;
  if (stat("/etc/fonts", &fst) == 0 && S_ISDIR(fst.st_mode)) {
    if (mkdir("etc/fonts", 0755) ||
        mount("/etc/fonts", "etc/fonts", NULL, MS_BIND | MS_REC, NULL))
      return jail_fail(e, "bind /etc/fonts");
    if (make_readonly("etc/fonts", e)) return -1;
  }
  char target[256];
  ssize_t l = readlink("/etc/localtime", target, sizeof target - 1);
  if (l > 0) {
    target[l] = 0;
    if (symlink(target, "etc/localtime")) return jail_fail(e, "symlink /etc/localtime");
  }
  copy_alternatives();
  if (mount(NULL, "etc", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
    return jail_fail(e, "remount /etc read-only");
  return 0;
}

/* Opens the read-only host directories (O_PATH) before the root is built:
 * the staging root hides the host's /tmp, where they may live. Looked up as
 * the jail's user, so a directory that user cannot reach is refused. */
static int open_ro_dirs(const jail_fs_plan *p, int *fds, jail_err *e) {
  for (int i = 0; i < p->nro_dirs; i++) {
    fds[i] = open(p->ro_dirs[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fds[i] < 0) {
      jail_fail(e, "python path %s (the sandbox's user must be able to open it)",
                p->ro_dirs[i]);
      while (i-- > 0) close(fds[i]);
      return -1;
    }
  }
  return 0;
}

/* /run: the read-only host directories (fds from open_ro_dirs, closed here)
 * at JAIL_RO_DIR_PREFIX "N". */
static int setup_run(const jail_fs_plan *p, int *fds, jail_err *e) {
  int rc = -1, i = 0;
  if (mount("tmpfs", "run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
            "mode=0755,size=64k")) {
    jail_fail(e, "mount tmpfs on /run");
    goto out;
  }
  if (p->nro_dirs && (mkdir("run/sbx", 0755) || mkdir("run/sbx/pypath", 0755))) {
    jail_fail(e, "create /run/sbx/pypath");
    goto out;
  }
  for (; i < p->nro_dirs; i++) {
    char dst[64], src[64];
    snprintf(dst, sizeof dst, "run/sbx/pypath/%d", i);
    snprintf(src, sizeof src, "/proc/self/fd/%d", fds[i]);
    if (mkdir(dst, 0755) || mount(src, dst, NULL, MS_BIND | MS_REC, NULL)) {
      jail_fail(e, "bind %s", p->ro_dirs[i]);
      goto out;
    }
    close(fds[i]);
    if (make_readonly(dst, e)) {
      i++;
      goto out;
    }
  }
  if (mount(NULL, "run", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
            NULL))
    jail_fail(e, "remount /run read-only");
  else
    rc = 0;
out:
  for (; i < p->nro_dirs; i++) close(fds[i]);
  return rc;
}

static int setup_dev(uint32_t shm_bytes, jail_err *e) {
  if (mount("tmpfs", "dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k"))
    return jail_fail(e, "mount tmpfs on /dev");
  static const char *const nodes[] = {"null", "zero", "full", "random", "urandom"};
  for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
    char src[32], dst[32];
    snprintf(src, sizeof src, "/dev/%s", nodes[i]);
    snprintf(dst, sizeof dst, "dev/%s", nodes[i]);
    if (bind_file(src, dst, e)) return -1;
  }
  static const struct {
    const char *target, *link;
  } links[] = {{"/proc/self/fd", "dev/fd"},
               {"/proc/self/fd/0", "dev/stdin"},
               {"/proc/self/fd/1", "dev/stdout"},
               {"/proc/self/fd/2", "dev/stderr"}};
  for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
    if (symlink(links[i].target, links[i].link)) return jail_fail(e, "symlink /%s", links[i].link);
  if (mkdir("dev/shm", 01777)) return jail_fail(e, "mkdir /dev/shm");
  char opts[64];
  snprintf(opts, sizeof opts, "mode=1777,size=%u", shm_bytes ? shm_bytes : 16u << 20);
  if (mount("tmpfs", "dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts))
    return jail_fail(e, "mount tmpfs on /dev/shm");
  if (mount(NULL, "dev", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL))
    return jail_fail(e, "remount /dev read-only");
  return 0;
}

static int mount_root(const jail_fs_plan *p, jail_err *e) {
  if (p->root == JAIL_ROOT_TMPFS) {
    if (mount("tmpfs", p->stage, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64m"))
      return jail_fail(e, "mount tmpfs root");
    return 0;
  }
  if (p->fuse == JAIL_FUSE_HOSTMOUNT) {
    if (move_mount(p->fuse_mount_fd, "", AT_FDCWD, p->stage, MOVE_MOUNT_F_EMPTY_PATH))
      return jail_fail(e, "move_mount of the FUSE root into the jail");
    close(p->fuse_mount_fd);
    return 0;
  }
  /* Userns mode: the kernel requires /dev/fuse to be opened in the user
   * namespace that mounts it (else EINVAL at mount). */
  int fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0) return jail_fail(e, "open /dev/fuse inside the jail's user namespace");
  char opts[128];
  jail_fuse_opts(opts, sizeof opts, fd, JAIL_UID, JAIL_GID);
  if (mount("sbx", p->stage, "fuse.sbx", MS_NOSUID | MS_NODEV, opts)) {
    jail_fail(e, "mount fuse in the jail's user namespace");
    close(fd);
    return -1;
  }
  char txt[64];
  snprintf(txt, sizeof txt, "%d %u %u", (int)JAIL_FUSE_USERNS, JAIL_UID, JAIL_GID);
  int r = jail_send_msg(p->setup_fd, JAIL_MSG_FUSE, txt, fd);
  close(fd);
  if (r) return jail_fail(e, "send the FUSE fd to the host");
  return 0;
}

int jail_setup_fs(const jail_fs_plan *p, jail_err *e) {
  jail_runtime_entry rt[JAIL_MAX_RUNTIME];
  int nrt = jail_runtime_entries(rt, JAIL_MAX_RUNTIME);
  /* Nothing we mount may propagate back to the host. */
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) return jail_fail(e, "make / private");
  int ro_fds[JAIL_MAX_RO_DIRS];
  if (open_ro_dirs(p, ro_fds, e)) return -1;
  if (mount_root(p, e)) {
    for (int i = 0; i < p->nro_dirs; i++) close(ro_fds[i]);
    return -1;
  }
  /* With a FUSE root this is the first request the host must answer. */
  if (chdir(p->stage)) return jail_fail(e, "chdir into the new root");
  if (p->root == JAIL_ROOT_TMPFS) {
    /* The FUSE server synthesizes these; on a tmpfs they are made here. */
    for (int i = 0; i < nrt; i++) {
      if (rt[i].is_symlink ? symlink(rt[i].target, rt[i].name) : mkdir(rt[i].name, 0755))
        return jail_fail(e, "create /%s", rt[i].name);
    }
    if (mkdir("data", 0755) || mkdir("tmp", 01777) || chmod("tmp", 01777))
      return jail_fail(e, "create /data and /tmp");
    if (chown("data", JAIL_UID, JAIL_GID) || chown("tmp", JAIL_UID, JAIL_GID))
      return jail_fail(e, "chown /data");
  }
  for (int i = 0; i < nrt; i++) {
    if (!rt[i].bind_host) continue;
    char src[sizeof rt[i].name + 1];
    snprintf(src, sizeof src, "/%.*s", (int)sizeof rt[i].name - 1, rt[i].name);
    if (mount(src, rt[i].name, NULL, MS_BIND | MS_REC, NULL)) return jail_fail(e, "bind %s", src);
    if (make_readonly(rt[i].name, e)) return -1;
  }
  if (setup_etc(e)) return -1;
  if (setup_run(p, ro_fds, e)) return -1; /* J1 exits on any failure: no fd outlives it */
  /* subset=pid (5.8+) hides everything of /proc that is not a process. */
  if (mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "subset=pid") &&
      (errno != EINVAL || mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)))
    return jail_fail(e, "mount proc (if the host's /proc has masked paths, as in Docker's "
                        "default profile, a new proc is refused)");
  if (setup_dev(p->shm_bytes, e)) return -1;
  if (syscall(SYS_pivot_root, ".", ".")) return jail_fail(e, "pivot_root");
  if (umount2(".", MNT_DETACH)) return jail_fail(e, "detach the old root");
  if (chdir("/")) return jail_fail(e, "chdir /");
  if (sethostname("sandbox", 7) || setdomainname("sandbox", 7)) return jail_fail(e, "sethostname");
  return 0;
}

int jail_null_stdio(jail_err *e) {
  int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return jail_fail(e, "open /dev/null");
  for (int i = 0; i <= 2; i++)
    if (dup2(fd, i) < 0) {
      jail_fail(e, "dup2 /dev/null to %d", i);
      close(fd);
      return -1;
    }
  return close(fd);
}

int jail_apply_rlimits(const jail_limits *l, jail_err *e) {
  struct {
    int res;
    rlim_t val;
    const char *name;
  } lims[] = {
      {RLIMIT_CORE, 0, "RLIMIT_CORE"},
      {RLIMIT_NOFILE, l->nofile ? l->nofile : 1024, "RLIMIT_NOFILE"},
      {RLIMIT_NPROC, l->nproc ? l->nproc : RLIM_INFINITY, "RLIMIT_NPROC"},
      {RLIMIT_FSIZE, l->fsize_bytes ? l->fsize_bytes : RLIM_INFINITY, "RLIMIT_FSIZE"},
      {RLIMIT_CPU, l->cpu_seconds ? l->cpu_seconds : RLIM_INFINITY, "RLIMIT_CPU"},
#if !defined(__SANITIZE_ADDRESS__)
      /* AddressSanitizer reserves terabytes of shadow memory: an ASan build of
       * the worker runs without an address-space limit (tests only). */
      {RLIMIT_AS, l->mem_bytes ? l->mem_bytes : RLIM_INFINITY, "RLIMIT_AS"},
#endif
  };
  for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++) {
    struct rlimit cur, r = {lims[i].val, lims[i].val};
    if (lims[i].val == RLIM_INFINITY) {
      /* "No limit" keeps what the host gave (it cannot be raised without
       * CAP_SYS_RESOURCE in the host's namespace anyway). */
      continue;
    }
    if (getrlimit(lims[i].res, &cur) == 0 && cur.rlim_max != RLIM_INFINITY &&
        cur.rlim_max < r.rlim_max)
      r.rlim_cur = r.rlim_max = cur.rlim_max;
    if (setrlimit(lims[i].res, &r)) return jail_fail(e, "setrlimit %s", lims[i].name);
  }
  return 0;
}

int jail_drop_caps(jail_err *e) {
  /* Securebits first (needs CAP_SETPCAP): no way back to capabilities through
   * uid 0, locked. */
  prctl(PR_SET_SECUREBITS,
        SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
            SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED,
        0, 0, 0);
  for (int cap = 0; cap <= 63; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
      if (errno == EINVAL) break; /* past the kernel's last capability */
      return jail_fail(e, "drop capability %d from the bounding set", cap);
    }
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct d[2];
  memset(d, 0, sizeof d);
  if (syscall(SYS_capset, &h, d)) return jail_fail(e, "capset (clear all capabilities)");
  return 0;
}
