/*
 * jail.h - the Linux jail that runs sbx-pyworker: namespaces, a root filesystem
 * made of the sandbox's store (FUSE) with the host's runtime mounted read-only,
 * seccomp, Landlock, rlimits, an empty capability set and a reaping init.
 *
 * Processes (host = the process using libsbx):
 *
 *   host ──posix_spawn──> P1 "sbx-pyworker jail ..."   host namespaces; as root it
 *    │                     │                           opens /dev/fuse if needed,
 *    │                     │                           then drops to its own id
 *    │                     │                           (and joins the jail's cgroup)
 *    │                     └─clone(NEWUSER|NEWNS|NEWPID|NEWNET|NEWIPC|NEWUTS|NEWCGROUP)
 *    │                         J1  pid 1 of the jail: mounts, pivot_root, limits,
 *    │                          │  no_new_privs, Landlock, seccomp; then reaps
 *    │                          ├─fork──> W  the worker (exec /usr/bin/python3.11 + _sbxw), or an
 *    │                          │            exec'd program for the jail tests
 *    │                          └─fork──> Z  the fork server (exec /usr/bin/python3.11
 *    │                                       forkserver.py): starts the shell's python3
 *    │                                       and host programs (src/py/py_spawn.c)
 *    ├── ctl socket (host <-> W, the py protocol)       fd 3 in W
 *    ├── setup socket (SEQPACKET; P1/J1 -> host: the FUSE fd, "ready", errors;
 *    │   also P1's lifeline: when the host closes it, P1 kills J1 and exits)
 *    ├── stdout / stderr pipes (W's fd 1 and 2)
 *    ├── interrupt socket (host -> W's watcher thread, fd 4 in W)
 *    └── spawn socket (SEQPACKET host -> Z, fd 3 in Z: one request per datagram,
 *        with the call's own reply socket and stdio fds; src/py/py_spawn.c)
 *
 * Invariants (the code cites them):
 *  I1. No host uid 0 is ever mapped into a jail: as root, P1 drops to an
 *      unprivileged id of its own (JAIL_HOST_ID_BASE...) before
 *      clone(CLONE_NEWUSER).
 *  I2. Untrusted code runs only in W, after every restriction of J1 is in place;
 *      W never runs before J1 has sent "ready".
 *  I3. Killing P1 (or closing the setup socket) kills the whole jail: J1 has
 *      PR_SET_PDEATHSIG(SIGKILL) toward P1, and the death of J1 (pid 1 of the
 *      pid namespace) kills every process in it. P1 waits for J1 before it
 *      exits, so once the host has reaped P1 nothing of the jail is left.
 *  I4. The helper is exec'd, never just forked from the host: the jail must not
 *      inherit a copy of the host's memory (keys, other sandboxes' data).
 *  I5. No process of the jail holds a host file: P1's fds 0-2 are /dev/null,
 *      J1 reopens them on the jail's /dev/null, and everything else it or W
 *      holds is a pipe or socket whose other end is the host. J1 and P1 are
 *      not dumpable, so user code (same uid as J1) cannot open their
 *      /proc/PID/mem, fd, exe or root.
 *  I6. The memory of all the jail's processes together is bounded: by its
 *      cgroup (jail_cgroup_*; P1 joins it before the clone), or, when the
 *      host has none to give, by J1's watch plus W's memory filter.
 *
 * The reduced tier (jail_config.tier, jail_reduced.c) keeps this host side
 * and the fds but has no J1: P1 forks W directly, without namespaces or
 * FUSE; its guarantees, R1-R5, are listed in that file.
 */
#ifndef SBX_JAIL_H
#define SBX_JAIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define JAIL_UID 1000            /* the sandbox user inside the jail */
#define JAIL_GID 1000
/* When started as root, P1 drops to an id of its own in
 * [JAIL_HOST_ID_BASE, JAIL_HOST_ID_BASE + JAIL_HOST_ID_SPAN), picked at random
 * for each jail: no host account uses these ids, so no other host process owns
 * the jail's user namespace (the owner could enter it) and no two jails can
 * signal or trace each other's helper. */
#define JAIL_HOST_ID_BASE 0x40000000u
#define JAIL_HOST_ID_SPAN (1u << 24)

/* File descriptors of the helper P1 right after exec. */
#define JAIL_FD_CTL 3
#define JAIL_FD_SETUP 4
#define JAIL_FD_OUT 5
#define JAIL_FD_ERR 6
#define JAIL_FD_INTR 7
#define JAIL_FD_SPAWN 8 /* the spawn socket, kept by J1 for Z: given only to a
                           full jail running the Python worker (jail_start) */
