/*
 * sqlite3 - the SQLite command-line shell over a database that lives in the
 * sandbox.
 *
 *   sqlite3 [-csv|-json|-line|-list|-column|-table|-box|-markdown|-tabs|-quote]
 *           [-header|-noheader] [-separator SEP] [-newline SEP] [-nullvalue TEXT]
 *           [-cmd COMMAND]... [-readonly] [-bail] [-echo] [FILENAME [SQL]...]
 *
 * The database file is opened through a sqlite3_vfs whose files are store
 * files (the database, its rollback journal, temporary files under /tmp): the
 * SQL engine never touches a host file. Each invocation registers its own VFS
 * instance (a unique name, pAppData = the command context) and unregisters it
 * before returning. Locking is a no-op: one command owns the file while it
 * runs. WAL mode is refused (no shared memory), rollback journals work.
 *
 * The shell reads SQL from the arguments, or from stdin statement by statement
 * (sqlite3_complete decides where one ends), and handles the dot-commands
 * .tables .schema .mode .headers .separator .nullvalue .import .read .output
 * .once .print .bail .echo .indexes .dump .quit .exit .help. Output formats
 * and error messages follow sqlite3 3.40: "Error: in prepare, ..." for SQL
 * from arguments, "Parse error near line N: ..." / "Runtime error near line
 * N: ..." for SQL from input, with the error-offset context when SQLite
 * reports one. Exit status 1 after any error.
 *
 * Hostile SQL (recursive CTEs that never end, huge zeroblobs) is bounded by a
 * progress handler that polls the call's cancel/timeout and by SQLite limits
 * set from the sandbox's string bound.
 *
 * libsqlite3 is shared by every sandbox of the process (and by the store), so
 * the command must not reach SQLite's process-wide state. An authorizer
 * (sq_authorize) admits only PRAGMAs whose effects stay on this connection
 * and refuses ATTACH of URIs and the functions that reach the host (load_extension,
 * fts3_tokenizer's raw pointers); a name starting with "file:" is a path, not
 * a URI that could pick the host's VFS. Refused statements fail at prepare
 * time with SQLite's own "not authorized", status 1, as under sqlite3's
 * .auth-style authorizers.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"

CMD_DEFINE("sqlite3", cmd_sqlite3_main);

/* ---- the VFS over the store ------------------------------------------------------ */

typedef struct sq_file {
  sqlite3_file base;   /* must be first */
  cmd_ctx *ctx;        /* the running command (store, cwd) */
  store_ino ino;       /* the open file */
  char *path;          /* absolute path, for delete-on-close */
  bool delete_on_close;
  bool readonly;
} sq_file;

static int sq_errcode(int err, int def) {
  if (err == -ENOSPC || err == -EFBIG || err == -EDQUOT) return SQLITE_FULL;
  if (err == -EROFS || err == -EACCES) return SQLITE_READONLY;
  return def;
}

static int sq_close(sqlite3_file *f) {
  sq_file *p = (sq_file *)f;
  if (p->delete_on_close && p->path) store_path_unlink(p->ctx->store, "/", p->path);
  free(p->path);
  p->path = NULL;
  return SQLITE_OK;
}

static int sq_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off) {
  sq_file *p = (sq_file *)f;
  ssize_t r = store_read(p->ctx->store, p->ino, buf, (size_t)n, (uint64_t)off);
  if (r < 0) return SQLITE_IOERR_READ;
  if (r < n) {
    memset((char *)buf + r, 0, (size_t)(n - r));
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

static int sq_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off) {
  sq_file *p = (sq_file *)f;
  if (p->readonly) return SQLITE_READONLY;
  ssize_t w = store_write(p->ctx->store, p->ino, buf, (size_t)n, (uint64_t)off);
  if (w < 0) return sq_errcode((int)w, SQLITE_IOERR_WRITE);
  return w == n ? SQLITE_OK : SQLITE_IOERR_WRITE;
}

static int sq_truncate(sqlite3_file *f, sqlite3_int64 size) {
  sq_file *p = (sq_file *)f;
  int rc = store_truncate(p->ctx->store, p->ino, (uint64_t)size);
  return rc < 0 ? sq_errcode(rc, SQLITE_IOERR_TRUNCATE) : SQLITE_OK;
}

static int sq_sync(sqlite3_file *f, int flags) { return SQLITE_OK; }

static int sq_size(sqlite3_file *f, sqlite3_int64 *size) {
  sq_file *p = (sq_file *)f;
  store_stat st;
  if (store_getattr(p->ctx->store, p->ino, &st) < 0) return SQLITE_IOERR_FSTAT;
  *size = (sqlite3_int64)st.size;
  return SQLITE_OK;
}

static int sq_lock(sqlite3_file *f, int level) { return SQLITE_OK; }
static int sq_unlock(sqlite3_file *f, int level) { return SQLITE_OK; }
static int sq_reserved(sqlite3_file *f, int *out) {
  *out = 0;
  return SQLITE_OK;
}
static int sq_control(sqlite3_file *f, int op, void *arg) { return SQLITE_NOTFOUND; }
static int sq_sector(sqlite3_file *f) { return 4096; }
static int sq_device(sqlite3_file *f) { return 0; }

static const sqlite3_io_methods sq_methods = {
    .iVersion = 1,
    .xClose = sq_close,
    .xRead = sq_read,
    .xWrite = sq_write,
    .xTruncate = sq_truncate,
    .xSync = sq_sync,
    .xFileSize = sq_size,
    .xLock = sq_lock,
    .xUnlock = sq_unlock,
    .xCheckReservedLock = sq_reserved,
    .xFileControl = sq_control,
    .xSectorSize = sq_sector,
    .xDeviceCharacteristics = sq_device,
};

static int sq_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
                   int *out_flags) {
  cmd_ctx *ctx = vfs->pAppData;
  sq_file *p = (sq_file *)f;
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  char tmpname[64];
  if (!name) {
    /* A temporary file of SQLite's own: in the store's /tmp, gone on close. */
    static _Atomic unsigned counter; /* process-wide, but only makes names unique */
    store_path_mkdir_p(ctx->store, "/", "/tmp", 01777);
    snprintf(tmpname, sizeof tmpname, "/tmp/.sqlite-tmp-%p-%u", (void *)p, ++counter);
    name = tmpname;
    flags |= SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_DELETEONCLOSE;
  }
  int oflags = (flags & SQLITE_OPEN_READWRITE) ? O_RDWR : O_RDONLY;
  if (flags & SQLITE_OPEN_CREATE) oflags |= O_CREAT;
  if (flags & SQLITE_OPEN_EXCLUSIVE) oflags |= O_EXCL;
  store_stat st;
  int rc = store_path_open(ctx->store, "/", name, oflags, 0644 & ~ctx->umask, &st);
  if (rc == -EACCES && (oflags & O_ACCMODE) == O_RDWR && !(flags & SQLITE_OPEN_CREATE)) {
    rc = store_path_open(ctx->store, "/", name, O_RDONLY, 0, &st);
    flags = (flags & ~SQLITE_OPEN_READWRITE) | SQLITE_OPEN_READONLY;
  }
  if (rc < 0) return SQLITE_CANTOPEN;
  if (S_ISDIR(st.mode)) return SQLITE_CANTOPEN;
  p->ino = st.ino;
  p->readonly = !(flags & SQLITE_OPEN_READWRITE);
  p->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
  p->path = strdup(name);
  if (!p->path) return SQLITE_NOMEM;
  if (out_flags) *out_flags = flags;
  p->base.pMethods = &sq_methods;
  return SQLITE_OK;
}

