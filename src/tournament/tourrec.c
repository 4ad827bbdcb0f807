/* tourrec.c -- the records of a tournament, each judged again (tourrec.h).
 *
 * Moved here from src/cli/cmd_tournament.c unchanged in what it does, so that
 * the command and arbiterd's `standings` query judge records the same way:
 * their outputs are the same byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/core/carddb.h"
#include "src/core/verify.h"
#include "src/core/view.h"
#include "src/record/cardset.h"
#include "src/record/record.h"
#include "src/record/store.h"
#include "src/tournament/tournament.h"
#include "src/tournament/tourrec.h"
#include "src/tournament/tourstats.h"
#include "verifiers/deck.h"
#include "verifiers/verifier.h"

/* ---- one record, judged ------------------------------------------------------ */

/* A tour_game and the strings and marks it points at, owned here. */
struct tourrec_judged {
    tour_game g;
    char *match, *tournament, *table, *p1, *p2, *format, *cards, *rules_differ, *first_bad;
    tour_mark *marks;
    uint32_t marks_cap;
    /* T46, gathered when the set asks for statistics */
    tourstats_record st;
    tourstats_card *shown[2];
    size_t shown_cap[2];
    tourstats_rule *rules;
    size_t rules_cap;
};

typedef struct tourrec_judged judged;

static void judged_free(judged *j)
{
    free(j->match);
    free(j->tournament);
    free(j->table);
    free(j->p1);
    free(j->p2);
    free(j->format);
    free(j->cards);
    free(j->rules_differ);
    free(j->first_bad);
    free(j->marks);
    for (int p = 0; p < 2; p++) {
        for (size_t i = 0; i < j->st.n_shown[p]; i++)
            free((char *)j->shown[p][i].card);
        free(j->shown[p]);
    }
    for (size_t i = 0; i < j->st.n_rules; i++)
        free((char *)j->rules[i].rule);
    free(j->rules);
    memset(j, 0, sizeof *j);
}

/* strdup that keeps NULL; 0, or -1 out of memory. */
static int dup_str(char **dst, const char *s)
{
    *dst = NULL;
    if (!s)
        return 0;
    *dst = strdup(s);
    return *dst ? 0 : -1;
}

/* A sentence into a fixed buffer, cut to fit (a sentence of the module is
 * at most TOUR_TEXT_MAX bytes in any case). */
