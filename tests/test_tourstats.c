/* test_tourstats.c -- TOURNAMENT.md T46 (statistics count what was shown),
 * held to src/tournament/tourstats.h and to the facts src/tournament/tourrec.c gathers.
 *
 * The tests named tournament_T46_* are the ones T46's **Test.** line lists.
 * Those about cards judge a real fixture log through tourrec, so that what
 * the PUBLIC view of each event shows (src/core/view.h) is what is counted;
 * the others give the pure module hand-made records.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/core/carddb.h"
#include "src/tournament/tourresult.h"
#include "src/tournament/tourrec.h"
#include "src/tournament/tourstats.h"
#include "tests/testutil.h"
#include "tests/tourtest.h"

static tournament *load(const char *json)
{
    return tourtest_load(json);
}

/* A finished Snap game: the winner (1 or 2; 0 none) scores 5, the loser 0. */
static tour_game game(const char *match, uint32_t round, const char *table, const char *p1, const char *p2,
                      int winner)
{
    return tourtest_game(match, round, table, p1, p2, winner, winner == 1 ? 5 : 0, winner == 2 ? 5 : 0);
}

static tourstats *stats_of(const tournament *t, const tour_game *g, tourstats_record *recs, size_t n,
                           tour_results **r)
{
    tourstats *s = NULL;
    for (size_t i = 0; i < n; i++)
        recs[i].g = &g[i];
    cr_assert_eq(tournament_results(t, g, n, r), 0);
    cr_assert_eq(tourstats_new(t, *r, recs, n, NULL, &s), 0);
    return s;
}

static const tourstats_count *card_in(const tourstats_scope *sc, const char *id)
{
    for (size_t i = 0; i < sc->n_cards; i++)
        if (!strcmp(sc->cards[i].name, id))
            return &sc->cards[i];
    return NULL;
}

/* ---- cards, through tourrec and the public view ------------------------------ */

#define FIXTURE_CUP                                                                                          \
    "{\"version\":1,\"id\":\"fixture-cup\",\"name\":\"F\",\"format\":\"snap\",\"seed\":\"s\","                 \
    "\"structure\":{\"swiss_rounds\":1,\"cut\":0},%s"                                                          \
    "\"players\":[{\"id\":\"alice\",\"name\":\"A\"%s},{\"id\":\"bob\",\"name\":\"B\"}],"                      \
    "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"alice\",\"p2\":\"bob\"}]}]}"

static const char LOG[] = "fixtures/snap/legal-open-concede.jsonl";

/* The fixture's open Snap game judged through tourrec with statistics. */
static void judge_fixture(const char *file, tournament **t, tourrec_set *rs, tour_results **r, cards **db)
{
    char why[256] = "";
    *t = load(file);
    cr_assert_eq(tourrec_set_init(rs, *t), 0);
    rs->stats = 1;
    cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), db, NULL, 0), 0);
    cr_assert_eq(tourrec_judge_file(rs, *db, SRC(LOG), why, sizeof why), 0, "%s", why);
    cr_assert_eq(tourrec_results(rs, r), 0);
}

/* Card ids the log names in hidden places (select, lock, the setup Bench's
 * four face-down slots, the fifth monster) and in revealing fields
 * (flip, unlock, spell, counter, promote, evolve, prime). */
static void log_cards(json_t *hidden, json_t *shown)
{
    FILE *f = fopen(SRC(LOG), "r");
    char line[1 << 16];
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f)) {
        json_t *ev = json_loads(line, 0, NULL), *v;
        const char *type = json_string_value(json_object_get(ev, "type"));
        size_t i;
        cr_assert_not_null(type);
        if (!strcmp(type, "select") || !strcmp(type, "lock") || !strcmp(type, "bench")) {
            json_array_foreach(json_object_get(ev, !strcmp(type, "bench") ? "slots" : "cards"), i, v)
                if (json_is_string(v))
                    json_object_set_new(hidden, json_string_value(v), json_true());
            if (json_is_string(json_object_get(ev, "card")))
                json_object_set_new(hidden, json_string_value(json_object_get(ev, "card")), json_true());
        } else if (strcmp(type, "match") && json_is_string(json_object_get(ev, "card"))) {
            json_object_set_new(shown, json_string_value(json_object_get(ev, "card")), json_true());
        }
        json_decref(ev);
    }
    fclose(f);
}

