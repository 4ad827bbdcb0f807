/* deck.h -- deck construction rules of the three formats.
 *
 * A decklist (openlog.md 5, olevent.h ol_deck) is legal for a format when it
 * breaks none of that format's construction rules.  deck_check() applies
 * every rule and reports *every* violation, each citing its rule in the
 * verdict syntax (`snap:4.4`, `advanced:deck.copies`).  The rules are a
 * table in deck.c, one row per rule id, so that tests can enumerate them.
 *
 * Pure: no I/O, no allocation that outlives the call.
 */
#ifndef ARBITER_DECK_H
#define ARBITER_DECK_H

#include <stddef.h>

#include "logformat/olevent.h"
#include "verifiers/cards.h"

#define DECK_RULE_MAX 32
#define DECK_MSG_MAX 256

typedef struct {
    char rule[DECK_RULE_MAX];   /* "snap:4.4"                              */
    char msg[DECK_MSG_MAX];     /* one sentence a judge can read aloud     */
} deck_violation;

/* Check `deck` against the construction rules of `format` using the card
 * database `db`, under the variant levers of `levers` (a match header, or
 * NULL for the format's defaults: Master's `deck_size` sets its size).
 * Writes at most `max` violations to `out` (out may be NULL when max is 0)
 * in rule-table order, and the total number found to *n.  Returns 0 when
 * the check ran (legal iff *n == 0), CARDS_EARG for an unknown format, or
 * CARDS_ENOMEM when it could not run -- then *n says nothing about the
 * deck, which is neither legal nor illegal.  `who` ("p1", NULL) prefixes
 * each sentence when given. */
int deck_check(ol_format format, const cards *db, const ol_header *levers, const ol_deck *deck,
               const char *who, deck_violation *out, size_t max, size_t *n);

/* The rule ids deck_check() can cite for a format, for tests and docs. */
typedef struct {
    const char *rule;
    const char *summary;
} deck_rule_info;
const deck_rule_info *deck_rules(ol_format format, size_t *n);

#endif
