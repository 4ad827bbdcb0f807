#!/usr/bin/env bash
# e2e_pg_migrate.sh -- `arbiter pg migrate`, `version` and `venue` against
# a real PostgreSQL server (tests/pg.sh: a throwaway cluster in $TMP):
#   - an empty database goes to the newest version, every table made, and
#     `version` says so; a second migrate changes nothing;
#   - a month's partition of events is made on demand, and a second copy
#     of an event (venue, match, seq) is refused by the key;
#   - a database newer than this arbiter is refused, untouched;
#   - two migrations at once both succeed, and the schema is applied once;
#   - `pg venue add` registers a venue with one key; another key for it is
#     refused without --replace; a file of two keys and a bad name too;
#   - a server that is not there is a sentence and exit 2, never the URL.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_need
pg_start || { fail "PostgreSQL did not start"; finish; exit 1; }

latest=$("$ARBITER" pg version "$PG_URL" --json | jq .latest)
out=$("$ARBITER" pg migrate "$PG_URL" 2>&1)
if [ "$out" = "the schema went from version 0 to $latest" ]; then pass "an empty database migrated: $out"
else fail "first migrate: $out"; fi
tables=$(psql_q "SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'")
if [ "$tables" = "arbiter_schema cards conflicts events matches venues" ]; then pass "the tables: $tables"
else fail "the tables: $tables"; fi
out=$("$ARBITER" pg migrate "$PG_URL" --json)
if [ "$out" = "{\"from\":$latest,\"to\":$latest,\"latest\":$latest}" ]; then pass "a second migrate does nothing: $out"
else fail "second migrate: $out"; fi
[ "$(psql_q "SELECT count(*) FROM arbiter_schema")" = "$latest" ] && pass "arbiter_schema holds one row a migration" ||
    fail "arbiter_schema: $(psql_q "SELECT * FROM arbiter_schema")"
out=$("$ARBITER" pg version "$PG_URL")
[ "$out" = "schema version $latest; this arbiter knows up to $latest" ] && pass "version: $out" || fail "version: $out"

# events: a partition a month, one row per (venue, match, seq)
psql_q "INSERT INTO venues (venue, seal_key) VALUES ('hall-a', decode(repeat('ab', 32), 'hex'))"
part=$(psql_q "SELECT arbiter_events_partition('2026-11-28 21:00+00')")
row="('hall-a', 'm1', '2026-11-28 10:00+00', 0, 1, 'ann', '\\x00', '\\x00', 'ok', NULL, 'match', NULL,
      decode(repeat('00', 32), 'hex'), decode(repeat('00', 32), 'hex'), decode(repeat('00', 32), 'hex'))"
psql_q "INSERT INTO events VALUES $row" >/dev/null
if [ "$part" = events_2026_11 ] && ! psql_q "INSERT INTO events VALUES $row" >/dev/null 2>&1 &&
    [ "$(psql_q "SELECT tableoid::regclass FROM events")" = events_2026_11 ]; then
    pass "the month's partition $part is made on demand; a second copy of (venue, match, seq) is refused"
else fail "partition $part / events: $(psql_q "SELECT tableoid::regclass, seq FROM events")"; fi

# a newer schema: refused, nothing changed
psql_q "INSERT INTO arbiter_schema (version, name) VALUES ($((latest + 1)), 'future')"
out=$("$ARBITER" pg migrate "$PG_URL" 2>&1); rc=$?
if [ $rc = 2 ] && printf '%s' "$out" | grep -q "newer than this arbiter knows" &&
    [ "$(psql_q "SELECT max(version) FROM arbiter_schema")" = $((latest + 1)) ]; then
    pass "a newer database is refused (exit 2): $out"
else fail "newer database: rc $rc: $out"; fi

# two at once on a fresh database: the lock makes them take turns
psql_q "CREATE DATABASE twice" >/dev/null
url2="postgresql:///twice?host=$PG_DIR&user=arbiter"
"$ARBITER" pg migrate "$url2" >"$TMP/m1" 2>&1 & p1=$!
"$ARBITER" pg migrate "$url2" >"$TMP/m2" 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
n=$(pg_as "$PG_BIN/psql" -h "$PG_DIR" -U arbiter -d twice -qAt -c "SELECT count(*) FROM arbiter_schema")
if [ $r1 = 0 ] && [ $r2 = 0 ] && [ "$n" = "$latest" ]; then
    pass "two migrations at once: both exit 0, the schema applied once ($(cat "$TMP/m1") / $(cat "$TMP/m2"))"
else fail "two at once: $r1 $r2, $n rows: $(cat "$TMP/m1" "$TMP/m2")"; fi

# venues: registered by the administrator with one key each
url2k="postgresql:///twice?host=$PG_DIR&user=arbiter"
"$ARBITER" keygen hall-a --out "$TMP/a" >/dev/null && "$ARBITER" keygen hall-b --out "$TMP/b" >/dev/null
out=$("$ARBITER" pg venue add "$url2k" hall-a "$TMP/a.pub" 2>&1); rc=$?
[ $rc = 0 ] && [ "$out" = "the venue hall-a is registered with seal key $(grep -o 'sign-public = [0-9a-f]*' "$TMP/a.pub" | cut -c15-30)..." ] &&
    pass "venue add: $out" || fail "venue add: rc $rc: $out"
out=$("$ARBITER" pg venue add "$url2k" hall-a "$TMP/b.pub" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "registered with another key: give --replace" &&
    pass "venue add: another key for a registered venue is refused (exit 2)" || fail "other key: rc $rc: $out"
"$ARBITER" pg venue add "$url2k" hall-a "$TMP/b.pub" --replace >/dev/null &&
    [ "$("$ARBITER" pg venue list "$url2k" --json | jq -r '.[0].seal_key')" = "$(grep -o 'sign-public = [0-9a-f]*' "$TMP/b.pub" | cut -c15-)" ] &&
    pass "venue add --replace: the new key is the venue's (venue list --json)" || fail "replace: $("$ARBITER" pg venue list "$url2k")"
cat "$TMP/a.pub" "$TMP/b.pub" | grep sign-public | cut -c15- >"$TMP/two"   # two keys, one a line
out=$("$ARBITER" pg venue add "$url2k" hall-c "$TMP/two" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "holds 2 keys" && pass "venue add: a file of two keys is refused" ||
    fail "two keys: rc $rc: $out"
out=$("$ARBITER" pg venue add "$url2k" "hall c" "$TMP/a.pub" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "is no venue name" && pass "venue add: 'hall c' is no venue name" ||
    fail "bad name: rc $rc: $out"

# no server: a sentence, exit 2, the password never printed
pg_stop
out=$("$ARBITER" pg migrate "postgresql://arbiter:s3cret@/arbiter?host=$PG_DIR" 2>&1); rc=$?
if [ $rc = 2 ] && printf '%s' "$out" | grep -q "^arbiter: cannot connect to PostgreSQL" && ! printf '%s' "$out" | grep -q s3cret; then
    pass "no server: exit 2: $out"
else fail "no server: rc $rc: $out"; fi
finish
