/*
 * cut - remove sections from each line of files.
 *
 *   Usage: cut OPTION... [FILE]...
 *   -b, --bytes=LIST  -c, --characters=LIST  -f, --fields=LIST
 *   -d, --delimiter=DELIM  (fields; default TAB)   -n (ignored)
 *   -s, --only-delimited   --complement   --output-delimiter=STRING
 *   -z, --zero-terminated
 *
 * Design: the LIST becomes sorted, merged ranges (cut/cut_list.c); each line
 * is then emitted span by span (bytes) or field by field (memchr for the
 * delimiter), never byte by byte. Like GNU cut 9.1, -c counts bytes, not
 * characters. Lines without the delimiter pass whole in field mode unless
 * -s; every output line ends with the line delimiter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "cmd/cut/cut_list.h"

CMD_DEFINE("cut", cmd_cut_main);

static const char cut_usage[] =
    "Usage: cut OPTION... [FILE]...\n"
    "Print selected parts of lines from each FILE to standard output.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options too.\n"
    "  -b, --bytes=LIST        select only these bytes\n"
    "  -c, --characters=LIST   select only these characters\n"
    "  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter\n"
    "  -f, --fields=LIST       select only these fields;  also print any line\n"
    "                            that contains no delimiter character, unless\n"
    "                            the -s option is specified\n"
    "  -n                      (ignored)\n"
    "      --complement        complement the set of selected bytes, characters\n"
    "                            or fields\n"
    "  -s, --only-delimited    do not print lines not containing delimiters\n"
    "      --output-delimiter=STRING  use STRING as the output delimiter\n"
    "                            the default is to use the input delimiter\n"
    "  -z, --zero-terminated   line delimiter is NUL, not newline\n"
    CMD_HELP_VERSION_LINES
    "\n"
    "Use one, and only one of -b, -c or -f.  Each LIST is made up of one\n"
    "range, or many ranges separated by commas.  Selected input is written\n"
    "in the same order that it is read, and is written exactly once.\n"
    "Each range is one of:\n"
    "\n"
    "  N     N'th byte, character or field, counted from 1\n"
    "  N-    from N'th byte, character or field, to end of line\n"
    "  N-M   from N'th to M'th (included) byte, character or field\n"
    "  -M    from first to M'th (included) byte, character or field\n";

typedef struct cut_opts {
  cmd_ranges r;           /* selected positions */
  bool fields;            /* -f (else bytes) */
  char delim;             /* field delimiter */
  bool only_delimited;    /* -s */
  const char *outdelim;   /* output delimiter, or NULL (= delim) */
  size_t outdelim_len;    /* its length */
  char eol;               /* '\n' or '\0' */
  cmd_ctx *ctx;           /* for the line callback */
} cut_opts;

static void cut_bytes_line(cmd_ctx *ctx, const cut_opts *o, const char *p, size_t len) {
  bool printed = false;
  for (size_t i = 0; i < o->r.n; i++) {
    uintmax_t lo = o->r.v[i].lo, hi = o->r.v[i].hi;
    if (lo > len) break;
    if (hi > len) hi = len;
    if (o->outdelim && printed) cmd_out(ctx, o->outdelim, o->outdelim_len);
    cmd_out(ctx, p + lo - 1, (size_t)(hi - lo + 1));
    printed = true;
  }
  cmd_out(ctx, &o->eol, 1);
}