Test(tourstats, tournament_T46_hidden_cards_never_count)
{
    char file[2048];
    tournament *t;
    tourrec_set rs;
    tour_results *r;
    cards *db = NULL;
    tourstats *pub = NULL, *judge = NULL;
    json_t *hidden = json_object(), *shown = json_object(), *v;
    const char *id;
    size_t only_hidden = 0;

    snprintf(file, sizeof file, FIXTURE_CUP, "", "");
    judge_fixture(file, &t, &rs, &r, &db);
    cr_assert_eq(tourrec_stats(&rs, r, db, 0, 0, &pub), 0);
    cr_assert_eq(tourrec_stats(&rs, r, db, 1, 0, &judge), 0);
    log_cards(hidden, shown);
    const tourstats_scope *sc = &pub->scopes[0];
    cr_assert_str_eq(sc->format, "snap");
    cr_assert_eq(sc->round, 0);
    cr_assert_eq(sc->records, 1);
    json_object_foreach(shown, id, v)
        cr_expect_not_null(card_in(sc, id), "%s was revealed, but not counted", id);
    json_object_foreach(hidden, id, v) {
        if (json_object_get(shown, id))
            continue;
        only_hidden++;
        cr_expect_null(card_in(sc, id), "%s stayed hidden, but is counted", id);
    }
    cr_assert_gt(only_hidden, 0, "the fixture has no card that stayed hidden");
    /* the same figures from the judge view */
    cr_assert_eq(judge->scopes[0].n_cards, sc->n_cards);
    for (size_t i = 0; i < sc->n_cards; i++) {
        cr_expect_str_eq(judge->scopes[0].cards[i].name, sc->cards[i].name);
        cr_expect_eq(judge->scopes[0].cards[i].appearances, sc->cards[i].appearances);
    }
    json_decref(hidden);
    json_decref(shown);
    tourstats_destroy(&pub);
    tourstats_destroy(&judge);
    tour_results_destroy(&r);
    tourrec_set_free(&rs);
    cards_destroy(&db);
    tournament_destroy(&t);
}

/* alice's decklist in the fixture: monsters cor x3, flx x2; supports cor
 * x12, flx x8; reserve cor x1 -- coreon 16, fluxion 10, 26 cards. */
static void expect_alice_played(const tourstats *s)
{
    const tourstats_deck *d = NULL;
    for (size_t i = 0; i < s->n_decks; i++)
        if (s->decks[i].played && !strcmp(s->decks[i].player, "alice"))
            d = &s->decks[i];
    cr_assert_not_null(d);
    cr_expect_eq(d->cards, 26);
    cr_expect_eq(d->classes[0], 16);
    cr_expect_eq(d->classes[1], 10);
    cr_expect_str_eq(d->match, "fx-legal-open-concede");
}

