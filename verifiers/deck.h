/* deck.h -- deck construction rules: the shared mechanism, each format's
 * rows in its engine.
 *
 * A decklist (openlog.md 5, olevent.h ol_deck) is legal for a format when it
 * breaks none of that format's construction rules.  deck_check() applies
 * every rule and reports *every* violation, each citing its rule in the
 * verdict syntax (`snap:4.4`, `advanced:deck.copies`).
 *
 * Who owns what.  A format's rules are rows -- id, summary, check -- that
 * its engine owns (verifiers/<format>/) and shows through verifier_ops.deck
 * as a deck_format; a format without decklists has none (NULL).  This
 * module is the mechanism every format's rows use: the decklist flattened
 * into entries, grouping by id or name, sentences, and the checks several
 * formats share (an unknown card, the size, the Monsters, the copy limits).
 *
 * Pure: no I/O, no allocation that outlives the call.
 */
#ifndef ARBITER_DECK_H
#define ARBITER_DECK_H

#include <stddef.h>

#include "logformat/olevent.h"
#include "verifiers/cards.h"

#define DECK_RULE_MAX 32
#define DECK_MSG_MAX 256

typedef struct {
    char rule[DECK_RULE_MAX];   /* "snap:4.4"                              */
    char msg[DECK_MSG_MAX];     /* one sentence a judge can read aloud     */
} deck_violation;

/* Check `deck` against the construction rules of `format` (its engine's
 * rows, verifier_ops.deck) using the card database `db`, under the variant
 * levers of `levers` (a match header, or NULL for the format's defaults:
 * Master's `deck_size` sets its size).  Writes at most `max` violations to
 * `out` (out may be NULL when max is 0) in rule-table order, and the total
 * number found to *n.  Returns 0 when the check ran (legal iff *n == 0),
 * CARDS_EARG for a format with no engine or no decklists, or CARDS_ENOMEM
 * when it could not run -- then *n says nothing about the deck, which is
 * neither legal nor illegal.  `who` ("p1", NULL) prefixes each sentence
 * when given. */
int deck_check(ol_format format, const cards *db, const ol_header *levers, const ol_deck *deck,
               const char *who, deck_violation *out, size_t max, size_t *n);

/* A memo of decklists already found legal, so a batch that judges the same
 * decks in many games (a tournament's logs, a league's) checks each distinct
 * decklist once.  Owned by the caller (src/core/verify: one per batch run or
 * session, never shared between threads without the caller's lock); the
 * engines stay pure and only receive it.  Bound to one card database `db`,
 * which must outlive it; a check against any other database bypasses it.
 *
 * Why a hit can never accept a deck the full check would refuse: the key is
 * BLAKE2b-256 of everything deck_check() reads besides the message prefix --
 * the format (so its rule rows and deck_format numbers), the database's
 * content hash (and the memo answers only for the very database it was made
 * for), every lever of the header's rules map (all of them, not only the
 * size lever, so a rule that comes to read another lever is still keyed on
 * it), and each list of the decklist with its length and every id
 * length-prefixed (no two different decklists give the same bytes).  Only
 * legal outcomes are stored: an illegal deck is checked in full each time,
 * its sentences naming its own player.  At most DECK_MEMO_MAX decklists are
 * kept; past that a deck is checked in full, unremembered. */
#define DECK_MEMO_MAX 1024
typedef struct deck_memo deck_memo;

/* A new memo for database db; NULL when out of memory (callers then check
 * without one). */
deck_memo *deck_memo_new(const cards *db);
void deck_memo_destroy(deck_memo **m);

/* deck_check() through memo m (NULL: no memo): same arguments, same
 * results; a legal deck found in m returns 0 with *n = 0 at once. */
int deck_check_memo(deck_memo *m, ol_format format, const cards *db, const ol_header *levers, const ol_deck *deck,
                    const char *who, deck_violation *out, size_t max, size_t *n);

typedef struct deck_ctx deck_ctx;

/* One rule: its id, a one-line summary, and its check (0, or CARDS_ENOMEM;
 * violations go to deck_report). */
typedef int deck_check_fn(deck_ctx *x);
typedef struct {
    const char *rule;
    const char *summary;
    deck_check_fn *check;
} deck_rule_info;

/* The deck rules of format f from the one list of engines
 * (verifiers/registry.c: verifier_ops.deck), or NULL when the format has
 * no engine or no decklists. */
const struct deck_format *deck_format_of(ol_format f);

/* The rule ids deck_check() can cite for a format, in report order, for
 * tests and docs; NULL (and *n 0) for a format without decklists. */
const deck_rule_info *deck_rules(ol_format format, size_t *n);

/* ---- for the engines' own rows ------------------------------------------- */

/* Which lists of an ol_deck a format reads (openlog.md 5). */
typedef enum {
    DECK_SHAPE_LINEUP,   /* monsters, supports, reserve (Snap)            */
    DECK_SHAPE_MAIN      /* main (Advanced, Master)                       */
} deck_shape;

