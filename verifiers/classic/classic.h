/* classic.h -- the classic Snap rules engine.
 *
 * The engine replays one match of classic Snap (../shared/rulebooks/
 * classic-snap.md, with the rulings of verifiers/classic/RULINGS.md), the
 * matching game for two to eight players, one open-log event at a time:
 * classic_apply(state, event) -> verdict.  Pure: no I/O, no clock, no
 * globals; time is the table's clock each flip and call carries (`at`).
 * Its events are logformat/SPEC.md 7.6.
 *
 * THE GAME AS A STATE MACHINE
 *
 *   DEAL --(every seat dealt)--> PLAY --(a table resolution)--> RESOLVING
 *     ^ deal x N                  | flip, snap, snap_pot           | take, pot, penalty
 *                                 | turn_over, out                 | in the order of the
 *                                 |                                | calls they answer
 *                                 +<------(the last one)-----------+
 *   PLAY --(one player left / every match locked in the pot)--> OVER
 *
 * Calls (snap, snap_pot) collect in a WINDOW and are judged only when the
 * table resolves them: each against the piles as they stood at its `at`
 * (the flips of the window, in time order, over the piles as the last
 * resolution left them).  The first right call by time takes; right calls
 * of the same word within the tie window make or grow the snap pot; every
 * wrong call pays a penalty.  The engine lists those consequences (`due`)
 * when the first resolution event comes, and each resolution event must be
 * the next of them (RULINGS A2-A4).
 *
 * CARDS.  Every physical card has a slot 0..n_cards-1.  A face-down card
 * is an openlog_card (its id, its commitment, or nothing, by the hidden
 * mode) and the shuffle it came from (`batch`: 0 the deal, then one per
 * take and turn-over).  `pool` holds, for every face-down card whose
 * identity is not known, what it can be: the deck's cards for the deal,
 * the cards taken for a shuffle.  A flip that reveals a card no pool entry
 * of its batch allows is illegal (openlog:6).
 *
 * INVARIANTS (classic_check_invariants)
 *   - every slot is in exactly one place: a stack, a pile, the common pile
 *     or the pot; the counts sum to n_cards once the deal is done;
 *   - n_pool == the face-down cards whose identity the engine does not
 *     know, and each pool entry's batch is the batch of one of them;
 *   - the pot's top card has the pot's value (the matching cards on top);
 *   - over implies a winner (one player in) or a draw.
 */
#ifndef ARBITER_CLASSIC_H
#define ARBITER_CLASSIC_H

#include <stdint.h>

#include "verifiers/verifier.h"

#define CLASSIC_ENGINE "classic/1"

#define CLASSIC_CARDS_MAX 416    /* cards of a deck: 8 standard decks        */
#define CLASSIC_TYPES_MAX 128    /* distinct cards of the card database      */
#define CLASSIC_CALLS_MAX 64     /* calls of one window (more: illegal)      */
#define CLASSIC_FLIPS_MAX 64     /* flips a window remembers (older ones are
                                    folded into its starting piles)          */
#define CLASSIC_COMMON OL_PLAYERS_MAX  /* the index of the common pile       */
#define CLASSIC_PILES (OL_PLAYERS_MAX + 1)

typedef struct {
    openlog_card h;               /* id / commitment / nothing, by the mode */
    uint16_t batch;               /* the shuffle it came from (0: the deal) */
} classic_hidden;

/* What a face-down card of a batch may still be. */
typedef struct {
    uint8_t type;                 /* index into types[]                     */
    uint16_t batch;
} classic_candidate;

/* A list of card slots, bottom first (a stack's top is its last). */
typedef struct {
    uint16_t n;
    uint16_t slot[CLASSIC_CARDS_MAX];
} classic_zone;

/* One call of the open window. */
typedef struct {
    uint64_t at;
    uint64_t seq;                 /* its event, for sentences               */
    uint8_t p;
    uint8_t pot_word;             /* 1: "Snap Pot!", 0: "Snap!"             */
} classic_call;

/* One flip of the open window. */
typedef struct {
    uint64_t at;
    uint8_t pile;                 /* 0..N-1, or CLASSIC_COMMON               */
    uint8_t type;
} classic_flip;

typedef enum { DUE_TAKE, DUE_POT, DUE_PENALTY } classic_due_kind;

