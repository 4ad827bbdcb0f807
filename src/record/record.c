/* record.c -- one match's record: read, judged again, written, sealed,
 * checked (record.h).
 *
 * Why one module: the record is what decides disputes, and many parties
 * touch it -- the batch that writes it, the restart that reads it back,
 * the query ops that show it, the audit that checks it, the tournament
 * code that counts it.  Each reads or writes the same fields in the same
 * order here, through seal.h for the links and the engine (verifier.h) for
 * the state hash, so they cannot come to disagree about what a record is.
 *
 * How a record is checked, event by event and as a whole
 * (record_check_step, record_check_finish):
 *   - the chain and the record links (seal.h's walk): h(n) is recomputed
 *     from h(n-1) and the stored event and verdict bytes, k(n) from k(n-1),
 *     h(n), the state hash, receive time and sender; the first link that
 *     differs names the first event altered, and which part;
 *   - the verdicts and boards: each stored event is judged again by a
 *     session over the card database the record pins, its verdict compared
 *     with the stored one and the engine's state hash with s(n);
 *   - the seal: its signature over the number of events, the two heads
 *     and the summary's hash -- and whether its signer is a trusted key
 *     (record_trust: configuration, never the store's own list);
 *   - the summary: its status, counts and events against the stored
 *     verdicts, its winner and end against the record judged again;
 *   - the card database: the store must keep the bytes the record pins,
 *     still hashing to their name.
 *
 * The summary is written as text (record_summary_text), byte for byte what
 * json_dumps(JSON_COMPACT) would give: with up to one summary per event
 * under many tables, building it in jansson cost more than judging the
 * event.  Its bytes are what the seal hashes.
 */
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "src/record/record.h"

/* ---- trust ------------------------------------------------------------------ */

int record_trust_add(record_trust *t, const uint8_t key[32], const char *name)
{
    if (record_trust_has(t, key, NULL))
        return 0;
    if (t->n == RECORD_TRUST_MAX)
        return -1;
    memcpy(t->keys[t->n], key, 32);
    snprintf(t->names[t->n], sizeof t->names[t->n], "%s", name ? name : "");
    t->n++;
    return 0;
}

static int trust_one(void *ctx, const uint8_t key[32], const char *name)
{
    return record_trust_add(ctx, key, name);
}

int record_trust_load(record_trust *t, const char *path, char *err, size_t errlen)
{
    return keys_trusted_load(path, trust_one, t, err, errlen);
}

int record_trust_has(const record_trust *t, const uint8_t key[32], const char **name)
{
    for (size_t i = 0; t && i < t->n; i++)
        if (!sodium_memcmp(t->keys[i], key, 32)) {
            if (name)
                *name = t->names[i][0] ? t->names[i] : NULL;
            return 1;
        }
    return 0;
}

void record_home(const char *dbdir, char *out, size_t cap)
{
    size_t n = strlen(dbdir);
    while (n > 1 && dbdir[n - 1] == '/')
        n--;   /* "store/" is "store" */
    while (n && dbdir[n - 1] != '/')
        n--;   /* the last name off */
    while (n > 1 && dbdir[n - 1] == '/')
        n--;
    if (!n)
        snprintf(out, cap, "%s", dbdir[0] == '/' ? "/" : ".");
    else
        snprintf(out, cap, "%.*s", (int)n, dbdir);
}

int record_trust_home(record_trust *t, const char *dbdir, char *err, size_t errlen)
{
    char home[4096], path[4200];
    record_home(dbdir, home, sizeof home);
    snprintf(path, sizeof path, "%s/arbiterd.pub", home);
    if (access(path, R_OK) == 0 && record_trust_load(t, path, err, errlen))
        return -1;
    snprintf(path, sizeof path, "%s/" RECORD_TRUSTED_FILE, home);
    if (access(path, R_OK) == 0 && record_trust_load(t, path, err, errlen))
        return -1;
    return 0;
}

/* ---- reading ---------------------------------------------------------------- */

