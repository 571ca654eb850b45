#!/bin/bash
# type, command -v and friends.
f() { echo hi; }
alias ll='ls -l'
shopt -s expand_aliases
type f
type -t f echo if cd nosuch ll
echo "status: $?"
type echo cd if
type -a echo | head -1
type nosuch 2>&1
echo "not found: $?"
type -t [[ ]] {
command -v f echo if
command -V f 2>&1 | head -1
command -V nosuch 2>&1
type ll
unalias ll
type ll 2>&1
type -P nosuch
echo "type -P: $?"
type -f f 2>&1
echo "type -f: $?"
builtin type -t type
command echo "via command"
enable -n echo
type -t echo | grep -q builtin || echo "echo disabled"
enable echo
type -t echo
hash -r
