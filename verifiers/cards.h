/* cards.h -- the card database: the authority that gives Mintayn cards their
 * per-format properties.
 *
 * Mintayn cards print no stats (snap.md 5.1); every format assigns them from
 * an authoritative database (snap.md 5.2-5.3).  This module is that database
 * held in memory: plain structs, an index by id, the evolution lines, and the
 * vocabulary of effect primitives that the engines apply exactly.  It does no
 * I/O: src/core/carddb.c parses the JSON file format (fixtures/cards/README.md),
 * fills a `cards` object with cards_add() and seals it with cards_finish().
 *
 * Lifetime: a `cards` object is built once, sealed, then only read.  Every
 * `const card *` returned by a lookup stays valid until cards_destroy().
 * A sealed database may be shared read-only between threads.
 *
 * Errors: functions returning int return 0 on success or a negative CARDS_E*
 * code; they never abort on bad data, only on programming mistakes (assert).
 */
#ifndef ARBITER_CARDS_H
#define ARBITER_CARDS_H

#include <stddef.h>
#include <stdint.h>

#include "logformat/olevent.h"

#define CARD_ID_MAX 64       /* bytes of a card id, [A-Za-z0-9._-]         */
#define CARD_NAME_MAX 96     /* bytes of a card name (UTF-8)               */
#define CARD_LINE_MAX 64     /* bytes of an evolution line id              */
#define CARD_MAX_EFFECTS 4   /* effects per card, trigger or attack        */
#define CARD_MAX_TRIGGERS 4  /* Snap trigger abilities per card            */
#define CARD_MAX_ATTACKS 4   /* Master attacks per monster ("up to 4")     */
#define CARD_OWN_MAX 48     /* bytes of a format's own card fields (card.own) */
#define CARDS_SET_MAX 64
#define CARDS_VERSION_MAX 64

/* Ranges of the per-format numbers (fixtures/cards/README.md 4-6). */
#define CARD_IMP_MIN 100
#define CARD_IMP_MAX 20000
#define CARD_ADV_STAT_MAX 10000   /* advanced ATK and DEF: 0..max           */
#define CARD_MASTER_DEF_MAX 20000
#define CARD_LEVEL_MIN 1
#define CARD_LEVEL_MAX 12
#define CARD_COST_MAX 10          /* mana of one class (or "any") in a cost */

enum {
    CARDS_OK = 0,
    CARDS_ENOMEM = -1,     /* allocation failed                            */
    CARDS_EDUPLICATE = -2, /* cards_add: a card with this id exists        */
    CARDS_ESEALED = -3,    /* cards_add after cards_finish                 */
    CARDS_EINVALID = -4,   /* cards_finish found problems (see its output) */
    CARDS_EARG = -5        /* an argument out of range (bad enum, length)  */
};

/* ---- Kinds and classes ------------------------------------------------- */

typedef enum {
    CARD_MONSTER,          /* base monster, stage 1 of a line (or no line) */
    CARD_SPELL,
    CARD_COUNTER,
    CARD_EVOLUTION,        /* stage 2 of a line                            */
    CARD_PRIME_EVOLUTION,  /* stage 3 of a line (snap.md 6.5.1)            */
    CARD_PRIME_SINGULAR,   /* legendary monster, no line (snap.md 6.5.2)   */
    CARD_KIND_COUNT
} card_kind;

typedef enum {
    CLASS_COREON,
    CLASS_FLUXION,
    CLASS_SYNAPHERA,
    CLASS_OBSCURA,
    CLASS_AETHERION,
    CLASS_COUNT
} card_class;

/* Lower-case names as they appear in JSON ("prime_evolution", "coreon").
 * A format is an ol_format (logformat/olevent.h: ol_format_name).  Return NULL for an out-of-range value.  The *_parse functions
 * return the enum value or -1 when the name is unknown. */
const char *card_kind_name(card_kind k);
const char *card_class_name(card_class c);
int card_kind_parse(const char *s);
int card_class_parse(const char *s);

/* A kind that occupies a monster slot of a lineup (monster, prime singular). */
int card_kind_is_monster(card_kind k);
/* A kind that is a Support card in Snap (spell, counter). */
int card_kind_is_support(card_kind k);
/* A kind that stacks on a monster (evolution, prime evolution). */
int card_kind_is_evolution(card_kind k);
/* A Prime card (prime evolution or prime singular): 1 copy in every format. */
int card_kind_is_prime(card_kind k);

