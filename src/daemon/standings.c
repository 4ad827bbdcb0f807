/* standings.c -- the standings worker (standings.h).
 *
 * Two threads meet here: the daemon's loop (arbiterd.c, the one thread that
 * writes the store, reads the sockets and owns daemon_ctx) and the worker,
 * started by standings_new and joined by standings_destroy.  What each
 * owns, and who may touch what:
 *
 *   The loop owns the queue of waiting requests (queue[], n_queued, and
 *   the routes in them), the cache, the counters, the query socket and
 *   every tournament.  The worker never sees any of them.
 *
 *   `run` is the one computation handed over.  The loop fills its request
 *   part (t, after, final) and sends one byte on the inproc pair; from then
 *   until the worker's byte comes back (`running` set) the loop reads `run`
 *   only under `mu` and never writes it.  The worker reads the request and
 *   writes the result (reply, txnid, restarts) under `mu`.  The routes of
 *   the running request stay in the loop's hands all along (run_routes).
 *
 *   run.t points at a tournament the loop holds in daemon_ctx.  A SIGHUP
 *   that loads its file again replaces it there and hands the old one to
 *   standings_retire, which keeps it (`retired`) until the computation
 *   ends: nothing the worker reads is freed under it.  The worker does not
 *   touch the card sets of the daemon either (tourrec_judge_store loads
 *   the card databases the records pin, its own copies), and the engines
 *   have no global state (cmd_verify.c runs them in threads the same way).
 *
 *   The worker reads the store in a read transaction it begins itself (the
 *   store is opened without MDB_NOTLS: a read transaction belongs to the
 *   thread that began it) and ends before the answer is built; it holds
 *   `map` all that time.  store_grow() remaps the store, which no open
 *   transaction of the process may see: before it the loop sets `pause`
 *   and takes `map`.  The worker checks `pause` before each record, ends
 *   its transaction, lets go of `map` and waits on `resumed`; once the
 *   loop has grown the map it starts that computation over.  The loop
 *   then waits for at most one record's judging, and only when the map
 *   grows (it doubles each time: rarely).  `stopping` ends a computation
 *   the same way at shutdown.
 *
 *   Both sockets of the pair belong each to one thread: `lsock` to the
 *   loop (never blocking), `wsock` to the worker (which blocks on it, and
 *   closes it as it ends).  A byte loop -> worker: compute `run`; an empty
 *   message: stop.  A byte worker -> loop: `run` is done.
 *
 * The worker only reads: a kill -9 at any moment loses nothing.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "src/core/dlog.h"
#include "src/daemon/reply.h"
#include "src/daemon/standings.h"
#include "src/tournament/tourout.h"
#include "src/tournament/tourrec.h"

typedef struct {
    char id[TOUR_STR_MAX + 1];      /* the tournament's id                */
    uint32_t after;
    int final;
} key;

typedef struct {
    key k;
    reply_route routes[STANDINGS_WAITING];
    size_t n_routes;
} waiting;

enum { INIT_MU = 1, INIT_MAP = 2, INIT_COND = 4 };

typedef struct {
    key k;
    uint64_t gen, txnid;            /* tournaments loaded, store written  */
    json_t *reply;                  /* NULL: a free entry                 */
} cached;

struct standings {
    store *st;
    unsigned delay_ms;
    void *lsock, *wsock;
    pthread_t thread;
    int started;

    /* the loop's */
    waiting queue[STANDINGS_WAITING];   /* FIFO, queue[0] next          */
    size_t n_queued, n_waiting;         /* requests, running one's too  */
    waiting run_routes;                 /* who waits for `run`           */
    const tournament *run_t;            /* run.t, the loop's copy        */
    uint64_t run_gen;
    int running;
    tournament *retired;
    cached cache[STANDINGS_CACHE];
    size_t cache_next;
    int map_held;                       /* between pause and resume      */
    int inits;                          /* INIT_*: what destroy undoes   */
    uint64_t computed, hits, shared, busy, restarted;

    /* handed over under mu */
    pthread_mutex_t mu;
    struct {
        const tournament *t;
        uint32_t after;
        int final;
        json_t *reply;              /* the worker's answer; NULL: out of memory */
        uint64_t txnid;             /* the transaction it read           */
        uint64_t restarts;
    } run;

