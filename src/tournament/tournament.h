/* tournament.h -- a Mintayn tournament file, loaded and validated.
 *
 * The rulings are TOURNAMENT.md's (T1-T47, cited "T<n>"); the file format
 * is arbiter-tournament(5).  None of these modules reads a store, a socket
 * or a file (tourrec.h gathers the records): the caller gives them the
 * tournament file's text and one tour_game per verified record; everything
 * else is computed, one concern per module, and all but this one are pure
 * (tests/e2e_purity.sh; this one parses with jansson and may take a made
 * seed from the system, T27):
 *
 *   tournament.h   tournament_load(): file text -> tournament (validated,
 *                  refused with one sentence naming the path); what the
 *                  file says (players, structure, seeds, rules, decklists)
 *   tourresult.h   tournament_results(): tournament + games -> every
 *                  pairing's result and every alarm (T1-T19, T22, T23, T31,
 *                  T32, T42, T43, T45)
 *   tourstand.h    tournament_standings(), _final(), _cut(): results -> the
 *                  standings after a Swiss round (T20-T28), the final order
 *                  (T38), the seeds of the cut (T33)
 *   tourpair.h     tournament_pair(): results -> the pairings of the next
 *                  round (T29-T32 Swiss, T34-T37 elimination)
 *   tourout.h      tournament_*_json/_csv: the outputs, into a growable
 *                  buffer (jtext)
 *   tourdraw.h     tour_stream_*: the seeded random stream of T27
 *   tourtypes.h    the bounds (TOUR_*_MAX), the error codes, the player and
 *                  structure records
 *
 * LIFETIMES.  A tournament owns its strings: every `const char *` it hands
 * out lives until tournament_destroy().  Results, standings and pairings
 * point into their tournament and must be destroyed before it.
 *
 * ERRORS.  As tourtypes.h says: 0, TOUR_ENOMEM, TOUR_EINVAL with one
 * sentence in err, or TOUR_EPENDING; on error *out is NULL.
 *
 * COST.  Loading is linear in the file, plus one sort of the players, of
 * each round's tables and of the judges' results.  10,000 players over 15
 * rounds take well under a second for each of results, standings and a
 * pairing (bench/).
 */
#ifndef ARBITER_TOURNAMENT_H
#define ARBITER_TOURNAMENT_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"
#include "src/tournament/tourtypes.h"

/* ---- the file ------------------------------------------------------------ */

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

/* The round clock's end: round r's start plus round_minutes, ms since the
 * Unix epoch; 0 when the round has no start or the file no round_minutes. */
uint64_t tournament_round_ends(const tournament *t, uint32_t r);

/* 1 when round r is listed and "closed" (T16), else 0. */
int tournament_round_closed(const tournament *t, uint32_t r);

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

/* The file's `rules` as compact JSON text ("{}" when absent), for the
 * caller's T43 comparison of levers. */
const char *tournament_rules_json(const tournament *t);

/* The file's "decklists_public" (T46). */
int tournament_decklists_public(const tournament *t);

/* Each card id of player i's registered decklist (every list of it), given
 * to fn; 0, or what fn returned when it was not 0 (the walk stops). */
int tournament_player_deck_each(const tournament *t, size_t i, int (*fn)(void *ctx, const char *card), void *ctx);

#endif
