/*
 * jail_cgroup.c - the jail's memory cgroup: one child cgroup per jail that
 * bounds the memory of all its processes together (anonymous memory, memfds,
 * SysV and POSIX shared memory, tmpfs pages: everything the kernel charges),
 * which RLIMIT_AS cannot do (it is per process and ignores pages not mapped).
 *
 * Where the cgroup comes from (jail_cgroup_create, host side):
 *   v2  the cgroup of this process (/proc/self/cgroup "0::/path") under the
 *       cgroup2 mount; usable when its cgroup.subtree_control enables memory
 *       for children (a delegated subtree: systemd Delegate=yes, a container
 *       with its own cgroup namespace) or we can enable it there. Limits:
 *       memory.max, memory.swap.max = 0, memory.oom.group = 1 (an OOM kill
 *       takes the whole jail, so nothing half-dead stays), pids.max.
 *   v1  the memory controller's hierarchy (and pids' when mounted), when the
 *       directory of our cgroup there is writable (root on a v1 or hybrid
 *       host). Limits: memory.limit_in_bytes, memory.memsw.limit_in_bytes
 *       when swap is accounted, pids.max.
 * P1 moves itself into it (jail_cgroup_join) before it clones J1, so every
 * process of the jail is charged from its first page. The host removes the
 * directory once P1 is reaped (jail_cgroup_remove).
 *
 * When neither works the jail runs without one and jail_helper.c closes the
 * paths around RLIMIT_AS instead (see docs/python.md, "Memory").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h"

/* Writes a short value into DIR/FILE. 0, or -1 with errno. */
static int cg_write(const char *dir, const char *file, const char *val) {
  char path[JAIL_CGROUP_PATH + 64];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t len = strlen(val);
  ssize_t w = write(fd, val, len);
  int e = errno;
  close(fd);
  errno = e;
  return w == (ssize_t)len ? 0 : -1;
}

/* Reads DIR/FILE into buf (NUL-terminated). Bytes read, or -1. */
static ssize_t cg_read(const char *dir, const char *file, char *buf, size_t n) {
  char path[JAIL_CGROUP_PATH + 64];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t r = read(fd, buf, n - 1);
  close(fd);
  buf[r > 0 ? r : 0] = 0;
  return r;
}

/* Does the space-separated list contain `word`? */
static int has_word(const char *list, const char *word, char sep) {
  size_t wl = strlen(word);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, sep);
    size_t l = end ? (size_t)(end - p) : strlen(p);
    while (l && (p[l - 1] == '\n' || p[l - 1] == ' ')) l--;
    if (l == wl && memcmp(p, word, wl) == 0) return 1;
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

/* The mount point of the cgroup file system that carries `controller` (v1),
 * or of cgroup2 (controller NULL), from /proc/self/mountinfo, and the cgroup
 * that mount shows as its root (not "/" in a container without a cgroup
 * namespace). */
static int find_mount(const char *controller, char *out, size_t n, char *root,
                      size_t rootsz) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) return -1;
  char line[4096];
  int found = -1;
  while (found < 0 && fgets(line, sizeof line, f)) {
    /* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
    char *sep = strstr(line, " - ");
    if (!sep) continue;
    char mnt[1024], mroot[1024], fstype[64], super[1024] = "";
    if (sscanf(line, "%*s %*s %*s %1023s %1023s", mroot, mnt) != 2) continue;
    if (sscanf(sep + 3, "%63s %*s %1023s", fstype, super) < 1) continue;
    if (strchr(mnt, '\\')) continue; /* escaped characters: not ours to guess */
    int ok = controller
                 ? strcmp(fstype, "cgroup") == 0 && has_word(super, controller, ',')
                 : strcmp(fstype, "cgroup2") == 0;
    if (ok && strlen(mnt) < n && strlen(mroot) < rootsz) {
      strcpy(out, mnt);
      strcpy(root, mroot);
      found = 0;
    }
  }
  fclose(f);
  return found;
}

/* Our cgroup path in the hierarchy of `controller` (v1), or the v2 path
 * (controller NULL), from /proc/self/cgroup. */
