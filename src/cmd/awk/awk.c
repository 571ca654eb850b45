/*
 * awk - pattern scanning and processing language (gawk 5 compatible).
 *
 * Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
 *        awk [POSIX or GNU style options] [--] 'program' file ...
 *   -f progfile   --file=progfile        read the program from a file (repeatable)
 *   -F fs         --field-separator=fs   set FS (escapes like \t processed)
 *   -v var=val    --assign=var=val       assign before BEGIN
 *   -e text       --source=text          program text (repeatable, mixes with -f)
 *   -E file       --exec=file            like -f, and ends the options
 *   -h --help, -V --version; -b -c -P -r -n -S -s -O -t -L... are accepted.
 *
 * Design: the driver reads the program (program text or -f files through the
 * store), sets up the interpreter (awk_interp.c), runs BEGIN / main / END and
 * tears everything down, also after a fatal error (longjmp back here). The
 * pieces: awk_parse.c (lexer, parser), awk_interp.c (tree walker),
 * awk_builtin.c (functions, printf), awk_io.c (records, redirections),
 * awk_array.c (gawk-ordered arrays), awk_re.c (regex), awk_value.c (values).
 * Messages are gawk's with "awk" (or "gawk") as the program name.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/awk/awk.h"

CMD_DEFINE("awk", cmd_awk_main);
CMD_DEFINE("gawk", cmd_awk_main);

bool awk_cmdline_assign(awk_interp *in, const char *arg, bool from_v);

static const char usage_text[] =
    "Usage: %s [POSIX or GNU style options] -f progfile [--] file ...\n"
    "Usage: %s [POSIX or GNU style options] [--] 'program' file ...\n"
    "POSIX options:\t\tGNU long options: (standard)\n"
    "\t-f progfile\t\t--file=progfile\n"
    "\t-F fs\t\t\t--field-separator=fs\n"
    "\t-v var=val\t\t--assign=var=val\n"
    "Short options:\t\tGNU long options: (extensions)\n"
    "\t-b\t\t\t--characters-as-bytes\n"
    "\t-c\t\t\t--traditional\n"
    "\t-e 'program-text'\t--source='program-text'\n"
    "\t-E file\t\t\t--exec=file\n"
    "\t-h\t\t\t--help\n"
    "\t-P\t\t\t--posix\n"
    "\t-r\t\t\t--re-interval\n"
    "\t-S\t\t\t--sandbox\n"
    "\t-V\t\t\t--version\n";

static void usage(cmd_ctx *ctx, const char *name, bool to_stdout) {
  if (to_stdout) cmd_outf(ctx, usage_text, name, name);
  else cmd_err_raw(ctx, usage_text, name, name);
}

/* ---- interpreter setup and teardown ---------------------------------------------------- */

/* The lowest address this thread's stack may reach, plus a safety margin. */
static char *stack_limit(void) {
  pthread_attr_t attr;
  void *addr = NULL;
  size_t size = 0;
  char *here = __builtin_frame_address(0);
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
  }
  if (!addr || !size || (char *)addr > here) return here - (256u << 10); /* unknown */
  /* keep a quarter of what is left (32 KiB..1 MiB) for the error path */
  size_t avail = (size_t)(here - (char *)addr);
  size_t margin = avail / 4;
  if (margin < (32u << 10)) margin = 32u << 10;
  if (margin > (1u << 20)) margin = 1u << 20;
  if (margin > avail) return here;
  return (char *)addr + margin;
}

void awk_stack_overflow(awk_interp *in) {
  in->stack_limit = NULL; /* the message itself needs stack: stop checking */
  awk_fatal(in, "program nesting too deep for the stack (recursion)");
}

void awk_interp_init(awk_interp *in, cmd_ctx *ctx) {
  memset(in, 0, sizeof *in);
  in->stack_limit = stack_limit();
  in->ctx = ctx;
  in->live.next = in->live.prev = &in->live;
  in->srcname = "cmd. line";
  in->main_rd.fd = -1;
}

static void set_str_global(awk_interp *in, int idx, const char *s) {
  awk_cell *c = &in->globals[idx];
  c->kind = AWK_CELL_VAL;
  c->v = awk_strv(awk_str_cstr(in, s));
}

