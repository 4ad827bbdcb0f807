/* test_snap.c -- the Snap engine, rule by rule.
 *
 * Each test plays a prefix of a scripted legal game (BASE), then one event
 * that breaks a rule, and asserts the verdict's status *and* the rule it
 * cites; then, where it matters, that the game goes on from the state before
 * the illegal event (R12).  Tests are named after the section they pin.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sodium/crypto_generichash.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "src/core/carddb.h"
#include "tests/snapscript.h"
#include "tests/testutil.h"
#include "verifiers/snap/snap.h"
#include "verifiers/verifier.h"

/* illegal(), and the verdict's sentence says `says`. */
static void illegal_saying(const char *body, const char *rule, const char *says)
{
    olverdict v = play(body);
    expect(v, OL_V_ILLEGAL, rule);
    cr_assert(strstr(v.msg, says), "%s", v.msg);
}

/* BASE through p1's Round 2 flip (seq 15); then p1 evolves Forge Golem, its
 * active monster, into Forge Colossus, whose [on entry] fires (A1). */
static void colossus_game(void)
{
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
}

/* ---- the whole base game is legal --------------------------------- */

Test(snap, base_game_is_legal_through_round_4)
{
    start(NULL);
    base(BASE_N);
    cr_assert_eq(st.round, 5);
    cr_assert_eq(st.turn, 0);
    cr_assert_eq(st.side[0].n_locked, 3);
    cr_assert_eq(st.side[0].revealed, 5);
    cr_assert(!st.ol.over);
}

/* ---- 8: setup ------------------------------------------------------- */

Test(snap, snap_4_1_header_with_an_illegal_deck_starts_no_match)
{
    olverdict v = start_with("open", NULL, "{\"monsters\":[\"cor-forge-golem\"],\"supports\":[],\"reserve\":[]}");
    expect(v, OL_V_ILLEGAL, "snap:4.1");
    illegal(BASE[0], "snap:8.1");
}

/* snap 8.1: a header whose deck breaks any construction rule starts no
 * match -- each rule of Snap's deck rows (verifiers/snap/deck.c) cited at
 * the header, with the fixture deck that breaks only it
 * (fixtures/decks/snap/illegal-<rule>-*.json; p1's deck). */
static olverdict start_with_fixture_deck(const char *file)
{
    char rel[256];
    json_error_t jerr;
    snprintf(rel, sizeof rel, "fixtures/decks/snap/%s", file);
    json_t *d = json_load_file(SRC(rel), 0, &jerr);
    cr_assert_not_null(d, "%s: %s", rel, jerr.text);
    json_t *deck = json_pack("{s:O, s:O, s:O}", "monsters", json_object_get(d, "monsters"), "supports",
                             json_object_get(d, "supports"), "reserve", json_object_get(d, "reserve"));
    cr_assert_not_null(deck, "%s", rel);
    char *text = json_dumps(deck, JSON_COMPACT);
    olverdict v = start_with("open", NULL, text);
    free(text);
    json_decref(deck);
    json_decref(d);
    return v;
}

Test(snap, snap_4_header_decks_breaking_each_construction_rule_start_no_match)
{
    expect(start_with_fixture_deck("illegal-snap_4_2-spell-in-lineup.json"), OL_V_ILLEGAL, "snap:4.2");
    illegal(BASE[0], "snap:8.1");
    expect(start_with_fixture_deck("illegal-snap_4_3-monster-in-supports.json"), OL_V_ILLEGAL, "snap:4.3");
    expect(start_with_fixture_deck("illegal-snap_4_4-duplicate-spell.json"), OL_V_ILLEGAL, "snap:4.4");
    expect(start_with_fixture_deck("illegal-snap_4_5-two-prime-singulars.json"), OL_V_ILLEGAL, "snap:4.5");
    expect(start_with_fixture_deck("illegal-snap_4_6_2-spell-in-reserve.json"), OL_V_ILLEGAL, "snap:4.6.2");
    expect(start_with_fixture_deck("illegal-snap_4_6_3-foreign-evolution.json"), OL_V_ILLEGAL, "snap:4.6.3");
    expect(start_with_fixture_deck("illegal-snap_14_2-prime-singular-missing-from-reserve.json"), OL_V_ILLEGAL,
           "snap:14.2");
    illegal(BASE[0], "snap:8.1");
}

Test(snap, snap_8_3_only_lineup_monsters_start_on_the_bench)
{
    start(NULL);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"cor-kindle-fury\"]",
            "snap:8.3");
    /* a monster, but p2's: not one of p1's lineup */
    illegal_saying("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"obs-crypt-rat\"]",
                   "snap:8.3", "Crypt Rat");
    ok(BASE[0]);   /* R12: the game goes on from before the illegal bench */
}

Test(snap, snap_8_5_select_exactly_five_or_six)
{
    start(NULL);
    base(2);
    illegal("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\"]", "snap:8.5");
    ok(BASE[2]);
}

Test(snap, snap_8_nothing_before_setup_is_complete)
{
    start(NULL);
    base(3);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", "snap:8");
}

Test(snap, snap_r4_promote_before_any_other_action)
{
    start(NULL);
    base(4);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", "snap:R4");
    ok(BASE[4]);
}

Test(snap, snap_r1_fifth_monster_before_the_spell_phase)
{
    start(NULL);
    base(6);
    ok(BASE[7]);   /* the flip may come first */
    illegal(BASE[8], "snap:R1");
    ok(BASE[6]);
    ok(BASE[8]);
}

Test(snap, snap_r1_fifth_monster_goes_to_the_empty_slot)
{
    start(NULL);
    base(6);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slot\":2,\"card\":\"flx-frost-skimmer\"", "snap:R1");
}

Test(snap, snap_openlog_6_href_must_fit_the_hidden_mode)
{
    start(NULL);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,null]", "openlog:6");
}

/* ---- 9: lock and unlock --------------------------------------------- */

Test(snap, snap_10_3_flip_before_the_lock_in)
{
    start(NULL);
    base(7);
    illegal(BASE[8], "snap:10.3");
}

Test(snap, snap_10_3_flip_exactly_one)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":2,\"card\":\"cor-ash-sprite\"", "snap:10.3");
    /* 10.3 "If the active player has one or more face-down Monsters on their
     * Bench, they must flip exactly one of them": a face-down one */
    start(NULL);
    base(14);   /* Round 2: Magma Tortoise, Bench slot 1, has been face-up since Round 1 */
    illegal_saying("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"",
                   "snap:10.3", "no face-down Bench monster");
    cr_assert(!st.flipped);
    ok(BASE[14]);
}

Test(snap, snap_9_3_opening_lock_up_to_three)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-eruption\",\"cor-meltdown\"]",
            "snap:9.3");
}

Test(snap, snap_9_2_lock_only_cards_of_the_support_deck)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\"]", "snap:9.2");   /* already in hand */
}

Test(snap, snap_r2_lever_off_p1_does_not_lock_in_round_1)
{
    start("\"rules\":{\"p1_opening_lock\":false}");
    base(8);
    illegal(BASE[8], "snap:8.6");
}

Test(snap, snap_9_4_no_lock_in_freeze_rounds)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]", "snap:9.4");
}

Test(snap, snap_8_6_no_unlock_in_round_1)
{
    start(NULL);
    base(10);
    illegal("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":0,\"card\":\"obs-curse-of-silence\"", "snap:8.6");
}

Test(snap, snap_9_4_no_unlock_in_freeze_rounds)
{
    start(NULL);
    base(14);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-heat-haze\"", "snap:9.4");
}

Test(snap, snap_10_2_unlock_before_the_flip)
{
    start(NULL);
    base(22);
    illegal(BASE[23], "snap:10.2");
    /* and the Unlock Step does not come back after the flip */
    ok(BASE[22]);
    ok(BASE[23]);
    illegal_saying("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"",
                   "snap:10.2", "outside the Unlock Step");
    cr_assert_eq(st.side[0].n_locked, 2, "Crucible Rite stays locked");
}

Test(snap, snap_openlog_6_unlock_reveals_the_locked_card)
{
    start(NULL);
    base(22);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-eruption\"", "openlog:6");
}

Test(snap, snap_9_5_standard_lock_in_is_exactly_one)
{
    start(NULL);
    base(24);
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\",\"cor-firewall\"]", "snap:9.5");
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:9.5");
    ok(BASE[24]);
}

Test(snap, snap_9_7_never_more_than_three_locked)
{
    start("\"rules\":{\"unlocks_per_turn\":0}");
    base(22);
    ok(BASE[23]);   /* nothing to unlock with the lever at 0: flip */
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]", "snap:9.7");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* 9.5 "if permitted": none owed at three */
}

/* ---- 10, 6, 15: the turn, spells, counters -------------------------- */

Test(snap, snap_10_1_only_the_active_player_acts)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"end\",\"by\":\"p2\"", "snap:10.1");
}

Test(snap, snap_6_2_spells_are_class_bound)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"flx-riptide-shift\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]",
            "snap:6.2");
}

Test(snap, snap_7_6_only_cards_in_hand_are_played)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":1}]", "snap:7.6");
}

Test(snap, snap_7_8_targets_must_fit_the_effect)
{
    start(NULL);
    base(8);
    /* Kindle Fury boosts one of your own monsters, not the opponent's */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]",
            "snap:7.8");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[]", "openlog:7");
    /* and Searing Brand weakens one of the opponent's monsters, not p1's own */
    illegal_saying("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]",
                   "snap:7.8", "cannot target the monster in the active slot of p1");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    cr_assert_eq(st.window, WIN_COUNTER);
}

Test(snap, snap_r3_p1_plays_no_counter_in_round_1)
{
    start(NULL);
    base(12);
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":13}]", "snap:R3");
}

Test(snap, snap_15_2_counters_only_in_a_window)
{
    start(NULL);
    base(16);
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":3}]", "snap:15.2");
}

Test(snap, snap_15_4_a_negated_spell_does_not_resolve)
{
    start(NULL);
    base(14);
    ok(BASE[14]);   /* Round 2: p1 flips */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]");
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    cr_assert_eq(st.side[0].active.mod, 0, "the window is still open");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* closes the window: the chain resolves LIFO */
    cr_assert_eq(st.side[0].active.mod, 0, "a negated Spell must not resolve");
}

Test(snap, snap_15_3_chain_cap_per_player)
{
    start("\"rules\":{\"chain_cap\":1}");
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]", "snap:15.3");
}

/* ---- 10.8, 11, 12: combat -------------------------------------------- */

Test(snap, snap_8_6_no_attack_in_round_1)
{
    start(NULL);
    base(8);
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:8.6");
}

Test(snap, snap_11_2_higher_imp_defeats_and_r4_promotes)
{
    start(NULL);
    base(15);
    /* Forge Golem 3000 attacks Crypt Rat 1800 */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert_eq(st.window, WIN_BLOCKER);
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:R4");   /* combat resolved: p2 must promote */
    cr_assert(!st.side[1].active.present);
    cr_assert_eq(st.side[1].lost, 1);
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]"), OL_V_MISMATCH, "snap:A5");
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    /* R4: the face-up Grave Bat must be chosen over the face-down ones */
    illegal("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-wraith-sentry\"", "snap:R4");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    /* 10.8.1: one attack; Forge Golem has no Overdrive */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.8.1");
}

