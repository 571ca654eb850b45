/*
 * util_jq.h - the jq engine shared by `jq` and `yq`: runs one jq program with
 * Debian's libjq 1.6 in a worker thread, inputs and outputs through the
 * command's ctx, inside the sandbox's limits.
 *
 * The engine is libjq plus four things libjq 1.6 lacks:
 *  - confinement: inputs, --slurpfile/--rawfile and -f are read through the
 *    store by the command thread; modules are refused before compiling (no
 *    library path is ever searched); env/$ENV, input_filename, stderr,
 *    localtime come from the sandbox, not the host process (see util_jq.c);
 *  - a stop button: the program runs in a thread of its own, and the command
 *    thread halts it (jq_halt) on cancel, timeout, a closed output pipe or the
 *    memory budget, between any two bytecode instructions;
 *  - guards around the libjq 1.6 builtins that crash or spin in C on hostile
 *    arguments (huge array indexes, string repetition, indices(""), tojson of
 *    a value whose text is too long);
 *  - jq 1.6's command-line behaviour: the input position in error messages,
 *    exit statuses, output formats, parse errors.
 */
#ifndef SBX_CMD_UTIL_JQ_H
#define SBX_CMD_UTIL_JQ_H

#include <jq.h>
#include <stdbool.h>

#include "cmd/cmd.h"

/* A growing byte buffer (malloc'd). */
typedef struct cmd_jq_buf {
  char *data;      /* the bytes, NUL-terminated when non-NULL */
  size_t len, cap; /* bytes used / allocated */
} cmd_jq_buf;

/* Appends n bytes; 0, or -ENOMEM (the buffer is unchanged). */
int cmd_jq_buf_add(cmd_jq_buf *b, const void *p, size_t n);
int cmd_jq_buf_adds(cmd_jq_buf *b, const char *s);
void cmd_jq_buf_free(cmd_jq_buf *b);

typedef struct cmd_jq_job cmd_jq_job; /* one running program (opaque) */

/*
 * A source of input values that replaces jq's text parser (yq's YAML). Its
 * functions run in the jq thread; they may call cmd_jq_read_file. Its `ud`
 * (and a formatter's) belongs to the job from cmd_jq_run on: the jq thread
 * may outlive the call (util_jq.c, invariant 4), so it must be heap memory
 * that free() releases, and must not point into the caller's memory. next()
 * returns the next value, jv_invalid() at the end, or an invalid with a
 * message for an error (printed as it is; the main loop ends with
 * source_error_status). `ud` is the source's own.
 */
typedef struct cmd_jq_source {
  jv (*next)(cmd_jq_job *job, void *ud);
  void (*free)(void *ud); /* may be NULL; called in the jq thread */
  void *ud;
} cmd_jq_source;

/*
 * Reads a whole input file ("-" = stdin) through the command thread, up to
 * ctx->max_string bytes. From the jq thread only (sources, formatters).
 * Returns 0 with *data malloc'd (caller frees, NUL-terminated), or a
 * negative errno (-ECANCELED when the job is stopping).
 */
int cmd_jq_read_file(cmd_jq_job *job, const char *name, char **data, size_t *len);

/* A source's input position for jq's "(at NAME:LINE)" messages. */
void cmd_jq_set_position(cmd_jq_job *job, const char *name, unsigned long line);

/*
 * An output formatter that replaces JSON text (yq's YAML). format() appends
 * the text of one output value (consumed) to out; finish() ends the stream
 * (may be NULL). Both run in the jq thread. Return 0, or -1 after putting a
 * message in out_err (without a trailing newline).
 */
typedef struct cmd_jq_formatter {
  int (*format)(void *ud, jv value, cmd_jq_buf *out, cmd_jq_buf *out_err);
  int (*finish)(void *ud, cmd_jq_buf *out, cmd_jq_buf *out_err);
  void (*free)(void *ud); /* may be NULL; called in the jq thread */
  void *ud;
} cmd_jq_formatter;

/* Whether the job must stop (sources poll it in long loops). */
bool cmd_jq_stopping(cmd_jq_job *job);

/* A program argument: --arg/--argjson/--slurpfile/--rawfile/--argfile
 * (named) or --args/--jsonargs (positional). JSON is parsed in the jq
 * thread, which reports bad JSON with jq's messages. */
