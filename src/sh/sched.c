/*
 * sched.c - the baton scheduler (sched.h).
 *
 *     spawn          baton           block/wait
 *   ------> READY ----------> RUNNING ----------> BLOCKED
 *             ^                  |                   |
 *             |                  | fn returns        | sh_task_wake
 *             +------------------|-------------------+
 *                                v
 *                               DONE (waiters woken, baton passed)
 *
 * One mutex guards the scheduler; each task waits on its own condition
 * variable until `running` names it (invariant 1 of sched.h). Task threads get
 * a large, lazily committed stack so deep recursion inside a stage hits the
 * shell's depth limits, not the guard page.
 */
#include "sh/sched.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASK_STACK (64u << 20)

sh_sched *sh_sched_new(void) {
  sh_sched *s = sh_xcalloc(1, sizeof *s);
  pthread_mutex_init(&s->mu, NULL);
  return s;
}

void sh_sched_free(sh_sched *s) {
  if (!s) return;
  pthread_mutex_destroy(&s->mu);
  free(s);
}

sh_task *sh_sched_current(sh_sched *s) { return s->running; }

static void rq_push(sh_sched *s, sh_task *t) {
  t->next = NULL;
  if (s->rq_tail) s->rq_tail->next = t;
  else s->rq_head = t;
  s->rq_tail = t;
}

static sh_task *rq_pop(sh_sched *s) {
  sh_task *t = s->rq_head;
  if (!t) return NULL;
  s->rq_head = t->next;
  if (!s->rq_head) s->rq_tail = NULL;
  t->next = NULL;
  return t;
}

static void all_remove(sh_sched *s, sh_task *t) {
  for (sh_task **pp = &s->all; *pp; pp = &(*pp)->all_next)
    if (*pp == t) {
      *pp = t->all_next;
      return;
    }
}

/* Gives the baton to the next runnable task (mutex held). If none is
 * runnable and `self_blocking`, breaks the deadlock: returns false. */
static bool pass_baton(sh_sched *s, sh_task *self) {
  sh_task *n = rq_pop(s);
  if (!n) {
    /* Nobody can run. If others are blocked, wake the oldest with a
     * deadlock flag so that someone makes progress. */
    if (self->state == SH_TASK_DONE) {
      for (sh_task *t = s->all; t; t = t->all_next) {
        if (t != self && t->state == SH_TASK_BLOCKED) {
          t->deadlocked = true;
          t->state = SH_TASK_RUNNING;
          s->running = t;
          pthread_cond_signal(&t->cv);
          return true;
        }
      }
      s->running = NULL;
      return true;
    }
    return false;
  }
  assert(n->state == SH_TASK_READY);
  n->state = SH_TASK_RUNNING;
  s->running = n;
  pthread_cond_signal(&n->cv);
  return true;
}

static void wait_baton(sh_sched *s, sh_task *self) {
  while (s->running != self) pthread_cond_wait(&self->cv, &s->mu);
  self->turns++;
}

sh_task *sh_sched_enter(sh_sched *s) {
  sh_task *t = sh_xcalloc(1, sizeof *t);
  t->sched = s;
  t->is_main = true;
  t->refs = 1;
  pthread_cond_init(&t->cv, NULL);
  pthread_mutex_lock(&s->mu);
  t->state = SH_TASK_RUNNING;
  s->running = t;
  t->all_next = s->all;
  s->all = t;
  pthread_mutex_unlock(&s->mu);
  return t;
}

void sh_sched_leave(sh_sched *s, sh_task *t) {
  pthread_mutex_lock(&s->mu);
  all_remove(s, t);
  if (s->running == t) s->running = NULL;
  pthread_mutex_unlock(&s->mu);
  pthread_cond_destroy(&t->cv);
  free(t->waiters);
  free(t);
}

static void *task_main(void *arg) {
  sh_task *t = arg;
  sh_sched *s = t->sched;
  pthread_mutex_lock(&s->mu);
  wait_baton(s, t);
  pthread_mutex_unlock(&s->mu);

  t->fn(t);

  pthread_mutex_lock(&s->mu);
  t->state = SH_TASK_DONE;
  for (int i = 0; i < t->nwaiters; i++) {
    sh_task *w = t->waiters[i];
    if (w->state == SH_TASK_BLOCKED) {
      w->state = SH_TASK_READY;
      rq_push(s, w);
    }
  }
  t->nwaiters = 0;
  s->ntasks--;
  all_remove(s, t);
  pass_baton(s, t);
  bool last = --t->refs == 0;
  pthread_mutex_unlock(&s->mu);
  if (last) {
    pthread_cond_destroy(&t->cv);
    free(t->waiters);
    pthread_detach(pthread_self());
    free(t);
  }
  return NULL;
}

