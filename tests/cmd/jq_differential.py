#!/usr/bin/python3
"""Differential test of sbx's jq (jq 1.8) against the host's jq binary (1.6).

Random filters, built from templates over the parts of the language where
jq 1.8 and jq 1.6 agree (paths, reduce/foreach, label/break, try/catch,
string functions, sort/group/unique_by, math, @formats, getpath/setpath/
delpaths, limit/first/until, input/inputs with -n, --arg/--argjson/--args),
run over random JSON inputs. Each filter and input is one case: stdout and
the exit status must be equal byte for byte (error texts are not compared:
jq 1.8 quotes values differently). Inputs keep to integers and canonical
decimals, which both versions print alike.

All cases run in one script, through `sbx sh` and the host's bash, so the run
takes seconds. Prints "N passed, N failed" and exits 1 on a difference.

    jq_differential.py [--seed N] [--cases N] [--sbx PATH] [--jq PATH] [-v]

--sbx build-asan/sbx runs sbx's side under ASan+UBSan: a sanitizer report
fails the run.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

WORDS = ["a", "b", "ab", "ba", "abc", "x,y", "a b", "A", "Zz", "", "é", "ñu", "a-b", "10", "1.5",
         "<&>", "q&r", "tab\t", "line\nbreak", "\"quoted\"", "π=3"]
KEYS = ["a", "b", "c", "id", "name", "x"]


def rnum(rng):
    x = rng.choice([0, 1, 2, 3, -1, 7, 10, 42, 100, -17, 1000000, 2.5, -0.5, 0.25, 3.75, 123456789,
                       rng.randint(-50, 50), rng.randint(0, 10**6), round(rng.uniform(-100, 100), 2)])
    return int(x) if x == int(x) else x  # -53.0 keeps its literal in 1.8


def rscalar(rng):
    r = rng.random()
    if r < 0.45:
        return rnum(rng)
    if r < 0.85:
        return rng.choice(WORDS)
    return rng.choice([None, True, False])


def rvalue(rng, depth=0):
    r = rng.random()
    if depth >= 3 or r < 0.45:
        return rscalar(rng)
    if r < 0.72:
        return [rvalue(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {rng.choice(KEYS): rvalue(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def rinput(rng, kind):
    """An input for a template family: numbers, strings, records, or anything."""
    if kind == "nums":
        return [rnum(rng) for _ in range(rng.randint(0, 8))]
    if kind == "strs":
        return [rng.choice(WORDS) for _ in range(rng.randint(0, 6))]
    if kind == "str":
        return rng.choice(WORDS) + rng.choice(WORDS)
    if kind == "recs":
        return [{"a": rng.randint(0, 3), "b": rng.choice(WORDS[:6]), "c": rnum(rng)}
                for _ in range(rng.randint(0, 7))]
    if kind == "obj":
        return {k: rvalue(rng, 1) for k in rng.sample(KEYS, rng.randint(0, 5))}
    return rvalue(rng)


def lit(rng):
    return json.dumps(rng.choice(WORDS[:9]))


# (input kind, template); {s} a string literal, {n} a small integer, {k} a key.
# Left out, as jq 1.8 differs from 1.6 there on purpose: `a // b` with an
# error in a (1.8 suppresses it), last(empty) and nth past the end (1.8
# gives nothing, 1.6 null or the last), @uri of "'" (1.8 escapes it),
# index/indices on non-ASCII strings (1.8 counts codepoints), ltrimstr of
# non-strings, implode of invalid codepoints, limit(0; ...), keys sorted
# by codepoint, `tostring` of 1.0-style literals (1.8 keeps them), error(null)
# caught (1.8 gives null to catch, 1.6 nothing).
TEMPLATES = [
    # paths
    ("any", "[paths]"), ("any", "[paths(type == \"number\")]"), ("any", "[leaf_paths]"),
    ("any", "[path(..)]"), ("obj", "getpath([\"{k}\"])"), ("any", "[getpath([\"a\",0], [\"b\"])?]"),
    ("obj", "setpath([\"{k}\"]; {n})"), ("obj", "setpath([\"{k}\", \"{k}\"]; 1)?"),
    ("obj", "delpaths([[\"{k}\"], [\"{k}\"]])"), ("nums", "delpaths([[{n}], [0]])"),
    ("obj", "to_entries"), ("obj", "with_entries(.value |= type)"), ("obj", "del(.{k})"),
    ("nums", "del(.[{n}, 0])"), ("obj", "[paths] | length"), ("any", "[paths(type == \"array\")] | length"),
    ("obj", "to_entries | from_entries"), ("obj", "keys_unsorted"), ("obj", "[.[]?]"),
    ("nums", "to_entries | map(.key)"), ("recs", "map(.a) | paths"), ("obj", "has(\"{k}\")"),
    ("recs", ".[0].a = {n}"), ("recs", ".[].c |= tostring"), ("recs", "map(.a += 1)"),
    ("nums", ".[1:3]"), ("nums", ".[-2:]"), ("nums", ".[:{n}]"), ("str", ".[1:{n}]"),
    ("nums", "(.. | numbers) |= . * 2"), ("obj", "(.. | strings) |= ascii_upcase"),
    ("nums", "to_entries | map(select(.key % 2 == 0) | .value)"), ("any", "tostream"),
    ("any", "[tostream] | fromstream(.[])"), ("any", "[.. | scalars]"),
    # reduce / foreach
    ("nums", "reduce .[] as $x (0; . + $x)"), ("nums", "[foreach .[] as $x (0; . + $x)]"),
    ("nums", "[foreach .[] as $x (0; . + $x; [$x, .])]"), ("nums", "reduce .[] as $x (null; if . == null or $x > . then $x else . end)"),
    ("recs", "reduce .[] as {{a: $a, c: $c}} ({{}}; .[$a | tostring] += [$c])"),
    ("nums", "[foreach range({n}) as $i (.; .[1:])] | length"), ("strs", "reduce .[] as $s (\"\"; . + $s)"),
    ("nums", ". as [$a, $b] | [$a, $b]"), ("obj", ". as {{a: $x}} | [$x]"),
    ("nums", "[.[] as $x | $x * 2]"), ("recs", "[.[] | . as {{b: $b}} | $b]"),
    # label / break, limit, first, until
    ("nums", "[label $f | .[] | if . > {n} then ., break $f else . end]"),
    ("nums", "[limit({n} + 1; .[])]"), ("nums", "first(.[])?"), ("nums", "[first(range(10; 0; -3))]"),
    ("nums", "[.[] | select(type == \"number\") | until(. > 100 or . <= 0; . * 2)]"),
    ("nums", "[range({n})]"), ("nums", "[range(1; {n})]"), ("nums", "[range(0; 10; {n} + 1)]"),
    ("nums", "[limit(3; repeat(1))]"), ("nums", "isempty(.[])"), ("nums", "[.[] | while(. < 50 and . > 0; . * 3)]"),
    ("nums", "last(0, .[])"), ("nums", "nth(1; 9, 8, .[])"), ("nums", "[recurse(if . < 20 then . + 7 else empty end)] | length"),
    # try / catch, errors, alternatives
    ("any", "[.[]? | try error(\"x\") catch .]"), ("nums", "[.[] | try (if . > 5 then error(\"big\") else . end) catch \"c\"]"),
    ("any", "[.. | tonumber? // \"n\"]"), ("any", ".a? // \"none\""), ("nums", "[.[] | (. / 0)?]"),
    ("str", "try error catch ."), ("any", "error(\"boom\")"), ("any", "[.[]?]"), ("any", ".[0]?"),
    ("obj", "(.a // .b) // 5"), ("strs", "[.[] | try tonumber catch \"nan\"]"), ("any", "tojson | fromjson"),
    # strings
    ("str", "ascii_downcase"), ("str", "ascii_upcase"), ("str", "ltrimstr({s})"), ("str", "rtrimstr({s})"),
    ("str", "split({s})"), ("strs", "join(\"-\")"), ("strs", "join(\", \")"), ("str", "test({s})"),
    ("str", "startswith({s})"), ("str", "endswith({s})"), ("str", "explode"), ("str", "explode | implode"),
    ("str", "length"), ("str", "utf8bytelength"), ("str", "[match(\"[ab]\"; \"g\") | .offset]"),
    ("str", "sub(\"a\"; \"X\")"), ("str", "gsub(\"[ab]\"; \"<\\(.)>\")"), ("str", "[scan(\"[a-z]\")]"),
    ("str", "[splits(\", *\")]"), ("str", "capture(\"(?<x>[a-z])(?<y>[a-z]?)\")?"), ("str", "ascii"),
    ("strs", "map(ascii_downcase) | unique"), ("strs", "map(length)"), ("str", "tostring"), ("any", "tostring"),
    ("any", "tojson"), ("str", ". * 2"), ("strs", "map(. + \"!\")"), ("str", "\"[\\(.)]\""),
    ("str", "test(\"A\"; \"i\")"), ("str", "[match(\"(a)|(b)\"; \"g\") | .captures | map(.string)]"),
    ("strs", "sort"), ("strs", "map(select(startswith(\"a\")))"), ("str", "split(\"\")"),
    ("str", "ltrimstr(\"a\") | rtrimstr(\"b\")"), ("strs", "add"), ("strs", "index(\"a\")"),
    ("strs", "[.[] | splits(\"b\")]"), ("str", "[.[2:], .[:2]]"), ("str", "contains({s})"), ("strs", "inside([\"a\", \"b\", \"\"])"),
    # sort / group / unique / min / max
    ("recs", "sort_by(.a)"), ("recs", "sort_by(.a, .b)"), ("recs", "group_by(.a)"), ("recs", "unique_by(.b)"),
    ("recs", "min_by(.c)"), ("recs", "max_by(.a)"), ("recs", "map(.b) | unique"), ("nums", "sort"),
    ("nums", "unique"), ("nums", "min"), ("nums", "max"), ("any", "[.. ] | sort | length"),
    ("recs", "group_by(.a) | map({{a: .[0].a, n: length, s: (map(.c) | add)}})"), ("nums", "sort_by(-.)"),
    ("any", "[..] | sort"), ("recs", "map(select(.a > 1)) | length"), ("recs", "INDEX(.b) | keys"),
    ("recs", "[.[] | {{a, b}}]"), ("recs", "map(has(\"a\"))"), ("nums", "any(. > 10)"), ("nums", "all(. > -100)"),
    ("nums", "[.[] | [., . % 3]] | group_by(.[1]) | map(map(.[0]))"), ("recs", "map(to_entries) | flatten | length"),
    ("any", "flatten?"), ("any", "[..] | flatten(1) | length"), ("nums", "reverse"), ("nums", "indices(1)"),
    ("nums", "contains([1])"), ("nums", "add"), ("nums", "length"), ("nums", "map(. * 10) | add"),
    ("recs", "map(.c) | add"), ("nums", "[.[] | tostring] | join(\",\")"), ("nums", "transpose?"),
    ("recs", "map(keys) | add | unique"), ("obj", "keys"), ("obj", "length"), ("obj", "[.[] | type]"),
    ("obj", "map_values(type)"), ("obj", "to_entries | map(.key) | join(\"\")"), ("obj", "add?"),
    # math
    ("nums", "map(floor)"), ("nums", "map(ceil)"), ("nums", "map(fabs)"), ("nums", "map(sqrt) | map(. * 1000 | floor)"),
    ("nums", "map(. * . )"), ("nums", "map(-.)"), ("nums", "map(. % 7)?"), ("nums", "map(pow(.; 2))"),
    ("nums", "map(log10? | floor?)"), ("nums", "map(exp | . > 1)"), ("nums", "map(round)"), ("nums", "map(. / 4)"),
    ("nums", "map(tostring | tonumber)"), ("nums", "[.[] | . == 1, . < 3]"), ("nums", "[.[] | type]"),
    ("nums", "map(significand?)"), ("nums", "[.[] | log2 | floor?]"), ("nums", "map(. + 0.5 | floor)"),
    ("nums", "map(fmin(.; 3))"), ("nums", "[infinite, -infinite] | map(. > 0)"), ("nums", "[nan] | map(isnan)"),
    ("nums", "map(isinfinite)"), ("nums", "map(isnormal)"), ("nums", "[.[] | trunc?]"),
    # @formats
    ("any", "@json"), ("any", "@text"), ("str", "@base64"), ("str", "@base64 | @base64d"), ("str", "@uri"),
    ("str", "@html"), ("str", "@sh"), ("strs", "@sh"), ("strs", "@csv"), ("strs", "@tsv"), ("nums", "@csv"),
    ("nums", "@tsv"), ("str", "@json \"v=\\(.)\""), ("str", "@uri \"q=\\(.)\""), ("recs", "map([.a, .b] | @csv)"),
    ("str", "@html \"<p>\\(.)</p>\""), ("any", "[.. | @text] | length"),
    # misc
    ("any", "type"), ("any", "length?"), ("any", "[.. | type] | unique"), ("any", "..|numbers"),
    ("any", "[..] | length"), ("any", "select(type == \"object\")"), ("any", "arrays"), ("any", "[.. | objects | keys]"),
    ("any", "if type == \"array\" then length else 0 end"), ("any", ". == ."), ("any", "[., .] | unique | length"),
    ("any", "walk(if type == \"number\" then . + 1 else . end)"), ("any", "getpath([\"a\"])?"),
    ("any", "splits(\"a\")?"), ("any", "env | type"), ("any", "$ENV | type"), ("any", "input_line_number"),
    ("any", "[limit(2; .[]?)]"), ("any", "[limit(1; .[]?)]"), ("any", "not"), ("any", "[true, false, null] | map(not)"),
    ("any", "{{a: 1}} + (if type == \"object\" then . else {{}} end)"), ("any", "[.[]?] | length"),
    ("any", "def f(x): x * 2; [.. | numbers | f(.)]"), ("any", "def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; [.. | numbers | select(. >= 0 and . < 15) | floor | fac]"),
    ("any", "[recurse | type] | length"), ("any", "tojson | length"), ("any", "[splits(\"b\")?]"),
    ("obj", "with_entries(select(.value | type == \"string\"))"), ("obj", ". * {{a: {{b: 1}}}}"), ("obj", "{{x: 1}} * ."),
    ("recs", "[.[] | select(.b | test(\"a\"))] | length"), ("recs", "map(.b) | join(\"|\")"),
    ("strs", "map(@base64)"), ("strs", "map(@uri)"), ("recs", "@json"), ("nums", "[.[] | tojson]"),
    ("obj", "[paths(..)]"), ("obj", "[leaf_paths | join(\".\")?]"), ("obj", "to_entries | map(\"\\(.key)=\\(.value)\")"),
    ("nums", "[splits(\"x\")?]"), ("nums", "[.[] | if . > 3 then \"big\" elif . > 0 then \"small\" else \"neg\" end]"),
    ("nums", ".[] |= . + 1"), ("nums", "map(select(. > 0)) |= map(. * 2)"), ("nums", "[.[] | {{v: .}}] | map(.v)"),
    ("recs", "map({{(.b): .a}}) | add"), ("recs", "[.[] | .a as $a | .c | . + $a]"), ("any", "[getpath([\"a\",\"b\"])?]"),
]

# Runs with options (-n and inputs, --arg, --argjson, --args): (flags, program, stdin or None).
OPTION_CASES = [
    ("-n", "[inputs]", "1 2 [3] {\"a\":4}"), ("-n", "input", "5 6"), ("-n", "reduce inputs as $x (0; . + 1)", "1 2 3"),
    ("-n", "[inputs | select(. > 1)]", "1 2 3"), ("-n", "input, input", "\"a\" \"b\" \"c\""), ("-n", "[inputs] | add", "[1] [2] [3]"),
    ("-n", "first(inputs)", "7 8"), ("-n", "[limit(2; inputs)]", "1 2 3 4"), ("", "[., input]", "1 2 3 4"),
    ("-n --arg x hello", "$x", None), ("-n --arg x 1", "$x | tonumber + 1", None), ("-n --argjson v {\"a\":[1,2]}", "$v.a", None),
    ("-n --arg a 1 --arg b 2", "[$a, $b]", None), ("-n --argjson n 5", "[range($n)]", None),
    ("-n --arg x 3", "$ARGS.named", None), ("-nc --args", "$ARGS.positional", None),
    ("-c --arg k a", ".[$k]", "{\"a\": 1}"), ("-r", ".[]", "[\"a\", \"b\\tc\"]"), ("-j", ".[]", "[\"a\", 1, \"b\"]"),
    ("-s", ".", "1 2 3"), ("-s", "add", "1 2 3"), ("-c", ".", "{\"b\":1,\"a\":2}"), ("-S -c", ".", "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}"),
    ("-e", ".a", "{\"a\": false}"), ("-e", ".a", "{\"a\": 1}"), ("-e", "empty", "1"), ("--tab", ".", "{\"a\":[1]}"),
    ("--indent 1", ".", "{\"a\":[1,{\"b\":2}]}"), ("-a -c", ".", "[\"é\", \"π\"]"), ("-r", "@csv", "[1, \"a,b\"]"),
    ("-n", "[inputs] | length", ""), ("-c --slurp", "map(. * 2)", "1 2"), ("-R", ".", "line one\nline two\n"),
    ("-R -s", ".", "a\nb\n"), ("-R -n", "[inputs]", "x\ny\n"), ("-c", ".[] | .a", "[{\"a\":1},{\"a\":[2]},{\"b\":3}]"),
    ("-c", ".[] | select(.x > 1) | .name", "[{\"x\":1,\"name\":\"a\"},{\"x\":2,\"name\":\"b\"},{\"x\":3,\"name\":\"c\"}]"),
    ("-c", ".[] | .+1", "[1, 2, \"a\", 3] [10]"), ("-c", ".[]", "[] [[]] {\"a\":1} 5"),
]


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def build_cases(rng, n):
    cases = []
    for i in range(n):
        kind, tpl = rng.choice(TEMPLATES)
        prog = tpl.format(s=lit(rng), n=rng.randint(0, 4), k=rng.choice(KEYS[:3]))
        inp = json.dumps(rinput(rng, kind), ensure_ascii=rng.random() < 0.3)
        cases.append(("-c", prog, inp))
    for flags, prog, inp in OPTION_CASES:
        args = ""
        if "--args" in flags:
            args = " a 'b c'"
        cases.append((flags, prog + "\x00" + args, inp))
    return cases


def script_for(cases):
    out = []
    for i, (flags, prog, inp) in enumerate(cases):
        extra = ""
        if "\x00" in prog:
            prog, extra = prog.split("\x00")
        cmd = "jq %s %s%s 2>/dev/null" % (flags, quote(prog), extra)
        out.append("echo '@@CASE %d'" % i)
        if inp is None:
            out.append(cmd + " </dev/null")
        else:
            out.append(cmd + " <<'@@IN'\n" + inp + "\n@@IN")
        out.append("rc=$?; echo; echo \"@@RC $rc\"")  # -j leaves no newline
    return "\n".join(out) + "\n"


def split_results(text, n):
    res = {}
    cur, buf = None, []
    for line in text.split("\n"):
        if line.startswith("@@CASE "):
            cur, buf = int(line[7:]), []
        elif line.startswith("@@RC ") and cur is not None:
            res[cur] = ("\n".join(buf), line[5:])
            cur = None
        elif cur is not None:
            buf.append(line)
    return [res.get(i) for i in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=1500)
    ap.add_argument("--sbx", default=os.path.join(ROOT, "build", "sbx"))
    ap.add_argument("--jq", default=shutil.which("jq") or "/usr/bin/jq")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    a.sbx = os.path.abspath(a.sbx)
    if not os.path.exists(a.jq):
        print("jq_differential: no host jq (apt-get install jq)", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    rng = random.Random(a.seed)
    cases = build_cases(rng, a.cases)
    script = script_for(cases)
    env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.path.dirname(a.jq) + ":/usr/bin:/bin"}
    work = tempfile.mkdtemp(prefix="jqdiff.")
    try:
        path = os.path.join(work, "cases.sh")
        with open(path, "w") as f:
            f.write(script)
        host = subprocess.run(["bash", path], capture_output=True, env=env, timeout=600, cwd=work)
        sbx = subprocess.run([a.sbx, "sh", "cases.sh"], capture_output=True, env=env, timeout=600, cwd=work)
    finally:
        shutil.rmtree(work)
    hr = split_results(host.stdout.decode("utf-8", "replace"), len(cases))
    sr = split_results(sbx.stdout.decode("utf-8", "replace"), len(cases))
    passed = failed = 0
    for i, case in enumerate(cases):
        if hr[i] == sr[i] and hr[i] is not None:
            passed += 1
            continue
        failed += 1
        if a.v or failed <= 20:
            flags, prog, inp = case
            print("DIFF case %d: jq %s %s" % (i, flags, quote(prog.replace("\x00", " "))))
            print("  input: %s" % (inp if inp is None or len(inp) < 300 else inp[:300] + "..."))
            print("  jq 1.6: %r" % (hr[i],))
            print("  sbx:    %r" % (sr[i],))
    err = sbx.stderr.decode("utf-8", "replace")
    if "Sanitizer" in err or "runtime error:" in err:
        failed += 1
        print("sanitizer report from %s:\n%s" % (a.sbx, err[:4000]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
