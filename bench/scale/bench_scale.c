/*
 * bench_scale.c - the figures of issue 19 that the C API shows, each beside
 * its floor in one run (run.sh prints the table and the ratios):
 *
 *   bash      a warm `echo hi`: in memory, unrecorded (the shell alone); in a
 *             file sandbox with its history row (what every front does);
 *             and the floor, a fork+exec of `/bin/bash -c 'echo hi'` with its
 *             output read through a pipe
 *   threads   T threads (1, 2, 4, 16, 64), each on a sandbox of its own,
 *             doing short calls for a fixed time (BENCH_SCALE_SECS, 1 s):
 *             calls per second, p99 latency, CPU per call and voluntary
 *             context switches, in memory and in files with the history row,
 *             beside a pure-CPU spin peer on as many threads
 *   persandbox  RSS per open sandbox (64 in memory, 64 files, each after a
 *             call), and with a Python worker (8): host RSS and the workers'
 *             PSS per sandbox
 *   python    a warm sbx_python_exec("x = 1") round trip, beside a host
 *             `python3 -c 'x = 1'` per call (fork+exec)
 *   fuse      Python in the jail reading a 100 MB file of the sandbox
 *             (through FUSE): again (the kernel's page cache) and after the
 *             shell changed it (every byte from the store), beside host
 *             python and `cat` reading the same bytes on tmpfs
 *   fork      sbx_fork and sbx_snapshot + write of a sandbox holding 1 GB
 *             (BENCH_SCALE_MB), beside `cp` of its database file; all three
 *             end with the copy on disk (fork: fdatasync; the snapshot's
 *             file: fdatasync; cp: `sync FILE`)
 *   memory    MB written into an in-memory sandbox under a quota past 1 GiB
 *   create    sbx_open of a missing file + sbx_close (create_sbx), and the
 *             floor, SQLite creating a WAL database with one table
 *             (create_sqlite): run.sh counts their fdatasync/fsync calls
 *             under strace -f -c, one workload per process
 *   instr     2,560 warm `echo hi` in memory unrecorded (instr_mem) and in
 *             a file with their rows (instr_file): run.sh counts their
 *             instructions with callgrind, a figure the load of other work
 *             does not move
 *
 *   bench_scale DIR [ROW...]      (DIR: a scratch directory on the disk)
 *
 * Prints "ROW NAME VALUE" lines (microseconds, calls/s or milliseconds, as
 * the name says). Every call's result is checked, so a broken path cannot
 * look fast.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <dirent.h>
#include <spawn.h>
#include <sys/resource.h>
#include <time.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

extern char **environ;

static const char *scratch;

static int py_ok(sbx *h, const char *code, double *ms);

static int wanted(int argc, char **argv, const char *row) {
  if (argc <= 2) return 1;
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], row) == 0) return 1;
  return 0;
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
  return t[n / 2];
}

static double pct(double *t, int n, double p) {
  qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
  int i = (int)(p * (n - 1));
  return t[i];
}

/* One recorded `echo hi` call (the row every front writes). */
static int run_recorded(sbx *h) {
  sbx_bash_opts o = {.stdin_fd = -1, .record = 1};
  sbx_bash_result r;
  int rc = sbx_bash_ex(h, "echo hi", 7, &o, &r);
  int bad = rc != SBX_OK || r.out_len != 3 || memcmp(r.out, "hi\n", 3) != 0;
  if (bad) fprintf(stderr, "bench: recorded echo: rc %d: %s\n", rc, sbx_errmsg(h));
  sbx_bash_result_free(&r);
  return bad;
}

