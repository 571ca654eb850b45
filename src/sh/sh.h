/*
 * sh.h - the shell's runtime: a session (one per sandbox handle), the state of
 * one shell (copied for subshells and pipeline stages: there is no fork), and
 * the functions the executor, expansion and the builtins share.
 *
 * Concurrency model (see sched.c): pipeline stages and background jobs are
 * tasks, each a thread, but only the task holding the session's baton runs, and
 * the baton passes only when a task blocks (empty or full pipe, wait) or ends.
 * So the store, the session and every shell state are touched by one thread at
 * a time, and the interleaving - hence the output - is the same on every run.
 *
 * Errors: functions that can fail print bash's message on the shell's stderr
 * and return a non-zero status. Unwinding (break, continue, return, exit, a
 * limit, a fatal expansion error) is a flag in sh_shell.flow that every loop of
 * the executor checks after each command.
 */
#ifndef SBX_SH_SH_H
#define SBX_SH_SH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sh/ast.h"
#include "sh/util.h"
#include "store/store.h"

typedef struct sh_session sh_session;
typedef struct sh_shell sh_shell;
typedef struct sh_task sh_task;
typedef struct sh_file sh_file;
typedef struct sh_vars sh_vars;
typedef struct sh_var sh_var;
typedef struct sh_arith_cache sh_arith_cache;

/* ---- limits ------------------------------------------------------------------ */

typedef enum sh_limit_kind {
  SH_LIMIT_NONE,
  SH_LIMIT_LOOP,        /* loop_iterations */
  SH_LIMIT_COMMANDS,    /* command_count */
  SH_LIMIT_DEPTH,       /* function_depth */
  SH_LIMIT_OUTPUT,      /* output_bytes */
  SH_LIMIT_STRING,      /* string_size */
  SH_LIMIT_ARRAY,       /* array_size */
  SH_LIMIT_TIMEOUT,     /* timeout */
  SH_LIMIT_CANCEL,      /* cancelled */
  SH_LIMIT_JOBS,        /* concurrent_tasks */
  SH_LIMIT_NESTING,     /* parse/expansion nesting (parse_depth) */
  SH_LIMIT_BG_JOBS,     /* bg_jobs: background jobs alive at once */
  SH_LIMIT_BG_LIFETIME, /* bg_lifetime: a detached job's wall clock */
  SH_LIMIT_BG_CPU,      /* bg_cpu: a detached job's CPU time */
} sh_limit_kind;

typedef struct sh_limits {
  uint64_t loop_iterations; /* iterations of one loop */
  uint64_t commands;        /* commands in one call */
  uint64_t function_depth;  /* nested function calls (also eval/source depth) */
  uint64_t output_bytes;    /* stdout + stderr of one call */
  uint64_t string_size;     /* one string (variable value, word, line) */
  uint64_t array_size;      /* elements of one array */
  uint64_t timeout_ms;      /* wall clock of one call (0 = none) */
  uint64_t tasks;           /* concurrent pipeline stages and jobs */
  uint64_t nesting;         /* parser / expansion nesting depth */
  uint64_t bg_jobs;         /* background jobs alive at once (when jobs outlive calls) */
  uint64_t bg_lifetime_ms;  /* wall clock of one background job after its call */
  uint64_t bg_cpu_ms;       /* CPU time of one background job's task after its call */
} sh_limits;

/* Output of background jobs that no call has shown yet, kept per session. */
#define SH_BG_OUTPUT_MAX (1u << 20)

extern const sh_limits sh_limits_strict, sh_limits_normal, sh_limits_permissive;
const char *sh_limit_name(sh_limit_kind k);

/* ---- options ------------------------------------------------------------------- */

