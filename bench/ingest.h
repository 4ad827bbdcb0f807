/* ingest.h -- what the ingest benchmarks share (bench/raw_zmq.c,
 * bench/raw_lmdb.c, bench/load.c; bench/run_ingest runs them).
 *
 * The corpus: open logs, one game per file (the .mlog files of
 * `gen_games --games N --out-dir DIR`, or .jsonl ones: `gen_games --out`,
 * the fixtures).  Every table of a run streams its own games under its own
 * match ids ("<tag>-<table>-<game>"), re-encoded in MessagePack as
 * `arbiter send` sends them, so the daemon sees distinct live matches and
 * the raw baselines move messages of exactly the same sizes.
 *
 * The table: a DEALER that keeps up to `window` events in flight (64, as
 * `arbiter send`), optionally paced at `rate` events/s, and times every
 * event from its send to its reply (replies come in order on a
 * connection).  One thread drives every table with zmq_poll, as
 * `arbiter send` does.
 *
 * Header-only (static inline), to keep Makefile.am's one-source entries.
 */
#ifndef ARBITER_BENCH_INGEST_H
#define ARBITER_BENCH_INGEST_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"

/* ---- time, numbers ------------------------------------------------------ */

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of v[0..n) after sorting it in place; 0 when empty. */
static inline uint64_t bench_quantile(uint64_t *v, size_t n, double q, int sorted)
{
    if (!n)
        return 0;
    if (!sorted)
        qsort(v, n, sizeof *v, bench_cmp_u64);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static inline void *bench_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("bench: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static inline void *bench_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("bench: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

/* bench_arg: the next "--name value" option of argv from *i on, for the
 * tools' loops; every word not starting with '-' on the way is a file,
 * appended to files (room for argc).  Returns 1 with *name and *value set
 * (pointers into argv), 0 at the end, -1 for an option without a value. */
static inline int bench_arg(int argc, char **argv, int *i, char **files, int *n_files, const char **name,
                            const char **value)
{
    while (*i < argc) {
        char *a = argv[(*i)++];
        if (a[0] != '-') {
            files[(*n_files)++] = a;
            continue;
        }
        if (*i >= argc)
            return -1;
        *name = a;
        *value = argv[(*i)++];
        return 1;
    }
    return 0;
}

/* ---- the corpus ----------------------------------------------------------- */

typedef struct {
    char **lines;      /* JSON text of each event, NUL-terminated */
    size_t n;
} bench_game;

typedef struct {
    bench_game *games;
    size_t n;
    size_t events, bytes;   /* the files' bytes, for the record */
} bench_corpus;

/* Read every file: one game each, .jsonl or .mlog (`gen_games --games N
 * --out-dir DIR` writes .mlog), every event kept as its JSON text (the
 * form the match id is rewritten in).  0, or -1 (said). */
static inline int bench_corpus_load(bench_corpus *c, char **files, int n_files)
{
    memset(c, 0, sizeof *c);
    c->games = bench_xmalloc((size_t)n_files * sizeof *c->games);
    for (int i = 0; i < n_files; i++) {
        bench_game *g = &c->games[c->n];
        olreader *r = NULL;
        olerror err;
        size_t lcap = 0;
        memset(&err, 0, sizeof err);
        if (olreader_open(files[i], -1, &r, &err) != OL_OK) {
            fprintf(stderr, "bench: cannot read %s: %s\n", files[i], err.msg);
            return -1;
        }
        memset(g, 0, sizeof g[0]);
        for (;;) {
            olevent *ev = NULL;
            const char *raw = NULL;
            size_t len = 0, n = 0;
            char *text = NULL;
            int got = olreader_next(r, &ev, &raw, &len, &err);
            if (got == 0)
                break;
            if (got != 1 || olcodec_encode(ev, OL_ENC_JSON, &text, &n) != OL_OK) {
                fprintf(stderr, "bench: %s: an event the codec does not take: %s\n", files[i], err.msg);
                olevent_destroy(&ev);
                olreader_destroy(&r);
                return -1;
            }
            olevent_destroy(&ev);
            if (g->n == lcap) {
                lcap = lcap ? lcap * 2 : 128;
                g->lines = bench_xrealloc(g->lines, lcap * sizeof *g->lines);
            }
            g->lines[g->n++] = text;   /* NUL-terminated by the codec */
            c->events++;
            c->bytes += len;
        }
        olreader_destroy(&r);
        if (g->n)
            c->n++;
    }
    if (!c->n) {
        fputs("bench: the corpus has no events\n", stderr);
        return -1;
    }
    return 0;
}

/* One event of `line` in MessagePack under match id `id` (the first
 * "match":"..." of the line is the envelope's: the codec writes it first).
 * *out malloc'd.  0, or -1 when the line is not an event the codec takes. */
static inline int bench_event_as(const char *line, const char *id, char **out, size_t *len)
{
    const char *key = strstr(line, "\"match\":\"");
    char buf[OL_EVENT_MAX + 128];
    olevent *ev = NULL;
    olerror err;
    if (!key)
        return -1;
    const char *val = key + 9, *end = strchr(val, '"');
    if (!end || strlen(line) + strlen(id) + 1 > sizeof buf)
        return -1;
    int n = snprintf(buf, sizeof buf, "%.*s%s%s", (int)(val - line), line, id, end);
    memset(&err, 0, sizeof err);
    if (olcodec_decode_json(buf, (size_t)n, (ol_origin){0, 1}, &ev, &err) != OL_OK)
        return -1;
    int rc = olcodec_encode(ev, OL_ENC_MSGPACK, out, len) == OL_OK ? 0 : -1;
    olevent_destroy(&ev);
    return rc;
}

/* ---- tables --------------------------------------------------------------- */

typedef struct {
    char *bytes;
    size_t len;
} bench_msg;

typedef struct {
    void *sock;
    bench_msg *ev;
    size_t n, cap;
    size_t next, acked;          /* sent up to next, answered up to acked */
    uint64_t *sent_ns;           /* per event: when it went out          */
    uint64_t start_ns;           /* paced tables: when event 0 is due    */
} bench_table;

/* Give table t the events of games[g] (all but its last `drop`) under `id`. */
static inline int bench_table_add_game(bench_table *t, const bench_game *g, const char *id, size_t drop)
{
    size_t n = g->n > drop ? g->n - drop : 0;
    for (size_t i = 0; i < n; i++) {
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 128;
            t->ev = bench_xrealloc(t->ev, t->cap * sizeof *t->ev);
        }
        if (bench_event_as(g->lines[i], id, &t->ev[t->n].bytes, &t->ev[t->n].len)) {
            fprintf(stderr, "bench: an event of the corpus is not one the codec takes: %.80s\n", g->lines[i]);
            return -1;
        }
        t->n++;
    }
    return 0;
}

/* Deal the corpus: table i streams `games` games, the corpus's
 * (i * games + k) % n-th, as match "<tag>-<i>-<k>". */
static inline bench_table *bench_tables_new(const bench_corpus *c, int n_tables, int games, const char *tag,
                                            size_t drop, size_t *total)
{
    bench_table *t = calloc((size_t)n_tables, sizeof *t);
    if (!t)
        return NULL;
    *total = 0;
    for (int i = 0; i < n_tables; i++) {
        for (int k = 0; k < games; k++) {
            char id[OL_MATCH_MAX + 1];
            int w = snprintf(id, sizeof id, "%s-%d-%d", tag, i, k);
            if (w <= 0 || w > OL_MATCH_MAX) {
                fputs("bench: the match id tag is too long\n", stderr);
                return NULL;
            }
            if (bench_table_add_game(&t[i], &c->games[((size_t)i * (size_t)games + (size_t)k) % c->n], id, drop))
                return NULL;
        }
        t[i].sent_ns = bench_xmalloc(t[i].n * sizeof *t[i].sent_ns);
        *total += t[i].n;
    }
    return t;
}

static inline void bench_tables_free(bench_table *t, int n)
{
    for (int i = 0; t && i < n; i++) {
        if (t[i].sock)
            zmq_close(t[i].sock);
        for (size_t k = 0; k < t[i].n; k++)
            free(t[i].ev[k].bytes);
        free(t[i].ev);
        free(t[i].sent_ns);
    }
    free(t);
}

typedef struct {
    int window;                  /* events in flight per table (64)      */
    double rate;                 /* events/s per table, 0 unpaced        */
    long timeout_ms;             /* give up after this long without a reply */
} bench_opts;

typedef struct {
    size_t replies, ok, warning, other;
    uint64_t *lat;               /* ns, one per reply, sorted after run  */
    size_t n_lat;
    uint64_t first_send_ns, last_reply_ns;
    size_t reply_bytes;
} bench_result;

/* The status of a reply (a verdict in MessagePack): 0 ok, 1 warning, 2 other. */
static inline int bench_reply_status(const char *b, size_t n)
{
    static const char key[] = "\xa6status";
    for (size_t i = 0; i + 7 < n; i++)
        if (!memcmp(b + i, key, 7)) {
            const unsigned char *v = (const unsigned char *)b + i + 7;
            size_t left = n - i - 7;
            if (left >= 3 && v[0] == 0xa2 && !memcmp(v + 1, "ok", 2))
                return 0;
            if (left >= 8 && v[0] == 0xa7 && !memcmp(v + 1, "warning", 7))
                return 1;
            return 2;
        }
    return 2;
}

/* Connect every table's DEALER to `ep`. */
static inline int bench_connect(void *ctx, bench_table *t, int n, const char *ep)
{
    int zero = 0, hwm = 0, one = 1;
    for (int i = 0; i < n; i++) {
        t[i].sock = zmq_socket(ctx, ZMQ_DEALER);
        if (!t[i].sock)
            return -1;
        zmq_setsockopt(t[i].sock, ZMQ_LINGER, &zero, sizeof zero);
        zmq_setsockopt(t[i].sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
        zmq_setsockopt(t[i].sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
        /* writable only once connected: the wait below, and no message
         * queued before the handshake */
        zmq_setsockopt(t[i].sock, ZMQ_IMMEDIATE, &one, sizeof one);
        if (zmq_connect(t[i].sock, ep)) {
            fprintf(stderr, "bench: cannot connect to %s: %s\n", ep, zmq_strerror(errno));
            return -1;
        }
    }
    /* The clock starts once every table is connected: setting up 1000 TCP
     * connections is not what is measured. */
    zmq_pollitem_t *items = bench_xmalloc((size_t)n * sizeof *items);
    uint64_t give_up = bench_now_ns() + 10000000000ull;
    int left = n;
    for (int i = 0; i < n; i++)
        items[i] = (zmq_pollitem_t){t[i].sock, 0, ZMQ_POLLOUT, 0};
    while (left > 0 && bench_now_ns() < give_up) {
        if (zmq_poll(items, n, 100) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; i++)
            if (items[i].events && (items[i].revents & ZMQ_POLLOUT)) {
                items[i].events = 0;
                left--;
            }
    }
    free(items);
    if (left) {
        fprintf(stderr, "bench: %d of %d tables could not connect to %s\n", left, n, ep);
        return -1;
    }
    return 0;
}

/* Stream every table's events to its end; fills *r.  0, or -1 (timeout). */
static inline int bench_stream(bench_table *t, int n, size_t total, const bench_opts *o, bench_result *r)
{
    zmq_pollitem_t *items = bench_xmalloc((size_t)n * sizeof *items);
    uint64_t interval = o->rate > 0 ? (uint64_t)(1e9 / o->rate) : 0;
    uint64_t start = bench_now_ns(), last_progress = start;
    char buf[1 << 16];
    int rc = 0;

    memset(r, 0, sizeof *r);
    r->lat = bench_xmalloc(total * sizeof *r->lat);
    r->first_send_ns = start;
    for (int i = 0; i < n; i++)   /* paced tables start staggered over one interval */
        t[i].start_ns = start + (interval * (uint64_t)i) / (uint64_t)n;
    while (r->replies < total) {
        uint64_t now = bench_now_ns(), due = UINT64_MAX;
        for (int i = 0; i < n; i++) {
            bench_table *b = &t[i];
            while (b->next < b->n && b->next - b->acked < (size_t)o->window) {
                uint64_t when = b->start_ns + interval * b->next;
                if (interval && when > now) {
                    if (when < due)
                        due = when;
                    break;
                }
                if (zmq_send(b->sock, b->ev[b->next].bytes, b->ev[b->next].len, ZMQ_DONTWAIT) < 0)
                    break;
                b->sent_ns[b->next++] = now;   /* latency from the actual send */
            }
            items[i] = (zmq_pollitem_t){b->sock, 0, ZMQ_POLLIN, 0};
        }
        long wait = 100;
        if (due != UINT64_MAX)
            wait = due <= now ? 0 : (long)((due - now + 999999) / 1000000);
        if (wait > 100)
            wait = 100;
        if (zmq_poll(items, n, wait) < 0 && errno != EINTR) {
            rc = -1;
            break;
        }
        for (int i = 0; i < n; i++) {
            bench_table *b = &t[i];
            int k;
            if (!(items[i].revents & ZMQ_POLLIN))
                continue;
            while ((k = zmq_recv(b->sock, buf, sizeof buf, ZMQ_DONTWAIT)) >= 0) {
                uint64_t at = bench_now_ns();
                if (b->acked >= b->next)
                    continue;
                size_t len = (size_t)k < sizeof buf ? (size_t)k : sizeof buf;
                switch (bench_reply_status(buf, len)) {
                case 0: r->ok++; break;
                case 1: r->warning++; break;
                default: r->other++; break;
                }
                r->reply_bytes += (size_t)k;
                r->lat[r->n_lat++] = at - b->sent_ns[b->acked];
                b->acked++;
                r->replies++;
                r->last_reply_ns = at;
                last_progress = at;
            }
        }
        if (bench_now_ns() - last_progress > (uint64_t)o->timeout_ms * 1000000ull) {
            fprintf(stderr, "bench: no reply for %ld ms (%zu of %zu answered)\n", o->timeout_ms, r->replies, total);
            rc = -1;
            break;
        }
    }
    free(items);
    qsort(r->lat, r->n_lat, sizeof *r->lat, bench_cmp_u64);
    return rc;
}

static inline double bench_seconds(const bench_result *r)
{
    return r->last_reply_ns > r->first_send_ns ? (double)(r->last_reply_ns - r->first_send_ns) / 1e9 : 0;
}

#endif
