/*
 * py_proto.h - the control protocol between the host and the Python worker W,
 * spoken over one stream socket (fd 3 in W).
 *
 * Framing (all integers little-endian):
 *
 *   frame  = u32 body_len | body            1 <= body_len <= PY_PROTO_MAX_FRAME
 *   body   = u8 type | u32 id | field*
 *   field  = u8 tag | u32 len | len bytes   at most PY_PROTO_MAX_FIELDS fields
 *
 * `id` pairs a reply with its request: RESULT carries the EXEC's id; a
 * TOOL_CALL carries an id chosen by W, echoed by TOOL_REPLY. Each message
 * type has a schema (allowed tags, required tags, which may repeat, which are
 * u64); py_msg_decode() checks a body against it and rejects anything else, so
 * the host never acts on a malformed or forged message. W is untrusted: code
 * in the jail can write to its own fd 3.
 *
 * Ownership: a decoded py_msg points into the body buffer it was decoded from
 * (borrowed, valid until that buffer changes). py_buf owns its bytes.
 */
#ifndef SBX_PY_PROTO_H
#define SBX_PY_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PY_PROTO_VERSION 2
#define PY_PROTO_MAX_FRAME (16u << 20) /* 16 MiB per message */
#define PY_PROTO_MAX_FIELDS 16384 /* room for sys.argv of a long command line */
#define PY_PROTO_HEADER 5              /* type + id */

/* Message types. 1..63 host -> worker, 64..127 worker -> host. */
enum py_msg_type {
  PY_MSG_EXEC = 1,        /* run code in a context */
  PY_MSG_CTX_CREATE = 2,  /* CTX */
  PY_MSG_CTX_FORK = 3,    /* CTX (new) from SRC */
  PY_MSG_CTX_RESET = 4,   /* CTX */
  PY_MSG_CTX_DELETE = 5,  /* CTX */
  PY_MSG_SET_VAR = 6,     /* CTX NAME JSON */
  PY_MSG_PROTECT = 7,     /* CTX NAME */
  PY_MSG_TOOL_REPLY = 8,  /* STATUS, JSON or ERRKIND+MESSAGE */
  PY_MSG_STDIN_DATA = 9,  /* DATA (empty: end of input) */
  PY_MSG_PING = 10,       /* answered by RESULT */
  PY_MSG_HELLO = 64,      /* VERSION, the worker is up */
  PY_MSG_RESULT = 65,     /* the end of a request */
  PY_MSG_TOOL_CALL = 66,  /* NAME JSON */
  PY_MSG_TOOL_SEARCH = 67,/* QUERY DETAIL LIMIT */
  PY_MSG_STDIN_READ = 68, /* MAX: the code reads stdin */
};

/* Field tags. */
enum py_tag {
  PY_T_CTX = 1,       /* context name (str) */
  PY_T_CODE = 2,      /* source, or module name with PY_EXEC_MODULE (bytes: any
                         byte string of the host, decoded by the worker) */
  PY_T_CWD = 3,       /* working directory (bytes) */
  PY_T_FILENAME = 4,  /* name in tracebacks (bytes) */
  PY_T_FLAGS = 5,     /* PY_EXEC_* (u64) */
  PY_T_ARG = 6,       /* sys.argv element (bytes, repeats) */
  PY_T_PRELOAD = 7,   /* module to import first (bytes, repeats) */
  PY_T_MEM = 8,       /* address-space limit for this call, bytes (u64) */
  PY_T_CPU = 9,       /* CPU seconds for this call (u64) */
  PY_T_SRC = 10,      /* source context of a fork (str) */
  PY_T_NAME = 11,     /* variable or tool name (str) */
  PY_T_JSON = 12,     /* JSON text (str) */
  PY_T_STATUS = 13,   /* 0 ok, else error (u64) */
  PY_T_ERRKIND = 14,  /* error kind (str) */
  PY_T_ERRTYPE = 15,  /* exception class (str) */
  PY_T_MESSAGE = 16,  /* error message (str) */
  PY_T_TRACEBACK = 17,/* formatted traceback (str) */
  PY_T_REPR = 18,     /* repr of the trailing expression (str) */
  PY_T_EXIT = 19,     /* exit status of a script (u64) */
  PY_T_DATA = 20,     /* raw bytes */
  PY_T_MAX = 21,      /* a byte count (u64) */
  PY_T_VERSION = 22,  /* protocol version (u64) */
  PY_T_QUERY = 23,    /* search query (str) */
  PY_T_DETAIL = 24,   /* "brief" or "full" (str) */
  PY_T_LIMIT = 25,    /* result count (u64) */
  PY_T_ENV = 26,      /* "NAME=VALUE" of a script's environment (bytes, repeats) */
  PY_T_LAST_ = 27
};

