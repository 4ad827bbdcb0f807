/* fuzz_session.c -- live matches fed a log, as the daemon's ingest judges it.
 *
 * Feeds: the input split into messages, each given to ingest_judge()
 * (src/daemon/ingest.h): decode, refusals, the match's live session (made from
 * the store when needed, live.h / record.h), the verdict and its reply,
 * the record written (record_append), the quarantine for malformed
 * input -- what one turn of arbiterd's ingest does for each message of a
 * batch, from an anonymous local peer.  All messages of one input are one
 * batch: ONE write transaction; at the end every match the batch wrote is
 * sealed (daemon_seal, as commit_batch does), then the transaction is
 * ABORTED and quarantine_abort() called, so the store never grows and each
 * input starts from the same empty store.  The live table is made anew for
 * every input (what forget_batch() does after an aborted batch, for every
 * match at once).
 *
 * Framing (fuzz/README.md): a message is a 2-byte big-endian length, then
 * that many bytes; a length past the end of the input takes what is left
 * (so 0xffff opens a last message of any size).  At most INGEST_BATCH_MAX
 * messages an input.  Seeds are whole fixture logs framed so, in JSON and
 * in MessagePack (fuzz/seed.sh).
 *
 * Checks, each a finding when it fails (abort):
 *   - ingest_judge() returns a store error (the store is fresh and small);
 *   - a reply that is not a verdict: not decodable in the message's
 *     encoding, not a map with "status";
 *   - sealing fails, or record_check() of a sealed match finds anything
 *     wrong with what was just written (the writer and the checker must
 *     agree: record.h);
 *   - the match made again from the store (record_check(), as daemon_load
 *     does at a restart) does
 *     not stand where the live session stands: next seq, verdict counts,
 *     finished.
 *
 * Why: this is the code between the network and the record a judge relies
 * on, and a session is the rules engine with all its state.  Card database:
 * fixtures/cards/core.json (ARBITER_CARDS overrides; harness.h).
 * SESSION_MAX_MATCHES is small so that the --max-matches refusal is reached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/harness.h"
#include "src/record/record.h"

#define SESSION_MAX_MATCHES 8

static daemon_ctx d;
static ingest *g;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_quiet();
    fuzz_daemon_open(&d, SESSION_MAX_MATCHES);
    if (ingest_new(&d, NULL, &g))
        fuzz_fail("ingest_new failed");
    return 0;
}

/* A reply is a verdict in the encoding of the message. */
static void check_reply(const uint8_t *msg, size_t len, const char *reply, size_t rlen)
{
    json_t *v = NULL;
    olerror err;
    if (len && msg[0] == '{')
        v = json_loadb(reply, rlen, 0, NULL);
    else if (olcodec_msgpack_to_json((const uint8_t *)reply, rlen, (ol_origin){0, 0}, &v, &err) != OL_OK)
        fuzz_fail("a MessagePack reply does not decode: %s", err.msg);
    if (!json_is_object(v) || !json_is_string(json_object_get(v, "status")))
        fuzz_fail("a reply is not a verdict: %.*s", (int)(rlen < 500 ? rlen : 500), reply);
    json_decref(v);
}

typedef struct {
    MDB_txn *txn;
} check_ctx;

/* What was written for l holds together, and a restart would find l where
 * it stands. */
static void check_match(void *ctx, live *l)
{
    check_ctx *c = ctx;
    record_findings f;
    record_heads heads;
    verify_session *again = NULL;
    char text[1024];
    int rc;

    if (l->heads.events == 0)
        return;   /* nothing stored, nothing sealed */
    if ((rc = record_check(d.st, c->txn, d.cards, l->id, &d.trust, 1, NULL, NULL, &f, &again, &heads)))
        fuzz_fail("record_check of match %s: store error %d", l->id, rc);
    if (!record_findings_clean(&f) || !again) {
        record_findings_text(&f, text, sizeof text);
        fuzz_fail("match %s as just written fails record_check: %s", l->id, text);
    }
    /* what record_check judged again is what daemon_load would keep live */
    const verify_report *live_r = verify_session_report(l->sess), *again_r = verify_session_report(again);
    if (verify_session_next_seq(again) != verify_session_next_seq(l->sess))
        fuzz_fail("match %s made again from the store expects seq %llu; live, %llu", l->id,
                  (unsigned long long)verify_session_next_seq(again),
                  (unsigned long long)verify_session_next_seq(l->sess));
    if (memcmp(heads.counts, l->heads.counts, sizeof heads.counts) || heads.events != l->heads.events)
        fuzz_fail("match %s made again from the store counts other verdicts than the live match", l->id);
    if (again_r->finished != live_r->finished || again_r->winner != live_r->winner)
        fuzz_fail("match %s made again from the store: finished %d winner %d; live: finished %d winner %d", l->id,
                  again_r->finished, again_r->winner, live_r->finished, live_r->winner);
    if (memcmp(heads.chain, l->heads.chain, sizeof heads.chain) || memcmp(heads.link, l->heads.link, sizeof heads.link))
        fuzz_fail("match %s made again from the store has other chain or record heads", l->id);
    verify_session_destroy(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    MDB_txn *txn = NULL;
    daemon_stats before = d.stats;
    size_t at = 0;
    int rc, messages = 0;

    live_table_destroy(&d.live);
    if (live_table_new(SESSION_MAX_MATCHES, &d.live))
        fuzz_fail("out of memory");
    if ((rc = mdb_txn_begin(store_env(d.st), NULL, 0, &txn)))
        fuzz_fail("mdb_txn_begin: %s", mdb_strerror(rc));

    while (at < size && messages < INGEST_BATCH_MAX) {
        size_t len = (size_t)data[at] << 8 | (at + 1 < size ? data[at + 1] : 0);
        at += 2;
        if (at > size)
            at = size;
        if (len > size - at)
            len = size - at;
        char *reply = NULL;
        size_t rlen = 0;
        if ((rc = ingest_judge(g, txn, data + at, len, &reply, &rlen)))
            fuzz_fail("ingest_judge of message %d (%zu bytes) failed: %d %s", messages, len, rc,
                      rc < 0 ? "" : mdb_strerror(rc));
        if (reply)
            check_reply(data + at, len, reply, rlen);
        free(reply);
        at += len;
        messages++;
    }

    if ((rc = fuzz_seal_dirty(&d, txn)))
        fuzz_fail("sealing the batch failed: %d", rc);
    check_ctx c = {txn};
    live_each(d.live, check_match, &c);

    mdb_txn_abort(txn);
    quarantine_abort(d.quar);
    d.stats = before;
    return 0;
}