typedef enum sh_opt {
  /* set -o */
  SH_OPT_ALLEXPORT, SH_OPT_BRACEEXPAND, SH_OPT_ERREXIT, SH_OPT_ERRTRACE, SH_OPT_FUNCTRACE,
  SH_OPT_HASHALL, SH_OPT_HISTEXPAND, SH_OPT_IGNOREEOF, SH_OPT_KEYWORD, SH_OPT_MONITOR,
  SH_OPT_NOCLOBBER, SH_OPT_NOEXEC, SH_OPT_NOGLOB, SH_OPT_NOLOG, SH_OPT_NOTIFY,
  SH_OPT_NOUNSET, SH_OPT_ONECMD, SH_OPT_PHYSICAL, SH_OPT_PIPEFAIL, SH_OPT_POSIX,
  SH_OPT_PRIVILEGED, SH_OPT_VERBOSE, SH_OPT_XTRACE, SH_OPT_EMACS, SH_OPT_VI,
  SH_OPT_HISTORY, SH_OPT_INTERACTIVE_COMMENTS,
  SH_SET_COUNT,
  /* shopt */
  SH_SHOPT_FIRST = SH_SET_COUNT,
  SH_SHOPT_AUTOCD = SH_SHOPT_FIRST, SH_SHOPT_ASSOC_EXPAND_ONCE, SH_SHOPT_CDABLE_VARS,
  SH_SHOPT_CDSPELL, SH_SHOPT_CHECKHASH, SH_SHOPT_CHECKJOBS, SH_SHOPT_CHECKWINSIZE,
  SH_SHOPT_CMDHIST, SH_SHOPT_COMPAT, SH_SHOPT_COMPAT32, SH_SHOPT_COMPAT40,
  SH_SHOPT_COMPAT41, SH_SHOPT_COMPAT42, SH_SHOPT_COMPAT43, SH_SHOPT_COMPAT44,
  SH_SHOPT_COMPLETE_FULLQUOTE, SH_SHOPT_DIREXPAND, SH_SHOPT_DIRSPELL, SH_SHOPT_DOTGLOB,
  SH_SHOPT_EXECFAIL, SH_SHOPT_EXPAND_ALIASES, SH_SHOPT_EXTDEBUG, SH_SHOPT_EXTGLOB,
  SH_SHOPT_EXTQUOTE, SH_SHOPT_FAILGLOB, SH_SHOPT_FORCE_FIGNORE, SH_SHOPT_GLOBASCII,
  SH_SHOPT_GLOBSKIPDOTS, SH_SHOPT_GLOBSTAR, SH_SHOPT_GNU_ERRFMT, SH_SHOPT_HISTAPPEND,
  SH_SHOPT_HISTREEDIT, SH_SHOPT_HISTVERIFY, SH_SHOPT_HOSTCOMPLETE, SH_SHOPT_HUPONEXIT,
  SH_SHOPT_INHERIT_ERREXIT, SH_SHOPT_INTERACTIVE_COMMENTS, SH_SHOPT_LASTPIPE,
  SH_SHOPT_LITHIST, SH_SHOPT_LOCALVAR_INHERIT, SH_SHOPT_LOCALVAR_UNSET,
  SH_SHOPT_LOGIN_SHELL, SH_SHOPT_MAILWARN, SH_SHOPT_NO_EMPTY_CMD_COMPLETION,
  SH_SHOPT_NOCASEGLOB, SH_SHOPT_NOCASEMATCH, SH_SHOPT_NOEXPAND_TRANSLATION,
  SH_SHOPT_NULLGLOB, SH_SHOPT_PATSUB_REPLACEMENT, SH_SHOPT_PROGCOMP,
  SH_SHOPT_PROGCOMP_ALIAS, SH_SHOPT_PROMPTVARS, SH_SHOPT_RESTRICTED_SHELL,
  SH_SHOPT_SHIFT_VERBOSE, SH_SHOPT_SOURCEPATH, SH_SHOPT_VARREDIR_CLOSE, SH_SHOPT_XPG_ECHO,
  SH_OPT_COUNT
} sh_opt;

typedef struct sh_optinfo {
  const char *name; /* long name */
  char letter;      /* set -X letter or 0 */
} sh_optinfo;
extern const sh_optinfo sh_optinfo_table[SH_OPT_COUNT];
int sh_opt_find(const char *name, bool shopt); /* index or -1 */

/* ---- files and the fd table ------------------------------------------------------ */

typedef enum sh_file_kind {
  SH_F_NULL,    /* /dev/null */
  SH_F_ZERO,    /* /dev/zero */
  SH_F_STORE,   /* a regular file in the store */
  SH_F_DIR,     /* a directory opened for reading (reads fail with EISDIR) */
  SH_F_PIPE_R,  /* read end of a pipe */
  SH_F_PIPE_W,  /* write end of a pipe */
  SH_F_MEM,     /* read-only bytes in memory (here-docs, here-strings, input) */
  SH_F_SINK,    /* the call's stdout/stderr: a callback */
  SH_F_HOSTIN,  /* the host's stdin (CLI test mode only) */
} sh_file_kind;

typedef struct sh_pipe sh_pipe;

typedef ssize_t (*sh_sink_fn)(void *ud, const void *buf, size_t n);

struct sh_file {
  sh_file_kind kind;
  int refs;            /* fd table slots referring to this description */
  int oflags;          /* O_RDONLY / O_WRONLY / O_RDWR | O_APPEND */
  store_ino ino;       /* SH_F_STORE */
  uint64_t off;        /* SH_F_STORE offset; SH_F_MEM position */
  char *path;          /* SH_F_STORE / SH_F_DIR: absolute path (for /proc/self/fd) */
  sh_pipe *pipe;       /* SH_F_PIPE_* */
  char *mem;           /* SH_F_MEM bytes (owned) */
  size_t memlen;
  sh_sink_fn sink;     /* SH_F_SINK */
  void *sink_ud;
  int hostfd;          /* SH_F_HOSTIN */
  bool capture;        /* SH_F_SINK of a command substitution: not call output */
};

#define SH_FD_MAX 1024 /* fd numbers 0..SH_FD_MAX-1 */

/* ulimit resources the shell enforces (indices into sh_shell.rlim_*) */
#define SH_RLIM_COUNT 17
#define SH_RLIM_FSIZE 4
#define SH_RLIM_NOFILE 8

