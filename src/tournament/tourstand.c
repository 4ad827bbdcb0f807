/* tourstand.c -- the standings after a Swiss round, the cut, the final order.
 *
 * What: T20-T28 (points, tiebreaks, strength of schedule, the `standings R`
 * draw), T33 (the cut) and T38 (the final standings, the bracket's order)
 * from a tournament's results (tourresult.h).
 *
 * Why pure: the same standings must come out of the CLI and the daemon's
 * `standings` op (T24), and anybody must be able to repeat the last
 * tiebreak's draw (T27, tourdraw.h).
 *
 * How: two linear passes over the results (tally, then strength of
 * schedule) and one sort.  Strength of schedule is an exact fraction over
 * lcm(1..32), which fits 64 bits because a Swiss stage has at most
 * TOUR_SWISS_MAX rounds; only its comparison needs 128-bit products.  The
 * final order walks the bracket round by round, then sorts: who is still
 * in first, then the latest eliminated, then who missed the cut, the Swiss
 * order within each.
 */
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourdraw.h"
#include "src/tournament/tourint.h"
#include "src/tournament/tourstand.h"


/* lcm(1..32): every opponent's points per round over it is an integer (T26). */
#define SOS_LCM UINT64_C(144403552893600)

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Accumulate one player's side of one Swiss result. */
static void tally(tour_row *row, const tour_result *rr, int k)
{
    tour_outcome o = rr->outcome[k];
    if (o == TOUR_PENDING || o == TOUR_NO_RESULT)
        return;
    row->points += tour_outcome_points[o];                  /* T20 */
    row->wins += tour_outcome_group[o] == 'w';              /* T25: wins and byes */
    row->draws += tour_outcome_group[o] == 'd';
    row->losses += tour_outcome_group[o] == 'l';
    row->byes += o == TOUR_BYE;
    row->rounds++;
    row->mov += rr->mov[k];                            /* T6 */
}

static int has_opponent(const tour_result *rr)
{
    return rr->player[1] >= 0 && rr->outcome[0] != TOUR_PENDING && rr->outcome[0] != TOUR_NO_RESULT &&
           rr->outcome[1] != TOUR_NO_RESULT && rr->outcome[0] != TOUR_BYE && rr->outcome[1] != TOUR_BYE;
}

/* T26: (sum over opponents of points / rounds) / opponents, exact. */
static void add_sos(tour_row *rows, const tour_result *rr)
{
    if (!has_opponent(rr))
        return;
    for (int k = 0; k < 2; k++) {
        const tour_row *o = &rows[rr->player[1 - k]];
        rows[rr->player[k]].sos_num += (uint64_t)o->points * (SOS_LCM / o->rounds);
        rows[rr->player[k]].sos_den++;   /* opponents, for now */
    }
}

static void finish_sos(tour_row *row)
{
    if (!row->sos_den) {
        row->sos_num = 0, row->sos_den = 1;
        return;
    }
    uint64_t den = row->sos_den * SOS_LCM, g = gcd64(row->sos_num, den);
    row->sos_num /= g ? g : 1;
    row->sos_den = den / (g ? g : 1);
}

static int cmp_row(const void *a, const void *b)
{
    const tour_row *x = a, *y = b;
    if (x->points != y->points)   /* T24: points, wins, MOV, SoS, random */
        return x->points > y->points ? -1 : 1;
    if (x->wins != y->wins)
        return x->wins > y->wins ? -1 : 1;
    if (x->mov != y->mov)
        return x->mov > y->mov ? -1 : 1;
    u128 l = (u128)x->sos_num * y->sos_den, r = (u128)y->sos_num * x->sos_den;
    if (l != r)
        return l > r ? -1 : 1;
    return x->random_place < y->random_place ? -1 : x->random_place > y->random_place;
}

/* T28: every player's place in one shuffle, `standings R`. */
static int random_places(const tournament *t, const char *seed, const char *label, tour_row *rows)
{
    int *order = malloc((t->np + 1) * sizeof *order);
    tour_stream s;
    if (!order)
        return TOUR_ENOMEM;
    if (t->np)
        memcpy(order, t->by_id, t->np * sizeof *order);
    tour_stream_init(&s, seed, label);
    tour_shuffle(&s, order, t->np);
    for (size_t i = 0; i < t->np; i++)
        rows[order[i]].random_place = (uint32_t)i + 1;
    free(order);
    return 0;
}

static int add_pending(tour_standings *s, const tour_result *rr)
{
    tour_pending *np = realloc(s->pending, (s->n_pending + 1) * sizeof *np);
    if (!np)
        return TOUR_ENOMEM;
    s->pending = np;
    tour_pending *p = &np[s->n_pending++];
    memset(p, 0, sizeof *p);
    p->label = "pending game";
    p->round = rr->round;
    p->table = rr->table;
    tour_copy_str(p->match, sizeof p->match, rr->match);
    tour_copy_str(p->why, sizeof p->why, rr->why);
    return 0;
}

