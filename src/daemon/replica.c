/* replica.c -- the shipper thread of arbiterd --replicate (replica.h).
 *
 * What: one thread that, while the daemon runs, walks the store's outbox
 * (the matches with events no replica has confirmed), copies a bounded
 * chunk of those records out of a read transaction, derives what the
 * central tables keep beside the bytes (each event's type, its verdict's
 * status and rule, and the event and verdict as the public may see them,
 * through view.c as the feed does), and ships the chunk in one PostgreSQL
 * transaction (pgship.h).  Each record shipped becomes a confirmation
 * (match, seq reached) that the loop writes into the outbox.
 *
 * Why confirmations go through the loop: LMDB has one writer at a time,
 * and the loop's batch must never wait for anything but its own fsync; the
 * confirmations ride in its next batch transaction (or, when the venue is
 * quiet, in a small one of their own after REPLICA_ACK_WAIT_MS).  Until
 * then the shipper remembers them, and reads the outbox through them, so
 * that it does not ship a record twice while the loop catches up.
 *
 * Why the chunk is copied out: the read transaction ends before the first
 * byte goes to PostgreSQL.  A database that takes 20 s to answer, or a
 * network cut, then holds no LMDB snapshot open (the store's free pages
 * are not pinned) and never stops the map from growing (replica_pause
 * waits for a copy, never for the network).
 *
 * Why two chunks at a time: reading a chunk out of the store and deriving
 * it (decoding every event, the public view of each) cost the daemon a
 * good part of what PostgreSQL's COPY of it costs.  So while PostgreSQL
 * takes this chunk, a helper thread gathers the next one, past this one's
 * events as if they were confirmed, and derives it: the two halves
 * overlap.  Meanwhile the shipper touches nothing but the chunk it ships
 * (it owns every byte PostgreSQL gets), and the helper alone reads the
 * store and loads card databases.
 *
 * Invariants: acks[0..n_acks) are confirmations in the order they were
 * made; acks[0..n_inflight) were written by the loop's open transaction;
 * the shipper and its helper touch the store only between txn_lock and its
 * unlock, one at a time, and only to read; a chunk holds at most
 * REPLICA_CHUNK_EVENTS events and REPLICA_CHUNK_BYTES bytes of them, and at
 * most two chunks are held.
 */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/core/view.h"
#include "src/daemon/replica.h"
#include "src/pg/pgship.h"
#include "src/record/cardset.h"
#include "src/record/record.h"

typedef struct {
    char match[OL_MATCH_MAX + 1];
    uint64_t to;
} ack;

/* A card database (~128 KiB) goes once a shipment, with the first record
 * of the chunk that pins it: the row is the same for all of them.  A chunk
 * remembers this many; past them it ships each again (as it would anyway,
 * the row's INSERT does nothing). */
#define CHUNK_CARDS 8

/* One record of a chunk: what pgship ships, and what deriving needs. */
typedef struct {
    pgship_record r;
    uint64_t from;
    olevent *header;                /* for the public view; NULL: none  */
    const cards *db;                /* for sentences; NULL: withheld    */
    size_t first;                   /* its events in chunk.ev           */
} chunk_rec;

typedef struct {
    chunk_rec *rec;
    size_t n_rec, cap_rec;
    pgship_event *ev;
    size_t n_ev, cap_ev;
    void **own;                     /* every buffer the chunk owns      */
    size_t n_own, cap_own;
    size_t bytes;
    int full;
    const char *cards_in[CHUNK_CARDS];   /* the card databases it ships (hex) */
    size_t n_cards_in;
} chunk;

struct replica {
    store *st;
    char *url;
    char venue[PGSHIP_VENUE_MAX + 1];
    uint8_t key[32];
    unsigned delay_ms;
    pthread_t thread;
    int started;

    pthread_mutex_t lock;           /* everything below                  */
    pthread_cond_t wake;            /* kick, stop, room for acks         */
    int stop, kicked;
    PGcancel *cancel;               /* of the connection, while one is   */
    ack acks[REPLICA_ACKS];
    size_t n_acks, n_inflight;
    uint64_t oldest_ack_us;
    replica_status status;

