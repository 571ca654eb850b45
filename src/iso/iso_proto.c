/*
 * iso_proto.c - frames of the process-isolation channel (see iso.h): payload
 * building and bounded reading, and blocking send/receive with an optional
 * fd (SCM_RIGHTS). The host's non-blocking reader lives in src/api/sandbox_iso.c;
 * both ends share the header layout and the limits defined in iso.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cmd/lib/buf.h"
#include "iso/iso.h"
#include "jail/jail.h"

void iso_buf_add(iso_buf *b, const void *p, size_t n) {
  if (b->oom || n == 0) return;
  if (cmd_grow(&b->data, &b->cap, b->len + n, 1) < 0) {
    b->oom = 1;
    return;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void iso_buf_u64(iso_buf *b, uint64_t v) {
  iso_buf_add(b, &v, sizeof v);
}

void iso_buf_bytes(iso_buf *b, const void *p, size_t n) {
  iso_buf_u64(b, n);
  iso_buf_add(b, p, n);
}

void iso_buf_free(iso_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

uint64_t iso_read_u64(iso_reader *r) {
  uint64_t v = 0;
  if (r->bad || r->left < sizeof v) {
    r->bad = 1;
    return 0;
  }
  memcpy(&v, r->p, sizeof v);
  r->p += sizeof v;
  r->left -= sizeof v;
  return v;
}

const char *iso_read_bytes(iso_reader *r, size_t *n) {
  uint64_t len = iso_read_u64(r);
  *n = 0;
  if (r->bad || len > r->left) {
    r->bad = 1;
    return NULL;
  }
  const char *p = r->p;
  r->p += len;
  r->left -= len;
  *n = (size_t)len;
  return p;
}

int iso_send(int sock, uint32_t type, const void *data, size_t len, int pass_fd) {
  iso_frame_head head = {type, 0, len};
  struct iovec iov[2] = {{&head, sizeof head}, {(void *)data, len}};
  int niov = len ? 2 : 1;
  jail_cmsg_buf cm;
  struct msghdr msg = {.msg_iov = iov, .msg_iovlen = (size_t)niov};
  if (pass_fd >= 0) jail_cmsg_put_fds(&msg, &cm, &pass_fd, 1);
  while (msg.msg_iovlen > 0) {
    ssize_t w = sendmsg(sock, &msg, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -errno;
    msg.msg_control = NULL; /* the fd went with the first bytes */
    msg.msg_controllen = 0;
    size_t done = (size_t)w;
    while (msg.msg_iovlen > 0 && done >= msg.msg_iov[0].iov_len) {
      done -= msg.msg_iov[0].iov_len;
      msg.msg_iov++;
      msg.msg_iovlen--;
    }
    if (msg.msg_iovlen > 0) {
      msg.msg_iov[0].iov_base = (char *)msg.msg_iov[0].iov_base + done;
      msg.msg_iov[0].iov_len -= done;
    }
  }
  return 0;
}

/* Reads exactly n bytes: 0, -EPIPE at end of file, or -errno. */
static int read_full(int sock, void *p, size_t n) {
  char *c = p;
  while (n > 0) {
    ssize_t r = read(sock, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -errno;
    if (r == 0) return -EPIPE;
    c += r;
    n -= (size_t)r;
  }
  return 0;
}

int iso_recv(int sock, uint32_t *type, iso_buf *payload, int *fd) {
  *fd = -1;
  payload->len = 0;
  iso_frame_head head;
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } cm;
  struct iovec iov = {&head, sizeof head};
  struct msghdr msg = {.msg_iov = &iov,
                       .msg_iovlen = 1,
                       .msg_control = cm.buf,
                       .msg_controllen = sizeof cm.buf};
  ssize_t r;
  do r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r < 0) return -errno;
  if (r == 0) return -EPIPE;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN(sizeof(int)))
      memcpy(fd, CMSG_DATA(c), sizeof(int));
  int rc = 0;
  if ((size_t)r < sizeof head)
    rc = read_full(sock, (char *)&head + r, sizeof head - (size_t)r);
  if (rc == 0 && (head.reserved != 0 || head.len > ISO_FRAME_MAX)) rc = -EPROTO;
  if (rc == 0 && head.len > 0) {
    if (payload->cap < head.len) {
      char *d = realloc(payload->data, head.len);
      if (!d)
        rc = -ENOMEM;
      else
        payload->data = d, payload->cap = head.len;
    }
    if (rc == 0) rc = read_full(sock, payload->data, head.len);
    if (rc == 0) payload->len = head.len;
  }
  if (rc != 0 && *fd >= 0) {
    close(*fd);
    *fd = -1;
  }
  *type = head.type;
  return rc;
}
