/* test_cards.c -- the card database: verifiers/cards.c (suite `cards`) and
 * its JSON loader src/core/carddb.c (suite `carddb`).
 *
 * The core set is checked against what the project needs from it (every
 * class can build decks in every format, every Snap primitive and keyword
 * is used), and each file of fixtures/cards/broken/ against the phrase the
 * loader must say about it.  Paths are relative to $top_srcdir, which
 * `make check` exports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <sodium.h>

#include "src/core/carddb.h"
#include "verifiers/cards.h"

#define ERR_LEN 8192

static char *fixture(const char *rel)
{
    static char path[4096];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/%s", top && *top ? top : ".", rel);
    return path;
}

static cards *load_core(void)
{
    char err[ERR_LEN];
    cards *db = NULL;
    int rc = carddb_load_file(fixture("fixtures/cards/core.json"), &db, err, sizeof err);
    cr_assert_eq(rc, CARDS_OK, "core.json does not load:\n%s", err);
    cr_assert_not_null(db);
    return db;
}

static int monster_like(const card *c)
{
    return card_kind_is_monster(c->kind) || card_kind_is_evolution(c->kind);
}

/* ---- The vocabulary tables ---------------------------------------------- */

Test(cards, names_round_trip)
{
    for (int k = 0; k < CARD_KIND_COUNT; k++)
        cr_assert_eq(card_kind_parse(card_kind_name((card_kind)k)), k);
    for (int c = 0; c < CLASS_COUNT; c++)
        cr_assert_eq(card_class_parse(card_class_name((card_class)c)), c);
    for (int t = 0; t < TGT_COUNT; t++)
        cr_assert_eq(fx_target_parse(fx_target_name((fx_target)t)), t);
    for (int k = 0; k < COND_COUNT; k++)
        cr_assert_eq(cond_kind_parse(cond_kind_name((cond_kind)k)), k);
    for (int w = 0; w < TRIG_WHEN_COUNT; w++)
        cr_assert_eq(trigger_when_parse(trigger_when_name((trigger_when)w)), w);
    for (uint32_t bit = 1; bit <= KW_RESONANCE; bit <<= 1)
        cr_assert_eq(card_keyword_parse(card_keyword_name(bit)), bit);
    cr_assert_str_eq(card_kind_name(CARD_PRIME_EVOLUTION), "prime_evolution");
    cr_assert_null(card_kind_name(CARD_KIND_COUNT));
    cr_assert_eq(card_kind_parse("trap"), -1);
    cr_assert_eq(card_class_parse(NULL), -1);
    cr_assert_eq(card_keyword_parse("trigger"), 0u, "trigger is expressed by snap.triggers");
    cr_assert_null(fx_op_describe(FX_OP_COUNT));
}

Test(cards, op_table_is_complete)
{
    for (int op = 0; op < FX_OP_COUNT; op++) {
        const fx_op_info *oi = fx_op_describe((fx_op)op);
        cr_assert_not_null(oi);
        cr_assert_eq(fx_op_parse(oi->name), op, "op %d", op);
        cr_assert(oi->formats && oi->targets && oi->sources, "%s", oi->name);
        cr_assert(oi->meaning && strlen(oi->meaning) > 10, "%s", oi->name);
        if (oi->takes_amount)
            cr_assert(oi->amount_min < oi->amount_max, "%s", oi->name);
        else
            cr_assert(oi->amount_min == 0 && oi->amount_max == 0, "%s", oi->name);
    }
    cr_assert_eq(fx_op_parse("prevent_unlock"), FX_PREVENT_UNLOCK);
    cr_assert_eq(fx_op_parse("burn"), -1);
    cr_assert(fx_target_is_chosen(TGT_OPP_MONSTER));
    cr_assert(fx_target_is_chosen(TGT_CHAIN_LINK));
    cr_assert_not(fx_target_is_chosen(TGT_SELF));
    cr_assert_not(fx_target_is_chosen(TGT_OPPONENT));
}

/* ---- The core set ---------------------------------------------------------- */

Test(carddb, core_identity)
{
    cards *db = load_core();
    static const uint8_t zero[32];
    cr_assert_str_eq(cards_set(db), "core");
    cr_assert_str_eq(cards_version(db), "1.1.0");
    cr_assert_neq(memcmp(cards_hash(db), zero, 32), 0);
    cr_assert_geq(cards_count(db), 100);
    for (size_t i = 0; i < cards_count(db); i++)
        cr_assert_eq(cards_find(db, cards_at(db, i)->id), cards_at(db, i));
    cr_assert_null(cards_find(db, "cor-no-such-card"));
    cards_destroy(&db);
    cr_assert_null(db);
}

/* The hash is BLAKE2b-256 of the exact file bytes. */
Test(carddb, hash_is_of_file_bytes)
{
    FILE *f = fopen(fixture("fixtures/cards/core.json"), "rb");
    static char buf[1 << 20];
    uint8_t want[32];
    char hex[65], err[ERR_LEN];
    cards *db = NULL;
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cr_assert(n > 0 && n < sizeof buf);
    cr_assert_geq(sodium_init(), 0);
    crypto_generichash(want, sizeof want, (const unsigned char *)buf, n, NULL, 0);
    cr_assert_eq(carddb_load_buffer(buf, n, "core.json", &db, err, sizeof err), CARDS_OK, "%s", err);
    cr_assert_eq(memcmp(cards_hash(db), want, 32), 0);
    carddb_hash_hex(want, hex);
    cr_assert_eq(strlen(hex), 64);
    cr_assert_eq(strspn(hex, "0123456789abcdef"), 64);
    cards_destroy(&db);
}

typedef struct {
    int base, spells, counters, singulars, stage2_lines, stage3_lines;
    int adv_copies, adv_monsters, master_copies;
} class_census;

static void take_census(const cards *db, class_census cc[CLASS_COUNT])
{
    memset(cc, 0, sizeof(class_census) * CLASS_COUNT);
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        class_census *k = &cc[c->cls];
        int prime = card_kind_is_prime(c->kind);
        k->base += c->kind == CARD_MONSTER;
        k->spells += c->kind == CARD_SPELL;
        k->counters += c->kind == CARD_COUNTER;
        k->singulars += c->kind == CARD_PRIME_SINGULAR;
        k->stage2_lines += c->stage == 2;    /* one stage-2 card per line */
        k->stage3_lines += c->stage == 3;
        k->adv_copies += prime ? 1 : 2;
        k->adv_monsters += monster_like(c) ? (prime ? 1 : 2) : 0;
        k->master_copies += prime ? 1 : 3;
    }
}

/* Per-class minimums: with them every class can field at least two Snap
 * lineups and mono-class Advanced and Master decks, and the classes combine
 * into far more than 10 distinct legal decks per format. */
