/* tourresult.c -- every published pairing's result and every alarm.
 *
 * What: the rulings of TOURNAMENT.md that decide a pairing (T1-T19, T22,
 * T23, T31, T32, T42, T43, T45) as code.  The organiser's file
 * (tournament.h) says what was published and what the head judge decided;
 * the caller's tour_games say what the engines found.  From the two this
 * module computes each pairing's result and every alarm.
 *
 * Why pure: results feed the standings, which must be the same wherever
 * they are computed (the CLI and the daemon's `standings` op, T24).  So
 * nothing here reads a clock, a file or a socket; the draw win of T14 is
 * drawn from T27's seeded stream (tourdraw.h).
 *
 * How: the games are walked once to place them (the published pairings by
 * sorted keys of round and players, binary search); then the checks that
 * look across pairings (a player in two games or two pairings, T1;
 * rematches and dropped players paired, T22, T31; decklists, T42); then
 * round by round: the byes (T32), each published pairing once (its
 * records, the head judge's result), the table reports (T3), and the
 * grouping counts the next round's byes are checked against.  An alarm a
 * judge's result covers is marked resolved last.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourdraw.h"
#include "src/tournament/tourint.h"
#include "src/tournament/tourresult.h"

/* ---- data: the rulings' tables, in one place ------------------------------ */

/* T20: event points of each outcome, indexed by tour_outcome. */
const int64_t tour_outcome_points[] = {
    [TOUR_PENDING] = 0,          [TOUR_WIN] = 3,       [TOUR_LOSS] = 0,
    [TOUR_DRAW_WIN] = 2,         [TOUR_DRAW_LOSS] = 1, [TOUR_INTENTIONAL_DRAW] = 0,
    [TOUR_BYE] = 3,              [TOUR_UNPAIRED_LOSS] = 0, [TOUR_DOUBLE_LOSS] = 0,
    [TOUR_NO_RESULT] = 0,
};

/* T30: how each outcome counts for Swiss grouping: 'w' win, 'd' draw, 'l'
 * loss, 0 nothing (T21: a bye is a win; T23: an unpaired loss a loss). */
const char tour_outcome_group[] = {
    [TOUR_PENDING] = 0,    [TOUR_WIN] = 'w',       [TOUR_LOSS] = 'l',
    [TOUR_DRAW_WIN] = 'd', [TOUR_DRAW_LOSS] = 'd', [TOUR_INTENTIONAL_DRAW] = 'd',
    [TOUR_BYE] = 'w',      [TOUR_UNPAIRED_LOSS] = 'l', [TOUR_DOUBLE_LOSS] = 'l',
    [TOUR_NO_RESULT] = 0,
};


static int64_t clamp_score(int64_t s, int64_t base)
{
    return s < 0 ? 0 : s > base ? base : s;
}

typedef struct {
    uint32_t round;
    int lo, hi;
    size_t res;
} pkey;

static int cmp_pkey(const void *a, const void *b)
{
    const pkey *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->res < y->res ? -1 : x->res > y->res;
}

typedef struct {
    const tournament *t;
    const tour_game *g;
    size_t ng;
    tour_results *r;
    size_t cap_alarms;
    size_t *alarm_res;          /* per alarm: the result it is about, or SIZE_MAX */
    size_t *roff;               /* roff[i]: index of round i+1's first result  */
    pkey *keys;                 /* every two-player pairing, sorted            */
    size_t nkeys;
    int (*gp)[2];               /* per game: its players' indexes, -1 unknown  */
    long *gres;                 /* per game: the result it is the game of, -1  */
    long *gnext;                /* per game: the next game of the same result  */
    long *rhead;                /* per result: its first game, -1              */
    uint32_t *rcount;           /* per result: its games                       */
    uint8_t *doubled;           /* per game: a player of it is in another game (T1) */
} rctx;

static int add_alarm(rctx *x, size_t res, const char *kind, const char *ruling, uint32_t round, const char *table,
                     const char *match, const char *a, const char *b, const char *fmt, ...)
    __attribute__((format(printf, 10, 11)));
static int add_alarm(rctx *x, size_t res, const char *kind, const char *ruling, uint32_t round, const char *table,
                     const char *match, const char *a, const char *b, const char *fmt, ...)
{
    tour_results *r = x->r;
    if (r->n_alarms == x->cap_alarms) {
        size_t cap = x->cap_alarms ? 2 * x->cap_alarms : 16;
        tour_alarm *na = realloc(r->alarms, cap * sizeof *na);
        if (!na)
            return TOUR_ENOMEM;
        r->alarms = na;
        size_t *nr = realloc(x->alarm_res, cap * sizeof *nr);
        if (!nr)
            return TOUR_ENOMEM;
        x->alarm_res = nr;
        x->cap_alarms = cap;
    }
    tour_alarm *al = &r->alarms[r->n_alarms];
    memset(al, 0, sizeof *al);
    al->kind = kind;
    al->ruling = ruling;
    al->round = round;
    tour_copy_str(al->table, sizeof al->table, table);
    tour_copy_str(al->match, sizeof al->match, match);
    tour_copy_str(al->players[0], sizeof al->players[0], a);
    tour_copy_str(al->players[1], sizeof al->players[1], b);
    va_list ap;
    va_start(ap, fmt);
    tour_vsay(al->text, sizeof al->text, fmt, ap);
    va_end(ap);
    x->alarm_res[r->n_alarms++] = res;
    return 0;
}

