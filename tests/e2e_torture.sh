#!/usr/bin/env bash
# e2e_torture.sh -- kill -9 arbiterd again and again while tables stream
# (issue 4: "nothing acknowledged is ever lost").
#
#   TORTURE_ROUNDS=200 tests/e2e_torture.sh     the long local run (make torture)
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

snap_corpus "$TMP/corpus" -t
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

store_check_all "$TMP/acked.jsonl" "${files[@]}"

daemon_stop && pass "SIGTERM: exit 0" || fail "SIGTERM: exit code not 0"
mdb_dump -a "$STORE" >/dev/null && pass "mdb_dump reads the store after $round kills" || fail "mdb_dump cannot read the store"
daemon_log_clean && pass "arbiterd's log: no sanitizer report, no error" || fail "arbiterd's log has errors (above)"
finish
