/*
 * jail_int.h - pieces of the jail shared by the host side (jail.c), the helper
 * (jail_helper.c, run inside sbx-pyworker) and the probe (jail_probe.c).
 *
 * Every step returns 0, or -1 after writing "STEP PATH: strerror" into the
 * caller's error buffer (errno is kept), so the first failure reaches the host
 * and the doctor word for word.
 */
#ifndef SBX_JAIL_INT_H
#define SBX_JAIL_INT_H

#include <seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "jail/jail.h"

/* Landlock: Debian 12's uapi headers stop at ABI 2; the newer rights are
 * defined here and used only when the kernel reports their ABI. */
#define JAIL_LL_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define JAIL_LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define JAIL_LL_NET_BIND_TCP (1ULL << 0)  /* ABI 4 */
#define JAIL_LL_NET_CONNECT_TCP (1ULL << 1)
#define JAIL_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define JAIL_LL_SCOPE_SIGNAL (1ULL << 1)

/* The Landlock ruleset attribute as of ABI 6; older kernels get a prefix of it. */
struct jail_ll_ruleset_attr {
  uint64_t handled_access_fs;  /* ABI 1 */
  uint64_t handled_access_net; /* ABI 4 */
  uint64_t scoped;             /* ABI 6 */
};

/* Setup messages (SEQPACKET, one per datagram): a kind byte and text. */
#define JAIL_MSG_FUSE 'F'  /* the /dev/fuse fd is attached; text "MODE UID GID" */
#define JAIL_MSG_READY 'R' /* J1 is done; W starts */
#define JAIL_MSG_ERROR 'E' /* text: the failing step and why */
#define JAIL_MSG_MEMORY 'M' /* J1 killed the jail: its processes passed the
                               memory limit (no cgroup); text: the figures */
#define JAIL_MSG_LIMIT 'L'  /* host -> J1 (no cgroup): the memory budget of
                               all the jail's processes, text: bytes */

/* A bounded error buffer. */
typedef struct jail_err {
  char *buf;   /* caller's storage */
  size_t size; /* its size (>= 1) */
} jail_err;

