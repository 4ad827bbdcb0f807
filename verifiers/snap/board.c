/* board.c -- the Snap board, as a viewer may see it, and the Snap state's
 * canonical encoding.
 *
 * What: the three ways a Snap match's state leaves the engine (verifier.h,
 * verifier_ops): the board in JSON for table software and queries
 * (snap_board_json), the board in words for a judge at a table
 * (snap_board_words), and the canonical encoding whose BLAKE2b-256 is the
 * per-event state hash of every record (snap_encode).
 *
 * Why here: only the engine knows its zones.  src/core/view.c holds the one
 * visibility rule (view_can_see) and turns a view into an openlog_sight;
 * this file obeys the sight -- every hidden card goes through
 * openlog_show(), so no code here decides who sees what.
 *
 * The canonical encoding: Snap's (engine snap/2) is the board in JSON at
 * full sight -- every hidden card the engine knows -- compact, keys in the
 * order arbiter-replay(1) documents for `arbiter replay --json`, byte for byte what
 * jansson's json_dumps(JSON_COMPACT) would write.  It was so before the
 * engine seam existed, and records kept at venues carry hashes of it:
 * changing one byte of the judge-view board changes every record's hash,
 * which tests/e2e_legacy_store.sh catches.  A key added for viewers must
 * therefore stay out of snap_encode (or come with a new engine version).
 *
 * Pure: writes into a jtext (logformat/jtext.h), no stdio.
 */
#include <stdint.h>
#include <string.h>

#include "logformat/jtext.h"
#include "verifiers/chain.h"
#include "verifiers/openlog.h"
#include "verifiers/snap/snap.h"

/* snap.md 14.3 / R10: monsters ever face-up before a Prime Singular. */
#define SNAP_PRIME_THRESHOLD 4

/* The keyword loops below shift a bit past KW_ALL to end. */
_Static_assert(KW_ALL < (1u << 31), "a bit above every keyword");

/* ---- names ------------------------------------------------------------------ */

static const char *step_name(snap_step st)
{
    static const char *const names[] = {"setup", "unlock", "flip", "spell", "evolve",
                                        "prime", "attack", "swap",  "lock",  "over"};
    _Static_assert(sizeof names / sizeof names[0] == STEP_OVER + 1, "a name for every step");
    return names[st];
}

/* NULL for no window. */
static const char *window_name(snap_window w)
{
    static const char *const names[] = {[WIN_NONE] = NULL, [WIN_BLOCKER] = "blocker", [WIN_COUNTER] = "counter",
                                        [WIN_RESONANCE] = "resonance"};
    _Static_assert(sizeof names / sizeof names[0] == WIN_RESONANCE + 1, "a name for every window");
    return names[w];
}

static const char *pname(int p)
{
    return p ? "p2" : "p1";
}

/* The slot of an attack: the engine keeps only the active slot or Bench
 * slots 0-3 there (snap_apply refuses any other slot number). */
static const snap_monster *monster_at(const snap_state *s, int p, int slot)
{
    return slot == OL_SLOT_ACTIVE ? &s->side[p].active : &s->side[p].bench[slot];
}

/* The face-up card on top of the stack, or NULL when the slot is empty or
 * face-down (the engine puts the card in the stack as it turns a monster
 * face-up: a face-up monster's stack is never empty). */
static const card *top(const snap_monster *m)
{
    return m->present && m->face_up ? m->stack[m->depth - 1] : NULL;
}


/* ---- text ------------------------------------------------------------------- */

typedef struct {
    const snap_state *s;
    const openlog_sight *sight;
    jtext *t;                 /* the words drawn so far (board_words) */
} drawing;

static void print_label(const drawing *d, const char *label)
{
    jtext_fmt(d->t, "  %-10s ", label);
}

