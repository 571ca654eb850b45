/*
 * du - estimate file space usage (GNU coreutils compatible).
 *
 *   du [OPTION]... [FILE]...
 *   -0, --null  -a, --all  --apparent-size  -B, --block-size=SIZE  -b, --bytes
 *   -c, --total  -D, -H, --dereference-args  -d, --max-depth=N
 *   --exclude=PATTERN  -X, --exclude-from=FILE  -h, --human-readable  --inodes
 *   -k  -L, --dereference  -l, --count-links  -m  -P, --no-dereference
 *   -S, --separate-dirs  --si  -s, --summarize  -t, --threshold=SIZE
 *   --time[=WORD]  --time-style=STYLE  -x, --one-file-system
 *   --files0-from=F (NUL-separated names; "-" = stdin)
 *
 * Design decisions:
 *  - Usage is the sandbox's block model (lib/fs: whole 4 KiB blocks,
 *    directories 4 KiB, symlinks 0), the same numbers ls -s and stat %b show.
 *  - One post-order walk per operand with a stack of per-depth totals;
 *    inodes with several links and directories are counted once across all
 *    operands (an open-addressing set), as GNU does.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("du", cmd_du_main);

static const char du_usage[] =
    "Usage: du [OPTION]... [FILE]...\n"
    "  or:  du [OPTION]... --files0-from=F\n"
    "Summarize device usage of the set of FILEs, recursively for directories.\n"
    "\n"
    "  -0, --null            end each output line with NUL, not newline\n"
    "  -a, --all             write counts for all files, not just directories\n"
    "      --apparent-size   print apparent sizes rather than device usage\n"
    "  -B, --block-size=SIZE  scale sizes by SIZE before printing them\n"
    "  -b, --bytes           equivalent to '--apparent-size --block-size=1'\n"
    "  -c, --total           produce a grand total\n"
    "  -D, --dereference-args  dereference only symlinks that are listed on the\n"
    "                          command line\n"
    "  -d, --max-depth=N     print the total for a directory (or file, with --all)\n"
    "                          only if it is N or fewer levels below the command\n"
    "                          line argument;  --max-depth=0 is the same as\n"
    "                          --summarize\n"
    "      --files0-from=F   summarize device usage of the\n"
    "                          NUL-terminated file names specified in file F;\n"
    "                          if F is -, then read names from standard input\n"
    "      --exclude=PATTERN  exclude files that match PATTERN\n"
    "  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)\n"
    "      --inodes          list inode usage information instead of block usage\n"
    "  -k                    like --block-size=1K\n"
    "  -L, --dereference     dereference all symbolic links\n"
    "  -l, --count-links     count sizes many times if hard linked\n"
    "  -m                    like --block-size=1M\n"
    "  -P, --no-dereference  don't follow any symbolic links (this is the default)\n"
    "  -S, --separate-dirs   for directories do not include size of subdirectories\n"
    "      --si              like -h, but use powers of 1000 not 1024\n"
    "  -s, --summarize       display only a total for each argument\n"
    "  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,\n"
    "                          or entries greater than SIZE if negative\n"
    "      --time            show time of the last modification of any file in the\n"
    "                          directory, or any of its subdirectories\n"
    "      --time-style=STYLE  show times using STYLE: full-iso, long-iso, iso,\n"
    "                          +FORMAT\n"
    "  -x, --one-file-system  skip directories on different file systems\n"
    CMD_HELP_VERSION_LINES;

/* Running totals of one directory level. */
typedef struct du_acc {
  uint64_t size;   /* blocks (512 units), bytes, or inodes */
  int64_t tsec;    /* latest time */
  long tnsec;      /* its nanoseconds */
} du_acc;

/* Options and state of one du call. */
typedef struct du_opts {
  cmd_ctx *ctx;              /* the command */
  bool all, apparent, total, separate, count_links, inodes, zero; /* flags */
  int max_depth;             /* -1: none */
  int human;                 /* CMD_HUMAN_* or -1 */
  uint64_t block;            /* output block size */
  int64_t threshold;         /* -t (0 none) */
  bool show_time;            /* --time */
  char time_field;           /* 'm', 'a', 'c' */
  const char *time_fmt;      /* strftime format */
  const char **excludes;     /* --exclude patterns */
  int nexcludes;             /* count */
  int deref;                 /* 'P', 'H', 'L' */
  cmd_fs_inoset seen;        /* inodes counted */
  cmd_tz tz;                 /* for --time */
  int status;                /* exit status */
} du_opts;

