/* tournament.c -- a Mintayn tournament from its file and its verified games.
 *
 * What: the rulings of TOURNAMENT.md (cited "T<n>") as code.  The
 * organiser's file says who plays, what was published and what the head
 * judge decided; the caller's tour_games say what the engines found.  From
 * the two this module computes each pairing's result, every alarm, the
 * standings, the cut, the final order and the next round's pairings.
 *
 * Why pure: standings must be the same wherever they are computed (the CLI
 * and the daemon's `standings` op, T24), and anybody holding the file and
 * the records must be able to repeat every random draw (T27).  So nothing
 * here reads a clock, a file or a socket, and the only randomness is the
 * seeded BLAKE2b stream of T27 -- except one made seed, which tournament_seed
 * reports so that the caller prints it and warns.
 *
 * How: tournament_load() validates the file into flat arrays (players with
 * a bitmask of the rounds they may be paired in, rounds with their
 * pairings, judges' results pointing at their pairing) and keeps the
 * jansson tree alive, so every string handed out is the tree's.  Results
 * walk the games once to place them (sorted keys, binary search), then each
 * published pairing once.  Standings are two linear passes and one sort;
 * strength of schedule is an exact fraction over lcm(1..32), which fits 64
 * bits because a Swiss stage has at most TOUR_SWISS_MAX rounds.
 *
 * The Swiss pairing (T30, T31).  The list is the groups, best first, each
 * shuffled.  T30's search pairs the first unpaired player with the next one
 * in the list who is not a former opponent, and backtracks when the rest
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
#include <jansson.h>
#include <limits.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tournament.h"
#include "verifiers/verifier.h"   /* the formats: their engines' tournament facts */

/* ---- data: the rulings' tables, in one place ------------------------------ */

/* T20: event points of each outcome, indexed by tour_outcome. */
static const int64_t outcome_points[] = {
    [TOUR_PENDING] = 0,          [TOUR_WIN] = 3,       [TOUR_LOSS] = 0,
    [TOUR_DRAW_WIN] = 2,         [TOUR_DRAW_LOSS] = 1, [TOUR_INTENTIONAL_DRAW] = 0,
    [TOUR_BYE] = 3,              [TOUR_UNPAIRED_LOSS] = 0, [TOUR_DOUBLE_LOSS] = 0,
    [TOUR_NO_RESULT] = 0,
};

/* T30: how each outcome counts for Swiss grouping: 'w' win, 'd' draw, 'l'
 * loss, 0 nothing (T21: a bye is a win; T23: an unpaired loss a loss). */
static const char outcome_group[] = {
    [TOUR_PENDING] = 0,    [TOUR_WIN] = 'w',       [TOUR_LOSS] = 'l',
    [TOUR_DRAW_WIN] = 'd', [TOUR_DRAW_LOSS] = 'd', [TOUR_INTENTIONAL_DRAW] = 'd',
    [TOUR_BYE] = 'w',      [TOUR_UNPAIRED_LOSS] = 'l', [TOUR_DOUBLE_LOSS] = 'l',
    [TOUR_NO_RESULT] = 0,
};

/* T39: the Advanced Structure table, as the regulations give it. */
static const tour_table_row advanced_table[] = {
    {9, 12, 4, 4},     {13, 24, 4, 8},    {25, 40, 5, 8},    {41, 76, 6, 8},
    {77, 148, 6, 16},  {149, 288, 6, 32}, {289, 512, 7, 32}, {513, 0, 8, 32},
};

/* T40: the Basic Structure table; the player counts are arbiter's
 * reconstruction, the rounds and cuts the regulations'. */
static const tour_table_row basic_table[] = {
    {4, 8, 3, 0},     {9, 12, 4, 0},     {13, 24, 4, 4},    {25, 40, 5, 4},
    {41, 76, 5, 8},   {77, 148, 6, 8},   {149, 288, 6, 16}, {289, 0, 7, 16},
};

/* T26: SoS products need 128 bits (GCC and Clang have them). */
__extension__ typedef unsigned __int128 u128;

#define NO_DROP UINT32_MAX
#define ALL_ROUNDS UINT64_MAX

/* ---- the tournament ------------------------------------------------------- */

/* A string and the index of what it names: players by id, pairings by
 * table. */
typedef struct {
    const char *id;
    int idx;
} idref;

typedef struct {
    const char *table;          /* NULL for a bye                              */
    int p[2];                   /* p[1] -1: a bye                              */
    uint32_t game;
    int intentional_draw;
    uint64_t time_called;       /* the table's own call, else the round's      */
} tpairing;

typedef struct {
    size_t pairing;             /* index into the round's pairings             */
    int winner;                 /* player index, or -1                         */
    int draw;
    int has_scores;
    int64_t scores[2];          /* in the pairing's order                      */
    const char *table;
} treport;

typedef struct {
    uint32_t round;
    const char *seed, *results_seed;
    uint64_t time_called, started;  /* started: the round clock's start (ms)    */
    int closed;
    tpairing *pairs;
    size_t npairs;
    treport *reports;
    size_t nreports;
    idref *by_table;            /* the pairings with a table, by table         */
    size_t ntables;
} tround;

typedef enum { J_ENGINE, J_AT_TIME, J_WIN, J_DRAW, J_DOUBLE_LOSS } jkind;

typedef struct {
    uint32_t round;
    size_t pairing;             /* index into the round's pairings             */
    const char *match, *judge, *text;
    jkind kind;
    int winner, draw_win;       /* player indexes, or -1                       */
    int has_scores;
    int64_t scores[2];          /* in the pairing's order                      */
} tjudge;

struct tournament {
    json_t *root;               /* owns every string handed out                */
    const char *id, *name, *cards, *tier, *file_seed;
    const char *timezone;       /* the round clock's zone ("Europe/Paris")     */
    ol_format format;
    const verifier_ops *ops;    /* the format's engine: its base (T4, T5)  */
    char *rules_json;
    int64_t base;
    char seed[TOUR_STR_MAX + 1];/* the --seed or a made one                    */
    int seed_made;
    tour_structure st;
    char rowtext[32];           /* st.row                                      */
    int later_day, decklists_public;
    uint32_t round_minutes;
    tour_player *players;
    size_t np;
    int *by_id;                 /* player indexes in id order (bytewise)       */
    int *rank;                  /* rank[p]: p's place in by_id                 */
    uint32_t *last_drop;        /* after_round of the drop in force, NO_DROP   */
    tround *rounds;
    size_t nrounds;
    tjudge *judges;
    size_t njudges;
};

/* ---- small helpers -------------------------------------------------------- */

static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static uint64_t round_bit(uint32_t r)
{
    return r >= 1 && r <= TOUR_ROUNDS_MAX ? (uint64_t)1 << (r - 1) : 0;
}

/* Rounds a..b (inclusive, clamped to 1..64) as a mask. */
static uint64_t round_range(uint32_t a, uint32_t b)
{
    uint64_t m = 0;
    for (uint32_t r = a < 1 ? 1 : a; r <= b && r <= TOUR_ROUNDS_MAX; r++)
        m |= round_bit(r);
    return m;
}

static int active_in(const tournament *t, int p, uint32_t r)
{
    return p >= 0 && (t->players[p].active & round_bit(r)) != 0;
}

static uint32_t total_rounds(const tournament *t)
{
    return t->st.swiss_rounds + t->st.elimination_rounds;
}

static int is_elimination(const tournament *t, uint32_t r)
{
    return r > t->st.swiss_rounds;
}

static const tround *round_of(const tournament *t, uint32_t r)
{
    return r >= 1 && r <= t->nrounds ? &t->rounds[r - 1] : NULL;
}

static int64_t clamp_score(int64_t s, int64_t base)
{
    return s < 0 ? 0 : s > base ? base : s;
}

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

/* ---- T27: the random stream ------------------------------------------------ */

static const char stream_domain[] = "arbiter-tournament-1";

static size_t put_cut(uint8_t *dst, const char *s)
{
    size_t n = s ? strnlen(s, TOUR_STR_MAX) : 0;
    memcpy(dst, s ? s : "", n);
    dst[n] = 0;
    return n + 1;
}

void tour_stream_init(tour_stream *s, const char *seed, const char *label)
{
    memset(s, 0, sizeof *s);
    size_t n = sizeof stream_domain;   /* the domain and its 0x00 */
    memcpy(s->prefix, stream_domain, n);
    n += put_cut(s->prefix + n, seed);
    n += put_cut(s->prefix + n, label);
    s->prefix_len = n;
    s->used = 4;                       /* no block drawn yet */
}

/* BLAKE2b-256 cannot fail on these sizes (libsodium only rejects bad output
 * or key lengths), so a failure would be a broken library: the block is then
 * all zeros rather than uninitialised, and the draw stays deterministic. */
static void stream_block(tour_stream *s)
{
    uint8_t msg[sizeof s->prefix + 8], h[TOUR_HASH];
    memcpy(msg, s->prefix, s->prefix_len);
    for (int i = 0; i < 8; i++)
        msg[s->prefix_len + i] = (uint8_t)(s->block >> (56 - 8 * i));
    if (crypto_generichash(h, sizeof h, msg, s->prefix_len + 8, NULL, 0) != 0)
        memset(h, 0, sizeof h);
    for (int w = 0; w < 4; w++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++)
            x = x << 8 | h[8 * w + i];
        s->words[w] = x;
    }
    s->block++;
    s->used = 0;
}

uint64_t tour_stream_next(tour_stream *s)
{
    if (s->used >= 4)
        stream_block(s);
    return s->words[s->used++];
}

uint64_t tour_uniform(tour_stream *s, uint64_t n)
{
    if (n <= 1)
        return 0;
    /* T27: 2^64 - (2^64 mod n), the start of the biased tail; 2^64 mod n is
     * (2^64 - n) mod n computed in 64 bits. */
    uint64_t rem = (0 - n) % n, x;
    do
        x = tour_stream_next(s);
    while (rem && x >= 0 - rem);
    return x % n;
}

void tour_shuffle(tour_stream *s, int *items, size_t n)
{
    for (size_t i = n; i-- > 1;) {
        size_t j = (size_t)tour_uniform(s, (uint64_t)i + 1);
        int tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
    }
}

