/* ingest.c -- the batch: read, judge, commit, send (ingest.h).
 *
 * Why batches: the promise is "nothing acknowledged is ever lost", and its
 * price is an fsync per commit.  So a turn drains what is already waiting,
 * judges it all in memory, writes it all in ONE transaction, commits, and
 * only then sends the verdicts.  Under load many events share one fsync; at
 * rest an event waits for nothing but its own commit.
 *
 * How a verdict is made: each live match has a verify_session, the very
 * judge `arbiter verify` runs over a file, so live and batch verdicts are
 * identical byte for byte.  Sessions hold the match in memory; the store is
 * the truth.  Whenever a batch cannot be committed every session it touched
 * is dropped, and the next event of that match makes it again from the
 * store (daemon_load) -- which is also what a restart does.
 *
 * Why nothing here ever waits on a client: the daemon is shared by a whole
 * hall.  Receiving is ZMQ_DONTWAIT and frame by frame (a message of several
 * frames is one malformed message, not a stall); replies are ZMQ_DONTWAIT
 * under ZMQ_ROUTER_MANDATORY (a full queue drops that reply, a gone peer
 * too); a connection gets at most INGEST_SHARE messages of a batch.
 *
 * The states of a batch:
 *
 *   empty --read_batch()--> read --commit_batch()--> committed --send_batch()--> empty
 *                             |                          ^
 *                             | MDB_MAP_FULL: grow,      |
 *                             | judge again -------------+
 *                             | disk full
 *                             v
 *                          waiting --ingest_retry() each second--> committed
 */
#include <errno.h>
#include <jansson.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/core/view.h"
#include "src/daemon/ingest.h"
#include "src/record/record.h"

#define SHARE_SLOTS 2048           /* > INGEST_BATCH_MAX, a power of two  */
#define SOURCE_MAX 160

/* One feed message's body. */
typedef struct {
    char *body;
    size_t len;
} feed_msg;

/* One message of a batch, kept until its verdict is sent (and for a retry). */
typedef struct {
    zmq_msg_t ident, body;
    int frames;                    /* frames after the identity            */
    int delimiter;                 /* the first of them was empty (REQ)    */
    olevent *ev;                   /* decoded, while it is being judged    */
    char *reply;                   /* the verdict's bytes                  */
    size_t reply_len;
    char *feed;                    /* {event, verdict} to publish, or NULL */
    size_t feed_len;
    feed_msg *later;               /* a remedy's later verdicts of the      */
    size_t n_later;                /* events held before it (SPEC.md 8.1),
                                      each its own feed message          */
    char match[OL_MATCH_MAX + 1];
    uint64_t seq;                  /* the seq it took, when `stored`        */
    int stored;                    /* it took a seq: the broadcast's, once
                                      committed                          */
    uint64_t who;                  /* its connection's identity, hashed    */
    int garbage;                   /* answered malformed or refused        */
} item;

typedef struct {
    int first;                     /* index+1 in batch of its first message; 0 free */
    int count;
} share;

struct ingest {
    daemon_ctx *d;
    void *sock;
    item batch[INGEST_BATCH_MAX];
    int n;
    /* connections whose input the last batch refused: they read alone no
     * longer than INGEST_RUN (arbiterd(8), FRAMES AND FAIR SHARES).  Open addressing, 0 free. */
    uint64_t suspects[SHARE_SLOTS];
    int suspect_used[INGEST_BATCH_MAX], nsuspects;   /* the slots to clear   */
    uint64_t run_who;              /* the connection of the last reads    */
    int run;
    item carry;                    /* the over-share message opening the next batch */
    int has_carry;
    int waiting;                   /* the batch waits for disk space       */
    uint64_t batch_no;
    uint64_t refusals;             /* for the log's rate                   */
    share shares[SHARE_SLOTS];
    int share_used[INGEST_BATCH_MAX + 1], nshares;   /* the slots to clear   */
    jtext summary;
};

static void item_clear(item *it, int close_msgs)
{
    olevent_destroy(&it->ev);
    free(it->reply);
    it->reply = NULL;
    it->reply_len = 0;
    free(it->feed);
    it->feed = NULL;
    it->feed_len = 0;
    for (size_t i = 0; i < it->n_later; i++)
        free(it->later[i].body);
    free(it->later);
    it->later = NULL;
    it->n_later = 0;
    it->match[0] = 0;
    it->stored = 0;
    if (close_msgs) {
        zmq_msg_close(&it->ident);
        zmq_msg_close(&it->body);
    }
}

int ingest_new(daemon_ctx *d, void *sock, ingest **out)
{
    int one = 1, zero = 0, snd = INGEST_SNDHWM, rcv = INGEST_RCVHWM;
    int64_t max = INGEST_FRAME_MAX;
    ingest *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return -1;
    g->d = d;
    g->sock = sock;
    if (sock && (zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero) ||
                 zmq_setsockopt(sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one) ||
                 zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max) ||
                 zmq_setsockopt(sock, ZMQ_SNDHWM, &snd, sizeof snd) || zmq_setsockopt(sock, ZMQ_RCVHWM, &rcv, sizeof rcv))) {
        free(g);
        return -1;
    }
    *out = g;
    return 0;
}

void ingest_destroy(ingest **g)
{
    if (!g || !*g)
        return;
    for (int i = 0; i < (*g)->n; i++)
        item_clear(&(*g)->batch[i], 1);
    if ((*g)->has_carry)
        item_clear(&(*g)->carry, 1);
    jtext_free(&(*g)->summary);
    free(*g);
    *g = NULL;
}

int ingest_waiting(const ingest *g)
{
    return g->waiting;
}

int ingest_pending(const ingest *g)
{
    return g->has_carry;
}

/* ---- one message ---------------------------------------------------------- */

