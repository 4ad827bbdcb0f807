/* advancedscript.h -- a scripted Advanced game for the Criterion suites.
 *
 * Use: adv_start(hidden, rules) starts a match (p1 carol with the deck of
 * fixtures/decks/advanced/legal-coreon-ember.json, p2 dave with
 * legal-obscura-night.json; `rules` is the body of a header `rules` map or
 * NULL); adv_open() plays the usual opening hands (P1_OPEN, P2_OPEN), after
 * which it is Player 1's first turn, Main Phase.  Events are played and
 * judged with duelscript.h (ok, illegal, expect, play, summon, ...), which
 * Advanced shares with Master; the state is `st`.
 *
 * adv_rewrite_card(id, from, to), called before adv_start(), rewrites one
 * text in that card's "advanced" properties (duel_script_rewrite_card):
 * adv_rewrite_card("cor-meltdown", "\"opp_monster\"", "\"monster\"").
 */
#ifndef ARBITER_TESTS_ADVANCEDSCRIPT_H
#define ARBITER_TESTS_ADVANCEDSCRIPT_H

#include "tests/duelscript.h"
#include "verifiers/advanced/advanced.h"

#define P1_OPEN "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]"
#define P2_OPEN                                                                                                        \
    "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-umbral-decoy\",\"obs-night-terror\",\"obs-soul-siphon\","          \
    "\"obs-veil-assassin\"]"

olverdict adv_start(const char *hidden, const char *rules);
/* The same with the decks of two deck files (paths under the source tree). */
olverdict adv_start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck);
void adv_open(void);
void adv_rewrite_card(const char *id, const char *from, const char *to);
/* The header adv_start() plays, as JSON text (malloc'd). */
char *adv_header_text(const char *hidden, const char *rules);
/* The opening hands given as JSON lists of hrefs. */
#define adv_open_with duel_script_open_with

#endif
