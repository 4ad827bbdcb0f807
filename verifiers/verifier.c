/* verifier.c -- one interface, one engine per format.
 *
 * The daemon and the command line hold a `verifier` and never a format's
 * state directly; this file picks the engine's operations table by the
 * header's format (the registry, verifiers/registry.c) and forwards.  A format
 * without an engine (none the codec reads today) is refused with
 * VERIFIER_ENOENGINE rather than half-judged.
 *
 * What it judges itself, once for every engine: a header whose number of
 * players is not the format's is refused; an event naming a seat the match
 * does not have (p3 of a duel) is illegal, so no engine indexes past its
 * players; an event type that is not one of the format's (a Snap `flip`
 * in an Advanced match) is illegal before any engine sees it, so no
 * engine needs a handler for another format's events.
 *
 * Every engine's state begins with its openlog_match (verifiers/openlog.h),
 * so what the open log owns -- the hidden mode, the end of the game -- is
 * read here without knowing the format.
 */
#include <sodium/crypto_generichash.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "verifiers/verifier.h"

/* One allocation: the engine's state follows the operations table,
 * aligned for any type (state_size bytes, zeroed before start).  `encoded`
 * is the buffer verifier_state_hash() encodes the state into, kept so that
 * hashing after every event does not allocate: it holds no state of the
 * match (each use resets it), so a const verifier may write into it. */
struct verifier {
    const verifier_ops *ops;
    jtext *encoded;
    unsigned n_players;       /* the header's, within ops' range */
    int judging;              /* the header's on_illegal is "judge" */
    void *kept;               /* verifier_keep's copy of the state, or NULL */
    max_align_t state[];
};

static const verifier_rule *find_in(const verifier_rule *rules, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rules[i].id, id))
            return &rules[i];
    return NULL;
}

const verifier_rule *verifier_rule_find(const char *id)
{
    const verifier_rule *r;
    size_t n;

    if (!id)
        return NULL;
    const verifier_rule *own = openlog_rules(&n);
    if ((r = find_in(own, n, id)))
        return r;
    const verifier_ops *ops;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        const verifier_rule *table = ops->rules(&n);
        if ((r = find_in(table, n, id)))
            return r;
    }
    return NULL;
}

int verifier_new(const cards *db, const olevent *header, verifier **out, olverdict *v)
{
    return verifier_new_memo(db, NULL, header, out, v);
}

int verifier_new_memo(const cards *db, deck_memo *memo, const olevent *header, verifier **out, olverdict *v)
{
    const verifier_ops *ops = verifier_ops_of(header->header.format);
    verifier *vf = NULL;

    *out = NULL;
    if (!ops) {
        olverdict_set(v, header->match, header->seq, OL_V_MALFORMED, NULL,
                      "arbiter has no rules engine for the format numbered %d.", (int)header->header.format);
        return VERIFIER_ENOENGINE;
    }
    unsigned n = header->header.n_players;
    if (n < ops->players_min || n > ops->players_max) {
        char range[24];
        olverdict_format(range, sizeof range, ops->players_min == ops->players_max ? "%u" : "%u to %u",
                         ops->players_min, ops->players_max);
        const char *name = ol_format_name(ops->format);
        olverdict_set(v, header->match, header->seq, OL_V_MALFORMED, "openlog:4",
                      "%s %s match has %s players; this header names %u.", strchr("aeiou", name[0]) ? "An" : "A",
                      name, range, n);
        return VERIFIER_EPLAYERS;
    }
    if (db && ops->cards && !cards_serve(db, ops->format)) {
        olverdict_set(v, header->match, header->seq, OL_V_MALFORMED, "openlog:4",
                      "The card database %s@%s has cards without %s properties: it cannot serve a %s match.",
                      cards_set(db), cards_version(db), ol_format_name(ops->format), ops->title);
        return VERIFIER_ECARDS;
    }
    if (!(vf = calloc(1, sizeof *vf + ops->state_size)))
        return VERIFIER_ENOMEM;
    vf->ops = ops;
    vf->n_players = n;
    vf->judging = ol_header_lever(&header->header, "on_illegal", OL_ON_ILLEGAL_REJECT) == OL_ON_ILLEGAL_JUDGE;
    if (ops->start(vf->state, db, memo, header, v) != VERIFIER_OK) {
        /* not a verdict: no deck is taken for legal or illegal */
        memset(v, 0, sizeof *v);
        free(vf);
        return VERIFIER_ENOMEM;
    }
    *out = vf;
    return VERIFIER_OK;
}

