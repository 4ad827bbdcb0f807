/* test_snap_rulings.c -- the Snap engine, the project's rulings R1-R12.
 *
 * One or more tests per ruling R1-R12 of snap-rulings.md (restated with
 * their reasoning in verifiers/snap/RULINGS.md), named snap_<id>_<what> as
 * its **Tests:** line lists them.  A ruling that forbids something is
 * broken and the verdict must cite it; a ruling that decides an outcome is
 * checked on the state after legal events.  Arbiter's own rulings A1-A36
 * are in test_snap_arbiter.c; the scripted game and helpers in
 * tests/snapscript.c.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/carddb.h"
#include "tests/snapscript.h"
#include "tests/testutil.h"
#include "verifiers/snap/snap.h"

/* ---- decks and helpers ------------------------------------------------ */

/* P1_DECK's twenty Supports with Crushing Depths (Fluxion: destroy one of
 * the opponent's Bench monsters) in place of Undertow. */
#define P1_SUPPORTS                                                                                       \
    "\"supports\":[\"cor-kindle-fury\",\"cor-searing-brand\",\"cor-stoke-the-forge\",\"cor-heat-haze\","   \
    "\"cor-crucible-rite\",\"cor-eruption\",\"cor-meltdown\",\"cor-flashpoint-denial\",\"cor-resonant-flare\"," \
    "\"cor-backdraft\",\"cor-firewall\",\"cor-smolder-trap\",\"flx-crushing-depths\",\"flx-riptide-shift\","  \
    "\"flx-ebb-and-flow\",\"flx-frozen-moment\",\"flx-deep-current\",\"flx-wave-break\",\"flx-echoing-surge\"," \
    "\"flx-misdirecting-fog\"]"

/* BASE's p1 lineup with Maelstrom, Heart of the Deep (Prime Singular:
 * 10000, Overdrive, [on entry] destroy the opponent's active monster,
 * condition: the opponent has had a monster defeated) in place of Frost
 * Skimmer: no fifth monster (R1). */
#define P1_PRIME_DECK                                                                                     \
    "{\"monsters\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","  \
    "\"flx-maelstrom-heart-of-the-deep\"]," P1_SUPPORTS ","                                                \
    "\"reserve\":[\"cor-forge-colossus\",\"flx-maelstrom-heart-of-the-deep\"]}"

/* BASE's p1 lineup with Pyre Acolyte ([on entry] the opponent's next Unlock
 * Step unlocks nothing) in place of Frost Skimmer. */
#define P1_ACOLYTE_DECK                                                                                   \
    "{\"monsters\":[\"cor-forge-golem\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\","  \
    "\"cor-pyre-acolyte\"]," P1_SUPPORTS ",\"reserve\":[\"cor-forge-colossus\"]}"

#define P2_SUPPORTS                                                                                       \
    "\"supports\":[\"obs-night-terror\",\"obs-soul-siphon\",\"obs-shadow-step\",\"obs-curse-of-silence\"," \
    "\"obs-grave-whisper\",\"obs-eclipse-ritual\",\"obs-soul-reap\",\"obs-void-denial\","                  \
    "\"obs-dissonant-whisper\",\"obs-umbral-decoy\",\"obs-dark-mirror\",\"obs-death-grip\","               \
    "\"aet-radiant-blessing\",\"aet-judgement-ray\",\"aet-skyward-shift\",\"aet-clarity\","                \
    "\"aet-sanctuary-seal\",\"aet-ward-of-silence\",\"aet-resonant-choir\",\"aet-gale-diversion\"]"

/* BASE's p2 lineup with Umbral Kitten ([on reveal] remove one of the
 * opponent's Locked Supports) in place of Wraith Sentry. */
#define P2_KITTEN_DECK                                                                                    \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-umbral-kitten\",\"aet-cloud-monk\","          \
    "\"aet-aether-kite\"]," P2_SUPPORTS ",\"reserve\":[\"obs-grave-vampire\"]}"

/* BASE's p2 lineup with Nyxora, the Last Eclipse (Prime Singular,
 * condition: one of its controller's monsters defeated) in place of Aether
 * Kite: no fifth monster. */
#define P2_PRIME_DECK                                                                                     \
    "{\"monsters\":[\"obs-crypt-rat\",\"obs-grave-bat\",\"obs-wraith-sentry\",\"aet-cloud-monk\","          \
    "\"obs-nyxora-the-last-eclipse\"]," P2_SUPPORTS ","                                                     \
    "\"reserve\":[\"obs-grave-vampire\",\"obs-nyxora-the-last-eclipse\"]}"

/* An event body built with printf, for seq references. */
static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
    static char buf[4][1024];
    static int at;
    char *b = buf[at++ % 4];
    va_list ap;
    va_start(ap, f);
    vsnprintf(b, sizeof buf[0], f, ap);
    va_end(ap);
    return b;
}

static int is(const card *c, const char *id)
{
    return c && strcmp(c->id, id) == 0;
}

static const card *top_card(const snap_monster *m)
{
    return m->depth ? m->stack[m->depth - 1] : NULL;
}

static int on_field(int p)
{
    int n = st.side[p].active.present;
    for (int i = 0; i < SNAP_BENCH; i++)
        n += st.side[p].bench[i].present;
    return n;
}

