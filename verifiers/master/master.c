/* master.c -- the Master rules engine (master.h).
 *
 * What: what only Master has, as a duel_format for verifiers/duel.c -- its
 * levers and its deck size, the Mana Zone (the Mana Step, mana placed and
 * removed by effects), payments, Mana Summons and the Normal Summon's level,
 * attacks chosen among a monster's own with their costs and conditions,
 * damage against DEF, and Ongoing Spells.  Everything Master shares with
 * Advanced is judged in duel.c, citing the ids of verifiers/master/rules.c.
 *
 * Why payments are exact and by class: the open log carries what a player
 * says they paid (`pay`); the engine holds the Mana Zone by class and what
 * of it is spent this turn (RULINGS M2), so a payment is checked against
 * both the cost and what the player has, and a verdict can say what was
 * owed and what was there.
 *
 * Each check quotes the line of master.md (or the ruling) it enforces.
 */
#include <string.h>

#include "verifiers/deck.h"
#include "verifiers/duel.h"
#include "verifiers/master/master.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

extern const duel_board master_board;   /* board.c */

#define P(s, i) (&(s)->side[(i)])
#define OTHER(p) (1 - (p))

static int effects_of(const card *c, const card_effect **fx)
{
    *fx = c->master.effects;
    return c->master.n_effects;
}

static card_condition printed(const card *c)
{
    return c->master.condition;
}

/* master.md: "Monsters have a universal DEF stat." -- the same in either
 * position (M6); an Ongoing Spell's change lasts while it stays (M5). */
static int32_t def_of(const duel_monster *m)
{
    int32_t v = duel_top(m)->master.def + m->def_mod + m->def_kept;
    return v > 0 ? v : 0;
}

static int ongoing(const card *c)
{
    return c->master.ongoing;
}

/* ---- setup ------------------------------------------------------------ */

#define STARTING_LP 8000   /* master.md: "Starting LP: 8000 each." */

static int start(duel_state *s, const cards *db, deck_memo *memo, const ol_header *h, const olevent *header, olverdict *v)
{
    /* master.md, Balance Levers; "Starting LP: 8000 each."; "Hand: max 10
     * cards at end of turn."; "Starting hands: ... 7 ... 8" */
    s->starting_lp = (uint32_t)ol_header_lever(h, "starting_lp", STARTING_LP);
    s->zones = DUEL_ZONES_MAX;   /* "Monster Zone: up to 7 monsters simultaneously." */
    s->hand_limit = (uint8_t)ol_header_lever(h, "hand_limit", 10);
    s->selection_rate = 1;       /* "Choose 1 card from your deck" */
    s->chain_cap = (uint8_t)ol_header_lever(h, "chain_cap", 3);
    s->mana_rate = (uint8_t)ol_header_lever(h, "mana_rate", 1);
    s->deck_size = (uint8_t)ol_header_lever(h, "deck_size", 60);
    s->opening[0] = (uint8_t)ol_header_lever(h, "p1_hand", 7);
    s->opening[1] = (uint8_t)ol_header_lever(h, "p2_hand", 8);
    /* master.md: "60 cards total" -- or the deck_size lever, which the
     * deck rules read from the header */
    return openlog_check_decks(header, db, memo, v);
}

/* ---- the Mana Zone and payments (M1, M2) -------------------------------- */

static unsigned mana_of(const duel_state *s, int p, card_class c)
{
    unsigned n = 0;
    for (int i = 0; i < s->side[p].n_mana; i++)
        n += s->side[p].mana[i].cls == c;
    return n;
}

unsigned master_ready(const master_state *s, int p, card_class c)
{
    return mana_of(s, p, c) - s->side[p].spent[c];
}

/* Append a part to out (cap bytes, a string already), cut to fit. */
static void append(char *out, size_t cap, const char *part)
{
    size_t k = strlen(out);
    olverdict_format(out + k, cap - k, "%s", part);
}

/* "2 Coreon and 1 of any class", "nothing": a cost in words.  `sep` is
 * what goes before the next part: "" until one is written. */