static int sq_delete(sqlite3_vfs *vfs, const char *name, int sync) {
  cmd_ctx *ctx = vfs->pAppData;
  int rc = store_path_unlink(ctx->store, "/", name);
  if (rc == -ENOENT) return SQLITE_IOERR_DELETE_NOENT;
  return rc < 0 ? SQLITE_IOERR_DELETE : SQLITE_OK;
}

static int sq_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
  cmd_ctx *ctx = vfs->pAppData;
  store_stat st;
  int rc = store_path_stat(ctx->store, "/", name, &st);
  if (rc < 0) {
    *out = 0;
    return SQLITE_OK;
  }
  *out = flags == SQLITE_ACCESS_EXISTS ? 1
         : store_access(ctx->store, st.ino, flags == SQLITE_ACCESS_READWRITE ? 6 : 4) == 0;
  return SQLITE_OK;
}

/* Absolute, with "." and ".." folded lexically (the store resolves links). */
static int sq_fullpath(sqlite3_vfs *vfs, const char *name, int n, char *out) {
  cmd_ctx *ctx = vfs->pAppData;
  const char *cwd = name[0] == '/' ? "" : ctx->cwd;
  if ((int)(strlen(cwd) + strlen(name) + 2) > n) return SQLITE_CANTOPEN;
  snprintf(out, (size_t)n, "%s/%s", cwd, name);
  /* fold // /./ /../ */
  char *src = out, *dst = out;
  while (*src) {
    if (src[0] == '/' && src[1] == '/') { src++; continue; }
    if (src[0] == '/' && src[1] == '.' && (src[2] == '/' || !src[2])) { src += 2; continue; }
    if (src[0] == '/' && src[1] == '.' && src[2] == '.' && (src[3] == '/' || !src[3])) {
      while (dst > out && *--dst != '/') {}
      src += 3;
      continue;
    }
    *dst++ = *src++;
  }
  if (dst == out) *dst++ = '/';
  *dst = '\0';
  return SQLITE_OK;
}

static int sq_random(sqlite3_vfs *vfs, int n, char *out) {
  sqlite3_vfs *def = sqlite3_vfs_find(NULL);
  return def->xRandomness(def, n, out);
}
static int sq_sleep(sqlite3_vfs *vfs, int us) { return us; }
static int sq_time(sqlite3_vfs *vfs, double *out) {
  sqlite3_vfs *def = sqlite3_vfs_find(NULL);
  return def->xCurrentTime(def, out);
}
static int sq_lasterr(sqlite3_vfs *vfs, int n, char *out) { return 0; }

/* ---- what SQL may do ------------------------------------------------------------- */

/*
 * The PRAGMAs a script may run, sorted (bsearch, case-insensitive). Each one
 * only reads or changes this connection or the database files it opened (all
 * of them store files), per https://sqlite.org/pragma.html. Left out on
 * purpose, because they change libsqlite3 for the whole process:
 *   hard_heap_limit, soft_heap_limit  the process-wide heap limit: every other
 *       sandbox's store then fails with SQLITE_NOMEM until the process restarts
 *   temp_store_directory, data_store_directory  the global sqlite3_temp_directory
 *       (and SQLite 3.40 returns from its error path holding the global
 *       STATIC_TEMPDIR mutex, which deadlocks every other connection's VFS)
 * and, although per connection, these:
 *   threads            worker threads beyond the one thread a call is given
 *   writable_schema    hand-made schemas exercise SQLite's corruption paths
 *   trusted_schema     stays off (SQLITE_DBCONFIG_TRUSTED_SCHEMA)
 * A PRAGMA not in the list (a future SQLite's, a misspelt one) is refused:
 * real sqlite3 ignores unknown names, here they say "not authorized".
 */
static const char *const sq_pragmas[] = {
    "analysis_limit", "application_id", "auto_vacuum", "automatic_index", "busy_timeout",
    "cache_size", "cache_spill", "case_sensitive_like", "cell_size_check",
    "checkpoint_fullfsync", "collation_list", "compile_options", "count_changes",
    "data_version", "database_list", "default_cache_size", "defer_foreign_keys",
    "empty_result_callbacks", "encoding", "foreign_key_check", "foreign_key_list",
    "foreign_keys", "freelist_count", "full_column_names", "fullfsync", "function_list",
    "ignore_check_constraints", "incremental_vacuum", "index_info", "index_list",
    "index_xinfo", "integrity_check", "journal_mode", "journal_size_limit",
    "legacy_alter_table", "locking_mode", "max_page_count", "mmap_size", "module_list",
    "optimize", "page_count", "page_size", "pragma_list", "query_only", "quick_check",
    "read_uncommitted", "recursive_triggers", "reverse_unordered_selects", "schema_version",
    "secure_delete", "short_column_names", "shrink_memory", "stats", "synchronous",
    "table_info", "table_list", "table_xinfo", "temp_store", "user_version",
    "wal_autocheckpoint", "wal_checkpoint",
};

static int sq_name_cmp(const void *key, const void *elem) {
  return sqlite3_stricmp(key, *(const char *const *)elem);
}

static bool sq_pragma_allowed(const char *name) {
  return name && bsearch(name, sq_pragmas, sizeof sq_pragmas / sizeof *sq_pragmas,
                         sizeof *sq_pragmas, sq_name_cmp) != NULL;
}

/*
 * sqlite3_set_authorizer callback: SQLITE_DENY makes the statement fail to
 * prepare with "not authorized". Runs at prepare time for the statement's
 * own text, views and triggers; functions inside a stored schema (CHECK,
 * DEFAULT, generated columns) are not seen here, which is why the two
 * functions refused are also SQLITE_DIRECTONLY in SQLite (never callable from
 * a schema) and TRUSTED_SCHEMA is off.
 */
