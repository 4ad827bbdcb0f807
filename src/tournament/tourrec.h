/* tourrec.h -- the records of a tournament, each judged again, as the
 * tour_game each fills (src/tournament/tournament.h).
 *
 * `arbiter tournament` (src/cli/cmd_tournament.c) and arbiterd's `standings`
 * query (src/daemon/query.c) both need the same thing: every record of one
 * tournament judged again by its format's engine -- never taken from what a
 * table said or a store's summary wrote -- and what the module needs
 * beyond the verdicts gathered in one pass over its events: the header
 * (event, players, decklists, levers), the table's `claim` of a winner,
 * whether the last game event is Player 2's `end` (T11), and for each game
 * round its first event's time and its scores (T12, T19).
 *
 * A log file is judged by the session `arbiter verify` runs (src/core/verify.h);
 * a stored record by reading its events in seq order into that same judge,
 * with the card database the record pins (or an override).  The set owns
 * every string its games point at: destroy tour_results made from it first.
 */
#ifndef ARBITER_TOURREC_H
#define ARBITER_TOURREC_H

#include <jansson.h>
#include <stddef.h>

#include "src/core/carddb.h"
#include "src/record/store.h"
#include "src/tournament/tourresult.h"
#include "src/tournament/tourstats.h"

/* Return codes of the store side. */
#define TOURREC_OK 0
#define TOURREC_ENOMEM (-1)
#define TOURREC_ESTORE (-2)     /* the store cannot be read            */
#define TOURREC_ETOOMANY (-3)   /* more records than the caller allows */
#define TOURREC_ESTOPPED (-4)   /* the progress callback asked to stop */
#define TOURREC_EFILE (-5)      /* a tournament file unread or refused */

/* The tournament file at path, read (at most TOUR_FILE_MAX bytes) and
 * loaded: TOURREC_OK and *out (tournament_destroy() it); TOURREC_EFILE with
 * one sentence in err (the file cannot be read, or tournament_load()
 * refuses it, saying why); TOURREC_ENOMEM.  *out is NULL but on success. */
int tourrec_load_file(const char *path, tournament **out, char *err, size_t errlen);

typedef struct tourrec_judged tourrec_judged;

typedef struct {
    const tournament *t;
    json_t *event_rules;        /* tournament_rules_json(), parsed */
    tourrec_judged *games;
    size_t n, cap;
    int stats;                  /* set before judging: gather what T46's
                                   statistics need (the cards each event's
                                   PUBLIC view shows, verdicts by rule,
                                   decklists by class); else skipped */
} tourrec_set;

/* An empty set for tournament t (which must outlive it).  0, or -1 out of
 * memory. */
int tourrec_set_init(tourrec_set *rs, const tournament *t);
void tourrec_set_free(tourrec_set *rs);

/* One log file ('-': stdin), read event by event as `arbiter verify` reads
 * it, judged with db, its record added to the set.  0; 1 when the log has
 * no header to say whose record it is (the reason in why: the organiser
 * must hear of it); -1 out of memory. */
int tourrec_judge_file(tourrec_set *rs, const cards *db, const char *path, char *why, size_t whylen);

/* Called before each stored record is judged (done of total), and once
 * with done == total at the end; may be NULL.  Returning non-zero stops
 * the judging there (TOURREC_ESTOPPED): arbiterd's standings worker ends
 * its read transaction so that the store's map may grow (standings.h). */
typedef int (*tourrec_progress)(void *ctx, size_t done, size_t total);

/* Every stored match whose summary names the set's tournament, in match id
 * order, judged again in the read transaction txn, each with the card
 * database it pins (kept in the store), or with `override` when not NULL.
 * At most max_records of them (0: no bound beyond TOUR_GAMES_MAX).
 * TOURREC_OK; TOURREC_ESTORE; TOURREC_ETOOMANY (err says how many);
 * TOURREC_ESTOPPED (progress said stop; the set holds what was judged);
 * TOURREC_ENOMEM (err names the match being judged, if any). */
int tourrec_judge_store(tourrec_set *rs, store *st, MDB_txn *txn, const cards *override, size_t max_records,
                        tourrec_progress progress, void *ctx, char *err, size_t errlen);

/* tournament_results() over the set's games: its return code, *out set. */
int tourrec_results(const tourrec_set *rs, tour_results **out);

/* The i-th record judged (i < rs->n), as tournament_results() reads it; it
 * lives as long as the set. */
const tour_game *tourrec_game(const tourrec_set *rs, size_t i);

/* T46: the statistics of the set's records (judged with rs->stats set)
 * and their results r (tourrec_results()).  db gives the classes of the
 * registered decklists (NULL: none counted); judge_view and round as
 * tourstats_opts says.  0 and *out (destroy it before the set and r), or
 * TOUR_ENOMEM. */
int tourrec_stats(const tourrec_set *rs, const tour_results *r, const cards *db, int judge_view, uint32_t round,
                  tourstats **out);

#endif
