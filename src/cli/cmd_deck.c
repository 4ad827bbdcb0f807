/* cmd_deck.c -- `arbiter deck`: is a decklist legal for a format?
 *
 *   arbiter deck check --format F [--rules JSON] [--cards FILE] [--json] DECK.json...
 *   arbiter deck check --header FILE [--cards FILE] [--json] DECK.json...
 *   arbiter deck rules [--format F] [--json]
 *
 * A player or an organiser checks decks before a match; a judge reads the
 * verdict aloud.  Every deck is checked even when an earlier one fails, so
 * one run reports a whole tournament's decklists.  The rules themselves are
 * verifiers/deck.c; this file reads files, prints and picks the exit code.
 *
 * A deck is judged as the engines judge it: under a match's variant levers
 * (Master's deck_size).  --rules gives the levers, --header a match header
 * whose format, card database and levers apply; either way the levers are
 * read by the contract's own decoder (logformat/olcodec.c), so a lever the
 * format does not have, or out of its range, is refused with the sentence
 * a header would get.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "src/cli/cli.h"
#include "src/core/carddb.h"
#include "src/core/deckfile.h"
#include "logformat/olcodec.h"
#include "verifiers/deck.h"
#include "verifiers/verifier.h"


static const char deck_usage[] =
    "usage: arbiter deck check --format FORMAT [--rules JSON] [--cards FILE] [--json] DECK.json...\n"
    "       arbiter deck check --header FILE [--cards FILE] [--json] DECK.json...\n"
    "       arbiter deck rules [--format FORMAT] [--json]\n"
    "\n"
    "check   check each decklist against FORMAT's construction rules\n"
    "rules   list the rule ids `check` can cite, with a summary of each\n"
    "\n"
    "`arbiter deck check --help` describes the deck file and the output.\n";

static const char check_usage[] =
    "usage: arbiter deck check --format FORMAT [--rules JSON] [--cards FILE] [--json] DECK.json...\n"
    "       arbiter deck check --header FILE [--cards FILE] [--json] DECK.json...\n"
    "\n"
    "Check each decklist against the construction rules of FORMAT (snap,\n"
    "advanced or master) and list every rule it breaks.\n"
    "\n"
    "  --format FORMAT  snap, advanced or master (required without --header)\n"
    "  --rules JSON     the match's variant levers, as a header's \"rules\" map:\n"
    "                   '{\"deck_size\":70}' (Master) -- the decks are judged\n"
    "                   under them, as the engine judges a header's decks\n"
    "  --header FILE    a match header (JSON; the first line of FILE, so a log\n"
    "                   will do): its format, card database and levers apply\n"
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
    "(unreadable or malformed deck, header or levers, unknown format, a header\n"
    "naming another card database, broken card database).\n";

static const char rules_usage[] =
    "usage: arbiter deck rules [--format FORMAT] [--json]\n"
    "\n"
    "List the construction rules `arbiter deck check` applies, in the order\n"
    "it reports them: the rule id a verdict cites and a one-line summary.\n"
    "Without --format, the rules of every format.  --json prints one object\n"
    "per rule and line: {\"format\":F,\"rule\":ID,\"summary\":TEXT}.\n";

typedef struct {
    const char *format;
    const char *rules;    /* --rules JSON  */
    const char *header;   /* --header FILE */
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
                   || (want_cards && (r = take_value(argc, argv, &i, "--cards", &o->cards)) != 0)
                   || (want_cards && (r = take_value(argc, argv, &i, "--rules", &o->rules)) != 0)
                   || (want_cards && (r = take_value(argc, argv, &i, "--header", &o->header)) != 0)) {
            if (r < 0)
                return -1;
        } else {
            cli_error("unknown option '%s' (try arbiter deck %s --help)", a, argv[0]);
            return -1;
        }
    }
    return 0;
}

static int parse_format(const char *name, ol_format *f)
{
    int v = name ? ol_format_parse(name) : -1;

    const verifier_ops *own = v < 0 ? NULL : verifier_ops_of((ol_format)v);
    if (!own || !own->deck) {
        /* the formats whose players bring decklists, from the registry */
        char list[256] = "";
        const verifier_ops *ops;
        for (size_t i = 0, k = 0; (ops = verifier_engine_at(i)) && k < sizeof list; i++)
            if (ops->deck)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", ol_format_name(ops->format));
        if (own)
            cli_error("the %s format has no decklists to check: use one of %s", name, list);
        else
            cli_error("unknown format '%s': use one of %s", name ? name : "", list);
        return -1;
    }
    *f = (ol_format)v;
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

static int report_error(const char *path, ol_format f, const char *err, int json)
{
    cli_error("%s", err);
    if (json && print_json(json_pack("{s:s, s:s, s:s}", "deck", path, "format",
                                     ol_format_name(f), "error", err)) != CLI_OK)
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

static int report_json(const char *path, ol_format f, const deck_violation *v, size_t n)
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
                              ol_format_name(f), "legal", n == 0, "violations", list));
    return rc != CLI_OK ? rc : n ? CLI_ILLEGAL : CLI_OK;
}

/* Check one deck file; its exit code. */
static int check_one(const char *path, ol_format f, const cards *db, const ol_header *levers, int json)
{
    char err[512];
    deckfile *d = NULL;
    deck_violation *v = NULL;
    size_t n = 0;
    int rc = CLI_INTERNAL;

    if (deckfile_load(path, f, &d, err, sizeof err) < 0)
        return report_error(path, f, err, json);
    if (deckfile_check(d, f, db, levers, &v, &n) == 0)
        rc = json ? report_json(path, f, v, n) : report_text(path, v, n);
    else
        cli_error("%s: out of memory while checking the deck", path);
    free(v);
    deckfile_destroy(&d);
    return rc;
}

