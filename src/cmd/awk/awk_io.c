/*
 * awk_io.c - input records, the main input (ARGV), and redirections for the
 * awk command.
 *
 * A reader owns a growing buffer over one of the caller's fds and hands out
 * records in place (no copy until $0 takes it): RS of one character scans
 * with memchr, RS="" is paragraph mode, a longer RS is a regex; a regex
 * separator that touches the end of the buffered data is only accepted once
 * more data (or EOF) shows it cannot grow. Records are bounded by
 * ctx->max_string.
 *
 * Redirections (print > file, >>, | cmd, getline < file, cmd | getline) are
 * kept in a list keyed by their string, as awk requires; files open through
 * the store (ctx->io->open), commands run in the sandbox's shell through
 * ctx->io->popen. stdout goes through cmd_out; "/dev/stdout", "-" and
 * "/dev/stderr" are recognised like gawk does. Like gawk, standard output is
 * flushed before a command starts, and at exit pipes are closed (their
 * output lands) before standard output is flushed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"
#include "cmd/lib/buf.h"

/* ---- RS ------------------------------------------------------------------------------ */

void awk_set_RS(awk_interp *in) {
  awk_cell *c = &in->globals[AWK_V_RS];
  awk_str *rs = c->kind == AWK_CELL_VAL ? awk_to_str(in, &c->v) : awk_str_new(in, "\n", 1);
  if (rs->len == 0) {
    in->rs_mode = 1;
  } else if (rs->len == 1) {
    in->rs_mode = 0;
    in->rs_char = rs->p[0];
  } else {
    in->rs_mode = 2;
    in->rs_re = awk_str_re(in, rs);
  }
  awk_str_unref(in, rs);
}

/* ---- readers --------------------------------------------------------------------------- */

/* Reads more data into the reader; 1 if some came, 0 at EOF. */
static int reader_fill(awk_interp *in, awk_reader *rd) {
  if (rd->eof) return 0;
  if (rd->start > 0 && (rd->start == rd->end || rd->start >= rd->cap / 2)) {
    memmove(rd->buf, rd->buf + rd->start, rd->end - rd->start);
    rd->end -= rd->start;
    rd->start = 0;
  }
  if (rd->end == rd->cap) {
    size_t max = in->ctx->max_string + 1;
    if (rd->cap >= max) awk_fatal(in, "record too long (limit %llu bytes)",
                                  (unsigned long long)in->ctx->max_string);
    size_t nc = rd->cap ? rd->cap * 2 : 65536;
    if (nc > max) nc = max;
    char *nb = realloc(rd->buf, nc);
    if (!nb) awk_fatal(in, "out of memory");
    rd->buf = nb;
    rd->cap = nc;
  }
  for (;;) {
    ssize_t n = in->ctx->io->read(in->ctx->io_ud, rd->fd, rd->buf + rd->end, rd->cap - rd->end);
    if (n == -EINTR) continue;
    if (n < 0) {
      rd->err = (int)n;
      rd->eof = true;
      return 0;
    }
    if (n == 0) {
      rd->eof = true;
      return 0;
    }
    rd->end += (size_t)n;
    return 1;
  }
}

