/*
 * builtins_help.c - the `help` builtin and the table it reads: one entry per
 * builtin and per compound command, with its usage line and a description.
 *
 * The usage lines are bash 5.2's (they describe the interface scripts rely
 * on, and `NAME: usage: ...` messages print them); the descriptions are our
 * own, written for what this shell does inside the sandbox. The table is
 * sorted by name (strcmp) like bash's, which is also the order `help` lists
 * and matches in. A description's first line is the one-line summary that
 * `help -d` shows; the rest is the body that `help NAME` indents by four.
 *
 * Matching follows bash: each argument is a glob pattern tried against every
 * name; when it matches none, names that start with it are taken instead.
 * sh_bi_usage() prints a builtin's usage line from this table, so that text
 * lives in one place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh/builtins.h"
#include "sh/glob.h"
#include "sh/vars.h"

typedef struct help_topic {
  const char *name;     /* what `help` matches: a builtin or keyword, "for ((", "{ ... }" */
  const char *synopsis; /* the usage line */
  const char *doc;      /* summary line, then the description, lines separated by \n */
} help_topic;

static const help_topic topics[] = {
    {"(( ... ))", "(( expression ))",
     "Evaluate an arithmetic expression.\n"
     "\n"
     "EXPRESSION is evaluated with the rules of $((...)): 64-bit integers,\n"
     "C operators, variables by name. This is the command form of `let'.\n"
     "\n"
     "Exit Status:\n"
     "0 when the value is not zero, 1 when it is zero or the expression fails."},
    {".", ". filename [arguments]",
     "Run the commands of a file in the current shell.\n"
     "\n"
     "FILENAME is read and run here, so its variables, functions and `cd'\n"
     "stay. A name without a slash is looked up in PATH, then in the current\n"
     "directory. ARGUMENTS, when given, become the positional parameters while\n"
     "the file runs. `return' ends the file early.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run from the file; 1 if it cannot be read."},
    {":", ":",
     "Do nothing, successfully.\n"
     "\n"
     "The arguments are expanded (so `: ${X:=default}' assigns) and ignored.\n"
     "\n"
     "Exit Status:\n"
     "Always 0."},
    {"[", "[ arg... ]",
     "Evaluate a conditional expression.\n"
     "\n"
     "The same as `test', except that the last argument must be `]'.\n"
     "\n"
     "Exit Status:\n"
     "0 if the expression is true, 1 if false, 2 on a malformed expression."},
    {"[[ ... ]]", "[[ expression ]]",
     "Evaluate a conditional expression, without word splitting.\n"
     "\n"
     "Takes the operators of `test', and these forms:\n"
     "  ( EXPR )          grouping\n"
     "  ! EXPR            negation\n"
     "  EXPR && EXPR      both (the right side only when needed)\n"
     "  EXPR || EXPR      either (the right side only when needed)\n"
     "  STR == PATTERN    STR matches the glob PATTERN (quote it to compare\n"
     "                    literally); != is the opposite\n"
     "  STR =~ REGEX      STR contains a match of the extended regular\n"
     "                    expression; the match and its groups go into\n"
     "                    BASH_REMATCH\n"
     "  STR < STR         sorts before (> sorts after)\n"
     "Words inside are not split and not globbed.\n"
     "\n"
     "Exit Status:\n"
     "0 if true, 1 if false, 2 on a malformed expression."},
    {"alias", "alias [-p] [name[=value] ... ]",
     "Define or show aliases.\n"
     "\n"
     "With NAME=VALUE, makes NAME an alias: a command word NAME is replaced by\n"
     "VALUE before parsing (a VALUE ending in a blank also checks the next\n"
     "word). With NAME alone, shows that alias. Without arguments or with -p,\n"
     "lists all aliases in a reusable `alias NAME=VALUE' form. Aliases expand\n"
     "in non-interactive shells only after `shopt -s expand_aliases'.\n"
     "\n"
     "Exit Status:\n"
     "0, unless a NAME is not an alias."},
    {"bash", "bash [option ...] [-c command [name [arg ...]] | file [arg ...]]",
     "Run a new shell inside the sandbox.\n"
     "\n"
     "The new shell starts with the exported variables, the current directory\n"
     "and the open file descriptors of this one, runs COMMAND, FILE or its\n"
     "standard input, and returns its exit status. Options are those of\n"
     "`set' (-e, -u, -x, -o NAME...) and -c, -s, -i, --norc, --posix.\n"
     "\n"
     "Exit Status:\n"
     "The status the new shell exits with."},
    {"bg", "bg [job_spec ...]",
     "Resume jobs in the background.\n"
     "\n"
     "Background jobs already run on their own; without job control this\n"
     "shell reports that it cannot move jobs between foreground and\n"
     "background.\n"
     "\n"
     "Exit Status:\n"
     "1 (no job control)."},
    {"bind", "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
     "Set or show readline key bindings.\n"
     "\n"
     "There is no line editor in the sandbox: bind warns that line editing is\n"
     "not enabled, then lists readline's functions (-l), bindings (-p, -P),\n"
     "variables (-v, -V) and -x commands (-X), queries a function (-q), and\n"
     "adds (KEYSEQ:FUNCTION, -x) or removes (-r, -u) bindings of the emacs or\n"
     "vi keymap (-m). No inputrc is read (-f).\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or a name is unknown."},
    {"break", "break [n]",
     "Leave loops.\n"
     "\n"
     "Ends the innermost for, while, until or select loop, or N enclosing\n"
     "loops.\n"
     "\n"
     "Exit Status:\n"
     "0 unless N is not a positive number."},
    {"builtin", "builtin [shell-builtin [arg ...]]",
     "Run a builtin, bypassing functions.\n"
     "\n"
     "Runs SHELL-BUILTIN with the ARGs even when a function of the same name\n"
     "exists; useful inside a function that wraps a builtin.\n"
     "\n"
     "Exit Status:\n"
     "The builtin's status, or 1 if SHELL-BUILTIN is not a builtin."},
    {"caller", "caller [expr]",
     "Show where the current function was called from.\n"
     "\n"
     "Without EXPR prints `LINE FILE' of the current call. With EXPR, prints\n"
     "`LINE FUNCTION FILE' for frame EXPR of the call stack (0 is the\n"
     "current one), which lets a script print a stack trace.\n"
     "\n"
     "Exit Status:\n"
     "0, or 1 outside a function or when EXPR is beyond the stack."},
    {"case", "case WORD in [PATTERN [| PATTERN]...) COMMANDS ;;]... esac",
     "Run the commands of the first pattern that matches a word.\n"
     "\n"
     "WORD is expanded and compared with each PATTERN (glob syntax; `|'\n"
     "separates alternatives). The commands of the first match run. A clause\n"
     "ended by `;&' falls through into the next clause's commands; one ended\n"
     "by `;;&' goes on testing the following patterns.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, or 0 when nothing matched."},
    {"cd", "cd [-L|[-P [-e]] [-@]] [dir]",
     "Change the current directory.\n"
     "\n"
     "DIR defaults to $HOME; `-' means $OLDPWD (and prints the new directory).\n"
     "A relative DIR is looked up in the directories of CDPATH first. PWD and\n"
     "OLDPWD are updated.\n"
     "\n"
     "Options:\n"
     "  -L  keep symbolic links in the new path, resolving `..' by removing\n"
     "      the previous component (the default)\n"
     "  -P  use the physical path, with symbolic links resolved\n"
     "  -e  with -P, fail if the new current directory cannot be determined\n"
     "\n"
     "Exit Status:\n"
     "0 if the directory changed, else non-zero."},
    {"command", "command [-pVv] command [arg ...]",
     "Run a command, bypassing functions, or describe it.\n"
     "\n"
     "Runs COMMAND with the ARGs as a builtin or a program, never as a shell\n"
     "function.\n"
     "\n"
     "Options:\n"
     "  -p  look the program up in a standard PATH\n"
     "  -v  print the word or path that would run (no output if none)\n"
     "  -V  describe what COMMAND is, as `type' does\n"
     "\n"
     "Exit Status:\n"
     "The command's status, or 127 if it cannot be found."},
    {"compgen", "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] "
                "[-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
     "Print possible completions.\n"
     "\n"
     "Prints, one per line, the candidates that begin with WORD from the\n"
     "sources selected by the options (the same options as `complete'), e.g.\n"
     "-A function, -b (builtins), -v (variables), -W 'list of words'.\n"
     "\n"
     "Exit Status:\n"
     "0 if some candidate was printed, else 1."},
    {"complete", "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] "
                 "[-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
     "Set how arguments of commands are completed.\n"
     "\n"
     "Records a completion specification for each NAME, used by interactive\n"
     "completion. -p prints the specifications (reusable), -r removes them.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or NAME is invalid."},
    {"compopt", "compopt [-o|+o option] [-DEI] [name ...]",
     "Change completion options.\n"
     "\n"
     "Turns the completion options (-o) on, or off with +o, for each NAME, or\n"
     "for the completion running now when no NAME is given.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or NAME has no specification."},
    {"continue", "continue [n]",
     "Start the next iteration of a loop.\n"
     "\n"
     "Skips the rest of the body of the innermost for, while, until or select\n"
     "loop, or of the Nth enclosing one.\n"
     "\n"
     "Exit Status:\n"
     "0 unless N is not a positive number."},
    {"declare", "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
     "Set variable values and attributes.\n"
     "\n"
     "Gives each NAME the attributes of the options, and VALUE if one is given.\n"
     "Inside a function the variables are local unless -g is used. Without\n"
     "NAMEs, lists the variables that have the given attributes.\n"
     "\n"
     "Options:\n"
     "  -a  indexed array            -A  associative array\n"
     "  -i  integer: assignments are evaluated as arithmetic\n"
     "  -l  lower-case values        -u  upper-case values\n"
     "  -n  name reference: NAME stands for the variable named by its value\n"
     "  -r  read-only                -x  exported to commands\n"
     "  -t  trace attribute (functions inherit DEBUG and RETURN traps)\n"
     "  -g  global, even inside a function\n"
     "  -I  a new local takes the attributes and value of the outer variable\n"
     "  -f  functions: show their definitions    -F  function names only\n"
     "  -p  print each NAME with its attributes, in a reusable form\n"
     "`+' instead of `-' removes an attribute.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or an assignment fails."},
    {"dirs", "dirs [-clpv] [+N] [-N]",
     "Show the directory stack.\n"
     "\n"
     "The stack is kept by `pushd' and `popd'; its top is the current\n"
     "directory. Directories under $HOME are shown with a `~'.\n"
     "\n"
     "Options:\n"
     "  -c  clear the stack\n"
     "  -l  show full paths, without `~'\n"
     "  -p  one entry per line\n"
     "  -v  one entry per line, numbered\n"
     "  +N  show only the Nth entry from the left (0 is the top)\n"
     "  -N  show only the Nth entry from the right\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or N is out of range."},
    {"disown", "disown [-h] [-ar] [jobspec ... | pid ...]",
     "Remove jobs from the job table.\n"
     "\n"
     "The jobs keep running but `jobs' and `wait' no longer know them.\n"
     "-a removes all jobs, -r only running ones; -h keeps them in the table.\n"
     "\n"
     "Exit Status:\n"
     "0 unless a JOBSPEC is not found."},
    {"echo", "echo [-neE] [arg ...]",
     "Print the arguments.\n"
     "\n"
     "Writes the ARGs separated by single spaces, then a newline.\n"
     "\n"
     "Options:\n"
     "  -n  no newline at the end\n"
     "  -e  interpret backslash escapes: \\a \\b \\c (stop output here) \\e \\E\n"
     "      \\f \\n \\r \\t \\v \\\\ \\0NNN (octal) \\xHH (hex) \\uHHHH \\UHHHHHHHH\n"
     "      (Unicode characters)\n"
     "  -E  do not interpret escapes (the default)\n"
     "\n"
     "Exit Status:\n"
     "0 unless writing fails."},
    {"enable", "enable [-a] [-dnps] [-f filename] [name ...]",
     "Enable or disable builtins.\n"
     "\n"
     "A disabled builtin is skipped when commands are looked up, so a command\n"
     "of the same name runs instead. Without NAMEs, lists the enabled builtins.\n"
     "\n"
     "Options:\n"
     "  -n  disable the NAMEs (or list the disabled builtins)\n"
     "  -a  list every builtin, marking disabled ones\n"
     "  -p  list in a reusable form\n"
     "  -s  only the POSIX special builtins\n"
     "  -f, -d  load or unload builtins from a shared object: not available\n"
     "      in the sandbox\n"
     "\n"
     "Exit Status:\n"
     "0 unless a NAME is not a builtin."},
    {"eval", "eval [arg ...]",
     "Run the arguments as shell commands.\n"
     "\n"
     "The ARGs are joined with spaces and the result is parsed and run in\n"
     "the current shell.\n"
     "\n"
     "Exit Status:\n"
     "The status of the commands run, or 0 when the text is empty."},
    {"exec", "exec [-cl] [-a name] [command [argument ...]] [redirection ...]",
     "Replace the shell with a command, or set up redirections.\n"
     "\n"
     "With COMMAND, runs it in place of the shell: the shell ends with its\n"
     "status. Without COMMAND, the REDIRECTIONs apply to the shell itself,\n"
     "e.g. `exec 3< file' or `exec >log 2>&1'. -a NAME passes NAME as the\n"
     "command's argument zero.\n"
     "\n"
     "Exit Status:\n"
     "0 for redirections alone, unless one fails; 127 if COMMAND is not found."},
    {"exit", "exit [n]",
     "Leave the shell.\n"
     "\n"
     "Ends the shell with status N (0-255), or with the status of the last\n"
     "command. The EXIT trap runs first."},
    {"export", "export [-fn] [name[=value] ...] or export -p",
     "Mark variables to be passed to commands.\n"
     "\n"
     "Each NAME goes into the environment of the commands run from now on,\n"
     "with VALUE if one is given.\n"
     "\n"
     "Options:\n"
     "  -f  the NAMEs are functions (passed to nested shells)\n"
     "  -n  remove the export mark\n"
     "  -p  list the exported variables in a reusable form\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or a NAME is invalid."},
    {"false", "false",
     "Fail.\n"
     "\n"
     "Exit Status:\n"
     "Always 1."},
    {"fc", "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]",
     "List, edit or re-run commands from the history.\n"
     "\n"
     "FIRST and LAST select history entries by number (negative counts back)\n"
     "or by the text they start with. -l lists them (-n without numbers, -r in\n"
     "reverse). -s re-runs one command after replacing PAT by REP. Editing\n"
     "with an editor (-e) is not available in the sandbox.\n"
     "\n"
     "Exit Status:\n"
     "0 or the status of the command re-run; non-zero on a bad selection."},
    {"fg", "fg [job_spec]",
     "Bring a job to the foreground.\n"
     "\n"
     "Without job control this shell reports that it cannot; use `wait' to\n"
     "wait for a background job.\n"
     "\n"
     "Exit Status:\n"
     "1 (no job control)."},
    {"for", "for NAME [in WORDS ... ] ; do COMMANDS; done",
     "Run commands for each word of a list.\n"
     "\n"
     "The WORDS are expanded; NAME takes each of the resulting words in turn\n"
     "and COMMANDS run once per word. Without `in WORDS' the loop goes over\n"
     "the positional parameters (\"$@\").\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, 0 if none ran."},
    {"for ((", "for (( exp1; exp2; exp3 )); do COMMANDS; done",
     "Arithmetic for loop.\n"
     "\n"
     "EXP1 is evaluated once; then, as long as EXP2 is not zero, COMMANDS run\n"
     "and EXP3 is evaluated. A missing EXP2 counts as 1. The expressions use\n"
     "the rules of $((...)).\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, 0 if none ran."},
    {"function", "function name { COMMANDS ; } or name () { COMMANDS ; }",
     "Define a shell function.\n"
     "\n"
     "Afterwards NAME runs COMMANDS with its arguments as $1, $2... \"$@\";\n"
     "FUNCNAME, `local' and `return' work inside it. Redirections written\n"
     "after the body apply to every call.\n"
     "\n"
     "Exit Status:\n"
     "0 unless NAME is read-only."},
    {"getopts", "getopts optstring name [arg ...]",
     "Parse options of a script or function.\n"
     "\n"
     "Each call takes the next option from the positional parameters (or from\n"
     "the ARGs) and puts its letter in the variable NAME. OPTSTRING lists the\n"
     "letters; a letter followed by `:' takes an argument, which goes into\n"
     "OPTARG. OPTIND is the index of the next argument to look at (set it to 1\n"
     "to start over). An unknown option gives NAME `?' with a message, or,\n"
     "when OPTSTRING starts with `:', no message and the letter in OPTARG (a\n"
     "missing argument then gives NAME `:').\n"
     "\n"
     "Exit Status:\n"
     "0 when an option was found, 1 at the end of the options."},
    {"hash", "hash [-lr] [-p pathname] [-dt] [name ...]",
     "Remember or show where commands were found.\n"
     "\n"
     "Looks each NAME up in PATH and remembers the result; without NAMEs,\n"
     "shows the remembered commands and how often each was used.\n"
     "\n"
     "Options:\n"
     "  -r  forget everything            -d  forget the NAMEs\n"
     "  -p PATH  remember PATH for NAME    -t  print the remembered paths\n"
     "  -l  list in a reusable form\n"
     "\n"
     "Exit Status:\n"
     "0 unless a NAME is not found or an option is invalid."},
    {"help", "help [-dms] [pattern ...]",
     "Describe the builtin commands.\n"
     "\n"
     "Without PATTERN, lists the builtins and compound commands with their\n"
     "usage lines. Otherwise describes each one whose name matches a PATTERN\n"
     "(a glob pattern; when none matches, the names that start with it).\n"
     "\n"
     "Options:\n"
     "  -d  the one-line summary only\n"
     "  -m  a manual-page layout\n"
     "  -s  the usage line only\n"
     "\n"
     "Exit Status:\n"
     "0 unless nothing matches or an option is invalid."},
    {"history", "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
     "Show or change the command history.\n"
     "\n"
     "Lists the history with numbers, or the last N entries.\n"
     "\n"
     "Options:\n"
     "  -c  clear the history         -d N  delete entry N\n"
     "  -s  add the ARGs as one entry -p    expand the ARGs and print them\n"
     "  -a -n -r -w  append to, read new lines from, read, or write the\n"
     "      history file (FILENAME or $HISTFILE)\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or offset is invalid."},
    {"if", "if COMMANDS; then COMMANDS; [ elif COMMANDS; then COMMANDS; ]... [ else COMMANDS; ] fi",
     "Run commands depending on a condition.\n"
     "\n"
     "The `if' COMMANDS run; if their status is 0 the `then' part runs.\n"
     "Otherwise each `elif' condition is tried the same way, and the `else'\n"
     "part runs when none succeeded.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, 0 if no branch ran."},
    {"jobs", "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
     "List the background jobs.\n"
     "\n"
     "Shows each job's number, state and command.\n"
     "\n"
     "Options:\n"
     "  -l  also the process ids     -p  only the process ids\n"
     "  -n  only jobs that changed since last reported\n"
     "  -r  only running jobs        -s  only stopped jobs\n"
     "  -x  run COMMAND with job specs in ARGS replaced by process ids\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or JOBSPEC is invalid."},
    {"kill", "kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
     "Send a signal to jobs of this sandbox.\n"
     "\n"
     "Sends SIGSPEC (TERM by default), given by name (TERM, SIGINT) or\n"
     "number, to each PID or JOBSPEC (%N). The targets are the shell's own\n"
     "jobs and shells: a trap for the signal runs there, otherwise the target\n"
     "ends with status 128+N. Host processes are never signalled.\n"
     "-l lists the signal names, or converts between names and numbers.\n"
     "\n"
     "Exit Status:\n"
     "0 unless a target or signal is invalid."},
    {"let", "let arg [arg ...]",
     "Evaluate arithmetic expressions.\n"
     "\n"
     "Each ARG is an expression with the rules of $((...)), evaluated in\n"
     "order: 64-bit integers, the C operators (including assignment, ++, --,\n"
     "?: and ,), bases like 16#ff, variables by name.\n"
     "\n"
     "Exit Status:\n"
     "0 if the last ARG is not zero, else 1."},
    {"local", "local [option] name[=value] ...",
     "Declare variables local to a function.\n"
     "\n"
     "Each NAME gets a new variable that lives until the function returns and\n"
     "hides any variable of that name meanwhile; functions called from here\n"
     "see it. Takes the options of `declare'. Only valid inside a function.\n"
     "\n"
     "Exit Status:\n"
     "0 unless used outside a function, or an option or assignment fails."},
    {"logout", "logout [n]",
     "Exit a login shell.\n"
     "\n"
     "A shell in the sandbox is never a login shell: logout reports that and\n"
     "fails; use `exit'.\n"
     "\n"
     "Exit Status:\n"
     "1."},
    {"mapfile", "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] "
                "[-c quantum] [array]",
     "Read lines into an indexed array.\n"
     "\n"
     "Reads the standard input (or fd FD with -u) into ARRAY (default\n"
     "MAPFILE), one element per line.\n"
     "\n"
     "Options:\n"
     "  -d DELIM  lines end with DELIM instead of newline ('' means NUL)\n"
     "  -n COUNT  read at most COUNT lines (0: all)\n"
     "  -O ORIGIN start at index ORIGIN (the array is not cleared first)\n"
     "  -s COUNT  skip the first COUNT lines\n"
     "  -t        remove the delimiter from each line\n"
     "  -u FD     read from file descriptor FD\n"
     "  -C CALLBACK  evaluate CALLBACK with the index and the line every\n"
     "            QUANTUM lines (-c QUANTUM, default 5000)\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or ARRAY is read-only."},
    {"popd", "popd [-n] [+N | -N]",
     "Remove a directory from the directory stack.\n"
     "\n"
     "Without arguments removes the top and changes to the new top. +N\n"
     "removes the Nth entry counting from the left of `dirs', -N from the\n"
     "right. -n changes the stack without changing directory.\n"
     "\n"
     "Exit Status:\n"
     "0 unless the stack is empty, N is out of range or cd fails."},
    {"printf", "printf [-v var] format [arguments]",
     "Format and print the arguments.\n"
     "\n"
     "FORMAT is printed with its backslash escapes interpreted and each %\n"
     "conversion replaced by the next ARGUMENT: %s %c %d %i %u %o %x %X %e %f\n"
     "%g %a (with flags, width and precision, `*' taking them from the\n"
     "arguments), %b (an argument with echo -e escapes), %q (an argument\n"
     "quoted for reuse as shell input), %(FMT)T (a time, strftime FMT; -1 is\n"
     "now) and %%. The format is reused until the arguments are used up.\n"
     "-v VAR assigns the result to VAR instead of printing it.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an argument is invalid or writing fails."},
    {"pushd", "pushd [-n] [+N | -N | dir]",
     "Add a directory to the directory stack.\n"
     "\n"
     "With DIR, changes to DIR and pushes it on the stack. Without arguments\n"
     "swaps the top two entries. +N (-N) rotates the stack so that the Nth\n"
     "entry from the left (right) comes to the top. -n changes the stack\n"
     "without changing directory.\n"
     "\n"
     "Exit Status:\n"
     "0 unless DIR cannot be entered or N is out of range."},
    {"pwd", "pwd [-LP]",
     "Print the current directory.\n"
     "\n"
     "-L (the default) prints $PWD, which may contain symbolic links; -P\n"
     "prints the path with every symbolic link resolved.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid or the directory cannot be read."},
    {"read", "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] "
             "[-t timeout] [-u fd] [name ...]",
     "Read a line and split it into variables.\n"
     "\n"
     "Reads a line from the standard input, splits it into fields at the\n"
     "characters of IFS and assigns the first field to the first NAME, the\n"
     "second to the second, and the rest of the line to the last NAME. With\n"
     "no NAME the line goes into REPLY. Backslash escapes the next character\n"
     "and joins continued lines unless -r is given.\n"
     "\n"
     "Options:\n"
     "  -a ARRAY  assign the fields to ARRAY, from index 0\n"
     "  -d DELIM  read up to DELIM instead of newline ('' means NUL)\n"
     "  -e -i TEXT  interactive line editing (TEXT is the initial line)\n"
     "  -n N      stop after N characters, or at the delimiter\n"
     "  -N N      read exactly N characters, ignoring delimiters\n"
     "  -p PROMPT print PROMPT on stderr first\n"
     "  -r        backslashes are ordinary characters\n"
     "  -s        do not echo (terminal input)\n"
     "  -t SECS   give up after SECS seconds (fractions allowed; 0 only tests\n"
     "            whether input is available)\n"
     "  -u FD     read from file descriptor FD\n"
     "\n"
     "Exit Status:\n"
     "0 unless end of file came first, the time ran out (above 128), an\n"
     "assignment failed or FD is invalid."},
    {"readarray", "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] "
                  "[-c quantum] [array]",
     "Read lines into an indexed array.\n"
     "\n"
     "Another name for `mapfile'."},
    {"readonly", "readonly [-aAf] [name[=value] ...] or readonly -p",
     "Make variables read-only.\n"
     "\n"
     "Each NAME (with VALUE if given) can no longer be assigned or unset.\n"
     "-a and -A make arrays, -f applies to functions, -p (or no NAME) lists\n"
     "the read-only variables in a reusable form.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or a NAME is invalid."},
    {"return", "return [n]",
     "Return from a function or sourced file.\n"
     "\n"
     "Ends the function (or the file run by `.' or `source') with status N,\n"
     "or with the status of the last command. The RETURN trap runs.\n"
     "\n"
     "Exit Status:\n"
     "N, or 1 outside a function or sourced file."},
    {"select", "select NAME [in WORDS ... ;] do COMMANDS; done",
     "Run commands for words chosen from a menu.\n"
     "\n"
     "Prints the expanded WORDS (or the positional parameters) as a numbered\n"
     "menu on stderr, shows PS3 and reads a line. NAME is set to the chosen\n"
     "word (empty for an invalid number), REPLY to the line read, and\n"
     "COMMANDS run. This repeats until `break' or end of input.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run."},
    {"set", "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
     "Set shell options and positional parameters.\n"
     "\n"
     "Options (use + instead of - to turn one off):\n"
     "  -a  allexport: export variables that are assigned\n"
     "  -e  errexit: exit when a command fails (outside conditions)\n"
     "  -f  noglob: no pathname expansion\n"
     "  -u  nounset: expanding an unset variable is an error\n"
     "  -v  verbose: print input lines as they are read\n"
     "  -x  xtrace: print commands, after expansion, prefixed by PS4\n"
     "  -n  noexec: read commands without running them\n"
     "  -C  noclobber: `>' does not overwrite files (use `>|')\n"
     "  -E  errtrace: functions and subshells inherit the ERR trap\n"
     "  -T  functrace: functions inherit the DEBUG and RETURN traps\n"
     "  -B  braceexpand (on by default)   -H  history expansion\n"
     "  -h  hashall   -b  notify   -k  keyword   -m  monitor   -P  physical\n"
     "  -o NAME  turn on option NAME (the long names above, and pipefail:\n"
     "      a pipeline fails when any of its commands fails; posix; ...)\n"
     "  -o  without NAME, show the options; +o in a reusable form\n"
     "Words after the options, or after `--', become the positional\n"
     "parameters; `set --' alone clears them. Without arguments, lists all\n"
     "variables and functions.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option is invalid."},
    {"sh", "sh [option ...] [-c command [name [arg ...]] | file [arg ...]]",
     "Run a new shell inside the sandbox.\n"
     "\n"
     "The same as `bash'."},
    {"shift", "shift [n]",
     "Shift the positional parameters.\n"
     "\n"
     "Drops the first N (default 1) positional parameters: $N+1 becomes $1.\n"
     "\n"
     "Exit Status:\n"
     "0 unless N is negative or larger than $#."},
    {"shopt", "shopt [-pqsu] [-o] [optname ...]",
     "Set and show shell behaviour options.\n"
     "\n"
     "Without options shows the OPTNAMEs (or all) with their state.\n"
     "\n"
     "Options:\n"
     "  -s  turn the OPTNAMEs on        -u  turn them off\n"
     "  -q  no output; the status tells whether all OPTNAMEs are on\n"
     "  -p  show in a reusable form     -o  OPTNAMEs of `set -o'\n"
     "Commonly used: extglob (?(..) *(..) +(..) @(..) !(..) patterns),\n"
     "globstar (** matches directories recursively), nullglob (a pattern\n"
     "without matches expands to nothing), failglob (is an error), dotglob\n"
     "(patterns match names starting with a dot), nocaseglob, nocasematch,\n"
     "expand_aliases, lastpipe, inherit_errexit.\n"
     "\n"
     "Exit Status:\n"
     "0 if the options are on (or were set), else 1; 2 for an invalid name."},
    {"source", "source filename [arguments]",
     "Run the commands of a file in the current shell.\n"
     "\n"
     "Another name for `.'."},
    {"suspend", "suspend [-f]",
     "Suspend shell execution.\n"
     "\n"
     "There is no job control in the sandbox: suspend reports that and fails.\n"
     "\n"
     "Exit Status:\n"
     "1."},
    {"test", "test [expr]",
     "Evaluate a conditional expression.\n"
     "\n"
     "Files:\n"
     "  -e FILE exists     -f regular file   -d directory   -L/-h symlink\n"
     "  -r -w -x           readable, writable, executable\n"
     "  -s FILE            exists and is not empty\n"
     "  -b -c -p -S        block device, character device, FIFO, socket\n"
     "  -g -u -k           setgid, setuid, sticky bit\n"
     "  -O -G              owned by the user, by the group\n"
     "  -N FILE            modified since last read\n"
     "  F1 -nt F2, F1 -ot F2   newer, older     F1 -ef F2  the same file\n"
     "  -t FD              FD is a terminal\n"
     "Strings:\n"
     "  -z STR  empty      -n STR  not empty  STR  not empty\n"
     "  S1 = S2, S1 != S2  equal, different   S1 < S2, S1 > S2  sort order\n"
     "Numbers (integers):\n"
     "  N1 -eq N2  -ne  -lt  -le  -gt  -ge\n"
     "Other:\n"
     "  -v NAME    the variable is set     -o OPT  the shell option is on\n"
     "  ! EXPR     not     EXPR -a EXPR  and     EXPR -o EXPR  or\n"
     "  ( EXPR )   grouping\n"
     "\n"
     "Exit Status:\n"
     "0 if true, 1 if false, 2 on a malformed expression."},
    {"time", "time [-p] pipeline",
     "Report how long a pipeline takes.\n"
     "\n"
     "Runs PIPELINE and prints the elapsed (real), user and system times on\n"
     "stderr, in the format of TIMEFORMAT; -p uses the POSIX format.\n"
     "\n"
     "Exit Status:\n"
     "The status of PIPELINE."},
    {"times", "times",
     "Show the accumulated times of the shell and its commands.\n"
     "\n"
     "Prints the user and system time of the shell, then of its commands.\n"
     "The sandbox does not account processor time; the times print as zero.\n"
     "\n"
     "Exit Status:\n"
     "Always 0."},
    {"trap", "trap [-lp] [[arg] signal_spec ...]",
     "Run commands when a signal or shell event occurs.\n"
     "\n"
     "ARG is a command string run when one of the SIGNAL_SPECs happens. `-'\n"
     "(or no ARG with a single number) restores the default, '' ignores\n"
     "the signal. SIGNAL_SPEC is a name (INT, SIGTERM) or a number, or:\n"
     "  EXIT    when the shell exits\n"
     "  ERR     when a command fails where set -e would exit\n"
     "  DEBUG   before each simple command\n"
     "  RETURN  when a function or sourced file returns\n"
     "Functions see DEBUG and RETURN traps only with set -T (or declare -t),\n"
     "and ERR only with set -E, but a trap they set stays set. -p prints the\n"
     "traps in a reusable form, -l the signal names.\n"
     "\n"
     "Exit Status:\n"
     "0 unless a SIGNAL_SPEC is invalid."},
    {"true", "true",
     "Succeed.\n"
     "\n"
     "Exit Status:\n"
     "Always 0."},
    {"type", "type [-afptP] name [name ...]",
     "Describe how each name would be interpreted as a command.\n"
     "\n"
     "Tells whether NAME is an alias, keyword, function, builtin or file.\n"
     "\n"
     "Options:\n"
     "  -a  every interpretation, not only the first\n"
     "  -f  ignore functions\n"
     "  -P  search PATH even for builtins and functions\n"
     "  -p  the path of the file that would run, if any\n"
     "  -t  one word: alias, keyword, function, builtin or file\n"
     "\n"
     "Exit Status:\n"
     "0 if every NAME was found, else 1."},
    {"typeset", "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
     "Set variable values and attributes.\n"
     "\n"
     "Another name for `declare'."},
    {"ulimit", "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]",
     "Show or set resource limits.\n"
     "\n"
     "Without LIMIT shows the limit of the chosen resource (file size, -f, by\n"
     "default); with LIMIT (a number or `unlimited') sets it. -S and -H\n"
     "select the soft or hard limit; -a shows all. The limits are kept by the\n"
     "shell and inherited by subshells; the sandbox enforces file size (-f)\n"
     "and open files (-n) and records the others.\n"
     "\n"
     "Exit Status:\n"
     "0 unless an option or limit is invalid."},
    {"umask", "umask [-p] [-S] [mode]",
     "Show or set the file creation mask.\n"
     "\n"
     "MODE is octal (022) or symbolic (u=rwx,g=rx,o=rx). Without MODE the\n"
     "mask is printed, symbolically with -S, in a reusable form with -p.\n"
     "\n"
     "Exit Status:\n"
     "0 unless MODE or an option is invalid."},
    {"unalias", "unalias [-a] name [name ...]",
     "Remove aliases.\n"
     "\n"
     "Removes each NAME, or every alias with -a.\n"
     "\n"
     "Exit Status:\n"
     "0 unless a NAME is not an alias."},
    {"unset", "unset [-f] [-v] [-n] [name ...]",
     "Remove variables or functions.\n"
     "\n"
     "Unsets each NAME: a variable (or an array element, `a[i]'), else a\n"
     "function. -v only variables, -f only functions, -n the name reference\n"
     "itself rather than the variable it refers to. Read-only variables\n"
     "cannot be unset.\n"
     "\n"
     "Exit Status:\n"
     "0 unless a NAME is read-only or invalid."},
    {"until", "until COMMANDS; do COMMANDS-2; done",
     "Repeat commands until a condition succeeds.\n"
     "\n"
     "Runs COMMANDS-2 as long as the last command of COMMANDS fails.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, 0 if none ran."},
    {"variables", "variables - Names and meanings of some shell variables",
     "Variables that the shell sets or uses.\n"
     "\n"
     "BASH_VERSION  the version of bash this shell follows\n"
     "BASHPID, $$   the ids of this shell and of the main shell\n"
     "BASH_REMATCH  the groups of the last [[ =~ ]] match\n"
     "BASH_SOURCE, FUNCNAME, BASH_LINENO  the call stack\n"
     "BASH_COMMAND  the command running (useful in traps)\n"
     "CDPATH        directories searched by cd\n"
     "HOME          the default directory of cd and ~\n"
     "IFS           the characters that split words and read fields\n"
     "LINENO        the current line number\n"
     "OLDPWD, PWD   the previous and the current directory\n"
     "OPTARG, OPTIND  used by getopts\n"
     "PATH          the directories searched for commands\n"
     "PIPESTATUS    the statuses of the last pipeline's commands\n"
     "PPID          the id of the shell's parent\n"
     "PS1, PS2, PS4 the prompts, and the prefix of set -x lines\n"
     "RANDOM        a random number from 0 to 32767 on each use\n"
     "REPLY         the line read by read or select without a name\n"
     "SECONDS       seconds since the shell started\n"
     "SHELLOPTS, BASHOPTS  the options that are on\n"
     "SHLVL         how deeply shells are nested\n"
     "TIMEFORMAT    the format of the `time' report"},
    {"wait", "wait [-fn] [-p var] [id ...]",
     "Wait for background jobs to finish.\n"
     "\n"
     "Waits for each ID (a process id from $! or a job spec %N), or for all\n"
     "background jobs. -n waits for the next job to finish (of the IDs, if\n"
     "given); -p VAR stores the id of that job in VAR; -f is accepted.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last ID waited for (127 if unknown), or 0 when\n"
     "waiting for all."},
    {"while", "while COMMANDS; do COMMANDS-2; done",
     "Repeat commands while a condition succeeds.\n"
     "\n"
     "Runs COMMANDS-2 as long as the last command of COMMANDS succeeds.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run, 0 if none ran."},
    {"{ ... }", "{ COMMANDS ; }",
     "Group commands.\n"
     "\n"
     "Runs COMMANDS in the current shell as one unit, e.g. to redirect the\n"
     "output of several commands at once.\n"
     "\n"
     "Exit Status:\n"
     "The status of the last command run."},
};
#define NTOPICS (sizeof topics / sizeof topics[0])

