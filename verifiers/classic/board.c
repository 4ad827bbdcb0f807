/* board.c -- the classic Snap board for a viewer, and the state's canonical
 * encoding.
 *
 * What a viewer is shown: every stack's count, every discard pile's count
 * and top card, the common pile, the snap pot (its count and top), who is
 * out, whose flip is next, the calls waiting for the table, the end.  The
 * face-down cards themselves -- their order is the game's only secret --
 * are shown only to whom the sight lets see that player's hidden cards
 * (openlog_show: the judge sees all, a player their own stack, the public
 * none); the face-up piles are public.
 *
 * The canonical encoding of engine classic/1 is the board in JSON at full
 * sight, followed by what the board does not show but the next verdicts
 * depend on: the commitments and batches of the face-down cards, the pool
 * of what they may be, the open window (its calls and flips, its starting
 * piles) and the consequences still due.  Records keep hashes of it: a key
 * added for viewers stays out of it, or comes with a new engine version.
 */
#include <string.h>

#include "logformat/jtext.h"
#include "verifiers/classic/classic.h"

static const char *type_id(const classic_state *s, int type)
{
    return type >= 0 ? s->types[type]->id : NULL;
}

static int zone_top(const classic_state *s, const classic_zone *z)
{
    return z->n ? s->up[z->slot[z->n - 1]] : -1;
}

static int next_seat(const classic_state *s)
{
    return s->deal_done && !s->m.over ? classic_next_to_flip(s) : -1;
}

/* A stack's cards, top first, as the sight may see them. */
static void stack_json(jtext *t, const classic_state *s, const openlog_sight *sight, int p)
{
    const classic_zone *z = &s->stack[p];
    jtext_lit(t, "[");
    for (int i = z->n - 1; i >= 0; i--) {
        if (i != z->n - 1)
            jtext_lit(t, ",");
        openlog_shown_json(t, openlog_show(sight, p, &s->hid[z->slot[i]].h));
    }
    jtext_lit(t, "]");
}

static void pile_json(jtext *t, const classic_state *s, const classic_zone *z)
{
    jtext_member_int(t, "{\"count\":", z->n);
    jtext_lit(t, ",\"top\":");
    jtext_str_or_null(t, type_id(s, zone_top(s, z)));
    jtext_lit(t, "}");
}

int classic_board_json(const classic_state *s, const openlog_sight *sight, jtext *t)
{
    int next = next_seat(s);
    jtext_lit(t, "{\"format\":\"classic\",\"variant\":");
    jtext_str(t, s->common ? "common_pile" : "own_piles");
    jtext_lit(t, ",\"next\":");
    jtext_str_or_null(t, next >= 0 ? ol_player_name((ol_player)next) : NULL);
    jtext_lit(t, ",\"players\":[");
    for (int p = 0; p < s->n; p++) {
        if (p)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"seat\":");
        jtext_str(t, ol_player_name((ol_player)p));
        jtext_lit(t, ",\"out\":");
        jtext_bool(t, s->out[p]);
        jtext_member_int(t, ",\"stack\":", s->stack[p].n);
        if (sight->sees[p]) {
            jtext_lit(t, ",\"stack_cards\":");
            stack_json(t, s, sight, p);
        }
        if (!s->common) {
            jtext_lit(t, ",\"pile\":");
            pile_json(t, s, &s->pile[p]);
        }
        jtext_lit(t, "}");
    }
    jtext_lit(t, "]");
    if (s->common) {
        jtext_lit(t, ",\"common_pile\":");
        pile_json(t, s, &s->pile[CLASSIC_COMMON]);
    }
    jtext_lit(t, ",\"pot\":");
    pile_json(t, s, &s->pot);
    jtext_member_int(t, ",\"calls_waiting\":", s->n_calls);
    jtext_member_int(t, ",\"consequences_due\":", s->n_due - s->i_due);
    jtext_lit(t, ",\"over\":");
    jtext_bool(t, s->m.over);
    jtext_lit(t, ",\"winner\":");
    jtext_str_or_null(t, s->m.over && s->m.winner >= 0 ? ol_player_name((ol_player)s->m.winner) : NULL);
    jtext_lit(t, ",\"draw\":");
    jtext_bool(t, s->m.draw);
    jtext_lit(t, "}");
    return t->bad ? -1 : 0;
}

static const char *top_name(const classic_state *s, const classic_zone *z)
{
    int top = zone_top(s, z);
    return top >= 0 ? s->types[top]->name : "empty";
}

