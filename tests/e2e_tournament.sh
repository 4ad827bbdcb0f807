# e2e_tournament.sh -- `arbiter tournament` end to end: a small Advanced
# tournament built here from legal fixture games, judged from log files and
# from a daemon's store, with its standings, next pairing and alarms checked
# exactly in text, JSON and CSV, and the exit codes.
#
# The tournament and its records are tests/tournament_fixture.sh's: six
# players, three Swiss rounds, two of them played; that file says what
# each game gives and the MOV each player ends with.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"

command -v jq >/dev/null || { echo "SKIP e2e_tournament: jq is needed"; exit 77; }

. "$(dirname "$0")/tournament_fixture.sh"
T=("$ARBITER" tournament)

# run ARGS... : sets $out (stdout), $err (stderr) and $rc.
run() {
    rc=0
    out=$("${T[@]}" "$@" 2>"$TMP/stderr") || rc=$?
    err=$(cat "$TMP/stderr")
}

expect_rc() {
    if [ "$rc" -eq "$1" ]; then pass "$2 (exit $rc)"; else fail "$2: want exit $1, got $rc: $err $out"; fi
}

# same WANT NAME: $out is exactly WANT.
same() {
    if [ "$out" = "$1" ]; then pass "$2"; else fail "$2: want
$1
got
$out
stderr: $err"; fi
}

# has TEXT NAME: $out holds the line TEXT.
has() {
    if printf '%s\n' "$out" | grep -qxF -- "$1"; then pass "$2"; else fail "$2: no line '$1' in
$out"; fi
}

# ---- standings -------------------------------------------------------------------
run standings --file "$TF" "${LOGS[@]}"
expect_rc 0 "standings"
same "E2E Cup (e2e-cup), advanced: standings after round 2
place  player         points  W-D-L        MOV     SoS
    1  Cat Roy (cat)       6  2-0-0      22000   1.500
    2  Eve Ash (eve)       6  2-0-0      21800   0.000
    3  Dan Wu (dan)        3  1-0-1      12900   1.500
    4  Ben Ode (ben)       3  1-0-1      12400   1.500
    5  Ann Lee (ann)       0  0-0-2       2300   2.250
    6  Fay Orr (fay)       0  0-0-2        600   2.250
head judge's results:
  round 1 table 3: Hana Judge: Fay attacked herself; Eve wins.
seed of standings 2: e2e-seed-1" "standings: places, points, W-D-L, MOV (T6), SoS (T26), the judge's result"
case "$err" in *"7 open alarms: see arbiter tournament alarms"*) pass "standings: open alarms named on stderr" ;;
    *) fail "standings: stderr should name the open alarms: $err" ;; esac

run standings --file "$TF" --after 2 --json "${LOGS[@]}"
expect_rc 0 "standings --json"
out=$(printf '%s' "$out" | jq -r '[.after_round, .provisional] + [.standings[] | "\(.place) \(.player) \(.event_points) \(.wins)-\(.draws)-\(.losses) \(.mov) \(.sos_exact)"] | join(",")')
same "2,false,1 cat 6 2-0-0 22000 3/2,2 eve 6 2-0-0 21800 0/1,3 dan 3 1-0-1 12900 3/2,4 ben 3 1-0-1 12400 3/2,5 ann 0 0-0-2 2300 9/4,6 fay 0 0-0-2 600 9/4" \
    "standings --json: the module's JSON, the same standings"

run standings --file "$TF" --csv "${LOGS[@]}"
expect_rc 0 "standings --csv"
case "$out" in *$'\r'*) pass "standings --csv: CRLF line ends" ;; *) fail "standings --csv: no CRLF" ;; esac
out=$(printf '%s' "$out" | tr -d '\r')
same "place,player,name,event_points,wins,draws,losses,byes,rounds,mov,sos,dropped,eliminated_in
1,cat,Cat Roy,6,2,0,0,0,2,22000,1.500,false,0
2,eve,Eve Ash,6,2,0,0,0,2,21800,0.000,false,0
3,dan,Dan Wu,3,1,0,1,0,2,12900,1.500,false,0
4,ben,Ben Ode,3,1,0,1,0,2,12400,1.500,false,0
5,ann,Ann Lee,0,0,0,2,0,2,2300,2.250,false,0
6,fay,Fay Orr,0,0,0,2,0,2,600,2.250,false,0" "standings --csv: the module's CSV"

