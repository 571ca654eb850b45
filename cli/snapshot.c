/*
 * snapshot.c - `sbx DB export FILE`, `sbx import FILE DB`, `sbx fork DB NEWDB`.
 *
 * A snapshot is the sandbox's database bytes (sbx_snapshot), so an exported
 * file is itself a sandbox that any SQLite or AgentFS tool opens. Export
 * writes a temporary file beside FILE and renames it over FILE, so a failed
 * export never leaves half a snapshot. Import validates the bytes in memory
 * (sbx_open_snapshot) and then forks them into DB, which must not exist: an
 * import never overwrites a sandbox.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The reason part of a "CONTEXT: reason" message. */
static const char *reason_of(const char *msg) {
  const char *p = strstr(msg, ": ");
  return p ? p + 2 : msg;
}

/* Writes bytes to `path` through a temporary file renamed over it. */
static int write_file_atomic(const char *path, const void *bytes, size_t len) {
  size_t n = strlen(path) + sizeof ".sbx-XXXXXX";
  char *tmp = malloc(n);
  if (!tmp) return ENOMEM;
  snprintf(tmp, n, "%s.sbx-XXXXXX", path);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return e;
  }
  mode_t mask = umask(0);
  umask(mask);
  int e = cli_write_all(fd, bytes, len);
  if (!e && fchmod(fd, 0666 & ~mask) != 0) e = errno;
  if (!e && fsync(fd) != 0) e = errno;
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) unlink(tmp);
  free(tmp);
  return e;
}

int cli_export_main(cli_ctx *c, int argc, char **argv) {
  if (argc != 2) return cli_usage("export");
  const char *file = argv[1];
  void *bytes;
  size_t len;
  if (sbx_snapshot(c->h, &bytes, &len) != SBX_OK) return cli_fail(c, "export", file);
  int e;
  if (strcmp(file, "-") == 0) {
    fflush(stdout);
    e = cli_write_all(1, bytes, len);
  } else {
    e = write_file_atomic(file, bytes, len);
  }
  sbx_free(bytes);
  return e ? cli_error("export %s: %s", file, strerror(e)) : 0;
}

int cli_import_main(cli_ctx *c, int argc, char **argv) {
  if (argc != 3) return cli_usage("import");
  const char *file = argv[1], *db = argv[2];
  struct stat sb;
  if (stat(db, &sb) == 0) return cli_error("import %s: %s", db, strerror(EEXIST));
  char *bytes;
  size_t len;
  int e = cli_read_host_file(file, &bytes, &len);
  if (e) return cli_error("import %s: %s", file, strerror(e));
  sbx *h = NULL;
  int rc = sbx_open_snapshot(bytes, len, SBX_OPEN_MEMORY, &h);
  free(bytes);
  if (rc != SBX_OK) {
    cli_error("import %s: %s", file, h ? reason_of(sbx_errmsg(h)) : "out of memory");
    sbx_close(h);
    return 1;
  }
  c->h = h; /* closed by main() */
  if (sbx_fork(h, db, NULL) != SBX_OK) return cli_fail(c, "import", db);
  return 0;
}

int cli_fork_main(cli_ctx *c, int argc, char **argv) {
  if (argc != 3) return cli_usage("fork");
  c->db = argv[1];
  if (cli_open(c, 0) != 0) return 1;
  if (sbx_fork(c->h, argv[2], NULL) != SBX_OK) return cli_fail(c, "fork", argv[2]);
  return 0;
}
