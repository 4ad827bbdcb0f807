/* arbiterd.c -- the live judge: open-log events in over ZeroMQ, verdicts
 * out, every verified record kept in LMDB (openlog.md 8-10).
 *
 * What: tables connect a DEALER to the ingest ROUTER and send one event per
 * message; each event gets one reply, its verdict, once the event and its
 * verdict are on disk.  Every stored event is also published on the feed
 * (PUB, topic = match id) in the public view, and a query ROUTER answers
 * judges and tools (health, match, events, state, verify, list).
 *
 * Why it is built this way: the promise is "nothing acknowledged is ever
 * lost", and the price of that promise is an fsync per commit.  So the loop
 * commits in groups: one turn of the loop drains every event that is
 * already waiting (up to BATCH_MAX), judges them all in memory, writes them
 * all in ONE LMDB write transaction, commits (fsync), and only then sends
 * their verdicts.  Under load many events share one fsync; at rest an
 * event waits for nothing but its own commit.
 *
 * How a verdict is made: each live match has a verify_session (src/verify.h),
 * the very judge `arbiter verify` runs over a file, so live and batch
 * verdicts are identical byte for byte.  Sessions hold the match's state in
 * memory; the store is the truth.  Whenever a batch cannot be committed,
 * every session the batch touched is dropped and the next event of that
 * match rebuilds it from the store (rebuild_match), which is also what a
 * restart does for every unfinished match.  MDB_MAP_FULL grows the map and
 * retries the whole batch; MDB_PANIC (or any other failed commit) exits
 * non-zero without acknowledging anything of the batch: the tables resend,
 * and a resent event is answered `duplicate` with its stored verdict.
 *
 * Bad input never stops the loop: the codec bounds every read, a malformed
 * event is quarantined with its reason and peer and answered `malformed`,
 * ZMQ_MAXMSGSIZE drops absurd messages before they are read, and the
 * ROUTER fair-queues tables, so one table flooding garbage costs the others
 * only their share of a batch.
 */
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/carddb.h"
#include "src/jtext.h"
#include "src/store.h"
#include "src/verify.h"
#include "src/view.h"
#include "verifiers/verifier.h"

#ifndef ZMQ_ZERO_COPY_RECV
#define ZMQ_ZERO_COPY_RECV 10      /* a context option of libzmq 4.3 (zmq.h: draft) */
#endif

#define BATCH_MAX 1024
#define MSG_MAX (1 << 20)          /* ZMQ_MAXMSGSIZE; the codec's own limit is 64 KiB */
#define CARDS_MAX 16
#define TABLE_START 256

static const char usage_text[] =
    "usage: arbiterd [--db DIR] [--ingest EP] [--feed EP] [--query EP] [--cards FILE]...\n"
    "                [--log-level error|warn|info|debug] [--map-mb N]\n"
    "\n"
    "The live judge of openlog.md 9: tables send events to the ingest ROUTER and\n"
    "get each verdict once it is stored (fsync'd LMDB); the feed PUB publishes\n"
    "every stored event in the public view; the query ROUTER answers health,\n"
    "match, events, state, verify and list.\n"
    "\n"
    "  --db DIR       the store (default ./var/arbiter, created if missing)\n"
    "  --ingest EP    default tcp://127.0.0.1:7420\n"
    "  --feed EP      default tcp://127.0.0.1:7421\n"
    "  --query EP     default tcp://127.0.0.1:7422\n"
    "  --cards FILE   a card database; repeat for several (default: the same as\n"
    "                 `arbiter verify`).  A header picks the one it names.\n"
    "  --log-level L  what goes to stderr (default info)\n"
    "  --map-mb N     the store's initial LMDB map (default 64); it doubles\n"
    "                 whenever it is full, so this matters only for tests\n"
    "\n"
    "SIGTERM, SIGINT: finish and acknowledge the current batch, exit 0.\n"
    "SIGHUP: reload the card databases.\n"
    "exit: 0 stopped by a signal, 1 the store failed (nothing unstored was\n"
    "acknowledged), 2 bad usage or cannot start.\n";

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef struct {
    char id[OL_MATCH_MAX + 1];
    verify_session *sess;          /* NULL: slot free (or a tombstone)   */
    const cards *db;
    uint8_t chain[STORE_HASH];     /* h of the last stored event         */
    char tournament[OL_STRING_MAX + 1];  /* the header's, "" when none  */
    size_t counts[OL_V_COUNT];     /* verdicts of the stored events      */
    uint8_t dirty;                 /* an event was stored in this batch  */
    uint8_t feed_on;               /* a feed subscription covers it, as of  */
    unsigned feed_gen;             /* ... this generation of daemon_t.subs */
} live;

/* One message of a batch, kept until its verdict is sent (and for a retry). */
typedef struct {
    zmq_msg_t ident, body;
    olevent *ev;                   /* decoded, or NULL (malformed)      */
    char *reply;                   /* the verdict's bytes               */
    size_t reply_len;
    char *feed;                    /* {event, verdict} to publish (MessagePack), or NULL */
    size_t feed_len;
    char match[OL_MATCH_MAX + 1];
} item;


/* A feed subscription (a topic prefix), as the XPUB socket reports it. */
typedef struct {
    char *prefix;
    size_t len;
} sub;

typedef struct {
    const char *dbdir, *ingest_ep, *feed_ep, *query_ep;
    const char *card_files[CARDS_MAX];
    int n_card_files;
    int level;
    unsigned long map_mb;          /* --map-mb: the store's initial map   */
} options;

typedef struct {
    options o;
    store *st;
    void *zctx, *ingest, *feed, *query;
    cards *dbs[CARDS_MAX * 4];
    int n_dbs;
    live *table;
    size_t cap, used;
    uint64_t quarantined;          /* last quarantine counter */
    uint64_t events_stored, batches, started_ms;
    uint64_t commit_us, judge_us;  /* time spent committing, judging (health) */
    uint64_t batch_max;            /* the largest batch so far (health)     */
    uint64_t commit_us_max;        /* the longest commit so far (health)    */
    sub *subs;                     /* the feed's subscriptions             */
    size_t n_subs, cap_subs;
    unsigned feed_gen;             /* bumped whenever subs change          */
    MDB_txn *txn;                  /* the transaction sessions read the record in */
    jtext summary;                  /* put_summary's buffer, reused         */
    jtext board;                    /* the state hash's board text, reused  */
    item batch[BATCH_MAX];
    int n_batch;
} daemon_t;

static volatile sig_atomic_t stop_flag, reload_flag;
static int log_level = LOG_INFO;

static void say(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int level, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    va_list ap;
    if (level > log_level)
        return;
    fprintf(stderr, "arbiterd: %s: ", names[level]);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_flag = 1;
    else
        stop_flag = 1;
}

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

/* ---- card databases --------------------------------------------------- */

