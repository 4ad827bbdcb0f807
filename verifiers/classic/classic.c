/* classic.c -- the classic Snap engine: judging one event (classic.h).
 *
 * What: the rules of classic-snap.md for two to eight players -- the deal,
 * the flips clockwise, matches, calls judged by the table's clock, the
 * snap pot, penalties, eliminations, the winner and the draw -- over the
 * open log's three hidden modes.
 *
 * Why this shape: everything a player does at a Snap table is a flip or a
 * shout, and every dispute is about what followed a shout.  So players'
 * events only record (a flip moves one card; a call joins the window), and
 * the table's resolutions are where judgement happens: the engine works
 * out, from the calls' times and the piles at those times, what the
 * rulebook says must follow (resolve_window), and holds each announcement
 * of the table to it with a sentence a judge can read aloud.
 *
 * How: one handler per event type (the `handlers` table); each checks
 * first and changes the state only once every check has passed, so an
 * illegal event changes nothing.  Rule ids are rows of rules.c.
 */
#include <string.h>

#include "verifiers/classic/classic.h"

#define FAIL(j, rule, ...) OPENLOG_ILLEGAL(&(j)->o, (rule), __VA_ARGS__)

typedef struct {
    openlog_judgement o;
    classic_state *s;
} judge;

static const char *who(const classic_state *s, int p)
{
    return openlog_who(&s->m, p);
}

/* ---- cards and values ------------------------------------------------- */

const char *classic_value_key(const card *c, size_t *len)
{
    const classic_card *cc = (const classic_card *)(const void *)c->own[OL_FORMAT_CLASSIC];
    *len = strnlen(cc->value, sizeof cc->value);
    return cc->value;
}

/* A card's index in types[]; -1 for a card of no deck here.  Every card
 * the engine is given comes from the match's own database, all of whose
 * cards are types (classic_start), so the -1 and the checks for it are a
 * guard, never met. */
static int type_of(const classic_state *s, const card *c)
{
    for (int i = 0; i < s->n_types; i++)
        if (s->types[i] == c)
            return i;
    return -1;
}

static int value_of_slot(const classic_state *s, uint16_t slot)
{
    return s->value[s->up[slot]];
}

/* ---- zones ------------------------------------------------------------- */

static int top_type(const classic_state *s, const classic_zone *z)
{
    return z->n ? s->up[z->slot[z->n - 1]] : -1;
}

/* Put k slots under a zone (the first of `in` just under the old bottom). */
static void put_under(classic_zone *z, const uint16_t *in, int k)
{
    memmove(z->slot + k, z->slot, z->n * sizeof z->slot[0]);
    for (int i = 0; i < k; i++)
        z->slot[k - 1 - i] = in[i];
    z->n = (uint16_t)(z->n + k);
}

static int cards_held(const classic_state *s, int p)
{
    return s->stack[p].n + (s->common ? 0 : s->pile[p].n);
}

static int alive(const classic_state *s)
{
    int n = 0;
    for (int p = 0; p < s->n; p++)
        n += !s->out[p];
    return n;
}

/* The next player still in, clockwise (on the left) from p; p itself
 * when no one else is in.  (Never called with every player out: a flip's
 * player is in, settle() asks while two are, the board only before the
 * end.) */
static int left_of(const classic_state *s, int p)
{
    for (int k = 1; k <= s->n; k++) {
        int q = (p + k) % s->n;
        if (!s->out[q])
            return q;
    }
    return p;
}

/* Who flips next: the first player, or the next one still in from the
 * last flipper (RULINGS A14). */
int classic_next_to_flip(const classic_state *s)
{
    if (s->last_flipper < 0) {
        int first = s->first ? s->first - 1 : s->dealer % s->n;
        return s->out[first] ? left_of(s, first) : first;
    }
    return left_of(s, s->last_flipper);
}

/* ---- the end of the game ---------------------------------------------- */

/* RULINGS A8: the pot holds cards and no match can ever happen again. */
static int locked(const classic_state *s)
{
    uint16_t outside[CLASSIC_TYPES_MAX] = {0};
    for (int t = 0; t < s->n_types; t++)
        outside[s->value[t]] = (uint16_t)(outside[s->value[t]] + s->decks);
    for (int i = 0; i < s->pot.n; i++)
        outside[value_of_slot(s, s->pot.slot[i])]--;
    for (int v = 0; v < s->n_values; v++)
        if (outside[v] > 1)
            return 0;
    return s->pot.n && !outside[s->pot_value];   /* locked away *in the pot* */
}

static void eliminate(classic_state *s, int p)
{
    s->out[p] = 1;
}

/* After every change: players with no card left are out (out.cards), the
 * last one in wins (end.winner), a locked pot is a draw (end.draw); in the
 * common-pile variant the players whose turn comes without a card are out
 * (simple.out, A11) -- once no call waits. */
static void settle(classic_state *s)
{
    /* (m.over is a guard: no handler settles after the end -- classic_apply
     * refuses every action then, and do_judge settles only before it) */
    if (s->m.over || !s->deal_done)
        return;
    if (locked(s) && alive(s) > 1) {   /* (a pot exists only in play, with two players in or more) */
        openlog_end_draw(&s->m);   /* a draw between the survivors, before anyone is out */
        return;
    }
    for (int p = 0; p < s->n; p++)
        if (!s->out[p] && !s->common && !cards_held(s, p))
            eliminate(s, p);
    if (s->common && !s->n_calls && s->i_due >= s->n_due) {
        /* ends: each turn either finds a card or puts one more player out
         * (classic_next_to_flip names a player still in) */
        while (alive(s) > 1) {
            int q = classic_next_to_flip(s);
            if (s->stack[q].n)
                break;
            eliminate(s, q);
        }
    }
    if (alive(s) == 1) {
        for (int p = 0; p < s->n; p++)
            if (!s->out[p])
                openlog_end(&s->m, p);
    } else if (alive(s) == 0) {
        openlog_end_draw(&s->m);   /* everyone out at once: no one is left to win */
    }
}

