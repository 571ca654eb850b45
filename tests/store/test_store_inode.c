/*
 * test_store_inode.c - the store's inode API: creation, lookup, readdir order
 * and cookies, data chunks (sizes, gaps, padding), truncate, links, unlink,
 * rmdir, rename(2) rules, symlinks, attributes, permissions, transactions.
 * Each test names the behaviour it pins; the AgentFS tables are inspected
 * directly where the format itself is the point.
 */
#include <stdbool.h>

#include "store_testutil.h"

static store_ino mkfile(store *s, store_ino dir, const char *name) {
  store_stat st;
  int rc = store_create(s, dir, name, 0644, &st);
  return rc ? rc : st.ino;
}

static store_ino mkdirp(store *s, store_ino dir, const char *name) {
  store_stat st;
  int rc = store_mkdir(s, dir, name, 0755, &st);
  return rc ? rc : st.ino;
}

TEST(new_store_has_root_inode_1_mode_040755_no_dentry) {
  store *s = tu_mem();
  store_stat st;
  CHECK_EQ(store_getattr(s, STORE_ROOT_INO, &st), 0);
  CHECK_EQ(st.mode, 040755);
  CHECK_EQ(st.nlink, 1);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_dentry"), 0);
  char buf[64];
  CHECK_STR(
      tu_text(s, "SELECT value FROM fs_config WHERE key='chunk_size'", buf, sizeof buf),
      "4096");
  CHECK_STR(tu_text(s, "SELECT value FROM fs_config WHERE key='schema_version'", buf,
                    sizeof buf),
            "0.4");
  CHECK_EQ(store_chunk_size(s), 4096);
  store_close(s);
}

TEST(create_then_lookup_gives_same_inode_with_caller_owner) {
  store *s = tu_mem();
  store_set_cred(s, 1000, 100);
  store_stat st, lk;
  /* root is 0755 owned by 0: uid 1000 cannot create there */
  CHECK_EQ(store_create(s, 1, "f", 0640, &st), -EACCES);
  store_set_cred(s, 0, 0);
  CHECK_EQ(store_mkdir(s, 1, "home", 0777, &st), 0);
  store_set_cred(s, 1000, 100);
  store_ino home = st.ino;
  CHECK_EQ(store_create(s, home, "f", 0640, &st), 0);
  CHECK_EQ(st.mode, S_IFREG | 0640);
  CHECK_EQ(st.uid, 1000);
  CHECK_EQ(st.gid, 100);
  CHECK_EQ(st.nlink, 1);
  CHECK_EQ(store_lookup(s, home, "f", &lk), 0);
  CHECK_EQ(lk.ino, st.ino);
  CHECK_EQ(lk.mode, S_IFREG | 0640);
  CHECK_EQ(store_lookup(s, home, "g", &lk), -ENOENT);
  CHECK_EQ(store_create(s, home, "f", 0640, &st), -EEXIST);
  CHECK_EQ(store_lookup(s, home, ".", &lk), 0);
  CHECK_EQ(lk.ino, home);
  CHECK_EQ(store_lookup(s, home, "..", &lk), 0);
  CHECK_EQ(lk.ino, 1);
  store_close(s);
}

TEST(bad_names_are_rejected_and_change_nothing) {
  store *s = tu_mem();
  char long_name[300];
  memset(long_name, 'x', 256);
  long_name[256] = 0;
  store_stat st;
  CHECK_EQ(store_create(s, 1, long_name, 0644, &st), -ENAMETOOLONG);
  long_name[255] = 0;
  CHECK_EQ(store_create(s, 1, long_name, 0644, &st), 0);
  CHECK_EQ(store_create(s, 1, "a/b", 0644, &st), -EINVAL);
  CHECK_EQ(store_create(s, 1, "", 0644, &st), -ENOENT);
  CHECK_EQ(store_mkdir(s, 1, ".", 0755, &st), -EEXIST);
  CHECK_EQ(store_mkdir(s, 1, "..", 0755, &st), -EEXIST);
  CHECK_EQ(store_create(s, 12345, "x", 0644, &st), -ENOENT);
  store_ino f = mkfile(s, 1, "file");
  CHECK_EQ(store_create(s, f, "x", 0644, &st), -ENOTDIR);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_inode"), 3);
  store_close(s);
}

