/* masterscript.h -- a scripted Master game for the Criterion suites.
 *
 * Use: mst_start(hidden, rules) starts a match (p1 carol with the deck of
 * fixtures/decks/master/legal-coreon-ember.json, p2 dave with
 * legal-obscura-night.json; `rules` is the body of a header `rules` map or
 * NULL); mst_open() plays the usual opening hands (P1_OPEN, P2_OPEN), after
 * which it is Player 1's first turn, Mana Step.  Events are played and
 * judged with duelscript.h (ok, illegal, expect, play, summon, ...), which
 * Master shares with Advanced; the state is `st`.
 *
 * mst_turn(by, mana, selected) plays the start of a turn: the card `mana`
 * placed as mana of its class (open mode; NULL places none), then the
 * Selection Step's card.  mst_deck_with(deck, from, to) is a deck file's
 * list with the copies of `from` replaced one by one by the cards `to`
 * names, for a duel_script_start() that takes it in place of a file.
 *
 * mst_rewrite_card(id, from, to), called before mst_start(), rewrites one
 * text in that card's "master" properties (duel_script_rewrite_card).
 */
#ifndef ARBITER_TESTS_MASTERSCRIPT_H
#define ARBITER_TESTS_MASTERSCRIPT_H

#include "tests/duelscript.h"
#include "verifiers/master/master.h"

#define P1_DECK "fixtures/decks/master/legal-coreon-ember.json"
#define P2_DECK "fixtures/decks/master/legal-obscura-night.json"

/* Player 1: Ember Whelp, Cinder Hound, Forge Golem, Searing Brand, Kindle
 * Fury, Backdraft, Stoke the Forge.  Player 2: Umbral Kitten, Crypt Rat,
 * Grave Bat, Night Terror, Void Denial, Hollow Mask, Shadow Step, Umbral
 * Decoy. */
#define P1_OPEN                                                                                                        \
    "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-forge-golem\",\"cor-searing-brand\",\"cor-kindle-fury\","         \
    "\"cor-backdraft\",\"cor-stoke-the-forge\"]"
#define P2_OPEN                                                                                                        \
    "[\"obs-umbral-kitten\",\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-night-terror\",\"obs-void-denial\","             \
    "\"obs-hollow-mask\",\"obs-shadow-step\",\"obs-umbral-decoy\"]"

/* Event bodies (SPEC.md 7.4); `pay` and `targets` are JSON text. */
#define MANA(by, card, cls) "\"type\":\"mana\",\"by\":\"" by "\",\"card\":\"" card "\",\"class\":\"" cls "\""
#define MANA_AS(by, href, cls) "\"type\":\"mana\",\"by\":\"" by "\",\"card\":" href ",\"class\":\"" cls "\""
#define REMOVE(by, card) "\"type\":\"mana_remove\",\"by\":\"" by "\",\"card\":\"" card "\""
#define NORMAL(by, slot, card, pos)                                                                                    \
    "\"type\":\"summon\",\"kind\":\"normal\",\"by\":\"" by "\",\"slot\":" #slot ",\"card\":\"" card                    \
    "\",\"position\":\"" pos "\""
#define MANA_SUMMON(by, slot, card, pos, pay)                                                                          \
    "\"type\":\"summon\",\"kind\":\"mana\",\"by\":\"" by "\",\"slot\":" #slot ",\"card\":\"" card                      \
    "\",\"position\":\"" pos "\",\"pay\":" pay
#define CAST(by, card, targets, pay)                                                                                   \
    "\"type\":\"spell\",\"by\":\"" by "\",\"card\":\"" card "\",\"targets\":" targets ",\"pay\":" pay
#define ANSWER(by, card, targets, pay)                                                                                 \
    "\"type\":\"counter\",\"by\":\"" by "\",\"card\":\"" card "\",\"targets\":" targets ",\"pay\":" pay
#define STRIKE(by, slot, index, target, pay)                                                                           \
    "\"type\":\"attack\",\"by\":\"" by "\",\"slot\":" #slot ",\"attack\":" #index ",\"target\":" target            \
    ",\"pay\":" pay
#define GROW(by, slot, card, pay)                                                                                      \
    "\"type\":\"evolve\",\"by\":\"" by "\",\"slot\":" #slot ",\"card\":\"" card "\",\"pay\":" pay
#define SINGULAR(by, card, slot, targets, pay)                                                                         \
    "\"type\":\"prime\",\"by\":\"" by "\",\"card\":\"" card "\",\"slot\":" #slot ",\"targets\":" targets          \
    ",\"pay\":" pay
#define SWITCH(by, slot) "\"type\":\"position\",\"by\":\"" by "\",\"slot\":" #slot
#define TOSS(by, card) "\"type\":\"discard\",\"by\":\"" by "\",\"card\":\"" card "\""
#define SILENT(by) "\"type\":\"pass\",\"by\":\"" by "\""
#define PICK(by, cards) "\"type\":\"select\",\"by\":\"" by "\",\"cards\":" cards

/* Payments: {"coreon": n}, {"obscura": n}; nothing. */
#define COR(n) "{\"coreon\":" #n "}"
#define OBS(n) "{\"obscura\":" #n "}"
#define FREE "{}"
/* Targets: a monster of p1 or p2, a player. */
#define AT1(s) "{\"p\":\"p1\",\"s\":" #s "}"
#define AT2(s) "{\"p\":\"p2\",\"s\":" #s "}"
#define P1 "{\"p\":\"p1\"}"
#define P2 "{\"p\":\"p2\"}"

olverdict mst_start(const char *hidden, const char *rules);
olverdict mst_start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck);
void mst_open(void);
#define mst_open_with duel_script_open_with
void mst_rewrite_card(const char *id, const char *from, const char *to);
void mst_rewrite_effect(const char *id, const char *op, const char *target, const char *to);
void mst_turn(const char *by, const char *mana, const char *selected);
/* "coreon", ...: the class of a core card by its id's prefix. */
const char *mst_class_of(const char *id);
char *mst_deck_with(const char *deck, const char *from, const char *const to[], int n);

#endif
