/*
 * mcp_tools.c - the tools and resources `sbx mcp` offers a model:
 *
 *   bash                        the session's persistent shell (sbx_bash_ex, recorded)
 *   python                      a named persistent Python context (sbx_python_exec)
 *   str_replace_based_edit_tool view / create / str_replace / insert / undo_edit,
 *                               in the shape of Anthropic's text-editor tool
 *   upload, download            whole files, text or base64
 *   snapshot                    export / list / restore / fork named snapshots
 *   resources                   the sandbox's files as sbx:///path
 *
 * Output for the model is bounded (srv->max_output bytes per stream): the
 * head and the tail are kept with one line in between saying how much was
 * cut and where the whole output was saved in the sandbox
 * (/tmp/.mcp-output/N.txt). python/localsandbox/agent_tools.py cuts the same
 * way. Errors of a tool's own work (a missing file, a non-unique match, a
 * path outside /) are results with isError, so the model can read and fix
 * them; an unknown tool or arguments of the wrong shape are JSON-RPC errors
 * (-32602), as the MCP specification puts it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd/lib/buf.h"
#include "mcp.h"

#define MCP_MAX_FILE (8u << 20)  /* bytes of a file viewed, downloaded or read */
#define MCP_UNDO_MAX 64          /* edits kept for undo_edit per session */
#define MCP_LIST_MAX 1000        /* entries of a resources/list or a directory view */
#define MCP_LIST_DEPTH 16        /* directory levels walked by resources/list */
#define MCP_MAX_TIMEOUT_S 3600.0 /* the largest per-call timeout a model may ask */
#define MCP_OUTPUT_DIR "/tmp/.mcp-output"

/* ---- the tool definitions ------------------------------------------------------------
 */

/* One JSON value, laid out by hand. */
// clang-format off
static const char tool_defs[] =
    "["
    "{\"name\":\"bash\",\"title\":\"Run a shell command\","
    "\"description\":\"Run a bash script in the sandbox's persistent shell. The working "
    "directory, variables, functions and aliases persist between calls, like a terminal "
    "(default working directory /data). About 140 Unix commands are built in (grep, sed, awk, "
    "jq, find, sort, tar, diff, sqlite3, python3, ...); there is no network and nothing of the "
    "host is visible. Returns stdout, stderr and the exit status. Long output is cut in the "
    "middle; the whole output is saved in a file whose path the result gives. Set restart to "
    "true to get a fresh shell.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"command\":{\"type\":\"string\",\"description\":\"The bash script to run.\"},"
    "\"timeout\":{\"type\":\"number\",\"description\":\"Seconds before the command is "
    "stopped (default: the server's limit).\"},"
    "\"restart\":{\"type\":\"boolean\",\"description\":\"Restart the shell (cwd /data, "
    "fresh variables) instead of running a command.\"}},\"additionalProperties\":false}},"

    "{\"name\":\"python\",\"title\":\"Run Python\","
    "\"description\":\"Run Python 3 code in the sandbox (CPython in a jail that sees the "
    "same files as bash; no network). Variables, imports and functions persist between calls "
    "in the same context. Returns stdout, stderr and the repr of a trailing expression; an "
    "exception comes back with its traceback.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"code\":{\"type\":\"string\",\"description\":\"Python source to run.\"},"
    "\"context\":{\"type\":\"string\",\"description\":\"Name of the persistent context "
    "(default \\\"default\\\").\"},"
    "\"timeout\":{\"type\":\"number\",\"description\":\"Seconds before the code is "
    "interrupted.\"}},\"required\":[\"code\"],\"additionalProperties\":false}},"

    "{\"name\":\"str_replace_based_edit_tool\",\"title\":\"View and edit files\","
    "\"description\":\"View and edit files of the sandbox. Paths are absolute (/data/x.py). "
    "view: a file with line numbers (view_range [start, end], end -1 for the last line) or a "
    "directory listed two levels deep. create: write file_text to a new or existing file. "
    "str_replace: replace old_str, which must match exactly once, with new_str. insert: put "
    "insert_text after line insert_line (0 for the top). undo_edit: take back the last edit "
    "of path.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"command\":{\"type\":\"string\",\"enum\":[\"view\",\"create\",\"str_replace\","
    "\"insert\",\"undo_edit\"]},"
    "\"path\":{\"type\":\"string\",\"description\":\"Absolute path of the file or "
    "directory.\"},"
    "\"file_text\":{\"type\":\"string\",\"description\":\"create: the file's contents.\"},"
    "\"old_str\":{\"type\":\"string\",\"description\":\"str_replace: the exact text to "
    "replace.\"},"
    "\"new_str\":{\"type\":\"string\",\"description\":\"str_replace: the replacement "
    "(default empty).\"},"
    "\"insert_line\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"insert: the "
    "line after which the text goes.\"},"
    "\"insert_text\":{\"type\":\"string\",\"description\":\"insert: the text to insert.\"},"
    "\"view_range\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"minItems\":2,"
    "\"maxItems\":2,\"description\":\"view: [first, last] line numbers, last -1 for the "
    "end.\"}},\"required\":[\"command\",\"path\"]}},"

    "{\"name\":\"upload\",\"title\":\"Write a file\","
    "\"description\":\"Write a whole file into the sandbox (parent directories are created; "
    "an existing file is replaced). Use encoding base64 for binary data.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"path\":{\"type\":\"string\",\"description\":\"Absolute sandbox path.\"},"
    "\"content\":{\"type\":\"string\",\"description\":\"The file's contents.\"},"
    "\"encoding\":{\"type\":\"string\",\"enum\":[\"text\",\"base64\"],\"description\":"
    "\"How content is encoded (default text).\"}},"
    "\"required\":[\"path\",\"content\"],\"additionalProperties\":false}},"

    "{\"name\":\"download\",\"title\":\"Read a file\","
    "\"description\":\"Read a whole file of the sandbox (at most 8 MiB). With encoding auto "
    "(the default), text comes back as it is and binary data as base64.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"path\":{\"type\":\"string\",\"description\":\"Absolute sandbox path.\"},"
    "\"encoding\":{\"type\":\"string\",\"enum\":[\"auto\",\"text\",\"base64\"]}},"
    "\"required\":[\"path\"],\"additionalProperties\":false}},"

    "{\"name\":\"snapshot\",\"title\":\"Save and restore the sandbox\","
    "\"description\":\"Named snapshots of the whole sandbox (files, key-value store, "
    "history). export: save the current state as name. list: the saved snapshots. restore: "
    "replace the current state with snapshot name (the shell and Python restart). fork: copy "
    "the current state (or snapshot name) into a new session whose id is returned.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"action\":{\"type\":\"string\",\"enum\":[\"export\",\"list\",\"restore\",\"fork\"]},"
    "\"name\":{\"type\":\"string\",\"description\":\"Snapshot name: letters, digits, . _ - "
    "(1 to 64).\"}},\"required\":[\"action\"],\"additionalProperties\":false}}"
    "]";
// clang-format on

json_t *mcp_tools_definitions(void) {
  json_error_t e;
  return json_loads(tool_defs, 0, &e);
}

/* ---- small helpers
 * --------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (0: invalid). */