static void set_text(char *dst, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_text(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

/* What one pass over a record's events gathers besides the verdicts. */
typedef struct {
    const tournament *t;
    json_t *event_rules;        /* tournament_rules_json(), parsed       */
    judged *j;
    verify_session *sess;
    int have_header;            /* the header took seq 0                 */
    int refused;                /* its verdict was illegal: no game (T17) */
    int unreadable;             /* the log could not be read             */
    size_t items;               /* events and malformed lines read       */
    int any_time;               /* some stored event had a time          */
    int p2_end_last;            /* the last game event is Player 2's end */
    int claim_winner;
    char bad[TOUR_TEXT_MAX];    /* the first illegal-kind verdict         */
    char mismatch[TOUR_TEXT_MAX];
    int nomem;
    unsigned before_round;      /* where the session stood before the    */
    uint64_t before_seq;        /* event being judged                    */
    int stats;                  /* gather T46's facts                    */
    const cards *db;            /* the classes of the cards shown        */
    ol_lever facedown;          /* the header's bench_facedown lever, in */
    olevent hdr;                /* a header for view_event_json()        */
    char paused_rule[OL_RULE_MAX];   /* the rule of the illegal action the
                                        match is paused at (SPEC.md 8.1)  */
} judge_ctx;

/* T42: a decklist as the header's JSON object, hashed as the module does:
 * the lists of the format's deck shape (its engine's deck rules,
 * verifier_ops.deck; openlog.md 5), in the header's order.  A format
 * whose players bring no decklist has none to hash (*has stays 0). */
static int deck_hash(ol_format f, const ol_deck *d, uint8_t out[TOUR_HASH], int *has)
{
    const struct { const char *key; const ol_idlist *l; deck_shape shape; } lists[] = {
        {"monsters", &d->monsters, DECK_SHAPE_LINEUP}, {"supports", &d->supports, DECK_SHAPE_LINEUP},
        {"reserve", &d->reserve, DECK_SHAPE_LINEUP}, {"main", &d->main, DECK_SHAPE_MAIN}};
    const verifier_ops *ops = verifier_ops_of(f);
    const deck_format *shape = ops ? ops->deck : NULL;
    json_t *o = shape ? json_object() : NULL;
    char *text = NULL;
    size_t n_cards = 0;
    int rc = -1;

    *has = 0;
    if (!shape)
        return 0;
    for (size_t k = 0; o && k < sizeof lists / sizeof lists[0]; k++) {
        const ol_idlist *l = lists[k].l;
        if (lists[k].shape != shape->shape)
            continue;
        json_t *a = json_array();
        if (!a || json_object_set_new(o, lists[k].key, a))
            goto done;
        for (size_t i = 0; i < l->n; i++)
            if (json_array_append_new(a, json_string(l->ids[i])))
                goto done;
        n_cards += l->n;
    }
    if (!o || !(text = json_dumps(o, JSON_COMPACT)))
        goto done;
    rc = 0;
    if (n_cards) {
        int h = tournament_deck_hash(text, strlen(text), out);
        if (h == TOUR_ENOMEM)
            rc = -1;
        *has = h == 0;
    }
done:
    free(text);
    json_decref(o);
    return rc;
}

/* T43: the header's levers against the event's, each absent one at its
 * default; NULL into *out when they agree, else a sentence.  0 or -1. */
static int levers_differ(const judge_ctx *c, const ol_header *h, char **out)
{
    char text[TOUR_TEXT_MAX];
    size_t n_info = 0, k = 0;
    const ol_lever_info *info = ol_levers(&n_info);

    *out = NULL;
    text[0] = '\0';
    for (size_t i = 0; i < n_info; i++) {
        const ol_lever_info *l = &info[i];
        if (l->format != h->format || l->table)   /* how a table is run is not the game */
            continue;
        json_t *v = json_object_get(c->event_rules, l->name);
        uint64_t want = json_is_integer(v) ? (uint64_t)json_integer_value(v)
                      : json_is_boolean(v) ? (uint64_t)json_is_true(v) : l->dflt;
        uint64_t got = ol_header_lever(h, l->name, l->dflt);
        if (got == want || k >= sizeof text)
            continue;
        int w = snprintf(text + k, sizeof text - k, "%s%s %" PRIu64 " here, %" PRIu64 " in the event",
                         k ? "; " : "", l->name, got, want);
        if (w > 0)
            k += (size_t)w;
    }
    return text[0] && dup_str(out, text) ? -1 : 0;
}

/* ---- T46: what a record shows, for the statistics ------------------------------ */

static int class_of(const cards *db, const char *id)
{
    const card *k = db && id ? cards_find(db, id) : NULL;
    return k && (int)k->cls < TOURSTATS_CLASSES ? (int)k->cls : -1;
}

/* Grows a (ptr, n, cap) array of elements of size sz to hold one more.
 * 0 or -1. */
static int grow(void **ptr, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 16;
    void *x = realloc(*ptr, nc * sz);
    if (!x)
        return -1;
    *ptr = x;
    *cap = nc;
    return 0;
}

/* Card id shown once more by player p.  0 or -1. */
static int stats_card(judge_ctx *c, int p, const char *id)
{
    judged *j = c->j;
    size_t n = j->st.n_shown[p];

    for (size_t i = 0; i < n; i++)
        if (!strcmp(j->shown[p][i].card, id)) {
            j->shown[p][i].times++;
            return 0;
        }
    if (grow((void **)&j->shown[p], n, &j->shown_cap[p], sizeof *j->shown[p]))
        return -1;
    char *copy = strdup(id);
    if (!copy)
        return -1;
    j->shown[p][n] = (tourstats_card){copy, class_of(c->db, id), 1};
    j->st.n_shown[p] = n + 1;
    return 0;
}

static int stats_rule(judge_ctx *c, tourstats_verdict kind, const char *rule)
{
    judged *j = c->j;
    size_t n = j->st.n_rules;

    for (size_t i = 0; i < n; i++)
        if (j->rules[i].verdict == kind && !strcmp(j->rules[i].rule, rule)) {
            j->rules[i].count++;
            return 0;
        }
    if (grow((void **)&j->rules, n, &j->rules_cap, sizeof *j->rules))
        return -1;
    char *copy = strdup(rule);
    if (!copy)
        return -1;
    j->rules[n] = (tourstats_rule){kind, copy, 1};
    j->st.n_rules = n + 1;
    return 0;
}

/* T46: the header's decklists by class (read only where the log has them:
 * whether they are shown is the statistics' choice), and the header the
 * public view of the events needs (its bench_facedown lever). */
static void stats_header(judge_ctx *c, const ol_header *h)
{
    tourstats_record *st = &c->j->st;

    c->facedown = (ol_lever){"bench_facedown", ol_header_lever(h, "bench_facedown", 4)};
    c->hdr.type = OL_MATCH;
    c->hdr.header.format = h->format;
    c->hdr.header.rules = &c->facedown;
    c->hdr.header.n_rules = 1;
    c->hdr.header.has_rules = 1;
    for (int p = 0; p < 2; p++) {
        const ol_deck *d = &h->players[p].deck;
        const ol_idlist *lists[4] = {&d->monsters, &d->supports, &d->reserve, &d->main};
        memset(st->deck[p], 0, sizeof st->deck[p]);
        st->deck_unknown[p] = 0;
        for (int l = 0; l < 4; l++)
            for (size_t i = 0; i < lists[l]->n; i++) {
                int k = class_of(c->db, lists[l]->ids[i]);
                if (k < 0)
                    st->deck_unknown[p]++;
                else
                    st->deck[p][k]++;
            }
        st->has_deck[p] = d->monsters.n + d->supports.n + d->reserve.n + d->main.n > 0;
    }
}

/* Every card id the JSON of an event names under "card", "slots" or
 * "cards" (the three keys that hold cards, openlog.md 7): those the view
 * left as strings are those it shows. */
static int stats_json_cards(judge_ctx *c, int p, json_t *o)
{
    static const char *const keys[] = {"card", "slots", "cards"};

    for (size_t k = 0; k < 3; k++) {
        json_t *v = json_object_get(o, keys[k]), *x;
        size_t i;
        if (json_is_string(v) && stats_card(c, p, json_string_value(v)))
            return -1;
        json_array_foreach(v, i, x)
            if (json_is_string(x) && stats_card(c, p, json_string_value(x)))
                return -1;
    }
    return 0;
}

/* T46: one judged event: its verdict counted by rule, and, when the engine
 * applied it, the cards its PUBLIC view shows (src/core/view.h decides: the
 * figures are then the same from every view).  0 or -1. */
/* A verdict counted by rule, when it is illegal, a mismatch or a warning. */
static int stats_verdict(judge_ctx *c, const olverdict *v)
{
    const char *rule = v->rule[0] ? v->rule : ol_status_name(v->status);
    if (v->status != OL_V_ILLEGAL && v->status != OL_V_MISMATCH && v->status != OL_V_WARNING)
        return 0;
    return stats_rule(c, v->status == OL_V_ILLEGAL ? TOURSTATS_ILLEGAL : v->status == OL_V_MISMATCH
                         ? TOURSTATS_MISMATCH : TOURSTATS_WARNING, rule);
}

static int stats_event(judge_ctx *c, const olevent *ev, const olverdict *v, int applied)
{
    int p = ev->by == OL_BY_P1 ? 0 : ev->by == OL_BY_P2 ? 1 : -1, rc = stats_verdict(c, v);

    if (!rc && applied && p >= 0 && ev->type != OL_MATCH) {
        json_t *o = view_event_json(ev, VIEW_PUBLIC, &c->hdr);
        rc = !o || stats_json_cards(c, p, o) ? -1 : 0;
        json_decref(o);
    }
    return rc;
}

/* The header the judge accepted (or refused for an illegal deck). */
static int take_header(judge_ctx *c, const olevent *ev)
{
    judged *j = c->j;
    const ol_header *h = &ev->header;

    c->have_header = 1;
    if (dup_str(&j->match, ev->match) || dup_str(&j->tournament, h->tournament) ||
        dup_str(&j->table, h->table) || dup_str(&j->p1, h->players[0].id) ||
        dup_str(&j->p2, h->players[1].id) || dup_str(&j->format, ol_format_name(h->format)) ||
        dup_str(&j->cards, h->cards))
        return -1;
    j->g.round = h->has_round && h->round <= UINT32_MAX ? (uint32_t)h->round : 0;
    for (int p = 0; p < 2; p++)
        if (deck_hash(h->format, &h->players[p].deck, j->g.deck[p], &j->g.has_deck[p]))
            return -1;
    if (!strcmp(ol_format_name(h->format), tournament_format_name(c->t)) && levers_differ(c, h, &j->rules_differ))
        return -1;
    if (c->stats)
        stats_header(c, h);
    return 0;
}

/* marks[r-1] exists for game round r, new ones starting from the scores
 * as they stand.  0 or -1. */
static int mark_round(judge_ctx *c, uint32_t r, const int64_t now[2])
{
    judged *j = c->j;

    if (r > j->marks_cap) {
        uint32_t cap = j->marks_cap ? j->marks_cap : 8;
        while (cap < r)
            cap *= 2;
        tour_mark *m = realloc(j->marks, cap * sizeof *m);
        if (!m)
            return -1;
        j->marks = m;
        j->marks_cap = cap;
    }
    while (j->g.nmarks < r) {
        tour_mark *m = &j->marks[j->g.nmarks++];
        m->first_ms = 0;
        m->score[0] = now[0];
        m->score[1] = now[1];
    }
    return 0;
}

/* p1's and p2's scores: a tournament match is a duel (its header was
 * refused otherwise, TOURNAMENT.md). */
static void engine_score(const verifier *vf, int64_t s[2])
{
    int64_t all[OL_PLAYERS_MAX] = {0};
    if (vf)
        verifier_score(vf, all, NULL);
    s[0] = all[0];
    s[1] = all[1];
}

/* "#seq rule: sentence" of a verdict, as T17 names it. */
static void verdict_text(char *out, size_t cap, const olverdict *v)
{
    if (v->has_seq)
        set_text(out, cap, "#%" PRIu64 " %s: %s", v->seq, v->rule[0] ? v->rule : ol_status_name(v->status), v->msg);
    else
        set_text(out, cap, "%s: %s", v->rule[0] ? v->rule : ol_status_name(v->status), v->msg);
}

/* T46 at a table that pauses for a judge's remedy (SPEC.md 8.1): an
 * illegal action counted once more by its remedy -- "stood" or
 * "backed_up", under the action's rule -- and the later verdicts of the
 * held events counted as any verdict is.  0 or -1. */
static int stats_remedy(judge_ctx *c, const olevent *ev, const olverdict *v)
{
    size_t n = 0;
    uint64_t at = 0;
    const olverdict *later = verify_session_later(c->sess, &n);
    int rc = 0;

    if (ev->type == OL_JUDGE && v->status == OL_V_OK && !strcmp(v->rule, "openlog:remedy") && c->paused_rule[0])
        rc = stats_rule(c, ev->has_remedy && ev->remedy == OL_REMEDY_STANDS ? TOURSTATS_STOOD : TOURSTATS_BACKED_UP,
                        c->paused_rule);
    for (size_t i = 0; !rc && i < n; i++)
        rc = stats_verdict(c, &later[i]);
    /* the illegal action a pause (a new one, or the one after a remedy)
     * stands at: the verdict of that seq, the event's own or a later one */
    if (verify_session_paused(c->sess, &at)) {
        const olverdict *p = v->seq == at ? v : NULL;
        for (size_t i = 0; !p && i < n; i++)
            if (later[i].seq == at)
                p = &later[i];
        if (p)
            snprintf(c->paused_rule, sizeof c->paused_rule, "%s", p->rule);
    } else {
        c->paused_rule[0] = '\0';
    }
    return rc;
}

/* One event the codec accepted, with its time (0: none), as the session
 * judged it (e): what the record says gathered.  c->before_round and
 * c->before_seq are where the session stood before it.  0, or -1 out of
 * memory. */
static int judged_event(judge_ctx *c, const olevent *ev, const verify_entry *e, uint64_t time_ms)
{
    const verifier *vf;
    unsigned before_round = c->before_round;
    uint64_t before_seq = c->before_seq;
    uint32_t r = before_round ? before_round : 1;   /* T11: setup is game round 1 */
    int64_t now[2];

    c->items++;
    vf = verify_session_verifier(c->sess);
    c->before_round = vf ? verifier_round(vf) : 0;
    c->before_seq = verify_session_next_seq(c->sess);
    const olverdict *v = &e->v;
    int stored = verify_session_next_seq(c->sess) == before_seq + 1;
    int applied = stored && (v->status == OL_V_OK || v->status == OL_V_WARNING);

    if (c->stats && stats_event(c, ev, v, applied))
        return -1;
    if (c->stats && stats_remedy(c, ev, v))
        return -1;

    if (!verify_status_is_clean(v->status) && v->status != OL_V_MISMATCH && !c->bad[0])
        verdict_text(c->bad, sizeof c->bad, v);
    if (v->status == OL_V_MISMATCH && !c->mismatch[0])
        verdict_text(c->mismatch, sizeof c->mismatch, v);
    if (!stored)   /* a header no engine judges still says whose record it is */
        return !c->have_header && ev->type == OL_MATCH && ev->seq == 0 ? take_header(c, ev) : 0;
    if (before_seq == 0) {   /* the header took seq 0 */
        c->refused = v->status != OL_V_OK && v->status != OL_V_WARNING;
        return take_header(c, ev);
    }
    vf = verify_session_verifier(c->sess);
    engine_score(vf, now);
    if (time_ms) {
        c->any_time = 1;
        if (mark_round(c, r, now))
            return -1;
        if (!c->j->marks[r - 1].first_ms)
            c->j->marks[r - 1].first_ms = time_ms;
    }
    if (ev->type == OL_CLAIM && ev->has_winner && (applied || v->status == OL_V_MISMATCH))
        c->claim_winner = ev->winner == OL_P1 ? 1 : 2;
    if (applied && ev->type != OL_CLAIM && ev->type != OL_JUDGE) {
        c->p2_end_last = ev->type == OL_END && ev->by == OL_BY_P2;
        if (c->p2_end_last) {   /* T11: the game round ends; its scores */
            if (mark_round(c, r, now))
                return -1;
            c->j->marks[r - 1].score[0] = now[0];
            c->j->marks[r - 1].score[1] = now[1];
        }
    }
    return 0;
}

/* One event of a log file the codec accepted, judged here. */
static int judge_event(judge_ctx *c, const olevent *ev, const char *raw, size_t len, uint64_t time_ms)
{
    const verify_entry *e = NULL;
    if (verify_session_event(c->sess, ev, raw, len, &e) != VERIFY_OK || !e)
        return -1;
    return judged_event(c, ev, e, time_ms);
}

/* The end of the record: the engine's outcome into the tour_game. */
static int judge_end(judge_ctx *c)
{
    judged *j = c->j;
    tour_game *g = &j->g;
    const verify_report *rep;
    const verifier *vf;
    const char *why = NULL;

    verify_session_end(c->sess);
    rep = verify_session_report(c->sess);
    vf = verify_session_verifier(c->sess);
    if (c->unreadable || rep->status == VERIFY_UNREADABLE) {
        g->status = TOUR_REC_UNREADABLE;
        why = c->bad[0] ? c->bad : rep->error;
    } else if (c->refused) {
        g->status = TOUR_REC_NO_GAME;
        why = c->bad;
    } else if (c->bad[0]) {
        g->status = TOUR_REC_ILLEGAL;
        why = c->bad;
    } else if (c->mismatch[0]) {
        g->status = TOUR_REC_MISMATCH;
        why = c->mismatch;
    } else {
        g->status = TOUR_REC_LEGAL;
    }
    if (why && why[0] && dup_str(&j->first_bad, why))
        return -1;
    g->finished = rep->finished;
    g->winner = rep->finished && rep->winner >= 0 ? rep->winner + 1 : 0;
    g->claim_winner = c->claim_winner;
    g->rounds = vf ? verifier_round(vf) : 0;
    g->ends_round = c->p2_end_last;
    engine_score(vf, g->score);
    if (c->any_time && g->nmarks) {
        /* the last game round's scores: the record's end (T12) */
        if (g->rounds > g->nmarks && mark_round(c, g->rounds, g->score))
            return -1;
        j->marks[g->nmarks - 1].score[0] = g->score[0];
        j->marks[g->nmarks - 1].score[1] = g->score[1];
        g->marks = j->marks;
    } else {
        g->nmarks = 0;
        g->marks = NULL;
    }
    g->match = j->match ? j->match : "";
    g->tournament = j->tournament;
    g->table = j->table;
    g->p1 = j->p1 ? j->p1 : "";
    g->p2 = j->p2 ? j->p2 : "";
    g->format = j->format;
    g->cards = j->cards;
    g->rules_differ = j->rules_differ;
    g->first_bad = j->first_bad;
    j->st.events = verify_session_next_seq(c->sess);   /* the rest: tourrec_stats() */
    return 0;
}

/* ---- the tournament file -------------------------------------------------------- */

int tourrec_load_file(const char *path, tournament **out, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    olerror oerr;
    int rc;

    *out = NULL;
    memset(&oerr, 0, sizeof oerr);
    rc = olstream_read_file(path, TOUR_FILE_MAX, &buf, &len, &oerr);
    if (rc == OL_ENOMEM)
        return TOURREC_ENOMEM;
    if (rc != OL_OK) {
        snprintf(err, errlen, "%s", oerr.msg[0] ? oerr.msg : strerror(errno));
        return TOURREC_EFILE;
    }
    rc = tournament_load(buf, len, out, err, errlen);
    free(buf);
    if (rc == TOUR_ENOMEM)
        return TOURREC_ENOMEM;
    if (rc) {
        if (!err[0])
            snprintf(err, errlen, "the tournament file is refused.");
        tournament_destroy(out);
        return TOURREC_EFILE;
    }
    return TOURREC_OK;
}

/* ---- reading records ---------------------------------------------------------- */

/* A new judged slot at the end of the set; NULL out of memory. */
static judged *set_push(tourrec_set *rs)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        judged *g = realloc(rs->games, cap * sizeof *g);
        if (!g)
            return NULL;
        rs->games = g;
        rs->cap = cap;
    }
    memset(&rs->games[rs->n], 0, sizeof rs->games[rs->n]);
    return &rs->games[rs->n++];
}