/* ---- R1: the fifth monster ------------------------------------------- */

/* snap R1: "A lineup with a Prime Singular has no fifth base monster: it benches its four, and the Prime waits in the Reserve" */
Test(snap, snap_r1_prime_lineup_has_no_fifth)
{
    olverdict v = start_with("open", NULL, P1_PRIME_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    for (size_t i = 0; i < 4; i++)
        ok(BASE[i]);
    cr_assert(!st.side[0].fifth_waiting, "a Prime lineup has no fifth base monster");
    cr_assert(st.side[1].fifth_waiting, "p2's lineup without a Prime has one");
    ok(BASE[4]);   /* p1's first promotion empties Bench slot 0 */
    ok(BASE[5]);
    cr_assert(!st.side[0].fifth_due);
    cr_assert(st.side[1].fifth_due);
    /* nothing may be placed in the emptied slot: not a base monster, not the Prime */
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"", "snap:R1");
    illegal("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-maelstrom-heart-of-the-deep\"", "snap:R1");
    /* and nothing is owed before p1's Spell Phase */
    ok(BASE[7]);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    cr_assert(!st.side[0].bench[0].present, "the slot stays empty");
    cr_assert_eq(on_field(0), 4);
}

/* ---- R2: Player 1's Opening Lock-in ------------------------------------ */

/* snap R2: "`false` applies §8.6 literally and Player 1 locks nothing in Round 1" -- Player 2 still does */
Test(snap, snap_r2_lever_off_p2_still_locks_in_round_1)
{
    start("\"rules\":{\"p1_opening_lock\":false}");
    base(8);
    ok(BASE[9]);   /* p1 ends Round 1 without locking: nothing is owed */
    cr_assert_eq(st.side[0].n_locked, 0);
    for (size_t i = 10; i < 14; i++)
        ok(BASE[i]);   /* p2's Opening Lock-in of three (seq 13) is legal */
    cr_assert_eq(st.side[1].n_locked, 3, "the lever takes only p1's Opening Lock-in");
    cr_assert_eq(st.round, 2);
}

/* ---- R3: Counters in Round 1 ------------------------------------------ */

/* snap R3: "Player 1 plays no Counter during Round 1, in either turn; Player 2 may." */
Test(snap, snap_r3_p2_plays_counters_in_round_1)
{
    start(NULL);
    base(8);
    uint64_t spell = seq;
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    uint64_t counter = seq;
    ok(fmt("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-void-denial\",\"targets\":[{\"seq\":%llu}]",
           (unsigned long long)spell));
    cr_assert_eq(st.n_chain, 2);
    /* p1 may not answer, not even in their own turn */
    illegal(fmt("\"type\":\"counter\",\"by\":\"p1\",\"card\":\"cor-flashpoint-denial\",\"targets\":[{\"seq\":%llu}]",
                (unsigned long long)counter),
            "snap:R3");
    ok(BASE[8]);   /* the lock closes the window: the chain resolves */
    cr_assert_eq(st.side[0].active.mod, 0, "p2's Counter negated the Spell");
    cr_assert_eq(st.side[1].n_grave, 1);
    cr_assert(is(st.side[1].grave[0], "obs-void-denial"));
    cr_assert(is(st.side[0].grave[0], "cor-kindle-fury"));
}

/* ---- R4: promotion ----------------------------------------------------- */

/* snap R4: "A face-up Bench monster is chosen if there is one" -- any face-up one, at its controller's choice */
Test(snap, snap_r4_face_up_bench_monster_first)
{
    start(NULL);
    base(17);   /* Round 2, p2 has flipped Wraith Sentry */
    /* Soul Siphon: p1's Forge Golem 3000 - 2500; Crypt Rat 1800 attacks it */
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-soul-siphon\",\"targets\":[]");
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    cr_assert_eq(st.side[0].revealed, 3);
    /* the promotion's arrival resolves the combat (R6): Forge Golem falls;
     * Frost Skimmer in slot 0 is face-down, Magma Tortoise and Ash Sprite face-up */
    illegal("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"", "snap:R4");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert(!st.side[0].active.present);
    cr_assert(st.side[0].promote_due);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":2");   /* Ash Sprite, not the first face-up slot */
    cr_assert(st.side[0].active.present && st.side[0].active.face_up);
    cr_assert(is(st.side[0].active.stack[0], "cor-ash-sprite"));
    cr_assert(!st.side[0].bench[2].present);
    cr_assert(st.side[0].bench[1].present && st.side[0].bench[1].face_up, "Magma Tortoise stays");
    cr_assert(st.side[0].bench[0].present && !st.side[0].bench[0].face_up, "Frost Skimmer stays hidden");
    cr_assert_eq(st.side[0].revealed, 3, "a face-up monster was already counted (R10)");
    cr_assert(!st.side[0].promote_due);
}

