/* record.c -- a match's record: made again, written, sealed, checked
 * (record.h).
 *
 * Why one module: the record is what decides disputes, and three parties
 * touch it -- the batch that writes it, the restart that reads it back, the
 * check that tells whether anybody touched it since.  Each writes or reads
 * the same fields in the same order here, through seal.h for the links.
 *
 * The summary (arbiter-records(5)) is written as text, byte
 * for byte what json_dumps(JSON_COMPACT) would give: with up to one summary
 * per event under many tables, building it in jansson cost more than
 * judging the event.  Its bytes are what the seal hashes.
 */
#include <errno.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "src/core/dlog.h"
#include "src/core/view.h"
#include "src/record/record.h"
#include "verifiers/verifier.h"

/* ---- made again ------------------------------------------------------------ */

/* A lean session (verify.h) keeps neither the bytes nor the verdicts of
 * its stored events -- the record has them -- and reads an event back here
 * when a table resends it (duplicate or conflict). */
static int lookup_stored(void *ctx, const char *match, uint64_t seq, const char **raw, size_t *len)
{
    daemon_ctx *d = ctx;
    store_event e;
    if (!d->txn || store_get_event(d->st, d->txn, match, seq, &e))
        return -1;
    *raw = (const char *)e.event;
    *len = e.event_len;
    return 0;
}

typedef struct {
    live *l;
    int failed;
} load_ctx;

static int load_one(void *ctx, const store_event *e)
{
    load_ctx *c = ctx;
    olevent *ev = NULL;
    const verify_entry *out;
    if (olcodec_decode_message(e->event, e->event_len, &ev, NULL) != OL_OK ||
        verify_session_event(c->l->sess, ev, (const char *)e->event, e->event_len, &out) != VERIFY_OK) {
        olevent_destroy(&ev);
        c->failed = 1;
        return 1;
    }
    c->l->counts[out->v.status]++;
    olevent_destroy(&ev);
    memcpy(c->l->chain, e->chain, STORE_HASH);
    if (e->has_link)
        memcpy(c->l->link, e->link, STORE_HASH);
    else
        seal_link_next(c->l->link, e, c->l->link);
    return 0;
}

const cards *record_summary_cards(daemon_ctx *d, MDB_txn *txn, const json_t *summary, char *why, size_t whylen)
{
    const char *hex = json_string_value(json_object_get(summary, "cards_hash"));
    uint8_t hash[32];
    if (!hex || sodium_hex2bin(hash, sizeof hash, hex, strlen(hex), NULL, NULL, NULL)) {
        snprintf(why, whylen, "its summary names no card database");
        return NULL;
    }
    return cardset_by_hash(d->cards, d->st, txn, hash, why, whylen);
}

/* The summary's fields a live match needs back: the card database, the
 * tournament and the owner. */
static int load_summary(daemon_ctx *d, MDB_txn *txn, live *l, const char *sum, size_t n, char *why, size_t whylen)
{
    json_t *o = json_loadb(sum, n, 0, NULL);
    const char *t = json_string_value(json_object_get(o, "tournament"));
    json_t *owner = json_object_get(o, "owner");
    int rc = -1;

    if (!o) {
        snprintf(why, whylen, "its summary is not JSON");
        goto out;
    }
    snprintf(l->tournament, sizeof l->tournament, "%s", t ? t : "");
    const char *name = json_string_value(json_object_get(owner, "name"));
    const char *key = json_string_value(json_object_get(owner, "key"));
    snprintf(l->owner, sizeof l->owner, "%s", name ? name : "");
    snprintf(l->owner_key, sizeof l->owner_key, "%s", key ? key : "");
    if (!(l->db = record_summary_cards(d, txn, o, why, whylen)))
        goto out;
    rc = 0;
out:
    json_decref(o);
    return rc;
}

