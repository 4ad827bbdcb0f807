/* undo.h -- an undo log for one event's writes to an engine's state (R12).
 *
 * Rule R12 of the open-log contract: "an illegal event changes nothing".
 * An engine judges an event in place, on its own state; when the verdict
 * says the event failed, every byte it wrote must be put back.  Copying the
 * whole state before each event does that, and costs the whole state
 * (Snap's is some 8.5 KB) for every event, legal or not.  An undo log costs
 * what the event writes: before each write, the engine notes the bytes it
 * is about to change (undo_note, or UNDO_SET for one lvalue); when the event
 * fails, undo_end() puts them back, newest first; when it succeeds, the log
 * is dropped.
 *
 * Two ways of keeping the old state, chosen per event:
 *
 *   UNDO_JOURNAL  the log records (offset, old bytes) of every noted write.
 *                 Only for event types whose handlers write the state
 *                 through undo_note/UNDO_SET alone (the engine keeps that
 *                 list as a table; a handler not on it writes directly).
 *   UNDO_COPY     the whole state is copied into `spare` up front, nothing is
 *                 recorded; for event types not (yet) on the list.
 *
 * The journal has a fixed size (UNDO_ENTRIES entries, UNDO_BYTES bytes of
 * old values).  A write that would not fit never goes unrecorded: before it
 * is made, undo_note() rebuilds the state as it was before the event into
 * `spare` (the state as it is now, with the journal played back over it)
 * and switches the event to UNDO_COPY.  So an overflow costs one copy, as
 * before, and is never a wrong state.
 *
 * Checking (builds with VERIFIER_UNDO_CHECK defined, as the sanitizer
 * build is): undo_begin() always copies the whole state into `spare` too,
 * and undo_end() checks, after every journaled event, legal or not, that
 * playing the journal back gives exactly that copy -- so a write the
 * engine made without noting it aborts the program with a message naming
 * the engine and the first byte that differs.  A failed event is then
 * restored from the journal (the mechanism under test), a legal one kept.
 *
 * Pure: no I/O (but the check's message on stderr before abort), no
 * globals; the log lives on the caller's stack for one event.
 */
#ifndef ARBITER_UNDO_H
#define ARBITER_UNDO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UNDO_ENTRIES 64
#define UNDO_BYTES 1024

typedef enum { UNDO_JOURNAL, UNDO_COPY } undo_mode;

typedef struct {
    uint32_t offset;                  /* from the state's first byte     */
    uint16_t size;                    /* bytes noted                     */
    uint16_t at;                      /* their old value in bytes[]      */
} undo_entry;

typedef struct {
    unsigned char *base;              /* the state judged                */
    size_t size;                      /* sizeof the state                */
    unsigned char *spare;             /* caller's buffer of `size` bytes */
    const char *engine;               /* for the check's message         */
    undo_mode mode;
    unsigned n_entries, n_bytes;
    undo_entry entry[UNDO_ENTRIES];
    unsigned char bytes[UNDO_BYTES];
} undo_log;

/* Start judging one event on the state at `base` (`size` bytes).  `spare`
 * is the caller's buffer of at least `size` bytes, untouched until needed
 * (UNDO_COPY, an overflow, the check); it must live until undo_end.
 * `engine` names the engine in the check's message (a literal).  Nothing of
 * the log needs clearing before. */
void undo_begin(undo_log *u, void *base, size_t size, void *spare, undo_mode mode, const char *engine);

/* Out of line: the journal is full (undo_note).  The event goes on as
 * UNDO_COPY, with the state before it rebuilt in `spare`. */
void undo_note_slow(undo_log *u);

/* About to write n bytes at addr: remember their value.  No-op when u is
 * NULL (a write outside any event, as when windows close by silence before
 * the event is judged), in UNDO_COPY, or when the bytes are not inside the
 * state (a caller's local variable needs no undo).  Noting the same bytes
 * twice is allowed (the oldest value wins on the way back). */
static inline void undo_note(undo_log *u, const void *addr, size_t n)
{
    if (!u || u->mode != UNDO_JOURNAL)
        return;
    uintptr_t off = (uintptr_t)addr - (uintptr_t)u->base;
    if (n > u->size || off > u->size - n)
        return;
    if (u->n_entries < UNDO_ENTRIES && n <= UNDO_BYTES - u->n_bytes) {
        undo_entry *e = &u->entry[u->n_entries++];
        e->offset = (uint32_t)off;
        e->size = (uint16_t)n;
        e->at = (uint16_t)u->n_bytes;
        memcpy(u->bytes + u->n_bytes, addr, n);
        u->n_bytes += (unsigned)n;
        return;
    }
    undo_note_slow(u);
}

/* Note an lvalue, then assign it: UNDO_SET(u, s->round, s->round + 1).
 * `lv` is evaluated twice: no side effects in it. */
#define UNDO_SET(u, lv, val) (undo_note((u), &(lv), sizeof(lv)), (void)((lv) = (val)))

/* The event is judged: when `failed`, put the state back as it was at
 * undo_begin; else keep it.  The log is then done. */
void undo_end(undo_log *u, int failed);

#endif