    pthread_mutex_t txn_lock;       /* held while the thread reads the store */

    cardset *cards;                 /* the thread's own                  */
};

/* (the daemon's clocks are daemon.h's, which includes this header: a
 * module below it keeps its own, as gate.c does) */
static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the chunk ---------------------------------------------------------- */

static void *own(chunk *c, void *p)
{
    if (!p)
        return NULL;
    if (c->n_own == c->cap_own) {
        size_t cap = c->cap_own ? 2 * c->cap_own : 256;
        void **n = realloc(c->own, cap * sizeof *n);
        if (!n) {
            free(p);
            return NULL;
        }
        c->own = n, c->cap_own = cap;
    }
    return c->own[c->n_own++] = p;
}

static void *dup(chunk *c, const void *p, size_t n)
{
    void *q = own(c, malloc(n + 1));
    if (q) {
        memcpy(q, p, n);
        ((char *)q)[n] = 0;
    }
    return q;
}

static void chunk_clear(chunk *c)
{
    for (size_t i = 0; i < c->n_own; i++)
        free(c->own[i]);
    for (size_t i = 0; i < c->n_rec; i++)
        olevent_destroy(&c->rec[i].header);
    c->n_own = c->n_rec = c->n_ev = c->bytes = c->n_cards_in = 0;
    c->full = 0;
}

static void chunk_free(chunk *c)
{
    chunk_clear(c);
    free(c->own);
    free(c->rec);
    free(c->ev);
}

/* ---- reading the store (txn_lock held) ------------------------------------ */

typedef struct {
    replica *r;
    MDB_txn *txn;
    chunk *c;
    const ack *acks;                /* a copy of the waiting confirmations */
    size_t n_acks;
    const chunk *flight;            /* the chunk on its way to PostgreSQL, or NULL */
    char last[OL_MATCH_MAX + 1];    /* the last match the walk finished    */
    int err;
} gather_ctx;

static int ack_cmp(const void *a, const void *b)
{
    const ack *x = a, *y = b;
    int c = strcmp(x->match, y->match);
    return c ? c : x->to < y->to ? -1 : x->to > y->to;
}

/* The seq the outbox entry really starts at: a confirmation the loop has
 * not written yet moves it on; so, when gathering (flight 1), does the
 * chunk on its way to PostgreSQL -- its events are not gathered twice, yet
 * they are backlog until shipped.  Both are searched, not scanned (an
 * outbox after a day offline has a match a table): g->acks is sorted
 * (match, to), so a match's last confirmation is its furthest; the chunk's
 * records are in the outbox's order, LMDB's byte order of the ids, which
 * is strcmp's. */
