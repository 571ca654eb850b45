/*
 * iconv - convert text from one character encoding to another (glibc 2.36's
 * iconv program, through glibc's iconv(3)).
 *
 *   iconv [-f FROM] [-t TO] [-c] [-s] [-o OUTPUT] [FILE]...     iconv -l
 *
 * FROM and TO default to UTF-8 (the sandbox's C.UTF-8 locale); TO may end in
 * //TRANSLIT or //IGNORE as glibc allows; -c drops characters that cannot be
 * converted. Each FILE is read whole (up to the sandbox's string limit) and
 * converted in bounded chunks; output already converted stays written when
 * an error stops the conversion, as in glibc: "illegal input sequence at
 * position N" (N counts bytes of that file), "incomplete character or shift
 * sequence at end of buffer", exit status 1 (-c drops and goes on with
 * status 0, as glibc 2.36 does). -l lists the common encodings
 * (the sandbox reads no host configuration to list all of glibc's).
 */
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <locale.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"
#include "re/re.h"

CMD_DEFINE("iconv", cmd_iconv_main);

#define ICONV_CHUNK 65536

static const char *const iconv_names[] = {
    "ANSI_X3.4-1968//", "ASCII//",        "BIG5//",         "CP1250//",
    "CP1251//",         "CP1252//",       "CP1253//",       "CP1254//",
    "CP1255//",         "CP1256//",       "CP1257//",       "CP437//",
    "CP850//",          "CP866//",        "CP932//",        "CP936//",
    "CP949//",          "EBCDIC-US//",    "EUC-JP//",       "EUC-KR//",
    "EUC-TW//",         "GB18030//",      "GB2312//",       "GBK//",
    "ISO-2022-JP//",    "ISO-2022-KR//",  "ISO-8859-1//",   "ISO-8859-2//",
    "ISO-8859-3//",     "ISO-8859-4//",   "ISO-8859-5//",   "ISO-8859-6//",
    "ISO-8859-7//",     "ISO-8859-8//",   "ISO-8859-9//",   "ISO-8859-10//",
    "ISO-8859-13//",    "ISO-8859-14//",  "ISO-8859-15//",  "ISO-8859-16//",
    "KOI8-R//",         "KOI8-U//",       "LATIN1//",       "MACINTOSH//",
    "SHIFT_JIS//",      "SJIS//",         "TIS-620//",      "UCS-2//",
    "UCS-2BE//",        "UCS-2LE//",      "UCS-4//",        "UCS-4BE//",
    "UCS-4LE//",        "US-ASCII//",     "UTF-16//",       "UTF-16BE//",
    "UTF-16LE//",       "UTF-32//",       "UTF-32BE//",     "UTF-32LE//",
    "UTF-7//",          "UTF-8//",        "UTF8//",         "WCHAR_T//",
    "WINDOWS-1250//",   "WINDOWS-1251//", "WINDOWS-1252//", NULL};

/* Conversions kept open from before a seal (cmd_iconv_preload): glibc then
 * has its gconv configuration and these sets' modules in memory for good. */
static const char *const iconv_preload_sets[] = {
    "ISO-8859-1", "ISO-8859-15", "CP1252", "CP1251", "UTF-16", "UTF-16LE", "UTF-16BE",
    "UTF-32", "UCS-2", "ASCII", "SHIFT_JIS", "EUC-JP", "GB18030", "BIG5", "KOI8-R", NULL};
static iconv_t iconv_kept[2 * (sizeof iconv_preload_sets / sizeof *iconv_preload_sets)];
static pthread_once_t iconv_preload_once = PTHREAD_ONCE_INIT;

static void iconv_preload_init(void) {
  size_t k = 0;
  for (int i = 0; iconv_preload_sets[i]; i++) {
    iconv_kept[k++] = iconv_open("UTF-8", iconv_preload_sets[i]);
    iconv_kept[k++] = iconv_open(iconv_preload_sets[i], "UTF-8");
  }
}

void cmd_iconv_preload(void) { pthread_once(&iconv_preload_once, iconv_preload_init); }

typedef struct iconv_state {
  cmd_ctx *ctx;
  iconv_t cd;
  bool omit;  /* -c */
  int out_fd; /* 1 or -o's */
  char *obuf;
} iconv_state;

static int flush_out(iconv_state *s, size_t n) {
  if (!n) return 0;
  return s->out_fd == 1 ? cmd_out(s->ctx, s->obuf, n)
                        : cmd_write_fd(s->ctx, s->out_fd, s->obuf, n);
}

/* Converts one buffer; returns 0, 1 after a conversion error, or < 0 for I/O. */
static int convert(iconv_state *s, char *data, size_t len) {
  char *in = data;
  size_t left = len;
  iconv(s->cd, NULL, NULL, NULL, NULL);
  for (;;) {
    if (cmd_poll(s->ctx)) return -ECANCELED;
    char *out = s->obuf;
    size_t room = ICONV_CHUNK;
    size_t r = left ? iconv(s->cd, &in, &left, &out, &room)
                    : iconv(s->cd, NULL, NULL, &out, &room);
    int err = r == (size_t)-1 ? errno : 0;
    int rc = flush_out(s, (size_t)(out - s->obuf));
    if (rc < 0) return rc;
    if (!err) {
      if (left == 0) {
        if (!in) return 0; /* the shift state is flushed */
        in = NULL;         /* one more call resets the shift state */
      }
      continue;
    }
    if (err == E2BIG) continue;
    if (err == EILSEQ && s->omit) {
      /* //IGNORE skips what it cannot convert and reports it at the end of
       * the call; a byte it stopped at without progress is dropped here */
      if (left && out == s->obuf) in++, left--;
      continue;
    }
    /* glibc's -s keeps these messages too */
    if (err == EILSEQ)
      cmd_errorf(s->ctx, "illegal input sequence at position %ld", (long)(in - data));
    else if (err == EINVAL)
      cmd_errorf(s->ctx, "incomplete character or shift sequence at end of buffer");
    else
      cmd_errorf(s->ctx, "internal error (illegal descriptor)");
    return 1;
  }
}

