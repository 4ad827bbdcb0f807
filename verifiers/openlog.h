/* openlog.h -- what the open log owns, whatever the format.
 *
 * Every Mintayn format is judged from the same open log (openlog.md): the
 * same envelope, the same three hidden modes, the same `claim`, `concede`
 * and `judge` events, the same end of the game.  This module is that
 * common part, written once; each engine (verifiers/<format>/) embeds an
 * openlog_match in its state and calls these functions, and owns only its
 * own rules.  Rule ids of the contract (openlog:6, openlog:commit, ...) are
 * cited here; where a format decides (which rule a claim that disagrees
 * breaks, how long the shot clock is), the engine passes its own id in.
 *
 * THE PIECES
 *   hidden cards (openlog.md 6)     openlog_card, openlog_take_href(),
 *                                   openlog_reveal(), openlog_known(),
 *                                   openlog_zone_find(), openlog_zone_match(),
 *                                   openlog_deck_take()
 *   who sees them (openlog.md 9)    openlog_sight, openlog_show() -- the
 *                                   sight comes from the one visibility rule,
 *                                   view_can_see() in src/core/view.c
 *   the judgement of one event      openlog_judgement, openlog_fail()
 *   the end of the game (3.4)       openlog_over(), openlog_end()
 *   the shot clock                  openlog_clock()
 *   concede, judge, claim           openlog_concede(), openlog_ruling(),
 *                                   openlog_claim(), openlog_defeated()
 *
 * INVARIANTS
 *   - over == 0 implies winner == -1; a winner is set only with over;
 *     draw implies over and winner == -1.
 *   - n_defeated <= OPENLOG_DEFEATS_MAX; the list holds the defeats since
 *     the last claim that matched (a claim compares, never applies).
 *   - An openlog_card knows its card, or its commitment, or nothing -- as
 *     the header's hidden mode says -- and never two of them at take time.
 *
 * Pure like every engine: no I/O, no clock, no globals.  Functions that
 * judge write their failure into the judgement's verdict: an illegal
 * action is a verdict, not an error.
 */
#ifndef ARBITER_OPENLOG_H
#define ARBITER_OPENLOG_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/deck.h"
#include "verifiers/rules.h"
#include "verifiers/undo.h"

#define OPENLOG_NAME_MAX 40      /* "p1 (alice)": ids are at most 32 bytes */
#define OPENLOG_DEFEATS_MAX 10   /* defeats between two claims: Snap's 2 x 5 */

/* A card whose identity may be hidden (openlog.md 6). */
typedef struct {
    const card *card;                 /* NULL when unknown              */
    uint8_t commit[OL_COMMIT_BYTES];
    uint8_t has_commit;
} openlog_card;

/* What the open log keeps of a match, whatever its format. */
typedef struct {
    const cards *db;
    ol_hidden hidden;
    char names[OL_PLAYERS_MAX][OPENLOG_NAME_MAX];  /* "p1 (alice)" per seat, for sentences */
    uint8_t over;
    int8_t winner;                    /* -1 none                        */
    uint8_t draw;                     /* over by a rule without a winner */
    uint64_t last_t;                  /* the shot clock: the previous `t` */
    uint8_t has_last_t;
    ol_ref defeated[OPENLOG_DEFEATS_MAX];  /* since the last claim     */
    uint8_t n_defeated;
    uint8_t forcing;                  /* the event is being made to stand
                                         by a judge's remedy (openlog_break);
                                         0 between events -- never encoded */
    uint8_t n_forced;                 /* rules it broke that were let stand */
    undo_log *undo;                   /* the undo log of the event being
                                         judged (verifiers/undo.h, R12), which
                                         every write of a handler notes in;
                                         NULL between events -- no part of the
                                         game, never encoded */
} openlog_match;

/* One event being judged: its verdict, and whether it already failed. */
typedef struct {
    openlog_match *m;
    const olevent *ev;
    olverdict *v;
    int failed;
} openlog_judgement;

/* Whose hidden cards a viewer sees: sees[p] for seat p (0 = p1, up to the
 * match's players).  Made by view_sight() from view_can_see(); engines obey
 * it, never decide it. */
typedef struct {
    uint8_t sees[OL_PLAYERS_MAX];
} openlog_sight;

/* Start the common part of a match from its header. */
void openlog_start(openlog_match *m, const cards *db, const ol_header *h);