int awk_reader_record(awk_interp *in, awk_reader *rd, const char **rec, size_t *len,
                      const char **sep, size_t *seplen) {
  static const char empty[1] = "";
  if (rd->fd < 0) return 0;
  size_t scan = rd->start;
  switch (in->rs_mode) {
  case 0: {
    char c = in->rs_char;
    for (;;) {
      const char *q = rd->end > scan ? memchr(rd->buf + scan, c, rd->end - scan) : NULL;
      if (q) {
        size_t pos = (size_t)(q - rd->buf);
        *rec = rd->buf + rd->start;
        *len = pos - rd->start;
        *sep = q;
        *seplen = 1;
        rd->start = pos + 1;
        return 1;
      }
      size_t off = rd->end - rd->start;
      if (!reader_fill(in, rd)) break;
      scan = rd->start + off;
    }
    break;
  }
  case 1: { /* paragraph mode */
    /* skip leading newlines */
    for (;;) {
      while (rd->start < rd->end && rd->buf[rd->start] == '\n') rd->start++;
      if (rd->start < rd->end) break;
      if (!reader_fill(in, rd)) break;
    }
    scan = rd->start;
    for (;;) {
      const char *q = NULL;
      for (size_t i = scan; i + 1 < rd->end; i++) {
        if (rd->buf[i] == '\n' && rd->buf[i + 1] == '\n') {
          q = rd->buf + i;
          break;
        }
      }
      if (q) {
        size_t pos = (size_t)(q - rd->buf), e = pos;
        while (e < rd->end && rd->buf[e] == '\n') e++;
        if (e == rd->end && !rd->eof) {
          size_t off = pos - rd->start;
          if (reader_fill(in, rd)) {
            scan = rd->start + off;
            continue;
          }
          pos = rd->start + off;
          e = pos;
          while (e < rd->end && rd->buf[e] == '\n') e++;
        }
        *rec = rd->buf + rd->start;
        *len = pos - rd->start;
        *sep = rd->buf + pos;
        *seplen = e - pos;
        rd->start = e;
        return 1;
      }
      size_t off = rd->end > rd->start ? rd->end - rd->start - 1 : 0;
      if (!reader_fill(in, rd)) break;
      scan = rd->start + off;
    }
    /* EOF: the rest, minus trailing newlines (they are the terminator) */
    if (rd->start < rd->end) {
      size_t e = rd->end;
      while (e > rd->start && rd->buf[e - 1] == '\n') e--;
      *rec = rd->buf + rd->start;
      *len = e - rd->start;
      *sep = rd->buf + e;
      *seplen = rd->end - e;
      rd->start = rd->end;
      return 1;
    }
    return rd->err ? -1 : 0;
  }
  default: { /* regex */
    size_t from = 0; /* where to search, relative to rd->start */
    for (;;) {
      if (!rd->buf) {
        if (!reader_fill(in, rd)) break;
        continue;
      }
      const char *base = rd->buf + rd->start;
      size_t avail = rd->end - rd->start, ms = 0, me = 0, f = from;
      int found;
      for (;;) { /* the separator never matches empty */
        found = awk_re_search(in->rs_re, base, avail, f, false, &ms, &me);
        if (!found || me > ms) break;
        if (ms >= avail) {
          found = 0;
          break;
        }
        f = ms + 1;
      }
      /* a match touching the end of the data might grow with more data */
      if (found && (me < avail || rd->eof)) {
        *rec = base;
        *len = ms;
        *sep = base + ms;
        *seplen = me - ms;
        rd->start += me;
        return 1;
      }
      if (rd->eof) break;
      if (!reader_fill(in, rd)) continue; /* EOF now: decide with what we have */
      /* rescan only the tail (a separator longer than 4 KiB may be missed) */
      from = found ? ms : (avail > 4096 ? avail - 4096 : 0);
    }
    break;
  }
  }
  if (rd->start < rd->end) {
    *rec = rd->buf + rd->start;
    *len = rd->end - rd->start;
    *sep = empty;
    *seplen = 0;
    rd->start = rd->end;
    return 1;
  }
  return rd->err ? -1 : 0;
}

void awk_reader_close(awk_interp *in, awk_reader *rd) {
  if (rd->fd >= 0 && rd->own_fd) in->ctx->io->close(in->ctx->io_ud, rd->fd);
  rd->fd = -1;
  free(rd->buf);
  rd->buf = NULL;
  rd->start = rd->end = rd->cap = 0;
  rd->eof = false;
  rd->err = 0;
}

static void reader_open(awk_reader *rd, int fd, bool own) {
  memset(rd, 0, sizeof *rd);
  rd->fd = fd;
  rd->own_fd = own;
}

/* ---- command-line assignments and escapes --------------------------------------------- */

