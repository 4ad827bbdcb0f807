/* cmd_tournament.c -- `arbiter tournament`: standings, pairings and alarms.
 *
 *   arbiter tournament standings --file T.json [--after R | --final] LOG... | --db STORE
 *   arbiter tournament pair      --file T.json --round R              LOG... | --db STORE
 *   arbiter tournament alarms    --file T.json                        LOG... | --db STORE
 *   arbiter tournament html      --file T.json --out FILE             LOG... | --db STORE
 *
 * An organiser between two rounds has the tournament file (who plays, what
 * was published, drops, time calls, the head judge's results) and the
 * round's records: a directory of logs the tables handed in, or the store
 * arbiterd kept.  They want the standings, the next round's pairings, and
 * the list of what a judge must look at.  src/tournament.c computes all
 * three and is pure; this file is its caller: it reads the file, judges
 * every record, fills one tour_game per record and prints.
 *
 * Every record is judged again here by the engine, never taken from what a
 * table said or a store's summary wrote: a log file by the same judge
 * `arbiter verify` runs (src/verify.h's session: the verdicts are the same
 * byte for byte), a stored record by reading its events in seq order into
 * that same judge, with the card database the record pins (as `arbiter
 * audit` judges a record again).  One pass over the events gives what the
 * module needs beyond the verdicts: the header (event, players, decklists,
 * levers), the table's `claim` of a winner, whether the last game event is
 * Player 2's `end` (T11), and for each game round its first event's time
 * and the scores after its last event (T12, T19), read from the engine
 * through verifier_score() (T4, T5).
 *
 * Output is for people by default: a table of places, or pairings by
 * table, or one line per alarm.  --json and --csv print the module's own
 * writers, unchanged, so that scripts and spreadsheets read what the
 * daemon and exports will give.  Warnings a person must see (a seed arbiter
 * made, alarms behind the standings) go to stderr; a progress line goes
 * there too, only when stderr is a terminal and many records are judged.
 * `html` writes one self-contained page for people, all of it at once
 * (src/tourhtml.h: standings, bracket, pairings, alarms, statistics), into
 * --out FILE, written beside and renamed into place so that a screen
 * reading it never shows half a page.
 *
 * Exit code: 0 done (and for `alarms`, no open alarm); 1 `alarms` found an
 * alarm no judge's result resolves, or `pair` cannot pair yet because a
 * result it needs is pending; 2 bad usage, a tournament file refused, a
 * store or card database that cannot be read; 3 internal error.  A log
 * that cannot be read is no usage error: when its header names the
 * tournament it is a record, and an `illegal_record` alarm says so (T17);
 * when there is no header to read, stderr names the file.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "logformat/olcodec.h"
#include "logformat/olstream.h"
#include "src/carddb.h"
#include "src/cli.h"
#include "src/store.h"
#include "src/tournament.h"
#include "src/tourhtml.h"
#include "src/verify.h"

#define PROGRESS_MIN 20       /* records judged before a progress line is worth it */

static const char usage_text[] =
    "usage: arbiter tournament standings --file T.json [--after R | --final] [OPTIONS] (LOG... | --db STORE)\n"
    "       arbiter tournament pair --file T.json --round R [OPTIONS] (LOG... | --db STORE)\n"
    "       arbiter tournament alarms --file T.json [OPTIONS] (LOG... | --db STORE)\n"
    "       arbiter tournament html --file T.json --out FILE [OPTIONS] (LOG... | --db STORE)\n"
    "\n"
    "A Mintayn tournament from its file (TOURNAMENT.md, \"The tournament file\")\n"
    "and its records, each judged again by its format's engine: the standings,\n"
    "the pairings of the next round, or every alarm a judge must look at; or\n"
    "all of it as one self-contained HTML page (html).\n"
    "\n"
    "  --file T.json  the tournament file (required)\n"
    "  --db STORE     read the records of the store arbiterd keeps (read-only,\n"
    "                 beside a running daemon): the matches whose header names\n"
    "                 this tournament, each judged with the card database it pins\n"
    "  LOG...         or read open logs (.jsonl, .mlog; '-' is stdin)\n"
    "  --after R      standings: after Swiss round R (default: the last Swiss\n"
    "                 round published)\n"
    "  --final        standings: the final standings, the bracket's order (T38)\n"
    "  --round R      pair: the round to pair, the next one to publish\n"
    "  --out FILE     html: the page to write ('-': stdout); each match id links\n"
    "                 to audit/MATCH.html beside it\n"
    "  --seed S       the seed of draws where the file gives none (T27)\n"
    "  --cards FILE   the card database (logs: default $ARBITER_CARDS, else\n"
    "                 fixtures/cards/core.json here, else the installed copy;\n"
    "                 --db: instead of the one each record pins)\n"
    "  --json         the module's JSON (README.md, `arbiter tournament`)\n"
    "  --csv          the module's CSV (RFC 4180)\n"
    "\n"
    "exit: 0 done (alarms: no open alarm), 1 alarms: an alarm no judge's result\n"
    "resolves, or pair: a result the pairing needs is pending, 2 bad usage or a\n"
    "file, store or card database that cannot be read, 3 internal error.\n";