run standings --file "$TF" --after 1 "${LOGS[@]}"
expect_rc 0 "standings --after 1"
has "    1  Eve Ash (eve)       3  1-0-0      12000   0.000" "after round 1: the judge's win scores the base to 0 (T19)"
has "    2  Ben Ode (ben)       3  1-0-0      11900   0.000" "after round 1: ben's concession win"

# ---- time (T11-T13): round 2 with time called, dan-fay's record cut short --------------
# Cut after Player 2's end of a game round (seq 29: dan 6000 LP, fay 5500) it
# gets a time result from the scores, 500 to 0 (T13): dan 1500 + 6500 = 8000,
# fay 5500.  Cut inside a game round (seq 26) it gets none (T12 case 3).
jq '.rounds[1].time_called = 1767264300000' "$TF" >"$TMP/timed.json"
mkdir -p "$TMP/cut"
head -n 30 "$D/r2-t2.jsonl" >"$TMP/cut/r2-t2.jsonl"
run standings --file "$TMP/timed.json" "$D"/r1-*.jsonl "$D"/r2-t1.jsonl "$D"/r2-t3.jsonl "$TMP/cut/r2-t2.jsonl"
has "    4  Dan Wu (dan)        3  1-0-1       8000   1.500" "time: a record ending a game round gets a time result"
has "    5  Fay Orr (fay)       0  0-0-2       5500   2.250" "time: the loser's MOV from the scores at the end"
head -n 27 "$D/r2-t2.jsonl" >"$TMP/cut/r2-t2.jsonl"
run alarms --file "$TMP/timed.json" "$D"/r1-*.jsonl "$D"/r2-t1.jsonl "$D"/r2-t3.jsonl "$TMP/cut/r2-t2.jsonl"
has "round 2  table 2  time_round_incomplete (T12)  match r2-t2  dan, fay: Record r2-t2: the record stops inside a game round after time was called; the head judge rules." \
    "time: a record stopping inside a game round raises time_round_incomplete"

# ---- pairing of round 3 (T30, T31: each group pairs within itself, no rematch) -----
run pair --file "$TF" --round 3 "${LOGS[@]}"
expect_rc 0 "pair --round 3"
same "E2E Cup (e2e-cup): round 3 pairings (swiss)
table 1   Cat Roy (cat)  vs  Eve Ash (eve)
table 2   Ben Ode (ben)  vs  Dan Wu (dan)
table 3   Fay Orr (fay)  vs  Ann Lee (ann)
seed of pair 3: e2e-seed-1" "pair: round 3 by table"

run pair --file "$TF" --round 3 --json "${LOGS[@]}"
expect_rc 0 "pair --json"
out=$(printf '%s' "$out" | jq -c '[.round, .stage, .rematches, .pairings]')
same '[3,"swiss",0,[{"table":"1","p1":"cat","p2":"eve"},{"table":"2","p1":"ben","p2":"dan"},{"table":"3","p1":"fay","p2":"ann"}]]' \
    "pair --json: in the file's own shape"

run pair --file "$TF" --round 3 --csv "${LOGS[@]}"
expect_rc 0 "pair --csv"
out=$(printf '%s' "$out" | tr -d '\r')
same "round,table,game,p1,p2
3,1,,cat,eve
3,2,,ben,dan
3,3,,fay,ann" "pair --csv"

