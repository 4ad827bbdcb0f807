/* test_advanced.c -- the Advanced engine, rule by rule.
 *
 * Each test breaks one rule of advanced.md (or a ruling of
 * verifiers/advanced/RULINGS.md) and checks the verdict's status and rule
 * id; the name is the rule id.  Scripts start from the opening hands of
 * advancedscript.h: p1 carol (Coreon) holds Ember Whelp, Cinder Hound, Kindle
 * Fury, Ember Drake, Firewall; p2 dave (Obscura) holds Umbral Kitten,
 * Grave Bat, Umbral Decoy, Night Terror, Soul Siphon, Veil Assassin.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "tests/advancedscript.h"
#include "tests/testutil.h"
#include "verifiers/advanced/rules.h"
#include "verifiers/verifier.h"

#define SUMMON(by, slot, card, pos)                                                                      \
    "\"type\":\"summon\",\"by\":\"" by "\",\"slot\":" #slot ",\"card\":\"" card "\",\"position\":\"" pos \
    "\",\"kind\":\"normal\""
#define SPELL(by, card, targets) "\"type\":\"spell\",\"by\":\"" by "\",\"card\":\"" card "\",\"targets\":" targets
#define COUNTER(by, card, targets) "\"type\":\"counter\",\"by\":\"" by "\",\"card\":\"" card "\",\"targets\":" targets
#define ATTACK(by, slot, target) "\"type\":\"attack\",\"by\":\"" by "\",\"slot\":" #slot ",\"target\":" target
#define PASS(by) "\"type\":\"pass\",\"by\":\"" by "\""
#define SELECT(by, cards) "\"type\":\"select\",\"by\":\"" by "\",\"cards\":" cards

/* Player 1's first turn: Ember Whelp in Attack Position; then Player 2
 * selects `card` and summons Umbral Kitten in `pos`. */
static void two_turns(const char *selected, const char *pos)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", selected);
    summon("p2", 0, "obs-umbral-kitten", pos);
}

/* ---- the header and the opening hands ---------------------------------------- */

Test(advanced, advanced_deck_size_header_starts_no_match)
{
    olverdict v = adv_start_decks("open", NULL, "fixtures/decks/advanced/illegal-advanced_deck_size-39-cards.json",
                                  "fixtures/decks/advanced/legal-obscura-night.json");
    expect(v, OL_V_ILLEGAL, "advanced:deck.size");
    illegal(SELECT("p1", P1_OPEN), "advanced:deck.size");
}

Test(advanced, advanced_deck_copies_header)
{
    olverdict v = adv_start_decks("open", NULL, "fixtures/decks/advanced/legal-coreon-ember.json",
                                  "fixtures/decks/advanced/illegal-advanced_deck_copies-3-copies.json");
    expect(v, OL_V_ILLEGAL, "advanced:deck.copies");
}

Test(advanced, advanced_deck_monsters_header)
{
    olverdict v = adv_start_decks("open", NULL, "fixtures/decks/advanced/illegal-advanced_deck_monsters-four-monsters.json",
                                  "fixtures/decks/advanced/legal-obscura-night.json");
    expect(v, OL_V_ILLEGAL, "advanced:deck.monsters");
}

Test(advanced, advanced_deck_primes_header)
{
    olverdict v = adv_start_decks("open", NULL, "fixtures/decks/advanced/legal-coreon-ember.json",
                                  "fixtures/decks/advanced/illegal-advanced_deck_primes-two-prime-singulars.json");
    expect(v, OL_V_ILLEGAL, "advanced:deck.primes");
}

Test(advanced, advanced_select_opening)
{
    cr_assert_eq(adv_start("open", NULL).status, OL_V_OK);
    illegal(SUMMON("p1", 0, "cor-ember-whelp", "ap"), "advanced:select.opening");
    illegal(SELECT("p1", P2_OPEN), "advanced:select.opening");   /* 6 cards: Player 1 selects 5 */
    ok(SELECT("p1", P1_OPEN));
    illegal(SELECT("p1", P1_OPEN), "advanced:select.opening");   /* a second opening hand */
    ok(SELECT("p2", P2_OPEN));
    cr_assert(st.setup_done);
    cr_assert_eq(st.turn, 0);
    cr_assert_eq(st.step, DUEL_MAIN);
}

Test(advanced, advanced_select_first_turn)
{
    adv_start("open", NULL);
    adv_open();
    illegal(SELECT("p1", "[\"cor-forge-golem\"]"), "advanced:select.first_turn");
}

Test(advanced, advanced_select_per_turn_comes_first)
{
    adv_start("open", NULL);
    adv_open();
    end_turn("p1");
    illegal(SUMMON("p2", 0, "obs-umbral-kitten", "ap"), "advanced:select.per_turn");
    illegal(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"), "advanced:select.per_turn");
    select_one("p2", "obs-crypt-rat");
    illegal(SELECT("p2", "[\"obs-crypt-rat\"]"), "advanced:select.per_turn");   /* no second Selection Step */
}

Test(advanced, advanced_select_rate_lever)
{
    adv_start("open", "\"selection_rate\":2");
    adv_open();
    end_turn("p1");
    illegal(SELECT("p2", "[\"obs-crypt-rat\"]"), "advanced:select.per_turn");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"));
    cr_assert_eq(st.side[1].n_hand, 8);
}

Test(advanced, advanced_select_prevented)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-heat-haze\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-heat-haze", "[]"));
    end_turn("p1");   /* closes the Spell's window: p2's next Selection Step is prevented */
    cr_assert_eq(st.step, DUEL_MAIN);
    illegal(SELECT("p2", "[\"obs-crypt-rat\"]"), "advanced:select.prevented");
    summon("p2", 0, "obs-umbral-kitten", "ap");
}

Test(advanced, advanced_win_no_deck_out)
{
    char body[4096] = "\"type\":\"select\",\"by\":\"p2\",\"cards\":[";
    adv_start("open", NULL);
    adv_open();
    end_turn("p1");
    for (int i = 0; i < 36; i++)
        strcat(body, i ? ",\"obs-crypt-rat\"" : "\"obs-crypt-rat\"");
    strcat(body, "]");
    illegal(body, "advanced:win.no_deck_out");   /* 36 cards from a deck of 34 */
}

/* ---- hidden cards (openlog.md 6) --------------------------------------------- */

Test(advanced, advanced_openlog_6_selection_not_in_the_deck)
{
    adv_start("open", NULL);
    illegal(SELECT("p1", "[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-kindle-fury\",\"cor-ember-drake\","
                         "\"flx-tide-sprite\"]"),
            "openlog:6");
    /* two copies of Ember Sovereign: the deck holds one */
    illegal(SELECT("p1", "[\"cor-ember-whelp\",\"cor-ember-sovereign\",\"cor-ember-sovereign\",\"cor-ember-drake\","
                         "\"cor-firewall\"]"),
            "openlog:6");
}

Test(advanced, advanced_openlog_6_href_shape_follows_the_mode)
{
    adv_start("commit", NULL);
    illegal(SELECT("p1", P1_OPEN), "openlog:6");   /* card ids in commit mode */
}

Test(advanced, advanced_openlog_6_announced_reveal_needs_an_unused_copy)
{
    adv_start("announced", NULL);
    adv_open_with("[null,null,null,null,null]", "[null,null,null,null,null,null]");
    /* Tide Sprite is in the card database, not in carol's decklist */
    illegal(SUMMON("p1", 0, "flx-tide-sprite", "ap"), "openlog:6");
    summon("p1", 0, "cor-ember-whelp", "ap");
    cr_assert_eq(st.side[0].n_hand, 4);
    cr_assert_eq(st.side[0].deck_used[0] + st.side[0].deck_used[1], 1, "one Ember Whelp has left the deck");
}

Test(advanced, advanced_openlog_commit_reveal_must_open_a_commitment)
{
    static const char *const ids[5] = {"cor-ember-whelp", "cor-cinder-hound", "cor-kindle-fury", "cor-ember-drake",
                                       "cor-firewall"};
    static const char *const ids2[6] = {"obs-umbral-kitten", "obs-grave-bat", "obs-umbral-decoy", "obs-night-terror",
                                        "obs-soul-siphon", "obs-veil-assassin"};
    adv_start("commit", NULL);
    select_committed("p1", ids, 5, "00112233445566778899aabbccddeeff");
    select_committed("p2", ids2, 6, "00112233445566778899aabbccddeeff");
    illegal("\"type\":\"summon\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\","
            "\"nonce\":\"ffeeddccbbaa99887766554433221100\",\"position\":\"ap\",\"kind\":\"normal\"",
            "openlog:commit");
    ok("\"type\":\"summon\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\","
       "\"nonce\":\"00112233445566778899aabbccddeeff\",\"position\":\"ap\",\"kind\":\"normal\"");
}

Test(advanced, advanced_openlog_cards_unknown_card)
{
    adv_start("open", NULL);
    adv_open();
    illegal(SUMMON("p1", 0, "cor-no-such-card", "ap"), "openlog:cards");
}

Test(advanced, advanced_openlog_3_who_announces)
{
    adv_start("open", NULL);
    illegal(SELECT("table", P1_OPEN), "openlog:3");
    adv_open();
    illegal("\"type\":\"judge\",\"by\":\"p1\",\"ruling\":\"game_loss\",\"player\":\"p2\",\"text\":\"no\"", "openlog:3");
    illegal("\"type\":\"concede\",\"by\":\"table\"", "openlog:3");
    illegal(PASS("judge"), "openlog:3");
    illegal(COUNTER("table", "cor-firewall", "[]"), "openlog:3");
}

Test(advanced, advanced_openlog_4_one_header)
{
    adv_start("open", NULL);
    adv_open();
    char text[16384];
    snprintf(text, sizeof text,
             "{\"match\":\"t\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"advanced\","
             "\"cards\":\"core@1.1.0\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":{\"main\":[]}},"
             "\"p2\":{\"id\":\"b\",\"deck\":{\"main\":[]}}}}");
    olevent *h = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &h, &err), OL_OK, "%s", err.msg);
    olverdict v;
    duel_apply(&st, h, &v);
    olevent_destroy(&h);
    expect(v, OL_V_ILLEGAL, "openlog:4");
}

/* openlog 7 and SPEC.md 7.2: a Snap event, or Snap's active slot, is no
 * Advanced action -- judged through the verifier, as the daemon judges. */
Test(advanced, advanced_openlog_7_snap_event_and_snap_slot)
{
    static const char *const lines[] = {
        "{\"match\":\"t\",\"seq\":1,\"type\":\"select\",\"by\":\"p1\",\"cards\":" P1_OPEN "}",
        "{\"match\":\"t\",\"seq\":2,\"type\":\"flip\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\"}",
        "{\"match\":\"t\",\"seq\":3,\"type\":\"select\",\"by\":\"p2\",\"cards\":" P2_OPEN "}",
        "{\"match\":\"t\",\"seq\":4,\"type\":\"lock\",\"by\":\"p1\",\"cards\":[\"cor-firewall\"]}",
    };
    static const ol_status want[] = {OL_V_OK, OL_V_ILLEGAL, OL_V_OK, OL_V_ILLEGAL};
    char *text = adv_header_text("open", NULL);
    olevent *ev = NULL;
    olerror err;
    verifier *vf = NULL;
    olverdict v;
    adv_start("open", NULL);   /* loads the card database */
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    free(text);
    cr_assert_eq(verifier_new(db, ev, &vf, &v), VERIFIER_OK);
    olevent_destroy(&ev);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(olcodec_decode_json(lines[i], strlen(lines[i]), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s",
                     err.msg);
        verifier_apply(vf, ev, &v);
        olevent_destroy(&ev);
        if (want[i] == OL_V_OK)
            cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
        else
            expect(v, OL_V_ILLEGAL, "openlog:7");
    }
    verifier_destroy(&vf);
    /* Snap's slot "a" in a started match; a target count that does not fit */
    adv_start("open", NULL);
    adv_open();
    illegal("\"type\":\"summon\",\"by\":\"p1\",\"slot\":\"a\",\"card\":\"cor-ember-whelp\",\"position\":\"ap\","
            "\"kind\":\"normal\"",
            "openlog:7");
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(SPELL("p1", "cor-kindle-fury", "[]"), "openlog:7");   /* Kindle Fury chooses one target */
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p2\",\"s\":0}]"), "openlog:7");   /* not its own monster */
}

