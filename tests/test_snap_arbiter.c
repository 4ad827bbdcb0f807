/* test_snap_arbiter.c -- the Snap engine, arbiter's own rulings (A1-A36).
 *
 * One or more tests per ruling A1-A36 of verifiers/snap/RULINGS.md (the
 * rulings arbiter made where snap.md is silent or contradicts itself),
 * named snap_<id>_<what> as its **Tests:** line lists them.  A ruling
 * that forbids something is broken and the verdict must cite it; a ruling
 * that decides an outcome is checked on the state after legal events.
 * R1-R12 (the project's rulings of snap-rulings.md) are in
 * test_snap_rulings.c; the scripted game and helpers in tests/snapscript.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/carddb.h"
#include "tests/snapscript.h"
#include "tests/testutil.h"
#include "verifiers/snap/snap.h"

/* ---- shared scenarios ------------------------------------------------- */

/* P1_DECK's supports, for the custom decks below. */
#define P1_SUPPORTS                                                                                       \
    "\"supports\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\","                   \
    "\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-eruption\",\"cor-meltdown\",\"cor-flashpoint-denial\","  \
    "\"cor-resonant-flare\",\"cor-backdraft\",\"cor-firewall\",\"cor-smolder-trap\",\"flx-undertow\","       \
    "\"flx-riptide-shift\",\"flx-ebb-and-flow\",\"flx-frozen-moment\",\"flx-deep-current\",\"flx-wave-break\"," \
    "\"flx-echoing-surge\",\"flx-misdirecting-fog\"]"
#define P2_SUPPORTS                                                                                       \
    "\"supports\":[\"obs-night-terror\",\"obs-soul-siphon\",\"obs-shadow-step\","                          \
    "\"obs-curse-of-silence\",\"obs-grave-whisper\",\"obs-eclipse-ritual\",\"obs-soul-reap\",\"obs-void-denial\"," \
    "\"obs-dissonant-whisper\",\"obs-umbral-decoy\",\"obs-dark-mirror\",\"obs-death-grip\",\"aet-radiant-blessing\"," \
    "\"aet-judgement-ray\",\"aet-skyward-shift\",\"aet-clarity\",\"aet-sanctuary-seal\",\"aet-ward-of-silence\"," \
    "\"aet-resonant-choir\",\"aet-gale-diversion\"]"

/* P1 with Ember Whelp (whose line ends in the Prime Evolution Ember
 * Sovereign) in place of Forge Golem: promoted at setup, it is the active
 * monster. */
#define P1_EMBER_DECK                                                                                     \
    "{\"monsters\":[\"cor-ember-whelp\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","    \
    "\"flx-frost-skimmer\"]," P1_SUPPORTS ",\"reserve\":[\"cor-ember-drake\",\"cor-ember-sovereign\"]}"

/* P1 with Pyre Acolyte ([on entry]: the opponent's next Unlock Step unlocks
 * nothing) in place of Magma Tortoise. */
#define P1_ACOLYTE_DECK                                                                                   \
    "{\"monsters\":[\"cor-pyre-acolyte\",\"cor-forge-golem\",\"cor-ash-sprite\",\"flx-current-eel\","      \
    "\"flx-frost-skimmer\"]," P1_SUPPORTS ",\"reserve\":[\"cor-forge-colossus\"]}"

/* P1 with the Prime Singular Maelstrom (condition: one opponent's monster
 * defeated; [on entry]: destroy the opponent's active monster) in place of
 * the fifth monster: no fifth waits (R1). */
#define P1_MAELSTROM_DECK                                                                                 \
    "{\"monsters\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","   \
    "\"flx-maelstrom-heart-of-the-deep\"]," P1_SUPPORTS                                                   \
    ",\"reserve\":[\"cor-forge-colossus\",\"flx-maelstrom-heart-of-the-deep\"]}"

/* P2 with Veil Assassin ([on entry]: the opponent's next Unlock Step
 * unlocks nothing) in place of Wraith Sentry, benched in slot 2. */
#define P2_VEIL_DECK                                                                                      \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-veil-assassin\",\"aet-cloud-monk\","         \
    "\"aet-aether-kite\"]," P2_SUPPORTS ",\"reserve\":[\"obs-grave-vampire\"]}"
#define P2_VEIL_BENCH                                                                                     \
    "\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-veil-assassin\"," \
    "\"aet-cloud-monk\"]"
#define P2_VEIL_FLIP "\"type\":\"flip\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-veil-assassin\""

/* P2 with the Prime Singular Aurelion (condition: two of the opponent's
 * monsters defeated) in place of the fifth monster, Aether Kite. */
#define P2_AURELION_DECK                                                                                  \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-wraith-sentry\",\"aet-cloud-monk\","         \
    "\"aet-aurelion-the-dawn-unbound\"]," P2_SUPPORTS                                                     \
    ",\"reserve\":[\"obs-grave-vampire\",\"aet-aurelion-the-dawn-unbound\"]}"

#define ATTACK_P2_ACTIVE "\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}"
#define END_P1 "\"type\":\"end\",\"by\":\"p1\""

/* Round 1 with the round1_attacks lever (18.5): p1's active monster is Ash
 * Sprite (Overdrive, 1000), Forge Golem is flipped face-up in Bench slot 1;
 * p2's active is Crypt Rat (1800), all of p2's Bench is face-down. */
static void ash_sprite_opening(const char *rules)
{
    start(rules);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ash-sprite\",\"cor-forge-golem\",\"cor-magma-tortoise\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ash-sprite\"");
    ok(BASE[5]);
    ok(BASE[6]);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-golem\"");
}

static const char *fired_id(int i)
{
    return st.fired[i].card ? st.fired[i].card->id : "(none)";
}

/* ---- A1: an Evolution fires [on entry] -------------------------------- */

/* snap A1: "An Evolution card's [on entry] trigger fires when the Evolution is placed on the monster" */
Test(snap, snap_a1_evolution_fires_on_entry)
{
    start(NULL);
    base(15);
    cr_assert_eq(st.n_fired, 0);
    /* Forge Golem evolves in the active slot, where no promotion will ever fire it */
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(st.n_fired, 1, "A1: Forge Colossus's [on entry] fires as it is placed");
    cr_assert_str_eq(fired_id(0), "cor-forge-colossus");
    cr_assert_eq(st.fired[0].player, 0);
    cr_assert(st.fired[0].slot_is_active);
    cr_assert_eq(st.fired[0].ability, 0);
    cr_assert_eq(st.side[0].active.depth, 2, "the stack is the same monster");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");   /* closes the Trigger's window (A3) */
    cr_assert_eq(st.side[1].active.mod, -500, "the Trigger resolved: -500 on p2's active monster");
}