# a result round 3 needs is missing: dan-fay's record is not given (T16: unrecorded)
run pair --file "$TF" --round 3 "$D"/r1-t1.jsonl "$D"/r1-t2.jsonl "$D"/r1-t3.jsonl "$D"/r2-t1.jsonl "$D"/r2-t3.jsonl
expect_rc 1 "pair: a result it needs is pending"
case "$err" in *"round 2"*|*"table 2"*|*dan*) pass "pair: the pending game is named" ;;
    *) fail "pair: stderr should name the pending game: $err" ;; esac
run pair --file "$TF" --round 5 "${LOGS[@]}"
expect_rc 2 "pair: a round that is not the next one"

# a seventh player with a bye in each round (T21: 3 points, MOV 2 x base; T25: a
# win) and a second bye raising bye_twice (T32); round 3 has an odd count: a bye
jq '.players += [{"id": "gus", "name": "Gus Pim"}] | .rounds[0].pairings += [{"bye": "gus"}]
    | .rounds[1].pairings += [{"bye": "gus"}]' "$TF" >"$TMP/byes.json"
run standings --file "$TMP/byes.json" "${LOGS[@]}"
has "    1  Gus Pim (gus)       6  2-0-0      24000   0.000  2 byes" "byes: points, wins, MOV, said so"
run pair --file "$TMP/byes.json" --round 3 "${LOGS[@]}"
has "bye       Ann Lee (ann)" "byes: round 3's bye goes to the lowest player without one (T32)"
run alarms --file "$TMP/byes.json" "${LOGS[@]}"
has "round 2  table -  bye_twice (T32)  gus, ann: gus has a second bye in round 2 while ann, of the same or a lower group, had none." \
    "byes: bye_twice, naming both players"

# ---- alarms ------------------------------------------------------------------------
run alarms --file "$TF" "${LOGS[@]}"
expect_rc 1 "alarms: open alarms"
has "round 3  table 9  unpaired_game (T2)  match r3-x  ann, ben: Record r3-x is of ann and ben, who were not paired with each other in round 3." \
    "alarms: the game played before it was paired"
has "round 1  table 3  illegal_record (T17)  match r1-t3  eve, fay: Record r1-t3: #14 advanced:attack.direct: p1 (eve)'s Ember Whelp attacked p1 directly, but a player attacks only the opponent.; the head judge rules.  [resolved]" \
    "alarms: the illegal record, its first illegal verdict, resolved by the judge's result"
has "E2E Cup (e2e-cup): 8 alarms, 7 open" "alarms: the count"
n=$(printf '%s\n' "$out" | grep -c ' deck_changed (T42) ')
if [ "$n" -eq 6 ]; then pass "alarms: six deck_changed"; else fail "alarms: want 6 deck_changed, got $n"; fi

run alarms --file "$TF" --json "${LOGS[@]}"
expect_rc 1 "alarms --json"
out=$(printf '%s' "$out" | jq -c '[.alarms[] | select(.alarm != "deck_changed") | [.alarm, .ruling, .round, .table, .match, .players, .resolved]]')
same '[["unpaired_game","T2",3,"9","r3-x",["ann","ben"],false],["illegal_record","T17",1,"3","r1-t3",["eve","fay"],true]]' \
    "alarms --json"

run alarms --file "$TF" --csv "${LOGS[@]}"
expect_rc 1 "alarms --csv"
out=$(printf '%s' "$out" | tr -d '\r' | grep -v '^deck_changed,')
same 'alarm,ruling,round,table,match,p1,p2,text,resolved
unpaired_game,T2,3,9,r3-x,ann,ben,"Record r3-x is of ann and ben, who were not paired with each other in round 3.",false
illegal_record,T17,1,3,r1-t3,eve,fay,"Record r1-t3: #14 advanced:attack.direct: p1 (eve)'"'"'s Ember Whelp attacked p1 directly, but a player attacks only the opponent.; the head judge rules.",true' \
    "alarms --csv"