/* ---- loading: one sentence naming the path ------------------------------- */

typedef struct {
    tournament *t;
    char *err;
    size_t errlen;
} loader;

static int refuse(loader *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(loader *c, const char *fmt, ...)
{
    if (c->err && c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errlen, fmt, ap);
        va_end(ap);
    }
    return TOUR_EINVAL;
}

/* "base.key", or "key" at the top level. */
static const char *keypath(char *buf, size_t n, const char *base, const char *key)
{
    snprintf(buf, n, "%s%s%s", base, *base ? "." : "", key);
    return buf;
}

#define PATH(base, key) keypath((char[320]){0}, 320, (base), (key))

/* The file format: unknown keys refuse the file (T47). */
static int only_keys(loader *c, json_t *o, const char *base, const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], k))
            i++;
        if (!allowed[i])
            return refuse(c, "\"%s\" is not a key of the tournament file.", PATH(base, k));
    }
    return 0;
}

static int want_object(loader *c, json_t *o, const char *path)
{
    return json_is_object(o) ? 0 : refuse(c, "\"%s\" must be an object.", path);
}

static int get_str(loader *c, json_t *o, const char *base, const char *key, int required, const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v)
        return required ? refuse(c, "\"%s\" is missing.", PATH(base, key)) : 0;
    if (!json_is_string(v))
        return refuse(c, "\"%s\" must be a string.", PATH(base, key));
    if (json_string_length(v) > TOUR_STR_MAX)
        return refuse(c, "\"%s\" is longer than %d bytes.", PATH(base, key), TOUR_STR_MAX);
    if (json_string_length(v) != strlen(json_string_value(v)))
        return refuse(c, "\"%s\" holds a NUL character.", PATH(base, key));
    *out = json_string_value(v);
    return 0;
}

