/* query.c -- the query socket (query.h).
 *
 * Each op is a function of (daemon, request, who) -> reply, found in one
 * table, ops[], with the role it needs; the dispatcher checks the role and
 * opens the read transaction, so an op only reads.  Read transactions are
 * LMDB snapshots: queries never block the batch that writes, and keep
 * being answered while the disk is full.
 */
#include <errno.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/core/dlog.h"
#include "src/core/verify.h"
#include "src/core/view.h"
#include "src/daemon/query.h"
#include "src/daemon/standings.h"
#include "src/record/record.h"
#include "src/record/seal.h"
#include "src/tournament/tournament.h"

/* A request being answered: who asks, and the snapshot it reads. */
typedef struct {
    daemon_ctx *d;
    json_t *req;
    const gate_peer *who;
    MDB_txn *txn;
    const char *match;
    const reply_route *to;      /* where a reply that waits goes: NULL, none */
    int deferred;                   /* the reply waits for the standings worker  */
    int broadcast;                  /* the view "broadcast": the judge's, of the
                                       events the broadcast has let out only */
} ask;

/* ---- who may see what (arbiterd(8), KEYS AND ROLES) ----------------------- */

/* The owner's key of a stored match, "" when anonymous or unknown. */
static void owner_of(ask *a, char out[KEYS_Z85 + 1])
{
    record_info info;
    out[0] = 0;
    if (a->match && !record_read(a->d->st, a->txn, a->match, &info))
        snprintf(out, KEYS_Z85 + 1, "%s", info.owner_key);
}

/* The view asked for ("view", default public), if `who` may see it:
 * 0, or -1 with the refusal in *fail. */
static int want_view(ask *a, view_kind *view, json_t **fail)
{
    const char *name = json_string_value(json_object_get(a->req, "view"));
    char owner[KEYS_Z85 + 1];
    if (!name)
        name = "public";
    /* the broadcast's view (arbiterd(8), BROADCAST): the judge's, of the
     * events older than --broadcast-delay only; for broadcast keys and
     * judges */
    if (!strcmp(name, "broadcast")) {
        if (!a->d->bcast) {
            *fail = reply_error("This daemon has no broadcast (--broadcast-delay): no view \"broadcast\".");
            return -1;
        }
        if (a->who->role != KEYS_BROADCAST && a->who->role != KEYS_JUDGE) {
            *fail = reply_error("The broadcast view is for broadcast keys and judges; %s has the role %s.",
                                a->who->name ? a->who->name : "this client", keys_role_name(a->who->role));
            return -1;
        }
        *view = VIEW_JUDGE;
        a->broadcast = 1;
        return 0;
    }
    if (view_parse(name, view)) {
        *fail = reply_error("Unknown view \"%s\": public, judge, broadcast, or a player's, p1 to p8.", name);
        return -1;
    }
    /* a seat's view of a stored match that has no such seat (p3 of a duel) */
    olevent *h = NULL;
    char why[128];
    if (view_seat(*view) >= 0 && a->match && !record_header(a->d->st, a->txn, a->match, &h)) {
        int fits = view_in_match(*view, h->header.n_players, why, sizeof why);
        olevent_destroy(&h);
        if (!fits) {
            *fail = reply_error("%s", why);
            return -1;
        }
    }
    if (*view == VIEW_PUBLIC || a->who->role == KEYS_JUDGE)
        return 0;
    if (*view != VIEW_JUDGE && a->who->role == KEYS_TABLE && a->who->z85) {
        owner_of(a, owner);
        if (owner[0] && !strcmp(owner, a->who->z85))
            return 0;
    }
    if (a->who->anonymous)
        *fail = reply_error("The %s view is for judges; anonymous clients of a daemon reachable from the network see "
                        "the public view only.", name);
    else
        *fail = reply_error("The %s view of match %s is not for %s (role %s): %s.", name, a->match ? a->match : "?",
                        a->who->name, keys_role_name(a->who->role),
                        *view == VIEW_JUDGE ? "only judges see it" : "a table sees the players' views of its own matches only");
    return -1;
}

/* ---- the ops --------------------------------------------------------------- */


