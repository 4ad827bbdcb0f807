/* raw_lmdb.c -- raw LMDB puts/s with one fsync'd commit per batch, the
 * ceiling of arbiterd's durable ingest (issue 5).
 *
 *   bench/raw_lmdb --dir DIR --batch B [--commits C] [--min-events E]
 *                  [--tables T] [--verdict-bytes V] [--label L] FILE.jsonl...
 *
 * What: a fresh LMDB environment in a new folder under DIR (on the file
 * system whose fsync is being measured: put it beside the daemon's store),
 * opened as src/record/store.c opens the store (no MDB_NOSYNC, no MDB_NOMETASYNC:
 * every commit is durable), one named database, and records exactly as
 * large as the store's event records for the corpus's events:
 * 4 + event + 4 + verdict (V bytes, default 33: the mean reply) + 8 +
 * 1 + peer (20) + 32 + 32, keyed "match id, 0x00, seq (8 bytes BE)", the
 * events of T tables interleaved as a busy daemon receives them.  B puts
 * per write transaction, each committed (fsync) before the next begins;
 * at least C commits and E events (the corpus is cycled under new match ids
 * when it runs out).  Nothing else happens: no judging, no summaries, no
 * hash chain.  The folder is removed at the end.
 *
 * Prints one JSON object on stdout:
 *   {"bench":"raw_lmdb","label","batch","tables","events","commits",
 *    "value_mean_bytes","seconds","puts_per_s","commits_per_s",
 *    "commit_p50_us","commit_p99_us","commit_max_us","batch_p50_us",
 *    "batch_p99_us","commit_p999_us"}
 * commit_*: mdb_txn_commit alone (the fsyncs); batch_*: begin, B puts,
 * commit -- an event's best-case wait in a daemon doing only this.
 * Exit 0; 2 bad usage; 3 LMDB failed.
 */
#include <errno.h>
#include <jansson.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/ingest.h"

static const char usage_text[] =
    "usage: bench/raw_lmdb --dir DIR --batch B [--commits C] [--min-events E] [--tables T]\n"
    "                      [--verdict-bytes V] [--label L] FILE.jsonl...\n";