Test(carddb, core_class_minimums)
{
    cards *db = load_core();
    class_census cc[CLASS_COUNT];
    take_census(db, cc);
    for (int k = 0; k < CLASS_COUNT; k++) {
        const char *name = card_class_name((card_class)k);
        cr_assert_geq(cc[k].base, 5, "%s base monsters", name);
        cr_assert_geq(cc[k].stage2_lines, 2, "%s lines reaching stage 2", name);
        cr_assert_geq(cc[k].stage3_lines, 1, "%s lines reaching stage 3", name);
        cr_assert_geq(cc[k].singulars, 1, "%s prime singulars", name);
        cr_assert_geq(cc[k].spells, 5, "%s spells", name);
        cr_assert_geq(cc[k].counters, 4, "%s counters", name);
        cr_assert_geq(cc[k].adv_copies, 40, "%s: a 40-card advanced deck", name);
        cr_assert_geq(cc[k].adv_monsters, 5, "%s: advanced monsters", name);
        cr_assert_geq(cc[k].master_copies, 60, "%s: a 60-card master deck", name);
        /* Snap: 20 singleton supports from this class and its neighbour. */
        cr_assert_geq(cc[k].spells + cc[k].counters + cc[(k + 1) % CLASS_COUNT].spells
                          + cc[(k + 1) % CLASS_COUNT].counters, 20, "%s: snap supports", name);
    }
    cards_destroy(&db);
}

static void mark_ops(const card_effect *fx, unsigned n, unsigned *seen)
{
    for (unsigned i = 0; i < n; i++)
        *seen |= 1u << fx[i].op;
}

/* Every Snap primitive appears on the Supports of every class (Supports are
 * class-bound, so each class needs its own). */
Test(carddb, core_snap_primitives_per_class)
{
    cards *db = load_core();
    unsigned seen[CLASS_COUNT] = {0}, snap_ops = 0;
    for (int op = 0; op < FX_OP_COUNT; op++)
        if (fx_op_describe((fx_op)op)->formats & (1u << OL_FORMAT_SNAP))
            snap_ops |= 1u << op;
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        if (card_kind_is_support(c->kind))
            mark_ops(c->snap.effects, c->snap.n_effects, &seen[c->cls]);
    }
    for (int k = 0; k < CLASS_COUNT; k++)
        for (int op = 0; op < FX_OP_COUNT; op++)
            if (snap_ops & (1u << op))
                cr_assert(seen[k] & (1u << op), "%s supports never use \"%s\"",
                          card_class_name((card_class)k), fx_op_describe((fx_op)op)->name);
    cards_destroy(&db);
}

Test(carddb, core_keywords_and_triggers)
{
    cards *db = load_core();
    int kw[5] = {0}, reveal = 0, entry = 0;
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        for (int b = 0; b < 5; b++)
            kw[b] += (c->snap.keywords >> b) & 1;
        for (unsigned t = 0; t < c->snap.n_triggers; t++) {
            reveal += c->snap.triggers[t].when == TRIG_ON_REVEAL;
            entry += c->snap.triggers[t].when == TRIG_ON_ENTRY;
        }
        if (c->snap.keywords & KW_RESONANCE)
            cr_assert_eq(c->kind, CARD_COUNTER, "%s", c->id);
    }
    for (int b = 0; b < 5; b++)
        cr_assert_geq(kw[b], 3, "keyword \"%s\" on %d cards", card_keyword_name(1u << b), kw[b]);
    cr_assert_geq(reveal, 3);
    cr_assert_geq(entry, 3);
    cards_destroy(&db);
}

/* Numbers in the ranges the rulebooks describe. */
Test(carddb, core_numbers_are_sensible)
{
    cards *db = load_core();
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        if (!monster_like(c)) {
            cr_assert(c->snap.n_effects >= 1 && c->advanced.n_effects >= 1
                          && c->master.n_effects >= 1, "%s", c->id);
            continue;
        }
        cr_assert(c->snap.imp >= 1000 && c->snap.imp <= 10000, "%s imp", c->id);
        cr_assert(c->advanced.atk >= 500 && c->advanced.atk <= 3500, "%s atk", c->id);
        cr_assert(c->advanced.def >= 500 && c->advanced.def <= 3500, "%s def", c->id);
        cr_assert(c->advanced.level >= 1 && c->advanced.level <= 8, "%s level", c->id);
        cr_assert(c->master.level >= 1 && c->master.level <= 8, "%s level", c->id);
        cr_assert(c->master.n_attacks >= 1 && c->master.n_attacks <= 4, "%s attacks", c->id);
        for (unsigned a = 0; a < c->master.n_attacks; a++) {
            const master_attack *at = &c->master.attacks[a];
            int cost = at->cost.any;
            for (int k = 0; k < CLASS_COUNT; k++)
                cost += at->cost.by_class[k];
            cr_assert(at->name[0] && cost >= 1 && at->n_effects >= 1, "%s attack %u", c->id, a);
        }
        if (c->kind == CARD_PRIME_SINGULAR)
            cr_assert_neq(c->snap.condition.kind, COND_ONCE_PER_GAME, "%s", c->id);
    }
    cards_destroy(&db);
}

/* ---- Lines ------------------------------------------------------------- */

/* s1 -> s2 -> s3 is one whole line of a sealed database: each card's next
 * stage is the following one, and every card's base is s1. */
static void assert_line_of_three(const cards *db, const card *s1, const card *s2, const card *s3)
{
    cr_assert_eq(cards_next_stage(db, s1), s2);
    cr_assert_eq(cards_next_stage(db, s2), s3);
    cr_assert_null(cards_next_stage(db, s3));
    cr_assert_eq(cards_line_base(db, s3), s1);
    cr_assert_eq(cards_line_base(db, s2), s1);
    cr_assert_eq(cards_line_base(db, s1), s1);
}

Test(cards, next_stage_and_line_base)
{
    cards *db = load_core();
    const card *whelp = cards_find(db, "cor-ember-whelp");
    const card *drake = cards_find(db, "cor-ember-drake");
    const card *sovereign = cards_find(db, "cor-ember-sovereign");
    const card *solo = cards_find(db, "cor-magma-tortoise");
    const card *spell = cards_find(db, "cor-kindle-fury");
    cr_assert(whelp && drake && sovereign && solo && spell);
    cr_assert_eq(sovereign->kind, CARD_PRIME_EVOLUTION);
    assert_line_of_three(db, whelp, drake, sovereign);
    cr_assert_null(cards_next_stage(db, solo));
    cr_assert_null(cards_line_base(db, solo));
    cr_assert_null(cards_next_stage(db, spell));
    cr_assert_null(cards_line_base(db, NULL));
    cards_destroy(&db);
}