/* --replicate's shipper, as arbiterd(8) REPLICATION lists it; null without. */
static json_t *replication_health(replica *r)
{
    replica_status st;
    if (!r)
        return json_null();
    replica_status_get(r, &st);
    /* "I?" takes no NULL: the optional times go as objects */
    return json_pack("{s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:I, s:s?, s:o?, s:o?}", "to", st.target,
                     "venue", st.venue, "connected", st.connected, "shipped_events", (json_int_t)st.shipped_events,
                     "shipments", (json_int_t)st.shipments, "conflicts", (json_int_t)st.conflicts,
                     "backlog_matches", (json_int_t)st.backlog_matches, "backlog_events",
                     (json_int_t)st.backlog_events, "backlog_more", st.backlog_more, "lag_ms", (json_int_t)st.lag_ms,
                     "confirmations_waiting", (json_int_t)st.acks_waiting, "last_error",
                     st.last_error[0] ? st.last_error : NULL, "last_error_ms",
                     st.last_error_ms ? json_integer((json_int_t)st.last_error_ms) : NULL, "last_shipment_ms",
                     st.last_shipment_ms ? json_integer((json_int_t)st.last_shipment_ms) : NULL);
}

static json_t *op_health(ask *a)
{
    daemon_ctx *d = a->d;
    const daemon_stats *s = &d->stats;
    json_t *conns = json_object(), *limits = json_object(), *shaking = json_object(), *shares = json_object();
    json_t *refusing = json_object(), *evicted = json_object(), *refused = json_object(), *peers = json_object();
    for (int i = 0; d->gate && i < GATE_DOORS; i++) {
        gate_door door = (gate_door)i;
        if (door == GATE_BROADCAST && !d->bcast)
            continue;   /* no such socket */
        const char *name = gate_door_name(door);
        json_object_set_new(conns, name, json_integer((json_int_t)gate_open(d->gate, door)));
        json_object_set_new(shaking, name, json_integer((json_int_t)gate_handshaking(d->gate, door)));
        json_object_set_new(limits, name, json_integer(gate_cap(d->gate, door)));
        json_object_set_new(shares, name, json_integer(gate_share(d->gate, door)));
        json_object_set_new(refusing, name, json_integer((json_int_t)gate_refusing(d->gate, door)));
        json_object_set_new(evicted, name, json_integer((json_int_t)gate_evicted(d->gate, door)));
        json_object_set_new(refused, name, json_integer((json_int_t)gate_refused(d->gate, door)));
        json_object_set_new(peers, name, json_integer((json_int_t)gate_peers(d->gate, door)));
    }
    json_object_set_new(limits, "peer_connections", shares);
    json_object_set_new(limits, "peer_matches", json_integer((json_int_t)d->peer_matches));
    /* the door's times (arbiterd(8) LIMITS) */
    json_object_set_new(limits, "handshake_ms", json_integer(GATE_HANDSHAKE_MS));
    json_object_set_new(limits, "heartbeat_ms", json_integer(GATE_HEARTBEAT_MS));
    json_object_set_new(limits, "heartbeat_timeout_ms", json_integer(GATE_HEARTBEAT_TIMEOUT_MS));
    json_object_set_new(limits, "quiet_new_ms", json_integer(GATE_QUIET_NEW_MS));
    json_object_set_new(limits, "quiet_idle_ms", json_integer(GATE_QUIET_IDLE_MS));
    json_object_set_new(limits, "peer_left_ms", json_integer(GATE_LEFT_MS));
    json_object_set_new(limits, "matches", json_integer((json_int_t)d->max_matches));
    json_object_set_new(limits, "quarantine", json_integer((json_int_t)quarantine_max(d->quar)));
    json_object_set_new(limits, "standings_waiting", json_integer(STANDINGS_WAITING));
    json_t *o = json_pack("{s:b, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "ok", 1, "status",
                          d->disk_full ? "disk full" : "serving", "live_matches", (json_int_t)live_count(d->live),
                          "events_stored", (json_int_t)s->events_stored, "batches", (json_int_t)s->batches,
                          "quarantined", (json_int_t)quarantine_kept(d->quar), "uptime_ms",
                          (json_int_t)(daemon_now_ms() - d->started_ms), "batch_max", (json_int_t)s->batch_max,
                          "judge_us_total", (json_int_t)s->judge_us, "commit_us_total", (json_int_t)s->commit_us,
                          "commit_us_max", (json_int_t)s->commit_us_max, "feed_subscriptions",
                          (json_int_t)(d->feed ? feed_subscriptions(d->feed) : 0), "quarantine_dropped",
                          (json_int_t)quarantine_dropped(d->quar));
    if (!o)
        return NULL;
    json_object_set_new(o, "seal_us_total", json_integer((json_int_t)s->seal_us));
    json_object_set_new(o, "seals", json_integer((json_int_t)s->seals));
    json_object_set_new(o, "replies_dropped", json_integer((json_int_t)(s->replies_dropped + s->query_replies_dropped)));
    json_object_set_new(o, "refused", json_pack("{s:I, s:I, s:I, s:I, s:I}", "owner", (json_int_t)s->refused_owner,
                                                "key", (json_int_t)s->refused_key, "limits",
                                                (json_int_t)s->refused_limits, "record", (json_int_t)s->refused_record,
                                                "table", (json_int_t)s->refused_table));
    json_object_set_new(o, "damaged_matches", json_integer((json_int_t)live_damaged(d->live)));
    json_object_set_new(o, "evicted", json_integer((json_int_t)s->evicted));
    json_object_set_new(o, "connections", conns);
    json_object_set_new(o, "handshaking", shaking);
    /* connections let in only to be told they are refused, closed to make
     * room, refused in all; peers holding connections (arbiterd(8) LIMITS) */
    json_object_set_new(o, "refusing", refusing);
    json_object_set_new(o, "connections_closed_for_room", evicted);
    json_object_set_new(o, "connections_refused", refused);
    json_object_set_new(o, "peers", peers);
    json_object_set_new(o, "released", json_integer((json_int_t)s->released));
    json_object_set_new(o, "limits", limits);
    json_object_set_new(o, "curve", json_boolean(d->gate && gate_curve(d->gate)));
    long keys = d->gate ? gate_keys(d->gate) : -1;
    json_object_set_new(o, "keys", keys < 0 ? json_null() : json_integer(keys));
    json_object_set_new(o, "reloads", json_integer((json_int_t)s->reloads));
    json_object_set_new(o, "standings", standings_health(d->stand));
    json_object_set_new(o, "replication", replication_health(d->replica));
    /* --broadcast-delay's (arbiterd(8), BROADCAST); null without */
    json_object_set_new(o, "broadcast",
                        d->bcast ? json_pack("{s:I, s:I, s:I, s:I, s:I}", "delay_ms",
                                             (json_int_t)broadcast_delay_ms(d->bcast), "pending",
                                             (json_int_t)broadcast_pending(d->bcast), "sent",
                                             (json_int_t)broadcast_sent(d->bcast), "dropped",
                                             (json_int_t)broadcast_dropped(d->bcast), "subscriptions",
                                             (json_int_t)broadcast_subscriptions(d->bcast))
                                 : json_null());
    char key[65];
    sodium_bin2hex(key, sizeof key, d->key.sign_public, 32);
    json_object_set_new(o, "seal_key", json_string(key));
    /* whose seals count: configuration (the daemon's key, --trusted-seals),
     * what an audit over this socket checks a seal against */
    json_t *trusted = json_array(), *damaged = json_array();
    for (size_t i = 0; trusted && i < d->trust.n; i++) {
        sodium_bin2hex(key, sizeof key, d->trust.keys[i], 32);
        json_array_append_new(trusted, json_pack("{s:s, s:s?}", "key", key, "name",
                                                 d->trust.names[i][0] ? d->trust.names[i] : NULL));
    }
    json_object_set_new(o, "trusted_seals", trusted ? trusted : json_null());
    for (size_t i = 0; damaged && i < d->n_damaged_shown; i++)
        json_array_append_new(damaged, json_pack("{s:s, s:s}", "match", d->damaged[i].match, "why", d->damaged[i].why));
    json_object_set_new(o, "damaged", damaged ? damaged : json_null());
    if (d->store_error[0])
        json_object_set_new(o, "store_error", json_string(d->store_error));
    return o;
}

