#!/usr/bin/env python3
# mutants.py -- the single-point mutants of one C file, for tests/mutate.sh.
#
#   mutants.py make FILE SEED N OUTDIR      write OUTDIR/NNN.c and OUTDIR/index.tsv
#   mutants.py report FILE SEED INDEX RESULTS NOTES OUT
#                                           write the Markdown report
#
# Why: a test suite is only as strong as the mistakes it notices.  A mutant
# is the file with one small mistake a programmer makes (a relational
# operator off by one, && for ||, a condition negated, + 1 for - 1, a
# constant changed, true for false, a statement deleted); a suite that still
# passes on it has a gap, unless the mutant is equivalent (no input can tell
# it from the original).  Sites are found in the code only: comments,
# strings, character constants and preprocessor lines are masked first.
# The mutants are drawn with a seeded RNG, every candidate (site and
# change) equally likely, without replacement: the same file and seed
# always give the same mutants.
#
# A mutant's id is a hash of its line's text (and which of the lines with
# that text it is), the column and the change, not of its line number: the notes file (one "ID<TAB>note" per line, the
# classification of a survivor: "equivalent: why" or "gap: the test that
# now kills it") stays attached when lines above it move.
import hashlib
import os
import random
import re
import sys

CLASSES = ["relational", "logical", "negate", "plus-minus-1", "constant", "boolean", "delete"]


