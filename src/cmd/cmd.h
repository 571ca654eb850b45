/*
 * cmd.h - the interface between the shell and the commands of src/cmd/.
 *
 * A command is one C function `int cmd_NAME_main(cmd_ctx *ctx, int argc, char **argv)`
 * in its own file src/cmd/NAME.c, registered by a line at file scope:
 *
 *     CMD_DEFINE("sort", cmd_sort_main);
 *
 * scripts/gen-cmd-table.sh collects those lines into the sorted table that
 * cmd_find() searches; nothing else needs editing to add a command.
 *
 * The contract for a command:
 *  - It returns its exit status (0..255). It never calls exit(), abort(),
 *    printf() or any stdio on real fds, and never touches host files: every
 *    byte goes through the ctx (cmd_out*, cmd_err*, cmd_in*, ctx->store).
 *  - It frees everything it allocated before returning, or allocates from
 *    ctx->arena (cmd_alloc / cmd_strdup), which the caller frees after the call.
 *  - Long loops call cmd_poll(ctx) and return promptly (any status) when it is
 *    non-zero: the call was cancelled, timed out, or hit a limit. Writes to a
 *    closed pipe return -EPIPE: stop writing and return (status 141 like GNU
 *    under SIGPIPE, or 1; the shell reports it like bash).
 *  - Options are parsed with cmd_getopt (getopt_long semantics, reentrant,
 *    GNU argument permutation unless the option string starts with '+').
 *  - Error messages are GNU's exactly: cmd_perror(ctx, path, err) prints
 *    "NAME: PATH: strerror" and records errno and path for the C API
 *    (sbx_errno / sbx_errpath), so bindings can raise FileNotFoundError.
 *
 * The caller (the shell, or the standalone runner for tests) fills a cmd_ctx
 * and a cmd_io table: file descriptors 0, 1, 2 and any others are the caller's
 * (pipes, files in the store, /dev/null...), reached only through cmd_io.
 */
#ifndef SBX_CMD_H
#define SBX_CMD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "store/store.h"

typedef struct cmd_ctx cmd_ctx;
typedef struct cmd_arena cmd_arena;

/* One process of the sandbox, as ps(1) shows it (cmd_io.procs). */
typedef struct cmd_proc {
  int64_t pid, ppid;
  int64_t start;  /* when it started (wall clock, seconds) */
  char stat[4];   /* ps's STAT: "Ss" a shell, "S" a job, "R" the caller */
  char comm[16];  /* the program's name (/proc/PID/comm: 15 bytes at most) */
  char args[256]; /* its command line (cut at 255 bytes) */
} cmd_proc;

/* A deadline of timeout(1), given to cmd_io.run_until. */
typedef struct cmd_deadline {
  int64_t deadline_ns; /* when the signal is sent (CLOCK_MONOTONIC, ns) */
  int64_t kill_ns;     /* when KILL follows if the command still runs (0: never) */
  int sig;             /* the signal sent at deadline_ns (15: TERM) */
  bool expired;        /* out: deadline_ns passed while the command ran */
  bool killed;         /* out: the command was killed (d->sig KILL, or kill_ns passed) */
} cmd_deadline;

/* What the caller provides. `ud` is cmd_ctx.io_ud. All fd arguments are the
 * caller's descriptor numbers; all returns are >= 0 or a negative errno. */
