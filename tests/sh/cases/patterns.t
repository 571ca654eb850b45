# Pattern replacement, removal and case conversion (${x/p/r} ${x//p/r}
# ${x/#p/r} ${x/%p/r} ${x#p} ${x%%p} ${x^^p}), each checked against bash 5.2:
# empty matches, empty subjects, nocasematch, unbalanced extglob groups, UTF-8,
# patsub_replacement and quoted pattern characters. The timeout and cancel of
# long expansions are in tests/sh/test_deadline.c.

### empty matches take the replacement before each character
shopt -s extglob
x=abc
echo "${x//*(z)/-}" "${x//*(a)/-}" "${x/*(z)/-}" "${x//?(b)/-}" "${x//*(c)/-}"
--- stdout
-a-b-c --b-c -abc -a--c -a-b-

### an empty subject takes a replacement only for a pattern starting with a star
shopt -s extglob
x=
echo "[${x//*(z)/-}] [${x/*(z)/-}] [${x//?(b)/-}] [${x//!(a)/-}] [${x//z/-}]"
--- stdout
[-] [-] [] [] []

### nocasematch reaches pattern substitution, not removal or case conversion
shopt -s nocasematch
x=abc
echo ${x^^[B]} ${x#A} ${x%%C} ${x/A/X} ${x//[B]/X}
--- stdout
abc abc abc Xbc aXc

### a group without its closing parenthesis is plain text
shopt -s extglob
for x in "*(f1" "?(f1" "*[(]f1"; do for s in "(f1" "a(f1" "*(f1" "?(f1"; do [[ "$s" == $x ]] && echo "[$x] ~ [$s]"; done; done
s='a*(b'
echo "${s#*(}" "${s/*(/X}"
--- stdout
[*(f1] ~ [*(f1]
[?(f1] ~ [?(f1]
[*[(]f1] ~ [(f1]
[*[(]f1] ~ [a(f1]
[*[(]f1] ~ [*(f1]
[*[(]f1] ~ [?(f1]
a*(b aXb

### UTF-8 characters are matched whole
x=aéb€c
echo ${x//?/.} ${x#?} ${x%?} ${x/é/E} ${x//[é€]/_} ${x#a?} ${x%€?} ${#x}
--- stdout
..... éb€c aéb€ aEb€c a_b_c b€c aéb 5

### anchored replacement
x=abcabc
echo ${x/#abc/X} ${x/%abc/X} ${x/#b/X} ${x/%b/X} ${x/#/X} ${x/%/X} ${x/#a*c/X} ${x/%c*/X}
--- stdout
Xabc abcX abcabc abcabc Xabcabc abcabcX X abX

### patsub_replacement puts the match for an unquoted &
x=abcabc
shopt -s patsub_replacement
echo "${x//b/<&>}" "${x//b/\&}" "${x/#a*/[&]}" "${x//[ac]/&&}"
shopt -u patsub_replacement
echo "${x//b/<&>}"
--- stdout
a<b>ca<b>c a&ca&c [abcabc] aabccaabcc
a<&>ca<&>c

### quoted pattern characters are literal
x='a*b?c[d]'
echo "${x//\*/S}" "${x//'?'/Q}" "${x#"a*"}" "${x%'[d]'}" "${x//"["?"]"/B}"
--- stdout
aSb?c[d] a*bQc[d] b?c[d] a*b?c a*b?cB

### shortest and longest prefix and suffix with fixed-length patterns
x=aaaa.tar.gz
echo ${x%.??} ${x%%.*} ${x#a?} ${x##a*a} ${x%[.]gz} ${x#????} ${x%%?????} ${x##*.}
--- stdout
aaaa.tar aaaa aa.tar.gz r.gz aaaa.tar .tar.gz aaaa.t gz

### a literal pattern over a string with many matches
x=$(printf 'ab%.0s' {1..1000})
y=${x//ab/x}; z=${x//b/}; w=${x//ba/-}
echo ${#y} ${#z} ${#w} ${w:0:5}
--- stdout
1000 1000 1001 a----

### extglob replacement and removal
shopt -s extglob
x=aaabaaacaaab
echo ${x//+(a)b/X} ${x##*(a)b} ${x%%+(a|b)} ${x//@(b|c)/-} ${x//!(a)/.} ${x/#*(a)/<}
--- stdout
XaaacX aaacaaab aaabaaac aaa-aaa-aaa- . <baaacaaab

### case conversion over mixed text
x='héllo wörld ÀB'
echo ${x^^} ${x,,} ${x^} ${x~~} ${x^^[lö]}
--- stdout
HÉLLO WÖRLD ÀB héllo wörld àb Héllo wörld ÀB HÉLLO WÖRLD àb héLLo wÖrLd ÀB

### in [[ ]] only the pattern of == and != is an extglob group while extglob is off
e= s=x
[[ !($e) ]] && echo empty
[[ !($s) ]] || echo nonempty
[[ a == @(a|b) && c != +(a) ]] && echo groups
shopt -s extglob
[[ !($s) ]] && echo word
--- stdout
empty
nonempty
groups
word
