# tournament_fixture.sh -- the small Advanced tournament of the end-to-end
# tournament scripts (sourced after lib.sh, not run): tests/e2e_tournament.sh
# checks its outputs, tests/e2e_tournament_html.sh its page.
#
# Six players, three Swiss rounds, two of them played.  Each record is a
# fixture log rewritten with jq: a new match id, the header's `event`
# (tournament, round, table) and the players' ids.  What each game gives
# (TOURNAMENT.md T4-T6, base 6000; p1 is the first player named):
#   r1 t1 ann-ben  legal-open-concede-by-p1        ben wins; ann took 100 LP
#   r1 t2 cat-dan  legal-commit-prime-evolution-p1 cat wins; dan took 1500
#   r1 t3 eve-fay  an illegal record (illegal_record, T17); the head judge
#                  gives eve the win: scores 6000 to 0 (T19)
#   r2 t1 cat-ben  legal-announced-prime-singular  cat wins; ben took 500
#   r2 t2 dan-fay  legal-open-prime-singular       dan wins; fay took 600
#   r2 t3 eve-ann  legal-open-tie-and-direct-p1    eve wins; ann took 2200
#   r3 t9 ann-ben  a Snap game played before round 3 was paired: unpaired_game
# MOV (T6) = 6000 - the opponent's score + one's own:
#   cat 10500 + 11500 = 22000, eve 12000 + 9800 = 21800, dan 1500 + 11400 =
#   12900, ben 11900 + 500 = 12400, ann 100 + 2200 = 2300, fay 0 + 600 = 600.
# The fixtures' decklists differ from game to game, so every player who
# played two of them raises deck_changed (T42) too.
#
# Gives: mk (below), $F (fixtures/), $D (the logs), LOGS (the seven logs)
# and $TF (the tournament file, $TMP/cup.json).

F="$top_srcdir/fixtures"
D="$TMP/logs"
mkdir -p "$D"

# mk FIXTURE MATCH ROUND TABLE P1 P2: the fixture as a record of e2e-cup.
mk() {
    jq -c --arg m "$2" --argjson r "$3" --arg tb "$4" --arg a "$5" --arg b "$6" \
        'if .seq == 0 and .type == "match"
         then .match = $m | .event = {tournament: "e2e-cup", round: $r, table: $tb}
              | .players.p1.id = $a | .players.p2.id = $b
         else .match = $m end' "$F/$1" >"$D/$2.jsonl"
}
mk advanced/legal-open-concede-by-p1.jsonl r1-t1 1 1 ann ben
mk advanced/legal-commit-prime-evolution-p1-wins.jsonl r1-t2 1 2 cat dan
mk advanced/illegal-advanced_attack_direct-at-self.jsonl r1-t3 1 3 eve fay
mk advanced/legal-announced-prime-singular.jsonl r2-t1 2 1 cat ben
mk advanced/legal-open-prime-singular.jsonl r2-t2 2 2 dan fay
mk advanced/legal-open-tie-and-direct-p1-wins.jsonl r2-t3 2 3 eve ann
mk snap/legal-open-concede.jsonl r3-x 3 9 ann ben
LOGS=("$D"/r1-t1.jsonl "$D"/r1-t2.jsonl "$D"/r1-t3.jsonl "$D"/r2-t1.jsonl "$D"/r2-t2.jsonl "$D"/r2-t3.jsonl
      "$D"/r3-x.jsonl)

TF="$TMP/cup.json"
cat >"$TF" <<'EOT'
{"version": 1, "id": "e2e-cup", "name": "E2E Cup", "format": "advanced", "cards": "core@1.1.0",
 "seed": "e2e-seed-1", "structure": {"swiss_rounds": 3, "cut": 0},
 "players": [{"id": "ann", "name": "Ann Lee"}, {"id": "ben", "name": "Ben Ode"}, {"id": "cat", "name": "Cat Roy"},
             {"id": "dan", "name": "Dan Wu"}, {"id": "eve", "name": "Eve Ash"}, {"id": "fay", "name": "Fay Orr"}],
 "rounds": [
  {"round": 1, "closed": true, "pairings": [{"table": "1", "p1": "ann", "p2": "ben"},
     {"table": "2", "p1": "cat", "p2": "dan"}, {"table": "3", "p1": "eve", "p2": "fay"}]},
  {"round": 2, "closed": true, "pairings": [{"table": "1", "p1": "cat", "p2": "ben"},
     {"table": "2", "p1": "dan", "p2": "fay"}, {"table": "3", "p1": "eve", "p2": "ann"}]}],
 "judge_results": [{"round": 1, "table": "3", "result": "win", "winner": "eve", "judge": "Hana Judge",
                    "text": "Fay attacked herself; Eve wins."}]}
EOT