static void cut_fields_line(cmd_ctx *ctx, const cut_opts *o, const char *p, size_t len) {
  const char *end = p + len;
  const char *d = memchr(p, o->delim, len);
  if (!d) {
    if (!o->only_delimited) {
      cmd_out(ctx, p, len);
      cmd_out(ctx, &o->eol, 1);
    }
    return;
  }
  const char *od = o->outdelim ? o->outdelim : &o->delim;
  size_t odl = o->outdelim ? o->outdelim_len : 1;
  bool printed = false;
  uintmax_t field = 1;
  size_t ri = 0;
  const char *s = p;
  while (ri < o->r.n) {
    const char *e = d ? d : end;
    while (ri < o->r.n && o->r.v[ri].hi < field) ri++;
    if (ri == o->r.n) break;
    if (o->r.v[ri].lo <= field) {
      if (printed) cmd_out(ctx, od, odl);
      cmd_out(ctx, s, (size_t)(e - s));
      printed = true;
    }
    if (!d) break;
    s = d + 1;
    d = memchr(s, o->delim, (size_t)(end - s));
    field++;
  }
  cmd_out(ctx, &o->eol, 1);
}

static int cut_line(void *ud, const char *line, size_t len, bool has_delim) {
  const cut_opts *o = ud;
  if (o->fields) cut_fields_line(o->ctx, o, line, len);
  else cut_bytes_line(o->ctx, o, line, len);
  return 0;
}

static int cut_fatal(cmd_ctx *ctx, const char *msg) {
  cmd_errorf(ctx, "%s", msg);
  return cmd_usage_hint(ctx, 1);
}

int cmd_cut_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_OUTPUT_DELIMITER = CMD_OPT_LONG, O_COMPLEMENT };
  static const char spec[] = "(output-delimiter):(complement)(help)(version)b:(bytes)"
                             "c:(characters)d:(delimiter)f:(fields)ns(only-delimited)"
                             "z(zero-terminated)";
  cut_opts o = {0};
  o.ctx = ctx;
  o.delim = '\t';
  const char *list = NULL;
  int mode = 0; /* 'b' or 'f' */
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* The lists and -d are checked at once, in the order given, as GNU does. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'b': case 'c': case 'f': {
      int m = c == 'f' ? 'f' : 'b';
      if (mode) return cut_fatal(ctx, "only one list may be specified");
      mode = m;
      list = g.arg;
      break;
    }
    case 'd':
      if (g.arg[0] && g.arg[1])
        return cut_fatal(ctx, "the delimiter must be a single character");
      o.delim = g.arg[0];
      break;
    CMD_CASES_HELP_VERSION(ctx, cut_usage);
    case '?': return 1; /* cmd_getopt printed the message */
    }
  }
  bool delim_given = cmd_opt_on(&g, 'd'), complement = cmd_opt_on(&g, O_COMPLEMENT);
  o.only_delimited = cmd_opt_on(&g, 's');
  o.eol = cmd_opt_on(&g, 'z') ? '\0' : '\n';
  /* Like GNU, an empty output delimiter means a NUL byte. */
  o.outdelim = cmd_opt_arg(&g, O_OUTPUT_DELIMITER);
  if (o.outdelim) o.outdelim_len = o.outdelim[0] ? strlen(o.outdelim) : 1;
  if (!mode) return cut_fatal(ctx, "you must specify a list of bytes, characters, or fields");
  o.fields = mode == 'f';
  if (!o.fields && delim_given)
    return cut_fatal(ctx, "an input delimiter may be specified only when operating on fields");
  if (!o.fields && o.only_delimited)
    return cut_fatal(ctx, "suppressing non-delimited lines makes sense\n"
                          "\tonly when operating on fields");
  size_t errlen = strlen(list) * 4 + 128;
  char *errbuf = cmd_alloc(ctx, errlen);
  if (!errbuf) return 1;
  const char *msg;
  unsigned flags = (o.fields ? 0 : CMD_RANGES_POS) | (complement ? CMD_RANGES_COMPLEMENT : 0);
  if (cmd_ranges_parse(list, flags, &o.r, &msg, errbuf, errlen) < 0)
    return cut_fatal(ctx, msg);

  int status = cmd_each_line(ctx, argv + g.ind, argc - g.ind, o.eol, cut_line, &o);
  cmd_ranges_free(&o.r);
  if (ctx->out_err) return cmd_write_error(ctx, ctx->out_err);
  return status;
}