typedef struct sh_fdtab {
  sh_file **f;   /* f[i] or NULL (closed) */
  int n;         /* slots allocated */
  uint8_t *cloexec; /* per slot: closed for commands (fds of {var} redirections) */
} sh_fdtab;

/* ---- functions, aliases, traps --------------------------------------------------- */

typedef struct sh_func {
  char *name;
  sh_funcdef *def;     /* the definition node (its arena is referenced) */
  sh_arena *arena;     /* reference kept while defined */
  int refs;            /* shells sharing this entry */
  uint32_t attrs;      /* exported (-fx), readonly (-fr), trace (-ft) */
} sh_func;

typedef struct sh_kv {
  char *key;
  void *val;
} sh_kv;

/* A small string-keyed hash map (functions, aliases). */
typedef struct sh_map {
  sh_kv *e;      /* open addressing slots */
  size_t cap;    /* power of two */
  size_t n;      /* used */
} sh_map;

#define SH_NSIG 65
typedef struct sh_traps {
  char *action[SH_NSIG + 4]; /* by signal number; EXIT=0, then DEBUG, ERR, RETURN */
} sh_traps;
#define SH_TRAP_EXIT 0
#define SH_TRAP_DEBUG (SH_NSIG + 0)
#define SH_TRAP_ERR (SH_NSIG + 1)
#define SH_TRAP_RETURN (SH_NSIG + 2)

/* ---- jobs ---------------------------------------------------------------------------- */

typedef struct sh_job {
  int id;              /* job number (%1); 0 for a hidden entry */
  int64_t pid;         /* $! value: the pid of the last stage */
  sh_task **tasks;     /* the job's tasks (one for a background job, whatever its shape) */
  int ntasks;
  char **texts;        /* the command text of each pipeline stage as bash prints it (owned,
                        * at most SH_JOB_TEXT_MAX bytes in all); NULL: not a job - a process
                        * substitution or a disowned job, waited for but never listed */
  int64_t *pids;       /* the fake pid of each stage (jobs -l; pids[0] for jobs -p) */
  int ntexts;          /* stages in texts and pids */
  char *wd;            /* the directory it started in ("(wd: ...)" when it differs) */
  bool done;           /* waited for */
  bool notified;       /* its end was reported, or needs no report (bash's J_NOTIFIED) */
  bool foreign;        /* a parent's job seen from a subshell: listed, not waited for */
  int status;          /* exit status when done */
  int64_t started;     /* wall clock when it started (ps's STIME) */
} sh_job;

#define SH_JOB_TEXT_MAX 4096 /* bytes of a job's command text */
#define SH_BGSTATUS_MAX 256  /* statuses of removed jobs kept for `wait PID` */
#define SH_JOBS_DEAD_MAX 256 /* ended jobs kept until reported; older ones go silently */

/* The status of a background job that was removed from the table (bash's
 * bgpids): `wait PID` still reports it. */
typedef struct sh_bgstatus {
  int64_t pid;
  int status;
} sh_bgstatus;

/* ---- the shell state ------------------------------------------------------------------ */

typedef enum sh_flow {
  SH_FLOW_NONE,
  SH_FLOW_BREAK,
  SH_FLOW_CONTINUE,
  SH_FLOW_RETURN,
  SH_FLOW_EXIT,        /* exit builtin, set -e, fatal expansion error */
  SH_FLOW_ABORT,       /* a limit or cancel: unwinds everything */
} sh_flow;

typedef struct sh_frame_info {
  const char *funcname; /* FUNCNAME entry */
  const char *source;   /* BASH_SOURCE entry */
  bool file;            /* source names a file (a script, a sourced file, the file that
                         * defined the function): messages start with it */
  bool *saved_opts;     /* `local -' in this function: the set -o options to restore when
                         * it returns (SH_SET_COUNT entries, malloc'd), or NULL */
  int call_line;        /* BASH_LINENO entry */
} sh_frame_info;

#define SH_CALLSTACK_MAX 4096

/* The deadline of the innermost `timeout` (cmd_io.run_until) around a shell's
 * code. Copies of the shell (subshells, pipeline stages, nested `bash`)
 * inherit it: they are the processes of timeout's group, and each gets the
 * signal at its next poll past deadline_ns (its trap runs, or it dies of it),
 * then is killed (flow ABORT back to the timeout) at kill_ns. The shell that
 * ran the timeout (waiter) is not signalled: a program it runs meanwhile ends. */
typedef struct sh_timeout {
  int64_t deadline_ns; /* when the signal comes (monotonic, 0: no timeout) */
  int64_t kill_ns;     /* when KILL follows (0: never) */
  int sig;             /* the signal (KILL: killed at deadline_ns) */
  bool signalled;      /* this shell got the signal (a copy made later does not) */
  bool waiter;         /* this shell ran the timeout: its own code is not timed */
} sh_timeout;

