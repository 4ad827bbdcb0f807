#!/usr/bin/env bash
# e2e_decks.sh -- every fixture deck through `arbiter deck check --json`.
#
# fixtures/decks/FORMAT/legal-*.json must be legal; illegal-*.json must be
# illegal with exactly the rule ids of its "expect" list (and its file name
# must start with the first of them, ':' and '.' written '_').  Every rule
# `arbiter deck rules` lists must have an illegal fixture.  Then the exit
# codes of bad input.  No jq or python: rule ids are pulled out with grep.
. "$(dirname "$0")/lib.sh"

CARDS="$top_srcdir/fixtures/cards/core.json"
deck_passed=0
deck_failed=0

# Sorted rule ids, one line, from `deck check --json` output or rules --json.
rules_of() {
    grep -o '"rule":"[^"]*"' | sed 's/^"rule":"//; s/"$//' | sort | tr '\n' ' '
}

# Sorted ids of a deck file's "expect" list, one line.
expect_of() {
    tr -d '\n' <"$1" | sed -n 's/.*"expect"[[:space:]]*:[[:space:]]*\[\([^]]*\)\].*/\1/p' \
        | grep -o '"[^"]*"' | tr -d '"' | sort | tr '\n' ' '
}

deck_result() {   # deck_result OK|BAD NAME [why]
    if [ "$1" = OK ]; then
        deck_passed=$((deck_passed + 1)); pass "$2"
    else
        deck_failed=$((deck_failed + 1)); fail "$2: $3"
    fi
}

check_fixture() {
    local f=$1 fmt name base out rc got want
    fmt=$(basename "$(dirname "$f")")
    base=$(basename "$f" .json)
    name="$fmt/$base"
    rc=0
    out=$("$ARBITER" deck check --format "$fmt" --cards "$CARDS" --json "$f" 2>"$TMP/err") || rc=$?
    got=$(printf '%s\n' "$out" | rules_of)
    want=$(expect_of "$f")
    if ! grep -q '"expect"' "$f"; then
        deck_result BAD "$name" "the fixture has no \"expect\" list"
        return
    fi
    case "$base" in
        legal-*)
            if [ "$rc" -eq 0 ] && [ -z "$got" ] && [ -z "$want" ] \
               && printf '%s' "$out" | grep -q '"legal":true'; then
                deck_result OK "$name legal"
            else
                deck_result BAD "$name" "want legal (exit 0), got exit $rc [$got] expect [$want] $(cat "$TMP/err")"
            fi ;;
        illegal-*)
            local first prefix
            first=${want%% *}
            prefix=$(printf '%s' "$first" | tr ':.' '__')
            if [ -z "$want" ]; then
                deck_result BAD "$name" "an illegal fixture needs a non-empty \"expect\""
            elif [ "${base#illegal-"$prefix"-}" = "$base" ]; then
                deck_result BAD "$name" "file name should start with illegal-$prefix-"
            elif [ "$rc" -eq 1 ] && [ "$got" = "$want" ] \
                 && printf '%s' "$out" | grep -q '"legal":false'; then
                deck_result OK "$name illegal: $got"
            else
                deck_result BAD "$name" "want exit 1 [$want], got exit $rc [$got] $(cat "$TMP/err")"
            fi ;;
        *)
            deck_result BAD "$name" "fixture names start with legal- or illegal-" ;;
    esac
}

