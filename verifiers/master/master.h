/* master.h -- the Master rules engine.
 *
 * The engine replays one Master match (../shared/rulebooks/master.md, with
 * the rulings of verifiers/master/RULINGS.md) one open-log event at a time:
 * duel_apply(state, event) -> verdict.  Pure: no I/O, no clock, no
 * globals.  Its events are logformat/SPEC.md 7.4.
 *
 * Master is a duel (verifiers/duel.h): what it shares with Advanced -- Life
 * Points, the Monster Zone, positions, summons, evolution, Prime cards,
 * chains of Counters, the End Phase -- is duel.c, which draws the turn as a
 * state machine and lists the invariants.  This engine owns what is
 * Master's own (master.c): the Mana Zone and what it pays for, the Mana
 * Step, Mana Summons, attacks chosen among a monster's four with their
 * costs and conditions, damage against DEF, and Ongoing Spells.
 *
 *   MANA --> SELECT --> MAIN --> SUMMON --> POSITION --> EVOLVE --> ATTACK --> END --(end)--> next turn
 *   do_mana              Spells   summons,                           attack,    (ready: every mana
 *                                 Prime Singulars                    fight       card again, M2)
 *
 * THE MANA ZONE (RULINGS M1-M3, M9, M10)
 *   a card from the hand --mana (Mana Step, or an effect's mana_add)--> ready
 *   ready --pay--> spent --the controller's next turn begins--> ready
 *   ready or spent --mana_remove (an effect obliges)--> the Graveyard (spent first)
 */
#ifndef ARBITER_MASTER_H
#define ARBITER_MASTER_H

#include "verifiers/duel.h"
#include "verifiers/rules.h"

#define MASTER_ENGINE "master/1"

typedef duel_state master_state;

/* Start a match from its header; then duel_apply(), duel_silence(),
 * duel_board_json() and the rest of duel.h judge and draw it.  `db` must
 * outlive the state. */
int master_start(master_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);

/* The members Master gives a card (cardfields.c in this folder). */
extern const card_schema master_cards;

/* Mana of class c the player has ready now (M2). */
unsigned master_ready(const master_state *s, int p, card_class c);

/* 1 when the monster at (p, slot) could declare its attack `index` now:
 * its turn's Attack Phase still to come or under way, the monster free to
 * attack, the condition met, the cost payable from ready mana. */
int master_attack_usable(const master_state *s, int p, int slot, int index);

/* The catalogue of every rule id the engine may cite (rules.c): for each
 * the decisive sentence of master.md or the ruling's answer, and a
 * summary; in rulebook order, the rulings last.  *n gets the count (n may
 * be NULL).  Static storage. */
const verifier_rule *master_rules(size_t *n);

#endif
