/*
 * jq_int.h - internals shared by the parts of sbx's jq engine: the syntax
 * tree (jq_parse.c builds and resolves it), the evaluator's state and
 * environments (jq_eval.c), the builtins (jq_builtin.c).
 *
 * Evaluation is a tree walk in continuation-passing style: evaluating a
 * node calls a callback once per output, so generators and backtracking are
 * plain C loops and returns. A callback's return code says how to go on:
 * JQ_OK (more outputs welcome), JQ_ERR (an error, in jq_interp.err), JQ_BREAK
 * (a `break $label`/limit/first unwinding to its label), JQ_STOP (halt,
 * cancel, limits: unwind everything). No value or closure outlives the C
 * frame that made it, so environments are stack-allocated frames.
 */
#ifndef SBX_CMD_JQ_INT_H
#define SBX_CMD_JQ_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/jq/jq_value.h"

enum { JQ_OK = 0, JQ_ERR = 1, JQ_BREAK = 2, JQ_STOP = 3 };

typedef enum {
  N_IDENTITY,  /* . */
  N_RECURSE,   /* .. */
  N_LITERAL,   /* val */
  N_FIELD,     /* a.val (a: term, val: string) */
  N_INDEX,     /* a[b] */
  N_SLICE,     /* a[b:c] (b or c NULL) */
  N_ITER,      /* a[] */
  N_STRING,    /* interpolated string: args = parts (literals and exprs), name = format or NULL */
  N_FORMAT,    /* @name applied to . */
  N_ARRAY,     /* [a] (a NULL: []) */
  N_OBJECT,    /* args = entries (N_OBJENTRY) */
  N_OBJENTRY,  /* key a, value b (b NULL: shorthand) */
  N_NEG,       /* -a */
  N_PIPE,      /* a | b */
  N_COMMA,     /* a, b */
  N_BINOP,     /* a op b */
  N_AND,       /* a and b */
  N_OR,        /* a or b */
  N_ALT,       /* a // b */
  N_ASSIGN,    /* a op= b (op: '=', '|', '+', ..., 'A' for //=) */
  N_IF,        /* if a then b else c (c NULL: .) */
  N_TRY,       /* try a catch b (b NULL: no handler) */
  N_REDUCE,    /* reduce a as pat (b; c) */
  N_FOREACH,   /* foreach a as pat (b; c; d) */
  N_FUNCDEF,   /* def name(params): a; b */
  N_CALL,      /* name(args) */
  N_VAR,       /* $name */
  N_AS,        /* a as pats | b (args: alternative patterns) */
  N_LABEL,     /* label $name | a */
  N_BREAK,     /* break $name */
  N_LOC,       /* $__loc__ */
  N_PAT_VAR,   /* pattern $name */
  N_PAT_ARRAY, /* pattern [args] */
  N_PAT_OBJECT,/* pattern {args: N_OBJENTRY with a = key expr, b = subpattern or NULL, name = $var or NULL} */
} jq_node_type;

/* How a call or variable reference was resolved. */
enum { R_NONE, R_LOCAL, R_GLOBAL, R_BUILTIN };

typedef struct jq_node jq_node;
struct jq_node {
  jq_node_type type;
  int line;            /* source line (for $__loc__ and messages) */
  size_t start, end;   /* byte span in its source text (compile errors) */
  int op;              /* operator for N_BINOP/N_ASSIGN */
  jq_node *a, *b, *c, *d; /* children (see the types) */
  jqv val;             /* literal / field name */
  char *name;          /* function, variable, label or format name */
  jq_node **args;      /* call arguments, object entries, string parts, patterns */
  int nargs;
  /* functions (N_FUNCDEF) */
  char **params;       /* parameter names ("$x" for value params) */
  int nparams;
  int nframes;         /* frames a call pushes: one per param, two for $params */
  int global;          /* >= 0: index in the global frame table */
  /* resolution (N_CALL, N_VAR, N_BREAK, pattern vars) */
  int res;             /* R_* */
  int hops;            /* R_LOCAL: frames up from the current one */
  int gidx;            /* R_GLOBAL: global frame index */
  int builtin;         /* R_BUILTIN: builtin index */
  jq_node *next_alloc; /* all nodes of a program, for freeing */
};

/* A runtime frame (stack-allocated): a variable, a function definition
 * (with the environment it closes over), or a closure parameter. */
enum { F_VAR, F_DEF, F_CLOSURE, F_LABEL };
typedef struct jq_frame jq_frame;
struct jq_frame {
  jq_frame *up;       /* the enclosing frame */
  int kind;           /* F_* */
  jqv val;            /* F_VAR: the value (borrowed from the binder) */
  const jq_node *fn;  /* F_DEF: the definition; F_CLOSURE: the argument */
  jq_frame *fenv;     /* F_CLOSURE: the caller's environment */
  uint64_t label;     /* F_LABEL: the label's unique id */
};

typedef struct jq_program {
  jq_node *root;       /* the whole program (prelude defs, user defs, body) */
  jq_node *nodes;      /* all nodes, for freeing */
  int nglobals;        /* global frames */
  jq_node **global_defs; /* the N_FUNCDEF/variable of each global frame (var: NULL) */
  char **global_names;   /* names of global variables (for N_VAR lookup), NULL for defs */
  int user_line0;        /* lines of the prelude before the user's program (0) */
  jq_node *user;         /* the user's program */
} jq_program;