/* ---- the header --------------------------------------------------------- */

int classic_start(classic_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)
{
    const ol_header *h = &header->header;
    memset(s, 0, sizeof *s);
    openlog_start(&s->m, db, h);
    s->n = (uint8_t)h->n_players;
    s->decks = (uint8_t)ol_header_lever(h, "decks", 1);
    s->dealer = (uint8_t)ol_header_lever(h, "dealer", 1);
    s->first = (uint8_t)ol_header_lever(h, "first", 0);
    s->common = (uint8_t)ol_header_lever(h, "common_pile", 0);
    s->pot_on = (uint8_t)ol_header_lever(h, "snap_pot", 1);
    s->prop = (uint8_t)ol_header_lever(h, "prop", 0);
    s->tie_window = (uint16_t)ol_header_lever(h, "tie_window", 100);
    s->last_flipper = -1;
    for (int i = 0; i < CLASSIC_PILES; i++)
        s->start_top[i] = -1;
    s->start_second = -1;
    olverdict_set(v, header->match, header->seq, OL_V_OK, NULL, NULL);

    size_t n = cards_count(db);
    if (s->dealer > s->n || s->first > s->n) {
        olverdict_set(v, header->match, header->seq, OL_V_ILLEGAL, "openlog:3",
                      "The header names p%u as the %s, but this match's players are p1 to p%u.",
                      s->dealer > s->n ? s->dealer : s->first, s->dealer > s->n ? "dealer" : "first player", s->n);
        s->refused = 1;
        s->refused_rule = "openlog:3";
        return VERIFIER_OK;   /* a verdict, the refused header's */
    }
    if (n == 0 || n > CLASSIC_TYPES_MAX || n * s->decks > CLASSIC_CARDS_MAX) {
        olverdict_set(v, header->match, header->seq, OL_V_ILLEGAL, "classic:deck.decks",
                      "The deck would be %zu cards (%u deck%s of %zu); arbiter judges decks of 1 to %d cards of at "
                      "most %d kinds.", n * s->decks, s->decks, s->decks > 1 ? "s" : "", n, CLASSIC_CARDS_MAX,
                      CLASSIC_TYPES_MAX);
        s->refused = 1;
        s->refused_rule = "classic:deck.decks";
        return VERIFIER_OK;   /* a verdict, the refused header's */
    }
    s->n_types = (uint8_t)n;
    s->n_cards = (uint16_t)(n * s->decks);
    for (size_t i = 0; i < n; i++) {
        const card *c = cards_at(db, i);
        size_t len, olen;
        const char *key = classic_value_key(c, &len);
        s->types[i] = c;
        s->value[i] = s->n_values;
        for (size_t k = 0; k < i; k++) {
            const char *other = classic_value_key(s->types[k], &olen);
            if (olen == len && !memcmp(other, key, len)) {
                s->value[i] = s->value[k];
                break;
            }
        }
        if (s->value[i] == s->n_values)
            s->n_values++;
    }
    /* the deal's batch: every card of the deck, not yet seen */
    for (int d = 0; d < s->decks; d++)
        for (int t = 0; t < s->n_types; t++)
            s->pool[s->n_pool++] = (classic_candidate){(uint8_t)t, 0};
    s->next_batch = 1;
    return VERIFIER_OK;
}

/* ---- hidden cards -------------------------------------------------------- */

/* The pool entry of `type` (a card of the deck) in `batch`, or -1. */
static int pool_find(const classic_state *s, int type, uint16_t batch)
{
    for (int i = 0; i < s->n_pool; i++)
        if (s->pool[i].batch == batch && s->pool[i].type == type)
            return i;
    return -1;
}

static void pool_drop(classic_state *s, int i)
{
    s->pool[i] = s->pool[--s->n_pool];
}

/* A list of hrefs in the header's mode; in open mode every named card is
 * taken out of what `batch` may hold (a candidate list of the pool), so
 * that the list is exactly those cards.  `what` names the list. */
static int take_hrefs(judge *j, const olevent *ev, uint16_t batch, openlog_card *out, const char *what)
{
    classic_state *s = j->s;
    for (size_t i = 0; i < ev->n_cards; i++) {
        if (openlog_take_href(&j->o, &ev->cards[i], &out[i], what))
            return -1;
        if (!out[i].card)
            continue;
        int t = type_of(s, out[i].card), k = t < 0 ? -1 : pool_find(s, t, batch);
        if (k < 0)
            return FAIL(j, batch ? "openlog:6" : "classic:deck.decks",
                        "%s names %s, which is not among the cards %s.", what, out[i].card->name,
                        batch ? "being shuffled in" : "the deck still holds");
        pool_drop(s, k);
    }
    return 0;
}

/* ---- the window: what the calls were worth at their time ------------------ */

typedef struct {
    int16_t top[CLASSIC_PILES];
    int16_t second;                 /* the common pile's card under its top */
    uint8_t order[CLASSIC_PILES];   /* 1 + the window's index of the last flip
                                       onto each pile; 0: none in the window */
} piles_at;

static void piles_at_time(const classic_state *s, uint64_t at, piles_at *pa)
{
    memset(pa, 0, sizeof *pa);
    memcpy(pa->top, s->start_top, sizeof pa->top);
    pa->second = s->start_second;
    for (int i = 0; i < s->n_flips && s->flips[i].at <= at; i++) {
        int p = s->flips[i].pile;
        if (p == CLASSIC_COMMON)
            pa->second = pa->top[p];
        pa->top[p] = s->flips[i].type;
        pa->order[p] = (uint8_t)(i + 1);   /* flips are in time order, one ms in log order (A2) */
    }
}

