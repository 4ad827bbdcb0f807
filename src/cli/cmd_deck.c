/* cmd_deck.c -- `arbiter deck`: is a decklist legal for a format?
 *
 *   arbiter deck check --format F [--cards FILE] [--json] DECK.json...
 *   arbiter deck rules [--format F] [--json]
 *
 * A player or an organiser checks decks before a match; a judge reads the
 * verdict aloud.  Every deck is checked even when an earlier one fails, so
 * one run reports a whole tournament's decklists.  The rules themselves are
 * verifiers/deck.c; this file reads files, prints and picks the exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "src/cli/cli.h"
#include "src/core/carddb.h"
#include "src/core/deckfile.h"
#include "verifiers/deck.h"

/* Deck files are decoded as ol_format, checked as card_format: one order. */
_Static_assert((int)FORMAT_SNAP == (int)OL_FORMAT_SNAP
               && (int)FORMAT_ADVANCED == (int)OL_FORMAT_ADVANCED
               && (int)FORMAT_MASTER == (int)OL_FORMAT_MASTER,
               "card_format and ol_format must name the formats in the same order");

static const char deck_usage[] =
    "usage: arbiter deck check --format FORMAT [--cards FILE] [--json] DECK.json...\n"
    "       arbiter deck rules [--format FORMAT] [--json]\n"
    "\n"
    "check   check each decklist against FORMAT's construction rules\n"
    "rules   list the rule ids `check` can cite, with a summary of each\n"
    "\n"
    "`arbiter deck check --help` describes the deck file and the output.\n";

static const char check_usage[] =
    "usage: arbiter deck check --format FORMAT [--cards FILE] [--json] DECK.json...\n"
    "\n"
    "Check each decklist against the construction rules of FORMAT (snap,\n"
    "advanced or master) and list every rule it breaks.\n"
    "\n"
    "  --format FORMAT  snap, advanced or master (required)\n"
    "  --cards FILE     the card database (default: $ARBITER_CARDS, else\n"
    "                   fixtures/cards/core.json here, else the installed copy)\n"
    "  --json           one JSON object per deck and line:\n"
    "                   {\"deck\":PATH,\"format\":F,\"legal\":BOOL,\n"
    "                    \"violations\":[{\"rule\":ID,\"msg\":SENTENCE},...]}\n"
    "                   a deck that cannot be read prints {\"deck\",\"format\",\"error\"}\n"
    "\n"
    "A deck file (\"-\" reads stdin) is one JSON object: the decklist of\n"
    "openlog.md 5 -- snap {\"monsters\":[5 ids],\"supports\":[20 ids],\"reserve\":[ids]},\n"
    "advanced and master {\"main\":[ids, one per copy]} -- optionally with\n"
    "\"name\" and \"format\" (which must match --format).  Other keys are ignored.\n"
    "\n"
    "Output: \"DECK: legal\" or \"DECK: illegal\", then one line per violation:\n"
    "  RULE  SENTENCE\n"
    "`arbiter deck rules --format FORMAT` lists the rules.\n"
    "\n"
    "exit: 0 every deck legal, 1 a deck is illegal, 2 bad usage or input\n"
    "(unreadable or malformed deck, unknown format, broken card database).\n";

static const char rules_usage[] =
    "usage: arbiter deck rules [--format FORMAT] [--json]\n"
    "\n"
    "List the construction rules `arbiter deck check` applies, in the order\n"
    "it reports them: the rule id a verdict cites and a one-line summary.\n"
    "Without --format, the rules of every format.  --json prints one object\n"
    "per rule and line: {\"format\":F,\"rule\":ID,\"summary\":TEXT}.\n";

typedef struct {
    const char *format;
    const char *cards;
    int json;
    int help;
    char **paths;         /* the operands, in order */
    int n_paths;
} deck_opts;

static int worst(int a, int b)
{
    return a > b ? a : b;
}

/* If argv[*i] is `name VALUE` or `name=VALUE`, take the value. Returns 1
 * when it matched, 0 when not, -1 when the value is missing. */
