# tput and clear (ncurses 6.4) with the built-in xterm, xterm-256color and
# dumb entries (no terminal, no terminfo database in the sandbox).

test: attributes and colors for xterm
cmd: export TERM=xterm; for c in bold dim sitm ritm smul rmul rev blink sgr0 op el ed civis cnorm sc rc home cuu1 smcup rmcup; do tput $c; echo; done | od -An -c
out:  033   [   1   m  \\n 033   [   2   m  \\n 033   [   3   m  \\n 033\n
out:    [   2   3   m  \\n 033   [   4   m  \\n 033   [   2   4   m  \\n\n
out:  033   [   7   m  \\n 033   [   5   m  \\n 033   (   B 033   [   m\n
out:   \\n 033   [   3   9   ;   4   9   m  \\n 033   [   K  \\n 033   [\n
out:    J  \\n 033   [   ?   2   5   l  \\n 033   [   ?   1   2   l 033\n
out:    [   ?   2   5   h  \\n 033   7  \\n 033   8  \\n 033   [   H  \\n\n
out:  033   [   A  \\n 033   [   ?   1   0   4   9   h 033   [   2   2\n
out:    ;   0   ;   0   t  \\n 033   [   ?   1   0   4   9   l 033   [\n
out:    2   3   ;   0   ;   0   t  \\n\n

test: parameters
cmd: export TERM=xterm; tput cup 5 10; tput setaf 1; tput setab 2; tput cuu 3; tput setaf 300; TERM=xterm-256color tput setaf 100; TERM=xterm-256color tput setab 9; TERM=xterm-256color tput setaf 3
out: \033[6;11H\033[31m\033[42m\033[3A\033[3300m\033[38;5;100m\033[101m\033[33m

test: numbers, booleans and the environment
cmd: export TERM=xterm; tput cols; tput lines; tput colors; COLUMNS=100 LINES=50 tput cols lines; tput -T xterm-256color colors; tput am; echo $?; tput hs; echo $?; TERM=dumb tput cols; tput longname; echo
out: 80\n24\n8\n100\n50\n256\n0\n1\n80\nxterm terminal emulator (X Window System)\n

test: clear
cmd: TERM=xterm clear | od -An -c; TERM=xterm clear -x | od -An -c; TERM=xterm tput clear | od -An -c; TERM=xterm tput -x clear | od -An -c
out:  033   [   H 033   [   2   J 033   [   3   J\n
out:  033   [   H 033   [   2   J\n
out:  033   [   H 033   [   2   J 033   [   3   J\n
out:  033   [   H 033   [   2   J\n

test: several capabilities from stdin
stdin: bold\ncols\n
cmd: TERM=xterm tput -S | od -An -c
out:  033   [   1   m   8   0  \\n\n

test: errors and exit statuses
cmd: TERM= tput cols; echo $?; TERM=nosuchterm tput cols; echo $?; TERM=xterm tput nosuch; echo $?; TERM=dumb tput bold; echo $?; TERM=dumb clear; echo $?
out: 2\n3\n4\n1\n1\n
err: tput: No value for $TERM and no -T specified\ntput: unknown terminal "nosuchterm"\ntput: unknown terminfo capability 'nosuch'\n

test: a bad option prints the usage: tput's status 2, clear's 1
cmd: tput -Q cols; echo $?; clear -Q; echo $?; tput -V | cut -c1-7
out: 2\n1\nncurses\n
# GNU's getopt message first, then ncurses' usage line
err: tput: invalid option -- 'Q'\nTry 'tput --help' for more information.\nUsage: tput [-V] [-S] [-T term] [-x] capname\nclear: invalid option -- 'Q'\nTry 'clear --help' for more information.\nUsage: clear [options]\n
host: skip
