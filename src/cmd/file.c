/*
 * file - determine file type (the wording of file 5.44 for common types).
 *
 *   file [-bhiLz0] [-F SEP] [--mime-type] [--mime-encoding] FILE...
 *
 * Recognized: empty, directory, symbolic links (broken or not), text in
 * ASCII / UTF-8 (with or without BOM) / UTF-16 (BOM) / ISO-8859 /
 * non-ISO extended ASCII with file's line-terminator, long-line, escape and
 * overstrike remarks, scripts by #! (POSIX shell, Bourne-Again shell, Python,
 * Perl, Ruby, Node.js, awk...), JSON (validated), HTML, XML, and by magic:
 * PNG (size, depth, colour type), GIF, JPEG, PDF, gzip (name, date, size),
 * bzip2, xz, zstd, Zip, POSIX tar, ELF (class, order, type, machine) and
 * SQLite; anything else is "data".
 *
 * Design decisions: the contents of a regular file (its first MiB) go to
 * Debian's libmagic (magic_buffer, the database file(1) uses, loaded once per
 * call), so the answers are file(1)'s; types the store knows (directory,
 * symbolic link, no read permission) come from stat as in file(1). The
 * hand-written table above (first 64 KiB, plus the last 4 bytes of gzip
 * files) answers only when libmagic or its database cannot be loaded. Like
 * file, a missing operand is reported on stdout and the status stays 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <magic.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"
#include "cmd/lib/datetime.h"

CMD_DEFINE("file", cmd_file_main);

#define FILE_WINDOW 65536
#define FILE_MAGIC_WINDOW (1 << 20) /* bytes libmagic sees (file 5.44 reads up to 7 MiB) */

/* What a file was found to be. */
typedef struct file_kind {
  char desc[512];       /* human description */
  char mime[64];        /* MIME type */
  char charset[32];     /* MIME encoding */
} file_kind;

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- JSON validation (enough to say "JSON text data") ------------------------ */

typedef struct jp {
  const unsigned char *p, *end; /* cursor and end */
  int depth;                    /* nesting */
} jp;

static void jws(jp *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
    j->p++;
}

static bool jvalue(jp *j);

static bool jstring(jp *j) {
  if (j->p >= j->end || *j->p != '"') return false;
  j->p++;
  while (j->p < j->end && *j->p != '"') {
    if (*j->p < 0x20) return false;
    if (*j->p == '\\') j->p++;
    j->p++;
  }
  if (j->p >= j->end) return false;
  j->p++;
  return true;
}

static bool jvalue(jp *j) {
  jws(j);
  if (j->p >= j->end || ++j->depth > 256) return false;
  bool ok = false;
  unsigned char c = *j->p;
  if (c == '{' || c == '[') {
    unsigned char close = c == '{' ? '}' : ']';
    j->p++;
    jws(j);
    if (j->p < j->end && *j->p == close) {
      j->p++;
      ok = true;
    } else {
      for (;;) {
        if (c == '{') {
          jws(j);
          if (!jstring(j)) break;
          jws(j);
          if (j->p >= j->end || *j->p != ':') break;
          j->p++;
        }
        if (!jvalue(j)) break;
        jws(j);
        if (j->p < j->end && *j->p == ',') {
          j->p++;
          continue;
        }
        if (j->p < j->end && *j->p == close) {
          j->p++;
          ok = true;
        }
        break;
      }
    }
  } else if (c == '"') {
    ok = jstring(j);
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    while (j->p < j->end && strchr("+-.eE0123456789", *j->p)) j->p++;
    ok = true;
  } else {
    static const char *lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
      size_t l = strlen(lits[i]);
      if ((size_t)(j->end - j->p) >= l && !memcmp(j->p, lits[i], l)) {
        j->p += l;
        ok = true;
      }
    }
  }
  j->depth--;
  return ok;
}

static bool is_json(const unsigned char *b, size_t n) {
  jp j = {b, b + n, 0};
  jws(&j);
  if (j.p >= j.end || (*j.p != '{' && *j.p != '[')) return false;
  if (!jvalue(&j)) return false;
  jws(&j);
  return j.p == j.end;
}

/* ---- text classification ------------------------------------------------------ */

enum { ENC_BINARY, ENC_ASCII, ENC_UTF8, ENC_UTF8_BOM, ENC_UTF16LE, ENC_UTF16BE, ENC_LATIN1,
       ENC_EXTENDED };