static size_t utf8_seq(const unsigned char *p, size_t n) {
  if (p[0] < 0x80) return 1;
  size_t len;
  unsigned min;
  if ((p[0] & 0xE0) == 0xC0)
    len = 2, min = 0x80;
  else if ((p[0] & 0xF0) == 0xE0)
    len = 3, min = 0x800;
  else if ((p[0] & 0xF8) == 0xF0)
    len = 4, min = 0x10000;
  else
    return 0;
  if (len > n) return 0;
  unsigned cp = p[0] & (0x7F >> len);
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

static int is_text(const char *p, size_t n) {
  for (size_t i = 0; i < n;) {
    if (p[i] == '\0') return 0;
    size_t k = utf8_seq((const unsigned char *)p + i, n - i);
    if (!k) return 0;
    i += k;
  }
  return 1;
}

/* The bytes as a JSON string, invalid UTF-8 replaced by U+FFFD. */
static json_t *json_text(const char *p, size_t n) {
  json_t *j = json_stringn(p, n); /* fails only on invalid UTF-8 */
  if (j) return j;
  cmd_buf b = {0};
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq((const unsigned char *)p + i, n - i);
    if (k) {
      cmd_buf_put(&b, p + i, k);
      i += k;
    } else {
      cmd_buf_put(&b, "\xEF\xBF\xBD", 3);
      i++;
    }
  }
  j = b.err ? NULL : json_stringn(b.p ? b.p : "", b.len);
  free(b.p);
  return j ? j : json_string("");
}

/* A CallToolResult with one text item (the text is copied). */
static json_t *text_result(const char *text, size_t len, int is_error) {
  return json_pack("{s:[{s:s, s:o}], s:b}", "content", "type", "text", "text",
                   json_text(text, len), "isError", is_error);
}