static json_t *op_verify(ask *a)
{
    json_t *log = json_object_get(a->req, "log"), *e;
    verify_session *s = NULL;
    size_t i;
    if (!json_is_array(log))
        return reply_error("verify needs \"log\": an array of events.");
    if (json_array_size(log) > QUERY_VERIFY_MAX)
        return reply_error("verify takes at most %d events (a match is a few hundred).", QUERY_VERIFY_MAX);
    const char *named = json_string_value(json_object_get(json_array_get(log, 0), "cards"));
    if (verify_session_new(cardset_named(a->d->cards, named), "query", &s) != VERIFY_OK)
        return reply_error("Out of memory.");
    json_array_foreach(log, i, e) {
        char *text = json_dumps(e, JSON_COMPACT);
        olevent *ev = NULL;
        const verify_entry *out;
        if (text && olcodec_decode_message(text, strlen(text), &ev, NULL) == OL_OK)
            verify_session_event(s, ev, text, strlen(text), &out);
        olevent_destroy(&ev);
        free(text);
    }
    verify_session_end(s);   /* a whole log, judged as arbiter verify judges a file */
    json_t *rep = verify_report_json(verify_session_report(s));
    verify_session_destroy(&s);
    return json_pack("{s:b, s:o?}", "ok", 1, "report", rep);
}

