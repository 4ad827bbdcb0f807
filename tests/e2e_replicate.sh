#!/usr/bin/env bash
# e2e_replicate.sh -- three venues replicate into one PostgreSQL (issue 24),
# against a real server (tests/pg.sh) and three real daemons:
#   1. three daemons (three venues, three stores) stream the fixture games
#      of every format while PostgreSQL is stopped and started twice (once
#      stopped, once killed) and one daemon is killed with kill -9 and
#      started again; PostgreSQL ends with exactly the events each store
#      holds, byte for byte (each daemon's `events` op against the rows),
#      no duplicates, no conflicts, and `arbiter audit --pg` finds every
#      chain, record link and seal intact;
#   2. while the database is down the venue goes on, and health says so
#      (not connected, the error, a backlog); a daemon of a venue nobody
#      registered ships nothing and says why;
#   3. a row edited in PostgreSQL is named by `audit --pg`: the event whose
#      bytes changed, the event whose receive time changed;
#   4. a copy that differs from the row already there (an old store resent
#      after a row was edited) is a conflict and an alarm, never an
#      overwrite;
#   5. standings and statistics of the fixture tournament from --pg equal
#      those from its records (tests/tournament_fixture.sh), its matches
#      spread over the three venues.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
command -v jq >/dev/null || { echo "SKIP: jq is needed"; exit 77; }
/usr/bin/python3 -c 'import zmq' 2>/dev/null || { echo "SKIP: python3-zmq is needed"; exit 77; }
pg_need
C="$top_srcdir/fixtures/cards"
VENUE_CARDS=(--cards "$C/core.json" --cards "$C/core-1.0.0.json" --cards "$C/critters.json" --cards "$C/standard.json")

pg_start || { fail "PostgreSQL did not start"; finish; exit 1; }
"$ARBITER" pg migrate "$PG_URL" >/dev/null || { fail "migrate"; finish; exit 1; }
VENUES=(hall-a hall-b hall-c)
pg_venues "${VENUES[@]}" || fail "venue add"
[ "$("$ARBITER" pg venue list "$PG_URL" --json | jq -r 'map(.venue) | join(" ")')" = "hall-a hall-b hall-c" ] &&
    pass "pg venue add: three venues registered with their daemons' keys" || fail "venue list"

health() { venue_health "$1"; }
send() {   # send V FILE...: as tables would (illegal verdicts are expected: exit 1 is fine)
    local v=$1
    shift
    "$ARBITER" send --endpoint "ipc://$TMP/$v.in" --quiet --tables 16 "$@" >>"$TMP/$v.send" 2>&1
    [ $? -le 1 ]
}