/* "Forge Colossus  IMP 3000 (+1500) = 4500  [blocker, overdrive]  stack: Forge Golem > Forge Colossus" */
static void print_face_up(const drawing *d, const snap_monster *m)
{
    const card *c = top(m);
    int32_t imp = c->snap.imp;
    int first = 1;

    jtext_fmt(d->t, "%s  IMP %ld", c->name, (long)imp);
    if (m->mod)
        jtext_fmt(d->t, " (%+ld) = %ld", (long)m->mod, (long)(imp + m->mod));
    if (c->snap.keywords) {
        jtext_fmt(d->t, "  [");
        for (uint32_t bit = 1; bit <= KW_ALL; bit <<= 1) {
            const char *k = (c->snap.keywords & bit) ? card_keyword_name(bit) : NULL;
            if (!k)
                continue;
            jtext_fmt(d->t, "%s%s", first ? "" : ", ", k);
            first = 0;
        }
        jtext_fmt(d->t, "]");
    }
    if (m->depth > 1) {
        jtext_fmt(d->t, "  stack: ");
        for (int i = 0; i < m->depth; i++)
            jtext_fmt(d->t, "%s%s", i ? " > " : "", m->stack[i]->name);
    }
}

static void print_monster(const drawing *d, int p, const char *label, const snap_monster *m)
{
    print_label(d, label);
    if (!m->present) {
        jtext_fmt(d->t, "(empty)\n");
        return;
    }
    if (m->face_up) {
        print_face_up(d, m);
        jtext_fmt(d->t, "\n");
        return;
    }
    openlog_shown sh = openlog_show(d->sight, p, &m->id);
    if (sh.kind == OPENLOG_SHOWN_HIDDEN)
        jtext_fmt(d->t, "face-down\n");
    else
        jtext_fmt(d->t, "face-down: %s\n", openlog_shown_words(sh));
}

/* The hand: "N cards", and for a viewer who may see it the names, then
 * how many the engine cannot name ("3 committed, not yet revealed"). */
static void print_hand(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];
    int k = 0, committed = 0, unknown = 0;

    print_label(d, "hand");
    jtext_fmt(d->t, "%u card%s", sd->n_hand, sd->n_hand == 1 ? "" : "s");
    for (int i = 0; i < sd->n_hand; i++) {
        openlog_shown sh = openlog_show(d->sight, p, &sd->hand[i]);
        committed += sh.kind == OPENLOG_SHOWN_COMMITTED;
        unknown += sh.kind == OPENLOG_SHOWN_UNKNOWN;
        if (sh.kind == OPENLOG_SHOWN_CARD)
            jtext_fmt(d->t, "%s %s", k++ ? "," : ":", openlog_shown_words(sh));
    }
    if (committed)
        jtext_fmt(d->t, "%s%d %s", k++ ? "; " : ": ", committed, openlog_shown_words((openlog_shown){OPENLOG_SHOWN_COMMITTED, NULL}));
    if (unknown)
        jtext_fmt(d->t, "%s%d %s", k++ ? "; " : ": ", unknown, openlog_shown_words((openlog_shown){OPENLOG_SHOWN_UNKNOWN, NULL}));
    jtext_fmt(d->t, "\n");
}

/* Locked Supports in lock order, by the index the log names them with
 * ({"p","lock"}): "2 Locked Supports: [0] Heat Haze; [1] Eruption". */
static void print_locked(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];

    print_label(d, "locked");
    jtext_fmt(d->t, "%u Locked Support%s", sd->n_locked, sd->n_locked == 1 ? "" : "s");
    for (int i = 0; i < sd->n_locked; i++) {
        openlog_shown sh = openlog_show(d->sight, p, &sd->locked[i]);
        if (sh.kind != OPENLOG_SHOWN_HIDDEN)
            jtext_fmt(d->t, "%s[%d] %s", i ? "; " : ": ", i, openlog_shown_words(sh));
    }
    jtext_fmt(d->t, "\n");
}