void tourrec_set_free(tourrec_set *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        judged_free(&rs->games[i]);
    free(rs->games);
    json_decref(rs->event_rules);
    memset(rs, 0, sizeof *rs);
}

static int ctx_start(judge_ctx *c, tourrec_set *rs, const cards *db, const char *name)
{
    memset(c, 0, sizeof *c);
    c->t = rs->t;
    c->event_rules = rs->event_rules;
    c->stats = rs->stats;
    c->db = db;
    if (!(c->j = set_push(rs)))
        return -1;
    return verify_session_new(db, name, &c->sess) == VERIFY_OK ? 0 : -1;
}

/* One log file, read event by event as `arbiter verify` reads it: a line
 * the codec refuses is malformed and takes no seq; a log that cannot be
 * opened or read, is empty, or whose first line is malformed is
 * unreadable.  0, 1 (no header: why says so), or -1 out of memory. */
int tourrec_judge_file(tourrec_set *rs, const cards *db, const char *path, char *why, size_t whylen)
{
    judge_ctx c;
    olreader *r = NULL;
    olerror err;
    int rc = -1, got;

    if (ctx_start(&c, rs, db, path))
        goto done;
    memset(&err, 0, sizeof err);
    got = olreader_open(path, strcmp(path, "-") ? -1 : (int)OL_ENC_JSON, &r, &err);
    if (got == OL_ENOMEM)
        goto done;
    if (got != OL_OK) {
        c.unreadable = 1;
        set_text(c.bad, sizeof c.bad, "%s", err.msg[0] ? err.msg : "The file cannot be read.");
    }
    while (r) {
        olevent *ev = NULL;
        const char *raw = NULL;
        size_t len = 0;
        err.msg[0] = err.key[0] = '\0';
        err.has_seq = 0;
        got = olreader_next(r, &ev, &raw, &len, &err);
        if (got == 1) {
            got = judge_event(&c, ev, raw, len, ev->has_t ? ev->t : 0) ? OL_ENOMEM : 1;
        } else if (got == OL_EMALFORMED) {
            if (!c.items) {
                c.unreadable = 1;
                set_text(c.bad, sizeof c.bad, "The header is malformed: %s", err.msg);
            } else if (!c.bad[0]) {
                if (err.has_seq)
                    set_text(c.bad, sizeof c.bad, "#%" PRIu64 " malformed: %s", err.seq, err.msg);
                else
                    set_text(c.bad, sizeof c.bad, "malformed: %s", err.msg);
            }
            c.items++;
        } else if (got == OL_EIO) {
            c.unreadable = 1;
            set_text(c.bad, sizeof c.bad, "%s", err.msg);
        }
        olreader_release(r, &ev);
        if (got == OL_ENOMEM)
            goto done;
        if (got == 0 || got == OL_EIO || c.unreadable)
            break;
    }
    if (!c.items && !c.unreadable) {
        c.unreadable = 1;
        set_text(c.bad, sizeof c.bad, "The log is empty: it has no header.");
    }
    if (judge_end(&c))
        goto done;
    rc = 0;
    if (!c.have_header) {   /* nothing says whose it is: the organiser must hear of it */
        set_text(why, whylen, "%s", c.bad[0] ? c.bad : "it has no header");
        rc = 1;
    }
done:
    olreader_destroy(&r);
    verify_session_destroy(&c.sess);
    return rc;
}