/* Processes awk string escapes of a -v / operand value into a new string. */
static awk_str *unescape_value(awk_interp *in, const char *s, size_t len) {
  awk_str *out = awk_str_alloc(in, len);
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c != '\\' || i + 1 >= len) {
      awk_str_appendc(in, &out, c);
      continue;
    }
    c = s[++i];
    switch (c) {
    case 'n': awk_str_appendc(in, &out, '\n'); break;
    case 't': awk_str_appendc(in, &out, '\t'); break;
    case 'r': awk_str_appendc(in, &out, '\r'); break;
    case 'a': awk_str_appendc(in, &out, '\a'); break;
    case 'b': awk_str_appendc(in, &out, '\b'); break;
    case 'f': awk_str_appendc(in, &out, '\f'); break;
    case 'v': awk_str_appendc(in, &out, '\v'); break;
    case '\\': awk_str_appendc(in, &out, '\\'); break;
    case '"': awk_str_appendc(in, &out, '"'); break;
    case '/': awk_str_appendc(in, &out, '/'); break;
    case '\n': break;
    default:
      if (c >= '0' && c <= '7') {
        int v = 0, n = 0;
        while (n < 3 && i < len && s[i] >= '0' && s[i] <= '7') {
          v = v * 8 + (s[i] - '0');
          i++;
          n++;
        }
        i--;
        awk_str_appendc(in, &out, (char)v);
      } else {
        awk_str_appendc(in, &out, '\\');
        awk_str_appendc(in, &out, c);
      }
    }
  }
  return out;
}

/* "name=value" with a valid identifier: performs it and returns true. */
bool awk_cmdline_assign(awk_interp *in, const char *arg, bool from_v) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg) return false;
  if (!(arg[0] == '_' || (arg[0] >= 'a' && arg[0] <= 'z') || (arg[0] >= 'A' && arg[0] <= 'Z')))
    return false;
  for (const char *p = arg + 1; p < eq; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9')))
      return false;
  char name[256];
  size_t nl = (size_t)(eq - arg);
  if (nl >= sizeof name) return true; /* too long to be one of ours: ignore */
  memcpy(name, arg, nl);
  name[nl] = 0;
  int idx = awk_find_global(&in->prog, name);
  if (idx < 0) return true; /* the program never uses it */
  for (int i = 0; i < in->prog.nfuncs; i++)
    if (!strcmp(in->prog.funcs[i].name, name))
      awk_fatal(in, "cannot use function `%s' as variable name", name);
  awk_str *v = unescape_value(in, eq + 1, strlen(eq + 1));
  (void)from_v;
  awk_assign_global(in, idx, awk_strnumv(v));
  return true;
}

/* ---- main input ------------------------------------------------------------------------ */

static awk_val argv_get(awk_interp *in, int i, bool *present) {
  awk_cell *c = &in->globals[AWK_V_ARGV];
  *present = false;
  if (c->kind != AWK_CELL_ARR) return awk_uninit();
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%d", i);
  awk_str *k = awk_str_new(in, buf, (size_t)n);
  awk_cell *e = awk_arr_get(in, c->arr, k, false);
  awk_str_unref(in, k);
  if (!e || e->kind != AWK_CELL_VAL) {
    *present = e != NULL;
    return awk_uninit();
  }
  *present = true;
  return awk_val_copy(&e->v);
}

static int argc_get(awk_interp *in) {
  awk_cell *c = &in->globals[AWK_V_ARGC];
  if (c->kind != AWK_CELL_VAL) return 0;
  awk_val v = awk_val_copy(&c->v);
  double d = awk_to_num(in, &v);
  awk_val_free(in, &v);
  if (d < 0) return 0;
  if (d > 1e9) return 1000000000;
  return (int)d;
}


static void set_filename(awk_interp *in, awk_str *name) {
  awk_cell *c = &in->globals[AWK_V_FILENAME];
  if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
  c->kind = AWK_CELL_VAL;
  c->v = awk_strv(name);
}

static void run_beginfile(awk_interp *in) {
  if (in->prog.beginfile && awk_run_file_rules(in, in->prog.beginfile))
    longjmp(in->exit_jmp, 5 /* EX_EXIT */);
}

static void end_current_file(awk_interp *in) {
  if (!in->main_open) return;
  awk_reader_close(in, &in->main_rd);
  in->main_open = false;
  if (in->prog.endfile && awk_run_file_rules(in, in->prog.endfile))
    longjmp(in->exit_jmp, 5 /* EX_EXIT */);
}

void awk_skip_file(awk_interp *in) { end_current_file(in); }

