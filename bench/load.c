/* load.c -- N concurrent tables against a real arbiterd (issue 5, ingest).
 *
 *   bench/load --endpoint EP [--query EP] [--feed EP] [--pid PID] [--tables N]
 *              [--games K] [--window W] [--rate R] [--drop D] [--tag T]
 *              [--timeout MS] [--label L] FILE.jsonl...
 *
 * What: N tables (DEALERs, one thread, bench/ingest.h) each stream K games
 * of the corpus under match ids of their own ("<tag>-<table>-<game>"),
 * pipelined (W events in flight, 64 as `arbiter send`), unpaced or at R
 * events/s per table.  Every event is timed from its send to its verdict.
 * With --query the daemon's health is read before and after: the commits
 * (batches) the run took and so the mean events per commit, and the
 * daemon's commit-time figures.  With --pid the daemon's VmHWM and VmRSS
 * are read once every verdict is in (with --drop D every game stops D
 * events before its end, so that N*K matches stay live: the RSS figure).
 * With --feed a subscriber to every match (SUB, prefix "") reads the
 * daemon's feed in a thread of its own during the run ("feed_msgs"): the
 * daemon only builds feed messages somebody subscribed to.
 *
 * Prints one JSON object on stdout (bench/run_ingest collects them):
 *   {"bench":"load","label","tables","games","window","rate","events",
 *    "seconds","events_per_s","ack_p50_us","ack_p99_us","ack_max_us",
 *    "ack_mean_us","ok","warning","other","commits","events_per_commit",
 *    "commit_mean_us","judge_us_per_event","judge_mean_us","live_matches","feed_msgs",
 *    "vmhwm_kb","vmrss_kb","rss_anon_kb","rss_file_kb"}
 * (fields it could not measure are null) and a line for people on stderr.
 * Exit 0; 1 a verdict other than ok/warning came back (the corpus is all
 * legal games: something is wrong); 2 bad usage; 3 no reply in time.
 */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "bench/ingest.h"

static const char usage_text[] =
    "usage: bench/load --endpoint EP [--query EP] [--feed EP] [--pid PID] [--tables N]\n"
    "                  [--games K] [--window W] [--rate R] [--drop D] [--tag T]\n"
    "                  [--timeout MS] [--label L] FILE.jsonl...\n";

/* The feed subscriber: counts messages until told to stop. */
typedef struct {
    void *sock;
    atomic_int stop;
    size_t msgs;
} feed_t;

static void *feed_main(void *arg)
{
    feed_t *f = arg;
    char buf[1 << 16];
    while (!atomic_load(&f->stop)) {
        zmq_pollitem_t it = {f->sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 50) <= 0)
            continue;
        int more = 0;
        size_t sz = sizeof more;
        while (zmq_recv(f->sock, buf, sizeof buf, ZMQ_DONTWAIT) >= 0) {
            zmq_getsockopt(f->sock, ZMQ_RCVMORE, &more, &sz);
            if (!more)
                f->msgs++;
        }
    }
    return NULL;
}

/* The daemon's health reply as JSON, or NULL. */
static json_t *health(void *ctx, const char *ep)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, ms = 5000;
    char buf[4096];
    json_t *o = NULL;
    if (!s)
        return NULL;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &ms, sizeof ms);
    if (!zmq_connect(s, ep) && zmq_send(s, "{\"op\":\"health\"}", 15, 0) == 15) {
        int n = zmq_recv(s, buf, sizeof buf, 0);
        if (n > 0 && (size_t)n <= sizeof buf)
            o = json_loadb(buf, (size_t)n, 0, NULL);
    }
    zmq_close(s);
    return o;
}

static json_int_t hint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* VmHWM, VmRSS, RssAnon and RssFile of a process, in kB; -1 when unknown.
 * RssFile is mostly the store's pages that LMDB's map made resident (page
 * cache the kernel may take back), RssAnon the daemon's own memory. */
