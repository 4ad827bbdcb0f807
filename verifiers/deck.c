/* deck.c -- is this decklist legal for its format?
 *
 * What.  deck_check() applies every deck construction rule of a format to a
 * decklist (openlog.md 5) and lists every rule it breaks, each violation a
 * sentence a judge can read aloud: which card, and what the rule requires.
 * A match whose header holds an illegal deck cannot start, so the verdict
 * must name the exact rule (snap:4.4) and the exact card.
 *
 * Why a table.  The rules of a format are data: one row per rule id with
 * its check function and a summary (SNAP_RULES and friends below).  The
 * same rows give deck_rules(), so `arbiter deck rules`, the documentation
 * and the tests all enumerate the one list; a rule added here without a
 * test fails `make check` (tests/test_deck.c).  Each check quotes the
 * rulebook line it enforces and cites that same id.
 *
 * How.  The decklist is flattened once into entries (id, card, which list,
 * position).  Rules that compare cards -- singleton, copy limits, unknown
 * ids -- group the entries by name or by id after sorting, so a hostile
 * list of thousands of ids costs n log n, not n^2.  Violations come out in
 * table order, and inside a rule in the order the cards appear.
 *
 * Rulings this file makes (the rulebooks are silent or overlap):
 *  - Unknown ids.  A card the database does not know is reported once under
 *    `openlog:cards` (openlog.md 4: the header names the database) and is
 *    otherwise only counted: its kind and name are unknown, so no other
 *    rule can judge it.
 *  - Snap counts.  A wrong total is one mistake: when there are not 25
 *    cards, snap:4.1 reports it, naming both list sizes; snap:4.2 and 4.3
 *    report a wrong list size only when the total is right (cards in the
 *    wrong list).  The kind of each card is always checked.
 *  - The Prime Singular in the reserve.  snap 4.6.2 and 14.2 put the
 *    lineup's Prime Singular in the Monster Reserve, and openlog.md 5 lists
 *    it there too.  It is one card listed in two places: its reserve entry
 *    restates the lineup slot, so it counts once for the singleton rule and
 *    not at all towards the 25.  A Prime Singular in the lineup that the
 *    reserve does not list breaks snap:14.2; one in the reserve that the
 *    lineup does not hold breaks snap:4.6.3.
 *  - snap:4.5 counts the distinct Prime Singulars of the lineup; a second
 *    copy of the same one is a singleton matter (4.4), not a second Prime.
 *  - Advanced and Master copy limits count copies by card name, like
 *    Snap's singleton rule.  A Prime is judged by the primes rule only.
 *  - Advanced and Master have no numbered sections; their ids name the
 *    bullet of "Deck Size & Construction": <format>:deck.size, .monsters,
 *    .copies, .primes.
 *
 * Pure: no I/O; the only allocations are freed before deck_check returns.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verifiers/deck.h"

/* ---- Sentences ----------------------------------------------------------
 * verifiers/ has no stdio, so messages are built by appending pieces to a
 * fixed buffer.  An overlong message is cut on a UTF-8 boundary and ends
 * in "..." rather than overflowing or splitting a character. */

typedef struct {
    char s[DECK_MSG_MAX];
    size_t len;
    int cut;
} msg;

static void msg_str(msg *m, const char *s)
{
    size_t k = strlen(s);
    size_t room = sizeof m->s - 1 - m->len;

    if (m->cut)
        return;
    if (k <= room) {
        memcpy(m->s + m->len, s, k);
        m->len += k;
        m->s[m->len] = '\0';
        return;
    }
    memcpy(m->s + m->len, s, room);
    m->len = sizeof m->s - 4;          /* keep room for "..." */
    while (m->len > 0 && ((unsigned char)m->s[m->len] & 0xC0) == 0x80)
        m->len--;
    memcpy(m->s + m->len, "...", 4);
    m->len += 3;
    m->cut = 1;
}

static void msg_uint(msg *m, size_t v)
{
    char digits[24];
    size_t i = sizeof digits;

    digits[--i] = '\0';
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    msg_str(m, digits + i);
}

/* ---- The flattened decklist ---------------------------------------------- */

typedef enum { LIST_MONSTERS, LIST_SUPPORTS, LIST_RESERVE, LIST_MAIN } deck_list;

/* Where a card sits, as a judge says it. */
static const char *const list_phrase[] = {
    [LIST_MONSTERS] = "lineup",
    [LIST_SUPPORTS] = "support deck",
    [LIST_RESERVE] = "reserve",
    [LIST_MAIN] = "deck",
};

