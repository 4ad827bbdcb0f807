/* ingest.h -- events in, verdicts out: the daemon's ingest socket.
 *
 * Tables connect a DEALER to the ingest ROUTER and send one event per
 * message, one frame each (openlog.md 2, 9); every event gets one reply,
 * its verdict, once the event and its verdict are on disk.  One turn of
 * the loop is one batch:
 *
 *   read       what is waiting, up to INGEST_BATCH_MAX messages and
 *              INGEST_SHARE from any one connection (arbiterd(8), FRAMES AND FAIR SHARES); a
 *              connection whose input the last batch refused (malformed,
 *              or an event it may not send) no more than INGEST_RUN in a
 *              row;
 *   judge      every message, inside one LMDB write transaction: refusals
 *              (frames, keys, owners, a table key's header for another
 *              table, limits and shares, damaged records, and every message
 *              of a connection the gate let in only to be told it is
 *              refused), malformed input to the quarantine, events through
 *              their match's session (verify.h) into the record (record.h);
 *              the gate hears of each message (gate_heard: a connection
 *              that delivers is not idle) and a match counts for the peer
 *              whose event brought it into memory (live_hold);
 *   commit     the transaction, fsync'd, and only then
 *   send       the verdicts, never waiting for a connection: a full queue
 *              drops the reply (the table's resend gets `duplicate`).
 *
 * When the commit fails because the disk is full the batch is kept,
 * unacknowledged, and ingest_retry() judges and commits it again until it
 * succeeds; meanwhile the caller does not read the socket
 * (ingest_waiting) but goes on answering queries.  MDB_MAP_FULL grows the
 * map and judges the batch again at once.  Any other failure is fatal.
 */
#ifndef ARBITER_INGEST_H
#define ARBITER_INGEST_H

#include <stddef.h>

#include "logformat/olverdict.h"
#include "src/daemon/daemon.h"

#define INGEST_BATCH_MAX 1024
#define INGEST_SHARE 64                 /* messages of one connection a batch */
#define INGEST_RUN 4                    /* a suspect read alone, at most       */
#define INGEST_FRAME_MAX (128 * 1024)   /* ZMQ_MAXMSGSIZE                     */
#define INGEST_SNDHWM 1000              /* verdicts waiting for a connection  */
#define INGEST_RCVHWM 128               /* messages queued from a connection  */
#define INGEST_DISK_LOW ((uint64_t)16 << 20)   /* less free: the disk is full */

typedef struct ingest ingest;

/* Ingest on `sock` (a ROUTER the caller made and guarded, not yet bound:
 * its options are set here).  0, or -1 out of memory. */
int ingest_new(daemon_ctx *d, void *sock, ingest **out);

/* Free what a waiting batch holds (unacknowledged); NULL-safe. */
void ingest_destroy(ingest **g);

/* One turn: read, judge, commit, send.  0 (done, or the batch now waits
 * for disk space); -1 the store failed: nothing of the batch was
 * acknowledged, the daemon must stop. */
int ingest_turn(ingest *g);

/* 1 while a batch waits for disk space. */
int ingest_waiting(const ingest *g);

/* 1 when a message read in the last turn waits for the next one (a
 * connection's share was full): the caller must take another turn even if
 * the socket has nothing more to read. */
int ingest_pending(const ingest *g);

/* Try the waiting batch again; 0 (sent, or still waiting), -1 fatal. */
int ingest_retry(ingest *g);

/* The reply bytes of a verdict that takes no seq (malformed input, a
 * refusal: no expect, no stored), in JSON or MessagePack: the bytes
 * olverdict_to_json() and then json_dumps(JSON_COMPACT) or
 * olcodec_json_to_msgpack() would give, written without a tree.  0 and a
 * malloc'd *out; -EINVAL for a verdict with expect or a sentence that is
 * not UTF-8 (use the tree), -ENOMEM. */
int ingest_answer_bytes(const olverdict *v, int as_json, char **out, size_t *len);

/* Judge one message as the ingest socket would, from an anonymous local
 * peer, in the caller's write transaction (for the fuzzer): the reply's
 * bytes in *reply (malloc'd; NULL when no reply is due).  0, or a store
 * error. */
int ingest_judge(ingest *g, MDB_txn *txn, const void *bytes, size_t len, char **reply, size_t *rlen);

#endif
