/* pgship.c -- records into PostgreSQL, idempotently (pgship.h).
 *
 * Why COPY: a venue that was offline all day ships its whole day at once,
 * and row-by-row INSERTs cost a round trip each.  COPY streams the batch's
 * events in one go.
 *
 * Why two ways in: COPY has no ON CONFLICT.  The events go first straight
 * into their table, under a savepoint: when none of them is there yet --
 * a backlog never shipped, the usual case -- that is the whole of it, as
 * fast as a raw load, and with no row already there no copy can differ
 * from one.  When one is there (a shipment sent again: its confirmation
 * was lost with a crash, or an old copy of the store ships), the primary
 * key refuses the COPY (unique_violation); the savepoint takes it back and
 * the careful way runs: COPY into a scratch table, then two statements, an
 * INSERT ... ON CONFLICT DO NOTHING that adds what is new, and an INSERT
 * INTO conflicts of every offered copy that differs from the row already
 * there (the row just added is its own copy, so it never differs).  Both
 * ways end with the same rows; the key decides which, never a guess.  The
 * match rows go last, moving only forward: COPY into a scratch table of
 * their own and one upsert from it.  All of it in
 * one transaction, so a failure at any point leaves the tables as they
 * were and the shipper sends it all again.
 *
 * Why events carry the match's start: events are partitioned by it
 * (sql/001_records.sql), and PostgreSQL enforces a primary key within a
 * partition only.  The start is the receive time of event 0, fixed for
 * the life of a record, so every copy of an event lands in the same
 * partition and meets its first copy there.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logformat/jtext.h"
#include "src/pg/pgconn.h"
#include "src/pg/pgschema.h"
#include "src/pg/pgship.h"

int pgship_connect(const char *url, int timeout_s, PGconn **out, char *err, size_t errlen)
{
    return pgconn_open(url, timeout_s, out, err, errlen);
}

int pgship_venue_valid(const char *name)
{
    size_t n = strlen(name);
    if (!n || n > PGSHIP_VENUE_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", name[i]))
            return 0;
    return 1;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = 0;
}

int pgship_check(PGconn *c, const char *venue, const uint8_t key[32], char *err, size_t errlen)
{
    char mine[65], theirs[65] = "";
    int v = pgschema_version(c, err, errlen);
    if (v < 0)
        return -1;
    if (v != pgschema_latest()) {
        snprintf(err, errlen,
                 "the database's schema is version %d and this arbiter writes version %d: its administrator runs "
                 "arbiter pg migrate (arbiter-pg(1))%s", v, pgschema_latest(),
                 v > pgschema_latest() ? ", or this venue upgrades arbiter" : "");
        return -1;
    }
    const char *params[1] = {venue};
    PGresult *r = PQexecParams(c, "SELECT encode(seal_key, 'hex') FROM venues WHERE venue = $1", 1, NULL, params, NULL,
                               NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pgconn_fail(c, r, "cannot read the table of venues", err, errlen);
        PQclear(r);
        return -1;
    }
    if (PQntuples(r) == 1)
        snprintf(theirs, sizeof theirs, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    hex(key, 32, mine);
    if (!*theirs) {
        snprintf(err, errlen,
                 "the venue %s is not registered in the circuit's database: its administrator registers it with "
                 "this daemon's public key (arbiter pg venue add URL %s FILE.pub; sign-public %.16s...)", venue, venue,
                 mine);
        return -1;
    }
    if (strcmp(mine, theirs)) {
        snprintf(err, errlen,
                 "the venue %s is registered with another seal key (%.16s...) than this daemon's (%.16s...): "
                 "nothing is shipped under its name", venue, theirs, mine);
        return -1;
    }
    return 0;
}

/* ---- COPY's text format ------------------------------------------------- */

