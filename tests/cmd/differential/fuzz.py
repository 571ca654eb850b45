#!/usr/bin/python3
"""Differential fuzzer: the commands agents use most, on generated inputs and
option combinations, run by sbx and by the host's GNU tools; whole stdout
(stderr folded in) and exit status must match.

    fuzz.py [--seed N] [--cases N] [--sbx PATH] [--only sort,uniq,...] [-v]

Each command gets --cases generated cases, run as one script (a marker line
and the status after each case) in a fresh directory holding the same input
files, through `SBX sh -c` (a fresh in-memory sandbox over a copy of the
directory) and through the host's `bash -c`, under LC_ALL=C.UTF-8 TZ=UTC.
A differing case is printed with both outputs; the exit status is the number
of commands with a difference (0: all match). The seed makes a run
reproducible; a small fixed-seed run is the gate (tests/cmd/differential/
gate.sh), larger ones are run by hand outside CI.
"""
import argparse
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

WORDS = ["apple", "Banana", "cherry", "date", "Elder", "fig", "grape", "kiwi", "lemon", "mango",
         "apple", "a", "B", "zeta", "Zeta", "foo", "bar", "baz", "foo-bar", "x_y", "naïve", "été"]
NUMS = ["0", "1", "2", "10", "-3", "007", "3.14", "-0.5", "1e3", "+4", " 12", "99", "100", "1K",
        "2M", "1.5G", "0x1F", "-", "42", "8", "1,000"]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def word(self):
        return self.r.choice(WORDS)

    def num(self):
        return self.r.choice(NUMS)

    def field(self):
        return self.word() if self.r.random() < .6 else self.num()

    def line(self, sep=None):
        r = self.r
        sep = sep if sep is not None else r.choice([" ", "\t", ":", ",", "  "])
        n = r.choice([0, 1, 2, 3, 3, 4, 5])
        s = sep.join(self.field() for _ in range(n))
        if r.random() < .1: s = " " + s
        if r.random() < .1: s = s + " "
        return s

    def text(self, sep=None, lines=None):
        r = self.r
        n = lines if lines is not None else r.randint(0, 14)
        ls = [self.line(sep) for _ in range(n)]
        if ls and r.random() < .3:  # duplicates next to each other
            i = r.randrange(len(ls))
            ls.insert(i, ls[i])
        t = "\n".join(ls)
        if ls and r.random() < .85: t += "\n"
        return t

    def pick(self, *opts):
        return self.r.choice(opts)

    def some(self, opts, k=None):
        k = k if k is not None else self.r.randint(0, min(3, len(opts)))
        return self.r.sample(opts, k)


def q(s):
    return shlex.quote(s)


# ---- generators: each returns a shell command line over the files f1 f2 f3 ----------------------


def g_sort(g):
    r = g.r
    opts = g.some(["-n", "-r", "-u", "-f", "-b", "-s", "-g", "-h", "-V", "-d", "-i", "-M", "-c"])
    if r.random() < .6:
        t = r.choice([":", ",", None, None])
        if t: opts.append(f"-t{q(t)}")
        for _ in range(r.randint(1, 2)):
            a = r.randint(1, 4)
            k = f"{a}"
            if r.random() < .3: k += f".{r.randint(1, 3)}"
            k += r.choice(["", "n", "r", "nr", "b", "f", "g"])
            if r.random() < .6:
                k += f",{r.randint(a, 5)}" + r.choice(["", "n", "r", "b"])
            opts.append(f"-k{k}")
    if "-c" in opts and r.random() < .5: opts.remove("-c")
    return "sort " + " ".join(opts) + " f1"


def g_uniq(g):
    r = g.r
    opts = g.some(["-c", "-d", "-u", "-i", "-D", "-z"][:5])
    if r.random() < .3: opts.append(f"-f{r.randint(0, 2)}")
    if r.random() < .3: opts.append(f"-s{r.randint(0, 4)}")
    if r.random() < .2: opts.append(f"-w{r.randint(1, 4)}")
    if r.random() < .15: opts.append(r.choice(["--group", "--group=append", "--all-repeated=separate"]))
    pre = "sort f1 | " if r.random() < .5 else ""
    return pre + "uniq " + " ".join(opts) + ("" if pre else " f1")