typedef struct {
    const char *id;
    const card *c;       /* NULL when the database does not know the id    */
    deck_list list;
    size_t pos;          /* position in the decklist, across its lists     */
    int echo;            /* snap: the reserve entry restating the lineup's
                            Prime Singular (see the rulings above)         */
} entry;

/* Entries that share a key, in decklist order. */
typedef struct {
    entry **e;
    size_t n;
} group;

typedef struct {
    entry **sorted;
    group *g;
    size_t n;
} grouping;

/* ---- Formats ------------------------------------------------------------- */

typedef struct deck_ctx deck_ctx;
typedef int check_fn(deck_ctx *x);

typedef struct {
    const char *title;          /* "Snap", as sentences name the format    */
    size_t size;                /* cards in the deck                       */
    size_t copies;              /* copies of one card, Primes excepted     */
    size_t prime_copies;        /* copies of one Prime                     */
    size_t min_monsters;        /* Monsters the deck must include          */
    const char *size_lever;     /* the lever that sets the size, or NULL   */
    const deck_rule_info *info; /* the rule table: ids and summaries ...   */
    check_fn *const *check;     /* ... and, row for row, their checks      */
    size_t n_rules;
} format_spec;

struct deck_ctx {
    const format_spec *fmt;
    const ol_header *levers;    /* the match's levers, or NULL             */
    const cards *db;
    const ol_deck *deck;
    const char *who;
    entry *ents;
    size_t n_ents;
    const char **lineup;        /* snap: lineup and reserve ids, sorted    */
    const char **reserve;       /* for bsearch                             */
    const char *rule;           /* id of the row being checked             */
    const void *list_rule;      /* snap: the list rule being checked (4.2, 4.3) */
    deck_violation *out;
    size_t max;
    size_t found;
};

static void report(deck_ctx *x, const msg *m)
{
    if (x->found < x->max) {
        deck_violation *v = &x->out[x->found];
        size_t k = strlen(x->rule);

        assert(k < sizeof v->rule);
        memcpy(v->rule, x->rule, k + 1);
        memcpy(v->msg, m->s, m->len + 1);
    }
    x->found++;
}

/* Opens every sentence: "p1's lineup", or "The lineup" without a player. */
static void msg_whose(msg *m, const deck_ctx *x, const char *noun)
{
    if (x->who && *x->who) {
        msg_str(m, x->who);
        msg_str(m, "'s ");
    } else {
        msg_str(m, "The ");
    }
    msg_str(m, noun);
}

/* "Ember Whelp (cor-ember-whelp)".  Only known cards are named so: every
 * rule but openlog:cards keeps known entries only, and that one says the
 * bare id itself. */
static void msg_card(msg *m, const entry *e)
{
    msg_str(m, e->c->name);
    msg_str(m, " (");
    msg_str(m, e->c->id);
    msg_str(m, ")");
}

static const char *kind_phrase(card_kind k)
{
    static const char *const phrase[CARD_KIND_COUNT] = {
        [CARD_MONSTER] = "a Monster",
        [CARD_SPELL] = "a Spell",
        [CARD_COUNTER] = "a Counter",
        [CARD_EVOLUTION] = "an Evolution",
        [CARD_PRIME_EVOLUTION] = "a Prime Evolution",
        [CARD_PRIME_SINGULAR] = "a Prime Singular",
    };
    return phrase[k];   /* cards_add() refuses a kind outside the enum */
}

static void msg_kind(msg *m, const entry *e)
{
    msg_str(m, kind_phrase(e->c->kind));
}

/* ---- Grouping -------------------------------------------------------------
 * Sorting pointers by key then position puts equal keys together with their
 * first appearance first; sorting the groups by that first position gives
 * the order a judge reads the decklist in. */

typedef enum { BY_ID, BY_NAME } group_key;
typedef int keep_fn(const deck_ctx *x, const entry *e);

/* The rules that group by name (4.4, 4.5, the copy limits) keep known
 * entries only. */
static const char *entry_name(const entry *e)
{
    return e->c->name;
}