/* fork+exec of /bin/bash -c 'echo hi', its stdout read through a pipe. */
static int host_bash(void) {
  int p[2];
  if (pipe2(p, O_CLOEXEC)) return 1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  char *argv[] = {"bash", "-c", "echo hi", NULL};
  pid_t pid;
  int e = posix_spawn(&pid, "/bin/bash", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  char buf[16];
  ssize_t n = e ? -1 : read(p[0], buf, sizeof buf);
  close(p[0]);
  int st = 0;
  if (!e) waitpid(pid, &st, 0);
  return e || n != 3 || memcmp(buf, "hi\n", 3) != 0 || st != 0;
}

static sbx *open_file(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  unlink(path);
  sbx *h;
  if (sbx_open(path, 0, &h) != SBX_OK) {
    fprintf(stderr, "bench: open %s: %s\n", path, h ? sbx_errmsg(h) : "out of memory");
    sbx_close(h);
    return NULL;
  }
  return h;
}

/* The calls callgrind counts (run.sh: --toggle-collect=instr_calls): 2,560
 * warm `echo hi`, recorded or not. */
__attribute__((noinline)) int instr_calls(sbx *h, int recorded) {
  for (int k = 0; k < 2560; k++)
    if (recorded ? run_recorded(h) : bench_run(h, "echo hi", "hi\n")) return 1;
  return 0;
}

/* instr_mem: the shell alone; instr_file: a file sandbox with the rows. */
static int row_instr(int file) {
  sbx *h = NULL;
  if (file ? !(h = open_file("instr.db")) : sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK)
    return 1;
  for (int i = 0; i < 100; i++) /* warm */
    if (file ? run_recorded(h) : bench_run(h, "echo hi", "hi\n")) return 1;
  int bad = instr_calls(h, file);
  sbx_close(h);
  return bad;
}

/* A new named sandbox file, opened and closed (what `create` counts). */
static int row_create_sbx(void) {
  sbx *h = open_file("create.db");
  if (!h) return 1;
  sbx_close(h);
  printf("create sbx_done 1\n");
  return 0;
}

/* The floor: SQLite's own create of a one-table WAL database. */
static int row_create_sqlite(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/create-sqlite.db", scratch);
  unlink(path);
  sqlite3 *db;
  int rc = sqlite3_open(path, &db);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db,
                      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                      "CREATE TABLE t (x INTEGER)",
                      NULL, NULL, NULL);
  sqlite3_close(db);
  printf("create sqlite_done 1\n");
  return rc != SQLITE_OK;
}

/* This thread's CPU time (user + system), microseconds. */
static double cpu_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int row_bash(void) {
  enum { HOST = 300 };
  static double t[HOST];
  sbx *m, *f = open_file("bash.db");
  if (!f || sbx_open(NULL, SBX_OPEN_MEMORY, &m) != SBX_OK) return 1;
  for (int i = 0; i < 100; i++)
    if (bench_run(m, "echo hi", "hi\n") || run_recorded(f)) return 1;
  /* Means over rounds of 2,560 calls (a multiple of every batch size of the
   * history), the best round of 5 for each: the rows written every so many
   * calls are in every round, which a per-call median would leave out, and
   * the best round is the one the load of other work disturbed least. */
  /* Wall time and this thread's CPU time: on a loaded machine a round of
   * 2,560 calls spans several scheduler slices, so the wall time counts
   * other work's turns; the CPU time is the call's own cost (the writes of
   * the history rows included: pwrite(2) is system time of this thread). */
  enum { ROUND = 2560, ROUNDS = 5 };
  double mem_best = 1e18, file_best = 1e18, mem_cpu = 1e18, file_cpu = 1e18;
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now_us(), c0 = cpu_now_us();
    for (int k = 0; k < ROUND; k++)
      if (bench_run(m, "echo hi", "hi\n")) return 1;
    double t1 = bench_now_us(), c1 = cpu_now_us();
    for (int k = 0; k < ROUND; k++)
      if (run_recorded(f)) return 1;
    double t2 = bench_now_us(), c2 = cpu_now_us();
    if ((t1 - t0) / ROUND < mem_best) mem_best = (t1 - t0) / ROUND;
    if ((t2 - t1) / ROUND < file_best) file_best = (t2 - t1) / ROUND;
    if ((c1 - c0) / ROUND < mem_cpu) mem_cpu = (c1 - c0) / ROUND;
    if ((c2 - c1) / ROUND < file_cpu) file_cpu = (c2 - c1) / ROUND;
  }
  printf("bash mem_us %.3f\n", mem_best);
  printf("bash file_recorded_us %.3f\n", file_best);
  printf("bash mem_cpu_us %.3f\n", mem_cpu);
  printf("bash file_recorded_cpu_us %.3f\n", file_cpu);
  for (int i = 0; i < HOST; i++) {
    double t0 = bench_now_us();
    if (host_bash()) return 1;
    t[i] = bench_now_us() - t0;
  }
  printf("bash host_us %.3f\n", median(t, HOST));
  sbx_close(m);
  sbx_close(f);
  return 0;
}

