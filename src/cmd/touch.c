/*
 * touch - change file timestamps (GNU coreutils compatible).
 *
 *   touch [OPTION]... FILE...
 *   -a                     change only the access time
 *   -c, --no-create        do not create any files
 *   -d, --date=STRING      parse STRING and use it instead of current time
 *   -f                     (ignored)
 *   -h, --no-dereference   affect each symbolic link instead of its target
 *   -m                     change only the modification time
 *   -r, --reference=FILE   use this file's times instead of current time
 *   -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
 *       --time=WORD        change the specified time: access/atime/use or
 *                          modify/mtime
 *
 * Design decisions: dates are parsed by lib/datetime (GNU date strings, TZ of
 * the environment); a missing file is created exclusively first (mode 0666
 * minus the umask, exactly: the inode API applies no umask of its own),
 * then its times are set in a second call when they are not "now", as GNU
 * does with futimens after open. New files are made by inode in their parent
 * directory, which is resolved once for a run of operands in the same
 * directory (`seq 1 100000 | xargs touch`); existing files, symlinks and odd
 * names take the path API. The whole call is one store transaction.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("touch", cmd_touch_main);

/* The parent directory of the last file created, kept while touch runs.
 * Safe because touch only creates regular files, which cannot change what
 * an existing directory path resolves to. */
typedef struct touch_dir {
  char *key;     /* malloc'd directory part of the operand, with its slash
                    ("" for a bare name), or NULL */
  store_ino ino; /* what it resolved to */
} touch_dir;

/* Creates `path` exclusively with exactly `mode`, by inode in its parent.
 * Returns 0, or a negative errno (the caller then takes the path API, which
 * also handles existing files and gives the messages). */
static int touch_create(cmd_ctx *ctx, touch_dir *c, const char *path, uint32_t mode) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  size_t klen = slash ? (size_t)(slash - path) + 1 : 0;
  if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > STORE_NAME_MAX)
    return -EINVAL;
  if (!c->key || strlen(c->key) != klen || memcmp(c->key, path, klen) != 0) {
    char nm[STORE_NAME_MAX + 1];
    store_ino dir;
    int rc = store_resolve_parent(ctx->store, ctx->cwd, path, &dir, nm);
    if (rc < 0) return rc;
    char *k = malloc(klen + 1);
    if (!k) return -ENOMEM;
    memcpy(k, path, klen);
    k[klen] = 0;
    free(c->key);
    c->key = k;
    c->ino = dir;
  }
  store_stat st;
  return store_create(ctx->store, c->ino, name, mode, &st);
}

static const char touch_usage[] =
    "Usage: touch [OPTION]... FILE...\n"
    "Update the access and modification times of each FILE to the current time.\n"
    "\n"
    "A FILE argument that does not exist is created empty, unless -c or -h\n"
    "is supplied.\n"
    "\n"
    "  -a                     change only the access time\n"
    "  -c, --no-create        do not create any files\n"
    "  -d, --date=STRING      parse STRING and use it instead of current time\n"
    "  -f                     (ignored)\n"
    "  -h, --no-dereference   affect each symbolic link instead of any referenced\n"
    "                         file\n"
    "  -m                     change only the modification time\n"
    "  -r, --reference=FILE   use this file's times instead of current time\n"
    "  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time\n"
    "      --time=WORD        change the specified time:\n"
    "                           WORD is access, atime, or use: equivalent to -a\n"
    "                           WORD is modify or mtime: equivalent to -m\n"
    CMD_HELP_VERSION_LINES;

