/* test_daemon_parts.c -- the daemon's parts that stand alone: key files and
 * the keyring (keys.h), record links and seals (seal.h), the table of live
 * matches (live.h), the quarantine's bounds (quarantine.h) and the bytes of
 * an answer written without a tree (ingest.h).  The daemon
 * as a whole is tested from outside (tests/e2e_*.sh). */
#include <criterion/criterion.h>
#include <errno.h>
#include <glob.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/core/carddb.h"
#include "src/core/keys.h"
#include "src/core/view.h"
#include "src/daemon/broadcast.h"
#include "src/daemon/ingest.h"
#include "src/daemon/live.h"
#include "src/daemon/query.h"
#include "src/daemon/standings.h"
#include "src/record/quarantine.h"
#include "src/record/seal.h"
#include "src/record/record.h"
#include "src/record/store.h"
#include "src/tournament/tournament.h"
#include "tests/testutil.h"

static char dir[64];

static void setup(void)
{
    cr_assert(sodium_init() >= 0);
    snprintf(dir, sizeof dir, "/tmp/arbiter-parts-XXXXXX");
    cr_assert(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert(system(cmd) == 0);
}

TestSuite(parts, .init = setup, .fini = teardown);

static const char *write_file(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* ---- keys ---------------------------------------------------------------- */

Test(parts, keys_written_and_read_back)
{
    keys_pair k, back, pub;
    char err[256], prefix[128], path[160];
    cr_assert_eq(keys_generate("table-07", &k), 0);
    snprintf(prefix, sizeof prefix, "%s/table-07", dir);
    cr_assert_eq(keys_write(&k, prefix, err, sizeof err), 0, "%s", err);
    snprintf(path, sizeof path, "%s.key", prefix);
    cr_assert_eq(keys_read(path, &back, err, sizeof err), 0, "%s", err);
    cr_assert(back.has_secret);
    cr_assert_str_eq(back.name, "table-07");
    cr_assert_eq(memcmp(&back.curve_secret, &k.curve_secret, 32), 0);
    cr_assert_eq(memcmp(&back.sign_secret, &k.sign_secret, 64), 0);
    snprintf(path, sizeof path, "%s.pub", prefix);
    cr_assert_eq(keys_read(path, &pub, err, sizeof err), 0, "%s", err);
    cr_assert_not(pub.has_secret);
    cr_assert_eq(memcmp(pub.curve_public, k.curve_public, 32), 0);
    /* never over an existing key */
    cr_assert_neq(keys_write(&k, prefix, err, sizeof err), 0);
    cr_assert(strstr(err, "cannot create"), "%s", err);
}

Test(parts, keys_a_secret_pasted_from_another_file_is_refused)
{
    keys_pair a, b, back;
    char err[256], prefix[128], path[160], text[2048];
    cr_assert_eq(keys_generate("a", &a), 0);
    cr_assert_eq(keys_generate("b", &b), 0);
    char ap[41], bs[41];
    keys_z85(a.curve_public, ap);
    keys_z85(b.curve_secret, bs);
    snprintf(text, sizeof text, "name = a\ncurve-public = %s\ncurve-secret = %s\nsign-public = %064d\nsign-secret = %0128d\n",
             ap, bs, 0, 0);
    snprintf(prefix, sizeof prefix, "mixed.key");
    snprintf(path, sizeof path, "%s", write_file(prefix, text));
    cr_assert_neq(keys_read(path, &back, err, sizeof err), 0);
    cr_assert(strstr(err, "does not match its public key"), "%s", err);
}

/* What a client may give --key (arbiter-keyring(5)): every form ZeroMQ makes a pair
 * in is read to the same pair; the rest is refused with a sentence. */
Test(parts, keys_a_client_pair_in_every_form_zeromq_makes)
{
    char pub[41], sec[41], other_pub[41], other_sec[41], text[2048], err[256];
    uint8_t p[32], s[32], want_p[32], want_s[32];
    int has;
    cr_assert_eq(zmq_curve_keypair(pub, sec), 0);
    cr_assert_eq(zmq_curve_keypair(other_pub, other_sec), 0);
    keys_from_z85(pub, want_p);
    keys_from_z85(sec, want_s);
    struct {
        const char *what, *fmt;
        int secret;
    } good[] = {
        {"curve_keygen's output",
         "This tool generates a CurveZMQ keypair, as two printable strings you can\n"
         "use in configuration files or source code. The encoding uses Z85, which\n\n"
         "== CURVE PUBLIC KEY ==\n%s\n\n== CURVE SECRET KEY ==\n%s\n", 1},
        {"the two keys alone", "%s\n%s\n", 1},
        {"an arbiter key file without signing keys", "name = t1\ncurve-public = %s\ncurve-secret = %s\n", 1},
        {"a ZeroMQ certificate", "#   ZeroMQ CURVE **Secret** Certificate\n\nmetadata\ncurve\n"
                                 "    public-key = \"%s\"\n    secret-key = \"%s\"\n", 1},
        {"a public key alone", "%s\n", 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(text, sizeof text, good[i].fmt, pub, sec);
        memset(p, 0, 32);
        memset(s, 0, 32);
        cr_assert_eq(keys_read_curve(write_file("k", text), p, s, &has, err, sizeof err), 0, "%s: %s",
                     good[i].what, err);
        cr_assert_eq(has, good[i].secret, "%s", good[i].what);
        cr_assert_eq(memcmp(p, want_p, 32), 0, "%s", good[i].what);
        cr_assert(!has || !memcmp(s, want_s, 32), "%s", good[i].what);
    }
    /* the keys alone in the other order, and a secret key alone */
    snprintf(text, sizeof text, "%s\n%s\n", sec, pub);
    cr_assert_eq(keys_read_curve(write_file("k", text), p, s, &has, err, sizeof err), 0, "%s", err);
    cr_assert(has && !memcmp(p, want_p, 32) && !memcmp(s, want_s, 32));
    snprintf(text, sizeof text, "== CURVE SECRET KEY ==\n%s\n", sec);
    cr_assert_eq(keys_read_curve(write_file("k", text), p, s, &has, err, sizeof err), 0, "%s", err);
    cr_assert(has && !memcmp(p, want_p, 32));
    struct {
        const char *text, *said;
    } bad[] = {
        {"just some text\n", "holds no CURVE key"},
        {"curve-public = not-a-key\n", "line 1"},
        {"%s\n%s\n", "not a CURVE key pair"},                 /* two publics of two pairs */
        {"public-key = \"%s\"\nsecret-key = \"%s\"\n", "does not match"},
        {"%s\n%s\n%s\n", "more CURVE keys"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, bad[i].text, pub, i == 3 ? other_sec : other_pub, sec);
        cr_assert_neq(keys_read_curve(write_file("k", text), p, s, &has, err, sizeof err), 0, "bad %zu", i);
        cr_assert(strstr(err, bad[i].said), "bad %zu: %s", i, err);
    }
    cr_assert_neq(keys_read_curve("/nonexistent/k", p, s, &has, err, sizeof err), 0);
}

Test(parts, keyring_names_the_line_at_fault)
{
    keys_pair k;
    char z[41], text[512], err[256];
    keyring *r = NULL;
    cr_assert_eq(keys_generate("t", &k), 0);
    keys_z85(k.curve_public, z);
    struct {
        const char *fmt, *why;
    } bad[] = {
        {"# ring\nwizard t %s\n", "line 2: an unknown role"},
        {"table t %s extra\n", "line 1: more than three fields"},
        {"table t\n", "line 1: not three fields"},
        {"table bad/name %s\n", "line 1: a name that is not"},
        {"table t %.39s\n", "line 1: a key that is not 40 Z85"},
        {"table t %s\njudge t %s\n", "line 2: the name t is listed twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, bad[i].fmt, z, z);
        cr_assert_neq(keyring_load(write_file("ring", text), &r, err, sizeof err), 0, "case %zu", i);
        cr_assert_null(r);
        cr_assert(strstr(err, bad[i].why), "case %zu: %s", i, err);
    }
    cr_assert_neq(keyring_load("/nonexistent/ring", &r, err, sizeof err), 0);
    cr_assert(strstr(err, "cannot read the keyring"), "%s", err);

    /* Found in review: a line padded with spaces past the 510 bytes a line
     * may have, then a second entry on it, was read as two lines (the cut
     * fell on a space that trimming then hid). */
    keys_pair k2;
    char z2[41], longline[1200];
    cr_assert_eq(keys_generate("u", &k2), 0);
    keys_z85(k2.curve_public, z2);
    int n = snprintf(longline, sizeof longline, "table t %s", z);
    memset(longline + n, ' ', 510 - (size_t)n);
    snprintf(longline + 510, sizeof longline - 510, " judge u %s\n", z2);
    cr_assert_neq(keyring_load(write_file("ring", longline), &r, err, sizeof err), 0, "a long line is refused");
    cr_assert_null(r);
    cr_assert(strstr(err, "line 1: a line longer than"), "%s", err);
}

Test(parts, keyring_finds_each_key_and_its_role)
{
    keys_pair k[3];
    char z[3][41], text[512], err[256];
    keyring *r = NULL;
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "k%d", i);
        cr_assert_eq(keys_generate(name, &k[i]), 0);
        keys_z85(k[i].curve_public, z[i]);
    }
    snprintf(text, sizeof text, "table  k0 %s\n\n# a judge\n\tjudge k1\t%s\n", z[0], z[1]);
    cr_assert_eq(keyring_load(write_file("ring", text), &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(keyring_size(r), 2);
    const keys_entry *e = keyring_find(r, k[1].curve_public);
    cr_assert(e && e->role == KEYS_JUDGE && !strcmp(e->name, "k1"));
    cr_assert(keyring_find_z85(r, z[0]) && keyring_find_z85(r, z[0])->role == KEYS_TABLE);
    cr_assert_null(keyring_find(r, k[2].curve_public));
    cr_assert_null(keyring_find_z85(r, "not a key"));
    keyring_destroy(&r);
    cr_assert_null(r);
}

/* ---- seals ------------------------------------------------------------------- */

static store_event event_of(uint64_t seq, const char *bytes, const char *peer)
{
    store_event e;
    memset(&e, 0, sizeof e);
    e.seq = seq;
    e.event = (const uint8_t *)bytes;
    e.event_len = strlen(bytes);
    e.verdict = (const uint8_t *)"ok";
    e.verdict_len = 2;
    e.received_ms = 1700000000000ull + seq;
    snprintf(e.peer, sizeof e.peer, "%s", peer);
    return e;
}

/* A record of three events with its links, walked, and its seal. */
static void make_record(store_event ev[3], seal_walk *w, seal *s, const keys_pair *k)
{
    uint8_t h[32] = {0}, l[32] = {0};
    static const char *const bytes[3] = {"e0", "e1", "e2"};
    seal_walk_init(w);
    for (int i = 0; i < 3; i++) {
        ev[i] = event_of((uint64_t)i, bytes[i], "t@local/00");
        seal_chain_next(h, ev[i].event, ev[i].event_len, ev[i].verdict, ev[i].verdict_len, ev[i].chain);
        seal_link_next(l, &ev[i], ev[i].link);
        ev[i].has_link = 1;
        memcpy(h, ev[i].chain, 32);
        memcpy(l, ev[i].link, 32);
        seal_walk_event(w, &ev[i]);
    }
    memset(s, 0, sizeof *s);
    s->events = 3;
    memcpy(s->chain, h, 32);
    memcpy(s->link, l, 32);
    seal_summary_hash("{}", 2, s->summary);
    seal_sign(s, "m-1", k->sign_public, k->sign_secret);
}

Test(parts, seal_covers_events_heads_summary_and_signer)
{
    keys_pair k, other;
    store_event ev[3];
    seal_walk w;
    seal s, back;
    uint8_t bytes[SEAL_BYTES];
    cr_assert_eq(keys_generate("d", &k), 0);
    cr_assert_eq(keys_generate("o", &other), 0);
    make_record(ev, &w, &s, &k);
    cr_assert(w.chain_broken < 0 && w.link_broken < 0 && w.hole < 0 && !w.legacy);
    seal_encode(&s, bytes);
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-1", &w, "{}", 2, k.sign_public, &back), 0);
    cr_assert_eq(seal_check(NULL, 0, "m-1", &w, "{}", 2, NULL, &back), SEAL_MISSING);
    cr_assert_eq(seal_check(bytes, 10, "m-1", &w, "{}", 2, NULL, &back), SEAL_UNREADABLE);
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-1", &w, "{\"x\":1}", 7, NULL, &back), SEAL_SUMMARY);
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-1", &w, "{}", 2, other.sign_public, &back), SEAL_SIGNER);
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-2", &w, "{}", 2, NULL, &back), SEAL_SIGNATURE);
    bytes[20] ^= 1;   /* inside the chain head */
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-1", &w, "{}", 2, NULL, &back), SEAL_SIGNATURE | SEAL_HEADS);
    /* one event fewer: another count and other heads */
    seal_walk w2;
    seal_walk_init(&w2);
    seal_walk_event(&w2, &ev[0]);
    seal_walk_event(&w2, &ev[1]);
    seal_encode(&s, bytes);
    cr_assert_eq(seal_check(bytes, sizeof bytes, "m-1", &w2, "{}", 2, NULL, &back), SEAL_EVENTS | SEAL_HEADS);
}

Test(parts, seal_walk_finds_the_altered_event_and_part)
{
    keys_pair k;
    store_event ev[3];
    seal_walk w;
    seal s;
    cr_assert_eq(keys_generate("d", &k), 0);
    make_record(ev, &w, &s, &k);
    ev[1].received_ms++;   /* the receive time of #1 */
    seal_walk_init(&w);
    for (int i = 0; i < 3; i++)
        seal_walk_event(&w, &ev[i]);
    cr_assert_eq(w.link_broken, 1);
    cr_assert_eq(w.chain_broken, -1);
    ev[1].received_ms--;
    ev[2].event = (const uint8_t *)"E2";   /* the bytes of #2 */
    seal_walk_init(&w);
    for (int i = 0; i < 3; i++)
        seal_walk_event(&w, &ev[i]);
    cr_assert_eq(w.chain_broken, 2);
    cr_assert_eq(w.link_broken, -1);   /* k(2) covers the stored h(2) */
    seal_walk_init(&w);
    seal_walk_event(&w, &ev[0]);
    seal_walk_event(&w, &ev[2]);
    cr_assert_eq(w.hole, 1);
}

Test(parts, seal_head_is_five_groups_and_matches_a_prefix)
{
    keys_pair k;
    store_event ev[3];
    seal_walk w;
    seal s;
    char head[SEAL_HEAD_TEXT], upper[SEAL_HEAD_TEXT];
    cr_assert_eq(keys_generate("d", &k), 0);
    make_record(ev, &w, &s, &k);
    seal_head(&s, "m-1", head);
    cr_assert_eq(strlen(head), 24);
    cr_assert(head[4] == '-' && head[9] == '-' && head[14] == '-' && head[19] == '-');
    cr_assert(seal_head_matches(&s, "m-1", head));
    for (int i = 0; head[i]; i++)
        upper[i] = (char)(head[i] >= 'a' && head[i] <= 'f' ? head[i] - 'a' + 'A' : head[i]);
    upper[24] = 0;
    cr_assert(seal_head_matches(&s, "m-1", upper));
    cr_assert(seal_head_matches(&s, "m-1", (char[]){head[0], head[1], head[2], head[3], ' ', head[5], head[6], head[7], head[8], 0}));
    cr_assert_not(seal_head_matches(&s, "m-1", "12"));   /* too short to mean anything */
    cr_assert_not(seal_head_matches(&s, "m-2", head));
}

/* ---- the live table ------------------------------------------------------------ */

static verify_session *session(void)
{
    /* a session needs a card database only to judge: the fixture one */
    static cards *db;
    verify_session *s = NULL;
    char err[1024];
    if (!db)
        cr_assert_eq(carddb_load_file(carddb_default_path(), &db, err, sizeof err), 0, "%s", err);
    cr_assert_eq(verify_session_new(db, "x", &s), VERIFY_OK);
    return s;
}

/* The hook of live.h: a tally of each holder's matches. */
typedef struct {
    char who[4][16];
    int n[4];
} tally;

static void tally_hook(void *ctx, const char *holder, int delta)
{
    tally *t = ctx;
    for (int i = 0; i < 4; i++)
        if (!strcmp(t->who[i], holder) || !t->who[i][0]) {
            snprintf(t->who[i], sizeof t->who[i], "%s", holder);
            t->n[i] += delta;
            return;
        }
    cr_assert_fail("more than 4 holders");
}

Test(parts, live_holders_are_counted_and_released)
{
    live_table *t = NULL;
    tally c;
    memset(&c, 0, sizeof c);
    cr_assert_eq(live_table_new(100, &t), 0);
    live_table_hook(t, tally_hook, &c);
    for (int i = 0; i < 6; i++) {
        char id[16];
        snprintf(id, sizeof id, "m-%d", i);
        live *l = live_slot(t, id);
        live_attach(t, l, session());
        live_hold(t, l, i < 4 ? "a" : "b");
        live_hold(t, l, "c");   /* a match keeps the holder that brought it in */
    }
    cr_assert_str_eq(c.who[0], "a");
    cr_assert_eq(c.n[0], 4);
    cr_assert_eq(c.n[1], 2);
    live_clear(t, live_find(t, "m-0"));   /* finished, or evicted */
    cr_assert_eq(c.n[0], 3);
    cr_assert_eq(live_release(t, "a"), 3);
    cr_assert_eq(c.n[0], 0);
    cr_assert_eq(live_count(t), 2);
    cr_assert_null(live_find(t, "m-1"));
    cr_assert(live_find(t, "m-5"));
    live_table_destroy(&t);
}

Test(parts, live_table_counts_evicts_and_does_not_grow_on_churn)
{
    live_table *t = NULL;
    char id[32];
    cr_assert_eq(live_table_new(4, &t), 0);
    for (int round = 0; round < 20000; round++) {
        snprintf(id, sizeof id, "m-%d", round);
        live *l = live_slot(t, id);
        cr_assert(l);
        live_attach(t, l, session());
        l->used_ms = (uint64_t)round;
        if (live_count(t) > live_max(t)) {
            live *old = live_lru(t, UINT64_MAX);
            cr_assert(old);
            cr_assert_str_eq(old->id, (snprintf(id, sizeof id, "m-%d", round - 4), id));
            live_clear(t, old);
        }
        cr_assert(live_count(t) <= 4);
    }
    /* 20,000 matches came and went: tombstones were dropped, not kept */
    cr_assert_null(live_find(t, "m-0"));
    cr_assert(live_find(t, "m-19999"));
    cr_assert_eq(live_damage(t, "m-19999"), 0);
    cr_assert_eq(live_count(t), 3);
    cr_assert_eq(live_damaged(t), 1);
    cr_assert(live_find(t, "m-19999")->damaged);
    live_table_destroy(&t);
    cr_assert_null(t);
}

/* ---- the quarantine ---------------------------------------------------------------- */

static int put(quarantine *q, store *st, const char *source, int n)
{
    MDB_txn *txn;
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    for (int i = 0; i < n; i++)
        cr_assert_eq(quarantine_put(q, txn, source, "peer", "malformed", "\xdd\xff", 2), 0);
    quarantine_commit(q);
    return mdb_txn_commit(txn);
}

Test(parts, quarantine_keeps_a_source_bounded_then_samples)
{
    store *st = NULL;
    quarantine *q = NULL;
    MDB_txn *txn;
    char err[256];
    size_t n = 0;
    cr_assert_eq(store_open(dir, 0, 0, &st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn), 0);
    cr_assert_eq(quarantine_new(st, txn, 100000, &q), 0);
    mdb_txn_abort(txn);
    cr_assert_eq(put(q, st, "flooder", QUARANTINE_PER_SOURCE + 2 * QUARANTINE_SAMPLE), 0);
    cr_assert_eq(quarantine_kept(q), QUARANTINE_PER_SOURCE + 2);
    cr_assert_eq(quarantine_dropped(q), 2 * QUARANTINE_SAMPLE - 2);
    cr_assert_eq(put(q, st, "table-07", 3), 0);   /* another source is not held back */
    cr_assert_eq(quarantine_kept(q), QUARANTINE_PER_SOURCE + 5);
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn), 0);
    cr_assert_eq(store_count_quarantine(st, txn, &n), 0);
    mdb_txn_abort(txn);
    cr_assert_eq(n, QUARANTINE_PER_SOURCE + 5);
    quarantine_destroy(&q);
    store_close(&st);
}

Test(parts, quarantine_total_limit_and_an_aborted_batch)
{
    store *st = NULL;
    quarantine *q = NULL;
    MDB_txn *txn;
    char err[256];
    cr_assert_eq(store_open(dir, 0, 0, &st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn), 0);
    cr_assert_eq(quarantine_new(st, txn, 5, &q), 0);
    mdb_txn_abort(txn);
    /* an aborted batch leaves nothing behind, not even in the counts */
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    cr_assert_eq(quarantine_put(q, txn, "a", "p", "r", "x", 1), 0);
    mdb_txn_abort(txn);
    quarantine_abort(q);
    cr_assert_eq(quarantine_kept(q), 0);
    cr_assert_eq(put(q, st, "a", 3), 0);
    cr_assert_eq(put(q, st, "b", 4), 0);
    cr_assert_eq(quarantine_kept(q), 5);
    cr_assert_eq(quarantine_dropped(q), 2);
    quarantine_destroy(&q);
    store_close(&st);
}

/* ingest_answer_bytes writes what the tree path writes, byte for byte, in
 * both encodings: the reply a table gets must not depend on the path. */
Test(parts, answer_bytes_are_the_tree_path_bytes)
{
    olverdict vs[6];
    olverdict_malformed(&vs[0], "", 0, 0, NULL, "byte 0: an event must be a map, not an integer.");
    olverdict_malformed(&vs[1], "m-1", 1, 300, "players.p1", "line 1, column 9: \"quoted\", a tab\t, a\\b, caf\xc3\xa9 \xe2\x82\xac.");
    olverdict_malformed(&vs[2], "m-2", 0, 0, "seq", "");
    olverdict_set(&vs[3], "m-3", 9223372036854775807ull, OL_V_ILLEGAL, "openlog:owner",
                  "Match m-3 belongs to table-a; an event from table-b is refused and is not part of it.");
    olverdict_set(&vs[4], "m-4", 0, OL_V_ILLEGAL, "openlog:limits", "ctl \x01\x1f\x7f end");
    olverdict_set(&vs[5], "m-5", 7, OL_V_MALFORMED, "", NULL);
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        json_t *j = olverdict_to_json(&vs[i], NULL);
        char *want_json = json_dumps(j, JSON_COMPACT), *want_mp = NULL, *got = NULL;
        size_t mplen = 0, glen = 0;
        cr_assert_eq(olcodec_json_to_msgpack(j, &want_mp, &mplen), 0);
        cr_assert_eq(ingest_answer_bytes(&vs[i], 1, &got, &glen), 0, "verdict %zu", i);
        cr_assert(glen == strlen(want_json) && !memcmp(got, want_json, glen), "verdict %zu JSON: %s, not %s", i, got,
                  want_json);
        free(got);
        cr_assert_eq(ingest_answer_bytes(&vs[i], 0, &got, &glen), 0, "verdict %zu", i);
        cr_assert(glen == mplen && !memcmp(got, want_mp, glen), "verdict %zu MessagePack differs", i);
        free(got);
        free(want_json);
        free(want_mp);
        json_decref(j);
    }
    olverdict gap;
    olverdict_set(&gap, "m", 9, OL_V_GAP, "openlog:seq", "x");
    gap.has_expect = 1;
    char *none = NULL;
    size_t n = 0;
    cr_assert_eq(ingest_answer_bytes(&gap, 1, &none, &n), -EINVAL, "a verdict with expect is not an answer");
}