/* snap R4: "otherwise a face-down one is flipped as it is promoted: it is revealed, counts as revealed for §14.3, and fires [on entry], not [on reveal]" */
Test(snap, snap_r4_facedown_promotion_fires_on_entry)
{
    olverdict v = start_decks("open", NULL, P1_ACOLYTE_DECK, P2_KITTEN_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-pyre-acolyte\",\"cor-magma-tortoise\",\"cor-ash-sprite\",\"flx-current-eel\"]");
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-crypt-rat\",\"aet-cloud-monk\"]");
    ok(BASE[2]);
    ok(BASE[3]);
    cr_assert_eq(st.side[0].revealed, 0);
    /* Pyre Acolyte has an [on entry] Trigger */
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-pyre-acolyte\"");
    cr_assert(st.side[0].active.face_up);
    cr_assert_eq(st.side[0].revealed, 1, "a monster promoted face-down counts as revealed");
    cr_assert_eq(st.n_fired, 1, "its [on entry] Trigger fired");
    cr_assert(is(st.fired[0].card, "cor-pyre-acolyte"));
    cr_assert_eq(st.fired[0].card->snap.triggers[st.fired[0].ability].when, TRIG_ON_ENTRY);
    illegal("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-umbral-kitten\"", "snap:10.4");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    /* Umbral Kitten has only an [on reveal] Trigger: a promotion does not fire it */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-umbral-kitten\"");
    cr_assert(st.side[1].prevent_next.unlock, "the Acolyte's Trigger resolved: p2's next Unlock Step unlocks nothing");
    cr_assert_eq(st.side[1].revealed, 1);
    cr_assert_eq(st.n_fired, 0, "[on reveal] belongs to the Flip Step, not to a promotion");
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-forge-golem\"");   /* nothing to announce */
}

/* snap R4: "that player must promote one before any other action by either
 * player" -- before a selection an effect gave the other player (9.1), and
 * the selection waits for the promotion.  Forge Colossus is given two
 * [on entry] Triggers: 0 selects one card, 1 destroys the opponent's
 * active monster (in place of its -500). */
Test(snap, snap_r4_a_promotion_comes_before_an_owed_selection)
{
    static const core_edit edits[] = {
        {"\"id\": \"cor-forge-colossus\"", "\"triggers\": [",
         "\"triggers\": [{\"when\": \"on_entry\", \"effects\": [{\"op\": \"select\", "
         "\"target\": \"controller\", \"amount\": 1}]},"},
        {"\"id\": \"cor-forge-colossus\"",
         "\"op\": \"imp\",\n                \"target\": \"opp_active\",\n                \"amount\": -500",
         "\"op\": \"destroy\", \"target\": \"opp_active\""},
    };
    load_core_edited("core-with-select-and-destroy-triggers", edits, sizeof edits / sizeof edits[0]);
    start(NULL);
    base(15);
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-forge-colossus\"");
    cr_assert_eq(st.n_fired, 2);
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    /* its window closes as the second Trigger is announced: the selection is
     * owed, and does not hold up the announcement (R11) */
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":1,\"targets\":[]");
    cr_assert_eq(st.side[0].select_due, 1);
    /* the selection closes the second Trigger's window: Crypt Rat is destroyed */
    olverdict v = play("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]");
    expect(v, OL_V_ILLEGAL, "snap:R4");
    cr_assert(strstr(v.msg, "p2 (bob)'s active slot is empty"), "%s", v.msg);
    cr_assert_eq(st.side[1].lost, 1);
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* not held up by p1's selection */
    cr_assert_eq(st.side[0].select_due, 1, "still owed");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\"]");
    cr_assert_eq(st.side[0].select_due, 0);
}

/* ---- R5: end of game --------------------------------------------------- */

/* A Round-1 rout (levers: attacks in Round 1, only Bench slot 0 face-down
 * at setup).  p1: Ash Sprite face-down, Forge Golem, Current Eel, Magma
 * Tortoise face-up, and Maelstrom in the Reserve.  p2: Wraith Sentry
 * face-down, Crypt Rat, Grave Bat, Cloud Monk face-up.  p1 destroys
 * p2's two face-up Bench monsters with Spells, plays Maelstrom (its
 * [on entry] destroys Crypt Rat), p2 promotes Wraith Sentry and Maelstrom
 * attacks it.  Returns with the attack's Blocker Window open. */
static void r5_rout(const char *p2deck)
{
    olverdict v = start_decks("open", "\"rules\":{\"round1_attacks\":true,\"bench_facedown\":1}", P1_PRIME_DECK, p2deck);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok("\"type\":\"bench\",\"by\":\"p1\",\"slots\":[\"cor-ash-sprite\",\"cor-forge-golem\",\"flx-current-eel\",\"cor-magma-tortoise\"]");
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slots\":[\"obs-wraith-sentry\",\"obs-crypt-rat\",\"obs-grave-bat\",\"aet-cloud-monk\"]");
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\",\"flx-crushing-depths\",\"cor-kindle-fury\","
       "\"cor-searing-brand\",\"cor-stoke-the-forge\"]");
    ok(BASE[3]);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* Crypt Rat */
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ash-sprite\"");   /* p1: four revealed */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":2}]");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"flx-crushing-depths\",\"targets\":[{\"p\":\"p2\",\"s\":3}]");
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"");
    cr_assert_eq(st.side[1].lost, 2);
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":\"a\"},\"ability\":0,\"targets\":[]");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":0,\"card\":\"obs-wraith-sentry\"");
    cr_assert_eq(st.side[1].lost, 3, "Maelstrom's [on entry] destroyed Crypt Rat");
    cr_assert_eq(on_field(1), 1);
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");   /* 10000 against 1300 */
    cr_assert(!st.ol.over);
}

