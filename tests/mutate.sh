#!/usr/bin/env bash
# mutate.sh -- seeded mutation testing of one engine file against the engine suites.
#
#   tests/mutate.sh SRCDIR [FILE] [N] [SEED]      (make mutate)
#       FILE  default verifiers/snap/snap.c (relative to SRCDIR)
#       N     mutants, default 80;  SEED  default 11 (printed)
#   env: MUTATE_DIR (build-mutate), MUTATE_TIMEOUT (seconds per suite, 60),
#        MUTATE_REPORT (default tests/MUTATION-<name>.md in SRCDIR; <name> is
#        the file's, after its engine's when it is another file of an
#        engine's folder: snap for snap/snap.c, classic-board for classic/board.c),
#        MUTATE_NOTES (default tests/MUTATION-<name>.notes in SRCDIR),
#        MUTATE_E2E=1 to run the format's fixtures too (e2e_<format>_fixtures.sh,
#        slower)
# The suites are the format's own (tests/test_<format>*, the file's
# verifiers/<format>/) and the card and deck suites; verifiers/duel*.c
# (Advanced's and Master's shared rules) against both their suites; any
# other shared file of verifiers/ against every engine's.
#
# Why: coverage says a line ran, not that a test would notice it being
# wrong.  Each mutant (tests/mutants.py: one operator, condition, constant
# or statement changed, sites drawn with the seed) is compiled in its own
# build directory and the engine suites are run against it with a timeout.
# A mutant is killed when a suite fails (or times out); one that does not
# compile is stillborn, counted apart.  A survivor is a gap in the tests
# unless it is equivalent; the notes file classifies each survivor and the
# report (committed) lists every mutant.
#
# The tree is never modified.  The run works on a snapshot of the sources
# taken when it starts (DIR/src, refreshed each run, the files that changed
# with the run's time; every build directory (one with a config.status),
# .git and var/ left out), built in DIR/build: the tree can be edited meanwhile
# without changing what this run judges.  The mutant is written over the
# snapshot's copy of the file, restored after each mutant and, by the trap,
# whatever ends the run.
# UBSan is kept (as in make check's sanitizer build, but not the slower
# ASan): a mutant that indexes past an array is caught as make check would.
set -euo pipefail
src=$(cd "${1:?usage: mutate.sh SRCDIR [FILE] [N] [SEED]}" && pwd)
file=${2:-verifiers/snap/snap.c}
n=${3:-80}
seed=${4:-11}
dir=${MUTATE_DIR:-build-mutate}
limit=${MUTATE_TIMEOUT:-60}
fmt=$(printf '%s' "$file" | sed -n 's|^verifiers/\([a-z]*\)/.*|\1|p')
name=$(basename "$file" .c)
# an engine's other files are named after it too: classic/board.c is classic-board
[ -n "$fmt" ] && [ "$name" != "$fmt" ] && name=$fmt-$name
report=${MUTATE_REPORT:-$src/tests/MUTATION-$name.md}
notes=${MUTATE_NOTES:-$src/tests/MUTATION-$name.notes}
case $fmt in
    snap) suites="tests/test_snap tests/test_snap_rulings tests/test_snap_arbiter" ;;
    advanced) suites="tests/test_advanced" ;;
    master) suites="tests/test_master" ;;
    classic) suites="tests/test_classic" ;;
    *)
        case $file in
            verifiers/duel*) fmt=advanced; suites="tests/test_advanced tests/test_master" ;;   # the duel's two formats
            *) fmt=snap; suites="tests/test_snap tests/test_snap_rulings tests/test_snap_arbiter tests/test_advanced tests/test_master" ;;
        esac ;;
esac
suites="$suites tests/test_cards tests/test_deck"
[ -f "$src/$file" ] || { echo "mutate: no $src/$file" >&2; exit 2; }
mkdir -p "$dir/src" "$dir/build"
dir=$(cd "$dir" && pwd)
exec 9>"$dir/lock"   # one run at a time per directory: they would share the snapshot
flock -n 9 || { echo "mutate: another run is using $dir" >&2; exit 2; }
snap=$dir/src
bld=$dir/build
work=$(mktemp -d)