static int rctx_alloc(rctx *x)
{
    const tournament *t = x->t;
    size_t nres = 0;
    x->roff = calloc(t->nrounds + 1, sizeof *x->roff);
    if (!x->roff)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < t->nrounds; i++) {
        x->roff[i] = nres;
        nres += t->rounds[i].npairs;
    }
    x->roff[t->nrounds] = nres;
    x->r->results = calloc(nres + 1, sizeof *x->r->results);
    x->keys = calloc(nres + 1, sizeof *x->keys);
    x->rhead = calloc(nres + 1, sizeof *x->rhead);
    x->rcount = calloc(nres + 1, sizeof *x->rcount);
    x->gp = calloc(x->ng + 1, sizeof *x->gp);
    x->gres = calloc(x->ng + 1, sizeof *x->gres);
    x->gnext = calloc(x->ng + 1, sizeof *x->gnext);
    x->doubled = calloc(x->ng + 1, 1);
    if (!x->r->results || !x->keys || !x->rhead || !x->rcount || !x->gp || !x->gres || !x->gnext || !x->doubled)
        return TOUR_ENOMEM;
    x->r->n_results = nres;
    for (size_t i = 0; i < nres; i++)
        x->rhead[i] = -1;
    for (size_t r = 0; r < t->nrounds; r++)
        for (size_t k = 0; k < t->rounds[r].npairs; k++) {
            const tpairing *p = &t->rounds[r].pairs[k];
            if (p->p[1] < 0)
                continue;
            int lo = p->p[0] < p->p[1] ? p->p[0] : p->p[1], hi = p->p[0] ^ p->p[1] ^ lo;
            x->keys[x->nkeys++] = (pkey){(uint32_t)r + 1, lo, hi, x->roff[r] + k};
        }
    qsort(x->keys, x->nkeys, sizeof *x->keys, cmp_pkey);
    return 0;
}

static void rctx_free(rctx *x)
{
    free(x->alarm_res);
    free(x->roff);
    free(x->keys);
    free(x->gp);
    free(x->gres);
    free(x->gnext);
    free(x->rhead);
    free(x->rcount);
    free(x->doubled);
}