static int own_cgroup(const char *controller, char *out, size_t n) {
  FILE *f = fopen("/proc/self/cgroup", "re");
  if (!f) return -1;
  char line[4096];
  int found = -1;
  while (found < 0 && fgets(line, sizeof line, f)) {
    char *c1 = strchr(line, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c2 = 0;
    char *path = c2 + 1;
    path[strcspn(path, "\n")] = 0;
    int ok = controller ? has_word(c1 + 1, controller, ',')
                        : strncmp(line, "0:", 2) == 0 && c1[1] == 0;
    if (ok && strlen(path) < n && !strstr(path, "..")) {
      strcpy(out, path);
      found = 0;
    }
  }
  fclose(f);
  return found;
}

/* DIR = MOUNT + PATH less the mount's root ("/" adds nothing). -1 when PATH
 * is not under the mount's root (that cgroup is not visible here). */
static int join_path(char *out, size_t n, const char *mnt, const char *root,
                     const char *path) {
  size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
  if (rl && (strncmp(path, root, rl) != 0 || (path[rl] != 0 && path[rl] != '/')))
    return -1;
  path += rl;
  if (!*path) path = "/";
  int l = snprintf(out, n, "%s%s", mnt, strcmp(path, "/") == 0 ? "" : path);
  return l > 0 && (size_t)l < n ? 0 : -1;
}

/* The v2 parent where a child with memory control can be made. */
static int find_v2(char *parent, size_t n, char *why, size_t whysz) {
  char mnt[512], root[512], path[512], buf[512];
  if (find_mount(NULL, mnt, sizeof mnt, root, sizeof root) ||
      own_cgroup(NULL, path, sizeof path)) {
    snprintf(why, whysz, "no cgroup v2 hierarchy");
    return -1;
  }
  if (join_path(parent, n, mnt, root, path)) {
    snprintf(why, whysz, "cgroup v2: our cgroup %.200s is not under the mount at %.200s",
             path, mnt);
    return -1;
  }
  if (cg_read(parent, "cgroup.controllers", buf, sizeof buf) < 0 ||
      !has_word(buf, "memory", ' ')) {
    snprintf(why, whysz, "cgroup v2 %.300s: the memory controller is not delegated here",
             parent);
    return -1;
  }
  if (cg_read(parent, "cgroup.subtree_control", buf, sizeof buf) >= 0 &&
      has_word(buf, "memory", ' '))
    return 0;
  /* Enabling it fails (EBUSY) while processes live in `parent` itself, as
   * we do unless the subtree was set up for it: then there is no cgroup. */
  if (cg_write(parent, "cgroup.subtree_control", "+memory") == 0) {
    cg_write(parent, "cgroup.subtree_control", "+pids"); /* optional */
    return 0;
  }
  snprintf(why, whysz,
           "cgroup v2 %.300s: cannot enable memory for child cgroups (%s); run sbx in a "
           "leaf of a "
           "delegated subtree whose parent has memory in cgroup.subtree_control",
           parent, strerror(errno));
  return -1;
}

/* The v1 directory of `controller` where we may create children. */
static int find_v1(const char *controller, char *parent, size_t n) {
  char mnt[512], root[512], path[512];
  if (find_mount(controller, mnt, sizeof mnt, root, sizeof root) ||
      own_cgroup(controller, path, sizeof path) || join_path(parent, n, mnt, root, path))
    return -1;
  return access(parent, W_OK) == 0 ? 0 : -1;
}

static int make_child(char *out, size_t n, const char *parent) {
  static unsigned counter;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  int l = snprintf(out, n, "%s/sbx-jail-%ld-%u-%ld", parent, (long)getpid(),
                   __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED), (long)ts.tv_nsec);
  if (l <= 0 || (size_t)l >= n) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return mkdir(out, 0755);
}

void jail_cgroup_init(jail_cgroup *cg) {
  memset(cg, 0, sizeof *cg);
}

