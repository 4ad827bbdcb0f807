/* snap.h -- the Snap rules engine: a match as a state machine.
 *
 * The engine replays one Snap match (../shared/rulebooks/snap.md with the
 * rulings of ../shared/design/snap-rulings.md and verifiers/snap/RULINGS.md)
 * one open-log event at a time: snap_apply(state, event) -> verdict.  It is
 * pure: no I/O, no clock, no globals; the only time it knows is events' `t`.
 *
 * THE TURN AS A STATE MACHINE
 *
 *   header --snap_start--> SETUP --(both bench + both select)--> promotions
 *   (A4: each player's active slot is empty, R4 forces a promotion)
 *
 *   each turn of the active player moves forward through the steps of
 *   snap.md 10 / 17; optional steps may be skipped, never revisited:
 *
 *     UNLOCK --> FLIP --> SPELL --> EVOLVE --> PRIME --> ATTACK --> SWAP --> LOCK --(end)-->
 *     10.2       10.3     10.5      10.6       10.7      10.8       10.9     10.10   10.11
 *     do_unlock  do_flip  do_spell  do_evolve  do_prime  do_attack  do_swap  do_lock do_end
 *
 *   An action of a step already passed cites that step's own section (the
 *   `steps` table: 6.2, 10.3, 10.6, 14.5, 10.9, 10.10; 10 for an attack),
 *   and so does one out of turn where it names the turn (6.2, 14.5; else 10.1).
 *   A2: an Evolution may also come in the ATTACK step between attacks (one
 *   has ended, Overdrive allows another); it ends the Attack Phase.
 *
 *   Across the steps, three kinds of interruption, checked in this order
 *   before any action (check_obligations):
 *     - a fired Trigger not yet announced (R11)         -> only `trigger`
 *     - an empty active slot with a Bench monster (R4)  -> only `promote`
 *     - an effect's pending selection (9.1)             -> only `select`
 *   and windows that close by silence (R6), judged in close_windows():
 *     BLOCKER (10.8.2) -> COUNTER (10.8.3) -> combat (resolve_combat)
 *     after a spell: COUNTER -> chain resolves LIFO (resolve_chain)
 *     after a trigger: RESONANCE (A3) -> the trigger resolves
 *   or by passes (A33, do_pass): in BLOCKER only the defender acts, and
 *   their block, Counter or pass opens COUNTER; COUNTER and RESONANCE close
 *   when every player who may answer has passed since the last Counter.
 *   An attack ends in end_attack(), after its combat or without one (a
 *   fizzle, A15): its modifiers end, and the Attack Phase with the last
 *   attack allowed (A32).
 *
 *   game over (3.1, R5, concession, A7 game loss): every event but `judge`
 *   (announced by the judge, openlog 3) and `claim` (A27) is illegal (3.4).
 *
 * INVARIANTS (checked by snap_check_invariants in tests)
 *   - A monster is in exactly one place: active, a bench slot, the waiting
 *     fifth (R1), the graveyard (counted), or not yet on the field.
 *   - An active monster is face-up (7.1).
 *   - 0 <= locked <= 3 (9.7); chain links per player <= chain_cap (15.3).
 *   - A face-up monster has at least its own card in its stack (depth >= 1);
 *     the Resonance window is open only with its Trigger's card known (the
 *     boards rely on both).
 *   - An illegal event changes nothing (R12): snap_apply judges the state
 *     in place, noting every write in an undo log (verifiers/undo.h) that
 *     puts the old bytes back when the verdict is not ok or warning.
 *   - Outcomes (combat, defeats, chain resolution, game end) are computed,
 *     never taken from the log; a `claim` is only compared (A5).
 *
 * WHAT LASTS
 *   - IMP modifiers (11.3): snap_monster.mod is all in force; attack_mod is
 *     the part given for the attack in progress, which ends with it (A32);
 *     the rest ends with the monster's next combat or the turn (R7).
 *   - Preventions (9.8): an effect fills the target's prevent_next, their
 *     next turn takes it over as prevent (begin_turn), its end clears it
 *     (A28) -- never the turn in progress.
 *
 * HIDDEN CARDS (openlog.md 6)
 *   Each hidden card is an openlog_card (verifiers/openlog.h, shared by
 *   every format): its identity when the engine knows it (open mode, or
 *   revealed), its commitment in commit mode, else nothing (announced
 *   mode).  At a reveal the card is checked against what is known
 *   (openlog_reveal): the identity, the commitment (openlog:commit), or -- in
 *   announced mode -- that it could have been there (in the decklist, not
 *   already seen).  What could never be checked is counted by
 *   snap_unverifiable().  A Locked Support removed by an effect goes to the
 *   Graveyard as an unknown card in every mode (A34).
 */
