#!/usr/bin/env python3
"""layering.py ROOT -- the include arrows of the tree (tests/e2e_layering.sh).

Prints one line per violation, nothing when the tree is clean:

  seam  FILE:LINE: INCLUDE   a file outside verifiers/<format>/ includes a
                             header of that format (only the format's own
                             suites and the Snap game generator may)
  up    FILE:LINE: INCLUDE   an include points up the layers, or sideways
                             between the daemon and the command line
  loop  A -> B -> ... -> A   modules (a .c and its .h) that include each
                             other, directly or round a longer loop

The layers, lowest first (Makefile.am lists the sources in this order):
logformat/, verifiers/, src/core/, src/record/, src/pg/, src/tournament/, then
src/daemon/ and src/cli/ side by side.  Files outside them (tests, bench,
fuzz, examples) may include anything but a format's headers.
"""
import collections
import os
import re
import sys

LAYERS = {'logformat': 0, 'verifiers': 1, 'src/core': 2, 'src/record': 3, 'src/pg': 4, 'src/tournament': 5,
          'src/daemon': 6, 'src/cli': 6}
INCLUDE = re.compile(r'\s*#\s*include\s*"([^"]+)"')


def layer(path):
    for k in sorted(LAYERS, key=len, reverse=True):
        if path.startswith(k + '/'):
            return k
    return None


def seam_allowed(path, fmt):
    """A file outside verifiers/<fmt>/ that may include fmt's headers."""
    name = os.path.basename(path)
    if path.startswith('tests/'):
        if re.fullmatch(r'test_%s.*\.c|%sscript\.[ch]' % (fmt, fmt), name):
            return True
        return name in ('duelscript.c', 'duelscript.h') and fmt in ('advanced', 'master')
    # the Snap game generator plays from the engine's own state (its
    # opening comment says why); a program of bench/, never in the library
    return path == 'bench/gen_games.c' and fmt == 'snap'


def sources(root):
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(('build', '.git'))]
        for f in files:
            if f.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(dirpath, f), root)


def main(root):
    formats = [d for d in os.listdir(os.path.join(root, 'verifiers'))
               if os.path.isdir(os.path.join(root, 'verifiers', d))]
    out, edges = [], collections.defaultdict(set)
    for path in sorted(sources(root)):
        here = layer(path)
        with open(os.path.join(root, path), errors='replace') as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                for fmt in formats:
                    if (inc.startswith('verifiers/%s/' % fmt) and not path.startswith('verifiers/%s/' % fmt)
                            and not seam_allowed(path, fmt)):
                        out.append('seam %s:%d: %s' % (path, n, inc))
                there = layer(inc)
                if here and there and (LAYERS[there] > LAYERS[here] or
                                       (LAYERS[there] == LAYERS[here] and there != here)):
                    out.append('up %s:%d: %s' % (path, n, inc))
                a, b = os.path.splitext(path)[0], os.path.splitext(inc)[0]
                if a != b:
                    edges[a].add(b)
    state, stack = {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(edges[u]):
            if state.get(v) == 1:
                out.append('loop ' + ' -> '.join(stack[stack.index(v):] + [v]))
            elif not state.get(v):
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(edges):
        if not state.get(u):
            visit(u)
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
