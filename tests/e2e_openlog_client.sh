#!/usr/bin/env bash
# e2e_openlog_client.sh -- arbiterd against tests/openlog_client.py, the
# independent client written from openlog.md alone (no server source read),
# as the wire contract's independent check: if the page is enough and the
# daemon follows it, the client passes on a legal and an illegal log.
#
# Starts $ARBITERD (default $top_builddir/arbiterd) on ipc endpoints in a
# temporary directory with a fresh store, streams
#   fixtures/snap/legal-commit-concede.jsonl          (commit mode, legal)
#   fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl (open mode, snap:9.4)
#   tests/advanced-client-legal.jsonl   (Advanced, commit mode, legal: p2
#                                        wins when p1's LP reach 0)
#   tests/advanced-client-illegal.jsonl (Advanced, open mode: p1's second
#                                        Normal Summon of a turn at seq 4,
#                                        then p1 concedes)
#   tests/master-client-legal.jsonl     (Master, commit mode, legal: mana
#                                        placed by commitment, a Mana Summon,
#                                        attacks by index, a mana_remove, an
#                                        Ongoing Spell, claims of lp; p2 wins
#                                        when p1's LP reach 0)
#   tests/master-client-illegal.jsonl   (Master, open mode: a second Mana Step
#                                        placement at 4, an attack paid with
#                                        the wrong class at 11, a Mana Summon
#                                        paid short at 17, a mana card of
#                                        another class at 22, a mana_remove no
#                                        effect obliges at 25; a claim of lp
#                                        the engine finds mismatch at 21)
#   tests/master-client-announced.jsonl (Master, announced mode, levers
#                                        mana_rate 2 and opening hands 6/7,
#                                        legal: two mana a Mana Step, a
#                                        mana_remove of one of two Obscura
#                                        mana, one of them spent; p2 concedes)
# and classic Snap games of fixtures/classic/ (SPEC.md 7.6, the standard card
# database loaded beside $ARBITER_CARDS, the client told it with --cards):
#   legal-commit-2p-draw              (2 players, commit, a pile each: a draw)
#   legal-open-3p-common-dealer-3     (3 players, open, the common pile, p3 deals)
#   legal-announced-3p-piles-mixup    (3 players, announced, a pile each, 673
#                                      events: two events pages a view)
#   legal-commit-4p-piles-partial-penalty (4, commit: a penalty paid in part, A7)
#   legal-commit-6p-common-tie-window-250 (6, commit, the common pile)
#   legal-open-8p-common-two-decks    (8 players, open, the common pile, 2 decks)
#   legal-announced-8p-two-decks      (8 players, announced, a pile each, 2,161
#                                      events: events pages, verify refused past
#                                      1,000 events)
#   illegal-classic_piles.match-piles-to-the-second-caller (classic:piles.match at 25)
#   illegal-classic_deck.decks-card-dealt-twice (classic:deck.decks at 2: its
#                                      sentence names a card the public may not see)
#   illegal-classic_end.winner-claim-wrong-winner (mismatch classic:end.winner at 83)
#   illegal-openlog_6-flip-not-the-top-card (openlog:6 at 3: a flip of a card
#                                      that is not the top one; the card that is
#                                      there is face down, and no view but the
#                                      judge's may read its name)
# (the illegal ones share their match id with a legal game: each goes under a
# renamed id, "<id>.client", or "<id>.client-top" where two share one),
# through the client (the Advanced and Master logs were written by hand from
# the rulebooks and logformat/SPEC.md 7.2 and 7.4, checked with `arbiter
# verify`), stops the daemon with SIGTERM (it must exit 0) and passes only if
# the client passed on every log.  With $ARBITER (default
# $top_builddir/arbiter) the client also holds the daemon to the command
# line: live verdicts, summary and verify op as `arbiter verify --json`,
# Advanced, Master and classic boards as `arbiter replay --json`; with
# $ARBITER_CARDS it knows the card names, and no public text may name a card
# not yet revealed.  As a sanity check of the run itself, a legal log must get
# no illegal verdict and an illegal one the rule it is run with (the Advanced
# and Master rule ids are not on the pages -- SPEC 8 gives only their form, a
# named section -- so any `FORMAT:NAME` is taken, at the seqs given; the
# client's comparison with `arbiter verify` pins the ids).  Skips (77) when
# /usr/bin/python3 lacks zmq or msgpack (Debian: python3-zmq python3-msgpack).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
: "${ARBITER:=$top_builddir/arbiter}"
: "${ARBITER_CARDS:=$top_srcdir/fixtures/cards/core.json}"
export ARBITER_CARDS
STANDARD="$top_srcdir/fixtures/cards/standard.json"
PY=/usr/bin/python3
CLIENT="$top_srcdir/tests/openlog_client.py"

if ! "$PY" -c 'import zmq, msgpack' 2>/dev/null; then
    echo "SKIP e2e_openlog_client: $PY cannot import zmq and msgpack (install python3-zmq python3-msgpack)"
    exit 77
fi
if [ ! -x "$ARBITERD" ]; then
    echo "FAIL e2e_openlog_client: no daemon at $ARBITERD"
    exit 1
fi

TMP=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid"; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

IN="ipc://$TMP/ingest" FEED="ipc://$TMP/feed" QUERY="ipc://$TMP/query"
"$ARBITERD" --db "$TMP/db" --ingest "$IN" --feed "$FEED" --query "$QUERY" \
    --cards "$ARBITER_CARDS" --cards "$STANDARD" --log-level warn 2>"$TMP/arbiterd.err" &
