/*
 * mcp.h - what the parts of `sbx mcp` share: the server (configuration and
 * its sessions), a session (one sandbox handle and the state of the MCP
 * connection), the message dispatcher, the tools and the HTTP transport.
 *
 *   cli/mcp.c        options, sessions, JSON-RPC dispatch, the stdio transport
 *   cli/mcp_tools.c  the tools (bash, python, editor, upload, download,
 *                    snapshot) and the resources (the sandbox's files)
 *   cli/mcp_http.c   Streamable HTTP: a small bounded HTTP/1.1 server
 *
 * Threads: a session's tool calls run one at a time (call_lock), because a
 * handle serves one thread at a time; cancellation (notifications/cancelled)
 * and the progress ticker come from other threads and only touch the fields
 * under state_lock and sbx_cancel(), which any thread may call.
 */
#ifndef SBX_CLI_MCP_H
#define SBX_CLI_MCP_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>

#include "sbx.h"

#define MCP_PROTOCOL_VERSION "2025-06-18"
#define MCP_SESSION_ID_MAX 64 /* bytes of a session id: [A-Za-z0-9_-] */
#define MCP_MAX_SESSIONS 256  /* live sessions of one server (HTTP) */

typedef struct mcp_session mcp_session;

/* One edit that undo_edit can take back. */
typedef struct mcp_undo {
  char *path;            /* the sandbox path edited */
  char *data;            /* its previous contents (NULL: it did not exist) */
  size_t len;            /* bytes of data */
  struct mcp_undo *next; /* the edit before this one */
} mcp_undo;

typedef struct mcp_server {
  const char *db;    /* `sbx DB mcp`: the one database every session opens, else NULL */
  const char *dir;   /* --dir: one database per session there, else NULL */
  char *snapdir;     /* host directory of the named snapshots (owned) */
  int snapdir_temp;  /* 1: snapdir is a temporary directory removed at exit */
  sbx_limits limits; /* the preset, with --timeout applied */
  double timeout_s;  /* the default time limit of one tool call, seconds */
  size_t max_output; /* bytes of a tool's output shown to the model */
  pthread_mutex_t lock;  /* guards sessions and next_id */
  mcp_session *sessions; /* live sessions (HTTP: many; stdio: one) */
  unsigned long next_id; /* counter mixed into new session ids */
  json_t *tools;         /* the tools/list array, parsed once */
} mcp_server;

/* Where the notifications of one request go (stdio: lines on stdout; HTTP:
 * events of the POST's SSE response). send borrows msg; it is called from
 * the progress thread while the request runs. */
typedef struct mcp_sink {
  void (*send)(void *ud, json_t *msg); /* writes one notification */
  void *ud;                            /* passed to send */
} mcp_sink;

struct mcp_session {
  mcp_server *srv;                 /* the server it belongs to */
  char id[MCP_SESSION_ID_MAX + 1]; /* the Mcp-Session-Id */
  sbx *h;                          /* the session's sandbox (own handle, own shell) */
  char *path;                 /* the database file, or NULL for a temporary one (owned) */
  pthread_mutex_t call_lock;  /* held for a whole tool call: one at a time on h */
  pthread_mutex_t state_lock; /* guards the fields below it */
  json_t *running_id;         /* the JSON-RPC id of the tools/call running now, or NULL */
  int cancel_requested;       /* the running call was cancelled by the client */
  int refs;                   /* users of the session (the list holds one) */
  int ended;                  /* DELETE or shutdown: no new calls */
  int initialized;            /* initialize was answered */
  mcp_undo *undo;             /* undo_edit history, newest first (call_lock) */
  size_t undo_count;          /* entries in undo */
  unsigned output_seq;        /* last N of /tmp/.mcp-output/N.txt (call_lock) */
  mcp_session *next;          /* in srv->sessions */
};

/* ---- cli/mcp.c ------------------------------------------------------------------ */

/* Opens a new session, or resumes `resume_id` (--dir: its database must
 * exist). On failure returns NULL and sets *err (malloc'd). The session is in
 * the server's list with one reference for the caller. */
mcp_session *mcp_session_open(mcp_server *srv, const char *resume_id, char **err);
/* The live session with this id (a new reference), or NULL. */
mcp_session *mcp_session_find(mcp_server *srv, const char *id);
/* Drops a reference; the last one closes the sandbox. */
void mcp_session_release(mcp_session *s);
/* Removes the session from the server (DELETE); running calls are cancelled. */
void mcp_session_end(mcp_session *s);
/* nbytes (<= 32) random bytes as hex digits into out (2 * nbytes + 1
 * bytes); 0, or -1 when the kernel gives none. */
int mcp_random_id(char *out, size_t nbytes);
/* Whether `id` has the shape of a session id. */
int mcp_session_id_valid(const char *id);

/* Handles one JSON-RPC message (borrowed). Returns the response (new
 * reference) for a request, NULL for a notification or a response, or a
 * response with a null id for a message that is not JSON-RPC. *cancelled is
 * set when the request was cancelled by the client (no response is due).
 * sink: where the request's notifications go (NULL: nowhere). */
json_t *mcp_handle_message(mcp_session *s, json_t *msg, const mcp_sink *sink,
                           int *cancelled);
/* A JSON-RPC error response (new reference); id borrowed (NULL: null). */
json_t *mcp_error_response(json_t *id, int code, const char *message);

/* ---- cli/mcp_tools.c -------------------------------------------------------------- */

/* The tools/list array (new reference), or NULL if the built-in text is bad. */
json_t *mcp_tools_definitions(void);
/* Runs tools/call `name` with `args` (borrowed). Returns the CallToolResult
 * (new reference), or NULL with *code / *message set for a protocol error
 * (unknown tool, invalid arguments). progress_token: the client's progress
 * token or NULL (borrowed); progress notifications go to sink (may be NULL). */
json_t *mcp_tools_call(mcp_session *s, const char *name, json_t *args,
                       json_t *progress_token, const mcp_sink *sink, int *code,
                       char **message);
/* resources/list and resources/read results (new references), or NULL with
 * *code / *message set. */
json_t *mcp_resources_list(mcp_session *s, json_t *params, int *code, char **message);
json_t *mcp_resources_read(mcp_session *s, json_t *params, int *code, char **message);
/* Frees a session's undo history. */
void mcp_undo_free(mcp_session *s);
/* Normalizes an absolute sandbox path into out (size outsz): "." and ".."
 * resolved, slashes collapsed. Returns 0, or -1 when the path is relative,
 * goes above / or is too long. */
int mcp_path_normalize(const char *path, char *out, size_t outsz);

/* ---- cli/mcp_http.c ---------------------------------------------------------------- */

/* Limits of the HTTP parser (tests exercise each one). */
#define MCP_HTTP_MAX_HEADER_BYTES 16384 /* request line + headers */
#define MCP_HTTP_MAX_HEADERS 64         /* header lines */
#define MCP_HTTP_MAX_BODY (8u << 20)    /* Content-Length bytes */
#define MCP_HTTP_READ_TIMEOUT_S 15      /* idle seconds while reading a request */
#define MCP_HTTP_MAX_CONNECTIONS 64     /* connections served at once */

/* Serves Streamable HTTP on addr ("127.0.0.1:8080", "[::1]:8080") at /mcp
 * until SIGINT or SIGTERM. token: the bearer token required (NULL: none).
 * Returns the exit status. */
int mcp_http_serve(mcp_server *srv, const char *addr, const char *token);

#endif
