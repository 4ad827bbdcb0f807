/* test_tournament.c -- the rulings of TOURNAMENT.md (T1-T47) held to the
 * code of src/tournament/tournament.c.  Each test is named after its ruling; files
 * are JSON strings written here, games are tour_games filled here. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "src/tournament/tourdraw.h"
#include "src/tournament/tournament.h"
#include "src/tournament/tourout.h"
#include "verifiers/verifier.h"
#include "tests/testutil.h"
#include "tests/tourtest.h"

static tournament *load(const char *json)
{
    return tourtest_load(json);
}

static int refused(const char *json, const char *want)
{
    tournament *t = NULL;
    char err[512] = "";
    int rc = tournament_load(json, strlen(json), &t, err, sizeof err);
    cr_assert_null(t);
    cr_expect_str_eq(err, want);
    return rc;
}

/* A finished Snap game: the winner (1 or 2) and each side's score. */
static tour_game game(const char *match, uint32_t round, const char *table, const char *p1, const char *p2,
                      int winner, int64_t s1, int64_t s2)
{
    return tourtest_game(match, round, table, p1, p2, winner, s1, s2);
}

static tour_results *results(const tournament *t, const tour_game *g, size_t n)
{
    tour_results *r = NULL;
    cr_assert_eq(tournament_results(t, g, n, &r), 0);
    return r;
}

static size_t count_alarms(const tour_results *r, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_alarms; i++)
        n += !strcmp(r->alarms[i].kind, kind);
    return n;
}

static const tour_row *row_of(const tournament *t, const tour_standings *s, const char *id)
{
    int p = tournament_player_index(t, id);
    for (size_t i = 0; i < s->n_rows; i++)
        if (s->rows[i].player == p)
            return &s->rows[i];
    cr_assert_fail("no row for %s", id);
    return NULL;
}

#define HEAD "{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"snap\",\"seed\":\"s0\","
#define FOUR "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"}," \
             "{\"id\":\"d\",\"name\":\"D\"}]"
#define R1 "{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}"
#define CUSTOM3 "\"structure\":{\"swiss_rounds\":3,\"cut\":0},"

/* ---- T27 ---- */

Test(tournament, T27_stream_known_answer)
{
    cr_assert_geq(sodium_init(), 0);
    tour_stream s;
    tour_stream_init(&s, "seed", "label");
    /* BLAKE2b-256("arbiter-tournament-1\0seed\0label\0" || 0 as 8 bytes), by Python's hashlib */
    cr_assert_eq(tour_stream_next(&s), UINT64_C(0x546b20f83a97cf83));
    cr_assert_eq(tour_stream_next(&s), UINT64_C(0x01b7bd83e3e4936d));
    cr_assert_eq(tour_stream_next(&s), UINT64_C(0xed55a1df5b6f53e8));
    cr_assert_eq(tour_stream_next(&s), UINT64_C(0xc98e4423bd7dc0b8));
}

Test(tournament, T27_uniform_rejects_the_biased_tail)
{
    tour_stream s;
    tour_stream_init(&s, "seed", "label");
    /* n = 2^63 + 1: the tail starts at 2^63 - 1 (2^64 mod n = 2^63 - 1, so
     * values >= 2^64 - (2^63 - 1) = 2^63 + 1 are rejected).  The first word
     * 0x546b... is below it and is taken: x mod n = x. */
    cr_assert_eq(tour_uniform(&s, (UINT64_C(1) << 63) + 1), UINT64_C(0x546b20f83a97cf83));
    /* the second (0x01b7...) is taken too; the third (0xed55...) is in the
     * tail and skipped, so the fourth is skipped too (0xc98e... >= 2^63 + 1)
     * and the fifth word is the draw */
    cr_assert_eq(tour_uniform(&s, (UINT64_C(1) << 63) + 1), UINT64_C(0x01b7bd83e3e4936d));
    tour_stream t;
    tour_stream_init(&t, "seed", "label");
    for (int i = 0; i < 4; i++)
        tour_stream_next(&t);
    uint64_t fifth = tour_stream_next(&t);
    uint64_t want = fifth;
    while (want >= (UINT64_C(1) << 63) + 1) /* keep drawing past the tail, as uniform does */
        want = tour_stream_next(&t);
    cr_assert_eq(tour_uniform(&s, (UINT64_C(1) << 63) + 1), want % ((UINT64_C(1) << 63) + 1));
    cr_assert_eq(tour_uniform(&s, 1), 0);
}

Test(tournament, T27_shuffle_ignores_file_order)
{
    tournament *t1 = load(HEAD CUSTOM3 FOUR "}");
    tournament *t2 = load(HEAD CUSTOM3
                          "\"players\":[{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"c\",\"name\":\"C\"},"
                          "{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"a\",\"name\":\"A\"}]}");
    tour_results *r1 = results(t1, NULL, 0), *r2 = results(t2, NULL, 0);
    tour_pairings *p1, *p2;
    cr_assert_eq(tournament_pair(t1, r1, 1, &p1, NULL, 0), 0);
    cr_assert_eq(tournament_pair(t2, r2, 1, &p2, NULL, 0), 0);
    cr_assert_eq(p1->n_pairs, 2);
    for (size_t i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            cr_assert_str_eq(tournament_player(t1, (size_t)p1->pairs[i].player[k])->id,
                             tournament_player(t2, (size_t)p2->pairs[i].player[k])->id);
    cr_assert_str_eq(p1->labels, "pair 1");
    cr_assert_str_eq(p1->seed, "s0");
    tour_pairings_destroy(&p1);
    tour_pairings_destroy(&p2);
    tour_results_destroy(&r1);
    tour_results_destroy(&r2);
    tournament_destroy(&t1);
    tournament_destroy(&t2);
}

Test(tournament, T27_missing_seed_is_made_and_printed)
{
    const char *json = "{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"snap\"," CUSTOM3 FOUR "}";
    tournament *t = load(json);
    int made = 0;
    const char *seed = tournament_seed(t, &made);
    cr_assert_eq(made, 1);
    cr_assert_eq(strlen(seed), 32);
    cr_assert_eq(strspn(seed, "0123456789abcdef"), 32);
    cr_assert_eq(tournament_set_seed(t, "mine"), 0);
    cr_assert_str_eq(tournament_seed(t, &made), "mine");
    cr_assert_eq(made, 0);
    tournament_destroy(&t);
}

/* ---- T6, T20, T21, T24, T26 ---- */

Test(tournament, T20_event_points_per_result)
{
    /* round 1: a beats b 5-3; c and d draw at time 2-2 */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":100,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 3, 3), game("m2", 1, "2", "c", "d", 0, 2, 2)};
    tour_results *r = results(t, g, 2);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "a")->points, 3);
    cr_assert_eq(row_of(t, s, "b")->points, 0);
    cr_assert_eq(row_of(t, s, "c")->points + row_of(t, s, "d")->points, 3);   /* draw win 2 + draw loss 1 */
    cr_assert_eq(r->results[1].by, TOUR_BY_TIME);
    cr_assert_eq(s->provisional, 0);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T6_mov_of_the_regulations_example)
{
    /* Snap, base 5: a 5 to 3 game gives 7 and 3 */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 2, 3), game("m2", 1, "2", "c", "d", 2, 0, 0)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].score[0], 5);
    cr_assert_eq(r->results[0].score[1], 3);
    cr_assert_eq(r->results[0].mov[0], 7);
    cr_assert_eq(r->results[0].mov[1], 3);
    cr_assert_eq(r->results[1].mov[1], 10);
    cr_assert_eq(r->results[1].mov[0], 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T21_bye_is_a_win_worth_twice_the_base)
{
    tournament *t = load(HEAD CUSTOM3 "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},"
                         "{\"id\":\"c\",\"name\":\"C\"}],\"rounds\":[{\"round\":1,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"bye\":\"c\"}]}]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 4)};
    tour_results *r = results(t, g, 1);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    const tour_row *c = row_of(t, s, "c"), *b = row_of(t, s, "b");
    cr_assert_eq(c->points, 3);
    cr_assert_eq(c->wins, 1);
    cr_assert_eq(c->byes, 1);
    cr_assert_eq(c->mov, 10);
    cr_assert_eq(c->rounds, 1);
    /* T21, T26: the bye has no opponent: SoS 0/1 */
    cr_assert_eq(c->sos_num, 0);
    cr_assert_eq(c->sos_den, 1);
    /* b lost to a (3 points in 1 round): SoS 3/1 */
    cr_assert_eq(b->sos_num, 3);
    cr_assert_eq(b->sos_den, 1);
    /* T24: a (3, 1 win, MOV 6) above c (3, 1 win, MOV 10)? no: MOV 10 first */
    cr_assert_eq(s->rows[0].player, tournament_player_index(t, "c"));
    cr_assert_eq(s->rows[1].player, tournament_player_index(t, "a"));
    cr_assert_eq(s->rows[2].player, tournament_player_index(t, "b"));
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T24_pending_game_makes_standings_provisional)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 0)};
    tour_results *r = results(t, g, 1);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(s->provisional, 1);
    cr_assert_eq(s->n_pending, 1);
    cr_assert_str_eq(s->pending[0].table, "2");
    cr_assert_eq(row_of(t, s, "c")->rounds, 0);
    cr_assert_eq(r->results[1].live, 1);   /* T16: the round is open */
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T30, T31 ---- */

Test(tournament, T30_groups_by_wins_draws_losses)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    tour_results *r = results(t, g, 2);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 2);
    /* winners a, c meet at table 1; losers b, d at table 2 */
    int a = tournament_player_index(t, "a"), c = tournament_player_index(t, "c");
    cr_assert(p->pairs[0].player[0] == a || p->pairs[0].player[0] == c);
    cr_assert_eq(p->pairs[0].player[0] ^ p->pairs[0].player[1], a ^ c);
    cr_assert_str_eq(p->pairs[0].table, "1");
    cr_assert_eq(p->rematches, 0);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T30_pending_result_stops_pairing)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 0)};
    tour_results *r = results(t, g, 1);
    tour_pairings *p;
    char err[256];
    cr_assert_eq(tournament_pair(t, r, 2, &p, err, sizeof err), TOUR_EPENDING);
    cr_assert_null(p);
    cr_assert_str_eq(err, "Round 1 table 2 has no result yet (no record).");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T31_no_rematch_in_swiss)
{
    /* rounds 1 and 2: a-b, c-d then a-c, b-d; a wins both, c beats d, d... */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"}]}]}");
    tour_game g[4] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "1", "a", "c", 1, 0, 0), game("m4", 2, "2", "b", "d", 1, 0, 0)};
    tour_results *r = results(t, g, 4);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    /* groups: a (2-0); c, b (1-1); d (0-2).  a's group pairs down, but a met
     * b and c: a plays d, and c plays b */
    int a = tournament_player_index(t, "a"), b = tournament_player_index(t, "b");
    int c = tournament_player_index(t, "c"), d = tournament_player_index(t, "d");
    cr_assert_eq(p->pairs[0].player[0], a);
    cr_assert_eq(p->pairs[0].player[1], d);
    cr_assert_eq(p->pairs[1].player[0] ^ p->pairs[1].player[1], b ^ c);
    cr_assert_eq(p->rematches, 0);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T31_fewest_rematches_when_unavoidable)
{
    /* two players, two rounds: the second must be a rematch, named once */
    tournament *t = load(HEAD CUSTOM3 "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"}],"
                         "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"}]}]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 2, 0, 0)};
    tour_results *r = results(t, g, 1);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 1);
    cr_assert_eq(p->rematches, 1);
    cr_assert_eq(p->pairs[0].rematch, 1);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T33, T34 ---- */

#define TEN "\"players\":[{\"id\":\"w1\",\"name\":\"W1\"},{\"id\":\"w2\",\"name\":\"W2\"},{\"id\":\"w3\",\"name\":\"W3\"}," \
    "{\"id\":\"w4\",\"name\":\"W4\"},{\"id\":\"w5\",\"name\":\"W5\"},{\"id\":\"steven\",\"name\":\"Steven\"}," \
    "{\"id\":\"l7\",\"name\":\"L7\"},{\"id\":\"l8\",\"name\":\"L8\"},{\"id\":\"eve\",\"name\":\"Eve\"},{\"id\":\"l10\",\"name\":\"L10\"}]"
#define TEN_R1 "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"l10\"}," \
    "{\"table\":\"2\",\"p1\":\"w2\",\"p2\":\"eve\"},{\"table\":\"3\",\"p1\":\"w3\",\"p2\":\"l8\"}," \
    "{\"table\":\"4\",\"p1\":\"w4\",\"p2\":\"l7\"},{\"table\":\"5\",\"p1\":\"w5\",\"p2\":\"steven\"}]}]"

/* The winners' MOV is 10 minus the loser's score, the losers' MOV their
 * score: the standings are w1..w5, steven, l7, l8, eve, l10. */
static void ten_games(tour_game g[5])
{
    g[0] = game("m1", 1, "1", "w1", "l10", 1, 0, 0);
    g[1] = game("m2", 1, "2", "w2", "eve", 1, 0, 1);
    g[2] = game("m3", 1, "3", "w3", "l8", 1, 0, 2);
    g[3] = game("m4", 1, "4", "w4", "l7", 1, 0, 3);
    g[4] = game("m5", 1, "5", "w5", "steven", 1, 0, 4);
}

Test(tournament, T33_steven_drops_and_eve_enters_eighth)
{
    /* TR 161: Steven, sixth, drops before the elimination rounds; Eve,
     * ninth, enters as eighth; the former eighth moves to seventh and the
     * former seventh to sixth. */
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8}," TEN
                         ",\"drops\":[{\"player\":\"steven\",\"after_round\":1,\"reason\":\"drop\"}]," TEN_R1 "}");
    tour_game g[5];
    ten_games(g);
    tour_results *r = results(t, g, 5);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "steven")->place, 6);
    cr_assert_eq(row_of(t, s, "eve")->place, 9);
    cr_assert_eq(row_of(t, s, "steven")->dropped, 1);
    int seeds[TOUR_CUT_MAX];
    uint32_t n;
    cr_assert_eq(tournament_cut(t, r, seeds, &n, NULL, 0), 0);
    cr_assert_eq(n, 8);
    static const char *const want[] = {"w1", "w2", "w3", "w4", "w5", "l7", "l8", "eve"};
    for (int i = 0; i < 8; i++)
        cr_assert_eq(seeds[i], tournament_player_index(t, want[i]), "seed %d", i + 1);
    /* T34: seed k against seed 9 - k, Game #k at table k */
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 4);
    cr_assert_eq(p->pairs[0].player[0], tournament_player_index(t, "w1"));
    cr_assert_eq(p->pairs[0].player[1], tournament_player_index(t, "eve"));
    cr_assert_eq(p->pairs[0].game, 1);
    cr_assert_eq(p->pairs[3].player[0], tournament_player_index(t, "w4"));
    cr_assert_eq(p->pairs[3].player[1], tournament_player_index(t, "w5"));
    cr_assert_str_eq(p->pairs[3].table, "4");
    tour_pairings_destroy(&p);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T33_later_day_keeps_the_seed_empty)
{
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8},\"cut_on_later_day\":true," TEN
                         ",\"drops\":[{\"player\":\"steven\",\"after_round\":1,\"reason\":\"drop\"}]," TEN_R1 "}");
    tour_game g[5];
    ten_games(g);
    tour_results *r = results(t, g, 5);
    int seeds[TOUR_CUT_MAX];
    uint32_t n;
    cr_assert_eq(tournament_cut(t, r, seeds, &n, NULL, 0), 0);
    cr_assert_eq(seeds[5], -1);
    cr_assert_eq(seeds[7], tournament_player_index(t, "l8"));
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    /* T34: seed 3 meets the empty seed 6: a bye */
    cr_assert_eq(p->pairs[2].player[0], tournament_player_index(t, "w3"));
    cr_assert_eq(p->pairs[2].player[1], -1);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T39, T40 ---- */

Test(tournament, T40_basic_table_lookup)
{
    tournament *t = load(HEAD "\"structure\":{\"table\":\"basic\"}," TEN "}");
    const tour_structure *st = tournament_structure(t);
    cr_assert_eq(st->swiss_rounds, 4);
    cr_assert_eq(st->cut, 0);
    cr_assert_str_eq(st->row, "9-12");
    cr_assert_eq(st->reconstructed, 1);
    cr_assert_eq(st->registered, 10);
    tournament_destroy(&t);
}

Test(tournament, T40_basic_never_asks_more_than_advanced)
{
    size_t nb, na;
    const tour_table_row *b = tournament_structure_table(0, &nb), *a = tournament_structure_table(1, &na);
    cr_assert_eq(nb, 8);
    cr_assert_eq(na, 8);
    for (uint32_t players = 9; players < 700; players++) {
        const tour_table_row *rb = NULL, *ra = NULL;
        for (size_t i = 0; i < nb; i++)
            if (players >= b[i].lo && (!b[i].hi || players <= b[i].hi))
                rb = &b[i];
        for (size_t i = 0; i < na; i++)
            if (players >= a[i].lo && (!a[i].hi || players <= a[i].hi))
                ra = &a[i];
        cr_assert(rb && ra);
        cr_assert_leq(rb->swiss_rounds, ra->swiss_rounds);
        cr_assert_leq(rb->cut, ra->cut);
    }
}

Test(tournament, T39_advanced_table_lookup)
{
    tournament *t = load(HEAD "\"structure\":{\"table\":\"advanced\"}," TEN "}");
    cr_assert_eq(tournament_structure(t)->swiss_rounds, 4);
    cr_assert_eq(tournament_structure(t)->cut, 4);
    cr_assert_eq(tournament_structure(t)->elimination_rounds, 2);
    cr_assert_eq(tournament_structure(t)->reconstructed, 0);
    tournament_destroy(&t);
    /* below 9 players, the Basic row, and it says so */
    t = load(HEAD "\"structure\":{\"table\":\"advanced\"}," FOUR "}");
    cr_assert_eq(tournament_structure(t)->fell_back, 1);
    cr_assert_eq(tournament_structure(t)->swiss_rounds, 3);
    cr_assert_str_eq(tournament_structure(t)->row, "4-8");
    tournament_destroy(&t);
}

