# pr (GNU coreutils 9.1). Each case builds its files with fixed dates; the
# expectations come from GNU pr (run both ways with --host).

test: pr p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr p3
out: \n\n2020-01-02 03:04                        p3                        Page 1\n\n\n1\n2\n3\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
out: \n\n\n\n
err: 

test: pr p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr p20
out: \n\n2020-01-02 03:04                       p20                        Page 1\n\n\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
out: \n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
err: 

test: pr -l 15 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 15 p3
out: \n\n2020-01-02 03:04                        p3                        Page 1\n\n\n1\n2\n3\n\n\n\n\n\n\n\n
err: 

test: pr -l 14 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 14 p20
out: \n\n2020-01-02 03:04                       p20                        Page 1\n\n\n1\n2\n3\n4\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 2\n\n\n5\n6\n7\n8\n\n
out: \n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 3\n\n\n9\n10\n11\n12\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 4\n\n\n
out: 13\n14\n15\n16\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 5\n\n\n17\n18\n19\n20\n\n\n\n\n\n
err: 

test: pr -l 10 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 10 p3
out: 1\n2\n3\n
err: 

test: pr -h 'My Title' -l 12 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -h 'My Title' -l 12 p3
out: \n\n2020-01-02 03:04                     My Title                     Page 1\n\n\n1\n2\n\n\n\n\n\n\n\n2020-01-02 03:04                     My Title                     Page 2\n\n\n3\n\n\n\n\n\n\n
err: 

test: pr -t p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t p3
out: 1\n2\n3\n
err: 

test: pr -T p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -T p3
out: 1\n2\n3\n
err: 

test: pr -t -n p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -n p3
out:     1\t1\n    2\t2\n    3\t3\n
err: 

test: pr -n:3 -t p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -n:3 -t p3
out:   1:1\n  2:2\n  3:3\n
err: 

test: pr -t -d p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -d p3
out: 1\n\n2\n\n3\n\n
err: 

test: pr -d -l 14 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -d -l 14 p20
out: \n\n2020-01-02 03:04                       p20                        Page 1\n\n\n1\n\n2\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 2\n\n\n3\n\n4\n\n\n\n\n
out: \n\n\n\n2020-01-02 03:04                       p20                        Page 3\n\n\n5\n\n6\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 4\n\n\n7\n\n8\n\n\n
out: \n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 5\n\n\n9\n\n10\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 6\n\n\n11\n\n
out: 12\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 7\n\n\n13\n\n14\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 8\n\n
out: \n15\n\n16\n\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 9\n\n\n17\n\n18\n\n\n\n\n\n\n\n\n
out: 2020-01-02 03:04                       p20                       Page 10\n\n\n19\n\n20\n\n\n\n\n\n\n
err: 

test: pr -t -o 4 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -o 4 p3
out:     1\n    2\n    3\n
err: 

test: pr -t -o 10 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -o 10 p3
out:           1\n          2\n          3\n
err: 

test: pr -t -N 7 -n p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -N 7 -n p20
out:     7\t1\n    8\t2\n    9\t3\n   10\t4\n   11\t5\n   12\t6\n   13\t7\n   14\t8\n   15\t9\n   16\t10\n   17\t11\n   18\t12\n   19\t13\n   20\t14\n   21\t15\n   22\t16\n   23\t17\n   24\t18\n   25\t19\n
out:    26\t20\n
err: 

test: pr -l 13 +2:3 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 13 +2:3 p20
out: \n\n2020-01-02 03:04                       p20                        Page 2\n\n\n4\n5\n6\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 3\n\n\n7\n8\n9\n\n\n\n\n
out: \n
err: 

test: pr -l 13 +3 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 13 +3 p20
out: \n\n2020-01-02 03:04                       p20                        Page 3\n\n\n7\n8\n9\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 4\n\n\n10\n11\n12\n\n\n
out: \n\n\n\n\n2020-01-02 03:04                       p20                        Page 5\n\n\n13\n14\n15\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 6\n\n\n16\n17\n
out: 18\n\n\n\n\n\n\n\n2020-01-02 03:04                       p20                        Page 7\n\n\n19\n20\n\n\n\n\n\n\n
err: 

test: pr -D '%Y' -l 12 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -D '%Y' -l 12 p3
out: \n\n2020                              p3                              Page 1\n\n\n1\n2\n\n\n\n\n\n\n\n2020                              p3                              Page 2\n\n\n3\n\n\n\n\n\n\n
err: 

test: pr -3 -t p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -t p20
out: 1\t\t\t8\t\t\t15\n2\t\t\t9\t\t\t16\n3\t\t\t10\t\t\t17\n4\t\t\t11\t\t\t18\n5\t\t\t12\t\t\t19\n6\t\t\t13\t\t\t20\n7\t\t\t14\n
err: 