/* snap R5: "A player loses when they control no monster on the field (active or Bench) and no fifth monster waits (R1)." */
Test(snap, snap_r5_no_monster_on_field_loses)
{
    r5_rout(P2_DECK);
    cr_assert(st.side[1].fifth_waiting, "Aether Kite, p2's fifth monster, still waits");
    /* the bench event's arrival resolves the combat: p2's field is empty,
     * but the fifth monster waits, so p2 has not lost; it is placed */
    ok("\"type\":\"bench\",\"by\":\"p2\",\"slot\":1,\"card\":\"aet-aether-kite\"");
    cr_assert_eq(st.side[1].lost, 4);
    cr_assert(!st.ol.over, "a waiting fifth monster keeps p2 in the game");
    cr_assert(!st.side[1].fifth_waiting);
    /* R4: the active slot is empty and p2 controls a Bench monster */
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:R4");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1,\"card\":\"aet-aether-kite\"");
    cr_assert(!st.ol.over);
    /* Overdrive: Maelstrom's second attack, 10000 against 1400 */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert(!st.ol.over, "the combat waits for its window to close (R6)");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"");   /* closes it */
    cr_assert_eq(on_field(1), 0);
    cr_assert_eq(st.side[1].lost, 5);
    cr_assert(st.ol.over, "no monster on the field and none waiting: p2 has lost");
    cr_assert_eq(st.ol.winner, 0);
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:3.4");
}

/* snap R5, the other way round: p1 controls no monster and none waits, so p1
 * loses and p2 wins.  A fixture game played through the engine event by
 * event: fixtures/snap/legal-open-swap-keyword.jsonl, won by p2's last attack. */
Test(snap, snap_r5_p1_with_no_monster_loses_and_p2_wins)
{
    char line[16384];
    olverdict v;
    start(NULL);   /* the card database */
    FILE *f = fopen(SRC("fixtures/snap/legal-open-swap-keyword.jsonl"), "r");
    cr_assert(f && fgets(line, sizeof line, f));
    olevent *ev = decode(line);
    snap_start(&st, db, NULL, ev, &v);
    olevent_destroy(&ev);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    while (fgets(line, sizeof line, f)) {
        ev = decode(line);
        snap_apply(&st, ev, &v);
        olevent_destroy(&ev);
        cr_assert(v.status == OL_V_OK || v.status == OL_V_WARNING, "seq %llu: %s %s", (unsigned long long)v.seq,
                  v.rule, v.msg);
    }
    fclose(f);
    cr_assert_eq(on_field(0), 0);
    cr_assert(!st.side[0].fifth_waiting);
    cr_assert(st.ol.over, "no monster on the field and none waiting: p1 has lost");
    cr_assert_eq(st.ol.winner, 1, "p2 wins");
}

/* snap R5: "A Prime Singular in the Reserve does not save them." */
Test(snap, snap_r5_prime_in_reserve_does_not_save)
{
    r5_rout(P2_PRIME_DECK);
    cr_assert(!st.side[1].fifth_waiting, "a Prime lineup has no fifth monster (R1)");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"");   /* closes the window: Wraith Sentry falls */
    cr_assert_eq(on_field(1), 0);
    cr_assert_eq(st.side[1].lost, 4);
    /* Nyxora waits in the Reserve with its 14.3 threshold and its printed
     * condition (one own monster defeated) both met: it still does not save p2 */
    cr_assert(st.side[1].revealed >= 4);
    cr_assert(is(st.side[1].prime, "obs-nyxora-the-last-eclipse"));
    cr_assert(st.side[1].lost >= (unsigned)st.side[1].prime->snap.condition.amount);
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0);
    illegal("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\"", "snap:3.4");
}

/* ---- R6: windows close by silence ---------------------------------------- */

/* snap R6: "A Blocker Window or a Counter Window stays open until an event arrives that belongs to neither" */
Test(snap, snap_r6_window_closes_by_silence)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    cr_assert_eq(st.window, WIN_COUNTER);
    cr_assert_eq(st.side[0].active.mod, 0, "the Spell waits in its window");
    /* nobody passes: the attack's arrival closes the Counter Window */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert_eq(st.side[0].active.mod, 1500, "the chain resolved when the attack arrived");
    cr_assert(is(st.side[0].grave[0], "cor-kindle-fury"));
    cr_assert_eq(st.window, WIN_BLOCKER);
    cr_assert(st.side[1].active.present, "the combat waits for the Blocker Window");
    /* p2 says nothing: its promotion's arrival closes the window, the combat resolves */
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    cr_assert_eq(st.window, WIN_NONE);
    cr_assert_eq(st.side[1].lost, 1, "Forge Golem 4500 defeated Crypt Rat 1800");
    cr_assert(is(st.side[1].active.stack[0], "obs-grave-bat"));
    /* 15.2: a Counter after its window closed */
    illegal("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[]", "snap:15.2");
    ok("\"type\":\"end\",\"by\":\"p1\"");
}

