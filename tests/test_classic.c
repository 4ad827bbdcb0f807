/* test_classic.c -- the classic Snap engine, rule by rule.
 *
 * Each test breaks one rule of classic-snap.md (or a ruling of
 * verifiers/classic/RULINGS.md) and checks the verdict's status and rule
 * id; the name is the rule id.  Games are scripted on small decks: the
 * card database "mini" holds the cards a-1, a-2, b-1, b-2, ... (two cards of
 * each value a, b, c, ...), built here as a database would load it; the
 * standard 52 ("standard", ids 4-clubs ...) is built the same way.
 * Through the seam (verifier_new, verifier_apply), as arbiter judges.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/jtext.h"
#include "logformat/olcodec.h"
#include "verifiers/classic/classic.h"
#include "src/core/carddb.h"
#include "tests/testutil.h"
#include "verifiers/verifier.h"

static cards *db;
static verifier *vf;
static const char *extra_card;   /* one more card, of a value of its own, for the next start() */
static unsigned long long seq;

/* One card of a database made here. */
static void add_card(cards *d, const char *id, const char *name)
{
    card c;
    classic_card *cc = (classic_card *)(void *)c.own[OL_FORMAT_CLASSIC];
    const char *dash = strrchr(id, '-');
    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "%s", id);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.members = 1u << OL_FORMAT_CLASSIC;   /* a playing card: classic only */
    /* the value: the id up to its last '-' ("a-1" is an "a") */
    snprintf(cc->value, sizeof cc->value, "%.*s", (int)(dash ? dash - id : (int)strlen(id)), id);
    cr_assert_eq(cards_add(d, &c), CARDS_OK);
}

/* A database of `n_values` values named a, b, c ..., `per` cards each
 * ("a-1", "a-2" ...), or, when n_values is 0, the standard 52 of
 * fixtures/cards/standard.json -- whose `classic.value` of each card must
 * be the value the engine reads (RULINGS A12).  Not sealed: cards_finish()
 * checks the Mintayn formats' fields, which a playing card has none of. */
static cards *make_db(int n_values, int per)
{
    cards *d;
    if (!n_values) {
        /* through the card database loader, as arbiter reads it: a card of
         * a standalone format has only its `classic` member */
        char err[256];
        cr_assert_eq(carddb_load_file(SRC("fixtures/cards/standard.json"), &d, err, sizeof err), 0, "%s", err);
        json_error_t e;
        json_t *j = json_load_file(SRC("fixtures/cards/standard.json"), 0, &e);
        cr_assert_not_null(j, "%s", e.text);
        json_t *list = json_object_get(j, "cards");
        cr_assert_eq(json_array_size(list), 52);
        cr_assert_eq(cards_count(d), 52);
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *c = json_array_get(list, i);
            const char *id = json_string_value(json_object_get(c, "id"));
            const char *value = json_string_value(json_object_get(json_object_get(c, "classic"), "value"));
            size_t len;
            const char *key = classic_value_key(cards_find(d, id), &len);
            cr_assert(strlen(value) == len && !memcmp(key, value, len), "%s: value %s", id, value);
        }
        json_decref(j);
        return d;
    }
    d = cards_new("mini", "1");
    cr_assert_not_null(d);
    for (int v = 0; v < n_values; v++)
        for (int k = 0; k < per; k++) {
            char id[16];
            snprintf(id, sizeof id, "%c-%d", 'a' + v, k + 1);
            add_card(d, id, id);
        }
    if (extra_card)
        add_card(d, extra_card, extra_card);
    return d;
}

/* The event of match "c" whose body (the members after match and seq) is
 * `body`, numbered n. */
static olevent *decode(const char *body, unsigned long long n)
{
    char text[8192];
    snprintf(text, sizeof text, "{\"match\":\"c\",\"seq\":%llu,%s}", n, body);
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s: %s", text, err.msg);
    return ev;
}

static olverdict apply_text(const char *body)
{
    olevent *ev = decode(body, ++seq);
    olverdict v;
    verifier_apply(vf, ev, &v);
    olevent_destroy(&ev);
    return v;
}

static void ok(const char *body)
{
    olverdict v = apply_text(body);
    cr_assert_eq(v.status, OL_V_OK, "%s: %s %s: %s", body, ol_status_name(v.status), v.rule, v.msg);
}

static olverdict illegal(const char *body, const char *rule)
{
    olverdict v = apply_text(body);
    cr_assert_eq(v.status, OL_V_ILLEGAL, "%s: expected illegal %s, got %s", body, rule, ol_status_name(v.status));
    cr_assert_str_eq(v.rule, rule, "%s: %s", body, v.msg);
    --seq;   /* an illegal event is not part of the game: the next takes its seq */
    return v;
}

/* illegal(), and the verdict's sentence is `msg`. */
static void illegal_says(const char *body, const char *rule, const char *msg)
{
    olverdict v = illegal(body, rule);
    cr_assert_str_eq(v.msg, msg, "%s: %s", body, v.msg);
}

static olverdict mismatch(const char *body, const char *rule)
{
    olverdict v = apply_text(body);
    cr_assert_eq(v.status, OL_V_MISMATCH, "%s: %s %s", body, ol_status_name(v.status), v.msg);
    cr_assert_str_eq(v.rule, rule);
    --seq;
    return v;
}

/* Start a match of `n` players on a deck of n_values values x per cards
 * (0: the standard 52), `hidden`, with levers `rules` ("" for none). */
static olverdict start(int n, int n_values, int per, const char *hidden, const char *rules)
{
    static const char *const ids[] = {"ann", "ben", "mia", "dan", "eve", "fay", "gus", "hal"};
    char text[2048], players[512] = "";
    for (int p = 0; p < n; p++)
        snprintf(players + strlen(players), sizeof players - strlen(players), "%s\"p%d\":{\"id\":\"%s\"}",
                 p ? "," : "", p + 1, ids[p]);
    snprintf(text, sizeof text,
             "{\"match\":\"c\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"classic\","
             "\"cards\":\"%s@1\",\"hidden\":\"%s\",\"players\":{%s},\"rules\":{%s}}",
             n_values ? "mini" : "standard", hidden, players, rules);
    if (db)
        cards_destroy(&db);
    verifier_destroy(&vf);
    db = make_db(n_values, per);
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    olverdict v;
    cr_assert_eq(verifier_new(db, ev, &vf, &v), VERIFIER_OK, "%s", v.msg);
    olevent_destroy(&ev);
    seq = 0;
    return v;
}

static void finish(void)
{
    verifier_destroy(&vf);
    cards_destroy(&db);
}

TestSuite(classic, .fini = finish);

#define DEAL(p, cards) "\"type\":\"deal\",\"by\":\"table\",\"player\":\"" p "\",\"cards\":" cards
#define FLIP(p, at, card) "\"type\":\"flip\",\"by\":\"" p "\",\"at\":" #at ",\"card\":\"" card "\""
#define SNAP(p, at) "\"type\":\"snap\",\"by\":\"" p "\",\"at\":" #at
#define SNAP_POT(p, at) "\"type\":\"snap_pot\",\"by\":\"" p "\",\"at\":" #at
#define TAKE(p, piles, cards) "\"type\":\"take\",\"by\":\"table\",\"player\":\"" p "\",\"piles\":" piles ",\"cards\":" cards
#define POT(piles) "\"type\":\"pot\",\"by\":\"table\",\"piles\":" piles
#define PENALTY(p) "\"type\":\"penalty\",\"by\":\"table\",\"player\":\"" p "\""
#define TURN_OVER(p, cards) "\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"" p "\",\"cards\":" cards
#define GAME_LOSS(by, p) "\"type\":\"judge\",\"by\":\"" by "\",\"ruling\":\"game_loss\",\"player\":\"" p "\",\"text\":\"Marked cards.\""

/* Two players, own piles, p1 starts (p2 deals): p1's stack a-1 b-1 c-1
 * d-1, p2's a-2 c-2 b-2 d-2, top first. */
static void duo(const char *hidden, const char *more_rules)
{
    char rules[256];
    snprintf(rules, sizeof rules, "\"dealer\":2%s%s", *more_rules ? "," : "", more_rules);
    cr_assert_eq(start(2, 4, 2, hidden, rules).status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"d-2\"]"));
}

/* The duo to its first match: p1 a-1 at 1000, p2 a-2 at 2000. */
static void duo_match(void)
{
    duo("open", "");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
}

static int board_has(const char *needle)
{
    jtext t = {0};
    openlog_sight all;
    memset(&all, 1, sizeof all);
    cr_assert_eq(verifier_board_json(vf, &all, &t), 0);
    int found = strstr(t.buf, needle) != NULL;
    if (!found)
        fprintf(stderr, "board: %s\n", t.buf);
    jtext_free(&t);
    return found;
}

/* ---- the deck and the deal ------------------------------------------------ */

Test(classic, classic_deck_decks)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2").status, OL_V_OK);
    illegal(DEAL("p1", "[\"a-1\",\"a-1\",\"b-1\",\"c-1\"]"), "classic:deck.decks");   /* one a-1 in a deck */
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    illegal_says(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\"]"), "classic:deck.decks",            /* not the whole deck */
                 "The table deals 7 cards in all; the deck of 1 deck holds 8, and every card is dealt.");
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"d-2\"]"));
    /* two decks: every card twice */
    cr_assert_eq(start(2, 2, 1, "open", "\"decks\":2,\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"b-1\",\"a-1\"]"));
    cr_assert_eq(start(2, 4, 2, "open", "\"decks\":8").status, OL_V_OK);   /* 64 cards: within the limit */
}

Test(classic, classic_deal_even)
{
    cr_assert_eq(start(3, 0, 0, "announced", "").status, OL_V_OK);
    char nulls[20][512];
    for (int k = 0; k < 20; k++) {
        strcpy(nulls[k], "[");
        for (int i = 0; i < k; i++)
            strcat(nulls[k], i ? ",null" : "null");
        strcat(nulls[k], "]");
    }
    char body[1024];
    snprintf(body, sizeof body, DEAL("p1", "%s"), nulls[19]);
    ok(body);
    snprintf(body, sizeof body, DEAL("p2", "%s"), nulls[17]);
    ok(body);
    snprintf(body, sizeof body, DEAL("p3", "%s"), nulls[16]);   /* 19, 17, 16 */
    illegal(body, "classic:deal.even");
}

Test(classic, classic_deal_one_at_a_time)
{
    /* p1 deals 52 to three: p2 and p3 (the dealer's left first) get 18 */
    cr_assert_eq(start(3, 0, 0, "announced", "\"dealer\":1").status, OL_V_OK);
    char n18[256] = "[", n17[256] = "[", body[512];
    for (int i = 0; i < 18; i++)
        strcat(n18, i ? ",null" : "null");
    for (int i = 0; i < 17; i++)
        strcat(n17, i ? ",null" : "null");
    strcat(n18, "]");
    strcat(n17, "]");
    snprintf(body, sizeof body, DEAL("p1", "%s"), n18);
    ok(body);
    snprintf(body, sizeof body, DEAL("p2", "%s"), n17);
    ok(body);
    snprintf(body, sizeof body, DEAL("p3", "%s"), n17);
    illegal(body, "classic:deal.one_at_a_time");    /* p1 got the extra card, p3 should have */
    illegal(DEAL("p1", "[null]"), "classic:deal.one_at_a_time");   /* a second stack */
    illegal(FLIP("p2", 10, "4-clubs"), "classic:deal.one_at_a_time"); /* before the deal is done */
    snprintf(body, sizeof body, DEAL("p3", "%s"), n18);
    illegal(body, "classic:deck.decks");   /* 53 cards */
}

/* ---- playing ------------------------------------------------------------- */

