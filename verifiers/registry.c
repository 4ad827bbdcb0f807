/* registry.c -- the one list of arbiter's rules engines.
 *
 * What.  Every format arbiter judges has one engine (verifiers/<format>/),
 * known to the rest of arbiter only through its verifier_ops table
 * (verifiers/verifier.h).  This file is the only place that names the
 * engines: their extern declarations and the table below.  Whatever asks
 * "which formats are there?" or "what does this format do?" -- the seam
 * (verifier.c), the deck rules, the card database's fields, the command
 * line, the tournament -- walks this table through verifier_engine_at()
 * or picks a row with verifier_ops_of().
 *
 * Why.  A format added by editing several lists kept in step (an enum
 * here, a switch there) is a format half added.  Adding an engine is one
 * extern line and one row here, plus the build files; nothing may assume
 * how many rows there are.
 */
#include <stddef.h>

#include "verifiers/deck.h"
#include "verifiers/verifier.h"

extern const verifier_ops snap_verifier_ops;
extern const verifier_ops advanced_verifier_ops;
extern const verifier_ops master_verifier_ops;
extern const verifier_ops classic_verifier_ops;

static const verifier_ops *const engines[] = {&snap_verifier_ops, &advanced_verifier_ops, &master_verifier_ops,
                                              &classic_verifier_ops};

const verifier_ops *verifier_engine_at(size_t i)
{
    return i < sizeof engines / sizeof engines[0] ? engines[i] : NULL;
}

/* The facts the modules below verifier.h ask of the formats (deck.h,
 * cards.h): answered here so that they need not include verifier.h. */
const deck_format *deck_format_of(ol_format f)
{
    const verifier_ops *ops = verifier_ops_of(f);
    return ops ? ops->deck : NULL;
}

const card_schema *card_schema_at(size_t i, ol_format *f)
{
    const verifier_ops *ops;
    for (size_t k = 0; (ops = verifier_engine_at(k)); k++)
        if (ops->cards && i-- == 0) {
            if (f)
                *f = ops->format;
            return ops->cards;
        }
    return NULL;
}

const card_schema *card_schema_of(ol_format f)
{
    const verifier_ops *ops = verifier_ops_of(f);
    return ops ? ops->cards : NULL;
}

const verifier_ops *verifier_ops_of(ol_format format)
{
    const verifier_ops *ops;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (ops->format == format)
            return ops;
    return NULL;
}