    /* the store's map may grow only while the worker holds no transaction */
    pthread_mutex_t map;
    pthread_cond_t resumed;
    atomic_int pause, stopping;
};

/* ---- the answer ------------------------------------------------------------ */

/* The round clock of the reply: the last round published, its start and
 * end (start + round_minutes) in ms since the epoch, null when the file
 * does not say.  The time left is no part of it: it changes while the
 * reply waits in the cache, so clock_now() sets it as the reply is sent. */
static json_t *round_clock(const tournament *t)
{
    uint32_t r = tournament_rounds_published(t);
    uint64_t start = tournament_round_started(t, r), end = tournament_round_ends(t, r);

    return json_pack("{s:I, s:o, s:o}", "round", (json_int_t)r, "started",
                     start ? json_integer((json_int_t)start) : json_null(), "ends",
                     end ? json_integer((json_int_t)end) : json_null());
}

/* "time_left_ms" of the reply's clock, now: ends - now, 0 once time is up,
 * null without an end. */
static void clock_now(json_t *reply)
{
    json_t *clock = json_object_get(reply, "clock"), *ends = json_object_get(clock, "ends");
    struct timespec ts;
    json_int_t now;

    if (!clock || clock_gettime(CLOCK_REALTIME, &ts))
        return;
    now = (json_int_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    json_object_set_new(clock, "time_left_ms", !json_is_integer(ends) ? json_null()
                        : json_integer(json_integer_value(ends) > now ? json_integer_value(ends) - now : 0));
}

/* The reply from the records judged (rc: tourrec_judge_store's code, err
 * its sentence): the standings JSON of tournament.h, as `arbiter
 * tournament standings --db` prints it, last in the reply so that a script
 * can cut it out as sent.  NULL out of memory. */
static json_t *answer(const tournament *t, const tourrec_set *rs, int rc, const char *err, uint32_t after, int final)
{
    const tour_structure *st = tournament_structure(t);
    tour_results *r = NULL;
    tour_standings *s = NULL;
    jtext text = {0};
    json_t *out = NULL, *sj = NULL;
    char why[TOUR_TEXT_MAX + 256] = "";
    size_t n_open = 0;

    if (rc == TOURREC_ETOOMANY) {
        out = reply_error("%s: the op \"standings\" judges at most %d records; use arbiter tournament standings --db.",
                      err, STANDINGS_RECORDS);
        goto done;
    }
    if (rc == TOURREC_ESTORE) {
        out = reply_error("The store cannot be read.");
        goto done;
    }
    if (rc || tourrec_results(rs, &r))
        goto done;   /* out of memory (TOUR_EINVAL: past TOUR_GAMES_MAX, bounded above) */
    if (final || !st->swiss_rounds)
        rc = tournament_final(t, r, &s, why, sizeof why);
    else
        rc = tournament_standings(t, r, after, &s, why, sizeof why);
    if (rc == TOUR_ENOMEM)
        goto done;
    if (rc) {
        out = reply_error("%s", why[0] ? why : "The tournament cannot answer that.");
        goto done;
    }
    if (tournament_standings_json(t, s, &text) || text.bad || !(sj = json_loadb(text.buf, text.len, 0, NULL)))
        goto done;
    for (size_t i = 0; i < r->n_alarms; i++)
        n_open += !r->alarms[i].resolved;
    out = json_pack("{s:b, s:s, s:I, s:b, s:b, s:I, s:I, s:b, s:o, s:o}", "ok", 1, "tournament", tournament_id(t),
                    "after", (json_int_t)s->after_round, "final", s->final, "provisional", s->provisional, "records",
                    (json_int_t)rs->n, "open_alarms", (json_int_t)n_open, "cached", 0, "clock", round_clock(t),
                    "standings", sj);
    sj = NULL;   /* json_pack took it, or dropped it on failure */
done:
    json_decref(sj);
    jtext_free(&text);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    return out;
}

json_t *standings_compute(store *st, MDB_txn *txn, const tournament *t, uint32_t after, int final)
{
    tourrec_set rs;
    char err[TOUR_TEXT_MAX + 256] = "";
    json_t *out = NULL;
    int rc;

    if (tourrec_set_init(&rs, t))
        goto done;
    rc = tourrec_judge_store(&rs, st, txn, NULL, STANDINGS_RECORDS, NULL, NULL, err, sizeof err);
    out = answer(t, &rs, rc, err, after, final);
    clock_now(out);
done:
    tourrec_set_free(&rs);
    return out;
}

/* ---- the worker's side --------------------------------------------------------- */

/* tourrec_progress: stop at this record when the loop must grow the map
 * or the daemon stops; the test-only delay_ms before each record. */
static int progress(void *ctx, size_t done, size_t total)
{
    standings *s = ctx;
    if (s->delay_ms && done < total) {
        struct timespec ts = {(time_t)(s->delay_ms / 1000), (long)(s->delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return atomic_load(&s->pause) || atomic_load(&s->stopping);
}

/* The records of t, judged in a read transaction of the worker's own,
 * ended before it returns; started over when the loop paused it.  The
 * code of tourrec_judge_store (TOURREC_ESTOPPED: the daemon stops). */
static int judge(standings *s, tourrec_set *rs, const tournament *t, uint64_t *txnid, uint64_t *restarts, char *err,
                 size_t errlen)
{
    for (;;) {
        MDB_txn *txn = NULL;
        int rc, lk;

        if ((lk = pthread_mutex_lock(&s->map))) {
            dlog(DLOG_ERROR, "standings: cannot lock: %s", strerror(lk));
            return TOURREC_ESTORE;
        }
        while (atomic_load(&s->pause) && !atomic_load(&s->stopping))
            if ((lk = pthread_cond_wait(&s->resumed, &s->map)))
                break;
        rc = lk ? TOURREC_ESTORE : tourrec_set_init(rs, t) ? TOURREC_ENOMEM : TOURREC_OK;
        if (!rc && (rc = mdb_txn_begin(store_env(s->st), NULL, MDB_RDONLY, &txn))) {
            dlog(DLOG_ERROR, "standings: cannot begin a read transaction: %s", mdb_strerror(rc));
            rc = TOURREC_ESTORE;
        }
        if (!rc) {
            *txnid = (uint64_t)mdb_txn_id(txn);
            rc = tourrec_judge_store(rs, s->st, txn, NULL, STANDINGS_RECORDS, progress, s, err, errlen);
            mdb_txn_abort(txn);   /* before `map` is let go: store_grow may follow */
        }
        if ((lk = pthread_mutex_unlock(&s->map)))
            dlog(DLOG_ERROR, "standings: cannot unlock: %s", strerror(lk));
        if (rc != TOURREC_ESTOPPED || atomic_load(&s->stopping))
            return rc;
        tourrec_set_free(rs);   /* paused for store_grow: start over */
        ++*restarts;
    }
}

/* One computation: `run`'s request in, its reply out, under mu. */
static void compute_run(standings *s)
{
    const tournament *t;
    uint32_t after;
    int final, rc;
    uint64_t txnid = 0, restarts = 0;
    tourrec_set rs;
    char err[TOUR_TEXT_MAX + 256] = "";
    json_t *reply = NULL;

    memset(&rs, 0, sizeof rs);
    if (pthread_mutex_lock(&s->mu))
        return;   /* cannot happen with a default mutex; the reply stays NULL */
    t = s->run.t;
    after = s->run.after;
    final = s->run.final;
    pthread_mutex_unlock(&s->mu);
    rc = judge(s, &rs, t, &txnid, &restarts, err, sizeof err);
    if (rc != TOURREC_ESTOPPED)
        reply = answer(t, &rs, rc, err, after, final);
    tourrec_set_free(&rs);
    if (pthread_mutex_lock(&s->mu)) {
        json_decref(reply);
        return;
    }
    s->run.reply = reply;
    s->run.txnid = txnid;
    s->run.restarts = restarts;
    pthread_mutex_unlock(&s->mu);
}

static void *worker(void *arg)
{
    standings *s = arg;
    char b;

    for (;;) {
        int n = zmq_recv(s->wsock, &b, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;   /* an empty message: stop (or the context is ending) */
        compute_run(s);
        while (zmq_send(s->wsock, "d", 1, 0) < 0 && errno == EINTR)
            ;
    }
    zmq_close(s->wsock);
    return NULL;
}

/* ---- the loop's side ----------------------------------------------------------- */

static void make_key(key *k, const tournament *t, uint32_t after, int final)
{
    memset(k, 0, sizeof *k);
    snprintf(k->id, sizeof k->id, "%s", tournament_id(t));
    k->after = final ? 0 : after;
    k->final = !!final;
}

static int same_key(const key *a, const key *b)
{
    return a->after == b->after && a->final == b->final && !strcmp(a->id, b->id);
}

/* The id of the store's last committed write transaction; UINT64_MAX (no
 * cached answer has it) when LMDB cannot say. */
static uint64_t last_txnid(standings *s)
{
    MDB_envinfo info;
    return mdb_env_info(store_env(s->st), &info) ? UINT64_MAX : (uint64_t)info.me_last_txnid;
}

static json_t *cache_find(standings *s, const key *k, uint64_t gen)
{
    uint64_t txnid = last_txnid(s);
    for (size_t i = 0; i < STANDINGS_CACHE; i++)
        if (s->cache[i].reply && s->cache[i].gen == gen && s->cache[i].txnid == txnid && same_key(&s->cache[i].k, k))
            return s->cache[i].reply;
    return NULL;
}

/* Keep reply (a new reference taken) in place of the oldest entry, or of
 * one with the same key. */
static void cache_put(standings *s, const key *k, uint64_t gen, uint64_t txnid, json_t *reply)
{
    cached *c = &s->cache[s->cache_next];
    for (size_t i = 0; i < STANDINGS_CACHE; i++)
        if (s->cache[i].reply && same_key(&s->cache[i].k, k))
            c = &s->cache[i];
    if (c == &s->cache[s->cache_next])
        s->cache_next = (s->cache_next + 1) % STANDINGS_CACHE;
    json_decref(c->reply);
    c->k = *k;
    c->gen = gen;
    c->txnid = txnid;
    c->reply = json_incref(reply);
}

/* reply to every request of w; they wait no more */
static void deliver(standings *s, const standings_shelf *shelf, void *qsock, waiting *w, json_t *reply)
{
    clock_now(reply);
    for (size_t i = 0; i < w->n_routes; i++)
        reply_send(qsock, &w->routes[i], reply, shelf->dropped);
    s->n_waiting -= w->n_routes;
    w->n_routes = 0;
}

/* Hand w to the worker: 0, or -1 (logged; w is left as it was). */
static int start(standings *s, uint64_t gen, const tournament *t, waiting *w)
{
    int rc;
    if ((rc = pthread_mutex_lock(&s->mu))) {
        dlog(DLOG_ERROR, "standings: cannot lock: %s", strerror(rc));
        return -1;
    }
    s->run.t = t;
    s->run.after = w->k.after;
    s->run.final = w->k.final;
    s->run.reply = NULL;
    s->run.txnid = 0;
    s->run.restarts = 0;
    pthread_mutex_unlock(&s->mu);
    if (zmq_send(s->lsock, "r", 1, ZMQ_DONTWAIT) != 1) {
        dlog(DLOG_ERROR, "standings: cannot reach the worker: %s", zmq_strerror(errno));
        return -1;
    }
    s->run_routes = *w;
    s->run_t = t;
    s->run_gen = gen;
    s->running = 1;
    return 0;
}

/* The waiting requests in turn: answered from the cache, refused when
 * their tournament is gone (a SIGHUP), or the first other handed over. */
static void next(standings *s, const standings_shelf *shelf, void *qsock)
{
    while (!s->running && s->n_queued) {
        waiting w = s->queue[0];
        const tournament *t = tournament_by_id(shelf->list, shelf->n, w.k.id);
        json_t *reply = NULL;

        memmove(&s->queue[0], &s->queue[1], --s->n_queued * sizeof s->queue[0]);
        if (!t)
            reply = reply_error("No tournament \"%.256s\" is known to this daemon any more (a SIGHUP loaded its file "
                            "again).", w.k.id);
        else if ((reply = json_incref(cache_find(s, &w.k, shelf->gen))) != NULL)
            s->hits += w.n_routes;
        else if (start(s, shelf->gen, t, &w))
            reply = reply_error("The standings cannot be computed now: the daemon's log says why.");
        if (reply)
            deliver(s, shelf, qsock, &w, reply);
        json_decref(reply);
    }
}

int standings_request(standings *s, uint64_t gen, const tournament *t, uint32_t after, int final,
                      const reply_route *to, json_t **now)
{
    waiting *w = NULL;
    key k;

    make_key(&k, t, after, final);
    if ((*now = json_incref(cache_find(s, &k, gen))) != NULL) {
        clock_now(*now);
        s->hits++;
        return 1;
    }
    if (s->n_waiting >= STANDINGS_WAITING) {
        s->busy++;
        *now = reply_error("Busy: %zu standings requests already wait for the daemon's one standings computation at a "
                       "time (at most %d may wait); ask again in a few seconds.", s->n_waiting, STANDINGS_WAITING);
        return 1;
    }
    for (size_t i = 0; i < s->n_queued && !w; i++)
        if (same_key(&s->queue[i].k, &k))
            w = &s->queue[i];
    if (w) {
        s->shared++;
    } else {   /* n_queued < n_waiting + 1 <= STANDINGS_WAITING */
        w = &s->queue[s->n_queued++];
        w->k = k;
        w->n_routes = 0;
    }
    w->routes[w->n_routes++] = *to;
    s->n_waiting++;
    if (!s->running && s->n_queued == 1 && !start(s, gen, t, w)) {
        s->n_queued = 0;   /* it is run_routes now */
        return 0;
    }
    if (!s->running) {   /* the worker cannot be reached: nobody waits */
        s->n_queued--;
        s->n_waiting -= w->n_routes;
        *now = reply_error("The standings cannot be computed now: the daemon's log says why.");
        return 1;
    }
    return 0;
}

void standings_serve(standings *s, const standings_shelf *shelf, void *qsock)
{
    json_t *reply;
    uint64_t txnid, restarts;
    char b;

    if (!s->running || zmq_recv(s->lsock, &b, 1, ZMQ_DONTWAIT) != 1)
        return;
    if (pthread_mutex_lock(&s->mu)) {
        dlog(DLOG_ERROR, "standings: cannot lock");
        return;   /* the worker's answer stays: the next turn tries again */
    }
    reply = s->run.reply;
    txnid = s->run.txnid;
    restarts = s->run.restarts;
    s->run.reply = NULL;
    s->run.t = NULL;
    pthread_mutex_unlock(&s->mu);
    s->running = 0;
    s->run_t = NULL;
    tournament_destroy(&s->retired);   /* the worker is done with it */
    s->computed++;
    s->restarted += restarts;
    if (!reply)
        reply = reply_error("Out of memory.");
    deliver(s, shelf, qsock, &s->run_routes, reply);
    if (reply && json_is_true(json_object_get(reply, "ok")) && txnid != UINT64_MAX) {
        json_object_set_new(reply, "cached", json_true());   /* as the next ones get it */
        cache_put(s, &s->run_routes.k, s->run_gen, txnid, reply);
    }
    json_decref(reply);
    next(s, shelf, qsock);
}

void standings_pause(standings *s)
{
    int rc;
    if (!s || !s->started)
        return;
    atomic_store(&s->pause, 1);
    if ((rc = pthread_mutex_lock(&s->map)))
        dlog(DLOG_ERROR, "standings: cannot lock the map: %s", strerror(rc));
    s->map_held = !rc;
}

void standings_resume(standings *s)
{
    int rc;
    if (!s || !s->started)
        return;
    atomic_store(&s->pause, 0);
    if ((rc = pthread_cond_broadcast(&s->resumed)))
        dlog(DLOG_ERROR, "standings: cannot wake the worker: %s", strerror(rc));
    if (s->map_held && (rc = pthread_mutex_unlock(&s->map)))
        dlog(DLOG_ERROR, "standings: cannot unlock the map: %s", strerror(rc));
    s->map_held = 0;
}

void standings_retire(standings *s, tournament **t)
{
    if (s && s->running && *t && s->run_t == *t && !s->retired) {
        s->retired = *t;   /* freed once the worker is done with it */
        *t = NULL;
        return;
    }
    tournament_destroy(t);
}

json_t *standings_health(const standings *s)
{
    return json_pack("{s:b, s:I, s:I, s:I, s:I, s:I, s:I}", "running", s && s->running, "waiting",
                     (json_int_t)(s ? s->n_waiting : 0), "computed", (json_int_t)(s ? s->computed : 0), "cached",
                     (json_int_t)(s ? s->hits : 0), "shared", (json_int_t)(s ? s->shared : 0), "busy",
                     (json_int_t)(s ? s->busy : 0), "restarted", (json_int_t)(s ? s->restarted : 0));
}

void *standings_socket(standings *s)
{
    return s->lsock;
}

int standings_new(void *zctx, store *st, unsigned delay_ms, standings **out)
{
    standings *s = calloc(1, sizeof *s);
    sigset_t all, old;
    char ep[64];
    int zero = 0, rc = -1, prc = 0;

    *out = NULL;
    if (!s) {
        dlog(DLOG_ERROR, "standings: out of memory");
        return -1;
    }
    s->st = st;
    s->delay_ms = delay_ms;
    atomic_init(&s->pause, 0);
    atomic_init(&s->stopping, 0);
    if ((prc = pthread_mutex_init(&s->mu, NULL)))
        goto done;
    s->inits |= INIT_MU;
    if ((prc = pthread_mutex_init(&s->map, NULL)))
        goto done;
    s->inits |= INIT_MAP;
    if ((prc = pthread_cond_init(&s->resumed, NULL)))
        goto done;
    s->inits |= INIT_COND;
    snprintf(ep, sizeof ep, "inproc://arbiterd-standings-%p", (void *)s);
    if (!(s->lsock = zmq_socket(zctx, ZMQ_PAIR)) || zmq_setsockopt(s->lsock, ZMQ_LINGER, &zero, sizeof zero) ||
        zmq_bind(s->lsock, ep) || !(s->wsock = zmq_socket(zctx, ZMQ_PAIR)) ||
        zmq_setsockopt(s->wsock, ZMQ_LINGER, &zero, sizeof zero) || zmq_connect(s->wsock, ep)) {
        dlog(DLOG_ERROR, "standings: cannot make the worker's sockets: %s", zmq_strerror(errno));
        goto done;
    }
    json_object_seed(0);   /* jansson seeds its hashes on first use: before the thread */
    /* the signals stay the loop's: the worker blocks them all */
    if (sigfillset(&all) || (prc = pthread_sigmask(SIG_SETMASK, &all, &old)))
        goto done;
    prc = pthread_create(&s->thread, NULL, worker, s);
    if (pthread_sigmask(SIG_SETMASK, &old, NULL) && !prc)
        dlog(DLOG_WARN, "standings: cannot restore the signal mask");
    if (prc)
        goto done;
    s->started = 1;   /* wsock is the worker's now */
    rc = 0;
done:
    if (prc)
        dlog(DLOG_ERROR, "standings: cannot start the worker: %s", strerror(prc));
    if (rc)
        standings_destroy(&s);
    *out = s;
    return rc;
}

void standings_destroy(standings **sp)
{
    standings *s = *sp;
    int rc;

    if (!s)
        return;
    if (s->started) {
        atomic_store(&s->stopping, 1);   /* the computation under way ends at its next record */
        if (!(rc = pthread_mutex_lock(&s->map))) {
            pthread_cond_broadcast(&s->resumed);
            pthread_mutex_unlock(&s->map);
        }
        if (zmq_send(s->lsock, "", 0, 0) < 0 || (rc = pthread_join(s->thread, NULL))) {
            /* the worker may still read s: leave it all (the process is ending) */
            dlog(DLOG_ERROR, "standings: cannot stop the worker");
            *sp = NULL;
            return;
        }
    } else if (s->wsock) {
        zmq_close(s->wsock);
    }
    if (s->lsock)
        zmq_close(s->lsock);
    json_decref(s->run.reply);
    for (size_t i = 0; i < STANDINGS_CACHE; i++)
        json_decref(s->cache[i].reply);
    tournament_destroy(&s->retired);
    if (s->inits & INIT_COND)
        pthread_cond_destroy(&s->resumed);
    if (s->inits & INIT_MAP)
        pthread_mutex_destroy(&s->map);
    if (s->inits & INIT_MU)
        pthread_mutex_destroy(&s->mu);
    free(s);
    *sp = NULL;
}
