/* verifier.h -- the one interface every format's rules engine sits behind.
 *
 * A verifier replays one match: it is created from the match's header and
 * then given the match's events in seq order, one at a time; it answers
 * each with exactly one verdict (openlog.md 8) and changes its state only
 * when the verdict is ok or warning (an illegal action changes nothing).
 * The daemon and the command line call these same functions, so live and
 * batch verdicts are identical.
 *
 * THE SEAM.  Each format's engine lives in verifiers/<format>/ and shows
 * itself to the rest of arbiter only as a verifier_ops table (below): its
 * name and version, the event types of its format, and the functions that
 * start, judge, end and describe a match.  verifier.c picks the table by
 * the header's format and forwards; it also judges, once for every engine,
 * what belongs to no engine: an event type the format does not have.
 * Nothing outside verifiers/<format>/ includes that format's headers
 * (tests/e2e_layering.sh fails `make check` when a file does); what the
 * engines share -- hidden cards, the end of the game, claims, the check of
 * the header's decks -- is verifiers/openlog.h.
 *
 * ADDING AN ENGINE.  Its folder verifiers/<format>/ defines one
 * `const verifier_ops <format>_verifier_ops` (below); verifiers/registry.c
 * gets one extern line and one row of its table; the build files list the
 * folder's sources.  Nothing else outside the folder changes: every "for
 * each format" walks the registry (verifier_engine_at) and nothing counts
 * the formats.  What the engine provides:
 *   - format (the contract's ol_format, logformat/olevent.h), title,
 *     engine (name/version), state_size; its state begins with an
 *     openlog_match (verifiers/openlog.h);
 *   - has_type, rules: its event types and its rule catalogue, every id
 *     quoted verbatim from its rulebook (verifiers/rules.h);
 *   - deck: its deck construction rows (verifiers/deck.h), or NULL when
 *     players bring no decklist; `start` then checks the header's decks
 *     with openlog_check_decks() and passes its internal error on
 *     (VERIFIER_ENOMEM), never taking an unchecked deck for legal;
 *   - cards: the members it gives a card in the card database and their
 *     checks (verifiers/cards.h card_schema), or NULL;
 *   - tournament, score_base, score_base_lever: whether `arbiter
 *     tournament` runs its events (0 refuses them with a sentence) and the
 *     base of its scores;
 *   - start ... encode: every function, none NULL;
 *   - hidden: which fields of its events name hidden cards, and whose
 *     (views and the public feed null them for everyone else); NULL when
 *     its events name none.
 * And for a judge's remedy "stands" (SPEC.md 8.1), which every engine gets
 * through this seam: its state is plain bytes (copied to back up), and the
 * checks of rules a judge may let stand are written OPENLOG_BREAK
 * (verifiers/openlog.h) instead of OPENLOG_ILLEGAL -- none, and "stands"
 * is always refused with the check's sentence, "backup" still works.
 *
 * Pure: no I/O, no clock (time comes only from events' `t`), no globals.
 * Sequence bookkeeping (gap, duplicate, conflict) is the caller's: a
 * verifier assumes it is given the next event of its match.
 *
 * Lifetime: the verifier keeps pointers into `db` (and none into events):
 * db must outlive it.  Events are read during the call only.
 */
#ifndef ARBITER_VERIFIER_H
#define ARBITER_VERIFIER_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/jtext.h"
#include "logformat/olevent.h"
#include "logformat/olverdict.h"
#include "verifiers/cards.h"
#include "verifiers/openlog.h"
#include "verifiers/rules.h"

enum {
    VERIFIER_OK = 0,
    VERIFIER_ENOMEM = -1,
    VERIFIER_ENOENGINE = -2,  /* no engine for the header's format yet */
    VERIFIER_EPLAYERS = -3,   /* the header names more or fewer players
                                 than its format is played by */
    VERIFIER_ECARDS = -4      /* the header's card database has cards
                                 without its format's properties */
};

/* A field of an event that names hidden cards (openlog.md 6 and 9): what
 * a view that may not see them gets as null.  `key` is the event's key;
 * `list` 1 for a list of hrefs, of which the first `first` are hidden
 * (SIZE_MAX: all); `owner` the seat whose hidden cards they are (its view
 * sees them; -1: only the judge's).  The engine says which, since only
 * it knows what its events hide (a Snap bench's face-down slots, a
 * classic Snap deal's stack). */
typedef struct {
    const char *key;
    int list;
    size_t first;
    int owner;
} verifier_hidden_field;
#define VERIFIER_HIDDEN_MAX 2

