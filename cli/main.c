/*
 * main.c - the `sbx` command-line tool: argument dispatch over one table of
 * subcommands.
 *
 * Shapes of a command line (like sqlite3, the database comes first):
 *
 *     sbx DB                    the interactive shell in that sandbox
 *     sbx DB -c SCRIPT [ARG..]  run a shell script
 *     sbx DB NAME [ARG...]      a subcommand on the sandbox (ls, cat, kv, ...)
 *     sbx NAME [ARG...]         a global subcommand (import, fork, doctor)
 *     sbx --help | sbx help [NAME] | sbx --version
 *     sbx --isolation process DB ...   the same, with the shell in a jailed
 *                               helper process (SBX_OPEN_PROCESS)
 *
 * The first argument is a global subcommand's name if one matches, else the
 * database (write ./import for a database called "import"). main() handles
 * `--help` for every entry before anything is opened, opens the database
 * for CLI_DB entries (creating it unless CLI_NOCREATE), runs the entry and
 * closes the database. An entry whose function is NULL is a part that is not
 * in this build yet: the user gets a clear error, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SBX_VERSION "0.1.0"

/* The help of both `sbx mcp` entries (global and DB). */
#define CLI_MCP_HELP                                                                          \
  "Runs a Model Context Protocol server (revision 2025-06-18) over stdio, or over\n" \
  "Streamable HTTP at http://ADDR:PORT/mcp with --http. Tools: bash (a persistent\n" \
  "shell), python (persistent contexts), str_replace_based_edit_tool, upload,\n" \
  "download, snapshot; the files are resources (sbx:///PATH). See docs/mcp.md.\n" \
  "  --dir DIR          one sandbox per session, DIR/ID.db (resumable by id);\n" \
  "                     without it and without DB: a temporary sandbox per session\n" \
  "  --session ID       stdio: resume session ID of --dir\n" \
  "  --http ADDR:PORT   serve HTTP on that address only (127.0.0.1:8080)\n" \
  "  --token TOKEN      HTTP: require 'Authorization: Bearer TOKEN' (or $SBX_MCP_TOKEN)\n" \
  "  --timeout SEC      time limit of one tool call (default: the preset's)\n" \
  "  --preset NAME      strict, normal (default) or permissive limits\n" \
  "  --limit NAME=N     one limit over the preset's (see 'sbx --help')\n" \
  "  --max-output N     bytes of a tool's output shown to the model (default 30000)"

/*
 * The subcommand table. One line per subcommand; the help lists them in this
 * order. Reserved entries (main == NULL) are filled by the engineers who own
 * those parts, each in their own cli/ file.
 */
