/* advanced.h -- the Advanced rules engine.
 *
 * The engine replays one Advanced match (../shared/rulebooks/advanced.md,
 * with the rulings of verifiers/advanced/RULINGS.md) one open-log event at
 * a time: duel_apply(state, event) -> verdict.  Pure: no I/O, no clock,
 * no globals.  Its events are logformat/SPEC.md 7.2.
 *
 * Advanced is a duel (verifiers/duel.h): what it shares with Master -- Life
 * Points, the Monster Zone, positions, summons, evolution, Prime cards,
 * chains of Counters, the End Phase -- is duel.c, which also draws the turn
 * as a state machine and lists the invariants.  This engine owns only what
 * is Advanced's own (advanced.c): its levers, the fixed opening hands of 5
 * and 6, Player 1's first turn without a selection, ATK, and combat by the
 * Combat Resolution table (AP vs AP, AP vs DP, direct attacks).
 *
 *   SELECT --> MAIN --> POSITION --> EVOLVE --> ATTACK --> END --(end)--> next turn
 *                       (summons, Spells and Prime Singulars in MAIN)
 */
#ifndef ARBITER_ADVANCED_H
#define ARBITER_ADVANCED_H

#include "verifiers/duel.h"

#define ADVANCED_ENGINE "advanced/1"

typedef duel_state advanced_state;

/* Start a match from its header (deck construction: advanced:deck.*);
 * then duel_apply(), duel_silence(), duel_board_json() and the rest of
 * duel.h judge and draw it.  `db` must outlive the state. */
int advanced_start(advanced_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);

/* The members Advanced gives a card (cardfields.c in this folder). */
extern const card_schema advanced_cards;

#endif
