/* broadcast.h -- the judge's view of every event, late: the broadcast.
 *
 * Commentators and streams want the hidden cards -- hands, face-down
 * Benches, selections -- and a venue cannot give them live without giving
 * them to the players.  With --broadcast-delay D, arbiterd publishes every
 * stored event in the judge's view (and its verdict as stored) once it is
 * D old, on a socket of its own (--broadcast, an XPUB: topic = match id,
 * body {"event","verdict"} in MessagePack, as the feed's), which only keys
 * of the role `broadcast` may connect to (the gate's BROADCAST door).
 *
 * The delay.  No event leaves before it is D old, whatever the clients do
 * and across restarts: an event stored by this run goes out D after it was
 * committed, on the monotonic clock (a wall clock set back cannot make it
 * early); an event stored before a restart goes out once its stored
 * receive time is D old, counted from the start on the monotonic clock and
 * checked on the wall clock too.  A match that ended (a concession) waits
 * like any other.  The broadcast is live, like the feed: a subscriber gets
 * what comes due while it is subscribed; what came due while the daemon was
 * down is not sent again (the query views give it: `events` and `state` in
 * the view "broadcast", broadcast_released()).
 *
 * Bounds: at most BROADCAST_PENDING_MAX events wait at once (8 bytes each);
 * past it an event is never broadcast (counted: health's broadcast.dropped,
 * logged), never sent early.  The delay is at most BROADCAST_DELAY_MAX.
 *
 * Invariants, per match: released <= base + n; the events base..base+n-1
 * wait, each with its due time, non-decreasing; released counts from 0.
 *
 * Not thread-safe: the daemon's loop owns it.
 */
#ifndef ARBITER_BROADCAST_H
#define ARBITER_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include "src/record/store.h"

#define BROADCAST_PENDING_MAX 4000000     /* events waiting, all matches */
#define BROADCAST_DELAY_MAX (24ull * 3600 * 1000)   /* 24 h, in ms */

typedef struct broadcast broadcast;

/* A broadcast publishing on `sock` (an XPUB the caller bound and closes)
 * with a delay of delay_ms (1 .. BROADCAST_DELAY_MAX); the clocks at the
 * daemon's start, mono_ms (monotonic) and wall_ms (the epoch's).  0, or
 * -ENOMEM / -1 (a socket option). */
int broadcast_new(void *sock, uint64_t delay_ms, uint64_t mono_ms, uint64_t wall_ms, broadcast **out);
void broadcast_destroy(broadcast **b);

/* At start, from the store: every match with an event not D old yet by its
 * stored receive time is taken up from that event -- but a match whose
 * record failed the daemon's check at start (damaged(ctx, match) 1), which
 * is withheld (broadcast_withhold).  0, or a store error / -ENOMEM. */
int broadcast_resume(broadcast *b, store *st, MDB_txn *txn, int (*damaged)(void *ctx, const char *match),
                     void *ctx);

/* Match `match`'s record failed the daemon's check at start: its receive
 * times are no one's word (a forged one could let a hidden card out early),
 * so none of its events is ever broadcast, and broadcast_released() says 0
 * for it.  0, or -ENOMEM. */
int broadcast_withhold(broadcast *b, const char *match);

/* Read the subscriptions the XPUB passes up.  Never blocks. */
void broadcast_serve(broadcast *b);

/* Event `seq` of `match` is stored and committed now (mono_ms, rounded
 * up: broadcast_due's clock is rounded down, so that nothing goes out a
 * fraction of a millisecond early): it goes out delay_ms later.  Events of
 * a match are given in seq order. */
void broadcast_stored(broadcast *b, const char *match, uint64_t seq, uint64_t mono_ms);

/* Publish what is due at mono_ms / wall_ms, reading the events from the
 * store (a read transaction of its own).  0, or a store error (what was not
 * sent waits for the next call). */
int broadcast_due(broadcast *b, store *st, uint64_t mono_ms, uint64_t wall_ms);

/* Milliseconds until the next event is due (cap when none is sooner). */
int broadcast_wait_ms(const broadcast *b, uint64_t mono_ms, int cap);

/* How many of match's events are out: seqs below it are older than the
 * delay (or were when they were due); a match the broadcast does not hold
 * has every stored event out, but one withheld (broadcast_withhold), which
 * has none.  `stored` is how many the record holds. */
uint64_t broadcast_released(const broadcast *b, const char *match, uint64_t stored);

/* For health. */
uint64_t broadcast_delay_ms(const broadcast *b);
size_t broadcast_pending(const broadcast *b);
uint64_t broadcast_sent(const broadcast *b);
uint64_t broadcast_dropped(const broadcast *b);
size_t broadcast_subscriptions(const broadcast *b);

/* "15m", "90s", "2h", "1500ms" or a number of seconds, into ms: 0, or -1. */
int broadcast_parse_delay(const char *text, uint64_t *ms);

#endif