/* File descriptors of the worker W (0 is /dev/null, 1 and 2 the pipes). */
#define JAIL_WFD_CTL 3
#define JAIL_WFD_INTR 4
/* File descriptor of the fork server Z (0-2 are /dev/null). */
#define JAIL_ZFD_SPAWN 3

#define JAIL_ERRMSG_MAX 512
#define JAIL_MAX_RUNTIME 12      /* synthetic root entries (usr, etc, lib...) */
#define JAIL_MAX_RO_DIRS 16      /* host directories bound read-only (jail_config) */
#define JAIL_RO_DIR_PREFIX "/run/sbx/pypath/" /* ... at this prefix and their index */

typedef enum jail_root {
  JAIL_ROOT_TMPFS = 0, /* an empty tmpfs (jail tests, doctor) */
  JAIL_ROOT_FUSE = 1,  /* the sandbox's store, served by the host over FUSE */
} jail_root;

typedef enum jail_fuse_mode {
  JAIL_FUSE_NONE = 0,
  JAIL_FUSE_USERNS = 1,    /* J1 opens /dev/fuse in its user namespace and mounts */
  JAIL_FUSE_HOSTMOUNT = 2, /* root P1 opens /dev/fuse and makes a detached mount
                              (fsopen/fsmount) that J1 attaches with move_mount:
                              for hosts whose /dev/fuse only root may open */
} jail_fuse_mode;

/* Which jail: the full one (namespaces and a FUSE root, all of this file) or
 * the reduced one for hosts that deny user namespaces or /dev/fuse
 * (jail_reduced.c: seccomp allow list, Landlock, no_new_privs, rlimits, its
 * own process group, a dropped uid; the files are a private host directory). */
typedef enum jail_tier {
  JAIL_TIER_FULL = 0,
  JAIL_TIER_REDUCED = 1,
} jail_tier;

typedef struct jail_limits {
  uint64_t mem_bytes;   /* RLIMIT_AS of every jailed process (0 = none) */
  uint64_t cpu_seconds; /* RLIMIT_CPU hard limit for the jail's life (0 = none) */
  uint64_t fsize_bytes; /* RLIMIT_FSIZE (0 = none) */
  uint32_t nproc;       /* RLIMIT_NPROC: processes and threads of the jail user */
  uint32_t nofile;      /* RLIMIT_NOFILE */
  uint32_t shm_bytes;   /* size of the /dev/shm tmpfs */
  int memory_cgroup;    /* set by the helper: 1 when a cgroup bounds the memory
                           of the whole jail, 0 when J1 watches it instead */
} jail_limits;

typedef struct jail_config {
  const char *helper_path; /* sbx-pyworker; NULL: jail_find_helper() */
  jail_root root;          /* what the jail's / is */
  jail_limits limits;      /* resource limits */
  const char *cwd;         /* first working directory inside ("/data"); "/" if absent */
  char *const *exec_argv;  /* NULL: W runs the Python worker; else W execs this
                              program (an absolute path inside the jail) */
  char *const *ro_dirs;    /* host directories (absolute, NULL-terminated, at most
                              JAIL_MAX_RO_DIRS) bound read-only at
                              JAIL_RO_DIR_PREFIX "N" and listed in W's PYTHONPATH,
                              or NULL */
  jail_tier tier;          /* full (root ignored below otherwise) or reduced */
  const char *dir;         /* reduced: the private host directory W may use
                              (absolute; cwd is a host path under it) */
  uint32_t run_uid;        /* reduced, host is root: the unprivileged id W
                              runs as (the owner of `dir`); else unused */
} jail_config;

/* The jail's own cgroup (jail_cgroup.c), made by the host before P1 starts. */
#define JAIL_CGROUP_PATH 768
typedef struct jail_cgroup {
  int version;                  /* 2 or 1; 0: the jail has no cgroup */
  char dir[JAIL_CGROUP_PATH];   /* v2: the jail's cgroup; v1: its memory cgroup */
  char pids_dir[JAIL_CGROUP_PATH]; /* v1: its pids cgroup, or "" */
} jail_cgroup;

/* Makes a cgroup for one jail with memory.max = mem_bytes (0: none), no swap,
 * and pids.max = pids (0: none). 0, or -1 with the reason in `why` (the
 * doctor shows it). Set SBX_JAIL_NO_CGROUP=1 to refuse it (tests of the
 * fallback). */