/* Parses -t's [[CC]YY]MMDDhhmm[.ss] in tz. */
static bool parse_stamp(const char *s, const cmd_tz *tz, int64_t now, int64_t *out) {
  size_t len = strlen(s);
  const char *dot = strchr(s, '.');
  size_t main_len = dot ? (size_t)(dot - s) : len;
  int sec = 0;
  if (dot) {
    if (strlen(dot + 1) != 2 || !isdigit((unsigned char)dot[1]) ||
        !isdigit((unsigned char)dot[2]))
      return false;
    sec = (dot[1] - '0') * 10 + (dot[2] - '0');
  }
  if (main_len != 8 && main_len != 10 && main_len != 12) return false;
  for (size_t i = 0; i < main_len; i++)
    if (!isdigit((unsigned char)s[i])) return false;
  int d[6];
  int nd = (int)main_len / 2;
  for (int i = 0; i < nd; i++) d[i] = (s[2 * i] - '0') * 10 + (s[2 * i + 1] - '0');
  struct tm tm;
  cmd_time_local(tz, now, &tm);
  int64_t year = (int64_t)tm.tm_year + 1900;
  int k = 0;
  if (nd == 6) {
    year = d[0] * 100 + d[1];
    k = 2;
  } else if (nd == 5) {
    year = d[0] < 69 ? 2000 + d[0] : 1900 + d[0];
    k = 1;
  }
  int mon = d[k], mday = d[k + 1], hour = d[k + 2], min = d[k + 3];
  if (mon < 1 || mon > 12 || mday < 1 || mday > 31 || hour > 23 || min > 59 || sec > 60)
    return false;
  struct tm want = {0};
  want.tm_year = (int)(year - 1900);
  want.tm_mon = mon - 1;
  want.tm_mday = mday;
  want.tm_hour = hour;
  want.tm_min = min;
  want.tm_sec = sec == 60 ? 59 : sec;
  want.tm_isdst = -1;
  int64_t t;
  struct tm chk = want;
  if (!cmd_time_mk(tz, &chk, &t)) return false;
  if (chk.tm_mday != mday || chk.tm_mon != mon - 1) return false;
  if (sec == 60) t++;
  *out = t;
  return true;
}

