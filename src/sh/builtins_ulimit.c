/*
 * builtins_ulimit.c - `ulimit`: per-shell resource limits, soft and hard,
 * inherited by subshells and nested shells like a process's rlimits.
 *
 * The table is virtual (the sandbox never calls setrlimit): two limits are
 * enforced by the shell itself, file size (-f: a write past it raises
 * SIGXFSZ, io.c) and open files (-n: opening an fd at or above it fails with
 * EMFILE); the others are recorded and reported. The rules are bash's:
 * without -S/-H both limits are set, a soft limit may not exceed the hard
 * one, and a hard limit may be lowered but not raised (the sandbox user is
 * unprivileged). Values are kept in bytes (or the resource's own unit);
 * UINT64_MAX is "unlimited".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/builtins.h"

typedef struct ulimit_res {
  char opt;           /* option letter */
  const char *name;   /* ulimit -a label */
  const char *unit;   /* "(blocks, -f)" part before the option, or "" */
  uint64_t factor;    /* bytes (or units) per value given on the command line */
  uint64_t soft, hard;/* defaults */
} ulimit_res;

#define UL_INF UINT64_MAX

static const ulimit_res resources[SH_RLIM_COUNT] = {
    {'R', "real-time non-blocking time", "microseconds", 1, UL_INF, UL_INF},
    {'c', "core file size", "blocks", 1024, 0, UL_INF},
    {'d', "data seg size", "kbytes", 1024, UL_INF, UL_INF},
    {'e', "scheduling priority", "", 1, 0, 0},
    {'f', "file size", "blocks", 1024, UL_INF, UL_INF},
    {'i', "pending signals", "", 1, 7787, 7787},
    {'l', "max locked memory", "kbytes", 1024, 8192 * 1024, 8192 * 1024},
    {'m', "max memory size", "kbytes", 1024, UL_INF, UL_INF},
    {'n', "open files", "", 1, SH_FD_MAX, SH_FD_MAX},
    {'p', "pipe size", "512 bytes", 512, 4096, 4096},
    {'q', "POSIX message queues", "bytes", 1, 819200, 819200},
    {'r', "real-time priority", "", 1, 0, 0},
    {'s', "stack size", "kbytes", 1024, 8192 * 1024, UL_INF},
    {'t', "cpu time", "seconds", 1, UL_INF, UL_INF},
    {'u', "max user processes", "", 1, 7787, 7787},
    {'v', "virtual memory", "kbytes", 1024, UL_INF, UL_INF},
    {'x', "file locks", "", 1, UL_INF, UL_INF},
};

void sh_ulimit_init(sh_shell *sh) {
  for (int i = 0; i < SH_RLIM_COUNT; i++) {
    sh->rlim_soft[i] = resources[i].soft;
    sh->rlim_hard[i] = resources[i].hard;
  }
}

uint64_t sh_ulimit_fsize(const sh_shell *sh) { return sh->rlim_soft[SH_RLIM_FSIZE]; }

uint64_t sh_ulimit_nofile(const sh_shell *sh) { return sh->rlim_soft[SH_RLIM_NOFILE]; }

static int res_index(char c) {
  for (int i = 0; i < SH_RLIM_COUNT; i++)
    if (resources[i].opt == c) return i;
  return -1;
}

static void print_value(sh_buf *b, const ulimit_res *r, uint64_t v) {
  if (v == UL_INF) sh_buf_adds(b, "unlimited\n");
  else sh_buf_addf(b, "%" PRIu64 "\n", v / r->factor);
}

static void print_line(sh_buf *b, const ulimit_res *r, uint64_t v) {
  char label[64];
  if (*r->unit) snprintf(label, sizeof label, "(%s, -%c) ", r->unit, r->opt);
  else snprintf(label, sizeof label, "(-%c) ", r->opt);
  /* bash's "%-20s %20s": the name, then the label right-aligned */
  sh_buf_addf(b, "%-20s %20s", r->name, label);
  print_value(b, r, v);
}

int sh_bi_ulimit(sh_shell *sh, int argc, char **argv) {
  bool soft = false, hard = false, all = false;
  int which[SH_RLIM_COUNT], nwhich = 0;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (a[0] != '-' || !a[1]) break;
    for (const char *c = a + 1; *c; c++) {
      if (*c == 'S') soft = true;
      else if (*c == 'H') hard = true;
      else if (*c == 'a') all = true;
      else {
        int k = res_index(*c);
        if (k < 0) {
          sh_error(sh, "ulimit: -%c: invalid option", *c);
          sh_bi_usage(sh, "ulimit");
          return 2;
        }
        if (nwhich < SH_RLIM_COUNT) which[nwhich++] = k;
      }
    }
  }
  sh_buf out = {0};
  if (all) {
    for (int k = 0; k < SH_RLIM_COUNT; k++)
      print_line(&out, &resources[k], hard ? sh->rlim_hard[k] : sh->rlim_soft[k]);
    sh_write_fd(sh, 1, out.data, out.len);
    sh_buf_free(&out);
    return 0;
  }
  if (!nwhich) which[nwhich++] = SH_RLIM_FSIZE;
  const char *val = i < argc ? argv[i] : NULL;
  int st = 0;
  for (int w = 0; w < nwhich; w++) {
    int k = which[w];
    const ulimit_res *r = &resources[k];
    if (!val) {
      if (nwhich > 1) print_line(&out, r, hard ? sh->rlim_hard[k] : sh->rlim_soft[k]);
      else print_value(&out, r, hard ? sh->rlim_hard[k] : sh->rlim_soft[k]);
      continue;
    }
    uint64_t v;
    if (!strcmp(val, "unlimited")) {
      v = UL_INF;
    } else if (!strcmp(val, "hard")) {
      v = sh->rlim_hard[k];
    } else if (!strcmp(val, "soft")) {
      v = sh->rlim_soft[k];
    } else {
      char *end;
      errno = 0;
      unsigned long long n = strtoull(val, &end, 10);
      if (!*val || *end || val[0] == '-' || val[0] == '+' || val[0] == ' ' || errno) {
        sh_error(sh, "ulimit: %s: invalid number", val);
        st = 1;
        continue;
      }
      if ((uint64_t)n > (UL_INF - 1) / r->factor) {
        sh_error(sh, "ulimit: %s: limit out of range", val);
        st = 1;
        continue;
      }
      v = (uint64_t)n * r->factor;
    }
    bool set_soft = soft || !hard, set_hard = hard || !soft;
    uint64_t ns = set_soft ? v : sh->rlim_soft[k];
    uint64_t nh = set_hard ? v : sh->rlim_hard[k];
    if ((set_hard && nh > sh->rlim_hard[k]) || ns > nh) {
      sh_error(sh, "ulimit: %s: cannot modify limit: %s", r->name,
               set_hard && nh > sh->rlim_hard[k] ? "Operation not permitted" : "Invalid argument");
      st = 1;
      continue;
    }
    sh->rlim_soft[k] = ns;
    sh->rlim_hard[k] = nh;
  }
  if (out.len) sh_write_fd(sh, 1, out.data, out.len);
  sh_buf_free(&out);
  return st;
}