static const help_topic *topic_find(const char *name) {
  for (size_t i = 0; i < NTOPICS; i++)
    if (!strcmp(topics[i].name, name)) return &topics[i];
  return NULL;
}

const char *sh_help_synopsis(const char *name) {
  const help_topic *t = topic_find(name);
  return t ? t->synopsis : NULL;
}

void sh_bi_usage(sh_shell *sh, const char *name) {
  const char *syn = sh_help_synopsis(name);
  sh_errorf_raw(sh, "%s: usage: %s\n", name, syn ? syn : name);
}

/* The summary: the doc up to its first newline, into buf. */
static const char *summary(const help_topic *t, char *buf, size_t bs) {
  size_t n = strcspn(t->doc, "\n");
  if (n >= bs) n = bs - 1;
  memcpy(buf, t->doc, n);
  buf[n] = 0;
  return buf;
}

/* The body, each line indented by four spaces (blank lines too, as bash). */
static void print_body(sh_shell *sh, const help_topic *t) {
  const char *p = strchr(t->doc, '\n');
  if (!p) {
    sh_printf_fd(sh, 1, "    %s\n", t->doc);
    return;
  }
  /* the summary line opens the body too */
  sh_printf_fd(sh, 1, "    %.*s\n", (int)(p - t->doc), t->doc);
  while (p) {
    const char *line = p + 1;
    p = strchr(line, '\n');
    int n = p ? (int)(p - line) : (int)strlen(line);
    sh_printf_fd(sh, 1, "    %.*s\n", n, line);
  }
}