typedef struct cmd_io {
  ssize_t (*read)(void *ud, int fd, void *buf, size_t n);       /* 0 = EOF */
  ssize_t (*write)(void *ud, int fd, const void *buf, size_t n); /* -EPIPE */
  /* open(2)-like: resolves /dev/null, /dev/stdin, /dev/fd/N, ... and store
   * paths relative to ctx->cwd, checking permissions. Returns a new fd. */
  int (*open)(void *ud, const char *path, int oflags, uint32_t mode);
  int (*close)(void *ud, int fd);
  int64_t (*lseek)(void *ud, int fd, int64_t off, int whence); /* -ESPIPE */
  /* Runs a command (a table command, `sh`/`bash`, or anything the shell can
   * run as a simple command) with the given stdin/stdout fds (-1: /dev/null
   * for stdin, the ctx's own fd 1 for stdout). Returns its exit status. */
  int (*run)(void *ud, int argc, char **argv, int in_fd, int out_fd);
  /* Starts `sh -c script` concurrently, connected by a pipe: mode "r" reads its
   * stdout, "w" writes its stdin. *fd gets our end; returns a handle >= 0 for
   * pclose, which closes the pipe, waits and returns the exit status. */
  int (*popen)(void *ud, const char *script, const char *mode, int *fd);
  int (*pclose)(void *ud, int handle);
  /* 0 to go on; non-zero when the call must stop (cancel, timeout, limit). */
  int (*poll)(void *ud);
  /* Shell variables (printf -v, read): NULL/negative when not supported. */
  const char *(*getvar)(void *ud, const char *name);
  int (*setvar)(void *ud, const char *name, const char *value);
  /* Like run, but the command gets `env` ("K=V", NULL-terminated) as its whole
   * environment and `cwd` (NULL: the caller's) as its directory: env(1),
   * env -C, timeout. NULL when the caller does not support it. */
  int (*run_env)(void *ud, int argc, char **argv, char *const *env, const char *cwd,
                 int in_fd, int out_fd);
  /* Like run_env, under the deadline *d (timeout(1)): when the monotonic
   * clock reaches d->deadline_ns, the command gets d->sig as a process of
   * timeout's group would: shell code (`bash -c`, loops, subshells) runs its
   * trap or dies of it, a command ends. If it still runs at d->kill_ns (when
   * not 0), or d->sig is KILL, it is killed. NULL when the caller cannot
   * bound what it runs. */
  int (*run_until)(void *ud, struct cmd_deadline *d, int argc, char **argv,
                   char *const *env, const char *cwd, int in_fd, int out_fd);
  /* fstat(2)-like: a store file's own stat; pipes and in-memory input are
   * S_IFIFO, /dev/null and /dev/zero S_IFCHR (ino 0). -EBADF when not open.
   * NULL when the caller does not support it (then a seekable fd is taken
   * for a regular file and any other for a pipe). */
  int (*fstat)(void *ud, int fd, store_stat *st);
  /* 1 when a read of fd returns at once or waits only for other tasks of the
   * caller (its own pipes); 0 when it would block the thread on a host fd
   * that has nothing yet (the CLI's terminal). NULL: always 1. A program run
   * in the jail feeds its stdin ahead of its reads and must not wait there. */
  int (*read_ready)(void *ud, int fd);
  /* ps(1): the caller's processes - its shell (and the subshell it runs in), the
   * stages of its running background jobs, and last the calling command itself
   * with a new pid. Fills up to max entries; returns how many there are. NULL:
   * the caller has no processes to show (a command run standalone). */
  int (*procs)(void *ud, cmd_proc *out, int max);
} cmd_io;

#define CMD_OUTBUF 65536

struct cmd_ctx {
  const char *name;      /* argv[0] as invoked (for messages) */
  const char *err_prefix; /* written before cmd_errorf's "NAME: " (a command run as a
                             shell builtin gets the shell's "sbx: line N: "), or NULL */
  store *store;          /* the sandbox filesystem (borrowed) */
  const char *cwd;       /* absolute current directory (borrowed) */
  char *const *env;      /* exported environment, "K=V", NULL-terminated */
  const cmd_io *io;      /* the caller's I/O table */
  void *io_ud;           /* its user data */
  cmd_arena *arena;      /* per-call allocations, freed by the caller */
  uint32_t umask;        /* file creation mask */
  uint64_t max_string;   /* largest string/line a command may build (bytes) */
  int64_t now;           /* wall clock at call start (seconds), for date etc. */
  struct sbx *sandbox;   /* the whole sandbox, for the commands that need more
                            than the store (python3, python, tool); NULL when
                            run standalone. The caller (the shell) holds the
                            sandbox's lock while the command runs. */
  const char *jail_path;  /* a host program run in the jail (src/cmd/host.c): its
                             path there; NULL for table commands */
  /* Set by a command that ends as if killed by this signal (timeout killing its
   * own process group): the shell reports it as bash reports such a death. */
  int killed_by;
  /* Set by cmd_perror / cmd_record_error: the last file error, for the C API. */
  int err_errno;
  char err_path[STORE_PATH_MAX];
  /* Buffered stdout (fd 1). cmd_flush writes it out; the caller flushes after
   * the command returns. out_err holds the first write error (-EPIPE...). */
  char *outbuf;
  size_t outlen;
  int out_err;
};

/* ---- the command table -------------------------------------------------------- */

typedef int (*cmd_main_fn)(cmd_ctx *ctx, int argc, char **argv);
typedef struct cmd_entry {
  const char *name;
  cmd_main_fn main;
} cmd_entry;

extern const cmd_entry cmd_table[];  /* sorted by name; ends with {0,0} */
extern const size_t cmd_table_len;

