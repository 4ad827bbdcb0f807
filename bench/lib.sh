# bench/lib.sh -- what bench/run_ingest and bench/run_replicate share
# (sourced, not run): the JSON lines and their medians, the corpus of legal
# Snap games, and a real arbiterd on a store of its own.
#
# The caller sets, before using them:
#   results   the RESULTS.jsonl file, or "" (emit then writes nothing)
#   B         the build directory, absolute (arbiterd, arbiter, bench/*)
#   WORK      a scratch directory of the run (each daemon's in WORK/dN)
#   CARDS     the card database the daemons load (absolute)
#   CORPUS GAMES SEED   for bench_corpus

die() { echo "$(basename "$0"): $*" >&2; exit 2; }
emit() { [ -z "$results" ] || echo "$1" >>"$results"; }
# median over a file of JSON lines, for one numeric field
med() { jq -s --arg k "$2" '[.[][$k] | select(. != null)] | sort |
        if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
        else (.[length / 2 - 1] + .[length / 2]) / 2 end' "$1"; }
runs() { jq -s -c --arg k "$2" '[.[][$k]]' "$1"; }
fmt() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "null" || x == "") print "-"; else printf f, x }'; }
mib() { awk -v x="$1" 'BEGIN { if (x == "null" || x == "") print "-"; else printf "%.1f", x / 1024 }'; }

# bench_corpus: the corpus of GAMES legal Snap games of seed SEED in
# CORPUS/legal-GAMES-sSEED (made by bench/gen_games the first time, kept
# for the next run); sets dir, files (its .mlog files) and events.
bench_corpus() {
    dir=$CORPUS/legal-$GAMES-s$SEED
    if [ ! -f "$dir/index.tsv" ] || [ "$(($(wc -l <"$dir/index.tsv") - 1))" -ne "$GAMES" ]; then
        rm -rf "$dir"
        local log
        log=$("$B/bench/gen_games" --games "$GAMES" --out-dir "$dir" --seed "$SEED" -j "$(nproc)" 2>&1) ||
            die "gen_games failed: $log"
        echo "corpus: ${log#gen_games: }"
    fi
    files=("$dir"/*.mlog)
    events=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") c = i; next } {n += $c} END {print n + 0}' \
        "$dir/index.tsv")
    [ "$events" -gt 0 ] || die "$dir/index.tsv: no events column"
}

# daemon_start TRANSPORT [ARBITERD OPTIONS...]: arbiterd on a store of its
# own, WORK/dN/store -- empty, or a copy of DAEMON_STORE when that is set --
# returned once its health answers (DAEMON_WAIT_S, default 5: a store full
# of records is checked whole before the daemon answers); sets EP_IN EP_Q
# EP_FEED DPID DDIR.  Every table of bench/load is one peer (one process on
# this machine): the shares of one peer (arbiterd(8) LIMITS) must not apply.
n_daemon=0
DPID=
daemon_start() {
    local tr=$1 i k port
    shift
    n_daemon=$((n_daemon + 1))
    DDIR=$WORK/d$n_daemon
    mkdir -p "$DDIR"
    for i in 1 2 3 4 5; do
        rm -rf "$DDIR/store"
        [ -z "${DAEMON_STORE:-}" ] || cp -a "$DAEMON_STORE" "$DDIR/store" || die "cannot copy $DAEMON_STORE"
        if [ "$tr" = tcp ]; then
            port=$((20000 + RANDOM % 20000))
            EP_IN=tcp://127.0.0.1:$port
        else
            EP_IN=ipc://$DDIR/in
        fi
        EP_Q=ipc://$DDIR/q
        EP_FEED=ipc://$DDIR/feed
        "$B/arbiterd" --db "$DDIR/store" --cards "$CARDS" --ingest "$EP_IN" --feed "$EP_FEED" --query "$EP_Q" \
            --peer-connections 1000000 --peer-matches 10000000 --log-level warn "$@" 2>>"$DDIR/log" &
        DPID=$!
        for k in $(seq 1 $((${DAEMON_WAIT_S:-5} * 20))); do
            "$B/arbiter" query --endpoint "$EP_Q" '{"op":"health"}' >/dev/null 2>&1 && return 0
            kill -0 "$DPID" 2>/dev/null || break
            sleep 0.05
        done
        kill -KILL "$DPID" 2>/dev/null || true
        wait "$DPID" 2>/dev/null || true
        DPID=
    done
    cat "$DDIR/log" >&2
    die "arbiterd did not start"
}
# daemon_stop [keep]: TERM, wait; the store is removed unless "keep".
daemon_stop() {
    kill -TERM "$DPID" 2>/dev/null || true
    wait "$DPID" 2>/dev/null || true
    DPID=
    [ "${1:-}" = keep ] || rm -rf "$DDIR/store"
}
