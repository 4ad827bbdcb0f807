/* tourstand.h -- the standings after a Swiss round (T20-T28), the cut (T33)
 * and the final order (T38), from a tournament's results (tourresult.h).
 *
 * Pure.  Standings point into their tournament (player ids, the seed) and
 * must be destroyed before it.
 *
 * COST.  With P players and R rounds: O(P R + P log P).
 */
#ifndef ARBITER_TOURSTAND_H
#define ARBITER_TOURSTAND_H

#include <stddef.h>
#include <stdint.h>

#include "src/tournament/tourresult.h"

typedef struct {
    uint32_t place;             /* 1..                                        */
    int player;
    int64_t points, mov;
    uint32_t wins, draws, losses, byes, rounds;   /* rounds: with a result    */
    uint64_t sos_num, sos_den;  /* T26, exact; 0/1 with no opponent           */
    uint32_t random_place;      /* T28: place in the `standings R` shuffle    */
    int dropped;                /* not active in the next round (T22)         */
    uint32_t eliminated_in;     /* final standings: the round lost; 0 none    */
} tour_row;

typedef struct {
    const char *label;          /* "pending game", ...                       */
    uint32_t round;
    const char *table;
    char match[TOUR_STR_MAX + 1];
    char why[TOUR_TEXT_MAX];
} tour_pending;

typedef struct {
    uint32_t after_round;       /* Swiss standings: the round; final: last   */
    int final;                  /* tournament_final()                         */
    int provisional;            /* a result is pending (T24)                  */
    const char *seed;           /* the seed of the `standings R` draw (T27)   */
    int seed_made;
    char label[32];             /* "standings R"                              */
    tour_row *rows;
    size_t n_rows;
    tour_pending *pending;
    size_t n_pending;
} tour_standings;

/* The standings after Swiss round `after_round` (1..S, and published):
 * every player not disqualified, ranked by T24.  0 and *out, TOUR_EINVAL
 * (no such Swiss round), TOUR_ENOMEM. */
int tournament_standings(const tournament *t, const tour_results *r, uint32_t after_round, tour_standings **out,
                         char *err, size_t errlen);

/* The final standings (T38): with no elimination rounds, the standings
 * after the last Swiss round; with them, the bracket's order, provisional
 * while it is not over. */
int tournament_final(const tournament *t, const tour_results *r, tour_standings **out, char *err, size_t errlen);
void tour_standings_destroy(tour_standings **s);

/* The cut (T33): the N seeds, seed k in seeds[k-1], -1 for an empty seed
 * (T33 later day, or fewer players than N).  *n gets N.  TOUR_EPENDING
 * while a Swiss result is pending; TOUR_EINVAL without a cut. */
int tournament_cut(const tournament *t, const tour_results *r, int seeds[TOUR_CUT_MAX], uint32_t *n, char *err,
                   size_t errlen);

#endif
