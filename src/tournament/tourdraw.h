/* tourdraw.h -- T27's random stream: every draw of a tournament (the Swiss
 * groups' order, the byes, the draw win of T14, the `standings R` order)
 * from a seed and a label, so that anybody holding the file and the
 * records can repeat it.  Pure: a stream is a value the caller owns (no
 * allocation, nothing to destroy).
 */
#ifndef ARBITER_TOURDRAW_H
#define ARBITER_TOURDRAW_H

#include <stddef.h>
#include <stdint.h>

#include "src/tournament/tourtypes.h"

/* Blocks BLAKE2b-256("arbiter-tournament-1" 0x00 seed 0x00 label 0x00 i),
 * i as 8 bytes big-endian, each read as four 64-bit big-endian integers. */
typedef struct {
    uint8_t prefix[2 * TOUR_STR_MAX + 64];
    size_t prefix_len;
    uint64_t block;                /* i of the next block                     */
    uint64_t words[4];
    unsigned used;                 /* words of `words` already given          */
} tour_stream;

/* A stream for a seed and a label; both are cut at TOUR_STR_MAX bytes. */
void tour_stream_init(tour_stream *s, const char *seed, const char *label);
uint64_t tour_stream_next(tour_stream *s);

/* uniform(n) of T27, n >= 1: rejection of the biased tail, then x mod n. */
uint64_t tour_uniform(tour_stream *s, uint64_t n);

/* T27's shuffle of n items in place: for i from n-1 down to 1, swap item i
 * with item uniform(i+1).  The caller orders the items first. */
void tour_shuffle(tour_stream *s, int *items, size_t n);

#endif
