/*
 * py_proto.c - encoding, decoding and stream framing of the worker protocol
 * (format in py_proto.h).
 *
 * The decoder is the host's first line of defence against the jail: it reads
 * bytes written by code we do not trust. It therefore works on a bounded body
 * only, never allocates, checks every length against what is left, and applies
 * a per-type schema (allowed, required and repeatable tags; u64 fields exactly
 * 8 bytes; strings without NUL, valid UTF-8 and under a per-tag size limit).
 * fuzz/fuzz_py_protocol.c drives it.
 */
#include "py/py_proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIT(t) (1u << (t))

/* What each tag is. */
enum { KIND_STR = 1, KIND_U64 = 2, KIND_BYTES = 3 };
static const struct {
  uint8_t kind;    /* KIND_* */
  uint32_t maxlen; /* largest accepted length */
} tag_info[PY_T_LAST_] = {
    [PY_T_CTX] = {KIND_STR, 128},
    [PY_T_CODE] = {KIND_BYTES, PY_PROTO_MAX_FRAME}, /* the host's bytes: the worker decodes them */
    [PY_T_CWD] = {KIND_BYTES, 4095},
    [PY_T_FILENAME] = {KIND_BYTES, 4095},
    [PY_T_FLAGS] = {KIND_U64, 8},
    [PY_T_ARG] = {KIND_BYTES, 128 * 1024},
    [PY_T_PRELOAD] = {KIND_BYTES, 255},
    [PY_T_MEM] = {KIND_U64, 8},
    [PY_T_CPU] = {KIND_U64, 8},
    [PY_T_SRC] = {KIND_STR, 128},
    [PY_T_NAME] = {KIND_STR, 255},
    [PY_T_JSON] = {KIND_STR, PY_PROTO_MAX_FRAME},
    [PY_T_STATUS] = {KIND_U64, 8},
    [PY_T_ERRKIND] = {KIND_STR, 64},
    [PY_T_ERRTYPE] = {KIND_STR, 255},
    [PY_T_MESSAGE] = {KIND_STR, 1 << 20},
    [PY_T_TRACEBACK] = {KIND_STR, 1 << 20},
    [PY_T_REPR] = {KIND_STR, PY_PROTO_MAX_FRAME},
    [PY_T_EXIT] = {KIND_U64, 8},
    [PY_T_DATA] = {KIND_BYTES, PY_PROTO_MAX_FRAME},
    [PY_T_MAX] = {KIND_U64, 8},
    [PY_T_VERSION] = {KIND_U64, 8},
    [PY_T_QUERY] = {KIND_STR, 4096},
    [PY_T_DETAIL] = {KIND_STR, 16},
    [PY_T_LIMIT] = {KIND_U64, 8},
    [PY_T_ENV] = {KIND_BYTES, 128 * 1024},
};

/* The schema of each message type. */
typedef struct msg_schema {
  uint8_t type;       /* PY_MSG_* */
  uint32_t allowed;   /* BIT(tag) of tags it may carry */
  uint32_t required;  /* ... that must be present */
  uint32_t repeats;   /* ... that may appear more than once */
} msg_schema;

static const msg_schema host_to_worker[] = {
    {PY_MSG_EXEC,
     BIT(PY_T_CTX) | BIT(PY_T_CODE) | BIT(PY_T_CWD) | BIT(PY_T_FILENAME) | BIT(PY_T_FLAGS) |
         BIT(PY_T_ARG) | BIT(PY_T_PRELOAD) | BIT(PY_T_MEM) | BIT(PY_T_CPU) | BIT(PY_T_ENV),
     BIT(PY_T_CODE), BIT(PY_T_ARG) | BIT(PY_T_PRELOAD) | BIT(PY_T_ENV)},
    {PY_MSG_CTX_CREATE, BIT(PY_T_CTX), BIT(PY_T_CTX), 0},
    {PY_MSG_CTX_FORK, BIT(PY_T_CTX) | BIT(PY_T_SRC), BIT(PY_T_CTX) | BIT(PY_T_SRC), 0},
    {PY_MSG_CTX_RESET, BIT(PY_T_CTX), BIT(PY_T_CTX), 0},
    {PY_MSG_CTX_DELETE, BIT(PY_T_CTX), BIT(PY_T_CTX), 0},
    {PY_MSG_SET_VAR, BIT(PY_T_CTX) | BIT(PY_T_NAME) | BIT(PY_T_JSON),
     BIT(PY_T_CTX) | BIT(PY_T_NAME) | BIT(PY_T_JSON), 0},
    {PY_MSG_PROTECT, BIT(PY_T_CTX) | BIT(PY_T_NAME), BIT(PY_T_CTX) | BIT(PY_T_NAME), 0},
    {PY_MSG_TOOL_REPLY, BIT(PY_T_STATUS) | BIT(PY_T_JSON) | BIT(PY_T_ERRKIND) | BIT(PY_T_MESSAGE),
     BIT(PY_T_STATUS), 0},
    {PY_MSG_STDIN_DATA, BIT(PY_T_DATA), BIT(PY_T_DATA), 0},
    {PY_MSG_PING, 0, 0, 0},
};