Test(snap, snap_12_4_bench_targets_need_disruptor)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":1}", "snap:12.4");
}

/* snap 10.8.1: "If the attacking Monster has Disruptor, it may instead
 * target a face-up Bench Monster." */
Test(snap, snap_10_8_1_a_disruptor_targets_only_a_face_up_bench_monster)
{
    /* P2_DECK with Veil Assassin (Disruptor) in place of Wraith Sentry */
    char *deck = replace_after(strdup(P2_DECK), "\"monsters\"", "obs-wraith-sentry", "obs-veil-assassin");
    olverdict v = start_decks("open", NULL, P1_DECK, deck);
    free(deck);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 16; i++)
        ok(i == 1 ? "\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-veil-assassin\","
                    "\"aet-cloud-monk\"]"
                  : BASE[i]);
    ok("\"type\":\"flip\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-veil-assassin\"");
    ok("\"type\":\"swap\",\"by\":\"p2\",\"slot\":2");   /* Veil Assassin is p2's active monster */
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    for (size_t i = 17; i < 21; i++)
        ok(BASE[i]);   /* Round 3 */
    olverdict w = play("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":0}");   /* face-down */
    expect(w, OL_V_ILLEGAL, "snap:10.8.1");
    cr_assert(strstr(w.msg, "face-down") && !strstr(w.msg, "no Disruptor"), "%s", w.msg);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":1}");   /* Magma Tortoise, face-up */
    /* 12.2: the Blocker is a Bench monster, never the active one (Forge Golem) */
    illegal("\"type\":\"block\",\"by\":\"p1\",\"slot\":\"a\"", "snap:12.2");
    cr_assert_eq(st.attack_target.slot, 1, "the attack still aims at Magma Tortoise");
}

/* snap 10.8.3: "After the Blocker window: Both players may play Counter
 * cards." -- inside it, only the defending player acts (10.8.2, 15.7). */
Test(snap, snap_10_8_3_the_attacker_counters_after_the_blocker_window)
{
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* seq 16 */
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":16}]",
            "snap:10.8.3");
    cr_assert_eq(st.window, WIN_BLOCKER, "the defender's Blocker Window stays open");
    /* the defender's Counter declines the block: the Counter Window opens */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");   /* seq 18 */
    cr_assert_eq(st.window, WIN_COUNTER);
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":18}]");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* Death Grip negated: 3000 defeated 1800 */
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert_eq(st.side[0].lost, 0);
}

Test(snap, snap_12_2_only_a_face_up_blocker_blocks)
{
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    illegal("\"type\":\"block\",\"by\":\"p2\",\"slot\":0", "snap:12.2");     /* Aether Kite: face-down */
    ok("\"type\":\"block\",\"by\":\"p2\",\"slot\":1");                       /* Grave Bat 3300 blocks */
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:R4");   /* the combat resolved by arriving */
    cr_assert(!st.side[0].active.present, "Forge Golem 3000 loses to the Blocker's 3300");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    ok("\"type\":\"end\",\"by\":\"p1\"");
    cr_assert(st.side[1].active.present, "the original target survives");
}

/* snap 12.2: "The Blocker replaces the original target": until the combat,
 * the judge board shows the attack aimed at the Blocker, and blocked. */
Test(snap, snap_12_2_the_board_shows_the_attack_blocked)
{
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert(judge_board_has("\"name\":\"Crypt Rat\"},\"blocked\":false}"));
    ok("\"type\":\"block\",\"by\":\"p2\",\"slot\":1");   /* Grave Bat */
    cr_assert(judge_board_has("\"name\":\"Grave Bat\"},\"blocked\":true}"));
}

/* ---- 13: evolution ------------------------------------------------- */

Test(snap, snap_13_1_exact_next_stage_only)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-colossus\"", "snap:13.1");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"obs-grave-vampire\"", "snap:13.2");
    /* 13.1 "Face-down Monsters cannot be evolved.": Current Eel, Bench slot 3 */
    illegal_saying("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":3,\"card\":\"cor-forge-colossus\"",
                   "snap:13.1", "not a face-up monster");
    /* 13.2: an Evolution comes from the Reserve, which holds no unknown card */
    illegal_saying("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-no-such-colossus\"",
                   "snap:13.2", "cor-no-such-colossus");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
}

Test(snap, snap_13_5_no_attack_after_an_evolution)
{
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    /* R11: Forge Colossus's [on entry] (A1) must be announced first */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.4");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:13.5");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* the trigger resolves: -500 on p2's active, until end of turn */
}

Test(snap, snap_a2_evolve_in_attack_phase_ends_it)
{
    start("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ash-sprite\",\"cor-forge-golem\",\"cor-magma-tortoise\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ash-sprite\"");   /* Overdrive, 1000 */
    ok(BASE[5]);
    ok(BASE[6]);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-golem\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* 2500 against 1800 */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert_eq(st.step, STEP_ATTACK, "Overdrive leaves a second attack");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(st.step, STEP_SWAP, "the Evolution ends the Attack Phase");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":1},\"ability\":0,\"targets\":[]");
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:13.5");
}

/* ---- 10.9 swap, 3 end of game, 16.1 shot clock ---------------------- */

Test(snap, snap_r9_swap_once_per_game)
{
    start(NULL);
    base(15);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok(BASE[17]);
    ok(BASE[18]);
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":2", "snap:R9");
}

Test(snap, snap_3_4_nothing_after_the_end)
{
    start(NULL);
    base(10);
    ok("\"type\":\"concede\",\"by\":\"p2\"");
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0);
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->finished(&st, NULL), "the match is finished, whoever asks");
    illegal(BASE[10], "snap:3.4");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"p2 conceded at table 4.\"");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"");
}

/* snap 3.4: "the game ends immediately" and "the opponent is declared the
 * winner" -- for a concession in setup too (TR 247, TOURNAMENT.md T7: "at
 * any point during the game"), and a judge's game loss (A7).  The game is
 * finished with its winner, as `arbiter verify` reports it, and what
 * follows is after the end. */
Test(snap, snap_3_4_a_concession_in_setup_ends_the_game)
{
    int winner = -2;
    start(NULL);
    base(2);   /* the Benches; no selection yet */
    ok("\"type\":\"concede\",\"by\":\"p1\"");
    cr_assert(!st.setup_done);
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->finished(&st, &winner), "the game is over");
    cr_assert_eq(winner, 1, "p1 conceded: p2 wins");
    illegal_saying(BASE[2], "snap:3.4", "The game is over");

    start(NULL);
    base(3);
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"p2\",\"text\":\"Marked cards.\"");
    winner = -2;
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->finished(&st, &winner));
    cr_assert_eq(winner, 0);

    char header[8192], bench[4096], concede[256];
    const char *const texts[] = {header, bench, concede};
    header_text(header, sizeof header, "open", NULL, P1_DECK, P2_DECK);
    event_text(bench, sizeof bench, 1, 0, BASE[0]);
    event_text(concede, sizeof concede, 2, 0, "\"type\":\"concede\",\"by\":\"p2\"");
    verify_session *vs = judge_texts(db, texts, 3);
    cr_assert_not_null(vs);
    const verify_report *r = verify_session_report(vs);
    cr_assert(r->status == VERIFY_LEGAL && r->finished && r->winner == 0, "arbiter verify: legal, finished, p1 wins");
    verify_session_destroy(&vs);
}

Test(snap, snap_a5_claimed_winner_must_match)
{
    start(NULL);
    base(10);
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\""), OL_V_MISMATCH, "snap:A5");
}

Test(snap, snap_a7_game_loss_ends_the_game)
{
    start(NULL);
    base(10);
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"p1\",\"text\":\"Marked cards.\"");
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 1);
}

Test(snap, snap_16_1_shot_clock_warns_over_30_seconds)
{
    start(NULL);
    base(7);
    ok("\"type\":\"pass\",\"by\":\"p1\",\"t\":1000000");
    olverdict v = play_t("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", 1000000 + 31000);
    expect(v, OL_V_WARNING, "snap:16.1");
    cr_assert(st.side[0].bench[1].face_up, "a warning is applied");
}

/* ---- commit mode (openlog 6) ---------------------------------------- */

static void commit_hex(const char *id, const char *nonce_hex, char out[65])
{
    uint8_t nonce[32], h[32];
    size_t n = strlen(nonce_hex) / 2;
    for (size_t i = 0; i < n; i++)
        sscanf(nonce_hex + 2 * i, "%2hhx", &nonce[i]);
    crypto_generichash_state s;
    crypto_generichash_init(&s, NULL, 0, 32);
    crypto_generichash_update(&s, (const unsigned char *)id, strlen(id));
    crypto_generichash_update(&s, (const unsigned char *)"", 1);
    crypto_generichash_update(&s, nonce, n);
    crypto_generichash_final(&s, h, 32);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* A list of commitments for cards with one nonce, as the body of "slots"
 * or "cards". */
static void commits(const char *const *ids, int n, const char *nonce, char *out, size_t cap)
{
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char c[65];
        commit_hex(ids[i], nonce, c);
        len += (size_t)snprintf(out + len, cap - len, "%s{\"c\":\"%s\"}", i ? "," : "", c);
    }
}

Test(snap, snap_openlog_commit_a_swapped_card_is_caught_at_the_reveal)
{
    static const char *const b1[4] = {"cor-forge-golem", "cor-magma-tortoise", "cor-ash-sprite", "flx-current-eel"};
    static const char *const b2[4] = {"obs-crypt-rat", "obs-grave-bat", "obs-wraith-sentry", "aet-cloud-monk"};
    static const char *const s1[5] = {"cor-kindle-fury", "cor-searing-brand", "cor-stoke-the-forge",
                                      "flx-riptide-shift", "cor-flashpoint-denial"};
    static const char *const s2[6] = {"obs-night-terror", "obs-soul-siphon", "obs-shadow-step",
                                      "obs-void-denial", "obs-dark-mirror", "obs-death-grip"};
    const char *nonce = "00112233445566778899aabbccddeeff";
    char list[2048], body[2400];
    olverdict v = start_with("commit", NULL, P1_DECK);
    cr_assert_eq(v.status, OL_V_OK);
    illegal(BASE[0], "openlog:6");   /* card ids where commitments are due */
    commits(b1, 4, nonce, list, sizeof list);
    snprintf(body, sizeof body, "\"type\":\"bench\",\"by\":\"p1\",\"slots\":[%s]", list);
    ok(body);
    commits(b2, 4, nonce, list, sizeof list);
    snprintf(body, sizeof body, "\"type\":\"bench\",\"by\":\"p2\",\"slots\":[%s]", list);
    ok(body);
    commits(s1, 5, nonce, list, sizeof list);
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[%s]", list);
    ok(body);
    commits(s2, 6, nonce, list, sizeof list);
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p2\",\"cards\":[%s]", list);
    ok(body);
    /* slot 0 holds Forge Golem; naming Magma Tortoise breaks the commitment */
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-magma-tortoise\",\"nonce\":\"00112233445566778899aabbccddeeff\"",
            "openlog:commit");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\",\"nonce\":\"00112233445566778899aabbccddeeff\"");
}

/* ---- more of the turn ----------------------------------------------- */

