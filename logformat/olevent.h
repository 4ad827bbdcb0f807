/* olevent.h -- one open-log event as a typed C value.
 *
 * The open log (../shared/design/openlog.md, logformat/SPEC.md) is a list of
 * events.  This header is the in-memory form every part of arbiter shares:
 * the codec (olcodec.h) fills it from MessagePack or JSON, the engines read
 * it, the store and the command line print it.  It has no dependency on any
 * library, so the pure engines under verifiers/ can include it.
 *
 * Ownership: an olevent is created by the codec (olcodec_decode_*) or by
 * olevent_new() and freed with olevent_destroy(&ev).  Every string and list
 * it points to lives in the event's own arena and stays valid until the
 * event is destroyed.  Unknown keys (openlog.md 2: "ignored") never change
 * what an engine decides, but the codec keeps the decoded tree in `tree` and
 * re-encodes it as is, so that conversion stays lossless.
 */
#ifndef ARBITER_OLEVENT_H
#define ARBITER_OLEVENT_H

#include <stddef.h>
#include <stdint.h>

#define OL_MATCH_MAX 64          /* openlog.md 3: match id, 1-64 chars       */
#define OL_STRING_MAX 256        /* openlog.md 2: strings at most 256 bytes  */
#define OL_EVENT_MAX 65536       /* openlog.md 2: one event at most 64 KiB   */
#define OL_DEPTH_MAX 16          /* SPEC.md: nesting limit (arbiter's own)   */
#define OL_COMMIT_BYTES 32       /* BLAKE2b-256                              */
#define OL_NONCE_MIN_BYTES 16    /* openlog.md 6: nonce >= 16 random bytes   */
#define OL_NONCE_MAX_BYTES 64
#define OL_PLAYERS_MAX 8         /* SPEC.md 5: seats "p1" to "p8"            */

/* Event types, in the order of openlog.md 7 (header first).  The codec's
 * table (olevent.c) gives each its name and fields; keep both in step. */
typedef enum {
    OL_MATCH,     /* header, seq 0                                     */
    OL_BENCH,
    OL_SELECT,
    OL_UNLOCK,
    OL_FLIP,
    OL_PROMOTE,
    OL_TRIGGER,
    OL_SPELL,
    OL_COUNTER,
    OL_PASS,
    OL_EVOLVE,
    OL_PRIME,
    OL_ATTACK,
    OL_BLOCK,
    OL_SWAP,
    OL_LOCK,
    OL_END,
    OL_CONCEDE,
    OL_CLAIM,
    OL_JUDGE,
    /* Advanced and Master (SPEC.md 7.2) */
    OL_SUMMON,
    OL_POSITION,
    OL_DISCARD,
    /* Master (SPEC.md 7.4) */
    OL_MANA,
    OL_MANA_REMOVE,
    /* Classic Snap (SPEC.md 7.6; `flip` and `claim` above are shared) */
    OL_DEAL,
    OL_SNAP,
    OL_SNAP_POT,
    OL_TAKE,
    OL_POT,
    OL_PENALTY,
    OL_TURN_OVER,
    OL_OUT,
    OL_TYPE_COUNT
} ol_type;

/* Who announced an event: a player's seat (p1..p8, the same numbers as
 * ol_player), the table or the judge.  Whether a seat is one of the match's
 * is the verifier's verdict (openlog:3), not the codec's. */
typedef enum {
    OL_BY_P1, OL_BY_P2, OL_BY_P3, OL_BY_P4, OL_BY_P5, OL_BY_P6, OL_BY_P7, OL_BY_P8,
    OL_BY_TABLE, OL_BY_JUDGE
} ol_by;
/* A seat, "p1" to "p8": the index of the header's players[]. */
typedef enum { OL_P1 = 0, OL_P2, OL_P3, OL_P4, OL_P5, OL_P6, OL_P7, OL_P8 } ol_player;
typedef enum { OL_FORMAT_SNAP, OL_FORMAT_ADVANCED, OL_FORMAT_MASTER, OL_FORMAT_CLASSIC } ol_format;
/* Every ol_format is below it: what per-format storage is sized by (a
 * card's own fields), so that a new format needs no other change. */