# the fixtures of every format, and the fixture tournament's records, dealt to the venues
. "$top_srcdir/tests/tournament_fixture.sh"
mapfile -t ALL < <(ls "$top_srcdir"/fixtures/{snap,advanced,master,classic}/*.jsonl)
declare -A PART=()
for i in "${!ALL[@]}"; do
    v=${VENUES[$((i % 3))]}
    PART[$v,$((i / 3 % 3))]+="${ALL[$i]}"$'\n'
done
PART[hall-a,0]+="$D/r1-t1.jsonl"$'\n'"$D/r1-t2.jsonl"$'\n'"$D/r1-t3.jsonl"$'\n'
PART[hall-b,1]+="$D/r2-t1.jsonl"$'\n'"$D/r2-t2.jsonl"$'\n'
PART[hall-c,2]+="$D/r2-t3.jsonl"$'\n'"$D/r3-x.jsonl"$'\n'
files() { printf '%s' "${PART[$1,$2]}" | grep -v '^$'; }

for v in "${VENUES[@]}"; do
    venue_start "$v" ARBITERD_TEST_REPLICA_DELAY_MS=20 || fail "$v starts"
done

# ---- 1. a third of the games with the database up ----------------------------------------------------------
# (the daemons are this shell's children too: `wait` names what it waits for)
S=()
for v in "${VENUES[@]}"; do mapfile -t F < <(files "$v" 0); send "$v" "${F[@]}" & S+=($!); done
wait "${S[@]}"

# ---- the database stopped: the venues go on -------------------------------------------------------------------
pg_stop
S=()
for v in "${VENUES[@]}"; do mapfile -t F < <(files "$v" 1); send "$v" "${F[@]}" & S+=($!); done
wait "${S[@]}"
ok=1
for v in "${VENUES[@]}"; do
    h=$(health "$v" | jq -c .replication)
    [ "$(jq .connected <<<"$h")" = false ] && [ "$(jq '.backlog_events > 0' <<<"$h")" = true ] &&
        [ -n "$(jq -r '.last_error // empty' <<<"$h")" ] || { ok=0; echo "$v: $h"; }
done
[ "$ok" = 1 ] && pass "database down: every venue still acknowledges; health says not connected, the error, the backlog" ||
    fail "health while the database is down"
# for 4.: a copy of hall-c's store now, its outbox holding what the cut kept back
"$ARBITER" store backup "$TMP/hall-c.store" "$TMP/old-c" >/dev/null || fail "store backup"

# ---- up again, then killed; the last third, and a venue's daemon killed -9 ------------------------------------
pg_start || fail "PostgreSQL starts again"
sleep 1
pg_kill   # a crash, mid-shipment or not
S=()
for v in hall-a hall-c; do mapfile -t F < <(files "$v" 2); send "$v" "${F[@]}" & S+=($!); done
mapfile -t FB < <(files hall-b 2)
send hall-b "${FB[@]}" &
sb=$!
sleep 1
kill -KILL "${PID[hall-b]}"
wait "${PID[hall-b]}" 2>/dev/null
venue_start hall-b || fail "hall-b starts again after kill -9"
wait "$sb"   # its tables sent again what went unanswered, to the new daemon
send hall-b "${FB[@]}" || fail "hall-b: the tables send again"
pg_start || fail "PostgreSQL starts a second time"
wait "${S[@]}"

# every venue has shipped everything (or two minutes passed)
venues_shipped "${VENUES[@]}" && pass "every venue's backlog is shipped and confirmed after the cuts and the kill" ||
    fail "backlog left: $(for v in "${VENUES[@]}"; do health "$v" | jq -c .replication; done)"

# byte for byte: each daemon's record (the `events` op, judge view: raw bytes, links) against the rows
PY=/usr/bin/python3   # Debian's, with python3-zmq
dump_store() {   # dump_store V: match seq received peer event verdict chain state link, sorted
    "$PY" "$top_srcdir/tests/replica_dump.py" "ipc://$TMP/$1.q" | LC_ALL=C sort
}
dump_pg() {
    psql_q "SELECT concat_ws(' ', match, seq, received_ms, peer, encode(event, 'hex'), encode(verdict, 'hex'),
            encode(chain, 'hex'), encode(state, 'hex'), encode(link, 'hex')) FROM events WHERE venue = '$1'" |
        LC_ALL=C sort
}
total=0
for v in "${VENUES[@]}"; do
    dump_store "$v" >"$TMP/$v.mine"
    dump_pg "$v" >"$TMP/$v.theirs"
    n=$(wc -l <"$TMP/$v.mine")
    total=$((total + n))
    if [ "$n" -gt 1000 ] && cmp -s "$TMP/$v.mine" "$TMP/$v.theirs"; then
        pass "$v: PostgreSQL holds exactly the $n events its store holds, byte for byte"
    else
        fail "$v: $n stored, $(wc -l <"$TMP/$v.theirs") in PostgreSQL; first difference: $(diff "$TMP/$v.mine" "$TMP/$v.theirs" | head -3 | cut -c1-200)"
    fi
done
[ "$(psql_q "SELECT count(*) - count(DISTINCT (venue, match, seq)) FROM events")" = 0 ] &&
    [ "$(psql_q "SELECT count(*) FROM events")" = "$total" ] && [ "$(psql_q "SELECT count(*) FROM conflicts")" = 0 ] &&
    pass "no event twice, no conflict: $total rows for $total stored events" ||
    fail "duplicates or conflicts: $(psql_q "SELECT count(*), count(DISTINCT (venue, match, seq)) FROM events"), $(psql_q "SELECT count(*) FROM conflicts") conflicts"
[ "$(psql_q "SELECT count(*) FROM matches")" = "$(psql_q "SELECT count(DISTINCT (venue, match)) FROM events")" ] &&
    [ "$(psql_q "SELECT count(*) FROM matches m WHERE events <> (SELECT count(*) FROM events e WHERE (e.venue, e.match) = (m.venue, m.match))")" = 0 ] &&
    pass "every match's row is there, its summary counting the events its rows hold" ||
    fail "match rows: $(psql_q "SELECT venue, match, events FROM matches m WHERE events <> (SELECT count(*) FROM events e WHERE (e.venue, e.match) = (m.venue, m.match)) LIMIT 3")"

# every record checked from PostgreSQL: chain, links, seal by the venue's key, judged again
bad=0 n=0
while IFS='|' read -r v m; do
    n=$((n + 1))
    "$ARBITER" audit "$m" --pg "$PG_URL" --venue "$v" --json >"$TMP/a.json" 2>"$TMP/a.err"
    jq -e '.chain.intact and .record_links.intact and .seal.valid and .seal.signer_trusted_as == $v' \
        --arg v "$v" "$TMP/a.json" >/dev/null || { bad=$((bad + 1)); [ "$bad" -gt 3 ] || echo "$v $m: $(cat "$TMP/a.err"; jq -c '{chain, record_links, seal}' "$TMP/a.json")"; }
done < <(psql_q "SELECT venue, match FROM matches ORDER BY venue, match")
[ "$bad" = 0 ] && [ "$n" -gt 300 ] && pass "audit --pg: all $n records intact, sealed by their venues' keys" ||
    fail "audit --pg: $bad of $n records not intact"
grep -h 'arbiterd: error' "$TMP"/hall-*.log | grep -v 'replication' | head -3 | grep . &&
    fail "an error in a daemon's log" || pass "no error in the daemons' logs"

# ---- 2. a venue nobody registered ------------------------------------------------------------------------------
"$ARBITER" keygen hall-x --out "$TMP/hall-x" >/dev/null
venue_start hall-x || fail "hall-x starts"
for i in $(seq 1 50); do
    e=$(health hall-x | jq -r '.replication.last_error // empty')
    [ -n "$e" ] && break
    sleep 0.2
done
case "$e" in
*"venue hall-x is not registered"*) pass "an unregistered venue ships nothing and says why: $e" ;;
*) fail "unregistered venue: '$e'" ;;
esac
kill -TERM "${PID[hall-x]}"; wait "${PID[hall-x]}"; unset 'PID[hall-x]'

# ---- 3. a row edited in PostgreSQL is named -----------------------------------------------------------------------
M=$(psql_q "SELECT match FROM matches WHERE venue = 'hall-a' AND events > 20 ORDER BY match LIMIT 1")
psql_q "UPDATE events SET verdict = verdict || '\\x00'::bytea WHERE venue = 'hall-a' AND match = '$M' AND seq = 7"
"$ARBITER" audit "$M" --pg "$PG_URL" --json >"$TMP/a.json" 2>/dev/null
rc=$?
[ "$rc" = 1 ] && [ "$(jq .chain.broken_at "$TMP/a.json")" = 7 ] &&
    pass "audit --pg: a verdict edited in PostgreSQL breaks the chain at #7, exit 1" ||
    fail "edited verdict: exit $rc, $(jq -c .chain "$TMP/a.json")"
psql_q "UPDATE events SET verdict = substring(verdict from 1 for octet_length(verdict) - 1) WHERE venue = 'hall-a' AND match = '$M' AND seq = 7"
psql_q "UPDATE events SET received_ms = received_ms + 1000 WHERE venue = 'hall-a' AND match = '$M' AND seq = 12"
"$ARBITER" audit "$M" --pg "$PG_URL" >"$TMP/a.txt" 2>/dev/null
rc=$?
[ "$rc" = 1 ] && grep -q 'record links: BROKEN at #12: the receive time or sender of #12 was changed' "$TMP/a.txt" &&
    pass "audit --pg: a receive time edited in PostgreSQL is named (#12)" ||
    fail "edited receive time: exit $rc, $(grep 'record links' "$TMP/a.txt")"

# ---- 4. a differing copy: a conflict, never an overwrite ------------------------------------------------------
# the old copy of hall-c's store still has its whole outbox; a row it will
# resend is edited first, so its copy differs from the one in PostgreSQL
kill -TERM "${PID[hall-c]}"; wait "${PID[hall-c]}"; unset 'PID[hall-c]'
# a match the cut held back (sent while the database was down)
ids=$(files hall-c 1 | while read -r f; do head -n 1 "$f" | jq -r '"\u0027" + (.match // "") + "\u0027"' 2>/dev/null; done | paste -sd,)
MC=$(psql_q "SELECT match FROM matches WHERE venue = 'hall-c' AND events > 3 AND match IN ($ids) ORDER BY match LIMIT 1")
psql_q "UPDATE events SET peer = 'somebody else' WHERE venue = 'hall-c' AND match = '$MC' AND seq = 3"
mv "$TMP/hall-c.store" "$TMP/new-c.store" && mv "$TMP/old-c" "$TMP/hall-c.store"
venue_start hall-c || fail "hall-c starts on its old store"
for i in $(seq 1 120); do
    health hall-c | jq -e '.replication.backlog_events == 0 and .replication.confirmations_waiting == 0' >/dev/null && break
    sleep 0.5
done
c=$(health hall-c | jq .replication.conflicts)
[ "$c" = 1 ] && [ "$(psql_q "SELECT what FROM conflicts WHERE venue = 'hall-c' AND match = '$MC' AND seq = 3")" = sender ] &&
    [ "$(psql_q "SELECT peer FROM events WHERE venue = 'hall-c' AND match = '$MC' AND seq = 3")" = "somebody else" ] &&
    grep -q 'differ from the copy it already holds' "$TMP/hall-c.log" &&
    pass "a differing copy is a conflict (health, the table conflicts, the log), the row left as it was" ||
    fail "conflict: health $c, $(psql_q "SELECT match, seq, what FROM conflicts")"
# the old store's records are shorter where the match went on after the copy:
# their summaries reach the scratch table of matches, and the upsert moves no
# row back
[ "$(psql_q "SELECT count(*) FROM matches m WHERE venue = 'hall-c' AND events <> (SELECT count(*) FROM events e WHERE (e.venue, e.match) = (m.venue, m.match))")" = 0 ] &&
    pass "the old store's match rows move no match back: each still counts the events PostgreSQL holds" ||
    fail "match rows moved back: $(psql_q "SELECT match, events FROM matches m WHERE venue = 'hall-c' AND events <> (SELECT count(*) FROM events e WHERE (e.venue, e.match) = (m.venue, m.match)) LIMIT 3")"

# ---- 5. the fixture tournament from PostgreSQL ------------------------------------------------------------------
for sub in standings stats; do
    want=$("$ARBITER" tournament $sub --file "$TF" --json "${LOGS[@]}" 2>/dev/null)
    got=$("$ARBITER" tournament $sub --file "$TF" --json --pg "$PG_URL" 2>"$TMP/err")
    [ -n "$want" ] && [ "$got" = "$want" ] &&
        pass "tournament $sub --pg: as from the records, its matches from three venues" ||
        fail "tournament $sub --pg: $(cat "$TMP/err") $(diff <(jq . <<<"$want") <(jq . <<<"$got") | head -5)"
done
want=$("$ARBITER" tournament standings --file "$TF" "${LOGS[@]}" 2>/dev/null)
got=$("$ARBITER" tournament standings --file "$TF" --pg "$PG_URL" 2>/dev/null)
[ "$got" = "$want" ] && pass "tournament standings --pg, for people: as from the records" ||
    fail "standings text: $got"

# ---- stopped and started again: what was confirmed is not shipped again ------------------------------------
kill -TERM "${PID[hall-a]}"; wait "${PID[hall-a]}" || fail "hall-a exits $?"
venue_start hall-a || fail "hall-a starts again"
sleep 2
h=$(health hall-a | jq -c .replication)
[ "$(jq '[.backlog_events, .shipped_events, .confirmations_waiting]' -c <<<"$h")" = "[0,0,0]" ] &&
    pass "stopped and started: the outbox kept every confirmation, nothing is shipped again" || fail "after a stop: $h"

for v in "${!PID[@]}"; do kill -TERM "${PID[$v]}"; wait "${PID[$v]}" || fail "$v exits $?"; done
PID=()
grep -h -E 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP"/hall-*.log | head -3 | grep . &&
    fail "a sanitizer's report in a daemon's log" || pass "no sanitizer's report in the daemons' logs"
finish
