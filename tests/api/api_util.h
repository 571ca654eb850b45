/*
 * api_util.h - helpers for the C API tests (tests/api, tests/compat, and the
 * tests/py programs that look at a sandbox through the C API): a private
 * scratch directory per test program, host-file helpers, short wrappers over
 * sbx_* calls (open, snapshot copy, history rows) and SQLite's integrity
 * check of a file. Header-only (static functions) so each test program is one
 * file; unused helpers are marked unused.
 */
#ifndef SBX_TESTS_API_UTIL_H
#define SBX_TESTS_API_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "sbx.h"

#define UNUSED __attribute__((unused))

static char util_scratch[256]; /* this program's scratch directory */

static int util_rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *f) {
  (void)sb; (void)flag; (void)f;
  return remove(p);
}

static void util_cleanup(void) {
  if (util_scratch[0]) nftw(util_scratch, util_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* Creates the scratch directory (under $TMPDIR or /tmp), removed at exit. */
static UNUSED const char *scratch_dir(void) {
  if (!util_scratch[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(util_scratch, sizeof util_scratch, "%s/sbx-test-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(util_scratch)) {
      perror("mkdtemp");
      exit(2);
    }
    atexit(util_cleanup);
  }
  return util_scratch;
}

/* A path in the scratch directory (static buffer rotation of 8). */
static UNUSED const char *scratch(const char *name) {
  static char bufs[8][512];
  static int i;
  char *b = bufs[i++ % 8];
  snprintf(b, sizeof bufs[0], "%s/%s", scratch_dir(), name);
  return b;
}

static UNUSED int file_exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

static UNUSED int write_host_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(data, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

/* Reads a host file into malloc'd memory; NULL on failure. */
static UNUSED void *read_host_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (len) *len = n;
  return buf;
}

static UNUSED int copy_host_file(const char *from, const char *to) {
  size_t len;
  void *data = read_host_file(from, &len);
  if (!data) return -1;
  int rc = write_host_file(to, data, len);
  free(data);
  return rc;
}

/* The fixtures directory: $SBX_SHARED/fixtures, default tests/fixtures (a copy
 * of shared/fixtures kept in the repository, so a fresh clone has it). */
static UNUSED const char *fixture(const char *name) {
  static char buf[1024];
  const char *shared = getenv("SBX_SHARED");
  snprintf(buf, sizeof buf, "%s/fixtures/%s", shared && *shared ? shared : "tests", name);
  return buf;
}

/* A new in-memory sandbox (NULL on failure, reported). */
static UNUSED sbx *open_mem(void) {
  sbx *h = NULL;
  int rc = sbx_open(NULL, SBX_OPEN_MEMORY, &h);
  if (rc != SBX_OK) {
    fprintf(stderr, "  open_mem: %s\n", sbx_errmsg(h));
    sbx_close(h);
    return NULL;
  }
  return h;
}

/* A new in-memory sandbox under these limits, or this quota (either may be
 * NULL); NULL on failure, reported. */
static UNUSED sbx *open_mem_with(const sbx_limits *lim, const sbx_quota *q) {
  sbx *h = open_mem();
  if (h && ((lim && sbx_set_limits(h, lim) != SBX_OK) ||
            (q && sbx_set_quota(h, q) != SBX_OK))) {
    fprintf(stderr, "  open_mem_with: %s\n", sbx_errmsg(h));
    sbx_close(h);
    return NULL;
  }
  return h;
}

/* A copy of h through its snapshot: the bytes of sbx_snapshot opened by
 * sbx_open_snapshot with flags; NULL on failure, reported. */
static UNUSED sbx *snapshot_copy(sbx *h, int flags) {
  void *bytes;
  size_t len;
  sbx *copy = NULL;
  if (sbx_snapshot(h, &bytes, &len) != SBX_OK) {
    fprintf(stderr, "  sbx_snapshot: %s\n", sbx_errmsg(h));
    return NULL;
  }
  if (sbx_open_snapshot(bytes, len, flags, &copy) != SBX_OK) {
    fprintf(stderr, "  sbx_open_snapshot: %s\n", copy ? sbx_errmsg(copy) : "?");
    sbx_close(copy);
    copy = NULL;
  }
  sbx_free(bytes);
  return copy;
}

/* The newest history rows (at most limit, 0: all), which must be exactly want
 * rows; NULL after saying why otherwise. Free with sbx_free. */
static UNUSED sbx_history_entry *history_exactly(sbx *h, size_t limit, size_t want) {
  sbx_history_entry *e = NULL;
  size_t n = 0;
  if (sbx_history_list(h, limit, &e, &n) != SBX_OK) {
    fprintf(stderr, "  sbx_history_list: %s\n", sbx_errmsg(h));
    return NULL;
  }
  if (n != want) {
    fprintf(stderr, "  %zu history rows, want %zu\n", n, want);
    sbx_free(e);
    return NULL;
  }
  return e;
}

/* What a test expects of one history row: its name and status, and strings
 * its error, parameters and result must contain (NULL: not checked). */
typedef struct history_want {
  const char *name;           /* the row's name */
  const char *status;         /* "success", "error" or "pending" */
  const char *error_has;      /* a part of its error */
  const char *parameters_has; /* a part of its parameters (JSON) */
  const char *result_has;     /* a part of its result */
} history_want;

/* Checks row against want, one check per field want names: the history
 * tests of the API and of the Python tools read their rows this way. */
static UNUSED void check_history_row(const sbx_history_entry *row, history_want want) {
  if (want.name) CHECK_STR(row->name, want.name);
  if (want.status) CHECK_STR(row->status, want.status);
  if (want.error_has) CHECK(row->error && strstr(row->error, want.error_has));
  if (want.parameters_has) CHECK(row->parameters && strstr(row->parameters, want.parameters_has));
  if (want.result_has) CHECK(row->result && strstr(row->result, want.result_has));
}

/* A cancel sent from another thread: started with pthread_create(&t, NULL,
 * cancel_later, &timer), the thread waits after_ms and calls sbx_cancel(h).
 * The cancel tests of the API, the shell and the jail share it; the caller
 * joins the thread before it closes h. */
typedef struct cancel_timer {
  sbx *h;       /* the sandbox to cancel */
  int after_ms; /* how long to wait first */
} cancel_timer;

static UNUSED void *cancel_later(void *arg) {
  const cancel_timer *c = arg;
  usleep((useconds_t)c->after_ms * 1000);
  sbx_cancel(c->h);
  return NULL;
}

/* Whole file as a malloc'd string, or NULL if it cannot be read. */
static UNUSED char *read_str(sbx *h, const char *path) {
  void *data;
  size_t len;
  if (sbx_read_file(h, path, &data, &len) != SBX_OK) return NULL;
  return data;
}

/* Checks that the sandbox file at path holds exactly the string want (a
 * macro, so that a failure names the caller's line). */
#define CHECK_FILE(h, path, want)          \
  do {                                     \
    char *check_file_ = read_str(h, path); \
    CHECK_STR(check_file_, want);          \
    sbx_free(check_file_);                 \
  } while (0)

static UNUSED int write_str(sbx *h, const char *path, const char *s) {
  return sbx_write_file(h, path, s, strlen(s), 0);
}

/* The size of the file at path in h (symlinks followed), or -1 when it cannot
 * be stat'ed: CHECK_EQ(sandbox_file_size(h, path), n) is how the file and
 * quota tests check what a write left. */
static UNUSED long long sandbox_file_size(sbx *h, const char *path) {
  sbx_stat st;
  if (sbx_stat_path(h, path, 0, &st) != SBX_OK) return -1;
  return (long long)st.size;
}

/* Number of entries in a directory, or -1. */
static UNUSED long count_entries(sbx *h, const char *path) {
  sbx_dirent *e;
  size_t n;
  if (sbx_listdir(h, path, &e, &n) != SBX_OK) return -1;
  sbx_free(e);
  return (long)n;
}

static UNUSED int path_exists(sbx *h, const char *path) {
  sbx_stat st;
  return sbx_stat_path(h, path, 1, &st) == SBX_OK;
}

/* A string of n copies of c (static buffer, n < 9000). */
static UNUSED const char *repeat(char c, size_t n) {
  static char buf[9000];
  if (n >= sizeof buf) n = sizeof buf - 1;
  memset(buf, c, n);
  buf[n] = '\0';
  return buf;
}

/* SQLite's own verdict on the database file at path, opened with flags
 * (SQLITE_OPEN_READONLY or _READWRITE): 1 when PRAGMA integrity_check says ok. */
static UNUSED int integrity_ok(const char *path, int flags) {
  sqlite3 *db;
  if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  sqlite3_stmt *q;
  int ok = 0;
  if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL) == SQLITE_OK) {
    ok = sqlite3_step(q) == SQLITE_ROW &&
         strcmp((const char *)sqlite3_column_text(q, 0), "ok") == 0;
    sqlite3_finalize(q);
  }
  sqlite3_close(db);
  return ok;
}

/* Entries of a /proc directory, "." and ".." left out (-1: unreadable). */
static UNUSED int count_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* Open file descriptors of this process, and its threads. */
static UNUSED int count_fds(void) {
  return count_dir("/proc/self/fd") - 1; /* the directory's own fd */
}
static UNUSED int count_threads(void) {
  return count_dir("/proc/self/task");
}

#endif