Test(classic, classic_play_first)
{
    duo("open", "");
    illegal(FLIP("p2", 1000, "a-2"), "classic:play.first");
    ok(FLIP("p1", 1000, "a-1"));
    /* by default the dealer is p1 and p2, on their left, begins */
    cr_assert_eq(start(3, 3, 2, "announced", "").status, OL_V_OK);
    ok(DEAL("p1", "[null,null]"));
    ok(DEAL("p2", "[null,null]"));
    ok(DEAL("p3", "[null,null]"));
    illegal(FLIP("p1", 5, "a-1"), "classic:play.first");
    ok(FLIP("p2", 5, "a-1"));
    /* the first lever names another */
    cr_assert_eq(start(3, 3, 2, "announced", "\"first\":3").status, OL_V_OK);
    ok(DEAL("p1", "[null,null]"));
    ok(DEAL("p2", "[null,null]"));
    ok(DEAL("p3", "[null,null]"));
    illegal(FLIP("p2", 5, "a-1"), "classic:play.first");
    ok(FLIP("p3", 5, "a-1"));
}

Test(classic, classic_play_clockwise)
{
    cr_assert_eq(start(3, 3, 2, "announced", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[null,null]"));
    ok(DEAL("p2", "[null,null]"));
    ok(DEAL("p3", "[null,null]"));
    ok(FLIP("p1", 10, "a-1"));
    illegal(FLIP("p3", 20, "b-1"), "classic:play.clockwise");
    illegal(FLIP("p1", 20, "b-1"), "classic:play.clockwise");
    ok(FLIP("p2", 20, "b-1"));
    ok(FLIP("p3", 30, "c-1"));
    ok(FLIP("p1", 40, "c-2"));
}

Test(classic, classic_flip_stack)
{
    duo("open", "");
    /* open mode: the top card is named; another card is not the top */
    illegal(FLIP("p1", 1000, "b-1"), "openlog:6");
    illegal("\"type\":\"flip\",\"by\":\"table\",\"at\":1000,\"card\":\"a-1\"", "openlog:3");
    ok(FLIP("p1", 1000, "a-1"));
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":3"));
}

Test(classic, classic_flip_common)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"c-2\",\"b-2\",\"a-2\",\"d-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "c-2"));
    cr_assert(board_has("\"common_pile\":{\"count\":2,\"top\":\"c-2\"}"));
    /* a-1 and c-2 are no match: the card under the top is what counts */
    ok(SNAP("p1", 250));
    illegal(TAKE("p1", "[]", "[\"a-1\",\"c-2\"]"), "classic:penalty.pay");
    ok(PENALTY("p1"));
    illegal("\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[]", "classic:piles.turn_over");
}

Test(classic, classic_match_value)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"c-2\",\"d-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "a-2"));   /* a-1 and a-2: the same value, other "suits" */
    ok(SNAP("p2", 300));
    illegal(PENALTY("p2"), "classic:snap.first_caller");   /* it was a match: no penalty */
    ok("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[\"a-1\",\"a-2\"]");
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":false,\"stack\":5"));
}

Test(classic, classic_snap_first_caller)
{
    cr_assert_eq(start(3, 4, 3, "open", "\"dealer\":3,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"c-2\",\"d-2\"]"));
    ok(DEAL("p3", "[\"a-3\",\"b-3\",\"c-3\",\"d-3\"]"));
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p3", 2140));
    ok(SNAP("p1", 2000));
    ok(SNAP("p2", 2300));              /* right too, and later still: the second is p3 */
    olverdict v = illegal("\"type\":\"take\",\"by\":\"table\",\"player\":\"p3\",\"cards\":[\"a-1\",\"a-2\"]",
                          "classic:snap.first_caller");
    cr_assert_str_eq(v.msg, "p3 (mia) called Snap 140 ms after p1 (ann); p1 takes the common pile.");
    v = illegal("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[\"a-1\",\"a-2\"]",
                "classic:snap.first_caller");
    cr_assert(strstr(v.msg, "p1 (ann) called Snap first"), "%s", v.msg);
    illegal("\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-1\"]", "classic:snap.first_caller");
    ok("\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-2\",\"a-1\"]");
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":5"));
}

/* Three players, two cards each, a common pile: five flips, no match;
 * p3 holds f-1, the last card, and flips next. */
static void three_on_a_common_pile(void)
{
    cr_assert_eq(start(3, 6, 1, "open", "\"dealer\":3,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"c-1\",\"d-1\"]"));
    ok(DEAL("p3", "[\"e-1\",\"f-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "c-1"));
    ok(FLIP("p3", 30, "e-1"));
    ok(FLIP("p1", 40, "b-1"));
    ok(FLIP("p2", 50, "d-1"));
}

Test(classic, classic_simple_out)
{
    /* two cards each, common pile: p1 flips its last card, then p2; p1's
     * turn comes with no card: out, and p2 wins (A11) */
    cr_assert_eq(start(2, 4, 1, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"c-1\",\"d-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "c-1"));
    ok(FLIP("p1", 30, "b-1"));
    cr_assert(board_has("\"over\":false"));
    ok(FLIP("p2", 40, "d-1"));
    cr_assert(board_has("\"winner\":\"p2\""));
    illegal(FLIP("p1", 50, "a-1"), "classic:end.winner");
    /* three players: the empty player is out when the turn reaches them */
    three_on_a_common_pile();
    ok(FLIP("p3", 60, "f-1"));   /* p1's turn: no card, out; p2's: out; p3 wins */
    cr_assert(board_has("\"winner\":\"p3\""));
}

Test(classic, classic_piles_own)
{
    duo_match();
    cr_assert(board_has("\"pile\":{\"count\":1,\"top\":\"a-1\"}"));
    cr_assert(board_has("\"pile\":{\"count\":1,\"top\":\"a-2\"}"));
}

Test(classic, classic_piles_match)
{
    duo_match();
    ok(SNAP("p2", 2300));
    illegal(TAKE("p2", "[\"p2\"]", "[\"a-2\"]"), "classic:piles.match");
    illegal_says(TAKE("p2", "[]", "[]"), "classic:piles.match",
                 "The table gives p2 (ben) no pile; the Snap at 2300 ms takes p1's and p2's piles.");
    illegal_says(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\"]"), "classic:piles.match",
                 "The take by p2 lists 1 cards; 2 are shuffled in.");
    ok(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    cr_assert(board_has("\"stack\":5"));
}

Test(classic, classic_piles_turn_over)
{
    /* one card each: p1 flips a-1, p2 flips b-1; p1 has no face-down card */
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    illegal("\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[]", "classic:piles.turn_over");
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "b-1"));
    illegal(FLIP("p1", 30, "a-1"), "classic:piles.turn_over");
    illegal("\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"b-1\"]", "openlog:6");
    ok("\"type\":\"turn_over\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-1\"]");
    ok(FLIP("p1", 30, "a-1"));
}

/* ---- ties and the snap pot -------------------------------------------------- */

Test(classic, classic_pot_tie)
{
    duo_match();
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2380));   /* 80 ms: within the tie window */
    illegal(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:pot.tie");
    illegal_says(POT("[\"p1\"]"), "classic:pot.tie", "The table sets aside p1's pile; the tie disputed p1's and p2's piles.");
    ok(POT("[\"p1\",\"p2\"]"));
    cr_assert(board_has("\"pot\":{\"count\":2,"));
    /* without a tie, a pot is wrong */
    duo_match();
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2500));
    illegal(POT("[\"p1\",\"p2\"]"), "classic:pot.tie");
}

Test(classic, classic_A1_tie_window_lever)
{
    duo("open", "\"tie_window\":250");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2540));   /* 240 ms: a tie at 250 */
    ok(POT("[\"p1\",\"p2\"]"));
}

/* A tie puts a-1 and a-2 in the snap pot; then b-1 and c-2 fall, and p1
 * is about to flip a-3, which matches the pot. */
static void pot_of_the_as(void)
{
    cr_assert_eq(start(2, 3, 3, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"a-3\",\"c-1\",\"c-3\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"b-3\"]"));
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p1", 2100));
    ok(SNAP("p2", 2150));
    ok(POT("[\"p1\",\"p2\"]"));
    ok(FLIP("p1", 3000, "b-1"));
    ok(FLIP("p2", 4000, "c-2"));
}

Test(classic, classic_pot_snap_pot)
{
    pot_of_the_as();
    ok(FLIP("p1", 5000, "a-3"));   /* matches the pot's a */
    ok(SNAP_POT("p2", 5200));
    ok(SNAP_POT("p1", 5400));      /* later: loses, costs nothing */
    illegal(TAKE("p1", "[\"p1\"]", "[\"a-1\",\"a-2\",\"b-1\",\"a-3\"]") ",\"pot\":true", "classic:pot.snap_pot");
    illegal(TAKE("p2", "[\"p1\"]", "[\"b-1\",\"a-3\"]"), "classic:pot.snap_pot");   /* without the pot */
    illegal_says(TAKE("p2", "[\"p1\"]", "[\"a-1\",\"a-2\",\"a-3\"]") ",\"pot\":true", "classic:pot.snap_pot",
                 "The take by p2 lists 3 cards; 4 are shuffled in.");
    ok(TAKE("p2", "[\"p1\"]", "[\"a-1\",\"a-2\",\"b-1\",\"a-3\"]") ",\"pot\":true");
    cr_assert(board_has("\"pot\":{\"count\":0,"));
}

Test(classic, classic_pot_grows)
{
    pot_of_the_as();
    ok(FLIP("p1", 5000, "a-3"));
    ok(SNAP_POT("p2", 5200));
    ok(SNAP_POT("p1", 5210));      /* a tie on Snap Pot! */
    illegal(TAKE("p2", "[\"p1\"]", "[\"a-1\",\"a-2\",\"b-1\",\"a-3\"]") ",\"pot\":true", "classic:pot.grows");
    illegal(POT("[\"p2\"]"), "classic:pot.grows");
    ok(POT("[\"p1\"]"));
    cr_assert(board_has("\"pot\":{\"count\":4,\"top\":\"a-3\"}"));
}

Test(classic, classic_prop)
{
    duo("open", "\"prop\":true");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2310));   /* 10 ms later: with the prop, no tie */
    illegal(POT("[\"p1\",\"p2\"]"), "classic:prop");
    ok(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    /* the same millisecond: the table names either */
    duo("open", "\"prop\":true");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2300));
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
}

/* ---- errors, penalties, elimination ------------------------------------------ */

/* Three players, own piles, p1 starts; each holds three cards. */
static void trio(void)
{
    cr_assert_eq(start(3, 3, 3, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\"]"));
    ok(DEAL("p2", "[\"b-2\",\"c-2\",\"a-2\"]"));
    ok(DEAL("p3", "[\"c-3\",\"a-3\",\"b-3\"]"));
}

Test(classic, classic_penalty_pay)
{
    trio();
    ok(FLIP("p1", 100, "a-1"));
    ok(SNAP("p2", 150));               /* no match */
    illegal(PENALTY("p1"), "classic:penalty.pay");
    illegal("\"type\":\"penalty\",\"by\":\"p2\",\"player\":\"p2\"", "openlog:3");   /* not the table's: nothing paid */
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":2,"));
    cr_assert(board_has("\"calls_waiting\":1,\"consequences_due\":0"));
    ok(PENALTY("p2"));                 /* b-2 to p3, c-2 to p1: from p2's left */
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":3,\"stack_cards\":[\"b-1\",\"c-1\",\"c-2\"]"));
    cr_assert(board_has("{\"seat\":\"p3\",\"out\":false,\"stack\":4,\"stack_cards\":[\"c-3\",\"a-3\",\"b-3\",\"b-2\"]"));
    /* a mix-up: Snap Pot! with no pot */
    ok(FLIP("p2", 200, "a-2"));        /* p1's a-1 and p2's a-2 match */
    ok(SNAP_POT("p3", 300));
    olverdict v = illegal(TAKE("p3", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:penalty.pay");
    cr_assert(strstr(v.msg, "when the match was for the other call"), "%s", v.msg);
    /* a penalty no one owes */
    ok(PENALTY("p3"));
    illegal(PENALTY("p3"), "classic:penalty.pay");
}

Test(classic, classic_out_cards)
{
    /* p2 holds one card and calls wrongly: it can pay p3 only, then is out */
    cr_assert_eq(start(3, 3, 2, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"c-1\",\"c-2\"]"));
    ok(DEAL("p3", "[\"a-2\",\"b-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "c-1"));
    ok(SNAP("p2", 250));
    ok(PENALTY("p2"));                 /* c-2 to p3; nothing left for p1 */
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":true"));
    illegal(SNAP("p2", 300), "classic:out.cards");   /* A10: an eliminated player does not call */
    ok("\"type\":\"out\",\"by\":\"table\",\"player\":\"p2\"");
    illegal("\"type\":\"out\",\"by\":\"table\",\"player\":\"p1\"", "classic:out.cards");
    ok(FLIP("p3", 300, "a-2"));        /* p2 is skipped; a-1 and a-2 match */
    ok(SNAP("p3", 350));
    ok(TAKE("p3", "[\"p1\",\"p3\"]", "[\"a-1\",\"a-2\"]"));
    /* p1 has b-1 left and flips it; p3 snaps it with p2's c-1? no: b-1 */
    ok(FLIP("p1", 400, "b-1"));
    ok(FLIP("p3", 500, "b-2"));
    ok(SNAP("p3", 600));
    ok(TAKE("p3", "[\"p1\",\"p3\"]", "[\"b-1\",\"b-2\"]"));   /* p1 has lost every card: out, p3 wins */
    cr_assert(board_has("\"winner\":\"p3\""));
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p3\"");
}

