#!/usr/bin/env bash
# The engine seam (verifiers/verifier.h, issue 11): a format's engine is
# reached only through its verifier_ops table.  Nothing outside
# verifiers/<format>/ may include a header of verifiers/<format>/ -- except
# that format's own test suites (tests/test_<format>*.c and
# tests/<format>script.[ch], and tests/duelscript.[ch] for the duel's
# formats, Advanced and Master), which check the engine's internals (its
# invariants) on purpose.  The check is run on the tree, and on a copy of
# it with one such include planted, which it must catch.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1

# violations ROOT: "file: the line" for each include that crosses the seam.
violations() {
    local root=$1 dir fmt f
    for dir in "$root"/verifiers/*/; do
        fmt=$(basename "$dir")
        while IFS= read -r f; do
            case "${f#"$root"/}" in
                verifiers/"$fmt"/*) continue ;;
                tests/test_"$fmt"*.c | tests/"$fmt"script.[ch]) continue ;;
                tests/duelscript.[ch]) case $fmt in advanced | master) continue ;; esac ;;
            esac
            grep -HnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"verifiers/$fmt/" "$f" | sed "s|^$root/||"
        done < <(find "$root" \( -path "$root/build*" -o -path "$root/.git" \) -prune -o \
                      -type f \( -name '*.c' -o -name '*.h' \) -print)
    done
}

found=$(violations "$PWD")
if [ -z "$found" ]; then
    pass "no file outside verifiers/<format>/ includes a format's headers"
else
    while IFS= read -r line; do fail "crosses the engine seam: $line"; done <<<"$found"
fi

# The check must be able to fail: plant one crossing include in a copy.
mkdir -p "$TMP/tree/src" "$TMP/tree/verifiers/snap" "$TMP/tree/tests"
cp verifiers/snap/*.h "$TMP/tree/verifiers/snap/"
printf '#include "verifiers/snap/snap.h"\n' >"$TMP/tree/src/planted.c"
printf '#include "verifiers/snap/snap.h"\n' >"$TMP/tree/tests/test_snap_planted.c"
planted=$(violations "$TMP/tree")
if [ "$planted" = 'src/planted.c:1:#include "verifiers/snap/snap.h"' ]; then
    pass "a planted include in src/ is caught, and Snap's own suite is allowed"
else
    fail "the planted include gave: ${planted:-nothing}"
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
