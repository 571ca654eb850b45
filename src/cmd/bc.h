/*
 * bc.h - internal interface of the bc command (src/cmd/bc*.c).
 *
 * bc_num.c   arbitrary precision decimal numbers with GNU bc's rules for the
 *            scale of every result (truncation, never rounding);
 * bc_parse.c lexer and parser: generates GNU bc's intermediate code text and
 *            loads it into byte code exactly as GNU bc 1.07 lays it out, so
 *            run-time messages quote the same addresses ("adr=3");
 * bc_exec.c  the byte-code machine (stacks, variables, arrays, calls);
 * bc.c       the command: options, input files, the -l math library.
 *
 * Numbers are reference counted and linked into the machine's live list so
 * a limit error can unwind from any depth without leaking.
 */
#ifndef SBX_CMD_BC_H
#define SBX_CMD_BC_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cmd/cmd.h"

typedef struct bc_state bc_state;

/* ---- numbers ------------------------------------------------------------------------- */

typedef struct bc_numrec {
  struct bc_numrec *prev, *next; /* live list */
  int refs;                      /* references */
  bool neg;                      /* sign */
  int len;                       /* integer digits (>= 1) */
  int scale;                     /* fraction digits */
  unsigned char *v;              /* len + scale decimal digits, most significant first */
} *bc_num;

void bc_num_init(bc_state *bc);              /* creates zero/one/two */
void bc_num_free_all(bc_state *bc);          /* frees every live number */
bc_num bc_new(bc_state *bc, int len, int scale); /* zeroed digits */
bc_num bc_copy(bc_num n);                    /* new reference */
void bc_free(bc_state *bc, bc_num *n);       /* drops a reference; sets *n = NULL */
bc_num bc_zero(bc_state *bc);                /* new references to constants */
bc_num bc_one(bc_state *bc);
bc_num bc_from_long(bc_state *bc, long v);
long bc_to_long(bc_num n);                   /* 0 when too large (like GNU) */
bool bc_is_zero(bc_num n);
bool bc_is_neg(bc_num n);
bool bc_is_near_zero(bc_num n, int scale);
int bc_compare(bc_num a, bc_num b);
bc_num bc_add(bc_state *bc, bc_num a, bc_num b, int scale_min);
bc_num bc_sub(bc_state *bc, bc_num a, bc_num b, int scale_min);
bc_num bc_mul(bc_state *bc, bc_num a, bc_num b, int scale);
/* NULL on division by zero */
bc_num bc_div(bc_state *bc, bc_num a, bc_num b, int scale);
bc_num bc_mod(bc_state *bc, bc_num a, bc_num b, int scale);
bc_num bc_raise(bc_state *bc, bc_num a, bc_num b, int scale);
/* NULL for a negative number */
bc_num bc_sqrt(bc_state *bc, bc_num a, int scale);
bc_num bc_trunc(bc_state *bc, bc_num a, int scale); /* a / 1 at scale */
/* Writes n in base obase through the output routine (GNU's layout). */
void bc_out_num(bc_state *bc, bc_num n, int obase, void (*out)(bc_state *, int));
/* A number from decimal text "123.45" (no sign). */
bc_num bc_from_str(bc_state *bc, const char *s);
/* Temporary memory on the live list (freed in bulk after a limit error). */
void *bc_tmp_alloc(bc_state *bc, size_t bytes);
void bc_tmp_free(void *p);

/* ---- the machine ---------------------------------------------------------------------- */

typedef struct bc_arg {
  int name;      /* variable (> 0) or array (< 0) number */
  bool is_var;   /* call-by-reference array (*a[]) */
} bc_arg;

typedef struct bc_function {
  bool defined;        /* loaded completely */
  bool is_void;        /* define void */
  unsigned char *code; /* byte code */
  size_t size, cap;    /* used, allocated */
  size_t *labels;      /* label -> address */
  size_t nlabels;      /* allocated entries */
  bc_arg *params;      /* parameters, in declaration order */
  int nparams;
  bc_arg *autos;       /* autos */
  int nautos;
  char *name;          /* name for messages ("(main)" for 0) */
  bool builtin;        /* implemented in C (-l library) */
} bc_function;

