/*
 * datetime.c - time zones (POSIX TZ rules + a built-in zone table), civil
 * calendar arithmetic, GNU strftime, and GNU date-string parsing.
 *
 * Design decisions:
 *  - No libc time zone state: glibc's localtime/mktime read TZ and host
 *    zoneinfo files and keep process-global state, which would leak host
 *    files into the sandbox and race between sandboxes. Everything here is
 *    pure computation over a cmd_tz value parsed from the command's own TZ.
 *  - Calendar math is done on 64-bit day counts (Hinnant's civil-from-days),
 *    so any year representable in an int works, including negative epochs.
 *  - cmd_strftime follows gnulib's nstrftime rules for flags, widths and
 *    padding (the algorithm, written anew: digits are produced right to left,
 *    then sign and padding as gnulib does), because `date +FMT` output must
 *    match GNU byte for byte, including odd cases like "%-:z" or "%5".
 *  - cmd_parse_date is a hand-written parser over a token list implementing
 *    the items of gnulib's parse-datetime grammar that scripts use; it keeps
 *    GNU's evaluation order (absolute date/time in the zone, then relative
 *    years/months/days in local time, then relative h/m/s as elapsed time) and
 *    GNU's validation (an impossible date such as Feb 30 is an error).
 */
#include "cmd/lib/datetime.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

/* ---- civil calendar -------------------------------------------------------------- */

