/*
 * bc_exec.c - the byte-code machine of the bc command.
 *
 * The machine follows GNU bc's execute.c: a value stack of numbers, a call
 * stack of (function, address, ibase), variables and arrays that are stacks
 * of values (autos and parameters shadow the caller's), labels resolved per
 * function. The instruction set and its byte layout are GNU bc's (see
 * bc_parse.c), so run-time messages quote the same function names and
 * addresses. A run-time error stops the current input item, like GNU bc.
 *
 * Limits: cmd_poll every 1024 instructions (the shell's timeout/cancel);
 * call nesting (bc->max_depth); array elements in total; number sizes in
 * bc_num.c. Arrays are hash maps from index to number (indexes up to
 * BCN_DIM_MAX as in GNU bc).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bc.h"

#define MAX_ARRAY_ELEMENTS (1u << 22)

struct bc_array {
  uint32_t *keys;  /* index + 1 (0 = empty slot) */
  bc_num *vals;    /* values */
  size_t cap, n;   /* slots (power of two), used */
};


/* ---- messages ------------------------------------------------------------------------------ */

typedef struct exec_pos {
  int func;    /* current function */
  size_t pc;   /* current address (bytes consumed) */
} exec_pos;
_Static_assert(sizeof(exec_pos) == sizeof(((bc_state *)0)->xpos), "exec_pos layout");

static exec_pos *cur_pos(bc_state *bc);

static void rt_message(bc_state *bc, const char *kind, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  exec_pos *pos = cur_pos(bc);
  cmd_flush(bc->ctx);
  cmd_err_raw(bc->ctx, "Runtime %s (func=%s, adr=%zu): %s\n", kind,
              pos ? bc->funcs[pos->func].name : "(main)", pos ? pos->pc : 0, msg);
}

void bc_rt_error(bc_state *bc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rt_message(bc, "error", fmt, ap);
  va_end(ap);
  bc->runtime_error = true;
}

void bc_rt_warn(bc_state *bc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rt_message(bc, "warning", fmt, ap);
  va_end(ap);
}

void bc_limit(bc_state *bc, const char *msg) {
  if (bc->in_exec) {
    /* a size limit while running: a run-time error that ends this item */
    bc_rt_error(bc, "%s", msg);
    longjmp(bc->exec_jmp, 1);
  }
  cmd_flush(bc->ctx);
  cmd_err_raw(bc->ctx, "bc: %s\n", msg);
  bc->status = 1;
  longjmp(bc->fatal, 1);
}

void bc_poll(bc_state *bc) {
  if (cmd_poll(bc->ctx)) {
    cmd_flush(bc->ctx);
    cmd_err_raw(bc->ctx, "bc: interrupted (timeout, cancel or limit)\n");
    bc->status = 126;
    longjmp(bc->fatal, 1);
  }
}

/* ---- output ---------------------------------------------------------------------------------- */

static void put(bc_state *bc, char c) {
  if (cmd_out(bc->ctx, &c, 1) < 0) {
    bc->status = bc->ctx->out_err == -EPIPE ? 141 : 1;
    longjmp(bc->fatal, 1);
  }
}

void bc_out_char(bc_state *bc, int ch) {
  if (ch == '\n') {
    bc->out_col = 0;
    put(bc, '\n');
    return;
  }
  bc->out_col++;
  if (bc->line_size && bc->out_col == bc->line_size - 1) {
    put(bc, '\\');
    put(bc, '\n');
    bc->out_col = 1;
  }
  put(bc, (char)ch);
}

void bc_out_schar(bc_state *bc, int ch) {
  if (ch == '\n') {
    bc->out_col = 0;
    put(bc, '\n');
    return;
  }
  if (!bc->std_only) {
    bc->out_col++;
    if (bc->line_size && bc->out_col == bc->line_size - 1) {
      put(bc, '\\');
      put(bc, '\n');
      bc->out_col = 1;
    }
  }
  put(bc, (char)ch);
}

/* ---- symbol table and storage ---------------------------------------------------------------- */

