/*
 * test_archive.c - gzip, tar, zip and unzip on hostile input: members that try
 * to leave the target directory, symlinks planted to redirect extraction,
 * decompression bombs against the quota, corrupt data. Each runs the real
 * command over an in-memory store through cmd_run_standalone.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <zlib.h>
#include <zstd.h>

#include "cmd/cmd.h"
#include "cmd_testutil.h"
#include "harness.h"

static store *st;

/* Runs argv (NULL-terminated) in cwd "/w"; returns the status, keeps stderr. */
static int run(char **argv, char **err_out) {
  int argc = 0;
  while (argv[argc]) argc++;
  cmd_standalone_result r;
  cmd_run_standalone(st, "/w", argc, argv, NULL, 0, &r);
  free(r.out);
  if (err_out) *err_out = r.err;
  else free(r.err);
  return r.status;
}

static bool exists(const char *path) {
  store_stat s;
  return store_path_lstat(st, "/w", path, &s) == 0;
}

static void fresh(void) {
  store_path_remove_tree(st, "/", "/w");
  store_path_remove_tree(st, "/", "/etc");
  store_path_mkdir_p(st, "/", "/w", 0755);
}

/* Builds a tar (or zip) in memory with libarchive from (name, type, data) triples. */
typedef struct member { const char *name; char type; const char *data; } member;

static void write_archive(const char *path, bool zip, const member *m) {
  struct archive *a = archive_write_new();
  if (zip) archive_write_set_format_zip(a); else archive_write_set_format_pax_restricted(a);
  static char buf[1 << 16];
  size_t used = 0;
  archive_write_open_memory(a, buf, sizeof buf, &used);
  for (; m->name; m++) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, m->name);
    if (m->type == 'l') {
      archive_entry_set_filetype(e, AE_IFLNK);
      archive_entry_set_perm(e, 0777);
      archive_entry_set_symlink(e, m->data);
      archive_entry_set_size(e, 0);
    } else {
      archive_entry_set_filetype(e, AE_IFREG);
      archive_entry_set_perm(e, 0644);
      archive_entry_set_size(e, (la_int64_t)strlen(m->data));
    }
    archive_write_header(a, e);
    if (m->type != 'l') archive_write_data(a, m->data, strlen(m->data));
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  store_path_write_file(st, "/w", path, buf, used, 0644, 0);
}

TEST(gzip_round_trip_keeps_content_and_removes_the_original) {
  fresh();
  REQUIRE(store_path_write_file(st, "/w", "a", "hello\n", 6, 0640, 0) == 0);
  CHECK_EQ(run((char *[]){"gzip", "a", NULL}, NULL), 0);
  CHECK(!exists("a"));
  CHECK(exists("a.gz"));
  CHECK_EQ(run((char *[]){"gunzip", "a.gz", NULL}, NULL), 0);
  char *data; size_t len;
  REQUIRE(store_path_read_file(st, "/w", "a", (void **)&data, &len) == 0);
  CHECK_EQ(len, 6); CHECK(memcmp(data, "hello\n", 6) == 0);
  free(data);
  store_stat s;
  store_path_stat(st, "/w", "a", &s);
  CHECK_EQ(s.mode & 0777, 0640);
}

/* What both decompression-bomb tests check once the bomb is built: written
 * to /w/name under a 4 MiB quota, argv fails with "No space left on device",
 * leaves no "bomb" behind and keeps name; the quota is lifted afterwards. */
static void check_bomb_stops_at_quota(const char *name, const void *bomb, size_t len,
                                      char **argv) {
  REQUIRE(store_path_write_file(st, "/w", name, bomb, len, 0644, 0) == 0);
  store_quota q = {.max_bytes = 4u << 20};
  store_set_quota(st, &q);
  char *err = NULL;
  CHECK_EQ(run(argv, &err), 1);
  CHECK(err && strstr(err, "No space left on device"));
  free(err);
  CHECK(!exists("bomb"));
  CHECK(exists(name));
  store_quota none = {0};
  store_set_quota(st, &none);
}

TEST(gunzip_bomb_stops_at_quota_and_leaves_nothing) {
  fresh();
  /* 64 MiB of zeros deflate to ~64 KiB. */
  size_t n = 64u << 20;
  unsigned char *zeros = calloc(1, n);
  uLong bound = compressBound((uLong)n) + 32;
  unsigned char *gz = malloc(bound);
  z_stream zs = {0};
  deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
  zs.next_in = zeros; zs.avail_in = (uInt)n; zs.next_out = gz; zs.avail_out = (uInt)bound;
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  size_t gzlen = zs.total_out;
  deflateEnd(&zs);
  free(zeros);
  check_bomb_stops_at_quota("bomb.gz", gz, gzlen, (char *[]){"gunzip", "bomb.gz", NULL});
  free(gz);
}

