#!/usr/bin/env bash
# e2e_torture.sh -- kill -9 arbiterd again and again while tables stream
# (issue 4: "nothing acknowledged is ever lost").
#
#   TORTURE_ROUNDS=200 tests/e2e_torture.sh     the long local run
#   (make check runs TORTURE_ROUNDS, default 25)
#
# Eight tables stream every Snap fixture (their match ids suffixed, so the
# run never meets an old record) through `arbiter send`, which resends what
# got no verdict after a reconnect, as a table must.  Meanwhile the daemon
# is killed with SIGKILL at random moments and restarted on the same store.
# When every event has a verdict:
#   - every acknowledged verdict is the one in the store: an event answered
#     ok/illegal/... is stored with exactly that verdict; one answered
#     `duplicate` carries, as `stored`, exactly the stored verdict;
#   - every match is stored exactly once, whole: seqs 0..n-1, no more, no
#     fewer, chain intact, judged again as stored;
#   - the stored non-ok verdicts are those `arbiter verify` gives the file;
#   - mdb_dump reads the store.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
ROUNDS=${TORTURE_ROUNDS:-25}

# The corpus: every fixture that starts with its header (a log with an event
# before its header has a verdict that is never stored, by design).
mkdir -p "$TMP/corpus"
for f in fixtures/snap/*.jsonl; do
    [ "$(head -n 1 "$f" | jq -r .type)" = match ] || continue
    sed 's/"match":"\([^"]*\)"/"match":"\1-t"/' "$f" >"$TMP/corpus/$(basename "$f")"
done
files=("$TMP"/corpus/*.jsonl)
events=$(cat "${files[@]}" | wc -l)
# Pace the tables so that the stream outlasts the rounds (~0.3 s each).
rate=$(( events / (8 * ROUNDS * 3 / 10 + 1) + 1 ))

daemon_start || { fail "arbiterd starts"; finish; exit 1; }
"$ARBITER" send --endpoint "$EP_IN" --tables 8 --rate "$rate" --timeout 400 --json "${files[@]}" \
    >"$TMP/acked.jsonl" 2>"$TMP/send.err" &
sp=$!
round=0
while [ $round -lt "$ROUNDS" ] && kill -0 $sp 2>/dev/null; do
    sleep "0.$(( RANDOM % 30 + 5 ))"
    daemon_kill
    round=$((round + 1))
    daemon_start || { fail "arbiterd restarts after kill $round"; finish; exit 1; }
done
wait $sp
src=$?
echo "  $round kills while $events events streamed at $rate events/s per table; $(tail -n 1 "$TMP/send.err")"
[ $round -eq "$ROUNDS" ] && pass "$round kill -9 rounds during the stream" ||
    fail "the stream ended after $round of $ROUNDS kills (make it longer)"
[ $src -le 1 ] && [ "$(wc -l <"$TMP/acked.jsonl")" -ge "$events" ] &&
    pass "every event got a verdict in the end ($(wc -l <"$TMP/acked.jsonl") verdicts for $events events)" ||
    fail "arbiter send exit $src, $(wc -l <"$TMP/acked.jsonl") verdicts for $events events"

# The store, read back: one line per stored event, {"k":"match#seq","v":verdict}.
: >"$TMP/stored.jsonl"
bad=0
for f in "${files[@]}"; do
    m=$(head -n 1 "$f" | jq -r .match)
    n=$(( $(jq -s 'map(.seq) | max' "$f") + 1 ))
    arc=0
    "$ARBITER" audit "$m" --db "$STORE" --json >"$TMP/a" 2>/dev/null || arc=$?
    if [ $arc -gt 1 ]; then
        bad=$((bad + 1)); echo "  $m: no record"; continue
    fi
    jq -e --argjson n "$n" '.chain.intact and .judged_again.as_stored and
        ([.timeline[].seq] == [range(0; $n)])' "$TMP/a" >/dev/null ||
        { bad=$((bad + 1)); echo "  $m: not stored whole and once: $(jq -c '{chain, judged_again, n: (.timeline | length)}' "$TMP/a")"; }
    jq -c --arg m "$m" '.timeline[] | {k: "\($m)#\(.seq)", v: .verdict}' "$TMP/a" >>"$TMP/stored.jsonl"
    "$ARBITER" verify --json "$f" | jq -c '.verdicts[]' >"$TMP/b"
    jq -c '.timeline[].verdict | select(.status != "ok")' "$TMP/a" >"$TMP/s"
    cmp -s "$TMP/b" "$TMP/s" || { bad=$((bad + 1)); echo "  $m: stored verdicts are not the batch verdicts"; }
done
[ $bad -eq 0 ] && pass "${#files[@]} matches stored exactly once, whole, chains intact, verdicts as in batch" ||
    fail "$bad of ${#files[@]} matches are not stored as they should be"

# Every acknowledged verdict against the store.
jq -n -c --slurpfile s "$TMP/stored.jsonl" --slurpfile a "$TMP/acked.jsonl" '
    ($s | map({(.k): .v}) | add) as $db |
    [$a[] | . as $v | ($v.match + "#" + ($v.seq | tostring)) as $k |
     if $v.status == "duplicate" then select($v.stored != $db[$k]) else select($v != $db[$k]) end] |
    {wrong: length, first: .[0]}' >"$TMP/check"
[ "$(jq .wrong "$TMP/check")" -eq 0 ] &&
    pass "every acknowledged verdict ($(wc -l <"$TMP/acked.jsonl"), of them $(grep -c '"status":"duplicate"' "$TMP/acked.jsonl") duplicates) is the stored one: loss = 0" ||
    fail "acknowledged but not stored as acknowledged: $(cat "$TMP/check")"

daemon_stop && pass "SIGTERM: exit 0" || fail "SIGTERM: exit code not 0"
mdb_dump -a "$STORE" >/dev/null && pass "mdb_dump reads the store after $round kills" || fail "mdb_dump cannot read the store"
daemon_log_clean && pass "arbiterd's log: no sanitizer report, no error" || fail "arbiterd's log has errors (above)"
finish