/* ---- threads ----------------------------------------------------------------------
 * T threads (1, 2, 4, 16, 64), each on a sandbox of its own, doing short calls
 * for a fixed time; beside them the same threads doing a fixed unit of pure
 * CPU work (the spin peer): on a shared host the peer shows what the machine
 * gave the threads in that moment, so sbx's scaling is read against the
 * peer's. Each thread also counts its CPU time and its voluntary context
 * switches (a lock that serializes the calls shows as waits, i.e. switches,
 * or as CPU per call growing with T). */

enum { MAXT = 64 };

typedef struct worker {
  sbx *h;          /* this thread's sandbox (NULL: the spin peer) */
  int recorded;    /* 1: calls with the history row */
  double until;    /* stop time (bench_now_us) */
  long calls;      /* calls done */
  double *lat;     /* latencies (us), up to cap */
  long cap;
  double t0, t1;   /* when it started and stopped (bench_now_us) */
  double cpu_us;   /* this thread's CPU time */
  long vcsw;       /* its voluntary context switches */
  int failed;
  pthread_barrier_t *start;
} worker;

static double thread_cpu_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static long thread_vcsw(void) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw;
}

/* The spin peer's unit: about as much CPU as a short call. */
static volatile unsigned long spin_sink;
static int spin_unit(void) {
  unsigned long x = 0;
  for (int i = 0; i < 2000; i++) x = x * 6364136223846793005UL + (unsigned long)i;
  spin_sink = x;
  return 0;
}

static void *worker_main(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(w->start);
  w->t0 = bench_now_us();
  double cpu0 = thread_cpu_us();
  long cs0 = thread_vcsw();
  while (bench_now_us() < w->until) {
    double t0 = bench_now_us();
    int bad = !w->h ? spin_unit() : w->recorded ? run_recorded(w->h) : bench_run(w->h, "echo hi", "hi\n");
    if (bad) {
      w->failed = 1;
      break;
    }
    if (w->calls < w->cap) w->lat[w->calls] = bench_now_us() - t0;
    w->calls++;
  }
  w->cpu_us = thread_cpu_us() - cpu0;
  w->vcsw = thread_vcsw() - cs0;
  w->t1 = bench_now_us();
  return NULL;
}

/* One measurement: n threads of `kind` (0 spin, 1 memory, 2 file with the
 * history row, 3 memory with the history row: the package's bash()) for secs. */
