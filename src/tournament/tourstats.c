/* tourstats.c -- a tournament's statistics (tourstats.h, TOURNAMENT.md T46).
 *
 * What: the figures an organiser publishes after a round, or shows on the
 * hall's screen during one -- which cards and classes were shown and how
 * they fared, which rules were broken most often, how long games ran, and
 * where each table of the round stands -- and, for judges (or when the
 * file allows it), the classes of the decklists.
 *
 * Why here and pure: the figures must be the same from every view and
 * every source (log files, the store, the daemon), so they are computed
 * from facts the caller gathered while judging each record (src/tournament/tourrec.c:
 * the cards the PUBLIC view of each event shows, src/core/view.h) and from the
 * results src/tournament/tourresult.c gave; nothing here can see a hidden card, since
 * nothing hidden is ever handed to it.  Decklists are the one figure a
 * view decides, and tourstats_new() leaves them out unless allowed.
 *
 * How: one scope per format and round, plus one per format for all rounds
 * (or only round R when asked).  A record's players' outcomes come from
 * the result whose match is that record (a record with no such result has
 * no result, but still counts).  For each scope the shown cards of its
 * records become one entry per (player-game, card), sorted by card id and
 * merged; classes and verdicts are added up the same way.  The progress of
 * a round reads the round's results, their records and the open alarms.
 * Everything is O(S * N + N log N) for S scopes and N records.
 */
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourint.h"   /* tour_say: no stdio here */
#include "src/tournament/tourout.h"
#include "src/tournament/tourstats.h"

const char *const tourstats_tables[] = {"cards", "classes", "rules", "length", "progress", "decklists", NULL};

static const char *const class_names[TOURSTATS_CLASSES] = {"coreon", "fluxion", "synaphera", "obscura", "aetherion"};
static const char *const verdict_names[TOURSTATS_VERDICTS] = {"illegal", "mismatch", "warning", "stood",
                                                                "backed_up"};
static const char *const state_names[] = {"no_record", "in_progress", "finished", "at_time", "alarm"};

const char *tourstats_verdict_name(tourstats_verdict v)
{
    return (unsigned)v < TOURSTATS_VERDICTS ? verdict_names[v] : "?";
}

const char *tourstats_state_name(tourstats_state s)
{
    return (unsigned)s <= TOURSTATS_ALARM ? state_names[s] : "?";
}

const char *tourstats_class_name(int cls)
{
    return cls >= 0 && cls < TOURSTATS_CLASSES ? class_names[cls] : "unknown";
}

/* ---- a record's players and their outcomes ---------------------------------- */

/* What one record is to the statistics. */
typedef struct {
    const tourstats_record *rec;
    const tour_result *res;        /* the result counting this record, or NULL */
    int side[2];                   /* res->player[side[k]] is the record's p(k+1) */
    int at_time;
} rec_info;

typedef struct {
    const char *match;
    const tour_result *res;
} by_match;

static int cmp_by_match(const void *a, const void *b)
{
    return strcmp(((const by_match *)a)->match, ((const by_match *)b)->match);
}

/* Whether the record's player k (0, 1) won, and whether that game has a
 * result for them (a draw win is a draw, T46). */
static void outcome_of(const rec_info *ri, int k, int *won, int *has)
{
    tour_outcome x = ri->res && ri->side[k] >= 0 ? ri->res->outcome[ri->side[k]] : TOUR_PENDING;

    *won = x == TOUR_WIN;
    *has = x == TOUR_WIN || x == TOUR_LOSS || x == TOUR_DRAW_WIN || x == TOUR_DRAW_LOSS || x == TOUR_DOUBLE_LOSS;
}

static int player_is(const tournament *t, int idx, const char *id)
{
    const tour_player *p = idx >= 0 ? tournament_player(t, (size_t)idx) : NULL;
    return p && id && !strcmp(p->id, id);
}