/* Registration marker read by scripts/gen-cmd-table.sh; declares the function. */
#define CMD_DEFINE(name, fn) int fn(cmd_ctx *ctx, int argc, char **argv)

/* The table entry for `name`, or NULL. */
const cmd_entry *cmd_find(const char *name);

/* Runs a command from the table with a ready ctx: sets ctx->name, sets up the
 * output buffer, calls main, flushes, and returns the exit status (127 with
 * "NAME: command not found" if absent). */
int cmd_invoke(cmd_ctx *ctx, int argc, char **argv);
/* The same with the command's main given (a host program: cmd_host_main). */
int cmd_invoke_main(cmd_ctx *ctx, cmd_main_fn main_fn, int argc, char **argv);

/* ---- option parsing (getopt_long, reentrant) ----------------------------------- */

typedef struct cmd_longopt {
  const char *name;  /* without the leading "--" */
  int has_arg;       /* 0 no, 1 required, 2 optional (--name=value only) */
  int val;           /* returned by cmd_getopt (use values >= 256 for long-only) */
} cmd_longopt;

typedef struct cmd_getopt_state {
  int ind;            /* next argv index to scan (starts at 1) */
  const char *arg;    /* the option's argument, or NULL */
  int opt;            /* the option character when '?' is returned */
  int pos;            /* position inside a cluster of short options */
  int first_nonopt, last_nonopt; /* permutation bookkeeping */
  int longindex;      /* index in longopts of the matched long option */
  /* Filled on the first call from the option string's long names (below). */
  const char *spec;          /* the option string they were read from */
  const char *shorts;        /* the short options alone */
  const cmd_longopt *longs;  /* its long names, then `longopts` */
  /* Every option seen, by cmd_getopt_all (and cmd_getopt): a bit per option
   * (cmd_opt_on), the last argument of each (cmd_opt_arg). */
  uint64_t seen[2];
  const char *args[128];
} cmd_getopt_state;

#define CMD_GETOPT_INIT {1, 0, 0, 0, 1, 1, -1, 0, 0, 0, {0, 0}, {0}}

/* Long-only options of an option string return CMD_OPT_LONG, CMD_OPT_LONG + 1,
 * ... in the order they are written: a command names them with an enum
 * starting at CMD_OPT_LONG, written in the same order. */
#define CMD_OPT_LONG 256

/*
 * The option string (toybox's, with getopt's letters): each short option is a
 * character, then ':' when it takes an argument ("-n 5", "-n5") or '::' when
 * the argument is optional (attached only), then its long names in
 * parentheses, which take the argument as the short option does:
 *
 *     "c:(bytes)n:(lines)q(quiet)(silent)v(verbose)z(zero-terminated)"
 *
 * Long-only options come first, each a name in parentheses with its ':' or
 * '::' after it, and return CMD_OPT_LONG + k (the k-th of them); "(help)" and
 * "(version)" there return CMD_OPT_HELP and CMD_OPT_VERSION instead (and an
 * ambiguous prefix lists them last, as GNU's tables do):
 *
 *     "(presume-input-pipe)(help)(version)c:(bytes)..."
 *
 * A leading '+' stops at the first operand (POSIX), a ':' after it makes
 * cmd_getopt quiet (see below). A `longopts` table may add long names the
 * string cannot say (a long option whose argument differs from its letter's).
 *
 * Like getopt_long(3) with the GNU rules: argv is permuted so that operands
 * end up after the options (unless `shortopts` starts with '+'); "--" ends the
 * options; long options may be abbreviated when unambiguous; "--name=value".
 * Returns the option value, -1 at the end (operands are argv[st->ind..]), or
 * '?' after printing GNU's message ("NAME: invalid option -- 'x'" / "NAME:
 * unrecognized option '--foo'" / "NAME: option requires an argument -- 'n'")
 * followed by "Try 'NAME --help' for more information.". A shortopts starting
 * with ':' (after an optional '+') suppresses messages and returns ':' for a
 * missing argument. `longopts` may be NULL; it ends with a {0} entry. Each
 * option returned is also recorded in st->seen and st->args.
 */
int cmd_getopt(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
               const char *shortopts, const cmd_longopt *longopts);
/* The entry of `longopts` (may be NULL) that a long option names, matched as
 * cmd_getopt matches it: `name` is the argument after "--", `len` its length up
 * to any '='; an exact name wins, else a unique prefix, where prefixes of
 * aliases (same val and has_arg) count as one. Returns its index, -1 when no
 * name matches, -2 when the prefix is ambiguous. */