static int load_cards(daemon_t *d)
{
    for (int i = 0; i < d->o.n_card_files; i++) {
        char err[2048];
        cards *db = NULL;
        if (d->n_dbs >= (int)(sizeof d->dbs / sizeof d->dbs[0])) {
            say(LOG_ERROR, "too many card databases loaded; restart to reload");
            return -1;
        }
        if (carddb_load_file(d->o.card_files[i], &db, err, sizeof err)) {
            say(LOG_ERROR, "%s", err);
            return -1;
        }
        d->dbs[d->n_dbs++] = db;   /* old ones stay: live sessions point into them */
        say(LOG_INFO, "cards %s@%s from %s", cards_set(db), cards_version(db), d->o.card_files[i]);
    }
    return 0;
}

/* The newest database a header's "set@version" names; the first given when
 * none does (the session then judges the header openlog:cards, as verify). */
/* The database whose content hash is `hash` (32 bytes): a loaded one, or
 * the copy the store keeps (openlog.md 10: a record is re-judged with the
 * database it was judged with), loaded now.  NULL when neither has it. */
static const cards *cards_by_hash(daemon_t *d, MDB_txn *txn, const uint8_t *hash)
{
    char hex[65], err[2048];
    const void *bytes;
    size_t len;
    cards *db = NULL;

    for (int i = d->n_dbs - 1; i >= 0; i--)
        if (!memcmp(cards_hash(d->dbs[i]), hash, 32))
            return d->dbs[i];
    carddb_hash_hex(hash, hex);
    if (d->n_dbs >= (int)(sizeof d->dbs / sizeof d->dbs[0]) || store_get_cards(d->st, txn, hex, &bytes, &len) ||
        carddb_load_buffer(bytes, len, hex, &db, err, sizeof err))
        return NULL;
    say(LOG_INFO, "cards %s@%s loaded from the store (%.12s...)", cards_set(db), cards_version(db), hex);
    d->dbs[d->n_dbs++] = db;
    return db;
}

static const cards *cards_for(const daemon_t *d, const char *named)
{
    for (int i = d->n_dbs - 1; named && i >= 0; i--) {
        const char *set = cards_set(d->dbs[i]);
        size_t k = strlen(set);
        if (!strncmp(named, set, k) && named[k] == '@' && !strcmp(named + k + 1, cards_version(d->dbs[i])))
            return d->dbs[i];
    }
    return d->dbs[0];
}

/* ---- live matches: open addressing on the match id ---------------------- */

static size_t hash_id(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

/* The slot of `id`, live or a tombstone; NULL when it has none. */
static live *find_slot(daemon_t *d, const char *id)
{
    for (size_t i = hash_id(id) & (d->cap - 1);; i = (i + 1) & (d->cap - 1)) {
        if (!d->table[i].id[0])
            return NULL;
        if (!strcmp(d->table[i].id, id))
            return &d->table[i];
    }
}

static live *find_live(daemon_t *d, const char *id)
{
    live *l = find_slot(d, id);
    return l && l->sess ? l : NULL;
}

static int grow_table(daemon_t *d);

/* A slot for `id` without a session: its tombstone, or a new one. */
static live *add_live(daemon_t *d, const char *id)
{
    live *l = find_slot(d, id);
    if (!l) {
        if ((d->used + 1) * 2 > d->cap && grow_table(d))
            return NULL;
        for (size_t i = hash_id(id) & (d->cap - 1);; i = (i + 1) & (d->cap - 1))
            if (!d->table[i].id[0]) {
                l = &d->table[i];
                d->used++;
                break;
            }
    }
    assert(!l->sess);
    memset(l, 0, sizeof *l);
    snprintf(l->id, sizeof l->id, "%s", id);
    return l;
}

static int grow_table(daemon_t *d)
{
    size_t old_cap = d->cap;
    live *old = d->table;
    live *t = calloc(old_cap * 2, sizeof *t);
    if (!t)
        return -1;
    d->table = t;
    d->cap = old_cap * 2;
    d->used = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].sess) {   /* tombstones are not carried over */
            live *l = add_live(d, old[i].id);
            *l = old[i];
        }
    free(old);
    return 0;
}

/* Forget a match's in-memory state (the store keeps it; the next event of
 * the match rebuilds it).  The slot stays a tombstone (id set, no session)
 * so that probing still passes over it. */
static void live_clear(live *l)
{
    verify_session_destroy(&l->sess);
}

static json_t *verdict_json_of(const store_event *e);

/* ---- decoding ------------------------------------------------------------- */

static int decode(const void *buf, size_t len, olevent **ev, olerror *err)
{
    memset(err, 0, sizeof *err);
    if (len && ((const char *)buf)[0] == '{')
        return olcodec_decode_json(buf, len, (ol_origin){0, 1}, ev, err);
    return olcodec_decode_msgpack(buf, len, (ol_origin){0, 0}, ev, err);
}

/* ---- rebuilding a match from the store ------------------------------------ */

/* A live match's session is lean (verify.h): it keeps neither the bytes nor
 * the verdicts of its stored events -- the record has them -- and reads an
 * event back here when a table resends it (duplicate or conflict). */
static int lookup_stored(void *ctx, const char *match, uint64_t seq, const char **raw, size_t *len)
{
    daemon_t *d = ctx;
    store_event e;
    if (!d->txn || store_get_event(d->st, d->txn, match, seq, &e))
        return -1;
    *raw = (const char *)e.event;
    *len = e.event_len;
    return 0;
}

typedef struct {
    live *l;
    uint64_t until;
    int failed;
} rebuild_ctx;

static int rebuild_one(void *ctx, const store_event *e)
{
    rebuild_ctx *r = ctx;
    olevent *ev = NULL;
    olerror err;
    const verify_entry *out;
    if (decode(e->event, e->event_len, &ev, &err) != OL_OK ||
        verify_session_event(r->l->sess, ev, (const char *)e->event, e->event_len, &out) != VERIFY_OK) {
        olevent_destroy(&ev);
        r->failed = 1;
        return 1;
    }
    r->l->counts[out->v.status]++;
    olevent_destroy(&ev);
    memcpy(r->l->chain, e->chain, STORE_HASH);
    return 0;
}

/* A session for `id` from its stored events up to seq `until`, in *l (a
 * slot of the table, or a scratch one).  The match is judged with the card
 * database its record pins; a match with nothing stored yet starts with
 * the newest database named `named` (its arriving header's "cards").
 * 0, or -1 (logged). */