static void copy_str(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

int record_read(store *st, MDB_txn *txn, const char *match, record_info *out)
{
    memset(out, 0, sizeof *out);
    int rc = store_get_summary(st, txn, match, &out->summary, &out->summary_len);
    if (rc)
        return rc;
    json_t *o = json_loadb(out->summary, out->summary_len, 0, NULL), *owner = json_object_get(o, "owner");
    if (!json_is_object(o)) {
        json_decref(o);
        return -EINVAL;
    }
    const char *hex = json_string_value(json_object_get(o, "cards_hash"));
    size_t got = 0;
    out->has_cards_hash = hex && strlen(hex) == 64 &&
                          !sodium_hex2bin(out->cards_hash, 32, hex, 64, NULL, &got, NULL) && got == 32;
    copy_str(out->tournament, sizeof out->tournament, json_string_value(json_object_get(o, "tournament")));
    copy_str(out->owner, sizeof out->owner, json_string_value(json_object_get(owner, "name")));
    copy_str(out->owner_key, sizeof out->owner_key, json_string_value(json_object_get(owner, "key")));
    out->finished = json_is_true(json_object_get(o, "finished"));
    json_decref(o);
    return 0;
}

int record_exists(store *st, MDB_txn *txn, const char *match)
{
    const char *s;
    size_t n;
    return !store_get_summary(st, txn, match, &s, &n);
}

int record_seal_read(store *st, MDB_txn *txn, const char *match, seal *out, const void **raw, size_t *len)
{
    int rc = store_get_seal(st, txn, match, raw, len);
    if (rc)
        return rc;
    return seal_decode(*raw, *len, out) ? -EINVAL : 0;
}

int record_each_event(store *st, MDB_txn *txn, const char *match, uint64_t from, uint64_t to, store_event_fn fn,
                      void *ctx)
{
    return store_each_event(st, txn, match, from, to, fn, ctx);
}

json_t *record_stored_verdict(store *st, MDB_txn *txn, const char *match, uint64_t seq)
{
    store_event e;
    json_t *v = NULL;
    if (store_get_event(st, txn, match, seq, &e) ||
        olcodec_msgpack_to_json(e.verdict, e.verdict_len, (ol_origin){0, 0}, &v, NULL) != OL_OK)
        return NULL;
    return v;
}

int record_header(store *st, MDB_txn *txn, const char *match, olevent **out)
{
    store_event e;
    *out = NULL;
    int rc = store_get_event(st, txn, match, 0, &e);
    if (rc)
        return rc;
    if (olcodec_decode_message(e.event, e.event_len, out, NULL) != OL_OK || !*out || (*out)->type != OL_MATCH) {
        olevent_destroy(out);
        return -EINVAL;
    }
    return 0;
}

int record_cards_status(store *st, MDB_txn *txn, const record_info *info)
{
    char hex[65];
    const void *bytes;
    size_t len;
    uint8_t h[32];
    if (!info->has_cards_hash)
        return RECORD_CARDS_NONE;
    carddb_hash_hex(info->cards_hash, hex);
    if (store_get_cards(st, txn, hex, &bytes, &len))
        return RECORD_CARDS_MISSING;
    crypto_generichash(h, sizeof h, bytes, len, NULL, 0);
    return memcmp(h, info->cards_hash, 32) ? RECORD_CARDS_ALTERED : RECORD_CARDS_OK;
}

const cards *record_cards(cardset *cs, store *st, MDB_txn *txn, const record_info *info, char *why, size_t whylen)
{
    if (!info->has_cards_hash) {
        snprintf(why, whylen, "its summary names no card database");
        return NULL;
    }
    return cardset_by_hash(cs, st, txn, info->cards_hash, why, whylen);
}

/* ---- judging again ------------------------------------------------------------ */

/* Decode one stored event and judge it with sess (may be NULL); the step
 * for the callbacks.  *ev is the caller's to destroy.  0, or -ENOMEM. */
static int judge_stored(verify_session *sess, const store_event *e, olevent **ev, record_step *step)
{
    memset(step, 0, sizeof *step);
    step->stored = e;
    step->sess = sess;
    if (olcodec_decode_message(e->event, e->event_len, ev, NULL) != OL_OK)
        olevent_destroy(ev);
    step->ev = *ev;
    if (sess && *ev &&
        verify_session_event_resent(sess, *ev, (const char *)e->event, e->event_len, NULL, 0, &step->again) != VERIFY_OK)
        return -ENOMEM;
    return 0;
}

typedef struct {
    verify_session *sess;
    record_step_fn fn;
    void *ctx;
} replay_ctx;

static int replay_one(void *ctx, const store_event *e)
{
    replay_ctx *c = ctx;
    olevent *ev = NULL;
    record_step step;
    int rc = judge_stored(c->sess, e, &ev, &step);
    if (!rc && c->fn)
        rc = c->fn(c->ctx, &step);
    olevent_destroy(&ev);
    return rc;
}

int record_replay(store *st, MDB_txn *txn, const char *match, uint64_t until, verify_session *sess,
                  record_step_fn fn, void *ctx)
{
    replay_ctx c = {sess, fn, ctx};
    return store_each_event(st, txn, match, 0, until, replay_one, &c);
}

int record_judge(store *st, MDB_txn *txn, verify_session *sess, const olevent *ev, const char *raw, size_t len,
                 const verify_entry **out)
{
    store_event first;
    int rc;
    if (!verify_session_is_lean(sess) || ev->seq >= verify_session_next_seq(sess))
        return verify_session_event(sess, ev, raw, len, out) == VERIFY_OK ? 0 : -ENOMEM;
    /* a resend: the record keeps what came first at that seq */
    if ((rc = store_get_event(st, txn, ev->match, ev->seq, &first)))
        return rc == MDB_NOTFOUND ? -EINVAL : rc;
    return verify_session_event_resent(sess, ev, raw, len, (const char *)first.event, first.event_len, out) ==
                   VERIFY_OK
               ? 0
               : -ENOMEM;
}

/* ---- writing -------------------------------------------------------------------- */

/* The index of non-ok verdicts by the rule they cite (store.h byrule). */
static int index_verdict(store *st, MDB_txn *txn, const char *match, uint64_t seq, ol_status status, const char *rule)
{
    if (status == OL_V_OK)
        return 0;
    return store_put_rule(st, txn, rule && rule[0] ? rule : status == OL_V_WARNING ? "warning" : "none", match, seq);
}

int record_append(store *st, MDB_txn *txn, const char *match, record_heads *h, const verifier *vf, const void *raw,
                  size_t len, const void *verdict, size_t vlen, ol_status status, const char *rule,
                  uint64_t received_ms, const char *peer)
{
    store_event se;
    int rc;
    memset(&se, 0, sizeof se);
    se.seq = h->events;
    se.event = raw;
    se.event_len = len;
    se.verdict = verdict;
    se.verdict_len = vlen;
    se.received_ms = received_ms;
    memcpy(se.peer, peer, strnlen(peer, STORE_PEER_MAX));
    seal_chain_next(h->chain, raw, len, verdict, vlen, se.chain);
    if (vf && verifier_state_hash(vf, se.state) != VERIFIER_OK)
        return -ENOMEM;
    seal_link_next(h->link, &se, se.link);
    se.has_link = 1;
    if ((rc = store_put_event(st, txn, match, &se)) || (rc = index_verdict(st, txn, match, se.seq, status, rule)))
        return rc;
    /* the first event since the last seal: the outbox learns, in the same
     * transaction, that the record has unshipped events from here on (an
     * entry already there keeps its older start) */
    if (!h->noted && (rc = store_put_outbox(st, txn, match, se.seq, received_ms, 1)))
        return rc;
    h->noted = 1;
    memcpy(h->chain, se.chain, STORE_HASH);
    memcpy(h->link, se.link, STORE_HASH);
    h->counts[status]++;
    h->events++;
    return 0;
}

int record_shipped(store *st, MDB_txn *txn, const char *match, uint64_t to)
{
    store_event e;
    uint64_t from, since;
    int rc = store_get_outbox(st, txn, match, &from, &since);
    if (rc == MDB_NOTFOUND || (!rc && to <= from))
        return 0;   /* shipped already, or an older confirmation than the entry */
    if (rc)
        return rc;
    rc = store_get_event(st, txn, match, to, &e);
    if (rc == MDB_NOTFOUND)
        return store_del_outbox(st, txn, match);
    return rc ? rc : store_put_outbox(st, txn, match, to, e.received_ms, 0);
}

static int seed_one(void *ctx, const char *match, const char *json, size_t len)
{
    void **a = ctx;
    (void)json;
    (void)len;
    return store_put_outbox(a[0], a[1], match, 0, *(uint64_t *)a[2], 1);
}

int record_outbox_seed(store *st, MDB_txn *txn, uint64_t now_ms, int *seeded)
{
    const void *v;
    size_t n;
    void *a[3] = {st, txn, &now_ms};
    int rc = store_get_meta(st, txn, "outbox", &v, &n);
    *seeded = 0;
    if (rc != MDB_NOTFOUND)
        return rc;
    if ((rc = store_each_match(st, txn, seed_one, a)) || (rc = store_put_meta(st, txn, "outbox", "1", 1)))
        return rc;
    *seeded = 1;
    return 0;
}

/* s, or null when it is NULL or empty (verify_report_json's set_str_or_null). */
static void str_or_null(jtext *t, const char *s)
{
    jtext_str_or_null(t, s && *s ? s : NULL);
}

int record_summary_text(const verify_session *sess, const record_heads *h, const cards *db, const record_tags *tags,
                        uint64_t now_ms, jtext *t)
{
    const verify_report *r = verify_session_report(sess);
    const verifier *vf = verify_session_verifier(sess);
    char hash[65];

    jtext_reset(t);
    carddb_hash_hex(cards_hash(db), hash);
    jtext_lit(t, "{\"match\":");
    str_or_null(t, r->match);
    jtext_lit(t, ",\"format\":");
    str_or_null(t, r->format);
    jtext_lit(t, ",\"engine\":");
    str_or_null(t, r->engine);
    if (h->counts[OL_V_ILLEGAL] || h->counts[OL_V_MISMATCH])
        jtext_lit(t, ",\"status\":\"illegal\",\"winner\":");
    else
        jtext_lit(t, ",\"status\":\"legal\",\"winner\":");
    str_or_null(t, r->finished && r->winner >= 0 ? ol_player_name((ol_player)r->winner) : NULL);
    if (r->draw)   /* "draw" only when true: a duel's summary is as it always was */
        jtext_lit(t, ",\"finished\":true,\"draw\":true,\"events\":");
    else if (r->finished)
        jtext_lit(t, ",\"finished\":true,\"events\":");
    else
        jtext_lit(t, ",\"finished\":false,\"events\":");
    jtext_int(t, (long long)r->next_seq);
    jtext_lit(t, ",\"counts\":{");
    for (int st = 0; st < OL_V_COUNT; st++) {
        const char *name = ol_status_name((ol_status)st);   /* plain ASCII words */
        if (st >= OL_V_LISTED && !h->counts[st])
            continue;
        jtext_raw(t, st ? ",\"" : "\"", st ? 2 : 1);
        jtext_raw(t, name, strlen(name));
        jtext_lit(t, "\":");
        jtext_int(t, (long long)h->counts[st]);
    }
    /* a count per seat, p1 and p2 at least (verify_seats_json) */
    jtext_lit(t, "},\"unverified\":{");
    for (unsigned p = 0; p < (r->n_players < 2 ? 2 : r->n_players) && p < OL_PLAYERS_MAX; p++) {
        jtext_raw(t, p ? ",\"" : "\"", p ? 2 : 1);
        jtext_raw(t, ol_player_name((ol_player)p), 2);   /* "p1".."p8" */
        jtext_lit(t, "\":");
        jtext_int(t, (int)r->unverified[p]);
    }
    jtext_lit(t, "}");
    if (r->status == VERIFY_UNREADABLE) {
        jtext_lit(t, ",\"error\":");
        jtext_str(t, r->error);
    }
    jtext_lit(t, ",\"rounds\":");
    jtext_int(t, vf ? (long long)verifier_round(vf) : 0);
    jtext_lit(t, ",\"cards\":");
    {
        const char *set = cards_set(db), *version = cards_version(db);
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
    str_or_null(t, tags->tournament);
    if (tags->owner_key[0]) {
        jtext_lit(t, ",\"owner\":{\"name\":");
        jtext_str(t, tags->owner);
        jtext_lit(t, ",\"key\":");
        jtext_str(t, tags->owner_key);
        jtext_lit(t, "}");
    } else {
        jtext_lit(t, ",\"owner\":null");
    }
    jtext_lit(t, ",\"updated\":");
    jtext_int(t, (long long)now_ms);
    jtext_lit(t, "}");
    return t->bad ? -ENOMEM : 0;
}

int record_seal(store *st, MDB_txn *txn, const char *match, const record_heads *h, const char *summary, size_t len,
                const keys_pair *key)
{
    seal s;
    uint8_t bytes[SEAL_BYTES];
    int rc = store_put_summary(st, txn, match, summary, len);
    if (rc)
        return rc;
    memset(&s, 0, sizeof s);
    s.events = h->events;
    memcpy(s.chain, h->chain, 32);
    memcpy(s.link, h->link, 32);
    seal_summary_hash(summary, len, s.summary);
    seal_sign(&s, match, key->sign_public, key->sign_secret);
    seal_encode(&s, bytes);   /* every byte of `bytes` written: seal.h */
    return store_put_seal(st, txn, match, bytes, sizeof bytes);
}

typedef struct {
    store *to;
    MDB_txn *txn;
    const char *match;
    uint8_t link_prev[STORE_HASH];
} copy_ctx;

int record_put_stored(store *to, MDB_txn *txn, const char *match, const store_event *e)
{
    json_t *v = NULL;
    int rc = store_put_event(to, txn, match, e);
    if (rc)
        return rc;
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &v, NULL) != OL_OK)
        return -EINVAL;
    int st = ol_status_parse(json_string_value(json_object_get(v, "status")));
    rc = st < 0 || st >= OL_V_COUNT ? -EINVAL
                                    : index_verdict(to, txn, match, e->seq, (ol_status)st,
                                                    json_string_value(json_object_get(v, "rule")));
    json_decref(v);
    return rc;
}

