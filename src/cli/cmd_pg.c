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
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "src/cli/cli.h"
#include "src/pg/pgschema.h"

static const char usage_text[] =
    "usage: arbiter pg migrate URL [--json]\n"
    "       arbiter pg version URL [--json]\n"
    "\n"
    "The circuit's PostgreSQL database, at URL (libpq's: postgresql://...).\n"
    "migrate applies every migration of arbiter's schema the database lacks,\n"
    "in one transaction (arbiter-pg(5)); a database newer than this arbiter is\n"
    "refused, untouched.  version prints the database's schema version and\n"
    "the newest this arbiter knows.\n";

int cmd_pg(int argc, char **argv)
{
    const char *verb = NULL, *url = NULL;
    int json = 0, rc = CLI_OK;
    char err[512];

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (argv[i][0] != '-' && !verb)
            verb = argv[i];
        else if (argv[i][0] != '-' && !url)
            url = argv[i];
        else {
            fputs(usage_text, stderr);
            return CLI_BADINPUT;
        }
    }
    if (!verb || !url || (strcmp(verb, "migrate") && strcmp(verb, "version"))) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    PGconn *conn = PQconnectdb(url);
    if (!conn || PQstatus(conn) != CONNECTION_OK) {
        const char *m = conn ? PQerrorMessage(conn) : "out of memory";
        cli_error("cannot connect to PostgreSQL: %.*s", (int)strcspn(m, "\n"), m);
        PQfinish(conn);
        return CLI_BADINPUT;
    }
    PGresult *quiet = PQexec(conn, "SET client_min_messages = warning");   /* no NOTICE of IF NOT EXISTS */
    PQclear(quiet);
    if (!strcmp(verb, "migrate")) {
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
