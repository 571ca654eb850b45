#!/bin/bash
# Walking a tree with globstar, as a build script lists its sources.
shopt -s globstar nullglob
mkdir -p src/lib/util src/app docs/api .hidden/deep
touch src/main.c src/lib/a.c src/lib/b.h src/lib/util/u.c src/app/app.c docs/readme.md docs/api/index.md .hidden/deep/x.c top.c
echo "all c files:"; printf '  %s\n' **/*.c
echo "src tree:"; printf '  %s\n' src/**
echo "double:"; printf '  %s\n' **/**
echo "dirs only:"; printf '  %s\n' **/
echo "count: $(printf '%s\n' ** | wc -l)"
shopt -s dotglob
echo "with dotglob:"; printf '  %s\n' **/*.c
shopt -u dotglob
echo "prefixed:"; printf '  %s\n' src/**/*.c
echo "none:"; printf '  %s\n' **/*.zzz; echo "(end)"
shopt -u globstar
echo "no globstar:"; printf '  %s\n' **/*.c
shopt -u nullglob
for f in src/**/*.c; do echo "loop: $f"; done
files=(**/*.md)
echo "${#files[@]} markdown files: ${files[*]}"
