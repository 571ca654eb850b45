#!/bin/bash
# case statements as a dispatcher.
classify() {
  case $1 in
    [0-9]|[1-9][0-9]) echo "$1: small number" ;;
    *[!0-9]*|'') echo "$1: not a number" ;;
    *) echo "$1: big number" ;;
  esac
}
for v in 7 42 123 abc '' -1; do classify "$v"; done
for f in a.txt b.TXT c.tar.gz .hidden noext; do
  case $f in
    .*) echo "$f hidden" ;;
    *.tar.gz|*.tgz) echo "$f tarball" ;;
    *.[tT][xX][tT]) echo "$f text" ;;
    *.*) echo "$f other" ;;
    *) echo "$f none" ;;
  esac
done
x=hello
case $x in
  h*) echo "starts with h" ;&
  *z) echo "fell through" ;;
  *o) echo "not reached" ;;
esac
case $x in
  h*) echo "first" ;;&
  *o) echo "second" ;;&
  *) echo "third" ;;
esac
pat='h*'
case $x in $pat) echo "pattern from var" ;; esac
case $x in "$pat") echo "quoted no" ;; *) echo "quoted literal" ;; esac
case '*' in \*) echo "escaped star" ;; esac
case a in (a) echo "paren form" ;; esac
case x in esac
echo "empty case status: $?"
case "a b" in "a b") echo "space match" ;; esac
case $undefined in "") echo "empty matches" ;; esac
shopt -s nocasematch
case HELLO in hello) echo "nocasematch" ;; esac
shopt -u nocasematch
case [ in [) echo "bracket" ;; esac
case ab in [!b]b) echo "negated class" ;; esac
case - in [a-]) echo "dash in class" ;; esac
