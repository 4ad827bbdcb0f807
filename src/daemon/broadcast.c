/* broadcast.c -- the judge's view, late (broadcast.h).
 *
 * What: a queue per match of the events not yet D old, each with the time
 * it comes due on the daemon's monotonic clock; each turn of the loop the
 * due ones are read back from the store and published in the judge's view.
 *
 * Why a time per event, and not the stored receive time: the receive time
 * is the wall clock's, and a wall clock set back while a match is played
 * would make its later events look older than they are.  Only events
 * stored before a restart have nothing else; theirs is taken from the
 * store at start (broadcast_resume), counted from the start on the
 * monotonic clock, and checked on the wall clock as well when they are due.
 *
 * How: the queue of a match is an array of due times for seqs base ..
 * base+n-1 (events are stored in seq order, so no seq needs keeping); a
 * match whose queue empties is dropped, its events all out.  The XPUB and
 * its subscriptions are feed.c's: a message is built only when somebody
 * subscribed to the match.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/core/view.h"
#include "src/daemon/broadcast.h"
#include "src/daemon/feed.h"

typedef struct {
    char id[OL_MATCH_MAX + 1];
    uint64_t released;             /* seqs below it are out               */
    uint64_t base;                 /* due[0] is seq base's                */
    uint64_t *due;                 /* monotonic ms, non-decreasing        */
    size_t n, cap;
    uint64_t resumed_end;          /* seqs below came from the store at
                                      start: checked on the wall clock too */
    unsigned gen;                  /* feed_wanted's memo                  */
    unsigned char on;
} bmatch;

struct broadcast {
    feed *f;
    uint64_t delay, mono0, wall0;
    bmatch *m;
    size_t n, cap;
    size_t pending;
    uint64_t sent, dropped;
    size_t last;                   /* the match the last event was of: a
                                      batch stores a match's events together */
    char (*withheld)[OL_MATCH_MAX + 1];   /* damaged at start: never out */
    size_t n_withheld;
};

int broadcast_new(void *sock, uint64_t delay_ms, uint64_t mono_ms, uint64_t wall_ms, broadcast **out)
{
    broadcast *b = calloc(1, sizeof *b);
    *out = NULL;
    if (!b)
        return -ENOMEM;
    int rc = feed_new(sock, &b->f);
    if (rc) {
        free(b);
        return rc;
    }
    b->delay = delay_ms;
    b->mono0 = mono_ms;
    b->wall0 = wall_ms;
    *out = b;
    return 0;
}

void broadcast_destroy(broadcast **b)
{
    if (!b || !*b)
        return;
    for (size_t i = 0; i < (*b)->n; i++)
        free((*b)->m[i].due);
    free((*b)->m);
    free((*b)->withheld);
    feed_destroy(&(*b)->f);
    free(*b);
    *b = NULL;
}

static int is_withheld(const broadcast *b, const char *id)
{
    for (size_t i = 0; i < b->n_withheld; i++)
        if (!strcmp(b->withheld[i], id))
            return 1;
    return 0;
}

int broadcast_withhold(broadcast *b, const char *match)
{
    void *grown = realloc(b->withheld, (b->n_withheld + 1) * sizeof *b->withheld);
    if (!grown)
        return -ENOMEM;
    b->withheld = grown;
    snprintf(b->withheld[b->n_withheld++], sizeof *b->withheld, "%s", match);
    return 0;
}

static bmatch *find(const broadcast *b, const char *id)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->m[i].id, id))
            return &b->m[i];
    return NULL;
}

static bmatch *find_or_add(broadcast *b, const char *id)
{
    bmatch *m = b->last < b->n && !strcmp(b->m[b->last].id, id) ? &b->m[b->last] : find(b, id);
    if (m) {
        b->last = (size_t)(m - b->m);
        return m;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        bmatch *grown = realloc(b->m, cap * sizeof *grown);
        if (!grown)
            return NULL;
        b->m = grown;
        b->cap = cap;
    }
    b->last = b->n;
    m = &b->m[b->n++];
    memset(m, 0, sizeof *m);
    snprintf(m->id, sizeof m->id, "%s", id);
    return m;
}

