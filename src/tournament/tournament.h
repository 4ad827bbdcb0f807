/* tournament.h -- a Mintayn tournament from its file and its verified games:
 * results, standings, Swiss and elimination pairings, the cut, alarms.
 *
 * The rulings are TOURNAMENT.md's (T1-T47, cited "T<n>"); the file format
 * is arbiter-tournament(5).  This module is pure: it reads no
 * store, no socket and no file.  The caller gives it the tournament file's
 * text and one tour_game per verified record; everything else is computed.
 *
 *   tournament_load()        file text -> tournament (validated, refused
 *                            with one sentence naming the path)
 *   tournament_results()     tournament + games -> every pairing's result
 *                            and every alarm (T1-T19, T22, T23, T31, T32,
 *                            T42, T43, T45)
 *   tournament_standings()   results -> the standings after a Swiss round
 *                            (T20-T28)
 *   tournament_final()       results -> the final order (T38)
 *   tournament_cut()         results -> the seeds of the cut (T33)
 *   tournament_pair()        results -> the pairings of the next round
 *                            (T29-T32 Swiss, T34-T37 elimination)
 *   tournament_*_json/_csv   the outputs, into a growable buffer (jtext)
 *
 * LIFETIMES.  A tournament owns its strings: every `const char *` it hands
 * out lives until tournament_destroy().  Results, standings and pairings
 * point into their tournament (player ids, tables, seeds) and must be
 * destroyed before it; they copy what they need from the caller's games
 * (match ids, sentences), so the games may be freed once
 * tournament_results() returns.
 *
 * ERRORS.  Functions that can fail return 0, or TOUR_ENOMEM (out of
 * memory), TOUR_EINVAL (the file is refused, or the request cannot be met:
 * `err` says why in one sentence) or TOUR_EPENDING (a pairing or a cut
 * asked for while a result it needs is missing: `err` names the games).
 * On error *out is NULL.
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
 * COST.  With P players, R rounds and G games: results O(G log G + P R);
 * standings O(P R + P log P); a Swiss pairing O(P log P + P D^2) plus an
 * exhaustive search over at most 2D + 3 players, D the most opponents any
 * player has met (T30; tournament.c says why that is enough), itself cut
 * off after TOUR_SEARCH_MAX steps per rematch allowance.  10,000 players
 * over 15 rounds take well under a second for each.
 */
#ifndef ARBITER_TOURNAMENT_H
#define ARBITER_TOURNAMENT_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"

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

/* ---- the file ------------------------------------------------------------ */

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

/* Parse and validate the tournament file (arbiter-tournament(5)): `json`
 * is len bytes of UTF-8 (no NUL needed).  0 and a new tournament in *out,
 * or TOUR_EINVAL with one sentence in err naming the path
 * (`"rounds[2].pairings[0].p2" names no player.`), or TOUR_ENOMEM.
 * What breaks a tournament rule but not the format (a rematch, a player
 * paired twice, a dropped player paired) is not refused: it is an alarm of
 * tournament_results().  When neither the file nor a round has a seed, one
 * is made (T27: 32 hex digits from the system's random source) and
 * tournament_seed() says so. */
int tournament_load(const char *json, size_t len, tournament **out, char *err, size_t errlen);

/* Free; NULL-safe; sets *t to NULL. */
void tournament_destroy(tournament **t);

/* The `--seed` of T27: used where the file gives no seed (it replaces a
 * made one).  0, TOUR_EINVAL (empty or longer than TOUR_STR_MAX), or
 * TOUR_ENOMEM. */
int tournament_set_seed(tournament *t, const char *seed);

/* The seed of draws without a more specific one; *made (may be NULL) is
 * set to 1 when arbiter made it (T27: print it and warn). */
const char *tournament_seed(const tournament *t, int *made);

const char *tournament_id(const tournament *t);

/* The tournament of id `id` among list[0..n-1] (NULL entries skipped), or
 * NULL (id NULL too). */
const tournament *tournament_by_id(tournament *const *list, size_t n, const char *id);
const char *tournament_name(const tournament *t);
ol_format tournament_format(const tournament *t);
const char *tournament_format_name(const tournament *t);   /* "snap", ... */

/* The base of scores and MOV (T4, T5), a fact of the format's engine
 * (verifier_ops.score_base): 5 in Snap; in Advanced and Master the
 * `starting_lp` lever of the file's rules (score_base_lever), else 6000 or
 * 8000. */
int64_t tournament_base(const tournament *t);

const tour_structure *tournament_structure(const tournament *t);

/* round_minutes of the file (T41), 0 when absent: shown, never used. */
uint32_t tournament_round_minutes(const tournament *t);

