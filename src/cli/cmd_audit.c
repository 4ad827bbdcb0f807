/* cmd_audit.c -- `arbiter audit` and `arbiter list`: a judge reads the store.
 *
 * What: `audit MATCH` prints a stored match's timeline -- every event with
 * who announced it, its verdict and rule -- checks the record (arbiter-records(5):
 * its hash chain, its record links, its seal, its summary, the card
 * database it pins), judges the stored events again and says whether every
 * verdict and every board comes out as stored, prints the record head a
 * judge writes on the match slip, and with --at SEQ draws the board after
 * that event (judge view by default).  With --html FILE it writes all of
 * that as one page for a judge instead (src/cli/auditpage.h): the same walk
 * keeps each event's verdict, its view and the board after it, and the
 * page's checks are this file's own sentences (print_findings), so the
 * page and the text can never say different things.  `list` prints one
 * line per stored match.  Both read either the store itself (--db DIR) or a running
 * daemon's query socket (--query EP).
 *
 * Why read-only LMDB: a judge audits while the daemon keeps writing.  An
 * LMDB read transaction is a snapshot that never blocks the writer, so
 * --db opens the store MDB_RDONLY beside the running daemon and sees each
 * match as of its last commit.  --query asks the daemon for the same
 * bytes (the `events` op in the judge view carries them), for a judge who
 * is not on the daemon's machine.
 *
 * How the record is checked, event by event and as a whole:
 *   - the chain and the record links (seal.h's walk): h(n) is recomputed
 *     from h(n-1) and the stored event and verdict bytes, k(n) from k(n-1),
 *     h(n), the board hash, receive time and sender; the first link that
 *     differs names the first event that was altered, and which part;
 *   - the seal: signed by the daemon's key over the number of events, the
 *     two heads and the summary's hash -- so events removed, a summary
 *     rewritten or a record rewritten and rechained all show, and so does
 *     a seal made with another key (--sealed-by names the right one);
 *   - the summary against the record judged again (status, winner,
 *     finished, events, counts), and the card database against its hash;
 *   - the verdicts: each stored event is judged again by the same session
 *     the daemon uses (src/core/verify.h), with the card database the record
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
#include <time.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "src/cli/auditpage.h"
#include "src/cli/cli.h"
#include "src/cli/qclient.h"
#include "src/core/carddb.h"
#include "src/core/htmlout.h"
#include "src/core/keys.h"
#include "src/core/verify.h"
#include "src/core/view.h"
#include "src/pg/pgconn.h"
#include "src/pg/pgload.h"
#include "src/pg/pgship.h"
#include "src/record/cardset.h"
#include "src/record/record.h"
#include "src/record/seal.h"
#include "src/record/store.h"

static const char audit_usage[] =
    "usage: arbiter audit MATCH (--db DIR | --query EP | --pg URL [--venue NAME])\n"
    "                     [--at SEQ] [--view V] [--against DIR|EP]\n"
    "                     [--cards FILE] [--sealed-by KEY] [--trusted-seals FILE] [--head HEAD]\n"
    "                     [--key FILE --server-key KEY]\n"
    "                     [--json | --html FILE]\n"
    "\n"
    "The stored record of one match: every event with its verdict, the checks\n"
    "of its hash chain, record links, seal, summary and card database\n"
    "(arbiter-records(5)), the record judged again (verdicts and boards as\n"
    "stored?), its record head, and with --at the board after that event.\n"
    "\n"
    "  --db DIR      read the store itself, read-only (beside a running arbiterd)\n"
    "  --query EP    ask a running arbiterd on its query socket instead\n"
    "  --pg URL      read the circuit's PostgreSQL database instead (libpq's\n"
    "                URL; arbiter-pg(5)): the venue's rows, checked exactly as\n"
    "                a store's; seals against the key registered for the\n"
    "                venue unless --sealed-by or --trusted-seals says otherwise\n"
    "  --venue NAME  with --pg: whose record, when several venues hold MATCH\n"
    "  --at SEQ      draw the board after event SEQ\n"
    "  --view V      who looks at that board: judge (default), public, or a\n"
    "                player's, p1..p8 (a seat the match has); broadcast, with\n"
    "                --query: a daemon's broadcast, the events older than its\n"
    "                broadcast delay in the judge's view, as the page or JSON\n"
    "                a stream's overlay polls (no record check; a broadcast\n"
    "                or judge key)\n"
    "  --against SRC another record of the same match (a store DIR, or a daemon's\n"
    "                query EP with ://): the first event where the two differ\n"
    "                (openlog.md 10: the hash chains part there)\n"
    "  --cards FILE  judge again with this card database instead of the one the\n"
    "                record pins: differences are what it would decide otherwise\n"
    "  --sealed-by KEY  the daemon's public key (its .pub file, or the 64 hex\n"
    "                digits of sign-public): the seal must be signed with it\n"
    "  --trusted-seals FILE  more keys whose seals count (earlier daemon keys):\n"
    "                one per line, 64 hex digits and a name, or a .pub file.\n"
    "                Without either: with --db the daemon's arbiterd.pub and\n"
    "                trusted-seals beside DIR, with --query the keys the daemon\n"
    "                trusts, with --pg the venue's registered key -- never the\n"
    "                store's own list of keys\n"
    "  --head HEAD   the record head written on the match slip: it must be this\n"
    "  --key FILE, --server-key KEY  CURVE keys for --query (arbiter-keyring(5))\n"
    "  --json        one JSON object (arbiter-audit(1))\n"
    "  --html FILE   one self-contained page for a judge instead ('-': stdout):\n"
    "                the checks, every fault with its rule's quote and its board,\n"
    "                the timeline, and the board after each event, in --view's\n"
    "                view (public: no hidden card named, sentences included);\n"
    "                every board up to 400 events, beyond the faults' and every\n"
    "                25th.  Written to FILE.tmp, then renamed.  A tournament\n"
    "                page links matches to audit/MATCH.html beside it\n"
    "\n"
    "exit: 0 the record is intact (chain, links, seal by a trusted key, summary,\n"
    "card database),\n"
    "it judges again as stored and every verdict is ok or warning; 1 otherwise;\n"
    "2 bad usage or no such match or store; 3 internal error.\n";

static const char list_usage[] =
    "usage: arbiter list (--db DIR | --query EP) [--tournament T] [--status legal|illegal]\n"
    "                    [--key FILE --server-key KEY] [--json]\n"
    "\n"
    "One line per stored match: id, status, finished or live, winner, events,\n"
    "rounds.  --json prints each match's stored summary, one per line.\n";

typedef struct {
    const char *match, *db, *query, *cards, *tournament, *status;
    const char *against;          /* another record of the match: DIR or EP */
    const char *key, *server_key; /* CURVE for --query                     */
    const char *sealed_by, *head; /* what the judge knows of the record    */
    const char *trusted_seals;    /* more keys whose seals count            */
    const char *html;             /* --html FILE: the page ("-": stdout)    */
    const char *pg, *venue;       /* --pg URL: the circuit's database      */
    uint64_t at;
    int has_at, json;
    view_kind view;
    int broadcast;                /* --view broadcast: the daemon's delayed
                                     judge view (arbiterd(8), BROADCAST) */
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
        } else if (!strcmp(a, "--pg") && is_audit) {
            o->pg = argv[++i];
        } else if (!strcmp(a, "--venue") && is_audit) {
            o->venue = argv[++i];
        } else if (!strcmp(a, "--against") && is_audit) {
            o->against = argv[++i];
        } else if (!strcmp(a, "--key")) {
            o->key = argv[++i];
        } else if (!strcmp(a, "--server-key")) {
            o->server_key = argv[++i];
        } else if (!strcmp(a, "--sealed-by") && is_audit) {
            o->sealed_by = argv[++i];
        } else if (!strcmp(a, "--trusted-seals") && is_audit) {
            o->trusted_seals = argv[++i];
        } else if (!strcmp(a, "--head") && is_audit) {
            o->head = argv[++i];
        } else if (!strcmp(a, "--html") && is_audit) {
            o->html = argv[++i];
        } else if (!strcmp(a, "--cards") && is_audit) {
            o->cards = argv[++i];
        } else if (!strcmp(a, "--tournament") && !is_audit) {
            o->tournament = argv[++i];
        } else if (!strcmp(a, "--status") && !is_audit) {
            o->status = argv[++i];
        } else if (!strcmp(a, "--view") && is_audit) {
            if (!strcmp(argv[++i], "broadcast")) {
                o->broadcast = 1;   /* the judge's view, of what the broadcast let out */
                o->view = VIEW_JUDGE;
            } else if (view_parse(argv[i], &o->view)) {
                cli_error("unknown view '%s' (judge, public, broadcast, or a player's, p1 to p8)", argv[i]);
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
    if (o->html && o->json) {
        cli_error("--html writes the page, --json one JSON object: give one of them");
        return CLI_BADINPUT;
    }
    if (o->broadcast && !o->query) {
        cli_error("--view broadcast is a daemon's broadcast, older than its delay: give --query EP");
        return CLI_BADINPUT;
    }
    if (o->venue && !o->pg) {
        cli_error("--venue says which venue's record --pg reads: give --pg URL");
        return CLI_BADINPUT;
    }
    if (!!o->db + !!o->query + !!o->pg != 1 || (is_audit && !o->match)) {
        if (!!o->db + !!o->query + !!o->pg > 1)
            cli_error("give one of --db, --query and --pg");
        fputs(is_audit ? audit_usage : list_usage, stderr);
        return CLI_BADINPUT;
    }
    return 0;
}

/* ---- the daemon's query socket ------------------------------------------- */

static json_t *query_call(const audit_opts *o, const char *ep, json_t *req, char *err, size_t errlen)
{
    qclient q = {ep, o->key, o->server_key};
    return qclient_call(&q, req, err, errlen);
}

/* ---- where the record comes from ------------------------------------------- */

/* A record opened for reading: its summary (a JSON map, and its bytes as
 * stored), its seal's bytes, and a way to walk its events in seq order,
 * from the store or from a daemon. */
typedef struct {
    const audit_opts *o;
    store *st;
    MDB_txn *txn;
    json_t *summary;
    char *summary_raw;            /* the stored bytes, which the seal hashes */
    size_t summary_len;
    uint8_t *seal_raw;            /* NULL: no seal                          */
    size_t seal_len;
    uint8_t *hint;                /* --db: the keys the store lists as its
                                     daemons' (meta "signers"): a hint for
                                     the sentences, never trusted           */
    size_t n_hint;
    record_trust trusted;         /* --query: the keys the daemon trusts    */
    int has_trusted;
    json_t *events;               /* --query: every `events` page, joined   */
    char scratch[4096];           /* --pg: the scratch store it was read into */
    char venue[PGSHIP_VENUE_MAX + 1];   /* --pg: whose record              */
    uint8_t venue_key[32];        /* --pg: the key registered for it       */
    int has_venue_key;
} source;

/* 64 hex digits into a key: 0, or -1. */
static int hex_key(const char *hex, uint8_t out[32])
{
    size_t got = 0;
    return hex && strlen(hex) == 64 && !sodium_hex2bin(out, 32, hex, 64, NULL, &got, NULL) && got == 32 ? 0 : -1;
}

static int hex_field(json_t *o, const char *key, uint8_t *out, size_t n)
{
    const char *hex = json_string_value(json_object_get(o, key));
    size_t got = 0;
    return hex && !sodium_hex2bin(out, n, hex, strlen(hex), NULL, &got, NULL) && got == n ? 0 : -1;
}

static char *copy_bytes(const void *p, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, p, n);
        c[n] = 0;
    }
    return c;
}

