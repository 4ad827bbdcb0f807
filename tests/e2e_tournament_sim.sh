# e2e_tournament_sim.sh -- the simulated tournament (fixtures/tournament/):
# 65 players, 6 Swiss rounds by the Advanced structure table, a top-8 cut and
# three elimination rounds, every game a record played by the Advanced game
# generator.  Each answer of `arbiter tournament` is compared with what
# fixtures/tournament/refmodel.py -- a second reading of TOURNAMENT.md, in
# Python, written apart from src/tournament/ -- computed when the event was
# simulated (sim-cup.expect.json):
#   - the standings after every Swiss round (places, points, W-D-L, MOV,
#     exact strength of schedule), each with the late entry's unpaired loss,
#     the drops, three byes, the illegal record the head judge let stand, and
#     round 6's intentional draw;
#   - the pairings of every round, asked as the organiser asks them: from the
#     file as it stood before the round and the records of the rounds before;
#   - the cut (a qualified player who drops is replaced by the 9th) and the
#     bracket of the elimination rounds;
#   - the final standings (T38);
#   - the alarms: exactly the illegal record (resolved by the judge) and the
#     result reported the wrong way round.
# And the same from a daemon's store, the records streamed as live tables.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"

command -v jq >/dev/null || { echo "SKIP e2e_tournament_sim: jq is needed"; exit 77; }

S="$top_srcdir/fixtures/tournament"
TF="$S/sim-cup.json"
EX="$S/sim-cup.expect.json"
T=("$ARBITER" tournament)

# the expectations are refmodel.py's for this file and these games
if PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$S/simulate.py" --check >"$TMP/check" 2>&1; then pass "sim-cup.expect.json is refmodel.py's"
else fail "simulate.py --check: $(cat "$TMP/check")"; fi

# logs_before R: the records of the rounds before R
logs_before() {
    local k
    for ((k = 1; k < $1; k++)); do ls "$S"/sim-cup/sim-r"$k"-t*.jsonl; done
}
mapfile -t LOGS < <(logs_before 10)
n=${#LOGS[@]}
if [ "$n" -ge 190 ]; then pass "$n records"; else fail "want at least 190 records, got $n"; fi

# same NAME: the two JSON files $TMP/got and $TMP/want are equal
same() {
    if jq -S -c . "$TMP/got" >"$TMP/got.c" && jq -S -c . "$TMP/want" >"$TMP/want.c" && cmp -s "$TMP/got.c" "$TMP/want.c"
    then pass "$1"
    else fail "$1: got $(head -c 1500 "$TMP/got.c") -- want $(head -c 1500 "$TMP/want.c")"; fi
}

# ask FILTER ARGS...: `arbiter tournament ARGS...` (exit 0 or 1: alarms may be
# open), its JSON through jq FILTER into $TMP/got; its exit code in $rc.
ask() {
    local filter=$1
    shift
    rc=0
    "${T[@]}" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -le 1 ] || fail "tournament $*: exit $rc: $(cat "$TMP/err")"
    jq "$filter" "$TMP/out" >"$TMP/got"
}
ROW='[.standings[] | {place, player, event_points, wins, draws, losses, mov, sos_exact}]'

# ---- the standings after each Swiss round -------------------------------------------
for r in 1 2 3 4 5 6; do
    ask "$ROW" standings --file "$TF" --after "$r" --json "${LOGS[@]}"
    jq --arg r "$r" '.standings[$r]' "$EX" >"$TMP/want"
    same "standings after round $r"
done

# the text says which structure row it used (T39)
"${T[@]}" standings --file "$TF" --after 6 "${LOGS[@]}" >"$TMP/out" 2>/dev/null
if grep -qxF "structure: the Advanced table's row for 41-76 registered players" "$TMP/out"
then pass "standings: the Advanced table's row 41-76 (64 registered; the late entry does not count)"
else fail "standings: no structure line in $(cat "$TMP/out")"; fi

# ---- the pairings of each round, from the file as it stood before it -------------------
for r in 1 2 3 4 5 6 7 8 9; do
    jq --argjson r "$r" '.rounds |= map(select(.round < $r)) | .judge_results |= map(select(.round < $r))' \
        "$TF" >"$TMP/before.json"
    mapfile -t before < <(logs_before "$r")
    ask '.pairings' pair --file "$TMP/before.json" --round "$r" --json "${before[@]}"
    jq --arg r "$r" '.pairings[$r] | map(del(.intentional_draw))' "$EX" >"$TMP/want"
    same "pairings of round $r"