static long find_pairing(const rctx *x, uint32_t round, int a, int b)
{
    pkey key = {round, a < b ? a : b, a < b ? b : a, 0};
    size_t lo = 0, hi = x->nkeys;
    while (lo < hi) {   /* the first key of that round and players */
        size_t mid = (lo + hi) / 2;
        if (cmp_pkey(&x->keys[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < x->nkeys && x->keys[lo].round == round && x->keys[lo].lo == key.lo && x->keys[lo].hi == key.hi)
        return (long)x->keys[lo].res;
    return -1;
}

static int ours(const tournament *t, const tour_game *g)
{
    return g->tournament && !strcmp(g->tournament, t->id);
}

/* T2, T22, T23: one record placed on its pairing, or an alarm saying why not. */
static int place_game(rctx *x, size_t i)
{
    const tournament *t = x->t;
    const tour_game *g = &x->g[i];
    int a = tournament_player_index(t, g->p1 ? g->p1 : ""), b = tournament_player_index(t, g->p2 ? g->p2 : "");
    x->gp[i][0] = a;
    x->gp[i][1] = b;
    x->gres[i] = -1;
    x->gnext[i] = -1;
    /* T2: a round the structure does not have, or no round or table. */
    if (!g->round || !g->table || g->round > tour_total_rounds(t))
        return add_alarm(x, SIZE_MAX, "unplaced", "T2", g->round, g->table, g->match, g->p1, g->p2,
                         "Record %s has no round or table of this tournament's structure.", g->match);
    if (a < 0 || b < 0)
        return add_alarm(x, SIZE_MAX, "unknown_player", "T2", g->round, g->table, g->match, g->p1, g->p2,
                         "Record %s names \"%s\", who is not a player of the tournament.", g->match,
                         a < 0 ? g->p1 : g->p2);
    int rc = 0, gone = 0;
    for (int k = 0; k < 2 && !rc; k++)   /* T22, T23 */
        if (!tour_active_in(t, x->gp[i][k], g->round) && ++gone)
            rc = add_alarm(x, SIZE_MAX, "dropped_paired", "T22", g->round, g->table, g->match, g->p1, g->p2,
                           "Record %s has %s playing in round %u, when they were not in the tournament.", g->match,
                           tour_pid(t, x->gp[i][k]), g->round);
    long res = find_pairing(x, g->round, a, b);
    /* a player who was not in the tournament cannot have been paired: the
     * one alarm says why the record does not count */
    if (rc || (res < 0 && gone))
        return rc;
    if (res < 0)
        return add_alarm(x, SIZE_MAX, "unpaired_game", "T2", g->round, g->table, g->match, g->p1, g->p2,
                         "Record %s is of %s and %s, who were not paired with each other in round %u.", g->match,
                         g->p1, g->p2, g->round);
    tour_result *rr = &x->r->results[res];
    x->gres[i] = res;
    x->rcount[res]++;
    if (strcmp(rr->table, g->table))
        rc = add_alarm(x, (size_t)res, "table_differs", "T2", g->round, rr->table, g->match, g->p1, g->p2,
                       "Record %s of the pairing at table %s was played at table %s.", g->match, rr->table, g->table);
    return rc;
}

/* Games in a list per result, in the caller's order. */
static void link_games(rctx *x)
{
    for (size_t i = x->ng; i-- > 0;)
        if (x->gres[i] >= 0) {
            x->gnext[i] = x->rhead[x->gres[i]];
            x->rhead[x->gres[i]] = (long)i;
        }
}

/* A (round, player) occurrence, for "in two games of one round" (T1). */
typedef struct {
    uint32_t round;
    int player;
    size_t what;                /* a game or a result index                    */
} occ;

static int cmp_occ(const void *a, const void *b)
{
    const occ *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    if (x->player != y->player)
        return x->player < y->player ? -1 : 1;
    return x->what < y->what ? -1 : x->what > y->what;
}

/* T1: a player in two records of one round: neither gives a result. */
static int find_doubles(rctx *x)
{
    occ *o = calloc(2 * x->ng + 1, sizeof *o);
    size_t n = 0;
    int rc = 0;
    if (!o)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < x->ng; i++)
        if (x->gp[i][0] >= 0 && x->gp[i][1] >= 0 && ours(x->t, &x->g[i]) && x->g[i].round && x->g[i].table &&
            x->g[i].round <= tour_total_rounds(x->t))
            for (int k = 0; k < 2; k++)
                o[n++] = (occ){x->g[i].round, x->gp[i][k], i};
    qsort(o, n, sizeof *o, cmp_occ);
    for (size_t i = 0, j; i < n && !rc; i = j) {
        int one_pairing = x->gres[o[i].what] >= 0;
        for (j = i + 1; j < n && o[j].round == o[i].round && o[j].player == o[i].player; j++) {
            x->doubled[o[j].what] = x->doubled[o[i].what] = 1;
            one_pairing &= x->gres[o[j].what] == x->gres[o[i].what];
        }
        /* records all of one pairing: eval_records raises one alarm for it */
        if (j - i > 1 && !one_pairing) {
            const tour_game *g = &x->g[o[i + 1].what];
            long res = x->gres[o[i].what];
            rc = add_alarm(x, res >= 0 ? (size_t)res : SIZE_MAX, "two_games", "T1", o[i].round, g->table, g->match,
                           tour_pid(x->t, o[i].player), "",
                           "%s is in %zu records of round %u (%s and %s); none counts until the head judge names one.",
                           tour_pid(x->t, o[i].player), j - i, o[i].round, x->g[o[i].what].match, g->match);
        }
    }
    free(o);
    return rc;
}

/* T1: a player in two published pairings of one round. */
static int pairing_doubles(rctx *x)
{
    const tournament *t = x->t;
    occ *o = calloc(2 * x->r->n_results + 1, sizeof *o);
    size_t n = 0;
    int rc = 0;
    if (!o)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < x->r->n_results; i++)
        for (int k = 0; k < 2; k++)
            if (x->r->results[i].player[k] >= 0)
                o[n++] = (occ){x->r->results[i].round, x->r->results[i].player[k], i};
    qsort(o, n, sizeof *o, cmp_occ);
    for (size_t i = 1; i < n && !rc; i++)
        if (o[i].round == o[i - 1].round && o[i].player == o[i - 1].player)
            rc = add_alarm(x, o[i].what, "two_games", "T1", o[i].round, x->r->results[o[i].what].table, "",
                           tour_pid(t, o[i].player), "", "%s is in two pairings of round %u.", tour_pid(t, o[i].player),
                           o[i].round);
    free(o);
    return rc;
}

typedef struct {
    int stage, lo, hi;
    uint32_t round;
    size_t res;
} meet;

static int cmp_meet(const void *a, const void *b)
{
    const meet *x = a, *y = b;
    if (x->stage != y->stage)
        return x->stage - y->stage;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->round < y->round ? -1 : x->round > y->round;
}

/* T31: a published pairing repeating an earlier one of its stage; T22: a
 * disqualified player paired after the disqualification. */
static int pairing_rules(rctx *x)
{
    const tournament *t = x->t;
    int rc = 0;
    /* keys sort by round first; meetings sort by stage, then players, so
     * every meeting of two players in one stage is side by side */
    meet *k = malloc((x->nkeys + 1) * sizeof *k);
    if (!k)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < x->nkeys; i++)
        k[i] = (meet){tour_is_elimination(t, x->keys[i].round), x->keys[i].lo, x->keys[i].hi, x->keys[i].round,
                      x->keys[i].res};
    qsort(k, x->nkeys, sizeof *k, cmp_meet);
    for (size_t i = 1; i < x->nkeys && !rc; i++) {
        const meet *a = &k[i - 1], *b = &k[i];
        if (a->stage != b->stage || a->lo != b->lo || a->hi != b->hi || a->round == b->round)
            continue;
        const tour_result *rr = &x->r->results[b->res];
        rc = add_alarm(x, b->res, "rematch", "T31", rr->round, rr->table, "", tour_pid(t, b->lo), tour_pid(t, b->hi),
                       "%s and %s already met in round %u of this stage.", tour_pid(t, b->lo), tour_pid(t, b->hi), a->round);
    }
    free(k);
    for (size_t i = 0; i < x->r->n_results && !rc; i++) {
        const tour_result *rr = &x->r->results[i];
        for (int s = 0; s < 2 && !rc; s++) {
            int p = rr->player[s];
            if (p >= 0 && t->players[p].disqualified && rr->round > t->players[p].disqualified_after)
                rc = add_alarm(x, i, "dropped_paired", "T22", rr->round, rr->table, "", tour_pid(t, p), "",
                               "%s is paired in round %u after being disqualified.", tour_pid(t, p), rr->round);
        }
    }
    return rc;
}

/* ---- results: each pairing (T3-T19) --------------------------------------- */

