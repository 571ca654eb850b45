/*
 * ast.h - the syntax tree the parser builds and the executor walks.
 *
 * Shape (after mrsh): every command node starts with `sh_node` (kind, source
 * line and column, redirections) and is downcast with the checked accessors
 * below. Words are lists of parts: the parser already splits a word into its
 * literal, quoted and expansion pieces, so expansion never re-scans quotes.
 *
 * Ownership: every node, word and string of one parse lives in that parse's
 * sh_arena (util.h). A function definition holds a reference to the arena, so
 * the body outlives the parse. Nothing in the tree is freed individually.
 */
#ifndef SBX_SH_AST_H
#define SBX_SH_AST_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sh/util.h"

typedef struct sh_node sh_node;
typedef struct sh_word sh_word;
typedef struct sh_part sh_part;
struct sh_assign;

/* ---- words ------------------------------------------------------------------ */

typedef enum sh_part_kind {
  SH_PART_LIT,      /* unquoted literal text: brace, tilde and glob active */
  SH_PART_QLIT,     /* quoted literal text ('..', \c, $'..', text inside "..") */
  SH_PART_DQUOTE,   /* "...": the children are QLIT and expansions */
  SH_PART_PARAM,    /* $name, $1, $@, ${...} */
  SH_PART_CMDSUB,   /* $(...) or `...` */
  SH_PART_ARITH,    /* $((...)) */
  SH_PART_PROCSUB,  /* <(...) or >(...) */
  SH_PART_ARRAY,    /* the (...) of an array assignment a=(...) */
} sh_part_kind;

/* Parameter expansion operators (${name OP arg}). */
typedef enum sh_param_op {
  SH_POP_NONE,
  SH_POP_DEFAULT,     /* ${x-w}  ${x:-w} */
  SH_POP_ASSIGN,      /* ${x=w}  ${x:=w} */
  SH_POP_ERROR,       /* ${x?w}  ${x:?w} */
  SH_POP_ALT,         /* ${x+w}  ${x:+w} */
  SH_POP_RM_PREFIX,   /* ${x#p} */
  SH_POP_RM_PREFIX_L, /* ${x##p} */
  SH_POP_RM_SUFFIX,   /* ${x%p} */
  SH_POP_RM_SUFFIX_L, /* ${x%%p} */
  SH_POP_REPL,        /* ${x/p/r} */
  SH_POP_REPL_ALL,    /* ${x//p/r} */
  SH_POP_REPL_PREFIX, /* ${x/#p/r} */
  SH_POP_REPL_SUFFIX, /* ${x/%p/r} */
  SH_POP_UPPER1,      /* ${x^p} */
  SH_POP_UPPER,       /* ${x^^p} */
  SH_POP_LOWER1,      /* ${x,p} */
  SH_POP_LOWER,       /* ${x,,p} */
  SH_POP_TOGGLE1,     /* ${x~p} */
  SH_POP_TOGGLE,      /* ${x~~p} */
  SH_POP_SLICE,       /* ${x:off} ${x:off:len} */
  SH_POP_TRANSFORM,   /* ${x@Q} and the other letters */
  SH_POP_NAMES,       /* ${!prefix*} ${!prefix@} */
  SH_POP_KEYS,        /* ${!a[@]} ${!a[*]} */
} sh_param_op;

typedef struct sh_param {
  const char *name;   /* variable name, digits, or one of @ * # ? - $ ! 0 */
  sh_word *index;     /* subscript text for name[...] (NULL if none) */
  char index_all;     /* '@' or '*' for name[@] / name[*], else 0 */
  bool brace;         /* written with braces */
  bool length;        /* ${#x} */
  bool indirect;      /* ${!x} */
  bool colon;         /* the ':' form of - = ? + */
  sh_param_op op;     /* operator, SH_POP_NONE for plain */
  char names_all;     /* SH_POP_NAMES: '@' or '*' */
  char transform;     /* SH_POP_TRANSFORM: the letter (Q E P A K a k u U L) */
  sh_word *arg;       /* the word / pattern / offset (may be NULL) */
  sh_word *arg2;      /* replacement / length (NULL if absent) */
  int line;           /* for messages */
  const char *text;   /* the source text between ${ and } (for messages) */
} sh_param;

/* One element of an array literal: [key]=value, [key]+=value or value. */
typedef struct sh_array_elem {
  sh_word *key;  /* NULL for a plain element */
  bool append;   /* [k]+=v */
  sh_word *value;
  sh_word *whole; /* [k]=v: the whole element as a word (brace expansion quirk) */
} sh_array_elem;

