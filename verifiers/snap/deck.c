/* deck.c -- Snap's deck construction rules (snap.md 4, 14.2), as rows the
 * shared mechanism (verifiers/deck.h) applies.
 *
 * What.  The rows of snap_deck: each rule id of Snap's deck construction,
 * its summary and its check, in the order deck_check() reports them.  The
 * engine shows them through verifier_ops.deck (snap.c).
 *
 * Rulings (the rulebook is silent or overlaps; the shared ones -- unknown
 * ids, the reserve's echo of the lineup's Prime Singular -- are deck.c's):
 *  - Snap counts.  A wrong total is one mistake: when there are not 25
 *    cards, snap:4.1 reports it, naming both list sizes; snap:4.2 and 4.3
 *    report a wrong list size only when the total is right (cards in the
 *    wrong list).  The kind of each card is always checked.
 *  - The Prime Singular in the reserve restates its lineup slot: it counts
 *    once for the singleton rule and not at all towards the 25.  A Prime
 *    Singular in the lineup that the reserve does not list breaks
 *    snap:14.2; one in the reserve that the lineup does not hold breaks
 *    snap:4.6.3.
 *  - snap:4.5 counts the distinct Prime Singulars of the lineup; a second
 *    copy of the same one is a singleton matter (4.4), not a second Prime.
 *
 * Pure: no I/O.
 */
#include <string.h>

#include "verifiers/deck.h"
#include "verifiers/snap/snap.h"

static size_t snap_total(const deck_ctx *x)
{
    return x->deck->monsters.n + x->deck->supports.n;
}

/* snap 4.1: "A Snap deck consists of exactly 25 cards." */
static int snap_4_1(deck_ctx *x)
{
    deck_msg m = {.len = 0};

    if (snap_total(x) == x->fmt->size)
        return 0;
    deck_msg_whose(&m, x, "deck");
    deck_msg_str(&m, " has ");
    deck_msg_uint(&m, snap_total(x));
    deck_msg_str(&m, " cards (");
    deck_msg_uint(&m, x->deck->monsters.n);
    deck_msg_str(&m, " monsters, ");
    deck_msg_uint(&m, x->deck->supports.n);
    deck_msg_str(&m, " supports); a Snap deck has exactly 25 (20 supports, 5 monsters).");
    deck_report(x, &m);
    return 0;
}

/* Cards in the wrong list: reported only when the total is right, since
 * 4.1 has already reported a wrong total with both list sizes. */
static void snap_list_size(deck_ctx *x, const ol_idlist *l, size_t want,
                           const char *noun, const char *requirement)
{
    deck_msg m = {.len = 0};

    if (snap_total(x) != x->fmt->size || l->n == want)
        return;
    deck_msg_whose(&m, x, noun);
    deck_msg_str(&m, " has ");
    deck_msg_uint(&m, l->n);
    deck_msg_str(&m, " cards; ");
    deck_msg_str(&m, requirement);
    deck_report(x, &m);
}

/* 4.2 and 4.3 have one shape: a list of a fixed size whose cards must all
 * be of some kinds.  One row each; one check serves both. */
typedef struct {
    deck_list list;
    size_t size;
    int (*kind_ok)(card_kind k);
    const char *noun, *size_rule, *kind_rule;
} snap_list_rule;

static const snap_list_rule snap_lineup_rule = {
    DECK_LIST_MONSTERS, SNAP_LINEUP, card_kind_is_monster, "lineup",
    "a Snap deck has exactly 5 Monster cards, a Prime Singular among them.",
    "the five lineup cards must be Monsters or a Prime Singular."};
static const snap_list_rule snap_supports_rule = {
    DECK_LIST_SUPPORTS, SNAP_SUPPORTS, card_kind_is_support, "support deck",
    "a Snap deck has exactly 20 Support cards (Spells and Counters).",
    "Support cards must be Spells or Counters."};

static int keep_list_misfit(const deck_ctx *x, const deck_entry *e)
{
    const snap_list_rule *r = x->rule_data;
    return e->list == r->list && deck_known(e) && !r->kind_ok(e->c->kind);
}

static void say_list_misfit(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    const snap_list_rule *r = x->rule_data;
    deck_msg_whose(m, x, r->noun);
    deck_msg_str(m, " lists ");
    deck_msg_card(m, g->e[0]);
    deck_msg_str(m, ", ");
    deck_msg_kind(m, g->e[0]);
    deck_msg_str(m, "; ");
    deck_msg_str(m, r->kind_rule);
}