/* ---- the file ---- */

Test(tournament, T47_unknown_key_in_the_file_is_refused)
{
    cr_assert_eq(refused(HEAD CUSTOM3 FOUR ",\"squad_points\":12}", "\"squad_points\" is not a key of the tournament file."),
                 TOUR_EINVAL);
}

/* The event's format is one whose engine runs tournaments (the registry):
 * another is refused with a sentence naming those that do, and a format
 * with an engine outside the Mintayn regulations with its own sentence. */
Test(tournament, format_is_one_the_registry_runs_tournaments_of)
{
    char list[200] = "", want[400], json[1024];
    const verifier_ops *ops;
    size_t n = 0, said = 0, k = 0;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        n += ops->tournament != 0;
    cr_assert_geq(n, 3, "Snap, Advanced and Master run tournaments");
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (ops->tournament) {
            said++;
            k += (size_t)snprintf(list + k, sizeof list - k, "%s\"%s\"", said == 1 ? "" : said == n ? " or " : ", ",
                                  ol_format_name(ops->format));
        }
    cr_assert_str_eq(list, "\"snap\", \"advanced\" or \"master\"");   /* today's registry */
    snprintf(want, sizeof want, "\"format\" must be %s.", list);
    cr_assert_eq(refused("{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"poker\",\"seed\":\"s0\"," CUSTOM3 FOUR "}",
                         want), TOUR_EINVAL);
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++) {
        snprintf(json, sizeof json, "{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"%s\",\"seed\":\"s0\","
                 CUSTOM3 FOUR "}", ol_format_name(ops->format));
        if (ops->tournament) {
            tournament *t = load(json);
            cr_assert_eq(tournament_format(t), ops->format);
            cr_assert_eq(tournament_base(t), ops->score_base, "%s", ops->engine);
            tournament_destroy(&t);
            continue;
        }
        snprintf(want, sizeof want, "\"format\" is \"%s\": arbiter tournament runs the events of the Mintayn "
                 "regulations (TOURNAMENT.md), whose formats are %s.", ol_format_name(ops->format), list);
        cr_assert_eq(refused(json, want), TOUR_EINVAL);
    }
}

Test(tournament, file_reference_to_nothing_is_refused)
{
    refused(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"zed\"}]}]}",
            "\"rounds[0].pairings[0].p2\" names no player.");
    refused(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":2,\"pairings\":[]}]}",
            "\"rounds[0].round\" must be 1: rounds are listed in order from 1.");
    refused("{\"version\":2}", "\"version\" must be 1.");
    refused("not json", "The tournament file is not JSON: line 1: '[' or '{' expected near 'not'.");
}

Test(tournament, T15_intentional_draw_refused_in_elimination)
{
    refused(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":4}," FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":["
            "{\"game\":1,\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\",\"intentional_draw\":true}]}]}",
            "\"rounds[1].pairings[0].intentional_draw\" is not allowed in an elimination round.");
}

Test(tournament, T22_disqualified_player_cannot_rejoin)
{
    refused(HEAD CUSTOM3 FOUR ",\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"disqualified\"}],"
            "\"late_entries\":[{\"player\":\"d\",\"round\":3}]}",
            "\"late_entries\" rejoins \"d\", who was disqualified.");
}

Test(tournament, T22_no_show_gives_the_opponent_a_bye)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"drops\":[{\"player\":\"d\",\"after_round\":0,\"reason\":\"no_show\"}],"
                         "\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 0)};
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[1].outcome[0], TOUR_BYE);
    cr_assert_eq(r->results[1].outcome[1], TOUR_NO_RESULT);
    cr_assert_eq(r->results[1].mov[0], 10);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T17_illegal_record_has_no_result)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    g[0].status = TOUR_REC_ILLEGAL;
    g[0].first_bad = "#7 snap:9.1: not the Battle Phase";
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(count_alarms(r, "illegal_record"), 1);
    cr_assert_str_eq(r->alarms[0].text, "Record m1: #7 snap:9.1: not the Battle Phase; the head judge rules.");
    cr_assert_str_eq(r->alarms[0].table, "1");
    cr_assert_str_eq(r->alarms[0].match, "m1");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T2_pairing_is_unordered)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "b", "a", 1, 0, 2)};   /* b is p1 and wins */
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);   /* a, the pairing's first */
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].score[0], 2);
    cr_assert_eq(r->n_alarms, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T3_claimed_winner_is_not_counted)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 0)};
    g[0].claim_winner = 2;
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);
    cr_assert_eq(count_alarms(r, "mismatch"), 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- helpers of the tests below ---- */

static int P(const tournament *t, const char *id)
{
    return tournament_player_index(t, id);
}

static const tour_alarm *alarm_of(const tour_results *r, const char *kind)
{
    for (size_t i = 0; i < r->n_alarms; i++)
        if (!strcmp(r->alarms[i].kind, kind))
            return &r->alarms[i];
    cr_assert_fail("no %s alarm", kind);
    return NULL;
}

static void expect_alarm(const tour_alarm *a, const char *kind, const char *ruling, uint32_t round, const char *table,
                         const char *match, const char *p1, const char *p2, const char *text)
{
    cr_expect_str_eq(a->kind, kind);
    cr_expect_str_eq(a->ruling, ruling);
    cr_expect_eq(a->round, round);
    cr_expect_str_eq(a->table, table);
    cr_expect_str_eq(a->match, match);
    cr_expect_str_eq(a->players[0], p1);
    cr_expect_str_eq(a->players[1], p2);
    cr_expect_str_eq(a->text, text);
}

/* A game stopped at time: unfinished, ends the game round `rounds`. */
static tour_game timed_game(const char *match, uint32_t round, const char *table, const char *p1, const char *p2,
                            int64_t s1, int64_t s2)
{
    tour_game g = game(match, round, table, p1, p2, 0, s1, s2);
    g.finished = 0;
    return g;
}

/* ---- T1 ---- */

Test(tournament, T1_two_records_of_one_pairing_give_no_result)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m1b", 1, "1", "b", "a", 1, 0, 0),
                      game("m2", 1, "2", "c", "d", 1, 0, 0)};
    tour_results *r = results(t, g, 3);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->results[0].outcome[1], TOUR_PENDING);
    cr_assert_str_eq(r->results[0].why, "two records");
    cr_assert_eq(r->results[1].outcome[0], TOUR_WIN);
    /* one alarm for the one pairing, not one more per player */
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "two_games", "T1", 1, "1", "m1", "a", "b",
                 "The pairing of a and b has 2 records; none counts until the head judge names one.");
    cr_assert_eq(r->alarms[0].resolved, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);

    /* the head judge names m1b: b (its p1) won, and the alarm is resolved */
    t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "],\"judge_results\":[{\"round\":1,\"table\":\"1\",\"match\":\"m1b\","
         "\"result\":\"engine\",\"judge\":\"hj\",\"text\":\"m1b was the game.\"}]}");
    r = results(t, g, 3);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].by, TOUR_BY_JUDGE);
    cr_assert_str_eq(r->results[0].match, "m1b");
    cr_assert_str_eq(r->results[0].judge, "hj");
    cr_assert_eq(r->n_alarms, 1);
    cr_assert_eq(r->alarms[0].resolved, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T1_player_in_two_records_or_two_pairings)
{
    /* a plays b (paired) and c (not paired) in round 1 */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 1, "3", "a", "c", 1, 0, 0)};
    tour_results *r = results(t, g, 3);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->results[1].outcome[0], TOUR_PENDING);   /* c is in m2 and m3 too */
    cr_assert_eq(count_alarms(r, "unpaired_game"), 1);
    cr_assert_eq(count_alarms(r, "two_games"), 2);
    expect_alarm(alarm_of(r, "unpaired_game"), "unpaired_game", "T2", 1, "3", "m3", "a", "c",
                 "Record m3 is of a and c, who were not paired with each other in round 1.");
    expect_alarm(alarm_of(r, "two_games"), "two_games", "T1", 1, "3", "m3", "a", "",
                 "a is in 2 records of round 1 (m1 and m3); none counts until the head judge names one.");
    tour_results_destroy(&r);
    tournament_destroy(&t);

    /* a published in two pairings of round 1 */
    t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
         "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"a\"}]}]}");
    r = results(t, NULL, 0);
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "two_games", "T1", 1, "2", "", "a", "", "a is in two pairings of round 1.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T4, T5 ---- */

Test(tournament, T4_snap_score_is_clamped_and_the_winner_scores_five)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    /* a wins with 4 defeated (a Prime replacement): scores 5; b's 9 is clamped to 5.
     * c and d: c wins having defeated 0; d's -2 is clamped to 0 */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 4, 9), game("m2", 1, "2", "c", "d", 1, 0, -2)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(tournament_base(t), 5);
    cr_assert_eq(r->results[0].score[0], 5);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_eq(r->results[0].mov[0], 5);
    cr_assert_eq(r->results[0].mov[1], 5);
    cr_assert_eq(r->results[1].score[0], 5);
    cr_assert_eq(r->results[1].score[1], 0);
    cr_assert_eq(r->results[1].mov[0], 10);
    cr_assert_eq(r->results[1].mov[1], 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

#define ADV_HEAD "{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"advanced\",\"seed\":\"s0\","

Test(tournament, T5_starting_lp_is_the_base)
{
    tournament *t = load(ADV_HEAD "\"rules\":{\"starting_lp\":4000}," CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    cr_assert_eq(tournament_base(t), 4000);
    /* a wins having taken 3000 (scores the base 4000); b took 2500 */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 3000, 2500), game("m2", 1, "2", "c", "d", 2, 5000, -100)};
    g[0].format = g[1].format = "advanced";
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[0].score[0], 4000);
    cr_assert_eq(r->results[0].score[1], 2500);
    cr_assert_eq(r->results[0].mov[0], 5500);
    cr_assert_eq(r->results[0].mov[1], 2500);
    /* c's 5000 clamps to the base, d's -100 (LP gained) to 0, and d won: d scores 4000 */
    cr_assert_eq(r->results[1].score[0], 4000);
    cr_assert_eq(r->results[1].score[1], 4000);
    cr_assert_eq(r->results[1].outcome[1], TOUR_WIN);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* without the lever: 6000 in Advanced, 8000 in Master */
    t = load(ADV_HEAD CUSTOM3 FOUR "}");
    cr_assert_eq(tournament_base(t), 6000);
    tournament_destroy(&t);
    t = load("{\"version\":1,\"id\":\"cup\",\"name\":\"Cup\",\"format\":\"master\",\"seed\":\"s0\"," CUSTOM3 FOUR "}");
    cr_assert_eq(tournament_base(t), 8000);
    tournament_destroy(&t);
}

Test(tournament, T5_lp_gain_never_makes_a_score_negative)
{
    /* at time, a took 0 net (gained LP: -700) and b took 1200: b wins 1200 to 0 */
    tournament *t = load(ADV_HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":100,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}");
    tour_game g[1] = {timed_game("m1", 1, "1", "a", "b", -700, 1200)};
    g[0].format = "advanced";
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].by, TOUR_BY_TIME);
    cr_assert_eq(r->results[0].score[0], 0);
    cr_assert_eq(r->results[0].score[1], 1200);
    cr_assert_eq(r->results[0].mov[0], 6000 - 1200);
    cr_assert_eq(r->results[0].mov[1], 6000 + 1200);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T10 ---- */

Test(tournament, T10_reported_mutual_destruction_differs)
{
    /* table 1 reports a draw (no Mintayn game ends in one); the record has a
     * winner.  Table 2's report agrees with its record. */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}],"
                         "\"reports\":[{\"table\":\"1\",\"draw\":true},{\"table\":\"2\",\"winner\":\"d\","
                         "\"scores\":{\"c\":3,\"d\":5}}]}]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 5, 5), game("m2", 1, "2", "c", "d", 2, 3, 1)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);   /* the report is never counted */
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "report_differs", "T3", 1, "1", "m1", "a", "b",
                 "Table 1 reported a draw; the verified result is a's win.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T12, T13, T14 ---- */

#define TIMED_R1 "\"rounds\":[{\"round\":1,\"time_called\":1000,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"}," \
    "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]"

static const tour_mark marks3[3] = {{500, {0, 0}}, {900, {1, 0}}, {1100, {1, 2}}};

Test(tournament, T12_unfinished_record_at_time_gets_a_time_result)
{
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    /* table 1 (case 1): finished in game round 2, in progress at the call;
     * table 2 (case 2): stopped at the end of game round 2, c ahead 2 to 1 */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 2, 1, 3), timed_game("m2", 1, "2", "c", "d", 2, 1)};
    g[0].rounds = g[1].rounds = 2;
    g[0].ends_round = 0;
    g[0].marks = g[1].marks = marks3;
    g[0].nmarks = g[1].nmarks = 2;
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[0].by, TOUR_BY_ENGINE);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_eq(r->results[0].score[0], 1);
    cr_assert_eq(r->results[1].by, TOUR_BY_TIME);
    cr_assert_str_eq(r->results[1].why, "at time");
    cr_assert_eq(r->results[1].outcome[0], TOUR_WIN);   /* T13: a full win, not a draw win */
    cr_assert_eq(r->results[1].outcome[1], TOUR_LOSS);
    cr_assert_eq(r->results[1].score[0], 2);
    cr_assert_eq(r->results[1].score[1], 1);
    cr_assert_eq(r->results[1].mov[0], 6);
    cr_assert_eq(r->results[1].mov[1], 4);
    cr_assert_eq(r->results[1].past_time_unchecked, 0);
    tour_results_destroy(&r);
    /* no event with a time: case 2 all the same, and case 4 said unchecked */
    g[1].marks = NULL;
    g[1].nmarks = 0;
    g[1].rounds = 7;
    r = results(t, g, 2);
    cr_assert_eq(r->results[1].by, TOUR_BY_TIME);
    cr_assert_eq(r->results[1].past_time_unchecked, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T12_record_stopping_mid_round_is_incomplete)
{
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "c", "d", 2, 1)};
    g[1].rounds = 2;
    g[1].ends_round = 0;   /* stops inside game round 2 */
    g[1].marks = marks3;
    g[1].nmarks = 2;
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[1].outcome[0], TOUR_PENDING);
    cr_assert_str_eq(r->results[1].why, "stopped inside a game round at time");
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "time_round_incomplete", "T12", 1, "2", "m2", "c", "d",
                 "Record m2: the record stops inside a game round after time was called; the head judge rules.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T12_play_past_time_raises_an_alarm)
{
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    /* both went on into game round 3, which began after the call (1100 >
     * 1000): even a finished record has no result */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "c", "d", 2, 1)};
    for (int i = 0; i < 2; i++) {
        g[i].rounds = 3;
        g[i].marks = marks3;
        g[i].nmarks = 3;
    }
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->results[1].outcome[0], TOUR_PENDING);
    cr_assert_eq(count_alarms(r, "played_past_time"), 2);
    expect_alarm(&r->alarms[0], "played_past_time", "T12", 1, "1", "m1", "a", "b",
                 "Record m1: play went on past the game round in progress when time was called; the head judge rules.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T12_extension_moves_the_call_for_one_table)
{
    /* the round's call at 1000; table 2 has five more minutes (its own call at 2000) */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":1000,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
                         "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\",\"time_called\":2000}]}]}");
    tour_game g[2] = {timed_game("m1", 1, "1", "a", "b", 1, 2), timed_game("m2", 1, "2", "c", "d", 1, 2)};
    for (int i = 0; i < 2; i++) {
        g[i].rounds = 3;
        g[i].marks = marks3;
        g[i].nmarks = 3;
    }
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);   /* past the round's call */
    cr_assert_eq(count_alarms(r, "played_past_time"), 1);
    cr_assert_str_eq(alarm_of(r, "played_past_time")->table, "1");
    cr_assert_eq(r->results[1].by, TOUR_BY_TIME);            /* game round 3 was in progress at 2000 */
    cr_assert_eq(r->results[1].outcome[1], TOUR_WIN);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T13_greater_score_at_time_wins)
{
    /* TR 253: Elaine (here d) destroyed more than Sal (c): she wins, Sal loses */
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "c", "d", 1, 3)};
    tour_results *r = results(t, g, 2);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "d")->points, 3);
    cr_assert_eq(row_of(t, s, "d")->wins, 1);
    cr_assert_eq(row_of(t, s, "c")->points, 0);
    cr_assert_eq(row_of(t, s, "c")->losses, 1);
    cr_assert_eq(r->results[1].draw_seed, NULL);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* T14's draw, computed here from the stream: 0 gives the draw win to the
 * first of the two ids. */
static const char *expected_draw_win(const char *seed, const char *label, const char *first, const char *second)
{
    tour_stream s;
    tour_stream_init(&s, seed, label);
    return tour_uniform(&s, 2) == 0 ? first : second;
}

