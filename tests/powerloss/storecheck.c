/* storecheck.c -- after a simulated power cut: is every acknowledged
 * verdict in the store, as acknowledged, and does every chain recompute?
 * (tests/e2e_powerloss.sh, tests/powerloss/README.md)
 *
 *   storecheck DIR [ACKED.jsonl...]
 *
 * What: opens the store in DIR read-only (no daemon runs on it then) and
 *   - walks every stored match with record_check(), the check `arbiter
 *     audit` and the daemon's start make of a record, but for the judging
 *     again: each event's hash chain link computed again from its bytes,
 *     the record links, holes in the seqs, the seal over the summary and
 *     the heads, signed by the daemon's key beside the store;
 *   - reads the verdicts a table received (`arbiter send --json`, one per
 *     line; a last line without its newline is still being written and is
 *     left for the next check) and looks each up: an event answered ok,
 *     warning, illegal or mismatch must be stored with exactly that
 *     verdict; one answered `duplicate` carries, as `stored`, exactly the
 *     stored verdict.  `gap`, `conflict` and `malformed` are findings: the
 *     tables of these tests send well-formed logs and resend only what got
 *     no verdict, so the daemon says them only if it lost what it had
 *     acknowledged (a gap: events before this one the table was told were
 *     stored).
 * Why not `arbiter audit` per match: it also judges every match again,
 * which takes seconds for the whole store; this runs after every one of a
 * thousand cuts.  The end of the run audits every match with `arbiter
 * audit` once (tests/daemon.sh, store_check_all).
 *
 * Output: the findings (at most 20 lines), then one sentence: "storecheck:
 * M matches, E events, every chain recomputes; A acknowledged verdicts:
 * L lost, W not as acknowledged".  Exit 0 nothing found, 1 a finding,
 * 2 usage or the store cannot be read.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/record/record.h"
#include "src/record/store.h"

#define SHOW_MAX 20

typedef struct {
    store *st;
    MDB_txn *txn;
    size_t matches, events, broken, acked, lost, wrong, shown;
    int rc;
    record_trust trust;            /* the daemon's key beside the store */
} check;

