/*
 * zip - package files into a ZIP archive (Info-ZIP 3.0 style).
 *
 *   zip [-rqjmD0-9] [-d] ZIPFILE [FILE | -x PATTERN]...
 *
 * Writes the ZIP format itself with zlib's raw deflate: each member is
 * deflated in memory (bounded by the sandbox's string limit) and stored
 * instead when deflating does not make it smaller, as Info-ZIP does. An
 * existing ZIPFILE is updated: its members are copied byte for byte except
 * those being replaced (-d deletes them). The archive is written to a
 * temporary name and renamed over ZIPFILE at the end, so a failure never
 * leaves half an archive. Messages follow Info-ZIP ("  adding: a (stored 0%)",
 * "zip warning: name not matched: x", exit 12 for "Nothing to do!").
 * No ZIP64: members and archives are limited to 4 GiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "cmd/cmd.h"
#include "cmd/lib/archive_io.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"

CMD_DEFINE("zip", cmd_zip_main);

#define ZIP_MAX_PATTERNS 64

typedef struct zip_entry {
  char *name;        /* member name */
  unsigned char *cd; /* its central directory record (46 + name + extra + comment) */
  size_t cdlen;
  const unsigned char *local; /* local header + data, from the old archive or new */
  size_t locallen;
  bool owned;        /* local is ours to free (a new member) */
  bool updating;     /* replaces a member of the old archive (for the message) */
} zip_entry;

typedef struct zip_state {
  cmd_ctx *ctx;
  int level;            /* 0..9 */
  bool recurse, quiet, junk, del;
  const char *xpat[ZIP_MAX_PATTERNS]; /* -x patterns */
  int nx;
  zip_entry *e;         /* members of the new archive, in order */
  size_t n, cap;
  unsigned char *out;   /* the new archive being built */
  size_t outlen, outcap;
  int status;
  bool changed;
} zip_state;

static void put16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* The fields a local header and its central directory entry share, in the
 * same order (version needed, flags 0, method, DOS time and date, CRC-32,
 * compressed and uncompressed sizes, name length): 24 bytes at p. */
static void put_entry_fields(unsigned char *p, unsigned need, unsigned method, unsigned tim,
                             unsigned date, uint32_t crc, uint32_t csize, uint32_t usize,
                             unsigned nlen) {
  put16(p, need);
  put16(p + 2, 0);
  put16(p + 4, method);
  put16(p + 6, tim);
  put16(p + 8, date);
  put32(p + 10, crc);
  put32(p + 14, csize);
  put32(p + 18, usize);
  put16(p + 22, nlen);
}

