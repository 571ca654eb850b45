/*
 * gnu.h - small pieces of GNU coreutils' behaviour shared by the text
 * commands (head, tail, split, od, sort, wc, ...): gnulib's quote() under a
 * UTF-8 locale, xstrtoumax's number-with-suffix parsing and its standard
 * error messages, and a loop over file operands.
 */
#ifndef SBX_CMD_UTIL_GNU_H
#define SBX_CMD_UTIL_GNU_H

#include <stdint.h>

#include "cmd/cmd.h"

/* The UTF-8 quotation marks of GNU messages: ‘ and ’. */
#define CMD_LQ "\xe2\x80\x98"
#define CMD_RQ "\xe2\x80\x99"

/* gnulib quote(s) in a UTF-8 locale: ‘s’ with C escapes for control bytes,
 * octal for invalid UTF-8, and backslashes before '\\' and '’'. The result
 * lives in ctx's arena (never NULL: "‘?’" on OOM). `len` < 0 means strlen. */
const char *cmd_gnu_quote_n(cmd_ctx *ctx, const char *s, long len);
static inline const char *cmd_gnu_quote(cmd_ctx *ctx, const char *s) {
  return cmd_gnu_quote_n(ctx, s, -1);
}

/* gnulib quotef(s) (file names in "NAME: FILE: reason" messages): the name
 * as is when it is shell-safe, else shell-quoted ('a b', "a'b",
 * 'a'$'\n''b'); ':' also forces quotes. quoteaf(s) always quotes. Arena. */
const char *cmd_gnu_quotef(cmd_ctx *ctx, const char *s);
const char *cmd_gnu_quoteaf(cmd_ctx *ctx, const char *s);
/* "NAME: FILE: strerror(err)" with FILE as quotef gives it; records the
 * error for the C API; returns 1. */
int cmd_gnu_perror(cmd_ctx *ctx, const char *path, int err);
/* cmd_in_open(path) inside a loop over file operands: on failure reports it
 * as cmd_gnu_perror does, sets *status to 1 and returns NULL (the caller goes
 * on to the next operand). The stream is the caller's to cmd_in_close. */
cmd_in *cmd_gnu_open(cmd_ctx *ctx, const char *path, int *status);
/* The next line of `in` inside the same kind of loop (cmd_each_line, paste):
 * returns 1 with *line (in's buffer, good until the next read) and *len, the
 * line without its delimiter (*has_delim: whether it had one, a last line
 * may not); 0 at the end; -1 after reporting a read error as cmd_gnu_perror
 * does with `path` and setting *status to 1. */
int cmd_gnu_getline(cmd_ctx *ctx, cmd_in *in, const char *path, char delim, char **line,
                    size_t *len, bool *has_delim, int *status);

/* gnulib xstrtoumax results (bit flags, like strtol_error). */
enum {
  CMD_NUM_OK = 0,
  CMD_NUM_OVERFLOW = 1,          /* saturated at UINTMAX_MAX */
  CMD_NUM_INVALID_SUFFIX = 2,    /* trailing garbage after the number */
  CMD_NUM_INVALID = 4,           /* no number at all */
};

/*
 * xstrtoumax(s, &end, 10, val, suffixes) with end == NULL semantics: the whole
 * string must be consumed. `suffixes` lists the allowed multiplier letters
 * (b=512 k/K=1024 m/M G T P E Z Y, c=1, w=2, B=1024); a '0' in it allows a
 * second "B" (powers of 1000) or "iB" (1024). NULL: no suffix allowed.
 * A leading '-' (after blanks) is invalid. Returns CMD_NUM_* flags.
 */
int cmd_parse_umax(const char *s, const char *suffixes, uintmax_t *val);
/* The closing paragraph of GNU's --help for a NUM with those suffixes (head,
 * tail). */
#define CMD_GNU_NUM_SUFFIX_HELP                                                    \
  "NUM may have a multiplier suffix:\n"                                           \
  "b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,\n"                          \
  "GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.\n"           \
  "Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n"

/* gnulib's report of a bad number argument: "NAME: WHAT: ‘s’", with
 * ": strerror(errnum)" after it when errnum is not 0. Returns -1. Shared by
 * the two checks below and by commands that parse their own numbers (tail). */
int cmd_gnu_bad_number(cmd_ctx *ctx, const char *what, const char *s, int errnum);

