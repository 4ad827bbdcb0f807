/* record.h -- one match's record: read, judged again, written, sealed and
 * checked, by this module alone.
 *
 * A record is, in the store (store.h): the match's events, each with its
 * verdict, receive time, sender, chain link h(n), state hash s(n) and
 * record link k(n) (seal.h); the match's summary; its seal; and the card
 * database it pins.  Every program that touches a record does it through
 * here -- the daemon writing it and making its live matches again, the
 * query ops, `arbiter audit`, `arbiter list`, `arbiter store`, the
 * tournament code -- so that what is written and what is checked cannot
 * drift apart.  Nothing here knows the daemon: every function takes the
 * store, the transaction and the match id it works on.
 *
 *   record_read()        the summary's fields (what it pins, who owns it)
 *   record_header()      the stored header (seq 0), decoded
 *   record_replay()      the stored events judged again through the engine,
 *                        one callback per event, up to a seq
 *   record_judge()       a live session judges one arriving event (a resend
 *                        is compared with the stored bytes)
 *   record_append()      one judged event into the store, links computed
 *   record_seal()        after a batch: the summary, then its seal
 *   record_check()       a whole record against its links, seal (by a
 *                        trusted key), summary, card database, verdicts and
 *                        boards; record_check_step/_finish for a record
 *                        read from elsewhere (a daemon's query socket)
 *
 * TRUST.  Which seals count is configuration, never the store's word: a
 * record_trust lists the Ed25519 keys whose seals are accepted (the
 * daemon's own, and those an operator lists with --trusted-seals).  The
 * store's meta "signers" is kept as a hint for the sentences only.
 *
 * Errors: 0, or a store error (an LMDB code, or -errno) for the caller to
 * abort on; a record that does not hold together is not an error but a
 * finding (record_findings).  Functions that can say why in a sentence take
 * `why`.
 */
#ifndef ARBITER_RECORD_H
#define ARBITER_RECORD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "src/core/keys.h"
#include "src/core/verify.h"
#include "src/record/cardset.h"
#include "src/record/seal.h"
#include "src/record/store.h"

/* ---- trust ---------------------------------------------------------------- */

#define RECORD_TRUST_MAX 256        /* keys a --trusted-seals file may list */

/* The signing keys whose seals are accepted. */
typedef struct {
    uint8_t keys[RECORD_TRUST_MAX][32];
    char names[RECORD_TRUST_MAX][KEYS_NAME_MAX + 1];   /* "" when unnamed */
    size_t n;
} record_trust;

/* Add one key (32 bytes) under `name` (may be NULL); a key listed already
 * is not added twice.  0, or -1 when RECORD_TRUST_MAX are listed. */
int record_trust_add(record_trust *t, const uint8_t key[32], const char *name);

/* Add the keys of a trusted-seals file (arbiter-keyring(5)): one key a
 * line, 64 hex digits of an Ed25519 public key optionally followed by a
 * name, or a `sign-public = HEX` line as a .pub file has it (so that a
 * .pub file is itself a trusted-seals file of one key); blank lines and
 * `#` comments are skipped.  0, or -1 with a sentence naming the file and
 * line in err. */
int record_trust_load(record_trust *t, const char *path, char *err, size_t errlen);

/* 1 when `key` is trusted; *name (may be NULL) gets its name. */
int record_trust_has(const record_trust *t, const uint8_t key[32], const char **name);

/* Where a daemon keeps, beside its store `dbdir`, what says whose seals
 * count -- its key (arbiterd.key and arbiterd.pub) and the file of keys it
 * trusts besides (RECORD_TRUSTED_FILE) -- when no option names them: the
 * store folder's parent ("." for a bare name).  Outside the store folder,
 * so that whoever can edit the store cannot sign with the daemon's key.
 * arbiterd and `arbiter audit --db` use this one rule. */
#define RECORD_TRUSTED_FILE "trusted-seals"
void record_home(const char *dbdir, char *out, size_t cap);

/* The trust an audit of the store `dbdir` starts from without options: the
 * sign-public of the daemon's .pub beside it and the keys of the
 * trusted-seals file beside it (record_home), those that exist.  0 (t->n
 * may be 0: nothing found), or -1 with a sentence in err (a file there
 * that does not read). */