/* ---- Snap keywords (snap.md 12) ---------------------------------------- */

enum {
    KW_BLOCKER   = 1u << 0, /* 12.2, bench-only                           */
    KW_DISRUPTOR = 1u << 1, /* 12.4, active-only                          */
    KW_OVERDRIVE = 1u << 2, /* 12.5, active-only                          */
    KW_SWAP      = 1u << 3, /* 12.3, moves itself by its own effect        */
    KW_RESONANCE = 1u << 4  /* 12.1/15.5, counters only: may target triggers */
};
#define KW_ALL (KW_BLOCKER | KW_DISRUPTOR | KW_OVERDRIVE | KW_SWAP | KW_RESONANCE)
/* Keyword name ("blocker") to bit, 0 when unknown; bit to name, NULL. */
uint32_t card_keyword_parse(const char *s);
const char *card_keyword_name(uint32_t bit);
/* One sentence: what the keyword does and which kinds may carry it. */
const char *card_keyword_meaning(uint32_t bit);

/* ---- Effect primitives -------------------------------------------------
 *
 * Card effects are data: a list of primitives, each an operation, a target
 * selector and an amount.  There is no free text: an engine applies exactly
 * these.  The table of primitives (name, formats, whether it takes an amount,
 * which targets it accepts) lives in cards.c as data; see
 * fixtures/cards/README.md for the meaning of each.
 */
typedef enum {
    FX_IMP,            /* snap: temporary IMP modifier (+/- amount)          */
    FX_ATK,            /* advanced: ATK modifier until end of turn           */
    FX_DEF,            /* advanced, master: DEF modifier until end of turn    */
    FX_NEGATE,         /* negate a spell or counter on the chain             */
    FX_RESONANCE,      /* snap: negate an [on reveal]/[on entry] trigger     */
    FX_DESTROY,        /* destroy a monster (stack goes to the graveyard)    */
    FX_PREVENT_UNLOCK, /* snap 9.8: the player's next Unlock Step unlocks nothing */
    FX_PREVENT_LOCK,   /* snap 9.8: the player's next Lock-in locks nothing  */
    FX_PREVENT_DRAW,   /* snap 9.8 / adv / master: no selecting, locking, unlocking next turn */
    FX_SWAP,           /* swap a bench monster with its controller's active  */
    FX_SELECT,         /* controller selects `amount` cards from deck to hand */
    FX_REMOVE_LOCKED,  /* snap 9.9: a locked support goes to the graveyard   */
    FX_REDIRECT,       /* snap: the current attack's target becomes the target */
    FX_FIZZLE,         /* the current attack fizzles                          */
    FX_DAMAGE,         /* master attack: `amount` damage against DEF or LP    */
    FX_LP_DAMAGE,      /* advanced, master: lose `amount` LP                  */
    FX_LP_GAIN,        /* advanced, master: gain `amount` LP                  */
    FX_POSITION,       /* advanced, master: switch a monster's position       */
    FX_MANA_ADD,       /* master: add `amount` mana cards from hand (class of card) */
    FX_MANA_REMOVE,    /* master: remove `amount` mana from a player          */
    FX_OP_COUNT
} fx_op;

/* Where an effect list sits on a card; some ops and targets only make sense
 * in some places (a `negate` needs a chain, so only a counter can carry it). */
typedef enum {
    FX_SRC_SPELL,      /* effects of a spell                                  */
    FX_SRC_COUNTER,    /* effects of a counter                                */
    FX_SRC_TRIGGER,    /* snap: effects of a monster's trigger                */
    FX_SRC_ATTACK,     /* master: effects of a monster's attack               */
    FX_SRC_ENTRY,      /* advanced/master: a Prime's effects, applied on entry */
    FX_SRC_COUNT
} fx_source;

const char *fx_source_name(fx_source s);   /* "spell", ...; NULL if out of range */

