# pg.sh -- a throwaway PostgreSQL server for the end-to-end scripts (sourced
# after lib.sh, not run).  Debian's postgresql: initdb into $TMP/pg, the
# server listening on a Unix socket in $TMP only (no TCP port: nothing is
# shared with another test or a server the machine runs), trust
# authentication, run as its own user -- `nobody` when the tests run as
# root (PostgreSQL refuses to run as root), else the caller.
#
#   pg_need          exit 77 (automake's SKIP) with a sentence when there is
#                    no PostgreSQL server to start (./quickstart installs it)
#   pg_start         initdb the first time, start; PG_URL is the URL to give
#                    arbiter and arbiterd (postgresql:///arbiter?host=DIR)
#   pg_stop          stop (fast: open sessions are cut, as in a real restart)
#   pg_kill          SIGKILL the postmaster, as a crash would
#   pg_venues, venue_start, venue_health, venues_shipped: venues' daemons
#                    replicating into it (below)
: "${PG_BIN:=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
PG_DIR="$TMP/pg"
PG_URL="postgresql:///arbiter?host=$PG_DIR&user=arbiter"

pg_need() {
    if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
        echo "SKIP: these tests need a PostgreSQL server (Debian: postgresql; ./quickstart installs it)"
        exit 77
    fi
}

# (from /: nobody may not enter the caller's folder, and psql would say so on stderr)
pg_as() {
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u nobody -- "$@"); else "$@"; fi
}

pg_start() {
    pg_need
    if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
        mkdir -p "$PG_DIR"
        [ "$(id -u)" != 0 ] || chown nobody "$PG_DIR"
        chmod 0755 "$TMP" 2>/dev/null || true
        pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U arbiter -E UTF8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
            { cat "$PG_DIR/initdb.log" >&2; return 1; }
    fi
    # after pg_kill the old server's processes take a moment to notice
    # their postmaster is gone and leave its shared memory: try again
    local i
    for i in $(seq 1 40); do
        pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 30 \
            -o "-k $PG_DIR -c listen_addresses= -c fsync=on" start >/dev/null 2>&1 && break
        [ "$i" -lt 40 ] || { tail -5 "$PG_DIR/log" >&2; return 1; }
        sleep 0.5
    done
    # the database the records go to, made once
    pg_as "$PG_BIN/psql" -h "$PG_DIR" -U arbiter -d postgres -qAt \
        -c "SELECT 1 FROM pg_database WHERE datname = 'arbiter'" | grep -q 1 ||
        pg_as "$PG_BIN/createdb" -h "$PG_DIR" -U arbiter arbiter
}

pg_stop() {
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 30 stop >/dev/null
}

pg_kill() {
    local pid
    pid=$(head -n 1 "$PG_DIR/data/postmaster.pid" 2>/dev/null) || return 0
    kill -KILL "$pid" 2>/dev/null
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# psql_q SQL: one query's rows, unaligned, no headers.
psql_q() {
    pg_as "$PG_BIN/psql" -h "$PG_DIR" -U arbiter -d arbiter -qAt -v ON_ERROR_STOP=1 -c "$1"
}

# ---- venues: a daemon per venue, replicating (arbiterd --replicate) -------------
# VENUE_CARDS: arbiterd's --cards options; PID[V]: venue V's daemon; its
# files are $TMP/V.* (key, store, sockets, log).
: "${top_srcdir:=$(pwd)}"   # bench/run_replicate sources this from the top of the tree
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
VENUE_CARDS=()
declare -A PID=()

# pg_venues V...: a key for each venue, registered (arbiter pg venue add)
pg_venues() {
    local v
    for v in "$@"; do
        "$ARBITER" keygen "$v" --out "$TMP/$v" >/dev/null &&
            "$ARBITER" pg venue add "$PG_URL" "$v" "$TMP/$v.pub" >/dev/null || return 1
    done
}

# venue_start V [VAR=value...]: V's daemon, replicating, its environment
# given; returns once it answers health (1 and its log on stderr if not)
venue_start() {
    local v=$1 i
    shift
    env "$@" "$ARBITERD" --db "$TMP/$v.store" --key "$TMP/$v.key" "${VENUE_CARDS[@]}" --ingest "ipc://$TMP/$v.in" \
        --feed "ipc://$TMP/$v.feed" --query "ipc://$TMP/$v.q" --log-level warn --replicate "$PG_URL" --venue "$v" \
        >>"$TMP/$v.log" 2>&1 &
    PID[$v]=$!
    for i in $(seq 1 100); do
        timeout 1 "$ARBITER" query --endpoint "ipc://$TMP/$v.q" '{"op":"health"}' >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    cat "$TMP/$v.log" >&2
    return 1
}

venue_health() { timeout 5 "$ARBITER" query --endpoint "ipc://$TMP/$1.q" '{"op":"health"}'; }

# venues_shipped V...: 0 once every venue's backlog is shipped and
# confirmed (connected, nothing waiting), 1 after two minutes
venues_shipped() {
    local i v all
    for i in $(seq 1 480); do
        all=1
        for v in "$@"; do
            venue_health "$v" | jq -e '.replication | .connected and .backlog_events == 0 and .confirmations_waiting == 0' \
                >/dev/null || { all=0; break; }
        done
        [ "$all" = 1 ] && return 0
        sleep 0.25
    done
    return 1
}

# the server and the daemons would outlive the script: stopped with the rest
pg_cleanup() {
    local v
    for v in "${!PID[@]}"; do kill -KILL "${PID[$v]}" 2>/dev/null; done
    pg_stop 2>/dev/null
    rm -rf "$TMP"
}
trap pg_cleanup EXIT
