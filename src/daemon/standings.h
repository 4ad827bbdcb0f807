/* standings.h -- the query op `standings`, computed off the daemon's loop.
 *
 * A standings answer judges every stored record of a tournament again
 * (src/tournament/tourrec.h): up to STANDINGS_RECORDS records, seconds of work.
 * arbiterd's loop must never wait for that (arbiterd.c: no client stops the
 * daemon for the others), so one worker thread computes standings, one
 * request at a time, in a read transaction of its own; the loop hands it
 * requests and sends its answers.  standings.c's opening comment says who
 * owns what.
 *
 * Bounds: one computation at a time; at most STANDINGS_WAITING requests
 * wait for one (the running one's included) -- past that a request is
 * refused at once with a sentence saying the daemon is busy; requests
 * that wait for the same answer share one computation.  At most
 * STANDINGS_CACHE answers are kept: one is given again, at once, while the
 * store has had no write since it was computed and no tournament file was
 * loaded again.
 */
#ifndef ARBITER_STANDINGS_H
#define ARBITER_STANDINGS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "src/daemon/reply.h"
#include "src/record/store.h"
#include "src/tournament/tournament.h"

#define STANDINGS_WAITING 16        /* requests waiting for a computation */
#define STANDINGS_CACHE 16          /* answers kept                       */
#define STANDINGS_RECORDS 2000      /* records a standings request judges */

typedef struct standings standings;

/* The tournaments the loop holds (the --tournament files), as the worker's
 * answers are delivered: the list, its generation (bumped whenever a file
 * is loaded again: no answer cached before counts), and where replies the
 * query socket drops are counted. */
typedef struct {
    tournament *const *list;
    size_t n;
    uint64_t gen;
    uint64_t *dropped;
} standings_shelf;

/* Start the worker: its end of an inproc pair in zctx, the thread.
 * delay_ms: a test-only pause before each record is judged (0 in
 * production; arbiterd takes it from ARBITERD_TEST_STANDINGS_DELAY_MS so
 * that a test can keep a computation running).  0, or -1 (logged). */
int standings_new(void *zctx, store *st, unsigned delay_ms, standings **out);

/* Stop the computation under way at its next record, join the worker,
 * free everything (the retired tournament too).  NULL-safe. */
void standings_destroy(standings **s);

/* The loop's end of the pair: readable when a computation has ended
 * (poll it, then call standings_serve). */
void *standings_socket(standings *s);

/* A request for tournament t (one the loop holds, of generation `gen`),
 * after round `after` or final, validated by query.c.  1 and *now (a new
 * reference) when it is answered at once: from the cache, or refused
 * (busy); 0 when it waits: its answer goes to `to` from standings_serve. */
int standings_request(standings *s, uint64_t gen, const tournament *t, uint32_t after, int final,
                      const reply_route *to, json_t **now);

/* A computation has ended: send its answer to every request that waited
 * for it (reply_send on qsock), keep it in the cache, start the next (its
 * tournament looked up in `shelf`).  Never blocks. */
void standings_serve(standings *s, const standings_shelf *shelf, void *qsock);

/* The store's map is about to grow (store_grow: no read transaction may
 * be open in the process): standings_pause waits until the worker has
 * ended its transaction (it stops at its next record and starts over once
 * resumed), standings_resume lets it go on.  NULL-safe. */
void standings_pause(standings *s);
void standings_resume(standings *s);

/* A tournament the loop no longer holds (a SIGHUP loaded its file again):
 * freed now, or once the computation that reads it ends.  *t is NULL
 * after.  s may be NULL (no worker: freed now). */
void standings_retire(standings *s, tournament **t);

/* What `health` says: {"running","waiting","computed","cached","shared",
 * "busy","restarted"}; NULL out of memory. */
json_t *standings_health(const standings *s);

/* The answer itself, on the spot, in the caller's read transaction: what
 * the worker computes, for a daemon_ctx without a worker (a fuzz target,
 * the unit tests).  A new reference; NULL out of memory. */
json_t *standings_compute(store *st, MDB_txn *txn, const tournament *t, uint32_t after, int final);

#endif