size_t verifier_event_hidden(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX])
{
    const verifier_ops *ops = header ? verifier_ops_of(header->header.format) : NULL;
    if (header)
        return ops && ops->hidden ? ops->hidden(ev, header, out) : 0;
    /* no header: what the first engine that hides anything of an event of
     * this type hides, under its default levers -- never less than a
     * format could hide */
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        size_t n = ops->hidden ? ops->hidden(ev, NULL, out) : 0;
        if (n)
            return n;
    }
    return 0;
}

/* Who announced an event, to open a sentence. */
static const char *announcer(ol_by by)
{
    return by == OL_BY_TABLE ? "The table" : by == OL_BY_JUDGE ? "The judge" : ol_by_name(by);
}

static const openlog_match *common(const verifier *vf)
{
    return (const openlog_match *)vf->state;
}

/* "p1 and p2", "p1 to p4": the seats of a match of n players. */
static void seats_words(char *out, size_t cap, unsigned n)
{
    olverdict_format(out, cap, "%s %s %s", ol_player_name(OL_P1), n == 2 ? "and" : "to",
                     ol_player_name((ol_player)(n - 1)));
}

/* The first seat the event names that the match does not have, or -1:
 * its `by`, any reference's `p`, a claim's winner, a ruling's player,
 * a classic take's or pot's piles.
 * Fields of other types are zero (p1), which every match has. */
static int missing_seat(const olevent *ev, unsigned n)
{
    if (ev->by < OL_BY_TABLE && (unsigned)ev->by >= n)
        return (int)ev->by;
    const ol_ref *one[] = {&ev->source, &ev->target};
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        if ((unsigned)one[i]->p >= n)
            return (int)one[i]->p;
    for (size_t i = 0; i < ev->n_targets; i++)
        if ((unsigned)ev->targets[i].p >= n)
            return (int)ev->targets[i].p;
    for (size_t i = 0; i < ev->n_defeated; i++)
        if ((unsigned)ev->defeated[i].p >= n)
            return (int)ev->defeated[i].p;
    if (ev->has_winner && (unsigned)ev->winner >= n)
        return (int)ev->winner;
    if (ev->has_player && (unsigned)ev->player >= n)
        return (int)ev->player;
    for (size_t i = 0; i < ev->n_piles; i++)
        if ((unsigned)ev->piles[i] >= n)
            return (int)ev->piles[i];
    return -1;
}

void verifier_apply(verifier *vf, const olevent *ev, olverdict *v)
{
    /* openlog 3: `by` and every seat an event names is one of the header's
     * players; a seat past them is nobody at this table. */
    int seat = missing_seat(ev, vf->n_players);
    if (seat >= 0) {
        char seats[16];
        seats_words(seats, sizeof seats, vf->n_players);
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:3",
                      "%s is not a player of this match, whose players are %s.", ol_player_name((ol_player)seat),
                      seats);
        return;
    }
    /* openlog 7: each format has its own event types; an event of another
     * format's is no action of this game (has_type is 0 for any value
     * that is no type at all).  The end of the game still wins: after it,
     * every event but judge and claim -- which every format has -- is
     * refused by the engine as coming after the end. */
    if (!vf->ops->has_type(ev->type) && !common(vf)->over) {
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:7",
                      "%s announced a %s, which is not an action of the %s format this match is played in.",
                      announcer(ev->by), ol_type_name(ev->type), vf->ops->title);
        return;
    }
    vf->ops->apply(vf->state, ev, v);
}

