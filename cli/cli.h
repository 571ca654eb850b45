/*
 * cli.h - what the files of the `sbx` command-line tool share: the subcommand
 * table's entry type, the context a subcommand gets, and small helpers for
 * messages, options and whole-stream I/O.
 *
 * Adding a subcommand: write `int cli_NAME_main(cli_ctx *c, int argc, char
 * **argv)` in its own file cli/GROUP.c, declare it below, and add one line to
 * the table in cli/main.c. main.c handles `--help` (from the entry's usage and
 * help text), opens the sandbox before the call and closes it after.
 *
 * Conventions: a subcommand prints its results on stdout, errors on stderr as
 * "sbx: CONTEXT: reason" (cli_error / cli_fail), and returns its exit status
 * (0 success, 1 failure; the shell passes its script's status through).
 */
#ifndef SBX_CLI_H
#define SBX_CLI_H

#include <stddef.h>

#include "sbx.h"

/* What a subcommand gets. */
typedef struct cli_ctx {
  const char *db;  /* the sandbox database path; NULL for global commands */
  sbx *h;          /* the open sandbox (NULL for global and CLI_NOOPEN commands) */
} cli_ctx;

/* Extra sbx_open flags from global options (--isolation process:
 * SBX_OPEN_PROCESS); cli_open adds them. Set once by main(). */
extern int cli_open_flags;
/* Host directories for Python's imports (--python-path DIR, repeatable; at
 * most CLI_MAX_PYTHON_PATHS, NULL-terminated). Set once by main(). */
#define CLI_MAX_PYTHON_PATHS 16
extern const char *cli_python_paths[CLI_MAX_PYTHON_PATHS + 1];
/* Applies the global options that act on an open sandbox (the Python paths);
 * SBX_OK or the failing code, with the message on h. */
int cli_sandbox_setup(sbx *h);
/* --programs LIST: the host programs the shell may run (sbx_set_programs),
 * NULL-terminated; NULL: the default (all of the jail's runtime). */
extern char **cli_programs;

/* argv[0] is the subcommand's name; its arguments follow. */
typedef int (*cli_main_fn)(cli_ctx *c, int argc, char **argv);

/* Flags of a table entry. */
#define CLI_DB 0x01       /* `sbx DB NAME ...`: takes the database first */
#define CLI_NOCREATE 0x02 /* open with SBX_OPEN_NOCREATE (commands that only read) */
#define CLI_NOOPEN 0x04   /* the command opens the database itself (c->h is NULL) */

typedef struct cli_command {
  const char *name;    /* the subcommand as typed */
  cli_main_fn main;    /* NULL: reserved for a part not built yet (clear error) */
  int flags;           /* CLI_* */
  const char *usage;   /* synopsis after "sbx [DB] " ("ls [-l] [PATH]") */
  const char *summary; /* one line for `sbx --help` */
  const char *help;    /* further lines for `sbx DB NAME --help` (may be NULL) */
} cli_command;

/* ---- helpers (cli/util.c) ---------------------------------------------------- */

/* "sbx: " + message + "\n" on stderr; returns 1. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports the last failure on c->h: "sbx: VERB PATH: strerror" for a file
 * error, else "sbx: " + sbx_errmsg(). path may be NULL. Returns 1. */
int cli_fail(cli_ctx *c, const char *verb, const char *path);
/* "sbx: usage: sbx [DB] USAGE" for the running command; returns 1. */
int cli_usage(const char *name);
/* Resets getopt for a subcommand's argv (GNU permutation, "--" ends options).
 * Then use getopt(3) as usual; unknown options print a message. */
void cli_getopt_reset(void);
/* Parses the options of a command whose only option is the flag `letter`
 * (mkdir -p, write -a...): *set tells whether it was given; operands then
 * start at optind. Returns -1 for any other option (getopt printed it). */
int cli_flag_option(int argc, char **argv, int letter, int *set);
/* Reads a whole fd into a malloc'd buffer (NUL-terminated beyond *len).
 * Returns 0 or an errno. */