/* The records of t, each with its result.  0 or TOUR_ENOMEM. */
static int gather(const tournament *t, const tour_results *r, const tourstats_record *recs, size_t n,
                  rec_info **out, size_t *n_out)
{
    by_match *idx = NULL;
    size_t ni = 0, k = 0;
    rec_info *ri = calloc(n ? n : 1, sizeof *ri);

    if (!ri || !(idx = calloc(r->n_results ? r->n_results : 1, sizeof *idx))) {
        free(ri);
        return TOUR_ENOMEM;
    }
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].match[0])
            idx[ni++] = (by_match){r->results[i].match, &r->results[i]};
    qsort(idx, ni, sizeof *idx, cmp_by_match);
    for (size_t i = 0; i < n; i++) {
        const tour_game *g = recs[i].g;
        if (!g || !g->tournament || strcmp(g->tournament, tournament_id(t)))
            continue;   /* T2: a record of another tournament */
        rec_info *x = &ri[k++];
        by_match key = {g->match ? g->match : "", NULL};
        const by_match *hit = ni ? bsearch(&key, idx, ni, sizeof *idx, cmp_by_match) : NULL;
        x->rec = &recs[i];
        x->res = hit ? hit->res : NULL;
        for (int s = 0; s < 2; s++) {
            const char *id = s ? g->p2 : g->p1;
            x->side[s] = x->res && player_is(t, x->res->player[0], id) ? 0
                       : x->res && player_is(t, x->res->player[1], id) ? 1 : -1;
        }
        x->at_time = x->res && x->res->by == TOUR_BY_TIME;
    }
    free(idx);
    *out = ri;
    *n_out = k;
    return 0;
}

/* ---- one scope ------------------------------------------------------------------ */

typedef struct {
    const char *card;
    int cls;
    uint32_t times;
    int won, has;
} shown_entry;

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const shown_entry *)a)->card, ((const shown_entry *)b)->card);
}

