/* cards.c -- the in-memory card database and the vocabulary of card effects.
 *
 * WHAT.  Mintayn cards print nothing: every number, keyword and effect a
 * format gives a card comes from a database (snap.md 5.2).  This file holds
 * that database once it is in memory, and the closed vocabulary in which
 * card effects are written: effect primitives, target selectors, conditions,
 * keywords.  src/core/carddb.c turns the JSON file into `card` structs and hands
 * them over with cards_add(); cards_finish() checks everything that can be
 * checked about them and seals the database for read-only use by the
 * engines.
 *
 * WHY THE VOCABULARY IS DATA.  A judge must be able to point at the exact
 * thing an engine applied.  So no card carries prose: an effect is an
 * operation, a target selector and an amount, and what each operation
 * means, in which formats it exists, which selectors it accepts and where it
 * may sit (spell, counter, trigger, attack, a Prime's entry) is written down
 * exactly once, in the tables below.  The validator, the loader's messages,
 * the documentation (fixtures/cards/README.md) and any --help text read the
 * same rows; adding a primitive is adding a row.
 *
 * HOW.  Cards are copied one allocation each, so a `const card *` handed out
 * stays valid however the database grows.  An open-addressing hash on the id
 * (FNV-1a, linear probing, kept under half full) serves cards_find() both
 * before and after sealing, and gives cards_add() its duplicate check for
 * free.  cards_finish() walks every card against the per-kind rules -- the
 * identity here, then each format's checks, which its engine owns (the
 * card_schema of verifier_ops.cards, built on the card_check_* helpers
 * below) -- sorts
 * the cards by name to find duplicates, sorts those with a line by
 * (line, stage) to check the lines, and, when nothing is wrong, keeps from
 * that sort two small tables (next stage, line base) so the engines' most
 * frequent questions are O(1).
 *
 * This file is pure: no I/O, no clock, no allocation besides malloc.  It
 * never includes stdio.h, so problems are formatted by the tiny formatter
 * below (%s, %d and %% are all the messages need).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "verifiers/cards.h"

#define BIT(x) (1u << (x))
#define S_ BIT(OL_FORMAT_SNAP)
#define A_ BIT(OL_FORMAT_ADVANCED)
#define M_ BIT(OL_FORMAT_MASTER)
#define SPELL BIT(FX_SRC_SPELL)
#define COUNTER BIT(FX_SRC_COUNTER)
#define TRIGGER BIT(FX_SRC_TRIGGER)
#define ATTACK BIT(FX_SRC_ATTACK)
#define ENTRY BIT(FX_SRC_ENTRY)
#define ANY_SRC (SPELL | COUNTER | TRIGGER | ATTACK | ENTRY)
#define T(x) BIT(TGT_##x)

/* ---- Names ------------------------------------------------------------- */

static const char *const kind_names[CARD_KIND_COUNT] = {
    "monster", "spell", "counter", "evolution", "prime_evolution", "prime_singular"
};
static const char *const class_names[CLASS_COUNT] = {
    "coreon", "fluxion", "synaphera", "obscura", "aetherion"
};
static const char *const source_names[FX_SRC_COUNT] = {
    "spell", "counter", "trigger", "attack", "entry"
};
static const char *const when_names[TRIG_WHEN_COUNT] = { "on_reveal", "on_entry" };

static const struct {
    uint32_t bit;
    const char *name;
    const char *meaning;
} keywords[] = {
    {KW_BLOCKER, "blocker", "bench-only: a face-up bench monster with Blocker may be "
                            "assigned in the Blocker Window and becomes the attack's target"},
    {KW_DISRUPTOR, "disruptor", "active-only: may attack a face-up bench monster instead "
                                "of the opponent's active monster"},
    {KW_OVERDRIVE, "overdrive", "active-only: may declare one additional attack per Attack Phase"},
    {KW_SWAP, "swap", "moves itself between bench and active by its own trigger (a swap "
                      "effect on self), without using the once-per-game Swap Phase"},
    {KW_RESONANCE, "resonance", "counters only: the counter may target an [on reveal] or "
                                "[on entry] trigger (the resonance effect)"},
};
#define KEYWORD_COUNT (sizeof keywords / sizeof keywords[0])

/* Linear search of a name table: the tables are tiny and parsed once per
 * load, a hash would be more code than it saves.  Every table has a name
 * for each of its `count` entries (the names_round_trip test checks it). */