typedef struct {
    store *st;
    MDB_txn *txn;
    const char *tournament;
    char **matches;             /* this tournament's, in match id order */
    size_t n, cap;
    size_t max;                 /* records allowed; 0: TOUR_GAMES_MAX   */
    int nomem, too_many;
} store_scan;

static int scan_match(void *ctx, const char *match, const char *json, size_t len)
{
    store_scan *s = ctx;
    json_t *sum = json_loadb(json, len, 0, NULL);
    const char *tour = json_string_value(json_object_get(sum, "tournament"));
    int rc = 0;

    if (tour && !strcmp(tour, s->tournament) && s->n >= s->max) {
        rc = s->too_many = 1;   /* stop: the caller allows no more */
    } else if (tour && !strcmp(tour, s->tournament)) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 64;
            char **m = realloc(s->matches, cap * sizeof *m);
            if (m) {
                s->matches = m;
                s->cap = cap;
            } else {
                rc = s->nomem = 1;
            }
        }
        if (!rc && !(s->matches[s->n] = strdup(match)))
            rc = s->nomem = 1;
        else if (!rc)
            s->n++;
    }
    json_decref(sum);
    return rc;
}

/* One stored event as the record module replays it (record.h): judged by
 * the record's session already. */
static int judge_step(void *ctx, const record_step *step)
{
    judge_ctx *c = ctx;
    if (!step->ev) {
        /* a stored event the codec refuses: the record was altered */
        if (!c->bad[0])
            set_text(c->bad, sizeof c->bad, "#%" PRIu64 " malformed: the stored event cannot be decoded.",
                     step->stored->seq);
        c->items++;
        return 0;
    }
    if (!step->again || judged_event(c, step->ev, step->again, step->stored->received_ms)) {
        c->nomem = 1;
        return 1;
    }
    return 0;
}