int jail_cgroup_create(jail_cgroup *cg, uint64_t mem_bytes, uint32_t pids, char *why, size_t whysz);
/* Changes memory.max (per call). 0, or -1 with errno. */
int jail_cgroup_set_memory(const jail_cgroup *cg, uint64_t bytes);
/* How many times the kernel's OOM killer acted in the cgroup. */
long jail_cgroup_oom_kills(const jail_cgroup *cg);
/* Removes the directories (the jail must have ended). Safe when absent. */
void jail_cgroup_remove(jail_cgroup *cg);
void jail_cgroup_init(jail_cgroup *cg);
/* P1: moves the calling process into the cgroup directory `dir`. */
int jail_cgroup_join(const char *dir);

/* One running jail, as seen by the host. All fds are the host's ends. */
typedef struct jail {
  pid_t helper_pid;          /* P1 (our child), -1 once reaped */
  int ctl_fd;                /* stream socket to W (the py protocol) */
  int setup_fd;              /* setup messages in, lifeline out */
  int out_fd, err_fd;        /* read ends of W's stdout and stderr */
  int intr_fd;               /* our end of W's interrupt socket */
  int spawn_fd;              /* our end of Z's spawn socket; -1 where the jail
                                runs no fork server (reduced tier, exec mode) */
  int fuse_fd;               /* /dev/fuse of the jail's root, or -1 */
  jail_fuse_mode fuse_mode;  /* how that fd was obtained */
  uint32_t fuse_uid, fuse_gid; /* ids FUSE replies must use for the sandbox user
                                  (JAIL_UID in userns mode, the host id in
                                  hostmount mode) */
  int wait_status;           /* P1's wait status once reaped, else -1 */
  jail_cgroup cg;            /* the jail's memory cgroup, if it has one */
  uint64_t mem_set;          /* the limit jail_set_memory last set (0: none yet) */
  char memory_note[160];     /* why memory is bounded the way it is */
  jail_tier tier;            /* the tier it was started with */
  pid_t group;               /* reduced: W's process group (every process of
                                the jail is in it), 0 until "ready" */
} jail;

/* A synthetic entry of the jail's root: a mount point or a symlink. */
typedef struct jail_runtime_entry {
  char name[16];     /* "usr", "etc", "proc", "dev", "lib", "lib64", ... */
  int is_symlink;    /* 1: a symlink to `target`; 0: a directory mount point */
  int bind_host;     /* 1: J1 bind-mounts the host's /NAME read-only here */
  char target[64];   /* symlink target ("usr/lib") */
} jail_runtime_entry;

/* The runtime entries of this host (lstat of /usr, /bin, /lib*, ... plus etc,
 * proc, dev, run). Returns the count (<= JAIL_MAX_RUNTIME). Deterministic for a
 * host, so the FUSE server and J1 agree on it. */
int jail_runtime_entries(jail_runtime_entry *out, int max);

/* File descriptors passed with a message (SCM_RIGHTS): the control data of
 * up to JAIL_CMSG_MAX_FDS of them, and jail_cmsg_put_fds to attach fds[0..n)
 * to m with it (cb must live until the sendmsg). The jail's setup messages,
 * the spawn requests (py_spawn.c) and the isolated shell's frames (iso). */
#define JAIL_CMSG_MAX_FDS 5
typedef union jail_cmsg_buf {
  char buf[CMSG_SPACE(JAIL_CMSG_MAX_FDS * sizeof(int))];
  struct cmsghdr align;
} jail_cmsg_buf;
void jail_cmsg_put_fds(struct msghdr *m, jail_cmsg_buf *cb, const int *fds, int n);

/* Starts a helper program with posix_spawn (exec'd, never a bare fork of a
 * possibly multi-threaded host, I4): empty signal mask, default dispositions,
 * stdin and stdout on /dev/null (stderr too when null_stderr; else the
 * host's), fds[i] on fd 3 + i (each source fd must be >= 3 + nfds or
 * CLOEXEC), every fd above closed. Returns 0 or an errno. */
int jail_spawn(const char *path, char *const argv[], char *const envp[], const int *fds,
               int nfds, int null_stderr, pid_t *pid);

/* Finds sbx-pyworker: $SBX_PYWORKER, else next to the running executable
 * (., .., ../..), else /usr/local/libexec/sbx, /usr/libexec/sbx. Returns 0 and
 * copies the path, or -ENOENT. */
int jail_find_helper(char *out, size_t outsz);

/* Chooses how the jail gets its /dev/fuse (see jail_fuse_mode) and explains a
 * failure in `why`. Returns the mode, or JAIL_FUSE_NONE when neither works. */
jail_fuse_mode jail_choose_fuse_mode(char *why, size_t whysz);