/* snap A1: "An Evolution card's [on entry] trigger fires when the Evolution is placed on the monster ... a Prime Evolution likewise." */
Test(snap, snap_a1_prime_evolution_fires_on_entry)
{
    olverdict v = start_decks("open", NULL, P1_EMBER_DECK, P2_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ember-whelp\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\"");
    cr_assert_eq(st.n_fired, 0, "Ember Whelp has only an [on reveal] (R4: a promotion fires [on entry])");
    for (size_t i = 5; i < 15; i++)
        ok(BASE[i]);
    /* Round 2: Ember Whelp -> Ember Drake (no Trigger) */
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-ember-drake\"");
    cr_assert_eq(st.n_fired, 0);
    for (size_t i = 15; i < 19; i++)
        ok(BASE[i]);
    /* Round 3: Ember Drake -> Ember Sovereign, the Prime Evolution */
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-ember-sovereign\"");
    cr_assert_eq(st.side[0].active.depth, 3);
    cr_assert_eq(st.n_fired, 1, "A1: Ember Sovereign's [on entry] fires as it is placed");
    cr_assert_str_eq(fired_id(0), "cor-ember-sovereign");
    cr_assert(st.fired[0].slot_is_active);
    /* its effect destroys a face-up Bench monster of the opponent: Grave Bat */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,"
       "\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    cr_assert(st.side[1].bench[1].present, "the Trigger waits for its window to close (A3)");
    ok(END_P1);
    cr_assert(!st.side[1].bench[1].present, "the Trigger resolved");
    cr_assert_eq(st.side[1].lost, 1);
}

/* ---- A2: an Evolution in the Attack Phase ------------------------------ */

/* snap A2: "An `evolve` that arrives while a Blocker or Counter Window is open closes that window first (A26), so the attack's combat is fought before the Evolution is judged" */
Test(snap, snap_a2_evolve_in_counter_window_comes_after_combat)
{
    start(NULL);
    base(15);
    ok(ATTACK_P2_ACTIVE);                                 /* Forge Golem 3000 */
    ok("\"type\":\"block\",\"by\":\"p2\",\"slot\":1");    /* Grave Bat 3300 */
    cr_assert_eq(st.window, WIN_COUNTER);
    /* Inside the window, Forge Colossus (6000) would win the combat.  The
     * evolve closes the window by arriving (A26): the combat is fought
     * first, Forge Golem loses, and the evolve meets an empty active slot. */
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"", "snap:R4");
    cr_assert_eq(st.window, WIN_NONE);
    cr_assert(!st.side[0].active.present, "A2: the combat was fought before the Evolution");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert(st.side[1].bench[1].present, "Grave Bat survives");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert(!st.evolved && !st.side[0].reserve_used[0], "the Evolution was not performed");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    ok(END_P1);
}

/* ---- A4: the first promotions ------------------------------------------ */

/* snap A4: "p1, then p2, promotes one Bench monster, flipping it as it is promoted, before the first turn of Round 1, and each promotion is followed by the announcements of its [on entry] triggers" */
Test(snap, snap_a4_setup_promotions_p1_then_p2)
{
    olverdict v = start_decks("open", NULL, P1_ACOLYTE_DECK, P2_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-pyre-acolyte\",\"cor-forge-golem\",\"cor-ash-sprite\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 4; i++)
        ok(BASE[i]);
    cr_assert(st.setup_done);
    cr_assert(st.side[0].promote_due && st.side[1].promote_due, "both active slots are empty");
    /* no turn event before the promotions */
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-forge-golem\"", "snap:R4");
    illegal(BASE[5], "snap:A4");   /* p1 promotes first */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-pyre-acolyte\"");
    cr_assert(st.side[0].active.face_up, "flipped as it is promoted");
    cr_assert_eq(st.side[0].revealed, 1);
    cr_assert_eq(st.n_fired, 1, "Pyre Acolyte's [on entry] fires");
    illegal(BASE[5], "snap:10.4");   /* p1's Trigger is announced before p2 promotes */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok(BASE[5]);
    cr_assert(st.side[1].prevent_next.unlock, "p1's Trigger resolved before p2's promotion");
    cr_assert(st.side[1].active.face_up);
    cr_assert_eq(st.side[1].revealed, 1);
    cr_assert_eq(st.round, 1, "all before the first turn of Round 1");
    cr_assert_eq(st.turn, 0);
    cr_assert_eq(st.step, STEP_UNLOCK);
    ok(BASE[6]);
}

/* snap A4: "p1, then p2, promotes ... before the first turn of Round 1" --
 * only then.  When later both active slots are empty at once, either player
 * may promote first (R4).  No core card empties both: Kindle Fury and Night
 * Terror are rewritten to destroy the opponent's active monster, then a
 * chosen monster (here their own player's active one). */
Test(snap, snap_a4_p1_promotes_first_only_before_the_first_turn)
{
    char *text = core_text();
    for (int i = 0; i < 2; i++)
        text = replace_after(text, i ? "\"id\": \"obs-night-terror\"" : "\"id\": \"cor-kindle-fury\"",
                             "\"op\": \"imp\",\n            \"target\": \"own_monster\",\n            \"amount\": 1500",
                             "\"op\": \"destroy\", \"target\": \"opp_active\"}, {\"op\": \"destroy\", \"target\": \"monster\"");
    load_core_text(text, "core-with-double-destroy-spells");
    /* Round 1, p1's turn, after the Flip Step */
    start(NULL);
    base(8);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert(st.side[0].promote_due && st.side[1].promote_due, "both active slots are empty");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    cr_assert(!st.side[0].promote_due && !st.side[1].promote_due);
    /* Round 1, p2's turn */
    start(NULL);
    base(12);
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* closes the window: both fall */
    cr_assert(st.side[0].promote_due, "p1 promotes after p2");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    /* Round 2 */
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":2");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_eq(st.side[1].lost, 1);
}

/* ---- A5: claims --------------------------------------------------------- */

/* Ash Sprite (2500 with Kindle Fury) defeats Crypt Rat; p2 promotes Grave
 * Bat (3300); Ash Sprite's Overdrive attack loses to it; p1 promotes Forge
 * Golem.  No claim in between. */
static void two_combats(void)
{
    ash_sprite_opening("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    cr_assert_eq(st.side[1].lost, 1, "Crypt Rat fell in p2's active slot");
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    cr_assert_eq(st.side[0].lost, 1, "Ash Sprite fell in p1's active slot");
}

/* snap A5: "A claim of defeated monsters is compared with the monsters the engine has defeated since the previous claim or since the last combat or effect resolution, whichever is later, at the positions they held just before removal" */
Test(snap, snap_a5_claim_defeated_matches)
{
    two_combats();
    /* the latest resolution is the second combat: only Ash Sprite, at p1's
     * active slot (now Forge Golem's) */
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    cr_assert_eq(st.ol.n_defeated, 0, "the claim starts a new account");
}

/* snap A5: "A claim of defeated monsters is compared with the monsters the engine has defeated since the previous claim or since the last combat or effect resolution, whichever is later" */
Test(snap, snap_a5_claim_defeated_mismatch)
{
    two_combats();
    /* both combats: the first was before the latest resolution */
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":\"a\"},{\"p\":\"p1\",\"s\":\"a\"}]"),
           OL_V_MISMATCH, "snap:A5");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":\"a\"}]"), OL_V_MISMATCH, "snap:A5");
    /* the right monster at another position */
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":1}]"), OL_V_MISMATCH, "snap:A5");
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    /* and since that claim, nothing */
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]"), OL_V_MISMATCH, "snap:A5");
}

