/* tourpair.c -- the pairings of the next round, Swiss and elimination.
 *
 * What: T29-T32 (the Swiss pairing: groups, byes, rematches) and T34-T37
 * (the elimination bracket, from the cut or from round 1), from a
 * tournament's results (tourresult.h).
 *
 * Why pure: anybody holding the file and the records must be able to repeat
 * a pairing (T27): every draw comes from the seeded stream (tourdraw.h).
 *
 * How, the Swiss pairing (T30, T31).  The list is the groups, best first,
 * each shuffled.  T30's search pairs the first unpaired player with the next
 * one in the list who is not a former opponent, and backtracks when the rest
 * cannot be paired.  Run naively that search is exponential; it need not
 * be.  Let D be the most opponents any player has met.  Among m players
 * where each has at most D former opponents, the "may meet" graph has
 * minimum degree m - 1 - D, which is at least m/2 once m >= 2D + 2; by
 * Dirac's theorem that graph then has a Hamiltonian cycle, so (m even) a
 * perfect matching without a rematch.  Hence while m >= 2D + 4 players are
 * unpaired, the greedy choice leaves m - 2 >= 2D + 2 players that can still
 * be paired, the search would never come back to undo it, and taking it
 * without a search gives exactly the search's answer.  Only the last
 * 2D + 2 players (the whole list, in an event smaller than that) are
 * searched exhaustively, with a step budget (TOUR_SEARCH_MAX) per rematch
 * allowance: allowance 0 first, then 1, 2, ... until a pairing is found,
 * which is T31's "fewest rematches".  With allowance m/2 the first path
 * succeeds, so the loop ends.  The cost is O(P D^2) for the greedy part.
 */
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourdraw.h"
#include "src/tournament/tourint.h"
#include "src/tournament/tourpair.h"
#include "src/tournament/tourstand.h"

typedef struct {
    const tournament *t;
    uint32_t round;
    tour_wdl *c;                     /* per player: groups and byes before the round */
    size_t *opp_off;            /* CSR: former opponents of the stage (T31)    */
    int *opp;
    size_t D;                   /* the most opponents any player has met       */
    /* the search */
    const int *list;
    size_t n, budget, steps;
    uint8_t *taken;
    int (*out)[2];
    size_t nout, rematches;
    int cut;
} swiss;

static int met(const swiss *w, int p, int q)
{
    for (size_t i = w->opp_off[p]; i < w->opp_off[p + 1]; i++)
        if (w->opp[i] == q)
            return 1;
    return 0;
}

/* T30's search over the tail: the first unpaired player with the next one
 * not met before; then, while the allowance lasts, with one met before. */
static int dfs(swiss *w, const int *tail, size_t m, size_t from)
{
    while (from < m && w->taken[from])
        from++;
    if (from == m)
        return 1;
    w->taken[from] = 1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = from + 1; j < m; j++) {
            int o = met(w, tail[from], tail[j]);
            if (w->taken[j] || o != pass || (pass && !w->budget))
                continue;
            if (++w->steps > TOUR_SEARCH_MAX) {
                w->cut = 1;
                w->taken[from] = 0;
                return 0;
            }
            w->taken[j] = 1;
            w->budget -= (size_t)pass;
            w->out[w->nout][0] = tail[from];
            w->out[w->nout++][1] = tail[j];
            if (dfs(w, tail, m, from + 1))
                return 1;
            w->nout--;
            w->budget += (size_t)pass;
            w->taken[j] = 0;
        }
    w->taken[from] = 0;
    return 0;
}

/* Pair list[0..n) with at most `allow` rematches; the essay at the top says
 * why the greedy prefix is the search's own answer. */
static int pair_list(swiss *w, const int *list, size_t n, size_t allow)
{
    int ok = 0, *tail = malloc((n + 1) * sizeof *tail);
    size_t *nxt = malloc((n + 2) * sizeof *nxt), head = 0, m = n;
    if (!tail || !nxt)
        goto out;
    for (size_t i = 0; i <= n; i++)
        nxt[i] = i + 1;
    memset(w->taken, 0, n + 1);
    w->nout = 0;
    while (m >= 2 * w->D + 4) {
        size_t p = head, q = nxt[p], prev = p;
        while (met(w, list[p], list[q]))
            prev = q, q = nxt[q];
        w->out[w->nout][0] = list[p];
        w->out[w->nout++][1] = list[q];
        nxt[prev] = nxt[q];
        head = nxt[p];
        m -= 2;
    }
    size_t k = 0;
    for (size_t i = head; i < n; i = nxt[i])
        tail[k++] = list[i];
    w->budget = allow;
    w->steps = 0;
    ok = dfs(w, tail, k, 0);
out:
    free(tail);
    free(nxt);
    return ok ? 1 : tail && nxt ? 0 : -1;
}

