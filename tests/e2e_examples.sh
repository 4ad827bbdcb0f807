# e2e_examples.sh -- the table clients of examples/ against a real arbiterd,
# as a table author would run them (arbiterd(8), WRITING A TABLE):
#   - the C client (examples/table_client.c, built by make check) streams an
#     Advanced game with an illegal attack to a daemon that is not up yet:
#     it reconnects until the daemon answers, and its verdicts are those of
#     `arbiter verify` on the same log;
#   - it streams a long Master game, paced, while the daemon is killed
#     (kill -9) and started again: it resends what was unanswered, the resent
#     stored events come back `duplicate`, and the store holds every event
#     once;
#   - the Python client (examples/table_client.py) streams a Snap game and
#     prints what the C client prints for it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"

CLIENT="$top_builddir/examples/table_client"
PYCLIENT="$top_srcdir/examples/table_client.py"
[ -x "$CLIENT" ] || { echo "SKIP e2e_examples: $CLIENT is not built"; exit 77; }
command -v jq >/dev/null || { echo "SKIP e2e_examples: jq is needed"; exit 77; }
F="$top_srcdir/fixtures"

# want_of LOG: what a client prints for a log streamed once: "seq status" per
# event, with "    rule: sentence" under each non-ok verdict, from `arbiter verify`
want_of() {
    "$ARBITER" verify --json "$1" >"$TMP/v.json" 2>/dev/null
    jq -r '.match' "$TMP/v.json" >/dev/null
    jq -r --slurpfile v "$TMP/v.json" '.seq as $s | ($v[0].verdicts | map(select(.seq == $s)) | first) as $x
        | if $x then "\($s) \($x.status)\n    \($x.rule): \($x.msg)" else "\($s) ok" end' "$1"
}

# stored_events MATCH: how many events the store holds for it
stored_events() {
    "$ARBITER" query --endpoint "$EP_Q" "{\"op\":\"match\",\"match\":\"$1\"}" | jq -r '.match.events'
}

# ---- 1. the C client, the daemon started after it ----------------------------------
LOG1="$F/advanced/illegal-advanced_attack_once-second-attack.jsonl"
"$CLIENT" --timeout 300 "$EP_IN" "$LOG1" >"$TMP/c1.out" 2>"$TMP/c1.err" &
CPID=$!
sleep 1
daemon_start || fail "arbiterd starts"
rc=0
wait "$CPID" || rc=$?
if [ "$rc" -eq 0 ]; then pass "C client: done once the daemon is up (exit 0)"; else fail "C client: exit $rc: $(cat "$TMP/c1.err")"; fi
if grep -q 'reconnecting' "$TMP/c1.err"; then pass "C client: it reconnected while nobody answered"
else fail "C client: no reconnection said on stderr: $(cat "$TMP/c1.err")"; fi
want_of "$LOG1" >"$TMP/c1.want"
if cmp -s "$TMP/c1.out" "$TMP/c1.want"; then pass "C client: every verdict as arbiter verify gives it"
else fail "C client: verdicts differ: $(diff "$TMP/c1.want" "$TMP/c1.out" | head -8)"; fi

# ---- 2. the C client through a kill -9 of the daemon ----------------------------------
LOG2=$(ls -S "$F"/master/legal-open-*.jsonl | head -1)
M2=$(head -1 "$LOG2" | jq -r .match)
N2=$(grep -c . "$LOG2")
"$CLIENT" --timeout 300 --window 4 --pace 15 "$EP_IN" "$LOG2" >"$TMP/c2.out" 2>"$TMP/c2.err" &
CPID=$!
sleep 0.6
daemon_kill
daemon_start || fail "arbiterd starts again after kill -9"
rc=0
wait "$CPID" || rc=$?
if [ "$rc" -eq 0 ]; then pass "C client: done through a kill -9 ($N2 events)"; else fail "C client through kill -9: exit $rc: $(cat "$TMP/c2.err")"; fi
n=$(grep -c '^[0-9]* ' "$TMP/c2.out")
if [ "$n" -eq "$N2" ]; then pass "C client: one verdict printed per event"; else fail "C client: $n verdicts for $N2 events"; fi
if grep -q '^[0-9]* duplicate (stored: ok)' "$TMP/c2.out" || grep -q 'resending' "$TMP/c2.err"
then pass "C client: it resent what was unanswered"
else fail "C client: nothing was resent: $(cat "$TMP/c2.err")"; fi
if [ "$(stored_events "$M2")" = "$N2" ]; then pass "the store holds every event once"
else fail "the store holds $(stored_events "$M2") events of $N2"; fi
if ! grep -vE '^[0-9]+ (ok|duplicate \(stored: ok\))$' "$TMP/c2.out" | grep -q .; then pass "C client: a legal game, nothing but ok"
else fail "C client: unexpected verdicts: $(grep -vE ' ok$| \(stored: ok\)$' "$TMP/c2.out" | head -3)"; fi

# ---- 3. the Python client, as the C one ---------------------------------------------------
LOG3="$F/snap/legal-open-concede.jsonl"
if /usr/bin/python3 -c 'import zmq' 2>/dev/null; then
    rc=0
    /usr/bin/python3 "$PYCLIENT" --timeout 1000 "$EP_IN" "$LOG3" >"$TMP/p.out" 2>"$TMP/p.err" || rc=$?
    if [ "$rc" -eq 0 ]; then pass "Python client: exit 0"; else fail "Python client: exit $rc: $(cat "$TMP/p.err")"; fi
    want_of "$LOG3" >"$TMP/p.want"
    if cmp -s "$TMP/p.out" "$TMP/p.want"; then pass "Python client: every verdict as arbiter verify gives it"
    else fail "Python client: verdicts differ: $(diff "$TMP/p.want" "$TMP/p.out" | head -8)"; fi
    "$CLIENT" "$EP_IN" "$LOG3" >"$TMP/c3.out" 2>/dev/null
    /usr/bin/python3 "$PYCLIENT" "$EP_IN" "$LOG3" >"$TMP/p3.out" 2>/dev/null
    if cmp -s "$TMP/c3.out" "$TMP/p3.out" && grep -q 'duplicate (stored: ok)' "$TMP/c3.out"
    then pass "the two clients print the same for a resent game (every event duplicate)"
    else fail "the clients differ: $(diff "$TMP/c3.out" "$TMP/p3.out" | head -6)"; fi
else
    fail "Python client: /usr/bin/python3 has no zmq (Debian's python3-zmq)"
fi

daemon_stop || fail "arbiterd stops cleanly"
daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log has errors"
finish
