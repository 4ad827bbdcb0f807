# e2e_organise.sh -- the organiser's commands of `arbiter tournament` (new,
# add, drop, late-entry, publish, result, time-call, close, undo, status), run
# as an organiser runs them, on a file nobody edits by hand:
#   1. each command does what it says (the file read back with jq), and
#      refuses bad input with its sentence, the exit code of --help, and the
#      file byte for byte unchanged (cmp), its history not grown;
#   2. what the format refuses is refused before the file is written: an
#      edit the loader (tournament_load) rejects leaves the file as it was;
#   3. a decklist is checked at registration against the format and the
#      event's levers, every violation listed (those `arbiter deck check`
#      lists), and refused when illegal;
#   4. publish pairs as `tournament pair` pairs (the same pairings, from the
#      same records), records the round's start, and exits 4 while a result
#      it needs is pending;
#   5. time-call takes a time of day in the event's time zone: 14:05 in
#      Paris on 2026-03-29 (the day summer time begins) is 12:05 UTC;
#   6. undo restores each earlier version byte for byte, several times;
#   7. status gives the round clock and what is missing, exit 1 on an open
#      alarm; arbiterd's standings reply carries the same round clock.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/tournament_fixture.sh"   # mk, $F, $D (records of e2e-cup)

A=("$ARBITER" tournament)
T="$TMP/org.json"
H="$T.history"
DK="$top_srcdir/fixtures/decks"
command -v jq >/dev/null || { fail "jq is needed"; finish; exit 1; }

versions() { ls "$H" 2>/dev/null | wc -l; }

# refused NAME RC SENTENCE CMD...: CMD exits RC, says SENTENCE on stderr, and
# neither the file nor its history changes
refused() {
    local name=$1 want=$2 say=$3 rc n0 n1
    shift 3
    [ -f "$T" ] && cp "$T" "$TMP/before" || rm -f "$TMP/before"
    n0=$(versions)
    "$@" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
    n1=$(versions)
    if [ "$rc" -ne "$want" ]; then fail "$name: exit $rc, not $want: $(cat "$TMP/err")"
    elif ! grep -qF -- "$say" "$TMP/err"; then fail "$name: stderr does not say '$say': $(cat "$TMP/err")"
    elif [ -f "$TMP/before" ] && ! cmp -s "$T" "$TMP/before"; then fail "$name: the file changed"
    elif [ ! -f "$TMP/before" ] && [ -e "$T" ]; then fail "$name: a file was made"
    elif [ "$n0" != "$n1" ]; then fail "$name: the history grew ($n0 -> $n1)"
    else pass "$name: refused (exit $rc, \"$say\"), the file unchanged"; fi
}

# done_ok NAME CMD...: CMD exits 0 and changes the file; the version before is
# the history's newest, byte for byte
done_ok() {
    local name=$1 rc
    shift
    [ -f "$T" ] && cp "$T" "$TMP/before" || rm -f "$TMP/before"
    "$@" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
    if [ "$rc" -ne 0 ]; then fail "$name: exit $rc: $(cat "$TMP/err")"
    elif [ -f "$TMP/before" ] && cmp -s "$T" "$TMP/before"; then fail "$name: the file did not change"
    elif [ -f "$TMP/before" ] && ! cmp -s "$TMP/before" "$H/$(ls "$H" | sort | tail -n 1)"; then
        fail "$name: the history's newest version is not the file as it was"
    else pass "$name: $(head -n 1 "$TMP/out")"; fi
}

jqf() { jq -r "$1" "$T"; }

# ---- new -------------------------------------------------------------------------
refused "new: an unknown time zone" 2 'the time zone "Mars/Olympus" is not known' \
    "${A[@]}" new --file "$T" --id e2e-cup --name "Org Cup" --format advanced --swiss-rounds 3 --cut 0 \
    --timezone Mars/Olympus
refused "new: a lever the format does not have" 2 '"deck_sie" is not a variant lever of the advanced format' \
    "${A[@]}" new --file "$T" --id e2e-cup --name "Org Cup" --format advanced --swiss-rounds 3 --cut 0 \
    --rule deck_sie=70
refused "new: a structure given twice" 2 'not both' \
    "${A[@]}" new --file "$T" --id e2e-cup --name "Org Cup" --format advanced --structure basic --swiss-rounds 3 --cut 0
refused "new: an unknown format (the loader's sentence)" 2 '"format"' \
    "${A[@]}" new --file "$T" --id e2e-cup --name "Org Cup" --format chess --swiss-rounds 3 --cut 0
