/* cmd_organise.c -- the organiser's commands: `arbiter tournament new`,
 * `add`, `drop`, `late-entry`, `publish`, `result`, `time-call`, `close`,
 * `undo` and `status`, which keep the tournament file.
 *
 * An organiser used to run an event by editing the tournament file's JSON
 * by hand: pasting `pair --json` into `rounds`, typing time calls as epoch
 * milliseconds.  Each command here makes one such change, as
 * src/tournament/tourorg.h says, and this file does the rest:
 *
 *   - the file: read whole (at most TOUR_FILE_MAX bytes) and loaded by
 *     tournament_load() -- a file arbiter refuses is refused here too; the
 *     edited tree written as text and loaded again, the same validation
 *     every reader runs, before a byte is written; then written through
 *     durable_replace() (a temporary beside it, fsync'd, renamed).  On any
 *     refusal the file is not touched.
 *   - the history: before each change the file's bytes as they were go to
 *     T.json.history/NNNNNN.json (at most HISTORY_MAX versions, the oldest
 *     dropped); `undo` puts the newest back, byte for byte, and removes it,
 *     so several undos walk back.  Commands on one file take turns: each
 *     holds an flock() on the history folder while it reads and writes.
 *   - the clock: times of day as people write them ("14:05", "14:05:30"),
 *     on the round's date, in the event's time zone (the file's
 *     "timezone", an IANA name such as "Europe/Paris", through the C
 *     library's TZ; absent, the computer's own zone), stored as the file's
 *     ms since the epoch.
 *   - the records, for `publish` and `status`: judged by the code `tournament
 *     pair` runs (tournament_judge_records() in cmd_tournament.c), so a
 *     round is paired exactly as `pair` pairs it.
 *   - the decklist of `add` and `late-entry`: read by deckfile_load() and
 *     checked by deckfile_check() under the event's levers
 *     (deckfile_levers()), as `arbiter deck check --rules` checks it; an
 *     illegal deck is refused with every violation listed.
 *
 * Exit codes (ORG_*): 0 done; 1 status: an alarm no judge's result
 * resolves; 2 bad usage or refused input, the file unchanged; 3 internal
 * error, the file unchanged; 4 publish: a result the pairing needs is
 * pending, the file unchanged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "logformat/olcodec.h"
#include "src/cli/cli.h"
#include "src/cli/cmd_organise.h"
#include "src/core/carddb.h"
#include "src/core/deckfile.h"
#include "src/core/durable.h"
#include "src/tournament/tournament.h"
#include "src/tournament/tourout.h"
#include "src/tournament/tourpair.h"
#include "src/tournament/tourresult.h"
#include "src/tournament/tourorg.h"
#include "verifiers/deck.h"

#define HISTORY_MAX 100          /* versions kept for undo                      */
#define ERR_MAX (TOUR_TEXT_MAX + 4096)

enum { ORG_OK = CLI_OK, ORG_ALARMS = 1, ORG_REFUSED = CLI_BADINPUT, ORG_INTERNAL = CLI_INTERNAL, ORG_PENDING = 4 };

const char organise_usage[] =
    "\n"
    "The organiser's commands keep the tournament file (each checks, then\n"
    "writes the file whole through a temporary, the previous version kept):\n"
    "       arbiter tournament new --file T.json --id ID --name NAME --format F\n"
    "                          (--structure basic|advanced | --swiss-rounds S --cut N)\n"
    "                          [--rule K=V]... [--round-minutes M] [--timezone TZ]\n"
    "                          [--seed S] [--cards FILE] [--tier T] [--decklists-public]\n"
    "                          [--cut-on-later-day]\n"
    "       arbiter tournament add --file T.json --player ID --name NAME [--deck FILE]\n"
    "       arbiter tournament drop --file T.json --player ID [--reason R] [--after R]\n"
    "       arbiter tournament late-entry --file T.json --player ID [--name NAME]\n"
    "                          [--deck FILE] [--round R]\n"
    "       arbiter tournament publish --file T.json --round R [--start TIME]\n"
    "                          (LOG... | --db STORE)\n"
    "       arbiter tournament result --file T.json --round R --table T\n"
    "                          (--winner ID | --draw [--draw-win ID] | --engine | --at-time\n"
    "                          | --double-loss) [--scores ID=N,ID=N] [--match M]\n"
    "                          --judge NAME --text SENTENCE\n"
    "       arbiter tournament report --file T.json [--round R] --table T\n"
    "                          (--winner ID | --draw) [--scores ID=N,ID=N]\n"
    "       arbiter tournament intentional-draw --file T.json [--round R] --table T\n"
    "       arbiter tournament time-call --file T.json --round R [--table T] TIME\n"
    "       arbiter tournament close --file T.json --round R\n"
    "       arbiter tournament undo --file T.json\n"
    "       arbiter tournament status --file T.json [--at TIME] [LOG... | --db STORE]\n"
    "\n"
    "  --id ID          new: the tournament's id (its records' event.tournament)\n"
    "  --name NAME      new: the event's name; add, late-entry: the player's\n"
    "  --format F       new: snap, advanced or master\n"
    "  --structure S    new: the Basic or Advanced table (T39, T40)\n"
    "  --swiss-rounds S new: S Swiss rounds, then --cut N: 0, 4, 8, 16, 32, or\n"
    "                   all with --swiss-rounds 0\n"
    "  --cut N          new: the cut, with --swiss-rounds\n"
    "  --rule K=V       new: a variant lever of the event (repeat for each)\n"
    "  --round-minutes M  new: the length of a round, for the round clock\n"
    "  --timezone TZ    new: the event's time zone, such as Europe/Paris (default:\n"
    "                   this computer's)\n"
    "  --tier T         new: relaxed, formal or premier (kept and shown, T47)\n"
    "  --decklists-public  new: decklists' statistics in public exports (T46)\n"
    "  --cut-on-later-day  new: the cut is played on a later day (T33)\n"
    "  --player ID      add, drop, late-entry: the player's id\n"
    "  --deck FILE      add, late-entry: the decklist, checked against the format\n"
    "                   and the event's levers; refused, every violation listed,\n"
    "                   when illegal\n"
    "  --reason R       drop: drop (default), no_show or disqualified (T22)\n"
    "  --after R        drop: the last round played (default: the current one;\n"
    "                   0: before round 1)\n"
    "  --round R        the round (late-entry: default the next one; report,\n"
    "                   intentional-draw: default the current one)\n"
    "  --start TIME     publish: when the round starts (default: now)\n"
    "  --table T        result, report, intentional-draw, time-call: the table\n"
    "                   (time-call: default all)\n"
    "  --winner ID      result, report: the winner\n"
    "  --draw           result, report: a draw (T14)\n"
    "  --draw-win ID    result --draw: the player given the draw win (T14)\n"
    "  --engine         result: the record's own result stands (an illegal record\n"
    "                   let stand)\n"
    "  --at-time        result: the record as it stood when time was called (T12)\n"
    "  --double-loss    result: a loss for both players\n"
    "  --scores S       result, report: the players' scores, as alice=3,bob=1\n"
    "  --match M        result: the record that counts when a table has two\n"
    "  --judge NAME     result: the head judge\n"
    "  --text SENTENCE  result: why, a sentence\n"
    "  --at TIME        status: the clock as at TIME (default: now)\n"
    "  TIME             a time of day, HH:MM or HH:MM:SS, on the round's date in\n"
    "                   the event's time zone\n"
    "\n"
    "Undo keeps the last 100 versions in T.json.history/ beside the file.\n"
    "exit (organiser's commands): 0 done, 1 status: an open alarm, 2 bad usage\n"
    "or refused input (the file unchanged), 3 internal error (the file\n"
    "unchanged), 4 publish: a result the pairing needs is pending.\n";