#define OL_FORMATS_MAX 16
typedef enum { OL_HIDDEN_OPEN, OL_HIDDEN_COMMIT, OL_HIDDEN_ANNOUNCED } ol_hidden;
typedef enum { OL_RULING_NOTE, OL_RULING_WARNING, OL_RULING_GAME_LOSS } ol_ruling;
/* A judge's remedy for an illegal action at a table that plays on
 * (the `on_illegal` lever "judge", SPEC.md 8.1): it stands, or play backs
 * up to before it. */
typedef enum { OL_REMEDY_STANDS, OL_REMEDY_BACKUP } ol_remedy;
typedef enum { OL_POS_AP, OL_POS_DP } ol_position;              /* "ap", "dp" */
typedef enum { OL_SUMMON_NORMAL, OL_SUMMON_SPECIAL, OL_SUMMON_MANA } ol_summon_kind;  /* "normal", "special", "mana" */
/* The five classes, in the order of the card database (verifiers/cards.h
 * card_class): a Master payment and a mana card's class name them. */
typedef enum { OL_CLASS_COREON, OL_CLASS_FLUXION, OL_CLASS_SYNAPHERA, OL_CLASS_OBSCURA, OL_CLASS_AETHERION, OL_CLASS_COUNT } ol_class;
#define OL_PAY_MAX 20            /* mana of one class in one payment         */

/* A slot: Snap's active slot ("a" on the wire) or a number 0 to
 * OL_SLOT_MAX: Snap's Bench slots 0-3, an Advanced or Master Monster Zone
 * 0-6.  Which numbers a format has is its engine's verdict. */
#define OL_SLOT_ACTIVE (-1)
#define OL_SLOT_MAX 6

/* A hidden card reference (openlog.md 6).  Which kinds are legal depends on
 * the header's `hidden` mode; the codec accepts all three shapes and the
 * engine checks the mode. */
typedef enum {
    OL_HREF_ABSENT,    /* key not present (optional field)      */
    OL_HREF_NULL,      /* announced mode: null                  */
    OL_HREF_CARD,      /* open mode: the card id                */
    OL_HREF_COMMIT     /* commit mode: {"c": hex}               */
} ol_href_kind;

typedef struct {
    ol_href_kind kind;
    const char *card;                    /* OL_HREF_CARD                 */
    uint8_t commit[OL_COMMIT_BYTES];     /* OL_HREF_COMMIT               */
} ol_href;

/* A target reference (openlog.md 7). */
typedef enum {
    OL_REF_MONSTER,    /* {"p", "s"}    */
    OL_REF_SEQ,        /* {"seq"}       a chain link or a trigger */
    OL_REF_PLAYER,     /* {"p"}         */
    OL_REF_LOCKED      /* {"p", "lock"} */
} ol_ref_kind;

typedef struct {
    ol_ref_kind kind;
    ol_player p;       /* MONSTER, PLAYER, LOCKED */
    int slot;          /* MONSTER: 0-3 or OL_SLOT_ACTIVE */
    uint64_t seq;      /* SEQ */
    uint32_t lock;     /* LOCKED */
} ol_ref;

typedef struct {
    const char **ids;
    size_t n;
} ol_idlist;

/* A decklist (openlog.md 5).  snap uses monsters/supports/reserve; advanced
 * and master use main.  Lists absent from the input are empty. */
typedef struct {
    ol_idlist monsters, supports, reserve, main;
} ol_deck;

/* A seat of the header.  `deck` is optional on the wire (a format whose
 * players bring no decklist has none); has_deck says whether it was there,
 * and whether a format requires it is its engine's verdict. */
typedef struct {
    const char *id;
    ol_deck deck;              /* empty when !has_deck                  */
    int has_deck;
} ol_seat;

/* One variant lever of the header's `rules` map.  The levers the contract
 * knows are a table in olevent.c (olevent_levers()); their values are
 * unsigned integers, booleans (stored as 0/1) or one of a lever's words
 * (stored as its index: `on_illegal` "reject" 0, "judge" 1). */
typedef struct {
    const char *name;
    uint64_t value;
} ol_lever;