static bool text_byte(unsigned char c) {
  return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t' || c == '\f' ||
         c == '\b' || c == 0x1b || c == '\a' || c == '\v';
}

static int encoding(const unsigned char *b, size_t n) {
  if (n >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff))) {
    bool le = b[0] == 0xff;
    for (size_t i = 2; i + 1 < n; i += 2) {
      uint16_t ch = le ? le16(b + i) : (uint16_t)(b[i] << 8 | b[i + 1]);
      if (ch < 0x80 && !text_byte((unsigned char)ch)) return ENC_BINARY;
    }
    return le ? ENC_UTF16LE : ENC_UTF16BE;
  }
  bool ascii = true, utf8 = true, latin1 = true;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = b[i];
    if (c < 0x80) {
      if (!text_byte(c)) return ENC_BINARY;
      continue;
    }
    ascii = false;
    if (c < 0xa0) latin1 = false;
    if (utf8) {
      int len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      if (!len) {
        utf8 = false;
        continue;
      }
      if (i + (size_t)len > n) {
        /* a sequence cut by the window end: accept */
        if (n == FILE_WINDOW) {
          i = n;
          break;
        }
        utf8 = false;
        continue;
      }
      for (int k = 1; k < len; k++)
        if ((b[i + (size_t)k] & 0xc0) != 0x80) utf8 = false;
      if (utf8) i += (size_t)len - 1;
    }
  }
  if (ascii) return ENC_ASCII;
  if (utf8) return n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf ? ENC_UTF8_BOM : ENC_UTF8;
  if (latin1) return ENC_LATIN1;
  return ENC_EXTENDED;
}

static const char *enc_name(int e) {
  switch (e) {
  case ENC_ASCII: return "ASCII text";
  case ENC_UTF8: return "Unicode text, UTF-8 text";
  case ENC_UTF8_BOM: return "Unicode text, UTF-8 (with BOM) text";
  case ENC_UTF16LE: return "Unicode text, UTF-16, little-endian text";
  case ENC_UTF16BE: return "Unicode text, UTF-16, big-endian text";
  case ENC_LATIN1: return "ISO-8859 text";
  default: return "Non-ISO extended-ASCII text";
  }
}

static const char *enc_charset(int e) {
  switch (e) {
  case ENC_ASCII: return "us-ascii";
  case ENC_UTF8: case ENC_UTF8_BOM: return "utf-8";
  case ENC_UTF16LE: return "utf-16le";
  case ENC_UTF16BE: return "utf-16be";
  case ENC_LATIN1: return "iso-8859-1";
  default: return "unknown-8bit";
  }
}

/* ", with ... line terminators" and friends, file's order. */
static void text_remarks(const unsigned char *b, size_t n, char *out, size_t outsz) {
  size_t longest = 0, cur = 0;
  bool crlf = false, cr = false, lf = false, esc = false, over = false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = b[i];
    if (c == '\r') {
      if (i + 1 < n && b[i + 1] == '\n') {
        crlf = true;
        i++;
      } else {
        cr = true;
      }
      if (cur > longest) longest = cur;
      cur = 0;
      continue;
    }
    if (c == '\n') {
      lf = true;
      if (cur > longest) longest = cur;
      cur = 0;
      continue;
    }
    if (c == 0x1b) esc = true;
    if (c == '\b') over = true;
    cur++;
  }
  if (cur > longest) longest = cur;
  out[0] = 0;
  size_t o = 0;
  if (longest > 300) o += (size_t)snprintf(out + o, outsz - o, ", with very long lines (%zu)", longest);
  if (!crlf && !cr && !lf) {
    o += (size_t)snprintf(out + o, outsz - o, ", with no line terminators");
  } else if (crlf || cr) {
    char t[64] = "";
    int k = 0;
    if (crlf) k += snprintf(t + k, sizeof t - (size_t)k, "CRLF");
    if (cr) k += snprintf(t + k, sizeof t - (size_t)k, "%sCR", k ? ", " : "");
    if (lf) k += snprintf(t + k, sizeof t - (size_t)k, "%sLF", k ? ", " : "");
    o += (size_t)snprintf(out + o, outsz - o, ", with %s line terminators", t);
  }
  if (esc) o += (size_t)snprintf(out + o, outsz - o, ", with escape sequences");
  if (over && o < outsz) snprintf(out + o, outsz - o, ", with overstriking");
}

