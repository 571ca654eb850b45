/*
 * sbx.h - the public C API of sbx, a local sandbox for AI agents.
 *
 * One sandbox is one SQLite file in the AgentFS 0.4 format: a filesystem, a
 * key-value store and a history of calls. A handle (`sbx *`) opens one sandbox.
 *
 * Conventions (read once, they hold for every function below):
 *
 *  - Result codes. Every function that can fail returns an int: SBX_OK (0) or a
 *    primary code below. Filesystem failures are extended like SQLite's:
 *    `SBX_FS | (errno << 8)`; `sbx_errcode(rc)` gives the primary code and
 *    `sbx_errno(h)` the errno of the last failure. `sbx_errmsg(h)` gives a
 *    human message for the last failure on that handle ("write /a/b: No such
 *    file or directory"); it is valid until the next call on the handle.
 *  - Ownership. Every buffer or array returned through an out-pointer belongs to
 *    the caller and is released with sbx_free() (one call per returned pointer;
 *    arrays of structs are one block that includes their strings). Input
 *    pointers are borrowed for the duration of the call only.
 *  - Threads. A handle is used by one thread at a time (calls on one handle from
 *    two threads must be serialized by the caller); different handles may be used
 *    from different threads in parallel. sbx_cancel() is the one exception: any
 *    thread may call it at any time.
 *  - Paths are absolute ("/data/a.txt") or relative to "/" for the file helpers.
 *    They are byte strings without NUL; names are at most 255 bytes and paths at
 *    most 4095. Non-UTF-8 names are allowed (bytes, like Linux).
 */
#ifndef SBX_H
#define SBX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SBX_API __attribute__((visibility("default")))
#else
#define SBX_API
#endif

/* ---- result codes ------------------------------------------------------- */

#define SBX_OK 0
#define SBX_ERROR 1      /* generic failure; see sbx_errmsg() */
#define SBX_FS 2         /* filesystem error; errno in bits 8..23 */
#define SBX_NOMEM 3      /* out of memory */
#define SBX_NOTFOUND 4   /* a kv key or history id that does not exist */
#define SBX_CORRUPT 5    /* not an SQLite database, or a damaged one */
#define SBX_SCHEMA 6     /* an SQLite database but not AgentFS 0.4 (or newer) */
#define SBX_READONLY 7   /* the database file is read-only */
#define SBX_MISUSE 8     /* bad arguments (NULL handle, invalid JSON, ...) */
#define SBX_LIMIT 9      /* an execution limit was reached (shell, python) */
#define SBX_TIMEOUT 10   /* the wall-clock limit was reached */
#define SBX_CANCELED 11  /* sbx_cancel() was called */
#define SBX_JAIL 12      /* the Python jail cannot run on this host */
#define SBX_QUOTA 13     /* reserved: quota errors are SBX_FS with ENOSPC/EFBIG */
#define SBX_CRASHED 14   /* the isolated shell process died (SBX_OPEN_PROCESS) */

/* The primary code of an extended result code. */
#define sbx_errcode(rc) ((rc) & 0xff)
/* The errno carried by an SBX_FS result code (0 for other codes). */
#define sbx_rc_errno(rc) (((rc) & 0xff) == SBX_FS ? ((rc) >> 8) : 0)

typedef struct sbx sbx;

/* ---- opening and closing ---------------------------------------------------- */

/* Flags for sbx_open(). */
#define SBX_OPEN_TEMP 0x01     /* a new temporary file, removed on close (path NULL) */
#define SBX_OPEN_MEMORY 0x02   /* an in-memory database (path NULL) */
#define SBX_OPEN_READONLY 0x04 /* open an existing file read-only */
#define SBX_OPEN_NOCREATE 0x08 /* fail with SBX_FS|ENOENT if the file is missing */
#define SBX_OPEN_PROCESS 0x10  /* the shell runs in a jailed helper process of its
                                  own ("process isolation", see sbx_bash) */

/* Quotas. 0 means "no limit" for each field (SBX_QUOTA_UNLIMITED). A sandbox
 * starts with the default quotas below (sbx_open, sbx_open_snapshot, sbx_fork;
 * not a read-only one): a sandbox whose file lives in /tmp - often RAM - cannot
 * fill the host by default. No limit is had only by asking for it. */
#define SBX_QUOTA_DEFAULT_BYTES (1ull << 30) /* 1 GiB of file data */
#define SBX_QUOTA_DEFAULT_INODES 100000ull   /* files, directories, symlinks */
#define SBX_QUOTA_UNLIMITED 0ull
typedef struct sbx_quota {
  uint64_t max_bytes;     /* total bytes of file data in the sandbox */
  uint64_t max_inodes;    /* number of inodes (files, dirs, symlinks) */
  uint64_t max_file_size; /* size of one file */
} sbx_quota;