typedef struct {
    ol_format format;
    const char *cards;         /* "<set>@<version>"                    */
    ol_hidden hidden;
    ol_seat players[OL_PLAYERS_MAX]; /* p1..pN in seating order; p1 goes first */
    unsigned n_players;        /* N: 2..OL_PLAYERS_MAX                  */
    ol_lever *rules;           /* NULL when the header has no rules map */
    size_t n_rules;
    int has_rules;             /* 1 when `rules` was present (even {})  */
    int has_event;             /* 1 when `event` was present            */
    const char *tournament;    /* event.tournament or NULL             */
    uint64_t round;            /* event.round, valid when has_round     */
    int has_round;
    const char *table;         /* event.table or NULL                  */
} ol_header;

/* One decoded event.  Only the fields of its type are meaningful; the
 * codec's table (olevent_fields()) says which those are. */
typedef struct olevent {
    /* envelope (openlog.md 3) */
    const char *match;
    uint64_t seq;
    ol_type type;
    ol_by by;
    uint64_t t;                /* valid when has_t */
    int has_t;

    ol_header header;          /* OL_MATCH */

    int slot;                  /* bench(5th), flip, promote, evolve, block, swap;
                                  summon, position, prime, attack (the attacker) */
    int has_slot;              /* required of every Snap flip; a classic flip
                                  has none (SPEC.md 7.6)                */
    ol_href card;              /* bench(5th), unlock, flip, promote, spell, counter,
                                  evolve, prime: an href or a plain id   */
    const char *nonce;         /* hex, NULL when absent                 */
    ol_href slots[4];          /* bench at setup; has_slots             */
    int has_slots;
    ol_href *cards;            /* select, lock                          */
    size_t n_cards;
    uint32_t lock;             /* unlock: index in the current lock order */
    ol_ref source;             /* trigger: a monster ref                */
    uint32_t ability;          /* trigger                               */
    ol_ref *targets;           /* trigger, spell, counter; evolve, prime */
    size_t n_targets;
    int has_targets;           /* 1 when `targets` was present (even [])  */
    ol_ref target;             /* attack: a monster ref, or a player ref
                                  (an Advanced/Master direct attack)    */
    ol_position position;      /* summon                                */
    ol_summon_kind kind;       /* summon                                */
    uint8_t pay[OL_CLASS_COUNT]; /* Master: mana paid, by class; has_pay   */
    int has_pay;
    uint32_t attack;           /* Master attack: the attack's index; has_attack */
    int has_attack;
    ol_class cls;              /* Master mana: the mana card's class     */
    uint64_t lp[2];            /* claim: Life Points, valid when has_lp */
    int has_lp;
    ol_ref *defeated;          /* claim                                 */
    size_t n_defeated;
    int has_defeated;
    ol_player winner;          /* claim, valid when has_winner          */
    int has_winner;
    ol_ruling ruling;          /* judge                                 */
    ol_player player;          /* judge, valid when has_player          */
    int has_player;
    const char *text;          /* judge                                 */
    ol_remedy remedy;          /* judge, valid when has_remedy          */
    int has_remedy;
    /* Classic Snap (SPEC.md 7.6) */
    uint64_t at;               /* flip, snap, snap_pot: the table's clock when
                                  it happened, ms (not the envelope's t); has_at */
    int has_at;
    ol_player *piles;          /* take, pot: whose discard piles; has_piles */
    size_t n_piles;
    int has_piles;
    int pot;                   /* take: the snap pot is taken too (0/1)  */
    int draw;                  /* claim: the game ended in a draw; has_draw */
    int has_draw;

    void *tree;                /* codec-private: the decoded JSON tree,
                                  re-encoded as is for lossless conversion */
    void (*release_tree)(void *tree);
    const uint8_t *wire;       /* codec-private: the MessagePack bytes it was
                                  decoded from (in the arena), from which
                                  that tree is made when it is asked for */
    size_t wire_len;
    void *arena;               /* owned allocations (olarena)           */
} olevent;

