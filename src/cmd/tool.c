/*
 * tool - call a host tool (declared with sbx_tools_register) from the shell,
 * or search the declared tools.
 *
 *   tool NAME [JSON]             call NAME with the JSON payload ({} if absent;
 *                                "-" reads it from stdin); print its JSON result
 *   tool -s QUERY [-n N] [--full]   rank the tools for QUERY (BM25), as JSON
 *
 * The same bridge as `host_tools` in Python: the payload and result are checked
 * against the tool's schemas, its timeout applies and the call is recorded in
 * the history. A failure prints "tool: [kind] message" (kind permission_error,
 * validation_error, timeout or internal_error) and exits 1; usage errors 2.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "py/py_int.h"

CMD_DEFINE("tool", cmd_tool_main);

int cmd_tool_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_getopt_state g = CMD_GETOPT_INIT;
  const char *query = NULL;
  int full = 0, limit = 10, c;
  while ((c = cmd_getopt(ctx, &g, argc, argv, "+s:(search)f(full)n:(limit)h(help)", NULL)) != -1) {
    switch (c) {
      case 's': query = g.arg; break;
      case 'f': full = 1; break;
      case 'n': {
        char *end;
        long v = strtol(g.arg, &end, 10);
        if (*end || v < 1 || v > 100) {
          cmd_errorf(ctx, "invalid limit '%s' (1..100)", g.arg);
          return 2;
        }
        limit = (int)v;
        break;
      }
      case 'h':
        cmd_outs(ctx, "usage: tool NAME [JSON|-]\n       tool -s QUERY [-n N] [--full]\n");
        return 0;
      default: return cmd_usage_hint(ctx, 2);
    }
  }
  sbx *h = ctx->sandbox;
  if (!h) {
    cmd_errorf(ctx, "host tools need the sandbox, which this runner does not have");
    return 127;
  }
  char *out = NULL;
  if (query) {
    if (g.ind != argc) {
      cmd_errorf(ctx, "extra operand %s", cmd_quote(ctx, argv[g.ind]));
      return cmd_usage_hint(ctx, 2);
    }
    if (sbx_tools_search(h, query, full ? "full" : "brief", limit, &out) != SBX_OK) {
      cmd_errorf(ctx, "%s", sbx_errmsg(h));
      return 1;
    }
  } else {
    if (g.ind >= argc || argc - g.ind > 2) {
      cmd_errorf(ctx, g.ind >= argc ? "missing tool name" : "too many operands");
      return cmd_usage_hint(ctx, 2);
    }
    const char *name = argv[g.ind], *json = g.ind + 1 < argc ? argv[g.ind + 1] : "{}";
    char *in = NULL;
    if (strcmp(json, "-") == 0) {
      cmd_in *rd = cmd_in_fd(ctx, 0);
      size_t len;
      int e = rd ? cmd_in_slurp(rd, &in, &len) : -1;
      if (rd) cmd_in_close(rd);
      if (e != 0) {
        cmd_errorf(ctx, "cannot read the payload from stdin");
        return 1;
      }
      json = in;
    }
    char msg[1100];
    int r = py_tool_call(h, name, json, 1, &out, msg, sizeof msg);
    free(in);
    if (r != 0) {
      cmd_errorf(ctx, "%s", msg);
      return 1;
    }
  }
  cmd_outs(ctx, out);
  cmd_outc(ctx, '\n');
  free(out);
  return 0;
}
