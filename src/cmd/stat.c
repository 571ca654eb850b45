/*
 * stat - display file or file system status (GNU coreutils compatible).
 *
 *   stat [OPTION]... FILE...
 *   -L, --dereference     follow links
 *   -f, --file-system     display file system status instead of file status
 *   -c, --format=FORMAT   use the specified FORMAT instead of the default;
 *                         output a newline after each use of FORMAT
 *       --printf=FORMAT   like --format, but interpret backslash escapes, and
 *                         do not output a mandatory trailing newline
 *   -t, --terse           print the information in terse form
 *
 * Format sequences: %a %A %b %B %C %d %D %f %F %g %G %h %i %m %n %N %o %s
 * %t %T %u %U %w %W %x %X %y %Y %z %Z %Hd %Ld %Hr %Lr %r, with printf-style
 * flags, width and precision (precision on %X %Y %Z %W gives fractional
 * seconds); for -f: %a %b %c %d %f %i %l %n %s %S %t %T.
 *
 * Design decisions: sizes and block counts follow the sandbox's ext4-like
 * model (lib/fs); the device is 0,0, there is no birth time ("-", 0), no
 * SELinux context ("?"), and -f describes the store as an ext2/ext3-type file
 * system of 4 KiB blocks with fixed totals (the store does not expose its
 * quota). Times use TZ from the environment.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("stat", cmd_stat_main);

static const char stat_usage[] =
    "Usage: stat [OPTION]... FILE...\n"
    "Display file or file system status.\n"
    "\n"
    "  -L, --dereference     follow links\n"
    "  -f, --file-system     display file system status instead of file status\n"
    "  -c  --format=FORMAT   use the specified FORMAT instead of the default;\n"
    "                          output a newline after each use of FORMAT\n"
    "      --printf=FORMAT   like --format, but interpret backslash escapes,\n"
    "                          and do not output a mandatory trailing newline;\n"
    "                          if you want a newline, include \\n in FORMAT\n"
    "  -t, --terse           print the information in terse form\n"
    CMD_HELP_VERSION_LINES;

#define FS_TOTAL_BLOCKS 1048576ull /* 4 GiB of 4 KiB blocks */
#define FS_TOTAL_INODES 1048576ull

/* What a format is applied to. */
typedef struct stat_target {
  const char *name;     /* as given */
  store_stat st;        /* presented stat */
  bool is_fs;           /* -f */
  cmd_fs_ids *ids;      /* names */
  cmd_tz *tz;           /* zone */
} stat_target;

/* Appends printf-formatted text honoring flags/width/precision for a string. */
static void put_str(cmd_ctx *ctx, const char *spec, const char *s) {
  char fmt[64];
  snprintf(fmt, sizeof fmt, "%%%ss", spec);
  char *out = NULL;
  int n = asprintf(&out, fmt, s);
  if (n >= 0) cmd_out(ctx, out, (size_t)n);
  free(out);
}

/* A user or group name, or GNU's "UNKNOWN" for an id without one. */
static const char *name_or_unknown(const char *name) { return name ? name : "UNKNOWN"; }

static void put_u(cmd_ctx *ctx, const char *spec, uint64_t v, const char *conv) {
  char fmt[64];
  snprintf(fmt, sizeof fmt, "%%%s%s", spec, conv);
  char *out = NULL;
  int n = asprintf(&out, fmt, v);
  if (n >= 0) cmd_out(ctx, out, (size_t)n);
  free(out);
}

static void put_i(cmd_ctx *ctx, const char *spec, int64_t v) {
  char fmt[64];
  snprintf(fmt, sizeof fmt, "%%%s" PRId64, spec);
  char *out = NULL;
  int n = asprintf(&out, fmt, v);
  if (n >= 0) cmd_out(ctx, out, (size_t)n);
  free(out);
}

/* %X %Y %Z with an optional precision: seconds[.fraction] truncated. */
static void put_secs(cmd_ctx *ctx, const char *spec, int64_t sec, uint32_t nsec) {
  const char *dot = strchr(spec, '.');
  if (!dot) {
    put_i(ctx, spec, sec);
    return;
  }
  int prec = atoi(dot + 1);
  if (prec > 9) prec = 9;
  char num[64];
  if (prec == 0) {
    snprintf(num, sizeof num, "%" PRId64, sec);
  } else {
    char frac[16];
    snprintf(frac, sizeof frac, "%09u", nsec);
    frac[prec] = 0;
    snprintf(num, sizeof num, "%" PRId64 ".%s", sec, frac);
  }
  char w[32];
  size_t wl = (size_t)(dot - spec);
  if (wl >= sizeof w) wl = sizeof w - 1;
  memcpy(w, spec, wl);
  w[wl] = 0;
  put_str(ctx, w, num);
}

