/* test_tourorg.c -- the organiser's edits (src/tournament/tourorg.h) as
 * functions: a tree in, the tree edited, each refusal a sentence; and every
 * tree an edit accepts is a file tournament_load() reads.
 *
 * tests/e2e_organise.sh runs the commands on files; here each edit's own
 * checks are held to their sentences without a file, and an event is run
 * from new to its second round as trees only.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tournament.h"
#include "src/tournament/tourorg.h"

static char err[512];

/* The tree as a file tournament_load() reads; asserts it does. */
static void loads(const json_t *root)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER), why[512] = "";
    tournament *t = NULL;

    cr_assert_not_null(text);
    cr_assert_eq(tournament_load(text, strlen(text), &t, why, sizeof why), 0, "refused: %s", why);
    tournament_destroy(&t);
    free(text);
}

/* Refused with `want`, and the tree as it was (these checks come first). */
static void refused(int rc, const json_t *before, const json_t *after, const char *want)
{
    cr_assert_eq(rc, TOURORG_EREFUSED, "rc %d", rc);
    cr_assert_str_eq(err, want);
    cr_assert(json_equal((json_t *)before, (json_t *)after), "the tree changed");
}

/* A Snap event of three Swiss rounds and four players. */
static json_t *event(void)
{
    tourorg_event e = {.id = "cup", .name = "Cup", .format = "snap", .cards = "core@1.1.0", .seed = "s1",
                       .has_swiss = 1, .swiss_rounds = 3, .cut = "0", .round_minutes = 40,
                       .timezone = "Europe/Paris"};
    json_t *root = NULL;

    cr_assert_eq(tourorg_new(&e, &root, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 4; i++) {
        char id[2] = {(char)('a' + i), 0};
        cr_assert_eq(tourorg_add(root, id, id, NULL, err, sizeof err), 0, "%s", err);
    }
    loads(root);
    return root;
}

static const char pairs1[] = "[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]";

static json_t *published(void)
{
    json_t *root = event(), *p = json_loads(pairs1, 0, NULL);

    cr_assert_eq(tourorg_publish(root, 1, p, NULL, 1767283200000ULL, err, sizeof err), 0, "%s", err);
    json_decref(p);
    loads(root);
    return root;
}

Test(tourorg, new_writes_the_event_and_refuses_a_structure_given_twice_or_not_at_all)
{
    tourorg_event e = {.id = "x", .name = "X", .format = "snap", .table = "basic", .has_swiss = 1, .cut = "4"};
    json_t *root = NULL, *rules = json_object();

    cr_assert_eq(tourorg_new(&e, &root, err, sizeof err), TOURORG_EREFUSED);
    cr_assert_str_eq(err, "Give --structure basic|advanced, or --swiss-rounds and --cut, not both.");
    cr_assert_null(root);
    e.table = NULL;
    e.has_swiss = 0;
    cr_assert_eq(tourorg_new(&e, &root, err, sizeof err), TOURORG_EREFUSED);
    cr_assert_str_eq(err, "A new tournament needs its structure: --structure basic|advanced, or --swiss-rounds S "
                          "and --cut N.");
    e.table = "basic";
    e.cut = NULL;
    cr_assert_eq(tourorg_lever(rules, "chain_cap=3", err, sizeof err), 0);
    cr_assert_eq(tourorg_lever(rules, "chain_cap=4", err, sizeof err), TOURORG_EREFUSED);
    cr_assert_str_eq(err, "The lever chain_cap is given twice.");
    cr_assert_eq(tourorg_lever(rules, "x=maybe", err, sizeof err), TOURORG_EREFUSED);
    cr_assert_eq(tourorg_lever(rules, "=1", err, sizeof err), TOURORG_EREFUSED);
    e.rules = rules;
    cr_assert_eq(tourorg_new(&e, &root, err, sizeof err), 0, "%s", err);
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(root, "rules"), "chain_cap")), 3);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "structure"), "table")), "basic");
    loads(root);   /* a table with no player yet: read, its row to come */
    json_decref(root);
    json_decref(rules);
}

Test(tourorg, add_refuses_a_taken_id_and_a_player_after_round_1)
{
    json_t *root = event(), *copy = json_deep_copy(root);

    refused(tourorg_add(copy, "a", "A again", NULL, err, sizeof err), root, copy,
            "A player of id \"a\" is already registered.");
    refused(tourorg_add(copy, "e", "", NULL, err, sizeof err), root, copy, "A new player needs a name (--name).");
    json_decref(copy);
    json_decref(root);
    root = published();
    copy = json_deep_copy(root);
    refused(tourorg_add(copy, "e", "E", NULL, err, sizeof err), root, copy,
            "Round 1 is published: a player who comes now enters late (arbiter tournament late-entry).");
    json_decref(copy);
    json_decref(root);
}

