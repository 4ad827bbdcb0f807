/* tourresult.h -- every published pairing's result and every alarm, from a
 * loaded tournament (tournament.h) and the caller's verified games.
 *
 * The rulings are TOURNAMENT.md's (T1-T19, T22, T23, T31, T32, T42, T43,
 * T45).  Pure: the caller gives one tour_game per verified record.
 *
 * LIFETIMES.  Results point into their tournament (player ids, tables,
 * seeds) and must be destroyed before it; they copy what they need from the
 * caller's games (match ids, sentences), so the games may be freed once
 * tournament_results() returns.
 *
 * COST.  With P players, R rounds and G games: O(G log G + P R).
 */
#ifndef ARBITER_TOURRESULT_H
#define ARBITER_TOURRESULT_H

#include <stddef.h>
#include <stdint.h>

#include "src/tournament/tournament.h"

/* ---- the games ---------------------------------------------------------- */

/* How the engine judged a record (T17, T18).  The caller takes it from the
 * verdicts of the record (verify_report counts, or a store summary):
 *   LEGAL       every verdict ok, warning or duplicate
 *   MISMATCH    besides those, only mismatch verdicts (T18: still counts)
 *   ILLEGAL     any illegal, conflict, gap or malformed verdict
 *   UNREADABLE  the log could not be read (VERIFY_UNREADABLE)
 *   NO_GAME     the header started no game (illegal deck, other database) */
typedef enum {
    TOUR_REC_LEGAL, TOUR_REC_MISMATCH, TOUR_REC_ILLEGAL, TOUR_REC_UNREADABLE, TOUR_REC_NO_GAME
} tour_rec_status;

/* One game round of a record, for the time call (T12) and the head
 * judge's `at_time` (T19).  first_ms: the time of the game round's first
 * event (its stored receive time in a daemon's record, else its `t`; 0
 * when unknown).  score: each player's score (T4, T5; p1, p2) on the board
 * as it stands after the game round's last event -- replay the record and
 * read the board at each Player 2 `end` (T11), and at the record's end for
 * the last game round. */
typedef struct {
    uint64_t first_ms;
    int64_t score[2];
} tour_mark;

/* One verified record, filled by the caller.  Every pointer need live only
 * until tournament_results() returns. */
typedef struct {
    const char *match;          /* the header's `match`                       */
    const char *tournament;     /* the header's event.tournament; NULL: none.
                                   A game of another tournament is ignored (T2) */
    uint32_t round;             /* event.round; 0 when absent                 */
    const char *table;          /* event.table; NULL when absent              */
    const char *p1, *p2;        /* players.p1.id, players.p2.id               */
    const char *format;         /* the header's `format`                      */
    const char *cards;          /* the header's `cards` ("core@1.1.0"); NULL:
                                   not compared                               */
    const char *rules_differ;   /* T43: NULL when the header's levers (each
                                   absent one at its default) equal the
                                   event's (tournament_rules_json()); else the
                                   caller's sentence saying what differs      */
    tour_rec_status status;
    const char *first_bad;      /* ILLEGAL..NO_GAME: the first such verdict as
                                   "#seq rule: sentence" (T17); MISMATCH: the
                                   claims and the engine's findings (T18);
                                   may be NULL                                */
    int finished;               /* the engine says the game is over           */
    int winner;                 /* 0 none (or unfinished), 1 p1, 2 p2         */
    int claim_winner;           /* 0 no claim of a winner; 1 or 2: the record's
                                   `claim` named p1 or p2 the winner (T3)     */
    int64_t score[2];           /* p1's and p2's score at the record's end
                                   (T4: the opponent's monsters defeated;
                                   T5: base minus the opponent's LP).  The
                                   module clamps it to 0..base and gives a
                                   winner the base (T4, T5, T7)               */
    uint32_t rounds;            /* the game round of the last game event: the
                                   summary's `rounds` (T11); 0 before setup   */
    int ends_round;             /* the last game event is Player 2's `end`
                                   (claims and judges after it do not count) */
    const tour_mark *marks;     /* marks[i]: game round i+1 (T12, T19); NULL
                                   with nmarks 0 when no event has a time    */
    uint32_t nmarks;
    int has_deck[2];            /* the decklist was seen (judge view, T42)    */
    uint8_t deck[2][TOUR_HASH]; /* tournament_deck_hash() of each decklist    */
} tour_game;
/* ---- results ------------------------------------------------------------ */

