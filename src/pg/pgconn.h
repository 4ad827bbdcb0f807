/* pgconn.h -- a connection to the circuit's PostgreSQL database, and one
 * statement run on it, as every part of src/pg and the commands use them.
 *
 * The URL is libpq's (postgresql://user:password@host:port/dbname?..., or
 * key=value words).  It is never written into a message: it may hold a
 * password.  Messages carry libpq's reason, its first line.
 */
#ifndef ARBITER_PGCONN_H
#define ARBITER_PGCONN_H

#include <stddef.h>

#include <libpq-fe.h>

/* Connect to url: no notices on stderr (client_min_messages = warning and
 * no notice processor), UTC, and when timeout_s > 0 a connect_timeout and
 * a statement_timeout of that many seconds and TCP keepalives (a shipper
 * that must notice a dead network); 0 and *out, or -1 and one sentence in
 * err.  The caller PQfinish()es *out. */
int pgconn_open(const char *url, int timeout_s, PGconn **out, char *err, size_t errlen);

/* Run sql (no parameters); 0 when it succeeded, else -1 and
 * "<what>: <libpq's reason>" in err. */
int pgconn_exec(PGconn *c, const char *sql, const char *what, char *err, size_t errlen);

/* "<what>: <libpq's reason>" for a failed result r (NULL: the
 * connection's last error) into err; returns -1. */
int pgconn_fail(PGconn *c, const PGresult *r, const char *what, char *err, size_t errlen);

#endif
