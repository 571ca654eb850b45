/*
 * cal - display a calendar (Debian's ncal 12.1, `cal` mode, C locale).
 *
 *   cal [-3jy1] [-A N] [-B N] [-d YYYY-MM] [[MONTH] YEAR]
 *   cal [-3jh] [-A N] [-B N] [-m MONTH] [YEAR]
 *
 * One month (the default), -3 (the months around it), -A / -B (months after /
 * before), a whole year (a YEAR operand alone, or -y), -j (days numbered in the
 * year). MONTH is 1..12 or an English name or its three-letter abbreviation.
 * The calendar is Julian up to 2 September 1752 and Gregorian from 14
 * September 1752 (Great Britain's reform, ncal's default for the C locale).
 * Layout as ncal: month blocks 20 (-j: 27) columns wide with two spaces
 * after each, six week rows per band, three (-j: two) months per band; a
 * range whose first month starts a band gets year header lines instead of a
 * year in each month's title. Without MONTH and YEAR the month is today's
 * (ctx->now in TZ) or -d's; nothing is highlighted (no terminal); -h is
 * the usage text, as in ncal's cal mode.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("cal", cmd_cal_main);

#define CAL_MAX_MONTHS 1200 /* -A/-B span (100 years) */

static const char *const cal_months[12] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

/* Day number of a date: Julian calendar before 1752-09-14, Gregorian after
 * (the Julian Day Number, whose +1 mod 7 is the weekday, 0 = Sunday). */
static long cal_jdn(long y, int m, int d) {
  long a = (14 - m) / 12, yy = y + 4800 - a, mm = m + 12 * a - 3;
  bool greg = y > 1752 || (y == 1752 && (m > 9 || (m == 9 && d >= 14)));
  if (greg)
    return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045;
  return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - 32083;
}

static int cal_mdays(long y, int m) {
  static const int len[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m != 2) return len[m - 1];
  bool leap = y <= 1752 ? y % 4 == 0 : (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
  return leap ? 29 : 28;
}

/* The days of month (y, m) laid out in 6 weeks x 7 days: day of month, or 0.
 * jul gets the day of the year of each (for -j). */
static void cal_layout(long y, int m, int grid[42], int jul[42]) {
  memset(grid, 0, 42 * sizeof *grid);
  memset(jul, 0, 42 * sizeof *jul);
  long jan1 = cal_jdn(y, 1, 1);
  int slot = (int)((cal_jdn(y, m, 1) + 1) % 7);
  for (int d = 1; d <= cal_mdays(y, m); d++) {
    if (y == 1752 && m == 9 && d == 3) d = 14; /* the reform's missing days */
    if (slot >= 42) break;
    grid[slot] = d;
    jul[slot] = (int)(cal_jdn(y, m, d) - jan1 + 1);
    slot++;
  }
}

typedef struct cal_opts {
  bool julian;
  int mpl;   /* months per band */
  int width; /* a month's width without the two trailing spaces */
} cal_opts;

static void pad(cmd_ctx *ctx, int n) {
  while (n-- > 0) cmd_outc(ctx, ' ');
}

/* A title centered in the month's width, then padded to the block's. */
static void cal_title(cmd_ctx *ctx, const cal_opts *o, const char *t) {
  int len = (int)strlen(t), left = (o->width - len) / 2;
  if (left < 0) left = 0;
  pad(ctx, left);
  cmd_outs(ctx, t);
  pad(ctx, o->width + 2 - left - len);
}

/* Prints months [m1, m1 + count) (month indexes y*12 + m-1). */
static int cal_range(cmd_ctx *ctx, const cal_opts *o, long m1, long count) {
  bool headers = count > 1 && m1 % o->mpl == 0;
  static const char *const wd[7] = {"Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"};
  for (long band = m1; band < m1 + count; band += o->mpl) {
    if (cmd_poll(ctx)) return 1;
    int n = (int)(m1 + count - band < o->mpl ? m1 + count - band : o->mpl);
    if (band != m1) cmd_outc(ctx, '\n');
    if (headers && (band == m1 || band % 12 == 0)) {
      char yb[24];
      snprintf(yb, sizeof yb, "%ld", band / 12);
      pad(ctx, (o->mpl * o->width - (int)strlen(yb)) / 2);
      cmd_outs(ctx, yb);
      cmd_outc(ctx, '\n');
    }
    for (int k = 0; k < n; k++) {
      long mi = band + k;
      char t[48];
      if (headers)
        snprintf(t, sizeof t, "%s", cal_months[mi % 12]);
      else
        snprintf(t, sizeof t, "%s %ld", cal_months[mi % 12], mi / 12);
      cal_title(ctx, o, t);
    }
    cmd_outc(ctx, '\n');
    for (int k = 0; k < n; k++) {
      for (int d = 0; d < 7; d++) cmd_outf(ctx, o->julian ? " %s " : "%s ", wd[d]);
      cmd_outc(ctx, ' ');
    }
    cmd_outc(ctx, '\n');
    int grid[3][42], jul[3][42];
    for (int k = 0; k < n; k++)
      cal_layout((band + k) / 12, (int)((band + k) % 12) + 1, grid[k], jul[k]);
    for (int w = 0; w < 6; w++) {
      for (int k = 0; k < n; k++) {
        for (int d = 0; d < 7; d++) {
          int v = grid[k][w * 7 + d];
          if (!v)
            cmd_outs(ctx, o->julian ? "    " : "   ");
          else
            cmd_outf(ctx, o->julian ? "%3d " : "%2d ", o->julian ? jul[k][w * 7 + d] : v);
        }
        cmd_outc(ctx, ' ');
      }
      if (cmd_outc(ctx, '\n') < 0) return 1;
    }
  }
  return 0;
}

static int cal_month_arg(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s && !*end) return v >= 1 && v <= 12 ? (int)v : 0;
  for (int i = 0; i < 12; i++)
    if (strcasecmp(s, cal_months[i]) == 0 ||
        (strlen(s) == 3 && strncasecmp(s, cal_months[i], 3) == 0))
      return i + 1;
  return 0;
}