/* True if ino was already counted (and records it otherwise; when memory
 * runs out it counts again, as before the set existed). */
static bool seen_before(du_opts *o, store_ino ino) {
  return cmd_fs_inoset_add(&o->seen, ino) == 1;
}

static uint64_t entry_size(du_opts *o, const store_stat *st) {
  if (o->inodes) return 1;
  if (o->apparent) return S_ISDIR(st->mode) && st->size == 0 ? CMD_FS_BLKSIZE : st->size;
  return cmd_fs_blocks(st);
}

static void print_line(du_opts *o, uint64_t size, int64_t tsec, long tnsec, const char *path) {
  cmd_ctx *ctx = o->ctx;
  if (o->threshold) {
    uint64_t bytes = o->inodes ? size : o->apparent ? size : size * 512;
    if (o->threshold > 0 && bytes < (uint64_t)o->threshold) return;
    if (o->threshold < 0 && bytes > 0 - (uint64_t)o->threshold) return;
  }
  char buf[64];
  uint64_t unit = o->inodes || o->apparent ? 1 : 512;
  if (o->inodes) snprintf(buf, sizeof buf, "%" PRIu64, size);
  else if (o->human >= 0) cmd_human(size, unit, o->human, buf, sizeof buf);
  else cmd_blocks_str(size, unit, o->block, buf, sizeof buf);
  cmd_outs(ctx, buf);
  cmd_outc(ctx, '\t');
  if (o->show_time) {
    struct tm tm;
    char *out = NULL;
    if (cmd_time_local(&o->tz, tsec, &tm) &&
        cmd_strftime(&out, 256, o->time_fmt, &tm, tsec, tnsec) >= 0)
      cmd_outs(ctx, out);
    free(out);
    cmd_outc(ctx, '\t');
  }
  cmd_outs(ctx, path);
  cmd_outc(ctx, o->zero ? '\0' : '\n');
}

static bool excluded(du_opts *o, const char *path, const char *name) {
  for (int i = 0; i < o->nexcludes; i++)
    if (fnmatch(o->excludes[i], name, 0) == 0 || fnmatch(o->excludes[i], path, 0) == 0)
      return true;
  return false;
}

static void take_time(du_acc *a, const store_stat *st, char field) {
  int64_t t;
  long ns;
  switch (field) {
  case 'a': t = st->atime; ns = st->atime_nsec; break;
  case 'c': t = st->ctime; ns = st->ctime_nsec; break;
  default: t = st->mtime; ns = st->mtime_nsec;
  }
  if (t > a->tsec || (t == a->tsec && ns > a->tnsec)) {
    a->tsec = t;
    a->tnsec = ns;
  }
}

/* "du: cannot WHAT 'PATH': reason" for an entry the walk could not read,
 * recorded for the C API; du exits 1. */
static void du_walk_error(du_opts *o, const char *what, const cmd_walk_ent *e) {
  cmd_errorf(o->ctx, "cannot %s %s: %s", what, cmd_gnu_quoteaf(o->ctx, e->path),
             cmd_strerror(e->err));
  cmd_record_error(o->ctx, e->err, e->path);
  o->status = 1;
}