/* snap A5: a claim "is compared with the monsters the engine has defeated":
 * each defeat once, in any order */
Test(snap, snap_a5_a_claim_names_each_defeat_once)
{
    /* Meltdown rewritten to destroy two of the opponent's face-up Bench monsters */
    load_core_text(replace_after(core_text(), "\"id\": \"cor-meltdown\"", "\"effects\": [",
                                 "\"effects\": [{\"op\": \"destroy\", \"target\": \"opp_bench\"},"),
                   "core-with-double-meltdown");
    start(NULL);
    base(30);   /* Round 5 */
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":2,\"card\":\"cor-meltdown\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":1}]");
    /* the claim closes the window: Meltdown defeats p2's Bench 0 and Bench 1 */
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":0}]"),
           OL_V_MISMATCH, "snap:A5");
    cr_assert_eq(st.side[1].lost, 2);
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":1},{\"p\":\"p2\",\"s\":0}]");
}

/* ---- A6: the shot clock --------------------------------------------------- */

/* snap A6: "The shot clock is measured between consecutive events that both carry `t`" */
Test(snap, snap_a6_no_t_no_warning)
{
    start(NULL);
    base(7);
    olverdict v = play_t("\"type\":\"pass\",\"by\":\"p1\"", 1000000);
    cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
    /* an event without t is never timed, however late it may be */
    v = play("\"type\":\"pass\",\"by\":\"p1\"");
    cr_assert_eq(v.status, OL_V_OK, "%s %s", v.rule, v.msg);
    /* 60 s after the last timed event, but its predecessor carries no t */
    v = play_t("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"", 1000000 + 60000);
    cr_assert_eq(v.status, OL_V_OK, "A6: no gap to measure: %s %s", v.rule, v.msg);
    /* two consecutive timed events are measured */
    v = play_t(BASE[8], 1000000 + 60000 + 31000);
    expect(v, OL_V_WARNING, "snap:16.1");
}

/* snap A6: under R6 the gap before an event includes a window that closed
 * by silence; the warning names the player who announced the late event */
Test(snap, snap_a6_the_gap_includes_a_window_closed_by_silence)
{
    start(NULL);
    base(15);
    olverdict v = play_t(ATTACK_P2_ACTIVE, 1000000);
    cr_assert_eq(v.status, OL_V_OK, "%s %s", v.rule, v.msg);
    /* nobody answers the attack; 45 s later p2 promotes after the combat */
    v = play_t("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1", 1000000 + 45000);
    expect(v, OL_V_WARNING, "snap:16.1");
    cr_assert(strstr(v.msg, "p2 (bob)") && !strstr(v.msg, "p1 (alice)"), "%s", v.msg);
    cr_assert_eq(st.side[1].lost, 1, "a warning is applied");
}

/* ---- A8: what "draw" means for effects ----------------------------------- */

#define STOKE "\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-stoke-the-forge\",\"targets\":[]"
#define SELECT_TWO "\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\",\"cor-firewall\"]"

/* snap A8: "draw prevention (9.8) stops it" */
Test(snap, snap_a8_select_prevented_by_draw_prevention)
{
    start(NULL);
    base(15);
    /* Round 2: Death Grip answers p1's attack: -2000 for the combat, and p1
     * is prevented from drawing in their next turn (A28) */
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem 1000 lost to Crypt Rat 1800 */
    ok(END_P1);
    for (size_t i = 16; i < 19; i++)
        ok(BASE[i]);   /* Round 3: p1 has flipped */
    cr_assert(st.side[0].prevent.draw);
    ok(STOKE);   /* select 2 */
    illegal(SELECT_TWO, "snap:9.8");
    cr_assert_eq(st.window, WIN_NONE, "the chain resolved (A26)");
    cr_assert_eq(st.side[0].select_due, 0, "A8: the prevented selection is not owed");
    cr_assert_eq(st.side[0].n_hand, 4, "five opening Supports, Stoke the Forge played");
    ok(END_P1);   /* nothing is owed */
}

/* snap A8: "its controller chooses that many cards from their Support Deck
 * (all of them, when fewer remain)" */
Test(snap, snap_a8_a_selection_takes_exactly_what_the_effect_gives)
{
    /* p1 opens with 17 Supports: three remain, Stoke the Forge gives two */
    big_hand_opening(17);
    ok(STOKE);
    illegal("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"flx-wave-break\",\"flx-echoing-surge\",\"flx-misdirecting-fog\"]",
            "snap:A8");
    illegal("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"flx-wave-break\"]", "snap:A8");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"flx-wave-break\",\"flx-echoing-surge\"]");
    cr_assert_eq(st.side[0].n_hand, 16 + 2);
    /* p1 opens with 19: one remains, and the same effect gives all of it */
    big_hand_opening(19);
    ok(STOKE);
    illegal(END_P1, "snap:9.1");
    cr_assert_eq(st.side[0].select_due, 1, "A8: all of them, when fewer remain");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"flx-misdirecting-fog\"]");
    ok(END_P1);
}

/* snap A8: "draw prevention (9.8) stops it, the Lock Freeze (9.4) does not" */
Test(snap, snap_a8_select_allowed_in_lock_freeze)
{
    start(NULL);
    base(15);
    cr_assert_eq(st.round, 2, "Round 2 is in the Lock Freeze");
    ok(STOKE);
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    ok(SELECT_TWO);
    cr_assert_eq(st.side[0].n_hand, 6, "4 after the Spell, +2 selected");
    cr_assert_eq(st.side[0].select_due, 0);
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-eruption\"]", "snap:9.4");   /* locking still is frozen */
    ok(END_P1);
}

/* ---- A10: mandatory steps are owed ---------------------------------------- */

/* P2_VEIL_DECK through Round 3: p2 swaps Veil Assassin into the active slot
 * in Round 3, so p1 cannot unlock in Round 4 (A28). */
static void veil_game_through_round_3(void)
{
    olverdict v = start_decks("open", NULL, P1_DECK, P2_VEIL_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 22; i++) {
        if (i == 21) {
            ok("\"type\":\"swap\",\"by\":\"p2\",\"slot\":2");
            ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
        }
        ok(i == 1 ? P2_VEIL_BENCH : i == 16 ? P2_VEIL_FLIP : BASE[i]);
    }
}

/* snap A10: "A Standard Lock-in is owed only from Round 4 (R8), while the player has fewer than three Locked Supports (§9.7)" */
Test(snap, snap_a10_no_lock_owed_with_three_locked)
{
    veil_game_through_round_3();
    cr_assert_eq(st.round, 4);
    cr_assert(st.side[0].prevent.unlock, "Veil Assassin's [on entry] prevents p1's unlock");
    cr_assert_eq(st.side[0].n_locked, 3);
    illegal(BASE[22], "snap:9.8");
    ok(BASE[23]);   /* flip */
    illegal(BASE[24], "snap:9.7");
    ok(END_P1);     /* A10: with three Locked Supports, no Standard Lock-in is owed */
    cr_assert_eq(st.turn, 1);
}

