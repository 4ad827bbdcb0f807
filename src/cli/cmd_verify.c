/* cmd_verify.c -- `arbiter verify`: replay open logs through their engine.
 *
 *   arbiter verify [--cards FILE] [-j N] [--json] [--quiet] [--from LIST] FILE...
 *
 * A tournament hands the judges a directory of match logs after each
 * round; they want to know, quickly, which games were played by the rules
 * and, for the others, which event broke which rule.  So this command takes
 * many files, verifies them on N threads (src/core/verify.c does the work and
 * prints nothing), and prints one report per file *in the order given*, not
 * in the order the threads finish: the same input gives byte-identical
 * output whatever -j is, so outputs can be diffed and scripts can rely on
 * line order.  Results are printed as soon as every earlier file is done,
 * so a long batch shows progress on stdout too.
 *
 * The pool is the simplest that works: workers claim the next unclaimed
 * file index under a mutex, store their report in its slot and signal; the
 * main thread waits for slot 0, 1, 2... in turn and prints each.  A
 * progress line goes to stderr only when stderr is a terminal (a judge
 * watching), never into a pipe or a log file, and is wiped before anything
 * is written to stdout so the two never interleave on one screen.
 *
 * --from LIST adds the paths of a file (one a line; '-' is stdin) after
 * the operands: a batch of a million logs does not fit the kernel's
 * argument space (some 6 MiB at most), and one process must see the whole
 * batch for its report to be one report.  The list is read whole into one
 * buffer and cut in place, so it costs its own bytes plus a pointer a path.
 *
 * Exit code: the worst over all files -- 0 legal, 1 illegal, 2 unreadable
 * (including a log whose format has no engine yet), 3 internal error.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "logformat/olcodec.h"
#include "src/cli/cli.h"
#include "src/core/carddb.h"
#include "src/core/verify.h"

#define VERIFY_JOBS_MAX 256

static const char usage_text[] =
    "usage: arbiter verify [--cards FILE] [-j N] [--json] [--quiet] [--from LIST] FILE...\n"
    "\n"
    "Replay each open log (.jsonl or .mlog; '-' reads JSON Lines from stdin)\n"
    "through the rules engine of its format and judge every event: ok, warning,\n"
    "illegal, mismatch, duplicate, conflict, gap or malformed (openlog.md 8);\n"
    "held at a table that pauses for a judge's remedy (SPEC.md 8.1).\n"
    "\n"
    "  --cards FILE  judge with this card database, which the header must name;\n"
    "                without it, with the one the header names of core.json,\n"
    "                standard.json and core-1.0.0.json (fixtures/cards/ here,\n"
    "                else the installed copies); $ARBITER_CARDS names one file\n"
    "                to use instead of those three\n"
    "  -j N          verify N files at once (default: the online CPUs)\n"
    "  --json        one JSON object per file and line, keys in this order:\n"
    "                {\"file\",\"match\",\"format\",\"engine\",\"status\",\"winner\",\n"
    "                 \"finished\",\"draw\" (only when true),\"events\",\n"
    "                 \"counts\":{STATUS:N,...},\"unverified\":{\"p1\":N,...,\"pN\":N},\n"
    "                 \"verdicts\":[every verdict that is not ok]}, then\n"
    "                \"later\":[the later verdicts of held events] and\n"
    "                \"paused\":SEQ when there are any, and \"error\" when\n"
    "                status is \"unreadable\"\n"
    "  --quiet       report only the logs that are not legal; no summary\n"
    "                and no progress line\n"
    "  --from LIST   verify the files LIST names too, one path a line (empty\n"
    "                lines skipped), after the FILE operands; '-' reads the\n"
    "                list from stdin (then no log can be read from stdin);\n"
    "                for batches too long for the command line\n"
    "\n"
    "Output: \"FILE: legal (snap, 62 events, p2 won)\" or \"FILE: illegal (snap,\n"
    "62 events: 1 illegal)\", then one line per verdict that is not ok:\n"
    "  seq N  STATUS  RULE  SENTENCE\n"
    "then one per later verdict of a held event, and \"paused at ...\" when the\n"
    "log ends awaiting a judge's remedy; and at the end \"verified N files: L legal, I illegal, U unreadable\".\n"
    "Reports come in the order of the arguments, whatever -j is.\n"
    "\n"
    "A log is legal when every verdict is ok, warning or duplicate.\n"
    "exit: 0 every log legal, 1 a log has another verdict, 2 bad usage or a\n"
    "log that cannot be read or verified (missing file, malformed header, no\n"
    "engine for its format yet), 3 internal error.  2 wins over 1.\n";

typedef struct {
    const char *cards;
    const char *from;         /* --from LIST, or NULL */
    int jobs;                 /* 0: not given */
    int json;
    int quiet;
    int help;
    char **paths;             /* argv's operands, or the list's array (owned) */
    int n_paths;
    int paths_owned;          /* paths is the list's array, to free */
    char *list;               /* --from: the list's bytes, cut in place (owned) */
} verify_opts;

