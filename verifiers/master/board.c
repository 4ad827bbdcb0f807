/* board.c -- what the Master board adds to the duel's (duel_board.c), and
 * the Master state's canonical encoding.
 *
 * Master adds to each monster its DEF (base, this turn's change, and what
 * Ongoing Spells keep in force) and its attacks with whether each could be
 * declared now; to each player the Mana Zone -- its cards face-down,
 * shown through openlog_show() like the hand, and its classes, public --
 * with what is ready, the Ongoing Spells and the mana an effect still owes
 * or allows; to the attack its chosen attack.
 *
 * The canonical encoding of engine master/1 is the board in JSON at full
 * sight; records keep hashes of it, so a key added later stays out of
 * duel_encode or comes with a new engine version.
 */
#include <stdint.h>

#include "logformat/jtext.h"
#include "verifiers/master/master.h"

static const char *const class_names[] = {"coreon", "fluxion", "synaphera", "obscura", "aetherion"};
_Static_assert(sizeof class_names / sizeof class_names[0] == CLASS_COUNT, "a name for every class");

static void cost_json(jtext *t, const mana_cost *cost)
{
    int k = 0;
    jtext_lit(t, "{");
    for (int c = 0; c < CLASS_COUNT; c++)
        if (cost->by_class[c]) {
            jtext_raw(t, ",", k++ ? 1 : 0);
            jtext_str(t, class_names[c]);
            jtext_lit(t, ":");
            jtext_int(t, cost->by_class[c]);
        }
    if (cost->any) {
        jtext_raw(t, ",", k ? 1 : 0);
        jtext_lit(t, "\"any\":");
        jtext_int(t, cost->any);
    }
    jtext_lit(t, "}");
}

static int slot_of(const duel_state *s, int p, const duel_monster *m)
{
    return (int)(m - s->side[p].zone);
}

static void monster_json(jtext *t, const duel_state *s, int p, const duel_monster *m)
{
    const card *c = duel_top(m);
    int slot = slot_of(s, p, m);
    jtext_member_int(t, ",\"def\":", c->master.def);
    jtext_member_int(t, ",\"def_mod\":", m->def_mod);
    jtext_member_int(t, ",\"def_kept\":", m->def_kept);
    jtext_lit(t, ",\"attacks\":[");
    for (int i = 0; i < c->master.n_attacks; i++) {
        const master_attack *a = &c->master.attacks[i];
        if (i)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"name\":");
        jtext_str(t, a->name);
        jtext_lit(t, ",\"cost\":");
        cost_json(t, &a->cost);
        jtext_lit(t, ",\"usable\":");
        jtext_bool(t, master_attack_usable(s, p, slot, i));
        jtext_lit(t, "}");
    }
    jtext_lit(t, "]");
}

static void player_json(jtext *t, const duel_state *s, const openlog_sight *sight, int p)
{
    const duel_side *sd = &s->side[p];
    jtext_lit(t, ",\"mana\":{\"cards\":[");
    for (int i = 0; i < sd->n_mana; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"class\":");
        jtext_str(t, class_names[sd->mana[i].cls]);
        jtext_lit(t, ",\"card\":");
        openlog_shown_json(t, openlog_show(sight, p, &sd->mana[i].card));
        jtext_lit(t, "}");
    }
    jtext_lit(t, "],\"ready\":{");
    for (int c = 0; c < CLASS_COUNT; c++) {
        if (c)
            jtext_lit(t, ",");
        jtext_str(t, class_names[c]);
        jtext_lit(t, ":");
        jtext_int(t, master_ready(s, p, (card_class)c));
    }
    jtext_lit(t, "}},\"ongoing\":[");
    for (int i = 0; i < sd->n_ongoing; i++) {
        const duel_ongoing *o = &sd->ongoing[i];
        if (i)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"card\":");
        jtext_str(t, o->card->id);
        jtext_lit(t, ",\"monster\":{\"player\":");
        jtext_str(t, o->p ? "p2" : "p1");
        jtext_lit(t, ",\"slot\":");
        jtext_int(t, o->slot);
        jtext_lit(t, "},\"def\":");
        jtext_int(t, o->def);
        jtext_lit(t, "}");
    }
    jtext_lit(t, "]");
}

