/* test_deck.c -- the deck construction rules (verifiers/deck.c).
 *
 * Every rule id deck_rules() lists has a case in `cases` below: a legal
 * deck with exactly one thing broken, which must be reported with exactly
 * that rule id and nothing else.  deck.every_rule_has_a_case fails when a
 * rule is added to the table without a case, so `make check` catches it.
 * The database is built here, small and known, so a test says what it
 * means without reading fixtures/cards/core.json.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "verifiers/cards.h"
#include "verifiers/deck.h"
#include "verifiers/verifier.h"

/* ---- A small database ------------------------------------------------------
 * Lines t-a (stages 1-3), t-b and t-c (1-2); line-less monsters t-m1..6;
 * Prime Singulars t-p1, t-p2, t-p3; spells t-s1..14, counters t-k1..10. */

static cards *db;

static card make(const char *id, const char *name, card_kind kind, const char *line,
                 int stage)
{
    card c;

    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "%s", id);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.kind = kind;
    c.cls = CLASS_COREON;
    snprintf(c.line, sizeof c.line, "%s", line ? line : "");
    c.stage = (uint8_t)stage;
    if (card_kind_is_support(kind)) {
        card_effect fx = {FX_SELECT, TGT_CONTROLLER, 1};
        c.snap.effects[0] = fx;
        c.snap.n_effects = 1;
        c.advanced.effects[0] = fx;
        c.advanced.n_effects = 1;
        c.master.effects[0] = fx;
        c.master.n_effects = 1;
    } else {
        c.snap.imp = 1000 * (stage ? stage : 2);
        c.advanced.atk = c.advanced.def = 1000;
        c.advanced.level = 1;
        c.master.def = 1000;
        c.master.level = 1;
        snprintf(c.master.attacks[0].name, sizeof c.master.attacks[0].name, "Strike");
        c.master.attacks[0].effects[0] = (card_effect){FX_DAMAGE, TGT_OPP_MONSTER, 500};
        c.master.attacks[0].n_effects = 1;
        c.master.n_attacks = 1;
    }
    return c;
}

static void add(const char *id, const char *name, card_kind kind, const char *line,
                int stage)
{
    card c = make(id, name, kind, line, stage);

    cr_assert_eq(cards_add(db, &c), 0, "cards_add(%s)", id);
}

/* 48 two-byte characters: a 96-byte name, the longest a card may have. */
#define LONG_NAME                                                                  \
    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" \
    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"

static void setup(void)
{
    char id[16], name[32];
    cards_problem problems[8];
    size_t n = 0;

    db = cards_new("test", "1.0");
    cr_assert_not_null(db);
    add("t-a1", "Alpha Whelp", CARD_MONSTER, "t-a", 1);
    add("t-a2", "Alpha Drake", CARD_EVOLUTION, "t-a", 2);
    add("t-a3", "Alpha Sovereign", CARD_PRIME_EVOLUTION, "t-a", 3);
    add("t-b1", "Beta Pup", CARD_MONSTER, "t-b", 1);
    add("t-b2", "Beta Hound", CARD_EVOLUTION, "t-b", 2);
    add("t-c1", "Gamma Seed", CARD_MONSTER, "t-c", 1);
    add("t-c2", "Gamma Tree", CARD_EVOLUTION, "t-c", 2);
    for (int i = 1; i <= 6; i++) {
        snprintf(id, sizeof id, "t-m%d", i);
        snprintf(name, sizeof name, "Monster %d", i);
        add(id, name, CARD_MONSTER, NULL, 0);
    }
    add("t-p1", "Prime One", CARD_PRIME_SINGULAR, NULL, 0);
    add("t-p2", "Prime Two", CARD_PRIME_SINGULAR, NULL, 0);
    add("t-p3", "Prime Three", CARD_PRIME_SINGULAR, NULL, 0);
    for (int i = 1; i <= 14; i++) {
        snprintf(id, sizeof id, "t-s%d", i);
        snprintf(name, sizeof name, "Spell %d", i);
        add(id, name, CARD_SPELL, NULL, 0);
    }
    for (int i = 1; i <= 10; i++) {
        snprintf(id, sizeof id, "t-k%d", i);
        snprintf(name, sizeof name, "Counter %d", i);
        add(id, name, CARD_COUNTER, NULL, 0);
    }
    add("t-long", LONG_NAME, CARD_SPELL, NULL, 0);
    if (cards_finish(db, problems, 8, &n) != 0)
        for (size_t i = 0; i < n && i < 8; i++)
            cr_log_error("cards_finish: %s: %s", problems[i].id, problems[i].msg);
    cr_assert_eq(n, 0, "the test database is invalid (%zu problems)", n);
}

static void teardown(void)
{
    cards_destroy(&db);
}

TestSuite(deck, .init = setup, .fini = teardown);

/* ---- Building decklists --------------------------------------------------- */

enum { L_MONSTERS, L_SUPPORTS, L_RESERVE, L_MAIN, L_COUNT };
#define TDECK_MAX 128

typedef struct {
    const char *ids[L_COUNT][TDECK_MAX];
    size_t n[L_COUNT];
    ol_deck d;
} tdeck;

static void put(tdeck *t, int list, const char *id, int copies)
{
    for (int i = 0; i < copies; i++) {
        cr_assert_lt(t->n[list], TDECK_MAX);
        t->ids[list][t->n[list]++] = id;
    }
}

/* Remove the first `id` from a list. */
static void drop(tdeck *t, int list, const char *id)
{
    for (size_t i = 0; i < t->n[list]; i++)
        if (!strcmp(t->ids[list][i], id)) {
            memmove(&t->ids[list][i], &t->ids[list][i + 1],
                    (t->n[list] - i - 1) * sizeof t->ids[list][0]);
            t->n[list]--;
            return;
        }
    cr_assert_fail("%s is not in list %d", id, list);
}

static void swap_in(tdeck *t, int list, const char *out, const char *in)
{
    for (size_t i = 0; i < t->n[list]; i++)
        if (!strcmp(t->ids[list][i], out)) {
            t->ids[list][i] = in;
            return;
        }
    cr_assert_fail("%s is not in list %d", out, list);
}