/*
 * Opens a sandbox. `path` is the database file (created with the AgentFS schema
 * if missing, unless SBX_OPEN_NOCREATE), or NULL with SBX_OPEN_TEMP or
 * SBX_OPEN_MEMORY. On success *out is a new handle; on failure *out is set to a
 * handle that only carries the error message (call sbx_errmsg then sbx_close),
 * or NULL when memory ran out.
 *
 * File descriptors: an open sandbox file holds SBX_FDS_PER_SANDBOX of them
 * (the database, its -wal and its -shm); an in-memory sandbox none; opening
 * briefly needs two more when it creates the file (the new file and its
 * directory). SBX_OPEN_PROCESS adds the helper process's pipes. When the
 * process has none left the open fails with SBX_FS|EMFILE (or ENFILE),
 * "Too many open files", and nothing is left behind.
 *
 * Creating a missing file costs two fdatasync(2) (the file, its directory):
 * the empty sandbox is complete on disk, with its name, when sbx_open
 * returns. A crash can leave a stray PATH.sbx-new-* file, never a partial
 * PATH.
 */
#define SBX_FDS_PER_SANDBOX 3
SBX_API int sbx_open(const char *path, int flags, sbx **out);

/* Opens a new in-memory sandbox (SBX_OPEN_MEMORY, or flags 0) or
 * temporary-file sandbox (SBX_OPEN_TEMP), either one optionally with
 * SBX_OPEN_PROCESS, from the bytes of sbx_snapshot() (or
 * of any AgentFS database file); the bytes are copied. Invalid bytes give
 * SBX_CORRUPT or SBX_SCHEMA and nothing else happens. *out as for sbx_open. */
SBX_API int sbx_open_snapshot(const void *bytes, size_t len, int flags, sbx **out);

/* Closes the handle (NULL is a no-op), removing a temporary file. An open
 * sbx_begin group is rolled back. */
SBX_API int sbx_close(sbx *h);

/* The message of the last failure on `h` (never NULL; "" after success). */
SBX_API const char *sbx_errmsg(const sbx *h);
/* The errno of the last SBX_FS failure on `h`, else 0. */
SBX_API int sbx_errno(const sbx *h);
/* For an SBX_FS failure: the sandbox path it concerned (or ""). */
SBX_API const char *sbx_errpath(const sbx *h);

/* Releases anything returned by an sbx_* out-pointer. NULL is a no-op. */
SBX_API void sbx_free(void *p);

/* The database file path ("" for in-memory). Owned by the handle. */
SBX_API const char *sbx_path(const sbx *h);

/* Sets the quotas of this handle (not stored in the file). A write that would
 * exceed one fails with SBX_FS|ENOSPC (bytes, inodes) or SBX_FS|EFBIG (file
 * size) and changes nothing. */
SBX_API int sbx_set_quota(sbx *h, const sbx_quota *q);
/* The quotas in force (the defaults until sbx_set_quota). */
SBX_API int sbx_get_quota(sbx *h, sbx_quota *q);

/* Transactions. The calls between sbx_begin and sbx_commit form one
 * transaction (nestable; the outermost commit makes them durable, rollback
 * undoes everything since the matching begin). Every call is atomic on its
 * own; grouping many writes is what makes bulk writes fast. commit or
 * rollback without a begin, and sbx_set_quota or sbx_fork inside a group,
 * are SBX_MISUSE. */
SBX_API int sbx_begin(sbx *h);
SBX_API int sbx_commit(sbx *h);
SBX_API int sbx_rollback(sbx *h);

/* ---- file helpers ------------------------------------------------------------ */

/* Flags for sbx_write_file(). */
#define SBX_WRITE_MKDIRS 0x01 /* create missing parent directories */
#define SBX_WRITE_APPEND 0x02 /* append instead of replacing */

/* File types in sbx_stat.type. */
#define SBX_TYPE_FILE 1
#define SBX_TYPE_DIR 2
#define SBX_TYPE_SYMLINK 3
#define SBX_TYPE_OTHER 4 /* fifo, device or socket (made through FUSE) */

typedef struct sbx_stat {
  int64_t ino;     /* inode number */
  uint32_t mode;   /* st_mode: type and permission bits */
  int type;        /* SBX_TYPE_* */
  uint32_t nlink;  /* link count */
  uint32_t uid, gid;
  uint64_t size;   /* bytes (symlinks: target length) */
  int64_t atime, mtime, ctime;                 /* seconds */
  uint32_t atime_nsec, mtime_nsec, ctime_nsec; /* nanoseconds */
} sbx_stat;

typedef struct sbx_dirent {
  char *name;   /* entry name (points into the same block) */
  int64_t ino;  /* inode number */
  int type;     /* SBX_TYPE_* */
} sbx_dirent;

/* Reads a whole file. *data (NUL-terminated for convenience, not counted in
 * *len) is the caller's, freed with sbx_free. */
SBX_API int sbx_read_file(sbx *h, const char *path, void **data, size_t *len);
/* Writes a whole file atomically (creating it with mode 0644). Writing to a
 * directory is SBX_FS|EISDIR; a missing parent is SBX_FS|ENOENT unless
 * SBX_WRITE_MKDIRS. `data` may be NULL when len is 0. */
SBX_API int sbx_write_file(sbx *h, const char *path, const void *data, size_t len,
                           int flags);

/* One file for sbx_write_files (all borrowed). */
typedef struct sbx_file {
  const char *path; /* sandbox path */
  const void *data; /* contents (may be NULL when len is 0) */
  size_t len;       /* bytes */
} sbx_file;

