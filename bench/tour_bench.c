/* tour_bench.c -- how fast arbiter ranks and pairs a large Swiss event,
 * against the raw work any ranking or pairing must do.
 *
 *   tour_bench [--players P] [--rounds R] [--seed N] [--json]
 *
 * What it builds, in memory, with a seeded generator (splitmix64; the same
 * P, R and seed give the same event): a Snap tournament file of P players
 * (default 10,000; ids "p000001"...) whose structure is R + 1 Swiss rounds
 * and no cut (default R 15), and R rounds of real Swiss pairings.  Round r
 * is made as an organiser would make it: the file of rounds 1..r-1 is
 * loaded (tournament_load), its records are judged into results
 * (tournament_results), and tournament_pair() pairs round r; its pairings
 * are written into the file's `rounds` (TOURNAMENT.md, "The tournament
 * file"), closed, and each pairing gets one record, a tour_game as a
 * verified record gives it: legal, finished, a winner drawn at random, the
 * winner's score the base (5) and the loser's 0..4 (Snap has no draw
 * outside a time call, T10, T13), 3..12 game rounds.  A bye (P odd) is
 * written as the pairing gave it.  Every round must come out with no alarm
 * and no pending result, or the program stops: the event is a clean one.
 *
 * What it times, with clock_gettime(CLOCK_MONOTONIC), after that set-up,
 * each once per process (bench/run_tournament runs it REPS times and takes
 * medians):
 *
 *   standings  the standings after round R from the R * P/2 records:
 *              tournament_results() over every tour_game (placing each
 *              record on its pairing, T1-T19, alarms) and then
 *              tournament_standings(R) (points, wins, MOV, strength of
 *              schedule, the seeded random tiebreak, T20-T28).  "From
 *              stored records" means from the records' verdicts: judging
 *              the records themselves (decoding and replaying each game)
 *              is what bench/run_verify measures, and is not in here.
 *   pair       one Swiss pairing of round R + 1 (tournament_pair(), T29-
 *              T32), given the results of rounds 1..R; it must give no
 *              rematch: the count it reports must be 0, every active player
 *              must be in exactly one pairing, and no pair of it may be in
 *              the set of pairs that met before (checked here, apart from
 *              the module's own count).
 *   load       tournament_load() of the whole file (rounds 1..R), shown
 *              beside the others because a command does it first; not a
 *              goal of issue 13.
 *
 * And the raw baselines, measured in the same process, interleaved with
 * the measures (baseline, measure, baseline, measure, ...):
 *
 *   standings  one plain pass over the games (player indices already
 *              resolved) adding each side's event points, wins and MOV
 *              into P rows (byes too), then qsort() of the rows by points,
 *              wins, MOV: a ranking with none of the rules.  Its points,
 *              wins and MOV must equal arbiter's, player by player: the
 *              baseline computes the same thing the cheap way.
 *   pair       the same pass and a qsort() by points, then neighbours
 *              paired 1-2, 3-4, ...: the floor of any Swiss pairing,
 *              without the groups' random order or rematch avoidance.
 *   load       json_loadb() of the same text (jansson, which the module
 *              parses with): the parse alone, without the validation.
 *
 * Output: one line per measure; with --json one object a line:
 *   {"bench":"tour_bench","measure":"standings"|"pair"|"load","players":P,
 *    "rounds":R,"games":G,"seconds":S,"baseline":"...","baseline_seconds":B,
 *    "ratio":B/S, ...}
 * the ratio being baseline / measured (1 would be as fast as the raw
 * work; the goal of issue 13 is seconds < 1, the ratio says how far above
 * the floor that is).  The standings line also gives results_seconds and
 * standings_seconds (its two parts); the pair line end_to_end_seconds
 * (load + results + pair: what `arbiter tournament pair` would spend
 * beyond reading the file and the records), rematches (0), search_cut
 * and setup_rematches (rematches in rounds 2..R while the event was built:
 * expected 0).
 *
 * Exit: 0; 1 a check failed (a rematch, an alarm, a mismatch with the
 * baseline); 2 bad usage, out of memory or an error of the module.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "logformat/jtext.h"
#include "src/tournament/tourpair.h"
#include "src/tournament/tourstand.h"

#define BASE 5                  /* Snap's base (T4) */
#define ID_LEN 16

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64: small, seeded, good enough to draw results. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(rng_next(s) % n);
}