static void put_time(cmd_ctx *ctx, const char *spec, stat_target *t, int64_t sec,
                     uint32_t nsec) {
  struct tm tm;
  char *out = NULL;
  if (cmd_time_local(t->tz, sec, &tm) &&
      cmd_strftime(&out, 256, "%Y-%m-%d %H:%M:%S.%N %z", &tm, sec, nsec) >= 0) {
    put_str(ctx, spec, out);
  } else {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, sec);
    put_str(ctx, spec, buf);
  }
  free(out);
}

static void put_quoted_name(cmd_ctx *ctx, const char *spec, stat_target *t) {
  const char *q = cmd_gnu_quoteaf(ctx, t->name);
  if (S_ISLNK(t->st.mode)) {
    char *target = NULL;
    if (store_path_readlink(ctx->store, ctx->cwd, t->name, &target) == 0) {
      size_t l = strlen(q) + strlen(target) * 4 + 16;
      char *s = cmd_alloc(ctx, l);
      if (s) {
        snprintf(s, l, "%s -> %s", q, cmd_gnu_quoteaf(ctx, target));
        q = s;
      }
      free(target);
    }
  }
  put_str(ctx, spec, q);
}

/* One directive of a file format. */
static void file_directive(cmd_ctx *ctx, const char *spec, char c, char hl, stat_target *t) {
  const store_stat *st = &t->st;
  char buf[64];
  switch (c) {
  case 'a': put_u(ctx, spec, st->mode & 07777, "o"); break;
  case 'A': cmd_fs_modestr(st->mode, buf); put_str(ctx, spec, buf); break;
  case 'b': put_u(ctx, spec, cmd_fs_blocks(st), PRIu64); break;
  case 'B': put_u(ctx, spec, 512, PRIu64); break;
  case 'C': put_str(ctx, spec, "?"); break;
  case 'd':
    if (hl == 'H' || hl == 'L') put_u(ctx, spec, 0, PRIu64);
    else put_u(ctx, spec, 0, PRIu64);
    break;
  case 'D': put_u(ctx, spec, 0, "x"); break;
  case 'f': put_u(ctx, spec, st->mode, "x"); break;
  case 'F': put_str(ctx, spec, cmd_fs_typename(st)); break;
  case 'g': put_u(ctx, spec, st->gid, PRIu64); break;
  case 'G': put_str(ctx, spec, name_or_unknown(cmd_fs_groupname(t->ids, st->gid))); break;
  case 'h': put_u(ctx, spec, cmd_fs_nlink(ctx, st), PRIu64); break;
  case 'i': put_u(ctx, spec, (uint64_t)st->ino, PRIu64); break;
  case 'm': put_str(ctx, spec, "/"); break;
  case 'n': put_str(ctx, spec, t->name); break;
  case 'N': put_quoted_name(ctx, spec, t); break;
  case 'o': put_u(ctx, spec, CMD_FS_BLKSIZE, PRIu64); break;
  case 's': put_u(ctx, spec, st->size, PRIu64); break;
  case 'r': put_u(ctx, spec, st->rdev, PRIu64); break;
  case 't': put_u(ctx, spec, (st->rdev >> 8) & 0xfff, "x"); break;
  case 'T': put_u(ctx, spec, st->rdev & 0xff, "x"); break;
  case 'u': put_u(ctx, spec, st->uid, PRIu64); break;
  case 'U': put_str(ctx, spec, name_or_unknown(cmd_fs_username(t->ids, st->uid))); break;
  case 'w': put_str(ctx, spec, "-"); break;
  case 'W': put_secs(ctx, spec, 0, 0); break;
  case 'x': put_time(ctx, spec, t, st->atime, st->atime_nsec); break;
  case 'X': put_secs(ctx, spec, st->atime, st->atime_nsec); break;
  case 'y': put_time(ctx, spec, t, st->mtime, st->mtime_nsec); break;
  case 'Y': put_secs(ctx, spec, st->mtime, st->mtime_nsec); break;
  case 'z': put_time(ctx, spec, t, st->ctime, st->ctime_nsec); break;
  case 'Z': put_secs(ctx, spec, st->ctime, st->ctime_nsec); break;
  default: {
    char s[4] = {'?', 0};
    put_str(ctx, spec, s);
  }
  }
}