static size_t count_rematches(const swiss *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nout; i++)
        n += (size_t)met(w, w->out[i][0], w->out[i][1]);
    return n;
}

/* T31: allowance 0, then 1, 2, ...: the fewest rematches the search finds. */
static int pair_fewest(swiss *w, const int *list, size_t n, int zero_only)
{
    for (size_t allow = 0; allow <= n / 2; allow++) {
        int ok = pair_list(w, list, n, allow);
        if (ok)
            return ok;
        if (zero_only)
            return 0;
    }
    return -1;   /* cannot happen: allowance n/2 pairs anybody */
}

/* T30: a player's group and id rank, sortable without a context. */
typedef struct {
    uint32_t w, d, l;
    int rank, p;
} gkey;

/* Group order, best first: more wins, more draws, fewer losses; id order
 * inside a group, ready for its shuffle. */
static int cmp_gkey(const void *a, const void *b)
{
    const gkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->d != y->d)
        return x->d > y->d ? -1 : 1;
    if (x->l != y->l)
        return x->l < y->l ? -1 : 1;
    return x->rank - y->rank;
}

static int cmp_gkey_low(const void *a, const void *b)
{
    const gkey *x = a, *y = b;
    if (x->w != y->w || x->d != y->d || x->l != y->l)
        return -cmp_gkey(a, b);
    return x->rank - y->rank;
}

/* Sort players into group order (best first, or lowest first). */
static int group_sort(const swiss *w, int *list, size_t n, int lowest_first)
{
    gkey *k = malloc((n + 1) * sizeof *k);
    if (!k)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const tour_wdl *c = &w->c[list[i]];
        k[i] = (gkey){c->w, c->d, c->l, w->t->rank[list[i]], list[i]};
    }
    qsort(k, n, sizeof *k, lowest_first ? cmp_gkey_low : cmp_gkey);
    for (size_t i = 0; i < n; i++)
        list[i] = k[i].p;
    free(k);
    return 0;
}

static int same_group(const swiss *w, int p, int q)
{
    return w->c[p].w == w->c[q].w && w->c[p].d == w->c[q].d && w->c[p].l == w->c[q].l;
}

/* Shuffle each group of a grouped list in place, one stream, in order. */
static void shuffle_groups(const swiss *w, tour_stream *s, int *list, size_t n)
{
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && same_group(w, list[i], list[j]); j++)
            ;
        tour_shuffle(s, list + i, j - i);
    }
}

/* Groups and former opponents before round R, from the Swiss results. */
static int swiss_setup(swiss *w, const tour_results *r)
{
    const tournament *t = w->t;
    size_t *deg;
    w->c = calloc(t->np + 1, sizeof *w->c);
    w->opp_off = calloc(t->np + 2, sizeof *w->opp_off);
    deg = calloc(t->np + 1, sizeof *deg);
    if (!w->c || !w->opp_off || !deg) {
        free(deg);
        return TOUR_ENOMEM;
    }
    for (uint32_t k = 1; k < w->round; k++)   /* T23: unpaired losses */
        for (size_t p = 0; p < t->np; p++)
            if (!tour_active_in(t, (int)p, k) && (t->players[p].active >> k))
                tour_wdl_count(&w->c[p], TOUR_UNPAIRED_LOSS);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->n_results; i++) {
            const tour_result *rr = &r->results[i];
            if (rr->round >= w->round || rr->elimination)
                continue;
            for (int k = 0; k < 2 && !pass; k++)
                if (rr->player[k] >= 0)
                    tour_wdl_count(&w->c[rr->player[k]], rr->outcome[k]);
            /* T31: a game, with or without a result, is a meeting; a bye is none */
            if (rr->player[1] < 0 || rr->outcome[0] == TOUR_NO_RESULT || rr->outcome[1] == TOUR_NO_RESULT)
                continue;
            for (int k = 0; k < 2; k++) {
                int p = rr->player[k];
                if (pass)
                    w->opp[w->opp_off[p] + deg[p]++] = rr->player[1 - k];
                else
                    w->opp_off[p + 1]++;
            }
        }
        if (!pass) {
            for (size_t p = 0; p < t->np; p++) {
                w->D = w->opp_off[p + 1] > w->D ? w->opp_off[p + 1] : w->D;
                w->opp_off[p + 1] += w->opp_off[p];
            }
            w->opp = calloc(w->opp_off[t->np] + 1, sizeof *w->opp);
            if (!w->opp) {
                free(deg);
                return TOUR_ENOMEM;
            }
        }
    }
    free(deg);
    return 0;
}

