/* advancedscript.c -- a scripted Advanced game for the Criterion suites
 * (advancedscript.h says how to use it). */
#include "tests/advancedscript.h"

#define P1_DECK "fixtures/decks/advanced/legal-coreon-ember.json"
#define P2_DECK "fixtures/decks/advanced/legal-obscura-night.json"

olverdict adv_start(const char *hidden, const char *rules)
{
    return adv_start_decks(hidden, rules, P1_DECK, P2_DECK);
}

olverdict adv_start_decks(const char *hidden, const char *rules, const char *p1deck, const char *p2deck)
{
    return duel_script_start("advanced", hidden, rules, p1deck, p2deck);
}

char *adv_header_text(const char *hidden, const char *rules)
{
    return duel_script_header_text("advanced", hidden, rules, P1_DECK, P2_DECK);
}

void adv_rewrite_card(const char *id, const char *from, const char *to)
{
    duel_script_rewrite_card("advanced", id, from, to);
}

void adv_open(void)
{
    adv_open_with(P1_OPEN, P2_OPEN);
}
