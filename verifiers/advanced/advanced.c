/* advanced.c -- the Advanced rules engine (advanced.h).
 *
 * What: what only Advanced has, as a duel_format for verifiers/duel.c --
 * its levers and opening hands, Player 1's first turn without a selection,
 * the attack declaration's targets, and combat by ATK and DEF.  Everything
 * Advanced shares with Master (the turn, summons, Spells and Counters,
 * chains, positions, evolution, Prime cards, the End Phase) is judged in
 * duel.c, with the ids of verifiers/advanced/rules.c.
 *
 * Each check quotes the line of advanced.md (or the ruling) it enforces.
 */
#include <string.h>

#include "verifiers/advanced/advanced.h"
#include "verifiers/advanced/rules.h"
#include "verifiers/deck.h"
#include "verifiers/duel.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

extern const duel_board advanced_board;   /* board.c */

#define OTHER(p) (1 - (p))

static int32_t atk_of(const duel_monster *m)
{
    int32_t v = duel_top(m)->advanced.atk + m->atk_mod;
    return v > 0 ? v : 0;
}

static int32_t def_of(const duel_monster *m)
{
    int32_t v = duel_top(m)->advanced.def + m->def_mod;
    return v > 0 ? v : 0;
}

static int effects_of(const card *c, const card_effect **fx)
{
    *fx = c->advanced.effects;
    return c->advanced.n_effects;
}

static card_condition printed(const card *c)
{
    return c->advanced.condition;
}

/* ---- setup ------------------------------------------------------------ */

#define STARTING_LP 6000   /* advanced.md: "Starting LP: 6000 per player" */

static int start(duel_state *s, const cards *db, deck_memo *memo, const ol_header *h, const olevent *header, olverdict *v)
{
    /* advanced.md, Balance Levers; "Starting LP: 6000 per player" */
    s->starting_lp = (uint32_t)ol_header_lever(h, "starting_lp", STARTING_LP);
    s->zones = (uint8_t)ol_header_lever(h, "monster_zones", 7);
    s->hand_limit = (uint8_t)ol_header_lever(h, "hand_limit", 9);
    s->selection_rate = (uint8_t)ol_header_lever(h, "selection_rate", 1);
    s->chain_cap = (uint8_t)ol_header_lever(h, "chain_cap", 3);
    /* advanced.md: "Player 1: selects 5 cards. Player 2: selects 6 cards." */
    s->opening[0] = 5;
    s->opening[1] = 6;
    return openlog_check_decks(header, db, memo, v);
}

/* ---- the attack ------------------------------------------------------------ */

/* The targets of an attack: the opponent's monsters, or the opponent when
 * they control none. */
static void attack(duel_judge *j, duel_monster *m)
{
    const olevent *ev = j->o.ev;
    duel_state *s = j->s;
    const char *name = duel_top(m)->name;
    int p = duel_player_of(ev), d = OTHER(p);
    if (ev->target.kind == OL_REF_PLAYER) {
        /* advanced.md: "Direct attacks: allowed if opponent controls no monsters" */
        if ((int)ev->target.p != d || duel_monsters_of(s, d)) {
            duel_illegal(j, "advanced:attack.direct", "%s's %s attacked %s directly, but %s.", duel_who(s, p), name,
                         ol_player_name(ev->target.p),
                         (int)ev->target.p != d ? "a player attacks only the opponent" : "the opponent controls monsters");
            return;
        }
    } else if ((int)ev->target.p != d || !duel_monster_at(s, d, ev->target.slot)) {
        /* advanced.md: "Targets: opponent’s monsters" */
        duel_illegal(j, "advanced:attack.target", "%s's %s attacked %s's Monster Zone %d, which holds no monster of the "
                     "opponent.", duel_who(s, p), name, ol_player_name(ev->target.p), ev->target.slot);
        return;
    }
    duel_declare_attack(s, ev->slot, ev->target);
}

/* advanced.md, Combat Resolution.  The attacker must still be there and in
 * Attack Position, the attack not fizzled (A16, A17). */