static void cost_words(const mana_cost *cost, char *out, size_t cap)
{
    char part[48];
    const char *sep = "";
    out[0] = 0;
    for (int c = 0; c < CLASS_COUNT; c++) {
        if (!cost->by_class[c])
            continue;
        olverdict_format(part, sizeof part, "%s%u %s", sep, cost->by_class[c], duel_class_title((card_class)c));
        append(out, cap, part);
        sep = " and ";
    }
    if (cost->any) {
        olverdict_format(part, sizeof part, "%s%u of any class", sep, cost->any);
        append(out, cap, part);
        sep = " and ";
    }
    if (!*sep)
        append(out, cap, "nothing");
}

/* "1 Coreon, 2 Obscura ready", "no mana ready". */
static void ready_words(const duel_state *s, int p, char *out, size_t cap)
{
    char part[48];
    const char *sep = "";
    out[0] = 0;
    for (int c = 0; c < CLASS_COUNT; c++) {
        unsigned n = master_ready(s, p, (card_class)c);
        if (!n)
            continue;
        olverdict_format(part, sizeof part, "%s%u %s", sep, n, duel_class_title((card_class)c));
        append(out, cap, part);
        sep = ", ";
    }
    append(out, cap, *sep ? " ready" : "no mana ready");
}

/* The event's payment for `cost`, checked exactly (M2): each class of the
 * cost paid with that class, the `any` part with any class, nothing more;
 * every class paid from mana the player has ready.  Spends it.  0, or -1
 * with the judgement failed citing `rule`. */
static int pay_exactly(duel_judge *j, int p, const mana_cost *cost, const char *rule, const char *what)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;   /* pay[] is all 0 when the event has none */
    unsigned owed = cost->any, paid = 0;
    char cw[160], rw[160];
    int short_class = 0;
    for (int c = 0; c < CLASS_COUNT; c++) {
        owed += cost->by_class[c];
        paid += ev->pay[c];
        short_class |= ev->pay[c] < cost->by_class[c];
    }
    cost_words(cost, cw, sizeof cw);
    if (short_class || paid != owed) {
        char pw[160];
        mana_cost as_paid = {{0}, 0};
        for (int c = 0; c < CLASS_COUNT; c++)
            as_paid.by_class[c] = ev->pay[c];
        cost_words(&as_paid, pw, sizeof pw);
        return duel_illegal(j, rule, "%s paid %s for %s, which costs %s%s.", duel_who(s, p), pw, what, cw,
                            paid < owed ? "" : paid > owed ? "; a cost is paid exactly, no more"
                            : ": each class of a cost is paid with mana of that class");
    }
    for (int c = 0; c < CLASS_COUNT; c++)
        if (ev->pay[c] > master_ready(s, p, (card_class)c)) {
            ready_words(s, p, rw, sizeof rw);
            return duel_illegal(j, rule, "%s paid %u %s for %s (%s), but had %s.", duel_who(s, p), ev->pay[c],
                                duel_class_title((card_class)c), what, cw, rw);
        }
    for (int c = 0; c < CLASS_COUNT; c++)
        DUEL_SET(s, P(s, p)->spent[c], (uint8_t)(P(s, p)->spent[c] + ev->pay[c]));
    return 0;
}

/* Spells, Counters, evolutions and Prime Singulars are paid as they are
 * played, each citing its own line. */
static int pay(duel_judge *j, int p, const card *c, duel_pay what)
{
    switch (what) {
    /* master.md: "Play any number of Spells by paying their mana costs." */
    case DUEL_PAY_SPELL: return pay_exactly(j, p, &c->master.cost, "master:spell.cost", c->name);
    /* master.md: "Require mana; are class-bound." (Counters) */
    case DUEL_PAY_COUNTER: return pay_exactly(j, p, &c->master.cost, "master:counter.cost", c->name);
    /* master.md: "Pay evolution cost, stack next stage on top." */
    case DUEL_PAY_EVOLVE: return pay_exactly(j, p, &c->master.cost, "master:evolve.cost", c->name);
    /* RULINGS M4: a Prime Singular is paid as a Mana Summon is */
    default: return pay_exactly(j, p, &c->master.cost, "master:singular.cost", c->name);
    }
}