static int get_uint(loader *c, json_t *o, const char *base, const char *key, int required, uint64_t max,
                    uint64_t *out, int *present)
{
    json_t *v = json_object_get(o, key);
    *out = 0;
    if (present)
        *present = v != NULL;
    if (!v)
        return required ? refuse(c, "\"%s\" is missing.", PATH(base, key)) : 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
        return refuse(c, "\"%s\" must be an integer from 0 to %llu.", PATH(base, key), (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int get_bool(loader *c, json_t *o, const char *base, const char *key, int *out)
{
    json_t *v = json_object_get(o, key);
    *out = 0;
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return refuse(c, "\"%s\" must be true or false.", PATH(base, key));
    *out = json_is_true(v);
    return 0;
}

static int get_list(loader *c, json_t *o, const char *base, const char *key, int required, json_t **out)
{
    *out = json_object_get(o, key);
    if (!*out)
        return required ? refuse(c, "\"%s\" is missing.", PATH(base, key)) : 0;
    return json_is_array(*out) ? 0 : refuse(c, "\"%s\" must be a list.", PATH(base, key));
}


static int find_player(const tournament *t, const char *id)
{
    size_t lo = 0, hi = t->np;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(t->players[t->by_id[mid]].id, id);
        if (!c)
            return t->by_id[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* A string naming a player of the file: a reference to nothing refuses. */
static int get_player(loader *c, json_t *o, const char *base, const char *key, int required, int *out)
{
    const char *id;
    int rc = get_str(c, o, base, key, required, &id);
    *out = -1;
    if (rc || !id)
        return rc;
    *out = find_player(c->t, id);
    return *out < 0 ? refuse(c, "\"%s\" names no player.", PATH(base, key)) : 0;
}

/* ---- T42: decklists compared as sorted lists of card ids ----------------- */

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The four lists a decklist may hold, hashed in this fixed order, each as
 * its name, then its sorted ids, each id and each name ended by 0x00, the
 * list by 0x01: a missing list is an empty one (T42). */
static const char *const deck_lists[] = {"main", "monsters", "reserve", "supports", NULL};

static int deck_hash_json(json_t *deck, uint8_t out[TOUR_HASH])
{
    crypto_generichash_state st;
    const char **ids = NULL;
    int rc = TOUR_EINVAL;
    if (!json_is_object(deck) || crypto_generichash_init(&st, NULL, 0, TOUR_HASH) != 0)
        return TOUR_EINVAL;
    const char *k;
    json_t *v;
    json_object_foreach(deck, k, v) {
        size_t i = 0;
        while (deck_lists[i] && strcmp(deck_lists[i], k))
            i++;
        if (!deck_lists[i] || !json_is_array(v))
            return TOUR_EINVAL;
    }
    for (size_t l = 0; deck_lists[l]; l++) {
        json_t *list = json_object_get(deck, deck_lists[l]);
        size_t n = list ? json_array_size(list) : 0;
        free(ids);
        ids = calloc(n ? n : 1, sizeof *ids);
        if (!ids) {
            rc = TOUR_ENOMEM;
            goto out;
        }
        for (size_t i = 0; i < n; i++) {
            ids[i] = json_string_value(json_array_get(list, i));
            if (!ids[i])
                goto out;
        }
        qsort(ids, n, sizeof *ids, cmp_cstr);
        static const uint8_t end_id = 0, end_list = 1;
        if (crypto_generichash_update(&st, (const uint8_t *)deck_lists[l], strlen(deck_lists[l]) + 1) != 0)
            goto out;
        for (size_t i = 0; i < n; i++)
            if (crypto_generichash_update(&st, (const uint8_t *)ids[i], strlen(ids[i])) != 0 ||
                crypto_generichash_update(&st, &end_id, 1) != 0)
                goto out;
        if (crypto_generichash_update(&st, &end_list, 1) != 0)
            goto out;
    }
    rc = crypto_generichash_final(&st, out, TOUR_HASH) == 0 ? 0 : TOUR_EINVAL;
out:
    free(ids);
    return rc;
}

int tournament_deck_hash(const char *json, size_t len, uint8_t out[TOUR_HASH])
{
    if (sodium_init() < 0)
        return TOUR_ENOMEM;
    json_t *deck = json_loadb(json ? json : "", json ? len : 0, JSON_REJECT_DUPLICATES, NULL);
    if (!deck)
        return TOUR_EINVAL;
    int rc = deck_hash_json(deck, out);
    json_decref(deck);
    return rc;
}

/* ---- loading: players, drops, late entries -------------------------------- */

static int cmp_idref(const void *a, const void *b)
{
    return strcmp(((const idref *)a)->id, ((const idref *)b)->id);
}

static int load_player(loader *c, json_t *o, size_t i, tour_player *p)
{
    static const char *const keys[] = {"id", "name", "deck", NULL};
    char base[48];
    snprintf(base, sizeof base, "players[%zu]", i);
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_str(c, o, base, "id", 1, &p->id);
    if (!rc)
        rc = get_str(c, o, base, "name", 1, &p->name);
    if (rc)
        return rc;
    json_t *deck = json_object_get(o, "deck");
    if (deck) {
        rc = deck_hash_json(deck, p->deck);
        if (rc == TOUR_EINVAL)
            return refuse(c, "\"%s.deck\" is not a decklist.", base);
        p->has_deck = rc == 0;
    }
    p->registered = 1;
    return rc;
}

static int load_players(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *list;
    int rc = get_list(c, root, "", "players", 1, &list);
    if (rc)
        return rc;
    t->np = json_array_size(list);
    if (t->np > TOUR_PLAYERS_MAX)
        return refuse(c, "\"players\" lists more than %d players.", TOUR_PLAYERS_MAX);
    idref *refs = calloc(t->np + 1, sizeof *refs);
    t->players = calloc(t->np + 1, sizeof *t->players);
    t->by_id = calloc(t->np + 1, sizeof *t->by_id);
    t->rank = calloc(t->np + 1, sizeof *t->rank);
    t->last_drop = calloc(t->np + 1, sizeof *t->last_drop);
    if (!refs || !t->players || !t->by_id || !t->rank || !t->last_drop) {
        rc = TOUR_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < t->np && !rc; i++) {
        rc = load_player(c, json_array_get(list, i), i, &t->players[i]);
        refs[i] = (idref){t->players[i].id, (int)i};
        t->last_drop[i] = NO_DROP;
    }
    if (rc)
        goto out;
    qsort(refs, t->np, sizeof *refs, cmp_idref);
    for (size_t i = 0; i < t->np; i++) {
        if (i && !strcmp(refs[i - 1].id, refs[i].id)) {
            rc = refuse(c, "\"players[%d].id\" repeats the id of players[%d].", refs[i].idx, refs[i - 1].idx);
            goto out;
        }
        t->by_id[i] = refs[i].idx;
        t->rank[refs[i].idx] = (int)i;
    }
out:
    free(refs);
    return rc;
}

/* One change of a player's presence: from `round` on, paired or not. */
typedef struct {
    int player;
    uint32_t round;
    int on;
} presence;

static int cmp_presence(const void *a, const void *b)
{
    const presence *x = a, *y = b;
    if (x->player != y->player)
        return x->player < y->player ? -1 : 1;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    return x->on - y->on;      /* T23: a rejoin in the round after a drop wins */
}

static int load_late(loader *c, json_t *o, size_t i, presence *ev)
{
    static const char *const keys[] = {"player", "round", NULL};
    char base[48];
    uint64_t r = 0;
    snprintf(base, sizeof base, "late_entries[%zu]", i);
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_player(c, o, base, "player", 1, &ev->player);
    if (!rc)
        rc = get_uint(c, o, base, "round", 1, TOUR_ROUNDS_MAX, &r, NULL);
    if (!rc && r < 1)
        rc = refuse(c, "\"%s.round\" must be 1 or more.", base);
    ev->round = (uint32_t)r;
    ev->on = 1;
    return rc;
}

static int load_drop(loader *c, json_t *o, size_t i, presence *ev)
{
    static const char *const keys[] = {"player", "after_round", "reason", NULL};
    static const char *const reasons[] = {[TOUR_LEFT_DROP] = "drop", [TOUR_LEFT_NO_SHOW] = "no_show",
                                          [TOUR_LEFT_DISQUALIFIED] = "disqualified"};
    char base[48];
    uint64_t r = 0;
    const char *why;
    snprintf(base, sizeof base, "drops[%zu]", i);
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_player(c, o, base, "player", 1, &ev->player);
    if (!rc)
        rc = get_uint(c, o, base, "after_round", 1, TOUR_ROUNDS_MAX, &r, NULL);
    if (!rc)
        rc = get_str(c, o, base, "reason", 1, &why);
    if (rc)
        return rc;
    ev->round = (uint32_t)r + 1;
    ev->on = 0;
    for (int k = 0; k < 3; k++)
        if (!strcmp(why, reasons[k])) {
            tour_player *p = &c->t->players[ev->player];
            if (k == TOUR_LEFT_DISQUALIFIED && !p->disqualified) {
                p->disqualified = 1;
                p->disqualified_after = (uint32_t)r;
            }
            return 0;
        }
    return refuse(c, "\"%s.reason\" must be \"drop\", \"no_show\" or \"disqualified\".", base);
}

/* A player's rounds from their presence changes, sorted: registered players
 * start present (T23: a late entry not preceded by a drop is no rejoin). */
static int sweep_presence(loader *c, const presence *ev, size_t n)
{
    tournament *t = c->t;
    for (size_t i = 0; i < n;) {
        int p = ev[i].player, state = 1;
        size_t j = i;
        for (; j < n && ev[j].player == p; j++)
            ;
        if (ev[i].on)                  /* the first change is an entry: late */
            state = 0, t->players[p].registered = 0;
        uint64_t mask = 0;
        uint32_t from = 1;
        tour_player *pl = &t->players[p];
        for (size_t k = i; k < j; k++) {
            /* T22: a disqualified player cannot rejoin. */
            if (ev[k].on && pl->disqualified && ev[k].round > pl->disqualified_after)
                return refuse(c, "\"late_entries\" rejoins \"%s\", who was disqualified.", pl->id);
            if (state)
                mask |= round_range(from, ev[k].round - 1);
            from = ev[k].round;
            state = ev[k].on;
            t->last_drop[p] = ev[k].on ? NO_DROP : ev[k].round - 1;
        }
        if (state)
            mask |= round_range(from, TOUR_ROUNDS_MAX);
        pl->active = mask;
        i = j;
    }

    return 0;
}

static int load_presence(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *late, *drops;
    int rc = get_list(c, root, "", "late_entries", 0, &late);
    if (!rc)
        rc = get_list(c, root, "", "drops", 0, &drops);
    if (rc)
        return rc;
    size_t nl = late ? json_array_size(late) : 0, nd = drops ? json_array_size(drops) : 0;
    presence *ev = calloc(nl + nd + 1, sizeof *ev);
    if (!ev)
        return TOUR_ENOMEM;
    for (size_t p = 0; p < t->np; p++)
        t->players[p].active = ALL_ROUNDS;
    for (size_t i = 0; i < nl && !rc; i++)
        rc = load_late(c, json_array_get(late, i), i, &ev[i]);
    for (size_t i = 0; i < nd && !rc; i++)
        rc = load_drop(c, json_array_get(drops, i), i, &ev[nl + i]);
    if (!rc) {
        qsort(ev, nl + nd, sizeof *ev, cmp_presence);
        rc = sweep_presence(c, ev, nl + nd);
    }
    free(ev);
    return rc;
}

/* ---- loading: the structure (T39, T40) ------------------------------------ */

const tour_table_row *tournament_structure_table(int advanced, size_t *n)
{
    *n = advanced ? sizeof advanced_table / sizeof advanced_table[0] : sizeof basic_table / sizeof basic_table[0];
    return advanced ? advanced_table : basic_table;
}

static const tour_table_row *table_row(int advanced, uint32_t players)
{
    size_t n;
    const tour_table_row *rows = tournament_structure_table(advanced, &n);
    for (size_t i = 0; i < n; i++)
        if (players >= rows[i].lo && (!rows[i].hi || players <= rows[i].hi))
            return &rows[i];
    return NULL;
}

static uint32_t log2_ceil(uint32_t n)
{
    uint32_t e = 0;
    while (((uint64_t)1 << e) < n)
        e++;
    return e;
}

static int structure_from_table(loader *c, const char *which, tour_structure *st)
{
    int advanced = !strcmp(which, "advanced");
    if (!advanced && strcmp(which, "basic"))
        return refuse(c, "\"structure.table\" must be \"basic\" or \"advanced\".");
    st->kind = advanced ? TOUR_TABLE_ADVANCED : TOUR_TABLE_BASIC;
    const tour_table_row *row = table_row(advanced, st->registered);
    /* T39: the Advanced table has no row below 9 players: take Basic's. */
    if (!row && advanced && st->registered < advanced_table[0].lo) {
        row = table_row(0, st->registered);
        st->fell_back = 1;
    }
    if (!row && !json_array_size(json_object_get(c->t->root, "rounds")))
        return 0;   /* registration: no row yet, and no round can be listed without one */
    if (!row)   /* T40: fewer than 4 players have no Basic row */
        return refuse(c, "\"structure\" has no row for %u registered players: give a custom structure.",
                      st->registered);
    st->reconstructed = row >= basic_table && row < basic_table + sizeof basic_table / sizeof basic_table[0];
    st->swiss_rounds = row->swiss_rounds;
    st->cut = row->cut;
    char *buf = c->t->rowtext;
    if (row->hi)
        snprintf(buf, sizeof c->t->rowtext, "%u-%u", row->lo, row->hi);
    else
        snprintf(buf, sizeof c->t->rowtext, "%u & Above", row->lo);
    st->row = buf;
    return 0;
}

static int load_structure(loader *c, json_t *root)
{
    static const char *const keys[] = {"table", "swiss_rounds", "cut", NULL};
    tour_structure *st = &c->t->st;
    json_t *o = json_object_get(root, "structure");
    if (!o)
        return refuse(c, "\"structure\" is missing.");
    int rc = want_object(c, o, "structure");
    if (!rc)
        rc = only_keys(c, o, "structure", keys);
    if (rc)
        return rc;
    uint32_t round1 = 0;
    for (size_t p = 0; p < c->t->np; p++) {
        st->registered += (uint32_t)c->t->players[p].registered;
        round1 += active_in(c->t, (int)p, 1);
    }
    const char *which;
    rc = get_str(c, o, "structure", "table", 0, &which);
    if (rc)
        return rc;
    if (which) {
        if (json_object_size(o) != 1)
            return refuse(c, "\"structure\" gives a table and a custom structure.");
        rc = structure_from_table(c, which, st);
    } else {
        uint64_t s;
        rc = get_uint(c, o, "structure", "swiss_rounds", 1, TOUR_SWISS_MAX, &s, NULL);
        if (rc)
            return rc;
        st->kind = TOUR_CUSTOM;
        st->swiss_rounds = (uint32_t)s;
        json_t *cut = json_object_get(o, "cut");
        if (s == 0 && json_is_string(cut) && !strcmp(json_string_value(cut), "all")) {
            /* T35: elimination from the start */
            if (round1 < 2)
                return refuse(c, "\"structure\" eliminates from the start with fewer than 2 players.");
            st->kind = TOUR_ALL_ELIMINATION;
            st->cut = round1;
        } else {
            uint64_t n;
            rc = get_uint(c, o, "structure", "cut", 1, TOUR_CUT_MAX, &n, NULL);
            if (rc || (n != 0 && n != 4 && n != 8 && n != 16 && n != 32) || s == 0)
                return refuse(c, "\"structure.cut\" must be 0, 4, 8, 16 or 32 after 1 or more Swiss rounds, "
                                 "or \"all\" with \"swiss_rounds\" 0.");
            st->cut = (uint32_t)n;
        }
    }
    if (rc)
        return rc;
    st->elimination_rounds = log2_ceil(st->cut);
    if (st->swiss_rounds + st->elimination_rounds > TOUR_ROUNDS_MAX)
        return refuse(c, "\"structure\" has more than %d rounds.", TOUR_ROUNDS_MAX);
    return 0;
}

/* ---- loading: rounds, reports, judges' results ---------------------------- */

static int find_table(const tround *r, const char *table)
{
    idref key = {table, 0};
    const idref *hit = table && r->ntables ? bsearch(&key, r->by_table, r->ntables, sizeof key, cmp_idref) : NULL;
    return hit ? hit->idx : -1;
}

static int load_pairing(loader *c, json_t *o, const char *base, uint32_t round, tpairing *p)
{
    static const char *const pair_keys[] = {"table", "p1", "p2", "game", "intentional_draw", "time_called", NULL};
    static const char *const bye_keys[] = {"bye", "game", NULL};
    int elim = is_elimination(c->t, round), present, rc = want_object(c, o, base);
    uint64_t game = 0, tc = 0;
    if (rc)
        return rc;
    p->p[1] = -1;
    if (json_object_get(o, "bye")) {
        rc = only_keys(c, o, base, bye_keys);
        if (!rc)
            rc = get_player(c, o, base, "bye", 1, &p->p[0]);
    } else {
        rc = only_keys(c, o, base, pair_keys);
        if (!rc)
            rc = get_str(c, o, base, "table", 1, &p->table);
        if (!rc)
            rc = get_player(c, o, base, "p1", 1, &p->p[0]);
        if (!rc)
            rc = get_player(c, o, base, "p2", 1, &p->p[1]);
        if (!rc && p->p[0] == p->p[1])
            rc = refuse(c, "\"%s\" pairs a player with themselves.", base);
        if (!rc)
            rc = get_bool(c, o, base, "intentional_draw", &p->intentional_draw);
        /* T15: every elimination pairing needs a winner. */
        if (!rc && p->intentional_draw && elim)
            rc = refuse(c, "\"%s.intentional_draw\" is not allowed in an elimination round.", base);
        if (!rc)
            rc = get_uint(c, o, base, "time_called", 0, UINT64_MAX >> 1, &tc, NULL);
    }
    if (!rc)
        rc = get_uint(c, o, base, "game", 0, UINT32_MAX, &game, &present);
    if (!rc && elim && (!present || game < 1))
        rc = refuse(c, "\"%s.game\" is required in an elimination round (1 or more).", base);
    if (!rc && !elim && present)
        rc = refuse(c, "\"%s.game\" is refused in a Swiss round.", base);
    p->game = (uint32_t)game;
    p->time_called = tc;
    return rc;
}

static int index_tables(loader *c, tround *r, const char *base)
{
    r->by_table = calloc(r->npairs + 1, sizeof *r->by_table);
    if (!r->by_table)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].table)
            r->by_table[r->ntables++] = (idref){r->pairs[i].table, (int)i};
    qsort(r->by_table, r->ntables, sizeof *r->by_table, cmp_idref);
    for (size_t i = 1; i < r->ntables; i++)
        if (!strcmp(r->by_table[i - 1].id, r->by_table[i].id))
            return refuse(c, "\"%s.pairings[%d].table\" repeats table \"%s\".", base, r->by_table[i].idx,
                          r->by_table[i].id);
    return 0;
}

/* Scores keyed by the pairing's two player ids, into the pairing's order. */
static int load_scores(loader *c, json_t *o, const char *base, const tpairing *p, int *has, int64_t sc[2])
{
    json_t *s = json_object_get(o, "scores");
    *has = s != NULL;
    if (!s)
        return 0;
    char path[320];
    keypath(path, sizeof path, base, "scores");
    if (!json_is_object(s) || json_object_size(s) != 2 || p->p[1] < 0)
        return refuse(c, "\"%s\" must map the pairing's two players to their scores.", path);
    for (int k = 0; k < 2; k++) {
        json_t *v = json_object_get(s, c->t->players[p->p[k]].id);
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return refuse(c, "\"%s\" must map the pairing's two players to their scores.", path);
        sc[k] = json_integer_value(v);
    }
    return 0;
}

static int load_report(loader *c, json_t *o, const char *base, tround *r, treport *rep)
{
    static const char *const keys[] = {"table", "winner", "draw", "scores", NULL};
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_str(c, o, base, "table", 1, &rep->table);
    if (rc)
        return rc;
    int k = find_table(r, rep->table);
    if (k < 0)
        return refuse(c, "\"%s.table\" names no pairing of its round.", base);
    rep->pairing = (size_t)k;
    const tpairing *p = &r->pairs[k];
    rc = get_player(c, o, base, "winner", 0, &rep->winner);
    if (!rc)
        rc = get_bool(c, o, base, "draw", &rep->draw);
    if (!rc && (rep->winner >= 0) == rep->draw)
        rc = refuse(c, "\"%s\" must give exactly one of \"winner\" and \"draw\": true.", base);
    if (!rc && rep->winner >= 0 && rep->winner != p->p[0] && rep->winner != p->p[1])
        rc = refuse(c, "\"%s.winner\" is not a player of that pairing.", base);
    if (!rc)
        rc = load_scores(c, o, base, p, &rep->has_scores, rep->scores);
    return rc;
}

static int load_round_lists(loader *c, json_t *o, const char *base, tround *r)
{
    json_t *pl, *rl;
    char path[96];
    int rc = get_list(c, o, base, "pairings", 1, &pl);
    if (!rc)
        rc = get_list(c, o, base, "reports", 0, &rl);
    if (rc)
        return rc;
    r->npairs = json_array_size(pl);
    r->nreports = rl ? json_array_size(rl) : 0;
    r->pairs = calloc(r->npairs + 1, sizeof *r->pairs);
    r->reports = calloc(r->nreports + 1, sizeof *r->reports);
    if (!r->pairs || !r->reports)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < r->npairs && !rc; i++) {
        snprintf(path, sizeof path, "%s.pairings[%zu]", base, i);
        rc = load_pairing(c, json_array_get(pl, i), path, r->round, &r->pairs[i]);
        if (!r->pairs[i].time_called)    /* T12: an extension overrides the round's call */
            r->pairs[i].time_called = r->time_called;
    }
    if (!rc)
        rc = index_tables(c, r, base);
    for (size_t i = 0; i < r->nreports && !rc; i++) {
        snprintf(path, sizeof path, "%s.reports[%zu]", base, i);
        rc = load_report(c, json_array_get(rl, i), path, r, &r->reports[i]);
    }
    return rc;
}

static int load_round(loader *c, json_t *o, size_t i, tround *r)
{
    static const char *const keys[] = {"round", "seed", "results_seed", "pairings", "time_called", "closed", "reports",
                                       "started", NULL};
    char base[48];
    uint64_t n = 0, tc = 0;
    snprintf(base, sizeof base, "rounds[%zu]", i);
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_uint(c, o, base, "round", 1, TOUR_ROUNDS_MAX, &n, NULL);
    if (rc)
        return rc;
    /* T2: rounds are numbered from 1 through the whole event, each once. */
    if (n != i + 1)
        return refuse(c, "\"%s.round\" must be %zu: rounds are listed in order from 1.", base, i + 1);
    if (n > total_rounds(c->t))
        return refuse(c, "\"%s.round\" is past the structure's %u rounds.", base, total_rounds(c->t));
    r->round = (uint32_t)n;
    rc = get_str(c, o, base, "seed", 0, &r->seed);
    if (!rc)
        rc = get_str(c, o, base, "results_seed", 0, &r->results_seed);
    if (!rc)
        rc = get_uint(c, o, base, "time_called", 0, UINT64_MAX >> 1, &tc, NULL);
    if (!rc)
        rc = get_bool(c, o, base, "closed", &r->closed);
    if (!rc)
        rc = get_uint(c, o, base, "started", 0, UINT64_MAX >> 1, &r->started, NULL);
    r->time_called = tc;
    return rc ? rc : load_round_lists(c, o, base, r);
}

static int load_rounds(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *list;
    int rc = get_list(c, root, "", "rounds", 0, &list);
    if (rc || !list)
        return rc;
    t->nrounds = json_array_size(list);
    if (t->nrounds > TOUR_ROUNDS_MAX)
        return refuse(c, "\"rounds\" lists more than %d rounds.", TOUR_ROUNDS_MAX);
    t->rounds = calloc(t->nrounds + 1, sizeof *t->rounds);
    if (!t->rounds)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < t->nrounds && !rc; i++)
        rc = load_round(c, json_array_get(list, i), i, &t->rounds[i]);
    /* T16: a later round with pairings closes the rounds before it. */
    for (size_t i = t->nrounds; i-- > 1 && !rc;)
        if (t->rounds[i].npairs || t->rounds[i].closed)
            t->rounds[i - 1].closed = 1;
    return rc;
}

static int load_judge_kind(loader *c, json_t *o, const char *base, tjudge *j)
{
    static const char *const kinds[] = {[J_ENGINE] = "engine", [J_AT_TIME] = "at_time", [J_WIN] = "win",
                                        [J_DRAW] = "draw", [J_DOUBLE_LOSS] = "double_loss"};
    const char *k;
    int rc = get_str(c, o, base, "result", 1, &k);
    if (rc)
        return rc;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(k, kinds[i])) {
            j->kind = (jkind)i;
            return 0;
        }
    return refuse(c, "\"%s.result\" must be \"engine\", \"at_time\", \"win\", \"draw\" or \"double_loss\".", base);
}