struct sh_shell {
  sh_session *sess;       /* shared session (borrowed) */
  sh_task *task;          /* the task running this shell */
  sh_vars *vars;          /* variables (owned) */
  sh_map funcs;           /* name -> sh_func* (entries shared, refcounted) */
  sh_map aliases;         /* name -> char* value */
  sh_map hashed;          /* name -> sh_hashent* (the `hash` table of PATH lookups) */
  sh_map compspecs;       /* command -> completion spec (builtins_complete.c) */
  sh_strv compnames;      /* the commands with a spec, in the order they got one */
  bool opt[SH_OPT_COUNT]; /* set -o and shopt options */
  sh_traps traps;         /* trap actions (owned strings) */
  char *cwd;              /* absolute current directory (owned) */
  char *const *env_override; /* cmd_io.run_env: the environment of the next
                             * table command only (borrowed), else NULL */
  char *const *child_env;    /* the same environment while `sh`/`bash` runs as
                             * that command: the new shell's exports (borrowed) */
  sh_strv params;         /* positional parameters $1.. */
  char *arg0;             /* $0 */
  sh_fdtab fds;           /* open files */
  int status;             /* $? */
  int64_t last_bg;        /* $! (0: none) */
  int64_t pid;            /* BASHPID of this shell */
  int64_t dollar_pid;     /* $$: the shell process's pid (a subshell keeps its parent's;
                           * a nested `bash` has its own, as bash) */
  sh_job **jobs;          /* background jobs started by this shell */
  int njobs;
  int job_cur, job_prev;  /* the jobs %+ and %- stand for (ids; 0: none) */
  sh_bgstatus *bgstatus;  /* statuses of removed jobs, a ring of SH_BGSTATUS_MAX (owned) */
  int nbgstatus;          /* entries written so far (the ring wraps) */
  int64_t parent_pid;     /* pid of the shell this one was copied from (0: none): kill %N
                           * reaches every shell of the job */
  sh_flow flow;           /* unwinding in progress */
  int flow_n;             /* levels for break/continue */
  int exit_status;        /* status for SH_FLOW_EXIT / ABORT */
  int fn_depth;           /* function call depth */
  int loop_depth;         /* enclosing loops (for break/continue) */
  int subshell;           /* BASH_SUBSHELL */
  int eval_depth;         /* eval/source nesting */
  int lineno;             /* LINENO */
  int errexit_off;        /* > 0: inside a condition, set -e does not apply */
  const void *inverted_cmd; /* the simple command right under `!` (an sh_node, borrowed):
                           * its own failure runs no ERR trap; or NULL */
  bool in_trap;           /* running a trap action */
  bool interactive;       /* the interactive CLI prompt */
  int *pipestatus;        /* PIPESTATUS of the last pipeline */
  int npipestatus;
  uint32_t umask;
  sh_strv dirstack;       /* pushd/popd stack (without the cwd) */
  sh_frame_info *frames;  /* call stack, frames[0] = main */
  int nframes, capframes;
  bool script_frame;      /* frames[0] shows in FUNCNAME/BASH_SOURCE/BASH_LINENO: a
                           * script file runs (bash adds no "main" for -c or stdin) */
  const char *source_name;/* current script name for BASH_SOURCE */
  int getopts_pos;        /* position inside a cluster for getopts */
  int64_t random_state;   /* RANDOM generator */
  int64_t seconds_base;   /* SECONDS offset (ns monotonic at assignment) */
  int64_t seconds_value;
  int last_cmd_line;      /* line of the last simple command (for messages) */
  char *last_arg;         /* $_ */
  int local_scope;        /* variable scope level (function depth of locals) */
  int func_scope;         /* the scope level of the innermost function call (0: none);
                           * above it: temporary scopes of prefix assignments */
  uint64_t cmd_counter;   /* commands run by this shell (for DEBUG trap etc.) */
  int cmdnum;             /* top-level commands read so far (the prompt's \#) */
  uint64_t nsubst;        /* command substitutions run (the status of x=$(cmd)) */
  int xtrace_level;       /* command substitution / eval / source nesting: PS4's first
                           * character repeats once more per level */
  bool errexit_pending;   /* set -e fired: exit after the current command */
  bool is_subshell;       /* a copy (subshell, stage, job): exit ends only it */
  bool dash_c;            /* started with -c ($- shows c instead of s) */
  bool read_stdin;        /* a nested shell reading commands from stdin ($- shows s) */
  int fatal;              /* the SH_FLOW_EXIT in progress is an error, not `exit`:
                           * SH_FATAL_DISCARD or SH_FATAL_EXIT (see sh_fatal) */
  struct sh_history *hist;/* command history (owned; NULL until first used) */
  int pending_sig;        /* a signal sent to this shell's pid by kill, handled at its
                           * next poll */
  sh_shell *live_prev, *live_next; /* the session's list of live shells (kill by pid) */
  sh_traps shown_traps;   /* a subshell's inherited traps: not active, but `trap`
                           * lists them until the subshell sets one (bash) */
  int killed_by;          /* the signal that is ending this shell, or 0 */
  bool bytes_locale;       /* LC_ALL/LC_CTYPE/LANG say C or POSIX (see sh_locale_bytes) */
  bool sleeping;          /* running the sleep command: polls yield the baton */
  bool job_limit_reported;/* a detached job's limit message was written */
  bool loan_command;      /* running python3, python or tool: the command lends the
                           * sandbox (src/py/py_loan.c); a detached job keeps its slice */
  int64_t sleep_until_ns; /* when that sleep ends, if its operands said (monotonic), else 0:
                           * a detached job naps until then off the baton */
  sh_timeout timeout;     /* the innermost `timeout` running this shell's code */
  int cmd_killed_by;      /* a command this shell runs was ended by that timeout's
                           * signal (reported after it, then the shell gets it) */
  int cmd_died_of;        /* the command this shell ran ended as killed by this
                           * signal (timeout killing its group): reported after it */
  bool in_command;        /* a table command or host program is running in this shell */
  uint64_t rlim_soft[17], rlim_hard[17]; /* ulimit (builtins_ulimit.c) */
  bool table_builtin;      /* a table command runs as a builtin (printf): its messages
                           * get the shell's "NAME: line N: " in front (cmd_ctx.err_prefix) */
  const char *exec_argv0;  /* exec -a NAME for the command being run (borrowed), or NULL */
  int trap_active;        /* DEBUG (1), ERR (2), RETURN (4) trap running: not re-entered */
  int status_at_return;   /* $? when `return` ran: what a RETURN trap sees as $? (bash) */
  bool pipeline_stage;    /* a pipeline stage before the last: a subshell killed by a signal
                           * here is not reported (bash reports the pipeline's status) */
  bool stage_command;     /* a pipeline stage that is a simple command: a command of it
                           * killed by a signal is not reported (bash reports pipelines
                           * by their status) */
  const char *arith_context; /* "let" or "[[" while they evaluate: named in arithmetic
                           * error messages ("let: 1/0: division by 0 ..."), or NULL */
  uint64_t builtins_off[2]; /* enable -n: bit i set = sh_builtin_table[i] is disabled */
  sh_buf command_text;    /* BASH_COMMAND: the simple command, (( )) or [[ ]] running or
                           * about to run; kept only once sess->note_commands is set */
  bool debug_done;        /* the DEBUG trap of the next simple command already ran
                           * (in the parent of a pipeline stage) */
  bool err_skip_once;     /* the next failure does not run the ERR trap (async command) */
  uint64_t sig_ignored;   /* signals ignored at entry (bit n = signal n): a background
                           * job ignores INT and QUIT; they cannot be trapped */
  sh_strv tmpfiles;       /* nothing yet: reserved */
  int hist_dummy;
  sh_arith_cache *arith_cache; /* recorded arithmetic texts (owned, arith.c), NULL
                                * until the first; a copy starts without */
};

