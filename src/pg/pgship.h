/* pgship.h -- verified records into the circuit's PostgreSQL database.
 *
 * A venue's daemon ships what its store holds (arbiterd --replicate); a
 * benchmark ships the same rows to measure it.  Both hand pgship records
 * already read out of LMDB, in memory: nothing here touches a store, so a
 * slow or absent database never holds a transaction of the store open.
 *
 * What a shipment guarantees (arbiter-pg(5)): one PostgreSQL transaction
 * for the whole batch of records -- all of it is in the tables, or none;
 * idempotent on (venue, match, seq): a row already there is left as it is,
 * and a copy that differs from it in any stored byte is written to
 * `conflicts` (once) and counted, never over the row; a match's row
 * (summary and seal) only moves forward, to a record of as many events or
 * more.  So a shipment may be sent again after any failure, any number of
 * times, and the tables end the same.
 *
 * Errors: functions return 0 or -1 with one sentence in err (errlen bytes,
 * NUL-terminated), libpq's reason included.  After -1 the connection may
 * be broken: PQstatus says; the caller connects again.
 */
#ifndef ARBITER_PGSHIP_H
#define ARBITER_PGSHIP_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#define PGSHIP_VENUE_MAX 64         /* a venue's name: [A-Za-z0-9._-]{1,64} */

/* One stored event, as store.h keeps it, with what the daemon derives. */
typedef struct {
    uint64_t seq, received_ms;
    const char *peer;
    const uint8_t *event;
    size_t event_len;
    const uint8_t *verdict;
    size_t verdict_len;
    const uint8_t *chain, *state, *link;   /* 32 bytes each */
    const char *status;             /* "ok", "warning", "illegal", "mismatch" */
    const char *rule;               /* the rule a non-ok verdict cites, or NULL */
    const char *type;               /* the event's type, or NULL: undecodable */
    const char *public_json;        /* the public view (compact JSON), or NULL */
} pgship_event;

/* One match's events from some seq on, and, when they complete the record
 * as the store holds it, its summary and seal. */
typedef struct {
    const char *match;
    uint64_t started_ms;            /* receive time of its event 0 */
    const pgship_event *events;
    size_t n_events;
    const char *summary;            /* NULL: the record goes on past these */
    size_t summary_len;
    const uint8_t *seal;
    size_t seal_len;
    const char *cards_hash;         /* hex; with cards: the database it pins */
    const void *cards;              /* NULL: not shipped with this batch */
    size_t cards_len;
} pgship_record;

typedef struct {
    uint64_t events_new;            /* rows added to events */
    uint64_t conflicts_new;         /* rows added to conflicts */
} pgship_result;

/* Connect to url (libpq's), with the settings a shipper runs under: no
 * notices on stderr, UTC, connect_timeout and statement_timeout of
 * `timeout_s`, TCP keepalives.  0 and *out; -1 and err (the URL is never
 * in it: it may hold a password). */
int pgship_connect(const char *url, int timeout_s, PGconn **out, char *err, size_t errlen);

/* 1 when name is a venue name (PGSHIP_VENUE_MAX). */
int pgship_venue_valid(const char *name);

/* Check that the database has the schema this arbiter writes and that
 * `venue` is registered there with the Ed25519 public key `key` (a venue
 * is registered by the circuit's administrator, `arbiter pg venue add`;
 * a daemon never registers itself).  0, or -1 and a sentence. */
int pgship_check(PGconn *c, const char *venue, const uint8_t key[32], char *err, size_t errlen);

/* Ship n records of `venue` in one transaction; *res (may be NULL) says
 * what was new.  A match has one record in a batch (were it there twice,
 * its row in matches would be the copy with the most events).  0, or -1
 * and err (the transaction rolled back). */
int pgship_send(PGconn *c, const char *venue, const pgship_record *recs, size_t n, pgship_result *res, char *err,
                size_t errlen);

#endif
