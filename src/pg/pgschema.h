/* pgschema.h -- the schema of arbiter's records in PostgreSQL, and the one
 * function that brings a database to it (arbiter-pg(5)).
 *
 * The schema is a list of numbered migrations, sql/NNN_name.sql in the
 * source tree, compiled into the program (src/pg/migrations.inc is made
 * from them by the build): a program knows exactly the versions it was
 * built with, and needs no file at run time.  A database records the ones
 * applied in its table arbiter_schema (version, name, applied).
 *
 * Errors: the functions return 0 or -1 with one sentence in err (errlen
 * bytes at most, always NUL-terminated): what failed and, from libpq, why.
 */
#ifndef ARBITER_PGSCHEMA_H
#define ARBITER_PGSCHEMA_H

#include <stddef.h>

#include <libpq-fe.h>

/* The newest schema version this program knows. */
int pgschema_latest(void);

/* Bring the database of conn to pgschema_latest(): in one transaction,
 * under an advisory lock (two migrations at once wait for each other, the
 * second finds nothing to do), apply every migration above the database's
 * version, each recorded in arbiter_schema.  *from and *to (may be NULL):
 * the version before and after (0: an empty database).  A database whose
 * version is newer than this program knows is refused, untouched (an older
 * arbiter must not write into a schema it does not know). */
int pgschema_migrate(PGconn *conn, int *from, int *to, char *err, size_t errlen);

/* The database's version (0 when no migration was ever applied), or -1 and
 * err. */
int pgschema_version(PGconn *conn, char *err, size_t errlen);

#endif
