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
 * then fails (EOF / EPIPE) instead of hanging, and the script goes on - unless
 * a task naps (sh_task_nap, a timed block): then the holder waits for it.
 *
 * Background jobs that outlive their call (session.c, "Jobs between calls")
 * are detached tasks: the baton still passes among all tasks of the session,
 * but between calls it is held by the session's driver thread, which takes
 * the sandbox's lock for a short slice at a time (invariant 4).
 *  4. The baton is held only while the thread that entered the scheduler (a
 *     call, or the driver between calls) holds the sandbox's lock.
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
  bool detached;           /* a background job's task that outlived its call: its own
                            * limits apply (sh_poll), not the running call's */
  int64_t job_deadline_ns; /* detached: when its lifetime ends (monotonic) */
  int64_t cpu_seen_ns;     /* detached: its thread's CPU clock at the last check */
  int64_t cpu_used_ns;     /* detached: CPU time used since it was detached */
  int64_t turn_start_ns;   /* when it last got the baton (a detached task's slice) */
  unsigned polls;          /* sh_poll calls (a detached task checks its clocks every 64) */
  int64_t wake_at_ns;      /* napping (BLOCKED until then, sh_task_nap), else 0 */
  bool bg_job;             /* the task of a background job (`cmd &`), counted for bg_jobs */
  void (*on_done)(void *ud, int status, int sig); /* called when it ends (the baton held:
                            * it may use the store), or NULL */
  void *on_done_ud;
  sh_shell *call_sh;       /* the main task of a call: its shell, whose deadline and cancel
                            * end a wait for another task (sh_call_expired), else NULL */
};

struct sh_sched {
  pthread_mutex_t mu;
  sh_task *running;        /* baton holder */
  sh_task *rq_head, *rq_tail;
  sh_task *all;            /* every live task */
  int ntasks;              /* live tasks besides the main one */
  int nnapping;            /* BLOCKED tasks with a wake_at_ns */
  sh_task *main;           /* the task of the thread that entered (a call or the driver) */
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
/* The caller (holding the baton) blocks until `until_ns` (monotonic) or a
 * wake, whichever is first; other tasks run meanwhile. */
void sh_task_nap(sh_task *self, int64_t until_ns);
/* The earliest wake time of a napping task, or 0. */
int64_t sh_sched_next_wake(sh_sched *s);
/* Live tasks other than the main one. */
int sh_sched_ntasks(sh_sched *s);
/* Live background jobs (tasks with bg_job). */
int sh_sched_count_jobs(sh_sched *s);
/* Whether a task is waiting for the baton. */
bool sh_sched_has_ready(sh_sched *s);
/* Marks every live task but the main one detached (the call that started
 * them returns), its lifetime ending at deadline_ns. */
void sh_sched_detach_all(sh_sched *s, int64_t deadline_ns);
/* Makes every blocked task runnable as if a deadlock were broken: its
 * blocking call fails, and it polls soon (closing a session). */
void sh_sched_break_all(sh_sched *s);
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
/* One more owner of t (sh_task_unref releases it). */
void sh_task_ref(sh_task *t);
/* Whether t ended; then its exit status and the signal that ended it. */
bool sh_task_finished(sh_task *t, int *status, int *sig);
/* The task currently holding the baton. */
sh_task *sh_sched_current(sh_sched *s);

#endif