int64_t cmd_time_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void cmd_time_to_civil(int64_t z, int64_t *y, int *m, int *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

/* Fills the date/time fields of tm from seconds (UTC + offset applied). */
static bool tm_from_secs(int64_t t, struct tm *tm) {
  int64_t days = floordiv(t, 86400);
  int64_t rem = t - days * 86400;
  int64_t y;
  int m, d;
  cmd_time_to_civil(days, &y, &m, &d);
  if (y - 1900 > INT_MAX || y - 1900 < INT_MIN) return false;
  tm->tm_year = (int)(y - 1900);
  tm->tm_mon = m - 1;
  tm->tm_mday = d;
  tm->tm_hour = (int)(rem / 3600);
  tm->tm_min = (int)(rem / 60 % 60);
  tm->tm_sec = (int)(rem % 60);
  int64_t w = (days + 4) % 7; /* 1970-01-01 was a Thursday */
  if (w < 0) w += 7;
  tm->tm_wday = (int)w;
  tm->tm_yday = (int)(days - cmd_time_from_civil(y, 1, 1));
  return true;
}

/* ---- time zones -------------------------------------------------------------------- */

/* Reads a TZ name: alphabetic (>= 3), or <...> quoted. */
static const char *tz_name(const char *p, char *out, size_t outsz) {
  size_t n = 0;
  if (*p == '<') {
    p++;
    while (*p && *p != '>') {
      if (n + 1 < outsz) out[n++] = *p;
      p++;
    }
    if (*p != '>') return NULL;
    p++;
  } else {
    while (isalpha((unsigned char)*p)) {
      if (n + 1 < outsz) out[n++] = *p;
      p++;
    }
  }
  out[n] = 0;
  return n >= 1 ? p : NULL;
}

/* [+-]hh[:mm[:ss]] -> seconds (POSIX sign: positive = west). */
static const char *tz_offset(const char *p, int32_t *secs) {
  int sign = 1;
  if (*p == '+') p++;
  else if (*p == '-') {
    sign = -1;
    p++;
  }
  if (!isdigit((unsigned char)*p)) return NULL;
  int h = 0, m = 0, s = 0;
  while (isdigit((unsigned char)*p)) {
    h = h * 10 + (*p++ - '0');
    if (h > 167) return NULL;
  }
  if (*p == ':') {
    p++;
    if (!isdigit((unsigned char)*p)) return NULL;
    while (isdigit((unsigned char)*p)) {
      m = m * 10 + (*p++ - '0');
      if (m > 59) return NULL;
    }
    if (*p == ':') {
      p++;
      while (isdigit((unsigned char)*p)) {
        s = s * 10 + (*p++ - '0');
        if (s > 59) return NULL;
      }
    }
  }
  if (m > 59 || s > 59) return NULL;
  *secs = sign * (h * 3600 + m * 60 + s);
  return p;
}

static const char *tz_rule(const char *p, cmd_tz_rule *r) {
  memset(r, 0, sizeof *r);
  r->secs = 7200;
  if (*p == 'J') {
    p++;
    r->kind = 'J';
    if (!isdigit((unsigned char)*p)) return NULL;
    r->day = (int)strtol(p, (char **)&p, 10);
    if (r->day < 1 || r->day > 365) return NULL;
  } else if (*p == 'M') {
    p++;
    r->kind = 'M';
    char *e;
    r->month = (int)strtol(p, &e, 10);
    if (e == p || *e != '.') return NULL;
    p = e + 1;
    r->week = (int)strtol(p, &e, 10);
    if (e == p || *e != '.') return NULL;
    p = e + 1;
    r->day = (int)strtol(p, &e, 10);
    if (e == p) return NULL;
    p = e;
    if (r->month < 1 || r->month > 12 || r->week < 1 || r->week > 5 ||
        r->day < 0 || r->day > 6)
      return NULL;
  } else if (isdigit((unsigned char)*p)) {
    r->kind = 'D';
    r->day = (int)strtol(p, (char **)&p, 10);
    if (r->day > 365) return NULL;
  } else {
    return NULL;
  }
  if (*p == '/') {
    int32_t s;
    p = tz_offset(p + 1, &s);
    if (!p) return NULL;
    r->secs = s;
  }
  return p;
}

static bool tz_parse_posix(const char *p, cmd_tz *tz) {
  memset(tz, 0, sizeof *tz);
  p = tz_name(p, tz->std_name, sizeof tz->std_name);
  if (!p) return false;
  int32_t off;
  p = tz_offset(p, &off);
  if (!p) return false;
  tz->std_off = -off;
  if (!*p) return true;
  p = tz_name(p, tz->dst_name, sizeof tz->dst_name);
  if (!p) return false;
  tz->has_dst = true;
  tz->dst_off = tz->std_off + 3600;
  if (*p && *p != ',') {
    p = tz_offset(p, &off);
    if (!p) return false;
    tz->dst_off = -off;
  }
  if (!*p) {
    /* glibc's default rules (US) when none are given. */
    tz_rule("M3.2.0", &tz->start);
    tz_rule("M11.1.0", &tz->end);
    return true;
  }
  if (*p != ',') return false;
  p = tz_rule(p + 1, &tz->start);
  if (!p || *p != ',') return false;
  p = tz_rule(p + 1, &tz->end);
  return p && !*p;
}

static int zone_cmp(const void *a, const void *b) {
  return strcmp((const char *)a, ((const cmd_tz_zone *)b)->name);
}

void cmd_tz_parse(const char *s, cmd_tz *tz) {
  memset(tz, 0, sizeof *tz);
  strcpy(tz->std_name, "UTC");
  if (!s || !*s) return;
  if (*s == ':') s++;
  if (!*s) return;
  const cmd_tz_zone *z =
      bsearch(s, cmd_tz_zones, cmd_tz_nzones, sizeof *cmd_tz_zones, zone_cmp);
  if (z) s = z->rule;
  cmd_tz t;
  if (tz_parse_posix(s, &t)) {
    *tz = t;
    return;
  }
  /* glibc: an unusable TZ is UTC, named by its leading letters. */
  size_t n = 0;
  while (n + 1 < sizeof tz->std_name && isalpha((unsigned char)s[n])) n++;
  if (n >= 3 || n == strlen(s)) {
    memcpy(tz->std_name, s, n);
    tz->std_name[n] = 0;
    if (n == 0) strcpy(tz->std_name, "UTC");
  }
}

void cmd_tz_from_env(cmd_ctx *ctx, cmd_tz *tz) {
  cmd_tz_parse(cmd_getenv(ctx, "TZ"), tz);
}

/* Seconds from the start of year y (UTC midnight Jan 1) to the rule's day. */
static int64_t tz_rule_day(const cmd_tz_rule *r, int64_t y) {
  int64_t jan1 = cmd_time_from_civil(y, 1, 1);
  switch (r->kind) {
  case 'J': {
    int d = r->day - 1;
    if (is_leap(y) && r->day >= 60) d++;
    return jan1 + d;
  }
  case 'D':
    return jan1 + r->day;
  default: {
    int64_t first = cmd_time_from_civil(y, r->month, 1);
    int64_t wd = (first + 4) % 7;
    if (wd < 0) wd += 7;
    int64_t d = first + ((r->day - wd + 7) % 7) + 7 * (r->week - 1);
    static const int ml[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int len = ml[r->month - 1] + (r->month == 2 && is_leap(y));
    while (d >= first + len) d -= 7;
    return d;
  }
  }
}

/* Is UTC instant t in daylight time? */
static bool tz_is_dst(const cmd_tz *tz, int64_t t) {
  if (!tz->has_dst) return false;
  int64_t y;
  int m, d;
  cmd_time_to_civil(floordiv(t + tz->std_off, 86400), &y, &m, &d);
  int64_t start = tz_rule_day(&tz->start, y) * 86400 + tz->start.secs - tz->std_off;
  int64_t end = tz_rule_day(&tz->end, y) * 86400 + tz->end.secs - tz->dst_off;
  if (start < end) return t >= start && t < end;
  return !(t >= end && t < start);
}

bool cmd_time_local(const cmd_tz *tz, int64_t t, struct tm *tm) {
  memset(tm, 0, sizeof *tm);
  bool dst = tz_is_dst(tz, t);
  int32_t off = dst ? tz->dst_off : tz->std_off;
  if ((t > 0 && t > INT64_MAX - 86400) || (t < 0 && t < INT64_MIN + 86400))
    return false;
  if (!tm_from_secs(t + off, tm)) return false;
  tm->tm_isdst = dst;
  tm->tm_gmtoff = off;
  tm->tm_zone = dst ? tz->dst_name : tz->std_name;
  return true;
}

/* mktime with glibc's starting guess for the UTC offset (glibc keeps the offset
 * of its previous result; the first call starts from 0). */
static bool time_mk_guess(const cmd_tz *tz, struct tm *tm, int64_t guess0, int64_t *out) {
  /* Normalize fields with 64-bit arithmetic. */
  int64_t year = (int64_t)tm->tm_year + 1900;
  int64_t mon = tm->tm_mon;
  year += floordiv(mon, 12);
  mon -= floordiv(mon, 12) * 12;
  if (year > (int64_t)INT_MAX + 1900 || year < (int64_t)INT_MIN + 1900) return false;
  int64_t days = cmd_time_from_civil(year, (int)mon + 1, 1) + (int64_t)tm->tm_mday - 1;
  int64_t secs = (int64_t)tm->tm_hour * 3600 + (int64_t)tm->tm_min * 60 + tm->tm_sec;
  if (days > INT64_MAX / 86400 - 1 || days < INT64_MIN / 86400 + 1) return false;
  int64_t local = days * 86400 + secs;
  int64_t t;
  if (!tz->has_dst) {
    t = local - tz->std_off;
  } else {
    if (tm->tm_isdst >= 0) {
      /* glibc: an explicit isdst is taken at its word */
      t = local - (tm->tm_isdst > 0 ? tz->dst_off : tz->std_off);
    } else {
      /* glibc/gnulib mktime: start from offset 0 and follow the offset found
       * at each guess; this decides ambiguous and skipped local times the
       * same way GNU tools do. */
      int64_t guess = guess0;
      t = local;
      for (int k = 0; k < 6; k++) {
        t = local - guess;
        int64_t off = tz_is_dst(tz, t) ? tz->dst_off : tz->std_off;
        if (off == guess) break;
        guess = off;
      }
    }
  }
  if (!cmd_time_local(tz, t, tm)) return false;
  *out = t;
  return true;
}

bool cmd_time_mk(const cmd_tz *tz, struct tm *tm, int64_t *out) {
  return time_mk_guess(tz, tm, 0, out);
}

/* ---- strftime ---------------------------------------------------------------------- */

static void sb_fill(cmd_buf *b, char c, size_t n) {
  char tmp[64];
  memset(tmp, c, sizeof tmp);
  while (n > 0) {
    size_t k = n < sizeof tmp ? n : sizeof tmp;
    cmd_buf_put(b, tmp, k);
    n -= k;
    if (b->err) return;
  }
}

/* Pads to `width` (pad '-' none, '0'/'+' zeros, else spaces) then copies. */
static void sb_pad_copy(cmd_buf *b, char pad, long width, const char *s, size_t n) {
  if (pad != '-' && width > 0 && (size_t)width > n)
    sb_fill(b, (pad == '0' || pad == '+') ? '0' : ' ', (size_t)width - n);
  cmd_buf_put(b, s, n);
}

static const char *const wday_name[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};
static const char *const mon_name[] = {"January", "February", "March", "April",
                                       "May", "June", "July", "August",
                                       "September", "October", "November",
                                       "December"};

/* ISO 8601 week-based year and week number. */
static void iso_week(const struct tm *tm, int64_t *iso_year, int *week) {
  int64_t year = (int64_t)tm->tm_year + 1900;
  int yday = tm->tm_yday, wday = tm->tm_wday;
  /* days since the Monday of week 1 */
  int wd = (wday + 6) % 7; /* Monday = 0 */
  int w = (yday - wd + 10) / 7;
  if (w < 1) {
    year--;
    int pyday = yday + (is_leap(year) ? 366 : 365);
    w = (pyday - wd + 10) / 7;
  } else {
    int ylen = is_leap(year) ? 366 : 365;
    if (w == 53 && (yday - wd + 3) >= ylen) {
      /* Thursday of this week falls in the next year */
      year++;
      w = 1;
    }
  }
  *iso_year = year;
  *week = w;
}

static void sf_case(char *s, size_t n, bool up, bool low) {
  for (size_t i = 0; i < n; i++) {
    if (low) s[i] = (char)tolower((unsigned char)s[i]);
    else if (up) s[i] = (char)toupper((unsigned char)s[i]);
  }
}

/* A conversion that prints one non-negative field of the broken-down time. */
typedef struct sf_field {
  uint64_t value; /* what is printed */
  int digits;     /* the width when the format gives none */
  char pad;       /* the pad when the format gives none: '_' or 0 (zeros) */
} sf_field;

/* The field of %d %e %H %k %I %l %j %m %M %S %q %u %w %U %W (sf_run's plain
 * numbers), from tm; any other conversion is not asked for. */
static sf_field sf_tm_field(const struct tm *tm, char conv) {
  int hour12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
  int monday_week = (tm->tm_yday - (tm->tm_wday - 1 + 7) % 7 + 7) / 7;
  switch (conv) {
  case 'd': return (sf_field){(uint64_t)tm->tm_mday, 2, 0};
  case 'e': return (sf_field){(uint64_t)tm->tm_mday, 2, '_'};
  case 'H': return (sf_field){(uint64_t)tm->tm_hour, 2, 0};
  case 'k': return (sf_field){(uint64_t)tm->tm_hour, 2, '_'};
  case 'I': return (sf_field){(uint64_t)hour12, 2, 0};
  case 'l': return (sf_field){(uint64_t)hour12, 2, '_'};
  case 'j': return (sf_field){(uint64_t)tm->tm_yday + 1, 3, 0};
  case 'm': return (sf_field){(uint64_t)tm->tm_mon + 1, 2, 0};
  case 'M': return (sf_field){(uint64_t)tm->tm_min, 2, 0};
  case 'S': return (sf_field){(uint64_t)tm->tm_sec, 2, 0};
  case 'q': return (sf_field){(uint64_t)(tm->tm_mon / 3 + 1), 1, 0};
  case 'u': return (sf_field){(uint64_t)((tm->tm_wday + 6) % 7 + 1), 1, 0};
  case 'w': return (sf_field){(uint64_t)tm->tm_wday, 1, 0};
  case 'U': return (sf_field){(uint64_t)((tm->tm_yday - tm->tm_wday + 7) / 7), 2, 0};
  case 'W': return (sf_field){(uint64_t)monday_week, 2, 0};
  }
  return (sf_field){0, 1, 0};
}

static void sf_run(cmd_buf *b, const char *fmt, const struct tm *tm, int64_t t,
                   long nsec, bool upcase_all, int depth);

/* Formats a number gnulib-style: digits right to left (with colons where the
 * mask says), then sign and padding. */
static void sf_number(cmd_buf *b, char pad, long width, int digits, bool negative,
                      uint64_t u, unsigned colon_mask, bool always_sign) {
  char buf[64];
  char *bp = buf + sizeof buf;
  do {
    if (colon_mask & 1) *--bp = ':';
    colon_mask >>= 1;
    *--bp = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0 || colon_mask != 0);
  if (pad == 0) pad = '0';
  if (width < 0) width = digits;
  char sign = negative ? '-' : always_sign ? '+' : 0;
  long numlen = (long)(buf + sizeof buf - bp);
  long shortage = width - (sign ? 1 : 0) - numlen;
  long padding = (pad == '-' || shortage <= 0) ? 0 : shortage;
  if (sign) {
    if (pad == '_') {
      sb_fill(b, ' ', (size_t)padding);
      width -= padding;
    }
    cmd_buf_put(b, &sign, 1);
    width--;
  }
  sb_pad_copy(b, pad, width, bp, (size_t)numlen);
}

static void sf_run(cmd_buf *b, const char *fmt, const struct tm *tm, int64_t t,
                   long nsec, bool upcase_all, int depth) {
  for (const char *f = fmt; *f && !b->err; f++) {
    if (*f != '%') {
      const char *e = strchr(f, '%');
      size_t n = e ? (size_t)(e - f) : strlen(f);
      if (upcase_all) {
        char tmp[256];
        while (n > 0) {
          size_t k = n < sizeof tmp ? n : sizeof tmp;
          memcpy(tmp, f, k);
          sf_case(tmp, k, true, false);
          cmd_buf_put(b, tmp, k);
          f += k;
          n -= k;
        }
        f--;
      } else {
        cmd_buf_put(b, f, n);
        f += n - 1;
      }
      continue;
    }
    const char *pct = f;
    char pad = 0;
    bool upcase = upcase_all, change_case = false;
    for (;;) {
      char c = *++f;
      if (c == '_' || c == '-' || c == '0' || c == '+') pad = c;
      else if (c == '^') upcase = true;
      else if (c == '#') change_case = true;
      else break;
    }
    long width = -1;
    if (isdigit((unsigned char)*f)) {
      width = 0;
      while (isdigit((unsigned char)*f)) {
        if (width < 100000) width = width * 10 + (*f - '0');
        f++;
      }
      if (width > 100000) width = 100000;
    }
    char modifier = 0;
    if (*f == 'E' || *f == 'O') modifier = *f++;
    int colons = 0;
    const char *cstart = f;
    while (*f == ':' && colons < 4) {
      colons++;
      f++;
    }
    if (colons && *f != 'z') {
      f = cstart;
      colons = 0;
      goto bad;
    }
    char tmp[128];
    int64_t year = (int64_t)tm->tm_year + 1900;
    /* the conversions gnulib rejects with each modifier */
    if ((modifier == 'E' && *f && strchr("dDeFgGHIjklmMSUVwWN", *f)) ||
        (modifier == 'O' && *f && strchr("aAcqxXYDF", *f)))
      goto bad;
    switch (*f) {
    case '%':
      if (modifier) goto bad;
      sb_pad_copy(b, pad, width, "%", 1);
      break;
    case 'n':
      sb_pad_copy(b, pad, width, "\n", 1);
      break;
    case 't':
      sb_pad_copy(b, pad, width, "\t", 1);
      break;
    case 'a':
    case 'A':
    case 'b':
    case 'h':
    case 'B': {
      if (modifier == 'E') goto bad;
      const char *name;
      size_t n;
      if (*f == 'a' || *f == 'A') {
        name = (tm->tm_wday >= 0 && tm->tm_wday < 7) ? wday_name[tm->tm_wday] : "?";
        n = *f == 'a' ? 3 : strlen(name);
      } else {
        name = (tm->tm_mon >= 0 && tm->tm_mon < 12) ? mon_name[tm->tm_mon] : "?";
        n = *f == 'B' ? strlen(name) : 3;
      }
      if (n > strlen(name)) n = strlen(name);
      memcpy(tmp, name, n);
      sf_case(tmp, n, upcase || change_case, false);
      sb_pad_copy(b, pad, width, tmp, n);
      break;
    }
    case 'p':
    case 'P': {
      bool low = *f == 'P' || change_case;
      memcpy(tmp, tm->tm_hour >= 12 ? "PM" : "AM", 2);
      sf_case(tmp, 2, upcase && !low, low);
      sb_pad_copy(b, pad, width, tmp, 2);
      break;
    }
    case 'c':
    case 'D':
    case 'F':
    case 'r':
    case 'R':
    case 'T':
    case 'x':
    case 'X': {
      const char *sub;
      switch (*f) {
      case 'c': sub = "%a %b %e %H:%M:%S %Y"; break;
      case 'D': case 'x': sub = "%m/%d/%y"; break;
      case 'F': sub = "%Y-%m-%d"; break;
      case 'r': sub = "%I:%M:%S %p"; break;
      case 'R': sub = "%H:%M"; break;
      default: sub = "%H:%M:%S"; break;
      }
      if (depth > 2) break;
      cmd_buf sub_b = {.max = b->max};
      sf_run(&sub_b, sub, tm, t, nsec, upcase, depth + 1);
      if (sub_b.err) {
        free(sub_b.p);
        b->err = sub_b.err;
        break;
      }
      sb_pad_copy(b, pad, width, sub_b.p ? sub_b.p : "", sub_b.len);
      free(sub_b.p);
      break;
    }
    case 'C': {
      int64_t c = floordiv(year, 100);
      sf_number(b, pad, width, 2, c < 0, (uint64_t)(c < 0 ? -c : c), 0, false);
      break;
    }
    case 'y': {
      int64_t y = year % 100;
      if (y < 0) y += 100;
      sf_number(b, pad, width, 2, false, (uint64_t)y, 0, false);
      break;
    }
    case 'Y':
      sf_number(b, pad, width, 4, year < 0, (uint64_t)(year < 0 ? -year : year), 0,
                pad == '+' && (year > 9999 || width > 4));
      break;
    case 'G':
    case 'g':
    case 'V': {
      int64_t iy;
      int wk;
      iso_week(tm, &iy, &wk);
      if (*f == 'V') sf_number(b, pad, width, 2, false, (uint64_t)wk, 0, false);
      else if (*f == 'G')
        sf_number(b, pad, width, 4, iy < 0, (uint64_t)(iy < 0 ? -iy : iy), 0, false);
      else {
        int64_t y2 = iy % 100;
        if (y2 < 0) y2 += 100;
        sf_number(b, pad, width, 2, false, (uint64_t)y2, 0, false);
      }
      break;
    }
    case 'd': case 'e': case 'H': case 'k': case 'I': case 'l': case 'j': case 'm':
    case 'M': case 'S': case 'q': case 'u': case 'w': case 'U': case 'W': {
      sf_field field = sf_tm_field(tm, *f);
      char field_pad = pad ? pad : field.pad;
      sf_number(b, field_pad, width, field.digits, false, field.value, 0, false);
      break;
    }
    case 's':
      sf_number(b, pad, width, 1, t < 0,
                t < 0 ? (uint64_t)0 - (uint64_t)t : (uint64_t)t, 0, false);
      break;
    case 'N': {
      if (modifier == 'E') goto bad;
      /* GNU date 9.1: the width is a precision (truncating); '_' and an
       * explicit width with '-' also drop trailing zeros; '_' pads with
       * spaces, no flag with zeros, '-' not at all. */
      long n = nsec;
      if (n < 0 || n > 999999999) n = 0;
      bool explicit_w = width > 0;
      if (width <= 0) width = 9;
      int ndigs = 9;
      while (width < ndigs) {
        ndigs--;
        n /= 10;
      }
      if (pad == '_' || (pad == '-' && explicit_w))
        while (ndigs > 1 && n % 10 == 0) {
          ndigs--;
          n /= 10;
        }
      for (int j = ndigs; j > 0; j--) {
        tmp[j - 1] = (char)('0' + n % 10);
        n /= 10;
      }
      cmd_buf_put(b, tmp, (size_t)ndigs);
      if (pad != '-' && width > ndigs)
        sb_fill(b, pad == '_' ? ' ' : '0', (size_t)(width - ndigs));
      break;
    }
    case 'z': {
      long diff = tm->tm_gmtoff;
      bool neg = diff < 0;
      long a = neg ? -diff : diff;
      long hh = a / 3600, mm = a / 60 % 60, ss = a % 60;
      switch (colons) {
      case 0:
        sf_number(b, pad, width, 5, neg, (uint64_t)(hh * 100 + mm), 0, true);
        break;
      case 1:
      hh_mm:
        sf_number(b, pad, width, 6, neg, (uint64_t)(hh * 100 + mm), 04, true);
        break;
      case 2:
      hh_mm_ss:
        sf_number(b, pad, width, 9, neg, (uint64_t)(hh * 10000 + mm * 100 + ss), 024,
                  true);
        break;
      case 3:
        if (ss) goto hh_mm_ss;
        if (mm) goto hh_mm;
        sf_number(b, pad, width, 3, neg, (uint64_t)hh, 0, true);
        break;
      default:
        goto bad;
      }
      break;
    }
    case 'Z': {
      const char *z = tm->tm_zone ? tm->tm_zone : "";
      size_t n = strlen(z);
      if (n > sizeof tmp) n = sizeof tmp;
      memcpy(tmp, z, n);
      sf_case(tmp, n, upcase && !change_case, change_case);
      sb_pad_copy(b, pad, width, tmp, n);
      break;
    }
    case 0:
      f--;
      /* fall through */
    default:
    bad: {
      size_t flen = (size_t)(f - pct) + 1;
      if (!*f) flen = (size_t)(f - pct);
      sb_pad_copy(b, pad, width, pct, flen);
      if (!*f) f--;
      break;
    }
    }
  }
}

long cmd_strftime(char **out, size_t max, const char *fmt, const struct tm *tm,
                  int64_t t, long nsec) {
  cmd_buf b = {.max = max};
  cmd_buf_put(&b, "", 0);
  sf_run(&b, fmt, tm, t, nsec, false, 0);
  if (b.err) {
    free(b.p);
    *out = NULL;
    return -1;
  }
  *out = b.p;
  return (long)b.len;
}

/* ---- date-string parsing --------------------------------------------------------- */

enum tok_kind {
  T_END,
  T_NUM,    /* unsigned number (value, digits, maybe fraction) */
  T_SNUM,   /* signed number */
  T_WORD,   /* classified word */
  T_CHAR,   /* punctuation */
};

enum word_kind {
  W_MONTH = 1, W_DAY, W_UNIT, W_ORDINAL, W_AGO, W_DAYSHIFT, W_MERID, W_ZONE,
  W_DAYZONE, W_DST, W_T, W_LOCALZONE
};

/* One token of a date string. */
typedef struct dtok {
  int kind;        /* enum tok_kind */
  int64_t val;     /* number value (signed for T_SNUM), word value */
  int digits;      /* digits of a number */
  bool frac;       /* a fraction followed ("5.25") */
  long nsec;       /* its value in nanoseconds */
  int wkind;       /* enum word_kind for T_WORD */
  int64_t unit;    /* W_UNIT: 0 year, 1 month, 2 day-multiple (val days),
                      3 seconds-multiple (val seconds) */
  char ch;         /* T_CHAR */
  bool dst;        /* zone: is daylight */
} dtok;

/* One word of the date-string vocabulary. */
typedef struct dword {
  const char *name; /* lowercase */
  int kind;         /* enum word_kind */
  int64_t val;      /* month 1-12, weekday 0-6, ordinal, zone offset (s east)... */
  int unit;         /* W_UNIT: 0 year, 1 month, 2 days, 3 seconds */
} dword;

static const dword dwords[] = {
    {"january", W_MONTH, 1, 0}, {"february", W_MONTH, 2, 0},
    {"march", W_MONTH, 3, 0},   {"april", W_MONTH, 4, 0},
    {"may", W_MONTH, 5, 0},     {"june", W_MONTH, 6, 0},
    {"july", W_MONTH, 7, 0},    {"august", W_MONTH, 8, 0},
    {"september", W_MONTH, 9, 0}, {"sept", W_MONTH, 9, 0},
    {"october", W_MONTH, 10, 0}, {"november", W_MONTH, 11, 0},
    {"december", W_MONTH, 12, 0},
    {"sunday", W_DAY, 0, 0},    {"monday", W_DAY, 1, 0},
    {"tuesday", W_DAY, 2, 0},   {"tues", W_DAY, 2, 0},
    {"wednesday", W_DAY, 3, 0}, {"wednes", W_DAY, 3, 0},
    {"thursday", W_DAY, 4, 0},  {"thur", W_DAY, 4, 0},  {"thurs", W_DAY, 4, 0},
    {"friday", W_DAY, 5, 0},    {"saturday", W_DAY, 6, 0},
    {"year", W_UNIT, 1, 0},     {"month", W_UNIT, 1, 1},
    {"fortnight", W_UNIT, 14, 2}, {"week", W_UNIT, 7, 2},
    {"day", W_UNIT, 1, 2},      {"hour", W_UNIT, 3600, 3},
    {"minute", W_UNIT, 60, 3},  {"min", W_UNIT, 60, 3},
    {"second", W_UNIT, 1, 3},   {"sec", W_UNIT, 1, 3},
    {"tomorrow", W_DAYSHIFT, 1, 0}, {"yesterday", W_DAYSHIFT, -1, 0},
    {"today", W_DAYSHIFT, 0, 0}, {"now", W_DAYSHIFT, 0, 0},
    {"last", W_ORDINAL, -1, 0}, {"this", W_ORDINAL, 0, 0},
    {"next", W_ORDINAL, 1, 0},  {"first", W_ORDINAL, 1, 0},
    {"third", W_ORDINAL, 3, 0}, {"fourth", W_ORDINAL, 4, 0},
    {"fifth", W_ORDINAL, 5, 0}, {"sixth", W_ORDINAL, 6, 0},
    {"seventh", W_ORDINAL, 7, 0}, {"eighth", W_ORDINAL, 8, 0},
    {"ninth", W_ORDINAL, 9, 0}, {"tenth", W_ORDINAL, 10, 0},
    {"eleventh", W_ORDINAL, 11, 0}, {"twelfth", W_ORDINAL, 12, 0},
    {"ago", W_AGO, 0, 0},
    {"am", W_MERID, 0, 0},      {"a.m.", W_MERID, 0, 0},
    {"pm", W_MERID, 1, 0},      {"p.m.", W_MERID, 1, 0},
    {"dst", W_DST, 0, 0},
    {"gmt", W_ZONE, 0, 0},      {"ut", W_ZONE, 0, 0},      {"utc", W_ZONE, 0, 0},
    {"wet", W_ZONE, 0, 0},      {"west", W_DAYZONE, 0, 0},
    {"bst", W_DAYZONE, 0, 0},   {"art", W_ZONE, -3 * 3600, 0},
    {"brt", W_ZONE, -3 * 3600, 0}, {"brst", W_DAYZONE, -3 * 3600, 0},
    {"nst", W_ZONE, -(3 * 3600 + 1800), 0}, {"ndt", W_DAYZONE, -(3 * 3600 + 1800), 0},
    {"ast", W_ZONE, -4 * 3600, 0}, {"adt", W_DAYZONE, -4 * 3600, 0},
    {"clt", W_ZONE, -4 * 3600, 0}, {"clst", W_DAYZONE, -4 * 3600, 0},
    {"est", W_ZONE, -5 * 3600, 0}, {"edt", W_DAYZONE, -5 * 3600, 0},
    {"cst", W_ZONE, -6 * 3600, 0}, {"cdt", W_DAYZONE, -6 * 3600, 0},
    {"mst", W_ZONE, -7 * 3600, 0}, {"mdt", W_DAYZONE, -7 * 3600, 0},
    {"pst", W_ZONE, -8 * 3600, 0}, {"pdt", W_DAYZONE, -8 * 3600, 0},
    {"akst", W_ZONE, -9 * 3600, 0}, {"akdt", W_DAYZONE, -9 * 3600, 0},
    {"hst", W_ZONE, -10 * 3600, 0}, {"hast", W_ZONE, -10 * 3600, 0},
    {"hadt", W_DAYZONE, -10 * 3600, 0}, {"sst", W_ZONE, -12 * 3600, 0},
    {"wat", W_ZONE, 1 * 3600, 0},  {"cet", W_ZONE, 1 * 3600, 0},
    {"cest", W_DAYZONE, 1 * 3600, 0}, {"met", W_ZONE, 1 * 3600, 0},
    {"mez", W_ZONE, 1 * 3600, 0},  {"mest", W_DAYZONE, 1 * 3600, 0},
    {"mesz", W_DAYZONE, 1 * 3600, 0}, {"eet", W_ZONE, 2 * 3600, 0},
    {"eest", W_DAYZONE, 2 * 3600, 0}, {"cat", W_ZONE, 2 * 3600, 0},
    {"sast", W_ZONE, 2 * 3600, 0}, {"eat", W_ZONE, 3 * 3600, 0},
    {"msk", W_ZONE, 3 * 3600, 0},  {"msd", W_DAYZONE, 3 * 3600, 0},
    {"ist", W_ZONE, (5 * 3600 + 1800), 0}, {"sgt", W_ZONE, 8 * 3600, 0},
    {"kst", W_ZONE, 9 * 3600, 0},  {"jst", W_ZONE, 9 * 3600, 0},
    {"gst", W_ZONE, 10 * 3600, 0}, {"nzst", W_ZONE, 12 * 3600, 0},
    {"nzdt", W_DAYZONE, 12 * 3600, 0},
};

/* Military single-letter zones (a-z without j), offset in hours east. */
static bool military_zone(char c, int *hours) {
  c = (char)tolower((unsigned char)c);
  if (c == 'z') { *hours = 0; return true; }
  if (c >= 'a' && c <= 'i') { *hours = c - 'a' + 1; return true; }
  if (c >= 'k' && c <= 'm') { *hours = c - 'k' + 10; return true; }
  if (c >= 'n' && c <= 'y') { *hours = -(c - 'n' + 1); return true; }
  return false;
}

#define DATE_MAX_TOKENS 128

/* Classifies a lowercase word into *t; false when unknown. */
static bool classify_word(const char *w, size_t n, const cmd_tz *tz, dtok *t) {
  char buf[32];
  if (n >= sizeof buf) return false;
  memcpy(buf, w, n);
  buf[n] = 0;
  t->kind = T_WORD;
  if (n == 1 && buf[0] == 't') {
    t->wkind = W_T;
    return true;
  }
  /* the local zone's own abbreviations (after the universal ones) */
  bool universal = strcmp(buf, "utc") == 0 || strcmp(buf, "gmt") == 0 || strcmp(buf, "ut") == 0;
  if (!universal && tz->std_name[0] && strcasecmp(buf, tz->std_name) == 0) {
    t->wkind = W_LOCALZONE;
    t->dst = false;
    return true;
  }
  if (!universal && tz->has_dst && strcasecmp(buf, tz->dst_name) == 0) {
    t->wkind = W_LOCALZONE;
    t->dst = true;
    return true;
  }
  for (int pass = 0; pass < 3; pass++) {
    char cand[32];
    strcpy(cand, buf);
    size_t cl = n;
    if (pass == 1) { /* plural units: "days" */
      if (cl < 2 || cand[cl - 1] != 's') continue;
      cand[--cl] = 0;
    } else if (pass == 2) { /* abbreviation with a dot: "sun.", "jan." */
      if (cl < 2 || cand[cl - 1] != '.') continue;
      cand[--cl] = 0;
    }
    for (size_t i = 0; i < sizeof dwords / sizeof dwords[0]; i++) {
      const dword *d = &dwords[i];
      bool match = strcmp(d->name, cand) == 0;
      if (pass == 1 && d->kind != W_UNIT) match = false;
      /* three-letter abbreviations of months and days */
      if (!match && (d->kind == W_MONTH || d->kind == W_DAY) && cl == 3 &&
          strncmp(d->name, cand, 3) == 0)
        match = true;
      if (match) {
        t->wkind = d->kind;
        t->val = d->val;
        t->unit = d->unit;
        t->dst = d->kind == W_DAYZONE;
        if (d->kind == W_DAYZONE) {
          t->wkind = W_ZONE;
          t->val += 3600;
        }
        return true;
      }
    }
  }
  int h;
  if (n == 1 && military_zone(buf[0], &h)) {
    t->wkind = W_ZONE;
    t->val = (int64_t)h * 3600;
    return true;
  }
  return false;
}

/* Splits s into tokens; false on an unknown word (*unknown = its start) or
 * too many tokens. */
static bool date_lex(const char *s, const cmd_tz *tz, dtok *toks, int *ntok,
                     const char **unknown) {
  int n = 0;
  const char *p = s;
  for (;;) {
    while (isspace((unsigned char)*p)) p++;
    if (n >= DATE_MAX_TOKENS - 1) return false;
    dtok *t = &toks[n];
    memset(t, 0, sizeof *t);
    if (!*p) {
      t->kind = T_END;
      *ntok = n;
      return true;
    }
    if (*p == '(') { /* comments, nested */
      int depth = 0;
      do {
        if (*p == '(') depth++;
        else if (*p == ')') depth--;
        if (!*p) return false;
        p++;
      } while (depth > 0);
      continue;
    }
    int sign = 0;
    if (*p == '+' || *p == '-') {
      const char *q = p + 1;
      while (isspace((unsigned char)*q)) q++;
      if (isdigit((unsigned char)*q)) {
        sign = *p == '-' ? -1 : 1;
        p = q;
      }
    }
    if (isdigit((unsigned char)*p)) {
      uint64_t v = 0;
      int digits = 0;
      while (isdigit((unsigned char)*p)) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(*p - '0');
        digits++;
        p++;
      }
      if (v > INT64_MAX / 2) return false;
      t->kind = sign ? T_SNUM : T_NUM;
      t->val = sign < 0 ? -(int64_t)v : (int64_t)v;
      t->digits = digits;
      if ((*p == '.' || *p == ',') && isdigit((unsigned char)p[1])) {
        p++;
        long ns = 0;
        int k = 0;
        while (isdigit((unsigned char)*p)) {
          if (k < 9) ns = ns * 10 + (*p - '0');
          k++;
          p++;
        }
        for (; k < 9; k++) ns *= 10;
        t->frac = true;
        t->nsec = ns;
      }
      n++;
      continue;
    }
    if (isalpha((unsigned char)*p)) {
      const char *w0 = p;
      char w[32];
      size_t wl = 0;
      while (isalpha((unsigned char)*p) || *p == '.') {
        if (wl + 1 < sizeof w) w[wl++] = (char)tolower((unsigned char)*p);
        else return false;
        p++;
      }
      w[wl] = 0;
      if (!classify_word(w, wl, tz, t)) {
        *unknown = w0;
        return false;
      }
      n++;
      continue;
    }
    t->kind = T_CHAR;
    t->ch = *p++;
    n++;
  }
}

/* Everything the items said. */
typedef struct dstate {
  bool has_date, has_year; int64_t year; int year_digits; int mon, mday;
  int dates_seen, times_seen, days_seen, zones_seen, local_zones_seen;
  int hour, min, sec; long nsec; int merid; /* -1 none, 0 am, 1 pm */
  bool has_zone; int64_t zone; /* seconds east */
  int local_isdst;             /* -1 unknown */
  int day_ordinal, day_number;
  int64_t rel_year, rel_month, rel_day, rel_sec; long rel_nsec;
  bool rels_seen;
  bool has_timespec; int64_t ts; long ts_nsec;
  /* --debug only (never read by the evaluation): */
  const cmd_date_debug *dbg;   /* trace sink, NULL = no trace */
  int64_t year_now;            /* GNU prints the current year for a date without one */
  bool year_seen;              /* a bare number gave the year */
  bool ordinal_seen;           /* the weekday had an ordinal ("next monday") */
  int64_t rel_h, rel_m, rel_s; /* rel_sec split as GNU keeps it (hours, minutes, seconds) */
  bool pr_dates, pr_year, pr_times, pr_days, pr_lzones, pr_zones; /* already printed */
  bool datetime_pending;       /* ISO date + 'T': printed with its time as "datetime" */
  bool hybrid_pending;         /* "YYYYMMDD +N unit": printed as "hybrid" */
} dstate;

/* ---- --debug trace (gnulib parse-datetime's messages) ------------------------------ */

/* One trace line "NAME: <fmt>" (bounded; longer lines are cut). */
__attribute__((format(printf, 2, 3)))
static void dbg_line(const cmd_date_debug *g, const char *fmt, ...) {
  if (!g) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cmd_errorf(g->ctx, "%s", buf);
}

/* Bounded appender for a line built piece by piece. */
typedef struct dbuf {
  char b[384]; /* the text, always NUL-terminated */
  size_t n;    /* its length */
} dbuf;

__attribute__((format(printf, 2, 3)))
static void dbuf_add(dbuf *b, const char *fmt, ...) {
  if (b->n + 1 >= sizeof b->b) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->b + b->n, sizeof b->b - b->n, fmt, ap);
  va_end(ap);
  if (k > 0) b->n += (size_t)k;
  if (b->n >= sizeof b->b) b->n = sizeof b->b - 1;
}