/* Every player's row over the Swiss rounds up to `upto` (T20-T26). */
static int tally_rounds(const tournament *t, const tour_results *r, uint32_t upto, tour_standings *s, tour_row *rows)
{
    int rc = 0;
    for (size_t p = 0; p < t->np; p++) {
        rows[p].player = (int)p;
        for (uint32_t k = 1; k <= upto; k++)   /* T23: an unpaired loss is a round played */
            if (!tour_active_in(t, (int)p, k) && (t->players[p].active >> k)) {
                rows[p].losses++;
                rows[p].rounds++;
            }
        /* T22: not active in the next round */
        rows[p].dropped = t->last_drop[p] != NO_DROP && t->last_drop[p] <= upto && !tour_active_in(t, (int)p, upto + 1);
    }
    for (size_t i = 0; i < r->n_results && !rc; i++) {
        const tour_result *rr = &r->results[i];
        if (rr->round > upto || rr->elimination)
            continue;
        for (int k = 0; k < 2; k++)
            if (rr->player[k] >= 0)
                tally(&rows[rr->player[k]], rr, k);
        if (rr->outcome[0] == TOUR_PENDING)
            rc = add_pending(s, rr);
    }
    for (size_t i = 0; i < r->n_results && !rc; i++)
        if (r->results[i].round <= upto && !r->results[i].elimination)
            add_sos(rows, &r->results[i]);
    for (size_t p = 0; p < t->np; p++)
        finish_sos(&rows[p]);
    s->provisional = s->n_pending > 0;   /* T24 */
    return rc;
}

/* The standings after Swiss round `upto` (0: none played, for an event
 * that eliminates from the start): every player but the disqualified. */
static int swiss_standings(const tournament *t, const tour_results *r, uint32_t upto, tour_standings **out)
{
    tour_standings *s = calloc(1, sizeof *s);
    tour_row *all = calloc(t->np + 1, sizeof *all);
    int rc = s && all ? 0 : TOUR_ENOMEM;
    if (!rc) {
        s->after_round = upto;
        s->seed = tour_round_seed(t, upto, 1, &s->seed_made);
        tour_say(s->label, sizeof s->label, "standings %u", upto);
        rc = tally_rounds(t, r, upto, s, all);
    }
    if (!rc)
        rc = random_places(t, s->seed, s->label, all);
    if (!rc)
        s->rows = calloc(t->np + 1, sizeof *s->rows);
    if (!rc && !s->rows)
        rc = TOUR_ENOMEM;
    for (size_t p = 0; p < t->np && !rc; p++)
        if (!t->players[p].disqualified)   /* T22: never ranked */
            s->rows[s->n_rows++] = all[p];
    if (!rc) {
        qsort(s->rows, s->n_rows, sizeof *s->rows, cmp_row);
        for (size_t i = 0; i < s->n_rows; i++)
            s->rows[i].place = (uint32_t)i + 1;
    }
    free(all);
    if (rc)
        tour_standings_destroy(&s);
    *out = s;
    return rc;
}

int tournament_standings(const tournament *t, const tour_results *r, uint32_t after_round, tour_standings **out,
                         char *err, size_t errlen)
{
    *out = NULL;
    if (after_round < 1 || after_round > t->st.swiss_rounds || after_round > t->nrounds) {
        tour_say(err, errlen, "Round %u is not a published Swiss round.", after_round);
        return TOUR_EINVAL;
    }
    return swiss_standings(t, r, after_round, out);
}

void tour_standings_destroy(tour_standings **s)
{
    if (!s || !*s)
        return;
    free((*s)->rows);
    free((*s)->pending);
    free(*s);
    *s = NULL;
}

/* ---- the cut (T33) -------------------------------------------------------- */

static int swiss_over(const tournament *t, const tour_results *r, char *err, size_t errlen)
{
    uint32_t S = t->st.swiss_rounds;
    if (t->nrounds < S) {
        tour_say(err, errlen, "Swiss round %u is not published yet.", S);
        return TOUR_EPENDING;
    }
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].round <= S && r->results[i].outcome[0] == TOUR_PENDING) {
            tour_say(err, errlen, "Round %u table %s has no result yet (%s).", r->results[i].round,
                r->results[i].table ? r->results[i].table : "-", r->results[i].why);
            return TOUR_EPENDING;
        }
    return 0;
}