/* The piles a Snap at `pa` takes (A13), as a bit mask; 0: no match. */
static uint16_t snap_match(const classic_state *s, const piles_at *pa)
{
    if (s->common)
        return pa->top[CLASSIC_COMMON] >= 0 && pa->second >= 0 &&
                       s->value[pa->top[CLASSIC_COMMON]] == s->value[pa->second]
                   ? (uint16_t)(1u << CLASSIC_COMMON)
                   : 0;
    uint16_t m = 0;
    for (int a = 0; a < s->n; a++)
        for (int b = a + 1; b < s->n; b++)
            if (pa->top[a] >= 0 && pa->top[b] >= 0 && s->value[pa->top[a]] == s->value[pa->top[b]])
                m |= (uint16_t)(1u << a | 1u << b);
    return m;
}

/* The pile a Snap Pot! at `pa` takes with the pot (A6): of those whose top
 * matches it, the one flipped last -- of two flipped at the same ms, the
 * one announced last; of piles whose tops were all there at the last
 * resolution, the first from p1 clockwise.  0: no match. */
static uint16_t pot_match(const classic_state *s, const piles_at *pa)
{
    if (!s->pot.n)
        return 0;
    int best = -1;
    for (int p = 0; p < CLASSIC_PILES; p++) {
        if ((p == CLASSIC_COMMON) != (s->common != 0) || (p != CLASSIC_COMMON && p >= s->n))
            continue;
        if (pa->top[p] < 0 || s->value[pa->top[p]] != s->pot_value)
            continue;
        if (best < 0 || pa->order[p] > pa->order[best])
            best = p;
    }
    return best < 0 ? 0 : (uint16_t)(1u << best);
}

static int ties_possible(const classic_state *s)
{
    return s->pot_on && !s->prop;
}

/* The window's consequences, in the time order of their calls (A3, A4),
 * into due[] (CLASSIC_CALLS_MAX places); their count.  The first right call
 * takes (or ties into the pot), every wrong call pays; a later right call
 * costs nothing. */
static int window_dues(const classic_state *s, classic_due *due)
{
    classic_call c[CLASSIC_CALLS_MAX];
    uint16_t match[CLASSIC_CALLS_MAX];
    uint8_t right[CLASSIC_CALLS_MAX], other[CLASSIC_CALLS_MAX];
    int n = s->n_calls, first = -1, n_due = 0;

    memcpy(c, s->calls, n * sizeof c[0]);
    for (int i = 1; i < n; i++)      /* stable: equal times keep log order */
        for (int k = i; k > 0 && c[k].at < c[k - 1].at; k--) {
            classic_call x = c[k];
            c[k] = c[k - 1];
            c[k - 1] = x;
        }
    for (int i = 0; i < n; i++) {
        piles_at pa;
        piles_at_time(s, c[i].at, &pa);
        uint16_t sm = snap_match(s, &pa), pm = pot_match(s, &pa);
        match[i] = c[i].pot_word ? pm : sm;
        right[i] = match[i] != 0;
        other[i] = (c[i].pot_word ? sm : pm) != 0;
        if (right[i] && first < 0)
            first = i;
    }
    for (int i = 0; i < n; i++) {
        if (!right[i]) {
            due[n_due++] = (classic_due){.kind = DUE_PENALTY, .p = c[i].p, .pot_word = c[i].pot_word,
                                               .mixup = other[i], .at = c[i].at, .second = -1};
            continue;
        }
        if (i != first)
            continue;
        classic_due d = {.kind = DUE_TAKE, .p = c[i].p, .pot_word = c[i].pot_word, .pot = c[i].pot_word,
                         .piles = match[i], .at = c[i].at, .second = -1};
        d.may_take = (uint16_t)(1u << c[i].p);
        for (int k = i + 1; k < n; k++) {
            if (!right[k] || c[k].p == c[i].p || c[k].pot_word != c[i].pot_word)
                continue;
            if (ties_possible(s) && c[k].at - c[i].at <= s->tie_window)
                d.kind = DUE_POT;
            else if (c[k].at == c[i].at)
                d.may_take |= (uint16_t)(1u << c[k].p);   /* A9: the table tells them apart */
            else if (d.second < 0) {
                d.second = (int8_t)c[k].p;
                d.second_at = c[k].at;
            }
        }
        due[n_due++] = d;
    }
    return n_due;
}

/* The table begins to resolve the window: its consequences are due, and
 * the window is consumed (later calls start the next one). */
static void resolve_window(classic_state *s)
{
    s->n_due = window_dues(s, s->due);
    s->i_due = 0;
    for (int i = 0; i < s->n_calls; i++)
        if (!s->has_resolved || s->calls[i].at > s->resolved_at) {
            s->resolved_at = s->calls[i].at;
            s->has_resolved = 1;
        }
    s->n_calls = 0;
}

/* The window closes after its last consequence: the piles as they are now
 * are where the next window's calls start from. */
static void window_reset(classic_state *s)
{
    for (int p = 0; p < CLASSIC_PILES; p++)
        s->start_top[p] = (int16_t)top_type(s, &s->pile[p]);
    const classic_zone *cp = &s->pile[CLASSIC_COMMON];
    s->start_second = cp->n > 1 ? s->up[cp->slot[cp->n - 2]] : -1;
    s->n_flips = 0;
}

/* piles_of() of a table naming players' discard piles in the common-pile
 * version, which has none: no set of piles of this match. */
#define NO_SUCH_PILES 0xffff

/* "p1's and p2's piles", "the common pile", "p3's pile and the snap pot". */
static void piles_words(const classic_state *s, uint16_t piles, int pot, char *out, size_t cap)
{
    size_t used = 0;
    int k = 0, total = 0;
    if (piles == NO_SUCH_PILES) {
        olverdict_format(out, cap, "players' own discard piles");
        return;
    }
    out[0] = 0;
    for (int p = 0; p < CLASSIC_PILES; p++)
        total += (piles >> p) & 1;
    /* (the longest list, eight players' piles, is some 60 bytes: the bound
     * is a guard for a smaller cap) */
    for (int p = 0; p < CLASSIC_PILES && used + 1 < cap; p++) {
        if (!((piles >> p) & 1))
            continue;
        const char *sep = k == 0 ? "" : k == total - 1 ? " and " : ", ";
        if (p == CLASSIC_COMMON)
            olverdict_format(out + used, cap - used, "%sthe common pile", sep);
        else
            olverdict_format(out + used, cap - used, "%s%s's%s", sep, ol_player_name((ol_player)p),
                     k == total - 1 ? (total > 1 ? " piles" : " pile") : "");
        used += strlen(out + used);
        k++;
    }
    if (pot)
        olverdict_format(out + strlen(out), cap - strlen(out), "%sthe snap pot", total ? " and " : "");
    else if (!total)
        olverdict_format(out, cap, "no pile");
}