/* text_result of a printf-formatted text; errorf and okf name the two kinds. */
static json_t *text_resultf(int is_error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *text_resultf(int is_error, const char *fmt, ...) {
  char buf[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return text_result(buf, strlen(buf), is_error);
}
#define errorf(...) text_resultf(1, __VA_ARGS__)
#define okf(...) text_resultf(0, __VA_ARGS__)

/* The reason of the last file error on h ("No such file or directory"). */
static const char *fs_reason(sbx *h) {
  int e = sbx_errno(h);
  return e ? strerror(e) : sbx_errmsg(h);
}

/* ---- arguments
 * --------------------------------------------------------------------------------- */

/* Reads the optional argument `key` of JSON type `type` ('s' string, 'n' number,
 * 'i' integer, 'b' boolean, 'a' array). Returns it (borrowed) or NULL when absent;
 * a wrong type sets *bad (the message for -32602) and returns NULL. */
static json_t *arg(json_t *args, const char *key, char type, char **bad) {
  json_t *v = json_object_get(args, key);
  if (!v || json_is_null(v)) return NULL;
  int ok = type == 's'   ? json_is_string(v)
           : type == 'n' ? json_is_number(v)
           : type == 'i' ? json_is_integer(v)
           : type == 'b' ? json_is_boolean(v)
                         : json_is_array(v);
  if (!ok && !*bad) {
    static const char *const names[] = {"a string", "a number", "an integer", "a boolean",
                                        "an array"};
    const char *tn = names[type == 's'   ? 0
                           : type == 'n' ? 1
                           : type == 'i' ? 2
                           : type == 'b' ? 3
                                         : 4];
    size_t n = strlen(key) + 64;
    *bad = malloc(n);
    if (*bad) snprintf(*bad, n, "invalid arguments: '%s' must be %s", key, tn);
    return NULL;
  }
  return ok ? v : NULL;
}

static void missing(const char *key, char **bad) {
  if (*bad) return;
  size_t n = strlen(key) + 64;
  *bad = malloc(n);
  if (*bad) snprintf(*bad, n, "invalid arguments: '%s' is required", key);
}

/* Unknown keys are refused for tools whose schema says additionalProperties false. */
static int only_keys(json_t *args, const char *const *keys, char **bad) {
  const char *k;
  json_t *v;
  json_object_foreach(args, k, v) {
    int known = 0;
    for (const char *const *p = keys; *p; p++)
      if (strcmp(*p, k) == 0) known = 1;
    if (!known) {
      size_t n = strlen(k) + 64;
      *bad = malloc(n);
      if (*bad) snprintf(*bad, n, "invalid arguments: unknown argument '%s'", k);
      return 0;
    }
  }
  return 1;
}

/* A per-call timeout in seconds: the argument, else the server's default. */
static double call_timeout(mcp_session *s, json_t *t) {
  double v = t ? json_number_value(t) : s->srv->timeout_s;
  if (!(v > 0)) v = s->srv->timeout_s;
  return v > MCP_MAX_TIMEOUT_S ? MCP_MAX_TIMEOUT_S : v;
}

/* ---- paths
 * ----------------------------------------------------------------------------------- */

int mcp_path_normalize(const char *path, char *out, size_t outsz) {
  if (!path || path[0] != '/' || outsz < 2) return -1;
  size_t len = 0;
  out[len++] = '/';
  const char *p = path;
  while (*p) {
    while (*p == '/') p++;
    if (!*p) break;
    const char *q = p;
    while (*q && *q != '/') q++;
    size_t n = (size_t)(q - p);
    if (n == 1 && p[0] == '.') {
      /* nothing */
    } else if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (len == 1) return -1; /* above / */
      len--;                   /* drop the trailing slash, then the last name */
      while (len > 1 && out[len - 1] != '/') len--;
      if (len > 1) len--;
      if (len == 0) len = 1;
    } else {
      if (len > 1) {
        if (len + 1 >= outsz) return -1;
        out[len++] = '/';
      }
      if (len + n >= outsz) return -1;
      memcpy(out + len, p, n);
      len += n;
    }
    p = q;
  }
  out[len] = '\0';
  return 0;
}

/* The normalized path argument, or NULL with an isError result in *err. */
static const char *check_path(const char *path, char *buf, size_t bufsz, json_t **err) {
  if (mcp_path_normalize(path, buf, bufsz) != 0) {
    *err = errorf(
        "refused path '%s': paths must be absolute and stay inside / (no .. above it)",
        path);
    return NULL;
  }
  return buf;
}

/* ---- truncation
 * -------------------------------------------------------------------------------- */

/*
 * The text for the model: all of it when it fits in max bytes, else about
 * max/2 bytes of head and max/2 of tail (cut at a line end when one is in the
 * second half of the budget, never inside a UTF-8 sequence) with one line in
 * between: "[... N bytes (L lines) cut; the full output is in PATH ...]".
 */
static void truncated(cmd_buf *out, const char *p, size_t n, size_t max, const char *where) {
  if (n <= max) {
    cmd_buf_put(out, p, n);
    return;
  }
  size_t head_budget = max / 2, tail_budget = max - head_budget;
  size_t head = head_budget;
  for (size_t i = head; i > head_budget / 2; i--)
    if (p[i - 1] == '\n') {
      head = i;
      break;
    }
  while (head > 0 && ((unsigned char)p[head] & 0xC0) == 0x80) head--;
  size_t tail = n - tail_budget;
  for (size_t i = tail; i < n - tail_budget / 2; i++)
    if (i > 0 && p[i - 1] == '\n') {
      tail = i;
      break;
    }
  while (tail < n && ((unsigned char)p[tail] & 0xC0) == 0x80) tail++;
  size_t lines = 0;
  for (size_t i = head; i < tail; i++) lines += p[i] == '\n';
  cmd_buf_put(out, p, head);
  if (head > 0 && p[head - 1] != '\n') cmd_buf_puts(out, "\n");
  cmd_buf_printf(out, "[... %zu bytes (%zu lines) cut; %s ...]\n", tail - head, lines, where);
  cmd_buf_put(out, p + tail, n - tail);
}

/* Saves a long output in /tmp/.mcp-output/N.txt and appends it, cut, to out. */
static void bounded_output(mcp_session *s, cmd_buf *out, const char *p, size_t n) {
  size_t max = s->srv->max_output;
  if (n <= max) {
    cmd_buf_put(out, p, n);
    return;
  }
  char path[128], where[256];
  sbx_stat st;
  do {
    s->output_seq++;
    snprintf(path, sizeof path, MCP_OUTPUT_DIR "/%u.txt", s->output_seq);
  } while (sbx_stat_path(s->h, path, 1, &st) == SBX_OK && s->output_seq < 1000000);
  /* the server's own bookkeeping of the bash call: no row of its own */
  int was = sbx_history_files(s->h, 0);
  int saved = sbx_write_file(s->h, path, p, n, SBX_WRITE_MKDIRS) == SBX_OK;
  sbx_history_files(s->h, was);
  if (saved)
    snprintf(where, sizeof where, "the full output is in %s", path);
  else
    snprintf(where, sizeof where, "the full output could not be saved: %s",
             fs_reason(s->h));
  truncated(out, p, n, max, where);
}

/* ---- progress
 * ------------------------------------------------------------------------------ */

typedef struct ticker {
  const mcp_sink *sink; /* where the notifications go */
  json_t *token;        /* the client's progressToken (a reference) */
  pthread_t thread;     /* the ticking thread */
  pthread_mutex_t lock; /* guards stop */
  pthread_cond_t cond;  /* signalled to stop */
  int stop;             /* 1: the call ended */
} ticker;

static void *ticker_main(void *arg) {
  ticker *t = arg;
  int seconds = 0;
  pthread_mutex_lock(&t->lock);
  while (!t->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    if (pthread_cond_timedwait(&t->cond, &t->lock, &ts) == ETIMEDOUT && !t->stop) {
      seconds++;
      char msg[64];
      snprintf(msg, sizeof msg, "running for %d s", seconds);
      json_t *n = json_pack("{s:s, s:s, s:{s:O, s:i, s:s}}", "jsonrpc", "2.0", "method",
                            "notifications/progress", "params", "progressToken", t->token,
                            "progress", seconds, "message", msg);
      pthread_mutex_unlock(&t->lock);
      if (n) t->sink->send(t->sink->ud, n);
      json_decref(n);
      pthread_mutex_lock(&t->lock);
    }
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

/* Starts progress notifications when the client asked for them; 0 if started. */
static int ticker_start(ticker *t, const mcp_sink *sink, json_t *token) {
  memset(t, 0, sizeof *t);
  if (!token || !sink || !sink->send) return -1;
  t->sink = sink;
  t->token = json_incref(token);
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->cond, NULL);
  if (pthread_create(&t->thread, NULL, ticker_main, t) != 0) {
    json_decref(t->token);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->cond);
    return -1;
  }
  return 0;
}

static void ticker_stop(ticker *t) {
  pthread_mutex_lock(&t->lock);
  t->stop = 1;
  pthread_cond_signal(&t->cond);
  pthread_mutex_unlock(&t->lock);
  pthread_join(t->thread, NULL);
  json_decref(t->token);
  pthread_mutex_destroy(&t->lock);
  pthread_cond_destroy(&t->cond);
}

/* ---- bash
 * ---------------------------------------------------------------------------------- */

static json_t *tool_bash(mcp_session *s, json_t *args, json_t *token,
                         const mcp_sink *sink, char **bad) {
  static const char *const keys[] = {"command", "timeout", "restart", NULL};
  if (!only_keys(args, keys, bad)) return NULL;
  json_t *cmd = arg(args, "command", 's', bad);
  json_t *tmo = arg(args, "timeout", 'n', bad);
  json_t *restart = arg(args, "restart", 'b', bad);
  if (*bad) return NULL;
  if (restart && json_is_true(restart)) {
    if (sbx_shell_reset(s->h) != SBX_OK) return errorf("restart: %s", sbx_errmsg(s->h));
    if (!cmd) return text_result("The shell was restarted (cwd /data).", 36, 0);
  }
  if (!cmd) {
    missing("command", bad);
    return NULL;
  }
  sbx_limits lim = s->srv->limits;
  lim.timeout_ms = (uint64_t)(call_timeout(s, tmo) * 1000);
  sbx_set_limits(s->h, &lim);
  ticker t;
  int ticking = ticker_start(&t, sink, token) == 0;
  sbx_bash_result res;
  sbx_bash_opts o = {.stdin_fd = -1, .record = 1}; /* the history row of every front */
  int rc = sbx_bash_ex(s->h, json_string_value(cmd), json_string_length(cmd), &o, &res);
  if (ticking) ticker_stop(&t);
  sbx_set_limits(s->h, &s->srv->limits);
  if (rc != SBX_OK && rc != SBX_LIMIT && rc != SBX_TIMEOUT && rc != SBX_CANCELED) {
    json_t *r = errorf("bash: %s", sbx_errmsg(s->h));
    sbx_bash_result_free(&res);
    return r;
  }
  cmd_buf b = {0};
  bounded_output(s, &b, res.out ? res.out : "", res.out_len);
  if (b.len && b.p[b.len - 1] != '\n') cmd_buf_puts(&b, "\n");
  if (res.err_len) {
    cmd_buf_puts(&b, "[stderr]\n");
    bounded_output(s, &b, res.err, res.err_len);
    if (b.p[b.len - 1] != '\n') cmd_buf_puts(&b, "\n");
  }
  cmd_buf_printf(&b, "[exit status %d]", res.exit_code);
  if (res.limit == SBX_LIMIT_CANCELLED)
    cmd_buf_puts(&b, " [cancelled]");
  else if (res.limit && res.limit_name)
    cmd_buf_printf(&b, " [stopped: the %s limit (%llu) was reached]", res.limit_name,
              (unsigned long long)res.limit_value);
  json_t *r = b.err ? errorf("bash: out of memory")
                       : text_result(b.p, b.len, res.exit_code != 0);
  if (r)
    json_object_set_new(r, "structuredContent",
                        json_pack("{s:i, s:s?}", "exit_code", res.exit_code, "limit",
                                  res.limit ? res.limit_name : NULL));
  free(b.p);
  sbx_bash_result_free(&res);
  return r;
}

/* ---- python
 * -------------------------------------------------------------------------------- */

static void base64_encode(cmd_buf *b, const unsigned char *p, size_t n);

static json_t *tool_python(mcp_session *s, json_t *args, json_t *token,
                           const mcp_sink *sink, char **bad) {
  static const char *const keys[] = {"code", "context", "timeout", NULL};
  if (!only_keys(args, keys, bad)) return NULL;
  json_t *code = arg(args, "code", 's', bad);
  json_t *ctx = arg(args, "context", 's', bad);
  json_t *tmo = arg(args, "timeout", 'n', bad);
  if (!code) missing("code", bad);
  if (*bad) return NULL;
  if (memchr(json_string_value(code), '\0', json_string_length(code)))
    return errorf("python: the code contains a NUL character");
  sbx_py_options o;
  memset(&o, 0, sizeof o);
  o.context = ctx ? json_string_value(ctx) : NULL;
  o.timeout = call_timeout(s, tmo);
  sbx_py_result *r = NULL;
  ticker t;
  int ticking = ticker_start(&t, sink, token) == 0;
  int rc = sbx_python_exec(s->h, json_string_value(code), &o, &r);
  if (ticking) ticker_stop(&t);
  if (rc == SBX_JAIL)
    return errorf(
        "Python is not available on this host: %s (run 'sbx doctor' for details)",
        sbx_errmsg(s->h));
  if (rc != SBX_OK) return errorf("python: %s", sbx_errmsg(s->h));
  cmd_buf b = {0};
  bounded_output(s, &b, r->out, r->out_len);
  if (b.len && b.p[b.len - 1] != '\n') cmd_buf_puts(&b, "\n");
  if (r->err_len) {
    cmd_buf_puts(&b, "[stderr]\n");
    bounded_output(s, &b, r->err, r->err_len);
    if (b.p[b.len - 1] != '\n') cmd_buf_puts(&b, "\n");
  }
  if (r->error != SBX_PY_OK) {
    if (r->traceback && *r->traceback) {
      cmd_buf_puts(&b, r->traceback);
      if (b.len && b.p[b.len - 1] != '\n') cmd_buf_puts(&b, "\n");
    } else {
      cmd_buf_printf(&b, "%s: %s\n", r->error_type ? r->error_type : "Error",
                r->error_message ? r->error_message : "the code failed");
    }
    if (r->killed)
      cmd_buf_puts(&b, "[the Python worker was restarted: every context was lost]\n");
  } else if (r->repr) {
    cmd_buf_puts(&b, "[value]\n");
    bounded_output(s, &b, r->repr, strlen(r->repr));
  }
  if (b.len == 0) cmd_buf_puts(&b, "(no output)");
  json_t *res = b.err ? errorf("python: out of memory")
                         : text_result(b.p, b.len, r->error != SBX_PY_OK);
  /* Figures the code showed or left open: MCP image content, after the text. */
  json_t *content = res ? json_object_get(res, "content") : NULL;
  for (size_t i = 0; content && i < r->nimages; i++) {
    cmd_buf enc = {0};
    base64_encode(&enc, r->images[i].data, r->images[i].len);
    if (!enc.err)
      json_array_append_new(content, json_pack("{s:s, s:s%, s:s}", "type", "image",
                                               "data", enc.p ? enc.p : "", enc.len,
                                               "mimeType", r->images[i].mime));
    free(enc.p);
  }
  if (res)
    json_object_set_new(
        res, "structuredContent",
        json_pack("{s:s?, s:s?}", "value", r->repr, "error_type", r->error_type));
  free(b.p);
  sbx_free(r);
  return res;
}

/* ---- files: undo, edit, view
 * ----------------------------------------------------------------- */

void mcp_undo_free(mcp_session *s) {
  while (s->undo) {
    mcp_undo *u = s->undo;
    s->undo = u->next;
    free(u->path);
    free(u->data);
    free(u);
  }
  s->undo_count = 0;
}

/* Remembers the current contents of path (or its absence) for undo_edit. */
static void undo_push(mcp_session *s, const char *path) {
  mcp_undo *u = calloc(1, sizeof *u);
  if (!u || !(u->path = strdup(path))) {
    free(u);
    return;
  }
  void *data;
  size_t len;
  int was = sbx_history_files(s->h, 0); /* the editor's own bookkeeping: no row */
  int rc = sbx_read_file(s->h, path, &data, &len);
  sbx_history_files(s->h, was);
  if (rc == SBX_OK) {
    u->data = malloc(len + 1);
    if (u->data) memcpy(u->data, data, len);
    u->len = len;
    sbx_free(data);
    if (!u->data) {
      free(u->path);
      free(u);
      return;
    }
  }
  u->next = s->undo;
  s->undo = u;
  if (++s->undo_count > MCP_UNDO_MAX) { /* drop the oldest */
    mcp_undo **pp = &s->undo;
    while ((*pp)->next) pp = &(*pp)->next;
    free((*pp)->path);
    free((*pp)->data);
    free(*pp);
    *pp = NULL;
    s->undo_count--;
  }
}

/* Reads a text file for the editor; NULL with *err set otherwise. */
static char *read_text(mcp_session *s, const char *path, size_t *len, json_t **err) {
  sbx_stat st;
  if (sbx_stat_path(s->h, path, 0, &st) != SBX_OK) {
    *err = errorf("%s: %s", path, fs_reason(s->h));
    return NULL;
  }
  if (st.type == SBX_TYPE_DIR) {
    *err = errorf("%s is a directory", path);
    return NULL;
  }
  if (st.size > MCP_MAX_FILE) {
    *err = errorf("%s is too large for the editor (%llu bytes; the limit is %u)", path,
                  (unsigned long long)st.size, MCP_MAX_FILE);
    return NULL;
  }
  void *data;
  if (sbx_read_file(s->h, path, &data, len) != SBX_OK) {
    *err = errorf("%s: %s", path, fs_reason(s->h));
    return NULL;
  }
  if (memchr(data, '\0', *len)) {
    sbx_free(data);
    *err = errorf("%s is a binary file (%zu bytes); use download to read it", path, *len);
    return NULL;
  }
  return data;
}

/* Appends lines [first, last] (1-based) of text with cat -n numbers. */
static void numbered(cmd_buf *b, const char *text, size_t len, long first, long last) {
  long line = 1;
  size_t i = 0;
  while (i < len && line <= last) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - text) : len;
    if (line >= first) {
      cmd_buf_printf(b, "%6ld\t", line);
      cmd_buf_put(b, text + i, end - i);
      cmd_buf_puts(b, "\n");
    }
    i = end + 1;
    line++;
  }
}