/* T32: who may take the bye, in order: the lowest group's players without
 * a bye, drawn with `bye R`, then the next group up; players who had one
 * come after everybody who had none. */
static int bye_candidates(swiss *w, const int *act, size_t n, int *cand)
{
    char label[32];
    tour_stream s;
    size_t k = 0;
    tour_say(label, sizeof label, "bye %u", w->round);
    tour_stream_init(&s, tour_round_seed(w->t, w->round, 0, NULL), label);
    for (int had = 0; had < 2; had++) {
        size_t start = k;
        for (size_t i = 0; i < n; i++)
            if ((w->c[act[i]].byes > 0) == had)
                cand[k++] = act[i];
        if (group_sort(w, cand + start, k - start, 1))
            return TOUR_ENOMEM;
        shuffle_groups(w, &s, cand + start, k - start);
    }
    return 0;
}

/* The list of T30 without `skip`: groups best first, each shuffled. */
static int swiss_list(swiss *w, const int *act, size_t n, int skip, int *list, size_t *m)
{
    char label[32];
    tour_stream s;
    *m = 0;
    for (size_t i = 0; i < n; i++)
        if (act[i] != skip)
            list[(*m)++] = act[i];
    if (group_sort(w, list, *m, 0))
        return TOUR_ENOMEM;
    tour_say(label, sizeof label, "pair %u", w->round);
    tour_stream_init(&s, tour_round_seed(w->t, w->round, 0, NULL), label);
    shuffle_groups(w, &s, list, *m);
    return 0;
}

/* T30-T32: pair the active players; *bye gets the bye, or -1. */
static int swiss_pairs(swiss *w, const int *act, size_t n, int *bye)
{
    int *cand = malloc((n + 1) * sizeof *cand), *list = malloc((n + 1) * sizeof *list), rc = 0, ok = 0;
    size_t m = 0, tries = 0;
    *bye = -1;
    if (!cand || !list) {
        rc = TOUR_ENOMEM;
        goto out;
    }
    if (n % 2 == 0)
        rc = swiss_list(w, act, n, -1, list, &m);
    else if (!(rc = bye_candidates(w, act, n, cand))) {
        /* T32: the next candidate takes the bye while the rest cannot be
         * paired without a rematch; past 2D + 3 players the first always
         * can (the essay), so only that many are tried */
        for (size_t i = 0; i < n && i < 2 * w->D + 4 && !rc && !ok; i++, tries++) {
            rc = swiss_list(w, act, n, cand[i], list, &m);
            if (!rc && (ok = pair_fewest(w, list, m, 1)) == 1)
                *bye = cand[i];
            rc = rc ? rc : ok < 0 ? TOUR_ENOMEM : 0;
        }
        if (!rc && !ok) {
            *bye = cand[0];
            rc = swiss_list(w, act, n, cand[0], list, &m);
        }
    }
    if (!rc && !ok)
        ok = pair_fewest(w, list, m, 0);
    if (!rc && ok < 0)
        rc = TOUR_ENOMEM;
    w->rematches = count_rematches(w);
out:
    free(cand);
    free(list);
    (void)tries;
    return rc;
}

/* ---- pairings: the public side -------------------------------------------- */

typedef struct {
    tour_pairings pub;          /* first: the box is freed through it          */
    char labels[64];
} pairings_box;

static int new_pairings(const tournament *t, uint32_t round, size_t cap, pairings_box **out)
{
    pairings_box *b = calloc(1, sizeof *b);
    if (b)
        b->pub.pairs = calloc(cap + 1, sizeof *b->pub.pairs);
    if (!b || !b->pub.pairs) {
        free(b);
        return TOUR_ENOMEM;
    }
    b->pub.round = round;
    b->pub.elimination = tour_is_elimination(t, round);
    b->pub.seed = tour_round_seed(t, round, 0, &b->pub.seed_made);
    b->pub.labels = b->labels;
    *out = b;
    return 0;
}

static void put_pair(tour_pairings *p, int a, int b, uint32_t game, int table)
{
    tour_pair *x = &p->pairs[p->n_pairs++];
    x->player[0] = a;
    x->player[1] = b;
    x->game = game;
    if (table && b >= 0)
        tour_say(x->table, sizeof x->table, "%d", table);
}