struct sh_part {
  sh_part_kind kind;
  sh_part *next;
  union {
    struct {
      const char *s; /* LIT / QLIT text (not NUL-terminated inside; use n) */
      size_t n;
    } lit;
    sh_part *children; /* DQUOTE */
    sh_param *param;   /* PARAM */
    struct {
      sh_node *body;   /* CMDSUB / PROCSUB (NULL = empty) */
      char dir;        /* PROCSUB: '<' or '>' */
      bool backquote;  /* CMDSUB written with backquotes */
    } cmd;
    sh_word *arith;    /* ARITH: the expression text as a dq-like word */
    struct {
      sh_array_elem *elems;
      size_t n;
    } array;           /* ARRAY */
  } u;
};

struct sh_word {
  sh_part *parts; /* NULL for the empty word "" is never produced: "" is DQUOTE */
  int line, col;  /* where the word starts */
  /* When the whole word is one unquoted literal (keywords, aliases, names):
   * that text, else NULL. */
  const char *lit;
  /* When the word has the shape of an assignment (name=, name+=, name[i]=,
   * and [key]= inside an array literal): its parts, else NULL. */
  struct sh_assign *assign;
  const char *raw; /* the source text of the word (NULL if unknown) */
};

/* ---- redirections -------------------------------------------------------------- */

typedef enum sh_redir_op {
  SH_R_IN,        /* <   */
  SH_R_OUT,       /* >   */
  SH_R_CLOBBER,   /* >|  */
  SH_R_APPEND,    /* >>  */
  SH_R_RDWR,      /* <>  */
  SH_R_DUPIN,     /* <&  */
  SH_R_DUPOUT,    /* >&  */
  SH_R_HEREDOC,   /* << and <<- (body in `heredoc`) */
  SH_R_HERESTR,   /* <<< */
  SH_R_OUTERR,    /* &>  (and >& word when word is not a number) */
  SH_R_APPENDERR, /* &>> */
} sh_redir_op;

typedef struct sh_redir {
  struct sh_redir *next;
  sh_redir_op op;
  int fd;              /* the explicit fd, or -1 for the operator's default */
  const char *fdvar;   /* {name}> form: the variable receiving the fd */
  sh_word *target;     /* file, fd number, '-', here-string, or delimiter */
  sh_word *heredoc;    /* here-document body (expanded unless quoted) */
  bool heredoc_quoted; /* delimiter was quoted: body is literal */
  bool heredoc_strip;  /* <<- */
  int line;
} sh_redir;

/* ---- commands ---------------------------------------------------------------------- */

typedef enum sh_node_kind {
  SH_N_SIMPLE,
  SH_N_PIPELINE,
  SH_N_ANDOR,
  SH_N_LIST,
  SH_N_SUBSHELL,
  SH_N_GROUP,
  SH_N_IF,
  SH_N_LOOP,     /* while / until */
  SH_N_FOR,      /* for / select */
  SH_N_CFOR,     /* for ((;;)) */
  SH_N_CASE,
  SH_N_FUNCDEF,
  SH_N_ARITH,    /* (( expr )) */
  SH_N_COND,     /* [[ expr ]] */
  SH_N_TIME,     /* time pipeline */
} sh_node_kind;

struct sh_node {
  sh_node_kind kind;
  int line, col;     /* where the command starts */
  sh_redir *redirs;  /* redirections of a compound command (simple: own list) */
};

typedef struct sh_assign {
  struct sh_assign *next;
  const char *name;  /* the variable */
  sh_word *index;    /* name[index]=..., or NULL */
  bool append;       /* += */
  sh_word *value;    /* the value word (NULL: empty); for arrays, an ARRAY part */
  int line;
} sh_assign;

typedef struct sh_simple {
  sh_node base;
  sh_assign *assigns; /* prefix assignments */
  sh_word **words;    /* command name and arguments */
  size_t nwords;
} sh_simple;

typedef struct sh_pipeline {
  sh_node base;
  bool bang;          /* ! pipeline */
  size_t n;           /* stages */
  sh_node **cmds;
  bool *pipe_err;     /* pipe_err[i]: stage i joined to i+1 with |& */
} sh_pipeline;

typedef struct sh_andor {
  sh_node base;
  bool is_or;         /* || (else &&) */
  sh_node *left, *right;
} sh_andor;

typedef struct sh_list_item {
  sh_node *cmd;
  bool background;    /* ended by & */
} sh_list_item;

typedef struct sh_list {
  sh_node base;
  size_t n;
  sh_list_item *items;
} sh_list;

typedef struct sh_block {  /* SUBSHELL and GROUP */
  sh_node base;
  sh_node *body;
} sh_block;