static int cmp_pos(const entry *a, const entry *b)
{
    return (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_by_id(const void *pa, const void *pb)
{
    const entry *a = *(entry *const *)pa, *b = *(entry *const *)pb;
    int r = strcmp(a->id, b->id);
    return r ? r : cmp_pos(a, b);
}

static int cmp_by_name(const void *pa, const void *pb)
{
    const entry *a = *(entry *const *)pa, *b = *(entry *const *)pb;
    int r = strcmp(entry_name(a), entry_name(b));
    return r ? r : cmp_pos(a, b);
}

static int cmp_group(const void *pa, const void *pb)
{
    return cmp_pos(((const group *)pa)->e[0], ((const group *)pb)->e[0]);
}

static void grouping_free(grouping *g)
{
    free(g->sorted);   /* g->g lives in the same block */
    memset(g, 0, sizeof *g);
}

/* Group the entries `keep` accepts by id or name.  Returns 0 or
 * CARDS_ENOMEM; free with grouping_free() either way.  A failed grouping
 * holds no groups (out->n is 0), so callers loop over the groups without
 * testing the result first.  Most rules keep nothing in a legal deck: then
 * nothing is allocated or sorted. */
static int grouping_build(const deck_ctx *x, keep_fn *keep, group_key key,
                          grouping *out)
{
    size_t n = 0, kept = 0;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < x->n_ents; i++)
        kept += keep(x, &x->ents[i]) != 0;
    if (kept == 0)
        return 0;
    out->sorted = malloc(kept * (sizeof *out->sorted + sizeof *out->g));
    if (!out->sorted)
        return CARDS_ENOMEM;
    out->g = (group *)(out->sorted + kept);
    for (size_t i = 0; i < x->n_ents; i++)
        if (keep(x, &x->ents[i]))
            out->sorted[n++] = &x->ents[i];
    qsort(out->sorted, n, sizeof *out->sorted, key == BY_ID ? cmp_by_id : cmp_by_name);
    for (size_t i = 0; i < n; i++) {
        int same = 0;
        if (i > 0) {
            const entry *a = out->sorted[i - 1], *b = out->sorted[i];
            same = key == BY_ID ? !strcmp(a->id, b->id)
                                : !strcmp(entry_name(a), entry_name(b));
        }
        if (same) {
            out->g[out->n - 1].n++;
        } else {
            out->g[out->n].e = &out->sorted[i];
            out->g[out->n].n = 1;
            out->n++;
        }
    }
    qsort(out->g, out->n, sizeof *out->g, cmp_group);
    return 0;
}

/* Report one violation per group `keep` accepts, worded by `say`: the
 * shape of most rules ("each card that ... breaks the rule"). */
typedef void say_fn(const deck_ctx *x, const group *g, msg *m);

static int report_groups(deck_ctx *x, keep_fn *keep, group_key key, say_fn *say)
{
    grouping g;
    int rc = grouping_build(x, keep, key, &g);

    for (size_t i = 0; i < g.n; i++) {
        msg m = {.len = 0};
        say(x, &g.g[i], &m);
        report(x, &m);
    }
    grouping_free(&g);
    return rc;
}

/* ---- Lookups -------------------------------------------------------------- */

static int cmp_str(const void *pa, const void *pb)
{
    return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* A sorted copy of a list's ids, for bsearch; NULL when out of memory. */
static const char **sorted_ids(const ol_idlist *l)
{
    const char **ids = malloc((l->n ? l->n : 1) * sizeof *ids);

    if (!ids)
        return NULL;
    for (size_t i = 0; i < l->n; i++)
        ids[i] = l->ids[i] ? l->ids[i] : "";
    qsort(ids, l->n, sizeof *ids, cmp_str);
    return ids;
}

static int ids_have(const char **ids, size_t n, const char *id)
{
    return n > 0 && bsearch(&id, ids, n, sizeof *ids, cmp_str) != NULL;
}

static int known(const entry *e)
{
    return e->c != NULL;
}

static int in_lineup(const deck_ctx *x, const char *id)
{
    return ids_have(x->lineup, x->deck->monsters.n, id);
}

static int in_reserve(const deck_ctx *x, const char *id)
{
    return ids_have(x->reserve, x->deck->reserve.n, id);
}

static int is_prime_singular(const entry *e)
{
    return e->c && e->c->kind == CARD_PRIME_SINGULAR;
}

/* ---- Rules of every format ---------------------------------------------- */

static int keep_unknown(const deck_ctx *x, const entry *e)
{
    (void)x;
    return !known(e);
}

static void say_unknown(const deck_ctx *x, const group *g, msg *m)
{
    msg_whose(m, x, "deck");
    msg_str(m, " lists ");
    msg_str(m, g->e[0]->id);
    if (g->n > 1) {
        msg_str(m, " (");
        msg_uint(m, g->n);
        msg_str(m, " times)");
    }
    msg_str(m, ", which is not in the card database ");
    msg_str(m, cards_set(x->db));
    msg_str(m, "@");
    msg_str(m, cards_version(x->db));
    msg_str(m, "; every card must be one the database knows.");
}

/* openlog.md 4: "`cards` | string "<set>@<version>" | the card database";
 * snap 5.3: "the companion app or rules database is considered
 * authoritative".  A card it does not know has no rules to play by. */
static int check_known(deck_ctx *x)
{
    return report_groups(x, keep_unknown, BY_ID, say_unknown);
}

/* ---- Snap ------------------------------------------------------------------ */

#define SNAP_LINEUP 5
#define SNAP_SUPPORTS 20

static size_t snap_total(const deck_ctx *x)
{
    return x->deck->monsters.n + x->deck->supports.n;
}

/* snap 4.1: "A Snap deck consists of exactly 25 cards." */
static int snap_4_1(deck_ctx *x)
{
    msg m = {.len = 0};

    if (snap_total(x) == x->fmt->size)
        return 0;
    msg_whose(&m, x, "deck");
    msg_str(&m, " has ");
    msg_uint(&m, snap_total(x));
    msg_str(&m, " cards (");
    msg_uint(&m, x->deck->monsters.n);
    msg_str(&m, " monsters, ");
    msg_uint(&m, x->deck->supports.n);
    msg_str(&m, " supports); a Snap deck has exactly 25 (20 supports, 5 monsters).");
    report(x, &m);
    return 0;
}

/* Cards in the wrong list: reported only when the total is right, since
 * 4.1 has already reported a wrong total with both list sizes. */
static void snap_list_size(deck_ctx *x, const ol_idlist *l, size_t want,
                           const char *noun, const char *requirement)
{
    msg m = {.len = 0};

    if (snap_total(x) != x->fmt->size || l->n == want)
        return;
    msg_whose(&m, x, noun);
    msg_str(&m, " has ");
    msg_uint(&m, l->n);
    msg_str(&m, " cards; ");
    msg_str(&m, requirement);
    report(x, &m);
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
    LIST_MONSTERS, SNAP_LINEUP, card_kind_is_monster, "lineup",
    "a Snap deck has exactly 5 Monster cards, a Prime Singular among them.",
    "the five lineup cards must be Monsters or a Prime Singular."};
static const snap_list_rule snap_supports_rule = {
    LIST_SUPPORTS, SNAP_SUPPORTS, card_kind_is_support, "support deck",
    "a Snap deck has exactly 20 Support cards (Spells and Counters).",
    "Support cards must be Spells or Counters."};

static int keep_list_misfit(const deck_ctx *x, const entry *e)
{
    const snap_list_rule *r = x->list_rule;
    return e->list == r->list && known(e) && !r->kind_ok(e->c->kind);
}

static void say_list_misfit(const deck_ctx *x, const group *g, msg *m)
{
    const snap_list_rule *r = x->list_rule;
    msg_whose(m, x, r->noun);
    msg_str(m, " lists ");
    msg_card(m, g->e[0]);
    msg_str(m, ", ");
    msg_kind(m, g->e[0]);
    msg_str(m, "; ");
    msg_str(m, r->kind_rule);
}

static int snap_list_check(deck_ctx *x, const snap_list_rule *r, const ol_idlist *l)
{
    snap_list_size(x, l, r->size, r->noun, r->size_rule);
    x->list_rule = r;
    int rc = report_groups(x, keep_list_misfit, BY_ID, say_list_misfit);
    x->list_rule = NULL;
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

static int keep_for_copies(const deck_ctx *x, const entry *e)
{
    (void)x;
    return known(e) && !e->echo;
}

/* "in the lineup and the support deck": each list once, in order. */
static void msg_where(msg *m, const group *g)
{
    unsigned seen = 0, said = 0, lists = 0;

    for (size_t i = 0; i < g->n; i++)
        seen |= 1u << g->e[i]->list;
    for (unsigned l = LIST_MONSTERS; l <= LIST_MAIN; l++)
        lists += (seen >> l) & 1u;
    for (unsigned l = LIST_MONSTERS; l <= LIST_MAIN; l++) {
        if (!(seen & (1u << l)))
            continue;
        msg_str(m, said == 0 ? "the " : said + 1 == lists ? " and the " : ", the ");
        msg_str(m, list_phrase[l]);
        said++;
    }
}

/* "Ember Whelp (cor-ember-whelp)", or "the name X (id-a, id-b)" when
 * different ids share the name. */
static void msg_group_card(msg *m, const group *g)
{
    int mixed = 0;
    size_t listed = 0;

    for (size_t i = 1; i < g->n; i++)
        mixed |= strcmp(g->e[i]->id, g->e[0]->id) != 0;
    if (!mixed) {
        msg_card(m, g->e[0]);
        return;
    }
    msg_str(m, "the name ");
    msg_str(m, entry_name(g->e[0]));
    msg_str(m, " (");
    for (size_t i = 0; i < g->n; i++) {
        int repeat = 0;
        for (size_t j = 0; j < i && !repeat; j++)
            repeat = !strcmp(g->e[j]->id, g->e[i]->id);
        if (repeat)
            continue;
        msg_str(m, listed++ ? ", " : "");
        msg_str(m, g->e[i]->id);
    }
    msg_str(m, ")");
}

static void say_singleton(const deck_ctx *x, const group *g, msg *m)
{
    msg_whose(m, x, "deck");
    msg_str(m, " lists ");
    msg_group_card(m, g);
    msg_str(m, " ");
    msg_uint(m, g->n);
    msg_str(m, " times, in ");
    msg_where(m, g);
    msg_str(m, "; each card name may appear only once in a Snap deck.");
}

/* Do two entries `keep_for_copies` accepts share a name?  A hash of each
 * name in a small open table, names compared only when hashes meet: the
 * usual legal deck is cleared without sorting.  1 also when the deck is
 * too large for the table (then the grouping decides). */
static int names_repeat(const deck_ctx *x)
{
    enum { SLOTS = 128 };
    const char *name[SLOTS];
    uint32_t hash[SLOTS];
    size_t used = 0;

    memset(name, 0, sizeof name);
    for (size_t i = 0; i < x->n_ents; i++) {
        const entry *e = &x->ents[i];
        if (!keep_for_copies(x, e))
            continue;
        if (++used > SLOTS / 2)
            return 1;
        const char *nm = entry_name(e);
        uint32_t h = cards_str_hash(nm);
        for (uint32_t k = h & (SLOTS - 1);; k = (k + 1) & (SLOTS - 1)) {
            if (!name[k]) {
                name[k] = nm;
                hash[k] = h;
                break;
            }
            if (hash[k] == h && !strcmp(name[k], nm))
                return 1;
        }
    }
    return 0;
}

/* snap 4.4: "Each card name may appear only once per deck." -- across
 * Monsters, Spells, Counters, Evolutions and Prime Singulars. */
static int snap_4_4(deck_ctx *x)
{
    grouping g;
    if (!names_repeat(x))
        return 0;   /* every group would have one entry: nothing to report */
    int rc = grouping_build(x, keep_for_copies, BY_NAME, &g);

    for (size_t i = 0; i < g.n; i++) {
        msg m = {.len = 0};
        if (g.g[i].n < 2)
            continue;
        say_singleton(x, &g.g[i], &m);
        report(x, &m);
    }
    grouping_free(&g);
    return rc;
}

static int keep_lineup_prime(const deck_ctx *x, const entry *e)
{
    (void)x;
    return e->list == LIST_MONSTERS && is_prime_singular(e);
}

/* snap 4.5: "By default, a deck may include at most one (1) Prime
 * Singular." */
static int snap_4_5(deck_ctx *x)
{
    grouping g;
    msg m = {.len = 0};
    int rc = grouping_build(x, keep_lineup_prime, BY_NAME, &g);

    if (g.n > 1) {
        msg_whose(&m, x, "lineup");
        msg_str(&m, " has ");
        msg_uint(&m, g.n);
        msg_str(&m, " Prime Singulars, ");
        for (size_t i = 0; i < g.n; i++) {
            msg_str(&m, i == 0 ? "" : i + 1 == g.n ? " and " : ", ");
            msg_card(&m, g.g[i].e[0]);
        }
        msg_str(&m, "; a Snap deck may include at most one Prime Singular.");
        report(x, &m);
    }
    grouping_free(&g);
    return rc;
}

static int reserve_kind_allowed(card_kind k)
{
    return card_kind_is_evolution(k) || k == CARD_PRIME_SINGULAR;
}

static int keep_reserve_misfit(const deck_ctx *x, const entry *e)
{
    (void)x;
    return e->list == LIST_RESERVE && known(e) && !reserve_kind_allowed(e->c->kind);
}

static void say_reserve_misfit(const deck_ctx *x, const group *g, msg *m)
{
    msg_whose(m, x, "reserve");
    msg_str(m, " holds ");
    msg_card(m, g->e[0]);
    msg_str(m, ", ");
    msg_kind(m, g->e[0]);
    msg_str(m, "; the Monster Reserve may hold only Evolution cards and the lineup's Prime Singular.");
}

/* snap 4.6.2: "The Monster Reserve may contain: Evolution cards
 * corresponding to the deck's Monsters; Prime Singular cards included in
 * the Monster lineup.  No other cards may be placed in the Monster
 * Reserve." */
static int snap_4_6_2(deck_ctx *x)
{
    return report_groups(x, keep_reserve_misfit, BY_ID, say_reserve_misfit);
}

/* The lineup card an Evolution belongs to, or NULL. */
static const card *line_base(const deck_ctx *x, const entry *e)
{
    return card_kind_is_evolution(e->c->kind) ? cards_line_base(x->db, e->c) : NULL;
}

static int keep_stray_reserve(const deck_ctx *x, const entry *e)
{
    const card *base;

    if (e->list != LIST_RESERVE || !known(e) || !reserve_kind_allowed(e->c->kind))
        return 0;
    if (e->c->kind == CARD_PRIME_SINGULAR)
        return !in_lineup(x, e->id);
    base = line_base(x, e);
    return !base || !in_lineup(x, base->id);
}

static void say_stray_reserve(const deck_ctx *x, const group *g, msg *m)
{
    const entry *e = g->e[0];
    const card *base = line_base(x, e);

    msg_whose(m, x, "reserve");
    msg_str(m, " holds ");
    msg_card(m, e);
    msg_str(m, ", ");
    msg_kind(m, e);
    if (base) {
        msg_str(m, " of the ");
        msg_str(m, base->name);
        msg_str(m, " (");
        msg_str(m, base->id);
        msg_str(m, ") line");
    }
    msg_str(m, ", but the lineup does not include ");
    msg_str(m, base ? "that Monster" : "it");
    msg_str(m, "; reserve cards must correspond to the five lineup Monsters.");
}

/* snap 4.6.3: "it may contain only cards that directly correspond to the
 * five Monster cards in the deck." */
static int snap_4_6_3(deck_ctx *x)
{
    return report_groups(x, keep_stray_reserve, BY_ID, say_stray_reserve);
}

static int keep_prime_outside_reserve(const deck_ctx *x, const entry *e)
{
    return e->list == LIST_MONSTERS && is_prime_singular(e)
           && !in_reserve(x, e->id);
}

static void say_prime_outside_reserve(const deck_ctx *x, const group *g, msg *m)
{
    msg_whose(m, x, "lineup");
    msg_str(m, " includes the Prime Singular ");
    msg_card(m, g->e[0]);
    msg_str(m, ", but the reserve does not list it; a Prime Singular begins the game"
               " in the Monster Reserve.");
}

/* snap 14.2: "Prime Singulars begin the game in the Monster Reserve."
 * openlog.md 5: the reserve holds "the Prime Singular if one is among the
 * monsters". */
static int snap_14_2(deck_ctx *x)
{
    return report_groups(x, keep_prime_outside_reserve, BY_ID, say_prime_outside_reserve);
}

/* ---- Advanced and Master ------------------------------------------------
 * advanced "Deck Size & Construction": "40 cards total", "Must include at
 * least 5 Monsters", "up to 2 copies of each card", "Prime Evolutions and
 * Prime Singulars are limited to 1 copy".
 * master "Deck Size & Construction": "60 cards total", "up to 3 copies of
 * each card", "Prime Evolutions and Prime Singulars are 1x (singleton)". */

/* "40 cards total" / "60 cards total" -- or, in Master, the deck_size
 * lever ("Deck size: 60 (default); 50 or 70 in experimental formats."):
 * with a match's levers the sentence speaks of that match's decks. */
static int check_size(deck_ctx *x)
{
    msg m = {.len = 0};
    int by_lever = x->fmt->size_lever && x->levers;
    size_t size = by_lever ? (size_t)ol_header_lever(x->levers, x->fmt->size_lever, x->fmt->size) : x->fmt->size;

    if (x->deck->main.n == size)
        return 0;
    msg_whose(&m, x, "deck");
    msg_str(&m, " has ");
    msg_uint(&m, x->deck->main.n);
    msg_str(&m, " cards; ");
    msg_str(&m, by_lever ? "this match's" : x->fmt->title);
    msg_str(&m, " decks have exactly ");
    msg_uint(&m, size);
    msg_str(&m, ".");
    report(x, &m);
    return 0;
}

/* advanced: "Must include at least 5 Monsters (to fill your field)." */
static int check_monsters(deck_ctx *x)
{
    size_t n = 0;
    msg m = {.len = 0};

    for (size_t i = 0; i < x->n_ents; i++)
        n += known(&x->ents[i]) && card_kind_is_monster(x->ents[i].c->kind);
    if (n >= x->fmt->min_monsters)
        return 0;
    msg_whose(&m, x, "deck");
    msg_str(&m, " includes ");
    msg_uint(&m, n);
    msg_str(&m, n == 1 ? " Monster" : " Monsters");
    msg_str(&m, "; ");
    msg_str(&m, x->fmt->title);
    msg_str(&m, " decks must include at least ");
    msg_uint(&m, x->fmt->min_monsters);
    msg_str(&m, " Monster cards (Monsters or Prime Singulars).");
    report(x, &m);
    return 0;
}

static int group_is_prime(const group *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (card_kind_is_prime(g->e[i]->c->kind))
            return 1;
    return 0;
}

/* One violation per card name over its limit; Primes have their own. */
static int check_copies_of(deck_ctx *x, int primes)
{
    size_t limit = primes ? x->fmt->prime_copies : x->fmt->copies;
    grouping g;
    int rc = grouping_build(x, keep_for_copies, BY_NAME, &g);

    for (size_t i = 0; i < g.n; i++) {
        msg m = {.len = 0};
        if (g.g[i].n <= limit || group_is_prime(&g.g[i]) != primes)
            continue;
        msg_whose(&m, x, "deck");
        msg_str(&m, " has ");
        msg_uint(&m, g.g[i].n);
        msg_str(&m, " copies of ");
        msg_group_card(&m, &g.g[i]);
        if (primes) {
            msg_str(&m, ", ");
            msg_kind(&m, g.g[i].e[0]);
            msg_str(&m, "; Prime Evolutions and Prime Singulars are limited to 1 copy.");
        } else {
            msg_str(&m, "; ");
            msg_str(&m, x->fmt->title);
            msg_str(&m, " decks may hold at most ");
            msg_uint(&m, limit);
            msg_str(&m, " copies of a card.");
        }
        report(x, &m);
    }
    grouping_free(&g);
    return rc;
}

/* advanced: "up to 2 copies of each card"; master: "up to 3". */
static int check_copies(deck_ctx *x)
{
    return check_copies_of(x, 0);
}

/* both: "Prime Evolutions and Prime Singulars are limited to 1 copy". */
static int check_primes(deck_ctx *x)
{
    return check_copies_of(x, 1);
}

/* ---- The rule tables -------------------------------------------------------
 * One row per rule id: X(id, check, summary).  Order is report order. */

#define SNAP_RULES(X)                                                                    \
    X("openlog:cards", check_known, "every card is in the match's card database")        \
    X("snap:4.1", snap_4_1, "exactly 25 cards: 5 monsters and 20 supports")              \
    X("snap:4.2", snap_4_2, "the lineup (\"monsters\") is exactly 5 cards, each a Monster or a Prime Singular") \
    X("snap:4.3", snap_4_3, "the support deck (\"supports\") is exactly 20 cards, each a Spell or a Counter") \
    X("snap:4.4", snap_4_4, "each card name appears once in lineup, supports and reserve") \
    X("snap:4.5", snap_4_5, "at most one Prime Singular in the lineup")                  \
    X("snap:4.6.2", snap_4_6_2, "the reserve holds only Evolutions and a Prime Singular") \
    X("snap:4.6.3", snap_4_6_3, "reserve cards belong to the lines of the lineup or are its Prime Singular") \
    X("snap:14.2", snap_14_2, "the lineup's Prime Singular is also listed in the reserve")

#define ADVANCED_RULES(X)                                                                \
    X("openlog:cards", check_known, "every card is in the match's card database")        \
    X("advanced:deck.size", check_size, "exactly 40 cards")                              \
    X("advanced:deck.monsters", check_monsters, "at least 5 Monsters (Monsters or Prime Singulars)") \
    X("advanced:deck.copies", check_copies, "at most 2 copies of a card (by name)")      \
    X("advanced:deck.primes", check_primes, "Prime Evolutions and Prime Singulars at most 1 copy")

#define MASTER_RULES(X)                                                                  \
    X("openlog:cards", check_known, "every card is in the match's card database")        \
    X("master:deck.size", check_size, "exactly 60 cards")                                \
    X("master:deck.copies", check_copies, "at most 3 copies of a card (by name)")        \
    X("master:deck.primes", check_primes, "Prime Evolutions and Prime Singulars at most 1 copy")

#define RULE_INFO(id, fn, summary) {id, summary},
#define RULE_CHECK(id, fn, summary) fn,

static const deck_rule_info snap_info[] = {SNAP_RULES(RULE_INFO)};
static check_fn *const snap_check[] = {SNAP_RULES(RULE_CHECK)};
static const deck_rule_info advanced_info[] = {ADVANCED_RULES(RULE_INFO)};
static check_fn *const advanced_check[] = {ADVANCED_RULES(RULE_CHECK)};
static const deck_rule_info master_info[] = {MASTER_RULES(RULE_INFO)};
static check_fn *const master_check[] = {MASTER_RULES(RULE_CHECK)};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const format_spec formats[] = {
    [OL_FORMAT_SNAP] = {"Snap", SNAP_LINEUP + SNAP_SUPPORTS, 1, 1, SNAP_LINEUP, NULL,
                        snap_info, snap_check, N_OF(snap_info)},
    [OL_FORMAT_ADVANCED] = {"Advanced", 40, 2, 1, 5, NULL,
                            advanced_info, advanced_check, N_OF(advanced_info)},
    [OL_FORMAT_MASTER] = {"Master", 60, 3, 1, 0, "deck_size",
                          master_info, master_check, N_OF(master_info)},
};
#define FORMATS N_OF(formats)

/* ---- Driver ------------------------------------------------------------------ */

static int keep_lineup_prime_in_reserve(const deck_ctx *x, const entry *e)
{
    return e->list == LIST_RESERVE && is_prime_singular(e) && in_lineup(x, e->id);
}

/* Mark the first reserve entry of each lineup Prime Singular as restating
 * its lineup slot (see the rulings at the top). */
static int mark_echoes(deck_ctx *x)
{
    grouping g;
    int rc = grouping_build(x, keep_lineup_prime_in_reserve, BY_ID, &g);

    for (size_t i = 0; i < g.n; i++)
        g.g[i].e[0]->echo = 1;
    grouping_free(&g);
    return rc;
}

static void add_list(deck_ctx *x, const ol_idlist *l, deck_list which)
{
    for (size_t i = 0; i < l->n; i++) {
        entry *e = &x->ents[x->n_ents];
        e->id = l->ids[i] ? l->ids[i] : "";
        e->c = cards_find(x->db, e->id);
        e->list = which;
        e->pos = x->n_ents++;
        e->echo = 0;
    }
}

/* Flatten the lists this format reads; the others are ignored. */
static int flatten(deck_ctx *x, ol_format format)
{
    const ol_deck *d = x->deck;
    size_t n = format == OL_FORMAT_SNAP ? d->monsters.n + d->supports.n + d->reserve.n
                                     : d->main.n;

    x->ents = malloc((n ? n : 1) * sizeof *x->ents);
    if (!x->ents)
        return CARDS_ENOMEM;
    if (format != OL_FORMAT_SNAP) {
        add_list(x, &d->main, LIST_MAIN);
        return 0;
    }
    add_list(x, &d->monsters, LIST_MONSTERS);
    add_list(x, &d->supports, LIST_SUPPORTS);
    add_list(x, &d->reserve, LIST_RESERVE);
    x->lineup = sorted_ids(&d->monsters);
    x->reserve = sorted_ids(&d->reserve);
    if (!x->lineup || !x->reserve)
        return CARDS_ENOMEM;
    return mark_echoes(x);
}

int deck_check(ol_format format, const cards *db, const ol_header *levers, const ol_deck *deck,
               const char *who, deck_violation *out, size_t max, size_t *n)
{
    deck_ctx x = {.db = db, .levers = levers, .deck = deck, .who = who, .out = out, .max = max};
    int rc;

    if ((unsigned)format >= FORMATS || !db || !deck || !n || (max > 0 && !out))
        return CARDS_EARG;
    x.fmt = &formats[format];
    rc = flatten(&x, format);
    for (size_t i = 0; rc == 0 && i < x.fmt->n_rules; i++) {
        x.rule = x.fmt->info[i].rule;
        rc = x.fmt->check[i](&x);
    }
    free(x.ents);
    free(x.lineup);
    free(x.reserve);
    *n = x.found;
    return rc;
}

const deck_rule_info *deck_rules(ol_format format, size_t *n)
{
    if ((unsigned)format >= FORMATS) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = formats[format].n_rules;
    return formats[format].info;
}