/* ---- options, as a table -------------------------------------------------------- */

typedef enum {
    C_NEW, C_ADD, C_DROP, C_LATE, C_PUBLISH, C_RESULT, C_TIMECALL, C_CLOSE, C_UNDO, C_STATUS, C_REPORT, C_IDRAW
} org_cmd;

#define B(c) (1u << (c))
#define ALL 0xfffu

static const struct {
    const char *name;
    org_cmd cmd;
    unsigned operands;            /* 1: LOG... (or TIME for time-call)          */
} commands[] = {
    {"new", C_NEW, 0},       {"add", C_ADD, 0},           {"drop", C_DROP, 0},   {"late-entry", C_LATE, 0},
    {"publish", C_PUBLISH, 1}, {"result", C_RESULT, 0},  {"time-call", C_TIMECALL, 1},
    {"close", C_CLOSE, 0},   {"undo", C_UNDO, 0},         {"status", C_STATUS, 1},
    {"report", C_REPORT, 0}, {"intentional-draw", C_IDRAW, 0},
};

typedef struct {
    org_cmd cmd;
    const char *file, *id, *name, *format, *structure, *swiss, *cut, *minutes, *timezone, *seed, *cards;
    const char *player, *deck, *reason, *after, *round, *start, *table, *winner, *draw, *judge, *text, *at, *db;
    const char *engine, *at_time, *double_loss, *draw_win, *scores, *match, *tier, *lists_public, *later_day;
    json_t *rules;
    char **operands;
    int n_operands, help;
} org_opts;

static const struct {
    const char *name;
    size_t field;                 /* offsetof(org_opts, ...)                    */
    int flag;                     /* takes no value                             */
    unsigned cmds;                /* B(cmd) of the commands it is for           */
    int required;                 /* required by every command of cmds          */
} options[] = {
    {"--file", offsetof(org_opts, file), 0, ALL, 1},
    {"--id", offsetof(org_opts, id), 0, B(C_NEW), 1},
    {"--name", offsetof(org_opts, name), 0, B(C_NEW) | B(C_ADD) | B(C_LATE), 0},
    {"--format", offsetof(org_opts, format), 0, B(C_NEW), 1},
    {"--structure", offsetof(org_opts, structure), 0, B(C_NEW), 0},
    {"--swiss-rounds", offsetof(org_opts, swiss), 0, B(C_NEW), 0},
    {"--cut", offsetof(org_opts, cut), 0, B(C_NEW), 0},
    {"--round-minutes", offsetof(org_opts, minutes), 0, B(C_NEW), 0},
    {"--timezone", offsetof(org_opts, timezone), 0, B(C_NEW), 0},
    {"--seed", offsetof(org_opts, seed), 0, B(C_NEW) | B(C_PUBLISH), 0},
    {"--cards", offsetof(org_opts, cards), 0, B(C_NEW) | B(C_ADD) | B(C_LATE) | B(C_PUBLISH) | B(C_STATUS), 0},
    {"--player", offsetof(org_opts, player), 0, B(C_ADD) | B(C_DROP) | B(C_LATE), 1},
    {"--deck", offsetof(org_opts, deck), 0, B(C_ADD) | B(C_LATE), 0},
    {"--reason", offsetof(org_opts, reason), 0, B(C_DROP), 0},
    {"--after", offsetof(org_opts, after), 0, B(C_DROP), 0},
    {"--round", offsetof(org_opts, round), 0,
     B(C_LATE) | B(C_PUBLISH) | B(C_RESULT) | B(C_TIMECALL) | B(C_CLOSE) | B(C_REPORT) | B(C_IDRAW), 0},
    {"--start", offsetof(org_opts, start), 0, B(C_PUBLISH), 0},
    {"--table", offsetof(org_opts, table), 0, B(C_RESULT) | B(C_TIMECALL) | B(C_REPORT) | B(C_IDRAW), 0},
    {"--winner", offsetof(org_opts, winner), 0, B(C_RESULT) | B(C_REPORT), 0},
    {"--draw", offsetof(org_opts, draw), 1, B(C_RESULT) | B(C_REPORT), 0},
    {"--draw-win", offsetof(org_opts, draw_win), 0, B(C_RESULT), 0},
    {"--engine", offsetof(org_opts, engine), 1, B(C_RESULT), 0},
    {"--at-time", offsetof(org_opts, at_time), 1, B(C_RESULT), 0},
    {"--double-loss", offsetof(org_opts, double_loss), 1, B(C_RESULT), 0},
    {"--scores", offsetof(org_opts, scores), 0, B(C_RESULT) | B(C_REPORT), 0},
    {"--match", offsetof(org_opts, match), 0, B(C_RESULT), 0},
    {"--tier", offsetof(org_opts, tier), 0, B(C_NEW), 0},
    {"--decklists-public", offsetof(org_opts, lists_public), 1, B(C_NEW), 0},
    {"--cut-on-later-day", offsetof(org_opts, later_day), 1, B(C_NEW), 0},
    {"--judge", offsetof(org_opts, judge), 0, B(C_RESULT), 1},
    {"--text", offsetof(org_opts, text), 0, B(C_RESULT), 1},
    {"--at", offsetof(org_opts, at), 0, B(C_STATUS), 0},
    {"--db", offsetof(org_opts, db), 0, B(C_PUBLISH) | B(C_STATUS), 0},
    {"--rule", 0, 0, B(C_NEW), 0},   /* repeated: into rules */
};
#define N_OPTIONS (sizeof options / sizeof options[0])

int organise_is_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return 1;
    return 0;
}

static const char *cmd_name(org_cmd c)
{
    return commands[c].name;
}

static const char **field(org_opts *o, size_t k)
{
    return (const char **)(void *)((char *)o + options[k].field);
}