static void copy_text(jtext *t, const char *s)
{
    if (!s) {
        jtext_lit(t, "\\N");
        return;
    }
    for (;;) {   /* the runs between the characters COPY escapes, whole */
        size_t run = strcspn(s, "\\\n\r\t");
        jtext_raw(t, s, run);
        s += run;
        if (!*s)
            return;
        jtext_raw(t, *s == '\\' ? "\\\\" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : "\\t", 2);
        s++;
    }
}

static void copy_bytea(jtext *t, const uint8_t *b, size_t n)
{
    jtext_lit(t, "\\\\x");   /* \x, its backslash escaped for COPY */
    if (t->bad || (t->len + 2 * n + 1 >= t->cap && jtext_grow(t, 2 * n + 1)))
        return;
    hex(b, n, t->buf + t->len);
    t->len += 2 * n;
}

/* ms since the epoch as a timestamptz PostgreSQL reads */
static void timestamp(char *out, size_t n, uint64_t ms)
{
    time_t s = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&s, &tm);
    size_t k = strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
    snprintf(out + k, n - k, ".%03u+00", (unsigned)(ms % 1000));
}

/* A COPY's rows, one at a time: the next row's line into t; 0, 1 when
 * there is none, -1 and err. */
typedef int (*copy_row_fn)(jtext *t, void *ctx, char *err, size_t errlen);

/* One COPY ... FROM STDIN (`sql`) of the rows `put` writes, sent 1 MiB at
 * a time.  0 and the rows copied in *rows (may be NULL); -1 and err, with
 * the SQLSTATE of the server's refusal in state ("" when none). */
static int copy_in(PGconn *c, const char *sql, copy_row_fn put, void *ctx, uint64_t *rows, char state[6], char *err,
                   size_t errlen)
{
    jtext t = {0};
    int rc = 0, more;
    state[0] = 0;
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        pgconn_fail(c, r, "cannot start COPY", err, errlen);
        PQclear(r);
        return -1;
    }
    PQclear(r);
    do {
        if ((more = put(&t, ctx, err, errlen)) < 0) {
            rc = -1;
        } else if (t.bad) {
            snprintf(err, errlen, "out of memory making the rows to copy");
            rc = -1;
        } else if ((t.len >= (1u << 20) || more) && t.len) {
            if (PQputCopyData(c, t.buf, (int)t.len) != 1)
                rc = pgconn_fail(c, NULL, "cannot copy the rows", err, errlen);
            jtext_reset(&t);
        }
    } while (!more && !rc);
    jtext_free(&t);
    if (PQputCopyEnd(c, rc ? "arbiter: the rows could not be made" : NULL) != 1 && !rc)
        rc = pgconn_fail(c, NULL, "cannot end COPY", err, errlen);
    while ((r = PQgetResult(c))) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !rc) {
            const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
            snprintf(state, 6, "%s", code ? code : "");
            rc = pgconn_fail(c, r, "COPY failed", err, errlen);
        } else if (!rc && rows) {
            *rows = strtoull(PQcmdTuples(r), NULL, 10);
        }
        PQclear(r);
    }
    return rc;
}

/* The batch's rows, record by record: a cursor for copy_in. */
typedef struct {
    const char *venue;
    const pgship_record *recs;
    size_t n, i, k;
    char started[40];               /* recs[i]'s */
} batch_rows;

