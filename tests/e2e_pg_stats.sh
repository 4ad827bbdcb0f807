#!/usr/bin/env bash
# e2e_pg_stats.sh -- the statistics views of schema version 2 (sql/002_stats.sql,
# arbiter-pg(5) VIEWS) against a real PostgreSQL (tests/pg.sh), filled by two real
# daemons replicating (two venues):
#   1. per tournament scope, the views say what `arbiter tournament stats --json
#      --pg` says of the same records: cards shown, classes and win rates, rules
#      broken, game length -- for the fixture tournament (tests/tournament_fixture.sh,
#      two formats, an illegal record and an unpaired one) and for three cups of
#      fixture games, one each of Snap, Advanced and Master, spread over both venues;
#      where the two differ by design (a result that is the tournament file's, not
#      the record's), that difference and no other;
#   2. per venue (a WHERE), the per-game views say what each daemon's public view
#      of its own records says, computed here by a second reading (jq): the games,
#      the cards and classes each seat showed, the rules broken -- every format,
#      Classic's many-seat games and games of no tournament included;
#   3. a card the judge's bytes hold and the public view hides (a hand in an open
#      game, a decklist) is in events.event but in no view's output, and a view that
#      read events.event would be caught;
#   4. the views depend on public columns only (pg_depend), and one that reads
#      events.verdict is caught;
#   5. a card database row that is not JSON leaves every view answering.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
command -v jq >/dev/null || { echo "SKIP: jq is needed"; exit 77; }
pg_need
C="$top_srcdir/fixtures/cards"
VENUE_CARDS=(--cards "$C/core.json" --cards "$C/standard.json")
VENUES=(hall-a hall-b)
pg_start || { fail "PostgreSQL did not start"; finish; exit 1; }
"$ARBITER" pg migrate "$PG_URL" >/dev/null || { fail "migrate"; finish; exit 1; }
pg_venues "${VENUES[@]}" || fail "venue add"
for v in "${VENUES[@]}"; do venue_start "$v" || fail "$v starts"; done
q() { timeout 10 "$ARBITER" query --endpoint "ipc://$TMP/$1.q" "$2"; }
# differs LABEL WANT GOT: nothing when the two files are the same, else the label and
# their first differences on one line
differs() {
    cmp -s "$2" "$3" || printf '%s: %s ' "$1" "$(diff "$2" "$3" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
}

# ---- the records ---------------------------------------------------------------------------------------------
. "$top_srcdir/tests/tournament_fixture.sh"   # e2e-cup: $TF, LOGS
R="$TMP/recs"
mkdir -p "$R"
# record FIXTURE MATCH [TOURNAMENT ROUND TABLE P1 P2]: the fixture under a new match
# id, in a tournament's pairing or (no tournament) with its header's `event` removed
record() {
    jq -c --arg m "$2" --arg t "${3:-}" --arg r "${4:-0}" --arg tb "${5:-}" --arg a "${6:-}" --arg b "${7:-}" \
        'if .seq == 0 and .type == "match"
         then .match = $m | if $t == "" then del(.event)
              else .event = {tournament: $t, round: ($r | tonumber), table: $tb} | .players.p1.id = $a
                   | .players.p2.id = $b end
         else .match = $m end' "$F/$1" >"$R/$2.jsonl"
}
header() { head -n 1 "$F/$1"; }
# A cup of each of three formats: its legal two-player games of the event's card
# database and default levers, its claims (mismatch) and slow decisions (warning),
# and three illegal games; each game a pairing of two players of its own, rounds 1
# and 2 in turn, the first game cut short (unfinished; the rounds are open).  Every
# record's result is then its own (T16, T17, T18).
for fmt in snap advanced master; do
    mapfile -t G < <(cd "$F" && for f in $fmt/legal-*.jsonl $fmt/illegal-*claim*.jsonl $fmt/illegal-*slow-decision*.jsonl \
                     $(ls $fmt/illegal-*.jsonl | grep -v -e claim -e slow-decision | head -n 3); do
                         header "$f" | jq -e '.cards == "core@1.1.0" and .rules == null and (.players | length) == 2' \
                             >/dev/null 2>&1 && echo "$f"
                     done)
    jq -n --arg f "$fmt" --argjson n "${#G[@]}" '
        {version: 1, id: ("pg-" + $f), name: ("PG " + $f), format: $f, cards: "core@1.1.0", seed: "pg-seed",
         structure: {swiss_rounds: 2, cut: 0},
         players: [range(0; 2 * $n) | {id: "\($f)-\(.)", name: "Player \(.)"}],
         rounds: [range(1; 3) as $r | {round: $r, pairings: [range(0; $n) | select(. % 2 == $r - 1)
                  | {table: "\(. + 1)", p1: "\($f)-\(2 * .)", p2: "\($f)-\(2 * . + 1)"}]}]}' >"$TMP/pg-$fmt.json"
    for i in "${!G[@]}"; do
        record "${G[$i]}" "pg-$fmt-$i" "pg-$fmt" $((i % 2 + 1)) $((i + 1)) "$fmt-$((2 * i))" "$fmt-$((2 * i + 1))"
    done
    sed -i '16,$d' "$R/pg-$fmt-0.jsonl"