/*
 * Starts a jail. On success the jail has gone as far as it can without the
 * host: with a FUSE root, j->fuse_fd is set and the caller must start serving
 * it before jail_wait_ready() (J1 is blocked in its first FUSE request).
 * Returns 0, or -1 with a message in err (the jail is already cleaned up).
 */
int jail_start(const jail_config *cfg, jail *j, char *err, size_t errlen);

/* Waits until J1 reports "ready" (W then starts). 0, or -1 with the message
 * J1 sent ("mount proc: Operation not permitted ..."); the jail is then stopped. */
int jail_wait_ready(jail *j, int timeout_ms, char *err, size_t errlen);

/* Asks W to interrupt request `id` if it is still running (SIGINT in W's
 * main thread; a stale id is ignored by W). */
int jail_interrupt(jail *j, uint32_t id);

/* Waits up to timeout_ms for the jail to end by itself (W exited); then
 * j->wait_status holds P1's status, which is W's: its exit code, or 128 + the
 * signal that killed it. 1 when it ended, 0 on timeout. */
int jail_wait_exit(jail *j, int timeout_ms);

/* After the worker died: 1 and a message in `msg` when the jail's memory
 * limit killed it (the cgroup's OOM killer, or J1's watch when there is no
 * cgroup), else 0. */
int jail_memory_killed(jail *j, char *msg, size_t n);

/* Sets the memory bound of all the jail's processes together for the next
 * call: the cgroup's limit, or without a cgroup J1's budget (sent to it on
 * the setup socket). */
void jail_set_memory(jail *j, uint64_t bytes);

/* Stops the jail: closes the lifeline, kills P1 if it does not exit within
 * `grace_ms`, reaps it, closes every fd. Safe on a zeroed or stopped jail.
 * Afterwards no process of the jail exists (I3). */
void jail_stop(jail *j, int grace_ms);

/* A jail that was never started (all fds -1). */
void jail_init(jail *j);

/* ---- the helper side (runs in sbx-pyworker) ------------------------------- */

/* The worker's entry point, called in W with the limits J1 applied. */
typedef int (*jail_worker_fn)(const jail_limits *limits);

/* W, right before it execs: in a jail without a memory cgroup, makes
 * memfd_create, SysV shared memory and message queues fail with EPERM (memory
 * that no rlimit bounds). 0, or -1 with a message in err. */
int jail_worker_memory_filter(const jail_limits *limits, char *err, size_t errlen);

/* main() of "sbx-pyworker jail KEY=VALUE... [-- PROGRAM ARGS...]". `spawner`
 * (may be NULL) runs in Z, a second child of J1 made right after W with the
 * same restrictions, its fds 0-2 on /dev/null and the spawn socket on
 * JAIL_ZFD_SPAWN; it is not made in exec mode (jail tests). */
int jail_helper_main(int argc, char **argv, jail_worker_fn worker, jail_worker_fn spawner);

/* main() of "sbx-pyworker probe": tries each jail step and prints one line per
 * step, "name\tok|fail\tdetail". */
int jail_probe_main(int argc, char **argv);

/* Seals the calling process (the process-isolated shell's helper, src/iso)
 * once its files are open: rlimits `l`, not dumpable, no_new_privs, Landlock
 * with no path granted (*landlock_abi: the ABI used, 0 without Landlock) and
 * a seccomp allow list (src/jail/jail_seal.c says what it allows). Returns 0,
 * or -1 with the failing step in err. */
int jail_seal_process(const jail_limits *l, int *landlock_abi, char *err, size_t errlen);

/* ---- the reduced tier (jail_reduced.c) -------------------------------------- */

/* The tier asked for by $SBX_JAIL_TIER: "full", "reduced", or anything else
 * (unset, "auto"): -1, the library tries the full tier first. */
int jail_tier_forced(void);
/* What the reduced tier keeps and loses on this host, as JSON object text
 * ({"kept": [...], "lost": [...]}), for jail_info and the doctor. The
 * landlock ABI and whether the host runs as root decide some of it. */
int jail_reduced_guarantees(char *buf, size_t n, int host_root, int cgroup);

/* ---- the doctor (host side) ------------------------------------------------- */

typedef struct jail_probe_item {
  char name[48];     /* "user namespaces", "/dev/fuse", "landlock", ... */
  int ok;            /* 1 works, 0 missing, -1 works partly (optional pieces) */
  char detail[256];  /* what was found */
  char fix[320];     /* for a missing piece: what to change; "" otherwise */
} jail_probe_item;

/* Runs every check (spawning the helper in probe mode, then a full jail) and
 * fills up to `max` items. Returns the count; *jail_ok is 1 when a complete
 * jail runs on this host. */
int jail_probe(jail_probe_item *items, int max, int *jail_ok);

#endif