static int rebuild_into(daemon_t *d, MDB_txn *txn, live *l, const char *id, uint64_t until, const char *named)
{
    const char *sum;
    size_t n;
    int rc = store_get_summary(d->st, txn, id, &sum, &n);

    memset(l->chain, 0, sizeof l->chain);
    memset(l->counts, 0, sizeof l->counts);
    l->db = NULL;
    if (rc == MDB_NOTFOUND) {
        l->db = cards_for(d, named);
    } else if (rc) {
        say(LOG_ERROR, "reading match %s: %s", id, mdb_strerror(rc));
        return -1;
    } else {
        json_t *o = json_loadb(sum, n, 0, NULL);
        const char *hex = json_string_value(json_object_get(o, "cards_hash"));
        const char *t = json_string_value(json_object_get(o, "tournament"));
        uint8_t hash[32];
        if (hex && !sodium_hex2bin(hash, sizeof hash, hex, strlen(hex), NULL, NULL, NULL))
            l->db = cards_by_hash(d, txn, hash);
        snprintf(l->tournament, sizeof l->tournament, "%s", t ? t : "");
        json_decref(o);
        if (!l->db) {
            say(LOG_ERROR, "match %s: the card database its record pins (%s) is neither loaded nor stored", id,
                hex ? hex : "none");
            return -1;
        }
    }
    if (verify_session_new(l->db, id, &l->sess) != VERIFY_OK ||
        verify_session_lean(l->sess, lookup_stored, d) != VERIFY_OK) {
        verify_session_destroy(&l->sess);
        return -1;
    }
    rebuild_ctx r = {l, until, 0};
    MDB_txn *outer = d->txn;
    d->txn = txn;
    rc = store_each_event(d->st, txn, id, 0, until, rebuild_one, &r);
    d->txn = outer;
    if (rc || r.failed) {
        say(LOG_ERROR, "cannot rebuild match %s from the store", id);
        live_clear(l);
        return -1;
    }
    return 0;
}

static live *live_match(daemon_t *d, MDB_txn *txn, const char *id, const char *named)
{
    live *l = find_live(d, id);
    if (l)
        return l;
    if (!(l = add_live(d, id)))
        return NULL;
    if (rebuild_into(d, txn, l, id, UINT64_MAX, named))
        return NULL;   /* the slot stays a tombstone */
    return l;
}

/* ---- the summary of a match ---------------------------------------------- */

/* s, or null when it is NULL or empty (verify_report_json's set_str_or_null). */
static void str_or_null(jtext *t, const char *s)
{
    jtext_str_or_null(t, s && *s ? s : NULL);
}

/* The match's record in `matches` (store.h): what `arbiter verify --json`
 * says of the events stored so far, minus the verdict list, plus what the
 * record pins (openlog.md 10) and "rounds".  Written as text, byte for byte
 * what json_dumps(JSON_COMPACT) gave of verify_report_json() less "file"
 * and "verdicts", with the record's own counts and status, then "rounds",
 * "cards", "cards_hash", "next_seq", "tournament", "updated": with up to
 * one summary per event under many tables, building it in jansson cost
 * more than judging the event. */
static int put_summary(daemon_t *d, MDB_txn *txn, const live *l)
{
    const verify_report *r = verify_session_report(l->sess);
    const verifier *vf = verify_session_verifier(l->sess);
    char hash[65];
    jtext *t = &d->summary;

    jtext_reset(t);
    carddb_hash_hex(cards_hash(l->db), hash);
    jtext_lit(t, "{\"match\":");
    str_or_null(t, r->match);
    jtext_lit(t, ",\"format\":");
    str_or_null(t, r->format);
    jtext_lit(t, ",\"engine\":");
    str_or_null(t, r->engine);
    /* the record's own verdicts: a duplicate, conflict, gap or malformed
     * answer is never stored, so the summary does not count it either, and
     * reads the same after a restart */
    if (l->counts[OL_V_ILLEGAL] || l->counts[OL_V_MISMATCH])
        jtext_lit(t, ",\"status\":\"illegal\",\"winner\":");
    else
        jtext_lit(t, ",\"status\":\"legal\",\"winner\":");
    str_or_null(t, r->finished && r->winner >= 0 ? ol_player_name((ol_player)r->winner) : NULL);
    if (r->finished)
        jtext_lit(t, ",\"finished\":true,\"events\":");
    else
        jtext_lit(t, ",\"finished\":false,\"events\":");
    jtext_int(t, (long long)r->next_seq);
    jtext_lit(t, ",\"counts\":{");
    for (int st = 0; st < OL_V_COUNT; st++) {
        const char *name = ol_status_name((ol_status)st);   /* plain ASCII words */
        jtext_raw(t, st ? ",\"" : "\"", st ? 2 : 1);
        jtext_raw(t, name, strlen(name));
        jtext_lit(t, "\":");
        jtext_int(t, (long long)l->counts[st]);
    }
    jtext_lit(t, "},\"unverified\":{\"p1\":");
    jtext_int(t, (int)r->unverified[0]);
    jtext_lit(t, ",\"p2\":");
    jtext_int(t, (int)r->unverified[1]);
    jtext_lit(t, "}");
    if (r->status == VERIFY_UNREADABLE) {
        jtext_lit(t, ",\"error\":");
        jtext_str(t, r->error);
    }
    jtext_lit(t, ",\"rounds\":");
    jtext_int(t, vf ? (long long)verifier_round(vf) : 0);
    jtext_lit(t, ",\"cards\":");
    {
        const char *set = cards_set(l->db), *version = cards_version(l->db);
        size_t a = strlen(set), b = strlen(version);
        char named[CARDS_SET_MAX + CARDS_VERSION_MAX + 2];
        if (a + b + 2 > sizeof named) {   /* cannot be: cards.h bounds both */
            t->bad = 1;
        } else {
            memcpy(named, set, a);
            named[a] = '@';
            memcpy(named + a + 1, version, b + 1);
            jtext_str(t, named);
        }
    }
    jtext_lit(t, ",\"cards_hash\":");
    jtext_str(t, hash);
    jtext_lit(t, ",\"next_seq\":");
    jtext_int(t, (long long)r->next_seq);
    jtext_lit(t, ",\"tournament\":");
    str_or_null(t, l->tournament);
    jtext_lit(t, ",\"updated\":");
    jtext_int(t, (long long)now_ms());
    jtext_lit(t, "}");
    if (t->bad)
        return -ENOMEM;
    return store_put_summary(d->st, txn, l->id, t->buf, t->len);
}

/* ---- one event ------------------------------------------------------------ */

/* "ADDRESS/IDENTITY-IN-HEX" (cut short to cap - 1 characters; no identity
 * byte when the address alone fills it), without printf: it runs per event. */
static void peer_of(zmq_msg_t *body, const zmq_msg_t *ident, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    const char *addr = zmq_msg_gets(body, "Peer-Address");
    const unsigned char *id = zmq_msg_data((zmq_msg_t *)ident);
    size_t n = zmq_msg_size((zmq_msg_t *)ident), k;
    if (!addr)
        addr = "local";
    k = strlen(addr);
    if (k + 1 >= cap) {
        memcpy(out, addr, cap - 1);
        out[cap - 1] = 0;
        return;
    }
    memcpy(out, addr, k);
    out[k++] = '/';
    for (size_t i = 0; i < n && k + 3 < cap; i++) {
        out[k++] = hex[id[i] >> 4];
        out[k++] = hex[id[i] & 15];
    }
    out[k] = 0;
}

