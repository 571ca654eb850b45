/*
 * mcp_http.c - the Streamable HTTP transport of `sbx mcp --http ADDR:PORT`:
 * a small HTTP/1.1 server of its own, one thread per connection.
 *
 *   POST /mcp    one JSON-RPC message; a request is answered with 200 and
 *                application/json, a notification or response with 202. A
 *                tools/call with a progressToken, from a client that accepts
 *                text/event-stream, gets an SSE stream: its progress
 *                notifications, then the response.
 *                initialize creates a session and returns its Mcp-Session-Id;
 *                every later POST carries that header (missing: 400; unknown:
 *                404, unless --dir holds that session's database: resumed).
 *   GET /mcp     405: the server offers no stream of its own.
 *   DELETE /mcp  ends the session named by Mcp-Session-Id (204).
 *
 * The parser is bounded because anything on the network may talk to it: the
 * request line and headers fit in MCP_HTTP_MAX_HEADER_BYTES (else 431), at
 * most MCP_HTTP_MAX_HEADERS header lines (431), a POST needs Content-Length
 * (411; chunked bodies are refused the same way) of at most MCP_HTTP_MAX_BODY
 * (413), and a client that stops sending for MCP_HTTP_READ_TIMEOUT_S seconds
 * gets 408. One request per connection (Connection: close). With a token
 * (--token or $SBX_MCP_TOKEN) every request needs "Authorization: Bearer
 * TOKEN" (401 otherwise, compared in constant time). A browser page must not
 * reach a local server through DNS rebinding, so a request with an Origin
 * header whose host is not localhost, 127.0.0.1 or [::1] gets 403. The
 * server listens only on the address given.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "mcp.h"

static volatile sig_atomic_t http_stop; /* SIGINT or SIGTERM arrived */

static void on_signal(int sig) {
  (void)sig;
  http_stop = 1;
}

typedef struct http_server {
  mcp_server *srv;      /* sessions and tools */
  const char *token;    /* required bearer token, or NULL */
  pthread_mutex_t lock; /* guards active */
  pthread_cond_t idle;  /* signalled when a connection ends */
  int active;           /* connections being served */
} http_server;

typedef struct http_request {
  char head[MCP_HTTP_MAX_HEADER_BYTES + 1]; /* request line and headers, NUL-split */
  size_t head_len;    /* bytes of head used (including body bytes read with it) */
  const char *method; /* "POST", ... (into head) */
  const char *target; /* "/mcp?x" (into head) */
  const char *names[MCP_HTTP_MAX_HEADERS];  /* header names (into head) */
  const char *values[MCP_HTTP_MAX_HEADERS]; /* header values, trimmed (into head) */
  int nheaders;                             /* header lines */
  char *body;      /* the body (malloc'd, NUL-terminated) or NULL */
  size_t body_len; /* bytes of body */
} http_request;

static const char *header(const http_request *r, const char *name) {
  for (int i = 0; i < r->nheaders; i++)
    if (strcasecmp(r->names[i], name) == 0) return r->values[i];
  return NULL;
}

static void send_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

/* Sends a whole response; body may be NULL; extra is more header lines ("X: y\r\n"). */
static void respond(int fd, int status, const char *reason, const char *ctype,
                    const char *body, size_t len, const char *session,
                    const char *extra) {
  char head[1024];
  int n = snprintf(
      head, sizeof head,
      "HTTP/1.1 %d %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s%s%s%s%s%s",
      status, reason, body ? len : 0, ctype ? "Content-Type: " : "", ctype ? ctype : "",
      ctype ? "\r\n" : "", session ? "Mcp-Session-Id: " : "", session ? session : "",
      session ? "\r\n" : "");
  if (n < 0 || (size_t)n >= sizeof head) return;
  send_all(fd, head, (size_t)n);
  if (extra) send_all(fd, extra, strlen(extra));
  send_all(fd, "\r\n", 2);
  if (body) send_all(fd, body, len);
}

