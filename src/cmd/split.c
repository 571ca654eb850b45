/*
 * split - split a file into pieces.
 *
 *   Usage: split [OPTION]... [FILE [PREFIX]]
 *   -a, --suffix-length=N   -b, --bytes=SIZE   -C, --line-bytes=SIZE
 *   -d, --numeric-suffixes[=FROM]  -x, --hex-suffixes[=FROM]
 *   --additional-suffix=SUFFIX  -e, --elide-empty-files
 *   -l, --lines=NUMBER  -n, --number=CHUNKS (N, K/N, l/N, l/K/N, r/N, r/K/N)
 *   -t, --separator=SEP  -u, --unbuffered (ignored)  --verbose
 *   --filter=COMMAND  write each piece to the standard input of COMMAND, run
 *                     by the sandbox's shell with FILE set to the piece's name
 *
 * Design: output files are created in the store through ctx->io; names
 * follow GNU exactly, including the automatic widening of the suffix when
 * -a is not given (xaa..xyz, then xzaaa...; x00..x89, then x9000...) and
 * "output file suffixes exhausted". -l/-b/-C and r/N stream the input;
 * N, K/N and l/N need the input size (a store file; a pipe gives GNU's
 * "cannot determine file size").
 *
 * --filter starts `sh -c COMMAND` for each piece through ctx->io->popen (the
 * script is `FILE='name'; export FILE; (COMMAND); st=$?; cat >/dev/null;
 * exit $st`), writes the piece into its pipe and waits for it at the next
 * piece (r/N keeps all N open, as GNU does; the shell allows 64 at once, and
 * they are closed last first, see split_round_robin). A filter that stops
 * reading is not an error: GNU blocks SIGPIPE and ignores EPIPE; here the
 * trailing cat drains the rest of the piece, because the shell would end a
 * subshell writing to a pipe without readers. A non-zero exit status ends split with
 * GNU's "with FILE=NAME, exit N from command: COMMAND" and that status.
 * split's own stdout (--verbose) is buffered, so it follows the filters'
 * output as GNU's fully buffered stdout does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("split", cmd_split_main);

#define SPLIT_BLOCK 65536

enum split_type { T_NONE, T_LINES, T_BYTES, T_LINE_BYTES, T_CHUNK_BYTES, T_CHUNK_LINES, T_RR };

typedef struct split_state {
  cmd_ctx *ctx;
  const char *prefix;         /* output base name */
  const char *addsuf;         /* --additional-suffix */
  const char *alphabet;       /* suffix characters */
  size_t suffix_length;       /* current suffix length */
  bool suffix_auto;           /* widen when the first character wraps */
  const char *numeric_start;  /* --numeric-suffixes=FROM digits */
  char *name;                 /* current output name (malloc'd) */
  size_t base_len;            /* prefix length (grows when widened) */
  size_t *idx;                /* suffix digit indexes (malloc'd) */
  bool verbose;               /* --verbose */
  bool elide;                 /* -e */
  int fd;                     /* current output, -1 none */
  int handle;                 /* --filter: popen handle of fd, -1 none */
  const char *filter;         /* --filter=COMMAND or NULL */
  int exit_status;            /* a filter's non-zero exit status, else 0 */
  bool failed;                /* an error was reported */
} split_state;

static int split_fail(split_state *st) {
  st->failed = true;
  return -1;
}