static void setup_globals(awk_interp *in, char **operands, int noperands) {
  int n = in->prog.nglobals;
  in->globals = calloc((size_t)n, sizeof(awk_cell));
  if (!in->globals) awk_fatal(in, "out of memory");
  in->nglobals_alloc = n;
  set_str_global(in, AWK_V_FS, " ");
  set_str_global(in, AWK_V_OFS, " ");
  set_str_global(in, AWK_V_ORS, "\n");
  set_str_global(in, AWK_V_RS, "\n");
  set_str_global(in, AWK_V_SUBSEP, "\034");
  set_str_global(in, AWK_V_CONVFMT, "%.6g");
  set_str_global(in, AWK_V_OFMT, "%.6g");
  set_str_global(in, AWK_V_RT, "");
  set_str_global(in, AWK_V_ERRNO, "");
  set_str_global(in, AWK_V_FIELDWIDTHS, "");
  set_str_global(in, AWK_V_FPAT, "[^[:space:]]+");
  in->globals[AWK_V_RSTART].kind = AWK_CELL_VAL;
  in->globals[AWK_V_RSTART].v = awk_num(0);
  in->globals[AWK_V_RLENGTH].kind = AWK_CELL_VAL;
  in->globals[AWK_V_RLENGTH].v = awk_num(-1);
  in->globals[AWK_V_IGNORECASE].kind = AWK_CELL_VAL;
  in->globals[AWK_V_IGNORECASE].v = awk_num(0);
  in->ofs = awk_str_cstr(in, " ");
  in->ors = awk_str_cstr(in, "\n");
  in->subsep = awk_str_cstr(in, "\034");
  in->convfmt = awk_str_cstr(in, "%.6g");
  in->ofmt = awk_str_cstr(in, "%.6g");
  awk_set_FS(in);
  awk_set_RS(in);
  /* ENVIRON */
  awk_arr *env = awk_arr_new(in);
  in->globals[AWK_V_ENVIRON].kind = AWK_CELL_ARR;
  in->globals[AWK_V_ENVIRON].arr = env;
  for (char *const *e = in->ctx->env; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    awk_arr_set(in, env, *e, (size_t)(eq - *e), awk_strnumv(awk_str_cstr(in, eq + 1)));
  }
  /* ARGV, ARGC */
  awk_arr *argv = awk_arr_new(in);
  in->globals[AWK_V_ARGV].kind = AWK_CELL_ARR;
  in->globals[AWK_V_ARGV].arr = argv;
  awk_arr_set(in, argv, "0", 1, awk_strv(awk_str_cstr(in, in->progname)));
  for (int i = 0; i < noperands; i++) {
    char key[32];
    int kl = snprintf(key, sizeof key, "%d", i + 1);
    awk_arr_set(in, argv, key, (size_t)kl, awk_strnumv(awk_str_cstr(in, operands[i])));
  }
  in->globals[AWK_V_ARGC].kind = AWK_CELL_VAL;
  in->globals[AWK_V_ARGC].v = awk_num(noperands + 1);
  /* PROCINFO: a few informational entries */
  awk_arr *pi = awk_arr_new(in);
  in->globals[AWK_V_PROCINFO].kind = AWK_CELL_ARR;
  in->globals[AWK_V_PROCINFO].arr = pi;
  awk_arr_set(in, pi, "version", 7, awk_strv(awk_str_cstr(in, "5.2.1")));
  awk_arr_set(in, pi, "FS", 2, awk_strv(awk_str_cstr(in, "FS")));
  awk_arr_set(in, pi, "strftime", 8, awk_strv(awk_str_cstr(in, "%a %b %e %H:%M:%S %Z %Y")));
}