/* Copy a string of at most cap - 1 bytes (as snprintf "%s" would). */
static void copy_str(char *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

/* ---- the feed: only what somebody subscribed to is built --------------------- */

/* Read the subscriptions the XPUB socket passes up (first byte 1:
 * subscribe, 0: unsubscribe, then the topic prefix).  Without
 * ZMQ_XPUB_VERBOSE it passes a prefix's first subscription and its last
 * unsubscription only, so a set is enough. */
static void serve_feed(daemon_t *d)
{
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, d->feed, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return;
        }
        const char *b = zmq_msg_data(&m);
        size_t n = zmq_msg_size(&m), i;
        if (n >= 1 && (b[0] == 0 || b[0] == 1)) {
            for (i = 0; i < d->n_subs; i++)
                if (d->subs[i].len == n - 1 && !memcmp(d->subs[i].prefix, b + 1, n - 1))
                    break;
            if (b[0] == 1 && i == d->n_subs) {
                char *copy = malloc(n);
                if (d->n_subs == d->cap_subs) {
                    size_t cap = d->cap_subs ? d->cap_subs * 2 : 8;
                    sub *t = realloc(d->subs, cap * sizeof *t);
                    if (t) {
                        d->subs = t;
                        d->cap_subs = cap;
                    }
                }
                if (copy && d->n_subs < d->cap_subs) {
                    memcpy(copy, b + 1, n - 1);
                    d->subs[d->n_subs++] = (sub){copy, n - 1};
                } else {
                    free(copy);
                    say(LOG_WARN, "out of memory: a feed subscription is ignored");
                }
            } else if (b[0] == 0 && i < d->n_subs) {
                free(d->subs[i].prefix);
                d->subs[i] = d->subs[--d->n_subs];
            }
            d->feed_gen++;
        }
        zmq_msg_close(&m);
    }
}

/* Does a feed subscription cover match l (its id starts with a prefix)? */
static int feed_wanted(daemon_t *d, live *l)
{
    if (!d->n_subs)
        return 0;
    if (l->feed_gen != d->feed_gen) {
        size_t n = strlen(l->id);
        l->feed_on = 0;
        for (size_t i = 0; i < d->n_subs && !l->feed_on; i++)
            l->feed_on = d->subs[i].len <= n && !memcmp(d->subs[i].prefix, l->id, d->subs[i].len);
        l->feed_gen = d->feed_gen;
    }
    return l->feed_on;
}

/* The feed body {"event": ej, "verdict": ...} in MessagePack: the map is
 * written around the event's packing and the verdict's bytes as stored
 * (vbytes is olcodec_json_to_msgpack of the verdict), which is the very
 * packing of json {"event","verdict"}; without ej, {"verdict"} alone. */
static int feed_body(item *it, const json_t *ej, const char *vbytes, size_t vlen)
{
    char *eb = NULL, *p;
    size_t elen = 0;
    if (ej && olcodec_json_to_msgpack(ej, &eb, &elen))
        return -ENOMEM;
    it->feed_len = 1 + (ej ? 6 + elen : 0) + 8 + vlen;
    if (!(p = it->feed = malloc(it->feed_len))) {
        free(eb);
        return -ENOMEM;
    }
    *p++ = (char)(ej ? 0x82 : 0x81);
    if (ej) {
        memcpy(p, "\xa5" "event", 6);
        memcpy(p + 6, eb, elen);
        p += 6 + elen;
    }
    memcpy(p, "\xa7" "verdict", 8);
    memcpy(p + 8, vbytes, vlen);
    free(eb);
    return 0;
}

static int encode_reply(item *it, json_t *verdict, int as_json)
{
    if (as_json) {
        it->reply = json_dumps(verdict, JSON_COMPACT);
        it->reply_len = it->reply ? strlen(it->reply) : 0;
        return it->reply ? 0 : -ENOMEM;
    }
    return olcodec_json_to_msgpack(verdict, &it->reply, &it->reply_len) ? -ENOMEM : 0;
}

static int quarantine(daemon_t *d, MDB_txn *txn, const char *peer, const char *reason, const void *buf,
                      size_t len)
{
    size_t shown = len > 4096 ? 4096 : len;   /* enough to see what it was */
    char *hex = malloc(shown * 2 + 1);
    if (!hex)
        return -ENOMEM;
    sodium_bin2hex(hex, shown * 2 + 1, buf, shown);
    json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:I}", "time", (json_int_t)now_ms(), "peer", peer, "reason",
                          reason, "bytes_hex", hex, "length", (json_int_t)len);
    free(hex);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text)
        return -ENOMEM;
    int rc = store_put_quarantine(d->st, txn, d->quarantined + 1, text, strlen(text));
    free(text);
    if (!rc)
        d->quarantined++;
    return rc;
}

