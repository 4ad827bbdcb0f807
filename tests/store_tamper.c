/* store_tamper.c -- alter one stored event, as an attacker with write
 * access to the store would, for the audit's hash-chain test.
 *
 *   store_tamper DIR MATCH SEQ
 *
 * Flips the last byte of event SEQ's bytes and writes the record back
 * with its old chain link and state hash: the record still parses, only
 * the chain can tell.  Exit 0 done, 1 no such event, 2 usage or store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/store.h"

int main(int argc, char **argv)
{
    store *st = NULL;
    MDB_txn *txn = NULL;
    store_event e;
    char err[512];
    uint8_t *copy = NULL;
    int rc = 2;

    if (argc != 4) {
        fprintf(stderr, "usage: store_tamper DIR MATCH SEQ\n");
        return 2;
    }
    if (store_open(argv[1], 0, 0, &st, err, sizeof err)) {
        fprintf(stderr, "store_tamper: %s\n", err);
        return 2;
    }
    if (mdb_txn_begin(store_env(st), NULL, 0, &txn))
        goto out;
    if (store_get_event(st, txn, argv[2], strtoull(argv[3], NULL, 10), &e)) {
        fprintf(stderr, "store_tamper: no event %s of %s\n", argv[3], argv[2]);
        rc = 1;
        goto out;
    }
    if (!e.event_len || !(copy = malloc(e.event_len)))
        goto out;
    memcpy(copy, e.event, e.event_len);
    copy[e.event_len - 1] ^= 0x01;
    e.event = copy;
    if (store_put_event(st, txn, argv[2], &e) || mdb_txn_commit(txn))
        goto out;
    txn = NULL;
    rc = 0;
out:
    if (txn)
        mdb_txn_abort(txn);
    free(copy);
    store_close(&st);
    return rc;
}
