/*
 * jq - command-line JSON processor (jq 1.8, sbx's own engine in src/cmd/jq/).
 *
 *   Usage: jq [options] <jq filter> [file...]
 *          jq [options] --args <jq filter> [strings...]
 *          jq [options] --jsonargs <jq filter> [JSON_TEXTS...]
 *   -c compact  -n null input  -e exit status from the last output
 *   -s slurp  -r raw output  -j join output  -a ASCII output  -R raw input
 *   -C/-M colour on/off  -S sort keys  --tab  --indent n  --seq  --stream
 *   --raw-output0  -f file  -L dir (accepted, unused: no modules)  --arg a v
 *   --argjson a v  --slurpfile a f  --rawfile a f  --args  --jsonargs
 *   --unbuffered  -h/--help  -V/--version
 *
 * Design: the options are parsed like jq's main() (its own scanner, not
 * getopt: short options stack in any order but each letter counts once, so
 * "-nn" is an unknown option; the first --arg of a name wins; "-1" is an
 * operand; "--" may come before the program; without a program the filter
 * is "." because a sandbox has no terminal). Files named by -f,
 * --slurpfile, --rawfile and --argfile are read here through the store;
 * everything about running the program is jq/jq_cli.c's.
 *
 * Differences from jq 1.8, all deliberate: modules (import/include, -L) are
 * refused; --debug-dump-disasm and --debug-trace are refused; --version
 * prints the sbx version line of every command; numbers are doubles
 * (have_decnum is false), like jq 1.8 built without decNumber.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/jq/jq_cli.h"

CMD_DEFINE("jq", cmd_jq_main);

/* jq's usage(): this head, then the option list (--help, stdout) or a
 * pointer to --help (usage errors, stderr). */
static const char jq_help_head[] =
    "jq - commandline JSON processor [version 1.8.1]\n"
    "\n"
    "Usage:\tjq [options] <jq filter> [file...]\n"
    "\tjq [options] --args <jq filter> [strings...]\n"
    "\tjq [options] --jsonargs <jq filter> [JSON_TEXTS...]\n"
    "\n"
    "jq is a tool for processing JSON inputs, applying the given filter to\n"
    "its JSON text inputs and producing the filter's results as JSON on\n"
    "standard output.\n"
    "\n"
    "The simplest filter is ., which copies jq's input to its output\n"
    "unmodified (except for formatting, but note that IEEE754 is used\n"
    "for number representation internally, with all that that implies).\n"
    "\n"
    "For more advanced filters see the jq(1) manpage (\"man jq\")\n"
    "and/or https://jqlang.org\n"
    "\n"
    "Example:\n"
    "\n"
    "\t$ echo '{\"foo\": 0}' | jq .\n"
    "\t{\n"
    "\t\t\"foo\": 0\n"
    "\t}\n"
    "\n";


static const char jq_help_options[] =
    "Some of the options include:\n"
    "  -c               compact instead of pretty-printed output;\n"
    "  -n               use `null` as the single input value;\n"
    "  -e               set the exit status code based on the output;\n"
    "  -s               read (slurp) all inputs into an array; apply filter to it;\n"
    "  -r               output raw strings, not JSON texts;\n"
    "  -R               read raw strings, not JSON texts;\n"
    "  -C               colorize JSON;\n"
    "  -M               monochrome (don't colorize JSON);\n"
    "  -S               sort keys of objects on output;\n"
    "  --tab            use tabs for indentation;\n"
    "  --arg a v        set variable $a to value <v>;\n"
    "  --argjson a v    set variable $a to JSON value <v>;\n"
    "  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;\n"
    "  --rawfile a f    set variable $a to a string consisting of the contents of <f>;\n"
    "  --args           remaining arguments are string arguments, not files;\n"
    "  --jsonargs       remaining arguments are JSON arguments, not files;\n"
    "  --               terminates argument processing;\n"
    "\n"
    "Named arguments are also available as $ARGS.named[], while\n"
    "positional arguments are available as $ARGS.positional[].\n"
    "\n"
    "See the manpage for more options.\n";

static const char jq_hint[] =
    "Use jq --help for help with command-line options,\n"
    "or see the jq manpage, or online docs  at https://jqlang.org\n";

/* jq's die(): the hint, status 2. */
static int jq_die(cmd_ctx *ctx) {
  cmd_err_raw(ctx, "%s", jq_hint);
  return 2;
}

/* jq's isoption(): a long option by exact name, or a short letter
 * anywhere in a cluster (counted in *short_opts). */
static bool jq_isoption(const char *text, char shortopt, const char *longopt, size_t *short_opts) {
  if (text[0] != '-' || text[1] == '-') *short_opts = 0;
  if (text[0] != '-') return false;
  if (text[1] == '-') return strcmp(text + 2, longopt) == 0;
  if (!shortopt) return false;
  if (strchr(text, shortopt)) {
    (*short_opts)++;
    return true;
  }
  return false;
}