Test(tourorg, drop_and_late_entry)
{
    json_t *root = published(), *copy = json_deep_copy(root);

    refused(tourorg_drop(copy, "zed", "drop", -1, err, sizeof err), root, copy, "No player of id \"zed\" is registered.");
    refused(tourorg_drop(copy, "a", "bored", -1, err, sizeof err), root, copy,
            "The reason of a drop is drop, no_show or disqualified, not 'bored'.");
    refused(tourorg_drop(copy, "a", "drop", 2, err, sizeof err), root, copy,
            "Round 2 is not published yet: a player drops after a round that is (the current round is 1).");
    refused(tourorg_late_entry(copy, "b", NULL, NULL, 0, err, sizeof err), root, copy,
            "\"b\" is playing: only a new player or one who dropped can enter late.");
    refused(tourorg_late_entry(copy, "e", "E", NULL, 1, err, sizeof err), root, copy,
            "Round 1 is published: a late entry can join round 2 or later.");
    json_decref(copy);
    cr_assert_eq(tourorg_drop(root, "d", "no_show", -1, err, sizeof err), 0, "%s", err);   /* after round 1 */
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "drops"), 0), "after_round")),
                 1);
    copy = json_deep_copy(root);
    refused(tourorg_drop(copy, "d", "drop", -1, err, sizeof err), root, copy,
            "\"d\" has already left after round 1 (no_show).");
    json_decref(copy);
    cr_assert_eq(tourorg_late_entry(root, "d", NULL, NULL, 0, err, sizeof err), 0, "%s", err);   /* rejoins */
    cr_assert_eq(tourorg_late_entry(root, "e", "E", NULL, 0, err, sizeof err), 0, "%s", err);    /* new */
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "late_entries"), 1), "round")),
                 2);
    loads(root);
    json_decref(root);
}

/* A head judge's ruling of kind result, with winner, the judge J. */
static tourorg_ruling ruling(const char *result, const char *winner, const char *text)
{
    tourorg_ruling j = {.result = result, .winner = winner, .judge = "J", .text = text};
    return j;
}

#define WIN(w, t) (&(tourorg_ruling){.result = "win", .winner = (w), .judge = "J", .text = (t)})
#define DRAW(t) (&(tourorg_ruling){.result = "draw", .judge = "J", .text = (t)})

