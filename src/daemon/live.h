/* live.h -- the matches the daemon holds in memory.
 *
 * A live match is a judging session (verify.h) over the match's stored
 * events, plus what writing its record needs (the chain and record heads,
 * the verdict counts, the owner).  The store is the truth: a live match
 * can always be dropped and made again from the store (record_load), which
 * is what a restart does and what the daemon does to make room.
 *
 * The table is open addressing on the match id.  A slot is one of
 *
 *   FREE       never used;
 *   GONE       its session was dropped (a tombstone: lookups go past it);
 *   LIVE       it has a session;
 *   DAMAGED    the stored record failed the start check (record.h): it
 *              takes no events, and has no session.
 *
 *   FREE --live_slot()--> (no session yet) --live_attach()--> LIVE
 *   LIVE --live_clear()--> GONE --live_slot()--> ...
 *   any --live_damage()--> DAMAGED
 *
 * A LIVE match may have a holder: the peer (gate.h) whose event brought it
 * into memory (live_hold).  The table tells a hook of every match a holder
 * gains or loses, so that the daemon can count each peer's share of open
 * matches (arbiterd(8) LIMITS); live_release() sends a holder's matches out of
 * memory when it has left.
 *
 * Invariants: at most `max` slots are LIVE (the caller makes room with
 * live_lru() and live_clear() before it asks live_slot() for another);
 * the hook has been told +1 for every LIVE slot with a holder and -1 for
 * each that lost it;
 * the table is rehashed, dropping tombstones, whenever used slots reach
 * half of it, to 4 x (live + damaged) slots or more, so tombstones never
 * grow it without bound.  Pointers to slots are valid until the next
 * live_slot() (which may rehash).
 */
#ifndef ARBITER_LIVE_H
#define ARBITER_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "src/core/keys.h"
#include "src/core/verify.h"
#include "src/record/record.h"
#include "src/record/store.h"

#define LIVE_HOLDER_MAX 64         /* a peer's id (gate.h GATE_PEER_MAX)   */

typedef struct {
    char id[OL_MATCH_MAX + 1];     /* "" : FREE                            */
    verify_session *sess;          /* NULL : GONE, DAMAGED or being made   */
    int damaged;
    const cards *db;
    record_heads heads;            /* where its record stands (record.h)   */
    record_tags tags;              /* its tournament and owner ("" none)   */
    uint8_t dirty;                 /* an event was stored in this batch    */
    unsigned char feed_on;         /* a feed subscription covers it ...    */
    unsigned feed_gen;             /* ... as of this feed generation       */
    uint64_t used_ms;              /* the last event, for live_lru()       */
    uint64_t batch;                /* the last batch that touched it       */
    char holder[LIVE_HOLDER_MAX + 1];   /* the peer that brought it in, "" */
} live;

typedef struct live_table live_table;

/* A table holding at most `max` live matches.  0, or -1 out of memory. */
int live_table_new(size_t max, live_table **out);

/* Told of every match `holder` gains (+1) or loses (-1). */
typedef void (*live_hold_fn)(void *ctx, const char *holder, int delta);

/* Set the table's hook (none: NULL). */
void live_table_hook(live_table *t, live_hold_fn fn, void *ctx);

/* Drop every session and free the table; NULL-safe. */
void live_table_destroy(live_table **t);

/* The LIVE or DAMAGED slot of `id`, or NULL. */
live *live_find(live_table *t, const char *id);

/* A slot for `id` with no session, zeroed but for its id: its tombstone or
 * a new one (which may rehash: earlier slot pointers become invalid).
 * NULL when out of memory.  The caller gives it a session or clears it. */
live *live_slot(live_table *t, const char *id);

/* Give a slot its session (record_load does): it is LIVE. */
void live_attach(live_table *t, live *l, verify_session *s);

/* Drop a slot's session: it becomes a tombstone (GONE).  A slot that never
 * got a session may be cleared too. */
void live_clear(live_table *t, live *l);

/* `holder` brought the LIVE match l into memory: l is counted as its,
 * unless l has a holder already (then nothing changes). */
void live_hold(live_table *t, live *l, const char *holder);

/* Drop the session of every LIVE match `holder` holds (the store has
 * them: an event makes one again); how many. */
size_t live_release(live_table *t, const char *holder);

/* Mark `id` DAMAGED (no session, no events).  0, or -1 out of memory. */
int live_damage(live_table *t, const char *id);

/* The LIVE match used least recently and not by batch `busy`, or NULL. */
live *live_lru(live_table *t, uint64_t busy);

/* LIVE matches, DAMAGED ones, and the limit. */
size_t live_count(const live_table *t);
size_t live_damaged(const live_table *t);
size_t live_max(const live_table *t);

/* Call fn for each LIVE match. */
void live_each(live_table *t, void (*fn)(void *ctx, live *l), void *ctx);

#endif