typedef struct {
    int32_t mod0, mod1;
    uint8_t lost0, lost1, window, step, n_grave0;
    const card *active1;
} r6_outcome;

/* Round 2: Kindle Fury on Forge Golem, then it attacks Crypt Rat, p2
 * promotes; with `passes`, the players log the passes that close each
 * window (A33) instead of leaving it to the next event. */
static r6_outcome r6_game(int passes)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    if (passes) {
        /* snap A33: p2 alone may answer p1's lone Spell (10.5): p2's pass closes its window */
        ok("\"type\":\"pass\",\"by\":\"p2\"");
        cr_assert_eq(st.window, WIN_NONE, "A33: the Spell's window closed by p2's pass");
        cr_assert_eq(st.side[0].active.mod, 1500);
    }
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    if (passes) {
        ok("\"type\":\"pass\",\"by\":\"p2\"");   /* A33: no Blocker; the Counter Window opens */
        cr_assert_eq(st.window, WIN_COUNTER);
        ok("\"type\":\"pass\",\"by\":\"p1\"");
        cr_assert_eq(st.window, WIN_COUNTER, "A33: one pass does not close a window both may answer");
        cr_assert(st.side[1].active.present);
        ok("\"type\":\"pass\",\"by\":\"p2\"");
        cr_assert_eq(st.window, WIN_NONE, "A33: both passed in a row: the combat resolved");
    }
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");
    return (r6_outcome){st.side[0].active.mod, st.side[1].active.mod, st.side[0].lost, st.side[1].lost,
                        (uint8_t)st.window, (uint8_t)st.step, st.side[0].n_grave, top_card(&st.side[1].active)};
}

/* snap R6: "`pass` may be logged but is not required." */
Test(snap, snap_r6_pass_is_optional)
{
    r6_outcome with = r6_game(1), without = r6_game(0);
    cr_assert_eq(with.lost1, 1);
    cr_assert_eq(without.lost1, 1, "without any pass the windows closed and the combat resolved");
    cr_assert_eq(with.lost0, without.lost0);
    cr_assert_eq(with.mod0, without.mod0);
    cr_assert_eq(with.mod1, without.mod1);
    cr_assert_eq(with.window, without.window);
    cr_assert_eq(with.step, without.step);
    cr_assert_eq(with.n_grave0, without.n_grave0);
    cr_assert_eq(with.active1, without.active1);
    cr_assert(is(without.active1, "obs-grave-bat"));
}

/* ---- R7: modifiers from Spells ------------------------------------------- */

/* snap R7: "A temporary IMP modifier from a Spell lasts until the end of the next combat that monster takes part in this turn, or the end of the turn." */
Test(snap, snap_r7_spell_modifier_expires_at_end_of_turn)
{
    start(NULL);
    base(15);
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-searing-brand\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    cr_assert_eq(st.side[0].active.mod, 1500, "Forge Golem 4500");
    ok("\"type\":\"end\",\"by\":\"p1\"");   /* no combat this turn */
    cr_assert_eq(st.side[0].active.mod, 0, "Kindle Fury's +1500 ended with the turn");
    cr_assert_eq(st.side[1].active.mod, 0, "Searing Brand's -2500 ended with the turn");
    /* p2's turn: Crypt Rat 1800 + 1500 attacks Forge Golem, back at 3000 */
    ok(BASE[16]);
    ok("\"type\":\"spell\",\"by\":\"p2\",\"card\":\"obs-night-terror\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]");
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    cr_assert_eq(st.side[1].active.mod, 1500);
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* its arrival resolves the combat */
    cr_assert_eq(st.side[0].lost, 1, "3300 against 3000: Forge Golem is defeated");
    cr_assert_eq(st.side[1].lost, 0);
    cr_assert(is(st.side[1].active.stack[0], "obs-crypt-rat"));
    cr_assert_eq(st.side[1].active.mod, 0, "Night Terror's modifier ended with its combat");
}

/* snap R7: "... or the end of the turn": the modifier of every monster on
 * the field ends, Bench monsters included (here the first Bench slot). */
Test(snap, snap_r7_a_bench_monsters_modifier_expires_at_end_of_turn)
{
    start(NULL);
    base(14);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"");   /* the fifth, Bench slot 0 */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":0}]");
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* the Spell resolves */
    cr_assert_eq(st.side[0].bench[0].mod, 1500, "Frost Skimmer +1500");
    ok("\"type\":\"end\",\"by\":\"p1\"");
    cr_assert_eq(st.side[0].bench[0].mod, 0, "Kindle Fury's +1500 ended with the turn");
}

/* snap A32: a modifier given for an attack ends with that attack, on every
 * monster of the field: here on the first Bench slot.  No core Counter
 * changes the IMP of another monster than the attacker, so Death Grip is
 * rewritten to give its -2000 to a chosen monster. */