static const ol_deck *deck_of(tdeck *t)
{
    ol_idlist *l[L_COUNT] = {&t->d.monsters, &t->d.supports, &t->d.reserve, &t->d.main};

    for (int i = 0; i < L_COUNT; i++) {
        l[i]->ids = t->ids[i];
        l[i]->n = t->n[i];
    }
    return &t->d;
}

static void supports(tdeck *t, int spells, int counters)
{
    static const char *const s[] = {"t-s1", "t-s2", "t-s3", "t-s4", "t-s5", "t-s6", "t-s7",
                                    "t-s8", "t-s9", "t-s10", "t-s11", "t-s12", "t-s13", "t-s14"};
    static const char *const k[] = {"t-k1", "t-k2", "t-k3", "t-k4", "t-k5",
                                    "t-k6", "t-k7", "t-k8", "t-k9", "t-k10"};
    for (int i = 0; i < spells; i++)
        put(t, L_SUPPORTS, s[i], 1);
    for (int i = 0; i < counters; i++)
        put(t, L_SUPPORTS, k[i], 1);
}

/* Legal: three lines and two line-less monsters, their evolutions held. */
static void snap_lines(tdeck *t)
{
    memset(t, 0, sizeof *t);
    put(t, L_MONSTERS, "t-a1", 1);
    put(t, L_MONSTERS, "t-b1", 1);
    put(t, L_MONSTERS, "t-c1", 1);
    put(t, L_MONSTERS, "t-m1", 1);
    put(t, L_MONSTERS, "t-m2", 1);
    supports(t, 10, 10);
    put(t, L_RESERVE, "t-a2", 1);
    put(t, L_RESERVE, "t-a3", 1);
    put(t, L_RESERVE, "t-b2", 1);
    put(t, L_RESERVE, "t-c2", 1);
}

/* Legal: a Prime Singular in the lineup, and so in the reserve. */
static void snap_prime(tdeck *t)
{
    memset(t, 0, sizeof *t);
    put(t, L_MONSTERS, "t-p1", 1);
    put(t, L_MONSTERS, "t-a1", 1);
    put(t, L_MONSTERS, "t-b1", 1);
    put(t, L_MONSTERS, "t-m1", 1);
    put(t, L_MONSTERS, "t-m2", 1);
    supports(t, 14, 6);
    put(t, L_RESERVE, "t-p1", 1);
    put(t, L_RESERVE, "t-a2", 1);
    put(t, L_RESERVE, "t-b2", 1);
}

/* Legal Advanced (40) or Master (60): every card at its copy limit. */
static void main_deck(tdeck *t, int copies)
{
    static const char *const spells[] = {"t-s1", "t-s2", "t-s3", "t-s4", "t-s5", "t-s6", "t-s7",
                                         "t-s8", "t-s9", "t-s10", "t-s11", "t-s12", "t-s13"};
    memset(t, 0, sizeof *t);
    put(t, L_MAIN, "t-a1", copies);
    put(t, L_MAIN, "t-b1", copies);
    put(t, L_MAIN, "t-c1", copies);
    put(t, L_MAIN, "t-m1", copies);
    put(t, L_MAIN, "t-a2", copies);
    put(t, L_MAIN, "t-b2", copies);
    put(t, L_MAIN, "t-a3", 1);
    put(t, L_MAIN, "t-p1", 1);
    for (size_t i = 0; i < sizeof spells / sizeof spells[0]; i++)
        put(t, L_MAIN, spells[i], copies);
    if (copies == 3)
        put(t, L_MAIN, "t-k1", 1);
    cr_assert_eq(t->n[L_MAIN], copies == 2 ? 40u : 60u);
}

static void advanced_base(tdeck *t)
{
    main_deck(t, 2);
}

static void master_base(tdeck *t)
{
    main_deck(t, 3);
}

/* ---- Checking ---------------------------------------------------------------- */

#define OUT_MAX 32

static size_t check_against(const cards *d, ol_format f, tdeck *t, const char *who,
                            deck_violation *out)
{
    size_t n = 99;

    memset(out, 0, OUT_MAX * sizeof *out);
    cr_assert_eq(deck_check(f, d, NULL, deck_of(t), who, out, OUT_MAX, &n), 0);
    cr_assert_leq(n, OUT_MAX);
    return n;
}

static size_t check(ol_format f, tdeck *t, const char *who, deck_violation *out)
{
    return check_against(db, f, t, who, out);
}

/* A sentence: starts with a capital or a player, ends with a full stop. */
static void assert_sentence(const deck_violation *v)
{
    size_t k = strlen(v->msg);

    cr_assert_gt(k, 20, "%s: message too short: %s", v->rule, v->msg);
    cr_assert(v->msg[k - 1] == '.', "%s: not a sentence: %s", v->rule, v->msg);
}

static void expect_legal(ol_format f, tdeck *t)
{
    deck_violation out[OUT_MAX];
    size_t n = check(f, t, NULL, out);

    cr_assert_eq(n, 0, "expected a legal %s deck, got %zu violations, first %s: %s",
                 ol_format_name(f), n, out[0].rule, out[0].msg);
}

/* Exactly one violation, citing `rule`, its sentence naming `mention`. */
static void expect_only(ol_format f, tdeck *t, const char *rule, const char *mention)
{
    deck_violation out[OUT_MAX];
    size_t n = check(f, t, NULL, out);

    cr_assert_eq(n, 1, "expected only %s, got %zu violations: %s %s | %s %s", rule, n,
                 out[0].rule, out[0].msg, n > 1 ? out[1].rule : "", n > 1 ? out[1].msg : "");
    cr_assert_str_eq(out[0].rule, rule, "%s", out[0].msg);
    assert_sentence(&out[0]);
    if (mention)
        cr_assert(strstr(out[0].msg, mention), "%s: '%s' does not name '%s'", rule,
                  out[0].msg, mention);
}

/* ---- One case per rule -------------------------------------------------------
 * Each starts from a legal deck and breaks exactly one rule. */