pid=$!
# ready when the ipc files exist (the client's own sockets reconnect anyway)
for _ in $(seq 50); do
    [ -S "$TMP/ingest" ] && [ -S "$TMP/feed" ] && [ -S "$TMP/query" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL e2e_openlog_client: arbiterd did not start:"; cat "$TMP/arbiterd.err"
    pid=; exit 1
fi

passed=0 failed=0
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }

withcli=()
if [ -x "$ARBITER" ]; then
    withcli=(--arbiter "$ARBITER")
else
    echo "# no arbiter command at $ARBITER: the client does not compare with it"
fi

# run_log FILE WANT_RULE [SEQS [STATUS]]: FILE under $top_srcdir; WANT_RULE ""
# for a legal log, else an extended regular expression for the rule; with SEQS
# ("4" or "4 11 17"), the log must get exactly those STATUS (default illegal)
# verdicts, each citing WANT_RULE.  $CARDS (default $ARBITER_CARDS) is the
# client's card database; with $RENAME the log goes under the match id
# "<id>.<RENAME>" (a copy in $TMP).
run_log() {
    local log="$top_srcdir/$1" want="$2" seq="${3:-}" st="${4:-illegal}" name out rc got s
    name=$(basename "$1" .jsonl)
    out="$TMP/$name.out"
    if [ -n "${RENAME:-}" ]; then
        sed 's/^{"match":"\([^"]*\)"/{"match":"\1.'"$RENAME"'"/' "$log" >"$TMP/$name.jsonl"
        log="$TMP/$name.jsonl"
    fi
    rc=0
    "$PY" "$CLIENT" ${withcli[@]+"${withcli[@]}"} --cards "${CARDS:-$ARBITER_CARDS}" \
        --ingest "$IN" --feed "$FEED" --query "$QUERY" "$log" >"$out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
        pass "$name: the client found the daemon as openlog.md says"
    else
        fail "$name: the client exited $rc"
        sed -n '/^DEVIATIONS/,$p' "$out"
        grep -v '^[0-9]' "$out" | grep -v '^#' | grep -v '^DEVIATIONS' | grep -v '^  - ' | head -20
    fi
    # verdict lines: "seq status rule msg"
    if [ -z "$want" ]; then
        if grep -Eq '^[0-9]+ (illegal|mismatch|malformed) ' "$out"; then
            fail "$name: a legal log got a ruling: $(grep -E '^[0-9]+ (illegal|mismatch|malformed) ' "$out" | head -3)"
        else
            pass "$name: no illegal verdict"
        fi
    elif [ -z "$seq" ]; then
        if grep -Eq "^[0-9]+ $st $want " "$out"; then
            pass "$name: $st citing $want"
        else
            fail "$name: no verdict '$st $want': $(grep -E '^[0-9]+ ' "$out" | grep -v ' ok ' | head -3)"
        fi
    else
        got=$(grep -E "^[0-9]+ $st " "$out" | cut -d' ' -f1 | tr '\n' ' ')
        for s in $seq; do
            grep -Eq "^$s $st $want " "$out" || got="$got(seq $s: not $want)"
        done
        if [ "$got" = "$seq " ]; then
            pass "$name: $st verdicts at seqs $seq: $(grep -E "^[0-9]+ $st " "$out" | cut -d' ' -f3 | tr '\n' ' ')"
        else
            fail "$name: not exactly '$st $want' at seqs $seq: got seqs $got; $(grep -E '^[0-9]+ ' "$out" | grep -v ' ok ' | head -3)"
        fi
    fi
}

run_log fixtures/snap/legal-commit-concede.jsonl ""
run_log fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl snap:9.4
run_log tests/advanced-client-legal.jsonl ""
run_log tests/advanced-client-illegal.jsonl 'advanced:[A-Za-z0-9._-]+' 4
run_log tests/master-client-legal.jsonl ""
run_log tests/master-client-illegal.jsonl 'master:[A-Za-z0-9._-]+' "4 11 17 22 25"
run_log tests/master-client-announced.jsonl ""

C=fixtures/classic
for f in legal-commit-2p-draw legal-open-3p-common-dealer-3 legal-announced-3p-piles-mixup \
         legal-commit-4p-piles-partial-penalty legal-commit-6p-common-tie-window-250 \
         legal-open-8p-common-two-decks legal-announced-8p-two-decks; do
    CARDS="$STANDARD" run_log "$C/$f.jsonl" ""
done
CARDS="$STANDARD" RENAME=client run_log "$C/illegal-classic_piles.match-piles-to-the-second-caller.jsonl" classic:piles.match 25
CARDS="$STANDARD" RENAME=client run_log "$C/illegal-classic_deck.decks-card-dealt-twice.jsonl" classic:deck.decks 2
CARDS="$STANDARD" RENAME=client run_log "$C/illegal-classic_end.winner-claim-wrong-winner.jsonl" classic:end.winner 83 mismatch
CARDS="$STANDARD" RENAME=client-top run_log "$C/illegal-openlog_6-flip-not-the-top-card.jsonl" openlog:6 3

kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=
if [ "$rc" -eq 0 ]; then pass "arbiterd exits 0 on SIGTERM"; else fail "arbiterd exited $rc on SIGTERM: $(tail -5 "$TMP/arbiterd.err")"; fi

printf 'e2e_openlog_client: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
