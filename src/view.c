/* view.c -- a match's board and events as one viewer may see them.
 *
 * What: draws the Snap board held by a verifier -- as text for a judge at
 * a table, as JSON for table software -- and filters events for a viewer,
 * in the four views of openlog.md 9.  `arbiter replay`, `arbiter audit`
 * and the daemon (feed, query socket, per-event state hash) all draw here.
 *
 * Why one module: hidden information is the one thing a view can get
 * dangerously wrong.  Every hidden card shown anywhere goes through
 * shown_of(), which asks view_can_see(); no other code decides who sees
 * what, so a leak would have to be written here, where the rule is.
 *
 * How: the engine's state is read through snap_of() (read-only; the
 * engine knows nothing of views).  A hidden card is shown as what the
 * engine knows of it -- an identity, a commitment not yet opened, or
 * nothing (announced mode) -- and only to a viewer allowed to see it.
 * Text and JSON are built from the same helpers, so the two cannot
 * disagree about what a view sees.
 */
#include <sodium/crypto_generichash.h>
#include <stdlib.h>
#include <string.h>

#include "logformat/olcodec.h"
#include "src/jtext.h"
#include "src/view.h"
#include "verifiers/snap/snap.h"

/* snap.md 14.3 / R10: monsters ever face-up before a Prime Singular. */
#define VIEW_PRIME_THRESHOLD 4

static const char *const view_names[] = {"public", "judge", "p1", "p2"};

int view_parse(const char *name, view_kind *out)
{
    for (size_t i = 0; name && i < sizeof view_names / sizeof view_names[0]; i++)
        if (!strcmp(name, view_names[i])) {
            *out = (view_kind)i;
            return 0;
        }
    return -1;
}

const char *view_name(view_kind v)
{
    return (unsigned)v < sizeof view_names / sizeof view_names[0] ? view_names[v] : "?";
}

/* ---- who sees what ---------------------------------------------------------- */

int view_can_see(view_kind v, int owner)
{
    switch (v) {
    case VIEW_JUDGE: return 1;
    case VIEW_P1: return owner == 0;
    case VIEW_P2: return owner == 1;
    case VIEW_PUBLIC: return 0;
    }
    return 0;
}

typedef enum {
    SHOWN_HIDDEN,             /* not for this viewer                        */
    SHOWN_CARD,               /* the identity                               */
    SHOWN_COMMITTED,          /* commit mode, not yet revealed              */
    SHOWN_UNKNOWN             /* the engine does not know it (announced)    */
} shown_kind;

typedef struct {
    shown_kind kind;
    const card *card;         /* SHOWN_CARD                                 */
} shown;

/* What `v` is shown of one hidden card of `owner`. */
static shown shown_of(view_kind v, int owner, const snap_hidden *h)
{
    if (!view_can_see(v, owner))
        return (shown){SHOWN_HIDDEN, NULL};
    if (h->card)
        return (shown){SHOWN_CARD, h->card};
    return (shown){h->has_commit ? SHOWN_COMMITTED : SHOWN_UNKNOWN, NULL};
}

/* The same for a card the engine always knows (the Monster Reserve). */
static shown shown_known(view_kind v, int owner, const card *c)
{
    snap_hidden h;

    memset(&h, 0, sizeof h);
    h.card = c;
    return shown_of(v, owner, &h);
}

/* ---- names ------------------------------------------------------------------ */