# The tree as it is now, into the snapshot: a file that changed since the
# last run is copied with this run's time, the others keep theirs.  (tar
# would give a changed file its own time, which can be older than the
# object the last run built from its old text: make would not rebuild it.)
rm -rf "$dir/src.new"
mkdir -p "$dir/src.new"
(cd "$src" && tar -cf - --exclude=./.git --exclude-tag-all=config.status --exclude=./var --exclude=./autom4te.cache \
    --exclude="./${dir#"$src"/}" .) | tar -C "$dir/src.new" -xf -
if [ -e "$snap/configure" ]; then
    (cd "$dir/src.new" && find . -type f) | while IFS= read -r f; do
        cmp -s "$dir/src.new/$f" "$snap/$f" || { mkdir -p "$snap/${f%/*}" && rm -f "$snap/$f" && cp "$dir/src.new/$f" "$snap/$f"; }
    done
    rm -rf "$dir/src.new"
else
    rm -rf "$snap" && mv "$dir/src.new" "$snap"   # the first run: the tree's own times
fi
cp -p "$snap/$file" "$work/original.c"
# (restored with a new mtime, so that make compiles it again)
cleanup() {
    cp "$work/original.c" "$snap/$file" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

say() { printf '==> %s\n' "$*"; }

if [ ! -f "$bld/Makefile" ] || [ "$snap/configure" -nt "$bld/config.status" ]; then
    say "configure $bld (CFLAGS=-O0 -fsanitize=undefined)"
    (cd "$bld" && "$snap/configure" --quiet --disable-sanitizers \
        CFLAGS="-O0 -fsanitize=undefined -fno-sanitize-recover=all")
fi

# run_suites: 0 when every suite passes; otherwise prints what killed it.
run_suites() {
    local s rc
    for s in $suites; do
        rc=0
        (cd "$snap" && top_srcdir=$snap timeout -k 5 "$limit" "$bld/$s" -j"${JOBS:-2}" >/dev/null 2>&1) || rc=$?
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo "killed by ${s#tests/} (timeout)"; return 1; fi
        if [ $rc -ne 0 ]; then echo "killed by ${s#tests/}"; return 1; fi
    done
    if [ "${MUTATE_E2E:-0}" = 1 ]; then
        (cd "$snap" && top_srcdir=$snap ARBITER=$bld/arbiter ARBITER_CARDS=$snap/fixtures/cards/core.json timeout -k 5 "$((limit * 4))" \
            bash "tests/e2e_${fmt}_fixtures.sh" >/dev/null 2>&1) || { echo "killed by e2e_${fmt}_fixtures"; return 1; }
    fi
    return 0
}

build() {
    local t=$suites
    [ "${MUTATE_E2E:-0}" = 1 ] && t="$t arbiter"
    make -s -C "$bld" -j"${JOBS:-2}" $t >"$work/make.log" 2>&1
}

rm -f "$bld/${file%.c}.o"   # it may hold a mutant of an interrupted run
say "$file: seed $seed, $n mutants, timeout ${limit}s per suite"
build || { cat "$work/make.log" >&2; echo "mutate: the unmutated tree does not build" >&2; exit 2; }
run_suites >/dev/null || { echo "mutate: the suites fail on the unmutated file" >&2; exit 2; }

python3 "$src/tests/mutants.py" make "$work/original.c" "$seed" "$n" "$work/m"
: >"$work/results.tsv"
while IFS=$'\t' read -r num mid line cls change; do
    cp "$work/m/$num.c" "$snap/$file"
    if ! build; then
        result=stillborn
    elif result=$(run_suites); then
        result=survived
    fi
    cp "$work/original.c" "$snap/$file"
    printf '%s\t%s\n' "$num" "$result" >>"$work/results.tsv"
    printf '%s %-8s line %-5s %-12s %-44s %s\n' "$num" "$mid" "$line" "$cls" "${change:0:44}" "$result"
done <"$work/m/index.tsv"
build || true   # the build directory ends with the real file compiled

MUTATE_SUITES=$suites python3 "$src/tests/mutants.py" report "$file" "$seed" "$work/m/index.tsv" "$work/results.tsv" "$notes" "$report"
echo "report: $report"