/* One option argv[*i] ("--x V" or "--x=V"); 0 or -1 (reported). */
static int take_option(int argc, char **argv, int *i, org_opts *o)
{
    const char *a = argv[*i], *v;
    char err[ERR_MAX];

    for (size_t k = 0; k < N_OPTIONS; k++) {
        size_t n = strlen(options[k].name);
        if (strncmp(a, options[k].name, n) || (a[n] && a[n] != '='))
            continue;
        if (!(options[k].cmds & B(o->cmd))) {
            cli_error("%s is not an option of tournament %s (try arbiter tournament --help)", options[k].name,
                      cmd_name(o->cmd));
            return -1;
        }
        if (options[k].flag) {
            *field(o, k) = "1";
            return 0;
        }
        if (a[n] == '=') {
            v = a + n + 1;
        } else if (*i + 1 < argc) {
            v = argv[++*i];
        } else {
            cli_error("%s needs a value", options[k].name);
            return -1;
        }
        if (strcmp(options[k].name, "--rule")) {
            *field(o, k) = v;
            return 0;
        }
        if ((!o->rules && !(o->rules = json_object())) || tourorg_lever(o->rules, v, err, sizeof err)) {
            cli_error("%s", o->rules ? err : "out of memory");
            return -1;
        }
        return 0;
    }
    cli_error("unknown option '%s' (try arbiter tournament --help)", a);
    return -1;
}

static int parse_opts(int argc, char **argv, org_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, argv[1]))
            o->cmd = commands[i].cmd;
    o->operands = argv + 2;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (rest || a[0] != '-' || !strcmp(a, "-"))
            o->operands[o->n_operands++] = argv[i];
        else if (!strcmp(a, "--"))
            rest = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            o->help = 1;
        else if (take_option(argc, argv, &i, o) < 0)
            return -1;
    }
    if (o->help)
        return 0;
    for (size_t k = 0; k < N_OPTIONS; k++)
        if (options[k].required && (options[k].cmds & B(o->cmd)) && !*field(o, k)) {
            cli_error("tournament %s needs %s", cmd_name(o->cmd), options[k].name);
            return -1;
        }
    if (o->n_operands && !commands[o->cmd].operands) {
        cli_error("tournament %s takes no operand ('%s')", cmd_name(o->cmd), o->operands[0]);
        return -1;
    }
    return 0;
}