static json_t *op_cards(ask *a)
{
    const char *hash = json_string_value(json_object_get(a->req, "hash"));
    const void *bytes;
    size_t n;
    if (!hash)
        return reply_error("The op \"cards\" needs \"hash\": a card database's BLAKE2b-256, in hex.");
    if (store_get_cards(a->d->st, a->txn, hash, &bytes, &n))
        return reply_error("No card database with hash %s is stored.", hash);
    return json_pack("{s:b, s:s%}", "ok", 1, "cards", (const char *)bytes, n);
}

/* A page size from "limit": 1..QUERY_PAGE, default QUERY_PAGE. */
static size_t page_of(json_t *req)
{
    json_t *l = json_object_get(req, "limit");
    json_int_t n = json_is_integer(l) ? json_integer_value(l) : QUERY_PAGE;
    return n < 1 ? 1 : n > QUERY_PAGE ? QUERY_PAGE : (size_t)n;
}

/* 1 when a page already holds `limit` items or about QUERY_PAGE_BYTES
 * (never before its first item: every page moves on). */
static int page_full(const json_t *list, size_t limit, size_t bytes)
{
    size_t n = json_array_size(list);
    return n == limit || (n && bytes >= QUERY_PAGE_BYTES);
}

typedef struct {
    json_t *list;
    const char *tournament, *status, *after;
    size_t limit, bytes, scanned;
    char next[OL_MATCH_MAX + 1];
    int more;
} list_ctx;

static int list_one(void *ctx, const char *match, const char *json, size_t len)
{
    list_ctx *c = ctx;
    if (c->after && strcmp(match, c->after) <= 0)
        return 0;
    /* a filter that matches little must not read the whole store in one
     * turn of the loop: a page may end short, `next` says where to go on */
    if (c->scanned++ == QUERY_LIST_SCAN) {
        c->more = 1;
        return 1;
    }
    json_t *o = json_loadb(json, len, 0, NULL);
    const char *t = json_string_value(json_object_get(o, "tournament"));
    const char *s = json_string_value(json_object_get(o, "status"));
    if (o && !(c->tournament && (!t || strcmp(t, c->tournament))) && !(c->status && (!s || strcmp(s, c->status)))) {
        if (page_full(c->list, c->limit, c->bytes)) {
            json_decref(o);
            c->more = 1;
            return 1;   /* stop: a page is full and there is more */
        }
        c->bytes += len;
        json_array_append_new(c->list, o);
        o = NULL;
    }
    json_decref(o);
    snprintf(c->next, sizeof c->next, "%s", match);   /* handled: the next page starts after it */
    return 0;
}

static json_t *op_list(ask *a)
{
    list_ctx c = {json_array(), json_string_value(json_object_get(a->req, "tournament")),
                  json_string_value(json_object_get(a->req, "status")),
                  json_string_value(json_object_get(a->req, "after")), page_of(a->req), 0, 0, "", 0};
    snprintf(c.next, sizeof c.next, "%s", c.after ? c.after : "");
    int rc = store_each_match(a->d->st, a->txn, list_one, &c);
    if (rc && rc != 1) {
        json_decref(c.list);
        return reply_error("The store cannot be read.");
    }
    return json_pack("{s:b, s:o, s:o}", "ok", 1, "matches", c.list, "next", c.more ? json_string(c.next) : json_null());
}

/* The seal of the match, as public facts: events, head, signer; `raw`
 * (the stored seal and summary bytes) for a judge's own check. */
static json_t *seal_json(ask *a, const char *summary, size_t slen, int judge)
{
    const void *bytes;
    size_t len;
    seal s;
    char head[SEAL_HEAD_TEXT], signer[65];
    if (record_seal_read(a->d->st, a->txn, a->match, &s, &bytes, &len))
        return json_null();
    seal_head(&s, a->match, head);
    sodium_bin2hex(signer, sizeof signer, s.signer, 32);
    json_t *o = json_pack("{s:I, s:s, s:s, s:b}", "events", (json_int_t)s.events, "head", head, "signer", signer,
                          "signature_ok", seal_signature_ok(&s, a->match));
    if (o && judge) {
        char *hex = malloc(2 * len + 1);
        if (hex) {
            sodium_bin2hex(hex, 2 * len + 1, bytes, len);
            json_object_set_new(o, "raw", json_string(hex));
            free(hex);
        }
        json_object_set_new(o, "summary_raw", json_stringn(summary, slen));
    }
    return o;
}

