/* daemon.c -- what the daemon's modules share (daemon.h): the clocks, who
 * sent a message, and how a match comes into memory from its record --
 * checked whole first, so that nothing the daemon has not verified is ever
 * extended or sealed again. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "src/core/dlog.h"
#include "src/daemon/daemon.h"

uint64_t daemon_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t daemon_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int daemon_who(const daemon_ctx *d, void *msg, gate_peer *out)
{
    if (d->gate)
        return gate_who(d->gate, msg, out);
    memset(out, 0, sizeof *out);
    out->role = KEYS_JUDGE;
    out->anonymous = 1;
    out->fd = -1;
    return 0;
}

const tournament *daemon_tournament(const daemon_ctx *d, const char *id)
{
    return tournament_by_id(d->tournaments, d->n_tournaments, id);
}

int daemon_damage(daemon_ctx *d, const char *id, const char *why)
{
    if (d->n_damaged_shown < DAEMON_DAMAGED_SHOWN && !live_find(d->live, id)) {
        snprintf(d->damaged[d->n_damaged_shown].match, sizeof d->damaged[0].match, "%s", id);
        snprintf(d->damaged[d->n_damaged_shown].why, sizeof d->damaged[0].why, "%s", why);
        d->n_damaged_shown++;
    }
    return live_damage(d->live, id);
}

int daemon_load(daemon_ctx *d, MDB_txn *txn, live *l, const char *named)
{
    record_info info;
    record_findings f;
    verify_session *s = NULL;
    char why[512];
    int rc = record_read(d->st, txn, l->id, &info);

    if (rc == MDB_NOTFOUND) {   /* a new match: its header names its cards */
        l->db = cardset_named(d->cards, named);
        memset(&l->heads, 0, sizeof l->heads);
        memset(&l->tags, 0, sizeof l->tags);
        if (verify_session_new(l->db, l->id, &s) != VERIFY_OK || verify_session_lean(s) != VERIFY_OK) {
            verify_session_destroy(&s);
            live_clear(d->live, l);
            return -ENOMEM;
        }
        live_attach(d->live, l, s);
        return 0;
    }
    if (rc && rc != -EINVAL) {
        live_clear(d->live, l);
        return rc;
    }
    rc = record_check(d->st, txn, d->cards, l->id, &d->trust, 1, NULL, NULL, &f, &s, &l->heads);
    if (rc) {
        verify_session_destroy(&s);
        live_clear(d->live, l);
        return rc;
    }
    if (!record_findings_clean(&f) || !s) {
        char id[OL_MATCH_MAX + 1];
        record_findings_text(&f, why, sizeof why);
        snprintf(id, sizeof id, "%s", l->id);
        verify_session_destroy(&s);
        live_clear(d->live, l);
        dlog(DLOG_ERROR, "match %s: %s: it takes no more events until a judge has looked at it (arbiter audit)", id,
             why[0] ? why : "its record cannot be judged again");
        return daemon_damage(d, id, why[0] ? why : "its record cannot be judged again") ? -ENOMEM : 1;
    }
    l->db = record_cards(d->cards, d->st, txn, &info, why, sizeof why);
    snprintf(l->tags.tournament, sizeof l->tags.tournament, "%s", info.tournament);
    snprintf(l->tags.owner, sizeof l->tags.owner, "%s", info.owner);
    snprintf(l->tags.owner_key, sizeof l->tags.owner_key, "%s", info.owner_key);
    live_attach(d->live, l, s);
    return 0;
}

int daemon_seal(daemon_ctx *d, MDB_txn *txn, live *l, jtext *text)
{
    int rc = record_summary_text(l->sess, &l->heads, l->db, &l->tags, daemon_now_ms(), text);
    if (!rc)
        rc = record_seal(d->st, txn, l->id, &l->heads, text->buf, text->len, &d->key);
    l->dirty = 0;
    l->heads.noted = 0;   /* the next batch's first event tells the outbox again */
    return rc;
}

int daemon_replica_flush(daemon_ctx *d)
{
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(store_env(d->st), NULL, 0, &txn);
    if (!rc && (rc = replica_apply(d->replica, d->st, txn)))
        mdb_txn_abort(txn);
    else if (!rc)
        rc = mdb_txn_commit(txn);
    replica_applied(d->replica, !rc);
    return rc;
}
