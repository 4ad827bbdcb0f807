/* tourtypes.h -- the bounds and the data types of a loaded tournament.
 *
 * Header only.  What every module of src/tournament/ and their callers share
 * about a tournament file without needing its functions: the bounds of
 * every resource (a file beyond one is refused), the error codes, and the
 * player and structure records that tournament.h's accessors hand out.  It
 * sits below tournament.h and the internal tourint.h, so that both can name
 * these types without including each other.
 *
 * BOUNDS.  Every resource is bounded, and a file beyond a bound is refused:
 *   TOUR_FILE_MAX     bytes of tournament file text (64 MiB)
 *   TOUR_STR_MAX      bytes of any string of the file (256, as a header's)
 *   TOUR_PLAYERS_MAX  players (65536)
 *   TOUR_SWISS_MAX    Swiss rounds (32: strength of schedule stays an exact
 *                     fraction of 64-bit integers, T26)
 *   TOUR_ROUNDS_MAX   rounds in all, Swiss and elimination (64: a player's
 *                     rounds are one 64-bit mask)
 *   TOUR_CUT_MAX      the largest cut (32, T39)
 * tournament_results() takes at most TOUR_GAMES_MAX games.
 *
 * ERRORS.  Functions that can fail return 0, or TOUR_ENOMEM (out of
 * memory), TOUR_EINVAL (the file is refused, or the request cannot be met:
 * `err` says why in one sentence) or TOUR_EPENDING (a pairing or a cut
 * asked for while a result it needs is missing: `err` names the games).
 * On error *out is NULL.
 */
#ifndef ARBITER_TOURTYPES_H
#define ARBITER_TOURTYPES_H

#include <stddef.h>
#include <stdint.h>

#define TOUR_FILE_MAX ((size_t)64 << 20)
#define TOUR_STR_MAX 256
#define TOUR_PLAYERS_MAX 65536
#define TOUR_SWISS_MAX 32
#define TOUR_ROUNDS_MAX 64
#define TOUR_CUT_MAX 32
#define TOUR_GAMES_MAX ((size_t)1 << 24)
#define TOUR_SEARCH_MAX 200000     /* search steps per rematch allowance (T30) */
#define TOUR_HASH 32               /* BLAKE2b-256                              */
#define TOUR_TEXT_MAX 320          /* an alarm's or a result's sentence        */

enum { TOUR_OK = 0, TOUR_ENOMEM = -1, TOUR_EINVAL = -2, TOUR_EPENDING = -3 };

typedef struct tournament tournament;

typedef enum { TOUR_LEFT_DROP, TOUR_LEFT_NO_SHOW, TOUR_LEFT_DISQUALIFIED } tour_left;

/* One player of the file, with what `drops` and `late_entries` say. */
typedef struct {
    const char *id, *name;
    int has_deck;                  /* the file registers a `deck`             */
    uint8_t deck[TOUR_HASH];       /* its tournament_deck_hash()              */
    uint64_t active;               /* bit r-1 set: may be paired in round r   */
    int registered;                /* counts for the structure (T39)          */
    int disqualified;              /* T22: never ranked, never rejoins        */
    uint32_t disqualified_after;   /* the round after which, when disqualified */
} tour_player;

/* The structure the file chose, resolved (T39, T40). */
typedef struct {
    enum { TOUR_TABLE_BASIC, TOUR_TABLE_ADVANCED, TOUR_CUSTOM, TOUR_ALL_ELIMINATION } kind;
    uint32_t swiss_rounds;         /* S                                        */
    uint32_t cut;                  /* N: 0 (no cut), 4, 8, 16, 32; for ALL the
                                      players of round 1                        */
    uint32_t elimination_rounds;   /* E: log2 N, or ceil(log2 P) for ALL        */
    uint32_t registered;           /* players registered before round 1 (T39)  */
    const char *row;               /* the table row used ("4-8"), else NULL    */
    int reconstructed;             /* the Basic table's counts are arbiter's (T40) */
    int fell_back;                 /* Advanced below 9 players took Basic (T39) */
} tour_structure;

/* One row of a structure table (T39, T40): players lo..hi (hi 0: and
 * above), Swiss rounds, cut (0: no cut). */
typedef struct {
    uint32_t lo, hi, swiss_rounds, cut;
} tour_table_row;

#endif