/* What an engine is, as the rest of arbiter sees it.  `state` is the
 * engine's own state, state_size bytes, zeroed before start. */
typedef struct {
    ol_format format;
    const char *title;        /* the format in a sentence: "Snap"       */
    const char *engine;       /* name/version stored with each record: "snap/2" */
    size_t state_size;
    /* How many players the format is played by, inclusive (2..2 for a
     * duel), within 2..OL_PLAYERS_MAX: a header naming another count is
     * refused by verifier_new(), so an engine only ever sees seats
     * 0..n-1 with players_min <= n <= players_max. */
    unsigned players_min, players_max;
    /* 1 when event type t belongs to the format (openlog.md 7 and
     * logformat/SPEC.md); any other is judged illegal by verifier.c. */
    int (*has_type)(ol_type t);
    /* The rule catalogue: every id the engine may cite, in rulebook
     * order (verifiers/rules.h); the count in *n. */
    const verifier_rule *(*rules)(size_t *n);
    /* The format's deck construction rules (verifiers/deck.h: the rows
     * the shared deck_check applies), or NULL for a format whose players
     * bring no decklist. */
    const struct deck_format *deck;
    /* The members the format gives a card in the card database ("snap":
     * {...}: verifiers/cards.h card_schema, applied by src/core/carddb.c
     * and cards_finish()), or NULL when its cards have none. */
    const card_schema *cards;
    /* The tournament's facts of the format (TOURNAMENT.md, src/tournament/):
     * 1 when `arbiter tournament` runs its events (the regulations are
     * written for the Mintayn formats; 0: refused with a sentence); the
     * base a game score is measured against under the default levers (T4,
     * T5; verifier_score gives a match's own); and the lever that sets the
     * base instead ("starting_lp"), or NULL. */
    int tournament;
    int64_t score_base;
    const char *score_base_lever;

    /* Start from the header: its verdict in *v (ok, or illegal when the
     * header breaks a rule; then every later event is illegal too).  The
     * decks are checked by openlog_check_decks() (verifiers/openlog.h)
     * through memo, the caller's memo of legal decklists, or NULL.
     * Returns VERIFIER_OK, or VERIFIER_ENOMEM when the header could not be
     * judged (out of memory): an internal error, never a verdict --
     * verifier_new() then fails and *v means nothing. */
    int (*start)(void *state, const cards *db, deck_memo *memo, const olevent *header, olverdict *v);
    /* Judge the next event: exactly one verdict in *v. */
    void (*apply)(void *state, const olevent *ev, olverdict *v);
    /* The log has ended: windows that close by silence close. */
    void (*log_ended)(void *state);
    /* 1 when the game is over, the winner's seat (0..n-1) or -1 (none,
     * a draw) in *winner (which may be NULL); else 0. */
    int (*finished)(const void *state, int *winner);
    unsigned (*round)(const void *state);
    /* Per seat 0..n-1 (out[] is zeroed by the caller, n = the match's
     * players): hidden cards never checked; the game score on the board
     * (TOURNAMENT.md T4, T5) and its base, raw (verifier_score()). */
    void (*unverified)(const void *state, unsigned out[OL_PLAYERS_MAX]);
    void (*score)(const void *state, int64_t out[OL_PLAYERS_MAX], int64_t *base);
    /* The board after the last event as compact JSON into t, showing the
     * hidden cards `sight` may see; 0, or -1 (t->bad: out of memory). */
    int (*board_json)(const void *state, const openlog_sight *sight, jtext *t);
    /* The same board in words for a person, lines ending in '\n'. */
    int (*board_words)(const void *state, const openlog_sight *sight, jtext *t);
    /* The engine's canonical encoding of its whole state: the per-event
     * state hash of a record (openlog.md 10) is BLAKE2b-256 of these
     * bytes.  It may never change under an engine version already used
     * for records (fixtures/stores/ keeps records of every release). */
    int (*encode)(const void *state, jtext *t);
    /* The fields of ev (an event of a match whose header is `header`) that
     * name hidden cards, into out; how many (0..VERIFIER_HIDDEN_MAX).  Every
     * other card an event names is public.  Pure: reads ev and header only;
     * header NULL: the format's default levers. */
    size_t (*hidden)(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX]);
} verifier_ops;

/* An engine's functions take its own state type T; the operations table
 * takes void *.  This writes the casts once, as static functions ops_start,
 * ops_apply, ops_log_ended, ops_board_json, ops_board_words and ops_encode
 * for the engine's verifier_ops to name. */
