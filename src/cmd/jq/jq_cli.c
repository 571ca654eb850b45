/*
 * jq_cli.c - the jq engine of `jq` and `yq` (see jq/jq_cli.h): the command
 * line's side of sbx's jq 1.8 engine. It reads inputs through ctx, one
 * value at a time (a 4 KiB line-sized chunk is fed to the JSON parser as
 * jq does, so positions in messages are jq's "lines read so far" and a
 * stream of values runs in constant memory), runs the program on each,
 * prints outputs in jq 1.8's formats and reports errors and exit statuses
 * like jq 1.8's main().
 *
 * Bounds: the engine polls ctx every few thousand steps and checks its C
 * stack on every step (jq_eval.c); the values' bytes are counted
 * (jqv_mem_used) against cmd_jq_budget plus JQ_INPUT_FACTOR bytes per
 * input byte; a text conversion (tojson, printing) stops at max_string; a
 * closed output stops the run with 141.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/jq/jq_int.h"
#include "cmd/jq/jq_cli.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/datetime.h"

#define JQ_MAX_PROGRAM (1 << 20)           /* program text bytes */
#define JQ_INPUT_FACTOR 64                 /* budget bytes per input byte read */
#define JQ_BUDGET_CEILING ((size_t)2 << 30) /* the budget's ceiling with inputs */

/* ---- buffers and files ------------------------------------------------------------- */

int cmd_jq_buf_add(cmd_jq_buf *b, const void *p, size_t n) {
  if (n > SIZE_MAX - 1 - b->len || cmd_grow(&b->data, &b->cap, b->len + n + 1, 1)) return -ENOMEM;
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
    cmd_err_raw(ctx, "jq: error: Could not open %s: %s\n", path, cmd_strerror(rc));
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
  if (rc < 0) cmd_err_raw(ctx, "jq: error: Could not open %s: %s\n", path, cmd_strerror(rc));
  return rc;
}

/* ---- module directives ------------------------------------------------------------- */

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

/* ---- the job ---------------------------------------------------------------------- */

struct cmd_jq_job {
  cmd_ctx *ctx;
  cmd_jq_opts *o;
  const char *name;       /* message prefix */
  jq_interp I;            /* the evaluator */
  cmd_tz tz;              /* the sandbox's zone */
  /* text input */
  int next_file;          /* index of the next file to open */
  cmd_in *in;             /* the open file, or NULL */
  jqv filename;           /* its name for input_filename (string or null) */
  unsigned long line;     /* newline-terminated chunks read from it */
  bool eof;               /* all files read */
  int failures;           /* open and read errors */
  jqv_parser *parser;     /* JSON parser (NULL for raw input) */
  jqv slurped;            /* the -s accumulator, or invalid */
  bool slurp_done;        /* the slurped value was handed out */
  char *rbuf;             /* read buffer (JQ_READ bytes) */
  size_t rpos, rlen;      /* its unread part */
  bool each;              /* `.[] | f` over arrays, element by element */
  /* source positions (yq) */
  jqv src_name;
  unsigned long src_line;
  /* output */
  jqv_buf out;            /* pending stdout bytes */
  const char *colors[8];  /* colour escapes (JQ_COLORS) */
  char color_store[8][24];
  bool use_colors;
  int out_err;            /* first write error */
  bool poll_stop;         /* ctx said stop while printing */
  uint64_t in_bytes;      /* input bytes read (budget) */
  size_t base_budget;
};

bool cmd_jq_stopping(cmd_jq_job *job) { return cmd_poll(job->ctx) != 0; }

void cmd_jq_set_position(cmd_jq_job *job, const char *name, unsigned long line) {
  jqv_free(job->src_name);
  job->src_name = name ? jqv_string(name) : jqv_invalid();
  job->src_line = line;
}

int cmd_jq_read_file(cmd_jq_job *job, const char *name, char **data, size_t *len) {
  if (cmd_jq_stopping(job)) return -ECANCELED;
  int rc = cmd_jq_slurp(job->ctx, name, data, len);
  if (rc == 0) job->in_bytes += *len;
  return rc;
}

