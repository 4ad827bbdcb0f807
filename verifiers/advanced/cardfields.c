/* cardfields.c -- the members Advanced gives a card in the card database
 * (fixtures/cards/README.md 5), as data the loader applies
 * (verifiers/cards.h card_schema; src/core/carddb.c reads it), and the
 * checks the stored card must then pass (cards_finish() runs them).
 */
#include <stddef.h>

#include "verifiers/advanced/advanced.h"
#include "verifiers/cards.h"

#define AT(m) offsetof(card, advanced.m)

static const card_field fields[] = {
    {.name = "atk", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(atk),
     .size = 4, .lo = 0, .hi = CARD_ADV_STAT_MAX},
    {.name = "def", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(def),
     .size = 4, .lo = 0, .hi = CARD_ADV_STAT_MAX},
    {.name = "level", .type = CARD_FIELD_INT, .allowed = CARD_K_MONSTERS, .required = CARD_K_MONSTERS, .at = AT(level),
     .size = 1, .lo = CARD_LEVEL_MIN, .hi = CARD_LEVEL_MAX},
    {.name = "effects", .type = CARD_FIELD_EFFECTS, .allowed = CARD_K_SUPPORTS | CARD_K_PRIMES,
     .required = CARD_K_SUPPORTS, .at = AT(effects), .count_at = AT(n_effects)},
    {.name = "condition", .type = CARD_FIELD_CONDITION, .allowed = CARD_K(PRIME_SINGULAR),
     .required = CARD_K(PRIME_SINGULAR), .at = AT(condition)},
    {.name = NULL},
};

/* ---- what the structs must satisfy (cards_finish) ---------------------- */

static void check_advanced(card_checker *ck, const card *c)
{
    const advanced_props *a = &c->advanced;
    if (card_kind_is_monster_like(c->kind)) {
        if (!card_in_range(a->atk, 0, CARD_ADV_STAT_MAX))
            card_report(ck, c, "advanced.atk %d is out of range 0..%d", (int)a->atk, CARD_ADV_STAT_MAX);
        if (!card_in_range(a->def, 0, CARD_ADV_STAT_MAX))
            card_report(ck, c, "advanced.def %d is out of range 0..%d", (int)a->def, CARD_ADV_STAT_MAX);
    } else if (a->atk || a->def) {
        card_report(ck, c, "advanced.atk and advanced.def are not allowed on kind \"%s\"", card_kind_name(c->kind));
    }
    card_check_level(ck, c, OL_FORMAT_ADVANCED, a->level);
    card_check_card_effects(ck, c, OL_FORMAT_ADVANCED, a->effects, a->n_effects);
    card_check_prime_condition(ck, c, OL_FORMAT_ADVANCED, &a->condition);
}

const card_schema advanced_cards = {.fields = fields, .check = check_advanced};