/* The view "broadcast": how many of the match's events are out (seqs
 * below it). */
static uint64_t broadcast_out(ask *a)
{
    uint64_t stored = 0;
    if (store_next_seq(a->d->st, a->txn, a->match, &stored))
        return 0;
    return broadcast_released(a->d->bcast, a->match, stored);
}

static json_t *op_match(ask *a)
{
    record_info info;
    json_t *fail = NULL, *header = NULL;
    olevent *h = NULL;
    view_kind view;
    if (want_view(a, &view, &fail))
        return fail;
    if (record_read(a->d->st, a->txn, a->match, &info) == MDB_NOTFOUND)
        return reply_error("No match %s is stored.", a->match);
    const char *s = info.summary;
    size_t n = info.summary_len;
    /* the header is the record's seq 0, shown in the view asked for (the
     * broadcast's: once it is out) */
    if ((!a->broadcast || broadcast_out(a)) && !record_header(a->d->st, a->txn, a->match, &h))
        header = view_event_json(h, view, h);
    olevent_destroy(&h);
    return json_pack("{s:b, s:o?, s:o?, s:o?}", "ok", 1, "match", json_loadb(s, n, 0, NULL), "header", header, "seal",
                     seal_json(a, s, n, view == VIEW_JUDGE));
}

typedef struct {
    json_t *list;
    view_kind view;
    olevent *header;               /* the match's, for the views of its events */
    const cards *db;               /* its card database, for the sentences'   */
    size_t limit, bytes;
    int64_t next;
} events_ctx;

static json_t *event_item(const store_event *e, view_kind view, const olevent *header, const cards *db)
{
    olevent *ev = NULL;
    json_t *ej = NULL, *vj = NULL;
    char chain[65], state[65], link[65];
    if (olcodec_decode_message(e->event, e->event_len, &ev, NULL) == OL_OK)
        ej = view_event_json(ev, view, header);
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &vj, NULL) != OL_OK)
        vj = NULL;
    /* the sentence in the view too: it may name a card the event hides */
    if (vj && view_verdict_redact(vj, ev, view, header, db) < 0) {
        json_decref(vj);
        vj = NULL;
    }
    olevent_destroy(&ev);
    sodium_bin2hex(chain, sizeof chain, e->chain, STORE_HASH);
    sodium_bin2hex(state, sizeof state, e->state, STORE_HASH);
    sodium_bin2hex(link, sizeof link, e->link, STORE_HASH);
    const char *at = strchr(e->peer, '@');
    json_t *o = json_pack("{s:I, s:o?, s:o?, s:I, s:s, s:o}", "seq", (json_int_t)e->seq, "event", ej, "verdict", vj,
                          "received", (json_int_t)e->received_ms, "peer", e->peer, "key",
                          at ? json_stringn(e->peer, (size_t)(at - e->peer)) : json_null());
    if (o && view == VIEW_JUDGE) {
        /* The hashes and the bytes as stored, so that an audit over the
         * socket can check the chain and the links itself (arbiter-records(5)).
         * Judges only: the hashes cover the hidden cards, and one card of
         * a hundred is found by trying each against h(n-1) and the
         * verdict. */
        json_object_set_new(o, "chain", json_string(chain));
        json_object_set_new(o, "state", json_string(state));
        json_object_set_new(o, "link", e->has_link ? json_string(link) : json_null());
        char *ev_hex = malloc(2 * e->event_len + 1), *v_hex = malloc(2 * e->verdict_len + 1);
        if (ev_hex && v_hex) {
            sodium_bin2hex(ev_hex, 2 * e->event_len + 1, e->event, e->event_len);
            sodium_bin2hex(v_hex, 2 * e->verdict_len + 1, e->verdict, e->verdict_len);
            json_object_set_new(o, "raw", json_pack("{s:s, s:s}", "event", ev_hex, "verdict", v_hex));
        }
        free(ev_hex);
        free(v_hex);
    }
    return o;
}

