/* test_master.c -- the Master engine, rule by rule.
 *
 * Each test breaks one rule of master.md (or a ruling of
 * verifiers/master/RULINGS.md) and checks the verdict's status and rule id,
 * and the sentence where it says what was owed; the name is the rule id.
 * Tests of what the engine computes -- the Mana Zone and what is ready,
 * damage against DEF, Ongoing Spells, the board -- check the state.  Every
 * event is followed by duel_check_invariants() (duelscript.c).
 *
 * Scripts start from the opening hands of masterscript.h: p1 carol
 * (legal-coreon-ember) holds Ember Whelp, Cinder Hound, Forge Golem,
 * Searing Brand, Kindle Fury, Backdraft, Stoke the Forge; p2 dave
 * (legal-obscura-night) holds Umbral Kitten, Crypt Rat, Grave Bat, Night
 * Terror, Void Denial, Hollow Mask, Shadow Step, Umbral Decoy.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "tests/masterscript.h"
#include "tests/testutil.h"
#include "verifiers/verifier.h"

#define DECK(name) "fixtures/decks/master/" name ".json"
#define CLAIM_LP(a, b) "\"type\":\"claim\",\"by\":\"table\",\"lp\":{\"p1\":" #a ",\"p2\":" #b "}"
#define GAME_LOSS(p) "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"" p "\",\"text\":\"x\""

/* The verdict of `body` is illegal citing `rule`, and its sentence says
 * `words`; it is returned for more checks. */
static olverdict illegal_says(const char *body, const char *words, const char *rule)
{
    olverdict v = play(body);
    expect(v, OL_V_ILLEGAL, rule);
    cr_assert(strstr(v.msg, words), "want <%s> in: %s", words, v.msg);
    return v;
}

/* A Counter by `by` that targets the chain link of seq `link`, paying `pay`. */
static olverdict counter_on(const char *by, const char *id, uint64_t link, const char *pay)
{
    char body[256];
    snprintf(body, sizeof body,
             "\"type\":\"counter\",\"by\":\"%s\",\"card\":\"%s\",\"targets\":[{\"seq\":%llu}],"
             "\"pay\":%s",
             by, id, (unsigned long long)link, pay);
    return play(body);
}

static unsigned ready(int p, card_class c)
{
    return master_ready(&st, p, c);
}

static int32_t def_at(int p, int slot)
{
    const duel_monster *m = &st.side[p].zone[slot];
    cr_assert(m->present, "no monster at p%d zone %d", p + 1, slot);
    return duel_top(m)->master.def + m->def_mod + m->def_kept;
}

static int in_grave(int p, const char *id)
{
    for (int i = 0; i < st.side[p].n_grave; i++)
        if (!strcmp(st.side[p].grave[i]->id, id))
            return 1;
    return 0;
}

/* Player 1's first turn, Mana Step, after the usual opening hands. */
static void opened(const char *rules)
{
    cr_assert_eq(mst_start("open", rules).status, OL_V_OK);
    mst_open();
}

/* p1 places Backdraft, selects `p1sel`, Normal-Summons Ember Whelp (AP)
 * and ends; p2 places Shadow Step, selects Crypt Rat and Normal-Summons
 * `p2card` in `pos`: Player 2's first turn, Summon Phase, each player with
 * one mana of their class. */
static void two_turns_sel(const char *rules, const char *p1sel, const char *p2card, const char *pos)
{
    opened(rules);
    mst_turn("p1", "cor-backdraft", p1sel);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, p2card, pos);
}

static void two_turns(const char *p2card, const char *pos)
{
    two_turns_sel(NULL, "cor-ember-drake", p2card, pos);
}

/* two_turns, then Player 1's second turn after its Selection Step (Stoke
 * the Forge placed, `p1sel` selected): 2 Coreon ready, Ember Drake and
 * `p1sel` in hand beside Cinder Hound, Forge Golem, Searing Brand and
 * Kindle Fury. */
static void third_turn_sel(const char *p2card, const char *pos, const char *p1sel)
{
    two_turns(p2card, pos);
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", p1sel);
}

static void third_turn(const char *p2card, const char *pos)
{
    third_turn_sel(p2card, pos, "cor-magma-tortoise");
}

/* Two cards of mana a Mana Step (mana_rate 2, with the levers `more`):
 * p1 places Backdraft and Stoke the Forge, selects `p1sel`, Normal-Summons
 * Ember Whelp (AP); p2 places Umbral Decoy and Shadow Step, selects
 * `p2sel`, Normal-Summons Umbral Kitten (AP); p1 places Forge Golem and
 * Cinder Hound and selects Magma Tortoise.  Player 1's second turn,
 * Main/Spell Phase: p1 4 Coreon ready (Searing Brand, Kindle Fury, `p1sel`
 * and Magma Tortoise in hand), p2 2 Obscura. */
static void rich_turn_with(const char *more, const char *p1sel, const char *p2sel)
{
    char rules[128];
    snprintf(rules, sizeof rules, "\"mana_rate\":2%s%s", more ? "," : "", more ? more : "");
    opened(rules);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    mst_turn("p1", "cor-stoke-the-forge", p1sel);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    ok(MANA("p2", "obs-umbral-decoy", "obscura"));
    mst_turn("p2", "obs-shadow-step", p2sel);
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    ok(MANA("p1", "cor-forge-golem", "coreon"));
    mst_turn("p1", "cor-cinder-hound", "cor-magma-tortoise");
    cr_assert_eq(ready(0, CLASS_COREON), 4);
    cr_assert_eq(ready(1, CLASS_OBSCURA), 2);
}

static void rich_turn(const char *p1sel, const char *p2sel)
{
    rich_turn_with(NULL, p1sel, p2sel);
}

/* ---- the header, the deck and the levers ------------------------------------------- */

/* M13: a deck holds deck_size cards (default 60). */
Test(master, master_deck_size_lever)
{
    olverdict v = mst_start_decks("open", NULL, DECK("illegal-master_deck_size-59-cards"), P2_DECK);
    expect(v, OL_V_ILLEGAL, "master:deck.size");
    cr_assert(strstr(v.msg, "p1's deck has 59 cards; this match's decks have exactly 60."), "%s", v.msg);
    illegal(PICK("p1", P1_OPEN), "master:deck.size"); /* the match never started */
    cr_assert_eq(st.step, DUEL_OVER);
    /* the lever: 61-card decks in a match of 61 */
    v = mst_start_decks("open", "\"deck_size\":61", DECK("illegal-master_deck_size-61-cards"),
                        DECK("illegal-master_deck_size-61-cards"));
    cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
    cr_assert_eq(st.deck_size, 61);
    cr_assert_eq(st.side[1].deck_left, 61);
    v = mst_start_decks("open", "\"deck_size\":61", DECK("illegal-master_deck_size-61-cards"), P2_DECK);
    expect(v, OL_V_ILLEGAL, "master:deck.size");
    cr_assert(strstr(v.msg, "p2's deck has 60 cards; this match's decks have exactly 61."), "%s", v.msg);
    /* a deck of the lever's size still keeps the other construction rules */
    static const char *const fourth[] = {"cor-kindle-fury"};
    char *deck = mst_deck_with(DECK("illegal-master_deck_size-61-cards"), "aet-clarity", fourth, 1);
    expect(mst_start_decks("open", "\"deck_size\":61", deck, deck), OL_V_ILLEGAL, "master:deck.copies");
    free(deck);
    /* more cards than any lever allows: eleven Eruptions added after a Meltdown */
    static const char *const more[] = {"cor-meltdown\",\"cor-eruption\",\"cor-eruption\",\"cor-eruption\",\"cor-eruption\","
                                       "\"cor-eruption\",\"cor-eruption\",\"cor-eruption\",\"cor-eruption\",\"cor-eruption\","
                                       "\"cor-eruption\",\"cor-eruption"};
    deck = mst_deck_with(P1_DECK, "cor-meltdown", more, 1);
    v = mst_start_decks("open", "\"deck_size\":70", deck, P2_DECK);
    free(deck);
    expect(v, OL_V_ILLEGAL, "master:deck.size");
    cr_assert(strstr(v.msg, "p1's deck has 71 cards; this match's decks have exactly 70."), "%s", v.msg);
}

Test(master, master_deck_copies_header)
{
    expect(mst_start_decks("open", NULL, DECK("illegal-master_deck_copies-4-copies"), P2_DECK), OL_V_ILLEGAL,
           "master:deck.copies");
}

Test(master, master_deck_primes_header)
{
    expect(mst_start_decks("open", NULL, P1_DECK, DECK("illegal-master_deck_primes-two-prime-evolutions")),
           OL_V_ILLEGAL, "master:deck.primes");
    expect(mst_start_decks("open", NULL, DECK("illegal-master_deck_primes-two-prime-singulars"), P2_DECK), OL_V_ILLEGAL,
           "master:deck.primes");
}

Test(master, master_openlog_cards_header)
{
    expect(mst_start_decks("open", NULL, DECK("illegal-openlog_cards-unknown-card"), P2_DECK), OL_V_ILLEGAL,
           "openlog:cards");
}

/* Every legal Master deck of the fixtures starts a match. */
Test(master, master_deck_every_legal_fixture_starts_a_match)
{
    static const char *const decks[] = {
        "legal-aetherion-dawn",    "legal-coreon-fluxion",      "legal-few-monsters",
        "legal-five-primes",       "legal-fluxion-tides",       "legal-max-copies",
        "legal-obscura-aetherion", "legal-spells-and-counters", "legal-synaphera-growth"};
    char path[128];
    for (size_t i = 0; i < sizeof decks / sizeof decks[0]; i++) {
        snprintf(path, sizeof path, "fixtures/decks/master/%s.json", decks[i]);
        olverdict v = mst_start_decks("open", NULL, path, path);
        cr_assert_eq(v.status, OL_V_OK, "%s: %s", decks[i], v.msg);
    }
}

/* master.md, Balance Levers: LP, hand sizes and the limit as the header says. */
Test(master, master_levers_set_the_match)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    cr_assert(st.starting_lp == 8000 && st.hand_limit == 10 && st.mana_rate == 1 && st.chain_cap == 3);
    cr_assert(st.opening[0] == 7 && st.opening[1] == 8 && st.deck_size == 60 && st.zones == 7);
    cr_assert_eq(mst_start("open", "\"starting_lp\":10000,\"p1_hand\":3,\"p2_hand\":4,\"hand_limit\":12").status,
                 OL_V_OK);
    illegal_says(PICK("p1", P1_OPEN), "Player 1 selects 3", "master:select.opening");
    ok(PICK("p1", "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-forge-golem\"]"));
    ok(PICK("p2", "[\"obs-umbral-kitten\",\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-night-terror\"]"));
    cr_assert_eq(st.side[0].lp, 10000);
    cr_assert_eq(st.side[1].lp, 10000);
    cr_assert_eq(st.hand_limit, 12);
    board_has(1, 1, 1, "\"lp\":10000", 1);
}

/* ---- the opening hands and the Selection Step ---------------------------------------- */

Test(master, master_select_opening)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    illegal(NORMAL("p1", 0, "cor-ember-whelp", "ap"), "master:select.opening");
    illegal_says(PICK("p1", P2_OPEN), "Player 1 selects 7", "master:select.opening");
    ok(PICK("p1", P1_OPEN));
    illegal_says(PICK("p1", P1_OPEN), "already selected", "master:select.opening");
    illegal_says(PICK("p2", P1_OPEN), "Player 2 selects 8", "master:select.opening");
    ok(PICK("p2", P2_OPEN));
    cr_assert(st.setup_done);
    cr_assert_eq(st.turn, 0);
    cr_assert_eq(st.step, DUEL_MANA, "the Mana Step opens each turn");
    cr_assert_eq(st.side[0].n_hand, 7);
    cr_assert_eq(st.side[1].n_hand, 8);
    cr_assert_eq(st.side[0].deck_left, 53);
}

/* M11: Player 1 places mana and selects in their first turn. */
Test(master, master_M11_player_1_selects_on_turn_1)
{
    opened(NULL);
    cr_assert(st.select_owed, "Player 1's first turn has its Selection Step");
    illegal_says(NORMAL("p1", 0, "cor-ember-whelp", "ap"), "turn begins with the Selection Step",
                 "master:select.per_turn");
    ok(MANA("p1", "cor-backdraft", "coreon")); /* the Mana Step comes before it */
    select_one("p1", "cor-ember-drake");
    cr_assert_eq(st.side[0].n_hand, 7);
    cr_assert_eq(st.step, DUEL_MAIN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(STRIKE("p1", 0, 0, P2, COR(1)), "master:attack.first_turn"); /* only attacks are barred */
}

Test(master, master_select_per_turn)
{
    opened(NULL);
    illegal_says(PICK("p1", "[\"cor-ember-drake\",\"cor-ember-drake\"]"), "they select 1", "master:select.per_turn");
    illegal(PICK("p2", "[\"obs-crypt-rat\"]"), "master:select.per_turn"); /* not p2's Selection Step */
    select_one("p1", "cor-ember-drake");
    illegal_says(PICK("p1", "[\"cor-ember-drake\"]"), "outside a Selection Step", "master:select.per_turn");
}

/* No deck-out: a player selects no more than the deck holds, and an empty
 * deck skips the Selection Step. */
Test(master, master_win_no_deck_out)
{
    char body[4096] = "\"type\":\"select\",\"by\":\"p1\",\"cards\":[";
    opened(NULL);
    for (int i = 0; i < 54; i++)
        strcat(body, i ? ",\"cor-meltdown\"" : "\"cor-meltdown\"");
    strcat(body, "]");
    illegal_says(body, "p1 (carol) selected 54 cards; their deck holds 53.", "master:win.no_deck_out");
    select_one("p1", "cor-ember-drake");
    st.side[1].deck_left = 0; /* p2's deck selected to the last card: set, not played */
    end_turn("p1");
    cr_assert(!st.select_owed, "nothing to select");
    cr_assert_eq(st.step, DUEL_MANA);
    ok(MANA("p2", "obs-umbral-decoy", "obscura"));
    summon("p2", 0, "obs-umbral-kitten", "ap"); /* no Selection Step holds it up */
    illegal_says(PICK("p2", "[\"obs-crypt-rat\"]"), "p2 (dave) selected 1 card; their deck holds 0.",
                 "master:win.no_deck_out");
    board_has(0, 1, 1, "  deck       0 cards\n", 1);
}

/* A14: an effect that prevents drawing removes the next Selection Step. */
Test(master, master_select_prevented)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-heat-haze");
    ok(CAST("p1", "cor-heat-haze", "[]", COR(2)));
    ok(SILENT("p2"));
    cr_assert(st.side[1].prevent_next);
    board_has(1, 1, 1, "\"selection_prevented\":true", 1);
    end_turn("p1");
    cr_assert(!st.select_owed);
    ok(MANA("p2", "obs-crypt-rat", "obscura"));
    illegal_says(PICK("p2", "[\"obs-crypt-rat\"]"), "prevents their selection", "master:select.prevented");
    summon("p2", 1, "obs-grave-bat", "dp");
    end_turn("p2");
    cr_assert(st.select_owed, "p1's Selection Step is not prevented");
    mst_turn("p1", NULL, "cor-meltdown");
    end_turn("p1");
    cr_assert(st.select_owed, "only one Selection Step was prevented");
    mst_turn("p2", NULL, "obs-soul-siphon");
}

/* A11: an effect's selection comes before any other action, by anyone.
 * (No Coreon Spell selects: Stoke the Forge is rewritten to.) */
