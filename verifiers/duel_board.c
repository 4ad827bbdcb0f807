/* duel_board.c -- the board of an Advanced or Master match, as a viewer may
 * see it (duel.h).
 *
 * What: the board in JSON (keys in the order arbiter-replay(1) documents for
 * `arbiter replay --json`) and in words for a judge, for both formats of
 * the duel family.  What both formats show -- the moment (round, turn,
 * step, window), the chain, the attack, and per player the Life Points,
 * the Monster Zones with each stack and position, the hand, the deck, the
 * Graveyard, the defeats and what the player owes -- is written here once;
 * each format's duel_board hooks add what only it has (Advanced's ATK,
 * Master's DEF and attacks, the Mana Zone, Ongoing Spells) at fixed places.
 *
 * Why the hooks write into fixed places rather than the format writing its
 * own board: Advanced's canonical encoding (advanced/1) is its board in JSON
 * at full sight, and records keep hashes of it -- the shared writer must
 * give Advanced exactly the bytes it always gave.
 *
 * Who sees what is not decided here: every hidden card is shown through
 * openlog_show() for the sight src/core/view.c made.
 */
#include <stdint.h>
#include <string.h>

#include "logformat/jtext.h"
#include "verifiers/chain.h"
#include "verifiers/duel.h"
#include "verifiers/openlog.h"

static const char *pname(int p)
{
    return p ? "p2" : "p1";
}

static const char *step_name(duel_step st)
{
    static const char *const names[] = {"setup", "mana", "select", "main", "summon", "position",
                                        "evolve", "attack", "end", "over"};
    _Static_assert(sizeof names / sizeof names[0] == DUEL_OVER + 1, "a name for every step");
    return names[st];
}

static const char *window_name(duel_window w)
{
    static const char *const names[] = {NULL, "spell", "attack", "counter"};
    _Static_assert(sizeof names / sizeof names[0] == DUEL_WIN_COUNTER + 1, "a name for every window");
    return names[w];
}

/* ---- JSON ------------------------------------------------------------------ */

static void monster_json(jtext *t, const duel_state *s, const duel_board *b, int p, const duel_monster *m)
{
    if (!m->present) {
        jtext_lit(t, "null");
        return;
    }
    const card *c = duel_top(m);
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
    if (b->monster_json)
        b->monster_json(t, s, p, m);
    jtext_lit(t, ",\"attacked\":");
    jtext_bool(t, m->attacked);
    jtext_lit(t, ",\"switched\":");
    jtext_bool(t, m->switched);
    jtext_lit(t, ",\"evolved\":");
    jtext_bool(t, m->evolved);
    jtext_lit(t, "}");
}

static void player_json(jtext *t, const duel_state *s, const duel_board *b, const openlog_sight *sight, int p)
{
    const duel_side *sd = &s->side[p];
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
        monster_json(t, s, b, p, &sd->zone[i]);
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
    if (b->player_json)
        b->player_json(t, s, sight, p);
    jtext_lit(t, ",\"pending\":{\"select\":");
    jtext_int(t, sd->select_due);
    jtext_lit(t, ",\"selection_prevented\":");
    /* `prevent` is set only for the active player, as their turn begins,
     * and cleared as they end it (duel.c begin_turn, do_end) */
    jtext_bool(t, sd->prevent_next || sd->prevent);
    if (b->pending_json)
        b->pending_json(t, s, p);
    jtext_lit(t, "}}");
}

static void attack_json(jtext *t, const duel_state *s, const duel_board *b)
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
    if (b->attack_json)
        b->attack_json(t, s);
    jtext_lit(t, "}");
}

int duel_board_json(const duel_state *s, const openlog_sight *sight, jtext *t)
{
    const duel_board *b = s->fmt->board;
    jtext_lit(t, "{\"round\":");
    jtext_int(t, duel_round(s));
    jtext_lit(t, ",\"turn\":");
    jtext_str_if(t, s->setup_done, pname(s->turn));
    jtext_lit(t, ",\"step\":");
    jtext_str(t, step_name(s->step));
    jtext_lit(t, ",\"window\":");
    jtext_str_or_null(t, window_name(s->window));
    jtext_lit(t, ",\"chain\":");
    chain_json(t, s->chain, s->n_chain);
    jtext_lit(t, ",\"attack\":");
    attack_json(t, s, b);
    jtext_lit(t, ",\"players\":{\"p1\":");
    player_json(t, s, b, sight, 0);
    jtext_lit(t, ",\"p2\":");
    player_json(t, s, b, sight, 1);
    jtext_lit(t, "},\"over\":");
    jtext_bool(t, s->ol.over);
    jtext_lit(t, ",\"winner\":");
    jtext_str_if(t, s->ol.over && s->ol.winner >= 0, pname(s->ol.winner));
    jtext_lit(t, "}");
    return t->bad ? -1 : 0;
}

/* ---- words ------------------------------------------------------------------ */