enum {
  CMD_JQ_ARG_STRING,  /* --arg, --args: the text as a string */
  CMD_JQ_ARG_JSON,    /* --argjson, --jsonargs: one JSON text */
  CMD_JQ_ARG_SLURP,   /* --slurpfile: the array of the file's JSON texts */
  CMD_JQ_ARG_RAW,     /* --rawfile: the file's contents as a string */
  CMD_JQ_ARG_ARGFILE, /* --argfile: like SLURP, unwrapped when one text */
};
typedef struct cmd_jq_arg {
  int kind;         /* CMD_JQ_ARG_* */
  const char *name; /* variable name, NULL for a positional argument */
  const char *text; /* the text or the file's contents (borrowed; copied) */
  size_t len;       /* its length */
  const char *file; /* the file name, for messages (file kinds) */
} cmd_jq_arg;

/* What to run and how; see cmd_jq_run. Zero-initialise, then fill. */
typedef struct cmd_jq_opts {
  const char *name;        /* "jq" / "yq": prefix of the engine's messages */
  const char *program;     /* the filter text (borrowed; copied) */
  size_t program_len;      /* its length */
  const cmd_jq_arg *args;  /* named and positional arguments, in order */
  int nargs;
  char **files;            /* input files ("-" = stdin), borrowed; copied */
  int nfiles;              /* 0: stdin */
  cmd_jq_source source;    /* .next == NULL: jq's JSON/raw text inputs */
  cmd_jq_formatter formatter; /* .format == NULL: JSON text (dumpflags) */
  bool null_input;         /* -n */
  bool raw_input;          /* -R */
  bool slurp;              /* -s */
  bool seq;                /* --seq (input RS separators, output RS prefix) */
  bool stream;             /* --stream */
  bool raw_output;         /* -r (also set by -j) */
  bool join_output;        /* -j: no newline after outputs */
  bool ascii_output;       /* -a */
  bool exit_status;        /* -e */
  int dumpflags;           /* JV_PRINT_* for JSON text */
  cmd_jq_buf *capture;     /* non-NULL: standard output goes here (yq -i) */
  int source_error_status; /* status after a source's own error (0: 2) */
} cmd_jq_opts;

/*
 * Compiles and runs the program over the inputs like jq 1.6's main(): prints
 * outputs and messages through ctx, returns jq's exit status (0, 1 and 4 for
 * -e, 2 usage/file errors, 3 compile errors, 5 runtime errors, halt_error's
 * code). On cancel/timeout it returns 130 promptly; past the memory budget it
 * prints "NAME: error: ..." and returns 5. Nothing of opts is kept.
 */
int cmd_jq_run(cmd_ctx *ctx, cmd_jq_opts *opts);

/* Jobs abandoned inside a libjq C call (util_jq.c, invariant 4) whose
 * thread has not been joined yet: still running, or finished and waiting for
 * the next run to reap them. Reaps the finished ones first. */
int cmd_jq_pending(void);

/* The jq thread's base memory budget for ctx (bytes): 8 x ctx->max_string,
 * clamped to [32 MiB, 1 GiB]. While it runs, the budget grows by 64 bytes
 * per input byte read, up to 2 GiB in all (util_jq.c, "Memory"). */
size_t cmd_jq_budget(cmd_ctx *ctx);

/* Reads a whole file ("-" = stdin) through the store from the command
 * thread; prints nothing. 0 with *data malloc'd (caller frees), or a
 * negative errno. */
int cmd_jq_slurp(cmd_ctx *ctx, const char *path, char **data, size_t *len);

/* The file of --slurpfile/--rawfile/--argfile (opt, e.g. "--rawfile") NAME
 * PATH: reads it into *data (malloc'd, caller frees) and fills *arg, or
 * prints jq 1.6's "Could not open" message and returns the negative errno. */
int cmd_jq_file_arg(cmd_ctx *ctx, const char *opt, const char *name, const char *path,
                    char **data, cmd_jq_arg *arg);

/* The program file of -f: reads it (caller frees *data), or prints jq 1.6's
 * "Could not open" message and returns the negative errno. */
int cmd_jq_program_file(cmd_ctx *ctx, const char *path, char **data, size_t *len);

#endif