int jail_cgroup_create(jail_cgroup *cg, uint64_t mem_bytes, uint32_t pids, char *why,
                       size_t whysz) {
  jail_cgroup_init(cg);
  const char *off = getenv("SBX_JAIL_NO_CGROUP");
  if (off && *off && strcmp(off, "0") != 0) {
    snprintf(why, whysz, "SBX_JAIL_NO_CGROUP is set");
    return -1;
  }
  char parent[JAIL_CGROUP_PATH], why2[JAIL_ERRMSG_MAX] = "";
  char num[32];
  if (find_v2(parent, sizeof parent, why2, sizeof why2) == 0) {
    if (make_child(cg->dir, sizeof cg->dir, parent)) {
      snprintf(why, whysz, "mkdir %.300s: %s", cg->dir, strerror(errno));
      cg->dir[0] = 0;
      return -1;
    }
    cg->version = 2;
    cg_write(cg->dir, "memory.swap.max", "0"); /* absent without swap accounting */
    cg_write(cg->dir, "memory.oom.group", "1");
    if (pids) {
      snprintf(num, sizeof num, "%u", pids);
      cg_write(cg->dir, "pids.max", num);
    }
    if (jail_cgroup_set_memory(cg, mem_bytes)) {
      snprintf(why, whysz, "%.300s/memory.max: %s", cg->dir, strerror(errno));
      jail_cgroup_remove(cg);
      return -1;
    }
    return 0;
  }
  if (find_v1("memory", parent, sizeof parent) == 0) {
    if (make_child(cg->dir, sizeof cg->dir, parent)) {
      snprintf(why, whysz, "mkdir %.300s: %s", cg->dir, strerror(errno));
      cg->dir[0] = 0;
      return -1;
    }
    cg->version = 1;
    if (jail_cgroup_set_memory(cg, mem_bytes)) {
      snprintf(why, whysz, "%.300s/memory.limit_in_bytes: %s", cg->dir, strerror(errno));
      jail_cgroup_remove(cg);
      return -1;
    }
    char pparent[JAIL_CGROUP_PATH];
    if (pids && find_v1("pids", pparent, sizeof pparent) == 0 &&
        make_child(cg->pids_dir, sizeof cg->pids_dir, pparent) == 0) {
      snprintf(num, sizeof num, "%u", pids);
      cg_write(cg->pids_dir, "pids.max", num);
    } else {
      cg->pids_dir[0] = 0;
    }
    return 0;
  }
  snprintf(why, whysz, "%.400s; no writable cgroup v1 memory hierarchy either",
           why2[0] ? why2 : "no cgroup v2 hierarchy");
  return -1;
}

int jail_cgroup_set_memory(const jail_cgroup *cg, uint64_t bytes) {
  char num[32];
  if (bytes) snprintf(num, sizeof num, "%" PRIu64, bytes);
  if (cg->version == 2) return cg_write(cg->dir, "memory.max", bytes ? num : "max");
  if (cg->version != 1) {
    errno = ENOENT;
    return -1;
  }
  if (!bytes) snprintf(num, sizeof num, "-1");
  /* v1 keeps memsw >= limit: raising goes memsw first, lowering limit first;
   * trying limit, memsw, limit covers both. memsw is absent without swap
   * accounting. */
  int r = cg_write(cg->dir, "memory.limit_in_bytes", num);
  char path[JAIL_CGROUP_PATH + 64];
  snprintf(path, sizeof path, "%s/memory.memsw.limit_in_bytes", cg->dir);
  if (access(path, F_OK) == 0) {
    int m = cg_write(cg->dir, "memory.memsw.limit_in_bytes", num);
    if (r) r = cg_write(cg->dir, "memory.limit_in_bytes", num);
    if (!r) r = m;
  }
  return r;
}

long jail_cgroup_oom_kills(const jail_cgroup *cg) {
  char buf[1024];
  if (!cg->version) return 0;
  if (cg_read(cg->dir, cg->version == 2 ? "memory.events" : "memory.oom_control", buf,
              sizeof buf) < 0)
    return 0;
  /* "oom_kill N" in both; v2 also has oom_group_kill, v1 under_oom. */
  for (char *p = buf; (p = strstr(p, "oom_kill ")); p++)
    if (p == buf || p[-1] == '\n') return strtol(p + 9, NULL, 10);
  return 0;
}

int jail_cgroup_join(const char *dir) {
  /* "0" is the writer itself. */
  return cg_write(dir, "cgroup.procs", "0");
}

void jail_cgroup_remove(jail_cgroup *cg) {
  char *dirs[2] = {cg->dir, cg->pids_dir};
  for (int i = 0; i < 2; i++) {
    if (!dirs[i][0]) continue;
    /* The last task may still be leaving (a reaped zombie is gone at once,
     * but the kernel's css teardown can lag a moment). */
    for (int tries = 0; tries < 200 && rmdir(dirs[i]) != 0 && errno == EBUSY; tries++)
      usleep(1000);
    dirs[i][0] = 0;
  }
  cg->version = 0;
}