/* A whole number lo..hi of option `name`; 0 or -1 (reported). */
static int number_of(const char *name, const char *s, unsigned long lo, unsigned long hi, uint32_t *out)
{
    char *end = NULL;
    unsigned long v;

    errno = 0;
    v = strtoul(s, &end, 10);
    if (!*s || *end || *s == '-' || errno || v < lo || v > hi) {
        cli_error("%s needs a whole number from %lu to %lu, not '%s'", name, lo, hi, s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* ---- the clock ---------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts))
        return 0;
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* 1 when `tz` names a zone of this computer's time zone database: the C
 * library takes an unknown name for UTC without a word, so the name is
 * looked up first (a relative path under $TZDIR, else /usr/share/zoneinfo). */
static int zone_known(const char *tz)
{
    const char *dir = getenv("TZDIR");
    char path[4096];
    struct stat st;

    if (!*tz || tz[0] == '/' || strstr(tz, "..") || strspn(tz, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789/_+-") != strlen(tz))
        return 0;
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", tz);
    return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The event's zone in force for localtime_r() and mktime(); CLI_OK or
 * CLI_BADINPUT (reported). */
static int use_zone(const char *tz)
{
    if (tz) {
        if (!zone_known(tz)) {
            cli_error("the time zone \"%s\" is not known to this computer (a name such as Europe/Paris)", tz);
            return CLI_BADINPUT;
        }
        if (setenv("TZ", tz, 1))
            return CLI_INTERNAL;
    }
    tzset();
    return CLI_OK;
}

/* "H:MM", "HH:MM" or "HH:MM:SS" as seconds into the day, or -1. */
static long clock_seconds(const char *s)
{
    long part[3] = {0, 0, 0};
    int n = 0, digits = 0;

    for (const char *p = s;; p++) {
        if (*p >= '0' && *p <= '9' && digits < 2) {
            part[n] = part[n] * 10 + (*p - '0');
            digits++;
        } else if ((*p == ':' || !*p) && digits && (n == 0 || digits == 2)) {
            if (!*p)
                break;
            if (++n > 2)
                return -1;
            digits = 0;
        } else {
            return -1;
        }
    }
    if (n < 1 || part[0] > 23 || part[1] > 59 || part[2] > 59)
        return -1;
    return part[0] * 3600 + part[1] * 60 + part[2];
}

/* The time of day s nearest to ref_ms (local time in the zone in force) as
 * ms since the epoch; CLI_OK or CLI_BADINPUT (reported).  Nearest, not on
 * ref's date: a round that started at 23:30 has time called at 00:20 the
 * next day, and a judge asking about 23:55 at 00:05 means last night. */
static int time_of_day(const char *s, uint64_t ref_ms, uint64_t *out)
{
    long secs = clock_seconds(s);
    time_t ref = (time_t)(ref_ms / 1000), best = (time_t)-1;
    struct tm day;

    if (secs < 0) {
        cli_error("'%s' is no time of day: write it as 14:05 or 14:05:30", s);
        return CLI_BADINPUT;
    }
    if (!localtime_r(&ref, &day))
        return CLI_INTERNAL;
    for (int d = -1; d <= 1; d++) {   /* that time the day before, on, and after ref's date */
        struct tm tm = day;
        time_t t;

        tm.tm_mday += d;   /* mktime carries it into the month and year */
        tm.tm_hour = (int)(secs / 3600);
        tm.tm_min = (int)(secs / 60 % 60);
        tm.tm_sec = (int)(secs % 60);
        tm.tm_isdst = -1;   /* the zone's own rule for that day (summer time or not) */
        if ((t = mktime(&tm)) == (time_t)-1)
            return CLI_INTERNAL;
        if (best == (time_t)-1 || llabs((long long)t - ref) < llabs((long long)best - ref))
            best = t;
    }
    *out = (uint64_t)best * 1000;
    return CLI_OK;
}

/* ms as the zone's time of day ("14:05", "14:05:30"), and its date when
 * it is not that of ref_ms. */
static const char *clock_text(char *buf, size_t n, uint64_t ms, uint64_t ref_ms)
{
    time_t t = (time_t)(ms / 1000), r = (time_t)(ref_ms / 1000);
    struct tm tm, rm;

    if (!localtime_r(&t, &tm) || !localtime_r(&r, &rm)) {
        snprintf(buf, n, "%" PRIu64 " ms", ms);
        return buf;
    }
    strftime(buf, n, tm.tm_sec ? "%H:%M:%S" : "%H:%M", &tm);
    if (tm.tm_yday != rm.tm_yday || tm.tm_year != rm.tm_year)
        strftime(buf + strlen(buf), n - strlen(buf), " on %Y-%m-%d", &tm);
    return buf;
}

/* ---- the file and its history -------------------------------------------------------- */

typedef struct {
    const char *path;
    char *hist;                 /* "<path>.history"                             */
    int lock;                   /* the history folder, flock()ed                */
    int made;                   /* the folder was made by this command          */
    char *bytes;                /* the file as read                             */
    size_t len;
    json_t *root;               /* parsed                                       */
    tournament *t;              /* loaded                                       */
} org_file;

static void file_free(org_file *f)
{
    if (f->lock >= 0)
        close(f->lock);   /* releases the flock */
    free(f->hist);
    free(f->bytes);
    json_decref(f->root);
    tournament_destroy(&f->t);
}

/* Read all of path (at most TOUR_FILE_MAX bytes); CLI_OK, else reported. */
static int read_bytes(const char *path, char **out, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf = NULL, *bigger;

    *out = NULL;
    if (!fp) {
        cli_error("%s cannot be read: %s", path, strerror(errno));
        return CLI_BADINPUT;
    }
    while ((bigger = realloc(buf, cap + 1))) {
        buf = bigger;
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap || cap > TOUR_FILE_MAX)
            break;
        cap *= 2;
    }
    if (!bigger || ferror(fp) || n > TOUR_FILE_MAX) {
        cli_error("%s: %s", path, !bigger ? "out of memory" : ferror(fp) ? strerror(errno)
                                                                          : "larger than a tournament file may be");
        fclose(fp);
        free(buf);
        return !bigger ? CLI_INTERNAL : CLI_BADINPUT;
    }
    fclose(fp);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return CLI_OK;
}

/* The history folder made (when absent: f->made, and `create`) and
 * locked; CLI_OK, else reported (create 0 and no folder: nothing to undo). */
static int lock_history(org_file *f, int create)
{
    size_t n = strlen(f->path) + sizeof ".history";
    struct stat st;

    f->lock = -1;
    if (!(f->hist = malloc(n)))
        return CLI_INTERNAL;
    snprintf(f->hist, n, "%s.history", f->path);
    if (!create && stat(f->hist, &st)) {
        cli_error("nothing to undo: %s has no earlier version of %s", f->hist, f->path);
        return CLI_BADINPUT;
    }
    if (!mkdir(f->hist, 0777))
        f->made = 1;
    else if (errno != EEXIST) {
        cli_error("%s cannot be made: %s", f->hist, strerror(errno));
        return CLI_BADINPUT;
    }
    if ((f->lock = open(f->hist, O_RDONLY | O_DIRECTORY)) < 0 || flock(f->lock, LOCK_EX)) {
        cli_error("%s cannot be locked: %s", f->hist, strerror(errno));
        return CLI_BADINPUT;
    }
    return CLI_OK;
}

/* The versions in the history: how many, the oldest and the newest. */
static int history_span(const org_file *f, unsigned *count, unsigned *oldest, unsigned *newest)
{
    DIR *d = opendir(f->hist);
    struct dirent *e;

    *count = *oldest = *newest = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        unsigned v;
        int used = 0;
        if (sscanf(e->d_name, "%6u.json%n", &v, &used) != 1 || used != 11 || strlen(e->d_name) != 11 || !v)
            continue;
        *oldest = !*count || v < *oldest ? v : *oldest;
        *newest = v > *newest ? v : *newest;
        ++*count;
    }
    closedir(d);
    return 0;
}

static void version_path(char *buf, size_t n, const org_file *f, unsigned v)
{
    snprintf(buf, n, "%s/%06u.json", f->hist, v);
}

/* Keep the file's bytes as read as the newest version; drop the oldest
 * beyond HISTORY_MAX.  CLI_OK or reported. */
static int history_push(const org_file *f)
{
    unsigned count, oldest, newest;
    char path[4200], err[ERR_MAX];

    if (history_span(f, &count, &oldest, &newest) || newest >= 999999) {
        cli_error("%s cannot be read", f->hist);
        return CLI_BADINPUT;
    }
    version_path(path, sizeof path, f, newest + 1);
    if (durable_replace(path, f->bytes, f->len, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    for (; count >= HISTORY_MAX && oldest <= newest; oldest++, count--) {
        version_path(path, sizeof path, f, oldest);
        unlink(path);   /* a version already gone is no error */
    }
    return CLI_OK;
}

/* Open the tournament file: locked, read, parsed, loaded (refused as any
 * reader refuses it).  CLI_OK or reported. */
static int file_open(org_file *f, const char *path)
{
    char err[ERR_MAX] = "";
    json_error_t jerr;
    int rc;

    struct stat st;

    memset(f, 0, sizeof *f);
    f->lock = -1;
    f->path = path;
    if (stat(path, &st)) {   /* said before a history folder is made for it */
        cli_error("%s cannot be read: %s", path, strerror(errno));
        return CLI_BADINPUT;
    }
    if ((rc = lock_history(f, 1)) || (rc = read_bytes(path, &f->bytes, &f->len)))
        return rc;
    if ((rc = tournament_load(f->bytes, f->len, &f->t, err, sizeof err))) {
        cli_error("%s: %s", path, rc == TOUR_ENOMEM ? "out of memory" : err);
        return rc == TOUR_ENOMEM ? CLI_INTERNAL : CLI_BADINPUT;
    }
    if (!(f->root = json_loadb(f->bytes, f->len, 0, &jerr)))
        return CLI_INTERNAL;   /* tournament_load() read it */
    return CLI_OK;
}

/* The tree as the file's text: two-space indent, the keys in their order,
 * a newline at the end.  NULL out of memory. */
static char *file_text(const json_t *root)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER), *nl;
    size_t n;

    if (!text)
        return NULL;
    n = strlen(text);
    if ((nl = realloc(text, n + 2))) {
        nl[n] = '\n';
        nl[n + 1] = '\0';
    } else {
        free(text);
    }
    return nl;
}

/* Validate root as every reader does, then keep the old version and write
 * the new.  CLI_OK or reported (the file unchanged). */
static int file_save(org_file *f, const json_t *root, int keep)
{
    char *text = file_text(root), err[ERR_MAX] = "";
    tournament *check = NULL;
    int rc;

    if (!text) {
        cli_error("out of memory");
        return CLI_INTERNAL;
    }
    if ((rc = tournament_load(text, strlen(text), &check, err, sizeof err))) {
        cli_error("%s", rc == TOUR_ENOMEM ? "out of memory" : err);
        rc = rc == TOUR_ENOMEM ? CLI_INTERNAL : CLI_BADINPUT;
    } else if (keep && (rc = history_push(f))) {
        ;
    } else if (durable_replace(f->path, text, strlen(text), err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_BADINPUT;
    }
    tournament_destroy(&check);
    free(text);
    return rc;
}

/* ---- registration ------------------------------------------------------------------- */

/* 1 when the database is the one the file names (or the file names none). */
static int is_event_db(const json_t *root, const cards *db)
{
    const char *named = json_string_value(json_object_get(root, "cards"));
    size_t k = strlen(cards_set(db));

    return !named || (!strncmp(named, cards_set(db), k) && named[k] == '@' && !strcmp(named + k + 1,
                                                                                        cards_version(db)));
}

/* --deck FILE read and checked against the format and the event's levers:
 * CLI_OK and the decklist in *out (NULL without --deck), or refused with
 * every violation on stderr. */
static int checked_deck(const org_opts *o, const org_file *f, json_t **out)
{
    ol_format fmt = tournament_format(f->t);
    const deck_format *df = deck_format_of(fmt);
    cards *db = NULL;
    deckfile *d = NULL;
    olevent *hdr = NULL;
    deck_violation *v = NULL;
    size_t n = 0;
    char err[ERR_MAX];
    int rc = CLI_BADINPUT, lr;

    *out = NULL;
    if (!o->deck)
        return CLI_OK;
    if (!df) {
        cli_error("the %s format has no decklists: give no --deck", tournament_format_name(f->t));
        return CLI_BADINPUT;
    }
    if (cli_load_cards(o->cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    if (!is_event_db(f->root, db)) {
        cli_error("%s names the card database %s, but the one loaded is %s@%s (use --cards)", o->file,
                  json_string_value(json_object_get(f->root, "cards")), cards_set(db), cards_version(db));
    } else if (deckfile_load(o->deck, fmt, &d, err, sizeof err) < 0) {
        cli_error("%s", err);
    } else if ((lr = deckfile_levers(fmt, db, tournament_rules_json(f->t), &hdr, err, sizeof err))) {
        if (lr == -1)
            cli_error("%s: the event's levers: %s", o->file, err);
        rc = lr == -1 ? CLI_BADINPUT : CLI_INTERNAL;
    } else if (deckfile_check(d, fmt, db, &hdr->header, &v, &n)) {
        rc = CLI_INTERNAL;
    } else if (n) {
        cli_error("%s is illegal for %s under the event's levers, and \"%s\" is not registered: %zu violation%s",
                  o->deck, tournament_format_name(f->t), o->player, n, n == 1 ? "" : "s");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "  %s  %s\n", v[i].rule, v[i].msg);
    } else if (!(*out = olcodec_deck_to_json(deckfile_deck(d), fmt))) {
        rc = CLI_INTERNAL;
    } else {
        rc = CLI_OK;
    }
    if (rc == CLI_INTERNAL)
        cli_error("out of memory while checking %s", o->deck);
    free(v);
    olevent_destroy(&hdr);
    deckfile_destroy(&d);
    cards_destroy(&db);
    return rc;
}

/* ---- the editing commands ---------------------------------------------------------------- */

/* A tourorg edit's code as an exit code, its sentence reported. */
static int org_error(int rc, const char *err)
{
    if (rc == TOURORG_ENOMEM) {
        cli_error("out of memory");
        return CLI_INTERNAL;
    }
    cli_error("%s", err);
    return CLI_BADINPUT;
}

/* A player's name (its id when it has none), "-" for no player. */
static const char *who(const tournament *t, int i)
{
    const tour_player *p = i >= 0 ? tournament_player(t, (size_t)i) : NULL;
    return p ? (p->name ? p->name : p->id) : "-";
}

/* The round of --round, or the current round when absent and `dflt`. */
static int round_opt(const org_opts *o, const org_file *f, int dflt, uint32_t *r)
{
    if (!o->round) {
        if (!dflt) {
            cli_error("tournament %s needs --round R", cmd_name(o->cmd));
            return -1;
        }
        *r = tourorg_current_round(f->root, NULL);
        return 0;
    }
    return number_of("--round", o->round, 1, TOUR_ROUNDS_MAX, r);
}

static int edit_register(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX];
    json_t *deck = NULL;
    uint32_t round = 0;
    int rc;

    if (o->cmd == C_ADD && !o->name) {
        cli_error("tournament add needs --name");
        return CLI_BADINPUT;
    }
    if (o->cmd == C_LATE && o->round && number_of("--round", o->round, 1, TOUR_ROUNDS_MAX, &round))
        return CLI_BADINPUT;
    if ((rc = checked_deck(o, f, &deck)))
        return rc;
    rc = o->cmd == C_ADD ? tourorg_add(root, o->player, o->name, deck, err, sizeof err)
                         : tourorg_late_entry(root, o->player, o->name, deck, round, err, sizeof err);
    json_decref(deck);
    if (rc)
        return org_error(rc, err);
    if (o->cmd == C_ADD)
        snprintf(done, n, "%s (%s) is registered%s.", o->name, o->player, o->deck ? " with a legal decklist" : "");
    else
        snprintf(done, n, "%s enters late, from round %" JSON_INTEGER_FORMAT ".",
                 o->name ? o->name : who(f->t, tournament_player_index(f->t, o->player)),
                 json_integer_value(json_object_get(json_array_get(json_object_get(root, "late_entries"),
                                    json_array_size(json_object_get(root, "late_entries")) - 1), "round")));
    return CLI_OK;
}

static int edit_drop(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX];
    uint32_t after = 0;
    int rc;

    if (o->after && number_of("--after", o->after, 0, TOUR_ROUNDS_MAX, &after))
        return CLI_BADINPUT;
    rc = tourorg_drop(root, o->player, o->reason ? o->reason : "drop", o->after ? (long)after : -1, err, sizeof err);
    if (rc)
        return org_error(rc, err);
    after = (uint32_t)json_integer_value(json_object_get(
        json_array_get(json_object_get(root, "drops"), json_array_size(json_object_get(root, "drops")) - 1),
        "after_round"));
    if (after)
        snprintf(done, n, "%s leaves (%s) after round %" PRIu32 ".", who(f->t, tournament_player_index(f->t, o->player)),
                 o->reason ? o->reason : "drop", after);
    else
        snprintf(done, n, "%s leaves (%s) before round 1.", who(f->t, tournament_player_index(f->t, o->player)),
                 o->reason ? o->reason : "drop");
    return CLI_OK;
}

/* The players' scores of --scores, into *out (NULL without it); 0 or a
 * CLI_ code (reported). */
static int scores_opt(const org_opts *o, json_t **out)
{
    char err[ERR_MAX];
    int rc;

    *out = NULL;
    if (!o->scores)
        return CLI_OK;
    return (rc = tourorg_scores(o->scores, out, err, sizeof err)) ? org_error(rc, err) : CLI_OK;
}

static int edit_result(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    /* the result kinds, one option each: exactly one is given */
    const struct {
        const char *const *given;
        const char *result, *said;
    } kinds[] = {
        {&o->winner, "win", "wins"},
        {&o->draw, "draw", "a draw"},
        {&o->engine, "engine", "the record's own result stands"},
        {&o->at_time, "at_time", "the record as it stood when time was called"},
        {&o->double_loss, "double_loss", "a loss for both players"},
    };
    char err[ERR_MAX], what[TOUR_STR_MAX + 64];
    tourorg_ruling j;
    json_t *scores = NULL;
    uint32_t round;
    size_t given = 0, k = 0;
    int replaced = 0, rc;

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (*kinds[i].given) {
            given++;
            k = i;
        }
    if (!o->table || given != 1) {
        cli_error(!o->table ? "tournament result needs --table T"
                            : "tournament result needs one of --winner ID, --draw, --engine, --at-time, --double-loss");
        return CLI_BADINPUT;
    }
    if (o->draw_win && !o->draw) {
        cli_error("--draw-win goes with --draw");
        return CLI_BADINPUT;
    }
    if (round_opt(o, f, 0, &round) || (rc = scores_opt(o, &scores)))
        return CLI_BADINPUT;
    memset(&j, 0, sizeof j);
    j.result = kinds[k].result;
    j.winner = o->winner;
    j.draw_win = o->draw_win;
    j.match = o->match;
    j.scores = scores;
    j.judge = o->judge;
    j.text = o->text;
    rc = tourorg_result(root, round, o->table, &j, &replaced, err, sizeof err);
    json_decref(scores);
    if (rc)
        return org_error(rc, err);
    if (o->winner)
        snprintf(what, sizeof what, "%s wins", who(f->t, tournament_player_index(f->t, o->winner)));
    else if (o->draw_win)
        snprintf(what, sizeof what, "a draw, the draw win to %s", who(f->t, tournament_player_index(f->t, o->draw_win)));
    else
        snprintf(what, sizeof what, "%s", kinds[k].said);
    snprintf(done, n, "Round %" PRIu32 ", table %s: %s, the head judge %s says%s.", round, o->table, what, o->judge,
             replaced ? " (this replaces the judge's earlier result)" : "");
    return CLI_OK;
}

static int edit_report(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX];
    json_t *scores = NULL;
    uint32_t round;
    int replaced = 0, rc;

    if (!o->table || !o->winner == !o->draw) {
        cli_error(!o->table ? "tournament report needs --table T" : "tournament report needs --winner ID or --draw");
        return CLI_BADINPUT;
    }
    if (round_opt(o, f, 1, &round) || (rc = scores_opt(o, &scores)))
        return CLI_BADINPUT;
    rc = tourorg_report(root, round, o->table, o->winner, scores, &replaced, err, sizeof err);
    json_decref(scores);
    if (rc)
        return org_error(rc, err);
    snprintf(done, n, "Round %" PRIu32 ", table %s reported %s%s%s; the record decides, the report is compared.",
             round, o->table, o->winner ? who(f->t, tournament_player_index(f->t, o->winner)) : "a draw",
             o->winner ? " the winner" : "", replaced ? " (this replaces its earlier report)" : "");
    return CLI_OK;
}

static int edit_intentional_draw(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX];
    uint32_t round;
    int rc;

    if (!o->table) {
        cli_error("tournament intentional-draw needs --table T");
        return CLI_BADINPUT;
    }
    if (round_opt(o, f, 1, &round))
        return CLI_BADINPUT;
    if ((rc = tourorg_intentional_draw(root, round, o->table, err, sizeof err)))
        return org_error(rc, err);
    snprintf(done, n, "Round %" PRIu32 ", table %s: an intentional draw (T15), no event points for either player.",
             round, o->table);
    return CLI_OK;
}

