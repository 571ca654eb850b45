/*
 * re_pike.c - the Pike VM (submatches in linear time) and the budgeted
 * backtracker (back-references), plus the step accounting and assertion
 * tests they share with the DFA.
 *
 * Pike VM: all threads advance together over the subject, one list per
 * position, at most one thread per instruction; a thread's epsilon closure is
 * computed with an explicit stack (no recursion: programs can have 200k
 * instructions). Threads are kept in priority order (the order a backtracking
 * search would try them), so when two threads reach the same instruction the
 * higher-priority one keeps its captures. Leftmost-longest: a match replaces
 * the recorded one only if it starts earlier or, starting at the same place,
 * ends later; once a match is known, no new threads start and threads that
 * started later are dropped. Cost: O(len * program) time, O(program *
 * slots) memory.
 *
 * Backtracker: depth-first over the same program with an explicit stack of
 * choice points and undo records, exploring every path from a start position
 * to keep the longest match (back-references make the language non-regular,
 * so nothing better is known). Loops whose body can match empty carry
 * MARK/CHECK progress guards. It is exponential in the worst case, hence the
 * step budget (RE_ELIMIT) and a cap on its stack.
 */
#include <stdlib.h>
#include <string.h>

#include "re/re_int.h"

/* ---- steps and assertions ------------------------------------------------------ */

int re_run_tick(re_run *run, uint64_t n) {
  run->steps += n;
  if (run->steps > run->max_steps) return RE_ELIMIT;
  if (run->steps >= run->next_poll) {
    run->next_poll = run->steps + RE_POLL_INTERVAL;
    if (run->ctl && run->ctl->poll && run->ctl->poll(run->ctl->ud)) return RE_ECANCEL;
  }
  return 0;
}

/* Is the character ending at p a word constituent? */
static bool word_before(const re_run *run, size_t p) {
  if (p == 0) return false;
  unsigned c = run->s[p - 1];
  if (c < 0x80 || !(run->cflags & RE_UTF8)) return c == '_' || (c < 0x80 && re_is_word_cp(c));
  size_t b = p - 1;
  int k = 0;
  while (b > 0 && k < 3 && (run->s[b] & 0xC0) == 0x80) b--, k++;
  uint32_t cp;
  int l = re_utf8_decode(run->s + b, run->len - b, &cp);
  if (l <= 0 || b + (size_t)l != p) return false;
  return re_is_word_cp(cp);
}

static bool word_after(const re_run *run, size_t p) {
  if (p >= run->len) return false;
  unsigned c = run->s[p];
  if (c < 0x80 || !(run->cflags & RE_UTF8)) return c < 0x80 && re_is_word_cp(c);
  uint32_t cp;
  int l = re_utf8_decode(run->s + p, run->len - p, &cp);
  return l > 0 && re_is_word_cp(cp);
}

bool re_assert_at(const re_run *run, int kind, size_t p) {
  bool ml = (run->cflags & (RE_NEWLINE | RE_MULTILINE)) != 0;
  switch (kind) {
  case RA_BOL:
    return (p == 0 && !(run->eflags & RE_NOTBOL)) || (ml && p > 0 && run->s[p - 1] == '\n');
  case RA_EOL:
    return (p == run->len && !(run->eflags & RE_NOTEOL)) || (ml && p < run->len && run->s[p] == '\n');
  case RA_BOT: return p == 0;
  case RA_EOT: return p == run->len;
  case RA_WORDB: return word_before(run, p) != word_after(run, p);
  case RA_NWORDB: return word_before(run, p) == word_after(run, p);
  case RA_WBEG: return !word_before(run, p) && word_after(run, p);
  case RA_WEND: return word_before(run, p) && !word_after(run, p);
  case RA_NOWORD_BEFORE: return !word_before(run, p);
  case RA_NOWORD_AFTER: return !word_after(run, p);
  }
  return false;
}