/* One file's outcome, filled by whichever thread verified it. */
typedef struct {
    verify_report *report;    /* NULL when out of memory */
    int done;
} verify_slot;

/* How many files past the last one printed the workers may judge ahead:
 * the reports waiting to be printed in argument order are at most this
 * many, so memory stays flat however many files are named (a slow file or
 * a stalled stdout makes the workers wait, not pile reports up). */
#define VERIFY_WINDOW 64

typedef struct {
    const carddb_shelf *shelf;   /* read-only: shared by the workers */
    char **paths;
    int n;
    verify_slot *slots;       /* a ring of VERIFY_WINDOW: file i in
                                 slots[i % VERIFY_WINDOW]              */
    int next;                 /* the next file no worker has claimed */
    int printed;              /* files printed (in argument order)    */
    int n_done, n_illegal, n_unreadable;
    pthread_mutex_t mu;
    pthread_cond_t cv;        /* a file is done (the printer waits)   */
    pthread_cond_t room;      /* a file is printed (workers wait)     */
} verify_pool;

static int worst(int a, int b)
{
    return a > b ? a : b;
}

/* ---- options -------------------------------------------------------------- */

static int parse_jobs(const char *s, int *jobs)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);

    if (!*s || *end || v < 1 || v > VERIFY_JOBS_MAX) {
        cli_error("-j needs a number of threads from 1 to %d, not '%s'", VERIFY_JOBS_MAX, s);
        return -1;
    }
    *jobs = (int)v;
    return 0;
}

/* Options anywhere, operands collected in place; "--" ends the options. */
static int parse_opts(int argc, char **argv, verify_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    o->paths = argv + 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (rest || a[0] != '-' || !strcmp(a, "-")) {
            o->paths[o->n_paths++] = argv[i];
        } else if (!strcmp(a, "--")) {
            rest = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = 1;
        } else if (!strncmp(a, "--cards=", 8)) {
            o->cards = a + 8;
        } else if (!strncmp(a, "--from=", 7)) {
            o->from = a + 7;
        } else if (!strncmp(a, "--jobs=", 7)) {
            if (parse_jobs(a + 7, &o->jobs) < 0)
                return -1;
        } else if (!strncmp(a, "-j", 2) && a[2]) {
            if (parse_jobs(a + 2, &o->jobs) < 0)
                return -1;
        } else if (!strcmp(a, "--cards") || !strcmp(a, "-j") || !strcmp(a, "--jobs") ||
                   !strcmp(a, "--from")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", a);
                return -1;
            }
            if (!strcmp(a, "--cards"))
                o->cards = argv[++i];
            else if (!strcmp(a, "--from"))
                o->from = argv[++i];
            else if (parse_jobs(argv[++i], &o->jobs) < 0)
                return -1;
        } else {
            cli_error("unknown option '%s' (try arbiter verify --help)", a);
            return -1;
        }
    }
    return 0;
}

/* --from LIST: read the list whole, cut it into lines in place, and make
 * o->paths the operands followed by the list's non-empty lines.  On error,
 * a sentence on stderr and -1; o->list and o->paths are freed by
 * opts_release() either way. */