int cmd_longopt_find(const cmd_longopt *longopts, const char *name, size_t len);
/* getopt_long's message for an ambiguous `full` ("--pre" or "--pre=value"; its
 * name is `len` bytes): "NAME: option '--pre' is ambiguous; possibilities:
 * '--prefix' '--preserve'" on stderr, after flushing stdout. */
void cmd_longopt_ambiguous(cmd_ctx *ctx, const cmd_longopt *longopts, const char *full,
                           size_t len);

/* The slot of an option in cmd_getopt_state.seen/args: 0-61 for the letters and
 * digits, 64 + k for the k-th long-only option (CMD_OPT_LONG + k); -1 for none. */
static inline int cmd_opt_slot(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return 10 + c - 'A';
  if (c >= 'a' && c <= 'z') return 36 + c - 'a';
  if (c >= CMD_OPT_LONG && c < CMD_OPT_LONG + 64) return 64 + c - CMD_OPT_LONG;
  return -1;
}
/* Whether option c (a letter, digit or CMD_OPT_LONG + k) was given. */
static inline bool cmd_opt_on(const cmd_getopt_state *st, int c) {
  int k = cmd_opt_slot(c);
  return k >= 0 && (st->seen[k >> 6] >> (k & 63) & 1);
}
/* The last argument given to option c, or NULL. */
static inline const char *cmd_opt_arg(const cmd_getopt_state *st, int c) {
  int k = cmd_opt_slot(c);
  return k >= 0 ? st->args[k] : NULL;
}

/*
 * The whole option loop of a command whose options are independent flags and
 * arguments (the last of a repeated option counts): reads every option into
 * st (cmd_opt_on, cmd_opt_arg; operands are argv[st->ind..]), prints `usage`
 * for --help and the version for --version. Returns -1 when the command goes
 * on, else the status to return at once: 0 after --help or --version, 1 after
 * a bad option (cmd_getopt printed the message).
 */
int cmd_getopt_all(cmd_ctx *ctx, cmd_getopt_state *st, int argc, char **argv,
                   const char *spec, const char *usage);

/* ---- output ---------------------------------------------------------------------- */