/* A minimal valid monster built in code, for the API tests. */
static card make_monster(const char *id, const char *name, card_kind kind, const char *line,
                         int stage)
{
    card c;
    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "%s", id);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.line, sizeof c.line, "%s", line);
    c.kind = kind;
    c.cls = CLASS_FLUXION;
    c.stage = (uint8_t)stage;
    c.snap.imp = 2000;
    c.advanced.atk = 1000;
    c.advanced.def = 1000;
    c.advanced.level = 3;
    c.master.def = 1000;
    c.master.level = 3;
    c.master.n_attacks = 1;
    snprintf(c.master.attacks[0].name, sizeof c.master.attacks[0].name, "Bite");
    c.master.attacks[0].cost.by_class[CLASS_FLUXION] = 1;
    c.master.attacks[0].n_effects = 1;
    c.master.attacks[0].effects[0] = (card_effect){FX_DAMAGE, TGT_OPP_MONSTER, 500};
    return c;
}

Test(cards, add_rejects_duplicates_and_bad_input)
{
    cards *db = cards_new("t", "1");
    card a = make_monster("flx-a", "A", CARD_MONSTER, "", 0);
    card b = make_monster("flx-a", "Other name", CARD_MONSTER, "", 0);
    card bad = make_monster("", "Nameless", CARD_MONSTER, "", 0);
    size_t n = 99;
    cr_assert_not_null(db);
    cr_assert_eq(cards_add(db, &a), CARDS_OK);
    cr_assert_eq(cards_add(db, &b), CARDS_EDUPLICATE);
    cr_assert_eq(cards_add(db, &bad), CARDS_EARG);
    bad = make_monster("flx b", "Space", CARD_MONSTER, "", 0);
    cr_assert_eq(cards_add(db, &bad), CARDS_EARG);
    bad = make_monster("flx-c", "C", CARD_MONSTER, "", 0);
    bad.kind = CARD_KIND_COUNT;
    cr_assert_eq(cards_add(db, &bad), CARDS_EARG);
    cr_assert_eq(cards_count(db), 1);
    cr_assert_str_eq(cards_find(db, "flx-a")->name, "A", "the first card stays");
    cr_assert_eq(cards_finish(db, NULL, 0, &n), CARDS_OK);
    cr_assert_eq(n, 0);
    cr_assert_eq(cards_add(db, &bad), CARDS_ESEALED);
    cards_destroy(&db);
}

/* Many cards: the id index grows and every pointer handed out stays valid. */
Test(cards, index_survives_growth)
{
    cards *db = cards_new("t", "1");
    const card *first = NULL;
    char id[32], name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "flx-%d", i);
        snprintf(name, sizeof name, "Card %d", i);
        card c = make_monster(id, name, CARD_MONSTER, "", 0);
        cr_assert_eq(cards_add(db, &c), CARDS_OK);
        if (i == 0)
            first = cards_find(db, "flx-0");
    }
    cr_assert_eq(cards_find(db, "flx-0"), first);
    cr_assert_str_eq(cards_find(db, "flx-999")->name, "Card 999");
    cr_assert_eq(cards_finish(db, NULL, 0, NULL), CARDS_OK);
    cr_assert_str_eq(cards_find(db, "flx-500")->id, "flx-500");
    cards_destroy(&db);
}

static int has_problem(const cards_problem *p, size_t n, const char *id, const char *phrase)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].id, id) && strstr(p[i].msg, phrase))
            return 1;
    return 0;
}

Test(cards, finish_reports_lines_names_and_effects)
{
    cards *db = cards_new("t", "1");
    card c[5] = {
        make_monster("flx-whelp", "Whelp", CARD_MONSTER, "flx-w", 1),
        make_monster("flx-dragon", "Dragon", CARD_PRIME_EVOLUTION, "flx-w", 3), /* no stage 2 */
        make_monster("flx-other", "Whelp", CARD_MONSTER, "", 0),                /* same name */
        make_monster("flx-drake", "Drake", CARD_EVOLUTION, "flx-x", 2),         /* no stage 1 */
        make_monster("flx-spell", "Spell", CARD_SPELL, "", 0),
    };
    cards_problem p[32];
    size_t n = 0;
    /* The spell: a negate needs a chain, so only counters may carry it. */
    memset(&c[4].snap, 0, sizeof c[4].snap);
    memset(&c[4].advanced, 0, sizeof c[4].advanced);
    memset(&c[4].master, 0, sizeof c[4].master);
    c[4].snap.n_effects = c[4].advanced.n_effects = c[4].master.n_effects = 1;
    c[4].snap.effects[0] = (card_effect){FX_NEGATE, TGT_CHAIN_LINK, 0};
    c[4].advanced.effects[0] = (card_effect){FX_ATK, TGT_OWN_MONSTER, 0};       /* no amount */
    c[4].master.effects[0] = (card_effect){FX_IMP, TGT_OWN_MONSTER, 500};       /* snap only */
    c[1].cls = CLASS_OBSCURA;
    for (int i = 0; i < 5; i++)
        cr_assert_eq(cards_add(db, &c[i]), CARDS_OK);
    cr_assert_eq(cards_finish(db, p, 32, &n), CARDS_EINVALID);
    cr_assert(has_problem(p, n, "flx-dragon", "dangling evolution line \"flx-w\": stage 2"));
    cr_assert(has_problem(p, n, "flx-dragon", "differs from its line"));
    cr_assert(has_problem(p, n, "flx-drake", "dangling evolution line \"flx-x\": stage 1"));
    cr_assert(has_problem(p, n, "flx-other", "duplicate name \"Whelp\""));
    cr_assert(has_problem(p, n, "flx-spell", "\"negate\" is not allowed in spell effects"));
    cr_assert(has_problem(p, n, "flx-spell", "\"atk\" needs a nonzero amount"));
    cr_assert(has_problem(p, n, "flx-spell", "\"imp\" is not used in master"));
    /* Unsealed, lookups still work (by scanning). */
    cr_assert_eq(cards_next_stage(db, cards_find(db, "flx-whelp")), NULL);
    cr_assert_str_eq(cards_line_base(db, cards_find(db, "flx-dragon"))->id, "flx-whelp");
    /* A short output array still gets the full count. */
    size_t n2 = 0;
    cr_assert_eq(cards_finish(db, p, 1, &n2), CARDS_EINVALID);
    cr_assert_eq(n2, n);
    cards_destroy(&db);
}

/* ---- Broken databases --------------------------------------------------- */

typedef struct {
    const char *file;
    const char *phrase;
} broken_case;