static int read_list(verify_opts *o)
{
    int from_stdin = !strcmp(o->from, "-");
    FILE *f = from_stdin ? stdin : fopen(o->from, "rb");
    size_t len = 0, cap = 0, n_lines = 0;
    char **paths;
    int rc = 0;

    if (!f) {
        cli_error("cannot open the list %s", o->from);
        return -1;
    }
    for (int i = 0; from_stdin && i < o->n_paths; i++) {
        if (!strcmp(o->paths[i], "-")) {
            cli_error("--from - and the operand '-' cannot both read stdin");
            rc = -1;
            goto done;
        }
    }
    for (;;) {   /* the whole list, doubling the buffer */
        if (cap - len < 2) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb = realloc(o->list, ncap);
            if (!nb) {
                cli_error("out of memory reading the list %s", o->from);
                rc = -1;
                goto done;
            }
            o->list = nb;
            cap = ncap;
        }
        size_t got = fread(o->list + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        cli_error("cannot read the list %s", o->from);
        rc = -1;
        goto done;
    }
    o->list[len] = '\0';
    if (memchr(o->list, '\0', len)) {
        cli_error("the list %s holds a NUL byte: one path a line, please", o->from);
        rc = -1;
        goto done;
    }
    for (size_t k = 0; k < len; k++)
        n_lines += o->list[k] == '\n';
    n_lines++;   /* a last line without its newline */
    if (n_lines + (size_t)o->n_paths > (size_t)INT_MAX) {
        cli_error("the list %s names more than %d files", o->from, INT_MAX);
        rc = -1;
        goto done;
    }
    paths = malloc((n_lines + (size_t)o->n_paths) * sizeof *paths);
    if (!paths) {
        cli_error("out of memory reading the list %s", o->from);
        rc = -1;
        goto done;
    }
    memcpy(paths, o->paths, (size_t)o->n_paths * sizeof *paths);
    o->paths = paths;
    o->paths_owned = 1;
    for (char *line = o->list, *nl; line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        if (*line)
            o->paths[o->n_paths++] = line;
    }
done:
    if (!from_stdin)
        fclose(f);
    return rc;
}

static void opts_release(verify_opts *o)
{
    if (o->paths_owned)
        free(o->paths);
    free(o->list);
    o->list = NULL;
    o->paths = NULL;
    o->paths_owned = 0;
}

/* ---- printing --------------------------------------------------------------- */

static int file_code(const verify_report *r)
{
    if (!r)
        return CLI_INTERNAL;
    return r->status == VERIFY_LEGAL ? CLI_OK
         : r->status == VERIFY_ILLEGAL ? CLI_ILLEGAL : CLI_BADINPUT;
}

/* "1 illegal, 2 warning": the counts of every status but ok, in the
 * contract's order; "" when all are ok. */
static void count_list(const verify_report *r, char *out, size_t cap)
{
    size_t k = 0;

    out[0] = '\0';
    for (int s = OL_V_OK + 1; s < OL_V_COUNT && k < cap; s++) {
        if (!r->counts[s])
            continue;
        int n = snprintf(out + k, cap - k, "%s%zu %s", k ? ", " : "", r->counts[s],
                         ol_status_name((ol_status)s));
        if (n < 0)
            break;
        k += (size_t)n;
    }
}

static void print_text(const verify_report *r)
{
    char counts[256];
    size_t n = r->n_verdicts;

    if (r->status == VERIFY_UNREADABLE) {
        printf("%s: unreadable: %s\n", r->name, r->error);
        return;
    }
    count_list(r, counts, sizeof counts);
    printf("%s: %s (%s, %zu event%s", r->name, verify_status_name(r->status),
           r->format[0] ? r->format : "no header", n, n == 1 ? "" : "s");
    if (r->status == VERIFY_ILLEGAL) {
        printf(": %s)\n", counts);
    } else {
        if (counts[0])
            printf(", %s", counts);
        if (r->finished && r->winner >= 0)
            printf(", %s won)\n", ol_player_name((ol_player)r->winner));
        else
            printf(", %s)\n", r->draw ? "a draw" : r->finished ? "no winner" : "unfinished");
    }
    unsigned seats = r->n_players < 2 ? 2 : r->n_players, any = 0;
    for (unsigned p = 0; p < seats; p++)
        any |= r->unverified[p];
    if (any) {   /* "3 hidden cards of p1, 0 of p2 and 2 of p3" */
        printf("  unverifiable: %u hidden card%s of p1", r->unverified[0], r->unverified[0] == 1 ? "" : "s");
        for (unsigned p = 1; p < seats; p++)
            printf("%s%u of %s", p + 1 == seats ? " and " : ", ", r->unverified[p], ol_player_name((ol_player)p));
        printf(" were never revealed\n");
    }
    for (size_t i = 0; i < n; i++) {
        const olverdict *v = &r->verdicts[i].v;
        if (v->status == OL_V_OK)
            continue;
        if (v->has_seq)
            printf("  seq %llu", (unsigned long long)v->seq);
        else
            printf("  seq -");
        printf("  %s  %s  %s\n", ol_status_name(v->status), v->rule[0] ? v->rule : "-",
               v->msg);
    }
    /* SPEC.md 8.1: what the judges' remedies made of the held events */
    for (size_t i = 0; i < r->n_later; i++) {
        const olverdict *v = &r->later[i];
        printf("  seq %llu  later, after the remedy at seq %llu: %s  %s  %s\n", (unsigned long long)v->seq,
               (unsigned long long)v->remedy, ol_status_name(v->status), v->rule[0] ? v->rule : "-", v->msg);
    }
    if (r->paused)
        printf("  paused at the illegal action at seq %llu: no judge has given a remedy\n",
               (unsigned long long)r->paused_seq);
}

