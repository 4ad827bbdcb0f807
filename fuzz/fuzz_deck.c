/* fuzz_deck.c -- a decklist file's bytes through the deck loader and checker.
 *
 * Feeds: the input as the contents of a DECK.json file, read by
 * deckfile_load() (src/core/deckfile.h) as a deck of each format with decklists
 * in turn, and every deck that loads checked by deck_check()
 * (verifiers/deck.h) against fixtures/cards/core.json (ARBITER_CARDS
 * overrides) -- the calls of `arbiter deck check` (src/cli/cmd_deck.c
 * check_one): count the violations, then fetch them all.
 *
 * deckfile_load() takes a path only, NULL, so the bytes are written to a memfd
 * (an anonymous in-memory file) and the loader opens /proc/self/fd/N: no
 * disk, nothing left behind.
 *
 * Checks: a refusal has a sentence; the second deck_check() counts what the
 * first did; every violation names a rule of the format (deck_rules) and
 * has a sentence.
 *
 * Why: the decklist decoder (olcodec_deck_from_json) is the one the daemon
 * uses for the decks inside every match header, and the construction rules
 * index the card database with ids from the file.
 *
 * Seeds: the decklists under fixtures/decks/ (fuzz/seed.sh).
 */
#define _GNU_SOURCE   /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/harness.h"
#include "src/core/carddb.h"
#include "src/core/deckfile.h"
#include "verifiers/deck.h"
#include "verifiers/verifier.h"

static cards *db;
static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char err[4096];
    (void)argc;
    (void)argv;
    fuzz_quiet();
    if (carddb_load_file(fuzz_cards_path(), &db, err, sizeof err))
        fuzz_fail("%s", err);
    if ((fd = memfd_create("fuzz-deck", 0)) < 0)
        fuzz_fail("memfd_create failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

static int known_rule(ol_format f, const char *rule)
{
    size_t n = 0;
    const deck_rule_info *r = deck_rules(f, &n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(r[i].rule, rule))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        fuzz_fail("cannot write the memfd");
    for (size_t i_ = 0; verifier_engine_at(i_); i_++) {
        ol_format f = verifier_engine_at(i_)->format;
        if (!verifier_engine_at(i_)->deck)
            continue;   /* a format without decklists (classic Snap) has no deck to check */
        char err[512];
        deckfile *d = NULL;
        deck_violation *v = NULL;
        size_t n = 0, again = 0;

        if (deckfile_load(path, f, &d, err, sizeof err) < 0) {
            if (d || !err[0])
                fuzz_fail("deckfile_load: a refusal without a sentence");
            continue;
        }
        (void)deckfile_name(d);
        if (deck_check(f, db, NULL, deckfile_deck(d), NULL, NULL, 0, &n))
            fuzz_fail("deck_check refused format %d", f);
        if (!(v = calloc(n ? n : 1, sizeof *v)))
            fuzz_fail("out of memory");
        if (deck_check(f, db, NULL, deckfile_deck(d), "p1", v, n, &again) || again != n)
            fuzz_fail("deck_check counted %zu violations, then %zu", n, again);
        for (size_t i = 0; i < n; i++)
            if (!known_rule(f, v[i].rule) || !v[i].msg[0] || !memchr(v[i].msg, 0, sizeof v[i].msg))
                fuzz_fail("violation %zu cites \"%.*s\", not a rule of %s, or has no sentence", i,
                          (int)sizeof v[i].rule, v[i].rule, ol_format_name(f));
        free(v);
        deckfile_destroy(&d);
    }
    return 0;
}
