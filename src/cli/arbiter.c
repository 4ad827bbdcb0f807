/* arbiter.c -- the `arbiter` command line: one binary, many subcommands.
 *
 * A judge, an organiser or a table-software author runs `arbiter SUB ...`.
 * This file only dispatches: the table below names each subcommand, the
 * function that runs it and a one-line summary for `arbiter --help`.  Each
 * subcommand parses its own options and prints its own --help; all share
 * the exit codes of cli.h (documented in arbiter(1), EXIT STATUS).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "src/cli/cli.h"
#include "src/core/dlog.h"
#include "src/core/carddb.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int reads_store;              /* may read a store: run guarded (below) */
} subcommand;

static const subcommand commands[] = {
    {"cards",   cmd_cards,   "describe a card database: set, version, hash, counts", 0},
    {"deck",    cmd_deck,    "check a decklist against a format's construction rules", 0},
    {"convert", cmd_convert, "convert an open log between .mlog and .jsonl", 0},
    {"verify",  cmd_verify,  "verify open logs through the rules engine of their format", 0},
    {"replay",  cmd_replay,  "show the board at one event of a log, for a judge or a player", 0},
    {"send",    cmd_send,    "stream logs to arbiterd as live tables and print the verdicts", 0},
    {"audit",   cmd_audit,   "a stored match: timeline, hash-chain check, board at an event", 1},
    {"list",    cmd_list,    "the matches in a store, with their status", 1},
    {"query",   cmd_query,   "one request to arbiterd's query socket", 0},
    {"tournament", cmd_tournament, "a tournament's standings, next pairings and alarms from its records", 1},
    {"store",   cmd_store,   "check a store, salvage what still verifies, back it up online", 1},
    {"pg",      cmd_pg,      "the circuit's PostgreSQL database: migrate its schema, register its venues", 0},
    {"keygen",  cmd_keygen,  "make a key pair for arbiterd's CURVE sockets and seals", 0},
};

/* A damaged LMDB page can make liblmdb fault instead of returning an error.
 * A command that may read a store (--db) therefore runs in a child
 * process: if the child dies of a signal, this process says so in a
 * sentence and exits CLI_BADINPUT -- never killed by the store it reads.
 * Only a fault (SIGSEGV, SIGBUS) is the store's doing; a child killed by
 * another signal (SIGPIPE when `| head` stops reading) kills this process
 * with the same signal, as if there were no child. */
static int run_guarded(const subcommand *c, int argc, char **argv)
{
    const char *db = NULL;
    int status;
    pid_t pid;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--db") || (!strcmp(c->name, "store") && i == 2 && argv[i][0] != '-'))
            db = argv[i + (argv[i][0] == '-')];
    fflush(NULL);
    if ((pid = fork()) < 0)
        return c->run(argc, argv);   /* no child to be had: run here */
    if (pid == 0) {
        /* die of the fault itself, not through a sanitizer's handler */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        exit(c->run(argc, argv));
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return CLI_INTERNAL;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WTERMSIG(status) != SIGSEGV && WTERMSIG(status) != SIGBUS) {
        /* not a fault: a reader that closed the pipe (SIGPIPE), an
         * interrupt, a kill.  Die of it as an unguarded command would,
         * silently, so that `| head` and the shell see what they expect. */
        fflush(stdout);
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return CLI_INTERNAL;   /* a signal that does not kill: still no store to blame */
    }
    fflush(stdout);
    cli_error("%s stopped: reading %s%s made it fault (%s); the store is probably damaged: `arbiter store check %s` "
              "says what is, `arbiter store salvage` copies every record that still verifies",
              c->name, db ? "the store " : "its input", db ? db : "", strsignal(WTERMSIG(status)), db ? db : "DIR");
    return CLI_BADINPUT;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("arbiter: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* "arbiter: card database ..." with every problem in err; CLI_BADINPUT. */
static int cards_error(char *err, const char *path)
{
    size_t k = strlen(err);
    while (k > 0 && err[k - 1] == '\n')
        err[--k] = '\0';
    cli_error("card database %s", err[0] ? err : path);
    return CLI_BADINPUT;
}

int cli_load_cards(const char *path, cards **db)
{
    char err[8192];
    if (!path)
        path = carddb_default_path();
    if (carddb_load_file(path, db, err, sizeof err) == 0)
        return CLI_OK;
    return cards_error(err, path);
}

int cli_load_shelf(const char *path, carddb_shelf **shelf)
{
    char err[8192];
    const char *const *paths = &path;
    int n = path ? 1 : carddb_default_paths(&paths);
    err[0] = '\0';
    if (carddb_shelf_load(paths, n, shelf, err, sizeof err) == 0)
        return CLI_OK;
    return cards_error(err, paths[0]);
}

int cli_print_json(json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    int rc = text && puts(text) >= 0 ? CLI_OK : CLI_INTERNAL;

    if (!text)
        cli_error("out of memory while writing JSON output");
    free(text);
    json_decref(j);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter COMMAND [ARGS...]\n"
               "       arbiter --version | --help\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`arbiter COMMAND --help` describes one command.\n"
               "exit codes: 0 ok/legal, 1 illegal, 2 bad usage or input, 3 internal error,\n"
               "            4 a damaged store (arbiter store)\n");
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0) {
        cli_error("libsodium cannot start");
        return CLI_INTERNAL;
    }
    /* the modules shared with the daemon log through dlog: here only what
     * goes wrong, and under this program's name */
    dlog_set_program("arbiter");
    dlog_set_level(DLOG_WARN);
    if (argc < 2) {
        usage(stderr);
        return CLI_BADINPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("arbiter %s\n", PACKAGE_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].reads_store ? run_guarded(&commands[i], argc - 1, argv + 1)
                                           : commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (try arbiter --help)", argv[1]);
    return CLI_BADINPUT;
}
