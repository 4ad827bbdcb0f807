/* cardfields.c -- the members Snap gives a card in the card database
 * (fixtures/cards/README.md 4), as data the loader applies
 * (verifiers/cards.h card_schema; src/core/carddb.c reads it), and the
 * checks the stored card must then pass (cards_finish() runs them).
 */
#include <stddef.h>

#include "verifiers/cards.h"
#include "verifiers/snap/snap.h"

#define AT(m) offsetof(card, snap.m)

static const card_field trigger_fields[] = {
    {.name = "when", .type = CARD_FIELD_ENUM, .required = 1, .at = offsetof(snap_trigger, when),
     .parse = trigger_when_parse, .what = "trigger timing"},
    {.name = "effects", .type = CARD_FIELD_EFFECTS, .required = 1, .at = offsetof(snap_trigger, effects),
     .count_at = offsetof(snap_trigger, n_effects)},
    {.name = NULL},
};

static const card_field fields[] = {
    {.name = "imp", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(imp),
     .size = 4, .lo = CARD_IMP_MIN, .hi = CARD_IMP_MAX},
    {.name = "keywords", .type = CARD_FIELD_KEYWORDS, .allowed = CARD_K_MONSTERS | CARD_K(COUNTER), .at = AT(keywords)},
    {.name = "triggers", .type = CARD_FIELD_LIST, .allowed = CARD_K_MONSTERS, .at = AT(triggers),
     .size = sizeof(snap_trigger), .lo = 0, .hi = CARD_MAX_TRIGGERS, .count_at = AT(n_triggers), .sub = trigger_fields,
     .what = "triggers"},
    {.name = "effects", .type = CARD_FIELD_EFFECTS, .allowed = CARD_K_SUPPORTS, .required = CARD_K_SUPPORTS,
     .at = AT(effects), .count_at = AT(n_effects)},
    {.name = "condition", .type = CARD_FIELD_CONDITION, .allowed = CARD_K(PRIME_SINGULAR),
     .required = CARD_K(PRIME_SINGULAR), .at = AT(condition)},
    {.name = NULL},
};

/* ---- what the structs must satisfy (cards_finish) ---------------------- */

/* The keyword-bound primitives: only a Resonance counter negates triggers,
 * only a Swap monster moves itself. */
static void check_keyword_bound(card_checker *ck, const card *c, const char *path, const card_effect *e)
{
    if (e->op == FX_RESONANCE && !(c->snap.keywords & KW_RESONANCE))
        card_report(ck, c, "%s: effect primitive \"resonance\" needs the \"resonance\" keyword", path);
    if (e->op == FX_SWAP && e->target == TGT_SELF && !(c->snap.keywords & KW_SWAP))
        card_report(ck, c, "%s: a \"swap\" on \"self\" needs the \"swap\" keyword", path);
}

static void check_keywords(card_checker *ck, const card *c)
{
    uint32_t kw = c->snap.keywords;
    if (kw & ~(uint32_t)KW_ALL)
        card_report(ck, c, "snap.keywords: unknown keyword bits");
    for (uint32_t bit = 1; bit & KW_ALL; bit <<= 1) {
        if (!(kw & bit))
            continue;
        if (bit == KW_RESONANCE && c->kind != CARD_COUNTER)
            card_report(ck, c, "snap.keywords: \"resonance\" is only for counters");
        else if (bit != KW_RESONANCE && !card_kind_is_monster_like(c->kind))
            card_report(ck, c, "snap.keywords: \"%s\" is only for monsters", card_keyword_name(bit));
    }
}

/* Only asked by check_triggers() once it has refused more than
 * CARD_MAX_TRIGGERS triggers; an effect list may still claim more effects
 * than it holds (that is reported, not skipped), hence the bound on e. */
static int has_self_swap(const card *c)
{
    for (unsigned t = 0; t < c->snap.n_triggers; t++)
        for (unsigned e = 0; e < c->snap.triggers[t].n_effects && e < CARD_MAX_EFFECTS; e++)
            if (c->snap.triggers[t].effects[e].op == FX_SWAP
                && c->snap.triggers[t].effects[e].target == TGT_SELF)
                return 1;
    return 0;
}

static void check_triggers(card_checker *ck, const card *c)
{
    char path[CARD_PATH_MAX];
    if (c->snap.n_triggers > CARD_MAX_TRIGGERS) {
        card_report(ck, c, "snap.triggers: more than %d triggers", CARD_MAX_TRIGGERS);
        return;
    }
    for (unsigned i = 0; i < c->snap.n_triggers; i++) {
        const snap_trigger *t = &c->snap.triggers[i];
        if ((int)t->when < 0 || t->when >= TRIG_WHEN_COUNT)
            card_report(ck, c, "snap.triggers[%d]: unknown trigger timing #%d", (int)i, (int)t->when);
        else if (t->when == TRIG_ON_REVEAL && c->kind != CARD_MONSTER)
            card_report(ck, c, "snap.triggers[%d]: only a monster can have an \"on_reveal\" trigger "
                          "(kind \"%s\" is never flipped)", (int)i, card_kind_name(c->kind));
        card_path(path, sizeof path, "snap.triggers[%d].effects", (int)i);
        card_check_effects(ck, c, path, OL_FORMAT_SNAP, FX_SRC_TRIGGER, t->effects, t->n_effects, 1);
    }
    if ((c->snap.keywords & KW_SWAP) && !has_self_swap(c))
        card_report(ck, c, "snap.keywords: \"swap\" needs a trigger with a \"swap\" effect on \"self\"");
}

static void check_snap(card_checker *ck, const card *c)
{
    const char *kind = card_kind_name(c->kind);
    const snap_props *s = &c->snap;
    fx_source src = c->kind == CARD_COUNTER ? FX_SRC_COUNTER : FX_SRC_SPELL;
    check_keywords(ck, c);
    if (card_kind_is_monster_like(c->kind)) {
        if (!card_in_range(s->imp, CARD_IMP_MIN, CARD_IMP_MAX))
            card_report(ck, c, "snap.imp %d is out of range %d..%d", (int)s->imp, CARD_IMP_MIN,
                   CARD_IMP_MAX);
        if (s->n_effects)
            card_report(ck, c, "snap.effects is not allowed on kind \"%s\" (use triggers)", kind);
        check_triggers(ck, c);
    } else {
        if (s->imp)
            card_report(ck, c, "snap.imp is not allowed on kind \"%s\"", kind);
        if (s->n_triggers)
            card_report(ck, c, "snap.triggers is not allowed on kind \"%s\"", kind);
        card_check_effects(ck, c, "snap.effects", OL_FORMAT_SNAP, src, s->effects, s->n_effects, 1);
    }
    card_check_prime_condition(ck, c, OL_FORMAT_SNAP, &s->condition);
}

const card_schema snap_cards = {.fields = fields, .check = check_snap, .effect = check_keyword_bound};