Test(master, master_A11_effect_selection_comes_first)
{
    mst_rewrite_effect("cor-stoke-the-forge", "mana_add", "controller",
                       "\"op\": \"select\", \"target\": \"controller\"");
    third_turn_sel("obs-umbral-kitten", "ap", "cor-stoke-the-forge");
    ok(CAST("p1", "cor-stoke-the-forge", "[]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[0].select_due, 1);
    illegal_says(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)), "select the 1 card an effect gave them",
                 "master:select.per_turn");
    illegal(ANSWER("p2", "obs-void-denial", "[]", OBS(2)), "master:select.per_turn");
    illegal(PICK("p1", "[\"cor-meltdown\",\"cor-meltdown\"]"), "master:select.per_turn");
    ok(PICK("p1", "[\"cor-meltdown\"]"));
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    cr_assert(in_grave(0, "cor-stoke-the-forge"), "an instant Spell goes to the Graveyard");
}

/* ---- the Mana Zone (M1, M9, M10) ------------------------------------------------------ */

#define NONCE "00112233445566778899aabbccddeeff"
#define WITH_NONCE ",\"nonce\":\"" NONCE "\""

/* A mana event whose card is the href `href` (JSON text). */
static olverdict mana_href(const char *by, const char *href, const char *cls)
{
    char body[256];
    snprintf(body, sizeof body, "\"type\":\"mana\",\"by\":\"%s\",\"card\":%s,\"class\":\"%s\"", by, href, cls);
    return play(body);
}

/* The same for a card of the hand committed with NONCE. */
static olverdict mana_committed(const char *by, const char *id, const char *cls)
{
    char c[80];
    commit_of(id, NONCE, c);
    return mana_href(by, c, cls);
}

static void select_one_committed(const char *by, const char *id)
{
    select_committed(by, (const char *const[]){id}, 1, NONCE);
}

/* M1: up to mana_rate cards in the Mana Step, from the hand, each its
 * class's mana; a placement is optional. */
Test(master, master_mana_step_places_up_to_the_rate)
{
    opened(NULL);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    cr_assert_eq(st.side[0].n_mana, 1);
    cr_assert_eq(st.side[0].n_hand, 6, "the card left the hand");
    cr_assert_eq(st.side[0].mana[0].cls, CLASS_COREON);
    cr_assert_eq(ready(0, CLASS_COREON), 1);
    cr_assert_eq(ready(0, CLASS_OBSCURA), 0);
    illegal_says(MANA("p1", "cor-stoke-the-forge", "coreon"), "beyond the 1 a Mana Step allows", "master:mana.step");
    select_one("p1", "cor-ember-drake");
    illegal_says(MANA("p1", "cor-stoke-the-forge", "coreon"), "in the Main/Spell Phase; the Mana Step comes before it",
                 "master:turn.order");
    end_turn("p1");
    illegal(MANA("p1", "cor-stoke-the-forge", "coreon"), "master:select.per_turn"); /* p2's Selection Step is owed */
    select_one("p2", "obs-crypt-rat"); /* p2 places none */
    cr_assert_eq(st.side[1].n_mana, 0);
    illegal_says(MANA("p1", "cor-stoke-the-forge", "coreon"), "only the active player acts", "master:turn.order");

    opened("\"mana_rate\":2");
    ok(MANA("p1", "cor-backdraft", "coreon"));
    ok(MANA("p1", "cor-stoke-the-forge", "coreon"));
    illegal_says(MANA("p1", "cor-kindle-fury", "coreon"), "beyond the 2 a Mana Step allows", "master:mana.step");
    select_one("p1", "cor-ember-drake");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    end_turn("p2");
    ok(MANA("p1", "cor-kindle-fury", "coreon")); /* each Mana Step places anew */
    ok(MANA("p1", "cor-searing-brand", "coreon"));
    cr_assert_eq(ready(0, CLASS_COREON), 4);
}

/* M1, open mode: the class announced is the card's. */
Test(master, master_mana_class_must_be_the_cards)
{
    opened(NULL);
    olverdict v = illegal_says(MANA("p1", "cor-backdraft", "obscura"),
                               "p1 (carol) placed as Obscura mana a card of another class; a card gives mana of its "
                               "own class.", "master:mana.class");
    /* the verdict is public: the face-down card is not named in it */
    cr_assert_null(strstr(v.msg, "Backdraft"), "%s", v.msg);
    cr_assert_eq(st.side[0].n_mana, 0);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    select_one("p1", "cor-ember-drake");
    end_turn("p1");
    illegal_says(MANA("p2", "obs-umbral-decoy", "aetherion"), "placed as Aetherion mana a card of another class",
                 "master:mana.class");
}

/* M1, announced mode: the decklist must still hold an unused card of the
 * class beside the Mana Zone's other unrevealed cards of that class -- and
 * a card revealed later from the hand must leave them theirs. */
Test(master, master_M1_announced_mana_class_must_be_left_in_the_decklist)
{
    static const char *const others[] = {"aet-clarity", "syn-wither", "obs-curse-of-silence"};
    char *deck = mst_deck_with(P1_DECK, "flx-riptide-shift", others, 3); /* one Aetherion card, one Synaphera */
    unsigned out[2];
    cr_assert_eq(mst_start_decks("announced", "\"mana_rate\":2", deck, P2_DECK).status, OL_V_OK);
    free(deck);
    mst_open_with("[null,null,null,null,null,null,null]", "[null,null,null,null,null,null,null,null]");
    illegal(MANA("p1", "aet-clarity", "aetherion"), "openlog:6"); /* an id in announced mode */
    ok(MANA_AS("p1", "null", "aetherion"));
    illegal_says(MANA_AS("p1", "null", "aetherion"),
                 "placed an Aetherion card as mana, but no Aetherion card is left unused in their decklist",
                 "openlog:6");
    ok(MANA_AS("p1", "null", "synaphera"));
    cr_assert_eq(st.side[0].n_mana, 2);
    cr_assert_eq(st.side[0].mana[1].cls, CLASS_SYNAPHERA);
    ok(PICK("p1", "[null]"));
    /* the one Aetherion card and the one Synaphera card of the decklist are
     * the Mana Zone's: the hand holds neither */
    illegal(CAST("p1", "aet-clarity", "[]", "{\"aetherion\":2}"), "openlog:6");
    illegal(NORMAL("p1", 0, "syn-wither", "ap"), "openlog:6");
    summon("p1", 0, "cor-ember-whelp", "ap"); /* a Coreon card is revealed as usual */
    duel_unverifiable(&st, out);
    cr_assert_eq(out[0], 7, "five hand cards and two mana cards never revealed");
    cr_assert_eq(out[1], 8);
    board_has(1, 1, 1, "{\"class\":\"aetherion\",\"card\":null}", 1);
    board_has(0, 1, 1, "  mana       2 cards: 1 Synaphera (1 ready), 1 Aetherion (1 ready); face-down: 2 unknown\n", 1);
}

/* M1, commit mode: a mana card is the hand card's commitment; its class is
 * checked when it is revealed (M10), and never-revealed mana is unverified. */
Test(master, master_M1_commit_mode_checks_the_class_at_the_reveal)
{
    static const char *const p1[7] = {"cor-ember-whelp", "cor-cinder-hound", "cor-forge-golem",    "cor-searing-brand",
                                      "cor-kindle-fury", "cor-backdraft",    "cor-stoke-the-forge"};
    static const char *const p2[8] = {"obs-umbral-kitten", "obs-crypt-rat",   "obs-grave-bat",   "obs-night-terror",
                                      "obs-void-denial",   "obs-hollow-mask", "obs-shadow-step", "obs-umbral-decoy"};
    unsigned out[2];
    cr_assert_eq(mst_start("commit", NULL).status, OL_V_OK);
    select_committed("p1", p1, 7, NONCE);
    select_committed("p2", p2, 8, NONCE);
    illegal(MANA("p1", "cor-backdraft", "coreon"), "openlog:6"); /* an id in commit mode */
    expect(mana_committed("p1", "cor-ember-drake", "coreon"), OL_V_ILLEGAL, "openlog:commit");
    cr_assert_eq(mana_committed("p1", "cor-backdraft", "coreon").status, OL_V_OK);
    cr_assert(st.side[0].mana[0].card.has_commit && !st.side[0].mana[0].card.card);
    select_one_committed("p1", "cor-ember-drake");
    ok(NORMAL("p1", 0, "cor-ember-whelp", "ap") WITH_NONCE);
    end_turn("p1");
    cr_assert_eq(mana_committed("p2", "obs-umbral-decoy", "obscura").status, OL_V_OK);
    select_one_committed("p2", "obs-grave-whisper");
    ok(NORMAL("p2", 0, "obs-umbral-kitten", "ap") WITH_NONCE);
    end_turn("p2");
    /* Searing Brand, a Coreon card, announced as Obscura: not checked yet */
    cr_assert_eq(mana_committed("p1", "cor-searing-brand", "obscura").status, OL_V_OK);
    select_one_committed("p1", "cor-meltdown");
    board_has(1, 0, 1,
              "\"mana\":{\"cards\":[{\"class\":\"coreon\",\"card\":null},{\"class\":\"obscura\",\"card\":null}]", 1);
    board_has(1, 1, 0, "{\"class\":\"obscura\",\"card\":\"committed\"}", 1);
    end_turn("p1");
    cr_assert_eq(mana_committed("p2", "obs-crypt-rat", "obscura").status, OL_V_OK);
    select_one_committed("p2", "obs-soul-siphon");
    ok(CAST("p2", "obs-grave-whisper", "[]", OBS(2)) WITH_NONCE);
    ok(SILENT("p1"));
    cr_assert_eq(st.side[0].mana_remove_due, 1);
    illegal_says(REMOVE("p1", "cor-searing-brand") WITH_NONCE, "as Obscura mana", "master:mana.class");
    illegal(REMOVE("p1", "cor-backdraft") ",\"nonce\":\"ffeeddccbbaa99887766554433221100\"", "openlog:commit");
    illegal_says(REMOVE("p1", "flx-undertow") WITH_NONCE, "holds no such Fluxion card", "master:mana.remove");
    ok(REMOVE("p1", "cor-backdraft") WITH_NONCE);
    cr_assert(in_grave(0, "cor-backdraft"), "the removal reveals the card to the Graveyard");
    cr_assert_eq(st.side[0].n_mana, 1);
    duel_unverifiable(&st, out);
    cr_assert_eq(out[0], 7, "six hand cards and the mana card never revealed");
}

/* M2: a cost of any class only -- Grave Bat's Bat Brace, 1 of any class --
 * said in words, and paid with mana of any class. */
Test(master, master_attack_cost_of_any_class_only)
{
    two_turns("obs-grave-bat", "ap");
    illegal_says(STRIKE("p2", 0, 1, "{\"p\":\"p1\"}", FREE),
                 "p2 (dave) paid nothing for Bat Brace, which costs 1 of any class.", "master:attack.cost");
    ok(STRIKE("p2", 0, 1, "{\"p\":\"p1\"}", OBS(1)));
}

/* M1 and M10, commit mode: the class is checked at the reveal wherever the
 * card lies in the Mana Zone -- here the first card placed. */
Test(master, master_M1_commit_mode_checks_the_first_mana_card_too)
{
    static const char *const p1[7] = {"cor-ember-whelp", "cor-cinder-hound", "cor-forge-golem",    "cor-searing-brand",
                                      "cor-kindle-fury", "cor-backdraft",    "cor-stoke-the-forge"};
    static const char *const p2[8] = {"obs-umbral-kitten", "obs-crypt-rat",   "obs-grave-bat",   "obs-night-terror",
                                      "obs-void-denial",   "obs-hollow-mask", "obs-shadow-step", "obs-umbral-decoy"};
    cr_assert_eq(mst_start("commit", NULL).status, OL_V_OK);
    select_committed("p1", p1, 7, NONCE);
    select_committed("p2", p2, 8, NONCE);
    /* Searing Brand, a Coreon card, announced as Obscura: not checked yet */
    cr_assert_eq(mana_committed("p1", "cor-searing-brand", "obscura").status, OL_V_OK);
    select_one_committed("p1", "cor-ember-drake");
    ok(NORMAL("p1", 0, "cor-ember-whelp", "ap") WITH_NONCE);
    end_turn("p1");
    cr_assert_eq(mana_committed("p2", "obs-umbral-decoy", "obscura").status, OL_V_OK);
    select_one_committed("p2", "obs-grave-whisper");
    ok(NORMAL("p2", 0, "obs-umbral-kitten", "ap") WITH_NONCE);
    end_turn("p2");
    cr_assert_eq(mana_committed("p1", "cor-backdraft", "coreon").status, OL_V_OK);
    select_one_committed("p1", "cor-meltdown");
    end_turn("p1");
    cr_assert_eq(mana_committed("p2", "obs-crypt-rat", "obscura").status, OL_V_OK);
    select_one_committed("p2", "obs-soul-siphon");
    ok(CAST("p2", "obs-grave-whisper", "[]", OBS(2)) WITH_NONCE);
    ok(SILENT("p1"));
    /* M10: Player 1's removal comes first, before Player 2 acts again */
    illegal_says("\"type\":\"end\",\"by\":\"p2\"",
                 "p1 (carol) must first send the 1 mana card an effect took to the Graveyard.", "master:mana.remove");
    illegal_says(REMOVE("p1", "cor-searing-brand") WITH_NONCE,
                 "p1 (carol)'s mana card revealed as Searing Brand, a Coreon card, was placed as Obscura mana.",
                 "master:mana.class");
    ok(REMOVE("p1", "cor-backdraft") WITH_NONCE);
}

/* M10: a mana_remove comes before any other action, of a card the zone
 * holds, only as an effect obliges. */
Test(master, master_M10_mana_remove_comes_first)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-crucible-rite");
    illegal_says(REMOVE("p1", "cor-backdraft"), "no effect obliges them", "master:mana.remove");
    illegal(REMOVE("table", "cor-backdraft"), "openlog:3");
    ok(CAST("p1", "cor-crucible-rite", "[]", COR(2)));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[1].mana_remove_due, 1);
    board_has(1, 1, 1, "\"mana_remove\":1", 1);
    board_has(0, 1, 1, "  pending    send 1 mana card to the Graveyard\n", 1);
    illegal_says(NORMAL("p1", 1, "cor-cinder-hound", "ap"),
                 "p2 (dave) must first send the 1 mana card an effect took to the Graveyard.", "master:mana.remove");
    illegal(REMOVE("p1", "cor-backdraft"), "master:mana.remove"); /* p1 is not obliged */
    illegal_says(REMOVE("p2", "obs-crypt-rat"), "holds no such Obscura card", "master:mana.remove");
    illegal(REMOVE("p2", "obs-no-such-card"), "openlog:cards");
    ok(REMOVE("p2", "obs-shadow-step"));
    cr_assert_eq(st.side[1].n_mana, 0);
    cr_assert_eq(st.side[1].mana_remove_due, 0);
    cr_assert(in_grave(1, "obs-shadow-step"));
    board_has(1, 0, 1, "\"graveyard\":[\"obs-shadow-step\"]", 1); /* the Graveyard is public */
    illegal(REMOVE("p2", "obs-shadow-step"), "master:mana.remove");
    summon("p1", 1, "cor-cinder-hound", "ap");
}

/* M10: "fewer when the zone holds fewer" -- none from an empty zone. */
Test(master, master_M10_a_removal_from_an_empty_zone_owes_nothing)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-crucible-rite");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-crypt-rat");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    ok(CAST("p1", "cor-crucible-rite", "[]", COR(2)));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[1].mana_remove_due, 0);
    summon("p1", 1, "cor-cinder-hound", "ap");
}

