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

# daemon_start [extra options]: returns once the query socket answers.
daemon_start() {
    "$ARBITERD" --db "$STORE" --ingest "$EP_IN" --feed "$EP_FEED" --query "$EP_Q" --log-level warn "$@" \
        >>"$TMP/arbiterd.log" 2>&1 &
    DPID=$!
    local i
    for i in $(seq 1 100); do
        "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >/dev/null 2>&1 && return 0
        kill -0 "$DPID" 2>/dev/null || break
        sleep 0.1
    done
    echo "arbiterd did not start:" >&2
    cat "$TMP/arbiterd.log" >&2
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

# daemon_kill: SIGKILL, as a power cut would.
daemon_kill() {
    kill -KILL "$DPID" 2>/dev/null
    wait "$DPID" 2>/dev/null
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
