/* tournament.c -- a Mintayn tournament file, loaded and validated.
 *
 * What: the organiser's file (arbiter-tournament(5)) says who plays, what
 * was published and what the head judge decided.  tournament_load() checks
 * it against the format and the rulings of TOURNAMENT.md (cited "T<n>")
 * and keeps it as flat arrays that the computing modules read
 * (tourint.h): players with a bitmask of the rounds they may be paired in,
 * rounds with their pairings, judges' results pointing at their pairing.
 * A file is refused with one sentence naming the path at fault; what breaks
 * a tournament rule but not the format is left to tournament_results() as
 * an alarm.
 *
 * Why here, apart from the computing: this is the one module of the
 * tournament code that parses text (jansson, which pulls in stdio) and the
 * one that may take randomness from the system (T27: a made seed, which
 * tournament_seed() reports so that the caller prints it and warns).  It
 * reads no file, store or socket; the caller gives it the file's text.
 * Results, standings, pairing, the draw stream and the outputs are pure
 * and are checked so by tests/e2e_purity.sh.
 *
 * How: the jansson tree is kept alive, so every string handed out is the
 * tree's.  Players are sorted once by id (by_id, rank) for the binary
 * searches and T27's draws; each round's tables are sorted for lookup; the
 * judges' results are sorted by (round, pairing).  The invariants the other
 * modules rely on are listed in tourint.h.
 */
#include <jansson.h>
#include <limits.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourint.h"
#include "src/tournament/tournament.h"
#include "verifiers/verifier.h"   /* the formats: their engines' tournament facts */

/* ---- data: the structure tables, in one place ---------------------------- */

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

/* ---- small helpers -------------------------------------------------------- */

int tour_vsay(char *buf, size_t n, const char *fmt, va_list ap)
{
    if (!buf || !n)
        return 0;
    return vsnprintf(buf, n, fmt, ap);
}

int tour_say(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = tour_vsay(buf, n, fmt, ap);
    va_end(ap);
    return k;
}

void tour_copy_str(char *dst, size_t n, const char *src)
{
    tour_say(dst, n, "%s", src ? src : "");
}

/* Rounds a..b (inclusive, clamped to 1..64) as a mask. */
static uint64_t round_range(uint32_t a, uint32_t b)
{
    uint64_t m = 0;
    for (uint32_t r = a < 1 ? 1 : a; r <= b && r <= TOUR_ROUNDS_MAX; r++)
        m |= tour_round_bit(r);
    return m;
}

typedef struct {
    tournament *t;
    char *err;
    size_t errlen;
    const verifier_ops *ops;    /* the format's engine: its base (T4, T5)      */
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
        round1 += tour_active_in(c->t, (int)p, 1);
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
    st->elimination_rounds = tour_log2_ceil(st->cut);
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
    int elim = tour_is_elimination(c->t, round), present, rc = want_object(c, o, base);
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
    if (n > tour_total_rounds(c->t))
        return refuse(c, "\"%s.round\" is past the structure's %u rounds.", base, tour_total_rounds(c->t));
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
    const tround *rd = tour_round_of(c->t, (uint32_t)r);
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

const tjudge *tour_judge_for(const tournament *t, uint32_t round, size_t pairing)
{
    tjudge key = {.round = round, .pairing = pairing};
    return t->njudges ? bsearch(&key, t->judges, t->njudges, sizeof key, cmp_judge) : NULL;
}

/* ---- loading: the top level ----------------------------------------------- */

static int load_rules(loader *c, json_t *root)
{
    tournament *t = c->t;
    json_t *rules = json_object_get(root, "rules");
    t->base = c->ops->score_base;
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
    const char *lever = c->ops->score_base_lever;
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
        c->ops = ops;
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
            if ((a & tour_round_bit(r)) && !(a & tour_round_bit(r - 1)))
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
    loader c = {.t = NULL, .err = err, .errlen = errlen};
    json_error_t jerr;
    int rc;
    *out = NULL;
    tour_say(err, errlen, "%s", "");
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
    tour_copy_str(t->seed, sizeof t->seed, seed);
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

/* T27: the round's own seed, else the tournament's. */
const char *tour_round_seed(const tournament *t, uint32_t r, int results, int *made)
{
    const tround *rd = tour_round_of(t, r);
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
    return tour_round_of(t, r) ? tour_round_of(t, r)->started : 0;
}
uint64_t tournament_round_ends(const tournament *t, uint32_t r)
{
    uint64_t start = tournament_round_started(t, r);

    return start && t->round_minutes ? start + (uint64_t)t->round_minutes * 60000 : 0;
}
int tournament_round_closed(const tournament *t, uint32_t r)
{
    return tour_round_of(t, r) ? tour_round_of(t, r)->closed : 0;
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