/* Judge one message of the batch inside `txn`.  Returns 0 or a store error. */
static int handle(daemon_t *d, MDB_txn *txn, item *it)
{
    const char *buf = zmq_msg_data(&it->body);
    size_t len = zmq_msg_size(&it->body);
    int as_json = len && buf[0] == '{';
    char peer[STORE_PEER_MAX + 1];
    olerror err;
    olverdict v;
    int rc;

    peer_of(&it->body, &it->ident, peer, sizeof peer);
    if (decode(buf, len, &it->ev, &err) != OL_OK) {
        olverdict_malformed(&v, err.match, err.has_seq, err.seq, err.key, err.msg);
        if ((rc = quarantine(d, txn, peer, v.msg, buf, len)))
            return rc;
        json_t *vj = olverdict_to_json(&v, NULL);
        rc = vj ? encode_reply(it, vj, as_json) : -ENOMEM;
        json_decref(vj);
        say(LOG_DEBUG, "malformed from %s: %s", peer, v.msg);
        return rc;
    }
    copy_str(it->match, sizeof it->match, it->ev->match);
    live *l = find_live(d, it->ev->match);
    if (!l) {
        /* only a header, or a match the store knows, earns a session */
        const char *s;
        size_t n;
        int known = !store_get_summary(d->st, txn, it->ev->match, &s, &n);
        int header = it->ev->type == OL_MATCH && it->ev->seq == 0;
        if (known || header) {
            l = live_match(d, txn, it->ev->match, header ? it->ev->header.cards : NULL);
            if (!l) {
                /* Its record cannot be read back: judging without it could
                 * acknowledge what is never stored.  No reply; the table
                 * resends, and the log says why. */
                say(LOG_ERROR, "match %s: event %llu from %s left unanswered", it->ev->match,
                    (unsigned long long)it->ev->seq, peer);
                return 0;
            }
        }
    }
    live scratch = {0};
    live *use = l;
    if (!use) {
        /* no header yet: judged (openlog:4) but never part of a record */
        use = &scratch;
        snprintf(scratch.id, sizeof scratch.id, "%s", it->ev->match);
        scratch.db = d->dbs[0];
        if (verify_session_new(scratch.db, it->ev->match, &scratch.sess) != VERIFY_OK)
            return -ENOMEM;
    }
    if (use->sess == NULL || !use->db)
        return -ENOMEM;
    uint64_t before = verify_session_next_seq(use->sess);
    const verify_entry *e = NULL;
    if (verify_session_event(use->sess, it->ev, buf, len, &e) != VERIFY_OK) {
        verify_session_destroy(&scratch.sess);
        return -ENOMEM;
    }
    const verify_report *r = verify_session_report(use->sess);
    const olverdict *stored = e->stored == VERIFY_NONE ? NULL : &r->verdicts[e->stored].v;
    json_t *vj = olverdict_to_json(&e->v, stored);
    if (vj && e->v.status == OL_V_DUPLICATE && !stored) {
        /* a lean session keeps no verdicts: the first one is in the record,
         * as the bytes that were sent (the same map olverdict_to_json
         * would embed) */
        store_event first;
        json_t *sj = NULL;
        if (store_get_event(d->st, txn, use->id, it->ev->seq, &first) || !(sj = verdict_json_of(&first)) ||
            json_object_set_new(vj, "stored", sj)) {
            json_decref(vj);
            vj = NULL;
        }
    }
    char *vbytes = NULL;
    size_t vlen = 0;
    rc = vj ? olcodec_json_to_msgpack(vj, &vbytes, &vlen) : -ENOMEM;
    if (!rc && verify_session_next_seq(use->sess) > before && use == l) {
        /* the event took a seq: it is part of the record */
        store_event se;
        memset(&se, 0, sizeof se);
        se.seq = it->ev->seq;
        se.event = (const uint8_t *)buf;
        se.event_len = len;
        se.verdict = (const uint8_t *)vbytes;
        se.verdict_len = vlen;
        se.received_ms = now_ms();
        copy_str(se.peer, sizeof se.peer, peer);
        store_chain_next(l->chain, buf, len, vbytes, vlen, se.chain);
        const verifier *vf = verify_session_verifier(l->sess);
        if (vf)
            view_state_hash(vf, &d->board, se.state);
        rc = store_put_event(d->st, txn, l->id, &se);
        if (!rc)
            memcpy(l->chain, se.chain, STORE_HASH);
        if (!rc && e->v.status != OL_V_OK)
            rc = store_put_rule(d->st, txn, e->v.rule[0] ? e->v.rule : e->v.status == OL_V_WARNING ? "warning" : "none",
                                l->id, se.seq);
        if (!rc) {
            l->counts[e->v.status]++;
            l->dirty = 1;   /* its summary is written once, at the end of the batch */
            d->events_stored++;
            if (it->ev->type == OL_MATCH && se.seq == 0)
                copy_str(l->tournament, sizeof l->tournament,
                         it->ev->header.tournament ? it->ev->header.tournament : "");
            if (feed_wanted(d, l)) {
                /* A feed nobody reads is never built (the feed is an XPUB).
                 * The public view of an event needs the match's header
                 * for setup Bench slots only (view.h): the header is read
                 * back from the record for those, not kept in memory. */
                olevent *hdr = NULL;
                store_event first;
                olerror herr;
                if (it->ev->type == OL_BENCH && !store_get_event(d->st, txn, l->id, 0, &first) &&
                    decode(first.event, first.event_len, &hdr, &herr) != OL_OK)
                    olevent_destroy(&hdr);
                json_t *ej = view_event_json(it->ev, VIEW_PUBLIC, hdr);
                if (feed_body(it, ej, vbytes, vlen))
                    say(LOG_WARN, "out of memory: match %s #%llu is not published", l->id,
                        (unsigned long long)se.seq);
                json_decref(ej);
                olevent_destroy(&hdr);
            }
        }
    }
    if (!rc && !as_json) {
        /* the reply is the verdict's MessagePack: the bytes just made,
         * in a buffer of their size (the packer's starts at 8 KiB, and a
         * batch holds up to BATCH_MAX replies) */
        char *fit = realloc(vbytes, vlen ? vlen : 1);
        it->reply = fit ? fit : vbytes;
        it->reply_len = vlen;
        vbytes = NULL;
    } else if (!rc) {
        rc = encode_reply(it, vj, as_json);
    }
    free(vbytes);
    json_decref(vj);
    verify_session_destroy(&scratch.sess);
    olevent_destroy(&it->ev);   /* judged: its memory is not kept for the whole batch */
    return rc;
}

/* ---- the batch -------------------------------------------------------------- */

static void item_clear(item *it, int close_msgs)
{
    olevent_destroy(&it->ev);
    free(it->reply);
    it->reply = NULL;
    it->reply_len = 0;
    free(it->feed);
    it->feed = NULL;
    it->feed_len = 0;
    it->match[0] = 0;
    if (close_msgs) {
        zmq_msg_close(&it->ident);
        zmq_msg_close(&it->body);
    }
}

/* Read what is waiting on ingest (at least one message when `block`). */
static int read_batch(daemon_t *d)
{
    d->n_batch = 0;
    while (d->n_batch < BATCH_MAX) {
        item *it = &d->batch[d->n_batch];
        memset(it, 0, sizeof *it);
        zmq_msg_init(&it->ident);
        zmq_msg_init(&it->body);
        if (zmq_msg_recv(&it->ident, d->ingest, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&it->ident);
            zmq_msg_close(&it->body);
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        }
        int more = zmq_msg_more(&it->ident);
        if (!more || zmq_msg_recv(&it->body, d->ingest, 0) < 0) {
            zmq_msg_close(&it->ident);
            zmq_msg_close(&it->body);
            continue;   /* an identity without a body: nothing to answer */
        }
        /* a multi-frame message: openlog 2 says one frame; drain the rest */
        while (zmq_msg_more(&it->body)) {
            zmq_msg_t extra;
            zmq_msg_init(&extra);
            zmq_msg_recv(&extra, d->ingest, 0);
            zmq_msg_close(&extra);
        }
        d->n_batch++;
    }
    return 0;
}

/* Drop the sessions this batch touched: after an aborted transaction the
 * store, not memory, says where each match is. */
static void forget_batch(daemon_t *d)
{
    for (int i = 0; i < d->n_batch; i++) {
        live *l = d->batch[i].match[0] ? find_live(d, d->batch[i].match) : NULL;
        if (l)
            live_clear(l);
        item_clear(&d->batch[i], 0);
    }
}

/* A finished match gets few events more (claims, a judge's notes, tables
 * resending): its session leaves memory and is rebuilt from the store if
 * one comes, so that the daemon's memory follows the live matches only. */
static void drop_finished(daemon_t *d)
{
    for (int i = 0; i < d->n_batch; i++) {
        live *l = d->batch[i].match[0] ? find_live(d, d->batch[i].match) : NULL;
        if (l && verify_session_report(l->sess)->finished)
            live_clear(l);
    }
}

/* Judge and commit the batch; retry after MDB_MAP_FULL.  0 committed, -1
 * the store failed (nothing of the batch may be acknowledged). */
