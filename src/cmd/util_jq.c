/*
 * util_jq.c - the jq engine of `jq` and `yq` (see util_jq.h for the API).
 *
 * Two threads, strictly taking turns like coroutines:
 *
 *     command thread (M)                       jq thread (J)
 *     ------------------                       -------------
 *     parse options, read -f/--slurpfile
 *     start J on its own big stack  -------->  jq_init, compile, run
 *                                   <--------  request: FLUSH/OPEN/READ/SLURP/DONE
 *     serve it through ctx (cmd_out,
 *     cmd_in_*) and hand the turn back -------> continue
 *     ... while J runs, M wakes every 10 ms: cmd_poll(ctx) and the heap
 *     budget; to stop J it sets job->stop and calls jq_halt(), which libjq
 *     1.6 checks before every bytecode instruction.
 *
 * Invariants:
 *  1. Only M touches ctx (the shell may run commands as coroutines on one
 *     thread: its I/O must not be entered from another thread), and only J
 *     touches libjq values (jv), so neither needs locks for its own data.
 *  2. Exactly one thread runs at a time, except while J runs and M only
 *     polls; `turn` under `mu` says whose turn it is.
 *  3. jq_halt is called only under halt_mu, by M (stop) or by J (halt,
 *     halt_error, routed through the channel below), and never twice: libjq
 *     asserts !halted.
 *  4. If J does not yield within STOP_GRACE of a stop request (a long call
 *     inside one libjq C builtin), M abandons it: it marks the job, puts it
 *     on a reaper list and returns. J owns copies of everything it reads, so
 *     it finishes on its own later, discarding its output; the next run
 *     joins it and unmaps its stack.
 *
 * Why a thread at all: libjq 1.6 recurses on the C stack over nested values
 * (jv_free, jv_equal, jv_contains: up to ~256 bytes per level) and a jq
 * program can nest values as deep as memory allows. J runs on a
 * MAP_NORESERVE stack of 8x the heap budget (address space, not memory), so
 * any value that fits the budget can be freed, compared and printed.
 *
 * Memory: libjq has no allocator hook. M reads the process heap (mallinfo2,
 * or the sanitizer's counter under ASan) every 20 ms and stops J when it has
 * grown by more than the budget. This is process-wide and approximate: one
 * libjq C call can overshoot before the next check. The budget is in
 * proportion to the work: 8 x max_string for the program itself, plus
 * JQ_INPUT_FACTOR x the input bytes M has served so far (parsed JSON takes
 * about 18x its text in libjq's values for typical data, far more for empty
 * containers), never more than JQ_BUDGET_CEILING in all. So a program that
 * grows on its own stops at the base budget, and a 10 MB input parses.
 *
 * Confinement and guards: the program is compiled behind a one-line prelude
 * (no newline, so line numbers in messages stay right; the prelude is cut
 * out of compile-error messages) that redefines the builtins which, in libjq
 * 1.6, read the host (env, $ENV, input_filename with a foreign input
 * callback, stderr to the process's FILE*, localtime/strflocaltime with the
 * process's zone) or crash/spin in C on hostile arguments (setpath and
 * |=/= with huge array indexes, "s" * huge, indices(""), tojson/tostring/
 * @format/"\(...)" of a value whose text would exceed max_string) or leak
 * (ltrimstr/rtrimstr of a non-string: the error value is never freed, and
 * the leak is the process's, shared by every sandbox) or abort the process
 * (strftime/todate of a number gmtime cannot convert, 1e18: libjq asserts on
 * the error value; gmtime first reports it as an error). They call
 * back into this file through a channel: `q | debug | _input` hands the
 * query q to our debug callback, and our input callback answers it (a value
 * or an error). `import`/`include`/`module` are refused before compiling,
 * and the library path is empty, so libjq's module loader never runs. (One
 * host read remains inside libjq 1.6 and cannot be disabled from outside:
 * builtins_bind() loads "$HOME/.jq" of the host process if it is a file.)
 *
 * Inputs emulate jq 1.6's jq_util_input exactly (fgets-sized chunks of at
 * most 4095 bytes, files concatenated into one parser, the "<file>:<line>"
 * positions of error messages, open failures ending the main loop after the
 * current value), but read through the store via M. Output is printed by
 * our own copy of jv_dump_term's layout (colours, indentation, the 256-level
 * "<stripped: exceeds max depth>" cut), so a value is streamed to the
 * pipe in 64 KiB pieces and a stop request is seen between any two nodes.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <dlfcn.h>

#include "cmd/util_jq.h"
#include "cmd/util_time.h"

#define JQ_BLOCK 65536           /* bytes per read request and output flush */
#define JQ_CHUNK 4096            /* jq_util_input's fgets buffer */
#define JQ_TICK_NS 10000000L     /* M's polling period while J runs */
#define JQ_MEM_TICKS 2           /* heap checks every 2 ticks */
#define JQ_STOP_GRACE_MS 2000    /* how long M waits for J after a stop */
#define JQ_MAX_PRINT_DEPTH 256   /* jv_print.c's MAX_PRINT_DEPTH */
#define JQ_MAX_PROGRAM (1 << 20) /* program text bytes (compile is not haltable) */
#define JQ_INPUT_FACTOR 64       /* budget bytes per input byte served */
#define JQ_BUDGET_CEILING ((size_t)2 << 30) /* the budget's ceiling with inputs */

/* The marker key of channel queries: "\u0000sbx" cannot come from JSON input
 * by accident and is what the prelude writes. */
#define JQ_MARK "\0sbx"
#define JQ_MARK_LEN 4

enum { TURN_M, TURN_J };
enum { REQ_NONE, REQ_FLUSH, REQ_OPEN, REQ_READ, REQ_CLOSE, REQ_SLURP, REQ_DONE };
enum { STOP_NONE, STOP_POLL, STOP_PIPE, STOP_MEM, STOP_WRITE };

/* Channel operations (the numbers the prelude sends). */
enum {
  OP_FILENAME = 1, OP_LINE, OP_STDERR, OP_HALT, OP_HALT_ERROR, OP_SIZE,
  OP_REPEAT, OP_SETPATH, OP_LOCALTIME = 10, OP_STRFLOCALTIME,
};

/*
 * The prelude, one line. Every redefinition that calls the original first
 * binds it under a _sbx_ name (definitions are lexically scoped, so the
 * alias refers to the builtin). Evaluation order of arguments matches
 * libjq's C-function calls: the last argument varies slowest.
 */
static const char jq_prelude[] =
    "def _sbx_q(q): q | debug | _input; "
    "def env: $__sbx_env; "
    "def input_filename: _sbx_q({\"\\u0000sbx\": 1}); "
    "def input_line_number: _sbx_q({\"\\u0000sbx\": 2}); "
    "def stderr: _sbx_q({\"\\u0000sbx\": 3, v: .}); "
    "def halt: _sbx_q({\"\\u0000sbx\": 4}); "
    "def _sbx_halt_error($c): halt_error($c); "
    "def halt_error($c): if ($c | type) == \"number\" "
    "then _sbx_q({\"\\u0000sbx\": 5, v: ., c: $c}) else _sbx_halt_error($c) end; "
    "def halt_error: halt_error(5); "
    "def _sbx_big: _sbx_q({\"\\u0000sbx\": 6, v: .}); "
    "def _sbx_tojson: tojson; "
    "def tojson: if type == \"array\" or type == \"object\" "
    "then _sbx_big | _sbx_tojson else _sbx_tojson end; "
    "def _sbx_tostring: tostring; "
    "def tostring: if type == \"array\" or type == \"object\" "
    "then _sbx_big | _sbx_tostring else _sbx_tostring end; "
    "def _sbx_format(f): format(f); "
    "def format(f): if type == \"array\" or type == \"object\" "
    "then _sbx_big | _sbx_format(f) else _sbx_format(f) end; "
    "def _sbx_mul(a; b): _multiply(a; b); "
    "def _multiply(a; b): b as $b | a as $a | "
    "if ($a | type) == \"string\" and ($b | type) == \"number\" "
    "or ($a | type) == \"number\" and ($b | type) == \"string\" "
    "then _sbx_q({\"\\u0000sbx\": 7, a: $a, b: $b}) as $_ | _sbx_mul($a; $b) "
    "else _sbx_mul($a; $b) end; "
    "def _sbx_setpath(p; v): setpath(p; v); "
    "def setpath(p; v): v as $v | p as $p | "
    "_sbx_q({\"\\u0000sbx\": 8, v: $p}) as $_ | _sbx_setpath($p; $v); "
    "def _assign(paths; $v): reduce path(paths) as $p (.; setpath($p; $v)); "
    "def _modify(paths; update): reduce path(paths) as $p (.; label $out | "
    "(setpath($p; getpath($p) | update) | ., break $out), delpaths([$p])); "
    "def _sbx_strindices($i): _strindices($i); "
    "def _strindices($i): if $i == \"\" then [] else _sbx_strindices($i) end; "
    "def indices($i): if type == \"array\" and ($i | type) == \"array\" then .[$i] "
    "elif type == \"array\" then .[[$i]] "
    "elif type == \"string\" and ($i | type) == \"string\" then _strindices($i) "
    "else .[$i] end; "
    "def index($i): indices($i) | .[0]; "
    "def rindex($i): indices($i) | .[-1:][0]; "
    "def _sbx_ltrimstr($x): ltrimstr($x); "
    "def ltrimstr($x): if type == \"string\" and ($x | type) == \"string\" "
    "then _sbx_ltrimstr($x) else . end; "
    "def _sbx_rtrimstr($x): rtrimstr($x); "
    "def rtrimstr($x): if type == \"string\" and ($x | type) == \"string\" "
    "then _sbx_rtrimstr($x) else . end; "
    "def _sbx_strftime(f): strftime(f); "
    "def strftime(f): if type == \"number\" then gmtime | _sbx_strftime(f) "
    "else _sbx_strftime(f) end; "
    "def todateiso8601: strftime(\"%Y-%m-%dT%H:%M:%SZ\"); "
    "def todate: todateiso8601; "
    "def get_search_list: [\"~/.jq\", \"$ORIGIN/../lib/jq\", \"$ORIGIN/lib\"]; "
    "def localtime: _sbx_q({\"\\u0000sbx\": 10, v: .}); "
    "def strflocaltime(f): f as $f | _sbx_q({\"\\u0000sbx\": 11, v: ., f: $f}); ";