static int sq_authorize(void *ud, int action, const char *a3, const char *a4, const char *a5,
                        const char *a6) {
  switch (action) {
    case SQLITE_PRAGMA:
      /* a3 = the pragma's name, a4 = its argument, a5 = the schema. */
      return sq_pragma_allowed(a3) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_ATTACH:
      /* a3 = the file name. A URI ("file:...", SQLITE_USE_URI) can name a
       * VFS (vfs=unix: the host's files); any other name is opened through
       * this connection's VFS, the store, like the main database. VACUUM
       * attaches "" (a temporary database), VACUUM INTO its target. a3 is
       * NULL when the name is an expression ('fi' || 'le:...'), known only
       * when the statement runs: refused. */
      return !a3 || sqlite3_strnicmp(a3, "file:", 5) == 0 ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_FUNCTION:
      /* a4 = the function's name. load_extension() loads host code;
       * fts3_tokenizer() reads and writes raw function pointers. */
      if (a4 && (sqlite3_stricmp(a4, "load_extension") == 0 ||
                 sqlite3_stricmp(a4, "fts3_tokenizer") == 0))
        return SQLITE_DENY;
      return SQLITE_OK;
    default: return SQLITE_OK;
  }
}

/* ---- the shell -------------------------------------------------------------------- */

enum sq_mode { M_LIST, M_CSV, M_JSON, M_LINE, M_COLUMN, M_TABLE, M_BOX, M_MARKDOWN, M_TABS, M_QUOTE };
static const char *const mode_names[] = {"list", "csv", "json", "line", "column", "table",
                                         "box", "markdown", "tabs", "quote", NULL};

typedef struct sq_shell {
  cmd_ctx *ctx;
  sqlite3 *db;
  enum sq_mode mode;
  bool header, header_set, bail, echo;
  char colsep[32], rowsep[32];
  char nullvalue[64];
  int out_fd;          /* 1, or a file from .output */
  bool once;           /* .once: back to stdout after one statement */
  int errors;
  bool quit;
  int depth;           /* .read nesting */
} sq_shell;

static void sh_out(sq_shell *s, const char *p, size_t n) {
  if (s->out_fd == 1)
    cmd_out(s->ctx, p, n);
  else
    cmd_write_fd(s->ctx, s->out_fd, p, n);
}
static void sh_outs(sq_shell *s, const char *p) { sh_out(s, p, strlen(p)); }

/* sqlite3_mprintf formats (%q %w too), hence no printf attribute. */
static void sh_outf(sq_shell *s, const char *fmt, ...);
static void sh_outf(sq_shell *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  if (p) sh_outs(s, p);
  sqlite3_free(p);
}

/* Display width of UTF-8 text: one column per code point. */
static size_t utf8_width(const char *p) {
  size_t w = 0;
  for (; *p; p++)
    if (((unsigned char)*p & 0xc0) != 0x80) w++;
  return w;
}

static void pad(sq_shell *s, size_t n) {
  static const char spaces[] = "                                ";
  while (n > 0) {
    size_t k = n < 32 ? n : 32;
    sh_out(s, spaces, k);
    n -= k;
  }
}

static void repeat(sq_shell *s, const char *unit, size_t n) {
  for (size_t i = 0; i < n; i++) sh_outs(s, unit);
}

static void csv_field(sq_shell *s, const char *v) {
  bool quote = *v == '\0' ? false : strpbrk(v, ",\"\r\n") != NULL || strstr(v, s->colsep);
  if (!quote) {
    sh_outs(s, v);
    return;
  }
  sh_out(s, "\"", 1);
  for (const char *p = v; *p; p++) {
    if (*p == '"') sh_out(s, "\"", 1);
    sh_out(s, p, 1);
  }
  sh_out(s, "\"", 1);
}

static void json_string(sq_shell *s, const char *v, size_t n) {
  sh_out(s, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)v[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      sh_out(s, esc, 2);
    } else if (c < 0x20) {
      const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
      if (named) sh_outs(s, named);
      else {
        snprintf(esc, sizeof esc, "\\u%04x", c);
        sh_outs(s, esc);
      }
    } else {
      sh_out(s, (const char *)&v[i], 1);
    }
  }
  sh_out(s, "\"", 1);
}

static void quote_value(sq_shell *s, sqlite3_stmt *st, int i) {
  switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL: sh_outs(s, "NULL"); break;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: sh_outs(s, (const char *)sqlite3_column_text(st, i)); break;
    case SQLITE_BLOB: {
      const unsigned char *b = sqlite3_column_blob(st, i);
      int n = sqlite3_column_bytes(st, i);
      sh_outs(s, "X'");
      for (int k = 0; k < n; k++) sh_outf(s, "%02x", b[k]);
      sh_outs(s, "'");
      break;
    }
    default: {
      const char *t = (const char *)sqlite3_column_text(st, i);
      sh_out(s, "'", 1);
      for (const char *p = t; *p; p++) {
        if (*p == '\'') sh_out(s, "'", 1);
        sh_out(s, p, 1);
      }
      sh_out(s, "'", 1);
    }
  }
}

/* Rows of a statement collected for the columnar modes. */
typedef struct grid {
  char **cell;      /* rows*cols strings (row 0 = header) */
  size_t rows, cols, cap;
} grid;

static void grid_free(grid *g) {
  for (size_t i = 0; i < g->rows * g->cols; i++) free(g->cell[i]);
  free(g->cell);
}

static int grid_add_row(grid *g, sqlite3_stmt *st, sq_shell *s, bool header) {
  if (cmd_grow(&g->cell, &g->cap, (g->rows + 1) * g->cols, sizeof *g->cell)) return -1;
  for (size_t c = 0; c < g->cols; c++) {
    const char *v = header ? sqlite3_column_name(st, (int)c)
                    : sqlite3_column_type(st, (int)c) == SQLITE_NULL
                        ? s->nullvalue
                        : (const char *)sqlite3_column_text(st, (int)c);
    g->cell[g->rows * g->cols + c] = strdup(v ? v : "");
  }
  g->rows++;
  return 0;
}

/* One horizontal rule of the table, box and markdown modes (above the
 * table, under the header, below it): `left`, then for each column `line`
 * across its width and padding, closed by `mid` between columns and `right`
 * after the last. w[] holds the column widths. */
static void grid_rule(sq_shell *s, const grid *g, const size_t *w, const char *line,
                      const char *left, const char *mid, const char *right) {
  sh_outs(s, left);
  for (size_t c = 0; c < g->cols; c++) {
    repeat(s, line, w[c] + 2);
    sh_outs(s, c + 1 < g->cols ? mid : right);
  }
  sh_outs(s, "\n");
}

