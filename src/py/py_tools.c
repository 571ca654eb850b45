/*
 * py_tools.c - host tools: the registry, calls from the sandbox (validated
 * against the tools' JSON schemas, with per-tool timeouts, recorded in the
 * history) and the BM25 search behind host_tools.search.
 *
 * A callback runs on a runner thread while the caller waits with the tool's
 * timeout. The worker channel is lent to the runner for that time (P1 of
 * python.c), and so is the store when the caller holds it on loan (a shell
 * script waiting in python3/tool, py_loan.c), so the callback may call back
 * into the same sandbox: files, sbx_bash, Python. A tool call made while
 * every runner is busy (a callback's nested call reached another tool) gets
 * a new runner, up to PY_MAX_RUNNERS. On a timeout the runner is abandoned:
 * its job is marked, the sandbox gets "[timeout] ...", the late result is
 * dropped, and the loan is taken back first, so its later calls wait for the
 * sandbox like any other thread's. The caller never abandons a runner that is
 * inside a nested Python call or a C API call on the loan (it waits for that
 * call, which has its own time limit), so neither the channel nor the store
 * ever has two users. sbx_close joins every runner.
 *
 * Search: BM25 (k1 1.2, b 0.75) over three fields with weights name 3.5,
 * description 1.5, schema text 0.35, combined as BM25F (weighted term
 * frequencies and lengths). Tokens are runs of letters and digits, lower-case,
 * split at camelCase boundaries.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "py/py_int.h"

/* Runner threads alive at most (idle, busy and abandoned). */
#define PY_MAX_RUNNERS 32

/* ---- the registry ------------------------------------------------------------------ */

static int valid_tool_name(const char *n) {
  size_t l = n ? strlen(n) : 0;
  if (l == 0 || l > 255) return 0;
  for (size_t i = 0; i < l; i++)
    if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != '.' && n[i] != '-') return 0;
  return 1;
}

static void tool_free(py_tool *t) {
  free(t->name);
  free(t->description);
  json_decref(t->input_schema);
  json_decref(t->output_schema);
  free(t->schema_text);
}

static py_tool *find_tool(py_state *ps, const char *name) {
  for (size_t i = 0; i < ps->ntools; i++)
    if (strcmp(ps->tools[i].name, name) == 0) return &ps->tools[i];
  return NULL;
}

static int parse_schema(sbx *h, const char *text, const char *tool, const char *which, json_t **out) {
  *out = NULL;
  if (!text) return SBX_OK;
  json_error_t je;
  json_t *s = json_loads(text, JSON_DECODE_ANY, &je);
  if (!s) return sandbox_fail(h, SBX_MISUSE, "tools: %s schema of '%s': invalid JSON: %s", which, tool, je.text);
  if (!py_schema_check(s)) {
    json_decref(s);
    return sandbox_fail(h, SBX_MISUSE, "tools: %s schema of '%s' must be an object or a boolean "
                        "(nested at most 64 deep)", which, tool);
  }
  *out = s;
  return SBX_OK;
}

