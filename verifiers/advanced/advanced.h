/* advanced.h -- the Advanced rules engine.
 *
 * The engine replays one Advanced match (../shared/rulebooks/advanced.md,
 * with the rulings of verifiers/advanced/RULINGS.md) one open-log event at
 * a time: advanced_apply(state, event) -> verdict.  Pure: no I/O, no clock,
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

/* Start a match from its header (deck construction: advanced:deck.*).
 * `db` must outlive the state. */
void advanced_start(advanced_state *s, const cards *db, const olevent *header, olverdict *v);

/* Judge one event; the state changes only when the verdict is ok or
 * warning. */
void advanced_apply(advanced_state *s, const olevent *ev, olverdict *v);

/* The log has ended: an open window closes and resolves (A7). */
void advanced_silence(advanced_state *s);

/* Cards in each player's hand whose identity was never checked. */
void advanced_unverifiable(const advanced_state *s, unsigned out[2]);

/* The board as JSON or words for a sight, and the canonical encoding of
 * the state (board.c).  Appended to t; 0, or -1 when t->bad. */
int advanced_board_json(const advanced_state *s, const openlog_sight *sight, jtext *t);
int advanced_board_words(const advanced_state *s, const openlog_sight *sight, jtext *t);
int advanced_encode(const advanced_state *s, jtext *t);

/* Test support: 0 when every invariant of duel.h holds, else its number. */
int advanced_check_invariants(const advanced_state *s);

#endif