void awk_interp_free(awk_interp *in) {
  in->fatal_set = false;
  /* redirections and readers */
  while (in->streams) {
    awk_stream *st = in->streams;
    in->streams = st->next;
    if (st->kind == AOP_RED_IN || st->kind == AOP_RED_CMD) {
      free(st->rd.buf);
      if (st->rd.own_fd && st->rd.fd >= 0) in->ctx->io->close(in->ctx->io_ud, st->rd.fd);
    }
    if (st->handle >= 0 && in->ctx->io->pclose) in->ctx->io->pclose(in->ctx->io_ud, st->handle);
    else if (st->fd > 2 && st->kind != AOP_RED_IN) in->ctx->io->close(in->ctx->io_ud, st->fd);
    free(st->obuf);
    free(st);
  }
  if (in->main_rd.buf || in->main_rd.fd > 2) {
    if (in->main_rd.own_fd && in->main_rd.fd >= 0) in->ctx->io->close(in->ctx->io_ud, in->main_rd.fd);
    free(in->main_rd.buf);
  }
  for (int i = 0; i < AWK_RECACHE; i++)
    if (in->recache[i].re) awk_re_free(in->recache[i].re);
  /* arrays: tables freed here, elements with their chunks, strings below */
  in->teardown = true;
  while (in->arrays) awk_arr_free(in, (awk_arr *)in->arrays);
  awk_elems_free_all(in);
  /* every string still alive */
  awk_str *s = in->live.next;
  while (s != &in->live) {
    awk_str *n = s->next;
    free(s);
    s = n;
  }
  in->live.next = in->live.prev = &in->live;
  free(in->globals);
  free(in->fields);
  free(in->frames);
  awk_program_free(in, &in->prog);
}

/* ---- reading the program ------------------------------------------------------------------ */

typedef struct srclist {
  awk_source *v;  /* sources */
  char **owned;   /* texts we allocated (same index), or NULL */
  int n, cap;     /* count, allocated */
} srclist;

static int add_source(cmd_ctx *ctx, srclist *l, const char *text, size_t len, const char *name,
                      char *owned) {
  if (l->n == l->cap) {
    int nc = l->cap ? l->cap * 2 : 4;
    awk_source *nv = realloc(l->v, (size_t)nc * sizeof *nv);
    if (!nv) return -ENOMEM;
    l->v = nv;
    char **no = realloc(l->owned, (size_t)nc * sizeof *no);
    if (!no) return -ENOMEM;
    l->owned = no;
    l->cap = nc;
  }
  (void)ctx;
  l->v[l->n].text = text;
  l->v[l->n].len = len;
  l->v[l->n].name = name;
  l->owned[l->n] = owned;
  l->n++;
  return 0;
}

static int read_source_file(cmd_ctx *ctx, const char *progname, srclist *l, const char *path) {
  cmd_in *f;
  int rc = cmd_in_open(ctx, path, &f);
  if (rc < 0) {
    cmd_record_error(ctx, rc, path);
    cmd_err_raw(ctx, "%s: fatal: cannot open source file `%s' for reading: %s\n", progname, path,
                cmd_strerror(rc));
    return 2;
  }
  char *data = NULL;
  size_t len = 0;
  rc = cmd_in_slurp(f, &data, &len);
  cmd_in_close(f);
  if (rc < 0) {
    free(data);
    cmd_err_raw(ctx, "%s: fatal: cannot read source file `%s': %s\n", progname, path,
                cmd_strerror(rc));
    return 2;
  }
  if (add_source(ctx, l, data ? data : "", len, path, data) < 0) {
    free(data);
    return 2;
  }
  return 0;
}

static void free_sources(srclist *l) {
  for (int i = 0; i < l->n; i++) free(l->owned[i]);
  free(l->v);
  free(l->owned);
}

/* Parses and runs; separate from option parsing so nothing set before the
 * setjmp is modified after it. */