Test(snap, snap_a32_an_attack_modifier_on_a_bench_monster_ends_with_the_attack)
{
    load_core_text(replace_after(core_text(), "\"id\": \"obs-death-grip\"", "\"target\": \"attacker\"",
                                 "\"target\": \"monster\""),
                   "core-with-a-chosen-death-grip");
    start(NULL);
    base(14);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"flx-frost-skimmer\"");   /* Bench slot 0 */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-death-grip\",\"targets\":[{\"p\":\"p1\",\"s\":0}]");
    ok("\"type\":\"pass\",\"by\":\"p1\"");
    cr_assert_eq(st.side[0].bench[0].mod, 0, "the chain waits for both passes (A33)");
    ok("\"type\":\"pass\",\"by\":\"p2\"");   /* the chain resolves, then the combat */
    cr_assert_eq(st.side[1].lost, 1, "Forge Golem 3000 defeated Crypt Rat 1800");
    cr_assert_eq(st.side[0].bench[0].mod, 0, "A32: Death Grip's -2000 ended with the attack");
    cr_assert_eq(st.side[0].bench[0].attack_mod, 0);
}

/* ---- R8: rounds ----------------------------------------------------------- */

/* snap R8: "The Lock Freeze covers both turns of Rounds 2 and 3; Standard Lock-in begins with Player 1's turn of Round 4." */
Test(snap, snap_r8_lock_freeze_covers_round3_p2)
{
    start(NULL);
    base(20);   /* Round 3, p2's turn begins */
    cr_assert_eq(st.round, 3);
    cr_assert_eq(st.turn, 1);
    illegal("\"type\":\"unlock\",\"by\":\"p2\",\"lock\":0,\"card\":\"obs-curse-of-silence\"", "snap:9.4");
    ok(BASE[20]);
    illegal("\"type\":\"lock\",\"by\":\"p2\",\"cards\":[\"obs-soul-reap\"]", "snap:9.4");
    ok(BASE[21]);
    cr_assert_eq(st.round, 4);
    cr_assert_eq(st.side[1].n_locked, 3, "nothing was locked or unlocked in the freeze");
    ok(BASE[22]);   /* Round 4, p1: the freeze is over, the unlock is owed and made */
    ok(BASE[23]);
    illegal("\"type\":\"end\",\"by\":\"p1\"", "snap:9.5");   /* Standard Lock-in from p1's turn of Round 4 */
    ok(BASE[24]);
    ok(BASE[25]);
}

/* ---- R9: the once-per-game Swap ------------------------------------------- */

/* snap R9: "Once per game for each player." -- p1's Swap does not use up p2's */
Test(snap, snap_r9_each_player_swaps_once)
{
    start(NULL);
    base(15);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok("\"type\":\"swap\",\"by\":\"p2\",\"slot\":1");   /* p2's own Swap */
    cr_assert(is(st.side[1].active.stack[0], "obs-grave-bat"));
    cr_assert(is(st.side[1].bench[1].stack[0], "obs-crypt-rat"));
    cr_assert_eq(st.side[0].swaps_used, 1);
    cr_assert_eq(st.side[1].swaps_used, 1);
    ok(BASE[17]);
    ok(BASE[18]);
    ok(BASE[19]);
    ok(BASE[20]);
    illegal("\"type\":\"swap\",\"by\":\"p2\",\"slot\":1", "snap:R9");
    ok(BASE[21]);
}

/* snap R9: "**Lever.** `swaps_per_game`" (18.4) -- each player may swap that many times */
Test(snap, snap_r9_lever_swaps_per_game)
{
    start("\"rules\":{\"swaps_per_game\":2}");
    base(15);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");   /* Magma Tortoise in */
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok(BASE[17]);
    ok(BASE[18]);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem back: the second */
    cr_assert(is(st.side[0].active.stack[0], "cor-forge-golem"));
    ok(BASE[19]);
    ok(BASE[20]);
    ok(BASE[21]);
    ok(BASE[22]);
    ok(BASE[23]);
    illegal("\"type\":\"swap\",\"by\":\"p1\",\"slot\":2", "snap:R9");   /* a third */
    ok(BASE[24]);
}

/* snap R9 with the lever swap_refresh_on_prime_defeat off (18.4): a defeat
 * does not give the Swap back.  p1 swaps Magma Tortoise 1500 in; Crypt Rat
 * 1800 defeats it in p2's turn. */
Test(snap, snap_r9_a_defeat_does_not_give_the_swap_back)
{
    start(NULL);
    base(15);
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");
    ok(BASE[15]);
    ok(BASE[16]);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* closes the window: the combat */
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert(is(st.side[0].active.stack[0], "cor-forge-golem"));
    ok(BASE[17]);
    ok(BASE[18]);
    olverdict v = play("\"type\":\"swap\",\"by\":\"p1\",\"slot\":2");
    expect(v, OL_V_ILLEGAL, "snap:R9");
    cr_assert(strstr(v.msg, "p1 (alice) swapped again"), "%s", v.msg);
    ok(BASE[19]);
}

/* ---- R10: a Prime Singular's threshold ------------------------------------ */

/* BASE with P1_PRIME_DECK (no fifth monster: BASE[6] is left out), p1
 * selecting Meltdown and Eruption and locking what it does not need. */