Test(snap, snap_openlog_3_actions_are_announced_by_their_player)
{
    start(NULL);
    base(7);
    illegal("\"type\":\"flip\",\"by\":\"table\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", "openlog:3");
    ok(BASE[7]);
    illegal("\"type\":\"prime\",\"by\":\"table\",\"card\":\"cor-corehart-the-molten-crown\"", "openlog:3");
    illegal("\"type\":\"attack\",\"by\":\"table\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "openlog:3");
    illegal("\"type\":\"swap\",\"by\":\"table\",\"slot\":1", "openlog:3");
    cr_assert_eq(st.step, STEP_FLIP, "nothing happened");
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
}

/* openlog 3: a pass, too, is announced by the player who passes. */
Test(snap, snap_openlog_3_a_pass_is_announced_by_its_player)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"pass\",\"by\":\"table\"", "openlog:3");
    cr_assert_eq(st.side[0].active.mod, 0, "the window is still open");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_eq(st.side[0].active.mod, 1500);
}

/* openlog 3: `by` says "who announced it": a judge's ruling is announced by
 * "judge", never by a player (16.4 "Judges have final authority"). */
Test(snap, snap_openlog_3_only_the_judge_announces_a_ruling)
{
    start(NULL);
    base(10);
    illegal("\"type\":\"judge\",\"by\":\"p1\",\"ruling\":\"game_loss\",\"player\":\"p2\",\"text\":\"I say so.\"",
            "openlog:3");
    illegal("\"type\":\"judge\",\"by\":\"table\",\"ruling\":\"game_loss\",\"player\":\"p2\",\"text\":\"Slow play.\"",
            "openlog:3");
    cr_assert(!st.ol.over, "nobody's game was lost");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"warning\",\"player\":\"p2\",\"text\":\"Slow play.\"");
    cr_assert(!st.ol.over, "a warning ends nothing");
    cr_assert_eq(st.step, STEP_UNLOCK);
    ok(BASE[10]);
}

/* openlog 3: `by` is who announced it; only a player gives up the game. */
Test(snap, snap_openlog_3_only_a_player_concedes)
{
    start(NULL);
    base(10);
    illegal_saying("\"type\":\"concede\",\"by\":\"table\"", "openlog:3", "Only a player can concede");
    cr_assert(!st.ol.over, "the game goes on");
    ok("\"type\":\"concede\",\"by\":\"p1\"");   /* in p2's turn, too */
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 1, "p1 gave up: p2 wins");
}

Test(snap, snap_openlog_4_one_header_per_match)
{
    start(NULL);
    base(2);
    char text[4096];
    snprintf(text, sizeof text,
             "{\"match\":\"t\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\",\"cards\":\"core@1.1.0\","
             "\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":%s},\"p2\":{\"id\":\"b\",\"deck\":%s}}}",
             P1_DECK, P2_DECK);
    olevent *h = decode(text);
    olverdict v;
    snap_apply(&st, h, &v);
    olevent_destroy(&h);
    expect(v, OL_V_ILLEGAL, "openlog:4");
}

Test(snap, snap_openlog_cards_unknown_card)
{
    start(NULL);
    base(7);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"zzz-no-such-card\"", "openlog:cards");
}

/* snap 10: "players may act only during the step in which an action is
 * permitted" -- no deeper section orders the Attack Phase before the Lock-in */
Test(snap, snap_10_steps_come_in_a_fixed_order)
{
    start(NULL);
    base(25);   /* Round 4, p1 has locked */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10");
}

/* snap 6.2: "They may be played only during your own Spell Phase." */
Test(snap, snap_6_2_a_spell_only_in_its_players_own_spell_phase)
{
    start(NULL);
    base(25);   /* Round 4, p1 has locked: the Spell Phase is over */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]", "snap:6.2");
    /* and never in the opponent's turn */
    illegal("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]", "snap:6.2");
}

/* A match of P1_DECK against P2_DECK with Nyxora, the Last Eclipse (Prime
 * Singular: condition one of p2's own monsters defeated, [on entry]
 * destroy the opponent's active monster) in place of Aether Kite, the
 * fifth (R1: none waits). */
static void nyxora_start(void)
{
    char *deck = replace_after(strdup(P2_DECK), "\"monsters\"", "aet-aether-kite", "obs-nyxora-the-last-eclipse");
    deck = replace_after(deck, "\"reserve\"", "[", "[\"obs-nyxora-the-last-eclipse\",");
    olverdict v = start_decks("open", NULL, P1_DECK, deck);
    free(deck);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
}

/* nyxora_start(), played through Round 3's flip of p2's fourth monster;
 * Crypt Rat fell attacking Forge Golem in Round 2, so Nyxora may be played. */
static void nyxora_game(void)
{
    nyxora_start();
    for (size_t i = 0; i < 17; i++)
        if (i != 10)   /* p2 has no fifth monster */
            ok(BASE[i]);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");   /* 1800 against 3000 */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2");   /* Wraith Sentry */
    for (size_t i = 17; i < 21; i++)
        ok(BASE[i]);   /* p2's Round 3 flip: four monsters revealed */
}

/* snap 14.5: "A Prime Singular may be played only during the Prime
 * Singular Step of the active player’s turn." */
Test(snap, snap_14_5_a_prime_singular_only_in_its_step)
{
    nyxora_game();
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");   /* 1300 against 3000 */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* Grave Bat */
    illegal("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"", "snap:14.5");
}

/* snap 10.6: the Evolution Step comes before the Prime Singular Step and the
 * Attack Phase (10.7, 10.8); only A2 lets an Evolution in between attacks. */
Test(snap, snap_10_6_an_evolution_only_in_its_step)
{
    nyxora_game();
    ok("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Nyxora destroyed Forge Golem */
    illegal("\"type\":\"evolve\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-vampire\"", "snap:10.6");
    /* after a single attack that fizzled: the Attack Phase is over too (A32) */
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* fizzle */
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"", "snap:10.6");
    cr_assert_eq(st.step, STEP_SWAP, "the fizzled attack ended the Attack Phase");
    /* and after one that was fought */
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"", "snap:10.6");
}

Test(snap, snap_10_10_one_lock_in_per_turn)
{
    start(NULL);
    base(8);
    ok("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\"]");
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-eruption\"]", "snap:10.10");
}

Test(snap, snap_10_9_swap_with_a_face_up_bench_monster)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":3", "snap:10.9");   /* Current Eel is still face-down */
    /* and the Swap Phase comes before the Lock-in Phase */
    start(NULL);
    base(25);
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1", "snap:10.9");
}

/* The Overdrive script of A2, up to p2's promotion after the first attack. */
static void overdrive_opening(void)
{
    start("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ash-sprite\",\"cor-forge-golem\",\"cor-magma-tortoise\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ash-sprite\"");
    ok(BASE[5]);
    ok(BASE[6]);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-golem\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
}

Test(snap, snap_11_7_overdrive_gives_one_more_attack)
{
    overdrive_opening();
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* 1000 against 3300 */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");                         /* Ash Sprite fell */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:11.7");
}

Test(snap, snap_13_3_one_evolution_per_turn)
{
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"", "snap:13.3");
}

Test(snap, snap_r11_a_trigger_is_announced_by_its_controller)
{
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    illegal("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]", "snap:R11");
    /* nor does the opponent's Counter come before the announcement */
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]", "snap:10.4");
    cr_assert_eq(st.n_fired, 1);
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
}

Test(snap, snap_15_5_only_resonance_answers_a_trigger)
{
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":17}]", "snap:15.5");
}

#define P1_PRIME_DECK                                                                                     \
    "{\"monsters\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","  \
    "\"cor-corehart-the-molten-crown\"],\"supports\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\"," \
    "\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-eruption\",\"cor-meltdown\",\"cor-flashpoint-denial\","  \
    "\"cor-resonant-flare\",\"cor-backdraft\",\"cor-firewall\",\"cor-smolder-trap\",\"flx-undertow\","       \
    "\"flx-riptide-shift\",\"flx-ebb-and-flow\",\"flx-frozen-moment\",\"flx-deep-current\",\"flx-wave-break\"," \
    "\"flx-echoing-surge\",\"flx-misdirecting-fog\"],\"reserve\":[\"cor-forge-colossus\",\"cor-corehart-the-molten-crown\"]}"

Test(snap, snap_14_2_only_the_lineups_prime_singular)
{
    olverdict v = start_with("open", NULL, P1_PRIME_DECK);
    cr_assert_eq(v.status, OL_V_OK, "%s %s", v.rule, v.msg);
    for (size_t i = 0; i < 6; i++)
        ok(BASE[i]);
    ok(BASE[7]);   /* no fifth monster: the Prime waits in the Reserve (R1) */
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"obs-nyxora-the-last-eclipse\"", "snap:14.2");
    illegal_saying("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-no-such-crown\"",
                   "snap:14.2", "cor-no-such-crown");
    /* 14.3: two monsters revealed so far, four needed */
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\"", "snap:14.3");
}

Test(snap, snap_15_1_negate_targets_a_link_of_the_chain)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":3}]", "snap:15.1");
}

Test(snap, snap_6_3_a_counter_must_be_a_counter_card)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]",
            "snap:6.3");
}

Test(snap, snap_9_1_selection_only_through_an_effect)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]", "snap:9.1");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-stoke-the-forge\",\"targets\":[]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    /* the window closes by this event's arrival: the effect grants 2 selections, owed first */
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:9.1");
    /* the effect gave p1 the selection, not p2 */
    illegal_saying("\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-soul-reap\",\"obs-umbral-decoy\"]",
                   "snap:9.1", "p1 (alice) must first select the 2 Support cards");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\",\"cor-firewall\"]");
    ok("\"type\":\"end\",\"by\":\"p1\"");
}

Test(snap, snap_9_6_unlock_an_existing_locked_support)
{
    start(NULL);
    base(22);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":3,\"card\":\"cor-heat-haze\"", "snap:9.6");
}

Test(snap, snap_9_8_prevention_stops_unlock_and_lock)
{
    start(NULL);
    base(28);   /* Round 4, p2 unlocked Curse of Silence and flipped */
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-curse-of-silence\",\"targets\":[]");
    ok(BASE[28]);   /* p2 locks: the window closed, p1 is prevented */
    ok(BASE[29]);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"", "snap:9.8");
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]", "snap:9.8");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* no lock owed while prevented (9.5 "if permitted") */
}

Test(snap, snap_9_9_remove_only_the_opponents_locked_support)
{
    start(NULL);
    base(30);
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-crucible-rite\",\"targets\":[{\"p\":\"p1\",\"lock\":0}]",
            "snap:9.9");
    cr_assert_eq(st.side[1].n_locked, 3);
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-crucible-rite\",\"targets\":[{\"p\":\"p2\",\"lock\":3}]",
            "snap:9.9");   /* p2's Locked Supports are 0 to 2 */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-crucible-rite\",\"targets\":[{\"p\":\"p2\",\"lock\":0}]");
    ok("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]");
    ok("\"type\":\"end\",\"by\":\"p1\"");
    cr_assert_eq(st.side[1].n_locked, 2, "9.9: the Locked Support is gone");
}

/* snap 9.9: a removed Locked Support's "position in the lock order is
 * lost": those locked after it move up.  p2 holds Grave Whisper, Eclipse
 * Ritual, Soul Reap; Crucible Rite removes the first. */
