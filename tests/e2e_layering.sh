#!/usr/bin/env bash
# e2e_layering.sh -- the architecture as the includes say it (tests/layering.py):
#
#   - the engine seam (verifiers/verifier.h): nothing outside
#     verifiers/<format>/ includes a header of that format, but the
#     format's own suites (tests/test_<format>*.c, tests/<format>script.[ch],
#     tests/duelscript.[ch] for Advanced and Master) and the Snap game
#     generator (bench/gen_games.c), which check or play the engine from
#     its internals on purpose;
#   - the layers: logformat/ < verifiers/ < src/core/ < src/record/ <
#     src/tournament/ < src/daemon/ | src/cli/ -- an include points down,
#     never up, and the daemon and the command line never include each
#     other;
#   - no loop: no two modules (a .c with its .h) include each other,
#     directly or round a longer loop.
#
# Each check is run on the tree, and on a copy with a violation of each
# kind planted, which it must catch.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1
PY=/usr/bin/python3
[ -x $PY ] || PY=python3

found=$($PY tests/layering.py "$PWD")
if [ -z "$found" ]; then
    pass "no include crosses the engine seam, points up the layers, or closes a loop"
else
    while IFS= read -r line; do fail "$line"; done <<<"$found"
fi

# The checks must be able to fail: plant one violation of each kind.
t=$TMP/tree
mkdir -p "$t/verifiers/snap" "$t/src/core" "$t/src/record" "$t/src/daemon" "$t/src/cli" "$t/tests" "$t/bench"
cp verifiers/snap/*.h "$t/verifiers/snap/"
printf '#include "verifiers/snap/snap.h"\n' >"$t/src/core/planted.c"          # seam
printf '#include "verifiers/snap/snap.h"\n' >"$t/tests/test_snap_planted.c"   # allowed
printf '#include "verifiers/snap/snap.h"\n' >"$t/bench/gen_games.c"           # allowed
printf '#include "src/daemon/daemon.h"\n' >"$t/src/record/up.h"              # up
printf '#include "src/cli/cli.h"\n' >"$t/src/daemon/side.c"                  # sideways
printf '#include "src/core/b.h"\n' >"$t/src/core/a.h"                        # a loop
printf '#include "src/core/a.h"\n' >"$t/src/core/b.c"
planted=$($PY tests/layering.py "$t" | sort)
want=$(printf '%s\n' 'loop src/core/a -> src/core/b -> src/core/a' \
    'seam src/core/planted.c:1: verifiers/snap/snap.h' \
    'up src/daemon/side.c:1: src/cli/cli.h' \
    'up src/record/up.h:1: src/daemon/daemon.h' | sort)
if [ "$planted" = "$want" ]; then
    pass "planted violations are caught (a seam crossing, an include up, one sideways, a loop); the suites' and the generator's are allowed"
else
    fail "the planted tree gave: $(printf '%s' "$planted" | tr '\n' '|') -- wanted $(printf '%s' "$want" | tr '\n' '|')"
fi

# Every format directory holds an engine behind the seam.
for dir in verifiers/*/; do
    fmt=$(basename "$dir")
    # Snap writes its table out; a duel format has DUEL_VERIFIER_OPS write it.
    if grep -qE "const verifier_ops ${fmt}_verifier_ops|^DUEL_VERIFIER_OPS\(${fmt}_verifier_ops," "$dir"*.c 2>/dev/null; then
        pass "verifiers/$fmt defines ${fmt}_verifier_ops"
    else
        fail "verifiers/$fmt has no ${fmt}_verifier_ops table"
    fi
done
finish