static int cmp_count(const void *a, const void *b)
{
    const tourstats_count *x = a, *y = b;
    if (x->games != y->games)
        return x->games > y->games ? -1 : 1;
    if (x->appearances != y->appearances)
        return x->appearances > y->appearances ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int in_scope(const rec_info *ri, const tourstats_scope *sc)
{
    const tour_game *g = ri->rec->g;
    return !strcmp(g->format ? g->format : "", sc->format) && (!sc->round || g->round == sc->round);
}

static void length_add(tourstats_length *l, uint64_t events, uint64_t rounds)
{
    if (!l->games || events < l->events_min)
        l->events_min = events;
    if (!l->games || rounds < l->rounds_min)
        l->rounds_min = rounds;
    l->events_max = events > l->events_max ? events : l->events_max;
    l->rounds_max = rounds > l->rounds_max ? rounds : l->rounds_max;
    l->events_total += events;
    l->rounds_total += rounds;
    l->games++;
}

/* Cards and classes of a scope.  0 or TOUR_ENOMEM. */
static int scope_cards(tourstats_scope *sc, const rec_info *ri, size_t n)
{
    size_t total = 0, m = 0;
    shown_entry *e;

    for (size_t i = 0; i < n; i++)
        if (in_scope(&ri[i], sc))
            total += ri[i].rec->n_shown[0] + ri[i].rec->n_shown[1];
    if (!(e = calloc(total ? total : 1, sizeof *e)))
        return TOUR_ENOMEM;
    for (int c = 0; c < TOURSTATS_CLASSES; c++)
        sc->classes[c] = (tourstats_count){class_names[c], c, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        if (!in_scope(&ri[i], sc))
            continue;
        for (int k = 0; k < 2; k++) {
            int won, has, seen[TOURSTATS_CLASSES] = {0};
            outcome_of(&ri[i], k, &won, &has);
            for (size_t j = 0; j < ri[i].rec->n_shown[k]; j++) {
                const tourstats_card *c = &ri[i].rec->shown[k][j];
                e[m++] = (shown_entry){c->card, c->cls, c->times, won, has};
                if (c->cls < 0 || c->cls >= TOURSTATS_CLASSES)
                    continue;
                tourstats_count *cc = &sc->classes[c->cls];
                cc->appearances += c->times;
                if (!seen[c->cls]++) {
                    cc->games++;
                    cc->wins += (uint64_t)won;
                    cc->results += (uint64_t)has;
                }
            }
        }
    }
    qsort(e, m, sizeof *e, cmp_entry);
    if (!(sc->cards = calloc(m ? m : 1, sizeof *sc->cards))) {
        free(e);
        return TOUR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        if (!sc->n_cards || strcmp(sc->cards[sc->n_cards - 1].name, e[i].card))
            sc->cards[sc->n_cards++] = (tourstats_count){e[i].card, e[i].cls, 0, 0, 0, 0};
        tourstats_count *c = &sc->cards[sc->n_cards - 1];
        c->games++;
        c->appearances += e[i].times;
        c->wins += (uint64_t)e[i].won;
        c->results += (uint64_t)e[i].has;
    }
    qsort(sc->cards, sc->n_cards, sizeof *sc->cards, cmp_count);
    free(e);
    return 0;
}

typedef struct {
    tourstats_verdict verdict;
    const char *rule, *match;
    uint32_t count;
} rule_entry;

static int cmp_rule_entry(const void *a, const void *b)
{
    const rule_entry *x = a, *y = b;
    int c = strcmp(x->rule, y->rule);
    if (x->verdict != y->verdict)
        return x->verdict < y->verdict ? -1 : 1;
    return c ? c : strcmp(x->match, y->match);
}

static int cmp_rule_row(const void *a, const void *b)
{
    const tourstats_rule_row *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->verdict != y->verdict)
        return x->verdict < y->verdict ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

/* The rules broken of a scope, and its game lengths.  0 or TOUR_ENOMEM. */
static int scope_rules(tourstats_scope *sc, const rec_info *ri, size_t n)
{
    size_t total = 0, m = 0;
    rule_entry *e;
    const char **matches;

    for (size_t i = 0; i < n; i++)
        if (in_scope(&ri[i], sc))
            total += ri[i].rec->n_rules;
    e = calloc(total ? total : 1, sizeof *e);
    matches = calloc(total ? total : 1, sizeof *matches);
    sc->rules = calloc(total ? total : 1, sizeof *sc->rules);
    if (!e || !matches || !sc->rules) {
        free(e);
        free(matches);
        return TOUR_ENOMEM;   /* sc->rules is freed with the scope */
    }
    for (size_t i = 0; i < n; i++) {
        const tourstats_record *rec = ri[i].rec;
        if (!in_scope(&ri[i], sc))
            continue;
        sc->records++;
        if (rec->g->finished)
            length_add(&sc->finished, rec->events, rec->g->rounds);
        else if (ri[i].at_time)
            length_add(&sc->at_time, rec->events, rec->g->rounds);
        for (size_t j = 0; j < rec->n_rules; j++)
            e[m++] = (rule_entry){rec->rules[j].verdict, rec->rules[j].rule ? rec->rules[j].rule : "",
                                  rec->g->match ? rec->g->match : "", rec->rules[j].count};
    }
    qsort(e, m, sizeof *e, cmp_rule_entry);
    for (size_t i = 0; i < m; i++) {
        tourstats_rule_row *w = sc->n_rules ? &sc->rules[sc->n_rules - 1] : NULL;
        if (!w || w->verdict != e[i].verdict || strcmp(w->rule, e[i].rule)) {
            w = &sc->rules[sc->n_rules++];
            *w = (tourstats_rule_row){e[i].verdict, e[i].rule, 0, matches + i, 0};
        }
        w->count += e[i].count;
        if (!w->n_matches || strcmp(w->matches[w->n_matches - 1], e[i].match))
            w->matches[w->n_matches++] = e[i].match;
    }
    qsort(sc->rules, sc->n_rules, sizeof *sc->rules, cmp_rule_row);
    sc->matches_block = matches;   /* rules[k].matches point into it */
    free(e);
    return 0;
}

/* ---- the scopes: per format, all rounds then each round -------------------------- */

static int cmp_scope(const void *a, const void *b)
{
    const tourstats_scope *x = a, *y = b;
    int c = strcmp(x->format, y->format);
    return c ? c : x->round < y->round ? -1 : x->round > y->round;
}

/* Adds (format, round) unless there.  0 or TOUR_ENOMEM. */
static int add_scope(tourstats *s, size_t *cap, const char *format, uint32_t round)
{
    for (size_t i = 0; i < s->n_scopes; i++)
        if (s->scopes[i].round == round && !strcmp(s->scopes[i].format, format))
            return 0;
    if (s->n_scopes == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        tourstats_scope *x = realloc(s->scopes, nc * sizeof *x);
        if (!x)
            return TOUR_ENOMEM;
        s->scopes = x;
        *cap = nc;
    }
    memset(&s->scopes[s->n_scopes], 0, sizeof s->scopes[0]);
    s->scopes[s->n_scopes].format = format;
    s->scopes[s->n_scopes++].round = round;
    return 0;
}

static int make_scopes(tourstats *s, const rec_info *ri, size_t n)
{
    const char *own = tournament_format_name(s->t);
    size_t cap = 0;
    int rc = add_scope(s, &cap, own, s->round);

    for (size_t i = 0; i < n && !rc; i++) {
        const tour_game *g = ri[i].rec->g;
        const char *f = g->format ? g->format : "";
        if (s->round && g->round != s->round)
            continue;
        rc = add_scope(s, &cap, f, s->round);
        if (!rc && !s->round && g->round)
            rc = add_scope(s, &cap, f, g->round);
    }
    if (rc)
        return rc;
    /* the event's format first, then the others by name; total, then rounds */
    qsort(s->scopes, s->n_scopes, sizeof *s->scopes, cmp_scope);
    size_t a = 0, b;
    while (strcmp(s->scopes[a].format, own))
        a++;
    for (b = a; b < s->n_scopes && !strcmp(s->scopes[b].format, own); b++)
        ;
    tourstats_scope *tmp = malloc(a ? a * sizeof *tmp : 1);
    if (!tmp)
        return TOUR_ENOMEM;
    memcpy(tmp, s->scopes, a * sizeof *tmp);
    memmove(s->scopes, s->scopes + a, (b - a) * sizeof *tmp);
    memcpy(s->scopes + (b - a), tmp, a * sizeof *tmp);
    free(tmp);
    for (size_t i = 0; i < s->n_scopes && !rc; i++) {
        rc = scope_cards(&s->scopes[i], ri, n);
        if (!rc)
            rc = scope_rules(&s->scopes[i], ri, n);
    }
    return rc;
}

/* ---- live progress of a round, and decklists ------------------------------------- */

static const rec_info *record_of(const tour_result *x, const rec_info *ri, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const tour_game *g = ri[i].rec->g;
        if (x->match[0] ? g->match && !strcmp(g->match, x->match)
                        : g->round == x->round && g->table && x->table && !strcmp(g->table, x->table))
            return &ri[i];
    }
    return NULL;
}