static int print_json(const verify_report *r)
{
    return cli_print_json(verify_report_json(r));
}

/* Print one file's report (or its failure); its exit code. */
static int print_report(const char *path, const verify_report *r, const verify_opts *o)
{
    int rc = file_code(r);

    if (!r) {
        cli_error("%s: out of memory while verifying", path);
        return CLI_INTERNAL;
    }
    if (o->quiet && rc == CLI_OK)
        return rc;
    if (o->json)
        return worst(rc, print_json(r));
    print_text(r);
    return rc;
}

/* ---- progress (stderr, terminals only) ------------------------------------------ */

typedef struct {
    int on;
    int shared;               /* stdout is the same screen: wipe before printing */
    int width;                /* characters now on the line */
} verify_progress;

static void progress_clear(verify_progress *p)
{
    if (!p->on || !p->width)
        return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->width = 0;
}

static void progress_show(verify_progress *p, int done, int total, int illegal, int unreadable)
{
    char line[128];
    int n;

    if (!p->on)
        return;
    n = snprintf(line, sizeof line, "verifying %d/%d files, %d illegal", done, total, illegal);
    if (unreadable && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %d unreadable", unreadable);
    if (n < 0)
        return;
    /* Pad over a longer previous line rather than rely on terminal codes. */
    fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
    fflush(stderr);
    p->width = worst(n, p->width);
}

/* ---- the pool ----------------------------------------------------------------- */

static void *worker(void *arg)
{
    verify_pool *pool = arg;
    /* this thread's own memo of legal decklists: no lock, no race */
    verify_decks *decks = verify_decks_new();

    for (;;) {
        verify_report *r = NULL;
        int i;

        pthread_mutex_lock(&pool->mu);
        while (pool->next < pool->n && pool->next >= pool->printed + VERIFY_WINDOW)
            pthread_cond_wait(&pool->room, &pool->mu);
        i = pool->next < pool->n ? pool->next++ : -1;
        pthread_mutex_unlock(&pool->mu);
        if (i < 0)
            break;
        if (verify_file_decks(pool->shelf, decks, pool->paths[i], &r) != VERIFY_OK)
            r = NULL;
        pthread_mutex_lock(&pool->mu);
        pool->slots[i % VERIFY_WINDOW].report = r;
        pool->slots[i % VERIFY_WINDOW].done = 1;
        pool->n_done++;
        pool->n_illegal += r && r->status == VERIFY_ILLEGAL;
        pool->n_unreadable += !r || r->status == VERIFY_UNREADABLE;
        pthread_cond_signal(&pool->cv);
        pthread_mutex_unlock(&pool->mu);
    }
    verify_decks_destroy(&decks);
    return NULL;
}

/* Tally one printed report into the summary. */
static void tally(const verify_report *r, int sum[3])
{
    sum[!r ? 2 : r->status == VERIFY_LEGAL ? 0 : r->status == VERIFY_ILLEGAL ? 1 : 2]++;
}

static int print_one(verify_progress *p, const char *path, const verify_report *r,
                     const verify_opts *o, int sum[3])
{
    int rc;

    if (p->shared)
        progress_clear(p);
    rc = print_report(path, r, o);
    if (fflush(stdout) != 0)
        rc = CLI_INTERNAL;
    tally(r, sum);
    return rc;
}

/* -j 1: no threads at all, so a debugger or a sanitizer sees one stack. */
static int run_inline(const carddb_shelf *shelf, const verify_opts *o, verify_progress *p, int sum[3])
{
    int rc = CLI_OK, illegal = 0, unreadable = 0;
    verify_decks *decks = verify_decks_new();   /* NULL: decks checked in full */

    for (int i = 0; i < o->n_paths; i++) {
        verify_report *r = NULL;
        progress_show(p, i, o->n_paths, illegal, unreadable);
        if (verify_file_decks(shelf, decks, o->paths[i], &r) != VERIFY_OK)
            r = NULL;
        illegal += r && r->status == VERIFY_ILLEGAL;
        unreadable += !r || r->status == VERIFY_UNREADABLE;
        rc = worst(rc, print_one(p, o->paths[i], r, o, sum));
        verify_report_destroy(&r);
    }
    verify_decks_destroy(&decks);
    return rc;
}

static int run_pool(const carddb_shelf *shelf, const verify_opts *o, int jobs, verify_progress *p,
                    int sum[3])
{
    verify_pool pool;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    int started = 0, rc = CLI_OK;

    memset(&pool, 0, sizeof pool);
    pool.shelf = shelf;
    pool.paths = o->paths;
    pool.n = o->n_paths;
    pool.slots = calloc(VERIFY_WINDOW, sizeof *pool.slots);
    if (!threads || !pool.slots) {
        cli_error("out of memory");
        rc = CLI_INTERNAL;
        goto done;
    }
    if (pthread_mutex_init(&pool.mu, NULL) != 0) {
        cli_error("cannot create a mutex");
        rc = CLI_INTERNAL;
        goto done;
    }
    if (pthread_cond_init(&pool.cv, NULL) != 0) {
        pthread_mutex_destroy(&pool.mu);
        cli_error("cannot create a condition variable");
        rc = CLI_INTERNAL;
        goto done;
    }
    if (pthread_cond_init(&pool.room, NULL) != 0) {
        pthread_cond_destroy(&pool.cv);
        pthread_mutex_destroy(&pool.mu);
        cli_error("cannot create a condition variable");
        rc = CLI_INTERNAL;
        goto done;
    }
    /* jansson seeds its hash function on first use; do it before threads. */
    json_object_seed(0);
    for (int t = 0; t < jobs; t++) {
        if (pthread_create(&threads[t], NULL, worker, &pool) != 0)
            break;   /* fewer threads still finish the work */
        started++;
    }
    if (started == 0) {
        pthread_cond_destroy(&pool.room);
        pthread_cond_destroy(&pool.cv);
        pthread_mutex_destroy(&pool.mu);
        rc = run_inline(shelf, o, p, sum);
        goto done;
    }
    for (int i = 0; i < pool.n; i++) {
        verify_report *r;
        pthread_mutex_lock(&pool.mu);
        verify_slot *slot = &pool.slots[i % VERIFY_WINDOW];
        while (!slot->done) {
            int d = pool.n_done, il = pool.n_illegal, un = pool.n_unreadable;
            pthread_mutex_unlock(&pool.mu);
            progress_show(p, d, pool.n, il, un);
            pthread_mutex_lock(&pool.mu);
            if (!slot->done && d == pool.n_done)
                pthread_cond_wait(&pool.cv, &pool.mu);
        }
        r = slot->report;
        slot->report = NULL;
        slot->done = 0;
        pool.printed = i + 1;
        pthread_cond_broadcast(&pool.room);
        pthread_mutex_unlock(&pool.mu);
        rc = worst(rc, print_one(p, o->paths[i], r, o, sum));
        verify_report_destroy(&r);
    }
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    pthread_cond_destroy(&pool.room);
    pthread_cond_destroy(&pool.cv);
    pthread_mutex_destroy(&pool.mu);
done:
    free(threads);
    free(pool.slots);
    return rc;
}

static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > VERIFY_JOBS_MAX ? VERIFY_JOBS_MAX : (int)n;
}

