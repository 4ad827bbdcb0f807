/* duel.h -- the rules Advanced and Master share: a duel of Life Points.
 *
 * Advanced and Master are one family (advanced.md, master.md): Life Points
 * and the win at 0, a selected opening hand and a Selection Step, a Monster
 * Zone of up to 7 monsters in Attack or Defense Position, one Normal Summon
 * a turn, one evolution a turn to the exact next stage, Prime Evolutions
 * and Prime Singulars, class-bound Spells and Counters, chains of Counters
 * (LIFO, capped per player), an attack's Counter Window, the hand limit at
 * the End Phase.  That family is written once, here; each engine
 * (verifiers/advanced/, verifiers/master/) gives a duel_format table -- its
 * levers, the sentences only it cites, and the few functions in which it
 * differs: how an attack is declared and fought, what a card costs, what
 * happens at the start of a turn, and its own event types (Master's mana).
 * The open log's part (hidden cards, the end of the game, claims, the shot
 * clock) is verifiers/openlog.h, as for every engine.
 *
 * THE TURN AS A STATE MACHINE
 *
 *   header --duel_start--> SETUP --(both opening hands selected)-->
 *   Player 1's first turn (begin_turn)
 *
 *   each turn moves forward through the steps; a step may be skipped, never
 *   revisited (duel:turn.order); the steps a format has are in its table:
 *
 *     [MANA] -> SELECT -> MAIN -> [SUMMON] -> POSITION -> EVOLVE -> ATTACK -> END --end--> next turn
 *     fmt     do_select  do_spell do_summon   do_position do_evolve  fmt->attack do_discard do_end
 *                        (Advanced summons      do_prime                          begin_turn
 *                         in MAIN)
 *
 *   The Selection Step is owed at the start of a turn (select_owed) unless
 *   the format skips Player 1's first, selection is prevented or the deck is
 *   empty; nothing but the format's earlier steps (Master's Mana Step) comes
 *   before it.
 *
 *   Windows, judged in close_window(): after a Spell only the opponent
 *   answers; after an attack both players do; a Counter in the opponent's
 *   turn with no window open starts a chain of its own.  A window closes by
 *   silence (the next event that is not a Counter, a pass, a claim or a
 *   ruling, whatever that event's own verdict) or when each player who may
 *   answer has passed; its chain resolves last-in first-out, then the
 *   attack (fmt->fight).
 *
 *   game over (LP 0, a concession, a game loss): every event but `judge`
 *   and `claim` is illegal (duel:win.immediate).
 *
 * INVARIANTS (duel_check_invariants)
 *   - 0 <= lp; lp == 0 for a player only when the game is over.
 *   - Monsters only in the zones the lever gives; a zone holds one monster,
 *     a stack of 1 to 3 cards, all face-up.
 *   - Counters per player on the chain <= chain_cap.
 *   - A mana card is either ready or spent: spent[c] <= the cards of class c.
 *   - Every Ongoing Spell on the field changed a monster on the field, and a
 *     monster's def_kept is the sum of the changes they keep for it (M5).
 *   - An illegal event changes nothing but the window its arrival closed:
 *     duel_apply closes it, then judges in place, noting every write in an
 *     undo log (verifiers/undo.h) that puts the old bytes back when the
 *     verdict is not ok or warning.
 *
 * RULE IDS.  A check both formats make cites "duel:<rule>" in this file's
 * source; the verdict names the format instead ("advanced:summon.normal",
 * "master:summon.normal"): both catalogues hold the rule under that name.
 * A check only one format makes cites the id its table gives.
 */
#ifndef ARBITER_DUEL_H
#define ARBITER_DUEL_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

#define DUEL_ZONES_MAX 7            /* the Monster Zone of both rulebooks    */
#define DUEL_DECK_MAX 70            /* Master's deck_size lever at its most  */
#define DUEL_HAND_MAX 70
#define DUEL_GRAVE_MAX 80
#define DUEL_MANA_MAX 70
#define DUEL_ONGOING_MAX 24
#define DUEL_ONCE_MAX 32            /* once-per-game attacks a player declares */
#define DUEL_CHAIN_MAX 13           /* a Spell and 6 Counters a side           */

