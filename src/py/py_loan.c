/*
 * py_loan.c - the loan: how a shell script that holds the sandbox shares it
 * with the Python and tool calls it is waiting for.
 *
 * sbx_bash holds h->lock for its whole script. When the script runs `python3`
 * or `tool`, others need the store while the script waits: the FUSE thread
 * (the jail's file operations) and tool callbacks, which run on runner
 * threads and may call the C API of the same sandbox (read a file, run
 * sbx_bash or Python). Taking h->lock there would wait for the script, which
 * waits for them. So h->lock stays where it is, and the store is lent along
 * the chain of calls that the script is waiting for:
 *
 *   thread U: sbx_bash (holds h->lock)
 *     └ task T: python3 ─ EXEC ─> worker ─ TOOL_CALL ─> runner R: callback
 *                                                        └ sbx_read_file, sbx_bash, ... (on the loan)
 *                                                           └ task T2: python3 ─> ...
 *
 * Each link waits for the next, so one link at a time is active; the loan's
 * owner is the thread allowed to enter the C API on it (R while its callback
 * runs). The shell's own commands (python3, tool) act on the loan because
 * their shell holds the store, by the lock or by a loan (py_loan_begin with
 * `command`).
 *
 * Invariants (the asserts and comments cite them):
 *  L1. lending > 0 exactly while a python3/tool command of a shell that holds
 *      the store is in progress (the loan is open); h->lock is then held by
 *      the outermost shell's thread for the whole time.
 *  L2. While lending, the store is used only by the loan's chain and by the
 *      FUSE thread, never both at once: the chain counts its open sections in
 *      `hold`, and store_lent == (hold == 0) whenever the chain is not in the
 *      middle of changing it; the FUSE thread borrows only while store_lent,
 *      counted in store_borrowers, and a taker waits for that count to drop.
 *  L3. Only the owner's thread enters the C API on the loan (sandbox_lock),
 *      and a runner is never abandoned (timeout) while it is inside such a
 *      call or a nested Python call: abandoning takes the loan back first, so
 *      a late callback waits for h->lock like any other thread.
 *  L4. A call that waits for the worker or a callback releases its holds
 *      (py_loan_release) and restores them afterwards, so the jail's file
 *      operations and nested calls proceed meanwhile.
 *
 * `hold` is touched only by the active link of the chain (one thread at a
 * time: the links hand over through mutexes, so the accesses are ordered);
 * owner, lending and api_calls are guarded by chan_lock because threads
 * outside the chain read them.
 */
#include <sched.h>
#include <stdatomic.h>

#include "py/py_int.h"

/* C API calls this thread is making on a loan (sandbox_lock's loan path). */
static _Thread_local int tl_api_calls;

/* The chain takes the store from the FUSE thread (L2); nests. */
static void take(py_state *ps) {
  if (ps->hold++ > 0) return;
  atomic_store(&ps->store_lent, 0);
  while (atomic_load(&ps->store_borrowers) > 0) sched_yield();
}

/* The chain gives the store back to the FUSE thread when its last section ends. */
static void give(py_state *ps) {
  if (--ps->hold == 0) atomic_store(&ps->store_lent, 1);
}

int py_loan_mine(py_state *ps) {
  if (!ps) return 0;
  pthread_mutex_lock(&ps->chan_lock);
  int mine = ps->lending > 0 && pthread_equal(ps->loan_owner, pthread_self());
  pthread_mutex_unlock(&ps->chan_lock);
  return mine;
}