done_ok "new" "${A[@]}" new --file "$T" --id e2e-cup --name "Org Cup" --format advanced --swiss-rounds 3 --cut 0 \
    --round-minutes 50 --timezone Europe/Paris --seed org-seed-1
[ "$(jqf '[.id, .format, .cards, .structure.swiss_rounds, .round_minutes, .timezone] | join(" ")')" = \
  "e2e-cup advanced core@1.1.0 3 50 Europe/Paris" ] && pass "new: the file holds the event" ||
    fail "new: the file holds $(cat "$T")"
# the tier and the two flags (a file of its own: the event above goes on)
NT="$TMP/tier.json"
T="$NT" H="$NT.history" refused "new: a tier that does not exist (the loader's sentence)" 2 '"tier"' \
    "${A[@]}" new --file "$NT" --id t --name T --format snap --swiss-rounds 3 --cut 0 --tier grand
"${A[@]}" new --file "$NT" --id t --name T --format snap --swiss-rounds 3 --cut 4 --tier premier --decklists-public \
    --cut-on-later-day >/dev/null 2>"$TMP/err" &&
    [ "$(jq -c '[.tier, .decklists_public, .cut_on_later_day]' "$NT")" = '["premier",true,true]' ] &&
    pass "new: --tier, --decklists-public and --cut-on-later-day are in the file" ||
    fail "new --tier: $(cat "$TMP/err" "$NT" 2>/dev/null)"
# every byte written is defined: the file is its JSON with two spaces of indent and a newline
jq --indent 2 . "$T" | cmp -s - "$T" && pass "new: the file is written whole (jq --indent 2's bytes)" ||
    fail "new: the file's bytes: $(od -c "$T" | tail -n 3)"
[ "$(stat -c %a "$T")" = "$(printf '%o' $((0666 & ~$(umask))))" ] && pass "new: the file's mode is 0666 less the umask" ||
    fail "new: mode $(stat -c %a "$T"), umask $(umask)"
refused "new: over an existing file" 2 'exists' \
    "${A[@]}" new --file "$T" --id x --name X --format advanced --swiss-rounds 3 --cut 0
[ ! -e "$TMP/none.json.history" ] && { "${A[@]}" new --file "$TMP/none.json" --id x --name X --format chess \
    --swiss-rounds 3 --cut 0; "${A[@]}" add --file "$TMP/none.json" --player a --name A;
    "${A[@]}" undo --file "$TMP/none.json"; } 2>/dev/null
[ ! -e "$TMP/none.json" ] && [ ! -e "$TMP/none.json.history" ] &&
    pass "refused new, add and undo of a file that does not exist leave nothing behind" ||
    fail "a refused command left $(ls -d "$TMP"/none.json*)"

# a structure table: its row waits for the players registered before round 1
B="$TMP/basic.json"
"${A[@]}" new --file "$B" --id b --name B --format advanced --structure basic >/dev/null 2>"$TMP/err" &&
    "${A[@]}" add --file "$B" --player a --name A >/dev/null 2>&1 && "${A[@]}" add --file "$B" --player b --name B >/dev/null 2>&1 &&
    pass "new --structure basic: written with no player, then registration" || fail "new --structure basic: $(cat "$TMP/err")"
T="$B" H="$B.history" refused "publish: a structure table with no row for 2 players" 2 'no row for 2 registered players' \
    "${A[@]}" publish --file "$B" --round 1

# ---- add (registration) -----------------------------------------------------------
done_ok "add with a legal decklist" "${A[@]}" add --file "$T" --player ann --name "Ann Lee" \
    --deck "$DK/advanced/legal-coreon-ember.json"
[ "$(jqf '.players[0].deck.main | length')" = 40 ] && pass "add: the decklist is registered (40 cards)" ||
    fail "add: the registered deck: $(jqf '.players[0]')"
for p in ben:Ben cat:Cat dan:Dan eve:Eve fay:Fay gil:Gil; do
    done_ok "add ${p%%:*}" "${A[@]}" add --file "$T" --player "${p%%:*}" --name "${p#*:}"
done
chmod 640 "$T"
done_ok "add keeps the file's mode" "${A[@]}" add --file "$T" --player ivy --name Ivy
[ "$(stat -c %a "$T")" = 640 ] && pass "add: the file keeps its mode (640)" || fail "add: mode $(stat -c %a "$T")"
"${A[@]}" undo --file "$T" >/dev/null 2>&1
jq --indent 2 . "$T" | cmp -s - "$T" && [ "$(jqf '.players | length')" = 7 ] &&
    pass "add: the file is written whole (jq --indent 2's bytes)" || fail "add: the file's bytes: $(tail -c 40 "$T" | od -c)"
