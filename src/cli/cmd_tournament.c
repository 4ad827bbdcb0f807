/* cmd_tournament.c -- `arbiter tournament`: standings, pairings and alarms.
 *
 *   arbiter tournament standings --file T.json [--after R | --final] LOG... | --db STORE
 *   arbiter tournament pair      --file T.json --round R              LOG... | --db STORE
 *   arbiter tournament alarms    --file T.json                        LOG... | --db STORE
 *   arbiter tournament html      --file T.json --out FILE [--view V]  LOG... | --db STORE
 *   arbiter tournament stats     --file T.json [--round R] [--view V] [--json | --csv TABLE]
 *                                                                     LOG... | --db STORE
 *   arbiter tournament wall      --file T.json --round R --out FILE  [LOG... | --db STORE | --pg URL]
 *   arbiter tournament slips     --file T.json --round R --out FILE  [LOG... | --db STORE | --pg URL]
 *
 * An organiser between two rounds has the tournament file (who plays, what
 * was published, drops, time calls, the head judge's results) and the
 * round's records: a directory of logs the tables handed in, or the store
 * arbiterd kept.  They want the standings, the next round's pairings, and
 * the list of what a judge must look at.  src/tournament/tournament.c computes all
 * three and is pure; this file is its caller: it reads the file, has
 * src/tournament/tourrec.h judge every record and fill one tour_game per record (the
 * same code arbiterd's `standings` query runs), and prints.
 *
 * Every record is judged again here by the engine, never taken from what a
 * table said or a store's summary wrote: a log file by the same judge
 * `arbiter verify` runs (src/core/verify.h's session: the verdicts are the same
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
 * (src/tournament/tourhtml.h: standings, bracket, pairings, alarms, statistics), into
 * --out FILE, written beside and renamed into place so that a screen
 * reading it never shows half a page.  `stats` prints T46's statistics
 * (src/tournament/tourstats.h), the records judged with the set gathering what each
 * event shows in the PUBLIC view; --view judge only adds the decklists.
 * `html --projector` makes the same page with text to read across a hall.
 * `wall` and `slips` write pages to print (src/tournament/tourhtml.h): the
 * wall list of a round (pairings by table and by player, the standings
 * before it) and one match slip per table; they need records only for
 * the standings.
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
#include "src/cli/cli.h"
#include "src/cli/cmd_organise.h"
#include "src/core/carddb.h"
#include "src/core/htmlout.h"
#include "src/core/verify.h"
#include "src/core/view.h"
#include "src/pg/pgconn.h"
#include "src/pg/pgload.h"
#include "src/record/store.h"
#include "src/tournament/tourhtml.h"
#include "src/tournament/tourout.h"
#include "src/tournament/tourrec.h"
#include "src/tournament/tourstats.h"

#define PROGRESS_MIN 20       /* records judged before a progress line is worth it */