static int commit_batch(daemon_t *d)
{
    for (;;) {
        MDB_txn *txn = NULL;
        uint64_t t0 = mono_us(), t1;
        int rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn);
        d->txn = rc ? NULL : txn;
        for (int i = 0; !rc && i < d->n_batch; i++)
            rc = handle(d, txn, &d->batch[i]);
        for (int i = 0; !rc && i < d->n_batch; i++) {
            live *l = d->batch[i].match[0] ? find_live(d, d->batch[i].match) : NULL;
            if (l && l->dirty) {
                rc = put_summary(d, txn, l);
                l->dirty = 0;
            }
        }
        t1 = mono_us();
        d->txn = NULL;
        if (!rc)
            rc = mdb_txn_commit(txn);   /* fsync: after this, verdicts may go out */
        else
            mdb_txn_abort(txn);
        if (!rc) {
            uint64_t took = mono_us() - t1;
            d->judge_us += t1 - t0;
            d->commit_us += took;
            if (took > d->commit_us_max)
                d->commit_us_max = took;
            if ((uint64_t)d->n_batch > d->batch_max)
                d->batch_max = (uint64_t)d->n_batch;
            drop_finished(d);
            return 0;
        }
        forget_batch(d);
        if (rc == MDB_MAP_FULL && store_grow(d->st) == 0) {
            say(LOG_WARN, "store map full: grown to %zu MiB, judging the batch of %d again", store_map_size(d->st) >> 20,
                d->n_batch);
            continue;
        }
        say(LOG_ERROR, "cannot commit a batch of %d events: %s", d->n_batch,
            rc < 0 ? strerror(-rc) : mdb_strerror(rc));
        return -1;
    }
}

static void send_batch(daemon_t *d)
{
    for (int i = 0; i < d->n_batch; i++) {
        item *it = &d->batch[i];
        if (it->reply && (zmq_msg_send(&it->ident, d->ingest, ZMQ_SNDMORE) < 0 ||
                          zmq_send(d->ingest, it->reply, it->reply_len, 0) < 0))
            say(LOG_WARN, "a verdict could not be sent (the table left): %s", zmq_strerror(errno));
        if (it->feed) {
            zmq_send(d->feed, it->match, strlen(it->match), ZMQ_SNDMORE);
            zmq_send(d->feed, it->feed, it->feed_len, 0);
        }
        item_clear(it, 1);
    }
    d->n_batch = 0;
}

/* ---- queries (openlog 9) ----------------------------------------------------- */

static json_t *q_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *q_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return json_pack("{s:b, s:s}", "ok", 0, "error", msg);
}

static json_t *verdict_json_of(const store_event *e)
{
    json_t *v = NULL;
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &v, NULL) != OL_OK)
        return NULL;
    return v;
}

typedef struct {
    json_t *list;
    view_kind view;
    olevent *header;   /* the match's, for the views of its events */
} events_ctx;

static int q_event_one(void *ctx, const store_event *e)
{
    events_ctx *c = ctx;
    olevent *ev = NULL;
    olerror err;
    json_t *ej = NULL;
    if (decode(e->event, e->event_len, &ev, &err) == OL_OK)
        ej = view_event_json(ev, c->view, c->header);
    olevent_destroy(&ev);
    char chain[2 * STORE_HASH + 1], state[2 * STORE_HASH + 1];
    sodium_bin2hex(chain, sizeof chain, e->chain, STORE_HASH);
    sodium_bin2hex(state, sizeof state, e->state, STORE_HASH);
    json_t *o = json_pack("{s:I, s:o?, s:o?, s:I, s:s, s:s, s:s}", "seq", (json_int_t)e->seq, "event", ej, "verdict",
                          verdict_json_of(e), "received", (json_int_t)e->received_ms, "peer", e->peer, "chain",
                          chain, "state", state);
    if (o && c->view == VIEW_JUDGE) {
        /* the bytes as stored, so that an audit over the socket can check
         * the hash chain itself (openlog.md 10) */
        char *ev_hex = malloc(2 * e->event_len + 1), *v_hex = malloc(2 * e->verdict_len + 1);
        if (ev_hex && v_hex) {
            sodium_bin2hex(ev_hex, 2 * e->event_len + 1, e->event, e->event_len);
            sodium_bin2hex(v_hex, 2 * e->verdict_len + 1, e->verdict, e->verdict_len);
            json_object_set_new(o, "raw", json_pack("{s:s, s:s}", "event", ev_hex, "verdict", v_hex));
        }
        free(ev_hex);
        free(v_hex);
    }
    if (!o || json_array_append_new(c->list, o))
        return -ENOMEM;
    return 0;
}

static int want_view(json_t *req, view_kind *view, json_t **fail)
{
    const char *name = json_string_value(json_object_get(req, "view"));
    if (!name)
        name = "public";
    if (view_parse(name, view)) {
        *fail = q_error("Unknown view \"%s\": public, p1, p2 or judge.", name);
        return -1;
    }
    return 0;
}

typedef struct {
    json_t *list;
    const char *tournament, *status;
} list_ctx;

static int q_list_one(void *ctx, const char *match, const char *json, size_t len)
{
    list_ctx *c = ctx;
    json_t *o = json_loadb(json, len, 0, NULL);
    (void)match;
    if (!o)
        return 0;
    const char *t = json_string_value(json_object_get(o, "tournament"));
    const char *s = json_string_value(json_object_get(o, "status"));
    if ((c->tournament && (!t || strcmp(t, c->tournament))) || (c->status && (!s || strcmp(s, c->status))))
        json_decref(o);
    else
        json_array_append_new(c->list, o);
    return 0;
}

static json_t *q_verify(daemon_t *d, json_t *req)
{
    json_t *log = json_object_get(req, "log");
    verify_session *s = NULL;
    if (!json_is_array(log))
        return q_error("verify needs \"log\": an array of events.");
    json_t *first = json_array_get(log, 0);
    const char *named = json_string_value(json_object_get(first, "cards"));
    if (verify_session_new(cards_for(d, named), "query", &s) != VERIFY_OK)
        return q_error("Out of memory.");
    size_t i;
    json_t *e;
    json_array_foreach(log, i, e) {
        char *text = json_dumps(e, JSON_COMPACT);
        olevent *ev = NULL;
        olerror err;
        const verify_entry *out;
        if (text && decode(text, strlen(text), &ev, &err) == OL_OK)
            verify_session_event(s, ev, text, strlen(text), &out);
        olevent_destroy(&ev);
        free(text);
    }
    json_t *rep = verify_report_json(verify_session_report(s));
    verify_session_destroy(&s);
    return json_pack("{s:b, s:o?}", "ok", 1, "report", rep);
}

static size_t live_count(const daemon_t *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->cap; i++)
        n += d->table[i].sess != NULL;
    return n;
}