/* Writes "fmt: strerror(saved errno)" into e; returns -1 with errno kept. */
int jail_fail(jail_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same without the strerror suffix. */
int jail_failx(jail_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What J1 needs to build the root filesystem. */
typedef struct jail_fs_plan {
  jail_root root;        /* tmpfs or FUSE */
  jail_fuse_mode fuse;   /* for a FUSE root */
  int fuse_mount_fd;     /* hostmount mode: the detached mount from P1 */
  int setup_fd;          /* where the userns /dev/fuse fd is sent */
  uint32_t shm_bytes;    /* /dev/shm size */
  const char *stage;     /* where the new root is assembled ("/tmp") */
  const char *const *ro_dirs; /* host directories to bind read-only under
                              JAIL_RO_DIR_PREFIX */
  int nro_dirs;               /* their count */
} jail_fs_plan;

/* Builds the root at plan->stage and pivots into it (J1, before any limits).
 * Also sets the hostname. */
int jail_setup_fs(const jail_fs_plan *plan, jail_err *e);
/* Points fds 0, 1 and 2 at the jail's /dev/null (J1, after the pivot). */
int jail_null_stdio(jail_err *e);
/* Applies rlimits (J1). */
int jail_apply_rlimits(const jail_limits *l, jail_err *e);
/* Drops every capability: bounding set, ambient, effective/permitted/inheritable. */
int jail_drop_caps(jail_err *e);
/* Landlock (best effort by ABI; 0 when the kernel has none). *abi gets the ABI. */
int jail_apply_landlock(int *abi, jail_err *e);
/* A seccomp filter under construction; the first failing step wins. */
typedef struct jail_filter {
  scmp_filter_ctx ctx; /* libseccomp's filter */
  int rc;              /* 0, or the first failure (-errno) */
  const char *what;    /* the step that failed */
} jail_filter;
/* Records the result of the step `expr` named `w` (skipped after a failure). */
#define JAIL_FILTER_TRY(f, expr, w)                               \
  do {                                                            \
    if ((f)->rc == 0 && ((f)->rc = (expr)) != 0) (f)->what = (w); \
  } while (0)
/* A filter whose default is def_action; other architectures' entry points
 * (int 0x80, x32) kill the process; no_new_privs is set by the caller
 * itself. 0, or -1 with the error in e. */
int jail_filter_begin(jail_filter *f, uint32_t def_action, jail_err *e);
/* Loads and releases the filter: 0, or -1 with "seccomp (STEP): reason". */
int jail_filter_load(jail_filter *f, jail_err *e);
/* The environment both tiers give the worker, after clearenv(): PATH,
 * C.UTF-8, the sandbox user's names, no bytecode files, matplotlib without
 * a display (its rc from the package: /etc is not the jail's) and its cache
 * under `tmp`, one BLAS/OpenMP thread. The caller adds HOME, TMPDIR and its
 * tier's own variables. */
void jail_env_common(const char *tmp);

/* Allows each named call without condition (an allow list); names this
 * libseccomp or this architecture does not know are skipped. */
void jail_filter_allow(jail_filter *f, const char *const *names, size_t n);

/* Every namespace flag of clone/unshare, CLONE_NEWTIME (0x80) included: what
 * the jail's own clone asks for, and what the filters refuse to user code. */
#define JAIL_CLONE_NS_FLAGS                                                    \
  ((uint64_t)(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |      \
              CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP | 0x80))

/* The seccomp deny list (requires no_new_privs). */
int jail_apply_seccomp(jail_err *e);
/* A second filter for a jail without a memory cgroup: memfd_create, SysV
 * shared memory and message queues answer EPERM (memory no rlimit bounds).
 * Applied by W right before exec. */
int jail_apply_memory_filter(jail_err *e);

/* A Landlock ruleset for this kernel's ABI (*abi) handling every file right
 * it knows (*fs), TCP bind/connect (ABI 4) and the abstract-socket and signal
 * scopes (ABI 6), with no rule yet. Returns the ruleset fd, -2 when the
 * kernel has no Landlock, or -1 with the error in e. */
int jail_landlock_ruleset(int *abi, uint64_t *fs, jail_err *e);
/* Landlock handling every file right and granting none: no host path can
 * be opened, created or executed any more (best effort by ABI; 0 when the
 * kernel has none). *abi gets the ABI. */
int jail_seal_landlock(int *abi, jail_err *e);

/* Send/receive one setup message with an optional fd (SCM_RIGHTS). recv
 * returns the message length (text NUL-terminated) or -1; *fd gets a received
 * fd (O_CLOEXEC) or -1. */
int jail_send_msg(int sock, char kind, const char *text, int fd);
int jail_recv_msg(int sock, char *kind, char *text, size_t textsz, int *fd);

/* Writes a whole small file (helper side). */
int jail_write_file(const char *path, const char *data, int mode);

/* The fuse mount options string for `fd` and ids. */
void jail_fuse_opts(char *buf, size_t n, int fd, uint32_t uid, uint32_t gid);
/* Makes the detached FUSE mount of hostmount mode (root only): opens
 * /dev/fuse into *devfd and returns the mount fd in *mntfd. */
int jail_fuse_hostmount(uint32_t uid, uint32_t gid, int *devfd, int *mntfd, jail_err *e);

/* A fresh unprivileged host id for one jail (see JAIL_HOST_ID_BASE). */
uint32_t jail_pick_host_id(void);
/* Drops from root to `id` as uid and gid (I1); no-op when not root. */
int jail_drop_root(uint32_t id, jail_err *e);
/* Writes uid_map/gid_map/setgroups of `pid` mapping JAIL_UID to our uid. */
int jail_write_idmaps(pid_t pid, jail_err *e);

/* The reduced tier's helper (jail_reduced.c), called by jail_helper_main
 * for "tier=reduced": P1 becomes the supervisor (subreaper) and W the
 * worker, with no namespace. Never returns. */
typedef struct jail_reduced_args {
  jail_limits limits;     /* rlimits of W */
  const char *dir;        /* the private directory (absolute) */
  const char *cwd;        /* W's first working directory (a host path) */
  uint32_t uid;           /* as root: the id to drop to (never 0) */
  char **exec_argv;       /* a program instead of the worker, or NULL */
  const char *cgroup, *cgpids; /* cgroup directories to join, or "" */
} jail_reduced_args;
void jail_reduced_helper(const jail_reduced_args *a, jail_worker_fn worker)
    __attribute__((noreturn));

#endif