static const broken_case broken[] = {
    {"unknown-class.json", "card \"cor-test-whelp\": unknown class \"purple\""},
    {"unknown-kind.json", "card \"cor-test-spark\": unknown kind \"trap\""},
    {"dangling-line.json", "card \"cor-ghost-drake\": dangling evolution line \"cor-ghost\": stage 1 is missing"},
    {"duplicate-id.json", "card \"cor-test-spark\": duplicate id"},
    {"duplicate-name.json", "card \"cor-test-spark-2\": duplicate name \"Test Spark\""},
    {"missing-format.json", "card \"cor-test-whelp\" has no \"master\" properties"},
    {"unknown-primitive.json", "unknown effect primitive \"burn\""},
    {"unknown-target.json", "unknown target \"everyone\""},
    {"unknown-keyword.json", "unknown keyword \"flying\""},
    {"unknown-condition.json", "unknown condition \"full_moon\""},
    {"unknown-member.json", "card \"cor-test-whelp\": unknown member \"flavor\""},
    {"wrong-type.json", "snap.imp must be an integer"},
    {"out-of-range.json", "snap.imp 999999 is out of range 100..20000"},
    {"syntax-error.json", "syntax-error.json:3:32: JSON syntax error"},
    {"duplicate-key.json", "JSON syntax error: duplicate object key"},
    {"wrong-target.json", "effect primitive \"imp\" does not accept target \"chain_link\""},
    {"wrong-format-op.json", "effect primitive \"lp_damage\" is not used in snap"},
    {"missing-amount.json", "effect primitive \"imp\" needs an amount"},
    {"missing-member.json", "snap.imp is required for kind \"monster\""},
    {"class-mismatch.json", "class \"fluxion\" differs from its line \"cor-test\""},
    {"resonance-without-keyword.json", "needs the \"resonance\" keyword"},
};

Test(carddb, broken_databases_are_rejected)
{
    char rel[256], err[ERR_LEN];
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        cards *db = (cards *)1;
        snprintf(rel, sizeof rel, "fixtures/cards/broken/%s", broken[i].file);
        const char *path = fixture(rel);
        int rc = carddb_load_file(path, &db, err, sizeof err);
        cr_assert_eq(rc, CARDS_EINVALID, "%s loaded (rc %d)", broken[i].file, rc);
        cr_assert_null(db, "%s", broken[i].file);
        cr_assert(strstr(err, broken[i].phrase), "%s: expected \"%s\" in:\n%s", broken[i].file,
                  broken[i].phrase, err);
        cr_assert_eq(strncmp(err, path, strlen(path)), 0, "starts with the file name: %s", err);
    }
}

/* Every problem is reported, one per line, not just the first. */
Test(carddb, all_problems_reported)
{
    char err[ERR_LEN];
    cards *db = NULL;
    int rc = carddb_load_file(fixture("fixtures/cards/broken/several-problems.json"), &db, err,
                              sizeof err);
    cr_assert_eq(rc, CARDS_EINVALID);
    cr_assert(strstr(err, "unknown class \"purple\""), "%s", err);
    cr_assert(strstr(err, "unknown kind \"trap\""), "%s", err);
    cr_assert(strstr(err, "card \"cor-test-denial\" has no \"master\" properties"), "%s", err);
    cr_assert(strstr(err, "duplicate id"), "%s", err);
    int lines = 1;
    for (const char *p = err; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 4, "%s", err);
}

Test(carddb, unreadable_file_and_small_buffer)
{
    char err[64];
    cards *db = NULL;
    cr_assert_eq(carddb_load_file("/nonexistent/cards.json", &db, err, sizeof err), CARDS_EARG);
    cr_assert_null(db);
    cr_assert(strstr(err, "/nonexistent/cards.json"), "%s", err);
    /* A tiny buffer: still terminated, still starts with the source. */
    const char *bad = "{\"set\": 1, \"version\": [], \"cards\": {}, \"x\": 0}";
    cr_assert_eq(carddb_load_buffer(bad, strlen(bad), "mem", &db, err, sizeof err), CARDS_EINVALID);
    cr_assert_lt(strlen(err), sizeof err);
    cr_assert_eq(strncmp(err, "mem: ", 5), 0, "%s", err);
}

Test(carddb, default_path)
{
    setenv("ARBITER_CARDS", "/tmp/some.json", 1);
    cr_assert_str_eq(carddb_default_path(), "/tmp/some.json");
    unsetenv("ARBITER_CARDS");
    cr_assert(strstr(carddb_default_path(), "core.json"));
}

/* ---- Every refusal of cards_finish(), one card at a time ---------------------
 *
 * cards.h: cards_finish() checks every card against its kind, every effect
 * against the primitive table and every line, and writes one sentence per
 * problem.  Each case below breaks exactly one thing on an otherwise valid
 * card and must get exactly that sentence, and nothing else.  Most cannot
 * come out of the JSON loader (it refuses an unknown name before a struct
 * exists), but cards_add() is public and the checks are the database's own. */

/* A minimal valid Support of `kind` (select 1 in every format). */
static card make_support(const char *id, const char *name, card_kind kind)
{
    card c;
    card_effect fx = {FX_SELECT, TGT_CONTROLLER, 1};
    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "%s", id);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.kind = kind;
    c.cls = CLASS_FLUXION;
    c.snap.effects[0] = c.advanced.effects[0] = c.master.effects[0] = fx;
    c.snap.n_effects = c.advanced.n_effects = c.master.n_effects = 1;
    return c;
}

/* cards_finish() on a database of the `n` cards must refuse it with the
 * one problem `msg` on card `id`. */
static void only_problem(const card *c, size_t n, const char *id, const char *msg)
{
    cards *db = cards_new("t", "1");
    cards_problem p[8];
    size_t count = 99;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(cards_add(db, &c[i]), CARDS_OK, "%s", c[i].id);
    cr_assert_eq(cards_finish(db, p, 8, &count), CARDS_EINVALID, "expected: %s", msg);
    cr_assert_eq(count, 1, "expected only \"%s\", got %zu problems, the first \"%s\"", msg, count,
                 p[0].msg);
    cr_assert_str_eq(p[0].id, id);
    cr_assert_str_eq(p[0].msg, msg);
    cards_destroy(&db);
}

#define ONLY(card_, msg_) do { card c1_ = (card_); only_problem(&c1_, 1, c1_.id, (msg_)); } while (0)

