/* cmd_store.c -- `arbiter store check|salvage|backup`: a venue's store,
 * looked after.
 *
 * What: `check DIR` says whether the store can be read whole and whether
 * every record in it verifies (record_check: chain, links, seal by a
 * trusted key, summary, card database, every verdict and board judged
 * again), naming each one that does not; `salvage DIR NEWDIR` copies every
 * record that still verifies into a new store and lists what was lost;
 * `backup DIR NEWDIR` copies a store beside a running daemon, compacted
 * (LMDB's own copy), for a venue's cron job or systemd timer.
 *
 * Why children: a damaged LMDB page can make liblmdb fault instead of
 * returning an error, and nothing in the faulting process survives.  So
 * `check` first walks the store in a child (store_probe), and `salvage`
 * reads the names of the matches in a child and checks and copies each
 * match in a child of its own: a match whose pages fault is lost, the rest
 * are saved.  (`arbiter` runs this whole command in a child too:
 * arbiter.c.)
 *
 * Trust: whose seals count is decided as for `arbiter audit` -- --sealed-by,
 * --trusted-seals, else the daemon's .pub and trusted-seals beside the
 * store (record_home) -- never by the store's own list of keys.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "logformat/olevent.h"
#include "src/cli/cli.h"
#include "src/core/keys.h"
#include "src/record/cardset.h"
#include "src/record/record.h"
#include "src/record/store.h"

static const char usage_text[] =
    "usage: arbiter store check DIR [--sealed-by KEY] [--trusted-seals FILE] [--json]\n"
    "       arbiter store salvage DIR NEWDIR [--sealed-by KEY] [--trusted-seals FILE] [--json]\n"
    "       arbiter store backup DIR NEWDIR\n"
    "\n"
    "check    whether the store DIR can be read whole, and whether every record in it\n"
    "         verifies: chain, record links, seal by a trusted key, summary, card\n"
    "         database, every verdict and board judged again; each one that does\n"
    "         not is named, with what was found\n"
    "salvage  copy every record of DIR that still verifies into the new store\n"
    "         NEWDIR (its seal still holds there), and list what was lost and why;\n"
    "         a damaged DIR is read in child processes, so a page that faults\n"
    "         loses its match only\n"
    "backup   copy DIR to the new folder NEWDIR with LMDB's compacting copy: a\n"
    "         consistent snapshot, beside a running arbiterd (for cron or a\n"
    "         systemd timer), then read the copy whole\n"
    "\n"
    "  --sealed-by KEY      the daemon's public key (.pub file or 64 hex digits)\n"
    "  --trusted-seals FILE more keys whose seals count (arbiter-keyring(5))\n"
    "                       (default: arbiterd.pub and trusted-seals beside DIR)\n"
    "  --json               one JSON object\n"
    "\n"
    "exit: 0 the store reads whole and every record verifies (salvage: nothing\n"
    "lost; backup: copied); 1 records with findings (salvage: some lost); 2 bad\n"
    "usage, no such store, NEWDIR not empty; 3 internal error; 4 the store cannot\n"
    "be read whole (check: salvage it).\n";

typedef struct {
    const char *verb, *dir, *newdir, *sealed_by, *trusted_seals;
    int json;
} store_opts;

static int parse(int argc, char **argv, store_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return -1;
        }
        if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if ((!strcmp(a, "--sealed-by") || !strcmp(a, "--trusted-seals")) && i + 1 < argc) {
            *(!strcmp(a, "--sealed-by") ? &o->sealed_by : &o->trusted_seals) = argv[++i];
        } else if (a[0] == '-') {
            cli_error("unknown option '%s' (try arbiter store --help)", a);
            return CLI_BADINPUT;
        } else if (!o->verb) {
            o->verb = a;
        } else if (!o->dir) {
            o->dir = a;
        } else if (!o->newdir) {
            o->newdir = a;
        } else {
            cli_error("unexpected argument '%s'", a);
            return CLI_BADINPUT;
        }
    }
    int two = o->verb && (!strcmp(o->verb, "salvage") || !strcmp(o->verb, "backup"));
    if (!o->verb || (strcmp(o->verb, "check") && !two) || !o->dir || (two && !o->newdir) || (!two && o->newdir)) {
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    return 0;
}

/* Whose seals count (as `arbiter audit` decides it). 0, or -1 (said). */
static int load_trust(const store_opts *o, record_trust *t, const char **from)
{
    char err[512];
    uint8_t key[32];
    size_t got = 0;
    keys_pair k;
    memset(t, 0, sizeof *t);
    *from = "home";
    if (o->sealed_by) {
        if (strlen(o->sealed_by) == 64 && !sodium_hex2bin(key, 32, o->sealed_by, 64, NULL, &got, NULL) && got == 32) {
            record_trust_add(t, key, "--sealed-by");
        } else if (keys_read(o->sealed_by, &k, err, sizeof err)) {
            cli_error("--sealed-by: %s", err);
            return -1;
        } else {
            record_trust_add(t, k.sign_public, "--sealed-by");
            sodium_memzero(&k, sizeof k);
        }
        *from = "sealed-by";
    }
    if (o->trusted_seals && record_trust_load(t, o->trusted_seals, err, sizeof err)) {
        cli_error("--trusted-seals: %s", err);
        return -1;
    }
    if (o->trusted_seals && !o->sealed_by)
        *from = "trusted-seals";
    if (!o->sealed_by && !o->trusted_seals && record_trust_home(t, o->dir, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    return 0;
}

/* Long work shows progress: a line on stderr every two seconds. */
typedef struct {
    const char *what;
    uint64_t last_ns;
} progress;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void progress_tick(progress *p, size_t done, size_t total)
{
    if (now_ns() - p->last_ns < 2000000000ull)
        return;
    p->last_ns = now_ns();
    fprintf(stderr, "arbiter store: %s %zu of %zu matches\n", p->what, done, total);
}

/* ---- check --------------------------------------------------------------------- */

typedef struct {
    store *st;
    MDB_txn *txn;
    cardset *cs;
    const record_trust *trust;
    json_t *found;                /* [{match, why}] */
    size_t checked, total;
    progress prog;
    int rc;
} check_ctx;

static int check_one(void *ctx, const char *match, const char *json, size_t len)
{
    check_ctx *c = ctx;
    record_findings f;
    char why[1024];
    int rc = record_check(c->st, c->txn, c->cs, match, c->trust, 1, NULL, NULL, &f, NULL, NULL);
    (void)json;
    (void)len;
    if (rc)
        return c->rc = rc;
    c->checked++;
    progress_tick(&c->prog, c->checked, c->total);
    if (record_findings_clean(&f))
        return 0;
    record_findings_text(&f, why, sizeof why);
    return json_array_append_new(c->found, json_pack("{s:s, s:s}", "match", match, "why", why)) ? -ENOMEM : 0;
}

static int do_check(const store_opts *o)
{
    char why[1024], err[512];
    uint64_t matches = 0, events = 0;
    record_trust *trust = calloc(1, sizeof *trust);
    const char *from;
    check_ctx c;
    int rc = CLI_INTERNAL, probe;

    memset(&c, 0, sizeof c);
    if (!trust)
        goto out;
    if (load_trust(o, trust, &from)) {
        rc = CLI_BADINPUT;
        goto out;
    }
    probe = store_probe(o->dir, &matches, &events, why, sizeof why);
    if (probe == STORE_DAMAGED) {
        if (o->json)
            rc = cli_print_json(json_pack("{s:s, s:s, s:n, s:n, s:n}", "store", o->dir, "damaged", why, "matches",
                                          "events", "findings"));
        else
            printf("store %s: DAMAGED: %s\n(salvage it: arbiter store salvage %s NEWDIR copies every record that "
                   "still verifies)\n", o->dir, why, o->dir);
        rc = rc == CLI_OK || !o->json ? CLI_DAMAGED : rc;
        goto out;
    }
    if (probe) {
        cli_error("cannot check %s: %s", o->dir, strerror(-probe));
        goto out;
    }
    if (store_open(o->dir, 1, 0, &c.st, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_BADINPUT;
        goto out;
    }
    if (cardset_new(&c.cs) || !(c.found = json_array()) || mdb_txn_begin(store_env(c.st), NULL, MDB_RDONLY, &c.txn))
        goto out;
    c.trust = trust;
    c.total = (size_t)matches;
    c.prog = (progress){"checked", now_ns()};
    if (store_each_match(c.st, c.txn, check_one, &c) || c.rc) {
        cli_error("the store %s cannot be read: %s", o->dir, c.rc < 0 ? strerror(-c.rc) : mdb_strerror(c.rc));
        goto out;
    }
    if (o->json) {
        json_t *doc = json_pack("{s:s, s:n, s:I, s:I, s:O, s:s, s:I}", "store", o->dir, "damaged", "matches",
                                (json_int_t)matches, "events", (json_int_t)events, "findings", c.found,
                                "trusted_from", from, "trusted_keys", (json_int_t)trust->n);
        if (cli_print_json(doc))
            goto out;
    } else {
        size_t i;
        json_t *it;
        if (!trust->n)
            printf("no trusted key: no arbiterd.pub or trusted-seals beside the store; every seal is a finding "
                   "(give --sealed-by with the daemon's .pub)\n");
        json_array_foreach(c.found, i, it)
            printf("match %s: %s\n", json_string_value(json_object_get(it, "match")),
                   json_string_value(json_object_get(it, "why")));
        printf("store %s: reads whole; %llu matches, %llu events; %zu with findings\n", o->dir,
               (unsigned long long)matches, (unsigned long long)events, json_array_size(c.found));
    }
    rc = json_array_size(c.found) ? CLI_ILLEGAL : CLI_OK;
out:
    if (c.txn)
        mdb_txn_abort(c.txn);
    json_decref(c.found);
    cardset_destroy(&c.cs);
    store_close(&c.st);
    free(trust);
    return rc;
}

/* ---- salvage ------------------------------------------------------------------- */

/* The names of the matches a damaged store still shows, read in a child
 * (it may fault): every key of "matches", and the match part of every key
 * of "seals" and "events" -- a record whose summary page is lost may still
 * have its events.  NUL-separated on a pipe; what came before a fault is
 * kept. */
static int child_names(const char *dir, int fd)
{
    store *st = NULL;
    MDB_txn *txn = NULL;
    MDB_cursor *cur;
    MDB_dbi dbi;
    MDB_val k, v;
    char err[512];
    static const char *const dbs[] = {"matches", "seals", "events"};
    FILE *out = fdopen(fd, "w");
    if (!out || store_open(dir, 1, 0, &st, err, sizeof err) || mdb_txn_begin(store_env(st), NULL, MDB_RDONLY, &txn))
        return 2;
    for (size_t d = 0; d < 3; d++) {
        if (mdb_dbi_open(txn, dbs[d], 0, &dbi) || mdb_cursor_open(txn, dbi, &cur))
            continue;
        for (int rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); !rc; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
            size_t n = d == 2 ? strnlen(k.mv_data, k.mv_size) : k.mv_size;
            if (n && n <= OL_MATCH_MAX && !memchr(k.mv_data, 0, n)) {
                fwrite(k.mv_data, 1, n, out);
                fputc(0, out);
                fflush(out);   /* a fault next loses nothing read */
            }
        }
        mdb_cursor_close(cur);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read the names (child_names), sorted, each once: *n names in *out,
 * pointing into *text (the caller frees both). */
static int read_names(const char *dir, char ***out, char **text, size_t *n, int *faulted)
{
    int p[2], status;
    char *buf = NULL, **names = NULL;
    size_t len = 0, cap = 0, k = 0;
    pid_t pid;
    *out = NULL;
    *text = NULL;
    *n = 0;
    if (pipe(p))
        return -1;
    if ((pid = store_fork_reader()) < 0)
        return -1;
    if (pid == 0) {
        close(p[0]);
        _exit(child_names(dir, p[1]));
    }
    close(p[1]);
    for (;;) {
        if (len + 4096 > cap) {
            char *g = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!g)
                break;
            buf = g;
        }
        ssize_t got = read(p[0], buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(p[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *faulted = !WIFEXITED(status) || WEXITSTATUS(status);
    for (size_t i = 0; i < len; i++)
        k += !buf[i];
    if (k && !(names = calloc(k, sizeof *names))) {
        free(buf);
        return -1;
    }
    k = 0;
    for (size_t i = 0; i < len;) {
        size_t m = strnlen(buf + i, len - i);
        if (i + m < len)
            names[k++] = buf + i;
        i += m + 1;
    }
    qsort(names, k, sizeof *names, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || strcmp(names[u - 1], names[i]))
            names[u++] = names[i];
    *out = names;
    *text = buf;
    *n = u;
    return 0;
}

/* What a match's child says: 0 copied, 1 does not verify (why on the
 * pipe), 2 cannot be read or written. */
static int child_salvage(const store_opts *o, const record_trust *trust, const char *match, FILE *out)
{
    store *from = NULL, *to = NULL;
    MDB_txn *ft = NULL, *tt = NULL;
    cardset *cs = NULL;
    record_findings f;
    char why[1024], err[512] = "";
    int rc;
    if (!out || store_open(o->dir, 1, 0, &from, err, sizeof err) || cardset_new(&cs) ||
        mdb_txn_begin(store_env(from), NULL, MDB_RDONLY, &ft))
        return 2;
    if ((rc = record_check(from, ft, cs, match, trust, 1, NULL, NULL, &f, NULL, NULL))) {
        fprintf(out, "its record cannot be read: %s", rc < 0 ? strerror(-rc) : mdb_strerror(rc));
        return 1;
    }
    if (!record_findings_clean(&f)) {
        record_findings_text(&f, why, sizeof why);
        fprintf(out, "%s", why);
        return 1;
    }
    if (store_open(o->newdir, 0, 0, &to, err, sizeof err) || mdb_txn_begin(store_env(to), NULL, 0, &tt) ||
        (rc = record_copy(from, ft, to, tt, match)) || (rc = mdb_txn_commit(tt))) {
        fprintf(out, "its record cannot be copied: %s", err[0] ? err : rc < 0 ? strerror(-rc) : mdb_strerror(rc));
        return 2;
    }
    return 0;
}

static int salvage_one(const store_opts *o, const record_trust *trust, const char *match, char *why, size_t whylen)
{
    int p[2], status;
    ssize_t got;
    size_t len = 0;
    pid_t pid;
    why[0] = 0;
    if (pipe(p))
        return 2;
    if ((pid = store_fork_reader()) < 0)
        return 2;
    if (pid == 0) {
        close(p[0]);
        FILE *out = fdopen(p[1], "w");
        int rc = child_salvage(o, trust, match, out);
        if (out)
            fclose(out);   /* _exit flushes nothing */
        _exit(rc);
    }
    close(p[1]);
    while (len + 1 < whylen && ((got = read(p[0], why + len, whylen - 1 - len)) > 0 || (got < 0 && errno == EINTR)))
        len += got > 0 ? (size_t)got : 0;
    why[len] = 0;
    close(p[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status)) {
        snprintf(why, whylen, "reading its record makes LMDB fault (%s): a page of it is damaged",
                 strsignal(WTERMSIG(status)));
        return 2;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* 1 when `dir` does not exist or is an empty folder. */
static int fresh_dir(const char *dir)
{
    struct stat sb;
    char path[4200];
    if (stat(dir, &sb))
        return errno == ENOENT;
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    return S_ISDIR(sb.st_mode) && access(path, F_OK) != 0;
}

static int do_salvage(const store_opts *o)
{
    char **names = NULL, *text = NULL, err[512], why[1024];
    size_t n = 0, saved = 0;
    int faulted = 0, rc = CLI_INTERNAL;
    record_trust *trust = calloc(1, sizeof *trust);
    const char *from;
    json_t *lost = json_array();
    store *to = NULL;
    MDB_txn *tt = NULL;
    progress prog = {"salvaged", now_ns()};

    if (!trust || !lost)
        goto out;
    if (load_trust(o, trust, &from)) {
        rc = CLI_BADINPUT;
        goto out;
    }
    if (!fresh_dir(o->newdir)) {
        cli_error("%s holds a store already: salvage into a new folder", o->newdir);
        rc = CLI_BADINPUT;
        goto out;
    }
    if (store_open(o->newdir, 0, 0, &to, err, sizeof err) || mdb_txn_begin(store_env(to), NULL, 0, &tt) ||
        store_put_meta(to, tt, "format", "2", 1) || mdb_txn_commit(tt)) {
        cli_error("cannot make the new store %s: %s", o->newdir, err);
        rc = CLI_BADINPUT;
        goto out;
    }
    store_close(&to);
    if (read_names(o->dir, &names, &text, &n, &faulted)) {
        cli_error("cannot read %s", o->dir);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        int got = salvage_one(o, trust, names[i], why, sizeof why);
        progress_tick(&prog, i + 1, n);
        char shown[OL_MATCH_MAX + 1];
        if (got == 0) {
            saved++;
            continue;
        }
        /* a name read from a damaged page need not be UTF-8: shown cleaned */
        snprintf(shown, sizeof shown, "%s", names[i]);
        ol_utf8_clean(shown);
        ol_utf8_clean(why);
        if (json_array_append_new(lost, json_pack("{s:s, s:s}", "match", shown, "why", why[0] ? why : "?")))
            goto out;
    }
    if (o->json) {
        json_t *doc = json_pack("{s:s, s:s, s:I, s:I, s:O, s:b, s:s}", "store", o->dir, "new_store", o->newdir, "matches",
                                (json_int_t)n, "saved", (json_int_t)saved, "lost", lost, "names_cut_short", faulted,
                                "trusted_from", from);
        if (cli_print_json(doc))
            goto out;
    } else {
        size_t i;
        json_t *it;
        json_array_foreach(lost, i, it)
            printf("lost %s: %s\n", json_string_value(json_object_get(it, "match")),
                   json_string_value(json_object_get(it, "why")));
        if (faulted)
            printf("reading the names of the matches faulted part way: a match named only past the damage is not "
                   "listed here\n");
        printf("salvaged %zu of %zu matches from %s into %s; %zu lost\n", saved, n, o->dir, o->newdir,
               json_array_size(lost));
    }
    rc = json_array_size(lost) || faulted ? CLI_ILLEGAL : CLI_OK;
out:
    free(names);
    free(text);
    json_decref(lost);
    store_close(&to);
    free(trust);
    return rc;
}

/* ---- backup --------------------------------------------------------------------- */

static int do_backup(const store_opts *o)
{
    char err[512], why[1024];
    uint64_t matches = 0, events = 0;
    struct stat sb;
    char path[4200];
    if (!fresh_dir(o->newdir)) {
        cli_error("%s holds a store already: back up into a new folder", o->newdir);
        return CLI_BADINPUT;
    }
    if (store_backup(o->dir, o->newdir, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_BADINPUT;
    }
    /* the copy is what a restore would serve: read it whole */
    int probe = store_probe(o->newdir, &matches, &events, why, sizeof why);
    if (probe) {
        cli_error("the copy %s does not read whole: %s", o->newdir, probe == STORE_DAMAGED ? why : strerror(-probe));
        return CLI_DAMAGED;
    }
    snprintf(path, sizeof path, "%s/data.mdb", o->newdir);
    printf("backed up %s to %s: %llu matches, %llu events, %.1f MiB (compacted)\n", o->dir, o->newdir,
           (unsigned long long)matches, (unsigned long long)events,
           stat(path, &sb) ? 0.0 : (double)sb.st_size / (1 << 20));
    return CLI_OK;
}

int cmd_store(int argc, char **argv)
{
    store_opts o;
    struct stat sb;
    char path[4200];
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    snprintf(path, sizeof path, "%s/data.mdb", o.dir);
    if (stat(path, &sb)) {
        cli_error("no store in %s", o.dir);
        return CLI_BADINPUT;
    }
    if (!strcmp(o.verb, "check"))
        return do_check(&o);
    if (!strcmp(o.verb, "salvage"))
        return do_salvage(&o);
    return do_backup(&o);
}