test: pr -3 -t p100
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -t p100
out: 1\t\t\t35\t\t\t68\n2\t\t\t36\t\t\t69\n3\t\t\t37\t\t\t70\n4\t\t\t38\t\t\t71\n5\t\t\t39\t\t\t72\n6\t\t\t40\t\t\t73\n7\t\t\t41\t\t\t74\n8\t\t\t42\t\t\t75\n9\t\t\t43\t\t\t76\n10\t\t\t44\t\t\t77\n
out: 11\t\t\t45\t\t\t78\n12\t\t\t46\t\t\t79\n13\t\t\t47\t\t\t80\n14\t\t\t48\t\t\t81\n15\t\t\t49\t\t\t82\n16\t\t\t50\t\t\t83\n17\t\t\t51\t\t\t84\n18\t\t\t52\t\t\t85\n19\t\t\t53\t\t\t86\n20\t\t\t54\t\t\t87\n
out: 21\t\t\t55\t\t\t88\n22\t\t\t56\t\t\t89\n23\t\t\t57\t\t\t90\n24\t\t\t58\t\t\t91\n25\t\t\t59\t\t\t92\n26\t\t\t60\t\t\t93\n27\t\t\t61\t\t\t94\n28\t\t\t62\t\t\t95\n29\t\t\t63\t\t\t96\n30\t\t\t64\t\t\t97\n
out: 31\t\t\t65\t\t\t98\n32\t\t\t66\t\t\t99\n33\t\t\t67\t\t\t100\n34\n
err: 

test: pr -3 -t -a p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -t -a p20
out: 1\t\t\t2\t\t\t3\n4\t\t\t5\t\t\t6\n7\t\t\t8\t\t\t9\n10\t\t\t11\t\t\t12\n13\t\t\t14\t\t\t15\n16\t\t\t17\t\t\t18\n19\t\t\t20\n
err: 

test: pr -2 -t -s, p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t -s, p20
out: 1,11\n2,12\n3,13\n4,14\n5,15\n6,16\n7,17\n8,18\n9,19\n10,20\n
err: 

test: pr -2 -t -s, -w 20 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t -s, -w 20 p20
out: 1\t ,11\n2\t ,12\n3\t ,13\n4\t ,14\n5\t ,15\n6\t ,16\n7\t ,17\n8\t ,18\n9\t ,19\n10\t ,20\n
err: 

test: pr -3 -t -w 30 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -t -w 30 p20
out: 1\t  8\t    15\n2\t  9\t    16\n3\t  10\t    17\n4\t  11\t    18\n5\t  12\t    19\n6\t  13\t    20\n7\t  14\n
err: 

test: pr -2 -t -w 20 lg
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t -w 20 lg
out: averyvery short\nb\t  \t  x\n
err: 

test: pr -2 -t lg
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t lg
out: averyveryverylonglinethatgoeson\t    short\nb\t\t\t\t    \t    x\n
err: 

test: pr -m -t m1 m2
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -m -t m1 m2
out: a\t\t\t\t    1\nb\t\t\t\t    2\n\t\t\t\t    3\n
err: 

test: pr -m -t m1 m2 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -m -t m1 m2 p3
out: a\t\t\t1\t\t\t1\nb\t\t\t2\t\t\t2\n\t\t\t3\t\t\t3\n
err: 

test: pr -m -t -s'|' m1 m2
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -m -t -s'|' m1 m2
out: a|1\nb|2\n|3\n
err: 

test: pr -3 p100
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 p100
out: \n\n2020-01-02 03:04                       p100                       Page 1\n\n\n1\t\t\t35\t\t\t68\n2\t\t\t36\t\t\t69\n3\t\t\t37\t\t\t70\n4\t\t\t38\t\t\t71\n5\t\t\t39\t\t\t72\n6\t\t\t40\t\t\t73\n
out: 7\t\t\t41\t\t\t74\n8\t\t\t42\t\t\t75\n9\t\t\t43\t\t\t76\n10\t\t\t44\t\t\t77\n11\t\t\t45\t\t\t78\n12\t\t\t46\t\t\t79\n13\t\t\t47\t\t\t80\n14\t\t\t48\t\t\t81\n15\t\t\t49\t\t\t82\n16\t\t\t50\t\t\t83\n
out: 17\t\t\t51\t\t\t84\n18\t\t\t52\t\t\t85\n19\t\t\t53\t\t\t86\n20\t\t\t54\t\t\t87\n21\t\t\t55\t\t\t88\n22\t\t\t56\t\t\t89\n23\t\t\t57\t\t\t90\n24\t\t\t58\t\t\t91\n25\t\t\t59\t\t\t92\n26\t\t\t60\t\t\t93\n
out: 27\t\t\t61\t\t\t94\n28\t\t\t62\t\t\t95\n29\t\t\t63\t\t\t96\n30\t\t\t64\t\t\t97\n31\t\t\t65\t\t\t98\n32\t\t\t66\t\t\t99\n33\t\t\t67\t\t\t100\n34\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
err: 