static unsigned get16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t get32(const unsigned char *p) {
  return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static int out_append(zip_state *z, const void *p, size_t n) {
  if (z->outlen + n > UINT32_MAX) return -EFBIG;
  if (z->outlen + n > z->outcap) {
    size_t nc = z->outcap ? z->outcap : 65536;
    while (nc < z->outlen + n) nc *= 2;
    if (z->ctx->max_string && nc > z->ctx->max_string && z->outlen + n <= z->ctx->max_string)
      nc = z->ctx->max_string;
    else if (z->ctx->max_string && z->outlen + n > z->ctx->max_string)
      return -EFBIG;
    unsigned char *no = realloc(z->out, nc);
    if (!no) return -ENOMEM;
    z->out = no;
    z->outcap = nc;
  }
  memcpy(z->out + z->outlen, p, n);
  z->outlen += n;
  return 0;
}

static zip_entry *add_entry(zip_state *z) {
  if (cmd_grow(&z->e, &z->cap, z->n + 1, sizeof *z->e)) return NULL;
  zip_entry *e = &z->e[z->n++];
  memset(e, 0, sizeof *e);
  return e;
}

static zip_entry *find_entry(zip_state *z, const char *name) {
  for (size_t i = 0; i < z->n; i++)
    if (z->e[i].name && strcmp(z->e[i].name, name) == 0) return &z->e[i];
  return NULL;
}

static void dos_time(int64_t t, unsigned *date, unsigned *tim) {
  time_t tt = (time_t)t;
  struct tm tm;
  localtime_r(&tt, &tm);
  if (tm.tm_year < 80) tm.tm_year = 80, tm.tm_mon = 0, tm.tm_mday = 1, tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  *date = (unsigned)((tm.tm_year - 80) << 9 | (tm.tm_mon + 1) << 5 | tm.tm_mday);
  *tim = (unsigned)(tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec / 2);
}

/* Reads an existing archive's central directory into z->e (raw records). */
static int load_existing(zip_state *z, const unsigned char *a, size_t len) {
  if (len < 22) return -EINVAL;
  size_t eocd = len - 22;
  size_t stop = len > 22 + 65535 ? len - 22 - 65535 : 0;
  while (get32(a + eocd) != 0x06054b50) {
    if (eocd == stop) return -EINVAL;
    eocd--;
  }
  unsigned count = get16(a + eocd + 10);
  uint32_t cdsize = get32(a + eocd + 12), cdoff = get32(a + eocd + 16);
  if ((size_t)cdoff + cdsize > len) return -EINVAL;
  const unsigned char *p = a + cdoff, *end = p + cdsize;
  for (unsigned i = 0; i < count; i++) {
    if (p + 46 > end || get32(p) != 0x02014b50) return -EINVAL;
    size_t nlen = get16(p + 28), xlen = get16(p + 30), clen = get16(p + 32);
    size_t rec = 46 + nlen + xlen + clen;
    if (p + rec > end) return -EINVAL;
    uint32_t off = get32(p + 42), csize = get32(p + 20);
    if ((size_t)off + 30 > len || get32(a + off) != 0x04034b50) return -EINVAL;
    size_t lrec = 30 + get16(a + off + 26) + get16(a + off + 28) + (size_t)csize;
    if (get16(a + off + 6) & 8) lrec += 16; /* data descriptor with signature */
    if ((size_t)off + lrec > len) return -EINVAL;
    zip_entry *e = add_entry(z);
    if (!e) return -ENOMEM;
    e->name = strndup((const char *)p + 46, nlen);
    e->cd = malloc(rec);
    if (!e->name || !e->cd) return -ENOMEM;
    memcpy(e->cd, p, rec);
    e->cdlen = rec;
    e->local = a + off;
    e->locallen = lrec;
    p += rec;
  }
  return 0;
}

/* Builds one member from a store path into pending entry `e` (data in *data). */
static int make_member(zip_state *z, const char *path, const char *name, store_stat *st,
                       zip_entry *e) {
  cmd_ctx *ctx = z->ctx;
  bool dir = S_ISDIR(st->mode), link = S_ISLNK(st->mode);
  unsigned char *raw = NULL, *comp = NULL;
  size_t rawlen = 0, complen = 0;
  int rc = 0;
  if (link) {
    char *t = NULL;
    rc = store_path_readlink(ctx->store, ctx->cwd, path, &t);
    if (rc < 0) return rc;
    raw = (unsigned char *)t;
    rawlen = strlen(t);
  } else if (!dir) {
    cmd_in *in;
    rc = cmd_in_open(ctx, path, &in);
    if (rc < 0) return rc;
    rc = cmd_in_slurp(in, (char **)&raw, &rawlen);
    cmd_in_close(in);
    if (rc < 0) return rc;
  }
  uint32_t crc = (uint32_t)crc32(0, raw, (uInt)rawlen);
  int method = 0;
  if (rawlen > 0 && z->level > 0) {
    z_stream zs = {0};
    uLong bound = compressBound((uLong)rawlen) + 64;
    comp = malloc(bound);
    if (comp && deflateInit2(&zs, z->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
      zs.next_in = raw;
      zs.avail_in = (uInt)rawlen;
      zs.next_out = comp;
      zs.avail_out = (uInt)bound;
      if (deflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out < rawlen) {
        method = 8;
        complen = zs.total_out;
      }
      deflateEnd(&zs);
    }
  }
  const unsigned char *data = method ? comp : raw;
  size_t datalen = method ? complen : rawlen;
  size_t nlen = strlen(name);
  unsigned date, tim;
  dos_time(st->mtime, &date, &tim);
  unsigned need = method ? 20 : 10;
  size_t locallen = 30 + nlen + datalen;
  unsigned char *l = malloc(locallen);
  e->cdlen = 46 + nlen;
  e->cd = malloc(e->cdlen);
  e->name = strdup(name);
  e->local = l;
  e->locallen = locallen;
  e->owned = l != NULL;
  if (!l || !e->cd || !e->name) {
    free(raw);
    free(comp);
    return -ENOMEM;
  }
  put32(l, 0x04034b50);
  put_entry_fields(l + 4, need, (unsigned)method, tim, date, crc, (uint32_t)datalen,
                   (uint32_t)rawlen, (unsigned)nlen);
  put16(l + 28, 0);
  memcpy(l + 30, name, nlen);
  if (datalen) memcpy(l + 30 + nlen, data, datalen);
  unsigned char *c = e->cd;
  put32(c, 0x02014b50);
  put16(c + 4, 0x031e); /* made by: Unix, spec 3.0 */
  put_entry_fields(c + 6, need, (unsigned)method, tim, date, crc, (uint32_t)datalen,
                   (uint32_t)rawlen, (unsigned)nlen);
  put16(c + 30, 0);
  put16(c + 32, 0);
  put16(c + 34, 0);
  put16(c + 36, 0);
  put32(c + 38, (uint32_t)st->mode << 16 | (dir ? 0x10 : 0));
  put32(c + 42, 0);
  memcpy(c + 46, name, nlen);
  if (!z->quiet) {
    int pct = 0;
    if (method && rawlen) pct = (int)(((rawlen - complen) * 100 + rawlen / 2) / rawlen);
    cmd_outf(ctx, "%s: %s (%s %d%%)\n", e->updating ? "updating" : "  adding", name,
             method ? "deflated" : "stored", pct);
  }
  free(raw);
  free(comp);
  return 0;
}

static bool x_excluded(zip_state *z, const char *name) {
  for (int i = 0; i < z->nx; i++)
    if (fnmatch(z->xpat[i], name, 0) == 0) return true;
  return false;
}

/* Adds a path (a directory recursively with -r). */
static void add_path(zip_state *z, const char *path, int depth) {
  cmd_ctx *ctx = z->ctx;
  store_stat st;
  int rc = store_path_lstat(ctx->store, ctx->cwd, path, &st);
  if (rc == 0 && S_ISLNK(st.mode)) rc = store_path_stat(ctx->store, ctx->cwd, path, &st);
  if (rc < 0) {
    cmd_outf(ctx, "\tzip warning: name not matched: %s\n", path);
    return;
  }
  if (depth > 256 || cmd_poll(ctx)) return;
  const char *name = path;
  while (name[0] == '.' && name[1] == '/') name += 2;
  while (*name == '/') name++;
  if (z->junk) {
    const char *b = strrchr(name, '/');
    if (S_ISDIR(st.mode)) goto recurse;
    if (b) name = b + 1;
  }
  char *ename = S_ISDIR(st.mode) ? arc_join(name, "") : strdup(name);
  if (!ename) return;
  if (*ename && strcmp(ename, "/") != 0 && !x_excluded(z, ename)) {
    zip_entry *old = find_entry(z, ename);
    zip_entry *e = old ? old : add_entry(z);
    if (e) {
      if (old) {
        free(old->cd);
        free(old->name);
        if (old->owned) free((void *)old->local);
        memset(old, 0, sizeof *old);
      }
      e->updating = old != NULL;
      rc = make_member(z, path, ename, &st, e);
      if (rc < 0) {
        cmd_outf(ctx, "\tzip warning: could not open for reading: %s\n", path);
        free(e->name);
        e->name = NULL;
        z->status = 18;
      } else {
        z->changed = true;
      }
    }
  }
  free(ename);
recurse:
  if (S_ISDIR(st.mode) && z->recurse) {
    char **names;
    int n = cmd_fs_listdir(ctx, path, &names);
    for (int i = 0; i < n; i++) add_path(z, cmd_join_path(ctx, path, names[i]), depth + 1);
  }
}

int cmd_zip_main(cmd_ctx *ctx, int argc, char **argv) {
  zip_state z = {.ctx = ctx, .level = 6};
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      cmd_outs(ctx,
               "Usage: zip [-options] zipfile [list] [-x pattern]\n"
               "  -r   recurse into directories      -j   junk (don't record) directory names\n"
               "  -q   quiet operation               -d   delete entries in zipfile\n"
               "  -0   store only                    -1..-9  compress faster..better\n"
               "  -x   exclude the names that follow\n");
      return 0;
    }
    for (const char *p = argv[i] + 1; *p; p++) {
      switch (*p) {
        case 'r': z.recurse = true; break;
        case 'q': z.quiet = true; break;
        case 'j': z.junk = true; break;
        case 'd': z.del = true; break;
        case 'D': case 'X': case 'y': case 'v': break;
        default:
          if (*p >= '0' && *p <= '9') {
            z.level = *p - '0';
            break;
          }
          cmd_err_raw(ctx, "zip error: Invalid command arguments (short option '%c' not supported)\n", *p);
          return 16;
      }
    }
  }
  if (i >= argc) {
    cmd_err_raw(ctx, "zip error: Invalid command arguments (nothing to select from)\n");
    return 16;
  }
  const char *zipname = argv[i++];
  char *zipfile = NULL;
  if (strcmp(zipname, "-") != 0 && !strchr(strrchr(zipname, '/') ? strrchr(zipname, '/') : zipname, '.')) {
    zipfile = malloc(strlen(zipname) + 5);
    sprintf(zipfile, "%s.zip", zipname);
  } else {
    zipfile = strdup(zipname);
  }
  /* Load an existing archive. */
  char *old = NULL;
  size_t oldlen = 0;
  store_stat zst;
  if (strcmp(zipfile, "-") != 0 && store_path_stat(ctx->store, ctx->cwd, zipfile, &zst) == 0) {
    int rc = store_path_read_file(ctx->store, ctx->cwd, zipfile, (void **)&old, &oldlen);
    if (rc == 0 && load_existing(&z, (unsigned char *)old, oldlen) < 0) {
      cmd_outf(ctx, "\nzip error: Zip file structure invalid (%s)\n", zipfile);
      z.status = 3;
      goto out;
    }
  }
  for (bool xmode = false; i < argc; i++) {
    if (strcmp(argv[i], "-x") == 0) {
      xmode = true;
      continue;
    }
    if (xmode) {
      if (z.nx < ZIP_MAX_PATTERNS) z.xpat[z.nx++] = argv[i];
      continue;
    }
    if (z.del) {
      for (size_t k = 0; k < z.n; k++) {
        if (z.e[k].name && fnmatch(argv[i], z.e[k].name, 0) == 0) {
          if (!z.quiet) cmd_outf(ctx, "deleting: %s\n", z.e[k].name);
          free(z.e[k].name);
          free(z.e[k].cd);
          z.e[k].name = NULL;
          z.e[k].cd = NULL;
          z.changed = true;
        }
      }
      continue;
    }
    add_path(&z, argv[i], 0);
  }
  if (!z.changed) {
    cmd_outf(ctx, "\nzip error: Nothing to do! (%s)\n", zipfile);
    z.status = 12;
    goto out;
  }
  /* Write: local records, then the central directory, then its end. */
  size_t count = 0;
  int rc = 0;
  for (size_t k = 0; k < z.n && rc == 0; k++) {
    zip_entry *e = &z.e[k];
    if (!e->name || !e->local) continue;
    put32(e->cd + 42, (uint32_t)z.outlen); /* local header offset in the new archive */
    rc = out_append(&z, e->local, e->locallen);
    count++;
  }
  size_t cdstart = z.outlen;
  for (size_t k = 0; k < z.n && rc == 0; k++)
    if (z.e[k].name && z.e[k].local) rc = out_append(&z, z.e[k].cd, z.e[k].cdlen);
  unsigned char eocd[22] = {0};
  put32(eocd, 0x06054b50);
  put16(eocd + 8, (unsigned)count);
  put16(eocd + 10, (unsigned)count);
  put32(eocd + 12, (uint32_t)(z.outlen - cdstart));
  put32(eocd + 16, (uint32_t)cdstart);
  if (rc == 0) rc = out_append(&z, eocd, sizeof eocd);
  if (rc == 0) {
    if (strcmp(zipfile, "-") == 0) {
      rc = cmd_out(ctx, z.out, z.outlen);
    } else {
      /* Write beside, then rename over: never half an archive. */
      char *tmp = malloc(strlen(zipfile) + 16);
      sprintf(tmp, "%s.sbxtmp", zipfile);
      rc = store_path_write_file(ctx->store, ctx->cwd, tmp, z.out, z.outlen,
                                 0666 & ~ctx->umask, 0);
      if (rc == 0) rc = store_path_rename(ctx->store, ctx->cwd, tmp, zipfile);
      if (rc < 0) store_path_unlink(ctx->store, ctx->cwd, tmp);
      free(tmp);
    }
  }
  if (rc < 0) {
    cmd_record_error(ctx, rc, zipfile);
    cmd_err_raw(ctx, "zip I/O error: %s\nzip error: Output file write failure (write error on zip file)\n",
                cmd_strerror(rc));
    z.status = 14;
  }
out:
  for (size_t k = 0; k < z.n; k++) {
    free(z.e[k].name);
    free(z.e[k].cd);
    if (z.e[k].owned) free((void *)z.e[k].local);
  }
  free(z.e);
  free(z.out);
  free(old);
  free(zipfile);
  return z.status;
}