/* The script kind of a #! line, or NULL. */
static const char *script_kind(const unsigned char *b, size_t n, const char **mime) {
  if (n < 3 || b[0] != '#' || b[1] != '!') return NULL;
  char line[256];
  size_t l = 0;
  for (size_t i = 2; i < n && b[i] != '\n' && l + 1 < sizeof line; i++) line[l++] = (char)b[i];
  line[l] = 0;
  char *p = line;
  while (*p == ' ' || *p == '\t') p++;
  char *interp = p;
  while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
  char save = *p;
  *p = 0;
  const char *base = strrchr(interp, '/');
  base = base ? base + 1 : interp;
  if (!strcmp(base, "env")) {
    *p = save;
    while (*p == ' ' || *p == '\t') p++;
    while (*p == '-') { /* env -S */
      while (*p && *p != ' ') p++;
      while (*p == ' ') p++;
    }
    base = p;
    char *e = p;
    while (*e && *e != ' ' && *e != '\t' && *e != '\r') e++;
    *e = 0;
  }
  *mime = "text/x-script";
  if (!strcmp(base, "sh")) { *mime = "text/x-shellscript"; return "POSIX shell script"; }
  if (!strcmp(base, "bash")) { *mime = "text/x-shellscript"; return "Bourne-Again shell script"; }
  if (!strcmp(base, "zsh")) { *mime = "text/x-shellscript"; return "Paul Falstad's zsh script"; }
  if (!strcmp(base, "dash") || !strcmp(base, "ash")) { *mime = "text/x-shellscript"; return "POSIX shell script"; }
  if (!strncmp(base, "python", 6)) { *mime = "text/x-script.python"; return "Python script"; }
  if (!strncmp(base, "perl", 4)) { *mime = "text/x-perl"; return "Perl script text"; }
  if (!strncmp(base, "ruby", 4)) { *mime = "text/x-ruby"; return "Ruby script"; }
  if (!strcmp(base, "node") || !strcmp(base, "nodejs")) { *mime = "application/javascript"; return "Node.js script"; }
  if (!strcmp(base, "awk") || !strcmp(base, "gawk") || !strcmp(base, "mawk")) { *mime = "text/x-awk"; return "awk script"; }
  if (!strcmp(base, "make")) { *mime = "text/x-makefile"; return "makefile script"; }
  if (!strcmp(base, "php")) { *mime = "text/x-php"; return "PHP script"; }
  if (!strcmp(base, "tclsh") || !strcmp(base, "wish")) { *mime = "text/x-tcl"; return "Tcl script"; }
  if (!strcmp(base, "lua")) { *mime = "text/x-lua"; return "Lua script"; }
  return NULL;
}

static bool starts_ci(const unsigned char *b, size_t n, const char *s) {
  size_t l = strlen(s);
  if (n < l) return false;
  for (size_t i = 0; i < l; i++)
    if ((b[i] | 0x20) != (s[i] | 0x20) && b[i] != s[i]) return false;
  return true;
}

/* ---- binary formats --------------------------------------------------------------- */