static int threads_run(int kind, int n, double secs) {
  static const char *names[] = {"spin", "mem", "file", "memrec"};
  worker *w = calloc(MAXT, sizeof *w);
  pthread_t th[MAXT];
  pthread_barrier_t bar;
  if (!w) return 1;
  pthread_barrier_init(&bar, NULL, (unsigned)n + 1);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "thread%d.db", i);
    if (kind == 2) w[i].h = open_file(name);
    else if ((kind == 1 || kind == 3) && sbx_open(NULL, SBX_OPEN_MEMORY, &w[i].h) != SBX_OK)
      w[i].h = NULL;
    if (kind && !w[i].h) return 1;
    for (int k = 0; kind && k < 50; k++)
      if (bench_run(w[i].h, "echo hi", "hi\n")) return 1;
    w[i].recorded = kind >= 2;
    w[i].cap = 4000000 / n;
    w[i].lat = malloc((size_t)w[i].cap * sizeof(double));
    w[i].start = &bar;
    if (!w[i].lat) return 1;
  }
  double until = bench_now_us() + secs * 1e6 + 1e4;
  for (int i = 0; i < n; i++) {
    w[i].until = until;
    pthread_create(&th[i], NULL, worker_main, &w[i]);
  }
  pthread_barrier_wait(&bar);
  long total = 0, kept = 0, vcsw = 0;
  double cpu = 0;
  for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  /* from the first thread's start to the last one's stop (this thread may
   * wait long for a CPU after the barrier on a busy host) */
  double t0 = w[0].t0, t1 = w[0].t1;
  for (int i = 1; i < n; i++) {
    if (w[i].t0 < t0) t0 = w[i].t0;
    if (w[i].t1 > t1) t1 = w[i].t1;
  }
  double el = t1 - t0;
  for (int i = 0; i < n; i++) total += w[i].calls, cpu += w[i].cpu_us, vcsw += w[i].vcsw;
  double *all = malloc((size_t)total * sizeof *all);
  if (!all) return 1;
  for (int i = 0; i < n; i++) {
    long k = w[i].calls < w[i].cap ? w[i].calls : w[i].cap;
    memcpy(all + kept, w[i].lat, (size_t)k * sizeof *all);
    kept += k;
    if (w[i].failed) return 1;
    free(w[i].lat);
    sbx_close(w[i].h);
    if (kind == 2) {
      char path[512];
      snprintf(path, sizeof path, "%s/thread%d.db", scratch, i);
      unlink(path);
    }
  }
  const char *K = names[kind];
  printf("threads %s_%d_calls_per_s %.0f\n", K, n, total / (el / 1e6));
  printf("threads %s_%d_p99_us %.2f\n", K, n, pct(all, (int)kept, 0.99));
  printf("threads %s_%d_cpu_us_per_call %.3f\n", K, n, cpu / (double)total);
  printf("threads %s_%d_vcsw_per_kcall %.3f\n", K, n, 1000.0 * (double)vcsw / (double)total);
  printf("threads %s_%d_cpus %.2f\n", K, n, cpu / el);
  free(all);
  free(w);
  pthread_barrier_destroy(&bar);
  return 0;
}

static int row_threads(void) {
  static const int counts[] = {1, 2, 4, 16, 64};
  const char *e = getenv("BENCH_SCALE_SECS");
  double secs = e && atof(e) > 0 ? atof(e) : 1.0;
  for (int kind = 0; kind < 4; kind++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
      if (threads_run(kind, counts[c], secs)) return 1;
  return 0;
}

/* ---- memory per sandbox ------------------------------------------------------------
 * RSS of this process (and PSS of its child processes: the Python workers)
 * before and after opening N sandboxes that each ran a call. */

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The summed Pss (KiB) of this process's descendants. */
static long children_pss_kib(void) {
  enum { MAXP = 1 << 16 };
  static int parent[MAXP];
  static unsigned char mine[MAXP];
  memset(parent, 0, sizeof parent);
  memset(mine, 0, sizeof mine);
  DIR *d = opendir("/proc");
  struct dirent *de;
  while (d && (de = readdir(d))) {
    int pid = atoi(de->d_name);
    if (pid <= 0 || pid >= MAXP) continue;
    char p[64], buf[512];
    snprintf(p, sizeof p, "/proc/%d/stat", pid);
    FILE *f = fopen(p, "r");
    if (!f) continue;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')');
    int pp = 0;
    if (rp && sscanf(rp + 1, " %*c %d", &pp) == 1 && pp > 0 && pp < MAXP) parent[pid] = pp;
  }
  if (d) closedir(d);
  int self = getpid();
  if (self >= MAXP) return 0;
  mine[self] = 1;
  for (int grew = 1; grew;) {
    grew = 0;
    for (int pid = 1; pid < MAXP; pid++)
      if (!mine[pid] && parent[pid] && mine[parent[pid]]) mine[pid] = 1, grew = 1;
  }
  long total = 0;
  for (int pid = 1; pid < MAXP; pid++) {
    if (!mine[pid] || pid == self) continue;
    char p[64], line[256];
    snprintf(p, sizeof p, "/proc/%d/smaps_rollup", pid);
    FILE *f = fopen(p, "r");
    long v;
    while (f && fgets(line, sizeof line, f))
      if (sscanf(line, "Pss: %ld", &v) == 1) total += v;
    if (f) fclose(f);
  }
  return total;
}

