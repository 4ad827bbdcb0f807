#!/usr/bin/env bash
# Nothing outside the engines assumes two players (issue 21): classic Snap
# games of 2, 3, 4 and 8 players (tests/classic_seats.py, written from
# SPEC.md 7.6, each dealt from a card database of its own) go through
# `arbiter verify`, `arbiter send` to a real arbiterd, its public feed, its
# `state` query in every seat's view, and `arbiter audit` of the stored
# record:
#   - batch: legal, finished, the winner the game was written for;
#   - live: every verdict ok, and the stored summary names the same winner;
#   - the feed (public) never carries a card id of a face-down stack: the
#     deals' stacks are null;
#   - seat pK's view of the board shows pK's own stack and no other's; the
#     public view none; the judge's all; a seat the match lacks is refused
#     with a sentence (query and audit);
#   - audit of each stored record is clean, and its HTML page names every
#     player.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
PY=/usr/bin/python3
SEATS="2 3 4 8"
cards=(--cards "$top_srcdir/fixtures/cards/core.json")
for n in $SEATS; do
    "$PY" "$top_srcdir/tests/classic_seats.py" "$n" "$TMP" || { fail "classic_seats.py $n"; finish; exit 1; }
    cards+=(--cards "$TMP/seats$n.json")
done
winner_of() { [ "$1" = 2 ] && echo p1 || echo "p$1"; }

# 1. batch
for n in $SEATS; do
    out=$("$ARBITER" verify --cards "$TMP/seats$n.json" --json "$TMP/seats$n.jsonl" 2>&1)
    if printf '%s' "$out" | "$PY" -c '
import json, sys
r = json.loads(sys.stdin.read().splitlines()[0])
s = r.get("summary", r)
ok = r.get("status", s.get("status")) == "legal" and s.get("finished") and s.get("winner") == sys.argv[1]
sys.exit(0 if ok else 1)' "$(winner_of "$n")" 2>/dev/null; then
        pass "$n players: verify says legal, finished, $(winner_of "$n") won"
    else fail "$n players: verify: $out"; fi
done

# 2. live, with the feed watched
daemon_start "${cards[@]}" || { fail "arbiterd did not start"; finish; exit 1; }
# The watcher reads until it has as many messages as the games have events
# (then a second more, to catch any extra), or for two minutes at most: a
# silence between two games is not the end of the feed, as the queries of an
# 8-seat game take seconds in a sanitizer build on a loaded machine.
want=$(cat $(for n in $SEATS; do echo "$TMP/seats$n.jsonl"; done) | wc -l)
"$PY" - "$EP_FEED" "$TMP/feed.jsonl" "$want" <<'PYEOF' &
import json, sys, time, msgpack, zmq
ctx = zmq.Context()
s = ctx.socket(zmq.SUB)
s.connect(sys.argv[1])
s.setsockopt(zmq.SUBSCRIBE, b"")
s.setsockopt(zmq.RCVTIMEO, 500)
want, got = int(sys.argv[3]), 0
deadline = time.monotonic() + 120
with open(sys.argv[2], "w") as out:
    while time.monotonic() < deadline:
        try:
            topic, body = s.recv_multipart()
        except zmq.Again:
            continue
        out.write(json.dumps(msgpack.unpackb(body, raw=False)) + "\n")
        out.flush()
        got += 1
        if got == want:
            deadline = min(deadline, time.monotonic() + 1)
PYEOF
FEEDPID=$!
feed_wait_subscribed || fail "the feed watcher did not subscribe in 30 s"
for n in $SEATS; do
    "$ARBITER" send --endpoint "$EP_IN" --json "$TMP/seats$n.jsonl" >"$TMP/live$n" 2>"$TMP/send$n.err"
    events=$(wc -l <"$TMP/seats$n.jsonl")
    oks=$(grep -c '"status":"ok"' "$TMP/live$n")
    if [ "$oks" = "$events" ]; then pass "$n players live: all $events verdicts ok"
    else fail "$n players live: $oks of $events ok: $(grep -v '"status":"ok"' "$TMP/live$n" | head -3)"; fi
    m=classic-${n}p
    got=$("$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"match\",\"match\":\"$m\"}")
    if printf '%s' "$got" | grep -q "\"winner\":\"$(winner_of "$n")\",\"finished\":true"; then
        pass "$n players: the stored summary names $(winner_of "$n") the winner"
    else fail "$n players: match op: ${got:0:300}"; fi
    # after the deals (seq n): each seat sees its own stack only
    for k in $(seq 1 "$n"); do
        st=$("$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"state\",\"match\":\"$m\",\"at\":$n,\"view\":\"p$k\"}")
        if printf '%s' "$st" | "$PY" -c '