def listspec(r, hi=6):
    parts = []
    for _ in range(r.randint(1, 3)):
        a = r.randint(1, hi)
        parts.append(r.choice([f"{a}", f"{a}-", f"-{a}", f"{a}-{r.randint(a, hi + 2)}"]))
    return ",".join(parts)


def g_cut(g):
    r = g.r
    mode = r.choice(["f", "f", "c", "b"])
    opts = [f"-{mode}{listspec(r)}"]
    if mode == "f":
        d = r.choice([":", ",", " ", None])
        if d: opts.append(f"-d{q(d)}")
        if r.random() < .3: opts.append("-s")
    if r.random() < .2: opts.append("--complement")
    if r.random() < .2: opts.append(f"--output-delimiter={q(r.choice(['|', '--', '']))}")
    return "cut " + " ".join(opts) + " f1"


SETS = ["a-z", "A-Z", "[:lower:]", "[:upper:]", "[:digit:]", "[:space:]", "[:alpha:]", "[:punct:]",
        "aeiou", "0-9", "\\n", "\\t ", "a-c", "xyz", "[:alnum:]", ":,", "[=a=]", "a*", "[a*3]"]


def g_tr(g):
    r = g.r
    mode = r.choice(["map", "d", "s", "cd", "ds", "cs", "c"])
    s1 = r.choice(SETS)
    s2 = r.choice(SETS[:12])
    if mode == "map": return f"tr {q(s1)} {q(s2)} < f1"
    if mode in ("d", "cd"): return f"tr -{mode} {q(s1)} < f1"
    if mode == "s": return f"tr -s {q(s1)} {q(s2) if r.random() < .3 else ''} < f1"
    if mode == "ds": return f"tr -ds {q(s1)} {q(s2)} < f1"
    if mode == "cs": return f"tr -cs {q(s1)} '\\n' < f1"
    return f"tr -c {q(s1)} _ < f1"


def g_wc(g):
    opts = g.some(["-l", "-w", "-c", "-m", "-L"])
    files = g.pick("f1", "f1 f2", "< f1", "f1 nosuch", "-")
    return "wc " + " ".join(opts) + " " + files + (" < f2" if files == "-" else "")


def g_headtail(g):
    r = g.r
    cmd = r.choice(["head", "tail"])
    n = r.choice(["0", "1", "3", "20"])
    opt = r.choice([f"-n {n}", f"-n -{n}", f"-n +{n}", f"-c {n}", f"-c -{n}", f"-c +{n}", f"-{n}",
                    "", f"-n{n}"])
    if cmd == "head" and "+" in opt: opt = opt.replace("+", "")
    if cmd == "tail" and opt.startswith("-n -"): opt = opt.replace("-n -", "-n ")
    if cmd == "tail" and opt.startswith("-c -"): opt = opt.replace("-c -", "-c ")
    files = r.choice(["f1", "f1 f2", "< f1"])
    extra = r.choice(["", "", "-q", "-v"])
    return f"{cmd} {opt} {extra} {files}"


RES = ["a", "[0-9]+", "^a", "e$", "[[:upper:]]", "o*", ".", "\\(a\\)\\(p\\)", "foo\\|bar", "^$",
       "[aeiou]", "x*", "an", "\\bba", "[^ ]*"]


def g_sed(g):
    r = g.r
    parts = []
    n_flag = r.random() < .3
    for _ in range(r.randint(1, 3)):
        addr = r.choice(["", "", "1", "2", "$", "/a/", "2,4", "1~2", "0~3", "/^B/,/e/", "2,+1",
                         "$!", "3,$"])
        cmd = r.choice(["s", "s", "s", "d", "p", "y", "=", "a", "i", "c", "q", "N", "G", "h", "x",
                        "P", "D", "l", "n"])
        if cmd == "s":
            re = r.choice(RES)
            rep = r.choice(["X", "&&", "\\1", "[&]", "", "\\n", "\\U&", "\\u&", "-"])
            if "\\1" in rep and "\\(" not in re: re = "\\(" + re + "\\)"
            fl = r.choice(["", "g", "2", "gp" if n_flag else "g", "I", "3g"])
            c = f"s/{re}/{rep}/{fl}"
        elif cmd == "y":
            c = "y/abc/xyz/"
        elif cmd in "aic":
            c = f"{cmd}\\\n{r.choice(['text', 'two words', ''])}"
        elif cmd == "q":
            c = r.choice(["q", "q5", "Q"])
        else:
            c = cmd
        if cmd in "aic" and addr.startswith("$!"): addr = "$"
        parts.append(addr + c)
    script = "\n".join(parts)
    ext = "-E " if r.random() < .2 else ""
    if ext: script = script.replace("\\(", "(").replace("\\)", ")").replace("\\|", "|").replace("[0-9]+", "[0-9]{1,2}")
    return f"sed {'-n ' if n_flag else ''}{ext}{q(script)} f1"


