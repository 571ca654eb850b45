/*
 * mcp.c - `sbx mcp` and `sbx DB mcp`: a Model Context Protocol server
 * (revision 2025-06-18, JSON-RPC 2.0) that gives a model the sandbox as tools.
 *
 *   sbx mcp [--dir DIR] [OPTIONS]   one sandbox per MCP session: DIR/ID.db
 *                                   (resumable by id), or a temporary one
 *   sbx DB mcp [OPTIONS]            every session opens the one database DB
 *
 * Transports: stdio (newline-delimited JSON-RPC on stdin/stdout, one session)
 * or Streamable HTTP with --http ADDR:PORT (cli/mcp_http.c, many sessions).
 *
 * This file holds the options, the sessions and the dispatcher. Each session
 * has its own sbx handle, so it has its own persistent shell and Python
 * worker even when sessions share one database. On stdio the reader thread
 * queues the requests that use the sandbox (tools/call, resources/...) for
 * one worker thread, which answers them in arrival order; the reader itself
 * answers the rest at once: notifications (notifications/cancelled calls
 * sbx_cancel on the running call), pings, initialize, tools/list.
 */
#include "mcp.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MCP_STDIO_MAX_LINE (16u << 20) /* bytes of one JSON-RPC message on stdin */

/* ---- sessions ------------------------------------------------------------------------
 */

