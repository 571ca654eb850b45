/*
 * test_store_fixture.c - the store against a real AgentFS 0.4 database
 * written by agentfs-sdk (shared/fixtures/agentfs-0.4-sample.db, described
 * in its README): the schema we create is the SDK's byte for byte, and every
 * file, byte, symlink, kv value and tool call of the sample reads back as
 * listed. The fixture is never opened in place: each test works on a copy
 * in a temp directory, and the last test checks the original is unchanged.
 *
 * The fixture is found at $SBX_SHARED/fixtures/ (default tests/fixtures/,
 * the repository's copy of shared/fixtures).
 */
#include "store_testutil.h"

static unsigned char *fixture_bytes; /* the original file, read at start */
static size_t fixture_len;           /* its length */

static char *fixture_path(void) {
  const char *shared = getenv("SBX_SHARED");
  if (!shared || !*shared) shared = "tests";
  size_t n = strlen(shared) + 64;
  char *p = malloc(n);
  snprintf(p, n, "%s/fixtures/agentfs-0.4-sample.db", shared);
  return p;
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *b = NULL;
  size_t cap = 0, n = 0, r;
  do {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      b = realloc(b, cap);
    }
    r = fread(b + n, 1, cap - n, f);
    n += r;
  } while (r > 0);
  fclose(f);
  *len = n;
  return b;
}

/* A private copy of the fixture, opened. *path_out gets the copy's path. */
static store *open_copy(char **path_out) {
  char *path = tu_tmp_path("fixture-copy.db");
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(fixture_bytes, 1, fixture_len, f) != fixture_len) {
    perror(path);
    exit(2);
  }
  fclose(f);
  *path_out = path;
  return tu_open(path, STORE_OPEN_NOCREATE, "open fixture copy");
}

/* sqlite_master as "type|name|tbl_name|sql\n" lines in creation order. */
static char *schema_text(sqlite3 *db) {
  sqlite3_stmt *q;
  size_t cap = 16384, n = 0;
  char *out = calloc(1, cap);
  sqlite3_prepare_v2(
      db,
      "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY rowid",
      -1, &q, NULL);
  while (sqlite3_step(q) == SQLITE_ROW) {
    n += (size_t)snprintf(out + n, cap - n, "%s|%s|%s|%s\n", sqlite3_column_text(q, 0),
                          sqlite3_column_text(q, 1), sqlite3_column_text(q, 2),
                          sqlite3_column_text(q, 3));
  }
  sqlite3_finalize(q);
  return out;
}

TEST(new_store_schema_is_the_sdk_schema_byte_for_byte) {
  char *fpath;
  store *f = open_copy(&fpath);
  char *npath;
  store *s = tu_file("new.db", &npath);
  char *a = schema_text(store_db(f)), *b = schema_text(store_db(s));
  CHECK_STR(b, a);
  CHECK(strstr(b, "status TEXT NOT NULL DEFAULT 'pending'") != NULL);
  char buf[64];
  CHECK_STR(tu_text(s, "SELECT group_concat(key || '=' || value, ',') FROM fs_config",
                    buf, sizeof buf),
            "chunk_size=4096,schema_version=0.4");
  free(a);
  free(b);
  store_close(s);
  store_close(f);
  tu_rm_db(npath);
  tu_rm_db(fpath);
}

TEST(fixture_files_have_the_listed_bytes) {
  char *path;
  store *s = open_copy(&path);
  const char *readme = "hello from agentfs fixture v1\n\n";
  CHECK(tu_file_is(s, "/README.md", readme, 31));
  CHECK(tu_file_is(s, "/copy-of-readme.md", readme, 31));
  CHECK(tu_file_is(s, "/empty.txt", "", 0));
  CHECK(tu_file_is(s, "/src/main.c",
                   "#include \"lib/util.h\"\nint main(void){return util();}\n", 53));
  CHECK(
      tu_file_is(s, "/src/lib/util.h", "static inline int util(void){return 0;}\n", 40));
  CHECK(tu_file_is(s, "/renamed.txt", "rename me\n", 10));
  void *d = NULL;
  size_t n = 0;
  CHECK_EQ(store_path_read_file(s, NULL, "/data/blob.bin", &d, &n), 0);
  CHECK_EQ(n, 102400);
  int ok = n == 102400;
  for (size_t i = 0; ok && i < n; i++)
    ok = ((unsigned char *)d)[i] == ((i * 7 + 3) & 0xff);
  CHECK(ok);
  free(d);
  CHECK_EQ(store_path_read_file(s, NULL, "/data/small.bin", &d, &n), 0);
  CHECK_EQ(n, 5000);
  ok = n == 5000;
  for (size_t i = 0; ok && i < n; i++) ok = ((unsigned char *)d)[i] == (i & 0xff);
  CHECK(ok);
  free(d);
  /* a read across the chunk boundary of small.bin (4096 + 904) */
  store_stat st;
  CHECK_EQ(store_path_stat(s, NULL, "/data/small.bin", &st), 0);
  unsigned char b[10];
  CHECK_EQ(store_read(s, st.ino, b, 10, 4091), 10);
  CHECK(b[0] == (4091 & 0xff) && b[9] == (4100 & 0xff));
  store_close(s);
  tu_rm_db(path);
}