/* Writes many files in one transaction: all of them or (on the first failure,
 * whose path sbx_errpath names) none. For seeding a sandbox. */
SBX_API int sbx_write_files(sbx *h, const sbx_file *files, size_t n, int flags);
/* Creates a directory (mode 0755); parents too when `parents` is non-zero. */
SBX_API int sbx_mkdir(sbx *h, const char *path, int parents);
/* Removes a file, symlink or empty directory; a whole tree if `recursive`. */
SBX_API int sbx_remove(sbx *h, const char *path, int recursive);
/* stat (follows symlinks) or lstat (`nofollow` non-zero). */
SBX_API int sbx_stat_path(sbx *h, const char *path, int nofollow, sbx_stat *st);
/* Lists a directory (following symlinks), sorted by name bytewise, without
 * "." and "..". *entries is one block (non-NULL on success, even when *n is
 * 0): sbx_free(*entries). */
SBX_API int sbx_listdir(sbx *h, const char *path, sbx_dirent **entries, size_t *n);
/* Renames (replacing an existing target as rename(2) does). */
SBX_API int sbx_rename(sbx *h, const char *from, const char *to);
/* Creates a symlink at `linkpath` pointing to `target` (stored as given, not
 * resolved; at most 4095 bytes). An existing linkpath is SBX_FS|EEXIST. */
SBX_API int sbx_symlink(sbx *h, const char *target, const char *linkpath);
/* The target of the symlink at `path` (not followed), NUL-terminated, for
 * sbx_free. Not a symlink: SBX_FS|EINVAL. */
SBX_API int sbx_readlink(sbx *h, const char *path, char **target);

/* ---- host directory trees ---------------------------------------------------------- */

/* Copies the host directory tree `hostdir` into the sandbox at `path`
 * (created with its parents; an existing directory is merged into, existing
 * entries replaced), in one transaction: all of it or, on the first failure,
 * nothing. Regular files, directories and symlinks are copied with their
 * permission bits (set-id bits dropped) and times. A symlink must stay inside
 * the tree: a relative target of some "../" (at most the link's depth) then
 * names only; any other target, and any other file type, fails the copy
 * (SBX_ERROR naming the host path). At most 256 levels deep. */
SBX_API int sbx_import_dir(sbx *h, const char *hostdir, const char *path);
/* Copies the sandbox tree at `path` (a directory) into the new host directory
 * `hostdir` (it must not exist: SBX_FS|EEXIST), with the rules of
 * sbx_import_dir. Host entries are created fresh (O_EXCL, O_NOFOLLOW); on a
 * failure what was written so far stays and the caller may remove it. */
SBX_API int sbx_export_dir(sbx *h, const char *path, const char *hostdir);

/* ---- key-value store ---------------------------------------------------------- */

/* Values are JSON text, stored as AgentFS stores them. sbx_kv_set validates the
 * JSON (SBX_MISUSE if invalid). sbx_kv_get gives SBX_NOTFOUND for a missing key. */
SBX_API int sbx_kv_get(sbx *h, const char *key, char **json);
SBX_API int sbx_kv_set(sbx *h, const char *key, const char *json);
SBX_API int sbx_kv_delete(sbx *h, const char *key); /* missing key: SBX_OK */
/* Keys starting with `prefix` (literal: % and _ are not wildcards; NULL or ""
 * for all), sorted bytewise. *keys is one block holding the array (with a
 * NULL after the last key) and the strings: sbx_free(*keys). */
SBX_API int sbx_kv_keys(sbx *h, const char *prefix, char ***keys, size_t *n);

/* ---- history (the tool_calls table) ------------------------------------------ *
 * The rows the library writes for the fronts (a bash call with record, each
 * file helper, see sbx_history_files) wait in memory and are written with
 * the next commit of the sandbox, or once 128 wait or the oldest waited 1 s,
 * and at sbx_history_list, sbx_snapshot, sbx_fork and sbx_close: a crash of
 * the process loses at most those waiting rows (docs/limits.md, "History").
 * The calls below write at once (the waiting rows first, so ids stay in
 * call order). */

typedef struct sbx_history_entry {
  int64_t id;
  char *name;         /* tool or call name */
  char *parameters;   /* JSON text or NULL */
  char *result;       /* JSON text or NULL */
  char *error;        /* error text or NULL */
  char *status;       /* "pending", "success" or "error" */
  double started_at;  /* unix seconds (REAL values accepted) */
  double completed_at; /* unix seconds, or -1 when still pending */
  double duration_ms; /* or -1 when still pending */
} sbx_history_entry;

/* Records the start of a call; *id receives its row id. parameters: JSON or
 * NULL (invalid JSON: SBX_MISUSE). */
SBX_API int sbx_history_start(sbx *h, const char *name, const char *parameters,
                              int64_t *id);
/* Finishes a call: `error` NULL means success (status "success", result
 * stored; result is JSON or NULL), otherwise status "error" and the result is
 * not stored. An unknown id is SBX_NOTFOUND; finishing a call twice is
 * SBX_MISUSE. */
SBX_API int sbx_history_finish(sbx *h, int64_t id, const char *result,
                               const char *error);