static long count_lines(const char *text, size_t len) {
  if (len == 0) return 0;
  long n = 0;
  for (size_t i = 0; i < len; i++) n += text[i] == '\n';
  return text[len - 1] == '\n' ? n : n + 1;
}

/* The line number (1-based) of byte offset off. */
static long line_of(const char *text, size_t off) {
  long n = 1;
  for (size_t i = 0; i < off; i++) n += text[i] == '\n';
  return n;
}

/* The edited file's lines around [from, to] for the model to check the edit. */
static json_t *edited_snippet(mcp_session *s, const char *path, const char *text,
                              size_t len, long from, long to, const char *what) {
  cmd_buf b = {0};
  long total = count_lines(text, len), first = from > 4 ? from - 4 : 1;
  long last = to + 4 < total ? to + 4 : total;
  cmd_buf_printf(&b, "The file %s has been edited (%s). Lines %ld-%ld now read:\n", path, what,
            first, last);
  cmd_buf lines = {0};
  numbered(&lines, text, len, first, last);
  truncated(&b, lines.p ? lines.p : "", lines.len, s->srv->max_output,
            "view the file with a view_range");
  cmd_buf_puts(&b, "Review the change; undo_edit takes it back.");
  json_t *r =
      b.err || lines.err ? errorf("out of memory") : text_result(b.p, b.len, 0);
  free(b.p);
  free(lines.p);
  return r;
}

/* Lists a directory two levels deep, without hidden entries. */
static void list_tree(mcp_session *s, cmd_buf *b, const char *dir, int depth, int *budget) {
  sbx_dirent *ents;
  size_t n;
  if (sbx_listdir(s->h, dir, &ents, &n) != SBX_OK) return;
  for (size_t i = 0; i<n && * budget> 0; i++) {
    if (ents[i].name[0] == '.') continue;
    char child[4200];
    snprintf(child, sizeof child, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "",
             ents[i].name);
    cmd_buf_printf(b, "%s%s\n", child, ents[i].type == SBX_TYPE_DIR ? "/" : "");
    (*budget)--;
    if (ents[i].type == SBX_TYPE_DIR && depth > 1)
      list_tree(s, b, child, depth - 1, budget);
  }
  if (*budget <= 0) cmd_buf_puts(b, "[... more entries not shown ...]\n");
  sbx_free(ents);
}

