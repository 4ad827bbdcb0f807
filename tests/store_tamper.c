/* store_tamper.c -- alter a stored record as somebody with write access to
 * the store's files would, for the tests of `arbiter audit` and of the
 * daemon's check at start (arbiter-records(5); tests/e2e_tamper.sh).
 *
 *   store_tamper DIR event    MATCH SEQ     flip the last byte of an event
 *   store_tamper DIR received MATCH SEQ     move its receive time by a second
 *   store_tamper DIR peer     MATCH SEQ     rename its sender
 *   store_tamper DIR summary  MATCH         rewrite an illegal summary as legal
 *   store_tamper DIR truncate MATCH N       delete the last N events and adjust
 *                                           the summary's counts and events
 *   store_tamper DIR rechain  MATCH SEQ     rewrite an event's bytes, then compute
 *                                           every chain and record link after it
 *                                           again, as a careful forger would
 *   store_tamper DIR resign   MATCH         rechain #0 as above and sign a new seal
 *                                           with a key of the forger's own
 *   store_tamper DIR unseal   MATCH         delete the seal
 *   store_tamper DIR launder  MATCH SEQ     move an event's receive time by an hour,
 *                                           compute the record links again, delete
 *                                           the seal and the store's "format": the
 *                                           record now looks like one from before
 *                                           seals, for the next daemon to seal
 *   store_tamper DIR relist   MATCH         resign, then add the forger's key to the
 *                                           store's list of its daemon's keys
 *   store_tamper DIR forge-peer MATCH SEQ [KEY]   rename an event's sender, compute
 *                                           every record link after it again, sign a
 *                                           new seal with the forger's key (KEY: a .key
 *                                           file; else a new one) and add that key to
 *                                           the store's list of its daemon's keys
 *   store_tamper DIR forge-summary MATCH [KEY]   rewrite an illegal summary as
 *                                           legal, sign a new seal over it as above
 *                                           and list the key
 *   store_tamper DIR cards                  alter every stored card database
 *   store_tamper DIR uncards                delete every stored card database
 *
 * Each leaves the record parseable: only the checks can tell.  Exit 0
 * done, 1 nothing to alter, 2 usage or store.
 */
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/keys.h"
#include "src/record/seal.h"
#include "src/record/store.h"

typedef struct {
    store *st;
    MDB_txn *txn;
    const char *match;
} ctx;

/* Write e back after `change` altered it (buffers it owns freed after). */
static int put_back(ctx *c, store_event *e)
{
    return store_put_event(c->st, c->txn, c->match, e);
}

static int alter_event(ctx *c, uint64_t seq, const char *what)
{
    store_event e;
    uint8_t *copy = NULL;
    int rc;
    if (store_get_event(c->st, c->txn, c->match, seq, &e)) {
        fprintf(stderr, "store_tamper: no event %llu of %s\n", (unsigned long long)seq, c->match);
        return 1;
    }
    if (!strcmp(what, "event")) {
        if (!(copy = malloc(e.event_len)))
            return 2;
        memcpy(copy, e.event, e.event_len);
        copy[e.event_len - 1] ^= 0x01;
        e.event = copy;
    } else if (!strcmp(what, "received")) {
        e.received_ms += 1000;
    } else {
        snprintf(e.peer, sizeof e.peer, "forger@10.0.0.66/00deadbeef");
    }
    rc = put_back(c, &e) ? 2 : 0;
    free(copy);
    return rc;
}