/* The Normal Summon is free and of level 3 or below; a Mana Summon pays
 * the monster's cost (M4). */
static int summon(duel_judge *j, int p, const card *c)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (ev->kind == OL_SUMMON_MANA)
        /* master.md: "Mana Summon: play any monster by paying its mana cost." */
        return pay_exactly(j, p, &c->master.cost, "master:summon.mana", c->name);
    /* master.md: "Normal Summon: once per turn, you may summon a monster
     * without mana cost if ≤ Level 3." */
    if (c->master.level > 3 &&
        duel_break(j, "duel:summon.normal", "%s made a Normal Summon of %s, a level %u monster; a Normal "
                   "Summon is of level 3 or below (a Mana Summon pays for any level).", duel_who(s, p),
                   c->name, c->master.level))
        return -1;
    for (int k = 0; k < OL_CLASS_COUNT; k++)   /* all 0 when the event has no pay */
        if (ev->pay[k])
            return duel_break(j, "duel:summon.normal", "%s paid mana for a Normal Summon, which is made without "
                              "mana cost.", duel_who(s, p)) ? -1 : 0;
    return 0;
}

/* The condition only Master has that duel_condition_met() leaves to the
 * format, class_mana_min (M3): mana of the card's class in the Mana Zone,
 * ready or spent.  (once_per_game, the other, is an attack's only, and the
 * attack checks it itself.) */
static int condition(const duel_state *s, int p, const card *c, card_condition cond)
{
    return mana_of(s, p, c->cls) >= (unsigned)cond.amount;
}

/* ---- the Mana Step and the mana effects (M1, M9, M10) -------------------- */

/* Is there an unused card of class c that the player's hidden mana could
 * be, by the decklist (announced mode, M1)? */
static int class_left(const duel_state *s, int p, card_class c)
{
    return duel_class_unclaimed(s, p, c) > 0;
}

/* "a Coreon", "an Obscura": a class with its article, for sentences. */
static void a_class(card_class c, char *out, size_t cap)
{
    const char *t = duel_class_title(c);
    olverdict_format(out, cap, "%s %s", strchr("AEIOU", t[0]) ? "an" : "a", t);
}

static void do_mana(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = duel_player_of(ev);
    openlog_card h;
    if (p < 0) {
        duel_illegal(j, "openlog:3", "A card is placed as mana by the player who places it.");
        return;
    }
    duel_side *sd = P(s, p);
    int in_mana_step = p == s->turn && s->step == DUEL_MANA;
    int by_step = in_mana_step && sd->placed < s->mana_rate;   /* else by an effect's mana_add */
    /* master.md: "At the start of your turn, you may place 1 card from hand
     * face-down into your Mana Zone." (mana_rate) -- or as an effect lets
     * the player (mana_add, M9) */
    if (!by_step && !sd->mana_add) {
        if (in_mana_step)
            duel_illegal(j, "master:mana.step", "%s placed a card as mana beyond the %u a Mana Step allows.",
                         duel_who(s, p), s->mana_rate);
        else   /* the opponent's turn, or the Mana Step has passed */
            duel_in_step(j, DUEL_MANA, "placed a card as mana");
        return;
    }
    char what[48];
    olverdict_format(what, sizeof what, "%s's mana card", duel_who(s, p));
    if (openlog_take_href(&j->o, &ev->card, &h, what))
        return;
    int at = openlog_zone_match(sd->hand, sd->n_hand, &h);
    if (at < 0) {
        if (h.has_commit)
            duel_illegal(j, "openlog:commit", "%s placed as mana a card whose commitment matches no card of their "
                         "hand.", duel_who(s, p));
        else   /* the verdict is public and the card face-down: it is not named */
            duel_illegal(j, "duel:field.from_hand", "%s placed as mana a card that is not in their hand.",
                         duel_who(s, p));
        return;
    }
    char cls[24];
    /* master.md: "Each card provides 1 mana of its class color" -- the
     * verdict, public, names the announced class, never the face-down card */
    if (h.card && h.card->cls != (card_class)ev->cls) {
        duel_illegal(j, "master:mana.class", "%s placed as %s mana a card of another class; a card gives mana of its "
                     "own class.", duel_who(s, p), duel_class_title((card_class)ev->cls));
        return;
    }
    if (!h.card && !h.has_commit && !class_left(s, p, (card_class)ev->cls)) {
        a_class((card_class)ev->cls, cls, sizeof cls);
        duel_illegal(j, "openlog:6", "%s placed %s card as mana, but no %s card is left unused in their decklist.",
                     duel_who(s, p), cls, duel_class_title((card_class)ev->cls));
        return;
    }
    DUEL_NOTE(s, &sd->mana[sd->n_mana], sizeof sd->mana[0]);
    sd->mana[sd->n_mana].card = sd->hand[at];
    sd->mana[sd->n_mana].cls = (uint8_t)ev->cls;
    DUEL_SET(s, sd->n_mana, sd->n_mana + 1);
    DUEL_NOTE(s, &sd->hand[at], (size_t)(sd->n_hand - at) * sizeof sd->hand[0]);
    memmove(&sd->hand[at], &sd->hand[at + 1], (size_t)(sd->n_hand - at - 1) * sizeof sd->hand[0]);
    DUEL_SET(s, sd->n_hand, sd->n_hand - 1);
    if (by_step)
        DUEL_SET(s, sd->placed, sd->placed + 1);
    else
        DUEL_SET(s, sd->mana_add, sd->mana_add - 1);
}