int record_load(daemon_ctx *d, MDB_txn *txn, live_table *t, live *l, uint64_t until, const char *named, char *why,
                size_t whylen)
{
    const char *sum;
    size_t n;
    verify_session *s = NULL;
    int rc = store_get_summary(d->st, txn, l->id, &sum, &n);

    memset(l->chain, 0, sizeof l->chain);
    memset(l->link, 0, sizeof l->link);
    memset(l->counts, 0, sizeof l->counts);
    l->db = NULL;
    if (rc == MDB_NOTFOUND) {
        l->db = cardset_named(d->cards, named);
    } else if (rc) {
        snprintf(why, whylen, "its summary cannot be read: %s", mdb_strerror(rc));
        return -1;
    } else if (load_summary(d, txn, l, sum, n, why, whylen)) {
        return -1;
    }
    if (verify_session_new(l->db, l->id, &s) != VERIFY_OK || verify_session_lean(s, lookup_stored, d) != VERIFY_OK) {
        verify_session_destroy(&s);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (t)
        live_attach(t, l, s);
    else
        l->sess = s;
    load_ctx c = {l, 0};
    MDB_txn *outer = d->txn;
    d->txn = txn;
    rc = store_each_event(d->st, txn, l->id, 0, until, load_one, &c);
    d->txn = outer;
    if (rc || c.failed) {
        snprintf(why, whylen, "its stored events cannot be judged again");
        if (t)
            live_clear(t, l);
        else
            verify_session_destroy(&l->sess);
        return -1;
    }
    return 0;
}

/* ---- written ------------------------------------------------------------------ */

int record_put_event(daemon_ctx *d, MDB_txn *txn, live *l, uint64_t seq, const void *raw, size_t len,
                     const void *verdict, size_t vlen, ol_status status, const char *rule, uint64_t received_ms,
                     const char *peer, jtext *board)
{
    store_event se;
    int rc;
    memset(&se, 0, sizeof se);
    se.seq = seq;
    se.event = raw;
    se.event_len = len;
    se.verdict = verdict;
    se.verdict_len = vlen;
    se.received_ms = received_ms;
    memcpy(se.peer, peer, strnlen(peer, STORE_PEER_MAX));
    /* the header pins its card database: it goes into the store with it */
    if (seq == 0 && (rc = cardset_ensure_stored(d->cards, d->st, txn, l->db)))
        return rc;
    store_chain_next(l->chain, raw, len, verdict, vlen, se.chain);
    const verifier *vf = verify_session_verifier(l->sess);
    if (vf)
        view_state_hash(vf, board, se.state);
    seal_link_next(l->link, &se, se.link);
    se.has_link = 1;
    if ((rc = store_put_event(d->st, txn, l->id, &se)))
        return rc;
    if (status != OL_V_OK &&
        (rc = store_put_rule(d->st, txn, rule && rule[0] ? rule : status == OL_V_WARNING ? "warning" : "none", l->id,
                             seq)))
        return rc;
    memcpy(l->chain, se.chain, STORE_HASH);
    memcpy(l->link, se.link, STORE_HASH);
    l->counts[status]++;
    l->dirty = 1;
    return 0;
}

/* s, or null when it is NULL or empty (verify_report_json's set_str_or_null). */
static void str_or_null(jtext *t, const char *s)
{
    jtext_str_or_null(t, s && *s ? s : NULL);
}

/* The match's summary: what `arbiter verify --json` says of the events
 * stored so far, minus the verdict list, with the record's own counts
 * and status (a duplicate, conflict, gap or malformed answer is never
 * stored, so the summary does not count it either and reads the same after
 * a restart), then "rounds", what the record pins (openlog.md 10),
 * "next_seq", "tournament", the owner (arbiterd(8), OWNERSHIP AND
 * REFUSALS) and "updated". */
static int write_summary(const live *l, jtext *t)
{
    const verify_report *r = verify_session_report(l->sess);
    const verifier *vf = verify_session_verifier(l->sess);
    char hash[65];

    jtext_reset(t);
    carddb_hash_hex(cards_hash(l->db), hash);
    jtext_lit(t, "{\"match\":");
    str_or_null(t, r->match);
    jtext_lit(t, ",\"format\":");
    str_or_null(t, r->format);
    jtext_lit(t, ",\"engine\":");
    str_or_null(t, r->engine);
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
    if (l->owner_key[0]) {
        jtext_lit(t, ",\"owner\":{\"name\":");
        jtext_str(t, l->owner);
        jtext_lit(t, ",\"key\":");
        jtext_str(t, l->owner_key);
        jtext_lit(t, "}");
    } else {
        jtext_lit(t, ",\"owner\":null");
    }
    jtext_lit(t, ",\"updated\":");
    jtext_int(t, (long long)daemon_now_ms());
    jtext_lit(t, "}");
    return t->bad ? -ENOMEM : 0;
}

int record_seal(daemon_ctx *d, MDB_txn *txn, live *l, jtext *text)
{
    seal s;
    uint8_t bytes[SEAL_BYTES];
    int rc = write_summary(l, text);
    if (rc || (rc = store_put_summary(d->st, txn, l->id, text->buf, text->len)))
        return rc;
    memset(&s, 0, sizeof s);
    s.events = verify_session_next_seq(l->sess);
    memcpy(s.chain, l->chain, 32);
    memcpy(s.link, l->link, 32);
    seal_summary_hash(text->buf, text->len, s.summary);
    seal_sign(&s, l->id, d->key.sign_public, d->key.sign_secret);
    seal_encode(&s, bytes);
    return store_put_seal(d->st, txn, l->id, bytes, sizeof bytes);
}

/* ---- checked ------------------------------------------------------------------ */

static int walk_one(void *ctx, const store_event *e)
{
    seal_walk_event(ctx, e);
    return 0;
}

int record_check(store *st, MDB_txn *txn, const char *id, const char *summary, size_t slen, const uint8_t *signers,
                 size_t n_signers, record_findings *f)
{
    const void *bytes = NULL;
    size_t len = 0;
    int rc;

    memset(f, 0, sizeof *f);
    seal_walk_init(&f->walk);
    rc = store_each_event(st, txn, id, 0, UINT64_MAX, walk_one, &f->walk);
    if (rc == -EINVAL) {
        f->unreadable = 1;
        rc = 0;
    }
    if (rc)
        return rc;
    rc = store_get_seal(st, txn, id, &bytes, &len);
    if (rc && rc != MDB_NOTFOUND)
        return rc;
    f->seal = seal_check(rc ? NULL : bytes, len, id, &f->walk, summary, slen, NULL, &f->s);
    if (n_signers && !(f->seal & (SEAL_MISSING | SEAL_UNREADABLE))) {
        int known = 0;
        for (size_t i = 0; i < n_signers; i++)
            known |= !memcmp(signers + 32 * i, f->s.signer, 32);
        if (!known)
            f->seal |= SEAL_SIGNER;
    }
    return 0;
}

int record_findings_clean(const record_findings *f, int legacy_ok)
{
    int found = legacy_ok ? f->seal & ~SEAL_MISSING : f->seal;
    return !f->unreadable && f->walk.chain_broken < 0 && f->walk.link_broken < 0 && f->walk.hole < 0 && !found;
}

void record_findings_text(const record_findings *f, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
#define SAY(...) (k += (size_t)snprintf(out + k, k < n ? n - k : 0, __VA_ARGS__), k = k < n ? k : n)
    if (f->unreadable)
        SAY("%san event record does not parse", k ? "; " : "");
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
    if (f->seal & SEAL_SIGNER)
        SAY("%sthe seal is signed by a key this store does not know", k ? "; " : "");
    if (f->seal & SEAL_EVENTS)
        SAY("%sthe seal covers %llu events, the store holds %llu", k ? "; " : "", (unsigned long long)f->s.events,
            (unsigned long long)f->walk.n);
    if ((f->seal & SEAL_HEADS) && !(f->seal & SEAL_EVENTS))
        SAY("%sthe events are not the ones sealed (rewritten, the chain computed again)", k ? "; " : "");
    if (f->seal & SEAL_SUMMARY)
        SAY("%sthe summary is not the one sealed", k ? "; " : "");
#undef SAY
}

/* ---- at start --------------------------------------------------------------------- */

typedef struct {
    daemon_ctx *d;
    MDB_txn *txn;
    uint8_t *signers;
    size_t n_signers;
    int legacy;                    /* the store has no "format": from before
                                      seals, or made to look so            */
    size_t unsealed;               /* of those, left unsealed              */
    char (*altered)[65];           /* card databases whose bytes were altered */
    size_t n_altered;
    size_t checked, damaged, sealed;
    int rc;
} start_ctx;

static int check_cards(void *ctx, const char *hex, const void *bytes, size_t len)
{
    start_ctx *c = ctx;
    uint8_t h[32];
    char got[65];
    crypto_generichash(h, sizeof h, bytes, len, NULL, 0);
    carddb_hash_hex(h, got);
    if (strcmp(got, hex)) {
        void *grown = realloc(c->altered, (c->n_altered + 1) * sizeof *c->altered);
        if (!grown)
            return -ENOMEM;
        c->altered = grown;
        snprintf(c->altered[c->n_altered++], 65, "%s", hex);
        dlog(DLOG_ERROR, "the card database stored as %s has been altered: its bytes hash to %s", hex, got);
    }
    return 0;
}

/* Seal a match of a store written before seals, as it stands. */
static int seal_as_is(start_ctx *c, const char *id, const char *summary, size_t len, const record_findings *f)
{
    seal s;
    uint8_t bytes[SEAL_BYTES];
    memset(&s, 0, sizeof s);
    s.events = f->walk.n;
    memcpy(s.chain, f->walk.chain, 32);
    memcpy(s.link, f->walk.link, 32);
    seal_summary_hash(summary, len, s.summary);
    seal_sign(&s, id, c->d->key.sign_public, c->d->key.sign_secret);
    seal_encode(&s, bytes);
    c->sealed++;
    return store_put_seal(c->d->st, c->txn, id, bytes, sizeof bytes);
}

static int check_match(void *ctx, const char *id, const char *summary, size_t len)
{
    start_ctx *c = ctx;
    record_findings f;
    char text[512];
    int rc = record_check(c->d->st, c->txn, id, summary, len, c->signers, c->n_signers, &f);
    if (rc)
        return rc;
    c->checked++;
    if (c->legacy && (f.seal & SEAL_MISSING) && record_findings_clean(&f, 1)) {
        /* Sealing attests to a record this daemon never saw written: only
         * when the administrator says so.  Otherwise an unsealed record
         * is a finding like any other -- a forger can make any record look
         * like one from before seals by deleting its seal and a meta key. */
        if (c->d->seal_legacy)
            return seal_as_is(c, id, summary, len, &f);
        c->unsealed++;
    }
    json_t *o = json_loadb(summary, len, 0, NULL);
    const char *pinned = json_string_value(json_object_get(o, "cards_hash"));
    const void *cb;
    size_t cl;
    int bad_cards = 0;
    for (size_t i = 0; pinned && i < c->n_altered; i++)
        bad_cards |= !strcmp(pinned, c->altered[i]);
    if (pinned && !bad_cards && store_get_cards(c->d->st, c->txn, pinned, &cb, &cl))
        bad_cards = 2;
    json_decref(o);
    if (record_findings_clean(&f, 0) && !bad_cards)
        return 0;
    record_findings_text(&f, text, sizeof text);
    dlog(DLOG_ERROR, "match %s: %s%s%s: it takes no more events until a judge has looked at it (arbiter audit)", id,
         text, text[0] && bad_cards ? "; " : "",
         bad_cards == 2 ? "the card database it pins is not in the store" : bad_cards ? "the card database it pins was altered" : "");
    c->damaged++;
    return live_damage(c->d->live, id) ? -ENOMEM : 0;
}

/* The signing keys the store knows: meta "signers", 32 bytes each.  The
 * daemon's own key is added when it is new (logged). */
static int known_signers(start_ctx *c)
{
    const void *bytes;
    size_t len = 0;
    int rc = store_get_meta(c->d->st, c->txn, "signers", &bytes, &len);
    if (rc && rc != MDB_NOTFOUND)
        return rc;
    if (rc)
        len = 0;
    len -= len % 32;
    if (!(c->signers = malloc(len + 32)))
        return -ENOMEM;
    memcpy(c->signers, len ? bytes : "", len);
    c->n_signers = len / 32;
    for (size_t i = 0; i < c->n_signers; i++)
        if (!memcmp(c->signers + 32 * i, c->d->key.sign_public, 32))
            return 0;
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, c->d->key.sign_public, 32);
    if (c->n_signers)
        dlog(DLOG_WARN, "this daemon seals with a key the store has not seen (%.16s...): the records sealed before stay "
             "checked against the keys that sealed them", hex);
    memcpy(c->signers + len, c->d->key.sign_public, 32);
    c->n_signers++;
    return store_put_meta(c->d->st, c->txn, "signers", c->signers, 32 * c->n_signers);
}

