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

#endif
