/*
 * test_limits.c - the default bounds of a sandbox (docs/limits.md): the
 * default disk quota, and what happens at the quota and when the host's own
 * filesystem is full.
 *
 * The disk tests put the sandbox file on a small tmpfs mounted for the test
 * (the tests run as root); a failed mount fails the test, it is not skipped.
 * They show: the quota error is clear and leaves the host filesystem with
 * room; a full host filesystem gives a clear error too, and the sandbox stays
 * whole (every file written before is intact, the database passes SQLite's
 * integrity check, writes work again once there is room).
 */
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include "api_util.h"

/* ---- helpers ------------------------------------------------------------------------ */

static char mnt[512]; /* the tmpfs mount point, "" when not mounted */

static void unmount_tmpfs(void) {
  if (mnt[0]) {
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    mnt[0] = 0;
  }
}

/* Mounts a tmpfs of `mib` MiB at a fresh directory; returns its path or NULL. */
static const char *mount_tmpfs(int mib) {
  snprintf(mnt, sizeof mnt, "%s", scratch("tmpfs-XXXXXX"));
  if (!mkdtemp(mnt)) {
    perror("mkdtemp");
    mnt[0] = 0;
    return NULL;
  }
  char opts[64];
  snprintf(opts, sizeof opts, "size=%dm,mode=0755", mib);
  if (mount("tmpfs", mnt, "tmpfs", 0, opts) != 0) {
    fprintf(stderr, "  mount tmpfs at %s: %s\n", mnt, strerror(errno));
    rmdir(mnt);
    mnt[0] = 0;
    return NULL;
  }
  return mnt;
}

/* Bytes used on the filesystem holding `path`. */
static uint64_t fs_used(const char *path) {
  struct statvfs v;
  if (statvfs(path, &v) != 0) return UINT64_MAX;
  return (uint64_t)(v.f_blocks - v.f_bfree) * v.f_frsize;
}

/* Runs a script; returns its exit code, with stderr copied into err. */
static int run(sbx *h, const char *script, char *err, size_t errsz) {
  sbx_bash_result r;
  int rc = sbx_bash(h, script, strlen(script), &r);
  if (rc != SBX_OK) {
    snprintf(err, errsz, "sbx_bash: %d %s", rc, sbx_errmsg(h));
    return -1;
  }
  int code = r.exit_code;
  snprintf(err, errsz, "%.*s", (int)r.err_len, r.err ? r.err : "");
  sbx_bash_result_free(&r);
  return code;
}

/* The step both full-disk tests share: for each N in numbers (shell words),
 * writes size random bytes to /data/<prefix>N until a write fails; checks
 * that one did, with "No space left on device" in err (its stderr, kept for
 * more checks). */
static void check_writes_end_in_enospc(sbx *h, const char *numbers, long size,
                                       const char *prefix, char *err, size_t errsz) {
  char script[256];
  snprintf(script, sizeof script,
           "for i in %s; do head -c %ld /dev/urandom > /data/%s$i || exit 3; done", numbers, size,
           prefix);
  CHECK_EQ(run(h, script, err, errsz), 3);
  CHECK(strstr(err, "No space left on device") != NULL);
}

/* ---- the default quota ---------------------------------------------------------------- */

TEST(new_sandbox_has_default_quota) {
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  sbx_quota q;
  REQUIRE(sbx_get_quota(h, &q) == SBX_OK);
  CHECK_EQ(q.max_bytes, SBX_QUOTA_DEFAULT_BYTES);
  CHECK_EQ(q.max_inodes, SBX_QUOTA_DEFAULT_INODES);
  CHECK_EQ(SBX_QUOTA_DEFAULT_BYTES, 1ull << 30);
  CHECK_EQ(SBX_QUOTA_DEFAULT_INODES, 100000);
  char err[512];
  /* Sizes count logically: a 2 GiB sparse file is over the default, at once. */
  CHECK_EQ(run(h, "truncate -s 2G /data/big", err, sizeof err), 1);
  CHECK(strstr(err, "No space left on device") != NULL);
  CHECK_EQ(run(h, "test -e /data/big || echo gone", err, sizeof err), 0);
  CHECK_EQ(run(h, "truncate -s 900M /data/big", err, sizeof err), 0);
  sbx_close(h);
}

TEST(unlimited_only_when_asked) {
  sbx *h;
  REQUIRE(sbx_open(NULL, SBX_OPEN_MEMORY, &h) == SBX_OK);
  sbx_quota q = {SBX_QUOTA_UNLIMITED, SBX_QUOTA_UNLIMITED, SBX_QUOTA_UNLIMITED};
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  char err[512];
  CHECK_EQ(run(h, "truncate -s 2G /data/big && stat -c %s /data/big", err, sizeof err), 0);
  sbx_quota back;
  REQUIRE(sbx_get_quota(h, &back) == SBX_OK);
  CHECK_EQ(back.max_bytes, 0);
  sbx_close(h);
  /* a fork starts with the defaults again: the quota is the handle's */
  REQUIRE(sbx_open(NULL, SBX_OPEN_TEMP, &h) == SBX_OK);
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  sbx *copy;
  const char *fpath = scratch("fork.db");
  REQUIRE(sbx_fork(h, fpath, &copy) == SBX_OK);
  REQUIRE(sbx_get_quota(copy, &back) == SBX_OK);
  CHECK_EQ(back.max_bytes, SBX_QUOTA_DEFAULT_BYTES);
  sbx_close(copy);
  sbx_close(h);
}