/* ---- remedies (SPEC.md 8.1) ---------------------------------------------
 *
 * An engine's state is plain bytes (state_size of them, pointers only
 * into the card database), so the state before an event is one memcpy and
 * backing up is another: no engine does anything for `backup`.  For
 * `stands` an engine marks the checks a judge may pass over
 * (OPENLOG_BREAK, verifiers/openlog.h) and the event is judged again with
 * m->forcing set. */

int verifier_judging(const verifier *vf)
{
    return vf->judging;
}

int verifier_keep(verifier *vf)
{
    if (!vf->kept && !(vf->kept = malloc(vf->ops->state_size)))
        return VERIFIER_ENOMEM;
    memcpy(vf->kept, vf->state, vf->ops->state_size);
    return VERIFIER_OK;
}

int verifier_back_up(verifier *vf)
{
    if (!vf->kept)
        return -1;
    memcpy(vf->state, vf->kept, vf->ops->state_size);
    return 0;
}

unsigned verifier_force(verifier *vf, const olevent *ev, olverdict *v)
{
    openlog_match *m = (openlog_match *)vf->state;
    m->forcing = 1;
    m->n_forced = 0;
    verifier_apply(vf, ev, v);
    unsigned n = m->n_forced;
    m->forcing = 0;
    m->n_forced = 0;
    return v->status == OL_V_OK || v->status == OL_V_WARNING ? n : 0;
}

void verifier_log_ended(verifier *vf)
{
    vf->ops->log_ended(vf->state);
}

unsigned verifier_players(const verifier *vf)
{
    return vf->n_players;
}

int verifier_finished(const verifier *vf, int *winner)
{
    return vf->ops->finished(vf->state, winner);
}

int verifier_draw(const verifier *vf)
{
    return common(vf)->over && common(vf)->draw;
}

void verifier_unverified(const verifier *vf, unsigned out[OL_PLAYERS_MAX])
{
    memset(out, 0, OL_PLAYERS_MAX * sizeof out[0]);
    vf->ops->unverified(vf->state, out);
}

int verifier_score(const verifier *vf, int64_t score[OL_PLAYERS_MAX], int64_t *base)
{
    memset(score, 0, OL_PLAYERS_MAX * sizeof score[0]);
    int64_t b = 0;
    vf->ops->score(vf->state, score, &b);
    if (base)
        *base = b;
    return VERIFIER_OK;
}

unsigned verifier_round(const verifier *vf)
{
    return vf->ops->round(vf->state);
}

const char *verifier_engine(const verifier *vf)
{
    return vf->ops->engine;
}

ol_hidden verifier_hidden(const verifier *vf)
{
    return common(vf)->hidden;
}

/* An engine's board functions return 0, or -1 exactly when t->bad is set
 * (verifier_ops): their answer is the seam's. */
int verifier_board_json(const verifier *vf, const openlog_sight *sight, jtext *t)
{
    jtext_reset(t);
    return vf->ops->board_json(vf->state, sight, t);
}

int verifier_board_words(const verifier *vf, const openlog_sight *sight, jtext *t)
{
    jtext_reset(t);
    return vf->ops->board_words(vf->state, sight, t);
}

int verifier_encode(const verifier *vf, jtext *t)
{
    jtext_reset(t);
    return vf->ops->encode(vf->state, t);
}

int verifier_state_hash(const verifier *vf, uint8_t out[VERIFIER_HASH_BYTES])
{
    memset(out, 0, VERIFIER_HASH_BYTES);
    if (!vf->encoded && !(((verifier *)vf)->encoded = calloc(1, sizeof *vf->encoded)))
        return VERIFIER_ENOMEM;
    if (verifier_encode(vf, vf->encoded) || vf->encoded->bad)
        return VERIFIER_ENOMEM;
    /* libsodium fails this only for an output length out of its range */
    crypto_generichash(out, VERIFIER_HASH_BYTES, (const unsigned char *)vf->encoded->buf, vf->encoded->len, NULL, 0);
    return VERIFIER_OK;
}

void verifier_destroy(verifier **vf)
{
    if (!vf || !*vf)
        return;
    if ((*vf)->encoded)
        jtext_free((*vf)->encoded);
    free((*vf)->encoded);
    free((*vf)->kept);
    free(*vf);
    *vf = NULL;
}