static const cli_command cli_commands[] = {
    /* The shell: `sbx DB` and `sbx DB -c SCRIPT` dispatch here as "sh".
     * RESERVED for the shell engineer: cli/sh.c, cli_sh_main. */
    {"sh", cli_sh_main, CLI_DB, "sh [LIMITS] | [LIMITS] -c SCRIPT [ARG...]",
     "run the shell in the sandbox (interactive without arguments)", NULL},
    /* The shell's test mode (cli/sh.c): a fresh in-memory sandbox. */
    {"sh", cli_shtest_main, 0, "sh [-c SCRIPT [NAME [ARG...]]]",
     "run a script (from -c or stdin) in a fresh in-memory sandbox (test mode)",
     "Test mode for the conformance kit and the command tests: the host's current\n"
     "directory is created in the sandbox as the working directory and its regular\n"
     "files (not subdirectories) are copied in; $REPO_ROOT/spec/testdata is copied\n"
     "when the script mentions REPO_ROOT; the host environment is imported. Host\n"
     "files are only read, never written."},
    {"python", cli_python_main, CLI_DB, "python [LIMITS] [-c CODE | FILE | -] [ARG...]",
     "run Python in the sandbox's jail (like python3; FILE is a sandbox path)",
     "The script runs in the sandbox's Python worker (CPython 3.11 in a Linux jail\n"
     "whose / is the sandbox), with this terminal's stdin, stdout and stderr.\n"
     "Without -c or FILE the script is read from stdin. The exit status is the\n"
     "script's. 'sbx doctor' tells whether this host can run the jail.\n"
     "LIMITS: --timeout SEC, --preset NAME, --limit NAME=N (see 'sbx --help')."},

    {"ls", cli_ls_main, CLI_DB | CLI_NOCREATE, "ls [-l] [PATH]",
     "list a directory (names one per line; -l: long form)",
     "PATH defaults to /. A file is listed by its own name. -l prints type and\n"
     "mode, link count, uid, gid, size, mtime (UTC) and name (-> target)."},
    {"cat", cli_cat_main, CLI_DB | CLI_NOCREATE, "cat PATH...",
     "print files to stdout (bytes as stored)", NULL},
    {"write", cli_write_main, CLI_DB, "write [-a] PATH",
     "write stdin to a file (parents created; -a: append)", NULL},
    {"rm", cli_rm_main, CLI_DB | CLI_NOCREATE, "rm [-r] [-f] PATH...",
     "remove files, symlinks or empty directories (-r: trees; -f: ignore missing)",
     NULL},
    {"mkdir", cli_mkdir_main, CLI_DB, "mkdir [-p] PATH...",
     "create directories (-p: parents too, existing ones are fine)", NULL},
    {"stat", cli_stat_main, CLI_DB | CLI_NOCREATE, "stat [-L] PATH",
     "show a path's metadata, one 'field: value' per line (-L: follow a symlink)",
     "Fields: path, type (file, directory, symlink, other), target (symlinks),\n"
     "size, mode (octal), ino, nlink, uid, gid, atime, mtime, ctime (UTC,\n"
     "ISO 8601 with nanoseconds)."},
    {"mv", cli_mv_main, CLI_DB | CLI_NOCREATE, "mv FROM TO",
     "rename a file or directory (replaces TO like rename(2))", NULL},
    {"ln", cli_ln_main, CLI_DB, "ln -s TARGET LINK", "create a symbolic link", NULL},
    {"readlink", cli_readlink_main, CLI_DB | CLI_NOCREATE, "readlink PATH",
     "print a symlink's target", NULL},
    {"kv", cli_kv_main, CLI_DB | CLI_NOOPEN,
     "kv get KEY | kv set KEY JSON | kv del KEY | kv keys [PREFIX]",
     "the key-value store (values are JSON text)",
     "kv set KEY - reads the JSON value from stdin. Invalid JSON is an error and\n"
     "changes nothing. keys lists keys (sorted) starting with the literal PREFIX.\n"
     "kv set creates the database if it is missing; the others do not."},
    {"history", cli_history_main, CLI_DB | CLI_NOCREATE,
     "history [-n N] [-t] | history start NAME [JSON] | history finish ID [JSON | --error TEXT]"
     " | history prune [--rows N] [--age SECONDS]",
     "the tool-call history, newest first, as JSON lines (-t: a table)",
     "Each line is one JSON object: id, name, status (pending, success, error),\n"
     "started_at, completed_at, duration_ms (null while pending), parameters and\n"
     "result (JSON values, null when absent), error (text or null).\n"
     "-n N shows the N most recent calls (default: all).\n"
     "start records a pending call with JSON parameters and prints its id; finish\n"
     "marks it a success (with an optional JSON result) or an error (--error).\n"
     "prune deletes all but the newest N calls (--rows) and the calls started more\n"
     "than SECONDS ago (--age); every front also bounds the history to 100,000\n"
     "calls. The CLI, sbx mcp, the C API and the Python package record each bash\n"
     "call and each file command; calls are written lazily (docs/limits.md)."},
    {"import", cli_import_dir_main, CLI_DB, "import HOSTDIR PATH",
     "copy a host directory tree into the sandbox at PATH (all or nothing)",
     "Regular files, directories and symlinks are copied with their permission\n"
     "bits (set-id bits dropped) and times; existing entries are replaced. A\n"
     "symlink must stay inside the tree (a relative target: some ../ then names);\n"
     "any other symlink, and fifos, sockets and devices, fail the whole import."},
    {"export-dir", cli_export_dir_main, CLI_DB | CLI_NOCREATE, "export-dir PATH HOSTDIR",
     "copy the sandbox tree at PATH into the new host directory HOSTDIR",
     "HOSTDIR must not exist. Modes (without set-id bits), times and the symlinks\n"
     "that stay inside the tree are kept; a symlink that points out of it fails\n"
     "the export (what was written stays)."},
    {"export", cli_export_main, CLI_DB | CLI_NOCREATE, "export FILE",
     "write a snapshot of the sandbox (one SQLite file) to FILE (- for stdout)",
     NULL},
    {"import", cli_import_main, 0, "import FILE DB",
     "create the sandbox DB from a snapshot FILE (- for stdin); DB must not exist",
     NULL},
    {"fork", cli_fork_main, 0, "fork DB NEWDB",
     "copy the sandbox DB into the new database NEWDB", NULL},
    {"mcp", cli_mcp_main, 0, "mcp [--dir DIR] [--http ADDR:PORT] [OPTIONS]",
     "serve sandboxes to AI agents over the Model Context Protocol (one per session)",
     CLI_MCP_HELP},
    {"mcp", cli_mcp_main, CLI_DB | CLI_NOOPEN, "mcp [--http ADDR:PORT] [OPTIONS]",
     "serve this sandbox over the Model Context Protocol (shared by all sessions)",
     CLI_MCP_HELP},
    {"doctor", cli_doctor_main, 0, "doctor", "report which jail features work on this host",
     "Each line is one piece of the Python jail: [ok], [part] (works partly or is\n"
     "optional) or [FAIL] with the reason and what to change. Exit status 0 when\n"
     "Python calls can run jailed here."},
};