/* Collects readdir names into one string "a,b,c," and remembers cookies. */
typedef struct collect {
  char names[8192];     /* comma-joined names */
  int64_t cookies[256]; /* cookies in order */
  int n;                /* entries seen */
  int stop_after;       /* stop (return 1) after this many; 0 = never */
  store *s;             /* for re-entrant calls */
} collect;

static int collect_cb(void *ud, const store_dirent *e) {
  collect *c = ud;
  if (c->s) { /* re-enter the store from inside the callback */
    store_stat st;
    if (store_lookup(c->s, 1, e->name, &st) != 0 || st.ino != e->ino) return -100;
  }
  strcat(c->names, e->name);
  strcat(c->names, ",");
  if (c->n < 256) c->cookies[c->n] = e->cookie;
  c->n++;
  return c->stop_after && c->n >= c->stop_after ? 1 : 0;
}

TEST(readdir_sorts_bytewise_and_skips_dot_entries) {
  store *s = tu_mem();
  const char *names[] = {"b", "a", "c", "B", "aa", "\xff", "_", "%"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    CHECK(mkfile(s, 1, names[i]) > 0);
  collect c = {0};
  CHECK_EQ(store_readdir(s, 1, 0, collect_cb, &c), 0);
  CHECK_STR(c.names, "%,B,_,a,aa,b,c,\xff,");
  store_close(s);
}

TEST(readdir_resumes_from_a_cookie_across_batches) {
  store *s = tu_mem();
  char name[32];
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "f%03d", i);
    CHECK(mkfile(s, 1, name) > 0);
  }
  collect a = {0};
  a.stop_after = 45;
  CHECK_EQ(store_readdir(s, 1, 0, collect_cb, &a), 1);
  CHECK_EQ(a.n, 45);
  collect b = {0};
  CHECK_EQ(store_readdir(s, 1, a.cookies[44], collect_cb, &b), 0);
  CHECK_EQ(b.n, 55);
  CHECK(strncmp(b.names, "f045,f046,", 10) == 0);
  CHECK(a.cookies[0] > 0);
  store_close(s);
}

TEST(readdir_cookie_survives_deleting_that_entry) {
  store *s = tu_mem();
  const char *names[] = {"a", "b", "c", "d", "e"};
  for (int i = 0; i < 5; i++) mkfile(s, 1, names[i]);
  collect a = {0};
  a.stop_after = 2;
  store_readdir(s, 1, 0, collect_cb, &a);
  CHECK_STR(a.names, "a,b,");
  /* rm -r through FUSE: the listed entries are deleted before resuming */
  CHECK_EQ(store_unlink(s, 1, "a"), 0);
  CHECK_EQ(store_unlink(s, 1, "b"), 0);
  collect b = {0};
  CHECK_EQ(store_readdir(s, 1, a.cookies[1], collect_cb, &b), 0);
  CHECK_STR(b.names, "c,d,e,");
  store_close(s);
}

TEST(readdir_callback_may_call_back_into_the_store) {
  store *s = tu_mem();
  char name[32];
  for (int i = 0; i < 70; i++) { /* more than one internal batch */
    snprintf(name, sizeof name, "n%02d", i);
    mkfile(s, 1, name);
  }
  collect c = {0};
  c.s = s;
  CHECK_EQ(store_readdir(s, 1, 0, collect_cb, &c), 0);
  CHECK_EQ(c.n, 70);
  store_close(s);
}

TEST(readdir_needs_read_permission_and_a_directory) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  store_ino f = mkfile(s, 1, "f");
  collect c = {0};
  CHECK_EQ(store_readdir(s, f, 0, collect_cb, &c), -ENOTDIR);
  store_setattr a = {.mode = 0311};
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_MODE, NULL), 0);
  CHECK_EQ(store_readdir(s, d, 0, collect_cb, &c), -EACCES);
  store_close(s);
}

static void pattern(unsigned char *b, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) b[i] = (unsigned char)((i * 7 + seed) & 0xff);
}

/* The chunks of file f in chunk order, as the chunking tests compare them:
 * "length,length,..." or, with_index, "index:length,..." ("" for none);
 * written into buf (n bytes). */
static const char *chunk_layout(store *s, store_ino f, bool with_index, char *buf, size_t n) {
  char sql[200];
  snprintf(sql, sizeof sql,
           "SELECT group_concat(%s, ',') FROM (SELECT * FROM fs_data WHERE ino=%lld "
           "ORDER BY chunk_index)",
           with_index ? "chunk_index || ':' || length(data)" : "length(data)", (long long)f);
  return tu_text(s, sql, buf, n);
}

