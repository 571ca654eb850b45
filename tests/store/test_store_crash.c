/*
 * test_store_crash.c - kill -9 at random instants leaves a consistent store.
 *
 * A forked writer opens a database file and changes it as fast as it can:
 * whole-file writes (new and replacing), multi-chunk writes through the inode
 * API inside store_begin/commit groups, renames, unlinks and groups of three
 * files created or removed together. Every file's content is self-checking
 * (a header with its size and seed; every other byte derived from the seed),
 * so any torn write is visible. The parent kills the writer with SIGKILL
 * after a random delay, then reopens the database and checks:
 * PRAGMA integrity_check is "ok", every file is complete, every group is
 * whole or absent, and the AgentFS tables agree with each other (no dentry
 * without inode, no orphan inode or data, nlink = number of dentries,
 * every chunk but the last full). 30 rounds (fewer under ASan).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#include "store_testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define ROUNDS 10
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROUNDS 10
#endif
#endif
#ifndef ROUNDS
#define ROUNDS 30
#endif

#define HDR 16 /* "SBXC" + u64 size + u32 seed */
#define MAX_FILE (3 * 4096 + 700)

static uint32_t rng_state;
static uint32_t rnd(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

static unsigned char content_byte(uint32_t seed, size_t i) {
  return (unsigned char)((seed * 2654435761u + (uint32_t)i * 40503u) >> 13);
}

static void fill(unsigned char *b, size_t size, uint32_t seed) {
  memcpy(b, "SBXC", 4);
  uint64_t sz = size;
  memcpy(b + 4, &sz, 8);
  memcpy(b + 12, &seed, 4);
  for (size_t i = HDR; i < size; i++) b[i] = content_byte(seed, i);
}

/* 1 when the bytes are one complete self-checking file. */
static int complete(const unsigned char *b, size_t len) {
  if (len < HDR || memcmp(b, "SBXC", 4) != 0) return 0;
  uint64_t sz;
  uint32_t seed;
  memcpy(&sz, b + 4, 8);
  memcpy(&seed, b + 12, 4);
  if (sz != len) return 0;
  for (size_t i = HDR; i < len; i++)
    if (b[i] != content_byte(seed, i)) return 0;
  return 1;
}

/* The writer: never returns (killed by the parent, or exits after a bound). */
static void writer(const char *path, uint32_t seed) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  rng_state = seed;
  store *s = NULL;
  if (store_open(path, 0, &s, NULL) != 0) _exit(3);
  store_path_mkdir_p(s, NULL, "/w", 0755);
  store_path_mkdir_p(s, NULL, "/g", 0755);
  static unsigned char buf[MAX_FILE];
  char p[64], q[64];
  for (int op = 0; op < 200000; op++) {
    size_t size = HDR + rnd() % (MAX_FILE - HDR);
    uint32_t fs = rnd();
    fill(buf, size, fs);
    switch (rnd() % 6) {
      case 0:
      case 1: /* whole-file write, new or replacing */
        snprintf(p, sizeof p, "/w/f%u", rnd() % 64);
        store_path_write_file(s, NULL, p, buf, size, 0644, 0);
        break;
      case 2: { /* piecewise writes through the inode API, grouped */
        snprintf(p, sizeof p, "/w/p%u", rnd() % 16);
        if (store_begin(s) != 0) break;
        store_stat st;
        int rc = store_path_open(s, NULL, p, O_WRONLY | O_CREAT | O_TRUNC, 0644, &st);
        for (size_t off = 0; rc == 0 && off < size; off += 1000) {
          size_t n = size - off < 1000 ? size - off : 1000;
          if (store_write(s, st.ino, buf + off, n, off) < 0) rc = -1;
        }
        if (rc == 0)
          store_commit(s);
        else
          store_rollback(s);
        break;
      }
      case 3: /* rename over another file */
        snprintf(p, sizeof p, "/w/f%u", rnd() % 64);
        snprintf(q, sizeof q, "/w/f%u", rnd() % 64);
        store_path_rename(s, NULL, p, q);
        break;
      case 4: /* unlink */
        snprintf(p, sizeof p, "/w/f%u", rnd() % 64);
        store_path_unlink(s, NULL, p);
        break;
      case 5: { /* a group of three files, created or removed together */
        unsigned k = rnd() % 20;
        int create = rnd() % 2;
        if (store_begin(s) != 0) break;
        for (int j = 0; j < 3; j++) {
          snprintf(p, sizeof p, "/g/%u-%c", k, 'a' + j);
          if (create)
            store_path_write_file(s, NULL, p, buf, size, 0644, 0);
          else
            store_path_unlink(s, NULL, p);
        }
        store_commit(s);
        break;
      }
    }
  }
  store_close(s);
  _exit(0);
}