int record_trust_home(record_trust *t, const char *dbdir, char *err, size_t errlen);

/* ---- reading -------------------------------------------------------------- */

/* What a record's summary says of it beyond its events: the card database
 * it pins, its tournament and owner (arbiter-records(5)). */
typedef struct {
    const char *summary;           /* the stored bytes, into the map: valid  */
    size_t summary_len;            /* until the transaction ends             */
    uint8_t cards_hash[32];
    int has_cards_hash;
    char tournament[OL_STRING_MAX + 1];   /* "" when none                  */
    char owner[KEYS_NAME_MAX + 1];        /* the owner's key name, ""      */
    char owner_key[KEYS_Z85 + 1];         /* its public key, "" anonymous  */
    int finished;
} record_info;

/* The summary of `match`.  0; MDB_NOTFOUND when the store has no such
 * match; -EINVAL when the summary is not a JSON object (a damaged
 * record: *out still has its bytes); or a store error. */
int record_read(store *st, MDB_txn *txn, const char *match, record_info *out);

/* 1 when the store holds a record of `match` (a summary). */
int record_exists(store *st, MDB_txn *txn, const char *match);

/* The stored seal of `match`: its bytes (*raw, *len: into the map, valid
 * until the transaction ends) and decoded (*out).  0; MDB_NOTFOUND when
 * there is none; -EINVAL when the bytes are not a seal (*raw, *len still
 * set); or a store error. */
int record_seal_read(store *st, MDB_txn *txn, const char *match, seal *out, const void **raw, size_t *len);

/* Call fn for each stored event of `match`, as stored, from seq `from` to
 * `to` inclusive, in seq order (store_each_event's contract). */
int record_each_event(store *st, MDB_txn *txn, const char *match, uint64_t from, uint64_t to, store_event_fn fn,
                      void *ctx);

/* The verdict stored with event `seq` of `match`, decoded: a new
 * reference, or NULL when there is none or it does not decode. */
json_t *record_stored_verdict(store *st, MDB_txn *txn, const char *match, uint64_t seq);

/* The header the record holds at seq 0, decoded: 0 and *out (destroy it
 * with olevent_destroy), MDB_NOTFOUND when there is none, -EINVAL when its
 * bytes do not decode as a header, or a store error. */
int record_header(store *st, MDB_txn *txn, const char *match, olevent **out);

/* The card database `info` pins, as the store keeps it: RECORD_CARDS_OK
 * when the store holds bytes under that hash and they still hash to it;
 * else what is wrong.  Independent of the databases a program loaded. */
enum { RECORD_CARDS_OK = 0, RECORD_CARDS_NONE, RECORD_CARDS_MISSING, RECORD_CARDS_ALTERED };
int record_cards_status(store *st, MDB_txn *txn, const record_info *info);

/* The database to judge the record again with: the one it pins, from cs
 * (loaded already, or loaded now from the store's copy after checking its
 * hash).  NULL with a sentence in why. */
const cards *record_cards(cardset *cs, store *st, MDB_txn *txn, const record_info *info, char *why, size_t whylen);

/* ---- judging again -------------------------------------------------------- */

/* One stored event as the replay met it. */
typedef struct {
    const store_event *stored;     /* as stored (pointers into the map)     */
    const olevent *ev;             /* decoded; NULL when its bytes do not   */
    const verify_entry *again;     /* its verdict judged again; NULL when
                                      nothing was judged (no session, or
                                      the event does not decode)           */
    const verify_session *sess;    /* the session, standing after it        */
} record_step;

/* Called for each event; non-zero stops the replay and is returned. */
typedef int (*record_step_fn)(void *ctx, const record_step *step);

/* Judge match `match`'s stored events from seq 0 up to `until`
 * (inclusive; UINT64_MAX: all) again with `sess` (a session the caller
 * made over the pinned database, lean or not; NULL: decode and walk
 * only), calling fn (may be NULL) after each.  0, fn's non-zero, -EINVAL
 * when an event record does not parse (the walk stops there), or
 * VERIFY_ENOMEM mapped to -ENOMEM, or a store error. */
int record_replay(store *st, MDB_txn *txn, const char *match, uint64_t until, verify_session *sess,
                  record_step_fn fn, void *ctx);