static void do_mana_remove(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = duel_player_of(ev);
    if (p < 0) {
        duel_illegal(j, "openlog:3", "A mana card is removed by the player whose card it is.");
        return;
    }
    duel_side *sd = P(s, p);
    const card *c = cards_find(s->ol.db, ev->card.card);
    /* RULINGS M10: "The target player sends amount cards of their choice
     * from their Mana Zone to the graveyard." -- as an effect obliges */
    if (!sd->mana_remove_due) {
        duel_illegal(j, "master:mana.remove", "%s removed a card from their Mana Zone, but no effect obliges them.",
                     duel_who(s, p));
        return;
    }
    if (!c) {
        duel_illegal(j, "openlog:cards", "The card \"%s\" is not in the card database.", ev->card.card);
        return;
    }
    /* the zone's cards of the revealed card's class: it must be one of them */
    openlog_card of_class[DUEL_MANA_MAX];
    int index[DUEL_MANA_MAX], n = 0;
    for (int i = 0; i < sd->n_mana; i++)
        if (sd->mana[i].cls == c->cls) {
            of_class[n] = sd->mana[i].card;
            index[n++] = i;
        }
    int at = openlog_zone_find(of_class, n, c, ev->nonce);
    if (at < 0 && s->ol.hidden == OL_HIDDEN_COMMIT) {
        /* RULINGS M1: "in commit mode the class is checked when the card is
         * revealed" -- a commitment of the zone opened under another class */
        openlog_card all[DUEL_MANA_MAX];
        for (int i = 0; i < sd->n_mana; i++)
            all[i] = sd->mana[i].card;
        int k = openlog_zone_find(all, sd->n_mana, c, ev->nonce);
        if (k >= 0) {
            char cls[24];
            a_class(c->cls, cls, sizeof cls);
            duel_illegal(j, "master:mana.class", "%s's mana card revealed as %s, %s card, was placed as %s mana.",
                         duel_who(s, p), c->name, cls, duel_class_title((card_class)sd->mana[k].cls));
            return;
        }
    }
    if (at < 0) {
        if (s->ol.hidden == OL_HIDDEN_COMMIT && n)
            duel_illegal(j, "openlog:commit", "The removal reveals %s, which matches no %s card committed to %s's Mana "
                         "Zone.", c->name, duel_class_title(c->cls), duel_who(s, p));
        else
            duel_illegal(j, "master:mana.remove", "%s removed %s from their Mana Zone, which holds no such %s card.",
                         duel_who(s, p), c->name, duel_class_title(c->cls));
        return;
    }
    char what[48];
    olverdict_format(what, sizeof what, "%s removed", duel_who(s, p));
    if (!of_class[at].card && openlog_deck_take(&j->o, sd->deck, sd->deck_used, sd->n_deck, c, p, what, "decklist"))
        return;
    int i = index[at];
    DUEL_NOTE(s, &sd->mana[i], (size_t)(sd->n_mana - i) * sizeof sd->mana[0]);
    memmove(&sd->mana[i], &sd->mana[i + 1], (size_t)(sd->n_mana - i - 1) * sizeof sd->mana[0]);
    DUEL_SET(s, sd->n_mana, sd->n_mana - 1);
    /* M10: "A removed card is taken from the spent mana of its class first." */
    if (sd->spent[c->cls])
        DUEL_SET(s, sd->spent[c->cls], sd->spent[c->cls] - 1);
    duel_to_grave(s, p, c);
    DUEL_SET(s, sd->mana_remove_due, sd->mana_remove_due - 1);
}