import json, sys
k = int(sys.argv[1])
st = json.loads(sys.stdin.read())["state"]
shown = [p["seat"] for p in st["players"] if "stack_cards" in p]
sys.exit(0 if shown == ["p%d" % k] else 1)' "$k"; then :
        else fail "$n players: p$k's view shows the stacks of another seat: ${st:0:300}"; fi
    done
    pass "$n players: each of the $n seats' views shows its own stack and no other"
    pub=$("$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"state\",\"match\":\"$m\",\"at\":$n,\"view\":\"public\"}")
    jud=$("$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"state\",\"match\":\"$m\",\"at\":$n,\"view\":\"judge\"}")
    if ! printf '%s' "$pub" | grep -q stack_cards && [ "$(printf '%s' "$jud" | grep -o stack_cards | wc -l)" = "$n" ]; then
        pass "$n players: the public view shows no stack, the judge's all $n"
    else fail "$n players: public ${pub:0:200} / judge ${jud:0:200}"; fi
    bad=$("$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"state\",\"match\":\"$m\",\"at\":$n,\"view\":\"p$((n + 1))\"}")
    if [ "$n" -lt 8 ]; then
        if printf '%s' "$bad" | grep -q "This match has no p$((n + 1))"; then pass "$n players: the view of p$((n + 1)) is refused: $(printf '%s' "$bad" | sed 's/.*"error":"\([^"]*\)".*/\1/')"
        else fail "$n players: p$((n + 1))'s view: $bad"; fi
    fi
done
wait "$FEEDPID"
if "$PY" - "$TMP" "$SEATS" "$TMP/feed.jsonl" <<'PYEOF'; then pass "the feed carried every event, and no face-down card of any deal"; else fail "the feed"; fi
import json, sys
tmp, seats, feed = sys.argv[1], sys.argv[2].split(), sys.argv[3]
msgs = [json.loads(l) for l in open(feed)]
want = sum(sum(1 for _ in open("%s/seats%s.jsonl" % (tmp, n))) for n in seats)
deals = [m["event"] for m in msgs if m["event"]["type"] == "deal"]
bad = [d for d in deals if any(c is not None for c in d["cards"])]
print("# feed: %d messages of %d events, %d deals, %d with a card named" % (len(msgs), want, len(deals), len(bad)))
sys.exit(0 if len(msgs) == want and deals and not bad else 1)
PYEOF
daemon_stop || fail "arbiterd did not stop cleanly"

# 3. the stored records
for n in $SEATS; do
    m=classic-${n}p
    # judged again with the card database the record pins
    if "$ARBITER" audit "$m" --db "$STORE" >"$TMP/audit$n" 2>&1; then pass "$n players: audit --db is clean"
    else fail "$n players: audit: $(grep -v '^  #' "$TMP/audit$n" | tail -4 | tr '\n' ' ')"; fi
    "$ARBITER" audit "$m" --db "$STORE" --html "$TMP/audit$n.html" >/dev/null 2>&1
    missing=
    for id in ann ben mia dan eve fay gus hal; do
        [ "$(grep -c "$id" "$TMP/seats$n.jsonl")" -gt 0 ] || continue
        grep -q "$id" "$TMP/audit$n.html" || missing="$missing $id"
    done
    if [ -z "$missing" ]; then pass "$n players: the audit page names every player"; else fail "$n players: the page lacks$missing"; fi
    if [ "$n" -lt 8 ]; then
        "$ARBITER" audit "$m" --db "$STORE" --view "p$((n + 1))" >/dev/null 2>&1
        rc=$?
        if [ $rc = 2 ]; then pass "$n players: audit --view p$((n + 1)) exits 2"; else fail "$n players: audit --view p$((n + 1)) exited $rc"; fi
    fi
done
finish
