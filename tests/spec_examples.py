#!/usr/bin/python3
"""spec_examples.py -- SPEC.md's examples show the MessagePack of their JSON.

    /usr/bin/python3 tests/spec_examples.py ARBITER SPEC.md [--fix]

Every example of logformat/SPEC.md 7 is a JSON line in a ```json block,
followed by "MessagePack (N bytes):" and a block of hex bytes.  A table
author reads both, so they must agree: this converts each JSON line with
`arbiter convert` (the codec's own encoding, keys in their order) and
compares with the bytes shown.  --fix writes the right bytes and counts
into the file.  Exit 0 when every example agrees (or was fixed), 1 otherwise.
Standard library only.
"""
import re
import subprocess
import sys

BLOCK = re.compile(r"```json\n(?P<json>[^\n]*)\n```\n\nMessagePack \((?P<n>\d+) bytes\):\n\n```\n(?P<hex>[0-9a-f \n]*?)\n```")


def encode(arbiter, line):
    p = subprocess.run([arbiter, "convert", "--from", "jsonl", "--to", "mlog", "-", "-"],
                       input=(line + "\n").encode(), capture_output=True)
    if p.returncode:
        raise RuntimeError("arbiter convert refused %s: %s" % (line[:60], p.stderr.decode().strip()))
    return p.stdout


def dump(b):
    hx = ["%02x" % x for x in b]
    return "\n".join(" ".join(hx[i:i + 16]) for i in range(0, len(hx), 16))


def main():
    arbiter, path = sys.argv[1], sys.argv[2]
    fix = "--fix" in sys.argv[3:]
    text = open(path, encoding="utf-8").read()
    bad = []
    count = [0]

    def check(m):
        count[0] += 1
        b = encode(arbiter, m.group("json"))
        want = dump(b)
        if m.group("hex") == want and int(m.group("n")) == len(b):
            return m.group(0)
        bad.append(m.group("json")[:70])
        return "```json\n%s\n```\n\nMessagePack (%d bytes):\n\n```\n%s\n```" % (m.group("json"), len(b), want)

    new = BLOCK.sub(check, text)
    if fix and new != text:
        open(path, "w", encoding="utf-8").write(new)
    for b in bad:
        print("%s %s" % ("FIXED" if fix else "FAIL", b))
    print("spec_examples: %d examples, %d %s" % (count[0], len(bad), "fixed" if fix else "differ"))
    return 0 if fix or not bad else 1


if __name__ == "__main__":
    sys.exit(main())