static int judge_players(loader *c, json_t *o, const char *base, const tpairing *p, tjudge *j)
{
    int rc = get_player(c, o, base, "winner", j->kind == J_WIN, &j->winner);
    if (!rc && j->winner >= 0 && j->kind != J_WIN)
        rc = refuse(c, "\"%s.winner\" is only for a \"win\".", base);
    if (!rc)
        rc = get_player(c, o, base, "draw_win", 0, &j->draw_win);
    if (!rc && j->draw_win >= 0 && j->kind != J_DRAW)
        rc = refuse(c, "\"%s.draw_win\" is only for a \"draw\".", base);
    if (!rc && j->winner >= 0 && j->winner != p->p[0] && j->winner != p->p[1])
        rc = refuse(c, "\"%s.winner\" is not a player of that pairing.", base);
    if (!rc && j->draw_win >= 0 && j->draw_win != p->p[0] && j->draw_win != p->p[1])
        rc = refuse(c, "\"%s.draw_win\" is not a player of that pairing.", base);
    return rc;
}

static int load_judge(loader *c, json_t *o, size_t i, tjudge *j)
{
    static const char *const keys[] = {"round", "table", "match", "result", "winner", "draw_win", "scores", "judge",
                                       "text", NULL};
    char base[40];
    const char *table;
    uint64_t r = 0;
    snprintf(base, sizeof base, "judge_results[%zu]", i);
    int rc = want_object(c, o, base);
    if (!rc)
        rc = only_keys(c, o, base, keys);
    if (!rc)
        rc = get_uint(c, o, base, "round", 1, TOUR_ROUNDS_MAX, &r, NULL);
    if (!rc)
        rc = get_str(c, o, base, "table", 1, &table);
    if (rc)
        return rc;
    /* T19: a judge's result for no pairing is refused. */
    const tround *rd = round_of(c->t, (uint32_t)r);
    int k = rd ? find_table(rd, table) : -1;
    if (k < 0)
        return refuse(c, "\"%s\" names no pairing: round %llu has no table \"%s\".", base, (unsigned long long)r,
                      table);
    j->round = (uint32_t)r;
    j->pairing = (size_t)k;
    rc = get_str(c, o, base, "match", 0, &j->match);
    if (!rc)
        rc = load_judge_kind(c, o, base, j);
    if (!rc)
        rc = judge_players(c, o, base, &rd->pairs[k], j);
    if (!rc)
        rc = load_scores(c, o, base, &rd->pairs[k], &j->has_scores, j->scores);
    if (!rc)
        rc = get_str(c, o, base, "judge", 1, &j->judge);
    if (!rc)
        rc = get_str(c, o, base, "text", 1, &j->text);
    return rc;
}

static int cmp_judge(const void *a, const void *b)
{
    const tjudge *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    return x->pairing < y->pairing ? -1 : x->pairing > y->pairing;
}

