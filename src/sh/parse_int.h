/*
 * parse_int.h - what lex.c and parse.c share: the parser state, the token, and
 * the character reader. Not used outside those two files.
 *
 * Errors unwind with longjmp to sh_parse_next: everything the parser allocates
 * comes from the arena of the command being parsed, so nothing leaks when a
 * parse is abandoned halfway.
 */
#ifndef SBX_SH_PARSE_INT_H
#define SBX_SH_PARSE_INT_H

#include <setjmp.h>

#include "sh/parse.h"

#define SH_ALIAS_DEPTH_MAX 64   /* nested alias expansions being read */
#define SH_HEREDOC_MAX 64       /* pending here-documents on one line */

typedef enum sh_tok_kind {
  T_EOF,
  T_NEWLINE,
  T_WORD,
  T_REDIR,     /* a redirection operator, with its fd */
  T_AND_IF,    /* && */
  T_OR_IF,     /* || */
  T_DSEMI,     /* ;; */
  T_SEMI_AND,  /* ;& */
  T_DSEMI_AND, /* ;;& */
  T_PIPE,      /* | */
  T_PIPE_AND,  /* |& */
  T_AMP,       /* & */
  T_SEMI,      /* ; */
  T_LPAREN,    /* ( */
  T_RPAREN,    /* ) */
} sh_tok_kind;

typedef struct sh_tok {
  sh_tok_kind kind;
  int line, col;
  sh_word *word;        /* T_WORD */
  sh_redir_op rop;      /* T_REDIR */
  int rfd;              /* T_REDIR: explicit fd or -1 */
  const char *rfdvar;   /* T_REDIR: {name} or NULL */
  bool strip;           /* T_REDIR: <<- */
  bool after_alias_blank; /* follows an alias value ending in a blank */
  const char *text;     /* the token's text, for error messages */
} sh_tok;

typedef struct sh_frame {
  const char *s;       /* text being read */
  size_t len, pos;
  const char *alias;   /* name of the alias whose value this is, or NULL */
  bool blank_end;      /* the alias value ends with a blank */
  char *owned;         /* malloc'd copy of an alias value (outlives one parse) */
} sh_frame;

struct sh_parser {
  bool param_quotes;
  bool slice_ternary;   /* lexing a ${x:offset} offset: a ?: inside it is arithmetic */    /* lexing a ${x/p/r} replacement: '...' quotes even in "..." */
  sh_frame frames[SH_ALIAS_DEPTH_MAX]; /* [0] is the script */
  int nframes;
  int line, col;          /* position of the next character of frame 0 */
  sh_parse_opts opts;
  sh_arena *arena;        /* arena of the command being parsed */
  jmp_buf jb;             /* error exit */
  bool failed;            /* an error happened: the parser is done */
  int array_depth;        /* inside the (...) of an array assignment */
  bool err_in_array;      /* the error happened there: bash reports it with status 1
                           * and goes on with the next line */
  char *errmsg;           /* malloc'd */
  int errline;
  bool have_tok;          /* tok holds a lookahead token */
  sh_tok tok;
  sh_redir *pending[SH_HEREDOC_MAX]; /* here-documents waiting for a newline */
  int npending;
  int depth;              /* current nesting */
  bool alias_next;        /* previous alias ended with a blank */
  bool alias_blank_popped; /* an alias value ending in a blank was just read */
  bool lex_arg;            /* lexing a command's argument: name[...]= spans no blank */
  bool in_backquote;      /* parsing the inside of `...` (for \` handling) */
  struct sh_parser *parent; /* for sub-parsers (backquotes): errors go there */
};

/* ---- lex.c ---------------------------------------------------------------------- */

_Noreturn void sh_perr(sh_parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sh_pdepth_enter(sh_parser *p);
static inline void sh_pdepth_leave(sh_parser *p) { p->depth--; }

int sh_lex_peekc(sh_parser *p);          /* next char or -1 (skips \<newline>) */
int sh_lex_peekn(sh_parser *p, int k);   /* k-th char ahead (0 = next) */
int sh_lex_getc(sh_parser *p);
void sh_lex_skip_blanks(sh_parser *p);   /* spaces, tabs, comments, \<newline> */

sh_tok *sh_lex_peek(sh_parser *p);       /* the lookahead token */
void sh_lex_consume(sh_parser *p);       /* drops the lookahead token */
void sh_lex_push_alias(sh_parser *p, const char *name, const char *value);
bool sh_lex_alias_active(sh_parser *p, const char *name);

/* Word scanning, with the reader positioned at the word's first character. */
#define SH_LW_COND 0x01   /* inside [[ ]]: < > are not part of words */
#define SH_LW_REGEX 0x02  /* right side of =~: ( ) | are part of the word */
#define SH_LW_PAT 0x04    /* right side of == = !=: extglob groups even with extglob off */
sh_word *sh_lex_word(sh_parser *p, int flags);
/* Reads pending here-document bodies (called right after a newline). */
void sh_lex_read_heredocs(sh_parser *p);

/* ---- parse.c -------------------------------------------------------------------- */

/* Parses commands until `)` (consumed) for $(...) and <(...). */
sh_node *sh_parse_cmdsub(sh_parser *p);
/* Parses a complete script string with a sub-parser sharing p's arena. */
sh_node *sh_parse_substring(sh_parser *p, const char *s, size_t n, int line);

#endif
