/* record_bytes.c -- write records as the daemon writes them, with nothing
 * of the moment in them, so that two runs can be compared byte for byte
 * (tests/e2e_record_bytes.sh; issue 20: "every byte stored is defined").
 *
 *   record_bytes DIR KEYFILE CARDS LOG...
 *
 * Opens (creating) the store DIR and, for each open log LOG, judges its
 * events one by one with a lean session (record_judge) and stores each that
 * takes a seq (record_append) with a receive time and a sender made from
 * its seq alone, sealing the match after every event (record_summary_text
 * with a fixed "updated", record_seal with the key in KEYFILE) -- the
 * daemon's write path, every step of it, through the record module.  Then
 * it checks every record it wrote (record_check): a record it cannot read
 * back clean is a failure.
 *
 * What is stored then depends on the inputs only: two processes must leave
 * stores whose every database dumps the same (mdb_dump -a), and under
 * valgrind no byte written may be uninitialised.  Exit 0, 1 a record does
 * not check clean, 2 usage or store.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/core/carddb.h"
#include "src/core/dlog.h"
#include "src/core/keys.h"
#include "src/record/cardset.h"
#include "src/record/record.h"

#define T0 1767225600000ull   /* 2026-01-01, the receive time of seq 0 */

static int one_log(store *st, MDB_txn *txn, cardset *cs, const keys_pair *key, const char *path, char *match,
                   size_t cap)
{
    olreader *r = NULL;
    olerror err;
    olevent *ev = NULL;
    const char *raw;
    size_t len;
    verify_session *sess = NULL;
    record_heads h;
    record_tags tags;
    const cards *db = cardset_named(cs, NULL);
    jtext text = {0};
    int rc = 2, got;

    memset(&h, 0, sizeof h);
    memset(&tags, 0, sizeof tags);
    memset(&err, 0, sizeof err);
    if (olreader_open(path, -1, &r, &err) != OL_OK) {
        fprintf(stderr, "record_bytes: %s: %s\n", path, err.msg);
        return 2;
    }
    while ((got = olreader_next(r, &ev, &raw, &len, &err)) == 1) {
        const verify_entry *e = NULL;
        char *vbytes = NULL, peer[64];
        size_t vlen = 0;
        if (!sess) {
            snprintf(match, cap, "%s", ev->match);
            if (ev->type == OL_MATCH)
                db = cardset_named(cs, ev->header.cards);
            if (verify_session_new(db, ev->match, &sess) != VERIFY_OK || verify_session_lean(sess) != VERIFY_OK)
                goto out;
        }
        uint64_t before = verify_session_next_seq(sess);
        if (record_judge(st, txn, sess, ev, raw, len, &e))
            goto out;
        json_t *vj = olverdict_to_json(&e->v, NULL);
        int bad = !vj || olcodec_json_to_msgpack(vj, &vbytes, &vlen);
        json_decref(vj);
        if (bad)
            goto out;
        if (verify_session_next_seq(sess) > before) {
            snprintf(peer, sizeof peer, "table-%llu@127.0.0.1/00%02llx", (unsigned long long)(before % 7),
                     (unsigned long long)(before % 251));
            if ((before == 0 && cardset_ensure_stored(cs, st, txn, db)) ||
                record_append(st, txn, ev->match, &h, verify_session_verifier(sess), raw, len, vbytes, vlen,
                              e->v.status, e->v.rule, T0 + 1000 * before, peer) ||
                record_summary_text(sess, &h, db, &tags, T0 + 1000 * before + 500, &text) ||
                record_seal(st, txn, ev->match, &h, text.buf, text.len, key)) {
                free(vbytes);
                goto out;
            }
        }
        free(vbytes);
        olreader_release(r, &ev);
    }
    rc = got == 0 ? 0 : 2;
out:
    olreader_release(r, &ev);
    olreader_destroy(&r);
    verify_session_destroy(&sess);
    jtext_free(&text);
    return rc;
}

int main(int argc, char **argv)
{
    store *st = NULL;
    MDB_txn *txn = NULL;
    cardset *cs = NULL;
    keys_pair key;
    record_trust trust;
    char err[512], match[OL_MATCH_MAX + 1];
    const char *card_files[1];
    int rc = 2;

    if (argc < 5 || sodium_init() < 0) {
        fprintf(stderr, "usage: record_bytes DIR KEYFILE CARDS LOG...\n");
        return 2;
    }
    dlog_set_program("record_bytes");
    dlog_set_level(DLOG_WARN);
    card_files[0] = argv[3];
    memset(&trust, 0, sizeof trust);
    if (keys_read(argv[2], &key, err, sizeof err) || !key.has_secret) {
        fprintf(stderr, "record_bytes: %s\n", key.has_secret ? err : "the key file has no secrets");
        return 2;
    }
    record_trust_add(&trust, key.sign_public, "record_bytes");
    if (cardset_new(&cs) || cardset_load(cs, card_files, 1) || store_open(argv[1], 0, 0, &st, err, sizeof err) ||
        mdb_txn_begin(store_env(st), NULL, 0, &txn)) {
        fprintf(stderr, "record_bytes: cannot open %s or load %s\n", argv[1], argv[3]);
        goto out;
    }
    for (int i = 4; i < argc; i++) {
        record_findings f;
        char text[1024];
        if (one_log(st, txn, cs, &key, argv[i], match, sizeof match))
            goto out;
        if (record_check(st, txn, cs, match, &trust, 1, NULL, NULL, &f, NULL, NULL))
            goto out;
        if (!record_findings_clean(&f)) {
            record_findings_text(&f, text, sizeof text);
            fprintf(stderr, "record_bytes: %s (%s) does not read back clean: %s\n", match, argv[i], text);
            rc = 1;
            goto out;
        }
    }
    rc = mdb_txn_commit(txn) ? 2 : 0;
    txn = NULL;
out:
    if (txn)
        mdb_txn_abort(txn);
    store_close(&st);
    cardset_destroy(&cs);
    sodium_memzero(&key, sizeof key);
    return rc;
}
