#!/usr/bin/env bash
# Every quote of the rule catalogues (verifiers/<format>/rules.c) is found
# word for word in the rulebook or ruling it cites (tests/rule_quotes.py),
# against the pinned copy fixtures/rulebooks/; where the originals are
# beside the tree (../shared), the copy must still equal them.  The check
# must be able to fail: a quote changed by one word in a copy of a
# catalogue is caught.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
books=$top_srcdir/fixtures/rulebooks
out=$("$PY" "$top_srcdir/tests/rule_quotes.py" "$top_srcdir" "$books" 2>&1)
rc=$?
printf '%s\n' "$out" | grep '^FAIL' || true
if [ $rc -eq 0 ]; then pass "$(printf '%s\n' "$out" | tail -n 1)"; else fail "$(printf '%s\n' "$out" | tail -n 1)"; fi

# a planted change: one word of master:mana.step's quote
mkdir -p "$TMP/tree/verifiers"
for d in "$top_srcdir"/verifiers/*/; do cp -r "$d" "$TMP/tree/verifiers/"; done
sed -i '0,/{MASTER("mana.step"), "/s//{MASTER("mana.step"), "Perhaps /' "$TMP/tree/verifiers/master/rules.c"
planted=$("$PY" "$top_srcdir/tests/rule_quotes.py" "$TMP/tree" "$books" 2>&1)
if printf '%s\n' "$planted" | grep -q '^FAIL master:mana.step:'; then
    pass "a quote changed by one word is caught"
else
    fail "the planted change was not caught: $(printf '%s\n' "$planted" | tail -n 1)"
fi

# every pinned rulebook (an engine's, found by rule_quotes.py) and ruling
for copy in "$books"/*.md; do
    case $(basename "$copy") in README.md) continue ;; esac
    pair=rulebooks/$(basename "$copy")
    [ -f "$top_srcdir/../shared/$pair" ] || pair=design/$(basename "$copy")
    orig=$top_srcdir/../shared/$pair
    [ -f "$orig" ] || { echo "# ../shared/$pair is not beside the tree: the copy is not compared"; continue; }
    if cmp -s "$orig" "$books/$(basename "$pair")"; then pass "fixtures/rulebooks/$(basename "$pair") equals ../shared/$pair"
    else fail "fixtures/rulebooks/$(basename "$pair") differs from ../shared/$pair: copy it, and bring the quotes up to date"; fi
done
finish