/* Records a call that has already finished, in one statement (what
 * sbx_history_start + sbx_history_finish do in three): name, parameters
 * (JSON or NULL), result (JSON or NULL) and error as for those two;
 * started_at in unix seconds (<= 0: now minus the duration), duration_ms
 * (negative: 0). *id (may be NULL) receives the row id. */
SBX_API int sbx_history_record(sbx *h, const char *name, const char *parameters,
                               const char *result, const char *error, double started_at,
                               double duration_ms, int64_t *id);
/* The most recent `limit` calls (limit <= 0: all), newest first. One block
 * (non-NULL on success): sbx_free(*entries). */
SBX_API int sbx_history_list(sbx *h, int limit, sbx_history_entry **entries,
                             size_t *n);
/* Bounds the history: at most max_rows calls (the newest are kept) and none
 * started more than max_age_s seconds ago; 0 lifts that bound. Default:
 * SBX_HISTORY_DEFAULT_ROWS calls, no age limit. The old calls are deleted at
 * once, then by every 64th recorded call in its own transaction (by every
 * call when max_rows < 128), so the table never holds more than max_rows
 * calls and recording stays cheap. A call still pending can be deleted (its
 * sbx_history_finish is then SBX_NOTFOUND). The setting belongs to this
 * handle (not stored in the file); calls recorded by an isolated helper
 * process (SBX_OPEN_PROCESS) use the default. Negative: SBX_MISUSE. */
#define SBX_HISTORY_DEFAULT_ROWS 100000
SBX_API int sbx_history_retention(sbx *h, int64_t max_rows, int64_t max_age_s);
/* The file helpers (sbx_read_file, sbx_write_file, sbx_write_files,
 * sbx_mkdir, sbx_remove, sbx_listdir, sbx_rename, sbx_symlink,
 * sbx_import_dir, sbx_export_dir; not sbx_stat_path, sbx_readlink) record
 * each call as every front does: name as the function's ("read_file",
 * "write_file", "write_files", "mkdir", "remove", "list_dir", "rename",
 * "symlink", "import_dir", "export_dir"), parameters the paths and sizes,
 * never the contents ({"path", "size", "mode", ...}), result {"bytes": N}
 * (read, write), {"entries": N} (list) or {}, or the error message. A
 * helper that writes commits its row with its change. on = 0 stops that
 * for this handle (a front's own setup work), 1 resumes; returns the
 * previous setting (1 by default). */
SBX_API int sbx_history_files(sbx *h, int on);

/* ---- snapshots and forks ------------------------------------------------------- */

/* The whole sandbox as one self-contained SQLite image. *bytes: sbx_free. */
SBX_API int sbx_snapshot(sbx *h, void **bytes, size_t *len);
/* Copies the sandbox into a new database file at `path` (must not exist:
 * SBX_FS|EEXIST). If `out` is non-NULL the copy is opened and returned as a
 * new handle (NULL on failure, with the error on `h`). The copy and the
 * original are independent from then on. */
SBX_API int sbx_fork(sbx *h, const char *path, sbx **out);

/* ---- the shell ------------------------------------------------------------------ */

/*
 * A bash-compatible shell runs inside the sandbox: no host process, no host
 * files; ~100 commands (src/cmd) run in-process over the sandbox filesystem.
 * The shell's state (cwd, variables, functions, aliases, options, traps)
 * persists across sbx_bash() calls on one handle, like a terminal; the default
 * working directory is /data. sbx_shell_reset() returns to a fresh shell.
 */

/* Limits of one sbx_bash() call. 0 in a field of sbx_set_limits() keeps the
 * current value. A limit ends the call with exit code 126, a message on stderr
 * naming the limit and its value, and res->limit / res->limit_name. */
typedef struct sbx_limits {
  uint64_t loop_iterations; /* iterations of any one loop */
  uint64_t command_count;   /* commands run in one call */
  uint64_t function_depth;  /* nested function calls (and eval/source depth) */
  uint64_t output_bytes;    /* stdout + stderr bytes of one call */
  uint64_t string_size;     /* bytes of one string (variable, word, line) */
  uint64_t array_size;      /* elements of one array (also brace/glob results) */
  uint64_t timeout_ms;      /* wall clock of one call */
  /* Background jobs that outlive their call (docs/limits.md): */
  uint64_t bg_jobs;         /* jobs alive at once (`cmd &` fails beyond) */
  uint64_t bg_lifetime_ms;  /* wall clock of one job after its call */
  uint64_t bg_cpu_ms;       /* CPU time of one job (each of its tasks) after its call */
} sbx_limits;

/* Presets. STRICT: 100 loop iterations, 500 commands; NORMAL (the default)
 * and PERMISSIVE: 10^9 / 10^9 and 10^10 / 10^10, counts a script cannot reach
 * within their time limits (30 s, 120 s), so they stop runaway scripts by
 * time, output and size (the other fields scale from STRICT to PERMISSIVE). */
#define SBX_PRESET_STRICT 1
#define SBX_PRESET_NORMAL 2
#define SBX_PRESET_PERMISSIVE 3
/* Fills *lim with a preset; returns SBX_MISUSE for an unknown preset. */
SBX_API int sbx_limits_preset(int preset, sbx_limits *lim);
/* Sets the limits of later calls (fields that are 0 keep their value). */
SBX_API int sbx_set_limits(sbx *h, const sbx_limits *lim);
SBX_API int sbx_get_limits(sbx *h, sbx_limits *lim);