int record_put_rest(store *to, MDB_txn *txn, const char *match, const char *summary, size_t slen, const void *seal_bytes,
                    size_t seal_len, const char *cards_hex, const void *cards_bytes, size_t cards_len)
{
    int rc = store_put_summary(to, txn, match, summary, slen);
    if (!rc && seal_bytes)
        rc = store_put_seal(to, txn, match, seal_bytes, seal_len);
    if (!rc && cards_bytes)
        rc = store_put_cards(to, txn, cards_hex, cards_bytes, cards_len);
    return rc;
}

static int copy_event(void *ctx, const store_event *e)
{
    copy_ctx *c = ctx;
    store_event ne = *e;
    if (!ne.has_link) {   /* arbiter 0.1 stored none: what its walk computes */
        ne.has_link = 1;
        memcpy(ne.link, c->link_prev, STORE_HASH);
        seal_link_next(c->link_prev, e, ne.link);
    }
    memcpy(c->link_prev, ne.link, STORE_HASH);
    return record_put_stored(c->to, c->txn, c->match, &ne);
}

int record_copy(store *from, MDB_txn *ftxn, store *to, MDB_txn *ttxn, const char *match)
{
    copy_ctx c = {to, ttxn, match, {0}};
    record_info info;
    const void *sealb, *bytes;
    size_t seal_len, len;
    char hex[65];
    int rc;

    if ((rc = record_read(from, ftxn, match, &info)) ||
        (rc = store_each_event(from, ftxn, match, 0, UINT64_MAX, copy_event, &c)) ||
        (rc = store_get_seal(from, ftxn, match, &sealb, &seal_len)))
        return rc;
    if (!info.has_cards_hash)
        return -EINVAL;
    carddb_hash_hex(info.cards_hash, hex);
    if ((rc = store_get_cards(from, ftxn, hex, &bytes, &len)))
        return rc;
    return record_put_rest(to, ttxn, match, info.summary, info.summary_len, sealb, seal_len, hex, bytes, len);
}