Test(tourstats, tournament_T46_decklists_only_in_judge_exports)
{
    char file[2048];
    tournament *t;
    tourrec_set rs;
    tour_results *r;
    cards *db = NULL;
    tourstats *s = NULL;
    jtext o = {0};

    snprintf(file, sizeof file, FIXTURE_CUP, "", ",\"deck\":{\"monsters\":[\"cor-ember-whelp\",\"flx-tide-sprite\"]}");
    judge_fixture(file, &t, &rs, &r, &db);
    /* public: no decklist, in JSON nor CSV */
    cr_assert_eq(tourrec_stats(&rs, r, db, 0, 0, &s), 0);
    cr_expect_eq(s->decklists_shown, 0);
    cr_expect_eq(s->n_decks, 0);
    cr_assert_eq(tourstats_json(s, &o), 0);
    cr_expect_not_null(strstr(o.buf, "\"decklists_shown\":false"));
    cr_expect_not_null(strstr(o.buf, "\"decklists\":null}"), "%s", o.buf);
    jtext_reset(&o);
    cr_assert_eq(tourstats_csv(s, "decklists", &o), 0);
    cr_expect_str_eq(o.buf, "player,source,round,match,cards,coreon,fluxion,synaphera,obscura,aetherion,unknown\r\n");
    tourstats_destroy(&s);
    /* judge: the registered one and both played ones */
    cr_assert_eq(tourrec_stats(&rs, r, db, 1, 0, &s), 0);
    cr_expect_eq(s->decklists_shown, 1);
    cr_assert_eq(s->n_decks, 3);
    cr_expect_str_eq(s->decks[0].player, "alice");
    cr_expect_eq(s->decks[0].played, 0);
    cr_expect_eq(s->decks[0].cards, 2);
    cr_expect_eq(s->decks[0].classes[0], 1);
    cr_expect_eq(s->decks[0].classes[1], 1);
    expect_alice_played(s);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tourrec_set_free(&rs);
    cards_destroy(&db);
    tournament_destroy(&t);
    /* public, but the file publishes decklists */
    snprintf(file, sizeof file, FIXTURE_CUP, "\"decklists_public\":true,", "");
    judge_fixture(file, &t, &rs, &r, &db);
    cr_assert_eq(tourrec_stats(&rs, r, db, 0, 0, &s), 0);
    cr_expect_eq(s->decklists_shown, 1);
    cr_expect_eq(s->n_decks, 2);
    expect_alice_played(s);
    jtext_free(&o);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tourrec_set_free(&rs);
    cards_destroy(&db);
    tournament_destroy(&t);
}

/* ---- the pure module, on hand-made records ------------------------------------- */

#define CUP "{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"snap\",\"seed\":\"s0\"," \
            "\"structure\":{\"swiss_rounds\":3,\"cut\":0},\"round_minutes\":25,"                  \
            "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},"          \
            "{\"id\":\"c\",\"name\":\"C\"},{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"e\",\"name\":\"E\"}," \
            "{\"id\":\"f\",\"name\":\"F\"},{\"id\":\"g\",\"name\":\"G\"},{\"id\":\"h\",\"name\":\"H\"}," \
            "{\"id\":\"i\",\"name\":\"I\"},{\"id\":\"j\",\"name\":\"J\"},{\"id\":\"k\",\"name\":\"K\"},"  \
            "{\"id\":\"l\",\"name\":\"L\"},{\"id\":\"m\",\"name\":\"M\"}],"