static int make_progress(tourstats *s, const tour_results *r, const rec_info *ri, size_t n)
{
    s->progress_round = s->round ? s->round : tournament_rounds_published(s->t);
    if (!(s->progress = calloc(r->n_results ? r->n_results : 1, sizeof *s->progress)))
        return TOUR_ENOMEM;
    for (size_t i = 0; i < r->n_results; i++) {
        const tour_result *x = &r->results[i];
        if (x->round != s->progress_round || x->player[1] < 0 || x->outcome[0] == TOUR_INTENTIONAL_DRAW ||
            x->outcome[0] == TOUR_BYE || x->outcome[1] == TOUR_BYE)
            continue;   /* T46: byes and intentional draws are not games */
        tourstats_progress *p = &s->progress[s->n_progress++];
        const rec_info *rec = record_of(x, ri, n);
        p->round = x->round;
        p->table = x->table;
        p->player[0] = x->player[0];
        p->player[1] = x->player[1];
        p->match = rec && rec->rec->g->match ? rec->rec->g->match : "";
        for (size_t k = 0; k < r->n_alarms; k++) {
            const tour_alarm *a = &r->alarms[k];
            size_t seen = 0;
            while (seen < p->n_alarms && strcmp(p->alarms[seen], a->kind))
                seen++;
            if (!a->resolved && a->round == x->round && x->table && !strcmp(a->table, x->table) &&
                seen == p->n_alarms && p->n_alarms < sizeof p->alarms / sizeof p->alarms[0])
                p->alarms[p->n_alarms++] = a->kind;
        }
        if (rec && !rec->rec->g->finished)
            p->game_round = rec->rec->g->rounds ? rec->rec->g->rounds : 1;
        p->state = p->n_alarms ? TOURSTATS_ALARM : x->by == TOUR_BY_TIME ? TOURSTATS_AT_TIME
                 : x->outcome[0] != TOUR_PENDING ? TOURSTATS_FINISHED
                 : rec ? TOURSTATS_IN_PROGRESS : TOURSTATS_NO_RECORD;
        if (p->state != TOURSTATS_IN_PROGRESS)
            p->game_round = 0;
    }
    return 0;
}