static int snap_list_check(deck_ctx *x, const snap_list_rule *r, const ol_idlist *l)
{
    snap_list_size(x, l, r->size, r->noun, r->size_rule);
    x->rule_data = r;
    int rc = deck_report_groups(x, keep_list_misfit, DECK_BY_ID, say_list_misfit);
    x->rule_data = NULL;
    return rc;
}

/* snap 4.2: "Each deck contains exactly five (5) Monster cards."
 * snap 13.8: Evolution cards "are not Monsters for deck construction". */
static int snap_4_2(deck_ctx *x)
{
    return snap_list_check(x, &snap_lineup_rule, &x->deck->monsters);
}

/* snap 4.3: "Each deck contains exactly twenty (20) Support cards,
 * consisting of any mix of: Spell cards, Counter cards". */
static int snap_4_3(deck_ctx *x)
{
    return snap_list_check(x, &snap_supports_rule, &x->deck->supports);
}


static void say_singleton(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    deck_msg_whose(m, x, "deck");
    deck_msg_str(m, " lists ");
    deck_msg_group_card(m, g);
    deck_msg_str(m, " ");
    deck_msg_uint(m, g->n);
    deck_msg_str(m, " times, in ");
    deck_msg_where(m, g);
    deck_msg_str(m, "; each card name may appear only once in a Snap deck.");
}

/* Do two entries `deck_keep_for_copies` accepts share a name?  A hash of each
 * name in a small open table, names compared only when hashes meet: the
 * usual legal deck is cleared without sorting.  1 also when the deck is
 * too large for the table (then the grouping decides). */

static int snap_4_4(deck_ctx *x)
{
    deck_grouping g;
    if (!deck_names_repeat(x))
        return 0;   /* every group would have one entry: nothing to report */
    int rc = deck_grouping_build(x, deck_keep_for_copies, DECK_BY_NAME, &g);

    for (size_t i = 0; i < g.n; i++) {
        deck_msg m = {.len = 0};
        if (g.g[i].n < 2)
            continue;
        say_singleton(x, &g.g[i], &m);
        deck_report(x, &m);
    }
    deck_grouping_free(&g);
    return rc;
}

static int keep_lineup_prime(const deck_ctx *x, const deck_entry *e)
{
    (void)x;
    return e->list == DECK_LIST_MONSTERS && deck_is_prime_singular(e);
}

/* snap 4.5: "By default, a deck may include at most one (1) Prime
 * Singular." */
static int snap_4_5(deck_ctx *x)
{
    deck_grouping g;
    deck_msg m = {.len = 0};
    int rc = deck_grouping_build(x, keep_lineup_prime, DECK_BY_NAME, &g);

    if (g.n > 1) {
        deck_msg_whose(&m, x, "lineup");
        deck_msg_str(&m, " has ");
        deck_msg_uint(&m, g.n);
        deck_msg_str(&m, " Prime Singulars, ");
        for (size_t i = 0; i < g.n; i++) {
            deck_msg_str(&m, i == 0 ? "" : i + 1 == g.n ? " and " : ", ");
            deck_msg_card(&m, g.g[i].e[0]);
        }
        deck_msg_str(&m, "; a Snap deck may include at most one Prime Singular.");
        deck_report(x, &m);
    }
    deck_grouping_free(&g);
    return rc;
}

static int reserve_kind_allowed(card_kind k)
{
    return card_kind_is_evolution(k) || k == CARD_PRIME_SINGULAR;
}

static int keep_reserve_misfit(const deck_ctx *x, const deck_entry *e)
{
    (void)x;
    return e->list == DECK_LIST_RESERVE && deck_known(e) && !reserve_kind_allowed(e->c->kind);
}

static void say_reserve_misfit(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    deck_msg_whose(m, x, "reserve");
    deck_msg_str(m, " holds ");
    deck_msg_card(m, g->e[0]);
    deck_msg_str(m, ", ");
    deck_msg_kind(m, g->e[0]);
    deck_msg_str(m, "; the Monster Reserve may hold only Evolution cards and the lineup's Prime Singular.");
}

/* snap 4.6.2: "The Monster Reserve may contain: Evolution cards
 * corresponding to the deck's Monsters; Prime Singular cards included in
 * the Monster lineup.  No other cards may be placed in the Monster
 * Reserve." */