TEST(gunzip_rejects_corrupt_data) {
  fresh();
  REQUIRE(store_path_write_file(st, "/w", "x.gz", "\x1f\x8b\x08\x00garbage-garbage", 19, 0644, 0) == 0);
  char *err = NULL;
  CHECK_EQ(run((char *[]){"gunzip", "x.gz", NULL}, &err), 1);
  CHECK(err && strstr(err, "x.gz"));
  free(err);
  CHECK(!exists("x"));
}

/* The step both hostile-tar tests share: writes members m as the tar archive
 * /w/name, extracts it into a new /w/out with `tar xflags name -C out` and
 * checks that tar exits 2 with want in its stderr. */
static void extract_tar_expecting_refusal(const char *name, const member *m, const char *xflags,
                                          const char *want) {
  write_archive(name, false, m);
  store_path_mkdir(st, "/w", "out", 0755);
  char *err = NULL;
  CHECK_EQ(run((char *[]){"tar", (char *)xflags, (char *)name, "-C", "out", NULL}, &err), 2);
  CHECK(err && strstr(err, want));
  free(err);
}

TEST(tar_refuses_dotdot_and_strips_absolute_names) {
  fresh();
  member m[] = {{"../evil", 'f', "e"}, {"ok/../../x", 'f', "e"}, {"/abs", 'f', "a"},
                {"fine", 'f', "f"}, {NULL, 0, NULL}};
  extract_tar_expecting_refusal("evil.tar", m, "xf", "tar: ../evil: Member name contains '..'");
  CHECK(!exists("/evil") && !exists("/w/evil") && !exists("/x") && !exists("/w/x"));
  CHECK(exists("out/abs"));
  CHECK(exists("out/fine"));
  CHECK(!exists("/abs"));
}

TEST(tar_does_not_follow_a_planted_symlink) {
  fresh();
  store_path_mkdir_p(st, "/", "/etc", 0755);
  member m[] = {{"link", 'l', "/etc"}, {"link/passwd", 'f', "pwned"}, {NULL, 0, NULL}};
  extract_tar_expecting_refusal("plant.tar", m, "-xf", "link/passwd");
  CHECK(!exists("/etc/passwd"));
  CHECK(exists("out/link"));
}

TEST(tar_round_trip_with_compression) {
  fresh();
  store_path_mkdir_p(st, "/w", "d/e", 0755);
  store_path_write_file(st, "/w", "d/a", "one", 3, 0644, 0);
  store_path_write_file(st, "/w", "d/e/b", "two", 3, 0600, 0);
  store_path_symlink(st, "/w", "a", "d/l");
  const char *flags[] = {"czf", "cjf", "cJf"};
  const char *xflags[] = {"xzf", "xjf", "xJf"};
  for (int i = 0; i < 3; i++) {
    CHECK_EQ(run((char *[]){"tar", (char *)flags[i], "x.t", "d", NULL}, NULL), 0);
    store_path_mkdir(st, "/w", "o", 0755);
    CHECK_EQ(run((char *[]){"tar", (char *)xflags[i], "x.t", "-C", "o", NULL}, NULL), 0);
    char *data; size_t len;
    REQUIRE(store_path_read_file(st, "/w", "o/d/e/b", (void **)&data, &len) == 0);
    CHECK(len == 3 && memcmp(data, "two", 3) == 0);
    free(data);
    store_stat s;
    CHECK(store_path_lstat(st, "/w", "o/d/l", &s) == 0 && S_ISLNK(s.mode));
    CHECK(store_path_stat(st, "/w", "o/d/e/b", &s) == 0 && (s.mode & 0777) == 0600);
    store_path_remove_tree(st, "/w", "o");
  }
}

TEST(unzip_refuses_dotdot_members) {
  fresh();
  member m[] = {{"../evil", 'f', "e"}, {"good", 'f', "g"}, {NULL, 0, NULL}};
  write_archive("evil.zip", true, m);
  char *err = NULL;
  CHECK_EQ(run((char *[]){"unzip", "-q", "evil.zip", "-d", "out", NULL}, &err), 1);
  CHECK(err && strstr(err, "skipped \"../\" path component(s) in ../evil"));
  free(err);
  CHECK(!exists("/w/evil") && !exists("/evil"));
  CHECK(exists("out/good"));
}

