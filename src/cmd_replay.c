/* cmd_replay.c -- `arbiter replay`: the board at one event, for a person.
 *
 *   arbiter replay FILE --at SEQ [--view judge|p1|p2|public] [--cards FILE] [--json]
 *
 * A judge called to a table hears "that spell was not in his hand" and
 * wants to see the game as it stood at event 41: whose turn, which step,
 * what is on the chain, what each player holds -- and which verdicts the
 * log had earned by then.  `verify` answers "was the game legal"; this
 * command answers "what did the table look like", drawn as plain text a
 * judge can read aloud, or as one JSON object for table software.
 *
 * Same verdicts as `verify`, by construction.  The log is replayed by
 * verify_file_until() (src/verify.c), the very loop behind verify_file()
 * with a stop after the event at SEQ has been stored, and the engine it
 * leaves behind is read through snap_of().  Nothing here judges an event
 * or keeps seq bookkeeping; this file only draws.
 *
 * Who sees what (snap.md 7, 16.4).  Face-down Bench monsters, Locked
 * Supports, the hand, the waiting fifth monster and the Monster Reserve
 * are hidden zones: their controller knows them, a judge may inspect them,
 * nobody else sees more than a count.  The whole rule is can_see() below,
 * and every hidden card goes through shown_of(), which asks it; no other
 * code decides visibility.  What a permitted viewer sees is what the engine
 * knows: the card in open mode or once revealed, "committed, not yet
 * revealed" for a commitment it cannot open, "unknown" in announced mode.
 * The graveyard, face-up monsters, the chain and the attack are public.
 *
 * SEQ past the log's end shows the final board with a note; replaying is
 * a view, not a check, so the exit code is 0 whenever a board is shown,
 * whatever the verdicts (`verify` is the command whose exit code judges).
 * 2: bad usage, an unreadable log, a format with no engine; 1: the match
 * never started (its header names another card database); 3: internal.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "logformat/olcodec.h"
#include "src/carddb.h"
#include "src/cli.h"
#include "src/verify.h"
#include "verifiers/snap/snap.h"
#include "verifiers/verifier.h"

/* snap.md 14.3 / R10: monsters ever face-up before a Prime Singular. */
#define REPLAY_PRIME_THRESHOLD 4

static const char usage_text[] =
    "usage: arbiter replay FILE --at SEQ [--view judge|p1|p2|public] [--cards FILE] [--json]\n"
    "\n"
    "Replay an open log (.jsonl or .mlog; '-' reads JSON Lines from stdin) up to\n"
    "and including the event at SEQ, judged exactly as `arbiter verify` judges it,\n"
    "and show the board at that moment and every verdict so far that is not ok.\n"
    "\n"
    "  --at SEQ      the event to stop after (required); past the log's end, the\n"
    "                final board is shown with a note\n"
    "  --view V      who is looking (default public):\n"
    "                  public  no hidden card is named, only counts\n"
    "                  p1, p2  that player's own hidden cards, none of the other's\n"
    "                  judge   every hidden card the engine knows (snap.md 16.4)\n"
    "  --cards FILE  the card database (default: $ARBITER_CARDS, else\n"
    "                fixtures/cards/core.json here, else the installed copy)\n"
    "  --json        one JSON object, keys in this order:\n"
    "                {\"match\",\"seq\",\"view\",\"round\",\"turn\",\"step\",\"window\",\n"
    "                 \"chain\",\"attack\",\"trigger\",\"players\",\"over\",\"winner\",\n"
    "                 \"verdicts\",\"note\"} (README.md, `arbiter replay`)\n"
    "\n"
    "Only Snap logs have a board to show today.\n"
    "exit: 0 board shown (whatever the verdicts), 1 the match never started,\n"
    "2 bad usage or a log that cannot be read or has no engine, 3 internal error.\n";

typedef enum { VIEW_PUBLIC, VIEW_JUDGE, VIEW_P1, VIEW_P2 } replay_view;