Test(snap, snap_9_9_the_locked_supports_after_a_removed_one_move_up)
{
    start(NULL);
    base(30);
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-crucible-rite\",\"targets\":[{\"p\":\"p2\",\"lock\":0}]");
    ok("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]");   /* closes the window */
    ok("\"type\":\"end\",\"by\":\"p1\"");
    illegal_saying("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":0,\"card\":\"obs-grave-whisper\"", "openlog:6",
                   "reveals Grave Whisper, which is not the card there");
    illegal_saying("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":2,\"card\":\"obs-soul-reap\"", "snap:9.6",
                   "they hold 2, numbered 0 to 1");
    ok("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":1,\"card\":\"obs-soul-reap\"");
    ok("\"type\":\"lock\",\"by\":\"p2\",\"cards\":[\"obs-dissonant-whisper\"]");
    cr_assert_eq(st.side[1].n_locked, 2);
    cr_assert_str_eq(st.side[1].locked[0].card->id, "obs-eclipse-ritual");
}

/* snap 3.3: "exhausting the Support Deck has no automatic consequence." */
Test(snap, snap_3_3_an_empty_support_deck_gives_nothing_more)
{
    big_hand_opening(20);   /* p1's whole Support Deck is in hand */
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\"]", "snap:3.3");
    /* a selection effect has nothing left to give: no `select` is owed */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-stoke-the-forge\",\"targets\":[]");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* closes the window: Stoke the Forge resolves */
    cr_assert_eq(st.side[0].select_due, 0);
    cr_assert_eq(st.turn, 1);
}

Test(snap, snap_16_1_the_clock_runs_through_illegal_events)
{
    start(NULL);
    base(7);
    ok("\"type\":\"pass\",\"by\":\"p1\",\"t\":1000000");
    expect(play_t("\"type\":\"end\",\"by\":\"p1\"", 1020000), OL_V_ILLEGAL, "snap:10.3");
    /* 20 s after the illegal event, 40 s after the last legal one: no warning */
    olverdict w = play_t("\"type\":\"pass\",\"by\":\"p1\"", 1040000);
    cr_assert_eq(w.status, OL_V_OK, "%s", w.msg);
    olverdict v = play_t("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", 1050000);
    cr_assert_eq(v.status, OL_V_OK, "%s %s", v.rule, v.msg);
}

Test(snap, snap_a14_only_the_first_attacker_attacks_again)
{
    start("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ash-sprite\",\"cor-forge-golem\",\"cor-magma-tortoise\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ash-sprite\"");
    ok(BASE[5]);
    ok(BASE[6]);   /* Frost Skimmer, Overdrive, waits in slot 0 */
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* 1000 against 1800 */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0");   /* the only face-up Bench monster */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:A14");
}

Test(snap, snap_a16_the_target_cannot_block_itself)
{
    start("\"rules\":{\"round1_attacks\":true}");
    base(14);
    ok(BASE[14]);
    /* p1's Forge Golem is a Blocker on p1's side: p2's Disruptor-less attack goes to the active */
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    illegal("\"type\":\"block\",\"by\":\"p1\",\"slot\":\"a\"", "snap:A16");
    ok("\"type\":\"block\",\"by\":\"p1\",\"slot\":1");   /* Magma Tortoise, face-up, Blocker */
}

Test(snap, snap_10_5_the_opponent_answers_a_spell_first)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":16}]", "snap:10.5");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]");
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":18}]");
}

Test(snap, snap_7_7_the_graveyard_holds_used_and_defeated_cards)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* closes the chain */
    cr_assert_eq(st.side[0].n_grave, 1);
    cr_assert_str_eq(st.side[0].grave[0]->id, "cor-kindle-fury");
    cr_assert_str_eq(st.side[1].grave[0]->id, "obs-void-denial");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* Crypt Rat fell to Forge Golem */
    cr_assert_eq(st.side[1].n_grave, 2);
    cr_assert_str_eq(st.side[1].grave[1]->id, "obs-crypt-rat");
}

/* Announced mode (openlog 6) with the levers `rules` (or none), both
 * Benches placed and both selections made, every card unnamed: the
 * promotions are next. */
static void announced_setup_with(const char *rules)
{
    olverdict v = start_with("announced", rules, P1_DECK);
    cr_assert_eq(v.status, OL_V_OK);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,null]");
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slots\":[null,null,null,null]");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[null,null,null,null,null]");
    ok("\"type\":\"select\",\"by\":\"p2\",\"cards\":[null,null,null,null,null,null]");
}

static void announced_setup(void)
{
    announced_setup_with(NULL);
}

Test(snap, snap_openlog_6_announced_mode_counts_what_stays_unverifiable)
{
    announced_setup();
    /* a reveal must be a card that could have been there (openlog 6) */
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"obs-crypt-rat\"", "snap:8.3");
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-kindle-fury\"", "snap:8.3");   /* a Spell */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null");
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    /* singleton (4.4): the same Support cannot come out of the hand twice */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]",
            "openlog:6");
    snap_unverified u[2];
    snap_unverifiable(&st, u);
    cr_assert_eq(u[0].bench, 3, "slots 0, 2, 3 face-down and never named");
    cr_assert_eq(u[0].hand, 4);
    cr_assert_eq(u[1].hand, 6);
    cr_assert_eq(u[1].bench, 3);
    cr_assert_eq(u[1].fifth, 1);
    cr_assert_eq(u[0].fifth, 0);
}

Test(snap, snap_18_6_bench_facedown_places_the_rest_face_up)
{
    olverdict v = start_with("announced", "\"rules\":{\"bench_facedown\":3}", P1_DECK);
    cr_assert_eq(v.status, OL_V_OK);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,null]", "snap:18.6");
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,\"flx-no-such-eel\"]", "openlog:cards");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,\"flx-current-eel\"]");
    cr_assert(st.side[0].bench[3].face_up);
    cr_assert_eq(st.side[0].revealed, 1);
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slots\":[null,null,null,\"aet-cloud-monk\"]");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[null,null,null,null,null]");
    ok("\"type\":\"select\",\"by\":\"p2\",\"cards\":[null,null,null,null,null,null]");
    /* R4: a face-up Bench monster is promoted first */
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"", "snap:R4");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":3");
}

/* ---- effects decide outcomes (15.4, 11.3) ---------------------------- */

Test(snap, snap_15_4_a_fizzle_counter_stops_the_combat)
{
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* fizzle */
    ok("\"type\":\"end\",\"by\":\"p1\"");
    cr_assert(st.side[1].active.present, "the attack fizzled: Crypt Rat stands");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert_eq(st.side[1].n_grave, 1, "the Counter went to the graveyard");
}

Test(snap, snap_11_3_a_counter_modifier_turns_the_combat)
{
    start(NULL);
    base(15);
    /* Forge Golem 3000 attacks Crypt Rat 1800; Death Grip gives the attacker -2000 */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:R4");
    cr_assert(!st.side[0].active.present, "1000 against 1800: Forge Golem is defeated");
    cr_assert(st.side[0].prevent_next.draw, "Death Grip also prevents p1 from drawing in their next turn (9.8, A28)");
    cr_assert_eq(st.side[1].active.mod, 0, "modifiers end with the combat (R7)");
}

/* ---- A30: a Trigger with nothing to target --------------------------- */

/* P2 with Umbral Kitten (on reveal: remove one of the opponent's Locked
 * Supports) where BASE has Wraith Sentry, flipped in Round 2. */
#define P2_KITTEN_DECK                                                                                    \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-umbral-kitten\",\"aet-cloud-monk\","          \
    "\"aet-aether-kite\"],\"supports\":[\"obs-night-terror\",\"obs-soul-siphon\",\"obs-shadow-step\","       \
    "\"obs-curse-of-silence\",\"obs-grave-whisper\",\"obs-eclipse-ritual\",\"obs-soul-reap\",\"obs-void-denial\"," \
    "\"obs-dissonant-whisper\",\"obs-umbral-decoy\",\"obs-dark-mirror\",\"obs-death-grip\",\"aet-radiant-blessing\"," \
    "\"aet-judgement-ray\",\"aet-skyward-shift\",\"aet-clarity\",\"aet-sanctuary-seal\",\"aet-ward-of-silence\"," \
    "\"aet-resonant-choir\",\"aet-gale-diversion\"],\"reserve\":[\"obs-grave-vampire\"]}"

/* Through p2's Round 2 flip of Umbral Kitten; p1 locks nothing in Round 1
 * when `p1_locks` is 0. */
static void kitten_game(int p1_locks)
{
    olverdict v = start_decks("open", NULL, P1_DECK, P2_KITTEN_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok(BASE[0]);
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-umbral-kitten\",\"aet-cloud-monk\"]");
    for (size_t i = 2; i < 8; i++)
        ok(BASE[i]);
    if (p1_locks)
        ok(BASE[8]);
    for (size_t i = 9; i < 16; i++)
        ok(BASE[i]);
    ok("\"type\":\"flip\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-umbral-kitten\"");
}

Test(snap, snap_a30_trigger_without_candidate_is_announced_without_it)
{
    kitten_game(0);
    cr_assert_eq(st.side[0].n_locked, 0);
    /* snap A30: a choice with no candidate is left out; naming one anyway is refused */
    illegal("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":2},\"ability\":0,"
            "\"targets\":[{\"p\":\"p1\",\"lock\":0}]", "snap:A30");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":2},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    ok("\"type\":\"end\",\"by\":\"p2\"");
    cr_assert_eq(st.side[0].n_grave, 0, "A30: the skipped effect removed nothing");
}

Test(snap, snap_a30_trigger_must_name_an_existing_candidate)
{
    kitten_game(1);
    cr_assert_eq(st.side[0].n_locked, 3);
    illegal("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":2},\"ability\":0,\"targets\":[]",
            "openlog:7");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":2},\"ability\":0,"
       "\"targets\":[{\"p\":\"p1\",\"lock\":1}]");
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    ok("\"type\":\"end\",\"by\":\"p2\"");
    cr_assert_eq(st.side[0].n_locked, 2, "9.9: the Locked Support is gone");
}

/* ---- A31: the end of the log is the last silence (R6) ---------------- */

Test(snap, snap_a31_the_end_of_the_log_closes_an_open_window)
{
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert_eq(st.window, WIN_BLOCKER);
    cr_assert(st.side[1].active.present, "R6: the combat waits for the window to close");
    snap_silence(&st);
    cr_assert_eq(st.window, WIN_NONE);
    cr_assert(!st.side[1].active.present, "A31: silence for good fought the combat");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert_eq(snap_check_invariants(&st), 0);
    /* outside a window, silence changes nothing */
    snap_state before = st;
    snap_silence(&st);
    cr_assert_eq(memcmp(&before, &st, sizeof st), 0);
}

/* ---- A3, A20: a Resonance Counter against a Trigger ------------------ */

/* BASE through seq 15, with Dissonant Whisper (Resonance) in p2's hand in
 * place of Dark Mirror. */
static void whisper_game(void)
{
    start(NULL);
    for (size_t i = 0; i < 15; i++)
        ok(i == 3 ? "\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\",\"obs-soul-siphon\","
                    "\"obs-shadow-step\",\"obs-void-denial\",\"obs-dissonant-whisper\",\"obs-death-grip\"]"
                  : BASE[i]);
}

