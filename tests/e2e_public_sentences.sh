# e2e_public_sentences.sh -- the daemon shows no verdict sentence naming a
# card its event hides: every illegal fixture of the three formats streamed
# to a real arbiterd, its feed and its query socket read by
# tests/public_sentences.py (which says what it checks); and `arbiter replay`
# in each view on a Snap log whose Bench hides the card its sentence names.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
F="$top_srcdir/fixtures"
daemon_start || { fail "arbiterd starts"; finish; exit 1; }
/usr/bin/python3 "$top_srcdir/tests/public_sentences.py" "$EP_FEED" "$EP_Q" "$ARBITER" "$F/cards/core.json" \
    "$F"/snap/illegal-*.jsonl "$F"/advanced/illegal-*.jsonl "$F"/master/illegal-*.jsonl
rc=$?
# arbiter replay draws the sentences in its view too (a log a judge may show a player)
L="$F/snap/illegal-snap_8_3-support-on-bench.jsonl"
for v in public p1 p2 judge; do
    got=$("$ARBITER" replay "$L" --at 2 --view "$v" | grep '^  seq 2 ')
    case "$v" in public | p1) want="a hidden card on the Bench" ;; *) want="Night Terror on the Bench" ;; esac
    case "$got" in *"$want"*) echo "PASS replay --view $v: $got" ;; *) echo "FAIL replay --view $v: want '$want': $got"; rc=1 ;; esac
done
got=$("$ARBITER" replay "$L" --at 2 --view public --json | jq -r '.verdicts[] | select(.seq == 2) | .msg')
case "$got" in *"a hidden card on the Bench"*) echo "PASS replay --json --view public: $got" ;;
    *) echo "FAIL replay --json --view public: $got"; rc=1 ;; esac
daemon_stop || rc=1
daemon_log_clean || { echo "FAIL arbiterd's log has errors"; rc=1; }
exit $rc