static int events_one(void *ctx, const store_event *e)
{
    events_ctx *c = ctx;
    if (page_full(c->list, c->limit, c->bytes)) {
        c->next = (int64_t)e->seq;
        return 1;
    }
    /* the event as JSON, its raw bytes and the verdict's in hex, the hashes */
    c->bytes += 3 * (e->event_len + e->verdict_len) + 512;
    json_t *o = event_item(e, c->view, c->header, c->db);
    return !o || json_array_append_new(c->list, o) ? -ENOMEM : 0;
}

/* The card database a stored match pins, to name the cards of its
 * sentences; NULL when it cannot be had. */
static const cards *match_cards(ask *a)
{
    record_info info;
    char why[256];
    if (record_read(a->d->st, a->txn, a->match, &info))
        return NULL;
    return record_cards(a->d->cards, a->d->st, a->txn, &info, why, sizeof why);
}

static json_t *op_events(ask *a)
{
    json_t *fail = NULL, *f = json_object_get(a->req, "from"), *t = json_object_get(a->req, "to");
    events_ctx c = {json_array(), VIEW_PUBLIC, NULL, NULL, page_of(a->req), 0, -1};
    if (want_view(a, &c.view, &fail)) {
        json_decref(c.list);
        return fail;
    }
    record_header(a->d->st, a->txn, a->match, &c.header);
    if (c.view != VIEW_JUDGE)
        c.db = match_cards(a);
    uint64_t to = json_is_integer(t) ? (uint64_t)json_integer_value(t) : UINT64_MAX;
    int rc = 0;
    if (a->broadcast) {   /* the events the broadcast has let out only */
        uint64_t out = broadcast_out(a);
        if (!out)
            rc = 1;
        else if (to > out - 1)
            to = out - 1;
    }
    if (!rc)
        rc = record_each_event(a->d->st, a->txn, a->match, json_is_integer(f) ? (uint64_t)json_integer_value(f) : 0,
                               to, events_one, &c);
    olevent_destroy(&c.header);
    if (rc && rc != 1) {
        json_decref(c.list);
        return reply_error("The events of match %s cannot be read.", a->match);
    }
    return json_pack("{s:b, s:o, s:o}", "ok", 1, "events", c.list, "next", c.next >= 0 ? json_integer(c.next) : json_null());
}

static json_t *op_state(ask *a)
{
    json_t *fail = NULL, *at = json_object_get(a->req, "at"), *out;
    verify_session *sess = NULL;
    record_info info;
    const cards *db;
    view_kind view;
    char why[256];
    int rc;
    if (want_view(a, &view, &fail))
        return fail;
    if (record_read(a->d->st, a->txn, a->match, &info) == MDB_NOTFOUND)
        return reply_error("No match %s is stored.", a->match);
    if (!(db = record_cards(a->d->cards, a->d->st, a->txn, &info, why, sizeof why)))
        return reply_error("Match %s cannot be replayed from the store: %s.", a->match, why);
    if (verify_session_new(db, a->match, &sess) != VERIFY_OK || verify_session_lean(sess) != VERIFY_OK) {
        verify_session_destroy(&sess);
        return reply_error("Out of memory.");
    }
    uint64_t until = json_is_integer(at) ? (uint64_t)json_integer_value(at) : UINT64_MAX;
    if (a->broadcast) {   /* the board after the last event let out, at most */
        uint64_t released = broadcast_out(a);
        if (!released) {
            verify_session_destroy(&sess);
            return reply_error("No event of match %s is older than the broadcast's delay yet.", a->match);
        }
        if (until > released - 1)
            until = released - 1;
    }
    rc = record_replay(a->d->st, a->txn, a->match, until, sess, NULL, NULL);
    if (rc)
        out = reply_error("Match %s cannot be replayed from the store: %s.", a->match,
                          rc == -EINVAL ? "an event record does not parse" : "the store cannot be read");
    else if (!verify_session_verifier(sess))
        out = reply_error("Match %s has no engine state.", a->match);
    else
        out = json_pack("{s:b, s:I, s:o?}", "ok", 1, "seq", (json_int_t)verify_session_next_seq(sess) - 1, "state",
                        view_board_json(verify_session_verifier(sess), view));
    verify_session_destroy(&sess);
    return out;
}

typedef struct {
    json_t *list;
    size_t limit, bytes;
    int64_t next;
} quarantine_ctx;

static int quarantine_one(void *ctx, uint64_t counter, const char *json, size_t len)
{
    quarantine_ctx *c = ctx;
    if (page_full(c->list, c->limit, c->bytes)) {
        c->next = (int64_t)counter;
        return 1;
    }
    c->bytes += len;
    json_t *o = json_loadb(json, len, 0, NULL);
    if (o)
        json_object_set_new(o, "n", json_integer((json_int_t)counter));
    return o && !json_array_append_new(c->list, o) ? 0 : -ENOMEM;
}