static int edit_time_call(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX], shown[64];
    uint32_t round;
    uint64_t ms, day;
    json_t *rd;
    int rc;

    if (o->n_operands != 1) {
        cli_error("tournament time-call needs one TIME, such as 14:05");
        return CLI_BADINPUT;
    }
    if (round_opt(o, f, 0, &round))
        return CLI_BADINPUT;
    rd = tourorg_round(root, round);
    day = (uint64_t)json_integer_value(json_object_get(rd, "started"));
    if ((rc = use_zone(tournament_timezone(f->t))) || (rc = time_of_day(o->operands[0], day ? day : now_ms(), &ms)))
        return rc;
    if ((rc = tourorg_time_call(root, round, o->table, ms, err, sizeof err)))
        return org_error(rc, err);
    snprintf(done, n, "Time is called in round %" PRIu32 "%s%s at %s%s%s.", round, o->table ? ", table " : "",
             o->table ? o->table : "", clock_text(shown, sizeof shown, ms, day ? day : ms), tournament_timezone(f->t) ? " " : "",
             tournament_timezone(f->t) ? tournament_timezone(f->t) : "");
    return CLI_OK;
}

static int edit_close(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    char err[ERR_MAX];
    uint32_t round;
    int rc;

    if (round_opt(o, f, 0, &round))
        return CLI_BADINPUT;
    if ((rc = tourorg_close(root, round, err, sizeof err)))
        return org_error(rc, err);
    snprintf(done, n, "Round %" PRIu32 " is closed: a record still missing or unfinished is now an alarm (T16).",
             round);
    return CLI_OK;
}