/* M10: a removed card is taken from the spent mana of its class first. */
Test(master, master_M10_removed_mana_is_spent_first)
{
    opened("\"mana_rate\":2");
    mst_turn("p1", "cor-backdraft", "cor-crucible-rite");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    ok(MANA("p2", "obs-shadow-step", "obscura"));
    mst_turn("p2", "obs-hollow-mask", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1))); /* 600 against DEF 1200: nothing */
    end_turn("p2");
    cr_assert(st.side[0].zone[0].present);
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    cr_assert_eq(ready(1, CLASS_OBSCURA), 1, "p2's mana stays spent until p2's turn");
    ok(CAST("p1", "cor-crucible-rite", "[]", COR(2)));
    ok(SILENT("p2"));
    ok(REMOVE("p2", "obs-hollow-mask"));
    cr_assert_eq(st.side[1].n_mana, 1);
    cr_assert_eq(st.side[1].spent[CLASS_OBSCURA], 0, "the spent card went");
    cr_assert_eq(ready(1, CLASS_OBSCURA), 1, "the ready card stays ready");
    board_has(0, 1, 1, "  mana       1 card: 1 Obscura (1 ready); face-down: Shadow Step\n", 1);
}

/* M10 in announced mode: the removal reveals a card the decklist holds. */
Test(master, master_M10_an_announced_removal_reveals_a_decklist_card)
{
    cr_assert_eq(mst_start("announced", NULL).status, OL_V_OK);
    mst_open_with("[null,null,null,null,null,null,null]", "[null,null,null,null,null,null,null,null]");
    ok(MANA_AS("p1", "null", "coreon"));
    ok(PICK("p1", "[null]"));
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    ok(MANA_AS("p2", "null", "obscura"));
    ok(PICK("p2", "[null]"));
    end_turn("p2");
    ok(MANA_AS("p1", "null", "coreon"));
    ok(PICK("p1", "[null]"));
    ok(CAST("p1", "cor-crucible-rite", "[]", COR(2)));
    ok(SILENT("p2"));
    illegal_says(REMOVE("p2", "cor-ember-whelp"), "holds no such Coreon card", "master:mana.remove");
    illegal_says(REMOVE("p2", "obs-wraith-sentry"), "not in", "openlog:6"); /* not in dave's decklist */
    ok(REMOVE("p2", "obs-death-grip"));
    cr_assert(in_grave(1, "obs-death-grip"));
}

/* M9: mana_add lets its controller place more cards at any time that
 * turn; the placements lapse at its end. */
Test(master, master_M9_mana_add_allows_a_placement)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-stoke-the-forge"); /* a second Stoke the Forge */
    ok(CAST("p1", "cor-stoke-the-forge", "[]", COR(1)));
    ok(SILENT("p2"));
    cr_assert(in_grave(0, "cor-stoke-the-forge"), "an instant Spell goes to the Graveyard");
    cr_assert_eq(st.side[0].mana_add, 1);
    board_has(1, 1, 1, "\"mana_add\":1", 1);
    board_has(0, 1, 1, "  may        place 1 more card as mana this turn\n", 1);
    summon("p1", 1, "cor-cinder-hound", "ap");
    ok(MANA("p1", "cor-forge-golem", "coreon")); /* in the Summon Phase */
    cr_assert_eq(st.side[0].n_mana, 3);
    cr_assert_eq(ready(0, CLASS_COREON), 2);
    cr_assert_eq(st.side[0].mana_add, 0);
    illegal(MANA("p1", "cor-kindle-fury", "coreon"), "master:turn.order");
    end_turn("p1");
    mst_turn("p2", "obs-crypt-rat", "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", "cor-ember-drake", "cor-stoke-the-forge");
    ok(CAST("p1", "cor-stoke-the-forge", "[]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[0].mana_add, 1);
    end_turn("p1");
    cr_assert_eq(st.side[0].mana_add, 0, "the placement lapsed with the turn");
    mst_turn("p2", NULL, "obs-soul-siphon");
    illegal(MANA("p1", "cor-kindle-fury", "coreon"), "master:turn.order");
}

/* ---- payments (M2) --------------------------------------------------------------------- */

/* M2: a payment is exact, from ready mana, and spends it. */
Test(master, master_spell_cost_paid_exactly)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", FREE),
                 "p1 (carol) paid nothing for Searing Brand, which costs 1 Coreon.", "master:spell.cost");
    illegal(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", "{\"obscura\":0}"), "master:spell.cost");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[" AT2(0) "]",
            "master:spell.cost"); /* no `pay` at all */
    illegal_says(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(2)),
                 "paid 2 Coreon for Searing Brand, which costs 1 Coreon; a cost is paid exactly, no more.",
                 "master:spell.cost");
    cr_assert_eq(ready(0, CLASS_COREON), 2, "an illegal payment spends nothing");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    cr_assert_eq(ready(0, CLASS_COREON), 1);
    cr_assert_eq(st.side[0].spent[CLASS_COREON], 1);
    ok(SILENT("p2"));
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(ready(0, CLASS_COREON), 0);
    illegal_says(STRIKE("p1", 0, 0, AT2(0), COR(1)),
                 "paid 1 Coreon for Whelp Strike (1 Coreon), but had no mana ready.", "master:attack.cost");
}

/* M2: each class part of a cost is paid with that class; the `any` part
 * with mana of any class. */
Test(master, master_M2_a_class_part_is_paid_with_its_class)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "flx-undertow");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "flx-undertow", "cor-eruption"); /* 1 Coreon, 1 Fluxion */
    illegal_says(
        CAST("p1", "cor-searing-brand", "[" AT2(0) "]", "{\"fluxion\":1}"),
        "paid 1 Fluxion for Searing Brand, which costs 1 Coreon: each class of a cost is paid with mana of that "
        "class.",
        "master:spell.cost");
    illegal_says(CAST("p1", "cor-eruption", "[" AT2(0) "]", COR(2)),
                 "paid 2 Coreon for Eruption (1 Coreon and 1 of any class), but had 1 Coreon, 1 Fluxion ready.",
                 "master:spell.cost");
    illegal(CAST("p1", "cor-eruption", "[" AT2(0) "]", "{\"fluxion\":2}"), "master:spell.cost");
    illegal_says(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", "{\"coreon\":1,\"fluxion\":1}"),
                 "paid 1 Coreon and 1 Fluxion for Searing Brand, which costs 1 Coreon; a cost is paid exactly, no more.",
                 "master:spell.cost");
    ok(CAST("p1", "cor-eruption", "[" AT2(0) "]", "{\"coreon\":1,\"fluxion\":1}"));
    cr_assert(ready(0, CLASS_COREON) == 0 && ready(0, CLASS_FLUXION) == 0);
    ok(SILENT("p2"));
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_DP, "Eruption switched the Kitten");
}

/* M2: spent mana is ready again when its player's next turn begins --
 * not before, and mana spent on a Counter in the opponent's turn too. */
Test(master, master_M2_mana_is_ready_again_next_turn)
{
    rich_turn("cor-ember-drake", "obs-void-denial");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    uint64_t brand = seq - 1;
    cr_assert_eq(counter_on("p2", "obs-void-denial", brand, OBS(2)).status, OL_V_OK);
    ok(SILENT("p2"));
    cr_assert_eq(ready(1, CLASS_OBSCURA), 0, "p2 paid in p1's turn");
    cr_assert(in_grave(0, "cor-searing-brand"), "M5: a negated Ongoing Spell goes to the Graveyard at once");
    cr_assert_eq(st.side[0].n_ongoing, 0);
    cr_assert_eq(def_at(1, 0), 1500);
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    cr_assert_eq(ready(0, CLASS_COREON), 2);
    board_has(1, 1, 1, "\"ready\":{\"coreon\":0,\"fluxion\":0,\"synaphera\":0,\"obscura\":0,\"aetherion\":0}", 1);
    end_turn("p1");
    cr_assert_eq(ready(0, CLASS_COREON), 2, "p1's mana stays spent in p2's turn");
    cr_assert_eq(ready(1, CLASS_OBSCURA), 2, "p2's mana is ready as p2's turn begins");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    cr_assert_eq(ready(0, CLASS_COREON), 4);
}

/* ---- summons (M4, A1, A20) -------------------------------------------------------------- */

/* M4: the Normal Summon, once a turn, places a free Monster card of level
 * 3 or below. */
Test(master, master_summon_normal_level_3_or_below)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-pyre-acolyte");
    illegal_says(NORMAL("p1", 1, "cor-pyre-acolyte", "ap"), "a level 4 monster; a Normal Summon is of level 3 or below",
                 "master:summon.normal");
    illegal_says(NORMAL("p1", 1, "cor-forge-golem", "ap") ",\"pay\":" COR(1), "paid mana for a Normal Summon",
                 "master:summon.normal");
    ok(NORMAL("p1", 1, "cor-forge-golem", "ap") ",\"pay\":" FREE); /* an empty payment is none */
    cr_assert_eq(ready(0, CLASS_COREON), 2);
    illegal_says(NORMAL("p1", 2, "cor-cinder-hound", "ap"), "second Normal Summon", "master:summon.normal");
    cr_assert_eq(st.side[0].zone[1].stack[0]->master.level, 3);
}

Test(master, master_summon_normal_places_a_monster_card)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(NORMAL("p1", 1, "cor-ember-drake", "ap"),
                 "summoned Ember Drake, an Evolution; a Normal Summon places a Monster card.", "master:summon.normal");
    illegal_says(MANA_SUMMON("p1", 1, "cor-ember-drake", "ap", COR(2)),
                 "summoned Ember Drake, an Evolution; a Mana Summon places a Monster card.", "master:summon.mana");
    cr_assert_eq(ready(0, CLASS_COREON), 2);
}

/* M4: a Mana Summon pays the monster's cost, any level, any number a turn,
 * beside the Normal Summon. */
Test(master, master_summon_mana_pays_the_cost)
{
    rich_turn("cor-pyre-acolyte", "obs-crypt-rat");
    illegal_says(MANA_SUMMON("p1", 1, "cor-pyre-acolyte", "dp", FREE),
                 "paid nothing for Pyre Acolyte, which costs 1 Coreon and 1 of any class.", "master:summon.mana");
    illegal(MANA_SUMMON("p1", 1, "cor-pyre-acolyte", "dp", COR(1)), "master:summon.mana");
    ok(MANA_SUMMON("p1", 1, "cor-pyre-acolyte", "dp", COR(2)));
    cr_assert_eq(st.side[0].zone[1].pos, OL_POS_DP, "A1: in the position announced");
    cr_assert(!st.normal_summoned, "a Mana Summon is not the Normal Summon");
    ok(MANA_SUMMON("p1", 2, "cor-magma-tortoise", "ap", COR(1))); /* any number a turn */
    cr_assert_eq(ready(0, CLASS_COREON), 1);
    illegal_says(MANA_SUMMON("p1", 3, "cor-kindle-fury", "ap", COR(1)),
                 "summoned Kindle Fury, a Spell; a Mana Summon places a Monster card.", "master:summon.mana");
}

/* A20: no core effect allows a Special Summon. */
Test(master, master_summon_special_needs_an_effect)
{
    opened(NULL);
    select_one("p1", "cor-ember-drake");
    illegal("\"type\":\"summon\",\"kind\":\"special\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\","
            "\"position\":\"ap\"",
            "master:summon.special");
}

Test(master, master_field_limit)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(NORMAL("p1", 0, "cor-cinder-hound", "ap"), "not a free slot of their 7", "master:field.limit");
}

/* M12: every card comes from its player's hand. */
Test(master, master_field_from_hand)
{
    opened(NULL);
    olverdict v = illegal_says(MANA("p1", "cor-ember-drake", "coreon"),
                               "placed as mana a card that is not in their hand.", "master:field.from_hand");
    cr_assert_null(strstr(v.msg, "Ember Drake"), "%s", v.msg);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    select_one("p1", "cor-ember-drake");
    illegal_says(NORMAL("p1", 0, "cor-magma-tortoise", "ap"), "which is not in p1 (carol)'s hand",
                 "master:field.from_hand");
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(GROW("p1", 0, "cor-cinder-warg", COR(2)), "master:field.from_hand");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    illegal(ANSWER("p1", "cor-firewall", "[]", COR(2)), "master:field.from_hand");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-magma-tortoise");
    illegal(CAST("p1", "cor-meltdown", "[" AT2(0) "]", COR(2)), "master:field.from_hand");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal(SINGULAR("p1", "cor-corehart-the-molten-crown", 2, "[]", COR(4)), "master:field.from_hand");
}

/* ---- the steps (A21) and Spells (M5) ------------------------------------------------------ */

/* A21: the steps go forward, never revisited; only the active player acts in them. */
Test(master, master_A21_no_spell_after_a_summon)
{
    third_turn("obs-umbral-kitten", "ap");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal_says(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)),
                 "in the Summon Phase; the Main/Spell Phase comes before it", "master:turn.order");
    ok(SWITCH("p1", 1));
    illegal_says(NORMAL("p1", 2, "cor-forge-golem", "ap"), "in the Position Step; the Summon Phase comes before it",
                 "master:turn.order");
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    illegal_says(SWITCH("p1", 0), "in the Evolution Step; the Position Step comes before it", "master:turn.order");
    illegal_says(NORMAL("p2", 1, "obs-crypt-rat", "ap"), "only the active player acts", "master:turn.order");
    illegal(GROW("p2", 0, "obs-umbral-panther", OBS(2)), "master:turn.order");
    illegal(SINGULAR("p2", "obs-nyxora-the-last-eclipse", 1, "[]", OBS(4)), "master:turn.order");
    illegal(TOSS("p2", "obs-crypt-rat"), "master:turn.order");
    illegal(SWITCH("p2", 0), "master:turn.order");
    illegal(STRIKE("p2", 0, 0, AT1(0), OBS(1)), "master:turn.order");
    illegal("\"type\":\"end\",\"by\":\"p2\"", "master:turn.order");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    illegal_says(TOSS("p2", "obs-crypt-rat"), "a discard is only down to the hand limit of 10",
                 "master:end.hand_limit");
}

Test(master, master_spell_class)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    illegal_says(CAST("p1", "cor-kindle-fury", "[]", COR(1)),
                 "a Coreon Spell, without controlling a face-up Coreon monster", "master:spell.class");
    cr_assert_eq(ready(0, CLASS_COREON), 1);
}

Test(master, master_spell_main_phase)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-firewall");
    illegal_says(CAST("p1", "cor-firewall", "[]", COR(2)), "but it is a Counter", "master:spell.main_phase");
    illegal_says(CAST("p1", "cor-cinder-hound", "[]", COR(1)), "but it is a Monster", "master:spell.main_phase");
}

Test(master, master_spell_own_turn)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(CAST("p2", "obs-night-terror", "[" AT2(0) "]", OBS(1)), "Spells are played in their own turn",
                 "master:spell.own_turn");
}

/* M5: an Ongoing Spell stays on the field and its DEF change with it --
 * past the end of the turn, through an evolution. */
