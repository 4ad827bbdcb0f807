/* daemon.h -- what the parts of arbiterd share.
 *
 * arbiterd is one loop (arbiterd.c), a worker thread that computes
 * standings for it (standings.h) and, with --replicate, a thread that ships
 * the records (replica.h); neither touches anything of this struct.  Its
 * parts are modules with their own state -- the store (store.h), the card databases
 * (cardset.h), the live matches (live.h), the quarantine (quarantine.h),
 * the feed (feed.h), the gate (gate.h) -- and two that act on all of them:
 * ingest.h (events in, verdicts out) and query.h (questions answered).
 * This struct is how those two reach the others, and where the numbers
 * `health` reports are counted.  It is made and torn down by arbiterd.c
 * only; a fuzz target makes one over a scratch store.
 */
#ifndef ARBITER_DAEMON_H
#define ARBITER_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "src/core/keys.h"
#include "src/daemon/broadcast.h"
#include "src/daemon/feed.h"
#include "src/daemon/gate.h"
#include "src/daemon/live.h"
#include "src/daemon/replica.h"
#include "src/daemon/standings.h"
#include "src/record/cardset.h"
#include "src/record/quarantine.h"
#include "src/record/record.h"
#include "src/record/store.h"
#include "src/tournament/tournament.h"

#define DAEMON_MAX_MATCHES 10000    /* --max-matches default (arbiterd(8)) */
#define DAEMON_PEER_MATCHES 1000    /* --peer-matches default: one peer's share */
#define DAEMON_IDLE_MS (10 * 60 * 1000)   /* an idle match may leave memory */
#define DAEMON_TOURNAMENTS_MAX 16   /* --tournament files                    */
#define DAEMON_DAMAGED_SHOWN 100    /* damaged matches named in health       */

typedef struct {
    uint64_t events_stored, batches;
    uint64_t judge_us, commit_us, commit_us_max, batch_max;
    uint64_t seal_us, seals;        /* of judge_us: the seals, one a match a batch */
    uint64_t replies_dropped;       /* a connection's queue was full        */
    uint64_t query_replies_dropped;
    uint64_t refused_owner, refused_key, refused_limits, refused_record, refused_table;
    uint64_t released;              /* sessions of peers gone, out of memory */
    uint64_t evicted;               /* sessions that left memory for room   */
    uint64_t reloads;               /* SIGHUPs served                       */
} daemon_stats;

typedef struct daemon_ctx {
    /* set up by arbiterd.c */
    const char *dbdir;
    size_t max_matches;
    size_t peer_matches;            /* open matches one peer may hold       */
    store *st;
    cardset *cards;
    live_table *live;
    quarantine *quar;
    feed *feed;                     /* NULL: no feed (a fuzz target)        */
    broadcast *bcast;               /* --broadcast-delay's; NULL: none       */
    gate *gate;                     /* NULL: everyone anonymous, judge      */
    keys_pair key;                  /* the daemon's own: seals, CURVE       */
    record_trust trust;             /* seals accepted: its own key and the
                                       --trusted-seals (never the store's) */
    int seal_legacy;                /* --seal-legacy: seal unsealed records
                                       of a store from before seals        */
    uint64_t started_ms;

    /* the --tournament files, loaded (query.h's `standings`); a slot is
     * NULL in a daemon given fewer (or none, as a fuzz target) */
    tournament *tournaments[DAEMON_TOURNAMENTS_MAX];
    size_t n_tournaments;
    uint64_t tour_gen;              /* bumped whenever a slot is loaded    */
    replica *replica;               /* --replicate's shipper; NULL: none     */
    standings *stand;               /* the standings worker; NULL: none, the
                                       op computes on the spot (fuzz, unit
                                       tests; arbiterd always has one)     */

    /* the damaged matches (record.h's findings: they take no events),
     * the first DAEMON_DAMAGED_SHOWN with why, for health */
    struct {
        char match[OL_MATCH_MAX + 1];
        char why[512];
    } damaged[DAEMON_DAMAGED_SHOWN];
    size_t n_damaged_shown;

    /* the store's state: 0 serving, 1 the disk is full (arbiterd(8), FAILURES) */
    int disk_full;
    char store_error[256];

    daemon_stats stats;
} daemon_ctx;

/* Milliseconds since the epoch, and a monotonic clock in microseconds. */
uint64_t daemon_now_ms(void);
uint64_t daemon_mono_us(void);

/* Who sent a message (gate_who), or, without a gate, an anonymous judge.
 * 0, or -1 when the key was revoked. */
int daemon_who(const daemon_ctx *d, void *msg, gate_peer *out);

/* The --tournament whose id is `id`, or NULL. */
const tournament *daemon_tournament(const daemon_ctx *d, const char *id);

/* Give live slot l (its id set, no session) the session of its match, in
 * txn.  A match nothing is stored of gets a new session over the card
 * database `named` names (its arriving header's "cards").  A stored one is
 * checked whole first (record_check: chain, links, seal by a trusted key,
 * summary, card database, every verdict and board judged again) and, when
 * clean, gets the lean session that judged it, where its record stands and
 * its tags: the daemon never extends a record it has not verified.  0;
 * 1 when the record has findings (l is then marked DAMAGED: it takes no
 * events; logged, and named in health); or a store error / -ENOMEM (l is
 * cleared). */
int daemon_load(daemon_ctx *d, MDB_txn *txn, live *l, const char *named);

/* Seal live match l after a batch wrote it (l->dirty): its summary
 * (record_summary_text, into the caller's scratch `text`), then the seal
 * with the daemon's key; l->dirty cleared.  0, or a store error. */
int daemon_seal(daemon_ctx *d, MDB_txn *txn, live *l, jtext *text);

/* Write what the replica confirmed into the outbox in a transaction of
 * its own (replica_due: no batch came to carry it).  0, or a store error
 * (the confirmations wait for the next transaction). */
int daemon_replica_flush(daemon_ctx *d);

/* Mark match `id` damaged for `why` (a sentence, logged by the caller):
 * DAMAGED in the live table, named in health.  0, or -1 out of memory. */
int daemon_damage(daemon_ctx *d, const char *id, const char *why);

#endif