static void fs_directive(cmd_ctx *ctx, const char *spec, char c, stat_target *t) {
  switch (c) {
  case 'a': case 'f': put_u(ctx, spec, FS_TOTAL_BLOCKS, PRIu64); break;
  case 'b': put_u(ctx, spec, FS_TOTAL_BLOCKS, PRIu64); break;
  case 'c': put_u(ctx, spec, FS_TOTAL_INODES, PRIu64); break;
  case 'd': put_u(ctx, spec, FS_TOTAL_INODES, PRIu64); break;
  case 'i': put_u(ctx, spec, 0, "x"); break;
  case 'l': put_u(ctx, spec, STORE_NAME_MAX, PRIu64); break;
  case 'n': put_str(ctx, spec, t->name); break;
  case 's': case 'S': put_u(ctx, spec, CMD_FS_BLKSIZE, PRIu64); break;
  case 't': put_u(ctx, spec, 0xef53, "x"); break;
  case 'T': put_str(ctx, spec, "ext2/ext3"); break;
  default: put_str(ctx, spec, "?");
  }
}

/* Decodes --printf escapes of one backslash sequence at *p; emits the byte. */
static const char *put_escape(cmd_ctx *ctx, const char *p) {
  char c = *p;
  switch (c) {
  case 'a': cmd_outc(ctx, '\a'); return p + 1;
  case 'b': cmd_outc(ctx, '\b'); return p + 1;
  case 'e': cmd_outc(ctx, 0x1b); return p + 1;
  case 'f': cmd_outc(ctx, '\f'); return p + 1;
  case 'n': cmd_outc(ctx, '\n'); return p + 1;
  case 'r': cmd_outc(ctx, '\r'); return p + 1;
  case 't': cmd_outc(ctx, '\t'); return p + 1;
  case 'v': cmd_outc(ctx, '\v'); return p + 1;
  case '\\': cmd_outc(ctx, '\\'); return p + 1;
  case '"': cmd_outc(ctx, '"'); return p + 1;
  case 'x': {
    int v = 0, k = 0;
    p++;
    while (k < 2 && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
                     (*p >= 'A' && *p <= 'F'))) {
      v = v * 16 + (*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
      p++;
      k++;
    }
    if (k == 0) {
      cmd_outs(ctx, "\\x");
      return p;
    }
    cmd_outc(ctx, v);
    return p;
  }
  default:
    if (c >= '0' && c <= '7') {
      int v = 0, k = 0;
      while (k < 3 && *p >= '0' && *p <= '7') {
        v = v * 8 + (*p - '0');
        p++;
        k++;
      }
      cmd_outc(ctx, v);
      return p;
    }
    if (!c) {
      cmd_outc(ctx, '\\');
      return p;
    }
    cmd_errorf(ctx, "warning: unrecognized escape '\\%c'", c);
    cmd_outc(ctx, '\\');
    cmd_outc(ctx, c);
    return p + 1;
  }
}

static void run_format(cmd_ctx *ctx, const char *fmt, stat_target *t, bool escapes) {
  for (const char *p = fmt; *p;) {
    if (escapes && *p == '\\') {
      p = put_escape(ctx, p + 1);
      continue;
    }
    if (*p != '%') {
      const char *e = p;
      while (*e && *e != '%' && !(escapes && *e == '\\')) e++;
      cmd_out(ctx, p, (size_t)(e - p));
      p = e;
      continue;
    }
    const char *start = p++;
    char spec[48];
    size_t sl = 0;
    while (*p && strchr("-+ #0'", *p)) {
      if (sl < 20) spec[sl++] = *p;
      p++;
    }
    while (*p >= '0' && *p <= '9') {
      if (sl < 30) spec[sl++] = *p;
      p++;
    }
    if (*p == '.') {
      if (sl < 31) spec[sl++] = '.';
      p++;
      while (*p >= '0' && *p <= '9') {
        if (sl < 40) spec[sl++] = *p;
        p++;
      }
    }
    spec[sl] = 0;
    char c = *p;
    if (!c) {
      cmd_out(ctx, start, (size_t)(p - start));
      break;
    }
    p++;
    if (c == '%') {
      cmd_outc(ctx, '%');
      continue;
    }
    char hl = 0;
    if ((c == 'H' || c == 'L') && (*p == 'd' || *p == 'r')) {
      hl = c;
      c = *p++;
    }
    if (t->is_fs) {
      if (!strchr("abcdfilnsStT", c)) {
        put_str(ctx, spec, "?"); /* GNU: unknown directives print '?' */
        continue;
      }
      fs_directive(ctx, spec, c, t);
    } else {
      if (!strchr("aAbBCdDfFgGhimnNorstTuUwWxXyYzZ", c)) {
        put_str(ctx, spec, "?");
        continue;
      }
      file_directive(ctx, spec, c, hl, t);
    }
  }
}