int tournament_cut(const tournament *t, const tour_results *r, int seeds[TOUR_CUT_MAX], uint32_t *n, char *err,
                   size_t errlen)
{
    uint32_t S = t->st.swiss_rounds, N = t->st.cut, k = 0;
    tour_standings *s = NULL;
    *n = 0;
    if (!S || !N || t->st.kind == TOUR_ALL_ELIMINATION) {
        tour_say(err, errlen, "The structure has no cut.");
        return TOUR_EINVAL;
    }
    int rc = swiss_over(t, r, err, errlen);
    if (!rc)
        rc = swiss_standings(t, r, S, &s);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < N; i++)
        seeds[i] = -1;
    for (size_t i = 0; i < s->n_rows && k < N; i++) {
        int p = s->rows[i].player;
        /* T33: a player who left before round S+1 is skipped, and the next
         * one enters as the lowest of the cut; on a later day, one who left
         * after qualifying keeps an empty seed */
        if (!tour_active_in(t, p, S))
            continue;
        if (tour_active_in(t, p, S + 1))
            seeds[k++] = p;
        else if (t->later_day)
            seeds[k++] = -1;
    }
    *n = N;
    tour_standings_destroy(&s);
    return 0;
}

/* ---- the final standings (T38) -------------------------------------------- */

int tour_result_winner(const tour_result *rr)
{
    for (int k = 0; k < 2; k++) {
        tour_outcome o = rr->outcome[k];
        if (rr->player[k] >= 0 && (o == TOUR_WIN || o == TOUR_DRAW_WIN || o == TOUR_BYE))
            return k;
    }
    return -1;
}

/* T38: the round each player of the bracket was eliminated in (0: still in
 * or never there); *in_bracket marks who played it; *open when a game has
 * no result yet. */
static void bracket(const tournament *t, const tour_results *r, tour_row *rows, uint8_t *in_bracket, int *open)
{
    uint32_t last = 0, *seen = calloc(t->np + 1, sizeof *seen);
    uint8_t *won = calloc(t->np + 1, 1);
    if (!seen || !won) {
        *open = -1;
        goto out;
    }
    for (size_t i = 0; i < r->n_results; i++) {
        const tour_result *rr = &r->results[i];
        if (!rr->elimination)
            continue;
        last = rr->round > last ? rr->round : last;
        int w = tour_result_winner(rr);
        *open |= rr->outcome[0] == TOUR_PENDING;
        for (int k = 0; k < 2; k++)
            if (rr->player[k] >= 0) {
                in_bracket[rr->player[k]] = 1;
                seen[rr->player[k]] = rr->round;
                won[rr->player[k]] = w == k || rr->outcome[0] == TOUR_PENDING;
            }
    }
    for (size_t p = 0; p < t->np; p++) {
        if (!in_bracket[p])
            continue;
        /* a loser leaves in the round they lost; a winner missing from a
         * later round dropped between rounds (T37) */
        if (!won[p])
            rows[p].eliminated_in = seen[p];
        else if (seen[p] < last)
            rows[p].eliminated_in = seen[p] + 1;
    }
    *open |= last < tour_total_rounds(t);
out:
    free(seen);
    free(won);
}

/* Added to the Swiss place of a player who did not make the cut, while
 * sorting: above any place, so that they sort last. */
#define OUT_OF_CUT UINT32_C(0x40000000)

static uint32_t final_key(const tour_row *x)
{
    return x->eliminated_in ? x->eliminated_in : x->place >= OUT_OF_CUT ? 0 : UINT32_MAX;
}

static int cmp_final(const void *a, const void *b)
{
    const tour_row *x = a, *y = b;
    /* still in first, then the latest eliminated, then the rest; the
     * Swiss order within each */
    uint32_t ex = final_key(x), ey = final_key(y);
    if (ex != ey)
        return ex > ey ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}

int tournament_final(const tournament *t, const tour_results *r, tour_standings **out, char *err, size_t errlen)
{
    uint32_t S = t->st.swiss_rounds, upto = S < t->nrounds ? S : (uint32_t)t->nrounds;
    int rc = swiss_standings(t, r, upto, out), open = 0;
    if (rc)
        return rc;
    tour_standings *s = *out;
    s->final = 1;
    s->provisional |= upto < S;
    if (!t->st.elimination_rounds)
        return 0;
    tour_row *byp = calloc(t->np + 1, sizeof *byp);
    uint8_t *in = calloc(t->np + 1, 1);
    if (!byp || !in) {
        free(byp);
        free(in);
        tour_standings_destroy(out);
        return TOUR_ENOMEM;
    }
    bracket(t, r, byp, in, &open);
    for (size_t i = 0; i < s->n_rows; i++) {
        int p = s->rows[i].player;
        s->rows[i].eliminated_in = byp[p].eliminated_in;
        if (!in[p])   /* did not make the cut: below everyone who did */
            s->rows[i].place += OUT_OF_CUT;
    }
    qsort(s->rows, s->n_rows, sizeof *s->rows, cmp_final);
    for (size_t i = 0; i < s->n_rows; i++)
        s->rows[i].place = (uint32_t)i + 1;
    s->provisional |= open != 0;
    s->after_round = (uint32_t)t->nrounds;
    free(byp);
    free(in);
    return 0;
}

/* ---- Swiss pairing (T29-T32) ---------------------------------------------- */