/* Which limit stopped a call (sbx_bash_result.limit). */
#define SBX_LIMIT_NONE 0
#define SBX_LIMIT_LOOP_ITERATIONS 1
#define SBX_LIMIT_COMMAND_COUNT 2
#define SBX_LIMIT_FUNCTION_DEPTH 3
#define SBX_LIMIT_OUTPUT_BYTES 4
#define SBX_LIMIT_STRING_SIZE 5
#define SBX_LIMIT_ARRAY_SIZE 6
#define SBX_LIMIT_TIMEOUT 7
#define SBX_LIMIT_CANCELLED 8
#define SBX_LIMIT_CONCURRENT_TASKS 9
#define SBX_LIMIT_NESTING_DEPTH 10
#define SBX_LIMIT_CRASHED 11 /* process isolation: the shell process died */

typedef struct sbx_bash_result {
  char *out;          /* stdout bytes (NUL-terminated for convenience, not counted) */
  size_t out_len;
  char *err;          /* stderr bytes */
  size_t err_len;
  int exit_code;      /* 0..255; 126 when a limit stopped the call */
  double duration_ms;
  int err_errno;      /* the failing command hit a file error: its errno, else 0 */
  char *err_path;     /* ... and the path (sandbox path), else NULL */
  int limit;          /* SBX_LIMIT_* */
  const char *limit_name; /* "loop_iterations", "command_count", "function_depth",
                             "output_bytes", "string_size", "array_size",
                             "timeout", "cancelled", ... (static) or NULL */
  uint64_t limit_value;   /* the limit's value (SBX_LIMIT_CRASHED: the signal) */
  int killed;             /* process isolation: the shell process was killed or
                             died during the call; the next call starts a fresh
                             session (cwd /data, no variables). 0 in-process */
} sbx_bash_result;

/* Options of sbx_bash_ex (all optional; zero-initialize). */
typedef struct sbx_bash_opts {
  const void *stdin_data; /* the script's stdin (NULL: empty) */
  size_t stdin_len;
  int stdin_fd;           /* >= 0: read stdin from this host fd instead (CLI use);
                             set to -1 when unused (0 means host fd 0) */
  /* Streaming receivers: when set, output goes here and not into res. */
  void (*on_stdout)(void *ud, const void *buf, size_t n);
  void (*on_stderr)(void *ud, const void *buf, size_t n);
  void *ud;
  const char *name;       /* $0 and the error prefix (default "sbx") */
  char *const *args;      /* positional parameters $1... (NULL: unchanged) */
  int nargs;
  int run_exit_trap;      /* run the EXIT trap at the end (the shell exits) */
  int wait_jobs;          /* wait for the script's background jobs before returning
                             (bash -c as its caller sees it: the CLI's -c). Default:
                             they keep running after the call (docs/shell.md) */
  int record;             /* 1: record the call in the history as every front
                             does: name "bash", parameters {"command": the
                             script, "cwd": the shell's cwd when it started},
                             result {"exitCode": N}, its duration; written in
                             the call's locked section when the script ran
                             (a limit included); invalid UTF-8 becomes U+FFFD;
                             with args, parameters also hold "args": [...] */
  const char *record_name; /* the recorded call's name (NULL: "bash"); the CLI's
                             `sbx DB python` records "python" this way */
} sbx_bash_opts;

/*
 * Runs a script (len bytes, NUL bytes not allowed in the text) in the
 * sandbox's shell. Background jobs (`cmd &`) outlive the call: they run on
 * between calls under their own limits, and a later call sees them in `jobs`,
 * `wait` and `kill` (docs/shell.md, "Background jobs"; opts->wait_jobs waits
 * for them instead). Returns SBX_OK when the script ran (whatever its exit code),
 * SBX_LIMIT / SBX_TIMEOUT / SBX_CANCELED when a limit stopped it (res is filled
 * all the same), or an error code. Free the result with sbx_bash_result_free.
 */
SBX_API int sbx_bash(sbx *h, const char *script, size_t len, sbx_bash_result *res);
SBX_API int sbx_bash_ex(sbx *h, const char *script, size_t len, const sbx_bash_opts *opts,
                        sbx_bash_result *res);
SBX_API void sbx_bash_result_free(sbx_bash_result *res);
/* Stops the running call on h as soon as possible (any thread, any time); a
 * Python call is interrupted and ends with SBX_PY_CANCELED. */
SBX_API int sbx_cancel(sbx *h);
/* A fresh shell: cwd /data, default variables, no functions, aliases or
 * traps, no background jobs (they end). */
SBX_API int sbx_shell_reset(sbx *h);