static int name_index(const char *const *names, int count, const char *s)
{
    if (!s)
        return -1;
    for (int i = 0; i < count; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

static const char *name_at(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : NULL;
}

const char *card_kind_name(card_kind k) { return name_at(kind_names, CARD_KIND_COUNT, (int)k); }
const char *card_class_name(card_class c) { return name_at(class_names, CLASS_COUNT, (int)c); }
const char *fx_source_name(fx_source s) { return name_at(source_names, FX_SRC_COUNT, (int)s); }
const char *trigger_when_name(trigger_when w) { return name_at(when_names, TRIG_WHEN_COUNT, (int)w); }
int card_kind_parse(const char *s) { return name_index(kind_names, CARD_KIND_COUNT, s); }
int card_class_parse(const char *s) { return name_index(class_names, CLASS_COUNT, s); }
int trigger_when_parse(const char *s) { return name_index(when_names, TRIG_WHEN_COUNT, s); }

int card_kind_is_monster(card_kind k) { return k == CARD_MONSTER || k == CARD_PRIME_SINGULAR; }
int card_kind_is_support(card_kind k) { return k == CARD_SPELL || k == CARD_COUNTER; }
int card_kind_is_evolution(card_kind k) { return k == CARD_EVOLUTION || k == CARD_PRIME_EVOLUTION; }
int card_kind_is_prime(card_kind k) { return k == CARD_PRIME_EVOLUTION || k == CARD_PRIME_SINGULAR; }

/* Monster-like: a monster on the field (has IMP, ATK/DEF, attacks). */
int card_kind_is_monster_like(card_kind k)
{
    return card_kind_is_monster(k) || card_kind_is_evolution(k);
}

uint32_t card_keyword_parse(const char *s)
{
    for (size_t i = 0; s && i < KEYWORD_COUNT; i++)
        if (!strcmp(keywords[i].name, s))
            return keywords[i].bit;
    return 0;
}

const char *card_keyword_name(uint32_t bit)
{
    for (size_t i = 0; i < KEYWORD_COUNT; i++)
        if (keywords[i].bit == bit)
            return keywords[i].name;
    return NULL;
}

const char *card_keyword_meaning(uint32_t bit)
{
    for (size_t i = 0; i < KEYWORD_COUNT; i++)
        if (keywords[i].bit == bit)
            return keywords[i].meaning;
    return NULL;
}

int card_id_valid(const char *id)
{
    size_t len;
    if (!id)
        return 0;
    len = strnlen(id, CARD_ID_MAX + 1);
    if (len == 0 || len > CARD_ID_MAX)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char ch = id[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
              || ch == '.' || ch == '_' || ch == '-'))
            return 0;
    }
    return 1;
}

/* ---- The vocabulary of effects ------------------------------------------
 *
 * One row per primitive.  Keep fixtures/cards/README.md section 3.2 in step:
 * it is this table in prose.
 */
static const fx_op_info ops[FX_OP_COUNT] = {
    [FX_IMP] = {"imp", S_, 1,
        T(SELF) | T(OWN_ACTIVE) | T(OPP_ACTIVE) | T(ATTACKER) | T(DEFENDER) | T(MONSTER)
            | T(OWN_MONSTER) | T(OPP_MONSTER),
        "the target monster's IMP changes by amount for the combat in progress, or, outside "
        "combat, for the next combat of this turn (snap 11.3)",
        SPELL | COUNTER | TRIGGER, -10000, 10000},
    [FX_ATK] = {"atk", A_, 1,
        T(SELF) | T(ATTACKER) | T(DEFENDER) | T(MONSTER) | T(OWN_MONSTER) | T(OPP_MONSTER),
        "the target monster's ATK changes by amount until the end of the turn",
        SPELL | COUNTER | ENTRY, -5000, 5000},
    [FX_DEF] = {"def", A_ | M_, 1,
        T(SELF) | T(ATTACKER) | T(DEFENDER) | T(MONSTER) | T(OWN_MONSTER) | T(OPP_MONSTER),
        "the target monster's DEF changes by amount until the end of the turn",
        SPELL | COUNTER | ATTACK | ENTRY, -5000, 5000},
    [FX_NEGATE] = {"negate", S_ | A_ | M_, 0, T(CHAIN_LINK),
        "the targeted spell or counter on the chain does not resolve and goes to the graveyard",
        COUNTER, 0, 0},
    [FX_RESONANCE] = {"resonance", S_, 0, T(TRIGGER),
        "the targeted [on reveal] or [on entry] trigger does not resolve (snap 15.5)",
        COUNTER, 0, 0},
    [FX_DESTROY] = {"destroy", S_ | A_ | M_, 0,
        T(OPP_ACTIVE) | T(ATTACKER) | T(DEFENDER) | T(MONSTER) | T(OPP_MONSTER) | T(OPP_BENCH),
        "the target monster is defeated: it and its whole evolution stack go to the graveyard",
        ANY_SRC, 0, 0},
    [FX_PREVENT_UNLOCK] = {"prevent_unlock", S_, 0, T(CONTROLLER) | T(OPPONENT) | T(PLAYER),
        "the target player's next Unlock Step unlocks nothing (snap 9.8)",
        SPELL | COUNTER | TRIGGER, 0, 0},
    [FX_PREVENT_LOCK] = {"prevent_lock", S_, 0, T(CONTROLLER) | T(OPPONENT) | T(PLAYER),
        "the target player's next Lock-in Phase locks nothing (snap 9.8)",
        SPELL | COUNTER | TRIGGER, 0, 0},
    [FX_PREVENT_DRAW] = {"prevent_draw", S_ | A_ | M_, 0, T(CONTROLLER) | T(OPPONENT) | T(PLAYER),
        "during the target player's next turn they select, lock and unlock nothing (snap 9.8); "
        "in advanced and master their next Selection Step is skipped",
        ANY_SRC, 0, 0},
    [FX_SWAP] = {"swap", S_, 0, T(SELF) | T(OWN_BENCH) | T(OPP_BENCH),
        "the target bench monster (self: the source, if on the bench) exchanges places with its "
        "controller's active monster, without using the Swap Phase (snap 12.3)",
        SPELL | COUNTER | TRIGGER, 0, 0},
    [FX_SELECT] = {"select", S_ | A_ | M_, 1, T(CONTROLLER),
        "the controller selects amount cards of their choice from their Support Deck (snap) or "
        "deck (advanced, master) into their hand",
        ANY_SRC, 1, 5},
    [FX_REMOVE_LOCKED] = {"remove_locked", S_, 0, T(OPP_LOCKED),
        "the targeted locked support goes to the graveyard, is not replaced and loses its place "
        "in the lock order (snap 9.9)",
        SPELL | COUNTER | TRIGGER, 0, 0},
    [FX_REDIRECT] = {"redirect", S_, 0, T(MONSTER) | T(OWN_MONSTER) | T(OPP_MONSTER),
        "the attack in progress now targets the targeted monster; no new Blocker Window opens",
        COUNTER, 0, 0},
    [FX_FIZZLE] = {"fizzle", S_ | A_ | M_, 0, T(NONE),
        "the attack in progress fizzles: it ends without combat or damage and still counts as "
        "the attacker's attack",
        COUNTER, 0, 0},
    [FX_DAMAGE] = {"damage", M_, 1, T(OPP_MONSTER),
        "amount damage to the target monster, destroyed if amount >= its DEF; when the opponent "
        "controls no monsters the attack is direct and the opponent loses amount LP",
        ATTACK, 1, 10000},
    [FX_LP_DAMAGE] = {"lp_damage", A_ | M_, 1, T(CONTROLLER) | T(OPPONENT) | T(PLAYER),
        "the target player loses amount LP",
        SPELL | COUNTER | ATTACK | ENTRY, 1, 10000},
    [FX_LP_GAIN] = {"lp_gain", A_ | M_, 1, T(CONTROLLER) | T(PLAYER),
        "the target player gains amount LP",
        SPELL | COUNTER | ATTACK | ENTRY, 1, 10000},
    [FX_POSITION] = {"position", A_ | M_, 0, T(SELF) | T(MONSTER) | T(OWN_MONSTER) | T(OPP_MONSTER),
        "the target monster switches between attack and defense position; this is not its "
        "once-per-turn position change",
        SPELL | COUNTER | ATTACK | ENTRY, 0, 0},
    [FX_MANA_ADD] = {"mana_add", M_, 1, T(CONTROLLER),
        "the controller may place up to amount cards from their hand face-down into their Mana "
        "Zone, each giving one mana of its class",
        SPELL | ATTACK | ENTRY, 1, 3},
    [FX_MANA_REMOVE] = {"mana_remove", M_, 1, T(OPPONENT) | T(PLAYER),
        "the target player sends amount cards of their choice from their Mana Zone to the "
        "graveyard",
        SPELL | COUNTER | ATTACK | ENTRY, 1, 5},
};