/* Names on the wire; NULL when out of range.  *_parse return -1 if unknown. */
const char *ol_type_name(ol_type t);
int ol_type_parse(const char *s);
int ol_by_parse(const char *s);
int ol_player_parse(const char *s);
int ol_format_parse(const char *s);
int ol_hidden_parse(const char *s);
int ol_ruling_parse(const char *s);
int ol_remedy_parse(const char *s);
int ol_position_parse(const char *s);
int ol_summon_kind_parse(const char *s);
int ol_class_parse(const char *s);
/* The *_parse functions on a string of n bytes, not NUL-terminated. */
int ol_type_parsen(const char *s, size_t n);
int ol_by_parsen(const char *s, size_t n);
int ol_player_parsen(const char *s, size_t n);
int ol_format_parsen(const char *s, size_t n);
int ol_hidden_parsen(const char *s, size_t n);
int ol_ruling_parsen(const char *s, size_t n);
int ol_remedy_parsen(const char *s, size_t n);
int ol_position_parsen(const char *s, size_t n);
int ol_summon_kind_parsen(const char *s, size_t n);
int ol_class_parsen(const char *s, size_t n);
const char *ol_by_name(ol_by b);
const char *ol_player_name(ol_player p);
const char *ol_format_name(ol_format f);
const char *ol_hidden_name(ol_hidden h);
const char *ol_ruling_name(ol_ruling r);
const char *ol_remedy_name(ol_remedy r);
const char *ol_position_name(ol_position p);
const char *ol_summon_kind_name(ol_summon_kind k);
const char *ol_class_name(ol_class c);

/* A new empty event (every field zero, type OL_MATCH) whose strings and
 * lists are to be allocated with olevent_alloc/olevent_strdup.  NULL when
 * out of memory.  Engines' tests and generators build events this way. */
olevent *olevent_new(void);
/* The same in an arena the caller hands over, empty (as olarena_reset
 * leaves it); the event owns it from then on (on NULL it is destroyed). */
struct olarena;
olevent *olevent_new_in(struct olarena *a);
void *olevent_alloc(olevent *ev, size_t n);            /* zeroed; NULL: ENOMEM */
const char *olevent_strdup(olevent *ev, const char *s); /* NULL: ENOMEM */

/* Free an event and everything it owns; sets *ev to NULL.  NULL-safe. */
void olevent_destroy(olevent **ev);

/* The value of a lever in a header, or `dflt` when it is not set. */
uint64_t ol_header_lever(const ol_header *h, const char *name, uint64_t dflt);

/* The variant levers the contract accepts in a header's `rules` map
 * (openlog.md 4: an unknown lever is malformed).  One table for all
 * formats, kept in olevent.c. */
typedef struct {
    const char *name;
    ol_format format;
    int is_bool;          /* 1: true/false, 0: unsigned integer or word  */
    uint64_t min, max;    /* inclusive range for integers (words: 0..n-1) */
    uint64_t dflt;        /* the Core+ default                           */
    const char *rule;     /* the section it varies ("snap:18.3")         */
    const char *meaning;
    const char *const *words;   /* a word lever's words, NULL-terminated;
                                   NULL for a number or a boolean        */
    int table;            /* 1: how the table is run, not the game played
                             (a tournament's event does not compare it) */
} ol_lever_info;

/* The word of value v of a word lever, or NULL. */
const char *ol_lever_word(const ol_lever_info *l, uint64_t v);

/* The `on_illegal` lever's values (SPEC.md 8.1), every format's. */
enum { OL_ON_ILLEGAL_REJECT = 0, OL_ON_ILLEGAL_JUDGE = 1 };

const ol_lever_info *ol_levers(size_t *n);
const ol_lever_info *ol_lever_find(ol_format f, const char *name);

/* ---- text helpers of every layer above (sentences quoting input) ---- */

/* Offset of the first byte of s[0..len) that is not well-formed UTF-8 (RFC
 * 3629: no overlongs, no surrogates, nothing above U+10FFFF) or a NUL, or
 * len. */
size_t ol_utf8_bad(const uint8_t *s, size_t len);

/* Make s (NUL-terminated) valid UTF-8 in place: a character cut by the end
 * of a buffer is dropped, any other ill-formed byte becomes '?'.  Every
 * sentence that quotes input or is cut to fit a fixed buffer goes through
 * it: a verdict that is not UTF-8 cannot be written as JSON at all. */
void ol_utf8_clean(char *s);

/* Append s at dst[at] (at <= strlen(dst)), cut to fit cap bytes with the
 * NUL; the new length.  For the sentences of malformed input, written once
 * per message of a flood: no printf machinery where a copy does. */
size_t ol_append(char *dst, size_t cap, size_t at, const char *s);

/* The same for a number, in decimal. */
size_t ol_append_u64(char *dst, size_t cap, size_t at, uint64_t v);

#endif