TEST(fixture_attributes_and_unlinked_inode) {
  char *path;
  store *s = open_copy(&path);
  store_stat st;
  CHECK_EQ(store_getattr(s, 1, &st), 0);
  CHECK_EQ(st.mode, 16877);
  CHECK_EQ(store_path_stat(s, NULL, "/src/lib", &st), 0);
  CHECK_EQ(st.mode, 16877);
  CHECK_EQ(st.nlink, 1);
  CHECK_EQ(store_path_stat(s, NULL, "/README.md", &st), 0);
  CHECK_EQ(st.mode, 33188);
  CHECK_EQ(st.ino, 2);
  CHECK_EQ(st.uid, 0);
  CHECK_EQ(st.mtime_nsec, 0);
  CHECK_EQ(store_path_lstat(s, NULL, "/readme-link", &st), 0);
  CHECK_EQ(st.mode, 41471);
  CHECK_EQ(st.size, 10);
  CHECK_EQ(store_getattr(s, 16, &st), -ENOENT);
  store_close(s);
  tu_rm_db(path);
}

TEST(fixture_symlinks_have_their_targets_and_resolve) {
  char *path;
  store *s = open_copy(&path);
  check_readlink(s, NULL, "/readme-link", "/README.md");
  check_readlink(s, NULL, "/src/rel-link", "lib/util.h");
  CHECK(tu_file_is(s, "/readme-link", "hello from agentfs fixture v1\n\n", 31));
  check_realpath(s, NULL, "/src/rel-link", "/src/lib/util.h");
  store_close(s);
  tu_rm_db(path);
}

static int names_cb(void *ud, const store_dirent *e) {
  strcat((char *)ud, e->name);
  strcat((char *)ud, S_ISDIR(e->mode) ? "/," : S_ISLNK(e->mode) ? "@," : ",");
  return 0;
}

TEST(fixture_directories_list_sorted) {
  char *path;
  store *s = open_copy(&path);
  char out[512] = "";
  CHECK_EQ(store_readdir(s, 1, 0, names_cb, out), 0);
  CHECK_STR(out,
            "README.md,copy-of-readme.md,data/,empty.txt,emptydir/,readme-link@,"
            "renamed.txt,src/,");
  out[0] = 0;
  store_stat st;
  store_path_stat(s, NULL, "/src", &st);
  CHECK_EQ(store_readdir(s, st.ino, 0, names_cb, out), 0);
  CHECK_STR(out, "lib/,main.c,rel-link@,");
  out[0] = 0;
  store_path_stat(s, NULL, "/emptydir", &st);
  CHECK_EQ(store_readdir(s, st.ino, 0, names_cb, out), 0);
  CHECK_STR(out, "");
  store_close(s);
  tu_rm_db(path);
}

TEST(fixture_kv_values_are_json_text) {
  char *path;
  store *s = open_copy(&path);
  const char *want[][2] = {{"user:name", "\"alice\""},
                           {"config", "{\"theme\":\"dark\",\"n\":3}"},
                           {"counter", "42"},
                           {"list", "[1,\"two\",null]"}};
  for (int i = 0; i < 4; i++) {
    char *v = NULL;
    CHECK_EQ(store_kv_get(s, want[i][0], &v), 0);
    CHECK_STR(v, want[i][1]);
    free(v);
  }
  store_close(s);
  tu_rm_db(path);
}

/* Formats each call as "id name status result error started completed duration;" */
static int calls_cb(void *ud, const store_call *c) {
  char line[400];
  snprintf(line, sizeof line, "%lld %s %s %s %s %.1f %.1f %.3f;", (long long)c->id,
           c->name, c->status, c->result ? c->result : "NULL",
           c->error ? c->error : "NULL", c->started_at, c->completed_at, c->duration_ms);
  strcat((char *)ud, line);
  return 0;
}