TEST(write_splits_into_full_chunks_and_one_short_last_chunk) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char in[10000], out[10000];
  pattern(in, sizeof in, 3);
  CHECK_EQ(store_write(s, f, in, sizeof in, 0), 10000);
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 10000);
  CHECK(memcmp(in, out, sizeof in) == 0);
  char buf[100];
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "4096,4096,1808");
  store_stat st;
  store_getattr(s, f, &st);
  CHECK_EQ(st.size, 10000);
  store_close(s);
}

TEST(write_past_eof_writes_zero_chunks_densely) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  CHECK_EQ(store_write(s, f, "0123456789", 10, 20000), 10);
  static unsigned char out[20010];
  memset(out, 0xaa, sizeof out);
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 20010);
  int zeros = 1;
  for (int i = 0; i < 20000; i++) zeros &= out[i] == 0;
  CHECK(zeros);
  CHECK(memcmp(out + 20000, "0123456789", 10) == 0);
  /* dense, as the TypeScript SDK (which concatenates chunks) needs */
  char buf[100];
  CHECK_STR(chunk_layout(s, f, true, buf, sizeof buf), "0:4096,1:4096,2:4096,3:4096,4:3626");
  char sql[200];
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM fs_data WHERE ino=%lld AND chunk_index < 4 "
           "AND data != zeroblob(4096)",
           (long long)f);
  CHECK_EQ(tu_int(s, sql), 0);
  store_close(s);
}

TEST(huge_extension_is_a_gap_not_a_terabyte_of_zeros) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  uint64_t tb = (uint64_t)1 << 40;
  CHECK_EQ(store_truncate(s, f, tb), 0);
  CHECK_EQ(store_write(s, f, "end", 3, tb), 3);
  CHECK(tu_chunk_rows(s, f) <= 2);
  char b[8] = "xxxxxxx";
  CHECK_EQ(store_read(s, f, b, 3, tb / 2), 3);
  CHECK(b[0] == 0 && b[1] == 0 && b[2] == 0);
  CHECK_EQ(store_read(s, f, b, 8, tb), 3);
  CHECK(memcmp(b, "end", 3) == 0);
  store_close(s);
}

TEST(gaps_and_short_chunks_from_other_tools_read_as_zeros) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char in[12000], out[12000];
  memset(in, 'a', sizeof in);
  store_write(s, f, in, sizeof in, 0);
  char sql[200];
  /* the Rust tools may leave a chunk out, or short */
  snprintf(sql, sizeof sql, "DELETE FROM fs_data WHERE ino=%lld AND chunk_index=1",
           (long long)f);
  tu_exec(s, sql);
  snprintf(sql, sizeof sql,
           "UPDATE fs_data SET data=substr(data,1,10) WHERE ino=%lld AND "
           "chunk_index=0",
           (long long)f);
  tu_exec(s, sql);
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 12000);
  CHECK(out[9] == 'a' && out[10] == 0 && out[4095] == 0);
  CHECK(out[4096] == 0 && out[8191] == 0 && out[8192] == 'a' && out[11999] == 'a');
  /* writing into the gap fills it in */
  CHECK_EQ(store_write(s, f, "b", 1, 5000), 1);
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 12000);
  CHECK(out[4999] == 0 && out[5000] == 'b' && out[5001] == 0);
  store_close(s);
}

TEST(extending_pads_the_old_short_last_chunk_to_full_size) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char in[5000];
  pattern(in, sizeof in, 1);
  store_write(s, f, in, sizeof in, 0);
  CHECK_EQ(store_write(s, f, "Z", 1, 9000), 1);
  char buf[100];
  CHECK_STR(chunk_layout(s, f, true, buf, sizeof buf), "0:4096,1:4096,2:809");
  unsigned char out[9001];
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 9001);
  CHECK(memcmp(out, in, 5000) == 0);
  CHECK(out[5000] == 0 && out[8999] == 0 && out[9000] == 'Z');
  store_close(s);
}

