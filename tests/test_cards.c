/* test_cards.c -- the card database: verifiers/cards.c (suite `cards`) and
 * its JSON loader src/carddb.c (suite `carddb`).
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

#include "src/carddb.h"
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
    for (int f = 0; f < FORMAT_COUNT; f++)
        cr_assert_eq(card_format_parse(card_format_name((card_format)f)), f);
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
    cr_assert_str_eq(cards_version(db), "1.0.0");
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
        if (fx_op_describe((fx_op)op)->formats & (1u << FORMAT_SNAP))
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
    cr_assert_eq(cards_next_stage(db, whelp), drake);
    cr_assert_eq(cards_next_stage(db, drake), sovereign);
    cr_assert_null(cards_next_stage(db, sovereign));
    cr_assert_eq(cards_line_base(db, sovereign), whelp);
    cr_assert_eq(cards_line_base(db, drake), whelp);
    cr_assert_eq(cards_line_base(db, whelp), whelp);
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