/* One row per selector (README.md 3.3).  Combat and chain selectors exist
 * only while a counter can be played; `self` needs a monster as source. */
static const fx_target_info targets[TGT_COUNT] = {
    [TGT_NONE] = {"none", S_ | A_ | M_, ANY_SRC, 0, "no object: the effect acts on the attack in progress"},
    [TGT_SELF] = {"self", S_ | A_ | M_, TRIGGER | ATTACK | ENTRY, 0,
        "the monster whose ability it is (an evolved monster: the whole stack)"},
    [TGT_CONTROLLER] = {"controller", S_ | A_ | M_, ANY_SRC, 0, "the player who controls the source"},
    [TGT_OPPONENT] = {"opponent", S_ | A_ | M_, ANY_SRC, 0, "the other player"},
    [TGT_OWN_ACTIVE] = {"own_active", S_, ANY_SRC, 0, "the controller's active monster"},
    [TGT_OPP_ACTIVE] = {"opp_active", S_, ANY_SRC, 0, "the opponent's active monster"},
    [TGT_ATTACKER] = {"attacker", S_ | A_ | M_, COUNTER, 0, "the attacking monster of the attack in progress"},
    [TGT_DEFENDER] = {"defender", S_ | A_ | M_, COUNTER, 0,
        "the monster the attack in progress targets (after any Blocker)"},
    [TGT_MONSTER] = {"monster", S_ | A_ | M_, ANY_SRC, 1, "a chosen face-up monster on the field"},
    [TGT_OWN_MONSTER] = {"own_monster", S_ | A_ | M_, ANY_SRC, 1, "a chosen face-up monster of the controller"},
    [TGT_OPP_MONSTER] = {"opp_monster", S_ | A_ | M_, ANY_SRC, 1, "a chosen face-up monster of the opponent"},
    [TGT_OWN_BENCH] = {"own_bench", S_, ANY_SRC, 1, "a chosen face-up bench monster of the controller"},
    [TGT_OPP_BENCH] = {"opp_bench", S_, ANY_SRC, 1, "a chosen face-up bench monster of the opponent"},
    [TGT_PLAYER] = {"player", S_ | A_ | M_, ANY_SRC, 1, "a chosen player"},
    [TGT_CHAIN_LINK] = {"chain_link", S_ | A_ | M_, COUNTER, 1, "a chosen spell or counter on the current chain"},
    [TGT_TRIGGER] = {"trigger", S_, COUNTER, 1, "a chosen announced trigger that has not resolved"},
    [TGT_OPP_LOCKED] = {"opp_locked", S_, ANY_SRC, 1, "a chosen locked support of the opponent"},
};