static void deck_totals(tourstats_deck *d)
{
    d->cards = d->unknown;
    for (int c = 0; c < TOURSTATS_CLASSES; c++)
        d->cards += d->classes[c];
}

static int make_decks(tourstats *s, const tourstats_opts *o, const rec_info *ri, size_t n)
{
    size_t np = tournament_player_count(s->t);

    if (!s->decklists_shown)
        return 0;
    if (!(s->decks = calloc(np + 2 * n + 1, sizeof *s->decks)))
        return TOUR_ENOMEM;
    for (size_t i = 0; i < np && o->registered_has && o->registered; i++) {
        if (!o->registered_has[i])
            continue;
        tourstats_deck *d = &s->decks[s->n_decks++];
        d->player = tournament_player(s->t, i)->id;
        d->match = "";
        memcpy(d->classes, o->registered[i], sizeof d->classes);
        deck_totals(d);
    }
    for (size_t i = 0; i < n; i++) {
        const tourstats_record *rec = ri[i].rec;
        if (s->round && rec->g->round != s->round)
            continue;
        for (int k = 0; k < 2; k++) {
            if (!rec->has_deck[k])
                continue;
            tourstats_deck *d = &s->decks[s->n_decks++];
            d->player = k ? rec->g->p2 : rec->g->p1;
            d->played = 1;
            d->round = rec->g->round;
            d->match = rec->g->match ? rec->g->match : "";
            memcpy(d->classes, rec->deck[k], sizeof d->classes);
            d->unknown = rec->deck_unknown[k];
            deck_totals(d);
        }
    }
    return 0;
}

int tourstats_new(const tournament *t, const tour_results *r, const tourstats_record *recs, size_t n,
                  const tourstats_opts *opts, tourstats **out)
{
    static const tourstats_opts none;
    const tourstats_opts *o = opts ? opts : &none;
    rec_info *ri = NULL;
    size_t nr = 0;
    tourstats *s = calloc(1, sizeof *s);
    int rc = TOUR_ENOMEM;

    *out = NULL;
    if (!s)
        return TOUR_ENOMEM;
    s->t = t;
    s->judge_view = o->judge_view;
    s->decklists_shown = o->judge_view || tournament_decklists_public(t);
    s->round = o->round;
    if ((rc = gather(t, r, recs, n, &ri, &nr)) || (rc = make_scopes(s, ri, nr)) ||
        (rc = make_progress(s, r, ri, nr)) || (rc = make_decks(s, o, ri, nr)))
        goto done;
    *out = s;
    s = NULL;
done:
    free(ri);
    tourstats_destroy(&s);
    return rc;
}

void tourstats_destroy(tourstats **sp)
{
    tourstats *s = sp ? *sp : NULL;

    if (!s)
        return;
    for (size_t i = 0; i < s->n_scopes; i++) {
        free(s->scopes[i].cards);
        free(s->scopes[i].rules);
        free(s->scopes[i].matches_block);
    }
    free(s->scopes);
    free(s->progress);
    free(s->decks);
    free(s);
    *sp = NULL;
}

/* ---- output ------------------------------------------------------------------------ */

static void put_cstr(jtext *o, const char *s)
{
    jtext_raw(o, s, strlen(s));
}

/* num/den with `places` decimals (1 or 3), rounded half up, as text; ""
 * when den is 0. */
static void ratio_text(char *buf, size_t cap, uint64_t num, uint64_t den, int places)
{
    uint64_t scale = places == 3 ? 1000 : 10, v;

    buf[0] = '\0';
    if (!den)
        return;
    v = (num * scale + den / 2) / den;
    tour_say(buf, cap, places == 3 ? "%llu.%03llu" : "%llu.%01llu", (unsigned long long)(v / scale),
             (unsigned long long)(v % scale));
}

static void json_ratio(jtext *o, uint64_t num, uint64_t den, int places)
{
    char buf[48];
    ratio_text(buf, sizeof buf, num, den, places);
    if (buf[0])
        jtext_raw(o, buf, strlen(buf));
    else
        jtext_lit(o, "null");
}

static void json_round(jtext *o, uint32_t round)
{
    if (round)
        jtext_int(o, round);
    else
        jtext_lit(o, "null");
}