TEST(overwrite_inside_and_across_chunks_keeps_the_rest) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char model[12000], out[12000];
  pattern(model, sizeof model, 5);
  store_write(s, f, model, sizeof model, 0);
  memset(model + 4000, 'x', 300); /* crosses the 4096 boundary */
  CHECK_EQ(store_write(s, f, model + 4000, 300, 4000), 300);
  memset(model + 10, 'y', 5);
  CHECK_EQ(store_write(s, f, model + 10, 5, 10), 5);
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 12000);
  CHECK(memcmp(model, out, sizeof model) == 0);
  /* reads at odd offsets and past EOF */
  CHECK_EQ(store_read(s, f, out, 100, 11950), 50);
  CHECK(memcmp(out, model + 11950, 50) == 0);
  CHECK_EQ(store_read(s, f, out, 100, 12000), 0);
  CHECK_EQ(store_read(s, f, out, 100, 99999), 0);
  store_close(s);
}

TEST(truncate_shrinks_chunks_and_grows_with_zeros) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char in[10000], out[10000];
  pattern(in, sizeof in, 9);
  store_write(s, f, in, sizeof in, 0);
  CHECK_EQ(store_truncate(s, f, 5000), 0);
  char buf[100];
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "4096,904");
  CHECK_EQ(store_truncate(s, f, 8000), 0);
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "4096,3904");
  CHECK_EQ(store_truncate(s, f, 20000), 0);
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "4096,4096,4096,4096,3616");
  CHECK_EQ(store_truncate(s, f, 8000), 0);
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "4096,3904");
  CHECK_EQ(store_read(s, f, out, sizeof out, 0), 8000);
  CHECK(memcmp(out, in, 5000) == 0);
  CHECK(out[5000] == 0 && out[7999] == 0);
  CHECK_EQ(store_truncate(s, f, 0), 0);
  CHECK_STR(chunk_layout(s, f, false, buf, sizeof buf), "");
  store_stat st;
  store_getattr(s, f, &st);
  CHECK_EQ(st.size, 0);
  CHECK_EQ(store_truncate(s, 1, 0), -EISDIR);
  store_close(s);
}

TEST(data_calls_refuse_directories_and_symlinks) {
  store *s = tu_mem();
  store_stat l;
  char b[4];
  CHECK_EQ(store_write(s, 1, "x", 1, 0), -EISDIR);
  CHECK_EQ(store_read(s, 1, b, 1, 0), -EISDIR);
  CHECK_EQ(store_symlink(s, 1, "l", "target", &l), 0);
  CHECK_EQ(store_write(s, l.ino, "x", 1, 0), -EINVAL);
  CHECK_EQ(store_read(s, 99, b, 1, 0), -ENOENT);
  store_close(s);
}

TEST(unlink_of_last_link_deletes_inode_and_data) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  static unsigned char in[9000];
  store_write(s, f, in, sizeof in, 0);
  store_stat st;
  CHECK_EQ(store_link(s, f, 1, "g", &st), 0);
  CHECK_EQ(st.nlink, 2);
  CHECK_EQ(store_unlink(s, 1, "f"), 0);
  char sql[200];
  snprintf(sql, sizeof sql, "SELECT nlink FROM fs_inode WHERE ino=%lld", (long long)f);
  CHECK_EQ(tu_int(s, sql), 1);
  unsigned char out[10];
  CHECK_EQ(store_read(s, f, out, 10, 0), 10); /* still there through g */
  CHECK_EQ(store_unlink(s, 1, "g"), 0);
  CHECK_EQ(tu_int(s, sql), -999);
  CHECK_EQ(tu_chunk_rows(s, f), 0);
  CHECK_EQ(store_getattr(s, f, &st), -ENOENT);
  CHECK_EQ(store_unlink(s, 1, "g"), -ENOENT);
  store_close(s);
}

TEST(link_refuses_directories_with_eperm) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  store_stat st;
  CHECK_EQ(store_link(s, d, 1, "d2", &st), -EPERM);
  store_ino f = mkfile(s, 1, "f");
  CHECK_EQ(store_link(s, f, 1, "d", &st), -EEXIST);
  CHECK_EQ(store_link(s, f, d, "f", &st), 0);
  store_close(s);
}

TEST(rmdir_and_unlink_follow_type_rules) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  mkfile(s, d, "x");
  mkfile(s, 1, "f");
  CHECK_EQ(store_rmdir(s, 1, "d"), -ENOTEMPTY);
  CHECK_EQ(store_rmdir(s, 1, "f"), -ENOTDIR);
  CHECK_EQ(store_unlink(s, 1, "d"), -EISDIR);
  CHECK_EQ(store_unlink(s, d, "x"), 0);
  CHECK_EQ(store_rmdir(s, 1, "d"), 0);
  CHECK_EQ(store_rmdir(s, 1, "d"), -ENOENT);
  char sql[100];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM fs_inode WHERE ino=%lld", (long long)d);
  CHECK_EQ(tu_int(s, sql), 0);
  store_close(s);
}

