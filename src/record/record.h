/* record.h -- a match's record in the store: made again, written, sealed,
 * checked.
 *
 * The daemon keeps each match as events (with their chain and record
 * links, store.h and seal.h), a summary and a seal.  This module is the one
 * place that writes them and the one that reads a match back into a live
 * session, so that what is written and what is checked cannot drift apart.
 *
 *   record_load()        stored events -> a live session (restart, room)
 *   record_put_event()   one judged event -> the store, links computed
 *   record_seal()        after a batch: the summary, then its seal
 *   record_check()       a stored match against its links and seal
 *   record_check_store() every match, at start (and, with --seal-legacy, the
 *                        unsealed records of a store from before seals
 *                        sealed as they stand)
 *
 * Errors: 0, or a store error (LMDB code or -errno) for the caller's batch
 * to abort on; record_load() and the checks also say why in a sentence.
 */
#ifndef ARBITER_RECORD_H
#define ARBITER_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "src/daemon/daemon.h"
#include "src/record/seal.h"

/* The card database a stored summary (parsed) pins by its cards_hash,
 * loaded from the store when not loaded yet; it lives as long as d's
 * cardset.  NULL with a sentence in why. */
const cards *record_summary_cards(daemon_ctx *d, MDB_txn *txn, const json_t *summary, char *why, size_t whylen);

/* Make l's session from the match's stored events up to seq `until`,
 * judged with the card database its record pins (or, for a match with
 * nothing stored, the newest one `named` names: its arriving header's
 * "cards").  t: the live table l belongs to, or NULL for a scratch slot
 * the caller frees with verify_session_destroy(&l->sess).  l->id must be
 * set.  0, or -1 with a sentence in why (the slot is then without a
 * session). */
int record_load(daemon_ctx *d, MDB_txn *txn, live_table *t, live *l, uint64_t until, const char *named, char *why,
                size_t whylen);

/* Store one judged event of l: its bytes as received, its verdict's
 * MessagePack bytes, when it came and from whom; computes its chain link,
 * the judge-view state hash after it (the session has judged it) and its
 * record link, and indexes a non-ok verdict by rule.  Advances l's heads
 * and counts and marks l dirty.  `board` is a scratch buffer the caller
 * keeps. */
int record_put_event(daemon_ctx *d, MDB_txn *txn, live *l, uint64_t seq, const void *raw, size_t len,
                     const void *verdict, size_t vlen, ol_status status, const char *rule, uint64_t received_ms,
                     const char *peer, jtext *board);

/* Write l's summary (arbiter-records(5)) and the seal over it
 * and l's heads.  `text` is a scratch buffer the caller keeps. */
int record_seal(daemon_ctx *d, MDB_txn *txn, live *l, jtext *text);

/* What record_check() found in one match. */
typedef struct {
    seal_walk walk;                /* chain, links, holes, events           */
    int seal;                      /* seal_check()'s findings               */
    seal s;                        /* the seal, when it could be read       */
    int unreadable;                /* an event record did not parse         */
} record_findings;

/* Walk match `id`'s stored events and compare them with its seal and its
 * stored summary (`summary`, `slen`); `signers` is a list of n accepted
 * signing keys (32 bytes each; n 0: any).  0 (see f for what was found),
 * or a store error. */
int record_check(store *st, MDB_txn *txn, const char *id, const char *summary, size_t slen, const uint8_t *signers,
                 size_t n_signers, record_findings *f);

/* 1 when f found nothing wrong; `legacy_ok`: a missing seal is no finding
 * (a store not yet sealed). */
int record_findings_clean(const record_findings *f, int legacy_ok);

/* The findings in one sentence for a judge ("the chain breaks at #17; ...").
 * `match` names it. */
void record_findings_text(const record_findings *f, char *out, size_t n);

/* At start: check every match and every stored card database; each match
 * with a finding is logged and marked DAMAGED in d->live.  An unsealed
 * record is a finding, unless the store has no meta "format" (from before
 * seals, or made to look so) and d->seal_legacy is set: then it is sealed
 * as it stands, logged.  0, or a store error. */
int record_check_store(daemon_ctx *d);

#endif