typedef struct {
    ol_format format;
    const char *rule;
    void (*breaks)(tdeck *t);
    const char *mention;         /* a piece the sentence must contain */
} rule_case;

static void snap_unknown_card(tdeck *t)
{
    snap_lines(t);
    swap_in(t, L_SUPPORTS, "t-s10", "t-nosuch");
}

static void snap_24_cards(tdeck *t)
{
    snap_lines(t);
    drop(t, L_SUPPORTS, "t-s10");
}

static void snap_spell_in_lineup(tdeck *t)
{
    snap_lines(t);
    swap_in(t, L_MONSTERS, "t-m2", "t-s14");
}

static void snap_monster_in_supports(tdeck *t)
{
    snap_lines(t);
    swap_in(t, L_SUPPORTS, "t-s10", "t-m3");
}

static void snap_duplicate_spell(tdeck *t)
{
    snap_lines(t);
    swap_in(t, L_SUPPORTS, "t-s10", "t-s1");
}

static void snap_two_primes(tdeck *t)
{
    snap_prime(t);
    swap_in(t, L_MONSTERS, "t-m2", "t-p2");
    put(t, L_RESERVE, "t-p2", 1);
}

static void snap_spell_in_reserve(tdeck *t)
{
    snap_lines(t);
    put(t, L_RESERVE, "t-s14", 1);
}

static void snap_foreign_evolution(tdeck *t)
{
    snap_prime(t);
    put(t, L_RESERVE, "t-c2", 1);
}

static void snap_prime_not_in_reserve(tdeck *t)
{
    snap_prime(t);
    drop(t, L_RESERVE, "t-p1");
}

static void advanced_unknown_card(tdeck *t)
{
    advanced_base(t);
    swap_in(t, L_MAIN, "t-s13", "t-nosuch");
}

static void advanced_39_cards(tdeck *t)
{
    advanced_base(t);
    drop(t, L_MAIN, "t-s13");
}

/* Four Monsters; Evolutions do not count. */
static void advanced_four_monsters(tdeck *t)
{
    memset(t, 0, sizeof *t);
    put(t, L_MAIN, "t-a1", 2);
    put(t, L_MAIN, "t-b1", 2);
    put(t, L_MAIN, "t-a2", 2);
    put(t, L_MAIN, "t-b2", 2);
    for (int i = 1; i <= 14; i++) {
        static char ids[15][8];
        snprintf(ids[i], sizeof ids[i], "t-s%d", i);
        put(t, L_MAIN, ids[i], 2);
    }
    put(t, L_MAIN, "t-k1", 2);
    put(t, L_MAIN, "t-k2", 2);
}

static void advanced_three_copies(tdeck *t)
{
    advanced_base(t);
    swap_in(t, L_MAIN, "t-s13", "t-s1");
}

static void advanced_two_primes(tdeck *t)
{
    advanced_base(t);
    swap_in(t, L_MAIN, "t-s13", "t-a3");
}

static void master_unknown_card(tdeck *t)
{
    master_base(t);
    swap_in(t, L_MAIN, "t-k1", "t-nosuch");
}

static void master_61_cards(tdeck *t)
{
    master_base(t);
    put(t, L_MAIN, "t-k2", 1);
}

static void master_four_copies(tdeck *t)
{
    master_base(t);
    swap_in(t, L_MAIN, "t-k1", "t-s5");
}

static void master_two_primes(tdeck *t)
{
    master_base(t);
    swap_in(t, L_MAIN, "t-k1", "t-p1");
}

static const rule_case cases[] = {
    {OL_FORMAT_SNAP, "openlog:cards", snap_unknown_card, "t-nosuch, which is not in the card database test@1.0"},
    {OL_FORMAT_SNAP, "snap:4.1", snap_24_cards, "has 24 cards"},
    {OL_FORMAT_SNAP, "snap:4.2", snap_spell_in_lineup, "Spell 14 (t-s14), a Spell"},
    {OL_FORMAT_SNAP, "snap:4.3", snap_monster_in_supports, "Monster 3 (t-m3), a Monster"},
    {OL_FORMAT_SNAP, "snap:4.4", snap_duplicate_spell, "Spell 1 (t-s1) 2 times"},
    {OL_FORMAT_SNAP, "snap:4.5", snap_two_primes, "Prime One (t-p1) and Prime Two (t-p2)"},
    {OL_FORMAT_SNAP, "snap:4.6.2", snap_spell_in_reserve, "Spell 14 (t-s14)"},
    {OL_FORMAT_SNAP, "snap:4.6.3", snap_foreign_evolution, "Gamma Tree (t-c2)"},
    {OL_FORMAT_SNAP, "snap:14.2", snap_prime_not_in_reserve, "Prime One (t-p1)"},
    {OL_FORMAT_ADVANCED, "openlog:cards", advanced_unknown_card, "t-nosuch"},
    {OL_FORMAT_ADVANCED, "advanced:deck.size", advanced_39_cards, "has 39 cards"},
    {OL_FORMAT_ADVANCED, "advanced:deck.monsters", advanced_four_monsters, "includes 4 Monsters"},
    {OL_FORMAT_ADVANCED, "advanced:deck.copies", advanced_three_copies, "3 copies of Spell 1 (t-s1)"},
    {OL_FORMAT_ADVANCED, "advanced:deck.primes", advanced_two_primes, "2 copies of Alpha Sovereign (t-a3)"},
    {OL_FORMAT_MASTER, "openlog:cards", master_unknown_card, "t-nosuch"},
    {OL_FORMAT_MASTER, "master:deck.size", master_61_cards, "has 61 cards"},
    {OL_FORMAT_MASTER, "master:deck.copies", master_four_copies, "4 copies of Spell 5 (t-s5)"},
    {OL_FORMAT_MASTER, "master:deck.primes", master_two_primes, "2 copies of Prime One (t-p1)"},
};

static const rule_case *find_case(ol_format f, const char *rule)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (cases[i].format == f && !strcmp(cases[i].rule, rule))
            return &cases[i];
    return NULL;
}

