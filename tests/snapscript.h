/* snapscript.h -- a scripted Snap game for the Criterion suites.
 *
 * Use: start() (or start_with/start_decks) the match, base(n) plays the
 * first n events of BASE, ok() plays an event that must be legal,
 * illegal() one that must be illegal citing `rule`, play() returns the
 * verdict.  Event bodies are JSON members without the braces, match and
 * seq: "\"type\":\"end\",\"by\":\"p1\"".  The state is `st`; `seq` is the
 * next event's seq.  `db` is core.json, loaded at the first start unless
 * a test has set it first.  big_hand_opening(n) starts with the lever
 * p1_hand n (p1 selects the first n Supports of P1_DECK) and plays BASE
 * through p1's Round 1 flip.
 */
#ifndef ARBITER_TESTS_SNAPSCRIPT_H
#define ARBITER_TESTS_SNAPSCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/snap/snap.h"

#define P1_DECK                                                                                           \
    "{\"monsters\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","  \
    "\"flx-frost-skimmer\"],\"supports\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\"," \
    "\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-eruption\",\"cor-meltdown\",\"cor-flashpoint-denial\","  \
    "\"cor-resonant-flare\",\"cor-backdraft\",\"cor-firewall\",\"cor-smolder-trap\",\"flx-undertow\","       \
    "\"flx-riptide-shift\",\"flx-ebb-and-flow\",\"flx-frozen-moment\",\"flx-deep-current\",\"flx-wave-break\"," \
    "\"flx-echoing-surge\",\"flx-misdirecting-fog\"],\"reserve\":[\"cor-forge-colossus\"]}"
#define P2_DECK                                                                                           \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-wraith-sentry\",\"aet-cloud-monk\","          \
    "\"aet-aether-kite\"],\"supports\":[\"obs-night-terror\",\"obs-soul-siphon\",\"obs-shadow-step\","       \
    "\"obs-curse-of-silence\",\"obs-grave-whisper\",\"obs-eclipse-ritual\",\"obs-soul-reap\",\"obs-void-denial\"," \
    "\"obs-dissonant-whisper\",\"obs-umbral-decoy\",\"obs-dark-mirror\",\"obs-death-grip\",\"aet-radiant-blessing\"," \
    "\"aet-judgement-ray\",\"aet-skyward-shift\",\"aet-clarity\",\"aet-sanctuary-seal\",\"aet-ward-of-silence\"," \
    "\"aet-resonant-choir\",\"aet-gale-diversion\"],\"reserve\":[\"obs-grave-vampire\"]}"

extern const char *const BASE[];
extern const size_t BASE_N;
extern cards *db;
extern snap_state st;
extern uint64_t seq;

olevent *decode(const char *text);
/* The header start_decks() plays, as JSON text into text[n]. */
void header_text(char *text, size_t n, const char *hidden, const char *rules, const char *p1deck, const char *p2deck);
olverdict start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck);
olverdict start_with(const char *hidden, const char *rules, const char *p1deck);
void start(const char *rules);
olverdict play_t(const char *body, uint64_t t);
olverdict play(const char *body);
void ok(const char *body);
void base(size_t n);
void big_hand_opening(size_t n);
void expect(olverdict v, ol_status status, const char *rule);
void illegal(const char *body, const char *rule);

/* Does the judge board of `st` (snap_encode(): every hidden card shown,
 * the board whose hash every record keeps) hold `text`? */
int judge_board_has(const char *text);

/* core.json's text (malloc'd), for tests that rewrite a card: no core card
 * exercises some rulings.  replace_after() replaces the first `old` after
 * `anchor` with `new_` (it frees `text` and returns the new text);
 * load_core_text() makes `db` of the text and frees it. */
char *core_text(void);
char *replace_after(char *text, const char *anchor, const char *old, const char *new_);
void load_core_text(char *text, const char *name);

/* core.json with each edit made in turn (replace_after), loaded as `db`
 * under `name`: the rewrites a test needs, kept as a table. */
typedef struct {
    const char *anchor, *old, *new_;
} core_edit;
void load_core_edited(const char *name, const core_edit *edits, size_t n);

#endif