AWKP = [
    "{print $1}", "{print $NF}", "{print NR\": \"$0}", "NR%2", "{s+=$1} END{print s+0}",
    "{print length($0)}", "{n=split($0,a,/[:,]/); print n, a[1]}", "{print toupper($2)}",
    "$1 ~ /^[a-f]/ {print $2}", "{printf \"%-8s|%5.2f|%d\\n\", $1, $2, $3}",
    "{$2=\"X\"; print}", "{print substr($0,2,3)}", "{gsub(/a/,\"@\"); print}",
    "NF>2{print NF}", "{c[$1]++} END{n=0; for(k in c) n++; print n}", "{print $1, $1+0}",
    "BEGIN{OFS=\"-\"}{$1=$1; print}", "{x=$0; sub(/[0-9]+/, \"<&>\", x); print x}",
    "{print index($0,\"a\"), match($0,/[0-9]+/), RSTART, RLENGTH}",
    "END{print NR}", "{print ($1 > $2) ? \"gt\" : \"le\"}", "{printf \"%c%s\\n\", $1, $2}",
    "{print int($1), $1*2, $1/3}", "{printf \"%x %o %e %g\\n\", $1, $1, $1, $1}",
    "/a/,/e/", "{print tolower($0) | \"sort\"}", "{print sprintf(\"%05.1f\", $1)}",
    "{for(i=NF;i>0;i--) printf \"%s%s\", $i, (i>1?OFS:ORS)}", "length > 6",
    "{print $(NF-1)}", "NR==2,NR==4{print NR}", "{a=a $1} END{print a}",
]


def g_awk(g):
    r = g.r
    fs = r.choice(["", "", "-F:", "-F,", "-F'\\t'", "-F'[:,]'", "-v OFS=,"])
    return f"awk {fs} {q(r.choice(AWKP))} f1"


GREPRE = ["a", "an", "e$", "^[A-Z]", "[0-9]", "foo", "ba.", "x", "^$", "apple", "Ba", "o|a", "a+",
          "\\<ba", "(an)+", "."]


def g_grep(g):
    r = g.r
    opts = g.some(["-o", "-w", "-x", "-v", "-c", "-n", "-i", "-E", "-F", "-h", "-H", "-l", "-L",
                   "-q", "-s", "-b", "--color=never"])
    if r.random() < .3: opts.append(r.choice(["-A1", "-B1", "-C1", "-A 2", "-C0", "-m2", "-m 1"]))
    pats = [r.choice(GREPRE)]
    if r.random() < .25:
        pats.append(r.choice(GREPRE))
        pat = " ".join(f"-e {q(p)}" for p in pats)
    else:
        pat = q(pats[0])
    if "-E" not in opts and "-F" not in opts and r.random() < .5: opts.append("-E")
    files = r.choice(["f1", "f1 f2", "< f1", "f1 nosuch"])
    return "grep " + " ".join(opts) + f" {pat} {files}"


PFMT = ["%d", "%5d", "%-5d|", "%05d", "%x", "%X", "%#x", "%o", "%e", "%.2e", "%f", "%.2f", "%10.3f",
        "%g", "%G", "%s", "%10s", "%-10s|", "%.3s", "%c", "%b", "%q", "%%", "%i", "%+d", "% d",
        "%u", "%*d", "%.*f", "%5s%s", "[%s]\\n", "%03x", "%'d", "\\x41\\t\\101"]
PARGS = ["1", "-3", "42", "0x1F", "010", "'a", "\"b", "1e3", "3.14159", "abc", "", "a\\tb", "-0",
         "99999", "+5", " 7", "1.5", "x y", "2"]