typedef enum {
    TGT_NONE,          /* the effect names no object                           */
    TGT_SELF,          /* the monster that is the source of the ability        */
    TGT_CONTROLLER,    /* the player who controls the source                   */
    TGT_OPPONENT,      /* the other player                                     */
    TGT_OWN_ACTIVE,
    TGT_OPP_ACTIVE,
    TGT_ATTACKER,      /* the attacking monster of the current combat          */
    TGT_DEFENDER,      /* the defending monster of the current combat          */
    TGT_MONSTER,       /* chosen: any face-up monster on the field             */
    TGT_OWN_MONSTER,   /* chosen: a face-up monster its controller controls    */
    TGT_OPP_MONSTER,   /* chosen: a face-up monster of the opponent            */
    TGT_OWN_BENCH,     /* chosen: a face-up bench monster of the controller    */
    TGT_OPP_BENCH,     /* chosen: a face-up bench monster of the opponent      */
    TGT_PLAYER,        /* chosen: a player                                     */
    TGT_CHAIN_LINK,    /* chosen: a spell or counter on the chain ({"seq"})    */
    TGT_TRIGGER,       /* chosen: an announced trigger ({"seq"})               */
    TGT_OPP_LOCKED,    /* chosen: a locked support of the opponent ({"p","lock"}) */
    TGT_COUNT
} fx_target;

/* 1 when the selector is chosen by the player and so consumes one entry of
 * the event's `targets` list (openlog.md 7), 0 when it is fixed. */
int fx_target_is_chosen(fx_target t);

typedef struct {
    fx_op op;
    fx_target target;
    int32_t amount;      /* IMP/ATK/DEF/LP/damage delta or a count; 0 if unused */
} card_effect;

/* What the primitive table says about one op. */
typedef struct {
    const char *name;        /* "imp", "prevent_unlock", ...               */
    unsigned formats;        /* bit (1u << ol_format) per format using it */
    int takes_amount;        /* 1: `amount` required, 0: must be absent     */
    uint32_t targets;        /* bit (1u << fx_target) per accepted selector */
    const char *meaning;     /* one sentence, for documentation and --help  */
    unsigned sources;        /* bit (1u << fx_source) per place it may sit   */
    int32_t amount_min;      /* when takes_amount: allowed range, 0 excluded */
    int32_t amount_max;
} fx_op_info;

const fx_op_info *fx_op_describe(fx_op op);   /* NULL when out of range */
int fx_op_parse(const char *name);            /* -1 when unknown        */
const char *fx_target_name(fx_target t);
int fx_target_parse(const char *name);        /* -1 when unknown        */

/* What the selector table says about one target. */
typedef struct {
    const char *name;        /* "own_monster", ...                          */
    unsigned formats;        /* bit (1u << ol_format) per format using it */
    unsigned sources;        /* bit (1u << fx_source) per place it may sit   */
    int chosen;              /* see fx_target_is_chosen()                   */
    const char *meaning;
} fx_target_info;

const fx_target_info *fx_target_describe(fx_target t);  /* NULL when out of range */

/* Conditions: a Snap Prime Singular's printed activation condition
 * (snap.md 14.3), an Advanced/Master Prime's condition, a Master attack's. */
typedef enum {
    COND_NONE,               /* always met                                    */
    COND_OWN_DEFEATED_MIN,   /* controller has lost >= amount monsters         */
    COND_OPP_DEFEATED_MIN,   /* opponent has lost >= amount monsters           */
    COND_OWN_FIELD_MAX,      /* controller has <= amount monsters on the field */
    COND_LP_MAX,             /* advanced/master: controller LP <= amount       */
    COND_CLASS_MANA_MIN,     /* master: >= amount mana of the card's class     */
    COND_ONCE_PER_GAME,      /* master attack: usable once per game            */
    COND_COUNT
} cond_kind;

typedef struct {
    cond_kind kind;
    int32_t amount;
} card_condition;

const char *cond_kind_name(cond_kind k);
int cond_kind_parse(const char *name);   /* -1 when unknown */

/* Where a condition may stand. */
enum {
    COND_AT_PRIME  = 1u << 0,  /* a Prime Singular's printed condition      */
    COND_AT_ATTACK = 1u << 1   /* a Master attack's condition               */
};

typedef struct {
    const char *name;
    unsigned formats;        /* bit (1u << ol_format) per format using it */
    unsigned sites;          /* COND_AT_* bits                              */
    int takes_amount;
    int32_t amount_min, amount_max;
    const char *meaning;     /* when the condition is met, one sentence     */
} cond_info;