TEST(rmdir_accepts_rust_sdk_directory_nlink) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  char sql[100];
  snprintf(sql, sizeof sql, "UPDATE fs_inode SET nlink=3 WHERE ino=%lld", (long long)d);
  CHECK_EQ(tu_exec(s, sql), SQLITE_OK);
  store_stat st;
  CHECK_EQ(store_getattr(s, d, &st), 0);
  CHECK_EQ(st.nlink, 3);
  CHECK_EQ(store_rmdir(s, 1, "d"), 0);
  CHECK_EQ(store_getattr(s, d, &st), -ENOENT);
  store_close(s);
}

TEST(rename_replaces_an_existing_file_and_frees_it) {
  store *s = tu_mem();
  store_ino a = mkfile(s, 1, "a");
  store_ino b = mkfile(s, 1, "b");
  store_write(s, b, "old", 3, 0);
  CHECK_EQ(store_rename(s, 1, "a", 1, "b", 0), 0);
  store_stat st;
  CHECK_EQ(store_lookup(s, 1, "b", &st), 0);
  CHECK_EQ(st.ino, a);
  CHECK_EQ(store_lookup(s, 1, "a", &st), -ENOENT);
  CHECK_EQ(store_getattr(s, b, &st), -ENOENT);
  store_close(s);
}

TEST(rename_across_directories_moves_the_dentry) {
  store *s = tu_mem();
  store_ino d1 = mkdirp(s, 1, "d1"), d2 = mkdirp(s, 1, "d2");
  store_ino sub = mkdirp(s, d1, "sub");
  mkfile(s, sub, "x");
  CHECK_EQ(store_rename(s, d1, "sub", d2, "moved", 0), 0);
  store_stat st;
  CHECK_EQ(store_lookup(s, d2, "moved", &st), 0);
  CHECK_EQ(st.ino, sub);
  CHECK_EQ(store_lookup(s, sub, "x", &st), 0);
  CHECK_EQ(store_lookup(s, d1, "sub", &st), -ENOENT);
  store_close(s);
}

TEST(rename_directory_into_its_own_subtree_is_einval) {
  store *s = tu_mem();
  store_ino a = mkdirp(s, 1, "a");
  store_ino b = mkdirp(s, a, "b");
  store_ino c = mkdirp(s, b, "c");
  CHECK_EQ(store_rename(s, 1, "a", c, "x", 0), -EINVAL);
  CHECK_EQ(store_rename(s, 1, "a", a, "x", 0), -EINVAL);
  CHECK_EQ(store_rename(s, a, "b", b, "x", 0), -EINVAL);
  /* the tree is untouched */
  store_stat st;
  CHECK_EQ(store_lookup(s, 1, "a", &st), 0);
  CHECK_EQ(store_lookup(s, b, "c", &st), 0);
  /* moving it up is fine */
  CHECK_EQ(store_rename(s, b, "c", 1, "c", 0), 0);
  store_close(s);
}

TEST(rename_type_rules_of_rename2) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  mkdirp(s, 1, "empty");
  store_ino full = mkdirp(s, 1, "full");
  mkfile(s, full, "x");
  mkfile(s, 1, "f");
  (void)d;
  CHECK_EQ(store_rename(s, 1, "d", 1, "f", 0), -ENOTDIR);
  CHECK_EQ(store_rename(s, 1, "f", 1, "d", 0), -EISDIR);
  CHECK_EQ(store_rename(s, 1, "d", 1, "full", 0), -ENOTEMPTY);
  CHECK_EQ(store_rename(s, 1, "f", 1, "g", STORE_RENAME_NOREPLACE), 0);
  CHECK_EQ(store_rename(s, 1, "g", 1, "full", STORE_RENAME_NOREPLACE), -EEXIST);
  CHECK_EQ(store_rename(s, 1, "d", 1, "empty", 0), 0);
  CHECK_EQ(store_rename(s, 1, "missing", 1, "z", 0), -ENOENT);
  store_stat st;
  CHECK_EQ(store_lookup(s, 1, "empty", &st), 0);
  CHECK_EQ(st.ino, d);
  store_close(s);
}