typedef enum { SUB_STANDINGS, SUB_PAIR, SUB_ALARMS, SUB_HTML } tour_sub;

typedef struct {
    tour_sub sub;
    const char *file, *db, *cards, *seed, *out;
    uint32_t after, round;
    int has_after, has_round, final;
    int json, csv, help;
    char **paths;
    int n_paths;
} tour_opts;

/* ---- options ---------------------------------------------------------------- */

static int parse_round(const char *opt, const char *s, uint32_t *out)
{
    char *end = NULL;
    unsigned long v;

    errno = 0;
    v = strtoul(s, &end, 10);
    if (!*s || *end || *s == '-' || errno || v < 1 || v > TOUR_ROUNDS_MAX) {
        cli_error("%s needs a round from 1 to %d, not '%s'", opt, TOUR_ROUNDS_MAX, s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* The value of option argv[*i] ("--x V" or "--x=V"), or NULL (reported). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

static int is_opt(const char *a, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

/* argv[1] is the subcommand; options anywhere after it; "--" ends them. */
static int parse_opts(int argc, char **argv, tour_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        o->help = argc >= 2;
        if (!o->help)
            cli_error("tournament needs a command: standings, pair, alarms or html");
        return o->help ? 0 : -1;
    }
    if (!strcmp(argv[1], "standings"))
        o->sub = SUB_STANDINGS;
    else if (!strcmp(argv[1], "pair"))
        o->sub = SUB_PAIR;
    else if (!strcmp(argv[1], "alarms"))
        o->sub = SUB_ALARMS;
    else if (!strcmp(argv[1], "html"))
        o->sub = SUB_HTML;
    else {
        cli_error("unknown tournament command '%s' (standings, pair, alarms or html)", argv[1]);
        return -1;
    }
    o->paths = argv + 2;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (rest || a[0] != '-' || !strcmp(a, "-")) {
            o->paths[o->n_paths++] = argv[i];
        } else if (!strcmp(a, "--")) {
            rest = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--csv")) {
            o->csv = 1;
        } else if (!strcmp(a, "--final")) {
            o->final = 1;
        } else if (is_opt(a, "--file") || is_opt(a, "--db") || is_opt(a, "--cards") || is_opt(a, "--seed")) {
            const char *name = is_opt(a, "--file") ? "--file" : is_opt(a, "--db") ? "--db"
                             : is_opt(a, "--cards") ? "--cards" : "--seed";
            if (!(v = opt_value(argc, argv, &i, name)))
                return -1;
            *(name[2] == 'f' ? &o->file : name[2] == 'd' ? &o->db : name[2] == 'c' ? &o->cards : &o->seed) = v;
        } else if (is_opt(a, "--out")) {
            if (!(o->out = opt_value(argc, argv, &i, "--out")))
                return -1;
        } else if (is_opt(a, "--after") || is_opt(a, "--round")) {
            const char *name = is_opt(a, "--after") ? "--after" : "--round";
            if (!(v = opt_value(argc, argv, &i, name)) ||
                parse_round(name, v, name[2] == 'a' ? &o->after : &o->round) < 0)
                return -1;
            *(name[2] == 'a' ? &o->has_after : &o->has_round) = 1;
        } else {
            cli_error("unknown option '%s' (try arbiter tournament --help)", a);
            return -1;
        }
    }
    return 0;
}

/* What the options say that cannot go together; 0 or -1 (reported). */
static int check_opts(const tour_opts *o)
{
    if (!o->file)
        cli_error("tournament %s needs --file T.json",
                  o->sub == SUB_PAIR ? "pair" : o->sub == SUB_ALARMS ? "alarms" : o->sub == SUB_HTML ? "html"
                  : "standings");
    else if (o->db && o->n_paths)
        cli_error("give either --db STORE or log files, not both");
    else if (o->json && o->csv)
        cli_error("give --json or --csv, not both");
    else if (o->sub == SUB_HTML && !o->out)
        cli_error("tournament html needs --out FILE");
    else if (o->sub != SUB_HTML && o->out)
        cli_error("--out is for tournament html");
    else if (o->sub == SUB_HTML && (o->json || o->csv))
        cli_error("tournament html writes HTML: --json and --csv are for the other commands");
    else if (o->sub == SUB_PAIR && !o->has_round)
        cli_error("tournament pair needs --round R");
    else if (o->sub != SUB_PAIR && o->has_round)
        cli_error("--round is for tournament pair");
    else if (o->sub != SUB_STANDINGS && (o->has_after || o->final))
        cli_error("--after and --final are for tournament standings");
    else if (o->has_after && o->final)
        cli_error("give --after R or --final, not both");
    else
        return 0;
    return -1;
}

/* ---- one record, judged ------------------------------------------------------ */

/* A tour_game and the strings and marks it points at, owned here. */
typedef struct {
    tour_game g;
    char *match, *tournament, *table, *p1, *p2, *format, *cards, *rules_differ, *first_bad;
    tour_mark *marks;
    uint32_t marks_cap;
} judged;

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
} judge_ctx;

/* T42: a decklist as the header's JSON object, hashed as the module does. */
static int deck_hash(ol_format f, const ol_deck *d, uint8_t out[TOUR_HASH], int *has)
{
    const struct { const char *key; const ol_idlist *l; } snap[] = {
        {"monsters", &d->monsters}, {"supports", &d->supports}, {"reserve", &d->reserve}},
        duel[] = {{"main", &d->main}};
    const size_t n = f == OL_FORMAT_SNAP ? 3 : 1;
    json_t *o = json_object();
    char *text = NULL;
    size_t n_cards = 0;
    int rc = -1;

    *has = 0;
    for (size_t k = 0; o && k < n; k++) {
        const ol_idlist *l = f == OL_FORMAT_SNAP ? snap[k].l : duel[k].l;
        json_t *a = json_array();
        if (!a || json_object_set_new(o, f == OL_FORMAT_SNAP ? snap[k].key : duel[k].key, a))
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
        if (l->format != h->format)
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

static void engine_score(const verifier *vf, int64_t s[2])
{
    s[0] = s[1] = 0;
    if (vf)
        verifier_score(vf, s, NULL);
}

/* "#seq rule: sentence" of a verdict, as T17 names it. */
static void verdict_text(char *out, size_t cap, const olverdict *v)
{
    if (v->has_seq)
        set_text(out, cap, "#%" PRIu64 " %s: %s", v->seq, v->rule[0] ? v->rule : ol_status_name(v->status), v->msg);
    else
        set_text(out, cap, "%s: %s", v->rule[0] ? v->rule : ol_status_name(v->status), v->msg);
}

/* One event the codec accepted, with its time (0: none): judged by the
 * session, and what the record says gathered.  0, or -1 out of memory. */
static int judge_event(judge_ctx *c, const olevent *ev, const char *raw, size_t len, uint64_t time_ms)
{
    const verifier *vf = verify_session_verifier(c->sess);
    unsigned before_round = vf ? verifier_round(vf) : 0;
    uint64_t before_seq = verify_session_next_seq(c->sess);
    uint32_t r = before_round ? before_round : 1;   /* T11: setup is game round 1 */
    const verify_entry *e = NULL;
    int64_t now[2];

    c->items++;
    if (verify_session_event(c->sess, ev, raw, len, &e) != VERIFY_OK || !e)
        return -1;
    const olverdict *v = &e->v;
    int stored = verify_session_next_seq(c->sess) == before_seq + 1;
    int applied = stored && (v->status == OL_V_OK || v->status == OL_V_WARNING);

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
    return 0;
}

/* ---- reading records ---------------------------------------------------------- */

typedef struct {
    const tournament *t;
    json_t *event_rules;
    judged *games;
    size_t n, cap;
} record_set;

/* A new judged slot at the end of the set; NULL out of memory. */
static judged *set_push(record_set *rs)
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

static void set_free(record_set *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        judged_free(&rs->games[i]);
    free(rs->games);
    json_decref(rs->event_rules);
    memset(rs, 0, sizeof *rs);
}

static int ctx_start(judge_ctx *c, record_set *rs, const cards *db, const char *name)
{
    memset(c, 0, sizeof *c);
    c->t = rs->t;
    c->event_rules = rs->event_rules;
    if (!(c->j = set_push(rs)))
        return -1;
    return verify_session_new(db, name, &c->sess) == VERIFY_OK ? 0 : -1;
}

/* One log file, read event by event as `arbiter verify` reads it: a line
 * the codec refuses is malformed and takes no seq; a log that cannot be
 * opened or read, is empty, or whose first line is malformed is
 * unreadable.  0, or -1 out of memory. */
static int judge_file(record_set *rs, const cards *db, const char *path)
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
    if (!c.have_header)   /* nothing says whose it is: the organiser must hear of it */
        cli_error("%s: %s; it is no record of any tournament", path, c.bad[0] ? c.bad : "it has no header");
    rc = 0;
done:
    olreader_destroy(&r);
    verify_session_destroy(&c.sess);
    return rc;
}

/* The card databases stored records pin, loaded once each. */
typedef struct {
    char hash[65];
    cards *db;
} pinned;

typedef struct {
    store *st;
    MDB_txn *txn;
    const char *tournament;
    char **matches;             /* this tournament's, in match id order */
    char **hashes;              /* the cards_hash each pins             */
    size_t n, cap;
    int nomem;
} store_scan;

static int scan_match(void *ctx, const char *match, const char *json, size_t len)
{
    store_scan *s = ctx;
    json_t *sum = json_loadb(json, len, 0, NULL);
    const char *tour = json_string_value(json_object_get(sum, "tournament"));
    const char *hash = json_string_value(json_object_get(sum, "cards_hash"));
    int rc = 0;

    if (tour && !strcmp(tour, s->tournament)) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 64;
            char **m = realloc(s->matches, cap * sizeof *m);
            if (m)
                s->matches = m;
            char **h = m ? realloc(s->hashes, cap * sizeof *h) : NULL;
            if (h)
                s->hashes = h;
            if (!m || !h)
                rc = s->nomem = 1;
            else
                s->cap = cap;
        }
        if (!rc) {
            s->matches[s->n] = strdup(match);
            s->hashes[s->n] = strdup(hash ? hash : "");
            if (!s->matches[s->n] || !s->hashes[s->n]) {
                free(s->matches[s->n]);
                free(s->hashes[s->n]);
                rc = s->nomem = 1;
            } else {
                s->n++;
            }
        }
    }
    json_decref(sum);
    return rc;
}