/*
 * gnulib xdectoumax-style check: parses `s` with `suffixes` and, on any error
 * or a value outside [min, max], prints "NAME: WHAT: ‘s’" (plus ": Value too
 * large for defined data type" on overflow) and returns -1; else 0.
 */
int cmd_parse_umax_or_die(cmd_ctx *ctx, const char *s, const char *suffixes,
                          uintmax_t min, uintmax_t max, const char *what,
                          uintmax_t *val);

/* A count where GNU reads any value too large to hold as "no limit"
 * (base64 -w, shuf -n): s in plain decimal, UINTMAX_MAX on overflow.
 * Returns 0, or -1 after cmd_gnu_bad_number's "NAME: WHAT: ‘s’". */
int cmd_parse_count_or_max(cmd_ctx *ctx, const char *s, const char *what, uintmax_t *val);

/* The signed twin (xdectoimax): optional sign, no suffixes. */
int cmd_parse_imax_or_die(cmd_ctx *ctx, const char *s, intmax_t min, intmax_t max,
                          const char *what, intmax_t *val);

/* Adds a to *acc, saturating: returns 1 on overflow. */
static inline int cmd_add_sat(uintmax_t *acc, uintmax_t a) {
  if (*acc > UINTMAX_MAX - a) { *acc = UINTMAX_MAX; return 1; }
  *acc += a;
  return 0;
}

/* After a failed write to stdout (err < 0 from cmd_out/cmd_flush): prints
 * "NAME: write error: REASON" unless it is EPIPE, and returns the status to
 * exit with (141 for EPIPE, as GNU dies of SIGPIPE; 1 otherwise). */
int cmd_write_error(cmd_ctx *ctx, int err);

/* Opens an input operand for raw fd reads: "-" is fd 0. Returns the fd or a
 * negative errno; -EISDIR for a directory (GNU tools report that as a read
 * error: callers print "error reading"). Close with cmd_close_input (which
 * leaves fd 0 open). */
int cmd_open_input(cmd_ctx *ctx, const char *path);
void cmd_close_input(cmd_ctx *ctx, int fd);
/* Reads until `n` bytes or EOF (retrying short reads). Returns the count or a
 * negative errno. */
ssize_t cmd_read_full(cmd_ctx *ctx, int fd, void *buf, size_t n);
/* One read of at most `n` bytes for a streaming command (head, tail): checks
 * for cancellation first and retries a read interrupted by EINTR. Returns the
 * count, 0 at EOF, or a negative errno; -EINTR only when cancelled. */
ssize_t cmd_read_once(cmd_ctx *ctx, int fd, void *buf, size_t n);

/* A C.UTF-8 locale object (created once, never freed) for the wide-character
 * classification GNU does under LC_ALL=C.UTF-8: use it with uselocale() around
 * calls to wcwidth, iswprint, iswspace, mbrtowc..., and restore the previous
 * locale before returning (uselocale is per-thread, so nothing else sees it).
 * Returns (locale_t)0 if the host lacks C.UTF-8. */
#include <locale.h>
locale_t cmd_utf8_locale(void);

/* For a process about to seal itself (src/iso): what file and iconv read from
 * the host on first use (libmagic's database; glibc's gconv configuration and
 * the modules of the common character sets) is loaded now and kept for the
 * life of the process. Elsewhere each call loads what it needs. */
void cmd_file_preload(void);
void cmd_iconv_preload(void);

/* Decodes one UTF-8 character at s (avail bytes) the way glibc's mbrtowc does
 * in C.UTF-8: returns its length (1..4) and sets *wc, 0 if the bytes are an
 * incomplete but so far valid prefix (need more input), or -1 if invalid
 * (the caller skips one byte). */
int cmd_utf8_decode(const unsigned char *s, size_t avail, uint32_t *wc);

/* Reads a whole input ("-" = stdin) into a malloc'd buffer (NUL-terminated
 * beyond *len), up to `limit` bytes; seekable inputs are sized first.
 * Returns 0, -EFBIG beyond the limit, or another negative errno (-EISDIR for
 * a directory). Prints nothing. */
int cmd_read_all(cmd_ctx *ctx, const char *path, size_t limit, char **data, size_t *len);