TEST(fixture_tool_calls_with_status_real_times_and_nulls) {
  char *path;
  store *s = open_copy(&path);
  char out[2048] = "";
  CHECK_EQ(store_call_list(s, 0, calls_cb, out), 0);
  CHECK_STR(out,
            "4 execute_code pending NULL NULL 1795249077.0 -1.0 -1.000;"
            "3 read_file success {\"bytes\":31} NULL 1795249077.0 1795249077.0 0.000;"
            "2 api_call error NULL timeout 1700000010.0 1700000010.3 300.000;"
            "1 web_search success {\"results\":[\"a\",\"b\"]} NULL 1700000000.0 "
            "1700000001.5 1500.000;");
  /* finishing the pending call from the SDK works */
  CHECK_EQ(store_call_finish(s, 4, "{\"out\":\"1\"}", NULL), 0);
  char buf[32];
  CHECK_STR(tu_text(s, "SELECT status FROM tool_calls WHERE id=4", buf, sizeof buf),
            "success");
  store_close(s);
  tu_rm_db(path);
}

TEST(fixture_copy_accepts_writes_in_the_same_format) {
  char *path;
  store *s = open_copy(&path);
  static unsigned char big[10000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)i;
  CHECK_EQ(store_path_write_file(s, NULL, "/data/new.bin", big, sizeof big, 0644, 0), 0);
  CHECK_EQ(store_path_rename(s, NULL, "/README.md", "/emptydir/README.md"), 0);
  CHECK_EQ(store_kv_set(s, "added", "true"), 0);
  store_close(s);
  /* reopen: still AgentFS, consistent, chunked by the configured size */
  CHECK_EQ(store_open(path, STORE_OPEN_NOCREATE, &s, NULL), 0);
  char buf[64];
  CHECK_STR(tu_text(s, "PRAGMA integrity_check", buf, sizeof buf), "ok");
  CHECK(tu_file_is(s, "/data/new.bin", (const char *)big, sizeof big));
  CHECK(tu_file_is(s, "/emptydir/README.md", "hello from agentfs fixture v1\n\n", 31));
  CHECK_STR(
      tu_text(s,
              "SELECT group_concat(length(data), ',') FROM (SELECT data FROM fs_data "
              "WHERE ino=(SELECT max(ino) FROM fs_inode) ORDER BY chunk_index)",
              buf, sizeof buf),
      "4096,4096,1808");
  CHECK(tu_int(s, "SELECT max(ino) FROM fs_inode") >
        16); /* AUTOINCREMENT: 16 not reused */
  store_close(s);
  tu_rm_db(path);
}

TEST(chunk_size_is_read_from_fs_config) {
  char *path;
  store *s = open_copy(&path);
  /* a database made with another chunk size: files written before keep
   * their layout only if readers honour the configured size */
  tu_exec(s, "UPDATE fs_config SET value='1000' WHERE key='chunk_size'");
  tu_exec(s, "DELETE FROM fs_data WHERE ino=10");
  tu_exec(s, "INSERT INTO fs_data SELECT 10, c, zeroblob(0) FROM (SELECT 0 AS c)");
  store_close(s);
  CHECK_EQ(store_open(path, STORE_OPEN_NOCREATE, &s, NULL), 0);
  CHECK_EQ(store_chunk_size(s), 1000);
  static unsigned char in[2500];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (unsigned char)(i * 5);
  CHECK_EQ(store_path_write_file(s, NULL, "/c.bin", in, sizeof in, 0644, 0), 0);
  char buf[64];
  CHECK_STR(
      tu_text(s,
              "SELECT group_concat(length(data), ',') FROM (SELECT data FROM fs_data "
              "WHERE ino=(SELECT max(ino) FROM fs_inode) ORDER BY chunk_index)",
              buf, sizeof buf),
      "1000,1000,500");
  CHECK(tu_file_is(s, "/c.bin", (const char *)in, sizeof in));
  store_close(s);
  tu_rm_db(path);
}

TEST(the_fixture_itself_is_unchanged) {
  char *p = fixture_path();
  size_t n = 0;
  unsigned char *now = slurp(p, &n);
  CHECK(now != NULL);
  CHECK(n == fixture_len && now && memcmp(now, fixture_bytes, n) == 0);
  free(now);
  free(p);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  char *p = fixture_path();
  fixture_bytes = slurp(p, &fixture_len);
  if (!fixture_bytes || fixture_len == 0) {
    fprintf(stderr, "fixture not found: %s (set SBX_SHARED)\n", p);
    printf("0 passed, 1 failed\n");
    free(p);
    return 1;
  }
  free(p);
  RUN(new_store_schema_is_the_sdk_schema_byte_for_byte);
  RUN(fixture_files_have_the_listed_bytes);
  RUN(fixture_attributes_and_unlinked_inode);
  RUN(fixture_symlinks_have_their_targets_and_resolve);
  RUN(fixture_directories_list_sorted);
  RUN(fixture_kv_values_are_json_text);
  RUN(fixture_tool_calls_with_status_real_times_and_nulls);
  RUN(fixture_copy_accepts_writes_in_the_same_format);
  RUN(chunk_size_is_read_from_fs_config);
  RUN(the_fixture_itself_is_unchanged);
  free(fixture_bytes);
  return harness_done();
}