/* One row per condition (README.md 3.4). */
static const cond_info conds[COND_COUNT] = {
    [COND_NONE] = {"none", S_ | A_ | M_, COND_AT_PRIME | COND_AT_ATTACK, 0, 0, 0, "always"},
    [COND_OWN_DEFEATED_MIN] = {"own_defeated_min", S_ | A_ | M_, COND_AT_PRIME | COND_AT_ATTACK, 1, 1, 10,
        "the controller has had at least amount monsters defeated this game"},
    [COND_OPP_DEFEATED_MIN] = {"opp_defeated_min", S_ | A_ | M_, COND_AT_PRIME | COND_AT_ATTACK, 1, 1, 10,
        "the opponent has had at least amount monsters defeated this game"},
    [COND_OWN_FIELD_MAX] = {"own_field_max", S_ | A_ | M_, COND_AT_PRIME | COND_AT_ATTACK, 1, 0, 7,
        "the controller has at most amount monsters on the field"},
    [COND_LP_MAX] = {"lp_max", A_ | M_, COND_AT_PRIME | COND_AT_ATTACK, 1, 1, 10000,
        "the controller has at most amount LP"},
    [COND_CLASS_MANA_MIN] = {"class_mana_min", M_, COND_AT_PRIME | COND_AT_ATTACK, 1, 1, 20,
        "the controller has at least amount mana of the card's class"},
    [COND_ONCE_PER_GAME] = {"once_per_game", M_, COND_AT_ATTACK, 0, 0, 0,
        "this attack of this card has not yet been declared by its controller this game"},
};

const fx_op_info *fx_op_describe(fx_op op)
{
    return (int)op >= 0 && op < FX_OP_COUNT ? &ops[op] : NULL;
}

int fx_op_parse(const char *name)
{
    for (int i = 0; name && i < FX_OP_COUNT; i++)
        if (!strcmp(ops[i].name, name))
            return i;
    return -1;
}

const fx_target_info *fx_target_describe(fx_target t)
{
    return (int)t >= 0 && t < TGT_COUNT ? &targets[t] : NULL;
}

const char *fx_target_name(fx_target t)
{
    const fx_target_info *ti = fx_target_describe(t);
    return ti ? ti->name : NULL;
}

int fx_target_parse(const char *name)
{
    for (int i = 0; name && i < TGT_COUNT; i++)
        if (!strcmp(targets[i].name, name))
            return i;
    return -1;
}

int fx_target_is_chosen(fx_target t)
{
    const fx_target_info *ti = fx_target_describe(t);
    return ti ? ti->chosen : 0;
}

const cond_info *cond_describe(cond_kind k)
{
    return (int)k >= 0 && k < COND_COUNT ? &conds[k] : NULL;
}

const char *cond_kind_name(cond_kind k)
{
    const cond_info *ci = cond_describe(k);
    return ci ? ci->name : NULL;
}

int cond_kind_parse(const char *name)
{
    for (int i = 0; name && i < COND_COUNT; i++)
        if (!strcmp(conds[i].name, name))
            return i;
    return -1;
}

/* ---- The database object ----------------------------------------------- */

struct cards {
    char set[CARDS_SET_MAX + 1];
    char version[CARDS_VERSION_MAX + 1];
    uint8_t hash[32];
    card **v;            /* one allocation per card, so pointers stay put    */
    size_t n, cap;
    uint32_t *slots;     /* id hash: card index + 1, 0 = empty               */
    size_t nslots;       /* a power of two, always more than twice n         */
    int32_t *next;       /* sealed: index of the next stage, -1 for none     */
    int32_t *base;       /* sealed: index of the line's stage 1, -1 for none */
    int sealed;
};

