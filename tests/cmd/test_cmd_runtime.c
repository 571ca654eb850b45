/*
 * test_cmd_runtime.c - the command runtime of src/cmd/cmd.c: GNU option
 * parsing, output buffering and ordering, the line reader, quoting, the arena,
 * and the bounded window head and tail share (lib/headtail).
 * Uses a fake cmd_io over memory, so it needs neither the store nor the shell.
 */
#include <errno.h>

#include "cmd/cmd.h"
#include "harness.h"

/* A fake I/O: fd 0 reads `in`, fds 1 and 2 append to one log (to check order),
 * with a marker byte per stream so the test can tell them apart. */
typedef struct fake_io {
  const char *in;    /* stdin bytes */
  size_t inlen, pos; /* its length and read position */
  size_t chunk;      /* max bytes per read (to exercise refills) */
  char log[1 << 16]; /* "1:" / "2:" prefixed writes */
  size_t loglen;
  int epipe_after;   /* fail writes to fd 1 with -EPIPE after this many (0 = never) */
  int writes;
} fake_io;

static ssize_t fake_read(void *ud, int fd, void *buf, size_t n) {
  fake_io *f = ud;
  if (fd != 0) return -EBADF;
  size_t k = f->inlen - f->pos;
  if (k > n) k = n;
  if (f->chunk && k > f->chunk) k = f->chunk;
  memcpy(buf, f->in + f->pos, k);
  f->pos += k;
  return (ssize_t)k;
}

static ssize_t fake_write(void *ud, int fd, const void *buf, size_t n) {
  fake_io *f = ud;
  if (fd == 1 && f->epipe_after && ++f->writes > f->epipe_after) return -EPIPE;
  if (f->loglen + n + 2 > sizeof f->log) return -ENOSPC;
  f->log[f->loglen++] = (char)('0' + fd);
  f->log[f->loglen++] = ':';
  memcpy(f->log + f->loglen, buf, n);
  f->loglen += n;
  f->log[f->loglen] = '\0';
  return (ssize_t)n;
}

/* stdin is a pipe: head and tail find it not seekable. */
static int64_t fake_lseek(void *ud, int fd, int64_t off, int whence) {
  (void)ud, (void)fd, (void)off, (void)whence;
  return -ESPIPE;
}

static const cmd_io fake = {.read = fake_read, .write = fake_write, .lseek = fake_lseek};

static void ctx_init(cmd_ctx *ctx, fake_io *f, const char *name) {
  memset(ctx, 0, sizeof *ctx);
  memset(f, 0, sizeof *f);
  ctx->name = name;
  ctx->io = &fake;
  ctx->io_ud = f;
  ctx->arena = cmd_arena_new();
}

static const cmd_longopt longs[] = {
    {"lines", 1, 'n'}, {"verbose", 0, 'v'}, {"verify", 0, 300},
    {"color", 2, 301}, {"colour", 2, 301}, {0, 0, 0}};

TEST(getopt_permutes_operands_after_options) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "a", "-n", "5", "b", "-v", "c", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, n = 0, v = 0;
  while ((c = cmd_getopt(&ctx, &st, 7, argv, "n:v", longs)) != -1) {
    if (c == 'n') { n = atoi(st.arg); }
    else if (c == 'v') v = 1;
  }
  CHECK_EQ(n, 5); CHECK_EQ(v, 1);
  CHECK_EQ(st.ind, 4);
  CHECK_STR(argv[4], "a"); CHECK_STR(argv[5], "b"); CHECK_STR(argv[6], "c");
  cmd_arena_free(ctx.arena);
}

TEST(getopt_double_dash_ends_options) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "x", "--", "-v", "-n", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, count = 0;
  while ((c = cmd_getopt(&ctx, &st, 5, argv, "n:v", longs)) != -1) count++;
  CHECK_EQ(count, 0);
  CHECK_EQ(st.ind, 2);
  CHECK_STR(argv[2], "x"); CHECK_STR(argv[3], "-v"); CHECK_STR(argv[4], "-n");
  cmd_arena_free(ctx.arena);
}

