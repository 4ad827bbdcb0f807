/* store.c -- the durable record of every match, in LMDB.
 *
 * Why LMDB: a verdict may be acknowledged only once it is on disk, and a
 * judge must be able to audit while the daemon writes.  LMDB gives both: a
 * committed write transaction is fsync'd (the environment is opened
 * without MDB_NOSYNC), and read-only transactions see a consistent
 * snapshot without blocking the one writer.  A process killed at any point
 * leaves either the whole last transaction or none of it.
 *
 * How: eight named databases (store.h lists their keys and values).  Event
 * keys are the match id, a zero byte and the seq in big-endian, so that
 * LMDB's byte order is seq order within a match and a cursor walks one
 * match's events with MDB_SET_RANGE.  Records are packed by hand in a
 * fixed, documented layout rather than through a serialiser: the chain
 * hashes cover the event and verdict bytes only, and the layout has to be
 * read by `arbiter audit` whatever version wrote it.
 *
 * Why the sync stays inside mdb_txn_commit (issue 23 looked at committing
 * with MDB_NOSYNC and syncing in another thread while the next batch is
 * judged; line numbers are LMDB 0.9.24's libraries/liblmdb/mdb.c, the
 * Debian library).  A commit writes the batch's pages, syncs, then writes
 * its meta page (3655-3657); the sync between them is what keeps a meta
 * page from reaching the disk before the pages it points to.  MDB_NOSYNC
 * drops that sync (2512) and writes the meta through the ordinary
 * descriptor (3881): pages and meta then sit in the page cache together,
 * the kernel writes them back in any order, and a power cut can keep the
 * meta and lose pages -- LMDB takes the newer meta (mdb_env_pick_meta,
 * 3938) and the store points at garbage.  A later mdb_env_sync cannot
 * repair an order already lost, so "commit without sync, sync after" is
 * not safe however the replies wait (tests/powerloss keeps or drops
 * each unsynced write on its own, which models this).  MDB_NOMETASYNC keeps the order (pages synced,
 * then the meta written unsynced): its last commit may be undone but the
 * store stays whole, and the next commit's sync makes that meta durable.
 * One commit may be left so, never two: a commit writes the meta slot of
 * txnid & 1 (3824), which holds the commit before last, and reuses only
 * pages freed by transactions older than txnid - 1 (mdb_find_oldest 2098,
 * mdb_page_alloc 2227-2249), so the last durable snapshot's pages and meta
 * stay intact until the next sync.  A write transaction is bound to the
 * thread that began it (the writer mutex, 2749 and 3024), so the commit,
 * and with it the data sync, cannot be handed to another thread.
 */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS: the probe's shared page */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/core/durable.h"
#include "src/record/store.h"

#define STORE_MAP_START ((size_t)64 << 20)
#define STORE_KEY_MAX 512

struct store {
    MDB_env *env;
    MDB_dbi matches, events, quarantine, cards, byrule, seals, meta, outbox;
    size_t map_size;
};

void store_put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