/* whisper_game(); then p1 evolves into Forge Colossus, whose [on entry]
 * gives p2's active monster -500 IMP, and announces it (seq 17). */
static void resonance_game(void)
{
    whisper_game();
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
}

Test(snap, snap_a3_resonance_counter_stops_trigger)
{
    resonance_game();
    cr_assert_eq(st.window, WIN_RESONANCE, "A3: the Trigger waits for its window to close");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":17}]");
    snap_silence(&st);
    cr_assert_eq(st.window, WIN_NONE);
    cr_assert_eq(st.side[1].active.mod, 0, "15.5: a countered Trigger does not resolve");
}

/* snap 15.5: a Resonance Counter targets the Trigger being resolved, by
 * the seq of its `trigger` event: not another event, not a monster. */
Test(snap, snap_15_5_a_resonance_counter_names_the_trigger_being_resolved)
{
    resonance_game();
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":16}]",
            "snap:15.5");   /* the evolve */
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]",
            "snap:15.5");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":17}]");
}

Test(snap, snap_a3_an_unanswered_trigger_resolves)
{
    resonance_game();
    snap_silence(&st);
    cr_assert_eq(st.side[1].active.mod, -500, "A3: silence lets the Trigger resolve");
}

Test(snap, snap_a20_a_resonance_counter_starts_no_chain)
{
    resonance_game();
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":17}]");
    /* snap A20: a Resonance Counter answers a Trigger, which "do[es] not use the chain" (15.5) */
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":18}]",
            "snap:A20");
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-resonant-flare\",\"targets\":[{\"seq\":17}]",
            "snap:A20");
    /* A33: "anyone after a Resonance Counter (A20)" has nothing to pass */
    illegal_saying("\"type\":\"pass\",\"by\":\"p1\"", "snap:A20", "after a Resonance Counter answered the Trigger");
    illegal("\"type\":\"pass\",\"by\":\"p2\"", "snap:A20");
    cr_assert_eq(st.window, WIN_RESONANCE, "only silence closes it");
    snap_silence(&st);
    cr_assert_eq(st.side[1].active.mod, 0);
}

/* ---- A15: an attack follows monsters, not slots ---------------------- */

/* No core Counter moves a monster, so these tests load core.json with two
 * of P2's Counters rewritten: Void Denial swaps P2's active monster with a
 * Bench monster of theirs, Dark Mirror swaps P1's. */
static void load_swap_counters(void)
{
    char *text = core_text();
    text = replace_after(text, "\"id\": \"obs-void-denial\"", "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
                         "\"op\": \"swap\", \"target\": \"own_bench\"");
    text = replace_after(text, "\"id\": \"obs-dark-mirror\"", "\"op\": \"fizzle\",\n            \"target\": \"none\"",
                         "\"op\": \"swap\", \"target\": \"opp_bench\"");
    load_core_text(text, "core-with-swap-counters");
}

/* BASE through `n` events, then Forge Golem 3000 attacks p2's active
 * monster (Crypt Rat 1800); p2 assigns `block` (NULL: none) and someone
 * plays the Counter `counter`; the log ends there, so the window closes
 * (A31): the chain, then the attack, resolve. */
static void attack_answered(size_t n, const char *block, const char *counter)
{
    start(NULL);
    base(n);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    if (block)
        ok(block);
    ok(counter);
    snap_silence(&st);
}

#define GRAVE_BAT_BLOCKS "\"type\":\"block\",\"by\":\"p2\",\"slot\":1"

Test(snap, snap_a15_target_swapped_away_is_followed)
{
    load_swap_counters();
    /* Void Denial (rewritten) swaps Grave Bat in; Crypt Rat goes to Bench slot 1 */
    attack_answered(15, NULL,
                    "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-grave-bat", "the swap happened");
    /* snap A15: "a target that changes position but stays face-up on the field is still fought" */
    cr_assert(st.side[1].active.present, "A15: the monster now in the slot is not fought");
    cr_assert(!st.side[1].bench[1].present, "A15: the target was followed to Bench slot 1 and defeated");
    cr_assert_eq(st.side[1].lost, 1);
    /* a Blocker swapped into the active slot is followed there: Grave Bat
     * 3300 blocks, then swaps in */
    attack_answered(15, GRAVE_BAT_BLOCKS,
                    "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-grave-bat", "the Blocker was swapped in");
    cr_assert_eq(st.side[0].lost, 1, "Forge Golem 3000 fought Grave Bat 3300 in its new place");
    cr_assert_eq(st.side[1].lost, 0, "Crypt Rat, now in Bench slot 1, was not fought");
    /* another Bench monster swapped in leaves the Blocker the target: in
     * Round 3 p2's Wraith Sentry, face-up in Bench slot 2, swaps in instead */
    attack_answered(19, GRAVE_BAT_BLOCKS,
                    "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p2\",\"s\":2}]");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-wraith-sentry", "Wraith Sentry was swapped in");
    cr_assert_eq(st.side[0].lost, 1, "Forge Golem fought Grave Bat, still in Bench slot 1");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert(st.side[1].bench[1].present && st.side[1].bench[2].present);
}

Test(snap, snap_a15_attacker_swapped_away_fizzles)
{
    load_swap_counters();
    /* Dark Mirror (rewritten) swaps Magma Tortoise into p1's active slot */
    attack_answered(15, NULL,
                    "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "cor-magma-tortoise", "the swap happened");
    /* snap A15: "if ... the attacker is no longer the active monster ... the attack fizzles" */
    cr_assert_eq(st.side[1].lost, 0, "A15: no combat after the attacker left");
    cr_assert_eq(st.side[0].lost, 0);
    cr_assert(st.side[1].active.present && st.side[0].bench[1].present);
    /* and it counts as made: 10.8.1 one attack */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.8.1");
}

/* ---- gaps found by coverage and mutation (issue 11) ------------------ */

/* snap 7.8: "Cards in one zone cannot target cards in another zone": an
 * effect on a chosen player names a player ({p}), not a monster.  No core
 * card chooses a player, so Kindle Fury is given a first effect,
 * prevent_unlock on a chosen player; the effect falls on the one named. */
Test(snap, snap_7_8_a_player_target_names_a_player)
{
    load_core_text(replace_after(core_text(), "\"id\": \"cor-kindle-fury\"", "\"effects\": [",
                                 "\"effects\": [{\"op\": \"prevent_unlock\", \"target\": \"player\"},"),
                   "core-with-a-player-target");
    start(NULL);
    base(15);
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"},"
            "{\"p\":\"p1\",\"s\":\"a\"}]",
            "snap:7.8");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p2\"},{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* the Spell resolves */
    cr_assert_eq(st.side[0].active.mod, 1500);
    cr_assert(st.side[1].prevent_next.unlock, "the chosen player, p2, is prevented from unlocking");
    cr_assert(!st.side[0].prevent_next.unlock && !st.side[0].prevent.unlock, "not its controller");
}

/* snap 9.2: only cards of the player's own Support Deck leave it. */
Test(snap, snap_9_2_select_only_cards_of_the_support_deck)
{
    start(NULL);
    base(2);
    olverdict v = play("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\",\"cor-searing-brand\","
                       "\"cor-stoke-the-forge\",\"flx-riptide-shift\",\"obs-night-terror\"]");
    expect(v, OL_V_ILLEGAL, "snap:9.2");
    cr_assert(strstr(v.msg, "Night Terror, which is not in p1 (alice)'s Support Deck"), "%s", v.msg);
    /* openlog 6: in open mode every selected card is named */
    illegal("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\",\"cor-searing-brand\","
            "\"cor-stoke-the-forge\",\"flx-riptide-shift\",null]",
            "openlog:6");
    cr_assert_eq(st.side[0].n_hand, 0);
    ok(BASE[2]);
}

/* openlog 6: in announced mode a Support's identity is first seen when it
 * is played; it must be a card of its player's Support Deck. */
Test(snap, snap_openlog_6_an_announced_spell_is_a_card_of_the_support_deck)
{
    announced_setup();
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null");
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"flx-current-eel\"");
    /* Crushing Depths is a Fluxion Spell of core, not of P1_DECK */
    illegal_saying("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"flx-crushing-depths\",\"targets\":[]", "openlog:6",
                   "The Spell reveals Crushing Depths, which is not in p1 (alice)'s Support Deck.");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"flx-riptide-shift\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_eq(st.side[1].active.mod, -1500, "the Spell named when played resolved");
}

/* snap R1: the fifth monster placed is the lineup's fifth, and only in the
 * Bench slot the promotion emptied, never the active slot (open mode). */
Test(snap, snap_r1_the_fifth_monster_is_the_lineups_fifth)
{
    start(NULL);
    base(6);
    olverdict v = play("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-current-eel\"");
    expect(v, OL_V_ILLEGAL, "snap:R1");
    cr_assert(strstr(v.msg, "places Current Eel, but the lineup's fifth monster is Frost Skimmer"), "%s", v.msg);
    v = play("\"type\":\"bench\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"flx-frost-skimmer\"");
    expect(v, OL_V_ILLEGAL, "snap:R1");
    cr_assert(strstr(v.msg, "active slot"), "%s", v.msg);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null", "openlog:6");   /* open mode names it */
    cr_assert(st.side[0].fifth_due);
    ok(BASE[6]);
}

/* snap 3.4: a concession ends the game at once, during setup too; what
 * follows is illegal as after any end (snap:3.4, not the 8.1 of a match
 * that never started). */
Test(snap, snap_3_4_nothing_after_a_concession_during_setup)
{
    start(NULL);
    base(2);
    ok("\"type\":\"concede\",\"by\":\"p2\"");
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0, "p1 wins");
    olverdict v = play(BASE[2]);
    expect(v, OL_V_ILLEGAL, "snap:3.4");
    cr_assert(strstr(v.msg, "The game is over"), "%s", v.msg);
}

/* snap 6.2 / 6.3: the sentence names the card's class with its article:
 * "a Coreon", "a Fluxion", "a Synaphera", "an Obscura", "an Aetherion". */
Test(snap, snap_6_2_the_sentence_names_the_class_with_its_article)
{
    static const char *const spell[] = {"flx-riptide-shift", "syn-wither", "obs-night-terror", "aet-radiant-blessing"};
    static const char *const says[] = {"a Fluxion Spell", "a Synaphera Spell", "an Obscura Spell", "an Aetherion Spell"};
    char body[512];
    start(NULL);
    base(8);   /* p1 controls only Coreon monsters */
    for (size_t i = 0; i < sizeof spell / sizeof spell[0]; i++) {
        snprintf(body, sizeof body, "\"type\":\"spell\",\"by\":\"p1\",\"card\":\"%s\",\"targets\":[]", spell[i]);
        olverdict v = play(body);
        expect(v, OL_V_ILLEGAL, "snap:6.2");
        cr_assert(strstr(v.msg, says[i]), "%s: %s", spell[i], v.msg);
    }
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    /* p2 controls only Obscura monsters: an Aetherion Counter is refused */
    olverdict v = play("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"aet-gale-diversion\",\"targets\":[]");
    expect(v, OL_V_ILLEGAL, "snap:6.3");
    cr_assert(strstr(v.msg, "an Aetherion Counter"), "%s", v.msg);
}