/* ---- checking ----------------------------------------------------------------- */

void record_check_init(record_findings *f)
{
    memset(f, 0, sizeof *f);
    seal_walk_init(&f->walk);
    f->verdict_differs = f->board_differs = -1;
}

int record_check_step(record_findings *f, verify_session *sess, const store_event *e, record_step_fn fn, void *ctx)
{
    olevent *ev = NULL;
    json_t *stored = NULL, *again = NULL;
    record_step step;
    int rc;

    seal_walk_event(&f->walk, e);
    if (olcodec_msgpack_to_json(e->verdict, e->verdict_len, (ol_origin){0, 0}, &stored, NULL) == OL_OK) {
        int st = ol_status_parse(json_string_value(json_object_get(stored, "status")));
        if (st >= 0 && st < OL_V_COUNT)
            f->counts[st]++;
    }
    if ((rc = judge_stored(sess, e, &ev, &step)))
        goto out;
    if (!ev)
        f->undecodable = 1;
    if (sess) {
        const verifier *vf = verify_session_verifier(sess);
        uint8_t state[VERIFIER_HASH_BYTES] = {0};
        f->judged = 1;
        if (step.again) {
            const verify_report *r = verify_session_report(sess);
            f->again_counts[step.again->v.status]++;
            again = olverdict_to_json(&step.again->v, step.again->stored == VERIFY_NONE || verify_session_is_lean(sess)
                                                          ? NULL
                                                          : &r->verdicts[step.again->stored].v);
        }
        if (!again || !stored || !json_equal(again, stored)) {
            f->n_differ++;
            if (f->verdict_differs < 0)
                f->verdict_differs = (int64_t)e->seq;
        }
        if (f->board_differs < 0 &&
            ((vf && verifier_state_hash(vf, state) != VERIFIER_OK) || memcmp(state, e->state, STORE_HASH)))
            f->board_differs = (int64_t)e->seq;
    }
    if (fn)
        rc = fn(ctx, &step);
out:
    json_decref(stored);
    json_decref(again);
    olevent_destroy(&ev);
    return rc;
}