static int row_persandbox(void) {
  enum { N = 64, NPY = 8 };
  sbx *h[N];
  /* warm the allocator and the shell's one-time state first */
  sbx *w;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &w) != SBX_OK || bench_run(w, "echo hi", "hi\n")) return 1;
  sbx_close(w);
  for (int file = 0; file < 2; file++) {
    long r0 = rss_kib();
    for (int i = 0; i < N; i++) {
      char name[32];
      snprintf(name, sizeof name, "per%d.db", i);
      if (file) h[i] = open_file(name);
      else if (sbx_open(NULL, SBX_OPEN_MEMORY, &h[i]) != SBX_OK) h[i] = NULL;
      if (!h[i] || bench_run(h[i], "echo hi > /tmp/x; cat /tmp/x", "hi\n")) return 1;
    }
    printf("persandbox %s_kib %.1f\n", file ? "file" : "mem", (double)(rss_kib() - r0) / N);
    for (int i = 0; i < N; i++) sbx_close(h[i]);
  }
  long r0 = rss_kib(), c0 = children_pss_kib();
  for (int i = 0; i < NPY; i++) {
    if (sbx_open(NULL, SBX_OPEN_MEMORY, &h[i]) != SBX_OK || py_ok(h[i], "x = 1", NULL)) return 1;
  }
  printf("persandbox python_host_kib %.1f\n", (double)(rss_kib() - r0) / NPY);
  printf("persandbox python_worker_kib %.1f\n", (double)(children_pss_kib() - c0) / NPY);
  for (int i = 0; i < NPY; i++) sbx_close(h[i]);
  return 0;
}

/* ---- python ----------------------------------------------------------------------- */

static int py_ok(sbx *h, const char *code, double *ms) {
  sbx_py_result *r = NULL;
  int rc = sbx_python_exec(h, code, NULL, &r);
  int bad = rc != SBX_OK || !r || r->error != SBX_PY_OK;
  if (bad)
    fprintf(stderr, "bench: python %s: rc %d %s %s\n", code, rc, sbx_errmsg(h),
            r && r->error_message ? r->error_message : "");
  if (ms && r) *ms = r->duration_ms;
  sbx_free(r);
  return bad;
}

static int row_python(void) {
  enum { N = 2000 };
  static double t[N];
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return 1;
  for (int i = 0; i < 50; i++)
    if (py_ok(h, "x = 1", NULL)) return 1;
  for (int i = 0; i < N; i++) {
    double t0 = bench_now_us();
    if (py_ok(h, "x = 1", NULL)) return 1;
    t[i] = bench_now_us() - t0;
  }
  printf("python warm_us %.3f\n", median(t, N));
  sbx_close(h);
  /* the floor: the same statement in a fresh host python3 -c per call */
  enum { HOST = 40 };
  char *argv[] = {"python3", "-c", "x = 1", NULL};
  for (int i = 0; i < HOST; i++) {
    double t0 = bench_now_us();
    pid_t pid;
    int st = 0;
    if (posix_spawn(&pid, "/usr/bin/python3", NULL, NULL, argv, environ) != 0 ||
        waitpid(pid, &st, 0) != pid || st != 0)
      return 1;
    t[i] = bench_now_us() - t0;
  }
  printf("python host_spawn_us %.3f\n", median(t, HOST));
  return 0;
}

/* ---- fuse ------------------------------------------------------------------------- */

static int run_host(const char *cmd) {
  int st = system(cmd);
  return st != 0;
}