#ifndef ARBITER_SNAP_H
#define ARBITER_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/chain.h"
#include "verifiers/deck.h"
#include "verifiers/openlog.h"

#define SNAP_ENGINE "snap/2"
#define SNAP_BENCH 4
#define SNAP_LINEUP 5
#define SNAP_SUPPORTS 20
#define SNAP_RESERVE_MAX 16
#define SNAP_HAND_MAX 24
#define SNAP_LOCK_MAX 3
#define SNAP_CHAIN_MAX 14       /* a spell + 6 counters a side, caps up to 6 */
#define SNAP_TRIGGERS_MAX 8
#define SNAP_GRAVE_MAX 48          /* 5 monsters x 3 stages + 20 supports + slack */

typedef enum {
    STEP_SETUP, STEP_UNLOCK, STEP_FLIP, STEP_SPELL, STEP_EVOLVE, STEP_PRIME,
    STEP_ATTACK, STEP_SWAP, STEP_LOCK, STEP_OVER
} snap_step;

typedef enum { WIN_NONE, WIN_BLOCKER, WIN_COUNTER, WIN_RESONANCE } snap_window;

typedef struct {
    uint8_t present, face_up;
    openlog_card id;                   /* the base monster               */
    const card *stack[3];             /* face-up: base, evolutions      */
    uint8_t depth;                    /* cards in stack; 0 if face-down */
    int32_t mod;                      /* temporary IMP modifiers in force (11.3, R7) */
    int32_t attack_mod;               /* the part of mod given for the attack
                                         in progress, which ends with it (A32) */
} snap_monster;

/* What an effect prevents (9.8): unlocking, locking, drawing (which also
 * stops selecting, locking and unlocking). */
typedef struct {
    uint8_t unlock, lock, draw;
} snap_prevention;

typedef struct {
    snap_monster active, bench[SNAP_BENCH];
    openlog_card fifth;                /* R1: the lineup's fifth monster */
    uint8_t fifth_waiting, fifth_due;
    openlog_card hand[SNAP_HAND_MAX];
    uint8_t n_hand;
    openlog_card locked[SNAP_LOCK_MAX];
    uint8_t n_locked;
    const card *lineup[SNAP_LINEUP];  /* the decklist                   */
    uint8_t lineup_seen[SNAP_LINEUP];
    const card *supports[SNAP_SUPPORTS];
    uint8_t support_seen[SNAP_SUPPORTS];
    uint8_t support_taken;            /* cards that left the support deck */
    const card *reserve[SNAP_RESERVE_MAX];
    uint8_t reserve_used[SNAP_RESERVE_MAX];
    uint8_t n_reserve;
    const card *prime;                /* the lineup's Prime Singular    */
    const card *grave[SNAP_GRAVE_MAX];/* 7.7, oldest first; NULL: a card
                                         that left face-down (9.9, A34) */
    uint8_t n_grave;
    uint8_t buried;                   /* of those, never identified (A34) */
    uint8_t revealed;                 /* R10                            */
    uint8_t lost;                     /* monsters defeated              */
    uint8_t swaps_used, benched, selected, opening_locked;
    snap_prevention prevent;          /* in force in this player's turn (A28) */
    snap_prevention prevent_next;     /* waiting for this player's next turn */
    uint8_t select_due;               /* cards an effect lets them select */
    uint8_t promote_due;              /* R4                             */
} snap_side;

typedef chain_link snap_link;         /* verifiers/chain.h, shared */