Test(master, master_M5_ongoing_spell_stays_and_keeps_its_def)
{
    third_turn("obs-umbral-kitten", "ap");
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    cr_assert_eq(st.window, DUEL_WIN_SPELL);
    cr_assert_eq(def_at(0, 0), 1200, "nothing before it resolves");
    ok(SILENT("p2"));
    cr_assert_eq(st.side[0].n_ongoing, 1);
    cr_assert_str_eq(st.side[0].ongoing[0].card->id, "cor-kindle-fury");
    cr_assert(st.side[0].ongoing[0].p == 0 && st.side[0].ongoing[0].slot == 0 && st.side[0].ongoing[0].def == 800);
    cr_assert_eq(st.side[0].zone[0].def_kept, 800);
    cr_assert_eq(st.side[0].zone[0].def_mod, 0);
    cr_assert_eq(def_at(0, 0), 2000);
    cr_assert(!in_grave(0, "cor-kindle-fury"));
    board_has(1, 1, 1,
              "\"ongoing\":[{\"card\":\"cor-kindle-fury\",\"monster\":{\"player\":\"p1\",\"slot\":0},\"def\":800}]", 1);
    board_has(1, 1, 1, "\"def\":1200,\"def_mod\":0,\"def_kept\":800", 1);
    board_has(0, 1, 1, "  ongoing    Kindle Fury on p1 zone 0 (DEF +800)\n", 1);
    board_has(0, 1, 1, "Ember Whelp  AP  DEF 1200 (+800)", 1);
    end_turn("p1");
    cr_assert_eq(def_at(0, 0), 2000, "not until the end of the turn");
    mst_turn("p2", "obs-crypt-rat", "obs-soul-siphon");
    ok(STRIKE("p2", 0, 1, AT1(0), OBS(2))); /* Spark Kitten, 900 */
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert(st.side[0].zone[0].present, "900 against DEF 2000");
    end_turn("p2");
    mst_turn("p1", "cor-cinder-hound", "cor-meltdown");
    ok(SWITCH("p1", 0));
    cr_assert_eq(def_at(0, 0), 2000, "M6: the same DEF in Defense Position");
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    cr_assert_eq(def_at(0, 0), 3000, "the evolved monster is the same monster: 2200 + 800");
    cr_assert_eq(st.side[0].zone[0].pos, OL_POS_DP, "an evolution keeps the position");
    cr_assert_eq(st.side[0].n_ongoing, 1);
}

/* M5: an Ongoing Spell goes to the Graveyard when the monster it changed
 * leaves the field; one on another monster stays. */
Test(master, master_M5_ongoing_spell_leaves_with_its_monster)
{
    rich_turn("cor-ember-drake", "obs-crypt-rat");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(def_at(1, 0), 300);
    cr_assert_eq(st.side[0].n_ongoing, 2);
    board_has(1, 1, 1, "\"def\":-1200},{\"card\":\"cor-kindle-fury\",\"monster\":{\"player\":\"p1\",\"slot\":0}", 1);
    board_has(0, 1, 1, "  ongoing    Searing Brand on p2 zone 0 (DEF -1200)\n", 1);
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1))); /* Whelp Strike, 600 against 300 */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present);
    cr_assert(in_grave(1, "obs-umbral-kitten"));
    cr_assert(in_grave(0, "cor-searing-brand"), "Searing Brand went with the Kitten, to its controller's Graveyard");
    cr_assert_eq(st.side[0].n_ongoing, 1);
    cr_assert_str_eq(st.side[0].ongoing[0].card->id, "cor-kindle-fury");
    cr_assert(!in_grave(0, "cor-kindle-fury"));
}

/* M5: one that changed no monster -- its target gone before it resolved --
 * goes to the Graveyard at once.  (No core Counter destroys a chosen
 * monster: Dissonant Whisper is rewritten to.) */
Test(master, master_M5_ongoing_spell_whose_target_is_gone_changes_nothing)
{
    mst_rewrite_effect("obs-dissonant-whisper", "negate", "chain_link", "\"op\": \"destroy\", \"target\": \"monster\"");
    rich_turn("cor-ember-drake", "obs-dissonant-whisper");
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    ok(ANSWER("p2", "obs-dissonant-whisper", "[" AT1(0) "]", OBS(2)));
    ok(SILENT("p2"));
    cr_assert(!st.side[0].zone[0].present, "the Counter destroyed the Whelp first");
    cr_assert_eq(st.side[0].lost, 1, "A15: a monster destroyed by an effect is defeated");
    cr_assert_eq(st.side[0].n_ongoing, 0);
    cr_assert(in_grave(0, "cor-kindle-fury"));
}

/* ---- Counters and windows (A2, A7, A8, A22) ----------------------------------------------- */

/* A8: Counters in the opponent's turn, or in an attack's Counter Window by
 * either player; in a Spell's window only the opponent answers. */
Test(master, master_counter_timing_not_in_own_turn_outside_combat)
{
    third_turn_sel("obs-umbral-kitten", "ap", "cor-firewall");
    illegal_says(ANSWER("p1", "cor-firewall", "[]", COR(2)), "in their own turn outside an attack's Counter Window",
                 "master:counter.timing");
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    illegal_says(SILENT("p1"), "only the opponent may answer", "master:counter.timing");
    illegal(ANSWER("p1", "cor-firewall", "[]", COR(2)), "master:counter.timing");
    illegal_says(ANSWER("p2", "obs-night-terror", "[]", OBS(1)), "but it is a Spell", "master:counter.timing");
    ok(SILENT("p2"));
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    cr_assert_eq(st.window, DUEL_WIN_ATTACK);
    /* p1 may answer their own attack: the timing holds, the payment does not */
    illegal(ANSWER("p1", "cor-firewall", "[]", COR(2)), "master:counter.cost");
    ok(SILENT("p1"));
    cr_assert_eq(st.window, DUEL_WIN_ATTACK, "p2 has not passed");
    ok(SILENT("p2"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
}

Test(master, master_counter_class)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-crypt-rat", "obs-crypt-rat"); /* no monster */
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    ok(STRIKE("p1", 0, 0, P2, COR(1)));
    illegal_says(ANSWER("p2", "obs-umbral-decoy", "[]", OBS(1)),
                 "an Obscura Counter, without controlling a face-up Obscura monster", "master:counter.class");
}

/* M2: a Counter is paid for as it is played. */
Test(master, master_counter_cost)
{
    third_turn("obs-umbral-kitten", "ap");
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    illegal_says(ANSWER("p2", "obs-umbral-decoy", "[]", FREE),
                 "p2 (dave) paid nothing for Umbral Decoy, which costs 1 Obscura.", "master:counter.cost");
    ok(ANSWER("p2", "obs-umbral-decoy", "[]", OBS(1)));
    cr_assert_eq(ready(1, CLASS_OBSCURA), 0);
    cr_assert_eq(st.side[1].zone[0].def_mod, 0, "a Counter resolves with its chain");
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[1].zone[0].def_mod, 1000);
    cr_assert(st.side[1].zone[0].present);
    end_turn("p1");
    cr_assert_eq(st.side[1].zone[0].def_mod, 0, "until the end of the turn");
}

Test(master, master_A22_attack_counter_needs_an_attack)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(ANSWER("p2", "obs-umbral-decoy", "[]", OBS(1)),
                 "acts on an attack, with no attack in its Counter Window", "master:A22");
}

Test(master, master_chain_cap)
{
    rich_turn_with("\"chain_cap\":1", "cor-ember-drake", "obs-umbral-decoy");
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    uint64_t decoy = seq;
    ok(ANSWER("p2", "obs-umbral-decoy", "[]", OBS(1)));
    olverdict v = counter_on("p2", "obs-void-denial", decoy, OBS(1));
    expect(v, OL_V_ILLEGAL, "master:chain.cap");
    cr_assert(strstr(v.msg, "already holds 1 of theirs; the cap is 1 per player"), "%s", v.msg);
    cr_assert_eq(st.chain_count[1], 1);
}

/* A2: a summon, a mana placement, a position change and an evolution open
 * no window; a Spell and an attack do; a Counter in the opponent's turn
 * with no window open starts a chain of its own. */
Test(master, master_A2_summon_opens_no_window)
{
    third_turn("obs-umbral-kitten", "ap");
    cr_assert_eq(st.window, DUEL_WIN_NONE, "the mana placement opened none");
    summon("p1", 1, "cor-cinder-hound", "ap");
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    ok(SWITCH("p1", 1));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
}

Test(master, master_A2_a_counter_in_the_opponents_turn_starts_a_chain)
{
    rich_turn("cor-ember-drake", "obs-crypt-rat");
    ok(ANSWER("p2", "obs-void-denial", "[]", OBS(2))); /* A27: nothing on a chain to negate */
    cr_assert_eq(st.window, DUEL_WIN_COUNTER);
    cr_assert_eq(st.n_chain, 1);
    board_has(1, 1, 1, "\"window\":\"counter\"", 1);
    illegal(SILENT("p1"), "master:counter.timing");
    ok(SILENT("p2"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert(in_grave(1, "obs-void-denial"));
}

/* A7: the next event that is not a Counter, a pass, a claim or a ruling
 * closes the window, whatever its own verdict. */
Test(master, master_A7_next_action_closes_the_window)
{
    third_turn("obs-umbral-kitten", "ap");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(CLAIM_LP(8000, 8000));
    cr_assert_eq(st.window, DUEL_WIN_SPELL, "a claim does not close it");
    summon("p1", 1, "cor-cinder-hound", "ap");
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(def_at(1, 0), 300, "Searing Brand resolved before the summon");
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    illegal(NORMAL("p2", 1, "obs-crypt-rat", "ap"), "master:turn.order");
    cr_assert_eq(st.window, DUEL_WIN_NONE, "the illegal event closed it: the attack was fought");
    cr_assert(!st.side[1].zone[0].present, "600 against 300");
}

/* A7: the end of the log closes the window too. */
Test(master, master_A7_the_end_of_the_log_closes_the_window)
{
    two_turns("obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, AT1(0), "{\"obscura\":1,\"coreon\":0}"));
    cr_assert_eq(st.window, DUEL_WIN_ATTACK);
    duel_silence(&st);
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert(!st.attack_on);
}

/* ---- attacks (M6, M7, A1, A3) ---------------------------------------------------------------- */

Test(master, master_attack_first_turn)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal_says(STRIKE("p1", 0, 0, P2, COR(1)), "Player 1 cannot", "master:attack.first_turn");
}

/* A3: a monster may attack in the turn it was summoned. */
Test(master, master_A3_summoned_monster_attacks_same_turn)
{
    two_turns("obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    cr_assert(st.attack_on);
    cr_assert_eq(st.window, DUEL_WIN_ATTACK);
    cr_assert_eq(st.attack_index, 0);
    board_has(1, 1, 1,
              "\"attack\":{\"attacker\":{\"player\":\"p2\",\"slot\":0},\"target\":{\"player\":\"p1\",\"slot\":0},"
              "\"fizzled\":false,\"attack\":0,\"name\":\"Kitten Strike\"}",
              1);
    board_has(0, 1, 1, "attack: p2 Umbral Kitten (zone 0), Kitten Strike -> p1 Ember Whelp (zone 0)\n", 1);
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert(st.side[0].zone[0].present, "M8: 600 against DEF 1200 does nothing");
    cr_assert_eq(st.side[0].lp, 8000, "M8: no Life Points are lost");
}

Test(master, master_attack_once)
{
    two_turns("obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    illegal_says(STRIKE("p2", 0, 1, AT1(0), OBS(2)), "already attacked this turn", "master:attack.once");
}

Test(master, master_attack_declare)
{
    two_turns("obs-umbral-kitten", "ap");
    illegal_says(STRIKE("p2", 3, 0, AT1(0), OBS(1)), "without naming one of their monsters", "master:attack.declare");
    illegal("\"type\":\"attack\",\"by\":\"p2\",\"attack\":0,\"target\":" AT1(0) ",\"pay\":" OBS(1),
            "master:attack.declare");
}

/* master.md: "choose 1 of its available attacks" -- by index, from 0. */
Test(master, master_attack_choose)
{
    two_turns("obs-umbral-kitten", "ap");
    illegal_says(STRIKE("p2", 0, 2, AT1(0), OBS(1)),
                 "declared an attack it does not have; it has 2 attacks, numbered from 0.", "master:attack.choose");
    illegal_says("\"type\":\"attack\",\"by\":\"p2\",\"slot\":0,\"target\":" AT1(0) ",\"pay\":" OBS(1),
                 "declared no attack by its index", "master:attack.choose");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal_says(STRIKE("p1", 1, 1, AT2(0), COR(1)), "it has 1 attack, numbered from 0.", "master:attack.choose");
}

Test(master, master_attack_cost)
{
    two_turns("obs-umbral-kitten", "ap");
    illegal_says(STRIKE("p2", 0, 0, AT1(0), FREE), "p2 (dave) paid nothing for Kitten Strike, which costs 1 Obscura.",
                 "master:attack.cost");
    illegal(STRIKE("p2", 0, 0, AT1(0), OBS(2)), "master:attack.cost");
    illegal_says(STRIKE("p2", 0, 1, AT1(0), OBS(2)),
                 "paid 2 Obscura for Spark Kitten (1 Obscura and 1 of any class), but had 1 Obscura ready.",
                 "master:attack.cost");
    cr_assert(!st.side[1].zone[0].attacked, "an illegal attack is no attack");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    cr_assert_eq(ready(1, CLASS_OBSCURA), 0);
}

/* A1: a monster summoned in Defense Position is there, and cannot attack (M6). */
Test(master, master_A1_summon_in_defense_position_cannot_attack)
{
    two_turns("obs-umbral-kitten", "dp");
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_DP);
    illegal_says(STRIKE("p2", 0, 0, AT1(0), OBS(1)), "is in Defense Position and cannot attack", "master:M6");
}

/* M6: DEF is the same in either position; Defense Position cannot attack. */
Test(master, master_M6_defense_position_cannot_attack)
{
    third_turn("obs-crypt-rat", "dp");
    cr_assert_eq(def_at(1, 0), 1800);
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1))); /* 600 against 1800 - 1200, in DP */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present, "a monster in Defense Position is destroyed by damage at its DEF");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    summon("p2", 1, "obs-grave-bat", "ap");
    ok(SWITCH("p2", 1));
    cr_assert_eq(def_at(1, 1), 2300);
    end_turn("p2");
    mst_turn("p1", NULL, "cor-meltdown");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    illegal(STRIKE("p2", 1, 0, AT1(0), OBS(1)), "master:M6");
}

/* M7: an attack whose effects choose no monster names the opponent. */
Test(master, master_M7_utility_attack_names_the_opponent)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-forge-golem", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    board_has(0, 1, 1, "0. Golem Slam (1 Coreon) usable; 1. Golem Brace (1 any) usable\n", 1);
    illegal_says(STRIKE("p1", 0, 1, AT2(0), COR(1)),
                 "aimed Golem Brace at a monster; an attack that chooses no monster names the opponent.", "master:M7");
    illegal_says(STRIKE("p1", 0, 1, P1, COR(1)), "aimed Golem Brace at its own player", "master:M7");
    ok(STRIKE("p1", 0, 1, P2, COR(1))); /* Golem Brace: DEF +600, any class */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert_eq(def_at(0, 0), 2600, "M8: `self` is the attacking monster");
    cr_assert_eq(st.side[1].lp, 8000);
    end_turn("p1");
    cr_assert_eq(def_at(0, 0), 2000, "M8: a DEF change of an attack lasts until the end of the turn");
}

/* M7, attack.direct: a direct attack only when the opponent controls no
 * monster; then a monster-choosing attack is direct. */
