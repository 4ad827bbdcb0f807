# daemon.sh -- start and stop a real arbiterd for the end-to-end scripts
# (sourced after lib.sh, not run).  Endpoints are ipc sockets in $TMP, the
# store a folder in $TMP: nothing is shared with another test or a daemon
# the developer runs.
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
EP_IN="ipc://$TMP/ingest"
EP_FEED="ipc://$TMP/feed"
EP_Q="ipc://$TMP/query"
STORE="$TMP/store"
DPID=
# Variables set in arbiterd's environment only (VAR=value words), e.g. the
# power-loss layer's LD_PRELOAD (tests/e2e_powerloss.sh).
DAEMON_ENV=()

# daemon_start [extra options]: returns once the query socket answers;
# else 1, with arbiterd's log on stderr, and DSTATUS its exit status when
# it exited (empty when it did not answer in 10 s).  Each health request
# waits a second at most, so that a daemon that dies starting is seen
# dead within a second or so.
daemon_start() {
    env "${DAEMON_ENV[@]}" "$ARBITERD" --db "$STORE" --ingest "$EP_IN" --feed "$EP_FEED" --query "$EP_Q" --log-level warn "$@" \
        >>"$TMP/arbiterd.log" 2>&1 &
    DPID=$!
    DSTATUS=
    local i
    for i in $(seq 1 100); do
        timeout 1 "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >/dev/null 2>&1 && return 0
        kill -0 "$DPID" 2>/dev/null || break
        sleep 0.1
    done
    if ! kill -0 "$DPID" 2>/dev/null; then
        wait "$DPID"
        DSTATUS=$?
        DPID=
    fi
    echo "arbiterd did not start${DSTATUS:+ (exit status $DSTATUS)}:" >&2
    cat "$TMP/arbiterd.log" >&2
    return 1
}

