/*
 * test_proto.c - the worker protocol's framing and its strict decoder
 * (src/py/py_proto.c): what the host accepts from the jail and what it refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "py/py_proto.h"

/* Encodes one frame and returns its body (after the length prefix). */
static const uint8_t *body_of(py_buf *b, size_t *len) {
  *len = b->len - 4;
  return b->data + 4;
}

TEST(roundtrip_result_fields) {
  py_buf b = {0};
  py_msg_begin(&b, PY_MSG_RESULT, 77);
  py_msg_add_u64(&b, PY_T_STATUS, 1);
  py_msg_add_str(&b, PY_T_ERRKIND, "exception");
  py_msg_add_str(&b, PY_T_REPR, "h\xc3\xa9llo");
  py_msg_add_u64(&b, PY_T_EXIT, 3);
  CHECK_EQ(py_msg_end(&b), 0);
  size_t len;
  const uint8_t *body = body_of(&b, &len);
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  CHECK_EQ(py_msg_decode(body, len, 1, m), 0);
  CHECK_EQ(m->type, PY_MSG_RESULT);
  CHECK_EQ(m->id, 77);
  CHECK_EQ(py_msg_u64(m, PY_T_STATUS, 9), 1);
  CHECK_EQ(py_msg_u64(m, PY_T_EXIT, 0), 3);
  char *s = py_msg_strdup(m, PY_T_REPR);
  CHECK_STR(s, "h\xc3\xa9llo");
  free(s);
  CHECK(py_msg_get(m, PY_T_TRACEBACK) == NULL);
  free(m);
  py_buf_free(&b);
}

TEST(direction_is_enforced) {
  /* A worker cannot send a host request, nor the host a worker message. */
  py_buf b = {0};
  py_msg_begin(&b, PY_MSG_EXEC, 1);
  py_msg_add_str(&b, PY_T_CODE, "1");
  CHECK_EQ(py_msg_end(&b), 0);
  size_t len;
  const uint8_t *body = body_of(&b, &len);
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  CHECK_EQ(py_msg_decode(body, len, 1, m), -EBADMSG);
  CHECK_EQ(py_msg_decode(body, len, 0, m), 0);
  free(m);
  py_buf_free(&b);
}

/* One field of a frame: len bytes of data, or the u64 val when data is NULL. */
typedef struct proto_field {
  uint8_t tag;      /* PY_T_* */
  const char *data; /* the bytes, or NULL for a u64 */
  size_t len;       /* bytes of data */
  uint64_t val;     /* the u64 when data is NULL */
} proto_field;

static char long_name[300]; /* a name longer than the tag allows (255); filled below */

/* Frames from the worker that break the schema: each must be refused. */
static const struct {
  const char *what;     /* the rule broken, named on failure */
  uint8_t type;         /* PY_MSG_* */
  size_t nfields;       /* fields used */
  proto_field field[2]; /* the frame's fields in order */
} schema_violations[] = {
    {"missing required STATUS", PY_MSG_RESULT, 1, {{PY_T_REPR, "x", 1, 0}}},
    {"a tag the type does not allow",
     PY_MSG_RESULT,
     2,
     {{PY_T_STATUS, NULL, 0, 0}, {PY_T_CODE, "import os", 9, 0}}},
    {"a repeated tag that may not repeat",
     PY_MSG_RESULT,
     2,
     {{PY_T_STATUS, NULL, 0, 0}, {PY_T_STATUS, NULL, 0, 1}}},
    {"a u64 that is not 8 bytes", PY_MSG_RESULT, 1, {{PY_T_STATUS, "\0\0\0", 3, 0}}},
    {"invalid UTF-8 (an overlong '/') in a string",
     PY_MSG_TOOL_CALL,
     2,
     {{PY_T_NAME, "\xc0\xaf", 2, 0}, {PY_T_JSON, "{}", 2, 0}}},
    {"an embedded NUL in a string",
     PY_MSG_TOOL_CALL,
     2,
     {{PY_T_NAME, "a\0b", 3, 0}, {PY_T_JSON, "{}", 2, 0}}},
    {"a name longer than the tag allows",
     PY_MSG_TOOL_CALL,
     2,
     {{PY_T_NAME, long_name, sizeof long_name, 0}, {PY_T_JSON, "{}", 2, 0}}},
};

TEST(schema_violations_are_refused) {
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  memset(long_name, 'a', sizeof long_name);
  py_buf b = {0};
  for (size_t i = 0; i < sizeof schema_violations / sizeof *schema_violations; i++) {
    b.len = 0;
    py_msg_begin(&b, schema_violations[i].type, 1);
    for (size_t k = 0; k < schema_violations[i].nfields; k++) {
      const proto_field *f = &schema_violations[i].field[k];
      if (f->data)
        py_msg_add(&b, f->tag, f->data, f->len);
      else
        py_msg_add_u64(&b, f->tag, f->val);
    }
    py_msg_end(&b);
    size_t len;
    const uint8_t *body = body_of(&b, &len);
    int rc = py_msg_decode(body, len, 1, m);
    if (rc != -EBADMSG)
      fprintf(stderr, "  %s: decoded with %d\n", schema_violations[i].what, rc);
    CHECK_EQ(rc, -EBADMSG);
  }
  py_buf_free(&b);
  free(m);
}

