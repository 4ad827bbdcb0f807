/* pgconn.c -- connecting and running one statement (pgconn.h).
 *
 * Why its own module: `arbiter pg`, the daemon's shipper and the --pg
 * readers all connect the same way and report libpq's errors the same
 * way; the settings a shipper needs (timeouts, keepalives) are libpq
 * keywords added beside the user's URL, never written into it.
 */
#include <stdio.h>
#include <string.h>

#include "src/pg/pgconn.h"

static void no_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

int pgconn_fail(PGconn *c, const PGresult *r, const char *what, char *err, size_t errlen)
{
    const char *m = r ? PQresultErrorMessage(r) : NULL;
    if (!m || !*m)
        m = c ? PQerrorMessage(c) : "out of memory";
    if (!m || !*m)
        m = "no reason given";
    snprintf(err, errlen, "%s: %.*s", what, (int)strcspn(m, "\n"), m);
    return -1;
}

int pgconn_open(const char *url, int timeout_s, PGconn **out, char *err, size_t errlen)
{
    char t[16], opts[64];
    const char *keys[8] = {"dbname", NULL}, *vals[8] = {url, NULL};
    int n = 1;
    snprintf(t, sizeof t, "%d", timeout_s);
    if (timeout_s > 0) {
        snprintf(opts, sizeof opts, "-c statement_timeout=%d", timeout_s * 1000);
        keys[n] = "connect_timeout", vals[n++] = t;
        keys[n] = "keepalives_idle", vals[n++] = "10";
        keys[n] = "keepalives_interval", vals[n++] = "5";
        keys[n] = "keepalives_count", vals[n++] = "3";
        keys[n] = "options", vals[n++] = opts;
    }
    keys[n] = NULL, vals[n] = NULL;
    /* expand_dbname: the URL is parsed as a whole connection string; the
     * keywords after it add to it (a later keyword wins over the URL's) */
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    *out = NULL;
    if (!c || PQstatus(c) != CONNECTION_OK) {
        pgconn_fail(c, NULL, "cannot connect to PostgreSQL", err, errlen);
        PQfinish(c);
        return -1;
    }
    PQsetNoticeProcessor(c, no_notice, NULL);
    if (pgconn_exec(c, "SET client_min_messages = warning", "cannot set up the session", err, errlen) ||
        pgconn_exec(c, "SET TIME ZONE 'UTC'", "cannot set up the session", err, errlen)) {
        PQfinish(c);
        return -1;
    }
    *out = c;
    return 0;
}

int pgconn_exec(PGconn *c, const char *sql, const char *what, char *err, size_t errlen)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : pgconn_fail(c, r, what, err, errlen);
    PQclear(r);
    return rc;
}
