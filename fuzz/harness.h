/* harness.h -- what the fuzz targets share (fuzz/README.md).
 *
 * Paths: the card database and the fixtures are found through
 * $ARBITER_CARDS (the card database) and $ARBITER_SRCDIR (a source tree:
 * fixtures/ under it), else the source tree the targets were built from
 * (FUZZ_SRCDIR, set by fuzz.mk), else carddb_default_path().
 *
 * The daemon: a daemon_ctx as arbiterd.c makes one, over a scratch LMDB
 * store in a mkdtemp() directory under $TMPDIR (default /tmp) whose files
 * are unlinked as soon as the store is open, so that nothing is left behind
 * even when a run ends in a crash; no feed and no gate (every sender is an
 * anonymous judge); a key of its own from keys_generate().
 *
 * Anything that goes wrong while setting up aborts: a target that cannot
 * start must not run as if it had.
 */
#ifndef ARBITER_FUZZ_HARNESS_H
#define ARBITER_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olcodec.h"
#include "src/daemon/daemon.h"
#include "src/daemon/ingest.h"

/* libFuzzer's entry points. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print one line naming the harness and abort (a finding, or a harness that
 * cannot start). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The daemon's log level: $FUZZ_LOG (error, warn, info, debug), else
 * nothing at all (every input would print). */
void fuzz_quiet(void);

/* The card database to load. */
const char *fuzz_cards_path(void);

/* The path of `rel` ("fixtures/logs/x.jsonl") in the source tree, in a
 * static buffer (valid until the next call). */
const char *fuzz_src_path(const char *rel);

/* A whole file into a new NUL-terminated buffer; aborts when unreadable. */
char *fuzz_read_file(const char *path, size_t *len);

/* A daemon_ctx over a new scratch store holding at most `max_matches` live
 * matches, with the card database loaded and saved in the store. */
void fuzz_daemon_open(daemon_ctx *d, size_t max_matches);

/* Seal every live match an input wrote (what the end of a batch does,
 * ingest.c commit_batch), in `txn`.  0, or the store error. */
int fuzz_seal_dirty(daemon_ctx *d, MDB_txn *txn);

/* The round trip the decode targets check, for an event that decoded:
 * encoded in both encodings, each decoded again; the two decodes must
 * agree with each other and with `ev` (typed fields and the whole tree),
 * and encoding them again must give the same bytes (a fixed point).  Any
 * difference aborts, naming what differs. */
void fuzz_check_roundtrip(const olevent *ev);

#endif