Test(classic, classic_end_winner)
{
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    mismatch("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"", "classic:end.winner");
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "b-1"));        /* p1's turn: no card; p2 has none either: p1 is out first */
    mismatch("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"", "classic:end.winner");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p2\"");
    illegal(SNAP("p2", 30), "classic:end.winner");
}

Test(classic, classic_end_draw)
{
    /* a's and b's, two of each, and one z: a tie on the a's puts them in
     * the pot, a tie on the b's too; the z alone can match nothing: every
     * possible match is locked away, and both players, p1 still holding the
     * z, draw (A8) */
    extra_card = "z-1";
    cr_assert_eq(start(2, 2, 2, "announced", "\"dealer\":2").status, OL_V_OK);
    extra_card = NULL;
    ok(DEAL("p1", "[null,null,null]"));
    ok(DEAL("p2", "[null,null]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "a-2"));
    ok(SNAP("p1", 30));
    ok(SNAP("p2", 40));
    ok(POT("[\"p1\",\"p2\"]"));
    cr_assert(board_has("\"over\":false"));
    mismatch("\"type\":\"claim\",\"by\":\"table\",\"draw\":true", "classic:end.draw");
    ok(FLIP("p1", 50, "b-1"));
    ok(FLIP("p2", 60, "b-2"));
    ok(SNAP("p1", 70));
    ok(SNAP("p2", 75));
    ok(POT("[\"p1\",\"p2\"]"));
    cr_assert(board_has("\"draw\":true"));
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":1"));
    ok("\"type\":\"claim\",\"by\":\"table\",\"draw\":true");
    mismatch("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"", "classic:end.winner");
    cr_assert_str_eq(mismatch("\"type\":\"claim\",\"by\":\"table\",\"draw\":false", "classic:end.draw").msg,
                     "The table claims no draw; the engine finds a draw.");
    cr_assert(verifier_draw(vf));
    illegal(FLIP("p1", 80, "z-1"), "classic:end.winner");
}

Test(classic, classic_A15_a_forgotten_call_is_caught_at_the_next_resolution_or_the_end)
{
    /* p2's false call waits while play goes on (a call may be announced
     * late, A2); the next resolution finds its penalty due first */
    cr_assert_eq(start(2, 3, 2, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\"]"));
    ok(DEAL("p2", "[\"b-2\",\"a-2\",\"c-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(SNAP("p2", 150));               /* no match: a penalty is due */
    ok(FLIP("p2", 200, "b-2"));
    ok(FLIP("p1", 300, "b-1"));        /* p1's b-1 and p2's b-2 match */
    ok(SNAP("p1", 350));
    olverdict v = illegal(TAKE("p1", "[\"p1\",\"p2\"]", "[\"b-1\",\"b-2\",\"a-1\"]"), "classic:A4");
    cr_assert(strstr(v.msg, "p2 (ben) pays a penalty for calling Snap when there was no match"), "%s", v.msg);

    /* the end: p1 flips its last card, p2's false call is never resolved,
     * and the table claims p2 won: the claim is refused until it is */
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(SNAP("p2", 15));                /* a false call */
    ok(FLIP("p2", 20, "b-1"));
    v = illegal("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p2\"", "classic:A15");
    cr_assert_str_eq(v.msg, "The table claims the end of the game while a call waits to be resolved: first p2 "
                     "(ben) pays a penalty for calling Snap when there was no match.");
    illegal("\"type\":\"claim\",\"by\":\"table\",\"draw\":true", "classic:A15");
    ok(PENALTY("p2"));                 /* p2 has no card to pay with: out, and p1 wins */
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"");
}

/* A8: a card outside the pot of the pot's value can still be played on it:
 * no draw, and the game goes on to a Snap Pot! */
Test(classic, classic_end_draw_not_while_a_card_can_match_the_pot)
{
    extra_card = "z-1";
    cr_assert_eq(start(2, 1, 3, "open", "\"dealer\":2").status, OL_V_OK);   /* a-1 a-2 a-3 z-1 */
    extra_card = NULL;
    ok(DEAL("p1", "[\"a-1\",\"a-3\"]"));
    ok(DEAL("p2", "[\"a-2\",\"z-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "a-2"));
    ok(SNAP("p1", 30));
    ok(SNAP("p2", 40));
    ok(POT("[\"p1\",\"p2\"]"));           /* outside the pot: a-3 and z-1, one of each value */
    cr_assert(board_has("\"over\":false"));
    cr_assert_str_eq(mismatch("\"type\":\"claim\",\"by\":\"table\",\"draw\":true", "classic:end.draw").msg,
                     "The table claims a draw; the engine finds the game still going on.");
    ok(FLIP("p1", 50, "a-3"));
    ok(SNAP_POT("p2", 60));
    ok(TAKE("p2", "[\"p1\"]", "[\"a-3\",\"a-1\",\"a-2\"]") ",\"pot\":true");
    cr_assert(board_has("\"winner\":\"p2\""));   /* p1 has lost every card */
}

/* Every player out before the deal is done (a game loss each): no one is
 * left to win, and the game is a draw once the deal is. */
Test(classic, classic_end_draw_when_every_player_is_out)
{
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2").status, OL_V_OK);
    ok(GAME_LOSS("judge", "p1"));
    ok(GAME_LOSS("judge", "p2"));
    cr_assert(board_has("\"over\":false"));   /* the deal is not done */
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    cr_assert(board_has("\"over\":true,\"winner\":null,\"draw\":true"));
    /* one game loss before the deal: the other player wins once it is done */
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2").status, OL_V_OK);
    ok(GAME_LOSS("judge", "p1"));
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    cr_assert(board_has("\"winner\":\"p2\""));
}

/* ---- time ------------------------------------------------------------------------ */

Test(classic, classic_A2_calls_out_of_order_are_judged_by_time)
{
    duo_match();
    /* p2's call arrives first but was made later */
    ok(SNAP("p2", 2440));
    ok(SNAP("p1", 2300));
    olverdict v = illegal(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:piles.match");
    cr_assert_str_eq(v.msg, "p2 (ben) called Snap 140 ms after p1 (ann); p1 takes p1's and p2's piles.");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
}

Test(classic, classic_A2_a_call_before_the_flip_is_no_match)
{
    duo_match();
    /* p2 "called" at 1500, before a-2 was flipped at 2000: no match yet */
    ok(SNAP("p2", 1500));
    illegal(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:penalty.pay");
    ok(PENALTY("p2"));
}

Test(classic, classic_A2_a_late_call_is_illegal)
{
    duo_match();
    ok(SNAP("p1", 2300));
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    illegal(SNAP("p2", 2250), "classic:A2");
    ok(SNAP("p2", 2400));   /* after the take: no match any more */
    ok(PENALTY("p2"));
}

Test(classic, classic_A2_flips_come_in_time_order)
{
    duo("open", "");
    ok(FLIP("p1", 1000, "a-1"));
    illegal(FLIP("p2", 900, "a-2"), "classic:A2");
    ok(FLIP("p2", 1000, "a-2"));
}

Test(classic, classic_A3_a_later_right_call_costs_nothing)
{
    duo_match();
    ok(SNAP("p1", 2100));
    ok(SNAP("p2", 2900));
    illegal(PENALTY("p2"), "classic:piles.match");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    ok(FLIP("p1", 3000, "b-1"));     /* nothing else was due */
}

Test(classic, classic_A4_resolutions_in_the_order_of_the_calls)
{
    duo_match();
    ok(SNAP("p2", 1500));            /* wrong: first in time */
    ok(SNAP("p1", 2100));            /* right */
    illegal(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:A4");
    ok(PENALTY("p2"));
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
}

Test(classic, classic_A4_no_flip_while_resolving)
{
    duo_match();
    ok(SNAP("p2", 1500));
    ok(SNAP("p1", 2100));
    ok(PENALTY("p2"));
    illegal(FLIP("p1", 3000, "b-1"), "classic:A4");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
}

/* ---- the hidden modes -------------------------------------------------------------- */

Test(classic, classic_commit_mode_reveals_at_the_flip)
{
    /* BLAKE2b-256("a-1" || 0 || nonce) with nonce 00..0f */
    cr_assert_eq(start(2, 1, 2, "commit", "\"dealer\":2").status, OL_V_OK);
    illegal(DEAL("p1", "[\"a-1\"]"), "openlog:6");
    ok(DEAL("p1", "[{\"c\":\"0000000000000000000000000000000000000000000000000000000000000000\"}]"));
    ok(DEAL("p2", "[{\"c\":\"0000000000000000000000000000000000000000000000000000000000000000\"}]"));
    illegal("\"type\":\"flip\",\"by\":\"p1\",\"at\":10,\"card\":\"a-1\",\"nonce\":\"000102030405060708090a0b0c0d0e0f\"",
            "openlog:commit");
}

Test(classic, classic_announced_mode_checks_what_could_be_there)
{
    cr_assert_eq(start(2, 1, 2, "announced", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[null]"));
    ok(DEAL("p2", "[null]"));
    unsigned before[OL_PLAYERS_MAX] = {0};
    verifier_unverified(vf, before);   /* announced: every face-down card is yet to be seen */
    cr_assert_eq(before[0], 1);
    cr_assert_eq(before[1], 1);
    ok(FLIP("p1", 10, "a-1"));
    illegal(FLIP("p2", 20, "a-1"), "openlog:6");   /* the only a-1 was seen */
    ok(FLIP("p2", 20, "a-2"));
    unsigned un[OL_PLAYERS_MAX] = {0};
    verifier_unverified(vf, un);
    cr_assert_eq(un[0] + un[1], 0);
}

Test(classic, classic_views_hide_face_down_cards)
{
    duo("open", "");
    jtext t = {0};
    openlog_sight none, p1only, all;
    memset(&none, 0, sizeof none);
    memset(&p1only, 0, sizeof p1only);
    p1only.sees[0] = 1;
    memset(&all, 1, sizeof all);
    cr_assert_eq(verifier_board_json(vf, &none, &t), 0);
    cr_assert_null(strstr(t.buf, "a-1"), "%s", t.buf);
    cr_assert_null(strstr(t.buf, "stack_cards"), "%s", t.buf);
    cr_assert_eq(verifier_board_json(vf, &p1only, &t), 0);
    cr_assert(strstr(t.buf, "\"stack_cards\":[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"), "%s", t.buf);
    cr_assert_null(strstr(t.buf, "a-2"), "%s", t.buf);
    cr_assert_eq(verifier_board_json(vf, &all, &t), 0);
    cr_assert(strstr(t.buf, "\"stack_cards\":[\"a-2\",\"c-2\",\"b-2\",\"d-2\"]"), "%s", t.buf);
    cr_assert_eq(verifier_board_words(vf, &none, &t), 0);
    cr_assert_null(strstr(t.buf, "a-1"), "%s", t.buf);
    jtext_free(&t);
}

/* ---- the seam ------------------------------------------------------------------------ */

Test(classic, classic_players_two_to_eight_through_the_seam)
{
    cr_assert_eq(start(8, 8, 1, "announced", "\"dealer\":8").status, OL_V_OK);
    cr_assert_eq(verifier_players(vf), 8);
    for (int p = 1; p <= 8; p++) {
        char body[128];
        snprintf(body, sizeof body, "\"type\":\"deal\",\"by\":\"table\",\"player\":\"p%d\",\"cards\":[null]", p);
        ok(body);
    }
    ok(FLIP("p1", 10, "a-1"));
    unsigned un[OL_PLAYERS_MAX];
    int64_t score[OL_PLAYERS_MAX], base;
    verifier_unverified(vf, un);
    verifier_score(vf, score, &base);
    cr_assert_eq(base, 8);
    for (int p = 0; p < 8; p++) {   /* p1 has flipped its card: the others still hold one, yet to be seen */
        cr_assert_eq(un[p], p > 0, "p%d", p + 1);
        cr_assert_eq(score[p], 1, "p%d", p + 1);   /* p1's is on its discard pile */
    }
    cr_assert(verifier_ops_of(OL_FORMAT_CLASSIC)->has_type(OL_SNAP_POT));
    cr_assert_not(verifier_ops_of(OL_FORMAT_CLASSIC)->has_type(OL_BENCH));
    illegal("\"type\":\"end\",\"by\":\"p2\"", "openlog:7");
    illegal("\"type\":\"flip\",\"by\":\"p2\",\"slot\":1,\"card\":\"b-1\"", "openlog:7");
    cr_assert_str_eq(verifier_engine(vf), "classic/1");
    /* the header: a dealer who is not a seat */
    olverdict v = start(3, 2, 2, "open", "\"dealer\":5");
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "openlog:3");
}

Test(classic, classic_state_hash_is_stable_and_moves)
{
    uint8_t h0[VERIFIER_HASH_BYTES], h1[VERIFIER_HASH_BYTES], h2[VERIFIER_HASH_BYTES];
    duo("open", "");
    cr_assert_eq(verifier_state_hash(vf, h0), VERIFIER_OK);
    illegal(FLIP("p2", 1000, "a-2"), "classic:play.first");
    cr_assert_eq(verifier_state_hash(vf, h1), VERIFIER_OK);
    cr_assert_eq(memcmp(h0, h1, sizeof h0), 0, "an illegal event changed the state");
    ok(SNAP("p2", 900));                /* a call changes the window */
    cr_assert_eq(verifier_state_hash(vf, h2), VERIFIER_OK);
    cr_assert_neq(memcmp(h0, h2, sizeof h0), 0);
    duo("open", "");                    /* the same game again: the same hash */
    cr_assert_eq(verifier_state_hash(vf, h1), VERIFIER_OK);
    cr_assert_eq(memcmp(h0, h1, sizeof h0), 0);
}

/* A11 as the flip sees it: a call waiting keeps the empty player in, and
 * their flip is then refused -- they have no card to flip. */
Test(classic, classic_simple_out_no_card_to_flip)
{
    cr_assert_eq(start(2, 3, 1, "open", "\"dealer\":1,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    illegal(DEAL("p2", "[\"z-9\",\"c-1\"]"), "openlog:cards");
    ok(DEAL("p2", "[\"b-1\",\"c-1\"]"));
    illegal(DEAL("p2", "[\"b-1\",\"c-1\"]"), "classic:deal.one_at_a_time");
    ok(FLIP("p2", 10, "b-1"));
    ok(FLIP("p1", 20, "a-1"));
    ok(SNAP("p2", 25));                /* wrong, and waiting */
    ok(FLIP("p2", 30, "c-1"));
    illegal(FLIP("p1", 40, "a-1"), "classic:simple.out");
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":0"));
}

/* The seam's range: classic Snap is played by 2 to 8; a header naming one
 * player (made by hand: the codec reads none) is malformed, openlog:4. */
Test(classic, classic_players_range_openlog_4)
{
    olevent *h = olevent_new();
    cr_assert_not_null(h);
    h->match = "c";
    h->type = OL_MATCH;
    h->by = OL_BY_TABLE;
    h->header.format = OL_FORMAT_CLASSIC;
    h->header.cards = "mini@1";
    h->header.n_players = 1;
    h->header.players[0].id = "ann";
    db = make_db(2, 2);
    olverdict v;
    verifier *one = NULL;
    cr_assert_eq(verifier_new(db, h, &one, &v), VERIFIER_EPLAYERS);
    cr_assert_null(one);
    cr_assert_str_eq(v.msg, "A classic match has 2 to 8 players; this header names 1.");
    cr_assert_str_eq(v.rule, "openlog:4");
    olevent_destroy(&h);
}

/* The engine alone, without the seam: st started on `db` for n players
 * (start_direct: two) in `hidden` mode with levers `rules`; the header's
 * verdict. */
static olverdict start_direct_n(classic_state *st, int n, const char *hidden, const char *rules)
{
    char body[1024], players[512] = "";
    for (int p = 0; p < n; p++)
        snprintf(players + strlen(players), sizeof players - strlen(players), "%s\"p%d\":{\"id\":\"s%d\"}",
                 p ? "," : "", p + 1, p + 1);
    snprintf(body, sizeof body, "\"type\":\"match\",\"by\":\"table\",\"format\":\"classic\",\"cards\":\"mini@1\","
             "\"hidden\":\"%s\",\"players\":{%s},\"rules\":{%s}", hidden, players, rules);
    olevent *h = decode(body, 0);
    olverdict v;
    cr_assert_eq(classic_start(st, db, NULL, h, &v), VERIFIER_OK);
    olevent_destroy(&h);
    return v;
}

static olverdict start_direct(classic_state *st, const char *hidden, const char *rules)
{
    return start_direct_n(st, 2, hidden, rules);
}

/* The engine alone: each event of `game` is ok and the invariants hold
 * after it. */
static void play_direct(classic_state *st, const char *const *game, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        olevent *ev = decode(game[i], i + 1);
        olverdict v;
        classic_apply(st, ev, &v);
        olevent_destroy(&ev);
        cr_assert_eq(v.status, OL_V_OK, "%s: %s", game[i], v.msg);
        cr_assert_eq(classic_check_invariants(st), 0, "after %s", game[i]);
    }
}

/* The engine directly, to read its invariants after each event of a game
 * with a take, a tie, a penalty and a Snap Pot, in open and in announced
 * mode; and each invariant, broken, is caught. */
Test(classic, classic_invariants_hold_through_a_game)
{
    static const char *const game[] = {
        DEAL("p1", "[\"a-1\",\"b-1\",\"a-3\",\"c-1\",\"c-3\"]"), DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"b-3\"]"),
        FLIP("p1", 1000, "a-1"), FLIP("p2", 2000, "a-2"), SNAP("p1", 2100), SNAP("p2", 2150), POT("[\"p1\",\"p2\"]"),
        FLIP("p1", 3000, "b-1"), SNAP("p2", 3100), PENALTY("p2"), FLIP("p2", 4000, "b-2"), FLIP("p1", 5000, "a-3"),
        SNAP_POT("p2", 5200), TAKE("p2", "[\"p1\"]", "[\"a-1\",\"a-2\",\"b-1\",\"a-3\"]") ",\"pot\":true",
    };
    static const char *const announced[] = {
        DEAL("p1", "[null,null,null,null,null]"), DEAL("p2", "[null,null,null,null]"),
        FLIP("p1", 1000, "a-1"), FLIP("p2", 2000, "a-2"), SNAP("p1", 2100), SNAP("p2", 2150), POT("[\"p1\",\"p2\"]"),
    };
    static classic_state st;
    db = make_db(3, 3);
    cr_assert_eq(start_direct(&st, "open", "\"dealer\":2").status, OL_V_OK);
    cr_assert_eq(classic_check_invariants(&st), 0);   /* before the deal: nothing to hold yet */
    play_direct(&st, game, sizeof game / sizeof game[0]);
    cr_assert_eq(st.pot.n, 0);
    cr_assert_eq(st.stack[1].n, 1 + 4);   /* b-3, and the four taken (c-2 went to p1 as the penalty) */
    cr_assert_eq(st.stack[0].n, 3);       /* c-1 c-3 c-2 */
    /* 1: a card in two places, a card that is none of the deck's, a card lost */
    static classic_state broken;
    broken = st;
    broken.pot.slot[broken.pot.n++] = broken.stack[1].slot[0];
    cr_assert_eq(classic_check_invariants(&broken), 1);
    broken = st;
    broken.stack[0].slot[0] = broken.n_cards;
    cr_assert_eq(classic_check_invariants(&broken), 1);
    broken = st;
    broken.stack[0].n--;
    cr_assert_eq(classic_check_invariants(&broken), 1);
    /* 4: an end with a winner who is out, or with no winner and no draw */
    broken = st;
    openlog_end(&broken.m, 0);
    broken.out[0] = 1;
    cr_assert_eq(classic_check_invariants(&broken), 4);
    broken.m.winner = -1;
    cr_assert_eq(classic_check_invariants(&broken), 4);
    broken.out[0] = 0;
    broken.m.winner = 0;
    cr_assert_eq(classic_check_invariants(&broken), 0);
    openlog_end_draw(&broken.m);       /* a draw has no winner */
    cr_assert_eq(classic_check_invariants(&broken), 0);

    /* announced: the face-down cards are unknown, each a pool entry */
    cr_assert_eq(start_direct(&st, "announced", "\"dealer\":2").status, OL_V_OK);
    play_direct(&st, announced, sizeof announced / sizeof announced[0]);
    cr_assert_eq(st.n_pool, 7);
    cr_assert_eq(st.pot.n, 2);
    /* 2: a pool that is not the unknown cards; 3: a pot whose top is not of its value */
    broken = st;
    broken.n_pool--;
    cr_assert_eq(classic_check_invariants(&broken), 2);
    broken = st;
    broken.pot_value = (uint8_t)(st.pot_value + 1);
    cr_assert_eq(classic_check_invariants(&broken), 3);
}

/* The seam's card schemas: a playing-card database cannot serve a Snap
 * match (its cards have no snap properties): the header is malformed,
 * openlog:4, and no verifier is made. */
Test(classic, openlog_4_a_playing_card_database_serves_no_mintayn_match)
{
    cards *d = make_db(0, 0);
    const char *text = "{\"match\":\"m\",\"seq\":0,\"type\":\"match\",\"by\":\"table\",\"format\":\"snap\","
                       "\"cards\":\"standard@1\",\"hidden\":\"open\",\"players\":{\"p1\":{\"id\":\"a\",\"deck\":{\"monsters\":[],\"supports\":[]}},"
                       "\"p2\":{\"id\":\"b\",\"deck\":{\"monsters\":[],\"supports\":[]}}}}";
    olevent *ev = NULL;
    olerror err;
    cr_assert_eq(olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, &ev, &err), OL_OK, "%s", err.msg);
    verifier *v2 = NULL;
    olverdict v;
    cr_assert_eq(verifier_new(d, ev, &v2, &v), VERIFIER_ECARDS);
    cr_assert_null(v2);
    cr_assert_eq(v.status, OL_V_MALFORMED);
    cr_assert_str_eq(v.rule, "openlog:4");
    cr_assert(strstr(v.msg, "standard@1 has cards without snap properties"), "%s", v.msg);
    olevent_destroy(&ev);
    cards_destroy(&d);
}

/* ---- the header's limits ------------------------------------------------------------ */

/* A deck of more kinds, or more cards, than the engine judges is refused at
 * the header, and nothing of the match is judged after it. */
Test(classic, classic_deck_decks_the_engine_limits)
{
    olverdict v = start(2, 26, 5, "open", "");   /* 130 kinds of card */
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "classic:deck.decks");
    cr_assert_str_eq(v.msg, "The deck would be 130 cards (1 deck of 130); arbiter judges decks of 1 to 416 "
                            "cards of at most 128 kinds.");
    illegal_says(DEAL("p1", "[\"a-1\"]"), "classic:deck.decks", "The match did not start: its header was refused.");
    v = start(2, 18, 3, "open", "\"decks\":8");   /* 54 cards, 8 times: 432 */
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "classic:deck.decks");
    cr_assert(strstr(v.msg, "The deck would be 432 cards (8 decks of 54);"), "%s", v.msg);
    v = start(2, 13, 4, "open", "\"decks\":8");   /* 52 cards, 8 times: 416, the most */
    cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
    v = start(2, 16, 8, "open", "");              /* 128 kinds, the most */
    cr_assert_eq(v.status, OL_V_OK, "%s", v.msg);
}

/* A database without a card makes no deck (the engine alone: the card
 * database loader refuses an empty one before a match could name it). */
Test(classic, classic_deck_decks_an_empty_database)
{
    static classic_state st;
    db = cards_new("mini", "1");
    cr_assert_not_null(db);
    olverdict v = start_direct(&st, "open", "");
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "classic:deck.decks");
    cr_assert(strstr(v.msg, "The deck would be 0 cards"), "%s", v.msg);
    cr_assert_eq(classic_check_invariants(&st), 0);   /* a refused match has nothing to hold */
}

Test(classic, classic_deck_decks_two_decks_are_dealt_whole)
{
    cr_assert_eq(start(2, 2, 1, "open", "\"decks\":2,\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    illegal_says(DEAL("p2", "[\"b-1\"]"), "classic:deck.decks",
                 "The table deals 3 cards in all; the deck of 2 decks holds 4, and every card is dealt.");
}

/* The first lever names a seat; a seat past the players is refused at the
 * header, and every event after it. */
Test(classic, classic_play_first_names_a_seat)
{
    olverdict v = start(3, 2, 2, "open", "\"first\":5");
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "openlog:3");
    cr_assert_str_eq(v.msg, "The header names p5 as the first player, but this match's players are p1 to p3.");
    illegal_says(DEAL("p1", "[\"a-1\"]"), "openlog:3", "The match did not start: its header was refused.");
    v = start(3, 2, 2, "open", "\"dealer\":4");
    cr_assert_str_eq(v.msg, "The header names p4 as the dealer, but this match's players are p1 to p3.");
}

/* The first player named is out before the first flip (dealt no card: two
 * cards for three): the next player still in on their left begins. */
Test(classic, classic_play_first_skips_a_player_out)
{
    cr_assert_eq(start(3, 1, 2, "open", "\"dealer\":2,\"first\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[]"));              /* p2 deals: p3 and p1 get the two cards */
    ok(DEAL("p3", "[\"a-2\"]"));
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":true"));
    cr_assert(board_has("\"next\":\"p3\""));
    illegal_says(FLIP("p1", 10, "a-1"), "classic:play.first", "p1 (ann) flipped first; p3 (mia) begins.");
    illegal(FLIP("p2", 10, "a-1"), "classic:out.cards");
    ok(FLIP("p3", 10, "a-2"));
}