/* ---- the two sources ----------------------------------------------------------- */

/* One stored match: its events judged again (record_replay) with the card
 * database it pins (or --cards), or, when that cannot be had, an
 * unreadable record placed by its header. */
static int judge_stored(tourrec_set *rs, store_scan *s, size_t i, cardset *cs, const cards *override)
{
    judge_ctx c;
    record_info info;
    olevent *ev = NULL;
    const cards *db = override;
    char why[TOUR_TEXT_MAX] = "", said[TOUR_TEXT_MAX / 2] = "";
    int rc = -1;

    if (!db && record_read(s->st, s->txn, s->matches[i], &info))
        set_text(why, sizeof why, "The record's summary cannot be read.");
    else if (!db && !(db = record_cards(cs, s->st, s->txn, &info, said, sizeof said)))
        set_text(why, sizeof why, "The record's card database cannot be had: %s.", said);
    if (ctx_start(&c, rs, db, s->matches[i]))
        goto done;
    if (db) {
        int got = record_replay(s->st, s->txn, s->matches[i], UINT64_MAX, c.sess, judge_step, &c);
        if (c.nomem)
            goto done;
        if (got && !c.bad[0]) {
            c.unreadable = 1;
            set_text(c.bad, sizeof c.bad, "The stored record cannot be read whole: %s",
                     got == -EINVAL ? "an event record does not parse" : mdb_strerror(got));
        }
    } else {
        c.unreadable = 1;
        set_text(c.bad, sizeof c.bad, "%s", why);
        if (!record_header(s->st, s->txn, s->matches[i], &ev) && take_header(&c, ev))
            goto done;
    }
    if (!c.have_header && !c.j->match && dup_str(&c.j->match, s->matches[i]))
        goto done;
    if (judge_end(&c))
        goto done;
    rc = 0;
done:
    olevent_destroy(&ev);
    verify_session_destroy(&c.sess);
    return rc;
}