Test(tournament, T14_draw_win_is_drawn_from_the_seed)
{
    /* c and d equal at time; the round's results_seed decides, label "draw 1 2" */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"seed\":\"r1\",\"results_seed\":\"r1-done\","
                         "\"time_called\":1000,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
                         "{\"table\":\"2\",\"p1\":\"d\",\"p2\":\"c\"}]}]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "c", "d", 2, 2)};
    tour_results *r = results(t, g, 2);
    const tour_result *rr = &r->results[1];
    cr_assert_str_eq(rr->draw_seed, "r1-done");
    const char *want = expected_draw_win("r1-done", "draw 1 2", "c", "d");
    cr_assert_str_eq(want, "d");   /* the stream's first word is odd: the second id, d */
    cr_assert_eq(rr->outcome[0], TOUR_DRAW_WIN);   /* d is the pairing's p1 */
    cr_assert_eq(rr->outcome[1], TOUR_DRAW_LOSS);
    cr_assert_eq(rr->score[0], 2);
    cr_assert_eq(rr->mov[0], 5);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "d")->points, 2);
    cr_assert_eq(row_of(t, s, "c")->points, 1);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T14_same_seed_same_draw_win)
{
    /* the same file, the pairing written the other way round: the same draw win */
    const char *files[2] = {
        HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":1000,\"pairings\":["
        "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}",
        HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":1000,\"pairings\":["
        "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"d\",\"p2\":\"c\"}]}]}"};
    const char *want = expected_draw_win("s0", "draw 1 2", "c", "d");
    for (int f = 0; f < 2; f++)
        for (int again = 0; again < 2; again++) {
            tournament *t = load(files[f]);
            tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "d", "c", 4, 4)};
            tour_results *r = results(t, g, 2);
            const tour_result *rr = &r->results[1];
            int k = rr->player[0] == P(t, want) ? 0 : 1;
            cr_assert_eq(rr->outcome[k], TOUR_DRAW_WIN);
            cr_assert_eq(rr->outcome[1 - k], TOUR_DRAW_LOSS);
            cr_assert_str_eq(rr->draw_seed, "s0");
            tour_results_destroy(&r);
            tournament_destroy(&t);
        }
}

/* ---- T16 ---- */

Test(tournament, T16_unfinished_record_in_a_closed_round_raises_an_alarm)
{
    const char *open = HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}";
    const char *closed = HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"closed\":true,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}";
    tour_game g[1] = {timed_game("m1", 1, "1", "a", "b", 1, 0)};
    /* open: live progress, no alarm */
    tournament *t = load(open);
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[0].live, 1);
    cr_assert_str_eq(r->results[0].why, "in progress");
    cr_assert_eq(r->results[1].live, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* closed: unfinished at table 1, unrecorded at table 2 */
    t = load(closed);
    r = results(t, g, 1);
    cr_assert_eq(r->n_alarms, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->results[0].live, 0);
    expect_alarm(alarm_of(r, "unfinished"), "unfinished", "T16", 1, "1", "m1", "a", "b",
                 "Record m1: the record is unfinished and its round is closed.");
    expect_alarm(alarm_of(r, "unrecorded"), "unrecorded", "T16", 1, "2", "", "c", "d",
                 "The pairing of c and d has no record.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* a later round with pairings closes round 1 too */
    t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"}]}]}");
    r = results(t, g, 1);
    cr_assert_eq(count_alarms(r, "unfinished"), 1);
    cr_assert_eq(count_alarms(r, "unrecorded"), 1);   /* round 1 table 2; round 2 is open */
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T18 ---- */

Test(tournament, T18_mismatch_counts_the_engine_outcome_and_raises_an_alarm)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 2, 3, 1), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    g[0].status = TOUR_REC_MISMATCH;
    g[0].first_bad = "#31 claim: the claim names a the winner; the engine found b";
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].by, TOUR_BY_ENGINE);
    cr_assert_eq(r->results[0].score[0], 3);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "mismatch", "T18", 1, "1", "m1", "a", "b",
                 "Record m1: #31 claim: the claim names a the winner; the engine found b");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T19 ---- */

#define JUDGE(tbl, rest) "{\"round\":1,\"table\":\"" tbl "\"," rest ",\"judge\":\"hj\",\"text\":\"ruled\"}"

static tour_results *judged(tournament **t, const char *judges, tour_game *g, size_t n)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s%s]}", HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"time_called\":1000,\"pairings\":["
             "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}],"
             "\"judge_results\":[", judges);
    *t = load(buf);
    return results(*t, g, n);
}

Test(tournament, T19_judge_result_engine)
{
    /* table 1: an illegal record, finished, b won; table 2: unfinished at
     * the end of game round 2 yet stopped mid-round, c ahead 3 to 1 */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 2, 2, 0), timed_game("m2", 1, "2", "c", "d", 3, 1)};
    g[0].status = TOUR_REC_ILLEGAL;
    g[0].first_bad = "#9 snap:9.1: not the Battle Phase";
    g[1].ends_round = 0;
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"engine\"") "," JUDGE("2", "\"result\":\"engine\""), g, 2);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].by, TOUR_BY_JUDGE);
    cr_assert_eq(r->results[0].score[0], 2);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_str_eq(r->results[0].judge_text, "ruled");
    cr_assert_eq(r->results[1].outcome[0], TOUR_WIN);       /* scores decide as at time */
    cr_assert_eq(r->results[1].score[0], 3);
    cr_assert_eq(r->results[1].score[1], 1);
    cr_assert_eq(r->n_alarms, 2);
    cr_assert_eq(count_alarms(r, "judge_overrides_record"), 0);
    expect_alarm(alarm_of(r, "illegal_record"), "illegal_record", "T17", 1, "1", "m1", "a", "b",
                 "Record m1: #9 snap:9.1: not the Battle Phase; the head judge rules.");
    cr_assert_eq(alarm_of(r, "illegal_record")->resolved, 1);
    cr_assert_eq(alarm_of(r, "time_round_incomplete")->resolved, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T19_judge_result_at_time)
{
    /* play went on into game round 3; at the end of game round 2 (the one
     * in progress at the call) a led 1 to 0 */
    tour_game g[2] = {timed_game("m1", 1, "1", "b", "a", 2, 3), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    static const tour_mark m[3] = {{500, {0, 0}}, {900, {0, 1}}, {1100, {2, 3}}};
    g[0].rounds = 3;
    g[0].marks = m;
    g[0].nmarks = 3;
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"at_time\""), g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);   /* a, the record's p2 */
    cr_assert_eq(r->results[0].outcome[1], TOUR_LOSS);
    cr_assert_eq(r->results[0].score[0], 1);
    cr_assert_eq(r->results[0].score[1], 0);
    cr_assert_eq(r->results[0].mov[0], 6);
    cr_assert_eq(r->results[0].by, TOUR_BY_JUDGE);
    cr_assert_eq(r->n_alarms, 1);
    cr_assert_str_eq(r->alarms[0].kind, "played_past_time");
    cr_assert_eq(r->alarms[0].resolved, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T19_judge_win_and_draw)
{
    /* no records at all: a win for b with the judge's scores, and a draw
     * with c named the draw win */
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"win\",\"winner\":\"b\",\"scores\":{\"a\":2,\"b\":4}") ","
                             JUDGE("2", "\"result\":\"draw\",\"draw_win\":\"d\""), NULL, 0);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].score[0], 2);   /* T19: the entry's scores */
    cr_assert_eq(r->results[0].score[1], 4);
    cr_assert_eq(r->results[0].mov[0], 3);
    cr_assert_eq(r->results[0].mov[1], 7);
    cr_assert_eq(r->results[1].outcome[0], TOUR_DRAW_LOSS);
    cr_assert_eq(r->results[1].outcome[1], TOUR_DRAW_WIN);
    cr_assert_eq(r->results[1].mov[0], 5);     /* a draw 0 to 0 */
    cr_assert_eq(r->n_alarms, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* default scores: the winner the base, the loser 0; a draw without
     * draw_win is T14's draw */
    r = judged(&t, JUDGE("1", "\"result\":\"win\",\"winner\":\"a\"") "," JUDGE("2", "\"result\":\"draw\""), NULL, 0);
    cr_assert_eq(r->results[0].score[0], 5);
    cr_assert_eq(r->results[0].score[1], 0);
    cr_assert_eq(r->results[0].mov[0], 10);
    const char *want = expected_draw_win("s0", "draw 1 2", "c", "d");
    int k = P(t, want) == r->results[1].player[0] ? 0 : 1;
    cr_assert_eq(r->results[1].outcome[k], TOUR_DRAW_WIN);
    cr_assert_str_eq(r->results[1].draw_seed, "s0");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T19_judge_double_loss)
{
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 4)};
    g[0].status = TOUR_REC_ILLEGAL;
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"double_loss\""), g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_DOUBLE_LOSS);
    cr_assert_eq(r->results[0].outcome[1], TOUR_DOUBLE_LOSS);
    cr_assert_eq(r->results[0].mov[0], 0);
    cr_assert_eq(r->results[0].mov[1], 0);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "a")->points, 0);
    cr_assert_eq(row_of(t, s, "a")->losses, 1);
    cr_assert_eq(row_of(t, s, "b")->losses, 1);
    cr_assert_eq(row_of(t, s, "b")->mov, 0);
    cr_assert_eq(alarm_of(r, "illegal_record")->resolved, 1);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T19_override_raises_an_alarm)
{
    /* the record gives a the win; the head judge gives it to b */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"win\",\"winner\":\"b\""), g, 2);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "judge_overrides_record", "T19", 1, "1", "m1", "a", "b",
                 "hj's result replaces the result the record gives: ruled");
    cr_assert_eq(r->alarms[0].resolved, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T45_judge_result_resolves_an_alarm)
{
    /* an engine result naming no record (two records, no match) settles
     * nothing: the result stays pending and the alarm open */
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m1b", 1, "1", "a", "b", 2, 0, 0)};
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"engine\""), g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_str_eq(r->results[0].why, "the judge's result names no record");
    cr_assert_eq(r->n_alarms, 1);
    cr_assert_eq(r->alarms[0].resolved, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* naming the match settles it */
    r = judged(&t, JUDGE("1", "\"match\":\"m1b\",\"result\":\"engine\""), g, 2);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->alarms[0].resolved, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T23, T25 ---- */

#define FIVE "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"}," \
             "{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"e\",\"name\":\"E\"}]"

Test(tournament, T23_late_entry_gets_unpaired_losses)
{
    /* e enters in round 2: round 1 is an unpaired loss */
    tournament *t = load(HEAD CUSTOM3 FIVE ",\"late_entries\":[{\"player\":\"e\",\"round\":2}],\"rounds\":[" R1
                         ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},"
                         "{\"table\":\"2\",\"p1\":\"e\",\"p2\":\"b\"},{\"bye\":\"d\"}]}]}");
    cr_assert_eq(tournament_structure(t)->registered, 4);   /* T23, T39 */
    tour_game g[4] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "1", "a", "c", 1, 0, 0), game("m4", 2, "2", "e", "b", 1, 0, 0)};
    tour_results *r = results(t, g, 4);
    cr_assert_eq(r->n_alarms, 0);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    const tour_row *e = row_of(t, s, "e"), *b = row_of(t, s, "b");
    cr_assert_eq(e->points, 3);
    cr_assert_eq(e->wins, 1);
    cr_assert_eq(e->losses, 1);
    cr_assert_eq(e->rounds, 2);
    cr_assert_eq(e->mov, 10);        /* the unpaired loss adds MOV 0 */
    cr_assert_eq(e->sos_num, 0);     /* b: 0 points; the unpaired loss has no opponent */
    cr_assert_eq(e->sos_den, 1);
    /* b met a (6 points in 2 rounds) and e (3 points in 2 rounds, the
     * unpaired loss one of them): (3 + 3/2) / 2 = 9/4 */
    cr_assert_eq(b->sos_num, 9);
    cr_assert_eq(b->sos_den, 4);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T23_rejoin_after_drop)
{
    /* d drops after round 1 and rejoins in round 3: round 2 is an unpaired loss */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"drop\"}],"
                         "\"late_entries\":[{\"player\":\"d\",\"round\":3}],\"rounds\":[" R1
                         ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},{\"bye\":\"b\"}]}]}");
    cr_assert_eq(tournament_structure(t)->registered, 4);
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 2, 0, 0),
                      game("m3", 2, "1", "a", "c", 1, 0, 0)};
    tour_results *r = results(t, g, 3);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    const tour_row *d = row_of(t, s, "d");
    cr_assert_eq(d->points, 3);
    cr_assert_eq(d->wins, 1);
    cr_assert_eq(d->losses, 1);
    cr_assert_eq(d->rounds, 2);
    cr_assert_eq(d->dropped, 0);     /* back in round 3 */
    /* c met d (3 points in 2 rounds) and a (6 in 2): (3/2 + 3) / 2 */
    cr_assert_eq(row_of(t, s, "c")->sos_num, 9);
    cr_assert_eq(row_of(t, s, "c")->sos_den, 4);
    tour_standings_destroy(&s);
    /* round 3 pairs d again */
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 2);
    cr_assert_eq(p->pairs[0].player[1] >= 0 && p->pairs[1].player[1] >= 0, 1);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T23_no_rejoin_after_the_swiss_stage)
{
    /* d drops after round 1 and asks back for round 4, the first elimination round */
    cr_assert_eq(refused(HEAD "\"structure\":{\"swiss_rounds\":3,\"cut\":4}," FOUR
                         ",\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"drop\"}],"
                         "\"late_entries\":[{\"player\":\"d\",\"round\":4}]}",
                         "\"late_entries\" has \"d\" rejoin in round 4, after the Swiss stage."), TOUR_EINVAL);
}

Test(tournament, T25_draw_win_is_not_a_win)
{
    /* a wins at table 1; c and d are equal at time: one draw win */
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), timed_game("m2", 1, "2", "c", "d", 1, 1)};
    tour_results *r = results(t, g, 2);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    const char *dw = expected_draw_win("s0", "draw 1 2", "c", "d");
    const tour_row *w = row_of(t, s, dw);
    cr_assert_eq(w->points, 2);
    cr_assert_eq(w->wins, 0);
    cr_assert_eq(w->draws, 1);
    cr_assert_eq(row_of(t, s, "a")->wins, 1);
    cr_assert_eq(s->rows[0].player, P(t, "a"));
    cr_assert_eq(s->rows[1].player, P(t, dw));
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T26 ---- */

/* TOURNAMENT.md's example (the regulations give none for strength of
 * schedule): p met o1 (6 points in 3 rounds) and o2 (3 points in 2 rounds,
 * then dropped), and had a bye in round 3. */
#define SOS_FILE HEAD CUSTOM3 "\"players\":[{\"id\":\"p\",\"name\":\"P\"},{\"id\":\"o1\",\"name\":\"O1\"}," \
    "{\"id\":\"o2\",\"name\":\"O2\"},{\"id\":\"x\",\"name\":\"X\"},{\"id\":\"y\",\"name\":\"Y\"},{\"id\":\"z\",\"name\":\"Z\"}]," \
    "\"drops\":[{\"player\":\"o2\",\"after_round\":2,\"reason\":\"drop\"}],\"rounds\":[" \
    "{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"p\",\"p2\":\"o1\"},{\"table\":\"2\",\"p1\":\"o2\",\"p2\":\"x\"}," \
    "{\"table\":\"3\",\"p1\":\"y\",\"p2\":\"z\"}]}," \
    "{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"p\",\"p2\":\"o2\"},{\"table\":\"2\",\"p1\":\"o1\",\"p2\":\"y\"}," \
    "{\"table\":\"3\",\"p1\":\"x\",\"p2\":\"z\"}]}," \
    "{\"round\":3,\"pairings\":[{\"table\":\"1\",\"p1\":\"o1\",\"p2\":\"z\"},{\"table\":\"2\",\"p1\":\"x\",\"p2\":\"y\"}," \
    "{\"bye\":\"p\"}]}]}"

static void sos_games(tour_game g[8])
{
    g[0] = game("g1", 1, "1", "p", "o1", 1, 0, 0);
    g[1] = game("g2", 1, "2", "o2", "x", 1, 0, 0);
    g[2] = game("g3", 1, "3", "y", "z", 1, 0, 0);
    g[3] = game("g4", 2, "1", "p", "o2", 1, 0, 0);
    g[4] = game("g5", 2, "2", "o1", "y", 1, 0, 0);
    g[5] = game("g6", 2, "3", "x", "z", 1, 0, 0);
    g[6] = game("g7", 3, "1", "o1", "z", 1, 0, 0);
    g[7] = game("g8", 3, "2", "x", "y", 1, 0, 0);
}

Test(tournament, T26_sos_of_the_example)
{
    tournament *t = load(SOS_FILE);
    tour_game g[8];
    sos_games(g);
    tour_results *r = results(t, g, 8);
    cr_assert_eq(r->n_alarms, 0);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 3, &s, NULL, 0), 0);
    const tour_row *p = row_of(t, s, "p");
    cr_assert_eq(row_of(t, s, "o1")->points, 6);
    cr_assert_eq(row_of(t, s, "o1")->rounds, 3);
    cr_assert_eq(row_of(t, s, "o2")->points, 3);
    cr_assert_eq(row_of(t, s, "o2")->rounds, 2);
    cr_assert_eq(row_of(t, s, "o2")->dropped, 1);
    /* (6/3 + 3/2) / 2 = 1.75 */
    cr_assert_eq(p->sos_num, 7);
    cr_assert_eq(p->sos_den, 4);
    jtext o = {0};
    cr_assert_eq(tournament_standings_json(t, s, &o), 0);
    cr_assert_not_null(strstr(o.buf, "\"player\":\"p\",\"name\":\"P\",\"event_points\":9,\"wins\":3,\"draws\":0,"
                                     "\"losses\":0,\"byes\":1,\"rounds\":3,\"mov\":30,\"sos\":\"1.750\","
                                     "\"sos_exact\":\"7/4\""), "%s", o.buf);
    jtext_free(&o);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T26_sos_counts_byes_in_the_opponents_rounds)
{
    tournament *t = load(SOS_FILE);
    tour_game g[8];
    sos_games(g);
    tour_results *r = results(t, g, 8);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 3, &s, NULL, 0), 0);
    /* o1 met p (9 points in 3 rounds, the bye one of them), y (3 in 3) and
     * z (0 in 3): (3 + 1 + 0) / 3 = 4/3, printed 1.333 */
    const tour_row *o1 = row_of(t, s, "o1");
    cr_assert_eq(o1->sos_num, 4);
    cr_assert_eq(o1->sos_den, 3);
    /* after round 2: p had 6 points in 2 rounds, y 3 in 2: (3 + 3/2) / 2 */
    tour_standings_destroy(&s);
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "o1")->sos_num, 9);
    cr_assert_eq(row_of(t, s, "o1")->sos_den, 4);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T28, T29, T32 ---- */