int record_check_store(daemon_ctx *d)
{
    start_ctx c;
    const void *fmt;
    size_t flen;
    uint64_t t0 = daemon_mono_us();
    int rc;

    memset(&c, 0, sizeof c);
    c.d = d;
    if ((rc = mdb_txn_begin(store_env(d->st), NULL, 0, &c.txn)))
        return rc;
    rc = store_get_meta(d->st, c.txn, "format", &fmt, &flen);
    c.legacy = rc == MDB_NOTFOUND;
    if ((rc && rc != MDB_NOTFOUND) || (rc = known_signers(&c)) || (rc = store_each_cards(d->st, c.txn, check_cards, &c)) ||
        (rc = store_each_match(d->st, c.txn, check_match, &c)) ||
        (c.legacy && !c.unsealed && (rc = store_put_meta(d->st, c.txn, "format", "2", 1)))) {
        mdb_txn_abort(c.txn);
        goto out;
    }
    rc = mdb_txn_commit(c.txn);
    if (!rc && c.sealed)
        dlog(DLOG_WARN, "--seal-legacy: sealed %zu match%s as they stand, unsealed in a store from before records were "
             "sealed: their seals attest to this store's content now, not to what was played", c.sealed,
             c.sealed == 1 ? "" : "es");
    if (!rc && c.unsealed)
        dlog(DLOG_ERROR, "%zu match%s not sealed: a daemon from before seals wrote them, or their seals were removed; "
             "they take no events; if this store is trusted as it stands, start once with --seal-legacy", c.unsealed,
             c.unsealed == 1 ? " is" : "es are");
    if (!rc)
        dlog(c.damaged ? DLOG_ERROR : DLOG_INFO, "checked the store: %zu match%s in %.1f s, %zu with findings", c.checked,
             c.checked == 1 ? "" : "es", (double)(daemon_mono_us() - t0) / 1e6, c.damaged);
out:
    free(c.signers);
    free(c.altered);
    return rc;
}