static const msg_schema worker_to_host[] = {
    {PY_MSG_HELLO, BIT(PY_T_VERSION), BIT(PY_T_VERSION), 0},
    {PY_MSG_RESULT,
     BIT(PY_T_STATUS) | BIT(PY_T_ERRKIND) | BIT(PY_T_ERRTYPE) | BIT(PY_T_MESSAGE) |
         BIT(PY_T_TRACEBACK) | BIT(PY_T_REPR) | BIT(PY_T_EXIT) | BIT(PY_T_DATA),
     BIT(PY_T_STATUS), BIT(PY_T_DATA)}, /* DATA: one PNG image each (figures) */
    {PY_MSG_TOOL_CALL, BIT(PY_T_NAME) | BIT(PY_T_JSON), BIT(PY_T_NAME) | BIT(PY_T_JSON), 0},
    {PY_MSG_TOOL_SEARCH, BIT(PY_T_QUERY) | BIT(PY_T_DETAIL) | BIT(PY_T_LIMIT), BIT(PY_T_QUERY), 0},
    {PY_MSG_STDIN_READ, BIT(PY_T_MAX), BIT(PY_T_MAX), 0},
};

static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF, no NUL. */
static int valid_utf8(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c == 0) return 0;
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t need;
    uint32_t cp, min;
    if ((c & 0xe0) == 0xc0) need = 1, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0) need = 2, cp = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0) need = 3, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (n - i <= need) return 0;
    for (size_t k = 1; k <= need; k++) {
      if ((s[i + k] & 0xc0) != 0x80) return 0;
      cp = cp << 6 | (s[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    i += need + 1;
  }
  return 1;
}

int py_msg_decode(const uint8_t *body, size_t len, int from_worker, py_msg *m) {
  if (len < PY_PROTO_HEADER || len > PY_PROTO_MAX_FRAME) return -EPROTO;
  m->type = body[0];
  m->id = get_u32(body + 1);
  m->nfields = 0;
  const msg_schema *tab = from_worker ? worker_to_host : host_to_worker;
  size_t ntab = from_worker ? sizeof worker_to_host / sizeof worker_to_host[0]
                            : sizeof host_to_worker / sizeof host_to_worker[0];
  const msg_schema *sc = NULL;
  for (size_t i = 0; i < ntab; i++)
    if (tab[i].type == m->type) sc = &tab[i];
  if (!sc) return -EBADMSG;
  uint32_t seen = 0;
  size_t off = PY_PROTO_HEADER;
  while (off < len) {
    if (len - off < 5) return -EPROTO;
    uint8_t tag = body[off];
    uint32_t flen = get_u32(body + off + 1);
    off += 5;
    if (flen > len - off) return -EPROTO;
    if (tag == 0 || tag >= PY_T_LAST_ || !(sc->allowed & BIT(tag))) return -EBADMSG;
    if ((seen & BIT(tag)) && !(sc->repeats & BIT(tag))) return -EBADMSG;
    if (flen > tag_info[tag].maxlen) return -EBADMSG;
    const uint8_t *data = body + off;
    if (tag_info[tag].kind == KIND_U64 && flen != 8) return -EBADMSG;
    if (tag_info[tag].kind == KIND_STR && !valid_utf8(data, flen)) return -EBADMSG;
    if (m->nfields >= PY_PROTO_MAX_FIELDS) return -EBADMSG;
    m->fields[m->nfields++] = (py_field){tag, flen, data};
    seen |= BIT(tag);
    off += flen;
  }
  if ((seen & sc->required) != sc->required) return -EBADMSG;
  return 0;
}

const py_field *py_msg_get(const py_msg *m, uint8_t tag) {
  for (uint32_t i = 0; i < m->nfields; i++)
    if (m->fields[i].tag == tag) return &m->fields[i];
  return NULL;
}

uint64_t py_msg_u64(const py_msg *m, uint8_t tag, uint64_t def) {
  const py_field *f = py_msg_get(m, tag);
  if (!f || f->len != 8) return def;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | f->data[i];
  return v;
}

char *py_msg_strdup(const py_msg *m, uint8_t tag) {
  const py_field *f = py_msg_get(m, tag);
  if (!f) return NULL;
  char *s = malloc((size_t)f->len + 1);
  if (!s) return NULL;
  memcpy(s, f->data, f->len);
  s[f->len] = 0;
  return s;
}

/* ---- encoding ------------------------------------------------------------ */

void py_buf_free(py_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

static int buf_reserve(py_buf *b, size_t more) {
  if (b->oom) return -1;
  if (more > PY_PROTO_MAX_FRAME + 16 || b->len + more > (size_t)PY_PROTO_MAX_FRAME * 2) {
    b->oom = 1;
    return -1;
  }
  if (b->len + more <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more) cap *= 2;
  uint8_t *d = realloc(b->data, cap);
  if (!d) {
    b->oom = 1;
    return -1;
  }
  b->data = d;
  b->cap = cap;
  return 0;
}

void py_msg_begin(py_buf *b, uint8_t type, uint32_t id) {
  b->oom = 0;
  b->frame = b->len;
  if (buf_reserve(b, 4 + PY_PROTO_HEADER)) return;
  put_u32(b->data + b->len, 0);
  b->data[b->len + 4] = type;
  put_u32(b->data + b->len + 5, id);
  b->len += 4 + PY_PROTO_HEADER;
}

void py_msg_add(py_buf *b, uint8_t tag, const void *data, size_t len) {
  if (len > PY_PROTO_MAX_FRAME || buf_reserve(b, 5 + len)) {
    b->oom = 1;
    return;
  }
  b->data[b->len] = tag;
  put_u32(b->data + b->len + 1, (uint32_t)len);
  if (len) memcpy(b->data + b->len + 5, data, len);
  b->len += 5 + len;
}

void py_msg_add_str(py_buf *b, uint8_t tag, const char *s) {
  if (s) py_msg_add(b, tag, s, strlen(s));
}

void py_msg_add_u64(py_buf *b, uint8_t tag, uint64_t v) {
  uint8_t le[8];
  for (int i = 0; i < 8; i++) le[i] = (uint8_t)(v >> (8 * i));
  py_msg_add(b, tag, le, 8);
}

int py_msg_end(py_buf *b) {
  size_t body = b->len - b->frame - 4;
  if (b->oom || body > PY_PROTO_MAX_FRAME) {
    int e = b->oom && body <= PY_PROTO_MAX_FRAME ? -ENOMEM : -EMSGSIZE;
    if (b->len >= b->frame) b->len = b->frame;
    b->oom = 0;
    return e;
  }
  put_u32(b->data + b->frame, (uint32_t)body);
  return 0;
}

int py_buf_send(py_buf *b, int fd) {
  size_t off = 0;
  while (off < b->len) {
    ssize_t w = write(fd, b->data + off, b->len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      b->len = 0;
      return -e;
    }
    off += (size_t)w;
  }
  b->len = 0;
  return 0;
}

/* ---- reading -------------------------------------------------------------------- */

void py_reader_free(py_reader *r) {
  free(r->buf);
  memset(r, 0, sizeof *r);
}

ssize_t py_reader_fill(py_reader *r, int fd) {
  if (r->start == r->end) r->start = r->end = 0;
  /* Keep room for at least 64 KiB or the rest of the frame being read. */
  size_t want = 65536;
  if (r->end - r->start >= 4) {
    size_t flen = (size_t)get_u32(r->buf + r->start) + 4;
    if (flen <= PY_PROTO_MAX_FRAME + 4 && flen > r->end - r->start)
      want = flen - (r->end - r->start);
  }
  if (r->cap - r->end < want) {
    if (r->start > 0) {
      memmove(r->buf, r->buf + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
    }
    if (r->cap - r->end < want) {
      size_t cap = r->cap ? r->cap : 65536;
      while (cap - r->end < want) cap *= 2;
      uint8_t *nb = realloc(r->buf, cap);
      if (!nb) return -ENOMEM;
      r->buf = nb;
      r->cap = cap;
    }
  }
  ssize_t n;
  do n = read(fd, r->buf + r->end, r->cap - r->end);
  while (n < 0 && errno == EINTR);
  if (n < 0) return -errno;
  r->end += (size_t)n;
  return n;
}

int py_reader_frame(py_reader *r, const uint8_t **body, size_t *len) {
  size_t have = r->end - r->start;
  if (have < 4) return 0;
  uint32_t flen = get_u32(r->buf + r->start);
  if (flen < PY_PROTO_HEADER || flen > PY_PROTO_MAX_FRAME) return -EPROTO;
  if (have - 4 < flen) return 0;
  *body = r->buf + r->start + 4;
  *len = flen;
  r->start += 4 + (size_t)flen;
  return 1;
}
