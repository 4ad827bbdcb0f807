#!/usr/bin/env bash
# fixtures/classic (made by its generate.sh and mutate.py):
#   - every legal game verifies legal and finished -- a winner, or a draw for
#     the *-draw games -- with no verdict that is not ok, as .jsonl and
#     converted to .mlog; in open mode nothing is left unverified;
#   - the set covers what it claims: 2, 3, 4, 6 and 8 players, both variants,
#     the three hidden modes, two decks, a draw, and a window whose calls
#     arrive out of their time order (a later call with an earlier `at`);
#   - every illegal log is flagged at exactly its .expect (one line "SEQ
#     STATUS RULE" per verdict that is not ok) in both encodings, and is named
#     after the rule of its .expect;
#   - every rule id the classic engine cites (verifiers/classic/*.c) has an
#     illegal log;
#   - who sees which card (openlog 9), in each legal game at a quarter, half,
#     three quarters and the end: `replay --view public` lists no stack's
#     cards, and every card its words name is a face-up top (a discard pile,
#     the common pile, the snap pot); `--view p2` lists p2's stack and no
#     other's, with card ids in open mode only; `--view judge` lists every
#     player's stack, the judge's cards in open mode being p2's view's;
#   - through a daemon: a 3-player and an 8-player game sent with
#     `arbiter send` are stored with the same verdicts, and `audit --db` is
#     clean.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
dir=$top_srcdir/fixtures/classic
CARDS=$top_srcdir/fixtures/cards/standard.json
ARBITER_CARDS=$CARDS
export ARBITER_CARDS

# ---- legal games, both encodings -------------------------------------------------
n=0
for f in "$dir"/legal-*.jsonl; do
    n=$((n + 1))
    b=$(basename "$f" .jsonl)
    case "$b" in *-draw) end='"winner":null,"finished":true' ;; *) end='"winner":"p[1-8]","finished":true' ;; esac
    for enc in jsonl mlog; do
        in=$f
        if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
        out=$("$ARBITER" verify --json "$in"); rc=$?
        case "$b" in legal-open-*) unv='"unverified":\{("p[1-8]":0,?)+\}' ;; *) unv='"unverified":' ;; esac
        if [ $rc -eq 0 ] && [[ $out == *'"status":"legal"'* ]] && printf '%s' "$out" | grep -qE "$end" \
            && [[ $out == *'"verdicts":[]'* ]] && printf '%s' "$out" | grep -qE "$unv"; then
            pass "$b.$enc legal and finished"
        else
            fail "$b.$enc: exit $rc: $out"
        fi
        case "$b" in *-draw) [[ $out == *'"draw":true'* ]] || fail "$b.$enc: not a draw: $out" ;; esac
    done
done
[ $n -ge 12 ] || fail "only $n legal games in $dir"

# ---- what the legal set covers -------------------------------------------------------
headers=$(for f in "$dir"/legal-*.jsonl; do head -n 1 "$f"; done)
for want in 2 3 4 6 8; do
    if printf '%s\n' "$headers" | jq -se --argjson n "$want" 'map(select((.players | length) == $n)) | length > 0' >/dev/null; then
        pass "a legal game of $want players"
    else fail "no legal game of $want players"; fi
done
for q in '.hidden == "open"' '.hidden == "commit"' '.hidden == "announced"' '.rules.common_pile == true' \
    '(.rules.common_pile // false) == false' '.rules.decks == 2' '.rules.prop == true'; do
    if printf '%s\n' "$headers" | jq -se "map(select($q)) | length > 0" >/dev/null; then pass "a legal game with $q"
    else fail "no legal game with $q"; fi
done
late=0
for f in "$dir"/legal-*.jsonl; do
    jq -es '[.[] | select(.type == "snap" or .type == "snap_pot" or .type == "flip")]
            | [range(1; length) as $i | select(.[$i].type != "flip" and .[$i - 1].type != "flip"
                                              and .[$i].at < .[$i - 1].at)] | length > 0' "$f" >/dev/null \
        && late=$((late + 1))
done
if [ $late -gt 0 ]; then pass "$late legal games announce a call after a later one"
else fail "no legal game announces a call after a later one"; fi

# ---- illegal logs, both encodings ---------------------------------------------------------
m=0
for f in "$dir"/illegal-*.jsonl; do
    m=$((m + 1))
    b=$(basename "$f" .jsonl)
    want=$(cat "$dir/$b.expect")
    rule=$(awk 'NR == 1 { print $3 }' "$dir/$b.expect" | tr ':' '_')
    case "$b" in "illegal-$rule-"*) ;; *) fail "$b is not named after its rule ${rule/_/:}" ;; esac
    for enc in jsonl mlog; do
        in=$f
        if [ $enc = mlog ]; then
            # a log the codec refuses has no .mlog form
            "$ARBITER" convert "$f" "$TMP/$b.mlog" 2>/dev/null || { [[ $want == *malformed* ]] && continue; fail "$b: convert"; continue; }
            in=$TMP/$b.mlog
        fi
        got=$("$ARBITER" verify --json "$in" | jq -r '.verdicts[] | "\(.seq) \(.status) \(.rule)"')
        if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "$b.$enc: $want"
        else fail "$b.$enc: want '$want', got '$got'"; fi
    done