/* ---- who announces what ------------------------------------------------------------- */

/* The table announces the deal and every consequence of the calls; a player
 * or the judge announcing one is refused (openlog 3), as is a flip that is
 * not a player's. */
Test(classic, classic_openlog_3_the_table_resolves)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2").status, OL_V_OK);
    illegal_says("\"type\":\"deal\",\"by\":\"p2\",\"player\":\"p1\",\"cards\":[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]",
                 "openlog:3", "p2 (ben) announced a deal; the table does.");
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"d-2\"]"));
    illegal_says("\"type\":\"flip\",\"by\":\"judge\",\"at\":1000,\"card\":\"a-1\"", "openlog:3",
                 "The judge announced flip; only a player does.");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    /* each consequence, the one due, announced by someone else: refused,
     * and nothing of it done -- the table's own is then accepted */
    ok(SNAP("p1", 2100));
    illegal_says("\"type\":\"take\",\"by\":\"judge\",\"player\":\"p1\",\"piles\":[\"p1\",\"p2\"],\"cards\":[\"a-1\",\"a-2\"]",
                 "openlog:3", "The judge announced a take; the table does.");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    ok(FLIP("p1", 3000, "b-1"));
    ok(FLIP("p2", 4000, "c-2"));
    ok(SNAP("p2", 4100));              /* wrong */
    illegal_says("\"type\":\"penalty\",\"by\":\"p2\",\"player\":\"p2\"", "openlog:3",
                 "p2 (ben) announced a penalty; the table does.");
    ok(PENALTY("p2"));
    ok(FLIP("p1", 5000, "c-1"));       /* c-1 on p1's pile, c-2 on p2's */
    ok(SNAP("p1", 5100));
    ok(SNAP("p2", 5150));
    illegal_says("\"type\":\"pot\",\"by\":\"p1\",\"piles\":[\"p1\",\"p2\"]", "openlog:3",
                 "p1 (ann) announced a snap pot; the table does.");
    ok(POT("[\"p1\",\"p2\"]"));
    illegal_says("\"type\":\"out\",\"by\":\"judge\",\"player\":\"p2\"", "openlog:3",
                 "The judge announced an elimination; the table does.");
    /* a seat past the two players is nobody at this table */
    illegal_says(FLIP("p3", 6000, "b-1"), "openlog:3", "p3 is not a player of this match, whose players are p1 and p2.");
    /* one card each: p1's pile is theirs to turn over, by the table */
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "b-1"));
    illegal_says("\"type\":\"turn_over\",\"by\":\"p1\",\"player\":\"p1\",\"cards\":[\"a-1\"]", "openlog:3",
                 "p1 (ann) announced a discard pile turned over; the table does.");
    ok(TURN_OVER("p1", "[\"a-1\"]"));
}