TEST(rename_between_hard_links_of_one_file_does_nothing) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "a");
  store_stat st;
  store_link(s, f, 1, "b", &st);
  CHECK_EQ(store_rename(s, 1, "a", 1, "b", 0), 0);
  CHECK_EQ(store_lookup(s, 1, "a", &st), 0);
  CHECK_EQ(store_lookup(s, 1, "b", &st), 0);
  CHECK_EQ(st.nlink, 2);
  store_close(s);
}

TEST(symlink_keeps_target_bytes_and_readlink_truncates) {
  store *s = tu_mem();
  store_stat st;
  CHECK_EQ(store_symlink(s, 1, "l", "../some/where\xff", &st), 0);
  CHECK_EQ(st.mode, S_IFLNK | 0777);
  CHECK_EQ(st.size, 14);
  char buf[64];
  CHECK_EQ(store_readlink(s, st.ino, buf, sizeof buf), 14);
  CHECK_STR(buf, "../some/where\xff");
  CHECK_EQ(store_readlink(s, st.ino, buf, 5), 14);
  CHECK_STR(buf, "../s");
  CHECK_EQ(store_readlink(s, 1, buf, sizeof buf), -EINVAL);
  CHECK_EQ(store_symlink(s, 1, "e", "", &st), -ENOENT);
  CHECK_EQ(store_unlink(s, 1, "l"), 0);
  CHECK_EQ(tu_int(s, "SELECT count(*) FROM fs_symlink"), 0);
  store_close(s);
}

TEST(non_utf8_names_round_trip_exactly) {
  store *s = tu_mem();
  const char *name = "\xff\xfe\x80 caf\xc3\xa9 \x01";
  store_stat st, lk;
  CHECK_EQ(store_create(s, 1, name, 0644, &st), 0);
  CHECK_EQ(store_lookup(s, 1, name, &lk), 0);
  CHECK_EQ(lk.ino, st.ino);
  collect c = {0};
  store_readdir(s, 1, 0, collect_cb, &c);
  char want[64];
  snprintf(want, sizeof want, "%s,", name);
  CHECK_STR(c.names, want);
  CHECK_EQ(tu_int(s, "SELECT length(CAST(name AS BLOB)) FROM fs_dentry"),
           (long long)strlen(name));
  store_close(s);
}

TEST(permissions_apply_to_uid_0_without_override) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  store_setattr a = {.mode = 0};
  CHECK_EQ(store_setattr_ino(s, f, &a, STORE_SET_MODE, NULL), 0);
  CHECK_EQ(store_access(s, f, R_OK), -EACCES);
  CHECK_EQ(store_access(s, f, W_OK), -EACCES);
  CHECK_EQ(store_access(s, f, 0), 0);
  store_ino d = mkdirp(s, 1, "d");
  mkfile(s, d, "inner");
  a.mode = 0644; /* no x: nothing below can be looked up */
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_MODE, NULL), 0);
  store_stat st;
  CHECK_EQ(store_lookup(s, d, "inner", &st), -EACCES);
  a.mode = 0555; /* no w: no changes inside */
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_MODE, NULL), 0);
  CHECK_EQ(store_create(s, d, "new", 0644, &st), -EACCES);
  CHECK_EQ(store_unlink(s, d, "inner"), -EACCES);
  CHECK_EQ(store_lookup(s, d, "inner", &st), 0);
  store_close(s);
}

TEST(group_and_other_bits_are_chosen_by_uid_then_gid) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f"); /* owner 0:0 */
  store_setattr a = {.mode = 0604};
  store_setattr_ino(s, f, &a, STORE_SET_MODE, NULL);
  store_set_cred(s, 5, 0); /* group 0 matches: group bits 0 */
  CHECK_EQ(store_access(s, f, R_OK), -EACCES);
  store_set_cred(s, 5, 7); /* other bits: r */
  CHECK_EQ(store_access(s, f, R_OK), 0);
  CHECK_EQ(store_access(s, f, W_OK), -EACCES);
  store_close(s);
}