Test(cards, a_valid_monster_and_supports_pass)
{
    cards *db = cards_new("t", "1");
    card c[3] = {make_monster("flx-m", "M", CARD_MONSTER, "", 0),
                 make_support("flx-s", "S", CARD_SPELL), make_support("flx-k", "K", CARD_COUNTER)};
    size_t n = 99;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(cards_add(db, &c[i]), CARDS_OK);
    cr_assert_eq(cards_finish(db, NULL, 0, &n), CARDS_OK);
    cr_assert_eq(n, 0);
    /* Sealed: finishing again changes nothing, adding is refused. */
    cr_assert_eq(cards_finish(db, NULL, 0, &n), CARDS_OK);
    cr_assert_eq(cards_add(db, &c[0]), CARDS_ESEALED);
    cards_destroy(&db);
}

Test(cards, an_empty_database_is_refused)
{
    cards *db = cards_new(NULL, "");
    cards_problem p[2];
    size_t n = 0;
    cr_assert_str_eq(cards_set(db), "");
    cr_assert_str_eq(cards_version(db), "");
    cr_assert_eq(cards_finish(db, p, 2, &n), CARDS_EINVALID);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(p[0].id, "", "a problem of the database as a whole names no card");
    cr_assert_str_eq(p[0].msg, "the database has no cards");
    cards_destroy(&db);
}

Test(cards, identity_and_line_refusals)
{
    card c = make_monster("flx-m", "", CARD_MONSTER, "", 0);
    ONLY(c, "has no name");
    c = make_monster("flx-e", "E", CARD_EVOLUTION, "", 0);
    c.snap.imp = 2000;
    ONLY(c, "kind \"evolution\" needs an evolution line");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 2);
    ONLY(c, "stage 2 without an evolution line");
    c = make_support("flx-s", "S", CARD_SPELL);
    snprintf(c.line, sizeof c.line, "flx-l");
    c.stage = 1;
    ONLY(c, "kind \"spell\" cannot belong to an evolution line (line \"flx-l\")");
    c = make_monster("flx-m", "M", CARD_MONSTER, "flx-l", 2);
    ONLY(c, "kind \"monster\" is stage 1 of its line, not 2");
    card two[2] = {make_monster("flx-a1", "A1", CARD_MONSTER, "flx-a", 1),
                   make_monster("flx-a2", "A2", CARD_EVOLUTION, "flx-a", 2)};
    card dup[3] = {two[0], two[1], make_monster("flx-a2b", "A2 again", CARD_EVOLUTION, "flx-a", 2)};
    only_problem(dup, 3, "flx-a2b", "line \"flx-a\" has two stage 2 cards (also card \"flx-a2\")");
    /* Two nameless cards: each has no name, neither is a duplicate name. */
    card nameless[2] = {make_monster("flx-x", "", CARD_MONSTER, "", 0),
                        make_monster("flx-y", "", CARD_MONSTER, "", 0)};
    cards *db = cards_new("t", "1");
    cards_problem p[4];
    size_t n = 0;
    cr_assert_eq(cards_add(db, &nameless[0]), CARDS_OK);
    cr_assert_eq(cards_add(db, &nameless[1]), CARDS_OK);
    cr_assert_eq(cards_finish(db, p, 4, &n), CARDS_EINVALID);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(p[0].msg, "has no name");
    cr_assert_str_eq(p[1].msg, "has no name");
    cards_destroy(&db);
}

Test(cards, snap_refusals)
{
    card c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.imp = 99;
    ONLY(c, "snap.imp 99 is out of range 100..20000");
    c.snap.imp = 20001;
    ONLY(c, "snap.imp 20001 is out of range 100..20000");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.n_effects = 1;
    c.snap.effects[0] = (card_effect){FX_SELECT, TGT_CONTROLLER, 1};
    ONLY(c, "snap.effects is not allowed on kind \"monster\" (use triggers)");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.imp = 1000;
    ONLY(c, "snap.imp is not allowed on kind \"spell\"");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.n_triggers = 1;
    c.snap.triggers[0] = (snap_trigger){TRIG_ON_ENTRY, 1, {{FX_SELECT, TGT_CONTROLLER, 1}}};
    ONLY(c, "snap.triggers is not allowed on kind \"spell\"");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.n_effects = 0;
    ONLY(c, "snap.effects: needs at least one effect");
    c.snap.n_effects = CARD_MAX_EFFECTS + 1;
    ONLY(c, "snap.effects: more than 4 effects");
    /* keywords */
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.keywords = 1u << 7;
    ONLY(c, "snap.keywords: unknown keyword bits");
    c.snap.keywords = KW_RESONANCE;
    ONLY(c, "snap.keywords: \"resonance\" is only for counters");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.keywords = KW_BLOCKER;
    ONLY(c, "snap.keywords: \"blocker\" is only for monsters");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.keywords = KW_SWAP;
    ONLY(c, "snap.keywords: \"swap\" needs a trigger with a \"swap\" effect on \"self\"");
    /* A swap on the bench is not a swap on self. */
    c.snap.n_triggers = 1;
    c.snap.triggers[0] = (snap_trigger){TRIG_ON_ENTRY, 2, {{FX_SELECT, TGT_CONTROLLER, 1},
                                                           {FX_SWAP, TGT_OWN_BENCH, 0}}};
    ONLY(c, "snap.keywords: \"swap\" needs a trigger with a \"swap\" effect on \"self\"");
    c.snap.triggers[0].effects[1].target = TGT_SELF;
    card ok = c;
    cards *db = cards_new("t", "1");
    cr_assert_eq(cards_add(db, &ok), CARDS_OK);
    cr_assert_eq(cards_finish(db, NULL, 0, NULL), CARDS_OK, "swap keyword with a swap on self");
    cards_destroy(&db);
    c.snap.keywords = 0;
    ONLY(c, "snap.triggers[0].effects[1]: a \"swap\" on \"self\" needs the \"swap\" keyword");
    /* triggers */
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.n_triggers = CARD_MAX_TRIGGERS + 1;
    ONLY(c, "snap.triggers: more than 4 triggers");
    c.snap.n_triggers = 1;
    c.snap.triggers[0] = (snap_trigger){TRIG_WHEN_COUNT, 1, {{FX_SELECT, TGT_CONTROLLER, 1}}};
    ONLY(c, "snap.triggers[0]: unknown trigger timing #2");
    c.snap.triggers[0].when = (trigger_when)-1;
    ONLY(c, "snap.triggers[0]: unknown trigger timing #-1");
    card e[2] = {make_monster("flx-a1", "A1", CARD_MONSTER, "flx-a", 1),
                 make_monster("flx-a2", "A2", CARD_EVOLUTION, "flx-a", 2)};
    e[1].snap.n_triggers = 1;
    e[1].snap.triggers[0] = (snap_trigger){TRIG_ON_REVEAL, 1, {{FX_SELECT, TGT_CONTROLLER, 1}}};
    only_problem(e, 2, "flx-a2", "snap.triggers[0]: only a monster can have an \"on_reveal\" trigger "
                                 "(kind \"evolution\" is never flipped)");
    /* condition on a card that is not a Prime Singular */
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.snap.condition = (card_condition){COND_OWN_DEFEATED_MIN, 2};
    ONLY(c, "snap.condition is only for a prime_singular");
    c.snap.condition = (card_condition){COND_NONE, 1};
    ONLY(c, "snap.condition is only for a prime_singular");
}