/* A player's result in one round (T20, T21, T23). */
typedef enum {
    TOUR_PENDING,          /* no result yet (T16, T17, T19)                   */
    TOUR_WIN, TOUR_LOSS, TOUR_DRAW_WIN, TOUR_DRAW_LOSS,
    TOUR_INTENTIONAL_DRAW, TOUR_BYE, TOUR_UNPAIRED_LOSS, TOUR_DOUBLE_LOSS,
    TOUR_NO_RESULT         /* a dropped player's side of a pairing (T22)      */
} tour_outcome;

/* Where a result came from. */
typedef enum {
    TOUR_BY_NONE, TOUR_BY_ENGINE, TOUR_BY_TIME, TOUR_BY_ORGANISER, TOUR_BY_JUDGE
} tour_by;

/* One published pairing's result.  player[1] is -1 for a bye pairing. */
typedef struct {
    uint32_t round;
    const char *table;          /* NULL for a bye pairing                     */
    uint32_t game;              /* elimination rounds: Game #; else 0         */
    int elimination;
    int player[2];              /* the pairing's players, in the file's order */
    tour_outcome outcome[2];
    int64_t score[2], mov[2];
    tour_by by;
    char match[TOUR_STR_MAX + 1];   /* the record that counts, or ""          */
    char why[TOUR_TEXT_MAX];        /* pending: why; else how ("at time", ...)*/
    int live;                   /* pending because the round is open (T16)    */
    const char *draw_seed;      /* T14: the seed of the draw-win draw, or NULL */
    int past_time_unchecked;    /* T12: no event had a time, case 4 unchecked */
    const char *judge, *judge_text; /* T19: the judge's result, when one      */
} tour_result;

typedef struct {
    const char *kind;           /* "unplaced", "two_games", ... (T45)         */
    const char *ruling;         /* "T2", ...                                  */
    uint32_t round;             /* 0 when the record has none                 */
    char table[TOUR_STR_MAX + 1];
    char match[TOUR_STR_MAX + 1];
    char players[2][TOUR_STR_MAX + 1];
    char text[TOUR_TEXT_MAX];   /* one sentence; names no hidden card (T45)   */
    int resolved;               /* a judge's result covers it (T19)           */
} tour_alarm;

typedef struct {
    tour_result *results;       /* every published pairing, round by round    */
    size_t n_results;
    tour_alarm *alarms;
    size_t n_alarms;
    int deck_check_skipped;     /* T42: some decklist was hidden              */
} tour_results;

/* Every published pairing's result and every alarm, from the file and n
 * games (any order; those of other tournaments are ignored).  0 and a new
 * tour_results in *out (destroy before t), or TOUR_ENOMEM, or TOUR_EINVAL
 * (n > TOUR_GAMES_MAX). */
int tournament_results(const tournament *t, const tour_game *games, size_t n, tour_results **out);
void tour_results_destroy(tour_results **r);

/* ---- for the other modules of src/tournament/ ------------------------------ */

/* T20: event points of each outcome, indexed by tour_outcome. */
extern const int64_t tour_outcome_points[];

/* T30: how each outcome counts for Swiss grouping: 'w' win, 'd' draw, 'l'
 * loss, 0 nothing (T21: a bye is a win; T23: an unpaired loss a loss). */
extern const char tour_outcome_group[];

/* Swiss grouping counts (T30), kept round by round for T32's check. */
typedef struct {
    uint32_t w, d, l, byes;
} tour_wdl;

/* Count one outcome into c. */
void tour_wdl_count(tour_wdl *c, tour_outcome o);

/* Y's group is the same as X's or lower (T30's order). */
int tour_wdl_same_or_lower(const tour_wdl *y, const tour_wdl *x);

/* The side (0, 1) that won an elimination pairing, or -1 while it has no
 * winner (pending, or nobody advances: T37). */
int tour_result_winner(const tour_result *rr);

#endif