/* Operand count checks with GNU's messages ("missing operand", "missing
 * operand after ‘X’", "extra operand ‘X’" and the --help hint). Returns 0 when
 * argc - ind is within [min, max] (max < 0: no limit), else 1 after printing. */
int cmd_check_operands(cmd_ctx *ctx, int argc, char **argv, int ind, int min, int max);

/* Calls fn for every line of every input ("-" when nfiles is 0) with the
 * line without its delimiter. Open and read errors are reported GNU-style
 * ("NAME: FILE: reason") and make the result 1; fn returning non-zero, a
 * write error or cancellation stops everything. Returns the exit status. */
typedef int (*cmd_line_fn)(void *ud, const char *line, size_t len, bool has_delim);
int cmd_each_line(cmd_ctx *ctx, char *const *files, int nfiles, char delim, cmd_line_fn fn,
                  void *ud);

/* Number of `delim` bytes in [p, p+len). */
uintmax_t cmd_count_delim(const char *p, size_t len, char delim);
/* Offset just after the k-th `delim` (k >= 1, present) in [p, p+len). */
size_t cmd_after_nth_delim(const char *p, size_t len, uintmax_t k, char delim);

/* A growable byte window [start, len) over streamed input, compacted lazily
 * (head -n -N, tail -n N on pipes). */
typedef struct cmd_window {
  char *data;    /* malloc'd storage */
  size_t start;  /* first byte still wanted */
  size_t len;    /* bytes stored */
  size_t cap;    /* allocated size */
} cmd_window;
/* Makes room for `more` bytes after len; -ENOMEM beyond `limit` bytes. */
int cmd_window_reserve(cmd_window *w, size_t more, size_t limit);

/* A buffered output that is either stdout (through cmd_out) or a file opened
 * through ctx->io (sort -o, uniq IN OUT, split, csplit, tee). */
typedef struct cmd_outfile {
  cmd_ctx *ctx;  /* owner */
  int fd;        /* 1 for stdout, else our descriptor */
  char *buf;     /* staging buffer for a file (malloc'd) */
  size_t len;    /* bytes staged */
  int err;       /* first write error (negative errno), 0 if none */
} cmd_outfile;

/* Opens `path` (NULL or "-" mean stdout) with open flags (O_WRONLY|O_CREAT|
 * O_TRUNC typically) and mode 0666 (the umask applies). Returns 0 or a
 * negative errno; prints nothing. */
int cmd_outfile_open(cmd_ctx *ctx, cmd_outfile *o, const char *path, int oflags);
/* Buffered write; errors are kept in o->err (later writes are dropped). */
void cmd_outfile_write(cmd_outfile *o, const void *p, size_t n);
/* Flushes staged bytes (stdout: into ctx's buffer). Returns o->err. */
int cmd_outfile_flush(cmd_outfile *o);
/* Flushes and closes; returns the first error (negative errno) or 0. */
int cmd_outfile_close(cmd_outfile *o);

/* Broken-down local time for `t` under the TZ of ctx's environment (the
 * zone rules of lib/datetime.h). tm_zone points into ctx's arena. Returns 0,
 * or -1 if t is out of range. */
struct tm;
int cmd_localtime(cmd_ctx *ctx, int64_t t, struct tm *out);

/* argv with each obsolete "-NUM" argument before "--" split into `opt` and
 * NUM ("fold -5" is "fold -w 5", "strings -8" is "strings -n 8"), in ctx's
 * arena (NULL on OOM); *ac gets its count. */
char **cmd_gnu_num_option(cmd_ctx *ctx, int argc, char **argv, const char *opt, int *ac);

/* The block size of the environment as du, ls and df read it: `var`
 * ("DU_BLOCK_SIZE"), else BLOCK_SIZE, parsed by cmd_parse_blocksize. Returns
 * whether one was set and valid (then *block and *human are filled). */
bool cmd_gnu_env_blocksize(cmd_ctx *ctx, const char *var, uint64_t *block, int *human);

/* The backup options of install and ln, read from st after their option
 * loop: -b, --backup[=CONTROL] (the long-only `backup_opt`) or -S SUFFIX ask
 * for backups. *suffix gets the last -S's or "~". Returns whether backups
 * are asked for. */
bool cmd_gnu_backup_opts(const cmd_getopt_state *st, int backup_opt,
                         const char **suffix);

#endif