/* T6: a game's MOV is base - the opponent's score + the player's own. */
static void set_game(const tournament *t, tour_result *rr, tour_outcome o0, tour_outcome o1, int64_t s0, int64_t s1)
{
    rr->outcome[0] = o0;
    rr->outcome[1] = o1;
    rr->score[0] = clamp_score(s0, t->base);
    rr->score[1] = clamp_score(s1, t->base);
    rr->mov[0] = t->base - rr->score[1] + rr->score[0];
    rr->mov[1] = t->base - rr->score[0] + rr->score[1];
}

/* T14: the draw win, drawn from `draw R TABLE` over the two players in id
 * order; 0 gives it to the first. */
static void draw_result(const tournament *t, tour_result *rr, int64_t s0, int64_t s1)
{
    char label[TOUR_STR_MAX + 32];
    tour_stream s;
    rr->draw_seed = tour_round_seed(t, rr->round, 1, NULL);
    tour_say(label, sizeof label, "draw %u %s", rr->round, rr->table ? rr->table : "");
    tour_stream_init(&s, rr->draw_seed, label);
    int first = t->rank[rr->player[0]] < t->rank[rr->player[1]] ? 0 : 1;
    int winner = tour_uniform(&s, 2) == 0 ? first : 1 - first;
    set_game(t, rr, winner == 0 ? TOUR_DRAW_WIN : TOUR_DRAW_LOSS, winner == 0 ? TOUR_DRAW_LOSS : TOUR_DRAW_WIN, s0, s1);
}

/* T13: the greater score wins outright; equal scores draw (T14). */
static void by_scores(const tournament *t, tour_result *rr, int64_t s0, int64_t s1, tour_by by)
{
    s0 = clamp_score(s0, t->base);
    s1 = clamp_score(s1, t->base);
    rr->by = by;
    if (s0 == s1)
        draw_result(t, rr, s0, s1);
    else
        set_game(t, rr, s0 > s1 ? TOUR_WIN : TOUR_LOSS, s0 > s1 ? TOUR_LOSS : TOUR_WIN, s0, s1);
}

/* T4, T5, T7: a winner scores the base; the loser keeps their score. */
static void by_winner(const tournament *t, tour_result *rr, int w, int64_t s0, int64_t s1, tour_by by)
{
    rr->by = by;
    set_game(t, rr, w == 0 ? TOUR_WIN : TOUR_LOSS, w == 0 ? TOUR_LOSS : TOUR_WIN, w == 0 ? t->base : s0,
             w == 1 ? t->base : s1);
}

/* The record's own view in the pairing's order: sw 1 when its p1 is the
 * pairing's second player. */
typedef struct {
    const tour_game *g;
    int sw;
    int64_t score[2];
    int winner;                 /* 0 or 1 in the pairing's order, -1 none     */
} recview;

static recview view_of(const rctx *x, size_t gi, const tour_result *rr)
{
    recview v = {&x->g[gi], x->gp[gi][0] != rr->player[0], {0, 0}, -1};
    for (int k = 0; k < 2; k++)
        v.score[k] = v.g->score[k ^ v.sw];
    if (v.g->winner == 1 || v.g->winner == 2)
        v.winner = (v.g->winner - 1) ^ v.sw;
    return v;
}

/* T12: the game round in progress at the call: the one of the last event
 * at or before it, game round 1 when there is none. */
static uint32_t round_at_call(const tour_game *g, uint64_t call)
{
    uint32_t at = 1;
    for (uint32_t i = 0; i < g->nmarks; i++)
        if (g->marks[i].first_ms && g->marks[i].first_ms <= call)
            at = i + 1;
    return at;
}

static int rec_alarm(rctx *x, size_t res, const recview *v, const char *kind, const char *ruling, const char *why)
{
    const tour_result *rr = &x->r->results[res];
    return add_alarm(x, res, kind, ruling, rr->round, rr->table, v->g->match, tour_pid(x->t, rr->player[0]),
                     tour_pid(x->t, rr->player[1]), "Record %s: %s", v->g->match, why);
}

/* T17, T43, T18, T3: what makes a record give no result, or an alarm. */
static int rec_checks(rctx *x, size_t res, const recview *v, int *usable)
{
    const tournament *t = x->t;
    const tour_game *g = v->g;
    char why[TOUR_TEXT_MAX];
    int rc = 0;
    *usable = 0;
    /* T17: an illegal record has no result of its own. */
    if (g->status == TOUR_REC_ILLEGAL || g->status == TOUR_REC_UNREADABLE || g->status == TOUR_REC_NO_GAME) {
        tour_say(why, sizeof why, "%s; the head judge rules.", g->first_bad ? g->first_bad : "it is not legal");
        return rec_alarm(x, res, v, "illegal_record", "T17", why);
    }
    /* T43: one set of rules for the event. */
    if ((g->format && strcmp(g->format, ol_format_name(t->format))) || (g->cards && t->cards && strcmp(g->cards, t->cards)) ||
        g->rules_differ) {
        tour_say(why, sizeof why, "its rules differ from the event's (%s).",
                 g->rules_differ ? g->rules_differ : g->format && strcmp(g->format, ol_format_name(t->format))
                                                         ? "format" : "card database");
        return rec_alarm(x, res, v, "rules_differ", "T43", why);
    }
    /* T18: a mismatch counts the engine's outcome and raises an alarm; T3:
     * a claimed winner is compared, never counted. */
    if (g->status == TOUR_REC_MISMATCH)
        rc = rec_alarm(x, res, v, "mismatch", "T18", g->first_bad ? g->first_bad : "a claim differs from the engine.");
    else if (g->claim_winner && g->claim_winner != g->winner) {
        tour_say(why, sizeof why, "the claim names %s the winner; the engine found %s.",
                 g->claim_winner == 1 ? g->p1 : g->p2, g->winner ? (g->winner == 1 ? g->p1 : g->p2) : "no winner");
        rc = rec_alarm(x, res, v, "mismatch", "T3", why);
    }
    *usable = 1;
    return rc;
}