static const char *const view_names[] = {"public", "judge", "p1", "p2"};

typedef struct {
    const char *path;
    const char *cards;
    uint64_t at;
    int has_at;
    replay_view view;
    int json;
    int help;
} replay_opts;

/* Everything the drawing needs, gathered once. */
typedef struct {
    const snap_state *s;
    const verify_report *rep;
    replay_view view;
    uint64_t at;              /* the SEQ asked for                         */
    uint64_t seq;             /* the event the board stands at              */
    char note[160];           /* "" unless SEQ is past the end              */
} replay_ctx;

/* ---- who sees what ---------------------------------------------------------- */

/* THE visibility rule (snap.md 7.2.1, 7.4, 7.5, 16.4): may `view` see the
 * hidden cards of player `owner` (0 = p1, 1 = p2)?  A judge sees every
 * player's; a player sees their own; the public sees nobody's. */
static int can_see(replay_view view, int owner)
{
    switch (view) {
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
    SHOWN_UNKNOWN             /* the engine does not know it (announced)     */
} shown_kind;

typedef struct {
    shown_kind kind;
    const card *card;         /* SHOWN_CARD                                 */
} shown;

/* What `view` is shown of one hidden card of `owner`. */
static shown shown_of(replay_view view, int owner, const snap_hidden *h)
{
    if (!can_see(view, owner))
        return (shown){SHOWN_HIDDEN, NULL};
    if (h->card)
        return (shown){SHOWN_CARD, h->card};
    return (shown){h->has_commit ? SHOWN_COMMITTED : SHOWN_UNKNOWN, NULL};
}

/* The same for a card the engine always knows (the Monster Reserve). */
static shown shown_known(replay_view view, int owner, const card *c)
{
    snap_hidden h;

    memset(&h, 0, sizeof h);
    h.card = c;
    return shown_of(view, owner, &h);
}

/* ---- names ---------------------------------------------------------------------- */

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

    if (!open) {
        snprintf(out, cap, "%s", s->names[p]);
        return;
    }
    snprintf(out, cap, "%s", open + 1);
    n = strlen(out);
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

/* ---- text ----------------------------------------------------------------------------- */

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

static void print_label(const char *label)
{
    printf("  %-10s ", label);
}

/* "Forge Colossus  IMP 3000 (+1500) = 4500  [blocker, overdrive]  stack: Forge Golem > Forge Colossus" */
static void print_face_up(const snap_monster *m)
{
    const card *c = top(m);
    int32_t imp = c->snap.imp;
    int first = 1;

    printf("%s  IMP %ld", c->name, (long)imp);
    if (m->mod)
        printf(" (%+ld) = %ld", (long)m->mod, (long)(imp + m->mod));
    if (c->snap.keywords) {
        printf("  [");
        for (uint32_t bit = 1; bit && bit <= KW_ALL; bit <<= 1) {
            const char *k = (c->snap.keywords & bit) ? card_keyword_name(bit) : NULL;
            if (!k)
                continue;
            printf("%s%s", first ? "" : ", ", k);
            first = 0;
        }
        printf("]");
    }
    if (m->depth > 1) {
        printf("  stack: ");
        for (int i = 0; i < m->depth; i++)
            printf("%s%s", i ? " > " : "", m->stack[i]->name);
    }
}

static void print_monster(const replay_ctx *c, int p, const char *label, const snap_monster *m)
{
    print_label(label);
    if (!m->present) {
        printf("(empty)\n");
        return;
    }
    if (m->face_up && m->depth) {
        print_face_up(m);
        printf("\n");
        return;
    }
    shown sh = shown_of(c->view, p, &m->id);
    if (sh.kind == SHOWN_HIDDEN)
        printf("face-down\n");
    else
        printf("face-down: %s\n", shown_text(sh));
}

/* The hand: "N cards", and for a viewer who may see it the names, then
 * how many the engine cannot name ("3 committed, not yet revealed"). */
static void print_hand(const replay_ctx *c, int p)
{
    const snap_side *sd = &c->s->side[p];
    int k = 0, committed = 0, unknown = 0;

    print_label("hand");
    printf("%u card%s", sd->n_hand, sd->n_hand == 1 ? "" : "s");
    for (int i = 0; i < sd->n_hand; i++) {
        shown sh = shown_of(c->view, p, &sd->hand[i]);
        committed += sh.kind == SHOWN_COMMITTED;
        unknown += sh.kind == SHOWN_UNKNOWN;
        if (sh.kind == SHOWN_CARD)
            printf("%s %s", k++ ? "," : ":", shown_text(sh));
    }
    if (committed)
        printf("%s%d %s", k++ ? "; " : ": ", committed, shown_text((shown){SHOWN_COMMITTED, NULL}));
    if (unknown)
        printf("%s%d %s", k++ ? "; " : ": ", unknown, shown_text((shown){SHOWN_UNKNOWN, NULL}));
    printf("\n");
}

/* Locked Supports in lock order, by the index the log names them with
 * ({"p","lock"}): "2 Locked Supports: [0] Heat Haze; [1] Eruption". */
static void print_locked(const replay_ctx *c, int p)
{
    const snap_side *sd = &c->s->side[p];

    print_label("locked");
    printf("%u Locked Support%s", sd->n_locked, sd->n_locked == 1 ? "" : "s");
    for (int i = 0; i < sd->n_locked; i++) {
        shown sh = shown_of(c->view, p, &sd->locked[i]);
        if (sh.kind != SHOWN_HIDDEN)
            printf("%s[%d] %s", i ? "; " : ": ", i, shown_text(sh));
    }
    printf("\n");
}

static void print_reserve(const replay_ctx *c, int p)
{
    const snap_side *sd = &c->s->side[p];
    int n = 0, k = 0;

    for (int i = 0; i < sd->n_reserve; i++)
        n += !sd->reserve_used[i];
    print_label("reserve");
    printf("%d unused", n);
    for (int i = 0; i < sd->n_reserve; i++) {
        shown sh = shown_known(c->view, p, sd->reserve[i]);
        if (sd->reserve_used[i] || sh.kind == SHOWN_HIDDEN)
            continue;
        printf("%s %s", k++ ? "," : ":", shown_text(sh));
    }
    printf("\n");
}

static void print_pending(const replay_ctx *c, int p)
{
    const snap_state *s = c->s;
    const snap_side *sd = &s->side[p];
    int k = 0;

    print_label("pending");
    for (int i = 0; i < s->n_fired; i++) {
        const snap_fired *f = &s->fired[i];
        if (f->player != p)
            continue;
        printf("%strigger to announce: %s (%s)", k++ ? "; " : "", f->card->name,
               trigger_when_name(f->card->snap.triggers[f->ability].when));
    }
    if (sd->promote_due)
        printf("%spromotion due", k++ ? "; " : "");
    if (sd->select_due)
        printf("%sselect %u Support card%s", k++ ? "; " : "", sd->select_due,
               sd->select_due == 1 ? "" : "s");
    if (sd->fifth_due)
        printf("%sfifth monster to place", k++ ? "; " : "");
    printf("%s\n", k ? "" : "nothing");
}

static void print_player(const replay_ctx *c, int p)
{
    const snap_state *s = c->s;
    const snap_side *sd = &s->side[p];
    char label[16];

    printf("\n%s%s\n", s->names[p], can_see(c->view, p) && c->view != VIEW_JUDGE ? "  (you)" : "");
    print_monster(c, p, "active", &sd->active);
    for (int i = 0; i < SNAP_BENCH; i++) {
        snprintf(label, sizeof label, "bench %d", i);
        print_monster(c, p, label, &sd->bench[i]);
    }
    if (sd->fifth_waiting) {
        shown sh = shown_of(c->view, p, &sd->fifth);
        print_label("fifth");
        printf("waiting off the field%s%s\n", sh.kind == SHOWN_HIDDEN ? "" : ": ",
               sh.kind == SHOWN_HIDDEN ? "" : shown_text(sh));
    }
    print_hand(c, p);
    print_locked(c, p);
    print_reserve(c, p);
    print_label("graveyard");
    printf("%u", sd->n_grave);
    for (int i = 0; i < sd->n_grave; i++)
        printf("%s %s", i ? "," : ":", sd->grave[i] ? sd->grave[i]->name : "a face-down card");
    printf("\n");
    print_label("revealed");
    printf("%u monster%s (a Prime Singular needs %d)\n", sd->revealed, sd->revealed == 1 ? "" : "s",
           REPLAY_PRIME_THRESHOLD);
    print_label("defeated");
    printf("%u monster%s\n", sd->lost, sd->lost == 1 ? "" : "s");
    print_label("swaps");
    printf("%u of %u used\n", sd->swaps_used, s->swaps_per_game);
    print_pending(c, p);
}

/* "p2 Crypt Rat (active)" */
static void print_slot_ref(const snap_state *s, int p, int slot)
{
    const card *c = top(monster_at(s, p, slot));

    printf("%s %s (", pname(p), c ? c->name : "a face-down monster");
    if (slot == OL_SLOT_ACTIVE)
        printf("active)");
    else
        printf("bench %d)", slot);
}

static void print_header(const replay_ctx *c)
{
    const snap_state *s = c->s;
    const char *w = window_name(s->window);

    printf("match %s  %s, %s hidden cards  at seq %llu  view: %s\n", c->rep->match, c->rep->format,
           ol_hidden_name(s->hidden), (unsigned long long)c->seq, view_names[c->view]);
    if (c->note[0])
        printf("note: %s\n", c->note);
    if (s->over) {
        if (s->winner >= 0)
            printf("game over: %s won\n", s->names[s->winner]);
        else
            printf("game over: no winner\n");
    } else if (!s->setup_done) {
        printf("setup (round %u)\n", s->round);
    } else {
        printf("round %u, %s to play, %s step\n", s->round, s->names[s->turn], step_name(s->step));
    }
    printf("window: %s\n", w ? w : "none");
    if (s->n_chain) {
        printf("chain:");
        for (int i = 0; i < s->n_chain; i++) {
            const snap_link *l = &s->chain[i];
            printf("%s %d. %s %s (%s, seq %llu%s)", i ? "," : "", i + 1, pname(l->player),
                   l->card ? l->card->name : "?", link_kind(l), (unsigned long long)l->seq,
                   l->negated ? ", negated" : "");
        }
        printf("\n");
    }
    if (s->window == WIN_RESONANCE && s->trig.card)
        printf("trigger: %s %s, ability %u (seq %llu%s)\n", pname(s->trig.player), s->trig.card->name,
               s->trig.ability, (unsigned long long)s->trig.seq, s->trig.negated ? ", negated" : "");
    if (s->attack_on) {
        printf("attack: ");
        print_slot_ref(s, s->turn, OL_SLOT_ACTIVE);
        printf(" -> ");
        print_slot_ref(s, s->attack_target.p, s->attack_target.slot);
        printf("%s\n", s->blocked ? ", blocked" : "");
    }
}

static void print_verdicts(const replay_ctx *c)
{
    const verify_report *r = c->rep;
    size_t bad = 0;

    printf("\nverdicts so far\n");
    for (size_t i = 0; i < r->n_verdicts; i++) {
        const olverdict *v = &r->verdicts[i].v;
        if (v->status == OL_V_OK)
            continue;
        bad++;
        if (v->has_seq)
            printf("  seq %llu", (unsigned long long)v->seq);
        else
            printf("  seq -");
        printf("  %s  %s  %s\n", ol_status_name(v->status), v->rule[0] ? v->rule : "-", v->msg);
    }
    printf("  %zu event%s read, %zu verdict%s not ok\n", r->n_verdicts, r->n_verdicts == 1 ? "" : "s",
           bad, bad == 1 ? "" : "s");
}

static void print_text(const replay_ctx *c)
{
    print_header(c);
    for (int p = 0; p < 2; p++)
        print_player(c, p);
    print_verdicts(c);
}

/* ---- JSON ----------------------------------------------------------------------------- */

/* Set o[key] = v; 0, or -1 when v is NULL (out of memory) or setting fails.
 * The reference to v is handed over in every case. */
static int put(json_t *o, const char *key, json_t *v)
{
    return v && json_object_set_new(o, key, v) == 0 ? 0 : -1;
}

static int push(json_t *a, json_t *v)
{
    return v && json_array_append_new(a, v) == 0 ? 0 : -1;
}

/* A hidden card: its id, null (hidden from this view or unknown to the
 * engine) or "committed". */
static json_t *shown_json(shown sh)
{
    switch (sh.kind) {
    case SHOWN_CARD: return json_string(sh.card->id);
    case SHOWN_COMMITTED: return json_string("committed");
    case SHOWN_UNKNOWN:
    case SHOWN_HIDDEN: break;
    }
    return json_null();
}

static json_t *slot_json(int slot)
{
    return slot == OL_SLOT_ACTIVE ? json_string("a") : json_integer(slot);
}

static json_t *keywords_json(uint32_t kw)
{
    json_t *a = json_array();
    int bad = !a;

    for (uint32_t bit = 1; !bad && bit <= KW_ALL; bit <<= 1)
        if ((kw & bit) && card_keyword_name(bit))
            bad = push(a, json_string(card_keyword_name(bit)));
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

static json_t *monster_json(const replay_ctx *c, int p, const snap_monster *m)
{
    const card *t = top(m);
    json_t *o, *stack = NULL;
    int bad;

    if (!m->present)
        return json_null();
    if (!(o = json_object()))
        return NULL;
    if (!t) {
        shown sh = shown_of(c->view, p, &m->id);
        bad = put(o, "face_up", json_false());
        bad = bad || put(o, "card", shown_json(sh));
        bad = bad || put(o, "name", sh.kind == SHOWN_CARD ? json_string(sh.card->name) : json_null());
    } else {
        bad = put(o, "face_up", json_true());
        bad = bad || put(o, "card", json_string(t->id));
        bad = bad || put(o, "name", json_string(t->name));
        bad = bad || put(o, "stack", stack = json_array());
        for (int i = 0; !bad && i < m->depth; i++)
            bad = push(stack, json_string(m->stack[i]->id));
        bad = bad || put(o, "imp", json_integer(t->snap.imp));
        bad = bad || put(o, "mod", json_integer(m->mod));
        bad = bad || put(o, "total", json_integer((json_int_t)t->snap.imp + m->mod));
        bad = bad || put(o, "keywords", keywords_json(t->snap.keywords));
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* {"count":N,"cards":[...]}: one entry per card, null when hidden. */
/* {"count": n, "cards": a}: takes a; NULL (and everything freed) on failure. */
static json_t *counted_cards(json_t *o, json_t *a, int n, int bad)
{
    bad = bad || put(o, "count", json_integer(n));
    if (!bad) {
        bad = put(o, "cards", a);
        a = NULL;
    }
    json_decref(a);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *hidden_list_json(const replay_ctx *c, int p, const snap_hidden *h, int n)
{
    json_t *o = json_object(), *a = json_array();
    int bad = !o || !a;

    for (int i = 0; !bad && i < n; i++)
        bad = push(a, shown_json(shown_of(c->view, p, &h[i])));
    return counted_cards(o, a, n, bad);
}

static json_t *reserve_json(const replay_ctx *c, int p)
{
    const snap_side *sd = &c->s->side[p];
    json_t *o = json_object(), *a = json_array();
    int bad = !o || !a, n = 0;

    for (int i = 0; !bad && i < sd->n_reserve; i++) {
        if (sd->reserve_used[i])
            continue;
        n++;
        bad = push(a, shown_json(shown_known(c->view, p, sd->reserve[i])));
    }
    return counted_cards(o, a, n, bad);
}

static json_t *pending_json(const replay_ctx *c, int p)
{
    const snap_state *s = c->s;
    const snap_side *sd = &s->side[p];
    json_t *o = json_object(), *trig = json_array();
    int bad = !o || !trig;

    for (int i = 0; !bad && i < s->n_fired; i++) {
        const snap_fired *f = &s->fired[i];
        json_t *t;
        if (f->player != p)
            continue;
        if (!(t = json_object())) {
            bad = 1;
            break;
        }
        bad = push(trig, t);
        bad = bad || put(t, "card", json_string(f->card->id));
        bad = bad || put(t, "slot", slot_json(f->slot_is_active ? OL_SLOT_ACTIVE : f->slot));
        bad = bad || put(t, "ability", json_integer(f->ability));
    }
    if (!bad) {
        bad = put(o, "triggers", trig);
        trig = NULL;
    }
    bad = bad || put(o, "promote", json_boolean(sd->promote_due));
    bad = bad || put(o, "select", json_integer(sd->select_due));
    bad = bad || put(o, "fifth", json_boolean(sd->fifth_due));
    json_decref(trig);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *player_json(const replay_ctx *c, int p)
{
    const snap_state *s = c->s;
    const snap_side *sd = &s->side[p];
    json_t *o = json_object(), *bench = NULL, *grave = NULL, *fifth = NULL;
    char id[sizeof s->names[0]];
    int bad = !o;

    player_id(s, p, id, sizeof id);
    bad = bad || put(o, "name", json_string(id));
    bad = bad || put(o, "active", monster_json(c, p, &sd->active));
    bad = bad || put(o, "bench", bench = json_array());
    for (int i = 0; !bad && i < SNAP_BENCH; i++)
        bad = push(bench, monster_json(c, p, &sd->bench[i]));
    if (!bad && sd->fifth_waiting) {
        bad = put(o, "fifth", fifth = json_object());
        bad = bad || put(fifth, "card", shown_json(shown_of(c->view, p, &sd->fifth)));
    } else {
        bad = bad || put(o, "fifth", json_null());
    }
    bad = bad || put(o, "hand", hidden_list_json(c, p, sd->hand, sd->n_hand));
    bad = bad || put(o, "locked", hidden_list_json(c, p, sd->locked, sd->n_locked));
    bad = bad || put(o, "reserve", reserve_json(c, p));
    bad = bad || put(o, "graveyard", grave = json_array());
    for (int i = 0; !bad && i < sd->n_grave; i++)
        bad = push(grave, sd->grave[i] ? json_string(sd->grave[i]->id) : json_null());
    bad = bad || put(o, "revealed", json_integer(sd->revealed));
    bad = bad || put(o, "lost", json_integer(sd->lost));
    bad = bad || put(o, "swaps_used", json_integer(sd->swaps_used));
    bad = bad || put(o, "pending", pending_json(c, p));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *ref_json(const snap_state *s, int p, int slot)
{
    const card *t = top(monster_at(s, p, slot));
    json_t *o = json_object();
    int bad = !o;

    bad = bad || put(o, "player", json_string(pname(p)));
    bad = bad || put(o, "slot", slot_json(slot));
    bad = bad || put(o, "card", t ? json_string(t->id) : json_null());
    bad = bad || put(o, "name", t ? json_string(t->name) : json_null());
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *attack_json(const snap_state *s)
{
    json_t *o;
    int bad;

    if (!s->attack_on)
        return json_null();
    if (!(o = json_object()))
        return NULL;
    bad = put(o, "attacker", ref_json(s, s->turn, OL_SLOT_ACTIVE));
    bad = bad || put(o, "target", ref_json(s, s->attack_target.p, s->attack_target.slot));
    bad = bad || put(o, "blocked", json_boolean(s->blocked));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *trigger_json(const snap_state *s)
{
    json_t *o;
    int bad;

    if (s->window != WIN_RESONANCE || !s->trig.card)
        return json_null();
    if (!(o = json_object()))
        return NULL;
    bad = put(o, "seq", json_integer((json_int_t)s->trig.seq));
    bad = bad || put(o, "player", json_string(pname(s->trig.player)));
    bad = bad || put(o, "card", json_string(s->trig.card->id));
    bad = bad || put(o, "name", json_string(s->trig.card->name));
    bad = bad || put(o, "ability", json_integer(s->trig.ability));
    bad = bad || put(o, "negated", json_boolean(s->trig.negated));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *chain_json(const snap_state *s)
{
    json_t *a = json_array();
    int bad = !a;

    for (int i = 0; !bad && i < s->n_chain; i++) {
        const snap_link *l = &s->chain[i];
        json_t *o = json_object();
        bad = push(a, o);
        bad = bad || put(o, "seq", json_integer((json_int_t)l->seq));
        bad = bad || put(o, "player", json_string(pname(l->player)));
        bad = bad || put(o, "kind", json_string(link_kind(l)));
        bad = bad || put(o, "card", l->card ? json_string(l->card->id) : json_null());
        bad = bad || put(o, "name", l->card ? json_string(l->card->name) : json_null());
        bad = bad || put(o, "negated", json_boolean(l->negated));
    }
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

static json_t *verdicts_json(const verify_report *r)
{
    json_t *a = json_array();
    int bad = !a;

    for (size_t i = 0; !bad && i < r->n_verdicts; i++) {
        const verify_entry *e = &r->verdicts[i];
        if (e->v.status == OL_V_OK)
            continue;
        bad = push(a, olverdict_to_json(&e->v, e->stored == VERIFY_NONE ? NULL
                                                                        : &r->verdicts[e->stored].v));
    }
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* The --json object; keys in the order README.md documents. */
static json_t *board_json(const replay_ctx *c)
{
    const snap_state *s = c->s;
    json_t *o = json_object(), *players = NULL;
    int bad = !o;

    bad = bad || put(o, "match", json_string(c->rep->match));
    bad = bad || put(o, "seq", json_integer((json_int_t)c->seq));
    bad = bad || put(o, "view", json_string(view_names[c->view]));
    bad = bad || put(o, "round", json_integer(s->round));
    bad = bad || put(o, "turn", s->setup_done ? json_string(pname(s->turn)) : json_null());
    bad = bad || put(o, "step", json_string(step_name(s->step)));
    bad = bad || put(o, "window", window_name(s->window) ? json_string(window_name(s->window)) : json_null());
    bad = bad || put(o, "chain", chain_json(s));
    bad = bad || put(o, "attack", attack_json(s));
    bad = bad || put(o, "trigger", trigger_json(s));
    bad = bad || put(o, "players", players = json_object());
    bad = bad || put(players, "p1", player_json(c, 0));
    bad = bad || put(players, "p2", player_json(c, 1));
    bad = bad || put(o, "over", json_boolean(s->over));
    bad = bad || put(o, "winner", s->over && s->winner >= 0 ? json_string(pname(s->winner)) : json_null());
    bad = bad || put(o, "verdicts", verdicts_json(c->rep));
    bad = bad || put(o, "note", c->note[0] ? json_string(c->note) : json_null());
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static int print_json(const replay_ctx *c)
{
    return cli_print_json(board_json(c));
}

/* ---- options -------------------------------------------------------------------------- */

static int parse_at(const char *s, uint64_t *at)
{
    char *end = NULL;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno) {
        cli_error("--at needs an event's seq, a number from 0, not '%s'", s);
        return -1;
    }
    *at = (uint64_t)v;
    return 0;
}

static int parse_view(const char *s, replay_view *view)
{
    for (size_t i = 0; i < sizeof view_names / sizeof view_names[0]; i++)
        if (!strcmp(s, view_names[i])) {
            *view = (replay_view)i;
            return 0;
        }
    cli_error("unknown view '%s' (judge, p1, p2 or public)", s);
    return -1;
}

/* Options anywhere; one operand, the log; "--" ends the options. */
static int parse_opts(int argc, char **argv, replay_opts *o)
{
    int rest = 0;

    memset(o, 0, sizeof *o);
    o->view = VIEW_PUBLIC;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        if (rest || a[0] != '-' || !strcmp(a, "-")) {
            if (o->path) {
                cli_error("replay takes one log file, not '%s' too", a);
                return -1;
            }
            o->path = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            rest = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
            continue;
        }
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (!strncmp(a, "--at=", 5) || !strncmp(a, "--view=", 7) || !strncmp(a, "--cards=", 8)) {
            val = strchr(a, '=') + 1;
        } else if (!strcmp(a, "--at") || !strcmp(a, "--view") || !strcmp(a, "--cards")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", a);
                return -1;
            }
            val = argv[++i];
        } else {
            cli_error("unknown option '%s' (try arbiter replay --help)", a);
            return -1;
        }
        if (!strncmp(a, "--at", 4)) {
            if (parse_at(val, &o->at) < 0)
                return -1;
            o->has_at = 1;
        } else if (!strncmp(a, "--view", 6)) {
            if (parse_view(val, &o->view) < 0)
                return -1;
        } else {
            o->cards = val;
        }
    }
    return 0;
}

/* ---- the command ---------------------------------------------------------------------- */

/* The board for a replayed log, or why there is none (an exit code). */
static int show(const replay_opts *o, const verify_report *rep, const verifier *vf)
{
    replay_ctx c;

    if (rep->status == VERIFY_UNREADABLE) {
        cli_error("%s: %s", o->path, rep->error);
        return CLI_BADINPUT;
    }
    if (!vf) {
        /* A header was read (not unreadable) but no engine was made: the
         * match never started; its first verdict says why. */
        const olverdict *v = rep->n_verdicts ? &rep->verdicts[0].v : NULL;
        cli_error("%s: the match never started: %s", o->path, v && v->msg[0] ? v->msg : "no header");
        return CLI_ILLEGAL;
    }
    memset(&c, 0, sizeof c);
    if (!(c.s = snap_of(vf))) {
        cli_error("%s: replay draws Snap boards only; this log is %s", o->path, rep->format);
        return CLI_BADINPUT;
    }
    c.rep = rep;
    c.view = o->view;
    c.at = o->at;
    c.seq = o->at;
    if (rep->next_seq <= o->at) {
        c.seq = rep->next_seq ? rep->next_seq - 1 : 0;
        snprintf(c.note, sizeof c.note, "the log ends at seq %llu, before seq %llu; this is its final board",
                 (unsigned long long)c.seq, (unsigned long long)o->at);
    }
    if (o->json)
        return print_json(&c);
    print_text(&c);
    return CLI_OK;
}

int cmd_replay(int argc, char **argv)
{
    replay_opts o;
    cards *db = NULL;
    verify_report *rep = NULL;
    verifier *vf = NULL;
    int rc;

    if (parse_opts(argc, argv, &o) < 0)
        return CLI_BADINPUT;
    if (o.help) {
        fputs(usage_text, stdout);
        return CLI_OK;
    }
    if (!o.path || !o.has_at) {
        cli_error("replay needs %s", !o.path ? "a log file" : "--at SEQ");
        fputs(usage_text, stderr);
        return CLI_BADINPUT;
    }
    if (cli_load_cards(o.cards, &db) != CLI_OK)
        return CLI_BADINPUT;
    if (verify_file_until(db, o.path, o.at, &rep, &vf) != VERIFY_OK) {
        cli_error("%s: out of memory while replaying", o.path);
        rc = CLI_INTERNAL;
        goto done;
    }
    rc = show(&o, rep, vf);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the board");
        rc = CLI_INTERNAL;
    }
done:
    verifier_destroy(&vf);
    verify_report_destroy(&rep);
    cards_destroy(&db);
    return rc;
}