/* A claim of classic Snap names a winner or a draw, nothing of a duel's. */
Test(classic, classic_openlog_7_a_claim_has_no_duel_result)
{
    duo_match();
    illegal_says("\"type\":\"claim\",\"by\":\"table\",\"lp\":{\"p1\":0,\"p2\":100}", "openlog:7",
                 "A classic Snap claim names a winner or a draw; it has no defeated monsters or Life Points.");
    illegal("\"type\":\"claim\",\"by\":\"table\",\"defeated\":[{\"p\":\"p1\",\"s\":\"a\"}]", "openlog:7");
}

/* The engine alone (classic_apply, without the seam that refuses them
 * first): another format's type is no classic action. */
Test(classic, classic_openlog_7_the_engine_alone_refuses_other_types)
{
    static classic_state st;
    db = make_db(2, 2);
    cr_assert_eq(start_direct(&st, "open", "").status, OL_V_OK);
    olevent *ev = decode("\"type\":\"end\",\"by\":\"p1\"", 1);
    olverdict v;
    classic_apply(&st, ev, &v);
    olevent_destroy(&ev);
    cr_assert_eq(v.status, OL_V_ILLEGAL);
    cr_assert_str_eq(v.rule, "openlog:7");
    cr_assert_str_eq(v.msg, "An event of type end is not an action of classic Snap.");
    const verifier_ops *ops = verifier_ops_of(OL_FORMAT_CLASSIC);
    cr_assert_not(ops->has_type(OL_TYPE_COUNT));
    cr_assert_not(ops->has_type((ol_type)-1));
    cr_assert(ops->has_type(OL_TURN_OVER));
}

/* ---- the judge ---------------------------------------------------------------------- */

/* A game loss puts one player out and the others play on; the last one in
 * wins.  Only the judge announces it; other rulings change nothing. */
Test(classic, classic_end_winner_after_game_losses)
{
    trio();
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"warning\",\"player\":\"p2\",\"text\":\"Slow play.\"");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"note\",\"text\":\"A clean game so far.\"");
    ok("\"type\":\"judge\",\"by\":\"judge\",\"ruling\":\"game_loss\",\"text\":\"Whose?\"");   /* no one named: no one out */
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false"));
    illegal_says(GAME_LOSS("table", "p2"), "openlog:3", "A game loss is announced by the judge.");
    illegal(GAME_LOSS("p1", "p2"), "openlog:3");
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":false"));   /* an illegal event changes nothing */
    int w = 0;
    ok(GAME_LOSS("judge", "p2"));
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":true"));
    cr_assert(board_has("\"over\":false"));
    cr_assert_not(verifier_finished(vf, &w));
    cr_assert_eq(w, -1);
    ok(FLIP("p1", 100, "a-1"));
    illegal(FLIP("p2", 200, "b-2"), "classic:out.cards");
    ok(FLIP("p3", 200, "c-3"));        /* p2 is skipped */
    ok(GAME_LOSS("judge", "p1"));
    cr_assert(board_has("\"winner\":\"p3\""));
    ok(GAME_LOSS("judge", "p3"));      /* after the end: the result stands */
    cr_assert(board_has("\"winner\":\"p3\""));
    cr_assert(verifier_finished(vf, &w));
    cr_assert_eq(w, 2);
    cr_assert(verifier_finished(vf, NULL));
    cr_assert_not(verifier_draw(vf));
    cr_assert_str_eq(mismatch("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p1\"", "classic:end.winner").msg,
                     "The table claims p1 won; the engine finds a win for p3 (mia).");
    cr_assert_str_eq(mismatch("\"type\":\"claim\",\"by\":\"table\",\"draw\":true", "classic:end.draw").msg,
                     "The table claims a draw; the engine finds a win for p3 (mia).");
    ok("\"type\":\"claim\",\"by\":\"table\",\"winner\":\"p3\"");
}

/* ---- time and the order of resolutions ------------------------------------------------- */

/* A flip whose `at` is earlier than a call already resolved is announced
 * too late, even when it is later than the last flip. */
Test(classic, classic_A2_a_flip_before_a_resolved_call)
{
    duo_match();
    ok(SNAP("p1", 2300));
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    illegal_says(FLIP("p1", 2200, "b-1"), "classic:A2",
                 "p1 (ann)'s flip at 2200 ms is announced after the table resolved a call at 2300 ms.");
    ok(FLIP("p1", 2300, "b-1"));
}

/* A window holds 64 calls; the table resolves them before a 65th. */
Test(classic, classic_A4_a_window_holds_64_calls)
{
    duo_match();
    char body[128];
    for (int i = 0; i < 64; i++) {
        snprintf(body, sizeof body, "\"type\":\"snap\",\"by\":\"p%d\",\"at\":%d", 1 + i % 2, 1100 + i);
        ok(body);                      /* before a-2: no match, each wrong */
    }
    illegal_says(SNAP("p1", 2200), "classic:A4", "p1 (ann) called while 64 calls wait for the table; it resolves them first.");
    /* 64 penalties are due, the first p1's */
    illegal_says(PENALTY("p2"), "classic:penalty.pay",
                 "The table charges p2 (ben) a penalty, but the wrong call was p1 (ann)'s Snap at 1100 ms.");
    ok(PENALTY("p1"));
    cr_assert(board_has("\"calls_waiting\":0,\"consequences_due\":63,"));
}

/* A turn-over is play: not while a call waits, nor while its consequences
 * are being announced. */
Test(classic, classic_A4_no_turn_over_while_resolving)
{
    /* p1 deals: p2 gets two cards and begins */
    cr_assert_eq(start(2, 3, 1, "open", "\"dealer\":1").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\"]"));
    ok(DEAL("p2", "[\"b-1\",\"c-1\"]"));
    ok(FLIP("p2", 10, "b-1"));
    ok(FLIP("p1", 20, "a-1"));          /* p1 has no face-down card left */
    ok(SNAP("p2", 25));                 /* wrong */
    ok(SNAP("p2", 26));                 /* wrong again */
    illegal_says(TURN_OVER("p1", "[\"a-1\"]"), "classic:A4",
                 "The table turns over p1 (ann)'s discard pile while calls wait to be resolved.");
    ok(PENALTY("p2"));                  /* c-1 to p1 */
    illegal(TURN_OVER("p2", "[\"b-1\"]"), "classic:A4");   /* the second penalty is due */
    ok(PENALTY("p2"));                  /* nothing left to pay with: out */
    cr_assert(board_has("\"winner\":\"p1\""));
}

