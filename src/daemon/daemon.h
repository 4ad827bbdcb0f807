/* daemon.h -- what the parts of arbiterd share.
 *
 * arbiterd is one loop (arbiterd.c), and a worker thread that computes
 * standings for it (standings.h; it touches nothing of this struct).  Its
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
#include "src/daemon/feed.h"
#include "src/daemon/gate.h"
#include "src/daemon/live.h"
#include "src/daemon/standings.h"
#include "src/record/cardset.h"
#include "src/record/quarantine.h"
#include "src/record/store.h"
#include "src/tournament/tournament.h"

#define DAEMON_MAX_MATCHES 10000    /* --max-matches default (SPEC.md 9.2) */
#define DAEMON_PEER_MATCHES 1000    /* --peer-matches default: one peer's share */
#define DAEMON_IDLE_MS (10 * 60 * 1000)   /* an idle match may leave memory */
#define DAEMON_TOURNAMENTS_MAX 16   /* --tournament files                    */

typedef struct {
    uint64_t events_stored, batches;
    uint64_t judge_us, commit_us, commit_us_max, batch_max;
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
    gate *gate;                     /* NULL: everyone anonymous, judge      */
    keys_pair key;                  /* the daemon's own: seals, CURVE       */
    int seal_legacy;                /* --seal-legacy: seal unsealed records
                                       of a store from before seals        */
    uint64_t started_ms;

    /* the --tournament files, loaded (query.h's `standings`); a slot is
     * NULL in a daemon given fewer (or none, as a fuzz target) */
    tournament *tournaments[DAEMON_TOURNAMENTS_MAX];
    size_t n_tournaments;
    uint64_t tour_gen;              /* bumped whenever a slot is loaded    */
    standings *stand;               /* the standings worker; NULL: none, the
                                       op computes on the spot (fuzz, unit
                                       tests; arbiterd always has one)     */

    /* the transaction the sessions read the record in (verify_session_lean
     * asks for stored events while it judges); set around each batch */
    MDB_txn *txn;

    /* the store's state: 0 serving, 1 the disk is full (SPEC.md 9.2) */
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

#endif