/* The header's decks against their format's construction rules
 * (deck_check, under the header's levers), seat by seat in seat order --
 * written once for every engine's start.  Returns:
 *   0                 every deck is legal; v untouched
 *   1                 a deck is illegal: v is the header's verdict --
 *                     illegal, citing the first rule the first illegal
 *                     seat's deck breaks (SPEC.md 5: the match cannot start)
 *   OPENLOG_EINTERNAL the check could not run (out of memory): no
 *                     verdict at all -- never take it for legal or illegal;
 *                     the engine's start returns VERIFIER_ENOMEM. */
#define OPENLOG_EINTERNAL (-1)
/* memo: the caller's memo of legal decklists (verifiers/deck.h), or NULL. */
int openlog_check_decks(const olevent *header, const cards *db, deck_memo *memo, olverdict *v);

/* The seat of the event's `by`: 0 for p1, 1 for p2 ... 7 for p8; -1 for the
 * table or the judge.  verifier_apply() lets no seat past the match's reach
 * an engine. */
int openlog_player_of(const olevent *ev);

/* "p1 (alice)". */
static inline const char *openlog_who(const openlog_match *m, int p)
{
    return m->names[p];
}

/* "alice": the player's id, copied into out (cap bytes, truncated). */
void openlog_player_id(const openlog_match *m, int p, char *out, size_t cap);

/* Mark the event `st` (illegal, mismatch) citing `rule`, with a sentence;
 * the first failure of a judgement wins.  Returns -1, so that a check can
 * `return openlog_fail(...)`. */
