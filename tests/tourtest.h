/* tourtest.h -- what the tournament suites (test_tournament.c,
 * test_tourstats.c) both build their cases from: a tournament file loaded
 * or the test fails, and a finished Snap game as tour_game. */
#ifndef ARBITER_TOURTEST_H
#define ARBITER_TOURTEST_H

#include <criterion/criterion.h>
#include <string.h>

#include "src/tournament/tourresult.h"

/* The tournament of a file's text; the test fails when it is refused. */
static inline tournament *tourtest_load(const char *json)
{
    tournament *t = NULL;
    char err[512] = "";
    int rc = tournament_load(json, strlen(json), &t, err, sizeof err);
    cr_assert_eq(rc, 0, "load refused: %s", err);
    return t;
}

/* A finished Snap game of tournament "cup": the winner (1 or 2; 0 none)
 * and each side's score; three game rounds, ending a game round. */
static inline tour_game tourtest_game(const char *match, uint32_t round, const char *table, const char *p1,
                                      const char *p2, int winner, int64_t s1, int64_t s2)
{
    tour_game g = {0};
    g.match = match;
    g.tournament = "cup";
    g.round = round;
    g.table = table;
    g.p1 = p1;
    g.p2 = p2;
    g.format = "snap";
    g.status = TOUR_REC_LEGAL;
    g.finished = winner != 0;
    g.winner = winner;
    g.score[0] = s1;
    g.score[1] = s2;
    g.rounds = 3;
    g.ends_round = 1;
    return g;
}

#endif