/* The next event's row of the columns COPY_COLUMNS names. */
static int event_row(jtext *t, void *ctx, char *err, size_t errlen)
{
    batch_rows *b = ctx;
    while (b->i < b->n && b->k == b->recs[b->i].n_events)
        b->i++, b->k = 0;
    if (b->i == b->n)
        return 1;
    const pgship_record *m = &b->recs[b->i];
    const pgship_event *e = &m->events[b->k];
    if (!b->k)
        timestamp(b->started, sizeof b->started, m->started_ms);
    b->k++;
    copy_text(t, b->venue), jtext_lit(t, "\t");
    copy_text(t, m->match), jtext_lit(t, "\t");
    copy_text(t, b->started), jtext_lit(t, "\t");
    jtext_fmt(t, "%llu\t%llu\t", (unsigned long long)e->seq, (unsigned long long)e->received_ms);
    copy_text(t, e->peer), jtext_lit(t, "\t");
    copy_bytea(t, e->event, e->event_len), jtext_lit(t, "\t");
    copy_bytea(t, e->verdict, e->verdict_len), jtext_lit(t, "\t");
    copy_text(t, e->status), jtext_lit(t, "\t");
    copy_text(t, e->rule), jtext_lit(t, "\t");
    copy_text(t, e->type), jtext_lit(t, "\t");
    copy_text(t, e->public_json), jtext_lit(t, "\t");
    copy_bytea(t, e->chain, 32), jtext_lit(t, "\t");
    copy_bytea(t, e->state, 32), jtext_lit(t, "\t");
    copy_bytea(t, e->link, 32), jtext_lit(t, "\n");
    return 0;
}

/* The batch's events into `sql`'s table (a COPY ... FROM STDIN of the
 * columns below): copy_in's results. */
static int copy_rows(PGconn *c, const char *sql, const char *venue, const pgship_record *recs, size_t n,
                     uint64_t *rows, char state[6], char *err, size_t errlen)
{
    batch_rows b = {venue, recs, n, 0, 0, ""};
    return copy_in(c, sql, event_row, &b, rows, state, err, errlen);
}

#define COPY_COLUMNS \
    " (venue, match, started, seq, received_ms, peer, event, verdict, status, rule, type, public, chain, state, link)" \
    " FROM STDIN"

/* The partitions the batch's starts fall in, made when missing. */
static int partitions(PGconn *c, const pgship_record *recs, size_t n, char *err, size_t errlen)
{
    char done[16][8];
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        char ts[40], month[8];
        if (!recs[i].n_events)
            continue;
        timestamp(ts, sizeof ts, recs[i].started_ms);
        memcpy(month, ts, 7);
        month[7] = 0;
        size_t k = 0;
        while (k < nd && strcmp(done[k], month))
            k++;
        if (k < nd)
            continue;
        const char *p[1] = {ts};
        PGresult *r = PQexecParams(c, "SELECT arbiter_events_partition($1::timestamptz)", 1, NULL, p, NULL, NULL, 0);
        int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
        if (!ok)
            pgconn_fail(c, r, "cannot make the month's partition of events", err, errlen);
        PQclear(r);
        if (!ok)
            return -1;
        if (nd < 16)
            memcpy(done[nd++], month, 8);
    }
    return 0;
}

