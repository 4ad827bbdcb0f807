/* deck.c -- is this decklist legal for its format?
 *
 * What.  deck_check() applies every deck construction rule of a format to a
 * decklist (openlog.md 5) and lists every rule it breaks, each violation a
 * sentence a judge can read aloud: which card, and what the rule requires.
 * A match whose header holds an illegal deck cannot start, so the verdict
 * must name the exact rule (snap:4.4) and the exact card.
 *
 * Why a table.  The rules of a format are data: one row per rule id with
 * its check function and a summary.  The rows are the engine's
 * (verifiers/snap/deck.c, the tables beside advanced.c's and master.c's
 * verifier_ops), reached through verifier_ops.deck; this file is the
 * mechanism they share and the checks more than one format makes.  The
 * same rows give deck_rules(), so `arbiter deck rules`, the documentation
 * and the tests all enumerate the one list; a rule added without a test
 * fails `make check` (tests/test_deck.c).  Each check quotes the rulebook
 * line it enforces and cites that same id.
 *
 * How.  The decklist is flattened once into entries (id, card, which list,
 * position).  Rules that compare cards -- singleton, copy limits, unknown
 * ids -- group the entries by name or by id after sorting, so a hostile
 * list of thousands of ids costs n log n, not n^2.  Violations come out in
 * table order, and inside a rule in the order the cards appear.
 *
 * Rulings this file makes for every format (each engine's rows say their
 * own; Snap's are in verifiers/snap/deck.c):
 *  - Unknown ids.  A card the database does not know is reported once under
 *    `openlog:cards` (openlog.md 4: the header names the database) and is
 *    otherwise only counted: its kind and name are unknown, so no other
 *    rule can judge it.
 *  - The Prime Singular in the reserve (DECK_SHAPE_LINEUP).  snap 4.6.2 and
 *    14.2 put the lineup's Prime Singular in the Monster Reserve, and
 *    openlog.md 5 lists it there too.  It is one card listed in two places:
 *    its reserve entry restates the lineup slot (its `echo`), so
 *    deck_keep_for_copies() leaves it out.
 *  - Copy limits count copies by card name, like Snap's singleton rule.  A
 *    Prime is judged by the primes rule only.
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

#include <sodium.h>

#include "verifiers/deck.h"

/* ---- Sentences ----------------------------------------------------------
 * verifiers/ has no stdio, so messages are built by appending pieces to a
 * fixed buffer.  An overlong message is cut on a UTF-8 boundary and ends
 * in "..." rather than overflowing or splitting a character. */

void deck_msg_str(deck_msg *m, const char *s)
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

void deck_msg_uint(deck_msg *m, size_t v)
{
    char digits[24];
    size_t i = sizeof digits;

    digits[--i] = '\0';
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    deck_msg_str(m, digits + i);
}


/* ---- The flattened decklist ---------------------------------------------- */

/* Where a card sits, as a judge says it. */
static const char *const list_phrase[] = {
    [DECK_LIST_MONSTERS] = "lineup",
    [DECK_LIST_SUPPORTS] = "support deck",
    [DECK_LIST_RESERVE] = "reserve",
    [DECK_LIST_MAIN] = "deck",
};

void deck_report(deck_ctx *x, const deck_msg *m)
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
void deck_msg_whose(deck_msg *m, const deck_ctx *x, const char *noun)
{
    if (x->who && *x->who) {
        deck_msg_str(m, x->who);
        deck_msg_str(m, "'s ");
    } else {
        deck_msg_str(m, "The ");
    }
    deck_msg_str(m, noun);
}

/* "Ember Whelp (cor-ember-whelp)".  Only known cards are named so: every
 * rule but openlog:cards keeps known entries only, and that one says the
 * bare id itself. */