static const char *step_name(snap_step st)
{
    static const char *const names[] = {"setup", "unlock", "flip", "spell", "evolve",
                                        "prime", "attack", "swap",  "lock",  "over"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

static const char *window_name(snap_window w)
{
    switch (w) {
    case WIN_BLOCKER: return "blocker";
    case WIN_COUNTER: return "counter";
    case WIN_RESONANCE: return "resonance";
    case WIN_NONE: break;
    }
    return NULL;
}

static const char *pname(int p)
{
    return p ? "p2" : "p1";
}

/* "alice" out of the engine's "p1 (alice)". */
static void player_id(const snap_state *s, int p, char *out, size_t cap)
{
    const char *open = strchr(s->names[p], '(');
    size_t n;

    /* a bounded copy, as snprintf("%s") would make (this runs for every
     * state hash: no printf) */
    const char *from = open ? open + 1 : s->names[p];
    n = strlen(from);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, from, n);
    out[n] = '\0';
    if (!open)
        return;
    if (n && out[n - 1] == ')')
        out[n - 1] = '\0';
}

static const snap_monster *monster_at(const snap_state *s, int p, int slot)
{
    if (slot == OL_SLOT_ACTIVE)
        return &s->side[p].active;
    return slot >= 0 && slot < SNAP_BENCH ? &s->side[p].bench[slot] : NULL;
}

static const card *top(const snap_monster *m)
{
    return m && m->present && m->face_up && m->depth ? m->stack[m->depth - 1] : NULL;
}

static const char *link_kind(const snap_link *l)
{
    return l->is_spell ? "spell" : "counter";
}

/* ---- text ------------------------------------------------------------------- */

typedef struct {
    const snap_state *s;
    view_kind view;
    FILE *out;
} drawing;

/* One hidden card as words. */
static const char *shown_text(shown sh)
{
    switch (sh.kind) {
    case SHOWN_CARD: return sh.card->name;
    case SHOWN_COMMITTED: return "committed, not yet revealed";
    case SHOWN_UNKNOWN: return "unknown";
    case SHOWN_HIDDEN: break;
    }
    return "hidden";
}

static void print_label(const drawing *d, const char *label)
{
    fprintf(d->out, "  %-10s ", label);
}

/* "Forge Colossus  IMP 3000 (+1500) = 4500  [blocker, overdrive]  stack: Forge Golem > Forge Colossus" */
static void print_face_up(const drawing *d, const snap_monster *m)
{
    const card *c = top(m);
    int32_t imp = c->snap.imp;
    int first = 1;

    fprintf(d->out, "%s  IMP %ld", c->name, (long)imp);
    if (m->mod)
        fprintf(d->out, " (%+ld) = %ld", (long)m->mod, (long)(imp + m->mod));
    if (c->snap.keywords) {
        fprintf(d->out, "  [");
        for (uint32_t bit = 1; bit && bit <= KW_ALL; bit <<= 1) {
            const char *k = (c->snap.keywords & bit) ? card_keyword_name(bit) : NULL;
            if (!k)
                continue;
            fprintf(d->out, "%s%s", first ? "" : ", ", k);
            first = 0;
        }
        fprintf(d->out, "]");
    }
    if (m->depth > 1) {
        fprintf(d->out, "  stack: ");
        for (int i = 0; i < m->depth; i++)
            fprintf(d->out, "%s%s", i ? " > " : "", m->stack[i]->name);
    }
}

static void print_monster(const drawing *d, int p, const char *label, const snap_monster *m)
{
    print_label(d, label);
    if (!m->present) {
        fprintf(d->out, "(empty)\n");
        return;
    }
    if (m->face_up && m->depth) {
        print_face_up(d, m);
        fprintf(d->out, "\n");
        return;
    }
    shown sh = shown_of(d->view, p, &m->id);
    if (sh.kind == SHOWN_HIDDEN)
        fprintf(d->out, "face-down\n");
    else
        fprintf(d->out, "face-down: %s\n", shown_text(sh));
}

/* The hand: "N cards", and for a viewer who may see it the names, then
 * how many the engine cannot name ("3 committed, not yet revealed"). */
static void print_hand(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];
    int k = 0, committed = 0, unknown = 0;

    print_label(d, "hand");
    fprintf(d->out, "%u card%s", sd->n_hand, sd->n_hand == 1 ? "" : "s");
    for (int i = 0; i < sd->n_hand; i++) {
        shown sh = shown_of(d->view, p, &sd->hand[i]);
        committed += sh.kind == SHOWN_COMMITTED;
        unknown += sh.kind == SHOWN_UNKNOWN;
        if (sh.kind == SHOWN_CARD)
            fprintf(d->out, "%s %s", k++ ? "," : ":", shown_text(sh));
    }
    if (committed)
        fprintf(d->out, "%s%d %s", k++ ? "; " : ": ", committed, shown_text((shown){SHOWN_COMMITTED, NULL}));
    if (unknown)
        fprintf(d->out, "%s%d %s", k++ ? "; " : ": ", unknown, shown_text((shown){SHOWN_UNKNOWN, NULL}));
    fprintf(d->out, "\n");
}

/* Locked Supports in lock order, by the index the log names them with
 * ({"p","lock"}): "2 Locked Supports: [0] Heat Haze; [1] Eruption". */
