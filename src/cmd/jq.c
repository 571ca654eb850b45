/*
 * jq - commandline JSON processor (jq 1.6 compatible, over Debian's libjq).
 *
 * Usage: jq [OPTIONS] FILTER [FILES...]
 *        jq [OPTIONS] --args FILTER [STRINGS...]
 *        jq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]
 *   -c -n -e -s -r -j -a -S -C -M -R -f --tab --indent n --seq --stream
 *   --arg a v --argjson a v --slurpfile a f --rawfile a f --argfile a f
 *   --args --jsonargs --unbuffered -L dir (accepted, modules are disabled)
 *
 * Design. The option parser, the input reader, the output formatting and the
 * exit codes are jq 1.6's main.c behaviour rewritten against the cmd_ctx; the
 * language is libjq. Three things keep libjq inside the sandbox:
 *
 *  1. Files. libjq would read files itself for -f, --slurpfile, --rawfile,
 *     its input reader, modules and ~/.jq. Here every file is read through the
 *     store by this command and handed to libjq as values or bytes; the JSON
 *     parser (jv_parser) is fed from our reader, which emulates jq's fgets
 *     chunking so error positions ("at <stdin>:3") match. Programs that
 *     `import`/`include` modules get jq's "module not found" error (no module
 *     search path reaches the host). libjq 1.6 always tries the host's
 *     $HOME/.jq (load_program; no API turns it off): if that file exists we
 *     refuse to run rather than let host data into the sandbox.
 *  2. Builtins that touch the process. A one-line prelude, on the program's
 *     first line so line numbers stay right, redefines `env`/`$ENV` (from
 *     ctx->env), `stderr` (would write to the host's fd 2), `input_filename`,
 *     `input_line_number` (libjq only knows its own reader) and `modulemeta`.
 *     The prelude talks to C through `debug` (a marked object) and `input`;
 *     compile messages are rewritten to hide the prelude.
 *  3. Runaway programs. libjq 1.6 has no step hook, but its interpreter loop
 *     checks `halted` before every instruction. The whole jq session runs in
 *     a worker thread (with a 512 MiB stack for deep values); the command's
 *     own thread serves the worker's I/O requests and, while waiting, calls
 *     cmd_poll every 10 ms and watches heap growth (mallinfo2). When the call
 *     must stop it sets a flag and calls jq_halt(), which ends jq_next at the
 *     next instruction: `def f: f; f`, `[range(1e18)]`, `last(range(1e18))`
 *     all stop. All I/O and cmd_poll stay on the command's thread.
 *     Not bounded: time spent inside a single C builtin (e.g. sorting a huge
 *     array) until it returns; memory is measured process-wide, so the limit
 *     is approximate.
 */

#include <errno.h>
#include <jq.h>
#include <jv.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
/* from the sanitizer runtime (its header is not always installed) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

#include "cmd/cmd.h"

CMD_DEFINE("jq", cmd_jq_main);

int cmd_jq_run(cmd_ctx *ctx, int argc, char **argv, const char *progname, int yaml_mode);

/* ---- options ----------------------------------------------------------------------------- */

enum {
  O_SLURP = 1 << 0,
  O_RAW_INPUT = 1 << 1,
  O_NULL_INPUT = 1 << 2,
  O_RAW_OUTPUT = 1 << 3,
  O_COMPACT = 1 << 4,
  O_ASCII = 1 << 5,
  O_COLOR = 1 << 6,
  O_NO_COLOR = 1 << 7,
  O_SORTED = 1 << 8,
  O_FROM_FILE = 1 << 9,
  O_RAW_NO_LF = 1 << 10,
  O_UNBUFFERED = 1 << 11,
  O_EXIT_STATUS = 1 << 12,
  O_SEQ = 1 << 13,
  O_EXIT_EXACT = 1 << 14,
};

static const char prelude[] =
    "def env: $__sbx_env; "
    "def input_filename: ({\"\\u0001sbx\": \"fname\"} | debug) as $__sbx_x | input; "
    "def input_line_number: ({\"\\u0001sbx\": \"line\"} | debug) as $__sbx_x | input; "
    "def stderr: ({\"\\u0001sbx\": \"stderr\", \"v\": .} | debug) as $__sbx_x | .; "
    "def modulemeta: error(\"modulemeta is not available in the sandbox\"); "
    /* libjq 1.6 leaks in jv_array_indexes (array-in-array search): same
     * results computed in jq */
    "def indices($i): if type == \"array\" and ($i|type) == \"array\" then . as $__a | "
    "($i|length) as $__n | if $__n == 0 then [] else [range(0; length) | "
    "select($__a[.:. + $__n] == $i)] end elif type == \"array\" then indices([$i]) "
    "elif type == \"string\" and ($i|type) == \"string\" then _strindices($i) else .[$i] end; "
    "$__sbx_env as $ENV | ";

/* ---- the shared state between the command thread and the worker ----------------------------- */

enum { REQ_NONE, REQ_OUT, REQ_ERR, REQ_OPEN, REQ_READ, REQ_CLOSE, REQ_DONE };

