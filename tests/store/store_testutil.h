/*
 * store_testutil.h - small helpers shared by the tests/store/test_*.c programs:
 * opening a fresh in-memory store, one-line SQL queries against the store's
 * database (to look at the AgentFS tables directly), temp files, and the
 * checks of what a symlink reads and where a path resolves.
 */
#ifndef SBX_TESTS_STORE_TESTUTIL_H
#define SBX_TESTS_STORE_TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "store/store.h"

/* store_open(path, flags), or the program exits 2 after saying what failed
 * (`what`: which store it was). */
static inline store *tu_open(const char *path, int flags, const char *what) {
  store *s = NULL;
  char *msg = NULL;
  int rc = store_open(path, flags, &s, &msg);
  if (rc) {
    fprintf(stderr, "%s: %d %s\n", what, rc, msg ? msg : "");
    exit(2);
  }
  free(msg);
  return s;
}

/* A fresh in-memory store (aborts the program if that fails). */
static inline store *tu_mem(void) { return tu_open(NULL, STORE_OPEN_MEMORY, "store_open(memory)"); }

/* The first column of the first row of `sql` as an integer (-999 if none). */
static inline long long tu_int(store *s, const char *sql) {
  sqlite3_stmt *q = NULL;
  long long v = -999;
  if (sqlite3_prepare_v2(store_db(s), sql, -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW)
    v = sqlite3_column_int64(q, 0);
  sqlite3_finalize(q);
  return v;
}

/* The first column of the first row of `sql` as text into buf ("" if none). */
static inline const char *tu_text(store *s, const char *sql, char *buf, size_t n) {
  sqlite3_stmt *q = NULL;
  buf[0] = 0;
  if (sqlite3_prepare_v2(store_db(s), sql, -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
    snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  return buf;
}

static inline int tu_exec(store *s, const char *sql) {
  return sqlite3_exec(store_db(s), sql, NULL, NULL, NULL);
}

/* A unique path in a fresh temp directory (not created). Caller frees. */
static inline char *tu_tmp_path(const char *name) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  char tmpl[4096];
  snprintf(tmpl, sizeof tmpl, "%s/sbx-store-test-XXXXXX", base);
  if (!mkdtemp(tmpl)) {
    perror("mkdtemp");
    exit(2);
  }
  size_t n = strlen(tmpl) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", tmpl, name);
  return p;
}

/* Removes a database file with its -wal and -shm beside it. */
static inline void tu_unlink_db(const char *path) {
  char buf[4200];
  unlink(path);
  snprintf(buf, sizeof buf, "%s-wal", path);
  unlink(buf);
  snprintf(buf, sizeof buf, "%s-shm", path);
  unlink(buf);
}

/* A new store in a fresh temp file named name; its path goes to *path (the
 * caller ends with tu_rm_db). Exits the program if the store cannot be made. */
static inline store *tu_file(const char *name, char **path) {
  *path = tu_tmp_path(name);
  return tu_open(*path, 0, name);
}

/* Removes a database file made by tu_tmp_path, its -wal/-shm and the dir. */
static inline void tu_rm_db(char *path) {
  tu_unlink_db(path);
  char *slash = strrchr(path, '/');
  if (slash) {
    *slash = 0;
    rmdir(path);
  }
  free(path);
}

/* The number of fs_data rows (chunks) the file ino has in the store. */
static inline long long tu_chunk_rows(store *s, store_ino ino) {
  char sql[100];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM fs_data WHERE ino = %lld", (long long)ino);
  return tu_int(s, sql);
}

/* Reads a whole file through the path API into a NUL-terminated string
 * compared with `want` (length-exact). */
static inline int tu_file_is(store *s, const char *path, const char *want, size_t n) {
  void *d = NULL;
  size_t len = 0;
  int rc = store_path_read_file(s, NULL, path, &d, &len);
  int ok = rc == 0 && len == n && memcmp(d, want, n) == 0;
  free(d);
  return ok;
}

/* Checks that the symlink at path (from directory cwd, NULL: the root) reads
 * back as target: store_path_readlink succeeds and gives exactly that. */
static inline void check_readlink(store *s, const char *cwd, const char *path,
                                  const char *target) {
  char *got = NULL;
  CHECK_EQ(store_path_readlink(s, cwd, path, &got), 0);
  CHECK_STR(got, target);
  free(got);
}

/* Checks that path (from directory cwd, NULL: the root) resolves to the
 * canonical path want: store_realpath succeeds and gives exactly that. */
static inline void check_realpath(store *s, const char *cwd, const char *path, const char *want) {
  char *got = NULL;
  CHECK_EQ(store_realpath(s, cwd, path, &got), 0);
  CHECK_STR(got, want);
  free(got);
}

#endif