/* Opens the next main input file; false when there is none. */
static bool open_next_main(awk_interp *in) {
  if (in->main_done) return false;
  for (;;) {
    int argc = argc_get(in);
    if (in->argi < 1) in->argi = 1;
    if (in->argi >= argc) break;
    int i = in->argi++;
    bool present;
    awk_val v = argv_get(in, i, &present);
    if (!present) continue;
    awk_str *arg = awk_to_str(in, &v);
    awk_val_free(in, &v);
    if (arg->len == 0) {
      awk_str_unref(in, arg);
      continue;
    }
    if (memchr(arg->p, '=', arg->len) && awk_cmdline_assign(in, arg->p, false)) {
      awk_str_unref(in, arg);
      continue;
    }
    in->had_file_operand = true;
    int fd;
    bool own = true;
    if (!strcmp(arg->p, "-") || !strcmp(arg->p, "/dev/stdin")) {
      fd = 0;
      own = false;
    } else {
      fd = in->ctx->io->open(in->ctx->io_ud, arg->p, O_RDONLY, 0);
      if (fd < 0) {
        in->fnr = 0;
        cmd_record_error(in->ctx, fd, arg->p);
        char name[1024];
        snprintf(name, sizeof name, "%s", arg->p);
        awk_str_unref(in, arg);
        awk_fatal(in, "cannot open file `%s' for reading: %s", name, cmd_strerror(fd));
      }
    }
    reader_open(&in->main_rd, fd, own);
    in->main_open = true;
    in->fnr = 0;
    set_filename(in, arg);
    run_beginfile(in);
    return true;
  }
  if (!in->had_file_operand && !in->used_stdin) {
    in->used_stdin = true;
    reader_open(&in->main_rd, 0, false);
    in->main_open = true;
    in->fnr = 0;
    set_filename(in, awk_str_new(in, "-", 1));
    run_beginfile(in);
    return true;
  }
  in->main_done = true;
  return false;
}

int awk_next_main_record(awk_interp *in, awk_str **into_var) {
  for (;;) {
    if (!in->main_open && !open_next_main(in)) return 0;
    const char *rec, *sep;
    size_t len, seplen;
    int r = awk_reader_record(in, &in->main_rd, &rec, &len, &sep, &seplen);
    if (r > 0) {
      if (into_var) *into_var = awk_str_new(in, rec, len);
      else awk_set_rec(in, rec, len);
      in->nr++;
      in->fnr++;
      awk_cell *c = &in->globals[AWK_V_RT];
      /* RT is nearly always the same separator: keep its string then */
      if (c->kind == AWK_CELL_VAL && c->v.type == AWK_STR && c->v.s && c->v.s->len == seplen &&
          memcmp(c->v.s->p, sep, seplen) == 0)
        return 1;
      awk_str *rt = awk_str_new(in, sep, seplen);
      if (c->kind == AWK_CELL_VAL) awk_val_free(in, &c->v);
      c->kind = AWK_CELL_VAL;
      c->v = awk_strv(rt);
      return 1;
    }
    if (in->main_rd.err == -EISDIR) {
      awk_cell *fc = &in->globals[AWK_V_FILENAME];
      awk_warning(in, "command line argument `%s' is a directory: skipped",
                  fc->kind == AWK_CELL_VAL && fc->v.s ? fc->v.s->p : "");
      awk_reader_close(in, &in->main_rd);
      in->main_open = false;
      continue;
    }
    if (in->main_rd.err) {
      awk_cell *fc = &in->globals[AWK_V_FILENAME];
      awk_warning(in, "error reading input file `%s': %s",
                  fc->kind == AWK_CELL_VAL && fc->v.s ? fc->v.s->p : "",
                  cmd_strerror(in->main_rd.err));
    }
    end_current_file(in);
  }
}

/* ---- redirections ---------------------------------------------------------------------- */

static bool is_input_kind(int k) { return k == AOP_RED_IN || k == AOP_RED_CMD; }

static int stream_flush(awk_interp *in, awk_stream *st) {
  int rc = 0;
  if (st->olen == 0) return 0;
  if (st->is_stdout) {
    rc = cmd_out(in->ctx, st->obuf, st->olen);
  } else {
    size_t off = 0;
    while (off < st->olen) {
      ssize_t n = in->ctx->io->write(in->ctx->io_ud, st->fd, st->obuf + off, st->olen - off);
      if (n == -EINTR) continue;
      if (n <= 0) {
        rc = n < 0 ? (int)n : -EIO;
        break;
      }
      off += (size_t)n;
    }
  }
  st->olen = 0;
  return rc;
}