static const char *word(int pot_word)
{
    return pot_word ? "Snap Pot" : "Snap";
}

/* The due consequence the table should have announced, in words. */
static void due_words(const classic_state *s, const classic_due *d, char *out, size_t cap)
{
    char piles[160];
    piles_words(s, d->piles, d->pot, piles, sizeof piles);
    if (d->kind == DUE_PENALTY)
        olverdict_format(out, cap, "%s pays a penalty for calling %s %s", who(s, d->p), word(d->pot_word),
                 d->mixup ? "when the match was for the other call" : "when there was no match");
    else if (d->kind == DUE_POT)
        olverdict_format(out, cap, "%s go to the snap pot: %s's %s tied", piles, who(s, d->p), word(d->pot_word));
    else
        olverdict_format(out, cap, "%s takes %s", who(s, d->p), piles);
}

/* The rule that gives a take's cards to the first right caller. */
static const char *take_rule(const classic_state *s, const classic_due *d)
{
    return d->pot_word ? "classic:pot.snap_pot" : s->common ? "classic:snap.first_caller" : "classic:piles.match";
}

/* The table's announcement is the next due consequence, or the verdict. */
static const classic_due *next_due(judge *j, classic_due_kind kind)
{
    classic_state *s = j->s;
    if (s->i_due >= s->n_due) {
        if (!s->n_calls) {
            FAIL(j, kind == DUE_PENALTY ? "classic:penalty.pay" : kind == DUE_POT ? "classic:pot.tie"
                                                                                 : "classic:snap.first_caller",
                 "The table announces a %s, but no one has called since the last resolution.",
                 kind == DUE_PENALTY ? "penalty" : kind == DUE_POT ? "snap pot" : "take");
            return NULL;
        }
        resolve_window(s);
    }
    const classic_due *d = &s->due[s->i_due];
    if ((classic_due_kind)d->kind == kind)
        return d;
    char want[240];
    due_words(s, d, want, sizeof want);
    /* the rule of what was due; announced out of the calls' order: A4 */
    const char *r = d->kind == DUE_PENALTY ? "classic:penalty.pay"
                    : d->kind == DUE_POT   ? (d->pot_word ? "classic:pot.grows" : "classic:pot.tie")
                    : d->pot_word          ? "classic:pot.snap_pot"
                    : kind == DUE_POT      ? (!ties_possible(s) && s->prop ? "classic:prop" : "classic:pot.tie")
                                           : take_rule(s, d);
    for (int i = s->i_due + 1; i < s->n_due; i++)
        if ((classic_due_kind)s->due[i].kind == kind)
            r = "classic:A4";
    FAIL(j, r, "The table announces a %s, but next %s.",
         kind == DUE_PENALTY ? "penalty" : kind == DUE_POT ? "snap pot" : "take", want);
    return NULL;
}

/* What resolve_window() changes, to put back. */
typedef struct {
    uint8_t n_calls, n_due, i_due, has_resolved;
    uint64_t resolved_at;
} window_mark;

static window_mark window_keep(const classic_state *s)
{
    return (window_mark){s->n_calls, s->n_due, s->i_due, s->has_resolved, s->resolved_at};
}

static void window_restore(classic_state *s, const window_mark *w)
{
    s->n_calls = w->n_calls;   /* resolve_window() reads calls[] and leaves it */
    s->n_due = w->n_due;
    s->i_due = w->i_due;
    s->has_resolved = w->has_resolved;
    s->resolved_at = w->resolved_at;
}

static void due_done(classic_state *s)
{
    if (++s->i_due >= s->n_due) {
        s->n_due = s->i_due = 0;
        window_reset(s);
    }
}

/* ---- the handlers ---------------------------------------------------------- */

static int player_only(judge *j, const char *what)
{
    int p = openlog_player_of(j->o.ev);
    if (p < 0)
        return FAIL(j, "openlog:3", "The %s announced %s; only a player does.", j->o.ev->by == OL_BY_TABLE ? "table" : "judge",
                    what);
    if (j->s->out[p])
        return FAIL(j, "classic:out.cards", "%s is out of the game and cannot %s.", who(j->s, p), what);
    return p;
}

static int table_only(judge *j, const char *what)
{
    if (j->o.ev->by != OL_BY_TABLE)
        return FAIL(j, "openlog:3", "%s announced %s; the table does.", j->o.ev->by == OL_BY_JUDGE ? "The judge"
                                                                       : who(j->s, (int)j->o.ev->by), what);
    return 0;
}

