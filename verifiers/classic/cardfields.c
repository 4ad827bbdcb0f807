/* cardfields.c -- what classic Snap reads of a card in the card database:
 * its value, the thing two cards must share to match.
 *
 * A playing card has no Mintayn identity (kind, class, evolution line) and
 * no Snap, Advanced or Master stats, so the schema is standalone
 * (verifiers/cards.h card_schema): a card of a classic database is
 * `{"id", "name", "classic": {"value"}}` and nothing else is asked of it.
 * The value lives in the card's own bytes for this format (card.own), laid
 * out as classic_card (classic.h).  fixtures/cards/standard.json is the
 * standard 52; a custom Snap deck is a database of its own, whose cards
 * match by whatever values it gives them (RULINGS A12).
 */
#include <stddef.h>

#include "verifiers/cards.h"
#include "verifiers/classic/classic.h"

_Static_assert(sizeof(classic_card) <= CARD_OWN_MAX, "classic_card must fit a card's own bytes");

#define AT(m) (offsetof(card, own[OL_FORMAT_CLASSIC]) + offsetof(classic_card, m))

static const card_field fields[] = {
    {.name = "value", .type = CARD_FIELD_STRING, .allowed = CARD_K_ALL, .required = CARD_K_ALL, .at = AT(value),
     .size = CLASSIC_VALUE_MAX},
    {.name = NULL},
};

const card_schema classic_cards = {.fields = fields, .standalone = 1};