/* ---- the turn's steps ----------------------------------------------------------- */

Test(advanced, advanced_turn_order_no_spell_after_attack)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"), "advanced:turn.order");
    illegal(SUMMON("p2", 1, "obs-grave-bat", "ap"), "advanced:turn.order");   /* not p2's turn */
}

Test(advanced, advanced_summon_normal)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(SUMMON("p1", 1, "cor-cinder-hound", "ap"), "advanced:summon.normal");
    adv_start("open", NULL);
    adv_open();
    illegal(SUMMON("p1", 0, "cor-ember-drake", "ap"), "advanced:summon.normal");   /* an Evolution */
}

Test(advanced, advanced_summon_special_needs_an_effect)
{
    adv_start("open", NULL);
    adv_open();
    illegal("\"type\":\"summon\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-whelp\",\"position\":\"ap\","
            "\"kind\":\"special\"",
            "advanced:summon.special");
}

Test(advanced, advanced_field_limit_lever)
{
    adv_start("open", "\"monster_zones\":5");
    adv_open();
    illegal(SUMMON("p1", 5, "cor-ember-whelp", "ap"), "advanced:field.limit");
    summon("p1", 4, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    illegal(SUMMON("p1", 4, "cor-cinder-hound", "ap"), "advanced:field.limit");   /* taken */
}

Test(advanced, advanced_field_from_hand)
{
    adv_start("open", NULL);
    adv_open();
    illegal(SUMMON("p1", 0, "cor-forge-golem", "ap"), "advanced:field.from_hand");
}

Test(advanced, advanced_spell_own_turn)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    illegal(SPELL("p2", "obs-night-terror", "[{\"p\":\"p2\",\"s\":0}]"), "advanced:spell.own_turn");
}

Test(advanced, advanced_spell_class)
{
    adv_start("open", NULL);
    adv_open();
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"), "advanced:spell.class");
    illegal(SPELL("p1", "cor-firewall", "[]"), "advanced:spell.main_phase");   /* a Counter */
}

Test(advanced, advanced_counter_timing_not_in_own_turn_outside_combat)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(COUNTER("p1", "cor-firewall", "[]"), "advanced:counter.timing");
    illegal(COUNTER("p1", "cor-kindle-fury", "[]"), "advanced:counter.timing");   /* a Spell */
}

Test(advanced, advanced_counter_class)
{
    adv_start("open", NULL);
    adv_open_with(P1_OPEN, "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-void-denial\",\"obs-night-terror\","
                           "\"obs-soul-siphon\",\"obs-veil-assassin\"]");
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    illegal(COUNTER("p2", "obs-void-denial", "[{\"seq\":4}]"), "advanced:counter.class");   /* p2 has no monster */
}

Test(advanced, advanced_A22_attack_counter_needs_an_attack)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    illegal(COUNTER("p2", "obs-umbral-decoy", "[]"), "advanced:A22");
}

Test(advanced, advanced_A2_counter_in_opponents_turn_starts_a_chain)
{
    adv_start("open", NULL);
    adv_open_with(P1_OPEN, "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-void-denial\",\"obs-night-terror\","
                           "\"obs-soul-siphon\",\"obs-veil-assassin\"]");
    summon("p1", 0, "cor-ember-whelp", "ap");
    cr_assert_eq(st.window, DUEL_WIN_NONE, "a summon opens no window (A2)");
    end_turn("p1");
    select_one("p2", "obs-dark-mirror");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(COUNTER("p2", "obs-void-denial", "[{\"seq\":9}]"));
    cr_assert_eq(st.n_chain, 2);
    ok(PASS("p2"));   /* only p2 may answer: its pass closes the window */
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0, "the negated Kindle Fury gives nothing");
}

Test(advanced, advanced_A2_summon_opens_no_window)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    ok("\"type\":\"position\",\"by\":\"p1\",\"slot\":0");
    cr_assert_eq(st.window, DUEL_WIN_NONE);
}

Test(advanced, advanced_chain_cap)
{
    adv_start("open", "\"chain_cap\":1");
    adv_open_with(P1_OPEN, "[\"obs-umbral-kitten\",\"obs-dissonant-whisper\",\"obs-void-denial\",\"obs-night-terror\","
                           "\"obs-soul-siphon\",\"obs-veil-assassin\"]");
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(COUNTER("p2", "obs-void-denial", "[{\"seq\":9}]"));
    illegal(COUNTER("p2", "obs-dissonant-whisper", "[{\"seq\":10}]"), "advanced:chain.cap");
}

Test(advanced, advanced_A7_passes_close_the_window)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    cr_assert_eq(st.window, DUEL_WIN_SPELL);
    illegal(PASS("p1"), "advanced:counter.timing");   /* only the opponent answers a Spell */
    ok(PASS("p2"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(st.side[0].zone[0].atk_mod, 700);
    cr_assert_eq(st.side[0].n_grave, 1, "A19: the Spell is in the Graveyard");
}

Test(advanced, advanced_A7_next_action_closes_the_window)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok("\"type\":\"position\",\"by\":\"p1\",\"slot\":0");
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(st.side[0].zone[0].atk_mod, 700);
    end_turn("p1");
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0, "end.effects: until end of turn");
}

Test(advanced, advanced_A7_an_illegal_event_closes_the_window_too)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    illegal(SUMMON("p1", 1, "cor-cinder-hound", "ap"), "advanced:turn.order");   /* not p1's turn */
    cr_assert_eq(st.window, DUEL_WIN_NONE, "the attack was fought when the summon arrived");
    cr_assert(!st.side[0].zone[0].present);
    illegal(COUNTER("p1", "cor-firewall", "[]"), "advanced:counter.class");   /* too late, and no Coreon monster */
}

Test(advanced, advanced_A11_effect_selection_comes_first)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-stoke-the-forge\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-stoke-the-forge", "[]"));
    olverdict v = play(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    expect(v, OL_V_ILLEGAL, "advanced:select.per_turn");
    cr_assert(strstr(v.msg, "select the 1 card an effect gave them"), "%s", v.msg);   /* singular */
    illegal(SELECT("p1", "[\"cor-forge-golem\",\"cor-forge-golem\"]"), "advanced:select.per_turn");
    ok(SELECT("p1", "[\"cor-forge-golem\"]"));
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
}

/* ---- positions, evolutions, Primes ------------------------------------------------ */

Test(advanced, advanced_position_once_and_no_attack)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    illegal("\"type\":\"position\",\"by\":\"p1\",\"slot\":3", "advanced:position.step");
    ok("\"type\":\"position\",\"by\":\"p1\",\"slot\":0");
    illegal("\"type\":\"position\",\"by\":\"p1\",\"slot\":0", "advanced:position.once");
    end_turn("p1");
}

Test(advanced, advanced_position_no_attack)
{
    two_turns("obs-crypt-rat", "ap");
    ok("\"type\":\"position\",\"by\":\"p2\",\"slot\":0");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok("\"type\":\"position\",\"by\":\"p1\",\"slot\":0");   /* to DP */
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    ok("\"type\":\"position\",\"by\":\"p2\",\"slot\":0");   /* DP back to AP: switched this turn */
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:position.no_attack");
}

Test(advanced, advanced_A13_effect_switch_is_not_the_position_step)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-eruption\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "dp");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(SPELL("p1", "cor-eruption", "[{\"p\":\"p2\",\"s\":0}]"));   /* Kitten DP -> AP */
    ok(PASS("p2"));
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_AP);
    cr_assert_eq(st.side[1].zone[0].switched, 0);
}

Test(advanced, advanced_evolve_next_stage_from_hand)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "dp");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-ember-drake\"", "advanced:evolve.face_up");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    cr_assert_eq(st.side[0].zone[0].depth, 2);
    cr_assert_eq(st.side[0].zone[0].pos, OL_POS_DP, "A18: the position is kept");
}

Test(advanced, advanced_evolve_wrong_stage_and_once)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-cinder-warg\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-cinder-warg\"", "advanced:evolve.next_stage");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 1, "cor-cinder-hound", "ap");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":1,\"card\":\"cor-cinder-warg\"");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"", "advanced:evolve.once");
}

Test(advanced, advanced_evolve_no_attack)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    illegal(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"), "advanced:evolve.no_attack");
}

Test(advanced, advanced_prime_no_attack)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-ember-sovereign");
    /* its entry effect: 500 damage to the opponent, no target to choose */
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-sovereign\",\"targets\":[]");
    cr_assert_eq(st.side[1].lp, 5500);
    illegal(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"), "advanced:prime.no_attack");
}

/* p1 with three monsters on the field by their third turn. */
static void three_monsters(void)
{
    adv_start("open", "\"starting_lp\":5000");
    adv_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-magma-tortoise\",\"cor-corehart-the-molten-crown\","
                  "\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 1, "cor-cinder-hound", "ap");
}

Test(advanced, advanced_singular_condition)
{
    three_monsters();
    /* two monsters, one of them the one replaced: one other */
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":0,"
            "\"targets\":[{\"p\":\"p2\",\"s\":0}]",
            "advanced:singular.condition");
    /* two others, but Corehart's printed condition is LP <= 2000 */
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":2,"
            "\"targets\":[{\"p\":\"p2\",\"s\":0}]",
            "advanced:singular.condition");
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\","
            "\"targets\":[{\"p\":\"p2\",\"s\":0}]",
            "advanced:singular.entry");
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-magma-tortoise\",\"slot\":2,\"targets\":[]",
            "advanced:singular.entry");
}

Test(advanced, advanced_A4_prime_singular_replaces_and_needs_two_others)
{
    three_monsters();
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    /* bring p1 to 2000 LP: Soul Siphon 800 twice would need two copies; attack directly instead */
    st.side[0].lp = 2000;   /* the condition under test is the count; LP is set, not played */
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 2, "cor-magma-tortoise", "dp");
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":2,"
       "\"targets\":[{\"p\":\"p2\",\"s\":0}]");
    cr_assert_eq(st.side[0].zone[2].stack[0]->kind, CARD_PRIME_SINGULAR);
    cr_assert_eq(st.side[0].zone[2].pos, OL_POS_AP);
    cr_assert_eq(st.side[0].lost, 0, "A15: the replaced Tortoise is no defeat");
    cr_assert(!st.side[1].zone[0].present, "its entry effect destroyed the Kitten");
    cr_assert_eq(st.side[1].lost, 1);
}

