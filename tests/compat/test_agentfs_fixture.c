/*
 * test_agentfs_fixture.c - AgentFS compatibility, direction 1: a database
 * written by the AgentFS TypeScript SDK (shared/fixtures/agentfs-0.4-sample.db,
 * see its README) read through the public C API gives exactly its files,
 * bytes, symlinks, metadata, kv values and tool calls.
 *
 * The fixture is copied to a scratch directory first and never opened in
 * place; the test also checks that its bytes did not change. File contents
 * are compared with the chunks read straight from fs_data with SQLite, so the
 * expectation does not go through the code under test. The fixture lives in
 * $SBX_SHARED/fixtures (default tests/fixtures, the repository's copy).
 */
#include <jansson.h>
#include <sqlite3.h>

#include "api/api_util.h"

static char fixture_copy[600]; /* the scratch copy every test opens */
static void *fixture_bytes;     /* the fixture's bytes before the tests */
static size_t fixture_len;      /* their length */

/* The file's bytes from fs_data directly (chunks in order), or NULL. */
static unsigned char *raw_file(const char *db, int64_t ino, size_t *len) {
  sqlite3 *s;
  if (sqlite3_open_v2(db, &s, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) return NULL;
  sqlite3_stmt *st;
  unsigned char *buf = NULL;
  size_t n = 0;
  if (sqlite3_prepare_v2(s, "SELECT data FROM fs_data WHERE ino = ? ORDER BY chunk_index",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_int64(st, 1, ino);
    buf = malloc(1);
    while (buf && sqlite3_step(st) == SQLITE_ROW) {
      int l = sqlite3_column_bytes(st, 0);
      unsigned char *nb = realloc(buf, n + (size_t)l + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      memcpy(buf + n, sqlite3_column_blob(st, 0), (size_t)l);
      n += (size_t)l;
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(s);
  *len = n;
  return buf;
}

static int json_same(const char *a, const char *b) {
  json_t *x = json_loads(a, JSON_DECODE_ANY, NULL), *y = json_loads(b, JSON_DECODE_ANY, NULL);
  int eq = x && y && json_equal(x, y);
  json_decref(x);
  json_decref(y);
  return eq;
}

/* The copy of the fixture; the tests that only read open it read-only, so
 * the history rows of their own file reads (sandbox_history.c) leave the
 * SDK's tool_calls as they are. */
static sbx *open_copy(int flags) {
  sbx *h = NULL;
  if (sbx_open(fixture_copy, SBX_OPEN_NOCREATE | flags, &h) != SBX_OK) {
    fprintf(stderr, "  open %s: %s\n", fixture_copy, sbx_errmsg(h));
    sbx_close(h);
    return NULL;
  }
  return h;
}

TEST(tree_has_exactly_the_listed_entries) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  struct {
    const char *dir;
    const char *names[9];
  } want[] = {
      {"/", {"README.md", "copy-of-readme.md", "data", "empty.txt", "emptydir", "readme-link",
             "renamed.txt", "src", NULL}},
      {"/src", {"lib", "main.c", "rel-link", NULL}},
      {"/src/lib", {"util.h", NULL}},
      {"/data", {"blob.bin", "small.bin", NULL}},
      {"/emptydir", {NULL}},
  };
  for (size_t d = 0; d < sizeof want / sizeof want[0]; d++) {
    sbx_dirent *e;
    size_t n;
    REQUIRE(sbx_listdir(h, want[d].dir, &e, &n) == SBX_OK);
    size_t k = 0;
    while (want[d].names[k]) k++;
    CHECK_EQ(n, k);
    for (size_t i = 0; i < n && i < k; i++) CHECK_STR(e[i].name, want[d].names[i]);
    sbx_free(e);
  }
  sbx_close(h);
}

/* The regular files of the fixture. */
static const char *const fixture_files[] = {
    "/README.md",     "/empty.txt",      "/src/main.c",  "/src/lib/util.h",
    "/data/blob.bin", "/data/small.bin", "/renamed.txt", "/copy-of-readme.md"};
#define NFIXTURE_FILES (sizeof fixture_files / sizeof fixture_files[0])

TEST(every_inode_has_the_sdk_metadata) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  const char *dirs[] = {"/", "/src", "/src/lib", "/data", "/emptydir"};
  const char *links[] = {"/readme-link", "/src/rel-link"};
  sbx_stat st;
  for (size_t i = 0; i < NFIXTURE_FILES; i++) {
    REQUIRE(sbx_stat_path(h, fixture_files[i], 1, &st) == SBX_OK);
    CHECK_EQ(st.mode, 33188);
    CHECK_EQ(st.type, SBX_TYPE_FILE);
    CHECK_EQ(st.nlink, 1);
    CHECK_EQ(st.uid, 0);
    CHECK_EQ(st.gid, 0);
    CHECK_EQ(st.mtime_nsec, 0);
  }
  for (size_t i = 0; i < 5; i++) {
    REQUIRE(sbx_stat_path(h, dirs[i], 1, &st) == SBX_OK);
    CHECK_EQ(st.mode, 16877);
    CHECK_EQ(st.type, SBX_TYPE_DIR);
    CHECK_EQ(st.nlink, 1); /* the TypeScript SDK's directory nlink */
  }
  for (size_t i = 0; i < 2; i++) {
    REQUIRE(sbx_stat_path(h, links[i], 1, &st) == SBX_OK);
    CHECK_EQ(st.mode, 41471);
    CHECK_EQ(st.type, SBX_TYPE_SYMLINK);
    CHECK_EQ(st.size, 10);
  }
  REQUIRE(sbx_stat_path(h, "/", 0, &st) == SBX_OK);
  CHECK_EQ(st.ino, 1);
  CHECK_EQ(sandbox_file_size(h, "/data/blob.bin"), 102400);
  CHECK_EQ(sandbox_file_size(h, "/data/small.bin"), 5000);
  CHECK_EQ(sandbox_file_size(h, "/empty.txt"), 0);
  sbx_close(h);
}

TEST(file_bytes_match_the_stored_chunks) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  for (size_t i = 0; i < NFIXTURE_FILES; i++) {
    sbx_stat st;
    REQUIRE(sbx_stat_path(h, fixture_files[i], 0, &st) == SBX_OK);
    size_t rawlen;
    unsigned char *raw = raw_file(fixture_copy, st.ino, &rawlen);
    REQUIRE(raw);
    void *got;
    size_t len;
    REQUIRE(sbx_read_file(h, fixture_files[i], &got, &len) == SBX_OK);
    CHECK_EQ(len, rawlen);
    CHECK_EQ(len, st.size);
    CHECK(len == rawlen && memcmp(got, raw, len) == 0);
    sbx_free(got);
    free(raw);
  }
  CHECK_FILE(h, "/README.md", "hello from agentfs fixture v1\n\n");
  CHECK_FILE(h, "/renamed.txt", "rename me\n");
  /* blob.bin: byte i = (i*7+3) & 0xff, 25 chunks of 4096 */
  void *blob;
  size_t len;
  REQUIRE(sbx_read_file(h, "/data/blob.bin", &blob, &len) == SBX_OK);
  REQUIRE(len == 102400);
  int bad = 0;
  for (size_t i = 0; i < len; i++)
    if (((unsigned char *)blob)[i] != (unsigned char)((i * 7 + 3) & 0xff)) bad++;
  CHECK_EQ(bad, 0);
  sbx_free(blob);
  sbx_close(h);
}

TEST(symlinks_have_their_targets) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  char *t;
  REQUIRE(sbx_readlink(h, "/readme-link", &t) == SBX_OK);
  CHECK_STR(t, "/README.md");
  sbx_free(t);
  REQUIRE(sbx_readlink(h, "/src/rel-link", &t) == SBX_OK);
  CHECK_STR(t, "lib/util.h");
  sbx_free(t);
  CHECK_FILE(h, "/readme-link", "hello from agentfs fixture v1\n\n");
  CHECK_FILE(h, "/src/rel-link", "static inline int util(void){return 0;}\n");
  sbx_close(h);
}

TEST(kv_values_are_the_listed_json) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  char **keys;
  size_t n;
  REQUIRE(sbx_kv_keys(h, "", &keys, &n) == SBX_OK);
  REQUIRE(n == 4);
  CHECK_STR(keys[0], "config");
  CHECK_STR(keys[1], "counter");
  CHECK_STR(keys[2], "list");
  CHECK_STR(keys[3], "user:name");
  sbx_free(keys);
  const char *want[][2] = {{"user:name", "\"alice\""},
                           {"config", "{\"theme\":\"dark\",\"n\":3}"},
                           {"counter", "42"},
                           {"list", "[1,\"two\",null]"}};
  for (size_t i = 0; i < 4; i++) {
    char *v;
    REQUIRE(sbx_kv_get(h, want[i][0], &v) == SBX_OK);
    CHECK(json_same(v, want[i][1]));
    sbx_free(v);
  }
  sbx_close(h);
}