int sbx_tools_register(sbx *h, const sbx_tool_def *defs, size_t n, sbx_tool_fn fn, void *ud) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if ((n && !defs) || !fn) return sandbox_fail(h, SBX_MISUSE, "tools: definitions and a callback are needed");
  py_state *ps = py_state_get(h);
  if (!ps) return sandbox_fail(h, SBX_NOMEM, "tools: out of memory");
  /* Parse everything first: a bad definition declares nothing. */
  py_tool *add = calloc(n ? n : 1, sizeof *add);
  if (!add) return sandbox_fail(h, SBX_NOMEM, "tools: out of memory");
  int rc = SBX_OK;
  for (size_t i = 0; i < n && rc == SBX_OK; i++) {
    const sbx_tool_def *d = &defs[i];
    if (!valid_tool_name(d->name)) {
      rc = sandbox_fail(h, SBX_MISUSE, "tools: invalid tool name '%.64s' (1..255 of A-Z a-z 0-9 _ . -)",
                        d->name ? d->name : "(null)");
      break;
    }
    if (d->timeout < 0 || isnan(d->timeout)) {
      rc = sandbox_fail(h, SBX_MISUSE, "tools: negative timeout for '%s'", d->name);
      break;
    }
    py_tool *t = &add[i];
    t->name = strdup(d->name);
    t->description = strdup(d->description ? d->description : "");
    t->timeout = d->timeout > 0 ? d->timeout : PY_TOOL_TIMEOUT;
    t->fn = fn;
    t->ud = ud;
    if (!t->name || !t->description) rc = sandbox_fail(h, SBX_NOMEM, "tools: out of memory");
    if (rc == SBX_OK) rc = parse_schema(h, d->input_schema, d->name, "input", &t->input_schema);
    if (rc == SBX_OK) rc = parse_schema(h, d->output_schema, d->name, "output", &t->output_schema);
    if (rc == SBX_OK) {
      size_t l = (d->input_schema ? strlen(d->input_schema) : 0) +
                 (d->output_schema ? strlen(d->output_schema) : 0) + 2;
      t->schema_text = malloc(l);
      if (!t->schema_text) rc = sandbox_fail(h, SBX_NOMEM, "tools: out of memory");
      else snprintf(t->schema_text, l, "%s %s", d->input_schema ? d->input_schema : "",
                    d->output_schema ? d->output_schema : "");
    }
  }
  if (rc != SBX_OK) {
    for (size_t i = 0; i < n; i++) tool_free(&add[i]);
    free(add);
    return rc;
  }
  for (size_t i = 0; i < n; i++) {
    py_tool *old = find_tool(ps, add[i].name);
    if (old) {
      tool_free(old);
      *old = add[i];
      continue;
    }
    if (ps->ntools == ps->tools_cap) {
      size_t cap = ps->tools_cap ? ps->tools_cap * 2 : 8;
      py_tool *nt = realloc(ps->tools, cap * sizeof *nt);
      if (!nt) {
        for (size_t k = i; k < n; k++) tool_free(&add[k]);
        free(add);
        return sandbox_fail(h, SBX_NOMEM, "tools: out of memory");
      }
      ps->tools = nt;
      ps->tools_cap = cap;
    }
    ps->tools[ps->ntools++] = add[i];
  }
  free(add);
  return SBX_OK;
}

int sbx_tools_clear(sbx *h) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  py_state *ps = h->py;
  if (!ps) return SBX_OK;
  for (size_t i = 0; i < ps->ntools; i++) tool_free(&ps->tools[i]);
  ps->ntools = 0;
  return SBX_OK;
}

/* ---- runners -------------------------------------------------------------------------- */

static void job_free(py_job *j) {
  free(j->name);
  free(j->args);
  free(j->result);
  free(j->error);
  free(j);
}

static void *runner_main(void *arg) {
  py_runner *r = arg;
  pthread_mutex_lock(&r->lock);
  for (;;) {
    while (!r->job && !r->quit) pthread_cond_wait(&r->cond, &r->lock);
    if (!r->job) break;
    py_job *j = r->job;
    r->busy = 1;
    pthread_mutex_unlock(&r->lock);
    char *res = NULL, *err = NULL;
    int rc = j->fn(j->ud, j->h, j->name, j->args, &res, &err);
    pthread_mutex_lock(&r->lock);
    j->rc = rc;
    j->result = res;
    j->error = err;
    j->done = 1;
    r->job = NULL;
    r->busy = 0;
    if (j->abandoned) {
      /* Nobody waits any more: drop the late result and end this runner. */
      job_free(j);
      break;
    }
    pthread_cond_broadcast(&r->cond);
  }
  pthread_mutex_unlock(&r->lock);
  return NULL;
}

static size_t runner_count(const py_runner *r) {
  size_t n = 0;
  for (; r; r = r->next) n++;
  return n;
}