# ---- every fixture -----------------------------------------------------------
for f in "$top_srcdir"/fixtures/decks/*/*.json; do
    [ -e "$f" ] || { fail "no fixtures under $top_srcdir/fixtures/decks"; break; }
    check_fixture "$f"
done
printf 'decks: %d passed, %d failed\n' "$deck_passed" "$deck_failed"

# ---- every rule has an illegal fixture -----------------------------------------
for fmt in snap advanced master; do
    rules=$("$ARBITER" deck rules --format "$fmt" --json | rules_of)
    [ -n "$rules" ] || fail "deck rules --format $fmt listed nothing"
    for r in $rules; do
        prefix=$(printf '%s' "$r" | tr ':.' '__')
        if ls "$top_srcdir/fixtures/decks/$fmt/illegal-$prefix-"*.json >/dev/null 2>&1; then
            pass "rule $fmt $r has a fixture"
        else
            fail "rule $fmt $r has no fixtures/decks/$fmt/illegal-$prefix-*.json"
        fi
    done
done

# ---- exit codes and output ------------------------------------------------------
expect_rc() {   # expect_rc WANT NAME CMD...
    local want=$1 name=$2 rc=0
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    if [ "$rc" -eq "$want" ]; then
        pass "$name (exit $rc)"
    else
        fail "$name: want exit $want, got $rc: $(head -c 400 "$TMP/err")"
    fi
}

LEGAL="$top_srcdir/fixtures/decks/snap/legal-coreon-fluxion-lines.json"
ILLEGAL="$top_srcdir/fixtures/decks/snap/illegal-snap_4_4-duplicate-spell.json"
check() { "$ARBITER" deck check --cards "$CARDS" "$@"; }

printf '{"monsters": ["cor-ember-whelp",' >"$TMP/truncated.json"
printf '{"monsters": [], "monsters": [], "supports": []}' >"$TMP/dupkey.json"
printf '{"monsters": [1, 2], "supports": []}' >"$TMP/notids.json"
printf '[]' >"$TMP/array.json"
printf '{"set": "broken"}' >"$TMP/broken-cards.json"

expect_rc 0 "legal deck" check --format snap "$LEGAL"
expect_rc 1 "illegal deck" check --format snap "$ILLEGAL"
expect_rc 1 "legal and illegal together" check --format snap "$LEGAL" "$ILLEGAL"
expect_rc 2 "missing deck file" check --format snap "$TMP/no-such-deck.json"
expect_rc 2 "missing file among good ones" check --format snap "$LEGAL" "$TMP/no-such-deck.json" "$ILLEGAL"
expect_rc 2 "malformed JSON deck" check --format snap "$TMP/truncated.json"
expect_rc 2 "duplicate key in a deck" check --format snap "$TMP/dupkey.json"
expect_rc 2 "ids that are not strings" check --format snap "$TMP/notids.json"
expect_rc 2 "deck that is not an object" check --format snap "$TMP/array.json"
expect_rc 2 "deck of another format" check --format advanced "$LEGAL"
expect_rc 2 "unknown format" check --format classic "$LEGAL"
expect_rc 2 "no --format" check "$LEGAL"
expect_rc 2 "no deck" check --format snap
expect_rc 2 "unknown option" check --format snap --bogus "$LEGAL"
expect_rc 2 "broken card database" "$ARBITER" deck check --format snap --cards "$TMP/broken-cards.json" "$LEGAL"
expect_rc 2 "missing card database" "$ARBITER" deck check --format snap --cards "$TMP/none.json" "$LEGAL"
expect_rc 0 "deck from stdin" sh -c '"$0" deck check --format snap --cards "$1" - <"$2"' "$ARBITER" "$CARDS" "$LEGAL"
expect_rc 0 "deck --help" "$ARBITER" deck --help
expect_rc 0 "deck check --help" "$ARBITER" deck check --help
expect_rc 0 "deck rules --help" "$ARBITER" deck rules --help
expect_rc 0 "deck rules, every format" "$ARBITER" deck rules
expect_rc 2 "deck rules, unknown format" "$ARBITER" deck rules --format classic
expect_rc 2 "deck, no command" "$ARBITER" deck
expect_rc 2 "deck, unknown command" "$ARBITER" deck frobnicate

# A deck judged under a format's levers, as the engines judge a header's:
# a 70-card Master deck (the 61-card fixture and nine more cards, none past
# three copies) is illegal by default, legal for a deck_size 70 event,
# whether the levers come from --rules or from a match header.
M61="$top_srcdir/fixtures/decks/master/illegal-master_deck_size-61-cards.json"
sed 's/"main": \[/"main": ["cor-ember-whelp","cor-ember-drake","cor-forge-golem","cor-forge-colossus","cor-cinder-hound","cor-cinder-warg","cor-magma-tortoise","cor-pyre-acolyte","cor-slag-brute",/' \
    "$M61" >"$TMP/m70.json"
HDR="$top_srcdir/fixtures/master/legal-announced-concede-by-p2.jsonl"
sed -n 1p "$HDR" | sed 's/"hidden":"announced"/"hidden":"announced","rules":{"deck_size":70}/' >"$TMP/h70.jsonl"
expect_rc 1 "70 cards, default levers" check --format master "$TMP/m70.json"
expect_rc 0 "70 cards, --rules deck_size 70" check --format master --rules '{"deck_size":70}' "$TMP/m70.json"
expect_rc 1 "60 cards, --rules deck_size 70" check --format master --rules '{"deck_size":70}' \
    "$top_srcdir/fixtures/decks/master/legal-coreon-ember.json"
expect_rc 0 "70 cards, --header of a deck_size 70 match" check --header "$TMP/h70.jsonl" "$TMP/m70.json"
expect_rc 1 "70 cards, --header of a default match" check --header "$HDR" "$TMP/m70.json"
expect_rc 2 "--rules, a lever out of range" check --format master --rules '{"deck_size":71}' "$TMP/m70.json"
expect_rc 2 "--rules, another format's lever" check --format advanced --rules '{"deck_size":70}' "$TMP/m70.json"
expect_rc 2 "--rules, not an object" check --format master --rules '[70]' "$TMP/m70.json"
expect_rc 2 "--rules and --header" check --format master --rules '{}' --header "$HDR" "$TMP/m70.json"
expect_rc 2 "--header of another format than --format" check --format snap --header "$HDR" "$TMP/m70.json"
expect_rc 2 "--header, no such file" check --header "$TMP/none.jsonl" "$TMP/m70.json"
check --format master --rules '{"deck_size":70}' "$TMP/m70.json" >"$TMP/text" 2>&1
check --format master --rules '{"deck_size":50}' "$TMP/m70.json" >"$TMP/text50" 2>&1
if grep -qx "$TMP/m70.json: legal" "$TMP/text" \
   && grep -q "master:deck.size  The deck has 70 cards; this match's decks have exactly 50\." "$TMP/text50"; then
    pass "the size rule speaks of the lever's size"
else
    fail "lever sentences: $(cat "$TMP/text" "$TMP/text50")"
fi

# The text form: "DECK: illegal", then "  RULE  SENTENCE" per violation.
check --format snap "$ILLEGAL" >"$TMP/text" 2>&1
if [ "$(head -n1 "$TMP/text")" = "$ILLEGAL: illegal" ] \
   && grep -q '^  snap:4\.4  The deck lists .* 2 times' "$TMP/text"; then
    pass "text output"
else
    fail "text output: $(cat "$TMP/text")"
fi
check --format snap "$LEGAL" >"$TMP/text" 2>&1
if [ "$(cat "$TMP/text")" = "$LEGAL: legal" ]; then
    pass "text output, legal"
else
    fail "text output, legal: $(cat "$TMP/text")"
fi

# --json: one line per deck, an unreadable one included.
check --format snap --json "$LEGAL" "$TMP/truncated.json" "$ILLEGAL" >"$TMP/json" 2>/dev/null
if [ "$(wc -l <"$TMP/json")" -eq 3 ] && sed -n 2p "$TMP/json" | grep -q '"error":' \
   && sed -n 1p "$TMP/json" | grep -q '^{"deck":"[^"]*","format":"snap","legal":true,"violations":\[\]}$'; then
    pass "json output, one line per deck"
else
    fail "json output: $(cat "$TMP/json")"
fi

finish