Test(advanced, advanced_A27_prime_singular_enters_with_no_monster_to_destroy)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-magma-tortoise\",\"cor-corehart-the-molten-crown\","
                  "\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");   /* p2 summons nothing, all game */
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 1, "cor-cinder-hound", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 2, "cor-magma-tortoise", "dp");
    st.side[0].lp = 2000;   /* Corehart's printed condition (LP <= 2000): set, not played */
    illegal("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":3,"
            "\"targets\":[{\"p\":\"p2\",\"s\":0}]",
            "advanced:A27");
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":3,\"targets\":[]");
    cr_assert_eq(st.side[0].zone[3].stack[0]->kind, CARD_PRIME_SINGULAR);
}

/* ---- attacks and combat ------------------------------------------------------------ */

Test(advanced, advanced_attack_first_turn)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    illegal(ATTACK("p1", 0, "{\"p\":\"p2\"}"), "advanced:attack.first_turn");
}

Test(advanced, advanced_attack_declare_names_a_monster)
{
    two_turns("obs-crypt-rat", "ap");
    illegal(ATTACK("p2", 3, "{\"p\":\"p1\",\"s\":0}"), "advanced:attack.declare");
    /* no slot at all: Snap's attack from the active slot has none */
    illegal("\"type\":\"attack\",\"by\":\"p2\",\"target\":{\"p\":\"p1\",\"s\":0}", "advanced:attack.declare");
}

Test(advanced, advanced_A1_summon_in_defense_position_cannot_attack)
{
    two_turns("obs-crypt-rat", "dp");
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_DP);
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:attack.dp");
}

Test(advanced, advanced_A3_summoned_monster_attacks_same_turn)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
}

Test(advanced, advanced_attack_once)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\"}"), "advanced:attack.once");
}

Test(advanced, advanced_attack_direct_only_on_an_empty_field)
{
    two_turns("obs-crypt-rat", "ap");
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\"}"), "advanced:attack.direct");
    illegal(ATTACK("p2", 0, "{\"p\":\"p2\"}"), "advanced:attack.direct");
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":4}"), "advanced:attack.target");
    illegal(ATTACK("p2", 0, "{\"p\":\"p2\",\"s\":0}"), "advanced:attack.target");
}

Test(advanced, advanced_combat_ap_vs_ap_higher_wins)
{
    two_turns("obs-crypt-rat", "ap");   /* Kitten 1500 against Whelp 1200 */
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    end_turn("p2");   /* closes the window: the combat resolves */
    cr_assert(!st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].lp, 5700);
    cr_assert_eq(st.side[0].lost, 1);
    /* the direct attack that follows, when p1 controls nothing */
    select_one("p1", "cor-forge-golem");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\"}"));
    end_turn("p2");
    cr_assert_eq(st.side[0].lp, 4200, "combat.direct: the attacker's ATK");
}

Test(advanced, advanced_combat_ap_vs_ap_tie)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-forge-golem\",\"cor-cinder-hound\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-forge-golem", "ap");   /* ATK 900 */
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-grave-bat", "ap");     /* ATK 900 */
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    ok(PASS("p1"));
    ok(PASS("p2"));
    cr_assert(!st.side[0].zone[0].present && !st.side[1].zone[0].present, "both destroyed");
    cr_assert_eq(st.side[0].lp, 6000, "no damage on a tie");
    cr_assert_eq(st.side[1].lp, 6000);
}

Test(advanced, advanced_combat_ap_vs_dp_no_damage)
{
    two_turns("obs-crypt-rat", "dp");   /* Kitten DEF 900 */
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));   /* Whelp ATK 1200 > 900 */
    end_turn("p1");
    cr_assert(!st.side[1].zone[0].present);
    cr_assert_eq(st.side[1].lp, 6000, "A5: no Pierce, no damage");
}

Test(advanced, advanced_A16_fizzled_attack_deals_nothing)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    ok(COUNTER("p1", "cor-firewall", "[]"));
    ok(PASS("p2"));
    ok(PASS("p1"));
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].lp, 6000);
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:attack.once");
}

/* Player 2's first turn, Umbral Kitten facing Ember Whelp; p1 (the
 * Coreon/Fluxion deck) holds Smolder Trap, which destroys an attacker. */
static void smolder_trap_turn(void)
{
    adv_start_decks("open", NULL, "fixtures/decks/advanced/legal-coreon-fluxion.json",
                    "fixtures/decks/advanced/legal-obscura-night.json");
    adv_open_with("[\"cor-ember-whelp\",\"cor-smolder-trap\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
}

Test(advanced, advanced_A17_attacker_destroyed_by_counter)
{
    smolder_trap_turn();
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    ok(COUNTER("p1", "cor-smolder-trap", "[]"));
    end_turn("p2");
    cr_assert(!st.side[1].zone[0].present, "the attacker is destroyed");
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].lp, 6000);
}

Test(advanced, advanced_A6_lp_zero_ends_the_game_at_once)
{
    adv_start("open", "\"starting_lp\":1000");
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(SPELL("p2", "obs-soul-siphon", "[]"));   /* 800: p1 at 200 */
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));   /* closes the Spell's window */
    cr_assert_eq(st.side[0].lp, 200);
    ok(PASS("p1"));
    ok(PASS("p2"));   /* 1500 - 1200 = 300 >= 200 */
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 1);
    cr_assert_eq(st.side[0].lp, 0);
    illegal("\"type\":\"end\",\"by\":\"p2\"", "advanced:win.immediate");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p2\"");
}

Test(advanced, advanced_win_immediate_after_a_concession)
{
    adv_start("open", NULL);
    adv_open();
    ok("\"type\":\"concede\",\"by\":\"p1\"");
    illegal(SUMMON("p1", 0, "cor-ember-whelp", "ap"), "advanced:win.immediate");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"after the game\"");
}

Test(advanced, advanced_A9_claim_with_wrong_lp_is_a_mismatch)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    end_turn("p2");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"lp\":{\"p1\":6000,\"p2\":6000}"), OL_V_MISMATCH,
           "advanced:A9");
    expect(play("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p2\""), OL_V_MISMATCH, "advanced:A9");
    olverdict v = play("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p2\",\"s\":0}]");
    expect(v, OL_V_MISMATCH, "advanced:A9");
    cr_assert(strstr(v.msg, "p1's monster in Monster Zone 0"), "%s", v.msg);
    ok("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":0}],\"lp\":{\"p1\":5700,\"p2\":6000}");
}

/* ---- the End Phase and the clock ---------------------------------------------------- */

Test(advanced, advanced_end_hand_limit)
{
    adv_start("open", "\"hand_limit\":7,\"selection_rate\":2");
    adv_open();
    illegal("\"type\":\"discard\",\"by\":\"p1\",\"card\":\"cor-firewall\"", "advanced:end.hand_limit");
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"));   /* 8 cards */
    illegal("\"type\":\"end\",\"by\":\"p2\"", "advanced:end.hand_limit");
    ok("\"type\":\"discard\",\"by\":\"p2\",\"card\":\"obs-crypt-rat\"");
    cr_assert_eq(st.step, DUEL_END);
    illegal(SUMMON("p2", 0, "obs-umbral-kitten", "ap"), "advanced:turn.order");
    end_turn("p2");
}

/* advanced.md: "The active player discards down to the hand limit (normally
 * 9 cards)." -- the default, with no hand_limit lever: 10 cards cannot end
 * a turn, 9 can. */
Test(advanced, advanced_end_hand_limit_default_9)
{
    adv_start("open", "\"selection_rate\":2");
    adv_open();
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"));   /* 8 cards */
    end_turn("p2");
    ok(SELECT("p1", "[\"cor-forge-golem\",\"cor-forge-golem\"]"));
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-hollow-mask\",\"obs-hollow-mask\"]"));   /* 10 cards */
    illegal("\"type\":\"end\",\"by\":\"p2\"", "advanced:end.hand_limit");
    ok("\"type\":\"discard\",\"by\":\"p2\",\"card\":\"obs-crypt-rat\"");   /* 9 */
    end_turn("p2");
}

/* advanced.md: "Decision shot-clock: 45 seconds." -- at the millisecond:
 * 45.000 s is within it, 45.001 s is not. */
Test(advanced, advanced_clock_shot_at_the_millisecond)
{
    adv_start("open", NULL);
    adv_open();
    cr_assert_eq(play_t(SUMMON("p1", 0, "cor-ember-whelp", "ap"), 1000000).status, OL_V_OK);
    cr_assert_eq(play_t("\"type\":\"end\",\"by\":\"p1\"", 1000000 + 45000).status, OL_V_OK);
    expect(play_t(SELECT("p2", "[\"obs-crypt-rat\"]"), 1000000 + 45000 + 45001), OL_V_WARNING, "advanced:clock.shot");
}

Test(advanced, advanced_clock_shot)
{
    adv_start("open", NULL);
    adv_open();
    cr_assert_eq(play_t(SUMMON("p1", 0, "cor-ember-whelp", "ap"), 1000000).status, OL_V_OK);
    olverdict v = play_t("\"type\":\"end\",\"by\":\"p1\"", 1000000 + 46000);
    expect(v, OL_V_WARNING, "advanced:clock.shot");
    cr_assert(strstr(v.msg, "45 seconds"), "%s", v.msg);
}

/* ---- what the mutation run of advanced.c found untested (tests/MUTATION-advanced.md) --- */

/* Player 1's second turn (the third), after the Selection Step: Ember Whelp
 * (AP) faces Umbral Kitten in `pos`; the hands are the opening ones given,
 * Player 1 plays the deck of the file p1deck. */
static void third_turn_decks(const char *p1deck, const char *rules, const char *p1cards, const char *p2cards,
                             const char *pos)
{
    adv_start_decks("open", rules, p1deck, "fixtures/decks/advanced/legal-obscura-night.json");
    adv_open_with(p1cards, p2cards);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", pos);
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
}

/* The same with the usual decks (advancedscript.h). */
static void third_turn(const char *rules, const char *p1cards, const char *p2cards, const char *pos)
{
    third_turn_decks("fixtures/decks/advanced/legal-coreon-ember.json", rules, p1cards, p2cards, pos);
}

#define JUDGE_LOSS(p) "\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"player\":\"" p "\",\"text\":\"x\""

/* The board of `st` as the judge sees it (sees both hands), or as one
 * player does (duelscript.h); the caller frees the text. */
#define board duel_script_board

/* advanced.md: "Player 1: selects 5 cards. Player 2: selects 6 cards." --
 * and the verdict says which count was owed. */
Test(advanced, advanced_select_opening_says_the_count_owed)
{
    adv_start("open", NULL);
    olverdict v = play(SELECT("p1", P2_OPEN));
    expect(v, OL_V_ILLEGAL, "advanced:select.opening");
    cr_assert(strstr(v.msg, "Player 1 selects 5"), "%s", v.msg);
    v = play(SELECT("p2", P1_OPEN));
    expect(v, OL_V_ILLEGAL, "advanced:select.opening");
    cr_assert(strstr(v.msg, "Player 2 selects 6"), "%s", v.msg);
}

/* verifier.h: the round is 0 before the opening hands, then one per pair
 * of turns ("The turn ends and play passes to the opponent"). */
Test(advanced, advanced_end_pass_a_round_is_two_turns)
{
    adv_start("open", NULL);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 0);
    adv_open();
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1);
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1);
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 2);
    select_one("p1", "cor-forge-golem");
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 2);
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 3);
}

/* A concession before the opening hands ends the match with a winner (the
 * verifier's finished(), which the daemon and the summary read). */