static void r10_opening(void)
{
    olverdict v = start_with("open", NULL, P1_PRIME_DECK);
    cr_assert_eq(v.status, OL_V_OK, "header: %s %s", v.rule, v.msg);
    ok(BASE[0]);
    ok(BASE[1]);
    ok("\"type\":\"select\",\"by\":\"p1\",\"cards\":[\"cor-meltdown\",\"cor-eruption\",\"cor-kindle-fury\","
       "\"cor-searing-brand\",\"cor-flashpoint-denial\"]");
    ok(BASE[3]);
    ok(BASE[4]);
    cr_assert_eq(st.side[0].revealed, 1, "Forge Golem, promoted face-down");
    ok(BASE[5]);
    ok(BASE[7]);
    cr_assert_eq(st.side[0].revealed, 2, "and Magma Tortoise, flipped");
    ok("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-firewall\"]");
    for (size_t i = 9; i < 15; i++)
        ok(BASE[i]);   /* Round 2: p1 flips Ash Sprite */
    cr_assert_eq(st.side[0].revealed, 3);
}

/* snap R10: "Count the distinct monsters of that player that were ever face-up" */
Test(snap, snap_r10_threshold_counts_distinct_revealed)
{
    r10_opening();
    /* Meltdown defeats Grave Bat (Maelstrom's printed condition is met);
     * Eruption swaps Magma Tortoise into the active slot: it enters again */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-meltdown\",\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-eruption\",\"targets\":[{\"p\":\"p1\",\"s\":1}]");
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"", "snap:14.3");
    cr_assert(is(st.side[0].active.stack[0], "cor-magma-tortoise"), "Eruption resolved when the prime arrived");
    cr_assert_eq(st.side[1].lost, 1, "the printed condition is met: the threshold refused it");
    cr_assert_eq(st.side[0].revealed, 3, "Magma Tortoise entering again is not a fourth monster");
    ok("\"type\":\"swap\",\"by\":\"p1\",\"slot\":1");   /* and back: Forge Golem enters again */
    cr_assert_eq(st.side[0].revealed, 3);
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok(BASE[17]);
    ok(BASE[18]);   /* Round 3: Current Eel, the fourth distinct monster */
    cr_assert_eq(st.side[0].revealed, 4);
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"");
    cr_assert(is(st.side[0].active.stack[0], "flx-maelstrom-heart-of-the-deep"));
}

/* snap R10: "Count the distinct monsters of that player that were ever face-up ...; defeated ones included." */
Test(snap, snap_r10_defeated_monsters_count)
{
    r10_opening();
    /* Round 2: Forge Golem 3000 defeats Crypt Rat 1800 (the printed condition) */
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p2\",\"slot\":1");   /* Grave Bat 3300 */
    ok("\"type\":\"end\",\"by\":\"p1\"");
    ok(BASE[16]);
    ok("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":\"a\"}");
    ok("\"type\":\"promote\",\"by\":\"p1\",\"slot\":1");   /* Forge Golem fell; Magma Tortoise */
    cr_assert_eq(st.side[0].lost, 1);
    ok(BASE[17]);
    ok(BASE[18]);   /* Round 3: Current Eel */
    cr_assert_eq(on_field(0), 3, "three monsters on the field");
    cr_assert_eq(st.side[0].revealed, 4, "four revealed, the defeated Forge Golem among them");
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"flx-maelstrom-heart-of-the-deep\"");
    cr_assert(is(st.side[0].active.stack[0], "flx-maelstrom-heart-of-the-deep"));
}

/* ---- R11: triggers are announced ------------------------------------------ */

/* No core monster fires two Triggers at once: load core.json with Ash
 * Sprite given two [on reveal] Triggers, 0: swap one of the opponent's
 * Bench monsters into their active slot, 1: the opponent's active monster
 * gets -1000 IMP.  Their order decides which monster gets the -1000. */
static void load_double_trigger_sprite(void)
{
    const char *ins = "\"triggers\": [{\"when\": \"on_reveal\", \"effects\": [{\"op\": \"swap\", \"target\": \"opp_bench\"}]},"
                      " {\"when\": \"on_reveal\", \"effects\": [{\"op\": \"imp\", \"target\": \"opp_active\", \"amount\": -1000}]}],";
    char ins_after[512];
    snprintf(ins_after, sizeof ins_after, "\"imp\": 1000,%s", ins);
    load_core_text(replace_after(core_text(), "\"id\": \"cor-ash-sprite\"", "\"imp\": 1000,", ins_after),
                   "core-with-double-trigger");
}

/* Round 2, p1 flips Ash Sprite and announces its two Triggers in `order`,
 * then attacks, which closes the last Trigger's window. */
static void r11_game(const int order[2])
{
    start(NULL);   /* with the database the test loaded */
    base(14);
    ok(BASE[14]);
    cr_assert_eq(st.n_fired, 2, "both Triggers fired at once");
    for (int i = 0; i < 2; i++)
        ok(order[i] == 0 ? "\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":0,"
                           "\"targets\":[{\"p\":\"p2\",\"s\":1}]"
                         : "\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":1,"
                           "\"targets\":[]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert(is(st.side[1].active.stack[0], "obs-grave-bat"), "the swap resolved");
    cr_assert(is(st.side[1].bench[1].stack[0], "obs-crypt-rat"));
}

/* snap R11: "An action that arrives while a fired trigger is unannounced is
 * illegal": of two Triggers fired at once, the first announced opens its
 * Resonance window, and the second must still be announced before an attack. */
Test(snap, snap_r11_the_second_fired_trigger_comes_before_any_action)
{
    load_double_trigger_sprite();
    start(NULL);
    base(14);
    ok(BASE[14]);
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":1,\"targets\":[]");
    cr_assert_eq(st.window, WIN_RESONANCE);
    cr_assert_eq(st.n_fired, 1);
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.4");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":0,"
       "\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
}