Test(tournament, T28_random_tiebreak_is_stable)
{
    /* two intentional draws: all four tied on points, wins, MOV (5) and SoS
     * (0): the order is the `standings 1` shuffle of a, b, c, d */
    const char *json = HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"results_seed\":\"rs1\",\"pairings\":["
                       "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\",\"intentional_draw\":true},"
                       "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\",\"intentional_draw\":true}]}]}";
    tournament *t = load(json);
    int want[4] = {P(t, "a"), P(t, "b"), P(t, "c"), P(t, "d")};
    tour_stream st;
    tour_stream_init(&st, "rs1", "standings 1");
    tour_shuffle(&st, want, 4);
    tour_results *r = results(t, NULL, 0);
    for (int again = 0; again < 2; again++) {
        tour_standings *s;
        cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
        cr_assert_str_eq(s->seed, "rs1");
        cr_assert_str_eq(s->label, "standings 1");
        for (int i = 0; i < 4; i++) {
            cr_assert_eq(s->rows[i].player, want[i], "place %d", i + 1);
            cr_assert_eq(s->rows[i].random_place, (uint32_t)i + 1);
            cr_assert_eq(s->rows[i].mov, 5);
        }
        tour_standings_destroy(&s);
    }
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T29_odd_first_round_bye_is_random)
{
    tournament *t = load(HEAD CUSTOM3 FIVE "}");
    int want[5] = {P(t, "a"), P(t, "b"), P(t, "c"), P(t, "d"), P(t, "e")};
    tour_stream st;
    tour_stream_init(&st, "s0", "pair 1");
    tour_shuffle(&st, want, 5);
    tour_results *r = results(t, NULL, 0);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 1, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 3);
    cr_assert_str_eq(p->labels, "pair 1");
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(p->pairs[i].player[0], want[2 * i]);
        cr_assert_eq(p->pairs[i].player[1], want[2 * i + 1]);
        cr_assert_eq(p->pairs[i].game, 0);
    }
    cr_assert_str_eq(p->pairs[0].table, "1");
    cr_assert_str_eq(p->pairs[1].table, "2");
    cr_assert_eq(p->pairs[2].player[0], want[4]);   /* the last one has the bye */
    cr_assert_eq(p->pairs[2].player[1], -1);
    cr_assert_str_eq(p->pairs[2].table, "");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

#define FIVE_R1 "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"}," \
    "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},{\"bye\":\"e\"}]}"

Test(tournament, T32_bye_goes_to_the_lowest_group)
{
    /* after round 1: a, c and e (bye) 1-0; b and d 0-1.  The bye of round 2
     * is drawn among b and d with `bye 2` */
    tournament *t = load(HEAD CUSTOM3 FIVE "," FIVE_R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    tour_results *r = results(t, g, 2);
    int low[2] = {P(t, "b"), P(t, "d")};
    tour_stream st;
    tour_stream_init(&st, "s0", "bye 2");
    tour_shuffle(&st, low, 2);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_str_eq(p->labels, "pair 2, bye 2");
    cr_assert_eq(p->n_pairs, 3);
    cr_assert_eq(p->pairs[2].player[0], low[0]);
    cr_assert_eq(p->pairs[2].player[1], -1);
    cr_assert_eq(p->rematches, 0);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* Round 2 published with e's second bye, while a (same group) and b, d
 * (lower) had none: its results, with *t the tournament. */
static tour_results *second_bye(tournament **t)
{
    *t = load(HEAD CUSTOM3 FIVE "," FIVE_R1 ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\","
              "\"p2\":\"c\"},{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"},{\"bye\":\"e\"}]}]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    return results(*t, g, 2);
}

Test(tournament, T32_no_second_bye_while_avoidable)
{
    tournament *t;
    tour_results *r = second_bye(&t);
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "bye_twice", "T32", 2, "", "", "e", "a",
                 "e has a second bye in round 2 while a, of the same or a lower group, had none.");
    cr_assert_eq(r->results[5].outcome[0], TOUR_BYE);   /* the alarm changes no result */
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T32_bye_twice_names_both_players)
{
    /* the alarm's players are the two its sentence names: the player with
     * the second bye and the one of the same or a lower group who had none;
     * its JSON list holds no empty entry */
    tournament *t;
    tour_results *r = second_bye(&t);
    cr_assert_eq(r->n_alarms, 1);
    jtext o = {0};
    cr_assert_eq(tournament_alarms_json(t, r, &o), 0);
    cr_expect_not_null(strstr(o.buf, "\"alarm\":\"bye_twice\""), "%s", o.buf);
    cr_expect_not_null(strstr(o.buf, "\"players\":[\"e\",\"a\"]"), "%s", o.buf);
    cr_expect_null(strstr(o.buf, "\"\"]"), "an empty entry in %s", o.buf);
    jtext_free(&o);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T35-T38 ---- */

#define SIX "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"}," \
            "{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"e\",\"name\":\"E\"},{\"id\":\"f\",\"name\":\"F\"}]"
#define ALL_ELIM "\"structure\":{\"swiss_rounds\":0,\"cut\":\"all\"},"

/* T35 computed here: byes first, then pairings, shuffled into games. */
static void expect_elim_start(const tournament *t, const tour_pairings *p, const char *const *ids, size_t n)
{
    int list[8], items[8];
    size_t nb = 1, ni = 0;
    while (nb < n)
        nb *= 2;
    nb -= n;
    for (size_t i = 0; i < n; i++)
        list[i] = P(t, ids[i]);
    tour_stream st;
    tour_stream_init(&st, "s0", "elimination byes");
    tour_shuffle(&st, list, n);
    for (size_t i = 0; i < nb + (n - nb) / 2; i++)
        items[ni++] = (int)i;
    tour_stream_init(&st, "s0", "elimination games");
    tour_shuffle(&st, items, ni);
    cr_assert_eq(p->n_pairs, ni);
    cr_assert_str_eq(p->labels, "elimination byes, elimination games");
    for (size_t k = 0; k < ni; k++) {
        size_t it = (size_t)items[k];
        const tour_pair *x = &p->pairs[k];
        cr_assert_eq(x->game, k + 1);
        if (it < nb) {
            cr_assert_eq(x->player[0], list[it], "game %zu", k + 1);
            cr_assert_eq(x->player[1], -1);
            cr_assert_str_eq(x->table, "");
        } else {
            size_t at = nb + 2 * (it - nb);
            cr_assert_eq(x->player[0], list[at], "game %zu", k + 1);
            cr_assert_eq(x->player[1], list[at + 1]);
            char tb[16];
            snprintf(tb, sizeof tb, "%zu", k + 1);
            cr_assert_str_eq(x->table, tb);
        }
    }
}

Test(tournament, T35_six_players_get_two_byes)
{
    tournament *t = load(HEAD ALL_ELIM SIX "}");
    cr_assert_eq(tournament_structure(t)->elimination_rounds, 3);
    cr_assert_eq(tournament_structure(t)->cut, 6);
    tour_results *r = results(t, NULL, 0);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 1, &p, NULL, 0), 0);
    cr_assert_eq(p->elimination, 1);
    size_t byes = 0;
    for (size_t i = 0; i < p->n_pairs; i++)
        byes += p->pairs[i].player[1] < 0;
    cr_assert_eq(byes, 2);
    static const char *const ids[] = {"a", "b", "c", "d", "e", "f"};
    expect_elim_start(t, p, ids, 6);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T35_game_numbers_are_drawn)
{
    /* four players: no bye; the two draws still give pairings and games */
    tournament *t = load(HEAD ALL_ELIM FOUR "}");
    tour_results *r = results(t, NULL, 0);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 1, &p, NULL, 0), 0);
    static const char *const ids[] = {"a", "b", "c", "d"};
    expect_elim_start(t, p, ids, 4);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* The TEN event after its cut to 8 (seeds w1..w5, steven, l7, l8), with
 * round 2 published as T34 pairs it, and `more` after it. */
static tournament *top8(const char *extra, const char *more)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s%s%s", HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8}," TEN, extra,
             ",\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"l10\"},"
             "{\"table\":\"2\",\"p1\":\"w2\",\"p2\":\"eve\"},{\"table\":\"3\",\"p1\":\"w3\",\"p2\":\"l8\"},"
             "{\"table\":\"4\",\"p1\":\"w4\",\"p2\":\"l7\"},{\"table\":\"5\",\"p1\":\"w5\",\"p2\":\"steven\"}]},"
             "{\"round\":2,\"time_called\":1000,\"pairings\":[{\"game\":1,\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"l8\"},"
             "{\"game\":2,\"table\":\"2\",\"p1\":\"w2\",\"p2\":\"l7\"},{\"game\":3,\"table\":\"3\",\"p1\":\"w3\",\"p2\":\"steven\"},"
             "{\"game\":4,\"table\":\"4\",\"p1\":\"w4\",\"p2\":\"w5\"}]}",
             more);
    return load(buf);
}

/* Round 1 as ten_games; round 2: w1, l7, w3 and w5 win. */
static void top8_games(tour_game g[9])
{
    ten_games(g);
    g[5] = game("e1", 2, "1", "w1", "l8", 1, 0, 0);
    g[6] = game("e2", 2, "2", "w2", "l7", 2, 0, 0);
    g[7] = game("e3", 2, "3", "w3", "steven", 1, 0, 0);
    g[8] = game("e4", 2, "4", "w4", "w5", 2, 0, 0);
}

static void expect_pair(const tournament *t, const tour_pair *x, uint32_t game, const char *a, const char *b)
{
    cr_assert_eq(x->game, game);
    cr_assert_eq(x->player[0], P(t, a), "game %u", game);
    cr_assert_eq(x->player[1], b ? P(t, b) : -1, "game %u", game);
}

Test(tournament, T36_top8_second_round_pairs_1_with_4_and_2_with_3)
{
    tournament *t = top8("", "]}");
    tour_game g[9];
    top8_games(g);
    tour_results *r = results(t, g, 9);
    cr_assert_eq(r->n_alarms, 0);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 2);
    cr_assert_eq(p->elimination, 1);
    expect_pair(t, &p->pairs[0], 1, "w1", "w5");
    expect_pair(t, &p->pairs[1], 2, "l7", "w3");
    cr_assert_str_eq(p->pairs[1].table, "2");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    /* a game of round 2 without a winner stops the pairing, named */
    g[8].finished = 0;
    g[8].winner = 0;
    g[8].ends_round = 0;
    r = results(t, g, 9);
    char err[256];
    cr_assert_eq(tournament_pair(t, r, 3, &p, err, sizeof err), TOUR_EPENDING);
    cr_assert_str_eq(err, "Round 2 table 4 has no result yet (stopped inside a game round at time).");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T37_drop_between_rounds_gives_the_next_opponent_a_bye)
{
    /* l7 won Game #2 and drops: w3, the winner of Game #3, has a bye */
    tournament *t = top8(",\"drops\":[{\"player\":\"l7\",\"after_round\":2,\"reason\":\"drop\"}]", "]}");
    tour_game g[9];
    top8_games(g);
    tour_results *r = results(t, g, 9);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    expect_pair(t, &p->pairs[0], 1, "w1", "w5");
    expect_pair(t, &p->pairs[1], 2, "w3", NULL);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* a double loss in Game #1 leaves no winner: w5 has the bye */
    t = top8("", "],\"judge_results\":[{\"round\":2,\"table\":\"1\",\"result\":\"double_loss\",\"judge\":\"hj\","
                 "\"text\":\"both\"}]}");
    r = results(t, g, 9);
    cr_assert_eq(r->results[5].outcome[0], TOUR_DOUBLE_LOSS);
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    expect_pair(t, &p->pairs[0], 1, "w5", NULL);
    expect_pair(t, &p->pairs[1], 2, "l7", "w3");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T37_draw_win_advances)
{
    /* Game #4 equal at time: the draw win (label "draw 2 4") advances */
    tournament *t = top8("", "]}");
    tour_game g[9];
    top8_games(g);
    g[8] = timed_game("e4", 2, "4", "w4", "w5", 3, 3);
    tour_results *r = results(t, g, 9);
    const char *dw = expected_draw_win("s0", "draw 2 4", "w4", "w5");
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    expect_pair(t, &p->pairs[0], 1, "w1", dw);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T38_final_order_after_elimination)
{
    tournament *t = top8("", ",{\"round\":3,\"pairings\":[{\"game\":1,\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"w5\"},"
                             "{\"game\":2,\"table\":\"2\",\"p1\":\"l7\",\"p2\":\"w3\"}]},"
                             "{\"round\":4,\"pairings\":[{\"game\":1,\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"w3\"}]}]}");
    tour_game g[12];
    top8_games(g);
    g[9] = game("f1", 3, "1", "w1", "w5", 1, 0, 0);
    g[10] = game("f2", 3, "2", "l7", "w3", 2, 0, 0);
    /* the final not played yet: provisional */
    tour_results *r = results(t, g, 11);
    tour_standings *s;
    cr_assert_eq(tournament_final(t, r, &s, NULL, 0), 0);
    cr_assert_eq(s->final, 1);
    cr_assert_eq(s->provisional, 1);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    g[11] = game("f3", 4, "1", "w3", "w1", 1, 0, 0);
    r = results(t, g, 12);
    cr_assert_eq(tournament_final(t, r, &s, NULL, 0), 0);
    cr_assert_eq(s->provisional, 0);
    cr_assert_eq(s->after_round, 4);
    /* the winner, the finalist, round 3's losers, round 2's, then the rest,
     * each group in Swiss order */
    static const char *const want[] = {"w3", "w1", "w5", "l7", "w2", "w4", "steven", "l8", "eve", "l10"};
    static const uint32_t out[] = {0, 4, 3, 3, 2, 2, 2, 2, 0, 0};
    cr_assert_eq(s->n_rows, 10);
    for (size_t i = 0; i < 10; i++) {
        cr_assert_eq(s->rows[i].player, P(t, want[i]), "place %zu", i + 1);
        cr_assert_eq(s->rows[i].place, i + 1);
        cr_assert_eq(s->rows[i].eliminated_in, out[i], "place %zu", i + 1);
    }
    cr_assert_eq(row_of(t, s, "w3")->points, 3);   /* Swiss event points kept */
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T38_winner_without_cut)
{
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":0}," FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 2), game("m2", 1, "2", "c", "d", 2, 1, 0)};
    tour_results *r = results(t, g, 2);
    tour_standings *s;
    cr_assert_eq(tournament_final(t, r, &s, NULL, 0), 0);
    cr_assert_eq(s->final, 1);
    cr_assert_eq(s->provisional, 0);
    cr_assert_eq(s->after_round, 1);
    /* all on 3 or 0 points and one win or none: d (MOV 9), a (8), b (2), c (1) */
    cr_assert_eq(s->rows[0].player, P(t, "d"));
    cr_assert_eq(s->rows[1].player, P(t, "a"));
    cr_assert_eq(s->rows[2].player, P(t, "b"));
    cr_assert_eq(s->rows[3].player, P(t, "c"));
    cr_assert_eq(s->rows[0].eliminated_in, 0);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T41, T42, T43 ---- */

Test(tournament, T41_round_minutes_is_informational)
{
    /* a 30-minute round, long over by the records' clocks, with no time
     * call: the unfinished record is still a game in progress */
    tournament *t = load(HEAD CUSTOM3 "\"round_minutes\":30," FOUR ",\"rounds\":[" R1 "]}");
    cr_assert_eq(tournament_round_minutes(t), 30);
    tour_game g[1] = {timed_game("m1", 1, "1", "a", "b", 3, 0)};
    static const tour_mark m[2] = {{1000, {0, 0}}, {1000 + 3600 * 1000, {3, 0}}};
    g[0].marks = m;
    g[0].nmarks = 2;
    g[0].rounds = 2;
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->results[0].live, 1);
    cr_assert_eq(r->n_alarms, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    t = load(HEAD CUSTOM3 FOUR "}");
    cr_assert_eq(tournament_round_minutes(t), 0);
    tournament_destroy(&t);
}

Test(tournament, T41_the_round_clock_is_read)
{
    /* the keys the organiser's commands write (arbiter-tournament(5)) */
    tournament *t = load(HEAD CUSTOM3 "\"round_minutes\":30,\"timezone\":\"Europe/Paris\"," FOUR
                         ",\"rounds\":[{\"round\":1,\"started\":1767283200000,\"pairings\":[]}]}");
    cr_assert_str_eq(tournament_timezone(t), "Europe/Paris");
    cr_assert_eq(tournament_round_started(t, 1), 1767283200000ULL);
    cr_assert_eq(tournament_round_started(t, 2), 0);
    tournament_destroy(&t);
    t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    cr_assert_null(tournament_timezone(t));
    cr_assert_eq(tournament_round_started(t, 1), 0);
    tournament_destroy(&t);
    refused(HEAD CUSTOM3 "\"timezone\":7," FOUR "}", "\"timezone\" must be a string.");
    refused(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"started\":-1,\"pairings\":[]}]}",
            "\"rounds[0].started\" must be an integer from 0 to 9223372036854775807.");
}

Test(tournament, T40_a_table_waits_for_its_players_while_no_round_is_listed)
{
    /* registration: two players, no row of the Basic table yet -- read;
     * once a round is listed the row is needed, and the file refused */
    static const char two[] = "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"}]";
    tournament *t = load(HEAD "\"structure\":{\"table\":\"basic\"}," "\"players\":[]}");
    cr_assert_null(tournament_structure(t)->row);
    tournament_destroy(&t);
    t = load(HEAD "\"structure\":{\"table\":\"basic\"},\"players\":[{\"id\":\"a\",\"name\":\"A\"},"
                  "{\"id\":\"b\",\"name\":\"B\"}]}");
    cr_assert_null(tournament_structure(t)->row);
    tournament_destroy(&t);
    char json[512];
    snprintf(json, sizeof json, "%s\"structure\":{\"table\":\"basic\"},%s,\"rounds\":[{\"round\":1,\"pairings\":[]}]}",
             HEAD, two);
    refused(json, "\"structure\" has no row for 2 registered players: give a custom structure.");
}

