/*
 * archive_io.h - what tar, unzip and the other archive commands share: the
 * rules that keep extracted members inside their target directory, and
 * libarchive I/O callbacks over the command context.
 */
#ifndef SBX_CMD_UTIL_ARCHIVE_H
#define SBX_CMD_UTIL_ARCHIVE_H

#include <archive.h>

#include "cmd/cmd.h"

/* libarchive client data for arc_read_cb / arc_write_cb. */
typedef struct arc_io {
  cmd_ctx *ctx;     /* whose io table to use */
  int fd;           /* the archive's fd (1: buffered stdout) */
  char buf[65536];  /* read buffer */
} arc_io;

la_ssize_t arc_read_cb(struct archive *a, void *ud, const void **buf);
la_ssize_t arc_write_cb(struct archive *a, void *ud, const void *buf, size_t n);

/* True when a member name has a ".." component (never extracted). */
bool arc_has_dotdot(const char *name);

/*
 * Creates the directories above `full` that lie below its first `base_len`
 * bytes, never following a symlink: returns 0, -ELOOP when a component is a
 * symlink (an archive could plant one to write outside), -ENOTDIR, or -errno.
 */
int arc_make_parents(cmd_ctx *ctx, const char *full, size_t base_len);

/* Joins a and b with one '/' (malloc'd, NULL on OOM). */
char *arc_join(const char *a, const char *b);

#endif
