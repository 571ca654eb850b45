/*
 * fuzz_py_protocol.c - libFuzzer target for the host-side decoder of the worker
 * protocol (src/py/py_proto.c): the bytes a jailed process can write on its
 * control socket. The input is used three ways: as one frame body (both
 * directions), as a stream cut into frames by py_reader, and every decoded
 * message has its fields read back. Nothing may crash, hang or read out of
 * bounds; an accepted message must re-encode to the same body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "py/py_proto.h"

static py_msg M;

static void touch(const py_msg *m) {
  for (uint32_t i = 0; i < m->nfields; i++) {
    char *s = py_msg_strdup(m, m->fields[i].tag);
    free(s);
    (void)py_msg_u64(m, m->fields[i].tag, 0);
  }
}

/* An accepted body re-encodes byte for byte (the decoder loses nothing). */
static void reencode(const uint8_t *body, size_t len, const py_msg *m) {
  py_buf b = {0};
  py_msg_begin(&b, m->type, m->id);
  for (uint32_t i = 0; i < m->nfields; i++) py_msg_add(&b, m->fields[i].tag, m->fields[i].data, m->fields[i].len);
  if (py_msg_end(&b) == 0 && (b.len != len + 4 || memcmp(b.data + 4, body, len) != 0)) abort();
  py_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (int dir = 0; dir < 2; dir++) {
    if (py_msg_decode(data, size, dir, &M) == 0) {
      touch(&M);
      reencode(data, size, &M);
    }
  }
  /* As a stream: the reader's buffer filled directly, as py_reader_fill would. */
  py_reader r = {0};
  r.buf = malloc(size ? size : 1);
  if (!r.buf) return 0;
  if (size) memcpy(r.buf, data, size);
  r.cap = r.end = size;
  for (int frames = 0; frames < 4096; frames++) {
    const uint8_t *body;
    size_t len;
    int fr = py_reader_frame(&r, &body, &len);
    if (fr != 1) break;
    if (py_msg_decode(body, len, 1, &M) == 0) touch(&M);
  }
  py_reader_free(&r);
  return 0;
}