typedef struct jqrun {
  cmd_ctx *ctx;            /* the command (used on the command thread only) */
  const char *progname;    /* "jq" for messages */
  /* configuration (read-only once the worker runs) */
  int options;             /* O_* */
  int dumpopts;            /* JV_PRINT_* */
  int parser_flags;        /* JV_PARSE_* */
  char *program;           /* prelude + filter (malloc'd) */
  size_t prelude_len;      /* bytes of prelude at the start of program */
  size_t user_line1_len;   /* length of the user's first program line */
  jv args;                 /* named program arguments (handed to the worker) */
  char **files;            /* input file names */
  int nfiles;              /* count */
  /* synchronisation */
  pthread_mutex_t mu;      /* guards the fields below */
  pthread_cond_t cv;       /* signalled on every change */
  int req;                 /* pending request (REQ_*) */
  const char *wbuf;        /* REQ_OUT/REQ_ERR: bytes */
  size_t wlen;             /* their length */
  const char *open_name;   /* REQ_OPEN: file name ("-" = stdin) */
  char *rbuf;              /* REQ_READ: destination */
  size_t rcap;             /* its capacity */
  ssize_t reply;           /* result of the request */
  atomic_int stop;         /* the command thread wants the worker to stop */
  jq_state *jq;            /* the worker's jq state while it may run (for jq_halt) */
  int stop_reason;         /* 1 poll, 2 memory, 3 timeout */
  /* worker-side state */
  char *obuf;              /* pending stdout bytes */
  size_t olen, ocap;       /* used, allocated */
  int status;              /* exit status computed by the worker */
  /* worker input reader (jq_util_input emulation) */
  int cur_file;            /* next index in files */
  bool input_open;         /* a file is open on the command side */
  bool input_eof;          /* the open file hit EOF */
  char *ibuf;              /* read-ahead buffer */
  size_t ipos, ilen;       /* consumed, valid */
  jv cur_filename;         /* current file name (jv string) or invalid */
  unsigned long cur_line;  /* lines read in the current file */
  int open_failures;       /* files that could not be opened */
  jv_parser *parser;       /* JSON parser, or NULL for raw input */
  jv slurped;              /* slurp accumulator (or invalid) */
  char chunk[4096];        /* the current fgets-like chunk */
  size_t chunk_len;        /* its valid length */
  int hook;                /* pending prelude query: 0, 'f' filename, 'l' line */
  bool write_failed;       /* stdout reported an error */
  bool started;            /* jq_start was called at least once */
} jqrun;

/* ---- worker side: requests ------------------------------------------------------------------- */

static ssize_t request(jqrun *r, int req) {
  pthread_mutex_lock(&r->mu);
  r->req = req;
  pthread_cond_broadcast(&r->cv);
  while (r->req != REQ_NONE) pthread_cond_wait(&r->cv, &r->mu);
  ssize_t rep = r->reply;
  pthread_mutex_unlock(&r->mu);
  return rep;
}

static void flush_out(jqrun *r) {
  if (!r->olen || r->write_failed) {
    r->olen = 0;
    return;
  }
  r->wbuf = r->obuf;
  r->wlen = r->olen;
  if (request(r, REQ_OUT) < 0) r->write_failed = true;
  r->olen = 0;
}

static void out_add(jqrun *r, const char *p, size_t n) {
  if (r->write_failed) return;
  if (r->olen + n > r->ocap) {
    size_t nc = r->ocap ? r->ocap * 2 : 65536;
    while (nc < r->olen + n) nc *= 2;
    char *nb = realloc(r->obuf, nc);
    if (!nb) {
      r->write_failed = true;
      return;
    }
    r->obuf = nb;
    r->ocap = nc;
  }
  memcpy(r->obuf + r->olen, p, n);
  r->olen += n;
  if (r->olen >= 65536) flush_out(r);
}

static void err_write(jqrun *r, const char *p, size_t n) {
  r->wbuf = p;
  r->wlen = n;
  request(r, REQ_ERR);
}