/* What the summary says against the stored verdicts and the record judged
 * again: RECORD_SUM_* bits. */
static unsigned summary_check(const record_findings *f, const verify_session *sess, const json_t *s)
{
    unsigned differs = 0;
    int illegal = f->counts[OL_V_ILLEGAL] || f->counts[OL_V_MISMATCH];
    const char *status = json_string_value(json_object_get(s, "status"));
    json_t *counts = json_object_get(s, "counts");

    if (!status || strcmp(status, illegal ? "illegal" : "legal"))
        differs |= RECORD_SUM_STATUS;
    if (json_integer_value(json_object_get(s, "events")) != (json_int_t)f->walk.n)
        differs |= RECORD_SUM_EVENTS;
    for (int st = 0; st < OL_V_COUNT; st++)
        if (json_integer_value(json_object_get(counts, ol_status_name((ol_status)st))) != (json_int_t)f->counts[st])
            differs |= RECORD_SUM_COUNTS;
    if (sess) {
        const verify_report *r = verify_session_report(sess);
        const char *winner = json_string_value(json_object_get(s, "winner"));
        const char *want = r->finished && r->winner >= 0 ? ol_player_name((ol_player)r->winner) : NULL;
        if ((winner == NULL) != (want == NULL) || (winner && strcmp(winner, want)))
            differs |= RECORD_SUM_WINNER;
        if (json_is_true(json_object_get(s, "finished")) != (r->finished != 0) ||
            json_is_true(json_object_get(s, "draw")) != (r->draw != 0))
            differs |= RECORD_SUM_FINISHED;   /* how it ended: over, and whether in a draw */
    }
    return differs;
}

