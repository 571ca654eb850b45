/*
 * test_pycmd.c - the shell commands python3/python and tool, run through
 * cmd_invoke with a small cmd_io of our own (stdin from a buffer, stdout and
 * stderr into buffers, files from the store) while this thread holds the
 * sandbox's lock the way the shell does: so the Python calls must lend the
 * store to the FUSE server, or they would deadlock.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "harness.h"
#include "py_util.h"
#include "api/sandbox_int.h"

static sbx *H;

/* The fake shell's streams and open files. */
typedef struct fake_io {
  const char *in;       /* stdin bytes */
  size_t inlen, inpos;  /* its length and read position */
  char out[1 << 16], err[1 << 16]; /* captured */
  size_t outlen, errlen;
  store_ino files[8];   /* fds 3.. : open store files */
  uint64_t offs[8];
} fake_io;

static ssize_t f_read(void *ud, int fd, void *buf, size_t n) {
  fake_io *f = ud;
  if (fd == 0) {
    size_t k = f->inlen - f->inpos < n ? f->inlen - f->inpos : n;
    memcpy(buf, f->in + f->inpos, k);
    f->inpos += k;
    return (ssize_t)k;
  }
  if (fd < 3 || fd >= 11 || !f->files[fd - 3]) return -EBADF;
  ssize_t r = store_read(H->st, f->files[fd - 3], buf, n, f->offs[fd - 3]);
  if (r > 0) f->offs[fd - 3] += (uint64_t)r;
  return r;
}

static ssize_t f_write(void *ud, int fd, const void *buf, size_t n) {
  fake_io *f = ud;
  char *dst = fd == 1 ? f->out : fd == 2 ? f->err : NULL;
  size_t *len = fd == 1 ? &f->outlen : &f->errlen;
  if (!dst) return -EBADF;
  size_t k = sizeof f->out - 1 - *len < n ? sizeof f->out - 1 - *len : n;
  memcpy(dst + *len, buf, k);
  *len += k;
  dst[*len] = 0;
  return (ssize_t)n;
}

static int f_open(void *ud, const char *path, int oflags, uint32_t mode) {
  fake_io *f = ud;
  store_stat st;
  int r = store_path_open(H->st, "/data", path, oflags, mode, &st);
  if (r < 0) return r;
  for (int i = 0; i < 8; i++)
    if (!f->files[i]) {
      f->files[i] = st.ino;
      f->offs[i] = 0;
      return i + 3;
    }
  return -EMFILE;
}

static int f_close(void *ud, int fd) {
  fake_io *f = ud;
  if (fd >= 3 && fd < 11) f->files[fd - 3] = 0;
  return 0;
}

static const cmd_io FAKE = {.read = f_read, .write = f_write, .open = f_open, .close = f_close};

static fake_io IO;
static char *const *ENV; /* the command's environment (ctx->env), or NULL */

/* Runs one command line (argv) with stdin `in`, holding the sandbox's lock
 * like the shell; returns the status. */
static int run_cmd(const char *in, char **argv) {
  memset(&IO, 0, sizeof IO);
  IO.in = in ? in : "";
  IO.inlen = strlen(IO.in);
  int argc = 0;
  while (argv[argc]) argc++;
  cmd_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.store = H->st;
  ctx.cwd = "/data";
  ctx.env = ENV;
  ctx.io = &FAKE;
  ctx.io_ud = &IO;
  ctx.arena = cmd_arena_new();
  ctx.umask = 022;
  ctx.max_string = 1 << 24;
  ctx.sandbox = H;
  pthread_mutex_lock(&H->lock);
  int st = cmd_invoke(&ctx, argc, argv);
  pthread_mutex_unlock(&H->lock);
  cmd_arena_free(ctx.arena);
  return st;
}

TEST(argv_and_exit_status) {
  char *argv[] = {"python3", "-c", "import sys; print(sys.argv); sys.exit(3)", "a", "b c", NULL};
  CHECK_EQ(run_cmd(NULL, argv), 3);
  CHECK_STR(IO.out, "['-c', 'a', 'b c']\n");
  char *py[] = {"python", "-u", "-c", "print('plain')", NULL};
  CHECK_EQ(run_cmd(NULL, py), 0);
  CHECK_STR(IO.out, "plain\n");
}