/* A format's deck rules, as its engine gives them (verifier_ops.deck). */
typedef struct deck_format {
    const char *title;          /* "Snap", as sentences name the format    */
    deck_shape shape;
    size_t size;                /* cards in the deck                       */
    const char *size_lever;     /* the lever that sets the size, or NULL   */
    size_t copies;              /* copies of one card, Primes excepted     */
    size_t prime_copies;        /* copies of one Prime                     */
    size_t min_monsters;        /* Monsters the deck must include          */
    const deck_rule_info *rules;   /* the rows, in report order           */
    size_t n_rules;
} deck_format;

/* A sentence being built: pieces appended to a fixed buffer, cut on a
 * UTF-8 boundary with "..." when too long. */
typedef struct {
    char s[DECK_MSG_MAX];
    size_t len;
    int cut;
} deck_msg;

typedef enum { DECK_LIST_MONSTERS, DECK_LIST_SUPPORTS, DECK_LIST_RESERVE, DECK_LIST_MAIN } deck_list;

/* One card of the flattened decklist. */
typedef struct {
    const char *id;
    const card *c;       /* NULL when the database does not know the id    */
    deck_list list;
    size_t pos;          /* position in the decklist, across its lists     */
    int echo;            /* the reserve entry restating the lineup's Prime
                            Singular (deck.c, the rulings)                 */
} deck_entry;

/* Entries that share a key, in decklist order. */
typedef struct {
    deck_entry **e;
    size_t n;
} deck_group;

typedef struct {
    deck_entry **sorted;
    deck_group *g;
    size_t n;
} deck_grouping;

/* What a check sees.  Read-only for the rows but `rule_data`, theirs. */
struct deck_ctx {
    const deck_format *fmt;
    const ol_header *levers;    /* the match's levers, or NULL             */
    const cards *db;
    const ol_deck *deck;
    const char *who;
    deck_entry *ents;
    size_t n_ents;
    const char **lineup;        /* DECK_SHAPE_LINEUP: lineup and reserve   */
    const char **reserve;       /* ids, sorted for bsearch                 */
    const char *rule;           /* id of the row being checked             */
    const void *rule_data;      /* a row's own data while it checks        */
    deck_violation *out;
    size_t max;
    size_t found;
};

typedef enum { DECK_BY_ID, DECK_BY_NAME } deck_group_key;
typedef int deck_keep_fn(const deck_ctx *x, const deck_entry *e);
typedef void deck_say_fn(const deck_ctx *x, const deck_group *g, deck_msg *m);

/* Sentences: "p1's lineup" / "The lineup"; "Ember Whelp (cor-ember-whelp)";
 * "a Monster"; "the lineup and the reserve"; a card or "the name X (a, b)". */
void deck_msg_str(deck_msg *m, const char *s);
void deck_msg_uint(deck_msg *m, size_t v);
void deck_msg_whose(deck_msg *m, const deck_ctx *x, const char *noun);
void deck_msg_card(deck_msg *m, const deck_entry *e);
void deck_msg_kind(deck_msg *m, const deck_entry *e);
void deck_msg_where(deck_msg *m, const deck_group *g);
void deck_msg_group_card(deck_msg *m, const deck_group *g);
/* Record one violation of the row being checked. */
void deck_report(deck_ctx *x, const deck_msg *m);

/* Group the entries `keep` accepts by id or name (0 or CARDS_ENOMEM; free
 * with deck_grouping_free either way; a failed grouping has no groups). */
int deck_grouping_build(const deck_ctx *x, deck_keep_fn *keep, deck_group_key key, deck_grouping *out);
void deck_grouping_free(deck_grouping *g);
/* One violation per group `keep` accepts, worded by `say`. */
int deck_report_groups(deck_ctx *x, deck_keep_fn *keep, deck_group_key key, deck_say_fn *say);
/* 1 when two entries deck_keep_for_copies accepts may share a name. */
int deck_names_repeat(const deck_ctx *x);

const char *deck_entry_name(const deck_entry *e);
int deck_known(const deck_entry *e);
int deck_is_prime_singular(const deck_entry *e);
int deck_in_lineup(const deck_ctx *x, const char *id);
int deck_in_reserve(const deck_ctx *x, const char *id);
/* Known entries but the reserve's echo of the lineup's Prime Singular. */
int deck_keep_for_copies(const deck_ctx *x, const deck_entry *e);

/* Checks several formats share, reading their deck_format. */
deck_check_fn deck_check_known;      /* every card in the database (openlog:cards) */
deck_check_fn deck_check_size;       /* `size` cards in main (or the size lever)  */
deck_check_fn deck_check_monsters;   /* at least `min_monsters` Monsters          */
deck_check_fn deck_check_copies;     /* at most `copies` of a name, Primes aside  */
deck_check_fn deck_check_primes;     /* at most `prime_copies` of a Prime         */

#endif