/* Builds the first name, or the next one. Returns 0 or -1 (reported). */
static int split_next_name(split_state *st) {
  size_t alen = strlen(st->alphabet);
  if (st->name) {
    for (size_t i = st->suffix_length; i-- > 0;) {
      st->idx[i]++;
      if (st->suffix_auto && i == 0 && st->idx[0] + 1 >= alen) {
        /* Widen: the last character moves into the base. */
        size_t nbase = st->base_len + 1, nsuf = st->suffix_length + 1;
        size_t addl = st->addsuf ? strlen(st->addsuf) : 0;
        char *nn = malloc(nbase + nsuf + addl + 1);
        size_t *ni = calloc(nsuf, sizeof *ni);
        if (!nn || !ni) {
          free(nn);
          free(ni);
          return split_fail(st);
        }
        memcpy(nn, st->name, st->base_len);
        nn[st->base_len] = st->alphabet[st->idx[0]];
        memset(nn + nbase, st->alphabet[0], nsuf);
        if (addl) memcpy(nn + nbase + nsuf, st->addsuf, addl);
        nn[nbase + nsuf + addl] = 0;
        free(st->name);
        free(st->idx);
        st->name = nn;
        st->idx = ni;
        st->base_len = nbase;
        st->suffix_length = nsuf;
        return 0;
      }
      if (st->idx[i] < alen) {
        st->name[st->base_len + i] = st->alphabet[st->idx[i]];
        return 0;
      }
      st->idx[i] = 0;
      st->name[st->base_len + i] = st->alphabet[0];
    }
    cmd_errorf(st->ctx, "output file suffixes exhausted");
    return split_fail(st);
  }
  st->base_len = strlen(st->prefix);
  size_t addl = st->addsuf ? strlen(st->addsuf) : 0;
  st->name = malloc(st->base_len + st->suffix_length + addl + 1);
  st->idx = calloc(st->suffix_length ? st->suffix_length : 1, sizeof *st->idx);
  if (!st->name || !st->idx) return split_fail(st);
  memcpy(st->name, st->prefix, st->base_len);
  memset(st->name + st->base_len, st->alphabet[0], st->suffix_length);
  if (addl) memcpy(st->name + st->base_len + st->suffix_length, st->addsuf, addl);
  st->name[st->base_len + st->suffix_length + addl] = 0;
  if (st->numeric_start) {
    size_t n = strlen(st->numeric_start);
    memcpy(st->name + st->base_len + st->suffix_length - n, st->numeric_start, n);
    for (size_t i = 0; i < n; i++)
      st->idx[st->suffix_length - n + i] = (size_t)(st->numeric_start[i] - '0');
  }
  return 0;
}

/* Closes an output: a file, or a filter's pipe (then waits for the filter).
 * Returns 0, or -1 after reporting a filter's failure. */
static int split_close_output(split_state *st, int fd, int handle, const char *name) {
  if (handle >= 0) {
    int status = st->ctx->io->pclose(st->ctx->io_ud, handle);
    /* 141: the filter died of SIGPIPE, which GNU does not report */
    if (status != 0 && status != 141 && !st->exit_status) {
      if (status < 0) {
        cmd_errorf(st->ctx, "with FILE=%s, %s from command: %s", cmd_gnu_quotef(st->ctx, name),
                   cmd_strerror(status), st->filter);
        status = 1;
      } else {
        cmd_errorf(st->ctx, "with FILE=%s, exit %d from command: %s",
                   cmd_gnu_quotef(st->ctx, name), status, st->filter);
      }
      st->exit_status = status;
      return split_fail(st);
    }
    return 0;
  }
  if (fd >= 0) st->ctx->io->close(st->ctx->io_ud, fd);
  return 0;
}

static int split_close(split_state *st) {
  int rc = split_close_output(st, st->fd, st->handle, st->name);
  st->fd = -1;
  st->handle = -1;
  return rc;
}

/* --filter: starts the filter for the current name (st->fd, st->handle). */
static int split_start_filter(split_state *st) {
  cmd_ctx *ctx = st->ctx;
  if (st->verbose) cmd_outf(ctx, "executing with FILE=%s\n", cmd_gnu_quotef(ctx, st->name));
  if (!ctx->io->popen) {
    cmd_errorf(ctx, "--filter: commands cannot be run here");
    return split_fail(st);
  }
  /* FILE='name' with each ' written as '\'' */
  size_t nlen = strlen(st->name), flen = strlen(st->filter);
  char *script = malloc(nlen * 4 + flen + 96);
  if (!script) return split_fail(st);
  char *o = script;
  o += sprintf(o, "FILE='");
  for (const char *p = st->name; *p; p++) {
    if (*p == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *p;
    }
  }
  o += sprintf(o, "'; export FILE\n(%s\n)\n", st->filter);
  strcpy(o, "st=$?; command cat >/dev/null; exit $st\n");
  int fd = -1;
  int h = ctx->io->popen(ctx->io_ud, script, "w", &fd);
  free(script);
  if (h < 0) {
    cmd_errorf(ctx, "with FILE=%s, cannot run command: %s: %s", cmd_gnu_quotef(ctx, st->name),
               st->filter, cmd_strerror(h));
    return split_fail(st);
  }
  st->fd = fd;
  st->handle = h;
  return 0;
}

