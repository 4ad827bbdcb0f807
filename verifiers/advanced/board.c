/* board.c -- the Advanced board, as a viewer may see it, and the Advanced
 * state's canonical encoding.
 *
 * What: the board in JSON (advanced_board_json: keys in the order README.md
 * documents for `arbiter replay --json`), in words for a judge
 * (advanced_board_words), and the canonical encoding whose BLAKE2b-256 is
 * the per-event state hash of every record (advanced_encode).
 *
 * Why here: only the engine knows its zones.  The one hidden zone of
 * Advanced is the hand; every hand card is shown through openlog_show()
 * for the sight src/view.c made, so no code here decides who sees what.
 * Everything else on an Advanced board is public: monsters are face-up
 * (RULINGS A1), Life Points, the chain, the attack, the graveyard, and the
 * number of cards in each deck.
 *
 * The canonical encoding of engine advanced/1 is the board in JSON at full
 * sight.  Records keep hashes of it: a key added for viewers stays out of
 * advanced_encode, or comes with a new engine version.
 */
#include <stdint.h>
#include <string.h>

#include "logformat/jtext.h"
#include "verifiers/advanced/advanced.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"

static const char *pname(int p)
{
    return p ? "p2" : "p1";
}

static const char *step_name(adv_step st)
{
    static const char *const names[] = {"setup", "select", "main", "position", "evolve", "attack", "end", "over"};
    _Static_assert(sizeof names / sizeof names[0] == ADV_OVER + 1, "a name for every step");
    return names[st];
}

static const char *window_name(adv_window w)
{
    static const char *const names[] = {NULL, "spell", "attack", "counter"};
    _Static_assert(sizeof names / sizeof names[0] == ADV_WIN_COUNTER + 1, "a name for every window");
    return names[w];
}

/* The card on top of the zone's stack, or NULL for an empty zone (a
 * present monster's stack holds at least its base card). */
static const card *top(const adv_monster *m)
{
    return m->present ? m->stack[m->depth - 1] : NULL;
}

/* ---- JSON ------------------------------------------------------------------ */

static void monster_json(jtext *t, const adv_monster *m)
{
    const card *c = top(m);
    if (!c) {
        jtext_lit(t, "null");
        return;
    }
    jtext_lit(t, "{\"card\":");
    jtext_str(t, c->id);
    jtext_lit(t, ",\"name\":");
    jtext_str(t, c->name);
    jtext_lit(t, ",\"stack\":[");
    for (int i = 0; i < m->depth; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_str(t, m->stack[i]->id);
    }
    jtext_lit(t, "],\"position\":");
    jtext_str(t, m->pos == OL_POS_AP ? "ap" : "dp");
    jtext_lit(t, ",\"atk\":");
    jtext_int(t, c->advanced.atk);
    jtext_lit(t, ",\"def\":");
    jtext_int(t, c->advanced.def);
    jtext_lit(t, ",\"atk_mod\":");
    jtext_int(t, m->atk_mod);
    jtext_lit(t, ",\"def_mod\":");
    jtext_int(t, m->def_mod);
    jtext_lit(t, ",\"attacked\":");
    jtext_bool(t, m->attacked);
    jtext_lit(t, ",\"switched\":");
    jtext_bool(t, m->switched);
    jtext_lit(t, ",\"evolved\":");
    jtext_bool(t, m->evolved);
    jtext_lit(t, "}");
}

