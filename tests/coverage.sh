#!/usr/bin/env bash
# coverage.sh -- line and branch coverage of verifiers/ by the engine tests.
#
#   tests/coverage.sh SRCDIR [DIR]        (make coverage: DIR is build-coverage)
#
# Why: issue 11 asks that the engine's tests reach every branch they can
# (verifiers/ at least 95% of branches), and a figure measured by anyone
# must be measured the same way.  This builds the tree a second time in DIR
# with gcc's --coverage at -O0 (so every branch gcov counts is one the source
# shows), never touching the plain build, runs the engine suites
# (tests/test_snap*, tests/test_advanced*, tests/test_master*,
# tests/test_classic*, tests/test_cards, tests/test_deck, tests/test_verifier:
# the seam, openlog.c and the boards) and the end-to-end scripts of the
# engines (e2e_snap_fixtures, e2e_advanced_fixtures, e2e_classic_fixtures:
# every fixture game, the classic ones through arbiterd too; e2e_replay: the
# board drawings; e2e_rule_coverage: the rule catalogue) against that build's
# arbiter and arbiterd, then asks gcov (no other
# tool needed) for each file of verifiers/: lines executed, branches taken
# at least once.  The per-file table and the totals are printed and kept in
# DIR/coverage.txt; the annotated sources are left in DIR/gcov/, one per file
# (gcov -p: named after the whole path, as every engine has a board.c).
# COVERAGE_MIN_BRANCHES=N makes it fail when the total is below N percent.
set -euo pipefail
src=$(cd "${1:?usage: coverage.sh SRCDIR [DIR]}" && pwd)
dir=${2:-build-coverage}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
suites="tests/test_snap tests/test_snap_rulings tests/test_snap_arbiter tests/test_cards tests/test_deck tests/test_verifier"
for f in "$src"/tests/test_advanced*.c "$src"/tests/test_master*.c "$src"/tests/test_classic*.c; do   # the other engines' suites, where the tree has them
    [ -e "$f" ] && suites="$suites tests/$(basename "$f" .c)"
done
e2e="tests/e2e_snap_fixtures.sh tests/e2e_advanced_fixtures.sh tests/e2e_replay.sh tests/e2e_rule_coverage.sh"
[ -e "$src/tests/e2e_classic_fixtures.sh" ] && e2e="$e2e tests/e2e_classic_fixtures.sh"

say() { printf '==> %s\n' "$*"; }

if [ ! -f "$dir/Makefile" ] || [ "$src/configure" -nt "$dir/config.status" ]; then
    say "configure $dir (CFLAGS=-O0 --coverage)"
    (cd "$dir" && "$src/configure" --quiet --disable-sanitizers CFLAGS="-O0 -g --coverage")
fi
say "make -C $dir (the engine suites, arbiter and arbiterd)"
make -s -C "$dir" -j"${JOBS:-2}" arbiter arbiterd $suites >/dev/null

# Counters from an earlier run would add up: start from zero.
find "$dir" -name '*.gcda' -delete
rm -rf "$dir/gcov"

status=0
for s in $suites; do
    say "$s"
    (cd "$src" && top_srcdir=$src "$dir/$s" -j"${JOBS:-2}" --short-filename) 2>&1 | tail -n 1 || status=1
done
for t in $e2e; do
    say "$t"
    (cd "$src" && top_srcdir=$src top_builddir=$dir ARBITER=$dir/arbiter ARBITERD=$dir/arbiterd \
        ARBITER_CARDS=$src/fixtures/cards/core.json \
        bash "$t") | tail -n 1 || status=1
done
[ $status -eq 0 ] || { echo "coverage: a test failed, the figures below undercount" >&2; }

# gcov per file: "Lines executed:P% of N" and "Taken at least once:P% of N"
# for each source.  The counts (not the rounded percentages) are summed.
mkdir -p "$dir/gcov"
files=$(cd "$src" && find verifiers -name '*.c' ! -path '*/gen/*' | sort)
for f in $files; do
    obj=$dir/${f%.c}.o
    [ -f "${obj%.o}.gcda" ] || { echo "$f 0 0 0 0 (never run)"; continue; }
    (cd "$dir/gcov" && gcov -b -p -o "$(dirname "$obj")" "$src/$f") 2>/dev/null | awk -v f="$f" '
        /^File / { cur = $2; gsub(/\x27/, "", cur) }
        cur ~ ("/" f "$") && /^Lines executed:/ { split($2, a, "[:%]"); l = a[2]; ln = $4 }
        cur ~ ("/" f "$") && /^Taken at least once:/ { split($4, a, "[:%]"); b = a[2]; bn = $6 }
        END { printf "%s %d %d %d %d\n", f, ln * l / 100 + 0.5, ln, bn * b / 100 + 0.5, bn }'
done | awk '
    function pct(a, b) { return b ? sprintf("%6.2f%%", 100 * a / b) : "     -" }
    BEGIN { printf "%-32s %17s %19s\n", "file", "lines", "branches" }
    { printf "%-32s %5d/%-5d %s %5d/%-5d %s\n", $1, $2, $3, pct($2, $3), $4, $5, pct($4, $5)
      l += $2; ln += $3; b += $4; bn += $5 }
    END { printf "%-32s %5d/%-5d %s %5d/%-5d %s\n", "verifiers/ (total)", l, ln, pct(l, ln), b, bn, pct(b, bn)
          printf "TOTAL_BRANCH_PCT %.2f\n", bn ? 100 * b / bn : 0 }' >"$dir/coverage.txt"
grep -v '^TOTAL_BRANCH_PCT' "$dir/coverage.txt"
echo "(annotated sources: $dir/gcov/*#verifiers#*.gcov)"
total=$(awk '/^TOTAL_BRANCH_PCT/ { print $2 }' "$dir/coverage.txt")
if [ -n "${COVERAGE_MIN_BRANCHES:-}" ] && awk -v t="$total" -v m="$COVERAGE_MIN_BRANCHES" 'BEGIN { exit !(t < m) }'; then
    echo "coverage: verifiers/ at $total% of branches, below $COVERAGE_MIN_BRANCHES%" >&2
    status=1
fi
exit $status
