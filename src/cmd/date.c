/*
 * date - print or set the system date and time (GNU coreutils compatible).
 *
 *   date [OPTION]... [+FORMAT]
 *   -d, --date=STRING          display time described by STRING, not 'now'
 *   -f, --file=DATEFILE        like --date; once for each line of DATEFILE
 *   -I[FMT], --iso-8601[=FMT]  ISO 8601 (FMT: date, hours, minutes, seconds, ns)
 *   -R, --rfc-email            RFC 5322 format
 *       --rfc-3339=FMT         RFC 3339 (FMT: date, seconds, ns)
 *   -r, --reference=FILE       display the last modification time of FILE
 *   -s, --set=STRING           refused: the sandbox's clock cannot be set
 *   -u, --utc, --universal     Coordinated Universal Time
 *       --debug                annotate the parsed date, warn about questionable usage
 *
 * Design decisions:
 *  - "Now" is ctx->now (seconds; the sandbox may pin it); the nanoseconds come
 *    from the real clock only when it agrees on the second, else 0.
 *  - Time zones: TZ from the environment through lib/datetime (POSIX rules and
 *    the built-in zone table with current rules; no host zoneinfo files).
 *  - --debug prints gnulib parse-datetime's trace (lib/datetime's
 *    cmd_parse_date_debug) and the output format, on stderr.
 *  - Setting the clock (-s, or an MMDDhhmm operand) fails with EPERM like an
 *    unprivileged GNU date.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("date", cmd_date_main);

static const char date_usage[] =
    "Usage: date [OPTION]... [+FORMAT]\n"
    "  or:  date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]\n"
    "Display date and time in the given FORMAT.\n"
    "\n"
    "  -d, --date=STRING          display time described by STRING, not 'now'\n"
    "  -f, --file=DATEFILE        like --date; once for each line of DATEFILE\n"
    "  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.\n"
    "                               FMT='date' for date only (the default),\n"
    "                               'hours', 'minutes', 'seconds', or 'ns'\n"
    "  -R, --rfc-email            output date and time in RFC 5322 format.\n"
    "      --rfc-3339=FMT         output date/time in RFC 3339 format.\n"
    "                               FMT='date', 'seconds', or 'ns'\n"
    "  -r, --reference=FILE       display the last modification time of FILE\n"
    "  -s, --set=STRING           set time described by STRING\n"
    "      --debug                annotate the parsed date,\n"
    "                              and warn about questionable usage to stderr\n"
    "  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)\n"
    CMD_HELP_VERSION_LINES;

/* Prints one time in `fmt` (with --debug, GNU's "output format" line
 * first); returns 0 or -1 (output error / too long). */
static int date_show(cmd_ctx *ctx, const cmd_tz *tz, const char *fmt, int64_t t, long ns,
                     bool debug) {
  if (debug) cmd_errorf(ctx, "output format: %s", cmd_gnu_quote(ctx, fmt));
  struct tm tm;
  if (!cmd_time_local(tz, t, &tm)) {
    cmd_errorf(ctx, "time %lld is out of range", (long long)t);
    return -1;
  }
  char *out = NULL;
  long n = cmd_strftime(&out, ctx->max_string ? ctx->max_string : (1u << 20), fmt, &tm, t, ns);
  if (n < 0) {
    cmd_errorf(ctx, "memory exhausted");
    return -1;
  }
  cmd_out(ctx, out, (size_t)n);
  cmd_outc(ctx, '\n');
  free(out);
  return 0;
}

static int bad_fmt_arg(cmd_ctx *ctx, const char *arg, const char *opt, const char *valid) {
  cmd_errorf(ctx, "invalid argument %s for %s", cmd_gnu_quote(ctx, arg), opt);
  cmd_err_raw(ctx, "Valid arguments are:\n%s", valid);
  return cmd_usage_hint(ctx, 1);
}