static void stream_free(awk_interp *in, awk_stream *st) {
  if (is_input_kind(st->kind)) awk_reader_close(in, &st->rd);
  free(st->obuf);
  awk_str_unref(in, st->name);
  free(st);
}

/* Starts the command of a `print | cmd' (mode "w", what "output") or a
 * `cmd | getline' (mode "r", what "input") for awk_stream_get, st->fd taking
 * its end of the pipe; returns the popen handle or a negative errno. All output
 * so far is flushed first so that it comes before the command's. Where the host
 * gives no pipes, st is freed and the program dies. */
static int stream_popen(awk_interp *in, awk_stream *st, awk_str *name, const char *mode,
                        const char *what) {
  const cmd_io *io = in->ctx->io;
  awk_flush_all(in);
  cmd_flush(in->ctx);
  if (!io->popen) {
    free(st);
    awk_fatal(in, "cannot open pipe `%s' for %s: pipes are not available here", name->p, what);
  }
  return io->popen(in->ctx->io_ud, name->p, mode, &st->fd);
}

awk_stream *awk_stream_get(awk_interp *in, int kind, awk_str *name, bool quiet) {
  bool input = is_input_kind(kind);
  for (awk_stream *st = in->streams; st; st = st->next) {
    if (st->name->len == name->len && !memcmp(st->name->p, name->p, name->len) &&
        is_input_kind(st->kind) == input)
      return st;
  }
  if (in->nstreams >= AWK_MAX_STREAMS)
    awk_fatal(in, "too many open files or pipes (limit %d)", AWK_MAX_STREAMS);
  awk_stream *st = calloc(1, sizeof *st);
  if (!st) awk_fatal(in, "out of memory");
  st->kind = kind;
  st->handle = -1;
  st->fd = -1;
  const cmd_io *io = in->ctx->io;
  void *ud = in->ctx->io_ud;
  int rc = 0;
  switch (kind) {
  case AOP_RED_FILE:
  case AOP_RED_APPEND:
    if (!strcmp(name->p, "/dev/stdout") || !strcmp(name->p, "-")) {
      st->is_stdout = true;
      st->fd = 1;
      break;
    }
    if (!strcmp(name->p, "/dev/stderr")) {
      st->is_stderr = true;
      st->fd = 2;
      break;
    }
    rc = io->open(ud, name->p, O_WRONLY | O_CREAT | (kind == AOP_RED_APPEND ? O_APPEND : O_TRUNC),
                  0666);
    if (rc < 0) {
      free(st);
      cmd_record_error(in->ctx, rc, name->p);
      awk_fatal(in, "cannot redirect to `%s': %s", name->p, cmd_strerror(rc));
    }
    st->fd = rc;
    break;
  case AOP_RED_PIPE:
    st->handle = stream_popen(in, st, name, "w", "output");
    if (st->handle < 0) {
      int err = st->handle;
      free(st);
      awk_fatal(in, "cannot open pipe `%s' for output: %s", name->p, cmd_strerror(err));
    }
    break;
  case AOP_RED_IN:
    if (!strcmp(name->p, "-") || !strcmp(name->p, "/dev/stdin")) {
      reader_open(&st->rd, 0, false);
      st->fd = 0;
      break;
    }
    rc = io->open(ud, name->p, O_RDONLY, 0);
    if (rc < 0) {
      free(st);
      awk_cell *ec = &in->globals[AWK_V_ERRNO];
      if (ec->kind == AWK_CELL_VAL) awk_val_free(in, &ec->v);
      ec->kind = AWK_CELL_VAL;
      ec->v = awk_strv(awk_str_cstr(in, cmd_strerror(rc)));
      (void)quiet;
      return NULL;
    }
    st->fd = rc;
    reader_open(&st->rd, rc, true);
    break;
  case AOP_RED_CMD:
    st->handle = stream_popen(in, st, name, "r", "input");
    if (st->handle < 0) {
      free(st);
      return NULL;
    }
    reader_open(&st->rd, st->fd, false);
    break;
  }
  st->name = awk_str_ref(name);
  st->next = in->streams;
  in->streams = st;
  in->nstreams++;
  return st;
}