/* ---- A11: class-binding is checked when the card is played ----------------- */

/* snap A11: "Class-binding (6.2, 6.3) is checked when the Spell or Counter is played ... losing that monster afterwards does not stop the card." */
Test(snap, snap_a11_class_monster_defeated_spell_still_resolves)
{
    /* No core Counter destroys a monster: Void Denial is rewritten to destroy
     * a face-up Bench monster of the opponent. */
    load_core_text(replace_after(core_text(), "\"id\": \"obs-void-denial\"",
                                 "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
                                 "\"op\": \"destroy\", \"target\": \"opp_bench\""),
                   "core-with-destroy-counter");
    start(NULL);
    base(19);   /* Round 3: p1's only face-up Fluxion monster is Current Eel, Bench slot 3 */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"flx-riptide-shift\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"p\":\"p1\",\"s\":3}]");
    ok(ATTACK_P2_ACTIVE);   /* closes the window: the chain resolves LIFO */
    cr_assert(!st.side[0].bench[3].present, "Current Eel was destroyed first");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_eq(st.side[1].active.mod, -1500, "A11: Riptide Shift resolved without a Fluxion monster");
}

/* ---- A12: when [on entry] and [on reveal] fire ----------------------------- */

/* snap A12: "[on entry] fires whenever a monster comes into the active slot by any means (a promotion, the Swap Phase, ...)" */
Test(snap, snap_a12_swap_phase_fires_on_entry)
{
    olverdict v = start_decks("open", NULL, P1_DECK, P2_VEIL_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 16; i++)
        ok(i == 1 ? P2_VEIL_BENCH : BASE[i]);
    ok(P2_VEIL_FLIP);
    cr_assert_eq(st.n_fired, 0, "A12: Veil Assassin has no [on reveal]; a flip fires no [on entry]");
    ok("\"type\":\"swap\",\"by\":\"p2\",\"slot\":2");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-veil-assassin");
    cr_assert_eq(st.n_fired, 1, "A12: the Swap Phase brought it into the active slot");
    cr_assert_str_eq(fired_id(0), "obs-veil-assassin");
    cr_assert_eq(st.fired[0].player, 1);
    cr_assert(st.fired[0].slot_is_active);
    illegal("\"type\":\"end\",\"by\":\"p2\"", "snap:10.4");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"end\",\"by\":\"p2\"");
    cr_assert(st.side[0].prevent.unlock, "the Trigger resolved on p1, for p1's turn now begun");
}

/* snap A12: "[on entry] fires whenever a monster comes into the active slot by any means (..., a Prime Singular's entry)" */
Test(snap, snap_a12_prime_singular_fires_on_entry)
{
    olverdict v = start_decks("open", NULL, P1_MAELSTROM_DECK, P2_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 15; i++)
        if (i != 6)   /* no fifth monster */
            ok(BASE[i]);
    /* Round 2: Forge Golem defeats Crypt Rat (Maelstrom's condition) */
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    cr_assert_eq(st.side[1].lost, 1);
    for (size_t i = 15; i < 19; i++)
        ok(BASE[i]);
    /* Round 3: four monsters revealed */
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"");
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "flx-maelstrom-heart-of-the-deep");
    cr_assert_eq(st.n_fired, 1, "A12: a Prime Singular's entry fires its [on entry]");
    cr_assert_str_eq(fired_id(0), "flx-maelstrom-heart-of-the-deep");
    cr_assert(st.fired[0].slot_is_active);
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    /* p2's promotion closes the window: Grave Bat, p2's active monster, was destroyed */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2");
    cr_assert_eq(st.side[1].lost, 2);
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-wraith-sentry");
}

/* ---- A13: the fifth monster's timing -------------------------------------- */

/* snap A13: "its `bench` event may come before or after that turn's Flip Step" -- placed before, "§10.3 lets ... its controller flip" it */
Test(snap, snap_a13_fifth_monster_can_be_flipped_round1)
{
    start(NULL);
    base(7);   /* Frost Skimmer, the fifth, placed face-down in Bench slot 0 */
    cr_assert(!st.side[0].fifth_waiting && !st.side[0].bench[0].face_up);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"");
    cr_assert(st.side[0].bench[0].face_up);
    cr_assert_str_eq(st.side[0].bench[0].stack[0]->id, "flx-frost-skimmer");
    cr_assert_eq(st.side[0].revealed, 2);
    cr_assert(!st.side[0].bench[1].face_up, "exactly one flip: Magma Tortoise stays face-down");
    ok(BASE[8]);
    ok(BASE[9]);
}

/* ---- A14: Overdrive after a fizzle ------------------------------------------ */

/* snap A14: "a first attack that fizzled still counts as made, so the additional attack remains available" */
Test(snap, snap_a14_overdrive_after_fizzle)
{
    ash_sprite_opening("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* fizzle */
    ok(ATTACK_P2_ACTIVE);   /* A14: Overdrive's additional attack */
    cr_assert_eq(st.side[1].lost, 0, "the first attack fizzled without combat");
    cr_assert_eq(st.attacks_made, 2);
    cr_assert_eq(st.window, WIN_BLOCKER);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    cr_assert_eq(st.side[1].lost, 1, "the second attack was fought: 2500 against 1800");
    illegal(ATTACK_P2_ACTIVE, "snap:11.7");
}

/* ---- A17: modifiers follow their monster ------------------------------------ */

/* snap A17: "A temporary IMP modifier belongs to the monster it was given to, not to its slot: it follows the monster when it moves between the Bench and the active slot" */
Test(snap, snap_a17_modifier_follows_swapped_monster)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":2}]");   /* Ash Sprite */
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":2");
    cr_assert_str_eq(st.side[0].active.stack[0]->id, "cor-ash-sprite");
    cr_assert_eq(st.side[0].active.mod, 1500, "A17: the modifier came along to the active slot");
    cr_assert_str_eq(st.side[0].bench[2].stack[0]->id, "cor-forge-golem");
    cr_assert_eq(st.side[0].bench[2].mod, 0, "A17: the Bench slot keeps nothing");
    ok(END_P1);
    cr_assert_eq(st.side[0].active.mod, 0, "and it ends with the turn");
}

/* snap A17: "it follows the monster ... when it evolves (A1)" */
Test(snap, snap_a17_modifier_survives_evolution)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(st.side[0].active.depth, 2);
    cr_assert_str_eq(st.side[0].active.stack[1]->id, "cor-forge-colossus");
    cr_assert_eq(st.side[0].active.mod, 1500, "A17: the evolved stack is the same monster");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");   /* Colossus goes to the Bench, still +1500 */
    cr_assert_eq(st.side[0].bench[1].mod, 1500);
    cr_assert_eq(st.side[0].active.mod, 0);
}

