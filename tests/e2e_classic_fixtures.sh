#!/usr/bin/env bash
# fixtures/classic (made by its generate.sh and mutate.py):
#   - every legal game verifies legal and finished -- a winner, or a draw for
#     the *-draw games -- with no verdict that is not ok, as .jsonl and
#     converted to .mlog, each with the card database its header names
#     (standard@1, or the custom deck critters@1); in open mode nothing is
#     left unverified;
#   - the set covers what it claims: 2, 3, 4, 6 and 8 players, both variants,
#     the three hidden modes, two decks, the prop, the snap pot off, a draw, a
#     window whose calls arrive out of their time order (a later call with an
#     earlier `at`), a custom deck (critters@1, which the standard 52 cannot
#     judge), a judge's game loss after which the others play on to a winner,
#     and calls at the very same millisecond where calls never tie, the table
#     naming one of them -- once the one announced second (RULINGS A9);
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
#   - through a daemon loading both card databases: every fixture, legal and
#     illegal (each under a match id of its own), streamed by 8 tables at once
#     with `arbiter send --json`: one verdict per event, and per fixture the
#     live verdicts that are not ok are `arbiter verify`'s, verdict for
#     verdict (live = batch, calls sent out of time order judged by time
#     alike); the log whose header is malformed is quarantined, not stored;
#     every other is stored once, whole, as acknowledged (store_check_all).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
dir=$top_srcdir/fixtures/classic
CARDS=$top_srcdir/fixtures/cards/standard.json
CUSTOM=$top_srcdir/fixtures/cards/critters.json
ARBITER_CARDS=$CARDS
export ARBITER_CARDS
CARD_DBS=("$CARDS" "$CUSTOM")

# ---- legal games, both encodings -------------------------------------------------
n=0
for f in "$dir"/legal-*.jsonl; do
    n=$((n + 1))
    b=$(basename "$f" .jsonl)
    case "$b" in *-draw) end='"winner":null,"finished":true' ;; *) end='"winner":"p[1-8]","finished":true' ;; esac
    for enc in jsonl mlog; do
        in=$f
        if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
        out=$("$ARBITER" verify --cards "$(card_db_of "$f")" --json "$in"); rc=$?
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
    '(.rules.common_pile // false) == false' '.rules.decks == 2' '.rules.prop == true' '.rules.snap_pot == false'; do
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

# a custom deck: a legal game dealt from critters@1, every card of it flipped
# one of that deck's, and the standard 52 cannot judge it
custom=$(grep -l '"cards":"critters@1"' "$dir"/legal-*.jsonl | head -n 1)
if [ -n "$custom" ] && jq -es --slurpfile db "$CUSTOM" '($db[0].cards | map(.id)) as $ids |
        [.[] | select(.type == "flip") | .card] | length > 0 and all(. as $c | $ids | index($c))' "$custom" >/dev/null &&
    ! "$ARBITER" verify --cards "$CARDS" --json "$custom" 2>/dev/null | grep -q '"status":"legal"'; then
    pass "a legal game with a custom deck: $(basename "$custom"), its flips the cards of critters@1; not with standard@1"
else fail "no legal game with the custom deck critters@1 (or the standard deck judges it too): ${custom:-none}"; fi

# the judge's game loss: the player is out, the others play on to a winner
lost=0
for f in "$dir"/legal-*.jsonl; do
    jq -es '(map(.type == "judge" and .ruling == "game_loss") | index(true)) as $j | select($j != null)
            | .[$j].player as $p | .[$j + 1:] as $after
            | ($after | map(select(.type == "flip")) | length > 0 and all(.by != $p))
              and ($after | map(select(.type == "snap" or .type == "snap_pot")) | all(.by != $p))
              and (.[-1].type == "claim" and .[-1].winner != null and .[-1].winner != $p)' "$f" >/dev/null &&
        lost=$((lost + 1))
done
[ $lost -gt 0 ] && pass "$lost legal games have a judge's game loss; the others play on and one of them wins" ||
    fail "no legal game has a judge's game loss followed by play and another player's win"