int mcp_session_id_valid(const char *id) {
  size_t n = strlen(id);
  if (n == 0 || n > MCP_SESSION_ID_MAX) return 0;
  for (size_t i = 0; i < n; i++) {
    char ch = id[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
          (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'))
      return 0;
  }
  return 1;
}

int mcp_random_id(char *out, size_t nbytes) {
  unsigned char r[32];
  if (nbytes > sizeof r || nbytes * 2 > MCP_SESSION_ID_MAX) return -1;
  size_t got = 0;
  while (got < nbytes) {
    ssize_t n = getrandom(r + got, nbytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    got += (size_t)n;
  }
  for (size_t i = 0; i < nbytes; i++) sprintf(out + 2 * i, "%02x", r[i]);
  return 0;
}

static char *str_printf(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
  char *p = malloc(n);
  if (p) snprintf(p, n, fmt, a, b ? b : "");
  return p;
}

mcp_session *mcp_session_open(mcp_server *srv, const char *resume_id, char **err) {
  *err = NULL;
  mcp_session *s = calloc(1, sizeof *s);
  if (!s) {
    *err = strdup("out of memory");
    return NULL;
  }
  s->srv = srv;
  pthread_mutex_init(&s->call_lock, NULL);
  pthread_mutex_init(&s->state_lock, NULL);
  s->refs = 2; /* the list's and the caller's */
  pthread_mutex_lock(&srv->lock);
  srv->next_id++;
  pthread_mutex_unlock(&srv->lock);
  if (resume_id) {
    if (!mcp_session_id_valid(resume_id)) {
      *err = str_printf("invalid session id '%s'", resume_id, NULL);
      goto fail;
    }
    snprintf(s->id, sizeof s->id, "%s", resume_id);
  } else if (mcp_random_id(s->id, 16) != 0) {
    *err = strdup("no random numbers for a session id");
    goto fail;
  }
  int flags = 0;
  if (srv->db) {
    s->path = strdup(srv->db);
  } else if (srv->dir) {
    s->path = str_printf("%s/%s.db", srv->dir, s->id);
    /* resuming needs the session's database; a new id must not exist */
    struct stat st;
    if (s->path && resume_id && stat(s->path, &st) != 0) {
      *err = str_printf("no session '%s' in %s", resume_id, srv->dir);
      goto fail;
    }
  } else {
    if (resume_id) {
      *err = strdup("resuming a session needs --dir or a database");
      goto fail;
    }
    flags = SBX_OPEN_TEMP;
  }
  if (!s->path && flags != SBX_OPEN_TEMP) {
    *err = strdup("out of memory");
    goto fail;
  }
  if (sbx_open(s->path, flags, &s->h) != SBX_OK) {
    *err = strdup(s->h ? sbx_errmsg(s->h) : "out of memory");
    sbx_close(s->h);
    s->h = NULL;
    goto fail;
  }
  sbx_set_limits(s->h, &srv->limits);
  if (cli_sandbox_setup(s->h) != SBX_OK) {
    *err = strdup(sbx_errmsg(s->h));
    sbx_close(s->h);
    s->h = NULL;
    goto fail;
  }
  pthread_mutex_lock(&srv->lock);
  size_t live = 0;
  mcp_session *same = NULL;
  for (mcp_session *o = srv->sessions; o; o = o->next) {
    live++;
    if (strcmp(o->id, s->id) == 0) same = o;
  }
  if (same) { /* two requests resumed one id at once: the first one wins */
    pthread_mutex_lock(&same->state_lock);
    same->refs++;
    pthread_mutex_unlock(&same->state_lock);
  } else if (live < MCP_MAX_SESSIONS) {
    s->next = srv->sessions;
    srv->sessions = s;
  }
  pthread_mutex_unlock(&srv->lock);
  if (same || live >= MCP_MAX_SESSIONS) {
    sbx_close(s->h);
    s->h = NULL;
    if (same) {
      free(s->path);
      pthread_mutex_destroy(&s->call_lock);
      pthread_mutex_destroy(&s->state_lock);
      free(s);
      return same;
    }
    *err = strdup("too many sessions (end some with DELETE)");
    goto fail;
  }
  return s;
fail:
  if (!*err) *err = strdup("out of memory");
  free(s->path);
  pthread_mutex_destroy(&s->call_lock);
  pthread_mutex_destroy(&s->state_lock);
  free(s);
  return NULL;
}

mcp_session *mcp_session_find(mcp_server *srv, const char *id) {
  pthread_mutex_lock(&srv->lock);
  mcp_session *s = srv->sessions;
  while (s && strcmp(s->id, id) != 0) s = s->next;
  if (s) {
    pthread_mutex_lock(&s->state_lock);
    s->refs++;
    pthread_mutex_unlock(&s->state_lock);
  }
  pthread_mutex_unlock(&srv->lock);
  return s;
}

void mcp_session_release(mcp_session *s) {
  if (!s) return;
  pthread_mutex_lock(&s->state_lock);
  int last = --s->refs == 0;
  pthread_mutex_unlock(&s->state_lock);
  if (!last) return;
  sbx_close(s->h);
  mcp_undo_free(s);
  json_decref(s->running_id);
  free(s->path);
  pthread_mutex_destroy(&s->call_lock);
  pthread_mutex_destroy(&s->state_lock);
  free(s);
}

void mcp_session_end(mcp_session *s) {
  mcp_server *srv = s->srv;
  int unlinked = 0;
  pthread_mutex_lock(&srv->lock);
  for (mcp_session **pp = &srv->sessions; *pp; pp = &(*pp)->next)
    if (*pp == s) {
      *pp = s->next;
      unlinked = 1;
      break;
    }
  pthread_mutex_unlock(&srv->lock);
  pthread_mutex_lock(&s->state_lock);
  s->ended = 1;
  if (s->running_id && s->h) sbx_cancel(s->h);
  pthread_mutex_unlock(&s->state_lock);
  if (unlinked) mcp_session_release(s); /* the list's reference */
}

/* ---- JSON-RPC -------------------------------------------------------------------------
 */

json_t *mcp_error_response(json_t *id, int code, const char *message) {
  return json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
                   id ? id : json_null(), "error", "code", code, "message", message);
}

static json_t *result_response(json_t *id, json_t *result) {
  return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result);
}

static const char *const supported_versions[] = {"2025-06-18", "2025-03-26",
                                                 "2024-11-05"};

static json_t *handle_initialize(mcp_session *s, json_t *params) {
  const char *asked = json_string_value(json_object_get(params, "protocolVersion"));
  const char *version = MCP_PROTOCOL_VERSION;
  for (size_t i = 0; asked && i < sizeof supported_versions / sizeof *supported_versions;
       i++)
    if (strcmp(asked, supported_versions[i]) == 0) version = supported_versions[i];
  s->initialized = 1;
  return json_pack(
      "{s:s, s:{s:{s:b}, s:{s:b, s:b}}, s:{s:s, s:s, s:s}, s:s}", "protocolVersion",
      version, "capabilities", "tools", "listChanged", 0, "resources", "subscribe", 0,
      "listChanged", 0, "serverInfo", "name", "sbx", "title", "sbx sandbox", "version",
      "0.1.0", "instructions",
      "A sandbox: a virtual filesystem (files under /data, the working directory), a "
      "persistent bash-compatible shell with ~140 Unix commands, and Python 3 in a jail "
      "that "
      "sees the same files. Nothing on the host is reachable. Use `bash` for commands, "
      "`python` for Python (state persists per context), `str_replace_based_edit_tool` "
      "to "
      "view and edit files, `snapshot` to save and restore the whole sandbox.");
}

/* The id of a cancellation and, if it is the running call, cancels it. */
static void handle_cancelled(mcp_session *s, json_t *params) {
  json_t *rid = json_object_get(params, "requestId");
  if (!rid) return;
  pthread_mutex_lock(&s->state_lock);
  if (s->running_id && json_equal(s->running_id, rid)) {
    s->cancel_requested = 1;
    if (s->h) sbx_cancel(s->h);
  }
  pthread_mutex_unlock(&s->state_lock);
}

/* Runs tools/call under the session's call lock. */
static json_t *handle_tools_call(mcp_session *s, json_t *id, json_t *params,
                                 const mcp_sink *sink, int *cancelled) {
  const char *name = json_string_value(json_object_get(params, "name"));
  json_t *args = json_object_get(params, "arguments");
  if (!name) return mcp_error_response(id, -32602, "tools/call needs a tool name");
  if (args && !json_is_object(args))
    return mcp_error_response(id, -32602, "tools/call: arguments must be an object");
  json_t *token = json_object_get(json_object_get(params, "_meta"), "progressToken");
  if (token && !json_is_string(token) && !json_is_integer(token)) token = NULL;
  json_t *empty = NULL;
  if (!args) args = empty = json_object();

  pthread_mutex_lock(&s->call_lock);
  pthread_mutex_lock(&s->state_lock);
  int ended = s->ended;
  if (!ended) {
    s->running_id = json_incref(id);
    s->cancel_requested = 0;
  }
  pthread_mutex_unlock(&s->state_lock);
  json_t *resp;
  if (ended) {
    resp = mcp_error_response(id, -32600, "the session has ended");
  } else {
    int code = 0;
    char *message = NULL;
    json_t *result = mcp_tools_call(s, name, args, token, sink, &code, &message);
    resp = result ? result_response(id, result)
                  : mcp_error_response(id, code, message ? message : "internal error");
    free(message);
    pthread_mutex_lock(&s->state_lock);
    json_decref(s->running_id);
    s->running_id = NULL;
    int late = s->cancel_requested;
    s->cancel_requested = 0;
    pthread_mutex_unlock(&s->state_lock);
    if (late) {
      /* A cancel that arrived as the call ended leaves sbx's flag set: an
       * empty script consumes it so that the next call is not cancelled. */
      sbx_bash_result r;
      sbx_bash(s->h, "", 0, &r);
      sbx_bash_result_free(&r);
      *cancelled = 1;
    }
  }
  pthread_mutex_unlock(&s->call_lock);
  json_decref(empty);
  return resp;
}

json_t *mcp_handle_message(mcp_session *s, json_t *msg, const mcp_sink *sink,
                           int *cancelled) {
  *cancelled = 0;
  if (!json_is_object(msg))
    return mcp_error_response(NULL, -32600, "not a JSON-RPC message");
  json_t *id = json_object_get(msg, "id");
  const char *method = json_string_value(json_object_get(msg, "method"));
  const char *jsonrpc = json_string_value(json_object_get(msg, "jsonrpc"));
  if (!jsonrpc || strcmp(jsonrpc, "2.0") != 0)
    return mcp_error_response(id, -32600, "jsonrpc must be \"2.0\"");
  if (!method) {
    if (json_object_get(msg, "result") || json_object_get(msg, "error")) return NULL;
    return mcp_error_response(id, -32600, "a request needs a method");
  }
  json_t *params = json_object_get(msg, "params");
  if (params && !json_is_object(params))
    return id ? mcp_error_response(id, -32602, "params must be an object") : NULL;
  if (!id) { /* a notification: no response */
    if (strcmp(method, "notifications/cancelled") == 0) handle_cancelled(s, params);
    return NULL;
  }
  if (!json_is_string(id) && !json_is_integer(id))
    return mcp_error_response(NULL, -32600, "id must be a string or an integer");
  if (strcmp(method, "initialize") == 0)
    return result_response(id, handle_initialize(s, params));
  if (strcmp(method, "ping") == 0) return result_response(id, json_object());
  if (strcmp(method, "tools/list") == 0)
    return result_response(id, json_pack("{s:O}", "tools", s->srv->tools));
  if (strcmp(method, "tools/call") == 0)
    return handle_tools_call(s, id, params, sink, cancelled);
  if (strcmp(method, "resources/list") == 0 || strcmp(method, "resources/read") == 0) {
    int code = 0;
    char *message = NULL;
    pthread_mutex_lock(&s->call_lock);
    json_t *r = method[10] == 'l' ? mcp_resources_list(s, params, &code, &message)
                                  : mcp_resources_read(s, params, &code, &message);
    pthread_mutex_unlock(&s->call_lock);
    json_t *resp = r ? result_response(id, r) : mcp_error_response(id, code, message);
    free(message);
    return resp;
  }
  if (strcmp(method, "resources/templates/list") == 0)
    return result_response(id, json_pack("{s:[]}", "resourceTemplates"));
  return mcp_error_response(id, -32601, "method not found");
}

/* ---- stdio
 * ---------------------------------------------------------------------------------- */

/* A message waiting for the stdio worker. */
typedef struct stdio_item {
  json_t *msg;             /* the request (owned) */
  struct stdio_item *next; /* the next one in arrival order */
} stdio_item;

typedef struct stdio_state {
  pthread_mutex_t out_lock; /* one message per line on stdout */
  pthread_mutex_t lock;     /* guards the queue and eof */
  pthread_cond_t ready;     /* signalled when the queue grows or input ends */
  stdio_item *head, *tail;  /* requests in arrival order */
  int eof;                  /* stdin ended: the worker drains the queue and stops */
  mcp_session *s;           /* the session */
} stdio_state;

static void stdio_send(stdio_state *st, json_t *msg) {
  char *text = json_dumps(msg, JSON_COMPACT);
  if (!text) return;
  pthread_mutex_lock(&st->out_lock);
  cli_write_all(1, text, strlen(text));
  cli_write_all(1, "\n", 1);
  pthread_mutex_unlock(&st->out_lock);
  free(text);
}

static void stdio_notify(void *ud, json_t *msg) {
  stdio_send(ud, msg);
}

/* The worker: handles requests one at a time in arrival order, so that a
 * model's calls see each other's effects in the order it sent them. */
static void *stdio_worker(void *arg) {
  stdio_state *st = arg;
  for (;;) {
    pthread_mutex_lock(&st->lock);
    while (!st->head && !st->eof) pthread_cond_wait(&st->ready, &st->lock);
    stdio_item *it = st->head;
    if (it) {
      st->head = it->next;
      if (!st->head) st->tail = NULL;
    }
    pthread_mutex_unlock(&st->lock);
    if (!it) return NULL;
    int cancelled;
    mcp_sink sink = {stdio_notify, st};
    json_t *resp = mcp_handle_message(st->s, it->msg, &sink, &cancelled);
    if (resp && !cancelled) stdio_send(st, resp);
    json_decref(resp);
    json_decref(it->msg);
    free(it);
  }
}

/* Reads one line like getline, but keeps at most MCP_STDIO_MAX_LINE bytes:
 * a longer line is consumed to its end and reported with a length over the
 * limit. -1 at the end of input. */
static ssize_t read_line(FILE *f, char **line, size_t *cap) {
  size_t n = 0, total = 0;
  int ch;
  while ((ch = getc_unlocked(f)) != EOF) {
    total++;
    if (ch == '\n') break;
    if (n >= MCP_STDIO_MAX_LINE) continue; /* over the limit: drop the rest */
    if (n + 2 > *cap) {
      size_t c = *cap ? *cap * 2 : 4096;
      char *p = realloc(*line, c);
      if (!p) return -1;
      *line = p;
      *cap = c;
    }
    (*line)[n++] = (char)ch;
  }
  if (ch == EOF && total == 0) return -1;
  if (!*line && !(*line = malloc(*cap = 1))) return -1;
  (*line)[n] = '\0';
  return total > MCP_STDIO_MAX_LINE ? (ssize_t)total : (ssize_t)n;
}

static int serve_stdio(mcp_server *srv, const char *resume) {
  char *err = NULL;
  mcp_session *s = mcp_session_open(srv, resume, &err);
  if (!s) {
    cli_error("mcp: %s", err);
    free(err);
    return 1;
  }
  stdio_state st;
  memset(&st, 0, sizeof st);
  pthread_mutex_init(&st.out_lock, NULL);
  pthread_mutex_init(&st.lock, NULL);
  pthread_cond_init(&st.ready, NULL);
  st.s = s;
  if (srv->dir) fprintf(stderr, "sbx mcp: session %s (%s)\n", s->id, s->path);
  pthread_t worker;
  int have_worker = pthread_create(&worker, NULL, stdio_worker, &st) == 0;

  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = read_line(stdin, &line, &cap)) >= 0) {
    if ((size_t)n > MCP_STDIO_MAX_LINE) {
      json_t *e = mcp_error_response(NULL, -32600, "message too large");
      stdio_send(&st, e);
      json_decref(e);
      continue;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    if (n == 0) continue;
    json_error_t jerr;
    json_t *msg = json_loadb(line, (size_t)n, 0, &jerr);
    if (!msg) {
      json_t *e = mcp_error_response(NULL, -32700, "parse error");
      stdio_send(&st, e);
      json_decref(e);
      continue;
    }
    /* Calls that use the sandbox wait their turn on the worker; the rest
     * (notifications, cancellation above all, pings, lists) is answered here
     * at once, even while the worker runs a command. */
    const char *method = json_string_value(json_object_get(msg, "method"));
    int inline_ =
        !have_worker || !method || !json_object_get(msg, "id") ||
        (strcmp(method, "tools/call") != 0 && strncmp(method, "resources/", 10) != 0);
    stdio_item *it = inline_ ? NULL : malloc(sizeof *it);
    if (it) {
      it->msg = msg;
      it->next = NULL;
      pthread_mutex_lock(&st.lock);
      if (st.tail)
        st.tail->next = it;
      else
        st.head = it;
      st.tail = it;
      pthread_cond_signal(&st.ready);
      pthread_mutex_unlock(&st.lock);
      continue;
    }
    int cancelled;
    mcp_sink sink = {stdio_notify, &st};
    json_t *resp = mcp_handle_message(s, msg, &sink, &cancelled);
    if (resp && !cancelled) stdio_send(&st, resp);
    json_decref(resp);
    json_decref(msg);
  }
  free(line);
  /* end of input: the worker answers what is queued, then stops */
  pthread_mutex_lock(&st.lock);
  st.eof = 1;
  pthread_cond_signal(&st.ready);
  pthread_mutex_unlock(&st.lock);
  if (have_worker) pthread_join(worker, NULL);
  mcp_session_end(s);
  mcp_session_release(s);
  pthread_cond_destroy(&st.ready);
  pthread_mutex_destroy(&st.lock);
  pthread_mutex_destroy(&st.out_lock);
  return 0;
}

