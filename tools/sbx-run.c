/*
 * sbx-run - runs one command of the table in a fresh in-memory sandbox.
 *
 *   sbx-run [--file NAME=CONTENT]... [--stdin TEXT] [--cwd DIR] -- CMD [ARG]...
 *
 * Files are created (with parents) before the command runs; CONTENT and TEXT
 * take C escapes (\n \t \\ \0 \xHH). The command's stdout and stderr are copied
 * to ours and its status is ours. For testing commands before the shell exists
 * and for debugging one command without shell syntax in the way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

/* Decodes C escapes of `s` into a malloc'd buffer; *len gets its length. */
static char *unescape(const char *s, size_t *len) {
  char *out = malloc(strlen(s) + 1), *o = out;
  if (!out) return NULL;
  for (; *s; s++) {
    if (*s != '\\' || !s[1]) {
      *o++ = *s;
      continue;
    }
    s++;
    switch (*s) {
      case 'n': *o++ = '\n'; break;
      case 't': *o++ = '\t'; break;
      case 'r': *o++ = '\r'; break;
      case '0': *o++ = '\0'; break;
      case 'x': {
        char hex[3] = {0};
        for (int i = 0; i < 2 && s[1] && strchr("0123456789abcdefABCDEF", s[1]); i++)
          hex[i] = *++s;
        *o++ = (char)strtol(hex, NULL, 16);
        break;
      }
      default: *o++ = *s;
    }
  }
  *len = (size_t)(o - out);
  return out;
}

int main(int argc, char **argv) {
  store *s = NULL;
  char *err = NULL;
  if (store_open(NULL, STORE_OPEN_MEMORY, &s, &err) < 0) {
    fprintf(stderr, "sbx-run: cannot open a sandbox: %s\n", err ? err : "?");
    return 125;
  }
  const char *cwd = "/";
  char *in = NULL;
  size_t inlen = 0;
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--file") == 0 && i + 1 < argc) {
      char *spec = argv[++i], *eq = strchr(spec, '=');
      if (!eq) {
        fprintf(stderr, "sbx-run: --file wants NAME=CONTENT\n");
        return 125;
      }
      *eq = '\0';
      size_t n;
      char *data = unescape(eq + 1, &n);
      int rc = store_path_write_file(s, cwd, spec, data, n, 0644, STORE_WRITE_MKDIRS);
      free(data);
      if (rc < 0) {
        fprintf(stderr, "sbx-run: %s: %s\n", spec, cmd_strerror(rc));
        return 125;
      }
    } else if (strcmp(argv[i], "--stdin") == 0 && i + 1 < argc) {
      free(in);
      in = unescape(argv[++i], &inlen);
    } else if (strcmp(argv[i], "--cwd") == 0 && i + 1 < argc) {
      cwd = argv[++i];
      store_path_mkdir_p(s, "/", cwd, 0755);
    } else {
      fprintf(stderr, "usage: sbx-run [--file NAME=CONTENT]... [--stdin TEXT] [--cwd DIR] -- CMD [ARG]...\n");
      return 125;
    }
  }
  if (i + 1 >= argc) {
    fprintf(stderr, "sbx-run: no command\n");
    return 125;
  }
  cmd_standalone_result res;
  cmd_run_standalone(s, cwd, argc - i - 1, argv + i + 1, in, inlen, &res);
  fwrite(res.out, 1, res.outlen, stdout);
  fwrite(res.err, 1, res.errlen, stderr);
  free(res.out);
  free(res.err);
  free(in);
  store_close(s);
  return res.status;
}