static int rewrite_summary(ctx *c, int drop)
{
    const char *json;
    size_t len;
    json_t *o;
    if (store_get_summary(c->st, c->txn, c->match, &json, &len) || !(o = json_loadb(json, len, 0, NULL)))
        return 1;
    if (!drop) {
        json_object_set_new(o, "status", json_string("legal"));
        json_t *counts = json_object_get(o, "counts");
        json_int_t bad = json_integer_value(json_object_get(counts, "illegal"));
        json_object_set_new(counts, "ok", json_integer(json_integer_value(json_object_get(counts, "ok")) + bad));
        json_object_set_new(counts, "illegal", json_integer(0));
    } else {
        json_int_t n = json_integer_value(json_object_get(o, "events")) - drop;
        json_object_set_new(o, "events", json_integer(n));
        json_object_set_new(o, "next_seq", json_integer(n));
        json_t *counts = json_object_get(o, "counts");
        json_object_set_new(counts, "ok", json_integer(json_integer_value(json_object_get(counts, "ok")) - drop));
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    int rc = text && !store_put_summary(c->st, c->txn, c->match, text, strlen(text)) ? 0 : 2;
    free(text);
    json_decref(o);
    return rc;
}

static int truncate_events(ctx *c, uint64_t drop)
{
    const char *json;
    size_t len;
    if (store_get_summary(c->st, c->txn, c->match, &json, &len))
        return 1;
    json_t *o = json_loadb(json, len, 0, NULL);
    uint64_t n = (uint64_t)json_integer_value(json_object_get(o, "events"));
    json_decref(o);
    MDB_dbi events;
    if (drop > n || mdb_dbi_open(c->txn, "events", 0, &events))
        return 2;
    for (uint64_t seq = n - drop; seq < n; seq++) {
        uint8_t key[128];
        size_t m = strlen(c->match);
        memcpy(key, c->match, m);
        key[m] = 0;
        store_put_be64(key + m + 1, seq);
        MDB_val k = {m + 9, key};
        if (mdb_del(c->txn, events, &k, NULL))
            return 2;
    }
    return rewrite_summary(c, (int)drop);
}

typedef struct {
    ctx *c;
    uint64_t from;
    uint8_t chain[32], link[32];
    int rc;
} rechain_ctx;

/* Collect the events from `from` on (store_each_event hands out pointers
 * into the map, which writes would invalidate). */
typedef struct {
    store_event *e;
    uint8_t **bufs;
    size_t n;
} list;

static int collect(void *p, const store_event *e)
{
    list *l = p;
    l->e = realloc(l->e, (l->n + 1) * sizeof *l->e);
    l->bufs = realloc(l->bufs, (l->n + 1) * 2 * sizeof *l->bufs);
    l->e[l->n] = *e;
    l->bufs[2 * l->n] = malloc(e->event_len);
    l->bufs[2 * l->n + 1] = malloc(e->verdict_len);
    memcpy(l->bufs[2 * l->n], e->event, e->event_len);
    memcpy(l->bufs[2 * l->n + 1], e->verdict, e->verdict_len);
    l->e[l->n].event = l->bufs[2 * l->n];
    l->e[l->n].verdict = l->bufs[2 * l->n + 1];
    l->n++;
    return 0;
}

enum { BYTE, RECEIVED, PEER, NOTHING };

/* Alter event `seq` (`how`: a byte, its receive time, its sender, or
 * nothing) and compute every link from it on again; with `forger`, sign a
 * new seal over the new heads and the stored summary with that key. */
static int rechain(ctx *c, uint64_t seq, const keys_pair *forger, int how)
{
    list l = {NULL, NULL, 0};
    uint8_t chain[32] = {0}, link[32] = {0};
    int rc = 0;
    if (store_each_event(c->st, c->txn, c->match, 0, UINT64_MAX, collect, &l) || seq >= l.n)
        return 1;
    if (how == RECEIVED)
        l.e[seq].received_ms += 3600 * 1000;
    else if (how == PEER)
        snprintf(l.e[seq].peer, sizeof l.e[seq].peer, "forger@10.0.0.66/00deadbeef");
    else if (how == BYTE)
        l.bufs[2 * seq][l.e[seq].event_len - 1] ^= 0x01;
    for (size_t i = 0; i < l.n && !rc; i++) {
        seal_chain_next(chain, l.e[i].event, l.e[i].event_len, l.e[i].verdict, l.e[i].verdict_len, l.e[i].chain);
        seal_link_next(link, &l.e[i], l.e[i].link);
        l.e[i].has_link = 1;
        memcpy(chain, l.e[i].chain, 32);
        memcpy(link, l.e[i].link, 32);
        if (i >= seq)
            rc = put_back(c, &l.e[i]) ? 2 : 0;
    }
    if (!rc && forger) {
        const char *json;
        size_t len;
        seal s;
        uint8_t bytes[SEAL_BYTES];
        memset(&s, 0, sizeof s);
        memset(bytes, 0, sizeof bytes);
        s.events = l.n;
        memcpy(s.chain, chain, 32);
        memcpy(s.link, link, 32);
        if (store_get_summary(c->st, c->txn, c->match, &json, &len))
            rc = 2;
        else {
            seal_summary_hash(json, len, s.summary);
            seal_sign(&s, c->match, forger->sign_public, forger->sign_secret);
            seal_encode(&s, bytes);
            rc = store_put_seal(c->st, c->txn, c->match, bytes, sizeof bytes) ? 2 : 0;
        }
    }
    for (size_t i = 0; i < 2 * l.n; i++)
        free(l.bufs[i]);
    free(l.bufs);
    free(l.e);
    return rc;
}

static int unseal(ctx *c)
{
    MDB_dbi seals;
    MDB_val k = {strlen(c->match), (void *)c->match};
    return mdb_dbi_open(c->txn, "seals", 0, &seals) || mdb_del(c->txn, seals, &k, NULL) ? 1 : 0;
}

static int del_meta(ctx *c, const char *name)
{
    MDB_dbi meta;
    MDB_val k = {strlen(name), (void *)name};
    return mdb_dbi_open(c->txn, "meta", 0, &meta) || mdb_del(c->txn, meta, &k, NULL) ? 1 : 0;
}

/* Append a key to the store's list of its daemon's signing keys. */
static int list_signer(ctx *c, const uint8_t key[32])
{
    const void *bytes;
    size_t len = 0;
    uint8_t *all;
    if (store_get_meta(c->st, c->txn, "signers", &bytes, &len) || !(all = malloc(len + 32)))
        return 1;
    memcpy(all, bytes, len);
    memcpy(all + len, key, 32);
    int rc = store_put_meta(c->st, c->txn, "signers", all, len + 32) ? 2 : 0;
    free(all);
    return rc;
}

static int alter_cards(ctx *c)
{
    MDB_dbi cards;
    MDB_cursor *cur;
    MDB_val k, v;
    int n = 0;
    if (mdb_dbi_open(c->txn, "cards", 0, &cards) || mdb_cursor_open(c->txn, cards, &cur))
        return 2;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        /* raise the first IMP value found by one: a subtle rule change */
        char *copy = malloc(v.mv_size + 1), *p;
        memcpy(copy, v.mv_data, v.mv_size);
        copy[v.mv_size] = 0;
        if ((p = strstr(copy, "\"imp\":")) || (p = strstr(copy, "\"imp\": "))) {
            while (*p && (*p < '0' || *p > '9'))
                p++;
            if (*p >= '0' && *p < '9')
                (*p)++;
        }
        MDB_val nv = {v.mv_size, copy};
        if (!mdb_cursor_put(cur, &k, &nv, MDB_CURRENT))
            n++;
        free(copy);
    }
    mdb_cursor_close(cur);
    return n ? 0 : 1;
}