static json_t *edit_view(mcp_session *s, const char *path, json_t *range, char **bad) {
  sbx_stat st;
  if (sbx_stat_path(s->h, path, 0, &st) != SBX_OK)
    return errorf("%s: %s", path, fs_reason(s->h));
  cmd_buf b = {0};
  json_t *err = NULL;
  if (st.type == SBX_TYPE_DIR) {
    if (range) return errorf("view_range is for files; %s is a directory", path);
    int budget = MCP_LIST_MAX;
    cmd_buf_printf(&b,
              "Files and directories up to 2 levels deep in %s, hidden items excluded:\n",
              path);
    list_tree(s, &b, path, 2, &budget);
  } else {
    size_t len;
    char *text = read_text(s, path, &len, &err);
    if (!text) return err;
    long total = count_lines(text, len), first = 1, last = total;
    if (range) {
      json_t *a = json_array_get(range, 0), *z = json_array_get(range, 1);
      if (json_array_size(range) != 2 || !json_is_integer(a) || !json_is_integer(z)) {
        sbx_free(text);
        *bad = strdup("invalid arguments: view_range must be two integers [first, last]");
        return NULL;
      }
      first = (long)json_integer_value(a);
      last = (long)json_integer_value(z);
      if (last == -1) last = total;
      if (first < 1 || first > (total ? total : 1) || last < first || last > total) {
        sbx_free(text);
        return errorf(
            "invalid view_range [%ld, %ld]: %s has %ld lines (first from 1 to %ld, "
            "last from first to %ld, or -1)",
            (long)json_integer_value(a), (long)json_integer_value(z), path, total, total,
            total);
      }
    }
    cmd_buf lines = {0};
    numbered(&lines, text, len, first, last);
    truncated(&b, lines.p ? lines.p : "", lines.len, s->srv->max_output,
              "view a smaller part with view_range");
    free(lines.p);
    sbx_free(text);
    if (total == 0) cmd_buf_printf(&b, "(%s is empty)\n", path);
  }
  json_t *r =
      b.err ? errorf("out of memory") : text_result(b.p ? b.p : "", b.len, 0);
  free(b.p);
  return r;
}

static json_t *write_edit(mcp_session *s, const char *path, const char *data,
                          size_t len) {
  undo_push(s, path);
  if (sbx_write_file(s->h, path, data, len, SBX_WRITE_MKDIRS) != SBX_OK) {
    /* the write changed nothing: forget the undo entry */
    mcp_undo *u = s->undo;
    if (u && strcmp(u->path, path) == 0) {
      s->undo = u->next;
      s->undo_count--;
      free(u->path);
      free(u->data);
      free(u);
    }
    return errorf("%s: %s", path, fs_reason(s->h));
  }
  return NULL;
}

static json_t *edit_str_replace(mcp_session *s, const char *path, json_t *old,
                                json_t *new_) {
  json_t *err = NULL;
  size_t len;
  char *text = read_text(s, path, &len, &err);
  if (!text) return err;
  const char *o = json_string_value(old);
  size_t olen = json_string_length(old);
  if (olen == 0) {
    sbx_free(text);
    return errorf("old_str is empty; give the exact text to replace");
  }
  size_t count = 0, at = 0;
  cmd_buf lines = {0};
  for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), o, olen));
       p += olen) {
    if (count == 0) at = (size_t)(p - text);
    if (count < 20)
      cmd_buf_printf(&lines, "%s%ld", count ? ", " : "", line_of(text, (size_t)(p - text)));
    count++;
    if ((size_t)(p - text) + olen > len) break;
  }
  if (count != 1) {
    json_t *r =
        count == 0
            ? errorf(
                  "No replacement was performed: old_str does not appear verbatim in %s.",
                  path)
            : errorf(
                  "No replacement was performed: old_str occurs %zu times in %s (lines "
                  "%s%s). Include more context so that it matches exactly once.",
                  count, path, lines.p ? lines.p : "", count > 20 ? ", ..." : "");
    free(lines.p);
    sbx_free(text);
    return r;
  }
  free(lines.p);
  const char *nw = new_ ? json_string_value(new_) : "";
  size_t nlen = new_ ? json_string_length(new_) : 0;
  cmd_buf out = {0};
  cmd_buf_put(&out, text, at);
  cmd_buf_put(&out, nw, nlen);
  cmd_buf_put(&out, text + at + olen, len - at - olen);
  long from = line_of(text, at);
  sbx_free(text);
  if (out.err) {
    free(out.p);
    return errorf("out of memory");
  }
  json_t *r = write_edit(s, path, out.p ? out.p : "", out.len);
  if (!r) {
    long to = from + count_lines(nw, nlen);
    r = edited_snippet(s, path, out.p ? out.p : "", out.len, from, to,
                       "str_replace");
  }
  free(out.p);
  return r;
}

static json_t *edit_insert(mcp_session *s, const char *path, json_t *line, json_t *ins) {
  json_t *err = NULL;
  size_t len;
  char *text = read_text(s, path, &len, &err);
  if (!text) return err;
  long total = count_lines(text, len);
  json_int_t after = json_integer_value(line);
  if (after < 0 || after > total) {
    sbx_free(text);
    return errorf("invalid insert_line %lld: %s has %ld lines (0 to %ld)",
                  (long long)after, path, total, total);
  }
  size_t off = 0;
  for (json_int_t l = 0; l < after; l++) {
    const char *nl = memchr(text + off, '\n', len - off);
    off = nl ? (size_t)(nl - text) + 1 : len;
  }
  cmd_buf out = {0};
  cmd_buf_put(&out, text, off);
  if (off > 0 && text[off - 1] != '\n')
    cmd_buf_puts(&out, "\n"); /* after a last line without \n */
  const char *t = json_string_value(ins);
  size_t tlen = json_string_length(ins);
  cmd_buf_put(&out, t, tlen);
  if (tlen && t[tlen - 1] != '\n' && off < len) cmd_buf_puts(&out, "\n");
  cmd_buf_put(&out, text + off, len - off);
  sbx_free(text);
  if (out.err) {
    free(out.p);
    return errorf("out of memory");
  }
  json_t *r = write_edit(s, path, out.p ? out.p : "", out.len);
  if (!r)
    r = edited_snippet(s, path, out.p ? out.p : "", out.len, (long)after + 1,
                       (long)after + count_lines(t, tlen), "insert");
  free(out.p);
  return r;
}

static json_t *edit_undo(mcp_session *s, const char *path) {
  mcp_undo **pp = &s->undo;
  while (*pp && strcmp((*pp)->path, path) != 0) pp = &(*pp)->next;
  if (!*pp) return errorf("No edit of %s to undo.", path);
  mcp_undo *u = *pp;
  int rc = u->data ? sbx_write_file(s->h, path, u->data, u->len, SBX_WRITE_MKDIRS)
                   : sbx_remove(s->h, path, 0);
  if (rc != SBX_OK) return errorf("undo %s: %s", path, fs_reason(s->h));
  *pp = u->next;
  s->undo_count--;
  json_t *r = u->data
                  ? okf("Last edit of %s undone.", path)
                  : okf("Last edit of %s undone: the file it created was removed.", path);
  free(u->path);
  free(u->data);
  free(u);
  return r;
}