static int take_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t k = strlen(name);

    if (strncmp(argv[*i], name, k))
        return 0;
    if (argv[*i][k] == '=') {
        *value = argv[*i] + k + 1;
        return 1;
    }
    if (argv[*i][k] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

/* Options anywhere, operands collected in place; "--" ends the options. */
static int parse_opts(int argc, char **argv, int want_cards, deck_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    o->paths = argv + 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = 0;
        if (rest || a[0] != '-' || !strcmp(a, "-")) {
            o->paths[o->n_paths++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--")) {
            rest = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if ((r = take_value(argc, argv, &i, "--format", &o->format)) != 0
                   || (want_cards && (r = take_value(argc, argv, &i, "--cards", &o->cards)) != 0)) {
            if (r < 0)
                return -1;
        } else {
            cli_error("unknown option '%s' (try arbiter deck %s --help)", a, argv[0]);
            return -1;
        }
    }
    return 0;
}

static int parse_format(const char *name, card_format *f)
{
    int v = name ? card_format_parse(name) : -1;

    if (v < 0) {
        cli_error("unknown format '%s': use snap, advanced or master", name ? name : "");
        return -1;
    }
    *f = (card_format)v;
    return 0;
}

/* Print one JSON object and a newline.  Takes the reference to j. */
static int print_json(json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    int rc = CLI_INTERNAL;

    if (text && puts(text) >= 0)
        rc = CLI_OK;
    free(text);
    json_decref(j);
    return rc;
}

static int report_error(const char *path, card_format f, const char *err, int json)
{
    cli_error("%s", err);
    if (json && print_json(json_pack("{s:s, s:s, s:s}", "deck", path, "format",
                                     card_format_name(f), "error", err)) != CLI_OK)
        return CLI_INTERNAL;
    return CLI_BADINPUT;
}

static int report_text(const char *path, const deck_violation *v, size_t n)
{
    printf("%s: %s\n", path, n ? "illegal" : "legal");
    for (size_t i = 0; i < n; i++)
        printf("  %s  %s\n", v[i].rule, v[i].msg);
    return n ? CLI_ILLEGAL : CLI_OK;
}

static int report_json(const char *path, card_format f, const deck_violation *v, size_t n)
{
    json_t *list = json_array();
    int rc;

    for (size_t i = 0; list && i < n; i++)
        if (json_array_append_new(list, json_pack("{s:s, s:s}", "rule", v[i].rule,
                                                  "msg", v[i].msg)) < 0) {
            json_decref(list);
            list = NULL;
        }
    if (!list)
        return CLI_INTERNAL;
    rc = print_json(json_pack("{s:s, s:s, s:b, s:o}", "deck", path, "format",
                              card_format_name(f), "legal", n == 0, "violations", list));
    return rc != CLI_OK ? rc : n ? CLI_ILLEGAL : CLI_OK;
}

/* Check one deck file; its exit code. */
static int check_one(const char *path, card_format f, const cards *db, int json)
{
    char err[512];
    deckfile *d = NULL;
    deck_violation *v = NULL;
    size_t n = 0;
    int rc = CLI_INTERNAL;

    if (deckfile_load(path, (ol_format)f, &d, err, sizeof err) < 0)
        return report_error(path, f, err, json);
    /* Count first, then fetch every violation: none is ever dropped. */
    if (deck_check(f, db, deckfile_deck(d), NULL, NULL, 0, &n) != 0)
        goto done;
    v = calloc(n ? n : 1, sizeof *v);
    if (!v || deck_check(f, db, deckfile_deck(d), NULL, v, n, &n) != 0)
        goto done;
    rc = json ? report_json(path, f, v, n) : report_text(path, v, n);
done:
    if (rc == CLI_INTERNAL)
        cli_error("%s: out of memory while checking the deck", path);
    free(v);
    deckfile_destroy(&d);
    return rc;
}

static int run_check(int argc, char **argv)
{
    deck_opts o;
    card_format f;
    cards *db = NULL;
    int rc = CLI_OK;

    if (parse_opts(argc, argv, 1, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(check_usage, stdout);
        return CLI_OK;
    }
    if (!o.format || o.n_paths == 0) {
        cli_error(!o.format ? "deck check needs --format (snap, advanced or master)"
                            : "deck check needs at least one DECK.json");
        fputs(check_usage, stderr);
        return CLI_BADINPUT;
    }
    if (parse_format(o.format, &f) < 0)
        return CLI_BADINPUT;
    if (cli_load_cards(o.cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    for (int i = 0; i < o.n_paths; i++)
        rc = worst(rc, check_one(o.paths[i], f, db, o.json));
    if (fflush(stdout) != 0)
        rc = worst(rc, CLI_INTERNAL);
    cards_destroy(&db);
    return rc;
}

static int print_rules(card_format f, int json, int heading)
{
    size_t n = 0;
    const deck_rule_info *r = deck_rules(f, &n);
    int rc = CLI_OK;

    if (heading && !json)
        printf("%s\n", card_format_name(f));
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (json)
            rc = print_json(json_pack("{s:s, s:s, s:s}", "format", card_format_name(f),
                                      "rule", r[i].rule, "summary", r[i].summary));
        else
            printf("%s%-24s %s\n", heading ? "  " : "", r[i].rule, r[i].summary);
    }
    return rc;
}

static int run_rules(int argc, char **argv)
{
    deck_opts o;
    card_format f;
    int rc = CLI_OK;

    if (parse_opts(argc, argv, 0, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(rules_usage, stdout);
        return CLI_OK;
    }
    if (o.n_paths > 0) {
        cli_error("deck rules takes no operands ('%s')", o.paths[0]);
        return CLI_BADINPUT;
    }
    if (o.format) {
        if (parse_format(o.format, &f) < 0)
            return CLI_BADINPUT;
        rc = print_rules(f, o.json, 0);
    } else {
        for (int i = 0; i < FORMAT_COUNT && rc == CLI_OK; i++)
            rc = print_rules((card_format)i, o.json, 1);
    }
    return fflush(stdout) == 0 ? rc : CLI_INTERNAL;
}

int cmd_deck(int argc, char **argv)
{
    if (argc < 2) {
        fputs(deck_usage, stderr);
        return CLI_BADINPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(deck_usage, stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "check"))
        return run_check(argc - 1, argv + 1);
    if (!strcmp(argv[1], "rules"))
        return run_rules(argc - 1, argv + 1);
    cli_error("unknown deck command '%s' (try arbiter deck --help)", argv[1]);
    return CLI_BADINPUT;
}