/* Only a player still in turns their pile over, and only one they have. */
Test(classic, classic_piles_turn_over_a_pile_there_is_to_turn)
{
    cr_assert_eq(start(2, 2, 1, "open", "\"dealer\":2").status, OL_V_OK);
    illegal_says(TURN_OVER("p1", "[]"), "classic:piles.turn_over",
                 "The table turns over p1 (ann)'s discard pile; a player turns it over only when they have no face-down "
                 "card left and a discard pile to turn.");
    /* p2, out with a card on its discard pile (A14), turns nothing over */
    cr_assert_eq(start(3, 3, 2, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"c-1\",\"c-2\"]"));
    ok(DEAL("p3", "[\"a-2\",\"b-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "c-1"));
    ok(SNAP("p2", 250));
    ok(PENALTY("p2"));                 /* c-2 to p3; nothing left for p1: out */
    illegal_says(TURN_OVER("p2", "[\"c-1\"]"), "classic:piles.turn_over",
                 "The table turns over p2 (ben)'s discard pile; a player turns it over only when they have no face-down "
                 "card left.");
}

/* ---- calls and what they are worth ------------------------------------------------------ */

/* A call on a common pile holding no card, or one card only, matches
 * nothing: there is no card previously played. */
Test(classic, classic_penalty_pay_a_call_before_two_cards)
{
    cr_assert_eq(start(2, 3, 1, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"c-1\"]"));
    ok(DEAL("p2", "[\"b-1\"]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(SNAP("p2", 5));                 /* before the first card */
    ok(SNAP("p1", 15));                /* on the first card alone */
    illegal_says("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[]", "classic:penalty.pay",
                 "The table announces a take, but next p2 (ben) pays a penalty for calling Snap when there was no "
                 "match.");
    ok(PENALTY("p2"));
    illegal("\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-1\"]", "classic:penalty.pay");
    ok(PENALTY("p1"));
    /* a new window, from the common pile as it is: one card, still no match */
    ok(SNAP("p2", 20));
    illegal("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[\"a-1\"]", "classic:penalty.pay");
    ok(PENALTY("p2"));
}

/* Two wrong calls: two penalties, and nothing else, are due. */
Test(classic, classic_penalty_pay_two_wrong_calls)
{
    trio();
    ok(FLIP("p1", 100, "a-1"));
    ok(SNAP("p3", 160));
    ok(SNAP("p2", 150));
    illegal_says(TAKE("p2", "[\"p1\"]", "[\"a-1\"]"), "classic:penalty.pay",
                 "The table announces a take, but next p2 (ben) pays a penalty for calling Snap when there was no "
                 "match.");
    illegal(PENALTY("p3"), "classic:penalty.pay");   /* p2 called first */
    ok(PENALTY("p2"));
    ok(PENALTY("p3"));
}

/* A take or a pot answers a call: with no call since the last
 * resolution, there is nothing to take. */
Test(classic, classic_snap_first_caller_nothing_taken_without_a_call)
{
    duo_match();
    illegal_says(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:snap.first_caller",
                 "The table announces a take, but no one has called since the last resolution.");
    illegal_says(POT("[\"p1\",\"p2\"]"), "classic:pot.tie",
                 "The table announces a snap pot, but no one has called since the last resolution.");
}

/* Two calls of one player make no tie: the first takes, the second costs
 * nothing. */
Test(classic, classic_snap_first_caller_no_tie_with_oneself)
{
    duo_match();
    ok(SNAP("p1", 2300));
    ok(SNAP("p1", 2350));
    illegal_says(POT("[\"p1\",\"p2\"]"), "classic:pot.tie",
                 "The table announces a snap pot, but next p1 (ann) takes p1's and p2's piles.");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    ok(FLIP("p1", 3000, "b-1"));       /* nothing else was due */
}

/* In the common-pile version there are no players' piles to name. */
Test(classic, classic_snap_first_caller_the_common_pile_only)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"c-2\",\"d-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "a-2"));
    ok(SNAP("p2", 300));
    illegal_says(TAKE("p2", "[\"p1\"]", "[\"a-1\",\"a-2\"]"), "classic:snap.first_caller",
                 "The table gives p2 (ben) players' own discard piles; the Snap at 300 ms takes the common pile.");
    ok("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[\"a-1\",\"a-2\"]");
    /* a tie on the common pile: the common pile goes to the pot */
    ok(FLIP("p1", 400, "b-1"));
    ok(FLIP("p2", 500, "b-2"));
    ok(SNAP("p1", 600));
    ok(SNAP("p2", 620));
    illegal_says(POT("[\"p1\",\"p2\"]"), "classic:pot.tie",
                 "The table sets aside players' own discard piles; the tie disputed the common pile.");
    ok("\"type\":\"pot\",\"by\":\"table\"");
    cr_assert(board_has("\"pot\":{\"count\":2,\"top\":\"b-2\"}"));
}

/* Without the snap pot calls never tie (A9): the first by time takes. */
Test(classic, classic_pot_tie_none_without_the_snap_pot)
{
    duo("open", "\"snap_pot\":false");
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p2", 2300));
    ok(SNAP("p1", 2310));
    illegal_says(POT("[\"p1\",\"p2\"]"), "classic:pot.tie",
                 "The table announces a snap pot, but next p2 (ben) takes p1's and p2's piles.");
    illegal_says(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:piles.match",
                 "p1 (ann) called Snap 10 ms after p2 (ben); p2 takes p1's and p2's piles.");
    ok(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
}

/* A window keeps its last 64 flips; older ones are folded into the piles
 * it starts from, so that a call is still judged by the piles at its time
 * (A2).  Sixty-six flips of a-1 a-2 a-3 a-4 b-1 ... with no call, then a
 * Snap made between the second and the third: a-1 and a-2 matched then. */
static void long_window(const char *levers, const char *starts, const char *rule, const char *due)
{
    char rules[128], nulls[34 * 5 + 3] = "[", body[256];
    snprintf(rules, sizeof rules, "\"dealer\":2%s", levers);
    cr_assert_eq(start(2, 17, 4, "announced", rules).status, OL_V_OK);
    for (int i = 0; i < 34; i++)
        strcat(nulls, i ? ",null" : "null");
    strcat(nulls, "]");
    snprintf(body, sizeof body, DEAL("p1", "%s"), nulls);
    ok(body);
    snprintf(body, sizeof body, DEAL("p2", "%s"), nulls);
    ok(body);
    for (int i = 0; i < 66; i++) {
        snprintf(body, sizeof body, "\"type\":\"flip\",\"by\":\"p%d\",\"at\":%d,\"card\":\"%c-%d\"", 1 + i % 2,
                 10 * (i + 1), 'a' + i / 4, 1 + i % 4);
        ok(body);
    }
    /* the window keeps the last 64 flips, from a-3 at 30; a-1 and a-2 are
     * where it starts */
    jtext t = {0};
    cr_assert_eq(verifier_encode(vf, &t), 0);
    cr_assert(strstr(t.buf, "\"flips\":[[30,"), "%s", t.buf);
    cr_assert(strstr(t.buf, ",[660,"), "%s", t.buf);
    cr_assert_null(strstr(t.buf, ",[670,"), "%s", t.buf);
    cr_assert(strstr(t.buf, starts), "%s", t.buf);
    jtext_free(&t);
    ok(SNAP("p2", 25));
    illegal_says(PENALTY("p2"), rule, due);
}

Test(classic, classic_A2_a_long_window_folds_its_oldest_flips)
{
    long_window(",\"common_pile\":true", "],\"start\":[-1,-1,-1,-1,-1,-1,-1,-1,1,0],", "classic:snap.first_caller",
                "The table announces a penalty, but next p2 (ben) takes the common pile.");
    long_window("", "],\"start\":[0,1,-1,-1,-1,-1,-1,-1,-1,-1],", "classic:piles.match", "The table announces a penalty, but next p2 (ben) takes p1's and p2's piles.");
}

/* ---- which pile goes with the snap pot (A6) ------------------------------------------------ */

/* p1 flips a-1, p2 a-2, both call: the tie puts them in the snap pot. */
static void the_as_tie(void)
{
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "a-2"));
    ok(SNAP("p1", 250));
    ok(SNAP("p2", 260));
    ok(POT("[\"p1\",\"p2\"]"));
}

/* Three players, a's and b's: a tie puts a-1 and a-2 in the snap pot; then
 * p3 and p1 flip a's onto their piles -- both match the pot. */
Test(classic, classic_pot_snap_pot_the_pile_flipped_last)
{
    cr_assert_eq(start(3, 2, 6, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"a-4\",\"b-1\",\"b-4\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"b-5\",\"b-6\"]"));
    ok(DEAL("p3", "[\"a-3\",\"a-5\",\"b-3\",\"a-6\"]"));
    the_as_tie();
    ok(FLIP("p3", 300, "a-3"));
    ok(FLIP("p1", 400, "a-4"));        /* p1's a, flipped after p3's, goes with the pot */
    ok(SNAP_POT("p2", 450));
    ok(SNAP("p3", 460));               /* right too (p1's and p3's a's), but not first: costs nothing */
    ok(FLIP("p2", 500, "b-2"));
    ok(FLIP("p3", 600, "a-5"));        /* now p3's a is the last */
    ok(SNAP_POT("p1", 650));           /* right, 200 ms after p2: no tie */
    illegal_says(PENALTY("p2"), "classic:pot.snap_pot",
                 "The table announces a penalty, but next p2 (ben) takes p1's pile and the snap pot.");
    illegal_says(TAKE("p1", "[\"p3\"]", "[\"a-3\",\"a-5\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot",
                 "p1 (ann) called Snap Pot 200 ms after p2 (ben); p2 takes p1's pile and the snap pot.");
    illegal_says(TAKE("p2", "[]", "[\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot",
                 "The table gives p2 (ben) the snap pot; the Snap Pot at 450 ms takes p1's pile and the snap pot.");
    illegal(TAKE("p2", "[\"p3\"]", "[\"a-3\",\"a-5\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot");
    ok(TAKE("p2", "[\"p1\"]", "[\"a-4\",\"a-1\",\"a-2\"]") ",\"pot\":true");
    cr_assert(board_has("\"pot\":{\"count\":0,"));
}

/* The same with a pile whose a was on top before the last resolution: a
 * pile flipped onto since goes with the pot before it. */
Test(classic, classic_pot_snap_pot_a_pile_flipped_onto_first)
{
    cr_assert_eq(start(3, 3, 6, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"c-1\",\"a-4\",\"b-3\",\"b-4\",\"c-3\"]"));
    ok(DEAL("p2", "[\"a-2\",\"a-3\",\"c-2\",\"b-5\",\"b-6\",\"c-4\"]"));
    ok(DEAL("p3", "[\"b-1\",\"c-5\",\"c-6\",\"a-5\",\"b-2\",\"a-6\"]"));
    the_as_tie();
    ok(FLIP("p3", 300, "b-1"));
    ok(FLIP("p1", 400, "c-1"));
    ok(FLIP("p2", 500, "a-3"));        /* p2's a matches the pot */
    ok(SNAP("p3", 550));               /* no two piles match: a penalty, and a new window */
    ok(PENALTY("p3"));                 /* c-5 to p1, c-6 to p2 */
    ok(FLIP("p3", 600, "a-5"));        /* p3's a: flipped in this window, p2's was not */
    ok(FLIP("p1", 700, "a-4"));        /* p1's a: flipped last */
    ok(SNAP_POT("p1", 650));
    ok(SNAP_POT("p3", 760));           /* right, 110 ms after p1: no tie */
    illegal_says(TAKE("p1", "[\"p2\"]", "[\"a-3\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot",
                 "The table gives p1 (ann) p2's pile and the snap pot; the Snap Pot at 650 ms takes p3's pile and the "
                 "snap pot.");
    illegal(TAKE("p3", "[\"p1\"]", "[\"c-1\",\"a-4\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot");
    ok(TAKE("p1", "[\"p3\"]", "[\"b-1\",\"a-5\",\"a-1\",\"a-2\"]") ",\"pot\":true");
}

/* ---- what viewers see ----------------------------------------------------------------------- */

/* SPEC.md 7.6: a face-down stack's order is hidden -- the deal's, a take's
 * and a turn-over's cards are their player's to see, and no one else's;
 * a flip's card is public.  An event without a player (made by hand: the
 * codec requires one) hides its cards from every player. */
Test(classic, classic_openlog_6_stacks_are_hidden_from_the_others)
{
    olevent *h = decode("\"type\":\"match\",\"by\":\"table\",\"format\":\"classic\",\"cards\":\"mini@1\",\"hidden\":"
                        "\"open\",\"players\":{\"p1\":{\"id\":\"a\"},\"p2\":{\"id\":\"b\"}}", 0);
    static const struct {
        const char *body;
        int owner;               /* -2: nothing hidden */
    } cases[] = {
        {DEAL("p2", "[\"a-1\"]"), 1},
        {TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), 0},
        {TURN_OVER("p2", "[\"a-1\"]"), 1},
        {FLIP("p1", 10, "a-1"), -2},
        {SNAP("p1", 10), -2},
        {PENALTY("p1"), -2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        olevent *ev = decode(cases[i].body, 1);
        verifier_hidden_field f[VERIFIER_HIDDEN_MAX];
        for (int with_header = 0; with_header < 2; with_header++) {
            size_t n = verifier_event_hidden(ev, with_header ? h : NULL, f);
            if (cases[i].owner == -2) {
                cr_assert_eq(n, 0, "%s", cases[i].body);
                continue;
            }
            cr_assert_eq(n, 1, "%s", cases[i].body);
            cr_assert_str_eq(f[0].key, "cards");
            cr_assert(f[0].list);
            cr_assert_eq(f[0].first, SIZE_MAX, "%s: every card of the list", cases[i].body);
            cr_assert_eq(f[0].owner, cases[i].owner, "%s", cases[i].body);
        }
        if (cases[i].owner >= 0) {
            ev->has_player = 0;
            cr_assert_eq(verifier_event_hidden(ev, h, f), 1);
            cr_assert_eq(f[0].owner, -1, "%s without a player", cases[i].body);
        }
        olevent_destroy(&ev);
    }
    olevent_destroy(&h);
}

/* The board in words, as each sight may read it: before the deal, during
 * play (a player's own stack, top first), and nothing when the text it is
 * written into has already failed. */
Test(classic, classic_flip_stack_the_board_in_words)
{
    openlog_sight none, p1only;
    memset(&none, 0, sizeof none);
    memset(&p1only, 0, sizeof p1only);
    p1only.sees[0] = 1;
    jtext t = {0};
    cr_assert_eq(start(2, 4, 2, "commit", "\"dealer\":2").status, OL_V_OK);
    cr_assert_eq(verifier_board_words(vf, &none, &t), 0);
    cr_assert(strstr(t.buf, "Classic Snap, a discard pile each; the deal is not done.\n"), "%s", t.buf);
    duo("open", "");
    ok(FLIP("p1", 1000, "a-1"));
    ok(SNAP("p2", 1100));
    jtext_reset(&t);
    cr_assert_eq(verifier_board_words(vf, &p1only, &t), 0);
    cr_assert_str_eq(t.buf, "Classic Snap, a discard pile each; play goes on.\n"
                            "p1 (ann): 3 face-down cards; discard pile 1, top a-1.\n"
                            "  stack, top first: b-1, c-1, d-1\n"
                            "p2 (ben): 4 face-down cards; discard pile 0, top empty; flips next.\n"
                            "Snap pot: 0, top empty.\n"
                            "1 call wait for the table.\n");
    jtext_free(&t);
}

/* The engine's writers alone, into a text that has already failed (as an
 * allocation failing part way leaves it): each says so, -1, and writes
 * nothing. */
Test(classic, classic_flip_stack_a_failed_text_is_no_board)
{
    static classic_state st;
    db = make_db(2, 2);
    cr_assert_eq(start_direct(&st, "open", "").status, OL_V_OK);
    openlog_sight all;
    memset(&all, 1, sizeof all);
    jtext bad = {0};
    bad.bad = 1;
    cr_assert_eq(classic_board_json(&st, &all, &bad), -1);
    cr_assert_eq(classic_board_words(&st, &all, &bad), -1);
    cr_assert_eq(classic_encode(&st, &bad), -1);
    cr_assert_eq(bad.len, 0);
    jtext ok_text = {0};
    cr_assert_eq(classic_encode(&st, &ok_text), 0);
    cr_assert(strstr(ok_text.buf, "{\"format\":\"classic\""), "%s", ok_text.buf);
    jtext_free(&ok_text);
}

/* ---- the seam's figures --------------------------------------------------------------------- */

/* A round is a turn of the table: one flip for each player; before the deal
 * there is none.  The score of a match is the cards each player holds, out
 * of the deck's. */
Test(classic, classic_play_clockwise_rounds_and_cards_held)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2").status, OL_V_OK);
    cr_assert_eq(verifier_round(vf), 0);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\",\"d-2\"]"));
    cr_assert_eq(verifier_round(vf), 1);
    ok(FLIP("p1", 1000, "a-1"));
    cr_assert_eq(verifier_round(vf), 1);
    ok(FLIP("p2", 2000, "a-2"));
    cr_assert_eq(verifier_round(vf), 2);
    ok(SNAP("p2", 2100));
    ok(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    int64_t score[OL_PLAYERS_MAX], base = 0;
    cr_assert_eq(verifier_score(vf, score, &base), 0);
    cr_assert_eq(base, 8);
    cr_assert_eq(score[0], 3);
    cr_assert_eq(score[1], 5);
}

/* A take's cards are shuffled into a part of the stack of their own: a
 * card flipped from there is one of them, and a card flipped from above it
 * is one dealt (announced mode). */
Test(classic, classic_openlog_6_a_card_shuffled_in_is_one_taken)
{
    cr_assert_eq(start(2, 2, 2, "announced", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[null,null]"));
    ok(DEAL("p2", "[null,null]"));
    ok(FLIP("p1", 10, "a-1"));
    ok(FLIP("p2", 20, "a-2"));
    ok(SNAP("p1", 30));
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[null,null]"));   /* a-1 and a-2 under p1's last dealt card */
    illegal_says(FLIP("p1", 40, "a-1"), "openlog:6",
                 "p1 (ann) flipped a-1, which could not be there: every a-1 dealt or shuffled into that part of the "
                 "stack has been seen.");
    ok(FLIP("p1", 40, "b-1"));         /* the card dealt */
    ok(FLIP("p2", 50, "b-2"));
    illegal(FLIP("p1", 60, "b-2"), "openlog:6");   /* not among the cards taken */
    ok(FLIP("p1", 60, "a-2"));
}

/* A wrong call after the right one, in the same window: the take, then
 * the penalty, in the calls' order. */
Test(classic, classic_A4_a_wrong_call_after_a_right_one)
{
    duo_match();
    ok(SNAP("p1", 2300));              /* right */
    ok(FLIP("p1", 3000, "b-1"));       /* b-1 on a-1: no match any more */
    ok(SNAP("p2", 3100));              /* wrong */
    illegal_says(PENALTY("p2"), "classic:A4",
                 "The table announces a penalty, but next p1 (ann) takes p1's and p2's piles.");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"b-1\",\"a-2\"]"));
    ok(PENALTY("p2"));
}

/* A13: every pile whose top shares the match's value is taken. */
Test(classic, classic_piles_match_three_piles)
{
    cr_assert_eq(start(3, 3, 3, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\"]"));
    ok(DEAL("p3", "[\"a-3\",\"b-3\",\"c-3\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "a-2"));
    ok(FLIP("p3", 300, "a-3"));
    ok(SNAP("p2", 400));
    illegal_says(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:piles.match",
                 "The table gives p2 (ben) p1's and p2's piles; the Snap at 400 ms takes p1's, p2's and p3's piles.");
    ok(TAKE("p2", "[\"p1\",\"p2\",\"p3\"]", "[\"a-3\",\"a-1\",\"a-2\"]"));
}

/* A penalty is paid to the players still in: an eliminated one gets
 * nothing (A7, A14). */
Test(classic, classic_penalty_pay_skips_a_player_out)
{
    cr_assert_eq(start(3, 3, 2, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\"]"));
    ok(DEAL("p2", "[\"c-1\",\"c-2\"]"));
    ok(DEAL("p3", "[\"a-2\",\"b-2\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "c-1"));
    ok(SNAP("p2", 250));
    ok(PENALTY("p2"));                 /* c-2 to p3; nothing left for p1: out */
    ok(SNAP("p3", 260));               /* wrong: p1's a-1, p2's c-1 */
    ok(PENALTY("p3"));                 /* p3's top, a-2, to p1 only */
    cr_assert(board_has("{\"seat\":\"p1\",\"out\":false,\"stack\":2,\"stack_cards\":[\"b-1\",\"a-2\"]"));
    cr_assert(board_has("{\"seat\":\"p2\",\"out\":true,\"stack\":0"));
    cr_assert(board_has("{\"seat\":\"p3\",\"out\":false,\"stack\":2,\"stack_cards\":[\"b-2\",\"c-2\"]"));
}

/* A6 at one millisecond: p1 and p2 flip a's at the same `at`; p2's,
 * announced last, was flipped last and goes with the pot. */
Test(classic, classic_pot_snap_pot_flipped_at_the_same_ms)
{
    cr_assert_eq(start(2, 2, 4, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"a-3\",\"b-1\",\"b-2\"]"));
    ok(DEAL("p2", "[\"a-2\",\"a-4\",\"b-3\",\"b-4\"]"));
    the_as_tie();
    ok(FLIP("p1", 300, "a-3"));
    ok(FLIP("p2", 300, "a-4"));
    ok(SNAP_POT("p1", 350));
    illegal_says(TAKE("p1", "[\"p1\"]", "[\"a-3\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot",
                 "The table gives p1 (ann) p1's pile and the snap pot; the Snap Pot at 350 ms takes p2's pile and the "
                 "snap pot.");
    ok(TAKE("p1", "[\"p2\"]", "[\"a-4\",\"a-1\",\"a-2\"]") ",\"pot\":true");
}

/* A6 after a resolution: the engine keeps the order of the flips since the
 * last one only; of piles whose a's were there before it, the first from
 * p1 clockwise goes with the pot. */
Test(classic, classic_pot_snap_pot_piles_from_before_the_resolution)
{
    cr_assert_eq(start(3, 2, 6, "open", "\"dealer\":3").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"a-3\",\"b-1\",\"b-4\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"b-5\",\"b-6\"]"));
    ok(DEAL("p3", "[\"b-3\",\"a-4\",\"a-5\",\"a-6\"]"));
    the_as_tie();
    ok(FLIP("p3", 300, "b-3"));
    ok(FLIP("p1", 400, "a-3"));
    ok(SNAP("p2", 450));               /* p1's a matches only the pot: a penalty */
    ok(FLIP("p2", 500, "b-2"));
    ok(FLIP("p3", 600, "a-4"));
    ok(PENALTY("p2"));                 /* b-5 to p3, b-6 to p1; a new window */
    ok(SNAP_POT("p3", 700));
    illegal(TAKE("p3", "[\"p3\"]", "[\"b-3\",\"a-4\",\"a-1\",\"a-2\"]") ",\"pot\":true", "classic:pot.snap_pot");
    ok(TAKE("p3", "[\"p1\"]", "[\"a-3\",\"a-1\",\"a-2\"]") ",\"pot\":true");
}

/* Three right calls: p2's first, then p1's, then p3's; the table is told
 * which of them came second. */
Test(classic, classic_snap_first_caller_the_second_caller_is_told)
{
    cr_assert_eq(start(3, 4, 3, "open", "\"dealer\":3,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"b-2\",\"c-2\",\"d-2\"]"));
    ok(DEAL("p3", "[\"a-3\",\"b-3\",\"c-3\",\"d-3\"]"));
    ok(FLIP("p1", 1000, "a-1"));
    ok(FLIP("p2", 2000, "a-2"));
    ok(SNAP("p2", 2100));
    ok(SNAP("p1", 2250));
    ok(SNAP("p3", 2400));
    illegal_says("\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-1\",\"a-2\"]",
                 "classic:snap.first_caller", "p1 (ann) called Snap 150 ms after p2 (ben); p2 takes the common pile.");
    illegal_says("\"type\":\"take\",\"by\":\"table\",\"player\":\"p3\",\"cards\":[\"a-1\",\"a-2\"]",
                 "classic:snap.first_caller",
                 "The table gives the cards to p3 (mia), but p2 (ben) called Snap first; p2 takes the common pile.");
    ok("\"type\":\"take\",\"by\":\"table\",\"player\":\"p2\",\"cards\":[\"a-1\",\"a-2\"]");
}

/* A12 for every card: the database's first card (a-1, the engine's type 0)
 * on the later seat's pile matches too. */
Test(classic, classic_match_value_whichever_pile_holds_it)
{
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-2\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-1\",\"c-2\",\"b-2\",\"d-2\"]"));
    ok(FLIP("p1", 1000, "a-2"));
    ok(FLIP("p2", 2000, "a-1"));
    ok(SNAP("p1", 2100));
    illegal(PENALTY("p1"), "classic:piles.match");
    ok(TAKE("p1", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"));
    /* and on top of the common pile */
    cr_assert_eq(start(2, 4, 2, "open", "\"dealer\":2,\"common_pile\":true").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-2\",\"b-1\",\"c-1\",\"d-1\"]"));
    ok(DEAL("p2", "[\"a-1\",\"c-2\",\"b-2\",\"d-2\"]"));
    ok(FLIP("p1", 1000, "a-2"));
    ok(FLIP("p2", 2000, "a-1"));
    ok(SNAP("p1", 2100));
    illegal(PENALTY("p1"), "classic:snap.first_caller");
    ok("\"type\":\"take\",\"by\":\"table\",\"player\":\"p1\",\"cards\":[\"a-1\",\"a-2\"]");
}

/* The canonical encoding (records keep its hash): the board at full sight,
 * then what the board does not show -- each face-down card's batch and
 * commitment, the zones by slot, the pool, the clock, the window's calls and
 * flips, its starting piles and the consequences due.  Written out whole:
 * a change to it is a new engine version (classic.h). */
Test(classic, classic_state_encoding_is_the_board_and_what_it_hides)
{
    jtext t = {0};
    /* commit mode, dealt: a commitment and batch 0 for each face-down card,
     * and a-1 and a-2, not yet seen, in the pool */
    cr_assert_eq(start(2, 1, 2, "commit", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[{\"c\":\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}]"));
    ok(DEAL("p2", "[{\"c\":\"ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100\"}]"));
    cr_assert_eq(verifier_encode(vf, &t), 0);
    cr_assert_str_eq(t.buf,
        "{\"format\":\"classic\",\"variant\":\"own_piles\",\"next\":\"p1\",\"players\":[{\"seat\":\"p1\",\"out\":false,"
        "\"stack\":1,\"stack_cards\":[\"committed\"],\"pile\":{\"count\":0,\"top\":null}},{\"seat\":\"p2\",\"out\":false,"
        "\"stack\":1,\"stack_cards\":[\"committed\"],\"pile\":{\"count\":0,\"top\":null}}],\"pot\":{\"count\":0,"
        "\"top\":null},\"calls_waiting\":0,\"consequences_due\":0,\"over\":false,\"winner\":null,\"draw\":false}\n"
        "{\"hidden\":[[0,\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"],"
        "[0,\"ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100\"]],"
        "\"zones\":[[0],[1],[],[],[],[],[],[],[],[],[],[]],\"pool\":[0,0,1,0],\"clock\":[0,0,0,0,-1,0,1],"
        "\"calls\":[],\"flips\":[],\"start\":[-1,-1,-1,-1,-1,-1,-1,-1,-1,-1],\"due\":[]}");
    /* open mode, three calls waiting on two flips */
    duo_match();
    ok(SNAP("p2", 1500));
    ok(SNAP_POT("p1", 2100));
    ok(SNAP("p1", 2150));
    cr_assert_eq(verifier_encode(vf, &t), 0);
    cr_assert(strstr(t.buf, "\"calls_waiting\":3,\"consequences_due\":0,"), "%s", t.buf);
    cr_assert(strstr(t.buf, "\n{\"hidden\":[[0,0,0],[0,0,0]],\"zones\":[[3,2,1],[7,6,5],[0],[4],[],[],[],[],[],[],[],[]],"
                            "\"pool\":[],\"clock\":[2000,1,0,0,1,2,1],\"calls\":[[1500,1,0],[2100,0,1],[2150,0,0]],"
                            "\"flips\":[[1000,0,0],[2000,1,1]],\"start\":[-1,-1,-1,-1,-1,-1,-1,-1,-1,-1],\"due\":[]}"),
              "%s", t.buf);
    /* the first penalty announced: p1's mix-up and p1's take are due */
    ok(PENALTY("p2"));                 /* c-2 (slot 5) to p1 */
    cr_assert_eq(verifier_encode(vf, &t), 0);
    cr_assert(strstr(t.buf, "\"calls_waiting\":0,\"consequences_due\":2,"), "%s", t.buf);
    cr_assert(strstr(t.buf, "\n{\"hidden\":[[0,0,0,0],[0,0]],\"zones\":[[5,3,2,1],[7,6],[0],[4],[],[],[],[],[],[],[],[]],"
                            "\"pool\":[],\"clock\":[2000,1,2150,1,1,2,1],\"calls\":[],"
                            "\"flips\":[[1000,0,0],[2000,1,1]],\"start\":[-1,-1,-1,-1,-1,-1,-1,-1,-1,-1],"
                            "\"due\":[[2,0,0,1,1,0,0,2100],[0,0,0,0,0,3,1,2150]]}"),
              "%s", t.buf);
    jtext_free(&t);
}

/* The board in words at the end: the winner, and no one else, wins. */
Test(classic, classic_end_winner_the_board_says_who_won)
{
    three_on_a_common_pile();
    ok(SNAP("p1", 55));                /* wrong: d-1 on b-1 */
    ok(SNAP("p3", 56));                /* wrong too */
    jtext t = {0};
    openlog_sight none;
    memset(&none, 0, sizeof none);
    cr_assert_eq(verifier_board_words(vf, &none, &t), 0);
    cr_assert(strstr(t.buf, "Common pile: 5, top d-1.\nSnap pot: 0, top empty.\n2 calls wait for the table.\n"), "%s",
              t.buf);
    ok(PENALTY("p1"));                 /* p1 has no card: out */
    ok(PENALTY("p3"));                 /* f-1 to p2 */
    cr_assert_eq(verifier_board_words(vf, &none, &t), 0);
    cr_assert_str_eq(t.buf, "Classic Snap, one common discard pile; the game is over.\n"
                            "p1 (ann): out, 0 face-down cards.\n"
                            "p2 (ben): 1 face-down card; wins.\n"
                            "p3 (mia): out, 0 face-down cards.\n"
                            "Common pile: 5, top d-1.\n"
                            "Snap pot: 0, top empty.\n");
    jtext_free(&t);
}

/* The invariants of a table of eight, the most: every seat's stack counted
 * once, the others' not at all. */
Test(classic, classic_invariants_hold_for_eight_players)
{
    static const char *const game[] = {
        DEAL("p1", "[\"a-1\"]"), DEAL("p2", "[\"b-1\"]"), DEAL("p3", "[\"c-1\"]"), DEAL("p4", "[\"d-1\"]"),
        DEAL("p5", "[\"e-1\"]"), DEAL("p6", "[\"f-1\"]"), DEAL("p7", "[\"g-1\"]"), DEAL("p8", "[\"h-1\"]"),
        FLIP("p1", 10, "a-1"), FLIP("p2", 20, "b-1"),
    };
    static classic_state st;
    db = make_db(8, 1);
    cr_assert_eq(start_direct_n(&st, 8, "open", "\"dealer\":8").status, OL_V_OK);
    play_direct(&st, game, sizeof game / sizeof game[0]);
    static classic_state broken;
    broken = st;
    broken.stack[7].n = 0;             /* p8's card lost */
    cr_assert_eq(classic_check_invariants(&broken), 1);
}

/* The snap pot is set aside with the matching cards on top: its value is
 * its top card's, whatever lies under it (b's on top of an a and a c). */
Test(classic, classic_pot_tie_the_matching_cards_on_top)
{
    cr_assert_eq(start(2, 3, 3, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"b-3\",\"c-1\",\"c-3\"]"));
    ok(DEAL("p2", "[\"c-2\",\"b-2\",\"a-2\",\"a-3\"]"));
    ok(FLIP("p1", 100, "a-1"));
    ok(FLIP("p2", 200, "c-2"));
    ok(FLIP("p1", 300, "b-1"));
    ok(FLIP("p2", 400, "b-2"));
    ok(SNAP("p1", 450));
    ok(SNAP("p2", 460));
    ok(POT("[\"p1\",\"p2\"]"));
    cr_assert(board_has("\"pot\":{\"count\":4,\"top\":\"b-2\"}"));
    ok(FLIP("p1", 500, "b-3"));        /* a b: it matches the pot */
    ok(SNAP_POT("p2", 550));
    illegal(PENALTY("p2"), "classic:pot.snap_pot");
    ok(TAKE("p2", "[\"p1\"]", "[\"b-3\",\"a-1\",\"b-1\",\"c-2\",\"b-2\"]") ",\"pot\":true");
}

/* A turn-over shuffles the discard pile alone: the snap pot stays aside. */
Test(classic, classic_piles_turn_over_leaves_the_pot_aside)
{
    cr_assert_eq(start(2, 3, 2, "open", "\"dealer\":2").status, OL_V_OK);
    ok(DEAL("p1", "[\"a-1\",\"b-1\",\"c-1\"]"));
    ok(DEAL("p2", "[\"a-2\",\"c-2\",\"b-2\"]"));
    the_as_tie();
    ok(FLIP("p1", 300, "b-1"));
    ok(FLIP("p2", 400, "c-2"));
    ok(FLIP("p1", 500, "c-1"));        /* p1 has no face-down card left */
    ok(FLIP("p2", 600, "b-2"));
    illegal_says(TURN_OVER("p1", "[\"c-1\",\"b-1\",\"a-1\",\"a-2\"]"), "classic:piles.turn_over",
                 "The turned-over pile of p1 lists 4 cards; 2 are shuffled in.");
    ok(TURN_OVER("p1", "[\"c-1\",\"b-1\"]"));
    cr_assert(board_has("\"pot\":{\"count\":2,\"top\":\"a-2\"}"));
    ok(FLIP("p1", 700, "c-1"));
}

/* A resolution announced wrong changes nothing -- not even the window the
 * engine resolved to judge it: a call made after it, within the tie
 * window, still ties. */
Test(classic, classic_A4_a_wrong_announcement_resolves_nothing)
{
    uint8_t before[VERIFIER_HASH_BYTES], after[VERIFIER_HASH_BYTES];
    duo_match();
    ok(SNAP("p1", 2300));
    cr_assert_eq(verifier_state_hash(vf, before), VERIFIER_OK);
    illegal(TAKE("p2", "[\"p1\",\"p2\"]", "[\"a-1\",\"a-2\"]"), "classic:piles.match");
    illegal(PENALTY("p1"), "classic:piles.match");
    cr_assert_eq(verifier_state_hash(vf, after), VERIFIER_OK);
    cr_assert_eq(memcmp(before, after, sizeof before), 0, "an illegal announcement changed the state");
    cr_assert(board_has("\"calls_waiting\":1,\"consequences_due\":0"));
    ok(SNAP("p2", 2350));              /* 50 ms after p1's: a tie */
    ok(POT("[\"p1\",\"p2\"]"));
}