static void print_reserve(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];
    int n = 0, k = 0;

    for (int i = 0; i < sd->n_reserve; i++)
        n += !sd->reserve_used[i];
    print_label(d, "reserve");
    jtext_fmt(d->t, "%d unused", n);
    for (int i = 0; i < sd->n_reserve; i++) {
        openlog_shown sh = openlog_show_known(d->sight, p, sd->reserve[i]);
        if (sd->reserve_used[i] || sh.kind == OPENLOG_SHOWN_HIDDEN)
            continue;
        jtext_fmt(d->t, "%s %s", k++ ? "," : ":", openlog_shown_words(sh));
    }
    jtext_fmt(d->t, "\n");
}

static void print_pending(const drawing *d, int p)
{
    const snap_state *s = d->s;
    const snap_side *sd = &s->side[p];
    int k = 0;

    print_label(d, "pending");
    for (int i = 0; i < s->n_fired; i++) {
        const snap_fired *f = &s->fired[i];
        if (f->player != p)
            continue;
        jtext_fmt(d->t, "%strigger to announce: %s (%s)", k++ ? "; " : "", f->card->name,
                trigger_when_name(f->card->snap.triggers[f->ability].when));
    }
    if (sd->promote_due)
        jtext_fmt(d->t, "%spromotion due", k++ ? "; " : "");
    if (sd->select_due)
        jtext_fmt(d->t, "%sselect %u Support card%s", k++ ? "; " : "", sd->select_due,
                sd->select_due == 1 ? "" : "s");
    if (sd->fifth_due)
        jtext_fmt(d->t, "%sfifth monster to place", k++ ? "; " : "");
    jtext_fmt(d->t, "%s\n", k ? "" : "nothing");
}

static void print_player(const drawing *d, int p)
{
    const snap_state *s = d->s;
    const snap_side *sd = &s->side[p];
    char label[16];

    jtext_fmt(d->t, "\n%s%s\n", s->ol.names[p], d->sight->sees[p] && !d->sight->sees[1 - p] ? "  (you)" : "");
    print_monster(d, p, "active", &sd->active);
    for (int i = 0; i < SNAP_BENCH; i++) {
        olverdict_format(label, sizeof label, "bench %d", i);
        print_monster(d, p, label, &sd->bench[i]);
    }
    if (sd->fifth_waiting) {
        openlog_shown sh = openlog_show(d->sight, p, &sd->fifth);
        print_label(d, "fifth");
        jtext_fmt(d->t, "waiting off the field%s%s\n", sh.kind == OPENLOG_SHOWN_HIDDEN ? "" : ": ",
                sh.kind == OPENLOG_SHOWN_HIDDEN ? "" : openlog_shown_words(sh));
    }
    print_hand(d, p);
    print_locked(d, p);
    print_reserve(d, p);
    print_label(d, "graveyard");
    jtext_fmt(d->t, "%u", sd->n_grave);
    for (int i = 0; i < sd->n_grave; i++)
        jtext_fmt(d->t, "%s %s", i ? "," : ":", sd->grave[i] ? sd->grave[i]->name : "a face-down card");
    jtext_fmt(d->t, "\n");
    print_label(d, "revealed");
    jtext_fmt(d->t, "%u monster%s (a Prime Singular needs %d)\n", sd->revealed, sd->revealed == 1 ? "" : "s",
            SNAP_PRIME_THRESHOLD);
    print_label(d, "defeated");
    jtext_fmt(d->t, "%u monster%s\n", sd->lost, sd->lost == 1 ? "" : "s");
    print_label(d, "swaps");
    jtext_fmt(d->t, "%u of %u used\n", sd->swaps_used, s->swaps_per_game);
    print_pending(d, p);
}

/* "p2 Crypt Rat (active)" */
static void print_slot_ref(const drawing *d, int p, int slot)
{
    const card *c = top(monster_at(d->s, p, slot));

    jtext_fmt(d->t, "%s %s (", pname(p), c ? c->name : "a face-down monster");
    if (slot == OL_SLOT_ACTIVE)
        jtext_fmt(d->t, "active)");
    else
        jtext_fmt(d->t, "bench %d)", slot);
}