static int count_of(PGconn *c, const char *sql, const char *what, uint64_t *n, char *err, size_t errlen)
{
    PGresult *r = PQexec(c, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : pgconn_fail(c, r, what, err, errlen);
    if (!rc && n)
        *n = strtoull(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return rc;
}

static const char *str_of(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The next match row (of a record whole: its summary goes), from its
 * summary (arbiter-records(5)): the columns of the scratch table
 * MATCHES_IN, the summary as its bytes (the seal's summary hash covers
 * them; the jsonb is made of them by the INSERT). */
static int match_row(jtext *t, void *ctx, char *err, size_t errlen)
{
    batch_rows *b = ctx;
    while (b->i < b->n && !b->recs[b->i].summary)
        b->i++;
    if (b->i == b->n)
        return 1;
    const pgship_record *m = &b->recs[b->i++];
    json_t *s = json_loadb(m->summary, m->summary_len, 0, NULL);
    if (!json_is_object(s)) {
        json_decref(s);
        snprintf(err, errlen, "the summary of match %s is not a JSON object", m->match);
        return -1;
    }
    char started[40], updated[40];
    timestamp(started, sizeof started, m->started_ms);
    timestamp(updated, sizeof updated, (uint64_t)json_integer_value(json_object_get(s, "updated")));
    const char *tour = str_of(s, "tournament");
    copy_text(t, b->venue), jtext_lit(t, "\t");
    copy_text(t, m->match), jtext_lit(t, "\t");
    copy_text(t, started), jtext_lit(t, "\t");
    copy_text(t, str_of(s, "format") ? str_of(s, "format") : ""), jtext_lit(t, "\t");
    copy_text(t, tour && *tour ? tour : NULL), jtext_lit(t, "\t");
    copy_text(t, str_of(s, "status") ? str_of(s, "status") : ""), jtext_lit(t, "\t");
    copy_text(t, str_of(s, "winner")), jtext_lit(t, "\t");
    jtext_raw(t, json_is_true(json_object_get(s, "finished")) ? "t\t" : "f\t", 2);
    jtext_fmt(t, "%lld\t", (long long)json_integer_value(json_object_get(s, "events")));
    copy_bytea(t, (const uint8_t *)m->summary, m->summary_len), jtext_lit(t, "\t");
    copy_bytea(t, m->seal, m->seal_len), jtext_lit(t, "\t");
    copy_text(t, updated), jtext_lit(t, "\n");
    json_decref(s);
    return 0;
}

#define MATCHES_IN \
    "arbiter_matches_in (venue text, match text, started timestamptz, format text, tournament text, " \
    "status text, winner text, finished boolean, events bigint, summary_bytes bytea, seal bytea, updated timestamptz)"

/* The match rows of the records shipped whole, moving only forward: one
 * COPY into a scratch table and one upsert (a row each cost a round trip:
 * a tenth of a shipment's time). */
static int match_rows(PGconn *c, const char *venue, const pgship_record *recs, size_t n, char *err, size_t errlen)
{
    batch_rows b = {venue, recs, n, 0, 0, ""};
    char state[6];
    while (b.i < n && !recs[b.i].summary)   /* none goes whole: no statement */
        b.i++;
    if (b.i == n)
        return 0;
    /* a record is in a batch once (pgship.h); were one there twice, the
     * upsert takes its longest copy rather than fail */
    return pgconn_exec(c, "CREATE TEMPORARY TABLE IF NOT EXISTS " MATCHES_IN " ON COMMIT DELETE ROWS",
                       "cannot make the scratch table of matches", err, errlen) ||
                   copy_in(c, "COPY arbiter_matches_in FROM STDIN", match_row, &b, NULL, state, err, errlen) ||
                   pgconn_exec(c,
                               "INSERT INTO matches AS m (venue, match, started, format, tournament, status, winner, "
                               "finished, events, summary, summary_bytes, seal, updated) "
                               "SELECT DISTINCT ON (venue, match) venue, match, started, format, tournament, status, "
                               "winner, finished, events, convert_from(summary_bytes, 'UTF8')::jsonb, summary_bytes, "
                               "seal, updated FROM arbiter_matches_in ORDER BY venue, match, events DESC "
                               "ON CONFLICT (venue, match) DO UPDATE SET status = EXCLUDED.status, "
                               "winner = EXCLUDED.winner, finished = EXCLUDED.finished, events = EXCLUDED.events, "
                               "summary = EXCLUDED.summary, summary_bytes = EXCLUDED.summary_bytes, "
                               "seal = EXCLUDED.seal, updated = EXCLUDED.updated, tournament = EXCLUDED.tournament "
                               "WHERE m.events <= EXCLUDED.events",
                               "cannot write the match rows", err, errlen)
               ? -1
               : 0;
}

static int cards_row(PGconn *c, const pgship_record *m, char *err, size_t errlen)
{
    const char *p[2] = {m->cards_hash, m->cards};
    int len[2] = {0, (int)m->cards_len}, fmt[2] = {0, 1};
    PGresult *r = PQexecParams(c, "INSERT INTO cards (hash, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING", 2, NULL, p,
                               len, fmt, 0);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : pgconn_fail(c, r, "cannot write a card database", err, errlen);
    PQclear(r);
    return rc;
}

int pgship_send(PGconn *c, const char *venue, const pgship_record *recs, size_t n, pgship_result *res, char *err,
                size_t errlen)
{
    pgship_result got = {0, 0};
    char state[6];
    if (pgconn_exec(c, "BEGIN", "cannot begin a transaction", err, errlen))
        return -1;
    if (partitions(c, recs, n, err, errlen) ||
        pgconn_exec(c, "SAVEPOINT arbiter_direct", "cannot set a savepoint", err, errlen))
        goto fail;
    /* every event new: straight into events, and that is all */
    if (!copy_rows(c, "COPY events" COPY_COLUMNS, venue, recs, n, &got.events_new, state, err, errlen)) {
        if (pgconn_exec(c, "RELEASE SAVEPOINT arbiter_direct", "cannot release the savepoint", err, errlen))
            goto fail;
        goto rows;
    }
    /* one is there already (23505, unique_violation): the careful way */
    if (strcmp(state, "23505") ||
        pgconn_exec(c, "ROLLBACK TO SAVEPOINT arbiter_direct", "cannot roll back to the savepoint", err, errlen))
        goto fail;
    if (pgconn_exec(c,
                    "CREATE TEMPORARY TABLE IF NOT EXISTS arbiter_incoming (LIKE events INCLUDING DEFAULTS) "
                    "ON COMMIT DELETE ROWS",
                    "cannot make the scratch table", err, errlen) ||
        copy_rows(c, "COPY arbiter_incoming" COPY_COLUMNS, venue, recs, n, NULL, state, err, errlen) ||
        count_of(c, "INSERT INTO events SELECT * FROM arbiter_incoming ON CONFLICT DO NOTHING",
                 "cannot add the events", &got.events_new, err, errlen) ||
        count_of(c,
                 "INSERT INTO conflicts (venue, match, seq, what, received_ms, peer, event, verdict, chain, state, "
                 "link) SELECT i.venue, i.match, i.seq, concat_ws(', ', "
                 "CASE WHEN e.received_ms <> i.received_ms THEN 'receive time' END, "
                 "CASE WHEN e.peer <> i.peer THEN 'sender' END, CASE WHEN e.event <> i.event THEN 'event' END, "
                 "CASE WHEN e.verdict <> i.verdict THEN 'verdict' END, CASE WHEN e.chain <> i.chain THEN 'chain' END, "
                 "CASE WHEN e.state <> i.state THEN 'state hash' END, CASE WHEN e.link <> i.link THEN 'link' END), "
                 "i.received_ms, i.peer, i.event, i.verdict, i.chain, i.state, i.link "
                 "FROM arbiter_incoming i JOIN events e "
                 "ON (e.venue, e.match, e.started, e.seq) = (i.venue, i.match, i.started, i.seq) "
                 "WHERE (e.received_ms, e.peer, e.event, e.verdict, e.chain, e.state, e.link) IS DISTINCT FROM "
                 "(i.received_ms, i.peer, i.event, i.verdict, i.chain, i.state, i.link) AND NOT EXISTS (SELECT 1 FROM "
                 "conflicts k WHERE (k.venue, k.match, k.seq, k.received_ms, k.peer, k.event, k.verdict, k.chain, "
                 "k.state, k.link) = (i.venue, i.match, i.seq, i.received_ms, i.peer, i.event, i.verdict, i.chain, "
                 "i.state, i.link))",
                 "cannot compare the copies", &got.conflicts_new, err, errlen))
        goto fail;
rows:
    for (size_t i = 0; i < n; i++)
        if (recs[i].cards && cards_row(c, &recs[i], err, errlen))
            goto fail;
    if (match_rows(c, venue, recs, n, err, errlen))
        goto fail;
    if (pgconn_exec(c, "COMMIT", "cannot commit", err, errlen))
        return -1;   /* a failed COMMIT rolls back */
    if (res)
        *res = got;
    return 0;
fail: {
        PGresult *r = PQexec(c, "ROLLBACK");
        PQclear(r);
        return -1;
    }
}