refused "add: an id already registered" 2 'A player of id "ben" is already registered.' \
    "${A[@]}" add --file "$T" --player ben --name "Ben Two"
refused "add: a name the loader refuses (validated before writing)" 2 'is longer than 256 bytes' \
    "${A[@]}" add --file "$T" --player hal --name "$(printf 'h%.0s' $(seq 1 300))"
ILL="$DK/advanced/illegal-advanced_deck_copies-3-copies.json"
refused "add: an illegal decklist" 2 'is illegal for advanced' \
    "${A[@]}" add --file "$T" --player hal --name Hal --deck "$ILL"
want=$("$ARBITER" deck check --format advanced "$ILL" | sed -n 's/^  //p')
got=$(sed -n 's/^  //p' "$TMP/err")
[ -n "$want" ] && [ "$got" = "$want" ] && pass "add: every violation is listed, as deck check lists them" ||
    fail "add: violations [$got], deck check [$want]"
# the event's levers apply: a 60-card Master deck is illegal when decks hold 70
M="$TMP/master.json"
"${A[@]}" new --file "$M" --id m --name M --format master --swiss-rounds 2 --cut 0 --rule deck_size=70 >/dev/null 2>&1
cp "$M" "$TMP/m-before"
"${A[@]}" add --file "$M" --player a --name A --deck "$DK/master/legal-coreon-ember.json" >/dev/null 2>"$TMP/err" &&
    rc=0 || rc=$?
[ "$rc" -eq 2 ] && grep -q 'master:deck.size.*exactly 70' "$TMP/err" && cmp -s "$M" "$TMP/m-before" &&
    pass "add: the event's levers apply (deck_size 70 refuses a 60-card deck)" ||
    fail "add under deck_size=70: exit $rc: $(cat "$TMP/err")"

# an event without a seed: the seed arbiter draws round 1 with goes into the round (T27)
for p in a b c d e; do "${A[@]}" add --file "$M" --player $p --name "${p^^}" >/dev/null 2>&1; done
cp "$M" "$TMP/m-pre1"
"${A[@]}" publish --file "$M" --round 1 >/dev/null 2>&1
MS=$(jq -r '.rounds[0].seed // empty' "$M")
[ -n "$MS" ] && [ "$(jq -c '.rounds[0].pairings' "$M")" = \
  "$("$ARBITER" tournament pair --file "$TMP/m-pre1" --round 1 --seed "$MS" --json 2>/dev/null | jq -c .pairings)" ] &&
    pass "publish: a seed arbiter made is written into the round, and draws the same pairings again" ||
    fail "publish without a seed: seed '$MS', $(jq -c '.rounds[0]' "$M")"

# commands on one file take turns: 20 registrations at once, none lost
P="$TMP/par.json"
"${A[@]}" new --file "$P" --id p --name P --format advanced --swiss-rounds 3 --cut 0 >/dev/null 2>&1
for i in $(seq 1 20); do "${A[@]}" add --file "$P" --player "p$i" --name "P $i" >/dev/null 2>&1 & done
wait
[ "$(jq '.players | length' "$P")" = 20 ] && [ "$(ls "$P.history" | wc -l)" = 20 ] &&
    pass "20 adds at once: 20 players, 20 versions (each command holds the lock)" ||
    fail "20 adds at once: $(jq '.players | length' "$P") players, $(ls "$P.history" | wc -l) versions"

# ---- publish round 1 ----------------------------------------------------------------
refused "publish: not the next round" 2 'Round 3 cannot be published: the next round is 1.' \
    "${A[@]}" publish --file "$T" --round 3
refused "publish: a start that is no time" 2 "'2pm' is no time of day" \
    "${A[@]}" publish --file "$T" --round 1 --start 2pm
cp "$T" "$TMP/pre1.json"
done_ok "publish round 1" "${A[@]}" publish --file "$T" --round 1 --start 14:00
want=$("$ARBITER" tournament pair --file "$TMP/pre1.json" --round 1 --json | jq -c .pairings)
[ "$(jqf '.rounds[0].pairings' | jq -c .)" = "$want" ] &&
    pass "publish: round 1's pairings are those of tournament pair" || fail "publish r1: $(jqf '.rounds[0]') vs $want"