static void vm_of(long pid, long *hwm, long *rss, long *anon, long *file)
{
    char path[64], line[256];
    *hwm = *rss = *anon = *file = -1;
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmHWM:", 6))
            *hwm = strtol(line + 6, NULL, 10);
        else if (!strncmp(line, "VmRSS:", 6))
            *rss = strtol(line + 6, NULL, 10);
        else if (!strncmp(line, "RssAnon:", 8))
            *anon = strtol(line + 8, NULL, 10);
        else if (!strncmp(line, "RssFile:", 8))
            *file = strtol(line + 8, NULL, 10);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *ep = NULL, *qep = NULL, *fep = NULL, *label = "", *tag = NULL;
    long pid = 0;
    int tables = 1, games = 1;
    size_t drop = 0;
    bench_opts o = {64, 0, 30000};
    char **files = bench_xmalloc((size_t)argc * sizeof *files);
    int n_files = 0;
    char deftag[32];

    const char *a, *v;
    int ai = 1, ar;
    while ((ar = bench_arg(argc, argv, &ai, files, &n_files, &a, &v)) > 0) {
        if (!strcmp(a, "--endpoint"))
            ep = v;
        else if (!strcmp(a, "--query"))
            qep = v;
        else if (!strcmp(a, "--feed"))
            fep = v;
        else if (!strcmp(a, "--pid"))
            pid = atol(v);
        else if (!strcmp(a, "--tables"))
            tables = atoi(v);
        else if (!strcmp(a, "--games"))
            games = atoi(v);
        else if (!strcmp(a, "--window"))
            o.window = atoi(v);
        else if (!strcmp(a, "--rate"))
            o.rate = atof(v);
        else if (!strcmp(a, "--drop"))
            drop = (size_t)atol(v);
        else if (!strcmp(a, "--tag"))
            tag = v;
        else if (!strcmp(a, "--timeout"))
            o.timeout_ms = atol(v);
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
    if (!ep || !n_files || tables < 1 || games < 1 || o.window < 1 || o.rate < 0 || o.timeout_ms < 1) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (!tag) {
        snprintf(deftag, sizeof deftag, "L%ld", (long)getpid());
        tag = deftag;
    }

    bench_corpus c;
    size_t total = 0;
    if (bench_corpus_load(&c, files, n_files))
        return 2;
    bench_table *t = bench_tables_new(&c, tables, games, tag, drop, &total);
    if (!t)
        return 2;
    size_t msg_bytes = 0;
    for (int i = 0; i < tables; i++)
        for (size_t k = 0; k < t[i].n; k++)
            msg_bytes += t[i].ev[k].len;

    void *ctx = zmq_ctx_new();
    int max_sockets = tables + 64;
    zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, max_sockets);
    json_t *h0 = qep ? health(ctx, qep) : NULL;
    if (qep && !h0) {
        fprintf(stderr, "bench/load: no health reply from %s\n", qep);
        return 3;
    }
    feed_t feed;
    pthread_t feed_th;
    memset(&feed, 0, sizeof feed);
    if (fep) {
        /* subscribe to everything, and wait until the daemon knows it */
        feed.sock = zmq_socket(ctx, ZMQ_SUB);
        int zero = 0, hwm = 0;
        zmq_setsockopt(feed.sock, ZMQ_LINGER, &zero, sizeof zero);
        zmq_setsockopt(feed.sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
        zmq_setsockopt(feed.sock, ZMQ_SUBSCRIBE, "", 0);
        if (zmq_connect(feed.sock, fep)) {
            fprintf(stderr, "bench/load: cannot connect to %s\n", fep);
            return 2;
        }
        for (int i = 0; qep && i < 100; i++) {
            json_t *h = health(ctx, qep);
            int subs = (int)hint(h, "feed_subscriptions");
            json_decref(h);
            if (subs > 0)
                break;
            nanosleep(&(struct timespec){0, 50000000}, NULL);
        }
        if (!qep)
            nanosleep(&(struct timespec){0, 500000000}, NULL);
        pthread_create(&feed_th, NULL, feed_main, &feed);
    }
    if (bench_connect(ctx, t, tables, ep))
        return 2;
    bench_result r;
    int rc = bench_stream(t, tables, total, &o, &r);
    if (fep) {
        nanosleep(&(struct timespec){0, 200000000}, NULL);   /* what is still on its way */
        atomic_store(&feed.stop, 1);
        pthread_join(feed_th, NULL);
        zmq_close(feed.sock);
    }
    long hwm = -1, rss = -1, anon = -1, file = -1;
    if (pid)
        vm_of(pid, &hwm, &rss, &anon, &file);
    json_t *h1 = qep ? health(ctx, qep) : NULL;

    double secs = bench_seconds(&r), mean = 0;
    for (size_t i = 0; i < r.n_lat; i++)
        mean += (double)r.lat[i];
    mean = r.n_lat ? mean / (double)r.n_lat : 0;
    json_t *out = json_pack("{s:s, s:s, s:i, s:i, s:i, s:f, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I}",
                            "bench", "load", "label", label, "tables", tables, "games", games, "window", o.window,
                            "rate", o.rate, "events", (json_int_t)r.replies, "msg_bytes", (json_int_t)msg_bytes,
                            "seconds", secs, "events_per_s", secs > 0 ? (double)r.replies / secs : 0.0,
                            "ack_p50_us", (double)bench_quantile(r.lat, r.n_lat, 0.50, 1) / 1e3,
                            "ack_p99_us", (double)bench_quantile(r.lat, r.n_lat, 0.99, 1) / 1e3,
                            "ack_max_us", r.n_lat ? (double)r.lat[r.n_lat - 1] / 1e3 : 0.0,
                            "ack_mean_us", mean / 1e3, "ok", (json_int_t)r.ok, "warning", (json_int_t)r.warning,
                            "other", (json_int_t)r.other);
    json_object_set_new(out, "reply_mean_bytes", json_real(r.replies ? (double)r.reply_bytes / (double)r.replies : 0));
    if (h0 && h1) {
        json_int_t ev = hint(h1, "events_stored") - hint(h0, "events_stored");
        json_int_t b = hint(h1, "batches") - hint(h0, "batches");
        json_object_set_new(out, "stored", json_integer(ev));
        json_object_set_new(out, "commits", json_integer(b));
        json_object_set_new(out, "events_per_commit", b ? json_real((double)ev / (double)b) : json_null());
        json_object_set_new(out, "live_matches", json_integer(hint(h1, "live_matches")));
        /* the longest commit since the daemon started (a fresh daemon per run) */
        json_t *cmax = json_object_get(h1, "commit_us_max");
        json_object_set_new(out, "commit_max_us", json_is_integer(cmax) ? json_integer(json_integer_value(cmax)) : json_null());
        /* the daemon's own commit timing, when it reports it */
        json_t *cu0 = json_object_get(h0, "commit_us_total"), *cu1 = json_object_get(h1, "commit_us_total");
        if (json_is_integer(cu0) && json_is_integer(cu1) && b)
            json_object_set_new(out, "commit_mean_us",
                                json_real((double)(json_integer_value(cu1) - json_integer_value(cu0)) / (double)b));
        json_t *ju0 = json_object_get(h0, "judge_us_total"), *ju1 = json_object_get(h1, "judge_us_total");
        if (json_is_integer(ju0) && json_is_integer(ju1) && ev && b) {
            double ju = (double)(json_integer_value(ju1) - json_integer_value(ju0));
            json_object_set_new(out, "judge_us_per_event", json_real(ju / (double)ev));
            /* a batch's wait before its commit: reading, judging, writing */
            json_object_set_new(out, "judge_mean_us", json_real(ju / (double)b));
        }
        /* of that wait, the seals: one signature for each match a batch wrote */
        json_t *su0 = json_object_get(h0, "seal_us_total"), *su1 = json_object_get(h1, "seal_us_total");
        json_t *sn0 = json_object_get(h0, "seals"), *sn1 = json_object_get(h1, "seals");
        if (json_is_integer(su0) && json_is_integer(su1) && json_is_integer(sn0) && json_is_integer(sn1) && b) {
            double su = (double)(json_integer_value(su1) - json_integer_value(su0));
            double sn = (double)(json_integer_value(sn1) - json_integer_value(sn0));
            json_object_set_new(out, "seal_mean_us", json_real(su / (double)b));
            json_object_set_new(out, "seals_per_commit", json_real(sn / (double)b));
        }
    } else {
        json_object_set_new(out, "commits", json_null());
        json_object_set_new(out, "events_per_commit", json_null());
    }
    json_object_set_new(out, "feed_msgs", fep ? json_integer((json_int_t)feed.msgs) : json_null());
    json_object_set_new(out, "vmhwm_kb", hwm >= 0 ? json_integer(hwm) : json_null());
    json_object_set_new(out, "vmrss_kb", rss >= 0 ? json_integer(rss) : json_null());
    json_object_set_new(out, "rss_anon_kb", anon >= 0 ? json_integer(anon) : json_null());
    json_object_set_new(out, "rss_file_kb", file >= 0 ? json_integer(file) : json_null());
    char *line = json_dumps(out, JSON_COMPACT | JSON_REAL_PRECISION(6));
    printf("%s\n", line);
    fprintf(stderr, "load %s: %d tables, %zu events in %.3f s = %.0f events/s; ack p50 %.0f us p99 %.0f us; %s%s\n",
            label, tables, r.replies, secs, secs > 0 ? (double)r.replies / secs : 0,
            (double)bench_quantile(r.lat, r.n_lat, 0.50, 1) / 1e3, (double)bench_quantile(r.lat, r.n_lat, 0.99, 1) / 1e3,
            r.other ? "SOME VERDICTS NOT OK; " : "", rc ? "TIMED OUT" : "");
    free(line);
    json_decref(out);
    json_decref(h0);
    json_decref(h1);
    free(r.lat);
    bench_tables_free(t, tables);
    zmq_ctx_term(ctx);
    for (size_t g = 0; g < c.n; g++) {
        for (size_t i = 0; i < c.games[g].n; i++)
            free(c.games[g].lines[i]);
        free(c.games[g].lines);
    }
    free(c.games);
    free(files);
    return rc ? 3 : r.other ? 1 : 0;
}