/* T29: round 1 drawn with `pair 1`; the last one of an odd count has the bye. */
static int swiss_first(const tournament *t, pairings_box *b)
{
    int *list = malloc((t->np + 1) * sizeof *list), table = 0;
    size_t n = 0;
    tour_stream s;
    if (!list)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < t->np; i++)
        if (tour_active_in(t, t->by_id[i], 1))
            list[n++] = t->by_id[i];
    tour_say(b->labels, sizeof b->labels, "pair 1");
    tour_stream_init(&s, b->pub.seed, b->labels);
    tour_shuffle(&s, list, n);
    for (size_t i = 0; i + 1 < n; i += 2)
        put_pair(&b->pub, list[i], list[i + 1], 0, ++table);
    if (n % 2)
        put_pair(&b->pub, list[n - 1], -1, 0, 0);
    free(list);
    return 0;
}

static int pending_before(const tournament *t, const tour_results *r, uint32_t round, char *err, size_t errlen)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].round < round && r->results[i].outcome[0] == TOUR_PENDING) {
            tour_say(err, errlen, "Round %u table %s has no result yet (%s).", r->results[i].round,
                r->results[i].table ? r->results[i].table : "-", r->results[i].why);
            return TOUR_EPENDING;
        }
    return 0;
}

static int swiss_later(const tournament *t, const tour_results *r, pairings_box *b, char *err, size_t errlen)
{
    swiss w = {.t = t, .round = b->pub.round};
    int *act = malloc((t->np + 1) * sizeof *act), bye = -1, table = 0;
    size_t n = 0;
    /* T30: no pairing while a result of a round before is pending */
    int rc = act ? pending_before(t, r, w.round, err, errlen) : TOUR_ENOMEM;
    if (!rc)
        rc = swiss_setup(&w, r);
    for (size_t i = 0; i < t->np && !rc; i++)
        if (tour_active_in(t, (int)i, w.round))
            act[n++] = (int)i;
    w.taken = rc ? NULL : calloc(n + 2, 1);
    w.out = rc ? NULL : calloc(n / 2 + 1, sizeof *w.out);
    if (!rc && (!w.taken || !w.out))
        rc = TOUR_ENOMEM;
    if (!rc)
        rc = swiss_pairs(&w, act, n, &bye);
    for (size_t i = 0; i < w.nout && !rc; i++) {
        put_pair(&b->pub, w.out[i][0], w.out[i][1], 0, ++table);
        b->pub.pairs[i].rematch = met(&w, w.out[i][0], w.out[i][1]);
    }
    if (!rc && bye >= 0)
        put_pair(&b->pub, bye, -1, 0, 0);
    b->pub.rematches = w.rematches;
    b->pub.search_cut = w.cut;
    tour_say(b->labels, sizeof b->labels, n % 2 ? "pair %u, bye %u" : "pair %u", w.round, w.round);
    free(act);
    free(w.c);
    free(w.opp_off);
    free(w.opp);
    free(w.taken);
    free(w.out);
    return rc;
}

/* ---- elimination pairing (T34-T37) ---------------------------------------- */

/* T34: seed k against seed N + 1 - k, Game #k at table "k"; an empty seed
 * gives its opponent a bye (T33, T37). */
static int elim_after_cut(const tournament *t, const tour_results *r, pairings_box *b, char *err, size_t errlen)
{
    int seeds[TOUR_CUT_MAX];
    uint32_t n;
    int rc = tournament_cut(t, r, seeds, &n, err, errlen);
    if (rc)
        return rc;
    for (uint32_t k = 1; k <= n / 2; k++) {
        int a = seeds[k - 1], c = seeds[n - k];
        put_pair(&b->pub, a >= 0 ? a : c, a >= 0 ? c : -1, k, (int)k);
    }
    tour_say(b->labels, sizeof b->labels, "%s", "");
    return 0;
}

/* T35: byes drawn with `elimination byes`, then games numbered with
 * `elimination games`: byes first, pairings after, before that shuffle. */
static int elim_from_start(const tournament *t, pairings_box *b)
{
    int *list = malloc((t->np + 1) * sizeof *list), *items = malloc((t->np + 1) * sizeof *items);
    size_t n = 0, nb, ni = 0;
    tour_stream s;
    if (!list || !items) {
        free(list);
        free(items);
        return TOUR_ENOMEM;
    }
    for (size_t i = 0; i < t->np; i++)
        if (tour_active_in(t, t->by_id[i], 1))
            list[n++] = t->by_id[i];
    nb = ((size_t)1 << tour_log2_ceil((uint32_t)n)) - n;
    tour_stream_init(&s, b->pub.seed, "elimination byes");
    tour_shuffle(&s, list, n);
    /* an item is a bye (its player's index) or a pairing (its first
     * player's position in list, offset past every player index) */
    for (size_t i = 0; i < nb; i++)
        items[ni++] = (int)i;
    for (size_t i = nb; i + 1 < n; i += 2)
        items[ni++] = (int)i;
    tour_stream_init(&s, b->pub.seed, "elimination games");
    tour_shuffle(&s, items, ni);
    for (size_t k = 0; k < ni; k++) {
        size_t i = (size_t)items[k];
        if (i < nb)
            put_pair(&b->pub, list[i], -1, (uint32_t)k + 1, 0);
        else
            put_pair(&b->pub, list[i], list[i + 1], (uint32_t)k + 1, (int)k + 1);
    }
    tour_say(b->labels, sizeof b->labels, "elimination byes, elimination games");
    free(list);
    free(items);
    return 0;
}