# the 14:00 nearest now in Paris: yesterday's, today's or tomorrow's
now=$(date +%s) want=
for d in -1 0 1; do
    t=$(TZ=Europe/Paris date -d "$(TZ=Europe/Paris date -d "@$((now + d * 86400))" +%F) 14:00" +%s)
    [ -n "$want" ] && [ $(( (t > now ? t - now : now - t) >= (want > now ? want - now : now - want) )) = 1 ] || want=$t
done
[ "$(jqf '.rounds[0].started')" = "${want}000" ] &&
    pass "publish: the round's start is the 14:00 nearest now in Paris" ||
    fail "publish: started $(jqf '.rounds[0].started'), not ${want}000"
refused "add after round 1 is published" 2 'Round 1 is published: a player who comes now enters late' \
    "${A[@]}" add --file "$T" --player hal --name Hal

# ---- time-call -----------------------------------------------------------------------------
refused "time-call: no time of day" 2 "'14:5x' is no time of day" "${A[@]}" time-call --file "$T" --round 1 14:5x
refused "time-call: 24:10" 2 "'24:10' is no time of day" "${A[@]}" time-call --file "$T" --round 1 24:10
refused "time-call: 14:5 (minutes take two digits)" 2 "'14:5' is no time of day" \
    "${A[@]}" time-call --file "$T" --round 1 14:5
refused "time-call: 14:05:60" 2 "'14:05:60' is no time of day" "${A[@]}" time-call --file "$T" --round 1 14:05:60
refused "time-call: not the current round" 2 'Round 2 is not the current round: round 1 is.' \
    "${A[@]}" time-call --file "$T" --round 2 14:50
refused "time-call: before the round started" 2 'Time cannot be called before round 1 started.' \
    "${A[@]}" time-call --file "$T" --round 1 13:59
refused "time-call: a table of no pairing" 2 'Round 1 has no table "9".' \
    "${A[@]}" time-call --file "$T" --round 1 --table 9 15:00
done_ok "time-call" "${A[@]}" time-call --file "$T" --round 1 14:50
[ "$(jqf '.rounds[0].time_called - .rounds[0].started')" = $((50 * 60000)) ] &&
    pass "time-call: 14:50 is 50 minutes after the 14:00 start" || fail "time-call: $(jqf '.rounds[0]')"
done_ok "time-call for one table (HH:MM:SS)" "${A[@]}" time-call --file "$T" --round 1 --table 2 14:55:30
[ "$(jqf '.rounds[0] | (.pairings[] | select(.table == "2") | .time_called) - .started')" = \
  $((55 * 60000 + 30000)) ] && pass "time-call: table 2's extension is 14:55:30" ||
    fail "time-call table 2: $(jqf '.rounds[0]')"
# the time zone, by hand: Paris on 2026-03-29 (summer time from 01:00 UTC) is UTC+2
Z="$TMP/zone.json"
jq '.timezone = "Europe/Paris" | del(.judge_results) | .rounds = [{"round": 1, "started": 1774767600000,
     "pairings": [{"table": "1", "p1": "ann", "p2": "ben"}]}]' "$TF" >"$Z"   # 09:00 in Paris
"${A[@]}" time-call --file "$Z" --round 1 14:05 >/dev/null 2>"$TMP/err" || fail "time-call in Paris: $(cat "$TMP/err")"
[ "$(jq '.rounds[0].time_called' "$Z")" = "$(date -u -d '2026-03-29 12:05:00' +%s)000" ] &&
    pass "time-call: 14:05 in Paris on 2026-03-29 is 12:05 UTC ($(jq '.rounds[0].time_called' "$Z"))" ||
    fail "time-call in Paris: $(jq '.rounds[0].time_called' "$Z")"
jq '.timezone = "America/New_York"' "$Z" >"$TMP/ny.json"
jq 'del(.rounds[0].time_called)' "$TMP/ny.json" >"$Z"
"${A[@]}" time-call --file "$Z" --round 1 14:05 >/dev/null 2>&1
[ "$(jq '.rounds[0].time_called' "$Z")" = "$(date -u -d '2026-03-29 18:05:00' +%s)000" ] &&
    pass "time-call: 14:05 in New York that day is 18:05 UTC" || fail "time-call in New York: $(cat "$Z")"
# across midnight: a round that started at 23:30 in Paris has time called at 00:20 the next day
jq --argjson s "$(date -u -d '2026-11-28 22:30:00' +%s)000" '.rounds[0].started = $s' "$TMP/ny.json" |
    jq '.timezone = "Europe/Paris" | del(.rounds[0].time_called)' >"$Z"
