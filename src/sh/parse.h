/*
 * parse.h - the shell parser's interface.
 *
 * The parser reads a script one complete command at a time (a line, or more
 * when the command spans lines), like bash: sh_parse_next returns the next
 * top-level list so the executor can run it before the rest is parsed. That is
 * what makes an alias defined on line 1 usable on line 2, and a syntax error on
 * line 5 leave lines 1-4 executed.
 *
 * Each top-level command gets a fresh arena: the caller receives it with the
 * node and unrefs it after executing (function definitions keep their own
 * reference).
 */
#ifndef SBX_SH_PARSE_H
#define SBX_SH_PARSE_H

#include "sh/ast.h"

typedef struct sh_parser sh_parser;

typedef struct sh_parse_opts {
  /* Alias lookup: the alias's value or NULL. May be NULL (no aliases). */
  const char *(*alias)(void *ud, const char *name);
  /* Is shopt extglob on right now (checked per word)? NULL: off. */
  bool (*extglob)(void *ud);
  /* Is set -o posix on right now? NULL: off. */
  bool (*posix)(void *ud);
  /* Warnings (unterminated here-document): a message without "sbx: ". */
  void (*warn)(void *ud, int line, const char *msg);
  void *ud;
  int first_line;        /* line number of the first line (default 1) */
  int max_depth;         /* nesting limit (0: default 1000) */
  const char *name;      /* source name for BASH_SOURCE (borrowed, may be NULL) */
  bool name_is_file;     /* name is a file's (error messages name it) */
} sh_parse_opts;

/* The one command of a parsed list that holds a single foreground command
 * (unwrapping a one-stage pipeline), or NULL. */
sh_node *sh_node_only_command(sh_node *list);

/* Creates a parser over `src` (borrowed: must outlive the parser). opts may be
 * NULL; it is copied. */
sh_parser *sh_parser_new(const char *src, size_t len, const sh_parse_opts *opts);
void sh_parser_free(sh_parser *p);

/*
 * Parses the next complete command. Returns 1 with *node (a SH_N_LIST) and
 * *arena (the caller's reference), 0 at the end of input, or -1 on a syntax
 * error (message with sh_parser_error). After an error the parser is done.
 */
int sh_parse_next(sh_parser *p, sh_node **node, sh_arena **arena);

/* Parses everything into one list (for function bodies from strings, tests).
 * Returns 0 / -1 as above; *node may be NULL for an empty script. */
int sh_parse_all(sh_parser *p, sh_node **node, sh_arena **arena);

/* The error: "syntax error near unexpected token `fi'" (no "sbx: line N: "). */
const char *sh_parser_error(const sh_parser *p);
int sh_parser_error_line(const sh_parser *p);
/* The error happened inside the (...) of an array assignment: bash reports
 * it with status 1 and reads on from the next line. */
bool sh_parser_error_in_array(const sh_parser *p);
/* The current line (after the last command parsed). */
int sh_parser_line(const sh_parser *p);
/* Bytes of the source consumed so far (for set -v, which echoes input as read). */
size_t sh_parser_offset(const sh_parser *p);

/* Is the text a complete script? 1 yes, 0 it needs more lines (open quote,
 * compound command...), -1 it has a syntax error. For the interactive prompt. */
int sh_parse_check(const char *s, size_t n);

/* Parses a word from a string as if it were inside double quotes (here-doc
 * bodies, arithmetic text, PS4, ${x@P}). Returns NULL with *err set on error. */
sh_word *sh_parse_dq_string(sh_arena *a, const char *s, size_t n, int line,
                            char **err);

/* Parses text as one word with the quoting rules of an unquoted word, blanks
 * kept (subscripts given as strings). NULL with *err on error. */
sh_word *sh_parse_word_string(sh_arena *a, const char *s, size_t n, int line, char **err);

#endif