Test(cards, effect_refusals)
{
    card c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.effects[0].op = FX_OP_COUNT;
    ONLY(c, "snap.effects[0]: unknown effect primitive #20");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.effects[0] = (card_effect){FX_SELECT, TGT_COUNT, 1};
    ONLY(c, "snap.effects[0]: unknown target #17");
    /* opp_bench is a Snap selector: an Advanced destroy may not name it... */
    c = make_support("flx-s", "S", CARD_SPELL);
    c.advanced.effects[0] = (card_effect){FX_DESTROY, TGT_OPP_BENCH, 0};
    ONLY(c, "advanced.effects[0]: target \"opp_bench\" is not used in advanced");
    /* ...and the combat selectors exist only while a counter can be played. */
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.effects[0] = (card_effect){FX_IMP, TGT_ATTACKER, 500};
    ONLY(c, "snap.effects[0]: target \"attacker\" is not allowed in spell effects");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.effects[0] = (card_effect){FX_DESTROY, TGT_OPP_MONSTER, 3};
    ONLY(c, "snap.effects[0]: effect primitive \"destroy\" takes no amount");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.snap.effects[0] = (card_effect){FX_SELECT, TGT_CONTROLLER, 6};
    ONLY(c, "snap.effects[0]: amount 6 of \"select\" is out of range 1..5");
    c.snap.effects[0] = (card_effect){FX_IMP, TGT_OWN_MONSTER, -10001};
    ONLY(c, "snap.effects[0]: amount -10001 of \"imp\" is out of range -10000..10000");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.master.effects[0] = (card_effect){FX_MANA_ADD, TGT_CONTROLLER, 0};
    ONLY(c, "master.effects[0]: effect primitive \"mana_add\" needs a nonzero amount");
    /* Only Prime cards carry effects, applied on entry. */
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.advanced.n_effects = 1;
    c.advanced.effects[0] = (card_effect){FX_LP_GAIN, TGT_CONTROLLER, 500};
    ONLY(c, "advanced.effects is only for prime cards and supports, not kind \"monster\"");
    c = make_monster("flx-p", "P", CARD_PRIME_SINGULAR, "", 0);
    c.advanced.n_effects = 1;
    c.advanced.effects[0] = (card_effect){FX_LP_GAIN, TGT_CONTROLLER, 500};
    c.master.n_effects = 1;
    c.master.effects[0] = (card_effect){FX_FIZZLE, TGT_NONE, 0};
    ONLY(c, "master.effects[0]: effect primitive \"fizzle\" is not allowed in entry effects");
}

Test(cards, condition_refusals)
{
    card c = make_monster("flx-p", "P", CARD_PRIME_SINGULAR, "", 0);
    c.snap.condition = (card_condition){COND_COUNT, 0};
    ONLY(c, "snap.condition: unknown condition #7");
    c.snap.condition = (card_condition){COND_LP_MAX, 1000};
    ONLY(c, "snap.condition: condition \"lp_max\" is not used in snap");
    c.snap.condition = (card_condition){COND_NONE, 0};
    c.master.condition = (card_condition){COND_ONCE_PER_GAME, 0};
    ONLY(c, "master.condition: condition \"once_per_game\" is only for attacks");
    c.master.condition = (card_condition){COND_NONE, 2};
    ONLY(c, "master.condition: condition \"none\" takes no amount");
    c.master.condition = (card_condition){COND_OWN_FIELD_MAX, 8};
    ONLY(c, "master.condition: amount 8 of condition \"own_field_max\" is out of range 0..7");
    c.master.condition = (card_condition){COND_OWN_FIELD_MAX, 0};
    card ok = c;
    cards *db = cards_new("t", "1");
    cr_assert_eq(cards_add(db, &ok), CARDS_OK);
    cr_assert_eq(cards_finish(db, NULL, 0, NULL), CARDS_OK, "own_field_max 0 is in range");
    cards_destroy(&db);
    /* A Master attack's condition is checked where attacks are. */
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.attacks[0].condition = (card_condition){COND_CLASS_MANA_MIN, 21};
    ONLY(c, "master.attacks[0].condition: amount 21 of condition \"class_mana_min\" is out of range 1..20");
}

Test(cards, advanced_and_master_refusals)
{
    card c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.advanced.atk = -1;
    ONLY(c, "advanced.atk -1 is out of range 0..10000");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.advanced.def = 10001;
    ONLY(c, "advanced.def 10001 is out of range 0..10000");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.advanced.level = 13;
    ONLY(c, "advanced.level 13 is out of range 1..12");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.level = 0;
    ONLY(c, "master.level 0 is out of range 1..12");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.advanced.def = 100;
    ONLY(c, "advanced.atk and advanced.def are not allowed on kind \"spell\"");
    c = make_support("flx-s", "S", CARD_COUNTER);
    c.advanced.level = 2;
    ONLY(c, "advanced.level is not allowed on kind \"counter\"");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.master.def = 100;
    ONLY(c, "master.def is not allowed on kind \"spell\"");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.master.n_attacks = 1;
    ONLY(c, "master.attacks is not allowed on kind \"spell\"");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.master.cost.by_class[CLASS_OBSCURA] = 11;
    ONLY(c, "master.cost.obscura 11 is out of range 0..10");
    c = make_support("flx-s", "S", CARD_SPELL);
    c.master.cost.any = 11;
    ONLY(c, "master.cost.any 11 is out of range 0..10");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.def = 20001;
    ONLY(c, "master.def 20001 is out of range 0..20000");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.n_attacks = 0;
    ONLY(c, "master.attacks: kind \"monster\" needs 1 to 4 attacks, not 0");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    for (int i = 1; i < CARD_MAX_ATTACKS; i++)
        c.master.attacks[i] = c.master.attacks[0];
    c.master.n_attacks = CARD_MAX_ATTACKS + 1;
    ONLY(c, "master.attacks: kind \"monster\" needs 1 to 4 attacks, not 5");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.attacks[0].name[0] = '\0';
    ONLY(c, "master.attacks[0].name is empty");
    memset(c.master.attacks[0].name, 'x', sizeof c.master.attacks[0].name);
    ONLY(c, "master.attacks[0].name is empty");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.attacks[0].cost.any = 12;
    ONLY(c, "master.attacks[0].cost.any 12 is out of range 0..10");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.master.attacks[0].n_effects = 0;
    ONLY(c, "master.attacks[0].effects: needs at least one effect");
}