/* Reserves an idle runner, starting one when all are busy. Returns it, or
 * NULL (no thread, or too many). */
static py_runner *runner_reserve(py_state *ps) {
  pthread_mutex_lock(&ps->runners_lock);
  py_runner *r = ps->runners;
  for (; r; r = r->next) {
    pthread_mutex_lock(&r->lock);
    int idle = !r->job && !r->busy && !r->reserved;
    if (idle) r->reserved = 1;
    pthread_mutex_unlock(&r->lock);
    if (idle) break;
  }
  if (!r && runner_count(ps->runners) + runner_count(ps->abandoned) < PY_MAX_RUNNERS &&
      (r = calloc(1, sizeof *r))) {
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
    r->reserved = 1;
    if (pthread_create(&r->thread, NULL, runner_main, r) != 0) {
      pthread_mutex_destroy(&r->lock);
      pthread_cond_destroy(&r->cond);
      free(r);
      r = NULL;
    } else {
      r->next = ps->runners;
      ps->runners = r;
    }
  }
  pthread_mutex_unlock(&ps->runners_lock);
  return r;
}

/* Moves r from the runners to the abandoned list. */
static void runner_abandon(py_state *ps, py_runner *r) {
  pthread_mutex_lock(&ps->runners_lock);
  for (py_runner **pp = &ps->runners; *pp; pp = &(*pp)->next)
    if (*pp == r) {
      *pp = r->next;
      break;
    }
  r->next = ps->abandoned;
  ps->abandoned = r;
  pthread_mutex_unlock(&ps->runners_lock);
}

static void runner_join(py_runner *r) {
  pthread_mutex_lock(&r->lock);
  r->quit = 1;
  pthread_cond_broadcast(&r->cond);
  pthread_mutex_unlock(&r->lock);
  pthread_join(r->thread, NULL);
  pthread_mutex_destroy(&r->lock);
  pthread_cond_destroy(&r->cond);
  free(r);
}

void py_tools_free(py_state *ps) {
  for (size_t i = 0; i < ps->ntools; i++) tool_free(&ps->tools[i]);
  free(ps->tools);
  ps->tools = NULL;
  ps->ntools = ps->tools_cap = 0;
  /* Abandoned runners end after their callback returns; wait for them too,
   * since they still use the handle. */
  for (int list = 0; list < 2; list++) {
    pthread_mutex_lock(&ps->runners_lock);
    py_runner *r = list == 0 ? ps->runners : ps->abandoned;
    if (list == 0) ps->runners = NULL;
    else ps->abandoned = NULL;
    pthread_mutex_unlock(&ps->runners_lock);
    for (py_runner *n; r; r = n) {
      n = r->next;
      runner_join(r);
    }
  }
}

/* Runs the callback with the tool's timeout. Returns 0 when it returned (rc,
 * result and error in the job), -ETIMEDOUT when it was abandoned (the job then
 * belongs to the runner), -EAGAIN when no runner could start. */
