/* cardfields.c -- the members Master gives a card in the card database
 * (fixtures/cards/README.md 6), as data the loader applies
 * (verifiers/cards.h card_schema; src/core/carddb.c reads it), and the
 * checks the stored card must then pass (cards_finish() runs them).
 */
#include <stddef.h>
#include <string.h>

#include "verifiers/cards.h"
#include "verifiers/master/master.h"

#define AT(m) offsetof(card, master.m)

static const card_field attack_fields[] = {
    {.name = "name", .type = CARD_FIELD_STRING, .required = 1, .at = offsetof(master_attack, name),
     .size = CARD_NAME_MAX},
    {.name = "cost", .type = CARD_FIELD_COST, .required = 1, .at = offsetof(master_attack, cost)},
    {.name = "condition", .type = CARD_FIELD_CONDITION, .at = offsetof(master_attack, condition)},
    {.name = "effects", .type = CARD_FIELD_EFFECTS, .required = 1, .at = offsetof(master_attack, effects),
     .count_at = offsetof(master_attack, n_effects)},
    {.name = NULL},
};

static const card_field fields[] = {
    {.name = "def", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(def),
     .size = 4, .lo = 0, .hi = CARD_MASTER_DEF_MAX},
    {.name = "level", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(level),
     .size = 1, .lo = CARD_LEVEL_MIN, .hi = CARD_LEVEL_MAX},
    {.name = "cost", .type = CARD_FIELD_COST, .allowed = CARD_K_ALL, .required = CARD_K_ALL, .at = AT(cost)},
    {.name = "attacks", .type = CARD_FIELD_LIST, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS,
     .at = AT(attacks), .size = sizeof(master_attack), .lo = 1, .hi = CARD_MAX_ATTACKS, .count_at = AT(n_attacks),
     .sub = attack_fields, .what = "attacks"},
    {.name = "effects", .type = CARD_FIELD_EFFECTS, .allowed = CARD_K_SUPPORTS | CARD_K_PRIMES,
     .required = CARD_K_SUPPORTS, .at = AT(effects), .count_at = AT(n_effects)},
    {.name = "condition", .type = CARD_FIELD_CONDITION, .allowed = CARD_K(PRIME_SINGULAR),
     .required = CARD_K(PRIME_SINGULAR), .at = AT(condition)},
    {.name = "ongoing", .type = CARD_FIELD_BOOL, .allowed = CARD_K(SPELL), .at = AT(ongoing)},
    {.name = NULL},
};

/* ---- what the structs must satisfy (cards_finish) ---------------------- */

static void check_attack(card_checker *ck, const card *c, unsigned i, const master_attack *a)
{
    char path[CARD_PATH_MAX];
    card_path(path, sizeof path, "master.attacks[%d]", (int)i);
    if (!memchr(a->name, '\0', sizeof a->name) || !a->name[0])   /* a C string, not empty */
        card_report(ck, c, "%s.name is empty", path);
    card_path(path, sizeof path, "master.attacks[%d].cost", (int)i);
    card_check_cost(ck, c, path, &a->cost);
    card_path(path, sizeof path, "master.attacks[%d].condition", (int)i);
    card_check_condition(ck, c, path, OL_FORMAT_MASTER, COND_AT_ATTACK, &a->condition);
    card_path(path, sizeof path, "master.attacks[%d].effects", (int)i);
    card_check_effects(ck, c, path, OL_FORMAT_MASTER, FX_SRC_ATTACK, a->effects, a->n_effects, 1);
}

static void check_master(card_checker *ck, const card *c)
{
    const master_props *m = &c->master;
    card_check_cost(ck, c, "master.cost", &m->cost);
    if (card_kind_is_monster_like(c->kind)) {
        if (!card_in_range(m->def, 0, CARD_MASTER_DEF_MAX))
            card_report(ck, c, "master.def %d is out of range 0..%d", (int)m->def, CARD_MASTER_DEF_MAX);
        if (m->n_attacks < 1 || m->n_attacks > CARD_MAX_ATTACKS)
            card_report(ck, c, "master.attacks: kind \"%s\" needs 1 to %d attacks, not %d",
                   card_kind_name(c->kind), CARD_MAX_ATTACKS, (int)m->n_attacks);
        for (unsigned i = 0; i < m->n_attacks && i < CARD_MAX_ATTACKS; i++)
            check_attack(ck, c, i, &m->attacks[i]);
    } else {
        if (m->def)
            card_report(ck, c, "master.def is not allowed on kind \"%s\"", card_kind_name(c->kind));
        if (m->n_attacks)
            card_report(ck, c, "master.attacks is not allowed on kind \"%s\"", card_kind_name(c->kind));
    }
    card_check_level(ck, c, OL_FORMAT_MASTER, m->level);
    card_check_card_effects(ck, c, OL_FORMAT_MASTER, m->effects, m->n_effects);
    card_check_prime_condition(ck, c, OL_FORMAT_MASTER, &m->condition);
}

const card_schema master_cards = {.fields = fields, .check = check_master};