static void pend(tour_result *rr, const char *why)
{
    rr->outcome[0] = rr->outcome[1] = TOUR_PENDING;
    rr->by = TOUR_BY_NONE;
    tour_copy_str(rr->why, sizeof rr->why, why);
}

/* T12: a record under a time call: its ordinary result, a time result, or
 * an alarm and no result. */
static int rec_at_time(rctx *x, size_t res, const recview *v, uint64_t call)
{
    tour_result *rr = &x->r->results[res];
    const tour_game *g = v->g;
    int timed = g->nmarks > 0;
    uint32_t at = timed ? round_at_call(g, call) : 0;
    rr->past_time_unchecked = !timed;
    /* case 4: play went on into a later game round */
    if (timed && g->rounds > at) {
        pend(rr, "played past time");
        return rec_alarm(x, res, v, "played_past_time", "T12",
                         "play went on past the game round in progress when time was called; the head judge rules.");
    }
    if (g->finished) {             /* case 1 */
        by_winner(x->t, rr, v->winner, v->score[0], v->score[1], TOUR_BY_ENGINE);
        return 0;
    }
    if (!g->ends_round) {          /* case 3 */
        pend(rr, "stopped inside a game round at time");
        return rec_alarm(x, res, v, "time_round_incomplete", "T12",
                         "the record stops inside a game round after time was called; the head judge rules.");
    }
    by_scores(x->t, rr, v->score[0], v->score[1], TOUR_BY_TIME);   /* case 2, T13 */
    tour_copy_str(rr->why, sizeof rr->why, "at time");
    return 0;
}

/* One record of the pairing, read as T3, T12, T16, T17 say. */
static int eval_record(rctx *x, size_t res, size_t gi, int closed)
{
    tour_result *rr = &x->r->results[res];
    recview v = view_of(x, gi, rr);
    uint64_t call = x->t->rounds[rr->round - 1].pairs[res - x->roff[rr->round - 1]].time_called;
    int usable, rc = rec_checks(x, res, &v, &usable);
    tour_copy_str(rr->match, sizeof rr->match, v.g->match);
    if (rc || !usable) {
        pend(rr, "the record gives no result");
        return rc;
    }
    if (v.g->finished && v.winner < 0) {   /* T17: finished with no winner */
        pend(rr, "finished with no winner");
        return rec_alarm(x, res, &v, "illegal_record", "T17", "the record is finished with no winner.");
    }
    if (call)
        return rec_at_time(x, res, &v, call);
    if (v.g->finished) {
        by_winner(x->t, rr, v.winner, v.score[0], v.score[1], TOUR_BY_ENGINE);
        return 0;
    }
    /* T16: live while the round is open, an alarm once it is closed. */
    pend(rr, closed ? "unfinished" : "in progress");
    rr->live = !closed;
    return closed ? rec_alarm(x, res, &v, "unfinished", "T16", "the record is unfinished and its round is closed.")
                  : 0;
}

/* T19: the record the judge's result is about: `match`, else the only one. */
static long judge_record(const rctx *x, size_t res, const tjudge *j)
{
    for (long gi = x->rhead[res]; gi >= 0; gi = x->gnext[gi])
        if (j->match ? x->g[gi].match && !strcmp(x->g[gi].match, j->match) : x->rcount[res] == 1)
            return gi;
    return -1;
}

static int64_t judge_score(const tjudge *j, int k, int64_t dflt)
{
    return j->has_scores ? j->scores[k] : dflt;
}

/* T19: the head judge's result replaces whatever the records gave. */
static void apply_judge(rctx *x, size_t res, const tjudge *j)
{
    const tournament *t = x->t;
    tour_result *rr = &x->r->results[res];
    long gi = judge_record(x, res, j);
    rr->judge = j->judge;
    rr->judge_text = j->text;
    rr->live = 0;
    if (j->kind == J_WIN) {
        /* T19: the entry's scores when it gives them, else the base to 0 */
        int w = j->winner == rr->player[0] ? 0 : 1;
        set_game(t, rr, w == 0 ? TOUR_WIN : TOUR_LOSS, w == 0 ? TOUR_LOSS : TOUR_WIN,
                 judge_score(j, 0, w == 0 ? t->base : 0), judge_score(j, 1, w == 1 ? t->base : 0));
    } else if (j->kind == J_DRAW && j->draw_win >= 0) {
        int w = j->draw_win == rr->player[0] ? 0 : 1;
        set_game(t, rr, w == 0 ? TOUR_DRAW_WIN : TOUR_DRAW_LOSS, w == 0 ? TOUR_DRAW_LOSS : TOUR_DRAW_WIN,
                 judge_score(j, 0, 0), judge_score(j, 1, 0));
    } else if (j->kind == J_DRAW) {
        draw_result(t, rr, judge_score(j, 0, 0), judge_score(j, 1, 0));
    } else if (j->kind == J_DOUBLE_LOSS) {
        set_game(t, rr, TOUR_DOUBLE_LOSS, TOUR_DOUBLE_LOSS, judge_score(j, 0, 0), judge_score(j, 1, 0));
        rr->mov[0] = rr->mov[1] = 0;   /* T6: a double loss has MOV 0 */
    } else if (gi < 0) {
        pend(rr, "the judge's result names no record");
        return;
    } else {
        recview v = view_of(x, (size_t)gi, rr);
        tour_copy_str(rr->match, sizeof rr->match, v.g->match);
        if (j->kind == J_ENGINE && v.g->finished && v.winner >= 0)
            by_winner(t, rr, v.winner, v.score[0], v.score[1], TOUR_BY_JUDGE);
        else if (j->kind == J_ENGINE)
            by_scores(t, rr, v.score[0], v.score[1], TOUR_BY_JUDGE);
        else if (!v.g->nmarks) {
            pend(rr, "at_time needs the record's game rounds with times");
            return;
        } else {
            uint64_t call = t->rounds[rr->round - 1].pairs[res - x->roff[rr->round - 1]].time_called;
            uint32_t at = round_at_call(v.g, call);
            const tour_mark *m = &v.g->marks[(at < v.g->nmarks ? at : v.g->nmarks) - 1];
            by_scores(t, rr, m->score[v.sw], m->score[1 ^ v.sw], TOUR_BY_JUDGE);
        }
    }
    rr->by = TOUR_BY_JUDGE;
    tour_copy_str(rr->why, sizeof rr->why, j->text);
}