static int snap_4_6_2(deck_ctx *x)
{
    return deck_report_groups(x, keep_reserve_misfit, DECK_BY_ID, say_reserve_misfit);
}

/* The lineup card an Evolution belongs to, or NULL. */
static const card *line_base(const deck_ctx *x, const deck_entry *e)
{
    return card_kind_is_evolution(e->c->kind) ? cards_line_base(x->db, e->c) : NULL;
}

static int keep_stray_reserve(const deck_ctx *x, const deck_entry *e)
{
    const card *base;

    if (e->list != DECK_LIST_RESERVE || !deck_known(e) || !reserve_kind_allowed(e->c->kind))
        return 0;
    if (e->c->kind == CARD_PRIME_SINGULAR)
        return !deck_in_lineup(x, e->id);
    base = line_base(x, e);
    return !base || !deck_in_lineup(x, base->id);
}

static void say_stray_reserve(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    const deck_entry *e = g->e[0];
    const card *base = line_base(x, e);

    deck_msg_whose(m, x, "reserve");
    deck_msg_str(m, " holds ");
    deck_msg_card(m, e);
    deck_msg_str(m, ", ");
    deck_msg_kind(m, e);
    if (base) {
        deck_msg_str(m, " of the ");
        deck_msg_str(m, base->name);
        deck_msg_str(m, " (");
        deck_msg_str(m, base->id);
        deck_msg_str(m, ") line");
    }
    deck_msg_str(m, ", but the lineup does not include ");
    deck_msg_str(m, base ? "that Monster" : "it");
    deck_msg_str(m, "; reserve cards must correspond to the five lineup Monsters.");
}

/* snap 4.6.3: "it may contain only cards that directly correspond to the
 * five Monster cards in the deck." */
static int snap_4_6_3(deck_ctx *x)
{
    return deck_report_groups(x, keep_stray_reserve, DECK_BY_ID, say_stray_reserve);
}

static int keep_prime_outside_reserve(const deck_ctx *x, const deck_entry *e)
{
    return e->list == DECK_LIST_MONSTERS && deck_is_prime_singular(e)
           && !deck_in_reserve(x, e->id);
}

static void say_prime_outside_reserve(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    deck_msg_whose(m, x, "lineup");
    deck_msg_str(m, " includes the Prime Singular ");
    deck_msg_card(m, g->e[0]);
    deck_msg_str(m, ", but the reserve does not list it; a Prime Singular begins the game"
               " in the Monster Reserve.");
}

/* snap 14.2: "Prime Singulars begin the game in the Monster Reserve."
 * openlog.md 5: the reserve holds "the Prime Singular if one is among the
 * monsters". */
static int snap_14_2(deck_ctx *x)
{
    return deck_report_groups(x, keep_prime_outside_reserve, DECK_BY_ID, say_prime_outside_reserve);
}

/* One row per rule id, in report order. */
static const deck_rule_info rows[] = {
    {"openlog:cards", "every card is in the match's card database", deck_check_known},
    {"snap:4.1", "exactly 25 cards: 5 monsters and 20 supports", snap_4_1},
    {"snap:4.2", "the lineup (\"monsters\") is exactly 5 cards, each a Monster or a Prime Singular", snap_4_2},
    {"snap:4.3", "the support deck (\"supports\") is exactly 20 cards, each a Spell or a Counter", snap_4_3},
    {"snap:4.4", "each card name appears once in lineup, supports and reserve", snap_4_4},
    {"snap:4.5", "at most one Prime Singular in the lineup", snap_4_5},
    {"snap:4.6.2", "the reserve holds only Evolutions and a Prime Singular", snap_4_6_2},
    {"snap:4.6.3", "reserve cards belong to the lines of the lineup or are its Prime Singular", snap_4_6_3},
    {"snap:14.2", "the lineup's Prime Singular is also listed in the reserve", snap_14_2},
};

const deck_format snap_deck = {
    .title = "Snap",
    .shape = DECK_SHAPE_LINEUP,
    .size = SNAP_LINEUP + SNAP_SUPPORTS,
    .copies = 1,
    .prime_copies = 1,
    .min_monsters = SNAP_LINEUP,
    .rules = rows,
    .n_rules = sizeof rows / sizeof rows[0],
};