/* ---- the session ----------------------------------------------------------------------- */

typedef struct sh_sched sh_sched;

/* Where a call's output goes. */
typedef struct sh_output {
  sh_sink_fn write;  /* receives stdout (fd 1) bytes */
  void *ud;
} sh_output;

/* A key binding made by bind (builtins_bind.c). */
#define SH_BIND_MAX 256
typedef struct sh_binding {
  int keymap;              /* 0 emacs, 1 vi */
  bool command;            /* bind -x: value is a shell command, else a readline function */
  char *keys;              /* the key sequence as written ("\\C-o") (owned) */
  char *value;             /* the function or command (owned) */
} sh_binding;

struct sh_session {
  store *st;               /* the sandbox filesystem (borrowed) */
  sh_binding *binds;       /* bind's key bindings (owned), nbinds used of capbinds */
  size_t nbinds, capbinds;
  struct sbx *sandbox;     /* the handle, for python3/tool (cmd_ctx.sandbox); may be NULL */
  sh_limits limits;        /* in force */
  atomic_int cancel;       /* set by sbx_cancel from any thread */
  int64_t deadline_ns;     /* monotonic deadline of the call (0 = none) */
  int64_t call_start_ns;   /* when the call began */
  uint64_t ncommands;      /* commands run in this call */
  uint64_t out_bytes;      /* output bytes of this call */
  sh_limit_kind limit_hit; /* the limit that stopped the call */
  uint64_t limit_value;    /* its value */
  sh_sink_fn limit_sink;   /* where the limit message goes during a call (the call's stderr) */
  void *limit_sink_ud;     /* its user data */
  sh_sched *sched;         /* the run-one-at-a-time scheduler */
  sh_shell *root;          /* the persistent shell state */
  int err_errno;           /* file error of the last failing command */
  char err_path[STORE_PATH_MAX];
  int64_t next_pid;        /* fake pids for $$, $!, BASHPID */
  int64_t shell_pid;       /* $$ */
  bool test_mode;          /* `sbx sh`: conformance helpers, host REPO_ROOT */
  const char *sh_name;     /* $0 / message prefix ("sbx") */
  int ntasks;              /* live tasks (limit) */
  uint64_t poll_count;     /* for cheap clock checks */
  int64_t start_epoch;     /* for SECONDS and RANDOM seeding */
  sh_shell *live;          /* every live shell state (root, nested shells, copies) */
  sh_flow last_flow;       /* how the last call ended (SH_FLOW_EXIT: `exit` ran) */
  bool note_commands;      /* some script text named BASH_COMMAND: from then on commands
                            * record their text (sh_note_command); else nothing is spent */
  /* Jobs between calls (session.c): */
  bool jobs_outlive;       /* background jobs keep running after their call (sbx_bash);
                            * false: the call waits for them at its end (bash -c) */
  bool in_call;            /* a call is running: its deadline and cancel are live */
  sh_buf bg_out, bg_err;   /* what detached jobs wrote to their call's stdout/stderr and
                            * no call has shown yet (SH_BG_OUTPUT_MAX each) */
  uint64_t bg_dropped;     /* bytes of it dropped at the cap */
  atomic_int jobs_stop;    /* close/reset: detached tasks end at their next poll */
  struct sh_driver *driver;/* runs detached jobs between calls (NULL: none yet) */
  void (*hold)(void *ud);  /* takes / releases the sandbox's lock for the driver */
  void (*release)(void *ud);
  void *hold_ud;
};

