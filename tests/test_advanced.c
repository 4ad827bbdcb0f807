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

#include "logformat/olcodec.h"
#include "tests/advancedscript.h"
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
    cr_assert_eq(st.step, ADV_MAIN);
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
    cr_assert_eq(st.step, ADV_MAIN);
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
    char c[5][80], body[1024];
    const char *ids[5] = {"cor-ember-whelp", "cor-cinder-hound", "cor-kindle-fury", "cor-ember-drake", "cor-firewall"};
    const char *nonce = "00112233445566778899aabbccddeeff";
    adv_start("commit", NULL);
    for (int i = 0; i < 5; i++)
        commit_of(ids[i], nonce, c[i]);
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p1\",\"cards\":[%s,%s,%s,%s,%s]", c[0], c[1], c[2], c[3],
             c[4]);
    ok(body);
    char p2[6][80];
    const char *ids2[6] = {"obs-umbral-kitten", "obs-grave-bat", "obs-umbral-decoy", "obs-night-terror",
                           "obs-soul-siphon", "obs-veil-assassin"};
    for (int i = 0; i < 6; i++)
        commit_of(ids2[i], nonce, p2[i]);
    snprintf(body, sizeof body, "\"type\":\"select\",\"by\":\"p2\",\"cards\":[%s,%s,%s,%s,%s,%s]", p2[0], p2[1], p2[2],
             p2[3], p2[4], p2[5]);
    ok(body);
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
             "\"cards\":\"core@1.0.0\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":{\"main\":[]}},"
             "\"p2\":{\"id\":\"b\",\"deck\":{\"main\":[]}}}}");
    olevent *h = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &h, &err), OL_OK, "%s", err.msg);
    olverdict v;
    advanced_apply(&st, h, &v);
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
    cr_assert_eq(st.window, ADV_WIN_NONE, "a summon opens no window (A2)");
    end_turn("p1");
    select_one("p2", "obs-dark-mirror");
    summon("p2", 0, "obs-umbral-kitten", "ap");
    end_turn("p2");
    select_one("p1", "cor-forge-golem");
    ok(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"));
    ok(COUNTER("p2", "obs-void-denial", "[{\"seq\":9}]"));
    cr_assert_eq(st.n_chain, 2);
    ok(PASS("p2"));   /* only p2 may answer: its pass closes the window */
    cr_assert_eq(st.window, ADV_WIN_NONE);
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0, "the negated Kindle Fury gives nothing");
}

Test(advanced, advanced_A2_summon_opens_no_window)
{
    adv_start("open", NULL);
    adv_open();
    summon("p1", 0, "cor-ember-whelp", "ap");
    cr_assert_eq(st.window, ADV_WIN_NONE);
    ok("\"type\":\"position\",\"by\":\"p1\",\"slot\":0");
    cr_assert_eq(st.window, ADV_WIN_NONE);
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
    cr_assert_eq(st.window, ADV_WIN_SPELL);
    illegal(PASS("p1"), "advanced:counter.timing");   /* only the opponent answers a Spell */
    ok(PASS("p2"));
    cr_assert_eq(st.window, ADV_WIN_NONE);
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
    cr_assert_eq(st.window, ADV_WIN_NONE);
    cr_assert_eq(st.side[0].zone[0].atk_mod, 700);
    end_turn("p1");
    cr_assert_eq(st.side[0].zone[0].atk_mod, 0, "end.effects: until end of turn");
}

Test(advanced, advanced_A7_an_illegal_event_closes_the_window_too)
{
    two_turns("obs-crypt-rat", "ap");
    ok(ATTACK("p2", 0, "{\"p\":\"p1\",\"s\":0}"));
    illegal(SUMMON("p1", 1, "cor-cinder-hound", "ap"), "advanced:turn.order");   /* not p1's turn */
    cr_assert_eq(st.window, ADV_WIN_NONE, "the attack was fought when the summon arrived");
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
    illegal(SPELL("p1", "cor-kindle-fury", "[{\"p\":\"p1\",\"s\":0}]"), "advanced:select.per_turn");
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

Test(advanced, advanced_A17_attacker_destroyed_by_counter)
{
    adv_start_decks("open", NULL, "fixtures/decks/advanced/legal-coreon-fluxion.json",
                    "fixtures/decks/advanced/legal-obscura-night.json");
    adv_open_with("[\"cor-ember-whelp\",\"cor-smolder-trap\",\"cor-kindle-fury\",\"cor-ember-drake\",\"cor-firewall\"]",
                  P2_OPEN);
    summon("p1", 0, "cor-ember-whelp", "ap");
    end_turn("p1");
    select_one("p2", "obs-crypt-rat");
    summon("p2", 0, "obs-umbral-kitten", "ap");
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
    cr_assert_eq(st.step, ADV_END);
    illegal(SUMMON("p2", 0, "obs-umbral-kitten", "ap"), "advanced:turn.order");
    end_turn("p2");
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
