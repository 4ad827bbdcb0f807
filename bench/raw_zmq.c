/* raw_zmq.c -- raw DEALER->ROUTER messages/s, the ceiling of arbiterd's ingest
 * (issue 5).
 *
 *   bench/raw_zmq --transport tcp|ipc [--endpoint EP] [--tables N] [--games K]
 *                 [--window W] [--rate R] [--reply-bytes R] [--lmdb DIR]
 *                 [--label L] FILE...
 *
 * What: the same tables as bench/load (bench/ingest.h: the same corpus,
 * the same MessagePack events, the same window, the same client loop), but
 * the ROUTER at the other end does nothing: it answers each message with R
 * bytes (default 33, the mean size of arbiterd's verdict replies) at once.
 * The ROUTER runs in its own thread with its own ZeroMQ context (its own
 * I/O thread), as the daemon is its own process; it drains what is waiting
 * and answers each message as it reads it.  This is what the transport
 * alone costs on this machine: arbiterd's ingest can only be slower.
 *
 * --lmdb DIR: a "durable echo", arbiterd without the judge: the ROUTER
 * drains what is waiting (up to 1024 messages, as the daemon), puts one
 * record per message (the store's record size: 4 + message + 4 + R + 8 +
 * 1 + 20 + 64 bytes, under a key of the same length as the store's) into
 * a fresh LMDB environment in a new folder under DIR, commits (fsync), and
 * only then answers them.  The floor of the daemon's ack latency on this
 * disk, with --rate R events/s per table as bench/load paces them.
 *
 * Endpoint: tcp://127.0.0.1:<free port> or ipc://<tmp>/raw_zmq.<pid> unless
 * --endpoint is given.  Prints one JSON object on stdout:
 *   {"bench":"raw_zmq","transport","label","tables","games","window",
 *    "events","msg_bytes","seconds","msgs_per_s","rtt_p50_us","rtt_p99_us",
 *    "rtt_max_us","reply_bytes","rate","durable","events_per_commit"?,
 *    "commit_mean_us"?}
 * Exit 0; 2 bad usage; 3 a message got no reply in time.
 */
#include <errno.h>
#include <jansson.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "bench/ingest.h"

static const char usage_text[] =
    "usage: bench/raw_zmq --transport tcp|ipc [--endpoint EP] [--tables N] [--games K]\n"
    "                     [--window W] [--rate R] [--reply-bytes R] [--lmdb DIR]\n"
    "                     [--label L] FILE...\n";

#define DRAIN_MAX 1024

typedef struct {
    void *ctx, *sock;
    size_t reply_bytes;
    atomic_int stop;
    size_t answered;
    MDB_env *env;                /* --lmdb: the durable echo */
    MDB_dbi dbi;
    uint64_t counter, commits, commit_ns;
    int failed;
} router_t;

/* The durable echo: drain, put, commit, answer. */
static void durable_turn(router_t *r, const char *reply)
{
    static zmq_msg_t ident[DRAIN_MAX], body[DRAIN_MAX];
    int n = 0;
    while (n < DRAIN_MAX) {
        zmq_msg_init(&ident[n]);
        zmq_msg_init(&body[n]);
        if (zmq_msg_recv(&ident[n], r->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&ident[n]);
            zmq_msg_close(&body[n]);
            break;
        }
        zmq_msg_recv(&body[n], r->sock, 0);
        n++;
    }
    if (!n)
        return;
    MDB_txn *txn = NULL;
    int rc = mdb_txn_begin(r->env, NULL, 0, &txn);
    for (int i = 0; i < n && !rc; i++) {
        uint8_t key[32];
        size_t len = zmq_msg_size(&body[i]);
        memset(key, 'k', 24);   /* a match id's worth of key */
        for (int b = 7; b >= 0; b--)
            key[24 + 7 - b] = (uint8_t)(r->counter >> (8 * b));
        r->counter++;
        MDB_val k = {sizeof key, key}, v = {4 + len + 4 + r->reply_bytes + 8 + 1 + 20 + 64, NULL};
        if (!(rc = mdb_put(txn, r->dbi, &k, &v, MDB_RESERVE))) {
            memset(v.mv_data, 0, v.mv_size);
            memcpy((char *)v.mv_data + 4, zmq_msg_data(&body[i]), len);
        }
    }
    uint64_t t0 = bench_now_ns();
    rc = rc ? (mdb_txn_abort(txn), rc) : mdb_txn_commit(txn);
    r->commit_ns += bench_now_ns() - t0;
    r->commits++;
    if (rc && !r->failed) {
        fprintf(stderr, "bench/raw_zmq: LMDB: %s\n", mdb_strerror(rc));
        r->failed = 1;
    }
    for (int i = 0; i < n; i++) {
        if (!rc && zmq_msg_send(&ident[i], r->sock, ZMQ_SNDMORE) >= 0)
            zmq_send(r->sock, reply, r->reply_bytes, 0);
        r->answered++;
        zmq_msg_close(&ident[i]);
        zmq_msg_close(&body[i]);
    }
}