#define CLI_NCOMMANDS (sizeof cli_commands / sizeof cli_commands[0])

static const cli_command *find_command(const char *name, int db) {
  for (size_t i = 0; i < CLI_NCOMMANDS; i++)
    if (strcmp(cli_commands[i].name, name) == 0 && !!(cli_commands[i].flags & CLI_DB) == db)
      return &cli_commands[i];
  return NULL;
}

static const cli_command *find_any(const char *name) {
  const cli_command *cmd = find_command(name, 0);
  return cmd ? cmd : find_command(name, 1);
}

static void print_synopsis(FILE *f, const cli_command *cmd) {
  fprintf(f, "sbx %s%s\n", (cmd->flags & CLI_DB) ? "DB " : "", cmd->usage);
}

/* The entry being run (its usage is the one to print: `import` is both a
 * global command and a DB command). */
static const cli_command *cli_running;

int cli_usage(const char *name) {
  const cli_command *cmd =
      cli_running && strcmp(cli_running->name, name) == 0 ? cli_running : find_any(name);
  if (!cmd) return cli_error("unknown subcommand '%s'; see 'sbx --help'", name);
  fprintf(stderr, "usage: ");
  print_synopsis(stderr, cmd);
  fprintf(stderr, "Try 'sbx %s%s --help' for more information.\n",
          (cmd->flags & CLI_DB) ? "DB " : "", cmd->name);
  return 1;
}