TEST(getopt_plus_stops_at_first_operand) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "-v", "cmd", "-n", "1", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, v = 0, n = 0;
  while ((c = cmd_getopt(&ctx, &st, 5, argv, "+n:v", longs)) != -1) {
    if (c == 'v') v++;
    if (c == 'n') n++;
  }
  CHECK_EQ(v, 1); CHECK_EQ(n, 0); CHECK_EQ(st.ind, 2);
  cmd_arena_free(ctx.arena);
}

TEST(getopt_clusters_and_attached_arguments) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "-vn3", "-vvn", "7", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, v = 0;
  char got[16] = "";
  while ((c = cmd_getopt(&ctx, &st, 4, argv, "n:v", NULL)) != -1) {
    if (c == 'v') v++;
    if (c == 'n') strcat(got, st.arg);
  }
  CHECK_EQ(v, 3); CHECK_STR(got, "37");
  cmd_arena_free(ctx.arena);
}

TEST(getopt_long_abbreviation_and_value) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "--lin=4", "--verb", "--col", "--colo=never", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, n = 0, v = 0, col = 0;
  const char *colarg = "unset";
  while ((c = cmd_getopt(&ctx, &st, 5, argv, "n:v", longs)) != -1) {
    if (c == 'n') n = atoi(st.arg);
    if (c == 'v') v++;
    if (c == 301) { col++; if (st.arg) colarg = st.arg; }
  }
  CHECK_EQ(n, 4); CHECK_EQ(v, 1); CHECK_EQ(col, 2); CHECK_STR(colarg, "never");
  CHECK_EQ(f.loglen, 0);
  cmd_arena_free(ctx.arena);
}

TEST(getopt_ambiguous_long_option_message) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "--ver", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st, 2, argv, "n:v", longs), '?');
  CHECK_STR(f.log, "2:t: option '--ver' is ambiguous; possibilities:2: '--verbose'2: '--verify'2:\n"
                   "2:Try 't --help' for more information.\n");
  cmd_arena_free(ctx.arena);
}

/* GNU's message for each kind of bad option, one case a row: "sort" with one
 * argument under a short option string; a leading ':' in it keeps cmd_getopt
 * quiet and makes a missing argument return ':'. */
TEST(getopt_gnu_error_messages) {
  static const struct {
    const char *arg;    /* the one argument after "sort" */
    const char *shorts; /* the short option string */
    int ret;            /* what cmd_getopt returns */
    int opt;            /* the option st.opt then names (0: not checked) */
    const char *log;    /* what it writes ("" for nothing) */
  } cases[] = {
      {"-q", "n:v", '?', 'q',
       "2:sort: invalid option -- 'q'\n2:Try 'sort --help' for more information.\n"},
      {"-n", "n:v", '?', 0,
       "2:sort: option requires an argument -- 'n'\n2:Try 'sort --help' for more information.\n"},
      {"--bogus", "n:v", '?', 0,
       "2:sort: unrecognized option '--bogus'\n2:Try 'sort --help' for more information.\n"},
      {"--verbose=1", "n:v", '?', 0,
       "2:sort: option '--verbose' doesn't allow an argument\n"
       "2:Try 'sort --help' for more information.\n"},
      {"--lines", ":n:v", ':', 0, ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "sort");
    char *argv[] = {"sort", (char *)cases[i].arg, NULL};
    cmd_getopt_state st = CMD_GETOPT_INIT;
    CHECK_EQ(cmd_getopt(&ctx, &st, 2, argv, cases[i].shorts, longs), cases[i].ret);
    if (cases[i].opt) CHECK_EQ(st.opt, cases[i].opt);
    CHECK_STR(f.log, cases[i].log);
    cmd_arena_free(ctx.arena);
  }
}

/* The option string's long names (toybox's form) act as a table would. */
static const char spec[] = "(verify)(color)::(help)(version)n:(lines)v(verbose)(loud)x::(extra)";