/* PY_T_FLAGS of EXEC. */
#define PY_EXEC_REPR 0x01   /* return the repr of a trailing expression */
#define PY_EXEC_SCRIPT 0x02 /* run as __main__ in a fresh namespace (python3 cmd) */
#define PY_EXEC_MODULE 0x04 /* CODE is a module name: runpy (python3 -m) */
#define PY_EXEC_STDIN 0x08  /* sys.stdin reads through STDIN_READ */
#define PY_EXEC_ENV 0x10    /* os.environ is exactly the ENV fields while it runs */
#define PY_EXEC_FILE 0x20   /* CODE is a file's bytes: compiled as bytes (coding cookies) */
#define PY_EXEC_VIEW 0x40   /* no file of the jail's view was invalidated since the
                               last EXEC: W may skip the chdir to CWD when its
                               working directory is still CWD (a chdir costs a
                               FUSE round trip, FUSE_ACCESS) */

typedef struct py_field {
  uint8_t tag;          /* PY_T_* */
  uint32_t len;         /* byte length */
  const uint8_t *data;  /* borrowed from the body */
} py_field;

typedef struct py_msg {
  uint8_t type;         /* PY_MSG_* */
  uint32_t id;          /* request / call id */
  uint32_t nfields;     /* fields in order of appearance */
  py_field fields[PY_PROTO_MAX_FIELDS];
} py_msg;

/* Decodes and validates one body (without the length prefix) against the
 * schema of its type. `from_worker`: accept only worker->host types (else
 * only host->worker). 0, or -EPROTO / -EBADMSG. */
int py_msg_decode(const uint8_t *body, size_t len, int from_worker, py_msg *m);

/* The first field with `tag`, or NULL. */
const py_field *py_msg_get(const py_msg *m, uint8_t tag);
/* A u64 field (validated as 8 bytes by decode); `def` when absent. */
uint64_t py_msg_u64(const py_msg *m, uint8_t tag, uint64_t def);
/* A copy of a string field, NUL-terminated (malloc'd; NULL when absent or out
 * of memory). Strings never contain NUL (decode rejects them). */
char *py_msg_strdup(const py_msg *m, uint8_t tag);

/* ---- encoding ------------------------------------------------------------ */

typedef struct py_buf {
  uint8_t *data;  /* owned */
  size_t len;     /* bytes used */
  size_t cap;     /* bytes allocated */
  size_t frame;   /* offset of the open frame's length prefix */
  int oom;        /* an append failed (or exceeded PY_PROTO_MAX_FRAME) */
} py_buf;

void py_buf_free(py_buf *b);
/* Starts a frame (appends to whatever the buffer holds). */
void py_msg_begin(py_buf *b, uint8_t type, uint32_t id);
void py_msg_add(py_buf *b, uint8_t tag, const void *data, size_t len);
void py_msg_add_str(py_buf *b, uint8_t tag, const char *s); /* NULL: nothing */
void py_msg_add_u64(py_buf *b, uint8_t tag, uint64_t v);
/* Closes the frame. -EMSGSIZE or -ENOMEM if anything failed (the frame is then
 * dropped from the buffer). */
int py_msg_end(py_buf *b);

/* Writes the whole buffer to fd (blocking; restarts on EINTR) and empties it. */
int py_buf_send(py_buf *b, int fd);

/* ---- reading a stream ------------------------------------------------------ */

typedef struct py_reader {
  uint8_t *buf;    /* owned */
  size_t cap;      /* allocated */
  size_t start;    /* first unconsumed byte */
  size_t end;      /* end of data */
} py_reader;

void py_reader_free(py_reader *r);
/* One read(2) into the buffer: >0 bytes, 0 at EOF, or -errno (-EAGAIN). */
ssize_t py_reader_fill(py_reader *r, int fd);
/* Takes the next complete frame from the buffer: 1 with *body and *len set
 * (valid until the next fill or frame call), 0 if more bytes are needed,
 * -EPROTO for an impossible length. */
int py_reader_frame(py_reader *r, const uint8_t **body, size_t *len);

#endif