int cli_read_fd(int fd, char **data, size_t *len);
/* Reads a whole host file ("-" = stdin). Returns 0 or an errno. */
int cli_read_host_file(const char *path, char **data, size_t *len);
/* Writes everything; returns 0 or an errno. */
int cli_write_all(int fd, const void *buf, size_t len);
/* Runs a script through sbx_bash_ex with its output streamed to the host's
 * stdout and stderr as it comes (this sets o's two output callbacks; the
 * caller sets the rest: stdin, name, args, recording). For `sbx DB python`
 * and the shell's entry points in cli/sh.c. Returns the script's exit status
 * (also when a limit, timeout or cancel ended it), or -1 when the call
 * failed; the message is then on h, for the caller to report its own way. */
int cli_bash_streamed(sbx *h, const char *script, size_t len, sbx_bash_opts *o);
/* Opens c->db into c->h (creating it when `create`), for CLI_NOOPEN
 * commands; main() closes c->h after the command. Reports the failure and
 * returns 1, or returns 0. */
int cli_open(cli_ctx *c, int create);

/* Limits of the commands that run code (`sbx DB -c`, the shell, python,
 * mcp), as the API takes them: --preset strict|normal|permissive, --timeout
 * SEC (the timeout_ms limit) and --limit NAME=N (an sbx_limits field:
 * loop_iterations, command_count, function_depth, output_bytes, string_size,
 * array_size, timeout_ms). Accepted before DB, after DB and after the
 * subcommand's name; later ones override earlier ones. */
/* Sets one option: opt is "preset", "timeout" or "limit". Prints the error
 * and returns 1 for a bad value, else 0. */
int cli_limit_set(const char *opt, const char *value);
/* If argv[*i] is one of them (--opt VALUE or --opt=VALUE), takes it, moves
 * *i past it and returns 1; returns 0 for any other argument and -1 (the
 * error printed) for a bad or missing value. */
int cli_limit_option(int argc, char **argv, int *i);
/* The limits the options give (the preset, default normal, with the others
 * over it) into *lim; returns whether any option was given. */
int cli_limits(sbx_limits *lim);
/* Sets them on c->h when any was given (cli_open does it after opening);
 * returns 0 or 1 after printing the error. */
int cli_apply_limits(cli_ctx *c);

/* ---- subcommands (one file per group) ----------------------------------------- */

/* cli/files.c */
int cli_ls_main(cli_ctx *c, int argc, char **argv);
int cli_cat_main(cli_ctx *c, int argc, char **argv);
int cli_write_main(cli_ctx *c, int argc, char **argv);
int cli_rm_main(cli_ctx *c, int argc, char **argv);
int cli_mkdir_main(cli_ctx *c, int argc, char **argv);
int cli_stat_main(cli_ctx *c, int argc, char **argv);
int cli_mv_main(cli_ctx *c, int argc, char **argv);
int cli_ln_main(cli_ctx *c, int argc, char **argv);
int cli_readlink_main(cli_ctx *c, int argc, char **argv);
/* cli/kv.c */
int cli_kv_main(cli_ctx *c, int argc, char **argv);
/* cli/history.c */
int cli_history_main(cli_ctx *c, int argc, char **argv);
/* cli/snapshot.c */
int cli_export_main(cli_ctx *c, int argc, char **argv);
int cli_import_main(cli_ctx *c, int argc, char **argv);
int cli_fork_main(cli_ctx *c, int argc, char **argv);
int cli_doctor_main(cli_ctx *c, int argc, char **argv); /* cli/doctor.c */
int cli_python_main(cli_ctx *c, int argc, char **argv); /* cli/python.c */
int cli_mcp_main(cli_ctx *c, int argc, char **argv);    /* cli/mcp.c */
/* cli/tree.c */
int cli_import_dir_main(cli_ctx *c, int argc, char **argv);
int cli_export_dir_main(cli_ctx *c, int argc, char **argv);

/* cli/sh.c */
int cli_sh_main(cli_ctx *c, int argc, char **argv);
int cli_shtest_main(cli_ctx *c, int argc, char **argv);

#endif