test: pr -2 -l 20 p100
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -l 20 p100
out: \n\n2020-01-02 03:04                       p100                       Page 1\n\n\n1\t\t\t\t    11\n2\t\t\t\t    12\n3\t\t\t\t    13\n4\t\t\t\t    14\n5\t\t\t\t    15\n6\t\t\t\t    16\n
out: 7\t\t\t\t    17\n8\t\t\t\t    18\n9\t\t\t\t    19\n10\t\t\t\t    20\n\n\n\n\n\n\n\n2020-01-02 03:04                       p100                       Page 2\n\n\n21\t\t\t\t    31\n22\t\t\t\t    32\n
out: 23\t\t\t\t    33\n24\t\t\t\t    34\n25\t\t\t\t    35\n26\t\t\t\t    36\n27\t\t\t\t    37\n28\t\t\t\t    38\n29\t\t\t\t    39\n30\t\t\t\t    40\n\n\n\n\n\n\n\n
out: 2020-01-02 03:04                       p100                       Page 3\n\n\n41\t\t\t\t    51\n42\t\t\t\t    52\n43\t\t\t\t    53\n44\t\t\t\t    54\n45\t\t\t\t    55\n46\t\t\t\t    56\n
out: 47\t\t\t\t    57\n48\t\t\t\t    58\n49\t\t\t\t    59\n50\t\t\t\t    60\n\n\n\n\n\n\n\n2020-01-02 03:04                       p100                       Page 4\n\n\n61\t\t\t\t    71\n62\t\t\t\t    72\n
out: 63\t\t\t\t    73\n64\t\t\t\t    74\n65\t\t\t\t    75\n66\t\t\t\t    76\n67\t\t\t\t    77\n68\t\t\t\t    78\n69\t\t\t\t    79\n70\t\t\t\t    80\n\n\n\n\n\n\n\n
out: 2020-01-02 03:04                       p100                       Page 5\n\n\n81\t\t\t\t    91\n82\t\t\t\t    92\n83\t\t\t\t    93\n84\t\t\t\t    94\n85\t\t\t\t    95\n86\t\t\t\t    96\n
out: 87\t\t\t\t    97\n88\t\t\t\t    98\n89\t\t\t\t    99\n90\t\t\t\t    100\n\n\n\n\n\n
err: 

test: pr -t -F p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -F p3
out: 1\n2\n3\n
err: 

test: pr -l 12 -F p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 12 -F p3
out: \n\n2020-01-02 03:04                        p3                        Page 1\n\n\n1\n2\n\f\n\n2020-01-02 03:04                        p3                        Page 2\n\n\n3\n\f
err: 

test: pr p3 m1
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr p3 m1
out: \n\n2020-01-02 03:04                        p3                        Page 1\n\n\n1\n2\n3\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
out: \n\n\n\n\n\n2020-01-02 03:04                        m1                        Page 1\n\n\na\nb\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n
out: \n\n\n\n\n\n\n
err: 

test: pr -t p3 m1
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t p3 m1
out: 1\n2\n3\na\nb\n
err: 

test: pr nosuch
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr nosuch
out: 
err: pr: nosuch: No such file or directory\n
status: 1

test: pr -t nosuch p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t nosuch p3
out: 1\n2\n3\n
err: pr: nosuch: No such file or directory\n
status: 1

test: pr --columns=2 -t p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr --columns=2 -t p20
out: 1\t\t\t\t    11\n2\t\t\t\t    12\n3\t\t\t\t    13\n4\t\t\t\t    14\n5\t\t\t\t    15\n6\t\t\t\t    16\n7\t\t\t\t    17\n8\t\t\t\t    18\n9\t\t\t\t    19\n10\t\t\t\t    20\n
err: 

test: pr -a -2 -t -s: p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -a -2 -t -s: p20
out: 1:2\n3:4\n5:6\n7:8\n9:10\n11:12\n13:14\n15:16\n17:18\n19:20\n
err: 

test: pr -l 0 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -l 0 p3
out: 
err: pr: '-l PAGE_LENGTH' invalid number of lines: ‘0’: Numerical result out of range\n
status: 1

test: pr -w 0 p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -w 0 p3
out: 
err: pr: '-w PAGE_WIDTH' invalid number of characters: ‘0’: Numerical result out of range\n
status: 1

test: pr -3 -m p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -m p3
out: 
err: pr: cannot specify number of columns when printing in parallel\n
status: 1