TEST(getopt_string_long_names_and_long_only_values) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "--lin=4", "--lou", "--verif", "--col", "--colo=never", "--ext=9",
                  "--help", "--vers", "-x", "-xq", "op", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int got[16], n = 0;
  const char *args[16];
  for (int c; (c = cmd_getopt(&ctx, &st, 12, argv, spec, NULL)) != -1 && n < 16; n++) {
    got[n] = c;
    args[n] = st.arg;
  }
  CHECK_EQ(n, 10);
  CHECK_EQ(got[0], 'n'); CHECK_STR(args[0], "4");
  CHECK_EQ(got[1], 'v'); CHECK(args[1] == NULL);         /* --loud: -v's second name */
  CHECK_EQ(got[2], CMD_OPT_LONG);                        /* the first long-only option */
  CHECK_EQ(got[3], CMD_OPT_LONG + 1); CHECK(args[3] == NULL);
  CHECK_EQ(got[4], CMD_OPT_LONG + 1); CHECK_STR(args[4], "never");
  CHECK_EQ(got[5], 'x'); CHECK_STR(args[5], "9");        /* optional, like -x's */
  CHECK_EQ(got[6], CMD_OPT_HELP); CHECK_EQ(got[7], CMD_OPT_VERSION);
  CHECK_EQ(got[8], 'x'); CHECK(args[8] == NULL);
  CHECK_EQ(got[9], 'x'); CHECK_STR(args[9], "q");
  CHECK_EQ(st.ind, 11); CHECK_STR(argv[11], "op");
  CHECK_EQ(f.loglen, 0);
  cmd_arena_free(ctx.arena);
}

TEST(getopt_string_long_names_errors_as_glibc) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *a1[] = {"t", "--ver", NULL}; /* --verbose, --verify, --version */
  cmd_getopt_state st = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st, 2, a1, spec, NULL), '?');
  CHECK_STR(f.log, "2:t: option '--ver' is ambiguous; possibilities:2: '--verify'2: "
                   "'--verbose'2: '--version'2:\n2:Try 't --help' for more information.\n");
  f.loglen = 0; f.log[0] = 0;
  char *a2[] = {"t", "--lines", NULL};
  cmd_getopt_state st2 = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st2, 2, a2, spec, NULL), '?');
  CHECK_STR(f.log, "2:t: option '--lines' requires an argument\n2:Try 't --help' for more information.\n");
  f.loglen = 0; f.log[0] = 0;
  char *a3[] = {"t", "--loud=1", NULL};
  cmd_getopt_state st3 = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st3, 2, a3, spec, NULL), '?');
  CHECK_STR(f.log, "2:t: option '--loud' doesn't allow an argument\n2:Try 't --help' for more information.\n");
  f.loglen = 0; f.log[0] = 0;
  char *a4[] = {"t", "-(", NULL}; /* the string's punctuation is no option */
  cmd_getopt_state st4 = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st4, 2, a4, spec, NULL), '?');
  CHECK_STR(f.log, "2:t: invalid option -- '('\n2:Try 't --help' for more information.\n");
  cmd_arena_free(ctx.arena);
}

TEST(getopt_string_with_a_table_for_the_rest) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  static const cmd_longopt extra[] = {{"count", 1, 'v'}, {0, 0, 0}};
  char *argv[] = {"t", "--count=3", "--verb", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt(&ctx, &st, 3, argv, spec, extra), 'v');
  CHECK_STR(st.arg, "3");
  CHECK_EQ(cmd_getopt(&ctx, &st, 3, argv, spec, extra), 'v');
  CHECK(st.arg == NULL);
  CHECK_EQ(cmd_getopt(&ctx, &st, 3, argv, spec, extra), -1);
  cmd_arena_free(ctx.arena);
}

