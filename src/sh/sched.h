/*
 * sched.h - tasks (pipeline stages, background jobs, process substitutions,
 * popen'd commands) and the run-one-at-a-time scheduler.
 *
 * Each task is a thread, but a task runs only while it holds the baton. The
 * baton moves only when the holder blocks (sh_task_block: an empty or full pipe,
 * a wait) or ends; the next holder is the oldest runnable task. Hence exactly
 * one thread touches the store and the shell states at any time, and every run
 * of a script interleaves - and prints - the same way.
 *
 * Invariants (asserted in sched.c):
 *  1. sched->running is the only task whose thread is outside pthread_cond_wait.
 *  2. A task is on the run queue iff its state is READY.
 *  3. A BLOCKED task is woken only by sh_task_wake, by its waker holding the baton.
 * When the holder must block and no task is runnable, every task is blocked:
 * that is a deadlock (a pipe cycle, a read nobody will write); the blocking call
 * then fails (EOF / EPIPE) instead of hanging, and the script goes on.
 */
#ifndef SBX_SH_SCHED_H
#define SBX_SH_SCHED_H

#include <pthread.h>

#include "sh/sh.h"

typedef enum sh_task_state {
  SH_TASK_READY,    /* runnable, waiting for the baton */
  SH_TASK_RUNNING,  /* holds the baton */
  SH_TASK_BLOCKED,  /* waiting for a wake */
  SH_TASK_DONE,     /* finished; status valid */
} sh_task_state;

typedef void (*sh_task_fn)(sh_task *t);

struct sh_task {
  sh_sched *sched;
  pthread_t thread;        /* its thread (not for the main task) */
  bool has_thread;
  pthread_cond_t cv;       /* signalled when it gets the baton */
  sh_task_state state;
  sh_task *next;           /* run queue link */
  sh_task *all_next;       /* list of all live tasks */
  sh_shell *sh;            /* the shell it runs (owned by the task's function) */
  sh_node *node;           /* what to run */
  sh_arena *arena;         /* reference kept on node's arena */
  char *script;            /* or a script string (popen) */
  sh_task_fn fn;           /* entry */
  int status;              /* exit status when DONE */
  int refs;                /* owners: the spawner and the task itself */
  sh_task **waiters;       /* tasks waiting for this one to finish */
  int nwaiters, capwaiters;
  bool deadlocked;         /* woken to break a deadlock */
  int64_t pid;             /* fake pid */
  int pending_sig;         /* a signal sent by kill, handled at the next poll */
  int term_sig;            /* the signal that ended it, or 0 */
  bool is_main;            /* the thread that entered the session */
  unsigned turns;          /* times it got the baton (io.c measures a writer's burst per turn) */
  unsigned burst_turn;     /* the turn burst_bytes and burst_mark belong to */
  size_t burst_bytes;      /* bytes written to pipes in that turn */
  uint64_t burst_mark;     /* the session's command count at its first pipe write in that turn */
};

struct sh_sched {
  pthread_mutex_t mu;
  sh_task *running;        /* baton holder */
  sh_task *rq_head, *rq_tail;
  sh_task *all;            /* every live task */
  int ntasks;              /* live tasks besides the main one */
};

sh_sched *sh_sched_new(void);
void sh_sched_free(sh_sched *s);
/* The calling thread becomes the running main task (start of a call). */
sh_task *sh_sched_enter(sh_sched *s);
void sh_sched_leave(sh_sched *s, sh_task *main_task);

/* Creates a READY task running fn (which must end by returning; the task then
 * finishes). The task's shell `sh` is given to the task. NULL if the task
 * limit is reached (a limit message is printed on `parent`). */
sh_task *sh_task_spawn(sh_shell *parent, sh_shell *sh, sh_task_fn fn);
/* The caller (holding the baton) blocks until woken. Returns false if it
 * was woken to break a deadlock. */
bool sh_task_block(sh_task *self);
/* Makes a blocked task runnable (no switch happens). */
void sh_task_wake(sh_task *t);
/* Waits until t is DONE; returns its status (the reference is kept). */
int sh_task_wait(sh_task *self, sh_task *t);
/* Lets other runnable tasks run before continuing (used at the end of a call). */
void sh_task_yield(sh_task *self);
/* Blocks until one of ts[0..n) is DONE; returns its index (-1: deadlock).
 * Does not collect it: sh_task_wait then returns its status at once. */
int sh_task_wait_any(sh_task *self, sh_task **ts, int n);
void sh_task_unref(sh_task *t);
/* The task currently holding the baton. */
sh_task *sh_sched_current(sh_sched *s);

#endif
