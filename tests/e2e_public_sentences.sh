# e2e_public_sentences.sh -- the daemon shows no verdict sentence naming a
# card its event hides: every illegal fixture of the three formats streamed
# to a real arbiterd, its feed and its query socket read by
# tests/public_sentences.py (which says what it checks).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
F="$top_srcdir/fixtures"
daemon_start || { fail "arbiterd starts"; finish; exit 1; }
/usr/bin/python3 "$top_srcdir/tests/public_sentences.py" "$EP_FEED" "$EP_Q" "$ARBITER" "$F/cards/core.json" \
    "$F"/snap/illegal-*.jsonl "$F"/advanced/illegal-*.jsonl "$F"/master/illegal-*.jsonl
rc=$?
daemon_stop || rc=1
daemon_log_clean || { echo "FAIL arbiterd's log has errors"; rc=1; }
exit $rc
