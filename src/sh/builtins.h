/*
 * builtins.h - the shell's builtin commands. Each takes the running shell and
 * argv (argv[0] is the name) and returns its exit status; output goes through
 * the shell's fds (sh_write_fd), errors are printed as bash prints them.
 *
 * The table is in builtins_core.c; the functions are grouped by theme:
 * builtins_core.c (flow, cd, eval, source, exec, command, type, misc),
 * builtins_vars.c (declare and friends, set, shopt, read, mapfile, getopts),
 * builtins_jobs.c (wait, jobs, kill, trap), test.c (test, [, and [[ ]]),
 * testmode.c (the conformance kit's helper programs, `sbx sh` only).
 */
#ifndef SBX_SH_BUILTINS_H
#define SBX_SH_BUILTINS_H

#include "cmd/cmd.h"
#include "sh/sh.h"
#include "sh/shared.h"

typedef int (*sh_builtin_fn)(sh_shell *sh, int argc, char **argv);

#define SH_BI_SPECIAL 0x01 /* POSIX special builtin */
#define SH_BI_DECL 0x02    /* declaration builtin: assignment words as arguments */
#define SH_BI_TESTMODE 0x04 /* only in `sbx sh` test mode */

typedef struct sh_builtin {
  const char *name;
  sh_builtin_fn fn;
  int flags;
} sh_builtin;

/* The builtin `name` as commands see it: NULL when there is none, when it is
 * disabled by `enable -n`, or when it is a test-mode helper outside `sbx sh`. */
const sh_builtin *sh_builtin_find(sh_shell *sh, const char *name);
/* The same, disabled or not (enable, help). */
const sh_builtin *sh_builtin_lookup(sh_shell *sh, const char *name);

/* help (builtins_help.c): the builtin and its table of usage lines. */
int sh_bi_help(sh_shell *sh, int argc, char **argv);
/* The usage line of a builtin or keyword ("cd [-L|[-P [-e]] [-@]] [dir]"), or NULL. */
const char *sh_help_synopsis(const char *name);
/* "NAME: usage: SYNOPSIS" on the shell's stderr, as after an invalid option. */
void sh_bi_usage(sh_shell *sh, const char *name);

/* Single-letter options of a builtin: words "-abc" up to "--" or the first
 * operand; on[k] is set when letters[k] was given (on has strlen(letters)
 * entries). Returns the index of the first operand, or -1 after "NAME: -x:
 * invalid option" and the usage line. */
int sh_bi_options(sh_shell *sh, const char *name, int argc, char **argv, const char *letters, bool *on);
/* The options of a builtin one letter at a time, the way bash's
 * internal_getopt reads them: words "-abc" up to "--" or the first operand.
 * `spec` lists the letters; a letter followed by ':' takes an argument (the
 * rest of its word, or else the next word); a leading '#' makes a word "-N"
 * that starts with a digit an operand (fc -2). Start with SH_BI_GETOPT. */
typedef struct sh_bi_getopt {
  const char *name; /* the builtin, for messages */
  const char *spec; /* the letters, as above */
  int i;            /* the word being read; when the options end, the first operand */
  const char *next; /* the next letter in argv[i], NULL at the start of a word */
  const char *arg;  /* the argument of the letter just returned, or NULL */
  uint64_t given;   /* bit k: the letter at spec[k] was given (specs are short) */
} sh_bi_getopt;
#define SH_BI_GETOPT(name, spec) ((sh_bi_getopt){(name), (spec), 1, NULL, NULL, 0})
/* The next option letter; 0 when the options end (g->i is the first operand);
 * -1 after "NAME: -X: invalid option" or "NAME: -X: option requires an
 * argument" and the usage line (the builtin then returns 2). g->next is NULL
 * when the letter returned was the last of its word. */
int sh_bi_getopt_next(sh_shell *sh, sh_bi_getopt *g, int argc, char **argv);
/* Whether the option letter was given among the words read so far: for a
 * builtin whose switches are plain on/off flags (hash -rdtl, fc -lnrs), so
 * its loop only handles the letters that take an argument. */
bool sh_bi_getopt_given(const sh_bi_getopt *g, char letter);
/* Sorted names of all builtins (for compgen/help/enable). */
extern const sh_builtin sh_builtin_table[];
extern const size_t sh_builtin_count;

/* For declaration builtins: the array-literal assignments among the arguments
 * (argv index -> assignment), set by the executor for the duration of the call. */
