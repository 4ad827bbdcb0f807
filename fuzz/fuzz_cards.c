/* fuzz_cards.c -- a card database loaded from bytes, then used.
 *
 * Feeds: the input as the bytes of a card database file to
 * carddb_load_buffer() (src/core/carddb.h, format fixtures/cards/README.md):
 * what `arbiter cards`, `--cards` and the daemon's start and SIGHUP load,
 * and what the daemon loads again from its store for a record that pins
 * an older database (cardset_by_hash).
 *
 * Why: the loader validates a file a person edited; the engines then
 * trust every card it hands over (effects, targets, amounts, evolution
 * lines).  So a database that loads is also put to use: its content hash
 * must be BLAKE2b-256 of the bytes (its identity, openlog.md 10), every
 * card must be found by its id, three fixed decks (one per format) are
 * checked against it (deck_check), and one fixed Snap game
 * (fixtures/snap/legal-open-concede.jsonl, decoded once at start) is judged
 * with it through a verify session -- a mutated core.json that still says
 * "core@1.1.0" drives the engine with odd cards.  A refusal must come with
 * at least one sentence.
 *
 * Seeds: the files of fixtures/cards/ and fixtures/cards/broken/ (fuzz/seed.sh).
 * Run with -max_len=262144: core.json is 125 KiB (fuzz/README.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "fuzz/harness.h"
#include "src/core/carddb.h"
#include "src/core/deckfile.h"
#include "src/core/verify.h"
#include "verifiers/deck.h"

#define GAME_MAX 512

static const char *const deck_files[] = {
    "fixtures/decks/snap/legal-coreon-molten-crown.json",
    "fixtures/decks/advanced/legal-coreon-ember.json",
    "fixtures/decks/master/legal-coreon-ember.json",
};
static const ol_format deck_formats[] = {OL_FORMAT_SNAP, OL_FORMAT_ADVANCED, OL_FORMAT_MASTER};
static deckfile *decks[3];

static struct {
    olevent *ev;
    char *raw;
    size_t len;
} game[GAME_MAX];
static size_t game_n;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char err[512];
    size_t len;
    (void)argc;
    (void)argv;
    fuzz_quiet();
    if (sodium_init() < 0)
        fuzz_fail("sodium_init failed");
    for (int i = 0; i < 3; i++)
        if (deckfile_load(fuzz_src_path(deck_files[i]), (ol_format)deck_formats[i], &decks[i], err, sizeof err))
            fuzz_fail("%s", err);
    char *text = fuzz_read_file(fuzz_src_path("fixtures/snap/legal-open-concede.jsonl"), &len), *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l && game_n < GAME_MAX; l = strtok_r(NULL, "\n", &save)) {
        olerror oerr;
        game[game_n].len = strlen(l);
        game[game_n].raw = strdup(l);
        if (olcodec_decode_json(l, game[game_n].len, (ol_origin){0, 0}, &game[game_n].ev, &oerr) != OL_OK)
            fuzz_fail("the fixed game does not decode: %s", oerr.msg);
        game_n++;
    }
    free(text);
    return 0;
}

static void use(const cards *db, const uint8_t *data, size_t size)
{
    uint8_t hash[32];
    verify_session *s = NULL;
    const verify_entry *e;

    crypto_generichash(hash, sizeof hash, data, size, NULL, 0);
    if (memcmp(hash, cards_hash(db), sizeof hash))
        fuzz_fail("a database's hash is not BLAKE2b-256 of its bytes");
    for (size_t i = 0; i < cards_count(db); i++) {
        const card *c = cards_at(db, i);
        if (cards_find(db, c->id) != c)
            fuzz_fail("card %zu is not found by its id", i);
    }
    for (int i = 0; i < 3; i++) {
        deck_violation v[8];
        size_t n = 0, again = 0;
        if (deck_check(deck_formats[i], db, NULL, deckfile_deck(decks[i]), "p1", NULL, 0, &n) ||
            deck_check(deck_formats[i], db, NULL, deckfile_deck(decks[i]), "p1", v, 8, &again) || n != again)
            fuzz_fail("deck_check does not count the same violations twice");
    }
    if (verify_session_new(db, "fuzz", &s) != VERIFY_OK)
        fuzz_fail("verify_session_new: out of memory");
    for (size_t i = 0; i < game_n; i++)
        if (verify_session_event(s, game[i].ev, game[i].raw, game[i].len, &e) != VERIFY_OK)
            fuzz_fail("verify_session_event: out of memory");
    json_t *j = verify_report_json(verify_session_report(s));
    if (!j)
        fuzz_fail("verify_report_json: out of memory");
    json_decref(j);
    verify_session_destroy(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[4096];
    cards *db = NULL;

    memset(err, 'x', sizeof err);
    int rc = carddb_load_buffer((const char *)data, size, "fuzz", &db, err, sizeof err);
    if (!memchr(err, 0, sizeof err))
        fuzz_fail("the error buffer is not NUL-terminated");
    if (rc == 0) {
        if (!db)
            fuzz_fail("carddb_load_buffer: 0 and no database");
        use(db, data, size);
        cards_destroy(&db);
    } else {
        if (rc > 0 || db)
            fuzz_fail("carddb_load_buffer: %d, database %p", rc, (void *)db);
        if (!err[0])
            fuzz_fail("a database refused without a sentence");
    }
    return 0;
}
