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
#include <time.h>

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

/* Makes the napping tasks whose time has come runnable (mutex held). */
static void wake_due(sh_sched *s) {
  if (!s->nnapping) return;
  int64_t now = sh_now_ns();
  for (sh_task *t = s->all; t; t = t->all_next)
    if (t->state == SH_TASK_BLOCKED && t->wake_at_ns && t->wake_at_ns <= now) {
      t->wake_at_ns = 0;
      s->nnapping--;
      t->state = SH_TASK_READY;
      rq_push(s, t);
    }
}

/* Gives the baton to the next runnable task (mutex held). If none is
 * runnable and `self_blocking`, breaks the deadlock: returns false. */
static bool pass_baton(sh_sched *s, sh_task *self) {
  wake_due(s);
  sh_task *n = rq_pop(s);
  if (!n) {
    /* Nobody can run. If others are blocked, wake the oldest with a
     * deadlock flag so that someone makes progress. */
    if (self->state == SH_TASK_DONE) {
      if (s->nnapping && s->main && s->main != self && s->main->state == SH_TASK_BLOCKED &&
          !s->main->wake_at_ns) {
        /* a task naps: not a deadlock. The main task takes the baton (a
         * spurious wake) and waits for the nap in sh_task_block. */
        s->main->state = SH_TASK_RUNNING;
        s->running = s->main;
        pthread_cond_signal(&s->main->cv);
        return true;
      }
      for (sh_task *t = s->all; t; t = t->all_next) {
        if (t != self && t->state == SH_TASK_BLOCKED && !t->wake_at_ns) {
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
  if (self->detached) self->turn_start_ns = sh_now_ns();
}

/* The earliest wake time of a napping task, or 0 (mutex held). */
static int64_t next_wake(sh_sched *s) {
  int64_t w = 0;
  if (!s->nnapping) return 0;
  for (sh_task *t = s->all; t; t = t->all_next)
    if (t->state == SH_TASK_BLOCKED && t->wake_at_ns && (!w || t->wake_at_ns < w)) w = t->wake_at_ns;
  return w;
}

/* A napping task that stops waiting (its time came, or a wake). */
static void unnap(sh_sched *s, sh_task *t) {
  if (t->wake_at_ns) {
    t->wake_at_ns = 0;
    s->nnapping--;
  }
}

sh_task *sh_sched_enter(sh_sched *s) {
  sh_task *t = sh_xcalloc(1, sizeof *t);
  t->sched = s;
  t->is_main = true;
  t->refs = 1;
  pthread_cond_init(&t->cv, NULL);
  pthread_mutex_lock(&s->mu);
  assert(s->running == NULL); /* invariant 4: nobody holds the baton between entries */
  t->state = SH_TASK_RUNNING;
  s->running = t;
  s->main = t;
  t->all_next = s->all;
  s->all = t;
  pthread_mutex_unlock(&s->mu);
  return t;
}

void sh_sched_leave(sh_sched *s, sh_task *t) {
  pthread_mutex_lock(&s->mu);
  all_remove(s, t);
  if (s->running == t) s->running = NULL;
  if (s->main == t) s->main = NULL;
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
  if (t->on_done) t->on_done(t->on_done_ud, t->status, t->term_sig);

  pthread_mutex_lock(&s->mu);
  t->state = SH_TASK_DONE;
  for (int i = 0; i < t->nwaiters; i++) {
    sh_task *w = t->waiters[i];
    if (w->state == SH_TASK_BLOCKED) {
      unnap(s, w);
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
  sh_task *cur = s->running;
  if (cur && cur->detached) {
    /* a task of a detached job: it belongs to the same job and its limits */
    t->detached = true;
    t->job_deadline_ns = cur->job_deadline_ns;
  }
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
  while (!pass_baton(s, self)) {
    /* Nobody can run now. Without napping tasks nobody ever will: a
     * deadlock. Else wait for the earliest nap to end (10 ms at most, and the
     * main task returns then: the call looks at its deadline and cancel). */
    if (!s->nnapping) {
      self->state = SH_TASK_RUNNING;
      pthread_mutex_unlock(&s->mu);
      return false;
    }
    sh_task *m = s->main;
    if (m && m != self && m->state == SH_TASK_BLOCKED && !m->wake_at_ns) {
      /* the main task waits meanwhile: it takes the baton (a spurious wake)
       * and does the waiting, looking at its call's deadline as it goes */
      m->state = SH_TASK_RUNNING;
      s->running = m;
      pthread_cond_signal(&m->cv);
      break;
    }
    int64_t d = next_wake(s) - sh_now_ns();
    if (d > 10000000) d = 10000000;
    pthread_mutex_unlock(&s->mu);
    if (d > 0) nanosleep(&(struct timespec){0, (long)d}, NULL);
    pthread_mutex_lock(&s->mu);
    if (self->is_main && self->state == SH_TASK_BLOCKED && !self->wake_at_ns) {
      self->state = SH_TASK_RUNNING;
      pthread_mutex_unlock(&s->mu);
      return true; /* a spurious wake: the caller checks again */
    }
  }
  wait_baton(s, self);
  self->state = SH_TASK_RUNNING;
  bool ok = !self->deadlocked;
  self->deadlocked = false;
  pthread_mutex_unlock(&s->mu);
  return ok;
}

void sh_task_nap(sh_task *self, int64_t until_ns) {
  sh_sched *s = self->sched;
  pthread_mutex_lock(&s->mu);
  self->wake_at_ns = until_ns > 0 ? until_ns : 1;
  s->nnapping++;
  pthread_mutex_unlock(&s->mu);
  sh_task_block(self);
  pthread_mutex_lock(&s->mu);
  unnap(s, self);
  pthread_mutex_unlock(&s->mu);
}

int64_t sh_sched_next_wake(sh_sched *s) {
  pthread_mutex_lock(&s->mu);
  int64_t w = next_wake(s);
  pthread_mutex_unlock(&s->mu);
  return w;
}

int sh_sched_count_jobs(sh_sched *s) {
  pthread_mutex_lock(&s->mu);
  int n = 0;
  for (sh_task *t = s->all; t; t = t->all_next)
    if (t->bg_job && t->state != SH_TASK_DONE) n++;
  pthread_mutex_unlock(&s->mu);
  return n;
}

bool sh_sched_has_ready(sh_sched *s) {
  pthread_mutex_lock(&s->mu);
  wake_due(s);
  bool r = s->rq_head != NULL;
  pthread_mutex_unlock(&s->mu);
  return r;
}

void sh_sched_detach_all(sh_sched *s, int64_t deadline_ns) {
  pthread_mutex_lock(&s->mu);
  for (sh_task *t = s->all; t; t = t->all_next)
    if (t != s->main && !t->detached && t->state != SH_TASK_DONE) {
      t->detached = true;
      t->job_deadline_ns = deadline_ns;
    }
  pthread_mutex_unlock(&s->mu);
}

void sh_sched_break_all(sh_sched *s) {
  pthread_mutex_lock(&s->mu);
  for (sh_task *t = s->all; t; t = t->all_next)
    if (t != s->main && t->state == SH_TASK_BLOCKED) {
      unnap(s, t);
      t->deadlocked = true;
      t->state = SH_TASK_READY;
      rq_push(s, t);
    }
  pthread_mutex_unlock(&s->mu);
}

int sh_sched_ntasks(sh_sched *s) {
  pthread_mutex_lock(&s->mu);
  int n = s->ntasks;
  pthread_mutex_unlock(&s->mu);
  return n;
}

void sh_task_wake(sh_task *t) {
  if (!t) return;
  sh_sched *s = t->sched;
  pthread_mutex_lock(&s->mu);
  if (t->state == SH_TASK_BLOCKED) {
    unnap(s, t);
    t->state = SH_TASK_READY;
    rq_push(s, t);
  }
  pthread_mutex_unlock(&s->mu);
}

void sh_task_yield(sh_task *self) {
  sh_sched *s = self->sched;
  pthread_mutex_lock(&s->mu);
  wake_due(s);
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

/* Takes self off t's waiters (mutex held). */
static void unwait(sh_task *self, sh_task *t) {
  for (int i = 0; i < t->nwaiters; i++)
    if (t->waiters[i] == self) t->waiters[i--] = t->waiters[--t->nwaiters];
}

/* Puts self on t's waiters (mutex held), for sh_task_wait and
 * sh_task_wait_any: t's end wakes every task on the list. */
static void add_waiter(sh_task *self, sh_task *t) {
  if (t->nwaiters == t->capwaiters) {
    t->capwaiters = t->capwaiters ? t->capwaiters * 2 : 2;
    t->waiters = sh_xrealloc(t->waiters, (size_t)t->capwaiters * sizeof *t->waiters);
  }
  t->waiters[t->nwaiters++] = self;
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
    for (int k = 0; k < n; k++) add_waiter(self, ts[k]);
    pthread_mutex_unlock(&s->mu);
    bool ok = sh_task_block(self);
    /* woken by one of them (or a deadlock): leave the other lists */
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k < n; k++) unwait(self, ts[k]);
    pthread_mutex_unlock(&s->mu);
    if (!ok) return -1;
    if (self->call_sh && self->call_sh->sess->jobs_outlive && sh_call_expired(self->call_sh))
      return -1;
  }
}

int sh_task_wait(sh_task *self, sh_task *t) {
  sh_sched *s = self->sched;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    if (t->state == SH_TASK_DONE) {
      int st = t->status;
      unwait(self, t);
      pthread_mutex_unlock(&s->mu);
      if (t->has_thread) {
        /* the thread is exiting (or exited): join it so that nothing lingers */
        pthread_t th = t->thread;
        t->has_thread = false;
        pthread_join(th, NULL);
      }
      return st;
    }
    /* once on the list, even after a spurious wake (sh_task_block) */
    unwait(self, t);
    add_waiter(self, t);
    pthread_mutex_unlock(&s->mu);
    bool woke = sh_task_block(self);
    if (woke && self->call_sh && self->call_sh->sess->jobs_outlive &&
        sh_call_expired(self->call_sh)) {
      /* the call's deadline or cancel: stop waiting (the job runs on) */
      pthread_mutex_lock(&s->mu);
      unwait(self, t);
      pthread_mutex_unlock(&s->mu);
      return 126;
    }
    if (!woke) {
      /* deadlock: t can never finish; report a failure status */
      pthread_mutex_lock(&s->mu);
      unwait(self, t);
      pthread_mutex_unlock(&s->mu);
      return 1;
    }
  }
}

void sh_task_ref(sh_task *t) {
  pthread_mutex_lock(&t->sched->mu);
  t->refs++;
  pthread_mutex_unlock(&t->sched->mu);
}

bool sh_task_finished(sh_task *t, int *status, int *sig) {
  pthread_mutex_lock(&t->sched->mu);
  bool done = t->state == SH_TASK_DONE;
  if (done) {
    if (status) *status = t->status;
    if (sig) *sig = t->term_sig;
  }
  pthread_mutex_unlock(&t->sched->mu);
  return done;
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