TEST(stdin_streams_into_the_script) {
  char *argv[] = {"python3", "-c", "import sys\nfor line in sys.stdin:\n    print(line.strip().upper())", NULL};
  CHECK_EQ(run_cmd("hello\nworld\n", argv), 0);
  CHECK_STR(IO.out, "HELLO\nWORLD\n");
}

TEST(script_from_a_file_and_from_stdin) {
  const char *script = "import sys\nprint(__file__, sys.argv[1:])\n";
  CHECK_EQ(sbx_write_file(H, "/data/s.py", script, strlen(script), 0), SBX_OK);
  char *argv[] = {"python3", "s.py", "x", "--flag", NULL};
  CHECK_EQ(run_cmd(NULL, argv), 0);
  if (IO.err[0]) fprintf(stderr, "  stderr: %s\n", IO.err);
  CHECK_STR(IO.out, "/data/s.py ['x', '--flag']\n");
  char *dash[] = {"python3", "-", NULL};
  CHECK_EQ(run_cmd("print(6 * 7)\n", dash), 0);
  CHECK_STR(IO.out, "42\n");
  char *none[] = {"python3", "missing.py", NULL};
  CHECK_EQ(run_cmd(NULL, none), 2);
  CHECK(strstr(IO.err, "can't open file '/data/missing.py'") != NULL);
}

TEST(files_while_the_shell_holds_the_sandbox) {
  /* The FUSE server borrows the store: reading and writing files works. */
  char *argv[] = {"python3", "-c",
                  "open('/data/w.txt', 'w').write('written')\nprint(open('/data/s.py').read().split()[0])",
                  NULL};
  CHECK_EQ(run_cmd(NULL, argv), 0);
  CHECK_STR(IO.out, "import\n");
  void *d;
  size_t n;
  REQUIRE(sbx_read_file(H, "/data/w.txt", &d, &n) == SBX_OK);
  CHECK_EQ(n, 7);
  sbx_free(d);
}

TEST(exceptions_print_a_traceback_and_exit_1) {
  char *argv[] = {"python3", "-c", "1/0", NULL};
  CHECK_EQ(run_cmd(NULL, argv), 1);
  CHECK(strstr(IO.err, "Traceback") && strstr(IO.err, "ZeroDivisionError: division by zero"));
  char *syn[] = {"python3", "-c", "def (", NULL};
  CHECK_EQ(run_cmd(NULL, syn), 1);
  CHECK(strstr(IO.err, "SyntaxError") != NULL);
}

TEST(modules_and_version) {
  char *argv[] = {"python3", "-m", "json.tool", NULL};
  CHECK_EQ(run_cmd("{\"a\": [1, 2]}", argv), 0);
  CHECK_STR(IO.out, "{\n    \"a\": [\n        1,\n        2\n    ]\n}\n");
  char *ver[] = {"python3", "-V", NULL};
  CHECK_EQ(run_cmd(NULL, ver), 0);
  if (IO.err[0]) fprintf(stderr, "  stderr: %s\n", IO.err);
  CHECK(strncmp(IO.out, "Python 3.11.", 12) == 0);
  char *bad[] = {"python3", "-Z", NULL};
  CHECK_EQ(run_cmd(NULL, bad), 2);
}

TEST(environment_is_the_shells_only_while_the_script_runs) {
  char *const env[] = {"X=1", "PATH=/bin", "ODD=a=b", "LANG=C.UTF-8", "\xff=bad name", NULL};
  ENV = env;
  char *argv[] = {"python3", "-c", "import os; print(sorted(os.environ.items()))", NULL};
  CHECK_EQ(run_cmd(NULL, argv), 0);
  CHECK_STR(IO.out, "[('LANG', 'C.UTF-8'), ('ODD', 'a=b'), ('PATH', '/bin'), ('X', '1'), ('\\udcff', 'bad name')]\n");
  /* An empty environment: the C locale, which CPython coerces to C.UTF-8 by
   * setting LC_CTYPE (PEP 538), as python3 does under `env -i`. */
  char *none[] = {"python3", "-c", "import os; print(sorted(os.environ))", NULL};
  char *const empty[] = {NULL};
  ENV = empty;
  CHECK_EQ(run_cmd(NULL, none), 0);
  CHECK_STR(IO.out, "['LC_CTYPE']\n");
  ENV = NULL;
  /* The worker's own environment is back for the API's calls. */
  CHECK_STR(py_eval(H, "import os; ('X' in os.environ, 'PATH' in os.environ)"), "(False, True)");
}