/* snap_check_invariants() names the invariant a state breaks: 1 an active
 * monster face-down (7.1), 2 more Locked Supports than 9.7 allows, 3 a
 * chain longer than the cap (15.3), 4 more monsters lost than a lineup has,
 * 5 a face-up monster with no card in its stack, 6 a Resonance window
 * without its Trigger's card. */
Test(snap, snap_invariants_each_broken_one_is_named)
{
    start(NULL);
    base(15);
    cr_assert_eq(snap_check_invariants(&st), 0);
    snap_state good = st;
    st.side[1].active.face_up = 0;
    cr_assert_eq(snap_check_invariants(&st), 1);
    st = good;
    st.side[1].n_locked = SNAP_LOCK_MAX + 1;
    cr_assert_eq(snap_check_invariants(&st), 2);
    st = good;
    st.chain_count[1] = (uint8_t)(st.chain_cap + 1);
    cr_assert_eq(snap_check_invariants(&st), 3);
    st = good;
    st.side[1].lost = SNAP_LINEUP + 1;
    cr_assert_eq(snap_check_invariants(&st), 4);
    st = good;
    st.side[0].active.depth = 0;
    cr_assert_eq(snap_check_invariants(&st), 5);
    st = good;
    st.window = WIN_RESONANCE;
    st.trig.card = NULL;
    cr_assert_eq(snap_check_invariants(&st), 6);
    st = good;
}

/* openlog 7, the Snap page: a Snap field has the active slot and Bench
 * slots 0 to 3, and attacks aim at monsters; the codec reads slots up to 6
 * and attacks on players for the other formats.  Such an event is no Snap
 * action: it is illegal and changes nothing (R12). */
Test(snap, snap_openlog_7_a_snap_place_is_the_active_slot_or_bench_0_to_3)
{
    start(NULL);
    base(7);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":4,\"card\":\"cor-magma-tortoise\"", "openlog:7");
    /* a classic flip (a time, no slot) is no Snap flip */
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"at\":5000,\"card\":\"cor-magma-tortoise\"", "openlog:7");
    ok(BASE[7]);
    ok(BASE[8]);
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\"}", "openlog:7");
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":5}", "openlog:7");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":6}]", "openlog:7");
    ok(BASE[9]);
}

/* snap 10.4: a `trigger` event announces a Trigger that has fired; one
 * that has not is illegal and changes nothing (R12). */
Test(snap, snap_10_4_a_trigger_announced_that_has_not_fired)
{
    start(NULL);
    base(15);
    illegal("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]",
            "snap:10.4");
    cr_assert_eq(st.window, WIN_NONE);
    ok(BASE[15]);
    /* Forge Colossus's [on entry] fires in p1's active slot: announced from
     * another player's slot or another slot, it is not the one that fired */
    colossus_game();
    illegal("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]",
            "snap:10.4");
    illegal("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":1},\"ability\":0,\"targets\":[]",
            "snap:10.4");
    cr_assert_eq(st.n_fired, 1, "still to be announced");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
}

/* snap 8.3 / openlog 6: a monster revealed from a hidden place is one of
 * the lineup not yet seen: Forge Golem, promoted already, cannot be flipped
 * from another slot. */
Test(snap, snap_8_3_a_revealed_monster_is_one_not_yet_seen)
{
    announced_setup();
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null");
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-golem\"", "snap:8.3");
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"");
}

/* openlog 7: the Snap engine takes the event types of the Snap page; summon,
 * position and discard belong to the other formats (verifier_apply refuses
 * them before the engine sees them). */
Test(snap, snap_openlog_7_the_engine_takes_the_snap_event_types)
{
    for (int t = OL_BENCH; t <= OL_JUDGE; t++)
        cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->has_type((ol_type)t), "%s", ol_type_name((ol_type)t));
    cr_assert(!verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_SUMMON));
    cr_assert(!verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_POSITION));
    cr_assert(!verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_DISCARD));
    cr_assert(!verifier_ops_of(OL_FORMAT_SNAP)->has_type(OL_TYPE_COUNT));
}

/* openlog 7: an Advanced event in a Snap match is no Snap action -- judged
 * by the verifier, as the daemon and arbiter verify judge it: illegal, with a
 * sentence, never a NULL handler. */
Test(snap, snap_openlog_7_an_advanced_event_in_a_snap_match)
{
    char text[8192];
    start(NULL);   /* loads the card database */
    snprintf(text, sizeof text,
             "{\"match\":\"v\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\",\"cards\":\"core@1.1.0\","
             "\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":%s},\"p2\":{\"id\":\"b\",\"deck\":%s}}}",
             P1_DECK, P2_DECK);
    olevent *h = decode(text);
    verifier *vf = NULL;
    olverdict v;
    cr_assert_eq(verifier_new(db, h, &vf, &v), VERIFIER_OK);
    cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
    olevent_destroy(&h);
    olevent *ev = decode("{\"match\":\"v\",\"seq\":1,\"type\":\"summon\",\"by\":\"p1\",\"slot\":0,"
                         "\"card\":\"cor-forge-golem\",\"position\":\"ap\",\"kind\":\"normal\"}");
    verifier_apply(vf, ev, &v);
    olevent_destroy(&ev);
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "p1 announced a summon, which is not an action of the Snap format"), "%s", v.msg);
    verifier_destroy(&vf);
}

/* snap 12.2: "Blocker may be used only during the Blocker Window", by the
 * defending player: never by the table, even in that window. */
Test(snap, snap_12_2_a_block_is_announced_by_the_defending_player)
{
    start("\"rules\":{\"round1_attacks\":true}");
    base(8);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    illegal("\"type\":\"block\",\"by\":\"table\",\"slot\":1", "snap:12.2");
    illegal("\"type\":\"block\",\"by\":\"p1\",\"slot\":1", "snap:12.2");
}

/* The round an engine reports (verifier_ops.round): 0 until setup is
 * complete (snap 8), then the round in play (R8). */
Test(snap, snap_8_the_round_is_0_until_setup_is_complete)
{
    start(NULL);
    base(3);   /* p2 has not selected yet */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 0);
    ok(BASE[3]);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1);
    for (size_t i = 4; i < 15; i++)
        ok(BASE[i]);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 2);
}

/* snap 13.2: the Evolution card leaves the Monster Reserve for good: the
 * judge board (snap_encode(), whose hash every record keeps) no longer has
 * it in p1's reserve. */
Test(snap, snap_13_2_an_evolution_card_leaves_the_reserve)
{
    jtext t = {0};
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(snap_encode(&st, &t), 0);
    cr_assert(t.buf && strstr(t.buf, "\"reserve\":{\"count\":0,\"cards\":[]}"), "%s", t.buf);
    jtext_free(&t);
    /* so it cannot evolve another monster in a later turn */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    for (size_t i = 15; i < 19; i++)
        ok(BASE[i]);   /* Round 3: p1 has flipped */
    illegal_saying("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-colossus\"",
                   "snap:13.2", "not waiting unused in their Monster Reserve");
}

/* openlog 3: every action of setup, and a Counter, is announced by the
 * player who makes it, never by the table. */
Test(snap, snap_openlog_3_setup_actions_and_counters_are_announced_by_their_player)
{
    start(NULL);
    illegal("\"type\":\"bench\",\"by\":\"table\",\"slots\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\","
            "\"flx-current-eel\"]",
            "openlog:3");
    base(2);
    illegal("\"type\":\"select\",\"by\":\"table\",\"cards\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\","
            "\"flx-riptide-shift\",\"cor-flashpoint-denial\"]",
            "openlog:3");
    for (size_t i = 2; i < 15; i++)
        ok(BASE[i]);
    illegal("\"type\":\"promote\",\"by\":\"table\",\"slot\":1", "openlog:3");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"counter\",\"by\":\"table\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]", "openlog:3");
}

/* snap 8.3: each player places their Bench once, four different monsters
 * of the card database. */
Test(snap, snap_8_3_one_bench_of_four_different_monsters)
{
    start(NULL);
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-forge-golem\",\"cor-ash-sprite\","
            "\"flx-current-eel\"]",
            "snap:8.3");
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-no-such-card\",\"cor-ash-sprite\","
            "\"flx-current-eel\"]",
            "openlog:cards");
    ok(BASE[0]);
    illegal(BASE[0], "snap:8.3");
}

/* snap 10.3 / R4: a flip turns a face-down Bench monster, a promotion
 * brings a Bench monster to the empty active slot, and a face-down one
 * promoted is named (open mode: openlog 7). */
Test(snap, snap_10_3_r4_flips_and_promotions_come_from_the_bench)
{
    start(NULL);
    base(4);
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-golem\"", "snap:R4");
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0", "openlog:7");
    for (size_t i = 4; i < 6; i++)
        ok(BASE[i]);
    /* Bench slot 0 is empty until the fifth monster comes (R1) */
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"", "snap:10.3");
    ok(BASE[6]);
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-golem\"", "snap:10.3");
    ok(BASE[7]);
}

/* ---- setup, levers and the steps of the turn, rule by rule (issue 11) -- */

/* A header whose p1 deck is `p1deck` starts no match, citing `rule` with a
 * sentence that names `says`; nothing follows it (snap 8.1). */
static void deck_refused(const char *p1deck, const char *rule, const char *says)
{
    olverdict v = start_with("open", NULL, p1deck);
    expect(v, OL_V_ILLEGAL, rule);
    cr_assert(strstr(v.msg, says), "%s", v.msg);
    cr_assert(st.ol.over);
    illegal(BASE[0], "snap:8.1");
}

/* snap 8.1: "If a deck is illegal, it must be corrected before play begins."
 * -- a lineup, Support Deck or Reserve beyond what 4.2, 4.3 and 4.6 allow,
 * or a card the database does not know, starts no match. */
Test(snap, snap_8_1_a_deck_beyond_its_limits_starts_no_match)
{
    /* six monsters and nineteen Supports: 25 cards, but not 5 + 20 */
    char *deck = replace_after(strdup(P1_DECK), "\"monsters\"", "\"flx-frost-skimmer\"",
                               "\"flx-frost-skimmer\",\"cor-pyre-acolyte\"");
    deck = replace_after(deck, "\"supports\"", ",\"flx-misdirecting-fog\"", "");
    deck_refused(deck, "snap:4.2", "lineup has 6 cards");
    free(deck);
    deck = replace_after(strdup(P1_DECK), "\"monsters\"", "flx-frost-skimmer", "flx-no-such-skimmer");
    deck_refused(deck, "openlog:cards", "flx-no-such-skimmer");
    free(deck);
    /* twenty-one Supports: 26 cards */
    deck = replace_after(strdup(P1_DECK), "\"supports\"", "\"flx-misdirecting-fog\"", "\"flx-misdirecting-fog\",\"syn-overgrowth\"");
    deck_refused(deck, "snap:4.1", "21 supports");
    free(deck);
    /* seventeen Evolution cards in the Reserve: more than arbiter keeps */
    deck = replace_after(strdup(P1_DECK), "\"reserve\"", "\"cor-forge-colossus\"",
                         "\"cor-forge-colossus\",\"cor-ember-drake\",\"cor-ember-sovereign\",\"cor-cinder-warg\","
                         "\"flx-tide-siren\",\"flx-tide-leviathan\",\"flx-current-serpent\",\"flx-mist-warden\","
                         "\"syn-neuron-bloom\",\"syn-neuron-worldtree\",\"syn-thorn-matriarch\",\"syn-spore-monarch\","
                         "\"obs-umbral-panther\",\"obs-umbral-nightmare\",\"obs-grave-vampire\",\"obs-hollow-phantom\","
                         "\"aet-halo-seraph\"");
    deck_refused(deck, "snap:4.6.3", "reserve cards must correspond to the five lineup Monsters");
    free(deck);
    deck = replace_after(strdup(P1_DECK), "\"reserve\"", "cor-forge-colossus", "cor-no-such-colossus");
    deck_refused(deck, "openlog:cards", "cor-no-such-colossus");
    free(deck);
}