static void run_case(ol_format f, const char *rule)
{
    const rule_case *c = find_case(f, rule);
    tdeck t;

    cr_assert_not_null(c, "no case for %s in %s", rule, ol_format_name(f));
    c->breaks(&t);
    expect_only(f, &t, rule, c->mention);
}

/* The guard: a rule in the table without a case here fails make check. */
Test(deck, every_rule_has_a_case)
{
    for (size_t i_ = 0; verifier_engine_at(i_); i_++) {
        if (!verifier_engine_at(i_)->deck)
            continue;   /* a format whose players bring no decklist */
        ol_format f = verifier_engine_at(i_)->format;
        size_t n = 0;
        const deck_rule_info *r = deck_rules(f, &n);
        cr_assert_not_null(r);
        cr_assert_gt(n, 0);
        for (size_t i = 0; i < n; i++)
            run_case(f, r[i].rule);
    }
}

/* ...and no case for a rule the table no longer has. */
Test(deck, every_case_is_a_rule)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = 0, hit = 0;
        const deck_rule_info *r = deck_rules(cases[i].format, &n);
        for (size_t j = 0; j < n; j++)
            hit += !strcmp(r[j].rule, cases[i].rule);
        cr_assert_eq(hit, 1, "%s is not a rule of %s", cases[i].rule,
                     ol_format_name(cases[i].format));
    }
}

Test(deck, rule_table_is_well_formed)
{
    for (size_t i_ = 0; verifier_engine_at(i_); i_++) {
        if (!verifier_engine_at(i_)->deck)
            continue;   /* a format whose players bring no decklist */
        ol_format f = verifier_engine_at(i_)->format;
        size_t n = 0;
        const deck_rule_info *r = deck_rules(f, &n);
        for (size_t i = 0; i < n; i++) {
            cr_assert_lt(strlen(r[i].rule), DECK_RULE_MAX);
            cr_assert_gt(strlen(r[i].summary), 8, "%s has no summary", r[i].rule);
            for (size_t j = 0; j < i; j++)
                cr_assert_str_neq(r[i].rule, r[j].rule);
        }
    }
    cr_assert_null(deck_rules((ol_format)99, NULL));
}

/* ---- Named tests, one per rule -------------------------------------------- */

Test(deck, openlog_cards_snap_unknown_id) { run_case(OL_FORMAT_SNAP, "openlog:cards"); }
Test(deck, openlog_cards_advanced_unknown_id) { run_case(OL_FORMAT_ADVANCED, "openlog:cards"); }
Test(deck, openlog_cards_master_unknown_id) { run_case(OL_FORMAT_MASTER, "openlog:cards"); }
Test(deck, snap_4_1_exactly_25_cards) { run_case(OL_FORMAT_SNAP, "snap:4.1"); }
Test(deck, snap_4_2_lineup_is_five_monsters) { run_case(OL_FORMAT_SNAP, "snap:4.2"); }
Test(deck, snap_4_3_supports_are_spells_and_counters) { run_case(OL_FORMAT_SNAP, "snap:4.3"); }
Test(deck, snap_4_4_singleton_by_name) { run_case(OL_FORMAT_SNAP, "snap:4.4"); }
Test(deck, snap_4_5_one_prime_singular) { run_case(OL_FORMAT_SNAP, "snap:4.5"); }
Test(deck, snap_4_6_2_reserve_contents) { run_case(OL_FORMAT_SNAP, "snap:4.6.2"); }
Test(deck, snap_4_6_3_reserve_matches_lineup) { run_case(OL_FORMAT_SNAP, "snap:4.6.3"); }
Test(deck, snap_14_2_prime_singular_in_reserve) { run_case(OL_FORMAT_SNAP, "snap:14.2"); }
Test(deck, advanced_deck_size_40) { run_case(OL_FORMAT_ADVANCED, "advanced:deck.size"); }
Test(deck, advanced_deck_monsters_at_least_5) { run_case(OL_FORMAT_ADVANCED, "advanced:deck.monsters"); }
Test(deck, advanced_deck_copies_2) { run_case(OL_FORMAT_ADVANCED, "advanced:deck.copies"); }
Test(deck, advanced_deck_primes_1) { run_case(OL_FORMAT_ADVANCED, "advanced:deck.primes"); }
Test(deck, master_deck_size_60) { run_case(OL_FORMAT_MASTER, "master:deck.size"); }
Test(deck, master_deck_copies_3) { run_case(OL_FORMAT_MASTER, "master:deck.copies"); }
Test(deck, master_deck_primes_1) { run_case(OL_FORMAT_MASTER, "master:deck.primes"); }

/* ---- Legal decks and the rulings of deck.c ----------------------------------- */

Test(deck, legal_decks_pass)
{
    tdeck t;

    snap_lines(&t);
    expect_legal(OL_FORMAT_SNAP, &t);
    snap_prime(&t);            /* its Prime Singular listed twice is one card */
    expect_legal(OL_FORMAT_SNAP, &t);
    advanced_base(&t);
    expect_legal(OL_FORMAT_ADVANCED, &t);
    master_base(&t);
    expect_legal(OL_FORMAT_MASTER, &t);
}

Test(deck, snap_reserve_may_hold_fewer_evolutions)
{
    tdeck t;

    snap_lines(&t);
    drop(&t, L_RESERVE, "t-a2");    /* a Prime Evolution without its stage 2 */
    drop(&t, L_RESERVE, "t-c2");
    expect_legal(OL_FORMAT_SNAP, &t);
}

Test(deck, snap_evolution_in_lineup_is_4_2)
{
    tdeck t;

    snap_lines(&t);
    swap_in(&t, L_MONSTERS, "t-m2", "t-a2");
    drop(&t, L_RESERVE, "t-a2");
    expect_only(OL_FORMAT_SNAP, &t, "snap:4.2", "Alpha Drake (t-a2), an Evolution");
}

/* The total right but the split wrong: both lists are reported. */
Test(deck, snap_wrong_split_reports_both_lists)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    snap_lines(&t);
    drop(&t, L_SUPPORTS, "t-s10");
    put(&t, L_MONSTERS, "t-m3", 1);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 2);
    cr_assert_str_eq(out[0].rule, "snap:4.2");
    cr_assert_str_eq(out[1].rule, "snap:4.3");
}