typedef enum {
    DUEL_SETUP, DUEL_MANA, DUEL_SELECT, DUEL_MAIN, DUEL_SUMMON, DUEL_POSITION, DUEL_EVOLVE, DUEL_ATTACK,
    DUEL_END, DUEL_OVER
} duel_step;

typedef enum { DUEL_WIN_NONE, DUEL_WIN_SPELL, DUEL_WIN_ATTACK, DUEL_WIN_COUNTER } duel_window;

typedef struct {
    uint8_t present;
    uint8_t pos;                      /* OL_POS_AP or OL_POS_DP           */
    const card *stack[3];             /* base first; all face-up (A1)     */
    uint8_t depth;
    int32_t atk_mod, def_mod;         /* until end of turn                */
    int32_t def_kept;                 /* Master: from Ongoing Spells (M5) */
    uint8_t switched, attacked, evolved, prime_entered;   /* this turn    */
} duel_monster;

/* A face-down mana card (Master): its class is public (SPEC.md 7.4). */
typedef struct {
    openlog_card card;
    uint8_t cls;                      /* card_class                       */
} duel_mana;

/* An Ongoing Spell on the field (Master, M5) and the monster it changed. */
typedef struct {
    const card *card;
    int8_t p, slot;                   /* the monster; p -1: it changed none */
    int32_t def;                      /* the DEF change it keeps in force */
} duel_ongoing;

typedef struct {
    duel_monster zone[DUEL_ZONES_MAX];
    openlog_card hand[DUEL_HAND_MAX];
    uint8_t n_hand;
    const card *deck[DUEL_DECK_MAX];  /* the decklist                     */
    uint8_t deck_used[DUEL_DECK_MAX]; /* a copy known to have left it     */
    uint8_t n_deck, deck_left;        /* cards in the list, still in the deck */
    const card *grave[DUEL_GRAVE_MAX];
    uint8_t n_grave;
    int32_t lp;
    uint8_t lost;                     /* monsters destroyed (A15)         */
    uint8_t opened;                   /* the opening selection is made    */
    uint8_t select_due;               /* an effect's selection (A11)      */
    uint8_t prevent, prevent_next;    /* draw prevention (A14)            */
    /* Master */
    duel_mana mana[DUEL_MANA_MAX];
    uint8_t n_mana;
    uint8_t spent[CLASS_COUNT];       /* mana of each class spent this turn (M2) */
    uint8_t placed;                   /* mana placed in this Mana Step    */
    uint8_t mana_add;                 /* placements an effect allows (M9) */
    uint8_t mana_remove_due;          /* removals an effect obliges (M10) */
    duel_ongoing ongoing[DUEL_ONGOING_MAX];
    uint8_t n_ongoing;
    struct {
        const card *card;
        uint8_t index;
    } once[DUEL_ONCE_MAX];            /* once-per-game attacks declared   */
    uint8_t n_once;
} duel_side;

struct duel_format;

typedef struct duel_state {
    openlog_match ol;                 /* first: what the open log owns    */
    const struct duel_format *fmt;
    /* levers (the Balance Levers of the rulebook) */
    uint32_t starting_lp;
    uint8_t zones, hand_limit, selection_rate, chain_cap, mana_rate, deck_size;
    uint8_t opening[2];               /* cards each player selects at setup */

    duel_side side[2];
    uint32_t turns;                   /* turns begun (1..)                */
    uint8_t turn;                     /* the active player                */
    duel_step step;
    uint8_t setup_done, normal_summoned, evolved, select_owed;
    char refused[32];                 /* the rule a refused header broke  */

    duel_window window;
    uint8_t passed;                   /* bit p: p passed since the last counter */
    chain_link chain[DUEL_CHAIN_MAX];
    uint8_t n_chain, chain_count[2];
    uint8_t attack_on, fizzled;
    int8_t attacker;                  /* the attacking monster's slot     */
    ol_ref attack_target;             /* a monster, or the player (direct) */
    uint8_t attack_index;             /* Master: which of its attacks     */
    uint8_t attack_chose;             /* Master: its effects that chose the target */
    const card *attack_card;          /* Master: the card whose attack it is */
} duel_state;