/* The first line of `path` (a header, or a log that opens with one), at
 * most 1 MiB; NULL with a sentence on stderr. */
static char *first_line(const char *path)
{
    FILE *fp = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t k;

    if (!fp) {
        cli_error("%s: cannot open the header", path);
        return NULL;
    }
    k = getline(&line, &cap, fp);
    fclose(fp);
    if (k <= 0 || k > (1 << 20)) {
        cli_error("%s: %s", path, k <= 0 ? "no header in the file" : "the header's line is longer than 1 MiB");
        free(line);
        return NULL;
    }
    return line;
}

/* 1 when `named` ("<set>@<version>") is the database db. */
static int names_db(const char *named, const cards *db)
{
    size_t k = strlen(cards_set(db));
    return named && !strncmp(named, cards_set(db), k) && named[k] == '@' && !strcmp(named + k + 1, cards_version(db));
}

/* The match header the decks are judged under: --header's, or one made
 * from --format and --rules (decoded by the codec like any header, so the
 * levers are refused or accepted as a header's would be).  *hdr is NULL
 * when neither was given (the format's defaults).  CLI_OK, or an exit code
 * with a sentence on stderr. */
static int levers_of(const deck_opts *o, const cards *db, ol_format *f, olevent **hdr)
{
    char *text = NULL;
    olerror err;
    int rc = CLI_BADINPUT;

    *hdr = NULL;
    if (o->header) {
        if (!(text = first_line(o->header)))
            return CLI_BADINPUT;
    } else if (o->rules) {
        char why[512];
        int lr = deckfile_levers(*f, db, o->rules, hdr, why, sizeof why);
        if (lr == -1)
            cli_error("--rules: %s", why);
        return lr == 0 ? CLI_OK : lr == -1 ? CLI_BADINPUT : CLI_INTERNAL;
    } else {
        return CLI_OK;
    }
    int dr = olcodec_decode_json(text, strlen(text), (ol_origin){0, 1}, hdr, &err);
    if (dr == OL_ENOMEM) {
        rc = CLI_INTERNAL;
    } else if (dr != OL_OK) {
        cli_error("%s: %s", o->header, err.msg);
    } else if ((*hdr)->type != OL_MATCH) {
        cli_error("%s: the first line is a %s event, not a match header", o->header, ol_type_name((*hdr)->type));
    } else if (o->header && o->format && ol_format_parse(o->format) != (int)(*hdr)->header.format) {
        cli_error("%s: the header's format is %s, not %s", o->header, ol_format_name((*hdr)->header.format),
                  o->format);
    } else if (o->header && !names_db((*hdr)->header.cards, db)) {
        cli_error("%s: the header names the card database %s, but the one loaded is %s@%s (use --cards)",
                  o->header, (*hdr)->header.cards ? (*hdr)->header.cards : "(none)", cards_set(db),
                  cards_version(db));
    } else {
        *f = (*hdr)->header.format;
        rc = CLI_OK;
    }
    free(text);
    if (rc != CLI_OK)
        olevent_destroy(hdr);
    return rc;
}

static int run_check(int argc, char **argv)
{
    deck_opts o;
    ol_format f = OL_FORMAT_SNAP;
    cards *db = NULL;
    olevent *hdr = NULL;
    int rc = CLI_OK;

    if (parse_opts(argc, argv, 1, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(check_usage, stdout);
        return CLI_OK;
    }
    if ((!o.format && !o.header) || o.n_paths == 0 || (o.rules && o.header)) {
        cli_error(o.rules && o.header ? "deck check takes --rules or --header, not both"
                  : !o.format && !o.header ? "deck check needs --format (snap, advanced or master) or --header"
                                           : "deck check needs at least one DECK.json");
        fputs(check_usage, stderr);
        return CLI_BADINPUT;
    }
    if (o.format && parse_format(o.format, &f) < 0)
        return CLI_BADINPUT;
    if (cli_load_cards(o.cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    if ((rc = levers_of(&o, db, &f, &hdr)) != CLI_OK
        || (hdr && (rc = parse_format(ol_format_name(f), &f) < 0 ? CLI_BADINPUT : CLI_OK)) != CLI_OK) {
        olevent_destroy(&hdr);
        cards_destroy(&db);
        return rc;
    }
    for (int i = 0; i < o.n_paths; i++)
        rc = worst(rc, check_one(o.paths[i], f, db, hdr ? &hdr->header : NULL, o.json));
    if (fflush(stdout) != 0)
        rc = worst(rc, CLI_INTERNAL);
    olevent_destroy(&hdr);
    cards_destroy(&db);
    return rc;
}

static int print_rules(ol_format f, int json, int heading)
{
    size_t n = 0;
    const deck_rule_info *r = deck_rules(f, &n);
    int rc = CLI_OK;

    if (heading && !json)
        printf("%s\n", ol_format_name(f));
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (json)
            rc = print_json(json_pack("{s:s, s:s, s:s}", "format", ol_format_name(f),
                                      "rule", r[i].rule, "summary", r[i].summary));
        else
            printf("%s%-24s %s\n", heading ? "  " : "", r[i].rule, r[i].summary);
    }
    return rc;
}

static int run_rules(int argc, char **argv)
{
    deck_opts o;
    ol_format f;
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
        const verifier_ops *ops;
        for (size_t i = 0; (ops = verifier_engine_at(i)) && rc == CLI_OK; i++)
            if (ops->deck)
                rc = print_rules(ops->format, o.json, 1);
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
