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
expect_rc 2 "convert: one file" "$ARBITER" convert a.jsonl
expect_rc 2 "convert: unknown extension" "$ARBITER" convert a.txt b.mlog
expect_rc 2 "convert: missing input" "$ARBITER" convert "$TMP/nope.jsonl" "$TMP/x.mlog"
expect_rc 2 "convert: unknown option" "$ARBITER" convert --frob a.jsonl b.mlog
finish