static void copy_trunc(char *dst, size_t cap, const char *src)
{
    size_t len = src ? strnlen(src, cap - 1) : 0;
    if (len)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

cards *cards_new(const char *set, const char *version)
{
    cards *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    copy_trunc(db->set, sizeof db->set, set);
    copy_trunc(db->version, sizeof db->version, version);
    return db;
}

void cards_destroy(cards **db)
{
    if (!db || !*db)
        return;
    for (size_t i = 0; i < (*db)->n; i++)
        free((*db)->v[i]);
    free((*db)->v);
    free((*db)->slots);
    free((*db)->next);
    free((*db)->base);
    free(*db);
    *db = NULL;
}

uint32_t cards_str_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Index of the card with this id, or -1. */
static long find_index(const cards *db, const char *id)
{
    if (!db->nslots || !id)
        return -1;
    size_t mask = db->nslots - 1;
    for (size_t i = cards_str_hash(id) & mask;; i = (i + 1) & mask) {
        uint32_t s = db->slots[i];
        if (!s)
            return -1;
        if (!strcmp(db->v[s - 1]->id, id))
            return (long)(s - 1);
    }
}

static void slot_insert(uint32_t *slots, size_t nslots, const char *id, size_t index)
{
    size_t mask = nslots - 1;
    size_t i = cards_str_hash(id) & mask;
    while (slots[i])
        i = (i + 1) & mask;
    slots[i] = (uint32_t)(index + 1);
}

/* Make room for one more card: the pointer array and the hash. */
static int reserve_one(cards *db)
{
    if (db->n == db->cap) {
        size_t cap = db->cap ? db->cap * 2 : 64;
        card **v = realloc(db->v, cap * sizeof *v);
        if (!v)
            return CARDS_ENOMEM;
        db->v = v;
        db->cap = cap;
    }
    if (2 * (db->n + 1) >= db->nslots) {
        size_t nslots = db->nslots ? db->nslots * 2 : 128;
        uint32_t *slots = calloc(nslots, sizeof *slots);
        if (!slots)
            return CARDS_ENOMEM;
        for (size_t i = 0; i < db->n; i++)
            slot_insert(slots, nslots, db->v[i]->id, i);
        free(db->slots);
        db->slots = slots;
        db->nslots = nslots;
    }
    return CARDS_OK;
}

static int terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

int cards_add(cards *db, const card *c)
{
    assert(db && c);
    if (db->sealed)
        return CARDS_ESEALED;
    if (!card_id_valid(c->id) || !terminated(c->name, sizeof c->name)
        || !terminated(c->line, sizeof c->line) || (int)c->kind < 0
        || c->kind >= CARD_KIND_COUNT || (int)c->cls < 0 || c->cls >= CLASS_COUNT)
        return CARDS_EARG;
    if (find_index(db, c->id) >= 0)
        return CARDS_EDUPLICATE;
    if (db->n >= UINT32_MAX - 1)
        return CARDS_ENOMEM;
    int rc = reserve_one(db);
    if (rc < 0)
        return rc;
    card *copy = malloc(sizeof *copy);
    if (!copy)
        return CARDS_ENOMEM;
    *copy = *c;
    if (!copy->members) {
        /* a card built without saying: a card of every format that is not
         * standalone (the Mintayn family), as every card was before
         * standalone formats */
        const card_schema *fmt;
        ol_format f;
        for (size_t i = 0; (fmt = card_schema_at(i, &f)); i++)
            if (!fmt->standalone)
                copy->members |= 1u << f;
    }
    db->v[db->n] = copy;
    slot_insert(db->slots, db->nslots, copy->id, db->n);
    db->n++;
    return CARDS_OK;
}

void cards_set_hash(cards *db, const uint8_t hash[32])
{
    assert(db && hash);
    memcpy(db->hash, hash, sizeof db->hash);
}

const uint8_t *cards_hash(const cards *db) { return db->hash; }
const char *cards_set(const cards *db) { return db->set; }
const char *cards_version(const cards *db) { return db->version; }
size_t cards_count(const cards *db) { return db ? db->n : 0; }

const card *cards_at(const cards *db, size_t i)
{
    return db && i < db->n ? db->v[i] : NULL;
}

const card *cards_find(const cards *db, const char *id)
{
    long i = db ? find_index(db, id) : -1;
    return i < 0 ? NULL : db->v[i];
}

/* The card of `line` at `stage`, by scanning: only for unsealed databases. */
static const card *scan_line(const cards *db, const char *line, int stage)
{
    for (size_t i = 0; i < db->n; i++)
        if (db->v[i]->stage == stage && !strcmp(db->v[i]->line, line))
            return db->v[i];
    return NULL;
}

const card *cards_next_stage(const cards *db, const card *c)
{
    if (!db || !c || !c->line[0])
        return NULL;
    if (!db->sealed)
        return scan_line(db, c->line, c->stage + 1);
    long i = find_index(db, c->id);
    return i < 0 || db->next[i] < 0 ? NULL : db->v[db->next[i]];
}

const card *cards_line_base(const cards *db, const card *c)
{
    if (!db || !c || !c->line[0])
        return NULL;
    if (!db->sealed)
        return scan_line(db, c->line, 1);
    long i = find_index(db, c->id);
    return i < 0 || db->base[i] < 0 ? NULL : db->v[db->base[i]];
}

/* ---- Problems -----------------------------------------------------------
 *
 * A problem is a sentence; the formatter understands %s, %d and %%, which is
 * all the messages use (stdio is not available here, on purpose).
 */
struct card_checker {
    cards_problem *out;
    size_t max;
    size_t count;
};
typedef struct card_checker checker;

typedef struct {
    char *p;
    size_t left;   /* bytes left, including the terminator */
} sbuf;

static void sb_putc(sbuf *b, char ch)
{
    if (b->left > 1) {
        *b->p++ = ch;
        b->left--;
    }
}

static void sb_puts(sbuf *b, const char *s)
{
    for (; s && *s; s++)
        sb_putc(b, *s);
}

static void sb_putd(sbuf *b, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    if (v < 0)
        sb_putc(b, '-');
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        sb_putc(b, digits[--n]);
}

static void vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
    sbuf b = {out, cap};
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            sb_putc(&b, *fmt);
            continue;
        }
        fmt++;
        if (*fmt == 's')
            sb_puts(&b, va_arg(ap, const char *));
        else if (*fmt == 'd')
            sb_putd(&b, va_arg(ap, int));
        else if (*fmt == '%')
            sb_putc(&b, '%');
        else {
            assert(!"unknown conversion");
            break;
        }
    }
    *b.p = '\0';
}