static json_t *op_quarantine(ask *a)
{
    json_t *f = json_object_get(a->req, "from");
    quarantine_ctx c = {json_array(), page_of(a->req), 0, -1};
    int rc = store_each_quarantine(a->d->st, a->txn, json_is_integer(f) ? (uint64_t)json_integer_value(f) : 0,
                                   quarantine_one, &c);
    if (rc && rc != 1) {
        json_decref(c.list);
        return reply_error("The quarantine cannot be read.");
    }
    return json_pack("{s:b, s:o, s:o, s:I, s:I}", "ok", 1, "entries", c.list, "next",
                     c.next >= 0 ? json_integer(c.next) : json_null(), "kept", (json_int_t)quarantine_kept(a->d->quar),
                     "dropped", (json_int_t)quarantine_dropped(a->d->quar));
}

/* The standings of a tournament given with --tournament, from its stored
 * records, each judged again (as `arbiter tournament standings --db`
 * does: the same standings JSON byte for byte).  Standings name no hidden
 * card (T45), so whoever may query may ask.  The request is checked here;
 * the worker computes it (standings.h), or the cache answers at once. */
static json_t *op_standings(ask *a)
{
    const char *id = json_string_value(json_object_get(a->req, "tournament"));
    json_t *after_j = json_object_get(a->req, "after"), *now = NULL;
    const tournament *t = daemon_tournament(a->d, id);
    int final = json_is_true(json_object_get(a->req, "final"));

    if (!id)
        return reply_error("The op \"standings\" needs \"tournament\": the id of a tournament arbiterd was given "
                       "with --tournament.");
    if (!t)
        return reply_error("No tournament \"%.256s\" is known to this daemon (arbiterd --tournament FILE).", id);
    const tour_structure *st = tournament_structure(t);
    uint32_t published = tournament_rounds_published(t);
    uint32_t after = published < st->swiss_rounds ? published : st->swiss_rounds;
    if (after_j && (!json_is_integer(after_j) || json_integer_value(after_j) < 1 ||
                    json_integer_value(after_j) > TOUR_ROUNDS_MAX || final))
        return reply_error("\"after\" is a Swiss round from 1 to %d, and goes without \"final\".", TOUR_ROUNDS_MAX);
    if (after_j)
        after = (uint32_t)json_integer_value(after_j);
    else if (!final && !after && st->swiss_rounds)
        return reply_error("No round of %s is published yet: no standings.", id);
    if (!a->d->stand || !a->to)   /* no worker: a fuzz target, the unit tests */
        return standings_compute(a->d->st, a->txn, t, after, final);
    if (standings_request(a->d->stand, a->d->tour_gen, t, after, final, a->to, &now))
        return now;
    a->deferred = 1;   /* standings_serve sends it */
    return NULL;
}

/* The ops: name, whether it needs "match", whether only a judge may ask,
 * whether it reads the store. */
typedef struct {
    const char *name;
    json_t *(*run)(ask *a);
    int needs_match, judge_only, reads;
} op;

static const op ops[] = {
    {"health", op_health, 0, 0, 0},
    {"match", op_match, 1, 0, 1},
    {"events", op_events, 1, 0, 1},
    {"state", op_state, 1, 0, 1},
    {"verify", op_verify, 0, 0, 0},
    {"list", op_list, 0, 0, 1},
    {"cards", op_cards, 0, 0, 1},
    {"quarantine", op_quarantine, 0, 1, 1},
    {"standings", op_standings, 0, 0, 1},
};

/* The reply to req, or NULL when it waits for the standings worker
 * (*deferred set; only with `to`). */
static json_t *answer(daemon_ctx *d, json_t *req, const gate_peer *who, const reply_route *to, int *deferred)
{
    const char *name = json_string_value(json_object_get(req, "op"));
    const op *o = NULL;
    json_t *out;
    ask a = {d, req, who, NULL, json_string_value(json_object_get(req, "match")), to, 0, 0};

    *deferred = 0;
    if (!name)
        return reply_error("A query is a map with \"op\".");
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(name, ops[i].name))
            o = &ops[i];
    if (!o)
        return reply_error("Unknown op \"%s\": health, match, events, state, verify, list, cards, quarantine, standings.", name);
    if (o->judge_only && who->role != KEYS_JUDGE)
        return reply_error("The op \"%s\" is for judges.", name);
    if (o->needs_match && !a.match)
        return reply_error("The op \"%s\" needs \"match\": the id of a stored match.", name);
    if (o->reads && mdb_txn_begin(store_env(d->st), NULL, MDB_RDONLY, &a.txn))
        return reply_error("The store cannot be read.");
    out = o->run(&a);
    if (a.txn)
        mdb_txn_abort(a.txn);
    *deferred = !out && a.deferred;
    return out || *deferred ? out : reply_error("Out of memory.");
}