static void default_file(cmd_ctx *ctx, stat_target *t, bool terse) {
  const store_stat *st = &t->st;
  if (terse) {
    run_format(ctx, "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n", t, false);
    return;
  }
  cmd_outs(ctx, "  File: ");
  cmd_outs(ctx, t->name);
  if (S_ISLNK(st->mode)) {
    char *target = NULL;
    if (store_path_readlink(ctx->store, ctx->cwd, t->name, &target) == 0) {
      cmd_outs(ctx, " -> ");
      cmd_outs(ctx, target);
      free(target);
    }
  }
  cmd_outc(ctx, '\n');
  run_format(ctx,
             "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
             "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
             "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
             "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n",
             t, false);
}

static void default_fs(cmd_ctx *ctx, stat_target *t, bool terse) {
  if (terse) {
    run_format(ctx, "%n %i %l %t %s %S %b %f %a %c %d\n", t, false);
    return;
  }
  cmd_outf(ctx, "  File: \"%s\"\n", t->name);
  run_format(ctx,
             "    ID: %-8i Namelen: %-7l Type: %T\n"
             "Block size: %-10s Fundamental block size: %S\n"
             "Blocks: Total: %-10b Free: %-10f Available: %a\n"
             "Inodes: Total: %-10c Free: %d\n",
             t, false);
}

int cmd_stat_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_PRINTF = CMD_OPT_LONG, OPT_CACHED };
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool escapes = false;
  const char *fmt = NULL;
  /* A loop: the last of -c and --printf counts; the flags are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv,
                              "(printf):(cached):(help)(version)L(dereference)f(file-system)"
                              "c:(format)t(terse)Z",
                              NULL)) != -1;) {
    switch (c) {
    case 'c': fmt = st.arg; escapes = false; break;
    case OPT_PRINTF: fmt = st.arg; escapes = true; break;
    CMD_CASES_HELP_VERSION(ctx, stat_usage);
    case '?': return 1;
    }
  }
  bool deref = cmd_opt_on(&st, 'L'), fs = cmd_opt_on(&st, 'f'), terse = cmd_opt_on(&st, 't');
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing operand");
    return cmd_usage_hint(ctx, 1);
  }
  cmd_tz tz;
  cmd_tz_from_env(ctx, &tz);
  cmd_fs_ids *ids = cmd_fs_ids_load(ctx);
  int status = 0;
  for (int i = st.ind; i < argc; i++) {
    stat_target t = {.name = argv[i], .is_fs = fs, .ids = ids, .tz = &tz};
    int rc = (deref || fs) ? cmd_fs_stat(ctx, argv[i], &t.st) : cmd_fs_lstat(ctx, argv[i], &t.st);
    if (rc < 0) {
      if (fs)
        cmd_errorf(ctx, "cannot read file system information for %s: %s",
                   cmd_gnu_quoteaf(ctx, argv[i]), cmd_strerror(rc));
      else
        cmd_errorf(ctx, "cannot statx %s: %s", cmd_gnu_quoteaf(ctx, argv[i]), cmd_strerror(rc));
      cmd_record_error(ctx, rc, argv[i]);
      status = 1;
      continue;
    }
    if (fmt) {
      run_format(ctx, fmt, &t, escapes);
      if (!escapes) cmd_outc(ctx, '\n');
    } else if (fs) {
      default_fs(ctx, &t, terse);
    } else {
      default_file(ctx, &t, terse);
    }
    if (cmd_poll(ctx)) return 1;
  }
  return status;
}