static bool magic_kind(cmd_ctx *ctx, const char *path, const store_stat *st,
                       const unsigned char *b, size_t n, file_kind *k) {
  char *d = k->desc;
  size_t ds = sizeof k->desc;
  if (n >= 8 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8)) {
    strcpy(k->mime, "image/png");
    if (n >= 29 && !memcmp(b + 12, "IHDR", 4)) {
      static const char *ct[] = {"grayscale", "?", "RGB", "colormap", "gray+alpha", "?", "RGBA"};
      int c = b[25] <= 6 ? b[25] : 1;
      snprintf(d, ds, "PNG image data, %" PRIu32 " x %" PRIu32 ", %d-bit%s%s, %s",
               be32(b + 16), be32(b + 20), b[24], c == 3 ? " " : "/color ", ct[c],
               b[28] ? "interlaced" : "non-interlaced");
      if (c == 0 || c == 4) snprintf(d, ds, "PNG image data, %" PRIu32 " x %" PRIu32 ", %d-bit %s, %s",
                                    be32(b + 16), be32(b + 20), b[24], ct[c],
                                    b[28] ? "interlaced" : "non-interlaced");
    } else {
      snprintf(d, ds, "PNG image data");
    }
    return true;
  }
  if (n >= 6 && (!memcmp(b, "GIF87a", 6) || !memcmp(b, "GIF89a", 6))) {
    strcpy(k->mime, "image/gif");
    if (n >= 10)
      snprintf(d, ds, "GIF image data, version %.3s, %u x %u", b + 3, le16(b + 6), le16(b + 8));
    else
      snprintf(d, ds, "GIF image data, version %.3s", b + 3);
    return true;
  }
  if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff) {
    strcpy(k->mime, "image/jpeg");
    if (n >= 13 && !memcmp(b + 6, "JFIF", 5))
      snprintf(d, ds, "JPEG image data, JFIF standard %d.%02d", b[11], b[12]);
    else if (n >= 10 && !memcmp(b + 6, "Exif", 4))
      snprintf(d, ds, "JPEG image data, Exif standard");
    else
      snprintf(d, ds, "JPEG image data");
    return true;
  }
  if (n >= 5 && !memcmp(b, "%PDF-", 5)) {
    strcpy(k->mime, "application/pdf");
    if (encoding(b, n) == ENC_ASCII) strcpy(k->charset, "us-ascii");
    char ver[16] = "";
    size_t i = 5, o = 0;
    while (i < n && o + 1 < sizeof ver && ((b[i] >= '0' && b[i] <= '9') || b[i] == '.'))
      ver[o++] = (char)b[i++];
    ver[o] = 0;
    snprintf(d, ds, "PDF document, version %s", ver);
    return true;
  }
  if (n >= 10 && b[0] == 0x1f && b[1] == 0x8b) {
    strcpy(k->mime, "application/gzip");
    size_t o = (size_t)snprintf(d, ds, "gzip compressed data");
    int flg = b[3];
    uint32_t mtime = le32(b + 4);
    size_t pos = 10;
    if (flg & 4) {
      if (pos + 2 <= n) pos += 2 + le16(b + pos);
    }
    if ((flg & 8) && pos < n) {
      const unsigned char *nm = b + pos;
      size_t l = 0;
      while (pos + l < n && nm[l]) l++;
      o += (size_t)snprintf(d + o, ds - o, ", was \"%.*s\"", (int)(l > 200 ? 200 : l), nm);
    }
    if (mtime) {
      cmd_tz tz;
      cmd_tz_from_env(ctx, &tz);
      struct tm tm;
      char *ts = NULL;
      if (cmd_time_local(&tz, mtime, &tm) &&
          cmd_strftime(&ts, 64, "%a %b %e %H:%M:%S %Y", &tm, mtime, 0) >= 0)
        o += (size_t)snprintf(d + o, ds - o, ", last modified: %s", ts);
      free(ts);
    }
    if (b[8] == 2) o += (size_t)snprintf(d + o, ds - o, ", max compression");
    else if (b[8] == 4) o += (size_t)snprintf(d + o, ds - o, ", max speed");
    static const char *os[] = {"FAT filesystem (MS-DOS, OS/2, NT/Win32)", "Amiga", "VMS", "Unix",
                               "VM/CMS", "Atari TOS", "HPFS filesystem (OS/2, NT)", "MacOS",
                               "Z-System", "CP/M", "TOPS-20", "NTFS filesystem (NT)", "QDOS",
                               "Acorn RISCOS"};
    if (b[9] < 14) o += (size_t)snprintf(d + o, ds - o, ", from %s", os[b[9]]);
    if (st->size >= 18) {
      unsigned char tail[4];
      if (store_read(ctx->store, st->ino, tail, 4, st->size - 4) == 4)
        snprintf(d + o, ds - o, ", original size modulo 2^32 %" PRIu32, le32(tail));
    }
    return true;
  }
  if (n >= 4 && !memcmp(b, "BZh", 3) && b[3] >= '1' && b[3] <= '9') {
    strcpy(k->mime, "application/x-bzip2");
    snprintf(d, ds, "bzip2 compressed data, block size = %d00k", b[3] - '0');
    return true;
  }
  if (n >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6)) {
    strcpy(k->mime, "application/x-xz");
    const char *ck = "none";
    if (n >= 8) {
      switch (b[7] & 0x0f) {
      case 1: ck = "CRC32"; break;
      case 4: ck = "CRC64"; break;
      case 10: ck = "SHA-256"; break;
      }
    }
    snprintf(d, ds, "XZ compressed data, checksum %s", ck);
    return true;
  }
  if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4)) {
    strcpy(k->mime, "application/zstd");
    snprintf(d, ds, "Zstandard compressed data (v0.8+), Dictionary ID: None");
    return true;
  }
  if (n >= 30 && !memcmp(b, "PK\x03\x04", 4)) {
    strcpy(k->mime, "application/zip");
    int ver = le16(b + 4);
    int method = le16(b + 8);
    const char *m = method == 0 ? "store" : method == 8 ? "deflate" : method == 12 ? "bzip2"
                  : method == 14 ? "lzma" : "?";
    snprintf(d, ds, "Zip archive data, at least v%d.%d to extract, compression method=%s",
             ver / 10, ver % 10, m);
    return true;
  }
  if (n >= 263 && !memcmp(b + 257, "ustar", 5)) {
    strcpy(k->mime, "application/x-tar");
    snprintf(d, ds, "%s", !memcmp(b + 257, "ustar  \0", 8) ? "POSIX tar archive (GNU)"
                                                            : "POSIX tar archive");
    return true;
  }
  if (n >= 16 && !memcmp(b, "SQLite format 3\0", 16)) {
    strcpy(k->mime, "application/vnd.sqlite3");
    if (n >= 100)
      snprintf(d, ds, "SQLite 3.x database, last written using SQLite version %" PRIu32,
               be32(b + 96));
    else
      snprintf(d, ds, "SQLite 3.x database");
    return true;
  }
  if (n >= 7 && !memcmp(b, "\x7f" "ELF", 4)) {
    int cls = b[4], data = b[5];
    const char *c = cls == 1 ? "32-bit" : cls == 2 ? "64-bit" : "invalid class";
    const char *e = data == 1 ? "LSB" : data == 2 ? "MSB" : "invalid byte order";
    size_t o = (size_t)snprintf(d, ds, "ELF %s %s", c, e);
    bool le = data == 1;
    if (n >= 20) {
      uint16_t type = le ? le16(b + 16) : (uint16_t)(b[16] << 8 | b[17]);
      uint16_t mach = le ? le16(b + 18) : (uint16_t)(b[18] << 8 | b[19]);
      const char *t = type == 1 ? "relocatable" : type == 2 ? "executable"
                    : type == 3 ? "shared object" : type == 4 ? "core file" : "unknown type";
      const char *m = mach == 62 ? "x86-64" : mach == 3 ? "Intel 80386" : mach == 183 ? "ARM aarch64"
                    : mach == 40 ? "ARM" : mach == 243 ? "UCB RISC-V" : "unknown arch";
      o += (size_t)snprintf(d + o, ds - o, " %s, %s, version %d", t, m, b[6]);
    }
    snprintf(d + o, ds - o, " (%s)", b[7] == 3 ? "GNU/Linux" : "SYSV");
    strcpy(k->mime, "application/octet-stream");
    if (n >= 18) {
      uint16_t type = le ? le16(b + 16) : (uint16_t)(b[16] << 8 | b[17]);
      if (type == 1) strcpy(k->mime, "application/x-object");
      else if (type == 2) strcpy(k->mime, "application/x-executable");
      else if (type == 3) strcpy(k->mime, "application/x-sharedlib");
    }
    return true;
  }
  (void)path;
  return false;
}