def g_printf(g):
    r = g.r
    fmt = "".join(r.choice(PFMT) for _ in range(r.randint(1, 3)))
    if r.random() < .5: fmt += "\\n"
    args = [r.choice(PARGS) for _ in range(r.randint(0, 4))]
    return "printf " + q(fmt) + " " + " ".join(q(a) for a in args)


def g_seq(g):
    r = g.r
    nums = r.choice([["5"], ["3", "7"], ["1", "2", "10"], ["10", "-3", "1"], ["0.5", "0.25", "2"],
                     ["-1"], ["1", "0"], ["1e1"], ["0", "0.1", "0.5"], ["1", "3", "20"], ["08", "11"]])
    opts = g.some(["-w", "-s,", "-s ' '", "-f %.2f", "-f %03g", "-t X"], r.randint(0, 1))
    return "seq " + " ".join(opts) + " " + " ".join(nums)


def g_join(g):
    r = g.r
    opts = g.some(["-a1", "-a2", "-v1", "-v2", "-i", "--nocheck-order", "-e EMPTY"])
    if r.random() < .4: opts.append(r.choice(["-t:", "-t,"]))
    if r.random() < .3: opts.append(r.choice(["-1 2", "-2 2", "-j 1"]))
    if r.random() < .3: opts.append(r.choice(["-o 1.1,2.2", "-o auto", "-o 0,1.2,2.1"]))
    return "sort -o s1 f1; sort -o s2 f2; join " + " ".join(opts) + " s1 s2"


def g_paste(g):
    opts = g.some(["-s", "-d,", "-d ':;'", "-d '\\t-'", "-z"][:4])
    return "paste " + " ".join(opts) + " " + g.pick("f1 f2", "f1", "- f1 < f2", "f1 f2 f3")


def g_comm(g):
    opts = g.some(["-1", "-2", "-3", "-i", "--nocheck-order", "--output-delimiter='|'", "--total"])
    return "sort -o s1 f1; sort -o s2 f2; comm " + " ".join(opts) + " s1 s2"


def g_fold(g):
    opts = g.some(["-s", "-b"]) + [g.pick("-w 5", "-w 1", "-w 12", "-3", "")]
    return "fold " + " ".join(opts) + " f1"


def g_fmt(g):
    opts = g.some(["-u", "-s", "-t", "-c"], g.r.randint(0, 1)) + [g.pick("-w 20", "-w 8", "", "-10", "-p a")]
    return "fmt " + " ".join(opts) + " f1"


def g_nl(g):
    opts = g.some(["-ba", "-bt", "-bn", "-b'pa'", "-nln", "-nrn", "-nrz", "-w3", "-s:", "-v5",
                   "-i2", "-ha", "-fa", "-d'XY'", "-l2"])
    return "nl " + " ".join(opts) + " f1"


def g_od(g):
    opts = g.some(["-c", "-x", "-tx1", "-to2", "-td4", "-An", "-Ad", "-Ax", "-w8", "-N10", "-j3",
                   "-b", "-a", "-tu1", "-tc", "-v", "-s", "-tf4", "-tx1z"])
    return "od " + " ".join(opts) + " f1"


def g_column(g):
    opts = g.some(["-t", "-s:", "-s,", "-o '|'", "-x", "-c 30", "-R 2", "-N a,b,c,d,e"])
    if "-R 2" in opts or "-N a,b,c,d,e" in opts:
        if "-t" not in opts: opts.append("-t")
    return "column " + " ".join(opts) + " f1"


def g_expand(g):
    cmd = g.pick("expand", "unexpand")
    opts = g.some(["-t 4", "-t 3,7", "-i", "-a", "-t 1", "--first-only"], g.r.randint(0, 2))
    if cmd == "expand": opts = [o for o in opts if o not in ("-a", "--first-only")]
    else: opts = [o for o in opts if o != "-i"]
    return f"{cmd} " + " ".join(opts) + " f1"


DATES = ["2024-01-15", "2024-02-29 13:45:10", "@1700000000", "2023-12-31 23:59:59 UTC",
         "2024-03-10 02:30", "1970-01-01", "2024-01-15 +3 days", "2024-01-31 1 month",
         "Jan 5 2021", "5 Jan 2021 10:00", "2024-06-01T12:00:00Z", "2021-07-04 -2 weeks",
         "2024-01-15 next monday", "2000-02-28 + 1 day", "yesterday 2024-05-05", "@0",
         "2024-13-01", "noon 2024-01-01", "2024-01-15 14:00 +0530", "tomorrow 2020-02-28"]