TEST(sticky_directory_lets_only_owners_remove_or_rename) {
  store *s = tu_mem();
  store_ino tmp = mkdirp(s, 1, "tmp");
  store_setattr a = {.mode = 01777};
  CHECK_EQ(store_setattr_ino(s, tmp, &a, STORE_SET_MODE, NULL), 0);
  store_set_cred(s, 1000, 1000);
  CHECK(mkfile(s, tmp, "mine") > 0);
  store_set_cred(s, 2000, 2000);
  CHECK(mkfile(s, tmp, "theirs") > 0);
  CHECK_EQ(store_unlink(s, tmp, "mine"), -EPERM);
  CHECK_EQ(store_rename(s, tmp, "mine", tmp, "stolen", 0), -EPERM);
  CHECK_EQ(store_rename(s, tmp, "theirs", tmp, "mine", 0), -EPERM); /* replacing mine */
  CHECK_EQ(store_unlink(s, tmp, "theirs"), 0);
  store_set_cred(s, 0, 0); /* the directory's owner may */
  CHECK_EQ(store_unlink(s, tmp, "mine"), 0);
  store_close(s);
}

TEST(setattr_keeps_type_and_needs_ownership) {
  store *s = tu_mem();
  store_ino d = mkdirp(s, 1, "d");
  store_setattr a = {.mode = 0100777};
  store_stat st;
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_MODE, &st), 0);
  CHECK_EQ(st.mode, S_IFDIR | 0777);
  store_set_cred(s, 9, 9);
  a.mode = 0700;
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_MODE, NULL), -EPERM);
  a.atime = 5;
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_ATIME, NULL), -EPERM);
  /* d is 0777: a non-owner with w may set times to now */
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_ATIME_NOW, NULL), 0);
  store_set_cred(s, 0, 0);
  a.atime = 123;
  a.atime_nsec = 456;
  a.mtime = 789;
  CHECK_EQ(store_setattr_ino(s, d, &a, STORE_SET_ATIME | STORE_SET_MTIME, &st), 0);
  CHECK_EQ(st.atime, 123);
  CHECK_EQ(st.atime_nsec, 456);
  CHECK_EQ(st.mtime, 789);
  CHECK_EQ(store_getattr(s, d, &st), 0);
  CHECK_EQ(st.mtime, 789);
  store_close(s);
}

TEST(setattr_size_truncates_regular_files) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  store_write(s, f, "hello world", 11, 0);
  store_setattr a = {.size = 5};
  store_stat st;
  CHECK_EQ(store_setattr_ino(s, f, &a, STORE_SET_SIZE, &st), 0);
  CHECK_EQ(st.size, 5);
  char b[16] = {0};
  CHECK_EQ(store_read(s, f, b, sizeof b, 0), 5);
  CHECK_STR(b, "hello");
  CHECK_EQ(store_setattr_ino(s, 1, &a, STORE_SET_SIZE, NULL), -EISDIR);
  store_close(s);
}

TEST(real_values_in_integer_columns_are_read) {
  store *s = tu_mem();
  store_ino f = mkfile(s, 1, "f");
  store_write(s, f, "abcdef", 6, 0);
  char sql[300];
  snprintf(sql, sizeof sql,
           "UPDATE fs_inode SET size=6.0, mtime=1700000001.5, mtime_nsec=0, nlink=1.0, "
           "mode=33188.0 "
           "WHERE ino=%lld",
           (long long)f);
  CHECK_EQ(tu_exec(s, sql), SQLITE_OK);
  store_stat st;
  CHECK_EQ(store_getattr(s, f, &st), 0);
  CHECK_EQ(st.size, 6);
  CHECK_EQ(st.mtime, 1700000001);
  CHECK_EQ(st.mtime_nsec, 500000000);
  CHECK_EQ(st.mode, 0100644);
  char b[8];
  CHECK_EQ(store_read(s, f, b, 8, 0), 6);
  store_close(s);
}

