#!/usr/bin/env bash
# fixtures/advanced: every legal game verifies legal and finished; every
# illegal log is flagged at exactly its seq with exactly its status and rule,
# and every other event of it verifies (an illegal action changes nothing).
# Both encodings: each log is also converted to .mlog and verified again.
# And the hidden mode changes what can be checked, never what is legal: each
# open-mode legal game, announced instead, gets the same verdicts.  A game
# that plays with a lever which allows more than the default (Life Points,
# hand limit, selection rate) is judged otherwise without it; monster_zones
# and chain_cap only forbid, and their proofs are the illegal logs that break
# them (field_limit-sixth-zone-of-5, chain_cap-second-counter).  Every rule id
# the engine can cite has an illegal log.  The checks: duel_fixtures.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/duel_fixtures.sh"
duel_fixtures advanced "monster_zones chain_cap"
finish