static json_t *query(daemon_t *d, json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    const char *match = json_string_value(json_object_get(req, "match"));
    MDB_txn *txn = NULL;
    json_t *out = NULL;
    view_kind view = VIEW_PUBLIC;
    static const char *const ops[] = {"health", "match", "events", "state", "verify", "list", "cards"};
    int known = 0;
    for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
        known |= !strcmp(op, ops[i]);
    if (!op)
        return q_error("A query is a map with \"op\".");
    if (!known)
        return q_error("Unknown op \"%s\": health, match, events, state, verify, list, cards.", op);
    if (!strcmp(op, "health"))
        return json_pack("{s:b, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "ok", 1, "status", "serving",
                         "live_matches", (json_int_t)live_count(d), "events_stored", (json_int_t)d->events_stored,
                         "batches", (json_int_t)d->batches, "quarantined", (json_int_t)d->quarantined, "uptime_ms",
                         (json_int_t)(now_ms() - d->started_ms), "batch_max", (json_int_t)d->batch_max,
                         "judge_us_total", (json_int_t)d->judge_us, "commit_us_total", (json_int_t)d->commit_us,
                         "commit_us_max", (json_int_t)d->commit_us_max,
                         "feed_subscriptions", (json_int_t)d->n_subs);
    if (!strcmp(op, "verify"))
        return q_verify(d, req);
    if (mdb_txn_begin(store_env(d->st), NULL, MDB_RDONLY, &txn))
        return q_error("The store cannot be read.");
    if (!strcmp(op, "cards")) {
        /* a card database the store keeps, by its content hash */
        const char *hash = json_string_value(json_object_get(req, "hash"));
        const void *bytes;
        size_t n;
        if (!hash)
            out = q_error("The op \"cards\" needs \"hash\": a card database's BLAKE2b-256, in hex.");
        else if (store_get_cards(d->st, txn, hash, &bytes, &n))
            out = q_error("No card database with hash %s is stored.", hash);
        else
            out = json_pack("{s:b, s:s%}", "ok", 1, "cards", (const char *)bytes, n);
    } else if (!strcmp(op, "list")) {
        list_ctx c = {json_array(), json_string_value(json_object_get(req, "tournament")),
                      json_string_value(json_object_get(req, "status"))};
        store_each_match(d->st, txn, q_list_one, &c);
        out = json_pack("{s:b, s:o}", "ok", 1, "matches", c.list);
    } else if (!match) {
        out = q_error("The op \"%s\" needs \"match\": the id of a stored match.", op);
    } else if (!strcmp(op, "match")) {
        const char *s;
        size_t n;
        json_t *fail = NULL;
        store_event first;
        olevent *h = NULL;
        olerror err;
        if (want_view(req, &view, &fail)) {
            out = fail;
        } else if (store_get_summary(d->st, txn, match, &s, &n)) {
            out = q_error("No match %s is stored.", match);
        } else {
            /* the header is the record's seq 0, shown in the view asked for */
            json_t *header = NULL;
            if (!store_get_event(d->st, txn, match, 0, &first) &&
                decode(first.event, first.event_len, &h, &err) == OL_OK)
                header = view_event_json(h, view, h);
            olevent_destroy(&h);
            out = json_pack("{s:b, s:o?, s:o?}", "ok", 1, "match", json_loadb(s, n, 0, NULL), "header", header);
        }
    } else if (!strcmp(op, "events")) {
        json_t *fail = NULL;
        if (want_view(req, &view, &fail)) {
            out = fail;
        } else {
            json_t *f = json_object_get(req, "from"), *t = json_object_get(req, "to");
            events_ctx c = {json_array(), view, NULL};
            store_event first;
            olerror err;
            if (!store_get_event(d->st, txn, match, 0, &first))
                decode(first.event, first.event_len, &c.header, &err);
            store_each_event(d->st, txn, match, json_is_integer(f) ? (uint64_t)json_integer_value(f) : 0,
                             json_is_integer(t) ? (uint64_t)json_integer_value(t) : UINT64_MAX, q_event_one, &c);
            olevent_destroy(&c.header);
            out = json_pack("{s:b, s:o}", "ok", 1, "events", c.list);
        }
    } else if (!strcmp(op, "state")) {
        json_t *fail = NULL, *at = json_object_get(req, "at");
        live scratch = {0};
        if (want_view(req, &view, &fail)) {
            out = fail;
        } else if (rebuild_into(d, txn, &scratch, match,
                                json_is_integer(at) ? (uint64_t)json_integer_value(at) : UINT64_MAX, NULL)) {
            out = q_error("Match %s cannot be replayed from the store.", match);
        } else if (!verify_session_verifier(scratch.sess)) {
            out = q_error("Match %s has no engine state.", match);
        } else {
            out = json_pack("{s:b, s:I, s:o?}", "ok", 1, "seq",
                            (json_int_t)verify_session_next_seq(scratch.sess) - 1, "state",
                            view_board_json(verify_session_verifier(scratch.sess), view));
        }
        live_clear(&scratch);
    } else {
        out = q_error("Unknown op \"%s\": health, match, events, state, verify, list.", op);
    }
    mdb_txn_abort(txn);
    return out ? out : q_error("Out of memory.");
}

static void serve_query(daemon_t *d)
{
    zmq_msg_t ident, body;
    zmq_msg_init(&ident);
    zmq_msg_init(&body);
    if (zmq_msg_recv(&ident, d->query, ZMQ_DONTWAIT) < 0 || !zmq_msg_more(&ident) ||
        zmq_msg_recv(&body, d->query, 0) < 0) {
        zmq_msg_close(&ident);
        zmq_msg_close(&body);
        return;
    }
    const char *buf = zmq_msg_data(&body);
    size_t len = zmq_msg_size(&body);
    int as_json = len && buf[0] == '{';
    json_t *req = NULL, *rep;
    if (as_json)
        req = json_loadb(buf, len, 0, NULL);
    else if (olcodec_msgpack_to_json((const uint8_t *)buf, len, (ol_origin){0, 0}, &req, NULL) != OL_OK)
        req = NULL;
    rep = json_is_object(req) ? query(d, req) : q_error("A query is one map, in MessagePack or JSON.");
    json_decref(req);
    char *out = NULL;
    size_t n = 0;
    if (as_json) {
        out = json_dumps(rep, JSON_COMPACT);
        n = out ? strlen(out) : 0;
    } else if (olcodec_json_to_msgpack(rep, &out, &n)) {
        out = NULL;
    }
    json_decref(rep);
    if (out && zmq_msg_send(&ident, d->query, ZMQ_SNDMORE) >= 0)
        zmq_send(d->query, out, n, 0);
    free(out);
    zmq_msg_close(&ident);
    zmq_msg_close(&body);
}

/* ---- start-up --------------------------------------------------------------- */

typedef struct {
    daemon_t *d;
    MDB_txn *txn;
    int n, failed;
} recover_ctx;

static int recover_one(void *ctx, const char *match, const char *json, size_t len)
{
    recover_ctx *c = ctx;
    json_t *o = json_loadb(json, len, 0, NULL);
    int finished = o && json_is_true(json_object_get(o, "finished"));
    json_decref(o);
    if (finished)
        return 0;   /* rebuilt on demand if a table ever resends to it */
    if (!live_match(c->d, c->txn, match, NULL))
        c->failed++;
    else
        c->n++;
    return 0;
}