static void err_printf(jqrun *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_printf(jqrun *r, const char *fmt, ...) {
  char *s = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  err_write(r, s, (size_t)n);
  free(s);
}

/* ---- worker side: input (jq_util_input emulation) ------------------------------------------ */

/* Refills the read-ahead buffer; false at EOF or error. */
static bool ibuf_fill(jqrun *r) {
  if (!r->ibuf) {
    r->ibuf = malloc(65536);
    if (!r->ibuf) return false;
  }
  r->rbuf = r->ibuf;
  r->rcap = 65536;
  ssize_t n = request(r, REQ_READ);
  r->ipos = 0;
  r->ilen = n > 0 ? (size_t)n : 0;
  return n > 0;
}

/* Reads one fgets-like chunk (up to 4095 bytes, ending at a newline) into
 * r->chunk. Returns true when this is the last chunk of the last file. */
static bool read_more(jqrun *r) {
  r->chunk_len = 0;
  for (;;) {
    if (!r->input_open || r->input_eof) {
      if (r->input_open) {
        request(r, REQ_CLOSE);
        r->input_open = false;
        jv_free(r->cur_filename);
        r->cur_filename = jv_invalid();
        r->cur_line = 0;
      }
      if (r->cur_file >= r->nfiles) return true;
      const char *f = r->files[r->cur_file++];
      r->open_name = f;
      ssize_t rc = request(r, REQ_OPEN);
      jv_free(r->cur_filename);
      r->cur_filename = strcmp(f, "-") ? jv_string(f) : jv_string("<stdin>");
      r->cur_line = 0;
      r->input_eof = false;
      r->ipos = r->ilen = 0;
      if (rc < 0) {
        err_printf(r, "jq: error: Could not open file %s: %s\n", f, cmd_strerror((int)rc));
        r->open_failures++;
        continue;
      }
      r->input_open = true;
    }
    /* copy up to a newline or 4095 bytes */
    while (r->chunk_len < sizeof r->chunk - 1) {
      if (r->ipos == r->ilen && !ibuf_fill(r)) {
        r->input_eof = true;
        break;
      }
      size_t avail = r->ilen - r->ipos, room = sizeof r->chunk - 1 - r->chunk_len;
      size_t n = avail < room ? avail : room;
      const char *nl = memchr(r->ibuf + r->ipos, '\n', n);
      if (nl) n = (size_t)(nl - (r->ibuf + r->ipos)) + 1;
      memcpy(r->chunk + r->chunk_len, r->ibuf + r->ipos, n);
      r->chunk_len += n;
      r->ipos += n;
      if (nl) {
        r->cur_line++;
        break;
      }
    }
    r->chunk[r->chunk_len] = 0;
    if (r->parser && !memchr(r->chunk, '\n', r->chunk_len)) {
      /* like fgets + strlen: a NUL ends the text */
      r->chunk_len = strlen(r->chunk);
    }
    if (r->chunk_len == 0 && r->input_eof) continue; /* next file */
    bool last = r->cur_file >= r->nfiles && r->input_eof && r->ipos == r->ilen;
    if (last && r->input_open && r->ipos == r->ilen) {
      /* peek: is there really nothing more? */
    }
    return last;
  }
}

static jv next_input(jqrun *r) {
  bool is_last = false;
  bool has_more = false;
  jv value = jv_invalid();
  do {
    if (atomic_load(&r->stop)) return jv_invalid();
    if (!r->parser) {
      is_last = read_more(r);
      if (r->chunk_len == 0) continue;
      if (jv_is_valid(r->slurped)) {
        r->slurped = jv_string_concat(r->slurped, jv_string_sized(r->chunk, (int)r->chunk_len));
      } else {
        if (!jv_is_valid(value)) value = jv_string("");
        if (r->chunk[r->chunk_len - 1] == '\n') {
          return jv_string_concat(value, jv_string_sized(r->chunk, (int)r->chunk_len - 1));
        }
        value = jv_string_concat(value, jv_string_sized(r->chunk, (int)r->chunk_len));
      }
    } else {
      if (jv_parser_remaining(r->parser) == 0) {
        is_last = read_more(r);
        if (is_last && r->chunk_len == 0) {
          jv_parser_set_buf(r->parser, "", 0, 0);
          value = jv_parser_next(r->parser);
          if (jv_is_valid(value) || jv_invalid_has_msg(jv_copy(value))) {
            if (jv_is_valid(r->slurped) && jv_is_valid(value)) {
              r->slurped = jv_array_append(r->slurped, value);
              value = jv_invalid();
            } else {
              return value;
            }
          }
          break;
        }
        jv_parser_set_buf(r->parser, r->chunk, (int)r->chunk_len, !is_last);
      }
      value = jv_parser_next(r->parser);
      if (jv_is_valid(r->slurped)) {
        has_more = jv_parser_remaining(r->parser) != 0;
        if (jv_is_valid(value)) {
          r->slurped = jv_array_append(r->slurped, value);
          value = jv_invalid();
        } else if (jv_invalid_has_msg(jv_copy(value))) {
          return value;
        }
      } else if (jv_is_valid(value) || jv_invalid_has_msg(jv_copy(value))) {
        return value;
      }
    }
  } while (!is_last || has_more);
  if (jv_is_valid(r->slurped)) {
    jv_free(value);
    value = r->slurped;
    r->slurped = jv_invalid();
  }
  return value;
}

static jv input_cb(jq_state *jq, void *data) {
  (void)jq;
  jqrun *r = data;
  if (r->hook == 'f') {
    r->hook = 0;
    return jv_is_valid(r->cur_filename) && strcmp(jv_string_value(r->cur_filename), "<stdin>")
               ? jv_copy(r->cur_filename)
               : jv_null();
  }
  if (r->hook == 'l') {
    r->hook = 0;
    return jv_number((double)r->cur_line);
  }
  return next_input(r);
}

/* ---- worker side: callbacks ------------------------------------------------------------------ */

static void debug_cb(void *data, jv input) {
  jqrun *r = data;
  if (jv_get_kind(input) == JV_KIND_OBJECT) {
    jv tag = jv_object_get(jv_copy(input), jv_string("\001sbx"));
    if (jv_get_kind(tag) == JV_KIND_STRING) {
      const char *t = jv_string_value(tag);
      if (!strcmp(t, "fname")) r->hook = 'f';
      else if (!strcmp(t, "line")) r->hook = 'l';
      else if (!strcmp(t, "stderr")) {
        jv s = jv_dump_string(jv_object_get(jv_copy(input), jv_string("v")), 0);
        err_write(r, jv_string_value(s), (size_t)jv_string_length_bytes(jv_copy(s)));
        jv_free(s);
      }
      jv_free(tag);
      jv_free(input);
      return;
    }
    jv_free(tag);
  }
  jv s = jv_dump_string(JV_ARRAY(jv_string("DEBUG:"), input), r->dumpopts & ~JV_PRINT_PRETTY);
  err_printf(r, "%s\n", jv_string_value(s));
  jv_free(s);
}

/* Compile messages: hide the prelude on line 1. */
static void error_cb(void *data, jv msg) {
  jqrun *r = data;
  msg = jq_format_error(msg);
  const char *m = jv_string_value(msg);
  const char *tag = "at <top-level>, line 1:\n";
  const char *at = strstr(m, tag);
  if (at) {
    const char *line = at + strlen(tag);
    size_t linelen = strlen(line);
    size_t plen = r->prelude_len, ulen = r->user_line1_len;
    if (linelen >= plen + ulen && !strncmp(line, r->program, plen)) {
      size_t spaces = linelen - plen - ulen;
      size_t keep_spaces = spaces > plen ? spaces - plen : 0;
      err_printf(r, "%.*s%.*s%*s\n", (int)(line - m), m, (int)ulen, line + plen, (int)keep_spaces,
                 "");
      jv_free(msg);
      return;
    }
  }
  err_printf(r, "%s\n", m);
  jv_free(msg);
}

/* ---- worker side: processing ------------------------------------------------------------------ */

static void dump_value(jqrun *r, jv v) {
  jv s = jv_dump_string(v, r->dumpopts);
  out_add(r, jv_string_value(s), (size_t)jv_string_length_bytes(jv_copy(s)));
  jv_free(s);
}

static jv position(jqrun *r) {
  if (!r->started || !jv_is_valid(r->cur_filename)) {
    if (r->options & O_NULL_INPUT) return jv_string("<unknown>");
    if (!jv_is_valid(r->cur_filename)) return jv_string("<unknown>");
  }
  return jv_string_fmt("%s:%lu", jv_string_value(r->cur_filename), r->cur_line);
}

static int process(jqrun *r, jq_state *jq, jv value) {
  int ret = 14; /* no output: -e gives 4 */
  if (atomic_load(&r->stop)) {
    jv_free(value);
    return 5;
  }
  jq_start(jq, value, 0);
  r->started = true;
  if (atomic_load(&r->stop)) return 5;
  jv result;
  while (jv_is_valid(result = jq_next(jq))) {
    if ((r->options & O_RAW_OUTPUT) && jv_get_kind(result) == JV_KIND_STRING) {
      if (r->options & O_ASCII) {
        dump_value(r, jv_copy(result));
      } else {
        out_add(r, jv_string_value(result), (size_t)jv_string_length_bytes(jv_copy(result)));
      }
      ret = 0;
      jv_free(result);
    } else {
      jv_kind k = jv_get_kind(result);
      ret = (k == JV_KIND_FALSE || k == JV_KIND_NULL) ? 11 : 0;
      if (r->options & O_SEQ) out_add(r, "\036", 1);
      dump_value(r, result);
    }
    if (!(r->options & O_RAW_NO_LF)) out_add(r, "\n", 1);
    if (r->options & O_UNBUFFERED) flush_out(r);
    if (r->write_failed || atomic_load(&r->stop)) break;
  }
  if (atomic_load(&r->stop)) {
    jv_free(result);
    return 5;
  }
  if (jq_halted(jq)) {
    r->options |= O_EXIT_EXACT;
    jv code = jq_get_exit_code(jq);
    if (!jv_is_valid(code)) ret = 0;
    else if (jv_get_kind(code) == JV_KIND_NUMBER) ret = (int)jv_number_value(code);
    else ret = 5;
    jv_free(code);
    jv msg = jq_get_error_message(jq);
    flush_out(r);
    if (jv_get_kind(msg) == JV_KIND_STRING) {
      err_write(r, jv_string_value(msg), (size_t)jv_string_length_bytes(jv_copy(msg)));
    } else if (jv_get_kind(msg) == JV_KIND_NULL) {
      /* halt without a message */
    } else if (jv_is_valid(msg)) {
      jv s = jv_dump_string(jv_copy(msg), 0);
      err_printf(r, "%s\n", jv_string_value(s));
      jv_free(s);
    }
    jv_free(msg);
  } else if (jv_invalid_has_msg(jv_copy(result))) {
    jv msg = jv_invalid_get_msg(jv_copy(result));
    jv pos = position(r);
    flush_out(r);
    if (jv_get_kind(msg) == JV_KIND_STRING) {
      err_printf(r, "jq: error (at %s): %s\n", jv_string_value(pos), jv_string_value(msg));
    } else {
      msg = jv_dump_string(msg, 0);
      err_printf(r, "jq: error (at %s) (not a string): %s\n", jv_string_value(pos),
                 jv_string_value(msg));
    }
    ret = 5;
    jv_free(pos);
    jv_free(msg);
  }
  jv_free(result);
  return ret;
}

static void *worker_main(void *arg) {
  jqrun *r = arg;
  int ret = 0;
  jq_state *jq = jq_init();
  if (!jq) {
    err_printf(r, "jq: error: cannot allocate memory\n");
    r->status = 2;
    request(r, REQ_DONE);
    return NULL;
  }
  jq_set_error_cb(jq, error_cb, r);
  jq_set_debug_cb(jq, debug_cb, r);
  jq_set_input_cb(jq, input_cb, r);
  jq_set_attr(jq, jv_string("JQ_LIBRARY_PATH"), jv_array());
  jq_set_attr(jq, jv_string("JQ_ORIGIN"), jv_string("/nonexistent"));
  jq_set_attr(jq, jv_string("PROGRAM_ORIGIN"), jv_string("/nonexistent"));
  pthread_mutex_lock(&r->mu);
  r->jq = jq;
  pthread_mutex_unlock(&r->mu);
  r->cur_filename = jv_invalid();
  r->slurped = jv_invalid();
  if (!(r->options & O_RAW_INPUT)) r->parser = jv_parser_new(r->parser_flags);
  if (r->options & O_SLURP) r->slurped = (r->options & O_RAW_INPUT) ? jv_string("") : jv_array();

  /* jq_compile_args consumes the arguments, whatever it returns */
  jv args = r->args;
  r->args = jv_invalid();
  if (!jq_compile_args(jq, r->program, args)) {
    ret = 3;
    goto done;
  }
  if (r->options & O_NULL_INPUT) {
    ret = process(r, jq, jv_null());
  } else {
    jv value;
    while (r->open_failures == 0 && !atomic_load(&r->stop) && !r->write_failed &&
           (jv_is_valid(value = next_input(r)) || jv_invalid_has_msg(jv_copy(value)))) {
      if (jv_is_valid(value)) {
        ret = process(r, jq, value);
        continue;
      }
      jv msg = jv_invalid_get_msg(value);
      flush_out(r);
      if (!(r->options & O_SEQ)) {
        ret = 4;
        err_printf(r, "parse error: %s\n", jv_string_value(msg));
        jv_free(msg);
        break;
      }
      err_printf(r, "ignoring parse error: %s\n", jv_string_value(msg));
      jv_free(msg);
    }
  }
  if (r->open_failures) ret = 2;
done:
  flush_out(r);
  if (r->write_failed) ret = 2;
  if (ret >= 10 && (r->options & O_EXIT_STATUS)) ret -= 10;
  else if (ret >= 10 && !(r->options & O_EXIT_EXACT)) ret = 0;
  r->status = ret;
  if (jv_is_valid(r->args)) jv_free(r->args);
  r->args = jv_invalid();
  pthread_mutex_lock(&r->mu);
  r->jq = NULL;
  pthread_mutex_unlock(&r->mu);
  jq_teardown(&jq);
  if (r->parser) jv_parser_free(r->parser);
  r->parser = NULL;
  jv_free(r->cur_filename);
  jv_free(r->slurped);
  free(r->ibuf);
  free(r->obuf);
  r->ibuf = r->obuf = NULL;
  if (r->input_open) request(r, REQ_CLOSE);
  request(r, REQ_DONE);
  return NULL;
}

/* ---- command side ---------------------------------------------------------------------------- */

/* Bytes of heap in use, process-wide (glibc's counters; the sanitizer's own
 * allocator under ASan, which glibc does not see). */
static uint64_t heap_in_use(void) {
#if defined(__SANITIZE_ADDRESS__)
  return (uint64_t)__sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 mi = mallinfo2();
  return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
#endif
}

static uint64_t env_u64(cmd_ctx *ctx, const char *name, uint64_t dflt) {
  const char *e = cmd_getenv(ctx, name);
  if (!e || !*e) return dflt;
  unsigned long long v = strtoull(e, NULL, 10);
  return v ? v : dflt;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void ask_stop(jqrun *r, int reason) {
  /* called with r->mu held */
  if (atomic_load(&r->stop)) return;
  r->stop_reason = reason;
  atomic_store(&r->stop, 1);
  if (r->jq && !jq_halted(r->jq)) jq_halt(r->jq, jv_number(126), jv_null());
}

/* Serves the worker until it is done. Returns 0, or the stop reason. */
static int serve(jqrun *r) {
  cmd_ctx *ctx = r->ctx;
  cmd_in *in = NULL;
  uint64_t mem_base = heap_in_use();
  uint64_t mem_limit = env_u64(ctx, "SBX_JQ_MAX_MEM", (uint64_t)1 << 30);
  if (mem_limit < 16 * ctx->max_string && !cmd_getenv(ctx, "SBX_JQ_MAX_MEM"))
    mem_limit = 16 * ctx->max_string;
  double deadline = 0;
  uint64_t tmo = env_u64(ctx, "SBX_JQ_TIMEOUT_MS", 0);
  if (tmo) deadline = now_s() + (double)tmo / 1000.0;
  int ticks = 0;
  pthread_mutex_lock(&r->mu);
  for (;;) {
    while (r->req == REQ_NONE) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += 10 * 1000 * 1000;
      if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
      }
      int rc = pthread_cond_timedwait(&r->cv, &r->mu, &ts);
      if (rc == ETIMEDOUT && r->req == REQ_NONE) {
        pthread_mutex_unlock(&r->mu);
        int stop = cmd_poll(ctx) ? 1 : 0;
        if (!stop && (++ticks % 2) == 0 && heap_in_use() > mem_base + mem_limit) stop = 2;
        if (!stop && deadline && now_s() > deadline) stop = 3;
        pthread_mutex_lock(&r->mu);
        if (stop) ask_stop(r, stop);
      }
    }
    int req = r->req;
    if (req == REQ_DONE) {
      r->req = REQ_NONE;
      pthread_cond_broadcast(&r->cv);
      break;
    }
    pthread_mutex_unlock(&r->mu);
    ssize_t reply = 0;
    switch (req) {
    case REQ_OUT:
      reply = cmd_out(ctx, r->wbuf, r->wlen);
      if (reply < 0) {
        pthread_mutex_lock(&r->mu);
        ask_stop(r, 4);
        pthread_mutex_unlock(&r->mu);
      }
      break;
    case REQ_ERR:
      cmd_flush(ctx);
      reply = cmd_write_fd(ctx, 2, r->wbuf, r->wlen);
      break;
    case REQ_OPEN:
      if (in) cmd_in_close(in);
      in = NULL;
      reply = cmd_in_open(ctx, r->open_name, &in);
      if (reply < 0) {
        cmd_record_error(ctx, (int)reply, r->open_name);
        in = NULL;
      }
      break;
    case REQ_READ:
      reply = in ? cmd_in_read(in, r->rbuf, r->rcap) : 0;
      break;
    case REQ_CLOSE:
      if (in) cmd_in_close(in);
      in = NULL;
      break;
    }
    pthread_mutex_lock(&r->mu);
    r->reply = reply;
    r->req = REQ_NONE;
    pthread_cond_broadcast(&r->cv);
    /* poll between requests too, so a chatty program can be stopped */
    if ((++ticks & 63) == 0) {
      pthread_mutex_unlock(&r->mu);
      int stop = cmd_poll(ctx) ? 1 : 0;
      if (!stop && heap_in_use() > mem_base + mem_limit) stop = 2;
      if (!stop && deadline && now_s() > deadline) stop = 3;
      pthread_mutex_lock(&r->mu);
      if (stop) ask_stop(r, stop);
    }
  }
  int reason = atomic_load(&r->stop) ? r->stop_reason : 0;
  pthread_mutex_unlock(&r->mu);
  if (in) cmd_in_close(in);
  return reason;
}