int cmd_verify(int argc, char **argv)
{
    verify_opts o;
    verify_progress p = {0, 0, 0};
    carddb_shelf *shelf = NULL;
    int sum[3] = {0, 0, 0}, jobs, rc;

    if (parse_opts(argc, argv, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(usage_text, stdout);
        return CLI_OK;
    }
    if (o.from && read_list(&o) < 0) {
        opts_release(&o);
        return CLI_BADINPUT;
    }
    if (o.n_paths == 0) {
        cli_error("verify needs at least one log file");
        fputs(usage_text, stderr);
        opts_release(&o);
        return CLI_BADINPUT;
    }
    if (cli_load_shelf(o.cards, &shelf) != CLI_OK) {
        opts_release(&o);
        return CLI_BADINPUT;
    }
    jobs = o.jobs ? o.jobs : default_jobs();
    if (jobs > o.n_paths)
        jobs = o.n_paths;
    p.on = !o.quiet && isatty(STDERR_FILENO);
    p.shared = isatty(STDOUT_FILENO);
    rc = jobs <= 1 ? run_inline(shelf, &o, &p, sum) : run_pool(shelf, &o, jobs, &p, sum);
    progress_clear(&p);
    if (!o.json && !o.quiet)
        printf("verified %d file%s: %d legal, %d illegal, %d unreadable\n", o.n_paths,
               o.n_paths == 1 ? "" : "s", sum[0], sum[1], sum[2]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the report");
        rc = worst(rc, CLI_INTERNAL);
    }
    carddb_shelf_destroy(&shelf);
    opts_release(&o);
    return rc;
}
