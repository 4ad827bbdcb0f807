/* verifier.c -- one interface, one engine per format.
 *
 * The daemon and the command line hold a `verifier` and never a format's
 * state directly; this file picks the engine's operations table by the
 * header's format (the registry, verifiers/registry.c) and forwards.  A format
 * without an engine (none the codec reads today) is refused with
 * VERIFIER_ENOENGINE rather than half-judged.
 *
 * What it judges itself, once for every engine: an event type that is not
 * one of the format's (a Snap `flip` in an Advanced match) is illegal
 * before any engine sees it, so no engine needs a handler for another
 * format's events.
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
    const verifier_ops *ops = verifier_ops_of(header->header.format);
    verifier *vf = NULL;

    *out = NULL;
    if (!ops) {
        olverdict_set(v, header->match, header->seq, OL_V_MALFORMED, NULL,
                      "arbiter has no rules engine for the format numbered %d.", (int)header->header.format);
        return VERIFIER_ENOENGINE;
    }
    if (!(vf = calloc(1, sizeof *vf + ops->state_size)))
        return VERIFIER_ENOMEM;
    vf->ops = ops;
    if (ops->start(vf->state, db, header, v) != VERIFIER_OK) {
        /* not a verdict: no deck is taken for legal or illegal */
        memset(v, 0, sizeof *v);
        free(vf);
        return VERIFIER_ENOMEM;
    }
    *out = vf;
    return VERIFIER_OK;
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

void verifier_apply(verifier *vf, const olevent *ev, olverdict *v)
{
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

void verifier_log_ended(verifier *vf)
{
    vf->ops->log_ended(vf->state);
}

int verifier_finished(const verifier *vf, int *winner)
{
    return vf->ops->finished(vf->state, winner);
}

void verifier_unverified(const verifier *vf, unsigned out[2])
{
    vf->ops->unverified(vf->state, out);
}

int verifier_score(const verifier *vf, int64_t score[2], int64_t *base)
{
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
    free(*vf);
    *vf = NULL;
}