TEST(getopt_all_records_flags_and_last_arguments) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "-n1", "a", "--lines", "2", "--verify", "--col=x", "--", "-v", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt_all(&ctx, &st, 9, argv, spec, "usage\n"), -1);
  CHECK(cmd_opt_on(&st, 'n')); CHECK_STR(cmd_opt_arg(&st, 'n'), "2");
  CHECK(!cmd_opt_on(&st, 'v')); CHECK(!cmd_opt_on(&st, 'x')); CHECK(!cmd_opt_on(&st, '?'));
  CHECK(cmd_opt_on(&st, CMD_OPT_LONG)); CHECK(cmd_opt_arg(&st, CMD_OPT_LONG) == NULL);
  CHECK_STR(cmd_opt_arg(&st, CMD_OPT_LONG + 1), "x");
  CHECK_EQ(st.ind, 7); CHECK_STR(argv[7], "a"); CHECK_STR(argv[8], "-v");

  char *h[] = {"t", "-v", "--he", NULL};
  cmd_getopt_state sh = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt_all(&ctx, &sh, 3, h, spec, "usage\n"), 0);
  CHECK_STR(f.log, "1:usage\n");
  f.loglen = 0; f.log[0] = 0;
  char *b[] = {"t", "-vq", NULL};
  cmd_getopt_state sb = CMD_GETOPT_INIT;
  CHECK_EQ(cmd_getopt_all(&ctx, &sb, 2, b, spec, "usage\n"), 1);
  CHECK_STR(f.log, "2:t: invalid option -- 'q'\n2:Try 't --help' for more information.\n");
  cmd_arena_free(ctx.arena);
}

TEST(getopt_lone_dash_is_an_operand) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"t", "-", "-v", NULL};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int c, v = 0;
  while ((c = cmd_getopt(&ctx, &st, 3, argv, "v", NULL)) != -1) v += c == 'v';
  CHECK_EQ(v, 1); CHECK_EQ(st.ind, 2); CHECK_STR(argv[2], "-");
  cmd_arena_free(ctx.arena);
}

TEST(stderr_flushes_buffered_stdout_first) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char buf[CMD_OUTBUF];
  ctx.outbuf = buf;
  cmd_outs(&ctx, "a");
  cmd_outf(&ctx, "%d", 42);
  cmd_errorf(&ctx, "oops %s", "x");
  cmd_outc(&ctx, 'z');
  cmd_flush(&ctx);
  CHECK_STR(f.log, "1:a422:t: 2:oops x2:\n1:z");
  cmd_arena_free(ctx.arena);
}

TEST(buffered_output_is_written_in_one_piece) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  cmd_ctx c2; fake_io f2; ctx_init(&c2, &f2, "t");
  char buf2[CMD_OUTBUF];
  c2.outbuf = buf2;
  size_t total = 0;
  for (int i = 0; i < 1000; i++) { cmd_outf(&c2, "%04d\n", i); total += 5; }
  cmd_flush(&c2);
  CHECK_EQ(f2.loglen, total + 2);
  CHECK(memcmp(f2.log, "1:0000\n0001\n", 12) == 0);
  cmd_arena_free(ctx.arena);
  cmd_arena_free(c2.arena);
}

TEST(epipe_is_sticky) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  f.epipe_after = 1;
  CHECK_EQ(cmd_out(&ctx, "a", 1), 0);
  CHECK_EQ(cmd_out(&ctx, "b", 1), -EPIPE);
  CHECK_EQ(cmd_out(&ctx, "c", 1), -EPIPE);
  CHECK_EQ(cmd_flush(&ctx), -EPIPE);
  cmd_arena_free(ctx.arena);
}

TEST(reader_splits_lines_with_nul_bytes_and_no_final_newline) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  static const char data[] = "ab\ncd\0e\n\nlast";
  f.in = data; f.inlen = sizeof data - 1; f.chunk = 3;
  cmd_in *in = cmd_in_fd(&ctx, 0);
  char *line;
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 3); CHECK(memcmp(line, "ab\n", 4) == 0);
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 5); CHECK(memcmp(line, "cd\0e\n", 6) == 0);
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 1); CHECK_STR(line, "\n");
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 4); CHECK_STR(line, "last");
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 0);
  cmd_in_close(in);
  cmd_arena_free(ctx.arena);
}