static int drop_cards(ctx *c)
{
    MDB_dbi cards;
    return mdb_dbi_open(c->txn, "cards", 0, &cards) || mdb_drop(c->txn, cards, 0) ? 2 : 0;
}

int main(int argc, char **argv)
{
    ctx c = {NULL, NULL, argc > 3 ? argv[3] : NULL};
    char err[512];
    int rc = 2;
    const char *what = argc > 2 ? argv[2] : "";

    if (argc < 3 || sodium_init() < 0) {
        fprintf(stderr, "usage: store_tamper DIR event|received|peer|summary|truncate|rechain|resign|relist|unseal|"
                        "launder|forge-peer|forge-summary|cards|uncards "
                        "[MATCH [SEQ|N]]\n");
        return 2;
    }
    if (store_open(argv[1], 0, 0, &c.st, err, sizeof err)) {
        fprintf(stderr, "store_tamper: %s\n", err);
        return 2;
    }
    if (mdb_txn_begin(store_env(c.st), NULL, 0, &c.txn))
        goto out;
    uint64_t n = argc > 4 ? strtoull(argv[4], NULL, 10) : 0;
    if (!strcmp(what, "cards"))
        rc = alter_cards(&c);
    else if (!strcmp(what, "uncards"))
        rc = drop_cards(&c);
    else if (!c.match)
        rc = 2;
    else if (!strcmp(what, "event") || !strcmp(what, "received") || !strcmp(what, "peer"))
        rc = argc > 4 ? alter_event(&c, n, what) : 2;
    else if (!strcmp(what, "summary"))
        rc = rewrite_summary(&c, 0);
    else if (!strcmp(what, "truncate"))
        rc = truncate_events(&c, n);
    else if (!strcmp(what, "rechain"))
        rc = rechain(&c, n, NULL, BYTE);
    else if (!strcmp(what, "resign") || !strcmp(what, "relist")) {
        keys_pair forger;
        rc = keys_generate("forger", &forger) ? 2 : rechain(&c, 0, &forger, BYTE);
        if (!rc && !strcmp(what, "relist"))
            rc = list_signer(&c, forger.sign_public);
    } else if (!strcmp(what, "forge-peer") || !strcmp(what, "forge-summary")) {
        int peer = !strcmp(what, "forge-peer");
        const char *keyfile = argc > (peer ? 5 : 4) ? argv[peer ? 5 : 4] : NULL;
        keys_pair forger;
        if (keyfile ? keys_read(keyfile, &forger, err, sizeof err) || !forger.has_secret
                    : keys_generate("forger", &forger)) {
            fprintf(stderr, "store_tamper: %s\n", keyfile ? err : "keygen");
            rc = 2;
        } else if (peer) {
            rc = argc > 4 ? rechain(&c, n, &forger, PEER) : 2;
        } else {
            rc = rewrite_summary(&c, 0);
            if (!rc)
                rc = rechain(&c, 0, &forger, NOTHING);
        }
        if (!rc)
            rc = list_signer(&c, forger.sign_public);
    } else if (!strcmp(what, "unseal"))
        rc = unseal(&c);
    else if (!strcmp(what, "launder"))
        rc = argc > 4 ? rechain(&c, n, NULL, RECEIVED) || unseal(&c) || del_meta(&c, "format") : 2;
    if (rc == 0 && !mdb_txn_commit(c.txn)) {
        c.txn = NULL;
        goto out;
    }
    if (rc == 0)
        rc = 2;
out:
    if (c.txn)
        mdb_txn_abort(c.txn);
    store_close(&c.st);
    if (rc)
        fprintf(stderr, "store_tamper: %s: nothing altered\n", what);
    return rc;
}