Test(master, master_attack_direct_only_on_an_empty_field)
{
    two_turns("obs-umbral-kitten", "ap");
    illegal_says(STRIKE("p2", 0, 0, P1, OBS(1)), "the opponent controls monsters", "master:attack.direct");
    illegal_says(STRIKE("p2", 0, 0, P2, OBS(1)), "a player attacks only the opponent", "master:attack.direct");
    illegal_says(STRIKE("p2", 0, 0, AT1(4), OBS(1)), "not at a monster of the opponent", "master:attack.target");
    illegal(STRIKE("p2", 0, 0, AT2(0), OBS(1)), "master:attack.target");
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    illegal_says(STRIKE("p2", 0, 0, AT1(0), OBS(1)),
                 "the opponent controls no monsters, so the attack is direct, at the opponent", "master:attack.direct");
    illegal(STRIKE("p2", 0, 0, P2, OBS(1)), "master:attack.direct");
    ok(STRIKE("p2", 0, 0, P1, OBS(1)));
    board_has(1, 1, 1, "\"target\":{\"player\":\"p1\",\"slot\":null}", 1);
    board_has(0, 1, 1, "Kitten Strike -> p1 directly\n", 1);
}

/* M8: with no monster to aim at, damage is lost by the opponent as LP. */
Test(master, master_combat_direct_damage)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    end_turn("p1");
    mst_turn("p2", "obs-umbral-decoy", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(STRIKE("p2", 0, 0, P1, OBS(1)));
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[0].lp, 7400, "Kitten Strike's 600");
    cr_assert_eq(st.side[1].lp, 8000);
    ok(CLAIM_LP(7400, 8000));
}

/* M8: damage at least the DEF, modifiers included, destroys the monster
 * and its stack; no Life Points are lost. */
Test(master, master_combat_damage_at_least_def_destroys)
{
    third_turn("obs-crypt-rat", "ap");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(def_at(1, 0), 600, "1800 - 1200");
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1))); /* Whelp Strike: 600 */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present, "600 against DEF 600 destroys");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert(in_grave(1, "obs-crypt-rat"));
    cr_assert_eq(st.side[1].lp, 8000);
    cr_assert_eq(st.side[0].lp, 8000);
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[" AT1(0) "]"), OL_V_MISMATCH, "master:A9");
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[" AT2(0) "]");
}

/* M8: less than the DEF does nothing.  (Whelp Strike is rewritten to deal
 * one less than the DEF it meets.) */
Test(master, master_combat_damage_below_def_fails)
{
    mst_rewrite_card("cor-ember-whelp", "\"amount\": 600", "\"amount\": 599");
    third_turn("obs-crypt-rat", "ap");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(st.side[1].zone[0].present, "599 against DEF 600");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert_eq(st.side[1].lp, 8000, "the attack fails: no LP damage either");
    cr_assert_eq(st.side[0].n_ongoing, 1, "Searing Brand stays with its monster");
}

/* M8, modifiers: a Counter's DEF change counts against the damage, until
 * the end of the turn; an Ongoing Spell's after it. */
Test(master, master_combat_def_modifiers_count)
{
    third_turn("obs-crypt-rat", "ap");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));
    ok(ANSWER("p2", "obs-umbral-decoy", "[]", OBS(1))); /* DEF +1000: 1600 */
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert(st.side[1].zone[0].present, "600 against DEF 1600");
    cr_assert_eq(def_at(1, 0), 1600);
    board_has(0, 1, 1, "Crypt Rat  AP  DEF 1800 (-200)", 1);
    end_turn("p1");
    cr_assert_eq(def_at(1, 0), 600);
}

/* ---- positions and evolutions ------------------------------------------------------------ */

Test(master, master_position_step_once_and_no_attack)
{
    third_turn("obs-umbral-kitten", "ap");
    illegal_says(SWITCH("p1", 3), "holds no monster of theirs", "master:position.step");
    ok(SWITCH("p1", 0));
    cr_assert_eq(st.side[0].zone[0].pos, OL_POS_DP);
    illegal_says(SWITCH("p1", 0), "already switched position this turn", "master:position.once");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-meltdown");
    ok(SWITCH("p1", 0)); /* DP back to AP: switched this turn */
    illegal_says(STRIKE("p1", 0, 0, AT2(0), COR(1)), "switched position this turn", "master:position.no_attack");
}

Test(master, master_evolve_face_up_next_stage_cost_once)
{
    third_turn("obs-umbral-kitten", "ap");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal_says(GROW("p1", 2, "cor-ember-drake", COR(2)), "holds no face-up monster of theirs",
                 "master:evolve.face_up");
    illegal_says(GROW("p1", 1, "cor-ember-drake", COR(2)),
                 "Ember Drake is not the next stage of p1 (carol)'s Cinder Hound.", "master:evolve.next_stage");
    illegal_says(GROW("p1", 0, "cor-ember-drake", FREE), "paid nothing for Ember Drake, which costs 2 Coreon.",
                 "master:evolve.cost");
    illegal(GROW("p1", 0, "cor-ember-drake", COR(1)), "master:evolve.cost");
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    cr_assert_eq(st.side[0].zone[0].depth, 2);
    cr_assert_eq(def_at(0, 0), 2200, "the top card's DEF");
    board_has(1, 1, 1, "\"stack\":[\"cor-ember-whelp\",\"cor-ember-drake\"]", 1);
    illegal_says(GROW("p1", 1, "cor-cinder-warg", COR(2)), "one evolution per turn", "master:evolve.once");
    illegal_says(STRIKE("p1", 0, 0, AT2(0), FREE), "evolved this turn and cannot attack", "master:evolve.no_attack");
}

/* Announced mode, two mana a Mana Step: p1's Ember Whelp evolved into Ember
 * Drake in zone 0, p2 with Umbral Kitten (DP) and 4 Obscura ready, in its
 * second turn's Main/Spell Phase with Soul Reap to play. */
static void evolved_stack_before_soul_reap(void)
{
    cr_assert_eq(mst_start("announced", "\"mana_rate\":2").status, OL_V_OK);
    mst_open_with("[null,null,null,null,null,null,null]", "[null,null,null,null,null,null,null,null]");
    ok(MANA_AS("p1", "null", "coreon"));
    ok(MANA_AS("p1", "null", "coreon"));
    ok(PICK("p1", "[null]"));
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    ok(MANA_AS("p2", "null", "obscura"));
    ok(MANA_AS("p2", "null", "obscura"));
    ok(PICK("p2", "[null]"));
    summon("p2", 0, "obs-umbral-kitten", "dp");   /* Spells are class-bound */
    end_turn("p2");
    ok(PICK("p1", "[null]"));
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    cr_assert_eq(st.side[0].zone[0].depth, 2);
    end_turn("p1");
    ok(MANA_AS("p2", "null", "obscura"));
    ok(MANA_AS("p2", "null", "obscura"));
    ok(PICK("p2", "[null]"));
}

/* master.md: "If top card is destroyed, the stack is destroyed." -- the
 * whole stack, Monster and Evolution, to its owner's Graveyard, one
 * monster defeated. */
Test(master, master_evolve_graveyard_the_whole_stack_is_destroyed)
{
    evolved_stack_before_soul_reap();
    ok(CAST("p2", "obs-soul-reap", "[{\"p\":\"p1\",\"s\":0}]", OBS(4)));
    ok(SILENT("p1"));
    cr_assert(!st.side[0].zone[0].present, "the stack is destroyed");
    cr_assert(in_grave(0, "cor-ember-whelp") && in_grave(0, "cor-ember-drake"), "both its cards to the Graveyard");
    cr_assert_eq(st.side[0].lost, 1, "one monster defeated");
}

/* M5: an Ongoing Spell kept on a monster goes to the Graveyard when the
 * monster leaves the field -- every one of them, at the most a side holds
 * (DUEL_ONGOING_MAX, set rather than played), and nothing after the list
 * is touched. */
Test(master, master_M5_every_ongoing_spell_leaves_with_its_monster)
{
    evolved_stack_before_soul_reap();
    const card *kept = cards_find(db, "cor-firewall");
    cr_assert_not_null(kept);
    for (int i = 0; i < DUEL_ONGOING_MAX; i++)
        st.side[0].ongoing[i] = (duel_ongoing){kept, 0, 0, 0};
    st.side[0].n_ongoing = DUEL_ONGOING_MAX;
    st.side[0].n_once = 0;
    cr_assert_eq(duel_check_invariants(&st), 0);
    ok(CAST("p2", "obs-soul-reap", "[{\"p\":\"p1\",\"s\":0}]", OBS(4)));
    ok(SILENT("p1"));
    cr_assert_eq(st.side[0].n_ongoing, 0);
    cr_assert_eq(st.side[0].n_grave, 2 + DUEL_ONGOING_MAX, "the stack and every Ongoing Spell on it");
    cr_assert_eq(st.side[0].n_once, 0, "the list after the Ongoing Spells is untouched");
    cr_assert_eq(duel_check_invariants(&st), 0);
}

/* A3: a Prime Evolution may not attack the turn it entered; its entry
 * effect selects a card first (A11); nothing follows a third stage. */
Test(master, master_prime_no_attack)
{
    opened("\"mana_rate\":2");
    ok(MANA("p1", "cor-backdraft", "coreon"));
    mst_turn("p1", "cor-stoke-the-forge", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    ok(MANA("p1", "cor-searing-brand", "coreon"));
    mst_turn("p1", "cor-kindle-fury", "cor-ember-sovereign");
    ok(GROW("p1", 0, "cor-ember-drake", COR(2)));
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-meltdown");
    illegal(GROW("p1", 0, "cor-ember-sovereign", COR(3)), "master:evolve.cost"); /* 3 Coreon and 1 of any class */
    ok(GROW("p1", 0, "cor-ember-sovereign", COR(4)) ",\"targets\":[]");
    cr_assert_eq(st.side[0].zone[0].depth, 3);
    cr_assert(st.side[0].zone[0].prime_entered);
    cr_assert_eq(st.side[0].select_due, 1, "its entry effect: select 1");
    ok(PICK("p1", "[\"cor-meltdown\"]"));
    illegal_says(STRIKE("p1", 0, 1, AT2(0), FREE), "a Prime Evolution that entered this turn",
                 "master:prime.no_attack");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-ember-drake");
    illegal(GROW("p1", 0, "cor-ember-drake", COR(2)), "master:evolve.next_stage"); /* nothing follows */
    illegal(STRIKE("p1", 0, 3, AT2(0), COR(1)), "master:M7"); /* Sovereign Dominion chooses no monster */
    ok(STRIKE("p1", 0, 3, P2, COR(1)));                       /* mana_remove 1 from the opponent, DEF +500 to itself */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert_eq(def_at(0, 0), 4000);
    cr_assert_eq(st.side[1].mana_remove_due, 1);
    illegal("\"type\":\"end\",\"by\":\"p1\"", "master:mana.remove");
    ok(REMOVE("p2", "obs-shadow-step"));
    cr_assert(st.side[1].zone[0].present, "the Kitten is untouched");
}

/* ---- Prime Singulars (A4, A27, M4) -------------------------------------------------------- */

#define COREHART "cor-corehart-the-molten-crown"

/* Player 1 with Corehart in hand and three Coreon mana (mana_rate 2):
 * Ember Whelp on the field, Stoke the Forge, Cinder Hound and Forge Golem
 * in hand. */
static void corehart_turn(void)
{
    cr_assert_eq(mst_start("open", "\"mana_rate\":2").status, OL_V_OK);
    mst_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-forge-golem\",\"" COREHART "\",\"cor-kindle-fury\","
                  "\"cor-backdraft\",\"cor-searing-brand\"]",
                  P2_OPEN);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    mst_turn("p1", "cor-searing-brand", "cor-stoke-the-forge");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "cor-kindle-fury", "cor-magma-tortoise");
}

/* singular.condition: two monsters besides the one it replaces, and its
 * printed condition (class_mana_min 4: mana ready or spent, M3);
 * singular.entry: a zone, and a Prime Singular; singular.cost. */
Test(master, master_singular_condition_entry_and_cost)
{
    corehart_turn();
    ok(CAST("p1", "cor-stoke-the-forge", "[]", COR(1)));
    ok(SILENT("p2"));
    illegal_says(SINGULAR("p1", COREHART, 1, "[]", COR(4)), "controlling 1 other monster; it needs at least 2.",
                 "master:singular.condition");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal_says(SINGULAR("p1", COREHART, 0, "[]", COR(4)), "1 other monster", "master:singular.condition");
    illegal_says(SINGULAR("p1", COREHART, 2, "[]", COR(2)), "without meeting its printed condition (class_mana_min 4)",
                 "master:singular.condition");
    ok(MANA("p1", "cor-magma-tortoise", "coreon")); /* Stoke the Forge's placement: 4 Coreon, 1 spent */
    illegal_says(SINGULAR("p1", COREHART, 2, "[]", COR(4)),
                 "paid 4 Coreon for Corehart, the Molten Crown (4 Coreon), but had 3 Coreon ready.",
                 "master:singular.cost");
    illegal(SINGULAR("p1", COREHART, 2, "[]", COR(3)), "master:singular.cost");
    illegal_says("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"" COREHART "\",\"targets\":[],\"pay\":" COR(4),
                 "without naming one of their 7 Monster Zones", "master:singular.entry");
    illegal_says(SINGULAR("p1", "cor-forge-golem", 2, "[]", FREE),
                 "played Forge Golem as a Prime Singular, but it is a Monster.", "master:singular.entry");
}

/* A4: played in the Summon Phase, not as the Normal Summon, paying its cost;
 * the replaced stack goes to the Graveyard and is no defeat; it enters in
 * Attack Position, its effect applies at once, and it may attack (A3). */
Test(master, master_A4_prime_singular_pays_and_needs_two_others)
{
    corehart_turn();
    summon("p1", 1, "cor-cinder-hound", "ap");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    ok(MANA("p1", "cor-stoke-the-forge", "coreon"));
    mst_turn("p1", "cor-magma-tortoise", "cor-meltdown"); /* 5 Coreon */
    summon("p1", 2, "cor-forge-golem", "ap");
    ok(SINGULAR("p1", COREHART, 0, "[]", COR(4))); /* replaces the Whelp: Hound and Golem are the two others */
    const duel_monster *m = &st.side[0].zone[0];
    cr_assert_eq(m->stack[0]->kind, CARD_PRIME_SINGULAR);
    cr_assert_eq(m->depth, 1);
    cr_assert_eq(m->pos, OL_POS_AP);
    cr_assert(in_grave(0, "cor-ember-whelp"));
    cr_assert_eq(st.side[0].lost, 0, "A15: a replaced monster is not defeated");
    cr_assert_eq(st.side[0].lp, 9000, "its entry effect: 1000 LP");
    cr_assert_eq(ready(0, CLASS_COREON), 1);
    cr_assert_eq(st.window, DUEL_WIN_NONE, "A2: a Prime Singular opens no window");
    ok(STRIKE("p1", 0, 2, AT2(0), COR(1))); /* Corehart Pulse, 1500 against 1500 */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present);
}

/* A27: an effect with no candidate names no target.  (No Master Prime
 * Singular's entry effect chooses a monster: Corehart's is rewritten to
 * destroy one of the opponent's.) */
Test(master, master_A27_prime_singular_enters_with_no_monster_to_destroy)
{
    mst_rewrite_card(COREHART,
                     "\"op\": \"lp_gain\",\n            \"target\": \"controller\",\n            \"amount\": 1000",
                     "\"op\": \"destroy\", \"target\": \"opp_monster\"");
    cr_assert_eq(mst_start("open", "\"mana_rate\":2").status, OL_V_OK);
    mst_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-forge-golem\",\"" COREHART "\",\"cor-kindle-fury\","
                  "\"cor-backdraft\",\"cor-searing-brand\"]",
                  P2_OPEN);
    ok(MANA("p1", "cor-backdraft", "coreon"));
    mst_turn("p1", "cor-searing-brand", "cor-stoke-the-forge");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat"); /* p2 summons nothing */
    end_turn("p2");
    ok(MANA("p1", "cor-kindle-fury", "coreon"));
    mst_turn("p1", "cor-stoke-the-forge", "cor-magma-tortoise");
    summon("p1", 1, "cor-cinder-hound", "ap");
    illegal_says(SINGULAR("p1", COREHART, 2, "[" AT2(0) "]", COR(4)),
                 "an effect with nothing to choose from names no target", "master:A27");
    ok(SINGULAR("p1", COREHART, 2, "[]", COR(4)));
    cr_assert_eq(st.side[0].zone[2].stack[0]->kind, CARD_PRIME_SINGULAR);
}