static bool jq_isoptish(const char *text) {
  return text[0] == '-' &&
         (text[1] == '-' || (text[1] >= 'a' && text[1] <= 'z') || (text[1] >= 'A' && text[1] <= 'Z'));
}

/* Whether a named argument of this name is already set (the first wins). */
static bool jq_has_name(const cmd_jq_arg *args, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (args[i].name && strcmp(args[i].name, name) == 0) return true;
  return false;
}

int cmd_jq_main(cmd_ctx *ctx, int argc, char **argv) {
  cmd_jq_opts o = {0};
  o.name = "jq";
  o.dumpflags = JQV_PRINT_INDENT_FLAGS(2);
  cmd_jq_arg *args = cmd_alloc(ctx, sizeof *args * (size_t)(argc + 1));
  char **files = cmd_alloc(ctx, sizeof *files * (size_t)(argc + 1));
  char **to_free = cmd_alloc(ctx, sizeof *to_free * (size_t)(argc + 2));
  if (!args || !files || !to_free) {
    cmd_errorf(ctx, "error: cannot allocate memory");
    return 2;
  }
  int nargs = 0, nfiles = 0, nfree = 0, status = 0;
  const char *program = NULL;
  bool from_file = false, args_done = false, strings = false, json = false;
  bool color = false, no_color = false;
  /* The options that only set one flag of the call, each tested in turn
   * like the rest (a short letter may stand in a cluster with others);
   * those that touch the print flags stay written out below, where their
   * order against --tab and --indent matters. */
  const struct {
    char letter;      /* the short option, in any cluster */
    const char *name; /* the long option, after "--" */
    bool *flag;       /* set to true when either is given */
  } flag_options[] = {
      {'s', "slurp", &o.slurp},
      {'r', "raw-output", &o.raw_output},
      {'C', "color-output", &color},
      {'M', "monochrome-output", &no_color},
      {'a', "ascii-output", &o.ascii_output},
      {'R', "raw-input", &o.raw_input},
      {'n', "null-input", &o.null_input},
      {'f', "from-file", &from_file},
      {'e', "exit-status", &o.exit_status},
  };

  for (int i = 1; i < argc; i++) {
    const char *text = argv[i];
    size_t short_opts = 0;
    if (args_done || !jq_isoptish(text)) {
      if (!program) {
        program = text;
      } else if (strings || json) {
        args[nargs++] = (cmd_jq_arg){json ? CMD_JQ_ARG_JSON : CMD_JQ_ARG_STRING, NULL, text,
                                     strlen(text), NULL};
      } else {
        files[nfiles++] = argv[i];
      }
      continue;
    }
    if (strcmp(text, "--") == 0) {
      args_done = true; /* jq 1.8: also allowed before the program */
      continue;
    }
    if (text[1] == 'L') {
      /* Library paths: accepted for compatibility; modules are refused. */
      if (text[2] == '\0') {
        if (i >= argc - 1) {
          cmd_err_raw(ctx, "-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n");
          return jq_die(ctx);
        }
        i++;
      }
      continue;
    }
    bool set_flag = false;
    for (size_t f = 0; f < sizeof flag_options / sizeof *flag_options; f++) {
      if (jq_isoption(text, flag_options[f].letter, flag_options[f].name, &short_opts)) {
        *flag_options[f].flag = true;
        set_flag = true;
      }
    }
    if (set_flag && !short_opts) continue; /* a long option is one option */
    if (jq_isoption(text, 'c', "compact-output", &short_opts)) {
      o.dumpflags &= ~(JQV_PRINT_TAB | JQV_PRINT_INDENT_FLAGS(7));
      if (!short_opts) continue;
    }
    if (jq_isoption(text, 0, "unbuffered", &short_opts)) continue;
    if (jq_isoption(text, 'S', "sort-keys", &short_opts)) {
      o.dumpflags |= JQV_PRINT_SORTED;
      if (!short_opts) continue;
    }
    if (jq_isoption(text, 'j', "join-output", &short_opts)) {
      o.raw_output = o.join_output = true;
      if (!short_opts) continue;
    }
    if (jq_isoption(text, 0, "raw-output0", &short_opts)) {
      o.raw_output = o.raw_output0 = true;
      continue;
    }
    if (jq_isoption(text, 0, "tab", &short_opts)) {
      o.dumpflags &= ~JQV_PRINT_INDENT_FLAGS(7);
      o.dumpflags |= JQV_PRINT_TAB | JQV_PRINT_PRETTY;
      continue;
    }
    if (jq_isoption(text, 0, "indent", &short_opts)) {
      if (i >= argc - 1) {
        cmd_err_raw(ctx, "jq: --indent takes one parameter\n");
        return jq_die(ctx);
      }
      o.dumpflags &= ~(JQV_PRINT_TAB | JQV_PRINT_INDENT_FLAGS(7));
      int indent = atoi(argv[i + 1]);
      if (indent < -1 || indent > 7) {
        cmd_err_raw(ctx, "jq: --indent takes a number between -1 and 7\n");
        return jq_die(ctx);
      }
      o.dumpflags |= JQV_PRINT_INDENT_FLAGS(indent);
      i++;
      continue;
    }
    if (jq_isoption(text, 0, "seq", &short_opts)) {
      o.seq = true;
      continue;
    }
    if (jq_isoption(text, 0, "stream", &short_opts)) {
      o.stream = true;
      continue;
    }
    if (jq_isoption(text, 0, "stream-errors", &short_opts)) {
      o.stream = o.stream_errors = true;
      continue;
    }
    if (jq_isoption(text, 0, "args", &short_opts)) {
      strings = true;
      json = false;
      continue;
    }
    if (jq_isoption(text, 0, "jsonargs", &short_opts)) {
      strings = false;
      json = true;
      continue;
    }
    if (jq_isoption(text, 0, "arg", &short_opts) || jq_isoption(text, 0, "argjson", &short_opts)) {
      bool is_json = strcmp(text, "--argjson") == 0;
      if (i >= argc - 2) {
        cmd_err_raw(ctx, is_json ? "jq: --argjson takes two parameters (e.g. --argjson varname text)\n"
                                 : "jq: --arg takes two parameters (e.g. --arg varname value)\n");
        return jq_die(ctx);
      }
      if (!jq_has_name(args, nargs, argv[i + 1]))
        args[nargs++] = (cmd_jq_arg){is_json ? CMD_JQ_ARG_JSON : CMD_JQ_ARG_STRING, argv[i + 1],
                                     argv[i + 2], strlen(argv[i + 2]), NULL};
      i += 2;
      continue;
    }
    if (jq_isoption(text, 0, "argfile", &short_opts) || jq_isoption(text, 0, "slurpfile", &short_opts) ||
        jq_isoption(text, 0, "rawfile", &short_opts)) {
      const char *which = text + 2;
      if (i >= argc - 2) {
        cmd_err_raw(ctx, "jq: --%s takes two parameters (e.g. --%s varname filename)\n", which, which);
        return jq_die(ctx);
      }
      if (!jq_has_name(args, nargs, argv[i + 1])) {
        char *data = NULL;
        if (cmd_jq_file_arg(ctx, text, argv[i + 1], argv[i + 2], &data, &args[nargs]) < 0) {
          status = 2;
          goto out;
        }
        to_free[nfree++] = data;
        nargs++;
      }
      i += 2;
      continue;
    }
    if (jq_isoption(text, 0, "debug-dump-disasm", &short_opts) ||
        jq_isoption(text, 0, "debug-trace", &short_opts) ||
        jq_isoption(text, 0, "debug-trace=all", &short_opts) ||
        jq_isoption(text, 0, "run-tests", &short_opts)) {
      cmd_err_raw(ctx, "jq: %s is not available in the sandbox\n", text);
      return jq_die(ctx);
    }
    if (jq_isoption(text, 'h', "help", &short_opts)) {
      cmd_outs(ctx, jq_help_head);
      cmd_outs(ctx, jq_help_options);
      status = 0;
      goto out;
    }
    if (jq_isoption(text, 'V', "version", &short_opts)) {
      status = cmd_print_version(ctx);
      goto out;
    }
    if (strlen(text) != short_opts + 1) {
      cmd_err_raw(ctx, "jq: Unknown option %s\n", text);
      return jq_die(ctx);
    }
  }

  if (color) {
    o.dumpflags |= JQV_PRINT_COLOR;
    o.colors = cmd_getenv(ctx, "JQ_COLORS");
  }
  if (no_color) o.dumpflags &= ~JQV_PRINT_COLOR;
  if (o.ascii_output) o.dumpflags |= JQV_PRINT_ASCII;
  if (!program && args_done) {
    cmd_err_raw(ctx, "%s", jq_help_head);
    cmd_err_raw(ctx, "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.org\n");
    return 2;
  }
  if (!program) program = "."; /* jq when stdin or stdout is not a terminal */

  char *prog_text = (char *)program;
  size_t prog_len = strlen(program);
  if (from_file) {
    size_t len = 0;
    char *data = NULL;
    if (cmd_jq_program_file(ctx, program, &data, &len) < 0) {
      status = 2;
      goto out;
    }
    to_free[nfree++] = data;
    prog_text = data;
    prog_len = strnlen(data, len); /* jq reads the program as a C string */
  }
  o.program = prog_text;
  o.program_len = prog_len;
  o.args = args;
  o.nargs = nargs;
  o.files = files;
  o.nfiles = nfiles;
  status = cmd_jq_run(ctx, &o);
out:
  for (int i = 0; i < nfree; i++) free(to_free[i]);
  return status;
}
