/* verifier.h -- the one interface every format's rules engine sits behind.
 *
 * A verifier replays one match: it is created from the match's header and
 * then given the match's events in seq order, one at a time; it answers
 * each with exactly one verdict (openlog.md 8) and changes its state only
 * when the verdict is ok or warning (snap-rulings.md R12: an illegal action
 * changes nothing).  The daemon and the command line call these same
 * functions, so live and batch verdicts are identical.
 *
 * Pure: no I/O, no clock (time comes only from events' `t`), no globals.
 * Sequence bookkeeping (gap, duplicate, conflict) is the caller's: a
 * verifier assumes it is given the next event of its match.
 *
 * Lifetime: the verifier keeps pointers into `db` (and none into events):
 * db must outlive it.  Events are read during the call only.
 */
#ifndef ARBITER_VERIFIER_H
#define ARBITER_VERIFIER_H

#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"

enum {
    VERIFIER_OK = 0,
    VERIFIER_ENOMEM = -1,
    VERIFIER_ENOENGINE = -2   /* no engine for the header's format yet */
};

typedef struct verifier verifier;

/* Start a match.  `header` must be a decoded OL_MATCH event.  On success
 * returns VERIFIER_OK, a new verifier in *out and the header's verdict in
 * *v: ok, or illegal when the header breaks a rule (a deck illegal for its
 * format) -- then the match cannot start and every later event is illegal
 * too.  That `db` is the database the header names is the caller's check
 * (src/verify.c), since only the caller knows which databases it holds.  Errors: ENOMEM,
 * ENOENGINE (with a sentence in v->msg and status malformed). */
int verifier_new(const cards *db, const olevent *header, verifier **out, olverdict *v);

/* Judge the next event.  Always writes exactly one verdict to *v. */
void verifier_apply(verifier *vf, const olevent *ev, olverdict *v);

/* The log has ended: no event will follow.  Open-log windows close by
 * silence (snap ruling R6), so a window still open closes and resolves
 * (snap ruling A31) -- a final combat nobody answered is fought.  Batch
 * verification calls it once, after the last event of a file; the daemon
 * never does (a live table may still speak).  Gives no verdict. */
void verifier_log_ended(verifier *vf);

/* 1 when the game is over (then *winner is OL_P1 or OL_P2, or -1 for no
 * winner), else 0.  winner may be NULL. */
int verifier_finished(const verifier *vf, int *winner);

/* Hidden cards whose identity was never checked, per player (openlog 6):
 * in announced mode the cards never named, in commit mode the commitments
 * never opened; 0 in open mode.  For the final record. */
void verifier_unverified(const verifier *vf, unsigned out[2]);

/* The round the match is in, or ended in (1..); 0 before setup is done.
 * For summaries ("rounds" of a stored match, openlog.md 9). */
unsigned verifier_round(const verifier *vf);

/* The format's engine name and version, stored with each record
 * (openlog.md 10): "snap/2". */
const char *verifier_engine(const verifier *vf);

void verifier_destroy(verifier **vf);

#endif