done
CUPS=(e2e-cup pg-snap pg-advanced pg-master)
declare -A CUPFILE=([e2e-cup]=$TF [pg-snap]=$TMP/pg-snap.json [pg-advanced]=$TMP/pg-advanced.json
                    [pg-master]=$TMP/pg-master.json)
# games of no tournament: some of every format, Classic's games of three to nine seats too
for f in $(cd "$F" && ls snap/legal-*.jsonl advanced/illegal-*.jsonl master/legal-*.jsonl | awk 'NR % 4 == 0') \
         $(cd "$F" && ls classic/*.jsonl | awk 'NR % 3 == 0'); do
    record "$f" "casual-$(basename "$f" .jsonl)"
done
cp "${LOGS[@]}" "$R/"
mapfile -t ALL < <(ls "$R"/*.jsonl)
S=()
for k in "${!VENUES[@]}"; do
    mapfile -t mine < <(printf '%s\n' "${ALL[@]}" | awk -v k="$k" 'NR % 2 == k')
    "$ARBITER" send --endpoint "ipc://${TMP}/${VENUES[$k]}.in" --quiet --tables 8 "${mine[@]}" >"$TMP/send-$k" 2>&1 &
    S+=($!)
done
for s in "${S[@]}"; do wait "$s"; [ $? -le 1 ] || fail "send: $(tail -n 2 "$TMP"/send-*)"; done
venues_shipped "${VENUES[@]}" && done_all=1 || done_all=0
n=$(psql_q "SELECT count(*) FROM matches")
stored=$(for v in "${VENUES[@]}"; do "$ARBITER" list --query "ipc://$TMP/$v.q" --json; done | wc -l)
[ "$done_all" = 1 ] && [ "$n" = "$stored" ] && [ "$n" -ge 100 ] &&
    pass "the $n records of two venues replicated ($(psql_q "SELECT count(*) FROM events") events)" ||
    fail "replication: $n matches in PostgreSQL, $stored stored"

# ---- 1. per tournament scope: the views against tournament stats --json --pg -----------------------------------
# Each side as lines "format/round key figures...", sorted; rates in thousandths and
# means in tenths, so that both sides print numbers alike.  A scope is in the views
# once it has a record; an empty minimum is 0 in stats and NULL in the views.
# want_TABLE STATS FULL: from the stats JSON; FULL=0 leaves wins and results out.
J_SCOPE='.scopes[] | select(.records > 0) | (.format + "/" + (.round | tostring)) as $k'
J_RATE='(if . == null then "null" else (. * 1000 | round | tostring) end)'
want_cards() {
    jq -r --argjson full "$2" "$J_SCOPE"' | .cards[] | [$k, .card, .class, .games, .appearances]
        + (if $full == 1 then [.wins, .results, (.win_rate | '"$J_RATE"')] else [] end) | map(tostring) | join(" ")' \
        <<<"$1" | LC_ALL=C sort
}
want_classes() {
    jq -r --argjson full "$2" "$J_SCOPE"' | .classes[] | [$k, .class, .games, .appearances]
        + (if $full == 1 then [.wins, .results, (.win_rate | '"$J_RATE"')] else [] end) | map(tostring) | join(" ")' \
        <<<"$1" | LC_ALL=C sort
}
want_rules() {
    jq -r "$J_SCOPE"' | .rules[] | [$k, .verdict, .rule, .count, (.matches | join(","))] | map(tostring) | join(" ")' \
        <<<"$1" | LC_ALL=C sort
}
want_length() {
    jq -r "$J_SCOPE"' | .length.finished as $l | [$k, .records, $l.games, $l.events_min, $l.events_max,
        ($l.events_mean // "null" | if . == "null" then . else (. * 10 | round) end),
        $l.rounds_min, $l.rounds_max, ($l.rounds_mean // "null" | if . == "null" then . else (. * 10 | round) end)]
        | map(tostring) | join(" ")' <<<"$1" | LC_ALL=C sort
}
SQ_SCOPE="format || '/' || coalesce(round::text, 'null')"
SQ_RATE="coalesce((win_rate * 1000)::int::text, 'null')"
got_cards() {
    psql_q "SELECT concat_ws(' ', $SQ_SCOPE, card, coalesce(class, 'unknown'), games, appearances
            $([ "$2" = 1 ] && echo ", wins, results, $SQ_RATE")) FROM arbiter_card_stats WHERE tournament = '$1'" |
        LC_ALL=C sort
}
got_classes() {
    psql_q "SELECT concat_ws(' ', $SQ_SCOPE, class, games, appearances
            $([ "$2" = 1 ] && echo ", wins, results, $SQ_RATE")) FROM arbiter_class_stats WHERE tournament = '$1'" |
        LC_ALL=C sort
}
got_rules() {
    psql_q "SELECT concat_ws(' ', $SQ_SCOPE, verdict, rule, count, array_to_string(matches, ','))
            FROM arbiter_rule_stats WHERE tournament = '$1'" | LC_ALL=C sort
}
got_length() {
    psql_q "SELECT concat_ws(' ', $SQ_SCOPE, records, games, coalesce(events_min, 0), coalesce(events_max, 0),
            coalesce((events_mean * 10)::int::text, 'null'), coalesce(rounds_min, 0), coalesce(rounds_max, 0),
            coalesce((rounds_mean * 10)::int::text, 'null')) FROM arbiter_length_stats WHERE tournament = '$1'" |
        LC_ALL=C sort
}
# the cups hold every kind of result the rule of `decided` tells apart
mix=$(psql_q "SELECT count(*) FILTER (WHERE decided) || ' ' || count(*) FILTER (WHERE decided AND status = 'illegal')
              || ' ' || count(*) FILTER (WHERE NOT decided AND finished) || ' ' || count(*) FILTER (WHERE NOT finished)
              FROM arbiter_games WHERE tournament LIKE 'pg-%'")
read -r dec mis ill unf <<<"$mix"
[ "$dec" -ge 20 ] && [ "$mis" -ge 3 ] && [ "$ill" -ge 6 ] && [ "$unf" -ge 1 ] ||
    fail "the cups' games: $dec decided ($mis with a mismatch), $ill finished illegal, $unf unfinished"
declare -A STATS=()
for t in "${CUPS[@]}"; do
    STATS[$t]=$("$ARBITER" tournament stats --file "${CUPFILE[$t]}" --json --pg "$PG_URL" 2>"$TMP/stats.err") ||
        fail "tournament stats $t: $(cat "$TMP/stats.err")"
done
declare -A AGG=([cards]=arbiter_card_stats [classes]=arbiter_class_stats [rules]=arbiter_rule_stats
               [length]=arbiter_length_stats)
for table in cards classes rules length; do
    bad="" lines=0
    for t in "${CUPS[@]}"; do
        full=1
        [ "$t" != e2e-cup ] || full=0   # its results are the file's (below)
        "want_$table" "${STATS[$t]}" "$full" >"$TMP/want"
        "got_$table" "$t" "$full" >"$TMP/got"
        lines=$((lines + $(wc -l <"$TMP/want")))
        bad+=$(differs "$t" "$TMP/want" "$TMP/got")
    done
    case $table in   # each table worth comparing: rows on the stats side
    cards) min=400 ;; classes) min=60 ;; rules) min=20 ;; length) min=12 ;;
    esac
    [ -z "$bad" ] && [ "$lines" -ge "$min" ] &&
        pass "${AGG[$table]} = tournament stats' $table, scope by scope, four tournaments over two venues ($lines rows; the cups' games: $dec decided, $mis of them with a mismatch, $ill finished illegal, $unf unfinished)" ||
        fail "$table: $lines rows; $bad"
done
# e2e-cup's games and appearances are the same (above); its results differ where the
# tournament's are not the records': r1-t3 is illegal (no result of its own; the head
# judge gave eve the win, T19) and r3-x is unpaired (T2: no result; its own: ann won).
# Nothing else differs: the views' wins and results with r1-t3 counted as the judge's
# and r3-x as none are stats'.
adj="SELECT format || '/' || coalesce(r.scope::text, 'null') AS k, card, class, games, appearances,
            CASE match WHEN 'r1-t3' THEN (player = 'eve')::int WHEN 'r3-x' THEN 0 ELSE wins END AS wins,
            CASE match WHEN 'r1-t3' THEN 1 WHEN 'r3-x' THEN 0 ELSE results END AS results
     FROM arbiter_cards_shown s CROSS JOIN arbiter_scope_rounds(s.round) r (scope) WHERE tournament = 'e2e-cup'"
jq -r "$J_SCOPE"' | .cards[] | [$k, .card, .wins, .results] | map(tostring) | join(" ")' <<<"${STATS[e2e-cup]}" |
    LC_ALL=C sort >"$TMP/want"
psql_q "SELECT concat_ws(' ', k, card, sum(wins), sum(results)) FROM ($adj) a GROUP BY k, card" | LC_ALL=C sort >"$TMP/got"
d=$(psql_q "SELECT string_agg(concat_ws(' ', match, status, decided), ', ' ORDER BY match) FROM arbiter_games
            WHERE tournament = 'e2e-cup' AND match IN ('r1-t3', 'r3-x')")
bad=$(differs e2e-cup "$TMP/want" "$TMP/got")
[ "$d" = "r1-t3 illegal f, r3-x legal t" ] && [ -z "$bad" ] && [ -s "$TMP/want" ] &&
    pass "e2e-cup: results are the records' own ($d); with the judge's result and the unpaired game as the file has them, stats' wins and results" ||
    fail "e2e-cup results: $d; $bad"

# ---- 2. per venue: the per-game views against each daemon's public view ------------------------------------------
# every event of every match of a venue in one view, one JSON object a line with the
# match as "m": read from the daemon's query socket by an independent client (pyzmq)
EVENTS_PY='
import json, sys, zmq
ep, view, out = sys.argv[1], sys.argv[2], open(sys.argv[3], "w")
s = zmq.Context().socket(zmq.DEALER)
s.setsockopt(zmq.LINGER, 0)
s.connect(ep)
for line in open(sys.argv[4]):
    m, frm = json.loads(line)["match"], 0
    while frm is not None:
        s.send(json.dumps({"op": "events", "match": m, "view": view, "from": frm}).encode())
        if not s.poll(10000):
            sys.exit("no answer from " + ep)
        r = json.loads(s.recv())
        for e in r["events"]:
            out.write(json.dumps(dict(e, m=m)) + "\n")
        frm = r.get("next")
'
PY=/usr/bin/python3
"$PY" -c 'import zmq' 2>/dev/null || { echo "SKIP: $PY cannot import zmq (Debian: python3-zmq)"; exit 77; }
jq -n --slurpfile a "$C/core.json" --slurpfile b "$C/standard.json" \
    '[$a[0], $b[0]] | map({key: "\(.set)@\(.version)", value: (.cards | map({key: .id, value: .class}) | from_entries)})
     | from_entries' >"$TMP/classes.json"
jq -r '.[] | keys[]' "$TMP/classes.json" | LC_ALL=C sort -u >"$TMP/card-ids"
for v in "${VENUES[@]}"; do
    "$ARBITER" list --query "ipc://$TMP/$v.q" --json >"$TMP/$v.list"
    for view in public judge; do
        "$PY" -c "$EVENTS_PY" "ipc://$TMP/$v.q" "$view" "$TMP/$v.$view" "$TMP/$v.list" || fail "$v: the $view view"
    done
done
# the second reading: a card counts for the seat whose applied event shows it
J_SHOWN='select((.verdict.status == "ok" or .verdict.status == "warning") and .event.type != "match"
                and (.event.by | test("^p[1-8]$")))
         | .m as $m | .event.by as $s | [.event.card, (.event.slots, .event.cards | arrays | .[])] | .[]
         | strings | [$m, $s, .]'
for v in "${VENUES[@]}"; do
    jq -r -s --slurpfile cls "$TMP/classes.json" '
        (map(select(.seq == 0 and .event.type == "match") | {key: .m, value: .event}) | from_entries) as $h
        | [.[] | '"$J_SHOWN"'] | group_by(.) | map(.[0] + [length]) | .[]
        | [.[0], .[1], .[2], ($cls[0][$h[.[0]].cards][.[2]] // "unknown"), .[3]] | map(tostring) | join(" ")' \
        "$TMP/$v.public" | LC_ALL=C sort >"$TMP/$v.want-cards"
    psql_q "SELECT concat_ws(' ', match, seat, card, coalesce(class, 'unknown'), appearances) FROM arbiter_cards_shown
            WHERE venue = '$v'" | LC_ALL=C sort >"$TMP/$v.got-cards"
    awk '$4 != "unknown" { k = $1 " " $2 " " $4; n[k] += $5 } END { for (k in n) print k, n[k] }' \
        "$TMP/$v.want-cards" | LC_ALL=C sort >"$TMP/$v.want-classes"
    psql_q "SELECT concat_ws(' ', match, seat, class, appearances) FROM arbiter_classes_shown WHERE venue = '$v'" |
        LC_ALL=C sort >"$TMP/$v.got-classes"
    jq -r -s 'map(select(.verdict.status == "illegal" or .verdict.status == "mismatch" or .verdict.status == "warning")
               | [.m, .verdict.status, (.verdict.rule // .verdict.status)]) | group_by(.) | .[]
               | .[0] + [length] | map(tostring) | join(" ")' "$TMP/$v.public" | LC_ALL=C sort >"$TMP/$v.want-rules"
    psql_q "SELECT concat_ws(' ', match, verdict, rule, count) FROM arbiter_rules_broken WHERE venue = '$v'" |
        LC_ALL=C sort >"$TMP/$v.got-rules"
    # the games: the daemon's summaries and headers; decided = finished, no illegal
    # verdict, a winner or a draw
    jq -r -s --slurpfile l "$TMP/$v.list" '
        (map(select(.seq == 0 and .event.type == "match") | {key: .m, value: .event}) | from_entries) as $h
        | $l[] | . as $s | $h[$s.match] as $e
        | [$s.match, $s.format, ($s.tournament // "-"), ($e.event.round // "-"), ($e.event.table // "-"),
           ($e.players | keys | map(select(test("^p[1-8]$")) | . + "=" + ($e.players[.].id // "-")) | join(",")), $s.events, $s.rounds,
           $s.finished, ($s.winner // "-"),
           ($s.finished and $s.counts.illegal == 0 and ($s.winner != null or $s.draw == true))]
        | map(tostring) | join(" ")' "$TMP/$v.public" | LC_ALL=C sort >"$TMP/$v.want-games"
    psql_q "SELECT concat_ws(' ', match, format, coalesce(tournament, '-'), coalesce(round::text, '-'),
                   coalesce(table_id, '-'),
                   (SELECT string_agg(key || '=' || coalesce(value, '-'), ',' ORDER BY key) FROM jsonb_each_text(players)),
                   events, game_rounds, finished::text, coalesce(winner, '-'), decided::text)
            FROM arbiter_games WHERE venue = '$v'" | LC_ALL=C sort >"$TMP/$v.got-games"
done
declare -A VIEW=([games]=arbiter_games [cards]=arbiter_cards_shown [classes]=arbiter_classes_shown
                [rules]=arbiter_rules_broken)
for what in games cards classes rules; do
    bad="" rows=0
    for v in "${VENUES[@]}"; do
        rows=$((rows + $(wc -l <"$TMP/$v.want-$what")))
        bad+=$(differs "$v" "$TMP/$v.want-$what" "$TMP/$v.got-$what")
    done
    [ -z "$bad" ] && [ "$rows" -ge 40 ] &&
        pass "${VIEW[$what]} WHERE venue = V: as each daemon's public view of its records says ($rows rows; every format, in a tournament or not)" ||
        fail "per venue, $what: $rows rows; $bad"
done

# ---- 3. hidden cards: in the judge's bytes, in no view ------------------------------------------------------------
# per game, the card ids the judge's view of its events holds and those anything in
# events.public holds (the event and verdict as the public sees them); the first
# less the second are the game's hidden cards (hands, decklists, face-down cards)
psql_in() { pg_as "$PG_BIN/psql" -h "$PG_DIR" -U arbiter -d arbiter -qAt -v ON_ERROR_STOP=1; }
J_IDS='[.. | strings] | unique | .[] | select($ids[.])'
jq -R -s 'split("\n") | map(select(. != "") | {key: ., value: true}) | from_entries' "$TMP/card-ids" >"$TMP/ids.json"
{
    echo "CREATE TABLE probe_judge (venue text, match text, card text, seq bigint, what text);"
    echo "COPY probe_judge FROM stdin;"
    for v in "${VENUES[@]}"; do
        jq -r --slurpfile i "$TMP/ids.json" --arg v "$v" '$i[0] as $ids | .m as $m | .seq as $s | .event as $e | $e
                   | '"$J_IDS"' | [$v, $m, ., $s, "\($e.by)'"'"'s \($e.type)"] | @tsv' \
            "$TMP/$v.judge"
    done
    echo '\.'
    echo "CREATE TABLE probe_public (venue text, match text, card text); COPY probe_public FROM stdin;"
    psql_q "SELECT json_build_object('v', venue, 'm', match, 'p', public) FROM events" |
        jq -r --slurpfile i "$TMP/ids.json" '$i[0] as $ids | .v as $v | .m as $m | .p | '"$J_IDS"' | [$v, $m, .] | @tsv' |
        LC_ALL=C sort -u
    echo '\.'
    echo "CREATE TABLE probe_hidden AS SELECT venue, match, card FROM probe_judge EXCEPT SELECT * FROM probe_public;"
} | psql_in || fail "loading the judge's and the public's cards"
# leaks VIEW...: "view count" of a game's hidden cards found anywhere in the text of that
# view's rows of the game: as a JSON string or not (escaped bytes), since no card id
# holds another (checked here)
sub=$(awk '{ id[NR] = $0 } END { for (i in id) for (j in id) if (i != j && index(id[j], id[i])) { print id[i] " in " id[j]; exit } }' \
      "$TMP/card-ids")
[ -z "$sub" ] || fail "a card id holds another ($sub): the check below would see one for the other"
leaks() {
    local v sql=""
    for v in "$@"; do
        sql+="${sql:+ UNION ALL }SELECT '$v', count(DISTINCT h) FROM probe_hidden h JOIN $v x
              ON x.venue = h.venue AND x.match = h.match WHERE strpos(row_to_json(x)::text, h.card) > 0"
    done
    psql_q "$sql" | tr '|\n' '  '
}
n=$(psql_q "SELECT count(*) || ' hidden cards in ' || count(DISTINCT (venue, match)) || ' games' FROM probe_hidden")
inbytes=$(psql_q "SELECT count(*) FROM probe_hidden h WHERE EXISTS (SELECT 1 FROM events e WHERE e.venue = h.venue
                  AND e.match = h.match AND position(convert_to(h.card, 'UTF8') IN e.event) > 0)")
total=$(psql_q "SELECT count(*) FROM probe_hidden")
# the first hidden card after the header of an open Advanced game and an open Snap one
ex=$(psql_q "SELECT string_agg(format('%s: %s in %s #%s', match, card, what, seq), ', ' ORDER BY match)
             FROM (SELECT DISTINCT ON (h.match) h.match, h.card, j.seq, j.what FROM probe_hidden h
                   JOIN probe_judge j USING (venue, match, card) WHERE j.seq > 0 AND h.match IN ('r1-t1', 'r3-x')
                   ORDER BY h.match, j.seq, h.card) e")
# every view: those of games (a venue and a match column), those of scopes (a
# tournament, no match); the others read the card databases only
views_with() {   # views_with SQL-CONDITION-ON-COLUMN-NAMES
    psql_q "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public'
            AND table_name LIKE 'arbiter\_%' GROUP BY table_name HAVING $1 ORDER BY table_name" | paste -sd ' '
}
GAME_VIEWS=$(views_with "bool_or(column_name = 'venue') AND bool_or(column_name = 'match')")
SCOPE_VIEWS=$(views_with "bool_or(column_name = 'tournament') AND NOT bool_or(column_name = 'match')")
out=$(leaks $GAME_VIEWS)
[ "$total" -gt 500 ] && [ "$inbytes" = "$total" ] && [ "$(grep -c : <<<"${ex//, /$'\n'}")" = 2 ] &&
    [ "$(wc -w <<<"$GAME_VIEWS")" -ge 4 ] && [ -n "$out" ] && [ "$(sed 's/[a-z_]* 0 //g' <<<"$out")" = "" ] &&
    pass "$n (in open Advanced and Snap games, e.g. $ex): each in the game's judge bytes, none in the rows of $GAME_VIEWS" ||
    fail "hidden cards: $n, $inbytes of $total in the judge's bytes, examples '$ex'; found in views: $out"
# the scopes: a card hidden in every game of a tournament it is in is in none of its rows
psql_q "CREATE TABLE probe_scope AS SELECT g.tournament, j.card FROM probe_judge j JOIN arbiter_games g USING (venue, match)
        EXCEPT SELECT g.tournament, p.card FROM probe_public p JOIN arbiter_games g USING (venue, match)"
sql=""
for v in $SCOPE_VIEWS; do
    sql+="${sql:+ UNION ALL }SELECT '$v', count(DISTINCT h) FROM probe_scope h JOIN $v x
          ON x.tournament IS NOT DISTINCT FROM h.tournament WHERE strpos(row_to_json(x)::text, h.card) > 0"
done
out=$(psql_q "$sql" | tr '|\n' '  ')
n=$(psql_q "SELECT count(*) || ' cards hidden in every game of ' || count(DISTINCT tournament) || ' tournaments'
            FROM probe_scope WHERE tournament IS NOT NULL")
[ "$(wc -w <<<"$SCOPE_VIEWS")" -ge 4 ] && [ -n "$out" ] && [ "$(sed 's/[a-z_]* 0 //g' <<<"$out")" = "" ] &&
    [ "$(psql_q "SELECT count(DISTINCT tournament) FROM probe_scope")" -ge 4 ] &&
    pass "$n: none in its scopes' rows of $SCOPE_VIEWS" || fail "scope views: $n; found: $out"
# the check sees a leak: a view of the judge's bytes shows the hidden cards
psql_q "CREATE VIEW probe_leak AS SELECT venue, match, encode(event, 'escape') AS bytes FROM events"
out=$(leaks probe_leak)
psql_q "DROP VIEW probe_leak"
[ "${out#probe_leak }" != "0 " ] && [ "${out#probe_leak }" != "" ] &&
    pass "the check is not blind: a view of events.event in escaped text shows ${out#probe_leak }of the $total hidden cards" ||
    fail "a view reading events.event went unseen: $out"

# ---- 4. the views read public columns only ----------------------------------------------------------------------
# every column of a table any arbiter_ view reads (pg_depend: a view's rule depends on
# each column it names, on the whole row when it takes one) outside these
PUBLIC_COLUMNS="'events.venue', 'events.match', 'events.started', 'events.seq', 'events.status', 'events.rule',
    'events.type', 'events.public', 'matches.venue', 'matches.match', 'matches.started', 'matches.format',
    'matches.tournament', 'matches.status', 'matches.winner', 'matches.finished', 'matches.events', 'matches.summary',
    'cards.hash', 'cards.bytes'"
DEPS="SELECT v.relname, t.relname || '.' || coalesce(a.attname, '*') AS col
      FROM pg_rewrite r JOIN pg_class v ON v.oid = r.ev_class
      JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass
      JOIN pg_class t ON t.oid = d.refobjid AND t.relkind IN ('r', 'p')
      LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
      WHERE v.relkind = 'v' AND v.relnamespace = 'public'::regnamespace AND v.relname LIKE 'arbiter\\_%'"
CHECK="SELECT coalesce(string_agg(DISTINCT relname || ' reads ' || col, ', '), 'none') FROM ($DEPS) d
       WHERE col NOT IN ($PUBLIC_COLUMNS)"
bad=$(psql_q "$CHECK")
stat=$(psql_q "SELECT count(DISTINCT relname) || ' views, ' || count(DISTINCT col) || ' columns' FROM ($DEPS) d")
fn=$(psql_q "SELECT coalesce(string_agg(proname, ', '), 'none') FROM pg_proc WHERE proname LIKE 'arbiter\\_%'
             AND proname <> 'arbiter_events_partition' AND prosrc ~* '\\m(events|conflicts)'")
views=$(psql_q "SELECT count(*) FROM pg_views WHERE schemaname = 'public' AND viewname LIKE 'arbiter\\_%'")
[ "$bad" = none ] && [ "$fn" = none ] && [ "$views" -ge 10 ] && [ "${stat%% *}" -ge 4 ] &&
    pass "pg_depend: the $views views read public columns only (those reading tables: $stat); no function of theirs reads events" ||
    fail "views reading what they must not: $bad; functions: $fn; $stat of $views views"
bad=$(psql_in <<<"BEGIN; CREATE VIEW arbiter_probe AS SELECT m.match, e.verdict FROM matches m JOIN events e USING (venue, match);
                 $CHECK; ROLLBACK;")
[ "$bad" = "arbiter_probe reads events.verdict" ] && pass "the check is not blind: a view reading events.verdict is named" ||
    fail "a view reading events.verdict: $bad"
# a card database row that is not JSON costs its own cards their classes, and no query its answer
before=$(psql_q "SELECT count(*) FROM arbiter_card_stats")
psql_q "INSERT INTO cards VALUES (repeat('0', 64), '\\xff7b'::bytea)"
after=$(psql_q "SELECT count(*) FROM arbiter_card_stats" 2>&1)
n=$(psql_q "SELECT count(*) FROM arbiter_card_classes WHERE cards_hash = repeat('0', 64)" 2>&1)
psql_q "DELETE FROM cards WHERE hash = repeat('0', 64)"
[ "$after" = "$before" ] && [ "$n" = 0 ] && pass "a card database row that is not JSON: no card of it, every view still answers" ||
    fail "a bad card database row: $before rows, then '$after'; its cards: $n"

for v in "${!PID[@]}"; do kill -TERM "${PID[$v]}"; wait "${PID[$v]}" || fail "$v exits $?"; done
PID=()
finish