static void print_manpage(sh_shell *sh, const help_topic *t) {
  char sum[128];
  sh_printf_fd(sh, 1, "NAME\n    %s - %s\n\nSYNOPSIS\n    %s\n\nDESCRIPTION\n", t->name,
               summary(t, sum, sizeof sum), t->synopsis);
  print_body(sh, t);
  sh_write_str(sh, 1, "\nSEE ALSO\n    bash(1)\n\nIMPLEMENTATION\n    the sbx shell, following GNU bash 5.2\n\n");
}

/* Is the builtin `name` disabled by `enable -n`? (keywords never are) */
static bool topic_disabled(sh_shell *sh, const char *name) {
  return sh_builtin_lookup(sh, name) && !sh_builtin_find(sh, name);
}

/* One cell of the two-column list: the mark (`*' for a disabled builtin)
 * and the usage line; one of `room' characters or more shows its first
 * `room' and a `>' (bash's layout: room is width-3 on the left, width-4 on
 * the right), and a left cell is padded to `width'. */
static void list_cell(sh_buf *b, sh_shell *sh, const help_topic *t, size_t width, size_t room, bool pad) {
  size_t start = b->len;
  sh_buf_addc(b, topic_disabled(sh, t->name) ? '*' : ' ');
  size_t n = strlen(t->synopsis);
  if (n >= room) {
    sh_buf_add(b, t->synopsis, room);
    sh_buf_addc(b, '>');
  } else {
    sh_buf_adds(b, t->synopsis);
  }
  if (pad)
    while (b->len - start < width) sh_buf_addc(b, ' ');
}