Test(advanced, advanced_win_immediate_a_concession_before_the_opening_hands)
{
    int winner = -2;
    adv_start("open", NULL);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->finished(&st, &winner), 0);
    cr_assert_eq(winner, -1);
    ok("\"type\":\"concede\",\"by\":\"p2\"");
    winner = -2;
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->finished(&st, &winner), 1);
    cr_assert_eq(winner, 0, "p1 wins");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->finished(&st, NULL), 1);
    cr_assert_eq(st.step, DUEL_OVER);
    illegal(SELECT("p1", P1_OPEN), "advanced:win.immediate");
}

/* After a concession or a judge's game loss the game is over: the board
 * says so as well as the verdicts. */
Test(advanced, advanced_win_immediate_the_board_says_game_over)
{
    int winner = -2;
    adv_start("open", NULL);
    adv_open();
    ok("\"type\":\"concede\",\"by\":\"p1\"");
    cr_assert_eq(st.step, DUEL_OVER);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->finished(&st, &winner), 1);
    cr_assert_eq(winner, 1);
    char *b = board(1, 1, 1);
    HAS(b, "\"step\":\"over\"");
    HAS(b, "\"over\":true,\"winner\":\"p2\"");
    free(b);

    adv_start("open", NULL);
    adv_open();
    ok(JUDGE_LOSS("p2"));
    cr_assert_eq(st.step, DUEL_OVER);
    cr_assert_eq(st.ol.winner, 0);
    b = board(0, 1, 1);
    HAS(b, "game over: p1 (carol)");
    free(b);
    illegal(SUMMON("p1", 0, "cor-ember-whelp", "ap"), "advanced:win.immediate");
}

/* A6: once the game is over nothing more resolves -- not even the attack
 * whose window was open when the judge ruled a game loss, when the log
 * then ends (A7 closes an open window only in a game still going on). */
Test(advanced, advanced_A6_nothing_resolves_after_a_game_loss)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));   /* Kitten 1500 against Whelp 1200 */
    ok(JUDGE_LOSS("p2"));
    duel_silence(&st);
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0);
    cr_assert(st.side[0].zone[0].present, "no combat after the game ended");
    cr_assert_eq(st.side[0].lp, 6000);
    cr_assert_eq(st.side[0].lost, 0);
}

/* A7, the same log in a game still going on: the end of the log fights the
 * attack. */
Test(advanced, advanced_A7_the_end_of_the_log_closes_the_window)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    duel_silence(&st);
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert(!st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].lp, 5700);
}

/* openlog 6: the hand cards whose identity was never checked, per player
 * (announced mode: every selected card, until it is revealed). */
Test(advanced, advanced_openlog_6_unverified_hand_cards_are_counted)
{
    unsigned out[2] = {99, 99};
    adv_start("announced", NULL);
    adv_open_with("[null,null,null,null,null]", "[null,null,null,null,null,null]");
    duel_unverifiable(&st, out);
    cr_assert_eq(out[0], 5);
    cr_assert_eq(out[1], 6);
    summon("p1", 0, "cor-ember-whelp", "ap");
    out[0] = out[1] = 99;
    duel_unverifiable(&st, out);
    cr_assert_eq(out[0], 4);
    cr_assert_eq(out[1], 6);
    adv_start("open", NULL);
    adv_open();
    out[0] = out[1] = 99;
    duel_unverifiable(&st, out);
    cr_assert(out[0] == 0 && out[1] == 0, "open mode names every card");
}

/* openlog 7 (SPEC.md 7.2): Snap's active slot "a" is no Monster Zone,
 * whether it is an attack's target, a card's target or a claimed defeat. */
Test(advanced, advanced_openlog_7_snap_slot_in_a_target_or_a_claim)
{
    two_turns("obs-crypt-rat", "ap");
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":\"a\"}"), "openlog:7");
    /* the first of a card's targets, and a later one: each is read */
    olverdict v = play(SPELL("p2", "obs-night-terror", "[{\"p\":\"p2\",\"s\":\"a\"}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "which is Snap's"), "%s", v.msg);
    v = play(SPELL("p2", "obs-night-terror", "[{\"p\":\"p2\",\"s\":0},{\"p\":\"p2\",\"s\":\"a\"}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "which is Snap's"), "%s", v.msg);
    illegal("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]", "openlog:7");
    illegal("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":0},{\"p\":\"p1\",\"s\":\"a\"}]",
            "openlog:7");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
}

/* openlog 7: an own_monster selector takes one of its player's monsters,
 * not the opponent's, for Player 1 as for Player 2; the verdict says so. */
Test(advanced, advanced_openlog_7_own_monster_selector_refuses_the_opponents)
{
    two_turns("obs-crypt-rat", "ap");
    olverdict v = play(SPELL("p2", "obs-night-terror", "[{\"p\":\"p1\",\"s\":0}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "one of its player's monster"), "%s", v.msg);
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    v = play(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p2\",\"s\":0}]"));   /* the Kitten is there */
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "one of its player's monster"), "%s", v.msg);
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
}

/* openlog 7: an opp_monster selector takes an opponent's monster. */
Test(advanced, advanced_openlog_7_opp_monster_selector_refuses_ones_own)
{
    third_turn(NULL, "[\"cor-ember-whelp\",\"cor-meltdown\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
               P2_OPEN, "ap");
    olverdict v = play(SPELL("p1", "cor-meltdown", "[{\"p\":\"p1\",\"s\":0}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "an opponent's monster"), "%s", v.msg);
    ok(SPELL("p1", "cor-meltdown", "[{\"p\":\"p2\",\"s\":0}]"));
    ok(PASS("p2"));
    cr_assert(!st.side[1].zone[0].present, "Meltdown destroyed the Kitten");
    cr_assert_eq(st.side[1].lost, 1, "A15: destroyed by an effect is defeated");
}

/* openlog 7: a chain_link selector takes a Spell or Counter on the chain. */
Test(advanced, advanced_openlog_7_a_chain_link_target_must_be_on_the_chain)
{
    third_turn(NULL, P1_OPEN,
               "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-void-denial\",\"obs-night-terror\","
               "\"obs-soul-siphon\",\"obs-veil-assassin\"]", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));   /* seq 9 */
    illegal(COUNTER("p2", "obs-void-denial", "[{\"seq\":8}]"), "openlog:7");
    illegal(COUNTER("p2", "obs-void-denial", "[{\"p\":\"p1\",\"s\":0}]"), "openlog:7");
    ok(COUNTER("p2", "obs-void-denial", "[{\"seq\":9}]"));
}

/* A2: a Counter played in the opponent's turn with no window open starts a
 * chain of its own, which resolves when the one player who may answer in
 * it passes; the Counter then goes to the Graveyard. */
Test(advanced, advanced_A2_a_lone_counter_resolves_into_the_graveyard)
{
    third_turn(NULL, P1_OPEN,
               "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-void-denial\",\"obs-night-terror\","
               "\"obs-soul-siphon\",\"obs-veil-assassin\"]", "ap");
    ok(COUNTER("p2", "obs-void-denial", "[]"));   /* A27: no chain link to name */
    cr_assert_eq(st.window, DUEL_WIN_COUNTER);
    cr_assert_eq(st.n_chain, 1);
    char *b = board(1, 1, 1);
    HAS(b, "\"window\":\"counter\",\"chain\":[{\"seq\":9,\"player\":\"p2\",\"kind\":\"counter\","
           "\"card\":\"obs-void-denial\"");
    free(b);
    illegal(PASS("p1"), "advanced:counter.timing");   /* A8: only the opponent answers */
    ok(PASS("p2"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(st.n_chain, 0);
    cr_assert_eq(st.side[1].n_grave, 1);
    cr_assert_str_eq(st.side[1].grave[0]->id, "obs-void-denial");
}

/* A23: the cap counts a player's Counters in one chain; the next chain
 * starts from none, for either player. */
Test(advanced, advanced_A23_the_cap_counts_one_chain)
{
    third_turn("\"chain_cap\":1",
               "[\"cor-ember-whelp\",\"cor-searing-brand\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
               "[\"obs-umbral-kitten\",\"obs-dissonant-whisper\",\"obs-void-denial\",\"obs-night-terror\","
               "\"obs-soul-siphon\",\"obs-veil-assassin\"]", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));   /* seq 9 */
    ok(COUNTER("p2", "obs-void-denial", "[{\"seq\":9}]"));
    ok(PASS("p2"));
    cr_assert_eq(st.chain_count[1], 0);
    ok(SPELL("p1", "cor-searing-brand", "[]"));   /* seq 12 */
    ok(COUNTER("p2", "obs-dissonant-whisper", "[{\"seq\":12}]"));
    ok(PASS("p2"));
    cr_assert_eq(st.side[1].lp, 6000, "Searing Brand was negated");
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0, "and so was Kindle Fury");
}

/* A22: a Counter that fizzles an attack, or acts on its attacker, needs an
 * attack as much as one that acts on its defender. */
Test(advanced, advanced_A22_fizzle_and_attacker_counters_need_an_attack)
{
    third_turn(NULL, P1_OPEN,
               "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-dark-mirror\",\"obs-night-terror\","
               "\"obs-soul-siphon\",\"obs-veil-assassin\"]",
               "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    illegal(COUNTER("p2", "obs-dark-mirror", "[]"), "advanced:A22");   /* fizzle */
    ok(PASS("p2"));
    smolder_trap_turn();
    illegal(COUNTER("p1", "cor-smolder-trap", "[]"), "advanced:A22");   /* destroys the attacker */
}

/* advanced.md: "and meet the card’s printed condition" -- Nyxora's is at
 * least 2 defeated monsters of the opponent: 2 is enough.  A3: a Prime
 * Singular may attack in the turn it entered. */
Test(advanced, advanced_singular_condition_opp_defeated_min_is_at_least)
{
    third_turn(NULL, P1_OPEN,
               "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-nyxora-the-last-eclipse\","
               "\"obs-night-terror\",\"obs-soul-siphon\",\"obs-veil-assassin\"]", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 1, "obs-grave-bat", "ap");
    st.side[0].lost = 1;   /* p1's defeats: set, not played */
    illegal("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\",\"slot\":2,"
            "\"targets\":[{\"p\":\"p1\",\"s\":0}]",
            "advanced:singular.condition");
    st.side[0].lost = 2;
    ok("\"type\":\"prime\",\"by\":\"p2\",\"card\":\"obs-nyxora-the-last-eclipse\",\"slot\":2,"
       "\"targets\":[{\"p\":\"p1\",\"s\":0}]");
    cr_assert(st.side[1].zone[2].present);
    cr_assert(!st.side[0].zone[0].present, "its entry effect destroyed the Whelp");
    /* A3: it attacks at once -- directly, p1 controlling no monster now */
    ok(ATTACK("p2", 2, "{\"p\":\"p1\"}"));
    end_turn("p2");
    cr_assert_eq(st.side[0].lp, 2500, "Nyxora's 3500 ATK");
}

/* advanced.md: "Graveyard: all destroyed monsters and used cards." -- a
 * discarded card goes there; A12: a discard only down to the limit, so
 * none at it. */
Test(advanced, advanced_A12_a_discard_goes_to_the_graveyard_and_stops_at_the_limit)
{
    adv_start("open", "\"hand_limit\":7,\"selection_rate\":2");
    adv_open();
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-grave-bat\"]"));   /* 8 cards */
    ok("\"type\":\"discard\",\"by\":\"p2\",\"card\":\"obs-crypt-rat\"");
    cr_assert_eq(st.side[1].n_hand, 7);
    cr_assert_eq(st.side[1].n_grave, 1);
    cr_assert_str_eq(st.side[1].grave[0]->id, "obs-crypt-rat");
    illegal("\"type\":\"discard\",\"by\":\"p2\",\"card\":\"obs-grave-bat\"", "advanced:end.hand_limit");
    end_turn("p2");
}

/* A4: the stack a Prime Singular replaces goes to the Graveyard, whole,
 * and is no defeat (A15). */
Test(advanced, advanced_A4_the_replaced_stack_goes_to_the_graveyard)
{
    three_monsters();
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-ember-drake");
    summon("p1", 2, "cor-magma-tortoise", "dp");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");   /* Whelp > Drake */
    end_turn("p1");
    select_one("p2", "obs-grave-bat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    st.side[0].lp = 2000;   /* Corehart's printed condition (LP <= 2000): set, not played */
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":0,"
       "\"targets\":[{\"p\":\"p2\",\"s\":0}]");
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].zone[0].depth, 1);
    cr_assert_eq(st.side[0].n_grave, 2);
    cr_assert_str_eq(st.side[0].grave[0]->id, "cor-ember-whelp");
    cr_assert_str_eq(st.side[0].grave[1]->id, "cor-ember-drake");
    cr_assert_eq(st.side[0].lost, 0);
    cr_assert_eq(st.side[1].lost, 1);
}