static void print_grid(sq_shell *s, grid *g) {
  size_t *w = calloc(g->cols, sizeof *w);
  if (!w) return;
  for (size_t r = 0; r < g->rows; r++)
    for (size_t c = 0; c < g->cols; c++) {
      size_t k = utf8_width(g->cell[r * g->cols + c]);
      if (k > w[c]) w[c] = k;
    }
  bool column = s->mode == M_COLUMN, box = s->mode == M_BOX, md = s->mode == M_MARKDOWN;
  bool show_header = column ? s->header : true;
  if (column) {
    for (size_t r = show_header ? 0 : 1; r < g->rows; r++) {
      for (size_t c = 0; c < g->cols; c++) {
        const char *v = g->cell[r * g->cols + c];
        if (c) sh_outs(s, "  ");
        sh_outs(s, v);
        pad(s, w[c] - utf8_width(v));
      }
      sh_outs(s, s->rowsep);
      if (r == 0) {
        for (size_t c = 0; c < g->cols; c++) {
          if (c) sh_outs(s, "  ");
          repeat(s, "-", w[c]);
        }
        sh_outs(s, s->rowsep);
      }
    }
    free(w);
    return;
  }
  const char *l = box ? "│" : "|";
  /* top border */
  if (!md) {
    if (box) grid_rule(s, g, w, "─", "┌", "┬", "┐");
    else grid_rule(s, g, w, "-", "+", "+", "+");
  }
  for (size_t r = 0; r < g->rows; r++) {
    sh_outs(s, l);
    for (size_t c = 0; c < g->cols; c++) {
      const char *v = g->cell[r * g->cols + c];
      size_t k = utf8_width(v), left = r == 0 ? (w[c] - k) / 2 : 0;
      sh_outs(s, " ");
      pad(s, left);
      sh_outs(s, v);
      pad(s, w[c] - k - left);
      sh_outs(s, " ");
      sh_outs(s, l);
    }
    sh_outs(s, "\n");
    if (r == 0) {
      if (md) grid_rule(s, g, w, "-", "|", "|", "|");
      else if (box) grid_rule(s, g, w, "─", "├", "┼", "┤");
      else grid_rule(s, g, w, "-", "+", "+", "+");
    }
  }
  if (!md) {
    if (box) grid_rule(s, g, w, "─", "└", "┴", "┘");
    else grid_rule(s, g, w, "-", "+", "+", "+");
  }
  free(w);
}

/* Prints the context of an error the way sqlite3 3.40 does, or nothing. */
static void error_context(sq_shell *s, const char *sql) {
  int off = sqlite3_error_offset(s->db);
  if (off < 0 || !sql) return;
  while (off > 50) {
    off--;
    sql++;
    while (((unsigned char)sql[0] & 0xc0) == 0x80) sql++, off--;
  }
  size_t len = strlen(sql);
  if (len > 78) {
    len = 78;
    while (((unsigned char)sql[len] & 0xc0) == 0x80) len--;
  }
  char code[80];
  memcpy(code, sql, len);
  code[len] = '\0';
  for (size_t i = 0; i < len; i++)
    if (code[i] == '\n' || code[i] == '\t' || code[i] == '\r') code[i] = ' ';
  if (off < 25)
    cmd_err_raw(s->ctx, "\n  %s\n  %*s^--- error here", code, off, "");
  else
    cmd_err_raw(s->ctx, "\n  %s\n  %*serror here ---^", code, off - 14, "");
}

/* Runs every statement of `sql`. line > 0: input mode messages. */
static int run_sql(sq_shell *s, const char *sql, int line) {
  const char *tail = sql;
  while (tail && *tail) {
    sqlite3_stmt *st = NULL;
    const char *stmt_start = tail;
    while (*stmt_start == ' ' || *stmt_start == '\n' || *stmt_start == '\t') stmt_start++;
    int rc = sqlite3_prepare_v2(s->db, tail, -1, &st, &tail);
    if (rc != SQLITE_OK) {
      if (line > 0)
        cmd_err_raw(s->ctx, "Parse error near line %d: %s", line, sqlite3_errmsg(s->db));
      else
        cmd_err_raw(s->ctx, "Error: in prepare, %s", sqlite3_errmsg(s->db));
      error_context(s, stmt_start);
      cmd_err_raw(s->ctx, "\n");
      s->errors++;
      return 1;
    }
    if (!st) continue; /* whitespace or a comment */
    if (s->echo) sh_outf(s, "%s\n", sqlite3_sql(st));
    int cols = sqlite3_column_count(st);
    grid g = {.cols = (size_t)cols};
    bool columnar = s->mode == M_COLUMN || s->mode == M_TABLE || s->mode == M_BOX ||
                    s->mode == M_MARKDOWN;
    int nrow = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (cmd_poll(s->ctx)) {
        rc = SQLITE_INTERRUPT;
        break;
      }
      if (columnar) {
        if (nrow == 0) grid_add_row(&g, st, s, true);
        grid_add_row(&g, st, s, false);
        nrow++;
        continue;
      }
      switch (s->mode) {
        case M_LIST: case M_TABS: case M_CSV: {
          const char *sep = s->mode == M_TABS ? "\t" : s->colsep;
          if (nrow == 0 && s->header) {
            for (int i = 0; i < cols; i++) {
              if (i) sh_outs(s, sep);
              if (s->mode == M_CSV) csv_field(s, sqlite3_column_name(st, i));
              else sh_outs(s, sqlite3_column_name(st, i));
            }
            sh_outs(s, s->rowsep);
          }
          for (int i = 0; i < cols; i++) {
            if (i) sh_outs(s, sep);
            if (sqlite3_column_type(st, i) == SQLITE_NULL) {
              sh_outs(s, s->nullvalue);
            } else if (s->mode == M_CSV) {
              csv_field(s, (const char *)sqlite3_column_text(st, i));
            } else {
              const char *t = (const char *)sqlite3_column_text(st, i);
              sh_out(s, t, (size_t)sqlite3_column_bytes(st, i));
            }
          }
          sh_outs(s, s->rowsep);
          break;
        }
        case M_QUOTE:
          if (nrow == 0 && s->header) {
            for (int i = 0; i < cols; i++) {
              if (i) sh_outs(s, ",");
              sh_outf(s, "'%s'", sqlite3_column_name(st, i));
            }
            sh_outs(s, "\n");
          }
          for (int i = 0; i < cols; i++) {
            if (i) sh_outs(s, ",");
            quote_value(s, st, i);
          }
          sh_outs(s, "\n");
          break;
        case M_JSON:
          sh_outs(s, nrow == 0 ? "[{" : ",\n{");
          for (int i = 0; i < cols; i++) {
            if (i) sh_outs(s, ",");
            const char *name = sqlite3_column_name(st, i);
            json_string(s, name, strlen(name));
            sh_outs(s, ":");
            int t = sqlite3_column_type(st, i);
            if (t == SQLITE_NULL) sh_outs(s, "null");
            else if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
              sh_outs(s, (const char *)sqlite3_column_text(st, i));
            else
              json_string(s, (const char *)sqlite3_column_text(st, i),
                          (size_t)sqlite3_column_bytes(st, i));
          }
          sh_outs(s, "}");
          break;
        case M_LINE: {
          int w = 5;
          for (int i = 0; i < cols; i++) {
            int k = (int)utf8_width(sqlite3_column_name(st, i));
            if (k > w) w = k;
          }
          if (nrow > 0) sh_outs(s, "\n");
          for (int i = 0; i < cols; i++) {
            const char *name = sqlite3_column_name(st, i);
            pad(s, (size_t)(w - (int)utf8_width(name)));
            sh_outf(s, "%s = %s\n", name,
                    sqlite3_column_type(st, i) == SQLITE_NULL
                        ? s->nullvalue
                        : (const char *)sqlite3_column_text(st, i));
          }
          break;
        }
        default: break;
      }
      nrow++;
    }
    if (s->mode == M_JSON && nrow > 0) sh_outs(s, "]\n");
    if (columnar && nrow > 0) print_grid(s, &g);
    grid_free(&g);
    if (rc != SQLITE_DONE) {
      const char *msg = rc == SQLITE_INTERRUPT ? "interrupted" : sqlite3_errmsg(s->db);
      if (line > 0)
        cmd_err_raw(s->ctx, "Runtime error near line %d: %s (%d)\n", line, msg, rc);
      else
        cmd_err_raw(s->ctx, "Error: stepping, %s (%d)\n", msg, rc);
      sqlite3_finalize(st);
      s->errors++;
      return rc & 0xff; /* the shell exits with SQLite's code for SQL from arguments */
    }
    sqlite3_finalize(st);
    if (s->once && s->out_fd != 1) {
      s->ctx->io->close(s->ctx->io_ud, s->out_fd);
      s->out_fd = 1;
      s->once = false;
    }
  }
  return 0;
}

