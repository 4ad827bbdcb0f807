/* store.h -- the durable record of every match: LMDB, one environment.
 *
 * The daemon writes, `arbiter audit` and `arbiter list` read (read-only,
 * beside the running daemon: LMDB readers never block the writer).  The
 * store keeps what openlog.md 10 asks a record to pin.
 *
 * Databases of the environment (all keys and values are bytes):
 *
 *   matches     match id -> JSON summary (UTF-8, compact; written by
 *               record_summary_text, arbiter-records(5) lists its keys):
 *                 {"match","format","engine","status","winner","finished",
 *                  "draw"? (only true), "events","counts":{status:n},
 *                  "unverified":{"p1",...,"pN"},
 *                  "error"?,"rounds","cards","cards_hash","next_seq",
 *                  "tournament","owner","updated"}
 *               status is "legal" or "illegal" as `arbiter verify` would say
 *               of the events stored so far.
 *   events      match id, 0x00, seq as 8 bytes big-endian -> a record:
 *                 u32 event length, event bytes (as received),
 *                 u32 verdict length, verdict bytes (MessagePack map, the
 *                   reply sent for it),
 *                 u64 receive time (ms since the epoch),
 *                 u8 peer length, peer (text: the sender, arbiter-records(5)),
 *                 32 bytes chain link h(n), 32 bytes judge-view state hash,
 *                 32 bytes record link k(n) (seal.h)
 *               (integers big-endian).  Only events that take a seq are
 *               stored (ok, warning, illegal, mismatch: openlog.md 8).
 *               A record of arbiter 0.1 ends after the state hash: it has
 *               no k(n) (has_link 0), which seal_link_next() computes.
 *   quarantine  u64 arrival counter (big-endian) -> JSON
 *                 {"time","peer","source","reason","length","bytes_hex",
 *                  "skipped"?}: input refused before any match saw it.
 *   cards       BLAKE2b-256 of a card database file (hex) -> the file.
 *   byrule      rule, 0x00, match id, 0x00, seq (8 bytes BE) -> empty: the
 *               index of non-ok stored verdicts by the rule they cite.
 *   seals       match id -> the seal of the match's record (seal.h,
 *               SEAL_BYTES): signed after every batch that wrote the match.
 *   outbox      match id -> from (8 bytes BE), since (8 bytes BE, ms since
 *               the epoch): the match has stored events from seq `from` on
 *               that no replica has confirmed (arbiterd --replicate), the
 *               first of them received at `since`.  Written in the batch
 *               transaction that stored them, so that no committed event
 *               is ever missed; one entry per match, removed once shipped.
 *   meta        name -> value, about the store itself: "format" ("2" once
 *               a daemon that seals records has opened it and no record is
 *               left unsealed), "signers" (the public halves of the keys
 *               its daemons sealed with, 32 bytes each: the store's own
 *               word, editable like the rest).
 *
 * The hash chain (openlog.md 10): h(n) = BLAKE2b-256(h(n-1) || event bytes
 * || verdict bytes), h(-1) = 32 zero bytes; seal_chain_next() computes it.
 * The record link and the seal (arbiter-records(5)) are seal.h's.
 *
 * Errors: functions return 0 or a negative LMDB error code (mdb_strerror
 * says what it is) -- MDB_MAP_FULL (the caller grows the map with
 * store_grow() and retries the whole batch), MDB_NOTFOUND where a lookup
 * finds nothing, ENOMEM as -ENOMEM.  Pointers into the store (store_event's
 * fields) are valid until the transaction they were read in ends.
 */
#ifndef ARBITER_STORE_H
#define ARBITER_STORE_H

#include <lmdb.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define STORE_HASH 32
#define STORE_PEER_MAX 255

typedef struct store store;