/* A27: a `monster` selector has a candidate while either player controls a
 * monster -- here only its own player does (no core card has one: Soul
 * Reap is rewritten to choose any monster), so it must name one. */
Test(advanced, advanced_A27_a_monster_selector_takes_the_players_own_monster)
{
    adv_rewrite_card("obs-soul-reap", "\"opp_monster\"", "\"monster\"");
    adv_start("open", NULL);
    adv_open();
    end_turn("p1");   /* p1 summons nothing */
    select_one("p2", "obs-soul-reap");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    cr_assert_eq(duel_monsters_of(&st, 0), 0);
    /* its one candidate is not left out */
    olverdict v = play(SPELL("p2", "obs-soul-reap", "[]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "names 0 targets; its effects choose 1"), "%s", v.msg);
    ok(SPELL("p2", "obs-soul-reap", "[{\"p\":\"p2\",\"s\":0}]"));
    ok(PASS("p1"));
    cr_assert(!st.side[1].zone[0].present, "Soul Reap destroyed p2's own Kitten");
}

/* openlog 7: a `player` selector takes a player reference (no core card
 * has one: Searing Brand is rewritten to choose its player). */
Test(advanced, advanced_openlog_7_a_player_selector_takes_a_player)
{
    adv_rewrite_card("cor-searing-brand", "\"opponent\"", "\"player\"");
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-searing-brand\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    olverdict v = play(SPELL("p1", "cor-searing-brand", "[{\"p\":\"p1\",\"s\":0}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "must target a player"), "%s", v.msg);
    illegal(SPELL("p1", "cor-searing-brand", "[]"), "openlog:7");
    ok(SPELL("p1", "cor-searing-brand", "[{\"p\":\"p2\"}]"));
    ok(PASS("p2"));
    cr_assert_eq(st.side[1].lp, 5400);
    cr_assert_eq(st.side[0].lp, 6000);
}

/* openlog 7: a `monster` selector takes a monster of either player (no
 * core card has one: Meltdown is rewritten to choose any monster). */
Test(advanced, advanced_openlog_7_a_monster_selector_takes_either_players)
{
    adv_rewrite_card("cor-meltdown", "\"opp_monster\"", "\"monster\"");
    third_turn(NULL, "[\"cor-ember-whelp\",\"cor-meltdown\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
               P2_OPEN, "ap");
    olverdict v = play(SPELL("p1", "cor-meltdown", "[{\"p\":\"p2\",\"s\":1}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "must target a monster on the field"), "%s", v.msg);
    ok(SPELL("p1", "cor-meltdown", "[{\"p\":\"p2\",\"s\":0}]"));
    ok(PASS("p2"));
    cr_assert(!st.side[1].zone[0].present);
    cr_assert(st.side[0].zone[0].present);
}

/* advanced.md: "ATK = DEF: no destruction." -- down to the smallest
 * values (the Whelp rewritten to ATK 1, the Kitten to DEF 1). */
Test(advanced, advanced_combat_ap_vs_dp_equal_destroys_nothing)
{
    adv_rewrite_card("cor-ember-whelp", "\"atk\": 1200", "\"atk\": 1");
    adv_rewrite_card("obs-umbral-kitten", "\"def\": 900", "\"def\": 1");
    two_turns("obs-crypt-rat", "dp");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));
    end_turn("p1");
    cr_assert(st.side[1].zone[0].present, "ATK 1 = DEF 1: no destruction");
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].lp, 6000);
    cr_assert_eq(st.side[1].lp, 6000);
}

/* advanced.md: "ATK > DEF: defender destroyed" -- down to the smallest
 * values: an ATK of 1 against a DEF of 0 (the Kitten rewritten to DEF 0,
 * which no DEF below it can undercut). */
Test(advanced, advanced_combat_ap_vs_dp_atk_1_destroys_def_0)
{
    adv_rewrite_card("cor-ember-whelp", "\"atk\": 1200", "\"atk\": 1");
    adv_rewrite_card("obs-umbral-kitten", "\"def\": 900", "\"def\": 0");
    two_turns("obs-crypt-rat", "dp");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));
    end_turn("p1");
    cr_assert(!st.side[1].zone[0].present, "ATK 1 > DEF 0: the defender is destroyed");
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[1].lp, 6000, "no LP damage against a monster in Defense Position");
}

/* advanced.md: "Higher ATK destroys lower; difference dealt as LP damage."
 * -- the attacker the lower: it is destroyed and its controller takes the
 * difference (A5). */
Test(advanced, advanced_combat_ap_vs_ap_a_weaker_attacker_is_destroyed)
{
    two_turns("obs-crypt-rat", "ap");   /* Whelp 1200 against Kitten 1500 */
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));
    end_turn("p1");
    cr_assert(!st.side[0].zone[0].present, "the weaker attacker is destroyed");
    cr_assert(st.side[1].zone[0].present);
    cr_assert_eq(st.side[0].lp, 5700, "its controller takes the difference, 300");
    cr_assert_eq(st.side[1].lp, 6000);
}

/* ---- the board (board.c): what a viewer and the judge are shown ------------------- */

/* Before the opening hands, and for a header that starts no match. */
Test(advanced, advanced_select_opening_board_before_the_first_turn)
{
    adv_start("open", NULL);
    char *b = board(1, 1, 1);
    HAS(b, "{\"round\":0,\"turn\":null,\"step\":\"setup\",\"window\":null,\"chain\":[],\"attack\":null,");
    HAS(b, "\"over\":false,\"winner\":null}");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "setup: opening selections\nwindow: none\n");
    HAS(b, "  zone 0     (empty)\n");
    HAS(b, "  hand       0 cards\n  deck       40 cards\n  graveyard  0\n  defeated   0 monsters\n");
    free(b);

    adv_start_decks("open", NULL, "fixtures/decks/advanced/illegal-advanced_deck_size-39-cards.json",
                    "fixtures/decks/advanced/legal-obscura-night.json");
    b = board(1, 1, 1);
    HAS(b, "\"over\":true,\"winner\":null}");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "game over: no winner\n");
    free(b);
}

/* window.attack: the attack in progress on the board, and the Counters
 * that answer it; then the fight, and what it leaves (a Counter's
 * modifier until the end of the turn). */
Test(advanced, advanced_window_attack_the_board_shows_the_attack_and_its_chain)
{
    third_turn(NULL, P1_OPEN,
               "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-umbral-decoy\",\"obs-night-terror\","
               "\"obs-soul-siphon\",\"obs-veil-assassin\"]",
               "dp");   /* Kitten DEF 900 */
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));   /* seq 9: Whelp ATK 1200 */
    ok(COUNTER("p2", "obs-umbral-decoy", "[]"));     /* seq 10: the defender DEF +800 */
    char *b = board(1, 1, 1);
    HAS(b, "\"round\":2,\"turn\":\"p1\",\"step\":\"attack\",\"window\":\"attack\",\"chain\":[{\"seq\":10,"
           "\"player\":\"p2\",\"kind\":\"counter\",\"card\":\"obs-umbral-decoy\",\"name\":\"Umbral Decoy\","
           "\"negated\":false}],\"attack\":{\"attacker\":{\"player\":\"p1\",\"slot\":0},\"target\":{\"player\":"
           "\"p2\",\"slot\":0},\"fizzled\":false}");
    HAS(b, "{\"card\":\"cor-ember-whelp\",\"name\":\"Ember Whelp\",\"stack\":[\"cor-ember-whelp\"],\"position\":\"ap\","
           "\"atk\":1200,\"def\":900,\"atk_mod\":0,\"def_mod\":0,\"attacked\":true,\"switched\":false,"
           "\"evolved\":false}");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "round 2, p1 (carol) to play, Attack Phase\nwindow: attack\n"
           "chain: 1. p2 Umbral Decoy (counter, seq 10)\n"
           "attack: p1 Ember Whelp (zone 0) -> p2 Umbral Kitten (zone 0)\n");
    HAS(b, "  zone 0     Ember Whelp  AP  ATK 1200 / DEF 900  (this turn: attacked)\n");
    free(b);
    ok(PASS("p1"));
    ok(PASS("p2"));   /* the Decoy resolves, then the fight: 1200 against 1700 */
    cr_assert(st.side[1].zone[0].present, "advanced.md: ATK < DEF: no destruction");
    cr_assert_eq(st.side[1].lp, 6000);
    cr_assert_eq(st.side[1].zone[0].def_mod, 800);
    b = board(1, 1, 1);
    HAS(b, "\"window\":null,\"chain\":[],\"attack\":null,");
    HAS(b, "\"position\":\"dp\",\"atk\":1500,\"def\":900,\"atk_mod\":0,\"def_mod\":800,");
    HAS(b, "\"graveyard\":[\"obs-umbral-decoy\"],\"lost\":0,");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "  zone 0     Umbral Kitten  DP  ATK 1500 / DEF 900 (+800)\n");
    HAS(b, "  graveyard  1: Umbral Decoy\n");
    HAS_NOT(b, "attack:");
    free(b);
    end_turn("p1");
    cr_assert_eq(st.side[1].zone[0].def_mod, 0, "end.effects");
}

/* combat.direct on the board: the target is the player, no zone. */
Test(advanced, advanced_attack_direct_the_board_names_the_player)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    end_turn("p2");   /* the Whelp is destroyed */
    select_one("p1", "cor-forge-golem");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\"}"));
    char *b = board(1, 1, 1);
    HAS(b, "\"attack\":{\"attacker\":{\"player\":\"p2\",\"slot\":0},\"target\":{\"player\":\"p1\",\"slot\":null},"
           "\"fizzled\":false}");
    HAS(b, "\"graveyard\":[\"cor-ember-whelp\"],\"lost\":1,");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "attack: p2 Umbral Kitten (zone 0) -> p1 directly\n");
    HAS(b, "  graveyard  1: Ember Whelp\n  defeated   1 monster\n");
    free(b);
}

/* evolve.stack, A18: the evolved monster shows its whole stack, its
 * position and the modifiers in force; a switched monster says so. */
