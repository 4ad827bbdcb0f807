/* deckfile.c -- read a decklist file (DECK.json) into an ol_deck.
 *
 * A deck file is the decklist object of openlog.md 5 on its own, so that a
 * player can check a deck before any match exists.  The decklist itself is
 * decoded by the codec (olcodec_deck_from_json), the same code that reads
 * the decks inside match headers: a file that passes here is a decklist
 * the daemon accepts.  This file adds only what a file needs: reading the
 * bytes, JSON syntax errors with line and column, duplicate keys rejected
 * (a second "monsters" would silently replace the first), and the optional
 * "name" and "format" keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "logformat/olarena.h"
#include "logformat/olcodec.h"
#include "src/core/deckfile.h"

/* A decklist is a few kilobytes; a file far larger is not a deck and is
 * refused before it is parsed. */
#define DECKFILE_MAX ((size_t)1 << 20)

struct deckfile {
    olarena *arena;     /* owns the deck's ids and the name */
    ol_deck deck;
    const char *name;
};

/* Read all of `f` into a new buffer of *len bytes.  -1 with a sentence in
 * err on failure. */
static int read_all(FILE *f, const char *path, char **out, size_t *len,
                    char *err, size_t errlen)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int rc = -1;

    while (buf && n <= DECKFILE_MAX) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf)
        snprintf(err, errlen, "%s: out of memory reading the file", path);
    else if (ferror(f))
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    else if (n > DECKFILE_MAX)
        snprintf(err, errlen, "%s: larger than %zu bytes; a decklist is a few kilobytes",
                 path, DECKFILE_MAX);
    else
        rc = 0;
    if (rc == 0) {
        *out = buf;
        *len = n;
    } else {
        free(buf);
    }
    return rc;
}

static int read_file(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    FILE *f;
    int rc;

    if (!strcmp(path, "-"))
        return read_all(stdin, "(stdin)", out, len, err, errlen);
    f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    rc = read_all(f, path, out, len, err, errlen);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        free(*out);
        rc = -1;
    }
    return rc;
}

/* An optional string key: 0 with *out NULL when absent, -1 when present
 * but not a string. */
static int optional_string(const json_t *root, const char *key, const char **out)
{
    const json_t *v = json_object_get(root, key);

    *out = v ? json_string_value(v) : NULL;
    return v && !*out ? -1 : 0;
}

/* The file's own keys: "name" (a label) and "format" (must agree). */
static int check_labels(const json_t *root, const char *path, ol_format format,
                        const char **name, char *err, size_t errlen)
{
    const char *declared;

    if (optional_string(root, "name", name) < 0) {
        snprintf(err, errlen, "%s: \"name\" must be a string", path);
        return -1;
    }
    if (optional_string(root, "format", &declared) < 0) {
        snprintf(err, errlen, "%s: \"format\" must be a string", path);
        return -1;
    }
    if (declared && strcmp(declared, ol_format_name(format))) {
        snprintf(err, errlen, "%s: the file says it is a \"%s\" deck, but it is being "
                 "checked as %s", path, declared, ol_format_name(format));
        return -1;
    }
    return 0;
}

/* Parse the bytes into d: the JSON, the labels, then the decklist. */
static int parse(deckfile *d, const char *path, const char *buf, size_t len,
                 ol_format format, char *err, size_t errlen)
{
    json_error_t jerr;
    olerror oerr;
    const char *name = NULL;
    int rc = -1, orc;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);

    memset(&oerr, 0, sizeof oerr);
    if (!root) {
        snprintf(err, errlen, "%s: line %d, column %d: %s", path, jerr.line,
                 jerr.column, jerr.text);
        goto done;
    }
    if (!json_is_object(root)) {
        snprintf(err, errlen, "%s: a deck file is one JSON object", path);
        goto done;
    }
    if (check_labels(root, path, format, &name, err, errlen) < 0)
        goto done;
    orc = olcodec_deck_from_json(root, format, "", d->arena, &d->deck, &oerr);
    if (orc != OL_OK) {
        snprintf(err, errlen, "%s: %s", path, orc == OL_ENOMEM ? "out of memory"
                 : oerr.msg[0] ? oerr.msg : "not a decklist");
        goto done;
    }
    if (!name)
        name = "";
    d->name = olarena_strndup(d->arena, name, strlen(name));
    if (!d->name) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto done;
    }
    rc = 0;
