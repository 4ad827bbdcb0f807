/* chain.h -- a chain of Spells and Counters, as every format draws it.
 *
 * Snap (snap.md 15), Advanced ("Chains & Counterplay") and Master build
 * chains the same way: each link is a card played by a player at an event,
 * with the targets it chose, resolved last-in first-out, and possibly
 * negated before it resolves.  What may join a chain, and what a link
 * does, is each engine's; the link itself and the way a board shows a
 * chain are the same, so they are written once, here.
 *
 * Pure: writes into a jtext (logformat/jtext.h).
 */
#ifndef ARBITER_CHAIN_H
#define ARBITER_CHAIN_H

#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "verifiers/cards.h"

typedef struct {
    uint64_t seq;                     /* the event that put it there    */
    uint8_t player, is_spell, negated;
    const card *card;
    ol_ref targets[CARD_MAX_EFFECTS];
    uint8_t n_targets;
    uint8_t chose;                    /* bit i: effect i took one of targets
                                         (an engine that leaves out effects
                                         with nothing to choose sets it) */
} chain_link;

/* Fill link from the event that played card c for player p: its seq and
 * its targets (at most CARD_MAX_EFFECTS, as the engine checked). */
void chain_link_set(chain_link *link, const olevent *ev, int p, const card *c, int is_spell);

/* The chain in a board's JSON: [{"seq","player","kind","card","name",
 * "negated"}, ...], oldest first. */
void chain_json(jtext *t, const chain_link *links, int n);

/* The chain in words, one line: "chain: 1. p1 Kindle Fury (spell, seq 4),
 * 2. p2 Void Denial (counter, seq 5)"; nothing when it is empty. */
void chain_words(jtext *t, const chain_link *links, int n);

#endif