static int row_fuse(void) {
  const size_t mb = 100;
  size_t len = mb << 20;
  char *buf = malloc(len);
  if (!buf) return 1;
  for (size_t i = 0; i < len; i++) buf[i] = (char)('a' + i % 26);
  sbx *h = open_file("fuse.db");
  if (!h || sbx_write_file(h, "/data/big.bin", buf, len, SBX_WRITE_MKDIRS) != SBX_OK) return 1;
  /* the host's copy on tmpfs (BENCH_TMPFS, default /dev/shm), as the floor */
  char host[512], cmd[1200];
  const char *tmpfs = getenv("BENCH_TMPFS");
  snprintf(host, sizeof host, "%s/sbx-bench-big-%d.bin", tmpfs && *tmpfs ? tmpfs : "/dev/shm",
           (int)getpid());
  FILE *f = fopen(host, "wb");
  if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) return 1;
  free(buf);
  const char *code = "with open('/data/big.bin', 'rb', buffering=0) as f:\n"
                     "    n = 0\n"
                     "    while True:\n"
                     "        b = f.read(1 << 20)\n"
                     "        if not b: break\n"
                     "        n += len(b)\n"
                     "assert n == 104857600, n\n";
  double best = 1e18, ms;
  if (py_ok(h, "x = 1", NULL)) return 1; /* the worker is up */
  /* the first read goes to the store (every byte through the server); the
   * next ones of the unchanged file come from the jail kernel's page cache */
  for (int i = 0; i < 6; i++) {
    double t0 = bench_now_us();
    if (py_ok(h, code, &ms)) return 1;
    double el = (bench_now_us() - t0) / 1e3;
    if (i == 0) printf("fuse python_first_read_ms %.3f\n", el);
    else if (el < best) best = el;
  }
  printf("fuse python_read_ms %.3f\n", best);
  /* the cold read again: the shell rewrites one byte between calls (the
   * generation moves, the next call drops the cached pages) */
  best = 1e18;
  for (int i = 0; i < 3; i++) {
    if (bench_run(h, "printf z | dd of=/data/big.bin bs=1 seek=7 conv=notrunc status=none", "")) return 1;
    double t0 = bench_now_us();
    if (py_ok(h, code, &ms)) return 1;
    double el = (bench_now_us() - t0) / 1e3;
    if (el < best) best = el;
  }
  printf("fuse python_cold_read_ms %.3f\n", best);
  /* the floors: cat of the same bytes on the host, and host python reading them */
  snprintf(cmd, sizeof cmd, "cat %s > /dev/null", host);
  best = 1e18;
  for (int i = 0; i < 5; i++) {
    double t0 = bench_now_us();
    if (run_host(cmd)) return 1;
    double el = (bench_now_us() - t0) / 1e3;
    if (el < best) best = el;
  }
  printf("fuse host_cat_ms %.3f\n", best);
  snprintf(cmd, sizeof cmd,
           "/usr/bin/python3 -S -c \"import time,sys\nt=time.perf_counter()\n"
           "f=open('%s','rb',buffering=0)\nn=0\nwhile True:\n b=f.read(1<<20)\n if not b: break\n n+=len(b)\n"
           "assert n==104857600\nprint((time.perf_counter()-t)*1e3)\"",
           host);
  best = 1e18;
  for (int i = 0; i < 5; i++) {
    FILE *p = popen(cmd, "r");
    double v = 0;
    if (!p || fscanf(p, "%lf", &v) != 1 || pclose(p) != 0) return 1;
    if (v < best) best = v;
  }
  printf("fuse host_python_read_ms %.3f\n", best);
  unlink(host);
  sbx_close(h);
  return 0;
}

/* ---- fork / export ---------------------------------------------------------------- */