/* ---- the command
 * ------------------------------------------------------------------------- */

/* Removes the temporary snapshot directory and what is in it (flat). */
static void remove_snapdir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char p[4096];
      if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < sizeof p) unlink(p);
    }
    closedir(d);
  }
  rmdir(dir);
}

int cli_mcp_main(cli_ctx *c, int argc, char **argv) {
  static const struct option longs[] = {{"dir", required_argument, NULL, 'd'},
                                        {"http", required_argument, NULL, 'H'},
                                        {"token", required_argument, NULL, 'T'},
                                        {"timeout", required_argument, NULL, 't'},
                                        {"preset", required_argument, NULL, 'p'},
                                        {"session", required_argument, NULL, 's'},
                                        {"max-output", required_argument, NULL, 'm'},
                                        {"limit", required_argument, NULL, 'l'},
                                        {NULL, 0, NULL, 0}};
  const char *dir = NULL, *http = NULL, *token = getenv("SBX_MCP_TOKEN"), *session = NULL;
  long max_output = 30000;
  int opt;
  cli_getopt_reset();
  while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    char *end;
    switch (opt) {
      case 'd':
        dir = optarg;
        break;
      case 'H':
        http = optarg;
        break;
      case 'T':
        token = optarg;
        break;
      case 's':
        session = optarg;
        break;
      case 'p':
        if (cli_limit_set("preset", optarg)) return 1;
        break;
      case 't':
        if (cli_limit_set("timeout", optarg)) return 1;
        break;
      case 'l':
        if (cli_limit_set("limit", optarg)) return 1;
        break;
      case 'm':
        errno = 0;
        max_output = strtol(optarg, &end, 10);
        if (errno || *end || max_output < 1000 || max_output > (64L << 20))
          return cli_error(
              "mcp: --max-output: '%s' is not a byte count from 1000 to 67108864",
              optarg);
        break;
      default:
        return cli_usage("mcp");
    }
  }
  if (optind != argc) return cli_usage("mcp");
  if (c->db && dir) return cli_error("mcp: --dir and a database exclude each other");
  if (token && !*token) token = NULL;
  if (session && !dir) return cli_error("mcp: --session needs --dir");
  if (session && http)
    return cli_error(
        "mcp: --session is for stdio; HTTP clients resume with Mcp-Session-Id");

  mcp_server srv;
  memset(&srv, 0, sizeof srv);
  srv.db = c->db;
  srv.dir = dir;
  srv.max_output = (size_t)max_output;
  cli_limits(&srv.limits); /* --preset, --timeout, --limit here or before DB */
  srv.timeout_s = (double)srv.limits.timeout_ms / 1000.0;
  if (srv.timeout_s <= 0) srv.timeout_s = 30;
  pthread_mutex_init(&srv.lock, NULL);
  srv.tools = mcp_tools_definitions();
  if (!srv.tools) return cli_error("mcp: the built-in tool definitions do not parse");

  struct stat st;
  if (dir && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
    json_decref(srv.tools);
    return cli_error("mcp: --dir %s: %s", dir,
                     stat(dir, &st) ? strerror(errno) : "Not a directory");
  }
  /* named snapshots: DIR/snapshots, DB.snapshots, or a temporary directory */
  if (dir) {
    srv.snapdir = str_printf("%s/snapshots", dir, NULL);
  } else if (c->db) {
    srv.snapdir = str_printf("%s.snapshots", c->db, NULL);
  } else {
    const char *tmp = getenv("TMPDIR");
    srv.snapdir = str_printf("%s/sbx-mcp-XXXXXX", tmp && *tmp ? tmp : "/tmp", NULL);
    if (srv.snapdir && !mkdtemp(srv.snapdir)) {
      int e = errno;
      free(srv.snapdir);
      json_decref(srv.tools);
      return cli_error("mcp: a temporary directory: %s", strerror(e));
    }
    srv.snapdir_temp = 1;
  }
  if (!srv.snapdir) {
    json_decref(srv.tools);
    return cli_error("mcp: out of memory");
  }
  int status = http ? mcp_http_serve(&srv, http, token) : serve_stdio(&srv, session);

  /* sessions still open (HTTP at shutdown) */
  for (;;) {
    pthread_mutex_lock(&srv.lock);
    mcp_session *s = srv.sessions;
    if (s) {
      pthread_mutex_lock(&s->state_lock);
      s->refs++;
      pthread_mutex_unlock(&s->state_lock);
    }
    pthread_mutex_unlock(&srv.lock);
    if (!s) break;
    mcp_session_end(s);
    mcp_session_release(s);
  }
  if (srv.snapdir_temp) remove_snapdir(srv.snapdir);
  free(srv.snapdir);
  json_decref(srv.tools);
  pthread_mutex_destroy(&srv.lock);
  return status;
}