/* Does instruction `in` consume byte b? Returns the next pc or -1. */
static inline int32_t consume(const re_prog *prog, int32_t pc, unsigned b) {
  const re_inst *in = &prog->ins[pc];
  switch (in->op) {
  case I_BYTE: return in->arg == b ? pc + 1 : -1;
  case I_SET: return re_bit_has(prog->sets[in->x], b) ? pc + 1 : -1;
  case I_DISPATCH: {
    const re_dent *d = prog->dents + in->x;
    int32_t lo = 0, hi = in->y - 1;
    while (lo <= hi) {
      int32_t mid = (lo + hi) / 2;
      if (b < d[mid].lo) hi = mid - 1;
      else if (b > d[mid].hi) lo = mid + 1;
      else return d[mid].to;
    }
    return -1;
  }
  }
  return -1;
}

/* ---- Pike VM --------------------------------------------------------------------------- */

typedef struct tlist {
  int32_t *pc;     /* thread pcs in priority order */
  ptrdiff_t *cap;  /* nslots captures per thread */
  size_t n;        /* threads */
} tlist;

typedef struct pike {
  const re_prog *prog; /* program */
  re_run *run;         /* subject and budget */
  int nslots;          /* captures tracked */
  uint32_t *mark;      /* mark[pc] == stamp: pc already in the list being built */
  uint32_t stamp;      /* current stamp */
  int64_t *stack;      /* closure stack: pc, or ~slot followed by the old value */
  size_t stackcap;     /* its capacity */
  ptrdiff_t *tmp;      /* captures while following epsilons */
} pike;

/* Adds the closure of pc (with captures in pk->tmp) at position p to l.
 * Returns the work done. */
static uint64_t addthread(pike *pk, tlist *l, int32_t pc0, size_t p) {
  const re_prog *prog = pk->prog;
  size_t sp = 0;
  uint64_t work = 0;
  pk->stack[sp++] = pc0;
  while (sp) {
    int64_t e = pk->stack[--sp];
    work++;
    if (e < 0) {
      /* undo record: slot, then value below it */
      int slot = (int)~e;
      pk->tmp[slot] = (ptrdiff_t)pk->stack[--sp];
      continue;
    }
    int32_t pc = (int32_t)e;
    if (pk->mark[pc] == pk->stamp) continue;
    pk->mark[pc] = pk->stamp;
    const re_inst *in = &prog->ins[pc];
    switch (in->op) {
    case I_JMP: pk->stack[sp++] = in->x; break;
    case I_SPLIT:
      pk->stack[sp++] = in->y;
      pk->stack[sp++] = in->x;
      break;
    case I_SAVE:
      if (in->x < pk->nslots) {
        pk->stack[sp++] = pk->tmp[in->x];
        pk->stack[sp++] = ~(int64_t)in->x;
        pk->tmp[in->x] = (ptrdiff_t)p;
      }
      pk->stack[sp++] = pc + 1;
      break;
    case I_ASSERT:
      if (re_assert_at(pk->run, in->arg, p)) pk->stack[sp++] = pc + 1;
      break;
    case I_MARK:
    case I_CHECK: pk->stack[sp++] = pc + 1; break;
    case I_BACKREF: break; /* not handled by the Pike VM */
    default:
      l->pc[l->n] = pc;
      memcpy(l->cap + l->n * (size_t)pk->nslots, pk->tmp, (size_t)pk->nslots * sizeof *pk->tmp);
      l->n++;
      break;
    }
  }
  return work;
}

static void next_stamp(pike *pk) {
  if (++pk->stamp == 0) {
    memset(pk->mark, 0, pk->prog->n * sizeof *pk->mark);
    pk->stamp = 1;
  }
}

void re_pike_mem_free(re_pike_mem *mem) {
  free(mem->mark);
  free(mem->stack);
  free(mem->tmp);
  free(mem->best);
  for (int i = 0; i < 2; i++) {
    free(mem->pc[i]);
    free(mem->cap[i]);
  }
  memset(mem, 0, sizeof *mem);
}