/* ---- A18: no IMP floor -------------------------------------------------------- */

/* snap A18: "combat compares the final values as they are, even at or below zero; there is no floor" */
Test(snap, snap_a18_negative_imp_compared_as_is)
{
    ash_sprite_opening("\"rules\":{\"round1_attacks\":true}");
    /* Crypt Rat 1800 - 2500 = -700 */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok(ATTACK_P2_ACTIVE);
    cr_assert_eq(st.side[1].active.mod, -2500);
    /* Ash Sprite 1000 - 2000 = -1000 */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    /* -1000 against -700: with a floor both would be 0, a tie */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
    cr_assert_eq(st.side[0].lost, 1, "A18: -1000 loses to -700");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-crypt-rat");
}

/* ---- A19: what "a single chain" is ---------------------------------------------- */

/* snap A19: "All Counters played in one window form one chain: ... the Counter Window of one attack (each attack of an Overdrive has its own)" */
Test(snap, snap_a19_overdrive_second_attack_new_chain)
{
    ash_sprite_opening("\"rules\":{\"round1_attacks\":true,\"chain_cap\":1}");
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* p2's one Counter */
    cr_assert_eq(st.chain_count[1], 1);
    ok(ATTACK_P2_ACTIVE);   /* the additional attack (A14): a new window */
    uint64_t grip = seq;
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");   /* A19: a new chain */
    char body[256];
    snprintf(body, sizeof body, "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":%llu}]",
             (unsigned long long)grip);
    illegal(body, "snap:15.3");   /* but the cap binds within it */
}

/* ---- A21: a replaced monster is not defeated ------------------------------------ */

/* snap A21: "A monster replaced by a Prime Singular goes to the Graveyard with its whole stack but is not defeated: it does not count toward conditions on defeated monsters and is not part of a claim's `defeated` list (A5)." */
Test(snap, snap_a21_replaced_monster_not_defeated)
{
    olverdict v = start_decks("open", NULL, P1_MAELSTROM_DECK, P2_AURELION_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 15; i++)
        if (i != 6 && i != 10)   /* neither lineup has a fifth monster */
            ok(BASE[i]);
    /* Round 2: Forge Golem defeats Crypt Rat; Grave Bat (3300) then defeats Forge Golem */
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    ok(BASE[15]);
    ok(BASE[16]);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Magma Tortoise */
    cr_assert_eq(st.side[0].lost, 1);
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok(BASE[17]);
    /* Round 3: Maelstrom replaces Magma Tortoise */
    ok(BASE[18]);
    uint8_t grave = st.side[0].n_grave;
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"");
    cr_assert_eq(st.side[0].n_grave, grave + 1, "the replaced monster is in the Graveyard");
    cr_assert_str_eq(st.side[0].grave[grave]->id, "cor-magma-tortoise");
    cr_assert_eq(st.side[0].lost, 1, "A21: it is not defeated");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]"), OL_V_MISMATCH,
           "snap:A5");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2");   /* Grave Bat was destroyed */
    ok(END_P1);
    ok(BASE[20]);   /* p2's fourth monster revealed */
    /* Aurelion needs two of p1's monsters defeated: only Forge Golem was */
    illegal("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"aet-aurelion-the-dawn-unbound\"", "snap:14.3");
}

/* ---- A22: effects one at a time, a win check after each ---------------------------- */

/* Three rewritten Supports of p1: Meltdown destroys four face-up Bench
 * monsters of the opponent; Searing Brand destroys the opponent's active
 * monster, then gives p1's active monster +1000; the Counter Flashpoint
 * Denial destroys a chosen face-up monster of the opponent. */
static void load_destroying_cards(void)
{
    static const core_edit edits[] = {
        {"\"id\": \"cor-meltdown\"", "\"effects\": [",
         "\"effects\": [{\"op\": \"destroy\", \"target\": \"opp_bench\"}, {\"op\": \"destroy\", "
         "\"target\": \"opp_bench\"}, {\"op\": \"destroy\", \"target\": \"opp_bench\"},"},
        {"\"id\": \"cor-searing-brand\"",
         "\"op\": \"imp\",\n            \"target\": \"opp_monster\",\n            \"amount\": -2500",
         "\"op\": \"destroy\", \"target\": \"opp_active\"}, {\"op\": \"imp\", \"target\": "
         "\"own_active\", \"amount\": 1000"},
        {"\"id\": \"cor-flashpoint-denial\"", "\"op\": \"negate\",\n            \"target\": \"chain_link\"",
         "\"op\": \"destroy\", \"target\": \"opp_monster\""},
    };
    load_core_edited("core-with-destroy-spells", edits, sizeof edits / sizeof edits[0]);
}

/* snap A22: "the win condition (3.1, R5) is checked after each effect, each chain link and each combat; the first time it is met the game ends and nothing further resolves (3.4)" */
Test(snap, snap_a22_first_effect_win_stops_rest)
{
    load_destroying_cards();
    start(NULL);
    base(30);   /* Round 5: all five of p2's monsters are face-up on the field */
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":2,\"card\":\"cor-meltdown\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":0},"
       "{\"p\":\"p2\",\"s\":1},{\"p\":\"p2\",\"s\":2},{\"p\":\"p2\",\"s\":3}]");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[]");
    cr_assert_eq(st.side[1].lost, 4, "Meltdown resolved: Crypt Rat is p2's last monster");
    cr_assert(!st.ol.over);
    illegal(END_P1, "snap:3.4");   /* closes the window: Searing Brand resolves */
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0, "A22: p2 lost at the first effect");
    cr_assert_eq(st.side[1].lost, 5);
    cr_assert_eq(st.side[0].active.mod, 0, "A22: the second effect did not resolve");
}

/* snap A22: "the win condition (3.1, R5) is checked after each effect, each
 * chain link and each combat; the first time it is met the game ends and
 * nothing further resolves" -- the Counter resolved first wins: the links
 * below it and the attack's combat do not resolve. */
Test(snap, snap_a22_a_chain_link_that_wins_stops_the_chain)
{
    load_destroying_cards();
    start(NULL);
    base(30);
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":2,\"card\":\"cor-meltdown\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":0},"
       "{\"p\":\"p2\",\"s\":1},{\"p\":\"p2\",\"s\":2},{\"p\":\"p2\",\"s\":3}]");
    ok(ATTACK_P2_ACTIVE);   /* closes Meltdown's window: Crypt Rat is p2's last monster */
    cr_assert_eq(st.side[1].lost, 4);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    cr_assert(!st.ol.over);
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"");   /* closes the window */
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0);
    cr_assert_eq(st.side[1].lost, 5, "Flashpoint Denial destroyed Crypt Rat");
    cr_assert(!st.side[0].prevent_next.draw, "A22: Death Grip, below it, did not resolve");
    cr_assert_eq(st.side[0].active.mod, 0);
    cr_assert_eq(st.side[0].lost, 0, "and no combat followed");
    /* 3.4: "the game ends immediately": the board is the one the winning
     * link left, its attack still declared, never ended (A32) */
    cr_assert(judge_board_has("\"attack\":{\"attacker\":{\"player\":\"p1\""));
}