/* cards_add() refuses what it cannot store: unterminated strings, kinds and
 * classes outside their enums, ids outside [A-Za-z0-9._-]. */
Test(cards, add_refuses_malformed_structs)
{
    cards *db = cards_new("t", "1");
    card c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    memset(c.name, 'n', sizeof c.name);
    cr_assert_eq(cards_add(db, &c), CARDS_EARG, "unterminated name");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    memset(c.line, 'l', sizeof c.line);
    cr_assert_eq(cards_add(db, &c), CARDS_EARG, "unterminated line");
    c = make_monster("flx-m", "M", (card_kind)-1, "", 0);
    cr_assert_eq(cards_add(db, &c), CARDS_EARG, "negative kind");
    c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    c.cls = (card_class)-1;
    cr_assert_eq(cards_add(db, &c), CARDS_EARG, "negative class");
    c.cls = CLASS_COUNT;
    cr_assert_eq(cards_add(db, &c), CARDS_EARG, "class past the last");
    cr_assert_eq(cards_count(db), 0);
    c = make_monster("Flx_M.9-z", "M", CARD_MONSTER, "", 0);
    cr_assert_eq(cards_add(db, &c), CARDS_OK, "upper case, digits, '.', '_' and '-' are id characters");
    cr_assert_null(cards_find(db, NULL));
    cards_destroy(&db);
    cards_destroy(&db);
    cards_destroy(NULL);
    cr_assert_null(db);
}

Test(cards, id_validity)
{
    char long_id[CARD_ID_MAX + 2];
    memset(long_id, 'a', sizeof long_id);
    long_id[CARD_ID_MAX + 1] = '\0';
    cr_assert_not(card_id_valid(long_id), "65 bytes");
    long_id[CARD_ID_MAX] = '\0';
    cr_assert(card_id_valid(long_id), "64 bytes");
    cr_assert_not(card_id_valid(NULL));
    cr_assert_not(card_id_valid(""));
    cr_assert(card_id_valid("AZaz09._-"));
    cr_assert_not(card_id_valid("a/b"));
    cr_assert_not(card_id_valid("a+b"));
    cr_assert_not(card_id_valid("\xc3\xa9"));
}

/* Every lookup answers NULL (or -1, or 0) outside its table, below or above. */
Test(cards, lookups_outside_the_tables)
{
    cr_assert_null(card_kind_name((card_kind)-1));
    cr_assert_null(card_class_name(CLASS_COUNT));
    cr_assert_null(fx_source_name(FX_SRC_COUNT));
    cr_assert_str_eq(fx_source_name(FX_SRC_ENTRY), "entry");
    cr_assert_null(trigger_when_name(TRIG_WHEN_COUNT));
    cr_assert_null(fx_op_describe((fx_op)-1));
    cr_assert_eq(fx_op_parse(NULL), -1);
    cr_assert_null(fx_target_describe((fx_target)-1));
    cr_assert_null(fx_target_describe(TGT_COUNT));
    cr_assert_null(fx_target_name(TGT_COUNT));
    cr_assert_eq(fx_target_parse(NULL), -1);
    cr_assert_eq(fx_target_parse("everyone"), -1);
    cr_assert_eq(fx_target_is_chosen(TGT_COUNT), 0);
    cr_assert_null(cond_describe((cond_kind)-1));
    cr_assert_null(cond_describe(COND_COUNT));
    cr_assert_null(cond_kind_name(COND_COUNT));
    cr_assert_eq(cond_kind_parse(NULL), -1);
    cr_assert_eq(cond_kind_parse("full_moon"), -1);
    cr_assert_eq(card_keyword_parse(NULL), 0u);
    cr_assert_null(card_keyword_name(1u << 5));
    cr_assert_null(card_keyword_meaning(1u << 5));
    cr_assert_null(card_keyword_meaning(0));
    for (uint32_t bit = 1; bit <= KW_RESONANCE; bit <<= 1)
        cr_assert(card_keyword_meaning(bit) && strlen(card_keyword_meaning(bit)) > 20, "%u", bit);
    cr_assert(strstr(card_keyword_meaning(KW_RESONANCE), "counters only"));
    cr_assert(strstr(card_keyword_meaning(KW_BLOCKER), "bench-only"));
    cr_assert_eq(cards_count(NULL), 0);
    cr_assert_null(cards_at(NULL, 0));
    cr_assert_null(cards_find(NULL, "cor-ember-whelp"));
}

/* Lines of a sealed database: a card of another database is not found in
 * it, and NULLs are answered NULL. */
Test(cards, line_lookups_of_foreign_cards)
{
    cards *db = load_core();
    card stranger = make_monster("flx-stranger", "Stranger", CARD_MONSTER, "flx-line", 1);
    const card *whelp = cards_find(db, "cor-ember-whelp");
    cr_assert_null(cards_at(db, cards_count(db)));
    cr_assert_null(cards_next_stage(db, &stranger));
    cr_assert_null(cards_line_base(db, &stranger));
    cr_assert_null(cards_next_stage(NULL, whelp));
    cr_assert_null(cards_next_stage(db, NULL));
    cr_assert_null(cards_line_base(NULL, whelp));
    cards_destroy(&db);
}

/* card_id_valid(): each range of [A-Za-z0-9._-] ends where it says.  The
 * ASCII neighbours of every range are refused, its ends accepted. */
Test(cards, id_validity_range_edges)
{
    static const char *const refused[] = {"a`", "a{", "a@", "a[", "a/", "a:", "a~", "a,"};
    cr_assert(card_id_valid("az"));
    cr_assert(card_id_valid("AZ"));
    cr_assert(card_id_valid("09"));
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        cr_assert_not(card_id_valid(refused[i]), "\"%s\" is not an id", refused[i]);
}

/* Sealed, the database is the authority on a card's line (snap.md 5.3):
 * lookups go by id to its own card, whatever the struct handed in claims.
 * A copy of a line-less card that claims a line has neither base nor next
 * stage. */
Test(cards, sealed_line_lookups_trust_the_database_card)
{
    cards *db = load_core();
    const card *solo = cards_find(db, "cor-magma-tortoise");
    cr_assert_not_null(solo);
    cr_assert_str_eq(solo->line, "", "cor-magma-tortoise has no line");
    card claim = *solo;
    snprintf(claim.line, sizeof claim.line, "cor-ember");
    claim.stage = 1;
    cr_assert_null(cards_line_base(db, &claim));
    cr_assert_null(cards_next_stage(db, &claim));
    cards_destroy(&db);
}