/* Added after the prelude when the program mentions ENV, so that $ENV is
 * the sandbox's environment (an unbound $ENV would be the host's). Only
 * then: it turns a program made only of definitions into a syntax error. */
static const char jq_env_prefix[] = "$__sbx_env as $ENV | ";

/* ---- buffers ------------------------------------------------------------------------ */

int cmd_jq_buf_add(cmd_jq_buf *b, const void *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < b->len + n + 1) {
      if (ncap > SIZE_MAX / 2) return -ENOMEM;
      ncap *= 2;
    }
    char *nd = realloc(b->data, ncap);
    if (!nd) return -ENOMEM;
    b->data = nd;
    b->cap = ncap;
  }
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

int cmd_jq_buf_adds(cmd_jq_buf *b, const char *s) { return cmd_jq_buf_add(b, s, strlen(s)); }

void cmd_jq_buf_free(cmd_jq_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

size_t cmd_jq_budget(cmd_ctx *ctx) {
  uint64_t ms = ctx->max_string ? ctx->max_string : (64u << 20);
  uint64_t b = ms > (UINT64_MAX / 8) ? UINT64_MAX : ms * 8;
  if (b < (32u << 20)) b = 32u << 20;
  if (b > (1u << 30)) b = 1u << 30;
  return (size_t)b;
}

int cmd_jq_slurp(cmd_ctx *ctx, const char *path, char **data, size_t *len) {
  cmd_in *in = NULL;
  int rc = cmd_in_open(ctx, path, &in);
  if (rc < 0) return rc;
  rc = cmd_in_slurp(in, data, len);
  cmd_in_close(in);
  return rc;
}

int cmd_jq_file_arg(cmd_ctx *ctx, const char *opt, const char *name, const char *path,
                    char **data, cmd_jq_arg *arg) {
  size_t len = 0;
  *data = NULL;
  int rc = cmd_jq_slurp(ctx, path, data, &len);
  if (rc < 0) {
    cmd_err_raw(ctx, "jq: Bad JSON in %s %s %s: Could not open %s: %s\n", opt, name, path, path,
                cmd_strerror(rc));
    return rc;
  }
  int kind = !strcmp(opt, "--rawfile")   ? CMD_JQ_ARG_RAW
             : !strcmp(opt, "--argfile") ? CMD_JQ_ARG_ARGFILE
                                         : CMD_JQ_ARG_SLURP;
  *arg = (cmd_jq_arg){kind, name, *data, len, path};
  return 0;
}

int cmd_jq_program_file(cmd_ctx *ctx, const char *path, char **data, size_t *len) {
  int rc = cmd_jq_slurp(ctx, path, data, len);
  if (rc < 0) cmd_err_raw(ctx, "jq: Could not open %s: %s\n", path, cmd_strerror(rc));
  return rc;
}

/* ---- the job ------------------------------------------------------------------------- */

/* One stretch of the output queue: bytes [previous end, end) go to fd. */
typedef struct jq_seg {
  int fd;     /* 1 or 2 */
  size_t end; /* end offset in the queue */
} jq_seg;

/* J's emulation of jq_util_input_state over the files list. */
typedef struct jq_textin {
  int curr_file;             /* index of the next file to open */
  bool open;                 /* a file is open (M holds it) */
  bool eof, err;             /* feof / ferror of the open file */
  int err_errno;             /* the read error (positive) */
  jv current_filename;       /* string while a file is open, else invalid */
  unsigned long current_line;/* newline-terminated chunks read from it */
  int failures;              /* open and read errors */
  size_t blk_pos, blk_len;   /* unread bytes of job->blk */
  char buf[JQ_CHUNK];        /* the current chunk */
  int buf_valid_len;         /* its length */
  jv_parser *parser;         /* NULL for raw input */
  jv slurped;                /* the -s accumulator, or invalid */
} jq_textin;

struct cmd_jq_job {
  /* ---- the handoff (invariant 2) ---- */
  pthread_mutex_t mu;        /* protects turn, req, abandoned, exited */
  pthread_cond_t cv;         /* signalled when turn changes */
  int turn;                  /* TURN_M or TURN_J */
  int req;                   /* J's request while turn == TURN_M */
  bool abandoned;            /* M has left (invariant 4) */
  bool exited;               /* J has finished its work */
  struct cmd_jq_job *next_dead; /* the reaper list */
  pthread_t thread;          /* J */
  void *stack;               /* J's stack mapping (with the guard) */
  size_t stack_len;          /* its length */
  /* ---- stopping (invariant 3) ---- */
  _Atomic int stop;          /* STOP_* set by M, read by J */
  pthread_mutex_t halt_mu;   /* serializes jq_halt */
  jq_state *jq;              /* J's interpreter while it exists (under halt_mu) */
  jmp_buf oom;               /* J's exit when libjq runs out of memory */
  /* ---- request payloads ---- */
  const char *req_name;      /* OPEN/SLURP: the file name */
  int req_err;               /* OPEN/READ/SLURP: 0 or a negative errno */
  size_t req_len;            /* READ/SLURP: bytes */
  char *req_data;            /* SLURP: malloc'd contents, J frees */
  char blk[JQ_BLOCK];        /* READ: the bytes */
  /* ---- output queue (J appends, M writes at FLUSH/DONE) ---- */
  cmd_jq_buf q;              /* the bytes */
  jq_seg *segs;              /* where each fd's stretch ends */
  size_t nsegs, segcap;
  /* ---- configuration, owned copies (J may outlive M's buffers) ---- */
  char *name;                /* "jq" / "yq" */
  char *text;                /* prelude + program */
  size_t prefix_len;         /* length of the prelude part of text */
  cmd_jq_arg *args;          /* argument descriptors (strings owned) */
  int nargs;
  char **files;              /* input file names */
  int nfiles;
  char **env;                /* the sandbox environment ("K=V") */
  int nenv;
  cmd_jq_source source;      /* custom inputs (yq) */
  cmd_jq_formatter formatter;/* custom output (yq) */
  bool null_input, raw_input, slurp, seq, stream, raw_output, join_output,
      ascii_output, exit_status; /* the options */
  int dumpflags;             /* JV_PRINT_* */
  int source_error_status;   /* status after a source's own message */
  uint64_t max_string;       /* ctx->max_string */
  size_t max_index;          /* largest array index setpath may create */
  cmd_tz tz;                 /* the sandbox's zone (localtime) */
  /* ---- J's state ---- */
  jq_textin in;              /* text inputs */
  jv pending;                /* a channel query awaiting _input, or invalid */
  jv src_filename;           /* custom source: position for messages */
  unsigned long src_line;
  bool exit_exact;           /* a halt happened: statuses as is */
  int status;                /* J's exit status */
  int stop_seen;             /* the stop reason J acted on */
};

static pthread_mutex_t jq_dead_mu = PTHREAD_MUTEX_INITIALIZER;
static struct cmd_jq_job *jq_dead; /* abandoned jobs, joined by later runs */

static void job_free(struct cmd_jq_job *job) {
  if (job->stack) munmap(job->stack, job->stack_len);
  pthread_mutex_destroy(&job->mu);
  pthread_cond_destroy(&job->cv);
  pthread_mutex_destroy(&job->halt_mu);
  cmd_jq_buf_free(&job->q);
  free(job->segs);
  free(job->name);
  free(job->text);
  for (int i = 0; i < job->nargs; i++) {
    free((char *)job->args[i].name);
    free((char *)job->args[i].text);
    free((char *)job->args[i].file);
  }
  free(job->args);
  for (int i = 0; i < job->nfiles; i++) free(job->files[i]);
  free(job->files);
  for (int i = 0; i < job->nenv; i++) free(job->env[i]);
  free(job->env);
  free(job->req_data);
  free(job);
}

/* Joins the abandoned jobs whose thread has finished. */
static void jq_reap(void) {
  pthread_mutex_lock(&jq_dead_mu);
  struct cmd_jq_job **pp = &jq_dead;
  while (*pp) {
    struct cmd_jq_job *job = *pp;
    pthread_mutex_lock(&job->mu);
    bool done = job->exited;
    pthread_mutex_unlock(&job->mu);
    if (done) {
      *pp = job->next_dead;
      pthread_join(job->thread, NULL);
      job_free(job);
    } else {
      pp = &job->next_dead;
    }
  }
  pthread_mutex_unlock(&jq_dead_mu);
}

int cmd_jq_pending(void) {
  jq_reap();
  int n = 0;
  pthread_mutex_lock(&jq_dead_mu);
  for (struct cmd_jq_job *j = jq_dead; j; j = j->next_dead) n++;
  pthread_mutex_unlock(&jq_dead_mu);
  return n;
}

/* ---- J: handing the turn to M --------------------------------------------------------- */

/* Makes a request and waits for M's answer (not for REQ_DONE). Returns false
 * when M has abandoned the job: nothing was served. */
static bool j_call(struct cmd_jq_job *job, int req) {
  pthread_mutex_lock(&job->mu);
  if (job->abandoned) {
    pthread_mutex_unlock(&job->mu);
    return false;
  }
  job->req = req;
  job->turn = TURN_M;
  pthread_cond_broadcast(&job->cv);
  if (req != REQ_DONE)
    while (job->turn != TURN_J && !job->abandoned) pthread_cond_wait(&job->cv, &job->mu);
  bool ok = !job->abandoned;
  pthread_mutex_unlock(&job->mu);
  return ok;
}

static bool j_stopping(struct cmd_jq_job *job) {
  return atomic_load_explicit(&job->stop, memory_order_relaxed) != STOP_NONE;
}

bool cmd_jq_stopping(cmd_jq_job *job) { return j_stopping(job); }

/* Appends to the output queue for fd 1 or 2; flushes through M past 64 KiB.
 * Returns -1 when the job must stop (stop request, M gone, no memory). */
static int j_out(struct cmd_jq_job *job, int fd, const void *p, size_t n) {
  if (j_stopping(job)) return -1;
  if (n == 0) return 0;
  if (cmd_jq_buf_add(&job->q, p, n) < 0) return -1;
  if (job->nsegs && job->segs[job->nsegs - 1].fd == fd) {
    job->segs[job->nsegs - 1].end = job->q.len;
  } else {
    if (job->nsegs == job->segcap) {
      size_t ncap = job->segcap ? job->segcap * 2 : 16;
      jq_seg *ns = realloc(job->segs, ncap * sizeof *ns);
      if (!ns) return -1;
      job->segs = ns;
      job->segcap = ncap;
    }
    job->segs[job->nsegs++] = (jq_seg){fd, job->q.len};
  }
  if (job->q.len >= JQ_BLOCK) {
    if (!j_call(job, REQ_FLUSH)) return -1;
    if (j_stopping(job)) return -1;
  }
  return 0;
}

static int j_outs(struct cmd_jq_job *job, int fd, const char *s) {
  return j_out(job, fd, s, strlen(s));
}

static void j_errf(struct cmd_jq_job *job, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void j_errf(struct cmd_jq_job *job, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    j_out(job, 2, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) return;
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  j_out(job, 2, big, (size_t)n);
  free(big);
}

/* ---- J: printing values (jv_dump_term's layout) ------------------------------------- */

#define COL(c) ("\033[" c "m")
#define COLRESET "\033[0m"
#define FIELD_COLOR COL("34;1")
/* Colours by kind, in jv_print.c's order: null false true numbers strings
 * arrays objects. */
static const char *const jq_colors[] = {COL("1;30"), COL("0;39"), COL("0;39"), COL("0;39"),
                                        COL("0;32"), COL("1;39"), COL("1;39")};

static const char *kind_color(jv_kind k) {
  switch (k) {
    case JV_KIND_NULL: return jq_colors[0];
    case JV_KIND_FALSE: return jq_colors[1];
    case JV_KIND_TRUE: return jq_colors[2];
    case JV_KIND_NUMBER: return jq_colors[3];
    case JV_KIND_STRING: return jq_colors[4];
    case JV_KIND_ARRAY: return jq_colors[5];
    case JV_KIND_OBJECT: return jq_colors[6];
    default: return NULL;
  }
}

/* A printing target: the output queue (fd) or a buffer (the size check and
 * formatter-free uses). */
typedef struct jq_sink {
  struct cmd_jq_job *job; /* for the queue and stop checks */
  int fd;                 /* 1 or 2; 0 = into buf */
  cmd_jq_buf *buf;        /* when fd == 0 */
  unsigned long nodes;    /* nodes printed (stop checks every 1024) */
  bool failed;            /* stopped or out of memory */
} jq_sink;

static void sink_put(jq_sink *s, const char *p, size_t n) {
  if (s->failed) return;
  int r = s->fd ? j_out(s->job, s->fd, p, n) : cmd_jq_buf_add(s->buf, p, n);
  if (r < 0) s->failed = true;
}
static void sink_puts(jq_sink *s, const char *p) { sink_put(s, p, strlen(p)); }

static void sink_indent(jq_sink *s, int n, int flags) {
  static const char spaces[] = "                                                                ";
  static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
  long total;
  const char *fill;
  size_t fill_len;
  if (flags & JV_PRINT_TAB) {
    total = n;
    fill = tabs;
    fill_len = sizeof tabs - 1;
  } else {
    total = (long)n * ((flags & (JV_PRINT_SPACE0 | JV_PRINT_SPACE1 | JV_PRINT_SPACE2)) >> 8);
    fill = spaces;
    fill_len = sizeof spaces - 1;
  }
  while (total > 0 && !s->failed) {
    size_t k = (size_t)total < fill_len ? (size_t)total : fill_len;
    sink_put(s, fill, k);
    total -= (long)k;
  }
}

/* The text of a scalar (number or string) as jv_dump_string gives it. */
static void sink_scalar(jq_sink *s, jv x, int flags) {
  jv t = jv_dump_string(jv_copy(x), flags & JV_PRINT_ASCII);
  sink_put(s, jv_string_value(t), (size_t)jv_string_length_bytes(jv_copy(t)));
  jv_free(t);
}

/* Prints x (consumed) at depth `indent`, exactly like jv_dump_term. The
 * recursion is at most JQ_MAX_PRINT_DEPTH + 1 deep. */
static void sink_dump(jq_sink *s, jv x, int flags, int indent) {
  if (s->failed) {
    jv_free(x);
    return;
  }
  if ((++s->nodes & 1023) == 0 && s->job && j_stopping(s->job)) s->failed = true;
  const char *color = (flags & JV_PRINT_COLOR) ? kind_color(jv_get_kind(x)) : NULL;
  if (color) sink_puts(s, color);
  bool pretty = flags & JV_PRINT_PRETTY;
  if (indent > JQ_MAX_PRINT_DEPTH) {
    sink_puts(s, "<stripped: exceeds max depth>");
  } else {
    switch (jv_get_kind(x)) {
      case JV_KIND_NULL: sink_puts(s, "null"); break;
      case JV_KIND_FALSE: sink_puts(s, "false"); break;
      case JV_KIND_TRUE: sink_puts(s, "true"); break;
      case JV_KIND_NUMBER:
      case JV_KIND_STRING: sink_scalar(s, x, flags); break;
      case JV_KIND_ARRAY: {
        int n = jv_array_length(jv_copy(x));
        if (n == 0) {
          sink_puts(s, "[]");
          break;
        }
        sink_puts(s, "[");
        if (pretty) {
          sink_puts(s, "\n");
          sink_indent(s, indent + 1, flags);
        }
        for (int i = 0; i < n && !s->failed; i++) {
          if (i != 0) {
            if (pretty) {
              sink_puts(s, ",\n");
              sink_indent(s, indent + 1, flags);
            } else {
              sink_puts(s, ",");
            }
          }
          sink_dump(s, jv_array_get(jv_copy(x), i), flags, indent + 1);
          if (color) sink_puts(s, color);
        }
        if (pretty) {
          sink_puts(s, "\n");
          sink_indent(s, indent, flags);
        }
        if (color) sink_puts(s, color);
        sink_puts(s, "]");
        break;
      }
      case JV_KIND_OBJECT: {
        if (jv_object_length(jv_copy(x)) == 0) {
          sink_puts(s, "{}");
          break;
        }
        sink_puts(s, "{");
        if (pretty) {
          sink_puts(s, "\n");
          sink_indent(s, indent + 1, flags);
        }
        bool sorted = flags & JV_PRINT_SORTED;
        jv keys = sorted ? jv_keys(jv_copy(x)) : jv_null();
        int nkeys = sorted ? jv_array_length(jv_copy(keys)) : 0;
        int it = sorted ? 0 : jv_object_iter(x);
        for (bool first = true; !s->failed; first = false) {
          jv key, value;
          if (sorted) {
            if (!first) it++;
            if (it >= nkeys) break;
            key = jv_array_get(jv_copy(keys), it);
            value = jv_object_get(jv_copy(x), jv_copy(key));
          } else {
            if (!first) it = jv_object_iter_next(x, it);
            if (!jv_object_iter_valid(x, it)) break;
            key = jv_object_iter_key(x, it);
            value = jv_object_iter_value(x, it);
          }
          if (!first) {
            if (pretty) {
              sink_puts(s, ",\n");
              sink_indent(s, indent + 1, flags);
            } else {
              sink_puts(s, ",");
            }
          }
          if (color) sink_puts(s, COLRESET);
          if (color) sink_puts(s, FIELD_COLOR);
          sink_scalar(s, key, flags);
          jv_free(key);
          if (color) sink_puts(s, COLRESET);
          if (color) sink_puts(s, color);
          sink_puts(s, pretty ? ": " : ":");
          if (color) sink_puts(s, COLRESET);
          sink_dump(s, value, flags, indent + 1);
          if (color) sink_puts(s, color);
        }
        jv_free(keys);
        if (pretty) {
          sink_puts(s, "\n");
          sink_indent(s, indent, flags);
        }
        if (color) sink_puts(s, color);
        sink_puts(s, "}");
        break;
      }
      default: sink_puts(s, "<invalid>"); break;
    }
  }
  jv_free(x);
  if (color) sink_puts(s, COLRESET);
}

/* Prints x (consumed) to fd 1 or 2. Returns -1 when the job must stop. */
static int j_dump(struct cmd_jq_job *job, int fd, jv x, int flags) {
  jq_sink s = {job, fd, NULL, 0, false};
  sink_dump(&s, x, flags, 0);
  return s.failed ? -1 : 0;
}

/* The compact text of x (consumed) in a malloc'd buffer (messages). */
static char *j_dump_text(struct cmd_jq_job *job, jv x, int flags) {
  cmd_jq_buf b = {0};
  jq_sink s = {job, 0, &b, 0, false};
  sink_dump(&s, x, flags, 0);
  if (s.failed || !b.data) {
    free(b.data);
    return strdup("");
  }
  return b.data;
}

/* A memo of container sizes for j_longer_than, keyed by libjq's node
 * identity (the pointer plus the array window). Keys are borrowed: every
 * node stays alive while the walked value does. */
typedef struct size_memo {
  struct size_memo_slot {
    const void *ptr;        /* node, NULL = empty slot */
    unsigned offset;        /* array slice window */
    int size;
    uint64_t bytes;         /* its text length (saturated) */
  } *slots;
  size_t cap, used;         /* slots allocated / filled (cap a power of 2) */
} size_memo;

static size_t memo_hash(const void *p, unsigned off, int size, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull ^ ((uint64_t)off << 32 | (unsigned)size);
  h ^= h >> 29;
  return (size_t)(h * 0xbf58476d1ce4e5b9ull >> 7) & (cap - 1);
}

static bool memo_get(size_memo *m, jv v, uint64_t *bytes) {
  if (!m->cap) return false;
  for (size_t i = memo_hash(v.u.ptr, v.offset, v.size, m->cap);; i = (i + 1) & (m->cap - 1)) {
    struct size_memo_slot *sl = &m->slots[i];
    if (!sl->ptr) return false;
    if (sl->ptr == v.u.ptr && sl->offset == v.offset && sl->size == v.size) {
      *bytes = sl->bytes;
      return true;
    }
  }
}

static bool memo_put(size_memo *m, jv v, uint64_t bytes) {
  if ((m->used + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 256;
    struct size_memo_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns) return false;
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->slots[i].ptr) continue;
      size_t j = memo_hash(m->slots[i].ptr, m->slots[i].offset, m->slots[i].size, ncap);
      while (ns[j].ptr) j = (j + 1) & (ncap - 1);
      ns[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
  }
  size_t i = memo_hash(v.u.ptr, v.offset, v.size, m->cap);
  while (m->slots[i].ptr) i = (i + 1) & (m->cap - 1);
  m->slots[i] = (struct size_memo_slot){v.u.ptr, v.offset, v.size, bytes};
  m->used++;
  return true;
}

/* The compact text length of a scalar (a lower bound for numbers). */
static uint64_t scalar_len(jv v) {
  switch (jv_get_kind(v)) {
    case JV_KIND_STRING: return (uint64_t)jv_string_length_bytes(jv_copy(v)) + 2;
    case JV_KIND_NUMBER: return 1;
    case JV_KIND_FALSE: return 5;
    default: return 4;
  }
}

/*
 * Whether the compact text of x (borrowed) is longer than `limit` bytes.
 * Containers are measured once each (memoized by identity), so a value
 * built by doubling ([., .] sixty times) is measured in sixty steps though
 * its text is 2^60 long. Iterative (values can be deep); checks the stop
 * flag; counts every shared reference as printed.
 */
static bool j_longer_than(struct cmd_jq_job *job, jv x, uint64_t limit) {
  jv_kind k = jv_get_kind(x);
  if (k != JV_KIND_ARRAY && k != JV_KIND_OBJECT) return scalar_len(x) > limit;
  typedef struct {
    jv node;      /* the container (a copy) */
    jv items;     /* its values: the array itself, or an object's values */
    int i, n;     /* next item, count */
    uint64_t acc; /* text so far */
  } frame;
  size_memo memo = {0};
  size_t cap = 64, depth = 0;
  frame *st = malloc(cap * sizeof *st);
  bool over = true; /* on allocation failure: refuse */
  unsigned long steps = 0;
  jv next = jv_copy(x);
  if (!st) goto out;
  for (;;) {
    if (jv_is_valid(next)) {
      /* enter a container */
      if (depth == cap) {
        frame *ns = realloc(st, cap * 2 * sizeof *ns);
        if (!ns) {
          jv_free(next);
          goto out;
        }
        st = ns;
        cap *= 2;
      }
      frame *f = &st[depth++];
      f->node = next;
      f->acc = 2;
      if (jv_get_kind(next) == JV_KIND_OBJECT) {
        f->items = jv_array();
        jv_object_foreach(next, key, val) {
          f->acc += (uint64_t)jv_string_length_bytes(key) + 3; /* "key": */
          f->items = jv_array_append(f->items, val);
        }
      } else {
        f->items = jv_copy(next);
      }
      f->i = 0;
      f->n = jv_array_length(jv_copy(f->items));
      next = jv_invalid();
    }
    if (depth == 0) break;
    frame *f = &st[depth - 1];
    if ((++steps & 4095) == 0 && j_stopping(job)) goto out;
    if (f->acc > limit) goto out;
    if (f->i < f->n) {
      if (f->i > 0) f->acc++; /* comma */
      jv child = jv_array_get(jv_copy(f->items), f->i++);
      jv_kind ck = jv_get_kind(child);
      uint64_t known;
      if (ck != JV_KIND_ARRAY && ck != JV_KIND_OBJECT) {
        f->acc += scalar_len(child);
        jv_free(child);
      } else if (memo_get(&memo, child, &known)) {
        f->acc += known;
        jv_free(child);
      } else {
        next = child;
      }
      continue;
    }
    /* the container is complete */
    uint64_t bytes = f->acc;
    if (!memo_put(&memo, f->node, bytes)) goto out;
    jv_free(f->node);
    jv_free(f->items);
    depth--;
    if (depth == 0) {
      over = bytes > limit;
      break;
    }
    st[depth - 1].acc += bytes;
  }
out:
  while (depth > 0) {
    depth--;
    jv_free(st[depth].node);
    jv_free(st[depth].items);
  }
  free(st);
  free(memo.slots);
  return over;
}

/* ---- J: text inputs (jq_util_input) ----------------------------------------------------- */

/* fgets(buf, 4096, current file): up to 4095 bytes, through '\n'. Sets eof
 * when a read returns nothing, err on a read error. Returns the count. */
static int ti_fgets(struct cmd_jq_job *job, jq_textin *ti) {
  int n = 0;
  while (n < JQ_CHUNK - 1) {
    if (ti->blk_pos == ti->blk_len) {
      if (ti->eof || ti->err) break;
      if (!j_call(job, REQ_READ) || j_stopping(job)) {
        ti->eof = true;
        break;
      }
      if (job->req_err < 0) {
        ti->err = true;
        ti->err_errno = -job->req_err;
        break;
      }
      ti->blk_pos = 0;
      ti->blk_len = job->req_len;
      if (ti->blk_len == 0) {
        ti->eof = true;
        break;
      }
    }
    size_t avail = ti->blk_len - ti->blk_pos, want = (size_t)(JQ_CHUNK - 1 - n);
    size_t k = avail < want ? avail : want;
    const char *src = job->blk + ti->blk_pos;
    const char *nl = memchr(src, '\n', k);
    if (nl) k = (size_t)(nl - src) + 1;
    memcpy(ti->buf + n, src, k);
    n += (int)k;
    ti->blk_pos += k;
    if (nl) break;
  }
  ti->buf[n] = '\0';
  if (n == 0 && ti->err) return 0;
  return n;
}

/* jq_util_input_read_more: moves to the next file when the current one is
 * done, reads one chunk. Returns "is last": no more files and the current
 * one is done. */
static bool ti_read_more(struct cmd_jq_job *job) {
  jq_textin *ti = &job->in;
  if (!ti->open || ti->eof || ti->err) {
    if (ti->open && ti->err) j_errf(job, "Input error: %s\n", cmd_strerror(ti->err_errno));
    if (ti->open) {
      j_call(job, REQ_CLOSE);
      ti->open = false;
      jv_free(ti->current_filename);
      ti->current_filename = jv_invalid();
      ti->current_line = 0;
    }
    if (ti->curr_file < job->nfiles) {
      const char *f = job->files[ti->curr_file++];
      ti->eof = ti->err = false;
      ti->blk_pos = ti->blk_len = 0;
      job->req_name = f;
      bool served = j_call(job, REQ_OPEN);
      int err = served ? job->req_err : -ECANCELED;
      if (err == -EISDIR) {
        /* fopen() of a directory succeeds; the first read fails */
        ti->open = true;
        ti->err = true;
        ti->err_errno = EISDIR;
        ti->failures++;
        ti->current_filename = jv_string(strcmp(f, "-") == 0 ? "<stdin>" : f);
      } else if (err < 0) {
        if (err != -ECANCELED)
          j_errf(job, "jq: error: Could not open file %s: %s\n", f, cmd_strerror(err));
        ti->failures++;
      } else {
        ti->open = true;
        ti->current_filename = jv_string(strcmp(f, "-") == 0 ? "<stdin>" : f);
      }
      ti->current_line = 0;
    }
  }
  ti->buf[0] = '\0';
  ti->buf_valid_len = 0;
  if (ti->open && !ti->eof && !ti->err) {
    int n = ti_fgets(job, ti);
    if (n == 0) {
      ti->buf[0] = '\0';
      if (ti->err) ti->failures++;
    } else {
      const char *p = memchr(ti->buf, '\n', (size_t)n);
      if (p) ti->current_line++;
      if (!p && ti->parser) {
        ti->buf_valid_len = (int)strnlen(ti->buf, (size_t)n);
      } else if (!p && (ti->eof || ti->err)) {
        /* the last non-NUL byte of the (zeroed) buffer */
        int last = 0;
        for (int i = 0; i < n; i++)
          if (ti->buf[i] != '\0') last = i;
        ti->buf_valid_len = last + 1;
      } else if (!p) {
        ti->buf_valid_len = JQ_CHUNK - 1;
      } else {
        ti->buf_valid_len = (int)(p - ti->buf) + 1;
      }
    }
  }
  return ti->curr_file == job->nfiles && (!ti->open || ti->eof || ti->err);
}

/* jq_util_input_next_input. */
static jv ti_next(struct cmd_jq_job *job) {
  jq_textin *ti = &job->in;
  bool is_last = false, has_more = false;
  jv value = jv_invalid();
  do {
    if (j_stopping(job)) {
      jv_free(value);
      return jv_invalid();
    }
    if (ti->parser == NULL) {
      is_last = ti_read_more(job);
      if (ti->buf_valid_len) {
        if (jv_is_valid(ti->slurped)) {
          ti->slurped = jv_string_concat(ti->slurped, jv_string_sized(ti->buf, ti->buf_valid_len));
        } else {
          if (!jv_is_valid(value)) value = jv_string("");
          if (ti->buf[ti->buf_valid_len - 1] == '\n') {
            ti->buf[ti->buf_valid_len - 1] = '\0';
            return jv_string_concat(value, jv_string_sized(ti->buf, ti->buf_valid_len - 1));
          }
          value = jv_string_concat(value, jv_string_sized(ti->buf, ti->buf_valid_len));
          ti->buf[0] = '\0';
          ti->buf_valid_len = 0;
        }
      }
    } else {
      if (jv_parser_remaining(ti->parser) == 0) {
        is_last = ti_read_more(job);
        jv_parser_set_buf(ti->parser, ti->buf, ti->buf_valid_len, !is_last);
      }
      value = jv_parser_next(ti->parser);
      if (jv_is_valid(ti->slurped)) {
        has_more = jv_parser_remaining(ti->parser);
        if (jv_is_valid(value)) {
          ti->slurped = jv_array_append(ti->slurped, value);
          value = jv_invalid();
        } else if (jv_invalid_has_msg(jv_copy(value))) {
          return value;
        }
      } else if (jv_is_valid(value) || jv_invalid_has_msg(jv_copy(value))) {
        return value;
      }
    }
  } while (!is_last || has_more);
  if (jv_is_valid(ti->slurped)) {
    jv_free(value);
    value = ti->slurped;
    ti->slurped = jv_invalid();
  }
  return value;
}

/* The next input value for the main loop and for input/inputs. */
static jv j_next_input(struct cmd_jq_job *job) {
  if (job->source.next) {
    if (j_stopping(job)) return jv_invalid();
    return job->source.next(job, job->source.ud);
  }
  return ti_next(job);
}

static jv j_position(struct cmd_jq_job *job) {
  jv name = job->source.next ? job->src_filename : job->in.current_filename;
  unsigned long line = job->source.next ? job->src_line : job->in.current_line;
  if (jv_get_kind(name) != JV_KIND_STRING) return jv_string("<unknown>");
  return jv_string_fmt("%s:%lu", jv_string_value(name), line);
}

void cmd_jq_set_position(cmd_jq_job *job, const char *name, unsigned long line) {
  jv_free(job->src_filename);
  job->src_filename = name ? jv_string(name) : jv_invalid();
  job->src_line = line;
}

int cmd_jq_read_file(cmd_jq_job *job, const char *name, char **data, size_t *len) {
  if (j_stopping(job)) return -ECANCELED;
  job->req_name = name;
  if (!j_call(job, REQ_SLURP)) return -ECANCELED;
  if (job->req_err < 0) return job->req_err;
  *data = job->req_data;
  *len = job->req_len;
  job->req_data = NULL;
  return 0;
}

/* ---- J: the channel ----------------------------------------------------------------- */

static void j_halt(struct cmd_jq_job *job, jv code, jv msg) {
  pthread_mutex_lock(&job->halt_mu);
  if (!jq_halted(job->jq)) {
    jq_halt(job->jq, code, msg);
  } else {
    jv_free(code);
    jv_free(msg);
  }
  pthread_mutex_unlock(&job->halt_mu);
}

/* tm2jv of jq 1.6. */
static jv tm_to_jv(const struct tm *tm) {
  return JV_ARRAY(jv_number(tm->tm_year + 1900), jv_number(tm->tm_mon), jv_number(tm->tm_mday),
                  jv_number(tm->tm_hour), jv_number(tm->tm_min), jv_number(tm->tm_sec),
                  jv_number(tm->tm_wday), jv_number(tm->tm_yday));
}

/* jv2tm of jq 1.6: an array of numbers to broken-down time (consumes a). */
static bool jv_to_tm(jv a, struct tm *tm) {
  memset(tm, 0, sizeof *tm);
  int *fields[] = {&tm->tm_year, &tm->tm_mon, &tm->tm_mday, &tm->tm_hour,
                   &tm->tm_min,  &tm->tm_sec, &tm->tm_wday, &tm->tm_yday};
  for (int i = 0; i < 8; i++) {
    jv n = jv_array_get(jv_copy(a), i);
    if (jv_get_kind(n) != JV_KIND_NUMBER) {
      jv_free(n);
      jv_free(a);
      return false;
    }
    double d = jv_number_value(n);
    *fields[i] = d > INT_MAX || d < INT_MIN || d != d ? 0 : (int)d;
    jv_free(n);
  }
  tm->tm_year -= 1900;
  jv_free(a);
  return true;
}

static jv j_localtime(struct cmd_jq_job *job, jv a) {
  if (jv_get_kind(a) != JV_KIND_NUMBER) {
    jv_free(a);
    return jv_invalid_with_msg(jv_string("localtime() requires numeric inputs"));
  }
  double fsecs = jv_number_value(a);
  jv_free(a);
  if (!(fsecs > -1e17 && fsecs < 1e17))
    return jv_invalid_with_msg(
        jv_string("error converting number of seconds since epoch to datetime"));
  int64_t secs = (int64_t)fsecs;
  struct tm tm;
  if (!cmd_time_local(&job->tz, secs, &tm))
    return jv_invalid_with_msg(
        jv_string("error converting number of seconds since epoch to datetime"));
  jv r = tm_to_jv(&tm);
  return jv_array_set(r, 5, jv_number(tm.tm_sec + (fsecs - floor(fsecs))));
}

static jv j_strflocaltime(struct cmd_jq_job *job, jv a, jv b) {
  if (jv_get_kind(a) == JV_KIND_NUMBER) {
    a = j_localtime(job, a);
    if (!jv_is_valid(a)) {
      jv_free(b);
      return a;
    }
  } else if (jv_get_kind(a) != JV_KIND_ARRAY) {
    jv_free(a);
    jv_free(b);
    return jv_invalid_with_msg(jv_string("strflocaltime/1 requires parsed datetime inputs"));
  } else if (jv_get_kind(b) != JV_KIND_STRING) {
    jv_free(a);
    jv_free(b);
    return jv_invalid_with_msg(jv_string("strflocaltime/1 requires a string format"));
  }
  if (jv_get_kind(b) != JV_KIND_STRING) {
    jv_free(a);
    jv_free(b);
    return jv_invalid_with_msg(jv_string("strflocaltime/1 requires a string format"));
  }
  struct tm tm;
  if (!jv_to_tm(a, &tm)) {
    jv_free(b);
    return jv_invalid_with_msg(jv_string("strflocaltime/1 requires parsed datetime inputs"));
  }
  /* As jq: the zone name of standard time, offset +0000 (jv2tm keeps no
   * zone), and a buffer of strlen(fmt) + 100 bytes. */
  tm.tm_zone = job->tz.std_name;
  const char *fmt = jv_string_value(b);
  size_t cap = strlen(fmt) + 100;
  char *out = malloc(cap);
  if (!out) {
    jv_free(b);
    return jv_invalid_with_msg(jv_string("strflocaltime/1: out of memory"));
  }
  size_t n = strftime(out, cap, fmt, &tm);
  jv r = (n == 0 && *fmt != '\0')
             ? jv_invalid_with_msg(jv_string("strflocaltime/1: unknown system failure"))
             : jv_string_sized(out, (int)n);
  free(out);
  jv_free(b);
  return r;
}

/* Checks a setpath path: array indexes beyond max_index
 * would make libjq allocate (or overflow) an array of that size. */
static bool path_ok(struct cmd_jq_job *job, jv p) {
  bool ok = true;
  if (jv_get_kind(p) != JV_KIND_ARRAY) {
    jv_free(p);
    return true; /* the builtin reports the type error */
  }
  jv_array_foreach(p, i, k) {
    if (jv_get_kind(k) == JV_KIND_NUMBER && jv_number_value(k) > (double)job->max_index) ok = false;
    jv_free(k);
    if (!ok) break;
  }
  jv_free(p);
  return ok;
}

/* Answers a channel query (consumed). */
static jv j_channel(struct cmd_jq_job *job, jv q) {
  jv opv = jv_object_get(jv_copy(q), jv_string_sized(JQ_MARK, JQ_MARK_LEN));
  int op = jv_get_kind(opv) == JV_KIND_NUMBER ? (int)jv_number_value(opv) : 0;
  jv_free(opv);
  jv v = jv_object_get(jv_copy(q), jv_string("v"));
  jv r = jv_null();
  switch (op) {
    case OP_FILENAME: {
      jv name = job->source.next ? job->src_filename : job->in.current_filename;
      r = jv_get_kind(name) == JV_KIND_STRING ? jv_copy(name) : jv_null();
      break;
    }
    case OP_LINE:
      r = jv_number(job->source.next ? job->src_line : job->in.current_line);
      break;
    case OP_STDERR:
      j_dump(job, 2, jv_copy(v), 0);
      r = jv_copy(v);
      break;
    case OP_HALT:
      j_halt(job, jv_invalid(), jv_invalid());
      r = jv_true();
      break;
    case OP_HALT_ERROR:
      j_halt(job, jv_object_get(jv_copy(q), jv_string("c")), jv_copy(v));
      r = jv_true();
      break;
    case OP_SIZE:
      if (j_longer_than(job, v, job->max_string))
        r = jv_invalid_with_msg(jv_string_fmt(
            "Cannot convert to text a value longer than %llu bytes (the sandbox's string limit)",
            (unsigned long long)job->max_string));
      else
        r = jv_copy(v);
      break;
    case OP_REPEAT: {
      jv a = jv_object_get(jv_copy(q), jv_string("a")), b = jv_object_get(jv_copy(q), jv_string("b"));
      jv s = jv_get_kind(a) == JV_KIND_STRING ? a : b, n = jv_get_kind(a) == JV_KIND_STRING ? b : a;
      double times = jv_number_value(n);
      double bytes = (double)jv_string_length_bytes(jv_copy(s)) * (times > 0 ? times : 0);
      if (bytes > (double)job->max_string) r = jv_invalid_with_msg(jv_string("Repeat string result too long"));
      jv_free(a);
      jv_free(b);
      break;
    }
    case OP_SETPATH:
      if (!path_ok(job, jv_copy(v))) r = jv_invalid_with_msg(jv_string("Array index too large"));
      break;
    case OP_LOCALTIME: r = j_localtime(job, jv_copy(v)); break;
    case OP_STRFLOCALTIME:
      r = j_strflocaltime(job, jv_copy(v), jv_object_get(jv_copy(q), jv_string("f")));
      break;
    default: break;
  }
  jv_free(v);
  jv_free(q);
  return r;
}

static bool is_query(jv v) {
  if (jv_get_kind(v) != JV_KIND_OBJECT) return false;
  return jv_object_has(jv_copy(v), jv_string_sized(JQ_MARK, JQ_MARK_LEN));
}

/* libjq's debug callback: a channel query, or `debug`'s ["DEBUG:",v]. */
static void j_debug_cb(void *ud, jv v) {
  struct cmd_jq_job *job = ud;
  if (is_query(v)) {
    jv_free(job->pending);
    job->pending = v;
    return;
  }
  j_dump(job, 2, JV_ARRAY(jv_string("DEBUG:"), v), job->dumpflags & ~JV_PRINT_PRETTY);
  j_outs(job, 2, "\n");
}

/* libjq's input callback: the answer to a pending query, or the next input. */
static jv j_input_cb(jq_state *jq, void *ud) {
  struct cmd_jq_job *job = ud;
  if (jv_is_valid(job->pending)) {
    jv q = job->pending;
    job->pending = jv_invalid();
    return j_channel(job, q);
  }
  return j_next_input(job);
}

/* libjq's error callback (compile errors): the text without our prelude. */
static void j_error_cb(void *ud, jv msg) {
  struct cmd_jq_job *job = ud;
  msg = jq_format_error(msg);
  const char *s = jv_string_value(msg);
  size_t n = (size_t)jv_string_length_bytes(jv_copy(msg));
  const char *hit = job->prefix_len ? memmem(s, n, job->text, job->prefix_len) : NULL;
  if (hit) {
    /* "... line 1:\n" + prelude + line + one space per column (jq 1.6's
     * missing caret): drop the prelude and as many trailing spaces */
    size_t head = (size_t)(hit - s), tail = n - head - job->prefix_len;
    const char *rest = hit + job->prefix_len;
    size_t spaces = 0;
    while (spaces < tail && rest[tail - 1 - spaces] == ' ') spaces++;
    size_t cut = spaces < job->prefix_len ? spaces : job->prefix_len;
    j_out(job, 2, s, head);
    j_out(job, 2, rest, tail - cut);
  } else {
    j_out(job, 2, s, n);
  }
  j_outs(job, 2, "\n");
  jv_free(msg);
}

static void j_nomem(void *ud) {
  struct cmd_jq_job *job = ud;
  longjmp(job->oom, 1);
}

/* ---- J: arguments ----------------------------------------------------------------------- */

/* jv_load_file(name, raw) over bytes M already read. */
static jv parse_texts(const char *data, size_t len) {
  jv_parser *p = jv_parser_new(0);
  jv out = jv_array();
  size_t pos = 0;
  jv v;
  bool fed_all = false;
  while (!fed_all) {
    size_t k = len - pos > JQ_CHUNK ? JQ_CHUNK : len - pos;
    fed_all = pos + k >= len;
    jv_parser_set_buf(p, data + pos, (int)k, !fed_all);
    pos += k;
    while (jv_is_valid(v = jv_parser_next(p))) out = jv_array_append(out, v);
    if (jv_invalid_has_msg(jv_copy(v))) {
      jv_free(out);
      out = v;
      break;
    }
    jv_free(v);
  }
  jv_parser_free(p);
  return out;
}

/* Builds $ARGS and the named variables. Returns false after printing jq's
 * message (status in job->status). */
static bool j_build_args(struct cmd_jq_job *job, jv *named_out, jv *positional_out) {
  jv named = jv_object(), pos = jv_array();
  for (int i = 0; i < job->nargs; i++) {
    const cmd_jq_arg *a = &job->args[i];
    jv v;
    switch (a->kind) {
      case CMD_JQ_ARG_STRING: v = jv_string_sized(a->text, (int)a->len); break;
      case CMD_JQ_ARG_JSON:
        v = jv_parse_sized(a->text, (int)a->len);
        if (!jv_is_valid(v)) {
          jv_free(v);
          j_errf(job,
                 "%s: invalid JSON text passed to --%s\n"
                 "Use %s --help for help with command-line options,\n"
                 "or see the jq manpage, or online docs  at https://stedolan.github.io/jq\n",
                 job->name, a->name ? "argjson" : "jsonargs", job->name);
          goto fail;
        }
        break;
      case CMD_JQ_ARG_RAW: v = jv_string_sized(a->text, (int)a->len); break;
      default: {
        v = parse_texts(a->text, a->len);
        if (!jv_is_valid(v)) {
          jv msg = jv_invalid_get_msg(v);
          j_errf(job, "%s: Bad JSON in --%s %s %s: %s\n", job->name,
                 a->kind == CMD_JQ_ARG_SLURP ? "slurpfile" : "argfile", a->name, a->file,
                 jv_string_value(msg));
          jv_free(msg);
          goto fail;
        }
        if (a->kind == CMD_JQ_ARG_ARGFILE && jv_array_length(jv_copy(v)) == 1)
          v = jv_array_get(v, 0);
        break;
      }
    }
    if (a->name)
      named = jv_object_set(named, jv_string(a->name), v);
    else
      pos = jv_array_append(pos, v);
  }
  *named_out = named;
  *positional_out = pos;
  return true;
fail:
  jv_free(named);
  jv_free(pos);
  job->status = 2;
  return false;
}

static jv j_env_object(struct cmd_jq_job *job) {
  jv env = jv_object();
  for (int i = 0; i < job->nenv; i++) {
    const char *e = job->env[i], *eq = strchr(e, '=');
    if (!eq) continue;
    env = jv_object_set(env, jv_string_sized(e, (int)(eq - e)), jv_string(eq + 1));
  }
  return env;
}

/* ---- J: running ------------------------------------------------------------------------ */

/* main.c's process(): runs the program on one input, prints its outputs.
 * Returns jq's "ret" (0, 5, 11 false/null last, 14 no output, halt code). */
static int j_process(struct cmd_jq_job *job, jv value) {
  jq_state *jq = job->jq;
  int ret = 14;
  pthread_mutex_lock(&job->halt_mu);
  if (j_stopping(job)) {
    pthread_mutex_unlock(&job->halt_mu);
    jv_free(value);
    return 5;
  }
  jq_start(jq, value, 0);
  pthread_mutex_unlock(&job->halt_mu);
  jv result;
  while (jv_is_valid(result = jq_next(jq))) {
    if (j_stopping(job)) {
      jv_free(result);
      return 5;
    }
    int r = 0;
    if (job->formatter.format && !(job->raw_output && jv_get_kind(result) == JV_KIND_STRING)) {
      ret = (jv_get_kind(result) == JV_KIND_FALSE || jv_get_kind(result) == JV_KIND_NULL) ? 11 : 0;
      cmd_jq_buf text = {0}, err = {0};
      if (job->formatter.format(job->formatter.ud, result, &text, &err) < 0) {
        j_out(job, 1, text.data, text.len);
        j_errf(job, "%s: error: %s\n", job->name, err.data ? err.data : "cannot format");
        cmd_jq_buf_free(&text);
        cmd_jq_buf_free(&err);
        return 5;
      }
      r = j_out(job, 1, text.data, text.len);
      cmd_jq_buf_free(&text);
      cmd_jq_buf_free(&err);
      if (r < 0) return 5;
      continue; /* the formatter ends its own lines */
    }
    if (job->raw_output && jv_get_kind(result) == JV_KIND_STRING) {
      if (job->ascii_output)
        r = j_dump(job, 1, result, JV_PRINT_ASCII);
      else {
        r = j_out(job, 1, jv_string_value(result), (size_t)jv_string_length_bytes(jv_copy(result)));
        jv_free(result);
      }
      ret = 0;
    } else {
      ret = (jv_get_kind(result) == JV_KIND_FALSE || jv_get_kind(result) == JV_KIND_NULL) ? 11 : 0;
      if (job->seq) r = j_out(job, 1, "\036", 1);
      if (r == 0) r = j_dump(job, 1, result, job->dumpflags);
      else jv_free(result);
    }
    if (r == 0 && !job->join_output) r = j_out(job, 1, "\n", 1);
    if (r < 0) return 5;
  }
  if (j_stopping(job)) {
    jv_free(result);
    return 5;
  }
  if (jq_halted(jq)) {
    job->exit_exact = true;
    jv code = jq_get_exit_code(jq);
    if (!jv_is_valid(code))
      ret = 0;
    else if (jv_get_kind(code) == JV_KIND_NUMBER)
      ret = (int)jv_number_value(code);
    else
      ret = 5;
    jv_free(code);
    jv msg = jq_get_error_message(jq);
    if (jv_get_kind(msg) == JV_KIND_STRING) {
      j_out(job, 2, jv_string_value(msg), (size_t)jv_string_length_bytes(jv_copy(msg)));
      jv_free(msg);
    } else if (jv_get_kind(msg) == JV_KIND_NULL || !jv_is_valid(msg)) {
      jv_free(msg);
    } else {
      j_dump(job, 2, msg, 0);
      j_outs(job, 2, "\n");
    }
  } else if (jv_invalid_has_msg(jv_copy(result))) {
    jv msg = jv_invalid_get_msg(jv_copy(result));
    jv pos = j_position(job);
    if (jv_get_kind(msg) == JV_KIND_STRING) {
      j_errf(job, "%s: error (at %s): ", job->name, jv_string_value(pos));
      j_out(job, 2, jv_string_value(msg), (size_t)jv_string_length_bytes(jv_copy(msg)));
      j_outs(job, 2, "\n");
      jv_free(msg);
    } else {
      char *t = j_dump_text(job, msg, 0);
      j_errf(job, "%s: error (at %s) (not a string): %s\n", job->name, jv_string_value(pos), t);
      free(t);
    }
    jv_free(pos);
    ret = 5;
  }
  jv_free(result);
  return ret;
}

/* Everything J does between jq_init and jq_teardown. */
static void j_run(struct cmd_jq_job *job) {
  jq_state *jq = job->jq;
  jv named, positional;
  if (!j_build_args(job, &named, &positional)) return;
  jv args = jv_copy(named);
  args = jv_object_set(args, jv_string("ARGS"),
                       JV_OBJECT(jv_string("positional"), positional, jv_string("named"), named));
  args = jv_object_set(args, jv_string("__sbx_env"), j_env_object(job));
  if (!jq_compile_args(jq, job->text, args)) {
    job->status = 3;
    return;
  }
  jq_textin *ti = &job->in;
  if (!job->source.next) {
    ti->parser = job->raw_input ? NULL
                                : jv_parser_new((job->seq ? JV_PARSE_SEQ : 0) |
                                                (job->stream ? JV_PARSE_STREAMING : 0));
    ti->slurped = !job->slurp ? jv_invalid() : job->raw_input ? jv_string("") : jv_array();
  }
  int ret = 0;
  if (job->null_input) {
    ret = j_process(job, jv_null());
  } else {
    jv value;
    while (ti->failures == 0 && !j_stopping(job) &&
           (jv_is_valid(value = j_next_input(job)) || jv_invalid_has_msg(jv_copy(value)))) {
      if (jv_is_valid(value)) {
        ret = j_process(job, value);
        continue;
      }
      jv msg = jv_invalid_get_msg(value);
      const char *m = jv_string_value(msg);
      if (job->source.next) {
        /* a source's own message, as it wrote it */
        j_errf(job, "%s\n", m);
        ret = job->source_error_status ? job->source_error_status : 2;
        jv_free(msg);
        break;
      }
      if (!job->seq) {
        ret = 4;
        j_errf(job, "parse error: %s\n", m);
        jv_free(msg);
        break;
      }
      j_errf(job, "ignoring parse error: %s\n", m);
      jv_free(msg);
    }
  }
  if (ti->failures) ret = 2;
  if (job->formatter.finish && !j_stopping(job)) {
    cmd_jq_buf text = {0}, err = {0};
    if (job->formatter.finish(job->formatter.ud, &text, &err) < 0) {
      j_errf(job, "%s: error: %s\n", job->name, err.data ? err.data : "cannot format");
      ret = 5;
    }
    j_out(job, 1, text.data, text.len);
    cmd_jq_buf_free(&text);
    cmd_jq_buf_free(&err);
  }
  if (ret >= 10 && job->exit_status)
    job->status = ret - 10;
  else if (job->exit_exact)
    job->status = ret & 0xff;
  else if (ret >= 10)
    job->status = 0;
  else
    job->status = ret;
}

static void *j_main(void *arg) {
  struct cmd_jq_job *job = arg;
  /* Wait for the first turn (M starts serving after pthread_create). */
  pthread_mutex_lock(&job->mu);
  while (job->turn != TURN_J && !job->abandoned) pthread_cond_wait(&job->cv, &job->mu);
  pthread_mutex_unlock(&job->mu);

  job->pending = jv_invalid();
  job->src_filename = jv_invalid();
  job->in.current_filename = jv_invalid();
  job->in.slurped = jv_invalid();
  jq_state *jq = jq_init();
  if (!jq) {
    j_errf(job, "%s: error: cannot allocate memory\n", job->name);
    job->status = 5;
  } else {
    pthread_mutex_lock(&job->halt_mu);
    job->jq = jq;
    pthread_mutex_unlock(&job->halt_mu);
    if (setjmp(job->oom) == 0) {
      jq_set_nomem_handler(jq, j_nomem, job);
      jq_set_error_cb(jq, j_error_cb, job);
      jq_set_debug_cb(jq, j_debug_cb, job);
      jq_set_input_cb(jq, j_input_cb, job);
      jq_set_attr(jq, jv_string("JQ_LIBRARY_PATH"), jv_array());
      j_run(job);
      if (job->source.free) job->source.free(job->source.ud);
      if (job->formatter.free) job->formatter.free(job->formatter.ud);
      if (job->in.parser) jv_parser_free(job->in.parser);
      jv_free(job->in.slurped);
      jv_free(job->in.current_filename);
      jv_free(job->src_filename);
      jv_free(job->pending);
      pthread_mutex_lock(&job->halt_mu);
      job->jq = NULL;
      pthread_mutex_unlock(&job->halt_mu);
      jq_teardown(&jq);
    } else {
      /* libjq ran out of memory inside a call: its state is inconsistent,
       * so it is left as it is (leaked) rather than torn down. */
      pthread_mutex_lock(&job->halt_mu);
      job->jq = NULL;
      pthread_mutex_unlock(&job->halt_mu);
      j_errf(job, "%s: error: cannot allocate memory\n", job->name);
      job->status = 5;
    }
  }
  job->stop_seen = atomic_load(&job->stop);
  j_call(job, REQ_DONE);
  pthread_mutex_lock(&job->mu);
  job->exited = true;
  pthread_cond_broadcast(&job->cv);
  pthread_mutex_unlock(&job->mu);
  return NULL;
}

/* ---- M: serving J ------------------------------------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__)
#define JQ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JQ_ASAN 1
#endif
#endif

#ifdef JQ_ASAN
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
static size_t heap_bytes(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}
#endif

/* M's side of the I/O. */
typedef struct jq_served {
  cmd_in *cur;         /* the open input file, or NULL */
  int write_err;       /* first output error */
  cmd_jq_buf *capture; /* where standard output goes, or NULL */
  uint64_t in_bytes;   /* input bytes served (READ and SLURP) */
} jq_served;

/* Writes the queue (standard output to `capture` when set); returns 0 or
 * the first write error. */
static int m_flush(cmd_ctx *ctx, struct cmd_jq_job *job, cmd_jq_buf *capture) {
  size_t start = 0;
  int err = 0;
  for (size_t i = 0; i < job->nsegs && !err; i++) {
    size_t end = job->segs[i].end;
    if (job->segs[i].fd == 1 && capture)
      err = cmd_jq_buf_add(capture, job->q.data + start, end - start);
    else if (job->segs[i].fd == 1)
      err = cmd_out(ctx, job->q.data + start, end - start);
    else
      err = cmd_write_fd(ctx, 2, job->q.data + start, end - start) < 0 ? -EIO : 0;
    start = end;
  }
  job->q.len = 0;
  job->nsegs = 0;
  return err;
}

static void m_stop(struct cmd_jq_job *job, int why) {
  int expected = STOP_NONE;
  if (!atomic_compare_exchange_strong(&job->stop, &expected, why)) return;
  pthread_mutex_lock(&job->halt_mu);
  if (job->jq && !jq_halted(job->jq)) jq_halt(job->jq, jv_invalid(), jv_invalid());
  pthread_mutex_unlock(&job->halt_mu);
}

/* Handles J's request (turn == TURN_M). Returns true on REQ_DONE. */
static bool m_serve(cmd_ctx *ctx, struct cmd_jq_job *job, jq_served *sv) {
  switch (job->req) {
    case REQ_FLUSH:
    case REQ_DONE: {
      int err = m_flush(ctx, job, sv->capture);
      if (err && !sv->write_err) {
        sv->write_err = err;
        m_stop(job, err == -EPIPE ? STOP_PIPE : STOP_WRITE);
      }
      return job->req == REQ_DONE;
    }
    case REQ_OPEN:
      if (sv->cur) cmd_in_close(sv->cur);
      sv->cur = NULL;
      job->req_err = cmd_in_open(ctx, job->req_name, &sv->cur);
      if (job->req_err < 0) sv->cur = NULL;
      break;
    case REQ_READ: {
      ssize_t r = sv->cur ? cmd_in_read(sv->cur, job->blk, JQ_BLOCK) : 0;
      job->req_err = r < 0 ? (int)r : 0;
      job->req_len = r > 0 ? (size_t)r : 0;
      sv->in_bytes += job->req_len;
      break;
    }
    case REQ_CLOSE:
      if (sv->cur) cmd_in_close(sv->cur);
      sv->cur = NULL;
      break;
    case REQ_SLURP: {
      cmd_in *in = NULL;
      free(job->req_data);
      job->req_data = NULL;
      job->req_err = cmd_in_open(ctx, job->req_name, &in);
      if (job->req_err == 0) {
        job->req_err = cmd_in_slurp(in, &job->req_data, &job->req_len);
        if (job->req_err == 0) sv->in_bytes += job->req_len;
        cmd_in_close(in);
      }
      break;
    }
    default: break;
  }
  return false;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The budget once `in_bytes` of input have been served: the base plus
 * JQ_INPUT_FACTOR per byte, at most JQ_BUDGET_CEILING (or the base, when
 * that is larger). */
static size_t budget_with_input(size_t base, uint64_t in_bytes) {
  if (base >= JQ_BUDGET_CEILING) return base;
  uint64_t room = JQ_BUDGET_CEILING - base;
  uint64_t extra = in_bytes > room / JQ_INPUT_FACTOR ? room : in_bytes * JQ_INPUT_FACTOR;
  return base + (size_t)extra;
}

/* One tick of M's watch: the call's poll (deadline, cancel) and, every
 * JQ_MEM_TICKS ticks, the heap budget; either asks J to stop. */
static void m_check(cmd_ctx *ctx, struct cmd_jq_job *job, int *ticks, int64_t *last_check,
                    size_t base, size_t budget) {
  *last_check = now_ms();
  if (cmd_poll(ctx)) m_stop(job, STOP_POLL);
  if (++*ticks % JQ_MEM_TICKS == 0) {
    size_t now = heap_bytes();
    if (now > base && now - base > budget) m_stop(job, STOP_MEM);
  }
}

/* Runs the job to its end (or abandons it). Returns J's status, or the
 * stop's. */
static int m_loop(cmd_ctx *ctx, struct cmd_jq_job *job, size_t budget, cmd_jq_buf *capture) {
  jq_served sv = {0};
  sv.capture = capture;
  size_t base = heap_bytes();
  int ticks = 0;
  int64_t last_check = now_ms();
  int64_t stop_at = 0;
  bool done = false, abandoned = false;
  pthread_mutex_lock(&job->mu);
  job->turn = TURN_J;
  pthread_cond_broadcast(&job->cv);
  while (!done) {
    while (job->turn != TURN_M) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      ts.tv_nsec += JQ_TICK_NS;
      if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
      }
      int rc = pthread_cond_timedwait(&job->cv, &job->mu, &ts);
      if (job->turn == TURN_M || rc != ETIMEDOUT) continue;
      pthread_mutex_unlock(&job->mu);
      m_check(ctx, job, &ticks, &last_check, base, budget_with_input(budget, sv.in_bytes));
      int why = atomic_load(&job->stop);
      if (why && !stop_at) stop_at = now_ms();
      bool give_up = why && now_ms() - stop_at > JQ_STOP_GRACE_MS;
      pthread_mutex_lock(&job->mu);
      if (give_up && job->turn != TURN_M) {
        job->abandoned = true;
        pthread_cond_broadcast(&job->cv);
        abandoned = true;
        done = true;
        break;
      }
    }
    if (done) break;
    pthread_mutex_unlock(&job->mu);
    /* a J that hands over often (endless output) never lets the wait above
     * time out: check here too, once per tick */
    if (now_ms() - last_check >= JQ_TICK_NS / 1000000)
      m_check(ctx, job, &ticks, &last_check, base, budget_with_input(budget, sv.in_bytes));
    done = m_serve(ctx, job, &sv);
    pthread_mutex_lock(&job->mu);
    if (!done) {
      job->turn = TURN_J;
      pthread_cond_broadcast(&job->cv);
    }
  }
  pthread_mutex_unlock(&job->mu);
  if (sv.cur) cmd_in_close(sv.cur);

  int why = atomic_load(&job->stop);
  int status;
  switch (why) {
    case STOP_POLL: status = 130; break;
    case STOP_PIPE: status = 141; break;
    case STOP_WRITE: status = 2; break;
    case STOP_MEM:
      cmd_errorf(ctx, "error: out of memory: the program needed more than %zu MiB",
                 budget_with_input(budget, sv.in_bytes) >> 20);
      status = 5;
      break;
    default: status = abandoned ? 5 : job->status; break;
  }
  if (abandoned) {
    if (why != STOP_MEM && why != STOP_POLL)
      cmd_errorf(ctx, "error: the program did not stop in time; abandoned");
    /* From here on the job belongs to the reaper (invariant 4). */
    pthread_mutex_lock(&jq_dead_mu);
    job->next_dead = jq_dead;
    jq_dead = job;
    pthread_mutex_unlock(&jq_dead_mu);
    return status;
  }
  pthread_join(job->thread, NULL);
  if (!abandoned) job_free(job);
  return status;
}

/* ---- M: setting up ------------------------------------------------------------------------ */

static char *dup_n(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    if (n) memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* Finds the ';' that ends a module directive's metadata expression: the
 * first one outside brackets, strings and comments. Strings may contain
 * interpolations, which nest code again. Returns NULL when there is none. */
static const char *module_end(const char *p, const char *end) {
  /* modes[d]: 'c' code, 's' string; depth[d]: open brackets in that code */
  char modes[64];
  int depth[64];
  int d = 0;
  modes[0] = 'c';
  depth[0] = 0;
  while (p < end) {
    char c = *p;
    if (modes[d] == 's') {
      if (c == '\\' && p + 1 < end) {
        if (p[1] == '(') {
          if (d + 1 >= 64) return NULL;
          modes[++d] = 'c';
          depth[d] = 0;
        }
        p += 2;
        continue;
      }
      if (c == '"') d--;
      p++;
      continue;
    }
    if (c == '#') {
      while (p < end && *p != '\n') p++;
      continue;
    }
    if (c == '"') {
      if (d + 1 >= 64) return NULL;
      modes[++d] = 's';
    } else if (c == '(' || c == '[' || c == '{') {
      depth[d]++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth[d] == 0 && d > 0 && c == ')') {
        d--; /* the end of an interpolation: back in its string */
      } else {
        depth[d]--;
      }
    } else if (c == ';' && d == 0 && depth[0] <= 0) {
      return p;
    }
    p++;
  }
  return NULL;
}

/* Skips blanks and comments; returns the first token's start. */
static const char *first_token(const char *p, const char *end) {
  while (p < end) {
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      p++;
    } else if (*p == '#') {
      while (p < end && *p != '\n') p++;
    } else {
      break;
    }
  }
  return p;
}