/* ---- A23: zone boundaries ---------------------------------------------------------- */

/* snap A23: "they reach the Support Deck, the hand, the Graveyard or the Locked Support Zone only when the effect itself names that zone, and never the Monster Reserve" */
Test(snap, snap_a23_target_outside_the_named_zone_illegal)
{
    /* No reference of openlog 7 names a card of the Monster Reserve, so the
     * Reserve is out of reach by construction; the Locked Support Zone and
     * the Graveyard can be named. */
    start(NULL);
    base(15);
    /* Kindle Fury names a monster, not the Locked Support Zone */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"lock\":0}]",
            "snap:7.8");
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[{\"p\":\"p2\",\"lock\":0}]",
            "snap:7.8");
    uint64_t kindle = seq;
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    uint64_t stoke = seq;
    ok(STOKE);   /* Kindle Fury resolved and went to the Graveyard */
    /* Void Denial names the chain: the resolved Kindle Fury is in the Graveyard */
    char body[256];
    snprintf(body, sizeof body, "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":%llu}]",
             (unsigned long long)kindle);
    illegal(body, "snap:15.1");
    snprintf(body, sizeof body, "\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":%llu}]",
             (unsigned long long)stoke);
    ok(body);
}

/* ---- A24: the order of setup events ---------------------------------- */

Test(snap, snap_a24_bench_before_select_and_players_interleave)
{
    start(NULL);
    /* snap A24: "bench (8.3) before select (8.5)" for each player */
    illegal(BASE[2], "snap:A24");
    ok(BASE[1]);          /* p2 benches first: the players interleave */
    ok(BASE[3]);          /* and selects before p1 has done anything */
    illegal(BASE[2], "snap:A24");
    ok(BASE[0]);
    ok(BASE[2]);
    for (size_t i = 4; i < 8; i++)
        ok(BASE[i]);
}

/* ---- A25: the "Timing Table" ---------------------------------------------------------- */

/* snap A25: "keyword effects that happen at the same time resolve as section 17 orders them, and where it leaves the order open the active player chooses it (17.4, 17.12)" */
Test(snap, snap_a25_simultaneous_keywords_active_player_orders)
{
    /* No core card fires two Triggers at once: Forge Colossus is given a
     * second [on entry], listed first (ability 0: select one card); its
     * own -500 becomes ability 1. */
    load_core_text(replace_after(core_text(), "\"id\": \"cor-forge-colossus\"", "\"triggers\": [",
                                 "\"triggers\": [{\"when\": \"on_entry\", \"effects\": [{\"op\": \"select\", "
                                 "\"target\": \"controller\", \"amount\": 1}]},"),
                   "core-with-two-triggers");
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(st.n_fired, 2, "both [on entry] Triggers fire at once");
    /* p1, the active player, orders them: ability 1 first */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":1,\"targets\":[]");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    cr_assert_eq(st.side[1].active.mod, -500, "the first announced resolved first");
    cr_assert_eq(st.side[0].select_due, 0, "the second waits for its window");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]");
    cr_assert_eq(st.side[0].n_hand, 6);
    ok(END_P1);
}

/* ---- A28: how long a prevention lasts ------------------------------------------------ */

/* P2_VEIL_DECK played through BASE[n-1], Veil Assassin flipped in Round 2. */
static void veil_base(size_t n)
{
    olverdict v = start_decks("open", NULL, P1_DECK, P2_VEIL_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < n; i++)
        ok(i == 1 ? P2_VEIL_BENCH : i == 16 ? P2_VEIL_FLIP : BASE[i]);
}

/* snap A28: "applies to its target player's next turn, never to the turn in
 * progress (even when that turn is the target's own)" */
Test(snap, snap_a28_a_prevention_in_the_targets_own_turn_waits_for_the_next)
{
    veil_base(24);   /* Round 4: p1 has unlocked and flipped */
    ok(ATTACK_P2_ACTIVE);   /* Forge Golem 3000 defeats Crypt Rat 1800 */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2");   /* Veil Assassin enters */
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok(BASE[24]);   /* p1 locks; the Trigger resolves in p1's own turn */
    cr_assert(st.side[0].prevent_next.unlock, "A28: it waits for p1's next turn");
    ok(END_P1);
    for (size_t i = 26; i < 30; i++)
        ok(BASE[i]);   /* p2's Round 4 */
    cr_assert(st.side[0].prevent.unlock);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"", "snap:9.8");
    ok(END_P1);   /* no unlock owed; three Locked Supports: no lock either (A10) */
    cr_assert(!st.side[0].prevent.unlock && !st.side[0].prevent_next.unlock, "A28: it ended with that turn");
}

/* snap A28: a Counter of the defender's prevents the attacker's next turn, not the turn of the attack */
Test(snap, snap_a28_a_counter_prevents_the_attackers_next_turn)
{
    start(NULL);
    base(24);   /* Round 4: p1 has unlocked and flipped */
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem 1000 lost to Crypt Rat 1800 */
    ok(BASE[24]);   /* A28: this turn's Standard Lock-in is not prevented */
    ok(END_P1);
    for (size_t i = 26; i < 30; i++)
        ok(BASE[i]);
    illegal("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"", "snap:9.8");
    /* 9.8: draw prevention "also stops selecting, locking and unlocking" */
    cr_assert(st.side[0].prevent.draw && !st.side[0].prevent.lock);
    olverdict v = play("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]");
    expect(v, OL_V_ILLEGAL, "snap:9.8");
    cr_assert(strstr(v.msg, "prevents locking"), "%s", v.msg);
    ok(END_P1);
}

/* snap A28: "a next turn in the Lock Freeze still uses it up" */
Test(snap, snap_a28_a_frozen_turn_uses_a_prevention_up)
{
    veil_base(17);   /* Round 2: p2 has flipped Veil Assassin */
    ok("\"type\":\"swap\",\"by\":\"p2\",\"slot\":2");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok(BASE[17]);   /* the Trigger resolves: p1's next turn is Round 3, in the Lock Freeze */
    cr_assert(st.side[0].prevent.unlock);
    ok(BASE[18]);
    ok(BASE[19]);
    cr_assert(!st.side[0].prevent.unlock && !st.side[0].prevent_next.unlock, "A28: the frozen turn used it up");
    for (size_t i = 20; i < 24; i++)
        ok(BASE[i]);   /* Round 4: p1 unlocks */
}

/* snap A28: "Before the first turn of Round 1 (the promotions of A4) Player 1's
 * next turn is that first turn." */
Test(snap, snap_a28_before_the_first_turn_p1s_next_turn_is_round_1)
{
    veil_base(5);   /* setup; p1 has promoted */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-veil-assassin\"");
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok(BASE[6]);   /* the Trigger resolves before p1's first turn has begun */
    cr_assert(st.side[0].prevent.unlock && !st.side[0].prevent_next.unlock, "A28: p1's next turn is Round 1's");
    ok(BASE[7]);
    ok(BASE[8]);
    ok(END_P1);
    cr_assert(!st.side[0].prevent.unlock && !st.side[0].prevent_next.unlock, "used up by Round 1");
}