int classic_board_words(const classic_state *s, const openlog_sight *sight, jtext *t)
{
    int next = next_seat(s);
    jtext_fmt(t, "Classic Snap, %s; %s.\n", s->common ? "one common discard pile" : "a discard pile each",
              s->m.over ? (s->m.draw ? "the game is a draw" : "the game is over")
              : next >= 0 ? "play goes on" : "the deal is not done");
    for (int p = 0; p < s->n; p++) {
        jtext_fmt(t, "%s: %s%d face-down card%s", openlog_who(&s->m, p), s->out[p] ? "out, " : "", s->stack[p].n,
                  s->stack[p].n == 1 ? "" : "s");
        if (!s->common)
            jtext_fmt(t, "; discard pile %d, top %s", s->pile[p].n, top_name(s, &s->pile[p]));
        if (p == next)
            jtext_lit(t, "; flips next");
        if (s->m.over && s->m.winner == p)
            jtext_lit(t, "; wins");
        jtext_lit(t, ".\n");
        if (sight->sees[p] && s->stack[p].n) {
            jtext_lit(t, "  stack, top first:");
            for (int i = s->stack[p].n - 1; i >= 0; i--)
                jtext_fmt(t, "%s %s", i == s->stack[p].n - 1 ? "" : ",",
                          openlog_shown_words(openlog_show(sight, p, &s->hid[s->stack[p].slot[i]].h)));
            jtext_lit(t, "\n");
        }
    }
    if (s->common)
        jtext_fmt(t, "Common pile: %d, top %s.\n", s->pile[CLASSIC_COMMON].n, top_name(s, &s->pile[CLASSIC_COMMON]));
    jtext_fmt(t, "Snap pot: %d, top %s.\n", s->pot.n, top_name(s, &s->pot));
    if (s->n_calls)
        jtext_fmt(t, "%d call%s wait for the table.\n", s->n_calls, s->n_calls == 1 ? "" : "s");
    return t->bad ? -1 : 0;
}

static void zone_enc(jtext *t, const classic_zone *z)
{
    jtext_lit(t, "[");
    for (int i = 0; i < z->n; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_int(t, z->slot[i]);
    }
    jtext_lit(t, "]");
}

int classic_encode(const classic_state *s, jtext *t)
{
    openlog_sight all;
    memset(&all, 1, sizeof all);
    if (classic_board_json(s, &all, t))
        return -1;
    /* the rest, after the board: hidden cards, the pool, the window */
    jtext_lit(t, "\n{\"hidden\":[");
    for (int p = 0; p < s->n; p++) {
        if (p)
            jtext_lit(t, ",");
        jtext_lit(t, "[");
        for (int i = 0; i < s->stack[p].n; i++) {
            const classic_hidden *h = &s->hid[s->stack[p].slot[i]];
            if (i)
                jtext_lit(t, ",");
            jtext_int(t, h->batch);
            if (h->h.has_commit) {
                jtext_lit(t, ",\"");
                for (int b = 0; b < OL_COMMIT_BYTES; b++)
                    jtext_fmt(t, "%02x", h->h.commit[b]);
                jtext_lit(t, "\"");
            }
        }
        jtext_lit(t, "]");
    }
    jtext_lit(t, "],\"zones\":[");
    for (int p = 0; p < s->n; p++) {
        zone_enc(t, &s->stack[p]);
        jtext_lit(t, ",");
    }
    for (int p = 0; p < CLASSIC_PILES; p++) {
        zone_enc(t, &s->pile[p]);
        jtext_lit(t, ",");
    }
    zone_enc(t, &s->pot);
    jtext_lit(t, "],\"pool\":[");
    for (int i = 0; i < s->n_pool; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_int(t, s->pool[i].type);
        jtext_lit(t, ",");
        jtext_int(t, s->pool[i].batch);
    }
    jtext_fmt(t, "],\"clock\":[%llu,%d,%llu,%d,%d,%u,%d]", (unsigned long long)s->last_flip_at, s->has_flip_at,
              (unsigned long long)s->resolved_at, s->has_resolved, s->last_flipper, s->n_flips_total, s->next_batch);
    jtext_lit(t, ",\"calls\":[");
    for (int i = 0; i < s->n_calls; i++)
        jtext_fmt(t, "%s[%llu,%d,%d]", i ? "," : "", (unsigned long long)s->calls[i].at, s->calls[i].p,
                  s->calls[i].pot_word);
    jtext_lit(t, "],\"flips\":[");
    for (int i = 0; i < s->n_flips; i++)
        jtext_fmt(t, "%s[%llu,%d,%d]", i ? "," : "", (unsigned long long)s->flips[i].at, s->flips[i].pile,
                  s->flips[i].type);
    jtext_lit(t, "],\"start\":[");
    for (int p = 0; p < CLASSIC_PILES; p++)
        jtext_fmt(t, "%d,", s->start_top[p]);
    jtext_int(t, s->start_second);
    jtext_lit(t, "],\"due\":[");
    for (int i = s->i_due; i < s->n_due; i++) {
        const classic_due *d = &s->due[i];
        jtext_fmt(t, "%s[%d,%d,%d,%d,%d,%u,%u,%llu]", i > s->i_due ? "," : "", d->kind, d->p, d->pot, d->pot_word,
                  d->mixup, d->piles, d->may_take, (unsigned long long)d->at);
    }
    jtext_lit(t, "]}");
    return t->bad ? -1 : 0;
}
