/* pgload.c -- PostgreSQL rows into a scratch store (pgload.h).
 *
 * Why a scratch store rather than a second checker: the checks of a
 * record (record.c) read a store.  Writing the rows into one, as they
 * are, and running those checks is the only way to be sure that a record
 * from the central database is judged by the same lines as one from a
 * venue; a reader of rows of its own would be a copy that drifts.
 *
 * How: one query per record, results in binary (bytea as its bytes, bigint
 * as 8 bytes big-endian), each row written with record_put_stored; nothing
 * is repaired or skipped -- a row that cannot be a stored event (a sender
 * longer than a store keeps) is an error, and a missing row is a hole the
 * check names.
 */
#define _DEFAULT_SOURCE 1   /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/pg/pgconn.h"
#include "src/pg/pgload.h"
#include "src/pg/pgship.h"
#include "src/record/record.h"

int pgload_scratch(char *dir, size_t dirlen, store **st, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, dirlen, "%s/arbiter-pg-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    *st = NULL;
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a scratch folder in %s: %s", tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return -1;
    }
    if (store_open(dir, 0, 0, st, err, errlen)) {
        pgload_scratch_remove(dir, st);
        return -1;
    }
    return 0;
}

void pgload_scratch_remove(const char *dir, store **st)
{
    store_close(st);
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static uint64_t be64(const char *p)
{
    return store_get_be64((const uint8_t *)p);
}

int pgload_which_venue(PGconn *c, const char *match, const char *venue, char *out, char *err, size_t errlen)
{
    const char *p[2] = {match, venue};
    PGresult *r = PQexecParams(c,
                               "SELECT venue FROM matches WHERE match = $1 AND ($2::text IS NULL OR venue = $2) "
                               "ORDER BY venue LIMIT 3",
                               2, NULL, p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pgconn_fail(c, r, "cannot read the matches", err, errlen);
        PQclear(r);
        return -1;
    }
    int n = PQntuples(r), rc = 0;
    if (n == 1) {
        snprintf(out, PGSHIP_VENUE_MAX + 1, "%s", PQgetvalue(r, 0, 0));
    } else if (!n) {
        snprintf(err, errlen, "no venue's record of match %s is in the circuit's database%s%s", match,
                 venue ? " for venue " : "", venue ? venue : "");
        rc = 1;
    } else {
        snprintf(err, errlen, "venues %s and %s%s both hold a match %s: say which with --venue", PQgetvalue(r, 0, 0),
                 PQgetvalue(r, 1, 0), n > 2 ? " (and more)" : "", match);
        rc = 1;
    }
    PQclear(r);
    return rc;
}

int pgload_venue_key(PGconn *c, const char *venue, uint8_t key[32], char *err, size_t errlen)
{
    const char *p[1] = {venue};
    PGresult *r = PQexecParams(c, "SELECT seal_key FROM venues WHERE venue = $1", 1, NULL, p, NULL, NULL, 1);
    int rc = -1;
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        pgconn_fail(c, r, "cannot read the venues", err, errlen);
    else if (PQntuples(r) != 1 || PQgetlength(r, 0, 0) != 32)
        snprintf(err, errlen, "the venue %s is not registered in the circuit's database", venue);
    else
        memcpy(key, PQgetvalue(r, 0, 0), 32), rc = 0;
    PQclear(r);
    return rc;
}

int pgload_match(PGconn *c, const char *venue, const char *match, store *st, MDB_txn *txn, uint64_t *n_events,
                 char *err, size_t errlen)
{
    const char *p[2] = {venue, match};
    int rc = -1;
    PGresult *m = PQexecParams(c,
                               "SELECT m.summary_bytes, m.seal, k.hash, k.bytes FROM matches m LEFT JOIN cards k ON "
                               "k.hash = m.summary->>'cards_hash' WHERE m.venue = $1 AND m.match = $2",
                               2, NULL, p, NULL, NULL, 1);
    PGresult *e = NULL;
    if (PQresultStatus(m) != PGRES_TUPLES_OK) {
        pgconn_fail(c, m, "cannot read the match", err, errlen);
        goto out;
    }
    if (PQntuples(m) != 1) {
        snprintf(err, errlen, "the circuit's database holds no record of match %s from venue %s", match, venue);
        goto out;
    }
    e = PQexecParams(c,
                     "SELECT seq, received_ms, peer, event, verdict, chain, state, link FROM events "
                     "WHERE venue = $1 AND match = $2 ORDER BY seq",
                     2, NULL, p, NULL, NULL, 1);
    if (PQresultStatus(e) != PGRES_TUPLES_OK) {
        pgconn_fail(c, e, "cannot read the events", err, errlen);
        goto out;
    }
    for (int i = 0; i < PQntuples(e); i++) {
        store_event se;
        int got;
        memset(&se, 0, sizeof se);
        if (PQgetlength(e, i, 0) != 8 || PQgetlength(e, i, 1) != 8 || PQgetlength(e, i, 2) > STORE_PEER_MAX ||
            PQgetlength(e, i, 5) != 32 || PQgetlength(e, i, 6) != 32 || PQgetlength(e, i, 7) != 32) {
            snprintf(err, errlen, "match %s: the row of event #%d cannot be a stored event", match, i);
            goto out;
        }
        se.seq = be64(PQgetvalue(e, i, 0));
        se.received_ms = be64(PQgetvalue(e, i, 1));
        memcpy(se.peer, PQgetvalue(e, i, 2), (size_t)PQgetlength(e, i, 2));
        se.event = (const uint8_t *)PQgetvalue(e, i, 3);
        se.event_len = (size_t)PQgetlength(e, i, 3);
        se.verdict = (const uint8_t *)PQgetvalue(e, i, 4);
        se.verdict_len = (size_t)PQgetlength(e, i, 4);
        memcpy(se.chain, PQgetvalue(e, i, 5), 32);
        memcpy(se.state, PQgetvalue(e, i, 6), 32);
        memcpy(se.link, PQgetvalue(e, i, 7), 32);
        se.has_link = 1;
        /* a verdict that does not read is written all the same: the check says so */
        if ((got = record_put_stored(st, txn, match, &se)) && got != -EINVAL) {
            snprintf(err, errlen, "cannot write the scratch store: %s", got < 0 ? strerror(-got) : mdb_strerror(got));
            goto out;
        }
    }
    int has_cards = !PQgetisnull(m, 0, 2);
    char hash[65] = "";
    if (has_cards)
        snprintf(hash, sizeof hash, "%.*s", PQgetlength(m, 0, 2), PQgetvalue(m, 0, 2));
    int got = record_put_rest(st, txn, match, PQgetvalue(m, 0, 0), (size_t)PQgetlength(m, 0, 0), PQgetvalue(m, 0, 1),
                              (size_t)PQgetlength(m, 0, 1), hash, has_cards ? PQgetvalue(m, 0, 3) : NULL,
                              has_cards ? (size_t)PQgetlength(m, 0, 3) : 0);
    if (got) {
        snprintf(err, errlen, "cannot write the scratch store: %s", got < 0 ? strerror(-got) : mdb_strerror(got));
        goto out;
    }
    if (n_events)
        *n_events = (uint64_t)PQntuples(e);
    rc = 0;
out:
    PQclear(m);
    PQclear(e);
    return rc;
}

int pgload_tournament(PGconn *c, const char *id, store *st, MDB_txn *txn, size_t *n, char *err, size_t errlen)
{
    const char *p[1] = {id};
    PGresult *r = PQexecParams(c, "SELECT venue, match FROM matches WHERE tournament = $1 ORDER BY match, venue", 1,
                               NULL, p, NULL, NULL, 0);
    int rc = -1;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pgconn_fail(c, r, "cannot read the tournament's matches", err, errlen);
        goto out;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        if (i && !strcmp(PQgetvalue(r, i, 1), PQgetvalue(r, i - 1, 1))) {
            snprintf(err, errlen, "venues %s and %s both hold a match %s of tournament %s: the standings cannot "
                     "tell which one was played", PQgetvalue(r, i - 1, 0), PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), id);
            goto out;
        }
        if (pgload_match(c, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), st, txn, NULL, err, errlen))
            goto out;
    }
    if (n)
        *n = (size_t)PQntuples(r);
    rc = 0;
out:
    PQclear(r);
    return rc;
}
