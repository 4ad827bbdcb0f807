/* quarantine.h -- input refused before any match saw it, kept for a judge,
 * within bounds.
 *
 * Malformed messages, events refused because their sender does not own
 * the match or its key was revoked: each is answered with a verdict and,
 * within the limits below (arbiterd(8), LIMITS), written to the store's
 * `quarantine` database with the time, the sender, the reason, the length
 * and the first QUARANTINE_BYTES bytes.  A source that floods garbage must
 * not fill the disk, so
 *
 *   - each source (a key's name, or without keys the peer's address) has
 *     its first QUARANTINE_PER_SOURCE entries kept whole, then one in every
 *     QUARANTINE_SAMPLE (the kept one says how many were skipped);
 *   - the quarantine as a whole holds at most `max` entries; past that,
 *     entries are only counted, and the log says so once.
 *
 * What was not kept is counted (quarantine_dropped).  Sources are tracked
 * in a table of QUARANTINE_SOURCES; once it is full, further sources share
 * one row ("others").
 *
 * Writes happen inside the daemon's batch transaction, which may be
 * aborted and judged again (a full map): counts move only at
 * quarantine_commit(), and quarantine_abort() forgets what the aborted
 * batch put.
 */
#ifndef ARBITER_QUARANTINE_H
#define ARBITER_QUARANTINE_H

#include <stddef.h>
#include <stdint.h>

#include "src/record/store.h"

#define QUARANTINE_BYTES 1024
#define QUARANTINE_PER_SOURCE 100
#define QUARANTINE_SAMPLE 1000
#define QUARANTINE_SOURCES 4096
#define QUARANTINE_MAX_DEFAULT 20000

typedef struct quarantine quarantine;

/* A quarantine over store st holding at most `max` entries; it reads how
 * many the store holds and the last counter.  0, or a store error. */
int quarantine_new(store *st, MDB_txn *txn, uint64_t max, quarantine **out);
void quarantine_destroy(quarantine **q);

/* Quarantine one message inside txn: `source` names who is counted
 * (bounds), `peer` the connection, `reason` the verdict's sentence.  0
 * (kept or only counted), or a store error. */
int quarantine_put(quarantine *q, MDB_txn *txn, const char *source, const char *peer, const char *reason,
                   const void *bytes, size_t len);

/* The batch's transaction committed, or was aborted. */
void quarantine_commit(quarantine *q);
void quarantine_abort(quarantine *q);

uint64_t quarantine_kept(const quarantine *q);      /* entries in the store */
uint64_t quarantine_dropped(const quarantine *q);   /* counted, not kept    */
uint64_t quarantine_max(const quarantine *q);

#endif