/* ---- long commands: background jobs with a handle ---------------------------
 *
 * sbx_start runs a script as one background job of the sandbox's shell (as
 * `{ SCRIPT; } &` would, so `jobs`, `wait` and `kill` in later sbx_bash
 * calls see it too) and returns at once with a handle. The job runs between
 * calls under its own limits (bg_jobs, bg_lifetime_ms, bg_cpu_ms of
 * sbx_limits; docs/limits.md); its stdout and stderr go to the handle (the
 * last SBX_JOB_OUTPUT_MAX bytes of each are kept; offsets count every byte,
 * so a reader streams by asking from where it stopped). When it ends, the
 * history records a "bash_background" call with its command and exit code.
 * Close and sbx_shell_reset end every job; a handle stays valid (its job
 * ended) until sbx_job_free, which may come before or after the job ends.
 * Not with SBX_OPEN_PROCESS, nor from a tool callback of a running script
 * (SBX_MISUSE).
 */
typedef struct sbx_job sbx_job;
#define SBX_JOB_OUTPUT_MAX (1u << 20)
SBX_API int sbx_start(sbx *h, const char *script, size_t len, sbx_job **out);
/* Waits up to timeout_ms (< 0: without a limit; 0: only looks) for the job to
 * end: SBX_OK and *exit_code (128+N when signal N ended it), or SBX_TIMEOUT
 * while it runs. */
SBX_API int sbx_job_wait(sbx_job *j, int timeout_ms, int *exit_code);
/* Sends signal sig (SIGTERM when 0) to the job, as `kill` does. */
SBX_API int sbx_job_kill(sbx_job *j, int sig);
/* Output so far of fd 1 or 2 from byte offset `from`: *data (malloc'd, free
 * with sbx_free; NULL when empty) and *len; *next is the offset to ask from
 * next time; bytes before the kept window are skipped (*next - *len > from). */
SBX_API int sbx_job_output(sbx_job *j, int fd, uint64_t from, void **data, size_t *len,
                           uint64_t *next);
/* The job's $! (its pid in the shell), its command, and whether it runs. */
SBX_API int64_t sbx_job_pid(const sbx_job *j);
SBX_API const char *sbx_job_command(const sbx_job *j);
SBX_API int sbx_job_running(sbx_job *j);
/* The handles of the jobs that run now (borrowed; valid until each one's
 * sbx_job_free), *n of them; free the array with sbx_free. */
SBX_API int sbx_jobs(sbx *h, sbx_job ***jobs, size_t *n);
/* Releases the handle (NULL is a no-op); the job itself runs on. */
SBX_API void sbx_job_free(sbx_job *j);
/* ---- Python in a jail ------------------------------------------------------------
 *
 * The first Python call starts the sandbox's worker: Debian's CPython 3.11
 * (/usr/bin/python3.11 running sbx's worker module), inside a Linux jail (user, mount, pid, net, ipc,
 * uts and cgroup namespaces, seccomp, Landlock, rlimits, no capabilities) whose
 * root file system is this sandbox's store, so Python and the shell see the
 * same files. The worker stays up: named contexts keep their globals between
 * calls. If the host cannot run the jail, calls fail with SBX_JAIL and a
 * message saying why (sbx_probe() tells the whole story); Python never runs
 * unjailed. sbx-pyworker is found through $SBX_PYWORKER, next to the running
 * program, or in /usr/local/libexec/sbx/.
 *
 * Result codes: SBX_OK whenever the code ran to an outcome, including errors of
 * the code itself (syntax, exception, timeout, limits): see
 * sbx_py_result.error. Other codes mean nothing ran (SBX_JAIL, SBX_MISUSE,
 * SBX_NOMEM), or a context operation failed (SBX_NOTFOUND for an unknown
 * context, SBX_ERROR with a message otherwise).
 */

/* sbx_py_result.error */
#define SBX_PY_OK 0           /* the code ran to the end */
#define SBX_PY_SYNTAX 1       /* it does not compile (SyntaxError) */
#define SBX_PY_EXCEPTION 2    /* an uncaught exception (type, message, traceback) */
#define SBX_PY_TIMEOUT 3      /* the wall-clock limit: interrupted (context kept) or,
                                 if the interrupt did not end it, the worker was
                                 killed (context lost; see `killed`) */
#define SBX_PY_MEMORY 4       /* MemoryError under the memory limit */
#define SBX_PY_KILLED 5       /* the worker died (signal, limit, protocol abuse);
                                 the next call starts a fresh worker */
#define SBX_PY_OUTPUT_LIMIT 6 /* stdout+stderr passed max_output (output truncated) */
#define SBX_PY_CPU 7          /* the CPU-time limit */
#define SBX_PY_EXIT 8         /* SystemExit with a non-zero status (exit_code) */
#define SBX_PY_PROTECTED 9    /* the code assigns or deletes a protected name */
#define SBX_PY_PRELOAD 10     /* a preload_packages module cannot be imported */
#define SBX_PY_CWD 11         /* the working directory does not exist */
#define SBX_PY_CANCELED 12    /* sbx_cancel/sbx_python_cancel: interrupted or killed */