uint64_t store_get_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    for (int i = 3; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* match, 0x00, seq (BE): the key of an event; its length, or 0 if too long. */
static size_t event_key(uint8_t *key, const char *match, uint64_t seq)
{
    size_t n = strlen(match);
    if (n + 9 > STORE_KEY_MAX)
        return 0;
    memcpy(key, match, n);
    key[n] = 0;
    store_put_be64(key + n + 1, seq);
    return n + 9;
}

/* A database arbiter 0.1 did not have: a reader of such a store finds it
 * missing (MDB_NOTFOUND) and sees it as empty. */
static int open_optional(MDB_txn *txn, const char *name, unsigned flags, MDB_dbi *dbi)
{
    int rc = mdb_dbi_open(txn, name, flags, dbi);
    if (rc == MDB_NOTFOUND) {
        *dbi = (MDB_dbi)-1;
        return 0;
    }
    return rc;
}

static int open_dbs(store *s, int readonly)
{
    MDB_txn *txn = NULL;
    unsigned flags = readonly ? 0 : MDB_CREATE;
    int rc = mdb_txn_begin(s->env, NULL, readonly ? MDB_RDONLY : 0, &txn);
    if (rc)
        return rc;
    if ((rc = mdb_dbi_open(txn, "matches", flags, &s->matches)) ||
        (rc = mdb_dbi_open(txn, "events", flags, &s->events)) ||
        (rc = mdb_dbi_open(txn, "quarantine", flags, &s->quarantine)) ||
        (rc = mdb_dbi_open(txn, "cards", flags, &s->cards)) ||
        (rc = mdb_dbi_open(txn, "byrule", flags, &s->byrule)) ||
        (rc = open_optional(txn, "seals", flags, &s->seals)) ||
        (rc = open_optional(txn, "meta", flags, &s->meta)) ||
        (rc = open_optional(txn, "outbox", flags, &s->outbox))) {
        mdb_txn_abort(txn);
        return rc;
    }
    return mdb_txn_commit(txn);
}

/* A new store is made whole or not at all.  LMDB writes a new file's meta
 * pages without a sync, so a power cut before the first commit could leave
 * a data.mdb that is no LMDB file -- a store that refuses to open though
 * nothing was ever stored in it.  So the file is made in DIR/creating/,
 * its databases committed there (a commit syncs the file, meta pages
 * included), and only then renamed to DIR/data.mdb, the folder synced.  A
 * cut before the rename leaves no DIR/data.mdb: the next start makes the
 * store again, from an empty DIR/creating/.  0, or an errno value
 * negated or an LMDB code, with err set. */
static int store_create(const char *dir, size_t map_size, char *err, size_t errlen)
{
    char tmp[4200], from[4300], to[4300], lock[4300];
    store s;
    int rc;

    memset(&s, 0, sizeof s);
    snprintf(tmp, sizeof tmp, "%s/creating", dir);
    snprintf(from, sizeof from, "%s/data.mdb", tmp);
    snprintf(lock, sizeof lock, "%s/lock.mdb", tmp);
    snprintf(to, sizeof to, "%s/data.mdb", dir);
    /* what an earlier cut left: never a store, so never anything stored */
    if ((unlink(from) && errno != ENOENT) || (unlink(lock) && errno != ENOENT) ||
        (mkdir(tmp, 0700) && errno != EEXIST)) {
        rc = -errno;
        snprintf(err, errlen, "cannot make the new store in %s: %s", tmp, strerror(errno));
        return rc;
    }
    if ((rc = mdb_env_create(&s.env)) || (rc = mdb_env_set_maxdbs(s.env, 16)) ||
        (rc = mdb_env_set_mapsize(s.env, map_size ? map_size : STORE_MAP_START)) ||
        (rc = mdb_env_open(s.env, tmp, 0, 0600)) || (rc = open_dbs(&s, 0))) {
        snprintf(err, errlen, "cannot make the new store in %s: %s", tmp, mdb_strerror(rc));
        if (s.env)
            mdb_env_close(s.env);
        return rc;
    }
    mdb_env_close(s.env);
    if (rename(from, to) || (unlink(lock) && errno != ENOENT) || rmdir(tmp) || durable_sync_dir(dir) ||
        durable_sync_parent(dir)) {
        rc = -errno;
        snprintf(err, errlen, "cannot make the new store %s durable: %s", dir, strerror(errno));
        return rc;
    }
    return 0;
}

int store_open(const char *dir, int readonly, size_t map_size, store **out, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    MDB_envinfo info;
    char data[4200];
    int rc, dead = 0;

    *out = NULL;
    if (!s)
        return -ENOMEM;
    snprintf(data, sizeof data, "%s/data.mdb", dir);
    int fresh = !readonly && access(data, F_OK) != 0;   /* LMDB makes the files now */
    if (!readonly && mkdir(dir, 0700) && errno != EEXIST) {
        rc = -errno;
        snprintf(err, errlen, "cannot create the store directory %s: %s", dir, strerror(errno));
        goto fail;
    }
    if (fresh && (rc = store_create(dir, map_size, err, errlen)))
        goto fail;
    if ((rc = mdb_env_create(&s->env)) || (rc = mdb_env_set_maxdbs(s->env, 16)) ||
        (rc = mdb_env_set_maxreaders(s->env, 126))) {
        snprintf(err, errlen, "LMDB: %s", mdb_strerror(rc));
        goto fail;
    }
    if (!readonly && (rc = mdb_env_set_mapsize(s->env, map_size ? map_size : STORE_MAP_START))) {
        snprintf(err, errlen, "LMDB: %s", mdb_strerror(rc));
        goto fail;
    }
    if ((rc = mdb_env_open(s->env, dir, readonly ? MDB_RDONLY : 0, 0600))) {
        snprintf(err, errlen, "cannot open the store in %s: %s", dir, mdb_strerror(rc));
        goto fail;
    }
    /* a reader slot left by a killed process would pin old pages forever */
    if (!readonly && (rc = mdb_reader_check(s->env, &dead))) {
        snprintf(err, errlen, "LMDB reader check: %s", mdb_strerror(rc));
        goto fail;
    }
    if ((rc = mdb_env_info(s->env, &info))) {
        snprintf(err, errlen, "LMDB: %s", mdb_strerror(rc));
        goto fail;
    }
    s->map_size = info.me_mapsize;
    if ((rc = open_dbs(s, readonly))) {
        snprintf(err, errlen, "cannot open the store's databases in %s: %s", dir, mdb_strerror(rc));
        goto fail;
    }
    /* a new store: lock.mdb's name too (data.mdb's is durable since
     * store_create), before anything stored in it is acknowledged */
    if (fresh && (durable_sync_dir(dir) || durable_sync_parent(dir))) {
        rc = -errno;
        snprintf(err, errlen, "cannot make the new store %s durable: %s", dir, strerror(errno));
        goto fail;
    }
    *out = s;
    return 0;
fail:
    if (s->env)
        mdb_env_close(s->env);
    free(s);
    return rc ? rc : -EINVAL;
}

void store_close(store **s)
{
    if (!s || !*s)
        return;
    mdb_env_close((*s)->env);
    free(*s);
    *s = NULL;
}

MDB_env *store_env(store *s)
{
    return s->env;
}

size_t store_map_size(const store *s)
{
    return s->map_size;
}

int store_grow(store *s)
{
    size_t next = s->map_size * 2;
    int rc = mdb_env_set_mapsize(s->env, next);
    if (!rc)
        s->map_size = next;
    return rc;
}

int store_put_event(store *s, MDB_txn *txn, const char *match, const store_event *e)
{
    uint8_t key[STORE_KEY_MAX];
    size_t klen = event_key(key, match, e->seq), plen = strlen(e->peer);
    if (!klen || e->event_len > UINT32_MAX || e->verdict_len > UINT32_MAX || plen > STORE_PEER_MAX)
        return -EINVAL;
    size_t n = 4 + e->event_len + 4 + e->verdict_len + 8 + 1 + plen + 3 * STORE_HASH;
    MDB_val k = {klen, key}, v = {n, NULL};
    int rc = mdb_put(txn, s->events, &k, &v, MDB_RESERVE);
    if (rc)
        return rc;
    uint8_t *p = v.mv_data;
    put_be32(p, (uint32_t)e->event_len);
    memcpy(p += 4, e->event, e->event_len);
    put_be32(p += e->event_len, (uint32_t)e->verdict_len);
    memcpy(p += 4, e->verdict, e->verdict_len);
    store_put_be64(p += e->verdict_len, e->received_ms);
    *(p += 8) = (uint8_t)plen;
    memcpy(p += 1, e->peer, plen);
    memcpy(p += plen, e->chain, STORE_HASH);
    memcpy(p += STORE_HASH, e->state, STORE_HASH);
    memcpy(p + STORE_HASH, e->link, STORE_HASH);
    return 0;
}

/* Parse a record; -EINVAL when it does not hold together (a damaged or
 * tampered store is reported, never read past its end). */
static int parse_event(const MDB_val *k, const MDB_val *v, store_event *out)
{
    const uint8_t *p = v->mv_data, *end = p + v->mv_size;
    memset(out, 0, sizeof *out);
    if (k->mv_size < 9)
        return -EINVAL;
    out->seq = store_get_be64((const uint8_t *)k->mv_data + k->mv_size - 8);
    if (end - p < 4)
        return -EINVAL;
    out->event_len = get_be32(p);
    p += 4;
    if ((size_t)(end - p) < out->event_len + 4)
        return -EINVAL;
    out->event = p;
    p += out->event_len;
    out->verdict_len = get_be32(p);
    p += 4;
    if ((size_t)(end - p) < out->verdict_len + 9)
        return -EINVAL;
    out->verdict = p;
    p += out->verdict_len;
    out->received_ms = store_get_be64(p);
    p += 8;
    size_t plen = *p++;
    if ((size_t)(end - p) != plen + 2 * STORE_HASH && (size_t)(end - p) != plen + 3 * STORE_HASH)
        return -EINVAL;
    memcpy(out->peer, p, plen);
    out->peer[plen] = 0;
    p += plen;
    memcpy(out->chain, p, STORE_HASH);
    memcpy(out->state, p + STORE_HASH, STORE_HASH);
    out->has_link = end - p == 3 * STORE_HASH;
    if (out->has_link)
        memcpy(out->link, p + 2 * STORE_HASH, STORE_HASH);
    return 0;
}

int store_get_event(store *s, MDB_txn *txn, const char *match, uint64_t seq, store_event *out)
{
    uint8_t key[STORE_KEY_MAX];
    size_t klen = event_key(key, match, seq);
    MDB_val k = {klen, key}, v;
    if (!klen)
        return MDB_NOTFOUND;
    int rc = mdb_get(txn, s->events, &k, &v);
    return rc ? rc : parse_event(&k, &v, out);
}

int store_next_seq(store *s, MDB_txn *txn, const char *match, uint64_t *next)
{
    uint8_t key[STORE_KEY_MAX];
    size_t klen = event_key(key, match, UINT64_MAX), mlen = strlen(match);
    MDB_cursor *cur = NULL;
    MDB_val k = {klen, key}, v;
    *next = 0;
    if (!klen)
        return 0;
    int rc = mdb_cursor_open(txn, s->events, &cur);
    if (rc)
        return rc;
    /* the first key past the match's last possible one, then one back */
    rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
    rc = rc == MDB_NOTFOUND ? mdb_cursor_get(cur, &k, &v, MDB_LAST) : rc ? rc : mdb_cursor_get(cur, &k, &v, MDB_PREV);
    if (!rc && k.mv_size == mlen + 9 && !memcmp(k.mv_data, match, mlen) && !((uint8_t *)k.mv_data)[mlen])
        *next = store_get_be64((uint8_t *)k.mv_data + mlen + 1) + 1;
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_each_event(store *s, MDB_txn *txn, const char *match, uint64_t from, uint64_t to,
                     store_event_fn fn, void *ctx)
{
    uint8_t key[STORE_KEY_MAX];
    size_t klen = event_key(key, match, from), mlen = strlen(match);
    MDB_cursor *cur = NULL;
    MDB_val k = {klen, key}, v;
    store_event e;
    int rc;
    if (!klen)
        return 0;
    if ((rc = mdb_cursor_open(txn, s->events, &cur)))
        return rc;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        /* still this match: same id, then the zero byte */
        if (k.mv_size != mlen + 9 || memcmp(k.mv_data, match, mlen) || ((uint8_t *)k.mv_data)[mlen])
            break;
        if ((rc = parse_event(&k, &v, &e)))
            break;
        if (e.seq > to)
            break;
        if ((rc = fn(ctx, &e)))
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_put_summary(store *s, MDB_txn *txn, const char *match, const char *json, size_t len)
{
    MDB_val k = {strlen(match), (void *)match}, v = {len, (void *)json};
    return mdb_put(txn, s->matches, &k, &v, 0);
}

int store_get_summary(store *s, MDB_txn *txn, const char *match, const char **json, size_t *len)
{
    MDB_val k = {strlen(match), (void *)match}, v;
    int rc = mdb_get(txn, s->matches, &k, &v);
    if (rc)
        return rc;
    *json = v.mv_data;
    *len = v.mv_size;
    return 0;
}

int store_each_match(store *s, MDB_txn *txn, store_match_fn fn, void *ctx)
{
    MDB_cursor *cur = NULL;
    MDB_val k, v;
    char id[STORE_KEY_MAX];
    int rc = mdb_cursor_open(txn, s->matches, &cur);
    if (rc)
        return rc;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size >= sizeof id)
            continue;
        memcpy(id, k.mv_data, k.mv_size);
        id[k.mv_size] = 0;
        if ((rc = fn(ctx, id, v.mv_data, v.mv_size)))
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_put_quarantine(store *s, MDB_txn *txn, uint64_t counter, const char *json, size_t len)
{
    uint8_t key[8];
    store_put_be64(key, counter);
    MDB_val k = {8, key}, v = {len, (void *)json};
    return mdb_put(txn, s->quarantine, &k, &v, 0);
}

int store_last_quarantine(store *s, MDB_txn *txn, uint64_t *counter)
{
    MDB_cursor *cur = NULL;
    MDB_val k, v;
    int rc = mdb_cursor_open(txn, s->quarantine, &cur);
    *counter = 0;
    if (rc)
        return rc;
    rc = mdb_cursor_get(cur, &k, &v, MDB_LAST);
    if (!rc && k.mv_size == 8)
        *counter = store_get_be64(k.mv_data);
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_count_matches(store *s, MDB_txn *txn, MDB_stat *out)
{
    return mdb_stat(txn, s->matches, out);
}

int store_count_quarantine(store *s, MDB_txn *txn, size_t *n)
{
    MDB_stat st;
    int rc = mdb_stat(txn, s->quarantine, &st);
    *n = rc ? 0 : st.ms_entries;
    return rc;
}

int store_put_cards(store *s, MDB_txn *txn, const char *hash_hex, const void *bytes, size_t len)
{
    MDB_val k = {strlen(hash_hex), (void *)hash_hex}, v = {len, (void *)bytes};
    int rc = mdb_put(txn, s->cards, &k, &v, MDB_NOOVERWRITE);
    return rc == MDB_KEYEXIST ? 0 : rc;   /* content-addressed: already there */
}

int store_get_cards(store *s, MDB_txn *txn, const char *hash_hex, const void **bytes, size_t *len)
{
    MDB_val k = {strlen(hash_hex), (void *)hash_hex}, v;
    int rc = mdb_get(txn, s->cards, &k, &v);
    if (rc)
        return rc;
    *bytes = v.mv_data;
    *len = v.mv_size;
    return 0;
}

static int put_bytes(store *s, MDB_txn *txn, MDB_dbi dbi, const char *key, const void *bytes, size_t len)
{
    MDB_val k = {strlen(key), (void *)key}, v = {len, (void *)bytes};
    if (dbi == (MDB_dbi)-1)
        return EACCES;   /* a read-only store of arbiter 0.1 */
    return mdb_put(txn, dbi, &k, &v, 0);
}

static int get_bytes(MDB_txn *txn, MDB_dbi dbi, const char *key, const void **bytes, size_t *len)
{
    MDB_val k = {strlen(key), (void *)key}, v;
    int rc = dbi == (MDB_dbi)-1 ? MDB_NOTFOUND : mdb_get(txn, dbi, &k, &v);
    if (rc)
        return rc;
    *bytes = v.mv_data;
    *len = v.mv_size;
    return 0;
}

int store_put_seal(store *s, MDB_txn *txn, const char *match, const void *bytes, size_t len)
{
    return put_bytes(s, txn, s->seals, match, bytes, len);
}

int store_get_seal(store *s, MDB_txn *txn, const char *match, const void **bytes, size_t *len)
{
    return get_bytes(txn, s->seals, match, bytes, len);
}

int store_put_meta(store *s, MDB_txn *txn, const char *name, const void *bytes, size_t len)
{
    return put_bytes(s, txn, s->meta, name, bytes, len);
}

int store_get_meta(store *s, MDB_txn *txn, const char *name, const void **bytes, size_t *len)
{
    return get_bytes(txn, s->meta, name, bytes, len);
}

/* The outbox value: from (8 bytes BE), since ms (8 bytes BE). */
int store_put_outbox(store *s, MDB_txn *txn, const char *match, uint64_t from, uint64_t since_ms, int keep)
{
    uint8_t val[16];
    MDB_val k = {strlen(match), (void *)match}, v = {sizeof val, val};
    if (s->outbox == (MDB_dbi)-1)
        return EACCES;
    store_put_be64(val, from);
    store_put_be64(val + 8, since_ms);
    int rc = mdb_put(txn, s->outbox, &k, &v, keep ? MDB_NOOVERWRITE : 0);
    return rc == MDB_KEYEXIST ? 0 : rc;
}

int store_del_outbox(store *s, MDB_txn *txn, const char *match)
{
    MDB_val k = {strlen(match), (void *)match};
    if (s->outbox == (MDB_dbi)-1)
        return 0;
    int rc = mdb_del(txn, s->outbox, &k, NULL);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_get_outbox(store *s, MDB_txn *txn, const char *match, uint64_t *from, uint64_t *since_ms)
{
    const void *b;
    size_t n;
    int rc = get_bytes(txn, s->outbox, match, &b, &n);
    if (rc)
        return rc;
    if (n != 16)
        return MDB_CORRUPTED;
    *from = store_get_be64(b);
    *since_ms = store_get_be64((const uint8_t *)b + 8);
    return 0;
}

int store_each_outbox(store *s, MDB_txn *txn, const char *after, store_outbox_fn fn, void *ctx)
{
    MDB_cursor *cur = NULL;
    char id[STORE_KEY_MAX + 1];
    MDB_val k = {after ? strlen(after) : 0, (void *)after}, v;
    if (s->outbox == (MDB_dbi)-1)
        return 0;
    int rc = mdb_cursor_open(txn, s->outbox, &cur);
    if (rc)
        return rc;
    rc = mdb_cursor_get(cur, &k, &v, after && *after ? MDB_SET_RANGE : MDB_FIRST);
    if (!rc && after && *after && k.mv_size == strlen(after) && !memcmp(k.mv_data, after, k.mv_size))
        rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);   /* strictly after */
    for (; !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (v.mv_size != 16 || k.mv_size > STORE_KEY_MAX) {
            rc = MDB_CORRUPTED;
            break;
        }
        memcpy(id, k.mv_data, k.mv_size);
        id[k.mv_size] = 0;
        if ((rc = fn(ctx, id, store_get_be64(v.mv_data), store_get_be64((const uint8_t *)v.mv_data + 8))))
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_count_outbox(store *s, MDB_txn *txn, size_t *n)
{
    MDB_stat st;
    *n = 0;
    if (s->outbox == (MDB_dbi)-1)
        return 0;
    int rc = mdb_stat(txn, s->outbox, &st);
    if (!rc)
        *n = st.ms_entries;
    return rc;
}

int store_each_quarantine(store *s, MDB_txn *txn, uint64_t from, store_quarantine_fn fn, void *ctx)
{
    MDB_cursor *cur = NULL;
    uint8_t key[8];
    MDB_val k = {8, key}, v;
    int rc = mdb_cursor_open(txn, s->quarantine, &cur);
    if (rc)
        return rc;
    store_put_be64(key, from);
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size != 8)
            continue;
        if ((rc = fn(ctx, store_get_be64(k.mv_data), v.mv_data, v.mv_size)))
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_each_cards(store *s, MDB_txn *txn, store_cards_fn fn, void *ctx)
{
    MDB_cursor *cur = NULL;
    MDB_val k, v;
    char hex[STORE_KEY_MAX];
    int rc = mdb_cursor_open(txn, s->cards, &cur);
    if (rc)
        return rc;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size >= sizeof hex)
            continue;
        memcpy(hex, k.mv_data, k.mv_size);
        hex[k.mv_size] = 0;
        if ((rc = fn(ctx, hex, v.mv_data, v.mv_size)))
            break;
    }
    mdb_cursor_close(cur);
    return rc == MDB_NOTFOUND ? 0 : rc;
}

int store_put_rule(store *s, MDB_txn *txn, const char *rule, const char *match, uint64_t seq)
{
    uint8_t key[STORE_KEY_MAX];
    size_t r = strlen(rule), m = strlen(match);
    if (r + m + 10 > sizeof key)
        return -EINVAL;
    memcpy(key, rule, r);
    key[r] = 0;
    memcpy(key + r + 1, match, m);
    key[r + 1 + m] = 0;
    store_put_be64(key + r + m + 2, seq);
    MDB_val k = {r + m + 10, key}, v = {0, NULL};
    return mdb_put(txn, s->byrule, &k, &v, 0);
}

/* ---- a damaged store ------------------------------------------------------ */

/* What the probing child has reached: shared with the parent (an anonymous
 * shared mapping), so that a child killed by a fault still says where. */
typedef struct {
    char db[32];                   /* the database being walked             */
    uint8_t key[64];               /* the last key read whole (its start)  */
    size_t key_len;
    uint64_t matches, events;
    int lmdb_rc;                   /* an error LMDB returned                */
    char lmdb_at[64];              /* what it was doing then                */
} probe_state;

#define PROBE_EXIT_OK 0
#define PROBE_EXIT_LMDB 3

/* Read every byte of [p, p+n): a damaged overflow page faults here, in the
 * child, rather than later in the caller. */
static uint64_t touch(const void *p, size_t n)
{
    const volatile uint8_t *b = p;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += b[i];
    return sum;
}

static int probe_fail(probe_state *ps, int rc, const char *at)
{
    ps->lmdb_rc = rc;
    snprintf(ps->lmdb_at, sizeof ps->lmdb_at, "%s", at);
    return PROBE_EXIT_LMDB;
}

/* The child: open, then walk the main database (the names of the others)
 * and every named database, key by key. */
static int probe_walk(const char *dir, probe_state *ps)
{
    MDB_env *env = NULL;
    MDB_txn *txn = NULL;
    MDB_cursor *cur = NULL, *names = NULL;
    MDB_dbi main_db, dbi;
    MDB_val k, v, nk, nv;
    volatile uint64_t sink = 0;
    int rc;

    if ((rc = mdb_env_create(&env)) || (rc = mdb_env_set_maxdbs(env, 16)) ||
        (rc = mdb_env_open(env, dir, MDB_RDONLY, 0600)))
        return probe_fail(ps, rc, "opening the store");
    if ((rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn)) || (rc = mdb_dbi_open(txn, NULL, 0, &main_db)) ||
        (rc = mdb_cursor_open(txn, main_db, &names)))
        return probe_fail(ps, rc, "reading its list of databases");
    snprintf(ps->db, sizeof ps->db, "(the list of databases)");
    for (rc = mdb_cursor_get(names, &nk, &nv, MDB_FIRST); !rc; rc = mdb_cursor_get(names, &nk, &nv, MDB_NEXT)) {
        char name[32];
        if (nk.mv_size == 0 || nk.mv_size >= sizeof name)
            continue;
        memcpy(name, nk.mv_data, nk.mv_size);
        name[nk.mv_size] = 0;
        if (strlen(name) != nk.mv_size || mdb_dbi_open(txn, name, 0, &dbi))
            continue;   /* a plain key of the main database, not a database */
        snprintf(ps->db, sizeof ps->db, "%s", name);
        ps->key_len = 0;
        if ((rc = mdb_cursor_open(txn, dbi, &cur)))
            return probe_fail(ps, rc, "opening a cursor");
        for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
            sink += touch(k.mv_data, k.mv_size) + touch(v.mv_data, v.mv_size);
            ps->key_len = k.mv_size < sizeof ps->key ? k.mv_size : sizeof ps->key;
            memcpy(ps->key, k.mv_data, ps->key_len);
            ps->matches += !strcmp(name, "matches");
            ps->events += !strcmp(name, "events");
        }
        mdb_cursor_close(cur);
        if (rc != MDB_NOTFOUND)
            return probe_fail(ps, rc, "reading its keys");
        snprintf(ps->db, sizeof ps->db, "(the list of databases)");
    }
    if (rc != MDB_NOTFOUND)
        return probe_fail(ps, rc, "reading its list of databases");
    (void)sink;
    return PROBE_EXIT_OK;   /* the process ends: LMDB's handles with it */
}

/* "events", after the key "m-12" then 0x00 ...: where the walk stood. */
static void probe_where(const probe_state *ps, char *out, size_t cap)
{
    size_t k = 0;
    k += (size_t)snprintf(out, cap, "in the database \"%s\"", ps->db[0] ? ps->db : "(none yet)");
    if (ps->key_len && k < cap) {
        k += (size_t)snprintf(out + k, cap - k, ", after the key \"");
        for (size_t i = 0; i < ps->key_len && k + 5 < cap; i++) {
            uint8_t c = ps->key[i];
            k += (size_t)snprintf(out + k, cap - k, c >= 32 && c < 127 && c != '"' ? "%c" : "\\x%02x", c);
        }
        if (k < cap)
            snprintf(out + k, cap - k, "\"");
    }
}

pid_t store_fork_reader(void)
{
    pid_t pid;
    fflush(NULL);   /* nothing buffered is written twice */
    if ((pid = fork()) == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        /* die of the fault, visibly, rather than through a handler */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
    }
    return pid;
}

int store_probe(const char *dir, uint64_t *matches, uint64_t *events, char *why, size_t whylen)
{
    char data[4200], where[200];
    struct stat sb;
    probe_state *ps;
    int status = 0, rc;
    pid_t pid;

    why[0] = 0;
    snprintf(data, sizeof data, "%s/data.mdb", dir);
    /* a legitimate walk reads the whole file: 10 s, and 1 s more per 32 MiB */
    uint64_t limit_ms = 10000 + (stat(data, &sb) ? 0 : (uint64_t)sb.st_size / (32u << 20) * 1000), waited = 0;
    ps = mmap(NULL, sizeof *ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (ps == MAP_FAILED)
        return -errno;
    memset(ps, 0, sizeof *ps);
    if ((pid = store_fork_reader()) < 0) {
        rc = -errno;
        munmap(ps, sizeof *ps);
        return rc;
    }
    if (pid == 0)
        _exit(probe_walk(dir, ps));
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR) {
            rc = -errno;
            munmap(ps, sizeof *ps);
            return rc;
        }
        if (waited >= limit_ms) {   /* a damaged page can make a loop */
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            probe_where(ps, where, sizeof where);
            snprintf(why, whylen, "reading it did not end in %llu s (%s): a damaged page makes it loop",
                     (unsigned long long)limit_ms / 1000, where);
            munmap(ps, sizeof *ps);
            return STORE_DAMAGED;
        }
        nanosleep(&(struct timespec){0, 5 * 1000000L}, NULL);
        waited += 5;
    }
    probe_where(ps, where, sizeof where);
    if (WIFSIGNALED(status)) {
        snprintf(why, whylen, "reading it makes LMDB fault (%s, %s): a page is damaged",
                 strsignal(WTERMSIG(status)), where);
        rc = STORE_DAMAGED;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_EXIT_LMDB) {
        snprintf(why, whylen, "LMDB reports \"%s\" %s (%s)", mdb_strerror(ps->lmdb_rc), ps->lmdb_at, where);
        rc = STORE_DAMAGED;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != PROBE_EXIT_OK) {
        snprintf(why, whylen, "reading it ended with status %d (%s)", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                 where);
        rc = STORE_DAMAGED;
    } else {
        if (matches)
            *matches = ps->matches;
        if (events)
            *events = ps->events;
        rc = 0;
    }
    munmap(ps, sizeof *ps);
    return rc;
}

int store_backup(const char *dir, const char *to, char *err, size_t errlen)
{
    store *s = NULL;
    int rc;
    if (mkdir(to, 0700) && errno != EEXIST) {
        rc = -errno;
        snprintf(err, errlen, "cannot create %s: %s", to, strerror(errno));
        return rc;
    }
    if ((rc = store_open(dir, 1, 0, &s, err, errlen)))
        return rc;
    if ((rc = mdb_env_copy2(s->env, to, MDB_CP_COMPACT)))
        snprintf(err, errlen, "cannot copy the store %s to %s: %s", dir, to,
                 rc == EEXIST ? "it holds a store already" : mdb_strerror(rc));
    store_close(&s);
    return rc;
}