static int set_mode(sq_shell *s, const char *name) {
  for (int i = 0; mode_names[i]; i++) {
    if (strcmp(mode_names[i], name) == 0) {
      s->mode = (enum sq_mode)i;
      if (s->mode == M_CSV) {
        strcpy(s->colsep, ",");
        strcpy(s->rowsep, "\r\n");
      } else if (s->mode == M_LIST) {
        strcpy(s->colsep, "|");
        strcpy(s->rowsep, "\n");
      } else {
        strcpy(s->rowsep, "\n");
      }
      return 0;
    }
  }
  return -1;
}

static int process_input(sq_shell *s, int fd);

/* Splits a dot-command line into words (quotes honored). Arena strings. */
static int split_words(cmd_ctx *ctx, const char *line, char **w, int max) {
  int n = 0;
  const char *p = line;
  while (*p && n < max) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (!*p) break;
    char *word = cmd_alloc(ctx, strlen(p) + 1), *o = word;
    if (*p == '\'' || *p == '"') {
      char q = *p++;
      while (*p && *p != q) *o++ = *p++;
      if (*p) p++;
    } else {
      while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') *o++ = *p++;
    }
    *o = '\0';
    w[n++] = word;
  }
  return n;
}

/* The statements .import builds (CREATE TABLE, INSERT): finishes `sql` and
 * runs it (stmt NULL) or prepares it into *stmt; -1 after printing sqlite3's
 * "Error: ..." when that fails, else 0. */
static int import_sql(sq_shell *s, sqlite3_str *sql, sqlite3_stmt **stmt) {
  char *text = sqlite3_str_finish(sql);
  int rc = stmt ? sqlite3_prepare_v2(s->db, text, -1, stmt, NULL)
                : sqlite3_exec(s->db, text, NULL, NULL, NULL);
  sqlite3_free(text);
  if (rc == SQLITE_OK) return 0;
  cmd_err_raw(s->ctx, "Error: %s\n", sqlite3_errmsg(s->db));
  return -1;
}

static int do_import(sq_shell *s, char **w, int n) {
  const char *file = NULL, *table = NULL;
  bool csv = s->mode == M_CSV, skip_header = false;
  for (int i = 1; i < n; i++) {
    if (strcmp(w[i], "--csv") == 0) csv = true;
    else if (strcmp(w[i], "--skip") == 0 && i + 1 < n) skip_header = atoi(w[++i]) > 0;
    else if (!file) file = w[i];
    else if (!table) table = w[i];
  }
  if (!file || !table) {
    cmd_err_raw(s->ctx, "Usage: .import FILE TABLE\n");
    return 1;
  }
  cmd_in *in;
  int rc = cmd_in_open(s->ctx, file, &in);
  if (rc < 0) {
    cmd_err_raw(s->ctx, "Error: cannot open \"%s\"\n", file);
    return 1;
  }
  char sep = csv ? ',' : s->colsep[0];
  char *line;
  ssize_t len;
  int nrow = 0, ncol = 0, status = 0;
  sqlite3_stmt *ins = NULL;
  char *exists_sql = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 0", table);
  bool table_exists = sqlite3_exec(s->db, exists_sql, NULL, NULL, NULL) == SQLITE_OK;
  sqlite3_free(exists_sql);
  sqlite3_exec(s->db, "SAVEPOINT sbx_import", NULL, NULL, NULL);
  while ((len = cmd_in_getdelim(in, &line, '\n')) > 0) {
    if (line[len - 1] == '\n') line[--len] = '\0';
    if (len && line[len - 1] == '\r') line[--len] = '\0';
    /* split into fields (CSV quoting when csv) */
    char *fields[1024];
    int nf = 0;
    char *p = line;
    for (;;) {
      char *f = p, *o = p;
      if (csv && *p == '"') {
        p++;
        for (;;) {
          if (*p == '"' && p[1] == '"') { *o++ = '"'; p += 2; continue; }
          if (*p == '"') { p++; break; }
          if (!*p) break;
          *o++ = *p++;
        }
        while (*p && *p != sep) p++;
      } else {
        while (*p && *p != sep) *o++ = *p++;
      }
      char end = *p;
      *o = '\0';
      if (nf < 1024) fields[nf++] = f;
      if (!end) break;
      p++;
    }
    if (nrow == 0 && !table_exists) {
      sqlite3_str *create = sqlite3_str_new(s->db);
      sqlite3_str_appendf(create, "CREATE TABLE IF NOT EXISTS \"%w\"(\n", table);
      for (int i = 0; i < nf; i++)
        sqlite3_str_appendf(create, "%s\"%w\" TEXT", i ? ", " : "", fields[i]);
      sqlite3_str_appendall(create, ");");
      if (import_sql(s, create, NULL) < 0) {
        status = 1;
        break;
      }
      nrow++;
      continue;
    }
    if (nrow == 0 && skip_header) {
      nrow++;
      continue;
    }
    if (!ins) {
      sqlite3_stmt *probe;
      char *q = sqlite3_mprintf("SELECT * FROM \"%w\"", table);
      sqlite3_prepare_v2(s->db, q, -1, &probe, NULL);
      sqlite3_free(q);
      ncol = probe ? sqlite3_column_count(probe) : nf;
      sqlite3_finalize(probe);
      sqlite3_str *sql = sqlite3_str_new(s->db);
      sqlite3_str_appendf(sql, "INSERT INTO \"%w\" VALUES(", table);
      for (int i = 0; i < ncol; i++) sqlite3_str_appendall(sql, i ? ",?" : "?");
      sqlite3_str_appendall(sql, ")");
      if (import_sql(s, sql, &ins) < 0) {
        status = 1;
        break;
      }
    }
    nrow++;
    if (nf != ncol)
      cmd_err_raw(s->ctx, "%s:%d: expected %d columns but found %d - %s\n", file, nrow, ncol,
                  nf, nf < ncol ? "filling the rest with NULL" : "extras ignored");
    for (int i = 0; i < ncol; i++) {
      if (i < nf) sqlite3_bind_text(ins, i + 1, fields[i], -1, SQLITE_TRANSIENT);
      else sqlite3_bind_null(ins, i + 1);
    }
    rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    if (rc != SQLITE_DONE) {
      cmd_err_raw(s->ctx, "%s:%d: INSERT failed: %s\n", file, nrow, sqlite3_errmsg(s->db));
      status = 1;
    }
    if (cmd_poll(s->ctx)) break;
  }
  sqlite3_finalize(ins);
  sqlite3_exec(s->db, status ? "ROLLBACK TO sbx_import" : "RELEASE sbx_import", NULL, NULL, NULL);
  cmd_in_close(in);
  return status;
}

