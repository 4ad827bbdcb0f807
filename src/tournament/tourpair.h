/* tourpair.h -- the pairings of the next round: Swiss (T29-T32) and
 * elimination (T34-T37), from a tournament's results (tourresult.h).
 *
 * Pure.  Pairings point into their tournament (the seed, player indexes)
 * and must be destroyed before it.
 *
 * COST.  With P players: a Swiss pairing O(P log P + P D^2) plus an
 * exhaustive search over at most 2D + 3 players, D the most opponents any
 * player has met (T30; tourpair.c says why that is enough), itself cut off
 * after TOUR_SEARCH_MAX steps per rematch allowance.  10,000 players after
 * 15 rounds take well under a second (bench/).
 */
#ifndef ARBITER_TOURPAIR_H
#define ARBITER_TOURPAIR_H

#include <stddef.h>
#include <stdint.h>

#include "src/tournament/tourresult.h"

typedef struct {
    char table[16];
    uint32_t game;              /* elimination: Game #k; Swiss: 0             */
    int player[2];              /* player[1] -1: a bye (player[0] -1 too: a
                                   game nobody is left to play, T37)          */
    int rematch;                /* T31: unavoidable rematch                   */
} tour_pair;

typedef struct {
    uint32_t round;
    int elimination;
    const char *seed;           /* the seed of its draws (T27)                */
    int seed_made;
    const char *labels;         /* the labels drawn ("pair 3, bye 3")         */
    tour_pair *pairs;           /* Swiss: byes last; elimination: game order  */
    size_t n_pairs;
    size_t rematches;
    int search_cut;             /* T30: the search hit TOUR_SEARCH_MAX        */
} tour_pairings;

/* The pairings of `round`, the next round to publish (the file's last
 * round + 1, or the last round when it has no pairings yet).  0 and *out,
 * TOUR_EPENDING (a result the pairing needs is missing: err names the
 * games), TOUR_EINVAL (no such round), TOUR_ENOMEM. */
int tournament_pair(const tournament *t, const tour_results *r, uint32_t round, tour_pairings **out, char *err,
                    size_t errlen);
void tour_pairings_destroy(tour_pairings **p);

#endif