static json_t *tool_editor(mcp_session *s, json_t *args, char **bad) {
  json_t *command = arg(args, "command", 's', bad);
  json_t *jpath = arg(args, "path", 's', bad);
  json_t *file_text = arg(args, "file_text", 's', bad);
  json_t *old = arg(args, "old_str", 's', bad);
  json_t *new_ = arg(args, "new_str", 's', bad);
  json_t *line = arg(args, "insert_line", 'i', bad);
  json_t *ins = arg(args, "insert_text", 's', bad);
  json_t *range = arg(args, "view_range", 'a', bad);
  if (!command) missing("command", bad);
  if (!jpath) missing("path", bad);
  if (*bad) return NULL;
  const char *cmd = json_string_value(command);
  char buf[4096];
  json_t *err = NULL;
  const char *path = check_path(json_string_value(jpath), buf, sizeof buf, &err);
  if (!path) return err;
  if (strcmp(cmd, "view") == 0) return edit_view(s, path, range, bad);
  if (strcmp(cmd, "create") == 0) {
    if (!file_text) {
      missing("file_text", bad);
      return NULL;
    }
    sbx_stat st;
    int existed = sbx_stat_path(s->h, path, 0, &st) == SBX_OK;
    if (existed && st.type == SBX_TYPE_DIR) return errorf("%s is a directory", path);
    json_t *r =
        write_edit(s, path, json_string_value(file_text), json_string_length(file_text));
    if (r) return r;
    return okf("File %s at %s.", existed ? "overwritten" : "created", path);
  }
  if (strcmp(cmd, "str_replace") == 0) {
    if (!old) {
      missing("old_str", bad);
      return NULL;
    }
    return edit_str_replace(s, path, old, new_);
  }
  if (strcmp(cmd, "insert") == 0) {
    if (!ins) ins = new_; /* the older shape of the tool called it new_str */
    if (!line || !ins) {
      missing(line ? "insert_text" : "insert_line", bad);
      return NULL;
    }
    return edit_insert(s, path, line, ins);
  }
  if (strcmp(cmd, "undo_edit") == 0) return edit_undo(s, path);
  size_t n = strlen(cmd) + 128;
  *bad = malloc(n);
  if (*bad)
    snprintf(
        *bad, n,
        "invalid arguments: unknown command '%s' (view, create, str_replace, insert, "
        "undo_edit)",
        cmd);
  return NULL;
}

/* ---- upload, download
 * ------------------------------------------------------------------------ */

static const char b64_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64_encode(cmd_buf *b, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    char q[4] = {b64_chars[v >> 18], b64_chars[(v >> 12) & 63],
                 i + 1 < n ? b64_chars[(v >> 6) & 63] : '=',
                 i + 2 < n ? b64_chars[v & 63] : '='};
    cmd_buf_put(b, q, 4);
  }
}

/* Decodes base64 (whitespace ignored, padding optional); -1 on a bad character. */
static int base64_decode(cmd_buf *b, const char *p, size_t n) {
  unsigned v = 0;
  int bits = 0, pad = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    if (ch == '=') {
      pad = 1;
      continue;
    }
    const char *k = ch ? strchr(b64_chars, ch) : NULL;
    if (!k || pad) return -1;
    v = (v << 6) | (unsigned)(k - b64_chars);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      char byte = (char)((v >> bits) & 0xFF);
      cmd_buf_put(b, &byte, 1);
    }
  }
  return bits >= 6 ? -1 : 0; /* a lone sixth of a byte is not base64 */
}

static json_t *tool_upload(mcp_session *s, json_t *args, char **bad) {
  static const char *const keys[] = {"path", "content", "encoding", NULL};
  if (!only_keys(args, keys, bad)) return NULL;
  json_t *jpath = arg(args, "path", 's', bad);
  json_t *content = arg(args, "content", 's', bad);
  json_t *enc = arg(args, "encoding", 's', bad);
  if (!jpath) missing("path", bad);
  if (!content) missing("content", bad);
  const char *e = enc ? json_string_value(enc) : "text";
  if (!*bad && strcmp(e, "text") != 0 && strcmp(e, "base64") != 0)
    *bad = strdup("invalid arguments: encoding must be text or base64");
  if (*bad) return NULL;
  char buf[4096];
  json_t *err = NULL;
  const char *path = check_path(json_string_value(jpath), buf, sizeof buf, &err);
  if (!path) return err;
  cmd_buf data = {0};
  if (strcmp(e, "base64") == 0) {
    if (base64_decode(&data, json_string_value(content), json_string_length(content)) !=
        0) {
      free(data.p);
      return errorf("upload %s: content is not valid base64", path);
    }
  } else {
    cmd_buf_put(&data, json_string_value(content), json_string_length(content));
  }
  if (data.err) {
    free(data.p);
    return errorf("upload %s: out of memory", path);
  }
  int rc = sbx_write_file(s->h, path, data.p, data.len, SBX_WRITE_MKDIRS);
  size_t n = data.len;
  free(data.p);
  if (rc != SBX_OK) return errorf("upload %s: %s", path, fs_reason(s->h));
  return okf("Wrote %zu bytes to %s.", n, path);
}

static json_t *tool_download(mcp_session *s, json_t *args, char **bad) {
  static const char *const keys[] = {"path", "encoding", NULL};
  if (!only_keys(args, keys, bad)) return NULL;
  json_t *jpath = arg(args, "path", 's', bad);
  json_t *enc = arg(args, "encoding", 's', bad);
  if (!jpath) missing("path", bad);
  const char *e = enc ? json_string_value(enc) : "auto";
  if (!*bad && strcmp(e, "auto") != 0 && strcmp(e, "text") != 0 &&
      strcmp(e, "base64") != 0)
    *bad = strdup("invalid arguments: encoding must be auto, text or base64");
  if (*bad) return NULL;
  char buf[4096];
  json_t *err = NULL;
  const char *path = check_path(json_string_value(jpath), buf, sizeof buf, &err);
  if (!path) return err;
  sbx_stat st;
  if (sbx_stat_path(s->h, path, 0, &st) != SBX_OK)
    return errorf("download %s: %s", path, fs_reason(s->h));
  if (st.type == SBX_TYPE_DIR) return errorf("download %s: Is a directory", path);
  if (st.size > MCP_MAX_FILE)
    return errorf(
        "download %s: %llu bytes is more than the %u a download returns; read parts "
        "of it with bash (head, tail, split)",
        path, (unsigned long long)st.size, MCP_MAX_FILE);
  void *data;
  size_t len;
  if (sbx_read_file(s->h, path, &data, &len) != SBX_OK)
    return errorf("download %s: %s", path, fs_reason(s->h));
  int text = is_text(data, len);
  if (strcmp(e, "text") == 0 && !text) {
    sbx_free(data);
    return errorf("download %s: not UTF-8 text (%zu bytes); use encoding base64", path,
                  len);
  }
  int as_b64 = strcmp(e, "base64") == 0 || !text;
  cmd_buf b = {0};
  if (as_b64)
    base64_encode(&b, data, len);
  else
    cmd_buf_put(&b, data, len);
  sbx_free(data);
  json_t *r = b.err ? errorf("download %s: out of memory", path)
                       : text_result(b.p ? b.p : "", b.len, 0);
  if (r && !b.err)
    json_object_set_new(
        r, "structuredContent",
        json_pack("{s:s, s:I, s:s}", "path", path, "size", (json_int_t)len, "encoding",
                  as_b64 ? "base64" : "text"));
  free(b.p);
  return r;
}