/* T21, T22: a bye, or a pairing with a player who had left. */
static int eval_absent(rctx *x, size_t res)
{
    const tournament *t = x->t;
    tour_result *rr = &x->r->results[res];
    int here[2] = {tour_active_in(t, rr->player[0], rr->round), tour_active_in(t, rr->player[1], rr->round)};
    if (rr->player[1] >= 0 && here[0] && here[1])
        return 0;
    for (int k = 0; k < 2; k++) {
        if (rr->player[k] < 0)
            continue;
        /* T22: the other player of a dropped one gets a bye, worth 2 x base (T21) */
        rr->outcome[k] = here[k] ? TOUR_BYE : TOUR_NO_RESULT;
        rr->score[k] = here[k] ? t->base : 0;
        rr->mov[k] = here[k] ? 2 * t->base : 0;
    }
    rr->by = TOUR_BY_ORGANISER;
    tour_copy_str(rr->why, sizeof rr->why, rr->player[1] < 0 ? "bye" : "the opponent had dropped");
    return 1;
}

static int eval_records(rctx *x, size_t res, int closed)
{
    tour_result *rr = &x->r->results[res];
    long gi = x->rhead[res];
    if (x->rcount[res] == 0) {
        pend(rr, "no record");
        rr->live = !closed;
        return closed ? add_alarm(x, res, "unrecorded", "T16", rr->round, rr->table, "", tour_pid(x->t, rr->player[0]),
                                  tour_pid(x->t, rr->player[1]), "The pairing of %s and %s has no record.",
                                  tour_pid(x->t, rr->player[0]), tour_pid(x->t, rr->player[1]))
                      : 0;
    }
    /* T1: two records of one pairing, or a player in two records */
    if (x->rcount[res] > 1 || x->doubled[gi]) {
        pend(rr, "two records");
        if (x->rcount[res] < 2)
            return 0;   /* find_doubles raised it */
        return add_alarm(x, res, "two_games", "T1", rr->round, rr->table, x->g[gi].match, tour_pid(x->t, rr->player[0]),
                         tour_pid(x->t, rr->player[1]), "The pairing of %s and %s has %u records; none counts until "
                         "the head judge names one.", tour_pid(x->t, rr->player[0]), tour_pid(x->t, rr->player[1]),
                         x->rcount[res]);
    }
    return eval_record(x, res, (size_t)gi, closed);
}

static int eval_pairing(rctx *x, size_t res)
{
    const tournament *t = x->t;
    tour_result *rr = &x->r->results[res];
    const tround *rd = &t->rounds[rr->round - 1];
    const tpairing *p = &rd->pairs[res - x->roff[rr->round - 1]];
    const tjudge *j = tour_judge_for(t, rr->round, res - x->roff[rr->round - 1]);
    int rc = 0;
    if (eval_absent(x, res))
        return 0;
    if (p->intentional_draw) {
        /* T15: 0 event points each, a draw, MOV the base (a game of 0 to 0) */
        set_game(t, rr, TOUR_INTENTIONAL_DRAW, TOUR_INTENTIONAL_DRAW, 0, 0);
        rr->by = TOUR_BY_ORGANISER;
        tour_copy_str(rr->why, sizeof rr->why, "intentional draw");
        if (x->rcount[res])
            rc = add_alarm(x, res, "intentional_draw_played", "T15", rr->round, rr->table, x->g[x->rhead[res]].match,
                           tour_pid(t, rr->player[0]), tour_pid(t, rr->player[1]),
                           "The pairing was entered as an intentional draw, and record %s was played.",
                           x->g[x->rhead[res]].match);
    } else
        rc = eval_records(x, res, rd->closed);
    if (rc || !j)
        return rc;
    int had = rr->outcome[0] != TOUR_PENDING && (rr->by == TOUR_BY_ENGINE || rr->by == TOUR_BY_TIME);
    apply_judge(x, res, j);
    /* T19: a judge replacing what the records gave is shown as an alarm */
    if (had && j->kind != J_ENGINE)
        rc = add_alarm(x, res, "judge_overrides_record", "T19", rr->round, rr->table, rr->match,
                       tour_pid(t, rr->player[0]), tour_pid(t, rr->player[1]),
                       "%s's result replaces the result the record gives: %s", j->judge, j->text);
    return rc;
}

