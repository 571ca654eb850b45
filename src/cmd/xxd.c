/*
 * xxd - make a hex dump or do the reverse (vim's xxd, 2022-01-14).
 *
 *   Usage: xxd [options] [infile [outfile]]
 *          xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
 *   -a autoskip (* for repeated zero lines)   -b bits   -C capitalize -i names
 *   -c cols   -d decimal offsets   -e little-endian   -g bytes per group
 *   -i C include style   -l len   -n name   -o offset   -p plain   -r reverse
 *   -s [+][-]seek   -u upper case hex
 *
 * Design: each output line is laid out in a space-filled buffer exactly as
 * xxd does it (hex digit pairs at addrlen + 1 + grplen * p / octets, the
 * text column at addrlen + 3 + (grplen * cols - 1) / octets), so partial
 * lines, -e byte swapping inside groups and odd group sizes come out
 * column-exact; -a reproduces xxd's zero-line state machine. Reverse mode
 * parses "addr: hex hex  text" or plain hex and writes at the addresses.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("xxd", cmd_xxd_main);

#define XXD_LLEN 2100 /* enough for 256 columns of bits */

typedef struct xxd_out {
  cmd_ctx *ctx;
  int fd;                     /* 1 or an output file */
} xxd_out;

static void xxd_write(xxd_out *o, const char *s, size_t n) {
  if (o->fd == 1) {
    cmd_out(o->ctx, s, n);
    return;
  }
  while (n > 0) {
    ssize_t w = o->ctx->io->write(o->ctx->io_ud, o->fd, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void xxd_puts(xxd_out *o, const char *s) { xxd_write(o, s, strlen(s)); }

/* xxd's xxdline: autoskip state machine for lines of zeros. */
typedef struct xxd_skip {
  char z[XXD_LLEN + 1];   /* the last zero line held back */
  int zero_seen;          /* zero lines seen in a row */
} xxd_skip;

static void xxd_line(xxd_out *o, xxd_skip *s, const char *l, int nz) {
  if (!nz && s->zero_seen == 1) snprintf(s->z, sizeof s->z, "%s", l);
  if (nz || !s->zero_seen++) {
    if (nz) {
      if (nz < 0) s->zero_seen--;
      if (s->zero_seen == 2) xxd_puts(o, s->z);
      if (s->zero_seen > 2) xxd_puts(o, "*\n");
    }
    if (nz >= 0 || s->zero_seen > 0) xxd_puts(o, l);
    if (nz) s->zero_seen = 0;
  }
}

/* The next chunk of input (at most n bytes, and at most *left when -l gave
 * one: *left >= 0, reduced by what was read). Returns the count, 0 at the
 * end (or when *left is used up), negative on error. */
static ssize_t xxd_read(cmd_in *in, unsigned char *buf, size_t n, long long *left) {
  if (*left >= 0 && (long long)n > *left) n = (size_t)*left;
  if (n == 0) return 0;
  ssize_t k = cmd_in_read(in, buf, n);
  if (k > 0 && *left >= 0) *left -= k;
  return k;
}

static int hexv(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* -r: hex dump back to bytes. */
static int xxd_reverse(cmd_ctx *ctx, cmd_in *in, xxd_out *o, bool plain, int64_t seekoff) {
  uint64_t pos = 0; /* bytes written to the output */
  char *zeros = NULL;
  for (;;) {
    char *line;
    ssize_t n = cmd_in_getdelim(in, &line, '\n');
    if (n < 0) return -1;
    if (n == 0) break;
    const char *p = line, *e = line + n;
    if (!plain) {
      /* address up to ':' */
      uint64_t addr = 0;
      bool any = false;
      while (p < e && hexv((unsigned char)*p) >= 0) {
        addr = addr * 16 + (uint64_t)hexv((unsigned char)*p++);
        any = true;
      }
      if (!any || p >= e || *p != ':') continue;
      p++;
      uint64_t target = addr + (uint64_t)seekoff;
      if (target > pos) {
        /* A hole: seek in a file, write zeros to a pipe. */
        int64_t r = o->fd != 1 ? ctx->io->lseek(ctx->io_ud, o->fd, (int64_t)target, SEEK_SET) : -1;
        if (r < 0) {
          if (target - pos > ctx->max_string) return -1;
          if (!zeros) zeros = calloc(1, 4096);
          if (!zeros) return -1;
          while (pos < target) {
            size_t k = target - pos < 4096 ? (size_t)(target - pos) : 4096;
            xxd_write(o, zeros, k);
            pos += k;
          }
        }
        pos = target;
      } else if (target < pos && o->fd != 1) {
        ctx->io->lseek(ctx->io_ud, o->fd, (int64_t)target, SEEK_SET);
        pos = target;
      }
    }
    char out[1024];
    size_t k = 0;
    int hi = -1;
    char prev = 0;
    for (; p < e; p++) {
      int v = hexv((unsigned char)*p);
      if (v < 0) {
        if (!plain && *p == ' ' && prev == ' ') break; /* the text column */
        if (!plain && *p != ' ' && *p != '\n' && *p != '\t') break;
        prev = *p;
        continue;
      }
      prev = *p;
      if (hi < 0) {
        hi = v;
        continue;
      }
      out[k++] = (char)(hi * 16 + v);
      hi = -1;
      if (k == sizeof out) {
        xxd_write(o, out, k);
        pos += k;
        k = 0;
      }
    }
    xxd_write(o, out, k);
    pos += k;
  }
  free(zeros);
  return 0;
}

static int xxd_usage(cmd_ctx *ctx, bool err) {
  static const char u[] =
      "Usage:\n       xxd [options] [infile [outfile]]\n    or\n"
      "       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]\nOptions:\n"
      "    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.\n"
      "    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.\n"
      "    -C          capitalize variable names in C include file style (-i).\n"
      "    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).\n"
      "    -E          show characters in EBCDIC. Default ASCII.\n"
      "    -e          little-endian dump (incompatible with -ps,-i,-r).\n"
      "    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).\n"
      "    -h          print this summary.\n"
      "    -i          output in C include file style.\n"
      "    -l len      stop after <len> octets.\n"
      "    -n name     set the variable name used in C include output (-i).\n"
      "    -o off      add <off> to the displayed file position.\n"
      "    -ps         output in postscript plain hexdump style.\n"
      "    -r          reverse operation: convert (or patch) hexdump into binary.\n"
      "    -r -s off   revert with <off> added to file positions found in hexdump.\n"
      "    -d          show offset in decimal instead of hex.\n"
      "    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.\n"
      "    -u          use upper case hex letters.\n"
      "    -v          show version: \"xxd 2022-01-14 by Juergen Weigert et al.\".\n";
  if (err) {
    cmd_err_raw(ctx, "%s", u);
    return 1;
  }
  cmd_outs(ctx, u);
  return 0;
}

/* xxd's number parsing: decimal, 0x hex or 0 octal (strtol base 0). */
static bool xxd_num(const char *s, long long *v) {
  char *end;
  errno = 0;
  *v = strtoll(s, &end, 0);
  return end != s && !errno;
}

/* The flag letters that may stand first or later in a cluster ("-ps"). */
typedef struct xxd_flags {
  bool autoskip;   /* -a (toggles): '*' for runs of zero lines */
  bool bits;       /* -b: binary digits */
  bool capitalize; /* -C: -i's variable names in capitals */
  bool decimal;    /* -d: decimal offsets */
  bool little;     /* -e: little-endian groups */
  bool include;    /* -i: a C include file */
  bool plain;      /* -p: plain hex dump */
  bool reverse;    /* -r: hex dump back to bytes */
  bool upper;      /* -u: upper-case hex */
} xxd_flags;

/* Sets the flag of letter c; false when c is not one of them. Both the
 * first letter of an option and the rest of a cluster go through here. */
static bool xxd_flag(xxd_flags *f, char c) {
  switch (c) {
  case 'a': f->autoskip = !f->autoskip; return true;
  case 'b': f->bits = true; return true;
  case 'C': f->capitalize = true; return true;
  case 'd': f->decimal = true; return true;
  case 'e': f->little = true; return true;
  case 'i': f->include = true; return true;
  case 'p': f->plain = true; return true;
  case 'r': f->reverse = true; return true;
  case 'u': f->upper = true; return true;
  }
  return false;
}

int cmd_xxd_main(cmd_ctx *ctx, int argc, char **argv) {
  xxd_flags f = {0};
  long long cols = -1, octs = -1, len = -1, displayoff = 0, seek = 0;
  bool seek_rel = false, seek_neg = false, have_seek = false;
  const char *varname = NULL;
  int i = 1;
  /* xxd's own option parser: options may be clustered only as -ps; values
   * may be attached (-c8) or separate (-c 8). */
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    const char *a = argv[i] + 1;
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    const char *val = NULL;
#define XXD_VAL()                                   \
  do {                                              \
    if (a[1]) val = a + 1;                          \
    else if (i + 1 < argc) val = argv[++i];         \
    else return xxd_usage(ctx, true);               \
  } while (0)
    switch (*a) {
    case 'E': break;
    case 'h': return xxd_usage(ctx, false);
    case 'v': cmd_outs(ctx, "xxd 2022-01-14 by Juergen Weigert et al.\n"); return 0;
    case 'c':
      XXD_VAL();
      if (!xxd_num(val, &cols) || cols < 0) return xxd_usage(ctx, true);
      break;
    case 'g':
      XXD_VAL();
      if (!xxd_num(val, &octs) || octs < 0) return xxd_usage(ctx, true);
      break;
    case 'l':
      XXD_VAL();
      if (!xxd_num(val, &len) || len < 0) return xxd_usage(ctx, true);
      break;
    case 'o':
      XXD_VAL();
      if (!xxd_num(val, &displayoff)) return xxd_usage(ctx, true);
      break;
    case 'n':
      XXD_VAL();
      varname = val;
      break;
    case 's':
      XXD_VAL();
      while (*val == '+') seek_rel = true, val++;
      if (*val == '-') seek_neg = true, val++;
      if (!xxd_num(val, &seek) || seek < 0) return xxd_usage(ctx, true);
      have_seek = true;
      break;
    default:
      if (!xxd_flag(&f, *a)) return xxd_usage(ctx, true);
      break;
    }
    /* "-ps", "-psu"...: the rest of a cluster of flag letters ('s' is
     * passed over there, as in -ps). */
    if (!val && a[1]) {
      for (const char *q = a + 1; *q; q++)
        if (*q != 's' && !xxd_flag(&f, *q)) return xxd_usage(ctx, true);
    }
#undef XXD_VAL
  }
  if (argc - i > 2) return xxd_usage(ctx, true);
  const char *inname = i < argc ? argv[i] : "-";
  const char *outname = i + 1 < argc ? argv[i + 1] : NULL;
  if (cols > 256 && !f.plain) {
    cmd_errorf(ctx, "invalid number of columns (max. 256).");
    return 1;
  }
  xxd_out o = {ctx, 1};
  int status = 0;
  int infd = cmd_open_input(ctx, inname);
  if (infd < 0) { /* xxd: perror(name), or perror(NULL) when the read fails */
    if (infd == -EISDIR) cmd_errorf(ctx, "%s", cmd_strerror(infd));
    else cmd_perror(ctx, inname, infd);
    return 2;
  }
  cmd_in *in = NULL;
  if (outname && strcmp(outname, "-") != 0) {
    int fd = ctx->io->open(ctx->io_ud, outname, O_WRONLY | O_CREAT | (f.reverse ? 0 : O_TRUNC), 0666);
    if (fd < 0) {
      cmd_perror(ctx, outname, fd);
      cmd_close_input(ctx, infd);
      return 3;
    }
    o.fd = fd;
  }
  if (f.reverse) {
    in = cmd_in_fd(ctx, infd);
    if (!in) goto out;
    if (xxd_reverse(ctx, in, &o, f.plain, seek_neg ? -seek : seek) < 0) {
      cmd_errorf(ctx, "sorry, cannot revert this input");
      status = 1;
    }
    goto out;
  }
  /* Defaults per mode. */
  if (f.plain) {
    if (cols < 0) cols = 30;
  } else if (f.include) {
    if (cols <= 0) cols = 12;
  } else if (f.bits) {
    if (cols <= 0) cols = 6;
  } else if (cols <= 0) {
    cols = 16;
  }
  if (octs < 0) octs = f.bits ? 1 : f.little ? 4 : 2;
  if (octs == 0 || octs > cols) octs = cols;
  if (f.little && octs & (octs - 1)) {
    cmd_errorf(ctx, "number of octets per group must be a power of 2 with -e.");
    status = 1;
    goto out;
  }
  /* Seeking: like xxd, a negative or relative seek needs a seekable input. */
  uint64_t seekoff = 0;
  if (have_seek) {
    int64_t cur = ctx->io->lseek(ctx->io_ud, infd, 0, SEEK_CUR);
    if (seek_neg) {
      int64_t end = cur >= 0 ? ctx->io->lseek(ctx->io_ud, infd, 0, SEEK_END) : -1;
      if (end < 0) {
        cmd_errorf(ctx, "Sorry, cannot seek.");
        status = 4;
        goto out;
      }
      seekoff = (uint64_t)seek > (uint64_t)end ? 0 : (uint64_t)end - (uint64_t)seek;
      ctx->io->lseek(ctx->io_ud, infd, (int64_t)seekoff, SEEK_SET);
    } else {
      seekoff = (uint64_t)seek;
      if (cur < 0 || ctx->io->lseek(ctx->io_ud, infd, (int64_t)seekoff, SEEK_SET) < 0) {
        char skipbuf[4096];
        for (uint64_t rest = seekoff; rest > 0;) {
          ssize_t k = ctx->io->read(ctx->io_ud, infd, skipbuf,
                                    rest < sizeof skipbuf ? (size_t)rest : sizeof skipbuf);
          if (k <= 0) break;
          rest -= (uint64_t)k;
        }
      }
    }
    (void)seek_rel;
  }
  in = cmd_in_fd(ctx, infd);
  if (!in) goto out;
  const char *hexx = f.upper ? "0123456789ABCDEF" : "0123456789abcdef";
  unsigned char buf[4096];
  uint64_t n = 0; /* bytes dumped */
  long long left = len;
  if (f.include) {
    char *name = NULL;
    if (varname || strcmp(inname, "-") != 0) {
      const char *src = varname ? varname : inname;
      size_t sl = strlen(src);
      name = cmd_alloc(ctx, sl + 3);
      if (!name) goto out;
      size_t k = 0;
      if (!varname && src[0] >= '0' && src[0] <= '9') name[k++] = '_', name[k++] = '_';
      for (size_t q = 0; q < sl; q++) {
        unsigned char ch = (unsigned char)src[q];
        bool alnum = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        char out = varname ? (char)ch : alnum ? (char)ch : '_';
        if (f.capitalize && out >= 'a' && out <= 'z') out = (char)(out - 32);
        name[k++] = out;
      }
      name[k] = 0;
      cmd_outf(ctx, "unsigned char %s[] = {\n", name);
    }
    long long p = 0;
    for (;;) {
      ssize_t k = xxd_read(in, buf, sizeof buf, &left);
      if (k <= 0) break;
      for (ssize_t q = 0; q < k; q++, p++) {
        char item[8];
        snprintf(item, sizeof item, f.upper ? "0X%02X" : "0x%02x", buf[q]);
        if (p == 0) xxd_puts(&o, "  ");
        else if (p % cols == 0) xxd_puts(&o, ",\n  ");
        else xxd_puts(&o, ", ");
        xxd_puts(&o, item);
      }
    }
    if (p) xxd_puts(&o, "\n");
    if (name) {
      xxd_puts(&o, "};\n");
      char tail[64];
      snprintf(tail, sizeof tail, "%lld;\n", p);
      cmd_outf(ctx, "unsigned int %s_%s = ", name, f.capitalize ? "LEN" : "len");
      xxd_puts(&o, tail);
    }
    goto out;
  }
  if (f.plain) {
    long long p = 0;
    for (;;) {
      ssize_t k = xxd_read(in, buf, sizeof buf, &left);
      if (k <= 0) break;
      for (ssize_t q = 0; q < k; q++) {
        char hx[2] = {hexx[buf[q] >> 4], hexx[buf[q] & 15]};
        xxd_write(&o, hx, 2);
        if (cols && ++p == cols) {
          xxd_puts(&o, "\n");
          p = 0;
        }
      }
    }
    if (p || cols == 0) xxd_puts(&o, "\n");
    goto out;
  }
  {
    char l[XXD_LLEN + 1];
    xxd_skip skip = {{0}, 0};
    int grplen = f.bits ? 8 * (int)octs + 1 : 2 * (int)octs + 1;
    int addrlen = 9, c = 0, nonzero = 0;
    long long p = 0;
    for (;;) {
      ssize_t k = xxd_read(in, buf, sizeof buf, &left);
      if (k <= 0) break;
      for (ssize_t q = 0; q < k; q++) {
        unsigned e = buf[q];
        if (p == 0) {
          uint64_t addr = n + seekoff + (uint64_t)displayoff;
          addrlen = f.decimal ? snprintf(l, sizeof l, "%08lu:", (unsigned long)addr)
                            : snprintf(l, sizeof l, "%08lx:", (unsigned long)addr);
          for (int t = addrlen; t < XXD_LLEN; t++) l[t] = ' ';
        }
        long long x = f.little ? (p ^ (octs - 1)) : p;
        c = addrlen + 1 + (int)((grplen * x) / octs);
        if (f.bits) {
          for (int b = 7; b >= 0; b--) l[c++] = (e & (1u << b)) ? '1' : '0';
        } else {
          l[c] = hexx[(e >> 4) & 15];
          l[c + 1] = hexx[e & 15];
        }
        if (e) nonzero++;
        c = addrlen + 3 + (int)((grplen * cols - 1) / octs) + (int)p;
        l[c++] = (e > 31 && e < 127) ? (char)e : '.';
        n++;
        if (++p == cols) {
          l[c] = '\n';
          l[c + 1] = 0;
          xxd_line(&o, &skip, l, f.autoskip ? nonzero : 1);
          nonzero = 0;
          p = 0;
        }
      }
      if (cmd_poll(ctx) || ctx->out_err) break;
    }
    if (p) {
      l[c] = '\n';
      l[c + 1] = 0;
      xxd_line(&o, &skip, l, 1);
    } else if (f.autoskip) {
      xxd_line(&o, &skip, l, -1);
    }
  }
out:
  if (in) cmd_in_close(in);
  cmd_close_input(ctx, infd);
  if (o.fd != 1) ctx->io->close(ctx->io_ud, o.fd);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
