/*
 * jq_cli.h - the jq engine shared by `jq` and `yq`: runs one jq 1.8
 * program with sbx's own engine (src/cmd/jq/), inputs and outputs through
 * the command's ctx, inside the sandbox's limits.
 *
 * The engine runs on the command's own thread: values, parser and
 * evaluator never leave it, so there is nothing to halt from outside. It
 * polls ctx (deadline, cancel) every few thousand evaluation steps, checks
 * the C stack on every step (deep recursion becomes a jq error), counts the
 * bytes its values hold against a budget, and writes output as it goes (a
 * closed pipe stops it). Confinement: inputs, --slurpfile/--rawfile and -f
 * are read through the store; there are no modules; env/$ENV,
 * input_filename, stderr/debug and localtime come from the sandbox.
 */
#ifndef SBX_CMD_UTIL_JQ_H
#define SBX_CMD_UTIL_JQ_H

#include <stdbool.h>

#include "cmd/cmd.h"
#include "cmd/jq/jq_value.h"

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
 * A source of input values that replaces jq's text parser (yq's YAML).
 * next() returns the next value, an invalid without message at the end, or
 * an invalid with a message for an error (printed as it is; the main loop
 * ends with source_error_status). `ud` is the source's own; free() (may be
 * NULL) releases it when the run ends.
 */
typedef struct cmd_jq_source {
  jqv (*next)(cmd_jq_job *job, void *ud);
  void (*free)(void *ud);
  void *ud;
} cmd_jq_source;

/* Reads a whole input file ("-" = stdin) through the store, up to
 * ctx->max_string bytes. Returns 0 with *data malloc'd (caller frees,
 * NUL-terminated), or a negative errno. */
int cmd_jq_read_file(cmd_jq_job *job, const char *name, char **data, size_t *len);

/* A source's input position for jq's "(at NAME:LINE)" messages. */
void cmd_jq_set_position(cmd_jq_job *job, const char *name, unsigned long line);

/*
 * An output formatter that replaces JSON text (yq's YAML). format() appends
 * the text of one output value (consumed) to out; finish() ends the stream
 * (may be NULL). Return 0, or -1 after putting a message in out_err
 * (without a trailing newline).
 */
typedef struct cmd_jq_formatter {
  int (*format)(void *ud, jqv value, cmd_jq_buf *out, cmd_jq_buf *out_err);
  int (*finish)(void *ud, cmd_jq_buf *out, cmd_jq_buf *out_err);
  void (*free)(void *ud); /* may be NULL */
  void *ud;
} cmd_jq_formatter;

/* Whether the job must stop (sources poll it in long loops). */
bool cmd_jq_stopping(cmd_jq_job *job);

/* A program argument: --arg/--argjson/--slurpfile/--rawfile/--argfile
 * (named) or --args/--jsonargs (positional). */
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
  const char *text; /* the text or the file's contents (borrowed) */
  size_t len;       /* its length */
  const char *file; /* the file name, for messages (file kinds) */
} cmd_jq_arg;

/* What to run and how; see cmd_jq_run. Zero-initialise, then fill. */
typedef struct cmd_jq_opts {
  const char *name;        /* "jq" / "yq": prefix of the engine's messages */
  const char *program;     /* the filter text (borrowed) */
  size_t program_len;      /* its length */
  const cmd_jq_arg *args;  /* named and positional arguments, in order */
  int nargs;
  char **files;            /* input files ("-" = stdin), borrowed */
  int nfiles;              /* 0: stdin */
  cmd_jq_source source;    /* .next == NULL: jq's JSON/raw text inputs */
  cmd_jq_formatter formatter; /* .format == NULL: JSON text (dumpflags) */
  bool null_input;         /* -n */
  bool raw_input;          /* -R */
  bool slurp;              /* -s */
  bool seq;                /* --seq (input RS separators, output RS prefix) */
  bool stream;             /* --stream */
  bool stream_errors;      /* --stream-errors */
  bool raw_output;         /* -r (also set by -j) */
  bool raw_output0;        /* --raw-output0 */
  bool join_output;        /* -j: no newline after outputs */
  bool ascii_output;       /* -a */
  bool exit_status;        /* -e */
  int dumpflags;           /* JQV_PRINT_* for JSON text */
  const char *colors;      /* JQ_COLORS (NULL: defaults) */
  cmd_jq_buf *capture;     /* non-NULL: standard output goes here (yq -i) */
  int source_error_status; /* status after a source's own error (0: 2) */
} cmd_jq_opts;

/*
 * Compiles and runs the program over the inputs like jq 1.8's main():
 * prints outputs and messages through ctx, returns jq's exit status (0, 1
 * and 4 for -e, 2 usage/file errors, 3 compile errors, 5 runtime errors,
 * halt_error's code). On cancel/timeout it returns 130; on a closed output
 * 141; past the memory budget it prints "NAME: error: out of memory..." and
 * returns 5. The source's and formatter's free() run before it returns.
 */
int cmd_jq_run(cmd_ctx *ctx, cmd_jq_opts *opts);

/* The base memory budget of a run for ctx (bytes): 8 x ctx->max_string,
 * clamped to [32 MiB, 1 GiB]; it grows by 64 bytes per input byte read,
 * up to 2 GiB in all. */
size_t cmd_jq_budget(cmd_ctx *ctx);

/* Reads a whole file ("-" = stdin) through the store; prints nothing. 0
 * with *data malloc'd (caller frees), or a negative errno. */
int cmd_jq_slurp(cmd_ctx *ctx, const char *path, char **data, size_t *len);

/* The file of --slurpfile/--rawfile/--argfile (opt, e.g. "--rawfile") NAME
 * PATH: reads it into *data (malloc'd, caller frees) and fills *arg, or
 * prints jq's "Could not open" message and returns the negative errno. */
int cmd_jq_file_arg(cmd_ctx *ctx, const char *opt, const char *name, const char *path,
                    char **data, cmd_jq_arg *arg);

/* The program file of -f: reads it (caller frees *data), or prints jq's
 * "Could not open" message and returns the negative errno. */
int cmd_jq_program_file(cmd_ctx *ctx, const char *path, char **data, size_t *len);

#endif