/* ---- session API (session.c) ------------------------------------------------------------ */

sh_session *sh_session_new(store *st, const sh_limits *lim);
void sh_session_free(sh_session *s);
void sh_session_reset(sh_session *s);  /* fresh shell state */

typedef struct sh_call {
  const char *script;      /* the script (borrowed) */
  size_t len;
  const char *name;        /* $0 / source name ("sbx" by default) */
  const void *in;          /* stdin bytes (may be NULL) */
  size_t inlen;
  int host_stdin;          /* >= 0: stream stdin from this host fd instead */
  sh_sink_fn out, err;     /* stdout / stderr receivers */
  void *out_ud, *err_ud;
  bool start_job;          /* sbx_start: the script is one `... &` whose stdout and stderr
                            * stay these receivers after the call; the pending output of
                            * other jobs is not shown in it */
} sh_call;

typedef struct sh_call_result {
  int status;              /* exit code */
  sh_limit_kind limit;     /* limit hit (NONE if not) */
  uint64_t limit_value;
  int err_errno;           /* file error of the failing command, or 0 */
  char err_path[STORE_PATH_MAX];
  int64_t duration_ns;
} sh_call_result;

/* Runs a script in the session's persistent shell. */
int sh_session_run(sh_session *s, const sh_call *call, sh_call_result *res);
/* Runs the EXIT trap of the persistent shell, as a shell that exits would
 * (sbx_bash after a script ran `exit`); returns the exit status. */
int sh_session_exit(sh_session *s, const sh_call *call);
/* Jobs between calls. stop_driver: the driver thread leaves at its next look
 * (any thread, any lock). wait_drivers: until every driver thread has ended
 * (without the sandbox's lock: a driver may wait for it). kill_jobs: every
 * detached job ends now (with the lock, after stop_driver). */
void sh_session_stop_driver(sh_session *s);
void sh_session_wait_drivers(sh_session *s);
void sh_session_kill_jobs(sh_session *s);
/* Writes the pending output of detached jobs to sh's fds 1 and 2 (the start
 * and end of a call, `wait`, `jobs`). */
void sh_session_flush_bg(sh_shell *sh);
/* sbx_start's side (the caller holds the sandbox's lock, no call runs): the
 * task of the root shell's job `pid`, with a reference for the caller (NULL:
 * none); a signal to that job as `kill` sends it. */
sh_task *sh_session_job_task(sh_session *s, int64_t pid);
int sh_session_signal_job(sh_session *s, int64_t pid, int sig);
/* The running call's deadline passed or it was cancelled: reports the limit
 * on sh (the call's main shell) and returns true. */
bool sh_call_expired(sh_shell *sh);

/* ---- shell state (shell.c) --------------------------------------------------------------- */

sh_shell *sh_shell_new(sh_session *sess);
sh_shell *sh_shell_copy(sh_shell *sh);   /* for subshells, stages, jobs */
void sh_shell_free(sh_shell *sh);
/* Checks limits/cancel; sets flow ABORT and returns non-zero when the call must stop. */
int sh_poll(sh_shell *sh);
/* The shell is unwinding for good: a limit (flow ABORT) or the death by a
 * signal (a kill's or a timeout's): long loops stop as at sh_poll's 1. */
static inline bool sh_stopping(const sh_shell *sh) {
  return sh->flow == SH_FLOW_ABORT || (sh->flow == SH_FLOW_EXIT && sh->killed_by);
}
/* After a simple command: if a timeout's signal ended the command it ran
 * (sh_timeout), reports that death as bash does and delivers the signal to
 * the shell (its trap, or its end); if the command ended as killed
 * (cmd_died_of), reports that. */