/* A plain-text error response. */
static void respond_text(int fd, int status, const char *reason, const char *text,
                         const char *extra) {
  char body[512];
  int n = snprintf(body, sizeof body, "%s\n", text);
  respond(fd, status, reason, "text/plain; charset=utf-8", body, (size_t)n, NULL, extra);
}

/* A JSON-RPC error as the body of an HTTP error. */
static void respond_rpc_error(int fd, int status, const char *reason, int code,
                              const char *msg) {
  json_t *e = mcp_error_response(NULL, code, msg);
  char *text = e ? json_dumps(e, JSON_COMPACT) : NULL;
  respond(fd, status, reason, "application/json", text ? text : "",
          text ? strlen(text) : 0, NULL, NULL);
  free(text);
  json_decref(e);
}

/* Reads up to cap bytes; 0 on EOF, -1 on error, -2 on the read timeout. */
static ssize_t read_some(int fd, char *buf, size_t cap) {
  for (;;) {
    ssize_t r = recv(fd, buf, cap, 0);
    if (r >= 0) return r;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? -2 : -1;
  }
}

/*
 * Reads and parses one request. Returns 0, or an HTTP status to answer with
 * (408, 400, 431, 411, 413), or -1 when the client went away.
 */
static int read_request(int fd, http_request *r) {
  char *end = NULL;
  r->head_len = 0;
  while (!end) {
    if (r->head_len >= MCP_HTTP_MAX_HEADER_BYTES) return 431;
    ssize_t n =
        read_some(fd, r->head + r->head_len, MCP_HTTP_MAX_HEADER_BYTES - r->head_len);
    if (n == -2) return r->head_len ? 408 : -1;
    if (n <= 0) return -1;
    r->head_len += (size_t)n;
    r->head[r->head_len] = '\0';
    end = memmem(r->head, r->head_len, "\r\n\r\n", 4);
  }
  size_t head_bytes = (size_t)(end - r->head) + 4;
  *end = '\0';
  /* request line: METHOD SP TARGET SP HTTP/1.x */
  char *line_end = strstr(r->head, "\r\n");
  if (line_end) *line_end = '\0';
  char *sp1 = strchr(r->head, ' ');
  char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
  if (!sp1 || !sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) return 400;
  *sp1 = *sp2 = '\0';
  r->method = r->head;
  r->target = sp1 + 1;
  r->nheaders = 0;
  for (char *p = line_end ? line_end + 2 : end; p < end;) {
    char *e = strstr(p, "\r\n");
    if (!e) e = end;
    *e = '\0';
    char *colon = strchr(p, ':');
    if (!colon || colon == p) return 400;
    if (r->nheaders >= MCP_HTTP_MAX_HEADERS) return 431;
    *colon = '\0';
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    size_t vl = strlen(v);
    while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '\t')) v[--vl] = '\0';
    r->names[r->nheaders] = p;
    r->values[r->nheaders++] = v;
    p = e + 2;
  }
  /* the body */
  const char *te = header(r, "Transfer-Encoding");
  const char *cl = header(r, "Content-Length");
  r->body = NULL;
  r->body_len = 0;
  if (te) return strcmp(r->method, "POST") == 0 ? 411 : 400;
  if (!cl) return strcmp(r->method, "POST") == 0 ? 411 : 0;
  char *cend;
  errno = 0;
  unsigned long long want = strtoull(cl, &cend, 10);
  if (errno || *cend || cend == cl || cl[0] == '-' || cl[0] == '+') return 400;
  for (int i = 0; i < r->nheaders; i++) /* two different lengths: request smuggling */
    if (strcasecmp(r->names[i], "Content-Length") == 0 && strcmp(r->values[i], cl) != 0)
      return 400;
  if (want > MCP_HTTP_MAX_BODY) return 413;
  r->body = malloc((size_t)want + 1);
  if (!r->body) return 413;
  size_t have = r->head_len - head_bytes;
  if (have > want) have = (size_t)want; /* pipelined bytes beyond the body are dropped */
  memcpy(r->body, r->head + head_bytes, have);
  while (have < want) {
    ssize_t n = read_some(fd, r->body + have, (size_t)want - have);
    if (n == -2) return 408;
    if (n <= 0) return -1;
    have += (size_t)n;
  }
  r->body[have] = '\0';
  r->body_len = have;
  return 0;
}