/* snap A28: "never to the turn in progress (even when that turn is the
 * target's own)" -- in Round 1 too, once the first turn has begun: Pyre
 * Acolyte, promoted in p2's Round 1 turn, prevents p2's next turn. */
Test(snap, snap_a28_in_round_1_the_targets_own_turn_is_not_its_next)
{
    olverdict v = start_decks("open", "\"rules\":{\"round1_attacks\":true}", P1_ACOLYTE_DECK, P2_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-forge-golem\",\"cor-pyre-acolyte\",\"cor-ash-sprite\",\"flx-current-eel\"]");
    for (size_t i = 1; i < 7; i++)
        ok(BASE[i]);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-pyre-acolyte\"");   /* no [on reveal] */
    for (size_t i = 8; i < 12; i++)
        ok(BASE[i]);   /* p1 locks and ends; p2 places the fifth monster, flips Grave Bat */
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-soul-siphon\",\"targets\":[]");   /* Forge Golem 500 */
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");   /* Crypt Rat 1800 */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem fell: Pyre Acolyte enters */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"end\",\"by\":\"p2\"");   /* the Trigger resolves in p2's own turn */
    cr_assert(!st.side[1].prevent.unlock);
    cr_assert(st.side[1].prevent_next.unlock, "A28: it waits for p2's next turn");
    ok(BASE[14]);
    ok(END_P1);
    cr_assert(st.side[1].prevent.unlock, "p2's Round 2 turn takes it over");
}

/* ---- A32: modifiers and an attack that ends without combat --------------------------- */

/* snap A32: a modifier given during an attack ends with that attack, with or
 * without combat; a Spell's modifier (R7) waits for a combat that takes place */
Test(snap, snap_a32_a_fizzled_attacks_modifiers_end_with_it)
{
    ash_sprite_opening("\"rules\":{\"round1_attacks\":true}");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok(ATTACK_P2_ACTIVE);   /* Ash Sprite 2500 against Crypt Rat 1800 */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* fizzle */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");    /* the attacker -2000 */
    /* the chain resolves LIFO: -2000, then the fizzle; Overdrive's second attack */
    ok(ATTACK_P2_ACTIVE);
    cr_assert_eq(st.side[0].active.mod, 1500, "A32: the -2000 ended with the fizzled attack, the Spell's +1500 did not");
    cr_assert_eq(st.side[0].active.attack_mod, 0, "A32: nothing of the fizzled attack is left to undo");
    cr_assert_eq(st.side[1].lost, 0);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"");
    cr_assert_eq(st.side[1].lost, 1, "2500 defeated 1800");
    cr_assert_eq(st.side[0].lost, 0);
    cr_assert_eq(st.side[0].active.mod, 0, "R7: the Spell's modifier ended with the combat it served");
}

/* ---- A33: passes ------------------------------------------------------------------------ */

/* snap A33: "a `pass` by the defending player closes the Blocker Window (the Counter Window opens)" */
Test(snap, snap_a33_the_defenders_pass_closes_the_blocker_window)
{
    start(NULL);
    base(15);
    ok(ATTACK_P2_ACTIVE);
    illegal("\"type\":\"pass\",\"by\":\"p1\"", "snap:10.8.3");   /* the Blocker Window is the defender's */
    cr_assert_eq(st.window, WIN_BLOCKER);
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_eq(st.window, WIN_COUNTER, "A33: no Blocker; the Counter Window opens");
    cr_assert(st.side[1].active.present, "the combat waits for the Counter Window");
}

/* snap A33: "a pass by each player in a row, with no Counter between, closes the window" */
Test(snap, snap_a33_passes_in_a_row_close_the_counter_window)
{
    start(NULL);
    base(15);
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");   /* the passes start again */
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    cr_assert_eq(st.window, WIN_COUNTER);
    cr_assert(st.side[0].active.present, "one pass since the Counter: the window is open");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_eq(st.window, WIN_NONE, "A33: both passed in a row: the chain and the combat resolved");
    cr_assert(!st.side[0].active.present, "Forge Golem 1000 lost to Crypt Rat 1800");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");
}

/* snap A33: "a pass by a player who may not act in that window is illegal";
 * outside a window a pass passes nothing */
Test(snap, snap_a33_a_pass_by_a_player_who_may_not_respond_is_illegal)
{
    start(NULL);
    base(12);   /* Round 1, p2 has flipped */
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    illegal("\"type\":\"pass\",\"by\":\"p1\"", "snap:R3");    /* p1 answers nothing in Round 1 */
    illegal("\"type\":\"pass\",\"by\":\"p2\"", "snap:10.5");  /* nor does p2 answer their own Spell first */
    cr_assert_eq(st.window, WIN_COUNTER, "only silence closes a window nobody may answer");
    for (size_t i = 12; i < 15; i++)
        ok(BASE[i]);   /* Round 2: p1 has flipped */
    ok("\"type\":\"pass\",\"by\":\"p1\"");   /* no window: it passes nothing */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    illegal("\"type\":\"pass\",\"by\":\"p1\"", "snap:10.5");
    ok("\"type\":\"pass\",\"by\":\"p2\"");
    cr_assert_eq(st.window, WIN_NONE, "A33: the one player who may answer passed");
    cr_assert_eq(st.side[0].active.mod, 1500, "the Spell resolved");
}

/* ---- A34: a removed Locked Support stays hidden ---------------------------------------- */