/* ---- reading files through the store ----------------------------------------------------------- */

static int slurp_file(cmd_ctx *ctx, const char *path, char **data, size_t *len) {
  cmd_in *f;
  int rc = cmd_in_open(ctx, path, &f);
  if (rc < 0) return rc;
  rc = cmd_in_slurp(f, data, len);
  cmd_in_close(f);
  return rc;
}

/* Parses all JSON texts of data into an array (jv invalid with msg on error). */
static jv parse_all(const char *data, size_t len) {
  jv_parser *p = jv_parser_new(0);
  jv_parser_set_buf(p, data ? data : "", (int)len, 0);
  jv out = jv_array();
  jv v;
  while (jv_is_valid(v = jv_parser_next(p))) out = jv_array_append(out, v);
  if (jv_invalid_has_msg(jv_copy(v))) {
    jv_free(out);
    out = v;
  } else {
    jv_free(v);
  }
  jv_parser_free(p);
  return out;
}

/* ---- usage ------------------------------------------------------------------------------------- */

static void usage(cmd_ctx *ctx, const char *prog, bool to_stdout, bool keep_short) {
  char *s = NULL;
  int n = asprintf(
      &s,
      "Usage:\t%s [OPTIONS] FILTER [FILES...]\n"
      "\t%s [OPTIONS] --args FILTER [STRINGS...]\n"
      "\t%s [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]\n\n"
      "jq is a tool for processing JSON inputs, applying the given filter to\n"
      "its JSON text inputs and producing the filter's results as JSON on\n"
      "standard output.\n\n"
      "The simplest filter is ., which copies jq's input to its output\n"
      "unmodified (except for formatting, but note that IEEE754 is used\n"
      "for number representation internally, with all that that implies).\n\n"
      "For more advanced filters see the jq(1) manpage (\"man jq\")\n"
      "and/or https://stedolan.github.io/jq\n\n"
      "Example:\n\n\t$ echo '{\"foo\": 0}' | jq .\n\t{\n\t\t\"foo\": 0\n\t}\n\n",
      prog, prog, prog);
  if (n < 0) return;
  if (to_stdout) cmd_outs(ctx, s);
  else cmd_err_raw(ctx, "%s", s);
  free(s);
  const char *rest =
      keep_short ? NULL
                 : "Some of the options include:\n"
                   "  -c               compact instead of pretty-printed output;\n"
                   "  -n               use `null` as the single input value;\n"
                   "  -e               set the exit status code based on the output;\n"
                   "  -s               read (slurp) all inputs into an array; apply filter to it;\n"
                   "  -r               output raw strings, not JSON texts;\n"
                   "  -R               read raw strings, not JSON texts;\n"
                   "  -C               colorize JSON;\n"
                   "  -M               monochrome (don't colorize JSON);\n"
                   "  -S               sort keys of objects on output;\n"
                   "  --tab            use tabs for indentation;\n"
                   "  --arg a v        set variable $a to value <v>;\n"
                   "  --argjson a v    set variable $a to JSON value <v>;\n"
                   "  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;\n"
                   "  --rawfile a f    set variable $a to a string consisting of the contents of <f>;\n"
                   "  --args           remaining arguments are string arguments, not files;\n"
                   "  --jsonargs       remaining arguments are JSON arguments, not files;\n"
                   "  --               terminates argument processing;\n\n"
                   "Named arguments are also available as $ARGS.named[], while\n"
                   "positional arguments are available as $ARGS.positional[].\n\n"
                   "See the manpage for more options.\n";
  if (keep_short) {
    if (to_stdout) cmd_outf(ctx, "For a listing of options, use %s --help.\n", prog);
    else cmd_err_raw(ctx, "For a listing of options, use %s --help.\n", prog);
  } else if (to_stdout) {
    cmd_outs(ctx, rest);
  } else {
    cmd_err_raw(ctx, "%s", rest);
  }
}

