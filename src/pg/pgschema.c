/* pgschema.c -- migrations of arbiter's PostgreSQL schema (pgschema.h).
 *
 * Why one transaction: PostgreSQL's DDL is transactional, so a migration
 * that fails half-way (a server stopped, a name taken) leaves the database
 * exactly as it was, and the next `arbiter pg migrate` starts again from
 * the same version.  Why an advisory lock: several venues' daemons, or an
 * organiser and a daemon, may migrate the same central database at once;
 * pg_advisory_xact_lock makes them take turns, and the lock ends with the
 * transaction, whatever happens to the client.
 *
 * Invariant: arbiter_schema holds one row per migration applied, versions
 * 1..N without a gap, each applied whole in the transaction that wrote its
 * row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pg/pgconn.h"
#include "src/pg/pgschema.h"

typedef struct {
    int version;
    const char *name;
    const char *sql;
} migration;

/* made by the build from sql/NNN_name.sql, in order */
static const migration migrations[] = {
#include "src/pg/migrations.inc"
};
#define N_MIGRATIONS (sizeof migrations / sizeof migrations[0])

/* a key of our own for pg_advisory_xact_lock: "arbiter!" as 8 bytes */
#define PGSCHEMA_LOCK "7089182209417406753"

int pgschema_latest(void)
{
    return migrations[N_MIGRATIONS - 1].version;
}

static int read_version(PGconn *conn, char *err, size_t errlen)
{
    PGresult *r = PQexec(conn, "SELECT coalesce(max(version), 0) FROM arbiter_schema");
    int v = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        v = atoi(PQgetvalue(r, 0, 0));
    else
        pgconn_fail(conn, r, "cannot read the schema version", err, errlen);
    PQclear(r);
    return v;
}

int pgschema_version(PGconn *conn, char *err, size_t errlen)
{
    PGresult *r = PQexec(conn, "SELECT to_regclass('arbiter_schema') IS NOT NULL");
    int exists = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "t");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pgconn_fail(conn, r, "cannot read the schema version", err, errlen);
        PQclear(r);
        return -1;
    }
    PQclear(r);
    return exists ? read_version(conn, err, errlen) : 0;
}

int pgschema_migrate(PGconn *conn, int *from, int *to, char *err, size_t errlen)
{
    int v;
    err[0] = 0;
    if (pgconn_exec(conn, "BEGIN", "cannot begin a transaction", err, errlen))
        return -1;
    if (pgconn_exec(conn, "SELECT pg_advisory_xact_lock(" PGSCHEMA_LOCK ")", "cannot take the migration lock", err, errlen) ||
        pgconn_exec(conn,
             "CREATE TABLE IF NOT EXISTS arbiter_schema (version integer PRIMARY KEY, name text NOT NULL, "
             "applied timestamptz NOT NULL DEFAULT now())",
             "cannot make the table arbiter_schema", err, errlen) ||
        (v = read_version(conn, err, errlen)) < 0)
        goto fail;
    if (from)
        *from = v;
    if (v > pgschema_latest()) {
        snprintf(err, errlen,
                 "the database's schema is version %d, newer than this arbiter knows (%d): upgrade arbiter; "
                 "nothing was changed", v, pgschema_latest());
        goto fail;
    }
    for (size_t i = 0; i < N_MIGRATIONS; i++) {
        const migration *m = &migrations[i];
        char what[160], row[256];
        if (m->version <= v)
            continue;
        snprintf(what, sizeof what, "migration %03d (%s) failed", m->version, m->name);
        snprintf(row, sizeof row, "INSERT INTO arbiter_schema (version, name) VALUES (%d, '%s')", m->version, m->name);
        if (pgconn_exec(conn, m->sql, what, err, errlen) || pgconn_exec(conn, row, what, err, errlen))
            goto fail;
        v = m->version;
    }
    if (pgconn_exec(conn, "COMMIT", "cannot commit the migration", err, errlen))
        return -1;   /* a failed COMMIT ends the transaction: nothing was applied */
    if (to)
        *to = v;
    return 0;
fail: {
        PGresult *r = PQexec(conn, "ROLLBACK");
        PQclear(r);
        return -1;
    }
}
