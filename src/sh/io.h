/*
 * io.h - the shell's file descriptors: open file descriptions (sh_file,
 * reference counted and shared between fd slots, like the kernel's), bounded
 * pipes whose readers and writers block through the scheduler, files in the
 * store, the synthetic /dev and /proc/self/fd paths, and the cmd_io table that
 * commands of src/cmd/ use to reach all of it.
 */
#ifndef SBX_SH_IO_H
#define SBX_SH_IO_H

#include "cmd/cmd.h"
#include "sh/sh.h"

#define SH_PIPE_BUF 65536 /* bytes a pipe holds before the writer blocks */

struct sh_pipe {
  char buf[SH_PIPE_BUF];  /* ring buffer */
  size_t head, len;       /* read position, bytes held */
  int readers, writers;   /* open descriptions of each end */
  sh_task *rwait[8];      /* blocked readers */
  int nrwait;
  sh_task *wwait[8];      /* blocked writers */
  int nwwait;
};

/* Descriptions */
sh_file *sh_file_new(sh_file_kind kind);
sh_file *sh_file_ref(sh_file *f);
void sh_file_unref(sh_file *f);
sh_file *sh_file_mem(const void *data, size_t n);   /* copies data */
sh_file *sh_file_mem_take(char *data, size_t n);     /* takes data */
sh_file *sh_file_sink(sh_sink_fn fn, void *ud);
void sh_pipe_new(sh_file **r, sh_file **w);

/* The fd table */
void sh_fdtab_init(sh_fdtab *t);
void sh_fdtab_copy(sh_fdtab *dst, const sh_fdtab *src);
void sh_fdtab_free(sh_fdtab *t);
sh_file *sh_fd_get(sh_shell *sh, int fd);
/* Puts f (a new reference is taken) at fd, closing what was there. */
int sh_fd_set(sh_shell *sh, int fd, sh_file *f);
int sh_fd_close(sh_shell *sh, int fd);
/* The lowest free fd >= min. -EMFILE if none. */
int sh_fd_alloc(sh_shell *sh, int min);

/* I/O on shell fds; negative errno on failure. */
ssize_t sh_fd_read(sh_shell *sh, int fd, void *buf, size_t n);

/* One byte at a time from fd, for `read` and `mapfile`, which must not take
 * more than they use. As bash does with seekable input: from a store file a
 * block is read ahead and the descriptor's offset advances only past the
 * bytes taken, so the next reader goes on from the right place; pipes give
 * one byte per call. Zero-initialise with .sh and .fd set. */
typedef struct sh_byte_in {
  sh_shell *sh;            /* the reading shell (borrowed) */
  int fd;                  /* its descriptor */
  const void *file;        /* the open file the block came from (identity) */
  uint64_t base;           /* the file offset of buf[0] */
  size_t pos, len;         /* unread bytes: buf[pos..len) */
  unsigned char buf[4096]; /* the block read ahead */
} sh_byte_in;

/* A zeroed reader for fd on the heap (the block is too big for a task's
 * stack); free() it. */
sh_byte_in *sh_byte_in_new(sh_shell *sh, int fd);
/* 1 and the byte in *c, 0 at EOF, -errno on error. */
ssize_t sh_byte_in_next(sh_byte_in *b, char *c);
ssize_t sh_fd_write(sh_shell *sh, int fd, const void *buf, size_t n);
int64_t sh_fd_lseek(sh_shell *sh, int fd, int64_t off, int whence);
/* Opens a path (store file or synthetic device) as a new description. */
int sh_open_file(sh_shell *sh, const char *path, int oflags, uint32_t mode, sh_file **out);
/* open(2) for commands: a new fd (lowest free >= 3... as Unix: lowest free). */
int sh_fd_open(sh_shell *sh, const char *path, int oflags, uint32_t mode);

/* The command I/O table (ud = the sh_shell running the command). */
extern const cmd_io sh_cmd_io;

/* Runs a table command in-process with the shell's fds. */
int sh_run_table_command(sh_shell *sh, const cmd_entry *e, int argc, char **argv, char **env);
/* Runs a host program in the jail (`path` there: /usr/bin/git, /data/a.out)
 * the way a table command runs (src/cmd/host.c). */
int sh_run_host_program(sh_shell *sh, const char *path, int argc, char **argv, char **env);

#endif