static void print_moment(const drawing *d)
{
    const snap_state *s = d->s;
    const char *w = window_name(s->window);

    if (s->ol.over) {
        if (s->ol.winner >= 0)
            jtext_fmt(d->t, "game over: %s won\n", s->ol.names[s->ol.winner]);
        else
            jtext_fmt(d->t, "game over: no winner\n");
    } else if (!s->setup_done) {
        jtext_fmt(d->t, "setup (round %u)\n", s->round);
    } else {
        jtext_fmt(d->t, "round %u, %s to play, %s step\n", s->round, s->ol.names[s->turn], step_name(s->step));
    }
    jtext_fmt(d->t, "window: %s\n", w ? w : "none");
    chain_words(d->t, s->chain, s->n_chain);
    if (s->window == WIN_RESONANCE)   /* the engine opens it for an announced trigger */
        jtext_fmt(d->t, "trigger: %s %s, ability %u (seq %llu%s)\n", pname(s->trig.player), s->trig.card->name,
                s->trig.ability, (unsigned long long)s->trig.seq, s->trig.negated ? ", negated" : "");
    if (s->attack_on) {
        jtext_fmt(d->t, "attack: ");
        print_slot_ref(d, s->turn, OL_SLOT_ACTIVE);
        jtext_fmt(d->t, " -> ");
        print_slot_ref(d, s->attack_target.p, s->attack_target.slot);
        jtext_fmt(d->t, "%s\n", s->blocked ? ", blocked" : "");
    }
}

/* ---- JSON -------------------------------------------------------------------- */

/* The board is written straight as compact JSON text -- exactly the bytes
 * jansson's json_dumps(JSON_COMPACT) gives for it: keys in their documented
 * order, "," and ":" without spaces, strings escaped as jansson escapes
 * them (\" \\ \b \f \n \r \t, other control characters \u00XX, UTF-8
 * kept).  The daemon hashes this text after every event (view_state_hash),
 * so it must be cheap: no json_t tree, no allocation but one growing
 * buffer.  view_board_json() parses the same text, so the board has one
 * definition, and the hash is always the hash of the board a query draws. */

static void slot_text(jtext *t, int slot)
{
    if (slot == OL_SLOT_ACTIVE)
        jtext_lit(t, "\"a\"");
    else
        jtext_int(t, slot);
}

static void keywords_text(jtext *t, uint32_t kw)
{
    int k = 0;

    jtext_lit(t, "[");
    for (uint32_t bit = 1; bit <= KW_ALL; bit <<= 1) {
        const char *name = (kw & bit) ? card_keyword_name(bit) : NULL;
        if (!name)
            continue;
        if (k++)
            jtext_lit(t, ",");
        jtext_str(t, name);
    }
    jtext_lit(t, "]");
}

static void monster_text(jtext *t, const drawing *d, int p, const snap_monster *m)
{
    const card *c = top(m);

    if (!m->present) {
        jtext_lit(t, "null");
        return;
    }
    if (!c) {
        openlog_shown sh = openlog_show(d->sight, p, &m->id);
        jtext_lit(t, "{\"face_up\":false,\"card\":");
        openlog_shown_json(t, sh);
        jtext_lit(t, ",\"name\":");
        jtext_str_if(t, sh.kind == OPENLOG_SHOWN_CARD, sh.kind == OPENLOG_SHOWN_CARD ? sh.card->name : NULL);
        jtext_lit(t, "}");
        return;
    }
    jtext_lit(t, "{\"face_up\":true,\"card\":");
    jtext_str(t, c->id);
    jtext_lit(t, ",\"name\":");
    jtext_str(t, c->name);
    jtext_lit(t, ",\"stack\":[");
    for (int i = 0; i < m->depth; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_str(t, m->stack[i]->id);
    }
    jtext_lit(t, "],\"imp\":");
    jtext_int(t, c->snap.imp);
    jtext_lit(t, ",\"mod\":");
    jtext_int(t, m->mod);
    jtext_lit(t, ",\"total\":");
    jtext_int(t, (long long)c->snap.imp + m->mod);
    jtext_lit(t, ",\"keywords\":");
    keywords_text(t, c->snap.keywords);
    jtext_lit(t, "}");
}