typedef struct bc_var {
  bc_num value;        /* current value */
  struct bc_var *next; /* shadowed value (autos, parameters) */
} bc_var;

typedef struct bc_array bc_array;

typedef struct bc_array_var {
  bc_array *arr;             /* the elements (shared when by reference) */
  bool is_ref;               /* arr is borrowed */
  struct bc_array_var *next; /* shadowed */
} bc_array_var;

/* Symbol table entry. */
typedef struct bc_name {
  char *id;       /* the name */
  int v, a, f;    /* variable, array, function numbers (0 = none) */
} bc_name;

struct bc_state {
  cmd_ctx *ctx;            /* the command */
  struct bc_numrec live;   /* sentinel of the live list */
  bc_num zero, one, two;   /* constants */
  jmp_buf fatal;           /* limit errors jump here */
  /* options */
  bool mathlib, std_only, warn_not_std;
  /* symbol tables */
  bc_name *names; int nnames, capnames;
  bc_function *funcs; int nfuncs, capfuncs;
  bc_var **vars; int nvars, capvars;        /* simple variables (0..4 special) */
  bc_array_var **arrays; int narrays, caparrays;
  char **vnames; char **anames;             /* names for messages */
  int next_var, next_array, next_func;
  /* special variables */
  int ibase, obase, scale;
  /* the machine */
  bc_num *stack; size_t sp, stackcap;       /* execution stack */
  struct bc_frame { int func; size_t addr; int ibase; } *frames;
  size_t fp, framecap;
  bool runtime_error;                       /* stop this run */
  bool halted;                              /* halt executed */
  bool quit;                                /* quit parsed */
  /* output */
  int out_col;                              /* column for line splitting */
  int line_size;                            /* BC_LINE_LENGTH (0 = no limit) */
  /* compile state (per input item) */
  int load_func;                            /* function being loaded into */
  size_t load_addr;
  bool had_error, did_gen;
  int cur_func;                             /* function being defined (-1 main) */
  int break_label, continue_label, next_label, if_label;
  /* input position for messages */
  const char *file_name;                    /* NULL for standard input */
  int line_no;
  /* limits */
  uint64_t ops;                             /* instructions executed (poll) */
  size_t max_digits;                        /* largest number allowed */
  int max_depth;                            /* call nesting limit */
  int status;                               /* exit status */
  char *stdin_data; size_t stdin_len, stdin_pos; /* read() input */
  size_t total_elements;                    /* array elements alive */
  int history;                              /* the history variable */
  void *cur_pos;                            /* executing position (messages) */
  struct random_data rnd;                   /* random() state */
  char rnd_state[128];                      /* its buffer */
  bool rnd_init;                            /* rnd seeded */
  jmp_buf exec_jmp;                         /* size limits inside a run end the run */
  bool in_exec;                             /* exec_jmp is armed */
  struct { int func; size_t pc; } xpos;     /* the running position */
};

void bc_rt_error(bc_state *bc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bc_rt_warn(bc_state *bc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bc_limit(bc_state *bc, const char *msg) __attribute__((noreturn));
void bc_poll(bc_state *bc);
void bc_out_char(bc_state *bc, int c);
void bc_out_schar(bc_state *bc, int c);

/* Parses and runs a whole program text (one file or stdin). Returns false
 * when `quit` or `halt` ended the program. */
bool bc_run_text(bc_state *bc, const char *text, size_t len, const char *file_name);
void bc_execute(bc_state *bc);
int bc_lookup(bc_state *bc, const char *name, int kind);
enum { BC_SIMPLE, BC_ARRAY, BC_FUNCT, BC_FUNCTDEF };
void bc_exec_init(bc_state *bc);
void bc_exec_free(bc_state *bc);
void bc_clear_func(bc_state *bc, int f);
bc_num bc_mathlib_call(bc_state *bc, int which, bc_num *args, int nargs);

#define BCN_DIM_MAX 16777215
#define BCN_BASE_MAX 2147483647
#define BCN_SCALE_MAX 2147483647

#endif