# calls at the very same millisecond where calls never tie (A9): the take
# names one of the callers, in some window the one announced second
same=0 second=0
for f in "$dir"/legal-*.jsonl; do
    head -n 1 "$f" | jq -e '.rules.prop == true or .rules.snap_pot == false' >/dev/null || continue
    read -r a b < <(jq -rs 'reduce .[] as $e ({calls: [], out: []};
            if $e.type == "snap" or $e.type == "snap_pot" then .calls += [$e]
            elif $e.type == "take" then .out += [{calls, take: $e}]
            elif $e.type == "flip" or $e.type == "turn_over" then .calls = []
            else . end)
        | [.out[] | .take.player as $p | .calls as $c
           | ($c | map(select(.by == $p)) | .[0]) as $mine | select($mine != null)
           | ($c | map(select(.by != $p and .type == $mine.type and .at == $mine.at))) as $twins
           | select($twins | length > 0) | ($twins | map(.seq < $mine.seq) | any)]
        | "\(length) \(map(select(.)) | length)"' "$f")
    same=$((same + a)) second=$((second + b))
done
[ $same -gt 0 ] && [ $second -gt 0 ] &&
    pass "$same takes of calls at the very same millisecond, $second of them by the caller announced second" ||
    fail "calls at the same millisecond: $same takes, $second by the caller announced second"

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
for f in "$dir"/legal-*.jsonl; do
    b=$(basename "$f" .jsonl)
    db=$(card_db_of "$f")
    names=$(jq -c '[.cards[] | {(.id): .name}] | add' "$db")
    jq -r '.cards[].name' "$db" >"$TMP/names"
    last=$(($(wc -l <"$f") - 1))
    for at in $((last / 4)) $((last / 2)) $((3 * last / 4)) "$last"; do
        pub=$("$ARBITER" replay --cards "$db" "$f" --at "$at" --view public --json)
        words=$("$ARBITER" replay --cards "$db" "$f" --at "$at" --view public)
        p2=$("$ARBITER" replay --cards "$db" "$f" --at "$at" --view p2 --json)
        jdg=$("$ARBITER" replay --cards "$db" "$f" --at "$at" --view judge --json)
        # public: no stack's cards; every card named in words is a face-up top
        tops=$(printf '%s' "$pub" | jq -r --argjson n "$names" \
            '[.players[].pile.top?, .common_pile.top?, .pot.top] | map(select(. != null) | $n[.]) | .[]')
        named=$(printf '%s\n' "$words" | grep -oFf "$TMP/names" | sort -u)
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

# ---- through a daemon: every fixture, live = batch -----------------------------------------
# Each under a match id of its own (a one-fault log keeps the match id of the
# game it was made from): "<match>.<n>".
mkdir -p "$TMP/live"
sent=()
k=0
for f in "$dir"/legal-*.jsonl "$dir"/illegal-*.jsonl; do
    k=$((k + 1))
    m=$(head -n 1 "$f" | jq -r .match)
    sed "s/\"match\":\"$m\"/\"match\":\"$m.$k\"/" "$f" >"$TMP/live/$(basename "$f")"
    sent+=("$TMP/live/$(basename "$f")")
done
if daemon_start --cards "$CARDS" --cards "$CUSTOM"; then
    "$ARBITER" send --endpoint "$EP_IN" --tables 8 --json "${sent[@]}" >"$TMP/acked.jsonl" 2>"$TMP/send.err"
    n_events=$(cat "${sent[@]}" | wc -l)
    [ "$(wc -l <"$TMP/acked.jsonl")" -eq "$n_events" ] && pass "one verdict per event sent ($n_events, ${#sent[@]} logs)" ||
        fail "$n_events events sent, $(wc -l <"$TMP/acked.jsonl") verdicts: $(tail -c 300 "$TMP/send.err")"
    live_equals_batch "$TMP/acked.jsonl" "classic fixtures (legal and one-fault)" "${sent[@]}"
    # a malformed header starts no match: quarantined, never stored
    unstored=$(jq -r 'select(.seq == 0 and .status == "malformed") | .match' "$TMP/acked.jsonl" | sort -u)
    quarantined=$("$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' | jq .quarantined)
    [ -n "$unstored" ] && [ "$quarantined" -eq "$(printf '%s\n' "$unstored" | wc -l)" ] &&
        pass "the logs with a malformed header ($(echo $unstored)) are in quarantine ($quarantined)" ||
        fail "malformed headers: '$unstored', quarantined: $quarantined"
    daemon_stop && pass "arbiterd exits 0" || fail "arbiterd exit status"
    stored=()
    for f in "${sent[@]}"; do
        grep -qxF "$(head -n 1 "$f" | jq -r .match)" <<<"$unstored" || stored+=("$f")
    done
    jq -c --arg u "$unstored" 'select(.match as $m | $u | split("\n") | index($m) | not)' "$TMP/acked.jsonl" >"$TMP/acked-stored.jsonl"
    store_check_all "$TMP/acked-stored.jsonl" "${stored[@]}"
    daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log"
else
    fail "arbiterd starts with the standard and the custom card databases"
fi

finish