/* T36: Game #k is the winner of Game #k against the winner of Game
 * #(M + 1 - k); T37: a winner gone, or a double loss, gives a bye. */
static int elim_later(const tournament *t, const tour_results *r, pairings_box *b, char *err, size_t errlen)
{
    uint32_t prev = b->pub.round - 1, M = 0;
    int w[2 * TOUR_CUT_MAX + 2];
    const tround *rd = tour_round_of(t, prev);
    size_t base = 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        w[i] = -1;
    for (size_t i = 0; i < r->n_results && r->results[i].round < prev; i++)
        base++;
    for (size_t k = 0; rd && k < rd->npairs; k++) {
        const tour_result *rr = &r->results[base + k];
        if (rr->game < 1 || rr->game > 2 * TOUR_CUT_MAX) {
            tour_say(err, errlen, "Round %u has a game number past %d.", prev, 2 * TOUR_CUT_MAX);
            return TOUR_EINVAL;
        }
        if (rr->outcome[0] == TOUR_PENDING) {
            tour_say(err, errlen, "Round %u Game #%u has no winner yet (%s).", prev, rr->game, rr->why);
            return TOUR_EPENDING;
        }
        int k2 = tour_result_winner(rr);
        w[rr->game] = k2 >= 0 && tour_active_in(t, rr->player[k2], b->pub.round) ? rr->player[k2] : -1;
        M = rr->game > M ? rr->game : M;
    }
    /* the bracket's own count of that round's games, 2^(E - j) in its j-th
     * elimination round: a game nobody was left to play (two empty seeds,
     * T33, T34) is not published, yet it is one of the round's M games */
    uint32_t j = prev - t->st.swiss_rounds, E = t->st.elimination_rounds;
    if (j >= 1 && j <= E && E - j < 31 && (UINT32_C(1) << (E - j)) <= 2 * TOUR_CUT_MAX)
        M = (UINT32_C(1) << (E - j)) > M ? UINT32_C(1) << (E - j) : M;
    for (uint32_t k = 1; k <= M / 2; k++) {
        int a = w[k], c = w[M + 1 - k];
        put_pair(&b->pub, a >= 0 ? a : c, a >= 0 ? c : -1, k, (int)k);
    }
    tour_say(b->labels, sizeof b->labels, "%s", "");
    return 0;
}

int tournament_pair(const tournament *t, const tour_results *r, uint32_t round, tour_pairings **out, char *err,
                    size_t errlen)
{
    uint32_t next = t->nrounds && !t->rounds[t->nrounds - 1].npairs ? (uint32_t)t->nrounds : (uint32_t)t->nrounds + 1;
    pairings_box *b = NULL;
    int rc;
    *out = NULL;
    if (round != next || round > tour_total_rounds(t)) {
        tour_say(err, errlen, "Round %u is not the next round to pair (round %u of %u).", round, next, tour_total_rounds(t));
        return TOUR_EINVAL;
    }
    rc = new_pairings(t, round, t->np, &b);
    if (!rc) {
        if (t->st.kind == TOUR_ALL_ELIMINATION && round == 1)
            rc = elim_from_start(t, b);
        else if (!tour_is_elimination(t, round))
            rc = round == 1 ? swiss_first(t, b) : swiss_later(t, r, b, err, errlen);
        else if (round == t->st.swiss_rounds + 1)
            rc = elim_after_cut(t, r, b, err, errlen);
        else
            rc = pending_before(t, r, round, err, errlen) ? TOUR_EPENDING : elim_later(t, r, b, err, errlen);
    }
    if (rc && b) {
        tour_pairings *p = &b->pub;
        tour_pairings_destroy(&p);
    } else if (b)
        *out = &b->pub;
    return rc;
}

void tour_pairings_destroy(tour_pairings **p)
{
    if (!p || !*p)
        return;
    free((*p)->pairs);
    free((pairings_box *)*p);
    *p = NULL;
}

/* ---- outputs -------------------------------------------------------------- */