/* Makes mem hold a program of m instructions with nslots captures. */
static int pike_mem_fit(re_pike_mem *mem, size_t m, int nslots) {
  if (mem->m >= m && mem->nslots >= nslots && mem->mark) return 0;
  re_pike_mem_free(mem);
  mem->mark = calloc(m, sizeof *mem->mark);
  mem->stack = malloc((4 * m + 16) * sizeof *mem->stack);
  mem->tmp = malloc((size_t)nslots * sizeof *mem->tmp);
  mem->best = malloc((size_t)nslots * sizeof *mem->best);
  for (int i = 0; i < 2; i++) {
    mem->pc[i] = malloc(m * sizeof *mem->pc[i]);
    mem->cap[i] = malloc(m * (size_t)nslots * sizeof *mem->cap[i]);
  }
  if (!mem->mark || !mem->stack || !mem->tmp || !mem->best || !mem->pc[0] || !mem->pc[1] ||
      !mem->cap[0] || !mem->cap[1]) {
    re_pike_mem_free(mem);
    return -1;
  }
  mem->m = m;
  mem->nslots = nslots;
  mem->stamp = 1;
  return 0;
}

int re_pike_exec(const re_prog *prog, re_run *run, size_t from, bool anchored, ptrdiff_t *caps,
                 int nslots, re_pike_mem *mem) {
  if (nslots < 2) nslots = 2;
  if (nslots > prog->nslots) nslots = prog->nslots;
  size_t m = prog->n;
  re_pike_mem local = {0};
  re_pike_mem *pm = mem ? mem : &local;
  if (pike_mem_fit(pm, m, nslots) < 0) return RE_ENOMEM;
  pike pk = {prog, run, nslots, pm->mark, pm->stamp, pm->stack, 4 * m + 16, pm->tmp};
  tlist a = {pm->pc[0], pm->cap[0], 0}, b = {pm->pc[1], pm->cap[1], 0};
  ptrdiff_t *best = pm->best;
  int rc = RE_ENOMEM;

  tlist *cl = &a, *nl = &b;
  bool matched = false;
  const unsigned char *s = run->s;
  size_t len = run->len;
  bool can_skip = !prog->first_any && !prog->can_empty_start && !anchored;
  int nfirst = 0, firstb = 0;
  for (int c = 0; c < 256 && can_skip; c++)
    if (re_bit_has(prog->first, (unsigned)c)) nfirst++, firstb = c;

  next_stamp(&pk);
  for (size_t p = from;; p++) {
    uint64_t work = 1;
    if (!matched && (!anchored || p == from)) {
      if (cl->n == 0 && can_skip && p < len) {
        /* Nothing alive: jump to the next byte that can start a match. */
        if (nfirst == 1) {
          const unsigned char *q = memchr(s + p, firstb, len - p);
          p = q ? (size_t)(q - s) : len;
        } else {
          while (p < len && !re_bit_has(prog->first, s[p])) p++;
        }
        if (p >= len) break;
        next_stamp(&pk);
      }
      for (int k = 0; k < nslots; k++) pk.tmp[k] = -1;
      pk.tmp[0] = (ptrdiff_t)p;
      work += addthread(&pk, cl, 0, p);
    }
    if (cl->n == 0) {
      if (matched || anchored || p >= len) break;
      next_stamp(&pk);
      continue;
    }
    next_stamp(&pk);
    nl->n = 0;
    unsigned byte = p < len ? s[p] : 256;
    for (size_t i = 0; i < cl->n; i++) {
      int32_t pc = cl->pc[i];
      ptrdiff_t *tc = cl->cap + i * (size_t)nslots;
      if (matched && tc[0] > best[0]) continue;
      if (prog->ins[pc].op == I_MATCH) {
        if (!matched || tc[0] < best[0] || (tc[0] == best[0] && (ptrdiff_t)p > best[1])) {
          memcpy(best, tc, (size_t)nslots * sizeof *best);
          best[1] = (ptrdiff_t)p;
          matched = true;
        }
        continue;
      }
      if (byte == 256) continue;
      int32_t nx = consume(prog, pc, byte);
      if (nx < 0) continue;
      memcpy(pk.tmp, tc, (size_t)nslots * sizeof *pk.tmp);
      work += addthread(&pk, nl, nx, p + 1);
    }
    int t = re_run_tick(run, work + cl->n);
    if (t) {
      rc = t;
      goto out;
    }
    tlist *sw = cl;
    cl = nl;
    nl = sw;
    nl->n = 0;
    if (p >= len) break;
  }
  if (matched) {
    for (int k = 0; k < nslots; k++) caps[k] = best[k];
    rc = RE_MATCH;
  } else {
    rc = RE_NOMATCH;
  }
out:
  pm->stamp = pk.stamp;
  if (!mem) re_pike_mem_free(&local);
  return rc;
}

