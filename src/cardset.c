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

#include "src/cardset.h"
#include "src/carddb.h"
#include "src/dlog.h"

typedef struct {
    cards *db;
    char *bytes;                   /* the file, until saved in the store  */
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

int cardset_load(cardset *cs, const char *const *paths, int n)
{
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char err[2048];
        size_t len;
        char *bytes;
        cards *db = NULL;
        if (cs->n == CARDSET_MAX) {
            dlog(DLOG_ERROR, "%d card databases are held already (the limit); restart to load %s", CARDSET_MAX, paths[i]);
            return -1;
        }
        if (!(bytes = slurp(paths[i], &len))) {
            dlog(DLOG_ERROR, "cannot read the card database %s", paths[i]);
            rc = -1;
            continue;
        }
        if (carddb_load_buffer(bytes, len, paths[i], &db, err, sizeof err)) {
            dlog(DLOG_ERROR, "%s", err);
            free(bytes);
            rc = -1;
            continue;
        }
        cs->dbs[cs->n++] = (held){db, bytes, len};
        dlog(DLOG_INFO, "cards %s@%s from %s", cards_set(db), cards_version(db), paths[i]);
    }
    return rc;
}

int cardset_save(cardset *cs, store *st, MDB_txn *txn)
{
    for (int i = 0; i < cs->n; i++) {
        char hex[65];
        int rc;
        if (!cs->dbs[i].bytes)
            continue;
        carddb_hash_hex(cards_hash(cs->dbs[i].db), hex);
        if ((rc = store_put_cards(st, txn, hex, cs->dbs[i].bytes, cs->dbs[i].len)))
            return rc;
    }
    for (int i = 0; i < cs->n; i++) {   /* only once all are in the transaction */
        free(cs->dbs[i].bytes);
        cs->dbs[i].bytes = NULL;
    }
    return 0;
}

const cards *cardset_named(const cardset *cs, const char *named)
{
    for (int i = cs->n - 1; named && i >= 0; i--) {
        const char *set = cards_set(cs->dbs[i].db);
        size_t k = strlen(set);
        if (!strncmp(named, set, k) && named[k] == '@' && !strcmp(named + k + 1, cards_version(cs->dbs[i].db)))
            return cs->dbs[i].db;
    }
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