/* gnulib time_zone_str: "+05", "-03:30", "+00:00:30". */
static const char *dbg_zone_str(int64_t z, char buf[24]) {
  int64_t a = z < 0 ? -z : z;
  int n = snprintf(buf, 24, "%c%02lld", z < 0 ? '-' : '+', (long long)(a / 3600));
  if (a % 3600) {
    int mm = (int)(a % 3600 / 60), ss = (int)(a % 60);
    n += snprintf(buf + n, (size_t)(24 - n), ":%02d", mm);
    if (ss) snprintf(buf + n, (size_t)(24 - n), ":%02d", ss);
  }
  return buf;
}

/* gnulib str_days: "next/first Mon", "Tue", "third Fri". */
static const char *dbg_days(const dstate *d, char buf[48]) {
  static const char ord[][11] = {"last", "this", "next/first", "(SECOND)", "third", "fourth",
                                 "fifth", "sixth", "seventh", "eight", "ninth", "tenth",
                                 "eleventh", "twelfth"};
  static const char days[][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  int n = 0;
  buf[0] = 0;
  if (d->ordinal_seen) {
    if (d->day_ordinal >= -1 && d->day_ordinal <= 12)
      n = snprintf(buf, 48, "%s", ord[d->day_ordinal + 1]);
    else
      n = snprintf(buf, 48, "%d", d->day_ordinal);
  }
  if (d->day_number >= 0 && d->day_number <= 6)
    snprintf(buf + n, (size_t)(48 - n), "%s%s", n ? " " : "", days[d->day_number]);
  return buf;
}

/* gnulib debug_print_current_time: "parsed LABEL part: " + what is new. */
static void dbg_current(dstate *d, const char *label) {
  if (!d->dbg) return;
  dbuf b = {.n = 0};
  b.b[0] = 0;
  bool space = false;
  if (d->dates_seen && !d->pr_dates) {
    dbuf_add(&b, "(Y-M-D) %04lld-%02d-%02d",
             (long long)(d->has_year && !d->year_seen ? d->year : d->year_now), d->mon, d->mday);
    d->pr_dates = space = true;
  }
  if (d->year_seen != d->pr_year) {
    dbuf_add(&b, "%syear: %04lld", space ? " " : "", (long long)d->year);
    d->pr_year = d->year_seen;
    space = true;
  }
  if (d->times_seen && !d->pr_times) {
    dbuf_add(&b, "%s%02d:%02d:%02d", space ? " " : "", d->hour, d->min, d->sec);
    if (d->nsec) dbuf_add(&b, ".%09ld", d->nsec);
    if (d->merid == 1) dbuf_add(&b, "pm");
    d->pr_times = space = true;
  }
  if (d->days_seen && !d->pr_days) {
    char db[48];
    dbuf_add(&b, "%s%s (day ordinal=%d number=%d)", space ? " " : "", dbg_days(d, db),
             d->day_ordinal, d->day_number);
    d->pr_days = space = true;
  }
  if (d->local_zones_seen && !d->pr_lzones) {
    dbuf_add(&b, "%sisdst=%d", space ? " " : "", d->local_isdst);
    d->pr_lzones = space = true;
  }
  if (d->zones_seen && !d->pr_zones) {
    char zb[24];
    dbuf_add(&b, "%sUTC%s", space ? " " : "", dbg_zone_str(d->zone, zb));
    d->pr_zones = space = true;
  }
  if (d->has_timespec)
    dbuf_add(&b, "%snumber of seconds: %lld", space ? " " : "", (long long)d->ts);
  dbg_line(d->dbg, "parsed %s part: %s", label, b.b);
}

/* gnulib debug_print_relative_time: the relative items so far. */
static void dbg_relative(dstate *d, const char *label) {
  if (!d->dbg) return;
  if (!d->rel_year && !d->rel_month && !d->rel_day && !d->rel_h && !d->rel_m && !d->rel_s) {
    dbg_line(d->dbg, "parsed %s part: today/this/now", label);
    return;
  }
  dbuf b = {.n = 0};
  b.b[0] = 0;
  const int64_t v[6] = {d->rel_year, d->rel_month, d->rel_day, d->rel_h, d->rel_m, d->rel_s};
  static const char *const names[6] = {"year(s)", "month(s)", "day(s)", "hour(s)", "minutes",
                                       "seconds"};
  for (int k = 0; k < 6; k++)
    if (v[k]) dbuf_add(&b, "%s%+lld %s", b.n ? " " : "", (long long)v[k], names[k]);
  dbg_line(d->dbg, "parsed %s part: %s", label, b.b);
}

static bool rel_add(dstate *d, int64_t n, const dtok *unit) {
  d->rels_seen = true;
  int64_t m = unit->val;
  switch (unit->unit) {
  case 0:
    if (__builtin_mul_overflow(n, m, &m) || __builtin_add_overflow(d->rel_year, m, &d->rel_year))
      return false;
    return true;
  case 1:
    if (__builtin_mul_overflow(n, m, &m) || __builtin_add_overflow(d->rel_month, m, &d->rel_month))
      return false;
    return true;
  case 2:
    if (__builtin_mul_overflow(n, m, &m) || __builtin_add_overflow(d->rel_day, m, &d->rel_day))
      return false;
    return true;
  default:
    if (__builtin_mul_overflow(n, m, &m) || __builtin_add_overflow(d->rel_sec, m, &d->rel_sec))
      return false;
    /* the debug split cannot overflow when the total did not */
    if (unit->val == 3600) d->rel_h += n;
    else if (unit->val == 60) d->rel_m += n;
    else d->rel_s += m;
    return true;
  }
}

/* "hh", "hhmm" or "hh:mm" zone offset -> seconds east; false if invalid. */
static bool zone_hhmm(const dtok *sn, const dtok *colon_min, int64_t *out) {
  int64_t v = sn->val < 0 ? -sn->val : sn->val;
  int64_t mins;
  if (colon_min) {
    if (sn->digits > 2 || colon_min->val > 59) return false;
    mins = v * 60 + colon_min->val;
  } else if (sn->digits <= 2) {
    mins = v * 60;
  } else {
    mins = (v / 100) * 60 + v % 100;
    if (v % 100 > 59) return false;
  }
  if (mins > 24 * 60) return false;
  *out = (sn->val < 0 ? -mins : mins) * 60;
  return true;
}

static bool is_char(const dtok *t, char c) { return t->kind == T_CHAR && t->ch == c; }
static bool is_word(const dtok *t, int wk) { return t->kind == T_WORD && t->wkind == wk; }

/* "[N] UNIT [ago]" with the unit at tk[u]: adds n units (negated by "ago");
 * returns the index after the phrase, or -1 on overflow. */
static int rel_phrase(dstate *d, int64_t n, const dtok *tk, int u) {
  bool ago = is_word(&tk[u + 1], W_AGO);
  if (!rel_add(d, ago ? -n : n, &tk[u])) return -1;
  return u + 1 + ago;
}

/* Parses the token list into d; false on a syntax error. */
static bool date_items(dtok *tk, int n, dstate *d) {
  int i = 0;
  while (i < n) {
    dtok *t = &tk[i];
    /* @seconds */
    if (is_char(t, '@')) {
      if (i != 0 || n < 2 || (tk[1].kind != T_NUM && tk[1].kind != T_SNUM) || n != 2)
        return false;
      d->has_timespec = true;
      d->ts = tk[1].val;
      d->ts_nsec = tk[1].nsec;
      if (tk[1].frac && tk[1].val < 0 && tk[1].nsec) {
        d->ts -= 1;
        d->ts_nsec = 1000000000L - tk[1].nsec;
      }
      dbg_current(d, "number of seconds");
      return true;
    }
    if (t->kind == T_NUM) {
      /* time: h:m[:s[.frac]] [merid] [zone offset] */
      if (i + 2 < n + 1 && is_char(&tk[i + 1], ':') && tk[i + 2].kind == T_NUM &&
          !t->frac) {
        d->times_seen++;
        d->hour = (int)(t->val > 99 ? 99 : t->val);
        d->min = (int)(tk[i + 2].val > 99 ? 99 : tk[i + 2].val);
        if (tk[i + 2].frac) return false;
        d->sec = 0;
        d->nsec = 0;
        i += 3;
        if (is_char(&tk[i], ':') && tk[i + 1].kind == T_NUM) {
          d->sec = (int)(tk[i + 1].val > 99 ? 99 : tk[i + 1].val);
          d->nsec = tk[i + 1].nsec;
          i += 2;
        }
        d->merid = -1;
        if (is_word(&tk[i], W_MERID)) {
          d->merid = (int)tk[i].val;
          i++;
        } else if (tk[i].kind == T_SNUM) {
          const dtok *cm = NULL;
          if (is_char(&tk[i + 1], ':') && tk[i + 2].kind == T_NUM) cm = &tk[i + 2];
          int64_t z;
          if (!zone_hhmm(&tk[i], cm, &z)) return false;
          d->has_zone = true;
          d->zone = z;
          d->zones_seen++;
          i += cm ? 3 : 1;
        }
        dbg_current(d, d->datetime_pending ? "datetime" : "time");
        d->datetime_pending = false;
        continue;
      }
      /* 3pm */
      if (is_word(&tk[i + 1], W_MERID)) {
        d->times_seen++;
        d->hour = (int)(t->val > 99 ? 99 : t->val);
        d->min = d->sec = 0;
        d->nsec = 0;
        d->merid = (int)tk[i + 1].val;
        i += 2;
        dbg_current(d, "time");
        continue;
      }
      /* m/d[/y] or y/m/d */
      if (is_char(&tk[i + 1], '/') && tk[i + 2].kind == T_NUM) {
        d->dates_seen++;
        d->has_date = true;
        if (is_char(&tk[i + 3], '/') && tk[i + 4].kind == T_NUM) {
          if (t->digits >= 4)
            dbg_line(d->dbg, "warning: value %lld has %d digits. Assuming YYYY/MM/DD",
                     (long long)t->val, t->digits);
          else
            dbg_line(d->dbg, "warning: value %lld has less than 4 digits. Assuming MM/DD/YY[YY]",
                     (long long)t->val);
          if (t->digits >= 3) {
            d->year = t->val; d->year_digits = t->digits;
            d->mon = (int)tk[i + 2].val; d->mday = (int)tk[i + 4].val;
          } else {
            d->mon = (int)t->val; d->mday = (int)tk[i + 2].val;
            d->year = tk[i + 4].val; d->year_digits = tk[i + 4].digits;
          }
          d->has_year = true;
          i += 5;
        } else {
          d->mon = (int)t->val;
          d->mday = (int)tk[i + 2].val;
          i += 3;
        }
        dbg_current(d, "date");
        continue;
      }
      /* ISO 8601: y -m -d */
      if (tk[i + 1].kind == T_SNUM && tk[i + 1].val <= 0 && tk[i + 2].kind == T_SNUM &&
          tk[i + 2].val <= 0 && tk[i + 1].digits <= 2 && tk[i + 2].digits <= 2 &&
          !tk[i + 2].frac) {
        d->dates_seen++;
        d->has_date = d->has_year = true;
        d->year = t->val;
        d->year_digits = t->digits;
        d->mon = (int)-tk[i + 1].val;
        d->mday = (int)-tk[i + 2].val;
        i += 3;
        if (is_word(&tk[i], W_T) && tk[i + 1].kind == T_NUM) {
          i++;
          d->datetime_pending = true;
        } else {
          dbg_current(d, "date");
        }
        continue;
      }
      /* d month [y] */
      if (is_word(&tk[i + 1], W_MONTH) ||
          (is_char(&tk[i + 1], '-') && is_word(&tk[i + 2], W_MONTH))) {
        int j = i + (is_char(&tk[i + 1], '-') ? 2 : 1);
        d->dates_seen++;
        d->has_date = true;
        d->mday = (int)t->val;
        d->mon = (int)tk[j].val;
        j++;
        if (is_char(&tk[j], '-') && tk[j + 1].kind == T_NUM) j++;
        if (tk[j].kind == T_NUM || tk[j].kind == T_SNUM) {
          if (!(tk[j].kind == T_NUM && is_char(&tk[j + 1], ':'))) {
            d->has_year = true;
            d->year = tk[j].val < 0 ? -tk[j].val : tk[j].val;
            d->year_digits = tk[j].digits;
            j++;
          }
        }
        i = j;
        dbg_current(d, "date");
        continue;
      }
      /* N weekday */
      if (is_word(&tk[i + 1], W_DAY)) {
        if (t->val > 10000000) return false;
        d->days_seen++;
        d->day_ordinal = (int)t->val;
        d->day_number = (int)tk[i + 1].val;
        d->ordinal_seen = true;
        i += 2;
        if (is_char(&tk[i], ',')) i++;
        dbg_current(d, "day");
        continue;
      }
      /* N unit [ago] */
      if (is_word(&tk[i + 1], W_UNIT)) {
        i = rel_phrase(d, t->val, tk, i + 1);
        if (i < 0) return false;
        dbg_relative(d, "relative");
        continue;
      }
      /* a bare number */
      if (t->frac) return false;
      if (d->dates_seen && !d->has_year && !d->rels_seen &&
          (d->times_seen || t->digits > 2)) {
        d->has_year = true;
        d->year = t->val;
        d->year_digits = t->digits;
        d->year_seen = true;
      } else if (t->digits > 4) {
        d->dates_seen++;
        d->has_date = d->has_year = true;
        d->mday = (int)(t->val % 100);
        d->mon = (int)(t->val / 100 % 100);
        d->year = t->val / 10000;
        d->year_digits = t->digits - 4;
      } else {
        d->times_seen++;
        if (t->digits <= 2) {
          d->hour = (int)t->val;
          d->min = 0;
        } else {
          d->hour = (int)(t->val / 100);
          d->min = (int)(t->val % 100);
        }
        d->sec = 0;
        d->nsec = 0;
        d->merid = -1;
      }
      i++;
      if (tk[i].kind == T_SNUM && is_word(&tk[i + 1], W_UNIT)) d->hybrid_pending = true;
      else dbg_current(d, "number");
      d->datetime_pending = false;
      continue;
    }
    if (t->kind == T_SNUM) {
      if (is_word(&tk[i + 1], W_UNIT)) {
        i = rel_phrase(d, t->val, tk, i + 1);
        if (i < 0) return false;
        dbg_relative(d, d->hybrid_pending ? "hybrid" : "relative");
        d->hybrid_pending = false;
        continue;
      }
      return false;
    }
    if (t->kind == T_WORD) {
      switch (t->wkind) {
      case W_MONTH: {
        bool split = false;
        d->dates_seen++;
        d->has_date = true;
        d->mon = (int)t->val;
        int j = i + 1;
        if (is_char(&tk[j], '-')) j++;
        if (tk[j].kind == T_NUM || (tk[j].kind == T_SNUM && tk[j].val < 0)) {
          d->mday = (int)(tk[j].val < 0 ? -tk[j].val : tk[j].val);
          j++;
          bool comma = is_char(&tk[j], ',');
          if (comma) j++;
          if (is_char(&tk[j], '-')) j++;
          if ((tk[j].kind == T_NUM && !is_char(&tk[j + 1], ':') &&
               !is_word(&tk[j + 1], W_UNIT) && !is_word(&tk[j + 1], W_MERID)) ||
              (tk[j].kind == T_SNUM && tk[j].val < 0)) {
            /* GNU reads "Jan 2 2024" as the date "Jan 2" and then the year */
            split = d->dbg && !comma && tk[j].kind == T_NUM && !d->rels_seen &&
                         (d->times_seen || tk[j].digits > 2);
            if (split) dbg_current(d, "date");
            d->year_seen = split;
            d->has_year = true;
            d->year = tk[j].val < 0 ? -tk[j].val : tk[j].val;
            d->year_digits = tk[j].digits;
            j++;
            if (split) dbg_current(d, "number");
          }
        } else {
          return false;
        }
        i = j;
        if (!split) dbg_current(d, "date");
        continue;
      }
      case W_DAY:
        d->days_seen++;
        d->day_ordinal = 0;
        d->day_number = (int)t->val;
        i++;
        if (is_char(&tk[i], ',')) i++;
        dbg_current(d, "day");
        continue;
      case W_ORDINAL:
        if (is_word(&tk[i + 1], W_DAY)) {
          d->days_seen++;
          d->day_ordinal = (int)t->val;
          d->day_number = (int)tk[i + 1].val;
          d->ordinal_seen = true;
          i += 2;
          dbg_current(d, "day");
          continue;
        }
        if (is_word(&tk[i + 1], W_UNIT)) {
          i = rel_phrase(d, t->val, tk, i + 1);
          if (i < 0) return false;
          dbg_relative(d, "relative");
          continue;
        }
        return false;
      case W_UNIT: {
        i = rel_phrase(d, 1, tk, i);
        if (i < 0) return false;
        dbg_relative(d, "relative");
        continue;
      }
      case W_DAYSHIFT: {
        dtok u = {.val = 1, .unit = 2};
        if (!rel_add(d, t->val, &u)) return false;
        i++;
        dbg_relative(d, "relative");
        continue;
      }
      case W_ZONE: {
        d->zones_seen++;
        d->has_zone = true;
        d->zone = t->val;
        i++;
        if (is_word(&tk[i], W_DST)) {
          d->zone += 3600;
          i++;
        } else if (tk[i].kind == T_SNUM && !is_word(&tk[i + 1], W_UNIT)) {
          const dtok *cm = NULL;
          if (is_char(&tk[i + 1], ':') && tk[i + 2].kind == T_NUM) cm = &tk[i + 2];
          int64_t z;
          if (!zone_hhmm(&tk[i], cm, &z)) return false;
          d->zone += z;
          i += cm ? 3 : 1;
        }
        dbg_current(d, "zone");
        continue;
      }
      case W_LOCALZONE:
        d->local_zones_seen++;
        d->local_isdst = t->dst;
        i++;
        dbg_current(d, "local_zone");
        continue;
      case W_AGO:
        /* "ago" after a complete relative item applies to everything so far */
        d->rel_year = -d->rel_year;
        d->rel_month = -d->rel_month;
        d->rel_day = -d->rel_day;
        d->rel_sec = -d->rel_sec;
        d->rel_h = -d->rel_h;
        d->rel_m = -d->rel_m;
        d->rel_s = -d->rel_s;
        if (!d->rels_seen) return false;
        i++;
        continue;
      case W_T:
        i++;
        continue;
      default:
        return false;
      }
    }
    if (is_char(t, ',')) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/* Copies a TZ="..." prefix into buf; returns the rest of the string or NULL. */
static const char *tz_prefix(const char *s, char *buf, size_t bufsz) {
  while (isspace((unsigned char)*s)) s++;
  if (strncmp(s, "TZ=\"", 4) != 0) return NULL;
  const char *p = s + 4;
  size_t n = 0;
  while (*p && *p != '"') {
    if (*p == '\\' && (p[1] == '\\' || p[1] == '"')) p++;
    if (n + 1 >= bufsz) return NULL;
    buf[n++] = *p++;
  }
  if (*p != '"') return NULL;
  buf[n] = 0;
  return p + 1;
}

/* gnulib debug_strfdatetime: "(Y-M-D) 2024-01-02 03:04:05[ TZ=+03]". */
static const char *dbg_tm(const dstate *d, const struct tm *tm, char buf[96]) {
  int n = snprintf(buf, 96, "(Y-M-D) %04lld-%02d-%02d %02d:%02d:%02d",
                   (long long)tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday, tm->tm_hour,
                   tm->tm_min, tm->tm_sec);
  if (d && d->zones_seen && n > 0 && n < 96) {
    char zb[24];
    snprintf(buf + n, (size_t)(96 - n), " TZ=%s", dbg_zone_str(d->zone, zb));
  }
  return buf;
}

/* gnulib debug_mktime_not_ok: why a date/time was rejected. */
static void dbg_not_ok(const dstate *d, const struct tm *tm0, const struct tm *tm1) {
  const cmd_date_debug *g = d->dbg;
  if (!g) return;
  bool es = tm0->tm_sec == tm1->tm_sec, emi = tm0->tm_min == tm1->tm_min,
       eh = tm0->tm_hour == tm1->tm_hour, ed = tm0->tm_mday == tm1->tm_mday,
       emo = tm0->tm_mon == tm1->tm_mon, ey = tm0->tm_year == tm1->tm_year;
  char b[96];
  dbg_line(g, "error: invalid date/time value:");
  dbg_line(g, "    user provided time: '%s'", dbg_tm(d, tm0, b));
  dbg_line(g, "       normalized time: '%s'", dbg_tm(d, tm1, b));
  char line[96];
  int i = snprintf(line, sizeof line, "                                 %4s %2s %2s %2s %2s %2s",
                   ey ? "" : "----", emo ? "" : "--", ed ? "" : "--", eh ? "" : "--",
                   emi ? "" : "--", es ? "" : "--");
  if (i > (int)sizeof line - 1) i = (int)sizeof line - 1;
  while (i > 0 && line[i - 1] == ' ') i--;
  line[i < 0 ? 0 : i] = 0;
  dbg_line(g, "%s", line);
  dbg_line(g, "     possible reasons:");
  if (es && emi && !eh && ed && emo && ey)
    dbg_line(g, "       non-existing due to daylight-saving time;");
  if (!ed && !emo) dbg_line(g, "       invalid day/month combination;");
  dbg_line(g, "       numeric values overflow;");
  dbg_line(g, "       %s", d->zones_seen ? "incorrect timezone" : "missing timezone");
}

/* Sets t (zeroed first) to the broken-down fields, mon 1-based; false when
 * the year does not fit a struct tm. */
static bool tm_of_fields(struct tm *t, int64_t year, int mon, int mday, int hour, int min, int sec,
                         int isdst) {
  if (year - 1900 > INT_MAX || year - 1900 < INT_MIN) return false;
  memset(t, 0, sizeof *t);
  t->tm_year = (int)(year - 1900);
  t->tm_mon = mon - 1;
  t->tm_mday = mday;
  t->tm_hour = hour;
  t->tm_min = min;
  t->tm_sec = sec;
  t->tm_isdst = isdst;
  return true;
}

/* dbg_not_ok for the fields as given against what mktime makes of them in
 * tz (nothing when the year does not fit a struct tm or mktime fails). */
static void dbg_not_ok_fields(const dstate *d, const cmd_tz *tz, int64_t year, int mon, int mday,
                              int hour, int min, int sec) {
  struct tm t0, t1;
  if (!d->dbg || !tm_of_fields(&t0, year, mon, mday, hour, min, sec, -1)) return;
  t1 = t0;
  int64_t tt;
  if (cmd_time_mk(tz, &t1, &tt)) dbg_not_ok(d, &t0, &t1);
}

/* The closing lines: the zone in effect and the result three ways. */
static void dbg_final(const cmd_date_debug *g, const char *tzstr, const cmd_tz *tz, int64_t t,
                      long nsec) {
  if (!g) return;
  if (!tzstr) dbg_line(g, "timezone: system default");
  else if (strcmp(tzstr, "UTC0") == 0) dbg_line(g, "timezone: Universal Time");
  else dbg_line(g, "timezone: TZ=\"%s\" environment value", tzstr);
  dbg_line(g, "final: %lld.%09ld (epoch-seconds)", (long long)t, nsec);
  cmd_tz utc;
  cmd_tz_parse(NULL, &utc);
  struct tm tm;
  char b[96], zb[24];
  if (cmd_time_local(&utc, t, &tm)) dbg_line(g, "final: %s (UTC)", dbg_tm(NULL, &tm, b));
  if (cmd_time_local(tz, t, &tm))
    dbg_line(g, "final: %s (UTC%s)", dbg_tm(NULL, &tm, b), dbg_zone_str(tm.tm_gmtoff, zb));
}

int cmd_parse_date(const char *s, int64_t now, long now_nsec, const cmd_tz *tz0,
                   int64_t *out, long *out_nsec) {
  return cmd_parse_date_debug(s, now, now_nsec, tz0, NULL, out, out_nsec);
}

int cmd_parse_date_debug(const char *s, int64_t now, long now_nsec, const cmd_tz *tz0,
                         const cmd_date_debug *g, int64_t *out, long *out_nsec) {
  cmd_tz tzbuf;
  const cmd_tz *tz = tz0;
  char zbuf[256];
  const char *tzstr = g ? g->tzstr : NULL;
  bool tz_in_string = false;
  const char *rest = tz_prefix(s, zbuf, sizeof zbuf);
  if (rest) {
    cmd_tz_parse(zbuf, &tzbuf);
    tz = &tzbuf;
    s = rest;
    tzstr = zbuf;
    tz_in_string = true;
  } else if (strncmp(s, "TZ=\"", 4) == 0) {
    dbg_line(g, "error: parsing failed");
    return -EINVAL;
  }
  dtok *tk = calloc(DATE_MAX_TOKENS + 8, sizeof *tk);
  if (!tk) return -ENOMEM;
  int n = 0;
  dstate d;
  memset(&d, 0, sizeof d);
  d.merid = -1;
  d.local_isdst = -1;
  d.dbg = g;
  struct tm nowtm;
  if (g && cmd_time_local(tz, now, &nowtm)) d.year_now = (int64_t)nowtm.tm_year + 1900;
  const char *unknown = NULL;
  bool lexed = date_lex(s, tz, tk, &n, &unknown);
  bool ok = lexed && date_items(tk, n, &d);
  free(tk);
  if (!ok) {
    if (g && unknown) {
      char w[32];
      size_t wl = 0;
      const char *p = unknown;
      while ((isalpha((unsigned char)*p) || *p == '.') && wl + 1 < sizeof w)
        w[wl++] = (char)toupper((unsigned char)*p++);
      w[wl] = 0;
      dbg_line(g, "error: unknown word '%s'", w);
      while (isalpha((unsigned char)*p) || *p == '.') p++;
      if (*p) dbg_line(g, "error: parsing failed, stopped at '%s'", p);
      else dbg_line(g, "error: parsing failed");
    } else {
      dbg_line(g, "error: parsing failed");
    }
    return -EINVAL;
  }
  if (g) {
    char zb[24];
    if (d.has_timespec) dbg_line(g, "input timezone: '@timespec' - always UTC");
    else if (d.zones_seen)
      dbg_line(g, "input timezone: parsed date/time string (%s)", dbg_zone_str(d.zone, zb));
    else if (tz_in_string) dbg_line(g, "input timezone: TZ=\"%s\" in date string", tzstr);
    else {
      /* a local zone word in daylight time ("EDT" in New York) adds ", dst" */
      const char *dst = d.local_zones_seen && d.local_isdst > 0 ? ", dst" : "";
      if (tzstr && strcmp(tzstr, "UTC0") == 0)
        dbg_line(g, "input timezone: TZ=\"UTC0\" environment value or -u%s", dst);
      else if (tzstr) dbg_line(g, "input timezone: TZ=\"%s\" environment value%s", tzstr, dst);
      else dbg_line(g, "input timezone: system default%s", dst);
    }
  }
  if (d.has_timespec) {
    *out = d.ts;
    *out_nsec = d.ts_nsec;
    dbg_final(g, tzstr, tz, *out, *out_nsec);
    return 0;
  }
  if (d.dates_seen > 1 || d.times_seen > 1 || d.days_seen > 1 ||
      d.zones_seen + d.local_zones_seen > 1) {
    if (d.times_seen > 1) dbg_line(g, "error: seen multiple time parts");
    if (d.dates_seen > 1) dbg_line(g, "error: seen multiple date parts");
    if (d.days_seen > 1) dbg_line(g, "error: seen multiple days parts");
    if (d.zones_seen + d.local_zones_seen > 1) dbg_line(g, "error: seen multiple time-zone parts");
    return -EINVAL;
  }
  struct tm tm;
  if (!cmd_time_local(tz, now, &tm)) return -EINVAL;
  int now_isdst = tm.tm_isdst;
  int64_t year = (int64_t)tm.tm_year + 1900;
  int mon = tm.tm_mon + 1, mday = tm.tm_mday;
  int hour = tm.tm_hour, min = tm.tm_min, sec = tm.tm_sec;
  long nsec = now_nsec;
  if (d.has_date) {
    if (d.has_year) {
      year = d.year;
      if (d.year_digits == 2) {
        year += year < 69 ? 2000 : 1900;
        dbg_line(g, "warning: adjusting year value %lld to %lld", (long long)d.year,
                 (long long)year);
      }
    }
    mon = d.mon;
    mday = d.mday;
  }
  if (d.times_seen || (d.rels_seen && !d.dates_seen && !d.days_seen)) {
    if (d.times_seen) {
      hour = d.hour;
      min = d.min;
      sec = d.sec;
      nsec = d.nsec;
      if (d.merid >= 0) {
        if (hour < 1 || hour > 12) {
          dbg_line(g, "error: invalid hour %d%s", hour, d.merid ? "pm" : "am");
          return -EINVAL;
        }
        hour = hour % 12 + (d.merid ? 12 : 0);
      }
      if (hour > 23) {
        dbg_line(g, "error: invalid hour %d", hour);
        return -EINVAL;
      }
    }
    dbg_line(g, "using %s time as starting value: '%02d:%02d:%02d'",
             d.times_seen ? "specified" : "current", hour, min, sec);
    if (min > 59 || sec > 59) {
      dbg_not_ok_fields(&d, tz, year, mon, mday, hour, min, sec);
      return -EINVAL;
    }
  } else {
    hour = min = sec = 0;
    nsec = 0;
    dbg_line(g, "warning: using midnight as starting time: 00:00:00");
  }
  if (mon < 1 || mon > 12 || mday < 1) {
    dbg_not_ok_fields(&d, tz, year, mon, mday, hour, min, sec);
    return -EINVAL;
  }
  struct tm want;
  if (!tm_of_fields(&want, year, mon, mday, hour, min, sec,
                    d.local_zones_seen ? d.local_isdst : -1))
    return -EINVAL;
  /* the zone the wall-clock fields are in: the parsed offset, else the local zone */
  cmd_tz fixed;
  const cmd_tz *wz = tz;
  if (d.has_zone) {
    memset(&fixed, 0, sizeof fixed);
    fixed.std_off = (int32_t)d.zone;
    wz = &fixed;
  }
  int64_t t;
  if (d.has_zone) {
    int64_t days = cmd_time_from_civil(year, mon, mday);
    cmd_tz utc;
    cmd_tz_parse(NULL, &utc);
    struct tm chk = want;
    int64_t tt;
    if (!cmd_time_mk(&utc, &chk, &tt)) return -EINVAL;
    if (chk.tm_mday != mday || chk.tm_mon != mon - 1) {
      dbg_not_ok(&d, &want, &chk);
      return -EINVAL;
    }
    (void)days;
    t = tt - d.zone;
  } else {
    struct tm chk = want;
    if (!cmd_time_mk(tz, &chk, &t)) return -EINVAL;
    /* like GNU: a date or time that mktime had to normalize is invalid (Feb 30,
     * or a local time in a daylight-saving gap) */
    if (chk.tm_mday != mday || chk.tm_mon != mon - 1 || chk.tm_year != want.tm_year ||
        chk.tm_hour != hour || chk.tm_min != min || chk.tm_sec != sec) {
      dbg_not_ok(&d, &want, &chk);
      return -EINVAL;
    }
  }
  char db[96], dd[48];
  /* weekday adjustment (only without an explicit date) */
  if (d.days_seen && !d.dates_seen) {
    struct tm cur;
    if (!cmd_time_local(tz, t, &cur)) return -EINVAL;
    int64_t add = (d.day_number - cur.tm_wday + 7) % 7 +
                  7 * ((int64_t)d.day_ordinal - (0 < d.day_ordinal && cur.tm_wday != d.day_number));
    if (add > 100000000 || add < -100000000) return -EINVAL;
    cur.tm_mday += (int)add;
    cur.tm_isdst = -1;
    if (!time_mk_guess(tz, &cur, cur.tm_gmtoff, &t)) return -EINVAL;
    if (g && cmd_time_local(wz, t, &cur))
      dbg_line(g, "new start date: '%s' is '%s'", dbg_days(&d, dd), dbg_tm(&d, &cur, db));
  }
  struct tm cur;
  memset(&cur, 0, sizeof cur);
  if (g && cmd_time_local(wz, t, &cur)) {
    if (!d.dates_seen && !d.days_seen)
      dbg_line(g, "using current date as starting value: '(Y-M-D) %04lld-%02d-%02d'",
               (long long)cur.tm_year + 1900, cur.tm_mon + 1, cur.tm_mday);
    if (d.days_seen && d.dates_seen)
      dbg_line(g, "warning: day (%s) ignored when explicit dates are given", dbg_days(&d, dd));
    dbg_line(g, "starting date/time: '%s'", dbg_tm(&d, &cur, db));
  }
  /* relative years, months, days in local (or the given zone's) time */
  if (d.rel_year || d.rel_month || d.rel_day) {
    const cmd_tz *z = wz;
    if (!cmd_time_local(z, t, &cur)) return -EINVAL;
    if (g) {
      if ((d.rel_year || d.rel_month) && cur.tm_mday != 15)
        dbg_line(g, "warning: when adding relative months/years, it is recommended to specify "
                    "the 15th of the months");
      if (d.rel_day && cur.tm_hour != 12)
        dbg_line(g, "warning: when adding relative days, it is recommended to specify noon");
    }
    int64_t ny = (int64_t)cur.tm_year + d.rel_year;
    int64_t nm = (int64_t)cur.tm_mon + d.rel_month;
    int64_t nd = (int64_t)cur.tm_mday + d.rel_day;
    if (ny > INT_MAX || ny < INT_MIN || nm > INT_MAX || nm < INT_MIN || nd > INT_MAX ||
        nd < INT_MIN)
      return -EINVAL;
    cur.tm_year = (int)ny;
    cur.tm_mon = (int)nm;
    cur.tm_mday = (int)nd;
    cur.tm_isdst = -1;
    if (!time_mk_guess(z, &cur, cur.tm_gmtoff, &t)) return -EINVAL;
    if (g && cmd_time_local(z, t, &cur)) {
      dbg_line(g, "after date adjustment (%+lld years, %+lld months, %+lld days),",
               (long long)d.rel_year, (long long)d.rel_month, (long long)d.rel_day);
      dbg_line(g, "    new date/time = '%s'", dbg_tm(&d, &cur, db));
      int tm0_isdst = (d.dates_seen || d.days_seen || d.times_seen) ? -1 : now_isdst;
      if (d.local_zones_seen) tm0_isdst = d.local_isdst;
      if (tm0_isdst != -1 && cur.tm_isdst != tm0_isdst)
        dbg_line(g, "warning: daylight saving time changed after date adjustment");
      if (d.rel_day == 0 && (cur.tm_mday != nd || (d.rel_month == 0 && cur.tm_mon != nm))) {
        dbg_line(g, "warning: month/year adjustment resulted in shifted dates:");
        dbg_line(g, "     adjusted Y M D: %04lld %02lld %02lld", (long long)ny + 1900,
                 (long long)nm + 1, (long long)nd);
        dbg_line(g, "   normalized Y M D: %04lld %02d %02d", (long long)cur.tm_year + 1900,
                 cur.tm_mon + 1, cur.tm_mday);
      }
    }
  }
  if (g && cmd_time_local(wz, t, &cur))
    dbg_line(g, "'%s' = %lld epoch-seconds", dbg_tm(&d, &cur, db), (long long)t);
  if (d.rel_sec) {
    if (__builtin_add_overflow(t, d.rel_sec, &t)) {
      dbg_line(g, "error: adding relative time caused an overflow");
      return -EINVAL;
    }
  }
  if (g && (d.rel_h || d.rel_m || d.rel_s)) {
    dbg_line(g, "after time adjustment (%+lld hours, %+lld minutes, %+lld seconds, +0 ns),",
             (long long)d.rel_h, (long long)d.rel_m, (long long)d.rel_s);
    dbg_line(g, "    new time = %lld epoch-seconds", (long long)t);
    struct tm after;
    if (!d.has_zone && cmd_time_local(tz, t, &after) && after.tm_isdst != cur.tm_isdst)
      dbg_line(g, "warning: daylight saving time changed after time adjustment");
  }
  *out = t;
  *out_nsec = nsec;
  dbg_final(g, tzstr, tz, t, nsec);
  return 0;
}

int cmd_localtime(cmd_ctx *ctx, int64_t t, struct tm *out) {
  /* One time-zone implementation for all commands: lib/datetime's. The zone
   * lives in the arena because tm_zone points into it. */
  cmd_tz *tz = cmd_alloc(ctx, sizeof *tz);
  if (!tz) return -1;
  cmd_tz_from_env(ctx, tz);
  return cmd_time_local(tz, t, out) ? 0 : -1;
}