Test(deck, snap_prime_singular_twice_in_reserve_is_4_4)
{
    tdeck t;

    snap_prime(&t);
    put(&t, L_RESERVE, "t-p1", 1);
    expect_only(OL_FORMAT_SNAP, &t, "snap:4.4", "Prime One (t-p1) 2 times");
}

Test(deck, snap_prime_singular_only_in_reserve_is_4_6_3)
{
    tdeck t;

    snap_lines(&t);
    put(&t, L_RESERVE, "t-p2", 1);
    expect_only(OL_FORMAT_SNAP, &t, "snap:4.6.3", "Prime Two (t-p2)");
}

Test(deck, snap_monster_in_reserve_is_4_6_2)
{
    tdeck t;

    snap_lines(&t);
    put(&t, L_RESERVE, "t-m4", 1);
    expect_only(OL_FORMAT_SNAP, &t, "snap:4.6.2", "Monster 4 (t-m4), a Monster");
}

Test(deck, advanced_prime_singular_counts_as_monster)
{
    tdeck t;

    advanced_four_monsters(&t);
    swap_in(&t, L_MAIN, "t-k2", "t-p1");
    expect_legal(OL_FORMAT_ADVANCED, &t);
}

Test(deck, advanced_three_prime_copies_is_primes_only)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    advanced_base(&t);
    swap_in(&t, L_MAIN, "t-s13", "t-p1");
    swap_in(&t, L_MAIN, "t-s13", "t-p1");
    cr_assert_eq(check(OL_FORMAT_ADVANCED, &t, NULL, out), 1);
    cr_assert_str_eq(out[0].rule, "advanced:deck.primes");
    cr_assert(strstr(out[0].msg, "3 copies of Prime One (t-p1), a Prime Singular"), "%s", out[0].msg);
}

/* ---- Reporting ------------------------------------------------------------- */

/* Several mistakes at once: every one is listed, in rule-table order, and
 * each duplicated name once. */
Test(deck, several_violations_are_all_listed)
{
    tdeck t;
    deck_violation out[OUT_MAX];
    static const char *const want[] = {"openlog:cards", "snap:4.1", "snap:4.4", "snap:4.4",
                                       "snap:4.6.2", "snap:4.6.3", "snap:14.2"};
    size_t n;

    snap_prime(&t);
    swap_in(&t, L_SUPPORTS, "t-s14", "t-ghost");   /* unknown               */
    drop(&t, L_SUPPORTS, "t-s13");                 /* 24 cards              */
    swap_in(&t, L_SUPPORTS, "t-s12", "t-s1");      /* t-s1 twice            */
    swap_in(&t, L_SUPPORTS, "t-s11", "t-s1");      /* ... three times       */
    put(&t, L_RESERVE, "t-b2", 1);                 /* t-b2 twice            */
    put(&t, L_RESERVE, "t-k9", 1);                 /* a counter in reserve  */
    put(&t, L_RESERVE, "t-c2", 1);                 /* no t-c1 in the lineup */
    drop(&t, L_RESERVE, "t-p1");                   /* prime not in reserve  */
    n = check(OL_FORMAT_SNAP, &t, NULL, out);
    cr_assert_eq(n, sizeof want / sizeof want[0], "got %zu violations", n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(out[i].rule, want[i], "violation %zu: %s %s", i, out[i].rule, out[i].msg);
        assert_sentence(&out[i]);
    }
    cr_assert(strstr(out[2].msg, "Spell 1 (t-s1) 3 times"), "%s", out[2].msg);
    cr_assert(strstr(out[3].msg, "Beta Hound (t-b2) 2 times"), "%s", out[3].msg);
}

Test(deck, who_names_the_player)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    snap_24_cards(&t);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, "p1", out), 1);
    cr_assert_str_eq(out[0].msg, "p1's deck has 24 cards (5 monsters, 19 supports); "
                                 "a Snap deck has exactly 25 (20 supports, 5 monsters).");
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 1);
    cr_assert(!strncmp(out[0].msg, "The deck has 24 cards", 21), "%s", out[0].msg);
}

/* Fewer slots than violations: the first `max` are written, all counted. */
Test(deck, max_limits_output_not_count)
{
    tdeck t;
    deck_violation one[1];
    size_t n = 0;

    snap_prime(&t);
    swap_in(&t, L_SUPPORTS, "t-s14", "t-ghost");
    drop(&t, L_SUPPORTS, "t-s13");
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, deck_of(&t), NULL, NULL, 0, &n), 0);
    cr_assert_eq(n, 2);
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, deck_of(&t), NULL, one, 1, &n), 0);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(one[0].rule, "openlog:cards");
}

Test(deck, bad_arguments)
{
    tdeck t;
    deck_violation out[1];
    size_t n = 0;

    snap_lines(&t);
    cr_assert_eq(deck_check((ol_format)99, db, NULL, deck_of(&t), NULL, out, 1, &n), CARDS_EARG);
    cr_assert_eq(deck_check((ol_format)-1, db, NULL, deck_of(&t), NULL, out, 1, &n), CARDS_EARG);
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, deck_of(&t), NULL, NULL, 1, &n), CARDS_EARG);
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, NULL, NULL, deck_of(&t), NULL, out, 1, &n), CARDS_EARG);
}

Test(deck, empty_deck_is_reported_not_crashed)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    memset(&t, 0, sizeof t);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 1);
    cr_assert_str_eq(out[0].rule, "snap:4.1");
    cr_assert_eq(check(OL_FORMAT_ADVANCED, &t, NULL, out), 2);
    cr_assert_str_eq(out[0].rule, "advanced:deck.size");
    cr_assert_str_eq(out[1].rule, "advanced:deck.monsters");
    cr_assert_eq(check(OL_FORMAT_MASTER, &t, NULL, out), 1);
}

