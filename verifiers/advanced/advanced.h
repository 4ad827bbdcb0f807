/* advanced.h -- the Advanced rules engine: a match as a state machine.
 *
 * The engine replays one Advanced match (../shared/rulebooks/advanced.md,
 * with the rulings of verifiers/advanced/RULINGS.md) one open-log event at
 * a time: advanced_apply(state, event) -> verdict.  Pure: no I/O, no clock,
 * no globals.  What the open log owns -- hidden cards, the end of the game,
 * the shot clock, claims -- is verifiers/openlog.c; this engine owns only
 * the Advanced rules.  Its events are logformat/SPEC.md 7.2.
 *
 * THE TURN AS A STATE MACHINE
 *
 *   header --advanced_start--> SETUP --(p1 selects 5, p2 selects 6)-->
 *   Player 1's first turn, which begins in MAIN (select.first_turn)
 *
 *   each turn moves forward through the steps of advanced.md's Turn
 *   Structure; a step may be skipped, never revisited (turn.order):
 *
 *     SELECT --> MAIN --> POSITION --> EVOLVE --> ATTACK --> END --(end)--> next turn
 *     do_select  do_summon do_position do_evolve  do_attack  do_discard do_end
 *                do_spell                                            begin_turn
 *                do_prime
 *
 *   SELECT is owed at the start of every turn but Player 1's first: the
 *   active player's first action is `select` (selection_rate cards, fewer
 *   only when the deck holds fewer), unless draw prevention is in force
 *   (select.prevented) or the deck is empty (win.no_deck_out).
 *
 *   Windows (RULINGS A2, A7), judged in close_window():
 *     after a spell:    SPELL  -- only the opponent answers (counter.timing)
 *     after an attack:  ATTACK -- both players answer (window.attack)
 *     a counter in the opponent's turn with no window open: COUNTER
 *   A window closes by silence -- the next event that is not a counter or
 *   a pass -- or when each player who may answer has passed since the last
 *   counter; its chain resolves last-in first-out (chain.lifo), then an
 *   attack's damage (resolve_combat).
 *
 *   game over (win.lp_zero, a concession, a game loss): every event but
 *   `judge` and `claim` is illegal (win.immediate).
 *
 * INVARIANTS (advanced_check_invariants)
 *   - 0 <= lp; lp == 0 for a player only when the game is over.
 *   - A Monster Zone slot holds at most one monster (a stack of up to 3).
 *   - Monsters on the field <= the monster_zones lever.
 *   - counters per player on the chain <= chain_cap.
 *   - An illegal event changes nothing but the window its arrival closed
 *     (A7): advanced_apply closes it, then judges in place and puts back a
 *     copy taken after that when the verdict is not ok or warning.
 */
#ifndef ARBITER_ADVANCED_H
#define ARBITER_ADVANCED_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"

#define ADVANCED_ENGINE "advanced/1"
#define ADV_ZONES_MAX 7              /* the monster_zones lever's maximum   */
#define ADV_DECK_MAX 40
#define ADV_HAND_MAX 40
#define ADV_GRAVE_MAX 48
#define ADV_CHAIN_MAX 13             /* a spell and 6 counters a side        */

typedef enum {
    ADV_SETUP, ADV_SELECT, ADV_MAIN, ADV_POSITION, ADV_EVOLVE, ADV_ATTACK, ADV_END, ADV_OVER
} adv_step;

typedef enum { ADV_WIN_NONE, ADV_WIN_SPELL, ADV_WIN_ATTACK, ADV_WIN_COUNTER } adv_window;

typedef struct {
    uint8_t present;
    uint8_t pos;                      /* OL_POS_AP or OL_POS_DP          */
    const card *stack[3];             /* base first; all face-up (A1)    */
    uint8_t depth;
    int32_t atk_mod, def_mod;         /* until end of turn (end.effects) */
    uint8_t switched, attacked, evolved, prime_entered;   /* this turn   */
} adv_monster;

typedef struct {
    adv_monster zone[ADV_ZONES_MAX];
    openlog_card hand[ADV_HAND_MAX];
    uint8_t n_hand;
    const card *deck[ADV_DECK_MAX];   /* the decklist                    */
    uint8_t deck_used[ADV_DECK_MAX];  /* a copy known to have left it    */
    uint8_t n_deck, deck_left;        /* cards in the list, still in the deck */
    const card *grave[ADV_GRAVE_MAX];
    uint8_t n_grave;
    int32_t lp;
    uint8_t lost;                     /* monsters destroyed (A15)        */
    uint8_t opened;                   /* the opening selection is made   */
    uint8_t select_due;               /* an effect's selection (A11)     */
    uint8_t prevent, prevent_next;    /* draw prevention (A14)           */
} adv_side;

typedef chain_link adv_link;          /* verifiers/chain.h, shared */

typedef struct advanced_state {
    openlog_match ol;                 /* first: what the open log owns   */
    /* levers (advanced.md Balance Levers) */
    uint32_t starting_lp;
    uint8_t zones, hand_limit, selection_rate, chain_cap;

    adv_side side[2];
    uint32_t turns;                   /* turns begun (1..)               */
    uint8_t turn;                     /* the active player               */
    adv_step step;
    uint8_t setup_done, normal_summoned, evolved;
    char refused[32];                 /* the rule a refused header broke */

    adv_window window;
    uint8_t passed;                   /* bit p: p passed since the last counter */
    adv_link chain[ADV_CHAIN_MAX];
    uint8_t n_chain, chain_count[2];
    uint8_t attack_on, fizzled;
    int8_t attacker;                  /* the attacking monster's slot    */
    ol_ref attack_target;             /* a monster, or the player (direct) */
} advanced_state;

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

/* Test support: 0 when every invariant above holds, else its number. */
int advanced_check_invariants(const advanced_state *s);

#endif