static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tour_bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die(2, "out of memory");
    return p;
}

/* One record's strings and, for the baselines, its players as indices. */
typedef struct {
    char match[32];
    char table[16];
    int p[2];                   /* player indices of the game's p1, p2 */
} gextra;

typedef struct {
    uint32_t players, rounds;   /* P, R */
    uint64_t seed;
    char (*ids)[ID_LEN];
    jtext head;                 /* the file up to "rounds":[ */
    jtext rtext;                /* the round objects so far, comma-separated */
    jtext file;                 /* head + rounds + "]}" */
    tour_game *games;
    gextra *gx;
    size_t ngames, cap;
    int *byes;                  /* byes[r-1]: the player with round r's bye, or -1 */
    size_t setup_rematches;
} bench;

static void check_jtext(const jtext *t)
{
    if (t->bad)
        die(2, "out of memory (jtext)");
}

/* The file's head: everything but the rounds. */
static void make_head(bench *b)
{
    jtext *h = &b->head;
    char seed[48];
    snprintf(seed, sizeof seed, "bench-%" PRIu64, b->seed);
    jtext_lit(h, "{\"version\":1,\"id\":\"bench-cup\",\"name\":\"tour_bench synthetic event\",\"format\":\"snap\",");
    jtext_lit(h, "\"seed\":");
    jtext_str(h, seed);
    jtext_member_int(h, ",\"structure\":{\"swiss_rounds\":", (long long)b->rounds + 1);
    jtext_lit(h, ",\"cut\":0},\"players\":[");
    for (uint32_t i = 0; i < b->players; i++) {
        snprintf(b->ids[i], ID_LEN, "p%06" PRIu32, i + 1);
        if (i)
            jtext_lit(h, ",");
        jtext_lit(h, "{\"id\":");
        jtext_str(h, b->ids[i]);
        jtext_fmt(h, ",\"name\":\"Player %" PRIu32 "\"}", i + 1);
    }
    jtext_lit(h, "],\"rounds\":[");
    check_jtext(h);
}

/* The whole file as it stands: head, rounds so far, end. */
static const jtext *file_text(bench *b)
{
    jtext_reset(&b->file);
    jtext_raw(&b->file, b->head.buf, b->head.len);
    if (b->rtext.len)
        jtext_raw(&b->file, b->rtext.buf, b->rtext.len);
    jtext_lit(&b->file, "]}");
    check_jtext(&b->file);
    return &b->file;
}

static tournament *load_file(bench *b)
{
    const jtext *f = file_text(b);
    tournament *t = NULL;
    char err[512];
    int rc = tournament_load(f->buf, f->len, &t, err, sizeof err);
    if (rc)
        die(2, "tournament_load: %d: %s", rc, err);
    return t;
}

/* The event must be clean: no alarm, no pending result up to `upto`. */
static void check_clean(const tournament *t, const tour_results *r, uint32_t upto, const char *when)
{
    if (r->n_alarms)
        die(1, "%s: %zu alarms, the first: %s", when, r->n_alarms, r->alarms[0].text);
    for (size_t i = 0; i < r->n_results; i++) {
        const tour_result *rr = &r->results[i];
        if (rr->round <= upto && rr->player[0] >= 0 && rr->outcome[0] == TOUR_PENDING)
            die(1, "%s: round %" PRIu32 " table %s (%s) is pending: %s", when, rr->round,
                rr->table ? rr->table : "-", tournament_player(t, (size_t)rr->player[0])->id, rr->why);
    }
}

/* One record for a pairing of round r: a legal, finished game with a
 * random winner. */