# a tournament with nothing wrong: exit 0; no seed in the file: arbiter makes one (T27)
TF2="$TMP/small.json"
cat >"$TF2" <<'EOF'
{"version": 1, "id": "e2e-cup", "name": "Small", "format": "advanced", "structure": {"swiss_rounds": 2, "cut": 0},
 "players": [{"id": "ann", "name": "Ann Lee"}, {"id": "ben", "name": "Ben Ode"}],
 "rounds": [{"round": 1, "closed": true, "pairings": [{"table": "1", "p1": "ben", "p2": "ann"}]}]}
EOF
run alarms --file "$TF2" "$D"/r1-t1.jsonl
expect_rc 0 "alarms: none"
same "Small (e2e-cup): 0 alarms, 0 open" "alarms: none, said so"
run standings --file "$TF2" "$D"/r1-t1.jsonl
expect_rc 0 "standings: a file without a seed"
case "$err" in *"arbiter made"*) pass "standings: the made seed is a warning (T27)" ;;
    *) fail "standings: want a warning about the made seed: $err" ;; esac
run standings --file "$TF2" --seed fixed-seed "$D"/r1-t1.jsonl
has "seed of standings 1: fixed-seed" "standings --seed: the seed used is printed"

# ---- statistics (T46) ------------------------------------------------------------------
# Counted by hand from the fixture logs (tests/tournament_fixture.sh):
# - events: the lines of each log (header included): r1-t1 43, r1-t2 51,
#   r1-t3 61, r2-t1 59, r2-t2 101, r2-t3 98 (Advanced), r3-x 33 (Snap).  All
#   seven games are finished, none at time.  Advanced: min 43, max 101, mean
#   413 / 6 = 68.8.
# - game rounds: Player 2's `end` events before the last event, plus one
#   (T11): 3+1, 6+1, 5+1, 5+1, 10+1, 10+1 = 4, 7, 6, 6, 11, 11 (mean 45 / 6
#   = 7.5); the Snap game 4+1 = 5.
# - rules broken: r1-t3's one illegal verdict, advanced:attack.direct (#14).
# - the Snap game r3-x, in the public view: ann (p1) shows cor-forge-golem
#   (promote), cor-magma-tortoise, cor-ash-sprite, flx-current-eel,
#   flx-frost-skimmer (flips) and cor-heat-haze (unlock): coreon 4, fluxion
#   2; ben shows obs-crypt-rat (promote), obs-grave-bat, obs-wraith-sentry,
#   aet-cloud-monk, aet-aether-kite (flips), obs-curse-of-silence (unlock):
#   obscura 4, aetherion 2.  Twelve cards, each once, in one game each; it
#   is an unpaired game (T2), so none has a result: win rate null.  What
#   stayed in a hand or face down in the Locked Supports (cor-kindle-fury,
#   obs-night-terror, obs-eclipse-ritual, obs-death-grip: selected or locked,
#   never unlocked, in no other game either) is never named.
# - progress of round 2 (the last published): tables 1 and 2 have open
#   deck_changed alarms; table 3 (eve-ann) is finished.
run stats --file "$TF" --json "${LOGS[@]}"
expect_rc 0 "stats --json"
out=$(printf '%s' "$out" | jq -c '{version, view, round, decklists_shown, decklists,
    scopes: [.scopes[] | {format, round, records, rules, finished: .length.finished, at_time: .length.at_time.games}],
    snap: [.scopes[] | select(.format == "snap" and .round == null) | .cards[] | [.card, .class, .games, .appearances, .win_rate]],
    snap_classes: [.scopes[] | select(.format == "snap" and .round == null) | .classes[] | [.class, .games, .appearances]],
    progress: (.progress | [.round, (.pairings[] | [.table, .p1, .p2, .state, .game_round, .match, .alarms])])}')