/* Closes the current output and opens the next file. */
static int split_open_next(split_state *st) {
  if (split_close(st) < 0) return -1;
  if (split_next_name(st) < 0) return -1;
  if (st->filter) return split_start_filter(st);
  if (st->verbose) cmd_outf(st->ctx, "creating file %s\n", cmd_gnu_quoteaf(st->ctx, st->name));
  int fd = st->ctx->io->open(st->ctx->io_ud, st->name, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    cmd_gnu_perror(st->ctx, st->name, fd);
    return split_fail(st);
  }
  st->fd = fd;
  return 0;
}

static int split_write(split_state *st, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = st->ctx->io->write(st->ctx->io_ud, st->fd, p, n);
    if (w == -EINTR) continue;
    if (w == -EPIPE && st->filter) return 0; /* the filter stopped reading */
    if (w < 0) {
      cmd_gnu_perror(st->ctx, st->name, (int)w);
      return split_fail(st);
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* -l N (records) and -b N (bytes): a new file before the first byte of each piece. */
static int split_stream(split_state *st, cmd_in *in, enum split_type type, uintmax_t n, char sep) {
  char *buf = malloc(SPLIT_BLOCK);
  if (!buf) return split_fail(st);
  uintmax_t left = 0; /* units left in the current file (0: need a new one) */
  int rc = 0;
  for (;;) {
    ssize_t r = cmd_in_read(in, buf, SPLIT_BLOCK);
    if (r < 0) {
      cmd_gnu_perror(st->ctx, "-", (int)r);
      rc = split_fail(st);
      break;
    }
    if (r == 0) break;
    char *p = buf, *e = buf + r;
    while (p < e) {
      if (left == 0) {
        if (split_open_next(st) < 0) {
          rc = -1;
          goto out;
        }
        left = n;
      }
      size_t take;
      if (type == T_BYTES) {
        take = (uintmax_t)(e - p) < left ? (size_t)(e - p) : (size_t)left;
        left -= take;
      } else {
        char *q = p;
        while (q < e && left > 0) {
          char *nl = memchr(q, sep, (size_t)(e - q));
          if (!nl) {
            q = e;
            break;
          }
          q = nl + 1;
          left--;
        }
        take = (size_t)(q - p);
      }
      if (split_write(st, p, take) < 0) {
        rc = -1;
        goto out;
      }
      p += take;
    }
    if (cmd_poll(st->ctx)) {
      rc = split_fail(st);
      break;
    }
  }
out:
  free(buf);
  return rc;
}

/* -C N: at most N bytes of whole records per file; longer records are cut. */
static int split_line_bytes(split_state *st, cmd_in *in, uintmax_t n, char sep) {
  uintmax_t used = 0;
  bool open = false;
  for (;;) {
    char *line;
    ssize_t r = cmd_in_getdelim(in, &line, sep);
    if (r < 0) {
      cmd_gnu_perror(st->ctx, "-", (int)r);
      return split_fail(st);
    }
    if (r == 0) break;
    size_t len = (size_t)r;
    const char *p = line;
    while (len > 0) {
      if (open && used + len > n) open = false; /* does not fit: next file */
      if (!open) {
        if (split_open_next(st) < 0) return -1;
        open = true;
        used = 0;
      }
      size_t take = len;
      if (take > n - used) take = (size_t)(n - used);
      if (split_write(st, p, take) < 0) return -1;
      used += take;
      p += take;
      len -= take;
      if (used == n) open = false;
    }
    if (cmd_poll(st->ctx)) return split_fail(st);
  }
  return 0;
}

/* Copies bytes [from, to) of the seekable input fd to the current output,
 * or to stdout when to_stdout. */
static int split_copy_range(split_state *st, int fd, uint64_t from, uint64_t to, bool to_stdout) {
  char *buf = malloc(SPLIT_BLOCK);
  if (!buf) return split_fail(st);
  int rc = 0;
  if (st->ctx->io->lseek(st->ctx->io_ud, fd, (int64_t)from, SEEK_SET) < 0) rc = split_fail(st);
  while (rc == 0 && from < to) {
    size_t want = to - from < SPLIT_BLOCK ? (size_t)(to - from) : SPLIT_BLOCK;
    ssize_t r = st->ctx->io->read(st->ctx->io_ud, fd, buf, want);
    if (r <= 0) break;
    if (to_stdout) cmd_out(st->ctx, buf, (size_t)r);
    else if (split_write(st, buf, (size_t)r) < 0) rc = -1;
    from += (uint64_t)r;
  }
  free(buf);
  return rc;
}

/* Offset just after the record containing byte `pos` (or size). */
static uint64_t split_record_end(split_state *st, int fd, uint64_t pos, uint64_t size, char sep) {
  char buf[4096];
  if (st->ctx->io->lseek(st->ctx->io_ud, fd, (int64_t)pos, SEEK_SET) < 0) return size;
  while (pos < size) {
    size_t want = size - pos < sizeof buf ? (size_t)(size - pos) : sizeof buf;
    ssize_t r = st->ctx->io->read(st->ctx->io_ud, fd, buf, want);
    if (r <= 0) return size;
    char *nl = memchr(buf, sep, (size_t)r);
    if (nl) return pos + (uint64_t)(nl - buf) + 1;
    pos += (uint64_t)r;
  }
  return size;
}

/* -n N, K/N, l/N, l/K/N over a seekable input of `size` bytes. */
static int split_chunks(split_state *st, int fd, uint64_t size, bool lines, uintmax_t k,
                        uintmax_t n, char sep) {
  /* GNU uses at least one byte per chunk when there are fewer bytes. */
  uint64_t chunk = size / n ? size / n : 1;
  uint64_t start = 0;
  for (uintmax_t i = 1; i <= n; i++) {
    uint64_t end;
    if (!lines) {
      start = (i - 1) * chunk < size ? (i - 1) * chunk : size;
      end = i == n || i * chunk > size ? size : i * chunk;
    } else {
      uint64_t boundary = i == n || i * chunk > size ? size : i * chunk;
      if (boundary == 0 || start >= boundary) end = start; /* swallowed by a long record */
      else end = i == n ? size : split_record_end(st, fd, boundary - 1, size, sep);
    }
    if (k == 0 || k == i) {
      if (k) {
        if (split_copy_range(st, fd, start, end, true) < 0) return -1;
        return 0;
      }
      if (!(st->elide && end == start)) {
        if (split_open_next(st) < 0) return -1;
        if (split_copy_range(st, fd, start, end, false) < 0) return -1;
      }
    }
    if (lines) start = end;
    if (cmd_poll(st->ctx)) return split_fail(st);
  }
  return 0;
}

/* r/N and r/K/N: records dealt round robin. */
static int split_round_robin(split_state *st, cmd_in *in, uintmax_t k, uintmax_t n, char sep) {
  int *fds = NULL, *handles = NULL;
  char **names = NULL;
  int rc = 0;
  if (!k) {
    fds = calloc((size_t)n, sizeof *fds);
    handles = calloc((size_t)n, sizeof *handles);
    names = calloc((size_t)n, sizeof *names);
    if (!fds || !names || !handles) {
      free(fds);
      free(handles);
      free(names);
      return split_fail(st);
    }
    for (uintmax_t i = 0; i < n; i++) {
      if (split_open_next(st) < 0) {
        rc = -1;
        n = i;
        goto out;
      }
      fds[i] = st->fd;
      handles[i] = st->handle;
      names[i] = strdup(st->name);
      st->fd = -1; /* kept in fds */
      st->handle = -1;
    }
  }
  for (uintmax_t i = 0;; i = (i + 1) % n) {
    char *line;
    ssize_t r = cmd_in_getdelim(in, &line, sep);
    if (r < 0) {
      cmd_gnu_perror(st->ctx, "-", (int)r);
      rc = split_fail(st);
      break;
    }
    if (r == 0) break;
    if (k) {
      if (i + 1 == k) cmd_out(st->ctx, line, (size_t)r);
      continue;
    }
    st->fd = fds[i];
    const char *saved = st->name;
    char *nm = names[i];
    st->name = nm;
    int w = split_write(st, line, (size_t)r);
    st->name = (char *)saved;
    st->fd = -1;
    if (w < 0) {
      rc = -1;
      break;
    }
    if ((i & 1023) == 0 && cmd_poll(st->ctx)) {
      rc = split_fail(st);
      break;
    }
  }
out:
  if (fds) {
    /* Last first: each filter's shell holds copies of the earlier pipes'
     * write ends, so those see end-of-file only once the later ones end. */
    for (uintmax_t i = n; i-- > 0;)
      if (split_close_output(st, fds[i], handles[i], names[i] ? names[i] : "") < 0) rc = -1;
    for (uintmax_t i = 0; i < n; i++) free(names[i]);
  }
  free(fds);
  free(handles);
  free(names);
  return rc;
}

static int split_conflict(cmd_ctx *ctx) {
  cmd_errorf(ctx, "cannot split in more than one way");
  return cmd_usage_hint(ctx, 1);
}

static const char split_usage[] =
    "Usage: split [OPTION]... [FILE [PREFIX]]\n"
    "Output pieces of FILE to PREFIXaa, PREFIXab, ...;\n"
    "default size is 1000 lines, and default PREFIX is 'x'.\n\n"
    "  -a, --suffix-length=N   generate suffixes of length N (default 2)\n"
    "      --additional-suffix=SUFFIX  append an additional SUFFIX to file names\n"
    "  -b, --bytes=SIZE        put SIZE bytes per output file\n"
    "  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file\n"
    "  -d                      use numeric suffixes starting at 0, not alphabetic\n"
    "      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value\n"
    "  -x                      use hex suffixes starting at 0, not alphabetic\n"
    "      --hex-suffixes[=FROM]  same as -x, but allow setting the start value\n"
    "  -e, --elide-empty-files  do not generate empty output files with '-n'\n"
    "      --filter=COMMAND    write to shell COMMAND; file name is $FILE\n"
    "  -l, --lines=NUMBER      put NUMBER lines/records per output file\n"
    "  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below\n"
    "  -t, --separator=SEP     use SEP instead of newline as the record separator\n"
    "  -u, --unbuffered        immediately copy input to output with '-n r/...'\n"
    "      --verbose           print a diagnostic just before each\n"
    "                            output file is opened\n"
    CMD_HELP_VERSION_LINES;

int cmd_split_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_ADDSUF = CMD_OPT_LONG, O_FILTER, O_VERBOSE, O_IO_BLKSIZE };
  /* The long names in GNU's order ("--l": '--lines' '--line-bytes'), --help
   * and --version after them. */
  static const char spec[] = "(help)(version)(additional-suffix):(filter):(verbose)(io-blksize):b:(bytes)"
                             "l:(lines)C:(line-bytes)n:(number)e(elide-empty-files)u(unbuffered)"
                             "a:(suffix-length)d::(numeric-suffixes)x::(hex-suffixes)"
                             "t:(separator)0123456789";
  split_state *st = cmd_alloc(ctx, sizeof *st);
  if (!st) return 1;
  st->ctx = ctx;
  st->alphabet = "abcdefghijklmnopqrstuvwxyz";
  st->suffix_length = 2;
  st->suffix_auto = true;
  st->fd = -1;
  st->handle = -1;
  enum split_type type = T_NONE;
  uintmax_t n = 0, chunk_k = 0;
  bool chunk_lines = false, chunk_rr = false, suffix_given = false;
  char sep = '\n';
  bool sep_given = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'a': {
      uintmax_t v;
      if (cmd_parse_umax_or_die(ctx, g.arg, "", 0, 4096, "invalid suffix length", &v) < 0)
        return 1;
      /* -a 0 means the default (as in GNU). */
      if (v) {
        st->suffix_length = (size_t)v;
        st->suffix_auto = false;
        suffix_given = true;
      }
      break;
    }
    case 'b': case 'C': case 'l': {
      enum split_type t = c == 'b' ? T_BYTES : c == 'C' ? T_LINE_BYTES : T_LINES;
      if (type != T_NONE) return split_conflict(ctx);
      type = t;
      if (cmd_parse_umax_or_die(ctx, g.arg, c == 'l' ? "" : "bEGKkMmPTYZ0", 1, UINTMAX_MAX,
                                c == 'l' ? "invalid number of lines" : "invalid number of bytes",
                                &n) < 0)
        return 1;
      break;
    }
    case 'n': {
      if (type != T_NONE) return split_conflict(ctx);
      const char *s = g.arg;
      if (strncmp(s, "l/", 2) == 0) chunk_lines = true, s += 2;
      else if (strncmp(s, "r/", 2) == 0) chunk_rr = true, s += 2;
      const char *slash = strchr(s, '/');
      if (slash) {
        char *kstr = cmd_alloc(ctx, (size_t)(slash - s) + 1);
        if (!kstr) return 1;
        memcpy(kstr, s, (size_t)(slash - s));
        if (cmd_parse_umax_or_die(ctx, kstr, "", 1, UINTMAX_MAX, "invalid chunk number",
                                  &chunk_k) < 0)
          return 1;
        s = slash + 1;
      }
      /* GNU bounds N by OFF_T_MAX (2^63 chunks never finish) */
      if (cmd_parse_umax_or_die(ctx, s, "", 1, INT64_MAX, "invalid number of chunks", &n) < 0)
        return 1;
      if (chunk_k > n) {
        char num[32];
        snprintf(num, sizeof num, "%ju", chunk_k);
        cmd_errorf(ctx, "invalid chunk number: %s: %s", cmd_gnu_quote(ctx, num),
                   cmd_strerror(ERANGE));
        return 1;
      }
      type = chunk_rr ? T_RR : chunk_lines ? T_CHUNK_LINES : T_CHUNK_BYTES;
      break;
    }
    case 'd': case 'x':
      st->alphabet = c == 'd' ? "0123456789" : "0123456789abcdef";
      if (g.arg) {
        if (strspn(g.arg, c == 'd' ? "0123456789" : "0123456789abcdefABCDEF") != strlen(g.arg) ||
            !*g.arg) {
          cmd_errorf(ctx, "%s: invalid start value for %s suffixes", g.arg,
                     c == 'd' ? "numerical" : "hexadecimal");
          return 1;
        }
        /* Leading zeros do not count. */
        const char *p = g.arg;
        while (p[0] == '0' && p[1]) p++;
        st->numeric_start = p;
        st->suffix_auto = false;
      }
      break;
    case 'e': st->elide = true; break;
    case 't':
      if (!g.arg[0]) {
        cmd_errorf(ctx, "empty record separator");
        return 1;
      }
      if (g.arg[1]) {
        if (strcmp(g.arg, "\\0") == 0) {
          if (sep_given && sep != 0) {
            cmd_errorf(ctx, "multiple separator characters specified");
            return 1;
          }
          sep = 0;
        } else {
          cmd_errorf(ctx, "multi-character separator %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
      } else {
        if (sep_given && sep != g.arg[0]) {
          cmd_errorf(ctx, "multiple separator characters specified");
          return 1;
        }
        sep = g.arg[0];
      }
      sep_given = true;
      break;
    case 'u': case O_IO_BLKSIZE: break;
    case O_ADDSUF:
      if (strchr(g.arg, '/')) {
        cmd_errorf(ctx, "invalid suffix %s, contains directory separator",
                   cmd_gnu_quote(ctx, g.arg));
        return cmd_usage_hint(ctx, 1);
      }
      st->addsuf = g.arg;
      break;
    case O_FILTER: st->filter = g.arg; break;
    case O_VERBOSE: st->verbose = true; break;
    CMD_CASES_HELP_VERSION(ctx, split_usage);
    default:
      if (c >= '0' && c <= '9') {
        /* Obsolete -NUM: lines. */
        if (type != T_NONE && type != T_LINES) return split_conflict(ctx);
        if (type == T_NONE) n = 0;
        type = T_LINES;
        n = n * 10 + (uintmax_t)(c - '0');
        break;
      }
      return 1; /* cmd_getopt printed the message */
    }
  }
  if (type == T_NONE) {
    type = T_LINES;
    n = 1000;
  }
  if (chunk_k && st->filter) {
    cmd_errorf(ctx, "--filter does not process a chunk extracted to stdout");
    return cmd_usage_hint(ctx, 1);
  }
  if (type == T_LINES && n == 0) {
    cmd_errorf(ctx, "invalid number of lines: %s: %s", cmd_gnu_quote(ctx, "0"),
               cmd_strerror(ERANGE));
    return 1;
  }
  int nops = argc - g.ind;
  if (nops > 2) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + 2]));
    return cmd_usage_hint(ctx, 1);
  }
  const char *infile = nops >= 1 ? argv[g.ind] : "-";
  st->prefix = nops >= 2 ? argv[g.ind + 1] : "x";
  /* Chunked modes need enough suffix characters for every file. */
  if (type == T_CHUNK_BYTES || type == T_CHUNK_LINES || type == T_RR) {
    size_t alen = strlen(st->alphabet), need = 1;
    for (uintmax_t cap = alen; cap < n + (st->numeric_start ? strtoumax(st->numeric_start, NULL, 10) : 0);
         cap *= alen)
      need++;
    if (!suffix_given && need > st->suffix_length) st->suffix_length = need;
    else if (need > st->suffix_length) {
      cmd_errorf(ctx, "the suffix length needs to be at least %zu", need);
      return 1;
    }
    st->suffix_auto = false;
  }
  if (st->numeric_start && strlen(st->numeric_start) > st->suffix_length) {
    cmd_errorf(ctx, "numerical suffix start value is too large for the suffix length");
    return 1;
  }
  int status = 0;
  if (type == T_CHUNK_BYTES || type == T_CHUNK_LINES) {
    int fd = cmd_open_input(ctx, infile);
    if (fd < 0) {
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, infile),
                 cmd_strerror(fd));
      return 1;
    }
    int64_t cur = ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_CUR);
    int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, fd, 0, SEEK_END) : -1;
    if (cur < 0 || end < 0 || cur != 0) {
      cmd_errorf(ctx, "%s: cannot determine file size", infile);
      cmd_close_input(ctx, fd);
      return 1;
    }
    if (split_chunks(st, fd, (uint64_t)end, type == T_CHUNK_LINES, chunk_k, n, sep) < 0)
      status = 1;
    cmd_close_input(ctx, fd);
  } else {
    cmd_in *in;
    int r = cmd_in_open(ctx, infile, &in);
    if (r < 0) {
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, infile),
                 cmd_strerror(r));
      return 1;
    }
    if (type == T_RR) r = split_round_robin(st, in, chunk_k, n, sep);
    else if (type == T_LINE_BYTES) r = split_line_bytes(st, in, n, sep);
    else r = split_stream(st, in, type, n, sep);
    if (r < 0) status = 1;
    cmd_in_close(in);
  }
  split_close(st);
  free(st->name);
  free(st->idx);
  if (st->failed) status = 1;
  if (st->exit_status) status = st->exit_status;
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