typedef struct sh_decl_args {
  struct sh_assign **assign; /* per argv index: the parsed assignment or NULL */
  int n;
} sh_decl_args;
extern _Thread_local sh_decl_args *sh_current_decl;

/* Applies one parsed assignment (exec.c); flags: SH_SET_* (LOCAL for local). */
int sh_apply_assign(sh_shell *sh, struct sh_assign *as, int flags);

/* The [[ ]] evaluator and test(1) (test.c). */
int sh_eval_cond(sh_shell *sh, sh_cond_expr *e);
int sh_test_main(sh_shell *sh, int argc, char **argv);
/* Unary file tests shared by test and [[ ]]. */
bool sh_test_unary(sh_shell *sh, const char *op, const char *arg, bool *valid);
bool sh_test_binary(sh_shell *sh, const char *op, const char *a, const char *b, bool *valid, int *err);


int sh_bi_ulimit(sh_shell *sh, int argc, char **argv);
int sh_bi_bind(sh_shell *sh, int argc, char **argv); /* builtins_bind.c */
int sh_bi_sh(sh_shell *sh, int argc, char **argv);   /* bash, sh: a new shell (testmode.c) */

/* compgen, complete, compopt (builtins_complete.c) */
int sh_bi_compgen(sh_shell *sh, int argc, char **argv);
int sh_bi_complete(sh_shell *sh, int argc, char **argv);
int sh_bi_compopt(sh_shell *sh, int argc, char **argv);
void sh_compspec_free(void *v);
void *sh_compspec_copy(const void *v);

/* history and fc (interactive.c) */
int sh_bi_history(sh_shell *sh, int argc, char **argv);
int sh_bi_fc(sh_shell *sh, int argc, char **argv);

/* cd's path logic, pwd */
int sh_builtin_cd(sh_shell *sh, int argc, char **argv);

/* printf through the command table (src/cmd/printf.c). */
int sh_run_printf(sh_shell *sh, int argc, char **argv);

/* Job helpers (builtins_jobs.c) */
/* The message bash prints when a foreground subshell was killed by signal
 * sig; text is its command, or NULL. */
void sh_report_signal_death(sh_shell *sh, int sig, int64_t pid, const char *text);
int sh_job_add(sh_shell *sh, sh_task **tasks, int ntasks, const char *text);
/* Enters the background job of task t running n (its text as `jobs` shows it);
 * returns its $! value. */
int64_t sh_job_start(sh_shell *sh, sh_task *t, sh_node *n);
/* Reports jobs that ended and drops them from the table, where bash does: before
 * each command line is read and after each command bash runs in a child. A
 * report names `line` (0: the current line). */
void sh_jobs_notify(sh_shell *sh, int line);
/* The command text of background job n as bash keeps it, one string per
 * pipeline stage (print.c); NULL-terminated, *count strings, each owned. */
char **sh_job_texts(sh_shell *sh, sh_node *n, size_t cap, int *count);
/* Function f as `declare -f` prints it (print.c; sh may be NULL). */
char *sh_func_text(sh_shell *sh, sh_func *f);
int sh_wait_all(sh_shell *sh);
void sh_jobs_release(sh_shell *sh);
void sh_jobs_inherit(sh_shell *sh, const sh_shell *p);

/* The live shell whose $$/BASHPID is pid, or NULL (shell.c). */
sh_shell *sh_shell_by_pid(sh_session *s, int64_t pid);

/* bash's quoting of a value in declare -p and ${a[@]@K}, added to b: $'...'
 * when it holds a control character, else "..." with \ before " \ $ `. */
void sh_quote_value(sh_buf *b, const char *s);
/* An associative array key there: bare unless a shell metacharacter (or a
 * lone @ or *) needs quoting, then as a value. */
void sh_quote_key(sh_buf *b, const char *k);
/* declare -p text for a variable (builtins_vars.c); malloc'd, no newline. */
char *sh_declare_print(sh_shell *sh, struct sh_var *v, bool for_A);

/* The job whose pid (of any stage) is `pid` in sh's table: sends it signal
 * sig as `kill` does (0, or -1: no such job); gives its last task
 * (borrowed), or NULL. */
int sh_jobs_signal_pid(sh_shell *sh, int64_t pid, int sig);
sh_task *sh_jobs_task_of(sh_shell *sh, int64_t pid);
/* cmd_io.procs: the shell, the stages of its running jobs, and the calling
 * command (ps) with a new pid; up to max in out; returns how many. */
int sh_jobs_procs(sh_shell *sh, cmd_proc *out, int max);

#endif