/* ---- snapshots
 * ------------------------------------------------------------------------------- */

static int snapshot_name_valid(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > 64 || name[0] == '.') return 0;
  for (size_t i = 0; i < n; i++) {
    char ch = name[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
          (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'))
      return 0;
  }
  return 1;
}

/* Writes bytes to a host file through a temporary file renamed over it. */
static int host_write_atomic(const char *path, const void *bytes, size_t len) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) return errno;
  int e = cli_write_all(fd, bytes, len);
  if (!e && fsync(fd) != 0) e = errno;
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(tmp, path) != 0) e = errno;
  if (e) unlink(tmp);
  return e;
}

/* Replaces the session's sandbox with snapshot bytes: a new handle. */
static json_t *restore_bytes(mcp_session *s, const char *name, char *bytes, size_t len) {
  mcp_server *srv = s->srv;
  sbx *check = NULL;
  if (sbx_open_snapshot(bytes, len, SBX_OPEN_MEMORY, &check) != SBX_OK) {
    json_t *r =
        errorf("restore %s: %s", name, check ? sbx_errmsg(check) : "out of memory");
    sbx_close(check);
    return r;
  }
  sbx_close(check);
  if (srv->db) {
    pthread_mutex_lock(&srv->lock);
    int others = srv->sessions && (srv->sessions != s || s->next);
    pthread_mutex_unlock(&srv->lock);
    if (others)
      return errorf("restore %s: other sessions have the shared database %s open", name,
                    srv->db);
  }
  pthread_mutex_lock(&s->state_lock);
  sbx *old = s->h;
  s->h = NULL; /* sbx_cancel from another thread must not reach a closed handle */
  pthread_mutex_unlock(&s->state_lock);
  sbx_close(old);
  sbx *h = NULL;
  int rc;
  char reason[512] = "";
  if (s->path) {
    char aux[4200];
    snprintf(aux, sizeof aux, "%s-wal", s->path);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", s->path);
    unlink(aux);
    int e = host_write_atomic(s->path, bytes, len);
    if (e) snprintf(reason, sizeof reason, "%s: %s", s->path, strerror(e));
    rc = sbx_open(s->path, 0, &h);
  } else {
    rc = sbx_open_snapshot(bytes, len, SBX_OPEN_TEMP, &h);
  }
  if (rc != SBX_OK && !*reason)
    snprintf(reason, sizeof reason, "%s", h ? sbx_errmsg(h) : "out of memory");
  if (rc != SBX_OK) {
    sbx_close(h);
    h = NULL;
    sbx_open(NULL, SBX_OPEN_TEMP, &h); /* keep the session usable, empty */
  }
  if (h) {
    sbx_set_limits(h, &srv->limits);
    cli_sandbox_setup(h); /* checked when the session opened */
  }
  pthread_mutex_lock(&s->state_lock);
  s->h = h;
  pthread_mutex_unlock(&s->state_lock);
  mcp_undo_free(s);
  if (rc != SBX_OK)
    return errorf("restore %s: %s (the session now has an empty sandbox)", name, reason);
  return okf("Restored snapshot %s (%zu bytes). The shell and Python were restarted.",
             name, len);
}

static json_t *tool_snapshot(mcp_session *s, json_t *args, char **bad) {
  static const char *const keys[] = {"action", "name", NULL};
  if (!only_keys(args, keys, bad)) return NULL;
  json_t *jaction = arg(args, "action", 's', bad);
  json_t *jname = arg(args, "name", 's', bad);
  if (!jaction) missing("action", bad);
  if (*bad) return NULL;
  mcp_server *srv = s->srv;
  const char *action = json_string_value(jaction);
  const char *name = jname ? json_string_value(jname) : NULL;
  int is_list = strcmp(action, "list") == 0, is_fork = strcmp(action, "fork") == 0;
  if (!is_list && !is_fork && strcmp(action, "export") && strcmp(action, "restore")) {
    *bad = strdup("invalid arguments: action must be export, list, restore or fork");
    return NULL;
  }
  if (!is_list && !is_fork && !name) {
    missing("name", bad);
    return NULL;
  }
  if (name && !snapshot_name_valid(name))
    return errorf(
        "invalid snapshot name '%s': use 1 to 64 letters, digits, '.', '_' or '-' "
        "(not starting with '.')",
        name);
  char file[4200];
  if (name) snprintf(file, sizeof file, "%s/%s.db", srv->snapdir, name);
  if (is_list) {
    DIR *d = opendir(srv->snapdir);
    cmd_buf b = {0};
    int count = 0;
    if (d) {
      char **names = NULL;
      size_t n = 0, cap = 0;
      struct dirent *e;
      while ((e = readdir(d)) && n < MCP_LIST_MAX) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 4 || strcmp(e->d_name + l - 3, ".db") != 0)
          continue;
        if (n == cap) {
          cap = cap ? cap * 2 : 16;
          char **q = realloc(names, cap * sizeof *q);
          if (!q) break;
          names = q;
        }
        names[n] = strndup(e->d_name, l - 3);
        if (names[n]) n++;
      }
      closedir(d);
      qsort(names, n, sizeof *names, (int (*)(const void *, const void *))strcmp);
      for (size_t i = 0; i < n; i++) {
        struct stat st;
        char p[4200];
        snprintf(p, sizeof p, "%s/%s.db", srv->snapdir, names[i]);
        if (stat(p, &st) == 0) {
          char when[64] = "?";
          struct tm tm;
          if (gmtime_r(&st.st_mtime, &tm))
            strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
          cmd_buf_printf(&b, "%s\t%lld bytes\t%s\n", names[i], (long long)st.st_size, when);
          count++;
        }
        free(names[i]);
      }
      free(names);
    }
    if (!count) cmd_buf_puts(&b, "No snapshots yet; save one with action export.");
    json_t *r = text_result(b.p ? b.p : "", b.len, 0);
    free(b.p);
    return r;
  }
  if (strcmp(action, "export") == 0) {
    if (mkdir(srv->snapdir, 0700) != 0 && errno != EEXIST)
      return errorf("export %s: %s: %s", name, srv->snapdir, strerror(errno));
    void *bytes;
    size_t len;
    if (sbx_snapshot(s->h, &bytes, &len) != SBX_OK)
      return errorf("export %s: %s", name, sbx_errmsg(s->h));
    int e = host_write_atomic(file, bytes, len);
    sbx_free(bytes);
    if (e) return errorf("export %s: %s", name, strerror(e));
    return okf("Saved snapshot %s (%zu bytes).", name, len);
  }
  char *bytes = NULL;
  size_t len = 0;
  if (name) {
    int e = cli_read_host_file(file, &bytes, &len);
    if (e)
      return errorf("%s %s: %s", action, name,
                    e == ENOENT ? "no snapshot of that name" : strerror(e));
  }
  if (!is_fork) {
    json_t *r = restore_bytes(s, name, bytes, len);
    free(bytes);
    return r;
  }
  /* fork: a new session's database in --dir, from the snapshot or the current state */
  if (!srv->dir) {
    free(bytes);
    return errorf(
        "fork needs the server to keep one sandbox per session (sbx mcp --dir DIR)");
  }
  char err_text[512] = "";
  char id[MCP_SESSION_ID_MAX + 1];
  if (mcp_random_id(id, 16) != 0)
    snprintf(err_text, sizeof err_text, "no random numbers for an id");
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.db", srv->dir, id);
  if (!*err_text) {
    if (bytes) {
      sbx *tmp = NULL;
      if (sbx_open_snapshot(bytes, len, SBX_OPEN_MEMORY, &tmp) != SBX_OK ||
          sbx_fork(tmp, path, NULL) != SBX_OK)
        snprintf(err_text, sizeof err_text, "%s",
                 tmp ? sbx_errmsg(tmp) : "out of memory");
      sbx_close(tmp);
    } else if (sbx_fork(s->h, path, NULL) != SBX_OK) {
      snprintf(err_text, sizeof err_text, "%s", sbx_errmsg(s->h));
    }
  }
  free(bytes);
  if (*err_text) return errorf("fork: %s", err_text);
  json_t *res =
      okf("Forked %s into the new session %s. Resume it with the header "
          "Mcp-Session-Id: %s (HTTP) or: sbx mcp --dir %s --session %s",
          name ? name : "the current state", id, id, srv->dir, id);
  json_object_set_new(res, "structuredContent", json_pack("{s:s}", "session", id));
  return res;
}