static int run_program(cmd_ctx *ctx, const char *progname, srclist *srcs, const char **assigns,
                       int nassigns, const char *fs_opt, char **operands, int noperands) {
  awk_interp *in = malloc(sizeof *in);
  if (!in) return 2;
  awk_interp_init(in, ctx);
  in->progname = progname;
  in->srcname = srcs->n == 1 ? srcs->v[0].name : "cmd. line";
  in->argv = operands;
  in->argc = noperands;
  in->fatal_set = true;
  in->status = 0;
  if (setjmp(in->fatal_jmp) == 0) {
    int prc = awk_parse(in, srcs->v, srcs->n, &in->prog);
    if (prc) {
      in->status = prc;
    } else {
      setup_globals(in, operands, noperands);
      if (fs_opt) {
        {
          /* escapes as in a string constant */
          awk_str *tmp = awk_str_cstr(in, "FS=");
          awk_str_append(in, &tmp, fs_opt, strlen(fs_opt));
          awk_cmdline_assign(in, tmp->p, true);
          awk_str_unref(in, tmp);
        }
      }
      for (int i = 0; i < nassigns; i++) {
        const char *a = assigns[i];
        if (!awk_cmdline_assign(in, a, true)) {
          const char *eq = strchr(a, '=');
          if (!eq) awk_fatal(in, "`%s' argument to `-v' not in `var=value' form", a);
          awk_fatal(in, "`%.*s' is not a legal variable name", (int)(eq - a), a);
        }
      }
      in->srcline = 0;
      in->status = awk_run(in);
      in->srcline = 0;
      awk_close_all(in);
    }
  } else {
    if (!in->status) in->status = 2;
    /* close what is open so pipes finish (errors ignored) */
    if (setjmp(in->fatal_jmp) == 0) awk_close_all(in);
  }
  int status = in->status;
  awk_interp_free(in);
  free(in);
  return status;
}

/* ---- main -------------------------------------------------------------------------------- */

int cmd_awk_main(cmd_ctx *ctx, int argc, char **argv) {
  /* Quiet (':'): gawk words a missing argument itself and prints its usage. */
  static const char spec[] =
      "+:f:(file)F:(field-separator)v:(assign)e:(source)E:(exec)h(help)V(version)"
      "b(characters-as-bytes)c(traditional)P(posix)r(re-interval)S(sandbox)"
      "n(non-decimal-data)O(optimize)s(no-optimize)L::(lint)t(lint-old)i:(include)"
      "C(copyright)d::(dump-variables)N(use-lc-numeric)";
  const char *progname = strrchr(ctx->name ? ctx->name : argv[0], '/');
  progname = progname ? progname + 1 : (ctx->name ? ctx->name : argv[0]);
  srclist srcs = {0};
  const char **assigns = NULL;
  int nassigns = 0;
  const char *fs_opt = NULL;
  int status = 0;
  bool have_f = false;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int opt;
  assigns = calloc((size_t)argc + 1, sizeof *assigns);
  if (!assigns) return 2;
  while ((opt = cmd_getopt(ctx, &st, argc, argv, spec, NULL)) != -1) {
    switch (opt) {
    case 'f':
    case 'i':
    case 'E':
      have_f = true;
      status = read_source_file(ctx, progname, &srcs, st.arg);
      if (status) goto out;
      if (opt == 'E') goto options_done;
      break;
    case 'e':
      have_f = true;
      if (add_source(ctx, &srcs, st.arg, strlen(st.arg), "cmd. line", NULL) < 0) {
        status = 2;
        goto out;
      }
      break;
    case 'F':
      fs_opt = st.arg;
      break;
    case 'v':
      assigns[nassigns++] = st.arg;
      break;
    case 'h':
      usage(ctx, progname, true);
      goto out;
    case 'V':
      cmd_outf(ctx, "%s (sbx) 1.0\n", progname);
      goto out;
    case ':':
      cmd_err_raw(ctx, "%s: option requires an argument -- %c\n", progname, st.opt);
      usage(ctx, progname, false);
      status = 2;
      goto out;
    case '?':
      usage(ctx, progname, false);
      status = 1;
      goto out;
    default:
      break;
    }
  }
options_done:;
  int ind = st.ind;
  if (!have_f) {
    if (ind >= argc) {
      usage(ctx, progname, false);
      status = 1;
      goto out;
    }
    const char *text = argv[ind++];
    if (add_source(ctx, &srcs, text, strlen(text), "cmd. line", NULL) < 0) {
      status = 2;
      goto out;
    }
  }

  status = run_program(ctx, progname, &srcs, assigns, nassigns, fs_opt, argv + ind, argc - ind);
out:
  free_sources(&srcs);
  free(assigns);
  return status;
}