/* Buffered writes to stdout. Return 0 or a negative errno (then stop). */
int cmd_out(cmd_ctx *ctx, const void *buf, size_t n);
int cmd_outs(cmd_ctx *ctx, const char *s);
int cmd_outc(cmd_ctx *ctx, int c);
int cmd_outf(cmd_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int cmd_flush(cmd_ctx *ctx);
/* Unbuffered write to any fd (stdout is flushed first when fd is 1). */
int cmd_write_fd(cmd_ctx *ctx, int fd, const void *buf, size_t n);

/* stderr: "NAME: " + message + "\n" (flushes stdout first). */
void cmd_errorf(cmd_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* stderr without the "NAME: " prefix and without a newline. */
void cmd_err_raw(cmd_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "NAME: PATH: strerror(err)"; records err/path; returns 1. err may be negative. */
int cmd_perror(cmd_ctx *ctx, const char *path, int err);
/* Records a file error for the C API without printing. */
void cmd_record_error(cmd_ctx *ctx, int err, const char *path);
/* The C escape ("\\n") of the controls \a \b \f \n \r \t \v as GNU's
 * quoting and dumps print them; NULL for every other byte. */
static inline const char *cmd_c_escape(unsigned c) {
  switch (c) {
  case '\a': return "\\a";
  case '\b': return "\\b";
  case '\f': return "\\f";
  case '\n': return "\\n";
  case '\r': return "\\r";
  case '\t': return "\\t";
  case '\v': return "\\v";
  }
  return NULL;
}

/* The other way: the byte of the letter after a backslash for those seven
 * (a b f n r t v), -1 for every other letter. Escape decoders (printf, tr)
 * handle their own extras around it. */
static inline int cmd_c_unescape(int letter) {
  static const char letters[] = "abfnrtv", bytes[] = "\a\b\f\n\r\t\v";
  for (int i = 0; letters[i]; i++)
    if (letters[i] == letter) return (unsigned char)bytes[i];
  return -1;
}

/* --version: "NAME (sbx) 1.0" (basename of ctx->name); returns 0. */
int cmd_print_version(cmd_ctx *ctx);
/* --help: prints `usage` to stdout; returns 0. */
int cmd_print_help(cmd_ctx *ctx, const char *usage);
/* The values cmd_getopt returns for --help and --version (above every
 * character and every command's own long-only values). */
#define CMD_OPT_HELP 0x10000
#define CMD_OPT_VERSION 0x10001
#define CMD_LONGOPTS_STD {"help", 0, CMD_OPT_HELP}, {"version", 0, CMD_OPT_VERSION}
/* The two cases every option switch has (coreutils' case_GETOPT_HELP_CHAR and
 * case_GETOPT_VERSION_CHAR): `CMD_CASES_HELP_VERSION(ctx, usage);`. */
#define CMD_CASES_HELP_VERSION(ctx, usage)             \
  case CMD_OPT_HELP: return cmd_print_help(ctx, usage); \
  case CMD_OPT_VERSION: return cmd_print_version(ctx)
/* The last two lines of a GNU --help text (coreutils' HELP_OPTION_DESCRIPTION
 * and VERSION_OPTION_DESCRIPTION), to end a usage string literal. */
#define CMD_HELP_VERSION_LINES                         \
  "      --help        display this help and exit\n" \
  "      --version     output version information and exit\n"
/* "Try 'NAME --help' for more information." and returns `status`. */
int cmd_usage_hint(cmd_ctx *ctx, int status);
/* strerror text as GNU prints it (no locale), for negative or positive err. */
const char *cmd_strerror(int err);
/* GNU's quoting for messages under C.UTF-8 ('name', with shell escapes when
 * needed, as quotearg's shell-escape style). Result in the arena. */
const char *cmd_quote(cmd_ctx *ctx, const char *s);

/* ---- input ----------------------------------------------------------------------- */

/* The FILE operands argv[ind..argc), or the one operand "-" (stdin) when
 * there are none; *nfiles gets how many. */
char **cmd_file_operands(int argc, char **argv, int ind, int *nfiles);

typedef struct cmd_in cmd_in;

/* Opens a file for reading ("-" means stdin, fd 0, not closed by cmd_in_close).
 * Returns 0 or a negative errno; prints nothing. */
int cmd_in_open(cmd_ctx *ctx, const char *path, cmd_in **out);
/* Wraps an already open fd (not closed by cmd_in_close). */
cmd_in *cmd_in_fd(cmd_ctx *ctx, int fd);
/* Reads up to and including `delim` ('\n', or '\0' for -z). *line points into
 * the reader's buffer (valid until the next call) and is NUL-terminated after
 * the returned length. Returns the length (including delim when present), 0
 * at EOF, or a negative errno (-EFBIG when a line exceeds ctx->max_string). */
ssize_t cmd_in_getdelim(cmd_in *in, char **line, int delim);
/* Raw reads through the buffer. */
ssize_t cmd_in_read(cmd_in *in, void *buf, size_t n);
/* Reads everything (up to ctx->max_string) into a malloc'd buffer. */
int cmd_in_slurp(cmd_in *in, char **data, size_t *len);
void cmd_in_close(cmd_in *in);

/* ---- allocation (per-call arena) ---------------------------------------------------- */

void *cmd_alloc(cmd_ctx *ctx, size_t n);          /* zeroed; NULL on OOM */
char *cmd_strdup(cmd_ctx *ctx, const char *s);
cmd_arena *cmd_arena_new(void);
void cmd_arena_free(cmd_arena *a);

/* ---- misc -------------------------------------------------------------------------- */

static inline int cmd_poll(cmd_ctx *ctx) {
  return ctx->io && ctx->io->poll ? ctx->io->poll(ctx->io_ud) : 0;
}
/* getenv over ctx->env. */
const char *cmd_getenv(cmd_ctx *ctx, const char *name);
/* dir + "/" + name without doubling a slash ("a/" + "b" = "a/b", "/" + "b" =
 * "/b"). Arena string; NULL when memory runs out. */
char *cmd_join_path(cmd_ctx *ctx, const char *dir, const char *name);
/* Joins cwd and a relative path into an absolute one (arena; no resolution;
 * path itself when memory runs out). */
const char *cmd_abspath(cmd_ctx *ctx, const char *path);

/* ---- a standalone runner (tests, `sbx run`, fuzzers) ------------------------------ */

/* Runs one command over `store` with stdin from a buffer, capturing stdout and
 * stderr into malloc'd buffers (caller frees). Files open through the store;
 * /dev/null, /dev/stdin, /dev/stdout, /dev/stderr are understood. run() runs
 * table commands directly. */
typedef struct cmd_standalone_result {
  int status;
  char *out; size_t outlen;
  char *err; size_t errlen;
  int err_errno;
  char err_path[STORE_PATH_MAX];
} cmd_standalone_result;

int cmd_run_standalone(store *s, const char *cwd, int argc, char **argv,
                       const void *in, size_t inlen, cmd_standalone_result *res);

#endif