/* One event being judged. */
typedef struct {
    openlog_judgement o;
    duel_state *s;
} duel_judge;

typedef void (*duel_handler)(duel_judge *j);

/* What a format adds to the board (duel_board.c), each at a fixed place;
 * a NULL hook adds nothing. */
typedef struct {
    void (*monster_json)(jtext *t, const duel_state *s, int p, const duel_monster *m);
    void (*player_json)(jtext *t, const duel_state *s, const openlog_sight *sight, int p);
    void (*pending_json)(jtext *t, const duel_state *s, int p);
    void (*attack_json)(jtext *t, const duel_state *s);
    void (*monster_words)(jtext *t, const duel_state *s, int p, const duel_monster *m);
    void (*player_words)(jtext *t, const duel_state *s, const openlog_sight *sight, int p);
    void (*attack_words)(jtext *t, const duel_state *s);
} duel_board;

/* What a card is paid for as (Master: each cites its own cost rule). */
typedef enum { DUEL_PAY_SPELL, DUEL_PAY_COUNTER, DUEL_PAY_EVOLVE, DUEL_PAY_SINGULAR } duel_pay;

/* What a format is to the duel.  Rule ids are literals in the format's own
 * file, so that the rule coverage check finds them there. */
typedef struct duel_format {
    ol_format format;
    const char *prefix;               /* "advanced": its rule ids' prefix */
    const char *main_words;           /* the Main Phase's name in sentences */
    uint32_t clock_ms;                /* the shot clock                   */
    const char *clock_rule;
    duel_step first_step;             /* where a turn begins (MANA or SELECT) */
    duel_step summon_step;            /* where summons and Prime Singulars are */
    uint8_t first_turn_selects;       /* Player 1 selects in their first turn */
    const char *rule_first_turn;      /* ... when not: the rule it cites  */
    const char *rule_attack_dp;       /* a monster in DP cannot attack    */
    uint8_t has_mana;                 /* mana Summons, payments, Mana Zone */
    const char *rule_mana_summon;     /* ... a Mana Summon's rule (has_mana) */
    /* an evolution revealing a card not in its player's hand: the rule
     * the rulebook gives it (advanced: the evolution's own "Exact next
     * stage card must be in hand") */
    const char *rule_evolve_hand;
    /* levers and the deck at the header: 0; 1 with the header's verdict
     * (illegal) written to v; OPENLOG_EINTERNAL when it could not judge */
    int (*start)(duel_state *s, const cards *db, deck_memo *memo, const ol_header *h, const olevent *header, olverdict *v);
    /* the card's effects in this format, and a Prime Singular's printed
     * condition */
    int (*effects)(const card *c, const card_effect **fx);
    card_condition (*printed)(const card *c);
    /* a monster's DEF now, with what modifies it */
    int32_t (*def)(const duel_monster *m);
    /* pay for card c with the event's `pay`; NULL: nothing costs anything.
     * 0, or -1 with the judgement failed. */
    int (*pay)(duel_judge *j, int p, const card *c, duel_pay what);
    /* 1 when Spell c stays on the field once resolved (M5); NULL: none does */
    int (*ongoing)(const card *c);
    /* a condition kind only this format has (class_mana_min): 1 met */
    int (*condition)(const duel_state *s, int p, const card *c, card_condition cond);
    /* a summon's kind and card, checked once the card is known (Master: a
     * Normal Summon's level, a Mana Summon's cost); NULL: nothing more */
    int (*summon)(duel_judge *j, int p, const card *c);
    /* the attack: its declaration once every shared check held (its
     * target, what it costs), and the fight when its window closes */
    void (*attack)(duel_judge *j, duel_monster *m);
    void (*fight)(duel_state *s);
    /* a turn begins (after the shared bookkeeping) */
    void (*turn_begins)(duel_state *s, int p);
    /* the format's own event types, beside the shared handlers */
    duel_handler own[OL_TYPE_COUNT];
    /* what must come before anything else, beyond the selections: 0 or -1 */
    int (*obligations)(duel_judge *j);
    const duel_board *board;
} duel_format;