static void list_all(sh_shell *sh) {
  sh_write_str(sh, 1,
               "These are the shell's builtin and compound commands, with their usage.\n"
               "`help NAME' describes NAME (a glob pattern matches several names),\n"
               "`help -d NAME' summarizes it in one line, `help -m NAME' shows it as a\n"
               "manual page. A star (*) marks a builtin disabled with `enable -n'.\n"
               "\n");
  const char *cols = sh_var_get(sh, "COLUMNS");
  long width = cols ? strtol(cols, NULL, 10) : 0;
  if (width <= 0 || width > 4096) width = 80;
  size_t half = (size_t)width / 2;
  if (half > 128) half = 128;
  if (half < 4) half = 40;
  size_t rows = (NTOPICS + 1) / 2;
  sh_buf b = {0};
  for (size_t r = 0; r < rows; r++) {
    bool second = r + rows < NTOPICS;
    list_cell(&b, sh, &topics[r], half, half - 3, second);
    if (second) list_cell(&b, sh, &topics[r + rows], half, half - 4, false);
    sh_buf_addc(&b, '\n');
  }
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
}

int sh_bi_help(sh_shell *sh, int argc, char **argv) {
  bool on[3] = {0};
  int i = sh_bi_options(sh, "help", argc, argv, "dms", on);
  if (i < 0) return 2;
  bool dflag = on[0], mflag = on[1], sflag = on[2];
  if (i >= argc) {
    list_all(sh);
    return 0;
  }
  int flags = SH_FNM_EXTGLOB; /* bash matches help topics with extended patterns, case-sensitive */
  if (sh_has_glob(argv[i], flags)) {
    sh_printf_fd(sh, 1, "Shell commands matching keyword%s `", i + 1 < argc ? "s" : "");
    for (int k = i; k < argc; k++) sh_printf_fd(sh, 1, "%s%s", k > i ? ", " : "", argv[k]);
    sh_write_str(sh, 1, "'\n\n");
  }
  size_t found = 0;
  const char *pat = "";
  for (; i < argc; i++) {
    pat = argv[i];
    size_t pn = strlen(pat);
    /* pass 0: the name equals or matches the pattern; pass 1: starts with it */
    for (int pass = 0; pass < 2; pass++) {
      size_t here = 0;
      for (size_t k = 0; k < NTOPICS; k++) {
        const help_topic *t = &topics[k];
        bool m = pass == 0 ? !strcmp(pat, t->name) || sh_fnmatch(pat, pn, t->name, strlen(t->name), flags)
                           : !strncmp(pat, t->name, pn);
        if (!m) continue;
        here++;
        char sum[128];
        if (dflag) sh_printf_fd(sh, 1, "%s - %s\n", t->name, summary(t, sum, sizeof sum));
        else if (mflag) print_manpage(sh, t);
        else {
          sh_printf_fd(sh, 1, "%s: %s\n", t->name, t->synopsis);
          if (!sflag) print_body(sh, t);
        }
      }
      found += here;
      if (here) break;
    }
  }
  if (!found) {
    sh_error(sh, "help: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", pat, pat,
             pat);
    return 1;
  }
  return 0;
}