/* A list filter that matches nothing reads at most QUERY_LIST_SCAN
 * summaries a request (found in review: it read the whole store in one
 * turn of the loop); the pages, short or empty, go on with `next` and end
 * with null, having seen every match once. */
Test(parts, list_reads_a_bounded_number_of_summaries_a_request)
{
    store *st = NULL;
    MDB_txn *txn = NULL;
    char err[256], id[32], json[96];
    const int total = 2 * QUERY_LIST_SCAN + 500;
    cr_assert_eq(store_open(dir, 0, 0, &st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    for (int i = 0; i < total; i++) {
        snprintf(id, sizeof id, "m-%06d", i);
        int n = snprintf(json, sizeof json, "{\"match\":\"%s\",\"status\":\"%s\"}", id, i == total - 7 ? "illegal" : "legal");
        cr_assert_eq(store_put_summary(st, txn, id, json, (size_t)n), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);

    static daemon_ctx d;
    d.st = st;
    const gate_peer judge = {.role = KEYS_JUDGE, .anonymous = 1, .fd = -1};
    char after[64] = "";
    int requests = 0, found = 0;
    for (;;) {
        json_t *req = after[0] ? json_pack("{s:s, s:s, s:s}", "op", "list", "status", "illegal", "after", after)
                               : json_pack("{s:s, s:s}", "op", "list", "status", "illegal");
        json_t *rep = query_answer(&d, req, &judge);
        requests++;
        cr_assert(json_is_true(json_object_get(rep, "ok")));
        found += (int)json_array_size(json_object_get(rep, "matches"));
        json_t *next = json_object_get(rep, "next");
        if (!json_is_string(next)) {
            json_decref(req);
            json_decref(rep);
            break;
        }
        snprintf(after, sizeof after, "%s", json_string_value(next));
        json_decref(req);
        json_decref(rep);
        cr_assert(requests < 10, "the pages do not end");
    }
    cr_assert_eq(found, 1, "the one illegal match is found once");
    cr_assert_eq(requests, 3, "%d summaries in pages of at most %d read: %d requests", total, QUERY_LIST_SCAN, requests);
    store_close(&st);
}

/* The op `standings`: a tournament the daemon was given, by id, to any
 * role (standings hide no card); an unknown id and a request without one
 * are refused with a sentence; more than STANDINGS_RECORDS records of
 * the tournament are refused before any is judged.  The records here have
 * no events: each is judged unreadable and places nobody, and the
 * standings are the file's, provisional. */
static json_t *ask_standings(daemon_ctx *d, const char *tour, const gate_peer *who)
{
    json_t *req = tour ? json_pack("{s:s, s:s}", "op", "standings", "tournament", tour)
                       : json_pack("{s:s}", "op", "standings");
    json_t *rep = query_answer(d, req, who);
    json_decref(req);
    return rep;
}

static const char cup_file[] =
    "{\"version\": 1, \"id\": \"cup\", \"name\": \"Cup\", \"format\": \"advanced\", \"cards\": \"core@1.1.0\","
    " \"seed\": \"s-1\", \"structure\": {\"swiss_rounds\": 3, \"cut\": 0},"
    " \"players\": [{\"id\": \"ann\", \"name\": \"Ann\"}, {\"id\": \"ben\", \"name\": \"Ben\"}],"
    " \"rounds\": [{\"round\": 1, \"closed\": true, \"pairings\": [{\"table\": \"1\", \"p1\": \"ann\", \"p2\": \"ben\"}]}]}";

Test(parts, standings_answers_a_known_tournament_to_any_role_within_its_bound)
{
    static daemon_ctx d;
    store *st = NULL;
    MDB_txn *txn = NULL;
    tournament *t = NULL;
    char err[512], id[32], json[96];
    const gate_peer table = {.name = "t1", .z85 = "key", .role = KEYS_TABLE, .fd = -1};
    json_t *rep;

    cr_assert_eq(tournament_load(cup_file, strlen(cup_file), &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(store_open(dir, 0, 0, &st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    for (int i = 0; i < 2; i++) {
        snprintf(id, sizeof id, "m-%06d", i);
        int n = snprintf(json, sizeof json, "{\"match\":\"%s\",\"tournament\":\"cup\"}", id);
        cr_assert_eq(store_put_summary(st, txn, id, json, (size_t)n), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);
    d.st = st;
    d.tournaments[0] = t;
    d.n_tournaments = 1;

    rep = ask_standings(&d, "cup", &table);
    cr_assert(json_is_true(json_object_get(rep, "ok")), "%s", json_string_value(json_object_get(rep, "error")));
    cr_assert_eq(json_integer_value(json_object_get(rep, "records")), 2);
    cr_assert_eq(json_integer_value(json_object_get(rep, "after")), 1);
    cr_assert(json_is_true(json_object_get(rep, "provisional")), "the round's result is pending");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(rep, "standings"), "tournament")), "cup");
    cr_assert_eq(json_array_size(json_object_get(json_object_get(rep, "standings"), "standings")), 2);
    json_decref(rep);

    rep = ask_standings(&d, "other", &table);
    cr_assert(json_is_false(json_object_get(rep, "ok")));
    cr_assert(strstr(json_string_value(json_object_get(rep, "error")), "\"other\""));
    json_decref(rep);
    rep = ask_standings(&d, NULL, &table);
    cr_assert(json_is_false(json_object_get(rep, "ok")));
    cr_assert(strstr(json_string_value(json_object_get(rep, "error")), "needs \"tournament\""));
    json_decref(rep);

    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    for (int i = 2; i <= STANDINGS_RECORDS; i++) {
        snprintf(id, sizeof id, "m-%06d", i);
        int n = snprintf(json, sizeof json, "{\"match\":\"%s\",\"tournament\":\"cup\"}", id);
        cr_assert_eq(store_put_summary(st, txn, id, json, (size_t)n), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);
    rep = ask_standings(&d, "cup", &table);
    cr_assert(json_is_false(json_object_get(rep, "ok")), "one record past the bound is refused");
    cr_assert(strstr(json_string_value(json_object_get(rep, "error")), "at most"));
    json_decref(rep);
    tournament_destroy(&d.tournaments[0]);
    store_close(&st);
}

/* The standings worker (standings.h): a request waits (0), its answer
 * comes through the query socket once the worker is done; the store's map
 * grows in the middle of the computation (standings_pause: the worker ends
 * its read transaction and starts over, `restarted`); the same request
 * again, nothing written since, is answered at once from the cache; a
 * SIGHUP's retired tournament is kept until the worker is done. */
Test(parts, standings_worker_answers_through_the_socket_survives_a_map_growth_and_caches)
{
    static daemon_ctx d;
    MDB_txn *txn = NULL;
    tournament *t = NULL, *again = NULL;
    char err[512], id[32], json[96], buf[65536];
    void *zctx = zmq_ctx_new(), *router, *client;
    reply_route to = {.ident = "c1", .ident_len = 2, .delimiter = 0, .as_json = 1};
    json_t *now = NULL, *rep, *h;
    int zero = 0;

    cr_assert_eq(tournament_load(cup_file, strlen(cup_file), &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tournament_load(cup_file, strlen(cup_file), &again, err, sizeof err), 0, "%s", err);
    cr_assert_eq(store_open(dir, 0, 0, &d.st, err, sizeof err), 0, "%s", err);
    cr_assert_eq(mdb_txn_begin(store_env(d.st), NULL, 0, &txn), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(id, sizeof id, "m-%06d", i);
        int n = snprintf(json, sizeof json, "{\"match\":\"%s\",\"tournament\":\"cup\"}", id);
        cr_assert_eq(store_put_summary(d.st, txn, id, json, (size_t)n), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);
    d.tournaments[0] = t;
    d.n_tournaments = 1;
    router = zmq_socket(zctx, ZMQ_ROUTER);
    client = zmq_socket(zctx, ZMQ_DEALER);
    cr_assert(router && client);
    zmq_setsockopt(router, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(client, ZMQ_LINGER, &zero, sizeof zero);
    cr_assert_eq(zmq_setsockopt(client, ZMQ_ROUTING_ID, "c1", 2), 0);
    cr_assert_eq(zmq_bind(router, "inproc://parts-query"), 0);
    cr_assert_eq(zmq_connect(client, "inproc://parts-query"), 0);
    cr_assert_eq(standings_new(zctx, d.st, 100, &d.stand), 0);   /* 100 ms a record: 400 ms in all */

    cr_assert_eq(standings_request(d.stand, d.tour_gen, t, 1, 0, &to, &now), 0, "the first request waits");
    cr_assert_null(now);
    nanosleep(&(struct timespec){0, 250 * 1000000L}, NULL);   /* the worker is in its transaction */
    standings_retire(d.stand, &d.tournaments[0]);   /* a SIGHUP loads the file again */
    cr_assert_null(d.tournaments[0]);
    d.tournaments[0] = again;
    standings_pause(d.stand);                  /* what ingest.c does around store_grow */
    cr_assert_eq(store_grow(d.st), 0);
    standings_resume(d.stand);
    zmq_pollitem_t it = {standings_socket(d.stand), 0, ZMQ_POLLIN, 0};
    cr_assert_eq(zmq_poll(&it, 1, 20000), 1, "the worker is done");
    standings_shelf shelf = {d.tournaments, d.n_tournaments, d.tour_gen, &d.stats.query_replies_dropped};
    standings_serve(d.stand, &shelf, router);
    int n = zmq_recv(client, buf, sizeof buf - 1, 0);
    cr_assert_gt(n, 0);
    rep = json_loadb(buf, (size_t)n, 0, NULL);
    cr_assert(json_is_true(json_object_get(rep, "ok")), "%.*s", n, buf);
    cr_assert(json_is_false(json_object_get(rep, "cached")));
    cr_assert_eq(json_integer_value(json_object_get(rep, "records")), 4);
    json_decref(rep);
    h = standings_health(d.stand);
    cr_assert_eq(json_integer_value(json_object_get(h, "restarted")), 1, "the map grew: the worker started over");
    cr_assert_eq(json_integer_value(json_object_get(h, "computed")), 1);
    json_decref(h);

    /* the reload bumped nothing here (arbiterd.c does): the cached answer stands */
    cr_assert_eq(standings_request(d.stand, d.tour_gen, again, 1, 0, &to, &now), 1, "answered at once");
    cr_assert(json_is_true(json_object_get(now, "cached")));
    json_decref(now);
    d.tour_gen++;   /* what load_tournaments does: no cached answer of before */
    cr_assert_eq(standings_request(d.stand, d.tour_gen, again, 1, 0, &to, &now), 0, "computed again");
    standings_destroy(&d.stand);               /* stops it at its next record, joins */
    cr_assert_null(d.stand);
    zmq_close(client);
    zmq_close(router);
    zmq_ctx_term(zctx);
    tournament_destroy(&d.tournaments[0]);
    store_close(&d.st);
}

/* The public view of a Master `mana` event hides the card placed
 * face-down, keeps its class; its owner and the judge see the card; a
 * commitment is public in every view (SPEC.md 7.4, openlog.md 6). */
Test(parts, view_of_a_mana_event_hides_the_face_down_card)
{
    static const struct {
        const char *card;
        view_kind view;
        const char *want;
    } cases[] = {
        {"\"cor-backdraft\"", VIEW_PUBLIC, "\"card\":null"},
        {"\"cor-backdraft\"", VIEW_P2, "\"card\":null"},
        {"\"cor-backdraft\"", VIEW_P1, "\"card\":\"cor-backdraft\""},
        {"\"cor-backdraft\"", VIEW_JUDGE, "\"card\":\"cor-backdraft\""},
        {"{\"c\":\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}", VIEW_PUBLIC,
         "\"card\":{\"c\":\"00112233"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"match\":\"m\",\"seq\":3,\"type\":\"mana\",\"by\":\"p1\",\"card\":%s,"
                 "\"class\":\"coreon\"}", cases[i].card);
        olevent *ev = NULL;
        olerror err;
        cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
        json_t *j = view_event_json(ev, cases[i].view, NULL);
        char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        cr_assert(strstr(s, cases[i].want), "case %zu: %s", i, s);
        cr_assert(strstr(s, "\"class\":\"coreon\""), "%s", s);
        free(s);
        json_decref(j);
        olevent_destroy(&ev);
    }
}

/* Drawing an event in a view leaves the event whole: an event decoded from
 * JSON hands out its own tree, and the judge's view (and the audit, the
 * redaction of sentences) read it after the public one was drawn. */
Test(parts, view_of_an_event_leaves_the_event_whole)
{
    static const char text[] = "{\"match\":\"m\",\"seq\":2,\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\"],"
                               "\"nonce\":\"00112233445566778899aabbccddeeff\"}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    json_t *pub = view_event_json(ev, VIEW_PUBLIC, NULL), *judge = view_event_json(ev, VIEW_JUDGE, NULL);
    char *p = json_dumps(pub, JSON_COMPACT), *j = json_dumps(judge, JSON_COMPACT);
    cr_assert(!strstr(p, "obs-night-terror") && !strstr(p, "nonce"), "public: %s", p);
    cr_assert(strstr(j, "obs-night-terror") && strstr(j, "nonce"), "judge after public: %s", j);
    free(p);
    free(j);
    json_decref(pub);
    json_decref(judge);
    olevent_destroy(&ev);
}

/* A verdict's sentence in a view: the card its event hides is "a hidden
 * card" for the public and the other player, named for the owner and the
 * judge (view_verdict_redact). */
Test(parts, verdict_sentence_hides_what_its_event_hides)
{
    static const char text[] = "{\"match\":\"m\",\"seq\":2,\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\"]}";
    static const struct {
        view_kind view;
        const char *want;
    } cases[] = {{VIEW_PUBLIC, "p2 selected a hidden card (a hidden card)."},
                 {VIEW_P1, "p2 selected a hidden card (a hidden card)."},
                 {VIEW_P2, "p2 selected Night Terror (obs-night-terror)."},
                 {VIEW_JUDGE, "p2 selected Night Terror (obs-night-terror)."}};
    cards *db = NULL;
    char why[512];
    cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, why, sizeof why), 0, "%s", why);
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *v = json_pack("{s:s, s:{s:s}}", "msg", "p2 selected Night Terror (obs-night-terror).", "stored", "msg",
                              "p2 selected Night Terror (obs-night-terror).");
        /* 1: a sentence changed; 0: the view may read them as they are */
        cr_assert_eq(view_verdict_redact(v, ev, cases[i].view, NULL, db), cases[i].view == VIEW_PUBLIC || cases[i].view == VIEW_P1);
        cr_assert_str_eq(json_string_value(json_object_get(v, "msg")), cases[i].want, "view %zu", i);
        cr_assert_str_eq(json_string_value(json_object_get(json_object_get(v, "stored"), "msg")), cases[i].want);
        json_decref(v);
    }
    olevent_destroy(&ev);
    cards_destroy(&db);
}

/* The views: the public's, the judge's and one per seat, p1 to p8 -- each
 * seat's sees its own hidden cards only (view_can_see, the one rule), and a
 * seat's view of a match without that seat is refused with a sentence. */
Test(parts, views_exist_for_seats_p1_to_p8)
{
    for (int seat = 0; seat < OL_PLAYERS_MAX; seat++) {
        char name[4];
        view_kind v;
        snprintf(name, sizeof name, "p%d", seat + 1);
        cr_assert_eq(view_parse(name, &v), 0, "%s", name);
        cr_assert_eq(v, VIEW_P1 + seat);
        cr_assert_str_eq(view_name(v), name);
        cr_assert_eq(view_seat(v), seat);
        openlog_sight s = view_sight(v);
        for (int p = 0; p < OL_PLAYERS_MAX; p++) {
            cr_assert_eq(view_can_see(v, p), p == seat, "%s sees p%d's", name, p + 1);
            cr_assert_eq(s.sees[p], p == seat);
        }
        cr_assert_eq(view_can_see(v, -1), 0, "the table's and the judge's own cards are nobody's");
        /* the match has the seat from seat + 1 players on (at least 2) */
        for (unsigned n = 2; n <= OL_PLAYERS_MAX; n++)
            cr_assert_eq(view_in_match(v, n, NULL, 0), (unsigned)seat < n, "%s in a match of %u", name, n);
    }
    static const char *const bad[] = {"p0", "p9", "P1", "p", "p10", "", "players", "pub"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        view_kind v = VIEW_JUDGE;
        cr_assert_eq(view_parse(bad[i], &v), -1, "\"%s\"", bad[i]);
    }
    openlog_sight judge = view_sight(VIEW_JUDGE), pub = view_sight(VIEW_PUBLIC);
    for (int p = 0; p < OL_PLAYERS_MAX; p++)
        cr_assert(judge.sees[p] == 1 && pub.sees[p] == 0);
    cr_assert_eq(view_seat(VIEW_PUBLIC), -1);
    cr_assert_eq(view_seat(VIEW_JUDGE), -1);
    char msg[128];
    cr_assert_eq(view_in_match(VIEW_PUBLIC, 2, msg, sizeof msg), 1);
    cr_assert_eq(view_in_match(VIEW_JUDGE, 8, msg, sizeof msg), 1);
    cr_assert_eq(view_in_match(VIEW_P3, 2, msg, sizeof msg), 0);
    cr_assert_str_eq(msg, "This match has no p3: its players are p1 and p2.");
    cr_assert_eq(view_in_match(VIEW_P8, 4, msg, sizeof msg), 0);
    cr_assert_str_eq(msg, "This match has no p8: its players are p1 to p4.");
}

/* A header in a seat's view: that seat's decklist, nobody else's; a seat
 * without a deck gets none added. */
Test(parts, view_of_a_header_shows_a_seat_its_own_deck_only)
{
    static const char text[] =
        "{\"match\":\"m\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\",\"cards\":\"core@1.1.0\","
        "\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":{\"monsters\":[\"x1\"],\"supports\":[]}},"
        "\"p2\":{\"id\":\"b\"},\"p3\":{\"id\":\"c\",\"deck\":{\"monsters\":[\"x3\"],\"supports\":[]}}}}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    static const struct {
        view_kind v;
        int sees_x1, sees_x3;
    } cases[] = {{VIEW_PUBLIC, 0, 0}, {VIEW_P1, 1, 0}, {VIEW_P2, 0, 0}, {VIEW_P3, 0, 1}, {VIEW_JUDGE, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *j = view_event_json(ev, cases[i].v, ev);
        char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        cr_assert_eq(strstr(s, "x1") != NULL, cases[i].sees_x1, "%s: %s", view_name(cases[i].v), s);
        cr_assert_eq(strstr(s, "x3") != NULL, cases[i].sees_x3, "%s: %s", view_name(cases[i].v), s);
        cr_assert(strstr(s, "\"p2\":{\"id\":\"b\"}"), "%s: p2 has no deck, and none is added: %s",
                  view_name(cases[i].v), s);
        free(s);
        json_decref(j);
    }
    olevent_destroy(&ev);
}

/* ---- the outbox (store.h, record.h: replication) ------------------------- */

static store *scratch_store(char *dir)
{
    store *st = NULL;
    char err[256];
    strcpy(dir, "/tmp/arbiter-outbox-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(store_open(dir, 0, 0, &st, err, sizeof err), 0, "%s", err);
    return st;
}

static void append(store *st, MDB_txn *txn, const char *match, record_heads *h, uint64_t ms)
{
    static const char ev[] = "{}", verdict[] = "\x81\xa6status\xa2ok";
    cr_assert_eq(record_append(st, txn, match, h, NULL, ev, 2, verdict, sizeof verdict - 1, OL_V_OK, NULL, ms, "t"), 0);
}

Test(parts, outbox_notes_a_batch_once_and_follows_confirmations)
{
    char dir[64];
    store *st = scratch_store(dir);
    MDB_txn *txn;
    record_heads h;
    uint64_t from, since, next;
    memset(&h, 0, sizeof h);

    /* a batch of three events: one entry, from the first, its time */
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    append(st, txn, "m1", &h, 1000);
    append(st, txn, "m1", &h, 1001);
    append(st, txn, "m1", &h, 1002);
    cr_assert_eq(store_get_outbox(st, txn, "m1", &from, &since), 0);
    cr_expect_eq(from, 0);
    cr_expect_eq(since, 1000);
    cr_assert_eq(store_next_seq(st, txn, "m1", &next), 0);
    cr_expect_eq(next, 3);
    cr_assert_eq(mdb_txn_commit(txn), 0);

    /* the next batch (the seal cleared h.noted) keeps the older start */
    h.noted = 0;
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    append(st, txn, "m1", &h, 2000);
    cr_assert_eq(store_get_outbox(st, txn, "m1", &from, &since), 0);
    cr_expect_eq(from, 0, "a second batch must not hide the first one's unshipped events");

    /* confirmed up to seq 2: the entry moves on, with event 2's time */
    cr_assert_eq(record_shipped(st, txn, "m1", 2), 0);
    cr_assert_eq(store_get_outbox(st, txn, "m1", &from, &since), 0);
    cr_expect_eq(from, 2);
    cr_expect_eq(since, 1002);
    /* an older confirmation changes nothing */
    cr_assert_eq(record_shipped(st, txn, "m1", 1), 0);
    cr_assert_eq(store_get_outbox(st, txn, "m1", &from, &since), 0);
    cr_expect_eq(from, 2);
    /* everything confirmed: the entry goes */
    cr_assert_eq(record_shipped(st, txn, "m1", 4), 0);
    cr_expect_eq(store_get_outbox(st, txn, "m1", &from, &since), MDB_NOTFOUND);
    cr_assert_eq(store_next_seq(st, txn, "nothing", &next), 0);
    cr_expect_eq(next, 0);
    mdb_txn_abort(txn);
    store_close(&st);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

static int count_entry(void *ctx, const char *match, uint64_t from, uint64_t since)
{
    (void)match;
    (void)from;
    (void)since;
    ++*(int *)ctx;
    return 0;
}

Test(parts, outbox_seeded_once_for_a_store_from_before_it)
{
    char dir[64];
    store *st = scratch_store(dir);
    MDB_txn *txn;
    int seeded, n = 0;
    cr_assert_eq(mdb_txn_begin(store_env(st), NULL, 0, &txn), 0);
    cr_assert_eq(store_put_summary(st, txn, "a", "{}", 2), 0);
    cr_assert_eq(store_put_summary(st, txn, "b", "{}", 2), 0);
    cr_assert_eq(record_outbox_seed(st, txn, 5, &seeded), 0);
    cr_expect_eq(seeded, 1);
    cr_assert_eq(store_each_outbox(st, txn, NULL, count_entry, &n), 0);
    cr_expect_eq(n, 2, "every match of the store is to ship");
    cr_assert_eq(record_shipped(st, txn, "a", 1), 0);   /* "a" has no event 1: confirmed whole */
    cr_assert_eq(record_outbox_seed(st, txn, 6, &seeded), 0);
    cr_expect_eq(seeded, 0, "seeded once, never again");
    n = 0;
    cr_assert_eq(store_each_outbox(st, txn, "a", count_entry, &n), 0);
    cr_expect_eq(n, 1, "the walk after \"a\" sees \"b\" only");
    mdb_txn_abort(txn);
    store_close(&st);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

/* ---- the broadcast (broadcast.h) -------------------------------------------- */

/* --broadcast-delay's durations: a unit or seconds, 1 ms to 24 h. */
Test(broadcast, delay_durations)
{
    uint64_t ms = 0;
    cr_expect(!broadcast_parse_delay("15m", &ms) && ms == 900000);
    cr_expect(!broadcast_parse_delay("90s", &ms) && ms == 90000);
    cr_expect(!broadcast_parse_delay("90", &ms) && ms == 90000);
    cr_expect(!broadcast_parse_delay("2h", &ms) && ms == 7200000);
    cr_expect(!broadcast_parse_delay("1500ms", &ms) && ms == 1500);
    cr_expect(!broadcast_parse_delay("24h", &ms) && ms == BROADCAST_DELAY_MAX);
    const char *bad[] = {"", "0", "0s", "25h", "1441m", "-5s", "5 s", "5d", "soon", "1.5m", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect(broadcast_parse_delay(bad[i], &ms), "\"%s\" was taken", bad[i]);
}

/* No event is let out before it is due, and a match the broadcast does not
 * hold (nothing waits) has every stored event out. */
Test(broadcast, nothing_early)
{
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_XPUB);
    broadcast *b = NULL;
    cr_assert_eq(broadcast_new(sock, 3000, 1000, 5000000, &b), 0);
    cr_expect_eq(broadcast_released(b, "m", 7), 7);
    broadcast_stored(b, "m", 7, 2000);
    broadcast_stored(b, "m", 8, 2500);
    cr_expect_eq(broadcast_released(b, "m", 9), 7);
    cr_expect_eq(broadcast_pending(b), 2);
    cr_expect_eq(broadcast_wait_ms(b, 2000, 10000), 3000);
    cr_expect_eq(broadcast_wait_ms(b, 4999, 10000), 1);
    cr_expect_eq(broadcast_wait_ms(b, 6000, 10000), 0);
    broadcast_stored(b, "m", 10, 2600);   /* not the next seq (9): never sent, never early */
    cr_expect_eq(broadcast_pending(b), 2);
    cr_expect_eq(broadcast_dropped(b), 1);
    broadcast_destroy(&b);
    zmq_close(sock);
    zmq_ctx_term(ctx);
}

/* A match whose record failed the start's check vouches for no receive
 * time: withheld, none of its events is out, whatever is stored. */
Test(broadcast, a_damaged_record_is_withheld)
{
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_XPUB);
    broadcast *b = NULL;
    cr_assert_eq(broadcast_new(sock, 3000, 1000, 5000000, &b), 0);
    cr_expect_eq(broadcast_released(b, "forged", 40), 40);
    cr_assert_eq(broadcast_withhold(b, "forged"), 0);
    cr_expect_eq(broadcast_released(b, "forged", 40), 0);
    cr_expect_eq(broadcast_released(b, "other", 40), 40);
    broadcast_destroy(&b);
    zmq_close(sock);
    zmq_ctx_term(ctx);
}

/* view_event_text writes what json_dumps(JSON_COMPACT) writes of
 * view_event_json's object, for every event it takes (arbiterd
 * --replicate ships that text as the public view), in every view, hidden
 * cards null; only headers are left to the tree. */
Test(parts, view_event_text_is_the_views_dump_for_every_fixture_event)
{
    static const view_kind views[] = {VIEW_PUBLIC, VIEW_JUDGE, VIEW_P1, VIEW_P2, VIEW_P3};
    glob_t g;
    size_t written = 0, left = 0, masked = 0;
    cr_assert_eq(glob(SRC("fixtures/logs/*.jsonl"), 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        olreader *r = NULL;
        olerror err;
        olevent *read = NULL, *header = NULL;
        cr_assert_eq(olreader_open(g.gl_pathv[i], -1, &r, &err), OL_OK, "%s", err.msg);
        while (olreader_next(r, &read, NULL, NULL, &err) > 0) {
            char *mp = NULL;
            size_t len = 0;
            olevent *ev = NULL;
            cr_assert_eq(olcodec_encode(read, OL_ENC_MSGPACK, &mp, &len), OL_OK);
            cr_assert_eq(olcodec_decode_message(mp, len, &ev, NULL), OL_OK);
            for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
                jtext t = {0};
                jtext_lit(&t, "x");
                int rc = view_event_text(ev, views[v], header, &t);
                cr_assert_geq(rc, 0);
                if (!rc) {
                    cr_assert_str_eq(t.buf, "x");
                    cr_assert_eq(ev->type, OL_MATCH, "%s seq %llu left to the tree", g.gl_pathv[i],
                                 (unsigned long long)ev->seq);
                    left++;
                } else {
                    json_t *j = view_event_json(ev, views[v], header), *judge = view_event_json(ev, VIEW_JUDGE, header);
                    char *d = json_dumps(j, JSON_COMPACT);
                    cr_assert_str_eq(t.buf + 1, d, "%s seq %llu, view %s", g.gl_pathv[i],
                                     (unsigned long long)ev->seq, view_name(views[v]));
                    masked += !json_equal(j, judge) && json_object_size(j) == json_object_size(judge);
                    free(d);
                    json_decref(j);
                    json_decref(judge);
                    written++;
                }
                jtext_free(&t);
            }
            /* a text is only for events decoded from MessagePack */
            jtext t = {0};
            cr_assert_eq(view_event_text(read, VIEW_JUDGE, header, &t), 0);
            jtext_free(&t);
            if (ev->type == OL_MATCH && !header)
                header = ev, ev = NULL;
            olevent_destroy(&ev);
            olevent_destroy(&read);
            free(mp);
        }
        olevent_destroy(&header);
        olreader_destroy(&r);
    }
    globfree(&g);
    cr_assert_gt(written, 500, "%zu texts", written);
    cr_assert_gt(masked, 50, "%zu texts with a hidden card null", masked);
    cr_assert_gt(left, 5, "%zu headers left to the tree", left);
}