static int back_exec(const re_prog *prog, re_run *run, size_t from, bool anchored, ptrdiff_t *caps,
                     int nslots, int ns);

/* ---- backtracker ------------------------------------------------------------------------ */

#define BT_STACK_MAX (1u << 22) /* choice points and undo records (RE_ELIMIT beyond) */

typedef struct btent {
  int32_t kind; /* 0 branch, 1 undo capture, 2 undo loop slot */
  int32_t a;    /* pc, or slot */
  ptrdiff_t b;  /* position, or old value */
} btent;

static bool chars_equal_icase(const re_run *run, const unsigned char *x, size_t xl,
                              const unsigned char *y, size_t yl, size_t *used) {
  /* Compares x (the group's text) with a prefix of y; *used = bytes of y. */
  size_t i = 0, j = 0;
  bool utf8 = (run->cflags & RE_UTF8) != 0;
  while (i < xl) {
    if (j >= yl) return false;
    uint32_t a, b;
    int la = utf8 ? re_utf8_decode(x + i, xl - i, &a) : 0;
    int lb = utf8 ? re_utf8_decode(y + j, yl - j, &b) : 0;
    if (la <= 0) a = x[i], la = 1;
    if (lb <= 0) b = y[j], lb = 1;
    if (a != b) {
      uint32_t v[4];
      int n = re_case_variants(a, utf8, v);
      bool ok = false;
      for (int k = 0; k < n; k++) ok |= v[k] == b;
      if (!ok) return false;
    }
    i += (size_t)la;
    j += (size_t)lb;
  }
  *used = j;
  return true;
}

int re_back_exec(const re_prog *prog, re_run *run, size_t from, bool anchored, ptrdiff_t *caps,
                 int nslots) {
  int ns = prog->nslots; /* back-references need every group */
  uint64_t saved_max = run->max_steps;
  if (run->max_steps - run->steps > RE_BACKTRACK_STEPS) run->max_steps = run->steps + RE_BACKTRACK_STEPS;
  int rc = back_exec(prog, run, from, anchored, caps, nslots, ns);
  run->max_steps = saved_max;
  return rc;
}