static int recover(daemon_t *d)
{
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(store_env(d->st), NULL, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    recover_ctx c = {d, txn, 0, 0};
    rc = store_each_match(d->st, txn, recover_one, &c);
    if (!rc)
        rc = store_last_quarantine(d->st, txn, &d->quarantined);
    mdb_txn_abort(txn);
    say(LOG_INFO, "recovered %d unfinished match%s from the store%s", c.n, c.n == 1 ? "" : "es",
        c.failed ? " (some could not be rebuilt)" : "");
    return rc;
}

static int save_cards(daemon_t *d)
{
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn);
    for (int i = 0; !rc && i < d->o.n_card_files; i++) {
        FILE *f = fopen(d->o.card_files[i], "rb");
        char *buf = NULL;
        long n = -1;
        if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
            (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
            uint8_t h[STORE_HASH];
            char hex[65];
            crypto_generichash(h, sizeof h, (const unsigned char *)buf, (size_t)n, NULL, 0);
            sodium_bin2hex(hex, sizeof hex, h, sizeof h);
            rc = store_put_cards(d->st, txn, hex, buf, (size_t)n);
        }
        free(buf);
        if (f)
            fclose(f);
    }
    if (rc) {
        mdb_txn_abort(txn);
        return rc;
    }
    return mdb_txn_commit(txn);
}

static void *open_socket(daemon_t *d, int type, const char *ep)
{
    void *s = zmq_socket(d->zctx, type);
    int one = 1, zero = 0;
    int64_t max = MSG_MAX;
    if (!s)
        return NULL;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (type == ZMQ_ROUTER) {
        /* a ROUTER otherwise drops replies to unknown peers silently */
        zmq_setsockopt(s, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
        zmq_setsockopt(s, ZMQ_MAXMSGSIZE, &max, sizeof max);
    }
    if (zmq_bind(s, ep)) {
        say(LOG_ERROR, "cannot bind %s: %s", ep, zmq_strerror(errno));
        zmq_close(s);
        return NULL;
    }
    return s;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const char *const levels[] = {"error", "warn", "info", "debug"};
    memset(o, 0, sizeof *o);
    o->dbdir = "var/arbiter";
    o->ingest_ep = "tcp://127.0.0.1:7420";
    o->feed_ep = "tcp://127.0.0.1:7421";
    o->query_ep = "tcp://127.0.0.1:7422";
    o->level = LOG_INFO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            exit(0);
        }
        if (!val) {
            fprintf(stderr, "arbiterd: %s needs a value\n%s", a, usage_text);
            return -1;
        }
        i++;
        if (!strcmp(a, "--db")) {
            o->dbdir = val;
        } else if (!strcmp(a, "--ingest")) {
            o->ingest_ep = val;
        } else if (!strcmp(a, "--feed")) {
            o->feed_ep = val;
        } else if (!strcmp(a, "--query")) {
            o->query_ep = val;
        } else if (!strcmp(a, "--cards") && o->n_card_files < CARDS_MAX) {
            o->card_files[o->n_card_files++] = val;
        } else if (!strcmp(a, "--map-mb")) {
            char *end;
            o->map_mb = strtoul(val, &end, 10);
            if (*end || !o->map_mb || o->map_mb > (1ul << 20)) {
                fprintf(stderr, "arbiterd: --map-mb needs a size in MiB, 1 to 1048576\n");
                return -1;
            }
        } else if (!strcmp(a, "--log-level")) {
            int k = -1;
            for (int l = 0; l < 4; l++)
                if (!strcmp(val, levels[l]))
                    k = l;
            if (k < 0) {
                fprintf(stderr, "arbiterd: unknown log level %s\n", val);
                return -1;
            }
            o->level = k;
        } else {
            fprintf(stderr, "arbiterd: unknown option %s\n%s", a, usage_text);
            return -1;
        }
    }
    if (!o->n_card_files)
        o->card_files[o->n_card_files++] = carddb_default_path();
    return 0;
}

static int make_parents(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0700) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

static void shutdown_daemon(daemon_t *d)
{
    for (size_t i = 0; i < d->cap; i++)
        live_clear(&d->table[i]);
    free(d->table);
    if (d->ingest)
        zmq_close(d->ingest);
    if (d->feed)
        zmq_close(d->feed);
    if (d->query)
        zmq_close(d->query);
    if (d->zctx)
        zmq_ctx_term(d->zctx);
    store_close(&d->st);
    for (int i = 0; i < d->n_dbs; i++)
        cards_destroy(&d->dbs[i]);
    for (size_t i = 0; i < d->n_subs; i++)
        free(d->subs[i].prefix);
    free(d->subs);
    jtext_free(&d->summary);
    jtext_free(&d->board);
}

int main(int argc, char **argv)
{
    static daemon_t d;
    char err[512];
    int rc = 2;

    if (parse_options(argc, argv, &d.o))
        return 2;
    log_level = d.o.level;
    if (sodium_init() < 0)
        return 2;
    d.started_ms = now_ms();
    d.cap = TABLE_START;
    if (!(d.table = calloc(d.cap, sizeof *d.table)) || load_cards(&d) || !d.n_dbs)
        goto out;
    if (make_parents(d.o.dbdir) || store_open(d.o.dbdir, 0, (size_t)d.o.map_mb << 20, &d.st, err, sizeof err)) {
        say(LOG_ERROR, "%s", err);
        goto out;
    }
    if (save_cards(&d) || recover(&d))
        goto out;
    if ((d.zctx = zmq_ctx_new()))
        /* Each message in a buffer of its own, not in the 8 KiB receive
         * buffer it arrived in: with zero-copy receiving (the default) one
         * queued message keeps a whole ~18 KiB buffer alive, per
         * connection, and a thousand tables cost tens of MiB. */
        zmq_ctx_set(d.zctx, ZMQ_ZERO_COPY_RECV, 0);
    if (!d.zctx || !(d.ingest = open_socket(&d, ZMQ_ROUTER, d.o.ingest_ep)) ||
        !(d.feed = open_socket(&d, ZMQ_XPUB, d.o.feed_ep)) || !(d.query = open_socket(&d, ZMQ_ROUTER, d.o.query_ep)))
        goto out;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    say(LOG_INFO, "serving: ingest %s, feed %s, query %s, store %s", d.o.ingest_ep, d.o.feed_ep, d.o.query_ep,
        d.o.dbdir);
    rc = 0;
    while (!stop_flag) {
        zmq_pollitem_t items[] = {{d.ingest, 0, ZMQ_POLLIN, 0}, {d.query, 0, ZMQ_POLLIN, 0},
                                  {d.feed, 0, ZMQ_POLLIN, 0}};
        if (zmq_poll(items, 3, 500) < 0 && errno != EINTR) {
            say(LOG_ERROR, "poll: %s", zmq_strerror(errno));
            rc = 1;
            break;
        }
        if (reload_flag) {
            reload_flag = 0;
            say(LOG_INFO, "SIGHUP: reloading the card databases");
            if (load_cards(&d) == 0)
                save_cards(&d);
        }
        serve_feed(&d);   /* subscriptions first: they decide what is published */
        if (items[0].revents & ZMQ_POLLIN) {
            if (read_batch(&d) == 0 && d.n_batch) {
                if (commit_batch(&d)) {
                    rc = 1;   /* nothing of this batch is acknowledged */
                    break;
                }
                d.batches++;
                send_batch(&d);
            }
        }
        if (items[1].revents & ZMQ_POLLIN)
            serve_query(&d);
    }
    say(LOG_INFO, "stopping (%llu events stored in %llu batches)", (unsigned long long)d.events_stored,
        (unsigned long long)d.batches);
out:
    shutdown_daemon(&d);
    return rc;
}