# feed_wait_subscribed [N]: returns once the daemon counts N subscriptions
# (1 by default) on its feed, as its health says; 1 after 30 s.  A SUB
# socket's subscription reaches the publisher some time after connect, and
# a watcher started in the background may take a second to import its
# modules on a loaded machine: a fixed sleep loses the first events.
feed_wait_subscribed() {
    local want=${1:-1} i n
    for i in $(seq 1 300); do
        n=$("$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' 2>/dev/null | sed -n 's/.*"feed_subscriptions":\([0-9]*\).*/\1/p')
        [ "${n:-0}" -ge "$want" ] && return 0
        sleep 0.1
    done
    return 1
}

# daemon_stop: SIGTERM, and the exit code arbiterd gave.
daemon_stop() {
    local rc=0
    kill -TERM "$DPID" 2>/dev/null
    wait "$DPID" || rc=$?
    DPID=
    return $rc
}

# daemon_kill: SIGKILL, as a power cut would (a killed process loses
# nothing the kernel has: tests/e2e_powerloss.sh cuts the power too).
# DSTATUS: its exit status (137 when the kill killed it).
daemon_kill() {
    kill -KILL "$DPID" 2>/dev/null
    wait "$DPID" 2>/dev/null
    DSTATUS=$?
    DPID=
}

daemon_cleanup() {
    [ -n "$DPID" ] && kill -KILL "$DPID" 2>/dev/null
    rm -rf "$TMP"
}
trap daemon_cleanup EXIT

# daemon_log_clean: no sanitizer report and no error line in arbiterd's log
# (a crash between two kills would otherwise go unseen).
daemon_log_clean() {
    ! grep -E 'AddressSanitizer|LeakSanitizer|runtime error|arbiterd: error' "$TMP/arbiterd.log"
}

# snap_corpus DIR SUFFIX [N FROM]: copies in DIR of the Snap fixtures that
# start with their header (a log with an event before its header has a
# verdict that is never stored, by design), their match ids suffixed with
# SUFFIX so that a run never meets an old record; with N and FROM, only N
# of them, from the FROM-th on (counting from 0, round the list).
snap_corpus() {
    local dir=$1 suffix=$2 n=${3:-0} from=${4:-0} f i=0 all first
    if [ ! -f "$TMP/snap_headed.list" ]; then
        for f in "$top_srcdir"/fixtures/snap/*.jsonl; do
            read -r first <"$f" || true
            [[ $first == *'"type":"match"'* ]] && echo "$f"
        done >"$TMP/snap_headed.list"
    fi
    mapfile -t all <"$TMP/snap_headed.list"
    [ "$n" -gt 0 ] || { n=${#all[@]}; from=0; }
    mkdir -p "$dir"
    for ((i = 0; i < n; i++)); do
        f=${all[$(( (from + i) % ${#all[@]} ))]}
        sed 's/"match":"\([^"]*\)"/"match":"\1'"$suffix"'"/' "$f" >"$dir/$(basename "$f")"
    done
}

# batch_verdicts LOG: every verdict `arbiter verify --json` gives LOG that is
# not ok, one JSON object a line, judged with the card database its header
# names (card_db_of, lib.sh).
batch_verdicts() {
    "$ARBITER" verify --cards "$(card_db_of "$1")" --json "$1" | jq -c '.verdicts[]'
}

# live_equals_batch LIVE WHAT FILE...: LIVE holds the verdicts `arbiter send
# --json` printed for the logs FILE... (each with a match id of its own); for
# each log, the live verdicts of its match that are not ok are, verdict for
# verdict and in order, its batch_verdicts (openlog.md 10: live = batch).
# One pass/fail line, WHAT naming the logs.
live_equals_batch() {
    local live=$1 what=$2 f m bad=0
    shift 2
    for f in "$@"; do
        m=$(head -n 1 "$f" | jq -r .match)
        jq -c --arg m "$m" 'select(.match == $m and .status != "ok")' "$live" >"$TMP/l"
        batch_verdicts "$f" >"$TMP/b"
        cmp -s "$TMP/l" "$TMP/b" || { bad=$((bad + 1)); echo "  live and batch differ for $f:"; diff "$TMP/b" "$TMP/l" | head -5; }
    done
    [ $bad -eq 0 ] && pass "live verdicts = batch verdicts for all $# $what" ||
        fail "$bad of $# $what judged differently live"
}

# store_check_all ACKED FILE...: the store ($STORE) read back, read-only
# (beside a daemon or not), with `arbiter audit` against the logs FILE... streamed to it
# and the verdicts the tables received (ACKED, `arbiter send --json`):
#   - every match stored exactly once, whole: seqs 0..n-1, no more, no
#     fewer, chain intact, judged again as stored;
#   - its stored non-ok verdicts are those `arbiter verify` gives the file;
#   - every acknowledged verdict is the one in the store: an event answered
#     ok/illegal/... is stored with exactly that verdict; one answered
#     `duplicate` carries, as `stored`, exactly the stored verdict.
# Two pass/fail lines.
store_check_all() {
    local acked=$1 f m n arc bad=0
    shift
    : >"$TMP/stored.jsonl"
    for f in "$@"; do
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
        batch_verdicts "$f" >"$TMP/b"
        jq -c '.timeline[].verdict | select(.status != "ok")' "$TMP/a" >"$TMP/s"
        cmp -s "$TMP/b" "$TMP/s" || { bad=$((bad + 1)); echo "  $m: stored verdicts are not the batch verdicts"; }
    done
    [ $bad -eq 0 ] && pass "$# matches stored exactly once, whole, chains intact, verdicts as in batch" ||
        fail "$bad of $# matches are not stored as they should be"

    jq -n -c --slurpfile s "$TMP/stored.jsonl" --slurpfile a "$acked" '
        ($s | map({(.k): .v}) | add) as $db |
        [$a[] | . as $v | ($v.match + "#" + ($v.seq | tostring)) as $k |
         if $v.status == "duplicate" then select($v.stored != $db[$k]) else select($v != $db[$k]) end] |
        {wrong: length, first: .[0]}' >"$TMP/check"
    [ "$(jq .wrong "$TMP/check")" -eq 0 ] &&
        pass "every acknowledged verdict ($(wc -l <"$acked"), of them $(grep -c '"status":"duplicate"' "$acked") duplicates) is the stored one: loss = 0" ||
        fail "acknowledged but not stored as acknowledged: $(cat "$TMP/check")"
}