static const char usage_text[] =
    "usage: arbiter tournament standings --file T.json [--after R | --final] [OPTIONS] (LOG... | --db STORE | --pg URL)\n"
    "       arbiter tournament pair --file T.json --round R [OPTIONS] (LOG... | --db STORE | --pg URL)\n"
    "       arbiter tournament alarms --file T.json [OPTIONS] (LOG... | --db STORE | --pg URL)\n"
    "       arbiter tournament html --file T.json --out FILE [OPTIONS] (LOG... | --db STORE | --pg URL)\n"
    "       arbiter tournament stats --file T.json [--round R] [--json | --csv TABLE] [OPTIONS]\n"
    "                                (LOG... | --db STORE | --pg URL)\n"
    "       arbiter tournament wall --file T.json --round R --out FILE [OPTIONS] [LOG... | --db STORE | --pg URL]\n"
    "       arbiter tournament slips --file T.json --round R --out FILE [OPTIONS] [LOG... | --db STORE | --pg URL]\n"
    "\n"
    "A Mintayn tournament from its file (arbiter-tournament(5))\n"
    "and its records, each judged again by its format's engine: the standings,\n"
    "the pairings of the next round, or every alarm a judge must look at; or\n"
    "all of it as one self-contained HTML page (html); or the statistics (stats,\n"
    "T46: cards and classes shown, rules broken, game length, live progress);\n"
    "or, to print, a round's wall list (wall: pairings by table and by player,\n"
    "the standings before the round) or its match slips (slips: one per table).\n"
    "\n"
    "  --file T.json  the tournament file (required)\n"
    "  --db STORE     read the records of the store arbiterd keeps (read-only,\n"
    "                 beside a running daemon): the matches whose header names\n"
    "                 this tournament, each judged with the card database it pins\n"
    "  --pg URL       or the circuit's PostgreSQL database (libpq's URL;\n"
    "                 arbiter-pg(5)): the matches whose row names this\n"
    "                 tournament, from every venue, judged as from a store\n"
    "  LOG...         or read open logs (.jsonl, .mlog; '-' is stdin)\n"
    "  --after R      standings: after Swiss round R (default: the last Swiss\n"
    "                 round published)\n"
    "  --final        standings: the final standings, the bracket's order (T38)\n"
    "  --round R      pair: the round to pair, the next one to publish;\n"
    "                 stats: that round only (default: every round, and the\n"
    "                 progress of the last one published); wall, slips: the\n"
    "                 round published to print (required)\n"
    "  --view V       stats, html: public (default) or judge; the judge view\n"
    "                 adds the decklists' classes (cards count as shown in the\n"
    "                 public view in both)\n"
    "  --out FILE     html, wall, slips: the page to write ('-': stdout); each\n"
    "                 match id links to audit/MATCH.html beside it\n"
    "  --projector    html: text large enough to read across a hall\n"
    "  --seed S       the seed of draws where the file gives none (T27)\n"
    "  --cards FILE   the card database (logs: default $ARBITER_CARDS, else\n"
    "                 fixtures/cards/core.json here, else the installed copy;\n"
    "                 --db: instead of the one each record pins)\n"
    "  --json         the module's JSON (arbiter-tournament(1))\n"
    "  --csv          the module's CSV (RFC 4180); stats: --csv TABLE, one of\n"
    "                 cards, classes, rules, length, progress, decklists\n"
    "\n"
    "exit: 0 done (alarms: no open alarm), 1 alarms: an alarm no judge's result\n"
    "resolves, or pair: a result the pairing needs is pending, 2 bad usage or a\n"
    "file, store or card database that cannot be read, 3 internal error.\n";

typedef enum { SUB_STANDINGS, SUB_PAIR, SUB_ALARMS, SUB_HTML, SUB_STATS, SUB_WALL, SUB_SLIPS } tour_sub;

/* The commands' names, by tour_sub. */
static const char *const sub_names[] = {"standings", "pair", "alarms", "html", "stats", "wall", "slips"};
#define N_SUBS (sizeof sub_names / sizeof sub_names[0])

