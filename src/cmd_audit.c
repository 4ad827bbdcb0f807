/* cmd_audit.c -- `arbiter audit` and `arbiter list`: a judge reads the store.
 *
 * What: `audit MATCH` prints a stored match's timeline -- every event with
 * who announced it, its verdict and rule -- checks the record's hash chain
 * (openlog.md 10) link by link, judges the stored events again and says
 * whether every verdict and every board comes out as stored, and with
 * --at SEQ draws the board after that event (judge view by default).
 * `list` prints one line per stored match.  Both read either the store
 * itself (--db DIR) or a running daemon's query socket (--query EP).
 *
 * Why read-only LMDB: a judge audits while the daemon keeps writing.  An
 * LMDB read transaction is a snapshot that never blocks the writer, so
 * --db opens the store MDB_RDONLY beside the running daemon and sees each
 * match as of its last commit.  --query asks the daemon for the same
 * bytes (the `events` op in the judge view carries them), for a judge who
 * is not on the daemon's machine.
 *
 * How the record is checked, three ways, event by event:
 *   - the chain: h(n) is recomputed from h(n-1) and the stored event and
 *     verdict bytes; the first link that differs names the first event
 *     that was altered (or whose verdict was);
 *   - the verdicts: each stored event is judged again by the same session
 *     the daemon uses (src/verify.h), with the card database the record
 *     pins (stored by its hash), and the verdict's bytes are compared;
 *   - the boards: the judge-view state hash after each event is compared
 *     with the one stored beside it.
 * A record that passes all three is the record the daemon made; one that
 * fails says where it stopped being so.  --cards FILE judges again with
 * another database instead: the differences are then what that database
 * would decide differently.
 */
#include <errno.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/carddb.h"
#include "src/cli.h"
#include "src/store.h"
#include "src/verify.h"
#include "src/view.h"

#define QUERY_TIMEOUT_MS 5000

static const char audit_usage[] =
    "usage: arbiter audit MATCH (--db DIR | --query EP) [--at SEQ] [--view V] [--against DIR|EP]\n"
    "                     [--cards FILE] [--json]\n"
    "\n"
    "The stored record of one match: every event with its verdict, the check of\n"
    "its hash chain (openlog.md 10), the record judged again (verdicts and boards\n"
    "as stored?), and with --at the board after that event.\n"
    "\n"
    "  --db DIR      read the store itself, read-only (beside a running arbiterd)\n"
    "  --query EP    ask a running arbiterd on its query socket instead\n"
    "  --at SEQ      draw the board after event SEQ\n"
    "  --view V      who looks at that board: judge (default), p1, p2, public\n"
    "  --against SRC another record of the same match (a store DIR, or a daemon's\n"
    "                query EP with ://): the first event where the two differ\n"
    "                (openlog.md 10: the hash chains part there)\n"
    "  --cards FILE  judge again with this card database instead of the one the\n"
    "                record pins: differences are what it would decide otherwise\n"
    "  --json        one JSON object (README.md, `arbiter audit`)\n"
    "\n"
    "exit: 0 the chain holds, the record judges again as stored and every verdict\n"
    "is ok or warning; 1 otherwise; 2 bad usage or no such match or store;\n"
    "3 internal error.\n";

static const char list_usage[] =
    "usage: arbiter list (--db DIR | --query EP) [--tournament T] [--status legal|illegal] [--json]\n"
    "\n"
    "One line per stored match: id, status, finished or live, winner, events,\n"
    "rounds.  --json prints each match's stored summary, one per line.\n";

typedef struct {
    const char *match, *db, *query, *cards, *tournament, *status;
    const char *against;          /* another record of the match: DIR or EP */
    uint64_t at;
    int has_at, json;
    view_kind view;
} audit_opts;