Test(advanced, advanced_evolve_stack_the_board_shows_the_stack_and_modifiers)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "dp");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    char *b = board(0, 1, 1);
    HAS(b, "round 1, p1 (carol) to play, Main Phase\nwindow: spell\nchain: 1. p1 Kindle Fury (spell, seq 4)\n");
    free(b);
    ok(PASS("p2"));
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    b = board(1, 1, 1);
    HAS(b, "{\"card\":\"cor-ember-drake\",\"name\":\"Ember Drake\",\"stack\":[\"cor-ember-whelp\",\"cor-ember-drake\"],"
           "\"position\":\"dp\",\"atk\":2100,\"def\":1600,\"atk_mod\":700,\"def_mod\":0,\"attacked\":false,"
           "\"switched\":false,\"evolved\":true}");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "  zone 0     Ember Drake  DP  ATK 2100 (+700) / DEF 1600  stack: Ember Whelp > Ember Drake  "
           "(this turn: evolved)\n");
    free(b);
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok("\"type\":\"position\",\"by\":\"p2\",\"slot\":0");
    b = board(0, 1, 1);
    HAS(b, "  zone 0     Umbral Kitten  DP  ATK 1500 / DEF 900  (this turn: switched)\n");
    HAS(b, "  zone 0     Ember Drake  DP  ATK 2100 / DEF 1600  stack: Ember Whelp > Ember Drake\n");
    free(b);
}

/* openlog 9 through the board: a player sees their own hand (committed
 * cards as such), never the opponent's; the judge sees both. */
Test(advanced, advanced_openlog_6_the_board_shows_each_hand_to_its_player)
{
    static const char *const ids[5] = {"cor-ember-whelp", "cor-cinder-hound", "cor-kindle-fury", "cor-ember-drake",
                                       "cor-firewall"};
    adv_start("commit", NULL);
    select_committed("p1", ids, 5, "00112233445566778899aabbccddeeff");
    char *b = board(0, 1, 0);
    HAS(b, "p1 (carol)  (you)  LP 6000\n");
    HAS(b, "  hand       5 cards: 5 committed, not yet revealed\n");
    HAS(b, "\np2 (dave)  LP 6000\n");
    free(b);
    b = board(1, 1, 0);
    HAS(b, "\"hand\":{\"count\":5,\"cards\":[\"committed\",\"committed\",\"committed\",\"committed\",\"committed\"]}");
    free(b);
    b = board(1, 0, 1);
    HAS(b, "\"hand\":{\"count\":5,\"cards\":[null,null,null,null,null]}");
    free(b);
    b = board(0, 0, 1);
    HAS(b, "  hand       5 cards\n");
    HAS_NOT(b, "committed");
    free(b);

    adv_start("announced", NULL);
    adv_open_with("[null,null,null,null,null]", "[null,null,null,null,null,null]");
    summon("p1", 0, "cor-ember-whelp", "ap");
    b = board(0, 1, 1);
    HAS(b, "  hand       4 cards: 4 unknown\n");
    HAS(b, "  hand       6 cards: 6 unknown\n");
    free(b);

    adv_start("open", NULL);
    adv_open();
    b = board(0, 1, 1);
    HAS(b, "  hand       5 cards: Ember Whelp, Cinder Hound, Kindle Fury, Ember Drake, Firewall\n");
    free(b);
}

/* Player 1's first turn: Ember Whelp summoned, then Stoke the Forge
 * played and resolved, its selection still to make; p1 holds Heat Haze,
 * Ember Drake and Firewall. */
static void stoke_the_forge_resolved(void)
{
    adv_start("open", NULL);
    adv_open_with("[\"cor-ember-whelp\",\"cor-heat-haze\",\"cor-stoke-the-forge\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-stoke-the-forge", "[]"));
    ok(PASS("p2"));
}

/* A11 and A14 on the board: a pending selection, and a Selection Step
 * prevented, for the player they concern. */
Test(advanced, advanced_select_prevented_the_board_shows_what_is_pending)
{
    stoke_the_forge_resolved();
    char *b = board(1, 1, 1);
    HAS(b, "\"pending\":{\"select\":1,\"selection_prevented\":false}");
    free(b);
    b = board(0, 1, 1);
    HAS(b, "  pending    select 1 card\n");
    free(b);
    ok(SELECT("p1", "[\"cor-forge-golem\"]"));
    ok(SPELL("p1", "cor-heat-haze", "[]"));
    ok(PASS("p2"));
    b = board(1, 1, 1);
    HAS(b, "\"p2\":{\"name\":\"dave\"");
    HAS(b, "\"pending\":{\"select\":0,\"selection_prevented\":true}}},\"over\"");
    free(b);
    end_turn("p1");
    b = board(1, 1, 1);
    HAS(b, "\"pending\":{\"select\":0,\"selection_prevented\":true}}},\"over\"");   /* p2's turn, no Selection Step */
    HAS(b, "\"step\":\"main\"");
    free(b);
    end_turn("p2");
    b = board(1, 1, 1);
    HAS_NOT(b, "\"selection_prevented\":true");
    free(b);
}

/* ---- more of the rules the coverage run found unexercised ------------------------- */

/* advanced.md: "if you cannot select a card, the game continues" -- a turn
 * begun with an empty deck has no Selection Step (A10). */
Test(advanced, advanced_win_no_deck_out_an_empty_deck_skips_the_selection_step)
{
    adv_start("open", NULL);
    adv_open();
    st.side[1].deck_left = 0;   /* p2's deck selected to the end: set, not played */
    end_turn("p1");
    cr_assert_eq(st.step, DUEL_MAIN);
    illegal(SELECT("p2", "[\"obs-crypt-rat\"]"), "advanced:win.no_deck_out");
    summon("p2", 0, "obs-umbral-kitten", "ap");
}

/* A10: selection_rate cards, fewer only when the deck holds fewer. */
Test(advanced, advanced_A10_fewer_only_when_the_deck_holds_fewer)
{
    adv_start("open", "\"selection_rate\":2");
    adv_open();
    st.side[1].deck_left = 1;   /* set, not played */
    end_turn("p1");
    cr_assert_eq(st.step, DUEL_SELECT);
    illegal(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"), "advanced:win.no_deck_out");
    ok(SELECT("p2", "[\"obs-crypt-rat\"]"));
    cr_assert_eq(st.side[1].deck_left, 0);
    cr_assert_eq(st.step, DUEL_MAIN);
}

/* A7: a pass outside a window changes nothing; a judge's note neither
 * closes a window nor ends anything. */
Test(advanced, advanced_A7_a_pass_outside_a_window_changes_nothing)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(PASS("p2"));
    ok(PASS("p1"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert_eq(st.step, DUEL_MAIN);
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"a question at the table\"");
    cr_assert_eq(st.window, DUEL_WIN_SPELL, "a ruling answers no window");
    cr_assert(!st.ol.over);
    cr_assert_eq(st.step, DUEL_MAIN);
    ok(PASS("p2"));
    cr_assert_eq(st.side[0].zone[0].atk_mod, 700);
}

/* A22 in a direct attack: a Counter acting on the defender may be played in
 * the attack's window, and with no defending monster it does nothing; the
 * damage is the attacker's ATK (combat.direct). */
Test(advanced, advanced_combat_direct_a_defender_counter_does_nothing)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    end_turn("p2");   /* the Whelp is destroyed: p1 at 5700 */
    select_one("p1", "cor-forge-golem");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\"}"));
    ok(COUNTER("p2", "obs-umbral-decoy", "[]"));   /* A8: both players answer an attack */
    ok(PASS("p1"));
    ok(PASS("p2"));
    cr_assert_eq(st.side[0].lp, 4200);
    cr_assert_eq(st.side[1].zone[0].def_mod, 0);
    cr_assert_str_eq(st.side[1].grave[0]->id, "obs-umbral-decoy");
}

/* A4: the Prime Singular names one of the match's Monster Zones. */
Test(advanced, advanced_singular_entry_a_slot_past_the_monster_zones)
{
    adv_start("open", "\"monster_zones\":5,\"starting_lp\":1000");
    adv_open_with("[\"cor-ember-whelp\",\"cor-cinder-hound\",\"cor-magma-tortoise\",\"cor-corehart-the-molten-crown\","
                  "\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 1, "cor-cinder-hound", "ap");
    olverdict v = play("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":5,"
                       "\"targets\":[]");
    expect(v, OL_V_ILLEGAL, "advanced:singular.entry");
    cr_assert(strstr(v.msg, "5 Monster Zones"), "%s", v.msg);
    ok("\"type\":\"prime\",\"by\":\"p1\",\"card\":\"cor-corehart-the-molten-crown\",\"slot\":4,\"targets\":[]");
    cr_assert(st.side[0].zone[4].present);
}

/* evolve.next_stage: nothing follows a Prime Evolution, the third stage. */
Test(advanced, advanced_evolve_next_stage_nothing_follows_a_prime_evolution)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-drake\"");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-ember-sovereign");
    ok("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-ember-sovereign\",\"targets\":[]");
    cr_assert_eq(st.side[0].zone[0].depth, 3);
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    illegal("\"type\":\"evolve\",\"by\":\"p1\",\"slot\":0,\"card\":\"cor-cinder-hound\"", "advanced:evolve.next_stage");
}

/* ---- what the branch coverage run found unexercised (tests/coverage.sh) ------------ */

#define P2_WITH(card)                                                                                 \
    "[\"obs-umbral-kitten\",\"obs-grave-bat\",\"obs-umbral-decoy\",\"" card "\",\"obs-soul-siphon\"," \
    "\"obs-veil-assassin\"]"
#define PRIME(by, card, slot, targets)                                                                 \
    "\"type\":\"prime\",\"by\":\"" by "\",\"card\":\"" card "\",\"slot\":" #slot ",\"targets\":" targets
#define EVOLVE(by, slot, card) "\"type\":\"evolve\",\"by\":\"" by "\",\"slot\":" #slot ",\"card\":\"" card "\""
#define POSITION(by, slot) "\"type\":\"position\",\"by\":\"" by "\",\"slot\":" #slot
#define DISCARD(by, card) "\"type\":\"discard\",\"by\":\"" by "\",\"card\":\"" card "\""

/* Rewrite the one effect of card `id` (duelscript.h). */
#define rewrite_effect(...) duel_script_rewrite_effect("advanced", __VA_ARGS__)

/* Player 2's first turn with `p2cards` as the opening hand: Umbral Kitten
 * (AP) faces Ember Whelp (AP), and attacks it. */
static void kitten_attacks(const char *rules, const char *p2cards)
{
    adv_start("open", rules);
    adv_open_with(P1_OPEN, p2cards);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));   /* 1500 against 1200 */
}

/* A21: the steps go forward only -- a position change after an evolution,
 * and after the End Phase's discard no attack, Prime Singular, evolution
 * or position change; nor any step action in the opponent's turn. */
Test(advanced, advanced_A21_the_steps_only_go_forward)
{
    adv_start("open", "\"hand_limit\":7,\"selection_rate\":2");
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(EVOLVE("p1", 0, "cor-ember-drake"));
    olverdict v = play(POSITION("p1", 0));
    expect(v, OL_V_ILLEGAL, "advanced:turn.order");
    cr_assert(strstr(v.msg, "in the Evolution Step; the Position Step comes before it"), "%s", v.msg);
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"));   /* 8 cards */
    illegal(DISCARD("p1", "cor-firewall"), "advanced:turn.order");   /* not p1's turn */
    illegal(ATTACK("p1", 0, "{\"p\":\"p2\"}"), "advanced:turn.order");
    ok(DISCARD("p2", "obs-crypt-rat"));
    cr_assert_eq(st.step, DUEL_END);
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:turn.order");
    illegal(PRIME("p2", "obs-nyxora-the-last-eclipse", 1, "[]"), "advanced:turn.order");
    illegal(EVOLVE("p2", 0, "obs-umbral-panther"), "advanced:turn.order");
    illegal(POSITION("p2", 0), "advanced:turn.order");
    end_turn("p2");
}