/* {"count":n,"cards":[...]} of a hidden zone. */
static void hidden_list_text(jtext *t, const drawing *d, int p, const openlog_card *h, int n)
{
    jtext_lit(t, "{\"count\":");
    jtext_int(t, n);
    jtext_lit(t, ",\"cards\":[");
    for (int i = 0; i < n; i++) {
        if (i)
            jtext_lit(t, ",");
        openlog_shown_json(t, openlog_show(d->sight, p, &h[i]));
    }
    jtext_lit(t, "]}");
}

static void reserve_text(jtext *t, const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];
    int n = 0;

    for (int i = 0; i < sd->n_reserve; i++)
        n += !sd->reserve_used[i];
    jtext_lit(t, "{\"count\":");
    jtext_int(t, n);
    jtext_lit(t, ",\"cards\":[");
    for (int i = 0, k = 0; i < sd->n_reserve; i++) {
        if (sd->reserve_used[i])
            continue;
        if (k++)
            jtext_lit(t, ",");
        openlog_shown_json(t, openlog_show_known(d->sight, p, sd->reserve[i]));
    }
    jtext_lit(t, "]}");
}

static void pending_text(jtext *t, const drawing *d, int p)
{
    const snap_state *s = d->s;
    const snap_side *sd = &s->side[p];
    int k = 0;

    jtext_lit(t, "{\"triggers\":[");
    for (int i = 0; i < s->n_fired; i++) {
        const snap_fired *f = &s->fired[i];
        if (f->player != p)
            continue;
        if (k++)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"card\":");
        jtext_str(t, f->card->id);
        jtext_lit(t, ",\"slot\":");
        slot_text(t, f->slot_is_active ? OL_SLOT_ACTIVE : f->slot);
        jtext_lit(t, ",\"ability\":");
        jtext_int(t, f->ability);
        jtext_lit(t, "}");
    }
    jtext_lit(t, "],\"promote\":");
    jtext_bool(t, sd->promote_due);
    jtext_lit(t, ",\"select\":");
    jtext_int(t, sd->select_due);
    jtext_lit(t, ",\"fifth\":");
    jtext_bool(t, sd->fifth_due);
    jtext_lit(t, "}");
}

static void player_text(jtext *t, const drawing *d, int p)
{
    const snap_state *s = d->s;
    const snap_side *sd = &s->side[p];
    char id[sizeof s->ol.names[0]];

    openlog_player_id(&s->ol, p, id, sizeof id);
    jtext_lit(t, "{\"name\":");
    jtext_str(t, id);
    jtext_lit(t, ",\"active\":");
    monster_text(t, d, p, &sd->active);
    jtext_lit(t, ",\"bench\":[");
    for (int i = 0; i < SNAP_BENCH; i++) {
        if (i)
            jtext_lit(t, ",");
        monster_text(t, d, p, &sd->bench[i]);
    }
    jtext_lit(t, "],\"fifth\":");
    if (sd->fifth_waiting) {
        jtext_lit(t, "{\"card\":");
        openlog_shown_json(t, openlog_show(d->sight, p, &sd->fifth));
        jtext_lit(t, "}");
    } else {
        jtext_lit(t, "null");
    }
    jtext_lit(t, ",\"hand\":");
    hidden_list_text(t, d, p, sd->hand, sd->n_hand);
    jtext_lit(t, ",\"locked\":");
    hidden_list_text(t, d, p, sd->locked, sd->n_locked);
    jtext_lit(t, ",\"reserve\":");
    reserve_text(t, d, p);
    jtext_lit(t, ",\"graveyard\":[");
    for (int i = 0; i < sd->n_grave; i++) {
        if (i)
            jtext_lit(t, ",");
        jtext_str_if(t, sd->grave[i] != NULL, sd->grave[i] ? sd->grave[i]->id : NULL);
    }
    jtext_lit(t, "],\"revealed\":");
    jtext_int(t, sd->revealed);
    jtext_lit(t, ",\"lost\":");
    jtext_int(t, sd->lost);
    jtext_lit(t, ",\"swaps_used\":");
    jtext_int(t, sd->swaps_used);
    jtext_lit(t, ",\"pending\":");
    pending_text(t, d, p);
    jtext_lit(t, "}");
}