static void *grow(bc_state *bc, void *p, int *cap, int need, size_t elem) {
  if (need < *cap) return p;
  int nc = *cap ? *cap * 2 : 32;
  while (nc <= need) nc *= 2;
  if (nc > 32768) bc_limit(bc, "too many names");
  void *np = realloc(p, (size_t)nc * elem);
  if (!np) bc_limit(bc, "out of memory");
  memset((char *)np + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
  *cap = nc;
  return np;
}

static void ensure_func(bc_state *bc, int f) {
  int old = bc->capfuncs;
  bc->funcs = grow(bc, bc->funcs, &bc->capfuncs, f, sizeof(bc_function));
  (void)old;
  if (f >= bc->nfuncs) bc->nfuncs = f + 1;
}

static void ensure_var(bc_state *bc, int v) {
  int cap = bc->capvars;
  bc->vars = grow(bc, bc->vars, &cap, v, sizeof(bc_var *));
  int cap2 = bc->capvars;
  bc->vnames = grow(bc, bc->vnames, &cap2, v, sizeof(char *));
  bc->capvars = cap;
  if (v >= bc->nvars) bc->nvars = v + 1;
}

static void ensure_array(bc_state *bc, int a) {
  int cap = bc->caparrays;
  bc->arrays = grow(bc, bc->arrays, &cap, a, sizeof(bc_array_var *));
  int cap2 = bc->caparrays;
  bc->anames = grow(bc, bc->anames, &cap2, a, sizeof(char *));
  bc->caparrays = cap;
  if (a >= bc->narrays) bc->narrays = a + 1;
}

int bc_lookup(bc_state *bc, const char *name, int kind) {
  bc_name *id = NULL;
  for (int i = 0; i < bc->nnames; i++)
    if (!strcmp(bc->names[i].id, name)) {
      id = &bc->names[i];
      break;
    }
  if (!id) {
    bc->names = grow(bc, bc->names, &bc->capnames, bc->nnames, sizeof(bc_name));
    id = &bc->names[bc->nnames++];
    id->id = strdup(name);
    if (!id->id) bc_limit(bc, "out of memory");
  }
  switch (kind) {
  case BC_ARRAY:
    if (id->a) return -id->a;
    id->a = bc->next_array++;
    ensure_array(bc, id->a);
    bc->anames[id->a] = id->id;
    return -id->a;
  case BC_FUNCT:
  case BC_FUNCTDEF:
    if (id->f) {
      /* redefining a math library function gets a new slot, like GNU */
      if (bc->mathlib && kind == BC_FUNCTDEF && id->f <= 6) {
        id->f = bc->next_func++;
        ensure_func(bc, id->f);
        free(bc->funcs[id->f].name);
        bc->funcs[id->f].name = strdup(name);
      }
      return id->f;
    }
    id->f = bc->next_func++;
    ensure_func(bc, id->f);
    bc->funcs[id->f].name = strdup(name);
    return id->f;
  default:
    if (id->v) return id->v;
    id->v = bc->next_var++;
    ensure_var(bc, id->v);
    bc->vnames[id->v] = id->id;
    return id->v;
  }
}

void bc_clear_func(bc_state *bc, int f) {
  ensure_func(bc, f);
  bc_function *fn = &bc->funcs[f];
  fn->defined = false;
  fn->size = 0;
  free(fn->params);
  fn->params = NULL;
  fn->nparams = 0;
  free(fn->autos);
  fn->autos = NULL;
  fn->nautos = 0;
  if (fn->labels) memset(fn->labels, 0, fn->nlabels * sizeof(size_t));
}

/* -- arrays -- */

static size_t hash_idx(uint32_t k, size_t cap) { return (size_t)((k * 2654435761u) >> 7) & (cap - 1); }

static bc_num *array_slot(bc_state *bc, bc_array *a, uint32_t idx, bool create) {
  uint32_t key = idx + 1;
  if (a->cap) {
    size_t i = hash_idx(key, a->cap);
    while (a->keys[i]) {
      if (a->keys[i] == key) return &a->vals[i];
      i = (i + 1) & (a->cap - 1);
    }
  }
  if (!create) return NULL;
  if (bc->total_elements >= MAX_ARRAY_ELEMENTS) {
    bc_rt_error(bc, "too many array elements (limit %u)", MAX_ARRAY_ELEMENTS);
    return NULL;
  }
  if ((a->n + 1) * 2 > a->cap) {
    size_t nc = a->cap ? a->cap * 2 : 16;
    uint32_t *nk = calloc(nc, sizeof *nk);
    bc_num *nv = calloc(nc, sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      bc_limit(bc, "out of memory");
    }
    for (size_t j = 0; j < a->cap; j++) {
      if (!a->keys[j]) continue;
      size_t i = hash_idx(a->keys[j], nc);
      while (nk[i]) i = (i + 1) & (nc - 1);
      nk[i] = a->keys[j];
      nv[i] = a->vals[j];
    }
    free(a->keys);
    free(a->vals);
    a->keys = nk;
    a->vals = nv;
    a->cap = nc;
  }
  size_t i = hash_idx(key, a->cap);
  while (a->keys[i]) i = (i + 1) & (a->cap - 1);
  a->keys[i] = key;
  a->vals[i] = bc_zero(bc);
  a->n++;
  bc->total_elements++;
  return &a->vals[i];
}

static void array_free(bc_state *bc, bc_array *a) {
  if (!a) return;
  for (size_t i = 0; i < a->cap; i++)
    if (a->keys[i]) {
      bc_free(bc, &a->vals[i]);
      bc->total_elements--;
    }
  free(a->keys);
  free(a->vals);
  free(a);
}

static bc_array *array_new(bc_state *bc) {
  bc_array *a = calloc(1, sizeof *a);
  if (!a) bc_limit(bc, "out of memory");
  return a;
}

static bc_array *array_copy(bc_state *bc, bc_array *src) {
  bc_array *a = array_new(bc);
  if (!src) return a;
  for (size_t i = 0; i < src->cap; i++)
    if (src->keys[i]) {
      bc_num *slot = array_slot(bc, a, src->keys[i] - 1, true);
      if (!slot) break;
      bc_free(bc, slot);
      *slot = bc_copy(src->vals[i]);
    }
  return a;
}

/* The array variable (top of its stack), created on first use. */
static bc_array *get_array(bc_state *bc, int a) {
  ensure_array(bc, a);
  bc_array_var *av = bc->arrays[a];
  if (!av) {
    av = calloc(1, sizeof *av);
    if (!av) bc_limit(bc, "out of memory");
    bc->arrays[a] = av;
  }
  if (!av->arr) av->arr = array_new(bc);
  return av->arr;
}

static bc_var *get_var(bc_state *bc, int v) {
  ensure_var(bc, v);
  bc_var *var = bc->vars[v];
  if (!var) {
    var = calloc(1, sizeof *var);
    if (!var) bc_limit(bc, "out of memory");
    var->value = bc_zero(bc);
    bc->vars[v] = var;
  }
  return var;
}

static void auto_var(bc_state *bc, int name) {
  if (name > 0) {
    ensure_var(bc, name);
    bc_var *v = calloc(1, sizeof *v);
    if (!v) bc_limit(bc, "out of memory");
    v->value = bc_zero(bc);
    v->next = bc->vars[name];
    bc->vars[name] = v;
  } else {
    ensure_array(bc, -name);
    bc_array_var *a = calloc(1, sizeof *a);
    if (!a) bc_limit(bc, "out of memory");
    a->next = bc->arrays[-name];
    bc->arrays[-name] = a;
  }
}

static void pop_var(bc_state *bc, int name) {
  if (name > 0) {
    bc_var *v = name < bc->nvars ? bc->vars[name] : NULL;
    if (v) {
      bc->vars[name] = v->next;
      bc_free(bc, &v->value);
      free(v);
    }
  } else {
    bc_array_var *a = -name < bc->narrays ? bc->arrays[-name] : NULL;
    if (a) {
      bc->arrays[-name] = a->next;
      if (!a->is_ref) array_free(bc, a->arr);
      free(a);
    }
  }
}

static void pop_vars(bc_state *bc, const bc_arg *list, int n) {
  for (int i = 0; i < n; i++) pop_var(bc, list[i].name);
}

/* ---- the stacks ---------------------------------------------------------------------------- */

static void push(bc_state *bc, bc_num n) {
  if (bc->sp == bc->stackcap) {
    size_t nc = bc->stackcap ? bc->stackcap * 2 : 64;
    if (nc > (1u << 24)) {
      bc_free(bc, &n);
      bc_limit(bc, "expression stack too deep");
    }
    bc_num *ns = realloc(bc->stack, nc * sizeof *ns);
    if (!ns) {
      bc_free(bc, &n);
      bc_limit(bc, "out of memory");
    }
    bc->stack = ns;
    bc->stackcap = nc;
  }
  bc->stack[bc->sp++] = n;
}

static void pop(bc_state *bc) {
  if (bc->sp) bc_free(bc, &bc->stack[--bc->sp]);
}

static bool check_stack(bc_state *bc, size_t depth) {
  if (bc->sp < depth) {
    bc_rt_error(bc, "Stack error.");
    return false;
  }
  return true;
}

#define TOS (bc->stack[bc->sp - 1])
#define NOS (bc->stack[bc->sp - 2])

static void assign(bc_state *bc, bool c) {
  bc_free(bc, &TOS);
  TOS = c ? bc_one(bc) : bc_zero(bc);
}

/* ---- variables ------------------------------------------------------------------------------ */


static void store_var(bc_state *bc, int v) {
  if (v > 3) {
    bc_var *var = get_var(bc, v);
    bc_free(bc, &var->value);
    var->value = bc_copy(TOS);
    return;
  }
  bool toobig = false;
  long temp = 0;
  if (bc_is_neg(TOS)) {
    switch (v) {
    case 0: bc_rt_warn(bc, "negative ibase, set to 2"); temp = 2; break;
    case 1: bc_rt_warn(bc, "negative obase, set to 2"); temp = 2; break;
    case 2: bc_rt_warn(bc, "negative scale, set to 0"); temp = 0; break;
    case 3: temp = -1; break;
    }
  } else {
    temp = bc_to_long(TOS);
    if (!bc_is_zero(TOS) && temp == 0) toobig = true;
  }
  switch (v) {
  case 0:
    if (temp < 2 && !toobig) {
      bc->ibase = 2;
      bc_rt_warn(bc, "ibase too small, set to 2");
    } else if (temp > 16 || toobig) {
      if (bc->std_only) {
        bc->ibase = 16;
        bc_rt_warn(bc, "ibase too large, set to 16");
      } else if (temp > 36 || toobig) {
        bc->ibase = 36;
        bc_rt_warn(bc, "ibase too large, set to 36");
      } else {
        if (temp >= 16 && bc->warn_not_std) bc_rt_warn(bc, "ibase larger than 16 is non-standard");
        bc->ibase = (int)temp;
      }
    } else {
      bc->ibase = (int)temp;
    }
    break;
  case 1:
    if (temp < 2 && !toobig) {
      bc->obase = 2;
      bc_rt_warn(bc, "obase too small, set to 2");
    } else if (temp > BCN_BASE_MAX || toobig) {
      bc->obase = BCN_BASE_MAX;
      bc_rt_warn(bc, "obase too large, set to %d", BCN_BASE_MAX);
    } else {
      bc->obase = (int)temp;
    }
    break;
  case 2:
    if (temp > BCN_SCALE_MAX || toobig) {
      bc->scale = BCN_SCALE_MAX;
      bc_rt_warn(bc, "scale too large, set to %d", BCN_SCALE_MAX);
    } else {
      bc->scale = (int)temp;
    }
    break;
  case 3:
    bc->history = toobig ? -1 : (int)temp;
    break;
  }
}

static void load_var(bc_state *bc, int v) {
  switch (v) {
  case 0: push(bc, bc_from_long(bc, bc->ibase)); return;
  case 1: push(bc, bc_from_long(bc, bc->obase)); return;
  case 2: push(bc, bc_from_long(bc, bc->scale)); return;
  case 3: push(bc, bc_from_long(bc, bc->history)); return;
  default: {
    bc_var *var = v < bc->nvars ? bc->vars[v] : NULL;
    push(bc, var ? bc_copy(var->value) : bc_zero(bc));
  }
  }
}

static void incr_decr_var(bc_state *bc, int v, bool incr) {
  switch (v) {
  case 0:
    if (incr) {
      if (bc->ibase < 16) bc->ibase++;
      else bc_rt_warn(bc, "ibase too big in ++");
    } else {
      if (bc->ibase > 2) bc->ibase--;
      else bc_rt_warn(bc, "ibase too small in --");
    }
    return;
  case 1:
    if (incr) {
      if (bc->obase < BCN_BASE_MAX) bc->obase++;
      else bc_rt_warn(bc, "obase too big in ++");
    } else {
      if (bc->obase > 2) bc->obase--;
      else bc_rt_warn(bc, "obase too small in --");
    }
    return;
  case 2:
    if (incr) {
      if (bc->scale < BCN_SCALE_MAX) bc->scale++;
      else bc_rt_warn(bc, "Scale too big in ++");
    } else {
      if (bc->scale > 0) bc->scale--;
      else bc_rt_warn(bc, "scale can not be negative in -- ");
    }
    return;
  case 3:
    bc->history += incr ? 1 : -1;
    if (bc->history < 0) bc->history = -1;
    return;
  default: {
    bc_var *var = get_var(bc, v);
    bc_num r = incr ? bc_add(bc, var->value, bc->one, 0) : bc_sub(bc, var->value, bc->one, 0);
    bc_free(bc, &var->value);
    var->value = r;
  }
  }
}

/* Index of TOS for an array access; -1 after reporting an error. */
static long array_index(bc_state *bc, bc_num n, int a) {
  long idx = bc_to_long(n);
  if (idx < 0 || idx > BCN_DIM_MAX || (idx == 0 && !bc_is_zero(n))) {
    bc_rt_error(bc, "Array %s subscript out of bounds.", bc->anames[a]);
    return -1;
  }
  return idx;
}

/* ---- constants ---------------------------------------------------------------------------- */


static unsigned char byte_at(bc_state *bc, exec_pos *pos) {
  bc_function *f = &bc->funcs[pos->func];
  if (pos->pc >= f->size) return ':';
  return f->code[pos->pc++];
}

/* GNU's push_b10_const: decimal digits (a digit byte > 9 counts as 9, except
 * a lone single digit which keeps its value: "A" is 10). */
static void push_b10_const(bc_state *bc, exec_pos *pos) {
  bc_function *f = &bc->funcs[pos->func];
  size_t look = pos->pc;
  int kdigits = 0, kscale = 0;
  while (look < f->size && f->code[look] != '.' && f->code[look] != ':') {
    kdigits++;
    look++;
  }
  if (look < f->size && f->code[look] == '.') {
    look++;
    while (look < f->size && f->code[look] != ':') {
      kscale++;
      look++;
    }
  }
  unsigned char in = byte_at(bc, pos);
  if (kdigits == 1 && kscale == 0) {
    bc_num n = bc_from_long(bc, in);
    byte_at(bc, pos); /* ':' */
    push(bc, n);
    return;
  }
  bc_num build = bc_new(bc, kdigits ? kdigits : 1, kscale);
  unsigned char *ptr = build->v + (kdigits ? 0 : 1);
  while (in != ':' && in != '.') {
    *ptr++ = in > 9 ? 9 : in;
    in = byte_at(bc, pos);
  }
  if (in == '.') {
    in = byte_at(bc, pos);
    while (in != ':') {
      *ptr++ = in > 9 ? 9 : in;
      in = byte_at(bc, pos);
    }
  }
  /* normalise leading zeros */
  bc_num r = bc_add(bc, build, bc->zero, 0);
  bc_free(bc, &build);
  push(bc, r);
}

/* GNU's push_constant for other bases: digit values from the code. */
static void push_constant(bc_state *bc, exec_pos *pos, int base) {
  bc_num b = bc_from_long(bc, base);
  bc_num build = bc_zero(bc);
  int in = byte_at(bc, pos);
  if (in < 16) {
    int first = in;
    in = byte_at(bc, pos);
    if (in < 16 && first >= base) first = base - 1;
    bc_free(bc, &build);
    build = bc_from_long(bc, first);
  } else if (in > 16 && in != '.' && in != ':') {
    /* a single digit above F: its value */
    bc_free(bc, &build);
    build = bc_from_long(bc, in);
    in = byte_at(bc, pos);
  }
  while (in < 16) {
    if (in >= base) in = base - 1;
    bc_num t = bc_mul(bc, build, b, 0);
    bc_num d = bc_from_long(bc, in);
    bc_free(bc, &build);
    build = bc_add(bc, t, d, 0);
    bc_free(bc, &t);
    bc_free(bc, &d);
    in = byte_at(bc, pos);
  }
  if (in == '.') {
    in = byte_at(bc, pos);
    if (in >= base && in < 16) in = base - 1;
    bc_num result = bc_zero(bc), divisor = bc_one(bc);
    int digits = 0;
    while (in < 16) {
      bc_num t = bc_mul(bc, result, b, 0);
      bc_num d = bc_from_long(bc, in);
      bc_free(bc, &result);
      result = bc_add(bc, t, d, 0);
      bc_free(bc, &t);
      bc_free(bc, &d);
      bc_num dv = bc_mul(bc, divisor, b, 0);
      bc_free(bc, &divisor);
      divisor = dv;
      digits++;
      in = byte_at(bc, pos);
      if (in < 16 && in >= base) in = base - 1;
    }
    bc_num q = bc_div(bc, result, divisor, digits);
    bc_num s = bc_add(bc, build, q, 0);
    bc_free(bc, &build);
    build = s;
    bc_free(bc, &q);
    bc_free(bc, &result);
    bc_free(bc, &divisor);
  }
  bc_free(bc, &b);
  push(bc, build);
}

/* ---- calls --------------------------------------------------------------------------------- */

/* Binds the arguments on the stack to the parameters of `func`, reading the
 * argument types from the code (GNU's process_params). */
static void process_params(bc_state *bc, exec_pos *pos, int func) {
  bc_function *f = &bc->funcs[func];
  int remaining = f->nparams; /* parameters are bound from the last */
  int ch;
  while ((ch = byte_at(bc, pos)) != ':') {
    if (remaining > 0) {
      bc_arg *prm = &f->params[remaining - 1];
      if (ch == '0' && prm->name > 0) {
        ensure_var(bc, prm->name);
        bc_var *v = calloc(1, sizeof *v);
        if (!v) bc_limit(bc, "out of memory");
        v->value = TOS;
        TOS = bc_zero(bc);
        v->next = bc->vars[prm->name];
        bc->vars[prm->name] = v;
      } else if (ch == '1' && prm->name < 0) {
        long ix = bc_to_long(TOS);
        int ix1 = -prm->name;
        if (ix < 1 || ix >= bc->narrays) ix = ix1; /* a bad constant: itself */
        (void)get_array(bc, (int)ix);
        auto_var(bc, prm->name);
        bc_array_var *src = ix == ix1 ? bc->arrays[ix]->next : bc->arrays[ix];
        bc_array_var *dst = bc->arrays[ix1];
        if (!src->arr) src->arr = array_new(bc);
        if (prm->is_var) {
          dst->is_ref = true;
          dst->arr = src->arr;
        } else {
          dst->is_ref = false;
          dst->arr = array_copy(bc, src->arr);
        }
      } else {
        if (prm->name < 0)
          bc_rt_error(bc, "Parameter type mismatch parameter %s.", bc->anames[-prm->name]);
        else
          bc_rt_error(bc, "Parameter type mismatch, parameter %s.", bc->vnames[prm->name]);
        /* GNU's machine still binds a placeholder so the frame unwinds */
        auto_var(bc, prm->name);
      }
      pop(bc);
    } else {
      bc_rt_error(bc, "Parameter number mismatch");
      return;
    }
    remaining--;
  }
  if (remaining > 0) {
    /* unbound parameters still get a slot so returning pops evenly */
    for (int i = remaining - 1; i >= 0; i--) auto_var(bc, f->params[i].name);
    bc_rt_error(bc, "Parameter number mismatch");
  }
}

static exec_pos *cur_pos(bc_state *bc) { return bc->cur_pos; }

/* ---- the machine ------------------------------------------------------------------------------ */

void bc_exec_init(bc_state *bc) {
  bc->ibase = 10;
  bc->obase = 10;
  bc->scale = 0;
  bc->next_var = 5;
  bc->next_array = 1;
  bc->next_func = 1;
  ensure_func(bc, 0);
  bc->funcs[0].name = strdup("(main)");
  ensure_var(bc, 5);
  ensure_array(bc, 1);
  bc->total_elements = 0;
  bc->history = -1;
}

void bc_exec_free(bc_state *bc) {
  for (int i = 0; i < bc->nvars; i++) {
    while (bc->vars[i]) {
      bc_var *v = bc->vars[i];
      bc->vars[i] = v->next;
      free(v);
    }
  }
  for (int i = 0; i < bc->narrays; i++) {
    while (bc->arrays[i]) {
      bc_array_var *a = bc->arrays[i];
      bc->arrays[i] = a->next;
      if (!a->is_ref && a->arr) {
        free(a->arr->keys);
        free(a->arr->vals);
        free(a->arr);
      }
      free(a);
    }
  }
  for (int i = 0; i < bc->capfuncs; i++) {
    free(bc->funcs[i].code);
    free(bc->funcs[i].labels);
    free(bc->funcs[i].params);
    free(bc->funcs[i].autos);
    free(bc->funcs[i].name);
  }
  for (int i = 0; i < bc->nnames; i++) free(bc->names[i].id);
  free(bc->names);
  free(bc->funcs);
  free(bc->vars);
  free(bc->vnames);
  free(bc->arrays);
  free(bc->anames);
  free(bc->stack);
  free(bc->frames);
}

static void unwind(bc_state *bc, exec_pos *pos) {
  while (bc->fp > 0) {
    bc_function *f = &bc->funcs[pos->func];
    pop_vars(bc, f->autos, f->nautos);
    pop_vars(bc, f->params, f->nparams);
    bc->fp--;
    pos->func = bc->frames[bc->fp].func;
    pos->pc = bc->frames[bc->fp].addr;
  }
  while (bc->sp) pop(bc);
}

void bc_execute(bc_state *bc) {
  /* the position lives in bc so it survives a longjmp from a size limit */
  exec_pos *posp = (exec_pos *)(void *)&bc->xpos;
  posp->func = 0;
  posp->pc = 0;
  bc->cur_pos = posp;
  bc->runtime_error = false;
  bc->in_exec = true;
  if (setjmp(bc->exec_jmp)) {
    bc->in_exec = false;
    unwind(bc, posp);
    bc->cur_pos = NULL;
    return;
  }
#define pos (*posp)
  uint64_t ticks = 0;
  while (!bc->runtime_error && !bc->halted) {
    bc_function *fn = &bc->funcs[pos.func];
    if (pos.pc >= fn->size) break;
    if ((++ticks & 1023) == 0) bc_poll(bc);
    int inst = fn->code[pos.pc++];
    int v;
#define NAME_ARG()                                                   \
  do {                                                               \
    v = byte_at(bc, &pos);                                           \
    if (v & 0x80) v = ((v & 0x7f) << 8) + byte_at(bc, &pos);         \
  } while (0)
    switch (inst) {
    case 'A':
    case 'M': {
      NAME_ARG();
      if (!check_stack(bc, 1)) break;
      long idx = array_index(bc, TOS, v);
      if (idx < 0) break;
      bc_num *slot = array_slot(bc, get_array(bc, v), (uint32_t)idx, true);
      if (!slot) break;
      pop(bc);
      bc_num r = inst == 'A' ? bc_add(bc, *slot, bc->one, 0) : bc_sub(bc, *slot, bc->one, 0);
      bc_free(bc, slot);
      *slot = r;
      break;
    }
    case 'B':
    case 'Z':
    case 'J': {
      bool c = false;
      if (inst != 'J') {
        if (!check_stack(bc, 1)) break;
        c = !bc_is_zero(TOS);
        pop(bc);
      }
      int lab = byte_at(bc, &pos);
      lab += byte_at(bc, &pos) << 8;
      if (inst == 'J' || (inst == 'B' && c) || (inst == 'Z' && !c)) {
        bc_function *f = &bc->funcs[pos.func];
        pos.pc = (size_t)lab < f->nlabels ? f->labels[lab] : f->size;
      }
      break;
    }
    case 'C': {
      NAME_ARG();
      int nf = v;
      if (nf >= bc->nfuncs || !bc->funcs[nf].defined) {
        bc_rt_error(bc, "Function %s not defined.", nf < bc->nfuncs && bc->funcs[nf].name ? bc->funcs[nf].name : "?");
        break;
      }
      bc_function *f = &bc->funcs[nf];
      if (f->builtin) {
        /* -l library: value parameters only */
        int nargs = 0, ch;
        size_t start = pos.pc;
        while ((ch = byte_at(bc, &pos)) != ':') nargs++;
        if (nargs != f->nparams) {
          pos.pc = start;
          int k = 0;
          while ((ch = byte_at(bc, &pos)) != ':') {
            if (++k > f->nparams) {
              bc_rt_error(bc, "Parameter number mismatch");
              break;
            }
          }
          if (!bc->runtime_error) bc_rt_error(bc, "Parameter number mismatch");
          break;
        }
        pos.pc = start;
        for (int k = 0; k < nargs; k++) {
          if (byte_at(bc, &pos) != '0') {
            bc_rt_error(bc, "Parameter type mismatch, parameter %s.", "x");
            break;
          }
        }
        if (bc->runtime_error) break;
        byte_at(bc, &pos); /* ':' */
        if (!check_stack(bc, (size_t)nargs)) break;
        bc_num *args = &bc->stack[bc->sp - (size_t)nargs];
        exec_pos inner = {nf, 0};
        bc->cur_pos = &inner;
        bc_num r = bc_mathlib_call(bc, nf, args, nargs);
        bc->cur_pos = posp;
        for (int k = 0; k < nargs; k++) pop(bc);
        push(bc, r);
        break;
      }
      if ((int)bc->fp >= bc->max_depth) {
        bc_rt_error(bc, "function call nesting too deep (limit %d)", bc->max_depth);
        break;
      }
      process_params(bc, &pos, nf);
      for (int i = 0; i < f->nautos; i++) auto_var(bc, f->autos[i].name);
      if (bc->fp == bc->framecap) {
        size_t nc = bc->framecap ? bc->framecap * 2 : 32;
        void *nfp = realloc(bc->frames, nc * sizeof *bc->frames);
        if (!nfp) bc_limit(bc, "out of memory");
        bc->frames = nfp;
        bc->framecap = nc;
      }
      bc->frames[bc->fp].func = pos.func;
      bc->frames[bc->fp].addr = pos.pc;
      bc->frames[bc->fp].ibase = bc->ibase;
      bc->fp++;
      pos.func = nf;
      pos.pc = 0;
      break;
    }
    case 'D':
      if (!check_stack(bc, 1)) break;
      push(bc, bc_copy(TOS));
      break;
    case 'K': {
      int base = pos.func == 0 || bc->fp == 0 ? bc->ibase : bc->frames[bc->fp - 1].ibase;
      if (base == 10) push_b10_const(bc, &pos);
      else push_constant(bc, &pos, base);
      break;
    }
    case 'L': {
      NAME_ARG();
      if (!check_stack(bc, 1)) break;
      long idx = array_index(bc, TOS, v);
      if (idx < 0) break;
      bc_num *slot = array_slot(bc, get_array(bc, v), (uint32_t)idx, false);
      bc_num val = slot ? bc_copy(*slot) : bc_zero(bc);
      pop(bc);
      push(bc, val);
      break;
    }
    case 'O': {
      int ch;
      while ((ch = byte_at(bc, &pos)) != '"') {
        if (pos.pc >= bc->funcs[pos.func].size) break;
        if (ch != '\\') {
          bc_out_schar(bc, ch);
          continue;
        }
        ch = byte_at(bc, &pos);
        if (ch == '"') break;
        switch (ch) {
        case 'a': bc_out_schar(bc, 7); break;
        case 'b': bc_out_schar(bc, '\b'); break;
        case 'f': bc_out_schar(bc, '\f'); break;
        case 'n': bc_out_schar(bc, '\n'); break;
        case 'q': bc_out_schar(bc, '"'); break;
        case 'r': bc_out_schar(bc, '\r'); break;
        case 't': bc_out_schar(bc, '\t'); break;
        case '\\': bc_out_schar(bc, '\\'); break;
        default: break;
        }
      }
      break;
    }
    case 'R':
      if (pos.func != 0) {
        bc_function *f = &bc->funcs[pos.func];
        pop_vars(bc, f->autos, f->nautos);
        pop_vars(bc, f->params, f->nparams);
        bc->fp--;
        pos.func = bc->frames[bc->fp].func;
        pos.pc = bc->frames[bc->fp].addr;
      } else {
        bc_rt_error(bc, "Return from main program.");
      }
      break;
    case 'S': {
      NAME_ARG();
      if (!check_stack(bc, 2)) break;
      long idx = array_index(bc, NOS, v);
      if (idx < 0) break;
      bc_num *slot = array_slot(bc, get_array(bc, v), (uint32_t)idx, true);
      if (!slot) break;
      bc_free(bc, slot);
      *slot = bc_copy(TOS);
      bc_free(bc, &NOS);
      NOS = TOS;
      TOS = bc_zero(bc);
      pop(bc);
      break;
    }
    case 'T':
      if (!check_stack(bc, 1)) break;
      assign(bc, bc_is_zero(TOS));
      break;
    case 'W':
    case 'P':
      if (!check_stack(bc, 1)) break;
      bc_out_num(bc, TOS, bc->obase, bc_out_char);
      if (inst == 'W') bc_out_char(bc, '\n');
      store_var(bc, 4);
      pop(bc);
      break;
    case 'c': {
      int which = byte_at(bc, &pos);
      if (which == 'I') {
        extern bc_num bc_read_number(bc_state * bc);
        push(bc, bc_read_number(bc));
        break;
      }
      if (which == 'X') {
        extern long bc_random(bc_state * bc);
        push(bc, bc_from_long(bc, bc_random(bc)));
        break;
      }
      if (!check_stack(bc, 1)) break;
      bc_num n = TOS, r = NULL;
      switch (which) {
      case 'L':
        r = bc_from_long(bc, (n->len == 1 && n->scale != 0 && n->v[0] == 0) ? n->scale
                                                                              : n->len + n->scale);
        break;
      case 'S':
        r = bc_from_long(bc, n->scale);
        break;
      case 'R':
        r = bc_sqrt(bc, n, bc->scale);
        if (!r) bc_rt_error(bc, "Square root of a negative number");
        break;
      default:
        bc_rt_error(bc, "bad instruction: inst=c%c", which);
      }
      if (r) {
        bc_free(bc, &TOS);
        TOS = r;
      }
      break;
    }
    case 'd':
    case 'i':
      NAME_ARG();
      incr_decr_var(bc, v, inst == 'i');
      break;
    case 'h':
      bc->halted = true;
      break;
    case 'l':
      NAME_ARG();
      load_var(bc, v);
      break;
    case 'n': {
      if (!check_stack(bc, 1)) break;
      bc_num r = bc_sub(bc, bc->zero, TOS, 0);
      bc_free(bc, &TOS);
      TOS = r;
      break;
    }
    case 'p':
      pop(bc);
      break;
    case 's':
      NAME_ARG();
      if (!check_stack(bc, 1)) break;
      store_var(bc, v);
      break;
    case 'w': {
      int ch;
      while ((ch = byte_at(bc, &pos)) != '"') {
        if (pos.pc >= bc->funcs[pos.func].size) break;
        bc_out_schar(bc, ch);
      }
      break;
    }
    case 'x':
      if (check_stack(bc, 2)) {
        bc_num t = TOS;
        TOS = NOS;
        NOS = t;
      }
      break;
    case '0':
      push(bc, bc_zero(bc));
      break;
    case '1':
      push(bc, bc_one(bc));
      break;
    case '!':
      if (!check_stack(bc, 1)) break;
      assign(bc, bc_is_zero(TOS));
      break;
    case '&':
    case '|':
      if (check_stack(bc, 2)) {
        bool c = inst == '&' ? (!bc_is_zero(NOS) && !bc_is_zero(TOS))
                             : (!bc_is_zero(NOS) || !bc_is_zero(TOS));
        pop(bc);
        assign(bc, c);
      }
      break;
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '^': {
      if (!check_stack(bc, 2)) break;
      bc_num r = NULL;
      switch (inst) {
      case '+': r = bc_add(bc, NOS, TOS, 0); break;
      case '-': r = bc_sub(bc, NOS, TOS, 0); break;
      case '*': r = bc_mul(bc, NOS, TOS, bc->scale); break;
      case '/':
        r = bc_div(bc, NOS, TOS, bc->scale);
        if (!r) bc_rt_error(bc, "Divide by zero");
        break;
      case '%':
        if (bc_is_zero(TOS)) bc_rt_error(bc, "Modulo by zero");
        else r = bc_mod(bc, NOS, TOS, bc->scale);
        break;
      default:
        r = bc_raise(bc, NOS, TOS, bc->scale);
        if (bc_is_zero(NOS) && bc_is_neg(TOS)) bc_rt_error(bc, "divide by zero");
        break;
      }
      if (!r) break;
      pop(bc);
      pop(bc);
      push(bc, r);
      break;
    }
    case '=':
    case '#':
    case '<':
    case '{':
    case '>':
    case '}':
      if (check_stack(bc, 2)) {
        int c = bc_compare(NOS, TOS);
        bool res;
        switch (inst) {
        case '=': res = c == 0; break;
        case '#': res = c != 0; break;
        case '<': res = c == -1; break;
        case '{': res = c <= 0; break;
        case '>': res = c == 1; break;
        default: res = c >= 0; break;
        }
        pop(bc);
        assign(bc, res);
      }
      break;
    default:
      bc_rt_error(bc, "bad instruction: inst=%c", inst);
    }
#undef NAME_ARG
  }
#undef pos
  bc->in_exec = false;
  unwind(bc, posp);
  bc->cur_pos = NULL;
}