/* field.from_hand: a Counter, a Prime Singular and a discard reveal a card
 * of the player's hand; an evolution too, under its own rule. */
Test(advanced, advanced_field_from_hand_counter_evolve_prime_and_discard)
{
    three_monsters();   /* p1 holds Magma Tortoise, Corehart, Firewall, Forge Golem */
    illegal(COUNTER("p2", "obs-dark-mirror", "[]"), "advanced:field.from_hand");
    olverdict v = play(PRIME("p1", "obs-nyxora-the-last-eclipse", 2, "[]"));
    expect(v, OL_V_ILLEGAL, "advanced:field.from_hand");
    cr_assert(strstr(v.msg, "Nyxora, the Last Eclipse, which is not in p1 (carol)'s hand"), "%s", v.msg);
    /* advanced.md: "Exact next stage card must be in hand." -- the
     * evolution's own rule, not the one for Spells and Counters */
    v = play(EVOLVE("p1", 0, "cor-ember-drake"));
    expect(v, OL_V_ILLEGAL, "advanced:evolve.next_stage");
    cr_assert(strstr(v.msg, "which is not in p1 (carol)'s hand"), "%s", v.msg);
    adv_start("open", "\"hand_limit\":7,\"selection_rate\":2");
    adv_open();
    end_turn("p1");
    ok(SELECT("p2", "[\"obs-crypt-rat\",\"obs-crypt-rat\"]"));   /* 8 cards */
    illegal(DISCARD("p2", "obs-grave-vampire"), "advanced:field.from_hand");
    ok(DISCARD("p2", "obs-crypt-rat"));
}

/* A26: under the monster_zones lever at 5 the Monster Zones are 0 to 4; a
 * reference to zone 5 or 6 names no monster. */
Test(advanced, advanced_A26_a_zone_past_the_lever_holds_no_monster)
{
    adv_start("open", "\"monster_zones\":5");
    adv_open();
    summon("p1", 4, "cor-ember-whelp", "ap");
    olverdict v = play(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":5}]"));
    expect(v, OL_V_ILLEGAL, "openlog:7");
    cr_assert(strstr(v.msg, "and that slot holds none that fits"), "%s", v.msg);
    illegal(POSITION("p1", 6), "advanced:position.step");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":4}]"));
}

/* openlog 7: a monster selector takes a monster reference, not a chain
 * link's seq nor a player; the verdict does not speak of a slot. */
Test(advanced, advanced_openlog_7_a_monster_selector_refuses_a_seq_or_a_player)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    static const char *const refs[] = {"[{\"seq\":3}]", "[{\"p\":\"p1\"}]"};
    for (int i = 0; i < 2; i++) {
        char body[256];
        snprintf(body, sizeof body, SPELL("p1", "cor-kindle-fury", "%s"), refs[i]);
        olverdict v = play(body);
        expect(v, OL_V_ILLEGAL, "openlog:7");
        cr_assert(strstr(v.msg, "Kindle Fury must target one of its player's monster on the field."), "%s", v.msg);
        cr_assert(!strstr(v.msg, "slot"), "%s", v.msg);
    }
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
}

/* A17, A16 and chain.lifo: a Counter that destroyed the attacker ends the
 * attack; the Counters below it then have no attack to act on -- a fizzle
 * fizzles nothing, a DEF bonus for the defender goes to no monster. */
Test(advanced, advanced_A17_a_destroyed_attacker_leaves_nothing_to_fizzle_or_defend)
{
    smolder_trap_turn();
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    ok(COUNTER("p2", "obs-umbral-decoy", "[]"));   /* the defender DEF +800 */
    ok(COUNTER("p1", "cor-firewall", "[]"));       /* fizzle */
    ok(COUNTER("p1", "cor-smolder-trap", "[]"));   /* destroy the attacker: resolves first */
    ok(PASS("p2"));
    ok(PASS("p1"));
    cr_assert_eq(st.window, DUEL_WIN_NONE);
    cr_assert(!st.attack_on && !st.fizzled);
    cr_assert(!st.side[1].zone[0].present, "the attacker is destroyed");
    cr_assert_eq(st.side[1].lost, 1);
    cr_assert(st.side[0].zone[0].present);
    cr_assert_eq(st.side[0].zone[0].def_mod, 0, "no defender once the attack has ended");
    cr_assert(st.side[0].lp == 6000 && st.side[1].lp == 6000);
    cr_assert_str_eq(st.side[0].grave[0]->id, "cor-smolder-trap");
    cr_assert_str_eq(st.side[0].grave[1]->id, "cor-firewall");
    cr_assert_str_eq(st.side[1].grave[0]->id, "obs-umbral-kitten");
    cr_assert_str_eq(st.side[1].grave[1]->id, "obs-umbral-decoy");
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:attack.declare");   /* zone 0 is empty */
}

/* A17: a Counter that turned the attacker to Defense Position ends the
 * attack without damage (Firewall rewritten to switch an opponent's
 * monster: no core Counter does). */
Test(advanced, advanced_A17_attacker_turned_to_defense_by_a_counter)
{
    rewrite_effect("cor-firewall", "fizzle", "none", "\"op\": \"position\", \"target\": \"opp_monster\"");
    kitten_attacks(NULL, P2_OPEN);
    ok(COUNTER("p1", "cor-firewall", "[{\"p\":\"p2\",\"s\":0}]"));
    ok(PASS("p2"));
    ok(PASS("p1"));
    cr_assert_eq(st.side[1].zone[0].pos, OL_POS_DP);
    cr_assert(st.side[0].zone[0].present, "no combat: the Whelp is still there");
    cr_assert(st.side[1].zone[0].present);
    cr_assert(st.side[0].lp == 6000 && st.side[1].lp == 6000);
    cr_assert(st.side[0].lost == 0 && st.side[1].lost == 0);
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"), "advanced:attack.dp");
}

/* A17: a Counter that destroyed the target ends the attack without damage;
 * the target is defeated all the same (A15).  Dark Mirror is rewritten to
 * destroy the defender (no core Counter does). */
Test(advanced, advanced_A17_target_destroyed_by_a_counter)
{
    rewrite_effect("obs-dark-mirror", "fizzle", "none", "\"op\": \"destroy\", \"target\": \"defender\"");
    kitten_attacks(NULL, P2_WITH("obs-dark-mirror"));
    ok(COUNTER("p2", "obs-dark-mirror", "[]"));
    ok(PASS("p1"));
    ok(PASS("p2"));
    cr_assert(!st.side[0].zone[0].present, "the Counter destroyed the Whelp");
    cr_assert_eq(st.side[0].lost, 1);
    cr_assert_eq(st.side[0].lp, 6000, "no combat damage: the target was gone");
    cr_assert(st.side[1].zone[0].present);
    cr_assert_eq(st.side[1].lp, 6000);
    illegal(ATTACK("p2", 0, "{\"p\":\"p1\"}"), "advanced:attack.once");
}

/* A6: a Counter that brings a player to 0 LP ends the game at once: the
 * links below it never resolve and the attack is never fought.  Dark
 * Mirror is rewritten to deal 1000 damage. */
Test(advanced, advanced_A6_a_counter_that_ends_the_game_leaves_the_chain_and_the_attack)
{
    rewrite_effect("obs-dark-mirror", "fizzle", "none",
                   "\"op\": \"lp_damage\", \"target\": \"opponent\", \"amount\": 1000");
    kitten_attacks("\"starting_lp\":1000", P2_WITH("obs-dark-mirror"));
    ok(COUNTER("p2", "obs-umbral-decoy", "[]"));
    ok(COUNTER("p2", "obs-dark-mirror", "[]"));
    ok(PASS("p1"));
    ok(PASS("p2"));
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 1);
    cr_assert_eq(st.side[0].lp, 0);
    cr_assert_eq(st.side[0].zone[0].def_mod, 0, "the Decoy below it never resolved");
    cr_assert(st.side[0].zone[0].present, "and the attack was never fought");
    cr_assert(st.side[0].lost == 0 && st.side[1].lost == 0);
    cr_assert_eq(st.side[1].lp, 1000);
    illegal("\"type\":\"end\",\"by\":\"p2\"", "advanced:win.immediate");
}

/* A6: nothing more resolves once a player is at 0 -- not even the rest of
 * the card that brought them there (Searing Brand rewritten to deal 1000
 * damage, then give its player 1000 LP). */
Test(advanced, advanced_A6_the_rest_of_the_card_does_not_resolve)
{
    adv_rewrite_card("cor-searing-brand", "\"amount\": 600",
                     "\"amount\": 1000}, {\"op\": \"lp_gain\", \"target\": \"controller\", \"amount\": 1000");
    adv_start("open", "\"starting_lp\":1000");
    adv_open_with("[\"cor-ember-whelp\",\"cor-searing-brand\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-searing-brand", "[]"));
    ok(PASS("p2"));
    cr_assert(st.ol.over);
    cr_assert_eq(st.ol.winner, 0);
    cr_assert_eq(st.side[1].lp, 0);
    cr_assert_eq(st.side[0].lp, 1000, "its second effect never resolved");
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"), "advanced:win.immediate");
}

/* window.attack: a Counter that destroys another monster of the attacking
 * player leaves the attack as it was (Dissonant Whisper rewritten to
 * destroy a monster). */
Test(advanced, advanced_window_attack_a_counter_on_another_monster_leaves_the_attack)
{
    rewrite_effect("obs-dissonant-whisper", "negate", "chain_link", "\"op\": \"destroy\", \"target\": \"monster\"");
    third_turn(NULL, P1_OPEN, P2_WITH("obs-dissonant-whisper"), "dp");   /* Kitten DEF 900 */
    summon("p1", 1, "cor-cinder-hound", "ap");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));   /* Whelp ATK 1200 */
    illegal(COUNTER("p2", "obs-dissonant-whisper", "[{\"p\":\"p1\",\"s\":2}]"), "openlog:7");   /* an empty zone */
    ok(COUNTER("p2", "obs-dissonant-whisper", "[{\"p\":\"p1\",\"s\":1}]"));
    ok(PASS("p1"));
    ok(PASS("p2"));
    cr_assert(!st.side[0].zone[1].present, "the Hound is destroyed");
    cr_assert(st.side[0].zone[0].present);
    cr_assert(!st.side[1].zone[0].present, "and the Whelp's attack was fought: 1200 > DEF 900");
    cr_assert(st.side[0].lost == 1 && st.side[1].lost == 1);
    cr_assert(!st.attack_on);
}

/* chain.lifo: the Counter played last resolves first; a Spell whose target
 * it destroyed then does nothing -- neither a position change (Undertow)
 * nor an ATK bonus (Kindle Fury) goes to another monster.  Dissonant
 * Whisper is rewritten to destroy a monster. */
