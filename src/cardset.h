/* cardset.h -- the card databases the daemon holds.
 *
 * A header names its database as "set@version"; a stored record pins the
 * one it was judged with by content hash (openlog.md 10) and is always
 * judged again with exactly that one.  So the daemon keeps every database
 * it ever loaded (a SIGHUP adds the files again; live sessions point into
 * the old ones) and fetches from the store those only a record still
 * names.  At most CARDSET_MAX are held (SPEC.md 9.2).
 *
 * Pointers returned stay valid until cardset_destroy().
 */
#ifndef ARBITER_CARDSET_H
#define ARBITER_CARDSET_H

#include <stddef.h>
#include <stdint.h>

#include "src/store.h"
#include "verifiers/cards.h"

#define CARDSET_MAX 64

typedef struct cardset cardset;

int cardset_new(cardset **out);      /* 0, or -1 out of memory */
void cardset_destroy(cardset **cs);  /* NULL-safe */

/* Load each file (logging what was loaded or why not).  Their bytes wait
 * for cardset_save().  0, or -1 when one cannot be loaded (the others
 * stay loaded) or CARDSET_MAX is reached. */
int cardset_load(cardset *cs, const char *const *paths, int n);

/* Store the bytes of every database loaded since the last save, by hash. */
int cardset_save(cardset *cs, store *st, MDB_txn *txn);

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