typedef struct {
    char id[OL_MATCH_MAX + 1];
    uint64_t seq;
    size_t len;
    const char *bytes;
} rec;

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *label = "";
    long batch = 0, commits = 200, min_events = 2000;
    int tables = 100;
    size_t verdict_bytes = 33;
    char **files = bench_xmalloc((size_t)argc * sizeof *files);
    int n_files = 0;

    const char *a, *v;
    int ai = 1, ar;
    while ((ar = bench_arg(argc, argv, &ai, files, &n_files, &a, &v)) > 0) {
        if (!strcmp(a, "--dir"))
            dir = v;
        else if (!strcmp(a, "--batch"))
            batch = atol(v);
        else if (!strcmp(a, "--commits"))
            commits = atol(v);
        else if (!strcmp(a, "--min-events"))
            min_events = atol(v);
        else if (!strcmp(a, "--tables"))
            tables = atoi(v);
        else if (!strcmp(a, "--verdict-bytes"))
            verdict_bytes = (size_t)atol(v);
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
    if (!dir || batch < 1 || commits < 1 || tables < 1 || !n_files) {
        fputs(usage_text, stderr);
        return 2;
    }

    /* The records: the corpus dealt to the tables as bench/load deals it,
     * then interleaved (event 0 of every table, event 1 of every table...). */
    bench_corpus c;
    size_t total = 0;
    if (bench_corpus_load(&c, files, n_files))
        return 2;
    bench_table *t = bench_tables_new(&c, tables, 1, "raw", 0, &total);
    if (!t)
        return 2;
    rec *recs = bench_xmalloc(total * sizeof *recs);
    size_t n = 0, longest = 0;
    for (size_t k = 0; n < total; k++)
        for (int i = 0; i < tables; i++)
            if (k < t[i].n) {
                snprintf(recs[n].id, sizeof recs[n].id, "raw-%d-0", i);
                recs[n].seq = k;
                recs[n].len = t[i].ev[k].len;
                recs[n].bytes = t[i].ev[k].bytes;
                if (recs[n].len > longest)
                    longest = recs[n].len;
                n++;
            }

    char path[4096];
    snprintf(path, sizeof path, "%s/raw_lmdb.%ld", dir, (long)getpid());
    if (mkdir(path, 0700) && errno != EEXIST) {
        fprintf(stderr, "bench/raw_lmdb: cannot create %s: %s\n", path, strerror(errno));
        return 2;
    }
    MDB_env *env = NULL;
    MDB_dbi dbi;
    MDB_txn *txn = NULL;
    size_t events = (size_t)batch * (size_t)commits;
    if (events < (size_t)min_events)
        events = ((size_t)min_events + (size_t)batch - 1) / (size_t)batch * (size_t)batch;
    size_t n_commits = events / (size_t)batch;
    /* a map that never fills: records plus B-tree overhead, generously */
    size_t map = (events * (longest + verdict_bytes + 256) * 3) + ((size_t)64 << 20);
    int rc = mdb_env_create(&env);
    if (!rc)
        rc = mdb_env_set_maxdbs(env, 8);
    if (!rc)
        rc = mdb_env_set_mapsize(env, map);
    if (!rc)
        rc = mdb_env_open(env, path, 0, 0600);
    if (!rc && !(rc = mdb_txn_begin(env, NULL, 0, &txn)) && !(rc = mdb_dbi_open(txn, "events", MDB_CREATE, &dbi)))
        rc = mdb_txn_commit(txn);
    if (rc) {
        fprintf(stderr, "bench/raw_lmdb: %s\n", mdb_strerror(rc));
        return 3;
    }

    uint64_t *commit_ns = bench_xmalloc(n_commits * sizeof *commit_ns);
    uint64_t *batch_ns = bench_xmalloc(n_commits * sizeof *batch_ns);
    static const char peer[] = "ipc:///t/12345678ab";   /* 20 bytes, as "local/" + an identity */
    size_t plen = sizeof peer - 1, value_bytes = 0;
    uint8_t key[OL_MATCH_MAX + 32];
    uint64_t start = bench_now_ns();
    size_t done = 0;
    for (size_t b = 0; b < n_commits; b++) {
        uint64_t t0 = bench_now_ns();
        if ((rc = mdb_txn_begin(env, NULL, 0, &txn)))
            break;
        for (long i = 0; i < batch && !rc; i++, done++) {
            const rec *r = &recs[done % n];
            size_t round = done / n;
            /* a later round of the corpus: other match ids */
            int klen = snprintf((char *)key, sizeof key - 9, "%s.%zu", r->id, round);
            key[klen] = 0;
            put_be64(key + klen + 1, r->seq);
            size_t vlen = 4 + r->len + 4 + verdict_bytes + 8 + 1 + plen + 64;
            MDB_val k = {(size_t)klen + 9, key}, val = {vlen, NULL};
            if ((rc = mdb_put(txn, dbi, &k, &val, MDB_RESERVE)))
                break;
            uint8_t *p = val.mv_data;
            memset(p, 0, vlen);
            memcpy(p + 4, r->bytes, r->len);
            memcpy(p + 4 + r->len + 4 + verdict_bytes + 9, peer, plen);
            value_bytes += vlen;
        }
        if (rc) {
            mdb_txn_abort(txn);
            break;
        }
        uint64_t t1 = bench_now_ns();
        if ((rc = mdb_txn_commit(txn)))
            break;
        uint64_t t2 = bench_now_ns();
        commit_ns[b] = t2 - t1;
        batch_ns[b] = t2 - t0;
    }
    uint64_t end = bench_now_ns();
    if (rc) {
        fprintf(stderr, "bench/raw_lmdb: %s\n", mdb_strerror(rc));
        return 3;
    }
    mdb_env_close(env);
    char f[4200];
    snprintf(f, sizeof f, "%s/data.mdb", path);
    unlink(f);
    snprintf(f, sizeof f, "%s/lock.mdb", path);
    unlink(f);
    rmdir(path);

    double secs = (double)(end - start) / 1e9;
    /* sorted once here: json_pack's arguments are evaluated in any order */
    qsort(commit_ns, n_commits, sizeof *commit_ns, bench_cmp_u64);
    qsort(batch_ns, n_commits, sizeof *batch_ns, bench_cmp_u64);
    json_t *out = json_pack(
        "{s:s, s:s, s:I, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "bench", "raw_lmdb", "label",
        label, "batch", (json_int_t)batch, "tables", tables, "events", (json_int_t)done, "commits",
        (json_int_t)n_commits, "value_mean_bytes", done ? (double)value_bytes / (double)done : 0.0, "seconds", secs,
        "puts_per_s", (double)done / secs, "commits_per_s", (double)n_commits / secs, "commit_p50_us",
        (double)bench_quantile(commit_ns, n_commits, 0.5, 1) / 1e3, "commit_p99_us",
        (double)bench_quantile(commit_ns, n_commits, 0.99, 1) / 1e3, "commit_max_us",
        (double)commit_ns[n_commits - 1] / 1e3, "batch_p50_us", (double)bench_quantile(batch_ns, n_commits, 0.5, 1) / 1e3,
        "batch_p99_us", (double)bench_quantile(batch_ns, n_commits, 0.99, 1) / 1e3);
    json_object_set_new(out, "commit_p999_us", json_real((double)bench_quantile(commit_ns, n_commits, 0.999, 1) / 1e3));
    char *line = json_dumps(out, JSON_COMPACT | JSON_REAL_PRECISION(6));
    printf("%s\n", line);
    fprintf(stderr, "raw_lmdb %s: batch %ld, %zu puts in %zu commits, %.3f s = %.0f puts/s, commit p50 %.0f us p99 %.0f us\n",
            label, batch, done, n_commits, secs, (double)done / secs,
            (double)bench_quantile(commit_ns, n_commits, 0.5, 1) / 1e3,
            (double)bench_quantile(commit_ns, n_commits, 0.99, 1) / 1e3);
    free(line);
    json_decref(out);
    free(commit_ns);
    free(batch_ns);
    free(recs);
    bench_tables_free(t, tables);
    for (size_t g = 0; g < c.n; g++) {
        for (size_t i = 0; i < c.games[g].n; i++)
            free(c.games[g].lines[i]);
        free(c.games[g].lines);
    }
    free(c.games);
    free(files);
    return 0;
}