"${A[@]}" time-call --file "$Z" --round 1 00:20 >"$TMP/out" 2>"$TMP/err"
[ "$(jq '.rounds[0].time_called - .rounds[0].started' "$Z")" = $((50 * 60000)) ] &&
    grep -q 'at 00:20 on 2026-11-29 Europe/Paris' "$TMP/out" &&
    pass "time-call: 00:20 after a 23:30 start is the next day's, 50 minutes later" ||
    fail "time-call across midnight: $(jq -c '.rounds[0]' "$Z") $(cat "$TMP/out" "$TMP/err")"

# ---- result (a head judge's, a game played on paper) ------------------------------------------
P1=$(jqf '.rounds[0].pairings[] | select(.table == "1") | .p1')
refused "result: a player of another table" 2 'does not play at table 1 of round 1' \
    "${A[@]}" result --file "$T" --round 1 --table 1 --winner nobody --judge "Hana Judge" --text "x"
refused "result: no such table" 2 'Round 1 has no table "9".' \
    "${A[@]}" result --file "$T" --round 1 --table 9 --draw --judge "Hana Judge" --text "x"
refused "result: winner and draw" 2 'needs one of --winner ID, --draw' \
    "${A[@]}" result --file "$T" --round 1 --table 1 --draw --winner "$P1" --judge "Hana Judge" --text "x"
refused "result: no judge" 2 'needs --judge' "${A[@]}" result --file "$T" --round 1 --table 1 --draw --text "x"
P2=$(jqf '.rounds[0].pairings[] | select(.table == "1") | .p2')
refused "result: a winner and --engine" 2 'needs one of --winner ID, --draw' \
    "${A[@]}" result --file "$T" --round 1 --table 1 --engine --winner "$P1" --judge "Hana Judge" --text "x"
refused "result: --draw-win without --draw" 2 '--draw-win goes with --draw' \
    "${A[@]}" result --file "$T" --round 1 --table 1 --engine --draw-win "$P1" --judge "Hana Judge" --text "x"
refused "result: --scores not as ID=N" 2 "--scores is each player's score" \
    "${A[@]}" result --file "$T" --round 1 --table 1 --engine --scores "$P1:3" --judge "Hana Judge" --text "x"
refused "result: a score of a player of another table" 2 'who does not play at table 1' \
    "${A[@]}" result --file "$T" --round 1 --table 1 --at-time --scores "$P1=3,nobody=1" --judge "Hana Judge" --text "x"
for k in engine at-time double-loss; do
    done_ok "result --$k" "${A[@]}" result --file "$T" --round 1 --table 1 --$k --judge "Hana Judge" --text "Ruled."
    [ "$(jqf '[.judge_results[] | select(.round == 1 and .table == "1") | .result] | join(" ")')" = "${k//-/_}" ] &&
        pass "result --$k: one judge result for the table, $(jqf '.judge_results[0].result')" ||
        fail "result --$k: $(jqf -c .judge_results)"
done
done_ok "result --draw --draw-win --scores --match" "${A[@]}" result --file "$T" --round 1 --table 1 --draw \
    --draw-win "$P2" --scores "$P1=2,$P2=3" --match m-paper --judge "Hana Judge" --text "A draw; $P2 had the edge."
[ "$(jq -r '.judge_results[0] | [.result, .draw_win, (.scores | to_entries | map("\(.key)=\(.value)") | join(",")), .match] | join(" ")' "$T")" = \
  "draw $P2 $P1=2,$P2=3 m-paper" ] && pass "result: the draw win, the scores and the match are in the file" ||
    fail "result --draw-win: $(jqf '.judge_results[0]')"
done_ok "result" "${A[@]}" result --file "$T" --round 1 --table 1 --winner "$P1" --judge "Hana Judge" \
    --text "Played on paper; $P1 won."
grep -q 'replaces the judge' "$TMP/out" && pass "result: says it replaces the judge's earlier result" ||
    fail "result: $(cat "$TMP/out")"
[ "$(jqf '.judge_results[0] | [.round, .table, .result, .winner, .judge] | map(tostring) | join(" ")')" = \
  "1 1 win $P1 Hana Judge" ] && pass "result: the judge's result is in the file" || fail "result: $(jqf .judge_results)"
W=$("$ARBITER" tournament standings --file "$T" --json 2>/dev/null | jq -r --arg p "$P1" '.standings[] | select(.player == $p) | .wins')
[ "$W" = 1 ] && pass "result: the paper game counts in the standings ($P1 has 1 win)" || fail "result: wins $W"

# ---- report (the players' slip, T3) and intentional-draw (T15) ------------------------------
refused "report: a winner of another table" 2 'does not play at table 1' \
    "${A[@]}" report --file "$T" --table 1 --winner nobody