static const char *pid(const tournament *t, int i)
{
    const tour_player *p = i >= 0 ? tournament_player(t, (size_t)i) : NULL;
    return p ? p->id : "";
}

static void json_count(jtext *o, const tourstats_count *c, int card)
{
    if (card) {
        jtext_lit(o, "{\"card\":");
        jtext_str(o, c->name);
        jtext_lit(o, ",\"class\":");
    } else {
        jtext_lit(o, "{\"class\":");
    }
    jtext_str(o, tourstats_class_name(c->cls));
    jtext_member_int(o, ",\"games\":", (long long)c->games);
    jtext_member_int(o, ",\"appearances\":", (long long)c->appearances);
    jtext_member_int(o, ",\"wins\":", (long long)c->wins);
    jtext_member_int(o, ",\"results\":", (long long)c->results);
    jtext_lit(o, ",\"win_rate\":");
    json_ratio(o, c->wins, c->results, 3);
    jtext_lit(o, "}");
}

static void json_length(jtext *o, const tourstats_length *l)
{
    jtext_member_int(o, "{\"games\":", (long long)l->games);
    jtext_member_int(o, ",\"events_min\":", (long long)l->events_min);
    jtext_member_int(o, ",\"events_max\":", (long long)l->events_max);
    jtext_lit(o, ",\"events_mean\":");
    json_ratio(o, l->events_total, l->games, 1);
    jtext_member_int(o, ",\"rounds_min\":", (long long)l->rounds_min);
    jtext_member_int(o, ",\"rounds_max\":", (long long)l->rounds_max);
    jtext_lit(o, ",\"rounds_mean\":");
    json_ratio(o, l->rounds_total, l->games, 1);
    jtext_lit(o, "}");
}

static void json_scope(jtext *o, const tourstats_scope *sc)
{
    jtext_lit(o, "{\"format\":");
    jtext_str(o, sc->format);
    jtext_lit(o, ",\"round\":");
    json_round(o, sc->round);
    jtext_member_int(o, ",\"records\":", (long long)sc->records);
    jtext_lit(o, ",\"cards\":[");
    for (size_t i = 0; i < sc->n_cards; i++) {
        if (i)
            jtext_lit(o, ",");
        json_count(o, &sc->cards[i], 1);
    }
    jtext_lit(o, "],\"classes\":[");
    for (int c = 0; c < TOURSTATS_CLASSES; c++) {
        if (c)
            jtext_lit(o, ",");
        json_count(o, &sc->classes[c], 0);
    }
    jtext_lit(o, "],\"rules\":[");
    for (size_t i = 0; i < sc->n_rules; i++) {
        const tourstats_rule_row *w = &sc->rules[i];
        put_cstr(o, i ? ",{\"verdict\":" : "{\"verdict\":");
        jtext_str(o, tourstats_verdict_name(w->verdict));
        jtext_lit(o, ",\"rule\":");
        jtext_str(o, w->rule);
        jtext_member_int(o, ",\"count\":", (long long)w->count);
        jtext_lit(o, ",\"matches\":[");
        for (size_t k = 0; k < w->n_matches; k++) {
            if (k)
                jtext_lit(o, ",");
            jtext_str(o, w->matches[k]);
        }
        jtext_lit(o, "]}");
    }
    jtext_lit(o, "],\"length\":{\"finished\":");
    json_length(o, &sc->finished);
    jtext_lit(o, ",\"at_time\":");
    json_length(o, &sc->at_time);
    jtext_lit(o, "}}");
}

static void json_progress(jtext *o, const tourstats *s)
{
    uint32_t minutes = tournament_round_minutes(s->t);

    jtext_lit(o, "{\"round\":");
    json_round(o, s->progress_round);
    jtext_lit(o, ",\"round_minutes\":");
    json_round(o, minutes);
    jtext_lit(o, ",\"pairings\":[");
    for (size_t i = 0; i < s->n_progress; i++) {
        const tourstats_progress *p = &s->progress[i];
        put_cstr(o, i ? ",{\"table\":" : "{\"table\":");
        jtext_str(o, p->table ? p->table : "");
        jtext_lit(o, ",\"p1\":");
        jtext_str(o, pid(s->t, p->player[0]));
        jtext_lit(o, ",\"p2\":");
        jtext_str(o, pid(s->t, p->player[1]));
        jtext_lit(o, ",\"state\":");
        jtext_str(o, tourstats_state_name(p->state));
        jtext_lit(o, ",\"game_round\":");
        json_round(o, p->game_round);
        jtext_lit(o, ",\"match\":");
        jtext_str_if(o, p->match[0] != '\0', p->match);
        jtext_lit(o, ",\"alarms\":[");
        for (size_t k = 0; k < p->n_alarms; k++) {
            if (k)
                jtext_lit(o, ",");
            jtext_str(o, p->alarms[k]);
        }
        jtext_lit(o, "]}");
    }
    jtext_lit(o, "]}");
}