/* One stored event, as read back: pointers into LMDB's map. */
typedef struct {
    uint64_t seq;
    const uint8_t *event;
    size_t event_len;
    const uint8_t *verdict;
    size_t verdict_len;
    uint64_t received_ms;
    char peer[STORE_PEER_MAX + 1];
    uint8_t chain[STORE_HASH];
    uint8_t state[STORE_HASH];
    uint8_t link[STORE_HASH];      /* k(n); meaningful when has_link      */
    int has_link;                  /* 0: written by arbiter 0.1, no k(n)  */
} store_event;

/* Open (creating it, mode 0700) the store in directory `dir`.  readonly:
 * MDB_RDONLY, for audits beside a running daemon (the directory must
 * exist).  map_size: the initial map in bytes for a writer (0: 64 MiB; the
 * map doubles on MDB_MAP_FULL, store_grow); a reader takes the writer's.
 * A writer runs mdb_reader_check() to clear stale readers left by killed
 * processes.  A writer that finds no dir/data.mdb makes the store whole
 * first, in dir/creating/, committed and synced before it is renamed into
 * place, so that a power cut while it is made never leaves a data.mdb that
 * is no LMDB file (a leftover dir/creating/ is made again).  0 and *out, or
 * an error (errno value negated, or an LMDB code) and *out NULL; `err`
 * gets one sentence. */
int store_open(const char *dir, int readonly, size_t map_size, store **out, char *err, size_t errlen);

/* Close and free; NULL-safe; sets *s to NULL. */
void store_close(store **s);

/* The environment, for transactions: mdb_txn_begin(store_env(s), ...). */
MDB_env *store_env(store *s);

/* Double the map size (after MDB_MAP_FULL); no transaction may be open. */
int store_grow(store *s);

/* The map size in bytes. */
size_t store_map_size(const store *s);

/* Writes, inside the caller's write transaction. */
int store_put_event(store *s, MDB_txn *txn, const char *match, const store_event *e);
int store_put_summary(store *s, MDB_txn *txn, const char *match, const char *json, size_t len);
int store_put_quarantine(store *s, MDB_txn *txn, uint64_t counter, const char *json, size_t len);
int store_put_cards(store *s, MDB_txn *txn, const char *hash_hex, const void *bytes, size_t len);
int store_put_rule(store *s, MDB_txn *txn, const char *rule, const char *match, uint64_t seq);
int store_put_seal(store *s, MDB_txn *txn, const char *match, const void *bytes, size_t len);
int store_put_meta(store *s, MDB_txn *txn, const char *name, const void *bytes, size_t len);

/* store_put_event writes has_link records only: the link is always kept. */

/* Reads, inside any transaction.  store_get_event: MDB_NOTFOUND when that
 * seq is not stored.  store_get_summary: *json points into the map. */
int store_get_event(store *s, MDB_txn *txn, const char *match, uint64_t seq, store_event *out);
int store_get_summary(store *s, MDB_txn *txn, const char *match, const char **json, size_t *len);
int store_get_cards(store *s, MDB_txn *txn, const char *hash_hex, const void **bytes, size_t *len);
int store_get_seal(store *s, MDB_txn *txn, const char *match, const void **bytes, size_t *len);
int store_get_meta(store *s, MDB_txn *txn, const char *name, const void **bytes, size_t *len);

/* The outbox (arbiterd(8), REPLICATION).  store_put_outbox: `keep` leaves
 * an entry already there as it is (the older `from` stays: the events
 * after it are still unshipped) and is then 0 too.  store_get_outbox:
 * MDB_NOTFOUND when the match has none, MDB_CORRUPTED when the value is
 * not 16 bytes.  store_each_outbox: fn for each entry in match id order,
 * strictly after match `after` (NULL or "": from the first); fn's non-zero
 * stops and is returned; MDB_CORRUPTED for a damaged entry.  A store made
 * before the outbox existed, opened read-only, has none: it reads empty. */
int store_put_outbox(store *s, MDB_txn *txn, const char *match, uint64_t from, uint64_t since_ms, int keep);
int store_del_outbox(store *s, MDB_txn *txn, const char *match);
int store_get_outbox(store *s, MDB_txn *txn, const char *match, uint64_t *from, uint64_t *since_ms);
typedef int (*store_outbox_fn)(void *ctx, const char *match, uint64_t from, uint64_t since_ms);
int store_each_outbox(store *s, MDB_txn *txn, const char *after, store_outbox_fn fn, void *ctx);
int store_count_outbox(store *s, MDB_txn *txn, size_t *n);