/* Walks one operand; returns its total (0 if it failed). */
static uint64_t du_walk(du_opts *o, const char *root) {
  cmd_ctx *ctx = o->ctx;
  int flags = CMD_WALK_POST;
  if (o->deref == 'L') flags |= CMD_WALK_LOGICAL;
  if (o->deref == 'H') flags |= CMD_WALK_COMFOLLOW;
  cmd_walk *w = cmd_walk_open(ctx, root, flags);
  if (!w) {
    o->status = 1;
    return 0;
  }
  du_acc *acc = NULL;
  size_t cap = 0;
  uint64_t result = 0;
  cmd_walk_ent *e;
  while ((e = cmd_walk_next(w))) {
    if (cmd_grow(&acc, &cap, (size_t)e->depth + 2, sizeof *acc)) break;
    if (e->depth > 0 && excluded(o, e->path, e->name)) {
      if (e->info == CMD_WALK_D) cmd_walk_skip(w);
      continue;
    }
    switch (e->info) {
    case CMD_WALK_D:
      memset(&acc[e->depth], 0, sizeof acc[e->depth]);
      if (seen_before(o, e->st.ino)) {
        cmd_walk_skip(w);
        acc[e->depth].size = (uint64_t)-1; /* marker: skip at DP */
        break;
      }
      acc[e->depth].size = entry_size(o, &e->st);
      take_time(&acc[e->depth], &e->st, o->time_field);
      break;
    case CMD_WALK_DNR: du_walk_error(o, "read directory", e); break;
    case CMD_WALK_DP: {
      du_acc a = acc[e->depth];
      if (a.size == (uint64_t)-1) break; /* already counted elsewhere */
      if (o->max_depth < 0 || e->depth <= o->max_depth) print_line(o, a.size, a.tsec, a.tnsec, e->path);
      if (e->depth == 0) {
        result = a.size;
      } else {
        du_acc *p = &acc[e->depth - 1];
        if (!o->separate) p->size += a.size;
        if (a.tsec > p->tsec || (a.tsec == p->tsec && a.tnsec > p->tnsec)) {
          p->tsec = a.tsec;
          p->tnsec = a.tnsec;
        }
      }
      break;
    }
    case CMD_WALK_DC:
      break;
    case CMD_WALK_NS: du_walk_error(o, "access", e); break;
    case CMD_WALK_SLNONE:
      /* GNU: fts gives a dangling symlink (-L) with errno 0, so the
       * message has no reason */
      cmd_errorf(ctx, "cannot access %s", cmd_gnu_quoteaf(ctx, e->path));
      cmd_record_error(ctx, e->err, e->path);
      o->status = 1;
      break;
    default: {
      /* GNU's hash_all: with -L every file is checked, as two symlinks (or
       * a symlink and the file) reach one inode with a link count of 1 */
      if (!o->count_links && (e->st.nlink > 1 || o->deref == 'L') && seen_before(o, e->st.ino))
        break;
      du_acc a = {entry_size(o, &e->st), 0, 0};
      take_time(&a, &e->st, o->time_field);
      if (e->depth == 0 || o->all) {
        if (o->max_depth < 0 || e->depth <= o->max_depth)
          print_line(o, a.size, a.tsec, a.tnsec, e->path);
      }
      if (e->depth == 0) {
        result = a.size;
      } else {
        du_acc *p = &acc[e->depth - 1];
        p->size += a.size;
        if (a.tsec > p->tsec || (a.tsec == p->tsec && a.tnsec > p->tnsec)) {
          p->tsec = a.tsec;
          p->tnsec = a.tnsec;
        }
      }
    }
    }
  }
  if (cmd_walk_stopped(w)) o->status = 1;
  cmd_walk_close(w);
  free(acc);
  return result;
}