/* A live session judges an event that arrived (the daemon): through
 * verify_session_event_resent() with the bytes the record holds at its seq
 * when a lean session has passed that seq already.  0 and *out as
 * verify_session_event() gives it; -ENOMEM; or a store error. */
int record_judge(store *st, MDB_txn *txn, verify_session *sess, const olevent *ev, const char *raw, size_t len,
                 const verify_entry **out);

/* ---- writing -------------------------------------------------------------- */

/* Where a record stands: what writing its next event and its seal needs. */
typedef struct {
    uint64_t events;               /* seqs 0..events-1 are stored           */
    uint8_t chain[STORE_HASH];     /* h of the last stored event (or zeros) */
    uint8_t link[STORE_HASH];      /* k of the last stored event (or zeros) */
    size_t counts[OL_V_COUNT];     /* stored verdicts, by status            */
    uint8_t noted;                 /* the outbox was told of this batch's
                                      events (cleared when it is sealed)    */
} record_heads;

/* What the summary says beside what the events give. */
typedef struct {
    char tournament[OL_STRING_MAX + 1];
    char owner[KEYS_NAME_MAX + 1];
    char owner_key[KEYS_Z85 + 1];
} record_tags;

/* Store the event at seq h->events of `match`: its bytes as received, its
 * verdict's bytes (the reply sent), when it came (`received_ms`) and from
 * whom (`peer`, at most STORE_PEER_MAX bytes); computes its chain link,
 * its state hash (vf: the engine after judging it; NULL before an engine
 * exists -- zeros) and its record link; indexes a non-ok verdict by rule;
 * advances h.  0, or a store error. */
int record_append(store *st, MDB_txn *txn, const char *match, record_heads *h, const verifier *vf, const void *raw,
                  size_t len, const void *verdict, size_t vlen, ol_status status, const char *rule,
                  uint64_t received_ms, const char *peer);

/* ---- replication (arbiterd(8), REPLICATION; store.h's outbox) -------------
 *
 * record_append notes in the store's outbox, in the batch's transaction,
 * the first seq of a record not yet shipped (once per batch: h->noted, which
 * the caller clears when it seals).  What a replica has confirmed comes
 * back through record_shipped, in a later write transaction of the
 * daemon's. */

/* A replica holds match's events below seq `to`: the outbox entry moves
 * to `to` (when the store holds more, with the receive time of event
 * `to`) or goes.  A confirmation older than the entry changes nothing.
 * 0, or a store error. */
int record_shipped(store *st, MDB_txn *txn, const char *match, uint64_t to);

/* A store whose outbox was never filled (meta "outbox" missing: made
 * before replication existed) gets an entry from seq 0 for every match
 * that has none, stamped now_ms, and the meta key; *seeded 1 then.  0, or
 * a store error. */
int record_outbox_seed(store *st, MDB_txn *txn, uint64_t now_ms, int *seeded);

/* The summary of a record (the daemon's record, arbiterd(8)): what the
 * session says of the events stored (sess after the last of them), with
 * the record's own counts (h), what it pins (db) and its tags, stamped
 * `now_ms`; into t (reset first), compact JSON byte for byte as
 * json_dumps(JSON_COMPACT) would write it.  0, or -ENOMEM. */
int record_summary_text(const verify_session *sess, const record_heads *h, const cards *db, const record_tags *tags,
                        uint64_t now_ms, jtext *t);

/* Write the summary and the seal over it and h, signed with `key`'s
 * Ed25519 pair.  0, or a store error. */
int record_seal(store *st, MDB_txn *txn, const char *match, const record_heads *h, const char *summary, size_t len,
                const keys_pair *key);

/* Copy match `match`'s record from one store to another (`arbiter store
 * salvage`): its events as stored (each rewritten from its fields, byte
 * for byte, but that a record link arbiter 0.1 did not store is stored as
 * computed), the index of its non-ok verdicts, its summary and seal bytes,
 * and the card database it pins -- so that its seal still holds there.  0,
 * -EINVAL when a stored verdict or the summary does not read, or a store
 * error of either store. */
int record_copy(store *from, MDB_txn *ftxn, store *to, MDB_txn *ttxn, const char *match);