static void fight(duel_state *s)
{
    int a = s->turn, d = OTHER(a);
    duel_monster *att = duel_monster_at(s, a, s->attacker);
    if (!s->attack_on || s->fizzled || !att || att->pos != OL_POS_AP) {
        duel_end_attack(s);
        return;
    }
    if (s->attack_target.kind == OL_REF_PLAYER) {
        /* advanced.md: "Direct attacks: ... LP damage = attacker’s ATK." */
        duel_lose_lp(s, d, atk_of(att));
        duel_end_attack(s);
        return;
    }
    int ds = s->attack_target.slot;
    duel_monster *def = duel_monster_at(s, d, ds);
    if (!def) {
        duel_end_attack(s);   /* A17: the target is gone: no damage */
        return;
    }
    int32_t atk = atk_of(att);
    if (def->pos == OL_POS_AP) {
        int32_t other = atk_of(def);
        /* advanced.md: "Higher ATK destroys lower; difference dealt as LP
         * damage." -- to the lower monster's controller (A5).
         * "Equal ATK = both destroyed, no damage." */
        if (atk > other) {
            duel_destroy(s, d, ds);
            duel_lose_lp(s, d, atk - other);
        } else if (atk < other) {
            duel_destroy(s, a, s->attacker);
            duel_lose_lp(s, a, other - atk);
        } else {
            duel_destroy(s, d, ds);
            duel_destroy(s, a, s->attacker);
        }
    } else if (atk > def_of(def)) {
        /* advanced.md: "ATK > DEF: defender destroyed, no LP damage (unless
         * Pierce)." -- no Pierce in the base release (A5); "ATK = DEF: no
         * destruction."  "ATK < DEF: no destruction, no damage." */
        duel_destroy(s, d, ds);
    }
    duel_end_attack(s);
}

/* ---- the format ---------------------------------------------------------------- */

static const duel_format advanced_format = {
    .format = OL_FORMAT_ADVANCED,
    .prefix = "advanced",
    .main_words = "Main Phase",
    /* advanced.md: "Decision shot-clock: 45 seconds." */
    .clock_ms = 45000,
    .clock_rule = "advanced:clock.shot",
    .first_step = DUEL_SELECT,
    /* advanced.md: "During this phase, the active player may also perform
     * one Normal Summon" -- the Main Phase */
    .summon_step = DUEL_MAIN,
    .first_turn_selects = 0,
    /* advanced.md: "Player 1 does not select a card on their very first turn." */
    .rule_first_turn = "advanced:select.first_turn",
    /* advanced.md: "DP: monster uses its DEF value; cannot attack" */
    .rule_attack_dp = "advanced:attack.dp",
    /* advanced.md: "Exact next stage card must be in hand." */
    .rule_evolve_hand = "advanced:evolve.next_stage",
    .start = start,
    /* the card's Advanced properties */
    .effects = effects_of,
    .printed = printed,
    .def = def_of,
    /* ATK against ATK or DEF */
    .attack = attack,
    .fight = fight,
    .board = &advanced_board,
};

int advanced_start(advanced_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)
{
    return duel_start(s, &advanced_format, db, memo, header, v);
}

/* advanced.md, "Deck Size & Construction": "40 cards total", "Must include
 * at least 5 Monsters", "up to 2 copies of each card", "Prime Evolutions
 * and Prime Singulars are limited to 1 copy" -- the shared checks of
 * verifiers/deck.c, one row per rule id in report order. */
static const deck_rule_info deck_rows[] = {
    {"openlog:cards", "every card is in the match's card database", deck_check_known},
    {"advanced:deck.size", "exactly 40 cards", deck_check_size},
    {"advanced:deck.monsters", "at least 5 Monsters (Monsters or Prime Singulars)", deck_check_monsters},
    {"advanced:deck.copies", "at most 2 copies of a card (by name)", deck_check_copies},
    {"advanced:deck.primes", "Prime Evolutions and Prime Singulars at most 1 copy", deck_check_primes},
};

static const deck_format advanced_deck = {
    .title = "Advanced",
    .shape = DECK_SHAPE_MAIN,
    .size = 40,
    .copies = 2,
    .prime_copies = 1,
    .min_monsters = 5,
    .rules = deck_rows,
    .n_rules = sizeof deck_rows / sizeof deck_rows[0],
};

DUEL_VERIFIER_OPS(advanced_verifier_ops, advanced_format, OL_FORMAT_ADVANCED, "Advanced", ADVANCED_ENGINE, advanced_rules,
                  advanced_deck, advanced_cards, STARTING_LP);