static void player_json(jtext *t, const advanced_state *s, const openlog_sight *sight, int p)
{
    const adv_side *sd = &s->side[p];
    char id[sizeof s->ol.names[0]];

    openlog_player_id(&s->ol, p, id, sizeof id);
    jtext_lit(t, "{\"name\":");
    jtext_str(t, id);
    jtext_lit(t, ",\"lp\":");
    jtext_int(t, sd->lp);
    jtext_lit(t, ",\"zones\":[");
    for (int i = 0; i < s->zones; i++) {
        if (i)
            jtext_lit(t, ",");
        monster_json(t, &sd->zone[i]);
    }
    jtext_lit(t, "],\"hand\":{\"count\":");
    jtext_int(t, sd->n_hand);
    jtext_lit(t, ",\"cards\":[");
    for (int i = 0; i < sd->n_hand; i++) {
        if (i)
            jtext_lit(t, ",");
        openlog_shown_json(t, openlog_show(sight, p, &sd->hand[i]));
    }
    jtext_lit(t, "]},\"deck\":");
    jtext_int(t, sd->deck_left);
    jtext_lit(t, ",\"graveyard\":[");
    for (int i = 0; i < sd->n_grave; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_str(t, sd->grave[i]->id);
    }
    jtext_lit(t, "],\"lost\":");
    jtext_int(t, sd->lost);
    jtext_lit(t, ",\"pending\":{\"select\":");
    jtext_int(t, sd->select_due);
    jtext_lit(t, ",\"selection_prevented\":");
    /* `prevent` is set only for the active player, as their turn begins,
     * and cleared as they end it (advanced.c begin_turn, do_end) */
    jtext_bool(t, sd->prevent_next || sd->prevent);
    jtext_lit(t, "}}");
}


static void attack_json(jtext *t, const advanced_state *s)
{
    if (!s->attack_on) {
        jtext_lit(t, "null");
        return;
    }
    jtext_lit(t, "{\"attacker\":{\"player\":");
    jtext_str(t, pname(s->turn));
    jtext_lit(t, ",\"slot\":");
    jtext_int(t, s->attacker);
    jtext_lit(t, "},\"target\":{\"player\":");
    jtext_str(t, pname(s->attack_target.p));
    jtext_lit(t, ",\"slot\":");
    if (s->attack_target.kind == OL_REF_MONSTER)
        jtext_int(t, s->attack_target.slot);
    else
        jtext_lit(t, "null");
    jtext_lit(t, "},\"fizzled\":");
    jtext_bool(t, s->fizzled);
    jtext_lit(t, "}");
}

int advanced_board_json(const advanced_state *s, const openlog_sight *sight, jtext *t)
{
    jtext_lit(t, "{\"round\":");
    jtext_int(t, s->setup_done ? (s->turns + 1) / 2 : 0);
    jtext_lit(t, ",\"turn\":");
    jtext_str_if(t, s->setup_done, pname(s->turn));
    jtext_lit(t, ",\"step\":");
    jtext_str(t, step_name(s->step));
    jtext_lit(t, ",\"window\":");
    jtext_str_or_null(t, window_name(s->window));
    jtext_lit(t, ",\"chain\":");
    chain_json(t, s->chain, s->n_chain);
    jtext_lit(t, ",\"attack\":");
    attack_json(t, s);
    jtext_lit(t, ",\"players\":{\"p1\":");
    player_json(t, s, sight, 0);
    jtext_lit(t, ",\"p2\":");
    player_json(t, s, sight, 1);
    jtext_lit(t, "},\"over\":");
    jtext_bool(t, s->ol.over);
    jtext_lit(t, ",\"winner\":");
    jtext_str_if(t, s->ol.over && s->ol.winner >= 0, pname(s->ol.winner));
    jtext_lit(t, "}");
    return t->bad ? -1 : 0;
}

int advanced_encode(const advanced_state *s, jtext *t)
{
    static const openlog_sight all = {{1, 1}};
    return advanced_board_json(s, &all, t);
}

/* ---- words ------------------------------------------------------------------ */

static void monster_words(jtext *t, const adv_monster *m, int slot)
{
    const card *c = top(m);
    jtext_fmt(t, "  zone %d     ", slot);
    if (!c) {
        jtext_fmt(t, "(empty)\n");
        return;
    }
    jtext_fmt(t, "%s  %s  ATK %ld", c->name, m->pos == OL_POS_AP ? "AP" : "DP", (long)c->advanced.atk);
    if (m->atk_mod)
        jtext_fmt(t, " (%+ld)", (long)m->atk_mod);
    jtext_fmt(t, " / DEF %ld", (long)c->advanced.def);
    if (m->def_mod)
        jtext_fmt(t, " (%+ld)", (long)m->def_mod);
    if (m->depth > 1) {
        jtext_fmt(t, "  stack:");
        for (int i = 0; i < m->depth; i++)
            jtext_fmt(t, "%s %s", i ? " >" : "", m->stack[i]->name);
    }
    if (m->attacked || m->switched || m->evolved)
        jtext_fmt(t, "  (this turn:%s%s%s)", m->attacked ? " attacked" : "", m->switched ? " switched" : "",
                  m->evolved ? " evolved" : "");
    jtext_fmt(t, "\n");
}