Test(tournament, T42_card_order_does_not_matter)
{
    static const char d1[] = "{\"monsters\":[\"m-a\",\"m-b\"],\"supports\":[\"s-a\",\"s-b\"]}";
    static const char d2[] = "{\"supports\":[\"s-b\",\"s-a\"],\"reserve\":[],\"monsters\":[\"m-b\",\"m-a\"]}";
    static const char d3[] = "{\"monsters\":[\"m-a\",\"m-c\"],\"supports\":[\"s-a\",\"s-b\"]}";
    static const char d4[] = "{\"monsters\":[\"m-a\",\"m-b\"],\"supports\":[\"s-a\"],\"reserve\":[\"s-b\"]}";
    uint8_t h1[TOUR_HASH], h2[TOUR_HASH], h3[TOUR_HASH], h4[TOUR_HASH];
    cr_assert_eq(tournament_deck_hash(d1, strlen(d1), h1), 0);
    cr_assert_eq(tournament_deck_hash(d2, strlen(d2), h2), 0);
    cr_assert_eq(tournament_deck_hash(d3, strlen(d3), h3), 0);
    cr_assert_eq(tournament_deck_hash(d4, strlen(d4), h4), 0);
    cr_assert_eq(memcmp(h1, h2, TOUR_HASH), 0);
    cr_assert_neq(memcmp(h1, h3, TOUR_HASH), 0);
    cr_assert_neq(memcmp(h1, h4, TOUR_HASH), 0);   /* a card moved to the reserve */
    cr_assert_eq(tournament_deck_hash("{\"cards\":[]}", 12, h1), TOUR_EINVAL);
    cr_assert_eq(tournament_deck_hash("{\"main\":[1]}", 12, h1), TOUR_EINVAL);
}

Test(tournament, T42_changed_decklist_raises_an_alarm)
{
    /* a registered a deck; b registered none */
    tournament *t = load(HEAD CUSTOM3 "\"players\":[{\"id\":\"a\",\"name\":\"A\",\"deck\":{\"main\":[\"x\",\"y\"]}},"
                         "{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"},{\"id\":\"d\",\"name\":\"D\"}],"
                         "\"rounds\":[" R1 ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},"
                         "{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"}]}]}");
    uint8_t reg[TOUR_HASH], other[TOUR_HASH];
    cr_assert_eq(tournament_deck_hash("{\"main\":[\"y\",\"x\"]}", strlen("{\"main\":[\"y\",\"x\"]}"), reg), 0);
    cr_assert_eq(tournament_deck_hash("{\"main\":[\"y\",\"z\"]}", strlen("{\"main\":[\"y\",\"z\"]}"), other), 0);
    tour_game g[4] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "1", "c", "a", 1, 0, 0), game("m4", 2, "2", "b", "d", 1, 0, 0)};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++) {
            g[i].has_deck[k] = 1;
            memcpy(g[i].deck[k], reg, TOUR_HASH);
        }
    memcpy(g[2].deck[1], other, TOUR_HASH);   /* a, round 2 */
    memcpy(g[3].deck[0], other, TOUR_HASH);   /* b, round 2 */
    tour_results *r = results(t, g, 4);
    cr_assert_eq(r->deck_check_skipped, 0);
    cr_assert_eq(count_alarms(r, "deck_changed"), 2);
    expect_alarm(&r->alarms[0], "deck_changed", "T42", 2, "1", "m3", "a", "",
                 "a's decklist in round 2 differs from the one registered.");
    expect_alarm(&r->alarms[1], "deck_changed", "T42", 2, "2", "m4", "b", "",
                 "b's decklist in round 2 differs from the one in round 1.");
    cr_assert_eq(r->results[2].outcome[0], TOUR_LOSS);   /* a lost to c: the alarm changes no result */
    tour_results_destroy(&r);
    /* T42: the public view hides decklists: no check, and it says so */
    for (int i = 0; i < 4; i++)
        g[i].has_deck[0] = g[i].has_deck[1] = 0;
    r = results(t, g, 4);
    cr_assert_eq(r->deck_check_skipped, 1);
    cr_assert_eq(r->n_alarms, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T43_other_lever_raises_rules_differ)
{
    tournament *t = load(HEAD "\"cards\":\"core@1.1.0\",\"rules\":{\"chain_cap\":3}," CUSTOM3 FOUR
                         ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"}]}]}");
    cr_assert_str_eq(tournament_rules_json(t), "{\"chain_cap\":3}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "1", "a", "c", 1, 0, 0)};
    g[0].rules_differ = "chain_cap is 2, the event's 3";
    g[1].cards = "core@1.0.0";
    g[2].format = "advanced";
    tour_results *r = results(t, g, 3);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(r->results[i].outcome[0], TOUR_PENDING, "result %d", i);
    cr_assert_eq(r->n_alarms, 3);
    expect_alarm(&r->alarms[0], "rules_differ", "T43", 1, "1", "m1", "a", "b",
                 "Record m1: its rules differ from the event's (chain_cap is 2, the event's 3).");
    cr_assert_str_eq(r->alarms[1].text, "Record m2: its rules differ from the event's (card database).");
    cr_assert_str_eq(r->alarms[2].text, "Record m3: its rules differ from the event's (format).");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T22_record_of_a_dropped_player_raises_one_alarm)
{
    /* d left before round 1; a record of c and d in round 2, which pairs
     * nobody yet: d was not in the tournament, so no pairing could hold them
     * -- one alarm, dropped_paired, not unpaired_game as well */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"drops\":[{\"player\":\"d\",\"after_round\":0,\"reason\":\"drop\"}],"
                         "\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m5", 2, "1", "c", "d", 1, 0, 0)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->n_alarms, 1, "%zu alarms", r->n_alarms);
    expect_alarm(&r->alarms[0], "dropped_paired", "T22", 2, "1", "m5", "c", "d",
                 "Record m5 has d playing in round 2, when they were not in the tournament.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T45 ---- */

Test(tournament, T45_each_alarm_names_round_table_match_and_players)
{
    /* d left before round 1 (c has a bye) yet a record of c and d exists;
     * a and b played at table 7; one record has no round; one names "zed" */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"drops\":[{\"player\":\"d\",\"after_round\":0,\"reason\":\"drop\"}],"
                         "\"rounds\":[" R1 "]}");
    tour_game g[4] = {game("m1", 1, "7", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 0, "1", "a", "b", 1, 0, 0), game("m4", 1, "1", "a", "zed", 1, 0, 0)};
    g[2].round = 0;
    tour_results *r = results(t, g, 4);
    cr_assert_eq(r->n_alarms, 4);
    expect_alarm(&r->alarms[0], "table_differs", "T2", 1, "1", "m1", "a", "b",
                 "Record m1 of the pairing at table 1 was played at table 7.");
    expect_alarm(&r->alarms[1], "dropped_paired", "T22", 1, "2", "m2", "c", "d",
                 "Record m2 has d playing in round 1, when they were not in the tournament.");
    expect_alarm(&r->alarms[2], "unplaced", "T2", 0, "1", "m3", "a", "b",
                 "Record m3 has no round or table of this tournament's structure.");
    expect_alarm(&r->alarms[3], "unknown_player", "T2", 1, "1", "m4", "a", "zed",
                 "Record m4 names \"zed\", who is not a player of the tournament.");
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(r->alarms[i].resolved, 0);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);    /* m1 still counts */
    cr_assert_eq(r->results[1].outcome[0], TOUR_BYE);    /* T22 */
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- the outputs ---- */

/* Three players, one with a comma and a quote in her name; round 1: a
 * beats b 5 to 2 (a mismatch whose sentence has a comma and quotes, and a
 * report of a draw), c has the bye. */
#define OUT_FILE HEAD "\"structure\":{\"swiss_rounds\":2,\"cut\":0}," \
    "\"players\":[{\"id\":\"a\",\"name\":\"Ann, \\\"Ace\\\"\"},{\"id\":\"b\",\"name\":\"Bo\"},{\"id\":\"c\",\"name\":\"Cy\"}]," \
    "\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"bye\":\"c\"}]," \
    "\"reports\":[{\"table\":\"1\",\"draw\":true}]}]}"

static tour_results *out_results(tournament **t)
{
    *t = load(OUT_FILE);
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 1, 0, 2)};
    g[0].status = TOUR_REC_MISMATCH;
    g[0].first_bad = "#4 claim: \"b\", not a";
    return results(*t, g, 1);
}

#define ROW_A "\"player\":\"a\",\"name\":\"Ann, \\\"Ace\\\"\",\"event_points\":3,\"wins\":1,\"draws\":0,\"losses\":0," \
    "\"byes\":0,\"rounds\":1,\"mov\":8,\"sos\":\"0.000\",\"sos_exact\":\"0/1\",\"dropped\":false,\"eliminated_in\":0}"