test: pr -3 -t -o 10 p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -3 -t -o 10 p20
out: \t  1\t\t\t  8\t\t\t  15\n\t  2\t\t\t  9\t\t\t  16\n\t  3\t\t\t  10\t\t\t  17\n\t  4\t\t\t  11\t\t\t  18\n\t  5\t\t\t  12\t\t\t  19\n\t  6\t\t\t  13\t\t\t  20\n\t  7\t\t\t  14\n
err: 

test: pr -m -t -o 3 m1 m2
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -m -t -o 3 m1 m2
out:    a\t\t\t\t       1\n   b\t\t\t\t       2\n   \t\t\t\t       3\n
err: 

test: pr -m -t -n m1 m2
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -m -t -n m1 m2
out:     1\ta\t\t\t\t1\n    2\tb\t\t\t\t2\n    3\t\t\t\t\t3\n
err: 

test: pr -t -h x p3
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -t -h x p3
out: 1\n2\n3\n
err: 

test: pr -2 -t -S:: p20
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t -S:: p20
out: 1\t\t\t\t   ::11\n2\t\t\t\t   ::12\n3\t\t\t\t   ::13\n4\t\t\t\t   ::14\n5\t\t\t\t   ::15\n6\t\t\t\t   ::16\n7\t\t\t\t   ::17\n8\t\t\t\t   ::18\n9\t\t\t\t   ::19\n10\t\t\t\t   ::20\n
err: 

test: pr -2 -t -w 30 -J lg
cmd: seq 3 > p3; seq 20 > p20; seq 100 > p100; printf 'a\nb\n' > m1; printf '1\n2\n3\n' > m2; printf 'averyveryverylonglinethatgoeson\nb\nshort\n\tx\n' > lg; touch -d '2020-01-02 03:04:05' p3 p20 p100 m1 m2 lg; pr -2 -t -w 30 -J lg
out: averyveryverylonglinethatgoeson\tshort\nb\t\tx\n
err: 

# sbx: at most 256 columns (PR_MAX_COLUMNS) and 64 files (PR_MAX_FILES)
test: the column and file limits
cmd: seq 3 | pr -257 -t; echo $?; pr -t $(seq 65 | sed 's/^/f/'); echo $?
out: 1\n1\n
err: pr: invalid number of columns: ‘257’\npr: too many files (limit 64)\n
host: skip

test: -e expands input tabs, -i puts tabs in the output, -v and -c show nonprinting bytes
cmd: printf 'a\tb\tc\n' | pr -e4 -t; printf 'aXb\n' | pr -eX3 -t; printf 'a\001b\177\303\251\tz\n' | pr -v -t
cmd: printf 'a\001b\177\303\251\n' | pr -c -t; printf 'a        b  c\n' | pr -i -t | od -An -c; printf 'ab       b\n' | pr -i_ -t
cmd: printf 'a\tb\n' | pr -e -i -t | od -An -c; pr -e0 /dev/null; echo $?
out: a   b   c\na  b\na\\001b\\177\\303\\251\tz\na^Ab^?\\303\\251\n   a  \\t       b           c  \\n\nab_ b\n   a  \\t   b  \\n\n1\n
err: pr: '-e' extra characters or invalid number in the argument: \xe2\x80\x980\xe2\x80\x99\nTry 'pr --help' for more information.\n

test: -n with columns: the number field is 8 wide as GNU's, its TAB spaces to the tab stop
cmd: seq 20 | pr -n -2 -t | head -3; seq 30 | pr -n -3 -t -w 40 | head -2; seq 12 | pr -n: -2 -t -a | head -2
cmd: seq 25 | pr -n3 -3 -t -w50 | head -2; seq 4 | pr -2 -t -n -s'XY'; seq 10 | pr -2 -t -n:3 -s | head -2
out:     1\t1\t\t\t       11   11\n    2\t2\t\t\t       12   12\n    3\t3\t\t\t       13   13\n
out:     1\t1    \t11   11\t     21\t  21\n    2\t2    \t12   12\t     22\t  22\n
out:     1:1\t\t\t\t    \t2:2\n    3:3\t\t\t\t    \t4:4\n
out:   1\t1\t  10\t 10\t   18\t  18\n  2\t2\t  11\t 11\t   19\t  19\n
out:     1\t1XY    3   3\n    2\t2XY    4   4\n  1:1\t  6:6\n  2:2\t  7:7\n

test: long options abbreviated; plain flags and arguments in any order
cmd: printf 'a\nb\nc\nd\n' > f; pr --omit-h --colu=2 --acr --separ=: f; pr --num=:3 --omit-p --ind=2 --doub f; pr --leng=3 --merg f f
out: a:b\nc:d\n    1:a\n\n    2:b\n\n    3:c\n\n    4:d\n\n
out: a\t\t\t\t    a\nb\t\t\t\t    b\nc\t\t\t\t    c\nd\t\t\t\t    d\n