static int cal_usage(cmd_ctx *ctx) {
  cmd_err_raw(
      ctx,
      "Usage: cal [general options] [-jy] [[month] year]\n"
      "       cal [general options] [-j] [-m month] [year]\n"
      "       ncal -C [general options] [-jy] [[month] year]\n"
      "       ncal -C [general options] [-j] [-m month] [year]\n"
      "       ncal [general options] [-bhJjpwySM] [-H yyyy-mm-dd] [-s country_code] "
      "[-W number of days] [[month] year]\n"
      "       ncal [general options] [-Jeo] [year]\n"
      "General options: [-31] [-A months] [-B months] [-d yyyy-mm]\n");
  return 64;
}

static bool cal_count(const char *s, long *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 0 || v > CAL_MAX_MONTHS) return false;
  *out = v;
  return true;
}

int cmd_cal_main(cmd_ctx *ctx, int argc, char **argv) {
  cal_opts o = {false, 3, 20};
  bool three = false;
  long after = 0, before = 0;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* The last of -3 and -1 counts; -A and -B are checked at once. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, "+3jy1A:B:m:d:", NULL)) != -1;) {
    switch (c) {
      case '3':
        three = true;
        break;
      case '1':
        three = false;
        break;
      case 'A':
      case 'B':
        if (!cal_count(g.arg, c == 'A' ? &after : &before)) {
          cmd_errorf(ctx, "-%c argument must be between 0 and %d", c, CAL_MAX_MONTHS);
          return 64;
        }
        break;
      case '?':
        return cal_usage(ctx);
    }
  }
  o.julian = cmd_opt_on(&g, 'j');
  bool year_flag = cmd_opt_on(&g, 'y');
  const char *mflag = cmd_opt_arg(&g, 'm'), *dflag = cmd_opt_arg(&g, 'd');
  if (o.julian) o.mpl = 2, o.width = 27;
  int nops = argc - g.ind;
  if (nops > 2) return cal_usage(ctx);
  /* today, or -d's month */
  long y;
  int m;
  if (dflag) {
    char *end;
    y = strtol(dflag, &end, 10);
    if (*end != '-' || (m = (int)strtol(end + 1, &end, 10)) < 1 || m > 12 || *end ||
        y < 1 || y > 9999) {
      cmd_errorf(ctx, "-d %s: invalid date", dflag);
      return 64;
    }
  } else {
    cmd_tz tz;
    cmd_tz_from_env(ctx, &tz);
    struct tm tm;
    cmd_time_local(&tz, ctx->now, &tm);
    y = tm.tm_year + 1900L;
    m = tm.tm_mon + 1;
  }
  bool month_given = false, year_only = false;
  if (nops >= 1) {
    const char *ys = argv[argc - 1];
    char *end;
    long v = strtol(ys, &end, 10);
    if (!*ys || *end || v < 1 || v > 9999) {
      cmd_errorf(ctx, "year `%s' not in range 1..9999", ys);
      return 64;
    }
    y = v;
    year_only = nops == 1;
  }
  const char *ms = nops == 2 ? argv[g.ind] : mflag;
  if (ms) {
    m = cal_month_arg(ms);
    if (!m) {
      cmd_errorf(ctx, "%s is neither a month number (1..12) nor a name", ms);
      return 64;
    }
    month_given = true;
    year_only = false;
  }
  if (three && year_only) {
    cmd_errorf(ctx, "-3 together with a given year but no given month is not supported.");
    return 64;
  }
  if ((year_only || (year_flag && !month_given)) && !three && !before && !after)
    return cal_range(ctx, &o, y * 12, 12);
  if (three) before += before ? 0 : 1, after += after ? 0 : 1;
  long mi = y * 12 + m - 1 - before;
  if (mi < 12) mi = 12;
  long count = before + after + 1;
  if (mi + count > 10000 * 12) count = 10000 * 12 - mi;
  return cal_range(ctx, &o, mi, count); /* one month's title always has the year */
}