static int die(cmd_ctx *ctx, const char *prog) {
  cmd_err_raw(ctx, "Use %s --help for help with command-line options,\n", prog);
  cmd_err_raw(ctx, "or see the jq manpage, or online docs  at https://stedolan.github.io/jq\n");
  return 2;
}

/* jq's option matcher: long option exact, or a short letter anywhere in a
 * cluster (counted so unknown letters can be detected). */
static bool isoption(const char *text, char shortopt, const char *longopt, size_t *short_opts) {
  if (text[0] != '-' || text[1] == '-') *short_opts = 0;
  if (text[0] != '-') return false;
  if (text[1] == '-' && !strcmp(text + 2, longopt)) return true;
  if (text[1] == '-') return false;
  if (!shortopt) return false;
  if (strchr(text, shortopt)) {
    (*short_opts)++;
    return true;
  }
  return false;
}

static bool isoptish(const char *t) {
  return t[0] == '-' && (t[1] == '-' || (t[1] >= 'a' && t[1] <= 'z') || (t[1] >= 'A' && t[1] <= 'Z'));
}

/* First line length of the user's program. */
static size_t first_line_len(const char *p) {
  const char *nl = strchr(p, '\n');
  return nl ? (size_t)(nl - p) : strlen(p);
}

/* Finds a leading `import "x"` / `include "x"` and returns x (malloc'd). */
static char *leading_import(const char *p) {
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p == '#') {
      while (*p && *p != '\n') p++;
      continue;
    }
    break;
  }
  const char *kw = NULL;
  if (!strncmp(p, "import", 6)) kw = p + 6;
  else if (!strncmp(p, "include", 7)) kw = p + 7;
  if (!kw || !(*kw == ' ' || *kw == '\t' || *kw == '\n' || *kw == '"')) return NULL;
  while (*kw == ' ' || *kw == '\t' || *kw == '\n') kw++;
  if (*kw != '"') return NULL;
  const char *e = strchr(kw + 1, '"');
  if (!e) return NULL;
  return strndup(kw + 1, (size_t)(e - kw - 1));
}