Test(tournament, T24_standings_json_and_csv)
{
    tournament *t;
    tour_results *r = out_results(&t);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    jtext o = {0};
    cr_assert_eq(tournament_standings_json(t, s, &o), 0);
    cr_assert_str_eq(o.buf,
        "{\"version\":1,\"tournament\":\"cup\",\"after_round\":1,\"final\":false,\"provisional\":false,"
        "\"seed\":\"s0\",\"seed_made\":false,\"label\":\"standings 1\",\"structure\":{\"kind\":\"custom\","
        "\"swiss_rounds\":2,\"cut\":0,\"row\":null,\"reconstructed\":false,\"fell_back\":false},\"standings\":["
        "{\"place\":1,\"player\":\"c\",\"name\":\"Cy\",\"event_points\":3,\"wins\":1,\"draws\":0,\"losses\":0,"
        "\"byes\":1,\"rounds\":1,\"mov\":10,\"sos\":\"0.000\",\"sos_exact\":\"0/1\",\"dropped\":false,"
        "\"eliminated_in\":0},{\"place\":2," ROW_A ",{\"place\":3,\"player\":\"b\",\"name\":\"Bo\","
        "\"event_points\":0,\"wins\":0,\"draws\":0,\"losses\":1,\"byes\":0,\"rounds\":1,\"mov\":2,\"sos\":\"3.000\","
        "\"sos_exact\":\"3/1\",\"dropped\":false,\"eliminated_in\":0}],\"pending\":[]}");
    jtext_reset(&o);
    cr_assert_eq(tournament_standings_csv(t, s, &o), 0);
    cr_assert_str_eq(o.buf,
        "place,player,name,event_points,wins,draws,losses,byes,rounds,mov,sos,dropped,eliminated_in\r\n"
        "1,c,Cy,3,1,0,0,1,1,10,0.000,false,0\r\n"
        "2,a,\"Ann, \"\"Ace\"\"\",3,1,0,0,0,1,8,0.000,false,0\r\n"
        "3,b,Bo,0,0,0,1,0,1,2,3.000,false,0\r\n");
    jtext_free(&o);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T24_pending_games_are_listed_in_the_json)
{
    tournament *t = load(OUT_FILE);
    tour_results *r = results(t, NULL, 0);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    jtext o = {0};
    cr_assert_eq(tournament_standings_json(t, s, &o), 0);
    cr_assert_not_null(strstr(o.buf, ",\"provisional\":true,"));
    cr_assert_not_null(strstr(o.buf, "],\"pending\":[{\"round\":1,\"table\":\"1\",\"match\":\"\",\"why\":\"no record\"}]}"),
                       "%s", o.buf);
    jtext_free(&o);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T45_alarms_json_and_csv)
{
    tournament *t;
    tour_results *r = out_results(&t);
    jtext o = {0};
    cr_assert_eq(tournament_alarms_json(t, r, &o), 0);
    cr_assert_str_eq(o.buf,
        "{\"version\":1,\"tournament\":\"cup\",\"alarms\":["
        "{\"alarm\":\"mismatch\",\"ruling\":\"T18\",\"round\":1,\"table\":\"1\",\"match\":\"m1\","
        "\"players\":[\"a\",\"b\"],\"text\":\"Record m1: #4 claim: \\\"b\\\", not a\",\"resolved\":false},"
        "{\"alarm\":\"report_differs\",\"ruling\":\"T3\",\"round\":1,\"table\":\"1\",\"match\":\"m1\","
        "\"players\":[\"a\",\"b\"],\"text\":\"Table 1 reported a draw; the verified result is a's win.\","
        "\"resolved\":false}]}");
    jtext_reset(&o);
    cr_assert_eq(tournament_alarms_csv(t, r, &o), 0);
    cr_assert_str_eq(o.buf,
        "alarm,ruling,round,table,match,p1,p2,text,resolved\r\n"
        "mismatch,T18,1,1,m1,a,b,\"Record m1: #4 claim: \"\"b\"\", not a\",false\r\n"
        "report_differs,T3,1,1,m1,a,b,Table 1 reported a draw; the verified result is a's win.,false\r\n");
    jtext_free(&o);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T30_pairings_json_and_csv)
{
    /* round 2: b, alone in the lowest group, has the bye; a and c meet, in
     * the order of the `pair 2` shuffle of their group */
    tournament *t;
    tour_results *r = out_results(&t);
    int grp[2] = {P(t, "a"), P(t, "c")};
    tour_stream st;
    tour_stream_init(&st, "s0", "pair 2");
    tour_shuffle(&st, grp, 2);
    const char *x = tournament_player(t, (size_t)grp[0])->id, *y = tournament_player(t, (size_t)grp[1])->id;
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    jtext o = {0};
    char want[512];
    cr_assert_eq(tournament_pairings_json(t, p, &o), 0);
    snprintf(want, sizeof want,
             "{\"version\":1,\"tournament\":\"cup\",\"round\":2,\"stage\":\"swiss\",\"seed\":\"s0\",\"seed_made\":false,"
             "\"labels\":\"pair 2, bye 2\",\"rematches\":0,\"structure\":{\"kind\":\"custom\",\"swiss_rounds\":2,\"cut\":0,"
             "\"row\":null,\"reconstructed\":false,\"fell_back\":false},\"pairings\":[{\"table\":\"1\",\"p1\":\"%s\",\"p2\":\"%s\"},"
             "{\"bye\":\"b\"}]}", x, y);
    cr_assert_str_eq(o.buf, want);
    jtext_reset(&o);
    cr_assert_eq(tournament_pairings_csv(t, p, &o), 0);
    snprintf(want, sizeof want, "round,table,game,p1,p2\r\n2,1,,%s,%s\r\n2,,,b,\r\n", x, y);
    cr_assert_str_eq(o.buf, want);
    jtext_free(&o);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T36_pairings_json_and_csv_carry_the_game)
{
    tournament *t = top8("", "]}");
    tour_game g[9];
    top8_games(g);
    tour_results *r = results(t, g, 9);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    jtext o = {0};
    cr_assert_eq(tournament_pairings_json(t, p, &o), 0);
    cr_assert_str_eq(o.buf,
        "{\"version\":1,\"tournament\":\"cup\",\"round\":3,\"stage\":\"elimination\",\"seed\":\"s0\",\"seed_made\":false,"
        "\"labels\":\"\",\"rematches\":0,\"structure\":{\"kind\":\"custom\",\"swiss_rounds\":1,\"cut\":8,\"row\":null,"
        "\"reconstructed\":false,\"fell_back\":false},\"pairings\":[{\"table\":\"1\",\"p1\":\"w1\",\"p2\":\"w5\",\"game\":1},"
        "{\"table\":\"2\",\"p1\":\"l7\",\"p2\":\"w3\",\"game\":2}]}");
    jtext_reset(&o);
    cr_assert_eq(tournament_pairings_csv(t, p, &o), 0);
    cr_assert_str_eq(o.buf, "round,table,game,p1,p2\r\n3,1,1,w1,w5\r\n3,2,2,l7,w3\r\n");
    jtext_free(&o);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T15 ---- */

Test(tournament, T15_intentional_draw_is_zero_points_and_a_draw)
{
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\","
                         "\"p2\":\"b\",\"intentional_draw\":true},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    tour_results *r = results(t, g + 1, 1);
    cr_assert_eq(r->n_alarms, 0);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    const tour_row *a = row_of(t, s, "a");
    cr_assert_eq(a->points, 0);
    cr_assert_eq(a->draws, 1);
    cr_assert_eq(a->wins, 0);
    cr_assert_eq(a->mov, 5);
    cr_assert_eq(a->rounds, 1);
    cr_assert_eq(a->sos_num, 0);   /* b: 0 points in 1 round, an opponent all the same */
    cr_assert_eq(row_of(t, s, "c")->sos_num, 0);
    cr_assert_eq(row_of(t, s, "d")->sos_num, 3);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    /* a record of that pairing: an alarm; the intentional draw stands */
    r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_INTENTIONAL_DRAW);
    cr_assert_eq(r->results[0].outcome[1], TOUR_INTENTIONAL_DRAW);
    cr_assert_eq(r->n_alarms, 1);
    expect_alarm(&r->alarms[0], "intentional_draw_played", "T15", 1, "1", "m1", "a", "b",
                 "The pairing was entered as an intentional draw, and record m1 was played.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ==== the tests TOURNAMENT.md named "(to write)" ==== */

/* ---- T1, T2, T3 ---- */

Test(tournament, T1_one_record_is_one_game)
{
    /* one record per pairing: each is that pairing's game, counted once.  A
     * record of another tournament ("Cup", not "cup") of the same two
     * players is no second record of it (T2: byte for byte). */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 2, 3, 1), game("m2", 1, "2", "d", "c", 1, 0, 4),
                      game("x1", 1, "1", "a", "b", 1, 0, 0)};
    g[2].tournament = "Cup";
    tour_results *r = results(t, g, 3);
    cr_assert_eq(r->n_results, 2);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_str_eq(r->results[0].match, "m1");
    cr_assert_eq(r->results[0].by, TOUR_BY_ENGINE);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].score[0], 3);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_str_eq(r->results[1].match, "m2");
    cr_assert_eq(r->results[1].outcome[0], TOUR_LOSS);   /* c, the pairing's first, lost to d */
    cr_assert_eq(r->results[1].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[1].score[0], 4);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
    for (size_t i = 0; i < s->n_rows; i++)
        cr_assert_eq(s->rows[i].rounds, 1, "place %zu", i + 1);   /* one game each, not two */
    cr_assert_eq(row_of(t, s, "b")->points, 3);
    cr_assert_eq(row_of(t, s, "a")->points, 0);
    cr_assert_eq(s->provisional, 0);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T2_record_placed_by_its_event)
{
    /* round 1 a-b, c-d; round 2 a-c, b-d (of 3 Swiss rounds, no cut) */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"}]}]}");
    tour_game g[8] = {game("m1", 1, "1", "a", "b", 1, 0, 0),  game("m2", 1, "2", "c", "d", 1, 0, 0),
                      /* round 2's a-c, played at table 9: still its game */
                      game("m3", 2, "9", "c", "a", 1, 0, 2),
                      /* no table; round 0; round 4 (the structure has 3) */
                      game("u1", 2, NULL, "b", "d", 1, 0, 0), game("u2", 0, "2", "b", "d", 1, 0, 0),
                      game("u3", 4, "1", "b", "d", 1, 0, 0),
                      /* no event.tournament; another tournament: ignored */
                      game("o1", 2, "2", "b", "d", 1, 0, 0), game("o2", 2, "2", "b", "d", 1, 0, 0)};
    g[6].tournament = NULL;
    g[7].tournament = "cup-2";
    tour_results *r = results(t, g, 8);
    cr_assert_eq(r->results[2].outcome[0], TOUR_LOSS);   /* a, the pairing's p1, lost to c */
    cr_assert_eq(r->results[2].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[2].score[0], 2);
    cr_assert_str_eq(r->results[2].match, "m3");
    cr_assert_eq(r->results[3].outcome[0], TOUR_PENDING);   /* b-d: no record of it placed */
    cr_assert_str_eq(r->results[3].why, "no record");
    cr_assert_eq(r->n_alarms, 4);
    expect_alarm(&r->alarms[0], "table_differs", "T2", 2, "1", "m3", "c", "a",
                 "Record m3 of the pairing at table 1 was played at table 9.");
    expect_alarm(&r->alarms[1], "unplaced", "T2", 2, "", "u1", "b", "d",
                 "Record u1 has no round or table of this tournament's structure.");
    expect_alarm(&r->alarms[2], "unplaced", "T2", 0, "2", "u2", "b", "d",
                 "Record u2 has no round or table of this tournament's structure.");
    expect_alarm(&r->alarms[3], "unplaced", "T2", 4, "1", "u3", "b", "d",
                 "Record u3 has no round or table of this tournament's structure.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T2_unpaired_game_gives_no_result)
{
    /* a and c were not paired with each other in round 1; a and b were
     * paired in round 1, not in round 2 (a-c, b-d) */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":["
                         "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"}]}]}");
    tour_game g[2] = {game("m1", 1, "5", "a", "c", 1, 0, 0), game("m2", 2, "1", "b", "a", 1, 0, 0)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->n_alarms, 4);
    expect_alarm(&r->alarms[0], "unpaired_game", "T2", 1, "5", "m1", "a", "c",
                 "Record m1 is of a and c, who were not paired with each other in round 1.");
    expect_alarm(&r->alarms[1], "unpaired_game", "T2", 2, "1", "m2", "b", "a",
                 "Record m2 is of b and a, who were not paired with each other in round 2.");
    /* round 1, closed by round 2, has no record of either pairing */
    expect_alarm(&r->alarms[2], "unrecorded", "T16", 1, "1", "", "a", "b", "The pairing of a and b has no record.");
    expect_alarm(&r->alarms[3], "unrecorded", "T16", 1, "2", "", "c", "d", "The pairing of c and d has no record.");
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(r->results[i].outcome[0], TOUR_PENDING, "result %zu", i);
        cr_assert_str_eq(r->results[i].why, "no record", "result %zu", i);
        cr_assert_str_eq(r->results[i].match, "", "result %zu", i);
    }
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    cr_assert_eq(row_of(t, s, "a")->rounds, 0);
    cr_assert_eq(row_of(t, s, "a")->points, 0);
    cr_assert_eq(row_of(t, s, "c")->rounds, 0);
    cr_assert_eq(s->n_pending, 4);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T3_reported_result_differs)
{
    /* round 1 at time 1000, five tables; each report against its record */
    tournament *t = load(HEAD CUSTOM3 "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},"
        "{\"id\":\"c\",\"name\":\"C\"},{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"e\",\"name\":\"E\"},"
        "{\"id\":\"f\",\"name\":\"F\"},{\"id\":\"g\",\"name\":\"G\"},{\"id\":\"h\",\"name\":\"H\"},"
        "{\"id\":\"i\",\"name\":\"I\"},{\"id\":\"j\",\"name\":\"J\"}],\"rounds\":[{\"round\":1,\"time_called\":1000,"
        "\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},"
        "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"},{\"table\":\"4\",\"p1\":\"g\",\"p2\":\"h\"},"
        "{\"table\":\"5\",\"p1\":\"i\",\"p2\":\"j\"}],\"reports\":["
        "{\"table\":\"1\",\"winner\":\"a\",\"scores\":{\"a\":5,\"b\":2}},"   /* agrees */
        "{\"table\":\"2\",\"winner\":\"c\"},"                                /* d won */
        "{\"table\":\"3\",\"winner\":\"e\",\"scores\":{\"e\":5,\"f\":3}},"   /* f scored 1 */
        "{\"table\":\"4\",\"draw\":true,\"scores\":{\"g\":2,\"h\":2}},"      /* agrees: a time draw */
        "{\"table\":\"5\",\"winner\":\"j\"}]}]}");                           /* pending: not compared */
    tour_game g[5] = {game("m1", 1, "1", "a", "b", 1, 0, 2), game("m2", 1, "2", "c", "d", 2, 1, 0),
                      game("m3", 1, "3", "e", "f", 1, 0, 1), timed_game("m4", 1, "4", "g", "h", 2, 2),
                      timed_game("m5", 1, "5", "i", "j", 0, 3)};
    g[4].ends_round = 0;   /* stops inside a game round: no result */
    tour_results *r = results(t, g, 5);
    cr_assert_eq(count_alarms(r, "report_differs"), 2);
    cr_assert_eq(count_alarms(r, "time_round_incomplete"), 1);
    cr_assert_eq(r->n_alarms, 3);
    /* the pairings' alarms first, then the reports' (T45: each names its pairing) */
    cr_assert_str_eq(r->alarms[0].kind, "time_round_incomplete");
    expect_alarm(&r->alarms[1], "report_differs", "T3", 1, "2", "m2", "c", "d",
                 "Table 2 reported c's win; the verified result is d's win.");
    expect_alarm(&r->alarms[2], "report_differs", "T3", 1, "3", "m3", "e", "f",
                 "Table 3 reported e's win, scores e 5, f 3; the verified result is e's win, scores e 5, f 1.");
    /* reports are never counted */
    cr_assert_eq(r->results[1].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[2].score[1], 1);
    cr_assert_eq(r->results[3].by, TOUR_BY_TIME);
    cr_assert_eq(r->results[4].outcome[1], TOUR_PENDING);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T4, T6, T7, T8, T17 ---- */

Test(tournament, T4_snap_score_counts_defeated_monsters)
{
    /* table 1: finished, b (p2) won having defeated 2; a defeated 4 and
     * keeps 4.  Table 2: at time, c defeated 3 and d 1: each monster 1 */
    tournament *t = load(HEAD CUSTOM3 FOUR "," TIMED_R1 "}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 2, 4, 2), timed_game("m2", 1, "2", "c", "d", 3, 1)};
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[0].score[0], 4);
    cr_assert_eq(r->results[0].score[1], 5);
    cr_assert_eq(r->results[0].mov[0], 4);
    cr_assert_eq(r->results[0].mov[1], 6);
    cr_assert_eq(r->results[1].by, TOUR_BY_TIME);
    cr_assert_eq(r->results[1].score[0], 3);
    cr_assert_eq(r->results[1].score[1], 1);
    cr_assert_eq(r->results[1].mov[0], 7);
    cr_assert_eq(r->results[1].mov[1], 3);
    cr_assert_eq(r->results[1].outcome[0], TOUR_WIN);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T6_mov_is_summed_over_swiss_rounds)
{
    /* 3 Swiss rounds and a cut to 4; e enters in round 2.
     *   r1: a beats b (b scored 3), c beats d 5-0; e an unpaired loss
     *   r2: a-c intentional draw; e beats b (b scored 1); d a bye
     *   r3: a-d a double loss (judge); c beats b (b scored 2); e a bye
     *   r4 (elimination): c beats d, e beats a -- never summed */
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":3,\"cut\":4}," FIVE
        ",\"late_entries\":[{\"player\":\"e\",\"round\":2}],\"rounds\":[" R1 ","
        "{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\",\"intentional_draw\":true},"
        "{\"table\":\"2\",\"p1\":\"e\",\"p2\":\"b\"},{\"bye\":\"d\"}]},"
        "{\"round\":3,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"d\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"b\"},"
        "{\"bye\":\"e\"}]},"
        "{\"round\":4,\"pairings\":[{\"game\":1,\"table\":\"1\",\"p1\":\"c\",\"p2\":\"d\"},"
        "{\"game\":2,\"table\":\"2\",\"p1\":\"e\",\"p2\":\"a\"}]}],"
        "\"judge_results\":[{\"round\":3,\"table\":\"1\",\"result\":\"double_loss\",\"judge\":\"hj\",\"text\":\"both\"}]}");
    tour_game g[6] = {game("m1", 1, "1", "a", "b", 1, 0, 3), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "2", "e", "b", 1, 0, 1), game("m4", 3, "2", "c", "b", 1, 0, 2),
                      game("e1", 4, "1", "c", "d", 1, 0, 0), game("e2", 4, "2", "e", "a", 1, 0, 0)};
    tour_results *r = results(t, g, 6);
    cr_assert_eq(r->n_alarms, 1);   /* round 3 table 1 has no record: the double loss covers it */
    cr_assert_str_eq(r->alarms[0].kind, "unrecorded");
    cr_assert_eq(r->alarms[0].resolved, 1);
    static const char *const ids[] = {"a", "b", "c", "d", "e"};
    static const int64_t after2[] = {7 + 5, 3 + 1, 10 + 5, 0 + 10, 0 + 9};
    static const int64_t after3[] = {7 + 5 + 0, 3 + 1 + 2, 10 + 5 + 8, 0 + 10 + 0, 0 + 9 + 10};
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(row_of(t, s, ids[i])->mov, after2[i], "%s after round 2", ids[i]);
    tour_standings_destroy(&s);
    cr_assert_eq(tournament_standings(t, r, 3, &s, NULL, 0), 0);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(row_of(t, s, ids[i])->mov, after3[i], "%s after round 3", ids[i]);
    cr_assert_eq(row_of(t, s, "e")->rounds, 3);   /* the unpaired loss is a round, MOV 0 */
    tour_standings_destroy(&s);
    /* the final standings keep the Swiss MOV: the elimination games add nothing */
    cr_assert_eq(tournament_final(t, r, &s, NULL, 0), 0);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(row_of(t, s, ids[i])->mov, after3[i], "%s in the final standings", ids[i]);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T7_concession_gives_the_winner_the_base)
{
    /* Snap: b concedes with a having defeated none; Advanced: d concedes
     * during setup (game round 0), nothing taken on either side */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 2), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    g[1].rounds = 0;
    g[1].ends_round = 0;
    tour_results *r = results(t, g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);
    cr_assert_eq(r->results[0].score[0], 5);
    cr_assert_eq(r->results[0].mov[0], 8);
    cr_assert_eq(r->results[1].outcome[0], TOUR_WIN);
    cr_assert_eq(r->results[1].outcome[1], TOUR_LOSS);
    cr_assert_eq(r->results[1].score[0], 5);
    cr_assert_eq(r->results[1].mov[0], 10);
    cr_assert_eq(r->results[1].mov[1], 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    t = load(ADV_HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game h[1] = {game("m1", 1, "1", "a", "b", 2, 0, 0)};
    h[0].format = "advanced";
    h[0].rounds = 0;
    h[0].ends_round = 0;
    r = results(t, h, 1);
    cr_assert_eq(r->results[0].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[0].score[1], 6000);
    cr_assert_eq(r->results[0].mov[1], 12000);
    cr_assert_eq(r->results[0].mov[0], 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T7_conceder_keeps_their_score)
{
    /* Advanced: a concedes having taken 4500 LP of b's 6000; b had taken 1000 */
    tournament *t = load(ADV_HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[1] = {game("m1", 1, "1", "a", "b", 2, 4500, 1000)};
    g[0].format = "advanced";
    g[0].ends_round = 0;
    tour_results *r = results(t, g, 1);
    cr_assert_eq(r->results[0].outcome[0], TOUR_LOSS);
    cr_assert_eq(r->results[0].score[0], 4500);
    cr_assert_eq(r->results[0].score[1], 6000);
    cr_assert_eq(r->results[0].mov[0], 4500);
    cr_assert_eq(r->results[0].mov[1], 7500);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T8_game_loss_scores_as_a_concession)
{
    /* a judge's game_loss for p1 ends the game with p2 the winner (the
     * engine's finding): it scores exactly as p1's concession would */
    tournament *t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 "]}");
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 2, 3, 1), game("m2", 1, "2", "c", "d", 2, 3, 1)};
    g[0].ends_round = 0;   /* the judge's event is not Player 2's end */
    tour_results *r = results(t, g, 2);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(r->results[i].outcome[0], TOUR_LOSS, "table %d", i + 1);
        cr_assert_eq(r->results[i].outcome[1], TOUR_WIN, "table %d", i + 1);
        cr_assert_eq(r->results[i].score[0], 3, "table %d", i + 1);
        cr_assert_eq(r->results[i].score[1], 5, "table %d", i + 1);
        cr_assert_eq(r->results[i].mov[0], 3, "table %d", i + 1);
        cr_assert_eq(r->results[i].mov[1], 7, "table %d", i + 1);
        cr_assert_eq(r->results[i].by, TOUR_BY_ENGINE);
    }
    cr_assert_eq(r->n_alarms, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T17_judge_accepts_the_engine_outcome)
{
    /* table 1: illegal, finished, a (p2 of the record) won with b's 2
     * defeated monsters; table 2: illegal, c and d, no judge's result */
    tour_game g[2] = {game("m1", 1, "1", "b", "a", 2, 2, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    g[0].status = TOUR_REC_ILLEGAL;
    g[0].first_bad = "#12 snap:11.2: no such monster";
    g[1].status = TOUR_REC_UNREADABLE;
    tournament *t;
    tour_results *r = judged(&t, JUDGE("1", "\"result\":\"engine\""), g, 2);
    cr_assert_eq(r->results[0].outcome[0], TOUR_WIN);
    cr_assert_eq(r->results[0].outcome[1], TOUR_LOSS);
    cr_assert_eq(r->results[0].score[0], 5);
    cr_assert_eq(r->results[0].score[1], 2);
    cr_assert_eq(r->results[0].mov[0], 8);
    cr_assert_eq(r->results[0].by, TOUR_BY_JUDGE);
    cr_assert_str_eq(r->results[0].match, "m1");
    cr_assert_str_eq(r->results[0].judge, "hj");
    cr_assert_str_eq(r->results[0].why, "ruled");
    cr_assert_eq(r->results[1].outcome[0], TOUR_PENDING);
    cr_assert_eq(r->n_alarms, 2);   /* accepting the engine overrides nothing */
    expect_alarm(&r->alarms[0], "illegal_record", "T17", 1, "1", "m1", "a", "b",
                 "Record m1: #12 snap:11.2: no such monster; the head judge rules.");
    cr_assert_eq(r->alarms[0].resolved, 1);
    expect_alarm(&r->alarms[1], "illegal_record", "T17", 1, "2", "m2", "c", "d",
                 "Record m2: it is not legal; the head judge rules.");
    cr_assert_eq(r->alarms[1].resolved, 0);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T21, T22, T24, T26 ---- */

Test(tournament, T21_bye_adds_nothing_to_sos)
{
    /* r1: a beats b, c beats d, e a bye; r2: e beats a, c a bye, and b's
     * opponent d dropped after round 1 (a bye for b, T22) */
    tournament *t = load(HEAD CUSTOM3 FIVE ",\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"drop\"}],"
                         "\"rounds\":[" "{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
                         "{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},{\"bye\":\"e\"}]},"
                         "{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"e\",\"p2\":\"a\"},"
                         "{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"},{\"bye\":\"c\"}]}]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 2, "1", "e", "a", 1, 0, 0)};
    tour_results *r = results(t, g, 3);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[4].outcome[0], TOUR_BYE);   /* b */
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    /* e: a bye and a win over a (3 points in 2 rounds): 3/2, not (0 + 3/2) / 2 */
    static const char *const ids[] = {"a", "b", "c", "d", "e"};
    static const uint64_t num[] = {9, 3, 0, 3, 3}, den[] = {4, 2, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(row_of(t, s, ids[i])->sos_num, num[i], "%s", ids[i]);
        cr_assert_eq(row_of(t, s, ids[i])->sos_den, den[i], "%s", ids[i]);
    }
    /* a met b (3 in 2 rounds, the bye one of them) and e (6 in 2): 9/4;
     * d met c (6 in 2): 3; c's only opponent d has 0 in 1 */
    cr_assert_eq(row_of(t, s, "e")->byes, 1);
    cr_assert_eq(row_of(t, s, "b")->byes, 1);
    cr_assert_eq(row_of(t, s, "d")->rounds, 1);
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T22_dropped_player_is_not_paired)
{
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    static const char *const how[2] = {"drop", "disqualified"};
    for (int k = 0; k < 2; k++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s,\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"%s\"}],"
                 "\"rounds\":[%s]}", HEAD CUSTOM3 FOUR, how[k], R1);
        tournament *t = load(buf);
        tour_results *r = results(t, g, 2);
        /* round 2: a and c (1-0) meet in their `pair 2` order; b, alone
         * below, has the bye; d is nowhere */
        int grp[2] = {P(t, "a"), P(t, "c")};
        tour_stream st;
        tour_stream_init(&st, "s0", "pair 2");
        tour_shuffle(&st, grp, 2);
        tour_pairings *p;
        cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
        cr_assert_eq(p->n_pairs, 2, "%s", how[k]);
        cr_assert_eq(p->pairs[0].player[0], grp[0]);
        cr_assert_eq(p->pairs[0].player[1], grp[1]);
        cr_assert_eq(p->pairs[1].player[0], P(t, "b"));
        cr_assert_eq(p->pairs[1].player[1], -1);
        cr_assert_str_eq(p->labels, "pair 2, bye 2");
        tour_pairings_destroy(&p);
        /* the dropped player keeps their place, marked; the disqualified one is not ranked */
        tour_standings *s;
        cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
        cr_assert_eq(s->n_rows, k ? 3 : 4, "%s", how[k]);
        if (!k) {
            cr_assert_eq(row_of(t, s, "d")->dropped, 1);
            cr_assert_eq(row_of(t, s, "d")->losses, 1);
            cr_assert_eq(row_of(t, s, "d")->rounds, 1);
            cr_assert_eq(row_of(t, s, "b")->dropped, 0);
        }
        for (size_t i = 0; i < s->n_rows; i++)
            cr_assert_neq(s->rows[i].player, k ? P(t, "d") : -1);
        tour_standings_destroy(&s);
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
    /* published anyway: b-d gives b a bye; for a disqualified d, an alarm too */
    for (int k = 0; k < 2; k++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s,\"drops\":[{\"player\":\"d\",\"after_round\":1,\"reason\":\"%s\"}],"
                 "\"rounds\":[%s,{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"c\"},"
                 "{\"table\":\"2\",\"p1\":\"b\",\"p2\":\"d\"}]}]}", HEAD CUSTOM3 FOUR, how[k], R1);
        tournament *t = load(buf);
        tour_results *r = results(t, g, 2);
        cr_assert_eq(r->results[3].outcome[0], TOUR_BYE, "%s", how[k]);
        cr_assert_eq(r->results[3].outcome[1], TOUR_NO_RESULT);
        cr_assert_eq(r->n_alarms, (size_t)k, "%s", how[k]);
        if (k)
            expect_alarm(&r->alarms[0], "dropped_paired", "T22", 2, "2", "", "d", "",
                         "d is paired in round 2 after being disqualified.");
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
}

#define EIGHT "\"players\":[{\"id\":\"a\",\"name\":\"A\"},{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"}," \
    "{\"id\":\"d\",\"name\":\"D\"},{\"id\":\"e\",\"name\":\"E\"},{\"id\":\"f\",\"name\":\"F\"},{\"id\":\"g\",\"name\":\"G\"}," \
    "{\"id\":\"h\",\"name\":\"H\"}]"
#define DRAW_WIN(rnd, tbl, who) "{\"round\":" rnd ",\"table\":\"" tbl "\",\"result\":\"draw\",\"draw_win\":\"" who "\"," \
    "\"judge\":\"hj\",\"text\":\"drawn\"}"

Test(tournament, T24_standings_order)
{
    /* r1: a beats b 5-0, c-d drawn (c the draw win), e beats f 5-4, g-h
     * drawn (g); r2: a beats e 5-0, c-h drawn (h), b beats d 5-4, f beats
     * g 5-0.  Draws are 0 to 0 (MOV 5 each). */
    tournament *t = load(HEAD CUSTOM3 EIGHT ",\"rounds\":[{\"round\":1,\"pairings\":["
        "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},"
        "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"},{\"table\":\"4\",\"p1\":\"g\",\"p2\":\"h\"}]},"
        "{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"e\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"h\"},"
        "{\"table\":\"3\",\"p1\":\"d\",\"p2\":\"b\"},{\"table\":\"4\",\"p1\":\"g\",\"p2\":\"f\"}]}],"
        "\"judge_results\":[" DRAW_WIN("1", "2", "c") "," DRAW_WIN("1", "4", "g") "," DRAW_WIN("2", "2", "h") "]}");
    tour_game g[5] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m3", 1, "3", "e", "f", 1, 0, 4),
                      game("n1", 2, "1", "a", "e", 1, 0, 0), game("n3", 2, "3", "d", "b", 2, 4, 0),
                      game("n4", 2, "4", "g", "f", 2, 0, 0)};
    tour_results *r = results(t, g, 5);
    tour_standings *s;
    cr_assert_eq(tournament_standings(t, r, 2, &s, NULL, 0), 0);
    cr_assert_eq(s->provisional, 0);
    /*        points wins MOV SoS
     *   a    6      2    20
     *   f    3      1    14  5/4    more MOV above more SoS
     *   e    3      1     6  9/4    same MOV: more SoS first
     *   b    3      1     6  7/4
     *   h    3      0    10  5/4    more MOV, but fewer wins: below e, b, f
     *   c    3      0    10  1
     *   g    2      0     5
     *   d    1      0     9         more MOV, fewer points */
    static const char *const want[] = {"a", "f", "e", "b", "h", "c", "g", "d"};
    static const int64_t pts[] = {6, 3, 3, 3, 3, 3, 2, 1}, mov[] = {20, 14, 6, 6, 10, 10, 5, 9};
    static const uint32_t wins[] = {2, 1, 1, 1, 0, 0, 0, 0};
    static const uint64_t num[] = {0, 5, 9, 7, 5, 1, 0, 0}, den[] = {0, 4, 4, 4, 4, 1, 0, 0};
    cr_assert_eq(s->n_rows, 8);
    for (size_t i = 0; i < 8; i++) {
        const tour_row *w = &s->rows[i];
        cr_assert_eq(w->player, P(t, want[i]), "place %zu: %s", i + 1, tournament_player(t, (size_t)w->player)->id);
        cr_assert_eq(w->place, i + 1);
        cr_assert_eq(w->points, pts[i], "%s", want[i]);
        cr_assert_eq(w->wins, wins[i], "%s", want[i]);
        cr_assert_eq(w->mov, mov[i], "%s", want[i]);
        if (den[i]) {
            cr_assert_eq(w->sos_num, num[i], "%s", want[i]);
            cr_assert_eq(w->sos_den, den[i], "%s", want[i]);
        }
    }
    tour_standings_destroy(&s);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* T26's exactness: p's one opponent has 4 points in 3 rounds (4/3); q's
 * two have 1 and 7 in 3 rounds ((1/3 + 7/3) / 2 = 4/3).  In binary
 * floating point the two differ (1.3333333333333333 and ...335). */
#define EXACT_FILE(seed) HEAD CUSTOM3 "\"players\":[{\"id\":\"p\",\"name\":\"P\"},{\"id\":\"q\",\"name\":\"Q\"}," \
    "{\"id\":\"o1\",\"name\":\"O1\"},{\"id\":\"o2\",\"name\":\"O2\"},{\"id\":\"o3\",\"name\":\"O3\"}," \
    "{\"id\":\"x1\",\"name\":\"X1\"},{\"id\":\"x2\",\"name\":\"X2\"},{\"id\":\"x3\",\"name\":\"X3\"}]," \
    "\"drops\":[{\"player\":\"p\",\"after_round\":1,\"reason\":\"drop\"},{\"player\":\"q\",\"after_round\":2,\"reason\":\"drop\"}]," \
    "\"late_entries\":[{\"player\":\"x2\",\"round\":2},{\"player\":\"x3\",\"round\":3}],\"rounds\":[" \
    "{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"p\",\"p2\":\"o1\"},{\"table\":\"2\",\"p1\":\"q\",\"p2\":\"o2\"}," \
    "{\"table\":\"3\",\"p1\":\"o3\",\"p2\":\"x1\"}]}," \
    "{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"q\",\"p2\":\"o3\"},{\"table\":\"2\",\"p1\":\"o1\",\"p2\":\"x2\"}," \
    "{\"table\":\"3\",\"p1\":\"o2\",\"p2\":\"x1\"}]}," \
    "{\"round\":3,\"results_seed\":\"" seed "\",\"pairings\":[{\"table\":\"1\",\"p1\":\"o1\",\"p2\":\"x1\"}," \
    "{\"table\":\"2\",\"p1\":\"o3\",\"p2\":\"x2\"},{\"table\":\"3\",\"p1\":\"o2\",\"p2\":\"x3\"}]}]," \
    "\"judge_results\":[" DRAW_WIN("2", "3", "x1") "," DRAW_WIN("3", "1", "x1") "," DRAW_WIN("3", "2", "x2") "]}"

static void exact_games(tour_game g[6])
{
    g[0] = game("a1", 1, "1", "p", "o1", 1, 0, 0);
    g[1] = game("a2", 1, "2", "q", "o2", 1, 0, 2);
    g[2] = game("a3", 1, "3", "o3", "x1", 1, 0, 0);
    g[3] = game("b1", 2, "1", "q", "o3", 2, 2, 0);
    g[4] = game("b2", 2, "2", "o1", "x2", 1, 0, 0);
    g[5] = game("c3", 3, "3", "o2", "x3", 2, 1, 0);
}

Test(tournament, T26_sos_is_compared_exactly)
{
    /* p and q tie on points (3), wins (1) and MOV (10), and their SoS are
     * one value, 4/3, reached by two sums: the random order of T28 ranks
     * them, whichever way it falls (with a floating-point comparison q
     * would always be above p) */
    static const char *const seeds[2] = {"exact-1", "exact-2"};
    static const char *const files[2] = {EXACT_FILE("exact-1"), EXACT_FILE("exact-2")};
    int p_first[2];
    for (int f = 0; f < 2; f++) {
        tournament *t = load(files[f]);
        tour_game g[6];
        exact_games(g);
        tour_results *r = results(t, g, 6);
        tour_standings *s;
        cr_assert_eq(tournament_standings(t, r, 3, &s, NULL, 0), 0);
        const tour_row *p = row_of(t, s, "p"), *q = row_of(t, s, "q");
        cr_assert_eq(p->points, 3);
        cr_assert_eq(q->points, 3);
        cr_assert_eq(p->wins, 1);
        cr_assert_eq(q->wins, 1);
        cr_assert_eq(p->mov, 10);
        cr_assert_eq(q->mov, 10);
        cr_assert_eq(p->sos_num, 4);
        cr_assert_eq(p->sos_den, 3);
        cr_assert_eq(q->sos_num, 4);
        cr_assert_eq(q->sos_den, 3);
        cr_assert_eq(row_of(t, s, "o2")->points, 1);
        cr_assert_eq(row_of(t, s, "o3")->points, 7);
        cr_assert_eq(row_of(t, s, "o1")->points, 4);
        /* the `standings 3` shuffle decides, with the round's results_seed */
        int order[8];
        for (size_t i = 0; i < 8; i++)
            order[i] = tournament_player_index(t, (const char *[]){"o1", "o2", "o3", "p", "q", "x1", "x2", "x3"}[i]);
        tour_stream st;
        tour_stream_init(&st, seeds[f], "standings 3");
        tour_shuffle(&st, order, 8);
        size_t rp = 0, rq = 0;
        for (size_t i = 0; i < 8; i++) {
            rp = order[i] == P(t, "p") ? i + 1 : rp;
            rq = order[i] == P(t, "q") ? i + 1 : rq;
        }
        cr_assert_eq(p->random_place, rp);
        cr_assert_eq(q->random_place, rq);
        p_first[f] = p->place < q->place;
        cr_assert_eq(p_first[f], rp < rq, "seed %s", seeds[f]);
        cr_assert_eq(p->place > q->place ? p->place - q->place : q->place - p->place, 1);
        /* printed rounded, exact beside it */
        jtext o = {0};
        cr_assert_eq(tournament_standings_json(t, s, &o), 0);
        cr_assert_not_null(strstr(o.buf, "\"player\":\"p\",\"name\":\"P\",\"event_points\":3,\"wins\":1,\"draws\":0,"
                                         "\"losses\":0,\"byes\":0,\"rounds\":1,\"mov\":10,\"sos\":\"1.333\","
                                         "\"sos_exact\":\"4/3\",\"dropped\":true"), "%s", o.buf);
        jtext_free(&o);
        tour_standings_destroy(&s);
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
    cr_assert_neq(p_first[0], p_first[1], "the two seeds should order p and q both ways");
}

/* ---- T29, T30, T31 ---- */

Test(tournament, T29_first_round_is_random_from_the_seed)
{
    /* a..f play round 1; g enters in round 2; h left before round 1.  Round
     * 1 is published without pairings, with its own seed. */
    static const char *const files[2] = {
        HEAD CUSTOM3 EIGHT ",\"late_entries\":[{\"player\":\"g\",\"round\":2}],"
        "\"drops\":[{\"player\":\"h\",\"after_round\":0,\"reason\":\"no_show\"}],"
        "\"rounds\":[{\"round\":1,\"seed\":\"r1-seed\",\"pairings\":[]}]}",
        HEAD CUSTOM3 EIGHT ",\"late_entries\":[{\"player\":\"g\",\"round\":2}],"
        "\"drops\":[{\"player\":\"h\",\"after_round\":0,\"reason\":\"no_show\"}]}"};
    static const char *const seeds[2] = {"r1-seed", "s0"};
    int first[2][6];
    for (int f = 0; f < 2; f++) {
        tournament *t = load(files[f]);
        int *want = first[f];
        for (int i = 0; i < 6; i++)
            want[i] = P(t, (const char *[]){"a", "b", "c", "d", "e", "f"}[i]);
        tour_stream st;
        tour_stream_init(&st, seeds[f], "pair 1");
        tour_shuffle(&st, want, 6);
        tour_results *r = results(t, NULL, 0);
        tour_pairings *p;
        cr_assert_eq(tournament_pair(t, r, 1, &p, NULL, 0), 0);
        cr_assert_str_eq(p->seed, seeds[f]);
        cr_assert_eq(p->seed_made, 0);
        cr_assert_str_eq(p->labels, "pair 1");
        cr_assert_eq(p->n_pairs, 3);
        for (int i = 0; i < 3; i++) {
            char tb[4];
            snprintf(tb, sizeof tb, "%d", i + 1);
            cr_assert_eq(p->pairs[i].player[0], want[2 * i], "file %d table %d", f, i + 1);
            cr_assert_eq(p->pairs[i].player[1], want[2 * i + 1], "file %d table %d", f, i + 1);
            cr_assert_str_eq(p->pairs[i].table, tb);
            cr_assert_eq(p->pairs[i].rematch, 0);
        }
        tour_pairings_destroy(&p);
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
    cr_assert_neq(memcmp(first[0], first[1], sizeof first[0]), 0, "two seeds, one draw");
}

Test(tournament, T30_odd_group_pairs_down_at_random)
{
    /* r1: a, c, e win; b, d, f lose.  Round 2's list is the winners in
     * their `pair 2` order, then the losers in theirs (one stream): the
     * first two winners meet, the third pairs down with the first loser
     * they did not meet, and the two losers left meet. */
    tournament *t = load(HEAD CUSTOM3 SIX ",\"rounds\":[{\"round\":1,\"pairings\":[{\"table\":\"1\",\"p1\":\"a\","
                         "\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"},{\"table\":\"3\",\"p1\":\"e\","
                         "\"p2\":\"f\"}]}]}");
    tour_game g[3] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0),
                      game("m3", 1, "3", "e", "f", 1, 0, 0)};
    tour_results *r = results(t, g, 3);
    int list[6] = {P(t, "a"), P(t, "c"), P(t, "e"), P(t, "b"), P(t, "d"), P(t, "f")};
    tour_stream st;
    tour_stream_init(&st, "s0", "pair 2");
    tour_shuffle(&st, list, 3);
    tour_shuffle(&st, list + 3, 3);
    /* the opponent each winner met: a-b, c-d, e-f */
    int down = list[2], met_down = down == P(t, "a") ? P(t, "b") : down == P(t, "c") ? P(t, "d") : P(t, "f");
    int k = list[3] == met_down ? 4 : 3;
    int rest[2], nr = 0;
    for (int i = 3; i < 6; i++)
        if (i != k)
            rest[nr++] = list[i];
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 3);
    cr_assert_str_eq(p->labels, "pair 2");
    cr_assert_eq(p->rematches, 0);
    cr_assert_eq(p->pairs[0].player[0], list[0]);
    cr_assert_eq(p->pairs[0].player[1], list[1]);
    cr_assert_eq(p->pairs[1].player[0], list[2]);   /* the pair-down */
    cr_assert_eq(p->pairs[1].player[1], list[k]);
    cr_assert_eq(p->pairs[2].player[0], rest[0]);
    cr_assert_eq(p->pairs[2].player[1], rest[1]);
    cr_assert_str_eq(p->pairs[2].table, "3");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T31_rematch_allowed_after_the_cut)
{
    /* one Swiss round then a cut to 4: a beats b 5-0, c beats d 5-4, so the
     * seeds are a, c, d, b and Game #1 (a-b) and Game #2 (c-d) repeat
     * round 1's meetings -- a new stage, no rematch */
    const char *cut4 = HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":4}," FOUR ",\"rounds\":[" R1;
    tour_game g[4] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 4),
                      game("e1", 2, "1", "a", "b", 2, 0, 0), game("e2", 2, "2", "c", "d", 1, 0, 0)};
    char buf[1024];
    snprintf(buf, sizeof buf, "%s]}", cut4);
    tournament *t = load(buf);
    tour_results *r = results(t, g, 2);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->elimination, 1);
    expect_pair(t, &p->pairs[0], 1, "a", "b");
    expect_pair(t, &p->pairs[1], 2, "c", "d");
    cr_assert_eq(p->rematches, 0);
    cr_assert_eq(p->pairs[0].rematch, 0);
    cr_assert_eq(p->pairs[1].rematch, 0);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* published and played: no rematch alarm, and b's win in Game #1 counts */
    snprintf(buf, sizeof buf, "%s,{\"round\":2,\"pairings\":[{\"game\":1,\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},"
             "{\"game\":2,\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}", cut4);
    t = load(buf);
    r = results(t, g, 4);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[2].outcome[1], TOUR_WIN);
    cr_assert_eq(r->results[2].elimination, 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* the same meeting inside the Swiss stage is a rematch */
    t = load(HEAD CUSTOM3 FOUR ",\"rounds\":[" R1 ",{\"round\":2,\"pairings\":[{\"table\":\"1\",\"p1\":\"b\","
             "\"p2\":\"a\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}]}]}");
    r = results(t, g, 2);
    cr_assert_eq(count_alarms(r, "rematch"), 2);
    expect_alarm(&r->alarms[0], "rematch", "T31", 2, "1", "", "a", "b", "a and b already met in round 1 of this stage.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T33, T34 ---- */

Test(tournament, T33_top_n_of_the_standings)
{
    /* the standings after round 1 are w1..w5, steven, l7, l8, eve, l10 */
    tour_game g[5];
    ten_games(g);
    static const char *const top8[] = {"w1", "w2", "w3", "w4", "w5", "steven", "l7", "l8"};
    for (uint32_t cut = 4; cut <= 8; cut += 4) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s\"structure\":{\"swiss_rounds\":1,\"cut\":%u},%s,%s}", HEAD, cut, TEN, TEN_R1);
        tournament *t = load(buf);
        tour_results *r = results(t, g, 5);
        int seeds[TOUR_CUT_MAX];
        uint32_t n = 0;
        cr_assert_eq(tournament_cut(t, r, seeds, &n, NULL, 0), 0);
        cr_assert_eq(n, cut);
        for (uint32_t i = 0; i < cut; i++)
            cr_assert_eq(seeds[i], P(t, top8[i]), "cut %u seed %u", cut, i + 1);
        tour_results_destroy(&r);
        /* a Swiss result missing: no cut yet, and the game is named */
        r = results(t, g, 4);
        char err[256];
        cr_assert_eq(tournament_cut(t, r, seeds, &n, err, sizeof err), TOUR_EPENDING);
        cr_assert_str_eq(err, "Round 1 table 5 has no result yet (no record).");
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
    /* w2, disqualified after round 1, is skipped: w5 is the fourth seed */
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":4}," TEN
                         ",\"drops\":[{\"player\":\"w2\",\"after_round\":1,\"reason\":\"disqualified\"}]," TEN_R1 "}");
    tour_results *r = results(t, g, 5);
    int seeds[TOUR_CUT_MAX];
    uint32_t n = 0;
    cr_assert_eq(tournament_cut(t, r, seeds, &n, NULL, 0), 0);
    static const char *const want[] = {"w1", "w3", "w4", "w5"};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(seeds[i], P(t, want[i]), "seed %d", i + 1);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* no cut in the structure */
    t = load(HEAD CUSTOM3 FOUR "}");
    r = results(t, NULL, 0);
    char err[256];
    cr_assert_eq(tournament_cut(t, r, seeds, &n, err, sizeof err), TOUR_EINVAL);
    cr_assert_str_eq(err, "The structure has no cut.");
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

Test(tournament, T34_highest_against_lowest)
{
    tournament *t = load(HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8}," TEN "," TEN_R1 "}");
    tour_game g[5];
    ten_games(g);
    tour_results *r = results(t, g, 5);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->elimination, 1);
    cr_assert_eq(p->n_pairs, 4);
    static const char *const hi[] = {"w1", "w2", "w3", "w4"}, *const lo[] = {"l8", "l7", "steven", "w5"};
    for (uint32_t k = 0; k < 4; k++) {
        char tb[4];
        snprintf(tb, sizeof tb, "%u", k + 1);
        expect_pair(t, &p->pairs[k], k + 1, hi[k], lo[k]);
        cr_assert_str_eq(p->pairs[k].table, tb);
    }
    jtext o = {0};
    cr_assert_eq(tournament_pairings_csv(t, p, &o), 0);
    cr_assert_str_eq(o.buf, "round,table,game,p1,p2\r\n2,1,1,w1,l8\r\n2,2,2,w2,l7\r\n2,3,3,w3,steven\r\n2,4,4,w4,w5\r\n");
    jtext_free(&o);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