#define VERIFIER_OPS_ADAPTERS(T, start_fn, apply_fn, ended_fn, json_fn, words_fn, encode_fn)                   \
    static int ops_start(void *st, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)                       \
    {                                                                                                         \
        return start_fn((T *)st, db, memo, header, v);                                                              \
    }                                                                                                         \
    static void ops_apply(void *st, const olevent *ev, olverdict *v) { apply_fn((T *)st, ev, v); }            \
    static void ops_log_ended(void *st) { ended_fn((T *)st); }                                                \
    static int ops_board_json(const void *st, const openlog_sight *sight, jtext *t)                           \
    {                                                                                                         \
        return json_fn((const T *)st, sight, t);                                                              \
    }                                                                                                         \
    static int ops_board_words(const void *st, const openlog_sight *sight, jtext *t)                          \
    {                                                                                                         \
        return words_fn((const T *)st, sight, t);                                                             \
    }                                                                                                         \
    static int ops_encode(const void *st, jtext *t) { return encode_fn((const T *)st, t); }

/* The engines, one per format that has one (verifiers/<format>/), are
 * listed once, in verifiers/registry.c.  The i-th engine (0..), or NULL
 * past the last: walk them as
 *     for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
 * and never assume how many there are. */
const verifier_ops *verifier_engine_at(size_t i);

/* The fields of ev that name hidden cards (verifier_ops.hidden), for the
 * format of `header` (the match's header, or ev itself when it is one);
 * how many.  A format without an engine hides nothing: its events are
 * never judged, stored or shown.  header NULL (not at hand): what any
 * engine would hide of an event of ev's type under its default levers --
 * nonzero means the header is worth reading. */
size_t verifier_event_hidden(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX]);

/* The engine of `format`, or NULL when it has none yet. */
const verifier_ops *verifier_ops_of(ol_format format);

/* The catalogue entry for a rule id of any engine or of the wire contract
 * (openlog:6), or NULL when unknown.  Static storage. */
const verifier_rule *verifier_rule_find(const char *id);

typedef struct verifier verifier;

/* Start a match.  `header` must be a decoded OL_MATCH event.  On success
 * returns VERIFIER_OK, a new verifier in *out and the header's verdict in
 * *v: ok, or illegal when the header breaks a rule (a deck illegal for its
 * format) -- then the match cannot start and every later event is illegal
 * too.  That `db` is the database the header names is the caller's check
 * (src/core/verify.c), since only the caller knows which databases it holds.
 * Errors: ENOMEM (out of memory, also when the engine could not check the
 * header's decks: an internal error, never a verdict of legality -- *out
 * is NULL and *v holds no verdict, the caller reports an error), ENOENGINE
 * (with a sentence in v->msg and status malformed), EPLAYERS: the header
 * names a number of players outside its format's players_min..players_max
 * (status malformed, rule openlog:4, "A snap match has 2 players; this
 * header names 3."); no verifier is made.  ECARDS: the format's engine
 * gives cards properties (verifier_ops.cards) and some card of db has none
 * (a playing-card database named by a Snap header): status malformed,
 * rule openlog:4, a sentence; no verifier is made. */
int verifier_new(const cards *db, const olevent *header, verifier **out, olverdict *v);

/* verifier_new() with the caller's memo of decklists found legal
 * (verifiers/deck.h: deck_memo, made for db), so a batch checks each
 * distinct decklist once; memo NULL is verifier_new().  The memo is the
 * caller's: one thread at a time. */
int verifier_new_memo(const cards *db, deck_memo *memo, const olevent *header, verifier **out, olverdict *v);

/* Judge the next event.  Always writes exactly one verdict to *v.  Judged
 * here, without reaching the engine: an event that names a seat the match
 * does not have -- `by`, a reference's `p`, a claim's `winner`, a ruling's
 * `player` of "p3" in a two-player match -- is illegal (openlog:3: "p3 is
 * not a player of this match"), so an engine never sees a player index
 * past its match's; an event type the match's format does not have is
 * illegal (openlog:7). */
void verifier_apply(verifier *vf, const olevent *ev, olverdict *v);

/* ---- remedies for an illegal action (SPEC.md 8.1) ---------------------
 *
 * A table whose header sets the lever on_illegal to "judge" plays on after
 * an illegal action until a judge gives a remedy: the caller
 * (src/core/verify.c, the one loop of batch and live) pauses the match and
 * holds the events that follow; these are what it needs of the engine,
 * the same for every engine. */

/* 1 when the header's on_illegal is "judge". */
int verifier_judging(const verifier *vf);