refused "report: neither winner nor draw" 2 'needs --winner ID or --draw' "${A[@]}" report --file "$T" --table 1
done_ok "report" "${A[@]}" report --file "$T" --table 1 --winner "$P2" --scores "$P1=1,$P2=3"
[ "$(jqf '.rounds[0].reports[0] | [.table, .winner, .scores[]] | map(tostring) | join(" ")')" = "1 $P2 1 3" ] &&
    pass "report: the slip is the round's report" || fail "report: $(jqf '.rounds[0].reports')"
"$ARBITER" tournament alarms --file "$T" --json >"$TMP/al" 2>/dev/null
jq -e '[.alarms[] | select(.alarm == "report_differs")] | length == 1' "$TMP/al" >/dev/null &&
    pass "report: a slip that differs from the judge's result is an alarm (report_differs)" ||
    fail "report: alarms $(head -c 600 "$TMP/al")"
done_ok "report: a second slip replaces the first" "${A[@]}" report --file "$T" --table 1 --winner "$P1"
[ "$(jqf '.rounds[0].reports | length')" = 1 ] && pass "report: one report per table" || fail "report: $(jqf '.rounds[0].reports')"
ID="$TMP/idraw.json"
cp "$T" "$ID"
T="$ID" H="$ID.history" refused "intentional-draw: no such table" 2 'Round 1 has no table "9".' \
    "${A[@]}" intentional-draw --file "$ID" --table 9
T="$ID" H="$ID.history" done_ok "intentional-draw" "${A[@]}" intentional-draw --file "$ID" --table 2
[ "$(jq -r '.rounds[0].pairings[] | select(.table == "2") | .intentional_draw' "$ID")" = true ] &&
    pass "intentional-draw: the pairing says so" || fail "intentional-draw: $(cat "$ID")"
"${A[@]}" close --file "$ID" --round 1 >/dev/null 2>&1
T="$ID" H="$ID.history" refused "intentional-draw: a closed round" 2 'Round 1 is closed.' \
    "${A[@]}" intentional-draw --file "$ID" --table 3

# ---- publish round 2: pending, then from the records ------------------------------------------
refused "publish: a result is pending (exit 4)" 4 'has no result yet' "${A[@]}" publish --file "$T" --round 2
LOGS=()
for tb in $(jqf '.rounds[0].pairings[] | select(.table != null and .table != "1") | .table'); do
    mk advanced/legal-commit-prime-evolution-p1-wins.jsonl "org-r1-t$tb" 1 "$tb" \
        "$(jqf ".rounds[0].pairings[] | select(.table == \"$tb\") | .p1")" \
        "$(jqf ".rounds[0].pairings[] | select(.table == \"$tb\") | .p2")"
    LOGS+=("$D/org-r1-t$tb.jsonl")
done

# ---- drop, late entry (before round 2) ------------------------------------------------------------
refused "drop: no such player" 2 'No player of id "zed" is registered.' "${A[@]}" drop --file "$T" --player zed
refused "drop: an unknown reason" 2 'drop, no_show or disqualified' \
    "${A[@]}" drop --file "$T" --player gil --reason bored
refused "drop: after a round not published" 2 'Round 2 is not published yet' \
    "${A[@]}" drop --file "$T" --player gil --after 2
done_ok "drop" "${A[@]}" drop --file "$T" --player gil
[ "$(jqf '.drops[0] | [.player, .after_round, .reason] | map(tostring) | join(" ")')" = "gil 1 drop" ] &&
    pass "drop: gil leaves after the current round (1), reason drop" || fail "drop: $(jqf .drops)"
refused "drop: twice" 2 '"gil" has already left after round 1 (drop).' "${A[@]}" drop --file "$T" --player gil
refused "late-entry: a player who is playing" 2 '"ben" is playing' "${A[@]}" late-entry --file "$T" --player ben
refused "late-entry: into a published round" 2 'Round 1 is published' \
    "${A[@]}" late-entry --file "$T" --player hal --name Hal --round 1
refused "late-entry: an illegal decklist" 2 'is illegal for advanced' \
    "${A[@]}" late-entry --file "$T" --player hal --name Hal --deck "$ILL"
done_ok "late-entry" "${A[@]}" late-entry --file "$T" --player hal --name "Hal Roe" \
    --deck "$DK/advanced/legal-coreon-fluxion.json"
[ "$(jqf '.late_entries[0] | [.player, .round] | map(tostring) | join(" ")')" = "hal 2" ] &&
    pass "late-entry: hal enters in round 2" || fail "late-entry: $(jqf .late_entries)"