static int row_fork(void) {
  const char *e = getenv("BENCH_SCALE_MB");
  size_t mb = e && atoi(e) > 0 ? (size_t)atoi(e) : 1024;
  size_t chunk = 4u << 20;
  char *buf = malloc(chunk);
  if (!buf) return 1;
  sbx *h = open_file("fork.db");
  if (!h) return 1;
  if (sbx_begin(h) != SBX_OK) return 1;
  for (size_t i = 0; i < mb / 4; i++) {
    for (size_t k = 0; k < chunk; k += 8) memcpy(buf + k, &i, sizeof i); /* distinct pages */
    char p[64];
    snprintf(p, sizeof p, "/data/f%zu", i);
    if (sbx_write_file(h, p, buf, chunk, SBX_WRITE_MKDIRS) != SBX_OK) {
      fprintf(stderr, "bench: %s\n", sbx_errmsg(h));
      return 1;
    }
  }
  if (sbx_commit(h) != SBX_OK) return 1;
  free(buf);
  /* the database file itself is what cp copies: checkpoint first (a snapshot
   * does too), so both copy the same bytes */
  void *bytes;
  size_t len;
  if (sbx_snapshot(h, &bytes, &len) != SBX_OK) return 1;
  sbx_free(bytes);
  printf("fork size_mb %.1f\n", (double)len / (1 << 20));
  char src[512], dst[512], cmd[1200];
  snprintf(src, sizeof src, "%s/fork.db", scratch);
  double best_fork = 1e18, best_snap = 1e18, best_cp = 1e18, best_only = 1e18;
  for (int r = 0; r < 3; r++) {
    snprintf(dst, sizeof dst, "%s/copy.db", scratch);
    unlink(dst);
    snprintf(cmd, sizeof cmd, "sync");
    run_host(cmd);
    double t0 = bench_now_us();
    if (sbx_fork(h, dst, NULL) != SBX_OK) {
      fprintf(stderr, "bench: fork: %s\n", sbx_errmsg(h));
      return 1;
    }
    double el = (bench_now_us() - t0) / 1e3;
    if (el < best_fork) best_fork = el;
    unlink(dst);
    run_host("sync");
    t0 = bench_now_us();
    if (sbx_snapshot(h, &bytes, &len) != SBX_OK) return 1;
    double snap = (bench_now_us() - t0) / 1e3;
    if (snap < best_only) best_only = snap;
    int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    size_t off = 0;
    while (fd >= 0 && off < len) {
      ssize_t w = write(fd, (char *)bytes + off, len - off);
      if (w <= 0) break;
      off += (size_t)w;
    }
    if (fd < 0 || off != len || fdatasync(fd) || close(fd)) return 1;
    sbx_free(bytes);
    el = (bench_now_us() - t0) / 1e3;
    if (el < best_snap) best_snap = el;
    unlink(dst);
    run_host("sync");
    snprintf(cmd, sizeof cmd, "cp %s %s && sync %s", src, dst, dst);
    t0 = bench_now_us();
    if (run_host(cmd)) return 1;
    el = (bench_now_us() - t0) / 1e3;
    if (el < best_cp) best_cp = el;
    unlink(dst);
  }
  printf("fork fork_ms %.3f\n", best_fork);
  printf("fork snapshot_write_ms %.3f\n", best_snap);
  printf("fork snapshot_only_ms %.3f\n", best_only);
  printf("fork cp_ms %.3f\n", best_cp);
  sbx_close(h);
  unlink(src);
  return 0;
}

/* ---- memory ----------------------------------------------------------------------- */

static int row_memory(void) {
  const size_t chunk = 8u << 20, n = 140; /* 1,120 MiB */
  sbx *h;
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &h) != SBX_OK) return 1;
  sbx_quota q = {.max_bytes = (uint64_t)(n + 1) * chunk};
  sbx_set_quota(h, &q);
  char *buf = malloc(chunk);
  if (!buf) return 1;
  memset(buf, 'm', chunk);
  size_t done = 0;
  double t0 = bench_now_us();
  for (size_t i = 0; i < n; i++) {
    char p[32];
    snprintf(p, sizeof p, "/m%zu", i);
    if (sbx_write_file(h, p, buf, chunk, 0) != SBX_OK) break;
    done++;
  }
  double el = (bench_now_us() - t0) / 1e3;
  printf("memory held_mib %zu\n", done * 8);
  printf("memory quota_mib %zu\n", (n + 1) * 8);
  printf("memory write_ms %.1f\n", el);
  free(buf);
  sbx_close(h);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_scale DIR [ROW...]\n");
    return 2;
  }
  scratch = argv[1];
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (wanted(argc, argv, "bash") && row_bash()) return 1;
  if (wanted(argc, argv, "threads") && row_threads()) return 1;
  if (wanted(argc, argv, "python") && row_python()) return 1;
  if (wanted(argc, argv, "persandbox") && row_persandbox()) return 1;
  if (wanted(argc, argv, "fuse") && row_fuse()) return 1;
  if (wanted(argc, argv, "memory") && row_memory()) return 1;
  if (wanted(argc, argv, "fork") && row_fork()) return 1;
  /* named only: run.sh runs each under strace */
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "create_sbx") == 0 && row_create_sbx()) return 1;
    if (strcmp(argv[i], "create_sqlite") == 0 && row_create_sqlite()) return 1;
    if (strcmp(argv[i], "instr_mem") == 0 && row_instr(0)) return 1;
    if (strcmp(argv[i], "instr_file") == 0 && row_instr(1)) return 1;
  }
  return 0;
}