static void flush_out(cmd_jq_job *job) {
  if (job->out.len == 0) return;
  if (job->o->capture) {
    if (cmd_jq_buf_add(job->o->capture, job->out.data, job->out.len) < 0) job->out_err = -ENOMEM;
  } else if (!job->out_err) {
    int rc = cmd_out(job->ctx, job->out.data, job->out.len);
    if (rc < 0) job->out_err = rc;
  }
  job->out.len = 0;
}

static void err_text(cmd_jq_job *job, const char *s, size_t n) {
  flush_out(job);
  cmd_err_raw(job->ctx, "%.*s", (int)n, s);
}

static void errf(cmd_jq_job *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void errf(cmd_jq_job *job, const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  err_text(job, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The "(at FILE:LINE)" of messages. */
static void position(cmd_jq_job *job, char *buf, size_t size) {
  if (job->o->source.next) {
    if (job->src_name.kind == JQV_KIND_STRING) snprintf(buf, size, "%s:%lu", jqv_string_value(job->src_name), job->src_line);
    else snprintf(buf, size, "<unknown>");
    return;
  }
  if (job->filename.kind == JQV_KIND_STRING) snprintf(buf, size, "%s:%lu", jqv_string_value(job->filename), job->line);
  else snprintf(buf, size, "<unknown>");
}

/* ---- text input ------------------------------------------------------------------- */

/* Opens the next file when none is open. Returns false when there is none. */
static bool open_next(cmd_jq_job *job) {
  while (!job->in) {
    if (job->o->nfiles == 0 && job->next_file == 0) {
      job->next_file = 1;
      job->in = cmd_in_fd(job->ctx, 0);
      jqv_free(job->filename);
      job->filename = jqv_string("<stdin>");
      job->line = 0;
      if (!job->in) return false;
      return true;
    }
    if (job->next_file >= job->o->nfiles) return false;
    const char *f = job->o->files[job->next_file++];
    int rc = cmd_in_open(job->ctx, f, &job->in);
    if (rc < 0) {
      errf(job, "%s: error: Could not open %s: %s\n", job->name, f, cmd_strerror(rc));
      job->failures++;
      job->in = NULL;
      continue;
    }
    jqv_free(job->filename);
    job->filename = jqv_string(strcmp(f, "-") == 0 ? "<stdin>" : f);
    job->line = 0;
  }
  return true;
}

static void close_current(cmd_jq_job *job) {
  if (job->in) cmd_in_close(job->in);
  job->in = NULL;
}

/* Reads the next piece of the inputs into *p (valid until the next call):
 * a line with its newline, or JQ_CHUNK bytes of a longer one (jq's fgets
 * into a 4 KiB buffer), so a one-line 100 MB array is read in constant
 * memory. Returns its length, 0 at the end of all input. */
#define JQ_CHUNK 4095
#define JQ_READ (64 * 1024)
static ssize_t read_chunk(cmd_jq_job *job, const char **p) {
  for (;;) {
    if (!open_next(job)) return 0;
    if (!job->rbuf) {
      job->rbuf = malloc(JQ_READ);
      if (!job->rbuf) {
        errf(job, "%s: error: cannot allocate memory\n", job->name);
        job->failures++;
        return 0;
      }
    }
    if (job->rpos == job->rlen) {
      ssize_t n = cmd_in_read(job->in, job->rbuf, JQ_READ);
      if (n < 0) {
        errf(job, "%s: error: %s: %s\n", job->name, jqv_string_value(job->filename), cmd_strerror((int)n));
        job->failures++;
        n = 0;
      }
      job->rpos = 0;
      job->rlen = (size_t)n;
      if (n == 0) {
        close_current(job);
        continue;
      }
    }
    size_t avail = job->rlen - job->rpos;
    if (avail > JQ_CHUNK) avail = JQ_CHUNK;
    const char *start = job->rbuf + job->rpos;
    const char *nl = memchr(start, '\n', avail);
    size_t n = nl ? (size_t)(nl - start) + 1 : avail;
    if (nl) job->line++;
    job->rpos += n;
    job->in_bytes += n;
    *p = start;
    return (ssize_t)n;
  }
}

/* The next JSON value of the text inputs: a value, an invalid (end), or an
 * invalid with a message (parse error). */
static jqv next_json(cmd_jq_job *job) {
  const char *buf = NULL;
  for (;;) {
    if (cmd_poll(job->ctx)) return jqv_invalid();
    jqv v = jqv_parser_next(job->parser);
    if (jqv_is_valid(v) || jqv_invalid_has_msg(jqv_copy(v))) return v;
    if (job->eof) return jqv_invalid();
    ssize_t n = read_chunk(job, &buf);
    if (n <= 0) {
      job->eof = true;
      jqv_parser_feed(job->parser, "", 0, true);
    } else {
      jqv_parser_feed(job->parser, buf, (size_t)n, false);
    }
  }
}

/* The next raw line (without its newline), or invalid at the end. The
 * line's bytes are gathered before they become a string, so a character
 * split between two reads stays whole. */
static jqv next_raw(cmd_jq_job *job) {
  const char *buf = NULL;
  cmd_jq_buf acc = {0};
  bool any = false;
  for (;;) {
    if (cmd_poll(job->ctx)) {
      cmd_jq_buf_free(&acc);
      return jqv_invalid();
    }
    ssize_t n = job->eof ? 0 : read_chunk(job, &buf);
    if (n <= 0) job->eof = true;
    bool nl = n > 0 && buf[n - 1] == '\n';
    if (n > 0 && cmd_jq_buf_add(&acc, buf, (size_t)n - nl) < 0) {
      cmd_jq_buf_free(&acc);
      return jqv_invalid_with_msg(jqv_string("out of memory"));
    }
    any |= n > 0;
    if (n <= 0 || nl) {
      jqv v = any ? jqv_string_sized(acc.data ? acc.data : "", acc.len) : jqv_invalid();
      cmd_jq_buf_free(&acc);
      return v;
    }
    if (job->ctx->max_string && acc.len > job->ctx->max_string) {
      cmd_jq_buf_free(&acc);
      return jqv_invalid_with_msg(jqv_string("input line too long"));
    }
  }
}

/* The next value of the text inputs with --stream-errors' handling: a
 * parse error becomes the value [message, path] and ends the input. */
static jqv next_json_or_event(cmd_jq_job *job) {
  jqv v = next_json(job);
  if (job->o->stream_errors && !jqv_is_valid(v) && jqv_invalid_has_msg(jqv_copy(v))) {
    jqv msg = jqv_invalid_get_msg(v);
    job->eof = true;
    return JQV_ARRAY(msg, jqv_parser_stream_path(job->parser));
  }
  return v;
}

/* The next input value for the main loop and for input/inputs. */
static jqv next_input(cmd_jq_job *job) {
  cmd_jq_opts *o = job->o;
  if (o->source.next) {
    if (cmd_poll(job->ctx)) return jqv_invalid();
    return o->source.next(job, o->source.ud);
  }
  if (o->slurp) {
    if (job->slurp_done) return jqv_invalid();
    job->slurp_done = true;
    if (o->raw_input) {
      cmd_jq_buf acc = {0};
      const char *buf = NULL;
      ssize_t n;
      while ((n = read_chunk(job, &buf)) > 0) {
        if (cmd_jq_buf_add(&acc, buf, (size_t)n) < 0 || cmd_poll(job->ctx)) break;
      }
      jqv s = jqv_string_sized(acc.data ? acc.data : "", acc.len);
      cmd_jq_buf_free(&acc);
      return s;
    }
    jqv arr = jqv_array();
    for (;;) {
      jqv v = next_json_or_event(job);
      if (!jqv_is_valid(v)) {
        if (jqv_invalid_has_msg(jqv_copy(v))) {
          jqv_free(arr);
          return v;
        }
        break;
      }
      arr = jqv_array_append(arr, v);
    }
    return arr;
  }
  if (o->raw_input) return next_raw(job);
  return next_json_or_event(job);
}

/* ---- host callbacks -------------------------------------------------------------- */

static jqv host_next_input(void *ud) {
  cmd_jq_job *job = ud;
  jqv v = next_input(job);
  if (!jqv_is_valid(v) && jqv_invalid_has_msg(jqv_copy(v))) {
    jqv m = jqv_invalid_get_msg(v);
    return jqv_invalid_with_msg(m);
  }
  return v;
}

static void host_debug(void *ud, jqv v) {
  cmd_jq_job *job = ud;
  jqv_buf b = {0};
  b.limit = job->ctx->max_string ? job->ctx->max_string : (64u << 20);
  /* jq prints ["DEBUG:",v] compact, with the output's colours and order */
  jqv msg = JQV_ARRAY(jqv_string("DEBUG:"), v);
  int flags = job->o->dumpflags & (JQV_PRINT_SORTED | JQV_PRINT_COLOR | JQV_PRINT_ASCII);
  jqv_dump(&b, &msg, flags, job->use_colors ? job->colors : NULL);
  jqv_free(msg);
  jqv_buf_adds(&b, "\n");
  v = jqv_null();
  err_text(job, b.data ? b.data : "", b.len);
  jqv_buf_free(&b);
  jqv_free(v);
}

static void host_stderr(void *ud, jqv v) {
  cmd_jq_job *job = ud;
  if (v.kind == JQV_KIND_STRING) {
    err_text(job, jqv_string_value(v), jqv_string_len(v));
  } else {
    jqv_buf b = {0};
    b.limit = job->ctx->max_string ? job->ctx->max_string : (64u << 20);
    jqv_dump(&b, &v, job->o->dumpflags & JQV_PRINT_SORTED, NULL);
    err_text(job, b.data ? b.data : "", b.len);
    jqv_buf_free(&b);
  }
  jqv_free(v);
}

static jqv host_filename(void *ud) {
  cmd_jq_job *job = ud;
  if (job->o->source.next) return job->src_name.kind == JQV_KIND_STRING ? jqv_copy(job->src_name) : jqv_null();
  return jqv_copy(job->filename);
}

static int host_poll(void *ud) {
  cmd_jq_job *job = ud;
  if (job->out_err) return 1;
  if (job->out.len > 0) flush_out(job);
  size_t budget = job->base_budget + (size_t)(job->in_bytes * JQ_INPUT_FACTOR);
  if (budget > JQ_BUDGET_CEILING) budget = JQ_BUDGET_CEILING;
  job->I.mem_budget = budget;
  return cmd_poll(job->ctx);
}

static int host_line(void *ud) {
  cmd_jq_job *job = ud;
  return (int)(job->line > 0x7fffffff ? 0x7fffffff : job->line);
}

/* ---- output ------------------------------------------------------------------------- */

/* Streams a long output as it is printed; stops on a write error or when
 * ctx says stop (a value can be exponentially long). */
static bool out_flush(void *ud, const char *p, size_t n) {
  cmd_jq_job *job = ud;
  if (job->o->capture) {
    if (cmd_jq_buf_add(job->o->capture, p, n) < 0) job->out_err = -ENOMEM;
  } else if (!job->out_err) {
    int rc = cmd_out(job->ctx, p, n);
    if (rc < 0) job->out_err = rc;
  }
  if (job->out_err) return false;
  if (cmd_poll(job->ctx)) {
    job->poll_stop = true;
    return false;
  }
  return true;
}

typedef struct {
  cmd_jq_job *job;
  int last;      /* -1 none, 0 false/null, 1 other */
  bool failed;   /* formatter or text error */
} out_state;

static int output_cb(jq_interp *I, void *ud, jqv v, jqv path) {
  out_state *s = ud;
  cmd_jq_job *job = s->job;
  cmd_jq_opts *o = job->o;
  jqv_free(path);
  size_t limit = job->ctx->max_string ? job->ctx->max_string : (64u << 20);
  s->last = (v.kind == JQV_KIND_FALSE || v.kind == JQV_KIND_NULL) ? 0 : 1;
  if (o->formatter.format && !(o->raw_output && v.kind == JQV_KIND_STRING)) {
    cmd_jq_buf text = {0}, err = {0};
    if (o->formatter.format(o->formatter.ud, v, &text, &err) < 0) {
      jqv_buf_add(&job->out, text.data ? text.data : "", text.len);
      errf(job, "%s: error: %s\n", job->name, err.data ? err.data : "cannot format");
      cmd_jq_buf_free(&text);
      cmd_jq_buf_free(&err);
      s->failed = true;
      return jq_raise(I, jqv_invalid());
    }
    jqv_buf_add(&job->out, text.data ? text.data : "", text.len);
    cmd_jq_buf_free(&text);
    cmd_jq_buf_free(&err);
    if (job->out.len >= 65536) flush_out(job);
    return job->out_err ? (I->stop_status = 141, JQ_STOP) : JQ_OK; /* the formatter ends its own lines */
  } else if (o->raw_output && v.kind == JQV_KIND_STRING) {
    if (o->raw_output0 && memchr(jqv_string_value(v), 0, jqv_string_len(v))) {
      jqv_free(v);
      return jq_raise(I, jq_error_fmt("Cannot dump a string containing NUL with --raw-output0 option"));
    }
    if (o->ascii_output) {
      jqv_buf_add_json_string(&job->out, jqv_string_value(v), jqv_string_len(v), true);
    } else {
      jqv_buf_add(&job->out, jqv_string_value(v), jqv_string_len(v));
    }
    jqv_free(v);
  } else {
    if (o->seq) jqv_buf_addc(&job->out, '\x1e');
    job->out.flush = out_flush;
    job->out.flush_ud = job;
    bool ok = jqv_dump(&job->out, &v, o->dumpflags, job->use_colors ? job->colors : NULL);
    job->out.flush = NULL;
    jqv_free(v);
    (void)limit;
    if (job->poll_stop) {
      job->out.over = false;
      I->stop_status = 130;
      return JQ_STOP;
    }
    if (job->out_err) {
      job->out.over = false;
      I->stop_status = 141;
      return JQ_STOP;
    }
    if (!ok || job->out.over) {
      job->out.over = false;
      return jq_raise(I, jq_error_fmt("Cannot print this value: out of memory"));
    }
  }
  if (o->raw_output0) jqv_buf_addc(&job->out, '\0');
  else if (!o->join_output) jqv_buf_addc(&job->out, '\n');
  if (job->out.len >= 65536) flush_out(job);
  if (job->out_err) {
    I->stop_status = 141;
    return JQ_STOP;
  }
  return JQ_OK;
}

/* ---- arguments and environment ---------------------------------------------------- */

static jqv parse_texts(const char *data, size_t len) {
  jqv_parser *p = jqv_parser_new(false);
  if (!p) return jqv_invalid_with_msg(jqv_string("out of memory"));
  jqv_parser_feed(p, data, len, true);
  jqv out = jqv_array();
  for (;;) {
    jqv v = jqv_parser_next(p);
    if (jqv_is_valid(v)) {
      out = jqv_array_append(out, v);
      continue;
    }
    if (jqv_invalid_has_msg(jqv_copy(v))) {
      jqv_free(out);
      out = v;
    }
    break;
  }
  jqv_parser_free(p);
  return out;
}

static jqv env_object(cmd_ctx *ctx) {
  jqv env = jqv_object();
  for (char *const *e = ctx->env; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    env = jqv_object_set(env, jqv_string_sized(*e, (size_t)(eq - *e)), jqv_string(eq + 1));
  }
  return env;
}

/* Parses JQ_COLORS ("null:false:true:numbers:strings:arrays:objects:keys"). */
static void set_colors(cmd_jq_job *job, const char *spec) {
  static const char *const defaults[8] = {"0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"};
  for (int i = 0; i < 8; i++) {
    snprintf(job->color_store[i], sizeof job->color_store[i], "%s", defaults[i]);
    job->colors[i] = job->color_store[i];
  }
  if (!spec) return;
  for (int i = 0; i < 8 && *spec; i++) {
    const char *end = strchr(spec, ':');
    size_t n = end ? (size_t)(end - spec) : strlen(spec);
    bool ok = n < sizeof job->color_store[i];
    for (size_t k = 0; k < n && ok; k++) ok = (spec[k] >= '0' && spec[k] <= '9') || spec[k] == ';';
    if (!ok) {
      errf(job, "Failed to set $JQ_COLORS\n");
      for (int j = 0; j < 8; j++) snprintf(job->color_store[j], sizeof job->color_store[j], "%s", defaults[j]);
      return;
    }
    memcpy(job->color_store[i], spec, n);
    job->color_store[i][n] = '\0';
    if (!end) break;
    spec = end + 1;
  }
}

/* ---- running ------------------------------------------------------------------------ */

static void free_hooks(cmd_jq_opts *o) {
  if (o->source.free) o->source.free(o->source.ud);
  if (o->formatter.free) o->formatter.free(o->formatter.ud);
  o->source.free = NULL;
  o->formatter.free = NULL;
}

/* Runs the program on one input; returns jq's process() result: 0 output
 * ended truthy, -1 ended false/null, -4 no output, 5 error, or the stop. */
static int process(cmd_jq_job *job, jqv value, bool element, out_state *os, bool *stop) {
  jq_interp *I = &job->I;
  os->last = -1;
  int rc = element ? jq_eval_element(I, value, output_cb, os) : jq_eval_program(I, value, output_cb, os);
  flush_out(job);
  if (rc == JQ_STOP) {
    *stop = true;
    return 0;
  }
  if (rc == JQ_BREAK) {
    errf(job, "%s: error (at %s): break\n", job->name, "<unknown>");
    return 5;
  }
  if (rc == JQ_ERR) {
    jqv err = I->err;
    I->err = jqv_invalid();
    if (os->failed) {
      jqv_free(err);
      return 5;
    }
    jqv msg = jqv_invalid_get_msg(err);
    char pos[600];
    position(job, pos, sizeof pos);
    if (msg.kind == JQV_KIND_STRING) {
      errf(job, "%s: error (at %s): ", job->name, pos);
      err_text(job, jqv_string_value(msg), jqv_string_len(msg));
      err_text(job, "\n", 1);
    } else {
      jqv_buf b = {0};
      b.limit = 1 << 20;
      jqv_dump(&b, &msg, 0, NULL);
      errf(job, "%s: error (at %s) (not a string): ", job->name, pos);
      err_text(job, b.data ? b.data : "", b.len);
      err_text(job, "\n", 1);
      jqv_buf_free(&b);
    }
    jqv_free(msg);
    return 5;
  }
  return os->last == -1 ? -4 : os->last == 0 ? -1 : 0;
}

static int run(cmd_ctx *ctx, cmd_jq_opts *opts) {
  const char *name = opts->name ? opts->name : "jq";
  if (opts->program_len > JQ_MAX_PROGRAM) {
    cmd_err_raw(ctx, "%s: error: the program is longer than %d bytes\n", name, JQ_MAX_PROGRAM);
    free_hooks(opts);
    return 3;
  }
  /* A module directive (metadata, ignored in a main program) is blanked
   * out, newlines kept; import/include are refused (no library path). */
  char *text = malloc(opts->program_len + 1);
  if (!text) {
    cmd_err_raw(ctx, "%s: error: cannot allocate memory\n", name);
    free_hooks(opts);
    return 5;
  }
  memcpy(text, opts->program, opts->program_len);
  text[opts->program_len] = '\0';
  const char *end = text + opts->program_len;
  const char *tok = first_token(text, end);
  if (word_at(tok, end, "module")) {
    const char *semi = module_end(tok + 6, end);
    if (semi) {
      for (size_t i = (size_t)(tok - text); i <= (size_t)(semi - text); i++)
        if (text[i] != '\n') text[i] = ' ';
      tok = first_token(semi + 1, end);
    }
  }
  if (word_at(tok, end, "import") || word_at(tok, end, "include") || word_at(tok, end, "module")) {
    free(text);
    cmd_err_raw(ctx,
                "%s: error: modules (import, include, module) are not available in the sandbox\n"
                "%s: 1 compile error\n",
                name, name);
    free_hooks(opts);
    return 3;
  }

  cmd_jq_job job_s;
  memset(&job_s, 0, sizeof job_s);
  cmd_jq_job *job = &job_s;
  job->ctx = ctx;
  job->o = opts;
  job->name = name;
  job->filename = jqv_null();
  job->slurped = jqv_invalid();
  job->src_name = jqv_invalid();
  job->base_budget = cmd_jq_budget(ctx);
  size_t mem0 = jqv_mem_used;
  int status = 0;

  /* arguments */
  jqv named = jqv_object(), positional = jqv_array();
  char **names = calloc((size_t)opts->nargs + 1, sizeof *names);
  jqv *named_vals = calloc((size_t)opts->nargs + 1, sizeof *named_vals);
  int nnamed = 0;
  jq_program *prog = NULL;
  if (!names || !named_vals) {
    errf(job, "%s: error: cannot allocate memory\n", name);
    status = 5;
    goto out;
  }
  for (int i = 0; i < opts->nargs; i++) {
    const cmd_jq_arg *a = &opts->args[i];
    jqv v;
    switch (a->kind) {
    case CMD_JQ_ARG_STRING:
    case CMD_JQ_ARG_RAW: v = jqv_string_sized(a->text, a->len); break;
    case CMD_JQ_ARG_JSON:
      v = jqv_parse(a->text, a->len);
      if (!jqv_is_valid(v)) {
        jqv_free(v);
        errf(job,
             "%s: Invalid JSON text passed to --%s\n"
             "Use %s --help for help with command-line options,\n"
             "or see the jq manpage, or online docs  at https://jqlang.org\n",
             name, a->name ? "argjson" : "jsonargs", name);
        status = 2;
        goto out;
      }
      break;
    default:
      v = parse_texts(a->text, a->len);
      if (!jqv_is_valid(v)) {
        jqv msg = jqv_invalid_get_msg(v);
        errf(job, "%s: Bad JSON in --%s %s %s: %s\n", name, a->kind == CMD_JQ_ARG_SLURP ? "slurpfile" : "argfile",
             a->name, a->file, jqv_string_value(msg));
        jqv_free(msg);
        status = 2;
        goto out;
      }
      if (a->kind == CMD_JQ_ARG_ARGFILE && jqv_array_len(v) == 1) v = jqv_array_get(v, 0);
      break;
    }
    if (a->name) {
      named = jqv_object_set(named, jqv_string(a->name), jqv_copy(v));
      names[nnamed] = (char *)a->name;
      named_vals[nnamed++] = v;
    } else {
      positional = jqv_array_append(positional, v);
    }
  }

  char *cerr = NULL;
  prog = jq_compile(text, opts->program_len, names, nnamed, name, &cerr);
  if (!prog) {
    if (cerr) err_text(job, cerr, strlen(cerr));
    else errf(job, "%s: error: out of memory\n%s: 1 compile error\n", name, name);
    free(cerr);
    status = 3;
    goto out;
  }
  cmd_tz_from_env(ctx, &job->tz);
  job->I.env = env_object(ctx);
  job->I.named_args = jqv_copy(named);
  job->I.positional = jqv_copy(positional);
  job->I.now = (double)ctx->now;
  job->I.tzinfo = &job->tz;
  job->I.host = (jq_host){job, host_next_input, host_debug, host_stderr, host_filename, host_poll, host_line};
  job->I.mem_budget = job->base_budget;
  jqv_text_limit = ctx->max_string ? (size_t)ctx->max_string : (64u << 20);
  if (jq_interp_init(&job->I, prog, named_vals) < 0) {
    errf(job, "%s: error: cannot allocate memory\n", name);
    status = 5;
    goto out;
  }
  set_colors(job, opts->colors);
  job->use_colors = opts->dumpflags & JQV_PRINT_COLOR;
  if (!opts->source.next && !opts->raw_input) {
    job->parser = jqv_parser_new(opts->seq);
    if (!job->parser) {
      errf(job, "%s: error: cannot allocate memory\n", name);
      status = 5;
      goto out;
    }
    if (opts->stream || opts->stream_errors) {
      jqv_parser_set_stream(job->parser);
    } else if (!opts->slurp && !opts->seq && !opts->null_input && jq_program_each_input(prog)) {
      /* `.[] | f`: a top-level array is run element by element, in memory
       * proportional to the largest element, not the array */
      jqv_parser_set_each(job->parser);
      job->each = true;
    }
  }

  out_state os = {job, -1, false};
  int ret = -4, last_result = -1;
  bool stop = false;
  if (opts->null_input) {
    ret = process(job, jqv_null(), false, &os, &stop);
    if (ret <= 0 && ret != -4) last_result = ret != -1;
  } else {
    while (!stop && job->failures == 0) {
      jqv value = next_input(job);
      if (jqv_is_valid(value)) {
        /* element mode: an element of a top-level array (the parser took it apart) */
        bool element = job->each && jqv_parser_in_array(job->parser);
        ret = process(job, value, element, &os, &stop);
        if (ret <= 0 && ret != -4) last_result = ret != -1;
        /* an error ends the input value: the rest of its array goes unread */
        if (ret == 5 && job->each) jqv_parser_skip_array(job->parser);
        continue;
      }
      if (!jqv_invalid_has_msg(jqv_copy(value))) break;
      jqv msg = jqv_invalid_get_msg(value);
      const char *m = msg.kind == JQV_KIND_STRING ? jqv_string_value(msg) : "error";
      if (opts->source.next) {
        errf(job, "%s\n", m);
        ret = opts->source_error_status ? opts->source_error_status : 2;
        jqv_free(msg);
        break;
      }
      if (!opts->seq) {
        ret = 2;
        errf(job, "%s: parse error: %s\n", name, m);
        jqv_free(msg);
        break;
      }
      errf(job, "%s: ignoring parse error: %s\n", name, m);
      jqv_free(msg);
    }
  }
  if (job->failures && !stop) ret = 2;
  if (stop) {
    if (job->I.halted) {
      jqv hm = job->I.halt_msg;
      job->I.halt_msg = jqv_invalid();
      if (hm.kind == JQV_KIND_STRING) err_text(job, jqv_string_value(hm), jqv_string_len(hm));
      else if (jqv_is_valid(hm) && hm.kind != JQV_KIND_NULL) {
        jqv_buf b = {0};
        b.limit = 1 << 20;
        jqv_dump(&b, &hm, 0, NULL);
        jqv_buf_addc(&b, '\n');
        err_text(job, b.data ? b.data : "", b.len);
        jqv_buf_free(&b);
      }
      jqv_free(hm);
      status = job->I.halt_code & 0xff;
      if (status < 0) status = 5;
      goto finish;
    }
    if (job->I.stop_msg) {
      flush_out(job);
      if (strcmp(job->I.stop_msg, "memory limit exceeded") == 0)
        errf(job, "%s: error: out of memory: the program needed more than %zu MiB\n", name,
             (size_t)(job->I.mem_budget >> 20));
      else errf(job, "%s: error: %s\n", name, job->I.stop_msg);
      status = 5;
      goto finish;
    }
    status = job->out_err ? 141 : job->I.stop_status ? job->I.stop_status : 130;
    goto finish;
  }
  if (opts->formatter.finish) {
    cmd_jq_buf t = {0}, e = {0};
    if (opts->formatter.finish(opts->formatter.ud, &t, &e) < 0) {
      errf(job, "%s: error: %s\n", name, e.data ? e.data : "cannot format");
      ret = 5;
    }
    jqv_buf_add(&job->out, t.data ? t.data : "", t.len);
    cmd_jq_buf_free(&t);
    cmd_jq_buf_free(&e);
  }
  if (opts->exit_status) {
    if (ret != -4) status = ret < 0 ? -ret : ret;
    else status = last_result == -1 ? 4 : last_result == 0 ? 1 : 0;
  } else {
    status = ret > 0 ? ret : 0;
  }
finish:
  flush_out(job);
  if (job->out_err == -EPIPE) status = 141;
out:
  jq_interp_free(&job->I);
  jqv_free(job->I.env);
  jqv_free(job->I.named_args);
  jqv_free(job->I.positional);
  jq_program_free(prog);
  jqv_free(named);
  jqv_free(positional);
  for (int i = 0; i < nnamed; i++) jqv_free(named_vals[i]);
  free(named_vals);
  free(names);
  free(text);
  close_current(job);
  jqv_parser_free(job->parser);
  jqv_free(job->filename);
  jqv_free(job->slurped);
  free(job->rbuf);
  jqv_free(job->src_name);
  jqv_buf_free(&job->out);
  free_hooks(opts);
  jqv_literals_release(); /* every value of the run is gone */
  (void)mem0;
  return status;
}

/* A run under jqv_oom_jmp: when malloc fails inside a value operation the
 * run is abandoned here with a jq error (status 5); what it held is leaked
 * rather than freed from a half-updated state, and the host goes on. */
int cmd_jq_run(cmd_ctx *ctx, cmd_jq_opts *opts) {
  jmp_buf jb;
  jmp_buf *saved = jqv_oom_jmp;
  if (setjmp(jb)) {
    jqv_oom_jmp = saved;
    cmd_err_raw(ctx, "%s: error: out of memory (malloc failed)\n", opts->name ? opts->name : "jq");
    return 5;
  }
  jqv_oom_jmp = &jb;
  int status = run(ctx, opts);
  jqv_oom_jmp = saved;
  return status;
}