static int load_judges(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *list;
    int rc = get_list(c, root, "", "judge_results", 0, &list);
    if (rc || !list)
        return rc;
    t->njudges = json_array_size(list);
    t->judges = calloc(t->njudges + 1, sizeof *t->judges);
    if (!t->judges)
        return TOUR_ENOMEM;
    for (size_t i = 0; i < t->njudges && !rc; i++)
        rc = load_judge(c, json_array_get(list, i), i, &t->judges[i]);
    if (rc)
        return rc;
    qsort(t->judges, t->njudges, sizeof *t->judges, cmp_judge);
    for (size_t i = 1; i < t->njudges; i++)
        if (!cmp_judge(&t->judges[i - 1], &t->judges[i]))
            return refuse(c, "\"judge_results\" gives two results for round %u table \"%s\".", t->judges[i].round,
                          t->rounds[t->judges[i].round - 1].pairs[t->judges[i].pairing].table);
    return 0;
}

static const tjudge *judge_for(const tournament *t, uint32_t round, size_t pairing)
{
    tjudge key = {.round = round, .pairing = pairing};
    return t->njudges ? bsearch(&key, t->judges, t->njudges, sizeof key, cmp_judge) : NULL;
}

/* ---- loading: the top level ----------------------------------------------- */

static int load_rules(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *rules = json_object_get(root, "rules");
    t->base = t->ops->score_base;
    if (!rules) {
        t->rules_json = strdup("{}");
        return t->rules_json ? 0 : TOUR_ENOMEM;
    }
    int rc = want_object(c, rules, "rules");
    if (rc)
        return rc;
    const char *k;
    json_t *v;
    json_object_foreach(rules, k, v) {
        if (!json_is_integer(v) && !json_is_boolean(v))
            return refuse(c, "\"rules.%s\" must be an integer or a boolean.", k);
    }
    /* T5, T43: the base of Advanced and Master is the event's starting LP
     * (the engine names the lever that sets its base). */
    const char *lever = t->ops->score_base_lever;
    json_t *lp = lever ? json_object_get(rules, lever) : NULL;
    if (lp) {
        if (!json_is_integer(lp) || json_integer_value(lp) < 1000 || json_integer_value(lp) > 100000)
            return refuse(c, "\"rules.%s\" must be an integer from 1000 to 100000.", lever);
        t->base = json_integer_value(lp);
    }
    t->rules_json = json_dumps(rules, JSON_COMPACT | JSON_SORT_KEYS);
    return t->rules_json ? 0 : TOUR_ENOMEM;
}

/* The event's format: one whose engine runs tournaments (the registry,
 * verifiers/registry.c), else a sentence naming those that do. */
static int format_of(loader *c, const char *name)
{
    tournament *t = c->t;
    int f = ol_format_parse(name);
    const verifier_ops *ops = f < 0 ? NULL : verifier_ops_of((ol_format)f);
    if (ops && ops->tournament) {
        t->format = (ol_format)f;
        t->ops = ops;
        return 0;
    }
    /* "\"snap\", \"advanced\" or \"master\"" */
    char list[200] = "";
    size_t n = 0, k = 0, said = 0;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        n += ops->tournament != 0;
    for (size_t i = 0; (ops = verifier_engine_at(i)) && k < sizeof list; i++)
        if (ops->tournament) {
            said++;
            k += (size_t)snprintf(list + k, sizeof list - k, "%s\"%s\"", said == 1 ? "" : said == n ? " or " : ", ",
                                  ol_format_name(ops->format));
        }
    if (f >= 0 && verifier_ops_of((ol_format)f))
        return refuse(c, "\"format\" is \"%s\": arbiter tournament runs the events of the Mintayn regulations "
                         "(TOURNAMENT.md), whose formats are %s.", name, list);
    return refuse(c, "\"format\" must be %s.", list);
}

static int load_head(loader *c, json_t *root)
{
    static const char *const keys[] = {"version", "id", "name", "format", "cards", "rules", "tier", "seed",
                                       "structure", "cut_on_later_day", "round_minutes", "decklists_public",
                                       "players", "late_entries", "drops", "rounds", "judge_results", "timezone", NULL};
    tournament *t = c->t;
    const char *fmt;
    uint64_t minutes = 0;
    int rc = want_object(c, root, "(top level)");
    if (!rc)
        rc = only_keys(c, root, "", keys);
    if (!rc && (!json_is_integer(json_object_get(root, "version")) ||
                json_integer_value(json_object_get(root, "version")) != 1))
        rc = refuse(c, "\"version\" must be 1.");
    if (!rc)
        rc = get_str(c, root, "", "id", 1, &t->id);
    if (!rc)
        rc = get_str(c, root, "", "name", 1, &t->name);
    if (!rc)
        rc = get_str(c, root, "", "format", 1, &fmt);
    if (rc)
        return rc;
    if ((rc = format_of(c, fmt)))
        return rc;
    rc = get_str(c, root, "", "cards", 0, &t->cards);
    if (!rc && t->cards && (!strchr(t->cards, '@') || t->cards[0] == '@' || strchr(t->cards, '@')[1] == 0))
        rc = refuse(c, "\"cards\" must be \"set@version\".");
    if (!rc)
        rc = get_str(c, root, "", "tier", 0, &t->tier);
    if (!rc && t->tier && strcmp(t->tier, "relaxed") && strcmp(t->tier, "formal") && strcmp(t->tier, "premier"))
        rc = refuse(c, "\"tier\" must be \"relaxed\", \"formal\" or \"premier\".");
    if (!rc)
        rc = get_str(c, root, "", "timezone", 0, &t->timezone);
    if (!rc)
        rc = get_str(c, root, "", "seed", 0, &t->file_seed);
    if (!rc && t->file_seed && !*t->file_seed)
        rc = refuse(c, "\"seed\" must not be empty.");
    if (!rc)
        rc = get_bool(c, root, "", "cut_on_later_day", &t->later_day);
    if (!rc)
        rc = get_bool(c, root, "", "decklists_public", &t->decklists_public);
    if (!rc)
        rc = get_uint(c, root, "", "round_minutes", 0, UINT32_MAX, &minutes, NULL);
    t->round_minutes = (uint32_t)minutes;
    return rc ? rc : load_rules(c, root);
}

/* T23: nobody enters after the Swiss stage, neither a late entry nor a
 * dropped player rejoining: an elimination round seats only who advanced. */
static int check_entries(loader *c)
{
    const tournament *t = c->t;
    uint32_t last = t->st.swiss_rounds ? t->st.swiss_rounds : 1;
    for (size_t p = 0; p < t->np; p++) {
        uint64_t a = t->players[p].active;
        if (!t->players[p].registered && a && (uint32_t)__builtin_ctzll(a) + 1 > last)
            return refuse(c, "\"late_entries\" enters \"%s\" after the Swiss stage.", t->players[p].id);
        for (uint32_t r = last + 1; r <= TOUR_ROUNDS_MAX; r++)
            if ((a & round_bit(r)) && !(a & round_bit(r - 1)))
                return refuse(c, "\"late_entries\" has \"%s\" rejoin in round %u, after the Swiss stage.",
                              t->players[p].id, r);
    }
    return 0;
}