/* A27 through the catalogue: the verdict cites a row whose quote is the
 * ruling's answer. */
Test(master, master_A27_the_verdict_cites_a_catalogued_ruling)
{
    size_t n = 0;
    const verifier_rule *rules = master_rules(&n), *row = NULL;
    cr_assert_eq(master_rules(NULL), rules, "n may be NULL");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->rules(NULL), rules);
    third_turn("obs-umbral-kitten", "ap");
    olverdict v = counter_on("p2", "obs-void-denial", 3, OBS(2)); /* no chain to name a link of */
    expect(v, OL_V_ILLEGAL, "master:A27");
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rules[i].id, v.rule))
            row = &rules[i];
    cr_assert_not_null(row, "%s is not in the catalogue", v.rule);
    cr_assert(strstr(row->quote, "but has no candidate at all is left out"), "%s", row->quote);
}

/* ---- the End Phase and the end of the game -------------------------------------------------- */

/* A12: discards in the End Phase, only down to the hand limit. */
Test(master, master_end_hand_limit)
{
    cr_assert_eq(mst_start("open", "\"hand_limit\":8,\"p2_hand\":10").status, OL_V_OK);
    mst_open_with(P1_OPEN, "[\"obs-umbral-kitten\",\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-night-terror\","
                           "\"obs-void-denial\",\"obs-hollow-mask\",\"obs-shadow-step\",\"obs-umbral-decoy\","
                           "\"obs-soul-siphon\",\"obs-curse-of-silence\"]");
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-crypt-rat");
    illegal_says("\"type\":\"end\",\"by\":\"p2\"",
                 "ended the turn with 11 cards in hand; they discard down to 8 first.", "master:end.hand_limit");
    illegal(TOSS("p1", "cor-ember-drake"), "master:turn.order");
    illegal(TOSS("p2", "obs-soul-reap"), "master:field.from_hand");
    ok(TOSS("p2", "obs-soul-siphon"));
    cr_assert_eq(st.step, DUEL_END);
    illegal(NORMAL("p2", 0, "obs-umbral-kitten", "ap"), "master:turn.order");
    ok(TOSS("p2", "obs-crypt-rat"));
    ok(TOSS("p2", "obs-curse-of-silence"));
    illegal_says(TOSS("p2", "obs-crypt-rat"), "discarded with 8 cards in hand", "master:end.hand_limit");
    cr_assert(in_grave(1, "obs-soul-siphon") && in_grave(1, "obs-curse-of-silence"));
    end_turn("p2");
    cr_assert_eq(st.turn, 0);
}

/* A6: the first player whose LP reaches 0 loses at once; nothing more
 * resolves.  (Soul Siphon is rewritten to heal its player after.) */
Test(master, master_A6_lp_zero_ends_the_game_at_once)
{
    mst_rewrite_card("obs-soul-siphon", "\"amount\": 1000",
                     "\"amount\": 1000}, {\"op\": \"lp_gain\", \"target\": \"controller\", \"amount\": 500");
    two_turns_sel("\"starting_lp\":1000", "cor-ember-drake", "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    end_turn("p1");
    mst_turn("p2", "obs-crypt-rat", "obs-soul-siphon");
    ok(CAST("p2", "obs-soul-siphon", "[]", OBS(1)));
    ok(SILENT("p1"));
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 1);
    cr_assert_eq(st.step, DUEL_OVER);
    cr_assert_eq(st.side[0].lp, 0);
    cr_assert_eq(st.side[1].lp, 1000, "the heal after the winning damage never resolved");
    illegal_says(NORMAL("p2", 1, "obs-grave-bat", "ap"), "The game is over", "master:win.immediate");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p2\"");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\""), OL_V_MISMATCH, "master:A9");
    board_has(1, 1, 1, "\"over\":true,\"winner\":\"p2\"", 1);
    board_has(0, 1, 1, "game over: p2 (dave)\n", 1);
    int winner = -1;
    cr_assert(verifier_ops_of(OL_FORMAT_MASTER)->finished(&st, &winner));
    cr_assert_eq(winner, 1);
}

/* The game ended by an event that closed a window: what follows is after the end. */
Test(master, master_win_immediate_after_the_last_window)
{
    two_turns_sel("\"starting_lp\":1000", "cor-ember-drake", "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    end_turn("p1");
    mst_turn("p2", "obs-crypt-rat", "obs-soul-siphon");
    ok(CAST("p2", "obs-soul-siphon", "[]", OBS(1)));
    illegal_says(NORMAL("p2", 1, "obs-grave-bat", "ap"), "ended when the last window resolved", "master:win.immediate");
    cr_assert_eq(st.ol.winner, 1);
}

Test(master, master_win_immediate_after_a_concession)
{
    opened(NULL);
    ok("\"type\":\"concede\",\"by\":\"p1\"");
    cr_assert_eq(st.step, DUEL_OVER);
    illegal(MANA("p1", "cor-backdraft", "coreon"), "master:win.immediate");
    illegal(REMOVE("p2", "obs-umbral-decoy"), "master:win.immediate");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"p1 conceded\"");
    opened(NULL);
    ok(GAME_LOSS("p2"));
    cr_assert_eq(st.ol.winner, 0);
    illegal(PICK("p1", "[\"cor-ember-drake\"]"), "master:win.immediate");
}

/* A9: a claim is compared, never applied. */
Test(master, master_A9_claim_with_wrong_lp_is_a_mismatch)
{
    third_turn("obs-umbral-kitten", "ap");
    olverdict v = play(CLAIM_LP(8000, 7000));
    expect(v, OL_V_MISMATCH, "master:A9");
    cr_assert_eq(st.side[1].lp, 8000, "a claim is never applied");
    ok(CLAIM_LP(8000, 8000));
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\""), OL_V_MISMATCH, "master:A9");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[" AT2(0) "]"), OL_V_MISMATCH, "master:A9");
}

/* master.md: "Shot-clock: 60 seconds per decision." */
Test(master, master_clock_shot)
{
    opened(NULL);
    cr_assert_eq(play_t(MANA("p1", "cor-backdraft", "coreon"), 1000000).status, OL_V_OK);
    cr_assert_eq(play_t(PICK("p1", "[\"cor-ember-drake\"]"), 1060000).status, OL_V_OK, "60 s exactly");
    olverdict v = play_t(NORMAL("p1", 0, "cor-ember-whelp", "ap"), 1120001);
    expect(v, OL_V_WARNING, "master:clock.shot");
    cr_assert(st.side[0].zone[0].present, "a warning is applied");
}

/* ---- the open log (openlog.md 3, 4, 6, 7) ------------------------------------------------- */

/* openlog 3: an action is announced by the player who makes it. */
Test(master, master_openlog_3_who_announces)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    illegal(PICK("table", P1_OPEN), "openlog:3");
    mst_open();
    ok(MANA("p1", "cor-backdraft", "coreon"));
    select_one("p1", "cor-ember-drake");
    illegal(MANA("table", "cor-stoke-the-forge", "coreon"), "openlog:3");
    illegal_says(NORMAL("table", 0, "cor-ember-whelp", "ap"), "The table summoned a monster", "openlog:3");
    illegal(CAST("judge", "cor-kindle-fury", "[]", COR(1)), "openlog:3");
    illegal(SWITCH("table", 0), "openlog:3");
    illegal(GROW("judge", 0, "cor-ember-drake", COR(2)), "openlog:3");
    illegal(SINGULAR("table", COREHART, 1, "[]", COR(4)), "openlog:3");
    illegal(STRIKE("judge", 0, 0, P2, COR(1)), "openlog:3");
    illegal(TOSS("table", "cor-ember-drake"), "openlog:3");
    illegal("\"type\":\"end\",\"by\":\"table\"", "openlog:3");
    illegal(ANSWER("table", "cor-backdraft", "[]", COR(1)), "openlog:3");
    illegal(SILENT("judge"), "openlog:3");
    illegal("\"type\":\"concede\",\"by\":\"table\"", "openlog:3");
    illegal("\"type\":\"judge\",\"by\":\"p1\",\"ruling\":\"note\",\"text\":\"no\"", "openlog:3");
    summon("p1", 0, "cor-ember-whelp", "ap");
}

Test(master, master_openlog_4_one_header)
{
    opened(NULL);
    char *text = duel_script_header_text("master", "open", NULL, P1_DECK, P2_DECK);
    olevent *h = NULL;
    olerror err;
    olverdict v;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &h, &err), OL_OK, "%s", err.msg);
    free(text);
    duel_apply(&st, h, &v);
    olevent_destroy(&h);
    expect(v, OL_V_ILLEGAL, "openlog:4");
}

/* openlog 6: the href's shape follows the hidden mode; an open-mode
 * selection names a card the decklist still holds; an announced reveal
 * needs an unused copy. */
Test(master, master_openlog_6_hidden_cards)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    illegal(PICK("p1", "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-forge-golem\",\"cor-searing-brand\","
                       "\"cor-kindle-fury\",\"cor-backdraft\",\"obs-crypt-rat\"]"),
            "openlog:6");
    illegal(PICK("p1", "[\"cor-ember-sovereign\",\"cor-ember-sovereign\",\"cor-forge-golem\",\"cor-searing-brand\","
                       "\"cor-kindle-fury\",\"cor-backdraft\",\"cor-stoke-the-forge\"]"),
            "openlog:6");                                                     /* one copy in the deck */
    illegal(PICK("p1", "[null,null,null,null,null,null,null]"), "openlog:6"); /* nulls in open mode */
    mst_open();
    illegal(MANA_AS("p1", "null", "coreon"), "openlog:6");
    cr_assert_eq(mst_start("announced", NULL).status, OL_V_OK);
    mst_open_with("[null,null,null,null,null,null,null]", "[null,null,null,null,null,null,null,null]");
    ok(MANA_AS("p1", "null", "coreon"));
    ok(PICK("p1", "[null]"));
    illegal_says(NORMAL("p1", 0, "flx-tide-sprite", "ap"), "not in", "openlog:6"); /* not in carol's decklist */
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    illegal(PICK("p2", "[\"obs-crypt-rat\"]"), "openlog:6"); /* an id in announced mode */
}

/* The lines of a match of `format` between the two decks, judged through
 * the verifier as the daemon judges: each ok, or illegal citing openlog:7. */
static void through_verifier(const char *format, const char *p1deck, const char *p2deck, const char *const lines[],
                             const ol_status want[], int n)
{
    char *text = duel_script_header_text(format, "open", NULL, p1deck, p2deck);
    verifier *vf = NULL;
    olevent *ev = NULL;
    olerror err;
    olverdict v;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    free(text);
    cr_assert_eq(verifier_new(db, ev, &vf, &v), VERIFIER_OK);
    olevent_destroy(&ev);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(olcodec_decode_json(lines[i], strlen(lines[i]), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s",
                     err.msg);
        verifier_apply(vf, ev, &v);
        olevent_destroy(&ev);
        if (want[i] == OL_V_OK)
            cr_assert_eq(v.status, OL_V_OK, "%s: %s", lines[i], v.msg);
        else
            expect(v, OL_V_ILLEGAL, "openlog:7");
    }
    verifier_destroy(&vf);
}

/* openlog 7 (SPEC.md 7.4): Snap's events and Snap's slot "a" are no Master
 * actions, and Master's mana events no Advanced ones; a target list fits
 * the card's effects. */
Test(master, master_openlog_7_other_formats_events_and_targets)
{
    static const char *const lines[] = {
        "{\"match\":\"t\",\"seq\":1,\"type\":\"select\",\"by\":\"p1\",\"cards\":" P1_OPEN "}",
        "{\"match\":\"t\",\"seq\":2,\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\"}",
        "{\"match\":\"t\",\"seq\":3,\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-backdraft\"]}",
        "{\"match\":\"t\",\"seq\":4,\"type\":\"select\",\"by\":\"p2\",\"cards\":" P2_OPEN "}",
        "{\"match\":\"t\",\"seq\":5,\"type\":\"mana\",\"by\":\"p1\",\"card\":\"cor-backdraft\",\"class\":\"coreon\"}",
        "{\"match\":\"t\",\"seq\":6,\"type\":\"mana_remove\",\"by\":\"p1\",\"card\":\"cor-backdraft\"}",
    };
    static const ol_status want[] = {OL_V_OK, OL_V_ILLEGAL, OL_V_ILLEGAL, OL_V_OK, OL_V_OK},
                           advanced[] = {OL_V_ILLEGAL, OL_V_ILLEGAL};
    opened(NULL); /* loads the card database */
    through_verifier("master", P1_DECK, P2_DECK, lines, want, 5);
    through_verifier("advanced", "fixtures/decks/advanced/legal-coreon-ember.json",
                     "fixtures/decks/advanced/legal-obscura-night.json", lines + 4, advanced, 2);
    third_turn("obs-umbral-kitten", "ap");
    illegal_says("\"type\":\"summon\",\"kind\":\"normal\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-cinder-hound\","
                 "\"position\":\"ap\"",
                 "Master Monster Zones are numbered from 0", "openlog:7");
    illegal_says(CAST("p1", "cor-searing-brand", "[]", COR(1)), "names 0 targets; its effects choose 1", "openlog:7");
    illegal_says(CAST("p1", "cor-searing-brand", "[" P2 "]", COR(1)), "must target an opponent's monster", "openlog:7");
    illegal(CAST("p1", "cor-searing-brand", "[" AT1(0) "]", COR(1)), "openlog:7");
    illegal(STRIKE("p1", 0, 0, "{\"p\":\"p2\",\"s\":\"a\"}", COR(1)), "openlog:7");
}

Test(master, master_openlog_cards_unknown_card)
{
    opened(NULL);
    illegal(MANA("p1", "cor-no-such-card", "coreon"), "openlog:cards");
    ok(MANA("p1", "cor-backdraft", "coreon"));
    select_one("p1", "cor-ember-drake");
    illegal(NORMAL("p1", 0, "cor-no-such-card", "ap"), "openlog:cards");
}

/* openlog commit: a reveal opens one of the hand's commitments. */
Test(master, master_openlog_commit_reveal_must_open_a_commitment)
{
    static const char *const p1[7] = {"cor-ember-whelp", "cor-cinder-hound", "cor-forge-golem",    "cor-searing-brand",
                                      "cor-kindle-fury", "cor-backdraft",    "cor-stoke-the-forge"};
    cr_assert_eq(mst_start("commit", NULL).status, OL_V_OK);
    select_committed("p1", p1, 7, NONCE);
    select_committed("p2",
                     (const char *const[]){"obs-umbral-kitten", "obs-crypt-rat", "obs-grave-bat", "obs-night-terror",
                                           "obs-void-denial", "obs-hollow-mask", "obs-shadow-step", "obs-umbral-decoy"},
                     8, NONCE);
    select_one_committed("p1", "cor-ember-drake");
    illegal(NORMAL("p1", 0, "cor-ember-whelp", "ap") ",\"nonce\":\"ffeeddccbbaa99887766554433221100\"",
            "openlog:commit");
    illegal(NORMAL("p1", 0, "cor-ember-whelp", "ap"), "openlog:commit"); /* no nonce */
    ok(NORMAL("p1", 0, "cor-ember-whelp", "ap") WITH_NONCE);
    board_has(1, 0, 1, "\"hand\":{\"count\":7,\"cards\":[null,null,null,null,null,null,null]}", 1);
    board_has(1, 1, 0, "\"committed\"", 1);
    board_has(0, 1, 1, "  hand       7 cards: 7 committed, not yet revealed\n", 1);
}

