/* advancedscript.h -- a scripted Advanced game for the Criterion suites.
 *
 * Use: adv_start(hidden, rules) starts a match (p1 carol with the deck of
 * fixtures/decks/advanced/legal-coreon-ember.json, p2 dave with
 * legal-obscura-night.json; `rules` is the body of a header `rules` map or
 * NULL); adv_open() plays the usual opening hands (P1_OPEN, P2_OPEN), after
 * which it is Player 1's first turn, Main Phase; ok() plays an event that
 * must be legal, illegal() one that must be illegal citing `rule`, play()
 * returns the verdict.  Event bodies are JSON members without braces,
 * match and seq: "\"type\":\"end\",\"by\":\"p1\"".  The state is `st`;
 * `seq` is the next event's seq.
 *
 * adv_rewrite_card(id, from, to), called before adv_start(), plays the
 * match with a card database that is fixtures/cards/core.json with one
 * text rewritten in that card's "advanced" properties (the first `from`
 * after them becomes `to`), for the selectors and values no core card has:
 * adv_rewrite_card("cor-meltdown", "\"opp_monster\"", "\"monster\"").
 * Calls add up; each test runs in its own process, so the next test starts
 * from core.json again.
 */
#ifndef ARBITER_TESTS_ADVANCEDSCRIPT_H
#define ARBITER_TESTS_ADVANCEDSCRIPT_H

#include <stdint.h>

#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/advanced/advanced.h"
#include "verifiers/cards.h"

#define P1_OPEN "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]"
#define P2_OPEN                                                                                             \
    "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-umbral-decoy\",\"obs-night-terror\",\"obs-soul-siphon\"," \
    "\"obs-veil-assassin\"]"

extern cards *db;
extern advanced_state st;
extern uint64_t seq;

olverdict adv_start(const char *hidden, const char *rules);
/* The same with the decks of two deck files (paths under the source tree). */
olverdict adv_start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck);
void adv_open(void);
void adv_rewrite_card(const char *id, const char *from, const char *to);
/* The header adv_start() plays, as JSON text (malloc'd). */
char *adv_header_text(const char *hidden, const char *rules);
/* The opening hands given as JSON lists of hrefs. */
void adv_open_with(const char *p1cards, const char *p2cards);
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

/* {"c": hex} for card id with the hex nonce, as openlog.md 6 defines it. */
void commit_of(const char *id, const char *nonce, char out[80]);
/* A legal selection by `by` of the n cards ids, each committed with the
 * same nonce (commit mode). */
void select_committed(const char *by, const char *const ids[], int n, const char *nonce);

#endif