TEST(reader_nul_delimiter) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  static const char data[] = "a\nb\0c\0";
  f.in = data; f.inlen = sizeof data - 1;
  cmd_in *in = cmd_in_fd(&ctx, 0);
  char *line;
  CHECK_EQ(cmd_in_getdelim(in, &line, 0), 4); CHECK(memcmp(line, "a\nb", 4) == 0);
  CHECK_EQ(cmd_in_getdelim(in, &line, 0), 2); CHECK_STR(line, "c");
  CHECK_EQ(cmd_in_getdelim(in, &line, 0), 0);
  cmd_in_close(in);
  cmd_arena_free(ctx.arena);
}

TEST(reader_grows_for_long_lines_and_stops_at_max_string) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  size_t n = 300000;
  char *data = malloc(n + 3);
  memset(data, 'q', n);
  memcpy(data + n, "\nz", 3);
  f.in = data; f.inlen = n + 2;
  cmd_in *in = cmd_in_fd(&ctx, 0);
  char *line;
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), (long long)n + 1);
  CHECK(line[0] == 'q' && line[n - 1] == 'q' && line[n] == '\n');
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 1); CHECK_STR(line, "z");
  cmd_in_close(in);

  f.pos = 0;
  ctx.max_string = 100000;
  in = cmd_in_fd(&ctx, 0);
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), -EFBIG);
  cmd_in_close(in);
  free(data);
  cmd_arena_free(ctx.arena);
}

/* "first\n" and a line of n 'x' bytes without a newline: the caller frees it. */
static char *long_line_input(size_t n) {
  char *in = malloc(n + 7);
  if (!in) return NULL;
  memcpy(in, "first\n", 6);
  memset(in + 6, 'x', n);
  in[n + 6] = '\0';
  return in;
}

/* head -n -N and tail -n N on a pipe keep the undecided lines in a window
 * (lib/headtail.h) bounded by max_string plus eight 64 KiB blocks: a 600 KB
 * line under a 1000-byte limit is refused as GNU's "memory exhausted". */
TEST(head_and_tail_windows_stop_at_max_string) {
  char *in = long_line_input(600000);
  REQUIRE(in != NULL);
  char *head_argv[] = {"head", "-n", "-1", NULL};
  char *tail_argv[] = {"tail", "-n", "2", NULL};
  char **argvs[] = {head_argv, tail_argv};
  /* cmd_errorf writes the name, the message and the newline apart */
  const char *want[] = {"2:head: 2:memory exhausted2:\n", "2:tail: 2:memory exhausted2:\n"};
  for (int k = 0; k < 2; k++) {
    cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
    f.in = in; f.inlen = strlen(in);
    ctx.max_string = 1000;
    CHECK_EQ(cmd_invoke(&ctx, 3, argvs[k]), 1);
    CHECK_STR(f.log, want[k]);
    cmd_arena_free(ctx.arena);
  }
  free(in);
}

/* The same windows within the limit (a 40 KB line) print as usual. */
TEST(head_and_tail_windows_within_max_string) {
  char *in = long_line_input(40000);
  REQUIRE(in != NULL);
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  f.in = in; f.inlen = strlen(in);
  ctx.max_string = 1000;
  char *head_argv[] = {"head", "-n", "-1", NULL};
  CHECK_EQ(cmd_invoke(&ctx, 3, head_argv), 0);
  CHECK_STR(f.log, "1:first\n");
  cmd_arena_free(ctx.arena);
  ctx_init(&ctx, &f, "t");
  f.in = in; f.inlen = strlen(in);
  ctx.max_string = 1000;
  char *tail_argv[] = {"tail", "-n", "1", NULL};
  CHECK_EQ(cmd_invoke(&ctx, 3, tail_argv), 0);
  CHECK(f.loglen == 2 + 40000 && strcmp(f.log + 2, in + 6) == 0);
  cmd_arena_free(ctx.arena);
  free(in);
}