static uint64_t effective_from(const gather_ctx *g, const char *match, uint64_t from, int flight)
{
    size_t lo = 0, hi = g->n_acks;
    while (lo < hi) {   /* the first confirmation past `match` */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(g->acks[mid].match, match) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo && !strcmp(g->acks[lo - 1].match, match) && g->acks[lo - 1].to > from)
        from = g->acks[lo - 1].to;
    if (flight && g->flight) {
        lo = 0, hi = g->flight->n_rec;
        while (lo < hi) {   /* the chunk's record of `match`, if any */
            size_t mid = lo + (hi - lo) / 2;
            int c = strcmp(g->flight->rec[mid].r.match, match);
            if (!c) {
                const chunk_rec *cr = &g->flight->rec[mid];
                if (cr->from + cr->r.n_events > from)
                    from = cr->from + cr->r.n_events;
                break;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return from;
}

static int copy_event(void *ctx, const store_event *e)
{
    gather_ctx *g = ctx;
    chunk *c = g->c;
    if (c->n_ev >= REPLICA_CHUNK_EVENTS || (c->n_ev && c->bytes + e->event_len + e->verdict_len > REPLICA_CHUNK_BYTES)) {
        c->full = 1;
        return 1;
    }
    if (c->n_ev == c->cap_ev) {
        size_t cap = c->cap_ev ? 2 * c->cap_ev : 512;
        pgship_event *n = realloc(c->ev, cap * sizeof *n);
        if (!n)
            return -ENOMEM;
        c->ev = n, c->cap_ev = cap;
    }
    pgship_event *p = &c->ev[c->n_ev];
    memset(p, 0, sizeof *p);
    uint8_t *hashes = dup(c, e->chain, 3 * 32);
    p->seq = e->seq;
    p->received_ms = e->received_ms;
    p->peer = dup(c, e->peer, strlen(e->peer));
    p->event = dup(c, e->event, e->event_len);
    p->event_len = e->event_len;
    p->verdict = dup(c, e->verdict, e->verdict_len);
    p->verdict_len = e->verdict_len;
    if (!hashes || !p->peer || !p->event || !p->verdict)
        return -ENOMEM;
    memcpy(hashes + 32, e->state, 32);
    memcpy(hashes + 64, e->link, 32);
    p->chain = hashes, p->state = hashes + 32, p->link = hashes + 64;
    c->n_ev++;
    c->bytes += e->event_len + e->verdict_len;
    return 0;
}

static int gather_one(void *ctx, const char *match, uint64_t from, uint64_t since)
{
    gather_ctx *g = ctx;
    replica *r = g->r;
    chunk *c = g->c;
    uint64_t next, eff = effective_from(g, match, from, 1);
    store_event e0;
    int rc;
    (void)since;

    if ((rc = store_next_seq(r->st, g->txn, match, &next)))
        return g->err = rc, 1;
    if (eff >= next) {   /* everything confirmed: the loop will drop it */
        snprintf(g->last, sizeof g->last, "%s", match);
        return 0;
    }
    if (c->full || c->n_ev >= REPLICA_CHUNK_EVENTS)
        return c->full = 1, 1;
    if ((rc = store_get_event(r->st, g->txn, match, 0, &e0)))
        return g->err = rc, 1;
    if (c->n_rec == c->cap_rec) {
        size_t cap = c->cap_rec ? 2 * c->cap_rec : 64;
        chunk_rec *n = realloc(c->rec, cap * sizeof *n);
        if (!n)
            return g->err = -ENOMEM, 1;
        c->rec = n, c->cap_rec = cap;
    }
    chunk_rec *cr = &c->rec[c->n_rec];
    memset(cr, 0, sizeof *cr);
    cr->from = eff;
    cr->first = c->n_ev;
    cr->r.started_ms = e0.received_ms;
    if (!(cr->r.match = dup(c, match, strlen(match))))
        return g->err = -ENOMEM, 1;
    c->n_rec++;
    rc = store_each_event(r->st, g->txn, match, eff, next - 1, copy_event, g);
    if (rc < 0)
        return g->err = rc, 1;
    cr->r.events = NULL;   /* set once the chunk's array stops moving */
    cr->r.n_events = c->n_ev - cr->first;
    if (!cr->r.n_events) {   /* no room for even one of its events */
        c->n_rec--;
        return c->full = 1, 1;
    }
    uint64_t to = eff + cr->r.n_events;
    record_info info;
    char why[256];
    int have_info = record_read(r->st, g->txn, match, &info) == 0;
    if (have_info && info.has_cards_hash)
        cr->db = cardset_by_hash(r->cards, r->st, g->txn, info.cards_hash, why, sizeof why);
    if (record_header(r->st, g->txn, match, &cr->header))
        cr->header = NULL;   /* undecodable: the public view hides every setup slot */
    if (to == next && have_info) {   /* the record whole: its summary and seal go too */
        seal s;
        const void *raw;
        size_t len;
        int sr = record_seal_read(r->st, g->txn, match, &s, &raw, &len);
        if (sr == 0 || sr == -EINVAL) {   /* a seal that does not read goes as it is: audit --pg says so */
            cr->r.summary = dup(c, info.summary, info.summary_len);
            cr->r.summary_len = info.summary_len;
            cr->r.seal = dup(c, raw, len);
            cr->r.seal_len = len;
            if (!cr->r.summary || !cr->r.seal)
                return g->err = -ENOMEM, 1;
        }
    }
    if (eff == 0 && have_info && info.has_cards_hash) {   /* the header goes: the database it pins too */
        char hex[65];
        const void *bytes;
        size_t len;
        size_t k = 0;
        carddb_hash_hex(info.cards_hash, hex);
        while (k < c->n_cards_in && strcmp(c->cards_in[k], hex))
            k++;
        if (k == c->n_cards_in && store_get_cards(r->st, g->txn, hex, &bytes, &len) == 0) {
            cr->r.cards_hash = dup(c, hex, 64);
            cr->r.cards = dup(c, bytes, len);
            cr->r.cards_len = len;
            if (!cr->r.cards_hash || !cr->r.cards)
                return g->err = -ENOMEM, 1;
            if (c->n_cards_in < CHUNK_CARDS)
                c->cards_in[c->n_cards_in++] = cr->r.cards_hash;
        }
    }
    if (to < next)
        return c->full = 1, 1;   /* the chunk is full in this record: it goes on next time */
    snprintf(g->last, sizeof g->last, "%s", match);
    return 0;
}

/* For health: the whole outbox, read through the waiting confirmations. */
typedef struct {
    gather_ctx *g;
    uint64_t matches, events, oldest;
    size_t seen;
} backlog_ctx;

static int backlog_one(void *ctx, const char *match, uint64_t from, uint64_t since)
{
    backlog_ctx *b = ctx;
    uint64_t next, eff = effective_from(b->g, match, from, 0);
    if (++b->seen > REPLICA_WALK_MAX)
        return 1;
    if (store_next_seq(b->g->r->st, b->g->txn, match, &next) || eff >= next)
        return 0;
    b->matches++;
    b->events += next - eff;
    if (!b->oldest || since < b->oldest)
        b->oldest = since;
    return 0;
}

/* ---- deriving (no lock) ----------------------------------------------------- */

/* json_dump_callback's writer: into a jtext. */
static int to_jtext(const char *buf, size_t n, void *t)
{
    jtext_raw(t, buf, n);
    return ((jtext *)t)->bad ? -1 : 0;
}

/* Each event's type, status and rule, and the text of
 * {"event": its public view, "verdict": its verdict's} as json_dumps
 * (JSON_COMPACT) writes the pair.  An event but a header, and a verdict
 * that says no sentence (most verdicts), have their texts written
 * straight from the MessagePack (view_event_text, olcodec_msgpack_text),
 * which gives the same bytes as the trees did at a fraction of the cost
 * (BENCHMARKS.md); the others go through the trees.  What the trees
 * would refuse has no public text (NULL), as before. */
static void derive(chunk *c)
{
    jtext t = {0}, vt = {0};
    for (size_t i = 0; i < c->n_rec; i++) {
        chunk_rec *cr = &c->rec[i];
        cr->r.events = c->ev + cr->first;
        for (size_t k = 0; k < cr->r.n_events; k++) {
            pgship_event *p = &c->ev[cr->first + k];
            olevent *ev = NULL;
            json_t *vj = NULL;
            olcodec_pick pick[] = {{.key = "status"}, {.key = "rule"}, {.key = "msg"}, {.key = "stored"}};
            jtext_reset(&t), jtext_reset(&vt);
            int vok = olcodec_msgpack_text(p->verdict, p->verdict_len, NULL, NULL, 0, pick, 4, &vt) == OL_OK;
            /* a verdict not read is of our own bytes: it cannot happen,
             * and its status is then unknown */
            p->status = vok && pick[0].s ? dup(c, pick[0].s, pick[0].n) : "ok";
            p->rule = vok && pick[1].s ? dup(c, pick[1].s, pick[1].n) : NULL;
            if (olcodec_decode_message(p->event, p->event_len, &ev, NULL) == OL_OK && ev) {
                p->type = ol_type_name(ev->type);
                /* only a sentence can name a hidden card (view.h: the
                 * verdict's `msg` and its `stored` verdict's); most
                 * verdicts have none, and are public as they are */
                if (vok && (pick[2].present || pick[3].present)) {
                    jtext_reset(&vt);
                    vok = olcodec_msgpack_to_json(p->verdict, p->verdict_len, (ol_origin){0, 0}, &vj, NULL) == OL_OK &&
                          view_verdict_redact(vj, ev, VIEW_PUBLIC, cr->header, cr->db) >= 0 &&
                          !json_dump_callback(vj, to_jtext, &vt, JSON_COMPACT);
                }
                jtext_lit(&t, "{\"event\":");
                int eok = view_event_text(ev, VIEW_PUBLIC, cr->header, &t);
                if (!eok) {
                    json_t *ej = view_event_json(ev, VIEW_PUBLIC, cr->header);
                    eok = ej && !json_dump_callback(ej, to_jtext, &t, JSON_COMPACT);
                    json_decref(ej);
                }
                if (vok && eok > 0) {
                    jtext_lit(&t, ",\"verdict\":");
                    jtext_raw(&t, vt.buf, vt.len);
                    jtext_lit(&t, "}");
                    if (!t.bad)
                        p->public_json = dup(c, t.buf, t.len);
                }
            }
            json_decref(vj);
            olevent_destroy(&ev);
        }
    }
    jtext_free(&t);
    jtext_free(&vt);
}

/* ---- the thread ---------------------------------------------------------------- */

static void set_error(replica *r, const char *why)
{
    pthread_mutex_lock(&r->lock);
    int again = !strcmp(r->status.last_error, why);
    snprintf(r->status.last_error, sizeof r->status.last_error, "%s", why);
    r->status.last_error_ms = now_ms();
    r->status.connected = 0;
    pthread_mutex_unlock(&r->lock);
    if (!again)   /* a database down for an hour is said once, not every 30 s */
        dlog(DLOG_WARN, "replication to %s: %s; the venue goes on, and what is stored is shipped when it can be",
             r->status.target, why);
}

/* Wait up to ms for a kick or the stop; 1 when stopping. */
static int nap(replica *r, unsigned ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&r->lock);
    while (!r->stop && !r->kicked)
        if (pthread_cond_timedwait(&r->wake, &r->lock, &until) == ETIMEDOUT)
            break;
    r->kicked = 0;
    int stop = r->stop;
    pthread_mutex_unlock(&r->lock);
    return stop;
}

static int stopping(replica *r)
{
    pthread_mutex_lock(&r->lock);
    int s = r->stop;
    pthread_mutex_unlock(&r->lock);
    return s;
}

static PGconn *connect_db(replica *r)
{
    char err[512];
    PGconn *c = NULL;
    if (pgship_connect(r->url, REPLICA_TIMEOUT_S, &c, err, sizeof err) || pgship_check(c, r->venue, r->key, err, sizeof err)) {
        PQfinish(c);
        set_error(r, err);
        return NULL;
    }
    pthread_mutex_lock(&r->lock);
    r->cancel = PQgetCancel(c);
    r->status.connected = 1;
    pthread_mutex_unlock(&r->lock);
    dlog(DLOG_INFO, "replication: connected to %s as venue %s", r->status.target, r->venue);
    return c;
}

static void disconnect(replica *r, PGconn **c)
{
    pthread_mutex_lock(&r->lock);
    PQfreeCancel(r->cancel);
    r->cancel = NULL;
    r->status.connected = 0;
    pthread_mutex_unlock(&r->lock);
    PQfinish(*c);
    *c = NULL;
}

/* Read the next chunk after match `after` ("" from the first), past the
 * events of `flight` (NULL: none on its way); a pass that starts at the
 * first entry also counts the backlog.  0 (the chunk may be empty: the
 * pass is over), or a store error. */
static int gather(replica *r, chunk *c, char *after, ack *copy, const chunk *flight)
{
    gather_ctx g;
    MDB_txn *txn = NULL;
    memset(&g, 0, sizeof g);
    g.r = r, g.c = c, g.acks = copy, g.flight = flight;
    /* the confirmations first, the snapshot after: one removed in between
     * was committed before the snapshot, so the outbox shows it */
    pthread_mutex_lock(&r->lock);
    g.n_acks = r->n_acks;
    memcpy(copy, r->acks, r->n_acks * sizeof *copy);
    pthread_mutex_unlock(&r->lock);
    qsort(copy, g.n_acks, sizeof *copy, ack_cmp);
    pthread_mutex_lock(&r->txn_lock);
    int rc = mdb_txn_begin(store_env(r->st), NULL, MDB_RDONLY, &txn);
    if (!rc) {
        g.txn = txn;
        if (!*after) {
            backlog_ctx b = {&g, 0, 0, 0, 0};
            if (!(rc = store_each_outbox(r->st, txn, NULL, backlog_one, &b)) || rc == 1) {
                rc = 0;
                pthread_mutex_lock(&r->lock);
                r->status.backlog_matches = b.matches;
                r->status.backlog_events = b.events;
                r->status.backlog_more = b.seen > REPLICA_WALK_MAX;
                r->status.lag_ms = b.oldest ? now_ms() - b.oldest : 0;
                pthread_mutex_unlock(&r->lock);
            }
        }
        if (!rc) {
            rc = store_each_outbox(r->st, txn, after, gather_one, &g);
            rc = g.err ? g.err : rc == 1 ? 0 : rc;
        }
        mdb_txn_abort(txn);
    }
    pthread_mutex_unlock(&r->txn_lock);
    snprintf(after, OL_MATCH_MAX + 1, "%s", c->full ? g.last : "");
    return rc;
}

/* Confirmations of a shipped chunk, for the loop (waiting for room). */
static void confirm(replica *r, const chunk *c, const pgship_result *res)
{
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < c->n_rec && !r->stop; i++) {
        while (r->n_acks == REPLICA_ACKS && !r->stop)
            pthread_cond_wait(&r->wake, &r->lock);
        if (r->stop)
            break;
        if (!r->n_acks)
            r->oldest_ack_us = mono_us();
        ack *a = &r->acks[r->n_acks++];
        snprintf(a->match, sizeof a->match, "%s", c->rec[i].r.match);
        a->to = c->rec[i].from + c->rec[i].r.n_events;
    }
    r->status.shipped_events += c->n_ev;
    r->status.shipments++;
    r->status.conflicts += res->conflicts_new;
    r->status.last_shipment_ms = now_ms();
    r->status.last_error[0] = 0;
    pthread_mutex_unlock(&r->lock);
    if (res->conflicts_new)
        dlog(DLOG_ERROR, "replication: %llu event%s offered to %s differ from the copy it already holds: kept as it "
             "was, the offered copies are in its table conflicts (a judge looks at them: arbiter audit --pg)",
             (unsigned long long)res->conflicts_new, res->conflicts_new == 1 ? "" : "s", r->status.target);
}

/* The chunk after the one on its way: gathered past it and derived, on a
 * helper thread while the shipper ships. */
typedef struct {
    replica *r;
    chunk *c;
    char *after;
    ack *copy;
    const chunk *flight;
    int rc;                         /* gather()'s */
} ahead;

static void *ahead_main(void *arg)
{
    ahead *a = arg;
    a->rc = gather(a->r, a->c, a->after, a->copy, a->flight);
    if (!a->rc && a->c->n_rec)
        derive(a->c);
    return NULL;
}

/* One chunk to PostgreSQL (pgship_send): 0, or -1 and err. */
static int ship(replica *r, PGconn *c, const chunk *ch, pgship_result *res, char *err, size_t errlen)
{
    pgship_record *recs = malloc(ch->n_rec * sizeof *recs);
    if (!recs) {
        snprintf(err, errlen, "out of memory making a shipment");
        return -1;
    }
    for (size_t i = 0; i < ch->n_rec; i++)
        recs[i] = ch->rec[i].r;
    int rc = pgship_send(c, r->venue, recs, ch->n_rec, res, err, errlen);
    free(recs);
    return rc;
}

static void store_error(replica *r, int rc)
{
    char err[512];
    snprintf(err, sizeof err, "cannot read the store: %s", rc < 0 ? strerror(-rc) : mdb_strerror(rc));
    set_error(r, err);
}

/* The shipper: a pipeline of two chunks.  `cur` is gathered and derived;
 * while it goes to PostgreSQL, the one after it is gathered (the store is
 * read under txn_lock, past cur's events) and derived on a helper thread.
 * A failed shipment drops both, and the pass starts again from the first
 * match. */
static void *run(void *arg)
{
    replica *r = arg;
    PGconn *c = NULL;
    chunk ch[2], *cur = &ch[0], *next = &ch[1];
    int ready = 0;   /* cur is gathered and derived: it ships next */
    char after[OL_MATCH_MAX + 1] = "", err[512];
    unsigned backoff = 1;
    ack *copy = malloc(sizeof(ack) * REPLICA_ACKS);
    memset(ch, 0, sizeof ch);
    if (!copy) {
        set_error(r, "out of memory: nothing is shipped");
        return NULL;
    }
    while (!stopping(r)) {
        if (!c && !(c = connect_db(r))) {
            if (nap(r, backoff * 1000))
                break;
            backoff = backoff * 2 > REPLICA_BACKOFF_MAX_S ? REPLICA_BACKOFF_MAX_S : backoff * 2;
            continue;
        }
        if (!ready) {
            chunk_clear(cur);
            int rc = gather(r, cur, after, copy, NULL);
            if (rc)
                store_error(r, rc);
            if (rc || !cur->n_rec) {   /* nothing to ship: wait for a batch, or a second */
                if (nap(r, 1000))
                    break;
                continue;
            }
            derive(cur);
            ready = 1;
        }
        if (r->delay_ms && nap(r, r->delay_ms))
            break;
        pthread_t helper;
        chunk_clear(next);
        ahead a = {r, next, after, copy, cur, 0};
        int helping = !pthread_create(&helper, NULL, ahead_main, &a);
        if (!helping)
            ahead_main(&a);   /* no thread: in turn */
        pgship_result res;
        int rc = ship(r, c, cur, &res, err, sizeof err);
        if (helping)
            pthread_join(helper, NULL);
        int next_rc = a.rc;
        if (rc) {
            set_error(r, err);
            disconnect(r, &c);   /* whatever failed, a fresh connection starts clean */
            after[0] = 0;        /* both chunks are read again */
            ready = 0;
            if (nap(r, backoff * 1000))
                break;
            backoff = backoff * 2 > REPLICA_BACKOFF_MAX_S ? REPLICA_BACKOFF_MAX_S : backoff * 2;
            continue;
        }
        backoff = 1;
        confirm(r, cur, &res);
        if (next_rc) {
            store_error(r, next_rc);
            ready = 0;
            if (nap(r, 1000))
                break;
            continue;
        }
        chunk *t = cur;
        cur = next, next = t;
        ready = cur->n_rec > 0;   /* none: the pass is over; the next one starts now */
    }
    chunk_free(&ch[0]);
    chunk_free(&ch[1]);
    free(copy);
    if (c)
        disconnect(r, &c);
    return NULL;
}

/* ---- the loop's side ---------------------------------------------------------------- */

/* The URL as health may show it: who, where and which database, never a
 * password. */
static void target_of(const char *url, char *out, size_t n)
{
    PQconninfoOption *o = PQconninfoParse(url, NULL);
    const char *user = "", *host = "", *port = "", *db = "";
    for (PQconninfoOption *p = o; p && p->keyword; p++) {
        if (!p->val)
            continue;
        if (!strcmp(p->keyword, "user"))
            user = p->val;
        else if (!strcmp(p->keyword, "host"))
            host = p->val;
        else if (!strcmp(p->keyword, "port"))
            port = p->val;
        else if (!strcmp(p->keyword, "dbname"))
            db = p->val;
    }
    snprintf(out, n, "postgresql://%s%s%s%s%s/%s", user, *user ? "@" : "", *host == '/' ? "" : host, *port ? ":" : "",
             port, db);
    if (*host == '/')   /* a Unix socket's folder: said as libpq's host= */
        snprintf(out + strlen(out), n - strlen(out), "?host=%s", host);
    PQconninfoFree(o);
}

int replica_new(store *st, const char *url, const char *venue, const keys_pair *key, unsigned delay_ms,
                replica **out)
{
    replica *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r || !(r->url = strdup(url)) || cardset_new(&r->cards)) {
        dlog(DLOG_ERROR, "out of memory starting replication");
        goto fail;
    }
    r->st = st;
    r->delay_ms = delay_ms;
    snprintf(r->venue, sizeof r->venue, "%s", venue);
    memcpy(r->key, key->sign_public, 32);
    target_of(url, r->status.target, sizeof r->status.target);
    snprintf(r->status.venue, sizeof r->status.venue, "%s", venue);
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_init(&r->txn_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&r->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&r->thread, NULL, run, r)) {
        dlog(DLOG_ERROR, "cannot start the replication thread");
        pthread_mutex_destroy(&r->lock);
        pthread_mutex_destroy(&r->txn_lock);
        pthread_cond_destroy(&r->wake);
        goto fail;
    }
    r->started = 1;
    *out = r;
    return 0;
