/* view.h -- a match's board and events as one viewer may see them.
 *
 * Every format has hidden zones (in Snap, snap.md 7.2.1, 7.4, 7.5 and
 * 16.4: face-down Bench monsters, the hand, the Locked Supports, the
 * waiting fifth monster (R1) and the Monster Reserve; in Advanced and
 * Master, the hand).  Their controller knows them, a judge may inspect
 * them, nobody else sees more than a count.  openlog.md 9 names the
 * views -- "public", "judge", and one per seat, "p1" to "p8" -- and every
 * place that shows
 * a board or an event to somebody (`arbiter replay`, `arbiter audit`, the
 * daemon's feed and query socket) goes through this module, so that one
 * rule, view_can_see(), decides visibility everywhere.
 *
 * What a permitted viewer sees of a hidden card is what the engine knows:
 * the card in open mode or once revealed, "committed" for a commitment not
 * yet opened (commit mode), nothing in announced mode.  Face-up monsters,
 * the chain, the attack, graveyards and counts are public.
 *
 * Boards are drawn by each match's engine (verifiers/verifier.h); this
 * module gives it the sight and never reads an engine's state.
 *
 * Pointers: nothing returned points into the verifier; JSON results are
 * new references the caller json_decref's.
 */
#ifndef ARBITER_VIEW_H
#define ARBITER_VIEW_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "src/core/carddb.h"
#include "verifiers/verifier.h"


/* A view: the public's, the judge's, or a seat's (VIEW_P1 + the seat, 0
 * for p1 ... 7 for p8). */
typedef enum {
    VIEW_PUBLIC, VIEW_JUDGE,
    VIEW_P1, VIEW_P2, VIEW_P3, VIEW_P4, VIEW_P5, VIEW_P6, VIEW_P7, VIEW_P8
} view_kind;

/* "public", "judge", "p1" ... "p8" -> *out; 0, or -1 for any other name. */
int view_parse(const char *name, view_kind *out);

/* The seat a player's view is of (0 for p1), or -1 for the public's and
 * the judge's. */
int view_seat(view_kind v);

/* Whether view v exists in a match of n_players: the public's and the
 * judge's always, a seat's when the match has that seat.  0 or 1; when 0
 * and msg is not NULL, the sentence to answer with in msg (cap bytes):
 * "This match has no p3: its players are p1 and p2." */
int view_in_match(view_kind v, unsigned n_players, char *msg, size_t cap);

/* The name of a view, as view_parse() reads it. */
const char *view_name(view_kind v);

/* THE visibility rule: may `v` see the hidden cards of player `owner`
 * (the seat: 0 = p1 ... 7 = p8)?  A judge sees every player's, a player
 * their own, the public nobody's. */
int view_can_see(view_kind v, int owner);

/* The sight of view v (verifiers/openlog.h): sees[p] = view_can_see(v, p).
 * What an engine is given to draw a board for that view. */
openlog_sight view_sight(view_kind v);

/* The board after the verifier's last event, as a new JSON object with the
 * keys, in their order, that arbiter-replay(1) documents for `arbiter
 * replay --json` (a Snap board: "round", "turn", "step", "window", "chain",
 * "attack", "trigger", "players", "over", "winner").  NULL when out of memory or when
 * the engine cannot draw it. */
json_t *view_board_json(const verifier *vf, view_kind v);

/* The same board drawn for a person on `out`: the game's moment (setup,
 * round/turn/step, or game over), the window, chain, trigger and attack,
 * then each player's zones.  0, or -1 when the match has no board. */
int view_board_print(FILE *out, const verifier *vf, view_kind v);

/* An event as `v` may see it: a new JSON object (the event's own keys, in
 * their canonical order) where every hidden card reference (href) of a
 * player the view may not see is null, and -- except in the judge view --
 * nonces are removed and the header's decklists of players the view may not
 * see are null.  Revealing fields (`card` of flip, unlock, spell, counter,
 * promote, evolve, prime) are public and kept, and so are setup Bench slots
 * that start face-up under the header's `bench_facedown` lever (snap 18.6):
 * `header` is the match's header (NULL: every setup slot counts as hidden).
 * Commitments ({"c": hex}) reveal nothing and are kept.  NULL when out of
 * memory. */
json_t *view_event_json(const olevent *ev, view_kind v, const olevent *header);

/* The compact JSON text of view_event_json's object (json_dumps with
 * JSON_COMPACT, byte for byte), appended to out, for an event decoded
 * from MessagePack that is not a header (every other event of a match),
 * without making a tree.  1 when written; 0 when the event is not such an
 * event or its bytes are refused (out unchanged: the caller makes
 * view_event_json's object); -1 out of memory. */
int view_event_text(const olevent *ev, view_kind v, const olevent *header, jtext *out);

/* ---- sentences ------------------------------------------------------------
 * A verdict's sentence is the engine's words and may name a hidden card
 * ("p2 selected Aegis Flash, which is not in ..."): the event is drawn in
 * the view, the sentence must be too. */

/* Every string in j (keys excluded), and for each that is a card id of db
 * the card's name, added as keys of the object `set`.  0, or -1 when out
 * of memory.  db may be NULL. */
int view_strings(json_t *set, const json_t *j, const cards *db);

/* A sentence as a view may read it: a new string (the caller frees it)
 * where each card of db that `msg` names, by name or id, and that is in
 * `hidden` or (seen not NULL) in neither form in `seen` -- sets as
 * view_strings() makes -- is "a hidden card".  seen NULL: every card not
 * in `hidden` may be read.  db NULL: a sentence saying it is withheld.
 * NULL when out of memory. */
char *view_redact(const char *msg, const cards *db, const json_t *seen, const json_t *hidden);

/* The verdict of event ev (a JSON verdict, changed in place) as view v may
 * read it: its `msg`, and its `stored` verdict's, with each card the event
 * hides from v (named in the judge's view of the event, not in v's) put as
 * "a hidden card".  Nothing for the judge's view, or when the event hides
 * nothing.  db names the cards (NULL: a sentence naming none of them is
 * withheld whole, as view_redact says).  1 when a sentence changed, 0 when
 * none did, -1 when out of memory. */
int view_verdict_redact(json_t *verdict, const olevent *ev, view_kind v, const olevent *header, const cards *db);

#endif