Test(tourstats, tournament_T46_rules_broken_counted_by_rule)
{
    tournament *t = load(CUP "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
                             "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"}]}]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1), game("m2", 1, "2", "c", "d", 2), game("m3", 1, "3", "e", "f", 1)};
    static const tourstats_rule r1[] = {{TOURSTATS_ILLEGAL, "snap:10.3", 2}, {TOURSTATS_WARNING, "snap:16.3", 1}},
                                r2[] = {{TOURSTATS_ILLEGAL, "snap:10.3", 1}, {TOURSTATS_MISMATCH, "openlog:9", 1}},
                                r3[] = {{TOURSTATS_ILLEGAL, "snap:9.6", 1}, {TOURSTATS_WARNING, "snap:16.3", 1}};
    tourstats_record recs[3] = {{.rules = r1, .n_rules = 2}, {.rules = r2, .n_rules = 2}, {.rules = r3, .n_rules = 2}};
    tour_results *r = NULL;
    jtext o = {0};
    g[0].status = g[1].status = g[2].status = TOUR_REC_ILLEGAL;
    tourstats *s = stats_of(t, g, recs, 3, &r);
    const tourstats_scope *sc = &s->scopes[0];

    cr_assert_eq(sc->n_rules, 4);
    cr_expect_eq(sc->rules[0].verdict, TOURSTATS_ILLEGAL);
    cr_expect_str_eq(sc->rules[0].rule, "snap:10.3");
    cr_expect_eq(sc->rules[0].count, 3);
    cr_assert_eq(sc->rules[0].n_matches, 2);
    cr_expect_str_eq(sc->rules[0].matches[0], "m1");
    cr_expect_str_eq(sc->rules[0].matches[1], "m2");
    /* two of 1: the illegal one first; mismatch and warning counted apart */
    cr_expect_str_eq(sc->rules[1].rule, "snap:16.3");
    cr_expect_eq(sc->rules[1].verdict, TOURSTATS_WARNING);
    cr_expect_eq(sc->rules[1].count, 2);
    cr_assert_eq(tourstats_csv(s, "rules", &o), 0);
    cr_expect_str_eq(o.buf, "format,round,verdict,rule,count,matches\r\n"
                            "snap,all,illegal,snap:10.3,3,m1 m2\r\n"
                            "snap,all,warning,snap:16.3,2,m1 m3\r\n"
                            "snap,all,illegal,snap:9.6,1,m3\r\n"
                            "snap,all,mismatch,openlog:9,1,m2\r\n"
                            "snap,1,illegal,snap:10.3,3,m1 m2\r\n"
                            "snap,1,warning,snap:16.3,2,m1 m3\r\n"
                            "snap,1,illegal,snap:9.6,1,m3\r\n"
                            "snap,1,mismatch,openlog:9,1,m2\r\n");
    cr_expect_eq(tourstats_csv(s, "nope", &o), TOUR_EINVAL);
    jtext_free(&o);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tourstats, tournament_T46_win_rate_a_draw_is_no_win)
{
    /* m1: a beats b, both show X; m2: c and d drawn by the head judge, c
     * shows X and Y; m3: e and f unfinished (no result), e shows X. */
    tournament *t = load(CUP "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
                             "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"}]}],"
                             "\"judge_results\":[{\"round\":1,\"table\":\"2\",\"result\":\"draw\",\"judge\":\"hj\","
                             "\"text\":\"drawn\"}]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1), game("m2", 1, "2", "c", "d", 0), game("m3", 1, "3", "e", "f", 0)};
    static const tourstats_card x1[] = {{"cor-x", 0, 2}}, xy[] = {{"cor-x", 0, 1}, {"flx-y", 1, 1}};
    tourstats_record recs[3] = {{.shown = {x1, x1}, .n_shown = {1, 1}}, {.shown = {xy, NULL}, .n_shown = {2, 0}},
                                {.shown = {x1, NULL}, .n_shown = {1, 0}}};
    tour_results *r = NULL;
    tourstats *s = stats_of(t, g, recs, 3, &r);
    const tourstats_count *x = card_in(&s->scopes[0], "cor-x"), *y = card_in(&s->scopes[0], "flx-y");
    jtext o = {0};

    cr_assert_not_null(x);
    cr_expect_eq(x->games, 4);
    cr_expect_eq(x->appearances, 7);   /* 2 + 2 + 1 + 2 */
    cr_expect_eq(x->wins, 1);
    cr_expect_eq(x->results, 3);   /* a's win, b's loss, c's draw; e has none */
    cr_assert_not_null(y);
    cr_expect_eq(y->wins, 0);
    cr_expect_eq(y->results, 1);
    cr_expect_eq(s->scopes[0].classes[0].games, 4);
    cr_expect_eq(s->scopes[0].classes[1].games, 1);
    cr_assert_eq(tourstats_csv(s, "cards", &o), 0);
    cr_expect_not_null(strstr(o.buf, "\r\nsnap,all,cor-x,coreon,4,7,1,3,0.333\r\n"), "%s", o.buf);
    cr_expect_not_null(strstr(o.buf, "\r\nsnap,all,flx-y,fluxion,1,1,0,1,0.000\r\n"), "%s", o.buf);
    jtext_free(&o);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

static const tour_mark marks4[4] = {{1000, {0, 0}}, {2000, {1, 0}}, {3000, {2, 1}}, {4000, {2, 1}}};