/* T27: a seed made from the system's random source, 32 hex digits. */
static void make_seed(tournament *t)
{
    uint8_t raw[16];
    randombytes_buf(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(t->seed + 2 * i, 3, "%02x", raw[i]);
    t->seed_made = 1;
}

int tournament_load(const char *json, size_t len, tournament **out, char *err, size_t errlen)
{
    loader c = {NULL, err, errlen};
    json_error_t jerr;
    int rc;
    *out = NULL;
    say(err, errlen, "%s", "");
    if (sodium_init() < 0)
        return refuse(&c, "libsodium could not be initialised.");
    if (len > TOUR_FILE_MAX)
        return refuse(&c, "The tournament file is larger than %zu bytes.", TOUR_FILE_MAX);
    c.t = calloc(1, sizeof *c.t);
    if (!c.t)
        return TOUR_ENOMEM;
    c.t->root = json_loadb(json ? json : "", json ? len : 0, JSON_REJECT_DUPLICATES, &jerr);
    if (!c.t->root)
        rc = refuse(&c, "The tournament file is not JSON: line %d: %s.", jerr.line, jerr.text);
    else
        rc = load_head(&c, c.t->root);
    if (!rc)
        rc = load_players(&c, c.t->root);
    if (!rc)
        rc = load_presence(&c, c.t->root);
    if (!rc)
        rc = load_structure(&c, c.t->root);
    if (!rc)
        rc = check_entries(&c);
    if (!rc)
        rc = load_rounds(&c, c.t->root);
    if (!rc)
        rc = load_judges(&c, c.t->root);
    if (!rc && !c.t->file_seed)
        make_seed(c.t);
    if (rc)
        tournament_destroy(&c.t);
    *out = c.t;
    return rc;
}

void tournament_destroy(tournament **tp)
{
    tournament *t = tp ? *tp : NULL;
    if (!t)
        return;
    for (size_t i = 0; t->rounds && i < t->nrounds; i++) {
        free(t->rounds[i].pairs);
        free(t->rounds[i].reports);
        free(t->rounds[i].by_table);
    }
    free(t->rounds);
    free(t->judges);
    free(t->players);
    free(t->by_id);
    free(t->rank);
    free(t->last_drop);
    free(t->rules_json);
    json_decref(t->root);
    free(t);
    *tp = NULL;
}

int tournament_set_seed(tournament *t, const char *seed)
{
    if (!seed || !*seed || strlen(seed) > TOUR_STR_MAX)
        return TOUR_EINVAL;
    copy_str(t->seed, sizeof t->seed, seed);
    t->seed_made = 0;
    return 0;
}

/* T27: the file's seed, else --seed, else a made one. */
const char *tournament_seed(const tournament *t, int *made)
{
    if (made)
        *made = !t->file_seed && t->seed_made;
    return t->file_seed ? t->file_seed : t->seed;
}

/* T27: round r's seed for its pairing (results 0) or its results (1). */
static const char *round_seed(const tournament *t, uint32_t r, int results, int *made)
{
    const tround *rd = round_of(t, r);
    const char *s = rd ? (results && rd->results_seed ? rd->results_seed : rd->seed) : NULL;
    if (s) {
        if (made)
            *made = 0;
        return s;
    }
    return tournament_seed(t, made);
}

const char *tournament_id(const tournament *t) { return t->id; }
const char *tournament_name(const tournament *t) { return t->name; }
ol_format tournament_format(const tournament *t) { return t->format; }
const char *tournament_format_name(const tournament *t) { return ol_format_name(t->format); }
int64_t tournament_base(const tournament *t) { return t->base; }
const tour_structure *tournament_structure(const tournament *t) { return &t->st; }
uint32_t tournament_round_minutes(const tournament *t) { return t->round_minutes; }
const char *tournament_timezone(const tournament *t) { return t->timezone; }
uint64_t tournament_round_started(const tournament *t, uint32_t r)
{
    return round_of(t, r) ? round_of(t, r)->started : 0;
}
size_t tournament_player_count(const tournament *t) { return t->np; }
const char *tournament_rules_json(const tournament *t) { return t->rules_json; }
uint32_t tournament_rounds_published(const tournament *t) { return (uint32_t)t->nrounds; }

const tour_player *tournament_player(const tournament *t, size_t i)
{
    return i < t->np ? &t->players[i] : NULL;
}

const tournament *tournament_by_id(tournament *const *list, size_t n, const char *id)
{
    for (size_t i = 0; id && i < n; i++)
        if (list[i] && !strcmp(list[i]->id, id))
            return list[i];
    return NULL;
}

int tournament_player_index(const tournament *t, const char *id)
{
    return id ? find_player(t, id) : -1;
}

/* ---- results: placing the records (T1, T2) -------------------------------- */

/* A published pairing by its round and its two players, unordered (T2). */
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

static const char *pid(const tournament *t, int p)
{
    return p >= 0 ? t->players[p].id : "";
}

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
    copy_str(al->table, sizeof al->table, table);
    copy_str(al->match, sizeof al->match, match);
    copy_str(al->players[0], sizeof al->players[0], a);
    copy_str(al->players[1], sizeof al->players[1], b);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(al->text, sizeof al->text, fmt, ap);
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
    int a = find_player(t, g->p1 ? g->p1 : ""), b = find_player(t, g->p2 ? g->p2 : "");
    x->gp[i][0] = a;
    x->gp[i][1] = b;
    x->gres[i] = -1;
    x->gnext[i] = -1;
    /* T2: a round the structure does not have, or no round or table. */
    if (!g->round || !g->table || g->round > total_rounds(t))
        return add_alarm(x, SIZE_MAX, "unplaced", "T2", g->round, g->table, g->match, g->p1, g->p2,
                         "Record %s has no round or table of this tournament's structure.", g->match);
    if (a < 0 || b < 0)
        return add_alarm(x, SIZE_MAX, "unknown_player", "T2", g->round, g->table, g->match, g->p1, g->p2,
                         "Record %s names \"%s\", who is not a player of the tournament.", g->match,
                         a < 0 ? g->p1 : g->p2);
    int rc = 0, gone = 0;
    for (int k = 0; k < 2 && !rc; k++)   /* T22, T23 */
        if (!active_in(t, x->gp[i][k], g->round) && ++gone)
            rc = add_alarm(x, SIZE_MAX, "dropped_paired", "T22", g->round, g->table, g->match, g->p1, g->p2,
                           "Record %s has %s playing in round %u, when they were not in the tournament.", g->match,
                           pid(t, x->gp[i][k]), g->round);
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
            x->g[i].round <= total_rounds(x->t))
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
                           pid(x->t, o[i].player), "",
                           "%s is in %zu records of round %u (%s and %s); none counts until the head judge names one.",
                           pid(x->t, o[i].player), j - i, o[i].round, x->g[o[i].what].match, g->match);
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
                           pid(t, o[i].player), "", "%s is in two pairings of round %u.", pid(t, o[i].player),
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
        k[i] = (meet){is_elimination(t, x->keys[i].round), x->keys[i].lo, x->keys[i].hi, x->keys[i].round,
                      x->keys[i].res};
    qsort(k, x->nkeys, sizeof *k, cmp_meet);
    for (size_t i = 1; i < x->nkeys && !rc; i++) {
        const meet *a = &k[i - 1], *b = &k[i];
        if (a->stage != b->stage || a->lo != b->lo || a->hi != b->hi || a->round == b->round)
            continue;
        const tour_result *rr = &x->r->results[b->res];
        rc = add_alarm(x, b->res, "rematch", "T31", rr->round, rr->table, "", pid(t, b->lo), pid(t, b->hi),
                       "%s and %s already met in round %u of this stage.", pid(t, b->lo), pid(t, b->hi), a->round);
    }
    free(k);
    for (size_t i = 0; i < x->r->n_results && !rc; i++) {
        const tour_result *rr = &x->r->results[i];
        for (int s = 0; s < 2 && !rc; s++) {
            int p = rr->player[s];
            if (p >= 0 && t->players[p].disqualified && rr->round > t->players[p].disqualified_after)
                rc = add_alarm(x, i, "dropped_paired", "T22", rr->round, rr->table, "", pid(t, p), "",
                               "%s is paired in round %u after being disqualified.", pid(t, p), rr->round);
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
    rr->draw_seed = round_seed(t, rr->round, 1, NULL);
    snprintf(label, sizeof label, "draw %u %s", rr->round, rr->table ? rr->table : "");
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
    return add_alarm(x, res, kind, ruling, rr->round, rr->table, v->g->match, pid(x->t, rr->player[0]),
                     pid(x->t, rr->player[1]), "Record %s: %s", v->g->match, why);
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
        snprintf(why, sizeof why, "%s; the head judge rules.", g->first_bad ? g->first_bad : "it is not legal");
        return rec_alarm(x, res, v, "illegal_record", "T17", why);
    }
    /* T43: one set of rules for the event. */
    if ((g->format && strcmp(g->format, ol_format_name(t->format))) || (g->cards && t->cards && strcmp(g->cards, t->cards)) ||
        g->rules_differ) {
        snprintf(why, sizeof why, "its rules differ from the event's (%s).",
                 g->rules_differ ? g->rules_differ : g->format && strcmp(g->format, ol_format_name(t->format))
                                                         ? "format" : "card database");
        return rec_alarm(x, res, v, "rules_differ", "T43", why);
    }
    /* T18: a mismatch counts the engine's outcome and raises an alarm; T3:
     * a claimed winner is compared, never counted. */
    if (g->status == TOUR_REC_MISMATCH)
        rc = rec_alarm(x, res, v, "mismatch", "T18", g->first_bad ? g->first_bad : "a claim differs from the engine.");
    else if (g->claim_winner && g->claim_winner != g->winner) {
        snprintf(why, sizeof why, "the claim names %s the winner; the engine found %s.",
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
    copy_str(rr->why, sizeof rr->why, why);
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
    copy_str(rr->why, sizeof rr->why, "at time");
    return 0;
}

/* One record of the pairing, read as T3, T12, T16, T17 say. */
static int eval_record(rctx *x, size_t res, size_t gi, int closed)
{
    tour_result *rr = &x->r->results[res];
    recview v = view_of(x, gi, rr);
    uint64_t call = x->t->rounds[rr->round - 1].pairs[res - x->roff[rr->round - 1]].time_called;
    int usable, rc = rec_checks(x, res, &v, &usable);
    copy_str(rr->match, sizeof rr->match, v.g->match);
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
        copy_str(rr->match, sizeof rr->match, v.g->match);
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
    copy_str(rr->why, sizeof rr->why, j->text);
}

/* T21, T22: a bye, or a pairing with a player who had left. */
static int eval_absent(rctx *x, size_t res)
{
    const tournament *t = x->t;
    tour_result *rr = &x->r->results[res];
    int here[2] = {active_in(t, rr->player[0], rr->round), active_in(t, rr->player[1], rr->round)};
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
    copy_str(rr->why, sizeof rr->why, rr->player[1] < 0 ? "bye" : "the opponent had dropped");
    return 1;
}

static int eval_records(rctx *x, size_t res, int closed)
{
    tour_result *rr = &x->r->results[res];
    long gi = x->rhead[res];
    if (x->rcount[res] == 0) {
        pend(rr, "no record");
        rr->live = !closed;
        return closed ? add_alarm(x, res, "unrecorded", "T16", rr->round, rr->table, "", pid(x->t, rr->player[0]),
                                  pid(x->t, rr->player[1]), "The pairing of %s and %s has no record.",
                                  pid(x->t, rr->player[0]), pid(x->t, rr->player[1]))
                      : 0;
    }
    /* T1: two records of one pairing, or a player in two records */
    if (x->rcount[res] > 1 || x->doubled[gi]) {
        pend(rr, "two records");
        if (x->rcount[res] < 2)
            return 0;   /* find_doubles raised it */
        return add_alarm(x, res, "two_games", "T1", rr->round, rr->table, x->g[gi].match, pid(x->t, rr->player[0]),
                         pid(x->t, rr->player[1]), "The pairing of %s and %s has %u records; none counts until "
                         "the head judge names one.", pid(x->t, rr->player[0]), pid(x->t, rr->player[1]),
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
    const tjudge *j = judge_for(t, rr->round, res - x->roff[rr->round - 1]);
    int rc = 0;
    if (eval_absent(x, res))
        return 0;
    if (p->intentional_draw) {
        /* T15: 0 event points each, a draw, MOV the base (a game of 0 to 0) */
        set_game(t, rr, TOUR_INTENTIONAL_DRAW, TOUR_INTENTIONAL_DRAW, 0, 0);
        rr->by = TOUR_BY_ORGANISER;
        copy_str(rr->why, sizeof rr->why, "intentional draw");
        if (x->rcount[res])
            rc = add_alarm(x, res, "intentional_draw_played", "T15", rr->round, rr->table, x->g[x->rhead[res]].match,
                           pid(t, rr->player[0]), pid(t, rr->player[1]),
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
                       pid(t, rr->player[0]), pid(t, rr->player[1]),
                       "%s's result replaces the result the record gives: %s", j->judge, j->text);
    return rc;
}

/* A result in words for a report_differs sentence: "a draw", "ann's win",
 * then ", scores ann 5, ben 3" when `sc` is given.  Player ids only: the
 * names are the file's and the sentence goes to public exports. */
static void result_words(char *buf, size_t n, const tournament *t, const tour_result *rr, int winner, int draw,
                         const int64_t *sc)
{
    int k = draw ? snprintf(buf, n, "a draw") : snprintf(buf, n, "%s's win", pid(t, winner));
    if (sc && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", scores %s %lld, %s %lld", pid(t, rr->player[0]), (long long)sc[0],
                 pid(t, rr->player[1]), (long long)sc[1]);
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
    return add_alarm(x, res, "report_differs", "T3", rr->round, rr->table, rr->match, pid(x->t, rr->player[0]),
                     pid(x->t, rr->player[1]), "Table %s reported %s; the verified result is %s.", rr->table, said,
                     found);
}

/* Swiss grouping counts (T30), kept round by round for T32's check. */
typedef struct {
    uint32_t w, d, l, byes;
} wdl;

/* Y's group is the same as X's or lower (T30's order). */
static int same_or_lower(const wdl *y, const wdl *x)
{
    if (y->w != x->w)
        return y->w < x->w;
    if (y->d != x->d)
        return y->d < x->d;
    return y->l >= x->l;
}

static void count_outcome(wdl *c, tour_outcome o)
{
    c->w += outcome_group[o] == 'w';
    c->d += outcome_group[o] == 'd';
    c->l += outcome_group[o] == 'l';
    c->byes += o == TOUR_BYE;
}

/* T32: a published second bye while a player of the same or a lower group
 * had none. */
static int check_byes(rctx *x, uint32_t round, const wdl *c)
{
    const tournament *t = x->t;
    const tround *rd = &t->rounds[round - 1];
    int rc = 0;
    for (size_t k = 0; k < rd->npairs && !rc; k++) {
        int p = rd->pairs[k].p[0];
        if (rd->pairs[k].p[1] >= 0 || !c[p].byes)
            continue;
        for (size_t y = 0; y < t->np; y++)
            if ((int)y != p && !c[y].byes && active_in(t, (int)y, round) && same_or_lower(&c[y], &c[p])) {
                rc = add_alarm(x, x->roff[round - 1] + k, "bye_twice", "T32", round, "", "", pid(t, p), "",
                               "%s has a second bye in round %u while %s, of the same or a lower group, had none.",
                               pid(t, p), round, pid(t, (int)y));
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
        snprintf(was, sizeof was, "in round %u", before);
    else
        snprintf(was, sizeof was, "%s", fmt_round);
    /* T45: names the player and the rounds, never the cards */
    return add_alarm(x, res >= 0 ? (size_t)res : SIZE_MAX, "deck_changed", "T42", o->round, g->table, g->match,
                     pid(x->t, o->player), "", "%s's decklist in round %u differs from the one %s.",
                     pid(x->t, o->player), o->round, was);
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
            rr->elimination = is_elimination(t, rr->round);
            rr->player[0] = p->p[0];
            rr->player[1] = p->p[1];
        }
}

/* Round by round, so that T32's check sees the groups before each round. */
static int eval_rounds(rctx *x)
{
    const tournament *t = x->t;
    wdl *c = calloc(t->np + 1, sizeof *c);
    int rc = 0;
    if (!c)
        return TOUR_ENOMEM;
    for (uint32_t r = 1; r <= t->nrounds && !rc; r++) {
        const tround *rd = &t->rounds[r - 1];
        int swiss = !is_elimination(t, r);
        if (swiss && r >= 2)
            rc = check_byes(x, r, c);
        for (size_t k = 0; k < rd->npairs && !rc; k++)
            rc = eval_pairing(x, x->roff[r - 1] + k);
        for (size_t k = 0; k < rd->nreports && !rc; k++)
            rc = check_report(x, x->roff[r - 1] + rd->reports[k].pairing, &rd->reports[k]);
        for (size_t k = 0; k < rd->npairs && swiss; k++)
            for (int s = 0; s < 2; s++)
                if (rd->pairs[k].p[s] >= 0)
                    count_outcome(&c[rd->pairs[k].p[s]], x->r->results[x->roff[r - 1] + k].outcome[s]);
        for (size_t p = 0; p < t->np && swiss; p++)   /* T23: unpaired losses */
            if (!active_in(t, (int)p, r) && (t->players[p].active >> r))
                count_outcome(&c[p], TOUR_UNPAIRED_LOSS);
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
    row->points += outcome_points[o];                  /* T20 */
    row->wins += outcome_group[o] == 'w';              /* T25: wins and byes */
    row->draws += outcome_group[o] == 'd';
    row->losses += outcome_group[o] == 'l';
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
    copy_str(p->match, sizeof p->match, rr->match);
    copy_str(p->why, sizeof p->why, rr->why);
    return 0;
}

/* Every player's row over the Swiss rounds up to `upto` (T20-T26). */
static int tally_rounds(const tournament *t, const tour_results *r, uint32_t upto, tour_standings *s, tour_row *rows)
{
    int rc = 0;
    for (size_t p = 0; p < t->np; p++) {
        rows[p].player = (int)p;
        for (uint32_t k = 1; k <= upto; k++)   /* T23: an unpaired loss is a round played */
            if (!active_in(t, (int)p, k) && (t->players[p].active >> k)) {
                rows[p].losses++;
                rows[p].rounds++;
            }
        /* T22: not active in the next round */
        rows[p].dropped = t->last_drop[p] != NO_DROP && t->last_drop[p] <= upto && !active_in(t, (int)p, upto + 1);
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
        s->seed = round_seed(t, upto, 1, &s->seed_made);
        snprintf(s->label, sizeof s->label, "standings %u", upto);
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
        say(err, errlen, "Round %u is not a published Swiss round.", after_round);
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
        say(err, errlen, "Swiss round %u is not published yet.", S);
        return TOUR_EPENDING;
    }
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].round <= S && r->results[i].outcome[0] == TOUR_PENDING) {
            say(err, errlen, "Round %u table %s has no result yet (%s).", r->results[i].round,
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
        say(err, errlen, "The structure has no cut.");
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
        if (!active_in(t, p, S))
            continue;
        if (active_in(t, p, S + 1))
            seeds[k++] = p;
        else if (t->later_day)
            seeds[k++] = -1;
    }
    *n = N;
    tour_standings_destroy(&s);
    return 0;
}

/* ---- the final standings (T38) -------------------------------------------- */

static int elim_winner(const tour_result *rr)
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
        int w = elim_winner(rr);
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
    *open |= last < total_rounds(t);
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

typedef struct {
    const tournament *t;
    uint32_t round;
    wdl *c;                     /* per player: groups and byes before the round */
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
        const wdl *c = &w->c[list[i]];
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
            if (!active_in(t, (int)p, k) && (t->players[p].active >> k))
                count_outcome(&w->c[p], TOUR_UNPAIRED_LOSS);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->n_results; i++) {
            const tour_result *rr = &r->results[i];
            if (rr->round >= w->round || rr->elimination)
                continue;
            for (int k = 0; k < 2 && !pass; k++)
                if (rr->player[k] >= 0)
                    count_outcome(&w->c[rr->player[k]], rr->outcome[k]);
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
    snprintf(label, sizeof label, "bye %u", w->round);
    tour_stream_init(&s, round_seed(w->t, w->round, 0, NULL), label);
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
    snprintf(label, sizeof label, "pair %u", w->round);
    tour_stream_init(&s, round_seed(w->t, w->round, 0, NULL), label);
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
    b->pub.elimination = is_elimination(t, round);
    b->pub.seed = round_seed(t, round, 0, &b->pub.seed_made);
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
        snprintf(x->table, sizeof x->table, "%d", table);
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
        if (active_in(t, t->by_id[i], 1))
            list[n++] = t->by_id[i];
    snprintf(b->labels, sizeof b->labels, "pair 1");
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
            say(err, errlen, "Round %u table %s has no result yet (%s).", r->results[i].round,
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
        if (active_in(t, (int)i, w.round))
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
    snprintf(b->labels, sizeof b->labels, n % 2 ? "pair %u, bye %u" : "pair %u", w.round, w.round);
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
    snprintf(b->labels, sizeof b->labels, "%s", "");
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
        if (active_in(t, t->by_id[i], 1))
            list[n++] = t->by_id[i];
    nb = ((size_t)1 << log2_ceil((uint32_t)n)) - n;
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
    snprintf(b->labels, sizeof b->labels, "elimination byes, elimination games");
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
    const tround *rd = round_of(t, prev);
    size_t base = 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        w[i] = -1;
    for (size_t i = 0; i < r->n_results && r->results[i].round < prev; i++)
        base++;
    for (size_t k = 0; rd && k < rd->npairs; k++) {
        const tour_result *rr = &r->results[base + k];
        if (rr->game < 1 || rr->game > 2 * TOUR_CUT_MAX) {
            say(err, errlen, "Round %u has a game number past %d.", prev, 2 * TOUR_CUT_MAX);
            return TOUR_EINVAL;
        }
        if (rr->outcome[0] == TOUR_PENDING) {
            say(err, errlen, "Round %u Game #%u has no winner yet (%s).", prev, rr->game, rr->why);
            return TOUR_EPENDING;
        }
        int k2 = elim_winner(rr);
        w[rr->game] = k2 >= 0 && active_in(t, rr->player[k2], b->pub.round) ? rr->player[k2] : -1;
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
    snprintf(b->labels, sizeof b->labels, "%s", "");
    return 0;
}

int tournament_pair(const tournament *t, const tour_results *r, uint32_t round, tour_pairings **out, char *err,
                    size_t errlen)
{
    uint32_t next = t->nrounds && !t->rounds[t->nrounds - 1].npairs ? (uint32_t)t->nrounds : (uint32_t)t->nrounds + 1;
    pairings_box *b = NULL;
    int rc;
    *out = NULL;
    if (round != next || round > total_rounds(t)) {
        say(err, errlen, "Round %u is not the next round to pair (round %u of %u).", round, next, total_rounds(t));
        return TOUR_EINVAL;
    }
    rc = new_pairings(t, round, t->np, &b);
    if (!rc) {
        if (t->st.kind == TOUR_ALL_ELIMINATION && round == 1)
            rc = elim_from_start(t, b);
        else if (!is_elimination(t, round))
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

static const char *const structure_kinds[] = {[TOUR_TABLE_BASIC] = "basic", [TOUR_TABLE_ADVANCED] = "advanced",
                                              [TOUR_CUSTOM] = "custom", [TOUR_ALL_ELIMINATION] = "elimination"};

static int finish(jtext *out)
{
    return out->bad ? TOUR_ENOMEM : 0;
}

/* T26: printed rounded to three decimals, from the exact fraction. */
static void sos_text(char *buf, size_t n, const tour_row *row)
{
    uint64_t milli = (uint64_t)(((u128)row->sos_num * 1000 + row->sos_den / 2) / row->sos_den);
    snprintf(buf, n, "%llu.%03llu", (unsigned long long)(milli / 1000), (unsigned long long)(milli % 1000));
}

static void structure_json(const tournament *t, jtext *o)
{
    const tour_structure *st = &t->st;
    jtext_lit(o, "{\"kind\":");
    jtext_str(o, structure_kinds[st->kind]);
    jtext_member_int(o, ",\"swiss_rounds\":", st->swiss_rounds);
    jtext_member_int(o, ",\"cut\":", st->cut);
    jtext_lit(o, ",\"row\":");
    jtext_str_or_null(o, st->row);
    jtext_lit(o, ",\"reconstructed\":");   /* T40: outputs say so */
    jtext_bool(o, st->reconstructed);
    jtext_lit(o, ",\"fell_back\":");
    jtext_bool(o, st->fell_back);
    jtext_lit(o, "}");
}

int tournament_standings_json(const tournament *t, const tour_standings *s, jtext *o)
{
    char sos[48];
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_member_int(o, ",\"after_round\":", s->after_round);
    jtext_lit(o, ",\"final\":");
    jtext_bool(o, s->final);
    jtext_lit(o, ",\"provisional\":");
    jtext_bool(o, s->provisional);
    jtext_lit(o, ",\"seed\":");
    jtext_str(o, s->seed);
    jtext_lit(o, ",\"seed_made\":");
    jtext_bool(o, s->seed_made);
    jtext_lit(o, ",\"label\":");
    jtext_str(o, s->label);
    jtext_lit(o, ",\"structure\":");
    structure_json(t, o);
    jtext_lit(o, ",\"standings\":[");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        jtext_member_int(o, i ? ",{\"place\":" : "{\"place\":", w->place);
        jtext_lit(o, ",\"player\":");
        jtext_str(o, t->players[w->player].id);
        jtext_lit(o, ",\"name\":");
        jtext_str(o, t->players[w->player].name);
        jtext_member_int(o, ",\"event_points\":", w->points);
        jtext_member_int(o, ",\"wins\":", w->wins);
        jtext_member_int(o, ",\"draws\":", w->draws);
        jtext_member_int(o, ",\"losses\":", w->losses);
        jtext_member_int(o, ",\"byes\":", w->byes);
        jtext_member_int(o, ",\"rounds\":", w->rounds);
        jtext_member_int(o, ",\"mov\":", w->mov);
        sos_text(sos, sizeof sos, w);
        jtext_lit(o, ",\"sos\":");
        jtext_str(o, sos);
        snprintf(sos, sizeof sos, "%llu/%llu", (unsigned long long)w->sos_num, (unsigned long long)w->sos_den);
        jtext_lit(o, ",\"sos_exact\":");
        jtext_str(o, sos);
        jtext_lit(o, ",\"dropped\":");
        jtext_bool(o, w->dropped);
        jtext_member_int(o, ",\"eliminated_in\":", w->eliminated_in);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "],\"pending\":[");
    for (size_t i = 0; i < s->n_pending; i++) {
        jtext_member_int(o, i ? ",{\"round\":" : "{\"round\":", s->pending[i].round);
        jtext_lit(o, ",\"table\":");
        jtext_str_or_null(o, s->pending[i].table);
        jtext_lit(o, ",\"match\":");
        jtext_str(o, s->pending[i].match);
        jtext_lit(o, ",\"why\":");
        jtext_str(o, s->pending[i].why);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

int tournament_pairings_json(const tournament *t, const tour_pairings *p, jtext *o)
{
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_member_int(o, ",\"round\":", p->round);
    if (p->elimination)
        jtext_lit(o, ",\"stage\":\"elimination\",\"seed\":");
    else
        jtext_lit(o, ",\"stage\":\"swiss\",\"seed\":");
    jtext_str(o, p->seed);
    jtext_lit(o, ",\"seed_made\":");
    jtext_bool(o, p->seed_made);
    jtext_lit(o, ",\"labels\":");
    jtext_str(o, p->labels);
    jtext_member_int(o, ",\"rematches\":", (long long)p->rematches);
    jtext_lit(o, ",\"structure\":");   /* T40: every output says so */
    structure_json(t, o);
    jtext_lit(o, ",\"pairings\":[");
    for (size_t i = 0, first = 1; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->player[0] < 0)
            continue;   /* T37: a game nobody is left to play */
        if (!first)
            jtext_lit(o, ",");
        jtext_lit(o, "{");
        first = 0;
        if (x->player[1] < 0) {
            jtext_lit(o, "\"bye\":");
            jtext_str(o, pid(t, x->player[0]));
        } else {
            jtext_lit(o, "\"table\":");
            jtext_str(o, x->table);
            jtext_lit(o, ",\"p1\":");
            jtext_str(o, pid(t, x->player[0]));
            jtext_lit(o, ",\"p2\":");
            jtext_str(o, pid(t, x->player[1]));
        }
        if (x->game)
            jtext_member_int(o, ",\"game\":", x->game);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

int tournament_alarms_json(const tournament *t, const tour_results *r, jtext *o)
{
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_lit(o, ",\"alarms\":[");
    for (size_t i = 0; i < r->n_alarms; i++) {
        const tour_alarm *a = &r->alarms[i];
        if (i)
            jtext_lit(o, ",");
        jtext_lit(o, "{\"alarm\":");
        jtext_str(o, a->kind);
        jtext_lit(o, ",\"ruling\":");
        jtext_str(o, a->ruling);
        jtext_member_int(o, ",\"round\":", a->round);
        jtext_lit(o, ",\"table\":");
        jtext_str(o, a->table);
        jtext_lit(o, ",\"match\":");
        jtext_str(o, a->match);
        jtext_lit(o, ",\"players\":[");
        jtext_str(o, a->players[0]);
        jtext_lit(o, ",");
        jtext_str(o, a->players[1]);
        jtext_lit(o, "],\"text\":");
        jtext_str(o, a->text);
        jtext_lit(o, ",\"resolved\":");
        jtext_bool(o, a->resolved);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

/* RFC 4180: quoted when it holds a comma, a quote, CR or LF. */
void tournament_csv_field(jtext *o, const char *s, int last)
{
    s = s ? s : "";
    if (strpbrk(s, ",\"\r\n")) {
        jtext_lit(o, "\"");
        for (const char *c = s; *c; c++) {
            if (*c == '"')
                jtext_lit(o, "\"");
            jtext_raw(o, c, 1);
        }
        jtext_lit(o, "\"");
    } else
        jtext_raw(o, s, strlen(s));
    if (last)
        jtext_lit(o, "\r\n");
    else
        jtext_lit(o, ",");
}

void tournament_csv_int(jtext *o, long long v, int last)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    tournament_csv_field(o, buf, last);
}

int tournament_standings_csv(const tournament *t, const tour_standings *s, jtext *o)
{
    char sos[48];
    jtext_lit(o, "place,player,name,event_points,wins,draws,losses,byes,rounds,mov,sos,dropped,eliminated_in\r\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        tournament_csv_int(o, w->place, 0);
        tournament_csv_field(o, t->players[w->player].id, 0);
        tournament_csv_field(o, t->players[w->player].name, 0);
        tournament_csv_int(o, w->points, 0);
        tournament_csv_int(o, w->wins, 0);
        tournament_csv_int(o, w->draws, 0);
        tournament_csv_int(o, w->losses, 0);
        tournament_csv_int(o, w->byes, 0);
        tournament_csv_int(o, w->rounds, 0);
        tournament_csv_int(o, w->mov, 0);
        sos_text(sos, sizeof sos, w);
        tournament_csv_field(o, sos, 0);
        tournament_csv_field(o, w->dropped ? "true" : "false", 0);
        tournament_csv_int(o, w->eliminated_in, 1);
    }
    return finish(o);
}

int tournament_pairings_csv(const tournament *t, const tour_pairings *p, jtext *o)
{
    jtext_lit(o, "round,table,game,p1,p2\r\n");
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->player[0] < 0)
            continue;
        tournament_csv_int(o, p->round, 0);
        tournament_csv_field(o, x->table, 0);
        if (x->game)
            tournament_csv_int(o, x->game, 0);
        else
            tournament_csv_field(o, "", 0);
        tournament_csv_field(o, pid(t, x->player[0]), 0);
        tournament_csv_field(o, pid(t, x->player[1]), 1);
    }
    return finish(o);
}

int tournament_alarms_csv(const tournament *t, const tour_results *r, jtext *o)
{
    (void)t;
    jtext_lit(o, "alarm,ruling,round,table,match,p1,p2,text,resolved\r\n");
    for (size_t i = 0; i < r->n_alarms; i++) {
        const tour_alarm *a = &r->alarms[i];
        tournament_csv_field(o, a->kind, 0);
        tournament_csv_field(o, a->ruling, 0);
        tournament_csv_int(o, a->round, 0);
        tournament_csv_field(o, a->table, 0);
        tournament_csv_field(o, a->match, 0);
        tournament_csv_field(o, a->players[0], 0);
        tournament_csv_field(o, a->players[1], 0);
        tournament_csv_field(o, a->text, 0);
        tournament_csv_field(o, a->resolved ? "true" : "false", 1);
    }
    return finish(o);
}

int tournament_decklists_public(const tournament *t) { return t->decklists_public; }

int tournament_player_deck_each(const tournament *t, size_t i, int (*fn)(void *ctx, const char *card), void *ctx)
{
    json_t *deck = json_object_get(json_array_get(json_object_get(t->root, "players"), i), "deck");
    const char *k;
    json_t *list, *v;
    size_t n;
    int rc;

    json_object_foreach(deck, k, list) {
        json_array_foreach(list, n, v)
            if (json_is_string(v) && (rc = fn(ctx, json_string_value(v))) != 0)
                return rc;
    }
    return 0;
}