TEST(reader_mixes_lines_and_raw_reads) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  f.in = "one\ntwo\nthree"; f.inlen = 13;
  cmd_in *in = cmd_in_fd(&ctx, 0);
  char *line, buf[32];
  CHECK_EQ(cmd_in_getdelim(in, &line, '\n'), 4);
  ssize_t r = cmd_in_read(in, buf, 3);
  CHECK_EQ(r, 3); CHECK(memcmp(buf, "two", 3) == 0);
  char *all; size_t len;
  CHECK_EQ(cmd_in_slurp(in, &all, &len), 0);
  CHECK_EQ(len, 6); CHECK_STR(all, "\nthree");
  free(all);
  cmd_in_close(in);
  cmd_arena_free(ctx.arena);
}

TEST(quote_like_gnu_shell_escape_always) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  CHECK_STR(cmd_quote(&ctx, "x"), "'x'");
  CHECK_STR(cmd_quote(&ctx, "a b"), "'a b'");
  CHECK_STR(cmd_quote(&ctx, "it's"), "'it'\\''s'");
  CHECK_STR(cmd_quote(&ctx, "a\nb"), "'a'$'\\n''b'");
  CHECK_STR(cmd_quote(&ctx, ""), "''");
  cmd_arena_free(ctx.arena);
}

TEST(perror_records_errno_and_path) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "cat");
  CHECK_EQ(cmd_perror(&ctx, "/x", -ENOENT), 1);
  CHECK_STR(f.log, "2:cat: 2:/x: No such file or directory2:\n");
  CHECK_EQ(ctx.err_errno, ENOENT);
  CHECK_STR(ctx.err_path, "/x");
  cmd_arena_free(ctx.arena);
}

TEST(arena_allocations_are_zeroed_and_aligned) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  for (int i = 1; i < 2000; i += 37) {
    unsigned char *p = cmd_alloc(&ctx, (size_t)i);
    REQUIRE(p);
    CHECK(((uintptr_t)p % _Alignof(max_align_t)) == 0);
    for (int k = 0; k < i; k++) CHECK(p[k] == 0);
    memset(p, 0xab, (size_t)i);
  }
  char *big = cmd_alloc(&ctx, 1 << 20);
  REQUIRE(big);
  memset(big, 1, 1 << 20);
  CHECK_STR(cmd_strdup(&ctx, "hello"), "hello");
  cmd_arena_free(ctx.arena);
}

TEST(unknown_command_is_127) {
  cmd_ctx ctx; fake_io f; ctx_init(&ctx, &f, "t");
  char *argv[] = {"no-such-cmd", NULL};
  CHECK_EQ(cmd_invoke(&ctx, 1, argv), 127);
  CHECK_STR(f.log, "2:no-such-cmd: command not found\n");
  cmd_arena_free(ctx.arena);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(getopt_permutes_operands_after_options);
  RUN(getopt_double_dash_ends_options);
  RUN(getopt_plus_stops_at_first_operand);
  RUN(getopt_clusters_and_attached_arguments);
  RUN(getopt_long_abbreviation_and_value);
  RUN(getopt_ambiguous_long_option_message);
  RUN(getopt_gnu_error_messages);
  RUN(getopt_string_long_names_and_long_only_values);
  RUN(getopt_string_long_names_errors_as_glibc);
  RUN(getopt_string_with_a_table_for_the_rest);
  RUN(getopt_all_records_flags_and_last_arguments);
  RUN(getopt_lone_dash_is_an_operand);
  RUN(stderr_flushes_buffered_stdout_first);
  RUN(buffered_output_is_written_in_one_piece);
  RUN(epipe_is_sticky);
  RUN(reader_splits_lines_with_nul_bytes_and_no_final_newline);
  RUN(reader_nul_delimiter);
  RUN(reader_grows_for_long_lines_and_stops_at_max_string);
  RUN(head_and_tail_windows_stop_at_max_string);
  RUN(head_and_tail_windows_within_max_string);
  RUN(reader_mixes_lines_and_raw_reads);
  RUN(quote_like_gnu_shell_escape_always);
  RUN(perror_records_errno_and_path);
  RUN(arena_allocations_are_zeroed_and_aligned);
  RUN(unknown_command_is_127);
  return harness_done();
}