/* An effect's mana_remove comes before anything else (M10). */
static int obligations(duel_judge *j)
{
    const olevent *ev = j->o.ev;
    int by = duel_player_of(ev);
    for (int p = 0; p < 2; p++) {
        const duel_side *sd = &j->s->side[p];
        if (sd->mana_remove_due && !(ev->type == OL_MANA_REMOVE && by == p))
            return duel_illegal(j, "master:mana.remove", "%s must first send the %u mana card%s an effect took to the "
                                "Graveyard.", duel_who(j->s, p), sd->mana_remove_due,
                                sd->mana_remove_due == 1 ? "" : "s");
    }
    return 0;
}

/* M2: every mana card of the player is ready again as their turn begins. */
static void turn_begins(duel_state *s, int p)
{
    DUEL_NOTE(s, P(s, p)->spent, sizeof P(s, p)->spent);
    memset(P(s, p)->spent, 0, sizeof P(s, p)->spent);
    DUEL_SET(s, P(s, p)->placed, 0);
}

/* ---- attacks (M7, M8) ------------------------------------------------------ */

static int once_used(const duel_state *s, int p, const card *c, int index)
{
    const duel_side *sd = &s->side[p];
    for (int i = 0; i < sd->n_once; i++)
        if (sd->once[i].card == c && sd->once[i].index == index)
            return 1;
    return 0;
}

static int chooses(const master_attack *a)
{
    for (int i = 0; i < a->n_effects; i++)
        if (fx_target_is_chosen(a->effects[i].target))
            return 1;
    return 0;
}

/* Could the attack be paid from ready mana now? */
static int payable(const duel_state *s, int p, const mana_cost *cost)
{
    unsigned spare = 0;
    for (int c = 0; c < CLASS_COUNT; c++) {
        unsigned r = master_ready(s, p, (card_class)c);
        if (r < cost->by_class[c])
            return 0;
        spare += r - cost->by_class[c];
    }
    return spare >= cost->any;
}

int master_attack_usable(const master_state *s, int p, int slot, int index)
{
    const duel_monster *m = &s->side[p].zone[slot];
    if (!m->present || s->ol.over || p != s->turn || s->turns == 1 || s->step > DUEL_ATTACK ||
        m->pos != OL_POS_AP || m->attacked || m->switched || m->evolved || m->prime_entered)
        return 0;
    const card *c = duel_top(m);
    if (index >= c->master.n_attacks)
        return 0;
    const master_attack *a = &c->master.attacks[index];
    if (a->condition.kind == COND_ONCE_PER_GAME)
        return !once_used(s, p, c, index) && payable(s, p, &a->cost);
    return duel_condition_met(s, p, c, a->condition) && payable(s, p, &a->cost);
}