#define SIX_CUT8 HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8}," SIX ",\"rounds\":[{\"round\":1,\"pairings\":[" \
    "{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"table\":\"2\",\"p1\":\"c\",\"p2\":\"d\"}," \
    "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"f\"}]}"

Test(tournament, T34_empty_seed_gives_a_bye)
{
    /* six players, a cut to 8: seeds a, c, e, f, d, b and two empty ones,
     * so seeds 1 and 2 have byes: Game #1 and Game #2 */
    tour_game g[5] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 1),
                      game("m3", 1, "3", "e", "f", 1, 0, 2), game("e3", 2, "3", "e", "b", 2, 0, 0),
                      game("e4", 2, "4", "f", "d", 2, 0, 0)};
    tournament *t = load(SIX_CUT8 "]}");
    tour_results *r = results(t, g, 3);
    int seeds[TOUR_CUT_MAX];
    uint32_t n = 0;
    cr_assert_eq(tournament_cut(t, r, seeds, &n, NULL, 0), 0);
    cr_assert_eq(n, 8);
    static const char *const want[] = {"a", "c", "e", "f", "d", "b"};
    for (int i = 0; i < 6; i++)
        cr_assert_eq(seeds[i], P(t, want[i]), "seed %d", i + 1);
    cr_assert_eq(seeds[6], -1);
    cr_assert_eq(seeds[7], -1);
    tour_pairings *p;
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 4);
    expect_pair(t, &p->pairs[0], 1, "a", NULL);
    expect_pair(t, &p->pairs[1], 2, "c", NULL);
    expect_pair(t, &p->pairs[2], 3, "e", "b");
    expect_pair(t, &p->pairs[3], 4, "f", "d");
    cr_assert_str_eq(p->pairs[0].table, "");
    cr_assert_str_eq(p->pairs[2].table, "3");
    jtext o = {0};
    cr_assert_eq(tournament_pairings_json(t, p, &o), 0);
    cr_assert_not_null(strstr(o.buf, "\"pairings\":[{\"bye\":\"a\",\"game\":1},{\"bye\":\"c\",\"game\":2},"
                                     "{\"table\":\"3\",\"p1\":\"e\",\"p2\":\"b\",\"game\":3},"
                                     "{\"table\":\"4\",\"p1\":\"f\",\"p2\":\"d\",\"game\":4}]}"), "%s", o.buf);
    jtext_free(&o);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* published as drawn, the byes win Game #1 and #2: round 3 pairs a with
     * the winner of Game #4 (d) and c with the winner of Game #3 (b) */
    t = load(SIX_CUT8 ",{\"round\":2,\"pairings\":[{\"bye\":\"a\",\"game\":1},{\"bye\":\"c\",\"game\":2},"
             "{\"game\":3,\"table\":\"3\",\"p1\":\"e\",\"p2\":\"b\"},{\"game\":4,\"table\":\"4\",\"p1\":\"f\",\"p2\":\"d\"}]}]}");
    r = results(t, g, 5);
    cr_assert_eq(r->n_alarms, 0);
    cr_assert_eq(r->results[3].outcome[0], TOUR_BYE);
    cr_assert_eq(r->results[3].game, 1);
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 2);
    expect_pair(t, &p->pairs[0], 1, "a", "d");
    expect_pair(t, &p->pairs[1], 2, "c", "b");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* three players, a cut to 8: seeds c, a, b; Game #4 is seed 4 against
     * seed 5, both empty, a game nobody plays and nobody publishes */
    const char *three = HEAD "\"structure\":{\"swiss_rounds\":1,\"cut\":8},\"players\":[{\"id\":\"a\",\"name\":\"A\"},"
                        "{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"}],\"rounds\":[{\"round\":1,"
                        "\"pairings\":[{\"table\":\"1\",\"p1\":\"a\",\"p2\":\"b\"},{\"bye\":\"c\"}]}";
    char buf[1024];
    snprintf(buf, sizeof buf, "%s]}", three);
    t = load(buf);
    tour_game h[1] = {game("m1", 1, "1", "a", "b", 1, 0, 1)};
    r = results(t, h, 1);
    cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 4);
    expect_pair(t, &p->pairs[0], 1, "c", NULL);
    expect_pair(t, &p->pairs[1], 2, "a", NULL);
    expect_pair(t, &p->pairs[2], 3, "b", NULL);
    cr_assert_eq(p->pairs[3].game, 4);
    cr_assert_eq(p->pairs[3].player[0], -1);
    cr_assert_eq(p->pairs[3].player[1], -1);
    jtext o2 = {0};
    cr_assert_eq(tournament_pairings_json(t, p, &o2), 0);
    cr_assert_not_null(strstr(o2.buf, "\"pairings\":[{\"bye\":\"c\",\"game\":1},{\"bye\":\"a\",\"game\":2},"
                                      "{\"bye\":\"b\",\"game\":3}]}"), "%s", o2.buf);
    jtext_free(&o2);
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
    /* published as printed: the next round still counts 4 games of round 2
     * (T36: Game #1 against Game #4, Game #2 against Game #3) */
    snprintf(buf, sizeof buf, "%s,{\"round\":2,\"pairings\":[{\"bye\":\"c\",\"game\":1},{\"bye\":\"a\",\"game\":2},"
             "{\"bye\":\"b\",\"game\":3}]}]}", three);
    t = load(buf);
    r = results(t, h, 1);
    cr_assert_eq(tournament_pair(t, r, 3, &p, NULL, 0), 0);
    cr_assert_eq(p->n_pairs, 2);
    expect_pair(t, &p->pairs[0], 1, "c", NULL);
    expect_pair(t, &p->pairs[1], 2, "a", "b");
    cr_assert_str_eq(p->pairs[1].table, "2");
    tour_pairings_destroy(&p);
    tour_results_destroy(&r);
    tournament_destroy(&t);
}

