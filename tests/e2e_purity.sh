#!/usr/bin/env bash
# The engines and the tournament's computing modules are pure (HACKING.md):
# nothing under verifiers/, nor the computing modules of src/tournament/,
# nor any project header they include, may include stdio, time, ZeroMQ,
# LMDB or a library that pulls stdio in (jansson, msgpack).  Followed
# transitively through the project's own "..." includes.
#
# Not checked, because reading or making input is their work:
#   - a format's game generator (verifiers/<format>/gen/): a program, not
#     the engine;
#   - src/tournament/tournament.c: parses the tournament file's text with
#     jansson and may take a made seed from the system's random source
#     (T27) -- the computing modules include tournament.h, never jansson;
#   - src/tournament/tourrec.[ch]: reads the records (log files, the store);
#   - src/tournament/tourhtml.c: writes its numbers with snprintf (stdio);
#     it writes into a jtext, no file, but is not yet free of stdio;
#   - src/tournament/tourorg.[ch]: the organiser's edits work on the file's
#     JSON tree (jansson); they read no file, clock or socket -- their
#     caller, src/cli/cmd_organise.c, does.
# An include inside `#ifdef VERIFIER_UNDO_CHECK ... #endif` is not counted:
# that is the undo log's check in the sanitizer and fuzz builds
# (verifiers/undo.c), which prints what it caught before it aborts, as
# assert() does; the engines of a release build never see it.
# Everything else in src/tournament/ is checked (the list is made from the
# folder, so a new module is checked unless it is named above).
#
# The check must be able to fail: it is also run on a copy of
# src/tournament/ with `#include <stdio.h>` planted in a computing module,
# and on a copy of verifiers/ with one planted in an engine.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1

forbidden='stdio\.h|time\.h|sys/time\.h|zmq\.h|czmq\.h|lmdb\.h|jansson\.h|msgpack\.h|unistd\.h'
tour_io='src/tournament/tournament.c src/tournament/tourrec.c src/tournament/tourrec.h src/tournament/tourhtml.c src/tournament/tourorg.c src/tournament/tourorg.h'

# impure ROOT FILE...: each file (relative to ROOT), and every project
# header it includes, that includes a forbidden header, one line each
impure() {
    local root=$1 f inc bad
    shift
    local -A seen=()
    local queue=("$@")
    while [ ${#queue[@]} -gt 0 ]; do
        f=${queue[0]}; queue=("${queue[@]:1}")
        [ -f "$root/$f" ] || continue
        [ -n "${seen[$f]:-}" ] && continue
        seen[$f]=1
        while read -r inc; do
            queue+=("$inc")
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$f")
        bad=$(awk -v re="^[[:space:]]*#[[:space:]]*include[[:space:]]*<($forbidden)>" '
            /^[[:space:]]*#[[:space:]]*if/ { depth++; if ($0 ~ /^[[:space:]]*#[[:space:]]*ifdef[[:space:]]+VERIFIER_UNDO_CHECK/ && !check) check = depth }
            /^[[:space:]]*#[[:space:]]*endif/ { if (check == depth) check = 0; depth-- }
            !check && $0 ~ re { print FNR ":" $0 }' "$root/$f")
        [ -n "$bad" ] && printf '%s includes a forbidden header: %s\n' "$f" "$bad"
    done
}

# tour_pure ROOT: the computing modules of ROOT/src/tournament/
tour_pure() {
    local f
    for f in "$1"/src/tournament/*.c "$1"/src/tournament/*.h; do
        f=${f#"$1"/}
        case " $tour_io " in *" $f "*) ;; *) printf '%s\n' "$f" ;; esac
    done
}

engines=(verifiers/*.c verifiers/*.h verifiers/*/*.c verifiers/*/*.h)
mapfile -t tour < <(tour_pure .)
if [ ${#tour[@]} -ge 10 ]; then pass "${#tour[@]} files of src/tournament/ are checked: ${tour[*]}"
else fail "only ${#tour[@]} files of src/tournament/ to check: ${tour[*]}"; fi

for f in "${engines[@]}" "${tour[@]}"; do
    bad=$(impure . "$f")
    if [ -n "$bad" ]; then fail "$bad"; else pass "$f"; fi
done

# The check must be able to fail: plant stdio in a computing module of the
# tournament and in an engine, each in a copy of the tree.
t=$TMP/tree
mkdir -p "$t/src" "$t/verifiers"
cp -R src/tournament "$t/src/"
cp -R logformat "$t/"
cp verifiers/*.h verifiers/*.c "$t/verifiers/"
for f in src/tournament/tourstand.c src/tournament/tourint.h verifiers/verifier.c; do
    rm -rf "$t.$$" && cp -R "$t" "$t.$$"
    sed -i '0,/^#include/s//#include <stdio.h>\n#include/' "$t.$$/$f"
    mapfile -t tour2 < <(tour_pure "$t.$$")
    found=$(for g in verifiers/verifier.c "${tour2[@]}"; do impure "$t.$$" "$g"; done)
    case "$found" in
        *"$f includes a forbidden header"*) pass "a planted <stdio.h> in $f is caught" ;;
        *) fail "a planted <stdio.h> in $f is not caught: $found" ;;
    esac
done
rm -rf "$t" "$t.$$"
finish