const cond_info *cond_describe(cond_kind k);   /* NULL when out of range */

/* ---- Per-format properties --------------------------------------------- */

typedef enum { TRIG_ON_REVEAL, TRIG_ON_ENTRY, TRIG_WHEN_COUNT } trigger_when;

/* "on_reveal", "on_entry"; NULL when out of range.  Parse: -1 if unknown. */
const char *trigger_when_name(trigger_when w);
int trigger_when_parse(const char *s);

typedef struct {
    trigger_when when;
    uint8_t n_effects;
    card_effect effects[CARD_MAX_EFFECTS];
} snap_trigger;

typedef struct {
    int32_t imp;                 /* monsters and evolutions; 0 for supports */
    uint32_t keywords;           /* KW_* bits                               */
    uint8_t n_triggers;
    snap_trigger triggers[CARD_MAX_TRIGGERS];
    uint8_t n_effects;           /* spells and counters                     */
    card_effect effects[CARD_MAX_EFFECTS];
    card_condition condition;    /* prime singular: printed condition       */
} snap_props;

typedef struct {
    int32_t atk, def;            /* monsters, evolutions, primes            */
    uint8_t level;
    uint8_t n_effects;
    card_effect effects[CARD_MAX_EFFECTS];
    card_condition condition;    /* prime singular: printed condition       */
} advanced_props;

typedef struct {
    uint8_t by_class[CLASS_COUNT];  /* mana of that class                  */
    uint8_t any;                    /* mana of any class                   */
} mana_cost;

typedef struct {
    char name[CARD_NAME_MAX + 1];
    mana_cost cost;
    card_condition condition;
    uint8_t n_effects;
    card_effect effects[CARD_MAX_EFFECTS];
} master_attack;

typedef struct {
    int32_t def;
    uint8_t level;
    mana_cost cost;              /* summon, cast or evolution cost          */
    uint8_t n_attacks;
    master_attack attacks[CARD_MAX_ATTACKS];
    uint8_t n_effects;           /* spells and counters                     */
    card_effect effects[CARD_MAX_EFFECTS];
    card_condition condition;    /* prime singular: printed condition       */
    uint8_t ongoing;             /* spells: stays on the field once resolved
                                    (master.md "Ongoing Spells"), 0 instant */
} master_props;

typedef struct {
    char id[CARD_ID_MAX + 1];
    char name[CARD_NAME_MAX + 1];
    card_kind kind;
    card_class cls;
    char line[CARD_LINE_MAX + 1]; /* evolution line; "" for spells, counters,
                                     prime singulars and line-less monsters */
    uint8_t stage;                /* 1 monster, 2 evolution, 3 prime evolution;
                                     0 when line is ""                       */
    snap_props snap;
    advanced_props advanced;
    master_props master;
    /* The members of a format whose engine keeps its card fields in no
     * struct above (its card_schema's offsets point into own[format]):
     * classic Snap's value.  A format's engine owns the layout of its own
     * bytes; CARD_OWN_MAX is what each format may use. */
    unsigned char own[OL_FORMATS_MAX][CARD_OWN_MAX];
    uint32_t members;             /* bit (1u << format): the card has that
                                     format's member ("snap": {...}); 0 at
                                     cards_add(): every format that is not
                                     standalone (card_schema)             */
} card;

/* ---- A format's card fields, as data ------------------------------------
 * Each engine says which members its format gives a card, as the table
 * of its card_schema (verifier_ops.cards): the JSON member of a card named
 * after the format ("snap": {...}) holds them, and the card database loader
 * (src/core/carddb.c) applies the table -- names, which kinds may or must
 * have each, the value's type and range, where in the card it is stored --
 * without knowing the format.  What the stored structs must then satisfy
 * is the schema's `check`, run by cards_finish(). */