fail:
    if (r) {
        cardset_destroy(&r->cards);
        free(r->url);
        free(r);
    }
    return -1;
}

void replica_stop(replica *r)
{
    if (!r || !r->started)
        return;
    pthread_mutex_lock(&r->lock);
    r->stop = 1;
    if (r->cancel) {   /* a statement under way ends now, not at its timeout */
        char e[256];
        PQcancel(r->cancel, e, sizeof e);
    }
    pthread_cond_broadcast(&r->wake);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    r->started = 0;
}

void replica_destroy(replica **rp)
{
    replica *r = *rp;
    if (!r)
        return;
    replica_stop(r);
    pthread_mutex_destroy(&r->lock);
    pthread_mutex_destroy(&r->txn_lock);
    pthread_cond_destroy(&r->wake);
    cardset_destroy(&r->cards);
    free(r->url);
    free(r);
    *rp = NULL;
}

int replica_apply(replica *r, store *st, MDB_txn *txn)
{
    int rc = 0;
    if (!r)
        return 0;
    pthread_mutex_lock(&r->lock);
    size_t n = r->n_acks;
    for (size_t i = 0; i < n && !rc; i++)
        rc = record_shipped(st, txn, r->acks[i].match, r->acks[i].to);
    r->n_inflight = rc ? 0 : n;
    pthread_mutex_unlock(&r->lock);
    return rc;
}