static int parse(int argc, char **argv, audit_opts *o, int is_audit)
{
    memset(o, 0, sizeof *o);
    o->view = VIEW_JUDGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(is_audit ? audit_usage : list_usage, stdout);
            return -1;
        }
        if (a[0] == '-' && !val) {
            cli_error("%s needs a value", a);
            return CLI_BADINPUT;
        }
        if (!strcmp(a, "--db")) {
            o->db = argv[++i];
        } else if (!strcmp(a, "--query")) {
            o->query = argv[++i];
        } else if (!strcmp(a, "--against") && is_audit) {
            o->against = argv[++i];
        } else if (!strcmp(a, "--cards") && is_audit) {
            o->cards = argv[++i];
        } else if (!strcmp(a, "--tournament") && !is_audit) {
            o->tournament = argv[++i];
        } else if (!strcmp(a, "--status") && !is_audit) {
            o->status = argv[++i];
        } else if (!strcmp(a, "--view") && is_audit) {
            if (view_parse(argv[++i], &o->view)) {
                cli_error("unknown view '%s' (judge, p1, p2 or public)", argv[i]);
                return CLI_BADINPUT;
            }
        } else if (!strcmp(a, "--at") && is_audit) {
            char *end;
            o->at = strtoull(argv[++i], &end, 10);
            if (*end || argv[i][0] < '0' || argv[i][0] > '9') {
                cli_error("--at needs an event's seq, a number from 0, not '%s'", argv[i]);
                return CLI_BADINPUT;
            }
            o->has_at = 1;
        } else if (a[0] == '-') {
            cli_error("unknown option '%s' (try arbiter %s --help)", a, is_audit ? "audit" : "list");
            return CLI_BADINPUT;
        } else if (is_audit && !o->match) {
            o->match = a;
        } else {
            cli_error("unexpected argument '%s'", a);
            return CLI_BADINPUT;
        }
    }
    if (!o->db == !o->query || (is_audit && !o->match)) {
        if (o->db && o->query)
            cli_error("give --db or --query, not both");
        fputs(is_audit ? audit_usage : list_usage, stderr);
        return CLI_BADINPUT;
    }
    return 0;
}

/* ---- the daemon's query socket ------------------------------------------- */

/* One request to a daemon's query ROUTER (openlog.md 9): a new reference to
 * its reply, {"ok":false,...} included, or NULL with a sentence in err (no
 * daemon, a timeout, a reply that is not a map).  JSON both ways.  Takes
 * the reference to req. */