/* snap 18.5: "allowing Player 1 to unlock Supports in Round 1" -- with the
 * lever p1_round1_unlock, 8.6 no longer bars p1's unlock (it is judged as
 * any unlock: nothing is locked yet, 9.6); Player 2 still does not unlock. */
Test(snap, snap_18_5_p1_round1_unlock_lets_player_1_unlock_in_round_1)
{
    start("\"rules\":{\"p1_round1_unlock\":true}");
    base(7);
    illegal_saying("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-heat-haze\"",
                   "snap:9.6", "holds no Locked Support");
    for (size_t i = 7; i < 11; i++)
        ok(BASE[i]);   /* p1 locks three; p2 places its fifth monster */
    illegal("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":0,\"card\":\"obs-curse-of-silence\"", "snap:8.6");
}

/* openlog 6: in announced mode an unlocked Support is named as it is
 * revealed, and must be a card of its player's Support Deck (here with no
 * Lock Freeze, freeze_rounds 0, 18.6: p1 unlocks in Round 2). */
Test(snap, snap_openlog_6_an_announced_unlock_reveals_a_card_of_the_support_deck)
{
    static const char *const rounds[] = {
        "\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"",
        "\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"",
        "\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null",
        "\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"",
        "\"type\":\"lock\",\"by\":\"p1\",\"cards\":[null,null,null]",
        "\"type\":\"end\",\"by\":\"p1\"",
        "\"type\":\"bench\",\"by\":\"p2\",\"slot\":0,\"card\":null",
        "\"type\":\"flip\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"",
        "\"type\":\"end\",\"by\":\"p2\"",
    };
    announced_setup_with("\"rules\":{\"freeze_rounds\":0}");
    for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++)
        ok(rounds[i]);
    cr_assert_eq(st.round, 2);
    illegal_saying("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"obs-night-terror\"",
                   "openlog:6", "The unlock reveals Night Terror, which is not in p1 (alice)'s Support Deck");
    cr_assert_eq(st.side[0].n_locked, 3);
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-heat-haze\"");
    cr_assert_eq(st.side[0].n_locked, 2);
    cr_assert_str_eq(st.side[0].hand[st.side[0].n_hand - 1].card->id, "cor-heat-haze");
}

/* Round 1 with the round1_attacks lever (18.5): p1 has flipped Magma
 * Tortoise; Forge Golem 3000 attacks Crypt Rat 1800, p2's active monster,
 * while p2's Bench slot 0 waits for the fifth monster (R1) and slots 1-3
 * are face-down. */
static void round1_attack_on_crypt_rat(void)
{
    start("\"rules\":{\"round1_attacks\":true}");
    base(8);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
}

/* snap 12.2: a Blocker is "a face-up Bench monster with Blocker": an empty
 * Bench slot assigns none. */
Test(snap, snap_12_2_an_empty_bench_slot_does_not_block)
{
    round1_attack_on_crypt_rat();
    illegal_saying("\"type\":\"block\",\"by\":\"p2\",\"slot\":0", "snap:12.2", "slot 0");
    cr_assert_eq(st.window, WIN_BLOCKER, "the Blocker Window is still open");
    cr_assert(!st.blocked);
}

/* snap R4: "that player must promote one" of their Bench monsters: not from
 * an empty Bench slot. */
Test(snap, snap_r4_a_promotion_comes_from_an_occupied_bench_slot)
{
    round1_attack_on_crypt_rat();
    /* arriving, it resolves the combat (A26): Crypt Rat falls */
    illegal_saying("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"aet-aether-kite\"",
                   "snap:R4", "holds no Bench monster");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert(st.side[1].promote_due);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-grave-bat");
}

/* snap 10.9: the Swap exchanges the active monster with a face-up Bench
 * monster: not with the active slot itself, nor with an empty slot (a
 * Prime lineup has no fifth monster for Bench slot 0, R1). */
Test(snap, snap_10_9_a_swap_exchanges_the_active_monster_with_a_bench_monster)
{
    olverdict v = start_with("open", NULL, P1_PRIME_DECK);
    cr_assert_eq(v.status, OL_V_OK, "%s %s", v.rule, v.msg);
    for (size_t i = 0; i < 6; i++)
        ok(BASE[i]);
    ok(BASE[7]);   /* Magma Tortoise flipped */
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":\"a\"", "snap:10.9");
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":0", "snap:10.9");
    cr_assert_eq(st.side[0].swaps_used, 0);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "cor-magma-tortoise");
}

/* snap 10.8.1: "The target is normally the opponent's active Monster." --
 * never a monster of the attacking player. */
Test(snap, snap_10_8_1_an_attack_aims_at_a_monster_of_the_opponent)
{
    start(NULL);
    base(15);
    illegal_saying("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p1\",\"s\":1}",
                   "snap:10.8.1", "holds no monster of the opponent");
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}", "snap:10.8.1");
    cr_assert_eq(st.attacks_made, 0);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
}

/* snap 15.5: a Resonance Counter answers a Trigger; a Spell is no Trigger,
 * so it cannot target one (the Spell's seq is no Trigger's). */
Test(snap, snap_15_5_a_resonance_counter_does_not_answer_a_spell)
{
    whisper_game();
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");   /* 16 */
    illegal_saying("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":16}]",
                   "snap:15.5", "must target the Trigger being resolved");
    cr_assert_eq(st.n_chain, 1);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]");
}

/* snap 7.8: Eruption swaps "a chosen face-up bench monster of the
 * controller" in: not the opponent's monster, not the active one. */
Test(snap, snap_7_8_a_swap_spell_names_a_bench_monster_of_its_player)
{
    big_hand_opening(6);   /* Eruption is p1's sixth Support */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]", "snap:7.8");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]", "snap:7.8");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "cor-magma-tortoise", "swapped in");
    cr_assert_eq(st.side[0].active.mod, 1000, "then Eruption's +1000 for its own active monster");
    cr_assert_str_eq(st.side[0].bench[1].stack[0]->id, "cor-forge-golem");
}

/* snap 14.2: a Prime Singular waits in the Reserve until it is played; once
 * on the field (and replaced or defeated later), it is not played again. */
Test(snap, snap_14_2_a_prime_singular_is_played_once)
{
    nyxora_game();
    ok("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Nyxora destroyed Forge Golem */
    ok("\"type\":\"end\",\"by\":\"p2\"");
    for (size_t i = 22; i < 27; i++)
        ok(BASE[i]);   /* p1's Round 4; p2 unlocks */
    illegal_saying("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"",
                   "snap:14.2", "not a Prime Singular waiting in their Monster Reserve");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-nyxora-the-last-eclipse");
}

/* ---- chains whose monsters move or leave (15.4, A15) ----------------- */

/* No core Counter destroys a monster.  Three are rewritten: Void Denial
 * destroys a chosen face-up monster of the opponent (p2's), so does
 * Flashpoint Denial (p1's), and Death Grip destroys the attacker in place
 * of its -2000 (its prevent_draw stays). */
static void load_destroying_counters(void)
{
    char *text = core_text();
    text = replace_after(text, "\"id\": \"obs-void-denial\"", "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
                         "\"op\": \"destroy\", \"target\": \"opp_monster\"");
    text = replace_after(text, "\"id\": \"cor-flashpoint-denial\"",
                         "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
                         "\"op\": \"destroy\", \"target\": \"opp_monster\"");
    text = replace_after(text, "\"id\": \"obs-death-grip\"",
                         "\"op\": \"imp\",\n            \"target\": \"attacker\",\n            \"amount\": -2000",
                         "\"op\": \"destroy\", \"target\": \"attacker\"");
    load_core_text(text, "core-with-destroying-counters");
}

/* snap 15.4: "Chains resolve in last-in, first-out (LIFO) order." -- a
 * Counter that resolves first can take away the monster a Spell below it
 * names; that effect of the Spell then does nothing, its others resolve. */
Test(snap, snap_15_4_a_link_whose_monster_has_gone_does_nothing)
{
    load_destroying_counters();
    big_hand_opening(6);   /* Eruption: swap one of p1's Bench monsters in, then +1000 to p1's active */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* p1 answers nothing in Round 1 (R3): the chain resolves */
    cr_assert(!st.side[0].bench[1].present, "Magma Tortoise was destroyed first");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "cor-forge-golem", "nothing was swapped in");
    cr_assert_eq(st.side[0].active.mod, 1000, "Eruption's second effect resolved");
    /* the active monster destroyed first: no swap without one, no +1000 */
    big_hand_opening(6);   /* with the same database */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert(!st.side[0].active.present, "Forge Golem was destroyed first");
    cr_assert(st.side[0].bench[1].present, "Magma Tortoise stayed on the Bench");
    cr_assert_eq(st.side[0].bench[1].mod, 0);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* R4 */
    cr_assert_eq(st.side[0].active.mod, 0, "the +1000 found no active monster");
}

/* snap A15: "if before combat resolution the attacker is no longer the
 * active monster ... the attack fizzles without combat and counts as made" */
Test(snap, snap_a15_an_attacker_destroyed_before_combat_fights_no_combat)
{
    load_destroying_counters();
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* Forge Golem 3000, Crypt Rat 1800 */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* closes the window: Forge Golem was destroyed */
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_eq(st.side[1].lost, 0, "no combat: Crypt Rat was not fought");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-crypt-rat");
    cr_assert(st.side[0].prevent_next.draw, "Death Grip's second effect resolved");
    cr_assert_eq(st.step, STEP_SWAP, "the attack counts as made");
    /* a fizzle that resolves first ends the attack: Death Grip then finds
     * no attack in progress, and so no attacker to destroy */
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* fizzle */
    ok(BASE[15]);   /* p1 ends the turn: the chain resolves, LIFO */
    cr_assert_eq(st.side[0].lost, 0, "Forge Golem survives");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert(st.side[0].prevent.draw == 0 && st.side[0].prevent_next.draw, "p1's next turn is prevented");
}

/* snap A15: "... or the target has left the field ... the attack fizzles
 * without combat and counts as made" */
Test(snap, snap_a15_a_target_destroyed_before_combat_fights_no_combat)
{
    load_destroying_counters();
    start(NULL);
    base(15);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* no Blocker */
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    ok("\"type\":\"pass\",\"by\":\"p1\"");   /* both passed: the chain resolves, then the attack */
    cr_assert_eq(st.window, WIN_NONE);
    cr_assert_eq(st.side[1].lost, 1, "Crypt Rat was destroyed by the Counter");
    cr_assert_eq(st.side[0].lost, 0);
    cr_assert(!st.attack_on);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    cr_assert(st.side[1].active.present && st.side[1].lost == 1, "the promoted Grave Bat was not fought");
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.8.1");   /* made */
}