/* ---- the board: who sees what (openlog.md 9) ------------------------------------------------- */

/* The public view never shows a hand card or a face-down mana card; the
 * mana's classes are public; a player sees their own, the judge both. */
Test(master, master_board_public_view_hides_hand_and_mana)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    static const int sights[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    for (int i = 0; i < 4; i++) {
        int me = sights[i][0], them = sights[i][1];
        for (int json = 0; json < 2; json++) {
            char *b = duel_script_board(json, me, them);
            HAS(b, json ? "\"card\":\"cor-ember-whelp\"" : "Ember Whelp  AP"); /* on the field: public */
            if (json) {
                HAS(b, "\"mana\":{\"cards\":[{\"class\":\"coreon\",\"card\":");
                cr_assert(!strstr(b, "cor-backdraft") == !me, "p1's mana card, sight %d%d:\n%s", me, them, b);
                cr_assert(!strstr(b, "cor-ember-drake") == !me, "p1's hand, sight %d%d:\n%s", me, them, b);
                cr_assert(!strstr(b, "obs-umbral-kitten") == !them, "p2's hand, sight %d%d:\n%s", me, them, b);
            } else {
                HAS(b, "  mana       1 card: 1 Coreon (1 ready); face-down");
                cr_assert(!strstr(b, "Backdraft") == !me, "p1's mana card, sight %d%d:\n%s", me, them, b);
                cr_assert(!strstr(b, "Ember Drake") == !me, "p1's hand, sight %d%d:\n%s", me, them, b);
                cr_assert(!strstr(b, "Umbral Kitten") == !them, "p2's hand, sight %d%d:\n%s", me, them, b);
            }
            free(b);
        }
    }
    board_has(1, 0, 0, "\"hand\":{\"count\":6,\"cards\":[null,null,null,null,null,null]}", 1);
    board_has(0, 0, 0, "  mana       1 card: 1 Coreon (1 ready); face-down\n", 1);
    board_has(0, 1, 0, "  mana       1 card: 1 Coreon (1 ready); face-down: Backdraft\n", 1);
    board_has(1, 1, 1, "\"mana\":{\"cards\":[],\"ready\":{\"coreon\":0", 1); /* p2's empty zone */
    board_has(0, 1, 1, "  mana       0 cards\n", 1);
    board_has(1, 1, 1, "\"step\":\"summon\"", 1);
    board_has(0, 1, 1, "round 1, p1 (carol) to play, Summon Phase\n", 1);
}

/* The board gives each monster its DEF and its attacks, with their costs
 * and whether each could be declared now. */
Test(master, master_board_monsters_def_and_attacks)
{
    two_turns("obs-umbral-kitten", "ap");
    board_has(
        1, 1, 1,
        "\"attacks\":[{\"name\":\"Kitten Strike\",\"cost\":{\"obscura\":1},\"usable\":true},{\"name\":\"Spark Kitten\","
        "\"cost\":{\"obscura\":1,\"any\":1},\"usable\":false}]",
        1);
    board_has(1, 1, 1, "{\"name\":\"Whelp Strike\",\"cost\":{\"coreon\":1},\"usable\":false}", 1);
    board_has(0, 1, 1,
              "Umbral Kitten  AP  DEF 1500  attacks: 0. Kitten Strike (1 Obscura) usable; 1. Spark Kitten "
              "(1 Obscura + 1 any)\n",
              1);
    board_has(0, 1, 1, "  mana       1 card: 1 Obscura (1 ready); face-down: Shadow Step\n", 1);
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    board_has(1, 1, 1, "{\"name\":\"Kitten Strike\",\"cost\":{\"obscura\":1},\"usable\":false}", 1);
    board_has(0, 1, 1, "(this turn: attacked)", 1);
}

/* ---- conditions, fizzles, attacks whose monsters are gone (M3, M7, A16, A17) --------------------- */

/* M3: class_mana_min counts the Mana Zone's cards of the card's class,
 * ready or spent; the attack's cost is paid besides. */
Test(master, master_attack_condition_class_mana_min)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-cinder-warg");
    summon("p1", 0, "cor-cinder-hound", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, "obs-crypt-rat", "ap");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    ok(GROW("p1", 0, "cor-cinder-warg", COR(2)));
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-meltdown"); /* still 2 Coreon */
    illegal_says(STRIKE("p1", 0, 2, AT2(0), COR(3)),
                 "declared Warg Frenzy without meeting its condition (class_mana_min 3).", "master:attack.condition");
    board_has(1, 1, 1, "{\"name\":\"Warg Frenzy\",\"cost\":{\"coreon\":3},\"usable\":false}", 1);
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", "cor-kindle-fury", "cor-eruption"); /* 3 Coreon */
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(ready(0, CLASS_COREON), 2);
    illegal_says(STRIKE("p1", 0, 2, AT2(0), COR(3)), "but had 2 Coreon ready", "master:attack.cost");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-eruption");
    board_has(1, 1, 1, "{\"name\":\"Warg Frenzy\",\"cost\":{\"coreon\":3},\"usable\":true}", 1);
    ok(STRIKE("p1", 0, 2, AT2(0), COR(3))); /* 2200 against 1800 - 1200 */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present);
}

/* M7: a once_per_game attack is once per game for that card's attack of
 * that index, whatever monster of the player declares it again.  (No core
 * card has two copies of such an attack: Ember Whelp's two attacks and Magma
 * Tortoise's are rewritten to be once per game.) */
Test(master, master_attack_condition_once_per_game)
{
    static const char *const attacks[][2] = {
        {"cor-ember-whelp", "Whelp Strike"}, {"cor-ember-whelp", "Spark Whelp"}, {"cor-magma-tortoise", "Tortoise Blow"}};
    for (int i = 0; i < 3; i++) {
        char from[64], to[128];
        snprintf(from, sizeof from, "\"name\": \"%s\",", attacks[i][1]);
        snprintf(to, sizeof to, "\"name\": \"%s\", \"condition\": {\"kind\": \"once_per_game\"},", attacks[i][1]);
        mst_rewrite_card(attacks[i][0], from, to);
    }
    rich_turn("cor-ember-whelp", "obs-crypt-rat");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(MANA_SUMMON("p1", 1, "cor-ember-whelp", "ap", COR(1)));
    board_has(1, 1, 1, "{\"name\":\"Whelp Strike\",\"cost\":{\"coreon\":1},\"usable\":true}", 1);
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1)));   /* 600 against 300 */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present);
    board_has(1, 1, 1, "{\"name\":\"Whelp Strike\",\"cost\":{\"coreon\":1},\"usable\":true}", 0);
    /* the second Whelp's Spark Whelp is not declared yet, but 1 Coreon is ready of 2 */
    board_has(1, 1, 1, "{\"name\":\"Spark Whelp\",\"cost\":{\"coreon\":1,\"any\":1},\"usable\":false}", 1);
    illegal_says(STRIKE("p1", 1, 0, P2, COR(1)), "which is usable once per game and was declared before",
                 "master:attack.condition");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    summon("p2", 0, "obs-crypt-rat", "ap");
    end_turn("p2");
    mst_turn("p1", NULL, "cor-meltdown");
    summon("p1", 2, "cor-magma-tortoise", "ap");
    board_has(1, 1, 1, "{\"name\":\"Tortoise Blow\",\"cost\":{\"coreon\":1},\"usable\":true}", 1);
    ok(STRIKE("p1", 1, 1, AT2(0), COR(2)));   /* Spark Whelp, declared once */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    illegal(STRIKE("p1", 0, 1, AT2(0), COR(2)), "master:attack.condition");   /* by the other Whelp */
    illegal(STRIKE("p1", 0, 0, AT2(0), COR(1)), "master:attack.condition");
    ok(STRIKE("p1", 2, 0, AT2(0), COR(1)));
}

/* A16: a fizzled attack resolves none of its effects; its cost stays paid. */
Test(master, master_A16_fizzled_attack_does_nothing)
{
    rich_turn("cor-ember-drake", "obs-dark-mirror");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    ok(STRIKE("p1", 0, 0, AT2(0), COR(1))); /* 600 against 300 */
    ok(ANSWER("p2", "obs-dark-mirror", "[]", OBS(2)));
    ok(SILENT("p1"));
    cr_assert_eq(st.window, DUEL_WIN_ATTACK, "p2 has not passed since its Counter");
    ok(SILENT("p2"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert(st.side[1].zone[0].present, "the fizzled attack destroyed nothing");
    cr_assert_eq(ready(0, CLASS_COREON), 2, "its cost stays paid");
    cr_assert(in_grave(1, "obs-dark-mirror"));
    illegal(STRIKE("p1", 0, 1, AT2(0), COR(2)), "master:attack.once");
}

/* A17: an attack whose target monster is gone resolves none of its effects
 * -- not even those that do not act on the target.  (No core Counter
 * destroys the defender: Dark Mirror is rewritten to.) */
Test(master, master_A17_target_destroyed_by_a_counter)
{
    mst_rewrite_effect("obs-dark-mirror", "fizzle", "none", "\"op\": \"destroy\", \"target\": \"defender\"");
    rich_turn("cor-pyre-acolyte", "obs-dark-mirror");
    ok(MANA_SUMMON("p1", 1, "cor-pyre-acolyte", "ap", COR(2)));
    ok(STRIKE("p1", 1, 1, AT2(0), COR(2))); /* Acolyte Drain: 400 damage, then 400 LP to p1 */
    ok(ANSWER("p2", "obs-dark-mirror", "[]", OBS(2)));
    ok(SILENT("p1"));
    ok(SILENT("p2"));
    cr_assert(!st.side[1].zone[0].present);
    cr_assert_eq(st.side[1].lost, 1, "destroyed by the Counter");
    cr_assert_eq(st.side[0].lp, 8000, "the attack resolved nothing: no 400 LP");
    cr_assert(!st.attack_on);
}

/* A17: an attacker destroyed by a Counter deals nothing. */
Test(master, master_A17_attacker_destroyed_by_a_counter)
{
    mst_rewrite_card("obs-umbral-kitten", "\"amount\": 600", "\"amount\": 1200"); /* enough for the Whelp */
    rich_turn("cor-smolder-trap", "obs-crypt-rat");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    board_has(1, 1, 1, "\"attack\":{\"attacker\"", 1);
    ok(ANSWER("p1", "cor-smolder-trap", "[]", COR(3))); /* p1's mana, ready since p1's turn */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present, "the attacker is destroyed");
    cr_assert(st.side[0].zone[0].present, "and dealt nothing");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert_eq(st.side[0].lost, 0);
    board_has(1, 1, 1, "\"attack\":null", 1);
}

/* A17: an attacker turned to Defense Position deals nothing.  (Firewall is
 * rewritten to switch a monster.) */
Test(master, master_A17_attacker_turned_to_defense_by_a_counter)
{
    mst_rewrite_effect("cor-firewall", "fizzle", "none", "\"op\": \"position\", \"target\": \"opp_monster\"");
    mst_rewrite_card("obs-umbral-kitten", "\"amount\": 600", "\"amount\": 1200");
    rich_turn("cor-firewall", "obs-crypt-rat");
    end_turn("p1");
    mst_turn("p2", NULL, "obs-soul-siphon");
    ok(STRIKE("p2", 0, 0, AT1(0), OBS(1)));
    ok(ANSWER("p1", "cor-firewall", "[" AT2(0) "]", COR(2)));
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_DP);
    cr_assert(st.side[0].zone[0].present, "the attack resolved nothing");
    cr_assert(!st.side[1].zone[0].switched, "an effect's switch is not the Position Step's");
}

/* ---- what the engine computes, through its interface -------------------------------------- */

/* master_attack_usable: the turn's Attack Phase still to come, the monster
 * free to attack, the condition met, the cost payable from ready mana. */
Test(master, master_attack_usable_says_which_attacks_can_be_declared)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    cr_assert(!master_attack_usable(&st, 0, 0, 0), "no monster");
    mst_open();
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    cr_assert(!master_attack_usable(&st, 0, 0, 0), "Player 1's first turn");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    cr_assert(!master_attack_usable(&st, 0, 0, 0), "not p1's turn");
    cr_assert(master_attack_usable(&st, 1, 0, 0));
    cr_assert(!master_attack_usable(&st, 1, 0, 1), "Spark Kitten: 1 Obscura and 1 of any class, 1 ready");
    cr_assert(!master_attack_usable(&st, 1, 0, 2), "Umbral Kitten has two attacks");
    end_turn("p2");
    mst_turn("p1", "cor-stoke-the-forge", "cor-meltdown");
    cr_assert(master_attack_usable(&st, 0, 0, 1), "Spark Whelp: 2 Coreon ready");
    ok(CAST("p1", "cor-kindle-fury", "[" AT1(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert(!master_attack_usable(&st, 0, 0, 1), "1 Coreon ready, 2 owed");
    cr_assert(master_attack_usable(&st, 0, 0, 0));
    summon("p1", 1, "cor-cinder-hound", "ap");
    ok(SWITCH("p1", 1));
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "in Defense Position, switched");
    /* each flag alone (set, not played) */
    duel_monster *m = &st.side[0].zone[1];
    m->pos = OL_POS_AP;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "switched");
    m->switched = 0;
    cr_assert(master_attack_usable(&st, 0, 1, 0), "Hound Dash: 1 Coreon ready");
    m->evolved = 1;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "evolved");
    m->evolved = 0;
    m->prime_entered = 1;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "a Prime Evolution that entered");
    m->prime_entered = 0;
    m->attacked = 1;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "attacked");
    m->attacked = 0;
    st.side[0].spent[CLASS_COREON] = 2;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "no mana ready");
    st.side[0].spent[CLASS_COREON] = 1;
    st.step = DUEL_END;
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "the Attack Phase has passed");
    st.step = DUEL_ATTACK;
    cr_assert(master_attack_usable(&st, 0, 1, 0));
    ok("\"type\":\"concede\",\"by\":\"p2\"");
    cr_assert(!master_attack_usable(&st, 0, 1, 0), "the game is over");
}

/* The invariants duel_check_invariants() holds after every event of this
 * suite -- each one can fail. */
Test(master, master_invariants_catch_a_broken_state)
{
    third_turn("obs-umbral-kitten", "ap");
    cr_assert_eq(duel_check_invariants(&st), 0);
    duel_state saved = st;
    st.side[1].lp = 0;
    cr_assert_eq(duel_check_invariants(&st), 1, "0 LP in a game still going on");
    st = saved;
    st.side[1].lp = -1;
    cr_assert_eq(duel_check_invariants(&st), 1);
    st = saved;
    st.zones = 0;
    cr_assert_eq(duel_check_invariants(&st), 3, "a monster outside the match's zones");
    st = saved;
    st.side[1].zone[0].depth = 4;
    cr_assert_eq(duel_check_invariants(&st), 3, "a stack of four cards");
    st.side[1].zone[0].depth = 0;
    cr_assert_eq(duel_check_invariants(&st), 3, "a monster of no card");
    st = saved;
    st.chain_count[1] = 4;
    cr_assert_eq(duel_check_invariants(&st), 4, "more Counters than the cap");
    st = saved;
    st.side[0].spent[CLASS_COREON] = 3;
    cr_assert_eq(duel_check_invariants(&st), 5, "more mana spent than the zone holds");
    st = saved;
    st.side[0].spent[CLASS_OBSCURA] = 1;
    cr_assert_eq(duel_check_invariants(&st), 5);
    st = saved;
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    cr_assert_eq(duel_check_invariants(&st), 0);
    saved = st;
    st.side[1].zone[0].def_kept = 0;
    cr_assert_eq(duel_check_invariants(&st), 6, "a DEF change no Ongoing Spell keeps");
    st = saved;
    st.side[1].zone[0].present = 0;
    st.side[1].zone[0].def_kept = 0;
    cr_assert_eq(duel_check_invariants(&st), 6, "an Ongoing Spell whose monster left the field");
    st = saved;
}

