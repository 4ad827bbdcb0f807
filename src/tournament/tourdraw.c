/* tourdraw.c -- T27's random stream: every draw of a tournament from a seed.
 *
 * What: blocks of BLAKE2b-256("arbiter-tournament-1" 0x00 seed 0x00 label
 * 0x00 i), read as 64-bit words; uniform(n) and the shuffle of T27 on top.
 *
 * Why: standings and pairings must be the same wherever they are computed
 * (the CLI and the daemon's `standings` op, T24), and anybody holding the
 * file and the records must be able to repeat every random draw (T27).  So
 * the only randomness of the computing modules is this seeded stream; the
 * one seed arbiter may make is tournament.c's.
 *
 * How: a tour_stream is a value on the caller's stack: the prefix (domain,
 * seed, label) is hashed with the block counter each time four words run
 * out.  Pure: no allocation, no I/O.
 */
#include <sodium.h>
#include <string.h>

#include "src/tournament/tourdraw.h"

static const char stream_domain[] = "arbiter-tournament-1";

static size_t put_cut(uint8_t *dst, const char *s)
{
    size_t n = s ? strnlen(s, TOUR_STR_MAX) : 0;
    memcpy(dst, s ? s : "", n);
    dst[n] = 0;
    return n + 1;
}

void tour_stream_init(tour_stream *s, const char *seed, const char *label)
{
    memset(s, 0, sizeof *s);
    size_t n = sizeof stream_domain;   /* the domain and its 0x00 */
    memcpy(s->prefix, stream_domain, n);
    n += put_cut(s->prefix + n, seed);
    n += put_cut(s->prefix + n, label);
    s->prefix_len = n;
    s->used = 4;                       /* no block drawn yet */
}

/* BLAKE2b-256 cannot fail on these sizes (libsodium only rejects bad output
 * or key lengths), so a failure would be a broken library: the block is then
 * all zeros rather than uninitialised, and the draw stays deterministic. */
static void stream_block(tour_stream *s)
{
    uint8_t msg[sizeof s->prefix + 8], h[TOUR_HASH];
    memcpy(msg, s->prefix, s->prefix_len);
    for (int i = 0; i < 8; i++)
        msg[s->prefix_len + i] = (uint8_t)(s->block >> (56 - 8 * i));
    if (crypto_generichash(h, sizeof h, msg, s->prefix_len + 8, NULL, 0) != 0)
        memset(h, 0, sizeof h);
    for (int w = 0; w < 4; w++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++)
            x = x << 8 | h[8 * w + i];
        s->words[w] = x;
    }
    s->block++;
    s->used = 0;
}

uint64_t tour_stream_next(tour_stream *s)
{
    if (s->used >= 4)
        stream_block(s);
    return s->words[s->used++];
}

uint64_t tour_uniform(tour_stream *s, uint64_t n)
{
    if (n <= 1)
        return 0;
    /* T27: 2^64 - (2^64 mod n), the start of the biased tail; 2^64 mod n is
     * (2^64 - n) mod n computed in 64 bits. */
    uint64_t rem = (0 - n) % n, x;
    do
        x = tour_stream_next(s);
    while (rem && x >= 0 - rem);
    return x % n;
}

void tour_shuffle(tour_stream *s, int *items, size_t n)
{
    for (size_t i = n; i-- > 1;) {
        size_t j = (size_t)tour_uniform(s, (uint64_t)i + 1);
        int tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
    }
}