/* ---- the engine's entry points ---- */

int duel_start(duel_state *s, const duel_format *fmt, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);
void duel_apply(duel_state *s, const olevent *ev, olverdict *v);
void duel_silence(duel_state *s);
/* hidden cards whose identity was never checked: the hand, and the Mana
 * Zone's cards never revealed */
void duel_unverifiable(const duel_state *s, unsigned out[2]);
int duel_finished(const duel_state *s, int *winner);
unsigned duel_round(const duel_state *s);
int duel_has_type(const duel_format *fmt, ol_type t);
int duel_check_invariants(const duel_state *s);

/* ---- for the formats' own code ---- */

/* A rule id as the format cites it: "duel:x" becomes "<prefix>:x" in buf
 * (OL_RULE_MAX bytes); any other id is returned as it is. */
const char *duel_rule(const duel_state *s, const char *rule, char *buf);

/* Mark the event illegal citing `rule` (through duel_rule).  Returns -1. */
int duel_illegal(duel_judge *j, const char *rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A rule a judge may let stand (OPENLOG_BREAK, verifiers/openlog.h):
 * as duel_illegal, returning 1; 0 while a remedy makes the action stand,
 * when the handler goes on.  `if (cond && duel_break(j, ...)) return;` */
int duel_break(duel_judge *j, const char *rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

const char *duel_who(const duel_state *s, int p);
/* A step's name in sentences: "Selection Step", "Attack Phase". */
const char *duel_step_words(const duel_state *s, duel_step st);
int duel_player_of(const olevent *ev);
const card *duel_top(const duel_monster *m);
duel_monster *duel_monster_at(duel_state *s, int p, int slot);
int duel_monsters_of(const duel_state *s, int p);
const char *duel_class_title(card_class c);

/* The turn's steps go forward only: moves to `step`, or fails. */
int duel_in_step(duel_judge *j, duel_step step, const char *what);

/* The attack is declared: its window opens. */
void duel_declare_attack(duel_state *s, int slot, ol_ref target);
void duel_end_attack(duel_state *s);

void duel_lose_lp(duel_state *s, int p, int32_t amount);
void duel_destroy(duel_state *s, int p, int slot);
void duel_to_grave(duel_state *s, int p, const card *c);

/* R12: during duel_apply every write to the state -- in duel.c and in a
 * format's hooks and handlers -- is noted in its undo log first
 * (verifiers/undo.h): DUEL_SET for one lvalue, DUEL_NOTE for bytes about
 * to change.  Outside an event the log is NULL and they are plain writes. */
#define DUEL_SET(s, lv, val) UNDO_SET((s)->ol.undo, lv, val)
#define DUEL_NOTE(s, ptr, n) undo_note((s)->ol.undo, (ptr), (n))

/* Apply effects for controller p; `refs` are the chosen targets, one for
 * each effect whose bit is set in `chose`; `self` is the monster whose
 * ability it is (an attack's, a Prime's entry), or slot -1. */
void duel_apply_effects(duel_state *s, int p, const card_effect *fx, int n, const ol_ref *refs, int n_refs,
                        unsigned chose, int self_slot);
unsigned duel_choosing(const duel_state *s, const card_effect *fx, int n_fx, int p);
int duel_check_targets(duel_judge *j, const card_effect *fx, int n_fx, int p, const char *what);
int duel_condition_met(const duel_state *s, int p, const card *c, card_condition cond);

/* Announced mode (Master, M1): the unused cards of class c in p's decklist
 * less the Mana Zone's cards of that class (none of which is revealed in
 * that mode), each of which stands for one of them.  Below 0: more
 * face-down mana of the class than the decklist can account for. */
int duel_class_unclaimed(const duel_state *s, int p, card_class c);

/* Take the revealed card `id` out of p's hand (openlog.md 6). */
int duel_from_hand(duel_judge *j, int p, const char *id, const char *nonce, const char *what, const card **out);

/* ---- the board: the parts both formats draw alike (duel_board.c) ---- */

/* The board through the match's format (s->fmt->board): JSON, words, and
 * the canonical encoding (the JSON at full sight, whose BLAKE2b-256 is the
 * record's state hash).  Appended to t; 0, or -1 when t->bad. */
int duel_board_json(const duel_state *s, const openlog_sight *sight, jtext *t);
int duel_board_words(const duel_state *s, const openlog_sight *sight, jtext *t);
int duel_encode(const duel_state *s, jtext *t);

/* A hidden zone in words after its count: ": Name, Name" for the cards the
 * sight names, or ": N committed, not yet revealed", or ": N unknown".
 * `cards` holds n entries `stride` bytes apart, each starting with an
 * openlog_card (a hand, or Master's Mana Zone). */
void duel_hidden_words(jtext *t, const openlog_sight *sight, int p, const openlog_card *zone, int n, size_t stride);

/* ---- the engine behind verifier.h ---- */

/* The verifier_ops of a duel format, written once for all of them: a
 * format's file says DUEL_VERIFIER_OPS(advanced_verifier_ops,
 * advanced_format, OL_FORMAT_ADVANCED, "Advanced", "advanced/1",
 * advanced_rules, advanced_deck, advanced_cards, 6000): the last is the
 * starting LP, the base of a game score (TOURNAMENT.md T5) that the
 * starting_lp lever changes. */
void duel_ops_apply(void *st, const olevent *ev, olverdict *v);
void duel_ops_log_ended(void *st);
int duel_ops_finished(const void *st, int *winner);
unsigned duel_ops_round(const void *st);
void duel_ops_unverified(const void *st, unsigned out[OL_PLAYERS_MAX]);
void duel_ops_score(const void *st, int64_t out[OL_PLAYERS_MAX], int64_t *base);
int duel_ops_board_json(const void *st, const openlog_sight *sight, jtext *t);
int duel_ops_board_words(const void *st, const openlog_sight *sight, jtext *t);
int duel_ops_encode(const void *st, jtext *t);
size_t duel_ops_hidden(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX]);

#define DUEL_VERIFIER_OPS(name, fmt, fmt_id, title_text, engine_name, rules_fn, deck_rules, card_fields, base) \
    static int name##_start(void *st, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)           \
    {                                                                                                 \
        return duel_start(st, &fmt, db, memo, header, v);                                                   \
    }                                                                                                 \
    static int name##_has_type(ol_type t) { return duel_has_type(&fmt, t); }                         \
    const verifier_ops name = {.format = fmt_id,                                                      \
                               .title = title_text,                                                   \
                               .engine = engine_name,                                                 \
                               .state_size = sizeof(duel_state),                                      \
                               .players_min = 2,                                                      \
                               .players_max = 2,                                                      \
                               .has_type = name##_has_type,                                           \
                               .rules = rules_fn,                                                     \
                               .deck = &deck_rules,                                                   \
                               .cards = &card_fields,                                                 \
                               .tournament = 1,                                                       \
                               .score_base = base,                                                    \
                               .score_base_lever = "starting_lp",                                     \
                               .start = name##_start,                                                 \
                               .apply = duel_ops_apply,                                               \
                               .log_ended = duel_ops_log_ended,                                       \
                               .finished = duel_ops_finished,                                         \
                               .round = duel_ops_round,                                               \
                               .unverified = duel_ops_unverified,                                     \
                               .score = duel_ops_score,                                               \
                               .board_json = duel_ops_board_json,                                     \
                               .board_words = duel_ops_board_words,                                   \
                               .encode = duel_ops_encode,                                             \
                               .hidden = duel_ops_hidden}

#endif