void sh_timeout_after_command(sh_shell *sh, sh_node *cmd);
/* True when the timeout's signal is due to this shell and will end it (no
 * trap): it dies at once, before it would report its child's death. */
bool sh_timeout_ends(const sh_shell *sh);
/* Reports a limit: message on stderr, flow ABORT with status 126. */
void sh_limit_hit(sh_shell *sh, sh_limit_kind k, uint64_t value);
/* Fatal shell errors unwind like `exit status`, but stop earlier (bash):
 * DISCARD (arithmetic errors, bad substitutions) abandons the current
 * top-level command of the innermost script, source, eval or trap text and
 * goes on with its next command (a subshell exits); EXIT (unbound variable,
 * ${x?}) ends a non-interactive shell. An interactive shell treats both as
 * DISCARD at its top level. */
#define SH_FATAL_DISCARD 1
#define SH_FATAL_EXIT 2
void sh_fatal(sh_shell *sh, int status);
void sh_fatal_exit(sh_shell *sh, int status);
/* The status a fatal expansion error (unbound variable, ${x?msg}) exits with:
 * 127 in the top shell of `bash -c` without set -e (bash's quirk), else 1. */
int sh_expansion_error_status(const sh_shell *sh);
/* A builtin's "too many arguments" (shift, exit, return, break, continue) or
 * an assignment to a readonly variable: bash abandons the command line, and
 * the whole `bash -c` string (status 1). */
void sh_fatal_usage(sh_shell *sh);
/* A syntax error as bash reports it: "NAME: [CTX: ]line N: MSG" and, for an
 * unexpected token, the text of that line (line `index` of src, counting
 * from 0) in a second message. ctx is "eval", "-c" or NULL. */