TEST(zip_then_unzip_round_trip) {
  fresh();
  store_path_mkdir_p(st, "/w", "d", 0755);
  char big[5000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 7);
  store_path_write_file(st, "/w", "d/big", big, sizeof big, 0644, 0);
  store_path_write_file(st, "/w", "d/nul", "a\0b", 3, 0644, 0);
  CHECK_EQ(run((char *[]){"zip", "-qr", "x.zip", "d", NULL}, NULL), 0);
  CHECK_EQ(run((char *[]){"unzip", "-q", "x.zip", "-d", "o", NULL}, NULL), 0);
  char *data; size_t len;
  REQUIRE(store_path_read_file(st, "/w", "o/d/big", (void **)&data, &len) == 0);
  CHECK(len == sizeof big && memcmp(data, big, len) == 0);
  free(data);
  REQUIRE(store_path_read_file(st, "/w", "o/d/nul", (void **)&data, &len) == 0);
  CHECK(len == 3 && memcmp(data, "a\0b", 3) == 0);
  free(data);
}

/* An empty member's data block is NULL with size 0: writing it must be a
 * no-op (it reached memcpy(dst, NULL, 0), undefined behaviour). */
TEST(unzip_p_of_an_empty_member) {
  fresh();
  store_path_write_file(st, "/w", "e", "", 0, 0644, 0);
  store_path_write_file(st, "/w", "a", "hi\n", 3, 0644, 0);
  CHECK_EQ(run((char *[]){"zip", "-q", "x.zip", "e", "a", NULL}, NULL), 0);
  cmd_standalone_result r;
  cmd_run_standalone(st, "/w", 5, (char *[]){"unzip", "-p", "x.zip", "e", "a", NULL}, NULL, 0, &r);
  CHECK_EQ(r.status, 0);
  CHECK(r.outlen == 3 && memcmp(r.out, "hi\n", 3) == 0);
  free(r.out);
  free(r.err);
}

TEST(unzstd_bomb_stops_at_quota_and_leaves_nothing) {
  fresh();
  /* 64 MiB of zeros compress to a few KiB. */
  size_t n = 64u << 20;
  unsigned char *zeros = calloc(1, n);
  size_t bound = ZSTD_compressBound(n);
  unsigned char *z = malloc(bound);
  size_t zlen = ZSTD_compress(z, bound, zeros, n, 3);
  free(zeros);
  REQUIRE(!ZSTD_isError(zlen));
  check_bomb_stops_at_quota("bomb.zst", z, zlen, (char *[]){"unzstd", "-q", "bomb.zst", NULL});
  free(z);
}

/* df reports the quotas as the file system's size, the usage as used. */
TEST(df_reports_quota_and_usage) {
  fresh();
  store_quota q = {.max_bytes = 10u << 20, .max_inodes = 1000};
  store_set_quota(st, &q);
  uint64_t bytes, inodes;
  REQUIRE(store_get_usage(st, &bytes, &inodes) == 0);
  char big[8192] = {0};
  REQUIRE(store_path_write_file(st, "/w", "f", big, sizeof big, 0644, 0) == 0);
  bytes += sizeof big, inodes++;
  cmd_standalone_result r;
  cmd_run_standalone(st, "/w", 1, (char *[]){"df", NULL}, NULL, 0, &r);
  CHECK_EQ(r.status, 0);
  char want[512];
  unsigned long long used = (bytes + 1023) / 1024, avail = 10240 - used;
  snprintf(want, sizeof want,
           "Filesystem     1K-blocks  Used Available Use%% Mounted on\n"
           "sbx                10240 %5llu %9llu %3llu%% /\n", used, avail,
           (used * 100 + 10239) / 10240);
  CHECK_STR(r.out, want);
  free(r.out);
  free(r.err);
  cmd_run_standalone(st, "/w", 2, (char *[]){"df", "-i", NULL}, NULL, 0, &r);
  snprintf(want, sizeof want,
           "Filesystem     Inodes IUsed IFree IUse%% Mounted on\n"
           "sbx              1000 %5llu %5llu %4llu%% /\n", (unsigned long long)inodes,
           (unsigned long long)(1000 - inodes), (unsigned long long)((inodes * 100 + 999) / 1000));
  CHECK_STR(r.out, want);
  free(r.out);
  free(r.err);
  store_quota none = {0};
  store_set_quota(st, &none);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (!(st = cmd_test_store())) return 1;
  RUN(gzip_round_trip_keeps_content_and_removes_the_original);
  RUN(gunzip_bomb_stops_at_quota_and_leaves_nothing);
  RUN(gunzip_rejects_corrupt_data);
  RUN(tar_refuses_dotdot_and_strips_absolute_names);
  RUN(tar_does_not_follow_a_planted_symlink);
  RUN(tar_round_trip_with_compression);
  RUN(unzip_refuses_dotdot_members);
  RUN(zip_then_unzip_round_trip);
  RUN(unzip_p_of_an_empty_member);
  RUN(unzstd_bomb_stops_at_quota_and_leaves_nothing);
  RUN(df_reports_quota_and_usage);
  store_close(st);
  return harness_done();
}
