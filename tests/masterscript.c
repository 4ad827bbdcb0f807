/* masterscript.c -- a scripted Master game for the Criterion suites
 * (masterscript.h says how to use it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/masterscript.h"

olverdict mst_start(const char *hidden, const char *rules)
{
    return mst_start_decks(hidden, rules, P1_DECK, P2_DECK);
}

olverdict mst_start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck)
{
    return duel_script_start("master", hidden, rules, p1deck, p2deck);
}

void mst_open(void)
{
    mst_open_with(P1_OPEN, P2_OPEN);
}

void mst_rewrite_card(const char *id, const char *from, const char *to)
{
    duel_script_rewrite_card("master", id, from, to);
}

void mst_rewrite_effect(const char *id, const char *op, const char *target, const char *to)
{
    duel_script_rewrite_effect("master", id, op, target, to);
}

const char *mst_class_of(const char *id)
{
    static const char *const prefix[][2] = {
        {"cor-", "coreon"}, {"flx-", "fluxion"}, {"syn-", "synaphera"}, {"obs-", "obscura"}, {"aet-", "aetherion"}};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
        if (!strncmp(id, prefix[i][0], 4))
            return prefix[i][1];
    cr_assert_fail("%s is no core card id", id);
    return NULL;
}

void mst_turn(const char *by, const char *mana, const char *selected)
{
    char body[256];
    if (mana) {
        snprintf(body, sizeof body, "\"type\":\"mana\",\"by\":\"%s\",\"card\":\"%s\",\"class\":\"%s\"", by, mana,
                 mst_class_of(mana));
        ok(body);
    }
    select_one(by, selected);
}

char *mst_deck_with(const char *deck, const char *from, const char *const to[], int n)
{
    char *text = duel_script_header_text("master", "open", NULL, deck, deck), quoted[96];
    char *list = strstr(text, "\"main\":") + 7, *end = strstr(list, "]}") + 1;
    *end = 0;
    size_t need = strlen(list) + 1;
    for (int i = 0; i < n; i++)
        need += strlen(to[i]) + 2;
    char *out = calloc(need, 1);
    cr_assert_not_null(out);
    snprintf(quoted, sizeof quoted, "\"%s\"", from);
    const char *at = list;
    for (int i = 0; i < n; i++) {
        const char *hit = strstr(at, quoted);
        cr_assert_not_null(hit, "%s: fewer than %d copies of %s", deck, n, from);
        strncat(out, at, (size_t)(hit - at));
        strcat(out, "\"");
        strcat(out, to[i]);
        strcat(out, "\"");
        at = hit + strlen(quoted);
    }
    strcat(out, at);
    free(text);
    return out;
}