/* Options of one call; a zeroed struct (or NULL) means the defaults. */
typedef struct sbx_py_options {
  const char *context;         /* context name (1..128 bytes); NULL: "default".
                                  A missing context is created. */
  const char *cwd;             /* working directory; NULL: "/data" if it exists,
                                  else "/" */
  double timeout;              /* wall-clock seconds; 0: 30 */
  double grace;                /* seconds between the interrupt and the kill; 0: 1 */
  const char *const *preload;  /* modules imported first (NULL-terminated), or NULL */
  uint64_t max_memory;         /* address-space bytes for this call; 0: the
                                  sandbox's limit (2 GiB) */
  uint64_t max_output;         /* stdout + stderr bytes kept; 0: 16 MiB */
  uint32_t max_cpu;            /* CPU seconds; 0: no per-call limit */
  int no_repr;                 /* 1: do not evaluate a trailing expression's repr */
  /* Called on the calling thread with each piece of stdout (fd 1) or stderr
   * (fd 2) as the code writes it; non-zero stops the code (interrupted as at
   * a timeout). It must not call into the sandbox. NULL: none. */
  int (*on_output)(void *ud, int fd, const char *data, size_t len);
  void *on_output_ud;   /* passed to on_output */
  uint64_t keep_output; /* bytes of each of stdout and stderr kept in the
                           result: longer output keeps its first and last
                           halves around a line "[... N bytes of output
                           left out ...]"; 0: all of it (max_output
                           still counts every byte written) */
} sbx_py_options;

/* A rich output of a call: a matplotlib figure left open or shown. */
typedef struct sbx_py_image {
  const char *mime;          /* "image/png" */
  const unsigned char *data; /* the file's bytes */
  size_t len;
} sbx_py_image;

/* The outcome of one call: one block (sbx_free) holding every string. */
typedef struct sbx_py_result {
  int error;             /* SBX_PY_* */
  char *out;             /* stdout bytes (NUL-terminated beyond out_len) */
  size_t out_len;
  char *err;             /* stderr bytes (NUL-terminated beyond err_len) */
  size_t err_len;
  char *repr;            /* repr() of a trailing expression, or NULL */
  char *error_type;      /* exception class ("ZeroDivisionError"), or NULL */
  char *error_message;   /* str(exception) or a description, or NULL */
  char *traceback;       /* formatted traceback, or NULL */
  int exit_code;         /* SystemExit status (scripts), else 0 */
  int killed;            /* 1: the worker was killed; contexts were lost */
  double duration_ms;    /* wall-clock time of the call */
  size_t nimages;        /* figures the code left open or showed (plt.show()),
                            in order; they are closed once returned */
  sbx_py_image *images;  /* nimages entries, or NULL */
} sbx_py_result;

/* Runs `code` in a context. *out (non-NULL on SBX_OK) is freed with sbx_free.
 * The call is recorded in the history ("python"). */
SBX_API int sbx_python_exec(sbx *h, const char *code, const sbx_py_options *opt,
                            sbx_py_result **out);

/* Contexts: a context is a globals dict kept by the worker. Names: 1..128 bytes
 * of UTF-8. create fails (SBX_ERROR) if it exists; fork copies `src` (a deep
 * copy where objects allow it; modules are shared) into the new `name`; reset
 * empties one (creating it if missing); delete removes one (SBX_NOTFOUND if
 * missing). */
SBX_API int sbx_python_context_create(sbx *h, const char *name);
SBX_API int sbx_python_context_fork(sbx *h, const char *src, const char *name);
SBX_API int sbx_python_context_reset(sbx *h, const char *name);
SBX_API int sbx_python_context_delete(sbx *h, const char *name);
/* Sets variable `name` of a context (NULL: "default") from JSON text. */
SBX_API int sbx_python_set_var(sbx *h, const char *context, const char *name,
                               const char *json);
/* Protects a name of a context from assignment and deletion by later code
 * (such code fails with SBX_PY_PROTECTED; a change through globals() is undone). */
SBX_API int sbx_python_protect(sbx *h, const char *context, const char *name);
/* Stops the worker and its jail now (contexts are lost; the next call starts
 * a fresh one). Closing the sandbox does the same. */
SBX_API int sbx_python_stop(sbx *h);
/* Host directories that Python in the sandbox can import from: each is bound
 * read-only into the jail (at /run/sbx/pypath/N) and put on sys.path of the
 * worker and of every python3 it starts (PYTHONPATH), e.g. a host venv's
 * site-packages. `dirs`: absolute paths of directories (NULL-terminated, at
 * most 16, no ':'), or NULL for none; the jail's user must be able to read
 * them. A running worker is stopped (contexts are lost) when the set changes;
 * the next call starts one with them. SBX_MISUSE for a bad path. */
SBX_API int sbx_python_set_paths(sbx *h, const char *const *dirs);
/* Stops the running Python call of h, if any, like sbx_cancel but without
 * touching the shell: any thread, any time; the call ends with
 * SBX_PY_CANCELED. A cancel when no call runs is forgotten. */
SBX_API int sbx_python_cancel(sbx *h);

/* Jail tiers. The full jail above needs user namespaces and /dev/fuse; where
 * the host denies them (Docker's default seccomp profile, a user without
 * /dev/fuse) the worker runs in the reduced tier: seccomp allow list,
 * Landlock, no_new_privs, rlimits, its own process group, a dropped uid as
 * root, over a private host directory synchronised with the store around
 * each call (docs/python.md, docs/security.md). $SBX_JAIL_TIER=full|reduced
 * forces one for the whole process. */
