/*
 * tsort - topological sort of the pairs in a file (GNU coreutils 9.1).
 *
 *   tsort [FILE]
 *
 * The input is a list of whitespace-separated tokens taken in pairs "A B"
 * (A comes before B); "A A" only names A. The output order is GNU's, which
 * follows Knuth's algorithm T: the items without predecessors are queued in
 * strcmp order, each output item releases its successors in the reverse
 * order of their relations (the queue takes them as they reach zero), and
 * when items remain the graph has a loop: GNU's walk finds one, prints it on
 * stderr ("tsort: FILE: input contains a loop:", then one "tsort: ITEM" line
 * each), removes one relation and goes on; exit status 1.
 *
 * Bounds: the input is read whole up to the sandbox's string limit; the
 * loops poll for cancel/timeout.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("tsort", cmd_tsort_main);

typedef struct ts_succ {
  size_t item;
  struct ts_succ *next;
} ts_succ;

typedef struct ts_item {
  const char *str; /* NULL once printed */
  size_t count;    /* predecessors not yet output */
  ts_succ *top;    /* successors, the latest relation first */
  long qlink;      /* next in the queue / loop chain, -1 = none */
} ts_item;

typedef struct tsort {
  cmd_ctx *ctx;
  ts_item *items;
  size_t n, cap;
  size_t *slot; /* hash table of item index + 1 (0 = empty) */
  size_t nslots;
  size_t *order; /* item indices in strcmp order */
  long loop;     /* GNU's detect_loop state, -1 = none */
} tsort;

static uint64_t ts_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int ts_grow(tsort *t) {
  size_t ns = t->nslots ? t->nslots * 2 : 1024;
  size_t *slot = calloc(ns, sizeof *slot);
  if (!slot) return -ENOMEM;
  for (size_t i = 0; i < t->nslots; i++) {
    if (!t->slot[i]) continue;
    size_t h = (size_t)ts_hash(t->items[t->slot[i] - 1].str) & (ns - 1);
    while (slot[h]) h = (h + 1) & (ns - 1);
    slot[h] = t->slot[i];
  }
  free(t->slot);
  t->slot = slot;
  t->nslots = ns;
  return 0;
}

/* The index of the item named s (added when new), or a negative errno. */
static long ts_item_of(tsort *t, const char *s) {
  if ((t->n + 1) * 2 > t->nslots && ts_grow(t) < 0) return -ENOMEM;
  size_t h = (size_t)ts_hash(s) & (t->nslots - 1);
  while (t->slot[h]) {
    if (strcmp(t->items[t->slot[h] - 1].str, s) == 0) return (long)t->slot[h] - 1;
    h = (h + 1) & (t->nslots - 1);
  }
  if (cmd_grow(&t->items, &t->cap, t->n + 1, sizeof *t->items)) return -ENOMEM;
  t->items[t->n] = (ts_item){s, 0, NULL, -1};
  t->slot[h] = ++t->n;
  return (long)t->n - 1;
}

static int ts_relate(tsort *t, size_t j, size_t k) {
  if (strcmp(t->items[j].str, t->items[k].str) == 0) return 0;
  ts_succ *p = cmd_alloc(t->ctx, sizeof *p);
  if (!p) return -ENOMEM;
  t->items[k].count++;
  p->item = k;
  p->next = t->items[j].top;
  t->items[j].top = p;
  return 0;
}

/* qsort's context (qsort_r would do; this keeps to C11 + one thread per call) */
static _Thread_local const ts_item *ts_sort_items;

static int ts_cmp(const void *a, const void *b) {
  return strcmp(ts_sort_items[*(const size_t *)a].str,
                ts_sort_items[*(const size_t *)b].str);
}

/* GNU's detect_loop for one item; true when a loop was printed and broken. */
static bool ts_detect(tsort *t, size_t k, const char *file) {
  ts_item *it = &t->items[k];
  if (it->count == 0) return false;
  if (t->loop < 0) {
    t->loop = (long)k;
    return false;
  }
  for (ts_succ **p = &it->top; *p; p = &(*p)->next) {
    if ((long)(*p)->item != t->loop) continue;
    if (it->qlink >= 0) {
      cmd_errorf(t->ctx, "%s: input contains a loop:", file);
      while (t->loop >= 0) {
        long next = t->items[t->loop].qlink;
        cmd_errorf(t->ctx, "%s", t->items[t->loop].str);
        if (t->loop == (long)k) {
          t->items[(*p)->item].count--;
          *p = (*p)->next;
          break;
        }
        t->items[t->loop].qlink = -1;
        t->loop = next;
      }
      while (t->loop >= 0) {
        long next = t->items[t->loop].qlink;
        t->items[t->loop].qlink = -1;
        t->loop = next;
      }
      return true;
    }
    it->qlink = t->loop;
    t->loop = (long)k;
    break;
  }
  return false;
}

