/* cardset.h -- the card databases the daemon holds.
 *
 * A header names its database as "set@version"; a stored record pins the
 * one it was judged with by content hash (openlog.md 10) and is always
 * judged again with exactly that one.  So the daemon keeps every database
 * it ever loaded (a SIGHUP adds the files whose bytes are new; live
 * sessions point into the old ones) and fetches from the store those only
 * a record still names.  At most CARDSET_MAX distinct databases are held
 * (arbiterd(8), LIMITS).
 *
 * Pointers returned stay valid until cardset_destroy().
 */
#ifndef ARBITER_CARDSET_H
#define ARBITER_CARDSET_H

#include <stddef.h>
#include <stdint.h>

#include "src/record/store.h"
#include "verifiers/cards.h"

#define CARDSET_MAX 64

typedef struct cardset cardset;

int cardset_new(cardset **out);      /* 0, or -1 out of memory */
void cardset_destroy(cardset **cs);  /* NULL-safe */

/* Load every file, all or nothing (logging what was loaded or why not): a
 * file whose bytes are held already adds nothing but becomes the newest of
 * its name.  0; or -1 when one cannot be read or loaded, or the new ones
 * would pass CARDSET_MAX, and then nothing changed. */
int cardset_load(cardset *cs, const char *const *paths, int n);

/* Store, by hash, the bytes of every database loaded from a file (again:
 * the same bytes under the same hash change nothing).  0, or the store
 * error. */
int cardset_save(cardset *cs, store *st, MDB_txn *txn);

/* Make sure the store holds db (one held here), in txn: what a record
 * pins must be in the store with it, even when the save after a reload
 * failed.  0, or the store error. */
int cardset_ensure_stored(cardset *cs, store *st, MDB_txn *txn, const cards *db);

/* The newest database "set@version" names; the first loaded when none
 * does (the header is then judged openlog:cards, as `arbiter verify`
 * does).  Never NULL once a database is loaded. */
const cards *cardset_named(const cardset *cs, const char *named);

/* The database whose content hash is `hash`: a loaded one, or the copy
 * the store keeps, loaded now after checking that its bytes still hash
 * to `hash`.  NULL, with a sentence in why, when neither has it or the
 * stored copy was altered. */
const cards *cardset_by_hash(cardset *cs, store *st, MDB_txn *txn, const uint8_t hash[32], char *why, size_t whylen);

size_t cardset_count(const cardset *cs);

#endif