int cmd_touch_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_TIME = CMD_OPT_LONG };
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool a = false, m = false;
  /* A loop for --time, whose bad argument is reported at once; the flags and
   * the other arguments are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv,
                              "(time):(help)(version)ac(no-create)d:(date)fh(no-dereference)m"
                              "r:(reference)t:",
                              NULL)) != -1;) {
    switch (c) {
    case OPT_TIME:
      if (!strcmp(st.arg, "access") || !strcmp(st.arg, "atime") || !strcmp(st.arg, "use"))
        a = true;
      else if (!strcmp(st.arg, "modify") || !strcmp(st.arg, "mtime"))
        m = true;
      else {
        cmd_errorf(ctx, "invalid argument %s for " CMD_LQ "--time" CMD_RQ,
                   cmd_gnu_quote(ctx, st.arg));
        cmd_err_raw(ctx, "Valid arguments are:\n"
                         "  - " CMD_LQ "atime" CMD_RQ ", " CMD_LQ "access" CMD_RQ ", " CMD_LQ
                         "use" CMD_RQ "\n"
                         "  - " CMD_LQ "mtime" CMD_RQ ", " CMD_LQ "modify" CMD_RQ "\n");
        return cmd_usage_hint(ctx, 1);
      }
      break;
    CMD_CASES_HELP_VERSION(ctx, touch_usage);
    case '?': return 1;
    }
  }
  a = a || cmd_opt_on(&st, 'a');
  m = m || cmd_opt_on(&st, 'm');
  bool nocreate = cmd_opt_on(&st, 'c'), nofollow = cmd_opt_on(&st, 'h');
  const char *date = cmd_opt_arg(&st, 'd'), *ref = cmd_opt_arg(&st, 'r');
  const char *stamp = cmd_opt_arg(&st, 't');
  if (!a && !m) a = m = true;
  if (stamp && (date || ref)) {
    cmd_errorf(ctx, "cannot specify times from more than one source");
    return cmd_usage_hint(ctx, 1);
  }
  struct timespec ts[2];
  bool use_now = true;
  cmd_tz tz;
  cmd_tz_from_env(ctx, &tz);
  if (ref) {
    store_stat rs;
    int rc = cmd_fs_stat_reference(ctx, ref, !nofollow, &rs);
    if (rc < 0) {
      cmd_record_error(ctx, rc, ref);
      return 1;
    }
    ts[0].tv_sec = rs.atime;
    ts[0].tv_nsec = rs.atime_nsec;
    ts[1].tv_sec = rs.mtime;
    ts[1].tv_nsec = rs.mtime_nsec;
    use_now = false;
    if (date) {
      for (int k = 0; k < 2; k++) {
        int64_t t;
        long ns;
        if (cmd_parse_date(date, ts[k].tv_sec, ts[k].tv_nsec, &tz, &t, &ns) < 0) {
          cmd_errorf(ctx, "invalid date format %s", cmd_gnu_quote(ctx, date));
          return 1;
        }
        ts[k].tv_sec = (time_t)t;
        ts[k].tv_nsec = ns;
      }
    }
  } else if (date) {
    int64_t t;
    long ns;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t base = ctx->now;
    long base_ns = base == now.tv_sec ? now.tv_nsec : 0;
    if (cmd_parse_date(date, base, base_ns, &tz, &t, &ns) < 0) {
      cmd_errorf(ctx, "invalid date format %s", cmd_gnu_quote(ctx, date));
      return 1;
    }
    ts[0].tv_sec = ts[1].tv_sec = (time_t)t;
    ts[0].tv_nsec = ts[1].tv_nsec = ns;
    use_now = false;
  } else if (stamp) {
    int64_t t;
    if (!parse_stamp(stamp, &tz, ctx->now, &t)) {
      cmd_errorf(ctx, "invalid date format %s", cmd_gnu_quote(ctx, stamp));
      return 1;
    }
    ts[0].tv_sec = ts[1].tv_sec = (time_t)t;
    ts[0].tv_nsec = ts[1].tv_nsec = 0;
    use_now = false;
  }
  if (use_now) {
    ts[0].tv_sec = ts[1].tv_sec = 0;
    ts[0].tv_nsec = ts[1].tv_nsec = UTIME_NOW;
  }
  if (!a) ts[0].tv_nsec = UTIME_OMIT;
  if (!m) ts[1].tv_nsec = UTIME_OMIT;
  if (st.ind >= argc) {
    cmd_errorf(ctx, "missing file operand");
    return cmd_usage_hint(ctx, 1);
  }
  int status = 0;
  touch_dir cache = {0};
  uint32_t mode = 0666 & ~(ctx->umask & 0777);
  store_begin(ctx->store); /* one transaction for all operands */
  for (int i = st.ind; i < argc; i++) {
    const char *path = argv[i];
    if (strcmp(path, "-") == 0) continue;
    if (cmd_poll(ctx)) {
      status = 1;
      break;
    }
    int rc = 0;
    store_stat sst;
    if (!nocreate && !nofollow) {
      /* create exclusively first: a new file's times are already "now" when
       * no other time was asked for */
      rc = touch_create(ctx, &cache, path, mode);
      if (rc < 0)
        rc = store_path_open(ctx->store, ctx->cwd, path, O_WRONLY | O_CREAT | O_EXCL, mode, &sst);
      if (rc == 0 && use_now) continue;
      /* an existing directory ("touch .") is not an error */
      if (rc < 0 && rc != -EEXIST && rc != -EISDIR) {
        cmd_errorf(ctx, "cannot touch %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
        cmd_record_error(ctx, rc, path);
        status = 1;
        continue;
      }
    } else {
      bool exists = (nofollow ? cmd_fs_lstat(ctx, path, &sst) : cmd_fs_stat(ctx, path, &sst)) == 0;
      if (!exists) continue;
    }
    rc = store_path_utimes(ctx->store, ctx->cwd, path, ts, nofollow ? STORE_NOFOLLOW : 0);
    if (rc == -ENOENT && !nocreate && !nofollow) {
      /* a dangling symlink: like open(O_CREAT), create its target; a failed
       * open reports as GNU's does ("cannot touch"), except EISDIR ("x/"),
       * which GNU ignores, keeping the utimes error */
      int orc = store_path_open(ctx->store, ctx->cwd, path, O_WRONLY | O_CREAT, mode, &sst);
      if (orc == 0) {
        rc = store_path_utimes(ctx->store, ctx->cwd, path, ts, 0);
      } else if (orc != -EISDIR) {
        cmd_errorf(ctx, "cannot touch %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(orc));
        cmd_record_error(ctx, orc, path);
        status = 1;
        continue;
      }
    }
    if (rc < 0) {
      cmd_errorf(ctx, "setting times of %s: %s", cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      status = 1;
    }
  }
  store_commit(ctx->store);
  free(cache.key);
  return status;
}
