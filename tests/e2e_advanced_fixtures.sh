#!/usr/bin/env bash
# fixtures/advanced: every legal game verifies legal and finished; every
# illegal log is flagged at exactly its seq with exactly its status and rule,
# and every other event of it verifies (an illegal action changes nothing).
# Both encodings: each log is also converted to .mlog and verified again.
# And the hidden mode changes what can be checked, never what is legal: each
# open-mode legal game, announced instead, gets the same verdicts.
. "$(dirname "$0")/lib.sh"
dir=$top_srcdir/fixtures/advanced

n=0
for f in "$dir"/legal-*.jsonl; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    b=$(basename "$f" .jsonl)
    for enc in jsonl mlog; do
        in=$f
        if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
        out=$("$ARBITER" verify --json "$in"); rc=$?
        # openlog 6: open mode leaves nothing unverified; in the other modes
        # the cards still in hand at the end were never shown
        case "$b" in *-open-*) unv='"unverified":{"p1":0,"p2":0}' ;; *) unv='"unverified":{"p1":[0-9]+,"p2":[0-9]+}' ;; esac
        if [ $rc -eq 0 ] && [[ $out == *'"status":"legal"'* ]] && [[ $out == *'"finished":true'* ]] \
            && [[ $out == *'"winner":"p'[12]'"'* ]] && printf '%s' "$out" | grep -qE "$unv"; then
            pass "$b.$enc legal and finished, $(printf '%s' "$out" | grep -oE '"winner":"p[12]"')"
        else
            fail "$b.$enc: exit $rc: $out"
        fi
    done
done
[ $n -ge 12 ] || fail "only $n legal games in $dir"

# openlog 6: each legal open-mode game with its hidden cards announced
# instead (header hidden "announced", select hrefs null, nonces dropped)
# verifies with the same verdicts, winner and end.
for f in "$dir"/legal-open-*.jsonl; do
    [ -e "$f" ] || continue
    b=$(basename "$f" .jsonl)
    jq -c 'if .type == "match" then .hidden = "announced"
           elif .type == "select" then .cards |= map(null)
           else . end | del(.nonce)' "$f" >"$TMP/$b.announced.jsonl" || { fail "$b: jq"; continue; }
    summary='{status, verdicts, winner, finished}'
    want=$("$ARBITER" verify --json "$f" | jq -c "$summary")
    got=$("$ARBITER" verify --json "$TMP/$b.announced.jsonl" | jq -c "$summary")
    if [ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q '"cards":\["' "$TMP/$b.announced.jsonl"; then
        pass "$b in announced mode: the same verdicts, winner and end"
    else
        fail "$b in announced mode: want $want, got $got"
    fi
done

# A game that plays with a lever which allows more than the default (Life
# Points, hand limit, selection rate) is judged otherwise without it: the
# game uses its lever.  monster_zones and chain_cap only forbid; their proofs
# are the illegal logs that break them (field_limit-sixth-zone-of-5,
# chain_cap-second-counter).
for f in "$dir"/legal-*lp-*.jsonl "$dir"/legal-*hand-limit*.jsonl "$dir"/legal-*selection-rate*.jsonl \
         "$dir"/legal-*all-levers*.jsonl; do
    [ -e "$f" ] || continue
    rules=$(head -n 1 "$f" | jq -c '.rules')
    { head -n 1 "$f" | jq -c 'del(.rules)'; tail -n +2 "$f"; } >"$TMP/nolever.jsonl"
    summary='{status, winner, finished}'
    with=$("$ARBITER" verify --json "$f" | jq -c "$summary")
    without=$("$ARBITER" verify --json "$TMP/nolever.jsonl" | jq -c "$summary")
    if [ "$with" != "$without" ]; then
        pass "$(basename "$f"): $rules changes the game (without it: $without)"
    else
        fail "$(basename "$f"): judged the same without $rules: the game does not use its lever"
    fi
done

# An .expect holds one line "seq status rule" per verdict that is not ok
# (one line, but for a header with an illegal deck followed by an event);
# the status may be warning (the shot clock): the log is then legal.
n=0
for f in "$dir"/illegal-*.jsonl; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    b=$(basename "$f" .jsonl)
    [ -s "$dir/$b.expect" ] || { fail "$b: no .expect"; continue; }
    want=$(awk '{ printf "%s\"seq\":%s,\"status\":\"%s\",\"rule\":\"%s\"", (NR > 1 ? "\n" : ""), $1, $2, $3 }' "$dir/$b.expect")
    want_rc=0
    grep -qv ' warning ' "$dir/$b.expect" && want_rc=1
    # the file is named after a rule of its .expect (":" and "." as "_")
    named=no
    for rule in $(awk '{ print $3 }' "$dir/$b.expect" | tr ':.' '__'); do
        case "$b" in "illegal-$rule-"*) named=yes ;; esac
    done
    [ $named = yes ] || fail "$b: named after no rule of its .expect"
    for enc in jsonl mlog; do
        in=$f
        if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
        out=$("$ARBITER" verify --json "$in"); rc=$?
        # every verdict that is not ok, in seq order: exactly the expected ones
        bad=$(printf '%s' "$out" | grep -oE '"seq":[0-9]+,"status":"(warning|illegal|mismatch|conflict|gap|malformed|duplicate)"(,"rule":"[^"]*")?')
        if [ $rc -eq $want_rc ] && [ "$bad" = "$want" ]; then
            pass "$b.$enc: $(tr '\n' ' ' <"$dir/$b.expect")and the rest verifies"
        else
            fail "$b.$enc: exit $rc (want $want_rc), want only $want, got: ${bad:-nothing}"
        fi
    done
done
[ $n -gt 0 ] || fail "no illegal logs in $dir"

# Every rule id the Advanced engine can cite (its sources, the open log's
# part and the deck rules) is the verdict of one illegal log at least.
missing=
for rule in $(grep -ohE '"(advanced|openlog):[A-Za-z0-9._]+"' "$top_srcdir"/verifiers/advanced/*.c \
                  "$top_srcdir"/verifiers/openlog.c "$top_srcdir"/verifiers/deck.c | tr -d '"' | sort -u); do
    cat "$dir"/illegal-*.expect | grep -q " $rule\$" || missing="$missing $rule"
done
if [ -z "$missing" ]; then
    pass "every rule id the engine can cite has an illegal log"
else
    fail "rule ids without an illegal log in $dir:$missing"
fi
finish
