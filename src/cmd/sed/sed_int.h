/*
 * sed_int.h - the compiled form of a sed script, shared by sed_parse.c (the
 * compiler, GNU sed 4.9's grammar and messages) and sed.c (options, input,
 * execution). Ownership: every pointer inside a sed_prog is malloc'd and
 * freed by sed_prog_free; regexes are owned by the program's regex list.
 */
#ifndef SBX_CMD_SED_INT_H
#define SBX_CMD_SED_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"
#include "re/re.h"

/* Address kinds. */
enum sed_addr_kind {
  SA_NONE,   /* no address */
  SA_LINE,   /* N */
  SA_LAST,   /* $ */
  SA_REGEX,  /* /re/ */
  SA_STEP,   /* first~step */
  SA_PLUS,   /* addr1,+N (second address only) */
  SA_MULT,   /* addr1,~N (second address only) */
  SA_ZERO,   /* 0 in 0,/re/ */
};

typedef struct sed_regex {
  re *rx;         /* compiled; NULL for the empty regex (the last one used) */
  size_t nsub;    /* groups */
  unsigned flags; /* RE_* compile flags used */
} sed_regex;

typedef struct sed_addr {
  int kind;        /* enum sed_addr_kind */
  uint64_t n;      /* line, first, or N */
  uint64_t step;   /* SA_STEP */
  sed_regex *rx;   /* SA_REGEX (borrowed from the program's list) */
} sed_addr;

/* One piece of an s replacement. */
enum sed_rkind {
  SR_TEXT,  /* literal text */
  SR_GROUP, /* \N or & (group 0) */
  SR_CASE,  /* \L \U \l \u \E */
};
typedef struct sed_rpart {
  int kind;     /* enum sed_rkind */
  char *text;   /* SR_TEXT */
  size_t len;   /* its length */
  int group;    /* SR_GROUP */
  char op;      /* SR_CASE: 'L' 'U' 'l' 'u' 'E' */
} sed_rpart;

/* An output file of w / W / s///w (opened once, truncated at start). */
typedef struct sed_wfile {
  char *name;      /* as written in the script */
  int fd;          /* caller's fd, or -1 for /dev/stdout (1) */
  bool is_stdout;  /* /dev/stdout */
  bool is_stderr;  /* /dev/stderr */
  bool missing_nl; /* the last write lacked its newline */
  char *buf;       /* pending bytes */
  size_t len;      /* used */
  struct sed_wfile *next; /* list */
} sed_wfile;

/* An input file of R (opened on first use, read a line per execution). */
typedef struct sed_rfile {
  char *name;       /* file name */
  cmd_in *in;       /* reader (NULL before first use) */
  bool failed;      /* could not be opened / at EOF */
  struct sed_rfile *next; /* list */
} sed_rfile;

typedef struct sed_cmd {
  char cmd;          /* the command letter ('{' '}' ':' ...) */
  sed_addr a1, a2;   /* addresses (kind SA_NONE when absent) */
  bool neg;          /* ! */
  bool range_active; /* inside a range */
  bool range_closed; /* a range whose addr1 is a line number has ended: it
                        starts at most once */
  uint64_t range_end;/* numeric end of an active range (SA_LINE/PLUS/MULT) */
  /* a i c */
  char *text;        /* text with its trailing newline */
  size_t textlen;    /* length */
  /* b t T : and { } */
  char *label;       /* label name (b t T :), NULL = end of script */
  int32_t jump;      /* target index (b t T; '{': index of its '}') */
  /* s */
  sed_regex *rx;     /* s regex */
  sed_rpart *repl;   /* replacement parts */
  size_t nrepl;      /* count */
  int maxref;        /* highest \N used */
  bool global;       /* g */
  uint64_t nth;      /* N (1 = first) */
  int print;         /* p (0/1) */
  /* y */
  unsigned char ymap[256]; /* byte mapping (single-byte y) */
  char **ypairs;     /* multibyte y: src0, dst0, src1, dst1, ..., NULL */
  /* q Q l L */
  int int_arg;       /* exit code / line length; -1 when absent */
  /* r R w W, s///w */
  char *fname;       /* r: file name */
  sed_wfile *wf;     /* w W s///w */
  sed_rfile *rf;     /* R */
} sed_cmd;

typedef struct sed_prog {
  sed_cmd *cmds;     /* commands */
  size_t n;          /* count */
  size_t cap;        /* allocated */
  sed_regex **rxs;   /* every regex (for freeing) */
  size_t nrx;        /* count */
  size_t caprx;      /* allocated */
  sed_wfile *wfiles; /* w files */
  sed_rfile *rfiles; /* R files */
  bool quiet_hash_n; /* the script started with "#n\n" */
  bool partial;      /* cmds[n] holds a command being built (freed on error) */
} sed_prog;

/* A piece of script: a -e expression or the text of a -f file. */
typedef struct sed_source {
  const char *text;  /* bytes (borrowed) */
  size_t len;        /* length */
  const char *file;  /* -f file name, or NULL for -e */
  int expr_no;       /* -e number (1-based) */
} sed_source;

typedef struct sed_opts {
  bool extended;     /* -E */
  bool posix;        /* --posix */
  bool sandbox;      /* --sandbox: no r/w/e */
  bool utf8;         /* UTF-8 locale */
  bool nulldata;     /* -z */
} sed_opts;

/* Compiles the sources. On error prints GNU's message ("sed: -e expression
 * #1, char 3: ...") and returns the exit status (1, or 4 for a missing
 * label); 0 on success. w files are opened here (GNU creates them at once). */
int sed_compile(cmd_ctx *ctx, const sed_source *src, size_t nsrc, const sed_opts *o,
                sed_prog *prog);
void sed_prog_free(cmd_ctx *ctx, sed_prog *prog);

#endif