void deck_msg_card(deck_msg *m, const deck_entry *e)
{
    deck_msg_str(m, e->c->name);
    deck_msg_str(m, " (");
    deck_msg_str(m, e->c->id);
    deck_msg_str(m, ")");
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

void deck_msg_kind(deck_msg *m, const deck_entry *e)
{
    deck_msg_str(m, kind_phrase(e->c->kind));
}

/* ---- Grouping -------------------------------------------------------------
 * Sorting pointers by key then position puts equal keys together with their
 * first appearance first; sorting the groups by that first position gives
 * the order a judge reads the decklist in. */


/* The rules that group by name (4.4, 4.5, the copy limits) keep known
 * entries only. */
const char *deck_entry_name(const deck_entry *e)
{
    return e->c->name;
}

static int cmp_pos(const deck_entry *a, const deck_entry *b)
{
    return (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_by_id(const void *pa, const void *pb)
{
    const deck_entry *a = *(deck_entry *const *)pa, *b = *(deck_entry *const *)pb;
    int r = strcmp(a->id, b->id);
    return r ? r : cmp_pos(a, b);
}

static int cmp_by_name(const void *pa, const void *pb)
{
    const deck_entry *a = *(deck_entry *const *)pa, *b = *(deck_entry *const *)pb;
    int r = strcmp(deck_entry_name(a), deck_entry_name(b));
    return r ? r : cmp_pos(a, b);
}

static int cmp_group(const void *pa, const void *pb)
{
    return cmp_pos(((const deck_group *)pa)->e[0], ((const deck_group *)pb)->e[0]);
}

void deck_grouping_free(deck_grouping *g)
{
    free(g->sorted);   /* g->g lives in the same block */
    memset(g, 0, sizeof *g);
}

/* Group the entries `keep` accepts by id or name.  Returns 0 or
 * CARDS_ENOMEM; free with deck_grouping_free() either way.  A failed grouping
 * holds no groups (out->n is 0), so callers loop over the groups without
 * testing the result first.  Most rules keep nothing in a legal deck: then
 * nothing is allocated or sorted. */
int deck_grouping_build(const deck_ctx *x, deck_keep_fn *keep, deck_group_key key,
                          deck_grouping *out)
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
    out->g = (deck_group *)(out->sorted + kept);
    for (size_t i = 0; i < x->n_ents; i++)
        if (keep(x, &x->ents[i]))
            out->sorted[n++] = &x->ents[i];
    qsort(out->sorted, n, sizeof *out->sorted, key == DECK_BY_ID ? cmp_by_id : cmp_by_name);
    for (size_t i = 0; i < n; i++) {
        int same = 0;
        if (i > 0) {
            const deck_entry *a = out->sorted[i - 1], *b = out->sorted[i];
            same = key == DECK_BY_ID ? !strcmp(a->id, b->id)
                                : !strcmp(deck_entry_name(a), deck_entry_name(b));
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

int deck_report_groups(deck_ctx *x, deck_keep_fn *keep, deck_group_key key, deck_say_fn *say)
{
    deck_grouping g;
    int rc = deck_grouping_build(x, keep, key, &g);

    for (size_t i = 0; i < g.n; i++) {
        deck_msg m = {.len = 0};
        say(x, &g.g[i], &m);
        deck_report(x, &m);
    }
    deck_grouping_free(&g);
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

int deck_known(const deck_entry *e)
{
    return e->c != NULL;
}

int deck_in_lineup(const deck_ctx *x, const char *id)
{
    return ids_have(x->lineup, x->deck->monsters.n, id);
}

int deck_in_reserve(const deck_ctx *x, const char *id)
{
    return ids_have(x->reserve, x->deck->reserve.n, id);
}

int deck_is_prime_singular(const deck_entry *e)
{
    return e->c && e->c->kind == CARD_PRIME_SINGULAR;
}

/* ---- Rules of every format ---------------------------------------------- */

static int keep_unknown(const deck_ctx *x, const deck_entry *e)
{
    (void)x;
    return !deck_known(e);
}

static void say_unknown(const deck_ctx *x, const deck_group *g, deck_msg *m)
{
    deck_msg_whose(m, x, "deck");
    deck_msg_str(m, " lists ");
    deck_msg_str(m, g->e[0]->id);
    if (g->n > 1) {
        deck_msg_str(m, " (");
        deck_msg_uint(m, g->n);
        deck_msg_str(m, " times)");
    }
    deck_msg_str(m, ", which is not in the card database ");
    deck_msg_str(m, cards_set(x->db));
    deck_msg_str(m, "@");
    deck_msg_str(m, cards_version(x->db));
    deck_msg_str(m, "; every card must be one the database knows.");
}

/* openlog.md 4: "`cards` | string "<set>@<version>" | the card database";
 * snap 5.3: "the companion app or rules database is considered
 * authoritative".  A card it does not know has no rules to play by. */
int deck_check_known(deck_ctx *x)
{
    return deck_report_groups(x, keep_unknown, DECK_BY_ID, say_unknown);
}


int deck_keep_for_copies(const deck_ctx *x, const deck_entry *e)
{
    (void)x;
    return deck_known(e) && !e->echo;
}

/* "in the lineup and the support deck": each list once, in order. */
void deck_msg_where(deck_msg *m, const deck_group *g)
{
    unsigned seen = 0, said = 0, lists = 0;

    for (size_t i = 0; i < g->n; i++)
        seen |= 1u << g->e[i]->list;
    for (unsigned l = DECK_LIST_MONSTERS; l <= DECK_LIST_MAIN; l++)
        lists += (seen >> l) & 1u;
    for (unsigned l = DECK_LIST_MONSTERS; l <= DECK_LIST_MAIN; l++) {
        if (!(seen & (1u << l)))
            continue;
        deck_msg_str(m, said == 0 ? "the " : said + 1 == lists ? " and the " : ", the ");
        deck_msg_str(m, list_phrase[l]);
        said++;
    }
}

/* "Ember Whelp (cor-ember-whelp)", or "the name X (id-a, id-b)" when
 * different ids share the name. */
void deck_msg_group_card(deck_msg *m, const deck_group *g)
{
    int mixed = 0;
    size_t listed = 0;

    for (size_t i = 1; i < g->n; i++)
        mixed |= strcmp(g->e[i]->id, g->e[0]->id) != 0;
    if (!mixed) {
        deck_msg_card(m, g->e[0]);
        return;
    }
    deck_msg_str(m, "the name ");
    deck_msg_str(m, deck_entry_name(g->e[0]));
    deck_msg_str(m, " (");
    for (size_t i = 0; i < g->n; i++) {
        int repeat = 0;
        for (size_t j = 0; j < i && !repeat; j++)
            repeat = !strcmp(g->e[j]->id, g->e[i]->id);
        if (repeat)
            continue;
        deck_msg_str(m, listed++ ? ", " : "");
        deck_msg_str(m, g->e[i]->id);
    }
    deck_msg_str(m, ")");
}

int deck_names_repeat(const deck_ctx *x)
{
    enum { SLOTS = 128 };
    const char *name[SLOTS];
    uint32_t hash[SLOTS];
    size_t used = 0;

    memset(name, 0, sizeof name);
    for (size_t i = 0; i < x->n_ents; i++) {
        const deck_entry *e = &x->ents[i];
        if (!deck_keep_for_copies(x, e))
            continue;
        if (++used > SLOTS / 2)
            return 1;
        const char *nm = deck_entry_name(e);
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

/* ---- Advanced and Master ------------------------------------------------
 * advanced "Deck Size & Construction": "40 cards total", "Must include at
 * least 5 Monsters", "up to 2 copies of each card", "Prime Evolutions and
 * Prime Singulars are limited to 1 copy".
 * master "Deck Size & Construction": "60 cards total", "up to 3 copies of
 * each card", "Prime Evolutions and Prime Singulars are 1x (singleton)". */

/* "40 cards total" / "60 cards total" -- or, in Master, the deck_size
 * lever ("Deck size: 60 (default); 50 or 70 in experimental formats."):
 * with a match's levers the sentence speaks of that match's decks. */
int deck_check_size(deck_ctx *x)
{
    deck_msg m = {.len = 0};
    int by_lever = x->fmt->size_lever && x->levers;
    size_t size = by_lever ? (size_t)ol_header_lever(x->levers, x->fmt->size_lever, x->fmt->size) : x->fmt->size;

    if (x->deck->main.n == size)
        return 0;
    deck_msg_whose(&m, x, "deck");
    deck_msg_str(&m, " has ");
    deck_msg_uint(&m, x->deck->main.n);
    deck_msg_str(&m, " cards; ");
    deck_msg_str(&m, by_lever ? "this match's" : x->fmt->title);
    deck_msg_str(&m, " decks have exactly ");
    deck_msg_uint(&m, size);
    deck_msg_str(&m, ".");
    deck_report(x, &m);
    return 0;
}

/* advanced: "Must include at least 5 Monsters (to fill your field)." */
int deck_check_monsters(deck_ctx *x)
{
    size_t n = 0;
    deck_msg m = {.len = 0};

    for (size_t i = 0; i < x->n_ents; i++)
        n += deck_known(&x->ents[i]) && card_kind_is_monster(x->ents[i].c->kind);
    if (n >= x->fmt->min_monsters)
        return 0;
    deck_msg_whose(&m, x, "deck");
    deck_msg_str(&m, " includes ");
    deck_msg_uint(&m, n);
    deck_msg_str(&m, n == 1 ? " Monster" : " Monsters");
    deck_msg_str(&m, "; ");
    deck_msg_str(&m, x->fmt->title);
    deck_msg_str(&m, " decks must include at least ");
    deck_msg_uint(&m, x->fmt->min_monsters);
    deck_msg_str(&m, " Monster cards (Monsters or Prime Singulars).");
    deck_report(x, &m);
    return 0;
}

static int group_is_prime(const deck_group *g)
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
    deck_grouping g;
    int rc = deck_grouping_build(x, deck_keep_for_copies, DECK_BY_NAME, &g);

    for (size_t i = 0; i < g.n; i++) {
        deck_msg m = {.len = 0};
        if (g.g[i].n <= limit || group_is_prime(&g.g[i]) != primes)
            continue;
        deck_msg_whose(&m, x, "deck");
        deck_msg_str(&m, " has ");
        deck_msg_uint(&m, g.g[i].n);
        deck_msg_str(&m, " copies of ");
        deck_msg_group_card(&m, &g.g[i]);
        if (primes) {
            deck_msg_str(&m, ", ");
            deck_msg_kind(&m, g.g[i].e[0]);
            deck_msg_str(&m, "; Prime Evolutions and Prime Singulars are limited to 1 copy.");
        } else {
            deck_msg_str(&m, "; ");
            deck_msg_str(&m, x->fmt->title);
            deck_msg_str(&m, " decks may hold at most ");
            deck_msg_uint(&m, limit);
            deck_msg_str(&m, " copies of a card.");
        }
        deck_report(x, &m);
    }
    deck_grouping_free(&g);
    return rc;
}

/* advanced: "up to 2 copies of each card"; master: "up to 3". */
int deck_check_copies(deck_ctx *x)
{
    return check_copies_of(x, 0);
}

/* both: "Prime Evolutions and Prime Singulars are limited to 1 copy". */
int deck_check_primes(deck_ctx *x)
{
    return check_copies_of(x, 1);
}


/* ---- Driver ------------------------------------------------------------------ */

static int keep_lineup_prime_in_reserve(const deck_ctx *x, const deck_entry *e)
{
    return e->list == DECK_LIST_RESERVE && deck_is_prime_singular(e) && deck_in_lineup(x, e->id);
}

/* Mark the first reserve entry of each lineup Prime Singular as restating
 * its lineup slot (see the rulings at the top). */
static int mark_echoes(deck_ctx *x)
{
    deck_grouping g;
    int rc = deck_grouping_build(x, keep_lineup_prime_in_reserve, DECK_BY_ID, &g);

    for (size_t i = 0; i < g.n; i++)
        g.g[i].e[0]->echo = 1;
    deck_grouping_free(&g);
    return rc;
}

static void add_list(deck_ctx *x, const ol_idlist *l, deck_list which)
{
    for (size_t i = 0; i < l->n; i++) {
        deck_entry *e = &x->ents[x->n_ents];
        e->id = l->ids[i] ? l->ids[i] : "";
        e->c = cards_find(x->db, e->id);
        e->list = which;
        e->pos = x->n_ents++;
        e->echo = 0;
    }
}

/* Flatten the lists this format reads; the others are ignored. */
static int flatten(deck_ctx *x)
{
    const ol_deck *d = x->deck;
    int lineup = x->fmt->shape == DECK_SHAPE_LINEUP;
    size_t n = lineup ? d->monsters.n + d->supports.n + d->reserve.n : d->main.n;

    x->ents = malloc((n ? n : 1) * sizeof *x->ents);
    if (!x->ents)
        return CARDS_ENOMEM;
    if (!lineup) {
        add_list(x, &d->main, DECK_LIST_MAIN);
        return 0;
    }
    add_list(x, &d->monsters, DECK_LIST_MONSTERS);
    add_list(x, &d->supports, DECK_LIST_SUPPORTS);
    add_list(x, &d->reserve, DECK_LIST_RESERVE);
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

    if (!(x.fmt = deck_format_of(format)) || !db || !deck || !n || (max > 0 && !out))
        return CARDS_EARG;
    rc = flatten(&x);
    for (size_t i = 0; rc == 0 && i < x.fmt->n_rules; i++) {
        x.rule = x.fmt->rules[i].rule;
        rc = x.fmt->rules[i].check(&x);
    }
    free(x.ents);
    free(x.lineup);
    free(x.reserve);
    *n = x.found;
    return rc;
}

const deck_rule_info *deck_rules(ol_format format, size_t *n)
{
    const deck_format *f = deck_format_of(format);
    if (n)
        *n = f ? f->n_rules : 0;
    return f ? f->rules : NULL;
}

/* ---- the memo of legal decklists (deck.h says why its key is safe) ------ */

#define MEMO_KEY 32

struct deck_memo {
    const cards *db;
    size_t n;
    /* open addressing on the key's first bytes; a zero slot is empty (a
     * BLAKE2b output of 32 zero bytes is not a worry worth a flag) */
    uint8_t keys[DECK_MEMO_MAX * 2][MEMO_KEY];
};

deck_memo *deck_memo_new(const cards *db)
{
    deck_memo *m = calloc(1, sizeof *m);
    if (m)
        m->db = db;
    return m;
}

void deck_memo_destroy(deck_memo **m)
{
    if (m) {
        free(*m);
        *m = NULL;
    }
}

static void key_u64(crypto_generichash_state *st, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    crypto_generichash_update(st, b, sizeof b);
}

static void key_str(crypto_generichash_state *st, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    key_u64(st, s ? len : UINT64_MAX);
    if (len)
        crypto_generichash_update(st, (const uint8_t *)s, len);
}

static void key_list(crypto_generichash_state *st, const ol_idlist *l)
{
    key_u64(st, l->n);
    for (size_t i = 0; i < l->n; i++)
        key_str(st, l->ids[i]);
}

static void memo_key(ol_format format, const cards *db, const ol_header *levers, const ol_deck *d,
                     uint8_t key[MEMO_KEY])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, MEMO_KEY);
    key_u64(&st, (uint64_t)format);
    crypto_generichash_update(&st, cards_hash(db), 32);
    key_u64(&st, levers ? 1 + (uint64_t)levers->has_rules : 0);
    key_u64(&st, levers ? levers->n_rules : 0);
    for (size_t i = 0; levers && i < levers->n_rules; i++) {
        key_str(&st, levers->rules[i].name);
        key_u64(&st, levers->rules[i].value);
    }
    key_list(&st, &d->monsters);
    key_list(&st, &d->supports);
    key_list(&st, &d->reserve);
    key_list(&st, &d->main);
    crypto_generichash_final(&st, key, MEMO_KEY);
}

static const uint8_t no_key[MEMO_KEY];

/* The slot holding key, or the empty slot where it would go. */
static uint8_t *memo_slot(deck_memo *m, const uint8_t key[MEMO_KEY])
{
    size_t cap = DECK_MEMO_MAX * 2;
    size_t i = ((size_t)key[0] | (size_t)key[1] << 8 | (size_t)key[2] << 16) % cap;
    while (memcmp(m->keys[i], no_key, MEMO_KEY) && memcmp(m->keys[i], key, MEMO_KEY))
        i = (i + 1) % cap;   /* never full: at most half the slots are used */
    return m->keys[i];
}

int deck_check_memo(deck_memo *m, ol_format format, const cards *db, const ol_header *levers, const ol_deck *deck,
                    const char *who, deck_violation *out, size_t max, size_t *n)
{
    if (!m || m->db != db || !db || !deck || !n)
        return deck_check(format, db, levers, deck, who, out, max, n);
    uint8_t key[MEMO_KEY];
    memo_key(format, db, levers, deck, key);
    uint8_t *slot = memo_slot(m, key);
    if (!memcmp(slot, key, MEMO_KEY)) {
        *n = 0;
        return 0;
    }
    int rc = deck_check(format, db, levers, deck, who, out, max, n);
    if (rc == 0 && *n == 0 && m->n < DECK_MEMO_MAX) {
        memcpy(slot, key, MEMO_KEY);
        m->n++;
    }
    return rc;
}