typedef struct {
    uint64_t seq;                     /* the `trigger` event            */
    uint8_t player, ability, negated;
    uint8_t skip;                     /* A30: effects with no candidate */
    ol_ref source;
    const card *card;
    ol_ref targets[CARD_MAX_EFFECTS];
    uint8_t n_targets;
} snap_pending_trigger;

typedef struct {
    uint8_t player, slot_is_active;   /* where the source monster is    */
    int8_t slot;
    const card *card;
    uint8_t ability;
} snap_fired;

typedef struct snap_state {
    openlog_match ol;                 /* first: what the open log owns
                                         (verifiers/openlog.h): mode, names,
                                         the end, the clock, defeats */
    /* levers (snap.md 18, R2) */
    uint8_t chain_cap, unlocks_per_turn, swaps_per_game, swap_refresh;
    uint8_t p1_round1_unlock, hand_size[2], round1_attacks, freeze_rounds;
    uint8_t bench_facedown, p1_opening_lock;

    snap_side side[2];
    uint32_t round;                   /* 1.., R8                        */
    uint8_t turn;                     /* the active player              */
    snap_step step;
    uint8_t unlocks_done, flipped, evolved, attacks_made, attacks_allowed, locked_this_turn;
    uint8_t setup_done;

    snap_window window;
    uint8_t passed;                   /* A33: bit p set when player p has passed
                                         since the window opened or its last Counter */
    snap_link chain[SNAP_CHAIN_MAX];
    uint8_t n_chain, chain_count[2];
    const card *attacker;             /* the first attack's monster (A14)  */
    uint8_t attack_on;                /* an attack is declared, not resolved */
    ol_ref attack_target;
    uint8_t blocked;
    snap_pending_trigger trig;        /* the announced trigger in its window */
    snap_fired fired[SNAP_TRIGGERS_MAX];  /* fired, not yet announced (R11) */
    uint8_t n_fired;

    uint64_t next_seq;
} snap_state;

/* Start a match from its header: fills *s and the header's verdict (deck
 * verification 8.1; illegal leaves s->over set so that nothing follows).
 * `db` must outlive the state. */
int snap_start(snap_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);

/* Snap's deck construction rules (deck.c in this folder). */
extern const deck_format snap_deck;

/* The members Snap gives a card (cardfields.c in this folder). */
extern const card_schema snap_cards;

/* Judge one event (the next of the match).  The state changes only when
 * the verdict is ok or warning (R12). */
void snap_apply(snap_state *s, const olevent *ev, olverdict *v);

/* The log has ended (A31): R6's silence closes an open Blocker, Counter
 * or Resonance Window for good, so its chain, trigger and combat resolve,
 * which may end the game.  Batch verification calls it at the end of a
 * file; a live match never ends by silence.  No verdict: no event. */
void snap_silence(snap_state *s);

/* What could never be checked (openlog 6): hidden cards whose identity the
 * engine never learned -- face-down monsters, cards in hand, Locked
 * Supports, the waiting fifth monster, Locked Supports an effect removed to
 * the Graveyard unseen (A34) -- counted per player.  In announced
 * mode they were never named; in commit mode their commitments were never
 * opened.  Meaningful at any point; the final record reports it at the end. */
typedef struct {
    uint8_t bench, hand, locked, fifth;
    uint8_t grave;                    /* Locked Supports removed unseen (A34) */
} snap_unverified;
void snap_unverifiable(const snap_state *s, snap_unverified out[2]);

/* The board after the last event, showing the hidden cards `sight` may
 * see: in JSON (keys as arbiter-replay(1) documents for `arbiter replay --json`)
 * or in words for a person; and the canonical encoding of the whole state,
 * whose hash every record keeps (board.c says why it is the judge board).
 * Appended to t; 0, or -1 when t->bad (out of memory). */
int snap_board_json(const snap_state *s, const openlog_sight *sight, jtext *t);
int snap_board_words(const snap_state *s, const openlog_sight *sight, jtext *t);
int snap_encode(const snap_state *s, jtext *t);

/* Test support: 0 when every invariant above holds, else a number naming
 * the first that does not. */
int snap_check_invariants(const snap_state *s);

#endif