static void add_game(bench *b, uint32_t r, const tour_pair *x, uint64_t *rng)
{
    if (b->ngames >= b->cap)
        die(2, "more games than room for them (%zu)", b->cap);
    tour_game *g = &b->games[b->ngames];
    gextra *e = &b->gx[b->ngames];
    int swap = (int)rng_below(rng, 2), w = 1 + (int)rng_below(rng, 2);
    memset(g, 0, sizeof *g);
    snprintf(e->table, sizeof e->table, "%s", x->table);
    snprintf(e->match, sizeof e->match, "bench-r%02" PRIu32 "-t%s", r, x->table);
    e->p[0] = x->player[swap];
    e->p[1] = x->player[1 - swap];
    g->match = e->match;
    g->tournament = "bench-cup";
    g->round = r;
    g->table = e->table;
    g->p1 = b->ids[e->p[0]];
    g->p2 = b->ids[e->p[1]];
    g->format = "snap";
    g->status = TOUR_REC_LEGAL;
    g->finished = 1;
    g->winner = w;
    g->score[w - 1] = BASE;
    g->score[2 - w] = rng_below(rng, BASE);
    g->rounds = 3 + rng_below(rng, 10);
    g->ends_round = 1;
    b->ngames++;
}

/* Round r's pairings into the file, and its records. */
static void publish(bench *b, uint32_t r, const tour_pairings *p, uint64_t *rng)
{
    jtext *o = &b->rtext;
    int first = 1;
    jtext_member_int(o, r > 1 ? ",{\"round\":" : "{\"round\":", r);
    jtext_lit(o, ",\"closed\":true,\"pairings\":[");
    b->byes[r - 1] = -1;
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->player[0] < 0)
            continue;
        if (!first)
            jtext_lit(o, ",");
        jtext_lit(o, "{");
        first = 0;
        if (x->player[1] < 0) {
            jtext_lit(o, "\"bye\":");
            jtext_str(o, b->ids[x->player[0]]);
            b->byes[r - 1] = x->player[0];
        } else {
            jtext_lit(o, "\"table\":");
            jtext_str(o, x->table);
            jtext_lit(o, ",\"p1\":");
            jtext_str(o, b->ids[x->player[0]]);
            jtext_lit(o, ",\"p2\":");
            jtext_str(o, b->ids[x->player[1]]);
            add_game(b, r, x, rng);
        }
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    check_jtext(o);
}

/* Rounds 1..R, each paired by tournament_pair() on the results so far. */
static void build(bench *b, uint64_t *rng)
{
    char err[512];
    for (uint32_t r = 1; r <= b->rounds; r++) {
        tournament *t = load_file(b);
        tour_results *res = NULL;
        tour_pairings *p = NULL;
        int rc = tournament_results(t, b->games, b->ngames, &res);
        if (rc)
            die(2, "tournament_results before round %" PRIu32 ": %d", r, rc);
        check_clean(t, res, r - 1, "building");
        rc = tournament_pair(t, res, r, &p, err, sizeof err);
        if (rc)
            die(2, "tournament_pair of round %" PRIu32 ": %d: %s", r, rc, err);
        b->setup_rematches += p->rematches;
        publish(b, r, p, rng);
        tour_pairings_destroy(&p);
        tour_results_destroy(&res);
        tournament_destroy(&t);
    }
}

/* ---- the raw baselines ----------------------------------------------------- */

typedef struct {
    int64_t points, mov;
    uint32_t wins;
    int player;
} raw_row;

/* One pass over the games (and byes): event points, wins, MOV (T6, T20,
 * T21) per player, as plainly as it can be done. */
static void raw_tally(const bench *b, raw_row *rows)
{
    for (uint32_t i = 0; i < b->players; i++)
        rows[i] = (raw_row){0, 0, 0, (int)i};
    for (size_t i = 0; i < b->ngames; i++) {
        const tour_game *g = &b->games[i];
        const int *p = b->gx[i].p;
        int w = g->winner - 1, l = 1 - w;
        raw_row *win = &rows[p[w]], *lose = &rows[p[l]];
        win->points += 3;
        win->wins++;
        win->mov += 2 * BASE - g->score[l];
        lose->mov += g->score[l];
    }
    for (uint32_t r = 0; r < b->rounds; r++)
        if (b->byes[r] >= 0) {
            rows[b->byes[r]].points += 3;
            rows[b->byes[r]].wins++;
            rows[b->byes[r]].mov += 2 * BASE;
        }
}

static int cmp_raw(const void *x, const void *y)
{
    const raw_row *a = x, *b = y;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->wins != b->wins)
        return a->wins > b->wins ? -1 : 1;
    if (a->mov != b->mov)
        return a->mov > b->mov ? -1 : 1;
    return (a->player > b->player) - (a->player < b->player);
}