/* snap A34: "a Locked Support removed by an effect goes to the Graveyard unrevealed" */
Test(snap, snap_a34_a_removed_locked_support_stays_hidden)
{
    start(NULL);
    base(30);   /* Round 5 */
    ok("\"type\":\"unlock\",\"by\":\"p1\",\"lock\":0,\"card\":\"cor-crucible-rite\"");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-crucible-rite\",\"targets\":[{\"p\":\"p2\",\"lock\":0}]");
    ok("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]");   /* closes the window */
    cr_assert_eq(st.side[1].n_locked, 2);
    cr_assert_eq(st.side[1].n_grave, 1);
    cr_assert_null(st.side[1].grave[0], "A34: unnamed even where the engine knows it (open mode)");
    /* announced mode: it stays among what could never be checked */
    olverdict v = start_decks("announced", NULL, P1_DECK,
                              "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-umbral-kitten\",\"aet-cloud-monk\","
                              "\"aet-aether-kite\"]," P2_SUPPORTS ",\"reserve\":[\"obs-grave-vampire\"]}");
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    static const char *const hidden[] = {
        "\"type\":\"bench\",\"by\":\"p1\",\"slots\":[null,null,null,null]",
        "\"type\":\"bench\",\"by\":\"p2\",\"slots\":[null,null,null,null]",
        "\"type\":\"select\",\"by\":\"p1\",\"cards\":[null,null,null,null,null]",
        "\"type\":\"select\",\"by\":\"p2\",\"cards\":[null,null,null,null,null,null]",
        "\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"",
        "\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-crypt-rat\"",
        "\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":null",
        "\"type\":\"flip\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-magma-tortoise\"",
        "\"type\":\"lock\",\"by\":\"p1\",\"cards\":[null,null,null]",
        END_P1,
        "\"type\":\"bench\",\"by\":\"p2\",\"slot\":0,\"card\":null",
        "\"type\":\"flip\",\"by\":\"p2\",\"slot\":1,\"card\":\"obs-grave-bat\"",
        "\"type\":\"end\",\"by\":\"p2\"",
        "\"type\":\"flip\",\"by\":\"p1\",\"slot\":2,\"card\":\"cor-ash-sprite\"",
        END_P1,
    };
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
        ok(hidden[i]);
    snap_unverified u[2];
    snap_unverifiable(&st, u);
    cr_assert_eq(u[0].locked, 3);
    cr_assert_eq(u[0].grave, 0);
    ok("\"type\":\"flip\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-umbral-kitten\"");   /* [on reveal] */
    ok("\"type\":\"trigger\",\"by\":\"p2\",\"source\":{\"p\":\"p2\",\"s\":2},\"ability\":0,\"targets\":[{\"p\":\"p1\",\"lock\":1}]");
    ok("\"type\":\"end\",\"by\":\"p2\"");
    snap_unverifiable(&st, u);
    cr_assert_eq(u[0].locked, 2);
    cr_assert_eq(u[0].grave, 1, "A34: the removed card was never named, and never will be");
    cr_assert_null(st.side[0].grave[st.side[0].n_grave - 1]);
}

/* ---- A35: an attack's target is the defender's ---------------------------------------- */

/* snap A35: "an attack's target is always a monster of the defending player" */
/* BASE through Round 2's flip with Backdraft in p1's hand and Umbral Decoy
 * in p2's (both redirect to a monster of their player's, own_monster);
 * Forge Golem 3000 attacks Crypt Rat 1800 and p2 assigns no Blocker. */
static void redirect_game(void)
{
    start(NULL);
    for (size_t i = 0; i < 15; i++)
        ok(i == 2   ? "\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-kindle-fury\",\"cor-backdraft\","
                      "\"cor-stoke-the-forge\",\"cor-smolder-trap\",\"cor-flashpoint-denial\"]"
           : i == 3 ? "\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\",\"obs-soul-siphon\","
                      "\"obs-shadow-step\",\"obs-void-denial\",\"obs-umbral-decoy\",\"obs-death-grip\"]"
                    : BASE[i]);
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"pass\",\"by\":\"p2\"");
}

Test(snap, snap_a35_a_redirect_aims_only_at_the_defenders_monsters)
{
    redirect_game();
    /* Backdraft (redirect own_monster) in the attacker's hands names p1's own monsters */
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-backdraft\",\"targets\":[{\"p\":\"p1\",\"s\":1}]", "snap:A35");
    illegal("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-backdraft\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]", "snap:A35");
    /* in the defender's, it aims the attack at another of theirs: Grave Bat 3300 */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-umbral-decoy\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* closes the window: Forge Golem lost */
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_eq(st.side[1].lost, 0);
}

/* ---- A36: a Counter that acts on an attack needs one ------------------------------------ */

/* snap A36: "a Counter whose effect concerns an attack ... may be played only while an attack is in progress" */
Test(snap, snap_a36_an_attack_counter_only_during_an_attack)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");   /* 16 */
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]", "snap:A36");
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]", "snap:A36");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":16}]");   /* it answers the Spell */
    ok(ATTACK_P2_ACTIVE);   /* closes the window: Kindle Fury negated */
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dark-mirror\",\"targets\":[]");   /* in the attack's window */
    ok(END_P1);
    cr_assert_eq(st.side[1].lost, 0, "the attack fizzled");
}

/* snap A36: "a Counter any of whose effects acts on the attack in progress
 * (... an effect on the `attacker` or `defender`)" -- no core Counter
 * names the defender: Death Grip is rewritten to give it +4000 IMP. */
Test(snap, snap_a36_a_counter_on_the_defender_only_during_an_attack)
{
    load_core_text(replace_after(core_text(), "\"id\": \"obs-death-grip\"",
                                 "\"op\": \"imp\",\n            \"target\": \"attacker\",\n            \"amount\": -2000",
                                 "\"op\": \"imp\", \"target\": \"defender\", \"amount\": 4000"),
                   "core-with-a-defender-counter");
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    olverdict v = play("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");
    expect(v, OL_V_ILLEGAL, "snap:A36");
    cr_assert(strstr(v.msg, "acts on an attack, while no attack is in progress"), "%s", v.msg);
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* Kindle Fury resolves: Forge Golem 4500 */
    ok(ATTACK_P2_ACTIVE);
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]");   /* Crypt Rat 1800 + 4000 */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* closes the window: 4500 against 5800 */
    cr_assert_eq(st.side[0].lost, 1, "the defender's +4000 turned the combat");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert_eq(st.side[1].active.mod, 0, "modifiers end with the combat");
}

/* snap A35: "a redirect Counter that names one of the attacking player's
 * monsters is illegal" -- whatever other effects come before the redirect.
 * Backdraft is given a first effect with a fixed target, +500 for the
 * attacker. */
Test(snap, snap_a35_a_redirect_after_another_effect_still_aims_at_the_defender)
{
    load_core_text(replace_after(core_text(), "\"id\": \"cor-backdraft\"", "\"effects\": [",
                                 "\"effects\": [{\"op\": \"imp\", \"target\": \"attacker\", \"amount\": 500},"),
                   "core-with-a-two-effect-backdraft");
    redirect_game();
    olverdict v = play("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-backdraft\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    expect(v, OL_V_ILLEGAL, "snap:A35");
    cr_assert(strstr(v.msg, "a monster of p1 (alice), the attacking player"), "%s", v.msg);
    cr_assert_eq(st.n_chain, 0);
    cr_assert_eq(st.side[0].active.mod, 0);
}

/* snap A15: "An attack is bound to its attacking monster and its target"; a
 * redirect moves it to another monster, and only while that monster is on
 * the field.  Umbral Decoy would aim the attack at Grave Bat, but p1's
 * Flashpoint Denial (rewritten: destroy a chosen monster of the opponent),
 * played after it, resolves first and destroys Grave Bat: the attack stays
 * on Crypt Rat. */
Test(snap, snap_a15_a_redirect_to_a_monster_already_gone_leaves_the_target)
{
    load_destroying_cards();
    redirect_game();
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-umbral-decoy\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":2,\"card\":\"obs-wraith-sentry\"");   /* closes the window */
    cr_assert_eq(st.side[1].lost, 2, "Grave Bat destroyed, then Crypt Rat defeated by Forge Golem");
    cr_assert_eq(st.side[0].lost, 0, "Grave Bat (3300) was never fought");
    cr_assert_str_eq(st.side[1].active.stack[0]->id, "obs-wraith-sentry");
}
