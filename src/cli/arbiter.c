/* arbiter.c -- the `arbiter` command line: one binary, many subcommands.
 *
 * A judge, an organiser or a table-software author runs `arbiter SUB ...`.
 * This file only dispatches: the table below names each subcommand, the
 * function that runs it and a one-line summary for `arbiter --help`.  Each
 * subcommand parses its own options and prints its own --help; all share
 * the exit codes of cli.h (documented in arbiter(1), EXIT STATUS).
 */
#include <stdarg.h>
#include <stdlib.h>

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "src/cli/cli.h"
#include "src/core/carddb.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand commands[] = {
    {"cards",   cmd_cards,   "describe a card database: set, version, hash, counts"},
    {"deck",    cmd_deck,    "check a decklist against a format's construction rules"},
    {"convert", cmd_convert, "convert an open log between .mlog and .jsonl"},
    {"verify",  cmd_verify,  "verify open logs through the rules engine of their format"},
    {"replay",  cmd_replay,  "show the board at one event of a log, for a judge or a player"},
    {"send",    cmd_send,    "stream logs to arbiterd as live tables and print the verdicts"},
    {"audit",   cmd_audit,   "a stored match: timeline, hash-chain check, board at an event"},
    {"list",    cmd_list,    "the matches in a store, with their status"},
    {"query",   cmd_query,   "one request to arbiterd's query socket"},
    {"tournament", cmd_tournament, "a tournament's standings, next pairings and alarms from its records"},
    {"keygen",  cmd_keygen,  "make a key pair for arbiterd's CURVE sockets and seals"},
};

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("arbiter: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_load_cards(const char *path, cards **db)
{
    char err[8192];
    if (!path)
        path = carddb_default_path();
    if (carddb_load_file(path, db, err, sizeof err) == 0)
        return CLI_OK;
    size_t k = strlen(err);
    while (k > 0 && err[k - 1] == '\n')
        err[--k] = '\0';
    cli_error("card database %s", err[0] ? err : path);
    return CLI_BADINPUT;
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
               "exit codes: 0 ok/legal, 1 illegal, 2 bad usage or input, 3 internal error\n");
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0) {
        cli_error("libsodium cannot start");
        return CLI_INTERNAL;
    }
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
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (try arbiter --help)", argv[1]);
    return CLI_BADINPUT;
}