static void monster_words(jtext *t, const duel_state *s, const duel_board *b, int p, const duel_monster *m, int slot)
{
    jtext_fmt(t, "  zone %d     ", slot);
    if (!m->present) {
        jtext_fmt(t, "(empty)\n");
        return;
    }
    const card *c = duel_top(m);
    jtext_fmt(t, "%s  %s", c->name, m->pos == OL_POS_AP ? "AP" : "DP");
    if (b->monster_words)
        b->monster_words(t, s, p, m);
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

/* ", Name" for each card the sight names, then ": N committed, not yet
 * revealed" or ": N unknown" -- a hidden zone is all named, all committed
 * or all unknown: the header's hidden mode decides the shape of every
 * card (openlog_take_href), so at most one of these is said. */
void duel_hidden_words(jtext *t, const openlog_sight *sight, int p, const openlog_card *zone, int n, size_t stride)
{
    int k = 0, committed = 0, unknown = 0;
    for (int i = 0; i < n; i++) {
        const openlog_card *h = (const openlog_card *)(const void *)((const char *)zone + (size_t)i * stride);
        openlog_shown sh = openlog_show(sight, p, h);
        committed += sh.kind == OPENLOG_SHOWN_COMMITTED;
        unknown += sh.kind == OPENLOG_SHOWN_UNKNOWN;
        if (sh.kind == OPENLOG_SHOWN_CARD)
            jtext_fmt(t, "%s %s", k++ ? "," : ":", sh.card->name);
    }
    if (committed)
        jtext_fmt(t, ": %d committed, not yet revealed", committed);
    if (unknown)
        jtext_fmt(t, ": %d unknown", unknown);
}

static void player_words(jtext *t, const duel_state *s, const duel_board *b, const openlog_sight *sight, int p)
{
    const duel_side *sd = &s->side[p];

    jtext_fmt(t, "\n%s%s  LP %ld\n", s->ol.names[p], sight->sees[p] && !sight->sees[1 - p] ? "  (you)" : "",
              (long)sd->lp);
    for (int i = 0; i < s->zones; i++)
        monster_words(t, s, b, p, &sd->zone[i], i);
    jtext_fmt(t, "  hand       %u card%s", sd->n_hand, sd->n_hand == 1 ? "" : "s");
    duel_hidden_words(t, sight, p, sd->hand, sd->n_hand, sizeof sd->hand[0]);
    jtext_fmt(t, "\n  deck       %u card%s\n", sd->deck_left, sd->deck_left == 1 ? "" : "s");
    jtext_fmt(t, "  graveyard  %u", sd->n_grave);
    for (int i = 0; i < sd->n_grave; i++)
        jtext_fmt(t, "%s %s", i ? "," : ":", sd->grave[i]->name);
    jtext_fmt(t, "\n  defeated   %u monster%s\n", sd->lost, sd->lost == 1 ? "" : "s");
    if (b->player_words)
        b->player_words(t, s, sight, p);
    if (sd->select_due)
        jtext_fmt(t, "  pending    select %u card%s\n", sd->select_due, sd->select_due == 1 ? "" : "s");
}

static void moment_words(jtext *t, const duel_state *s, const duel_board *b)
{
    const char *w = window_name(s->window);

    if (s->ol.over)
        jtext_fmt(t, "game over: %s\n", s->ol.winner >= 0 ? s->ol.names[s->ol.winner] : "no winner");
    else if (!s->setup_done)
        jtext_fmt(t, "setup: opening selections\n");
    else
        jtext_fmt(t, "round %u, %s to play, %s\n", duel_round(s), s->ol.names[s->turn], duel_step_words(s, s->step));
    jtext_fmt(t, "window: %s\n", w ? w : "none");
    chain_words(t, s->chain, s->n_chain);
    /* An attack on the board is one whose window is open, or was when the
     * game ended by a ruling: its attacker and its target are still on the
     * field (a Counter's destruction, or a fizzle, shows only as the chain
     * resolves, and the fight or the game's end follows at once). */
    if (s->attack_on) {
        const duel_monster *a = &s->side[s->turn].zone[s->attacker];
        jtext_fmt(t, "attack: %s %s (zone %d)", pname(s->turn), duel_top(a)->name, s->attacker);
        if (b->attack_words)
            b->attack_words(t, s);
        if (s->attack_target.kind == OL_REF_PLAYER) {
            jtext_fmt(t, " -> %s directly\n", pname(s->attack_target.p));
        } else {
            const duel_monster *d = &s->side[s->attack_target.p].zone[s->attack_target.slot];
            jtext_fmt(t, " -> %s %s (zone %d)\n", pname(s->attack_target.p), duel_top(d)->name, s->attack_target.slot);
        }
    }
}

int duel_board_words(const duel_state *s, const openlog_sight *sight, jtext *t)
{
    const duel_board *b = s->fmt->board;
    moment_words(t, s, b);
    for (int p = 0; p < 2; p++)
        player_words(t, s, b, sight, p);
    return t->bad ? -1 : 0;
}

int duel_encode(const duel_state *s, jtext *t)
{
    static const openlog_sight all = {{1, 1}};
    return duel_board_json(s, &all, t);
}