/* ---- main -------------------------------------------------------------------------------------- */

static jv env_object(cmd_ctx *ctx) {
  jv o = jv_object();
  for (char *const *e = ctx->env; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    o = jv_object_set(o, jv_string_sized(*e, (int)(eq - *e)), jv_string(eq + 1));
  }
  return o;
}

int cmd_jq_main(cmd_ctx *ctx, int argc, char **argv) {
  return cmd_jq_run(ctx, argc, argv, "jq", 0);
}

int cmd_jq_run(cmd_ctx *ctx, int argc, char **argv, const char *prog, int yaml_mode) {
  (void)yaml_mode;
  int options = 0, dumpopts = JV_PRINT_INDENT_FLAGS(2), parser_flags = 0;
  const char *program = NULL;
  char *program_data = NULL;
  char **files = calloc((size_t)argc + 1, sizeof *files);
  int nfiles = 0;
  jv named = jv_object();
  jv positional = jv_array();
  int further_files = 0, args_mode = 0; /* 1 --args, 2 --jsonargs */
  int ret = 0;
  size_t short_opts = 0;
  if (!files) {
    jv_free(named);
    jv_free(positional);
    return 2;
  }
  for (int i = 1; i < argc; i++, short_opts = 0) {
    const char *text = argv[i];
    if (further_files) {
      if (!program) program = text;
      else if (args_mode == 1) positional = jv_array_append(positional, jv_string(text));
      else if (args_mode == 2) {
        jv v = jv_parse(text);
        if (!jv_is_valid(v)) {
          jv_free(v);
          cmd_err_raw(ctx, "%s: invalid JSON text passed to --jsonargs\n", prog);
          ret = die(ctx, prog);
          goto out;
        }
        positional = jv_array_append(positional, v);
      } else files[nfiles++] = argv[i];
      continue;
    }
    if (!strcmp(text, "--")) {
      if (!program) {
        usage(ctx, prog, false, true);
        ret = 2;
        goto out;
      }
      further_files = 1;
      continue;
    }
    if (!isoptish(text)) {
      if (program) {
        if (args_mode == 1) positional = jv_array_append(positional, jv_string(text));
        else if (args_mode == 2) {
          jv v = jv_parse(text);
          if (!jv_is_valid(v)) {
            jv_free(v);
            cmd_err_raw(ctx, "%s: invalid JSON text passed to --jsonargs\n", prog);
            ret = die(ctx, prog);
            goto out;
          }
          positional = jv_array_append(positional, v);
        } else files[nfiles++] = argv[i];
      } else {
        program = text;
      }
      continue;
    }
    if (text[1] == 'L') {
      if (text[2] == 0) {
        if (i >= argc - 1) {
          cmd_err_raw(ctx, "-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n");
          ret = die(ctx, prog);
          goto out;
        }
        i++;
      }
      continue; /* module search paths are not used in the sandbox */
    }
    if (isoption(text, 's', "slurp", &short_opts)) {
      options |= O_SLURP;
      if (!short_opts) continue;
    }
    if (isoption(text, 'r', "raw-output", &short_opts)) {
      options |= O_RAW_OUTPUT;
      if (!short_opts) continue;
    }
    if (isoption(text, 'c', "compact-output", &short_opts)) {
      dumpopts &= ~(JV_PRINT_TAB | JV_PRINT_INDENT_FLAGS(7));
      if (!short_opts) continue;
    }
    if (isoption(text, 'C', "color-output", &short_opts)) {
      options |= O_COLOR;
      if (!short_opts) continue;
    }
    if (isoption(text, 'M', "monochrome-output", &short_opts)) {
      options |= O_NO_COLOR;
      if (!short_opts) continue;
    }
    if (isoption(text, 'a', "ascii-output", &short_opts)) {
      options |= O_ASCII;
      if (!short_opts) continue;
    }
    if (isoption(text, 0, "unbuffered", &short_opts)) {
      options |= O_UNBUFFERED;
      if (!short_opts) continue;
    }
    if (isoption(text, 'S', "sort-keys", &short_opts)) {
      options |= O_SORTED;
      if (!short_opts) continue;
    }
    if (isoption(text, 'R', "raw-input", &short_opts)) {
      options |= O_RAW_INPUT;
      if (!short_opts) continue;
    }
    if (isoption(text, 'n', "null-input", &short_opts)) {
      options |= O_NULL_INPUT;
      if (!short_opts) continue;
    }
    if (isoption(text, 'f', "from-file", &short_opts)) {
      options |= O_FROM_FILE;
      if (!short_opts) continue;
    }
    if (isoption(text, 'j', "join-output", &short_opts)) {
      options |= O_RAW_OUTPUT | O_RAW_NO_LF;
      if (!short_opts) continue;
    }
    if (isoption(text, 0, "tab", &short_opts)) {
      dumpopts &= ~JV_PRINT_INDENT_FLAGS(7);
      dumpopts |= JV_PRINT_TAB | JV_PRINT_PRETTY;
      continue;
    }
    if (isoption(text, 0, "indent", &short_opts)) {
      if (i >= argc - 1) {
        cmd_err_raw(ctx, "%s: --indent takes one parameter\n", prog);
        ret = die(ctx, prog);
        goto out;
      }
      dumpopts &= ~(JV_PRINT_TAB | JV_PRINT_INDENT_FLAGS(7));
      int indent = atoi(argv[i + 1]);
      if (indent < -1 || indent > 7) {
        cmd_err_raw(ctx, "%s: --indent takes a number between -1 and 7\n", prog);
        ret = die(ctx, prog);
        goto out;
      }
      dumpopts |= JV_PRINT_INDENT_FLAGS(indent);
      i++;
      continue;
    }
    if (isoption(text, 0, "seq", &short_opts)) {
      options |= O_SEQ;
      continue;
    }
    if (isoption(text, 0, "stream", &short_opts)) {
      parser_flags |= JV_PARSE_STREAMING;
      continue;
    }
    if (isoption(text, 0, "stream-errors", &short_opts)) {
      parser_flags |= JV_PARSE_STREAMING | JV_PARSE_STREAM_ERRORS;
      continue;
    }
    if (isoption(text, 'e', "exit-status", &short_opts)) {
      options |= O_EXIT_STATUS;
      if (!short_opts) continue;
    }
    if (isoption(text, 0, "args", &short_opts)) {
      further_files = 0;
      args_mode = 1;
      continue;
    }
    if (isoption(text, 0, "jsonargs", &short_opts)) {
      args_mode = 2;
      continue;
    }
    if (isoption(text, 0, "arg", &short_opts)) {
      if (i >= argc - 2) {
        cmd_err_raw(ctx, "%s: --arg takes two parameters (e.g. --arg varname value)\n", prog);
        ret = die(ctx, prog);
        goto out;
      }
      if (!jv_object_has(jv_copy(named), jv_string(argv[i + 1])))
        named = jv_object_set(named, jv_string(argv[i + 1]), jv_string(argv[i + 2]));
      i += 2;
      continue;
    }
    if (isoption(text, 0, "argjson", &short_opts)) {
      if (i >= argc - 2) {
        cmd_err_raw(ctx, "%s: --argjson takes two parameters (e.g. --argjson varname text)\n", prog);
        ret = die(ctx, prog);
        goto out;
      }
      if (!jv_object_has(jv_copy(named), jv_string(argv[i + 1]))) {
        jv v = jv_parse(argv[i + 2]);
        if (!jv_is_valid(v)) {
          jv_free(v);
          cmd_err_raw(ctx, "%s: invalid JSON text passed to --argjson\n", prog);
          ret = die(ctx, prog);
          goto out;
        }
        named = jv_object_set(named, jv_string(argv[i + 1]), v);
      }
      i += 2;
      continue;
    }
    bool is_slurp = isoption(text, 0, "slurpfile", &short_opts);
    bool is_raw = !is_slurp && isoption(text, 0, "rawfile", &short_opts);
    bool is_argfile = !is_slurp && !is_raw && isoption(text, 0, "argfile", &short_opts);
    if (is_slurp || is_raw || is_argfile) {
      const char *which = is_slurp ? "slurpfile" : is_raw ? "rawfile" : "argfile";
      if (i >= argc - 2) {
        cmd_err_raw(ctx, "%s: --%s takes two parameters (e.g. --%s varname filename)\n", prog,
                    which, which);
        ret = die(ctx, prog);
        goto out;
      }
      if (!jv_object_has(jv_copy(named), jv_string(argv[i + 1]))) {
        char *data = NULL;
        size_t len = 0;
        int rc = slurp_file(ctx, argv[i + 2], &data, &len);
        jv v;
        if (rc < 0) {
          cmd_record_error(ctx, rc, argv[i + 2]);
          v = jv_invalid_with_msg(jv_string_fmt("Could not open %s: %s", argv[i + 2], cmd_strerror(rc)));
        } else if (is_raw) {
          v = jv_string_sized(data ? data : "", (int)len);
        } else {
          v = parse_all(data, len);
          if (is_argfile && jv_is_valid(v) && jv_array_length(jv_copy(v)) == 1)
            v = jv_array_get(v, 0);
        }
        free(data);
        if (!jv_is_valid(v)) {
          jv msg = jv_invalid_get_msg(v);
          cmd_err_raw(ctx, "%s: Bad JSON in --%s %s %s: %s\n", prog, which, argv[i + 1],
                      argv[i + 2], jv_string_value(msg));
          jv_free(msg);
          ret = 2;
          goto out;
        }
        named = jv_object_set(named, jv_string(argv[i + 1]), v);
      }
      i += 2;
      continue;
    }
    if (isoption(text, 0, "debug-dump-disasm", &short_opts) ||
        isoption(text, 0, "debug-trace", &short_opts)) {
      continue; /* would print on the host's stdout: ignored */
    }
    if (isoption(text, 'h', "help", &short_opts)) {
      usage(ctx, prog, true, false);
      ret = 0;
      goto out;
    }
    if (isoption(text, 'V', "version", &short_opts)) {
      cmd_outf(ctx, "%s (sbx) 1.0\n", prog);
      ret = 0;
      goto out;
    }
    if (isoption(text, 0, "run-tests", &short_opts)) {
      cmd_err_raw(ctx, "%s: --run-tests is not supported in the sandbox\n", prog);
      ret = 2;
      goto out;
    }
    if (strlen(text) != short_opts + 1) {
      cmd_err_raw(ctx, "%s: Unknown option %s\n", prog, text);
      ret = die(ctx, prog);
      goto out;
    }
  }

  if (options & O_COLOR) dumpopts |= JV_PRINT_COLOR;
  if (options & O_NO_COLOR) dumpopts &= ~JV_PRINT_COLOR;
  if (options & O_ASCII) dumpopts |= JV_PRINT_ASCII;
  if (options & O_SORTED) dumpopts |= JV_PRINT_SORTED;
  const char *colors = cmd_getenv(ctx, "JQ_COLORS");
  if (colors && (dumpopts & JV_PRINT_COLOR) && !jq_set_colors(colors))
    cmd_err_raw(ctx, "Failed to set $JQ_COLORS\n");

  if (!program) program = "."; /* jq 1.6: not a terminal, so "." */
  if (options & O_FROM_FILE) {
    size_t len = 0;
    int rc = slurp_file(ctx, program, &program_data, &len);
    if (rc < 0) {
      cmd_record_error(ctx, rc, program);
      cmd_err_raw(ctx, "%s: Could not open %s: %s\n", prog, program, cmd_strerror(rc));
      ret = 2;
      goto out;
    }
    if (!program_data) program_data = strdup("");
    if (memchr(program_data, 0, len)) program_data[strlen(program_data)] = 0;
    program = program_data;
  }

  /* modules cannot be loaded in the sandbox: answer like jq when they are missing */
  char *imp = leading_import(program);
  if (imp) {
    cmd_err_raw(ctx, "jq: error: module not found: %s\n\njq: 1 compile error\n", imp);
    free(imp);
    ret = 3;
    goto out;
  }
  /* libjq always reads the host's $HOME/.jq: refuse if there is one */
  const char *home = getenv("HOME");
  if (home && *home) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/.jq", home);
    if (stat(path, &st) == 0) {
      cmd_err_raw(ctx, "%s: error: the host has %s, which libjq would load into the sandbox; refusing\n",
                  prog, path);
      ret = 2;
      goto out;
    }
  }

  if (nfiles == 0) files[nfiles++] = "-";

  jqrun *r = calloc(1, sizeof *r);
  if (!r) {
    ret = 2;
    goto out;
  }
  r->ctx = ctx;
  r->progname = prog;
  r->options = options;
  r->dumpopts = dumpopts;
  r->parser_flags = parser_flags | ((options & O_SEQ) ? JV_PARSE_SEQ : 0);
  const char *user = *program ? program : ".";
  size_t plen = strlen(prelude), ulen = strlen(user);
  r->program = malloc(plen + ulen + 1);
  if (!r->program) {
    free(r);
    ret = 2;
    goto out;
  }
  memcpy(r->program, prelude, plen);
  memcpy(r->program + plen, user, ulen + 1);
  r->prelude_len = plen;
  r->user_line1_len = first_line_len(user);
  jv ARGS = JV_OBJECT(jv_string("positional"), positional, jv_string("named"), jv_copy(named));
  positional = jv_invalid();
  jv args = jv_copy(named);
  args = jv_object_set(args, jv_string("ARGS"), ARGS);
  args = jv_object_set(args, jv_string("__sbx_env"), env_object(ctx));
  r->args = args;
  r->files = files;
  r->nfiles = nfiles;
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  atomic_init(&r->stop, 0);

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)512 << 20);
  pthread_t th;
  int prc = pthread_create(&th, &attr, worker_main, r);
  pthread_attr_destroy(&attr);
  if (prc != 0) {
    cmd_errorf(ctx, "error: cannot start the interpreter thread: %s", strerror(prc));
    jv_free(r->args);
    free(r->program);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
    ret = 2;
    goto out;
  }
  int reason = serve(r);
  pthread_join(th, NULL);
  ret = r->status;
  if (reason) {
    cmd_flush(ctx);
    switch (reason) {
    case 1:
      cmd_err_raw(ctx, "%s: error: interrupted (timeout, cancel or limit)\n", prog);
      ret = 126;
      break;
    case 2:
      cmd_err_raw(ctx, "%s: error: memory limit exceeded\n", prog);
      ret = 126;
      break;
    case 3:
      cmd_err_raw(ctx, "%s: error: time limit exceeded\n", prog);
      ret = 126;
      break;
    default: /* stdout closed */
      ret = ctx->out_err == -EPIPE ? 141 : 2;
      break;
    }
  }
  free(r->program);
  pthread_mutex_destroy(&r->mu);
  pthread_cond_destroy(&r->cv);
  free(r);
out:
  jv_free(named);
  if (jv_is_valid(positional)) jv_free(positional);
  free(program_data);
  free(files);
  return ret;
}