static int cmp_raw_points(const void *x, const void *y)
{
    const raw_row *a = x, *b = y;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    return (a->player > b->player) - (a->player < b->player);
}

/* Neighbours by points, 1-2, 3-4, ...; the last one alone gets a bye.
 * Returns a checksum so that the work cannot be dropped. */
static uint64_t raw_pair(const bench *b, raw_row *rows, int (*out)[2])
{
    uint64_t sum = 0;
    raw_tally(b, rows);
    qsort(rows, b->players, sizeof *rows, cmp_raw_points);
    for (uint32_t i = 0; i < b->players; i += 2) {
        out[i / 2][0] = rows[i].player;
        out[i / 2][1] = i + 1 < b->players ? rows[i + 1].player : -1;
        sum += (uint64_t)out[i / 2][0] * 31 + (uint64_t)(out[i / 2][1] + 1);
    }
    return sum;
}

/* ---- the checks ----------------------------------------------------------- */

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static uint64_t pair_key(int a, int c)
{
    return a < c ? (uint64_t)a << 32 | (uint32_t)c : (uint64_t)c << 32 | (uint32_t)a;
}

/* The standings agree with the baseline's tally, player by player, and are
 * in order of points, wins, MOV (T24). */
static void check_standings(const bench *b, const tour_standings *s, const raw_row *tally)
{
    if (s->n_rows != b->players || s->provisional || s->n_pending)
        die(1, "standings: %zu rows of %" PRIu32 " players, provisional %d, %zu pending", s->n_rows, b->players,
            s->provisional, s->n_pending);
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        const raw_row *x = &tally[w->player];
        if (w->points != x->points || w->wins != x->wins || w->mov != x->mov)
            die(1, "standings: %s has %" PRId64 " points, %" PRIu32 " wins, MOV %" PRId64 "; the baseline %" PRId64
                   ", %" PRIu32 ", %" PRId64, b->ids[w->player], w->points, w->wins, w->mov, x->points, x->wins,
                x->mov);
        if (w->rounds != b->rounds || w->place != i + 1)
            die(1, "standings: row %zu: place %" PRIu32 ", %" PRIu32 " rounds", i, w->place, w->rounds);
        if (i) {
            raw_row a = {w[-1].points, w[-1].mov, w[-1].wins, 0}, c = {w->points, w->mov, w->wins, 0};
            if (cmp_raw(&a, &c) > 0)
                die(1, "standings: row %zu ranks above row %zu by points, wins and MOV", i + 1, i);
        }
    }
}

/* Round R + 1's pairing: everyone once, no rematch (T31), by the module's
 * count and by the pairs that met. */
static void check_pairing(const bench *b, const tour_pairings *p, size_t *pairs, size_t *byes)
{
    uint64_t *met = xcalloc(b->ngames, sizeof *met);
    uint8_t *seen = xcalloc(b->players, 1);
    for (size_t i = 0; i < b->ngames; i++)
        met[i] = pair_key(b->gx[i].p[0], b->gx[i].p[1]);
    qsort(met, b->ngames, sizeof *met, cmp_u64);
    *pairs = *byes = 0;
    if (p->rematches || p->elimination)
        die(1, "pair: %zu rematches (elimination %d)", p->rematches, p->elimination);
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        for (int k = 0; k < 2; k++) {
            if (x->player[k] < 0)
                continue;
            if (x->player[k] >= (int)b->players || seen[x->player[k]]++)
                die(1, "pair: player %d is paired twice, or is no player", x->player[k]);
        }
        if (x->player[0] < 0 || x->player[1] < 0) {
            *byes += x->player[0] >= 0;
            continue;
        }
        uint64_t key = pair_key(x->player[0], x->player[1]);
        if (x->rematch || bsearch(&key, met, b->ngames, sizeof *met, cmp_u64))
            die(1, "pair: %s and %s at table %s have met before", b->ids[x->player[0]], b->ids[x->player[1]],
                x->table);
        ++*pairs;
    }
    for (uint32_t i = 0; i < b->players; i++)
        if (!seen[i])
            die(1, "pair: %s is not paired", b->ids[i]);
    free(met);
    free(seen);
}