/* The highest quarantine counter in use, 0 when empty. */
int store_last_quarantine(store *s, MDB_txn *txn, uint64_t *counter);

/* The seq after the last stored event of `match` (0: none stored) into
 * *next: how many events the record holds when it has no hole.  0, or a
 * store error. */
int store_next_seq(store *s, MDB_txn *txn, const char *match, uint64_t *next);

/* Call fn for each stored event of `match` in seq order, from seq `from`
 * to `to` inclusive; fn returning non-zero stops (and is returned). */
typedef int (*store_event_fn)(void *ctx, const store_event *e);
int store_each_event(store *s, MDB_txn *txn, const char *match, uint64_t from, uint64_t to,
                     store_event_fn fn, void *ctx);

/* Call fn for each match summary in match id order. */
typedef int (*store_match_fn)(void *ctx, const char *match, const char *json, size_t len);
int store_each_match(store *s, MDB_txn *txn, store_match_fn fn, void *ctx);

/* The matches database's statistics (ms_entries: how many matches). */
int store_count_matches(store *s, MDB_txn *txn, MDB_stat *out);

/* Count the quarantine entries. */
int store_count_quarantine(store *s, MDB_txn *txn, size_t *n);

/* Call fn for each quarantine entry from counter `from` on, in order. */
typedef int (*store_quarantine_fn)(void *ctx, uint64_t counter, const char *json, size_t len);
int store_each_quarantine(store *s, MDB_txn *txn, uint64_t from, store_quarantine_fn fn, void *ctx);

/* Call fn for each stored card database (hash in hex, the file's bytes). */
typedef int (*store_cards_fn)(void *ctx, const char *hash_hex, const void *bytes, size_t len);
int store_each_cards(store *s, MDB_txn *txn, store_cards_fn fn, void *ctx);

/* ---- a damaged store ------------------------------------------------------

   A damaged LMDB page can make liblmdb fault (SIGSEGV, SIGBUS) rather than
   return MDB_CORRUPTED: nothing in the process reading it survives.  So a
   store is walked in a child process first, and only a walk that ends is a
   store the caller may read in its own process. */

#define STORE_DAMAGED 1000          /* store_probe: the store is damaged     */

/* Walk every database of the store in `dir` (read-only) in a child
 * process, touching every byte of every key and value.  0 when the walk
 * completed, counting what it saw into *matches and *events (either may be
 * NULL); STORE_DAMAGED with one sentence in why saying what is damaged --
 * the LMDB error, or the signal the walk died of and the database and key it
 * had reached -- when it did not; -errno when no child could be made.  The
 * child's stderr is discarded (a sanitizer's report of the fault included). */
int store_probe(const char *dir, uint64_t *matches, uint64_t *events, char *why, size_t whylen);

/* fork() for a child that reads a store which may be damaged: buffered
 * output flushed first (nothing is written twice), and in the child stderr
 * discarded and SIGSEGV/SIGBUS left to kill it (not a sanitizer's handler),
 * so that its parent tells a fault by WIFSIGNALED.  As fork(): 0 in the
 * child, the child's pid in the parent, -1 (errno) when none was made. */
pid_t store_fork_reader(void);

/* Copy the store in `dir` to the new folder `to` with LMDB's compacting copy
 * (mdb_env_copy2, MDB_CP_COMPACT): a consistent snapshot, taken beside a
 * running daemon without stopping it (an online backup).  `to` must not
 * exist, or be an empty folder.  0, or an error with a sentence in err. */
int store_backup(const char *dir, const char *to, char *err, size_t errlen);

/* 8 bytes big-endian, the byte order of every integer the store keeps. */
void store_put_be64(uint8_t *p, uint64_t v);
uint64_t store_get_be64(const uint8_t *p);


#endif