# ---- close ------------------------------------------------------------------------------------------
refused "close: not the current round" 2 'Round 2 is not the current round: round 1 is.' \
    "${A[@]}" close --file "$T" --round 2
done_ok "close" "${A[@]}" close --file "$T" --round 1
[ "$(jqf '.rounds[0].closed')" = true ] && pass "close: round 1 is closed" || fail "close: $(jqf '.rounds[0]')"
refused "close: twice" 2 'Round 1 is closed.' "${A[@]}" close --file "$T" --round 1

cp "$T" "$TMP/pre2.json"
done_ok "publish round 2 from the records" "${A[@]}" publish --file "$T" --round 2 "${LOGS[@]}"
want=$("$ARBITER" tournament pair --file "$TMP/pre2.json" --round 2 --json "${LOGS[@]}" | jq -c .pairings)
[ "$(jqf '.rounds[1].pairings' | jq -c .)" = "$want" ] &&
    pass "publish: round 2's pairings are those of tournament pair from the same records" ||
    fail "publish r2: $(jqf '.rounds[1].pairings' | jq -c .) vs $want"
jqf '.rounds[1].pairings[] | .p1, .p2, .bye' | grep -qx gil && fail "publish: gil, dropped, is paired" ||
    pass "publish: the dropped player is not paired"
jqf '.rounds[1].pairings[] | .p1, .p2, .bye' | grep -qx hal && pass "publish: the late entry is paired" ||
    fail "publish: hal is not paired"

# ---- status -------------------------------------------------------------------------------------------
AT=$(TZ=Europe/Paris date -d "@$(jqf '(.rounds[1].started // 0) / 1000 + 1200 | floor')" +%H:%M:%S)
"${A[@]}" status --file "$T" --at "$AT" "${LOGS[@]}" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
grep -q '^round 2 of 3 (swiss), open$' "$TMP/out" && grep -q 'ends .* (50 minutes); 30:00 left' "$TMP/out" &&
    grep -q "missing to close round 2: $(jqf '[.rounds[1].pairings[] | select(.table)] | length') pairings" "$TMP/out" &&
    pass "status: the round, its clock (30:00 left at start + 20 min), what is missing" ||
    fail "status: $(cat "$TMP/out" "$TMP/err")"
# the page shows the open round's clock in the event's time zone
"$ARBITER" tournament html --file "$T" --out "$TMP/page.html" "${LOGS[@]}" 2>/dev/null
S2=$(jqf '(.rounds[1].started // 0) / 1000 | floor')
ENDS=$(TZ=Europe/Paris date -d "@$((S2 + 3000))" +%H:%M)
# a round that ends after midnight names the day it ends
[ "$(TZ=Europe/Paris date -d "@$S2" +%F)" = "$(TZ=Europe/Paris date -d "@$((S2 + 3000))" +%F)" ] ||
    ENDS="$ENDS on $(TZ=Europe/Paris date -d "@$((S2 + 3000))" +%F)"
grep -q "<p class=\"clock\">Round 2 started at [0-9:]* and ends at $ENDS (Europe/Paris); [0-9]* minutes\? left.</p>" \
    "$TMP/page.html" && pass "html: the round clock (ends $ENDS, Europe/Paris)" ||
    fail "html: no round clock ending $ENDS: $(grep -o '<p class="clock">[^<]*' "$TMP/page.html")"
# at the end of the round's 50 minutes, the games without a result are those still playing at time
AT=$(TZ=Europe/Paris date -d "@$(jqf '(.rounds[1].started // 0) / 1000 + 3001 | floor')" +%H:%M:%S)
"${A[@]}" status --file "$T" --at "$AT" "${LOGS[@]}" >"$TMP/out2" 2>"$TMP/err" || true
grep -q 'time is up (0 minutes ago)' "$TMP/out2" &&
    grep -q "time is up and $(jqf '[.rounds[1].pairings[] | select(.table)] | length') games of round 2 have no usable result" "$TMP/out2" &&
    pass "status at time: the games still without a result are listed as running at time" ||
    fail "status at time: $(cat "$TMP/out2" "$TMP/err")"
# ann registered a decklist and played another: an alarm a judge must look at
if grep -q '^open alarms: 0' "$TMP/out"; then
    [ "$rc" -eq 0 ] && pass "status: no open alarm, exit 0" || fail "status: no alarm but exit $rc"
