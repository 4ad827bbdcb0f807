#!/usr/bin/env bash
# The command line's contract: --help and --version, and the exit codes of
# arbiter(1) for usage errors.
. "$(dirname "$0")/lib.sh"

expect_rc() {   # expect_rc WANT DESCRIPTION CMD...
    local want=$1 what=$2; shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    if [ $rc -eq "$want" ]; then pass "$what"; else fail "$what: exit $rc, want $want: $(head -c 300 "$TMP/err")"; fi
}

expect_rc 0 "arbiter --help" "$ARBITER" --help
grep -q '^  convert' "$TMP/out" && pass "--help lists convert" || fail "--help lists convert"
expect_rc 0 "arbiter --version" "$ARBITER" --version
grep -qE '^arbiter [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out" && pass "--version format" || fail "--version: $(cat "$TMP/out")"
expect_rc 2 "no command" "$ARBITER"
expect_rc 2 "unknown command" "$ARBITER" frobnicate
for c in cards deck convert; do
    expect_rc 0 "arbiter $c --help" "$ARBITER" "$c" --help
    grep -q "usage: arbiter $c" "$TMP/out" && pass "$c --help shows usage" || fail "$c --help: $(head -3 "$TMP/out")"
done
# arbiter cards: the census, and the formats a database serves
F="$top_srcdir/fixtures/cards"
expect_rc 0 "arbiter cards --json core.json" "$ARBITER" cards --json "$F/core.json"
jq -e '(keys_unsorted == ["set","version","hash","cards","by_kind","by_class","formats"]) and .cards == 120
    and ([.by_kind[]] | add) == 120 and ([.by_class[]] | add) == 120 and .formats == ["snap","advanced","master"]' \
    "$TMP/out" >/dev/null && pass "cards --json: core's census, keys in order; it serves the Mintayn formats" ||
    fail "cards --json core.json: $(cat "$TMP/out")"
expect_rc 0 "arbiter cards --json standard.json" "$ARBITER" cards --json "$F/standard.json"
jq -e '.cards == 52 and ([.by_kind[]] | add) == 0 and ([.by_class[]] | add) == 0 and .formats == ["classic"]' \
    "$TMP/out" >/dev/null && pass "cards --json: the standard 52 are playing cards (no kind, no class), for classic" ||
    fail "cards --json standard.json: $(cat "$TMP/out")"
expect_rc 0 "arbiter cards standard.json" "$ARBITER" cards "$F/standard.json"
grep -qx 'serves  classic' "$TMP/out" && pass "cards: 'serves  classic'" || fail "cards standard.json: $(tail -n 2 "$TMP/out")"
expect_rc 2 "convert: one file" "$ARBITER" convert a.jsonl
expect_rc 2 "convert: unknown extension" "$ARBITER" convert a.txt b.mlog
expect_rc 2 "convert: missing input" "$ARBITER" convert "$TMP/nope.jsonl" "$TMP/x.mlog"
expect_rc 2 "convert: unknown option" "$ARBITER" convert --frob a.jsonl b.mlog
# A reader that stops reading (`| head -1`) kills a guarded command by
# SIGPIPE: it dies of it silently (141, or 0 when it had finished), and is
# never reported as a damaged store.
S="$top_srcdir/fixtures/tournament"
bad=""
for i in 1 2 3 4 5 6; do
    "$ARBITER" tournament stats --file "$S/sim-cup.json" "$S"/sim-cup/*.jsonl 2>"$TMP/pipe.err" | head -n 1 >/dev/null
    rc=${PIPESTATUS[0]}
    if grep -q 'probably damaged' "$TMP/pipe.err" || { [ "$rc" -ne 0 ] && [ "$rc" -ne 141 ]; }; then
        bad="exit $rc: $(cat "$TMP/pipe.err")"
    fi
done
[ -z "$bad" ] && pass "a closed pipe is no damaged store: exit 141 or 0, nothing blamed" || fail "a closed pipe: $bad"
finish
