# expr: arithmetic, comparisons, logic, string functions and ':' matching.

test: arithmetic with precedence
cmd: expr 2 + 3 \* 4; expr \( 1 + 2 \) \* 3; expr 7 / 2; expr -5 % 3; expr 10 - 20
out: 14\n9\n3\n-2\n-10\n

test: comparisons
cmd: expr 1 = 1; expr a \< b; expr 10 \< 9; expr 3 \> 20; expr abc != abd; expr 2 \>= 2
out: 1\n1\n0\n0\n1\n1\n

test: numeric versus string comparison
cmd: expr 10 \> 9; expr 10 \> 9a
out: 1\n0\n
status: 1

test: or and and
cmd: expr a \| b; expr '' \| 0; expr 0 \& 1; expr 2 \& 3
out: a\n0\n0\n2\n

test: status 1 for null or zero
cmd: expr 0; echo $?; expr ''; echo $?; expr 00; echo $?
out: 0\n1\n\n1\n00\n1\n

test: match with a group
cmd: expr abc : 'a\(.\)c'
out: b\n

test: match length
cmd: expr abc : 'a.'; expr abc : 'x'; echo $?
out: 2\n0\n1\n

test: match is anchored
cmd: expr xabc : 'abc'
out: 0\n
status: 1

test: GNU extensions in BRE
cmd: expr aaab : 'a\+'; expr aaa : 'a\{2\}'
out: 3\n2\n

test: match keyword
cmd: expr match abc 'a*'
out: 1\n

test: length substr index
cmd: expr length hello; expr length $'h\xc3\xa9llo'; expr substr hello 2 3; expr index hello l; expr index hello z
out: 5\n5\nell\n3\n0\n
status: 1

test: substr out of range
cmd: expr substr hello 9 2; echo $?
out: \n1\n

test: + quotes a keyword
cmd: expr + length
out: length\n

test: big numbers
cmd: expr 9223372036854775807 + 1
out: 9223372036854775808\n

test: leading zeros are numbers
cmd: expr 07 + 1
out: 8\n

test: -- and negative numbers
cmd: expr -- -1 + 2
out: 1\n

test: missing operand
cmd: expr
out:
err: expr: missing operand\nTry 'expr --help' for more information.\n
status: 2

test: missing argument after an operator
cmd: expr 1 +
out:
err: expr: syntax error: missing argument after \xe2\x80\x98+\xe2\x80\x99\n
status: 2

test: non-integer argument
cmd: expr 1 + a
out:
err: expr: non-integer argument\n
status: 2

test: division by zero
cmd: expr 5 / 0
out:
err: expr: division by zero\n
status: 2

test: unexpected argument
cmd: expr 1 2
out:
err: expr: syntax error: unexpected argument \xe2\x80\x982\xe2\x80\x99\n
status: 2

test: unbalanced parenthesis
cmd: expr \( 1
out:
err: expr: syntax error: expecting ')' after \xe2\x80\x981\xe2\x80\x99\n
status: 2