static int run_callback(py_state *ps, py_job *j, double timeout) {
  pthread_t self = pthread_self();
  py_runner *r = runner_reserve(ps);
  if (!r) return -EAGAIN;
  /* Lend the channel if we hold it (P1 of python.c), and the loan if it is
   * ours (py_loan.c), before the callback can look at them. */
  pthread_mutex_lock(&ps->chan_lock);
  int lent = ps->chan_depth > 0 && pthread_equal(ps->chan_owner, self);
  int depth0 = ps->chan_depth;
  if (lent) ps->chan_owner = r->thread;
  pthread_mutex_unlock(&ps->chan_lock);
  py_loan_handoff ho;
  py_loan_pass(ps, r->thread, &ho);

  double deadline = py_now() + timeout;
  int abandoned = 0;
  /* Lock order: a runner's lock, then chan_lock. */
  pthread_mutex_lock(&r->lock);
  r->job = j;
  r->reserved = 0;
  pthread_cond_broadcast(&r->cond);
  for (;;) {
    if (j->done) break;
    double t = py_now();
    if (t >= deadline) {
      pthread_mutex_lock(&ps->chan_lock);
      /* Abandon only when the callback is inside no nested call (L3 of
       * py_loan.c); the channel and the loan come back to us first. */
      if ((!lent || ps->chan_depth == depth0) && py_loan_revoke_locked(ps, &ho)) {
        j->abandoned = 1;
        abandoned = 1;
        if (lent) ps->chan_owner = self;
      }
      pthread_mutex_unlock(&ps->chan_lock);
      if (abandoned) break;
    }
    double until = t >= deadline ? t + 0.01 : (deadline - t > 0.05 ? t + 0.05 : deadline);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double wait = until - t;
    ts.tv_sec += (time_t)wait;
    ts.tv_nsec += (long)((wait - floor(wait)) * 1e9);
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&r->cond, &r->lock, &ts);
  }
  pthread_mutex_unlock(&r->lock);
  if (abandoned) {
    runner_abandon(ps, r);
    return -ETIMEDOUT;
  }
  py_loan_take_back(ps, &ho);
  if (lent) {
    pthread_mutex_lock(&ps->chan_lock);
    ps->chan_owner = self;
    pthread_mutex_unlock(&ps->chan_lock);
  }
  return 0;
}

/* ---- one tool call ------------------------------------------------------------------------- */

/* The outcome of a tool call. */
typedef struct tool_outcome {
  char *result;      /* JSON text (malloc'd) on success */
  const char *kind;  /* on failure: permission_error, validation_error, timeout, internal_error */
  char msg[1024];    /* on failure */
} tool_outcome;

static int outcome_fail(tool_outcome *o, const char *kind, const char *fmt, const char *a, const char *b) {
  o->kind = kind;
  snprintf(o->msg, sizeof o->msg, fmt, a, b);
  return -1;
}

static int invoke(sbx *h, py_state *ps, const char *name, const char *args, tool_outcome *o) {
  memset(o, 0, sizeof *o);
  int rc = -1;
  json_error_t je;
  json_t *payload = json_loads(args, JSON_DECODE_ANY, &je);
  /* Every attempt is recorded, refused ones included (with their payload
   * when it is JSON). */
  int64_t hid = -1;
  int tk = py_store_enter(h, ps);
  if (store_call_start(h->st, name, payload ? args : NULL, &hid) < 0) hid = -1;
  py_store_leave(h, ps, tk);
  py_tool *t = find_tool(ps, name);
  /* Copy what we need: a callback may re-register tools. */
  double timeout = t ? t->timeout : 0;
  sbx_tool_fn fn = t ? t->fn : NULL;
  void *ud = t ? t->ud : NULL;
  json_t *in_schema = t && t->input_schema ? json_incref(t->input_schema) : NULL;
  json_t *out_schema = t && t->output_schema ? json_incref(t->output_schema) : NULL;
  char verr[300];
  if (!t) {
    outcome_fail(o, "permission_error", "tool '%.255s' is not declared%s", name, "");
    goto finish;
  }
  if (!payload) {
    outcome_fail(o, "validation_error", "payload of '%.255s' is not valid JSON: %s", name, je.text);
    goto finish;
  }
  if (py_schema_validate(in_schema, payload, verr, sizeof verr)) {
    outcome_fail(o, "validation_error", "payload of '%.255s': %s", name, verr);
    goto finish;
  }
  py_job *j = calloc(1, sizeof *j);
  if (j) {
    j->h = h;
    j->fn = fn;
    j->ud = ud;
    j->name = strdup(name);
    j->args = strdup(args);
  }
  if (!j || !j->name || !j->args) {
    if (j) job_free(j);
    outcome_fail(o, "internal_error", "out of memory calling '%.255s'%s", name, "");
    goto finish;
  }
  int r = run_callback(ps, j, timeout);
  if (r == -ETIMEDOUT) {
    char secs[32];
    snprintf(secs, sizeof secs, "%g", timeout);
    outcome_fail(o, "timeout", "tool '%.255s' did not answer within %s s", name, secs);
    goto finish; /* the runner owns j now */
  }
  if (r != 0) {
    job_free(j);
    outcome_fail(o, "internal_error", "cannot run tool '%.255s': %s", name,
                 "no runner thread (too many nested tool calls?)");
    goto finish;
  }
  if (j->rc != 0) {
    outcome_fail(o, "internal_error", "tool '%.255s' failed: %.200s", name,
                 j->error ? j->error : "(no message)");
    job_free(j);
    goto finish;
  }
  json_t *res = j->result ? json_loads(j->result, JSON_DECODE_ANY, &je) : NULL;
  if (!res) {
    outcome_fail(o, "internal_error", "tool '%.255s' returned %s", name,
                 j->result ? "invalid JSON" : "no result");
  } else if (py_schema_validate(out_schema, res, verr, sizeof verr)) {
    outcome_fail(o, "validation_error", "result of '%.255s': %s", name, verr);
  } else {
    o->result = json_dumps(res, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!o->result) outcome_fail(o, "internal_error", "out of memory in '%.255s'%s", name, "");
    else rc = 0;
  }
  json_decref(res);
  job_free(j);
finish:
  if (hid >= 0) {
    char err[1100];
    snprintf(err, sizeof err, "[%s] %s", o->kind ? o->kind : "", o->msg);
    tk = py_store_enter(h, ps);
    store_call_finish(h->st, hid, rc == 0 ? o->result : NULL, rc == 0 ? NULL : err);
    py_store_leave(h, ps, tk);
  }
  json_decref(payload);
  json_decref(in_schema);
  json_decref(out_schema);
  return rc;
}