static void print_locked(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];

    print_label(d, "locked");
    fprintf(d->out, "%u Locked Support%s", sd->n_locked, sd->n_locked == 1 ? "" : "s");
    for (int i = 0; i < sd->n_locked; i++) {
        shown sh = shown_of(d->view, p, &sd->locked[i]);
        if (sh.kind != SHOWN_HIDDEN)
            fprintf(d->out, "%s[%d] %s", i ? "; " : ": ", i, shown_text(sh));
    }
    fprintf(d->out, "\n");
}

static void print_reserve(const drawing *d, int p)
{
    const snap_side *sd = &d->s->side[p];
    int n = 0, k = 0;

    for (int i = 0; i < sd->n_reserve; i++)
        n += !sd->reserve_used[i];
    print_label(d, "reserve");
    fprintf(d->out, "%d unused", n);
    for (int i = 0; i < sd->n_reserve; i++) {
        shown sh = shown_known(d->view, p, sd->reserve[i]);
        if (sd->reserve_used[i] || sh.kind == SHOWN_HIDDEN)
            continue;
        fprintf(d->out, "%s %s", k++ ? "," : ":", shown_text(sh));
    }
    fprintf(d->out, "\n");
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
        fprintf(d->out, "%strigger to announce: %s (%s)", k++ ? "; " : "", f->card->name,
                trigger_when_name(f->card->snap.triggers[f->ability].when));
    }
    if (sd->promote_due)
        fprintf(d->out, "%spromotion due", k++ ? "; " : "");
    if (sd->select_due)
        fprintf(d->out, "%sselect %u Support card%s", k++ ? "; " : "", sd->select_due,
                sd->select_due == 1 ? "" : "s");
    if (sd->fifth_due)
        fprintf(d->out, "%sfifth monster to place", k++ ? "; " : "");
    fprintf(d->out, "%s\n", k ? "" : "nothing");
}

static void print_player(const drawing *d, int p)
{
    const snap_state *s = d->s;
    const snap_side *sd = &s->side[p];
    char label[16];

    fprintf(d->out, "\n%s%s\n", s->names[p], view_can_see(d->view, p) && d->view != VIEW_JUDGE ? "  (you)" : "");
    print_monster(d, p, "active", &sd->active);
    for (int i = 0; i < SNAP_BENCH; i++) {
        snprintf(label, sizeof label, "bench %d", i);
        print_monster(d, p, label, &sd->bench[i]);
    }
    if (sd->fifth_waiting) {
        shown sh = shown_of(d->view, p, &sd->fifth);
        print_label(d, "fifth");
        fprintf(d->out, "waiting off the field%s%s\n", sh.kind == SHOWN_HIDDEN ? "" : ": ",
                sh.kind == SHOWN_HIDDEN ? "" : shown_text(sh));
    }
    print_hand(d, p);
    print_locked(d, p);
    print_reserve(d, p);
    print_label(d, "graveyard");
    fprintf(d->out, "%u", sd->n_grave);
    for (int i = 0; i < sd->n_grave; i++)
        fprintf(d->out, "%s %s", i ? "," : ":", sd->grave[i] ? sd->grave[i]->name : "a face-down card");
    fprintf(d->out, "\n");
    print_label(d, "revealed");
    fprintf(d->out, "%u monster%s (a Prime Singular needs %d)\n", sd->revealed, sd->revealed == 1 ? "" : "s",
            VIEW_PRIME_THRESHOLD);
    print_label(d, "defeated");
    fprintf(d->out, "%u monster%s\n", sd->lost, sd->lost == 1 ? "" : "s");
    print_label(d, "swaps");
    fprintf(d->out, "%u of %u used\n", sd->swaps_used, s->swaps_per_game);
    print_pending(d, p);
}

/* "p2 Crypt Rat (active)" */
static void print_slot_ref(const drawing *d, int p, int slot)
{
    const card *c = top(monster_at(d->s, p, slot));

    fprintf(d->out, "%s %s (", pname(p), c ? c->name : "a face-down monster");
    if (slot == OL_SLOT_ACTIVE)
        fprintf(d->out, "active)");
    else
        fprintf(d->out, "bench %d)", slot);
}