/* A finding, printed while there are not too many. */
__attribute__((format(printf, 2, 3))) static void finding(check *c, const char *fmt, ...)
{
    va_list ap;
    if (c->shown++ >= SHOW_MAX)
        return;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static int one_match(void *ctx, const char *id, const char *summary, size_t len)
{
    check *c = ctx;
    record_findings f;
    char text[512];
    int rc = record_check(c->st, c->txn, NULL, id, &c->trust, 0, NULL, NULL, &f, NULL, NULL);
    (void)summary;
    (void)len;
    if (rc)
        return rc;
    c->matches++;
    c->events += f.walk.n;
    if (!record_findings_clean(&f)) {
        record_findings_text(&f, text, sizeof text);
        c->broken++;
        finding(c, "match %s: %s", id, text);
    }
    return 0;
}

/* One acknowledged verdict against the store. */
static void one_ack(check *c, json_t *v)
{
    const char *match = json_string_value(json_object_get(v, "match"));
    const char *status = json_string_value(json_object_get(v, "status"));
    json_t *seq = json_object_get(v, "seq"), *stored = NULL;
    store_event e;
    if (!match || !status || !json_is_integer(seq)) {
        c->wrong++;
        finding(c, "a verdict was acknowledged for no stored event: %s", status ? status : "(no status)");
        return;
    }
    c->acked++;
    if (!strcmp(status, "conflict") || !strcmp(status, "gap") || !strcmp(status, "malformed")) {
        /* never stored; a table resending what it sent gets none of them
         * unless the store lost what it had acknowledged */
        json_t *expect = json_object_get(v, "expect");
        char why[64] = "";
        if (json_is_integer(expect))
            snprintf(why, sizeof why, " (expect #%lld)", (long long)json_integer_value(expect));
        c->wrong++;
        finding(c, "%s #%lld was answered %s%s: the store lacks what was acknowledged before it", match,
                (long long)json_integer_value(seq), status, why);
        return;
    }
    int rc = c->st ? store_get_event(c->st, c->txn, match, (uint64_t)json_integer_value(seq), &e) : MDB_NOTFOUND;
    if (rc == MDB_NOTFOUND) {
        c->lost++;
        finding(c, "LOST: %s #%lld was acknowledged %s and is not in the store", match, (long long)json_integer_value(seq), status);
        return;
    }
    if (rc) {
        c->rc = rc;
        return;
    }
    json_t *want = strcmp(status, "duplicate") ? v : json_object_get(v, "stored");
    if (olcodec_msgpack_to_json(e.verdict, e.verdict_len, (ol_origin){0}, &stored, NULL) != OL_OK ||
        !json_equal(want, stored)) {
        c->wrong++;
        finding(c, "%s #%lld is stored with a verdict other than the one acknowledged (%s)", match,
                (long long)json_integer_value(seq), status);
    }
    json_decref(stored);
}

static int read_acked(check *c, const char *path)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    if (!f) {
        fprintf(stderr, "storecheck: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    while ((n = getline(&line, &cap, f)) > 0 && !c->rc) {
        if (line[n - 1] != '\n')
            break;   /* still being written: the next check has it */
        json_error_t err;
        json_t *v = json_loadb(line, (size_t)n, 0, &err);
        if (!v) {
            c->wrong++;
            finding(c, "%s: a line that is not JSON: %s", path, err.text);
            continue;
        }
        one_ack(c, v);
        json_decref(v);
    }
    free(line);
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    check c;
    char err[256];
    if (argc < 2) {
        fprintf(stderr, "usage: storecheck DIR [ACKED.jsonl...]\n");
        return 2;
    }
    memset(&c, 0, sizeof c);
    /* the seals must be the daemon's: its key beside the store */
    if (record_trust_home(&c.trust, argv[1], err, sizeof err) || !c.trust.n) {
        fprintf(stderr, "storecheck: %s\n", c.trust.n ? err : "no arbiterd.pub beside the store");
        return 2;
    }
    /* a cut before the daemon's first commit leaves a store whose
     * databases were never made (MDB_NOTFOUND), or no data.mdb at all
     * (ENOENT: store_create() had not renamed it into place): an empty
     * store, which must then hold no acknowledged verdict */
    int rc = store_open(argv[1], 1, 0, &c.st, err, sizeof err);
    if (rc && rc != MDB_NOTFOUND && rc != ENOENT) {
        fprintf(stderr, "storecheck: %s\n", err);
        return 2;
    }
    rc = c.st ? mdb_txn_begin(store_env(c.st), NULL, MDB_RDONLY, &c.txn) : 0;
    if (!rc && c.st)
        rc = store_each_match(c.st, c.txn, one_match, &c);
    for (int i = 2; i < argc && !rc && !c.rc; i++)
        if (read_acked(&c, argv[i]))
            rc = -EIO;
    if (!rc)
        rc = c.rc;
    if (c.txn)
        mdb_txn_abort(c.txn);
    store_close(&c.st);
    if (rc) {   /* LMDB's own codes are negative, between MDB_KEYEXIST and MDB_LAST_ERRCODE */
        fprintf(stderr, "storecheck: cannot read the store %s: %s\n", argv[1],
                rc >= MDB_KEYEXIST && rc <= MDB_LAST_ERRCODE ? mdb_strerror(rc) : strerror(rc < 0 ? -rc : rc));
        return 2;
    }
    printf("storecheck: %zu matches, %zu events, %s; %zu acknowledged verdicts: %zu lost, %zu not as acknowledged\n",
           c.matches, c.events, c.broken ? "SOME CHAINS DO NOT RECOMPUTE" : "every chain recomputes", c.acked, c.lost,
           c.wrong);
    return c.broken || c.lost || c.wrong ? 1 : 0;
}