int openlog_fail(openlog_judgement *j, ol_status st, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define OPENLOG_ILLEGAL(j, rule, ...) openlog_fail((j), OL_V_ILLEGAL, (rule), __VA_ARGS__)

/* A rule an action breaks that a judge may let stand (the remedy
 * "stands", SPEC.md 8.1).  Judged as usual it is OPENLOG_ILLEGAL and
 * returns 1: the handler stops, as after any failed check.  While a
 * judge's remedy makes the action stand (m->forcing, verifier_force), the
 * rule is let pass (counted in m->n_forced) and it returns 0: the handler
 * goes on and applies the action as announced.
 *
 * Use it only for a check after which the handler's writes are well
 * defined whatever the check found (a second Evolution in a turn, a
 * monster summoned in the wrong phase); a check whose failure means the
 * action cannot be carried out at all (a card that is not there, a slot
 * that does not exist) stays OPENLOG_ILLEGAL, and a remedy "stands" then
 * fails with its sentence: the judge must back up instead.  Written
 *     if (cond && OPENLOG_BREAK(j, "snap:13.3", "...")) return;  */
int openlog_break(openlog_judgement *j, const char *rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define OPENLOG_BREAK(j, rule, ...) openlog_break((j), (rule), __VA_ARGS__)

/* ---- hidden cards (openlog.md 6) ---- */

/* Take an href of an event into *out, checking its shape against the
 * match's mode (openlog:6) and a named card against the database
 * (openlog:cards).  `what` names it in a sentence ("p1's first card").
 * 0, or -1 with the judgement failed. */
int openlog_take_href(openlog_judgement *j, const ol_href *h, openlog_card *out, const char *what);

/* A hidden card is revealed as `id` (with `nonce` in commit mode): it must
 * be in the database, be the card known there (openlog:6) and open its
 * commitment (openlog:commit).  `where` names the place in a sentence.
 * 0 and the card in *out, or -1 with the judgement failed. */
int openlog_reveal(openlog_judgement *j, const openlog_card *h, const char *id, const char *nonce,
                   const char *where, const card **out);

/* Where card c (revealed with `nonce` in commit mode) is in a hidden zone
 * of n cards, such as a hand: a card known to be c first, then one whose
 * commitment c and nonce open, then -- when no identity or commitment is
 * kept (announced mode) -- any card not known.  The index, or -1 when c
 * cannot be there. */
int openlog_zone_find(const openlog_card *zone, int n, const card *c, const char *nonce);

/* Where the hidden card an href names (taken by openlog_take_href, not
 * revealed) is in a hidden zone of n cards, as a card moves from one
 * hidden zone to another without being shown (Master's hand to its Mana
 * Zone): the card known to be h's (open mode), the one committed with h's
 * commitment (commit mode), or -- announced mode -- any card not known.
 * The index, or -1. */
int openlog_zone_match(const openlog_card *zone, int n, const openlog_card *h);

/* A card leaves a player's decklist (openlog.md 6: a hidden card, once
 * revealed, "could have been there -- in the decklist, not already used";
 * in open mode, a card named when it is taken).  `list` and `used` are the
 * decklist's n cards and which of them are known to have left; an unused
 * copy of c is marked used.  0, or -1 with the judgement failed citing
 * openlog:6: "`what` c, which is not in `owner`'s `deck_word`", or "every
 * copy ... is already used".  `what` opens the sentence ("The Spell
 * reveals", "p1 (alice) selected"). */
int openlog_deck_take(openlog_judgement *j, const card *const *list, uint8_t *used, int n, const card *c,
                      int owner, const char *what, const char *deck_word);

/* 1 when the engine knows the card's identity. */
static inline int openlog_known(const openlog_card *h)
{
    return h->card != NULL;
}

/* ---- what a viewer is shown of a hidden card ---- */

typedef enum {
    OPENLOG_SHOWN_HIDDEN,     /* not for this viewer                    */
    OPENLOG_SHOWN_CARD,       /* the identity                           */
    OPENLOG_SHOWN_COMMITTED,  /* commit mode, not yet revealed          */
    OPENLOG_SHOWN_UNKNOWN     /* the engine does not know it (announced) */
} openlog_shown_kind;

typedef struct {
    openlog_shown_kind kind;
    const card *card;         /* OPENLOG_SHOWN_CARD                     */
} openlog_shown;

/* What `sight` is shown of a hidden card of `owner`. */
openlog_shown openlog_show(const openlog_sight *sight, int owner, const openlog_card *h);

/* The same for a hidden card the engine always knows (a decklist zone). */
openlog_shown openlog_show_known(const openlog_sight *sight, int owner, const card *c);

/* In a board's JSON: the card id, "committed", or null (hidden or unknown). */
void openlog_shown_json(jtext *t, openlog_shown sh);

/* In words: the card's name, "committed, not yet revealed", "unknown" or
 * "hidden".  Static storage or the card database's. */
const char *openlog_shown_words(openlog_shown sh);

/* ---- the end of the game ---- */

/* openlog.md 8 / the rulebooks' end of the game: once the game is over,
 * nothing follows but `judge` (a ruling after the end) and `claim` (the
 * table's account of the end).  When `ev` comes after the end, writes an
 * illegal verdict citing `rule` with `sentence` and returns 1; else 0. */
int openlog_over(const openlog_match *m, const olevent *ev, olverdict *v, const char *rule, const char *sentence);

/* The game ends now; winner a seat 0..n-1, or -1 for none. */
void openlog_end(openlog_match *m, int winner);

/* The game ends now in a draw: no winner, by a rule of the game (classic
 * Snap's locked pot) -- not a game that merely stopped (a refused
 * header).  Summaries say "draw": true (verifier_draw()). */
void openlog_end_draw(openlog_match *m);

/* ---- the shot clock ---- */

/* A decision by a player that took longer than `limit_ms` since the
 * previous event turns an ok verdict into a warning citing `rule`.  Time
 * runs between consecutive events that both carry `t`, whatever their
 * verdicts; an event without `t` makes the next gap unknown. */
void openlog_clock(openlog_match *m, const olevent *ev, olverdict *v, uint64_t limit_ms, const char *rule);

/* ---- concede, judge, claim ---- */

/* `concede`: a player gives up, the other wins.  0, or -1 (the judgement
 * failed: only a player concedes, openlog:3). */
int openlog_concede(openlog_judgement *j);

/* `judge`: announced by the judge only (openlog:3); a game loss ends the
 * game for the other player.  0, or -1 with the judgement failed. */
int openlog_ruling(openlog_judgement *j);

/* The engine found a monster defeated at (p, slot): a claim will be
 * compared with it. */
void openlog_defeated(openlog_match *m, int p, int slot);

/* `claim`: compared, never applied.  A claimed winner other than the
 * engine's, or claimed defeats other than those found since the last
 * matching claim (as a multiset), is a mismatch citing `rule`.  A claim
 * that matches clears the defeats.  `slot_word` names a numbered slot in
 * the sentence: "Bench slot" (Snap), "Monster Zone" (Advanced, Master). */
void openlog_claim(openlog_judgement *j, const char *rule, const char *slot_word);

/* The same for a claim's Life Points (formats that have them): `lp` is
 * the engine's.  0 when the claim names none or they agree; -1 when they
 * differ (a mismatch citing `rule`). */
int openlog_claim_lp(openlog_judgement *j, const char *rule, const int64_t lp[2]);

/* The wire contract's own rules (openlog:3, openlog:6, openlog:owner...),
 * cited here, by every engine and by the daemon; *n gets the count. */
const verifier_rule *openlog_rules(size_t *n);

#endif
