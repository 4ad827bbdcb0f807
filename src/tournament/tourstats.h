/* tourstats.h -- a tournament's statistics (TOURNAMENT.md T46): the cards
 * and classes shown, decklists' classes, the rules broken most often, game
 * length, and the live progress of a round.
 *
 * Pure, like src/tournament/tournament.h: it reads no file and no store.  The caller
 * (src/tournament/tourrec.h) gathers per record, in the one pass that judges it, what
 * the record showed in the PUBLIC view (src/core/view.h): each player's cards
 * and how many times, with their classes; its verdicts counted by rule;
 * its events; and, from the header, each decklist's cards per class.  This
 * module adds them up per format and per round (and in total) against the
 * results tournament_results() gave.
 *
 *   tourstats_new()      records + results -> the statistics
 *   tourstats_json()     version 1 JSON (arbiter-tournament(1), stats)
 *   tourstats_csv()      one table as RFC 4180 CSV
 *
 * Counting (T46).  A card counts for a player in a game when an event the
 * engine applied (verdict ok or warning) shows it in the public view, so
 * the figures are the same from every view.  *games* of a card or class:
 * the player-games in which it was shown (a game in which both players
 * showed it counts once for each); *appearances*: the times shown; *wins*
 * over *results*: those player-games the player won, over those with a
 * result (a draw win is a draw, not a win).  Every record of the
 * tournament counts, with or without a result; intentional draws and byes
 * are not games.  Decklists' classes are given only when opts->judge_view
 * or the file says "decklists_public": true.
 *
 * LIFETIMES.  The statistics point into t (player ids, tables), r (match
 * ids) and the records' strings (card ids, rules, match ids): destroy
 * them before any of those.  Records may be freed only after.
 *
 * ERRORS.  0, TOUR_ENOMEM, or TOUR_EINVAL (tourstats_csv: no such table).
 */
#ifndef ARBITER_TOURSTATS_H
#define ARBITER_TOURSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "src/tournament/tourresult.h"

#define TOURSTATS_CLASSES 5        /* coreon, fluxion, synaphera, obscura,
                                      aetherion: the card database's order  */

/* ---- what the caller gathers per record ---------------------------------- */

/* One card a player showed in a record, and how many times. */
typedef struct {
    const char *card;              /* the card id                           */
    int cls;                       /* 0..TOURSTATS_CLASSES-1; -1: unknown   */
    uint32_t times;
} tourstats_card;

/* A verdict's kind; and, at a table that pauses for a judge's remedy
 * (SPEC.md 8.1), an illegal action by its remedy: let stand, or backed up
 * (the rule is the illegal action's). */
typedef enum {
    TOURSTATS_ILLEGAL, TOURSTATS_MISMATCH, TOURSTATS_WARNING, TOURSTATS_STOOD, TOURSTATS_BACKED_UP,
    TOURSTATS_VERDICTS
} tourstats_verdict;

/* One rule and how many verdicts of one kind cite it in a record. */
typedef struct {
    tourstats_verdict verdict;
    const char *rule;              /* the verdict's rule, or its status name */
    uint32_t count;
} tourstats_rule;

typedef struct {
    const tour_game *g;            /* the record as tournament_results() had it */
    uint64_t events;               /* events with a seq, the header included */
    const tourstats_card *shown[2];   /* p1's and p2's, any order, each card once */
    size_t n_shown[2];
    const tourstats_rule *rules;   /* each (verdict, rule) once              */
    size_t n_rules;
    int has_deck[2];               /* the header's decklist was read         */
    uint32_t deck[2][TOURSTATS_CLASSES];   /* its cards per class            */
    uint32_t deck_unknown[2];      /* its cards of no known class            */
} tourstats_record;

typedef struct {
    int judge_view;                /* a judge-view export (decklists shown)  */
    uint32_t round;                /* 0: every round and the total; R: round R
                                      only (progress too)                    */
    /* registered decklists' classes, one per player of t (NULL: none known) */
    const int *registered_has;
    const uint32_t (*registered)[TOURSTATS_CLASSES];
} tourstats_opts;