int awk_stream_write(awk_interp *in, awk_stream *st, const char *p, size_t n) {
  if (st->is_stderr) {
    cmd_write_fd(in->ctx, 2, p, n);
    return 0;
  }
  if (st->is_stdout) {
    int rc = cmd_out(in->ctx, p, n);
    if (rc < 0) {
      in->status = rc == -EPIPE ? 141 : 2;
      longjmp(in->fatal_jmp, 1);
    }
    return 0;
  }
  if (st->olen + n > 65536 && st->olen) {
    int rc = stream_flush(in, st);
    if (rc < 0) awk_fatal(in, "print to \"%s\" failed: %s", st->name->p, cmd_strerror(rc));
  }
  if (n > 65536) {
    /* large write: straight through */
    size_t off = 0;
    while (off < n) {
      ssize_t w = in->ctx->io->write(in->ctx->io_ud, st->fd, p + off, n - off);
      if (w == -EINTR) continue;
      if (w <= 0) awk_fatal(in, "print to \"%s\" failed: %s", st->name->p,
                            cmd_strerror(w < 0 ? (int)w : -EIO));
      off += (size_t)w;
    }
    return 0;
  }
  if (cmd_grow(&st->obuf, &st->ocap, st->olen + n, 1)) awk_fatal(in, "out of memory");
  memcpy(st->obuf + st->olen, p, n);
  st->olen += n;
  return 0;
}

/* Closes one stream; returns close()'s value. */
static int stream_close(awk_interp *in, awk_stream *st) {
  int result = 0;
  if (!is_input_kind(st->kind)) {
    if (stream_flush(in, st) < 0) result = -1;
  }
  if (st->handle >= 0) {
    if (is_input_kind(st->kind)) {
      awk_reader_close(in, &st->rd);
    }
    int status = in->ctx->io->pclose(in->ctx->io_ud, st->handle);
    result = status;
    st->handle = -1;
  } else if (!st->is_stdout && !st->is_stderr && st->fd > 2) {
    if (is_input_kind(st->kind)) {
      awk_reader_close(in, &st->rd);
    } else if (in->ctx->io->close(in->ctx->io_ud, st->fd) < 0) {
      result = -1;
    }
  }
  st->fd = -1;
  return result;
}

int awk_stream_close(awk_interp *in, awk_str *name, bool *found) {
  *found = false;
  for (awk_stream **pp = &in->streams; *pp; pp = &(*pp)->next) {
    awk_stream *st = *pp;
    if (st->name->len == name->len && !memcmp(st->name->p, name->p, name->len)) {
      *pp = st->next;
      in->nstreams--;
      *found = true;
      int r = stream_close(in, st);
      stream_free(in, st);
      return r;
    }
  }
  return -1;
}

void awk_close_all(awk_interp *in) {
  while (in->streams) {
    awk_stream *st = in->streams;
    in->streams = st->next;
    in->nstreams--;
    stream_close(in, st);
    stream_free(in, st);
  }
  if (in->main_open) {
    awk_reader_close(in, &in->main_rd);
    in->main_open = false;
  }
}

int awk_flush_all(awk_interp *in) {
  int rc = 0;
  for (awk_stream *st = in->streams; st; st = st->next)
    if (!is_input_kind(st->kind) && stream_flush(in, st) < 0) rc = -1;
  if (cmd_flush(in->ctx) < 0) rc = -1;
  return rc;
}

int awk_fflush_name(awk_interp *in, awk_str *name) {
  for (awk_stream *st = in->streams; st; st = st->next)
    if (!is_input_kind(st->kind) && st->name->len == name->len &&
        !memcmp(st->name->p, name->p, name->len))
      return stream_flush(in, st) < 0 ? -1 : 0;
  if (!strcmp(name->p, "/dev/stdout")) return cmd_flush(in->ctx) < 0 ? -1 : 0;
  awk_warning(in, "fflush: `%s' is not an open file, pipe or co-process", name->p);
  return -1;
}