/* One more event waits: seq, due at `due`.  0, or -1 (not kept: dropped). */
static int enqueue(broadcast *b, const char *id, uint64_t seq, uint64_t due)
{
    bmatch *m = b->pending < BROADCAST_PENDING_MAX ? find_or_add(b, id) : NULL;
    if (m && m->n && seq != m->base + m->n)
        m = NULL;   /* not the next: an event dropped before it; never early */
    if (m && m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        uint64_t *grown = realloc(m->due, cap * sizeof *grown);
        if (!grown)
            m = NULL;
        else {
            m->due = grown;
            m->cap = cap;
        }
    }
    if (!m) {
        if (b->dropped++ % 1000 == 0)
            dlog(DLOG_WARN, "broadcast: match %s #%llu is not broadcast (%zu events wait, the limit is %d, or out "
                 "of memory); %llu dropped so far", id, (unsigned long long)seq, b->pending, BROADCAST_PENDING_MAX,
                 (unsigned long long)b->dropped);
        return -1;
    }
    if (!m->n) {
        m->base = seq;
        if (m->released < seq)
            m->released = seq;   /* what was dropped before it is never sent */
    }
    if (m->n && due < m->due[m->n - 1])
        due = m->due[m->n - 1];
    m->due[m->n++] = due;
    b->pending++;
    return 0;
}

void broadcast_stored(broadcast *b, const char *match, uint64_t seq, uint64_t mono_ms)
{
    enqueue(b, match, seq, mono_ms + b->delay);
}

typedef struct {
    broadcast *b;
    store *st;
    MDB_txn *txn;
    const char *id;
    int taken;
    int (*damaged)(void *ctx, const char *match);
    void *ctx;
} resume_ctx;

static int resume_event(void *ctx, const store_event *e)
{
    resume_ctx *c = ctx;
    broadcast *b = c->b;
    if (e->received_ms + b->delay <= b->wall0 && !c->taken)
        return 0;   /* D old already: out before the restart */
    /* +2: the receive time, the start's wall clock and its monotonic one
     * are each whole milliseconds rounded down: never early by a fraction */
    uint64_t left = e->received_ms + b->delay + 2 - b->wall0;
    if (left > b->delay + 2)
        left = b->delay + 2;   /* a receive time ahead of the clock: a whole delay, never less */
    if (!enqueue(b, c->id, e->seq, b->mono0 + left))
        find(b, c->id)->resumed_end = e->seq + 1;
    c->taken = 1;
    return 0;
}

static int resume_match(void *ctx, const char *match, const char *json, size_t len)
{
    resume_ctx *c = ctx;
    if (c->damaged && c->damaged(c->ctx, match))
        return broadcast_withhold(c->b, match);
    json_t *s = json_loadb(json, len, 0, NULL);
    json_t *u = json_object_get(s, "updated");
    /* a summary is written with each batch: one not updated within the
     * delay has every event out (one that does not read is looked at) */
    int recent = !json_is_integer(u) || (uint64_t)json_integer_value(u) + c->b->delay > c->b->wall0;
    json_decref(s);
    /* the summary and the receive times are sealed: a record that passed
     * the start's check vouches for them (one that did not is withheld) */
    if (!recent)
        return 0;
    c->id = match;
    c->taken = 0;
    return store_each_event(c->st, c->txn, match, 0, UINT64_MAX, resume_event, c);
}

int broadcast_resume(broadcast *b, store *st, MDB_txn *txn, int (*damaged)(void *ctx, const char *match),
                     void *ctx)
{
    resume_ctx c = {b, st, txn, NULL, 0, damaged, ctx};
    int rc = store_each_match(st, txn, resume_match, &c);
    if (!rc && b->pending)
        dlog(DLOG_INFO, "broadcast: %zu stored event%s of %zu match%s not %llu s old yet wait", b->pending,
             b->pending == 1 ? "" : "s", b->n, b->n == 1 ? "" : "es", (unsigned long long)(b->delay / 1000));
    return rc;
}

void broadcast_serve(broadcast *b)
{
    feed_serve(b->f);
}

typedef struct {
    broadcast *b;
    bmatch *m;
    uint64_t wall;
    int held;                      /* a resumed event not D old on the wall clock */
} due_ctx;

