#!/bin/bash
# Globbing over a small tree: globstar, dotglob, nullglob, failglob.
mkdir -p tree/a/b/c tree/d .hidden
touch tree/x.txt tree/a/y.txt tree/a/b/z.txt tree/a/b/c/w.log tree/d/.dot .hidden/h
cd tree
shopt -s globstar
echo **
echo **/
echo **/*.txt
echo **/**
echo a/**
printf '%s\n' **/**/*.log
shopt -s dotglob
echo d/*
shopt -u dotglob
echo d/*
echo nomatch*
shopt -s nullglob
echo "[" nomatch* "]"
arr=(*.none)
echo "${#arr[@]}"
shopt -u nullglob
shopt -s failglob
echo nomatch* 2>&1
echo "failglob status: $?"
shopt -u failglob
echo [ax]*
echo ?.txt
echo *.{txt,log}
echo "quoted: *"
x='*.txt'
echo $x
echo "$x"
set -f
echo *
set +f
cd ..
shopt -s globstar
for f in tree/**/*.txt; do echo "file: $f"; done
echo tree/**/b
GLOBIGNORE='*.txt'
echo tree/*
unset GLOBIGNORE