static bool word_at(const char *p, const char *end, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(end - p) < n || memcmp(p, w, n) != 0) return false;
  if (p + n < end) {
    char c = p[n];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
        c == ':')
      return false;
  }
  return true;
}

/* Copies the options into a new job. Returns NULL on OOM. */
static struct cmd_jq_job *job_new(cmd_ctx *ctx, const cmd_jq_opts *o) {
  struct cmd_jq_job *job = calloc(1, sizeof *job);
  if (!job) return NULL;
  pthread_mutex_init(&job->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&job->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&job->halt_mu, NULL);
  job->turn = TURN_M;
  bool ok = true;
  job->name = strdup(o->name ? o->name : "jq");
  bool uses_env = memmem(o->program, o->program_len, "ENV", 3) != NULL;
  size_t plen = sizeof jq_prelude - 1 + (uses_env ? sizeof jq_env_prefix - 1 : 0);
  job->text = malloc(plen + o->program_len + 1);
  if (job->text) {
    memcpy(job->text, jq_prelude, sizeof jq_prelude - 1);
    if (uses_env) memcpy(job->text + sizeof jq_prelude - 1, jq_env_prefix, sizeof jq_env_prefix - 1);
    memcpy(job->text + plen, o->program, o->program_len);
    job->text[plen + o->program_len] = '\0';
    job->prefix_len = plen;
  }
  ok = ok && job->name && job->text;
  job->args = calloc((size_t)o->nargs + 1, sizeof *job->args);
  ok = ok && job->args;
  for (int i = 0; ok && i < o->nargs; i++) {
    const cmd_jq_arg *a = &o->args[i];
    cmd_jq_arg *d = &job->args[job->nargs++];
    d->kind = a->kind;
    d->len = a->len;
    d->text = dup_n(a->text, a->len);
    d->name = a->name ? strdup(a->name) : NULL;
    d->file = a->file ? strdup(a->file) : NULL;
    ok = d->text && (!a->name || d->name) && (!a->file || d->file);
  }
  static char *const stdin_only[] = {"-"};
  char *const *files = o->nfiles ? o->files : stdin_only;
  int nfiles = o->nfiles ? o->nfiles : 1;
  job->files = ok ? calloc((size_t)nfiles, sizeof *job->files) : NULL;
  ok = ok && job->files;
  for (int i = 0; ok && i < nfiles; i++) {
    job->files[job->nfiles] = strdup(files[i]);
    ok = job->files[job->nfiles++] != NULL;
  }
  int nenv = 0;
  for (char *const *e = ctx->env; e && *e; e++) nenv++;
  job->env = ok ? calloc((size_t)nenv + 1, sizeof *job->env) : NULL;
  ok = ok && job->env;
  for (int i = 0; ok && i < nenv; i++) {
    job->env[job->nenv] = strdup(ctx->env[i]);
    ok = job->env[job->nenv++] != NULL;
  }
  if (!ok) {
    job_free(job);
    return NULL;
  }
  job->source = o->source;
  job->formatter = o->formatter;
  job->null_input = o->null_input;
  job->raw_input = o->raw_input;
  job->slurp = o->slurp;
  job->seq = o->seq;
  job->stream = o->stream;
  job->raw_output = o->raw_output;
  job->join_output = o->join_output;
  job->ascii_output = o->ascii_output;
  job->exit_status = o->exit_status;
  job->dumpflags = o->dumpflags;
  job->source_error_status = o->source_error_status;
  job->max_string = ctx->max_string ? ctx->max_string : (64u << 20);
  cmd_tz_from_env(ctx, &job->tz);
  return job;
}