/* Which attack, its condition, its target and its cost (M7). */
static void attack(duel_judge *j, duel_monster *m)
{
    const card *c = duel_top(m);
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = duel_player_of(ev), d = OTHER(p);
    /* master.md: "Each monster may declare 1 attack per turn (choose 1 of
     * its available attacks)." */
    if (!ev->has_attack || ev->attack >= c->master.n_attacks) {
        duel_illegal(j, "master:attack.choose", "%s's %s declared %s; it has %u attack%s, numbered from 0.",
                     duel_who(s, p), c->name, ev->has_attack ? "an attack it does not have" : "no attack by its index",
                     c->master.n_attacks, c->master.n_attacks == 1 ? "" : "s");
        return;
    }
    const master_attack *a = &c->master.attacks[ev->attack];
    /* master.md: "Pay the attack’s mana cost and check its condition." */
    if (a->condition.kind == COND_ONCE_PER_GAME && once_used(s, p, c, (int)ev->attack)) {
        duel_illegal(j, "master:attack.condition", "%s's %s declared %s, which is usable once per game and was "
                     "declared before.", duel_who(s, p), c->name, a->name);
        return;
    }
    if (a->condition.kind != COND_ONCE_PER_GAME && !duel_condition_met(s, p, c, a->condition)) {
        duel_illegal(j, "master:attack.condition", "%s's %s declared %s without meeting its condition (%s %d).",
                     duel_who(s, p), c->name, a->name, cond_kind_name(a->condition.kind), (int)a->condition.amount);
        return;
    }
    unsigned mask = duel_choosing(s, a->effects, a->n_effects, p);
    if (chooses(a) && duel_monsters_of(s, d)) {
        /* master.md: "If opponent controls no monsters, monsters may attack
         * LP directly." -- and only then */
        if (ev->target.kind == OL_REF_PLAYER) {
            duel_illegal(j, "master:attack.direct", "%s's %s aimed %s at %s directly, but %s.", duel_who(s, p), c->name,
                         a->name, ol_player_name(ev->target.p),
                         (int)ev->target.p != d ? "a player attacks only the opponent"
                                                : "the opponent controls monsters");
            return;
        }
        /* master.md: "Target (LP, opposing monster, board, or global)." --
         * an attack that chooses a monster aims at one of the opponent's */
        if ((int)ev->target.p != d || !duel_monster_at(s, d, ev->target.slot)) {
            duel_illegal(j, "master:attack.target", "%s's %s aimed %s at %s's Monster Zone %d, not at a monster of "
                         "the opponent.", duel_who(s, p), c->name, a->name, ol_player_name(ev->target.p),
                         ev->target.slot);
            return;
        }
    } else if (ev->target.kind != OL_REF_PLAYER || (int)ev->target.p != d) {
        /* master.md: "If opponent controls no monsters, monsters may attack
         * LP directly."; RULINGS M7: an attack that chooses no monster
         * names the opponent */
        duel_illegal(j, chooses(a) ? "master:attack.direct" : "master:M7",
                     "%s's %s aimed %s at %s; %s.", duel_who(s, p), c->name, a->name,
                     ev->target.kind == OL_REF_PLAYER ? "its own player" : "a monster",
                     chooses(a) ? "the opponent controls no monsters, so the attack is direct, at the opponent"
                                : "an attack that chooses no monster names the opponent");
        return;
    }
    if (pay_exactly(j, p, &a->cost, "master:attack.cost", a->name))
        return;
    duel_side *sd = P(s, p);
    if (a->condition.kind == COND_ONCE_PER_GAME && sd->n_once < DUEL_ONCE_MAX) {
        DUEL_SET(s, sd->once[sd->n_once].card, c);
        DUEL_SET(s, sd->once[sd->n_once].index, (uint8_t)ev->attack);
        DUEL_SET(s, sd->n_once, sd->n_once + 1);
    }
    duel_declare_attack(s, ev->slot, ev->target);
    DUEL_SET(s, s->attack_index, (uint8_t)ev->attack);
    DUEL_SET(s, s->attack_card, c);
    DUEL_SET(s, s->attack_chose, (uint8_t)mask);
}

/* master.md, Damage Resolution: the attack's effects in order, damage
 * against DEF; nothing when the attack fizzled, its attacker left the field
 * or Attack Position, or its target monster left the field (M8, A16, A17). */