void card_path(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(out, cap, fmt, ap);
    va_end(ap);
}

void card_report(checker *ck, const card *c, const char *fmt, ...)
{
    if (ck->count < ck->max) {
        cards_problem *p = &ck->out[ck->count];
        va_list ap;
        copy_trunc(p->id, sizeof p->id, c ? c->id : "");
        va_start(ap, fmt);
        vformat(p->msg, sizeof p->msg, fmt, ap);
        va_end(ap);
    }
    ck->count++;
}

/* ---- Checking one card --------------------------------------------------
 *
 * Paths in messages are JSON paths into the card ("snap.triggers[0].effects[1]")
 * so a problem found on the structs still points into the file.
 */
#define PATH_MAX_ 96

int card_in_range(long v, long lo, long hi) { return v >= lo && v <= hi; }

static void check_amount(checker *ck, const card *c, const char *path,
                         const fx_op_info *oi, int32_t amount)
{
    if (!oi->takes_amount) {
        if (amount)
            card_report(ck, c, "%s: effect primitive \"%s\" takes no amount", path, oi->name);
    } else if (!amount) {
        card_report(ck, c, "%s: effect primitive \"%s\" needs a nonzero amount", path, oi->name);
    } else if (!card_in_range(amount, oi->amount_min, oi->amount_max)) {
        card_report(ck, c, "%s: amount %d of \"%s\" is out of range %d..%d", path, (int)amount,
               oi->name, (int)oi->amount_min, (int)oi->amount_max);
    }
}

static void check_target(checker *ck, const card *c, const char *path, ol_format f,
                         fx_source src, const fx_op_info *oi, fx_target t)
{
    const fx_target_info *ti = fx_target_describe(t);
    if (!ti) {
        card_report(ck, c, "%s: unknown target #%d", path, (int)t);
        return;
    }
    if (!(oi->targets & BIT(t)))
        card_report(ck, c, "%s: effect primitive \"%s\" does not accept target \"%s\"", path,
               oi->name, ti->name);
    else if (!(ti->formats & BIT(f)))
        card_report(ck, c, "%s: target \"%s\" is not used in %s", path, ti->name, ol_format_name(f));
    else if (!(ti->sources & BIT(src)))
        card_report(ck, c, "%s: target \"%s\" is not allowed in %s effects", path, ti->name,
               source_names[src]);
}

static void check_effect(checker *ck, const card *c, const char *path, ol_format f,
                         fx_source src, const card_effect *e)
{
    const fx_op_info *oi = fx_op_describe(e->op);
    if (!oi) {
        card_report(ck, c, "%s: unknown effect primitive #%d", path, (int)e->op);
        return;
    }
    if (!(oi->formats & BIT(f))) {
        card_report(ck, c, "%s: effect primitive \"%s\" is not used in %s", path, oi->name,
               ol_format_name(f));
        return;
    }
    if (!(oi->sources & BIT(src))) {
        card_report(ck, c, "%s: effect primitive \"%s\" is not allowed in %s effects", path, oi->name,
               source_names[src]);
        return;
    }
    check_target(ck, c, path, f, src, oi, e->target);
    check_amount(ck, c, path, oi, e->amount);
    /* the format's own rule on an effect (Snap: keyword-bound primitives) */
    const card_schema *own = card_schema_of(f);
    if (own && own->effect)
        own->effect(ck, c, path, e);
}

/* An effect list at `path` ("snap.effects"); `required`: it may not be empty. */
void card_check_effects(checker *ck, const card *c, const char *path, ol_format f,
                          fx_source src, const card_effect *fx, unsigned n, int required)
{
    char at[PATH_MAX_];
    if (n > CARD_MAX_EFFECTS) {
        card_report(ck, c, "%s: more than %d effects", path, CARD_MAX_EFFECTS);
        return;
    }
    if (required && n == 0)
        card_report(ck, c, "%s: needs at least one effect", path);
    for (unsigned i = 0; i < n; i++) {
        card_path(at, sizeof at, "%s[%d]", path, (int)i);
        check_effect(ck, c, at, f, src, &fx[i]);
    }
}

void card_check_condition(checker *ck, const card *c, const char *path, ol_format f,
                            unsigned site, const card_condition *cd)
{
    const cond_info *ci = cond_describe(cd->kind);
    if (!ci)
        card_report(ck, c, "%s: unknown condition #%d", path, (int)cd->kind);
    else if (!(ci->formats & BIT(f)))
        card_report(ck, c, "%s: condition \"%s\" is not used in %s", path, ci->name, ol_format_name(f));
    else if (!(ci->sites & site))
        card_report(ck, c, "%s: condition \"%s\" is only for attacks", path, ci->name);
    else if (!ci->takes_amount && cd->amount)
        card_report(ck, c, "%s: condition \"%s\" takes no amount", path, ci->name);
    else if (ci->takes_amount && !card_in_range(cd->amount, ci->amount_min, ci->amount_max))
        card_report(ck, c, "%s: amount %d of condition \"%s\" is out of range %d..%d", path,
               (int)cd->amount, ci->name, (int)ci->amount_min, (int)ci->amount_max);
}