int cmd_du_main(cmd_ctx *ctx, int argc, char **argv) {
  enum {
    OPT_APPARENT = CMD_OPT_LONG, OPT_EXCLUDE, OPT_INODES, OPT_SI, OPT_TIME,
    OPT_TIME_STYLE, OPT_FILES0
  };
  static const char spec[] =
      "(apparent-size)(exclude):(inodes)(si)(time)::(time-style):(files0-from):"
      "(help)(version)0(null)a(all)B:(block-size)b(bytes)c(total)D(dereference-args)"
      "d:(max-depth)X:(exclude-from)h(human-readable)L(dereference)l(count-links)"
      "P(no-dereference)S(separate-dirs)s(summarize)t:(threshold)x(one-file-system)Hkm";
  du_opts o = {.ctx = ctx, .max_depth = -1, .human = -1, .block = 1024, .deref = 'P',
               .time_field = 'm', .time_fmt = "%Y-%m-%d %H:%M"};
  uint64_t env_block;
  int env_human;
  if (cmd_gnu_env_blocksize(ctx, "DU_BLOCK_SIZE", &env_block, &env_human)) {
    o.block = env_block;
    o.human = env_human;
  }
  o.excludes = cmd_alloc(ctx, (size_t)(argc + 1) * sizeof *o.excludes);
  if (!o.excludes) return 1;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: block sizes and dereference modes override each other in order,
   * arguments are checked and gathered as they come; plain flags are read
   * from st after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case OPT_APPARENT: o.apparent = true; break;
    case 'B': {
      uint64_t blk;
      int h;
      if (cmd_parse_blocksize(st.arg, &blk, &h) < 0) {
        cmd_errorf(ctx, "invalid -B argument %s", cmd_gnu_quoteaf(ctx, st.arg));
        return 1;
      }
      o.block = blk;
      o.human = h;
      break;
    }
    case 'b': o.apparent = true; o.block = 1; o.human = -1; break;
    case 'D': case 'H': o.deref = 'H'; break;
    case 'd': {
      char *ep;
      long v = strtol(st.arg, &ep, 10);
      if (*ep || !*st.arg || v < 0) {
        cmd_errorf(ctx, "invalid maximum depth %s", cmd_gnu_quoteaf(ctx, st.arg));
        return cmd_usage_hint(ctx, 1);
      }
      o.max_depth = v > 1000000 ? 1000000 : (int)v;
      break;
    }
    case OPT_EXCLUDE: o.excludes[o.nexcludes++] = st.arg; break;
    case 'X': {
      void *data;
      size_t len;
      int rc = store_path_read_file(ctx->store, ctx->cwd, st.arg, &data, &len);
      if (rc < 0) return cmd_gnu_perror(ctx, st.arg, rc);
      size_t lines = 1;
      for (size_t i = 0; i < len; i++) lines += ((char *)data)[i] == '\n';
      const char **ne = cmd_alloc(ctx, ((size_t)o.nexcludes + lines + (size_t)argc + 1) * sizeof *ne);
      if (!ne) {
        free(data);
        return 1;
      }
      memcpy(ne, o.excludes, (size_t)o.nexcludes * sizeof *ne);
      o.excludes = ne;
      char *p = data;
      char *save;
      for (char *line = strtok_r(p, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        o.excludes[o.nexcludes++] = cmd_strdup(ctx, line);
      free(data);
      break;
    }
    case 'h': o.human = CMD_HUMAN_CEIL; break;
    case OPT_SI: o.human = CMD_HUMAN_CEIL | CMD_HUMAN_SI; break;
    case 'k': o.block = 1024; o.human = -1; break;
    case 'm': o.block = 1024 * 1024; o.human = -1; break;
    case 'L': o.deref = 'L'; break;
    case 'P': o.deref = 'P'; break;
    case 't': {
      const char *a = st.arg;
      bool neg = *a == '-';
      uint64_t v;
      int prc = cmd_parse_size(neg ? a + 1 : a, "0bcEGkKMPTwYZ", &v);
      /* an intmax_t like GNU's: -2^63 .. 2^63-1, larger is "too large" */
      if (prc == -ERANGE || v > (uint64_t)INT64_MAX + neg) {
        cmd_errorf(ctx, "-t argument %s too large", cmd_gnu_quoteaf(ctx, a));
        return 1;
      }
      if (prc < 0 || (neg && v == 0)) {
        cmd_errorf(ctx, "invalid --threshold argument %s", cmd_gnu_quoteaf(ctx, a));
        return 1;
      }
      o.threshold = neg ? (int64_t)(0 - v) : (int64_t)v;
      break;
    }
    case OPT_TIME:
      o.show_time = true;
      if (st.arg) {
        if (!strcmp(st.arg, "atime") || !strcmp(st.arg, "access") || !strcmp(st.arg, "use"))
          o.time_field = 'a';
        else if (!strcmp(st.arg, "ctime") || !strcmp(st.arg, "status"))
          o.time_field = 'c';
        else {
          cmd_errorf(ctx, "invalid argument %s for '--time'", cmd_gnu_quote(ctx, st.arg));
          return cmd_usage_hint(ctx, 1);
        }
      }
      break;
    case OPT_TIME_STYLE:
      if (st.arg[0] == '+') o.time_fmt = st.arg + 1;
      else if (!strcmp(st.arg, "full-iso")) o.time_fmt = "%Y-%m-%d %H:%M:%S.%N %z";
      else if (!strcmp(st.arg, "long-iso")) o.time_fmt = "%Y-%m-%d %H:%M";
      else if (!strcmp(st.arg, "iso")) o.time_fmt = "%Y-%m-%d";
      else {
        cmd_errorf(ctx, "invalid argument %s for 'time style'", cmd_gnu_quote(ctx, st.arg));
        return cmd_usage_hint(ctx, 1);
      }
      break;
    CMD_CASES_HELP_VERSION(ctx, du_usage);
    case '?': return 1;
    }
  }
  o.zero = cmd_opt_on(&st, '0');
  o.all = cmd_opt_on(&st, 'a');
  o.total = cmd_opt_on(&st, 'c');
  o.inodes = cmd_opt_on(&st, OPT_INODES);
  o.count_links = cmd_opt_on(&st, 'l');
  o.separate = cmd_opt_on(&st, 'S');
  bool summarize = cmd_opt_on(&st, 's');
  const char *files0 = cmd_opt_arg(&st, OPT_FILES0);
  if (summarize) {
    if (o.all) {
      cmd_errorf(ctx, "cannot both summarize and show all entries");
      return cmd_usage_hint(ctx, 1);
    }
    if (o.max_depth > 0) {
      cmd_errorf(ctx, "warning: summarizing conflicts with --max-depth=%d", o.max_depth);
      return cmd_usage_hint(ctx, 1);
    }
    o.max_depth = 0;
  }
  cmd_tz_from_env(ctx, &o.tz);
  uint64_t grand = 0;
  int nops = argc - st.ind;
  char **ops = argv + st.ind;
  size_t nnames = nops > 0 ? (size_t)nops : 1;
  char *list = NULL;
  if (files0) {
    /* --files0-from: the operands are the NUL-separated names in F. */
    if (nops > 0) {
      cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, ops[0]));
      cmd_err_raw(ctx, "file operands cannot be combined with --files0-from\n");
      return cmd_usage_hint(ctx, 1);
    }
    size_t len;
    int r = cmd_read_all(ctx, files0, ctx->max_string, &list, &len);
    if (r < 0) {
      cmd_errorf(ctx, "cannot open %s for reading: %s", cmd_gnu_quoteaf(ctx, files0),
                 cmd_strerror(r));
      return 1;
    }
    nnames = 0;
    for (size_t i = 0; i < len; i++) nnames += list[i] == 0;
    if (len && list[len - 1]) nnames++; /* a last name without its NUL */
    ops = cmd_alloc(ctx, (nnames ? nnames : 1) * sizeof *ops);
    if (!ops) {
      free(list);
      return 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < len; i += strlen(list + i) + 1) ops[k++] = list + i;
  }
  for (size_t i = 0; i < nnames; i++) {
    const char *path = files0 || nops > 0 ? ops[i] : ".";
    if (files0 && !*path) {
      cmd_errorf(ctx, "%s:%zu: invalid zero-length file name", cmd_gnu_quotef(ctx, files0),
                 i + 1);
      o.status = 1;
      continue;
    }
    if (files0 && strcmp(files0, "-") == 0 && strcmp(path, "-") == 0) {
      cmd_errorf(ctx, "when reading file names from stdin, no file name of %s allowed",
                 cmd_gnu_quoteaf(ctx, path));
      o.status = 1;
      continue;
    }
    store_stat pst;
    bool follow = o.deref != 'P';
    int rc = follow ? cmd_fs_stat(ctx, path, &pst) : cmd_fs_lstat(ctx, path, &pst);
    if (rc == -ENOENT && follow && cmd_fs_lstat(ctx, path, &pst) == 0 && S_ISLNK(pst.mode)) {
      cmd_errorf(ctx, "cannot access %s", cmd_gnu_quoteaf(ctx, path)); /* see SLNONE */
      cmd_record_error(ctx, rc, path);
      o.status = 1;
      continue;
    }
    if (rc < 0) {
      cmd_errorf(ctx, "cannot access %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      o.status = 1;
      continue;
    }
    grand += du_walk(&o, path);
    if (cmd_poll(ctx)) break;
  }
  if (o.total) print_line(&o, grand, 0, 0, "total");
  free(list);
  cmd_fs_inoset_free(&o.seen);
  return o.status;
}
