#!/bin/bash
# [[ =~ ]] with BASH_REMATCH and case patterns, as a log parser uses them.
shopt -s extglob
log=(
  "2024-01-05 12:00:01 ERROR db: connection refused (code 111)"
  "2024-01-05 12:00:02 INFO web: GET /index.html 200"
  "2024-01-05 12:00:03 WARN disk: 91% full"
  "garbage line"
)
re='^([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9:]+) ([A-Z]+) ([a-z]+): (.*)$'
for l in "${log[@]}"; do
  if [[ $l =~ $re ]]; then
    printf '%s|%s|%s|%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[5]}" "${BASH_REMATCH[6]}" "${BASH_REMATCH[7]}"
    echo "  groups: $(( ${#BASH_REMATCH[@]} - 1 ))"
  else
    echo "no match: $l (status $?)"
  fi
done
[[ "a.b" =~ a.b ]] && echo "dot matches"
[[ "axb" =~ "a.b" ]] || echo "quoted dot is literal"
[[ "abc" =~ ^(a)(x)?(c)? ]]; declare -p BASH_REMATCH
[[ "foo123" =~ [0-9]+ ]] && echo "match=${BASH_REMATCH[0]}"
bad="("; [[ x =~ $bad ]]; echo "bad regex status $?"
v='[[:digit:]]{2}'
[[ 2024 =~ $v ]] && echo "class: $BASH_REMATCH"
[[ "a b" =~ a\ b ]] && echo "escaped space"
[[ "key=val" =~ ^([^=]+)=(.*)$ ]] && echo "${BASH_REMATCH[1]} -> ${BASH_REMATCH[2]}"
classify() {
  case $1 in
    [0-9]|[1-9][0-9]) echo "$1: small number" ;;
    *.@(c|h)) echo "$1: C source" ;;
    [[:upper:]]*) echo "$1: capitalized" ;;
    *[!a-z]*) echo "$1: mixed" ;;
    "") echo "empty" ;;
    *) echo "$1: word" ;;
  esac
}
for w in 7 42 100 main.c util.h Hello hello-world plain ""; do classify "$w"; done
case "a*b" in a\*b) echo "escaped star" ;; esac
case "[x]" in \[x\]) echo "brackets" ;; esac
case foo in f*|b*) echo "alt 1" ;;& fo?) echo "fallthrough test" ;; *) echo "also default" ;; esac
case x in x) echo one ;& y) echo two ;; z) echo three ;; esac
