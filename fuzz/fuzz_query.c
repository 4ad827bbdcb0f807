/* fuzz_query.c -- one request to the query socket, answered from a store.
 *
 * Feeds: the input as one query frame, the way src/daemon/query.c's
 * read_request() reads it -- JSON (json_loadb) when its first byte is '{',
 * else MessagePack (olcodec_msgpack_to_json, the codec's limits) -- and,
 * when it is a map, query_answer() (src/daemon/query.h) as an anonymous judge
 * (gate_peer {NULL, NULL, KEYS_JUDGE, 1}, what a daemon without a keyring
 * on a local endpoint answers), then the reply encoded as query_serve()
 * sends it (json_dumps / olcodec_json_to_msgpack).  A request asking for a
 * view other than the public one, or the judges' op "quarantine", is
 * answered a second time as an anonymous viewer, to reach the refusals.
 *
 * The store: LLVMFuzzerInitialize() makes a daemon_ctx over a scratch
 * store (harness.h) and judges the logs of fuzz/query-store.list into it
 * with ingest_judge(), seals them and COMMITS that one batch; after that
 * nothing writes (query_answer opens read transactions only), so every
 * input sees the same store: finished and unfinished Snap matches in the
 * three hidden modes, one with an illegal verdict, an Advanced header
 * (no engine), events before a header, a quarantined message.
 *
 * Checks: query_answer() never returns NULL (query.h), the reply is an
 * object with a boolean "ok" and can be encoded in both encodings.
 *
 * Why: every op reads the request's keys with its own types and ranges
 * (match ids used as store keys, "from"/"to"/"at"/"limit" integers, view
 * names, a whole log to verify) from anybody who can reach the socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/harness.h"
#include "src/daemon/query.h"
#include "src/record/record.h"

static daemon_ctx d;

/* Judge one message of the setup batch; it must be answered. */
static void judge(ingest *g, MDB_txn *txn, const void *msg, size_t len)
{
    char *reply = NULL;
    size_t rlen = 0;
    int rc = ingest_judge(g, txn, msg, len, &reply, &rlen);
    if (rc)
        fuzz_fail("setting up the query store: ingest_judge failed: %d", rc);
    free(reply);
}

static void judge_log(ingest *g, MDB_txn *txn, const char *rel, long lines, int as_mlog)
{
    size_t len;
    char *text = fuzz_read_file(fuzz_src_path(rel), &len), *line = text, *nl;
    for (long n = 0; *line && (lines < 0 || n < lines); n++, line = nl + 1) {
        if (!(nl = strchr(line, '\n')))
            nl = line + strlen(line);
        olevent *ev = NULL;
        olerror err;
        char *mp = NULL;
        size_t mplen = 0;
        if (as_mlog && olcodec_decode_json(line, (size_t)(nl - line), (ol_origin){0, 0}, &ev, &err) == OL_OK &&
            olcodec_encode(ev, OL_ENC_MSGPACK, &mp, &mplen) == OL_OK)
            judge(g, txn, mp, mplen);
        else
            judge(g, txn, line, (size_t)(nl - line));
        free(mp);
        olevent_destroy(&ev);
        if (!*nl)
            break;
    }
    free(text);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    ingest *g = NULL;
    MDB_txn *txn = NULL;
    size_t len;
    int rc;
    (void)argc;
    (void)argv;
    fuzz_quiet();
    fuzz_daemon_open(&d, DAEMON_MAX_MATCHES);
    if (ingest_new(&d, NULL, &g))
        fuzz_fail("ingest_new failed");
    if ((rc = mdb_txn_begin(store_env(d.st), NULL, 0, &txn)))
        fuzz_fail("mdb_txn_begin: %s", mdb_strerror(rc));

    char *list = fuzz_read_file(fuzz_src_path("fuzz/query-store.list"), &len), *save = NULL;
    for (char *l = strtok_r(list, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char path[1024], count[32] = "-", enc[32] = "";
        if (l[0] == '#' || sscanf(l, "%1023s %31s %31s", path, count, enc) < 1)
            continue;
        judge_log(g, txn, path, strcmp(count, "-") ? atol(count) : -1, !strcmp(enc, "mlog"));
    }
    free(list);
    static const char bad_json[] = "{\"match\":\"m-1\",\"seq\":\"x\"}", bad_mp[] = "\x93\x01\x02";
    judge(g, txn, bad_json, strlen(bad_json));   /* malformed: quarantined */
    judge(g, txn, bad_mp, strlen(bad_mp));

    if ((rc = fuzz_seal_dirty(&d, txn)) || (rc = mdb_txn_commit(txn)))
        fuzz_fail("committing the query store: %d", rc);
    quarantine_commit(d.quar);
    ingest_destroy(&g);
    return 0;
}

static void answer(json_t *req, const gate_peer *who, int as_json)
{
    json_t *rep = query_answer(&d, req, who);
    char *out = NULL;
    size_t n = 0;
    if (!rep)
        fuzz_fail("query_answer returned NULL");
    if (!json_is_object(rep) || !json_is_boolean(json_object_get(rep, "ok")))
        fuzz_fail("a reply without \"ok\"");
    if (as_json) {
        if (!(out = json_dumps(rep, JSON_COMPACT)))
            fuzz_fail("a reply json_dumps cannot write");
    } else if (olcodec_json_to_msgpack(rep, &out, &n)) {
        fuzz_fail("a reply olcodec_json_to_msgpack cannot write");
    }
    free(out);
    json_decref(rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *req = NULL;
    int as_json = size && data[0] == '{';
    if (as_json)
        req = json_loadb((const char *)data, size, 0, NULL);
    else if (olcodec_msgpack_to_json_max(data, size, QUERY_REQUEST_MAX, (ol_origin){0, 0}, &req, NULL) != OL_OK)
        req = NULL;
    if (json_is_object(req)) {
        const gate_peer judge_peer = {.role = KEYS_JUDGE, .anonymous = 1, .fd = -1},
                        viewer = {.role = KEYS_VIEWER, .anonymous = 1, .fd = -1};
        const char *view = json_string_value(json_object_get(req, "view"));
        const char *op = json_string_value(json_object_get(req, "op"));
        answer(req, &judge_peer, as_json);
        if ((view && strcmp(view, "public")) || (op && !strcmp(op, "quarantine")))
            answer(req, &viewer, as_json);
    }
    json_decref(req);
    return 0;
}
