/* board.c -- what the Advanced board adds to the duel's (duel_board.c), and
 * the Advanced state's canonical encoding.
 *
 * Everything on an Advanced board is public but the hand: monsters are
 * face-up (RULINGS A1); Life Points, the chain, the attack, the Graveyard
 * and the number of cards in each deck are seen by all.  Advanced adds ATK
 * and the modifiers of both stats to each monster, nothing else.
 *
 * The canonical encoding of engine advanced/1 is the board in JSON at full
 * sight (duel_encode).  Records keep hashes of it: a key added for viewers
 * stays out of it, or comes with a new engine version.
 */
#include <stdint.h>

#include "logformat/jtext.h"
#include "verifiers/advanced/advanced.h"

static void monster_json(jtext *t, const duel_state *s, int p, const duel_monster *m)
{
    const card *c = duel_top(m);
    (void)s;
    (void)p;
    jtext_lit(t, ",\"atk\":");
    jtext_int(t, c->advanced.atk);
    jtext_lit(t, ",\"def\":");
    jtext_int(t, c->advanced.def);
    jtext_lit(t, ",\"atk_mod\":");
    jtext_int(t, m->atk_mod);
    jtext_lit(t, ",\"def_mod\":");
    jtext_int(t, m->def_mod);
}

static void monster_words(jtext *t, const duel_state *s, int p, const duel_monster *m)
{
    const card *c = duel_top(m);
    (void)s;
    (void)p;
    jtext_fmt(t, "  ATK %ld", (long)c->advanced.atk);
    if (m->atk_mod)
        jtext_fmt(t, " (%+ld)", (long)m->atk_mod);
    jtext_fmt(t, " / DEF %ld", (long)c->advanced.def);
    if (m->def_mod)
        jtext_fmt(t, " (%+ld)", (long)m->def_mod);
}

/* Advanced adds ATK to each monster, nothing to a player or the attack. */
const duel_board advanced_board = {
    .monster_json = monster_json,
    .monster_words = monster_words,
};