static void do_deal(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (table_only(j, "a deal"))
        return;
    int p = (int)ev->player;
    if (s->deal_done || s->dealt[p]) {
        /* once the deal is done every seat has its stack (the seam refuses a
         * seat past the players, openlog:3): this one is a second */
        FAIL(j, "classic:deal.one_at_a_time", "The table deals %s a second stack; every player is dealt one stack, "
             "before play.", who(s, p));
        return;
    }
    int total = (int)ev->n_cards;
    for (int q = 0; q < s->n; q++)
        total += s->stack[q].n;
    if (total > s->n_cards) {
        FAIL(j, "classic:deck.decks", "The table deals %d cards so far; the deck holds %u.", total, s->n_cards);
        return;
    }
    if (s->n_dealt + 1 == s->n) {
        /* the last stack: the whole deck, one at a time from the dealer's left (A5) */
        if (total != s->n_cards) {
            FAIL(j, "classic:deck.decks", "The table deals %d cards in all; the deck of %u deck%s holds %u, and "
                 "every card is dealt.", total, s->decks, s->decks > 1 ? "s" : "", s->n_cards);
            return;
        }
        int base = s->n_cards / s->n, extra = s->n_cards % s->n, lo = s->n_cards, hi = 0;
        for (int q = 0; q < s->n; q++) {
            int c = q == p ? (int)ev->n_cards : s->stack[q].n;
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        if (hi - lo > 1) {
            FAIL(j, "classic:deal.even", "The stacks hold %d to %d cards; dealt as close as possible, they differ by "
                 "one card at most.", lo, hi);
            return;
        }
        for (int k = 0; k < s->n; k++) {
            int q = (s->dealer + k) % s->n;      /* the dealer's left first */
            int c = q == p ? (int)ev->n_cards : s->stack[q].n;
            if (c != base + (k < extra)) {
                FAIL(j, "classic:deal.one_at_a_time", "%s is dealt %d cards; dealt one at a time from the left of "
                     "the dealer p%u, %s gets %d.", who(s, q), c, s->dealer, ol_player_name((ol_player)q),
                     base + (k < extra));
                return;
            }
        }
    }
    openlog_card h[CLASSIC_CARDS_MAX];
    uint16_t pool_before = s->n_pool;
    classic_candidate saved[CLASSIC_CARDS_MAX];
    memcpy(saved, s->pool, sizeof saved[0] * s->n_pool);
    char what[64];
    olverdict_format(what, sizeof what, "The deal to %s", ol_player_name((ol_player)p));
    if (take_hrefs(j, ev, 0, h, what)) {
        memcpy(s->pool, saved, sizeof saved[0] * pool_before);
        s->n_pool = pool_before;
        return;
    }
    classic_zone *z = &s->stack[p];
    int used = 0;
    for (int q = 0; q < s->n; q++)
        used += s->stack[q].n;
    for (size_t i = 0; i < ev->n_cards; i++) {
        uint16_t slot = (uint16_t)(used + i);
        s->hid[slot] = (classic_hidden){h[i], 0};
        z->slot[ev->n_cards - 1 - i] = slot;    /* cards[0] is the top */
    }
    z->n = (uint16_t)ev->n_cards;
    s->dealt[p] = 1;
    if (++s->n_dealt == s->n) {
        s->deal_done = 1;
        settle(s);
    }
}

static void do_flip(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_only(j, "flip");
    if (p < 0)
        return;
    if (!ev->has_at) {
        FAIL(j, "openlog:7", "%s flipped without the table's time; a classic flip names its `at`, not a slot.",
             who(s, p));
        return;
    }
    if (!s->deal_done) {
        FAIL(j, "classic:deal.one_at_a_time", "%s flipped before every player was dealt a stack.", who(s, p));
        return;
    }
    if (s->i_due < s->n_due) {
        char want[240];
        due_words(s, &s->due[s->i_due], want, sizeof want);
        FAIL(j, "classic:A4", "%s flipped while the table was resolving the calls; next %s.", who(s, p), want);
        return;
    }
    if (s->has_flip_at && ev->at < s->last_flip_at) {
        FAIL(j, "classic:A2", "%s's flip at %llu ms is announced after a flip at %llu ms; flips come in the order "
             "of the table's time.", who(s, p), (unsigned long long)ev->at, (unsigned long long)s->last_flip_at);
        return;
    }
    if (s->has_resolved && ev->at < s->resolved_at) {
        FAIL(j, "classic:A2", "%s's flip at %llu ms is announced after the table resolved a call at %llu ms.",
             who(s, p), (unsigned long long)ev->at, (unsigned long long)s->resolved_at);
        return;
    }
    int want = classic_next_to_flip(s);
    if (p != want) {
        if (s->last_flipper < 0)
            FAIL(j, "classic:play.first", "%s flipped first; %s begins.", who(s, p), who(s, want));
        else
            FAIL(j, "classic:play.clockwise", "%s flipped after %s; play goes clockwise, and %s flips next.",
                 who(s, p), who(s, s->last_flipper), who(s, want));
        return;
    }
    classic_zone *z = &s->stack[p];
    if (!z->n) {
        if (s->common)
            FAIL(j, "classic:simple.out", "%s has no card to flip and is out of the game.", who(s, p));
        else
            FAIL(j, "classic:piles.turn_over", "%s has no face-down card; their discard pile is turned over first.",
                 who(s, p));
        return;
    }
    uint16_t slot = z->slot[z->n - 1];
    classic_hidden *hc = &s->hid[slot];
    const card *c = NULL;
    char where[80];
    olverdict_format(where, sizeof where, "The top card of %s's stack", who(s, p));
    if (openlog_reveal(&j->o, &hc->h, ev->card.card, ev->nonce, where, &c))
        return;
    int t = type_of(s, c);
    int k = -1;
    if (t < 0) {
        FAIL(j, "classic:deck.decks", "%s flipped %s, which is not a card of this match's deck.", who(s, p), c->name);
        return;
    }
    if (!hc->h.card && (k = pool_find(s, t, hc->batch)) < 0) {
        FAIL(j, "openlog:6", "%s flipped %s, which could not be there: every %s dealt or shuffled into that part of "
             "the stack has been seen.", who(s, p), c->name, c->name);
        return;
    }
    if (k >= 0)
        pool_drop(s, k);
    z->n--;
    s->up[slot] = (uint8_t)t;
    int pile = s->common ? CLASSIC_COMMON : p;
    s->pile[pile].slot[s->pile[pile].n++] = slot;
    if (s->n_flips == CLASSIC_FLIPS_MAX) {
        /* fold the oldest flip into the window's starting piles */
        const classic_flip *f = &s->flips[0];
        if (f->pile == CLASSIC_COMMON)
            s->start_second = s->start_top[CLASSIC_COMMON];
        s->start_top[f->pile] = f->type;
        memmove(s->flips, s->flips + 1, (CLASSIC_FLIPS_MAX - 1) * sizeof s->flips[0]);
        s->n_flips--;
    }
    s->flips[s->n_flips++] = (classic_flip){ev->at, (uint8_t)pile, (uint8_t)t};
    s->last_flipper = (int8_t)p;
    s->last_flip_at = ev->at;
    s->has_flip_at = 1;
    s->n_flips_total++;
    settle(s);
}

static void do_call(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    int pot_word = ev->type == OL_SNAP_POT;
    int p = player_only(j, pot_word ? "call Snap Pot" : "call Snap");
    if (p < 0)
        return;
    if (s->has_resolved && ev->at < s->resolved_at) {
        FAIL(j, "classic:A2", "%s's %s at %llu ms is announced after the table resolved a call at %llu ms; every call "
             "is announced before the table resolves.", who(s, p), word(pot_word), (unsigned long long)ev->at,
             (unsigned long long)s->resolved_at);
        return;
    }
    if (s->n_calls == CLASSIC_CALLS_MAX) {
        FAIL(j, "classic:A4", "%s called while %d calls wait for the table; it resolves them first.", who(s, p),
             CLASSIC_CALLS_MAX);
        return;
    }
    s->calls[s->n_calls++] = (classic_call){ev->at, ev->seq, (uint8_t)p, (uint8_t)pot_word};
}

/* The cards of the piles `piles` (and the pot), top first per pile. */
static int gather(const classic_state *s, uint16_t piles, int pot, uint16_t *out)
{
    int k = 0;
    for (int p = 0; p < CLASSIC_PILES; p++)
        if ((piles >> p) & 1)
            for (int i = s->pile[p].n - 1; i >= 0; i--)
                out[k++] = s->pile[p].slot[i];
    if (pot)
        for (int i = s->pot.n - 1; i >= 0; i--)
            out[k++] = s->pot.slot[i];
    return k;
}

static uint16_t piles_of(const classic_state *s, const olevent *ev)
{
    uint16_t m = 0;
    if (s->common)
        return ev->n_piles ? NO_SUCH_PILES : (uint16_t)(1u << CLASSIC_COMMON);
    for (size_t i = 0; i < ev->n_piles; i++)
        m |= (uint16_t)(1u << ev->piles[i]);
    return m;
}

/* Face-up cards shuffled into a new hidden order under `p`'s stack; a list
 * of another length breaks `rule`, the rule that moves them. */
static int shuffle_in(judge *j, int p, const uint16_t *slots, int k, const char *what, const char *rule)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if ((int)ev->n_cards != k)
        return FAIL(j, rule, "%s lists %zu cards; %d are shuffled in.", what, ev->n_cards, k);
    uint16_t batch = s->next_batch, pool_before = s->n_pool;
    for (int i = 0; i < k; i++)
        s->pool[s->n_pool++] = (classic_candidate){s->up[slots[i]], batch};
    openlog_card h[CLASSIC_CARDS_MAX];
    if (take_hrefs(j, ev, batch, h, what)) {
        s->n_pool = pool_before;   /* the entries added are the last ones, in order */
        return -1;
    }
    /* open mode took every entry of the batch out; the others keep theirs */
    s->next_batch++;
    for (int i = 0; i < k; i++)
        s->hid[slots[i]] = (classic_hidden){h[i], batch};
    put_under(&s->stack[p], slots, k);
    return 0;
}