/* ---- T39, T40 ---- */

Test(tournament, T39_late_entries_do_not_count)
{
    /* eight registered, a ninth entering in round 2: Basic's 4-8 row, not 9-12 */
    tournament *t = load(HEAD "\"structure\":{\"table\":\"basic\"}," "\"players\":[{\"id\":\"a\",\"name\":\"A\"},"
                         "{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"},{\"id\":\"d\",\"name\":\"D\"},"
                         "{\"id\":\"e\",\"name\":\"E\"},{\"id\":\"f\",\"name\":\"F\"},{\"id\":\"g\",\"name\":\"G\"},"
                         "{\"id\":\"h\",\"name\":\"H\"},{\"id\":\"i\",\"name\":\"I\"}],"
                         "\"late_entries\":[{\"player\":\"i\",\"round\":2}]}");
    const tour_structure *st = tournament_structure(t);
    cr_assert_eq(st->registered, 8);
    cr_assert_str_eq(st->row, "4-8");
    cr_assert_eq(st->swiss_rounds, 3);
    cr_assert_eq(st->cut, 0);
    cr_assert_eq(tournament_player(t, (size_t)P(t, "i"))->registered, 0);
    cr_assert_eq(tournament_player(t, (size_t)P(t, "h"))->registered, 1);
    tournament_destroy(&t);
    /* Advanced, 12 registered and a 13th late: 9-12 (4 rounds, top 4), not 13-24 (top 8) */
    t = load(HEAD "\"structure\":{\"table\":\"advanced\"}," "\"players\":[{\"id\":\"a\",\"name\":\"A\"},"
             "{\"id\":\"b\",\"name\":\"B\"},{\"id\":\"c\",\"name\":\"C\"},{\"id\":\"d\",\"name\":\"D\"},"
             "{\"id\":\"e\",\"name\":\"E\"},{\"id\":\"f\",\"name\":\"F\"},{\"id\":\"g\",\"name\":\"G\"},"
             "{\"id\":\"h\",\"name\":\"H\"},{\"id\":\"i\",\"name\":\"I\"},{\"id\":\"j\",\"name\":\"J\"},"
             "{\"id\":\"k\",\"name\":\"K\"},{\"id\":\"l\",\"name\":\"L\"},{\"id\":\"m\",\"name\":\"M\"}],"
             "\"late_entries\":[{\"player\":\"m\",\"round\":3}]}");
    st = tournament_structure(t);
    cr_assert_eq(st->registered, 12);
    cr_assert_str_eq(st->row, "9-12");
    cr_assert_eq(st->swiss_rounds, 4);
    cr_assert_eq(st->cut, 4);
    cr_assert_eq(st->fell_back, 0);
    tournament_destroy(&t);
}

/* One structure table of TOURNAMENT.md: the rows after the header line that
 * follows `section`, until the first line that is not a table row. */
static size_t page_table(const char *page, const char *section, tour_table_row *rows, size_t max)
{
    const char *at = strstr(page, section);
    cr_assert_not_null(at, "no %s in TOURNAMENT.md", section);
    at = strstr(at, "| Number of Registered Players | Number of Swiss Rounds | Size of Cut |\n|---|---|---|\n");
    cr_assert_not_null(at, "no table in %s", section);
    at = strchr(strchr(at, '\n') + 1, '\n') + 1;
    size_t n = 0;
    while (*at == '|' && n < max) {
        char players[64], cut[64];
        unsigned rounds = 0;
        cr_assert_eq(sscanf(at, "| %63[^|]| %u | %63[^|]|", players, &rounds, cut), 3, "row %zu of %s", n + 1, section);
        tour_table_row *w = &rows[n++];
        memset(w, 0, sizeof *w);
        w->swiss_rounds = rounds;
        if (sscanf(players, "%u-%u", &w->lo, &w->hi) != 2) {
            cr_assert_eq(sscanf(players, "%u & Above", &w->lo), 1, "row %zu of %s: %s", n, section, players);
            w->hi = 0;
        }
        if (strncmp(cut, "No Cut", 6))
            cr_assert_eq(sscanf(cut, "Top %u", &w->cut), 1, "row %zu of %s: %s", n, section, cut);
        at = strchr(at, '\n') + 1;
    }
    return n;
}

Test(tournament, T39_tables_match_this_page)
{
    FILE *f = fopen(SRC("TOURNAMENT.md"), "rb");
    cr_assert_not_null(f, "TOURNAMENT.md (set top_srcdir)");
    static char page[1 << 18];
    size_t len = fread(page, 1, sizeof page - 1, f);
    fclose(f);
    cr_assert_lt(len, sizeof page - 1);
    page[len] = 0;
    static const char *const sections[2] = {"### T40. ", "### T39. "};
    for (int adv = 0; adv < 2; adv++) {
        tour_table_row want[16];
        size_t n = page_table(page, sections[adv], want, 16), nc;
        const tour_table_row *have = tournament_structure_table(adv, &nc);
        cr_assert_eq(nc, n, "%s", sections[adv]);
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(have[i].lo, want[i].lo, "%s row %zu", sections[adv], i + 1);
            cr_assert_eq(have[i].hi, want[i].hi, "%s row %zu", sections[adv], i + 1);
            cr_assert_eq(have[i].swiss_rounds, want[i].swiss_rounds, "%s row %zu", sections[adv], i + 1);
            cr_assert_eq(have[i].cut, want[i].cut, "%s row %zu", sections[adv], i + 1);
            if (i)   /* the rows follow each other without a gap */
                cr_assert_eq(want[i].lo, want[i - 1].hi + 1, "%s row %zu", sections[adv], i + 1);
        }
        cr_assert_eq(want[n - 1].hi, 0, "%s: the last row is open", sections[adv]);
    }
}

Test(tournament, T40_output_says_the_table_is_reconstructed)
{
    static const char *const files[3] = {
        HEAD "\"structure\":{\"table\":\"basic\"}," FOUR ",\"rounds\":[" R1 "]}",
        HEAD "\"structure\":{\"table\":\"advanced\"}," FOUR ",\"rounds\":[" R1 "]}",
        HEAD "\"structure\":{\"table\":\"advanced\"}," TEN ",\"rounds\":[{\"round\":1,\"pairings\":[]}]}"};
    static const char *const want[3] = {
        "\"structure\":{\"kind\":\"basic\",\"swiss_rounds\":3,\"cut\":0,\"row\":\"4-8\",\"reconstructed\":true,"
        "\"fell_back\":false}",
        "\"structure\":{\"kind\":\"advanced\",\"swiss_rounds\":3,\"cut\":0,\"row\":\"4-8\",\"reconstructed\":true,"
        "\"fell_back\":true}",
        "\"structure\":{\"kind\":\"advanced\",\"swiss_rounds\":4,\"cut\":4,\"row\":\"9-12\",\"reconstructed\":false,"
        "\"fell_back\":false}"};
    tour_game g[2] = {game("m1", 1, "1", "a", "b", 1, 0, 0), game("m2", 1, "2", "c", "d", 1, 0, 0)};
    for (int f = 0; f < 3; f++) {
        tournament *t = load(files[f]);
        tour_results *r = results(t, g, f < 2 ? 2 : 0);
        tour_standings *s;
        jtext o = {0};
        cr_assert_eq(tournament_standings(t, r, 1, &s, NULL, 0), 0);
        cr_assert_eq(tournament_standings_json(t, s, &o), 0);
        cr_assert_not_null(strstr(o.buf, want[f]), "file %d: %s", f, o.buf);
        tour_standings_destroy(&s);
        jtext_reset(&o);
        cr_assert_eq(tournament_final(t, r, &s, NULL, 0), 0);
        cr_assert_eq(tournament_standings_json(t, s, &o), 0);
        cr_assert_not_null(strstr(o.buf, want[f]), "file %d (final): %s", f, o.buf);
        jtext_free(&o);
        tour_standings_destroy(&s);
        if (f < 2) {   /* the next round's pairings say it too */
            tour_pairings *p;
            cr_assert_eq(tournament_pair(t, r, 2, &p, NULL, 0), 0);
            cr_assert_eq(tournament_pairings_json(t, p, &o), 0);
            cr_assert_not_null(strstr(o.buf, want[f]), "file %d (pairings): %s", f, o.buf);
            jtext_free(&o);
            tour_pairings_destroy(&p);
        }
        tour_results_destroy(&r);
        tournament_destroy(&t);
    }
}