static void *router_main(void *arg)
{
    router_t *r = arg;
    char *reply = calloc(1, r->reply_bytes ? r->reply_bytes : 1);
    while (!atomic_load(&r->stop)) {
        zmq_pollitem_t it = {r->sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 50) <= 0)
            continue;
        if (r->env) {
            durable_turn(r, reply);
            continue;
        }
        for (;;) {
            zmq_msg_t ident, body;
            zmq_msg_init(&ident);
            zmq_msg_init(&body);
            if (zmq_msg_recv(&ident, r->sock, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&ident);
                zmq_msg_close(&body);
                break;
            }
            if (zmq_msg_recv(&body, r->sock, 0) >= 0 && zmq_msg_send(&ident, r->sock, ZMQ_SNDMORE) >= 0)
                zmq_send(r->sock, reply, r->reply_bytes, 0);
            r->answered++;
            zmq_msg_close(&ident);
            zmq_msg_close(&body);
        }
    }
    free(reply);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *transport = NULL, *ep = NULL, *label = "", *lmdb_dir = NULL;
    int tables = 1, games = 1;
    size_t reply_bytes = 33;
    bench_opts o = {64, 0, 30000};
    char **files = bench_xmalloc((size_t)argc * sizeof *files);
    int n_files = 0;
    char epbuf[256];

    const char *a, *v;
    int ai = 1, ar;
    while ((ar = bench_arg(argc, argv, &ai, files, &n_files, &a, &v)) > 0) {
        if (!strcmp(a, "--transport"))
            transport = v;
        else if (!strcmp(a, "--endpoint"))
            ep = v;
        else if (!strcmp(a, "--tables"))
            tables = atoi(v);
        else if (!strcmp(a, "--games"))
            games = atoi(v);
        else if (!strcmp(a, "--window"))
            o.window = atoi(v);
        else if (!strcmp(a, "--reply-bytes"))
            reply_bytes = (size_t)atol(v);
        else if (!strcmp(a, "--rate"))
            o.rate = atof(v);
        else if (!strcmp(a, "--lmdb"))
            lmdb_dir = v;
        else if (!strcmp(a, "--label"))
            label = v;
        else {
            ar = -1;
            break;
        }
    }
    if (ar < 0) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (!transport || (strcmp(transport, "tcp") && strcmp(transport, "ipc")) || !n_files || tables < 1 ||
        games < 1 || o.window < 1) {
        fputs(usage_text, stderr);
        return 2;
    }

    bench_corpus c;
    size_t total = 0;
    if (bench_corpus_load(&c, files, n_files))
        return 2;
    bench_table *t = bench_tables_new(&c, tables, games, "raw", 0, &total);
    if (!t)
        return 2;
    size_t msg_bytes = 0;
    for (int i = 0; i < tables; i++)
        for (size_t k = 0; k < t[i].n; k++)
            msg_bytes += t[i].ev[k].len;

    router_t r;
    char lmdb_path[4096] = "";
    memset(&r, 0, sizeof r);
    r.reply_bytes = reply_bytes;
    if (lmdb_dir) {
        MDB_txn *txn = NULL;
        snprintf(lmdb_path, sizeof lmdb_path, "%s/raw_zmq.%ld", lmdb_dir, (long)getpid());
        int rc = mkdir(lmdb_path, 0700) && errno != EEXIST ? errno : 0;
        if (!rc && !(rc = mdb_env_create(&r.env)) && !(rc = mdb_env_set_maxdbs(r.env, 8)) &&
            !(rc = mdb_env_set_mapsize(r.env, msg_bytes * 4 + ((size_t)256 << 20))) &&
            !(rc = mdb_env_open(r.env, lmdb_path, 0, 0600)) && !(rc = mdb_txn_begin(r.env, NULL, 0, &txn)) &&
            !(rc = mdb_dbi_open(txn, "events", MDB_CREATE, &r.dbi)))
            rc = mdb_txn_commit(txn);
        if (rc) {
            fprintf(stderr, "bench/raw_zmq: cannot open LMDB in %s: %s\n", lmdb_path, mdb_strerror(rc));
            return 2;
        }
    }
    r.ctx = zmq_ctx_new();
    zmq_ctx_set(r.ctx, ZMQ_MAX_SOCKETS, 64);
    r.sock = zmq_socket(r.ctx, ZMQ_ROUTER);
    int one = 1, zero = 0, hwm = 0;
    zmq_setsockopt(r.sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(r.sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(r.sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(r.sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (!ep) {
        if (!strcmp(transport, "tcp")) {
            ep = "tcp://127.0.0.1:*";
        } else {
            const char *tmp = getenv("TMPDIR");
            snprintf(epbuf, sizeof epbuf, "ipc://%s/raw_zmq.%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
            ep = epbuf;
        }
    }
    if (zmq_bind(r.sock, ep)) {
        fprintf(stderr, "bench/raw_zmq: cannot bind %s: %s\n", ep, zmq_strerror(errno));
        return 2;
    }
    size_t n = sizeof epbuf;
    zmq_getsockopt(r.sock, ZMQ_LAST_ENDPOINT, epbuf, &n);
    ep = epbuf;
    pthread_t th;
    pthread_create(&th, NULL, router_main, &r);

    void *ctx = zmq_ctx_new();
    zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, tables + 64);
    if (bench_connect(ctx, t, tables, ep))
        return 2;
    bench_result res;
    int rc = bench_stream(t, tables, total, &o, &res);
    atomic_store(&r.stop, 1);
    pthread_join(th, NULL);
    if (r.env) {
        char f[4200];
        mdb_env_close(r.env);
        snprintf(f, sizeof f, "%s/data.mdb", lmdb_path);
        unlink(f);
        snprintf(f, sizeof f, "%s/lock.mdb", lmdb_path);
        unlink(f);
        rmdir(lmdb_path);
    }

    double secs = bench_seconds(&res);
    json_t *out = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:I}", "bench",
                            "raw_zmq", "transport", transport, "label", label, "tables", tables, "games", games,
                            "window", o.window, "events", (json_int_t)res.replies, "msg_bytes",
                            (json_int_t)msg_bytes, "seconds", secs, "msgs_per_s",
                            secs > 0 ? (double)res.replies / secs : 0.0, "rtt_p50_us",
                            (double)bench_quantile(res.lat, res.n_lat, 0.50, 1) / 1e3, "rtt_p99_us",
                            (double)bench_quantile(res.lat, res.n_lat, 0.99, 1) / 1e3, "rtt_max_us",
                            res.n_lat ? (double)res.lat[res.n_lat - 1] / 1e3 : 0.0, "reply_bytes",
                            (json_int_t)reply_bytes);
    json_object_set_new(out, "rate", json_real(o.rate));
    json_object_set_new(out, "durable", json_boolean(r.env != NULL));
    if (r.commits) {
        json_object_set_new(out, "events_per_commit", json_real((double)r.answered / (double)r.commits));
        json_object_set_new(out, "commit_mean_us", json_real((double)r.commit_ns / (double)r.commits / 1e3));
    }
    char *line = json_dumps(out, JSON_COMPACT | JSON_REAL_PRECISION(6));
    printf("%s\n", line);
    fprintf(stderr, "raw_zmq %s %s: %d tables, %zu messages (%zu bytes) in %.3f s = %.0f msgs/s\n", transport, label,
            tables, res.replies, msg_bytes, secs, secs > 0 ? (double)res.replies / secs : 0);
    free(line);
    json_decref(out);
    free(res.lat);
    bench_tables_free(t, tables);
    zmq_ctx_term(ctx);
    zmq_close(r.sock);
    zmq_ctx_term(r.ctx);
    for (size_t g = 0; g < c.n; g++) {
        for (size_t i = 0; i < c.games[g].n; i++)
            free(c.games[g].lines[i]);
        free(c.games[g].lines);
    }
    free(c.games);
    free(files);
    return rc ? 3 : 0;
}