/* ---- main ----------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "usage: tour_bench [--players P] [--rounds R] [--seed N] [--json]\n"
               "  P players (default 10000, 2..%d), R Swiss rounds built (default 15, 1..%d, fewer than P),\n"
               "  then the standings after round R and the pairing of round R + 1 are timed\n",
            TOUR_PLAYERS_MAX, TOUR_SWISS_MAX - 1);
}

static int num_arg(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || v > max)
        return -1;
    *out = v;
    return 0;
}

static double ratio(double base, double secs)
{
    return secs > 0 ? base / secs : 0;
}

int main(int argc, char **argv)
{
    bench b = {.players = 10000, .rounds = 15, .seed = 1};
    int json = 0;
    for (int i = 1; i < argc; i++) {
        unsigned long long v = 0;
        const char *a = argv[i];
        if (!strcmp(a, "--json"))
            json = 1;
        else if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (i + 1 < argc && !strcmp(a, "--players") && !num_arg(argv[i + 1], TOUR_PLAYERS_MAX, &v) && v >= 2)
            b.players = (uint32_t)v, i++;
        else if (i + 1 < argc && !strcmp(a, "--rounds") && !num_arg(argv[i + 1], TOUR_SWISS_MAX - 1, &v) && v >= 1)
            b.rounds = (uint32_t)v, i++;
        else if (i + 1 < argc && !strcmp(a, "--seed") && !num_arg(argv[i + 1], UINT64_MAX, &v))
            b.seed = v, i++;
        else {
            usage(stderr);
            return 2;
        }
    }
    if (b.rounds >= b.players)
        die(2, "%" PRIu32 " rounds need more than %" PRIu32 " players for a pairing with no rematch", b.rounds + 1,
            b.players);
    uint64_t rng = b.seed;
    char err[512];
    b.ids = xcalloc(b.players, sizeof *b.ids);
    b.cap = ((size_t)b.players / 2 + 1) * b.rounds;
    b.games = xcalloc(b.cap, sizeof *b.games);
    b.gx = xcalloc(b.cap, sizeof *b.gx);
    b.byes = xcalloc(b.rounds, sizeof *b.byes);
    make_head(&b);
    double t_build = now_s();
    build(&b, &rng);
    t_build = now_s() - t_build;
    const jtext *f = file_text(&b);

    /* load: the parse alone, then the module's load */
    json_error_t jerr;
    double t0 = now_s();
    json_t *root = json_loadb(f->buf, f->len, 0, &jerr);
    double raw_load = now_s() - t0;
    if (!root)
        die(2, "json_loadb: %s", jerr.text);
    json_decref(root);
    tournament *t = NULL;
    t0 = now_s();
    int rc = tournament_load(f->buf, f->len, &t, err, sizeof err);
    double load = now_s() - t0;
    if (rc)
        die(2, "tournament_load: %d: %s", rc, err);

    /* standings: the raw pass and sort, then results + standings */
    raw_row *rows = xcalloc(b.players, sizeof *rows), *tally = xcalloc(b.players, sizeof *tally);
    t0 = now_s();
    raw_tally(&b, rows);
    qsort(rows, b.players, sizeof *rows, cmp_raw);
    double raw_stand = now_s() - t0;
    tour_results *res = NULL;
    tour_standings *st = NULL;
    t0 = now_s();
    rc = tournament_results(t, b.games, b.ngames, &res);
    double results = now_s() - t0;
    if (rc)
        die(2, "tournament_results: %d", rc);
    t0 = now_s();
    rc = tournament_standings(t, res, b.rounds, &st, err, sizeof err);
    double stand = now_s() - t0;
    if (rc)
        die(2, "tournament_standings: %d: %s", rc, err);
    check_clean(t, res, b.rounds, "standings");
    raw_tally(&b, tally);
    check_standings(&b, st, tally);
    const raw_row *top = &tally[st->rows[0].player];
    if (top->points != rows[0].points || top->wins != rows[0].wins || top->mov != rows[0].mov)
        die(1, "standings: first %s, the baseline's first %s", b.ids[st->rows[0].player], b.ids[rows[0].player]);

    /* pair: the raw neighbours, then the Swiss pairing of round R + 1 */
    int(*raw_out)[2] = xcalloc((size_t)b.players / 2 + 1, sizeof *raw_out);
    t0 = now_s();
    uint64_t sum = raw_pair(&b, rows, raw_out);
    double raw_pr = now_s() - t0;
    tour_pairings *p = NULL;
    t0 = now_s();
    rc = tournament_pair(t, res, b.rounds + 1, &p, err, sizeof err);
    double pair = now_s() - t0;
    if (rc)
        die(2, "tournament_pair of round %" PRIu32 ": %d: %s", b.rounds + 1, rc, err);
    size_t npairs, nbyes;
    check_pairing(&b, p, &npairs, &nbyes);

    size_t bytes = f->len, games = b.ngames;
    double measured = results + stand, e2e = load + results + pair;
    if (json) {
        printf("{\"bench\":\"tour_bench\",\"measure\":\"standings\",\"players\":%" PRIu32 ",\"rounds\":%" PRIu32
               ",\"games\":%zu,\"seconds\":%.6f,\"results_seconds\":%.6f,\"standings_seconds\":%.6f,"
               "\"baseline\":\"one pass over the games adding points, wins and MOV, then qsort of the rows\","
               "\"baseline_seconds\":%.6f,\"ratio\":%.4f,\"records_judged_by\":\"bench/run_verify\"}\n",
               b.players, b.rounds, games, measured, results, stand, raw_stand, ratio(raw_stand, measured));
        printf("{\"bench\":\"tour_bench\",\"measure\":\"pair\",\"players\":%" PRIu32 ",\"rounds\":%" PRIu32
               ",\"round\":%" PRIu32 ",\"games\":%zu,\"seconds\":%.6f,\"end_to_end_seconds\":%.6f,"
               "\"baseline\":\"the same pass, qsort by points, neighbours paired\",\"baseline_seconds\":%.6f,"
               "\"ratio\":%.4f,\"pairs\":%zu,\"byes\":%zu,\"rematches\":%zu,\"search_cut\":%s,"
               "\"setup_rematches\":%zu,\"setup_seconds\":%.3f}\n",
               b.players, b.rounds, b.rounds + 1, games, pair, e2e, raw_pr, ratio(raw_pr, pair), npairs, nbyes,
               p->rematches, p->search_cut ? "true" : "false", b.setup_rematches, t_build);
        printf("{\"bench\":\"tour_bench\",\"measure\":\"load\",\"players\":%" PRIu32 ",\"rounds\":%" PRIu32
               ",\"games\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"baseline\":\"json_loadb of the same text\","
               "\"baseline_seconds\":%.6f,\"ratio\":%.4f}\n",
               b.players, b.rounds, games, bytes, load, raw_load, ratio(raw_load, load));
    } else {
        printf("tour_bench: %" PRIu32 " players, %" PRIu32 " rounds, %zu games, a file of %zu bytes (built in %.2f s,"
               " %zu rematches)\n",
               b.players, b.rounds, games, bytes, t_build, b.setup_rematches);
        printf("  standings after round %" PRIu32 ": %.6f s (results %.6f + standings %.6f); raw pass + qsort %.6f s;"
               " ratio %.4f\n",
               b.rounds, measured, results, stand, raw_stand, ratio(raw_stand, measured));
        printf("  pairing of round %" PRIu32 ": %.6f s, %zu pairs, %zu byes, %zu rematches%s; raw neighbours %.6f s;"
               " ratio %.4f; load + results + pair %.6f s\n",
               b.rounds + 1, pair, npairs, nbyes, p->rematches, p->search_cut ? " (search cut)" : "", raw_pr,
               ratio(raw_pr, pair), e2e);
        printf("  load of the file: %.6f s; json_loadb %.6f s; ratio %.4f\n", load, raw_load,
               ratio(raw_load, load));
        printf("  (the records' judging is measured by bench/run_verify; checksum %" PRIu64 ")\n", sum);
    }
    if (fflush(stdout) || ferror(stdout))
        die(2, "cannot write the output");
    tour_pairings_destroy(&p);
    tour_standings_destroy(&st);
    tour_results_destroy(&res);
    tournament_destroy(&t);
    jtext_free(&b.head);
    jtext_free(&b.rtext);
    jtext_free(&b.file);
    free(raw_out);
    free(rows);
    free(tally);
    free(b.byes);
    free(b.gx);
    free(b.games);
    free(b.ids);
    return 0;
}