static void print_help(void) {
  printf(
      "sbx %s: a local sandbox for AI agents (one sandbox = one SQLite file)\n\n"
      "usage: sbx DB                    interactive shell in the sandbox DB\n"
      "       sbx DB -c SCRIPT [ARG...] run a shell script in DB\n"
      "       sbx DB COMMAND [ARG...]   a command on the sandbox DB\n"
      "       sbx COMMAND [ARG...]      a command without a sandbox\n\n"
      "Options (before DB):\n"
      "  --isolation process             the shell runs in a jailed helper process of\n"
      "                                  its own, killed at the deadline (in-process:\n"
      "                                  the default)\n"
      "  --python-path DIR               a host directory Python can import from, bound\n"
      "                                  read-only into the jail (repeatable)\n"
      "  --preset strict|normal|permissive  the limits of the calls that run code\n"
      "  --timeout SEC                   the time limit of one call (shell and Python)\n"
      "  --limit NAME=N                  one limit (loop_iterations, command_count,\n"
      "                                  function_depth, output_bytes, string_size,\n"
      "                                  array_size, timeout_ms); these three may\n"
      "                                  also follow DB or the subcommand's name\n\n"
      "  --programs NAME[,NAME...]       host programs the shell may run in the jail\n"
      "                                  (git, make, gcc...; '' for none; default: all\n"
      "                                  of the jail's runtime)\n\n"
      "Commands:\n",
      SBX_VERSION);
  for (size_t i = 0; i < CLI_NCOMMANDS; i++) {
    const cli_command *cmd = &cli_commands[i];
    char syn[256];
    snprintf(syn, sizeof syn, "%s%s", (cmd->flags & CLI_DB) ? "DB " : "", cmd->usage);
    if (strlen(syn) > 30) /* a long synopsis gets its own line */
      printf("  sbx %s\n  %-34s %s%s\n", syn, "", cmd->summary,
             cmd->main ? "" : " [not built yet]");
    else
      printf("  sbx %-30s %s%s\n", syn, cmd->summary, cmd->main ? "" : " [not built yet]");
  }
  printf(
      "\nDB is created (AgentFS 0.4 schema) by commands that write; commands that\n"
      "only read need an existing DB. A database named like a command: ./NAME.\n"
      "'sbx help COMMAND' or 'sbx DB COMMAND --help' for details.\n"
      "Exit status: 0 on success, 1 on failure (errors on stderr as 'sbx: ...').\n");
}

static int print_command_help(const cli_command *cmd) {
  printf("usage: ");
  print_synopsis(stdout, cmd);
  printf("\n%s%s\n", cmd->summary, cmd->main ? "" : " (not in this build yet)");
  if (cmd->help) printf("\n%s\n", cmd->help);
  return 0;
}

/* Whether --help appears among the arguments (before a "--"). */
static int wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) return 0;
    if (strcmp(argv[i], "--help") == 0) return 1;
  }
  return 0;
}

static int not_built(const cli_command *cmd) {
  if (strcmp(cmd->name, "sh") == 0)
    return cli_error("the shell (sbx DB, sbx DB -c SCRIPT) is not part of this build yet");
  return cli_error("%s: not part of this build yet", cmd->name);
}