static void player_words(jtext *t, const advanced_state *s, const openlog_sight *sight, int p)
{
    const adv_side *sd = &s->side[p];
    int k = 0, committed = 0, unknown = 0;

    jtext_fmt(t, "\n%s%s  LP %ld\n", s->ol.names[p], sight->sees[p] && !sight->sees[1 - p] ? "  (you)" : "",
              (long)sd->lp);
    for (int i = 0; i < s->zones; i++)
        monster_words(t, &sd->zone[i], i);
    jtext_fmt(t, "  hand       %u card%s", sd->n_hand, sd->n_hand == 1 ? "" : "s");
    for (int i = 0; i < sd->n_hand; i++) {
        openlog_shown sh = openlog_show(sight, p, &sd->hand[i]);
        committed += sh.kind == OPENLOG_SHOWN_COMMITTED;
        unknown += sh.kind == OPENLOG_SHOWN_UNKNOWN;
        if (sh.kind == OPENLOG_SHOWN_CARD)
            jtext_fmt(t, "%s %s", k++ ? "," : ":", sh.card->name);
    }
    /* A hand is all named, all committed or all unknown: the header's
     * hidden mode decides the shape of every card selected
     * (openlog_take_href), so at most one of these three is said. */
    if (committed)
        jtext_fmt(t, ": %d committed, not yet revealed", committed);
    if (unknown)
        jtext_fmt(t, ": %d unknown", unknown);
    jtext_fmt(t, "\n  deck       %u card%s\n", sd->deck_left, sd->deck_left == 1 ? "" : "s");
    jtext_fmt(t, "  graveyard  %u", sd->n_grave);
    for (int i = 0; i < sd->n_grave; i++)
        jtext_fmt(t, "%s %s", i ? "," : ":", sd->grave[i]->name);
    jtext_fmt(t, "\n  defeated   %u monster%s\n", sd->lost, sd->lost == 1 ? "" : "s");
    if (sd->select_due)
        jtext_fmt(t, "  pending    select %u card%s\n", sd->select_due, sd->select_due == 1 ? "" : "s");
}

static void moment_words(jtext *t, const advanced_state *s)
{
    static const char *const steps[] = {"setup", "Selection Step", "Main Phase", "Position Step", "Evolution Step",
                                        "Attack Phase", "End Phase", "game over"};
    const char *w = window_name(s->window);

    if (s->ol.over)
        jtext_fmt(t, "game over: %s\n", s->ol.winner >= 0 ? s->ol.names[s->ol.winner] : "no winner");
    else if (!s->setup_done)
        jtext_fmt(t, "setup: opening selections\n");
    else
        jtext_fmt(t, "round %u, %s to play, %s\n", (s->turns + 1) / 2, s->ol.names[s->turn], steps[s->step]);
    jtext_fmt(t, "window: %s\n", w ? w : "none");
    chain_words(t, s->chain, s->n_chain);
    /* An attack on the board is one whose window is open, or was when the
     * game ended by a ruling: its attacker and its target are still on the
     * field (a Counter's destruction, or a fizzle, shows only as the chain
     * resolves, and the combat or the game's end follows at once). */
    if (s->attack_on) {
        const adv_monster *a = &s->side[s->turn].zone[s->attacker];
        jtext_fmt(t, "attack: %s %s (zone %d) -> ", pname(s->turn), top(a)->name, s->attacker);
        if (s->attack_target.kind == OL_REF_PLAYER) {
            jtext_fmt(t, "%s directly\n", pname(s->attack_target.p));
        } else {
            const adv_monster *d = &s->side[s->attack_target.p].zone[s->attack_target.slot];
            jtext_fmt(t, "%s %s (zone %d)\n", pname(s->attack_target.p), top(d)->name, s->attack_target.slot);
        }
    }
}

int advanced_board_words(const advanced_state *s, const openlog_sight *sight, jtext *t)
{
    moment_words(t, s);
    for (int p = 0; p < 2; p++)
        player_words(t, s, sight, p);
    return t->bad ? -1 : 0;
}
