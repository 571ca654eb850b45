/*
 * datetime.h - time zones, GNU strftime and GNU date-string parsing for the
 * commands (date, ls, stat, touch, find -printf, du --time).
 *
 * Time zones come from the TZ variable of the command's environment: POSIX TZ
 * strings ("EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30", "UTC0"), "UTC"/"GMT"/
 * empty/unset, and zone names ("Europe/Paris") looked up in a built-in table
 * generated from tzdata (lib/tzdata.c) with each zone's *current* rules:
 * historical offsets before the last rule change are not modelled (the host's
 * zoneinfo files are never read). An unknown name behaves like glibc: UTC,
 * with the name's leading letters as the abbreviation.
 */
#ifndef SBX_CMD_UTIL_TIME_H
#define SBX_CMD_UTIL_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cmd/cmd.h"

/* One zone of the built-in table. */
typedef struct cmd_tz_zone {
  const char *name; /* "America/New_York" */
  const char *rule; /* "EST5EDT,M3.2.0,M11.1.0" */
} cmd_tz_zone;
extern const cmd_tz_zone cmd_tz_zones[];
extern const size_t cmd_tz_nzones;

/* A DST transition rule (POSIX TZ "Jn", "n" or "Mm.w.d" with "/time"). */
typedef struct cmd_tz_rule {
  char kind;     /* 'J' (1..365, no Feb 29), 'D' (0..365), 'M' (month.week.day) */
  int day;       /* J/D: day number; M: weekday 0..6 */
  int week;      /* M: 1..5 (5 = last) */
  int month;     /* M: 1..12 */
  int32_t secs;  /* local time of the transition, seconds after midnight */
} cmd_tz_rule;

typedef struct cmd_tz {
  char std_name[16];  /* abbreviation of standard time ("EST") */
  char dst_name[16];  /* abbreviation of daylight time, "" when none */
  int32_t std_off;    /* seconds east of UTC in standard time */
  int32_t dst_off;    /* seconds east of UTC in daylight time */
  bool has_dst;       /* dst_name and rules are valid */
  cmd_tz_rule start, end; /* DST starts / ends */
} cmd_tz;

/* Parses a TZ value (NULL or "" = UTC). Never fails: junk gives UTC with the
 * leading letters as name, like glibc. */
void cmd_tz_parse(const char *tzstr, cmd_tz *tz);
/* The zone from ctx's environment (TZ). */
void cmd_tz_from_env(cmd_ctx *ctx, cmd_tz *tz);

/* Broken-down time of `t` in `tz` (tm_gmtoff, tm_zone, tm_isdst set; tm_zone
 * points into tz). Years far outside +-2^31 are clamped. Returns false when
 * the year does not fit an int. */
bool cmd_time_local(const cmd_tz *tz, int64_t t, struct tm *tm);
/* Local broken-down time (normalized like mktime) to seconds. tm_isdst < 0:
 * let the rules decide. Updates *tm (normalized, wday/yday/gmtoff/zone).
 * Returns false on overflow. */
bool cmd_time_mk(const cmd_tz *tz, struct tm *tm, int64_t *out);
/* UTC broken-down time <-> seconds, for any int year. */
int64_t cmd_time_from_civil(int64_t y, int mon /*1..12*/, int d);
void cmd_time_to_civil(int64_t days, int64_t *y, int *mon, int *d);

/*
 * GNU strftime (gnulib nstrftime semantics): every conversion of GNU date
 * including %N (nsec), %s, %q, %:z %::z %:::z, the flags - _ 0 ^ # and
 * widths, E/O modifiers (ignored in the C locale). Unknown conversions are
 * copied as written. Output is appended to a growing malloc'd buffer: returns
 * the length written, or -1 when out of memory or beyond `max` bytes
 * (the caller passes ctx->max_string). *out must be freed by the caller.
 */
long cmd_strftime(char **out, size_t max, const char *fmt, const struct tm *tm,
                  int64_t t, long nsec);

/*
 * Parses a GNU date string (what `date -d`, `touch -d`, `find -newermt`
 * accept): "now", "today", "yesterday", "tomorrow", "@SECONDS[.frac]",
 * ISO 8601 ("2024-01-02", "2024-01-02T03:04:05.5Z", "2024-01-02 03:04+05:30"),
 * "01/02/2024", "Jan 2 2024", "2 January 2024", "Tue, 02 Jan 2024 03:04:05
 * +0000" (RFC 5322), date(1)'s default output, times ("3pm", "15:04:05",
 * "noon", "midnight"), zone words (UTC, GMT, Z, EST...), relative items
 * ("3 days ago", "+2 hours", "-1 week", "next monday", "last year",
 * "fortnight"), weekdays, and a leading TZ="..." setting. The base time is
 * (now, now_nsec) in `tz`. Returns 0 and sets *t and *nsec, or -EINVAL.
 */
int cmd_parse_date(const char *s, int64_t now, long now_nsec, const cmd_tz *tz,
                   int64_t *t, long *nsec);

/* Where `date --debug` wants gnulib's parse trace ("parsed date part: ...",
 * "input timezone: ...", "final: ..."): one "NAME: ..." line per step on
 * ctx's stderr. Borrowed pointers, valid during the call. */
typedef struct cmd_date_debug {
  cmd_ctx *ctx;      /* the trace goes to cmd_errorf(ctx) */
  const char *tzstr; /* the TZ value in effect ("UTC0" for date -u), NULL = unset */
} cmd_date_debug;

/* cmd_parse_date with a trace on dbg (NULL = none, same as cmd_parse_date).
 * The trace never changes the result. */
int cmd_parse_date_debug(const char *s, int64_t now, long now_nsec, const cmd_tz *tz,
                         const cmd_date_debug *dbg, int64_t *t, long *nsec);

#endif