/* ---- at the quota and at the host's limit, on a small tmpfs -------------------------------- */

TEST(quota_error_on_small_tmpfs_leaves_host_room) {
  const char *dir = mount_tmpfs(8);
  REQUIRE(dir != NULL);
  char dbpath[600];
  snprintf(dbpath, sizeof dbpath, "%s/quota.db", dir);
  uint64_t before = fs_used(dir);
  sbx *h;
  REQUIRE(sbx_open(dbpath, 0, &h) == SBX_OK);
  sbx_quota q = {.max_bytes = 2u << 20};
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK);
  char err[512];
  check_writes_end_in_enospc(h, "1 2 3 4 5 6 7 8", 700000, "f", err, sizeof err);
  /* the files before the quota are whole; the one that hit it is not there
   * with partial bytes counted beyond the quota */
  CHECK_EQ(run(h, "test \"$(cat /data/f1 /data/f2 | wc -c)\" = 1400000", err, sizeof err), 0);
  CHECK_EQ(run(h, "s=$(stat -c %s /data/f3 2>/dev/null || echo 0); test $s -le 700000", err,
               sizeof err),
           0);
  sbx_close(h);
  /* the host filesystem has the sandbox (a little over the quota) and room left */
  uint64_t used = fs_used(dir);
  CHECK(used - before < (4u << 20));
  struct statvfs v;
  REQUIRE(statvfs(dir, &v) == 0);
  CHECK((uint64_t)v.f_bavail * v.f_frsize > (3u << 20));
  CHECK(integrity_ok(dbpath, SQLITE_OPEN_READONLY));
  unmount_tmpfs();
}

TEST(host_disk_full_is_a_clear_error_and_the_sandbox_survives) {
  const char *dir = mount_tmpfs(8);
  REQUIRE(dir != NULL);
  char dbpath[600];
  snprintf(dbpath, sizeof dbpath, "%s/full.db", dir);
  sbx *h;
  REQUIRE(sbx_open(dbpath, 0, &h) == SBX_OK);
  sbx_quota q = {SBX_QUOTA_UNLIMITED, SBX_QUOTA_UNLIMITED, SBX_QUOTA_UNLIMITED};
  REQUIRE(sbx_set_quota(h, &q) == SBX_OK); /* asked for: the host is the limit */
  /* another user of the host filesystem, holding 2 MiB of it */
  char ballast[600];
  snprintf(ballast, sizeof ballast, "%s/ballast", dir);
  FILE *bf = fopen(ballast, "w");
  REQUIRE(bf != NULL);
  static char mib[1 << 20];
  for (int i = 0; i < 2; i++) fwrite(mib, 1, sizeof mib, bf);
  REQUIRE(fclose(bf) == 0);
  char err[1024];
  CHECK_EQ(run(h, "head -c 500000 /dev/urandom > /data/keep; md5sum /data/keep > /data/keep.md5",
               err, sizeof err),
           0);
  /* the error says what happened (not "Input/output error") */
  check_writes_end_in_enospc(h, "$(seq 1 40)", 500000, "g", err, sizeof err);
  CHECK(strstr(err, "Input/output error") == NULL);
  /* the sandbox is whole: what was written before reads back intact */
  CHECK_EQ(run(h, "md5sum -c --quiet /data/keep.md5 && test -s /data/g1", err, sizeof err), 0);
  /* the host gets room again: the sandbox deletes and writes again */
  REQUIRE(unlink(ballast) == 0);
  int code = run(h, "for f in /data/g*; do rm \"$f\" || exit 1; done", err, sizeof err);
  if (code) fprintf(stderr, "  rm: %s\n", err);
  CHECK_EQ(code, 0);
  CHECK_EQ(run(h, "echo again > /data/after && cat /data/after", err, sizeof err), 0);
  sbx_close(h);
  CHECK(integrity_ok(dbpath, SQLITE_OPEN_READONLY));
  REQUIRE(sbx_open(dbpath, SBX_OPEN_NOCREATE, &h) == SBX_OK);
  CHECK_EQ(run(h, "md5sum -c --quiet /data/keep.md5 && test -s /data/after && ! test -e /data/g1",
               err, sizeof err),
           0);
  sbx_close(h);
  unmount_tmpfs();
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  atexit(unmount_tmpfs);
  RUN(new_sandbox_has_default_quota);
  RUN(unlimited_only_when_asked);
  RUN(quota_error_on_small_tmpfs_leaves_host_room);
  RUN(host_disk_full_is_a_clear_error_and_the_sandbox_survives);
  unmount_tmpfs();
  return harness_done();
}