void replica_applied(replica *r, int committed)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    if (committed && r->n_inflight) {
        memmove(r->acks, r->acks + r->n_inflight, (r->n_acks - r->n_inflight) * sizeof r->acks[0]);
        r->n_acks -= r->n_inflight;
        r->oldest_ack_us = mono_us();
        pthread_cond_broadcast(&r->wake);   /* room for confirmations */
    }
    r->n_inflight = 0;
    pthread_mutex_unlock(&r->lock);
}

int replica_due(replica *r)
{
    if (!r)
        return 0;
    pthread_mutex_lock(&r->lock);
    int due = r->n_acks && mono_us() - r->oldest_ack_us >= (uint64_t)REPLICA_ACK_WAIT_MS * 1000;
    pthread_mutex_unlock(&r->lock);
    return due;
}

void replica_kick(replica *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->kicked = 1;
    pthread_cond_broadcast(&r->wake);
    pthread_mutex_unlock(&r->lock);
}

void replica_pause(replica *r)
{
    if (r)
        pthread_mutex_lock(&r->txn_lock);
}

void replica_resume(replica *r)
{
    if (r)
        pthread_mutex_unlock(&r->txn_lock);
}

void replica_status_get(replica *r, replica_status *out)
{
    pthread_mutex_lock(&r->lock);
    *out = r->status;
    out->acks_waiting = r->n_acks;
    pthread_mutex_unlock(&r->lock);
}