typedef struct {
    tour_sub sub;
    const char *file, *db, *cards, *seed, *out, *csv_table, *view, *pg;
    uint32_t after, round;
    int has_after, has_round, final;
    int json, csv, help, projector;
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
            cli_error("tournament needs a command: standings, pair, alarms, html, stats, wall or slips");
        return o->help ? 0 : -1;
    }
    size_t k = 0;
    while (k < N_SUBS && strcmp(argv[1], sub_names[k]))
        k++;
    if (k == N_SUBS) {
        cli_error("unknown tournament command '%s' (standings, pair, alarms, html, stats, wall, slips, or an organiser's command: see arbiter tournament --help)", argv[1]);
        return -1;
    }
    o->sub = (tour_sub)k;
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
        } else if (!strcmp(a, "--projector")) {
            o->projector = 1;
        } else if (o->sub == SUB_STATS && is_opt(a, "--csv")) {
            if (!(o->csv_table = opt_value(argc, argv, &i, "--csv")))
                return -1;
            o->csv = 1;
        } else if (!strcmp(a, "--csv")) {
            o->csv = 1;
        } else if (is_opt(a, "--view")) {
            if (!(o->view = opt_value(argc, argv, &i, "--view")))
                return -1;
        } else if (!strcmp(a, "--final")) {
            o->final = 1;
        } else if (is_opt(a, "--file") || is_opt(a, "--db") || is_opt(a, "--cards") || is_opt(a, "--seed")) {
            const char *name = is_opt(a, "--file") ? "--file" : is_opt(a, "--db") ? "--db"
                             : is_opt(a, "--cards") ? "--cards" : "--seed";
            if (!(v = opt_value(argc, argv, &i, name)))
                return -1;
            *(name[2] == 'f' ? &o->file : name[2] == 'd' ? &o->db : name[2] == 'c' ? &o->cards : &o->seed) = v;
        } else if (is_opt(a, "--pg")) {
            if (!(o->pg = opt_value(argc, argv, &i, "--pg")))
                return -1;
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
    int page = o->sub == SUB_HTML || o->sub == SUB_WALL || o->sub == SUB_SLIPS;

    if (!o->file)
        cli_error("tournament %s needs --file T.json", sub_names[o->sub]);
    else if (!!o->db + !!o->pg + !!o->n_paths > 1)
        cli_error("give one of --db STORE, --pg URL and log files");
    else if (o->json && o->csv)
        cli_error("give --json or --csv, not both");
    else if (page && !o->out)
        cli_error("tournament %s needs --out FILE", sub_names[o->sub]);
    else if (!page && o->out)
        cli_error("--out is for tournament html, wall and slips");
    else if (page && (o->json || o->csv))
        cli_error("tournament %s writes HTML: --json and --csv are for the other commands", sub_names[o->sub]);
    else if ((o->sub == SUB_PAIR || o->sub == SUB_WALL || o->sub == SUB_SLIPS) && !o->has_round)
        cli_error("tournament %s needs --round R", sub_names[o->sub]);
    else if (o->has_round && (o->sub == SUB_STANDINGS || o->sub == SUB_ALARMS || o->sub == SUB_HTML))
        cli_error("--round is for tournament pair, stats, wall and slips");
    else if (o->projector && o->sub != SUB_HTML)
        cli_error("--projector is for tournament html");
    else if (o->view && o->sub != SUB_STATS && o->sub != SUB_HTML)
        cli_error("--view is for tournament stats and html");
    else if (o->view && strcmp(o->view, "public") && strcmp(o->view, "judge"))
        cli_error("--view is public or judge, not '%s'", o->view);
    else if (o->csv_table && !tourstats_is_table(o->csv_table))
        cli_error("--csv needs a table: cards, classes, rules, length, progress or decklists, not '%s'",
                  o->csv_table);
    else if (o->sub != SUB_STANDINGS && (o->has_after || o->final))
        cli_error("--after and --final are for tournament standings");
    else if (o->has_after && o->final)
        cli_error("give --after R or --final, not both");
    else
        return 0;
    return -1;
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

static int judge_logs(tourrec_set *rs, const tour_opts *o)
{
    cards *db = NULL;
    progress p;
    char why[TOUR_TEXT_MAX];
    int rc = CLI_OK, got;

    if (o->n_paths && cli_load_cards(o->cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    progress_init(&p, (size_t)o->n_paths);
    for (int i = 0; i < o->n_paths && rc == CLI_OK; i++) {
        progress_show(&p, (size_t)i, (size_t)o->n_paths);
        why[0] = '\0';
        got = tourrec_judge_file(rs, db, o->paths[i], why, sizeof why);
        if (got < 0) {
            cli_error("%s: out of memory while judging", o->paths[i]);
            rc = CLI_INTERNAL;
        } else if (got > 0) {   /* nothing says whose it is: the organiser must hear of it */
            cli_error("%s: %s; it is no record of any tournament", o->paths[i], why);
        }
    }
    progress_clear(&p);
    cards_destroy(&db);
    return rc;
}

/* tourrec_progress for a terminal's progress line. */
typedef struct {
    progress p;
    int started;
} store_progress;

static int store_progress_fn(void *ctx, size_t done, size_t total)
{
    store_progress *sp = ctx;

    if (!sp->started) {
        progress_init(&sp->p, total);
        sp->started = 1;
    }
    if (done < total)
        progress_show(&sp->p, done, total);
    else
        progress_clear(&sp->p);
    return 0;   /* never stops */
}

/* The records of --pg: the tournament's matches of every venue, read into
 * a scratch store (pgload.h) that is then judged as --db's.  0 and the
 * folder in dir, or reported. */
static int load_pg(const tour_opts *o, const tournament *t, char *dir, size_t dirlen)
{
    PGconn *c = NULL;
    store *st = NULL;
    MDB_txn *txn = NULL;
    char err[1024] = "";
    size_t n = 0;
    int rc = CLI_BADINPUT;
    dir[0] = 0;
    if (pgconn_open(o->pg, 0, &c, err, sizeof err) || pgload_scratch(dir, dirlen, &st, err, sizeof err)) {
        cli_error("%s", err);
        goto out;
    }
    if (mdb_txn_begin(store_env(st), NULL, 0, &txn) ||
        pgload_tournament(c, tournament_id(t), st, txn, &n, err, sizeof err) || mdb_txn_commit(txn)) {
        if (txn)
            mdb_txn_abort(txn);
        cli_error("%s", err[0] ? err : "cannot write the scratch store");
        goto out;
    }
    rc = CLI_OK;
out:
    store_close(&st);   /* judge_store opens it again, read-only */
    if (rc && dir[0])
        pgload_scratch_remove(dir, &st);
    PQfinish(c);
    return rc;
}

static int judge_store(tourrec_set *rs, const tour_opts *o)
{
    store *st = NULL;
    MDB_txn *txn = NULL;
    cards *override = NULL;
    store_progress sp;
    char err[512], scratch[4096] = "";
    const char *dir = o->db;
    int rc = CLI_INTERNAL, got;

    memset(&sp, 0, sizeof sp);
    if (o->cards && cli_load_cards(o->cards, &override) != CLI_OK)
        return CLI_BADINPUT;
    if (o->pg) {
        if ((rc = load_pg(o, rs->t, scratch, sizeof scratch)))
            goto done;
        dir = scratch;
        rc = CLI_INTERNAL;
    }
    if (store_open(dir, 1, 0, &st, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_BADINPUT;
        goto done;
    }
    if (mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn)) {
        cli_error("the store %s cannot be read", dir);
        rc = CLI_BADINPUT;
        goto done;
    }
    got = tourrec_judge_store(rs, st, txn, override, 0, store_progress_fn, &sp, err, sizeof err);
    progress_clear(&sp.p);
    if (got == TOURREC_ESTORE) {
        cli_error("the store %s cannot be read", dir);
        rc = CLI_BADINPUT;
    } else if (got == TOURREC_ENOMEM && err[0]) {
        cli_error("%s: out of memory while judging", err);
    } else if (got == TOURREC_ETOOMANY) {
        cli_error("%s", err);
    } else if (got == TOURREC_OK) {
        rc = CLI_OK;
    }
done:
    if (txn)
        mdb_txn_abort(txn);
    store_close(&st);
    if (scratch[0])
        pgload_scratch_remove(scratch, &st);
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

/* T39, T40: the structure table's row used, and whether its player counts
 * are arbiter's reconstruction; nothing for a custom structure. */
static void print_structure(const tournament *t)
{
    const tour_structure *st = tournament_structure(t);
    if (!st->row)
        return;
    printf("structure: the %s table's row for %s registered players%s%s\n",
           st->kind == TOUR_TABLE_BASIC || st->fell_back ? "Basic" : "Advanced", st->row,
           st->fell_back ? " (the Advanced table has no row this small)" : "",
           st->reconstructed ? "; its player counts are arbiter's reconstruction (T40)" : "");
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
    print_structure(t);
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
    print_structure(t);
    if (p->labels && p->labels[0])   /* a round drawn at random; pairing a cut draws nothing */
        print_seed(p->labels, p->seed, p->seed_made);
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

/* text into path ("-": stdout), through htmlout_save().  CLI_OK, or
 * CLI_BADINPUT / CLI_INTERNAL (reported). */
static int write_page(const char *path, const jtext *text)
{
    char err[1024];
    int rc = htmlout_save(path, text, err, sizeof err);

    if (rc != HTMLOUT_OK)
        cli_error("%s", err);
    return rc == HTMLOUT_OK ? CLI_OK : rc == HTMLOUT_ENOMEM || !strcmp(path, "-") ? CLI_INTERNAL : CLI_BADINPUT;
}

/* ---- stats (T46) ------------------------------------------------------------------ */

static void print_scope(const tournament *t, const tourstats_scope *sc)
{
    char rate[48];

    if (sc->round)
        printf("\n%s, round %" PRIu32 ": %" PRIu64 " record%s\n", sc->format, sc->round, sc->records,
               sc->records == 1 ? "" : "s");
    else
        printf("\n%s, all rounds: %" PRIu64 " record%s\n", sc->format, sc->records, sc->records == 1 ? "" : "s");
    (void)t;
    printf("  %-28s %-10s %5s %6s %9s\n", "card shown", "class", "games", "times", "win rate");
    for (size_t i = 0; i < sc->n_cards; i++) {
        const tourstats_count *c = &sc->cards[i];
        snprintf(rate, sizeof rate, "%" PRIu64 "/%" PRIu64, c->wins, c->results);
        printf("  %-28s %-10s %5" PRIu64 " %6" PRIu64 " %9s\n", c->name, tourstats_class_name(c->cls), c->games,
               c->appearances, rate);
    }
    for (int k = 0; k < TOURSTATS_CLASSES; k++) {
        const tourstats_count *c = &sc->classes[k];
        if (!c->games)
            continue;
        snprintf(rate, sizeof rate, "%" PRIu64 "/%" PRIu64, c->wins, c->results);
        printf("  class %-22s %-10s %5" PRIu64 " %6" PRIu64 " %9s\n", c->name, "", c->games, c->appearances, rate);
    }
    for (size_t i = 0; i < sc->n_rules; i++)
        printf("  %s %s: %" PRIu64 " (in %zu record%s)\n", tourstats_verdict_name(sc->rules[i].verdict),
               sc->rules[i].rule, sc->rules[i].count, sc->rules[i].n_matches, sc->rules[i].n_matches == 1 ? "" : "s");
    printf("  finished games: %" PRIu64 " (events %" PRIu64 "-%" PRIu64 ", game rounds %" PRIu64 "-%" PRIu64
           "); ended at time: %" PRIu64 "\n", sc->finished.games, sc->finished.events_min, sc->finished.events_max,
           sc->finished.rounds_min, sc->finished.rounds_max, sc->at_time.games);
}

static void print_stats(const tournament *t, const tourstats *s)
{
    char a[2 * TOUR_STR_MAX + 8], b[2 * TOUR_STR_MAX + 8];

    printf("%s (%s): statistics (T46), %s view\n", tournament_name(t), tournament_id(t),
           s->judge_view ? "judge" : "public");
    for (size_t i = 0; i < s->n_scopes; i++)
        print_scope(t, &s->scopes[i]);
    if (s->progress_round)
        printf("\nround %" PRIu32 " progress:\n", s->progress_round);
    for (size_t i = 0; i < s->n_progress; i++) {
        const tourstats_progress *p = &s->progress[i];
        printf("  table %-3s %s  vs  %s: %s", p->table ? p->table : "-", who(t, p->player[0], a, sizeof a),
               who(t, p->player[1], b, sizeof b), tourstats_state_name(p->state));
        if (p->game_round)
            printf(" (game round %" PRIu32 ")", p->game_round);
        for (size_t k = 0; k < p->n_alarms; k++)
            printf("%s%s", k ? ", " : " (", p->alarms[k]);
        printf("%s\n", p->n_alarms ? ")" : "");
    }
    for (size_t i = 0; i < s->n_decks; i++) {
        const tourstats_deck *d = &s->decks[i];
        printf("%s%s decklist of %s", i ? "" : "\ndecklists by class:\n", d->played ? "  played" : "  registered",
               d->player);
        if (d->played)
            printf(" (round %" PRIu32 ", %s)", d->round, d->match);
        printf(": %" PRIu32 " cards;", d->cards);
        for (int k = 0; k < TOURSTATS_CLASSES; k++)
            if (d->classes[k])
                printf(" %s %" PRIu32, tourstats_class_name(k), d->classes[k]);
        printf("%s\n", d->unknown ? " and some of no known class" : "");
    }
}

/* The statistics of the judged set, for stats and html.  CLI_OK and *out,
 * or an exit code (reported). */
static int make_stats(const tour_opts *o, const tourrec_set *rs, const tour_results *r, tourstats **out)
{
    int judge = o->view && !strcmp(o->view, "judge");
    cards *db = NULL;
    int rc;

    if ((judge || tournament_decklists_public(rs->t)) && cli_load_cards(o->cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    rc = tourrec_stats(rs, r, db, judge, o->sub == SUB_STATS && o->has_round ? o->round : 0, out);
    cards_destroy(&db);
    if (rc) {
        cli_error("out of memory while counting the statistics");
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

static int run_stats(const tour_opts *o, const tourrec_set *rs, const tour_results *r, jtext *out)
{
    tourstats *s = NULL;
    int rc = make_stats(o, rs, r, &s);

    if (rc != CLI_OK)
        return rc;
    if (o->json)
        rc = print_text_of(out, tourstats_json(s, out), 1);
    else if (o->csv)
        rc = print_text_of(out, tourstats_csv(s, o->csv_table, out), 0);
    else
        print_stats(rs->t, s);
    tourstats_destroy(&s);
    return rc;
}

static int run_html(const tour_opts *o, const tourrec_set *rs, const tour_results *r, jtext *out)
{
    const tournament *t = rs->t;
    size_t records = rs->n;
    tourstats *s = NULL;
    int rc;
    char when[64] = "", clock[256];
    time_t now = time(NULL);
    struct timespec ts;
    struct tm tm;
    tourhtml_opts ho;
    tour_game *games = NULL;

    memset(&ho, 0, sizeof ho);
    ho.records = records;
    ho.projector = o->projector;
    if (now != (time_t)-1 && gmtime_r(&now, &tm) && strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm))
        ho.generated = when;
    /* the round clock of the last round published, while it is open */
    if (!clock_gettime(CLOCK_REALTIME, &ts) && tournament_rounds_published(t) &&
        !tournament_round_closed(t, tournament_rounds_published(t)) &&
        organise_clock_line(t, tournament_rounds_published(t),
                            (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000, clock, sizeof clock))
        ho.clock = clock;
    if ((rc = make_stats(o, rs, r, &s)) != CLI_OK)
        return rc;
    ho.stats = s;
    if (rs->n && !(games = malloc(rs->n * sizeof *games))) {
        tourstats_destroy(&s);
        cli_error("out of memory while writing the page");
        return CLI_INTERNAL;
    }
    for (size_t i = 0; i < rs->n; i++)
        games[i] = *tourrec_game(rs, i);
    ho.games = games;
    ho.n_games = rs->n;
    if (tourhtml_write(t, r, &ho, out) || out->bad) {
        cli_error("out of memory while writing the page");
        rc = CLI_INTERNAL;
    } else {
        rc = write_page(o->out, out);
    }
    free(games);
    tourstats_destroy(&s);
    return rc;
}

/* wall and slips: a page to print for round --round. */
static int run_print(const tour_opts *o, const tournament *t, const tour_results *r, jtext *out)
{
    char err[TOUR_TEXT_MAX];
    int rc = o->sub == SUB_WALL ? tourhtml_wall(t, r, o->round, out, err, sizeof err)
                                : tourhtml_slips(t, r, o->round, out, err, sizeof err);

    if (rc == TOUR_EINVAL) {
        cli_error("tournament %s: %s", sub_names[o->sub], err);
        return CLI_BADINPUT;
    }
    if (rc || out->bad) {
        cli_error("out of memory while writing the page");
        return CLI_INTERNAL;
    }
    return write_page(o->out, out);
}

static int load_file(const tour_opts *o, tournament **t)
{
    char err[TOUR_TEXT_MAX + 256] = "";
    int rc = tourrec_load_file(o->file, t, err, sizeof err);

    if (rc == TOURREC_ENOMEM)
        return tour_error(TOUR_ENOMEM, err);
    if (rc) {
        cli_error("%s: %s", o->file, err);
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
    tourrec_set rs;
    jtext out = {0};
    int rc;

    memset(&rs, 0, sizeof rs);
    if (argc >= 2 && organise_is_command(argv[1]))   /* new, add, ..., status: cmd_organise.c */
        return cmd_organise(argc, argv);
    if (parse_opts(argc, argv, &o) < 0 || (!o.help && check_opts(&o) < 0))
        return CLI_BADINPUT;
    if (o.help) {
        fputs(usage_text, stdout);
        fputs(organise_usage, stdout);
        return CLI_OK;
    }
    if ((rc = load_file(&o, &t)) != CLI_OK)
        goto done;
    rc = CLI_INTERNAL;
    if (tourrec_set_init(&rs, t))
        goto done;
    rs.stats = o.sub == SUB_STATS || o.sub == SUB_HTML;
    if ((rc = o.db || o.pg ? judge_store(&rs, &o) : judge_logs(&rs, &o)) != CLI_OK)
        goto done;
    if ((rc = tourrec_results(&rs, &r)) != 0) {
        rc = tour_error(rc, "too many records for one tournament");
        goto done;
    }
    rc = o.sub == SUB_STANDINGS ? run_standings(&o, t, r, &out)
       : o.sub == SUB_PAIR ? run_pair(&o, t, r, &out)
       : o.sub == SUB_HTML ? run_html(&o, &rs, r, &out) : o.sub == SUB_STATS ? run_stats(&o, &rs, r, &out)
       : o.sub == SUB_WALL || o.sub == SUB_SLIPS ? run_print(&o, t, r, &out)
       : run_alarms(&o, t, r, &out);
    if (o.sub != SUB_ALARMS && o.sub != SUB_SLIPS && rc == CLI_OK && open_alarms(r))
        cli_error("%zu open alarm%s: see arbiter tournament alarms", open_alarms(r), open_alarms(r) == 1 ? "" : "s");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the output");
        rc = CLI_INTERNAL;
    }
done:
    jtext_free(&out);
    tour_results_destroy(&r);
    tourrec_set_free(&rs);
    tournament_destroy(&t);
    return rc;
}

int tournament_judge_records(tourrec_set *rs, const char *db, const char *cards_path, char **paths, int n_paths)
{
    tour_opts o;

    memset(&o, 0, sizeof o);
    o.sub = SUB_PAIR;
    o.db = db;
    o.cards = cards_path;
    o.paths = paths;
    o.n_paths = n_paths;
    return db ? judge_store(rs, &o) : judge_logs(rs, &o);
}
