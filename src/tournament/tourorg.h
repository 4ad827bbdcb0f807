/* tourorg.h -- the organiser's edits of a tournament file, as JSON trees.
 *
 * `arbiter tournament new`, `add`, `drop`, `late-entry`, `publish`,
 * `result`, `time-call` and `close` (src/cli/cmd_organise.c) each change
 * the tournament file (arbiter-tournament(5)) in one way.  This module is
 * that change and nothing else: a JSON tree in, the same tree edited, no
 * file, no clock, no time zone.  The caller reads the file, edits a copy of
 * its tree here, has tournament_load() validate the text of the result
 * (the validation every reader runs), and only then writes it.
 *
 * The checks here are those the format cannot make alone: what the
 * organiser asks must make sense now (the player exists, the round is the
 * current one, a player who is playing does not enter late).  Each refusal
 * is one sentence in err, naming what is wrong.
 *
 * ERRORS.  Every edit returns TOURORG_OK, TOURORG_EREFUSED (err says why)
 * or TOURORG_ENOMEM.  On an error the tree may be half edited: edit a copy
 * (json_deep_copy()) and drop it on error.
 *
 * "The current round" is the last round of `rounds` (0 before any): the one
 * being played, or just played.  A round counts as published when it is
 * listed with pairings.
 */
#ifndef ARBITER_TOURORG_H
#define ARBITER_TOURORG_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

enum { TOURORG_OK = 0, TOURORG_ENOMEM = -1, TOURORG_EREFUSED = -2 };

/* What `new` writes (the keys of arbiter-tournament(5)).  Strings may be
 * NULL when optional; rules is an object of levers (borrowed; NULL: none).
 * The structure is `table` ("basic" or "advanced"), or swiss_rounds and
 * cut ("0", "4", ..., "32", or "all" with swiss_rounds 0). */
typedef struct {
    const char *id, *name, *format, *cards, *seed, *timezone;
    const json_t *rules;
    const char *table;
    int has_swiss;
    uint32_t swiss_rounds;
    const char *cut;
    uint32_t round_minutes;     /* 0: absent */
    const char *tier;           /* relaxed, formal, premier (T47); NULL: absent */
    int decklists_public;       /* 1: "decklists_public": true (T46)           */
    int cut_on_later_day;       /* 1: "cut_on_later_day": true (T33)           */
} tourorg_event;

/* A new file's tree: version 1, the event, no player.  TOURORG_EREFUSED
 * when the structure is given twice or not at all, or the cut is no
 * number. */
int tourorg_new(const tourorg_event *e, json_t **out, char *err, size_t errlen);

/* One `--rule k=v` into the object rules: v an integer, true or false.
 * TOURORG_EREFUSED for anything else, or a lever given twice. */
int tourorg_lever(json_t *rules, const char *kv, char *err, size_t errlen);

/* The current round (above), and whether it is closed. */
uint32_t tourorg_current_round(const json_t *root, int *closed);

/* The next round to publish: the last round listed with pairings, plus 1. */
uint32_t tourorg_next_round(const json_t *root);

/* The round object of round r, or NULL. */
json_t *tourorg_round(const json_t *root, uint32_t r);

/* Registration: a player of id and name, with deck (a decklist object in a
 * header's shape, borrowed, copied; NULL: none).  Refused once round 1 is
 * published (a late entry then) or when the id is taken. */
int tourorg_add(json_t *root, const char *id, const char *name, const json_t *deck, char *err, size_t errlen);

/* A late entry (T23) into round `round` (0: the next round to publish): a
 * new player (name required, deck as in tourorg_add) or one who dropped
 * and rejoins (name and deck must be NULL).  The round must not be
 * published yet. */
int tourorg_late_entry(json_t *root, const char *id, const char *name, const json_t *deck, uint32_t round,
                       char *err, size_t errlen);

/* A drop (T22): reason "drop", "no_show" or "disqualified", after round
 * `after` (-1: the current round; 0: before round 1).  Refused for a
 * player who is not playing, or a round not yet published. */
int tourorg_drop(json_t *root, const char *id, const char *reason, long after, char *err, size_t errlen);

/* Publish round `round`: the next one (or the current one when it is
 * listed without pairings).  pairings is the list in the file's shape
 * (tournament_pairings_json()'s "pairings"; borrowed, copied); seed, when
 * not NULL, is written as the round's seed (a seed arbiter made, T27, so
 * that the draw can be made again); started is the round clock's start,
 * ms since the epoch (0: none). */
int tourorg_publish(json_t *root, uint32_t round, const json_t *pairings, const char *seed, uint64_t started,
                    char *err, size_t errlen);

/* A head judge's result (T19), the file's judge result object:
 *   result    "win" (with winner), "draw" (draw_win: the player given the
 *             draw win, T14; NULL: a plain draw), "engine" (the record's own
 *             outcome stands, e.g. an illegal record let stand), "at_time"
 *             (judged at the time call, T12) or "double_loss";
 *   winner, draw_win  player ids of that pairing, or NULL;
 *   match     the record that counts when a pairing has two, or NULL;
 *   scores    an object of the two players' scores (borrowed, copied), or
 *             NULL (tourorg_scores() makes one from "id=N,id=N");
 *   judge, text  who decided, and why (a sentence). */
typedef struct {
    const char *result, *winner, *draw_win, *match;
    const json_t *scores;
    const char *judge, *text;
} tourorg_ruling;

/* The head judge's result for round `round`'s table (published, open or
 * closed: a judge may settle a closed round).  A result already given for
 * that table is replaced, and *replaced set to 1 (may be NULL).  Refused:
 * a table the round has not, a winner or draw_win or score of a player who
 * does not play there, a winner with a result other than "win". */
int tourorg_result(json_t *root, uint32_t round, const char *table, const tourorg_ruling *j, int *replaced,
                   char *err, size_t errlen);

/* "id=N,id=N" (N a whole number, 0 or more) into a new object in
 * *out.  TOURORG_EREFUSED for anything else, or an id given twice. */
int tourorg_scores(const char *text, json_t **out, char *err, size_t errlen);

/* What the players of round `round`'s table reported to the organiser
 * (T3: compared with the record, never counted): the winner, or a draw
 * (winner NULL), and their scores (NULL: none).  Replaces an earlier report
 * of that table (*replaced set, may be NULL).  The round must be the
 * current one, published; closed or not. */
int tourorg_report(json_t *root, uint32_t round, const char *table, const char *winner, const json_t *scores,
                   int *replaced, char *err, size_t errlen);

/* An intentional draw (T15) agreed at round `round`'s table: the current
 * round, open, a Swiss round (refused at an elimination table, whose
 * pairings carry a game number). */
int tourorg_intentional_draw(json_t *root, uint32_t round, const char *table, char *err, size_t errlen);

/* Time called (T12) at ms since the epoch in the current round, open: the
 * whole round (table NULL), or one table (an extension).  Refused before
 * the round's start when the round has one. */
int tourorg_time_call(json_t *root, uint32_t round, const char *table, uint64_t ms, char *err, size_t errlen);

/* Close the current round (T16): "closed": true. */
int tourorg_close(json_t *root, uint32_t round, char *err, size_t errlen);

#endif