typedef struct {
    judge_ctx *c;
    int nomem;
} event_feed;

static int feed_stored(void *ctx, const store_event *e)
{
    event_feed *f = ctx;
    olevent *ev = NULL;
    int rc = 0;

    if (olcodec_decode_message(e->event, e->event_len, &ev, NULL) != OL_OK || !ev) {
        /* a stored event the codec refuses: the record was altered */
        if (!f->c->bad[0])
            set_text(f->c->bad, sizeof f->c->bad, "#%" PRIu64 " malformed: the stored event cannot be decoded.",
                     e->seq);
        f->c->items++;
        return 0;
    }
    if (judge_event(f->c, ev, (const char *)e->event, e->event_len, e->received_ms))
        rc = f->nomem = 1;
    olevent_destroy(&ev);
    return rc;
}

/* The card database a stored record pins (or --cards): NULL when the store
 * keeps none under that hash or it cannot be read (*why says so), or out
 * of memory (*nomem). */
static const cards *pinned_db(store_scan *s, pinned **cache, size_t *n, const char *hash, char *why,
                              size_t whylen, int *nomem)
{
    const void *bytes = NULL;
    size_t len = 0;
    char err[2048];
    cards *db = NULL;
    const cards *found = NULL;
    pinned *p;

    for (size_t i = 0; i < *n && !found; i++)
        if (!strcmp((*cache)[i].hash, hash))
            found = (*cache)[i].db;
    if (found)
        goto done;
    if (!hash[0] || store_get_cards(s->st, s->txn, hash, &bytes, &len)) {
        set_text(why, whylen, "The store keeps no card database %s, which the record pins.", hash[0] ? hash : "(none)");
        goto done;
    }
    if (carddb_load_buffer(bytes, len, hash, &db, err, sizeof err)) {
        err[strcspn(err, "\n")] = '\0';
        set_text(why, whylen, "The stored card database cannot be read: %s", err);
        goto done;
    }
    if (!(p = realloc(*cache, (*n + 1) * sizeof *p))) {
        *nomem = 1;
        goto done;
    }
    *cache = p;
    snprintf(p[*n].hash, sizeof p[*n].hash, "%s", hash);
    p[*n].db = db;
    found = db;
    db = NULL;   /* the cache owns it */
    ++*n;
done:
    cards_destroy(&db);
    return found;
}