done:
    json_decref(root);
    return rc;
}

int deckfile_load(const char *path, ol_format format, deckfile **out,
                  char *err, size_t errlen)
{
    char scratch[1];
    char *buf = NULL;
    size_t len = 0;
    deckfile *d = NULL;
    int rc = -1;

    if (!err || errlen == 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = '\0';
    *out = NULL;
    if (read_file(path, &buf, &len, err, errlen) < 0)
        return -1;
    d = calloc(1, sizeof *d);
    if (d)
        d->arena = olarena_new();
    if (!d || !d->arena)
        snprintf(err, errlen, "%s: out of memory", path);
    else
        rc = parse(d, strcmp(path, "-") ? path : "(stdin)", buf, len, format, err, errlen);
    free(buf);
    if (rc == 0)
        *out = d;
    else
        deckfile_destroy(&d);
    return rc;
}

void deckfile_destroy(deckfile **d)
{
    if (!d || !*d)
        return;
    olarena_destroy(&(*d)->arena);
    free(*d);
    *d = NULL;
}

const ol_deck *deckfile_deck(const deckfile *d)
{
    return &d->deck;
}

const char *deckfile_name(const deckfile *d)
{
    return d->name ? d->name : "";
}

int deckfile_levers(ol_format format, const cards *db, const char *rules, olevent **hdr, char *err, size_t errlen)
{
    json_t *lev = json_loads(rules, JSON_REJECT_DUPLICATES, NULL);
    char named[160], *text = NULL;
    olerror oerr;
    int rc = -2, dr;

    *hdr = NULL;
    if (!lev || !json_is_object(lev)) {
        snprintf(err, errlen, "the levers must be a JSON object, such as '{\"deck_size\":70}'");
        json_decref(lev);
        return -1;
    }
    snprintf(named, sizeof named, "%s@%s", cards_set(db), cards_version(db));
    /* an empty decklist of every shape (openlog.md 5): the format reads
     * its own lists */
    json_t *h = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:{s:[], s:[], s:[], s:[]}}, "
                          "s:{s:s, s:{s:[], s:[], s:[], s:[]}}}, s:o}",
                          "match", "deck-check", "seq", 0, "type", "match", "by", "table", "format",
                          ol_format_name(format), "cards", named, "hidden", "open", "players", "p1", "id", "p1",
                          "deck", "monsters", "supports", "reserve", "main", "p2", "id", "p2", "deck", "monsters",
                          "supports", "reserve", "main", "rules", lev);
    text = h ? json_dumps(h, JSON_COMPACT) : NULL;
    json_decref(h);
    if (!text)
        return -2;
    memset(&oerr, 0, sizeof oerr);
    dr = olcodec_decode_json(text, strlen(text), (ol_origin){0, 0}, hdr, &oerr);
    if (dr == OL_OK) {
        rc = 0;
    } else if (dr != OL_ENOMEM) {
        /* the byte offset is into the header made here, not the caller's
         * text: the sentence only */
        const char *say = oerr.msg, *cut = strstr(say, ": ");
        if (!strncmp(say, "byte ", 5) && cut)
            say = cut + 2;
        snprintf(err, errlen, "%s", say);
        rc = -1;
    }
    free(text);
    return rc;
}

int deckfile_check(const deckfile *d, ol_format format, const cards *db, const ol_header *levers,
                   deck_violation **out, size_t *n)
{
    deck_violation *v;

    *out = NULL;
    if (deck_check(format, db, levers, &d->deck, NULL, NULL, 0, n) != 0)
        return -1;
    v = calloc(*n ? *n : 1, sizeof *v);
    if (!v || deck_check(format, db, levers, &d->deck, NULL, v, *n, n) != 0) {
        free(v);
        return -1;
    }
    *out = v;
    return 0;
}