/* Keep a copy of the state as it stands (before an event that may turn out
 * illegal), replacing the one kept.  VERIFIER_OK, or VERIFIER_ENOMEM (then
 * nothing is kept). */
int verifier_keep(verifier *vf);

/* The remedy "backup": the state becomes the copy verifier_keep() made.
 * 0, or -1 when none was kept. */
int verifier_back_up(verifier *vf);

/* The remedy "stands": judge ev (the illegal action) again, letting pass
 * every rule its engine marks as one a judge may let stand
 * (OPENLOG_BREAK).  *v is the verdict: ok or warning when the action could
 * be carried out as announced -- the state then holds it -- or illegal
 * with the engine's sentence for what stops it (a monster that is not
 * there), the state unchanged.  Returns how many rules were let pass (0
 * when it could not stand). */
unsigned verifier_force(verifier *vf, const olevent *ev, olverdict *v);

/* The log has ended: no event will follow.  Open-log windows close by
 * silence (snap ruling R6), so a window still open closes and resolves
 * (snap ruling A31) -- a final combat nobody answered is fought.  Batch
 * verification calls it once, after the last event of a file; the daemon
 * never does (a live table may still speak).  Gives no verdict. */
void verifier_log_ended(verifier *vf);

/* The number of players of the match (the header's n_players). */
unsigned verifier_players(const verifier *vf);

/* 1 when the game is over (then *winner is the winner's seat, OL_P1 ..
 * verifier_players() - 1, or -1 for none: a draw, or no winner), else 0.
 * winner may be NULL. */
int verifier_finished(const verifier *vf, int *winner);

/* 1 when the game ended in a draw by a rule of the game (openlog_end_draw():
 * no winner, and not merely stopped), else 0. */
int verifier_draw(const verifier *vf);

/* Hidden cards whose identity was never checked, per seat (openlog 6):
 * in announced mode the cards never named, in commit mode the commitments
 * never opened; 0 in open mode.  For the final record. */
void verifier_unverified(const verifier *vf, unsigned out[OL_PLAYERS_MAX]);

/* Each player's score in the game as the board stands after the last
 * event (TOURNAMENT.md T4, T5): p1's in score[0], p2's in score[1] and so on
 * for each seat of the match (the rest zero), and
 * the base the scores are measured against in *base (base may be NULL):
 *   Snap              the opponent's monsters defeated (their `lost`),
 *                     0..5; base 5
 *   Advanced, Master  the base minus the opponent's LP: the LP the
 *                     opponent lost, negative when an lp_gain took them
 *                     above the start; base the match's starting LP (the
 *                     `starting_lp` lever, else the format's default)
 * Raw: nothing is clamped and a winner is not raised to the base -- the
 * tournament module does both (T4, T5, T7).  After a refused header (an
 * illegal deck: no game started) they mean nothing.  For `arbiter
 * tournament`, which reads a record's scores at the end of each game round
 * and at its end.  Always VERIFIER_OK. */
int verifier_score(const verifier *vf, int64_t score[OL_PLAYERS_MAX], int64_t *base);

/* The round the match is in, or ended in (1..); 0 before setup is done.
 * For summaries ("rounds" of a stored match, openlog.md 9). */
unsigned verifier_round(const verifier *vf);

/* The format's engine name and version, stored with each record
 * (openlog.md 10): "snap/2". */
const char *verifier_engine(const verifier *vf);

/* The match's hidden mode (the header's `hidden`). */
ol_hidden verifier_hidden(const verifier *vf);

/* The board through the engine (verifier_ops.board_json, board_words,
 * encode): into t, which is reset first.  0, or -1 when out of memory. */
int verifier_board_json(const verifier *vf, const openlog_sight *sight, jtext *t);
int verifier_board_words(const verifier *vf, const openlog_sight *sight, jtext *t);
int verifier_encode(const verifier *vf, jtext *t);

/* The state hash s(n) of a record (openlog.md 10): BLAKE2b-256 of the
 * engine's canonical encoding of its whole state (verifier_encode), after
 * the last event judged.  The engine defines it, so that every reader of a
 * record -- the daemon writing it, an audit checking it -- hashes the same
 * bytes.  VERIFIER_OK, or VERIFIER_ENOMEM (out is then zeroed).  Not
 * thread-safe for one verifier (it encodes into a buffer the verifier
 * keeps); distinct verifiers are independent. */
#define VERIFIER_HASH_BYTES 32
int verifier_state_hash(const verifier *vf, uint8_t out[VERIFIER_HASH_BYTES]);

void verifier_destroy(verifier **vf);

#endif