Test(tourstats, tournament_T46_game_length_ended_at_time_counted_apart)
{
    tournament *t = load(CUP "\"rounds\":[{\"round\":1,\"time_called\":5000,\"pairings\":["
                             "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},"
                             "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"}]}]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1), game("m2", 1, "2", "c", "d", 0), game("m3", 1, "3", "e", "f", 2)};
    tourstats_record recs[3] = {{.events = 30}, {.events = 41}, {.events = 50}};
    tour_results *r = NULL;
    jtext o = {0};
    g[0].rounds = 3;
    g[2].rounds = 6;
    g[1].rounds = 4;      /* ended at time: ends its 4th game round, 2 to 1 */
    g[1].marks = marks4;
    g[1].nmarks = 4;
    g[1].score[0] = 2;
    g[1].score[1] = 1;
    tourstats *s = stats_of(t, g, recs, 3, &r);
    const tourstats_scope *sc = &s->scopes[0];

    cr_expect_eq(r->results[1].by, TOUR_BY_TIME);
    cr_expect_eq(sc->finished.games, 2);
    cr_expect_eq(sc->finished.events_min, 30);
    cr_expect_eq(sc->finished.events_max, 50);
    cr_expect_eq(sc->finished.rounds_total, 9);
    cr_expect_eq(sc->at_time.games, 1);
    cr_expect_eq(sc->at_time.events_total, 41);
    cr_expect_eq(sc->at_time.rounds_max, 4);
    cr_assert_eq(tourstats_csv(s, "length", &o), 0);
    cr_expect_str_eq(o.buf, "format,round,games_ended,games,events_min,events_max,events_mean,rounds_min,rounds_max,"
                            "rounds_mean\r\n"
                            "snap,all,finished,2,30,50,40.0,3,6,4.5\r\n"
                            "snap,all,at_time,1,41,41,41.0,4,4,4.0\r\n"
                            "snap,1,finished,2,30,50,40.0,3,6,4.5\r\n"
                            "snap,1,at_time,1,41,41,41.0,4,4,4.0\r\n");
    jtext_free(&o);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tourstats, tournament_T46_live_progress_of_a_round)
{
    /* round 1 open: t1 no record, t2 in progress (game round 2), t3
     * finished, t4 illegal (an alarm), t5 ended at time (its own call), t6
     * an intentional draw and m's bye: not games */
    tournament *t = load(CUP "\"rounds\":[{\"round\":1,\"pairings\":["
                             "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},"
                             "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"},{\"table\":\"4\",\"p1\":\"g\",\"p2\":\"h\"},"
                             "{\"table\":\"5\",\"p1\":\"i\",\"p2\":\"j\",\"time_called\":5000},"
                             "{\"table\":\"6\",\"p1\":\"k\",\"p2\":\"l\",\"intentional_draw\":true},{\"bye\":\"m\"}]}]}");
    tour_game g[4] = {game("m2", 1, "2", "c", "d", 0), game("m3", 1, "3", "e", "f", 1), game("m4", 1, "4", "g", "h", 1),
                      game("m5", 1, "5", "i", "j", 0)};
    tourstats_record recs[4] = {{0}};
    tour_results *r = NULL;
    jtext o = {0};
    g[0].rounds = 2;
    g[0].ends_round = 0;
    g[2].status = TOUR_REC_ILLEGAL;
    g[2].first_bad = "#4 snap:10.3: no such card";
    g[3].rounds = 4;
    g[3].marks = marks4;
    g[3].nmarks = 4;
    tourstats *s = stats_of(t, g, recs, 4, &r);

    cr_assert_eq(s->progress_round, 1);
    cr_assert_eq(s->n_progress, 5);
    cr_assert_eq(tourstats_csv(s, "progress", &o), 0);
    cr_expect_str_eq(o.buf, "round,table,p1,p2,state,game_round,match,alarms,round_minutes\r\n"
                            "1,1,a,b,no_record,,,,25\r\n"
                            "1,2,c,d,in_progress,2,m2,,25\r\n"
                            "1,3,e,f,finished,,m3,,25\r\n"
                            "1,4,g,h,alarm,,m4,illegal_record,25\r\n"
                            "1,5,i,j,at_time,,m5,,25\r\n");
    jtext_reset(&o);
    cr_assert_eq(tourstats_json(s, &o), 0);
    cr_expect_not_null(strstr(o.buf, "\"progress\":{\"round\":1,\"round_minutes\":25,\"pairings\":[{\"table\":\"1\","
                                     "\"p1\":\"a\",\"p2\":\"b\",\"state\":\"no_record\",\"game_round\":null,"
                                     "\"match\":null,\"alarms\":[]},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\","
                                     "\"state\":\"in_progress\",\"game_round\":2,\"match\":\"m2\",\"alarms\":[]}"),
                       "%s", o.buf);
    jtext_free(&o);
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- remedies (SPEC.md 8.1) ------------------------------------------------ */

/* A fixture of fixtures/remedy/ as a record of the fixture cup's table 1,
 * judged through tourrec with statistics; the scope's rule rows. */
static const tourstats_rule_row *remedy_row(const tourstats_scope *sc, tourstats_verdict v, const char *rule)
{
    for (size_t i = 0; i < sc->n_rules; i++)
        if (sc->rules[i].verdict == v && !strcmp(sc->rules[i].rule, rule))
            return &sc->rules[i];
    return NULL;
}

static void remedy_stats(const char *rel, tourstats_verdict want, const char *rule)
{
    char file[2048], why[256] = "", dir[] = "/tmp/test_tourstats.XXXXXX", path[64];
    FILE *in = fopen(SRC(rel), "r"), *out = NULL;
    char *line = NULL;
    size_t cap = 0;
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/game.jsonl", dir);
    tournament *t;
    tourrec_set rs;
    tour_results *r = NULL;
    cards *db = NULL;
    tourstats *s = NULL;

    cr_assert(in && (out = fopen(path, "w")));
    for (int first = 1; getline(&line, &cap, in) > 0; first = 0) {
        if (first) {   /* the cup's table 1 */
            json_t *h = json_loads(line, 0, NULL);
            cr_assert_not_null(h);
            json_object_set_new(h, "event", json_pack("{s:s, s:i, s:s}", "tournament", "fixture-cup", "round", 1,
                                                      "table", "1"));
            char *text = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fprintf(out, "%s\n", text);
            free(text);
            json_decref(h);
        } else {
            fputs(line, out);
        }
    }
    free(line);
    fclose(in);
    fclose(out);
    snprintf(file, sizeof file, FIXTURE_CUP, "", "");
    t = load(file);
    cr_assert_eq(tourrec_set_init(&rs, t), 0);
    rs.stats = 1;
    cr_assert_eq(carddb_load_file(SRC("fixtures/cards/core.json"), &db, NULL, 0), 0);
    cr_assert_eq(tourrec_judge_file(&rs, db, path, why, sizeof why), 0, "%s", why);
    unlink(path);
    rmdir(dir);
    cr_assert_eq(tourrec_results(&rs, &r), 0);
    cr_assert_eq(tourrec_stats(&rs, r, db, 0, 0, &s), 0);
    const tourstats_scope *sc = &s->scopes[0];
    const tourstats_rule_row *ill = remedy_row(sc, TOURSTATS_ILLEGAL, rule), *by = remedy_row(sc, want, rule);
    cr_expect(ill && ill->count == 1, "%s: the illegal action is counted once as illegal", rel);
    cr_expect(by && by->count == 1, "%s: and once as %s", rel, tourstats_verdict_name(want));
    cr_expect_null(remedy_row(sc, want == TOURSTATS_STOOD ? TOURSTATS_BACKED_UP : TOURSTATS_STOOD, rule));
    tourstats_destroy(&s);
    tour_results_destroy(&r);
    tourrec_set_free(&rs);
    tournament_destroy(&t);
    cards_destroy(&db);
}

/* T46 at a table that pauses for a judge's remedy: an illegal action is
 * counted by its remedy too, under its rule: "stood" or "backed_up". */
Test(tourstats, tournament_T46_illegal_actions_counted_by_remedy)
{
    remedy_stats("fixtures/remedy/snap-prime-stands.jsonl", TOURSTATS_STOOD, "snap:14.3");
    remedy_stats("fixtures/remedy/snap-prime-backup.jsonl", TOURSTATS_BACKED_UP, "snap:14.3");
}