/* A consequence the table must announce. */
typedef struct {
    uint8_t kind;                 /* classic_due_kind                        */
    uint8_t p;                    /* the caller it answers                   */
    uint8_t pot;                  /* TAKE: the snap pot is taken too          */
    uint8_t pot_word;             /* the word of the call it answers          */
    uint8_t mixup;                /* PENALTY: the other word had a match      */
    uint16_t piles;               /* bit per pile index                       */
    uint16_t may_take;            /* TAKE: bit per player the table may name
                                     (calls at the very same ms, no ties)    */
    uint64_t at;                  /* the call's time                          */
    int8_t second;                /* TAKE: a later right call, for sentences */
    uint64_t second_at;
} classic_due;

typedef struct {
    openlog_match m;              /* first: verifier.c reads it               */
    uint8_t refused;              /* the header was illegal                   */
    const char *refused_rule;     /* and the rule it broke (static storage)   */
    uint8_t n;                    /* players                                  */
    /* levers */
    uint8_t decks, dealer, first, common, pot_on, prop;
    uint16_t tie_window;
    /* the deck */
    const card *types[CLASSIC_TYPES_MAX];
    uint8_t value[CLASSIC_TYPES_MAX];   /* value index of each type          */
    uint8_t n_types, n_values;
    uint16_t n_cards;             /* decks x n_types                          */
    /* where every card is */
    classic_hidden hid[CLASSIC_CARDS_MAX];  /* face-down cards              */
    uint8_t up[CLASSIC_CARDS_MAX];          /* face-up cards: their type    */
    classic_zone stack[OL_PLAYERS_MAX];
    classic_zone pile[CLASSIC_PILES];       /* own piles, then the common one */
    classic_zone pot;
    uint8_t pot_value;            /* valid when pot.n                         */
    classic_candidate pool[CLASSIC_CARDS_MAX];
    uint16_t n_pool, next_batch;
    /* players */
    uint8_t dealt[OL_PLAYERS_MAX];
    uint8_t n_dealt, deal_done;
    uint8_t out[OL_PLAYERS_MAX];
    int8_t last_flipper;          /* -1 before the first flip                 */
    uint32_t n_flips_total;
    /* time */
    uint64_t last_flip_at;
    uint8_t has_flip_at;
    uint64_t resolved_at;         /* the latest call already resolved         */
    uint8_t has_resolved;
    /* the window */
    classic_call calls[CLASSIC_CALLS_MAX];
    uint8_t n_calls;
    classic_flip flips[CLASSIC_FLIPS_MAX];
    uint8_t n_flips;
    int16_t start_top[CLASSIC_PILES];   /* type on top at the window's start, -1 */
    int16_t start_second;         /* the common pile's card under its top, -1 */
    classic_due due[CLASSIC_CALLS_MAX];
    uint8_t n_due, i_due;
} classic_state;

/* Start a match from its header: the deck (every card of `db`, `decks`
 * times), the seats and the levers; the verdict in *v (illegal, and the
 * match cannot start, when the deck does not fit the engine's limits or the
 * dealer or first player is not a seat).  `db` must outlive the state. */
int classic_start(classic_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);

/* Judge the next event: exactly one verdict in *v; the state changes only
 * when it is ok. */
void classic_apply(classic_state *s, const olevent *ev, olverdict *v);

/* What the card database gives a card for classic Snap (cardfields.c):
 * its value, 1..CLASSIC_VALUE_MAX bytes; two cards match when their values
 * are equal (RULINGS A9).  Kept in the card's own bytes for this format
 * (card.own[OL_FORMAT_CLASSIC]). */
#define CLASSIC_VALUE_MAX 32
typedef struct {
    char value[CLASSIC_VALUE_MAX + 1];
} classic_card;
extern const card_schema classic_cards;

/* The value of card c (its classic_card's), its length in *len.  Points
 * into the card: valid while the database is. */
const char *classic_value_key(const card *c, size_t *len);

/* Who flips next: the first player before any flip, then the next player
 * still in on the last flipper's left (RULINGS A14). */
int classic_next_to_flip(const classic_state *s);

/* The board, its words and the canonical encoding (board.c). */
int classic_board_json(const classic_state *s, const openlog_sight *sight, jtext *t);
int classic_board_words(const classic_state *s, const openlog_sight *sight, jtext *t);
int classic_encode(const classic_state *s, jtext *t);

/* The catalogue (rules.c). */
const verifier_rule *classic_rules(size_t *n);

/* 0 when the invariants above hold, else the number of the first broken. */
int classic_check_invariants(const classic_state *s);

#endif
