/* pgload.h -- records read back from the circuit's PostgreSQL database.
 *
 * What an audit or a tournament reads from PostgreSQL it reads into a
 * scratch LMDB store first, byte for byte as the rows hold them, and then
 * checks and judges there with the very code that reads a venue's store
 * (record.h: record_check, tourrec_judge_store).  So a record from the
 * central database is checked exactly as one from a store: its chain and
 * record links are recomputed from the rows' bytes, its seal verified
 * over them, its verdicts and boards judged again; a row edited in
 * PostgreSQL shows exactly as a page edited in LMDB would.
 *
 * Errors: 0, or -1 with one sentence in err (errlen bytes, NUL-terminated):
 * libpq's reason, or what in the rows cannot be a record.
 */
#ifndef ARBITER_PGLOAD_H
#define ARBITER_PGLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "src/record/store.h"

/* A scratch store in a new folder under $TMPDIR (or /tmp): dir (at least
 * 4096 bytes) gets its path.  0 and *st; -1 and err.  pgload_scratch_remove
 * closes it and removes the folder; NULL-safe on *st. */
int pgload_scratch(char *dir, size_t dirlen, store **st, char *err, size_t errlen);
void pgload_scratch_remove(const char *dir, store **st);

/* The venue that holds match `match`: `venue` when given (it must hold
 * it), else the only venue that does (out, PGSHIP_VENUE_MAX + 1 bytes).
 * 0; 1 when no venue holds it, or several do (err says which). */
int pgload_which_venue(PGconn *c, const char *match, const char *venue, char *out, char *err, size_t errlen);

/* The seal key `venue` is registered with (arbiter pg venue add). */
int pgload_venue_key(PGconn *c, const char *venue, uint8_t key[32], char *err, size_t errlen);

/* Venue `venue`'s record of match `match` -- every event row, the match's
 * summary bytes and seal, and the card database it pins -- into st in
 * txn.  *n_events (may be NULL) gets the rows read. */
int pgload_match(PGconn *c, const char *venue, const char *match, store *st, MDB_txn *txn, uint64_t *n_events,
                 char *err, size_t errlen);

/* Every match whose row names tournament `id`, from every venue, into st
 * in txn; *n (may be NULL) gets how many.  Two venues with a match of the
 * same id in one tournament is an error naming them. */
int pgload_tournament(PGconn *c, const char *id, store *st, MDB_txn *txn, size_t *n, char *err, size_t errlen);

#endif