done
[ $m -ge 20 ] || fail "only $m illegal logs in $dir"

# ---- every rule the engine cites has an illegal log -----------------------------------------
for rule in $(grep -ohE '"(classic|openlog):[A-Za-z0-9._]+"' "$top_srcdir"/verifiers/classic/*.c | tr -d '"' | sort -u); do
    if ls "$dir"/illegal-"${rule/:/_}"-*.expect >/dev/null 2>&1; then pass "$rule has an illegal log"
    else fail "$rule is cited by the classic engine but no illegal log of $dir makes it cite it"; fi
done

# ---- the views ---------------------------------------------------------------------------------
names=$(jq -c '[.cards[] | {(.id): .name}] | add' "$CARDS")
for f in "$dir"/legal-*.jsonl; do
    b=$(basename "$f" .jsonl)
    last=$(($(wc -l <"$f") - 1))
    for at in $((last / 4)) $((last / 2)) $((3 * last / 4)) "$last"; do
        pub=$("$ARBITER" replay "$f" --at "$at" --view public --json)
        words=$("$ARBITER" replay "$f" --at "$at" --view public)
        p2=$("$ARBITER" replay "$f" --at "$at" --view p2 --json)
        jdg=$("$ARBITER" replay "$f" --at "$at" --view judge --json)
        # public: no stack's cards; every card named in words is a face-up top
        tops=$(printf '%s' "$pub" | jq -r --argjson n "$names" \
            '[.players[].pile.top?, .common_pile.top?, .pot.top] | map(select(. != null) | $n[.]) | .[]')
        named=$(printf '%s\n' "$words" | grep -oE '(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of (Clubs|Diamonds|Hearts|Spades)' | sort -u)
        hidden_named=$(comm -23 <(printf '%s\n' "$named" | sed '/^$/d') <(printf '%s\n' "$tops" | sort -u))
        if printf '%s' "$pub" | jq -e '[.players[] | has("stack_cards")] | any | not' >/dev/null && [ -z "$hidden_named" ]; then
            pass "$b at $at: the public view names no face-down card"
        else
            fail "$b at $at: the public view shows stacks or names $hidden_named"
        fi
        # p2: their own stack only, with ids in open mode only
        ok=$(printf '%s' "$p2" | jq --argjson n "$names" --arg open "$([[ $b == legal-open-* ]] && echo 1)" '
            ([.players[] | select(.seat != "p2") | has("stack_cards")] | any | not)
            and ([.players[] | select(.seat == "p2") | (.stack_cards // []) | map(type == "string" and $n[.] != null)]
                 | flatten | if $open == "1" then all else (any | not) end)
            and ([.players[] | select(.seat == "p2" and .out == false)] | map(has("stack_cards")) | all)')
        [ "$ok" = true ] && pass "$b at $at: p2 sees their own stack only" || fail "$b at $at: p2's view: $p2"
        # judge: every stack; in open mode p2's cards are those p2 sees
        ok=$(jq -n --argjson j "$jdg" --argjson p "$p2" '
            ([$j.players[] | select(.out == false) | (.stack_cards | length) == .stack] | all)
            and (([$j.players[] | select(.seat == "p2") | .stack_cards]) == ([$p.players[] | select(.seat == "p2") | .stack_cards]))')
        [ "$ok" = true ] && pass "$b at $at: the judge sees every stack" || fail "$b at $at: judge's view: $jdg"
    done
done

# ---- through a daemon: a 3-player and an 8-player game -----------------------------------------
sent=("$dir"/legal-commit-3p-two-decks-dealer-2.jsonl "$dir"/legal-announced-8p-two-decks.jsonl)
if daemon_start --cards "$CARDS"; then
    "$ARBITER" send --endpoint "$EP_IN" --tables 2 --json "${sent[@]}" >"$TMP/acked.jsonl" 2>"$TMP/send.err"
    [ "$(wc -l <"$TMP/acked.jsonl")" -eq "$(cat "${sent[@]}" | wc -l)" ] && pass "one verdict per event sent" ||
        fail "$(cat "${sent[@]}" | wc -l) events sent, $(wc -l <"$TMP/acked.jsonl") verdicts: $(head -c 300 "$TMP/send.err")"
    jq -e -s 'all(.status == "ok")' "$TMP/acked.jsonl" >/dev/null && pass "the daemon judges every event ok" ||
        fail "the daemon: $(jq -c 'select(.status != "ok")' "$TMP/acked.jsonl" | head -3)"
    daemon_stop && pass "arbiterd exits 0" || fail "arbiterd exit status"
    store_check_all "$TMP/acked.jsonl" "${sent[@]}"
    daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log"
else
    fail "arbiterd starts with the standard card database"
fi

finish