sh_task *sh_task_spawn(sh_shell *parent, sh_shell *sh, sh_task_fn fn) {
  sh_sched *s = parent->sess->sched;
  if ((uint64_t)s->ntasks >= parent->sess->limits.tasks) {
    sh_limit_hit(parent, SH_LIMIT_JOBS, parent->sess->limits.tasks);
    return NULL;
  }
  sh_task *t = sh_xcalloc(1, sizeof *t);
  t->sched = s;
  t->sh = sh;
  t->fn = fn;
  t->refs = 2; /* the spawner and the running task */
  t->pid = sh->pid;
  pthread_cond_init(&t->cv, NULL);
  sh->task = t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, TASK_STACK);
  pthread_mutex_lock(&s->mu);
  t->state = SH_TASK_READY;
  rq_push(s, t);
  t->all_next = s->all;
  s->all = t;
  s->ntasks++;
  int r = pthread_create(&t->thread, &attr, task_main, t);
  if (r != 0) {
    /* undo: no thread could be made */
    for (sh_task **pp = &s->rq_head; *pp; pp = &(*pp)->next)
      if (*pp == t) {
        *pp = t->next;
        break;
      }
    s->rq_tail = NULL;
    for (sh_task *q = s->rq_head; q; q = q->next) s->rq_tail = q;
    all_remove(s, t);
    s->ntasks--;
    pthread_mutex_unlock(&s->mu);
    pthread_attr_destroy(&attr);
    pthread_cond_destroy(&t->cv);
    free(t);
    sh->task = NULL;
    char ebuf[128];
    sh_error(parent, "cannot start a task: %s", strerror_r(r, ebuf, sizeof ebuf));
    return NULL;
  }
  t->has_thread = true;
  pthread_mutex_unlock(&s->mu);
  pthread_attr_destroy(&attr);
  return t;
}

bool sh_task_block(sh_task *self) {
  sh_sched *s = self->sched;
  pthread_mutex_lock(&s->mu);
  assert(s->running == self);
  self->deadlocked = false;
  self->state = SH_TASK_BLOCKED;
  if (!pass_baton(s, self)) {
    /* nobody else can run: a deadlock */
    self->state = SH_TASK_RUNNING;
    pthread_mutex_unlock(&s->mu);
    return false;
  }
  wait_baton(s, self);
  self->state = SH_TASK_RUNNING;
  bool ok = !self->deadlocked;
  self->deadlocked = false;
  pthread_mutex_unlock(&s->mu);
  return ok;
}

void sh_task_wake(sh_task *t) {
  if (!t) return;
  sh_sched *s = t->sched;
  pthread_mutex_lock(&s->mu);
  if (t->state == SH_TASK_BLOCKED) {
    t->state = SH_TASK_READY;
    rq_push(s, t);
  }
  pthread_mutex_unlock(&s->mu);
}

void sh_task_yield(sh_task *self) {
  sh_sched *s = self->sched;
  pthread_mutex_lock(&s->mu);
  if (!s->rq_head) {
    pthread_mutex_unlock(&s->mu);
    return;
  }
  self->state = SH_TASK_READY;
  rq_push(s, self);
  pass_baton(s, self);
  wait_baton(s, self);
  self->state = SH_TASK_RUNNING;
  pthread_mutex_unlock(&s->mu);
}

int sh_task_wait_any(sh_task *self, sh_task **ts, int n) {
  sh_sched *s = self->sched;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k < n; k++)
      if (ts[k]->state == SH_TASK_DONE) {
        pthread_mutex_unlock(&s->mu);
        return k;
      }
    for (int k = 0; k < n; k++) {
      sh_task *t = ts[k];
      if (t->nwaiters == t->capwaiters) {
        t->capwaiters = t->capwaiters ? t->capwaiters * 2 : 2;
        t->waiters = sh_xrealloc(t->waiters, (size_t)t->capwaiters * sizeof *t->waiters);
      }
      t->waiters[t->nwaiters++] = self;
    }
    pthread_mutex_unlock(&s->mu);
    bool ok = sh_task_block(self);
    /* woken by one of them (or a deadlock): leave the other lists */
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k < n; k++) {
      sh_task *t = ts[k];
      for (int i = 0; i < t->nwaiters; i++)
        if (t->waiters[i] == self) t->waiters[i--] = t->waiters[--t->nwaiters];
    }
    pthread_mutex_unlock(&s->mu);
    if (!ok) return -1;
  }
}

int sh_task_wait(sh_task *self, sh_task *t) {
  sh_sched *s = self->sched;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    if (t->state == SH_TASK_DONE) {
      int st = t->status;
      pthread_mutex_unlock(&s->mu);
      if (t->has_thread) {
        /* the thread is exiting (or exited): join it so that nothing lingers */
        pthread_t th = t->thread;
        t->has_thread = false;
        pthread_join(th, NULL);
      }
      return st;
    }
    if (t->nwaiters == t->capwaiters) {
      t->capwaiters = t->capwaiters ? t->capwaiters * 2 : 2;
      t->waiters = sh_xrealloc(t->waiters, (size_t)t->capwaiters * sizeof *t->waiters);
    }
    t->waiters[t->nwaiters++] = self;
    pthread_mutex_unlock(&s->mu);
    if (!sh_task_block(self)) {
      /* deadlock: t can never finish; report a failure status */
      pthread_mutex_lock(&s->mu);
      for (int i = 0; i < t->nwaiters; i++)
        if (t->waiters[i] == self) t->waiters[i] = t->waiters[--t->nwaiters];
      pthread_mutex_unlock(&s->mu);
      return 1;
    }
  }
}

void sh_task_unref(sh_task *t) {
  if (!t) return;
  sh_sched *s = t->sched;
  pthread_mutex_lock(&s->mu);
  bool last = --t->refs == 0;
  bool joinable = t->has_thread;
  pthread_mutex_unlock(&s->mu);
  if (last) {
    if (joinable) pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->cv);
    free(t->waiters);
    free(t);
  }
}