static void print_moment(const drawing *d)
{
    const snap_state *s = d->s;
    const char *w = window_name(s->window);

    if (s->over) {
        if (s->winner >= 0)
            fprintf(d->out, "game over: %s won\n", s->names[s->winner]);
        else
            fprintf(d->out, "game over: no winner\n");
    } else if (!s->setup_done) {
        fprintf(d->out, "setup (round %u)\n", s->round);
    } else {
        fprintf(d->out, "round %u, %s to play, %s step\n", s->round, s->names[s->turn], step_name(s->step));
    }
    fprintf(d->out, "window: %s\n", w ? w : "none");
    if (s->n_chain) {
        fprintf(d->out, "chain:");
        for (int i = 0; i < s->n_chain; i++) {
            const snap_link *l = &s->chain[i];
            fprintf(d->out, "%s %d. %s %s (%s, seq %llu%s)", i ? "," : "", i + 1, pname(l->player),
                    l->card ? l->card->name : "?", link_kind(l), (unsigned long long)l->seq,
                    l->negated ? ", negated" : "");
        }
        fprintf(d->out, "\n");
    }
    if (s->window == WIN_RESONANCE && s->trig.card)
        fprintf(d->out, "trigger: %s %s, ability %u (seq %llu%s)\n", pname(s->trig.player), s->trig.card->name,
                s->trig.ability, (unsigned long long)s->trig.seq, s->trig.negated ? ", negated" : "");
    if (s->attack_on) {
        fprintf(d->out, "attack: ");
        print_slot_ref(d, s->turn, OL_SLOT_ACTIVE);
        fprintf(d->out, " -> ");
        print_slot_ref(d, s->attack_target.p, s->attack_target.slot);
        fprintf(d->out, "%s\n", s->blocked ? ", blocked" : "");
    }
}