typedef enum {
    CARD_FIELD_INT,        /* an integer in lo..hi; stored in `size` bytes
                              (1: uint8_t, 4: int32_t)                    */
    CARD_FIELD_BOOL,       /* true or false, stored as a uint8_t 0/1      */
    CARD_FIELD_STRING,     /* 1..size bytes into char[size + 1]           */
    CARD_FIELD_KEYWORDS,   /* a list of keyword names: KW_* bits, uint32_t */
    CARD_FIELD_ENUM,       /* a name `parse` knows (`what` names the kind
                              of name); stored as an int-sized enum       */
    CARD_FIELD_EFFECTS,    /* 1..CARD_MAX_EFFECTS effects: card_effect[] at
                              `at`, their uint8_t count at `count_at`     */
    CARD_FIELD_CONDITION,  /* a card_condition                            */
    CARD_FIELD_COST,       /* a mana_cost                                 */
    CARD_FIELD_LIST        /* lo..hi objects (`what`: "attacks"), each of
                              `size` bytes with the fields `sub`; the
                              uint8_t count at `count_at`                 */
} card_field_type;

typedef struct card_field {
    const char *name;            /* the JSON member; NULL ends a table    */
    card_field_type type;
    unsigned allowed;            /* kinds that may have it (bit per card_kind);
                                    in a `sub` table: unused              */
    unsigned required;           /* kinds that must have it; in a `sub`
                                    table: nonzero when every element must */
    size_t at;                   /* where it is stored: offset in the card
                                    (or in the LIST element)              */
    size_t size;                 /* see the types                         */
    long long lo, hi;            /* INT: the range; LIST: the count range */
    size_t count_at;             /* EFFECTS, LIST: offset of the count    */
    const struct card_field *sub;   /* LIST: the element's fields         */
    int (*parse)(const char *name);  /* ENUM: the value, -1 unknown       */
    const char *what;            /* ENUM: "trigger timing"; LIST: "attacks" */
} card_field;

typedef struct card_checker card_checker;

/* A format's card fields and their checks. */
typedef struct card_schema {
    const card_field *fields;    /* NULL-name terminated, in JSON-read order */
    /* What the structs must satisfy (cards_finish): problems through
     * card_report().  NULL: nothing beyond the fields. */
    void (*check)(card_checker *ck, const card *c);
    /* The format's own rule on each effect of its card that passed the
     * shared checks (Snap: keyword-bound primitives), or NULL. */
    void (*effect)(card_checker *ck, const card *c, const char *path, const card_effect *e);
    /* 0: the format shares the card's identity (kind, class, line) with
     * the other formats of its family, and every card that has no
     * standalone member must carry this member (the Mintayn formats).
     * 1: standalone -- a card may carry this member alone, without kind,
     * class or any other format's member (a playing card of classic Snap);
     * such a card is checked by this schema only. */
    int standalone;
} card_schema;

/* ---- For the schemas' checks (cards_finish runs them) -------------------
 * Sentences take %s, %d and %% only (no stdio here).  Paths are JSON paths
 * into the card ("snap.triggers[0].effects[1]"). */
void card_report(card_checker *ck, const card *c, const char *fmt, ...);
void card_path(char *out, size_t cap, const char *fmt, ...);
#define CARD_PATH_MAX 96
int card_in_range(long v, long lo, long hi);
/* A monster on the field (has IMP, ATK/DEF, attacks): a Monster, an
 * Evolution, a Prime. */
int card_kind_is_monster_like(card_kind k);
/* An effect list at `path` of format f in place src; `required`: it may not
 * be empty.  Each effect's primitive, target and amount against the tables
 * and the format, then the format's own `effect` rule. */
void card_check_effects(card_checker *ck, const card *c, const char *path, ol_format f, fx_source src,
                        const card_effect *fx, unsigned n, int required);
/* A condition at `path` standing at `site` (COND_AT_*). */
void card_check_condition(card_checker *ck, const card *c, const char *path, ol_format f, unsigned site,
                          const card_condition *cd);
/* "<format>.condition": a Prime Singular's printed condition, none else. */
void card_check_prime_condition(card_checker *ck, const card *c, ol_format f, const card_condition *cd);
/* "<format>.effects": a support's (required) or a Prime's (on entry) only. */
void card_check_card_effects(card_checker *ck, const card *c, ol_format f, const card_effect *fx, unsigned n);
/* "<format>.level": in range on a monster, absent on others. */
void card_check_level(card_checker *ck, const card *c, ol_format f, int level);
/* A mana cost at `path`: each class and `any` in 0..CARD_COST_MAX. */
void card_check_cost(card_checker *ck, const card *c, const char *path, const mana_cost *m);