/* "[NAME@]ADDRESS/IDENTITY-IN-HEX", cut to fit (arbiter-records(5): the sender);
 * the source (quarantine.h) is NAME, or without a key the address's peer
 * (gate_address_peer: over ipc the user, so that a flood from new
 * processes gets no new quota). */
static void peer_of(item *it, const gate_peer *who, char *peer, size_t cap, char *source, size_t scap)
{
    static const char hex[] = "0123456789abcdef";
    const char *addr = who->addr[0] ? who->addr : "local";
    const unsigned char *id = zmq_msg_data(&it->ident);
    size_t n = zmq_msg_size(&it->ident), k;
    peer[0] = 0;
    k = who->name ? ol_append(peer, cap, ol_append(peer, cap, 0, who->name), "@") : 0;
    k = ol_append(peer, cap, ol_append(peer, cap, k, addr), "/");
    for (size_t i = 0; i < n && k + 3 < cap; i++) {
        peer[k++] = hex[id[i] >> 4];
        peer[k++] = hex[id[i] & 15];
    }
    peer[k < cap ? k : cap - 1] = 0;
    if (who->name)
        snprintf(source, scap, "%s", who->name);
    else
        gate_address_peer(who->addr, source, scap);
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

/* msgpack-c's writer into a jtext: bytes, not text (jtext_raw copies). */
static int jtext_write(void *t, const char *buf, size_t len)
{
    jtext_raw(t, buf, len);
    return ((jtext *)t)->bad ? -1 : 0;
}

int ingest_answer_bytes(const olverdict *v, int as_json, char **out, size_t *len)
{
    const char *status = ol_status_name(v->status);
    /* the answer's size, but for escapes: one allocation, not 8 KiB (a
     * jtext's first), as this runs once per message of a flood */
    size_t about = 64 + strlen(v->match) + strlen(v->rule) + strlen(v->msg);
    *out = NULL;
    *len = 0;
    if (v->has_expect || v->has_remedy)
        return -EINVAL;   /* not an answer: only a gap has one, and a later
                             verdict of a held event goes on the feed only */
    if (as_json) {
        jtext t = {0};
        jtext_reserve(&t, about);
        jtext_lit(&t, "{");
        if (v->match[0]) {
            jtext_lit(&t, "\"match\":");
            jtext_str(&t, v->match);
            jtext_lit(&t, ",");
        }
        if (v->has_seq) {
            jtext_lit(&t, "\"seq\":");
            jtext_int(&t, (long long)v->seq);
            jtext_lit(&t, ",");
        }
        jtext_lit(&t, "\"status\":");
        jtext_str(&t, status);
        if (v->rule[0]) {
            jtext_lit(&t, ",\"rule\":");
            jtext_str(&t, v->rule);
        }
        if (v->msg[0]) {
            jtext_lit(&t, ",\"msg\":");
            jtext_str(&t, v->msg);
        }
        jtext_lit(&t, "}");
        if (t.bad) {
            jtext_free(&t);
            return -EINVAL;
        }
        *out = t.buf;
        *len = t.len;
        return 0;
    }
    /* not an sbuffer: it starts at 8 KiB, and a batch holds many answers */
    jtext b = {0};
    msgpack_packer pk;
    int bad;
    jtext_reserve(&b, about);
    msgpack_packer_init(&pk, &b, jtext_write);
    bad = msgpack_pack_map(&pk, (size_t)(!!v->match[0] + !!v->has_seq + 1 + !!v->rule[0] + !!v->msg[0]));
#define PACK_STR(k, s) (msgpack_pack_str_with_body(&pk, (k), strlen(k)) || msgpack_pack_str_with_body(&pk, (s), strlen(s)))
    if (v->match[0])
        bad |= PACK_STR("match", v->match);
    if (v->has_seq)
        bad |= msgpack_pack_str_with_body(&pk, "seq", 3) || msgpack_pack_uint64(&pk, v->seq);
    bad |= PACK_STR("status", status);
    if (v->rule[0])
        bad |= PACK_STR("rule", v->rule);
    if (v->msg[0])
        bad |= PACK_STR("msg", v->msg);
#undef PACK_STR
    if (bad || b.bad) {
        jtext_free(&b);
        return -ENOMEM;
    }
    *out = b.buf;
    *len = b.len;
    return 0;
}

/* Answer with v (a verdict that takes no seq); quarantine the message
 * first when `source` is given.  The reply is written straight into bytes
 * (ingest_answer_bytes), not through a jansson tree: this is the path of a
 * flood of garbage, and it must cost little beside judging (arbiterd(8),
 * FRAMES AND FAIR SHARES). */
static int answer(ingest *g, MDB_txn *txn, item *it, const olverdict *v, const char *source, const char *peer)
{
    const char *buf = zmq_msg_data(&it->body);
    size_t len = zmq_msg_size(&it->body);
    int as_json = len && buf[0] == '{', rc;
    it->garbage = 1;
    if (source && (rc = quarantine_put(g->d->quar, txn, source, peer, v->msg, buf, len)))
        return rc;
    if (!ingest_answer_bytes(v, as_json, &it->reply, &it->reply_len))
        return 0;
    /* a sentence jtext refuses (not UTF-8): the general path says the same */
    json_t *vj = olverdict_to_json(v, NULL);
    rc = vj ? encode_reply(it, vj, as_json) : -ENOMEM;
    json_decref(vj);
    return rc;
}

/* A refusal (arbiterd(8), OWNERSHIP AND REFUSALS): `illegal`, not stored,
 * the event never judged. */
static int refuse(ingest *g, MDB_txn *txn, item *it, const char *rule, const char *source, const char *peer,
                  const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int refuse(ingest *g, MDB_txn *txn, item *it, const char *rule, const char *source, const char *peer,
                  const char *fmt, ...)
{
    olverdict v;
    va_list ap;
    olverdict_set(&v, it->ev->match, it->ev->seq, OL_V_ILLEGAL, rule, NULL);
    va_start(ap, fmt);
    olverdict_vformat(v.msg, sizeof v.msg, fmt, ap);
    va_end(ap);
    /* counted in health; logged the first times, then one in a thousand */
    if (++g->refusals <= 20 || g->refusals % 1000 == 0)
        dlog(DLOG_INFO, "refused %s #%llu from %s (%llu refusals so far): %s", it->ev->match,
             (unsigned long long)it->ev->seq, peer, (unsigned long long)g->refusals, v.msg);
    return answer(g, txn, it, &v, source, peer);
}

/* The live match of `id`, made from the store when needed; room is made
 * by sending the least recently used match (not one of this batch) out of
 * memory.  NULL with *why_rule set when the event is refused (a header
 * past --max-matches, or, *over_share, past the share of `who`'s peer),
 * or with *why_rule NULL when the match has no session to give (no header
 * yet: the event is judged by a scratch session). */
static live *live_for(ingest *g, MDB_txn *txn, const olevent *ev, const gate_peer *who, const char **why_rule,
                      int *over_share, int *failed)
{
    daemon_ctx *d = g->d;
    live *l = live_find(d->live, ev->match);
    *why_rule = NULL;
    *failed = 0;
    *over_share = 0;
    if (l && l->damaged) {
        *why_rule = "openlog:record";
        return NULL;
    }
    if (l) {
        l->used_ms = daemon_now_ms();
        l->batch = g->batch_no;
        return l;
    }
    int known = record_exists(d->st, txn, ev->match);
    int header = ev->type == OL_MATCH && ev->seq == 0;
    if (!known && !header)
        return NULL;
    if (!known && d->gate && who->peer[0] && gate_held(d->gate, who->peer) >= d->peer_matches) {
        /* a peer opens at most its share: the slots stay for the others */
        *why_rule = "openlog:limits";
        *over_share = 1;
        return NULL;
    }
    if (live_count(d->live) >= d->max_matches) {
        /* room: the match used least recently leaves memory (it is made
         * again from the store if it ever needs to be), unless this batch
         * wrote it; a new match may only push out one idle for a while */
        live *victim = live_lru(d->live, g->batch_no);
        if (victim && (known || daemon_now_ms() - victim->used_ms >= DAEMON_IDLE_MS)) {
            live_clear(d->live, victim);
            d->stats.evicted++;
        } else if (!known) {
            *why_rule = "openlog:limits";
            return NULL;
        }
    }
    if (!(l = live_slot(d->live, ev->match))) {
        *failed = 1;
        return NULL;
    }
    char id[OL_MATCH_MAX + 1];
    snprintf(id, sizeof id, "%s", ev->match);
    int rc = daemon_load(d, txn, l, header ? ev->header.cards : NULL);
    if (rc == 1) {   /* its record has findings: logged, now DAMAGED */
        *why_rule = "openlog:record";
        return NULL;
    }
    if (rc) {
        /* Its record cannot be read back: judging without it could
         * acknowledge what is never stored.  No reply; the table resends,
         * and the log says why. */
        dlog(DLOG_ERROR, "match %s: its record cannot be read (%s); its event #%llu is left unanswered", id,
             rc < 0 ? strerror(-rc) : mdb_strerror(rc), (unsigned long long)ev->seq);
        *failed = 1;
        return NULL;
    }
    l->used_ms = daemon_now_ms();
    l->batch = g->batch_no;
    return l;
}

/* The verdict as the public may read it (view_verdict_redact): *out NULL
 * when the stored bytes are already that (no sentence, or one naming no
 * card the event hides), else new MessagePack bytes the caller frees.
 * Only a verdict with a sentence is decoded: most are a bare "ok".  0, or
 * -1 out of memory. */
static int public_verdict(const olevent *ev, const olevent *hdr, const cards *db, const char *vbytes, size_t vlen,
                          char **out, size_t *len)
{
    json_t *vj = NULL;
    int rc = 0;
    *out = NULL;
    static const char key[] = "\xa3msg";   /* the key "msg", packed */
    size_t i = 0;
    while (i + 4 <= vlen && memcmp(vbytes + i, key, 4))
        i++;
    if (i + 4 > vlen)
        return 0;
    if (olcodec_msgpack_to_json((const uint8_t *)vbytes, vlen, (ol_origin){0, 0}, &vj, NULL) != OL_OK)
        return 0;   /* our own bytes: cannot happen; sent as stored */
    int changed = view_verdict_redact(vj, ev, VIEW_PUBLIC, hdr, db);
    if (changed < 0 || (changed && olcodec_json_to_msgpack(vj, out, len)))
        rc = -1;
    json_decref(vj);
    return rc;
}

/* Publish a stored event to the feed when somebody subscribed to it.  The
 * public view of an event that hides cards needs the match's header (its
 * format says which, verifier_event_hidden): it is read back from the
 * record for those only. */
static void publish(ingest *g, MDB_txn *txn, live *l, item *it, const char *vbytes, size_t vlen)
{
    daemon_ctx *d = g->d;
    olevent *hdr = NULL;
    if (!d->feed || !feed_wanted(d->feed, l->id, &l->feed_gen, &l->feed_on))
        return;
    verifier_hidden_field hid[VERIFIER_HIDDEN_MAX];
    if (verifier_event_hidden(it->ev, NULL, hid))
        record_header(d->st, txn, l->id, &hdr);
    json_t *ej = view_event_json(it->ev, VIEW_PUBLIC, hdr);
    char *safe = NULL;
    size_t safe_len = 0;
    if (public_verdict(it->ev, hdr, l->db, vbytes, vlen, &safe, &safe_len) ||
        feed_body(ej, safe ? safe : vbytes, safe ? safe_len : vlen, &it->feed, &it->feed_len))
        dlog(DLOG_WARN, "out of memory: match %s #%llu is not published", l->id, (unsigned long long)it->ev->seq);
    free(safe);
    json_decref(ej);
    olevent_destroy(&hdr);
}

/* A stored event's bytes, decoded (store_each_event's callback). */
static int decode_stored(void *ctx, const store_event *e)
{
    return olcodec_decode_message(e->event, e->event_len, (olevent **)ctx, NULL) == OL_OK ? 0 : -EINVAL;
}

/* A remedy judged the events held before it again (SPEC.md 8.1): each of
 * them goes on the feed once more, with its later verdict, in the public
 * view -- made now, sent with the remedy's reply once the batch is
 * committed.  A held event is stored already (this batch or an earlier
 * one), so it is read back from the record. */
static void publish_later(ingest *g, MDB_txn *txn, live *l, item *it)
{
    daemon_ctx *d = g->d;
    size_t n = 0;
    const olverdict *lv = verify_session_later(l->sess, &n);
    olevent *hdr = NULL;
    if (!n || !d->feed || !feed_wanted(d->feed, l->id, &l->feed_gen, &l->feed_on))
        return;
    if (!(it->later = calloc(n, sizeof *it->later))) {
        dlog(DLOG_WARN, "out of memory: the later verdicts of match %s are not published", l->id);
        return;
    }
    record_header(d->st, txn, l->id, &hdr);
    for (size_t i = 0; i < n; i++) {
        olevent *ev = NULL;
        json_t *ej = NULL, *vj = NULL;
        char *vb = NULL;
        size_t vlen = 0;
        int bad = record_each_event(d->st, txn, l->id, lv[i].seq, lv[i].seq, decode_stored, &ev) || !ev ||
                  !(ej = view_event_json(ev, VIEW_PUBLIC, hdr)) || !(vj = olverdict_to_json(&lv[i], NULL)) ||
                  view_verdict_redact(vj, ev, VIEW_PUBLIC, hdr, l->db) < 0 || olcodec_json_to_msgpack(vj, &vb, &vlen) ||
                  feed_body(ej, vb, vlen, &it->later[it->n_later].body, &it->later[it->n_later].len);
        if (bad)
            dlog(DLOG_WARN, "match %s #%llu: its later verdict is not published (out of memory, or its record does "
                 "not read)", l->id, (unsigned long long)lv[i].seq);
        else
            it->n_later++;
        free(vb);
        json_decref(vj);
        json_decref(ej);
        olevent_destroy(&ev);
    }
    olevent_destroy(&hdr);
}

/* Judge an event through its match's session (or, before any header, a
 * scratch one: judged openlog:4, never part of a record), store it when it
 * takes a seq, and make its reply and feed message. */
static int judge(ingest *g, MDB_txn *txn, item *it, live *l, const gate_peer *who, const char *peer)
{
    daemon_ctx *d = g->d;
    const char *buf = zmq_msg_data(&it->body);
    size_t len = zmq_msg_size(&it->body), vlen = 0;
    int as_json = len && buf[0] == '{', rc;
    live scratch;
    live *use = l;
    const verify_entry *e = NULL;
    char *vbytes = NULL;

    if (!use) {
        memset(&scratch, 0, sizeof scratch);
        use = &scratch;
        memcpy(scratch.id, it->ev->match, strnlen(it->ev->match, OL_MATCH_MAX));
        scratch.db = cardset_named(d->cards, NULL);
        if (verify_session_new(scratch.db, it->ev->match, &scratch.sess) != VERIFY_OK)
            return -ENOMEM;
    }
    uint64_t before = verify_session_next_seq(use->sess);
    if ((rc = record_judge(d->st, txn, use->sess, it->ev, buf, len, &e)))
        goto out;
    const verify_report *r = verify_session_report(use->sess);
    json_t *vj = olverdict_to_json(&e->v, e->stored == VERIFY_NONE ? NULL : &r->verdicts[e->stored].v);
    if (vj && e->v.status == OL_V_DUPLICATE && e->stored == VERIFY_NONE) {
        /* a lean session keeps no verdicts: the first one is in the record */
        json_t *sj = record_stored_verdict(d->st, txn, use->id, it->ev->seq);
        if (!sj || json_object_set_new(vj, "stored", sj)) {
            json_decref(vj);
            vj = NULL;
        }
    }
    rc = vj ? olcodec_json_to_msgpack(vj, &vbytes, &vlen) : -ENOMEM;
    if (!rc && use == l && verify_session_next_seq(l->sess) > before) {
        /* the event took a seq: it is part of the record */
        if (it->ev->type == OL_MATCH && it->ev->seq == 0) {
            memcpy(l->tags.tournament, it->ev->header.tournament ? it->ev->header.tournament : "",
                   it->ev->header.tournament ? strnlen(it->ev->header.tournament, OL_STRING_MAX) + 1 : 1);
            if (who->name) {   /* the key that sent the header owns the match */
                snprintf(l->tags.owner, sizeof l->tags.owner, "%s", who->name);
                snprintf(l->tags.owner_key, sizeof l->tags.owner_key, "%s", who->z85);
            }
            /* the header pins its card database: it goes into the store with it */
            rc = cardset_ensure_stored(d->cards, d->st, txn, l->db);
        }
        if (!rc)
            rc = record_append(d->st, txn, l->id, &l->heads, verify_session_verifier(l->sess), buf, len, vbytes, vlen,
                               e->v.status, e->v.rule, daemon_now_ms(), peer);
        if (!rc) {
            l->dirty = 1;
            d->stats.events_stored++;
            it->seq = it->ev->seq;
            it->stored = 1;
            publish(g, txn, l, it, vbytes, vlen);
            publish_later(g, txn, l, it);
        }
    }
    if (!rc && !as_json) {
        /* the reply is the verdict's MessagePack, in a buffer of its size
         * (the packer's starts at 8 KiB; a batch holds many replies) */
        char *fit = realloc(vbytes, vlen ? vlen : 1);
        it->reply = fit ? fit : vbytes;
        it->reply_len = vlen;
        vbytes = NULL;
    } else if (!rc) {
        rc = encode_reply(it, vj, as_json);
    }
    json_decref(vj);
out:
    free(vbytes);
    if (use == &scratch)
        verify_session_destroy(&scratch.sess);
    olevent_destroy(&it->ev);   /* judged: its memory is not kept for the whole batch */
    return rc;
}

/* A message on a connection the gate let in only to say it is refused
 * (gate.h): `illegal` citing openlog:limits, with the gate's sentence,
 * whatever the message holds; nothing of it is judged or quarantined. */
static int refuse_connection(ingest *g, MDB_txn *txn, item *it, const gate_peer *who, const char *peer)
{
    const char *buf = zmq_msg_data(&it->body);
    size_t len = zmq_msg_size(&it->body);
    olerror err;
    olverdict v;
    olverdict_set(&v, "", 0, OL_V_ILLEGAL, "openlog:limits", NULL);
    v.has_seq = 0;
    /* its match and seq when they can be read, so that a table knows which
     * event was not taken */
    if (it->frames == 1 && olcodec_decode_message(buf, len, &it->ev, &err) == OL_OK) {
        snprintf(v.match, sizeof v.match, "%s", it->ev->match);
        v.seq = it->ev->seq;
        v.has_seq = 1;
    } else if (it->frames == 1) {
        snprintf(v.match, sizeof v.match, "%s", err.match ? err.match : "");
        v.seq = err.seq;
        v.has_seq = err.has_seq;
    }
    gate_refusal(g->d->gate, GATE_INGEST, who, v.msg, sizeof v.msg);
    g->d->stats.refused_limits++;
    if (++g->refusals <= 20 || g->refusals % 1000 == 0)
        dlog(DLOG_INFO, "refused a message from %s (%llu refusals so far): %s", peer,
             (unsigned long long)g->refusals, v.msg);
    return answer(g, txn, it, &v, NULL, peer);
}

/* With a keyring, a table key opens only the matches assigned to it: a
 * header whose event.table names the key (arbiterd(8) OWNERSHIP AND REFUSALS).  1 when `ev`
 * would open a match against that rule. */
static int table_rule_broken(ingest *g, MDB_txn *txn, const olevent *ev, const gate_peer *who)
{
    const char *s;
    size_t n;
    if (who->anonymous || who->role != KEYS_TABLE || ev->type != OL_MATCH || ev->seq != 0)
        return 0;
    if (ev->header.table && who->name && !strcmp(ev->header.table, who->name))
        return 0;
    /* a header for a match that exists opens nothing: the owner's rule
     * (openlog:owner) or the record's answer it */
    return !live_find(g->d->live, ev->match) && store_get_summary(g->d->st, txn, ev->match, &s, &n) != 0;
}

/* Judge one message of the batch from `who` inside `txn`.  0, or a store
 * error. */
static int handle_from(ingest *g, MDB_txn *txn, item *it, const gate_peer *who, int revoked)
{
    daemon_ctx *d = g->d;
    const char *buf = zmq_msg_data(&it->body);
    size_t len = zmq_msg_size(&it->body);
    int failed, over_share;
    char peer[STORE_PEER_MAX + 1], source[SOURCE_MAX];
    olerror err;
    olverdict v;
    const char *rule;

    peer_of(it, who, peer, sizeof peer, source, sizeof source);
    if (who->refused)
        return refuse_connection(g, txn, it, who, peer);
    if (it->frames > 1) {
        /* openlog.md 2: one event per message, one frame */
        olverdict_malformed(&v, "", 0, 0, NULL, "");
        olverdict_format(v.msg, sizeof v.msg,
                         "A message must be one frame holding one event (openlog.md 2); this one has %d frames%s.",
                         it->frames, it->delimiter ? " (a REQ socket adds an empty delimiter frame: use a DEALER)" : "");
        snprintf(v.rule, sizeof v.rule, "openlog:2");
        return answer(g, txn, it, &v, source, peer);
    }
    if (olcodec_decode_message(buf, len, &it->ev, &err) != OL_OK) {
        olverdict_malformed(&v, err.match, err.has_seq, err.seq, err.key, err.msg);
        dlog(DLOG_DEBUG, "malformed from %s: %s", peer, v.msg);
        return answer(g, txn, it, &v, source, peer);
    }
    if (revoked) {
        d->stats.refused_key++;
        return refuse(g, txn, it, "openlog:key", source, peer,
                      "This connection's key is no longer in the daemon's keyring; its messages are refused.");
    }
    if (!who->anonymous && who->role != KEYS_TABLE && who->role != KEYS_JUDGE) {
        /* a key given another role by a reload, on a connection it opened
         * as a table: the gate checks roles at the handshake only */
        d->stats.refused_key++;
        return refuse(g, txn, it, "openlog:key", source, peer,
                      "The key %s now has the role %s, which does not send events; its messages are refused.",
                      who->name ? who->name : "?", keys_role_name(who->role));
    }
    if (table_rule_broken(g, txn, it->ev, who)) {
        d->stats.refused_table++;
        const char *named = it->ev->header.table;
        return refuse(g, txn, it, "openlog:table", source, peer,
                      "Match %s was not opened: the table key %s opens only the matches whose header names it as "
                      "their table (event.table \"%s\"), and this header names %s%s%s.",
                      it->ev->match, who->name, who->name, named ? "the table \"" : "no table", named ? named : "",
                      named ? "\"" : "");
    }
    memcpy(it->match, it->ev->match, strnlen(it->ev->match, OL_MATCH_MAX) + 1);
    live *l = live_for(g, txn, it->ev, who, &rule, &over_share, &failed);
    if (failed)
        return 0;
    if (rule && !strcmp(rule, "openlog:record")) {
        d->stats.refused_record++;
        return refuse(g, txn, it, rule, source, peer,
                      "The stored record of match %s failed the daemon's check at start; it takes no events until a "
                      "judge has looked at it.", it->ev->match);
    }
    if (rule && over_share) {
        d->stats.refused_limits++;
        return refuse(g, txn, it, rule, NULL, peer,
                      "Match %s was not started: %s %s holds %zu open matches, its share (--peer-matches); finish one, "
                      "or send the header again later.", it->ev->match, who->name ? "the key" : "the address",
                      who->name ? who->name : who->peer, gate_held(d->gate, who->peer));
    }
    if (rule) {
        d->stats.refused_limits++;
        return refuse(g, txn, it, rule, NULL, peer,
                      "Match %s was not started: the daemon holds %zu open matches, its limit (--max-matches); "
                      "send the header again later.", it->ev->match, live_count(d->live));
    }
    /* EVIDENCE-OF openlog:remedy: a remedy is a judge's (SPEC.md 8.1): with
     * a keyring, a judge event that gives one comes from a judge's key, and
     * a judge's key may give one in any match, as a judge walks to any
     * table; its other events, rulings too, keep to the matches it owns. */
    int remedy = it->ev->type == OL_JUDGE && it->ev->has_remedy;
    int judge_event = remedy && !who->anonymous && who->role == KEYS_JUDGE;
    if (d->gate && gate_curve(d->gate) && remedy && !judge_event) {
        d->stats.refused_key++;
        return refuse(g, txn, it, "openlog:remedy", source, peer,
                      "Only a judge's key gives a remedy; this judge event of match %s comes from %s, whose role is "
                      "%s, and is refused.", it->ev->match, who->name ? who->name : "a key", keys_role_name(who->role));
    }
    if (l && d->gate && gate_curve(d->gate) && verify_session_next_seq(l->sess) > 0 && !judge_event &&
        (!l->tags.owner_key[0] || !who->z85 || strcmp(l->tags.owner_key, who->z85))) {
        d->stats.refused_owner++;
        if (l->tags.owner_key[0] && who->name && !strcmp(l->tags.owner, who->name))
            return refuse(g, txn, it, "openlog:owner", source, peer,
                          "Match %s belongs to the key that %s had when it sent the header; this event comes from "
                          "another key now named %s, and is refused.", l->id, l->tags.owner, who->name);
        if (l->tags.owner_key[0])
            return refuse(g, txn, it, "openlog:owner", source, peer,
                          "Match %s belongs to %s; an event from %s is refused and is not part of it.", l->id, l->tags.owner,
                          who->name);
        return refuse(g, txn, it, "openlog:owner", source, peer,
                      "Match %s was started without a key; with a keyring nobody may write into it.", l->id);
    }
    if (l)   /* its peer's share counts it (gate_hold, through live.h's hook) */
        live_hold(d->live, l, who->peer);
    return judge(g, txn, it, l, who, peer);
}

/* Judge one message of the batch inside `txn`, and tell the gate it was
 * heard.  0, or a store error. */
static int handle(ingest *g, MDB_txn *txn, item *it)
{
    gate_peer who;
    int revoked = daemon_who(g->d, &it->body, &who);
    int rc = handle_from(g, txn, it, &who, revoked);
    if (g->d->gate)
        gate_heard(g->d->gate, GATE_INGEST, &who, !rc && !it->garbage);
    return rc;
}

/* ---- the batch -------------------------------------------------------------- */

/* Receive one message into it: 1, or 0 when nothing is waiting, or -1 for
 * a message to skip (no body: nothing to answer).  Every frame is read with
 * ZMQ_DONTWAIT: the parts of a message arrive together. */
static int read_message(void *sock, item *it)
{
    memset(it, 0, sizeof *it);
    zmq_msg_init(&it->ident);
    zmq_msg_init(&it->body);
    if (zmq_msg_recv(&it->ident, sock, ZMQ_DONTWAIT) < 0)
        goto none;
    if (!zmq_msg_more(&it->ident) || zmq_msg_recv(&it->body, sock, ZMQ_DONTWAIT) < 0)
        goto skip;
    it->frames = 1;
    int more = zmq_msg_more(&it->body);
    /* an empty frame followed by more is a REQ socket's envelope: what
     * follows it is what the client meant to send (its bytes are
     * quarantined, its encoding answered), and the reply carries the empty
     * frame back.  An empty message alone is no envelope: it is answered
     * in one frame, as any message of a DEALER (arbiterd(8) FRAMES AND FAIR SHARES). */
    it->delimiter = zmq_msg_size(&it->body) == 0 && more;
    if (it->delimiter) {
        zmq_msg_close(&it->body);
        zmq_msg_init(&it->body);
        if (zmq_msg_recv(&it->body, sock, ZMQ_DONTWAIT) < 0)
            goto skip;
        it->frames++;
        more = zmq_msg_more(&it->body);
    }
    while (more) {
        zmq_msg_t extra;
        zmq_msg_init(&extra);
        if (zmq_msg_recv(&extra, sock, ZMQ_DONTWAIT) < 0)
            more = 0;
        else {
            more = zmq_msg_more(&extra);
            it->frames++;
        }
        zmq_msg_close(&extra);
    }
    return 1;
skip:
    zmq_msg_close(&it->ident);
    zmq_msg_close(&it->body);
    return -1;
none:
    zmq_msg_close(&it->ident);
    zmq_msg_close(&it->body);
    return 0;
}

/* Move a message just read (nothing judged yet) from src to dst. */
static void move_item(item *dst, item *src)
{
    memset(dst, 0, sizeof *dst);
    zmq_msg_init(&dst->ident);
    zmq_msg_init(&dst->body);
    zmq_msg_move(&dst->ident, &src->ident);
    zmq_msg_move(&dst->body, &src->body);
    dst->frames = src->frames;
    dst->delimiter = src->delimiter;
    zmq_msg_close(&src->ident);
    zmq_msg_close(&src->body);
}

static uint64_t who_hash(zmq_msg_t *id)
{
    const unsigned char *b = zmq_msg_data(id);
    size_t n = zmq_msg_size(id);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h ? h : 1;   /* 0 marks a free slot */
}

static int is_suspect(const ingest *g, uint64_t h)
{
    for (size_t i = h & (SHARE_SLOTS - 1); g->suspects[i]; i = (i + 1) & (SHARE_SLOTS - 1))
        if (g->suspects[i] == h)
            return 1;
    return 0;
}

/* The connections whose input this batch refused, for the next one. */
static void note_suspects(ingest *g)
{
    /* only the slots used are cleared: under a flood batches are small,
     * and clearing the whole table each time cost more than the batch */
    for (int i = 0; i < g->nsuspects; i++)
        g->suspects[g->suspect_used[i]] = 0;
    g->nsuspects = 0;
    for (int i = 0; i < g->n; i++)
        if (g->batch[i].garbage && !is_suspect(g, g->batch[i].who)) {
            size_t k = g->batch[i].who & (SHARE_SLOTS - 1);
            while (g->suspects[k])
                k = (k + 1) & (SHARE_SLOTS - 1);
            g->suspects[k] = g->batch[i].who;   /* at most INGEST_BATCH_MAX of SHARE_SLOTS */
            g->suspect_used[g->nsuspects++] = (int)k;
        }
}

/* Count one more message of its connection in this batch; 0, or -1 when
 * the message must open the next batch: its connection has had its share,
 * or it is a suspect read INGEST_RUN times in a row (nobody else had
 * anything waiting: the tables' next events should not wait for its
 * garbage either). */
static int take_share(ingest *g, int index)
{
    item *it = &g->batch[index];
    zmq_msg_t *id = &it->ident;
    size_t n = zmq_msg_size(id);
    uint64_t h = it->who = who_hash(id);
    g->run = h == g->run_who ? g->run + 1 : 1;
    g->run_who = h;
    for (size_t i = h & (SHARE_SLOTS - 1);; i = (i + 1) & (SHARE_SLOTS - 1)) {
        share *s = &g->shares[i];
        if (!s->first) {
            *s = (share){index + 1, 1};
            g->share_used[g->nshares++] = (int)i;
            return 0;
        }
        zmq_msg_t *first = &g->batch[s->first - 1].ident;
        if (zmq_msg_size(first) == n && !memcmp(zmq_msg_data(first), zmq_msg_data(id), n)) {
            if (g->run > INGEST_RUN && is_suspect(g, h))
                return -1;
            return s->count++ < INGEST_SHARE ? 0 : -1;
        }
    }
}

/* Read what is waiting on ingest, fairly (arbiterd(8), FRAMES AND FAIR SHARES). */
static void read_batch(ingest *g)
{
    g->n = 0;
    g->run = 0;
    g->run_who = 0;
    for (int i = 0; i < g->nshares; i++)
        g->shares[g->share_used[i]] = (share){0, 0};
    g->nshares = 0;
    while (g->n < INGEST_BATCH_MAX) {
        item *it = &g->batch[g->n];
        if (g->has_carry) {
            move_item(it, &g->carry);
            g->has_carry = 0;
        } else {
            int got = read_message(g->sock, it);
            if (got == 0)
                return;
            if (got < 0)
                continue;
        }
        if (take_share(g, g->n)) {
            move_item(&g->carry, it);
            g->has_carry = 1;
            return;
        }
        g->n++;
    }
}

/* After an aborted transaction the store, not memory, says where each
 * match is: drop the sessions this batch touched, and what was judged. */
static void forget_batch(ingest *g)
{
    for (int i = 0; i < g->n; i++) {
        live *l = g->batch[i].match[0] ? live_find(g->d->live, g->batch[i].match) : NULL;
        if (l && !l->damaged)
            live_clear(g->d->live, l);
        item_clear(&g->batch[i], 0);
    }
    quarantine_abort(g->d->quar);
}

/* A finished match gets few events more (claims, a judge's notes, tables
 * resending): its session leaves memory and is made again from the store
 * if one comes, so that memory follows the live matches only. */
static void drop_finished(ingest *g)
{
    for (int i = 0; i < g->n; i++) {
        live *l = g->batch[i].match[0] ? live_find(g->d->live, g->batch[i].match) : NULL;
        if (l && l->sess && verify_session_report(l->sess)->finished)
            live_clear(g->d->live, l);
    }
}

/* 1 when a failed commit means that the disk holding the store is full:
 * LMDB reports ENOSPC, or EIO after a short write (mdb_page_flush). */
static int disk_is_full(const daemon_ctx *d, int rc)
{
    struct statvfs fs;
    if (rc == ENOSPC || rc == -ENOSPC || rc == EDQUOT || rc == -EDQUOT)
        return 1;
    if (rc != EIO && rc != -EIO)
        return 0;
    return !statvfs(d->dbdir, &fs) && (uint64_t)fs.f_bavail * fs.f_frsize < INGEST_DISK_LOW;
}

/* Double the store's map.  No read transaction of the process may be open
 * then: the standings worker ends its own first (standings.h; the loop
 * waits for at most one record's judging, and only here). */
static int grow(daemon_ctx *d)
{
    standings_pause(d->stand);
    replica_pause(d->replica);
    int rc = store_grow(d->st);
    replica_resume(d->replica);
    standings_resume(d->stand);
    return rc;
}

/* Judge and commit the batch: 0 committed; 1 the disk is full (the batch
 * waits); -1 the store failed (nothing of the batch may be acknowledged). */
static int commit_batch(ingest *g)
{
    daemon_ctx *d = g->d;
    g->batch_no++;
    for (;;) {
        MDB_txn *txn = NULL;
        uint64_t t0 = daemon_mono_us(), t1;
        daemon_stats before = d->stats;   /* what a failed attempt counted is taken back */
        int rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn);
        /* what a replica confirmed, first: this batch's events are noted after */
        if (!rc)
            rc = replica_apply(d->replica, d->st, txn);
        for (int i = 0; !rc && i < g->n; i++)
            rc = handle(g, txn, &g->batch[i]);
        uint64_t ts = daemon_mono_us();
        for (int i = 0; !rc && i < g->n; i++) {
            live *l = g->batch[i].match[0] ? live_find(d->live, g->batch[i].match) : NULL;
            if (l && l->dirty) {
                rc = daemon_seal(d, txn, l, &g->summary);
                d->stats.seals++;
            }
        }
        t1 = daemon_mono_us();
        d->stats.seal_us += t1 - ts;
        if (!rc)
            rc = mdb_txn_commit(txn);   /* fsync: after this, verdicts may go out */
        else if (txn)
            mdb_txn_abort(txn);
        replica_applied(d->replica, !rc);
        if (!rc) {
            uint64_t took = daemon_mono_us() - t1;
            replica_kick(d->replica);
            quarantine_commit(d->quar);
            d->stats.judge_us += t1 - t0;
            d->stats.commit_us += took;
            if (took > d->stats.commit_us_max)
                d->stats.commit_us_max = took;
            if ((uint64_t)g->n > d->stats.batch_max)
                d->stats.batch_max = (uint64_t)g->n;
            d->stats.batches++;
            drop_finished(g);
            return 0;
        }
        forget_batch(g);
        d->stats = before;
        if (rc == MDB_MAP_FULL && grow(d) == 0) {
            dlog(DLOG_WARN, "store map full: grown to %zu MiB, judging the batch of %d again",
                 store_map_size(d->st) >> 20, g->n);
            continue;
        }
        if (disk_is_full(d, rc)) {
            if (!d->disk_full)
                dlog(DLOG_ERROR, "the disk holding the store %s is full: no event is acknowledged until there is "
                     "space again (health and queries are still answered; %d events wait)", d->dbdir, g->n);
            d->disk_full = 1;
            snprintf(d->store_error, sizeof d->store_error, "the disk holding the store is full");
            return 1;
        }
        dlog(DLOG_ERROR, "cannot commit a batch of %d events: %s", g->n, rc < 0 ? strerror(-rc) : mdb_strerror(rc));
        return -1;
    }
}

/* Send each verdict without waiting: a connection whose queue is full, or
 * that is gone, loses its reply (the event is stored: a resend gets it). */
static void send_batch(ingest *g)
{
    daemon_ctx *d = g->d;
    int events;
    size_t elen = sizeof events;
    /* take in what the I/O thread said about verdicts gone out (query.c
     * query_serve says why), so that a queue is judged full only when it is */
    zmq_getsockopt(g->sock, ZMQ_EVENTS, &events, &elen);
    for (int i = 0; i < g->n; i++) {
        item *it = &g->batch[i];
        if (it->reply) {
            int rc = zmq_msg_send(&it->ident, g->sock, ZMQ_SNDMORE | ZMQ_DONTWAIT);
            if (rc >= 0 && it->delimiter)
                rc = zmq_send(g->sock, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
            if (rc >= 0)
                rc = zmq_send(g->sock, it->reply, it->reply_len, ZMQ_DONTWAIT);
            if (rc < 0 && errno == EAGAIN && ++d->stats.replies_dropped % 1000 == 1)
                dlog(DLOG_WARN, "a table does not read its verdicts: its queue is full, replies are dropped "
                     "(%llu so far); its events are stored, a resend gets them", (unsigned long long)d->stats.replies_dropped);
        }
        if (it->feed && d->feed)
            feed_publish(d->feed, it->match, it->feed, it->feed_len);
        for (size_t k = 0; k < it->n_later && d->feed; k++)
            feed_publish(d->feed, it->match, it->later[k].body, it->later[k].len);
        if (it->stored && d->bcast)   /* committed: the delay runs from now, rounded up */
            broadcast_stored(d->bcast, it->match, it->seq, (daemon_mono_us() + 999) / 1000);
        item_clear(it, 1);
    }
    g->n = 0;
}

static int finish_batch(ingest *g, int rc)
{
    if (rc == 0) {
        if (g->waiting)
            dlog(DLOG_INFO, "the store has space again: %d waiting events acknowledged", g->n);
        g->waiting = 0;
        g->d->disk_full = 0;
        g->d->store_error[0] = 0;
        note_suspects(g);
        send_batch(g);
        return 0;
    }
    if (rc > 0) {
        g->waiting = 1;
        return 0;
    }
    return -1;
}

int ingest_turn(ingest *g)
{
    if (g->waiting)
        return ingest_retry(g);
    read_batch(g);
    if (!g->n)
        return 0;
    return finish_batch(g, commit_batch(g));
}

int ingest_retry(ingest *g)
{
    return g->waiting ? finish_batch(g, commit_batch(g)) : 0;
}

int ingest_judge(ingest *g, MDB_txn *txn, const void *bytes, size_t len, char **reply, size_t *rlen)
{
    item it;
    int rc;
    memset(&it, 0, sizeof it);
    zmq_msg_init_size(&it.ident, 5);
    memcpy(zmq_msg_data(&it.ident), "\0fuzz", 5);
    if (zmq_msg_init_size(&it.body, len))
        return -ENOMEM;
    memcpy(zmq_msg_data(&it.body), bytes, len);
    it.frames = 1;
    rc = handle(g, txn, &it);
    *reply = it.reply;
    *rlen = it.reply_len;
    it.reply = NULL;
    item_clear(&it, 1);
    return rc;
}