static int print_names(void *ud, int n, char **v, char **cols) {
  char ***list = ud;
  size_t count = 0;
  while ((*list)[count]) count++;
  char **nl = realloc(*list, (count + 2) * sizeof **list);
  if (!nl) return 1;
  nl[count] = strdup(v[0] ? v[0] : "");
  nl[count + 1] = NULL;
  *list = nl;
  return 0;
}

static bool plain_identifier(const char *p) {
  if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))) return false;
  for (; *p; p++)
    if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
          (*p >= '0' && *p <= '9')))
      return false;
  return true;
}

/* One .schema line as sqlite3 3.40 prints it: tables with a quoted name get
 * "IF NOT EXISTS", views a comment with their column names. */
static void print_schema_sql(sq_shell *s, const char *sql) {
  static const char quoted[] = "CREATE TABLE \"";
  if (strncmp(sql, quoted, sizeof quoted - 1) == 0) {
    sh_outf(s, "CREATE TABLE IF NOT EXISTS %s;\n", sql + sizeof quoted - 2);
    return;
  }
  sh_outs(s, sql);
  if (strncmp(sql, "CREATE VIEW ", 12) == 0) {
    const char *name = sql + 12;
    size_t n = strcspn(name, " (");
    char *view = sqlite3_mprintf("%.*s", (int)n, name);
    char *q = view ? sqlite3_mprintf("SELECT * FROM \"%w\"", view) : NULL;
    sqlite3_free(view);
    sqlite3_stmt *st;
    if (q && sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK) {
      sh_outf(s, "\n/* %.*s(", (int)n, name);
      for (int i = 0; i < sqlite3_column_count(st); i++) {
        const char *c = sqlite3_column_name(st, i);
        sh_outf(s, i ? (plain_identifier(c) ? ",%s" : ",\"%w\"") : (plain_identifier(c) ? "%s" : "\"%w\""), c);
      }
      sh_outs(s, ") */");
      sqlite3_finalize(st);
    }
    sqlite3_free(q);
  }
  sh_outs(s, ";\n");
}