/* Classifies one file's content. */
static void classify(cmd_ctx *ctx, const char *path, const store_stat *st,
                     const unsigned char *b, size_t n, file_kind *k) {
  strcpy(k->charset, "binary");
  if (n == 0) {
    strcpy(k->desc, "empty");
    strcpy(k->mime, "inode/x-empty");
    return;
  }
  if (n == 1) {
    strcpy(k->desc, "very short file (no magic)");
    strcpy(k->mime, "application/octet-stream");
    return;
  }
  if (magic_kind(ctx, path, st, b, n, k)) return;
  int enc = encoding(b, n);
  if (enc == ENC_BINARY) {
    strcpy(k->desc, "data");
    strcpy(k->mime, "application/octet-stream");
    return;
  }
  strcpy(k->charset, enc_charset(enc));
  char rem[256];
  text_remarks(b, n, rem, sizeof rem);
  const char *smime = NULL;
  const char *script = script_kind(b, n, &smime);
  const char *en = enc_name(enc);
  if (script) {
    strcpy(k->mime, smime);
    if (!strcmp(script, "Perl script text") || !strcmp(script, "Node.js script"))
      snprintf(k->desc, sizeof k->desc, "%s executable%s%s", script,
               !strcmp(script, "Node.js script") ? ", " : "",
               !strcmp(script, "Node.js script") ? en : "");
    else
      snprintf(k->desc, sizeof k->desc, "%s, %s executable%s", script, en, rem);
    return;
  }
  size_t skip = 0;
  while (skip < n && (b[skip] == ' ' || b[skip] == '\t' || b[skip] == '\n' || b[skip] == '\r'))
    skip++;
  if (enc == ENC_ASCII || enc == ENC_UTF8) {
    if (is_json(b, n)) {
      snprintf(k->desc, sizeof k->desc, "JSON text data");
      strcpy(k->mime, "application/json");
      return;
    }
    if (starts_ci(b + skip, n - skip, "<!doctype html") || starts_ci(b + skip, n - skip, "<html")) {
      snprintf(k->desc, sizeof k->desc, "HTML document, %s%s", en, rem);
      strcpy(k->mime, "text/html");
      return;
    }
    if (n - skip >= 14 && !memcmp(b + skip, "<?xml version=", 14)) {
      const unsigned char *v = b + skip + 14;
      char q = (char)*v;
      char ver[8] = "1.0";
      if (q == '"' || q == '\'') {
        size_t i = 0;
        v++;
        while (i + 1 < sizeof ver && (size_t)(v - b) < n && *v != (unsigned char)q)
          ver[i++] = (char)*v++;
        ver[i] = 0;
      }
      snprintf(k->desc, sizeof k->desc, "XML %s document, %s%s", ver, en, rem);
      strcpy(k->mime, "text/xml");
      return;
    }
  }
  snprintf(k->desc, sizeof k->desc, "%s%s", en, rem);
  strcpy(k->mime, "text/plain");
}