struct jq_engine;
typedef struct jq_interp jq_interp;
typedef int (*jq_cb)(jq_interp *I, void *ud, jqv v, jqv path);

/* A builtin in C: the input and the argument values (borrowed), returns a
 * value or an invalid with an error message (or invalid without message for
 * "no output"). */
typedef jqv (*jq_cfunc)(jq_interp *I, jqv in, jqv *args);
typedef struct jq_builtin {
  const char *name;
  int nargs;
  jq_cfunc fn; /* NULL: a special form handled by jq_eval.c */
  int special; /* special form id */
} jq_builtin;

/* Special forms (jq_builtin.special). */
enum {
  S_EMPTY = 1, S_ERROR0, S_ERROR1, S_NOT, S_PATH, S_GETPATH, S_RANGE1, S_RANGE2, S_RANGE3, S_LIMIT, S_FIRST,
  S_ISEMPTY, S_INPUT, S_INPUTS, S_RECURSE1, S_DEBUG1, S_SORT_BY, S_GROUP_BY, S_UNIQUE_BY, S_MIN_BY, S_MAX_BY,
  S_PATHS1, S_DEL, S_ANY2, S_ALL2, S_HALT, S_HALT_ERROR1, S_LAST1, S_UNTIL, S_ADD1, S_SKIP, S_INPUT_LINE, S_PICK,
};

extern const jq_builtin jq_builtins[];
extern const int jq_nbuiltins;
extern const char jq_prelude[];
int jq_builtin_find(const char *name, int nargs);

/* The host side of an interpreter: inputs, messages, the environment. */
typedef struct jq_host {
  void *ud;
  /* next input value for input/inputs: a value, invalid (no more), or an
   * invalid with a message (an error to raise) */
  jqv (*next_input)(void *ud);
  void (*debug_msg)(void *ud, jqv msg);  /* debug: ["DEBUG:",v] */
  void (*stderr_msg)(void *ud, jqv v);   /* stderr: raw text */
  jqv (*input_filename)(void *ud);
  int (*poll)(void *ud);                 /* non-zero: stop */
  int (*input_line)(void *ud);
} jq_host;

struct jq_interp {
  jq_program *prog;
  jq_frame **globals;   /* the global frames */
  jq_frame *global_store; /* their storage */
  const jq_node *body;  /* where an input's evaluation starts (under the global defs) */
  jq_frame *body_env;   /* and its environment */
  const jq_node *each_f; /* body `.[] | f`: f (jq_eval_element), or NULL */
  bool each_iter;        /* body `.[]` alone */
  jqv err;              /* the pending error value (JQ_ERR) */
  uint64_t break_label; /* the label unwinding (JQ_BREAK) */
  uint64_t next_label;  /* label id counter */
  int stop_status;      /* JQ_STOP reason: 0 halt, else a status */
  bool halted;          /* halt/halt_error called */
  int halt_code;        /* its exit code */
  jqv halt_msg;         /* halt_error's value (invalid: none) */
  jq_host host;
  jqv env;              /* $ENV object */
  jqv named_args;       /* $ARGS.named */
  jqv positional;       /* $ARGS.positional */
  size_t mem_budget;    /* bytes of values allowed */
  char *stack_limit;    /* lowest usable stack address */
  unsigned long steps;  /* poll counter */
  const char *stop_msg; /* message for limits (memory, depth) or NULL */
  double now;           /* now (the command context's clock) */
  const char *tz;       /* TZ for localtime (may be NULL: UTC) */
  void *tzinfo;         /* cmd_tz for localtime */
};

/* Parses and resolves program text (prelude first). On error returns NULL
 * and sets *err to jq's message (malloc'd). named: the names of --arg
 * variables (without $). */
jq_program *jq_compile(const char *text, size_t len, char **named, int nnamed, const char *who, char **err);
void jq_program_free(jq_program *p);
/* Whether the program is `.[] | f` (or `.[]`, `def`s first allowed) with no
 * input/inputs/input_line_number anywhere: then running it on [e] for each
 * element e of an input array gives what running it on the array gives. */
bool jq_program_each_input(const jq_program *p);

/* Evaluates the program on one input; cb gets each output (path invalid). */
int jq_eval_program(jq_interp *I, jqv in, jq_cb cb, void *ud);
/* For a program jq_program_each_input accepts: what the program gives for
 * [e] (e: one element of an input array, taken apart by the parser). */
int jq_eval_element(jq_interp *I, jqv e, jq_cb cb, void *ud);
int jq_interp_init(jq_interp *I, jq_program *p, jqv *named_vals);
void jq_interp_free(jq_interp *I);

/* Used by the builtins. */
int jq_eval(jq_interp *I, const jq_node *n, jq_frame *env, jqv in, jqv path, jq_cb cb, void *ud);
jqv jq_error_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int jq_raise(jq_interp *I, jqv msg); /* sets I->err (consumed), returns JQ_ERR */
char *jq_value_brief(const jqv *v, char *buf, size_t size); /* "type (text...)" */
jqv jq_getpath(jqv v, jqv path);
jqv jq_setpath(jqv v, jqv path, jqv nv);
jqv jq_delpaths(jqv v, jqv paths);
jqv jq_index(jqv t, jqv k);   /* .[k], invalid with message on error */
jqv jq_tostring(jqv v);
bool jq_truthy(const jqv *v);
jqv jq_binop(int op, jqv a, jqv b);

#endif