/* One due event: published in the judge's view when somebody listens. */
static int publish_one(void *ctx, const store_event *e)
{
    due_ctx *c = ctx;
    broadcast *b = c->b;
    bmatch *m = c->m;
    if (e->seq < m->resumed_end && e->received_ms + b->delay > c->wall) {
        c->held = 1;   /* the wall clock says not yet: never early */
        return 1;
    }
    if (feed_wanted(b->f, m->id, &m->gen, &m->on)) {
        olevent *ev = NULL;
        json_t *ej = NULL;
        char *body = NULL;
        size_t len = 0;
        if (olcodec_decode_message(e->event, e->event_len, &ev, NULL) == OL_OK)
            ej = view_event_json(ev, VIEW_JUDGE, NULL);
        if (ej && !feed_body(ej, (const char *)e->verdict, e->verdict_len, &body, &len))
            feed_publish(b->f, m->id, body, len);
        else
            dlog(DLOG_WARN, "broadcast: match %s #%llu is not published (out of memory, or it does not decode)",
                 m->id, (unsigned long long)e->seq);
        free(body);
        json_decref(ej);
        olevent_destroy(&ev);
        b->sent++;
    }
    return 0;
}

int broadcast_due(broadcast *b, store *st, uint64_t mono_ms, uint64_t wall_ms)
{
    MDB_txn *txn = NULL;
    int rc = 0;
    for (size_t i = 0; i < b->n && !rc; i++) {
        bmatch *m = &b->m[i];
        size_t k = 0;
        if (!m->n || m->due[0] > mono_ms)
            continue;
        if (!txn && (rc = mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn)))
            break;
        due_ctx c = {b, m, wall_ms, 0};
        while (k < m->n && m->due[k] <= mono_ms && !c.held && !rc) {
            rc = store_each_event(st, txn, m->id, m->base + k, m->base + k, publish_one, &c);
            if (rc == 1)
                rc = 0;
            if (!rc && !c.held)
                k++;
        }
        memmove(m->due, m->due + k, (m->n - k) * sizeof *m->due);
        m->n -= k;
        m->base += k;
        m->released = m->base;
        b->pending -= k;
    }
    if (txn)
        mdb_txn_abort(txn);
    /* a match with nothing waiting has every event out: forgotten */
    for (size_t i = 0; i < b->n;) {
        if (b->m[i].n) {
            i++;
            continue;
        }
        free(b->m[i].due);
        b->m[i] = b->m[--b->n];
    }
    return rc;
}

int broadcast_wait_ms(const broadcast *b, uint64_t mono_ms, int cap)
{
    uint64_t best = (uint64_t)cap;
    for (size_t i = 0; i < b->n; i++)
        if (b->m[i].n) {
            uint64_t d = b->m[i].due[0] > mono_ms ? b->m[i].due[0] - mono_ms : 0;
            if (d < best)
                best = d;
        }
    return (int)best;
}

uint64_t broadcast_released(const broadcast *b, const char *match, uint64_t stored)
{
    const bmatch *m = find(b, match);
    if (is_withheld(b, match))
        return 0;
    return m && m->released < stored ? m->released : stored;
}

uint64_t broadcast_delay_ms(const broadcast *b)
{
    return b->delay;
}

size_t broadcast_pending(const broadcast *b)
{
    return b->pending;
}

uint64_t broadcast_sent(const broadcast *b)
{
    return b->sent;
}

uint64_t broadcast_dropped(const broadcast *b)
{
    return b->dropped;
}

size_t broadcast_subscriptions(const broadcast *b)
{
    return feed_subscriptions(b->f);
}

int broadcast_parse_delay(const char *text, uint64_t *ms)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t unit;
    if (!text[0] || text[0] < '0' || text[0] > '9' || errno || end == text)
        return -1;
    if (!strcmp(end, "ms"))
        unit = 1;
    else if (!*end || !strcmp(end, "s"))
        unit = 1000;
    else if (!strcmp(end, "m"))
        unit = 60000;
    else if (!strcmp(end, "h"))
        unit = 3600000;
    else
        return -1;
    if (v == 0 || v > BROADCAST_DELAY_MAX / unit)
        return -1;
    *ms = (uint64_t)v * unit;
    return 0;
}