/* Checks every file below `dir`; counts groups' members into `groups`. */
typedef struct check_ctx {
  store *s;        /* the reopened store */
  const char *dir; /* "/w" or "/g" */
  int bad;         /* incomplete files found */
  int files;       /* files checked */
  int groups[20];  /* members present per group (/g only) */
} check_ctx;

static int check_cb(void *ud, const store_dirent *e) {
  check_ctx *c = ud;
  char p[300];
  snprintf(p, sizeof p, "%s/%s", c->dir, e->name);
  void *d = NULL;
  size_t n = 0;
  if (store_path_read_file(c->s, NULL, p, &d, &n) != 0 || !complete(d, n)) {
    fprintf(stderr, "  incomplete file %s (%zu bytes)\n", p, n);
    c->bad++;
  }
  free(d);
  c->files++;
  unsigned k;
  char which;
  if (!strcmp(c->dir, "/g") && sscanf(e->name, "%u-%c", &k, &which) == 2 && k < 20)
    c->groups[k]++;
  return 0;
}

static int check_dir(store *s, const char *dir, check_ctx *c) {
  memset(c, 0, sizeof *c);
  c->s = s;
  c->dir = dir;
  store_stat st;
  int rc = store_path_stat(s, NULL, dir, &st);
  if (rc == -ENOENT) return 0; /* killed before the writer made it */
  if (rc) return rc;
  return store_readdir(s, st.ino, 0, check_cb, c);
}

TEST(sigkill_at_random_instants_leaves_a_consistent_store) {
  char *path = tu_tmp_path("crash.db");
  rng_state = (uint32_t)time(NULL) ^ (uint32_t)getpid();
  int total_files = 0, kills_while_running = 0;
  for (int round = 0; round < ROUNDS; round++) {
    uint32_t seed = rnd();
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) writer(path, seed);
    struct timespec ts = {0, (long)(2 + rnd() % 60) * 1000000L};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) kills_while_running++;
    CHECK(!WIFEXITED(status) || WEXITSTATUS(status) == 0);

    store *s = NULL;
    char *msg = NULL;
    int rc = store_open(path, 0, &s, &msg);
    if (rc)
      fprintf(stderr, "  round %d: reopen failed %d %s\n", round, rc, msg ? msg : "");
    free(msg);
    REQUIRE(rc == 0);
    char buf[64];
    CHECK_STR(tu_text(s, "PRAGMA integrity_check", buf, sizeof buf), "ok");
    check_ctx w, g;
    CHECK_EQ(check_dir(s, "/w", &w), 0);
    CHECK_EQ(w.bad, 0);
    CHECK_EQ(check_dir(s, "/g", &g), 0);
    CHECK_EQ(g.bad, 0);
    for (int k = 0; k < 20; k++)
      if (g.groups[k] != 0 && g.groups[k] != 3) {
        fprintf(stderr, "  round %d: group %d has %d of 3 files\n", round, k,
                g.groups[k]);
        CHECK(0);
      }
    total_files += w.files + g.files;
    /* the tables agree with each other */
    CHECK_EQ(
        tu_int(
            s,
            "SELECT count(*) FROM fs_dentry WHERE ino NOT IN (SELECT ino FROM fs_inode)"),
        0);
    CHECK_EQ(tu_int(s,
                    "SELECT count(*) FROM fs_inode WHERE ino != 1 AND ino NOT IN "
                    "(SELECT ino FROM fs_dentry)"),
             0);
    CHECK_EQ(
        tu_int(
            s,
            "SELECT count(*) FROM fs_data WHERE ino NOT IN (SELECT ino FROM fs_inode)"),
        0);
    CHECK_EQ(
        tu_int(
            s,
            "SELECT count(*) FROM fs_inode i WHERE (mode & 61440) = 32768 AND nlink != "
            "(SELECT count(*) FROM fs_dentry d WHERE d.ino = i.ino)"),
        0);
    CHECK_EQ(
        tu_int(s,
               "SELECT count(*) FROM fs_data d JOIN fs_inode i ON i.ino = d.ino WHERE "
               "(d.chunk_index + 1) * 4096 < i.size AND length(d.data) != 4096"),
        0);
    CHECK_EQ(
        tu_int(s,
               "SELECT count(*) FROM fs_inode i WHERE (mode & 61440) = 32768 AND size != "
               "coalesce((SELECT max(chunk_index) * 4096 + length(data) FROM fs_data d "
               "WHERE d.ino = i.ino), 0)"),
        0);
    store_close(s);
  }
  /* the test only means something if writers were really cut off mid-work
   * and had written files */
  CHECK(kills_while_running >= ROUNDS / 2);
  CHECK(total_files > 0);
  tu_rm_db(path);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(sigkill_at_random_instants_leaves_a_consistent_store);
  return harness_done();
}