void record_check_finish(record_findings *f, const char *match, const verify_session *sess, const void *seal_bytes,
                         size_t seal_len, const char *summary, size_t slen, const json_t *summary_json, int cards_status,
                         const record_trust *trust)
{
    f->cards = cards_status;
    f->summary_bad = !json_is_object(summary_json);
    f->seal = seal_check(seal_bytes, seal_len, match, &f->walk, summary ? summary : "", summary ? slen : 0, NULL, &f->s);
    if (!(f->seal & (SEAL_MISSING | SEAL_UNREADABLE)))
        f->trusted = record_trust_has(trust, f->s.signer, &f->trusted_name);
    if (!f->summary_bad)
        f->summary_differs = summary_check(f, f->judged ? sess : NULL, summary_json);
}

typedef struct {
    record_findings *f;
    verify_session *sess;
    record_step_fn fn;
    void *ctx;
} check_ctx;

static int check_one(void *ctx, const store_event *e)
{
    check_ctx *c = ctx;
    return record_check_step(c->f, c->sess, e, c->fn, c->ctx);
}

int record_check(store *st, MDB_txn *txn, cardset *cs, const char *match, const record_trust *trust, int lean,
                 record_step_fn fn, void *ctx, record_findings *f, verify_session **sess_out,
                 record_heads *heads_out)
{
    record_info info;
    verify_session *sess = NULL;
    const void *seal_bytes = NULL;
    size_t seal_len = 0;
    json_t *sj = NULL;
    char why[256];
    int rc, cards_status = RECORD_CARDS_NONE;

    record_check_init(f);
    if (sess_out)
        *sess_out = NULL;
    rc = record_read(st, txn, match, &info);
    if (rc && rc != -EINVAL && rc != MDB_NOTFOUND)
        return rc;
    if (!rc) {
        const cards *db;
        sj = json_loadb(info.summary, info.summary_len, 0, NULL);
        cards_status = record_cards_status(st, txn, &info);
        /* judged with the database the record pins, loaded or stored, when
         * one can be had: a missing store copy is a finding of its own */
        if (cs && (db = record_cards(cs, st, txn, &info, why, sizeof why)) &&
            (verify_session_new(db, match, &sess) != VERIFY_OK || (lean && verify_session_lean(sess) != VERIFY_OK))) {
            rc = -ENOMEM;
            goto out;
        }
    }
    check_ctx c = {f, sess, fn, ctx};
    rc = store_each_event(st, txn, match, 0, UINT64_MAX, check_one, &c);
    if (rc == -EINVAL) {
        f->unreadable = 1;
        rc = 0;
    }
    if (rc)
        goto out;
    rc = store_get_seal(st, txn, match, &seal_bytes, &seal_len);
    if (rc && rc != MDB_NOTFOUND)
        goto out;
    record_check_finish(f, match, sess, rc ? NULL : seal_bytes, seal_len, info.summary, info.summary_len, sj, cards_status,
                        trust);
    rc = 0;
    if (heads_out) {
        memset(heads_out, 0, sizeof *heads_out);
        heads_out->events = f->walk.n;
        memcpy(heads_out->chain, f->walk.chain, STORE_HASH);
        memcpy(heads_out->link, f->walk.link, STORE_HASH);
        memcpy(heads_out->counts, f->counts, sizeof f->counts);
    }
    if (sess_out) {
        *sess_out = sess;
        sess = NULL;
    }
out:
    json_decref(sj);
    verify_session_destroy(&sess);
    return rc;
}