void py_loan_begin(py_state *ps, int command, py_loan_frame *f) {
  f->active = f->command = f->released = 0;
  f->saved_hold = 0;
  pthread_mutex_lock(&ps->chan_lock);
  if (command) {
    /* The caller's shell holds the store (h->lock, or this loan): L1. */
    f->active = f->command = 1;
    f->prev_owner = ps->loan_owner;
    if (ps->lending++ == 0) {
      ps->hold = 1; /* the shell's own hold; FUSE keeps out until released */
      atomic_store(&ps->store_lent, 0);
    }
    ps->loan_owner = pthread_self();
  } else if (ps->lending > 0 && pthread_equal(ps->loan_owner, pthread_self())) {
    f->active = 1; /* a C API call of the owner (a callback): nested on the loan */
    ps->api_calls++;
  }
  pthread_mutex_unlock(&ps->chan_lock);
}

void py_loan_end(py_state *ps, py_loan_frame *f) {
  if (!f->active) return;
  int closed = 0;
  pthread_mutex_lock(&ps->chan_lock);
  if (f->command) {
    ps->loan_owner = f->prev_owner;
    if (--ps->lending == 0) {
      /* The loan closes: h->lock covers the store again. */
      ps->hold = 0;
      atomic_store(&ps->store_lent, 0);
      closed = 1;
    }
  } else {
    ps->api_calls--;
  }
  pthread_mutex_unlock(&ps->chan_lock);
  while (closed && atomic_load(&ps->store_borrowers) > 0) sched_yield();
}

void py_loan_release(py_state *ps, py_loan_frame *f) {
  if (!f->active || f->released) return;
  f->released = 1;
  f->saved_hold = ps->hold;
  ps->hold = 0;
  atomic_store(&ps->store_lent, 1);
}

void py_loan_restore(py_state *ps, py_loan_frame *f) {
  if (!f->active || !f->released) return;
  f->released = 0;
  ps->hold = 0; /* every section of this call has ended */
  for (int i = 0; i < f->saved_hold; i++) take(ps);
  if (f->saved_hold == 0) atomic_store(&ps->store_lent, 1);
}

int py_store_enter(sbx *h, py_state *ps) {
  if (py_loan_mine(ps)) {
    take(ps);
    return 1;
  }
  pthread_mutex_lock(&h->lock);
  return 0;
}

void py_store_leave(sbx *h, py_state *ps, int token) {
  if (token) give(ps);
  else pthread_mutex_unlock(&h->lock);
}

int py_loan_api_enter(sbx *h) {
  py_state *ps = h->py;
  if (!ps) return 0;
  pthread_mutex_lock(&ps->chan_lock);
  int mine = ps->lending > 0 && pthread_equal(ps->loan_owner, pthread_self());
  if (mine) ps->api_calls++; /* L3: the owner cannot be abandoned now */
  pthread_mutex_unlock(&ps->chan_lock);
  if (!mine) return 0;
  tl_api_calls++;
  take(ps);
  return 1;
}

int py_loan_api_leave(sbx *h) {
  if (tl_api_calls == 0) return 0;
  py_state *ps = h->py;
  tl_api_calls--;
  give(ps);
  pthread_mutex_lock(&ps->chan_lock);
  ps->api_calls--;
  pthread_mutex_unlock(&ps->chan_lock);
  return 1;
}

int py_loan_pass(py_state *ps, pthread_t to, py_loan_handoff *ho) {
  pthread_mutex_lock(&ps->chan_lock);
  ho->passed = ps->lending > 0 && pthread_equal(ps->loan_owner, pthread_self());
  if (ho->passed) {
    ho->api_calls0 = ps->api_calls;
    ps->loan_owner = to;
  }
  pthread_mutex_unlock(&ps->chan_lock);
  return ho->passed;
}

int py_loan_revoke_locked(py_state *ps, const py_loan_handoff *ho) {
  if (!ho->passed) return 1;
  if (ps->api_calls != ho->api_calls0) return 0; /* L3: the runner is inside a call */
  ps->loan_owner = pthread_self();
  return 1;
}

void py_loan_take_back(py_state *ps, const py_loan_handoff *ho) {
  if (!ho->passed) return;
  pthread_mutex_lock(&ps->chan_lock);
  ps->loan_owner = pthread_self();
  pthread_mutex_unlock(&ps->chan_lock);
}