json_t *query_answer(daemon_ctx *d, json_t *req, const gate_peer *who)
{
    int deferred;
    return answer(d, req, who, NULL, &deferred);
}

/* ---- the socket ---------------------------------------------------------------- */

int query_setup(void *sock)
{
    int one = 1, zero = 0, hwm = QUERY_SNDHWM, rcv = QUERY_RCVHWM;
    int64_t max = QUERY_REQUEST_MAX;
    return zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero) ||
                   zmq_setsockopt(sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one) ||
                   zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max) ||
                   zmq_setsockopt(sock, ZMQ_SNDHWM, &hwm, sizeof hwm) ||
                   zmq_setsockopt(sock, ZMQ_RCVHWM, &rcv, sizeof rcv)
               ? -1
               : 0;
}

/* The request frame of a message: [""] [request] (a REQ socket) or
 * [request]; frames: how many came after the identity.  NULL when the
 * reply waits for the standings worker (it goes to *to). */
static json_t *read_request(daemon_ctx *d, zmq_msg_t *f, int frames, reply_route *to, gate_peer *who)
{
    zmq_msg_t *body = frames == 2 && zmq_msg_size(&f[0]) == 0 ? &f[1] : &f[0];
    const char *buf = zmq_msg_data(body);
    size_t len = zmq_msg_size(body);
    json_t *req = NULL;
    int deferred;
    to->as_json = len && buf[0] == '{';
    if (daemon_who(d, body, who))
        return reply_error("This connection's key is no longer in the daemon's keyring.");
    if (who->refused) {   /* let in only to be told why (gate.h) */
        char why[512];
        gate_refusal(d->gate, GATE_QUERY, who, why, sizeof why);
        return reply_error("%s", why);
    }
    if (frames > 2 || (frames == 2 && zmq_msg_size(&f[0])))
        return reply_error("A query is one frame (after a REQ socket's empty delimiter): this message has %d.", frames);
    if (to->as_json)
        req = json_loadb(buf, len, 0, NULL);
    else if (olcodec_msgpack_to_json_max((const uint8_t *)buf, len, QUERY_REQUEST_MAX, (ol_origin){0, 0}, &req,
                                         NULL) != OL_OK)
        req = NULL;
    if (!json_is_object(req)) {
        json_decref(req);
        return reply_error("A query is one map, in MessagePack or JSON.");
    }
    json_t *rep = answer(d, req, who, to, &deferred);
    json_decref(req);
    return rep;
}

int query_serve(daemon_ctx *d, void *sock)
{
    zmq_msg_t ident, f[3];
    int frames = 0, more;
    gate_peer who;
    reply_route to;

    zmq_msg_init(&ident);
    if (zmq_msg_recv(&ident, sock, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&ident);
        return 0;
    }
    if (!(more = zmq_msg_more(&ident))) {
        zmq_msg_close(&ident);
        return 1;
    }
    while (more) {   /* the parts of a message arrive together */
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            break;
        }
        more = zmq_msg_more(&m);
        if (frames < 3)
            f[frames] = m;
        else
            zmq_msg_close(&m);
        frames++;
    }
    memset(&to, 0, sizeof to);
    to.as_json = 1;
    to.ident_len = zmq_msg_size(&ident) < sizeof to.ident ? zmq_msg_size(&ident) : sizeof to.ident;
    memcpy(to.ident, zmq_msg_data(&ident), to.ident_len);   /* ZMTP: at most 255 bytes */
    to.delimiter = frames == 2 && zmq_msg_size(&f[0]) == 0;
    json_t *rep = frames ? read_request(d, f, frames, &to, &who) : NULL;
    if (rep)
        reply_send(sock, &to, rep, &d->stats.query_replies_dropped);
    if (frames && d->gate)
        gate_heard(d->gate, GATE_QUERY, &who, !who.refused);
    json_decref(rep);
    for (int i = 0; i < frames && i < 3; i++)
        zmq_msg_close(&f[i]);
    zmq_msg_close(&ident);
    return 1;
}