#define SBX_TIER_ANY 0     /* the full jail, else the reduced tier (default) */
#define SBX_TIER_FULL 1    /* only the full jail: else calls fail with SBX_JAIL */
#define SBX_TIER_REDUCED 2 /* the reduced tier even where the full one works */
/* Sets which tier this sandbox's worker may use (a running worker on
 * another tier is stopped). SBX_MISUSE for an unknown tier. */
SBX_API int sbx_python_require(sbx *h, int tier);
/* The tier the worker runs in (starting it if needed, as a call would) and
 * what it keeps and loses, as JSON text: {"tier": "full"|"reduced", "why":
 * ..., "root": the sandbox's "/" as the worker sees it, "memory": ...,
 * "kept": [...], "lost": [...]}. *json is freed with sbx_free. SBX_JAIL
 * when no tier can start. */
SBX_API int sbx_jail_info(sbx *h, char **json);

/* Host programs in the shell. A simple command that is neither a builtin, a
 * function nor a table command is looked up on PATH in the jail's view of
 * the host's runtime (/usr, /bin, /lib... read-only) and runs in the jail over
 * the sandbox's files, wired into the pipeline like any command (git, make,
 * gcc, node, perl...). `names` limits which: program names ("git") or
 * absolute paths ("/usr/bin/git"), NULL-terminated; an empty list allows
 * none; NULL (the default) allows every executable of the runtime. The
 * shell's python3/python commands are not affected. SBX_MISUSE for a name
 * with a '/' that is not absolute. */
SBX_API int sbx_set_programs(sbx *h, const char *const *names);

/* ---- host tools (programmatic tool calling) ------------------------------------------
 *
 * Code in the sandbox runs `from host_tools import call, search`;
 * call(name, payload) reaches the callback registered here. The host checks the
 * payload against the tool's input schema and the result against its output
 * schema (JSON Schema: type, properties, required, additionalProperties, items,
 * enum, const, minimum/maximum, minLength/maxLength, minItems/maxItems, anyOf,
 * oneOf, allOf), applies the tool's timeout and records the call in the
 * history under the tool's name. The sandbox gets the result, or
 * RuntimeError("[kind] message") with kind permission_error (undeclared tool),
 * validation_error, timeout or internal_error (the callback failed).
 * search(query, detail="brief"|"full", limit=10) ranks the tools with BM25
 * over name (weight 3.5), description (1.5) and the schemas' text (0.35).
 */
typedef struct sbx_tool_def {
  const char *name;          /* 1..255 bytes: letters, digits, _ . - */
  const char *description;   /* free text, or NULL */
  const char *input_schema;  /* JSON Schema text, or NULL (anything) */
  const char *output_schema; /* JSON Schema text, or NULL (anything) */
  double timeout;            /* seconds; 0: 30 */
} sbx_tool_def;

/*
 * The host side of a tool. Called on a thread of the library while the
 * sandbox's call waits (so it may use `h`: run shell commands, read files, even
 * run Python: nested calls work). It returns 0 and sets *result_json to JSON
 * text, or non-zero and sets *error to a message; both strings are malloc'd by
 * the callback and freed by the library with free(). If the tool's timeout
 * passes first, the sandbox gets a timeout error and the late result is
 * dropped.
 */
typedef int (*sbx_tool_fn)(void *ud, sbx *h, const char *name, const char *args_json,
                           char **result_json, char **error);

/* Declares tools (adding to those declared before; a name declared again is
 * replaced). `fn` and `ud` serve all of them. Schemas are parsed here: invalid
 * JSON is SBX_MISUSE and nothing is declared. */
SBX_API int sbx_tools_register(sbx *h, const sbx_tool_def *defs, size_t n,
                               sbx_tool_fn fn, void *ud);
/* Forgets every declared tool. */
SBX_API int sbx_tools_clear(sbx *h);
/* Calls a tool as the sandbox would (the shell's `tool` command): validation,
 * timeout and history included. On SBX_OK *result_json is the result
 * (sbx_free); on SBX_ERROR sbx_errmsg() is "[kind] message". */
SBX_API int sbx_tool_call(sbx *h, const char *name, const char *args_json,
                          char **result_json);
/* The search of `host_tools.search` as JSON text (sbx_free): a list of
 * {"name", "description", "score"} (+ "input_schema", "output_schema" when
 * detail is "full"). */
SBX_API int sbx_tools_search(sbx *h, const char *query, const char *detail, int limit,
                             char **json);

/* ---- the jail check (`sbx doctor`) --------------------------------------------------- */

typedef struct sbx_probe_item {
  char *name;    /* the piece ("user namespaces", "FUSE in the jail", ...) */
  int ok;        /* 1 works, 0 missing (the jail cannot run), -1 partly or optional */
  char *detail;  /* what was found */
  char *fix;     /* for a missing piece: what to change; "" otherwise */
} sbx_probe_item;

/* Tries every step of the jail on this host, then runs Python in a real jail
 * over a temporary sandbox. *items is one block (sbx_free); *jail_ok is 1 when
 * Python calls can work here. */
SBX_API int sbx_probe(sbx_probe_item **items, size_t *n, int *jail_ok);

#ifdef __cplusplus
}
#endif
#endif