typedef struct sh_if {
  sh_node base;
  sh_node *cond, *then_part, *else_part; /* else_part may be NULL or another if */
} sh_if;

typedef struct sh_loop {
  sh_node base;
  bool until;
  sh_node *cond, *body;
} sh_loop;

typedef struct sh_for {
  sh_node base;
  bool select;
  const char *name;
  bool has_in;        /* `in` given (else "$@") */
  sh_word **words;
  size_t nwords;
  sh_node *body;
} sh_for;

typedef struct sh_cfor {
  sh_node base;
  sh_word *init, *cond, *step; /* each may be NULL */
  sh_node *body;
} sh_cfor;

typedef enum sh_case_term { SH_CASE_BREAK, SH_CASE_FALL, SH_CASE_TEST } sh_case_term;

typedef struct sh_case_item {
  sh_word **patterns;
  size_t npatterns;
  sh_node *body;      /* may be NULL */
  sh_case_term term;  /* ;;  ;&  ;;& */
} sh_case_item;

typedef struct sh_case {
  sh_node base;
  sh_word *word;
  sh_case_item *items;
  size_t n;
} sh_case;

typedef struct sh_funcdef {
  sh_node base;
  const char *name;
  sh_node *body;
  sh_arena *arena;    /* the arena holding body (borrowed; ref'd on definition) */
  const char *source; /* file name for BASH_SOURCE */
  bool source_is_file; /* source is a file read by source/., a script (not -c, eval...) */
} sh_funcdef;

typedef struct sh_arith_cmd {
  sh_node base;
  sh_word *expr;
} sh_arith_cmd;

typedef enum sh_cond_kind {
  SH_C_AND, SH_C_OR, SH_C_NOT,
  SH_C_UNARY,   /* -f word etc. (op in `op`) */
  SH_C_BINARY,  /* word op word */
  SH_C_WORD,    /* a single word: true if non-empty */
} sh_cond_kind;

typedef struct sh_cond_expr {
  sh_cond_kind kind;
  const char *op;                 /* "-f", "==", "=~", "-lt", ... */
  struct sh_cond_expr *left, *right;
  sh_word *w1, *w2;
} sh_cond_expr;

typedef struct sh_cond {
  sh_node base;
  sh_cond_expr *expr;
} sh_cond;

typedef struct sh_time {
  sh_node base;
  bool posix;         /* time -p */
  sh_node *pipeline;  /* may be NULL: `time` alone */
} sh_time;

/* Checked downcasts. */
#define SH_CAST(T, K, n) (assert((n)->kind == (K)), (T *)(n))
static inline sh_simple *sh_node_simple(sh_node *n) { return SH_CAST(sh_simple, SH_N_SIMPLE, n); }
static inline sh_pipeline *sh_node_pipeline(sh_node *n) { return SH_CAST(sh_pipeline, SH_N_PIPELINE, n); }
static inline sh_andor *sh_node_andor(sh_node *n) { return SH_CAST(sh_andor, SH_N_ANDOR, n); }
static inline sh_list *sh_node_list(sh_node *n) { return SH_CAST(sh_list, SH_N_LIST, n); }
static inline sh_block *sh_node_block(sh_node *n) {
  assert(n->kind == SH_N_SUBSHELL || n->kind == SH_N_GROUP);
  return (sh_block *)n;
}
static inline sh_if *sh_node_if(sh_node *n) { return SH_CAST(sh_if, SH_N_IF, n); }
static inline sh_loop *sh_node_loop(sh_node *n) { return SH_CAST(sh_loop, SH_N_LOOP, n); }
static inline sh_for *sh_node_for(sh_node *n) { return SH_CAST(sh_for, SH_N_FOR, n); }
static inline sh_cfor *sh_node_cfor(sh_node *n) { return SH_CAST(sh_cfor, SH_N_CFOR, n); }
static inline sh_case *sh_node_case(sh_node *n) { return SH_CAST(sh_case, SH_N_CASE, n); }
static inline sh_funcdef *sh_node_funcdef(sh_node *n) { return SH_CAST(sh_funcdef, SH_N_FUNCDEF, n); }
static inline sh_arith_cmd *sh_node_arith(sh_node *n) { return SH_CAST(sh_arith_cmd, SH_N_ARITH, n); }
static inline sh_cond *sh_node_cond(sh_node *n) { return SH_CAST(sh_cond, SH_N_COND, n); }
static inline sh_time *sh_node_time(sh_node *n) { return SH_CAST(sh_time, SH_N_TIME, n); }

#endif