TEST(tool_calls_are_the_listed_ones) {
  sbx *h = open_copy(SBX_OPEN_READONLY);
  REQUIRE(h);
  sbx_history_entry *e;
  size_t n;
  REQUIRE(sbx_history_list(h, 0, &e, &n) == SBX_OK);
  REQUIRE(n == 4);
  /* newest first: ids 4, 3, 2, 1 */
  CHECK_EQ(e[0].id, 4);
  CHECK_STR(e[0].name, "execute_code");
  CHECK_STR(e[0].status, "pending");
  CHECK(e[0].completed_at == -1 && e[0].duration_ms == -1);
  CHECK(json_same(e[0].parameters, "{\"code\":\"print(1)\"}"));
  CHECK_EQ(e[1].id, 3);
  CHECK_STR(e[1].name, "read_file");
  CHECK_STR(e[1].status, "success");
  CHECK(json_same(e[1].result, "{\"bytes\":31}"));
  CHECK_EQ(e[2].id, 2);
  CHECK_STR(e[2].name, "api_call");
  CHECK_STR(e[2].status, "error");
  CHECK_STR(e[2].error, "timeout");
  CHECK(e[2].result == NULL);
  CHECK(e[2].completed_at > 1700000010.2 && e[2].completed_at < 1700000010.4); /* REAL */
  CHECK(e[2].duration_ms > 299.9 && e[2].duration_ms < 300.1);
  CHECK_EQ(e[3].id, 1);
  CHECK_STR(e[3].name, "web_search");
  CHECK_STR(e[3].status, "success");
  CHECK(json_same(e[3].parameters, "{\"query\":\"AI\"}"));
  CHECK(json_same(e[3].result, "{\"results\":[\"a\",\"b\"]}"));
  CHECK(e[3].started_at == 1700000000.0);
  CHECK(e[3].completed_at == 1700000001.5);
  CHECK(e[3].duration_ms == 1500.0);
  sbx_free(e);
  sbx_close(h);
}

