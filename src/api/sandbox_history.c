/*
 * sandbox_history.c - the one builder of the history rows the fronts leave
 * (the C API, the CLI, sbx mcp, the Python package): a bash call (name "bash",
 * or the caller's sbx_bash_opts.record_name), and every file helper of
 * include/sbx.h that reads or changes files (read_file, write_file,
 * write_files, mkdir, remove, list_dir, rename, symlink, import_dir,
 * export_dir). A front gets the row by calling the library; none builds one.
 *
 * Row shape. parameters: the paths and what describes the call without its
 * contents ({"path", "size", "flags"...}); result: {"bytes": N} for what moves
 * file contents, {"entries": N} for a listing, {} otherwise; a failure has no
 * result and the error text sbx_errmsg() gives. Paths and scripts may hold
 * any bytes but NUL: each byte that does not start valid UTF-8 becomes U+FFFD,
 * so the row is always JSON text.
 *
 * Cost. The row goes to the store's buffer (store_call_log): it is written
 * with the next commit, so a read helper or a warm `echo hi` pays a malloc,
 * not a WAL commit. A helper that writes runs in a transaction that also
 * takes its row (and any waiting ones): a write that returned has its row
 * on disk with it. A failure to record never fails the call.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/sandbox_int.h"

void sandbox_json_quote(sh_buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  sh_buf_addc(b, '"');
  size_t i = 0;
  while (i < n) {
    unsigned c = p[i];
    if (c == '"' || c == '\\') {
      sh_buf_addc(b, '\\');
      sh_buf_addc(b, (char)c);
      i++;
    } else if (c < 0x20 || c == 0x7f) {
      char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      sh_buf_add(b, e, sizeof e);
      i++;
    } else if (c < 0x80) {
      sh_buf_addc(b, (char)c);
      i++;
    } else {
      /* the length of a valid sequence starting here, or 0 */
      size_t len = c >= 0xc2 && c <= 0xdf   ? 2
                   : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4
                                            : 0;
      if (len > n - i) len = 0;
      for (size_t k = 1; k < len; k++)
        if ((p[i + k] & 0xc0) != 0x80) len = 0;
      if (len == 3 && ((c == 0xe0 && p[i + 1] < 0xa0) || (c == 0xed && p[i + 1] > 0x9f)))
        len = 0; /* overlong, or a surrogate */
      if (len == 4 && ((c == 0xf0 && p[i + 1] < 0x90) || (c == 0xf4 && p[i + 1] > 0x8f)))
        len = 0; /* overlong, or past U+10FFFF */
      if (len) {
        sh_buf_add(b, p + i, len);
        i += len;
      } else {
        sh_buf_adds(b, "\\ufffd");
        i++;
      }
    }
  }
  sh_buf_addc(b, '"');
}

void sandbox_json_key_str(sh_buf *b, const char *key, const char *s) {
  sh_buf_addc(b, b->len ? ',' : '{');
  sandbox_json_quote(b, key, strlen(key));
  sh_buf_addc(b, ':');
  sandbox_json_quote(b, s, strlen(s));
}

void sandbox_json_key_int(sh_buf *b, const char *key, long long v) {
  char num[32];
  sh_buf_addc(b, b->len ? ',' : '{');
  sandbox_json_quote(b, key, strlen(key));
  snprintf(num, sizeof num, ":%lld", v);
  sh_buf_adds(b, num);
}

double sandbox_ms_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
         (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

int sbx_history_files(sbx *h, int on) {
  if (!h) return SBX_MISUSE;
  int was = !h->files_quiet;
  h->files_quiet = !on;
  return was;
}

void sandbox_record(sbx *h, const char *name, const char *parameters, const char *result,
                    const char *error, double duration_ms) {
  if (!h->st) return;
  store_call_log(h->st, name, parameters, error ? NULL : result, error, 0, duration_ms);
}

void sandbox_call_begin(sbx *h, sandbox_call *c, int writes) {
  memset(c, 0, sizeof *c);
  clock_gettime(CLOCK_MONOTONIC, &c->t0);
  c->tx = writes && h->st && store_begin(h->st) == 0;
}

int sandbox_call_end(sbx *h, sandbox_call *c, const char *name, int rc, const char *key,
                     long long count) {
  sh_buf_adds(&c->params, c->params.len ? "}" : "{}");
  char result[48] = "{}";
  if (key) snprintf(result, sizeof result, "{\"%s\":%lld}", key, count);
  if (!h->files_quiet)
    sandbox_record(h, name, sh_buf_str(&c->params), result,
                   rc == SBX_OK ? NULL : sbx_errmsg(h), sandbox_ms_since(&c->t0));
  sh_buf_free(&c->params);
  if (c->tx) { /* the call and its row in one commit */
    int src = store_commit(h->st);
    if (src < 0 && rc == SBX_OK) rc = sandbox_fail_store(h, src, name, NULL);
  }
  return rc;
}