int tourrec_judge_store(tourrec_set *rs, store *st, MDB_txn *txn, const cards *override, size_t max_records,
                        tourrec_progress progress, void *ctx, char *err, size_t errlen)
{
    store_scan s;
    cardset *cs = NULL;
    int rc = TOURREC_ENOMEM, got;

    memset(&s, 0, sizeof s);
    if (errlen)
        err[0] = '\0';
    s.st = st;
    s.txn = txn;
    s.tournament = tournament_id(rs->t);
    s.max = max_records && max_records < TOUR_GAMES_MAX ? max_records : TOUR_GAMES_MAX;
    got = store_each_match(st, txn, scan_match, &s);
    if (s.too_many) {
        set_text(err, errlen, "%s has more than %zu records", s.tournament, s.max);
        rc = TOURREC_ETOOMANY;
        goto done;
    }
    if (got) {
        rc = s.nomem ? TOURREC_ENOMEM : TOURREC_ESTORE;
        goto done;
    }
    if (cardset_new(&cs))
        goto done;
    for (size_t i = 0; i < s.n; i++) {
        if (progress && progress(ctx, i, s.n)) {
            rc = TOURREC_ESTOPPED;
            goto done;
        }
        if (judge_stored(rs, &s, i, cs, override)) {
            set_text(err, errlen, "%s", s.matches[i]);
            goto done;
        }
    }
    if (progress && progress(ctx, s.n, s.n)) {
        rc = TOURREC_ESTOPPED;
        goto done;
    }
    rc = TOURREC_OK;
done:
    cardset_destroy(&cs);
    for (size_t i = 0; i < s.n; i++)
        free(s.matches[i]);
    free(s.matches);
    return rc;
}

