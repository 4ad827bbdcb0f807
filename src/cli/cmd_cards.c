/* cmd_cards.c -- `arbiter cards`: describe a card database.
 *
 * Before a judge trusts a verdict they want to know which card database
 * produced it.  This command loads one exactly as the verifiers do and
 * prints its identity (set, version, content hash) and a census of its
 * cards, or, when the database is broken, every problem the loader found.
 * --json gives the same facts as one object with a fixed key order, for
 * scripts and for the table software that pins a database by hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "src/cli/cli.h"
#include "src/core/carddb.h"
#include "verifiers/verifier.h"

#define ERR_MAX (256 * 1024)

typedef struct {
    size_t by_kind[CARD_KIND_COUNT];
    size_t by_class[CLASS_COUNT];
} census;

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter cards [--json] [FILE]\n"
               "\n"
               "Load a card database and print its set, version, content hash\n"
               "(BLAKE2b-256 of the file), the formats it serves (every card has that\n"
               "format's fields) and the number of Mintayn cards by kind and class (a\n"
               "playing card, as of classic Snap, has neither).\n"
               "FILE defaults to $ARBITER_CARDS, else fixtures/cards/core.json,\n"
               "else the installed core.json.\n"
               "\n"
               "  --json   print one JSON object:\n"
               "           {\"set\",\"version\",\"hash\",\"cards\",\"by_kind\",\"by_class\",\n"
               "            \"formats\"}\n"
               "  --help   show this help\n"
               "\n"
               "exit codes: 0 valid database, 2 bad usage or an unreadable or broken\n"
               "database (every problem is printed), 3 internal error\n");
}

static void count(const cards *db, census *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *cd = cards_at(db, i);
        if (card_standalone(cd))
            continue;   /* a playing card: no kind, no class */
        c->by_kind[cd->kind]++;
        c->by_class[cd->cls]++;
    }
}

static void print_text(const cards *db, const char *hash, const census *c)
{
    printf("set      %s\nversion  %s\nhash     %s\ncards    %zu\n", cards_set(db),
           cards_version(db), hash, cards_count(db));
    printf("by kind:\n");
    for (int k = 0; k < CARD_KIND_COUNT; k++)
        printf("  %-16s %zu\n", card_kind_name((card_kind)k), c->by_kind[k]);
    printf("by class:\n");
    for (int k = 0; k < CLASS_COUNT; k++)
        printf("  %-16s %zu\n", card_class_name((card_class)k), c->by_class[k]);
    printf("serves  ");
    int n = 0;
    const verifier_ops *ops;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (cards_serve(db, ops->format))
            printf("%s%s", n++ ? ", " : "", ol_format_name(ops->format));
    printf("%s\n", n ? "" : "no format");
}

/* Keys are set in a fixed order and jansson keeps insertion order, so the
 * output is byte-stable for a given database. */
static int print_json(const cards *db, const char *hash, const census *c)
{
    json_t *o = json_object(), *kinds = json_object(), *classes = json_object(), *formats = json_array();
    char *text = NULL;
    int rc = CLI_INTERNAL;
    const verifier_ops *ops;
    if (!o || !kinds || !classes || !formats)
        goto done;
    for (size_t i = 0; (ops = verifier_engine_at(i)); i++)
        if (cards_serve(db, ops->format) && json_array_append_new(formats, json_string(ol_format_name(ops->format))))
            goto done;
    for (int k = 0; k < CARD_KIND_COUNT; k++)
        if (json_object_set_new(kinds, card_kind_name((card_kind)k),
                                json_integer((json_int_t)c->by_kind[k])) < 0)
            goto done;
    for (int k = 0; k < CLASS_COUNT; k++)
        if (json_object_set_new(classes, card_class_name((card_class)k),
                                json_integer((json_int_t)c->by_class[k])) < 0)
            goto done;
    if (json_object_set_new(o, "set", json_string(cards_set(db))) < 0
        || json_object_set_new(o, "version", json_string(cards_version(db))) < 0
        || json_object_set_new(o, "hash", json_string(hash)) < 0
        || json_object_set_new(o, "cards", json_integer((json_int_t)cards_count(db))) < 0
        || json_object_set(o, "by_kind", kinds) < 0
        || json_object_set(o, "by_class", classes) < 0
        || json_object_set(o, "formats", formats) < 0)
        goto done;
    if (!(text = json_dumps(o, JSON_COMPACT)))
        goto done;
    printf("%s\n", text);
    rc = CLI_OK;
done:
    free(text);
    json_decref(o);
    json_decref(kinds);
    json_decref(classes);
    json_decref(formats);
    return rc;
}

/* The loader's message holds one problem per line; each becomes one
 * "arbiter: " line on stderr. */
static void print_problems(char *err)
{
    for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n"))
        cli_error("%s", line);
}

int cmd_cards(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, rc = CLI_BADINPUT, opts = 1;
    cards *db = NULL;
    char *err = NULL, hash[65];
    census c;
    for (int i = 1; i < argc; i++) {
        if (opts && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
            usage(stdout);
            return CLI_OK;
        } else if (opts && !strcmp(argv[i], "--json")) {
            json = 1;
        } else if (opts && !strcmp(argv[i], "--")) {
            opts = 0;
        } else if (opts && argv[i][0] == '-' && argv[i][1]) {
            cli_error("cards: unknown option '%s' (try arbiter cards --help)", argv[i]);
            return CLI_BADINPUT;
        } else if (path) {
            cli_error("cards: more than one FILE (try arbiter cards --help)");
            return CLI_BADINPUT;
        } else {
            path = argv[i];
        }
    }
    if (!path)
        path = carddb_default_path();
    if (!(err = malloc(ERR_MAX))) {
        cli_error("cards: out of memory");
        return CLI_INTERNAL;
    }
    int lrc = carddb_load_file(path, &db, err, ERR_MAX);
    if (lrc < 0) {
        print_problems(err);
        rc = lrc == CARDS_ENOMEM ? CLI_INTERNAL : CLI_BADINPUT;
        goto done;
    }
    carddb_hash_hex(cards_hash(db), hash);
    count(db, &c);
    if (json)
        rc = print_json(db, hash, &c);
    else {
        print_text(db, hash, &c);
        rc = CLI_OK;
    }
    if (fflush(stdout) != 0) {
        cli_error("cards: cannot write the output");
        rc = CLI_INTERNAL;
    }
done:
    cards_destroy(&db);
    free(err);
    return rc;
}