static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        int extra = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
                  : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0)
            return 0;
        p++;
        for (int i = 0; i < extra; i++, p++)
            if ((*p & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

/* The longest names still make a sentence that fits, cut on a character. */
Test(deck, long_names_are_cut_safely)
{
    tdeck t;
    deck_violation out[OUT_MAX];
    size_t k;

    snap_lines(&t);
    swap_in(&t, L_SUPPORTS, "t-s9", "t-long");
    swap_in(&t, L_SUPPORTS, "t-s10", "t-long");
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, "a-player-with-a-long-seat-name", out), 1);
    k = strlen(out[0].msg);
    cr_assert_lt(k, DECK_MSG_MAX);
    cr_assert(valid_utf8(out[0].msg), "cut inside a character: %s", out[0].msg);
    cr_assert(k < 3 || !strcmp(out[0].msg + k - 3, "...") || out[0].msg[k - 1] == '.',
              "%s", out[0].msg);
}

/* A hostile decklist: thousands of ids are judged, quickly, without n^2. */
Test(deck, huge_decklist, .timeout = 10)
{
    static const char *ids[20000];
    ol_deck d;
    deck_violation out[4];
    size_t n = 0;

    for (size_t i = 0; i < 20000; i++)
        ids[i] = i % 2 ? "t-s1" : "t-nosuch";
    memset(&d, 0, sizeof d);
    d.monsters.ids = ids;
    d.monsters.n = 10000;
    d.supports.ids = ids;
    d.supports.n = 10000;
    d.reserve.ids = ids;
    d.reserve.n = 20000;
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, &d, NULL, out, 4, &n), 0);
    cr_assert_geq(n, 4);
    d.main.ids = ids;
    d.main.n = 20000;
    cr_assert_eq(deck_check(OL_FORMAT_MASTER, db, NULL, &d, NULL, out, 4, &n), 0);
    cr_assert_eq(n, 3);   /* unknown, size, copies of t-s1 */
}

/* A sentence too long for DECK_MSG_MAX is cut on a character boundary and
 * ends in "...": a 171-byte seat name puts the cut inside the two-byte
 * characters of t-long's name (38 of them, 76 bytes), and the half
 * character at the cut is dropped, not split. */
Test(deck, an_overlong_sentence_is_cut_inside_a_name)
{
    tdeck t;
    deck_violation out[OUT_MAX];
    char who[172], want[DECK_MSG_MAX];

    memset(who, 'w', sizeof who - 1);
    who[sizeof who - 1] = '\0';
    snap_lines(&t);
    swap_in(&t, L_SUPPORTS, "t-s9", "t-long");
    swap_in(&t, L_SUPPORTS, "t-s10", "t-long");
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, who, out), 1);
    cr_assert_str_eq(out[0].rule, "snap:4.4");
    /* who, "'s deck lists ", 33 of the 38 characters, "..." */
    snprintf(want, sizeof want, "%s's deck lists %.66s...", who, LONG_NAME);
    cr_assert_str_eq(out[0].msg, want);
    cr_assert_eq(strlen(out[0].msg), 171 + 14 + 66 + 3);
}

/* An empty seat name is no name: the sentence opens with "The". */
Test(deck, an_empty_who_is_no_player)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    snap_24_cards(&t);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, "", out), 1);
    cr_assert_str_eq(out[0].msg, "The deck has 24 cards (5 monsters, 19 supports); "
                                 "a Snap deck has exactly 25 (20 supports, 5 monsters).");
}

Test(deck, missing_count_and_rule_table_arguments)
{
    tdeck t;
    deck_violation out[1];
    size_t n = 7;

    snap_lines(&t);
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, deck_of(&t), NULL, out, 1, NULL), CARDS_EARG);
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, NULL, NULL, out, 1, &n), CARDS_EARG);
    cr_assert_eq(n, 7, "a refused call leaves the count alone");
    cr_assert_null(deck_rules((ol_format)99, NULL));
    cr_assert_null(deck_rules((ol_format)99, &n));
    cr_assert_eq(n, 0);
    cr_assert_not_null(deck_rules(OL_FORMAT_MASTER, NULL));
    cr_assert_eq(deck_rules(OL_FORMAT_MASTER, &n), deck_rules(OL_FORMAT_MASTER, NULL));
    cr_assert_eq(n, 4, "master: openlog:cards, size, copies, primes");
}

/* snap 4.5 with three Prime Singulars in the lineup: one sentence naming
 * them all, in decklist order. */
Test(deck, snap_4_5_three_prime_singulars_are_one_violation)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    snap_prime(&t);
    swap_in(&t, L_MONSTERS, "t-m2", "t-p2");
    swap_in(&t, L_MONSTERS, "t-m1", "t-p3");
    put(&t, L_RESERVE, "t-p2", 1);
    put(&t, L_RESERVE, "t-p3", 1);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 1);
    cr_assert_str_eq(out[0].rule, "snap:4.5");
    cr_assert_str_eq(out[0].msg, "The lineup has 3 Prime Singulars, Prime One (t-p1), Prime Three (t-p3) "
                                 "and Prime Two (t-p2); a Snap deck may include at most one Prime Singular.");
}

/* A decklist whose id is missing (NULL, as a caller may build one) is the
 * empty id, which no database knows. */
Test(deck, a_null_id_is_an_unknown_card)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    snap_lines(&t);
    t.ids[L_SUPPORTS][0] = NULL;
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 1);
    cr_assert_str_eq(out[0].rule, "openlog:cards");
    cr_assert_str_eq(out[0].msg, "The deck lists , which is not in the card database test@1.0; "
                                 "every card must be one the database knows.");
}

/* A reserve without a lineup: nothing it holds corresponds to a lineup
 * Monster (snap 4.6.3), and the count is 4.1's. */
Test(deck, snap_reserve_without_a_lineup)
{
    tdeck t;
    deck_violation out[OUT_MAX];

    memset(&t, 0, sizeof t);
    supports(&t, 10, 10);
    put(&t, L_RESERVE, "t-a2", 1);
    put(&t, L_RESERVE, "t-p1", 1);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, NULL, out), 3);
    cr_assert_str_eq(out[0].rule, "snap:4.1");
    cr_assert_str_eq(out[1].rule, "snap:4.6.3");
    cr_assert_str_eq(out[1].msg, "The reserve holds Alpha Drake (t-a2), an Evolution of the Alpha Whelp (t-a1) "
                                 "line, but the lineup does not include that Monster; reserve cards must "
                                 "correspond to the five lineup Monsters.");
    cr_assert_str_eq(out[2].rule, "snap:4.6.3");
    cr_assert_str_eq(out[2].msg, "The reserve holds Prime One (t-p1), a Prime Singular, but the lineup does "
                                 "not include it; reserve cards must correspond to the five lineup Monsters.");
}