/* The round clock: the file's "timezone" (NULL when absent) and round r's
 * "started", ms since the Unix epoch (0 when absent or no such round). */
const char *tournament_timezone(const tournament *t);
uint64_t tournament_round_started(const tournament *t, uint32_t r);

/* The structure tables as data (T39, T40): *n rows, static. */
const tour_table_row *tournament_structure_table(int advanced, size_t *n);

size_t tournament_player_count(const tournament *t);
const tour_player *tournament_player(const tournament *t, size_t i);

/* The index of the player with that id, or -1. */
int tournament_player_index(const tournament *t, const char *id);

/* Rounds published in the file (the last round's number). */
uint32_t tournament_rounds_published(const tournament *t);

/* The hash arbiter compares decklists by (T42): BLAKE2b-256 over the card
 * ids of each list, sorted bytewise -- Snap's `monsters`, `supports` and
 * `reserve` (a missing list is empty), Advanced and Master's `main` -- so
 * that card order does not matter.  `json` is the decklist object as
 * text, as in a header's players.pX.deck.  0, TOUR_EINVAL (not a decklist
 * object: an unknown key, a list that is not of strings) or TOUR_ENOMEM. */
int tournament_deck_hash(const char *json, size_t len, uint8_t out[TOUR_HASH]);

/* ---- T27: the random stream -------------------------------------------- */

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

/* The file's `rules` as compact JSON text ("{}" when absent), for the
 * caller's T43 comparison of levers. */
const char *tournament_rules_json(const tournament *t);

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

/* ---- standings ---------------------------------------------------------- */

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

/* ---- pairings ----------------------------------------------------------- */

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

/* ---- outputs ------------------------------------------------------------ */

/* Standings as JSON (appended to out, compact), version 1:
 *   {"version":1,"tournament":ID,"after_round":R,"final":bool,
 *    "provisional":bool,"seed":S,"seed_made":bool,"label":"standings R",
 *    "structure":{"kind":"basic"|"advanced"|"custom"|"elimination",
 *                 "swiss_rounds":S,"cut":N,"row":"4-8"|null,
 *                 "reconstructed":bool,"fell_back":bool},
 *    "standings":[{"place","player","name","event_points","wins","draws",
 *                  "losses","byes","rounds","mov","sos" (3 decimals),
 *                  "sos_exact" ("num/den"),"dropped","eliminated_in"}],
 *    "pending":[{"round","table","match","why"}]}
 * 0, or TOUR_ENOMEM (out->bad). */
int tournament_standings_json(const tournament *t, const tour_standings *s, jtext *out);

/* Pairings as JSON, version 1, each pairing in the file's own shape so it
 * can be pasted into `rounds`:
 *   {"version":1,"tournament":ID,"round":R,"stage":"swiss"|"elimination",
 *    "seed":S,"seed_made":bool,"labels":"pair R, bye R","rematches":n,
 *    "structure":{...as in the standings},
 *    "pairings":[{"table","p1","p2","game"?}|{"bye","game"?}]} */
int tournament_pairings_json(const tournament *t, const tour_pairings *p, jtext *out);

/* Alarms as JSON, version 1:
 *   {"version":1,"tournament":ID,"alarms":[{"alarm","ruling","round",
 *    "table","match","players":[..],"text","resolved"}]} */
int tournament_alarms_json(const tournament *t, const tour_results *r, jtext *out);

/* CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, a
 * quote, CR or LF, quotes doubled), header row first:
 *   standings: place,player,name,event_points,wins,draws,losses,byes,
 *              rounds,mov,sos,dropped,eliminated_in
 *   pairings:  round,table,game,p1,p2   (a bye: p2 empty)
 *   alarms:    alarm,ruling,round,table,match,p1,p2,text,resolved */
int tournament_standings_csv(const tournament *t, const tour_standings *s, jtext *out);
int tournament_pairings_csv(const tournament *t, const tour_pairings *p, jtext *out);
int tournament_alarms_csv(const tournament *t, const tour_results *r, jtext *out);

/* One CSV field as above (NULL is empty), then "," or, when last, CRLF;
 * an integer field.  For the other CSV writers (src/tournament/tourstats.c). */
void tournament_csv_field(jtext *out, const char *s, int last);
void tournament_csv_int(jtext *out, long long v, int last);

/* The file's "decklists_public" (T46). */
int tournament_decklists_public(const tournament *t);

/* Each card id of player i's registered decklist (every list of it), given
 * to fn; 0, or what fn returned when it was not 0 (the walk stops). */
int tournament_player_deck_each(const tournament *t, size_t i, int (*fn)(void *ctx, const char *card), void *ctx);

#endif