static json_t *query_send(const char *ep, json_t *req, char *err, size_t errlen)
{
    void *ctx = zmq_ctx_new(), *sock = ctx ? zmq_socket(ctx, ZMQ_DEALER) : NULL;
    char *text = json_dumps(req, JSON_COMPACT);
    json_t *rep = NULL;
    zmq_msg_t m;
    int zero = 0, timeout = QUERY_TIMEOUT_MS;

    zmq_msg_init(&m);
    if (!sock || !text) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(sock, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    if (zmq_connect(sock, ep) || zmq_send(sock, text, strlen(text), 0) < 0) {
        snprintf(err, errlen, "cannot reach arbiterd at %s: %s", ep, zmq_strerror(errno));
        goto out;
    }
    if (zmq_msg_recv(&m, sock, 0) < 0) {
        snprintf(err, errlen, "no answer from arbiterd at %s within %d s", ep, QUERY_TIMEOUT_MS / 1000);
        goto out;
    }
    rep = json_loadb(zmq_msg_data(&m), zmq_msg_size(&m), 0, NULL);
    if (!json_is_object(rep)) {
        json_decref(rep);
        rep = NULL;
        snprintf(err, errlen, "arbiterd at %s answered something that is not a JSON map", ep);
    }
out:
    zmq_msg_close(&m);
    free(text);
    json_decref(req);
    if (sock)
        zmq_close(sock);
    if (ctx)
        zmq_ctx_term(ctx);
    return rep;
}

/* query_send(), where only {"ok":true,...} is a reply: the daemon's
 * refusal becomes NULL with its sentence in err. */
static json_t *query_call(const char *ep, json_t *req, char *err, size_t errlen)
{
    json_t *rep = query_send(ep, req, err, errlen);
    if (rep && !json_is_true(json_object_get(rep, "ok"))) {
        const char *why = json_string_value(json_object_get(rep, "error"));
        snprintf(err, errlen, "%s", why ? why : "arbiterd refused the request");
        json_decref(rep);
        rep = NULL;
    }
    return rep;
}

/* ---- where the record comes from ------------------------------------------- */

/* A record opened for reading: its summary (a JSON map) and a way to walk
 * its events in seq order, from the store or from a daemon. */
typedef struct {
    const audit_opts *o;
    store *st;
    MDB_txn *txn;
    json_t *summary;
    json_t *events;               /* --query: the `events` reply's list */
} record;

static int record_open(record *r, const audit_opts *o)
{
    char err[512];
    const char *json;
    size_t len;

    memset(r, 0, sizeof *r);
    r->o = o;
    if (o->query) {
        json_t *rep = query_call(o->query, json_pack("{s:s, s:s}", "op", "match", "match", o->match), err, sizeof err);
        if (!rep) {
            cli_error("%s", err);
            return CLI_BADINPUT;
        }
        r->summary = json_incref(json_object_get(rep, "match"));
        json_decref(rep);
        rep = query_call(o->query, json_pack("{s:s, s:s, s:s}", "op", "events", "match", o->match, "view", "judge"),
                         err, sizeof err);
        if (!rep) {
            cli_error("%s", err);
            return CLI_BADINPUT;
        }
        r->events = json_incref(json_object_get(rep, "events"));
        json_decref(rep);
        return r->summary && json_is_array(r->events) ? CLI_OK : CLI_INTERNAL;
    }
    if (store_open(o->db, 1, 0, &r->st, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    if (mdb_txn_begin(store_env(r->st), NULL, MDB_RDONLY, &r->txn)) {
        cli_error("the store %s cannot be read", o->db);
        return CLI_BADINPUT;
    }
    if (store_get_summary(r->st, r->txn, o->match, &json, &len)) {
        cli_error("no match %s in the store %s", o->match, o->db);
        return CLI_BADINPUT;
    }
    r->summary = json_loadb(json, len, 0, NULL);
    return r->summary ? CLI_OK : CLI_INTERNAL;
}

static void record_close(record *r)
{
    json_decref(r->summary);
    json_decref(r->events);
    if (r->txn)
        mdb_txn_abort(r->txn);
    store_close(&r->st);
}

/* The card database the record pins, from the store or the daemon. */
static int record_cards(record *r, cards **db)
{
    const char *hash = json_string_value(json_object_get(r->summary, "cards_hash"));
    char err[2048];
    const void *bytes = NULL;
    size_t len = 0;
    json_t *rep = NULL;
    int rc;

    if (r->o->cards)
        return cli_load_cards(r->o->cards, db);
    if (!hash) {
        cli_error("the record of %s names no card database", r->o->match);
        return CLI_BADINPUT;
    }
    if (r->o->query) {
        rep = query_call(r->o->query, json_pack("{s:s, s:s}", "op", "cards", "hash", hash), err, sizeof err);
        bytes = json_string_value(json_object_get(rep, "cards"));
        len = json_string_length(json_object_get(rep, "cards"));
    } else if (store_get_cards(r->st, r->txn, hash, &bytes, &len)) {
        bytes = NULL;
        snprintf(err, sizeof err, "the store keeps no card database with hash %s", hash);
    }
    if (!bytes) {
        cli_error("%s: %s (give --cards FILE to judge with another)", r->o->match, err);
        json_decref(rep);
        return CLI_BADINPUT;
    }
    rc = carddb_load_buffer(bytes, len, hash, db, err, sizeof err) ? CLI_BADINPUT : CLI_OK;
    if (rc)
        cli_error("the stored card database %s: %s", hash, err);
    json_decref(rep);
    return rc;
}

static int hex_field(json_t *o, const char *key, uint8_t *out, size_t n)
{
    const char *hex = json_string_value(json_object_get(o, key));
    size_t got = 0;
    return hex && !sodium_hex2bin(out, n, hex, strlen(hex), NULL, &got, NULL) && got == n ? 0 : -1;
}

/* A daemon's `events` item as a store_event (buffers malloc'd into bufs). */
static int event_of_item(json_t *it, store_event *e, uint8_t **bufs)
{
    json_t *raw = json_object_get(it, "raw");
    const char *ev = json_string_value(json_object_get(raw, "event"));
    const char *v = json_string_value(json_object_get(raw, "verdict"));
    const char *peer = json_string_value(json_object_get(it, "peer"));

    memset(e, 0, sizeof *e);
    if (!ev || !v || !json_is_integer(json_object_get(it, "seq")))
        return -1;
    bufs[0] = malloc(strlen(ev) / 2 + 1);
    bufs[1] = malloc(strlen(v) / 2 + 1);
    if (!bufs[0] || !bufs[1] ||
        sodium_hex2bin(bufs[0], strlen(ev) / 2 + 1, ev, strlen(ev), NULL, &e->event_len, NULL) ||
        sodium_hex2bin(bufs[1], strlen(v) / 2 + 1, v, strlen(v), NULL, &e->verdict_len, NULL) ||
        hex_field(it, "chain", e->chain, STORE_HASH) || hex_field(it, "state", e->state, STORE_HASH))
        return -1;
    e->seq = (uint64_t)json_integer_value(json_object_get(it, "seq"));
    e->event = bufs[0];
    e->verdict = bufs[1];
    e->received_ms = (uint64_t)json_integer_value(json_object_get(it, "received"));
    snprintf(e->peer, sizeof e->peer, "%s", peer ? peer : "");
    return 0;
}

static int record_each(record *r, store_event_fn fn, void *ctx)
{
    size_t i;
    json_t *it;

    if (!r->o->query)
        return store_each_event(r->st, r->txn, r->o->match, 0, UINT64_MAX, fn, ctx);
    json_array_foreach(r->events, i, it) {
        store_event e;
        uint8_t *bufs[2] = {NULL, NULL};
        int rc = event_of_item(it, &e, bufs) ? -EINVAL : fn(ctx, &e);
        free(bufs[0]);
        free(bufs[1]);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- another record of the match (--against) ----------------------------- */

/* The other record's chain links and verdicts, by seq. */
typedef struct {
    uint8_t (*chain)[STORE_HASH];
    json_t *verdicts;             /* array, index = seq                     */
    size_t n;
    uint8_t prev[STORE_HASH];     /* the stored link before the next one    */
} links;

static int collect_link(void *ctx, const store_event *e)
{
    links *l = ctx;
    json_t *v = NULL;
    if (e->seq != l->n)
        return 0;   /* a hole: the links stop there, and so does agreement */
    void *grown = realloc(l->chain, (l->n + 1) * sizeof *l->chain);
    if (!grown)
        return -ENOMEM;
    l->chain = grown;
    /* the link as the bytes make it, not as stored: a tampered event shows */
    store_chain_next(l->n ? l->prev : (const uint8_t[STORE_HASH]){0}, e->event, e->event_len, e->verdict,
                     e->verdict_len, l->chain[l->n]);
    memcpy(l->prev, e->chain, STORE_HASH);
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &v, NULL) != OL_OK)
        v = json_null();
    json_array_append_new(l->verdicts, v);
    l->n++;
    return 0;
}

/* Read the other record: `src` is a store folder, or a daemon's endpoint. */
static int read_other(const audit_opts *o, links *l)
{
    audit_opts other = *o;
    record r;
    int rc;

    other.db = strstr(o->against, "://") ? NULL : o->against;
    other.query = other.db ? NULL : o->against;
    l->verdicts = json_array();
    if ((rc = record_open(&r, &other)) == CLI_OK && (rc = record_each(&r, collect_link, l)))
        cli_error("%s: the record of %s there cannot be read whole", o->against, o->match);
    record_close(&r);
    return rc ? CLI_BADINPUT : CLI_OK;
}

/* ---- the audit ------------------------------------------------------------- */

typedef struct {
    const audit_opts *o;
    verify_session *sess;
    uint8_t chain[STORE_HASH];
    int64_t chain_broken;         /* first seq whose link does not hold, -1 */
    int64_t verdict_differs;      /* first seq judged otherwise than stored */
    int64_t board_differs;        /* first seq whose board hash differs     */
    size_t n_differ;              /* verdicts judged otherwise              */
    size_t links;
    int unclean;                  /* a stored verdict is not ok or warning  */
    json_t *timeline;             /* --json                                  */
    json_t *board;                /* --at, --json                            */
    char *board_text;             /* --at                                    */
    int board_done;
    uint64_t last;
    links other;                  /* --against: the other record's chain  */
    int64_t diverge;              /* first seq where the records differ, -1 */
} audit_ctx;

/* "p1 flip", "table match": who announced what. */
static void what_text(const olevent *ev, char *out, size_t cap)
{
    if (!ev) {
        snprintf(out, cap, "(unreadable)");
        return;
    }
    snprintf(out, cap, "%s %s", ol_by_name(ev->by), ol_type_name(ev->type));
}

static void draw_board(audit_ctx *c)
{
    const verifier *vf = verify_session_verifier(c->sess);

    c->board_done = 1;
    if (!vf)
        return;
    if (c->o->json) {
        c->board = view_board_json(vf, c->o->view);
        return;
    }
    /* drawn now, while the session stands at --at; printed after the timeline */
    size_t n = 0;
    FILE *f = open_memstream(&c->board_text, &n);
    if (!f)
        return;
    if (view_board_print(f, vf, c->o->view))
        fprintf(f, "  (no board for this format)\n");
    fclose(f);
}

static int audit_one(void *ctx, const store_event *e)
{
    audit_ctx *c = ctx;
    uint8_t h[STORE_HASH], state[VIEW_HASH_BYTES];
    olevent *ev = NULL;
    olerror err;
    json_t *stored = NULL, *again = NULL;
    char what[64];

    store_chain_next(c->chain, e->event, e->event_len, e->verdict, e->verdict_len, h);
    if (c->chain_broken < 0 && memcmp(h, e->chain, STORE_HASH))
        c->chain_broken = (int64_t)e->seq;
    memcpy(c->chain, e->chain, STORE_HASH);   /* go on from the stored link */
    c->links++;
    if (c->o->against && c->diverge < 0 &&
        (e->seq >= c->other.n || memcmp(c->other.chain[e->seq], h, STORE_HASH)))
        c->diverge = (int64_t)e->seq;
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &stored, NULL) != OL_OK)
        stored = json_pack("{s:I, s:s}", "seq", (json_int_t)e->seq, "status", "unreadable");
    const char *status = json_string_value(json_object_get(stored, "status"));
    if (!status || (strcmp(status, "ok") && strcmp(status, "warning")))
        c->unclean = 1;

    /* judge it again */
    if (olcodec_decode_msgpack(e->event, e->event_len, (ol_origin){0, 0}, &ev, &err) != OL_OK &&
        olcodec_decode_json((const char *)e->event, e->event_len, (ol_origin){0, 1}, &ev, &err) != OL_OK)
        ev = NULL;
    const verify_entry *out = NULL;
    if (!ev || verify_session_event(c->sess, ev, (const char *)e->event, e->event_len, &out) != VERIFY_OK)
        out = NULL;
    if (out) {
        const verify_report *rep = verify_session_report(c->sess);
        again = olverdict_to_json(&out->v, out->stored == VERIFY_NONE ? NULL : &rep->verdicts[out->stored].v);
    }
    if (!again || !json_equal(again, stored)) {
        c->n_differ++;
        if (c->verdict_differs < 0)
            c->verdict_differs = (int64_t)e->seq;
    }
    const verifier *vf = verify_session_verifier(c->sess);
    if (c->board_differs < 0 && (!vf || view_state_hash(vf, NULL, state) || memcmp(state, e->state, STORE_HASH)))
        c->board_differs = (int64_t)e->seq;

    what_text(ev, what, sizeof what);
    json_t *row = json_pack("{s:I, s:s, s:O}", "seq", (json_int_t)e->seq, "event", what, "verdict", stored);
    if (row && again && !json_equal(again, stored))
        json_object_set(row, "judged_again", again);
    json_array_append_new(c->timeline, row);
    if (!c->o->json) {
        const char *rule = json_string_value(json_object_get(stored, "rule"));
        const char *msg = json_string_value(json_object_get(stored, "msg"));
        printf("  #%-4llu %-17s %-8s %-12s %s\n", (unsigned long long)e->seq, what, status ? status : "?",
               rule ? rule : "", msg ? msg : "");
        if (again && !json_equal(again, stored)) {
            const char *s2 = json_string_value(json_object_get(again, "status"));
            const char *r2 = json_string_value(json_object_get(again, "rule"));
            printf("  %-23s judged again: %s %s\n", "", s2 ? s2 : "?", r2 ? r2 : "");
        }
    }
    c->last = e->seq;
    json_decref(stored);
    json_decref(again);
    olevent_destroy(&ev);
    if (c->o->has_at && e->seq == c->o->at)
        draw_board(c);
    return 0;
}

/* "the records diverge at #12: here ..., there ..." */
static void print_divergence(const audit_ctx *c, const char *src)
{
    json_t *there = c->diverge < (int64_t)c->other.n ? json_array_get(c->other.verdicts, (size_t)c->diverge) : NULL;
    json_t *here = c->diverge < (int64_t)json_array_size(c->timeline)
                       ? json_object_get(json_array_get(c->timeline, (size_t)c->diverge), "verdict")
                       : NULL;
    printf("against %s: the records diverge at #%lld", src, (long long)c->diverge);
    if (!here || !there) {
        printf(": %s ends before it\n", here ? src : "this record");
        return;
    }
    const char *s1 = json_string_value(json_object_get(here, "status")), *r1 = json_string_value(json_object_get(here, "rule"));
    const char *s2 = json_string_value(json_object_get(there, "status")), *r2 = json_string_value(json_object_get(there, "rule"));
    printf(": here %s%s%s, there %s%s%s%s\n", s1 ? s1 : "?", r1 ? " " : "", r1 ? r1 : "", s2 ? s2 : "?", r2 ? " " : "",
           r2 ? r2 : "", json_equal(here, there) ? " (same verdict, other event bytes)" : "");
}

static json_t *seq_or_null(int64_t seq)
{
    return seq < 0 ? json_null() : json_integer(seq);
}

static void print_summary_line(json_t *s)
{
    const char *status = json_string_value(json_object_get(s, "status"));
    const char *winner = json_string_value(json_object_get(s, "winner"));
    const char *t = json_string_value(json_object_get(s, "tournament"));
    printf("%s  %s, %s, %s, %lld events, round %lld%s%s\n", json_string_value(json_object_get(s, "match")),
           status ? status : "?", json_is_true(json_object_get(s, "finished")) ? "finished" : "live",
           winner ? winner : "no winner", (long long)json_integer_value(json_object_get(s, "events")),
           (long long)json_integer_value(json_object_get(s, "rounds")), t ? ", tournament " : "", t ? t : "");
    printf("judged by %s with cards %s (%.16s...)\n", json_string_value(json_object_get(s, "engine")),
           json_string_value(json_object_get(s, "cards")), json_string_value(json_object_get(s, "cards_hash")));
}

int cmd_audit(int argc, char **argv)
{
    audit_opts o;
    record r;
    cards *db = NULL;
    audit_ctx c;
    int rc = parse(argc, argv, &o, 1);

    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if ((rc = record_open(&r, &o)) || (rc = record_cards(&r, &db)))
        goto out;
    rc = CLI_INTERNAL;
    c.o = &o;
    c.chain_broken = c.verdict_differs = c.board_differs = c.diverge = -1;
    if (o.against && (rc = read_other(&o, &c.other)))
        goto out;
    rc = CLI_INTERNAL;
    if (verify_session_new(db, o.match, &c.sess) != VERIFY_OK || !(c.timeline = json_array()))
        goto out;
    if (!o.json) {
        print_summary_line(r.summary);
        printf("timeline\n");
    }
    if (record_each(&r, audit_one, &c)) {
        cli_error("%s: the record cannot be read whole", o.match);
        goto out;
    }
    if (o.has_at && !c.board_done) {
        if (!o.json)
            printf("(no event #%llu is stored: the board shown is after the last one, #%llu)\n",
                   (unsigned long long)o.at, (unsigned long long)c.last);
        draw_board(&c);
    }
    if (o.against && c.diverge < 0 && c.other.n != c.links)
        c.diverge = (int64_t)(c.links < c.other.n ? c.links : c.other.n);   /* one is longer */
    int clean = c.chain_broken < 0 && c.verdict_differs < 0 && c.board_differs < 0 && !c.unclean && c.diverge < 0;
    if (o.json) {
        json_t *doc = json_pack("{s:s, s:O, s:o, s:{s:b, s:I, s:o}, s:{s:b, s:I, s:o, s:o}, s:o?}", "match", o.match,
                                "summary", r.summary, "timeline", c.timeline, "chain", "intact", c.chain_broken < 0,
                                "links", (json_int_t)c.links, "broken_at", seq_or_null(c.chain_broken),
                                "judged_again", "as_stored", c.verdict_differs < 0 && c.board_differs < 0,
                                "verdicts_differ", (json_int_t)c.n_differ, "first_verdict", seq_or_null(c.verdict_differs),
                                "first_board", seq_or_null(c.board_differs), "board", c.board);
        c.timeline = NULL;
        c.board = NULL;
        if (doc && o.against)
            json_object_set_new(doc, "against",
                                json_pack("{s:s, s:I, s:o}", "source", o.against, "events", (json_int_t)c.other.n,
                                          "diverge_at", seq_or_null(c.diverge)));
        if (cli_print_json(doc))
            goto out;
    } else {
        if (c.chain_broken < 0)
            printf("hash chain: intact, %zu links through #%llu\n", c.links, (unsigned long long)c.last);
        else
            printf("hash chain: BROKEN at #%lld: the stored event or its verdict is not what was chained\n",
                   (long long)c.chain_broken);
        if (c.verdict_differs < 0 && c.board_differs < 0)
            printf("judged again%s: every verdict and every board as stored\n",
                   o.cards ? " with the given card database" : "");
        if (c.verdict_differs >= 0)
            printf("judged again%s: %zu verdict%s differ, the first at #%lld\n", o.cards ? " with the given card database" : "",
                   c.n_differ, c.n_differ == 1 ? "" : "s", (long long)c.verdict_differs);
        if (c.board_differs >= 0)
            printf("judged again: the board differs from the stored one from #%lld on\n", (long long)c.board_differs);
        if (o.against && c.diverge < 0)
            printf("against %s: the two records agree, %zu events, link for link\n", o.against, c.other.n);
        else if (o.against)
            print_divergence(&c, o.against);
        if (c.board_text)
            printf("\nboard after #%llu (%s view)\n%s", (unsigned long long)(c.o->at <= c.last ? o.at : c.last),
                   view_name(o.view), c.board_text);
    }
    rc = clean ? CLI_OK : CLI_ILLEGAL;
out:
    json_decref(c.timeline);
    json_decref(c.board);
    free(c.board_text);
    free(c.other.chain);
    json_decref(c.other.verdicts);
    verify_session_destroy(&c.sess);
    record_close(&r);
    cards_destroy(&db);
    return rc;
}

/* ---- list -------------------------------------------------------------------- */

typedef struct {
    const audit_opts *o;
    int n;
} list_ctx;

static int list_one(void *ctx, const char *match, json_t *s)
{
    list_ctx *c = ctx;
    const char *t = json_string_value(json_object_get(s, "tournament"));
    const char *status = json_string_value(json_object_get(s, "status"));
    if ((c->o->tournament && (!t || strcmp(t, c->o->tournament))) ||
        (c->o->status && (!status || strcmp(status, c->o->status))))
        return 0;
    c->n++;
    if (c->o->json) {
        char *line = json_dumps(s, JSON_COMPACT);
        if (line)
            printf("%s\n", line);
        free(line);
    } else {
        const char *winner = json_string_value(json_object_get(s, "winner"));
        printf("%-40s %-8s %-9s winner %-3s %5lld events  round %lld\n", match, status ? status : "?",
               json_is_true(json_object_get(s, "finished")) ? "finished" : "live", winner ? winner : "-",
               (long long)json_integer_value(json_object_get(s, "events")),
               (long long)json_integer_value(json_object_get(s, "rounds")));
    }
    return 0;
}

static int list_stored(void *ctx, const char *match, const char *json, size_t len)
{
    json_t *s = json_loadb(json, len, 0, NULL);
    int rc = s ? list_one(ctx, match, s) : 0;
    json_decref(s);
    return rc;
}

int cmd_list(int argc, char **argv)
{
    audit_opts o;
    store *st = NULL;
    MDB_txn *txn = NULL;
    char err[512];
    int rc = parse(argc, argv, &o, 0);
    list_ctx c = {&o, 0};

    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (o.query) {
        json_t *req = json_pack("{s:s}", "op", "list"), *m;
        size_t i;
        json_t *rep = query_call(o.query, req, err, sizeof err);
        if (!rep) {
            cli_error("%s", err);
            return CLI_BADINPUT;
        }
        json_array_foreach(json_object_get(rep, "matches"), i, m)
            list_one(&c, json_string_value(json_object_get(m, "match")), m);
        json_decref(rep);
        rc = CLI_OK;
    } else {
        if (store_open(o.db, 1, 0, &st, err, sizeof err)) {
            cli_error("%s", err);
            return CLI_BADINPUT;
        }
        rc = mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn) || store_each_match(st, txn, list_stored, &c)
                 ? CLI_INTERNAL : CLI_OK;
        if (txn)
            mdb_txn_abort(txn);
        store_close(&st);
    }
    if (!o.json && rc == CLI_OK)
        fprintf(stderr, "%d match%s\n", c.n, c.n == 1 ? "" : "es");
    return rc;
}