DFMTS = ["+%Y-%m-%d", "+%s", "+%F %T", "+%a %b %e %H:%M:%S %Z %Y", "+%j %U %W %V %G %u %w",
         "+%D %r %p %I", "+%-d/%-m %_H %k %l", "+%N", "+%y%m%d", "+%A %B %C %h", "+%z %:z %::z",
         "+week %V", "+%x %X %c"]


def g_date(g):
    r = g.r
    d = r.choice(DATES)
    opt = r.choice(["", "", "-u", "-I", "-Iseconds", "-R", "--iso-8601=minutes", "--rfc-3339=seconds"])
    fmt = "" if opt.startswith(("-I", "-R", "--")) else r.choice(DFMTS + [""])
    return f"TZ={r.choice(['UTC', 'UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Berlin'])} date {opt} -d {q(d)} {q(fmt) if fmt else ''}"


GENS = {
    "sort": g_sort, "uniq": g_uniq, "cut": g_cut, "tr": g_tr, "wc": g_wc, "headtail": g_headtail,
    "sed": g_sed, "awk": g_awk, "grep": g_grep, "printf": g_printf, "seq": g_seq, "join": g_join,
    "paste": g_paste, "comm": g_comm, "fold": g_fold, "fmt": g_fmt, "nl": g_nl, "od": g_od,
    "column": g_column, "expand": g_expand, "date": g_date,
}

MARK = "@@@case"


def inputs(g, name):
    sep = {"cut": g.pick(":", ",", " "), "join": g.pick(" ", ":", ","), "column": g.pick(" ", ":", ","),
           "expand": "\t", "od": None}.get(name)
    return [g.text(sep) for _ in range(3)]


def run_batch(argv, cwd, script, env):
    try:
        p = subprocess.run(argv + [script], cwd=cwd, capture_output=True, env=env, timeout=120)
        return p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "TIMEOUT"


def split_cases(out):
    res = {}
    for chunk in out.split(MARK + " ")[1:]:
        head, _, body = chunk.partition("\n")
        res[head.strip()] = body
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--sbx", default=os.path.join(ROOT, "build", "sbx"))
    ap.add_argument("--only", default="")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n] or list(GENS)
    env = dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC")
    failed = 0
    total = bad_cases = 0
    for name in names:
        rng = random.Random(f"{a.seed}:{name}")
        g = Gen(rng)
        d = tempfile.mkdtemp(prefix="sbxfuzz.")
        try:
            lines, cmds = [], []
            for i in range(a.cases):
                files = inputs(g, name)
                cmd = GENS[name](g)
                setup = "; ".join(f"printf %s {q(t)} > f{k + 1}" for k, t in enumerate(files))
                cmds.append((cmd, files))
                lines.append(f"{setup}; echo '{MARK} {i}'; {{ {cmd} ; }} 2>&1 </dev/null; echo \"@@@status $?\"")
            with open(os.path.join(d, "cases.sh"), "w") as f:
                f.write("\n".join(lines) + "\n")
            h = split_cases(run_batch(["bash", "-c"], d, ". ./cases.sh", env))
            s = split_cases(run_batch([a.sbx, "sh", "-c"], d, ". ./cases.sh", env))
        finally:
            shutil.rmtree(d, ignore_errors=True)
        nbad = 0
        for i, (cmd, files) in enumerate(cmds):
            total += 1
            hv, sv = h.get(str(i), "<missing>"), s.get(str(i), "<missing>")
            if hv != sv:
                nbad += 1
                if a.v or nbad <= 3:
                    print(f"--- {name} case {i}: {cmd}")
                    for k, t in enumerate(files):
                        if t and (f"f{k + 1}" in cmd or f"s{k + 1}" in cmd): print(f"    f{k + 1}={t!r}")
                    print(f"    gnu: {hv[:2000]!r}\n    sbx: {sv[:2000]!r}")
        bad_cases += nbad
        print(f"{name}: {a.cases - nbad}/{a.cases} match")
        if nbad: failed += 1
    print(f"total: {total - bad_cases}/{total} cases match")
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main())