/* snap A30: a Trigger's choice with no candidate is left out of its
 * announcement.  In Round 1 p2's Bench is all face-down, so the swap of an
 * opponent's Bench monster (Ash Sprite's first Trigger here) has none. */
Test(snap, snap_a30_a_monster_choice_without_candidate_is_left_out)
{
    load_double_trigger_sprite();
    start(NULL);
    base(7);
    ok("\"type\":\"flip\",\"by\":\"p1\",\"slot\":2,\"card\":\"cor-ash-sprite\"");
    illegal("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":0,"
            "\"targets\":[{\"p\":\"p2\",\"s\":1}]",
            "snap:A30");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":0,\"targets\":[]");
}

/* snap R11: "Every Trigger ability that fires is announced by a `trigger` event ... in the order the active player chooses" */
Test(snap, snap_r11_trigger_order_chosen_by_active_player)
{
    static const int swap_first[2] = {0, 1}, imp_first[2] = {1, 0};
    load_double_trigger_sprite();
    r11_game(swap_first);
    cr_assert_eq(st.side[1].active.mod, -1000, "swap, then -1000: Grave Bat, now active, gets it");
    cr_assert_eq(st.side[1].bench[1].mod, 0);
    r11_game(imp_first);
    cr_assert_eq(st.side[1].active.mod, 0);
    cr_assert_eq(st.side[1].bench[1].mod, -1000, "-1000, then swap: Crypt Rat got it and took it to the Bench");
}

/* snap R11: a fired Trigger is announced "before any other action" -- but
 * the Resonance Counter of the Trigger already announced is no other
 * action: A3 lets it answer while the second Trigger still waits. */
Test(snap, snap_r11_a_resonance_counter_answers_while_a_second_trigger_waits)
{
    load_double_trigger_sprite();
    start(NULL);
    for (size_t i = 0; i < 15; i++)   /* Dissonant Whisper in p2's hand */
        ok(i == 3 ? "\"type\":\"select\",\"by\":\"p2\",\"cards\":[\"obs-night-terror\",\"obs-soul-siphon\","
                    "\"obs-shadow-step\",\"obs-void-denial\",\"obs-dissonant-whisper\",\"obs-death-grip\"]"
                  : BASE[i]);
    uint64_t imp_trigger = seq;
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":1,\"targets\":[]");
    cr_assert_eq(st.n_fired, 1, "the swap Trigger is still to be announced");
    ok(fmt("\"type\":\"counter\",\"by\":\"p2\",\"card\":\"obs-dissonant-whisper\",\"targets\":[{\"seq\":%llu}]",
           (unsigned long long)imp_trigger));
    cr_assert(st.trig.negated);
    illegal("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}", "snap:10.4");
    ok("\"type\":\"trigger\",\"by\":\"p1\",\"source\":{\"p\":\"p1\",\"s\":2},\"ability\":0,"
       "\"targets\":[{\"p\":\"p2\",\"s\":1}]");
    ok("\"type\":\"attack\",\"by\":\"p1\",\"target\":{\"p\":\"p2\",\"s\":\"a\"}");
    cr_assert(is(st.side[1].active.stack[0], "obs-grave-bat"), "the swap resolved");
    cr_assert_eq(st.side[1].active.mod, 0, "the countered -1000 did not");
    cr_assert_eq(st.side[1].bench[1].mod, 0);
}

/* ---- R12: an illegal action changes nothing ------------------------------- */

/* snap R12: "It is recorded with its verdict and the game goes on from the state before it" */
Test(snap, snap_r12_illegal_event_changes_nothing)
{
    start(NULL);
    base(8);   /* Round 1, p1 has flipped; no window is open */
    snap_state before = st;
    /* fails after taking Kindle Fury out of the hand */
    illegal("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p2\",\"s\":\"a\"}]",
            "snap:7.8");
    cr_assert_eq(memcmp(&before, &st, sizeof st), 0, "the illegal Spell changed the state");
    /* fails on its third card, after locking the first two */
    illegal("\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-heat-haze\",\"cor-crucible-rite\",\"cor-kindle-fury\"]",
            "snap:9.2");
    cr_assert_eq(memcmp(&before, &st, sizeof st), 0, "the illegal lock changed the state");
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"slot\":2,\"card\":\"cor-ash-sprite\"", "snap:10.3");
    cr_assert_eq(memcmp(&before, &st, sizeof st), 0, "the illegal flip changed the state");
    /* the game goes on from before them: the same cards, the same step */
    ok("\"type\":\"spell\",\"by\":\"p1\",\"card\":\"cor-kindle-fury\",\"targets\":[{\"p\":\"p1\",\"s\":\"a\"}]");
    ok(BASE[8]);   /* Heat Haze and Crucible Rite are still in the Support Deck */
    cr_assert_eq(st.side[0].n_locked, 3);
    cr_assert_eq(st.side[0].active.mod, 1500);
    cr_assert(!st.side[0].bench[2].face_up);
}