TEST(sbx_writes_into_the_sdk_database) {
  sbx *h = open_copy(0);
  REQUIRE(h);
  CHECK_EQ(sbx_write_file(h, "/new/from-sbx.txt", "sbx was here\n", 13, SBX_WRITE_MKDIRS),
           SBX_OK);
  CHECK_EQ(sbx_kv_set(h, "added", "{\"by\":\"sbx\"}"), SBX_OK);
  int64_t id;
  CHECK_EQ(sbx_history_start(h, "sbx_tool", "{}", &id), SBX_OK);
  CHECK_EQ(id, 6); /* after the SDK's 4 calls and the write_file above */
  CHECK_EQ(sbx_remove(h, "/renamed.txt", 0), SBX_OK);
  sbx_close(h);
  h = open_copy(0);
  REQUIRE(h);
  CHECK_FILE(h, "/new/from-sbx.txt", "sbx was here\n");
  CHECK(!path_exists(h, "/renamed.txt"));
  CHECK_FILE(h, "/README.md", "hello from agentfs fixture v1\n\n"); /* the SDK's data is intact */
  sbx_close(h);
}

TEST(fixture_is_unchanged) {
  size_t len;
  void *now = read_host_file(fixture("agentfs-0.4-sample.db"), &len);
  REQUIRE(now);
  CHECK(len == fixture_len && memcmp(now, fixture_bytes, len) == 0);
  free(now);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  const char *src = fixture("agentfs-0.4-sample.db");
  fixture_bytes = read_host_file(src, &fixture_len);
  if (!fixture_bytes) {
    fprintf(stderr, "fixture %s not found (set SBX_SHARED to the shared/ directory)\n", src);
    printf("0 passed, 1 failed\n");
    return 1;
  }
  snprintf(fixture_copy, sizeof fixture_copy, "%s", scratch("agentfs-copy.db"));
  if (write_host_file(fixture_copy, fixture_bytes, fixture_len) != 0) return 1;

  RUN(tree_has_exactly_the_listed_entries);
  RUN(every_inode_has_the_sdk_metadata);
  RUN(file_bytes_match_the_stored_chunks);
  RUN(symlinks_have_their_targets);
  RUN(kv_values_are_the_listed_json);
  RUN(tool_calls_are_the_listed_ones);
  RUN(sbx_writes_into_the_sdk_database);
  RUN(fixture_is_unchanged);
  free(fixture_bytes);
  return harness_done();
}
