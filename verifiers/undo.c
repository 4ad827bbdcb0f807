/* undo.c -- putting an engine's state back after a failed event (R12).
 *
 * What: the slow half of the undo log of undo.h -- starting an event, the
 * journal's overflow, the end of an event, and the check of test builds.
 *
 * Why: a whole-state copy per event was ~8% of `arbiter verify` on Snap
 * (BENCHMARKS.md, Verify); most events write a few dozen bytes.
 *
 * How: the journal holds (offset, size, old bytes) in the order written;
 * playing it back newest first over any buffer holding the state after the
 * event gives the state before it (bytes noted twice are put back to the
 * oldest value, since the older entry comes last).  An overflow plays it
 * back over a copy of the live state in `spare`, which is then the state
 * before the event, and the event continues as UNDO_COPY.  The check of
 * VERIFIER_UNDO_CHECK builds keeps its own copy in `spare` from the start,
 * plays the journal back over the live state at the end, compares, and --
 * for a legal event -- puts the event's state back from a scratch copy.
 */
#include <stdlib.h>
#include <string.h>

#ifdef VERIFIER_UNDO_CHECK
/* only the check of test builds prints, before it aborts (as assert) */
#include <stdio.h>
#endif

#include "verifiers/undo.h"

static void play_back(const undo_log *u, unsigned char *over)
{
    for (unsigned i = u->n_entries; i-- > 0;) {
        const undo_entry *e = &u->entry[i];
        memcpy(over + e->offset, u->bytes + e->at, e->size);
    }
}

#ifdef VERIFIER_UNDO_CHECK
static void check_failed(const undo_log *u, const unsigned char *got, const char *when)
{
    size_t at = 0;
    while (at < u->size && got[at] == u->spare[at])
        at++;
    fprintf(stderr, "undo check (%s engine): %s, byte %zu of the state (of %zu) was written without being noted "
            "in the undo log -- R12 would leave it changed after a failed event.\n", u->engine, when, at, u->size);
    abort();
}
#endif

void undo_begin(undo_log *u, void *base, size_t size, void *spare, undo_mode mode, const char *engine)
{
    u->base = base;
    u->size = size;
    u->spare = spare;
    u->engine = engine;
    u->mode = mode;
    u->n_entries = 0;
    u->n_bytes = 0;
#ifdef VERIFIER_UNDO_CHECK
    memcpy(spare, base, size);
#else
    if (mode == UNDO_COPY)
        memcpy(spare, base, size);
#endif
}

void undo_note_slow(undo_log *u)
{
    /* the journal is full: the state before the event is the live state
     * with the journal played back over it; from here on, a copy */
#ifdef VERIFIER_UNDO_CHECK
    unsigned char *before = malloc(u->size);
    if (!before)
        abort();
    memcpy(before, u->base, u->size);
    play_back(u, before);
    if (memcmp(before, u->spare, u->size))
        check_failed(u, before, "at the journal's overflow");
    free(before);
#else
    memcpy(u->spare, u->base, u->size);
    play_back(u, u->spare);
#endif
    u->mode = UNDO_COPY;
}

void undo_end(undo_log *u, int failed)
{
#ifdef VERIFIER_UNDO_CHECK
    if (u->mode == UNDO_JOURNAL) {
        unsigned char *after = NULL;
        if (!failed) {
            after = malloc(u->size);
            if (!after)
                abort();
            memcpy(after, u->base, u->size);
        }
        play_back(u, u->base);
        if (memcmp(u->base, u->spare, u->size))
            check_failed(u, u->base, failed ? "after a failed event" : "after a legal event");
        if (after) {
            memcpy(u->base, after, u->size);
            free(after);
        }
        u->n_entries = 0;
        return;
    }
#endif
    if (failed) {
        if (u->mode == UNDO_COPY)
            memcpy(u->base, u->spare, u->size);
        else
            play_back(u, u->base);
    }
    u->n_entries = 0;
}