/* A record read from elsewhere (arbiter-pg(5): the circuit's database)
 * into a store, as it came, to be checked there exactly as a stored one:
 * record_put_stored writes one event as given, byte for byte, and indexes
 * a non-ok verdict by its rule (-EINVAL when its verdict does not read);
 * record_put_rest the summary's bytes, the seal's (NULL: none) and the
 * card database's under its hex hash (NULL: none).  0, or a store error. */
int record_put_stored(store *to, MDB_txn *txn, const char *match, const store_event *e);
int record_put_rest(store *to, MDB_txn *txn, const char *match, const char *summary, size_t slen, const void *seal_bytes,
                    size_t seal_len, const char *cards_hex, const void *cards_bytes, size_t cards_len);

/* ---- checking ------------------------------------------------------------- */

/* What record_check() found in one record.  All fields are read-only for
 * the caller. */
typedef struct {
    seal_walk walk;                /* chain, links, holes, events           */
    int unreadable;                /* an event record does not parse         */
    int undecodable;               /* a stored event's bytes do not decode  */
    int summary_bad;               /* no summary, or not a JSON object       */
    int cards;                     /* RECORD_CARDS_*                          */
    int judged;                    /* the record was judged again            */
    int64_t verdict_differs;       /* first seq judged otherwise, or -1      */
    int64_t board_differs;         /* first seq whose state hash differs     */
    size_t n_differ;               /* verdicts judged otherwise              */
    size_t counts[OL_V_COUNT];     /* stored verdicts, by status             */
    size_t again_counts[OL_V_COUNT];   /* verdicts judged again, by status  */
    unsigned summary_differs;      /* RECORD_SUM_* the summary says otherwise */
    int seal;                      /* seal_check()'s SEAL_* findings          */
    seal s;                        /* the seal, when it could be read        */
    int trusted;                   /* its signer is a trusted key            */
    const char *trusted_name;      /* the name it is trusted under, or NULL  */
} record_findings;

enum {
    RECORD_SUM_STATUS = 1 << 0,
    RECORD_SUM_WINNER = 1 << 1,
    RECORD_SUM_FINISHED = 1 << 2,
    RECORD_SUM_EVENTS = 1 << 3,
    RECORD_SUM_COUNTS = 1 << 4
};

/* "status", "winner", ... for one RECORD_SUM_* bit. */
const char *record_sum_name(unsigned bit);

/* Check a record event by event, from wherever it was read: _init, then
 * _step for each event in seq order (sess: a session over the pinned
 * database, as record_replay takes it; NULL when it cannot be had -- then
 * nothing is judged again; fn, ctx: called as record_replay calls them),
 * then _finish with the stored seal (NULL: none) and summary (bytes and
 * parsed), the card database's status and the trusted keys.  _step
 * returns fn's non-zero, or -ENOMEM. */
void record_check_init(record_findings *f);
int record_check_step(record_findings *f, verify_session *sess, const store_event *e, record_step_fn fn, void *ctx);
void record_check_finish(record_findings *f, const char *match, const verify_session *sess, const void *seal_bytes,
                         size_t seal_len, const char *summary, size_t slen, const json_t *summary_json, int cards_status,
                         const record_trust *trust);

/* The whole check of a stored record: its events judged again with a
 * session over the pinned database (from cs; made lean when `lean`; cs
 * NULL: nothing is judged again -- the links, seal, summary counts and
 * card database only, for a quick check of many stores), its
 * links, its seal against `trust`, its summary, its card database.  When
 * sess_out is not NULL the session is handed over there (NULL when none
 * could be made: the card database is missing); heads_out (may be NULL)
 * gets where the record stands, as stored.  fn/ctx as record_replay.  0 (f
 * says what was found), or a store error, or -ENOMEM. */
int record_check(store *st, MDB_txn *txn, cardset *cs, const char *match, const record_trust *trust, int lean,
                 record_step_fn fn, void *ctx, record_findings *f, verify_session **sess_out,
                 record_heads *heads_out);

/* 1 when f found nothing wrong. */
int record_findings_clean(const record_findings *f);

/* The findings in sentences a judge can say ("the chain breaks at #17;
 * ..."), joined by "; ".  Empty when clean. */
void record_findings_text(const record_findings *f, char *out, size_t n);

#endif