static void ref_text(jtext *t, const snap_state *s, int p, int slot)
{
    const card *c = top(monster_at(s, p, slot));

    jtext_lit(t, "{\"player\":");
    jtext_str(t, pname(p));
    jtext_lit(t, ",\"slot\":");
    slot_text(t, slot);
    jtext_lit(t, ",\"card\":");
    jtext_str_if(t, c != NULL, c ? c->id : NULL);
    jtext_lit(t, ",\"name\":");
    jtext_str_if(t, c != NULL, c ? c->name : NULL);
    jtext_lit(t, "}");
}

static void attack_text(jtext *t, const snap_state *s)
{
    if (!s->attack_on) {
        jtext_lit(t, "null");
        return;
    }
    jtext_lit(t, "{\"attacker\":");
    ref_text(t, s, s->turn, OL_SLOT_ACTIVE);
    jtext_lit(t, ",\"target\":");
    ref_text(t, s, s->attack_target.p, s->attack_target.slot);
    jtext_lit(t, ",\"blocked\":");
    jtext_bool(t, s->blocked);
    jtext_lit(t, "}");
}

static void trigger_text(jtext *t, const snap_state *s)
{
    if (s->window != WIN_RESONANCE) {   /* trig.card is set whenever it is open */
        jtext_lit(t, "null");
        return;
    }
    jtext_lit(t, "{\"seq\":");
    jtext_int(t, (long long)s->trig.seq);
    jtext_lit(t, ",\"player\":");
    jtext_str(t, pname(s->trig.player));
    jtext_lit(t, ",\"card\":");
    jtext_str(t, s->trig.card->id);
    jtext_lit(t, ",\"name\":");
    jtext_str(t, s->trig.card->name);
    jtext_lit(t, ",\"ability\":");
    jtext_int(t, s->trig.ability);
    jtext_lit(t, ",\"negated\":");
    jtext_bool(t, s->trig.negated);
    jtext_lit(t, "}");
}


/* ---- the three ways out ------------------------------------------------------ */

int snap_board_words(const snap_state *s, const openlog_sight *sight, jtext *t)
{
    drawing d = {s, sight, t};

    print_moment(&d);
    for (int p = 0; p < 2; p++)
        print_player(&d, p);
    return t->bad ? -1 : 0;
}

int snap_board_json(const snap_state *s, const openlog_sight *sight, jtext *t)
{
    drawing d = {s, sight, NULL};

    jtext_lit(t, "{\"round\":");
    jtext_int(t, s->round);
    jtext_lit(t, ",\"turn\":");
    jtext_str_if(t, s->setup_done, pname(s->turn));
    jtext_lit(t, ",\"step\":");
    jtext_str(t, step_name(s->step));
    jtext_lit(t, ",\"window\":");
    jtext_str_or_null(t, window_name(s->window));
    jtext_lit(t, ",\"chain\":");
    chain_json(t, s->chain, s->n_chain);
    jtext_lit(t, ",\"attack\":");
    attack_text(t, s);
    jtext_lit(t, ",\"trigger\":");
    trigger_text(t, s);
    jtext_lit(t, ",\"players\":{\"p1\":");
    player_text(t, &d, 0);
    jtext_lit(t, ",\"p2\":");
    player_text(t, &d, 1);
    jtext_lit(t, "},\"over\":");
    jtext_bool(t, s->ol.over);
    jtext_lit(t, ",\"winner\":");
    jtext_str_if(t, s->ol.over && s->ol.winner >= 0, pname(s->ol.winner));
    jtext_lit(t, "}");
    return t->bad ? -1 : 0;
}

int snap_encode(const snap_state *s, jtext *t)
{
    static const openlog_sight all = {{1, 1}};
    return snap_board_json(s, &all, t);
}
