/* harness.c -- what the fuzz targets share (harness.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <unistd.h>

#include "fuzz/harness.h"
#include "src/core/carddb.h"
#include "src/core/dlog.h"
#include "src/record/record.h"

#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    fputs("fuzz harness: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_quiet(void)
{
    const char *level = getenv("FUZZ_LOG");
    dlog_set_level(level && *level ? dlog_parse_level(level) : -1);
}

static const char *srcdir(void)
{
    const char *env = getenv("ARBITER_SRCDIR");
    return env && *env ? env : FUZZ_SRCDIR;
}

const char *fuzz_src_path(const char *rel)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir(), rel);
    return path;
}

const char *fuzz_cards_path(void)
{
    static char path[4096];
    const char *env = getenv("ARBITER_CARDS");
    if (env && *env)
        return env;
    snprintf(path, sizeof path, "%s", fuzz_src_path("fixtures/cards/core.json"));
    if (access(path, R_OK) == 0)
        return path;
    return carddb_default_path();
}

char *fuzz_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
        !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n)
        fuzz_fail("cannot read %s: %s (set ARBITER_SRCDIR to the source tree)", path, strerror(errno));
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

void fuzz_daemon_open(daemon_ctx *d, size_t max_matches)
{
    static char dir[4096];
    char err[512], path[4200];
    const char *tmp = getenv("TMPDIR"), *cards = fuzz_cards_path();
    MDB_txn *txn = NULL;
    int rc;

    memset(d, 0, sizeof *d);
    if (sodium_init() < 0)
        fuzz_fail("sodium_init failed");
    snprintf(dir, sizeof dir, "%s/arbiter-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fuzz_fail("mkdtemp %s: %s", dir, strerror(errno));
    if (store_open(dir, 0, 0, &d->st, err, sizeof err))
        fuzz_fail("%s", err);
    /* LMDB keeps its descriptors: the names can go now */
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/lock.mdb", dir);
    unlink(path);
    rmdir(dir);
    d->dbdir = dir;
    d->max_matches = max_matches;
    d->started_ms = daemon_now_ms();
    if (keys_generate("arbiterd", &d->key) || record_trust_add(&d->trust, d->key.sign_public, "this daemon"))
        fuzz_fail("keys_generate failed");
    if (cardset_new(&d->cards) || cardset_load(d->cards, &cards, 1) || !cardset_count(d->cards))
        fuzz_fail("cannot load the card database %s (set ARBITER_CARDS)", cards);
    if ((rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn)) || (rc = cardset_save(d->cards, d->st, txn)) ||
        (rc = mdb_txn_commit(txn)))
        fuzz_fail("cannot store the card database: %s", rc < 0 ? strerror(-rc) : mdb_strerror(rc));
    if (live_table_new(max_matches, &d->live))
        fuzz_fail("out of memory");
    if ((rc = mdb_txn_begin(store_env(d->st), NULL, MDB_RDONLY, &txn)) ||
        (rc = quarantine_new(d->st, txn, QUARANTINE_MAX_DEFAULT, &d->quar)))
        fuzz_fail("cannot read the store: %s", rc < 0 ? strerror(-rc) : mdb_strerror(rc));
    mdb_txn_abort(txn);
}

typedef struct {
    daemon_ctx *d;
    MDB_txn *txn;
    jtext text;
    int rc;
} seal_ctx;

static void seal_one(void *ctx, live *l)
{
    seal_ctx *c = ctx;
    if (!c->rc && l->dirty)
        c->rc = daemon_seal(c->d, c->txn, l, &c->text);
}

int fuzz_seal_dirty(daemon_ctx *d, MDB_txn *txn)
{
    seal_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.txn = txn;
    live_each(d->live, seal_one, &c);
    jtext_free(&c.text);
    return c.rc;
}

/* ---- the decode targets' round trip ------------------------------------------ */

static void fail_json(const char *what, const json_t *a, const json_t *b)
{
    char *ta = a ? json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    char *tb = b ? json_dumps(b, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    fuzz_fail("%s:\n  %.2000s\n  %.2000s", what, ta ? ta : "(null)", tb ? tb : "(null)");
}

static void same_json(const char *what, json_t *a, json_t *b)
{
    if (!a || !b || !json_equal(a, b))
        fail_json(what, a, b);
    json_decref(a);
    json_decref(b);
}

static void same_bytes(const char *what, const olevent *ev, ol_encoding enc, const char *want, size_t wlen)
{
    char *got = NULL;
    size_t glen = 0;
    int rc = olcodec_encode(ev, enc, &got, &glen);
    if (rc != OL_OK)
        fuzz_fail("%s: olcodec_encode returned %d", what, rc);
    if (glen != wlen || memcmp(got, want, wlen)) {
        if (enc == OL_ENC_JSON)
            fuzz_fail("%s:\n  %.*s\n  %.*s", what, (int)(wlen < 2000 ? wlen : 2000), want,
                      (int)(glen < 2000 ? glen : 2000), got);
        fuzz_fail("%s: %zu bytes, not the %zu expected", what, glen, wlen);
    }
    free(got);
}

void fuzz_check_roundtrip(const olevent *ev)
{
    char *mp = NULL, *js = NULL;
    size_t mplen = 0, jslen = 0;
    olevent *a = NULL, *b = NULL;
    olerror err;
    int rc;

    if ((rc = olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &mplen)) != OL_OK)
        fuzz_fail("a decoded event cannot be encoded as MessagePack: %d", rc);
    if ((rc = olcodec_encode(ev, OL_ENC_JSON, &js, &jslen)) != OL_OK)
        fuzz_fail("a decoded event cannot be encoded as JSON: %d", rc);
    if ((rc = olcodec_decode_msgpack((const uint8_t *)mp, mplen, (ol_origin){0, 0}, &a, &err)) != OL_OK)
        fuzz_fail("a decoded event's MessagePack encoding (%zu bytes) does not decode (%d): %s", mplen, rc,
                  rc == OL_EMALFORMED ? err.msg : "");
    if ((rc = olcodec_decode_json(js, jslen, (ol_origin){0, 0}, &b, &err)) != OL_OK)
        fuzz_fail("a decoded event's JSON encoding does not decode (%d): %s\n  %.2000s", rc,
                  rc == OL_EMALFORMED ? err.msg : "", js);

    /* the two decodes agree, and with the event they came from */
    same_json("the typed fields differ after MessagePack and after JSON", olcodec_typed_json(a), olcodec_typed_json(b));
    same_json("the typed fields differ after a MessagePack round trip", olcodec_typed_json(ev), olcodec_typed_json(a));
    same_json("the trees differ after MessagePack and after JSON", olcodec_to_json(a), olcodec_to_json(b));
    same_json("the tree differs after a MessagePack round trip", olcodec_to_json(ev), olcodec_to_json(a));

    /* a fixed point: the same bytes again, whichever way it went */
    same_bytes("MessagePack -> MessagePack is not a fixed point", a, OL_ENC_MSGPACK, mp, mplen);
    same_bytes("JSON -> MessagePack differs from MessagePack -> MessagePack", b, OL_ENC_MSGPACK, mp, mplen);
    same_bytes("JSON -> JSON is not a fixed point", b, OL_ENC_JSON, js, jslen);
    same_bytes("MessagePack -> JSON differs from JSON -> JSON", a, OL_ENC_JSON, js, jslen);

    olevent_destroy(&a);
    olevent_destroy(&b);
    free(mp);
    free(js);
}