static void json_decks(jtext *o, const tourstats *s)
{
    if (!s->decklists_shown) {
        jtext_lit(o, "null");
        return;
    }
    jtext_lit(o, "[");
    for (size_t i = 0; i < s->n_decks; i++) {
        const tourstats_deck *d = &s->decks[i];
        put_cstr(o, i ? ",{\"player\":" : "{\"player\":");
        jtext_str(o, d->player ? d->player : "");
        put_cstr(o, d->played ? ",\"source\":\"played\",\"round\":" : ",\"source\":\"registered\",\"round\":");
        json_round(o, d->round);
        jtext_lit(o, ",\"match\":");
        jtext_str_if(o, d->match[0] != '\0', d->match);
        jtext_member_int(o, ",\"cards\":", d->cards);
        jtext_lit(o, ",\"classes\":{");
        for (int c = 0; c < TOURSTATS_CLASSES; c++) {
            put_cstr(o, c ? ",\"" : "\"");
            jtext_raw(o, class_names[c], strlen(class_names[c]));
            jtext_member_int(o, "\":", d->classes[c]);
        }
        jtext_member_int(o, "},\"unknown\":", d->unknown);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]");
}

int tourstats_json(const tourstats *s, jtext *o)
{
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, tournament_id(s->t));
    put_cstr(o, s->judge_view ? ",\"view\":\"judge\",\"round\":" : ",\"view\":\"public\",\"round\":");
    json_round(o, s->round);
    jtext_lit(o, ",\"decklists_shown\":");
    jtext_bool(o, s->decklists_shown);
    jtext_lit(o, ",\"scopes\":[");
    for (size_t i = 0; i < s->n_scopes; i++) {
        if (i)
            jtext_lit(o, ",");
        json_scope(o, &s->scopes[i]);
    }
    jtext_lit(o, "],\"progress\":");
    json_progress(o, s);
    jtext_lit(o, ",\"decklists\":");
    json_decks(o, s);
    jtext_lit(o, "}");
    return o->bad ? TOUR_ENOMEM : 0;
}

/* ---- CSV ----------------------------------------------------------------------------- */

#define csv_field tournament_csv_field
#define csv_int tournament_csv_int

static void csv_ratio(jtext *o, uint64_t num, uint64_t den, int places, int last)
{
    char buf[48];
    ratio_text(buf, sizeof buf, num, den, places);
    csv_field(o, buf, last);
}

/* format,round of a scope ("all" for every round). */
static void csv_scope(jtext *o, const tourstats_scope *sc)
{
    csv_field(o, sc->format, 0);
    if (sc->round)
        csv_int(o, sc->round, 0);
    else
        csv_field(o, "all", 0);
}

static void csv_count(jtext *o, const tourstats_scope *sc, const tourstats_count *c, int card)
{
    csv_scope(o, sc);
    if (card)
        csv_field(o, c->name, 0);
    csv_field(o, tourstats_class_name(c->cls), 0);
    csv_int(o, (long long)c->games, 0);
    csv_int(o, (long long)c->appearances, 0);
    csv_int(o, (long long)c->wins, 0);
    csv_int(o, (long long)c->results, 0);
    csv_ratio(o, c->wins, c->results, 3, 1);
}

static void csv_length(jtext *o, const tourstats_scope *sc, const char *kind, const tourstats_length *l)
{
    csv_scope(o, sc);
    csv_field(o, kind, 0);
    csv_int(o, (long long)l->games, 0);
    csv_int(o, (long long)l->events_min, 0);
    csv_int(o, (long long)l->events_max, 0);
    csv_ratio(o, l->events_total, l->games, 1, 0);
    csv_int(o, (long long)l->rounds_min, 0);
    csv_int(o, (long long)l->rounds_max, 0);
    csv_ratio(o, l->rounds_total, l->games, 1, 1);
}