static int run_command(const cli_command *cmd, const char *db, int argc, char **argv) {
  if (wants_help(argc, argv)) return print_command_help(cmd);
  if (!cmd->main) return not_built(cmd);
  cli_ctx c = {.db = db, .h = NULL};
  cli_running = cmd;
  if ((cmd->flags & CLI_DB) && !(cmd->flags & CLI_NOOPEN) &&
      cli_open(&c, !(cmd->flags & CLI_NOCREATE)) != 0)
    return 1;
  int status = cmd->main(&c, argc, argv);
  if (c.h && sbx_close(c.h) != SBX_OK && status == 0) status = 1;
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sbx DB [COMMAND [ARG...]] | sbx COMMAND [ARG...]\n"
                    "Try 'sbx --help' for more information.\n");
    return 1;
  }
  /* Global options before the database: --isolation in-process|process,
   * --python-path DIR (repeatable) and the limit options (cli_limit_option). */
  size_t npaths = 0;
  for (;;) {
    int i = 1, k = cli_limit_option(argc, argv, &i);
    if (k < 0) return 1;
    if (k == 0) {
      int is_path = argc >= 2 && strncmp(argv[1], "--python-path", 13) == 0 &&
                    (argv[1][13] == '=' || argv[1][13] == '\0');
      int is_iso = argc >= 2 && strncmp(argv[1], "--isolation", 11) == 0 &&
                   (argv[1][11] == '=' || argv[1][11] == '\0');
      if (!is_path && !is_iso) break;
      size_t nl = is_path ? 13 : 11;
      const char *v = argv[1][nl] == '=' ? argv[1] + nl + 1 : argc >= 3 ? argv[2] : NULL;
      i = argv[1][nl] == '=' ? 2 : 3;
      if (is_path) {
        if (!v || !*v) return cli_error("--python-path needs a host directory");
        if (npaths == CLI_MAX_PYTHON_PATHS)
          return cli_error("--python-path: at most %d directories", CLI_MAX_PYTHON_PATHS);
        cli_python_paths[npaths++] = v;
      } else if (!v) {
        return cli_error("--isolation needs a mode: in-process or process");
      } else if (strcmp(v, "process") == 0) {
        cli_open_flags |= SBX_OPEN_PROCESS;
      } else if (strcmp(v, "in-process") == 0) {
        cli_open_flags &= ~SBX_OPEN_PROCESS;
      } else {
        return cli_error("--isolation: unknown mode '%s' (in-process or process)", v);
      }
    }
    argv[i - 1] = argv[0];
    argv += i - 1;
    argc -= i - 1;
  }
  /* --programs LIST: comma-separated names or paths ("" for none). */
  while (argc >= 2 && strncmp(argv[1], "--programs", 10) == 0 &&
         (argv[1][10] == '=' || argv[1][10] == '\0')) {
    const char *list = argv[1][10] == '=' ? argv[1] + 11 : argc >= 3 ? argv[2] : NULL;
    int used = argv[1][10] == '=' ? 1 : 2;
    if (!list) return cli_error("--programs needs a list: NAME[,NAME...] (or '' for none)");
    size_t n = 1;
    for (const char *p = list; *p; p++) n += *p == ',';
    char *copy = strdup(list);
    char **names = calloc(n + 1, sizeof *names);
    if (!copy || !names) return cli_error("out of memory");
    size_t k = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
      names[k++] = tok;
    cli_programs = names; /* lives as long as the process */
    argv[used] = argv[0];
    argv += used;
    argc -= used;
  }
  if (argc < 2) {
    fprintf(stderr,
            "usage: sbx [--python-path DIR] [--isolation MODE] [--programs LIST] DB "
            "[COMMAND [ARG...]] | sbx COMMAND [ARG...]\n");
    return 1;
  }
  const char *first = argv[1];
  if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
    print_help();
    return 0;
  }
  if (strcmp(first, "help") == 0) {
    if (argc < 3) {
      print_help();
      return 0;
    }
    const cli_command *cmd = find_any(argv[2]);
    if (!cmd) return cli_error("unknown command '%s'; see 'sbx --help'", argv[2]);
    return print_command_help(cmd);
  }
  if (strcmp(first, "--version") == 0) {
    printf("sbx %s\n", SBX_VERSION);
    return 0;
  }
  if (first[0] == '-') return cli_error("unknown option '%s'; see 'sbx --help'", first);

  const cli_command *global = find_command(first, 0);
  if (global) return run_command(global, NULL, argc - 1, argv + 1);

  /* `sbx DB ...`; limit options may follow DB (`sbx DB --timeout 5 -c ...`) */
  const char *db = first;
  for (int i = 2, k; (k = cli_limit_option(argc, argv, &i)) != 0;) {
    if (k < 0) return 1;
    memmove(argv + 2, argv + i, (size_t)(argc - i + 1) * sizeof *argv);
    argc -= i - 2;
    i = 2;
  }
  if (argc == 2 || strcmp(argv[2], "-c") == 0) {
    /* The shell gets argv as {"sh", ["-c", SCRIPT, ARG...]}. */
    char **shargv = calloc((size_t)argc, sizeof *shargv);
    if (!shargv) return cli_error("out of memory");
    shargv[0] = "sh";
    for (int i = 2; i < argc; i++) shargv[i - 1] = argv[i];
    int status = run_command(find_command("sh", 1), db, argc - 1, shargv);
    free(shargv);
    return status;
  }
  if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
    print_help();
    return 0;
  }
  const cli_command *cmd = find_command(argv[2], 1);
  if (!cmd) {
    if (find_command(argv[2], 0))
      return cli_error("'%s' takes no database first: sbx %s", argv[2],
                       find_command(argv[2], 0)->usage);
    return cli_error("unknown command '%s'; see 'sbx --help'", argv[2]);
  }
  return run_command(cmd, db, argc - 2, argv + 2);
}