/* ---- BM25 search ----------------------------------------------------------------------------- */

#define BM25_K1 1.2
#define BM25_B 0.75
static const double field_weight[3] = {3.5, 1.5, 0.35};

/* Lower-case tokens of `s`, split at non-alphanumerics and camelCase. */
static size_t tokenize(const char *s, char ***out) {
  size_t n = 0, cap = 0;
  char **toks = NULL;
  const char *p = s ? s : "";
  while (*p) {
    while (*p && !isalnum((unsigned char)*p)) p++;
    if (!*p) break;
    const char *start = p++;
    while (*p && isalnum((unsigned char)*p) &&
           !(isupper((unsigned char)*p) && islower((unsigned char)p[-1])))
      p++;
    size_t len = (size_t)(p - start);
    if (len > 64) len = 64;
    if (n == cap) {
      cap = cap ? cap * 2 : 16;
      char **nt = realloc(toks, cap * sizeof *nt);
      if (!nt) break;
      toks = nt;
    }
    char *t = malloc(len + 1);
    if (!t) break;
    for (size_t i = 0; i < len; i++) t[i] = (char)tolower((unsigned char)start[i]);
    t[len] = 0;
    toks[n++] = t;
  }
  *out = toks;
  return n;
}

static void free_tokens(char **t, size_t n) {
  for (size_t i = 0; i < n; i++) free(t[i]);
  free(t);
}

static size_t count_tok(char **t, size_t n, const char *w) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (strcmp(t[i], w) == 0) c++;
  return c;
}

typedef struct scored {
  const py_tool *tool; /* the tool */
  double score;        /* its BM25F score */
} scored;

static int by_score(const void *a, const void *b) {
  const scored *x = a, *y = b;
  if (x->score != y->score) return x->score < y->score ? 1 : -1;
  return strcmp(x->tool->name, y->tool->name);
}