/* Whether the Authorization header carries the token (constant time). */
static int authorized(const http_request *r, const char *token) {
  if (!token) return 1;
  const char *auth = header(r, "Authorization");
  if (!auth || strncasecmp(auth, "Bearer ", 7) != 0) return 0;
  const char *given = auth + 7;
  size_t a = strlen(given), b = strlen(token);
  unsigned diff = (unsigned)(a ^ b);
  for (size_t i = 0; i < b; i++)
    diff |= (unsigned char)token[i] ^ (unsigned char)(i < a ? given[i] : 0);
  return diff == 0;
}

/* Origins a local page may come from (DNS rebinding protection). */
static int origin_allowed(const char *origin) {
  if (!origin || strcmp(origin, "null") == 0) return origin == NULL;
  const char *host = strstr(origin, "://");
  if (!host) return 0;
  host += 3;
  static const char *const ok[] = {"localhost", "127.0.0.1", "[::1]"};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    size_t n = strlen(ok[i]);
    if (strncmp(host, ok[i], n) == 0 &&
        (host[n] == '\0' || host[n] == ':' || host[n] == '/'))
      return 1;
  }
  return 0;
}

/* One server-sent event carrying a JSON-RPC message; ud points to the fd. */
static void send_event(void *ud, json_t *msg) {
  char *text = json_dumps(msg, JSON_COMPACT);
  if (!text) return;
  send_all(*(int *)ud, "event: message\ndata: ", 21);
  send_all(*(int *)ud, text, strlen(text));
  send_all(*(int *)ud, "\n\n", 2);
  free(text);
}

static void handle_post(http_server *hs, int fd, http_request *r) {
  json_error_t jerr;
  json_t *msg = json_loadb(r->body ? r->body : "", r->body_len, 0, &jerr);
  if (!msg) {
    respond_rpc_error(fd, 400, "Bad Request", -32700, "parse error");
    return;
  }
  const char *sid = header(r, "Mcp-Session-Id");
  const char *method = json_string_value(json_object_get(msg, "method"));
  mcp_session *s = NULL;
  char *err = NULL;
  if (method && strcmp(method, "initialize") == 0 && json_object_get(msg, "id")) {
    s = mcp_session_open(hs->srv, NULL, &err);
    if (!s) {
      int full = err && strncmp(err, "too many sessions", 17) == 0;
      respond_rpc_error(fd, full ? 503 : 500,
                        full ? "Service Unavailable" : "Internal Server Error", -32603,
                        err ? err : "out of memory");
      free(err);
      json_decref(msg);
      return;
    }
  } else if (!sid) {
    respond_rpc_error(fd, 400, "Bad Request", -32600,
                      "the Mcp-Session-Id header is required");
    json_decref(msg);
    return;
  } else if (!mcp_session_id_valid(sid)) {
    respond_rpc_error(fd, 400, "Bad Request", -32600, "malformed Mcp-Session-Id");
    json_decref(msg);
    return;
  } else if (!(s = mcp_session_find(hs->srv, sid))) {
    /* a session of --dir that this server has not seen (a restart, a fork): resume it */
    if (hs->srv->dir) s = mcp_session_open(hs->srv, sid, &err);
    free(err);
    if (!s) {
      respond_rpc_error(fd, 404, "Not Found", -32001, "session not found");
      json_decref(msg);
      return;
    }
    s->initialized = 1;
  }
  int cancelled;
  /* A tools/call that asks for progress, from a client that takes SSE, is
   * answered with an event stream: the progress notifications, then the
   * response. Everything else gets plain JSON. */
  json_t *params = json_object_get(msg, "params");
  const char *accept = header(r, "Accept");
  int sse = method && strcmp(method, "tools/call") == 0 && json_object_get(msg, "id") &&
            json_object_get(json_object_get(params, "_meta"), "progressToken") &&
            accept && strstr(accept, "text/event-stream");
  if (sse) {
    char head[256];
    int n =
        snprintf(head, sizeof head,
                 "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: "
                 "no-cache\r\nConnection: close\r\nMcp-Session-Id: %s\r\n\r\n",
                 s->id);
    send_all(fd, head, (size_t)n);
  }
  int sink_fd = fd;
  mcp_sink sink = {send_event, &sink_fd};
  json_t *resp = mcp_handle_message(s, msg, sse ? &sink : NULL, &cancelled);
  if (sse) {
    if (resp) send_event(&sink_fd, resp);
  } else if (resp) {
    char *text = json_dumps(resp, JSON_COMPACT);
    if (text)
      respond(fd, 200, "OK", "application/json", text, strlen(text), s->id, NULL);
    else
      respond_text(fd, 500, "Internal Server Error", "out of memory", NULL);
    free(text);
  } else {
    respond(fd, 202, "Accepted", NULL, NULL, 0, s->id, NULL);
  }
  json_decref(resp);
  json_decref(msg);
  mcp_session_release(s);
}