/* snap A30: a Trigger's choice is left out only when it has no candidate; a
 * player always exists, so a choice of player is always named (openlog 7).
 * No core Trigger chooses a player: Forge Colossus's [on entry] is given a
 * first effect, prevent_lock on a chosen player. */
Test(snap, snap_a30_a_trigger_choosing_a_player_always_names_one)
{
    load_core_text(replace_after(core_text(), "\"id\": \"cor-forge-colossus\"", "\"effects\": [",
                                 "\"effects\": [{\"op\": \"prevent_lock\", \"target\": \"player\"},"),
                   "core-with-a-trigger-on-a-player");
    colossus_game();
    illegal_saying("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]",
                   "openlog:7", "names 0 targets; its effects choose 1.");   /* not A30's "no candidate" */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[{\"p\":\"p2\"}]");
    ok(BASE[15]);   /* p1 ends the turn: the Trigger resolves */
    cr_assert(st.side[1].prevent.lock, "p2, the chosen player, locks nothing in the turn now begun");
    cr_assert(!st.side[0].prevent_next.lock);
}

/* openlog cards: a Counter names a card of the card database -- in a
 * Trigger's window too, before and after a Resonance Counter (where A20
 * refuses any Counter first). */
Test(snap, snap_openlog_cards_a_counter_is_a_card_of_the_database)
{
    resonance_game();
    illegal_saying("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-no-such-counter\",\"targets\":[]",
                   "openlog:cards", "obs-no-such-counter");
    cr_assert(!st.trig.negated);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":17}]");
    illegal_saying("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-no-such-counter\",\"targets\":[]",
                   "snap:A20", "p1 (alice) played a Counter after a Resonance Counter");
}

/* snap 15.4: a monster a later link has destroyed (LIFO: it resolves
 * first) is not destroyed again by the link below it, nor counted twice. */
Test(snap, snap_15_4_a_monster_destroyed_by_a_later_link_is_not_destroyed_again)
{
    load_destroying_counters();
    big_hand_opening(8);   /* with Meltdown and Flashpoint Denial, p1's seventh and eighth Supports */
    for (size_t i = 9; i < 15; i++)
        ok(BASE[i]);   /* p1 ends Round 1 without locking; Round 2: p1 has flipped Ash Sprite */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    ok("\"type\":\"pass\",\"by\":\"p1\"");   /* both passed: LIFO */
    cr_assert(!st.side[1].bench[1].present, "Flashpoint Denial destroyed Grave Bat");
    cr_assert_eq(st.side[1].lost, 1, "Meltdown found it gone: one defeat");
    cr_assert_eq(st.ol.n_defeated, 2, "Grave Bat and Magma Tortoise, once each");
    cr_assert_eq(st.side[0].lost, 1);
}

/* snap 14.3: a Prime Singular needs four monsters revealed "and" its
 * printed activation condition; with none printed (no core Prime has
 * none: Nyxora's is removed), the four suffice. */
Test(snap, snap_14_3_a_prime_singular_without_a_printed_condition)
{
    load_core_text(replace_after(core_text(), "\"id\": \"obs-nyxora-the-last-eclipse\"",
                                 "\"kind\": \"own_defeated_min\",\n          \"amount\": 1", "\"kind\": \"none\""),
                   "core-with-an-unconditional-prime");
    nyxora_start();
    for (size_t i = 0; i < 17; i++)
        if (i != 10)   /* p2 has no fifth monster */
            ok(BASE[i]);
    illegal("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"", "snap:14.3");   /* three revealed */
    for (size_t i = 17; i < 21; i++)
        ok(BASE[i]);   /* p2's Round 3 flip: four revealed */
    cr_assert_eq(st.side[1].lost, 0, "no monster of p2's has been defeated");
    ok("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-nyxora-the-last-eclipse");
}

/* snap 12.3: a swap "by an ability" exchanges a Bench monster with the
 * active one; the source of a `swap` on `self` that is already the active
 * monster has nothing to exchange.  No core monster swaps itself on entry:
 * Forge Colossus is given the Swap keyword and its [on entry] rewritten to. */
Test(snap, snap_12_3_a_self_swap_of_the_active_monster_does_nothing)
{
    char *text = replace_after(core_text(), "\"id\": \"cor-forge-colossus\"", "\"blocker\"", "\"blocker\", \"swap\"");
    text = replace_after(text, "\"id\": \"cor-forge-colossus\"",
                         "\"op\": \"imp\",\n                \"target\": \"opp_active\",\n                \"amount\": -500",
                         "\"op\": \"swap\", \"target\": \"self\"");
    load_core_text(text, "core-with-a-self-swapping-colossus");
    colossus_game();
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok(BASE[15]);   /* the Trigger resolves */
    cr_assert_str_eq(st.side[0].active.stack[1]->id, "cor-forge-colossus", "still the active monster");
    cr_assert_eq(st.n_fired, 0, "nothing entered the active slot");
    cr_assert_eq(st.side[0].swaps_used, 0);
}

/* ---- TOURNAMENT.md: what the tournament module reads from this engine ------------ */

/* T9: when both players concede, the first `concede` decides the game --
 * here p1's, in p2's turn -- and the second comes after the end: snap 3.4,
 * "the game ends immediately", with openlog 8's sentence.  It changes
 * nothing: p2 still wins. */
Test(snap, tournament_T9_first_concession_decides_and_second_is_illegal)
{
    int winner = -2;
    start(NULL);
    base(10);   /* Round 1, p2's turn */
    ok("\"type\":\"concede\",\"by\":\"p1\"");
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->finished(&st, &winner));
    cr_assert_eq(winner, 1, "p1 conceded first: p2 wins");
    illegal_saying("\"type\":\"concede\",\"by\":\"p2\"", "snap:3.4", "The game is over; no action may follow its end.");
    winner = -2;
    cr_assert(verifier_ops_of(OL_FORMAT_SNAP)->finished(&st, &winner));
    cr_assert_eq(winner, 1, "the second concession changes nothing");
}

/* T11: a game round is p1's turn and then p2's (snap 10.1); the count the
 * module reads as `rounds` (verifier_round) goes up with p2's `end` only --
 * not with p1's, and not with a claim or a ruling after p2's. */
Test(snap, tournament_T11_game_round_ends_with_player_2s_end)
{
    start(NULL);
    base(6);   /* setup */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1);
    for (size_t i = 6; i < 13; i++) {   /* p1's Round 1 through their end, then p2's until theirs */
        ok(BASE[i]);
        cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1, "after BASE[%zu]", i);
    }
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"before p2's end\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1);
    ok(BASE[13]);   /* p2's end */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 2);
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\""), OL_V_MISMATCH, "snap:A5");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"warning\",\"player\":\"p1\",\"text\":\"Slow play.\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 2, "claims and rulings after p2's end count for nothing");
    ok(BASE[14]);
    ok(BASE[15]);   /* p1's end */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 2);
    ok(BASE[16]);
    ok(BASE[17]);   /* p2's end */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 3);
}

/* T11: setup belongs to game round 1.  The engine keeps Round 1 from the
 * header on (st.round) and shows the module 0 until setup is done
 * (verifier.h: "0 before setup is done"), which src/tournament/tourrec.c counts as
 * game round 1; setup (8.3, 8.5) ends no round, so the promotions (R4)
 * and p1's first turn are Round 1, not 2, up to p2's end. */
Test(snap, tournament_T11_setup_is_in_game_round_1)
{
    start(NULL);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 0);
    for (size_t i = 0; i < 3; i++) {   /* the Benches, p1's selection */
        ok(BASE[i]);
        cr_assert_eq(st.round, 1, "after BASE[%zu]", i);
        cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 0, "after BASE[%zu]: setup is not done", i);
    }
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"in setup\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 0);
    ok(BASE[3]);   /* p2's selection: setup is done */
    cr_assert(st.setup_done);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1);
    for (size_t i = 4; i < 10; i++) {   /* the promotions (R4), p1's first turn through their end */
        ok(BASE[i]);
        cr_assert_eq(verifier_ops_of(OL_FORMAT_SNAP)->round(&st), 1, "after BASE[%zu]", i);
    }
}

/* T17: a header with an illegal deck (snap 4.1) or naming another card
 * database (openlog:cards, src/core/verify.c) starts no game.  Its verdict is
 * illegal -- what src/tournament/tourrec.c turns into TOUR_REC_NO_GAME -- every later
 * event is illegal, and the record is neither finished nor in a round. */
Test(snap, tournament_T17_illegal_header_starts_no_game)
{
    char header[8192], bench[4096];
    const char *const texts[] = {header, bench};
    event_text(bench, sizeof bench, 1, 0, BASE[0]);
    start(NULL);   /* loads db */

    header_text(header, sizeof header, "open", NULL, "{\"monsters\":[\"cor-forge-golem\"],\"supports\":[],\"reserve\":[]}",
                P2_DECK);
    verify_session *s = judge_texts(db, texts, 2);
    cr_assert_not_null(s);
    const verify_report *r = verify_session_report(s);
    cr_assert_eq(r->n_verdicts, 2);
    expect(r->verdicts[0].v, OL_V_ILLEGAL, "snap:4.1");
    expect(r->verdicts[1].v, OL_V_ILLEGAL, "snap:8.1");
    cr_assert(!r->finished && r->winner == -1, "no game, so no end and no winner");
    cr_assert_not_null(verify_session_verifier(s));
    cr_assert_eq(verifier_round(verify_session_verifier(s)), 0);
    verify_session_destroy(&s);

    header_text(header, sizeof header, "open", NULL, P1_DECK, P2_DECK);
    cr_assert_eq(name_other_cards(header), 0);
    s = judge_texts(db, texts, 2);
    cr_assert_not_null(s);
    r = verify_session_report(s);
    cr_assert_eq(r->n_verdicts, 2);
    expect(r->verdicts[0].v, OL_V_ILLEGAL, "openlog:cards");
    expect(r->verdicts[1].v, OL_V_ILLEGAL, "openlog:cards");
    cr_assert(!r->finished && r->winner == -1);
    cr_assert_null(verify_session_verifier(s), "no engine was started");
    verify_session_destroy(&s);
}

/* T44: an optional action after its timing cannot be made (TR 153).  p1
 * forgot Kindle Fury in Round 2's Spell Phase and plays it in the Swap
 * Phase: illegal (snap 6.2), and it changes nothing (R12).  A mandatory
 * step is owed, never missed (A10): the Unlock Step p1 passed over in
 * Round 4 is still theirs to take. */
Test(snap, tournament_T44_late_action_makes_the_record_illegal)
{
    start(NULL);
    base(15);   /* Round 2: p1 has flipped */
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
    uint8_t hand = st.side[0].n_hand;
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]",
            "snap:6.2");
    cr_assert_eq(st.side[0].n_hand, hand, "Kindle Fury stays in p1's hand");
    cr_assert_eq(st.side[0].active.mod, 0);
    for (size_t i = 15; i < 22; i++)
        ok(BASE[i]);   /* the game goes on to Round 4 */
    illegal(BASE[23], "snap:10.2");   /* the flip passes over the owed unlock */
    ok(BASE[22]);                     /* which is still owed */
    ok(BASE[23]);
}