/* The record from a daemon: the `match` op in the judge view (summary,
 * seal and their raw bytes), then every page of `events` up to the last one
 * the seal covers: a live match may have stored more since, and the record
 * checked is the one that seal vouches for. */
static int open_query(source *r, const audit_opts *o, const char *ep)
{
    char err[512];
    const char *view = o->broadcast ? "broadcast" : "judge";
    json_t *rep = query_call(o, ep, json_pack("{s:s, s:s, s:s}", "op", "match", "match", o->match, "view", view),
                             err, sizeof err);
    if (!rep) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    json_t *sealed = json_object_get(rep, "seal");
    json_int_t upto = json_is_integer(json_object_get(sealed, "events"))
                          ? json_integer_value(json_object_get(sealed, "events")) - 1 : -1;
    const char *sum = json_string_value(json_object_get(sealed, "summary_raw"));
    const char *raw = json_string_value(json_object_get(sealed, "raw"));
    r->summary = json_incref(json_object_get(rep, "match"));
    if (sum) {
        r->summary_raw = copy_bytes(sum, strlen(sum));
        r->summary_len = strlen(sum);
    }
    if (raw && (r->seal_raw = malloc(strlen(raw) / 2 + 1)) &&
        sodium_hex2bin(r->seal_raw, strlen(raw) / 2 + 1, raw, strlen(raw), NULL, &r->seal_len, NULL)) {
        free(r->seal_raw);
        r->seal_raw = NULL;
    }
    json_decref(rep);
    /* the keys the daemon trusts (its own and its --trusted-seals: its
     * configuration, in its memory) -- what its seals are checked against
     * when no --sealed-by is given */
    if (!o->sealed_by && (rep = query_call(o, ep, json_pack("{s:s}", "op", "health"), err, sizeof err))) {
        json_t *k, *list = json_object_get(rep, "trusted_seals");
        const char *own = json_string_value(json_object_get(rep, "seal_key"));
        size_t i;
        uint8_t key[32];
        r->has_trusted = 1;
        if (own && !hex_key(own, key))
            record_trust_add(&r->trusted, key, "the daemon's own key");
        json_array_foreach(list, i, k)
            if (!hex_key(json_string_value(json_object_get(k, "key")), key))
                record_trust_add(&r->trusted, key, json_string_value(json_object_get(k, "name")));
        json_decref(rep);
    }
    r->events = json_array();
    for (json_int_t from = 0; r->events;) {
        json_t *req = json_pack("{s:s, s:s, s:s, s:I}", "op", "events", "match", o->match, "view", view, "from", from);
        if (req && upto >= 0 && !o->broadcast)
            json_object_set_new(req, "to", json_integer(upto));
        rep = query_call(o, ep, req, err, sizeof err);
        if (!rep) {
            cli_error("%s", err);
            return CLI_BADINPUT;
        }
        json_array_extend(r->events, json_object_get(rep, "events"));
        json_t *next = json_object_get(rep, "next");
        from = json_is_integer(next) ? json_integer_value(next) : -1;
        json_decref(rep);
        if (from < 0)
            break;
    }
    return r->summary && r->events ? CLI_OK : CLI_INTERNAL;
}

