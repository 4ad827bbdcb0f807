/* duelscript.h -- a scripted duel (Advanced or Master) for the Criterion
 * suites: what the two formats' scripts share.
 *
 * Use: duel_script_start(format, hidden, rules, p1deck, p2deck) starts a
 * match of `format` ("advanced", "master": the engine of that name judges
 * it) between p1 carol and p2 dave with the `main` lists of two deck files
 * (paths under the source tree, or the lists themselves, "[...]");
 * `rules` is the body of a header `rules` map or NULL.
 * duel_script_open_with() plays the two opening selections.  ok() plays
 * an event that must be legal, illegal() one that must be illegal citing
 * `rule`, play() returns the verdict; every event is followed by
 * duel_check_invariants().  Event bodies are JSON members
 * without braces, match and seq: "\"type\":\"end\",\"by\":\"p1\"".  The
 * state is `st`; `seq` is the next event's seq.
 *
 * duel_script_rewrite_card(format, id, from, to), called before the start,
 * plays the match with a card database that is fixtures/cards/core.json
 * with one text rewritten in that card's properties for `format` (the first
 * `from` after them becomes `to`), for the selectors and values no core
 * card has.  Calls add up; each test runs in its own process, so the next
 * test starts from core.json again.
 *
 * Each format's script (advancedscript.h, masterscript.h) names its usual
 * decks and opening hands on top of this.
 */
#ifndef ARBITER_TESTS_DUELSCRIPT_H
#define ARBITER_TESTS_DUELSCRIPT_H

#include <stdint.h>

#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/duel.h"
#include "verifiers/verifier.h"

extern cards *db;
extern duel_state st;
extern uint64_t seq;

olverdict duel_script_start(const char *format, const char *hidden, const char *rules, const char *p1deck,
                            const char *p2deck);
/* The header duel_script_start() plays, as JSON text (malloc'd). */
char *duel_script_header_text(const char *format, const char *hidden, const char *rules, const char *p1deck,
                              const char *p2deck);
void duel_script_rewrite_card(const char *format, const char *id, const char *from, const char *to);
/* Rewrite the one effect of card `id` (core.json: "op" then "target", one
 * line each) to `to`, its members on one line: the database checks the op
 * and its target together, so they change together. */
void duel_script_rewrite_effect(const char *format, const char *id, const char *op, const char *target, const char *to);
/* The opening hands given as JSON lists of hrefs. */
void duel_script_open_with(const char *p1cards, const char *p2cards);

olverdict play_t(const char *body, uint64_t t);
olverdict play(const char *body);
void ok(const char *body);
void expect(olverdict v, ol_status status, const char *rule);
void illegal(const char *body, const char *rule);

/* Common events: a Normal Summon (position "ap" or "dp"), the end of a
 * turn, a Selection Step of one card. */
void summon(const char *by, int slot, const char *id, const char *position);
void end_turn(const char *by);
void select_one(const char *by, const char *id);

/* TOURNAMENT.md T9, in a game under way: p2 concedes, and the game is over
 * with p1 the winner (ops->finished); then p1 concedes, after the end:
 * illegal citing `rule` with openlog 8's sentence, and p1 still wins. */
void duel_script_concede_twice(const verifier_ops *ops, const char *rule);

/* TOURNAMENT.md T17: the record of the header text `header` and then the
 * event `next` (a body, at seq 1), judged on core.json as `arbiter verify`
 * and the tournament module judge a record (testutil.h judge_texts()):
 * the header's verdict is illegal citing `rule` (the module's
 * TOUR_REC_NO_GAME), so is the next event's, the record is neither
 * finished nor won, and no game round began. */
void duel_script_starts_no_game(const char *header, const char *next, const char *rule);

/* {"c": hex} for card id with the hex nonce, as openlog.md 6 defines it. */
void commit_of(const char *id, const char *nonce, char out[80]);
/* A legal selection by `by` of the n cards ids, each committed with the
 * same nonce (commit mode). */
void select_committed(const char *by, const char *const ids[], int n, const char *nonce);

/* The board of `st` as the judge sees it (sees both hands), or as one
 * player does, in JSON or in words; the caller frees the text. */
char *duel_script_board(int json, int sees_p1, int sees_p2);
/* That board has `want` (has 1) or has not (has 0). */
void board_has(int json, int sees_p1, int sees_p2, const char *want, int has);

#define HAS(text, what) cr_assert(strstr((text), (what)), "want <%s> in:\n%s", (what), (text))
#define HAS_NOT(text, what) cr_assert(!strstr((text), (what)), "do not want <%s> in:\n%s", (what), (text))

#endif