static int back_exec(const re_prog *prog, re_run *run, size_t from, bool anchored, ptrdiff_t *caps,
                     int nslots, int ns) {
  if (nslots < 2) nslots = 2;
  size_t cap = 1024;
  btent *st = malloc(cap * sizeof *st);
  ptrdiff_t *cur = malloc((size_t)ns * sizeof *cur);
  ptrdiff_t *best = malloc((size_t)ns * sizeof *best);
  ptrdiff_t *loops = calloc((size_t)prog->nloops + 1, sizeof *loops);
  int rc = RE_ENOMEM;
  if (!st || !cur || !best || !loops) goto out;
  const unsigned char *s = run->s;
  size_t len = run->len;
  bool icase = (run->cflags & RE_NOCASE) != 0;
  bool can_skip = !prog->first_any && !prog->can_empty_start;
  rc = RE_NOMATCH;
  for (size_t start = from; start <= len; start++) {
    if (anchored && start != from) break;
    if (can_skip) {
      while (start < len && !re_bit_has(prog->first, s[start])) start++;
      if (start >= len) break;
    }
    bool matched = false;
    for (int k = 0; k < ns; k++) cur[k] = -1;
    cur[0] = (ptrdiff_t)start;
    size_t sp = 0;
    st[sp++] = (btent){0, 0, (ptrdiff_t)start};
    uint64_t work = 0;
    while (sp) {
      btent e = st[--sp];
      if (e.kind == 1) {
        cur[e.a] = e.b;
        continue;
      }
      if (e.kind == 2) {
        loops[e.a] = e.b;
        continue;
      }
      int32_t pc = e.a;
      size_t p = (size_t)e.b;
      for (;;) {
        if (++work >= 4096) {
          int t = re_run_tick(run, work);
          work = 0;
          if (t) {
            rc = t;
            goto out;
          }
        }
        if (sp + 2 >= cap) {
          if (cap >= BT_STACK_MAX) {
            rc = RE_ELIMIT;
            goto out;
          }
          btent *n2 = realloc(st, cap * 2 * sizeof *st);
          if (!n2) {
            rc = RE_ENOMEM;
            goto out;
          }
          st = n2;
          cap *= 2;
        }
        const re_inst *in = &prog->ins[pc];
        int32_t nx;
        switch (in->op) {
        case I_BYTE:
        case I_SET:
        case I_DISPATCH:
          if (p >= len || (nx = consume(prog, pc, s[p])) < 0) goto fail;
          pc = nx;
          p++;
          continue;
        case I_SPLIT:
          st[sp++] = (btent){0, in->y, (ptrdiff_t)p};
          pc = in->x;
          continue;
        case I_JMP: pc = in->x; continue;
        case I_SAVE:
          st[sp++] = (btent){1, in->x, cur[in->x]};
          cur[in->x] = (ptrdiff_t)p;
          pc++;
          continue;
        case I_ASSERT:
          if (!re_assert_at(run, in->arg, p)) goto fail;
          pc++;
          continue;
        case I_MARK:
          st[sp++] = (btent){2, in->x, loops[in->x]};
          loops[in->x] = (ptrdiff_t)p;
          pc++;
          continue;
        case I_CHECK:
          pc = (ptrdiff_t)p <= loops[in->x] ? in->y : pc + 1;
          continue;
        case I_BACKREF: {
          ptrdiff_t gs = cur[2 * in->x], ge = cur[2 * in->x + 1];
          if (gs < 0 || ge < gs) goto fail;
          size_t gl = (size_t)(ge - gs), used = gl;
          if (icase) {
            if (!chars_equal_icase(run, s + gs, gl, s + p, len - p, &used)) goto fail;
          } else if (gl > len - p || memcmp(s + gs, s + p, gl) != 0) {
            goto fail;
          }
          work += gl;
          p += used;
          pc++;
          continue;
        }
        case I_MATCH:
          if (!matched || (ptrdiff_t)p > best[1]) {
            memcpy(best, cur, (size_t)ns * sizeof *best);
            best[1] = (ptrdiff_t)p;
            matched = true;
            if (p == len) goto done; /* cannot get longer */
          }
          goto fail;
        }
      fail:
        break;
      }
    }
  done:
    if (matched) {
      for (int k = 0; k < nslots; k++) caps[k] = k < ns ? best[k] : -1;
      rc = RE_MATCH;
      goto out;
    }
    int t = re_run_tick(run, work + 1);
    if (t) {
      rc = t;
      goto out;
    }
  }
out:
  free(st);
  free(cur);
  free(best);
  free(loops);
  return rc;
}