/* The database loaded before a seal (cmd_file_preload), used one call at a
 * time; NULL in ordinary processes, where each call loads its own. */
static magic_t file_preloaded;
static pthread_mutex_t file_preload_lock = PTHREAD_MUTEX_INITIALIZER;

void cmd_file_preload(void) {
  pthread_mutex_lock(&file_preload_lock);
  if (!file_preloaded) {
    magic_t m = magic_open(MAGIC_NONE);
    if (m && magic_load(m, NULL) == 0) {
      magic_setparam(m, MAGIC_PARAM_BYTES_MAX, &(size_t){FILE_MAGIC_WINDOW});
      file_preloaded = m;
    } else if (m) {
      magic_close(m);
    }
  }
  pthread_mutex_unlock(&file_preload_lock);
}

/* Debian's libmagic, the same database as file(1), on n bytes of contents
 * (NULL when there is no library, no database, or no answer: the
 * hand-written table answers then). */
static const char *file_magic(magic_t cookie, bool mime_type, bool mime_enc, bool uncompress,
                              const unsigned char *buf, size_t n) {
  if (!cookie || n == 0) return NULL;
  int flags = (mime_type && mime_enc) ? MAGIC_MIME
              : mime_type             ? MAGIC_MIME_TYPE
              : mime_enc              ? MAGIC_MIME_ENCODING
                                      : MAGIC_NONE;
  if (uncompress) flags |= MAGIC_COMPRESS;
  magic_setflags(cookie, flags | MAGIC_ERROR);
  /* through an anonymous memory file, so the tests that look at the file's
   * end ("original size modulo 2^32") see it as file(1) does */
  const char *m = NULL;
  int mfd = memfd_create("sbx-file", MFD_CLOEXEC);
  if (mfd >= 0 && write(mfd, buf, n) == (ssize_t)n && lseek(mfd, 0, SEEK_SET) == 0)
    m = magic_descriptor(cookie, mfd);
  else
    m = magic_buffer(cookie, buf, n);
  if (mfd >= 0) close(mfd);
  return m;
}