static int echo_cb(void *ud, sbx *h, const char *name, const char *args, char **result, char **error) {
  (void)ud, (void)h, (void)name, (void)error;
  *result = strdup(args);
  return 0;
}

TEST(tool_command) {
  sbx_tool_def def = {"echo", "Return the payload unchanged.",
                      "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}}}", NULL, 0};
  REQUIRE(sbx_tools_register(H, &def, 1, echo_cb, NULL) == SBX_OK);
  char *ok[] = {"tool", "echo", "{\"x\": 1}", NULL};
  CHECK_EQ(run_cmd(NULL, ok), 0);
  CHECK_STR(IO.out, "{\"x\":1}\n");
  char *from_stdin[] = {"tool", "echo", "-", NULL};
  CHECK_EQ(run_cmd("{\"x\": 2}", from_stdin), 0);
  CHECK_STR(IO.out, "{\"x\":2}\n");
  char *bad[] = {"tool", "echo", "{\"x\": \"no\"}", NULL};
  CHECK_EQ(run_cmd(NULL, bad), 1);
  CHECK(strncmp(IO.err, "tool: [validation_error]", 24) == 0);
  char *missing[] = {"tool", "nope", NULL};
  CHECK_EQ(run_cmd(NULL, missing), 1);
  CHECK(strncmp(IO.err, "tool: [permission_error]", 24) == 0);
  char *search[] = {"tool", "-s", "payload unchanged", NULL};
  CHECK_EQ(run_cmd(NULL, search), 0);
  CHECK(strstr(IO.out, "\"name\":\"echo\"") != NULL);
  char *usage[] = {"tool", NULL};
  CHECK_EQ(run_cmd(NULL, usage), 2);
  /* python3 in the shell reaches the same tools. */
  char *py[] = {"python3", "-c", "from host_tools import call\nprint(call('echo', {'x': 5}))", NULL};
  CHECK_EQ(run_cmd(NULL, py), 0);
  CHECK_STR(IO.out, "{'x': 5}\n");
  char *s[] = {"python3", "-c", "from host_tools import search\nprint(search('payload')[0]['name'])", NULL};
  CHECK_EQ(run_cmd(NULL, s), 0);
  if (getenv("PY_TEST_VERBOSE")) fprintf(stderr, "  stderr: %s\n", IO.err);
  CHECK_STR(IO.out, "echo\n");
  char *bad_args[] = {"python3", "-c", "from host_tools import call\ncall('echo', {'x': 'no'})", NULL};
  CHECK_EQ(run_cmd(NULL, bad_args), 1);
  CHECK(strstr(IO.err, "RuntimeError: [validation_error]") != NULL);
}

TEST(without_a_sandbox) {
  cmd_standalone_result r;
  char *argv[] = {"python3", "-c", "1", NULL};
  REQUIRE(cmd_run_standalone(H->st, "/", 3, argv, NULL, 0, &r) == 0);
  CHECK_EQ(r.status, 127);
  free(r.out);
  free(r.err);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  if (sbx_open(NULL, SBX_OPEN_MEMORY, &H) != SBX_OK) return 1;
  RUN(argv_and_exit_status);
  RUN(stdin_streams_into_the_script);
  RUN(script_from_a_file_and_from_stdin);
  RUN(files_while_the_shell_holds_the_sandbox);
  RUN(exceptions_print_a_traceback_and_exit_1);
  RUN(modules_and_version);
  RUN(environment_is_the_shells_only_while_the_script_runs);
  RUN(tool_command);
  RUN(without_a_sandbox);
  sbx_close(H);
  return harness_done();
}
