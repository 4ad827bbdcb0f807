#!/usr/bin/env bash
# fixtures/master: every legal game verifies legal and finished; every illegal
# log is flagged at exactly its seq with exactly its status and rule, and
# every other event of it verifies (an illegal action changes nothing).  Both
# encodings: each log is also converted to .mlog and verified again.  The
# hidden mode changes what can be checked, never what is legal: each
# open-mode legal game, announced instead (mana hrefs null too), gets the
# same verdicts.  A game that plays with a lever (starting_lp, mana_rate,
# deck_size, hand_limit, p1_hand, p2_hand) is judged otherwise without it;
# chain_cap only forbids, and its proof is the illegal log that breaks it
# (chain_cap-second-counter).  Every rule id the engine can cite has an
# illegal log.  The checks: duel_fixtures.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/duel_fixtures.sh"
duel_fixtures master "chain_cap"
finish