static void clear_piles(classic_state *s, uint16_t piles, int pot)
{
    for (int p = 0; p < CLASSIC_PILES; p++)
        if ((piles >> p) & 1)
            s->pile[p].n = 0;
    if (pot)
        s->pot.n = 0;
}

static void do_take(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (table_only(j, "a take"))
        return;
    const classic_due *d = next_due(j, DUE_TAKE);
    if (!d)
        return;
    int p = (int)ev->player;
    char piles[160];
    piles_words(s, d->piles, d->pot, piles, sizeof piles);
    const char *rule = take_rule(s, d);
    if (!((d->may_take >> p) & 1)) {
        if (d->second == p)
            FAIL(j, rule, "%s called %s %llu ms after %s; %s takes %s.", who(s, p), word(d->pot_word),
                 (unsigned long long)(d->second_at - d->at), who(s, d->p), ol_player_name((ol_player)d->p), piles);
        else
            FAIL(j, rule, "The table gives the cards to %s, but %s called %s first; %s takes %s.", who(s, p),
                 who(s, d->p), word(d->pot_word), ol_player_name((ol_player)d->p), piles);
        return;
    }
    uint16_t named = piles_of(s, ev);
    if (named != d->piles || (ev->pot != 0) != (d->pot != 0)) {
        char said[160];
        piles_words(s, named, ev->pot, said, sizeof said);
        FAIL(j, rule, "The table gives %s %s; the %s at %llu ms takes %s.", who(s, p), said, word(d->pot_word),
             (unsigned long long)d->at, piles);
        return;
    }
    uint16_t slots[CLASSIC_CARDS_MAX];
    int k = gather(s, d->piles, d->pot, slots);
    char what[80];
    olverdict_format(what, sizeof what, "The take by %s", ol_player_name((ol_player)p));
    if (shuffle_in(j, p, slots, k, what, rule))
        return;
    clear_piles(s, d->piles, d->pot);
    due_done(s);
    settle(s);
}