/* A database of its own: n spells named by `names`, plus five monsters. */
static cards *spells_db(const char *const *names, size_t n)
{
    cards *d = cards_new("big", "1");
    card_effect fx = {FX_SELECT, TGT_CONTROLLER, 1};

    for (size_t i = 0; i < n + 5; i++) {
        card c;
        memset(&c, 0, sizeof c);
        snprintf(c.id, sizeof c.id, "%s-%zu", i < n ? "s" : "m", i);
        if (i < n)
            snprintf(c.name, sizeof c.name, "%s", names[i]);
        else
            snprintf(c.name, sizeof c.name, "Monster %zu", i);
        c.cls = CLASS_COREON;
        if (i < n) {
            c.kind = CARD_SPELL;
            c.snap.effects[0] = c.advanced.effects[0] = c.master.effects[0] = fx;
            c.snap.n_effects = c.advanced.n_effects = c.master.n_effects = 1;
        } else {
            c.kind = CARD_MONSTER;
            c.snap.imp = 1000;
            c.advanced.level = c.master.level = 1;
            snprintf(c.master.attacks[0].name, sizeof c.master.attacks[0].name, "Strike");
            c.master.attacks[0].effects[0] = (card_effect){FX_DAMAGE, TGT_OPP_MONSTER, 500};
            c.master.attacks[0].n_effects = 1;
            c.master.n_attacks = 1;
        }
        cr_assert_eq(cards_add(d, &c), 0, "%s", c.id);
    }
    cr_assert_eq(cards_finish(d, NULL, 0, NULL), 0);
    return d;
}

/* More distinct names than the quick singleton check holds (64): the full
 * grouping decides, and finds no repeat. */
Test(deck, snap_4_4_many_distinct_names_are_no_repeat)
{
    static const char *names[70], *ids[75];
    static char buf[70][16], idbuf[75][16];
    deck_violation out[4];
    ol_deck d;
    size_t n = 99;

    for (int i = 0; i < 70; i++) {
        snprintf(buf[i], sizeof buf[i], "Spell %d", i);
        names[i] = buf[i];
    }
    cards *big = spells_db(names, 70);
    for (int i = 0; i < 75; i++) {
        snprintf(idbuf[i], sizeof idbuf[i], "%s-%d", i < 70 ? "s" : "m", i);
        ids[i] = idbuf[i];
    }
    memset(&d, 0, sizeof d);
    d.monsters.ids = ids + 70;
    d.monsters.n = 5;
    d.supports.ids = ids;
    d.supports.n = 70;
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, big, NULL, &d, NULL, out, 4, &n), 0);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(out[0].rule, "snap:4.1");
    cr_assert_str_eq(out[0].msg, "The deck has 75 cards (5 monsters, 70 supports); "
                                 "a Snap deck has exactly 25 (20 supports, 5 monsters).");
    cards_destroy(&big);
}

/* "Spell 42269" and "Spell 613344" have the same FNV-1a hash (0x9e5658c8):
 * names are compared, not hashes, so they are two names, not a repeat. */
Test(deck, snap_4_4_names_with_one_hash_are_two_names)
{
    static const char *const names[] = {"Spell 42269", "Spell 613344"};
    static const char *monsters[] = {"m-2", "m-3", "m-4", "m-5", "m-6"};
    static const char *sup[] = {"s-0", "s-1", "s-0"};
    deck_violation out[4];
    ol_deck d;
    size_t n = 99;

    cr_assert_eq(cards_str_hash(names[0]), cards_str_hash(names[1]));
    cards *pair = spells_db(names, 2);
    memset(&d, 0, sizeof d);
    d.monsters.ids = monsters;
    d.monsters.n = 5;
    d.supports.ids = sup;
    d.supports.n = 2;
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, pair, NULL, &d, NULL, out, 4, &n), 0);
    cr_assert_eq(n, 1, "only the size: %s", out[0].msg);
    cr_assert_str_eq(out[0].rule, "snap:4.1");
    d.supports.n = 3;   /* now s-0 twice: a real repeat */
    cr_assert_eq(deck_check(OL_FORMAT_SNAP, pair, NULL, &d, NULL, out, 4, &n), 0);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(out[1].rule, "snap:4.4");
    cr_assert_str_eq(out[1].msg, "The deck lists Spell 42269 (s-0) 2 times, in the support deck; "
                                 "each card name may appear only once in a Snap deck.");
    cards_destroy(&pair);
}

/* Exactly one violation against the database `d`: `rule`, worded `msg`. */
static void expect_exactly(const cards *d, ol_format f, tdeck *t, const char *rule,
                           const char *msg)
{
    deck_violation out[OUT_MAX];
    size_t n = check_against(d, f, t, NULL, out);

    cr_assert_eq(n, 1, "expected only %s, got %zu violations, first %s: %s", rule, n,
                 out[0].rule, out[0].msg);
    cr_assert_str_eq(out[0].rule, rule, "%s", out[0].msg);
    cr_assert_str_eq(out[0].msg, msg);
}

/* advanced "Must include at least 5 Monsters": one Monster is one, not
 * "1 Monsters". */
Test(deck, advanced_deck_monsters_counts_one_monster)
{
    tdeck t;

    advanced_four_monsters(&t);
    swap_in(&t, L_MAIN, "t-b1", "t-c2");
    swap_in(&t, L_MAIN, "t-b1", "t-c2");
    swap_in(&t, L_MAIN, "t-a1", "t-k3");
    expect_exactly(db, OL_FORMAT_ADVANCED, &t, "advanced:deck.monsters",
                   "The deck includes 1 Monster; Advanced decks must include at least "
                   "5 Monster cards (Monsters or Prime Singulars).");
}