static int do_dot(sq_shell *s, const char *line) {
  char *w[16];
  int n = split_words(s->ctx, line + 1, w, 16);
  if (n == 0) return 0;
  const char *c = w[0];
  if (strcmp(c, "quit") == 0 || strcmp(c, "exit") == 0) {
    s->quit = true;
    return 0;
  }
  if (strcmp(c, "mode") == 0) {
    if (n < 2) {
      sh_outf(s, "current output mode: %s\n", mode_names[s->mode]);
      return 0;
    }
    if (set_mode(s, w[1]) < 0) {
      cmd_err_raw(s->ctx, "Error: mode should be one of: box column csv html insert json "
                          "line list markdown qbox quote table tabs tcl\n");
      return 1;
    }
    return 0;
  }
  if (strcmp(c, "headers") == 0 || strcmp(c, "header") == 0) {
    if (n < 2) {
      cmd_err_raw(s->ctx, "Usage: .headers on|off\n");
      return 1;
    }
    s->header = strcmp(w[1], "on") == 0 || strcmp(w[1], "1") == 0 || strcmp(w[1], "yes") == 0;
    s->header_set = true;
    return 0;
  }
  if (strcmp(c, "separator") == 0 && n >= 2) {
    snprintf(s->colsep, sizeof s->colsep, "%s", w[1]);
    if (n >= 3) snprintf(s->rowsep, sizeof s->rowsep, "%s", w[2]);
    return 0;
  }
  if (strcmp(c, "nullvalue") == 0 && n >= 2) {
    snprintf(s->nullvalue, sizeof s->nullvalue, "%s", w[1]);
    return 0;
  }
  if (strcmp(c, "bail") == 0 && n >= 2) {
    s->bail = strcmp(w[1], "on") == 0;
    return 0;
  }
  if (strcmp(c, "echo") == 0 && n >= 2) {
    s->echo = strcmp(w[1], "on") == 0;
    return 0;
  }
  if (strcmp(c, "print") == 0) {
    for (int i = 1; i < n; i++) sh_outf(s, "%s%s", i > 1 ? " " : "", w[i]);
    sh_outs(s, "\n");
    return 0;
  }
  if (strcmp(c, "tables") == 0 || strcmp(c, "indexes") == 0 || strcmp(c, "indices") == 0) {
    bool tables = c[0] == 't';
    char *sql = sqlite3_mprintf(
        "SELECT name FROM sqlite_schema WHERE type %s AND name NOT LIKE 'sqlite_%%' "
        "AND name LIKE %Q ESCAPE '\\' ORDER BY 1",
        tables ? "IN ('table','view')" : "= 'index'", n >= 2 ? w[1] : "%");
    char **names = calloc(1, sizeof *names);
    int rc = sqlite3_exec(s->db, sql, print_names, &names, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      cmd_err_raw(s->ctx, "Error: %s\n", sqlite3_errmsg(s->db));
      for (char **p = names; p && *p; p++) free(*p);
      free(names);
      return 1;
    }
    size_t count = 0, maxlen = 0;
    for (; names[count]; count++)
      if (strlen(names[count]) > maxlen) maxlen = strlen(names[count]);
    if (count) {
      size_t ncol = 80 / (maxlen + 2);
      if (ncol < 1) ncol = 1;
      size_t nrow = (count + ncol - 1) / ncol;
      for (size_t i = 0; i < nrow; i++) {
        const char *sp = "";
        for (size_t j = i; j < count; j += nrow) {
          sh_outf(s, "%s%-*s", sp, (int)maxlen, names[j]);
          sp = "  ";
        }
        sh_outs(s, "\n");
      }
    }
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
    return 0;
  }
  if (strcmp(c, "schema") == 0) {
    sqlite3_stmt *st;
    const char *q = n >= 2 ? "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND "
                             "tbl_name LIKE ?1 ORDER BY rowid"
                           : "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND "
                             "name NOT LIKE 'sqlite_%' ORDER BY rowid";
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) {
      cmd_err_raw(s->ctx, "Error: %s\n", sqlite3_errmsg(s->db));
      return 1;
    }
    if (n >= 2) sqlite3_bind_text(st, 1, w[1], -1, SQLITE_TRANSIENT);
    while (sqlite3_step(st) == SQLITE_ROW) print_schema_sql(s, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return 0;
  }
  if (strcmp(c, "dump") == 0) {
    sh_outs(s, "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n");
    sqlite3_stmt *tabs;
    sqlite3_prepare_v2(s->db,
                       "SELECT name, sql FROM sqlite_schema WHERE type='table' AND sql "
                       "NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
                       -1, &tabs, NULL);
    while (tabs && sqlite3_step(tabs) == SQLITE_ROW) {
      const char *name = (const char *)sqlite3_column_text(tabs, 0);
      sh_outf(s, "%s;\n", sqlite3_column_text(tabs, 1));
      char *q = sqlite3_mprintf("SELECT * FROM \"%w\"", name);
      sqlite3_stmt *rows;
      if (sqlite3_prepare_v2(s->db, q, -1, &rows, NULL) == SQLITE_OK) {
        while (sqlite3_step(rows) == SQLITE_ROW) {
          sh_outf(s, "INSERT INTO %s VALUES(", name);
          for (int i = 0; i < sqlite3_column_count(rows); i++) {
            if (i) sh_outs(s, ",");
            quote_value(s, rows, i);
          }
          sh_outs(s, ");\n");
        }
      }
      sqlite3_finalize(rows);
      sqlite3_free(q);
    }
    sqlite3_finalize(tabs);
    sh_outs(s, "COMMIT;\n");
    return 0;
  }
  if (strcmp(c, "read") == 0 && n >= 2) {
    if (s->depth >= 8) {
      cmd_err_raw(s->ctx, "Error: .read nested too deeply\n");
      return 1;
    }
    int fd = s->ctx->io->open(s->ctx->io_ud, w[1], O_RDONLY, 0);
    if (fd < 0) {
      cmd_err_raw(s->ctx, "Error: cannot open \"%s\"\n", w[1]);
      return 1;
    }
    s->depth++;
    int rc = process_input(s, fd);
    s->depth--;
    s->ctx->io->close(s->ctx->io_ud, fd);
    return rc;
  }
  if ((strcmp(c, "output") == 0 || strcmp(c, "once") == 0)) {
    if (s->out_fd != 1) s->ctx->io->close(s->ctx->io_ud, s->out_fd);
    s->out_fd = 1;
    s->once = false;
    if (n >= 2 && strcmp(w[1], "stdout") != 0) {
      int fd = s->ctx->io->open(s->ctx->io_ud, w[1], O_WRONLY | O_CREAT | O_TRUNC,
                                0666 & ~s->ctx->umask);
      if (fd < 0) {
        cmd_err_raw(s->ctx, "Error: cannot open \"%s\"\n", w[1]);
        return 1;
      }
      cmd_flush(s->ctx);
      s->out_fd = fd;
      s->once = c[0] == 'o' && c[1] == 'n';
    }
    return 0;
  }
  if (strcmp(c, "import") == 0) return do_import(s, w, n);
  if (strcmp(c, "help") == 0) {
    sh_outs(s,
            ".bail on|off             Stop after hitting an error\n"
            ".dump                    Render database content as SQL\n"
            ".echo on|off             Turn command echo on or off\n"
            ".exit                    Exit this program\n"
            ".headers on|off          Turn display of headers on or off\n"
            ".import FILE TABLE       Import data from FILE into TABLE\n"
            ".indexes ?TABLE?         Show names of indexes\n"
            ".mode MODE               Set output mode (list csv json line column table box markdown tabs quote)\n"
            ".nullvalue STRING        Use STRING in place of NULL values\n"
            ".once FILE               Output for the next SQL command only to FILE\n"
            ".output ?FILE?           Send output to FILE or stdout if FILE is omitted\n"
            ".print STRING...         Print literal STRING\n"
            ".quit                    Exit this program\n"
            ".read FILE               Read input from FILE\n"
            ".schema ?PATTERN?        Show the CREATE statements matching PATTERN\n"
            ".separator COL ?ROW?     Change the column and row separators\n"
            ".tables ?TABLE?          List names of tables matching LIKE pattern TABLE\n");
    return 0;
  }
  cmd_err_raw(s->ctx,
              "Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n",
              c);
  return 1;
}

/* Reads statements and dot-commands from fd until EOF or .quit. */
static int process_input(sq_shell *s, int fd) {
  cmd_in *in = cmd_in_fd(s->ctx, fd);
  if (!in) return 1;
  char *sql = NULL;
  size_t sqllen = 0, sqlcap = 0;
  int lineno = 0, start_line = 0, rc = 0;
  char *line;
  ssize_t len;
  while (!s->quit && (len = cmd_in_getdelim(in, &line, '\n')) > 0) {
    lineno++;
    if (cmd_poll(s->ctx)) break;
    if (sqllen == 0) {
      const char *p = line;
      while (*p == ' ' || *p == '\t') p++;
      if (*p == '.') {
        if (do_dot(s, p) != 0) {
          s->errors++;
          if (s->bail) break;
        }
        continue;
      }
      start_line = lineno;
    }
    if (sqllen + (size_t)len + 1 > sqlcap) {
      size_t nc = sqlcap ? sqlcap * 2 : 4096;
      while (nc < sqllen + (size_t)len + 1) nc *= 2;
      if (s->ctx->max_string && nc > s->ctx->max_string) {
        cmd_err_raw(s->ctx, "Error: SQL statement too long\n");
        rc = 1;
        break;
      }
      char *ns = realloc(sql, nc);
      if (!ns) break;
      sql = ns;
      sqlcap = nc;
    }
    memcpy(sql + sqllen, line, (size_t)len);
    sqllen += (size_t)len;
    sql[sqllen] = '\0';
    if (sqlite3_complete(sql)) {
      if (run_sql(s, sql, start_line) && s->bail) {
        sqllen = 0;
        break;
      }
      sqllen = 0;
    }
  }
  if (sqllen > 0 && !s->quit) {
    /* An unfinished statement at EOF: SQLite reports it. */
    bool blank = true;
    for (size_t i = 0; i < sqllen; i++)
      if (sql[i] != ' ' && sql[i] != '\n' && sql[i] != '\t' && sql[i] != '\r') blank = false;
    if (!blank) run_sql(s, sql, start_line);
  }
  free(sql);
  cmd_in_close(in);
  return rc;
}

static int progress(void *ud) { return cmd_poll((cmd_ctx *)ud) ? 1 : 0; }