/* A result in words for a report_differs sentence: "a draw", "ann's win",
 * then ", scores ann 5, ben 3" when `sc` is given.  Player ids only: the
 * names are the file's and the sentence goes to public exports. */
static void result_words(char *buf, size_t n, const tournament *t, const tour_result *rr, int winner, int draw,
                         const int64_t *sc)
{
    int k = draw ? tour_say(buf, n, "a draw") : tour_say(buf, n, "%s's win", tour_pid(t, winner));
    if (sc && k >= 0 && (size_t)k < n)
        tour_say(buf + k, n - (size_t)k, ", scores %s %lld, %s %lld", tour_pid(t, rr->player[0]), (long long)sc[0],
                 tour_pid(t, rr->player[1]), (long long)sc[1]);
}

/* T3, T10: a reported result compared with the verified one. */
static int check_report(rctx *x, size_t res, const treport *rep)
{
    const tour_result *rr = &x->r->results[res];
    int draw = rr->outcome[0] == TOUR_DRAW_WIN || rr->outcome[0] == TOUR_DRAW_LOSS ||
               rr->outcome[0] == TOUR_INTENTIONAL_DRAW;
    if (rr->outcome[0] == TOUR_PENDING || rr->outcome[0] == TOUR_NO_RESULT || rr->player[1] < 0)
        return 0;
    int differs = rep->draw ? !draw : rr->outcome[rep->winner == rr->player[0] ? 0 : 1] != TOUR_WIN;
    if (rep->has_scores && (rr->by == TOUR_BY_ENGINE || rr->by == TOUR_BY_TIME))
        differs |= rep->scores[0] != rr->score[0] || rep->scores[1] != rr->score[1];
    if (!differs)
        return 0;
    /* both sides in words, so the judge can read the difference aloud */
    char said[TOUR_TEXT_MAX / 3], found[TOUR_TEXT_MAX / 3];
    int won = rr->outcome[0] == TOUR_WIN ? rr->player[0] : rr->player[1];
    int scored = rep->has_scores && (rr->by == TOUR_BY_ENGINE || rr->by == TOUR_BY_TIME);
    result_words(said, sizeof said, x->t, rr, rep->winner, rep->draw, rep->has_scores ? rep->scores : NULL);
    result_words(found, sizeof found, x->t, rr, won, draw, scored ? rr->score : NULL);
    return add_alarm(x, res, "report_differs", "T3", rr->round, rr->table, rr->match, tour_pid(x->t, rr->player[0]),
                     tour_pid(x->t, rr->player[1]), "Table %s reported %s; the verified result is %s.", rr->table, said,
                     found);
}

/* Y's group is the same as X's or lower (T30's order). */
int tour_wdl_same_or_lower(const tour_wdl *y, const tour_wdl *x)
{
    if (y->w != x->w)
        return y->w < x->w;
    if (y->d != x->d)
        return y->d < x->d;
    return y->l >= x->l;
}

void tour_wdl_count(tour_wdl *c, tour_outcome o)
{
    c->w += tour_outcome_group[o] == 'w';
    c->d += tour_outcome_group[o] == 'd';
    c->l += tour_outcome_group[o] == 'l';
    c->byes += o == TOUR_BYE;
}

/* T32: a published second bye while a player of the same or a lower group
 * had none. */
static int check_byes(rctx *x, uint32_t round, const tour_wdl *c)
{
    const tournament *t = x->t;
    const tround *rd = &t->rounds[round - 1];
    int rc = 0;
    for (size_t k = 0; k < rd->npairs && !rc; k++) {
        int p = rd->pairs[k].p[0];
        if (rd->pairs[k].p[1] >= 0 || !c[p].byes)
            continue;
        for (size_t y = 0; y < t->np; y++)
            if ((int)y != p && !c[y].byes && tour_active_in(t, (int)y, round) && tour_wdl_same_or_lower(&c[y], &c[p])) {
                /* its players are the two the sentence names */
                rc = add_alarm(x, x->roff[round - 1] + k, "bye_twice", "T32", round, "", "", tour_pid(t, p),
                               tour_pid(t, (int)y),
                               "%s has a second bye in round %u while %s, of the same or a lower group, had none.",
                               tour_pid(t, p), round, tour_pid(t, (int)y));
                break;
            }
    }
    return rc;
}

/* ---- results: decklists (T42) --------------------------------------------- */

static int deck_alarm(rctx *x, const occ *o, const char *fmt_round, uint32_t before)
{
    const tour_game *g = &x->g[o->what];
    long res = x->gres[o->what];
    char was[48];
    if (before)
        tour_say(was, sizeof was, "in round %u", before);
    else
        tour_say(was, sizeof was, "%s", fmt_round);
    /* T45: names the player and the rounds, never the cards */
    return add_alarm(x, res >= 0 ? (size_t)res : SIZE_MAX, "deck_changed", "T42", o->round, g->table, g->match,
                     tour_pid(x->t, o->player), "", "%s's decklist in round %u differs from the one %s.",
                     tour_pid(x->t, o->player), o->round, was);
}

