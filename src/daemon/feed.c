/* feed.c -- the public feed (feed.h).
 *
 * Subscriptions: without ZMQ_XPUB_VERBOSE an XPUB passes up a prefix's
 * first subscription and its last unsubscription only, so a set of
 * prefixes is enough; `gen` goes up whenever the set changes, and each
 * match's memo of "covered or not" is computed again then.  The set is
 * bounded (FEED_SUBS_MAX): past it a subscription is ignored, logged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/daemon/feed.h"

typedef struct {
    char *prefix;
    size_t len;
} sub;

struct feed {
    void *sock;
    sub *subs;
    size_t n, cap;
    unsigned gen;
};

int feed_new(void *sock, feed **out)
{
    int hwm = FEED_HWM;
    /* A subscription is one byte and a prefix of a match id, and libzmq
     * keeps every byte of every subscription: a message longer than the
     * CURVE handshake needs (its INITIATE is about 300 bytes) closes the
     * subscriber's connection. */
    int64_t max = FEED_MSG_MAX;
    *out = NULL;
    if (zmq_setsockopt(sock, ZMQ_SNDHWM, &hwm, sizeof hwm) || zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max))
        return -1;
    if (!(*out = calloc(1, sizeof **out)))
        return -ENOMEM;
    (*out)->sock = sock;
    (*out)->gen = 1;
    return 0;
}

void feed_destroy(feed **f)
{
    if (!f || !*f)
        return;
    for (size_t i = 0; i < (*f)->n; i++)
        free((*f)->subs[i].prefix);
    free((*f)->subs);
    free(*f);
    *f = NULL;
}

static void subscribe(feed *f, const char *p, size_t n)
{
    char *copy = NULL;
    if (f->n == FEED_SUBS_MAX) {
        dlog(DLOG_WARN, "%d feed subscriptions are kept already: one more is ignored", FEED_SUBS_MAX);
        return;
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 8;
        sub *t = realloc(f->subs, cap * sizeof *t);
        if (!t)
            goto oom;
        f->subs = t;
        f->cap = cap;
    }
    if (!(copy = malloc(n ? n : 1)))
        goto oom;
    memcpy(copy, p, n);
    f->subs[f->n++] = (sub){copy, n};
    return;
oom:
    dlog(DLOG_WARN, "out of memory: a feed subscription is ignored");
}

void feed_serve(feed *f)
{
    for (;;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, f->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            return;
        }
        const char *b = zmq_msg_data(&m);
        size_t n = zmq_msg_size(&m), i;
        if (n >= 1 && (b[0] == 0 || b[0] == 1)) {
            for (i = 0; i < f->n; i++)
                if (f->subs[i].len == n - 1 && !memcmp(f->subs[i].prefix, b + 1, n - 1))
                    break;
            if (b[0] == 1 && i == f->n) {
                subscribe(f, b + 1, n - 1);
            } else if (b[0] == 0 && i < f->n) {
                free(f->subs[i].prefix);
                f->subs[i] = f->subs[--f->n];
            }
            f->gen++;
        }
        zmq_msg_close(&m);
    }
}

int feed_wanted(const feed *f, const char *id, unsigned *gen, unsigned char *on)
{
    if (!f->n)
        return 0;
    if (*gen != f->gen) {
        size_t n = strlen(id);
        *on = 0;
        for (size_t i = 0; i < f->n && !*on; i++)
            *on = f->subs[i].len <= n && !memcmp(f->subs[i].prefix, id, f->subs[i].len);
        *gen = f->gen;
    }
    return *on;
}

/* The map is written around the event's packing and the verdict's bytes
 * as stored, which is the very packing of json {"event","verdict"}. */
int feed_body(const json_t *ej, const char *vbytes, size_t vlen, char **out, size_t *len)
{
    char *eb = NULL, *p;
    size_t elen = 0;
    if (ej && olcodec_json_to_msgpack(ej, &eb, &elen))
        return -ENOMEM;
    *len = 1 + (ej ? 6 + elen : 0) + 8 + vlen;
    if (!(p = *out = malloc(*len))) {
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

void feed_publish(feed *f, const char *match, const char *body, size_t len)
{
    /* an XPUB never blocks on a subscriber: past its queue it drops */
    if (zmq_send(f->sock, match, strlen(match), ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0)
        zmq_send(f->sock, body, len, ZMQ_DONTWAIT);
}

size_t feed_subscriptions(const feed *f)
{
    return f->n;
}