int cmd_sqlite3_main(cmd_ctx *ctx, int argc, char **argv) {
  sq_shell s = {.ctx = ctx, .mode = M_LIST, .out_fd = 1};
  strcpy(s.colsep, "|");
  strcpy(s.rowsep, "\n");
  const char *file = NULL;
  const char *cmds[32];
  int ncmds = 0;
  bool readonly = false;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1]) {
      if (!file) {
        file = a;
        continue;
      }
      break;
    }
    if (a[1] == '-') a++; /* --option is -option */
    if (strcmp(a, "-header") == 0 || strcmp(a, "-headers") == 0) s.header = s.header_set = true;
    else if (strcmp(a, "-noheader") == 0) s.header = false, s.header_set = true;
    else if (strcmp(a, "-readonly") == 0) readonly = true;
    else if (strcmp(a, "-bail") == 0) s.bail = true;
    else if (strcmp(a, "-echo") == 0) s.echo = true;
    else if (strcmp(a, "-batch") == 0 || strcmp(a, "-interactive") == 0) {}
    else if (strcmp(a, "-separator") == 0 && i + 1 < argc) snprintf(s.colsep, sizeof s.colsep, "%s", argv[++i]);
    else if (strcmp(a, "-newline") == 0 && i + 1 < argc) snprintf(s.rowsep, sizeof s.rowsep, "%s", argv[++i]);
    else if (strcmp(a, "-nullvalue") == 0 && i + 1 < argc) snprintf(s.nullvalue, sizeof s.nullvalue, "%s", argv[++i]);
    else if (strcmp(a, "-cmd") == 0 && i + 1 < argc) { if (ncmds < 32) cmds[ncmds++] = argv[++i]; else i++; }
    else if (strcmp(a, "-version") == 0) {
      cmd_outf(ctx, "%s %s\n", sqlite3_libversion(), sqlite3_sourceid());
      return 0;
    } else if (strcmp(a, "-help") == 0) {
      cmd_outs(ctx,
               "Usage: sqlite3 [OPTIONS] FILENAME [SQL]\n"
               "FILENAME is the name of an SQLite database in the sandbox. A new database is\n"
               "created if the file does not previously exist.\n"
               "OPTIONS include:\n"
               "   -bail                stop after hitting an error\n"
               "   -box -column -csv -json -line -list -markdown -quote -table -tabs   set output mode\n"
               "   -cmd COMMAND         run \"COMMAND\" before reading stdin\n"
               "   -echo                print inputs before execution\n"
               "   -[no]header          turn headers on or off\n"
               "   -newline SEP         set output row separator. Default: '\\n'\n"
               "   -nullvalue TEXT      set text string for NULL values. Default ''\n"
               "   -readonly            open the database read-only\n"
               "   -separator SEP       set output column separator. Default: '|'\n"
               "   -version             show SQLite version\n");
      return 0;
    } else if (set_mode(&s, a + 1) == 0) {
      strcpy(s.rowsep, "\n"); /* -csv keeps "\n"; only .mode csv switches to "\r\n" */
    } else {
      cmd_err_raw(ctx, "%s: Error: unknown option: %s\nUse -help for a list of options.\n",
                  ctx->name, argv[i]);
      return 1;
    }
  }
  const char *dbname = file && strcmp(file, ":memory:") != 0 && *file ? file : ":memory:";
  const char *shown = dbname; /* the name in messages */
  /* libsqlite3 is built with SQLITE_USE_URI: "file:/x?vfs=unix" would open a
   * host file. "./file:..." is the same store path and never a URI. */
  if (strncmp(dbname, "file:", 5) == 0) {
    char *path = cmd_alloc(ctx, strlen(dbname) + 3);
    if (!path) return 1;
    sprintf(path, "./%s", dbname);
    dbname = path;
  }
  sqlite3_vfs *vfs = calloc(1, sizeof *vfs + 64);
  if (!vfs) return 1;
  char *vfs_name = (char *)(vfs + 1);
  snprintf(vfs_name, 64, "sbx-store-%p", (void *)vfs);
  vfs->iVersion = 1;
  vfs->szOsFile = sizeof(sq_file);
  vfs->mxPathname = STORE_PATH_MAX;
  vfs->zName = vfs_name;
  vfs->pAppData = ctx;
  vfs->xOpen = sq_open;
  vfs->xDelete = sq_delete;
  vfs->xAccess = sq_access;
  vfs->xFullPathname = sq_fullpath;
  vfs->xRandomness = sq_random;
  vfs->xSleep = sq_sleep;
  vfs->xCurrentTime = sq_time;
  vfs->xGetLastError = sq_lasterr;
  sqlite3_vfs_register(vfs, 0);
  int status = 0;
  int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  /* Our VFS even for ":memory:": SQLite's temporary files then live in the
   * store's /tmp instead of the host's. */
  int rc = sqlite3_open_v2(dbname, &s.db, flags, vfs_name);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(s.db, "PRAGMA schema_version", NULL, NULL, NULL); /* read the header now */
  if (rc != SQLITE_OK) {
    cmd_err_raw(ctx, "Error: unable to open database \"%s\": %s\n", shown,
                s.db ? sqlite3_errmsg(s.db) : "out of memory");
    status = 1;
    goto out;
  }
  /* Bounds: no loading of host extensions, strings within the sandbox's limit,
   * and a progress handler that honours cancel and timeouts. */
  sqlite3_db_config(s.db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config(s.db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config(s.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  if (ctx->max_string && ctx->max_string < 1000000000)
    sqlite3_limit(s.db, SQLITE_LIMIT_LENGTH, (int)ctx->max_string);
  sqlite3_limit(s.db, SQLITE_LIMIT_ATTACHED, 4); /* store files only (sq_authorize) */
  sqlite3_exec(s.db, "PRAGMA temp_store=MEMORY", NULL, NULL, NULL);
  sqlite3_set_authorizer(s.db, sq_authorize, NULL);
  sqlite3_progress_handler(s.db, 10000, progress, ctx);
  for (int k = 0; k < ncmds && !s.quit; k++) {
    if (cmds[k][0] == '.') status |= do_dot(&s, cmds[k]);
    else status |= run_sql(&s, cmds[k], 0);
  }
  if (i < argc) {
    for (; i < argc && !s.quit; i++) {
      int r = argv[i][0] == '.' ? do_dot(&s, argv[i]) : run_sql(&s, argv[i], 0);
      if (r) {
        s.errors++;
        status = r;
        if (s.bail) break;
      }
    }
  } else if (!s.quit) {
    process_input(&s, 0);
  }
  if (s.errors && !status) status = 1;
out:
  if (s.out_fd != 1) ctx->io->close(ctx->io_ud, s.out_fd);
  sqlite3_close(s.db);
  sqlite3_vfs_unregister(vfs);
  free(vfs);
  return status;
}
