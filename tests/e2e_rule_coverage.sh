#!/usr/bin/env bash
# Every rule id an engine can cite has a test that makes it cite it (the
# standard: a rule without a breaking test is a defect), per format:
#   tests/e2e_rule_coverage.sh [FORMAT...]     (default: every verifiers/<format>/)
# For FORMAT:
#   cited    every "FORMAT:..." or "openlog:..." literal in verifiers/FORMAT/*.c,
#            and the openlog ids the shared judge cites for every engine
#            (verifiers/openlog.c, verifiers/verifier.c); for a format on the
#            duel (its files include verifiers/duel.h), every "duel:x" of
#            verifiers/duel.c as "FORMAT:x", and duel.c's openlog ids;
#   tested   every such literal that ends an expectation in FORMAT's suites
#            (tests/test_FORMAT*.c), i.e. is the last argument of
#            illegal(...) or expect(...): `"snap:9.4")`.
# Also: every cited FORMAT id is in the format's catalogue
# (verifiers/FORMAT/rules.c, ids spelled SNAP("9.4")), and every openlog id
# cited anywhere (verifiers/, src/) is in the contract's catalogue
# (verifiers/openlog.c, spelled OPENLOG("6")).
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1

formats=("$@")
if [ ${#formats[@]} -eq 0 ]; then
    for dir in verifiers/*/; do formats+=("$(basename "$dir")"); done
fi

id_re() { printf '"(%s|openlog):[A-Za-z0-9._]+"' "$1"; }

for fmt in "${formats[@]}"; do
    FMT=$(printf '%s' "$fmt" | tr '[:lower:]' '[:upper:]')
    re=$(id_re "$fmt")
    # A duel format (Advanced, Master) also cites what duel.c cites as
    # "duel:x", under its own name (verifiers/duel.h, RULE IDS).
    duel=()
    grep -q '"verifiers/duel.h"' verifiers/"$fmt"/*.c && duel=(verifiers/duel.c)
    { grep -ohE "$re" verifiers/"$fmt"/*.c
      [ ${#duel[@]} -eq 0 ] || grep -ohE '"duel:[A-Za-z0-9._]+"' "${duel[@]}" | sed "s/\"duel:/\"$fmt:/"
      grep -ohE '"openlog:[A-Za-z0-9._]+"' verifiers/openlog.c verifiers/verifier.c "${duel[@]}"; } \
        | tr -d '"' | sort -u >"$TMP/$fmt.cited"
    grep -ohE "$re\)" tests/test_"$fmt"*.c 2>/dev/null | grep -oE "($fmt|openlog):[A-Za-z0-9._]+" \
        | sort -u >"$TMP/$fmt.tested"
    [ -s "$TMP/$fmt.cited" ] || { fail "$fmt: found no rule ids in verifiers/$fmt/"; continue; }
    while read -r rule; do
        if grep -qxF "$rule" "$TMP/$fmt.tested"; then pass "$fmt: $rule"
        else fail "$fmt: $rule is cited by the engine but no test of tests/test_$fmt*.c makes it cite it"; fi
    done <"$TMP/$fmt.cited"
    # A test that expects a rule the engine never cites cannot pass: flag it.
    # (The header's verdict cites deck rules through deck_check: verifiers/deck.c.)
    grep -ohE "$re" verifiers/deck.c | tr -d '"' | sort -u | cat - "$TMP/$fmt.cited" >"$TMP/$fmt.citable"
    while read -r rule; do
        grep -qxF "$rule" "$TMP/$fmt.citable" || fail "$fmt: tests expect $rule, which the engine never cites"
    done <"$TMP/$fmt.tested"
    # Every id of the format the engine cites is in its catalogue.
    grep -oE "$FMT\(\"[A-Za-z0-9._]+\"\)" verifiers/"$fmt"/rules.c \
        | sed "s/$FMT(\"\(.*\)\")/$fmt:\1/" | sort -u >"$TMP/$fmt.catalogue"
    while read -r rule; do
        case "$rule" in "$fmt":*) grep -qxF "$rule" "$TMP/$fmt.catalogue" \
            || fail "$rule is cited but missing from verifiers/$fmt/rules.c" ;; esac
    done <"$TMP/$fmt.cited"
done

# The contract's ids, wherever cited, are in its catalogue.
grep -oE 'OPENLOG\("[A-Za-z0-9._]+"\)' verifiers/openlog.c | sed 's/OPENLOG("\(.*\)")/openlog:\1/' \
    | sort -u >"$TMP/openlog.catalogue"
grep -rohE '"openlog:[A-Za-z0-9._]+"' verifiers src | tr -d '"' | sort -u | while read -r rule; do
    grep -qxF "$rule" "$TMP/openlog.catalogue" || echo "$rule"
done >"$TMP/openlog.missing"
if [ -s "$TMP/openlog.missing" ]; then
    while read -r rule; do fail "$rule is cited but missing from the contract's catalogue (verifiers/openlog.c)"; done \
        <"$TMP/openlog.missing"
else
    pass "every openlog id cited in verifiers/ and src/ is in the contract's catalogue"
fi
finish