static void fight(duel_state *s)
{
    duel_monster *att = duel_monster_at(s, s->turn, s->attacker);
    /* A17: "... or whose target monster is gone, resolves none of its
     * effects" -- not even those that do not act on it */
    int gone = s->attack_target.kind == OL_REF_MONSTER &&
               !duel_monster_at(s, s->attack_target.p, s->attack_target.slot);
    if (!s->attack_on || s->fizzled || !att || att->pos != OL_POS_AP || gone) {
        duel_end_attack(s);
        return;
    }
    const master_attack *a = &s->attack_card->master.attacks[s->attack_index];
    /* M7: the attack names one target; every effect of it that chooses a
     * monster aims at that one */
    ol_ref targets[CARD_MAX_EFFECTS];
    for (int i = 0; i < a->n_effects; i++)
        targets[i] = s->attack_target;
    duel_apply_effects(s, s->turn, a->effects, a->n_effects, targets, a->n_effects, s->attack_chose, s->attacker);
    duel_end_attack(s);
}

/* ---- the format ---------------------------------------------------------------- */

static const duel_format master_format = {
    .start = start,
    /* the Mana Zone */
    .turn_begins = turn_begins,
    .own = {[OL_MANA] = do_mana, [OL_MANA_REMOVE] = do_mana_remove},
    .obligations = obligations,
    .pay = pay,
    /* summons and attacks */
    .summon = summon,
    .attack = attack, .fight = fight, .condition = condition,
    /* read from each card's "master" members (fixtures/cards/README.md 6) */
    .effects = effects_of, .printed = printed, .def = def_of, .ongoing = ongoing,
    .board = &master_board,
    .format = OL_FORMAT_MASTER,
    .prefix = "master",
    .has_mana = 1,
    /* master.md: "Mana Summon: play any monster by paying its mana cost." --
     * a Monster card, which a Mana Summon of any other kind breaks */
    .rule_mana_summon = "master:summon.mana",
    /* M12: every card that enters play -- "evolved into" too -- comes
     * from its player's hand (master.md says no more of an evolution's) */
    .rule_evolve_hand = "master:field.from_hand",
    /* master.md: "Mana Step ... Selection Step ... Main/Spell Phase ...
     * Summon Phase": the Mana Step opens each turn, Player 1 selects in
     * their first (M11), summons have their own phase */
    .first_step = DUEL_MANA,
    .first_turn_selects = 1,
    .summon_step = DUEL_SUMMON,
    .main_words = "Main/Spell Phase",
    /* M6: a monster in Defense Position cannot attack */
    .rule_attack_dp = "master:M6",
    /* master.md: "Shot-clock: 60 seconds per decision." */
    .clock_ms = 60000,
    .clock_rule = "master:clock.shot",
};

int master_start(master_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)
{
    return duel_start(s, &master_format, db, memo, header, v);
}

/* master.md, "Deck Size & Construction": "60 cards total" (the deck_size
 * lever: "Deck size: 60 (default); 50 or 70 in experimental formats."),
 * "up to 3 copies of each card", "Prime Evolutions and Prime Singulars are
 * 1x (singleton)" -- the shared checks of verifiers/deck.c, one row per
 * rule id in report order. */
static const deck_rule_info deck_rows[] = {
    {"openlog:cards", "every card is in the match's card database", deck_check_known},
    {"master:deck.size", "exactly 60 cards (or the deck_size lever)", deck_check_size},
    {"master:deck.copies", "at most 3 copies of a card (by name)", deck_check_copies},
    {"master:deck.primes", "Prime Evolutions and Prime Singulars at most 1 copy", deck_check_primes},
};

static const deck_format master_deck = {
    .title = "Master",
    .shape = DECK_SHAPE_MAIN,
    .size = 60,
    .size_lever = "deck_size",
    .copies = 3,
    .prime_copies = 1,
    .min_monsters = 0,
    .rules = deck_rows,
    .n_rules = sizeof deck_rows / sizeof deck_rows[0],
};

DUEL_VERIFIER_OPS(master_verifier_ops, master_format, OL_FORMAT_MASTER, "Master", MASTER_ENGINE, master_rules,
                  master_deck, master_cards, STARTING_LP);