Test(advanced, advanced_chain_lifo_a_spell_whose_target_is_gone_does_nothing)
{
    rewrite_effect("obs-dissonant-whisper", "negate", "chain_link", "\"op\": \"destroy\", \"target\": \"monster\"");
    third_turn_decks("fixtures/decks/advanced/legal-coreon-fluxion.json", NULL,
                     "[\"cor-ember-whelp\",\"flx-tide-sprite\",\"flx-undertow\",\"cor-kindle-fury\",\"cor-firewall\"]",
                     "[\"obs-umbral-kitten\",\"obs-dissonant-whisper\",\"obs-dissonant-whisper\",\"obs-night-terror\","
                     "\"obs-soul-siphon\",\"obs-veil-assassin\"]",
                     "ap");
    summon("p1", 1, "flx-tide-sprite", "ap");
    ok(SPELL("p1", "flx-undertow", "[{\"p\":\"p1\",\"s\":1}]"));
    illegal(COUNTER("p2", "obs-dissonant-whisper", "[]"), "openlog:7");   /* it has monsters to choose */
    ok(COUNTER("p2", "obs-dissonant-whisper", "[{\"p\":\"p1\",\"s\":1}]"));
    ok(PASS("p2"));
    cr_assert(!st.side[0].zone[1].present);
    cr_assert(st.side[0].zone[0].pos == OL_POS_AP && st.side[1].zone[0].pos == OL_POS_AP, "no position changed");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(COUNTER("p2", "obs-dissonant-whisper", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(PASS("p2"));
    cr_assert(!st.side[0].zone[0].present);
    cr_assert_eq(st.side[1].zone[0].atk_mod, 0, "no ATK went anywhere");
    cr_assert_eq(st.side[0].lost, 2);
    static const char *const grave[] = {"flx-tide-sprite", "flx-undertow", "cor-ember-whelp", "cor-kindle-fury"};
    cr_assert_eq(st.side[0].n_grave, 4);
    for (int i = 0; i < 4; i++)
        cr_assert_str_eq(st.side[0].grave[i]->id, grave[i]);
}

/* combat.direct: "LP damage = attacker’s ATK." -- of an ATK of 0, none
 * (Ember Whelp rewritten to ATK 0). */
Test(advanced, advanced_combat_direct_an_attacker_of_atk_0_deals_nothing)
{
    adv_rewrite_card("cor-ember-whelp", "\"atk\": 1200", "\"atk\": 0");
    adv_start("open", NULL);
    adv_open();
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");   /* p2 summons nothing */
    select_one("p1", "cor-forge-golem");
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\"}"));
    illegal(ATTACK("p1", 0, "{\"p\":\"p2\"}"), "advanced:attack.once");   /* the first one is fought */
    cr_assert_eq(st.side[1].lp, 6000);
    cr_assert(!st.ol.over);
}

/* A11: an effect that selects 2 cards obliges 2 (Stoke the Forge
 * rewritten): before anything else, by that player, and not 1; the board
 * says what is pending. */
Test(advanced, advanced_A11_an_effect_selection_of_two_cards)
{
    adv_rewrite_card("cor-stoke-the-forge", "\"amount\": 1", "\"amount\": 2");
    stoke_the_forge_resolved();
    board_has(0, 1, 1, "  pending    select 2 cards\n", 1);
    board_has(1, 1, 1, "\"pending\":{\"select\":2,\"selection_prevented\":false}", 1);
    olverdict v = play(SPELL("p1", "cor-heat-haze", "[]"));
    expect(v, OL_V_ILLEGAL, "advanced:select.per_turn");
    cr_assert(strstr(v.msg, "must first select the 2 cards an effect gave them"), "%s", v.msg);
    v = play(SELECT("p2", "[\"obs-crypt-rat\"]"));   /* not the player the effect gave a selection */
    expect(v, OL_V_ILLEGAL, "advanced:select.per_turn");
    cr_assert(strstr(v.msg, "p1 (carol) must first select"), "%s", v.msg);
    v = play(SELECT("p1", "[\"cor-forge-golem\"]"));
    expect(v, OL_V_ILLEGAL, "advanced:select.per_turn");
    cr_assert(strstr(v.msg, "selected 1 card; the effect lets them select 2."), "%s", v.msg);
    ok(SELECT("p1", "[\"cor-forge-golem\",\"cor-forge-golem\"]"));
    cr_assert_eq(st.side[0].select_due, 0);
    cr_assert_eq(st.side[0].n_hand, 5);
}

/* Corehart, the Molten Crown with the printed condition rewritten to
 * `text` (the rest of its Advanced properties as in core.json). */
static void corehart_condition(const char *text)
{
    adv_rewrite_card("cor-corehart-the-molten-crown", "\"lp_max\",\n          \"amount\": 2000", text);
}

/* singular.condition: a Prime Singular whose printed condition is `none`
 * needs only its 2 other monsters. */
Test(advanced, advanced_singular_condition_none_needs_only_two_others)
{
    corehart_condition("\"none\"");
    three_monsters();   /* p1 at 5000 LP: Corehart's own condition (LP <= 2000) would refuse it */
    illegal(PRIME("p1", "cor-corehart-the-molten-crown", 0, "[{\"p\":\"p2\",\"s\":0}]"),
            "advanced:singular.condition");   /* replacing the Whelp: 1 other */
    ok(PRIME("p1", "cor-corehart-the-molten-crown", 2, "[{\"p\":\"p2\",\"s\":0}]"));
    cr_assert_eq(st.side[0].zone[2].stack[0]->kind, CARD_PRIME_SINGULAR);
    cr_assert(!st.side[1].zone[0].present);
}

/* singular.condition: own_field_max 2 -- met with 2 monsters on the field,
 * not with 3. */
Test(advanced, advanced_singular_condition_own_field_max)
{
    corehart_condition("\"own_field_max\",\n          \"amount\": 2");
    three_monsters();
    ok(PRIME("p1", "cor-corehart-the-molten-crown", 2, "[{\"p\":\"p2\",\"s\":0}]"));
    cr_assert(st.side[0].zone[2].present);
    three_monsters();
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    summon("p1", 2, "cor-magma-tortoise", "dp");   /* 3 monsters */
    olverdict v = play(PRIME("p1", "cor-corehart-the-molten-crown", 3, "[{\"p\":\"p2\",\"s\":0}]"));
    expect(v, OL_V_ILLEGAL, "advanced:singular.condition");
    cr_assert(strstr(v.msg, "without meeting its printed condition (own_field_max 2)"), "%s", v.msg);
}

/* field.hand on the board: one card in the hand, one left in the deck. */
Test(advanced, advanced_field_hand_the_board_counts_one_card)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(PASS("p2"));
    ok(EVOLVE("p1", 0, "cor-ember-drake"));
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    ok(COUNTER("p1", "cor-firewall", "[]"));   /* p1 keeps Cinder Hound only */
    st.side[0].deck_left = 1;   /* p1's deck selected down to one card: set, not played */
    board_has(0, 1, 1, "  hand       1 card: Cinder Hound\n  deck       1 card\n", 1);
    board_has(1, 1, 1, "\"hand\":{\"count\":1,\"cards\":[\"cor-cinder-hound\"]},\"deck\":1,", 1);
    board_has(0, 0, 1, "  hand       1 card\n  deck       1 card\n", 1);
    board_has(0, 0, 1, "Cinder Hound", 0);
}

/* A27 through the catalogue: the rule a verdict cites is a row of
 * verifiers/advanced/rules.c, whose quote is the ruling's answer. */
Test(advanced, advanced_A27_the_verdict_cites_a_catalogued_ruling)
{
    size_t n = 0;
    const verifier_rule *rules = advanced_rules(&n), *row = NULL;
    cr_assert_eq(advanced_rules(NULL), rules, "n may be NULL");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->rules(NULL), rules);
    third_turn(NULL, P1_OPEN, P2_WITH("obs-void-denial"), "ap");
    olverdict v = play(COUNTER("p2", "obs-void-denial", "[{\"seq\":8}]"));   /* no chain to name a link of */
    expect(v, OL_V_ILLEGAL, "advanced:A27");
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rules[i].id, v.rule))
            row = &rules[i];
    cr_assert_not_null(row, "%s is not in the catalogue", v.rule);
    cr_assert(strstr(row->quote, "but has no candidate at all is left out"), "%s", row->quote);
}

/* ---- TOURNAMENT.md: what the tournament module reads from this engine ------------ */

/* T9: when both players concede, the first `concede` decides the game --
 * here p2's, in p1's turn -- and the second comes after the end
 * (win.immediate, with openlog 8's sentence); it changes nothing: p1 still
 * wins. */
Test(advanced, tournament_T9_first_concession_decides_and_second_is_illegal)
{
    adv_start("open", NULL);
    adv_open();
    duel_script_concede_twice(verifier_ops_of(OL_FORMAT_ADVANCED), "advanced:win.immediate");
}

/* T11: a game round is p1's turn and then p2's; the count the module reads
 * as `rounds` (verifier_round) goes up with p2's `end` only -- not with
 * p1's, and not with a claim or a ruling after p2's. */
Test(advanced, tournament_T11_game_round_ends_with_player_2s_end)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1, "p1's end ends no game round");
    select_one("p2", "obs-crypt-rat");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"before p2's end\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1);
    end_turn("p2");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 2);
    ok("\"type\":\"claim\",\"by\":\"table\",\"lp\":{\"p1\":6000,\"p2\":6000}");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"warning\",\"player\":\"p1\",\"text\":\"Slow play.\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 2, "claims and rulings after p2's end count for nothing");
    select_one("p1", "cor-forge-golem");
    end_turn("p1");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 2);   /* and so on: advanced_end_pass_a_round_is_two_turns */
}

/* T11: setup belongs to game round 1.  The engine shows 0 until the
 * opening hands are selected (verifier.h: "0 before setup is done"), which
 * src/tournament/tourrec.c counts as game round 1; setup ends no round, so p1's first
 * turn is round 1, not 2, up to p2's end. */
Test(advanced, tournament_T11_setup_is_in_game_round_1)
{
    adv_start("open", NULL);
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 0);
    ok(SELECT("p1", P1_OPEN));
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"in setup\"");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 0, "setup is not done");
    ok(SELECT("p2", P2_OPEN));   /* setup is done */
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    cr_assert_eq(verifier_ops_of(OL_FORMAT_ADVANCED)->round(&st), 1);
}

/* T17: a header with an illegal deck (deck.size) or naming another card
 * database (openlog:cards, src/core/verify.c) starts no game. */
Test(advanced, tournament_T17_illegal_header_starts_no_game)
{
    char *h = duel_script_header_text("advanced", "open", NULL,
                                      "fixtures/decks/advanced/illegal-advanced_deck_size-39-cards.json",
                                      "fixtures/decks/advanced/legal-obscura-night.json");
    duel_script_starts_no_game(h, SELECT("p1", P1_OPEN), "advanced:deck.size");
    free(h);
    h = adv_header_text("open", NULL);
    cr_assert_eq(name_other_cards(h), 0);
    duel_script_starts_no_game(h, SELECT("p1", P1_OPEN), "openlog:cards");
    free(h);
}

/* T44: an optional action after its timing cannot be made (TR 153).  p1
 * forgot Kindle Fury in the Main Phase and plays it after declaring an
 * attack: illegal (turn.order), and it changes nothing.  A mandatory step
 * is owed, never missed: the Selection Step p2 passed over is still theirs
 * to take. */
Test(advanced, tournament_T44_late_action_makes_the_record_illegal)
{
    two_turns("obs-crypt-rat", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(ATTACK("p1", 0, "{\"p\":\"p2\",\"s\":0}"));
    uint8_t hand = st.side[0].n_hand;
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"), "advanced:turn.order");
    cr_assert_eq(st.side[0].n_hand, hand, "Kindle Fury stays in p1's hand");
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0);
    end_turn("p1");   /* the game goes on */
    illegal(SUMMON("p2", 1, "obs-grave-bat", "ap"), "advanced:select.per_turn");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 1, "obs-grave-bat", "ap");
}
