/* deckfile.h -- read a decklist file (DECK.json).
 *
 * A deck file is one JSON object: the decklist of openlog.md 5 for its
 * format ({"monsters","supports","reserve"} for snap, {"main"} for advanced
 * and master), optionally with "name" (a label for people) and "format"
 * (checked against the format asked for).  Other keys are ignored.
 */
#ifndef ARBITER_DECKFILE_H
#define ARBITER_DECKFILE_H

#include <stddef.h>
#include "logformat/olevent.h"
#include "verifiers/cards.h"
#include "verifiers/deck.h"

typedef struct deckfile deckfile;

/* Load `path` ("-" for stdin) as a decklist of `format`.  Returns 0 and a new
 * object in *out, or -1 with a sentence in err (errlen bytes) saying what is
 * wrong and where. */
int deckfile_load(const char *path, ol_format format, deckfile **out,
                  char *err, size_t errlen);
void deckfile_destroy(deckfile **d);

/* Valid until deckfile_destroy(). */
const ol_deck *deckfile_deck(const deckfile *d);
const char *deckfile_name(const deckfile *d);   /* "" when absent */

/* The header the decks of an event are judged under: a match header of
 * `format` naming the database db, with the levers `rules` (a JSON object
 * as text, a header's "rules" map) and empty decklists, decoded by the
 * contract's own decoder (logformat/olcodec.c) so that a lever the format
 * does not have, or out of its range, is refused with the sentence a
 * header would get.  0 and a new event in *hdr (olevent_destroy() it);
 * -1 with that sentence in err; -2 out of memory. */
int deckfile_levers(ol_format format, const cards *db, const char *rules, olevent **hdr, char *err, size_t errlen);

/* Every violation of d's decklist for `format` (deck_check() under
 * `levers`, NULL: the defaults), counted and then all fetched so that none
 * is dropped: 0 and a new array of *n (free() it; legal when *n is 0), or
 * -1 out of memory (the deck is then neither legal nor illegal). */
int deckfile_check(const deckfile *d, ol_format format, const cards *db, const ol_header *levers,
                   deck_violation **out, size_t *n);

#endif