static const char iconv_usage[] =
    "Usage: iconv [OPTION...] [FILE...]\n"
    "Convert encoding of given files from one encoding to another.\n\n"
    "  -f, --from-code=NAME       encoding of original text\n"
    "  -t, --to-code=NAME         encoding for output\n"
    "  -l, --list                 list all known coded character sets\n"
    "  -c                         omit invalid characters from output\n"
    "  -o, --output=FILE          output file\n"
    "  -s, --silent               suppress warnings\n";

int cmd_iconv_main(cmd_ctx *ctx, int argc, char **argv) {
  static const char spec[] =
      "(verbose)(help)(version)f:(from-code)t:(to-code)l(list)o:(output)s(silent)c";
  const char *from = "UTF-8", *to = "UTF-8", *output = NULL;
  bool omit = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  /* A loop: -l lists at once, a bad option exits 64 (argp's EX_USAGE). */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'f':
        from = g.arg;
        break;
      case 't':
        to = g.arg;
        break;
      case 'c':
        omit = true;
        break;
      case 's':
        break; /* glibc prints its conversion errors anyway */
      case 'o':
        output = g.arg;
        break;
      case CMD_OPT_LONG: /* --verbose */
        break;
      case 'l':
        cmd_outs(ctx,
                 "The following list contains the character sets the sandbox names.\n"
                 "Others that glibc's iconv(3) knows work too.\n\n");
        for (int i = 0; iconv_names[i]; i++) cmd_outf(ctx, "%s\n", iconv_names[i]);
        return 0;
      CMD_CASES_HELP_VERSION(ctx, iconv_usage);
      default:
        return 64; /* cmd_getopt printed the message */
    }
  }
  char tocode[256];
  if (strlen(to) > 200) to = "?";
  snprintf(tocode, sizeof tocode, "%s%s", to,
           omit && !strstr(to, "//IGNORE") ? "//IGNORE" : "");
  /* //TRANSLIT's tables come from the locale: C.UTF-8's, for this thread only */
  locale_t utf8 = re_utf8_locale();
  locale_t saved = utf8 ? uselocale(utf8) : (locale_t)0;
  iconv_state s = {ctx, iconv_open(tocode, from), omit, 1, NULL};
  if (s.cd == (iconv_t)-1) {
    if (errno == EINVAL) {
      iconv_t a = iconv_open("UTF-8", from), b = iconv_open(tocode, "UTF-8");
      bool fbad = a == (iconv_t)-1, tbad = b == (iconv_t)-1;
      if (!fbad) iconv_close(a);
      if (!tbad) iconv_close(b);
      if (fbad && tbad)
        cmd_errorf(ctx, "conversions from `%s' and to `%s' are not supported", from, to);
      else if (fbad)
        cmd_errorf(ctx, "conversion from `%s' is not supported", from);
      else if (tbad)
        cmd_errorf(ctx, "conversion to `%s' is not supported", to);
      else
        cmd_errorf(ctx, "conversion from `%s' to `%s' is not supported", from, to);
    } else {
      cmd_errorf(ctx, "failed to start conversion processing: %s", cmd_strerror(errno));
    }
    if (saved) uselocale(saved);
    return 1;
  }
  s.obuf = malloc(ICONV_CHUNK);
  int status = 0;
  if (!s.obuf) {
    iconv_close(s.cd);
    if (saved) uselocale(saved);
    return 1;
  }
  if (output) {
    s.out_fd = ctx->io->open(ctx->io_ud, output, O_WRONLY | O_CREAT | O_TRUNC,
                             0666 & ~ctx->umask);
    if (s.out_fd < 0) {
      cmd_record_error(ctx, s.out_fd, output);
      cmd_errorf(ctx, "cannot open output file: %s", cmd_strerror(s.out_fd));
      status = 1;
      goto out;
    }
  }
  int nfiles = argc - g.ind;
  for (int i = 0; i < (nfiles ? nfiles : 1) && status == 0; i++) {
    const char *path = nfiles ? argv[g.ind + i] : "-";
    cmd_in *in;
    char *data = NULL;
    size_t len = 0;
    int rc = cmd_in_open(ctx, path, &in);
    if (rc == 0) {
      rc = cmd_in_slurp(in, &data, &len);
      cmd_in_close(in);
    }
    if (rc < 0) {
      cmd_record_error(ctx, rc, path);
      cmd_errorf(ctx, "cannot open input file `%s': %s", path, cmd_strerror(rc));
      free(data);
      status = 1;
      break;
    }
    rc = convert(&s, data, len);
    free(data);
    if (rc != 0) status = 1;
  }
out:
  if (output && s.out_fd >= 0) ctx->io->close(ctx->io_ud, s.out_fd);
  free(s.obuf);
  iconv_close(s.cd);
  if (saved) uselocale(saved);
  return status;
}