int cmd_file_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_MIME_TYPE = CMD_OPT_LONG, OPT_MIME_ENC };
  static const char spec[] =
      "(mime-type)(mime-encoding)(help)(version)b(brief)h(no-dereference)L(dereference)"
      "i(mime)F:(separator)0(print0)N(no-pad)z(uncompress)f:(files-from)r(raw)";
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool follow = false;
  /* A loop for the last of -h and -L and file's own --version; the other
   * options are read from st after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'h': follow = false; break;
    case 'L': follow = true; break;
    case CMD_OPT_HELP:
      return cmd_print_help(ctx, "Usage: file [-bchiklLNnprsvzZ0] [--apple] [--extension] [--mime-encoding]\n"
                                 "            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"
                                 "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
                                 "            <file> ...\n");
    case CMD_OPT_VERSION:
      cmd_outs(ctx, "file-5.44 (sbx) 1.0\n");
      return 0;
    case '?': return 1;
    }
  }
  bool brief = cmd_opt_on(&st, 'b'), print0 = cmd_opt_on(&st, '0');
  bool mime_type = cmd_opt_on(&st, 'i') || cmd_opt_on(&st, OPT_MIME_TYPE);
  bool mime_enc = cmd_opt_on(&st, 'i') || cmd_opt_on(&st, OPT_MIME_ENC);
  bool nopad = cmd_opt_on(&st, 'N'), raw = cmd_opt_on(&st, 'r');
  bool uncompress = cmd_opt_on(&st, 'z');
  const char *sep = cmd_opt_arg(&st, 'F') ? cmd_opt_arg(&st, 'F') : ":";
  const char *files_from = cmd_opt_arg(&st, 'f');
  char **names = argv + st.ind;
  int nnames = argc - st.ind;
  if (files_from) {
    void *data;
    size_t len;
    int rc = store_path_read_file(ctx->store, ctx->cwd, files_from, &data, &len);
    if (rc < 0) {
      cmd_err_raw(ctx, "file: Cannot open `%s' (%s).\n", files_from, cmd_strerror(rc));
      return 1;
    }
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += ((char *)data)[i] == '\n';
    char **nv = cmd_alloc(ctx, (lines + (size_t)nnames + 1) * sizeof *nv);
    if (!nv) {
      free(data);
      return 1;
    }
    int k = 0;
    for (int i = 0; i < nnames; i++) nv[k++] = names[i];
    char *save;
    for (char *l = strtok_r(data, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
      nv[k++] = cmd_strdup(ctx, l);
    free(data);
    names = nv;
    nnames = k;
  }
  if (nnames <= 0) {
    cmd_err_raw(ctx, "Usage: file [-bcEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"
                     "            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"
                     "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
                     "            <file> ...\n"
                     "       file -C [-m <magicfiles>]\n"
                     "       file [--help]\n");
    return 1;
  }
  /* names are shown with controls and invalid bytes as \ooo (file's
   * file_printable) unless -r, and padded by display width */
  const char **shown = cmd_alloc(ctx, (size_t)(nnames + 1) * sizeof *shown);
  if (!shown) return 1;
  size_t width = 0;
  for (int i = 0; i < nnames; i++) {
    shown[i] = strcmp(names[i], "-") == 0 ? "/dev/stdin" /* file(1)'s name for it */
               : raw                        ? names[i]
                                            : cmd_fs_octal_escape(ctx, names[i]);
    size_t l = cmd_fs_width(shown[i], strlen(shown[i])) + strlen(sep);
    if (l > width) width = l;
  }
  pthread_mutex_lock(&file_preload_lock);
  bool shared = file_preloaded != NULL;
  magic_t cookie = file_preloaded;
  if (!shared) {
    pthread_mutex_unlock(&file_preload_lock);
    cookie = magic_open(MAGIC_NONE);
    if (cookie && magic_load(cookie, NULL) != 0) {
      magic_close(cookie);
      cookie = NULL;
    }
    if (cookie) magic_setparam(cookie, MAGIC_PARAM_BYTES_MAX, &(size_t){FILE_MAGIC_WINDOW});
  }
  unsigned char *buf = malloc(cookie ? FILE_MAGIC_WINDOW : FILE_WINDOW);
  if (!buf) {
    if (shared) pthread_mutex_unlock(&file_preload_lock);
    else if (cookie) magic_close(cookie);
    return 1;
  }
  for (int i = 0; i < nnames; i++) {
    if (cmd_poll(ctx)) break;
    const char *path = names[i];
    file_kind k;
    memset(&k, 0, sizeof k);
    store_stat lst, fst;
    int rc = cmd_fs_lstat(ctx, path, &lst);
    if (!brief) {
      cmd_outs(ctx, shown[i]);
      if (print0) cmd_outc(ctx, '\0'); /* file 5.44: NUL, then the separator */
      cmd_outs(ctx, sep);
      if (!nopad)
        for (size_t p = cmd_fs_width(shown[i], strlen(shown[i])) + strlen(sep); p < width; p++)
          cmd_outc(ctx, ' ');
      cmd_outc(ctx, ' ');
    }
    if (strcmp(path, "-") == 0) {
      /* standard input: its contents, as file(1) reads them */
      cmd_in *in = cmd_in_fd(ctx, 0);
      ssize_t n = 0;
      size_t win = cookie ? FILE_MAGIC_WINDOW : FILE_WINDOW;
      while (in && (size_t)n < win) {
        ssize_t r = cmd_in_read(in, buf + n, win - (size_t)n);
        if (r <= 0) break;
        n += r;
      }
      if (in) cmd_in_close(in);
      const char *m = file_magic(cookie, mime_type, mime_enc, uncompress, buf, (size_t)n);
      if (m) {
        cmd_outf(ctx, "%s\n", m);
        continue;
      }
      store_stat none = {.mode = S_IFREG, .size = (uint64_t)n};
      classify(ctx, path, &none, buf, (size_t)(n < FILE_WINDOW ? n : FILE_WINDOW), &k);
      if (mime_type && mime_enc) cmd_outf(ctx, "%s; charset=%s\n", k.mime, k.charset);
      else if (mime_type) cmd_outf(ctx, "%s\n", k.mime);
      else if (mime_enc) cmd_outf(ctx, "%s\n", k.charset);
      else cmd_outf(ctx, "%s\n", k.desc);
      continue;
    }
    if (rc < 0) {
      if (mime_type || mime_enc) cmd_outs(ctx, "cannot open `");
      else cmd_outs(ctx, "cannot open `");
      cmd_outf(ctx, "%s' (%s)\n", shown[i], cmd_strerror(rc));
      continue;
    }
    bool broken = false;
    char *target = NULL;
    const store_stat *use = &lst;
    if (S_ISLNK(lst.mode)) {
      if (follow && cmd_fs_stat(ctx, path, &fst) == 0) use = &fst;
      else {
        store_path_readlink(ctx->store, ctx->cwd, path, &target);
        broken = cmd_fs_stat(ctx, path, &fst) < 0;
      }
    }
    if (S_ISLNK(use->mode)) {
      snprintf(k.desc, sizeof k.desc, "%ssymbolic link to %s", broken ? "broken " : "",
               !target ? "" : raw ? target : cmd_fs_octal_escape(ctx, target));
      strcpy(k.mime, "inode/symlink");
      strcpy(k.charset, "binary");
    } else if (S_ISDIR(use->mode)) {
      strcpy(k.desc, "directory");
      strcpy(k.mime, "inode/directory");
      strcpy(k.charset, "binary");
    } else if (!S_ISREG(use->mode)) {
      strcpy(k.desc, cmd_fs_typename(use));
      strcpy(k.mime, "inode/x-empty");
      strcpy(k.charset, "binary");
    } else if (store_access(ctx->store, use->ino, R_OK) != 0) {
      snprintf(k.desc, sizeof k.desc, "regular file, no read permission");
      strcpy(k.mime, "inode/x-empty");
      strcpy(k.charset, "binary");
    } else {
      size_t win = cookie ? FILE_MAGIC_WINDOW : FILE_WINDOW;
      size_t want = use->size < win ? (size_t)use->size : win;
      ssize_t n = 0;
      while ((size_t)n < want) {
        ssize_t r = store_read(ctx->store, use->ino, buf + n, want - (size_t)n, (uint64_t)n);
        if (r <= 0) break;
        n += r;
      }
      const char *m = file_magic(cookie, mime_type, mime_enc, uncompress, buf, (size_t)n);
      if (m) {
        cmd_outs(ctx, m);
        cmd_outc(ctx, '\n');
        free(target);
        continue;
      }
      classify(ctx, path, use, buf, (size_t)(n < FILE_WINDOW ? n : FILE_WINDOW), &k);
    }
    free(target);
    if (mime_type && mime_enc) cmd_outf(ctx, "%s; charset=%s\n", k.mime, k.charset);
    else if (mime_type) cmd_outf(ctx, "%s\n", k.mime);
    else if (mime_enc) cmd_outf(ctx, "%s\n", k.charset);
    else cmd_outf(ctx, "%s\n", k.desc);
  }
  free(buf);
  if (shared) pthread_mutex_unlock(&file_preload_lock);
  else if (cookie) magic_close(cookie);
  return 0;
}