static int check_decks(rctx *x)
{
    const tournament *t = x->t;
    occ *o = calloc(2 * x->ng + 1, sizeof *o);
    size_t n = 0;
    int rc = 0;
    if (!o)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < x->ng; i++) {
        if (!ours(t, &x->g[i]) || x->gp[i][0] < 0 || x->gp[i][1] < 0 || !x->g[i].round)
            continue;
        for (int k = 0; k < 2; k++) {
            if (!x->g[i].has_deck[k])
                x->r->deck_check_skipped = 1;   /* T42: hidden in this view */
            else
                o[n++] = (occ){x->g[i].round, x->gp[i][k], i * 2 + (size_t)k};
        }
    }
    qsort(o, n, sizeof *o, cmp_occ);
    /* per player, in round order: compare with the registered deck, else
     * with the player's latest earlier record */
    const uint8_t **last = calloc(t->np + 1, sizeof *last);
    uint32_t *last_round = calloc(t->np + 1, sizeof *last_round);
    if (!last || !last_round) {
        rc = TOUR_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        occ e = o[i];
        const uint8_t *deck = x->g[e.what / 2].deck[e.what % 2];
        const tour_player *pl = &t->players[e.player];
        e.what /= 2;
        if (pl->has_deck && memcmp(pl->deck, deck, TOUR_HASH))
            rc = deck_alarm(x, &e, "registered", 0);
        else if (last[e.player] && memcmp(last[e.player], deck, TOUR_HASH))
            rc = deck_alarm(x, &e, "", last_round[e.player]);
        last[e.player] = deck;
        last_round[e.player] = e.round;
    }
out:
    free(last);
    free(last_round);
    free(o);
    return rc;
}

/* ---- results: the whole tournament ---------------------------------------- */

static void init_results(rctx *x)
{
    const tournament *t = x->t;
    for (size_t r = 0; r < t->nrounds; r++)
        for (size_t k = 0; k < t->rounds[r].npairs; k++) {
            const tpairing *p = &t->rounds[r].pairs[k];
            tour_result *rr = &x->r->results[x->roff[r] + k];
            rr->round = (uint32_t)r + 1;
            rr->table = p->table;
            rr->game = p->game;
            rr->elimination = tour_is_elimination(t, rr->round);
            rr->player[0] = p->p[0];
            rr->player[1] = p->p[1];
        }
}

/* Round by round, so that T32's check sees the groups before each round. */
static int eval_rounds(rctx *x)
{
    const tournament *t = x->t;
    tour_wdl *c = calloc(t->np + 1, sizeof *c);
    int rc = 0;
    if (!c)
        return TOUR_ENOMEM;
    for (uint32_t r = 1; r <= t->nrounds && !rc; r++) {
        const tround *rd = &t->rounds[r - 1];
        int swiss = !tour_is_elimination(t, r);
        if (swiss && r >= 2)
            rc = check_byes(x, r, c);
        for (size_t k = 0; k < rd->npairs && !rc; k++)
            rc = eval_pairing(x, x->roff[r - 1] + k);
        for (size_t k = 0; k < rd->nreports && !rc; k++)
            rc = check_report(x, x->roff[r - 1] + rd->reports[k].pairing, &rd->reports[k]);
        for (size_t k = 0; k < rd->npairs && swiss; k++)
            for (int s = 0; s < 2; s++)
                if (rd->pairs[k].p[s] >= 0)
                    tour_wdl_count(&c[rd->pairs[k].p[s]], x->r->results[x->roff[r - 1] + k].outcome[s]);
        for (size_t p = 0; p < t->np && swiss; p++)   /* T23: unpaired losses */
            if (!tour_active_in(t, (int)p, r) && (t->players[p].active >> r))
                tour_wdl_count(&c[p], TOUR_UNPAIRED_LOSS);
    }
    free(c);
    return rc;
}

/* T19, T45: a judge's result covers the alarms of its pairing -- once it
 * gives a result (one naming no record settles nothing). */
static void resolve_alarms(rctx *x)
{
    for (size_t i = 0; i < x->r->n_alarms; i++) {
        size_t res = x->alarm_res[i];
        if (res != SIZE_MAX && x->r->results[res].judge && x->r->results[res].outcome[0] != TOUR_PENDING &&
            strcmp(x->r->alarms[i].kind, "judge_overrides_record"))
            x->r->alarms[i].resolved = 1;
    }
}

int tournament_results(const tournament *t, const tour_game *games, size_t n, tour_results **out)
{
    rctx x = {.t = t, .g = games, .ng = n};
    int rc;
    *out = NULL;
    if (n > TOUR_GAMES_MAX)
        return TOUR_EINVAL;
    x.r = calloc(1, sizeof *x.r);
    if (!x.r)
        return TOUR_ENOMEM;
    rc = rctx_alloc(&x);
    if (!rc) {
        init_results(&x);
        for (size_t i = 0; i < n; i++)
            x.gres[i] = x.gnext[i] = -1, x.gp[i][0] = x.gp[i][1] = -1;
    }
    for (size_t i = 0; i < n && !rc; i++)
        if (ours(t, &games[i]))
            rc = place_game(&x, i);
    if (!rc) {
        link_games(&x);
        rc = find_doubles(&x);
    }
    if (!rc)
        rc = pairing_doubles(&x);
    if (!rc)
        rc = pairing_rules(&x);
    if (!rc)
        rc = check_decks(&x);
    if (!rc)
        rc = eval_rounds(&x);
    if (!rc)
        resolve_alarms(&x);
    rctx_free(&x);
    if (rc)
        tour_results_destroy(&x.r);
    *out = x.r;
    return rc;
}

void tour_results_destroy(tour_results **r)
{
    if (!r || !*r)
        return;
    free((*r)->results);
    free((*r)->alarms);
    free(*r);
    *r = NULL;
}

/* ---- standings (T20-T28) -------------------------------------------------- */