static void serve_connection(http_server *hs, int fd) {
  http_request *r = calloc(1, sizeof *r);
  if (!r) return;
  int st = read_request(fd, r);
  if (st < 0) goto out;
  if (st == 408)
    respond_text(fd, 408, "Request Timeout", "request timeout", NULL);
  else if (st == 431)
    respond_text(fd, 431, "Request Header Fields Too Large", "headers too large", NULL);
  else if (st == 411)
    respond_text(fd, 411, "Length Required", "Content-Length is required", NULL);
  else if (st == 413)
    respond_text(fd, 413, "Payload Too Large", "body too large", NULL);
  else if (st == 400)
    respond_text(fd, 400, "Bad Request", "malformed request", NULL);
  if (st) goto out;
  char path[256];
  size_t pl = strcspn(r->target, "?#");
  if (pl >= sizeof path || strncmp(r->target, "/mcp", pl) != 0 || pl != 4) {
    respond_text(fd, 404, "Not Found", "not found (the MCP endpoint is /mcp)", NULL);
    goto out;
  }
  if (!authorized(r, hs->token)) {
    respond_text(fd, 401, "Unauthorized", "a valid bearer token is required",
                 "WWW-Authenticate: Bearer\r\n");
    goto out;
  }
  if (!origin_allowed(header(r, "Origin"))) {
    respond_text(fd, 403, "Forbidden", "origin not allowed", NULL);
    goto out;
  }
  if (strcmp(r->method, "POST") == 0) {
    handle_post(hs, fd, r);
  } else if (strcmp(r->method, "DELETE") == 0) {
    const char *sid = header(r, "Mcp-Session-Id");
    mcp_session *s =
        sid && mcp_session_id_valid(sid) ? mcp_session_find(hs->srv, sid) : NULL;
    if (!sid) {
      respond_text(fd, 400, "Bad Request", "the Mcp-Session-Id header is required", NULL);
    } else if (!s) {
      respond_text(fd, 404, "Not Found", "session not found", NULL);
    } else {
      mcp_session_end(s);
      mcp_session_release(s);
      respond(fd, 204, "No Content", NULL, NULL, 0, NULL, NULL);
    }
  } else {
    respond_text(fd, 405, "Method Not Allowed",
                 "use POST (GET: this server offers no SSE stream)",
                 "Allow: POST, DELETE\r\n");
  }
out:
  free(r->body);
  free(r);
}

typedef struct conn_arg {
  http_server *hs; /* the server */
  int fd;          /* the connection (owned) */
} conn_arg;