/* Only a Prime Singular prints a condition; everyone else must leave it none. */
void card_check_prime_condition(checker *ck, const card *c, ol_format f,
                                  const card_condition *cd)
{
    char path[PATH_MAX_];
    card_path(path, sizeof path, "%s.condition", ol_format_name(f));
    if (c->kind == CARD_PRIME_SINGULAR)
        card_check_condition(ck, c, path, f, COND_AT_PRIME, cd);
    else if (cd->kind != COND_NONE || cd->amount)
        card_report(ck, c, "%s is only for a prime_singular", path);
}

/* The stage a kind has in its line, 0 when it has none. */
static int kind_stage(card_kind k)
{
    switch (k) {
    case CARD_MONSTER: return 1;
    case CARD_EVOLUTION: return 2;
    case CARD_PRIME_EVOLUTION: return 3;
    default: return 0;
    }
}

/* 1 when the card's line and stage agree with its kind (line checks use it). */
static int line_consistent(const card *c)
{
    int want = kind_stage(c->kind);
    if (!c->line[0])
        return c->stage == 0 && (c->kind == CARD_MONSTER || want == 0);
    return want != 0 && c->stage == want;
}

static void check_identity(checker *ck, const card *c)
{
    const char *kind = kind_names[c->kind];
    if (!c->name[0])
        card_report(ck, c, "has no name");
    if (line_consistent(c))
        return;
    if (!c->line[0] && card_kind_is_evolution(c->kind))
        card_report(ck, c, "kind \"%s\" needs an evolution line", kind);
    else if (!c->line[0])
        card_report(ck, c, "stage %d without an evolution line", (int)c->stage);
    else if (!kind_stage(c->kind))
        card_report(ck, c, "kind \"%s\" cannot belong to an evolution line (line \"%s\")", kind, c->line);
    else
        card_report(ck, c, "kind \"%s\" is stage %d of its line, not %d", kind, kind_stage(c->kind),
               (int)c->stage);
}

/* Monster-like cards may carry effects only when Prime (applied on entry);
 * supports must carry them. */
void card_check_card_effects(checker *ck, const card *c, ol_format f,
                               const card_effect *fx, unsigned n)
{
    char path[PATH_MAX_];
    card_path(path, sizeof path, "%s.effects", ol_format_name(f));
    if (card_kind_is_support(c->kind))
        card_check_effects(ck, c, path, f, c->kind == CARD_COUNTER ? FX_SRC_COUNTER : FX_SRC_SPELL,
                      fx, n, 1);
    else if (card_kind_is_prime(c->kind))
        card_check_effects(ck, c, path, f, FX_SRC_ENTRY, fx, n, 0);
    else if (n)
        card_report(ck, c, "%s is only for prime cards and supports, not kind \"%s\"", path,
               kind_names[c->kind]);
}

void card_check_level(checker *ck, const card *c, ol_format f, int level)
{
    if (card_kind_is_monster_like(c->kind) && !card_in_range(level, CARD_LEVEL_MIN, CARD_LEVEL_MAX))
        card_report(ck, c, "%s.level %d is out of range %d..%d", ol_format_name(f), level,
               CARD_LEVEL_MIN, CARD_LEVEL_MAX);
    else if (!card_kind_is_monster_like(c->kind) && level)
        card_report(ck, c, "%s.level is not allowed on kind \"%s\"", ol_format_name(f), kind_names[c->kind]);
}

void card_check_cost(checker *ck, const card *c, const char *path, const mana_cost *m)
{
    for (int i = 0; i < CLASS_COUNT; i++)
        if (m->by_class[i] > CARD_COST_MAX)
            card_report(ck, c, "%s.%s %d is out of range 0..%d", path, class_names[i],
                   (int)m->by_class[i], CARD_COST_MAX);
    if (m->any > CARD_COST_MAX)
        card_report(ck, c, "%s.any %d is out of range 0..%d", path, (int)m->any, CARD_COST_MAX);
}

/* The card's identity, then each format's checks (the registry's order). */
static void check_card(checker *ck, const card *c)
{
    const card_schema *fmt;
    ol_format f;
    /* a card of a standalone format (a playing card) has no Mintayn
     * identity to check; each format checks only the cards it is given */
    if (!card_standalone(c))
        check_identity(ck, c);
    for (size_t i = 0; (fmt = card_schema_at(i, &f)); i++)
        if (fmt->check && (c->members >> f & 1u))
            fmt->check(ck, c);
}

int card_standalone(const card *c)
{
    const card_schema *fmt;
    ol_format f;
    int alone = 0;
    for (size_t i = 0; (fmt = card_schema_at(i, &f)); i++)
        if (c->members >> f & 1u) {
            if (!fmt->standalone)
                return 0;
            alone = 1;
        }
    return alone;
}

int cards_serve(const cards *db, ol_format f)
{
    for (size_t i = 0; i < db->n; i++)
        if (!(db->v[i]->members >> f & 1u))
            return 0;
    return 1;
}