static void pending_json(jtext *t, const duel_state *s, int p)
{
    jtext_lit(t, ",\"mana_remove\":");
    jtext_int(t, s->side[p].mana_remove_due);
    jtext_lit(t, ",\"mana_add\":");
    jtext_int(t, s->side[p].mana_add);
}

static void attack_json(jtext *t, const duel_state *s)
{
    jtext_lit(t, ",\"attack\":");
    jtext_int(t, s->attack_index);
    jtext_lit(t, ",\"name\":");
    jtext_str(t, s->attack_card->master.attacks[s->attack_index].name);
}

/* ---- words ------------------------------------------------------------------ */

static void cost_words(jtext *t, const mana_cost *cost)
{
    int k = 0;
    for (int c = 0; c < CLASS_COUNT; c++)
        if (cost->by_class[c])
            jtext_fmt(t, "%s%u %s", k++ ? " + " : "", cost->by_class[c], duel_class_title((card_class)c));
    if (cost->any)
        jtext_fmt(t, "%s%u any", k++ ? " + " : "", cost->any);
    if (!k)
        jtext_fmt(t, "free");
}

static void monster_words(jtext *t, const duel_state *s, int p, const duel_monster *m)
{
    const card *c = duel_top(m);
    int slot = slot_of(s, p, m);
    jtext_fmt(t, "  DEF %ld", (long)c->master.def);
    if (m->def_mod || m->def_kept)
        jtext_fmt(t, " (%+ld)", (long)(m->def_mod + m->def_kept));
    jtext_fmt(t, "  attacks:");
    for (int i = 0; i < c->master.n_attacks; i++) {
        jtext_fmt(t, "%s %d. %s (", i ? ";" : "", i, c->master.attacks[i].name);
        cost_words(t, &c->master.attacks[i].cost);
        jtext_fmt(t, ")%s", master_attack_usable(s, p, slot, i) ? " usable" : "");
    }
}

static void player_words(jtext *t, const duel_state *s, const openlog_sight *sight, int p)
{
    const duel_side *sd = &s->side[p];
    jtext_fmt(t, "  mana       %u card%s", sd->n_mana, sd->n_mana == 1 ? "" : "s");
    for (int c = 0, k = 0; c < CLASS_COUNT; c++) {
        unsigned n = 0;
        for (int i = 0; i < sd->n_mana; i++)
            n += sd->mana[i].cls == c;
        if (n)
            jtext_fmt(t, "%s %u %s (%u ready)", k++ ? "," : ":", n, duel_class_title((card_class)c),
                      master_ready(s, p, (card_class)c));
    }
    if (sd->n_mana) {
        jtext_fmt(t, "; face-down");
        duel_hidden_words(t, sight, p, &sd->mana[0].card, sd->n_mana, sizeof sd->mana[0]);
    }
    jtext_fmt(t, "\n");
    for (int i = 0; i < sd->n_ongoing; i++)
        jtext_fmt(t, "  ongoing    %s on %s zone %d (DEF %+ld)\n", sd->ongoing[i].card->name,
                  sd->ongoing[i].p ? "p2" : "p1", sd->ongoing[i].slot, (long)sd->ongoing[i].def);
    if (sd->mana_remove_due)
        jtext_fmt(t, "  pending    send %u mana card%s to the Graveyard\n", sd->mana_remove_due,
                  sd->mana_remove_due == 1 ? "" : "s");
    if (sd->mana_add)
        jtext_fmt(t, "  may        place %u more card%s as mana this turn\n", sd->mana_add, sd->mana_add == 1 ? "" : "s");
}

static void attack_words(jtext *t, const duel_state *s)
{
    jtext_fmt(t, ", %s", s->attack_card->master.attacks[s->attack_index].name);
}

const duel_board master_board = {
    .monster_json = monster_json,
    .player_json = player_json,
    .pending_json = pending_json,
    .attack_json = attack_json,
    .monster_words = monster_words,
    .player_words = player_words,
    .attack_words = attack_words,
};