/* libonig's retry limit per search (a process-wide setting; only jq uses
 * Oniguruma here) bounds the time one regex search may spend inside libjq.
 * Looked up at run time: libjq links libonig, we do not. */
static void onig_limits_once(void) {
  void *sym = dlsym(RTLD_DEFAULT, "onig_set_retry_limit_in_search");
  int (*set)(unsigned long);
  if (!sym) return;
  memcpy(&set, &sym, sizeof set);
  set(10000000UL);
}

static void set_onig_limits(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, onig_limits_once);
}

/* Releases a source's and a formatter's state when no job took them. */
static void free_hooks(cmd_jq_opts *o) {
  if (o->source.free) o->source.free(o->source.ud);
  if (o->formatter.free) o->formatter.free(o->formatter.ud);
}

int cmd_jq_run(cmd_ctx *ctx, cmd_jq_opts *opts) {
  jq_reap();
  set_onig_limits();
  const char *name = opts->name ? opts->name : "jq";
  if (opts->program_len > JQ_MAX_PROGRAM) {
    cmd_err_raw(ctx, "%s: error: the program is longer than %d bytes\n", name, JQ_MAX_PROGRAM);
    free_hooks(opts);
    return 3;
  }
  /* Modules would make libjq search and read host files: refused. A
   * module directive (metadata, ignored in a main program) is blanked out,
   * newlines kept, so that the prelude can go first and positions hold. */
  char *blanked = NULL;
  const char *end = opts->program + opts->program_len;
  const char *tok = first_token(opts->program, end);
  if (word_at(tok, end, "module")) {
    const char *semi = module_end(tok + 6, end);
    if (semi) {
      blanked = malloc(opts->program_len + 1);
      if (!blanked) {
        cmd_err_raw(ctx, "%s: error: cannot allocate memory\n", name);
        free_hooks(opts);
        return 5;
      }
      memcpy(blanked, opts->program, opts->program_len);
      for (size_t i = (size_t)(tok - opts->program); i <= (size_t)(semi - opts->program); i++)
        if (blanked[i] != '\n') blanked[i] = ' ';
      tok = first_token(semi + 1, end);
    }
  }
  if (word_at(tok, end, "import") || word_at(tok, end, "include") || word_at(tok, end, "module")) {
    free(blanked);
    cmd_err_raw(ctx,
                "%s: error: modules (import, include, module) are not available in the sandbox\n"
                "%s: 1 compile error\n",
                name, name);
    free_hooks(opts);
    return 3;
  }
  cmd_jq_opts local = *opts;
  if (blanked) local.program = blanked;
  struct cmd_jq_job *job = job_new(ctx, &local);
  free(blanked);
  if (!job) {
    cmd_err_raw(ctx, "%s: error: cannot allocate memory\n", name);
    free_hooks(opts);
    return 5;
  }
  size_t budget = cmd_jq_budget(ctx);
  job->max_index = budget / 32;
  if (job->max_index > (1u << 29)) job->max_index = 1u << 29;

  /* J's stack: 8x the largest budget (with inputs) of address space,
   * untouched until used, with a guard page below. */
  size_t guard = 1 << 16;
  size_t stack = (budget > JQ_BUDGET_CEILING ? budget : JQ_BUDGET_CEILING) * 8;
  void *mem = MAP_FAILED;
  while (stack >= (64u << 20)) {
    mem = mmap(NULL, stack + guard, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mem != MAP_FAILED) break;
    stack /= 2;
  }
  if (mem == MAP_FAILED) {
    cmd_err_raw(ctx, "%s: error: cannot allocate a stack: %s\n", name, cmd_strerror(errno));
    job_free(job);
    free_hooks(opts);
    return 5;
  }
  mprotect(mem, guard, PROT_NONE);
  job->stack = mem;
  job->stack_len = stack + guard;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, (char *)mem + guard, stack);
  int rc = pthread_create(&job->thread, &attr, j_main, job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    cmd_err_raw(ctx, "%s: error: cannot start a thread: %s\n", name, cmd_strerror(rc));
    job_free(job);
    free_hooks(opts);
    return 5;
  }
  return m_loop(ctx, job, budget, opts->capture);
}
