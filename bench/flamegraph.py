#!/usr/bin/python3
"""bench/flamegraph.py -- `perf script` output to folded stacks and an SVG
flame graph, with nothing but Python 3's standard library.

    perf script -i perf.data | bench/flamegraph.py --folded OUT.folded \
        --title TITLE OUT.svg

Why here: Debian packages no flamegraph.pl / stackcollapse-perf.pl, and the
benchmarks must run on a machine without network.  This is the same idea as
Brendan Gregg's tools, cut to what bench/flamegraph needs.

How: `perf script` prints each sample as a header line ("comm pid time:
period event:") followed by one indented line per frame, innermost first
("addr symbol+0xoff (dso)"), and a blank line.  Folding turns each sample
into "comm;outer;...;inner" and counts the samples of each such stack
(offsets dropped, an unknown symbol named by its dso).  The SVG draws the
merged tree: a box per frame, its width the share of samples that passed
through it, roots at the bottom, children above their parent sorted by
name (a flame graph's x axis is not time).  Each box carries a <title>
(the frame, its samples and percentage) that a browser shows on hover;
names are cut to fit their box.
"""
import argparse
import html
import re
import sys
import zlib

FRAME = re.compile(r"^\s*[0-9a-fA-F]+\s+(.*?)\s+\((.*)\)\s*$")


def fold(lines):
    """Counts of "comm;outer;...;inner" over the samples of perf script."""
    counts = {}
    comm, frames = None, []

    def flush():
        if comm is not None:
            key = ";".join([comm] + frames[::-1])
            counts[key] = counts.get(key, 0) + 1

    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            flush()
            comm, frames = None, []
        elif not line[0].isspace():
            flush()
            comm, frames = line.split()[0], []
        else:
            m = FRAME.match(line)
            if not m:
                continue
            sym, dso = m.group(1), m.group(2)
            sym = re.sub(r"\+0x[0-9a-fA-F]+$", "", sym)
            if sym == "[unknown]":
                if dso == "[unknown]":
                    continue   # the end of a broken stack: says nothing
                sym = "[" + dso.rsplit("/", 1)[-1] + "]"
            frames.append(sym.replace(";", ":"))
    flush()
    return counts


def tree(counts):
    """Nested {"n": samples, "c": {name: node}} of the folded stacks."""
    root = {"n": 0, "c": {}}
    for stack, n in counts.items():
        root["n"] += n
        node = root
        for name in stack.split(";"):
            node = node["c"].setdefault(name, {"n": 0, "c": {}})
            node["n"] += n
    return root


def colour(name):
    """A warm colour, the same for the same name in every graph."""
    h = zlib.crc32(name.encode())
    return "rgb(%d,%d,%d)" % (205 + h % 50, 80 + (h >> 8) % 130, (h >> 16) % 55)


def depth(node):
    return 1 + max((depth(c) for c in node["c"].values()), default=0)


def svg(root, title, width=1200, row=17, font=12):
    total = max(root["n"], 1)
    levels = depth(root) - 1
    top, pad = 40, 10
    height = top + levels * row + 30
    scale = (width - 2 * pad) / total
    out = [
        '<?xml version="1.0" standalone="no"?>',
        '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'viewBox="0 0 %d %d">' % (width, height, width, height),
        '<rect x="0" y="0" width="100%" height="100%" fill="#f8f8f4"/>',
        '<style>text { font-family: "DejaVu Sans Mono", monospace; font-size: %dpx; }</style>' % font,
        '<text x="%d" y="24" style="font-size: %dpx">%s</text>'
        % (width // 2 - len(title) * 4, font + 4, html.escape(title)),
        '<text x="%d" y="%d">%d samples; width is the share of samples, '
        'roots at the bottom; hover a box for its figures</text>'
        % (pad, height - 8, root["n"]),
    ]
    char_w = font * 0.6

    def draw(name, node, x, level):
        w = node["n"] * scale
        if w < 0.3:
            return
        y = height - 30 - (level + 1) * row
        pct = 100.0 * node["n"] / total
        label = "%s (%d samples, %.2f%%)" % (name, node["n"], pct)
        out.append('<g><title>%s</title><rect x="%.2f" y="%d" width="%.2f" height="%d" '
                   'fill="%s" rx="2" ry="2"/>' % (html.escape(label), x, y, w, row - 1, colour(name)))
        fit = int((w - 6) / char_w)
        if fit >= 3:
            text = name if len(name) <= fit else name[: fit - 2] + ".."
            out.append('<text x="%.2f" y="%d">%s</text>' % (x + 3, y + row - 5, html.escape(text)))
        out.append("</g>")
        cx = x
        for cname in sorted(node["c"]):
            child = node["c"][cname]
            draw(cname, child, cx, level + 1)
            cx += child["n"] * scale

    x = pad
    for name in sorted(root["c"]):
        draw(name, root["c"][name], x, 0)
        x += root["c"][name]["n"] * scale
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description="perf script (stdin) to folded stacks and an SVG flame graph")
    ap.add_argument("svg", help="the SVG to write")
    ap.add_argument("--folded", help="also write the folded stacks here")
    ap.add_argument("--title", default="flame graph")
    a = ap.parse_args()
    counts = fold(sys.stdin)
    if not counts:
        sys.exit("flamegraph.py: no sample in the input: is it perf script's output?")
    if a.folded:
        with open(a.folded, "w") as f:
            for stack in sorted(counts):
                f.write("%s %d\n" % (stack, counts[stack]))
    with open(a.svg, "w") as f:
        f.write(svg(tree(counts), a.title))


if __name__ == "__main__":
    main()