int cmd_date_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_RFC_3339 = CMD_OPT_LONG, O_DEBUG, O_RESOLUTION };
  static const char spec[] =
      "(rfc-3339):(debug)(resolution)(help)(version)d:(date)f:(file)I::(iso-8601)"
      "R(rfc-email)(rfc-822)(rfc-2822)r:(reference)s:(set)u(utc)(universal)(uct)";
  cmd_getopt_state st = CMD_GETOPT_INIT;
  const char *fmt = NULL;
  int nfmt = 0;
  /* The formats are read at once, in the order given: the last one counts. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'I': {
      static const char *const names[] = {"hours", "minutes", "date", "seconds", "ns"};
      static const char *const fmts[] = {"%Y-%m-%dT%H%:z", "%Y-%m-%dT%H:%M%:z", "%Y-%m-%d",
                                         "%Y-%m-%dT%H:%M:%S%:z",
                                         "%Y-%m-%dT%H:%M:%S,%N%:z"};
      int k = 2;
      if (st.arg) {
        k = -1;
        size_t l = strlen(st.arg);
        for (int i = 0; i < 5; i++)
          if (l && strncmp(names[i], st.arg, l) == 0) {
            if (k >= 0 && strcmp(names[i], st.arg) != 0) { k = -2; break; }
            k = i;
            if (strcmp(names[i], st.arg) == 0) break;
          }
        if (k < 0)
          return bad_fmt_arg(ctx, st.arg, "\xe2\x80\x98--iso-8601\xe2\x80\x99",
                             "  - \xe2\x80\x98hours\xe2\x80\x99\n  - \xe2\x80\x98minutes\xe2\x80\x99\n"
                             "  - \xe2\x80\x98" "date\xe2\x80\x99\n  - \xe2\x80\x98seconds\xe2\x80\x99\n"
                             "  - \xe2\x80\x98ns\xe2\x80\x99\n");
      }
      fmt = fmts[k];
      nfmt++;
      break;
    }
    case 'R': fmt = "%a, %d %b %Y %H:%M:%S %z"; nfmt++; break;
    case O_RFC_3339: {
      static const char *const names[] = {"date", "seconds", "ns"};
      static const char *const fmts[] = {"%Y-%m-%d", "%Y-%m-%d %H:%M:%S%:z",
                                         "%Y-%m-%d %H:%M:%S.%N%:z"};
      int k = -1;
      size_t l = strlen(st.arg);
      for (int i = 0; i < 3; i++)
        if (l && strncmp(names[i], st.arg, l) == 0) k = i;
      if (k < 0)
        return bad_fmt_arg(ctx, st.arg, "\xe2\x80\x98--rfc-3339\xe2\x80\x99",
                           "  - \xe2\x80\x98" "date\xe2\x80\x99\n  - \xe2\x80\x98seconds\xe2\x80\x99\n"
                           "  - \xe2\x80\x98ns\xe2\x80\x99\n");
      fmt = fmts[k];
      nfmt++;
      break;
    }
    CMD_CASES_HELP_VERSION(ctx, date_usage);
    case '?': return 1;
    }
  }
  const char *date = cmd_opt_arg(&st, 'd'), *file = cmd_opt_arg(&st, 'f');
  const char *ref = cmd_opt_arg(&st, 'r'), *set = cmd_opt_arg(&st, 's');
  bool utc = cmd_opt_on(&st, 'u'), resolution = cmd_opt_on(&st, O_RESOLUTION);
  bool debug = cmd_opt_on(&st, O_DEBUG);
  int nsrc = (date != NULL) + (file != NULL) + (ref != NULL) + (resolution ? 1 : 0);
  if (nsrc > 1) {
    cmd_errorf(ctx, "the options to specify dates for printing are mutually exclusive");
    return cmd_usage_hint(ctx, 1);
  }
  if (set && nsrc) {
    cmd_errorf(ctx, "the options to print and set the time may not be used together");
    return cmd_usage_hint(ctx, 1);
  }
  if (st.ind < argc) {
    if (argc - st.ind > 1) {
      cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[st.ind + 1]));
      return cmd_usage_hint(ctx, 1);
    }
    const char *op = argv[st.ind];
    if (op[0] == '+') {
      if (nfmt) {
        cmd_errorf(ctx, "multiple output formats specified");
        return 1;
      }
      fmt = op + 1;
      nfmt++;
    } else if (nsrc || set) {
      cmd_errorf(ctx, "the argument %s lacks a leading '+';\n"
                      "when using an option to specify date(s), any non-option\n"
                      "argument must be a format string beginning with '+'",
                 cmd_gnu_quote(ctx, op));
      return cmd_usage_hint(ctx, 1);
    } else {
      set = op;
    }
  }
  if (nfmt > 1) {
    cmd_errorf(ctx, "multiple output formats specified");
    return 1;
  }
  if (!fmt) fmt = "%a %b %e %H:%M:%S %Z %Y";
  cmd_tz tz;
  if (utc) cmd_tz_parse("UTC0", &tz);
  else cmd_tz_from_env(ctx, &tz);
  /* --debug: gnulib's parse trace, naming TZ as GNU date sees it (-u sets UTC0) */
  cmd_date_debug dbg = {ctx, utc ? "UTC0" : cmd_getenv(ctx, "TZ")};
  const cmd_date_debug *dbgp = debug ? &dbg : NULL;

  int64_t now = ctx->now;
  long now_ns = 0;
  struct timespec rt;
  if (clock_gettime(CLOCK_REALTIME, &rt) == 0 && rt.tv_sec == now) now_ns = rt.tv_nsec;

  if (set) {
    cmd_errorf(ctx, "cannot set date: %s", cmd_strerror(-EPERM));
    return 1;
  }
  if (resolution) {
    cmd_outs(ctx, "0.000000001\n");
    return 0;
  }
  if (ref) {
    store_stat rs;
    int rc = cmd_fs_stat(ctx, ref, &rs);
    if (rc < 0) return cmd_gnu_perror(ctx, ref, rc);
    return date_show(ctx, &tz, fmt, rs.mtime, rs.mtime_nsec, debug) ? 1 : 0;
  }
  if (file) {
    cmd_in *in;
    int rc = cmd_in_open(ctx, file, &in);
    if (rc < 0) return cmd_gnu_perror(ctx, file, rc);
    int status = 0;
    char *line;
    ssize_t n;
    while ((n = cmd_in_getdelim(in, &line, '\n')) > 0) {
      bool nl = line[n - 1] == '\n';
      if (nl) line[--n] = 0;
      int64_t t;
      long ns;
      /* GNU parses the line with its newline (its trace shows it); the
       * parser skips it as white space, so only the trace differs */
      if (debug && nl) line[n] = '\n';
      int prc = cmd_parse_date_debug(line, now, now_ns, &tz, dbgp, &t, &ns);
      if (nl) line[n] = 0;
      if (prc < 0) {
        cmd_errorf(ctx, "invalid date %s", cmd_gnu_quote(ctx, line));
        status = 1;
        continue;
      }
      if (date_show(ctx, &tz, fmt, t, ns, debug)) status = 1;
      if (cmd_poll(ctx)) break;
    }
    if (n < 0) {
      cmd_gnu_perror(ctx, file, (int)n);
      status = 1;
    }
    cmd_in_close(in);
    return status;
  }
  int64_t t = now;
  long ns = now_ns;
  if (date) {
    if (cmd_parse_date_debug(date, now, now_ns, &tz, dbgp, &t, &ns) < 0) {
      cmd_errorf(ctx, "invalid date %s", cmd_gnu_quote(ctx, date));
      return 1;
    }
  }
  return date_show(ctx, &tz, fmt, t, ns, debug) ? 1 : 0;
}