static void *conn_thread(void *arg) {
  conn_arg *c = arg;
  serve_connection(c->hs, c->fd);
  /* Lingering close: closing with unread request bytes would reset the
   * connection and the client could lose the response (an early 411 or 431),
   * so read what is left, bounded in bytes and time, before closing. */
  shutdown(c->fd, SHUT_WR);
  struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
  setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char sink[4096];
  for (int i = 0; i < 256 && recv(c->fd, sink, sizeof sink, 0) > 0; i++) {
  }
  close(c->fd);
  pthread_mutex_lock(&c->hs->lock);
  c->hs->active--;
  pthread_cond_broadcast(&c->hs->idle);
  pthread_mutex_unlock(&c->hs->lock);
  free(c);
  return NULL;
}

/* Binds and listens on "HOST:PORT" or "[V6]:PORT"; the fd or -1 (reported). */
static int listen_on(const char *addr) {
  char host[256];
  const char *colon = strrchr(addr, ':');
  if (!colon || colon == addr || !colon[1]) {
    cli_error("mcp: --http %s: expected ADDR:PORT (127.0.0.1:8080)", addr);
    return -1;
  }
  size_t hl = (size_t)(colon - addr);
  if (addr[0] == '[' && hl >= 2 && addr[hl - 1] == ']') {
    addr++;
    hl -= 2;
  }
  if (hl >= sizeof host) {
    cli_error("mcp: --http: address too long");
    return -1;
  }
  memcpy(host, addr, hl);
  host[hl] = '\0';
  struct addrinfo hints = {0}, *res = NULL;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  int g = getaddrinfo(host, colon + 1, &hints, &res);
  if (g != 0) {
    cli_error("mcp: --http %s: %s", host, gai_strerror(g));
    return -1;
  }
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
  int one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 64) != 0) {
    cli_error("mcp: --http %s:%s: %s", host, colon + 1, strerror(errno));
    if (fd >= 0) close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

int mcp_http_serve(mcp_server *srv, const char *addr, const char *token) {
  int lfd = listen_on(addr);
  if (lfd < 0) return 1;
  http_server hs = {.srv = srv, .token = token, .active = 0};
  pthread_mutex_init(&hs.lock, NULL);
  pthread_cond_init(&hs.idle, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  fprintf(stderr, "sbx mcp: listening on http://%s/mcp%s\n", addr,
          token ? " (bearer token required)" : "");
  while (!http_stop) {
    struct pollfd p = {.fd = lfd, .events = POLLIN};
    if (poll(&p, 1, 200) <= 0) continue;
    int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    struct timeval tv = {.tv_sec = MCP_HTTP_READ_TIMEOUT_S, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    pthread_mutex_lock(&hs.lock);
    int full = hs.active >= MCP_HTTP_MAX_CONNECTIONS;
    if (!full) hs.active++;
    pthread_mutex_unlock(&hs.lock);
    if (full) {
      respond_text(fd, 503, "Service Unavailable", "too many connections",
                   "Retry-After: 1\r\n");
      close(fd);
      continue;
    }
    conn_arg *c = malloc(sizeof *c);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (c) {
      c->hs = &hs;
      c->fd = fd;
    }
    if (!c || pthread_create(&t, &attr, conn_thread, c) != 0) {
      free(c);
      close(fd);
      pthread_mutex_lock(&hs.lock);
      hs.active--;
      pthread_mutex_unlock(&hs.lock);
    }
    pthread_attr_destroy(&attr);
  }
  close(lfd);
  /* cancel what runs, then wait for the connections to finish */
  pthread_mutex_lock(&srv->lock);
  for (mcp_session *s = srv->sessions; s; s = s->next) {
    pthread_mutex_lock(&s->state_lock);
    if (s->running_id && s->h) sbx_cancel(s->h);
    pthread_mutex_unlock(&s->state_lock);
  }
  pthread_mutex_unlock(&srv->lock);
  pthread_mutex_lock(&hs.lock);
  while (hs.active > 0) pthread_cond_wait(&hs.idle, &hs.lock);
  pthread_mutex_unlock(&hs.lock);
  pthread_cond_destroy(&hs.idle);
  pthread_mutex_destroy(&hs.lock);
  return 0;
}