/* README.md 5: advanced.atk is forbidden on a support, as advanced.def is. */
Test(cards, advanced_atk_on_a_support_is_refused)
{
    card c = make_support("flx-k", "K", CARD_COUNTER);
    c.advanced.atk = 100;
    ONLY(c, "advanced.atk and advanced.def are not allowed on kind \"counter\"");
}

/* The line checks sort the cards by (line, stage): a line added last stage
 * first is checked and linked exactly like one added in order. */
Test(cards, lines_link_whatever_order_their_cards_are_added)
{
    cards *db = cards_new("t", "1");
    card c[3] = {make_monster("flx-a3", "A3", CARD_PRIME_EVOLUTION, "flx-a", 3),
                 make_monster("flx-a2", "A2", CARD_EVOLUTION, "flx-a", 2),
                 make_monster("flx-a1", "A1", CARD_MONSTER, "flx-a", 1)};
    size_t n = 99;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(cards_add(db, &c[i]), CARDS_OK, "%s", c[i].id);
    cr_assert_eq(cards_finish(db, NULL, 0, &n), CARDS_OK);
    cr_assert_eq(n, 0);
    assert_line_of_three(db, cards_find(db, "flx-a1"), cards_find(db, "flx-a2"),
                         cards_find(db, "flx-a3"));
    cards_destroy(&db);
}

/* A line with three cards of one stage: each later card is blamed, naming
 * the one added just before it, in the order they were added. */
Test(cards, line_with_three_stage_2_cards_blames_the_later_two)
{
    cards *db = cards_new("t", "1");
    card c[4] = {make_monster("flx-a2-z", "Z", CARD_EVOLUTION, "flx-a", 2),
                 make_monster("flx-a1", "A1", CARD_MONSTER, "flx-a", 1),
                 make_monster("flx-a2-y", "Y", CARD_EVOLUTION, "flx-a", 2),
                 make_monster("flx-a2-x", "X", CARD_EVOLUTION, "flx-a", 2)};
    cards_problem p[4];
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        cr_assert_eq(cards_add(db, &c[i]), CARDS_OK, "%s", c[i].id);
    cr_assert_eq(cards_finish(db, p, 4, &n), CARDS_EINVALID);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(p[0].id, "flx-a2-y");
    cr_assert_str_eq(p[0].msg, "line \"flx-a\" has two stage 2 cards (also card \"flx-a2-z\")");
    cr_assert_str_eq(p[1].id, "flx-a2-x");
    cr_assert_str_eq(p[1].msg, "line \"flx-a\" has two stage 2 cards (also card \"flx-a2-y\")");
    cards_destroy(&db);
}

/* A Swap monster whose trigger lists more effects than a trigger holds: the
 * list is refused, and the search for its swap on self reads only the
 * CARD_MAX_EFFECTS effects the trigger can hold, so the keyword is refused
 * too. */
Test(cards, snap_swap_keyword_with_an_overlong_trigger)
{
    cards *db = cards_new("t", "1");
    card c = make_monster("flx-m", "M", CARD_MONSTER, "", 0);
    cards_problem p[4];
    size_t n = 0;
    c.snap.keywords = KW_SWAP;
    c.snap.n_triggers = 1;
    c.snap.triggers[0].when = TRIG_ON_ENTRY;
    c.snap.triggers[0].n_effects = CARD_MAX_EFFECTS + 1;
    for (int e = 0; e < CARD_MAX_EFFECTS; e++)
        c.snap.triggers[0].effects[e] = (card_effect){FX_SWAP, TGT_OWN_BENCH, 0};
    cr_assert_eq(cards_add(db, &c), CARDS_OK);
    cr_assert_eq(cards_finish(db, p, 4, &n), CARDS_EINVALID);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(p[0].msg, "snap.triggers[0].effects: more than 4 effects");
    cr_assert_str_eq(p[1].msg, "snap.keywords: \"swap\" needs a trigger with a \"swap\" effect on \"self\"");
    cards_destroy(&db);
}

/* ---- master.ongoing (README.md 6; core@1.1.0) ------------------------------ */

/* core@1.1.0 makes Ongoing exactly the Master Spells that only change DEF;
 * every other Support is instant (master.md "Instant Spells ... Ongoing
 * Spells"). */
Test(carddb, core_ongoing_spells_are_those_that_only_change_def)
{
    cards *db = load_core();
    int ongoing = 0;
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        int only_def = c->kind == CARD_SPELL && c->master.n_effects > 0;
        for (unsigned e = 0; e < c->master.n_effects; e++)
            only_def &= c->master.effects[e].op == FX_DEF;
        cr_assert_eq(c->master.ongoing, only_def, "%s", c->id);
        ongoing += c->master.ongoing;
    }
    cr_assert_eq(ongoing, 7);
    cards_destroy(&db);
}

/* `ongoing` is for spells only, and a boolean. */
Test(carddb, master_ongoing_is_a_boolean_of_spells)
{
    static const char *const head = "{\"set\":\"t\",\"version\":\"1\",\"cards\":[{\"id\":\"cor-x\",\"name\":\"X\","
                                    "\"kind\":\"%s\",\"class\":\"coreon\",\"snap\":{\"effects\":[{\"op\":\"fizzle\","
                                    "\"target\":\"none\"}]},\"advanced\":{\"effects\":[{\"op\":\"fizzle\",\"target\":"
                                    "\"none\"}]},\"master\":{\"cost\":{},\"effects\":[{\"op\":\"fizzle\",\"target\":"
                                    "\"none\"}],\"ongoing\":%s}}]}";
    static const struct {
        const char *kind, *value, *phrase;
    } cases[] = {
        {"counter", "true", "master.ongoing is not allowed on kind \"counter\""},
        {"spell", "1", "master.ongoing must be true or false"},
        {"spell", "\"yes\"", "master.ongoing must be true or false"},
    };
    char text[1024], err[ERR_LEN];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cards *db = NULL;
        snprintf(text, sizeof text, head, cases[i].kind, cases[i].value);
        cr_assert_eq(carddb_load_buffer(text, strlen(text), "mem", &db, err, sizeof err), CARDS_EINVALID, "%s",
                     cases[i].value);
        cr_assert(strstr(err, cases[i].phrase), "%s", err);
    }
    /* fizzle on a spell is refused too (a counter's op), so the legal case
     * is a spell the core set has */
    cards *db = load_core();
    const card *c = cards_find(db, "cor-kindle-fury");
    cr_assert(c && c->master.ongoing);
    c = cards_find(db, "cor-meltdown");
    cr_assert(c && !c->master.ongoing);
    cards_destroy(&db);
}