int tourrec_set_init(tourrec_set *rs, const tournament *t)
{
    memset(rs, 0, sizeof *rs);
    rs->t = t;
    rs->event_rules = json_loads(tournament_rules_json(t), 0, NULL);
    return rs->event_rules ? 0 : -1;
}

int tourrec_results(const tourrec_set *rs, tour_results **out)
{
    tour_game *games = NULL;
    int rc;

    *out = NULL;
    if (rs->n && !(games = malloc(rs->n * sizeof *games)))
        return TOUR_ENOMEM;
    for (size_t i = 0; i < rs->n; i++)
        games[i] = rs->games[i].g;
    rc = tournament_results(rs->t, games, rs->n, out);
    free(games);
    return rc;
}

const tour_game *tourrec_game(const tourrec_set *rs, size_t i)
{
    return &rs->games[i].g;
}

/* ---- T46 ------------------------------------------------------------------------- */

typedef struct {
    const cards *db;
    uint32_t *classes;
    int any;
} deck_walk;

static int count_class(void *ctx, const char *id)
{
    deck_walk *w = ctx;
    int k = class_of(w->db, id);
    w->any = 1;
    if (k >= 0)
        w->classes[k]++;
    return 0;
}

int tourrec_stats(const tourrec_set *rs, const tour_results *r, const cards *db, int judge_view, uint32_t round,
                  tourstats **out)
{
    size_t np = tournament_player_count(rs->t);
    tourstats_record *recs = calloc(rs->n ? rs->n : 1, sizeof *recs);
    int *has = calloc(np ? np : 1, sizeof *has);
    uint32_t (*classes)[TOURSTATS_CLASSES] = calloc(np ? np : 1, sizeof *classes);
    tourstats_opts o = {judge_view, round, has, (const uint32_t (*)[TOURSTATS_CLASSES])classes};
    int rc = TOUR_ENOMEM;

    *out = NULL;
    if (!recs || !has || !classes)
        goto done;
    for (size_t i = 0; i < np && db; i++) {
        deck_walk w = {db, classes[i], 0};
        tournament_player_deck_each(rs->t, i, count_class, &w);
        has[i] = w.any;
    }
    for (size_t i = 0; i < rs->n; i++) {
        const judged *j = &rs->games[i];
        recs[i] = j->st;
        recs[i].g = &j->g;
        recs[i].shown[0] = j->shown[0];
        recs[i].shown[1] = j->shown[1];
        recs[i].rules = j->rules;
    }
    rc = tourstats_new(rs->t, r, recs, rs->n, &o, out);
done:
    free(recs);
    free(has);
    free(classes);
    return rc;
}