else
    [ "$rc" -eq 1 ] && pass "status: open alarms, exit 1 ($(grep '^open alarms' "$TMP/out"))" ||
        fail "status with open alarms: exit $rc"
fi
# a game at a table round 2 did not pair: an alarm no judge's result resolves
mk advanced/legal-open-prime-singular.jsonl org-r2-x 2 9 ann ben
"${A[@]}" status --file "$T" "${LOGS[@]}" "$D/org-r2-x.jsonl" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
[ "$rc" -eq 1 ] && grep -q '^open alarms: [1-9]' "$TMP/out" && grep -q 'round 2 table 9: unpaired_game' "$TMP/out" &&
    pass "status: an open alarm (a game at an unpaired table) is listed, exit 1" ||
    fail "status with an unpaired game: exit $rc: $(cat "$TMP/out" "$TMP/err")"
"${A[@]}" status --file "$TMP/pre1.json" >"$TMP/out" 2>&1 && rc=0 || rc=$?
[ "$rc" -eq 0 ] && grep -q 'no round is published yet' "$TMP/out" && pass "status before round 1: exit 0" ||
    fail "status before round 1: exit $rc $(cat "$TMP/out")"
refused "status: --at no time" 2 "'99:00' is no time of day" "${A[@]}" status --file "$T" --at 99:00
echo '{"version": 2}' >"$TMP/bad.json"
T="$TMP/bad.json" H="$TMP/bad.json.history" refused "status: a file the loader refuses" 2 '"version" must be 1.' \
    "${A[@]}" status --file "$TMP/bad.json"
T="$TMP/bad.json" H="$TMP/bad.json.history" refused "close: a file the loader refuses" 2 '"version" must be 1.' \
    "${A[@]}" close --file "$TMP/bad.json" --round 1

# ---- undo ------------------------------------------------------------------------------------------------
n=$(versions)
ok=1
for k in 1 2 3; do
    want_file="$H/$(ls "$H" | sort | tail -n 1)"
    cp "$want_file" "$TMP/want"
    "${A[@]}" undo --file "$T" >/dev/null 2>"$TMP/err" || ok=0
    cmp -s "$T" "$TMP/want" || ok=0
    [ "$k" != 1 ] || cmp -s "$T" "$TMP/pre2.json" || ok=0   # the first: back to before round 2 was published
done
[ "$ok" = 1 ] && [ "$(versions)" -eq $((n - 3)) ] &&
    pass "undo: three undos restore three versions byte for byte (the first, the file before publish round 2)" ||
    fail "undo: $(cat "$TMP/err"), $(versions) versions left of $n"
E="$TMP/empty.json"
cp "$TMP/pre1.json" "$E"
T="$E" H="$E.history"
refused "undo with nothing to undo" 2 'nothing to undo' "${A[@]}" undo --file "$E"
T="$TMP/org.json" H="$TMP/org.json.history"

# ---- the daemon's standings: the round clock -------------------------------------------------------------
. "$top_srcdir/tests/daemon.sh"
L="$TMP/live.json"
NOW=$(($(date +%s) * 1000))
jq --argjson s $((NOW - 600000)) '.rounds[-1].started = $s' "$TMP/pre2.json" >"$L"   # started 10 minutes ago
if daemon_start --tournament "$L"; then
    r1=$("$ARBITER" query --endpoint "$EP_Q" '{"op":"standings","tournament":"e2e-cup"}' 2>&1)
    sleep 1.2
    r2=$("$ARBITER" query --endpoint "$EP_Q" '{"op":"standings","tournament":"e2e-cup"}' 2>&1)
    c1=$(jq -c .clock <<<"$r1") c2=$(jq -c .clock <<<"$r2")
    [ "$(jq -r '[.round, .started, .ends - .started] | map(tostring) | join(" ")' <<<"$c1")" = \
      "1 $((NOW - 600000)) 3000000" ] && pass "standings op: the clock of round 1 (start, end = start + 50 min)" ||
        fail "standings op: clock $c1"
    l1=$(jq .time_left_ms <<<"$c1") l2=$(jq .time_left_ms <<<"$c2")
    [ "$l1" -gt 2390000 ] && [ "$l1" -le 2400000 ] && [ "$(jq .cached <<<"$r2")" = true ] && [ "$l2" -lt "$l1" ] &&
        pass "standings op: time left ${l1} ms, then ${l2} ms from the cache (set as sent)" ||
        fail "standings op: time left $l1 then $l2, cached $(jq .cached <<<"$r2")"
    daemon_stop || fail "arbiterd stops cleanly"
else
    fail "arbiterd starts with the organised file"
fi

finish
