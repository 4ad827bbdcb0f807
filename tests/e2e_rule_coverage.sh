#!/usr/bin/env bash
# Every rule id the Snap engine can cite has a test that makes it cite it
# (the issue's standard: a rule without a breaking test is a defect).
# Cited: every "snap:..." or "openlog:..." literal in verifiers/snap/*.c.
# Also: every cited snap id has an entry (quote, summary) in the catalogue.
# Tested: every such literal that ends an expectation in a Snap suite (tests/test_snap*.c),
# i.e. is the last argument of illegal(...) or expect(...): `"snap:9.4")`.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1

grep -ohE '"(snap|openlog):[A-Za-z0-9.]+"' verifiers/snap/*.c | tr -d '"' | sort -u >"$TMP/cited"
grep -ohE '"(snap|openlog):[A-Za-z0-9.]+"\)' tests/test_snap*.c | grep -oE '(snap|openlog):[A-Za-z0-9.]+' \
    | sort -u >"$TMP/tested"
[ -s "$TMP/cited" ] || { fail "found no rule ids in verifiers/snap/"; finish; exit 1; }
while read -r rule; do
    if grep -qxF "$rule" "$TMP/tested"; then pass "$rule"; else fail "$rule is cited by the engine but no test makes it cite it"; fi
done <"$TMP/cited"
# A test that expects a rule the engine never cites cannot pass: flag it too.
# (The header's verdict cites deck rules through deck_check: verifiers/deck.c.)
grep -ohE '"(snap|openlog):[A-Za-z0-9.]+"' verifiers/deck.c | tr -d '"' | sort -u | cat - "$TMP/cited" >"$TMP/citable"
while read -r rule; do
    grep -qxF "$rule" "$TMP/citable" || fail "tests expect $rule, which the engine never cites"
done <"$TMP/tested"
# Every snap id the engine cites is in the catalogue (verifiers/snap/rules.c,
# where ids are written SNAP("9.4") so that they do not count as citations).
grep -oE 'SNAP\("[A-Za-z0-9.]+"\)' verifiers/snap/rules.c | sed 's/SNAP("\(.*\)")/snap:\1/' | sort -u >"$TMP/catalogue"
while read -r rule; do
    case "$rule" in snap:*) grep -qxF "$rule" "$TMP/catalogue" || fail "$rule is cited but missing from verifiers/snap/rules.c" ;; esac
done <"$TMP/cited"
finish