/* verifier.h through the Master engine's ops: the round, the end, the
 * unverified cards, the boards and the canonical encoding. */
Test(master, master_verifier_ops_round_encoding_and_example_log)
{
    cr_assert_eq(mst_start("announced", NULL).status, OL_V_OK);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 0);
    cr_assert_str_eq(verifier_ops_of(OL_FORMAT_MASTER)->engine, "master/1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->state_size, sizeof(duel_state));
    cr_assert(verifier_ops_of(OL_FORMAT_MASTER)->has_type(OL_MANA) && verifier_ops_of(OL_FORMAT_MASTER)->has_type(OL_MANA_REMOVE));
    cr_assert(!verifier_ops_of(OL_FORMAT_MASTER)->has_type(OL_FLIP));
    mst_open_with("[null,null,null,null,null,null,null]", "[null,null,null,null,null,null,null,null]");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 1);
    ok(MANA_AS("p1", "null", "coreon"));
    unsigned out[2];
    verifier_ops_of(OL_FORMAT_MASTER)->unverified(&st, out);
    cr_assert(out[0] == 7 && out[1] == 8, "six hand cards and one mana card, eight hand cards");
    jtext a = {0}, b = {0};
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->encode(&st, &a), 0);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->board_json(&st, &(openlog_sight){{1, 1}}, &b), 0);
    cr_assert_str_eq(a.buf, b.buf, "the encoding is the board at full sight");
    free(a.buf);
    free(b.buf);
    jtext w = {0};
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->board_words(&st, &(openlog_sight){{0, 0}}, &w), 0);
    cr_assert(strstr(w.buf, "face-down: 1 unknown") == NULL, "%s", w.buf); /* hidden from the public */
    free(w.buf);

    /* the legal example game of SPEC.md 7.5 */
    FILE *f = fopen(SRC("fixtures/logs/master-open-every-event.jsonl"), "r");
    char line[16384];
    verifier *vf = NULL;
    olevent *ev = NULL;
    olerror err;
    olverdict v;
    int winner = -1, n = 0;
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        cr_assert_eq(olcodec_decode_json(line, strlen(line), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
        if (!vf) {
            cr_assert_eq(verifier_new(db, ev, &vf, &v), VERIFIER_OK);
        } else {
            verifier_apply(vf, ev, &v);
            cr_assert(v.status == OL_V_OK, "seq %llu: %s %s", (unsigned long long)v.seq, v.rule, v.msg);
        }
        cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
        olevent_destroy(&ev);
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 25);
    verifier_log_ended(vf);
    cr_assert(verifier_finished(vf, &winner));
    cr_assert_eq(winner, 0, "p2 conceded");
    cr_assert_eq(verifier_round(vf), 2);
    verifier_destroy(&vf);
}

/* rules.c keeps each ruling's answer verbatim (RULINGS.md): every M and A
 * row's quote is the **Answer.** paragraph of its ruling, lines joined. */
Test(master, master_rules_quote_each_ruling_verbatim)
{
    FILE *f = fopen(SRC("verifiers/master/RULINGS.md"), "r");
    static char text[65536];
    cr_assert_not_null(f);
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    size_t n = 0;
    const verifier_rule *rules = master_rules(&n);
    int rulings = 0;
    for (size_t i = 0; i < n; i++) {
        const char *id = rules[i].id + strlen("master:");
        if ((id[0] != 'A' && id[0] != 'M') || !strchr("0123456789", id[1]))
            continue;
        rulings++;
        /* the heading "### A15, A16, A17. ..." or "### M1. ..." that names it */
        char name[16];
        const char *h = text;
        snprintf(name, sizeof name, "%s", id);
        for (;;) {
            h = strstr(h, "\n### ");
            cr_assert_not_null(h, "no heading names %s", id);
            h += 5;
            const char *dot = strstr(h, ". "), *at = strstr(h, name);
            if (at && at < dot && !strchr("0123456789", at[strlen(name)]))
                break;
        }
        const char *ans = strstr(h, "**Answer.** ");
        cr_assert_not_null(ans);
        ans += strlen("**Answer.** ");
        char joined[2048];
        size_t k = 0;
        for (const char *c = ans; *c && !(c[0] == '\n' && c[1] == '*') && k + 1 < sizeof joined; c++)
            joined[k++] = *c == '\n' ? ' ' : *c;
        joined[k] = 0;
        cr_assert_str_eq(rules[i].quote, joined, "%s: the catalogue's quote is not the ruling's answer", rules[i].id);
    }
    cr_assert_eq(rulings, 31, "the 18 A rulings Master has and M1-M13");
}

/* ---- more of the Mana Zone ---------------------------------------------------------------------- */

/* M1: the card placed comes from the hand -- none in announced mode when
 * the hand is empty. */
Test(master, master_field_from_hand_an_empty_hand_places_no_mana)
{
    cr_assert_eq(mst_start("announced", "\"p1_hand\":1,\"mana_rate\":2").status, OL_V_OK);
    mst_open_with("[null]", "[null,null,null,null,null,null,null,null]");
    ok(MANA_AS("p1", "null", "coreon"));
    cr_assert_eq(st.side[0].n_hand, 0);
    illegal_says(MANA_AS("p1", "null", "coreon"), "placed as mana a card that is not in their hand.",
                 "master:field.from_hand");
}

/* M10: an effect that removes two takes two, each before anything else. */
Test(master, master_M10_mana_remove_of_two)
{
    mst_rewrite_card("cor-crucible-rite", "\"amount\": 1", "\"amount\": 2");
    rich_turn("cor-crucible-rite", "obs-crypt-rat");
    ok(CAST("p1", "cor-crucible-rite", "[]", COR(2)));
    ok(SILENT("p2"));
    cr_assert_eq(st.side[1].mana_remove_due, 2);
    board_has(0, 1, 1, "  pending    send 2 mana cards to the Graveyard\n", 1);
    illegal_says(NORMAL("p1", 1, "cor-magma-tortoise", "ap"), "must first send the 2 mana cards",
                 "master:mana.remove");
    ok(REMOVE("p2", "obs-shadow-step"));
    illegal(NORMAL("p1", 1, "cor-magma-tortoise", "ap"), "master:mana.remove");
    ok(REMOVE("p2", "obs-umbral-decoy"));
    cr_assert_eq(st.side[1].n_mana, 0);
    summon("p1", 1, "cor-magma-tortoise", "ap");
}

/* M9: mana_add of two allows two placements. */
Test(master, master_M9_mana_add_adds_up)
{
    mst_rewrite_card("cor-stoke-the-forge", "\"amount\": 1", "\"amount\": 2");
    third_turn_sel("obs-umbral-kitten", "ap", "cor-stoke-the-forge");
    ok(CAST("p1", "cor-stoke-the-forge", "[]", COR(1)));
    ok(SILENT("p2"));
    board_has(0, 1, 1, "  may        place 2 more cards as mana this turn\n", 1);
    ok(MANA("p1", "cor-forge-golem", "coreon"));
    ok(MANA("p1", "cor-ember-drake", "coreon"));
    illegal(MANA("p1", "cor-cinder-hound", "coreon"), "master:turn.order");
    cr_assert_eq(ready(0, CLASS_COREON), 3);
}

/* The board says what an attack costs: nothing, or by class and any.
 * (Ember Whelp's attacks are rewritten to cost nothing, and a Coreon and a
 * Fluxion.) */
Test(master, master_board_attack_costs_in_words)
{
    mst_rewrite_card("cor-ember-whelp", "\"name\": \"Whelp Strike\",\n            \"cost\": {\n              \"coreon\": 1\n            }",
                     "\"name\": \"Whelp Strike\", \"cost\": {}");
    mst_rewrite_card("cor-ember-whelp", "\"coreon\": 1,\n              \"any\": 1", "\"coreon\": 1, \"fluxion\": 1");
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "flx-undertow");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    mst_turn("p1", "flx-undertow", "cor-meltdown");
    board_has(0, 1, 1, "0. Whelp Strike (free) usable; 1. Spark Whelp (1 Coreon + 1 Fluxion) usable\n", 1);
    board_has(1, 1, 1, "{\"name\":\"Whelp Strike\",\"cost\":{},\"usable\":true}", 1);
    board_has(1, 1, 1, "\"cost\":{\"coreon\":1,\"fluxion\":1}", 1);
    illegal_says(STRIKE("p1", 0, 1, AT2(0), FREE), "paid nothing for Spark Whelp, which costs 1 Coreon and 1 Fluxion.",
                 "master:attack.cost");
    illegal_says(STRIKE("p1", 0, 1, AT2(0), COR(2)), "each class of a cost is paid with mana of that class",
                 "master:attack.cost");
    illegal_says(STRIKE("p1", 0, 0, AT2(0), COR(1)), "paid 1 Coreon for Whelp Strike, which costs nothing; a cost is paid "
                 "exactly, no more.", "master:attack.cost");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"slot\":0,\"attack\":0,\"target\":" AT2(0));   /* no pay: free */
}

/* SPEC.md 7.4: a Mana Summon is Master's; in an Advanced match it is no action. */
Test(master, master_summon_mana_is_no_advanced_action)
{
    cr_assert_eq(duel_script_start("advanced", "open", NULL, "fixtures/decks/advanced/legal-coreon-ember.json",
                                   "fixtures/decks/advanced/legal-obscura-night.json")
                     .status,
                 OL_V_OK);
    duel_script_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-kindle-fury\",\"cor-ember-drake\","
                          "\"cor-firewall\"]",
                          "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-umbral-decoy\",\"obs-night-terror\","
                          "\"obs-soul-siphon\",\"obs-veil-assassin\"]");
    illegal_says(MANA_SUMMON("p1", 0, "cor-ember-whelp", "ap", COR(1)), "which is a Master action", "openlog:7");
}

/* M7: an attack names one target, and each of its effects that chooses a
 * monster aims at it -- a second damage after the first destroyed it is not
 * direct.  (Hound Dash is rewritten to strike twice.) */
Test(master, master_M7_every_chosen_effect_aims_at_the_one_target)
{
    mst_rewrite_card("cor-cinder-hound", "\"amount\": 800",
                     "\"amount\": 800}, {\"op\": \"damage\", \"target\": \"opp_monster\", \"amount\": 800");
    third_turn("obs-umbral-kitten", "ap");
    ok(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)));
    ok(SILENT("p2"));
    summon("p1", 1, "cor-cinder-hound", "ap");
    ok(STRIKE("p1", 1, 0, AT2(0), COR(1))); /* 800 against 300, twice */
    ok(SILENT("p2"));
    ok(SILENT("p1"));
    cr_assert(!st.side[1].zone[0].present);
    cr_assert_eq(st.side[1].lp, 8000, "the second damage aimed at the Kitten, gone: no LP lost");
}

/* ---- TOURNAMENT.md: what the tournament module reads from this engine ------------ */

/* T9: when both players concede, the first `concede` decides the game --
 * here p2's, in p1's turn -- and the second comes after the end
 * (win.immediate, with openlog 8's sentence); it changes nothing: p1 still
 * wins. */
Test(master, tournament_T9_first_concession_decides_and_second_is_illegal)
{
    opened(NULL);
    duel_script_concede_twice(verifier_ops_of(OL_FORMAT_MASTER), "master:win.immediate");
}

/* T11: a game round is p1's turn and then p2's; the count the module reads
 * as `rounds` (verifier_round) goes up with p2's `end` only -- not with
 * p1's, and not with a claim or a ruling after p2's. */
Test(master, tournament_T11_game_round_ends_with_player_2s_end)
{
    opened(NULL);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 1, "p1's end ends no game round");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"before p2's end\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 1);
    end_turn("p2");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 2);
    ok(CLAIM_LP(8000, 8000));
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"warning\",\"player\":\"p1\",\"text\":\"Slow play.\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 2, "claims and rulings after p2's end count for nothing");
    mst_turn("p1", "cor-stoke-the-forge", "cor-magma-tortoise");
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 2);
    mst_turn("p2", NULL, "obs-soul-siphon");
    end_turn("p2");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 3);
}

/* T11: setup belongs to game round 1.  The engine shows 0 until the
 * opening hands are selected (verifier.h: "0 before setup is done"), which
 * src/tournament/tourrec.c counts as game round 1; setup ends no round, so p1's first
 * turn is round 1, not 2, up to p2's end. */
Test(master, tournament_T11_setup_is_in_game_round_1)
{
    cr_assert_eq(mst_start("open", NULL).status, OL_V_OK);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 0);
    ok(PICK("p1", P1_OPEN));
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"in setup\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 0, "setup is not done");
    ok(PICK("p2", P2_OPEN));   /* setup is done */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 1);
    mst_turn("p1", "cor-backdraft", "cor-ember-drake");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    mst_turn("p2", "obs-shadow-step", "obs-crypt-rat");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_MASTER)->round(&st), 1);
}

/* T17: a header with an illegal deck (deck.size) or naming another card
 * database (openlog:cards, src/core/verify.c) starts no game. */
Test(master, tournament_T17_illegal_header_starts_no_game)
{
    char *h = duel_script_header_text("master", "open", NULL, DECK("illegal-master_deck_size-59-cards"), P2_DECK);
    duel_script_starts_no_game(h, PICK("p1", P1_OPEN), "master:deck.size");
    free(h);
    h = duel_script_header_text("master", "open", NULL, P1_DECK, P2_DECK);
    cr_assert_eq(name_other_cards(h), 0);
    duel_script_starts_no_game(h, PICK("p1", P1_OPEN), "openlog:cards");
    free(h);
}

/* T44: an optional action after its timing cannot be made (TR 153).  p1
 * forgot Searing Brand in the Main/Spell Phase and casts it after a
 * summon: illegal (turn.order, A21), and it changes nothing.  A mandatory
 * step is owed, never missed: the Selection Step p2 passed over is still
 * theirs to take. */
Test(master, tournament_T44_late_action_makes_the_record_illegal)
{
    third_turn("obs-umbral-kitten", "ap");
    summon("p1", 1, "cor-cinder-hound", "ap");
    uint8_t hand = st.side[0].n_hand;
    int32_t def = def_at(1, 0);
    illegal(CAST("p1", "cor-searing-brand", "[" AT2(0) "]", COR(1)), "master:turn.order");
    cr_assert_eq(st.side[0].n_hand, hand, "Searing Brand stays in p1's hand");
    cr_assert_eq(def_at(1, 0), def, "Umbral Kitten's DEF is untouched");
    end_turn("p1");   /* the game goes on */
    ok(MANA("p2", "obs-umbral-decoy", "obscura"));
    illegal(NORMAL("p2", 1, "obs-grave-bat", "ap"), "master:select.per_turn");
    select_one("p2", "obs-soul-siphon");
    summon("p2", 1, "obs-grave-bat", "ap");
}