TEST(begin_commit_rollback_nest) {
  store *s = tu_mem();
  CHECK_EQ(store_begin(s), 0);
  CHECK(mkfile(s, 1, "a") > 0);
  CHECK_EQ(store_begin(s), 0);
  CHECK(mkfile(s, 1, "b") > 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK(mkfile(s, 1, "c") > 0);
  CHECK_EQ(store_commit(s), 0);
  store_stat st;
  CHECK_EQ(store_lookup(s, 1, "a", &st), 0);
  CHECK_EQ(store_lookup(s, 1, "b", &st), -ENOENT);
  CHECK_EQ(store_lookup(s, 1, "c", &st), 0);
  CHECK_EQ(store_commit(s), -EINVAL);
  CHECK_EQ(store_rollback(s), -EINVAL);
  /* an outer rollback undoes everything inside */
  CHECK_EQ(store_begin(s), 0);
  mkfile(s, 1, "d");
  CHECK_EQ(store_unlink(s, 1, "a"), 0);
  CHECK_EQ(store_rollback(s), 0);
  CHECK_EQ(store_lookup(s, 1, "a", &st), 0);
  CHECK_EQ(store_lookup(s, 1, "d", &st), -ENOENT);
  store_close(s);
}

TEST(failed_call_inside_a_group_keeps_the_group) {
  store *s = tu_mem();
  CHECK_EQ(store_begin(s), 0);
  mkfile(s, 1, "a");
  CHECK_EQ(store_rmdir(s, 1, "a"), -ENOTDIR);
  mkfile(s, 1, "b");
  CHECK_EQ(store_commit(s), 0);
  store_stat st;
  CHECK_EQ(store_lookup(s, 1, "a", &st), 0);
  CHECK_EQ(store_lookup(s, 1, "b", &st), 0);
  store_close(s);
}

TEST(generation_counts_mutating_calls_only) {
  store *s = tu_mem();
  uint64_t g0 = store_generation(s);
  mkfile(s, 1, "a");
  uint64_t g1 = store_generation(s);
  CHECK(g1 > g0);
  store_stat st;
  store_lookup(s, 1, "a", &st);
  store_getattr(s, 1, &st);
  CHECK_EQ(store_generation(s), g1);
  store_close(s);
}

TEST(mutations_touch_directory_mtime) {
  store *s = tu_mem();
  CHECK_EQ(tu_exec(s, "UPDATE fs_inode SET mtime=1, ctime=1 WHERE ino=1"), SQLITE_OK);
  mkfile(s, 1, "a");
  store_stat st;
  store_getattr(s, 1, &st);
  CHECK(st.mtime > 1000);
  CHECK(st.ctime > 1000);
  store_close(s);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(new_store_has_root_inode_1_mode_040755_no_dentry);
  RUN(create_then_lookup_gives_same_inode_with_caller_owner);
  RUN(bad_names_are_rejected_and_change_nothing);
  RUN(readdir_sorts_bytewise_and_skips_dot_entries);
  RUN(readdir_resumes_from_a_cookie_across_batches);
  RUN(readdir_cookie_survives_deleting_that_entry);
  RUN(readdir_callback_may_call_back_into_the_store);
  RUN(readdir_needs_read_permission_and_a_directory);
  RUN(write_splits_into_full_chunks_and_one_short_last_chunk);
  RUN(write_past_eof_writes_zero_chunks_densely);
  RUN(huge_extension_is_a_gap_not_a_terabyte_of_zeros);
  RUN(gaps_and_short_chunks_from_other_tools_read_as_zeros);
  RUN(extending_pads_the_old_short_last_chunk_to_full_size);
  RUN(overwrite_inside_and_across_chunks_keeps_the_rest);
  RUN(truncate_shrinks_chunks_and_grows_with_zeros);
  RUN(data_calls_refuse_directories_and_symlinks);
  RUN(unlink_of_last_link_deletes_inode_and_data);
  RUN(link_refuses_directories_with_eperm);
  RUN(rmdir_and_unlink_follow_type_rules);
  RUN(rmdir_accepts_rust_sdk_directory_nlink);
  RUN(rename_replaces_an_existing_file_and_frees_it);
  RUN(rename_across_directories_moves_the_dentry);
  RUN(rename_directory_into_its_own_subtree_is_einval);
  RUN(rename_type_rules_of_rename2);
  RUN(rename_between_hard_links_of_one_file_does_nothing);
  RUN(symlink_keeps_target_bytes_and_readlink_truncates);
  RUN(non_utf8_names_round_trip_exactly);
  RUN(permissions_apply_to_uid_0_without_override);
  RUN(group_and_other_bits_are_chosen_by_uid_then_gid);
  RUN(sticky_directory_lets_only_owners_remove_or_rename);
  RUN(setattr_keeps_type_and_needs_ownership);
  RUN(setattr_size_truncates_regular_files);
  RUN(real_values_in_integer_columns_are_read);
  RUN(begin_commit_rollback_nest);
  RUN(failed_call_inside_a_group_keeps_the_group);
  RUN(generation_counts_mutating_calls_only);
  RUN(mutations_touch_directory_mtime);
  return harness_done();
}