/* ---- query -------------------------------------------------------------------- */

static const char query_usage[] =
    "usage: arbiter query [--endpoint EP] REQUEST\n"
    "\n"
    "Send one request to arbiterd's query socket (openlog.md 9) and print the\n"
    "reply, one JSON map per line.  REQUEST is a JSON map with \"op\":\n"
    "  {\"op\":\"health\"}   {\"op\":\"list\",\"status\":\"illegal\"}\n"
    "  {\"op\":\"match\",\"match\":ID}   {\"op\":\"state\",\"match\":ID,\"at\":17,\"view\":\"p1\"}\n"
    "  --endpoint EP  default tcp://127.0.0.1:7422\n"
    "\n"
    "exit: 0 the daemon answered ok, 1 it answered {\"ok\":false}, 2 bad usage or\n"
    "no answer.\n";

int cmd_query(int argc, char **argv)
{
    const char *ep = "tcp://127.0.0.1:7422", *text = NULL;
    char err[512];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(query_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--endpoint") && i + 1 < argc)
            ep = argv[++i];
        else if (!text && argv[i][0] != '-')
            text = argv[i];
        else {
            fputs(query_usage, stderr);
            return CLI_BADINPUT;
        }
    }
    json_t *req = text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_object(req)) {
        json_decref(req);
        cli_error("the request must be one JSON map, such as {\"op\":\"health\"}");
        return CLI_BADINPUT;
    }
    json_t *rep = query_send(ep, req, err, sizeof err);
    if (!rep) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    int ok = json_is_true(json_object_get(rep, "ok"));
    int rc = cli_print_json(rep);
    return rc ? rc : ok ? CLI_OK : CLI_ILLEGAL;
}
