/*
 * strings - print the sequences of printable characters in files
 * (GNU binutils 2.40 behaviour).
 *
 *   Usage: strings [option(s)] [file(s)]
 *   -a, --all (the default: the whole file is scanned)
 *   -f, --print-file-name   print the file name before each string
 *   -n, --bytes=MIN, -MIN   at least MIN characters (default 4)
 *   -t, --radix={o,d,x}     print the offset of each string
 *   -o                      same as -t o
 *   -w, --include-all-whitespace  newlines and other whitespace are string bytes
 *   -e, --encoding={s,S,b,l,B,L}  7-bit, 8-bit, 16-bit and 32-bit big/little endian
 *
 * Design: a streaming scan with the current run kept in a buffer that is
 * flushed once it reaches MIN characters, so long runs cost no memory; for
 * the 16/32-bit encodings a character is one code unit whose upper bytes are
 * zero, like binutils.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("strings", cmd_strings_main);

typedef struct str_opts {
  size_t min;        /* minimum run length */
  int radix;         /* 0, 'o', 'd', 'x' */
  bool names;        /* -f */
  bool all_ws;       /* -w */
  char enc;          /* 's' 'S' 'b' 'l' 'B' 'L' */
  const char *sep;   /* -s: output separator, NULL = newline */
} str_opts;

static bool str_printable(const str_opts *o, unsigned long c) {
  if (c > 255) return false;
  if (c == '\t') return true;
  if (o->all_ws && (c == '\n' || c == '\r' || c == '\v' || c == '\f')) return true;
  if (c >= 0x20 && c < 0x7f) return true;
  return o->enc == 'S' && c >= 0x80;
}

static void str_prefix(cmd_ctx *ctx, const str_opts *o, const char *name, uintmax_t off) {
  if (o->names) cmd_outf(ctx, "%s: ", name);
  if (o->radix == 'o') cmd_outf(ctx, "%7jo ", off);
  else if (o->radix == 'd') cmd_outf(ctx, "%7ju ", off);
  else if (o->radix == 'x') cmd_outf(ctx, "%7jx ", off);
}

static int str_file(cmd_ctx *ctx, const str_opts *o, const char *name, const char *shown) {
  char *data;
  size_t len;
  size_t limit = ctx->max_string ? (size_t)ctx->max_string * 8 : (size_t)1 << 30;
  int r = cmd_read_all(ctx, name, limit, &data, &len);
  if (r < 0) {
    cmd_record_error(ctx, r, name);
    if (r == -ENOENT) cmd_errorf(ctx, "'%s': No such file", name);
    else if (r == -EISDIR) cmd_errorf(ctx, "Warning: '%s' is a directory", name);
    else cmd_errorf(ctx, "%s: %s", name, cmd_strerror(r));
    return 1;
  }
  const unsigned char *d = (const unsigned char *)data;
  size_t unit = (o->enc == 'b' || o->enc == 'l') ? 2 : (o->enc == 'B' || o->enc == 'L') ? 4 : 1;
  bool big = o->enc == 'b' || o->enc == 'B';
  /* binutils' loop: look for MIN graphic characters; after a failure resume
   * one byte after the failed character's first byte. */
  size_t pos = 0;
  for (;;) {
    size_t start = pos, i;
    bool found = true;
    for (i = 0; i < o->min; i++) {
      if (pos + unit > len) {
        found = false;
        break;
      }
      unsigned long c = 0;
      for (size_t k = 0; k < unit; k++) c = (c << 8) | d[pos + (big ? k : unit - 1 - k)];
      if (!str_printable(o, c)) {
        pos += 1;
        break;
      }
      pos += unit;
    }
    if (!found) break;
    if (i < o->min) continue;
    str_prefix(ctx, o, shown, start);
    for (size_t k = start; k < pos; k += unit) cmd_outc(ctx, d[k + (big ? unit - 1 : 0)]);
    for (;;) {
      if (pos + unit > len) break;
      unsigned long c = 0;
      for (size_t k = 0; k < unit; k++) c = (c << 8) | d[pos + (big ? k : unit - 1 - k)];
      if (!str_printable(o, c)) {
        pos += 1;
        break;
      }
      cmd_outc(ctx, (int)c);
      pos += unit;
    }
    if (o->sep) cmd_outs(ctx, o->sep);
    else cmd_outc(ctx, '\n');
    if (cmd_poll(ctx) || ctx->out_err) break;
  }
  free(data);
  return 0;
}

static const char str_usage[] =
    "Usage: strings [option(s)] [file(s)]\n"
                    " Display printable strings in [file(s)] (stdin by default)\n"
                    " The options are:\n"
                    "  -a - --all                Scan the entire file, not just the data section [default]\n"
                    "  -f --print-file-name      Print the name of the file before each string\n"
                    "  -n <number>               Locate & print any sequence of at least <number>\n"
                    "    --bytes=<number>         displayable characters.  (The default is 4).\n"
                    "  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16\n"
                    "  -w --include-all-whitespace Include all whitespace as valid string characters\n"
                    "  -o                        An alias for --radix=o\n"
                    "  -e --encoding={s,S,b,l,B,L} Select character size and endianness:\n"
                    "                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit\n"
                    "  -h --help                 Display this information\n"
                    "  -v -V --version           Print the program's version number\n";

/* The one-letter argument of -t or -e, one of `allowed`; else 0 after the
 * usage on stderr (binutils' answer to a bad one). */
static char str_letter_arg(cmd_ctx *ctx, const char *arg, const char *allowed) {
  if (arg[0] && !arg[1] && strchr(allowed, arg[0])) return arg[0];
  cmd_err_raw(ctx, "%s", str_usage);
  return 0;
}

int cmd_strings_main(cmd_ctx *ctx, int argc, char **argv) {
  str_opts o = {4, 0, false, false, 's', NULL};
  int ac;
  char **av = cmd_gnu_num_option(ctx, argc, argv, "-n", &ac); /* "-NUM" is "-n NUM" */
  if (!av) return 1;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  static const char spec[] =
      "a(all)f(print-file-name)n:(bytes)t:(radix)w(include-all-whitespace)e:(encoding)"
      "d(data)h(help)v(version)s:(output-separator)oV";
  for (int c; (c = cmd_getopt(ctx, &g, ac, av, spec, NULL)) != -1;) {
    switch (c) {
    case 'a': case 'd': break;
    case 'f': o.names = true; break;
    case 'n': {
      uintmax_t v;
      if (cmd_parse_umax(g.arg, NULL, &v) != CMD_NUM_OK || v == 0 || v > 1u << 20) {
        cmd_errorf(ctx, "invalid minimum string length %s", g.arg);
        return 1;
      }
      o.min = (size_t)v;
      break;
    }
    case 'o': o.radix = 'o'; break;
    case 't':
      if (!(o.radix = str_letter_arg(ctx, g.arg, "odx"))) return 1;
      break;
    case 'e':
      if (!(o.enc = str_letter_arg(ctx, g.arg, "sSbBlL"))) return 1;
      break;
    case 'w': o.all_ws = true; break;
    case 's': o.sep = g.arg; break;
    case 'h':
      cmd_outs(ctx, str_usage);
      return 0;
    case 'v': case 'V': cmd_outs(ctx, "GNU strings (sbx) 2.40\n"); return 0;
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  int status = 0;
  if (g.ind >= ac) return str_file(ctx, &o, "-", "{standard input}");
  for (int i = g.ind; i < ac; i++) status |= str_file(ctx, &o, av[i], av[i]);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