int record_findings_clean(const record_findings *f)
{
    return !f->unreadable && !f->undecodable && !f->summary_bad && f->cards == RECORD_CARDS_OK &&
           f->walk.chain_broken < 0 && f->walk.link_broken < 0 && f->walk.hole < 0 && !f->seal && f->trusted &&
           f->verdict_differs < 0 && f->board_differs < 0 && !f->summary_differs;
}

const char *record_sum_name(unsigned bit)
{
    switch (bit) {
    case RECORD_SUM_STATUS: return "status";
    case RECORD_SUM_WINNER: return "winner";
    case RECORD_SUM_FINISHED: return "finished";
    case RECORD_SUM_EVENTS: return "events";
    case RECORD_SUM_COUNTS: return "counts";
    default: return "?";
    }
}

void record_findings_text(const record_findings *f, char *out, size_t n)
{
    size_t k = 0;
    char signer[65];
    out[0] = 0;
#define SAY(...) (k += (size_t)snprintf(out + k, k < n ? n - k : 0, __VA_ARGS__), k = k < n ? k : n)
    if (f->unreadable)
        SAY("%san event record does not parse", k ? "; " : "");
    if (f->undecodable)
        SAY("%sa stored event's bytes do not decode", k ? "; " : "");
    if (f->walk.hole >= 0)
        SAY("%sevent #%lld is missing", k ? "; " : "", (long long)f->walk.hole);
    if (f->walk.chain_broken >= 0)
        SAY("%sthe chain breaks at #%lld (its event or verdict is not what was chained)", k ? "; " : "",
            (long long)f->walk.chain_broken);
    if (f->walk.link_broken >= 0)
        SAY("%sthe record link breaks at #%lld (its receive time, sender or board hash was changed)", k ? "; " : "",
            (long long)f->walk.link_broken);
    if (f->seal & SEAL_MISSING)
        SAY("%sit has no seal", k ? "; " : "");
    if (f->seal & SEAL_UNREADABLE)
        SAY("%sits seal is unreadable", k ? "; " : "");
    if (f->seal & SEAL_SIGNATURE)
        SAY("%sthe seal's signature does not hold", k ? "; " : "");
    if (!(f->seal & (SEAL_MISSING | SEAL_UNREADABLE)) && !f->trusted) {
        sodium_bin2hex(signer, sizeof signer, f->s.signer, 32);
        SAY("%sthe seal is signed by a key that is not trusted (%.16s...: neither the daemon's own key nor one "
            "listed with --trusted-seals)", k ? "; " : "", signer);
    }
    if (f->seal & SEAL_EVENTS)
        SAY("%sthe seal covers %llu events, the store holds %llu", k ? "; " : "", (unsigned long long)f->s.events,
            (unsigned long long)f->walk.n);
    if ((f->seal & SEAL_HEADS) && !(f->seal & SEAL_EVENTS))
        SAY("%sthe events are not the ones sealed (rewritten, the chain computed again)", k ? "; " : "");
    if (f->seal & SEAL_SUMMARY)
        SAY("%sthe summary is not the one sealed", k ? "; " : "");
    if (f->summary_bad)
        SAY("%sits summary is missing or not JSON", k ? "; " : "");
    if (f->summary_differs) {
        SAY("%sits summary does not say what its events say (", k ? "; " : "");
        for (unsigned bit = 1, first = 1; bit <= RECORD_SUM_COUNTS; bit <<= 1)
            if (f->summary_differs & bit) {
                SAY("%s%s", first ? "" : ", ", record_sum_name(bit));
                first = 0;
            }
        SAY(")");
    }
    if (f->cards == RECORD_CARDS_NONE)
        SAY("%sits summary names no card database", k ? "; " : "");
    if (f->cards == RECORD_CARDS_MISSING)
        SAY("%sthe card database it pins is not in the store", k ? "; " : "");
    if (f->cards == RECORD_CARDS_ALTERED)
        SAY("%sthe card database it pins was altered in the store", k ? "; " : "");
    if (f->verdict_differs >= 0)
        SAY("%s%zu verdict%s judged again differ%s, the first at #%lld", k ? "; " : "", f->n_differ,
            f->n_differ == 1 ? "" : "s", f->n_differ == 1 ? "s" : "", (long long)f->verdict_differs);
    if (f->board_differs >= 0)
        SAY("%sjudged again, the board differs from the stored one from #%lld on", k ? "; " : "",
            (long long)f->board_differs);
#undef SAY
}