int view_board_print(FILE *out, const verifier *vf, view_kind v)
{
    drawing d = {snap_of(vf), v, out};

    if (!d.s)
        return -1;
    print_moment(&d);
    for (int p = 0; p < 2; p++)
        print_player(&d, p);
    return 0;
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

/* A hidden card: its id, null (hidden from this view or unknown to the
 * engine) or "committed". */
static void shown_text_json(jtext *t, shown sh)
{
    switch (sh.kind) {
    case SHOWN_CARD: jtext_str(t, sh.card->id); return;
    case SHOWN_COMMITTED: jtext_lit(t, "\"committed\""); return;
    case SHOWN_UNKNOWN:
    case SHOWN_HIDDEN: break;
    }
    jtext_lit(t, "null");
}

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
    for (uint32_t bit = 1; bit <= KW_ALL; bit <<= 1)
        if ((kw & bit) && card_keyword_name(bit)) {
            if (k++)
                jtext_lit(t, ",");
            jtext_str(t, card_keyword_name(bit));
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
        shown sh = shown_of(d->view, p, &m->id);
        jtext_lit(t, "{\"face_up\":false,\"card\":");
        shown_text_json(t, sh);
        jtext_lit(t, ",\"name\":");
        jtext_str_if(t, sh.kind == SHOWN_CARD, sh.kind == SHOWN_CARD ? sh.card->name : NULL);
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
static void hidden_list_text(jtext *t, const drawing *d, int p, const snap_hidden *h, int n)
{
    jtext_lit(t, "{\"count\":");
    jtext_int(t, n);
    jtext_lit(t, ",\"cards\":[");
    for (int i = 0; i < n; i++) {
        if (i)
            jtext_lit(t, ",");
        shown_text_json(t, shown_of(d->view, p, &h[i]));
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
        shown_text_json(t, shown_known(d->view, p, sd->reserve[i]));
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
    char id[sizeof s->names[0]];

    player_id(s, p, id, sizeof id);
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
        shown_text_json(t, shown_of(d->view, p, &sd->fifth));
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
    if (s->window != WIN_RESONANCE || !s->trig.card) {
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

static void chain_text(jtext *t, const snap_state *s)
{
    jtext_lit(t, "[");
    for (int i = 0; i < s->n_chain; i++) {
        const snap_link *l = &s->chain[i];
        if (i)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"seq\":");
        jtext_int(t, (long long)l->seq);
        jtext_lit(t, ",\"player\":");
        jtext_str(t, pname(l->player));
        jtext_lit(t, ",\"kind\":");
        jtext_str(t, link_kind(l));
        jtext_lit(t, ",\"card\":");
        jtext_str_if(t, l->card != NULL, l->card ? l->card->id : NULL);
        jtext_lit(t, ",\"name\":");
        jtext_str_if(t, l->card != NULL, l->card ? l->card->name : NULL);
        jtext_lit(t, ",\"negated\":");
        jtext_bool(t, l->negated);
        jtext_lit(t, "}");
    }
    jtext_lit(t, "]");
}

/* The board as compact JSON text into t (reset first); 0, or -1 when out
 * of memory, a string is not UTF-8, or the match has no board. */
static int board_text(jtext *t, const verifier *vf, view_kind v)
{
    drawing d = {snap_of(vf), v, NULL};
    const snap_state *s = d.s;

    t->len = 0;
    t->bad = 0;
    if (!s)
        return -1;
    jtext_lit(t, "{\"round\":");
    jtext_int(t, s->round);
    jtext_lit(t, ",\"turn\":");
    jtext_str_if(t, s->setup_done, pname(s->turn));
    jtext_lit(t, ",\"step\":");
    jtext_str(t, step_name(s->step));
    jtext_lit(t, ",\"window\":");
    jtext_str_or_null(t, window_name(s->window));
    jtext_lit(t, ",\"chain\":");
    chain_text(t, s);
    jtext_lit(t, ",\"attack\":");
    attack_text(t, s);
    jtext_lit(t, ",\"trigger\":");
    trigger_text(t, s);
    jtext_lit(t, ",\"players\":{\"p1\":");
    player_text(t, &d, 0);
    jtext_lit(t, ",\"p2\":");
    player_text(t, &d, 1);
    jtext_lit(t, "},\"over\":");
    jtext_bool(t, s->over);
    jtext_lit(t, ",\"winner\":");
    jtext_str_if(t, s->over && s->winner >= 0, pname(s->winner));
    jtext_lit(t, "}");
    return t->bad ? -1 : 0;
}

json_t *view_board_json(const verifier *vf, view_kind v)
{
    jtext t = {0};
    json_t *o = board_text(&t, vf, v) ? NULL : json_loadb(t.buf, t.len, 0, NULL);

    jtext_free(&t);
    return o;
}

int view_state_hash(const verifier *vf, jtext *scratch, uint8_t out[VIEW_HASH_BYTES])
{
    jtext own = {0}, *t = scratch ? scratch : &own;
    int rc = -1;

    memset(out, 0, VIEW_HASH_BYTES);
    if (!board_text(t, vf, VIEW_JUDGE))
        rc = crypto_generichash(out, VIEW_HASH_BYTES, (const unsigned char *)t->buf, t->len, NULL, 0) ? -1 : 0;
    jtext_free(&own);
    return rc;
}

/* ---- events ------------------------------------------------------------------- */

/* A card id in an href is an identity; a commitment ({"c": hex}) or null
 * reveals nothing.  Hide the identities `v` may not see. */
static void hide_href(json_t *parent, const char *key, json_t *href, int visible)
{
    if (!visible && json_is_string(href))
        json_object_set_new(parent, key, json_null());
}

static void hide_href_list(json_t *list, int visible)
{
    size_t i;
    json_t *h;

    json_array_foreach(list, i, h)
        if (!visible && json_is_string(h))
            json_array_set_new(list, i, json_null());
}

json_t *view_event_json(const olevent *ev, view_kind v, const olevent *header)
{
    json_t *o = olcodec_to_json(ev);
    int owner = ev->by == OL_BY_P1 ? 0 : ev->by == OL_BY_P2 ? 1 : -1;
    int visible = v == VIEW_JUDGE || (owner >= 0 && view_can_see(v, owner));

    if (!o || v == VIEW_JUDGE)
        return o;
    json_object_del(o, "nonce");
    switch (ev->type) {
    case OL_MATCH: {
        /* A decklist says what the hidden zones may hold. */
        json_t *players = json_object_get(o, "players");
        for (int p = 0; p < 2; p++) {
            json_t *seat = json_object_get(players, pname(p));
            if (json_is_object(seat) && !view_can_see(v, p))
                json_object_set_new(seat, "deck", json_null());
        }
        break;
    }
    case OL_BENCH: {
        /* setup: four monsters, face-down but for the last ones under the
         * bench_facedown lever (snap 18.6, A29), which start face-up and
         * public; later: the fifth, face-down (R1) */
        json_t *slots = json_object_get(o, "slots");
        uint64_t down = header ? ol_header_lever(&header->header, "bench_facedown", 4) : 4;
        for (size_t i = 0; i < json_array_size(slots); i++)
            if (i < down && !visible && json_is_string(json_array_get(slots, i)))
                json_array_set_new(slots, i, json_null());
        hide_href(o, "card", json_object_get(o, "card"), visible);
        break;
    }
    case OL_SELECT:
    case OL_LOCK:
        hide_href_list(json_object_get(o, "cards"), visible);
        break;
    default:
        break;   /* every other card an event names is public (openlog 6) */
    }
    return o;
}
