/* tourint.h -- INTERNAL to src/tournament/: the loaded tournament as the
 * computing modules read it.  No caller outside src/tournament/ includes
 * it; the public view of a tournament is tournament.h's accessors.
 *
 * What: the definition of struct tournament and of the records it holds
 * (rounds, pairings, reports, judges' results), and the small helpers every
 * module needs to read them.  Why one header: results, standings, pairing
 * and the outputs walk these arrays in their inner loops (10,000 players,
 * bench/), so they read the fields directly rather than through a call per
 * field; one definition, never a copy.  Only tournament.c (the loader)
 * writes them.
 *
 * INVARIANTS, set by tournament_load() and never changed after it but by
 * tournament_set_seed() (seed, seed_made):
 *   - players[0..np-1] in the file's order; by_id is a permutation of
 *     0..np-1 in bytewise id order and rank its inverse;
 *   - last_drop[p] is NO_DROP or the after_round of the drop in force;
 *     players[p].active has bit r-1 set exactly when p may be paired in
 *     round r (registration, late entry, drops and disqualification);
 *   - rounds[i].round == i + 1 for i < nrounds <= S + E of st (at most
 *     TOUR_ROUNDS_MAX); a round before one with pairings is closed; every
 *     player index of a pairing is -1 (p[1] only: a bye) or < np; by_table
 *     holds the round's pairings with a table, sorted by table;
 *   - judges are sorted by (round, pairing), one per pairing, and each
 *     names a published pairing;
 *   - every string of the file points into root (or is NULL); root, seed,
 *     rowtext and rules_json live until tournament_destroy().
 */
#ifndef ARBITER_TOURINT_H
#define ARBITER_TOURINT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"   /* ol_format */
#include "src/tournament/tourtypes.h"

struct json_t;

/* T26: SoS products need 128 bits (GCC and Clang have them). */
__extension__ typedef unsigned __int128 u128;

#define NO_DROP UINT32_MAX
#define ALL_ROUNDS UINT64_MAX

/* ---- the tournament ------------------------------------------------------- */

/* A string and the index of what it names: players by id, pairings by
 * table. */
typedef struct {
    const char *id;
    int idx;
} idref;

typedef struct {
    const char *table;          /* NULL for a bye                              */
    int p[2];                   /* p[1] -1: a bye                              */
    uint32_t game;
    int intentional_draw;
    uint64_t time_called;       /* the table's own call, else the round's      */
} tpairing;

typedef struct {
    size_t pairing;             /* index into the round's pairings             */
    int winner;                 /* player index, or -1                         */
    int draw;
    int has_scores;
    int64_t scores[2];          /* in the pairing's order                      */
    const char *table;
} treport;

typedef struct {
    uint32_t round;
    const char *seed, *results_seed;
    uint64_t time_called, started;  /* started: the round clock's start (ms)    */
    int closed;
    tpairing *pairs;
    size_t npairs;
    treport *reports;
    size_t nreports;
    idref *by_table;            /* the pairings with a table, by table         */
    size_t ntables;
} tround;

typedef enum { J_ENGINE, J_AT_TIME, J_WIN, J_DRAW, J_DOUBLE_LOSS } jkind;

typedef struct {
    uint32_t round;
    size_t pairing;             /* index into the round's pairings             */
    const char *match, *judge, *text;
    jkind kind;
    int winner, draw_win;       /* player indexes, or -1                       */
    int has_scores;
    int64_t scores[2];          /* in the pairing's order                      */
} tjudge;

struct tournament {
    struct json_t *root;        /* owns every string handed out                */
    const char *id, *name, *cards, *tier, *file_seed;
    const char *timezone;       /* the round clock's zone ("Europe/Paris")     */
    ol_format format;
    char *rules_json;
    int64_t base;
    char seed[TOUR_STR_MAX + 1];/* the --seed or a made one                    */
    int seed_made;
    tour_structure st;
    char rowtext[32];           /* st.row                                      */
    int later_day, decklists_public;
    uint32_t round_minutes;
    tour_player *players;
    size_t np;
    int *by_id;                 /* player indexes in id order (bytewise)       */
    int *rank;                  /* rank[p]: p's place in by_id                 */
    uint32_t *last_drop;        /* after_round of the drop in force, NO_DROP   */
    tround *rounds;
    size_t nrounds;
    tjudge *judges;
    size_t njudges;
};

/* ---- reading it ----------------------------------------------------------- */

static inline uint64_t tour_round_bit(uint32_t r)
{
    return r >= 1 && r <= TOUR_ROUNDS_MAX ? (uint64_t)1 << (r - 1) : 0;
}

static inline int tour_active_in(const tournament *t, int p, uint32_t r)
{
    return p >= 0 && (t->players[p].active & tour_round_bit(r)) != 0;
}

static inline uint32_t tour_total_rounds(const tournament *t)
{
    return t->st.swiss_rounds + t->st.elimination_rounds;
}

static inline int tour_is_elimination(const tournament *t, uint32_t r)
{
    return r > t->st.swiss_rounds;
}

static inline const tround *tour_round_of(const tournament *t, uint32_t r)
{
    return r >= 1 && r <= t->nrounds ? &t->rounds[r - 1] : NULL;
}

/* The least e with 2^e >= n (0 for n <= 1): a bracket's rounds. */
static inline uint32_t tour_log2_ceil(uint32_t n)
{
    uint32_t e = 0;
    while (((uint64_t)1 << e) < n)
        e++;
    return e;
}

/* Player p's id, "" for -1. */
static inline const char *tour_pid(const tournament *t, int p)
{
    return p >= 0 ? t->players[p].id : "";
}

/* The judge's result for a round's pairing, or NULL (T19). */
const tjudge *tour_judge_for(const tournament *t, uint32_t round, size_t pairing);

/* T27: round r's seed for its pairing (results 0) or its results (1):
 * the round's own, else tournament_seed()'s; *made (may be NULL) as
 * there. */
const char *tour_round_seed(const tournament *t, uint32_t r, int results, int *made);

/* printf-style text into buf (n bytes, always NUL-terminated when n > 0,
 * cut short when it does not fit); nothing when buf is NULL or n is 0.
 * The value is vsnprintf's.  So that the computing modules write their
 * sentences without including stdio themselves. */
int tour_say(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tour_vsay(char *buf, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/* src as tour_say(dst, n, "%s", src) would, NULL as "". */
void tour_copy_str(char *dst, size_t n, const char *src);

#endif