/* ---- publish and status: the records --------------------------------------------------- */

typedef struct {
    tourrec_set rs;
    tour_results *r;
} org_records;

static int judge(const org_opts *o, const org_file *f, org_records *x)
{
    int rc;

    memset(x, 0, sizeof *x);
    if (o->db && o->n_operands) {
        cli_error("give either --db STORE or log files, not both");
        return CLI_BADINPUT;
    }
    if (tourrec_set_init(&x->rs, f->t))
        return CLI_INTERNAL;
    if ((rc = tournament_judge_records(&x->rs, o->db, o->cards, o->operands, o->n_operands)))
        return rc;
    if (tourrec_results(&x->rs, &x->r)) {
        cli_error("out of memory, or too many records for one tournament");
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

static void records_free(org_records *x)
{
    tour_results_destroy(&x->r);
    tourrec_set_free(&x->rs);
}

static int edit_publish(const org_opts *o, org_file *f, json_t *root, char *done, size_t n)
{
    org_records x;
    tour_pairings *p = NULL;
    jtext text = {0};
    json_t *pj = NULL;
    char err[ERR_MAX] = "", shown[64];
    uint32_t round;
    uint64_t start = now_ms();
    int rc;

    if (round_opt(o, f, 0, &round))
        return CLI_BADINPUT;
    if ((rc = use_zone(tournament_timezone(f->t))) || (o->start && (rc = time_of_day(o->start, start, &start))))
        return rc;
    if (o->seed && tournament_set_seed(f->t, o->seed)) {
        cli_error("--seed needs 1 to %d bytes", TOUR_STR_MAX);
        return CLI_BADINPUT;
    }
    if (round != tourorg_next_round(f->root)) {   /* said before the records are judged */
        cli_error("Round %" PRIu32 " cannot be published: the next round is %" PRIu32 ".", round,
                  tourorg_next_round(f->root));
        return CLI_BADINPUT;
    }
    if ((tournament_structure(f->t)->kind == TOUR_TABLE_BASIC || tournament_structure(f->t)->kind ==
         TOUR_TABLE_ADVANCED) && !tournament_structure(f->t)->row) {
        cli_error("the structure table has no row for %zu registered players (T39, T40): register more players, or "
                  "give a custom structure", tournament_player_count(f->t));
        return CLI_BADINPUT;
    }
    if ((rc = judge(o, f, &x)))
        goto done;
    if ((rc = tournament_pair(f->t, x.r, round, &p, err, sizeof err))) {
        cli_error("%s", rc == TOUR_ENOMEM ? "out of memory" : err);
        rc = rc == TOUR_ENOMEM ? CLI_INTERNAL : rc == TOUR_EPENDING ? ORG_PENDING : CLI_BADINPUT;
        goto done;
    }
    rc = CLI_INTERNAL;
    if (tournament_pairings_json(f->t, p, &text) || text.bad || !(pj = json_loadb(text.buf, text.len, 0, NULL)))
        goto done;
    /* a seed the file lacks (made, or --seed) goes into the round: the draw can be made again (T27) */
    if ((rc = tourorg_publish(root, round, json_object_get(pj, "pairings"),
                              json_object_get(root, "seed") ? NULL : p->seed, start, err, sizeof err))) {
        rc = org_error(rc, err);
        goto done;
    }
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *q = &p->pairs[i];
        if (q->player[1] < 0)
            printf("bye       %s\n", q->player[0] >= 0 ? who(f->t, q->player[0]) : "(nobody is left to play)");
        else
            printf("table %-3s %s  vs  %s%s\n", q->table, who(f->t, q->player[0]), who(f->t, q->player[1]),
                   q->rematch ? "  (rematch, T31)" : "");
    }
    snprintf(done, n, "Round %" PRIu32 " is published: %zu pairing%s, the round starts at %s.", round, p->n_pairs,
             p->n_pairs == 1 ? "" : "s", clock_text(shown, sizeof shown, start, start));
    rc = CLI_OK;
done:
    if (rc == CLI_INTERNAL && !err[0])
        cli_error("out of memory while publishing round %" PRIu32, round);
    json_decref(pj);
    jtext_free(&text);
    tour_pairings_destroy(&p);
    records_free(&x);
    return rc;
}

/* ---- the commands ------------------------------------------------------------------------- */

typedef int (*edit_fn)(const org_opts *o, org_file *f, json_t *root, char *done, size_t n);

/* Open, edit a copy, validate, keep the old version, write. */
static int run_edit(const org_opts *o, edit_fn fn)
{
    org_file f;
    json_t *copy = NULL;
    char done[1024] = "";
    int rc = file_open(&f, o->file);

    if (!rc && !(copy = json_deep_copy(f.root)))
        rc = CLI_INTERNAL;
    if (!rc)
        rc = fn(o, &f, copy, done, sizeof done);
    if (!rc)
        rc = file_save(&f, copy, 1);
    if (!rc && done[0])
        printf("%s\n", done);
    json_decref(copy);
    file_free(&f);
    return rc;
}

static int run_new(const org_opts *o)
{
    tourorg_event e;
    org_file f;
    json_t *root = NULL;
    cards *db = NULL;
    olevent *hdr = NULL;
    char err[ERR_MAX], named[160];
    struct stat st;
    unsigned count, oldest, newest;
    int rc = CLI_BADINPUT, lr;
    int fmt = ol_format_parse(o->format);

    memset(&e, 0, sizeof e);
    memset(&f, 0, sizeof f);
    f.lock = -1;
    f.path = o->file;
    e.id = o->id;
    e.name = o->name;
    e.format = o->format;
    e.seed = o->seed;
    e.timezone = o->timezone;
    e.rules = o->rules;
    e.table = o->structure;
    e.cut = o->cut;
    e.has_swiss = o->swiss != NULL;
    e.tier = o->tier;
    e.decklists_public = o->lists_public != NULL;
    e.cut_on_later_day = o->later_day != NULL;
    if (!o->name)
        cli_error("tournament new needs --name");
    else if (o->swiss && number_of("--swiss-rounds", o->swiss, 0, TOUR_SWISS_MAX, &e.swiss_rounds))
        ;
    else if (o->minutes && number_of("--round-minutes", o->minutes, 1, 24 * 60, &e.round_minutes))
        ;
    else if (o->timezone && !zone_known(o->timezone))
        cli_error("the time zone \"%s\" is not known to this computer (a name such as Europe/Paris)", o->timezone);
    else if (!(rc = cli_load_cards(o->cards, &db)) && o->rules && fmt >= 0) {
        /* the levers, as a header's (an unknown format: the loader says so below) */
        char *text = json_dumps(o->rules, JSON_COMPACT);
        lr = text ? deckfile_levers((ol_format)fmt, db, text, &hdr, err, sizeof err) : -2;
        free(text);
        olevent_destroy(&hdr);
        if (lr == -1)
            cli_error("--rule: %s", err);
        rc = !lr ? CLI_OK : lr == -1 ? CLI_BADINPUT : CLI_INTERNAL;
    }
    if (!rc) {
        snprintf(named, sizeof named, "%s@%s", cards_set(db), cards_version(db));
        e.cards = named;
        if ((rc = tourorg_new(&e, &root, err, sizeof err)))
            rc = org_error(rc, err);
    }
    if (rc || (rc = lock_history(&f, 1)))
        ;
    else if (!lstat(o->file, &st) && (rc = CLI_BADINPUT))
        cli_error("%s exists: a new tournament is written to a new file", o->file);
    else if ((history_span(&f, &count, &oldest, &newest) || count) && (rc = CLI_BADINPUT))
        cli_error("%s holds versions of an earlier file: remove it, or write the new tournament elsewhere",
                  f.hist);
    else if (!(rc = file_save(&f, root, 0)))
        printf("%s is written: %s (%s), %s; register the players with arbiter tournament add.\n", o->file, o->name,
               o->id, o->format);
    if (rc && f.made)
        rmdir(f.hist);   /* refused: nothing is left behind */
    json_decref(root);
    cards_destroy(&db);
    file_free(&f);
    return rc;
}

static int run_undo(const org_opts *o)
{
    org_file f;
    unsigned count, oldest, newest;
    char path[4200], err[ERR_MAX];
    int rc;

    memset(&f, 0, sizeof f);
    f.path = o->file;
    f.lock = -1;
    if ((rc = lock_history(&f, 0)))
        goto done;
    rc = CLI_BADINPUT;
    if (history_span(&f, &count, &oldest, &newest)) {
        cli_error("%s cannot be read", f.hist);
    } else if (!count) {
        cli_error("nothing to undo: %s holds no earlier version of %s", f.hist, o->file);
    } else {
        version_path(path, sizeof path, &f, newest);
        if ((rc = read_bytes(path, &f.bytes, &f.len)))
            goto done;
        if (durable_replace(o->file, f.bytes, f.len, err, sizeof err)) {
            cli_error("%s", err);
            rc = CLI_BADINPUT;
        } else if (unlink(path) || durable_sync_dir(f.hist)) {
            /* the file is back; the version stays, and a second undo gives the same bytes again */
            cli_error("%s is restored, but %s cannot be removed: %s", o->file, path, strerror(errno));
            rc = CLI_INTERNAL;
        } else {
            printf("%s is back to its previous version (%u more to undo).\n", o->file, count - 1);
            rc = CLI_OK;
        }
    }
done:
    file_free(&f);
    return rc;
}

int organise_clock_line(const tournament *t, uint32_t round, uint64_t now, char *buf, size_t n)
{
    uint64_t start = tournament_round_started(t, round), end = tournament_round_ends(t, round);
    const char *tz = tournament_timezone(t);
    char a[64], b[64];

    buf[0] = 0;
    if (!end || use_zone(tz))
        return 0;
    snprintf(buf, n, "Round %" PRIu32 " started at %s and ends at %s (%s); %s", round,
             clock_text(a, sizeof a, start - start % 60000, now), clock_text(b, sizeof b, end - end % 60000, now),
             tz ? tz : "local time", now >= end ? "time is up." : now < start ? "it has not started yet." : "");
    if (now >= start && now < end)
        snprintf(buf + strlen(buf), n - strlen(buf), "%" PRIu64 " minute%s left.", (end - now + 59999) / 60000,
                 (end - now + 59999) / 60000 == 1 ? "" : "s");
    return 1;
}

static void status_clock(const tournament *t, uint32_t round, uint64_t now)
{
    uint64_t start = tournament_round_started(t, round), end = tournament_round_ends(t, round);
    const char *tz = tournament_timezone(t);
    char a[64], b[64];

    if (!start) {
        printf("round clock: round %" PRIu32 " has no start time\n", round);
        return;
    }
    printf("round clock (%s): started %s", tz ? tz : "this computer's time zone", clock_text(a, sizeof a, start, now));
    if (!end) {
        printf("; the file gives no round_minutes, so no end\n");
        return;
    }
    printf(", ends %s (%" PRIu32 " minutes); ", clock_text(b, sizeof b, end, now), tournament_round_minutes(t));
    if (now < start)
        printf("not started yet\n");
    else if (now < end)
        printf("%" PRIu64 ":%02" PRIu64 " left\n", (end - now) / 60000, (end - now) / 1000 % 60);
    else
        printf("time is up (%" PRIu64 " minutes ago)\n", (now - end) / 60000);
}

static int run_status(const org_opts *o)
{
    org_file f;
    org_records x;
    uint64_t now = now_ms();
    uint32_t round;
    int closed, rc;
    size_t missing = 0, open = 0;
    const tour_structure *st;

    memset(&x, 0, sizeof x);
    if ((rc = file_open(&f, o->file)) || (rc = use_zone(tournament_timezone(f.t))) ||
        (o->at && (rc = time_of_day(o->at, now, &now))) || (rc = judge(o, &f, &x)))
        goto done;
    round = tourorg_current_round(f.root, &closed);
    st = tournament_structure(f.t);
    printf("%s (%s), %s: %zu players\n", tournament_name(f.t), tournament_id(f.t), tournament_format_name(f.t),
           tournament_player_count(f.t));
    if (!round) {
        printf("no round is published yet: the next is round 1 (arbiter tournament publish --round 1)\n");
    } else {
        printf("round %" PRIu32 " of %" PRIu32 " (%s), %s\n", round, st->swiss_rounds + st->elimination_rounds,
               round > st->swiss_rounds ? "elimination" : "swiss", closed ? "closed" : "open");
        status_clock(f.t, round, now);
        for (size_t i = 0; i < x.r->n_results; i++)
            missing += x.r->results[i].round == round && x.r->results[i].outcome[0] == TOUR_PENDING;
        if (missing && tournament_round_ends(f.t, round) && now >= tournament_round_ends(f.t, round))
            printf("time is up and %zu game%s of round %" PRIu32 " %s no usable result (still playing, or not "
                   "handed in):\n", missing, missing == 1 ? "" : "s", round, missing == 1 ? "has" : "have");
        else if (missing)
            printf("missing to close round %" PRIu32 ": %zu pairing%s without a usable result\n", round, missing,
                   missing == 1 ? "" : "s");
        else
            printf("round %" PRIu32 ": every pairing has a result\n", round);
        for (size_t i = 0; i < x.r->n_results; i++) {
            const tour_result *y = &x.r->results[i];
            if (y->round == round && y->outcome[0] == TOUR_PENDING)
                printf("  table %s: %s vs %s: %s\n", y->table ? y->table : "-", who(f.t, y->player[0]),
                       who(f.t, y->player[1]), y->why);
        }
    }
    for (size_t i = 0; i < x.r->n_alarms; i++)
        open += !x.r->alarms[i].resolved;
    printf("open alarms: %zu\n", open);
    for (size_t i = 0; i < x.r->n_alarms; i++) {
        const tour_alarm *a = &x.r->alarms[i];
        if (!a->resolved)
            printf("  round %" PRIu32 " table %s: %s (%s): %s\n", a->round, a->table[0] ? a->table : "-", a->kind,
                   a->ruling, a->text);
    }
    rc = open ? ORG_ALARMS : CLI_OK;
done:
    records_free(&x);
    file_free(&f);
    return rc;
}

int cmd_organise(int argc, char **argv)
{
    static const edit_fn edits[] = {[C_ADD] = edit_register, [C_DROP] = edit_drop, [C_LATE] = edit_register,
                                    [C_PUBLISH] = edit_publish, [C_RESULT] = edit_result,
                                    [C_TIMECALL] = edit_time_call, [C_CLOSE] = edit_close,
                                    [C_REPORT] = edit_report, [C_IDRAW] = edit_intentional_draw};
    org_opts o;
    int rc;

    if (parse_opts(argc, argv, &o) < 0) {
        json_decref(o.rules);
        return CLI_BADINPUT;
    }
    if (o.help) {
        fputs(organise_usage + 1, stdout);
        json_decref(o.rules);
        return CLI_OK;
    }
    rc = o.cmd == C_NEW ? run_new(&o) : o.cmd == C_UNDO ? run_undo(&o) : o.cmd == C_STATUS ? run_status(&o)
       : run_edit(&o, edits[o.cmd]);
    if (fflush(stdout) != 0 && rc == CLI_OK) {
        cli_error("cannot write the output");
        rc = CLI_INTERNAL;
    }
    json_decref(o.rules);
    return rc;
}