/* ---- Checking the whole database ---------------------------------------- */

static int by_name(const void *a, const void *b)
{
    const card *x = *(const card *const *)a, *y = *(const card *const *)b;
    return strcmp(x->name, y->name);
}

/* Snap's singleton rule counts names (snap.md 4.4): names must be unique. */
static int check_names(checker *ck, const cards *db)
{
    const card **v = malloc((db->n ? db->n : 1) * sizeof *v);
    if (!v)
        return CARDS_ENOMEM;
    if (db->n)   /* memcpy and qsort take no NULL, even for zero bytes */
        memcpy(v, db->v, db->n * sizeof *v);
    qsort(v, db->n, sizeof *v, by_name);
    for (size_t i = 1; i < db->n; i++)
        if (v[i]->name[0] && !strcmp(v[i]->name, v[i - 1]->name))
            card_report(ck, v[i], "duplicate name \"%s\" (also card \"%s\")", v[i]->name, v[i - 1]->id);
    free(v);
    return CARDS_OK;
}

/* qsort has no context argument; the comparator sees card pointers in a
 * parallel array of (index, card) pairs instead. */
typedef struct {
    size_t index;
    const card *c;
} line_entry;

static int by_line_stage(const void *a, const void *b)
{
    const line_entry *x = a, *y = b;
    int d = strcmp(x->c->line, y->c->line);
    if (d)
        return d;
    if (x->c->stage != y->c->stage)
        return x->c->stage < y->c->stage ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The cards that belong to a line (and agree with their kind), sorted by
 * (line, stage). */
static int sort_lines(const cards *db, line_entry **out, size_t *n)
{
    line_entry *v = malloc((db->n ? db->n : 1) * sizeof *v);
    size_t k = 0;
    if (!v)
        return CARDS_ENOMEM;
    for (size_t i = 0; i < db->n; i++)
        if (db->v[i]->line[0] && line_consistent(db->v[i]))
            v[k++] = (line_entry){i, db->v[i]};
    qsort(v, k, sizeof *v, by_line_stage);
    *out = v;
    *n = k;
    return CARDS_OK;
}

/* One line, v[0..n) sorted by stage: one card per stage from 1, no gaps,
 * one class. */
static void check_line(checker *ck, const line_entry *v, size_t n)
{
    const card *first = v[0].c;
    if (first->stage != 1)
        card_report(ck, first, "dangling evolution line \"%s\": stage 1 is missing", first->line);
    for (size_t i = 1; i < n; i++) {
        const card *c = v[i].c, *prev = v[i - 1].c;
        if (c->stage == prev->stage)
            card_report(ck, c, "line \"%s\" has two stage %d cards (also card \"%s\")", c->line,
                   (int)c->stage, prev->id);
        else if (c->stage != prev->stage + 1)
            card_report(ck, c, "dangling evolution line \"%s\": stage %d is missing", c->line,
                   prev->stage + 1);
        if (c->cls != first->cls)
            card_report(ck, c, "class \"%s\" differs from its line \"%s\" (card \"%s\" is \"%s\")",
                   class_names[c->cls], c->line, first->id, class_names[first->cls]);
    }
}

static void check_lines(checker *ck, const line_entry *v, size_t n)
{
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && !strcmp(v[b].c->line, v[a].c->line); b++)
            ;
        check_line(ck, v + a, b - a);
    }
}

/* Keep from the sorted lines what the engines ask for: next stage, base.
 * Only a database without problems gets here, so it has cards (db->n >= 1:
 * malloc is never asked for 0 bytes). */
static int link_lines(cards *db, const line_entry *v, size_t n)
{
    size_t sz = db->n * sizeof(int32_t);
    free(db->next);
    free(db->base);
    db->next = malloc(sz);
    db->base = malloc(sz);
    if (!db->next || !db->base)
        return CARDS_ENOMEM;
    for (size_t i = 0; i < db->n; i++)
        db->next[i] = db->base[i] = -1;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && !strcmp(v[b].c->line, v[a].c->line); b++)
            db->next[v[b - 1].index] = (int32_t)v[b].index;
        for (size_t i = a; i < b; i++)
            db->base[v[i].index] = (int32_t)v[a].index;
    }
    return CARDS_OK;
}

int cards_finish(cards *db, cards_problem *out, size_t max, size_t *n)
{
    checker ck = {out, out ? max : 0, 0};
    line_entry *lines = NULL;
    size_t nlines = 0;
    int rc = CARDS_ENOMEM;
    assert(db);
    if (db->sealed) {
        rc = CARDS_OK;
        goto done;
    }
    if (db->n == 0)
        card_report(&ck, NULL, "the database has no cards");
    for (size_t i = 0; i < db->n; i++)
        check_card(&ck, db->v[i]);
    if (check_names(&ck, db) < 0 || sort_lines(db, &lines, &nlines) < 0)
        goto done;
    check_lines(&ck, lines, nlines);
    if (ck.count) {
        rc = CARDS_EINVALID;
        goto done;
    }
    if (link_lines(db, lines, nlines) < 0)
        goto done;
    db->sealed = 1;
    rc = CARDS_OK;
done:
    free(lines);
    if (n)
        *n = ck.count;
    return rc;
}