/* ---- progress (stderr, terminals only) ------------------------------------------ */

typedef struct {
    int on;
    int width;
} progress;

static void progress_show(progress *p, size_t done, size_t total)
{
    int n;

    if (!p->on)
        return;
    n = fprintf(stderr, "\rjudging %zu/%zu records", done, total);
    if (n > 0 && n - 1 > p->width)
        p->width = n - 1;
    fflush(stderr);
}

static void progress_clear(progress *p)
{
    if (!p->on || !p->width)
        return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}

static void progress_init(progress *p, size_t total)
{
    p->on = total >= PROGRESS_MIN && isatty(STDERR_FILENO);
    p->width = 0;
}

/* ---- the two sources ----------------------------------------------------------- */

static int judge_logs(record_set *rs, const tour_opts *o)
{
    cards *db = NULL;
    progress p;
    int rc = CLI_OK;

    if (o->n_paths && cli_load_cards(o->cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    progress_init(&p, (size_t)o->n_paths);
    for (int i = 0; i < o->n_paths && rc == CLI_OK; i++) {
        progress_show(&p, (size_t)i, (size_t)o->n_paths);
        if (judge_file(rs, db, o->paths[i])) {
            cli_error("%s: out of memory while judging", o->paths[i]);
            rc = CLI_INTERNAL;
        }
    }
    progress_clear(&p);
    cards_destroy(&db);
    return rc;
}

/* One stored match: its events judged again, or, when the card database
 * it pins is missing, an unreadable record placed by its header. */
static int judge_stored(record_set *rs, store_scan *s, size_t i, const cards *db, const char *why)
{
    judge_ctx c;
    event_feed f;
    store_event e;
    olevent *ev = NULL;
    int rc = -1;

    if (ctx_start(&c, rs, db, s->matches[i]))
        goto done;
    if (db) {
        f.c = &c;
        f.nomem = 0;
        int got = store_each_event(s->st, s->txn, s->matches[i], 0, UINT64_MAX, feed_stored, &f);
        if (f.nomem)
            goto done;
        if (got && !c.bad[0]) {
            c.unreadable = 1;
            set_text(c.bad, sizeof c.bad, "The stored record cannot be read whole: %s", mdb_strerror(got));
        }
    } else {
        c.unreadable = 1;
        set_text(c.bad, sizeof c.bad, "%s", why);
        if (!store_get_event(s->st, s->txn, s->matches[i], 0, &e) &&
            olcodec_decode_message(e.event, e.event_len, &ev, NULL) == OL_OK && ev && ev->type == OL_MATCH &&
            take_header(&c, ev))
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

static int judge_store(record_set *rs, const tour_opts *o)
{
    store_scan s;
    pinned *cache = NULL;
    size_t n_cache = 0;
    cards *override = NULL;
    progress p;
    char err[512];
    int rc = CLI_INTERNAL, nomem = 0;

    memset(&s, 0, sizeof s);
    s.tournament = tournament_id(rs->t);
    if (o->cards && cli_load_cards(o->cards, &override) != CLI_OK)
        return CLI_BADINPUT;
    if (store_open(o->db, 1, 0, &s.st, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_BADINPUT;
        goto done;
    }
    if (mdb_txn_begin(store_env(s.st), NULL, MDB_RDONLY, &s.txn)) {
        cli_error("the store %s cannot be read", o->db);
        rc = CLI_BADINPUT;
        goto done;
    }
    if (store_each_match(s.st, s.txn, scan_match, &s)) {
        if (!s.nomem)
            cli_error("the store %s cannot be read", o->db);
        rc = s.nomem ? CLI_INTERNAL : CLI_BADINPUT;
        goto done;
    }
    progress_init(&p, s.n);
    for (size_t i = 0; i < s.n; i++) {
        char why[TOUR_TEXT_MAX] = "";
        const cards *db = override ? override : pinned_db(&s, &cache, &n_cache, s.hashes[i], why, sizeof why, &nomem);
        progress_show(&p, i, s.n);
        if (nomem || judge_stored(rs, &s, i, db, why)) {
            progress_clear(&p);
            cli_error("%s: out of memory while judging", s.matches[i]);
            goto done;
        }
    }
    progress_clear(&p);
    rc = CLI_OK;
done:
    for (size_t i = 0; i < n_cache; i++)
        cards_destroy(&cache[i].db);
    free(cache);
    for (size_t i = 0; i < s.n; i++) {
        free(s.matches[i]);
        free(s.hashes[i]);
    }
    free(s.matches);
    free(s.hashes);
    if (s.txn)
        mdb_txn_abort(s.txn);
    store_close(&s.st);
    cards_destroy(&override);
    return rc;
}

/* ---- output for people --------------------------------------------------------- */

/* "Name (id)" of player index i, into buf. */
static const char *who(const tournament *t, int i, char *buf, size_t cap)
{
    const tour_player *p = i >= 0 ? tournament_player(t, (size_t)i) : NULL;

    if (!p)
        snprintf(buf, cap, "-");
    else if (p->name && strcmp(p->name, p->id))
        snprintf(buf, cap, "%s (%s)", p->name, p->id);
    else
        snprintf(buf, cap, "%s", p->id);
    return buf;
}

static void sos_text(char *buf, size_t n, const tour_row *row)
{
    unsigned __int128 den = row->sos_den ? row->sos_den : 1;
    uint64_t milli = (uint64_t)(((unsigned __int128)row->sos_num * 1000 + den / 2) / den);
    snprintf(buf, n, "%" PRIu64 ".%03" PRIu64, milli / 1000, milli % 1000);
}

static void print_seed(const char *what, const char *seed, int made)
{
    if (!seed)
        return;
    printf("seed of %s: %s%s\n", what, seed, made ? " (made by arbiter)" : "");
    if (made)
        cli_error("the file gives no seed: arbiter made %s; write it into the file (\"seed\") or pass --seed to draw the same again (T27)",
                  seed);
}

static void print_judges(const tour_results *r)
{
    int head = 0;

    for (size_t i = 0; i < r->n_results; i++) {
        const tour_result *x = &r->results[i];
        if (!x->judge)
            continue;
        if (!head++)
            printf("head judge's results:\n");
        printf("  round %" PRIu32 " table %s: %s: %s\n", x->round, x->table ? x->table : "-", x->judge,
               x->judge_text ? x->judge_text : "");
    }
}

static void print_standings(const tournament *t, const tour_results *r, const tour_standings *s)
{
    char name[2 * TOUR_STR_MAX + 8], sos[48], wdl[48];
    int width = 6;

    for (size_t i = 0; i < s->n_rows; i++) {
        int n = (int)strlen(who(t, s->rows[i].player, name, sizeof name));
        width = n > width ? n : width;
    }
    if (s->final)
        printf("%s (%s), %s: final standings%s\n", tournament_name(t), tournament_id(t), tournament_format_name(t),
               s->provisional ? " (provisional: results are pending)" : "");
    else
        printf("%s (%s), %s: standings after round %" PRIu32 "%s\n", tournament_name(t), tournament_id(t),
               tournament_format_name(t), s->after_round, s->provisional ? " (provisional: results are pending)" : "");
    printf("%5s  %-*s  %6s  %-8s  %6s  %6s\n", "place", width, "player", "points", "W-D-L", "MOV", "SoS");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        sos_text(sos, sizeof sos, w);
        snprintf(wdl, sizeof wdl, "%" PRIu32 "-%" PRIu32 "-%" PRIu32, w->wins, w->draws, w->losses);
        printf("%5" PRIu32 "  %-*s  %6" PRId64 "  %-8s  %6" PRId64 "  %6s", w->place, width,
               who(t, w->player, name, sizeof name), w->points, wdl, w->mov, sos);
        if (w->byes)
            printf("  %" PRIu32 " bye%s", w->byes, w->byes == 1 ? "" : "s");
        if (w->eliminated_in)
            printf("  out in round %" PRIu32, w->eliminated_in);
        if (w->dropped)
            printf("  dropped");
        putchar('\n');
    }
    for (size_t i = 0; i < s->n_pending; i++) {
        const tour_pending *p = &s->pending[i];
        printf("pending: round %" PRIu32 " table %s%s%s: %s (%s)\n", p->round, p->table ? p->table : "-",
               p->match[0] ? " match " : "", p->match, p->why, p->label);
    }
    print_judges(r);
    print_seed(s->label[0] ? s->label : "the random tiebreak", s->seed, s->seed_made);
}

static void print_pairings(const tournament *t, const tour_pairings *p)
{
    char a[2 * TOUR_STR_MAX + 8], b[2 * TOUR_STR_MAX + 8];

    printf("%s (%s): round %" PRIu32 " pairings (%s)\n", tournament_name(t), tournament_id(t), p->round,
           p->elimination ? "elimination" : "swiss");
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->game)
            printf("game %" PRIu32 "  ", x->game);
        if (x->player[1] < 0)
            printf("bye       %s\n", x->player[0] >= 0 ? who(t, x->player[0], a, sizeof a) : "(nobody is left to play)");
        else
            printf("table %-3s %s  vs  %s%s\n", x->table, who(t, x->player[0], a, sizeof a),
                   who(t, x->player[1], b, sizeof b), x->rematch ? "  (rematch, T31)" : "");
    }
    if (p->rematches)
        cli_error("%zu rematch%s could not be avoided (T31)", p->rematches, p->rematches == 1 ? "" : "es");
    if (p->search_cut)
        cli_error("the pairing search stopped at its bound (T30): the pairing is the best found");
    print_seed(p->labels ? p->labels : "the pairing", p->seed, p->seed_made);
}

static size_t open_alarms(const tour_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_alarms; i++)
        n += !r->alarms[i].resolved;
    return n;
}

static void print_alarms(const tournament *t, const tour_results *r)
{
    for (size_t i = 0; i < r->n_alarms; i++) {
        const tour_alarm *a = &r->alarms[i];
        printf("round %" PRIu32 "  table %s  %s (%s)", a->round, a->table[0] ? a->table : "-", a->kind, a->ruling);
        if (a->match[0])
            printf("  match %s", a->match);
        if (a->players[0][0] || a->players[1][0])
            printf("  %s%s%s", a->players[0], a->players[0][0] && a->players[1][0] ? ", " : "", a->players[1]);
        printf(": %s%s\n", a->text, a->resolved ? "  [resolved]" : "");
    }
    printf("%s (%s): %zu alarm%s, %zu open\n", tournament_name(t), tournament_id(t), r->n_alarms,
           r->n_alarms == 1 ? "" : "s", open_alarms(r));
    if (r->deck_check_skipped)
        printf("some decklists were hidden: the deck check (T42) skipped them\n");
}

/* ---- the command ----------------------------------------------------------------- */

/* The machine outputs: the module's writers, JSON with a newline. */
static int print_text_of(jtext *out, int rc_writer, int json)
{
    if (rc_writer || out->bad) {
        cli_error("out of memory while writing the output");
        return CLI_INTERNAL;
    }
    if (out->len && fwrite(out->buf, 1, out->len, stdout) != out->len)
        return CLI_INTERNAL;
    if (json && putchar('\n') == EOF)
        return CLI_INTERNAL;
    return CLI_OK;
}

/* A module error as an exit code, its sentence reported. */
static int tour_error(int rc, const char *err)
{
    if (rc == TOUR_ENOMEM) {
        cli_error("out of memory");
        return CLI_INTERNAL;
    }
    cli_error("%s", err[0] ? err : "the tournament cannot answer that");
    return rc == TOUR_EPENDING ? CLI_ILLEGAL : CLI_BADINPUT;
}

static int run_standings(const tour_opts *o, const tournament *t, const tour_results *r, jtext *out)
{
    tour_standings *s = NULL;
    const tour_structure *st = tournament_structure(t);
    uint32_t published = tournament_rounds_published(t), after = o->after;
    char err[TOUR_TEXT_MAX + 256] = "";
    int rc;

    if (!o->has_after && !o->final) {
        after = published < st->swiss_rounds ? published : st->swiss_rounds;
        if (!after && st->swiss_rounds) {
            cli_error("no round of %s is published yet: no standings", tournament_id(t));
            return CLI_BADINPUT;
        }
    }
    if (o->final || !st->swiss_rounds)
        rc = tournament_final(t, r, &s, err, sizeof err);
    else
        rc = tournament_standings(t, r, after, &s, err, sizeof err);
    if (rc)
        return tour_error(rc, err);
    if (o->json)
        rc = print_text_of(out, tournament_standings_json(t, s, out), 1);
    else if (o->csv)
        rc = print_text_of(out, tournament_standings_csv(t, s, out), 0);
    else
        print_standings(t, r, s);
    tour_standings_destroy(&s);
    return rc;
}

static int run_pair(const tour_opts *o, const tournament *t, const tour_results *r, jtext *out)
{
    tour_pairings *p = NULL;
    char err[TOUR_TEXT_MAX + 4096] = "";
    int rc = tournament_pair(t, r, o->round, &p, err, sizeof err);

    if (rc)
        return tour_error(rc, err);
    if (o->json)
        rc = print_text_of(out, tournament_pairings_json(t, p, out), 1);
    else if (o->csv)
        rc = print_text_of(out, tournament_pairings_csv(t, p, out), 0);
    else
        print_pairings(t, p);
    tour_pairings_destroy(&p);
    return rc;
}

static int run_alarms(const tour_opts *o, const tournament *t, const tour_results *r, jtext *out)
{
    int rc = CLI_OK;

    if (o->json)
        rc = print_text_of(out, tournament_alarms_json(t, r, out), 1);
    else if (o->csv)
        rc = print_text_of(out, tournament_alarms_csv(t, r, out), 0);
    else
        print_alarms(t, r);
    return rc != CLI_OK ? rc : open_alarms(r) ? CLI_ILLEGAL : CLI_OK;
}

/* text into path: written to path.tmp beside it, then renamed into place
 * ("-": stdout).  CLI_OK, or CLI_BADINPUT (reported). */
static int write_page(const char *path, const jtext *text)
{
    char *tmp = NULL;
    FILE *f = NULL;
    int rc = CLI_BADINPUT;

    if (!strcmp(path, "-")) {
        if (fwrite(text->buf, 1, text->len, stdout) != text->len) {
            cli_error("cannot write the page to stdout");
            return CLI_INTERNAL;
        }
        return CLI_OK;
    }
    if (!(tmp = malloc(strlen(path) + 5))) {
        cli_error("out of memory");
        return CLI_INTERNAL;
    }
    strcpy(tmp, path);
    strcat(tmp, ".tmp");
    if (!(f = fopen(tmp, "w"))) {
        cli_error("%s: %s", tmp, strerror(errno));
        goto done;
    }
    if (fwrite(text->buf, 1, text->len, f) != text->len || fflush(f) != 0 || ferror(f)) {
        cli_error("%s: %s", tmp, strerror(errno));
        goto done;
    }
    int closed = fclose(f);
    f = NULL;
    if (closed != 0) {
        cli_error("%s: %s", tmp, strerror(errno));
        goto done;
    }
    if (rename(tmp, path) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        goto done;
    }
    rc = CLI_OK;
done:
    if (f)
        fclose(f);
    if (rc != CLI_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

static int run_html(const tour_opts *o, const tournament *t, const tour_results *r, size_t records, jtext *out)
{
    char when[64] = "";
    time_t now = time(NULL);
    struct tm tm;
    tourhtml_opts ho;

    memset(&ho, 0, sizeof ho);
    ho.records = records;
    if (now != (time_t)-1 && gmtime_r(&now, &tm) && strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm))
        ho.generated = when;
    if (tourhtml_write(t, r, &ho, out) || out->bad) {
        cli_error("out of memory while writing the page");
        return CLI_INTERNAL;
    }
    return write_page(o->out, out);
}

static int load_file(const tour_opts *o, tournament **t)
{
    char *buf = NULL, err[TOUR_TEXT_MAX + 256] = "";
    size_t len = 0;
    olerror oerr;
    int rc;

    memset(&oerr, 0, sizeof oerr);
    rc = olstream_read_file(o->file, TOUR_FILE_MAX, &buf, &len, &oerr);
    if (rc == OL_ENOMEM)
        return CLI_INTERNAL;
    if (rc != OL_OK) {
        cli_error("%s: %s", o->file, oerr.msg[0] ? oerr.msg : strerror(errno));
        return CLI_BADINPUT;
    }
    rc = tournament_load(buf, len, t, err, sizeof err);
    free(buf);
    if (rc == TOUR_ENOMEM)
        return tour_error(rc, err);
    if (rc) {
        cli_error("%s: %s", o->file, err[0] ? err : "the tournament file is refused.");
        return CLI_BADINPUT;
    }
    if (o->seed && (rc = tournament_set_seed(*t, o->seed))) {
        if (rc == TOUR_ENOMEM)
            return tour_error(rc, err);
        cli_error("--seed needs 1 to %d bytes", TOUR_STR_MAX);
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

int cmd_tournament(int argc, char **argv)
{
    tour_opts o;
    tournament *t = NULL;
    tour_results *r = NULL;
    tour_game *games = NULL;
    record_set rs;
    jtext out = {0};
    int rc;

    memset(&rs, 0, sizeof rs);
    if (parse_opts(argc, argv, &o) < 0 || (!o.help && check_opts(&o) < 0))
        return CLI_BADINPUT;
    if (o.help) {
        fputs(usage_text, stdout);
        return CLI_OK;
    }
    if ((rc = load_file(&o, &t)) != CLI_OK)
        goto done;
    rs.t = t;
    rc = CLI_INTERNAL;
    if (!(rs.event_rules = json_loads(tournament_rules_json(t), 0, NULL)))
        goto done;
    if ((rc = o.db ? judge_store(&rs, &o) : judge_logs(&rs, &o)) != CLI_OK)
        goto done;
    rc = CLI_INTERNAL;
    if (rs.n && !(games = malloc(rs.n * sizeof *games)))
        goto done;
    for (size_t i = 0; i < rs.n; i++)
        games[i] = rs.games[i].g;
    if ((rc = tournament_results(t, games, rs.n, &r)) != 0) {
        rc = tour_error(rc, "too many records for one tournament");
        goto done;
    }
    rc = o.sub == SUB_STANDINGS ? run_standings(&o, t, r, &out)
       : o.sub == SUB_PAIR ? run_pair(&o, t, r, &out)
       : o.sub == SUB_HTML ? run_html(&o, t, r, rs.n, &out) : run_alarms(&o, t, r, &out);
    if (o.sub != SUB_ALARMS && rc == CLI_OK && open_alarms(r))
        cli_error("%zu open alarm%s: see arbiter tournament alarms", open_alarms(r), open_alarms(r) == 1 ? "" : "s");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the output");
        rc = CLI_INTERNAL;
    }
done:
    jtext_free(&out);
    free(games);
    tour_results_destroy(&r);
    set_free(&rs);
    tournament_destroy(&t);
    return rc;
}