TEST(truncated_and_lying_lengths) {
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  py_buf b = {0};
  py_msg_begin(&b, PY_MSG_TOOL_CALL, 5);
  py_msg_add_str(&b, PY_T_NAME, "add");
  py_msg_add_str(&b, PY_T_JSON, "{\"a\":1}");
  py_msg_end(&b);
  size_t len;
  const uint8_t *body = body_of(&b, &len);
  CHECK_EQ(py_msg_decode(body, len, 1, m), 0);
  /* Every prefix that cuts a field is refused, never read past. */
  int refused = 0;
  for (size_t cut = 0; cut < len; cut++)
    if (py_msg_decode(body, cut, 1, m) != 0) refused++;
  CHECK(refused >= (int)len - 2); /* only a cut right after a whole field could pass */
  /* A field length pointing past the end. */
  uint8_t bad[16] = {PY_MSG_TOOL_CALL, 1, 0, 0, 0, PY_T_NAME, 0xff, 0xff, 0xff, 0x7f, 'x'};
  CHECK_EQ(py_msg_decode(bad, 11, 1, m), -EPROTO);
  /* Shorter than a header. */
  CHECK_EQ(py_msg_decode(bad, 3, 1, m), -EPROTO);
  py_buf_free(&b);
  free(m);
}

TEST(too_many_fields_are_refused) {
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  py_buf b = {0};
  py_msg_begin(&b, PY_MSG_EXEC, 1);
  py_msg_add_str(&b, PY_T_CODE, "1");
  for (int i = 0; i < PY_PROTO_MAX_FIELDS + 5; i++) py_msg_add_str(&b, PY_T_ARG, "a");
  CHECK_EQ(py_msg_end(&b), 0);
  size_t len;
  const uint8_t *body = body_of(&b, &len);
  CHECK_EQ(py_msg_decode(body, len, 0, m), -EBADMSG);
  py_buf_free(&b);
  free(m);
}

TEST(oversize_frames_are_refused_by_encoder_and_reader) {
  py_buf b = {0};
  char *huge = malloc(PY_PROTO_MAX_FRAME + 1);
  REQUIRE(huge);
  memset(huge, 'x', PY_PROTO_MAX_FRAME);
  huge[PY_PROTO_MAX_FRAME] = 0;
  py_msg_begin(&b, PY_MSG_EXEC, 1);
  py_msg_add_str(&b, PY_T_CODE, huge);
  CHECK(py_msg_end(&b) < 0);
  CHECK_EQ(b.len, 0); /* the failed frame is dropped */
  free(huge);
  py_buf_free(&b);
  /* A reader given a length prefix above the limit says EPROTO. */
  int sv[2];
  REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  uint8_t hdr[4] = {0xff, 0xff, 0xff, 0x7f};
  CHECK(write(sv[1], hdr, 4) == 4);
  py_reader r = {0};
  CHECK(py_reader_fill(&r, sv[0]) == 4);
  const uint8_t *body;
  size_t len;
  CHECK_EQ(py_reader_frame(&r, &body, &len), -EPROTO);
  py_reader_free(&r);
  close(sv[0]);
  close(sv[1]);
}

TEST(reader_reassembles_split_frames) {
  int sv[2];
  REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  py_buf b = {0};
  for (uint32_t i = 1; i <= 3; i++) {
    py_msg_begin(&b, PY_MSG_STDIN_READ, i);
    py_msg_add_u64(&b, PY_T_MAX, i * 100);
    py_msg_end(&b);
  }
  /* Send byte by byte: the reader must wait for whole frames. */
  for (size_t i = 0; i < b.len; i++) CHECK(write(sv[1], b.data + i, 1) == 1);
  py_reader r = {0};
  py_msg *m = malloc(sizeof *m);
  REQUIRE(m);
  uint32_t seen = 0;
  while (seen < 3) {
    const uint8_t *body;
    size_t len;
    int fr = py_reader_frame(&r, &body, &len);
    if (fr == 0) {
      if (py_reader_fill(&r, sv[0]) <= 0) break;
      continue;
    }
    REQUIRE(fr == 1);
    REQUIRE(py_msg_decode(body, len, 1, m) == 0);
    seen++;
    CHECK_EQ(m->id, seen);
    CHECK_EQ(py_msg_u64(m, PY_T_MAX, 0), seen * 100);
  }
  CHECK_EQ(seen, 3);
  free(m);
  py_buf_free(&b);
  py_reader_free(&r);
  close(sv[0]);
  close(sv[1]);
}

int main(int argc, char **argv) {
  harness_init(argc, argv);
  RUN(roundtrip_result_fields);
  RUN(direction_is_enforced);
  RUN(schema_violations_are_refused);
  RUN(truncated_and_lying_lengths);
  RUN(too_many_fields_are_refused);
  RUN(oversize_frames_are_refused_by_encoder_and_reader);
  RUN(reader_reassembles_split_frames);
  return harness_done();
}