done

# in words: a bracket round draws nothing, so no seed is printed for it
jq '.rounds |= map(select(.round < 8))' "$TF" >"$TMP/before.json"
mapfile -t before < <(logs_before 8)
"${T[@]}" pair --file "$TMP/before.json" --round 8 "${before[@]}" >"$TMP/out" 2>/dev/null
want=$(jq -r --slurpfile f "$TF" '($f[0].players | map({(.id): .name}) | add) as $n | .pairings["8"][]
    | "game \(.game)  table \(.table)   \($n[.p1]) (\(.p1))  vs  \($n[.p2]) (\(.p2))"' "$EX")
if [ "$(grep '^game ' "$TMP/out")" = "$want" ] && ! grep -q '^seed of' "$TMP/out"
then pass "pair --round 8 in words: the games, no seed"
else fail "pair --round 8 in words: want
$want
got
$(cat "$TMP/out")"; fi

# the byes (T32) went to three different players, and the round-1 table count is 32
jq '[.rounds[] | .pairings[] | select(.bye) | .bye] | (length == 3 and (unique | length) == 3)' "$TF" >"$TMP/got"
echo true >"$TMP/want"
same "three byes, three players"

# ---- the cut (T33) and the bracket --------------------------------------------------------
leaver=$(jq -r '.drops[] | select(.after_round == 6) | .player' "$TF")
jq '[.pairings["7"][] | .p1, .p2]' "$EX" >"$TMP/got"
jq '.cut | [.[0], .[7], .[1], .[6], .[2], .[5], .[3], .[4]]' "$EX" >"$TMP/want"
same "round 7 pairs the cut's seeds 1-8, 2-7, 3-6, 4-5"
if jq -e --arg p "$leaver" '.cut | index($p) == null' "$EX" >/dev/null &&
   jq -e --arg p "$leaver" '.standings["6"][:8] | map(.player) | index($p) != null' "$EX" >/dev/null
then pass "$leaver, 3rd after the Swiss rounds, dropped and is not in the cut"
else fail "$leaver should be in the top 8 of round 6 and out of the cut"; fi
jq -c '.standings["6"][8].player' "$EX" >"$TMP/want"
jq -c '.cut[7]' "$EX" >"$TMP/got"
same "the 9th after the Swiss rounds takes the last seed"

# ---- the final standings (T38) --------------------------------------------------------------
ask '[.standings[] | {place, player}]' standings --file "$TF" --final --json "${LOGS[@]}"
jq '.final' "$EX" >"$TMP/want"
same "final standings"

# ---- the alarms ----------------------------------------------------------------------------
ask '[.alarms[] | {alarm, round, table, match, players, resolved}] | sort_by(.round)' \
    alarms --file "$TF" --json "${LOGS[@]}"
if [ "$rc" -eq 1 ]; then pass "alarms: exit 1, one open"; else fail "alarms: want exit 1, got $rc: $(cat "$TMP/err")"; fi
jq '[.alarms[] | del(.text)]' "$EX" >"$TMP/want"
same "alarms: the illegal record (resolved) and the wrong report, nothing else"
jq -r '.alarms[] | select(.alarm == "report_differs") | .text' "$TMP/out" >"$TMP/got.t"
rep=$(jq -r '.alarms[] | select(.alarm == "report_differs") | .text' "$EX")
if [ "$(cat "$TMP/got.t")" = "$rep" ]; then pass "alarms: the wrong report says both results: $rep"
else fail "alarms: want '$rep', got '$(cat "$TMP/got.t")'"; fi

# ---- the same from a daemon's store --------------------------------------------------------
if [ -x "$ARBITERD" ]; then
    daemon_start || fail "arbiterd starts"
    "$ARBITER" send --endpoint "$EP_IN" --tables 8 --quiet "${LOGS[@]}" >/dev/null 2>&1
    daemon_stop || fail "arbiterd stops cleanly"
    ask '[.standings[] | {place, player}]' standings --file "$TF" --final --json --db "$STORE"
    jq '.final' "$EX" >"$TMP/want"
    same "--db: the final standings from the stored records"
    ask "$ROW" standings --file "$TF" --after 6 --json --db "$STORE"
    jq '.standings["6"]' "$EX" >"$TMP/want"
    same "--db: the standings after round 6 from the stored records"
    daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log has errors"
else
    echo "SKIP --db: no arbiterd at $ARBITERD"
fi

finish