/* ---- dispatch
 * ---------------------------------------------------------------------------------- */

json_t *mcp_tools_call(mcp_session *s, const char *name, json_t *args,
                       json_t *progress_token, const mcp_sink *sink, int *code,
                       char **message) {
  char *bad = NULL;
  json_t *r = NULL;
  if (!s->h)
    return errorf("the session's sandbox could not be reopened; start a new session");
  if (strcmp(name, "bash") == 0)
    r = tool_bash(s, args, progress_token, sink, &bad);
  else if (strcmp(name, "python") == 0)
    r = tool_python(s, args, progress_token, sink, &bad);
  else if (strcmp(name, "str_replace_based_edit_tool") == 0)
    r = tool_editor(s, args, &bad);
  else if (strcmp(name, "upload") == 0)
    r = tool_upload(s, args, &bad);
  else if (strcmp(name, "download") == 0)
    r = tool_download(s, args, &bad);
  else if (strcmp(name, "snapshot") == 0)
    r = tool_snapshot(s, args, &bad);
  else {
    size_t n = strlen(name) + 32;
    bad = malloc(n);
    if (bad) snprintf(bad, n, "Unknown tool: %s", name);
  }
  if (r) {
    free(bad);
    return r;
  }
  *code = -32602;
  *message = bad ? bad : strdup("invalid arguments");
  return NULL;
}

/* ---- resources
 * --------------------------------------------------------------------------------- */

/* sbx:// + the path, bytes outside [A-Za-z0-9/._~-] percent-encoded. */
static void path_uri(cmd_buf *b, const char *path) {
  cmd_buf_puts(b, "sbx://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("/._~-", *p))
      cmd_buf_put(b, p, 1);
    else
      cmd_buf_printf(b, "%%%02X", *p);
  }
}

static const char *mime_of(const char *path) {
  static const char *const table[][2] = {
      {".txt", "text/plain"},        {".md", "text/markdown"},
      {".csv", "text/csv"},          {".json", "application/json"},
      {".py", "text/x-python"},      {".sh", "text/x-shellscript"},
      {".html", "text/html"},        {".xml", "application/xml"},
      {".yaml", "application/yaml"}, {".yml", "application/yaml"},
      {".png", "image/png"},         {".jpg", "image/jpeg"},
      {".pdf", "application/pdf"},   {".db", "application/vnd.sqlite3"}};
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) return NULL;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(dot, table[i][0]) == 0) return table[i][1];
  return NULL;
}

static void list_resources(mcp_session *s, json_t *out, const char *dir, int depth) {
  sbx_dirent *ents;
  size_t n;
  if (depth > MCP_LIST_DEPTH || json_array_size(out) >= MCP_LIST_MAX) return;
  if (sbx_listdir(s->h, dir, &ents, &n) != SBX_OK) return;
  for (size_t i = 0; i < n && json_array_size(out) < MCP_LIST_MAX; i++) {
    char child[4200];
    if ((size_t)snprintf(child, sizeof child, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "",
                         ents[i].name) >= sizeof child)
      continue;
    if (ents[i].type == SBX_TYPE_DIR) {
      list_resources(s, out, child, depth + 1);
    } else if (ents[i].type == SBX_TYPE_FILE) {
      sbx_stat st;
      cmd_buf uri = {0};
      path_uri(&uri, child);
      json_t *item = json_pack("{s:s, s:o}", "uri", uri.p ? uri.p : "", "name",
                               json_text(child, strlen(child)));
      free(uri.p);
      if (!item) continue;
      if (sbx_stat_path(s->h, child, 1, &st) == SBX_OK)
        json_object_set_new(item, "size", json_integer((json_int_t)st.size));
      const char *mime = mime_of(child);
      if (mime) json_object_set_new(item, "mimeType", json_string(mime));
      json_array_append_new(out, item);
    }
  }
  sbx_free(ents);
}

json_t *mcp_resources_list(mcp_session *s, json_t *params, int *code, char **message) {
  (void)params;
  if (!s->h) {
    *code = -32603;
    *message = strdup("the session has no sandbox");
    return NULL;
  }
  json_t *list = json_array();
  list_resources(s, list, "/", 0);
  return json_pack("{s:o}", "resources", list);
}

static int hexval(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

json_t *mcp_resources_read(mcp_session *s, json_t *params, int *code, char **message) {
  const char *uri = json_string_value(json_object_get(params, "uri"));
  char raw[4096], path[4096];
  *code = -32602;
  if (!uri || strncmp(uri, "sbx://", 6) != 0) {
    *message = strdup("resources/read: uri must be sbx:///PATH");
    return NULL;
  }
  size_t n = 0;
  for (const char *p = uri + 6; *p; p++) {
    int c = (unsigned char)*p;
    if (*p == '%') {
      int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
      if (lo < 0) {
        *message = strdup("resources/read: bad percent-encoding in the uri");
        return NULL;
      }
      c = hi * 16 + lo;
      p += 2;
    }
    if (c == 0 || n + 1 >= sizeof raw) {
      *message = strdup("resources/read: bad uri");
      return NULL;
    }
    raw[n++] = (char)c;
  }
  raw[n] = '\0';
  if (mcp_path_normalize(raw, path, sizeof path) != 0) {
    *message =
        strdup("resources/read: refused path: it must be absolute and stay inside /");
    return NULL;
  }
  sbx_stat st;
  void *data;
  size_t len;
  if (!s->h || sbx_stat_path(s->h, path, 0, &st) != SBX_OK || st.type != SBX_TYPE_FILE) {
    *code = -32002;
    *message = strdup("Resource not found");
    return NULL;
  }
  if (st.size > MCP_MAX_FILE) {
    *code = -32603;
    *message = strdup("resources/read: the file is larger than 8 MiB");
    return NULL;
  }
  if (sbx_read_file(s->h, path, &data, &len) != SBX_OK) {
    *code = -32002;
    *message = strdup("Resource not found");
    return NULL;
  }
  const char *mime = mime_of(path);
  json_t *item = json_pack("{s:s}", "uri", uri);
  if (is_text(data, len)) {
    json_object_set_new(item, "text", json_stringn(data, len));
    json_object_set_new(item, "mimeType", json_string(mime ? mime : "text/plain"));
  } else {
    cmd_buf b = {0};
    base64_encode(&b, data, len);
    json_object_set_new(item, "blob", json_stringn(b.p ? b.p : "", b.len));
    json_object_set_new(item, "mimeType",
                        json_string(mime ? mime : "application/octet-stream"));
    free(b.p);
  }
  sbx_free(data);
  return json_pack("{s:[o]}", "contents", item);
}
