/* cardset.c -- the card databases the daemon holds (cardset.h).
 *
 * Loaded databases are never freed while the daemon runs: a live session
 * judges with the one its record pins, and a reload must not pull it from
 * under the session.  The array is small (CARDSET_MAX), so lookups walk
 * it, newest first.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/carddb.h"
#include "src/core/dlog.h"
#include "src/record/cardset.h"

typedef struct {
    cards *db;
    char *bytes;                   /* the file as loaded; NULL when it came
                                      from the store                        */
    size_t len;
} held;

struct cardset {
    held dbs[CARDSET_MAX];
    int n;
};

int cardset_new(cardset **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : -1;
}

void cardset_destroy(cardset **cs)
{
    if (!cs || !*cs)
        return;
    for (int i = 0; i < (*cs)->n; i++) {
        cards_destroy(&(*cs)->dbs[i].db);
        free((*cs)->dbs[i].bytes);
    }
    free(*cs);
    *cs = NULL;
}

/* The whole file, at most CARDDB_FILE_MAX bytes, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n = -1;
    if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && (size_t)n <= CARDDB_FILE_MAX && !fseek(f, 0, SEEK_SET) &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

/* Move held database i to the end: the newest, first to answer its name. */
static void make_newest(cardset *cs, int i)
{
    held h = cs->dbs[i];
    memmove(&cs->dbs[i], &cs->dbs[i + 1], (size_t)(cs->n - i - 1) * sizeof h);
    cs->dbs[cs->n - 1] = h;
}

static int held_index(const cardset *cs, const cards *db)
{
    for (int i = 0; i < cs->n; i++)
        if (!memcmp(cards_hash(cs->dbs[i].db), cards_hash(db), 32))
            return i;
    return -1;
}

int cardset_load(cardset *cs, const char *const *paths, int n)
{
    held fresh[CARDSET_MAX];
    int got = 0, rc = 0, added = 0;
    for (int i = 0; i < n && !rc; i++) {
        char err[2048];
        size_t len;
        char *bytes = slurp(paths[i], &len);
        cards *db = NULL;
        if (got == CARDSET_MAX) {
            dlog(DLOG_ERROR, "more than %d card database files", CARDSET_MAX);
            rc = -1;
        } else if (!bytes) {
            dlog(DLOG_ERROR, "cannot read the card database %s", paths[i]);
            rc = -1;
        } else if (carddb_load_buffer(bytes, len, paths[i], &db, err, sizeof err)) {
            dlog(DLOG_ERROR, "%s", err);
            rc = -1;
        } else {
            fresh[got++] = (held){db, bytes, len};
            bytes = NULL;
            dlog(DLOG_INFO, "cards %s@%s from %s", cards_set(db), cards_version(db), paths[i]);
        }
        free(bytes);
    }
    for (int i = 0; !rc && i < got; i++)
        added += held_index(cs, fresh[i].db) < 0;
    if (!rc && cs->n + added > CARDSET_MAX) {
        dlog(DLOG_ERROR, "%d card databases are held already: %d more would pass the limit of %d; restart to load "
             "them", cs->n, added, CARDSET_MAX);
        rc = -1;
    }
    /* all or nothing: a reload that fails keeps what the daemon had */
    for (int i = 0; i < got; i++) {
        int k = rc ? -2 : held_index(cs, fresh[i].db);
        if (k == -1) {
            cs->dbs[cs->n++] = fresh[i];
            continue;
        }
        if (k >= 0)
            make_newest(cs, k);   /* the same bytes again: the copy held is kept */
        cards_destroy(&fresh[i].db);
        free(fresh[i].bytes);
    }
    return rc;
}

int cardset_save(cardset *cs, store *st, MDB_txn *txn)
{
    /* every file loaded, each time: a put of the same bytes under the same
     * hash changes nothing, and a save whose commit failed is made again
     * by the next one (the bytes are kept for that) */
    for (int i = 0; i < cs->n; i++) {
        char hex[65];
        int rc;
        if (!cs->dbs[i].bytes)
            continue;
        carddb_hash_hex(cards_hash(cs->dbs[i].db), hex);
        if ((rc = store_put_cards(st, txn, hex, cs->dbs[i].bytes, cs->dbs[i].len)))
            return rc;
    }
    return 0;
}

int cardset_ensure_stored(cardset *cs, store *st, MDB_txn *txn, const cards *db)
{
    char hex[65];
    const void *bytes;
    size_t len;
    int i = db ? held_index(cs, db) : -1;
    if (i < 0 || !cs->dbs[i].bytes)
        return 0;   /* came from the store, or not ours */
    carddb_hash_hex(cards_hash(db), hex);
    if (!store_get_cards(st, txn, hex, &bytes, &len))
        return 0;
    return store_put_cards(st, txn, hex, cs->dbs[i].bytes, cs->dbs[i].len);
}

const cards *cardset_named(const cardset *cs, const char *named)
{
    for (int i = cs->n - 1; named && i >= 0; i--)
        if (carddb_is_named(cs->dbs[i].db, named))
            return cs->dbs[i].db;
    return cs->n ? cs->dbs[0].db : NULL;
}

const cards *cardset_by_hash(cardset *cs, store *st, MDB_txn *txn, const uint8_t hash[32], char *why, size_t whylen)
{
    char hex[65], err[2048];
    const void *bytes;
    size_t len;
    uint8_t h[32];
    cards *db = NULL;

    for (int i = cs->n - 1; i >= 0; i--)
        if (!memcmp(cards_hash(cs->dbs[i].db), hash, 32))
            return cs->dbs[i].db;
    carddb_hash_hex(hash, hex);
    if (store_get_cards(st, txn, hex, &bytes, &len)) {
        snprintf(why, whylen, "the card database %s is neither loaded nor stored", hex);
        return NULL;
    }
    /* stored by its hash: bytes that hash otherwise were altered */
    crypto_generichash(h, sizeof h, bytes, len, NULL, 0);
    if (memcmp(h, hash, 32)) {
        snprintf(why, whylen, "the card database stored as %s has been altered (its bytes hash otherwise)", hex);
        return NULL;
    }
    if (cs->n == CARDSET_MAX) {
        snprintf(why, whylen, "%d card databases are held already (the limit)", CARDSET_MAX);
        return NULL;
    }
    if (carddb_load_buffer(bytes, len, hex, &db, err, sizeof err)) {
        snprintf(why, whylen, "the stored card database %s cannot be loaded", hex);
        return NULL;
    }
    cs->dbs[cs->n++] = (held){db, NULL, 0};
    dlog(DLOG_INFO, "cards %s@%s loaded from the store (%.12s...)", cards_set(db), cards_version(db), hex);
    return db;
}

size_t cardset_count(const cardset *cs)
{
    return (size_t)cs->n;
}