/* The formats' card schemas, from the one list of engines
 * (verifiers/registry.c: verifier_ops.cards), so that this module needs no
 * list of formats: the i-th format (0..) that has a schema, its format in
 * *f (may be NULL), or NULL past the last; and the schema of format f, or
 * NULL. */
const card_schema *card_schema_at(size_t i, ol_format *f);
const card_schema *card_schema_of(ol_format f);

/* Kind bits for card_field.allowed / required. */
#define CARD_K(x) (1u << CARD_##x)
#define CARD_K_MONSTERS (CARD_K(MONSTER) | CARD_K(EVOLUTION) | CARD_K(PRIME_EVOLUTION) | CARD_K(PRIME_SINGULAR))
#define CARD_K_SUPPORTS (CARD_K(SPELL) | CARD_K(COUNTER))
#define CARD_K_PRIMES (CARD_K(PRIME_EVOLUTION) | CARD_K(PRIME_SINGULAR))
#define CARD_K_ALL (CARD_K_MONSTERS | CARD_K_SUPPORTS)

/* ---- The database ------------------------------------------------------ */

typedef struct cards cards;

/* One problem found by cards_finish(): the card it concerns ("" for the
 * database as a whole) and a sentence saying what is wrong. */
typedef struct {
    char id[CARD_ID_MAX + 1];
    char msg[256];
} cards_problem;

/* New empty database.  set and version are copied (truncated to their
 * maxima).  Returns NULL when out of memory. */
cards *cards_new(const char *set, const char *version);

/* Free the database and every card in it; sets *db to NULL.  NULL-safe. */
void cards_destroy(cards **db);

/* Copy `c` into the database.  Errors: CARDS_EDUPLICATE (same id),
 * CARDS_ESEALED, CARDS_ENOMEM, CARDS_EARG (empty id, enum out of range). */
int cards_add(cards *db, const card *c);

/* Check the whole database and seal it.  Checks: every evolution line has
 * exactly one card per stage from 1 up to its highest, stage 1 is a monster,
 * stage 2 an evolution, stage 3 a prime evolution, all of one class; no
 * dangling line (an evolution whose earlier stage is missing); stage/line
 * consistent with kind; every effect's op is allowed in its format with an
 * accepted target and an amount exactly when the op takes one.
 * Writes up to `max` problems to `out` and their total count to *n.
 * Returns 0 when there are none (the database is sealed), CARDS_EINVALID
 * otherwise (the database stays unsealed and must be destroyed). */
int cards_finish(cards *db, cards_problem *out, size_t max, size_t *n);

/* Set the content hash computed by the loader (BLAKE2b-256 of the file). */
void cards_set_hash(cards *db, const uint8_t hash[32]);
const uint8_t *cards_hash(const cards *db);   /* 32 bytes, zero if unset */

/* The 32-bit string hash (FNV-1a) the database indexes ids by; deck rules
 * hash card names with it too.  Not a content hash: see cards_hash(). */
uint32_t cards_str_hash(const char *s);

const char *cards_set(const cards *db);
const char *cards_version(const cards *db);
size_t cards_count(const cards *db);
const card *cards_at(const cards *db, size_t i);   /* in insertion order */

/* Lookup by id; NULL when absent.  Sealed databases use an index. */
const card *cards_find(const cards *db, const char *id);

/* 1 when every card of db carries format f's member (a deck of format f
 * can be judged with db), else 0.  Sealed databases only. */
int cards_serve(const cards *db, ol_format f);

/* 1 when c carries members of standalone formats only (card_schema), so
 * that it has no kind, class or other format's member to check. */
int card_standalone(const card *c);

/* The card of the exact next stage of c's line, NULL when c has no line or
 * is its line's last stage. */
const card *cards_next_stage(const cards *db, const card *c);

/* The stage-1 monster of c's line (c itself for a base monster); NULL when
 * c has no line. */
const card *cards_line_base(const cards *db, const card *c);

/* 1 when `id` is a valid card id for cards_add(): 1..CARD_ID_MAX bytes of
 * [A-Za-z0-9._-].  (The JSON format is stricter: [a-z0-9-].) */
int card_id_valid(const char *id);

#endif
