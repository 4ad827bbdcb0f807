/* cmd_pg.c -- `arbiter pg`: the central PostgreSQL database of a circuit.
 *
 * What: `arbiter pg migrate URL` brings the database at URL to the schema
 * this arbiter knows (pgschema.h: numbered migrations, each applied once,
 * whole, under a lock); `arbiter pg version URL` says where it stands.
 * The venues' daemons replicate into that schema (arbiterd --replicate),
 * and audits and standings read it (--pg).
 *
 * Why a command: an organiser or a database administrator prepares the
 * central database once, before any venue ships to it, and again after
 * an upgrade of arbiter; a daemon never changes a schema by itself.
 *
 * The URL is libpq's (postgresql://user:password@host:port/dbname?...,
 * or key=value words): it is never printed, since it may hold a password.
 */
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "src/cli/cli.h"
#include "src/pg/pgconn.h"
#include "src/pg/pgschema.h"
#include "src/pg/pgship.h"
#include "src/record/record.h"

static const char usage_text[] =
    "usage: arbiter pg migrate URL [--json]\n"
    "       arbiter pg version URL [--json]\n"
    "       arbiter pg venue add URL NAME KEYFILE [--replace]\n"
    "       arbiter pg venue list URL [--json]\n"
    "\n"
    "The circuit's PostgreSQL database, at URL (libpq's: postgresql://...).\n"
    "migrate applies every migration of arbiter's schema the database lacks,\n"
    "in one transaction (arbiter-pg(5)); a database newer than this arbiter is\n"
    "refused, untouched.  version prints the database's schema version and\n"
    "the newest this arbiter knows.\n"
    "venue add registers venue NAME with the seal key of its daemon (KEYFILE:\n"
    "its arbiterd.pub, or a trusted-seals file of one key): only then does\n"
    "that daemon ship its records here; a venue registered with another key\n"
    "is refused unless --replace.  venue list lists the venues and their keys.\n";

/* `venue add`: one key from a .pub or trusted-seals file, registered. */
static int venue_add(PGconn *c, const char *name, const char *file, int replace)
{
    record_trust t;
    char err[512], hex[65];
    memset(&t, 0, sizeof t);
    if (!pgship_venue_valid(name)) {
        cli_error("'%s' is no venue name: 1 to %d letters, digits, dots, dashes or underscores", name,
                  PGSHIP_VENUE_MAX);
        return CLI_BADINPUT;
    }
    if (record_trust_load(&t, file, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    if (t.n != 1) {
        cli_error("%s holds %zu keys: a venue is registered with exactly one, its daemon's", file, t.n);
        return CLI_BADINPUT;
    }
    sodium_bin2hex(hex, sizeof hex, t.keys[0], 32);
    const char *p[2] = {name, hex};
    PGresult *r = PQexecParams(
        c,
        replace ? "INSERT INTO venues (venue, seal_key) VALUES ($1, decode($2, 'hex')) ON CONFLICT (venue) DO UPDATE "
                  "SET seal_key = EXCLUDED.seal_key RETURNING 'added'"
                : "WITH n AS (INSERT INTO venues (venue, seal_key) VALUES ($1, decode($2, 'hex')) ON CONFLICT DO "
                  "NOTHING RETURNING 1) SELECT CASE WHEN EXISTS (SELECT 1 FROM n) THEN 'added' WHEN "
                  "(SELECT seal_key FROM venues WHERE venue = $1) = decode($2, 'hex') THEN 'same' ELSE 'other' END",
        2, NULL, p, NULL, NULL, 0);
    int rc = CLI_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        pgconn_fail(c, r, "cannot register the venue", err, sizeof err);
        cli_error("%s", err);
        rc = CLI_BADINPUT;
    } else if (!strcmp(PQgetvalue(r, 0, 0), "other")) {
        cli_error("the venue %s is registered with another key: give --replace to register this one instead (its "
                  "records sealed by the old key stay checkable with a keyring that lists it)", name);
        rc = CLI_BADINPUT;
    } else {
        printf("the venue %s is %s with seal key %.16s...\n", name,
               !strcmp(PQgetvalue(r, 0, 0), "same") ? "registered already" : "registered", hex);
    }
    PQclear(r);
    return rc;
}

static int venue_list(PGconn *c, int json)
{
    char err[512];
    PGresult *r = PQexec(c, "SELECT venue, encode(seal_key, 'hex'), to_char(added AT TIME ZONE 'UTC', "
                            "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM venues ORDER BY venue");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pgconn_fail(c, r, "cannot read the venues", err, sizeof err);
        cli_error("%s", err);
        PQclear(r);
        return CLI_BADINPUT;
    }
    json_t *a = json ? json_array() : NULL;
    for (int i = 0; i < PQntuples(r); i++) {
        if (a)
            json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "venue", PQgetvalue(r, i, 0), "seal_key",
                                               PQgetvalue(r, i, 1), "added", PQgetvalue(r, i, 2)));
        else
            printf("%s  %s  %s\n", PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2));
    }
    if (!json && !PQntuples(r))
        printf("no venue is registered\n");
    PQclear(r);
    return a ? cli_print_json(a) : CLI_OK;
}

int cmd_pg(int argc, char **argv)
{
    const char *ops[5] = {NULL};
    int json = 0, replace = 0, n = 0, rc = CLI_OK;
    char err[512];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--replace"))
            replace = 1;
        else if (argv[i][0] != '-' && n < 5)
            ops[n++] = argv[i];
        else {
            fputs(usage_text, stderr);
            return CLI_BADINPUT;
        }
    }
    const char *verb = ops[0];
    int venue = verb && !strcmp(verb, "venue");
    const char *sub = venue ? ops[1] : NULL, *url = venue ? ops[2] : ops[1];
    int ok = verb && ((!strcmp(verb, "migrate") || !strcmp(verb, "version")) ? n == 2
                      : venue && sub && !strcmp(sub, "add")                   ? n == 5
                      : venue && sub && !strcmp(sub, "list")                  ? n == 3
                                                                               : 0);
    if (!ok || (replace && !(venue && !strcmp(sub, "add")))) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    PGconn *conn = NULL;
    if (pgconn_open(url, 0, &conn, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    if (venue) {
        rc = !strcmp(sub, "add") ? venue_add(conn, ops[3], ops[4], replace) : venue_list(conn, json);
    } else if (!strcmp(verb, "migrate")) {
        int from = 0, to = 0;
        if (pgschema_migrate(conn, &from, &to, err, sizeof err)) {
            cli_error("%s", err);
            rc = CLI_BADINPUT;
        } else if (json) {
            rc = cli_print_json(json_pack("{s:i, s:i, s:i}", "from", from, "to", to, "latest", pgschema_latest()));
        } else if (from == to) {
            printf("the schema is at version %d, the newest this arbiter knows: nothing to do\n", to);
        } else {
            printf("the schema went from version %d to %d\n", from, to);
        }
    } else {
        int v = pgschema_version(conn, err, sizeof err);
        if (v < 0) {
            cli_error("%s", err);
            rc = CLI_BADINPUT;
        } else if (json) {
            rc = cli_print_json(json_pack("{s:i, s:i}", "version", v, "latest", pgschema_latest()));
        } else {
            printf("schema version %d; this arbiter knows up to %d%s\n", v, pgschema_latest(),
                   v < pgschema_latest() ? ": run arbiter pg migrate" : v > pgschema_latest() ? ": upgrade arbiter" : "");
        }
    }
    PQfinish(conn);
    return rc;
}