/* ---- what it computes ----------------------------------------------------- */

typedef struct {
    const char *name;              /* a card id, or a class name             */
    int cls;                       /* the card's class (-1 unknown)          */
    uint64_t games, appearances, wins, results;
} tourstats_count;

typedef struct {
    tourstats_verdict verdict;
    const char *rule;
    uint64_t count;
    const char **matches;          /* the records citing it, each once      */
    size_t n_matches;
} tourstats_rule_row;

typedef struct {
    uint64_t games, events_total, events_min, events_max, rounds_total, rounds_min, rounds_max;
} tourstats_length;

/* One format in one round (round 0: all rounds). */
typedef struct {
    const char *format;
    uint32_t round;
    uint64_t records;
    tourstats_count *cards;        /* by games, appearances, then id        */
    size_t n_cards;
    tourstats_count classes[TOURSTATS_CLASSES];
    tourstats_rule_row *rules;     /* by count, then verdict, then rule     */
    size_t n_rules;
    tourstats_length finished, at_time;
    const char **matches_block;    /* private: what rules[].matches point into */
} tourstats_scope;

typedef enum {
    TOURSTATS_NO_RECORD, TOURSTATS_IN_PROGRESS, TOURSTATS_FINISHED, TOURSTATS_AT_TIME, TOURSTATS_ALARM
} tourstats_state;

/* One pairing of the progress round (byes and intentional draws left out). */
typedef struct {
    uint32_t round;
    const char *table;
    int player[2];
    tourstats_state state;
    uint32_t game_round;           /* in progress: the record's game round  */
    const char *match;             /* "" without a record                   */
    const char *alarms[4];         /* the open alarms' kinds (at most 4)    */
    size_t n_alarms;
} tourstats_progress;

/* One decklist's classes: registered in the file, or played in a record. */
typedef struct {
    const char *player;
    int played;                    /* 0 registered, 1 played                */
    uint32_t round;                /* played: the record's round            */
    const char *match;             /* played: the record; else ""           */
    uint32_t classes[TOURSTATS_CLASSES], unknown, cards;
} tourstats_deck;

typedef struct tourstats {
    const tournament *t;
    int judge_view, decklists_shown;
    uint32_t round;                /* opts->round                           */
    uint32_t progress_round;       /* R, or the last round published (0: none) */
    tourstats_scope *scopes;       /* by format, total first, then rounds   */
    size_t n_scopes;
    tourstats_progress *progress;
    size_t n_progress;
    tourstats_deck *decks;         /* empty unless decklists_shown          */
    size_t n_decks;
} tourstats;

/* The statistics of n records (those of other tournaments are ignored)
 * with the results r of the same tournament t.  0 and *out, or
 * TOUR_ENOMEM. */
int tourstats_new(const tournament *t, const tour_results *r, const tourstats_record *recs, size_t n,
                  const tourstats_opts *opts, tourstats **out);
void tourstats_destroy(tourstats **s);

/* "illegal", "mismatch", "warning", "stood", "backed_up"; a state's name ("no_record",
 * "in_progress", "finished", "at_time", "alarm"); a class's name. */
const char *tourstats_verdict_name(tourstats_verdict v);
const char *tourstats_state_name(tourstats_state s);
const char *tourstats_class_name(int cls);

/* The statistics as JSON, version 1 (arbiter-tournament(1)): appended to out, compact.
 * 0 or TOUR_ENOMEM. */
int tourstats_json(const tourstats *s, jtext *out);

/* One table as CSV (RFC 4180, CRLF, header row first): "cards", "classes",
 * "rules", "length", "progress" or "decklists".  0, TOUR_EINVAL (no such
 * table), TOUR_ENOMEM. */
int tourstats_csv(const tourstats *s, const char *table, jtext *out);

/* The table names tourstats_csv() knows, NULL-terminated; whether name
 * is one of them. */
extern const char *const tourstats_tables[];
int tourstats_is_table(const char *name);

#endif