void sh_syntax_error(sh_shell *sh, const char *ctx, const char *msg, const char *src, size_t n, int index);
/* "sbx: line N: " + message to the shell's stderr. */
void sh_error(sh_shell *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* message to stderr without prefix. */
/* The "NAME: line N: " (or "NAME: " at the interactive prompt) that sh_error
 * puts in front of a message, added to b. */
void sh_error_prefix(sh_shell *sh, sh_buf *b);
/* A new shell runs script file `path` (borrowed; must outlive the run): the call
 * stack restarts with a visible "main" frame for it. */
void sh_frames_start_script(sh_shell *sh, const char *path);
/* Restricted mode (bash -r, set -r): cd, exec, command -p, `/` in command
 * names and sourced files, output redirections and assignments to PATH,
 * SHELL, ENV, BASH_ENV and HISTFILE are refused; it cannot be turned off. */
void sh_set_restricted(sh_shell *sh);
void sh_errorf_raw(sh_shell *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes to a shell fd (all of it, blocking as needed). Returns 0 or -errno. */
int sh_write_fd(sh_shell *sh, int fd, const void *buf, size_t n);
int sh_write_str(sh_shell *sh, int fd, const char *s);
int sh_printf_fd(sh_shell *sh, int fd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Joins a path with the cwd (malloc'd, not resolved). */
char *sh_abspath(sh_shell *sh, const char *path);
/* Checks a string against the string-size limit; returns non-zero if over. */
int sh_check_size(sh_shell *sh, size_t n);

/* Options */
static inline bool sh_opt_on(const sh_shell *sh, sh_opt o) { return sh->opt[o]; }
char *sh_opt_flags(sh_shell *sh);  /* $- (malloc'd) */

/* ---- maps (shell.c) ------------------------------------------------------------------------- */

void *sh_map_get(const sh_map *m, const char *key);
/* Sets key -> val; returns the old value (caller frees) or NULL. */
void *sh_map_set(sh_map *m, const char *key, void *val);
void *sh_map_del(sh_map *m, const char *key); /* returns the old value */
void sh_map_free(sh_map *m, void (*free_val)(void *));
/* Sorted keys (array of borrowed key pointers, caller frees the array). */
const char **sh_map_keys(const sh_map *m, size_t *n);

/* ---- PATH search (exec.c) ---------------------------------------------------------------- */

typedef struct sh_hashent {
  char *path;  /* where the command was found (owned) */
  bool table;  /* a table command (src/cmd) */
  bool host;   /* a host program run in the jail (src/cmd/host.c) */
  int hits;    /* times run through the table */
} sh_hashent;

/* SH_PATH_HOST: an executable of the jail's runtime (py_program_visible). */
enum { SH_PATH_NONE, SH_PATH_TABLE, SH_PATH_FILE, SH_PATH_NOEXEC, SH_PATH_HOST };
char *sh_path_search(sh_shell *sh, const char *name, int *kind);
int sh_path_search_all(sh_shell *sh, const char *name, bool all, sh_strv *out);
void sh_hash_put(sh_shell *sh, const char *name, const char *path, bool table, int hits);
/* The same for any kind (SH_PATH_TABLE, SH_PATH_FILE or SH_PATH_HOST). */
void sh_hash_put_kind(sh_shell *sh, const char *name, const char *path, int kind, int hits);
void sh_hash_free_entry(void *v);

/* ---- functions (exec.c) ---------------------------------------------------------------------- */

sh_func *sh_func_get(sh_shell *sh, const char *name);
void sh_func_define(sh_shell *sh, sh_funcdef *def, sh_arena *arena);
int sh_func_unset(sh_shell *sh, const char *name);
void sh_func_unref(void *f);

/* ---- executor (exec.c) ----------------------------------------------------------------------- */

int sh_exec(sh_shell *sh, sh_node *n);
/* Parses and runs a string (eval, -c, traps). `name` for BASH_SOURCE. */
int sh_eval_string(sh_shell *sh, const char *s, size_t n, const char *name, int first_line);
/* The same for the text of file `path` (source, a script): messages about it
 * and about the functions it defines start with the path, as in bash. */
int sh_eval_file(sh_shell *sh, const char *s, size_t n, const char *path);
/* Runs a simple command given as argv (cmd_io run, xargs, builtin/command). */
int sh_run_argv(sh_shell *sh, int argc, char **argv, bool no_functions);
/* Calls a function with arguments. */
int sh_call_function(sh_shell *sh, sh_func *f, int argc, char **argv);
/* Runs the EXIT trap (once) of this shell. */
void sh_run_exit_trap(sh_shell *sh);
/* Runs a trap action string. */
int sh_run_trap(sh_shell *sh, int sig);
/* The exported functions (export -f) as bash passes them to commands,
 * BASH_FUNC_NAME%%=() { BODY }, appended to out (print.c). */
void sh_funcs_environ(sh_shell *sh, sh_strv *out);
/* Command n as bash prints it outside a function, at most SH_JOB_TEXT_MAX
 * bytes (print.c; malloc'd). */
char *sh_node_text(sh_shell *sh, sh_node *n);
/* Records the text of command n (a simple command, (( )) or [[ ]]; others are
 * ignored) as BASH_COMMAND, when sess->note_commands (print.c). */
void sh_note_command(sh_shell *sh, sh_node *n);
/* The DEBUG, ERR and RETURN traps that a function body (or a sourced file)
 * does not see (builtins_jobs.c). bash hides them from a function unless
 * functrace / errtrace or the function's trace attribute says otherwise, and
 * hides DEBUG from a sourced file unless functrace; a trap the body sets stays
 * set after it, else the hidden one comes back. */
typedef struct sh_trap_hide {
  char *saved[3]; /* the hidden DEBUG, ERR, RETURN actions (owned), or NULL */
} sh_trap_hide;
void sh_traps_hide(sh_shell *sh, sh_trap_hide *h, bool function, bool traced);
void sh_traps_unhide(sh_shell *sh, sh_trap_hide *h);
/* Runs `body` in a copy of sh (a subshell) with the given fds replacing 0/1.
 * in/out: shell fd numbers in sh, or -1 to keep. Returns the status. */
int sh_subshell_run(sh_shell *sh, sh_node *body);
/* Command substitution: runs body and captures its stdout (malloc'd). */
char *sh_command_subst(sh_shell *sh, sh_node *body, int *status);
/* The DEBUG trap before a command, set -x tracing. */
void sh_xtrace(sh_shell *sh, char **argv, int argc, sh_assign *assigns);
/* set -x: one line "PS4 text" on stderr. */
void sh_xtrace_text(sh_shell *sh, const char *text);
/* A word quoted the way xtrace shows it (malloc'd). */
char *sh_xtrace_quote(const char *s);

/* ---- ulimit (builtins_ulimit.c) ------------------------------------------------------------- */

void sh_ulimit_init(sh_shell *sh);
uint64_t sh_ulimit_fsize(const sh_shell *sh);  /* bytes, UINT64_MAX: unlimited */
uint64_t sh_ulimit_nofile(const sh_shell *sh); /* fds */

/* ---- interactive shells and history (interactive.c) ------------------------------------------ */

/* Reads commands from fd 0 line by line as bash -i does: PS1/PS2 prompts on
 * stderr, PROMPT_COMMAND before each prompt, history. Returns the status. */
int sh_interactive_loop(sh_shell *sh);
/* Adds a command line to the history (when `set -o history` is on). */
void sh_hist_add(sh_shell *sh, const char *line, size_t n);
/* The command last added has run: it is no longer the current one. */
void sh_hist_ran(sh_shell *sh);
/* Loads HISTFILE into the history (interactive startup) and writes it back
 * (interactive exit). */
void sh_hist_load(sh_shell *sh);
void sh_hist_save(sh_shell *sh);
struct sh_history *sh_hist_copy(const struct sh_history *h);
void sh_hist_free(struct sh_history *h);
/* HISTSIZE / HISTFILESIZE were assigned. */
void sh_hist_var_changed(sh_shell *sh, const char *name);

/* ---- ASTs in use --------------------------------------------------------------------------- */

#endif