same '{"version":1,"view":"public","round":null,"decklists_shown":false,"decklists":null,"scopes":[{"format":"advanced","round":null,"records":6,"rules":[{"verdict":"illegal","rule":"advanced:attack.direct","count":1,"matches":["r1-t3"]}],"finished":{"games":6,"events_min":43,"events_max":101,"events_mean":68.8,"rounds_min":4,"rounds_max":11,"rounds_mean":7.5},"at_time":0},{"format":"advanced","round":1,"records":3,"rules":[{"verdict":"illegal","rule":"advanced:attack.direct","count":1,"matches":["r1-t3"]}],"finished":{"games":3,"events_min":43,"events_max":61,"events_mean":51.7,"rounds_min":4,"rounds_max":7,"rounds_mean":5.7},"at_time":0},{"format":"advanced","round":2,"records":3,"rules":[],"finished":{"games":3,"events_min":59,"events_max":101,"events_mean":86,"rounds_min":6,"rounds_max":11,"rounds_mean":9.3},"at_time":0},{"format":"snap","round":null,"records":1,"rules":[],"finished":{"games":1,"events_min":33,"events_max":33,"events_mean":33,"rounds_min":5,"rounds_max":5,"rounds_mean":5},"at_time":0},{"format":"snap","round":3,"records":1,"rules":[],"finished":{"games":1,"events_min":33,"events_max":33,"events_mean":33,"rounds_min":5,"rounds_max":5,"rounds_mean":5},"at_time":0}],"snap":[["aet-aether-kite","aetherion",1,1,null],["aet-cloud-monk","aetherion",1,1,null],["cor-ash-sprite","coreon",1,1,null],["cor-forge-golem","coreon",1,1,null],["cor-heat-haze","coreon",1,1,null],["cor-magma-tortoise","coreon",1,1,null],["flx-current-eel","fluxion",1,1,null],["flx-frost-skimmer","fluxion",1,1,null],["obs-crypt-rat","obscura",1,1,null],["obs-curse-of-silence","obscura",1,1,null],["obs-grave-bat","obscura",1,1,null],["obs-wraith-sentry","obscura",1,1,null]],"snap_classes":[["coreon",1,4],["fluxion",1,2],["synaphera",0,0],["obscura",1,4],["aetherion",1,2]],"progress":[2,["1","cat","ben","alarm",null,"r2-t1",["deck_changed"]],["2","dan","fay","alarm",null,"r2-t2",["deck_changed"]],["3","eve","ann","finished",null,"r2-t3",[]]]}' \
    "stats --json: lengths, rules, the Snap game's cards and classes, round 2's progress"
run stats --file "$TF" --json "${LOGS[@]}"
for hidden in cor-kindle-fury obs-night-terror obs-eclipse-ritual obs-death-grip; do
    case "$out" in *"\"$hidden\""*) fail "stats (public) names $hidden, which stayed hidden" ;;
        *) pass "stats (public) never names $hidden, which stayed hidden" ;; esac
done
run stats --file "$TF" --round 3 --csv classes "${LOGS[@]}"
expect_rc 0 "stats --csv classes"
same "$(printf 'format,round,class,games,appearances,wins,results,win_rate\r
advanced,3,coreon,0,0,0,0,\r
advanced,3,fluxion,0,0,0,0,\r
advanced,3,synaphera,0,0,0,0,\r
advanced,3,obscura,0,0,0,0,\r
advanced,3,aetherion,0,0,0,0,\r
snap,3,coreon,1,4,0,0,\r
snap,3,fluxion,1,2,0,0,\r
snap,3,synaphera,0,0,0,0,\r
snap,3,obscura,1,4,0,0,\r
snap,3,aetherion,1,2,0,0,\r')" "stats --round 3 --csv classes: the Snap game's classes, CRLF"
# decklists: only in the judge view (T46); the fixture logs carry them
run stats --file "$TF" --view judge --json "${LOGS[@]}"
n=$(printf '%s' "$out" | jq '[.decklists[] | select(.source == "played")] | length')
if [ "$n" = 14 ]; then pass "stats --view judge: the 14 decklists played"; else fail "stats --view judge: want 14 decklists, got $n"; fi
run stats --file "$TF" --csv decklists "${LOGS[@]}"
same "$(printf 'player,source,round,match,cards,coreon,fluxion,synaphera,obscura,aetherion,unknown\r')" \
    "stats --csv decklists (public): the header only"