Test(tourorg, publish_result_time_call_close)
{
    json_t *root = published(), *copy = json_deep_copy(root), *p = json_loads(pairs1, 0, NULL);
    int replaced = -1;

    cr_assert_eq(tourorg_next_round(root), 2);
    refused(tourorg_publish(copy, 3, p, NULL, 0, err, sizeof err), root, copy,
            "Round 3 cannot be published: the next round is 2.");
    refused(tourorg_result(copy, 1, "9", DRAW("t"), NULL, err, sizeof err), root, copy,
            "Round 1 has no table \"9\".");
    refused(tourorg_result(copy, 1, "1", WIN("c", "t"), NULL, err, sizeof err), root, copy,
            "\"c\" does not play at table 1 of round 1: a and b do.");
    refused(tourorg_result(copy, 2, "1", WIN("a", "t"), NULL, err, sizeof err), root, copy, "Round 2 is not published.");
    refused(tourorg_time_call(copy, 1, NULL, 1767283200000ULL - 1, err, sizeof err), root, copy,
            "Time cannot be called before round 1 started.");
    refused(tourorg_time_call(copy, 2, NULL, 1767283200000ULL, err, sizeof err), root, copy,
            "Round 2 is not the current round: round 1 is.");
    refused(tourorg_close(copy, 2, err, sizeof err), root, copy, "Round 2 is not the current round: round 1 is.");
    json_decref(copy);
    cr_assert_eq(tourorg_result(root, 1, "1", WIN("a", "Paper."), &replaced, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replaced, 0);
    cr_assert_eq(tourorg_result(root, 1, "1", DRAW("A draw after all."), &replaced, err, sizeof err), 0);
    cr_assert_eq(replaced, 1);
    cr_assert_eq(json_array_size(json_object_get(root, "judge_results")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(root, "judge_results"), 0),
                                                       "result")), "draw");
    cr_assert_eq(tourorg_time_call(root, 1, "2", 1767285600000ULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tourorg_time_call(root, 1, NULL, 1767285000000ULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tourorg_close(root, 1, err, sizeof err), 0, "%s", err);
    loads(root);
    copy = json_deep_copy(root);
    refused(tourorg_close(copy, 1, err, sizeof err), root, copy, "Round 1 is closed.");
    refused(tourorg_time_call(copy, 1, NULL, 1767285000000ULL, err, sizeof err), root, copy, "Round 1 is closed.");
    json_decref(copy);
    cr_assert_eq(tourorg_publish(root, 2, p, "made-seed", 1767290000000ULL, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(json_string_value(json_object_get(tourorg_round(root, 2), "seed")), "made-seed");
    cr_assert_eq(json_integer_value(json_object_get(tourorg_round(root, 2), "started")), 1767290000000LL);
    loads(root);
    json_decref(p);
    json_decref(root);
}

/* The judge's other results (T19), the players' reports (T3), an
 * intentional draw (T15) and --scores. */
Test(tourorg, result_kinds_report_intentional_draw)
{
    json_t *root = published(), *copy = json_deep_copy(root), *sc = NULL, *jr, *rep;
    tourorg_ruling j;
    int replaced = -1;

    j = ruling("win", NULL, "t");
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy, "A win needs its winner.");
    j = ruling("engine", "a", "t");
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy,
            "A winner goes with a win, not with engine.");
    j = ruling("forfeit", NULL, "t");
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy,
            "A judge's result is win, draw, engine, at_time or double_loss, not 'forfeit'.");
    j = ruling("at_time", NULL, "t");
    j.draw_win = "a";
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy,
            "A draw win goes with a draw, not with at_time.");
    j = ruling("draw", NULL, "t");
    j.draw_win = "c";
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy,
            "\"c\" does not play at table 1 of round 1: a and b do.");
    cr_assert_eq(tourorg_scores("a=3,c=1", &sc, err, sizeof err), 0, "%s", err);
    j = ruling("engine", NULL, "t");
    j.scores = sc;
    refused(tourorg_result(copy, 1, "1", &j, NULL, err, sizeof err), root, copy,
            "A score for \"c\", who does not play at table 1 of round 1: a and b do.");
    refused(tourorg_report(copy, 1, "1", NULL, sc, NULL, err, sizeof err), root, copy,
            "A score for \"c\", who does not play at table 1 of round 1: a and b do.");
    json_decref(sc);
    refused(tourorg_report(copy, 1, "1", "c", NULL, NULL, err, sizeof err), root, copy,
            "\"c\" does not play at table 1 of round 1: a and b do.");
    refused(tourorg_report(copy, 2, "1", "a", NULL, NULL, err, sizeof err), root, copy,
            "Round 2 is not the current round: a report is taken while its round is on.");
    refused(tourorg_intentional_draw(copy, 1, "7", err, sizeof err), root, copy, "Round 1 has no table \"7\".");
    json_decref(copy);

    /* each kind, with scores and the record that counts */
    cr_assert_eq(tourorg_scores("a=2,b=1", &sc, err, sizeof err), 0, "%s", err);
    j = ruling("draw", NULL, "Both conceded at once.");
    j.draw_win = "b";
    j.scores = sc;
    j.match = "m-1";
    cr_assert_eq(tourorg_result(root, 1, "1", &j, &replaced, err, sizeof err), 0, "%s", err);
    jr = json_array_get(json_object_get(root, "judge_results"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(jr, "draw_win")), "b");
    cr_assert_str_eq(json_string_value(json_object_get(jr, "match")), "m-1");
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(jr, "scores"), "b")), 1);
    loads(root);
    for (const char *const *k = (const char *const[]){"engine", "at_time", "double_loss", NULL}; *k; k++) {
        j = ruling(*k, NULL, "Ruled.");
        cr_assert_eq(tourorg_result(root, 1, "1", &j, &replaced, err, sizeof err), 0, "%s: %s", *k, err);
        cr_assert_eq(replaced, 1);
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(root, "judge_results"), 0),
                                                           "result")), *k);
        loads(root);
    }
    cr_assert_eq(json_array_size(json_object_get(root, "judge_results")), 1);

    /* a report, replaced by a later one of the same table */
    cr_assert_eq(tourorg_report(root, 1, "1", "a", sc, &replaced, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replaced, 0);
    cr_assert_eq(tourorg_report(root, 1, "1", NULL, NULL, &replaced, err, sizeof err), 0, "%s", err);
    cr_assert_eq(replaced, 1);
    rep = json_object_get(tourorg_round(root, 1), "reports");
    cr_assert_eq(json_array_size(rep), 1);
    cr_assert(json_is_true(json_object_get(json_array_get(rep, 0), "draw")));
    json_decref(sc);
    loads(root);

    cr_assert_eq(tourorg_intentional_draw(root, 1, "2", err, sizeof err), 0, "%s", err);
    loads(root);
    cr_assert_eq(tourorg_close(root, 1, err, sizeof err), 0, "%s", err);
    copy = json_deep_copy(root);
    refused(tourorg_intentional_draw(copy, 1, "1", err, sizeof err), root, copy, "Round 1 is closed.");
    json_decref(copy);
    json_decref(root);
}

Test(tourorg, scores)
{
    json_t *o = NULL;

    cr_assert_eq(tourorg_scores("ann=3,bob=0", &o, err, sizeof err), 0, "%s", err);
    cr_assert_eq(json_integer_value(json_object_get(o, "bob")), 0);
    json_decref(o);
    for (const char *const *bad = (const char *const[]){"", "ann", "ann=", "=3", "ann=3,", "ann=3x", "ann=3;bob=1", "ann=-1", "ann=+1", "ann=99999999999999999999", NULL};
         *bad; bad++) {
        cr_assert_eq(tourorg_scores(*bad, &o, err, sizeof err), TOURORG_EREFUSED, "'%s' taken", *bad);
        cr_assert_null(o);
    }
    cr_assert_eq(tourorg_scores("ann=1,ann=2", &o, err, sizeof err), TOURORG_EREFUSED);
    cr_assert_str_eq(err, "--scores names \"ann\" twice.");
}