static char *search_json(py_state *ps, const char *query, int full, int limit) {
  size_t nt = ps ? ps->ntools : 0;
  if (limit <= 0) limit = 10;
  if (limit > 100) limit = 100;
  char **q;
  size_t nq = tokenize(query, &q);
  /* Per tool and field: tokens. */
  char ***toks = calloc(nt * 3 + 1, sizeof *toks);
  size_t *ntok = calloc(nt * 3 + 1, sizeof *ntok);
  scored *sc = calloc(nt + 1, sizeof *sc);
  json_t *arr = json_array();
  if (!toks || !ntok || !sc || !arr) goto out;
  double avg[3] = {0, 0, 0};
  for (size_t i = 0; i < nt; i++) {
    const py_tool *t = &ps->tools[i];
    ntok[i * 3] = tokenize(t->name, &toks[i * 3]);
    ntok[i * 3 + 1] = tokenize(t->description, &toks[i * 3 + 1]);
    ntok[i * 3 + 2] = tokenize(t->schema_text, &toks[i * 3 + 2]);
    for (int f = 0; f < 3; f++) avg[f] += (double)ntok[i * 3 + f];
  }
  for (int f = 0; f < 3; f++) avg[f] = nt ? avg[f] / (double)nt : 0;
  for (size_t i = 0; i < nt; i++) {
    sc[i].tool = &ps->tools[i];
    for (size_t k = 0; k < nq; k++) {
      int dup = 0;
      for (size_t m = 0; m < k; m++)
        if (strcmp(q[m], q[k]) == 0) dup = 1;
      if (dup) continue;
      size_t df = 0;
      for (size_t d = 0; d < nt; d++) {
        int has = 0;
        for (int f = 0; f < 3 && !has; f++) has = count_tok(toks[d * 3 + f], ntok[d * 3 + f], q[k]) > 0;
        df += (size_t)has;
      }
      if (!df) continue;
      double idf = log(1.0 + ((double)nt - (double)df + 0.5) / ((double)df + 0.5));
      double tfw = 0;
      for (int f = 0; f < 3; f++) {
        double tf = (double)count_tok(toks[i * 3 + f], ntok[i * 3 + f], q[k]);
        double norm = 1.0 - BM25_B + BM25_B * (avg[f] > 0 ? (double)ntok[i * 3 + f] / avg[f] : 0);
        tfw += field_weight[f] * tf / norm;
      }
      sc[i].score += idf * tfw * (BM25_K1 + 1) / (tfw + BM25_K1);
    }
  }
  qsort(sc, nt, sizeof *sc, by_score);
  for (size_t i = 0; i < nt && (int)json_array_size(arr) < limit; i++) {
    if (nq > 0 && sc[i].score <= 0) break;
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(sc[i].tool->name));
    json_object_set_new(o, "description", json_string(sc[i].tool->description));
    json_object_set_new(o, "score", json_real(round(sc[i].score * 1e4) / 1e4));
    if (full) {
      json_object_set(o, "input_schema", sc[i].tool->input_schema ? sc[i].tool->input_schema : json_null());
      json_object_set(o, "output_schema", sc[i].tool->output_schema ? sc[i].tool->output_schema : json_null());
    }
    json_array_append_new(arr, o);
  }
out:
  for (size_t i = 0; toks && i < nt * 3; i++) free_tokens(toks[i], ntok[i]);
  free(toks);
  free(ntok);
  free(sc);
  free_tokens(q, nq);
  char *text = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
  json_decref(arr);
  return text;
}

/* ---- serving the worker ---------------------------------------------------------------------- */