static int open_store(source *r, const audit_opts *o, const char *dir)
{
    char err[512];
    const void *bytes;
    size_t len;
    if (store_open(dir, 1, 0, &r->st, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    if (mdb_txn_begin(store_env(r->st), NULL, MDB_RDONLY, &r->txn)) {
        cli_error("the store %s cannot be read", dir);
        return CLI_BADINPUT;
    }
    record_info info;
    seal sl;
    int got = record_read(r->st, r->txn, o->match, &info);
    if (got == MDB_NOTFOUND || (got && got != -EINVAL)) {
        cli_error("no match %s in the store %s", o->match, dir);
        return CLI_BADINPUT;
    }
    r->summary_raw = copy_bytes(info.summary, info.summary_len);
    r->summary_len = info.summary_len;
    r->summary = json_loadb(info.summary, info.summary_len, 0, NULL);
    got = record_seal_read(r->st, r->txn, o->match, &sl, &bytes, &len);
    if (!got || got == -EINVAL) {
        r->seal_raw = (uint8_t *)copy_bytes(bytes, len);
        r->seal_len = len;
    }
    if (!store_get_meta(r->st, r->txn, "signers", &bytes, &len) && (r->hint = malloc(len + 1))) {
        memcpy(r->hint, bytes, len);
        r->n_hint = len / 32;
    }
    return r->summary && r->summary_raw ? CLI_OK : CLI_INTERNAL;
}

/* The record from the circuit's database: read into a scratch store
 * (pgload.h), then opened as any store is, so that every check below is
 * the one a venue's store gets. */
static int open_pg(source *r, const audit_opts *o)
{
    char err[1024];
    PGconn *c = NULL;
    MDB_txn *txn = NULL;
    int rc = CLI_BADINPUT, got;
    if (pgconn_open(o->pg, 0, &c, err, sizeof err) ||
        (got = pgload_which_venue(c, o->match, o->venue, r->venue, err, sizeof err))) {
        cli_error("%s", err);
        goto out;
    }
    r->has_venue_key = !pgload_venue_key(c, r->venue, r->venue_key, err, sizeof err);
    if (pgload_scratch(r->scratch, sizeof r->scratch, &r->st, err, sizeof err)) {
        r->scratch[0] = 0;
        cli_error("%s", err);
        goto out;
    }
    if (mdb_txn_begin(store_env(r->st), NULL, 0, &txn) ||
        pgload_match(c, r->venue, o->match, r->st, txn, NULL, err, sizeof err) || mdb_txn_commit(txn)) {
        if (txn)
            mdb_txn_abort(txn);   /* (after a failed commit: a no-op, the handle is freed) */
        cli_error("%s", err[0] ? err : "cannot write the scratch store");
        goto out;
    }
    store_close(&r->st);   /* one environment per file and process: opened again read-only */
    rc = open_store(r, o, r->scratch);
out:
    PQfinish(c);
    return rc;
}

static int source_open(source *r, const audit_opts *o)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    return o->query ? open_query(r, o, o->query) : o->pg ? open_pg(r, o) : open_store(r, o, o->db);
}

static void source_close(source *r)
{
    json_decref(r->summary);
    json_decref(r->events);
    free(r->summary_raw);
    free(r->seal_raw);
    free(r->hint);
    if (r->txn)
        mdb_txn_abort(r->txn);
    store_close(&r->st);
    if (r->scratch[0])
        pgload_scratch_remove(r->scratch, &r->st);
}

/* The card database the record pins, from the store or the daemon, after
 * checking that its bytes still hash to the name it is stored under.
 * *altered is RECORD_CARDS_OK, or RECORD_CARDS_ALTERED when they do not,
 * RECORD_CARDS_MISSING when the store has no such database (the record is
 * then judged again with nothing: --cards gives the genuine file). */
static int source_cards(source *r, cards **db, int *altered)
{
    const char *hash = json_string_value(json_object_get(r->summary, "cards_hash"));
    char err[2048], got[65];
    const void *bytes = NULL;
    size_t len = 0;
    json_t *rep = NULL;
    uint8_t h[32];
    int rc;

    *altered = RECORD_CARDS_OK;
    if (r->o->cards)
        return cli_load_cards(r->o->cards, db);
    if (!hash) {
        cli_error("the record of %s names no card database", r->o->match);
        return CLI_BADINPUT;
    }
    if (r->o->query) {
        rep = query_call(r->o, r->o->query, json_pack("{s:s, s:s}", "op", "cards", "hash", hash), err, sizeof err);
        bytes = json_string_value(json_object_get(rep, "cards"));
        len = json_string_length(json_object_get(rep, "cards"));
    } else if (store_get_cards(r->st, r->txn, hash, &bytes, &len)) {
        bytes = NULL;
        snprintf(err, sizeof err, "the store keeps no card database with hash %s", hash);
    }
    if (!bytes && r->o->query && !rep) {
        cli_error("%s: %s", r->o->match, err);   /* the daemon did not answer */
        return CLI_BADINPUT;
    }
    if (!bytes) {
        *altered = RECORD_CARDS_MISSING;   /* a record pins what its store must keep */
        json_decref(rep);
        return CLI_OK;
    }
    crypto_generichash(h, sizeof h, bytes, len, NULL, 0);
    carddb_hash_hex(h, got);
    if (strcmp(got, hash)) {
        *altered = RECORD_CARDS_ALTERED;
        json_decref(rep);
        return CLI_OK;
    }
    rc = carddb_load_buffer(bytes, len, hash, db, err, sizeof err) ? CLI_BADINPUT : CLI_OK;
    if (rc)
        cli_error("the stored card database %s: %s", hash, err);
    json_decref(rep);
    return rc;
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
    e->has_link = !hex_field(it, "link", e->link, STORE_HASH);
    e->seq = (uint64_t)json_integer_value(json_object_get(it, "seq"));
    e->event = bufs[0];
    e->verdict = bufs[1];
    e->received_ms = (uint64_t)json_integer_value(json_object_get(it, "received"));
    snprintf(e->peer, sizeof e->peer, "%s", peer ? peer : "");
    return 0;
}

static int source_each(source *r, store_event_fn fn, void *ctx)
{
    size_t i;
    json_t *it;

    if (!r->o->query)
        return record_each_event(r->st, r->txn, r->o->match, 0, UINT64_MAX, fn, ctx);
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

/* The players the record's header seats (its seq 0, from the store or the
 * daemon's answer), or 0 when it has no readable header. */
static unsigned source_players(source *r)
{
    olevent *h = NULL;
    unsigned n = 0;

    if (!r->o->query) {
        if (record_header(r->st, r->txn, r->o->match, &h))
            h = NULL;
    } else if (json_array_size(r->events)) {
        store_event e;
        uint8_t *bufs[2] = {NULL, NULL};
        if (event_of_item(json_array_get(r->events, 0), &e, bufs) ||
            olcodec_decode_message(e.event, e.event_len, &h, NULL) != OL_OK)
            olevent_destroy(&h);
        free(bufs[0]);
        free(bufs[1]);
    }
    if (h && h->type == OL_MATCH)
        n = h->header.n_players;
    olevent_destroy(&h);
    return n;
}

/* ---- another record of the match (--against) ----------------------------- */

/* The other record's chain links (as their bytes make them) and verdicts. */
typedef struct {
    uint8_t (*chain)[STORE_HASH];
    json_t *verdicts;             /* array, index = seq                     */
    size_t n;
    seal_walk walk;
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
    seal_walk_event(&l->walk, e);
    memcpy(l->chain[l->n], l->walk.made, STORE_HASH);
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
    source r;
    int rc;

    other.db = strstr(o->against, "://") ? NULL : o->against;
    other.query = other.db ? NULL : o->against;
    l->verdicts = json_array();
    seal_walk_init(&l->walk);
    if ((rc = source_open(&r, &other)) == CLI_OK && (rc = source_each(&r, collect_link, l)))
        cli_error("%s: the record of %s there cannot be read whole", o->against, o->match);
    source_close(&r);
    return rc ? CLI_BADINPUT : CLI_OK;
}

/* ---- the audit ------------------------------------------------------------- */

typedef struct {
    const audit_opts *o;
    verify_session *sess;         /* NULL: nothing to judge with (altered cards) */
    record_findings f;            /* the record module's check (record.h):
                                     links, verdicts and boards judged again,
                                     seal, summary, card database           */
    int unclean;                  /* a stored verdict is not ok or warning  */
    json_t *timeline;             /* --json                                  */
    json_t *board;                /* --at, --json                            */
    char *board_text;             /* --at                                    */
    int board_done;
    uint64_t last;
    links other;                  /* --against: the other record's chain  */
    int64_t diverge;              /* first seq where the records differ, -1 */
    /* --html: what the page shows of each event (owned: its `what` and
     * every JSON value), the match's header for the views of events, and
     * whether every event's board is drawn (auditpage.h's bound) */
    const cards *db;
    auditpage_event *pev;
    size_t n_pev, cap_pev;
    olevent *header;
    int all, page_failed;
    /* remedies (SPEC.md 8.1): the board the match paused on, drawn at the
     * illegal action (it does not change while events are held), and that
     * action's seq; printed with the remedy that ends the pause */
    char *paused_board;
    int64_t paused_at;            /* -1: not paused */
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

/* The board as the session stands, in words, in the audit's view: a new
 * string, or NULL (no engine, out of memory). */
static char *board_words(const audit_ctx *c)
{
    const verifier *vf = c->sess ? verify_session_verifier(c->sess) : NULL;
    char *text = NULL;
    size_t n = 0;
    FILE *f = vf ? open_memstream(&text, &n) : NULL;
    if (!f)
        return NULL;
    if (view_board_print(f, vf, c->o->view))
        fprintf(f, "  (no board for this format)\n");
    fclose(f);
    return text;
}

/* SPEC.md 8.1: a judge's remedy on the timeline -- who gave it (the key or
 * address that sent it, as stored), what became of the held events, and
 * the board on both sides of it: the one the match paused on and the one
 * after.  The pause's board is drawn at the illegal action. */
static void audit_remedy(audit_ctx *c, const record_step *step, json_t *row)
{
    uint64_t at = 0;
    int paused = c->sess && verify_session_paused(c->sess, &at);
    size_t n = 0;
    const olverdict *later = c->sess ? verify_session_later(c->sess, &n) : NULL;
    const olevent *ev = step->ev;
    int remedy = ev && ev->type == OL_JUDGE && (ev->has_remedy || n);

    if (remedy && (n || !paused || (int64_t)at != c->paused_at)) {
        json_t *list = json_array();
        for (size_t i = 0; list && i < n; i++)
            json_array_append_new(list, olverdict_to_json(&later[i], NULL));
        if (row && list)
            json_object_set(row, "later", list);
        if (!c->o->json && !c->o->html) {
            char *after = board_words(c);
            printf("  %-23s remedy %s, given by %s, for the illegal action at #%lld:\n", "",
                   ev->has_remedy ? ol_remedy_name(ev->remedy) : "game loss", step->stored->peer[0] ?
                   step->stored->peer : "(no sender recorded)", (long long)c->paused_at);
            for (size_t i = 0; i < n; i++)
                printf("  %-23s   #%llu later: %s %s %s\n", "", (unsigned long long)later[i].seq,
                       ol_status_name(later[i].status), later[i].rule, later[i].msg);
            printf("  %-23s   the board it paused on, after #%lld:\n%s", "", (long long)c->paused_at,
                   c->paused_board ? c->paused_board : "  (none drawn)\n");
            printf("  %-23s   the board after the remedy, #%llu:\n%s", "", (unsigned long long)step->stored->seq,
                   after ? after : "  (none drawn)\n");
            free(after);
        }
        json_decref(list);
        free(c->paused_board);
        c->paused_board = NULL;
        c->paused_at = -1;
    }
    if (paused && (int64_t)at != c->paused_at) {   /* a new pause: its board */
        free(c->paused_board);
        c->paused_board = c->o->json || c->o->html ? NULL : board_words(c);
        c->paused_at = (int64_t)at;
    }
}

static void draw_board(audit_ctx *c)
{
    const verifier *vf = c->sess ? verify_session_verifier(c->sess) : NULL;

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

/* --html: is this event's board drawn?  Every one when the match has at
 * most AUDITPAGE_BOUND events; else a fault's, every AUDITPAGE_EVERY-th
 * and --at's (the last one's is drawn after the walk). */
static int page_draws(const audit_ctx *c, const auditpage_event *p, int all)
{
    const char *st = json_string_value(json_object_get(p->verdict, "status"));
    int fault = !st || (strcmp(st, "ok") && strcmp(st, "warning")) || p->again;
    return all || fault || p->seq % AUDITPAGE_EVERY == 0 || (c->o->has_at && p->seq == c->o->at);
}

/* --html: keep what the page shows of one event, the session standing
 * after it.  Outside the judge view, also what the view may name there
 * and the hidden cards the event names (auditpage.h: seen, hidden).
 * 0, or -1 when out of memory. */
static int page_event(audit_ctx *c, const store_event *e, const olevent *ev, const char *what, json_t *stored,
                      json_t *again)
{
    const verifier *vf = c->sess ? verify_session_verifier(c->sess) : NULL;
    json_t *board = NULL, *judge = NULL, *shown = NULL;
    const char *k;
    json_t *v;
    int rc = -1;

    if (c->n_pev == c->cap_pev) {
        size_t cap = c->cap_pev ? 2 * c->cap_pev : 64;
        auditpage_event *grown = realloc(c->pev, cap * sizeof *grown);
        if (!grown)
            return -1;
        c->pev = grown;
        c->cap_pev = cap;
    }
    auditpage_event *p = &c->pev[c->n_pev++];
    memset(p, 0, sizeof *p);
    p->seq = e->seq;
    p->verdict = json_incref(stored);
    p->again = again && !json_equal(again, stored) ? json_incref(again) : NULL;
    p->event = ev ? view_event_json(ev, c->o->view, c->header) : NULL;
    if (!(p->what = strdup(what)) || (ev && !p->event))
        return -1;
    /* a judge's remedy (SPEC.md 8.1): its later verdicts, the pause it
     * ends, its sender, and its board is drawn */
    size_t n_later = 0;
    const olverdict *later = c->sess ? verify_session_later(c->sess, &n_later) : NULL;
    if (ev && ev->type == OL_JUDGE && (ev->has_remedy || n_later) && c->paused_at >= 0) {
        if (!(p->later = json_array()) || !(p->sender = strdup(e->peer)))
            return -1;
        for (size_t i = 0; i < n_later; i++)
            if (json_array_append_new(p->later, olverdict_to_json(&later[i], NULL)))
                return -1;
        p->remedy_for = (uint64_t)c->paused_at;
    }
    int draw = vf && (page_draws(c, p, c->all) || p->later);
    if (vf && (draw || c->o->view != VIEW_JUDGE) && !(board = view_board_json(vf, c->o->view)))
        return -1;
    if (c->o->view != VIEW_JUDGE) {
        p->seen = json_object();
        p->hidden = json_object();
        shown = json_object();
        judge = ev ? view_event_json(ev, VIEW_JUDGE, c->header) : NULL;
        if (!p->seen || !p->hidden || !shown || (ev && !judge) || view_strings(p->seen, board, c->db) ||
            view_strings(p->seen, p->event, c->db) || view_strings(shown, p->event, NULL) ||
            view_strings(p->hidden, judge, NULL))
            goto out;
        json_object_foreach(shown, k, v)
            json_object_del(p->hidden, k);
    }
    p->board = draw ? json_incref(board) : NULL;
    rc = 0;
out:
    json_decref(board);
    json_decref(judge);
    json_decref(shown);
    return rc;
}

/* One event as the record module's check met it (record_check_step): the
 * timeline's row, the page's event, where --against parts, --at's board. */
static int audit_step(void *ctx, const record_step *step)
{
    audit_ctx *c = ctx;
    const store_event *e = step->stored;
    json_t *stored = NULL, *again = NULL;
    char what[64];

    if (c->o->against && c->diverge < 0 &&
        (e->seq >= c->other.n || memcmp(c->other.chain[e->seq], c->f.walk.made, STORE_HASH)))
        c->diverge = (int64_t)e->seq;
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &stored, NULL) != OL_OK)
        stored = json_pack("{s:I, s:s}", "seq", (json_int_t)e->seq, "status", "unreadable");
    const char *status = json_string_value(json_object_get(stored, "status"));
    if (!status || (strcmp(status, "ok") && strcmp(status, "warning")))
        c->unclean = 1;
    if (step->again) {
        const verify_report *rep = verify_session_report(step->sess);
        again = olverdict_to_json(&step->again->v,
                                  step->again->stored == VERIFY_NONE ? NULL : &rep->verdicts[step->again->stored].v);
    }
    what_text(step->ev, what, sizeof what);
    if (c->o->html && !c->page_failed && page_event(c, e, step->ev, what, stored, again))
        c->page_failed = 1;
    if (step->ev && step->ev->type == OL_MATCH && !c->header &&
        olcodec_decode_message(e->event, e->event_len, &c->header, NULL) != OL_OK)
        olevent_destroy(&c->header);   /* kept for the views of the events after it */
    json_t *row = json_pack("{s:I, s:s, s:O}", "seq", (json_int_t)e->seq, "event", what, "verdict", stored);
    if (row && again && !json_equal(again, stored))
        json_object_set(row, "judged_again", again);
    json_array_append_new(c->timeline, row);
    int printed = !c->o->json && !c->o->html;
    if (printed) {
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
    audit_remedy(c, step, row);
    c->last = e->seq;
    json_decref(stored);
    json_decref(again);
    if (c->o->has_at && e->seq == c->o->at && !c->o->html)
        draw_board(c);
    return 0;
}

static int audit_one(void *ctx, const store_event *e)
{
    audit_ctx *c = ctx;
    return record_check_step(&c->f, c->sess, e, audit_step, c);
}

/* "the records diverge at #12: here ..., there ..." */
static void print_divergence(FILE *out, const audit_ctx *c, const char *src)
{
    json_t *there = c->diverge < (int64_t)c->other.n ? json_array_get(c->other.verdicts, (size_t)c->diverge) : NULL;
    json_t *here = c->diverge < (int64_t)json_array_size(c->timeline)
                       ? json_object_get(json_array_get(c->timeline, (size_t)c->diverge), "verdict")
                       : NULL;
    fprintf(out, "against %s: the records diverge at #%lld", src, (long long)c->diverge);
    if (!here || !there) {
        fprintf(out, ": %s ends before it\n", here ? src : "this record");
        return;
    }
    const char *s1 = json_string_value(json_object_get(here, "status")), *r1 = json_string_value(json_object_get(here, "rule"));
    const char *s2 = json_string_value(json_object_get(there, "status")), *r2 = json_string_value(json_object_get(there, "rule"));
    fprintf(out, ": here %s%s%s, there %s%s%s%s\n", s1 ? s1 : "?", r1 ? " " : "", r1 ? r1 : "", s2 ? s2 : "?", r2 ? " " : "",
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
    const char *owner = json_string_value(json_object_get(json_object_get(s, "owner"), "name"));
    printf("%s  %s, %s, %s, %lld events, round %lld%s%s\n", json_string_value(json_object_get(s, "match")),
           status ? status : "?", json_is_true(json_object_get(s, "finished")) ? "finished" : "live",
           winner ? winner : "no winner", (long long)json_integer_value(json_object_get(s, "events")),
           (long long)json_integer_value(json_object_get(s, "rounds")), t ? ", tournament " : "", t ? t : "");
    printf("judged by %s with cards %s (%.16s...)%s%s\n", json_string_value(json_object_get(s, "engine")),
           json_string_value(json_object_get(s, "cards")), json_string_value(json_object_get(s, "cards_hash")),
           owner ? "; owned by " : "", owner ? owner : "");
}

/* ---- the record as a whole: seal, summary ---------------------------------- */

/* Whose seals the audit accepts, and what it found of the record as a
 * whole beyond record_findings. */
typedef struct {
    record_trust trust;
    const char *from;             /* "sealed-by", "trusted-seals", "daemon", "venue", "home" */
    char home[4096];              /* --db: where the daemon's key was looked for */
    char head[SEAL_HEAD_TEXT];
    int head_ok;                  /* --head given and it is this record's  */
} whole;

/* The key --sealed-by names: a .pub/.key file's sign-public, or 64 hex. */
static int sealed_by_key(const char *text, uint8_t out[32])
{
    keys_pair k;
    char err[512];
    if (!hex_key(text, out))
        return 0;
    if (keys_read(text, &k, err, sizeof err)) {
        cli_error("--sealed-by: %s", err);
        return -1;
    }
    memcpy(out, k.sign_public, 32);
    sodium_memzero(&k, sizeof k);
    return 0;
}

/* Whose seals count (arbiter-audit(1)): the key --sealed-by names, and the
 * keys --trusted-seals lists; without either, over --query the keys the
 * daemon trusts (its health: its configuration), and with --db the
 * daemon's .pub and trusted-seals file beside the store (record_home) --
 * never the store's own list of keys, which whoever edits it can extend.
 * 0, or -1 (said). */
static int audit_trust(const audit_opts *o, const source *r, whole *w)
{
    char err[512];
    uint8_t key[32];
    memset(&w->trust, 0, sizeof w->trust);
    if (o->sealed_by) {
        if (sealed_by_key(o->sealed_by, key))
            return -1;
        record_trust_add(&w->trust, key, "--sealed-by");
        w->from = "sealed-by";
    }
    if (o->trusted_seals && record_trust_load(&w->trust, o->trusted_seals, err, sizeof err)) {
        cli_error("--trusted-seals: %s", err);
        return -1;
    }
    if (o->trusted_seals && !w->from)
        w->from = "trusted-seals";
    if (w->from)
        return 0;
    if (o->query) {
        w->trust = r->trusted;
        w->from = "daemon";
        return 0;
    }
    if (o->pg) {   /* what the circuit's administrator registered (arbiter pg venue add) */
        if (!r->has_venue_key) {
            cli_error("the venue %s is not registered in the circuit's database: give the key its seals must have "
                      "(--sealed-by its .pub, or --trusted-seals)", r->venue);
            return -1;
        }
        record_trust_add(&w->trust, r->venue_key, r->venue);
        w->from = "venue";
        return 0;
    }
    record_home(o->db, w->home, sizeof w->home);
    w->from = "home";
    if (record_trust_home(&w->trust, o->db, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    return 0;
}

static void check_whole(audit_ctx *c, const source *r, whole *w, int cards_status)
{
    record_check_finish(&c->f, c->o->match, c->sess, r->seal_raw, r->seal_len, r->summary_raw, r->summary_len,
                        r->summary, cards_status, &w->trust);
    if (!(c->f.seal & (SEAL_MISSING | SEAL_UNREADABLE))) {
        seal_head(&c->f.s, c->o->match, w->head);
        w->head_ok = c->o->head && seal_head_matches(&c->f.s, c->o->match, c->o->head);
    }
}

/* What the seal's signer was checked against (arbiter-audit(1)). */
static const char *signer_source(const whole *w)
{
    return !strcmp(w->from, "sealed-by")       ? "the key given with --sealed-by"
           : !strcmp(w->from, "trusted-seals") ? "a key --trusted-seals lists"
           : !strcmp(w->from, "daemon")        ? "a key the daemon trusts, from its health"
           : !strcmp(w->from, "venue")         ? "the key the circuit's database registers for the venue"
                                               : "the daemon's key beside the store, or one its trusted-seals lists";
}

/* 1 when the store lists `key` among its daemons' keys (a hint only). */
static int store_hints(const source *r, const uint8_t key[32])
{
    for (size_t i = 0; i < r->n_hint; i++)
        if (!memcmp(r->hint + 32 * i, key, 32))
            return 1;
    return 0;
}

/* The seal's findings, each a sentence. */
static void print_seal(FILE *out, const audit_ctx *c, const source *r, const whole *w)
{
    const record_findings *f = &c->f;
    char signer[65];
    if (f->seal & SEAL_MISSING) {
        fprintf(out, "seal: MISSING: the record is not sealed: a daemon from before seals wrote it and none sealed it "
               "since, or its seal was removed; only its hash chain vouches for it, and anybody can compute one\n");
        return;
    }
    if (f->seal & SEAL_UNREADABLE) {
        fprintf(out, "seal: UNREADABLE: what is stored as the seal is not one\n");
        return;
    }
    sodium_bin2hex(signer, sizeof signer, f->s.signer, 32);
    if (!f->seal && f->trusted)
        fprintf(out, "seal: valid, over %llu events, the chain and record heads and the summary; signed by %.16s... "
               "(%s%s%s)\n", (unsigned long long)f->s.events, signer, f->trusted_name ? f->trusted_name : "",
               f->trusted_name ? "; " : "", signer_source(w));
    if (f->seal & SEAL_SIGNATURE)
        fprintf(out, "seal: BROKEN: its signature does not hold (the seal was altered)\n");
    if (!f->trusted && !w->trust.n && !strcmp(w->from, "home"))
        fprintf(out, "seal: signed by %.16s..., and no trusted key was found: no arbiterd.pub or trusted-seals beside "
               "the store (in %s); give the daemon's .pub with --sealed-by\n", signer, w->home);
    else if (!f->trusted)
        fprintf(out, "seal: signed by %.16s..., which is not %s%s\n", signer,
               !strcmp(w->from, "sealed-by") ? "the key given with --sealed-by"
               : !strcmp(w->from, "daemon")  ? "a key the daemon trusts (give --sealed-by if its key was changed)"
                                             : signer_source(w),
               store_hints(r, f->s.signer) ? " (the store lists it among its daemons' keys, but whoever edits a store "
                                             "can add to that list: if it was your daemon's key, give its .pub with "
                                             "--sealed-by or list it with --trusted-seals)" : "");
    if (f->seal & SEAL_EVENTS)
        fprintf(out, "seal: it covers %llu events (#0-#%lld), the record holds %llu: %s\n", (unsigned long long)f->s.events,
               (long long)f->s.events - 1, (unsigned long long)f->walk.n,
               f->s.events > f->walk.n ? "events were removed" : "events were added after the seal");
    if ((f->seal & SEAL_HEADS) && !(f->seal & SEAL_EVENTS))
        fprintf(out, "seal: the events are not the ones sealed: they were rewritten and their chain computed again\n");
    if (f->seal & SEAL_SUMMARY)
        fprintf(out, "seal: the summary is not the one sealed: it was rewritten\n");
}

static void print_checks(FILE *out, const audit_ctx *c, const source *r, const whole *w)
{
    const record_findings *f = &c->f;
    if (f->walk.chain_broken < 0)
        fprintf(out, "hash chain: intact, %llu links through #%llu\n", (unsigned long long)f->walk.n, (unsigned long long)c->last);
    else
        fprintf(out, "hash chain: BROKEN at #%lld: the stored event or its verdict is not what was chained\n",
               (long long)f->walk.chain_broken);
    if (f->walk.hole >= 0)
        fprintf(out, "events: #%lld is missing from the record\n", (long long)f->walk.hole);
    if (f->walk.link_broken >= 0)
        fprintf(out, "record links: BROKEN at #%lld: the receive time or sender of #%lld was changed after it was stored\n",
               (long long)f->walk.link_broken, (long long)f->walk.link_broken);
    else if (f->walk.legacy)
        fprintf(out, "record links: none stored (events stored by a daemon from before record links): computed for the seal\n");
    else
        fprintf(out, "record links: intact (receive times, senders and boards as recorded)\n");
    print_seal(out, c, r, w);
    if (w->head[0])
        fprintf(out, "record head: %s%s\n", w->head,
               !c->o->head ? " (write it on the match slip)" : w->head_ok ? " (as written on the match slip)" : "");
    if (c->o->head && !w->head_ok)
        fprintf(out, "record head: NOT %s, the head written on the match slip: the record changed since\n", c->o->head);
    if (f->cards == RECORD_CARDS_MISSING)
        fprintf(out, "card database: MISSING: the store keeps no card database %.16s..., which the record pins; nothing "
               "was judged again (give --cards with the genuine file)\n",
               json_string_value(json_object_get(r->summary, "cards_hash")));
    else if (f->cards == RECORD_CARDS_ALTERED)
        fprintf(out, "card database: ALTERED: the copy stored as %.16s... no longer hashes to that name; nothing was "
               "judged again (give --cards with the genuine file)\n",
               json_string_value(json_object_get(r->summary, "cards_hash")));
    if (f->summary_differs) {
        fprintf(out, "summary: it does not say what the record says: ");
        for (unsigned bit = 1, first = 1; bit <= RECORD_SUM_COUNTS; bit <<= 1)
            if (f->summary_differs & bit) {
                fprintf(out, "%s%s", first ? "" : ", ", record_sum_name(bit));
                first = 0;
            }
        fprintf(out, " differ (the summary says %s; its stored verdicts make it %s)\n",
               json_string_value(json_object_get(r->summary, "status")),
               f->counts[OL_V_ILLEGAL] || f->counts[OL_V_MISMATCH] ? "illegal" : "legal");
    }
}

/* Everything the text audit finds after its timeline: the record's checks,
 * the record judged again, and with --against where the two records part.
 * The text audit prints it on stdout; the page (--html) shows the same
 * lines. */
static void print_findings(FILE *out, const audit_ctx *c, const source *r, const whole *w)
{
    const audit_opts *o = c->o;

    const record_findings *f = &c->f;
    print_checks(out, c, r, w);
    if (c->sess && f->verdict_differs < 0 && f->board_differs < 0)
        fprintf(out, "judged again%s: every verdict and every board as stored\n",
                o->cards ? " with the given card database" : "");
    if (f->verdict_differs >= 0)
        fprintf(out, "judged again%s: %zu verdict%s differ, the first at #%lld\n",
                o->cards ? " with the given card database" : "", f->n_differ, f->n_differ == 1 ? "" : "s",
                (long long)f->verdict_differs);
    if (f->board_differs >= 0)
        fprintf(out, "judged again: the board differs from the stored one from #%lld on\n", (long long)f->board_differs);
    if (o->against && c->diverge < 0)
        fprintf(out, "against %s: the two records agree, %zu events, link for link\n", o->against, c->other.n);
    else if (o->against)
        print_divergence(out, c, o->against);
}

/* ---- the page (--html) -------------------------------------------------------- */

static void page_free(audit_ctx *c)
{
    for (size_t i = 0; i < c->n_pev; i++) {
        auditpage_event *p = &c->pev[i];
        free((char *)p->what);
        json_decref(p->event);
        json_decref(p->verdict);
        json_decref(p->again);
        json_decref(p->board);
        json_decref(p->seen);
        json_decref(p->hidden);
        json_decref(p->later);
        free((char *)p->sender);
    }
    free(c->pev);
    c->pev = NULL;
    c->n_pev = c->cap_pev = 0;
    olevent_destroy(&c->header);
}

/* After the walk: the last event's board is drawn (the session stands
 * there), and when the match turned out longer than the bound the summary
 * promised, the boards past the rule are dropped. */
static int page_finish(audit_ctx *c)
{
    const verifier *vf = c->sess ? verify_session_verifier(c->sess) : NULL;
    int all = c->n_pev <= AUDITPAGE_BOUND;

    for (size_t i = 0; i + 1 < c->n_pev && !all; i++)
        if (c->pev[i].board && !page_draws(c, &c->pev[i], 0)) {
            json_decref(c->pev[i].board);
            c->pev[i].board = NULL;
        }
    if (vf && c->n_pev && !c->pev[c->n_pev - 1].board &&
        !(c->pev[c->n_pev - 1].board = view_board_json(vf, c->o->view)))
        return -1;
    c->all = all && vf;
    return 0;
}

/* The page: the text audit's findings as its checks, the events kept by
 * page_event(), saved through htmlout_save().  CLI_OK, or CLI_BADINPUT (the
 * file cannot be written) or CLI_INTERNAL, reported. */
/* checks: the page's sentences about the record, or NULL: the text
 * audit's findings */
static int write_html(audit_ctx *c, const source *r, const whole *w, int intact, const char *checks_text)
{
    char *checks = NULL, when[64] = "", err[1024];
    size_t n = 0;
    jtext out = {0};
    auditpage_in in;
    time_t now = time(NULL);
    struct tm tm;
    int rc = CLI_INTERNAL;
    FILE *f;

    if (c->page_failed || page_finish(c) || !(f = open_memstream(&checks, &n)))
        goto done;
    if (checks_text)
        fputs(checks_text, f);
    else
        print_findings(f, c, r, w);
    if (fclose(f))
        goto done;
    memset(&in, 0, sizeof in);
    in.match = c->o->match;
    in.view = c->o->view;
    in.summary = r->summary;
    json_t *players = c->n_pev ? json_object_get(c->pev[0].event, "players") : NULL;
    in.n_players = c->header ? c->header->header.n_players : 2;
    for (unsigned p = 0; p < OL_PLAYERS_MAX; p++)
        in.players[p] = json_string_value(json_object_get(json_object_get(players, ol_player_name((ol_player)p)), "id"));
    in.db = c->db;
    in.events = c->pev;
    in.n_events = c->n_pev;
    in.checks = checks;
    in.intact = intact;
    in.judged = c->sess != NULL;
    in.as_stored = c->sess && c->f.verdict_differs < 0 && c->f.board_differs < 0;
    in.all_drawn = c->all;
    in.broadcast = c->o->broadcast;
    if (now != (time_t)-1 && gmtime_r(&now, &tm) && strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm))
        in.generated = when;
    if (auditpage_write(&in, &out))
        goto done;
    int saved = htmlout_save(c->o->html, &out, err, sizeof err);
    if (saved != HTMLOUT_OK) {
        cli_error("%s", err);
        rc = saved == HTMLOUT_ENOMEM || !strcmp(c->o->html, "-") ? CLI_INTERNAL : CLI_BADINPUT;
        goto out;
    }
    rc = CLI_OK;
done:
    if (rc != CLI_OK)
        cli_error("out of memory while writing the page");
out:
    jtext_free(&out);
    free(checks);
    return rc;
}

/* --view broadcast (arbiterd(8), BROADCAST): the events the daemon's
 * broadcast has let out -- older than its delay -- in the judge's view, as
 * a stream's overlay polls them: the timeline and the board after the last
 * one, as the page (--html), JSON (--json) or text.  No record check: the
 * record goes on past them (a judge's audit checks it whole). */
static int broadcast_page(audit_ctx *c, const source *r, const whole *w)
{
    char sentence[256];
    uint64_t n = c->f.walk.n;
    if (!c->board_done)
        draw_board(c);   /* after the last event let out */
    snprintf(sentence, sizeof sentence,
             "A broadcast page: the %llu event%s of match %s older than the daemon's broadcast delay, in the "
             "judge's view; the record's checks are a judge's audit's.\n",
             (unsigned long long)n, n == 1 ? "" : "s", c->o->match);
    if (c->o->html)
        return write_html(c, r, w, 1, sentence);
    if (c->o->json) {
        json_t *doc = json_pack("{s:s, s:s, s:I, s:o, s:o?}", "match", c->o->match, "view", "broadcast", "events",
                                (json_int_t)n, "timeline", c->timeline, "board", c->board);
        c->timeline = NULL;
        c->board = NULL;
        return cli_print_json(doc) ? CLI_INTERNAL : CLI_OK;
    }
    fputs(sentence, stdout);
    if (c->board_text)
        printf("\nboard after #%llu (the judge's view, late)\n%s", (unsigned long long)c->last, c->board_text);
    return CLI_OK;
}

int cmd_audit(int argc, char **argv)
{
    audit_opts o;
    source r;
    cards *db = NULL;
    audit_ctx c;
    static whole w;   /* a record_trust is 25 KB */
    int cards_status = RECORD_CARDS_OK;
    int rc = parse(argc, argv, &o, 1);

    memset(&c, 0, sizeof c);
    memset(&r, 0, sizeof r);
    memset(&w, 0, sizeof w);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if ((rc = source_open(&r, &o)) || (rc = source_cards(&r, &db, &cards_status)))
        goto out;
    unsigned seats = view_seat(o.view) >= 0 ? source_players(&r) : 0;
    char why[128];
    if (seats && !view_in_match(o.view, seats, why, sizeof why)) {   /* --view p3 of a duel */
        cli_error("%s: %s", o.match, why);
        rc = CLI_BADINPUT;
        goto out;
    }
    if (audit_trust(&o, &r, &w)) {
        rc = CLI_BADINPUT;
        goto out;
    }
    rc = CLI_INTERNAL;
    c.o = &o;
    c.diverge = -1;
    c.paused_at = -1;
    record_check_init(&c.f);
    if (o.against && (rc = read_other(&o, &c.other)))
        goto out;
    rc = CLI_INTERNAL;
    if ((db && verify_session_new(db, o.match, &c.sess) != VERIFY_OK) || !(c.timeline = json_array()))
        goto out;
    c.db = db;
    c.all = (o.query ? json_array_size(r.events) : (size_t)json_integer_value(json_object_get(r.summary, "events"))) <=
            AUDITPAGE_BOUND;
    if (!o.json && !o.html) {
        print_summary_line(r.summary);
        printf("timeline\n");
    }
    if (source_each(&r, audit_one, &c)) {
        cli_error("%s: the record cannot be read whole", o.match);
        goto out;
    }
    if (o.has_at && !c.board_done && !o.html) {
        if (!o.json)
            printf("(no event #%llu is stored: the board shown is after the last one, #%llu)\n",
                   (unsigned long long)o.at, (unsigned long long)c.last);
        draw_board(&c);
    }
    if (o.against && c.diverge < 0 && c.other.n != c.f.walk.n)
        c.diverge = (int64_t)(c.f.walk.n < c.other.n ? c.f.walk.n : c.other.n);   /* one is longer */
    if (o.broadcast) {   /* a page for a stream's overlay, not an audit */
        rc = broadcast_page(&c, &r, &w);
        goto out;
    }
    check_whole(&c, &r, &w, cards_status);
    const record_findings *f = &c.f;
    /* intact: the record is the one a trusted daemon sealed (record.h's
     * findings but the judging again, which `clean` adds) */
    int intact = f->walk.chain_broken < 0 && f->walk.link_broken < 0 && f->walk.hole < 0 && !f->unreadable &&
                 !f->undecodable && !f->seal && f->trusted && f->cards == RECORD_CARDS_OK && !f->summary_bad &&
                 !f->summary_differs && (!o.head || w.head_ok);
    int clean = intact && f->verdict_differs < 0 && f->board_differs < 0 && !c.unclean && c.diverge < 0;
    if (o.html) {
        if ((rc = write_html(&c, &r, &w, intact, NULL)) != CLI_OK)
            goto out;
    } else if (o.json) {
        char signer[65] = "";
        int seal_bits = f->seal | (!f->trusted && !(f->seal & (SEAL_MISSING | SEAL_UNREADABLE)) ? SEAL_SIGNER : 0);
        if (!(f->seal & (SEAL_MISSING | SEAL_UNREADABLE)) && r.seal_raw)
            sodium_bin2hex(signer, sizeof signer, f->s.signer, 32);
        json_t *findings = json_array(), *differs = json_array();
        static const struct { int bit; const char *name; } names[] = {
            {SEAL_MISSING, "missing"}, {SEAL_UNREADABLE, "unreadable"}, {SEAL_SIGNATURE, "signature"},
            {SEAL_SIGNER, "signer"}, {SEAL_EVENTS, "events"}, {SEAL_HEADS, "heads"}, {SEAL_SUMMARY, "summary"}};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (seal_bits & names[i].bit)
                json_array_append_new(findings, json_string(names[i].name));
        for (unsigned bit = 1; bit <= RECORD_SUM_COUNTS; bit <<= 1)
            if (f->summary_differs & bit)
                json_array_append_new(differs, json_string(record_sum_name(bit)));
        json_t *doc = json_pack("{s:s, s:O, s:o, s:{s:b, s:I, s:o}, s:{s:b, s:I, s:o, s:o}, s:o?}", "match", o.match,
                                "summary", r.summary, "timeline", c.timeline, "chain", "intact", f->walk.chain_broken < 0,
                                "links", (json_int_t)f->walk.n, "broken_at", seq_or_null(f->walk.chain_broken),
                                "judged_again", "as_stored", c.sess && f->verdict_differs < 0 && f->board_differs < 0,
                                "verdicts_differ", (json_int_t)f->n_differ, "first_verdict", seq_or_null(f->verdict_differs),
                                "first_board", seq_or_null(f->board_differs), "board", c.board);
        c.timeline = NULL;
        c.board = NULL;
        if (doc && o.against)
            json_object_set_new(doc, "against",
                                json_pack("{s:s, s:I, s:o}", "source", o.against, "events", (json_int_t)c.other.n,
                                          "diverge_at", seq_or_null(c.diverge)));
        if (doc) {
            json_object_set_new(doc, "record_links", json_pack("{s:b, s:o, s:b}", "intact", f->walk.link_broken < 0,
                                                               "broken_at", seq_or_null(f->walk.link_broken), "stored",
                                                               !f->walk.legacy));
            json_object_set_new(doc, "events_missing", seq_or_null(f->walk.hole));
            json_object_set_new(doc, "seal", json_pack("{s:b, s:b, s:o, s:o, s:o, s:o, s:o}", "present", r.seal_raw != NULL,
                                                       "valid", !seal_bits && r.seal_raw,
                                                       "events", r.seal_raw && !(f->seal & SEAL_UNREADABLE)
                                                                     ? json_integer((json_int_t)f->s.events) : json_null(),
                                                       "head", w.head[0] ? json_string(w.head) : json_null(),
                                                       "signer", signer[0] ? json_string(signer) : json_null(),
                                                       "head_matches", o.head ? json_boolean(w.head_ok) : json_null(),
                                                       "findings", findings));
            json_object_set_new(json_object_get(doc, "seal"), "signer_checked_against", json_string(w.from));
            json_object_set_new(json_object_get(doc, "seal"), "signer_trusted_as",
                                f->trusted && f->trusted_name ? json_string(f->trusted_name) : json_null());
            json_object_set_new(doc, "summary_check", json_pack("{s:b, s:o}", "as_judged", !f->summary_differs,
                                                                "differs", differs));
            json_object_set_new(doc, "cards", json_pack("{s:s?, s:b, s:b}", "hash",
                                                        json_string_value(json_object_get(r.summary, "cards_hash")),
                                                        "intact", f->cards == RECORD_CARDS_OK, "missing",
                                                        f->cards == RECORD_CARDS_MISSING));
            json_object_set_new(doc, "intact", json_boolean(intact));
        } else {
            json_decref(findings);
            json_decref(differs);
        }
        if (cli_print_json(doc))
            goto out;
    } else {
        print_findings(stdout, &c, &r, &w);
        if (c.board_text)
            printf("\nboard after #%llu (%s view)\n%s", (unsigned long long)(c.o->at <= c.last ? o.at : c.last),
                   view_name(o.view), c.board_text);
    }
    rc = clean ? CLI_OK : CLI_ILLEGAL;
out:
    json_decref(c.timeline);
    json_decref(c.board);
    free(c.board_text);
    free(c.paused_board);
    free(c.other.chain);
    json_decref(c.other.verdicts);
    page_free(&c);
    verify_session_destroy(&c.sess);
    source_close(&r);
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
        char after[OL_MATCH_MAX + 1] = "";
        for (;;) {
            json_t *req = json_pack("{s:s}", "op", "list"), *m, *next;
            size_t i;
            if (after[0])
                json_object_set_new(req, "after", json_string(after));
            json_t *rep = query_call(&o, o.query, req, err, sizeof err);
            if (!rep) {
                cli_error("%s", err);
                return CLI_BADINPUT;
            }
            json_array_foreach(json_object_get(rep, "matches"), i, m)
                list_one(&c, json_string_value(json_object_get(m, "match")), m);
            next = json_object_get(rep, "next");
            snprintf(after, sizeof after, "%s", json_is_string(next) ? json_string_value(next) : "");
            json_decref(rep);
            if (!after[0])
                break;
        }
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
    "usage: arbiter query [--endpoint EP] [--key FILE --server-key KEY] REQUEST\n"
    "\n"
    "Send one request to arbiterd's query socket (openlog.md 9) and print the\n"
    "reply, one JSON map per line.  REQUEST is a JSON map with \"op\":\n"
    "  {\"op\":\"health\"}   {\"op\":\"list\",\"status\":\"illegal\"}\n"
    "  {\"op\":\"match\",\"match\":ID}   {\"op\":\"state\",\"match\":ID,\"at\":17,\"view\":\"p1\"}\n"
    "  {\"op\":\"standings\",\"tournament\":ID}  (a tournament arbiterd was given)\n"
    "  --endpoint EP  default tcp://127.0.0.1:7422\n"
    "  --key FILE, --server-key KEY  CURVE: your key file and the daemon's\n"
    "                 public key (arbiter-keyring(5))\n"
    "\n"
    "exit: 0 the daemon answered ok, 1 it answered {\"ok\":false}, 2 bad usage or\n"
    "no answer.\n";

int cmd_query(int argc, char **argv)
{
    qclient q = {"tcp://127.0.0.1:7422", NULL, NULL};
    const char *text = NULL;
    char err[512];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(query_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--endpoint") && i + 1 < argc)
            q.endpoint = argv[++i];
        else if (!strcmp(argv[i], "--key") && i + 1 < argc)
            q.key = argv[++i];
        else if (!strcmp(argv[i], "--server-key") && i + 1 < argc)
            q.server_key = argv[++i];
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
    json_t *rep = qclient_send(&q, req, err, sizeof err);
    if (!rep) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    int ok = json_is_true(json_object_get(rep, "ok"));
    int rc = cli_print_json(rep);
    return rc ? rc : ok ? CLI_OK : CLI_ILLEGAL;
}