static int ts_run(tsort *t, char *data, size_t len, const char *file) {
  /* tokens, in place */
  long prev = -1;
  size_t ntok = 0;
  for (size_t i = 0; i < len;) {
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n')) i++;
    if (i >= len) break;
    size_t s = i;
    while (i < len && data[i] != ' ' && data[i] != '\t' && data[i] != '\n') i++;
    data[i++] = '\0';
    long k = ts_item_of(t, data + s);
    if (k < 0) return (int)k;
    if (prev >= 0) {
      if (ts_relate(t, (size_t)prev, (size_t)k) < 0) return -ENOMEM;
      prev = -1;
    } else {
      prev = k;
    }
    if ((++ntok & 4095) == 0 && cmd_poll(t->ctx)) return -ECANCELED;
  }
  if (prev >= 0) {
    cmd_errorf(t->ctx, "%s: input contains an odd number of tokens", file);
    return 1;
  }
  t->order = malloc((t->n ? t->n : 1) * sizeof *t->order);
  if (!t->order) return -ENOMEM;
  for (size_t i = 0; i < t->n; i++) t->order[i] = i;
  ts_sort_items = t->items;
  qsort(t->order, t->n, sizeof *t->order, ts_cmp);
  int status = 0;
  size_t left = t->n;
  while (left > 0) {
    long head = -1, tail = -1;
    for (size_t i = 0; i < t->n; i++) {
      ts_item *it = &t->items[t->order[i]];
      if (it->count || !it->str) continue;
      if (head < 0)
        head = (long)t->order[i];
      else
        t->items[tail].qlink = (long)t->order[i];
      tail = (long)t->order[i];
    }
    while (head >= 0) {
      ts_item *it = &t->items[head];
      cmd_outs(t->ctx, it->str);
      if (cmd_outc(t->ctx, '\n') < 0 || cmd_poll(t->ctx)) return -ECANCELED;
      it->str = NULL;
      left--;
      for (ts_succ *p = it->top; p; p = p->next) {
        if (--t->items[p->item].count == 0) {
          t->items[tail].qlink = (long)p->item;
          tail = (long)p->item;
        }
      }
      long next = it->qlink;
      it->qlink = -1;
      head = next;
    }
    if (left > 0) {
      status = 1;
      bool found;
      do {
        found = false;
        for (size_t i = 0; i < t->n && !found; i++)
          found = ts_detect(t, t->order[i], file);
        if (cmd_poll(t->ctx)) return -ECANCELED;
      } while (t->loop >= 0 && !found);
      /* GNU repeats the walk while a chain is pending; one that found
       * nothing but left a chain starts over from it */
    }
  }
  return status;
}

int cmd_tsort_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  int done = cmd_getopt_all(
      ctx, &g, argc, argv, "(help)(version)",
      "Usage: tsort [OPTION] [FILE]\n"
      "Write totally ordered list consistent with the partial ordering in FILE.\n\n"
      "With no FILE, or when FILE is -, read standard input.\n");
  if (done >= 0) return done;
  if (argc - g.ind > 1) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[g.ind + 1]));
    return cmd_usage_hint(ctx, 1);
  }
  const char *file = g.ind < argc ? argv[g.ind] : "-";
  cmd_in *in;
  int rc = cmd_in_open(ctx, file, &in);
  char *data = NULL;
  size_t len = 0;
  if (rc == 0) {
    rc = cmd_in_slurp(in, &data, &len);
    cmd_in_close(in);
  }
  if (rc < 0) {
    cmd_record_error(ctx, rc, file);
    cmd_errorf(ctx, "%s: %s", cmd_gnu_quotef(ctx, file), cmd_strerror(rc));
    free(data);
    return 1;
  }
  /* one byte more so the last token has room for its NUL */
  char *buf = realloc(data, len + 1);
  if (!buf) {
    free(data);
    cmd_errorf(ctx, "memory exhausted");
    return 1;
  }
  buf[len] = '\0';
  tsort t = {.ctx = ctx, .loop = -1};
  rc = ts_run(&t, buf, len, cmd_gnu_quotef(ctx, file));
  free(t.items);
  free(t.slot);
  free(t.order);
  free(buf);
  if (rc == -ENOMEM) cmd_errorf(ctx, "memory exhausted");
  return rc == 0 ? 0 : 1;
}