void py_tools_serve(sbx *h, const py_msg *m) {
  py_state *ps = h->py;
  uint32_t id = m->id;
  char *result = NULL;
  tool_outcome o;
  memset(&o, 0, sizeof o);
  if (m->type == PY_MSG_TOOL_SEARCH) {
    char *q = py_msg_strdup(m, PY_T_QUERY), *detail = py_msg_strdup(m, PY_T_DETAIL);
    int limit = (int)(py_msg_u64(m, PY_T_LIMIT, 10) > 100 ? 100 : py_msg_u64(m, PY_T_LIMIT, 10));
    result = q ? search_json(ps, q, detail && strcmp(detail, "full") == 0, limit) : NULL;
    if (!result) outcome_fail(&o, "internal_error", "search failed%s%s", "", "");
    free(q);
    free(detail);
  } else {
    /* Copy out of the message: the callback may run nested calls that reuse it. */
    char *name = py_msg_strdup(m, PY_T_NAME), *args = py_msg_strdup(m, PY_T_JSON);
    if (!name || !args) outcome_fail(&o, "internal_error", "out of memory%s%s", "", "");
    else if (invoke(h, ps, name, args, &o) == 0) result = o.result, o.result = NULL;
    free(name);
    free(args);
  }
  if (!ps->running) {
    free(result); /* the worker was stopped meanwhile (a nested call killed it) */
    return;
  }
  py_msg_begin(&ps->out, PY_MSG_TOOL_REPLY, id);
  py_msg_add_u64(&ps->out, PY_T_STATUS, result ? 0 : 1);
  if (result) {
    py_msg_add_str(&ps->out, PY_T_JSON, result);
  } else {
    py_msg_add_str(&ps->out, PY_T_ERRKIND, o.kind ? o.kind : "internal_error");
    py_msg_add_str(&ps->out, PY_T_MESSAGE, o.msg);
  }
  if (py_msg_end(&ps->out) != 0) {
    py_msg_begin(&ps->out, PY_MSG_TOOL_REPLY, id);
    py_msg_add_u64(&ps->out, PY_T_STATUS, 1);
    py_msg_add_str(&ps->out, PY_T_ERRKIND, "internal_error");
    py_msg_add_str(&ps->out, PY_T_MESSAGE, "the tool's result is larger than 16 MiB");
    py_msg_end(&ps->out);
  }
  free(result);
  /* Tool callbacks may have changed files: the jail sees them now. */
  py_sync_view(h, ps);
  if (py_send(ps) != 0) py_stop_worker(ps);
}

int py_tool_call(sbx *h, const char *name, const char *args, int store_held, char **result,
                 char *msg, size_t msglen) {
  *result = NULL;
  py_state *ps = py_state_get(h);
  if (!ps) {
    snprintf(msg, msglen, "[internal_error] out of memory");
    return -1;
  }
  /* The `tool` command's shell holds the store (store_held): the call opens
   * or joins the loan, like python3, so the callback can use the sandbox. A
   * C API call joins it when made by the loan's owner (a callback). */
  py_loan_frame f;
  py_loan_begin(ps, store_held, &f);
  py_loan_release(ps, &f);
  tool_outcome o;
  int r = invoke(h, ps, name, args ? args : "{}", &o);
  py_loan_restore(ps, &f);
  py_loan_end(ps, &f);
  if (r != 0) {
    snprintf(msg, msglen, "[%s] %s", o.kind, o.msg);
    return -1;
  }
  *result = o.result;
  return 0;
}

int sbx_tool_call(sbx *h, const char *name, const char *args_json, char **result_json) {
  if (result_json) *result_json = NULL;
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!name || !result_json) return sandbox_fail(h, SBX_MISUSE, "tool: name and result must not be NULL");
  char msg[1100];
  if (py_tool_call(h, name, args_json, 0, result_json, msg, sizeof msg) != 0)
    return sandbox_fail(h, SBX_ERROR, "%s", msg);
  return SBX_OK;
}

int sbx_tools_search(sbx *h, const char *query, const char *detail, int limit, char **json) {
  if (json) *json = NULL;
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (!json) return sandbox_fail(h, SBX_MISUSE, "tools search: NULL output");
  if (detail && strcmp(detail, "brief") != 0 && strcmp(detail, "full") != 0)
    return sandbox_fail(h, SBX_MISUSE, "tools search: detail must be \"brief\" or \"full\"");
  *json = search_json(h->py, query ? query : "", detail && strcmp(detail, "full") == 0, limit);
  if (!*json) return sandbox_fail(h, SBX_NOMEM, "tools search: out of memory");
  return SBX_OK;
}