run stats --file "$TF" --csv nothing "${LOGS[@]}"
expect_rc 2 "stats --csv with no such table"
run stats --file "$TF" --view p1 "${LOGS[@]}"
expect_rc 2 "stats --view is public or judge"

# every test TOURNAMENT.md names exists: `tournament_Tn_x` is Test(tournament, Tn_x)
# in test_tournament.c, or Test(SUITE, tournament_Tn_x) in another suite (T46's
# in test_tourstats.c, the engines' findings in test_snap*.c, test_advanced.c,
# test_master.c); and T46's line names every T46 test of test_tourstats.c
named=$(grep '^\*\*Test\.\*\*' "$top_srcdir/TOURNAMENT.md" | grep -o 'tournament_T[0-9]*_[a-z0-9_]*' | sort -u)
have=$( (grep -ho '^Test(tournament, T[0-9]*_[a-z0-9_]*' "$top_srcdir"/tests/test_tournament.c | sed 's/^Test(tournament, /tournament_/'
         grep -ho '^Test([a-z_]*, tournament_T[0-9]*_[a-z0-9_]*' "$top_srcdir"/tests/*.c | sed 's/^Test([a-z_]*, //') | sort -u)
missing=$(comm -23 <(printf '%s\n' "$named") <(printf '%s\n' "$have"))
if [ -n "$named" ] && [ -z "$missing" ]; then pass "TOURNAMENT.md: all $(printf '%s\n' "$named" | wc -l) tests named exist"
else fail "TOURNAMENT.md names tests that do not exist: $missing"; fi
names=$(sed -n '/^### T46\./,/^### T47\./p' "$top_srcdir/TOURNAMENT.md" | grep '^\*\*Test\.\*\*' |
        grep -o 'tournament_T46_[a-z0-9_]*' | sort -u)
suite=$(grep -o '^Test(tourstats, tournament_T46_[a-z0-9_]*' "$top_srcdir/tests/test_tourstats.c" |
        sed 's/^Test(tourstats, //' | sort -u)
if [ -n "$names" ] && [ "$names" = "$suite" ]; then pass "TOURNAMENT.md T46 names the suite's tests"
else fail "TOURNAMENT.md T46 names: $names -- tests/test_tourstats.c has: $suite"; fi

# ---- usage and input errors ----------------------------------------------------------
run standings "${LOGS[@]}"
expect_rc 2 "no --file"
run pair --file "$TF" "${LOGS[@]}"
expect_rc 2 "pair without --round"
run shuffle --file "$TF"
expect_rc 2 "an unknown tournament command"
run standings --file "$TF" --json --csv "${LOGS[@]}"
expect_rc 2 "--json and --csv"
run standings --file "$TMP/missing.json" "${LOGS[@]}"
expect_rc 2 "a missing tournament file"
jq '. + {"squad_points": 12}' "$TF" >"$TMP/bad.json"
run standings --file "$TMP/bad.json" "${LOGS[@]}"
expect_rc 2 "a refused tournament file (T47)"
case "$err" in *squad_points*) pass "the refusal names the key" ;; *) fail "the refusal should name squad_points: $err" ;; esac
run standings --file "$TF" --db "$TMP/no-store"
expect_rc 2 "a store that does not exist"
run --help
expect_rc 0 "--help"
run alarms --file "$TF" "${LOGS[@]}" "$TMP/missing.jsonl"
expect_rc 1 "a log that cannot be read is no usage error"
case "$err" in *"missing.jsonl: "*"no record of any tournament"*) pass "a log that cannot be read is named on stderr" ;;
    *) fail "the unreadable log should be named on stderr: $err" ;; esac

# ---- the same records from a daemon's store (--db) -------------------------------------
if [ -x "$ARBITERD" ]; then
    daemon_start || fail "arbiterd starts"
    "$ARBITER" send --endpoint "$EP_IN" --quiet "${LOGS[@]}" >/dev/null 2>&1
    daemon_stop || fail "arbiterd stops cleanly"
    for sub in "standings" "standings --json" "pair --round 3" "pair --round 3 --csv" "alarms" "alarms --json" \
               "stats --json" "stats --view judge --csv decklists" "stats --csv cards"; do
        # shellcheck disable=SC2086
        run $sub --file "$TF" "${LOGS[@]}"
        want=$out want_rc=$rc
        # shellcheck disable=SC2086
        run $sub --file "$TF" --db "$STORE"
        if [ "$out" = "$want" ] && [ "$rc" -eq "$want_rc" ]; then pass "--db: $sub as from the logs"
        else fail "--db: $sub differs from the logs: $out -- want $want"; fi
    done

    # the query op `standings`: the same records, judged again by the daemon
    run standings --file "$TF" --json --db "$STORE"
    want_json=$out
    daemon_start --tournament "$TF" || fail "arbiterd starts with --tournament"
    q() { qrc=0; qout=$("$ARBITER" query --endpoint "$EP_Q" "$1" 2>&1) || qrc=$?; }
    q '{"op":"standings","tournament":"e2e-cup"}'
    # the standings come last in the reply: cut them out as sent, byte for byte
    got_json=${qout#*,\"standings\":}
    got_json=${got_json%\}}
    if [ "$qrc" -eq 0 ] && [ "$got_json" = "$want_json" ]; then pass "query standings: the JSON of tournament standings --json --db"
    else fail "query standings differ (exit $qrc): $qout -- want $want_json"; fi
    case "$qout" in '{"ok":true,"tournament":"e2e-cup","after":2,"final":false,"provisional":'*",\"records\":${#LOGS[@]},"*) pass "query standings: after round 2, every record" ;;
        *) fail "query standings: the reply's head: $qout" ;; esac
    q '{"op":"standings","tournament":"e2e-cup","after":1}'
    run standings --file "$TF" --json --after 1 --db "$STORE"
    got_json=${qout#*,\"standings\":}
    got_json=${got_json%\}}
    [ "$qrc" -eq 0 ] && [ "$got_json" = "$out" ] && pass "query standings after 1: as the command's --after 1" ||
        fail "query standings after 1 differ: $qout -- want $out"
    q '{"op":"standings","tournament":"no-such-cup"}'
    case "$qrc $qout" in "1 "*'"ok":false'*'No tournament \"no-such-cup\"'*) pass "query standings: an unknown tournament is refused" ;;
        *) fail "query standings: an unknown tournament: exit $qrc $qout" ;; esac
    q '{"op":"standings"}'
    case "$qrc $qout" in "1 "*'"ok":false'*'needs \"tournament\"'*) pass "query standings: no tournament field is refused" ;;
        *) fail "query standings: no tournament field: exit $qrc $qout" ;; esac
    q '{"op":"standings","tournament":"e2e-cup","after":0}'
    [ "$qrc" -eq 1 ] && pass "query standings: after 0 is refused" || fail "query standings after 0: exit $qrc $qout"
    # SIGHUP: a file that is now refused is logged, the one loaded before kept
    cp "$TF" "$TMP/cup-live.json"
    daemon_stop || fail "arbiterd stops cleanly"
    daemon_start --tournament "$TMP/cup-live.json" || fail "arbiterd starts with a copy of the file"
    echo '{"broken": ' >"$TMP/cup-live.json"
    kill -HUP "$DPID"
    for _ in $(seq 1 50); do grep -q "cup-live.json" "$TMP/arbiterd.log" && break; sleep 0.1; done
    q '{"op":"standings","tournament":"e2e-cup"}'
    got_json=${qout#*,\"standings\":}
    got_json=${got_json%\}}
    [ "$qrc" -eq 0 ] && [ "$got_json" = "$want_json" ] && pass "SIGHUP: a refused tournament file keeps the old one" ||
        fail "SIGHUP with a refused file: exit $qrc $qout"
    grep -q "tournament file $TMP/cup-live.json" "$TMP/arbiterd.log" && pass "SIGHUP: the refused file is logged" ||
        fail "SIGHUP: the refused file should be logged: $(cat "$TMP/arbiterd.log")"
    daemon_stop || fail "arbiterd stops cleanly"
    # the refusal of the SIGHUP above is an error line of its own: the rest must be clean
    grep -v "cup-live.json\|a tournament file was refused" "$TMP/arbiterd.log" >"$TMP/arbiterd.rest" || true
    mv "$TMP/arbiterd.rest" "$TMP/arbiterd.log"
    "$ARBITERD" --tournament "$TMP/missing-cup.json" --db "$TMP/store2" --ingest "ipc://$TMP/i2" --feed "ipc://$TMP/f2" \
        --query "ipc://$TMP/q2" --log-level error 2>"$TMP/start.err" && rc=0 || rc=$?
    [ "$rc" -eq 2 ] && grep -q "missing-cup.json" "$TMP/start.err" && pass "a tournament file that cannot be read stops the start (exit 2)" ||
        fail "a missing --tournament file: exit $rc $(cat "$TMP/start.err")"

    # The standings are computed by a worker thread, never on the loop: with
    # a computation slowed down on purpose (a test-only knob, 400 ms before
    # each record), a table streams a game meanwhile, and 17 clients ask at
    # once; then the cache, a SIGHUP and a SIGTERM in the middle of one.
    PY=/usr/bin/python3
    if "$PY" -c 'import zmq' 2>/dev/null; then
        SC=("$PY" "$top_srcdir/tests/standings_client.py")
        ARBITERD_TEST_STANDINGS_DELAY_MS=400 daemon_start --tournament "$TF" || fail "arbiterd starts, slowed down"
        for check in stall busy cache reload; do
            out=$("${SC[@]}" "$check" "$EP_Q" "$EP_IN" e2e-cup "$top_srcdir/fixtures/snap/legal-open-concede.jsonl" \
                "$DPID" 2>&1) && rc=0 || rc=$?
            while IFS= read -r line; do
                case "$line" in "PASS: "*) pass "standings worker, $check: ${line#PASS: }" ;;
                    "FAIL: "*) fail "standings worker, $check: ${line#FAIL: }" ;; esac
            done <<<"$out"
            [ "$rc" -eq 0 ] || fail "standings_client.py $check: exit $rc: $out"
        done
        "$PY" - "$EP_Q" <<'PYEOF' &
import json, sys, zmq
s = zmq.Context().socket(zmq.DEALER)
s.connect(sys.argv[1])
s.send(json.dumps({"op": "standings", "tournament": "e2e-cup", "after": 1}).encode())
s.poll(10000)
PYEOF
        asker=$!
        sleep 1   # the computation is under way (400 ms a record)
        t0=$(date +%s%N)
        daemon_stop && pass "SIGTERM while the standings are computed: exit 0" || fail "SIGTERM during standings: not exit 0"
        ms=$((($(date +%s%N) - t0) / 1000000))
        [ "$ms" -lt 2000 ] && pass "SIGTERM: the worker stops at its next record (${ms} ms)" ||
            fail "SIGTERM took ${ms} ms: the worker did not stop"
        kill "$asker" 2>/dev/null; wait "$asker" 2>/dev/null
        "$ARBITER" audit fx-legal-open-concede --db "$STORE" >/dev/null 2>&1 &&
            pass "the game streamed beside the standings is stored whole (audit)" ||
            fail "the streamed game does not audit: $("$ARBITER" audit fx-legal-open-concede --db "$STORE" 2>&1 | tail -3)"
    else
        echo "SKIP the standings worker checks: $PY cannot import zmq"
    fi
    daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log has errors"
else
    echo "SKIP --db: no arbiterd at $ARBITERD"
fi

finish