static void do_pot(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (table_only(j, "a snap pot"))
        return;
    const classic_due *d = next_due(j, DUE_POT);
    if (!d)
        return;
    uint16_t named = piles_of(s, ev);
    if (named != d->piles) {
        char want[160], said[160];
        piles_words(s, d->piles, 0, want, sizeof want);
        piles_words(s, named, 0, said, sizeof said);
        FAIL(j, d->pot_word ? "classic:pot.grows" : "classic:pot.tie", "The table sets aside %s; the tie disputed %s.",
             said, want);
        return;
    }
    /* the matching cards on top: each pile's cards in order, its top last;
     * a pot answers a right call, so at least one pile goes */
    int value = 0;
    for (int p = 0; p < CLASSIC_PILES; p++) {
        if (!((d->piles >> p) & 1))
            continue;
        classic_zone *z = &s->pile[p];
        value = value_of_slot(s, z->slot[z->n - 1]);
        memcpy(s->pot.slot + s->pot.n, z->slot, z->n * sizeof z->slot[0]);
        s->pot.n = (uint16_t)(s->pot.n + z->n);
        z->n = 0;
    }
    s->pot_value = (uint8_t)value;
    due_done(s);
    settle(s);
}

static void do_penalty(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (table_only(j, "a penalty"))
        return;
    const classic_due *d = next_due(j, DUE_PENALTY);
    if (!d)
        return;
    int p = (int)ev->player;
    if (p != d->p) {
        FAIL(j, "classic:penalty.pay", "The table charges %s a penalty, but the wrong call was %s's %s at %llu ms.",
             who(s, p), who(s, d->p), word(d->pot_word), (unsigned long long)d->at);
        return;
    }
    /* one face-down card to each player still in, from the left (A7) */
    classic_zone *z = &s->stack[p];
    int short_of = 0;
    for (int k = 1; k < s->n; k++) {
        int q = (p + k) % s->n;
        if (s->out[q])
            continue;
        if (!z->n) {
            short_of = 1;
            break;
        }
        uint16_t slot = z->slot[--z->n];
        put_under(&s->stack[q], &slot, 1);
    }
    if (short_of)
        eliminate(s, p);   /* not enough cards to pay (out.cards, A7) */
    due_done(s);
    settle(s);
}

static void do_turn_over(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (table_only(j, "a discard pile turned over"))
        return;
    int p = (int)ev->player;
    if (s->common) {
        FAIL(j, "classic:piles.turn_over", "The table turns over %s's discard pile, but in the common-pile version "
             "no player has one.", who(s, p));
        return;
    }
    if (s->n_calls || s->i_due < s->n_due) {
        FAIL(j, "classic:A4", "The table turns over %s's discard pile while calls wait to be resolved.", who(s, p));
        return;
    }
    if (s->out[p] || s->stack[p].n || !s->pile[p].n) {
        FAIL(j, "classic:piles.turn_over", "The table turns over %s's discard pile; a player turns it over only "
             "when they have no face-down card left%s.", who(s, p),
             s->pile[p].n ? "" : " and a discard pile to turn");
        return;
    }
    uint16_t slots[CLASSIC_CARDS_MAX];
    int k = gather(s, (uint16_t)(1u << p), 0, slots);
    char what[80];
    olverdict_format(what, sizeof what, "The turned-over pile of %s", ol_player_name((ol_player)p));
    if (shuffle_in(j, p, slots, k, what, "classic:piles.turn_over"))
        return;
    s->pile[p].n = 0;
    /* no call waits: the next window starts from the piles as they are */
    window_reset(s);
    settle(s);
}

static void do_out(judge *j)
{
    classic_state *s = j->s;
    if (table_only(j, "an elimination"))
        return;
    int p = (int)j->o.ev->player;
    if (!s->out[p])
        FAIL(j, "classic:out.cards", "The table announces %s out, but they hold %d cards and are still in the game.",
             who(s, p), cards_held(s, p));
}

/* What the engine finds of the end, for a claim's sentence: "the game
 * still going on", "a draw", "a win for p2 (ben)". */
static void end_words(const classic_state *s, char *out, size_t cap)
{
    if (!s->m.over)
        olverdict_format(out, cap, "the game still going on");
    else if (s->m.draw)
        olverdict_format(out, cap, "a draw");
    else
        olverdict_format(out, cap, "a win for %s", who(s, s->m.winner));
}

static void do_claim(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    /* EVIDENCE-OF: classic:A15 -- a call the table never resolved is caught
     * at the end at the latest: nothing ends while a consequence is due */
    classic_due waiting[CLASSIC_CALLS_MAX];
    const classic_due *d = s->i_due < s->n_due ? &s->due[s->i_due] : NULL;
    if (!d && s->n_calls && window_dues(s, waiting) > 0)
        d = &waiting[0];
    if (d) {
        char want[240];
        due_words(s, d, want, sizeof want);
        FAIL(j, "classic:A15", "The table claims the end of the game while a call waits to be resolved: first %s.",
             want);
        return;
    }
    char found[96];
    end_words(s, found, sizeof found);
    if (ev->has_winner && (!s->m.over || s->m.winner != (int)ev->winner)) {
        openlog_fail(&j->o, OL_V_MISMATCH, "classic:end.winner", "The table claims %s won; the engine finds %s.",
                     ol_player_name(ev->winner), found);
        return;
    }
    if (ev->has_draw && ev->draw != (s->m.over && s->m.draw)) {
        openlog_fail(&j->o, OL_V_MISMATCH, "classic:end.draw", "The table claims %s; the engine finds %s.",
                     ev->draw ? "a draw" : "no draw", found);
        return;
    }
    if (ev->has_defeated || ev->has_lp)
        FAIL(j, "openlog:7", "A classic Snap claim names a winner or a draw; it has no defeated monsters or "
             "Life Points.");
}

static void do_judge(judge *j)
{
    classic_state *s = j->s;
    const olevent *ev = j->o.ev;
    if (ev->ruling != OL_RULING_GAME_LOSS || !ev->has_player) {
        openlog_ruling(&j->o);
        return;
    }
    /* a game loss puts one player out; the others play on (openlog_ruling
     * would end a duel) */
    if (ev->by != OL_BY_JUDGE) {
        FAIL(j, "openlog:3", "A game loss is announced by the judge.");
        return;
    }
    if (!s->m.over) {
        eliminate(s, (int)ev->player);
        settle(s);
    }
}

