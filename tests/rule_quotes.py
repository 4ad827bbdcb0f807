#!/usr/bin/python3
"""rule_quotes.py TOP BOOKS -- every quote of the rule catalogues is verbatim.

Each row of verifiers/<format>/rules.c carries the sentence it rests on
(rules.c's header: "quotes verbatim, lines joined by one space and list
markers dropped").  A row of a rulebook rule must be found word for word in
BOOKS/<format>.md; a ruling's row (an id A<n>, M<n> or R<n>) in the format's
RULINGS.md, or for Snap's R<n> in BOOKS/snap-rulings.md; a rule the
rulebook states in no sentence of its own may quote the ruling that settles
it.  Whitespace is
compared as one space, and a line's list marker ("- ", "• ", "1. ") is
dropped, as the catalogues do.  Prints one FAIL line per quote not found
and a summary; exits 1 when any is missing."""
import os
import re
import sys


def flat(text):
    lines = (re.sub(r"^(?:[-*•]|\d+\.)\s+", "", line.strip()) for line in text.split("\n"))
    return " ".join(" ".join(lines).split())


def rows(path, macro):
    src = open(path, encoding="utf-8").read()
    for rid, lits in re.findall(r'\{' + macro + r'\("([^"]+)"\),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),', src):
        text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lits))
        yield rid, " ".join(text.replace('\\"', '"').replace("\\\\", "\\").split())


def engines(top):
    """Every engine folder with a catalogue, and the rulebook its README
    names ("the ... rulebook (`classic-snap.md`"), else <format>.md: the
    engines are found, never listed here, so a new one is checked too."""
    root = os.path.join(top, "verifiers")
    for fmt in sorted(os.listdir(root)):
        if not os.path.isfile(os.path.join(root, fmt, "rules.c")):
            continue
        book = fmt + ".md"
        readme = os.path.join(root, fmt, "README.md")
        if os.path.isfile(readme):
            m = re.search(r"rulebook \(`([\w.-]+\.md)`", open(readme, encoding="utf-8").read())
            if m:
                book = m.group(1)
        yield fmt, book


def main(top, books):
    n = bad = 0
    for fmt, name in engines(top):
        book = flat(open(os.path.join(books, name), encoding="utf-8").read())
        rulings = flat(open(os.path.join(top, "verifiers", fmt, "RULINGS.md"), encoding="utf-8").read())
        if fmt == "snap":
            rulings += " " + flat(open(os.path.join(books, "snap-rulings.md"), encoding="utf-8").read())
        for rid, quote in rows(os.path.join(top, "verifiers", fmt, "rules.c"), fmt.upper()):
            n += 1
            # a ruling's row quotes the ruling; a rule the rulebook states in
            # no sentence of its own (master:field.from_hand) quotes the
            # ruling that settles it (M12)
            ruling = re.match(r"^[ARM]\d+$", rid)
            if quote not in rulings and (ruling or quote not in book):
                bad += 1
                print("FAIL %s:%s: not found word for word: %s" % (fmt, rid, quote[:100]))
    print("%d quotes of the rule catalogues, %d not found word for word" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
