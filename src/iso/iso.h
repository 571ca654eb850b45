/*
 * iso.h - process isolation of the shell (SBX_OPEN_PROCESS): the protocol
 * between the host (src/api/sandbox_iso.c) and the helper that runs the shell
 * (src/iso/iso_helper.c, started as "sbx-pyworker shell ...").
 *
 *   host ──posix_spawn──> helper "sbx-pyworker shell DB FLAGS mem=.. cpu=.. fsize=.."
 *     │                     opens DB (sbx_open), warms the shell session,
 *     │                     seals itself (jail_seal_process), sends READY
 *     └── channel: one SOCK_STREAM socketpair, fd 3 in the helper
 *
 *   host -> helper   RUN   one sbx_bash_ex call (limits, quota, options,
 *                          script, stdin; a host stdin fd rides along as
 *                          SCM_RIGHTS)
 *                    RESET sbx_shell_reset
 *   helper -> host   OUT / ERR  output as the script produces it (so the
 *                          host holds everything written before a kill)
 *                    DONE  the outcome (answers RUN and RESET)
 *                    READY / FAIL  once, after startup
 *
 * A frame is a 16-byte header {u32 type, u32 0, u64 length} then the
 * payload. Numbers inside payloads are u64 in host byte order (both ends
 * are the same machine and binary family); byte strings are a u64 length
 * then the bytes. The host never trusts the helper: it parses frames
 * incrementally without blocking, bounds every length, and kills a helper
 * that sends anything malformed.
 */
#ifndef SBX_ISO_H
#define SBX_ISO_H

#include <stddef.h>
#include <stdint.h>

/* The helper's end of the channel. */
#define ISO_FD_CHANNEL 3

/* Frame types. */
#define ISO_MSG_READY 'R' /* helper: sealed and waiting (payload: Landlock ABI, text) */
#define ISO_MSG_FAIL 'F'  /* helper: startup failed (payload: the message) */
#define ISO_MSG_RUN 'X'   /* host: run one call */
#define ISO_MSG_RESET 'Z' /* host: reset the shell session */
#define ISO_MSG_OUT 'O'   /* helper: stdout bytes */
#define ISO_MSG_ERR 'E'   /* helper: stderr bytes */
#define ISO_MSG_DONE 'D'  /* helper: the call's outcome */

/* Largest payload either side accepts (a script with its stdin). */
#define ISO_FRAME_MAX ((uint64_t)1 << 30)
/* Largest DONE / READY / FAIL payload the host accepts. */
#define ISO_SMALL_MAX 65536

/* RUN flags. */
#define ISO_RUN_EXIT_TRAP 0x1 /* opts->run_exit_trap */
#define ISO_RUN_STDIN_FD 0x2  /* a host stdin fd is attached */
#define ISO_RUN_ARGS 0x4      /* positional parameters follow */
#define ISO_RUN_NAME 0x8      /* a $0 name follows */
/* the caller streams: send output as written, not in batches */
#define ISO_RUN_STREAM 0x10
/* the CLI's prompt: an interactive shell (aliases expand) */
#define ISO_RUN_INTERACTIVE 0x20

typedef struct iso_frame_head {
  uint32_t type;     /* ISO_MSG_* */
  uint32_t reserved; /* 0 */
  uint64_t len;      /* payload bytes */
} iso_frame_head;

/* A growing payload. On allocation failure `oom` is set and later adds do
 * nothing. */
typedef struct iso_buf {
  char *data; /* malloc'd, or NULL */
  size_t len; /* bytes used */
  size_t cap; /* bytes allocated */
  int oom;    /* an allocation failed */
} iso_buf;

void iso_buf_add(iso_buf *b, const void *p, size_t n);
void iso_buf_u64(iso_buf *b, uint64_t v);
/* A length-prefixed byte string. */
void iso_buf_bytes(iso_buf *b, const void *p, size_t n);
void iso_buf_free(iso_buf *b);

/* Reads a payload; any overrun sets `bad` and gives zeros / NULL. */
typedef struct iso_reader {
  const char *p; /* next byte */
  size_t left;   /* bytes left */
  int bad;       /* the payload was short or malformed */
} iso_reader;

uint64_t iso_read_u64(iso_reader *r);
/* A length-prefixed byte string: a pointer into the payload (not
 * NUL-terminated) and its length in *n; NULL when bad. */
const char *iso_read_bytes(iso_reader *r, size_t *n);

/* Sends one frame (blocking; MSG_NOSIGNAL: a dead peer is EPIPE, never
 * SIGPIPE), with `pass_fd` (>= 0) attached as SCM_RIGHTS. 0 or -errno. */
int iso_send(int sock, uint32_t type, const void *data, size_t len, int pass_fd);

/* Receives one frame (blocking, the helper's side): *type, the payload into
 * `payload` (replaced), and an attached fd into *fd (or -1). 0, -EPIPE at
 * end of file, or another -errno (-EPROTO for a malformed frame). */
int iso_recv(int sock, uint32_t *type, iso_buf *payload, int *fd);

/* main() of "sbx-pyworker shell DB FLAGS KEY=VALUE...". */
int iso_helper_main(int argc, char **argv);

#endif