/* A missing id (NULL) in the lineup or the reserve, the lists deck.c looks
 * ids up in, is the empty id like anywhere else: an unknown card. */
Test(deck, a_null_id_in_lineup_or_reserve_is_an_unknown_card)
{
    tdeck t;
    static const char *const unknown = "The deck lists , which is not in the card database "
                                       "test@1.0; every card must be one the database knows.";

    snap_lines(&t);
    t.ids[L_MONSTERS][4] = NULL;
    expect_exactly(db, OL_FORMAT_SNAP, &t, "openlog:cards", unknown);
    snap_lines(&t);
    put(&t, L_RESERVE, NULL, 1);
    expect_exactly(db, OL_FORMAT_SNAP, &t, "openlog:cards", unknown);
}

/* A seat name of continuation bytes only has no character boundary to cut
 * at: the cut stops at the start of the sentence, which is then just
 * "...", and never reads before it. */
Test(deck, a_seat_name_without_a_character_boundary_is_cut_whole)
{
    tdeck t;
    deck_violation out[OUT_MAX];
    char who[300];

    memset(who, 0x80, sizeof who - 1);
    who[sizeof who - 1] = '\0';
    snap_24_cards(&t);
    cr_assert_eq(check(OL_FORMAT_SNAP, &t, who, out), 1);
    cr_assert_str_eq(out[0].rule, "snap:4.1");
    cr_assert_str_eq(out[0].msg, "...");
}

/* expect_exactly() against the suite's database plus the card `extra`,
 * left unsealed: cards_finish() refuses what it adds (a reprint's repeated
 * name, a dangling line), but deck_check() judges a decklist against
 * whatever database it is given. */
static void expect_exactly_with(const card *extra, ol_format f, tdeck *t, const char *rule,
                                const char *msg)
{
    cards *d = cards_new("test", "1.0");

    for (size_t i = 0; i < cards_count(db); i++)
        cr_assert_eq(cards_add(d, cards_at(db, i)), 0);
    cr_assert_eq(cards_add(d, extra), 0, "%s", extra->id);
    expect_exactly(d, f, t, rule, msg);
    cards_destroy(&d);
}

/* snap 4.4 counts names, not ids: a reprint of Spell 1 under another id is
 * the same name, and the sentence lists each id once, in decklist order,
 * however the ids repeat and interleave. */
Test(deck, snap_4_4_singleton_counts_names_across_ids)
{
    /* Spell 1 listed as t-s1 and the reprint; then the reprint again; then
     * t-s1 again, after both. */
    static const char *const gone[] = {"t-s10", "t-s9", "t-k1"};
    static const char *const added[] = {"t-s1-reprint", "t-s1-reprint", "t-s1"};
    card reprint = make("t-s1-reprint", "Spell 1", CARD_SPELL, NULL, 0);
    char want[DECK_MSG_MAX];
    tdeck t;

    snap_lines(&t);
    for (int i = 0; i < 3; i++) {
        swap_in(&t, L_SUPPORTS, gone[i], added[i]);
        snprintf(want, sizeof want, "The deck lists the name Spell 1 (t-s1, t-s1-reprint) %d times, "
                 "in the support deck; each card name may appear only once in a Snap deck.", i + 2);
        expect_exactly_with(&reprint, OL_FORMAT_SNAP, &t, "snap:4.4", want);
    }
}

/* advanced:deck.copies counts copies by name too (the rulings of deck.c). */
Test(deck, advanced_deck_copies_counts_names_across_ids)
{
    card reprint = make("t-s1-reprint", "Spell 1", CARD_SPELL, NULL, 0);
    tdeck t;

    advanced_base(&t);
    swap_in(&t, L_MAIN, "t-s13", "t-s1-reprint");
    expect_exactly_with(&reprint, OL_FORMAT_ADVANCED, &t, "advanced:deck.copies",
                        "The deck has 3 copies of the name Spell 1 (t-s1, t-s1-reprint); "
                        "Advanced decks may hold at most 2 copies of a card.");
}

/* snap 4.6.3: an Evolution whose line has no Monster in the database
 * corresponds to no lineup Monster, whatever the lineup holds. */
Test(deck, snap_4_6_3_evolution_of_a_line_without_a_monster)
{
    card lost = make("t-x2", "Lost Drake", CARD_EVOLUTION, "t-x", 2);
    tdeck t;

    snap_lines(&t);
    put(&t, L_RESERVE, "t-x2", 1);
    expect_exactly_with(&lost, OL_FORMAT_SNAP, &t, "snap:4.6.3",
                        "The reserve holds Lost Drake (t-x2), an Evolution, but the lineup does "
                        "not include it; reserve cards must correspond to the five lineup Monsters.");
}

/* The memo of legal decklists (deck_check_memo) answers as deck_check does:
 * a remembered legal deck stays legal; a deck one card away from it, and an
 * illegal deck seen twice, are still found illegal with the same sentence. */
Test(deck, memo_never_accepts_what_the_check_refuses)
{
    tdeck t;
    deck_violation a[OUT_MAX], b[OUT_MAX];
    size_t n = 9, m = 9;
    deck_memo *memo = deck_memo_new(db);

    cr_assert_not_null(memo);
    snap_prime(&t);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(deck_check_memo(memo, OL_FORMAT_SNAP, db, NULL, deck_of(&t), "p1", a, OUT_MAX, &n), 0);
        cr_assert_eq(n, 0);
    }
    swap_in(&t, L_SUPPORTS, "t-s14", "t-ghost");
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(deck_check_memo(memo, OL_FORMAT_SNAP, db, NULL, deck_of(&t), "p1", a, OUT_MAX, &n), 0);
        cr_assert_eq(deck_check(OL_FORMAT_SNAP, db, NULL, deck_of(&t), "p1", b, OUT_MAX, &m), 0);
        cr_assert_eq(n, m);
        cr_assert_gt(n, 0);
        cr_assert_str_eq(a[0].msg, b[0].msg);
    }
    deck_memo_destroy(&memo);
    cr_assert_null(memo);
}
