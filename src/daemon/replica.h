/* replica.h -- arbiterd --replicate: the venue's records shipped to the
 * circuit's PostgreSQL database, behind the venue's back.
 *
 * The venue never waits for the central database: verdicts are sent after
 * LMDB's fsync, as without replication, and one thread of its own (the
 * shipper) reads what the store holds and ships it (src/pg/pgship.h).
 * What is still to ship is the store's outbox (store.h), written in the
 * very batch transaction that stored the events; what the database has
 * confirmed comes back to the loop as confirmations, which it writes into
 * the outbox in its next write transaction (record_shipped).  So after a
 * network cut, a PostgreSQL restart or a kill -9 of the daemon, shipping
 * resumes from the outbox: what was confirmed is not sent again, what was
 * sent but not confirmed is sent again and changes nothing (pgship is
 * idempotent).
 *
 * Who owns what: the shipper reads the store in read transactions of its
 * own, copies what it ships out of them, and ends them before it talks to
 * PostgreSQL (so a slow database never pins the store's pages, and the
 * map can grow: replica_pause); it never writes the store.  The loop alone
 * writes: replica_apply inside its transaction, replica_applied after.
 *
 * Bounds (arbiterd(8), REPLICATION): a shipment carries at most
 * REPLICA_CHUNK_EVENTS events or REPLICA_CHUNK_BYTES bytes, and two are
 * held at once (one on its way, the next being derived); at most
 * REPLICA_ACKS confirmations wait for the loop (the shipper waits for room);
 * the outbox holds one entry per match with unshipped events, so it is
 * bounded by the store itself.  Reconnection backs off from 1 s to
 * REPLICA_BACKOFF_MAX_S.
 */
#ifndef ARBITER_REPLICA_H
#define ARBITER_REPLICA_H

#include <stddef.h>
#include <stdint.h>

#include "src/core/keys.h"
#include "src/record/store.h"

#define REPLICA_CHUNK_EVENTS 4000   /* events a shipment carries at most    */
#define REPLICA_CHUNK_BYTES (8u << 20)   /* and bytes of events            */
#define REPLICA_ACKS 4096           /* confirmations waiting for the loop   */
#define REPLICA_ACK_WAIT_MS 200     /* the loop writes them alone after this */
#define REPLICA_BACKOFF_MAX_S 30    /* between attempts to reconnect        */
#define REPLICA_TIMEOUT_S 20        /* connect and statement timeout        */
#define REPLICA_WALK_MAX 100000     /* outbox entries health counts, at most */

typedef struct replica replica;

/* What health reports (arbiterd(8), REPLICATION). */
typedef struct {
    char target[256];               /* the URL without its password        */
    char venue[65];
    int connected;
    uint64_t shipped_events;        /* events confirmed since the start     */
    uint64_t shipments;
    uint64_t conflicts;             /* copies that differed (conflicts table) */
    uint64_t backlog_matches;       /* matches with events not confirmed    */
    uint64_t backlog_events;        /* events not confirmed                 */
    int backlog_more;               /* more than REPLICA_WALK_MAX entries   */
    uint64_t lag_ms;                /* age of the oldest unconfirmed event  */
    uint64_t acks_waiting;          /* confirmations not yet in the outbox  */
    char last_error[512];           /* "" none since the last shipment      */
    uint64_t last_error_ms;         /* when (ms since the epoch), 0 never   */
    uint64_t last_shipment_ms;
} replica_status;

/* Start the shipper for store st, to url as venue `venue` (valid:
 * pgship_venue_valid), sealing key `key` (its public half is checked
 * against the venue's registration).  delay_ms: a test-only pause before
 * each shipment (arbiterd takes it from ARBITERD_TEST_REPLICA_DELAY_MS).
 * 0, or -1 (logged). */
int replica_new(store *st, const char *url, const char *venue, const keys_pair *key, unsigned delay_ms,
                replica **out);

/* Stop and join the shipper (a statement under way is cancelled); the
 * confirmations it made stay for replica_apply, so that the loop can write
 * them before it exits.  NULL-safe; a second call does nothing. */
void replica_stop(replica *r);

/* Stop it (replica_stop) and free everything.  Confirmations not yet
 * applied are lost: their events are shipped again by the next start, and
 * change nothing.  NULL-safe. */
void replica_destroy(replica **r);

/* The loop, inside its write transaction txn: write every waiting
 * confirmation into the outbox.  0, or a store error (the caller aborts;
 * replica_applied(r, 0) then). */
int replica_apply(replica *r, store *st, MDB_txn *txn);

/* The transaction that replica_apply wrote in committed (1: those
 * confirmations are done) or not (0: they wait for the next). */
void replica_applied(replica *r, int committed);

/* 1 when confirmations have waited REPLICA_ACK_WAIT_MS and no batch came
 * to carry them: the loop writes them in a transaction of their own. */
int replica_due(replica *r);

/* The loop committed a batch: there may be something to ship. */
void replica_kick(replica *r);

/* The store's map is about to grow: wait until the shipper has no read
 * transaction open, and keep it so until replica_resume.  NULL-safe. */
void replica_pause(replica *r);
void replica_resume(replica *r);

/* Where it stands, for health. */
void replica_status_get(replica *r, replica_status *out);

#endif
