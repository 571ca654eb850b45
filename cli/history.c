/*
 * history.c - `sbx DB history [-n N] [-t]`: the tool_calls table, newest
 * first; `history start NAME [PARAMS]` and `history finish ID [RESULT |
 * --error TEXT]` record a call from scripts (start prints the new id);
 * `history prune [--rows N] [--age SECONDS]` applies a retention once (the
 * library bounds every handle to SBX_HISTORY_DEFAULT_ROWS calls anyway).
 *
 * The default output is JSON lines (one object per call) because agents and
 * scripts consume it (`| jq`); -t prints an aligned table for people. In the
 * JSON, parameters and result are embedded as JSON values when they parse
 * (they are JSON text in the AgentFS format) and as strings otherwise, and
 * times that are whole numbers print as integers (AgentFS may store REAL).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A time or duration as JSON: null when absent (-1), an integer when whole. */
static json_t *number_or_null(double v) {
  if (v < 0) return json_null();
  if (v == floor(v) && fabs(v) < 9e15) return json_integer((json_int_t)v);
  return json_real(v);
}

/* JSON text embedded as a value; unparsable text as a string; NULL as null. */
static json_t *embedded_json(const char *text) {
  if (!text) return json_null();
  json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
  return v ? v : json_string(text);
}

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static int print_json_line(const sbx_history_entry *e) {
  json_t *o = json_object();
  if (!o) return -1;
  json_object_set_new(o, "id", json_integer(e->id));
  json_object_set_new(o, "name", string_or_null(e->name));
  json_object_set_new(o, "status", string_or_null(e->status));
  json_object_set_new(o, "started_at", number_or_null(e->started_at));
  json_object_set_new(o, "completed_at", number_or_null(e->completed_at));
  json_object_set_new(o, "duration_ms", number_or_null(e->duration_ms));
  json_object_set_new(o, "parameters", embedded_json(e->parameters));
  json_object_set_new(o, "result", embedded_json(e->result));
  json_object_set_new(o, "error", string_or_null(e->error));
  char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
  json_decref(o);
  if (!s) return -1;
  printf("%s\n", s);
  free(s);
  return 0;
}

static void print_table(const sbx_history_entry *es, size_t n) {
  printf("%6s  %-7s  %-20s  %10s  %s\n", "ID", "STATUS", "NAME", "MS", "ERROR");
  for (size_t i = 0; i < n; i++) {
    const sbx_history_entry *e = &es[i];
    char ms[32];
    if (e->duration_ms < 0)
      snprintf(ms, sizeof ms, "-");
    else
      snprintf(ms, sizeof ms, "%.1f", e->duration_ms);
    printf("%6lld  %-7s  %-20s  %10s  %s\n", (long long)e->id, e->status, e->name, ms,
           e->error ? e->error : "");
  }
}

static int history_start(cli_ctx *c, int argc, char **argv) {
  if (argc < 3 || argc > 4) return cli_usage("history");
  int64_t id;
  if (sbx_history_start(c->h, argv[2], argc == 4 ? argv[3] : NULL, &id) != SBX_OK)
    return cli_fail(c, "history start", argv[2]);
  printf("%lld\n", (long long)id);
  return 0;
}

static int history_finish(cli_ctx *c, int argc, char **argv) {
  if (argc < 3 || argc > 5) return cli_usage("history");
  char *end;
  errno = 0;
  long long id = strtoll(argv[2], &end, 10);
  if (errno || *end || end == argv[2]) return cli_error("history finish: invalid id '%s'", argv[2]);
  const char *result = NULL, *error = NULL;
  if (argc == 5 && strcmp(argv[3], "--error") == 0)
    error = argv[4];
  else if (argc == 4)
    result = argv[3];
  else if (argc != 3)
    return cli_usage("history");
  if (sbx_history_finish(c->h, id, result, error) != SBX_OK)
    return cli_fail(c, "history finish", argv[2]);
  return 0;
}

/* A non-negative count for --rows / --age, or -1. */
static long long bound_arg(const char *s) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  return errno || *end || end == s || v < 0 ? -1 : v;
}

/* history prune [--rows N] [--age SECONDS]: deletes now all but the newest
 * N calls and those started more than SECONDS ago (sbx_history_retention;
 * 0 or absent: no bound of that kind). */
static int history_prune(cli_ctx *c, int argc, char **argv) {
  long long rows = 0, age = 0;
  for (int i = 2; i < argc; i += 2) {
    int is_rows = strcmp(argv[i], "--rows") == 0;
    if ((!is_rows && strcmp(argv[i], "--age") != 0) || i + 1 >= argc)
      return cli_usage("history");
    long long v = bound_arg(argv[i + 1]);
    if (v < 0)
      return cli_error("history prune: invalid %s '%s' (%s, 0: no bound)", argv[i],
                       argv[i + 1], is_rows ? "calls" : "seconds");
    *(is_rows ? &rows : &age) = v;
  }
  if (sbx_history_retention(c->h, rows, age) != SBX_OK)
    return cli_fail(c, "history prune", NULL);
  return 0;
}

int cli_history_main(cli_ctx *c, int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "prune") == 0) return history_prune(c, argc, argv);
  if (argc >= 2 && strcmp(argv[1], "start") == 0) return history_start(c, argc, argv);
  if (argc >= 2 && strcmp(argv[1], "finish") == 0) return history_finish(c, argc, argv);
  long limit = 0;
  int table = 0, opt;
  cli_getopt_reset();
  while ((opt = getopt(argc, argv, "n:t")) != -1) {
    if (opt == 't') {
      table = 1;
    } else if (opt == 'n') {
      char *end;
      errno = 0;
      limit = strtol(optarg, &end, 10);
      if (errno || *end || end == optarg || limit <= 0 || limit > 1000000000)
        return cli_error("history: invalid count '%s' (a positive number)", optarg);
    } else {
      return cli_usage("history");
    }
  }
  if (optind != argc) return cli_usage("history");
  sbx_history_entry *es;
  size_t n;
  if (sbx_history_list(c->h, (int)limit, &es, &n) != SBX_OK) return cli_fail(c, "history", NULL);
  int status = 0;
  if (table) {
    print_table(es, n);
  } else {
    for (size_t i = 0; i < n && status == 0; i++)
      if (print_json_line(&es[i]) != 0) status = cli_error("history: out of memory");
  }
  sbx_free(es);
  return status;
}
