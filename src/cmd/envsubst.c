/*
 * envsubst - substitute environment variables in shell-format text.
 *
 *   Usage: envsubst [OPTION] [SHELL-FORMAT]
 *   -v, --variables   print the variables named in SHELL-FORMAT and exit
 *
 * Design: as GNU gettext's envsubst, one pass over standard input: "$NAME"
 * and "${NAME}" (NAME = [A-Za-z_][A-Za-z0-9_]*) become the variable's value,
 * empty when unset; everything else ("${X:-d}", "$$", "$1", a backslash) is
 * copied. With SHELL-FORMAT only the variables it names are replaced.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("envsubst", cmd_envsubst_main);

static bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
static bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

/* The variable reference at s[i] ('$'): its name span and the reference's
 * length, or 0 when it is not one. */
static size_t var_ref(const char *s, size_t n, size_t i, size_t *ns, size_t *nl) {
  size_t j = i + 1;
  bool brace = j < n && s[j] == '{';
  if (brace) j++;
  if (j >= n || !name_start(s[j])) return 0;
  size_t start = j;
  while (j < n && name_char(s[j])) j++;
  if (brace) {
    if (j >= n || s[j] != '}') return 0;
    *ns = start, *nl = j - start;
    return j + 1 - i;
  }
  *ns = start, *nl = j - start;
  return j - i;
}

/* Is the name s[0..n) among the SHELL-FORMAT's variables (all when NULL)? */
static bool wanted(const char *fmt, const char *s, size_t n) {
  if (!fmt) return true;
  size_t fl = strlen(fmt);
  for (size_t i = 0; i < fl; i++) {
    size_t ns, nl, len;
    if (fmt[i] == '$' && (len = var_ref(fmt, fl, i, &ns, &nl)) > 0) {
      if (nl == n && !memcmp(fmt + ns, s, n)) return true;
      i += len - 1;
    }
  }
  return false;
}

int cmd_envsubst_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  bool list = false;
  static const char spec[] = "v(variables)h(help)V(version)";
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
    case 'v': list = true; break;
    case 'h':
      cmd_outs(ctx, "Usage: envsubst [OPTION] [SHELL-FORMAT]\n\n"
                    "Substitutes the values of environment variables.\n\n"
                    "  -v, --variables             output the variables occurring in SHELL-FORMAT\n");
      return 0;
    case 'V': return cmd_print_version(ctx);
    default: return 1; /* cmd_getopt printed the message */
    }
  }
  if (argc - g.ind > 1) {
    cmd_errorf(ctx, "too many arguments"); /* gettext gives no hint here */
    return 1;
  }
  const char *fmt = g.ind < argc ? argv[g.ind] : NULL;
  if (list) {
    if (!fmt) {
      cmd_errorf(ctx, "missing arguments");
      return cmd_usage_hint(ctx, 1);
    }
    size_t fl = strlen(fmt);
    for (size_t i = 0; i < fl; i++) {
      size_t ns, nl, len;
      if (fmt[i] == '$' && (len = var_ref(fmt, fl, i, &ns, &nl)) > 0) {
        cmd_out(ctx, fmt + ns, nl);
        cmd_outc(ctx, '\n');
        i += len - 1;
      }
    }
    return 0;
  }
  cmd_in *in = cmd_in_fd(ctx, 0);
  if (!in) return 1;
  char *line;
  ssize_t n;
  int status = 0;
  while ((n = cmd_in_getdelim(in, &line, '\n')) > 0) {
    if (cmd_poll(ctx)) break;
    size_t done = 0;
    for (size_t i = 0; i < (size_t)n; i++) {
      size_t ns, nl, len;
      if (line[i] != '$' || (len = var_ref(line, (size_t)n, i, &ns, &nl)) == 0) continue;
      if (!wanted(fmt, line + ns, nl)) {
        i += len - 1;
        continue;
      }
      cmd_out(ctx, line + done, i - done);
      char name[256];
      if (nl < sizeof name) {
        memcpy(name, line + ns, nl);
        name[nl] = 0;
        const char *v = cmd_getenv(ctx, name);
        if (v) cmd_outs(ctx, v);
      }
      done = i + len;
      i = done - 1;
    }
    if (cmd_out(ctx, line + done, (size_t)n - done) < 0) break;
  }
  if (n < 0) status = 1;
  cmd_in_close(in);
  return status;
}