typedef void (*handler)(judge *j);

static const handler handlers[OL_TYPE_COUNT] = {
    [OL_DEAL] = do_deal,       [OL_FLIP] = do_flip,   [OL_SNAP] = do_call,       [OL_SNAP_POT] = do_call,
    [OL_TAKE] = do_take,       [OL_POT] = do_pot,     [OL_PENALTY] = do_penalty, [OL_TURN_OVER] = do_turn_over,
    [OL_OUT] = do_out,         [OL_CLAIM] = do_claim, [OL_JUDGE] = do_judge,
};

static int classic_has_type(ol_type t)
{
    return (unsigned)t < OL_TYPE_COUNT && handlers[t] != NULL;
}

void classic_apply(classic_state *s, const olevent *ev, olverdict *v)
{
    judge j = {{&s->m, ev, v, 0}, s};
    olverdict_set(v, ev->match, ev->seq, OL_V_OK, NULL, NULL);
    if (s->refused) {
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, s->refused_rule,
                      "The match did not start: its header was refused.");
        return;
    }
    if (openlog_over(&s->m, ev, v, "classic:end.winner", "The game is over; nothing is played after its end."))
        return;
    if (!handlers[ev->type]) {   /* the seam refuses other formats' types; a direct caller may not */
        FAIL(&j, "openlog:7", "An event of type %s is not an action of classic Snap.", ol_type_name(ev->type));
        return;
    }
    /* Handlers change the state only once every check has passed -- but to
     * judge the first consequence announced, next_due() resolves the window
     * first; an announcement found wrong leaves it open, as it was. */
    window_mark w = window_keep(s);
    handlers[ev->type](&j);
    if (j.o.failed)
        window_restore(s, &w);
}

/* ---- the seam ------------------------------------------------------------------ */

static void classic_log_ended(classic_state *s)
{
    (void)s;   /* no window closes by silence: calls wait for the table */
}

static int ops_finished(const void *st, int *winner)
{
    const classic_state *s = st;
    if (winner)
        *winner = s->m.over ? s->m.winner : -1;
    return s->m.over;
}

static unsigned ops_round(const void *st)
{
    const classic_state *s = st;
    return s->deal_done ? 1 + s->n_flips_total / s->n : 0;   /* (n: 2 to 8, the seam's range) */
}

static void ops_unverified(const void *st, unsigned out[OL_PLAYERS_MAX])
{
    const classic_state *s = st;
    for (int p = 0; p < s->n; p++) {
        out[p] = 0;
        for (int i = 0; i < s->stack[p].n; i++)
            out[p] += !s->hid[s->stack[p].slot[i]].h.card;
    }
}

/* No tournament score: the cards each player holds, out of the deck. */
static void ops_score(const void *st, int64_t out[OL_PLAYERS_MAX], int64_t *base)
{
    const classic_state *s = st;
    for (int p = 0; p < s->n; p++)
        out[p] = cards_held(s, p);
    *base = s->n_cards;
}

VERIFIER_OPS_ADAPTERS(classic_state, classic_start, classic_apply, classic_log_ended, classic_board_json,
                      classic_board_words, classic_encode)

/* A face-down stack's order is hidden (SPEC.md 7.6): the deal's, a take's
 * and a turn-over's new stack, top first -- the cards of a take or a
 * turn-over were seen face up, but not the order they are shuffled into.
 * Their player's own view sees them. */
static size_t classic_hidden_fields(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX])
{
    (void)header;
    if (ev->type != OL_DEAL && ev->type != OL_TAKE && ev->type != OL_TURN_OVER)
        return 0;
    out[0] = (verifier_hidden_field){"cards", 1, SIZE_MAX, ev->has_player ? (int)ev->player : -1};
    return 1;
}

const verifier_ops classic_verifier_ops = {
    .format = OL_FORMAT_CLASSIC,
    .title = "classic Snap",
    .engine = CLASSIC_ENGINE,
    .cards = &classic_cards,
    .state_size = sizeof(classic_state),
    .players_min = 2,
    .players_max = OL_PLAYERS_MAX,
    .has_type = classic_has_type,
    .rules = classic_rules,
    .start = ops_start,
    .apply = ops_apply,
    .log_ended = ops_log_ended,
    .finished = ops_finished,
    .round = ops_round,
    .unverified = ops_unverified,
    .score = ops_score,
    .board_json = ops_board_json,
    .board_words = ops_board_words,
    .encode = ops_encode,
    .hidden = classic_hidden_fields,
};

/* ---- invariants ------------------------------------------------------------------ */

int classic_check_invariants(const classic_state *s)
{
    if (!s->deal_done)   /* (a refused match deals nothing: classic_apply refuses its every event) */
        return 0;
    uint8_t seen[CLASSIC_CARDS_MAX] = {0};
    int total = 0, unknown = 0;
    const classic_zone *zones[OL_PLAYERS_MAX + CLASSIC_PILES + 1];
    int nz = 0;
    for (int p = 0; p < s->n; p++)
        zones[nz++] = &s->stack[p];
    for (int p = 0; p < CLASSIC_PILES; p++)
        zones[nz++] = &s->pile[p];
    zones[nz++] = &s->pot;
    for (int z = 0; z < nz; z++)
        for (int i = 0; i < zones[z]->n; i++) {
            uint16_t slot = zones[z]->slot[i];
            if (slot >= s->n_cards || seen[slot]++)
                return 1;
            total++;
            if (z < s->n && !s->hid[slot].h.card)
                unknown++;
        }
    if (total != s->n_cards)
        return 1;
    if (unknown != s->n_pool)
        return 2;
    if (s->pot.n && value_of_slot(s, s->pot.slot[s->pot.n - 1]) != s->pot_value)
        return 3;
    if (s->m.over && !s->m.draw && (s->m.winner < 0 || s->out[s->m.winner]))
        return 4;
    return 0;
}