def mask(text):
    """The text with comments, strings, chars and preprocessor lines blanked."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def matching_paren(m, i):
    depth = 0
    for j in range(i, len(m)):
        if m[j] == "(":
            depth += 1
        elif m[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
TYPE_WORDS = re.compile(r"^\s*(const|static|int|unsigned|char|bool|size_t|uint\d+_t|int\d+_t|long|short|"
                        r"double|float|struct|enum|typedef|extern|void|\w+_t)\b")
LVALUE = r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*\w+|\[[^\]]*\])*"
STATEMENT = re.compile(r"^(\s*)(" + LVALUE + r"\s*(?:[-+*/|&^]?=(?!=)|\+\+|--|\().*"
                       r"|return\b.*|break|continue|(?:\+\+|--)\w.*);\s*$")


def candidates(text):
    """Every (class, start, end, replacement) the file offers."""
    m = mask(text)
    out = []
    for r in re.finditer(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])", m):
        out.append(("relational", r.start(), r.end(), REL[r.group(1)]))
    for r in re.finditer(r"&&|\|\|", m):
        out.append(("logical", r.start(), r.end(), "||" if r.group() == "&&" else "&&"))
    for r in re.finditer(r"\b(if|while)\s*\(", m):
        o = r.end() - 1
        c = matching_paren(m, o)
        if c > o + 1:
            out.append(("negate", o + 1, c, "!(" + text[o + 1:c] + ")"))
    for r in re.finditer(r"(?<![+-])([+-]) 1\b(?![.\w])", m):
        out.append(("plus-minus-1", r.start(1), r.end(1), "-" if r.group(1) == "+" else "+"))
    for r in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", m):
        v = int(r.group(1))
        out.append(("constant", r.start(), r.end(), str(0 if v == 1 else v + 1)))
    for r in re.finditer(r"\b(true|false)\b", m):
        out.append(("boolean", r.start(), r.end(), "false" if r.group() == "true" else "true"))
    pos = 0
    for line in m.split("\n"):
        s = STATEMENT.match(line)
        if s and not TYPE_WORDS.match(line) and line.count("(") == line.count(")") and "{" not in line \
                and "}" not in line and not line.rstrip().endswith(":"):
            start = pos + len(s.group(1))
            end = pos + len(line.rstrip())
            out.append(("delete", start, end, ";"))
        pos += len(line) + 1
    return out


def describe(text, c):
    cls, a, b, rep = c
    line_no = text.count("\n", 0, a) + 1
    ls = text.rfind("\n", 0, a) + 1
    le = text.find("\n", b)
    le = len(text) if le < 0 else le
    line = text[ls:le]
    if cls == "negate":
        change = "if (X) -> if (!(X)) on `%s`" % " ".join(text[a:b].split())[:70]
    elif cls == "delete":
        change = "delete `%s`" % " ".join(text[a:b].split())[:80]
    else:
        change = "`%s` -> `%s`" % (text[a:b], rep)
    # the same text on several lines (`return;`): which of them, counted from the top
    nth = sum(1 for l in text[:ls].split("\n") if l.strip() == line.strip())
    key = "%s|%s|%d|%d|%s" % (cls, line.strip(), nth, a - ls - (len(line) - len(line.lstrip())), rep)
    mid = hashlib.sha1(key.encode()).hexdigest()[:8]
    return mid, line_no, change


def draw(text, seed, n):
    cands = candidates(text)
    random.Random(seed).shuffle(cands)
    chosen, seen = [], set()
    for c in cands:
        mid = describe(text, c)[0]
        if mid not in seen and len(chosen) < n:
            seen.add(mid)
            chosen.append(c)
    return chosen


def cmd_make(path, seed, n, outdir):
    text = open(path).read()
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "index.tsv"), "w") as idx:
        for i, c in enumerate(draw(text, int(seed), int(n)), 1):
            _, a, b, rep = c
            with open(os.path.join(outdir, "%03d.c" % i), "w") as f:
                f.write(text[:a] + rep + text[b:])
            mid, line_no, change = describe(text, c)
            idx.write("%03d\t%s\t%d\t%s\t%s\n" % (i, mid, line_no, c[0], change.replace("\t", " ")))


def cmd_report(path, seed, index, results, notes, out):
    rows = [l.rstrip("\n").split("\t") for l in open(index)]
    res = dict(l.rstrip("\n").split("\t", 1) for l in open(results) if "\t" in l)
    note = {}
    if os.path.exists(notes):
        for l in open(notes):
            if "\t" in l and not l.startswith("#"):
                k, v = l.rstrip("\n").split("\t", 1)
                note[k] = v
    killed = sum(1 for r in rows if res.get(r[0], "").startswith("killed"))
    stillborn = sum(1 for r in rows if res.get(r[0], "").startswith("stillborn"))
    survived = [r for r in rows if res.get(r[0], "").startswith("survived")]
    equivalent = [r for r in survived if note.get(r[1], "").startswith("equivalent")]
    live = len(rows) - stillborn - len(equivalent)
    score = 100.0 * killed / live if live else 0.0
    name = os.path.basename(path)
    with open(out, "w") as f:
        f.write("# Mutation testing of `%s`\n\n" % path)
        f.write("Written by `tests/mutate.sh` (`make mutate`); the classification of each survivor comes\n"
                "from `tests/%s`.  Seed %s, %d mutants, each compiled at -O0 with UBSan and run against\n"
                "%s.\n\n"
                % (os.path.basename(notes), seed, len(rows),
                   os.environ.get("MUTATE_SUITES", "the engine suites").replace(" ", ", ")))
        f.write("| | count |\n|---|---|\n")
        f.write("| killed (a suite failed or timed out) | %d |\n" % killed)
        f.write("| stillborn (did not compile; not counted) | %d |\n" % stillborn)
        f.write("| survived, equivalent (not counted) | %d |\n" % len(equivalent))
        f.write("| survived, not equivalent | %d |\n" % (len(survived) - len(equivalent)))
        f.write("| **score: killed / non-equivalent mutants that compile** | **%d / %d = %.1f%%** |\n\n"
                % (killed, live, score))
        f.write("| # | id | line | class | change | result | note |\n|---|---|---|---|---|---|---|\n")
        for r in rows:
            num, mid, line_no, cls, change = r
            f.write("| %s | %s | %s | %s | %s | %s | %s |\n"
                    % (num, mid, line_no, cls, change.replace("|", "\\|"),
                       res.get(num, "not run").replace("|", "\\|"), note.get(mid, "").replace("|", "\\|")))
    print("%s: killed %d of %d non-equivalent mutants (%.1f%%); %d stillborn, %d equivalent, %d survived unclassified"
          % (name, killed, live, score, stillborn, len(equivalent),
             sum(1 for r in survived if r[1] not in note)))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "make":
        cmd_make(*sys.argv[2:])
    elif len(sys.argv) == 8 and sys.argv[1] == "report":
        cmd_report(*sys.argv[2:])
    else:
        sys.exit(__doc__ if __doc__ else "usage: see the comment at the top of mutants.py")