/* Several ids in one field, separated by spaces. */
static void csv_list(jtext *o, const char *const *items, size_t n, int last)
{
    jtext t = {0};
    for (size_t i = 0; i < n; i++) {
        if (i)
            jtext_lit(&t, " ");
        jtext_raw(&t, items[i], strlen(items[i]));
    }
    if (t.bad)
        o->bad = 1;
    csv_field(o, t.len ? t.buf : "", last);
    jtext_free(&t);
}

static void csv_scopes(jtext *o, const tourstats *s, int table)
{
    for (size_t i = 0; i < s->n_scopes; i++) {
        const tourstats_scope *sc = &s->scopes[i];
        for (size_t k = 0; table == 0 && k < sc->n_cards; k++)
            csv_count(o, sc, &sc->cards[k], 1);
        for (int c = 0; table == 1 && c < TOURSTATS_CLASSES; c++)
            csv_count(o, sc, &sc->classes[c], 0);
        for (size_t k = 0; table == 2 && k < sc->n_rules; k++) {
            const tourstats_rule_row *w = &sc->rules[k];
            csv_scope(o, sc);
            csv_field(o, tourstats_verdict_name(w->verdict), 0);
            csv_field(o, w->rule, 0);
            csv_int(o, (long long)w->count, 0);
            csv_list(o, w->matches, w->n_matches, 1);
        }
        if (table == 3) {
            csv_length(o, sc, "finished", &sc->finished);
            csv_length(o, sc, "at_time", &sc->at_time);
        }
    }
}

int tourstats_is_table(const char *name)
{
    for (int k = 0; tourstats_tables[k]; k++)
        if (name && !strcmp(tourstats_tables[k], name))
            return 1;
    return 0;
}

int tourstats_csv(const tourstats *s, const char *table, jtext *o)
{
    static const char *const heads[] = {
        "format,round,card,class,games,appearances,wins,results,win_rate\r\n",
        "format,round,class,games,appearances,wins,results,win_rate\r\n",
        "format,round,verdict,rule,count,matches\r\n",
        "format,round,games_ended,games,events_min,events_max,events_mean,rounds_min,rounds_max,rounds_mean\r\n",
        "round,table,p1,p2,state,game_round,match,alarms,round_minutes\r\n",
        "player,source,round,match,cards,coreon,fluxion,synaphera,obscura,aetherion,unknown\r\n"};
    int k = 0;

    if (!tourstats_is_table(table))
        return TOUR_EINVAL;
    while (strcmp(tourstats_tables[k], table))
        k++;
    jtext_raw(o, heads[k], strlen(heads[k]));
    if (k < 4)
        csv_scopes(o, s, k);
    for (size_t i = 0; k == 4 && i < s->n_progress; i++) {
        const tourstats_progress *p = &s->progress[i];
        csv_int(o, p->round, 0);
        csv_field(o, p->table, 0);
        csv_field(o, pid(s->t, p->player[0]), 0);
        csv_field(o, pid(s->t, p->player[1]), 0);
        csv_field(o, tourstats_state_name(p->state), 0);
        if (p->game_round)
            csv_int(o, p->game_round, 0);
        else
            csv_field(o, "", 0);
        csv_field(o, p->match, 0);
        csv_list(o, p->alarms, p->n_alarms, 0);
        if (tournament_round_minutes(s->t))
            csv_int(o, tournament_round_minutes(s->t), 1);
        else
            csv_field(o, "", 1);
    }
    for (size_t i = 0; k == 5 && i < s->n_decks; i++) {
        const tourstats_deck *d = &s->decks[i];
        csv_field(o, d->player, 0);
        csv_field(o, d->played ? "played" : "registered", 0);
        if (d->round)
            csv_int(o, d->round, 0);
        else
            csv_field(o, "", 0);
        csv_field(o, d->match, 0);
        csv_int(o, d->cards, 0);
        for (int c = 0; c < TOURSTATS_CLASSES; c++)
            csv_int(o, d->classes[c], 0);
        csv_int(o, d->unknown, 1);
    }
    return o->bad ? TOUR_ENOMEM : 0;
}
