/* snap.c -- the Snap rules engine (snap.h draws its state machine).
 *
 * What: snap_apply() judges one open-log event of a Snap match against the
 * rulebook and either applies it (ok, warning) or leaves the game as it was
 * (illegal, mismatch), with a verdict that cites the deepest rule deciding
 * it and says in one sentence what the rules required.
 *
 * How: every event is judged in place, each write noted first in an undo
 * log (verifiers/undo.h) that puts the state back when the event fails
 * (R12: SET and NOTE below; a legal event costs only the bytes it
 * changes).  First the windows that this event closes by
 * silence are resolved (R6): a chain LIFO, a trigger, a combat.  Then the
 * obligations that must come before anything else (R11 triggers, R4
 * promotions, 9.1 selections).  Then the event's own handler, one per event
 * type, from the table at the bottom.  Each check quotes the line it
 * enforces; the ids are the ones of verifiers/snap/rules.c.
 */
#include <stdarg.h>
#include <string.h>

#include "verifiers/deck.h"
#include "verifiers/openlog.h"
#include "verifiers/snap/rules.h"
#include "verifiers/snap/snap.h"
#include "verifiers/verifier.h"

#define P(s, i) (&(s)->side[(i)])

/* R12: during snap_apply every write to the state is noted in its undo
 * log first (verifiers/undo.h): SET for one lvalue, NOTE for bytes about to
 * change.  Outside an event (windows closed by silence, snap_start) the log
 * is NULL and they are plain writes. */
#define SET(s, lv, val) UNDO_SET((s)->ol.undo, lv, val)
#define NOTE(s, ptr, n) undo_note((s)->ol.undo, (ptr), (n))
#define OTHER(p) ((uint8_t)(1 - (p)))

/* A judgement in progress: the event, its verdict (openlog.h) and the
 * Snap state it is judged against. */
typedef struct {
    openlog_judgement o;
    snap_state *s;
} judge;

#define ILLEGAL(j, rule, ...) OPENLOG_ILLEGAL(&(j)->o, (rule), __VA_ARGS__)
/* A rule a judge may let stand (verifiers/openlog.h): 1 to stop. */
#define BREAK(j, rule, ...) OPENLOG_BREAK(&(j)->o, (rule), __VA_ARGS__)

static const char *who(const snap_state *s, int p)
{
    return openlog_who(&s->ol, p);
}

static int player_of(const olevent *ev)
{
    return openlog_player_of(ev);
}

static const card *top(const snap_monster *m)
{
    return m->depth ? m->stack[m->depth - 1] : NULL;
}

static int32_t imp_of(const snap_monster *m)
{
    const card *c = top(m);
    return c ? c->snap.imp + m->mod : 0;
}

static snap_monster *monster_at(snap_state *s, int p, int slot)
{
    if (slot == OL_SLOT_ACTIVE)
        return &P(s, p)->active;
    return slot >= 0 && slot < SNAP_BENCH ? &P(s, p)->bench[slot] : NULL;
}

static void slot_name(char *buf, size_t n, int slot)
{
    if (slot == OL_SLOT_ACTIVE) {
        olverdict_format(buf, n, "the active slot");
    } else {
        olverdict_format(buf, n, "Bench slot %d", slot);
    }
}

/* ---- hidden cards (openlog.md 6: verifiers/openlog.c) ---------------- */

static int take_href(judge *j, const ol_href *h, openlog_card *out, const char *what)
{
    return openlog_take_href(&j->o, h, out, what);
}

static int reveal(judge *j, const openlog_card *h, const char *id, const char *nonce, const char *where,
                  const card **out)
{
    return openlog_reveal(&j->o, h, id, nonce, where, out);
}

/* ---- setup --------------------------------------------------------- */

static void set_levers(snap_state *s, const ol_header *h)
{
    s->chain_cap = (uint8_t)ol_header_lever(h, "chain_cap", 3);
    s->unlocks_per_turn = (uint8_t)ol_header_lever(h, "unlocks_per_turn", 1);
    s->swaps_per_game = (uint8_t)ol_header_lever(h, "swaps_per_game", 1);
    s->swap_refresh = (uint8_t)ol_header_lever(h, "swap_refresh_on_prime_defeat", 0);
    s->p1_round1_unlock = (uint8_t)ol_header_lever(h, "p1_round1_unlock", 0);
    s->hand_size[0] = (uint8_t)ol_header_lever(h, "p1_hand", 5);
    s->hand_size[1] = (uint8_t)ol_header_lever(h, "p2_hand", 6);
    s->round1_attacks = (uint8_t)ol_header_lever(h, "round1_attacks", 0);
    s->freeze_rounds = (uint8_t)ol_header_lever(h, "freeze_rounds", 2);
    s->bench_facedown = (uint8_t)ol_header_lever(h, "bench_facedown", 4);
    s->p1_opening_lock = (uint8_t)ol_header_lever(h, "p1_opening_lock", 1);
}

static void load_deck(snap_state *s, int p, const ol_deck *d)
{
    snap_side *sd = P(s, p);
    for (size_t i = 0; i < d->monsters.n && i < SNAP_LINEUP; i++) {
        sd->lineup[i] = cards_find(s->ol.db, d->monsters.ids[i]);
        if (sd->lineup[i] && sd->lineup[i]->kind == CARD_PRIME_SINGULAR)
            sd->prime = sd->lineup[i];
    }
    for (size_t i = 0; i < d->supports.n && i < SNAP_SUPPORTS; i++)
        sd->supports[i] = cards_find(s->ol.db, d->supports.ids[i]);
    for (size_t i = 0; i < d->reserve.n && sd->n_reserve < SNAP_RESERVE_MAX; i++) {
        const card *c = cards_find(s->ol.db, d->reserve.ids[i]);
        if (c && c->kind != CARD_PRIME_SINGULAR)
            sd->reserve[sd->n_reserve++] = c;
    }
}

int snap_start(snap_state *s, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)
{
    const ol_header *h = &header->header;
    memset(s, 0, sizeof *s);
    openlog_start(&s->ol, db, h);
    s->round = 1;
    s->next_seq = 1;
    set_levers(s, h);
    for (int p = 0; p < 2; p++)
        load_deck(s, p, &h->players[p].deck);
    /* snap 8.1: "If a deck is illegal, it must be corrected before play
     * begins." -- a header with an illegal deck starts no match. */
    int decks = openlog_check_decks(header, db, memo, v);
    if (decks == OPENLOG_EINTERNAL)
        return VERIFIER_ENOMEM;
    if (decks) {
        openlog_end(&s->ol, -1);
        s->step = STEP_OVER;
        return VERIFIER_OK;
    }
    s->step = STEP_SETUP;
    olverdict_set(v, header->match, header->seq, OL_V_OK, NULL, NULL);
    return VERIFIER_OK;
}

/* ---- the round and the turn ---------------------------------------- */

/* R8: the Lock Freeze covers Rounds 2 and 3 (freeze_rounds, 18.6). */
static int in_freeze(const snap_state *s)
{
    return s->round >= 2 && s->round < 2u + s->freeze_rounds;
}

static int unlock_allowed(const snap_state *s, int p)
{
    const snap_side *sd = &s->side[p];
    /* snap 8.6: Player 1 "does not lock or unlock Supports this round";
     * Player 2 "does not unlock Supports this round". */
    if (s->round == 1 && !(p == 0 && s->p1_round1_unlock))
        return 0;
    return !in_freeze(s) && !sd->prevent.unlock && !sd->prevent.draw;
}

/* Unlocks the active player still owes this Unlock Step (9.6, 18.2). */
static int unlocks_owed(const snap_state *s)
{
    const snap_side *sd = &s->side[s->turn];
    if (!unlock_allowed(s, s->turn) || s->step > STEP_UNLOCK)
        return 0;
    int owed = s->unlocks_per_turn - s->unlocks_done;
    return owed < sd->n_locked ? owed : sd->n_locked;
}

static int facedown_on_bench(const snap_side *sd)
{
    for (int i = 0; i < SNAP_BENCH; i++)
        if (sd->bench[i].present && !sd->bench[i].face_up)
            return 1;
    return 0;
}

static int flip_owed(const snap_state *s)
{
    return s->step <= STEP_FLIP && !s->flipped && facedown_on_bench(&s->side[s->turn]);
}

/* Every monster on the field, for what happens to all of them at once. */
static snap_monster *field_monster(snap_state *s, int i)
{
    snap_side *sd = P(s, i / (SNAP_BENCH + 1));
    int slot = i % (SNAP_BENCH + 1);
    return slot == SNAP_BENCH ? &sd->active : &sd->bench[slot];
}
#define FIELD_SLOTS (2 * (SNAP_BENCH + 1))

/* R7: modifiers last until "the end of the turn" at the latest. */
static void expire_modifiers(snap_state *s)
{
    for (int i = 0; i < FIELD_SLOTS; i++) {
        snap_monster *m = field_monster(s, i);
        if (m->mod || m->attack_mod) {   /* most are 0: nothing to note */
            SET(s, m->mod, 0);
            SET(s, m->attack_mod, 0);
        }
    }
}

static void begin_turn(snap_state *s, uint8_t p)
{
    /* snap A28: what waited for this player's next turn is in force now */
    SET(s, P(s, p)->prevent, P(s, p)->prevent_next);
    NOTE(s, &P(s, p)->prevent_next, sizeof P(s, p)->prevent_next);
    memset(&P(s, p)->prevent_next, 0, sizeof P(s, p)->prevent_next);
    SET(s, s->turn, p);
    SET(s, s->step, STEP_UNLOCK);
    SET(s, s->unlocks_done, 0);
    SET(s, s->flipped, 0);
    SET(s, s->evolved, 0);
    SET(s, s->attacks_made, 0);
    SET(s, s->attacks_allowed, 1);
    SET(s, s->locked_this_turn, 0);
}

/* snap A4: the setup promotions come "before the first turn of Round 1":
 * until p1 acts in it, that turn has not begun.  (Nothing is locked before
 * p1's Opening Lock-in ends that turn's steps, so no unlock can have been
 * made in its Unlock Step.) */
static int before_first_turn(const snap_state *s)
{
    return s->round == 1 && s->turn == 0 && s->step == STEP_UNLOCK;
}

/* snap A28: "An effect that prevents unlocking, locking or drawing applies
 * to its target player's next turn, never to the turn in progress (even when
 * that turn is the target's own)" -- before the first turn (A4) p1's next
 * turn is the first one, whose begin_turn has already run. */
static snap_prevention *prevention_for(snap_state *s, int p)
{
    snap_side *sd = P(s, p);
    return p == s->turn && before_first_turn(s) ? &sd->prevent : &sd->prevent_next;
}

/* ---- triggers ------------------------------------------------------ */

static void fire(snap_state *s, int p, int slot, const card *c, trigger_when when)
{
    for (uint8_t a = 0; c && a < c->snap.n_triggers; a++) {
        if (c->snap.triggers[a].when != when || s->n_fired >= SNAP_TRIGGERS_MAX)
            continue;
        NOTE(s, &s->n_fired, sizeof s->n_fired);
        snap_fired *f = &s->fired[s->n_fired++];
        NOTE(s, f, sizeof *f);
        f->player = (uint8_t)p;
        f->slot_is_active = slot == OL_SLOT_ACTIVE;
        f->slot = (int8_t)slot;
        f->card = c;
        f->ability = a;
    }
}

/* ---- defeat and the end of the game -------------------------------- */

static int on_field(const snap_side *sd)
{
    if (sd->active.present)
        return 1;
    for (int i = 0; i < SNAP_BENCH; i++)
        if (sd->bench[i].present)
            return 1;
    return 0;
}

/* R5: "A player loses when they control no monster on the field (active or
 * bench) and no fifth monster waits (R1)." 3.4: the game ends at once.
 * Called after each defeat (A22), which takes one monster of one player: the
 * other had not lost before it (the game would have ended), so at most one
 * player has lost and the game never ends in a draw. */
static void check_end(snap_state *s)
{
    int lost[2];
    for (int p = 0; p < 2; p++)
        lost[p] = !on_field(P(s, p)) && !P(s, p)->fifth_waiting;
    if (!lost[0] && !lost[1])
        return;
    openlog_end(&s->ol, lost[0] ? 1 : 0);
    SET(s, s->step, STEP_OVER);
    SET(s, s->window, WIN_NONE);
}

static void need_promotion(snap_state *s, int p)
{
    snap_side *sd = P(s, p);
    if (sd->active.present)
        return;
    for (int i = 0; i < SNAP_BENCH; i++)
        if (sd->bench[i].present)
            SET(s, sd->promote_due, 1);
}

/* 7.7: "The Graveyard holds all used and defeated cards." */
static void to_grave(snap_state *s, int p, const card *c)
{
    snap_side *sd = P(s, p);
    if (sd->n_grave < SNAP_GRAVE_MAX) {
        SET(s, sd->grave[sd->n_grave], c);
        SET(s, sd->n_grave, sd->n_grave + 1);
    }
}

static void stack_to_grave(snap_state *s, int p, const snap_monster *m)
{
    for (int i = 0; i < m->depth; i++)
        to_grave(s, p, m->stack[i]);
}

/* 11.5 / 13.6: the whole stack goes to the Graveyard together.  The monster
 * at p's `slot` is present: both callers (FX_DESTROY, resolve_combat) check. */
static void defeat(snap_state *s, int p, int slot)
{
    snap_monster *m = monster_at(s, p, slot);
    openlog_defeated(&s->ol, p, slot);
    if (m->depth && m->stack[0]->kind == CARD_PRIME_SINGULAR && s->swap_refresh)
        SET(s, P(s, p)->swaps_used, 0);   /* 18.4 lever */
    stack_to_grave(s, p, m);
    NOTE(s, m, sizeof *m);
    memset(m, 0, sizeof *m);
    SET(s, P(s, p)->lost, P(s, p)->lost + 1);
    need_promotion(s, p);
    check_end(s);
}

/* ---- targets (openlog 7: one reference per chosen target, in order) -- */

/* Does the reference r fit the selector t for a card of player p? */
static int target_fits(judge *j, fx_target t, const ol_ref *r, int p, const char *what)
{
    snap_state *s = j->s;
    char where[32];
    if (t == TGT_PLAYER) {
        if (r->kind != OL_REF_PLAYER)
            return ILLEGAL(j, "snap:7.8", "%s must target a player.", what);
        return 0;
    }
    if (t == TGT_CHAIN_LINK) {
        for (int i = 0; r->kind == OL_REF_SEQ && i < s->n_chain; i++)
            if (s->chain[i].seq == r->seq)
                return 0;
        return ILLEGAL(j, "snap:15.1", "%s must target a Spell or Counter on the current chain.", what);
    }
    if (t == TGT_TRIGGER) {
        if (r->kind == OL_REF_SEQ && s->window == WIN_RESONANCE && s->trig.seq == r->seq)
            return 0;
        return ILLEGAL(j, "snap:15.5", "%s must target the Trigger being resolved.", what);
    }
    if (t == TGT_OPP_LOCKED) {
        if (r->kind != OL_REF_LOCKED || (int)r->p != OTHER(p) || r->lock >= P(s, r->p)->n_locked)
            return ILLEGAL(j, "snap:9.9", "%s must target one of the opponent's Locked Supports.", what);
        return 0;
    }
    /* A monster: 7.8 zone boundaries, face-up only (7.2.1 face-down
     * monsters have "no IMP value"). */
    snap_monster *m = r->kind == OL_REF_MONSTER ? monster_at(s, r->p, r->slot) : NULL;
    if (!m || !m->present || !m->face_up)
        return ILLEGAL(j, "snap:7.8", "%s must target a face-up monster on the field.", what);
    slot_name(where, sizeof where, r->slot);
    int own = (int)r->p == p, bench = r->slot != OL_SLOT_ACTIVE;
    if ((t == TGT_OWN_MONSTER && !own) || (t == TGT_OPP_MONSTER && own) ||
        (t == TGT_OWN_BENCH && (!own || !bench)) || (t == TGT_OPP_BENCH && (own || !bench)))
        return ILLEGAL(j, "snap:7.8", "%s cannot target the monster in %s of %s.", what, where,
                       who(s, r->p));
    return 0;
}

/* Could any reference fit the selector t for player p right now?  A
 * probe judge that has already failed records nothing. */
static int has_candidate(snap_state *s, fx_target t, int p)
{
    judge probe = {.o = {.m = &s->ol, .failed = 1}, .s = s};
    ol_ref r = {.kind = OL_REF_PLAYER};
    switch (t) {
    case TGT_PLAYER: return 1;
    case TGT_CHAIN_LINK: return s->n_chain > 0;
    case TGT_TRIGGER: return s->window == WIN_RESONANCE;
    case TGT_OPP_LOCKED: return P(s, OTHER(p))->n_locked > 0;
    default: break;
    }
    r.kind = OL_REF_MONSTER;
    for (int q = 0; q < 2; q++)
        for (int slot = OL_SLOT_ACTIVE; slot < SNAP_BENCH; slot++) {
            r.p = (ol_player)q;
            r.slot = slot;
            if (target_fits(&probe, t, &r, p, "") == 0)
                return 1;
        }
    return 0;
}

/* openlog 7: one reference per chosen target, in order.  R-A30: when
 * `may_skip` (a Trigger, which cannot be declined), a choice with no
 * candidate at all is left out of the announcement and its effect is
 * skipped; *skip gets one bit per skipped effect. */
static int check_targets(judge *j, const card_effect *fx, int n_fx, const ol_ref *refs, size_t n_refs,
                         int p, const char *what, int may_skip, uint8_t *skip)
{
    size_t k = 0, want = 0;
    uint8_t mask = 0;
    for (int i = 0; i < n_fx; i++) {
        if (!fx_target_is_chosen(fx[i].target))
            continue;
        /* snap A30: "a choice that has no candidate is left out and its effect does nothing" */
        if (may_skip && !has_candidate(j->s, fx[i].target, p)) {
            mask |= (uint8_t)(1u << i);
            continue;
        }
        want++;
        if (k < n_refs && target_fits(j, fx[i].target, &refs[k++], p, what))
            return -1;
    }
    if (n_refs != want)
        return ILLEGAL(j, mask ? "snap:A30" : "openlog:7", "%s names %zu target%s; its effects choose %zu%s.",
                       what, n_refs, n_refs == 1 ? "" : "s", want,
                       mask ? ", because a choice with no candidate is left out" : "");
    if (skip)
        *skip = mask;
    return 0;
}

/* ---- effects ------------------------------------------------------- */

typedef struct {
    int player;           /* who controls the effect */
    int src_p, src_slot;  /* the source monster, for TGT_SELF; src_p < 0: none */
    int attack;           /* played in the windows of the attack in progress (A32) */
} fx_ctx;

/* Resolve a fixed or chosen selector to a monster position. */
static int monster_target(snap_state *s, const fx_ctx *c, fx_target t, const ol_ref *chosen,
                          int *p, int *slot)
{
    switch (t) {
    case TGT_SELF: *p = c->src_p; *slot = c->src_slot; return c->src_p >= 0;
    case TGT_OWN_ACTIVE: *p = c->player; *slot = OL_SLOT_ACTIVE; return 1;
    case TGT_OPP_ACTIVE: *p = OTHER(c->player); *slot = OL_SLOT_ACTIVE; return 1;
    case TGT_ATTACKER: *p = s->turn; *slot = OL_SLOT_ACTIVE; return s->attack_on;
    case TGT_DEFENDER:
        *p = s->attack_target.p;
        *slot = s->attack_target.slot;
        return s->attack_on;
    default:
        if (!chosen || chosen->kind != OL_REF_MONSTER)
            return 0;
        *p = chosen->p;
        *slot = chosen->slot;
        return 1;
    }
}

static int player_target(const fx_ctx *c, fx_target t, const ol_ref *chosen)
{
    if (t == TGT_CONTROLLER)
        return c->player;
    if (t == TGT_OPPONENT)
        return OTHER(c->player);
    return chosen && chosen->kind == OL_REF_PLAYER ? (int)chosen->p : c->player;
}

/* snap A15: "An attack is bound to its attacking monster and its target,
 * not to slots."  Player p's active monster and Bench `slot` have just
 * traded places during an attack: an attacker swapped away fizzles it
 * (it still counts as made); a target, always the defender's (10.8.1,
 * 12.2, A35), is followed to its new place. */
static void follow_attack(snap_state *s, int p, int slot)
{
    if (!s->attack_on)
        return;
    if (p == s->turn) {
        SET(s, s->attack_on, 0);
        return;
    }
    ol_ref *t = &s->attack_target;
    NOTE(s, t, sizeof *t);
    if (t->slot == OL_SLOT_ACTIVE)
        t->slot = slot;
    else if (t->slot == slot)
        t->slot = OL_SLOT_ACTIVE;
}

static void swap_in(snap_state *s, int p, int slot)
{
    snap_side *sd = P(s, p);
    snap_monster tmp = sd->active;
    SET(s, sd->active, sd->bench[slot]);
    SET(s, sd->bench[slot], tmp);
    follow_attack(s, p, slot);
    /* 12.1 [on entry]: "when the Monster enters the Combat Field" */
    fire(s, p, OL_SLOT_ACTIVE, top(&sd->active), TRIG_ON_ENTRY);
}

static void apply_effects(snap_state *s, const fx_ctx *c, const card_effect *fx, int n,
                          const ol_ref *refs, size_t n_refs, unsigned skip)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (skip & (1u << i))
            continue;   /* A30 */
        const ol_ref *chosen = fx_target_is_chosen(fx[i].target) && k < n_refs ? &refs[k++] : NULL;
        int p = 0, slot = 0, tp = player_target(c, fx[i].target, chosen);
        snap_monster *m = monster_target(s, c, fx[i].target, chosen, &p, &slot) ? monster_at(s, p, slot) : NULL;
        switch (fx[i].op) {
        case FX_IMP:
            /* 11.3: "Multiple modifiers stack additively"; snap A32: one given
             * for an attack ends with that attack */
            if (m && m->present && m->face_up) {
                SET(s, m->mod, m->mod + fx[i].amount);
                if (c->attack)
                    SET(s, m->attack_mod, m->attack_mod + fx[i].amount);
            }
            break;
        case FX_NEGATE:
            for (int l = 0; chosen && l < s->n_chain; l++)
                if (s->chain[l].seq == chosen->seq)
                    SET(s, s->chain[l].negated, 1);
            break;
        case FX_RESONANCE:
            /* only a Counter targeting a Trigger has it (cards.c), and such a
             * Counter is played only in that Trigger's window, where it
             * resolves at once (do_counter): it targets the Trigger pending */
            SET(s, s->trig.negated, 1);   /* 15.5: "it does not resolve" */
            break;
        case FX_DESTROY:
            if (m && m->present)
                defeat(s, p, slot);
            break;
        case FX_PREVENT_UNLOCK: SET(s, prevention_for(s, tp)->unlock, 1); break;
        case FX_PREVENT_LOCK: SET(s, prevention_for(s, tp)->lock, 1); break;
        case FX_PREVENT_DRAW: SET(s, prevention_for(s, tp)->draw, 1); break;   /* 9.8 */
        case FX_SWAP:
            /* 12.3: Swap by an ability "does not consume the once-per-game Swap Phase" */
            if (m && m->present && slot != OL_SLOT_ACTIVE && P(s, p)->active.present)
                swap_in(s, p, slot);
            break;
        case FX_SELECT: {
            /* 9.1: a draw "refers to the Support access rules"; 9.8 prevents it;
             * snap A8: "that many cards (all of them, when fewer remain)" (3.3) */
            snap_side *sd = P(s, c->player);
            int due = sd->select_due + fx[i].amount, left = SNAP_SUPPORTS - sd->support_taken;
            if (!sd->prevent.draw)
                SET(s, sd->select_due, (uint8_t)(due < left ? due : left));
            break;
        }
        case FX_REMOVE_LOCKED: {
            /* 9.9: "its position in the lock order is lost"; snap A34: it goes
             * to the Graveyard unrevealed (7.4), whoever knows it */
            snap_side *sd = chosen ? P(s, chosen->p) : NULL;
            if (sd && chosen->lock < sd->n_locked) {
                if (!sd->locked[chosen->lock].card)
                    SET(s, sd->buried, sd->buried + 1);
                to_grave(s, chosen->p, NULL);
                NOTE(s, &sd->locked[chosen->lock], (sd->n_locked - chosen->lock) * sizeof sd->locked[0]);
                memmove(&sd->locked[chosen->lock], &sd->locked[chosen->lock + 1],
                        (sd->n_locked - chosen->lock - 1) * sizeof sd->locked[0]);
                SET(s, sd->n_locked, sd->n_locked - 1);
            }
            break;
        }
        case FX_REDIRECT:
            if (s->attack_on && m && m->present)
                SET(s, s->attack_target, ((ol_ref){.kind = OL_REF_MONSTER, .p = (ol_player)p, .slot = slot}));
            break;
        case FX_FIZZLE: SET(s, s->attack_on, 0); break;
        default: break;   /* other formats' primitives never reach Snap cards */
        }
        if (s->ol.over)
            return;
    }
}

/* ---- windows (R6) --------------------------------------------------- */

/* A window opens: nobody has passed in it yet (A33). */
static void open_window(snap_state *s, snap_window w)
{
    SET(s, s->window, w);
    SET(s, s->passed, 0);
}

/* A lone Spell of p's is on the chain: only the opponent may answer it
 * first (10.5, A19). */
static int own_spell_alone(const snap_state *s, int p)
{
    return s->window == WIN_COUNTER && s->n_chain == 1 && s->chain[0].is_spell && s->chain[0].player == p;
}

/* snap A33: the rule that bars player p from answering (a Counter or a pass)
 * in the open Counter or Resonance Window; NULL when p may answer. */
static const char *answer_barred(const snap_state *s, int p)
{
    if (s->round == 1 && p == 0)
        return "snap:R3";
    if (s->window == WIN_RESONANCE && s->trig.negated)
        return "snap:A20";
    if (own_spell_alone(s, p))
        return "snap:10.5";
    return NULL;
}

/* The attack in progress ends, by its combat or without one (a fizzle,
 * A15).  snap A32: the modifiers given for it end with it (11.3 "apply only
 * for the current combat"), and the Attack Phase goes on only while an
 * attack remains (10.8.1, 11.7). */
static void end_attack(snap_state *s)
{
    SET(s, s->attack_on, 0);
    for (int i = 0; i < FIELD_SLOTS; i++) {
        snap_monster *m = field_monster(s, i);
        if (m->attack_mod) {
            SET(s, m->mod, m->mod - m->attack_mod);
            SET(s, m->attack_mod, 0);
        }
    }
    if (s->attacks_made >= s->attacks_allowed && !s->ol.over)
        SET(s, s->step, STEP_SWAP);
}

/* 11.2: compare final IMP; the lower is defeated; equal, neither. */
static void resolve_combat(snap_state *s)
{
    int a = s->turn, d = s->attack_target.p, ds = s->attack_target.slot;
    snap_monster *att = &P(s, a)->active, *def = monster_at(s, d, ds);
    SET(s, s->attack_on, 0);
    SET(s, s->window, WIN_NONE);
    if (att->present && def && def->present && def->face_up) {
        int32_t ia = imp_of(att), id = imp_of(def);
        /* R7: modifiers last "until the end of the next combat" */
        SET(s, att->mod, 0);
        SET(s, att->attack_mod, 0);
        SET(s, def->mod, 0);
        SET(s, def->attack_mod, 0);
        if (ia > id)
            defeat(s, d, ds);
        else if (id > ia)
            defeat(s, a, OL_SLOT_ACTIVE);
    }
    end_attack(s);
}

/* 15.4: "Chains resolve in last-in, first-out (LIFO) order." */
static void resolve_chain(snap_state *s)
{
    int attack = s->attack_on;   /* the chain of an attack's windows (A32) */
    SET(s, s->window, WIN_NONE);
    for (int i = s->n_chain - 1; i >= 0; i--)   /* 7.7: "sent to the Graveyard after resolution" */
        to_grave(s, s->chain[i].player, s->chain[i].card);
    for (int i = s->n_chain - 1; i >= 0 && !s->ol.over; i--) {
        snap_link *l = &s->chain[i];
        if (l->negated)
            continue;
        fx_ctx c = {l->player, -1, 0, attack};
        apply_effects(s, &c, l->card->snap.effects, l->card->snap.n_effects, l->targets, l->n_targets, 0);
    }
    SET(s, s->n_chain, 0);
    SET(s, s->chain_count[0], 0);
    SET(s, s->chain_count[1], 0);
    /* 10.8.4: "After all Counters resolve: Combat is resolved" -- unless a
     * link made the attack fizzle (A15, A32) */
    if (attack && !s->ol.over) {
        if (s->attack_on)
            resolve_combat(s);
        else
            end_attack(s);
    }
}

/* The announced Trigger's window closes: it resolves unless a Resonance
 * Counter negated it.  (Only do_trigger opens the window, and it records
 * the card of the Trigger that fired.) */
static void resolve_trigger(snap_state *s)
{
    SET(s, s->window, WIN_NONE);
    snap_pending_trigger *t = &s->trig;
    if (!t->negated) {
        const snap_trigger *tr = &t->card->snap.triggers[t->ability];
        fx_ctx c = {t->player, t->source.p, t->source.slot, s->attack_on};
        apply_effects(s, &c, tr->effects, tr->n_effects, t->targets, t->n_targets, t->skip);
    }
    /* No chain waits under a Trigger's window: a `trigger` event closes the
     * open window, chain and all, before it is announced (A26), and a
     * Resonance Counter starts no chain (A20). */
}

/* Does the event belong to the open window, or close it by arriving? */
static int belongs_to_window(const snap_state *s, const olevent *ev)
{
    switch (ev->type) {
    case OL_PASS:
    case OL_COUNTER:
    case OL_JUDGE: return 1;
    case OL_BLOCK: return s->window == WIN_BLOCKER;
    default: return 0;
    }
}

/* A ruling of this engine (RULINGS.md A26): a window closes when an event
 * that does not belong to it arrives, whether or not that event is legal;
 * R12 keeps the event itself from changing anything. */
static void close_window(snap_state *s)
{
    /* snap A5: a claim is compared with the monsters defeated "since the
     * previous claim or since the last combat or effect resolution,
     * whichever is later" -- closing a window starts a resolution. */
    if (s->window != WIN_NONE)
        SET(s, s->ol.n_defeated, 0);
    switch (s->window) {
    case WIN_BLOCKER:
    case WIN_COUNTER: resolve_chain(s); break;
    case WIN_RESONANCE: resolve_trigger(s); break;
    default: break;
    }
}

static void close_windows(snap_state *s, const olevent *ev)
{
    if (s->window != WIN_NONE && !belongs_to_window(s, ev))
        close_window(s);
}

/* ---- the hand and the support deck ---------------------------------- */

static int support_index(const snap_side *sd, const card *c)
{
    for (int i = 0; i < SNAP_SUPPORTS; i++)
        if (sd->supports[i] == c)
            return i;
    return -1;
}

/* A support card leaves the support deck (select, lock) with its identity
 * known (open mode) or not.  Known: it must be in the deck, not yet taken
 * (4.4 singleton makes a card id a single card). */
static int take_support(judge *j, int p, const openlog_card *h, const char *what)
{
    snap_side *sd = P(j->s, p);
    if (sd->support_taken >= SNAP_SUPPORTS)
        return ILLEGAL(j, "snap:3.3", "%s takes a card from %s's Support Deck, which is empty.", what, who(j->s, p));
    if (h->card) {
        int i = support_index(sd, h->card);
        if (i < 0)
            return ILLEGAL(j, "snap:9.2", "%s names %s, which is not in %s's Support Deck.", what,
                           h->card->name, who(j->s, p));
        if (sd->support_seen[i])
            return ILLEGAL(j, "snap:9.2", "%s names %s, which has already left %s's Support Deck.", what,
                           h->card->name, who(j->s, p));
        SET(j->s, sd->support_seen[i], 1);
    }
    SET(j->s, sd->support_taken, sd->support_taken + 1);
    return 0;
}

/* A support of unknown identity is revealed (announced mode): it must be a
 * card of the deck that has not been seen yet. */
static int support_revealed(judge *j, int p, const card *c, const char *what)
{
    snap_side *sd = P(j->s, p);
    char opening[96];
    olverdict_format(opening, sizeof opening, "%s reveals", what);
    return openlog_deck_take(&j->o, sd->supports, sd->support_seen, SNAP_SUPPORTS, c, p, opening, "Support Deck");
}

/* Take the revealed card out of the hand (7.6: "Only cards in hand may be
 * played as Spells or Counters"). */
static int from_hand(judge *j, int p, const char *id, const char *nonce, const char *what, const card **out)
{
    snap_state *s = j->s;
    snap_side *sd = P(s, p);
    const card *c = cards_find(s->ol.db, id);
    int at;
    if (!c)
        return ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", id);
    if ((at = openlog_zone_find(sd->hand, sd->n_hand, c, nonce)) < 0) {
        if (s->ol.hidden == OL_HIDDEN_COMMIT)
            return ILLEGAL(j, "openlog:commit", "%s plays %s, which matches no card committed to %s's hand.",
                           what, c->name, who(s, p));
        return ILLEGAL(j, "snap:7.6", "%s plays %s, which is not in %s's hand.", what, c->name, who(s, p));
    }
    if (!sd->hand[at].card && support_revealed(j, p, c, what))
        return -1;
    NOTE(s, &sd->hand[at], (size_t)(sd->n_hand - at) * sizeof sd->hand[0]);
    memmove(&sd->hand[at], &sd->hand[at + 1], (size_t)(sd->n_hand - at - 1) * sizeof sd->hand[0]);
    SET(s, sd->n_hand, sd->n_hand - 1);
    *out = c;
    return 0;
}

static int add_to_hand(judge *j, int p, const openlog_card *h)
{
    snap_side *sd = P(j->s, p);
    if (sd->n_hand >= SNAP_HAND_MAX)
        return ILLEGAL(j, "snap:7.6", "%s's hand cannot hold more than %d cards here.", who(j->s, p), SNAP_HAND_MAX);
    SET(j->s, sd->hand[sd->n_hand], *h);
    SET(j->s, sd->n_hand, sd->n_hand + 1);
    return 0;
}

/* 6.2 / 6.3: "you may play a Spell only if you control a face-up Monster
 * of the same class." */
static int controls_class(const snap_side *sd, card_class cls)
{
    if (sd->active.present && sd->active.face_up && top(&sd->active)->cls == cls)
        return 1;
    for (int i = 0; i < SNAP_BENCH; i++)
        if (sd->bench[i].present && sd->bench[i].face_up && top(&sd->bench[i])->cls == cls)
            return 1;
    return 0;
}

/* "Coreon" and "a Coreon"/"an Obscura", for sentences. */
static const char *class_title(card_class c)
{
    static const char *const t[CLASS_COUNT] = {"Coreon", "Fluxion", "Synaphera", "Obscura", "Aetherion"};
    return (unsigned)c < CLASS_COUNT ? t[c] : "unknown";
}

static const char *class_article(card_class c)
{
    return c == CLASS_OBSCURA || c == CLASS_AETHERION ? "an" : "a";
}

/* ---- checks every action of the active player shares ---------------- */

#define STEP_END (STEP_LOCK + 1)   /* the End Phase (10.11): after the Lock-in */

/* Each step of the turn and the deepest section that confines its action
 * to it: to the active player's turn, and to the step itself.
 *   10.1  "Each round consists of one turn per player, taken in alternating order."
 *   6.2   "They may be played only during your own Spell Phase."
 *   10.3  "they must flip exactly one of them face-up" (in the Flip Step)
 *   10.6  "Once per turn, the active player may perform one Evolution."
 *   14.5  "A Prime Singular may be played only during the Prime Singular Step
 *          of the active player's turn."
 *   10.9  "Once per game, the active player may perform a Swap."
 *   10.10 "At the end of the active player's turn, Support cards may be locked."
 *   10    "players may act only during the step in which an action is
 *          permitted" -- where no deeper section orders the step (the Attack
 *          Phase, the End Phase). */
static const struct {
    const char *name, *off_turn, *off_step;
} steps[] = {
    [STEP_UNLOCK] = {"the Unlock Step", "snap:10.1", "snap:10.2"},
    [STEP_FLIP] = {"the Flip Step", "snap:10.1", "snap:10.3"},
    [STEP_SPELL] = {"the Spell Phase", "snap:6.2", "snap:6.2"},
    [STEP_EVOLVE] = {"the Evolution Step", "snap:10.1", "snap:10.6"},
    [STEP_PRIME] = {"the Prime Singular Step", "snap:14.5", "snap:14.5"},
    [STEP_ATTACK] = {"the Attack Phase", "snap:10.1", "snap:10"},
    [STEP_SWAP] = {"the Swap Phase", "snap:10.1", "snap:10.9"},
    [STEP_LOCK] = {"the Lock-in Phase", "snap:10.1", "snap:10.10"},
    [STEP_END] = {"the End Phase", "snap:10.1", "snap:10"},
};

/* The player announcing an action of `step`, who must be the active player.
 * (Before setup is complete check_obligations has refused the action: snap 8.) */
static int active_player(judge *j, snap_step step, const char *what)
{
    int p = player_of(j->o.ev);
    if (p < 0)
        return ILLEGAL(j, "openlog:3", "The %s announced %s; a player's action is announced by that player.",
                       ol_by_name(j->o.ev->by), what);
    if (p != j->s->turn)
        return ILLEGAL(j, steps[step].off_turn, "%s announced %s during %s's turn.", who(j->s, p), what,
                       who(j->s, j->s->turn));
    return p;
}

/* The steps after the Unlock Step: those before `step` that the player may
 * not skip.  No window is open: the action closed it by arriving (A26). */
static int steps_done(judge *j, int p, snap_step step, const char *what)
{
    snap_state *s = j->s;
    if (unlocks_owed(s))
        /* 10.2: "they must reveal exactly one Locked Support of their choice" */
        return ILLEGAL(j, "snap:10.2", "%s announced %s before unlocking a Locked Support; the Unlock Step "
                       "comes first.", who(s, p), what);
    if (step > STEP_FLIP && flip_owed(s))
        /* 10.3: "they must flip exactly one of them face-up" */
        return ILLEGAL(j, "snap:10.3", "%s announced %s before flipping a face-down Bench monster in the "
                       "Flip Step.", who(s, p), what);
    if (step >= STEP_SPELL && P(s, p)->fifth_due)
        /* R1: placed "before that player's Spell Phase" */
        return ILLEGAL(j, "snap:R1", "%s announced %s before placing their fifth monster on the empty "
                       "Bench slot.", who(s, p), what);
    if (s->step > step)
        return ILLEGAL(j, steps[step].off_step, "%s announced %s after %s was over; the steps of a turn come in a "
                       "fixed order and never go back.", who(s, p), what, steps[step].name);
    return 0;
}

/* ---- setup: 8.3 bench, 8.5 selection -------------------------------- */

static int lineup_index(const snap_side *sd, const card *c, int unseen_only)
{
    for (int i = 0; i < SNAP_LINEUP; i++)
        if (sd->lineup[i] == c && !(unseen_only && sd->lineup_seen[i]))
            return i;
    return -1;
}

/* A monster card revealed from a hidden place must be a non-Prime monster
 * of the lineup not yet seen (openlog 6, announced mode; 8.3). */
static int monster_revealed(judge *j, int p, const card *c, const char *what)
{
    snap_side *sd = P(j->s, p);
    int i = lineup_index(sd, c, 1);
    if (c->kind != CARD_MONSTER || i < 0)
        return ILLEGAL(j, "snap:8.3", "%s reveals %s, which is not a Monster of %s's lineup still unseen.", what,
                       c->name, who(j->s, p));
    SET(j->s, sd->lineup_seen[i], 1);
    SET(j->s, sd->revealed, sd->revealed + 1);
    return 0;
}

static void finish_setup(snap_state *s)
{
    if (!(P(s, 0)->benched && P(s, 1)->benched && P(s, 0)->selected && P(s, 1)->selected))
        return;
    SET(s, s->setup_done, 1);
    begin_turn(s, 0);
    /* A4: both active slots are empty, so R4 applies at once. */
    need_promotion(s, 0);
    need_promotion(s, 1);
}

static void do_bench_setup(judge *j, int p)
{
    snap_state *s = j->s;
    snap_side *sd = P(s, p);
    if (sd->benched) {
        ILLEGAL(j, "snap:8.3", "%s has already placed their Bench.", who(s, p));
        return;
    }
    /* 8.3: "Four (4) non-Prime Monsters are placed face-down on the Bench."
     * 18.6 "fewer face-down Bench Monsters at setup": with bench_facedown N
     * the slots from N on are placed face-up, so they are named in public
     * (A29). */
    for (int i = 0; i < SNAP_BENCH; i++) {
        snap_monster *m = &sd->bench[i];
        int face_up = i >= s->bench_facedown;
        NOTE(s, m, sizeof *m);
        if (face_up && j->o.ev->slots[i].kind != OL_HREF_CARD) {
            ILLEGAL(j, "snap:18.6", "%s's Bench slot %d starts face-up in this variant (bench_facedown %u): its "
                    "card is named, not hidden.", who(s, p), i, s->bench_facedown);
            return;
        }
        if (face_up) {
            if (!(m->id.card = cards_find(s->ol.db, j->o.ev->slots[i].card))) {
                ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", j->o.ev->slots[i].card);
                return;
            }
        } else if (take_href(j, &j->o.ev->slots[i], &m->id, "The Bench")) {
            return;
        }
        if (m->id.card && (m->id.card->kind != CARD_MONSTER || lineup_index(sd, m->id.card, 0) < 0)) {
            ILLEGAL(j, "snap:8.3", "%s places %s on the Bench; only the non-Prime Monsters of the lineup start "
                    "there.", who(s, p), m->id.card->name);
            return;
        }
        for (int k = 0; k < i; k++)
            if (m->id.card && sd->bench[k].id.card == m->id.card) {
                ILLEGAL(j, "snap:8.3", "%s places %s on the Bench twice.", who(s, p), m->id.card->name);
                return;
            }
        m->present = 1;
        if (face_up) {
            m->face_up = 1;
            m->stack[0] = m->id.card;
            m->depth = 1;
            SET(s, sd->lineup_seen[lineup_index(sd, m->id.card, 0)], 1);
            SET(s, sd->revealed, sd->revealed + 1);   /* R10: ever face-up */
        }
    }
    /* R1: without a Prime Singular the fifth base monster waits off the field. */
    if (!sd->prime) {
        SET(s, sd->fifth_waiting, 1);
        for (int i = 0; s->ol.hidden == OL_HIDDEN_OPEN && i < SNAP_LINEUP; i++) {
            int used = 0;
            for (int k = 0; k < SNAP_BENCH; k++)
                used |= sd->bench[k].id.card == sd->lineup[i];
            if (!used && sd->lineup[i])
                SET(s, sd->fifth.card, sd->lineup[i]);
        }
    }
    SET(s, sd->benched, 1);
    finish_setup(s);
}

static void do_bench_fifth(judge *j, int p)
{
    snap_state *s = j->s;
    snap_side *sd = P(s, p);
    openlog_card h;
    /* R1: "when its controller's first promotion empties a Bench slot, it is
     * placed face-down there" */
    if (!sd->fifth_due) {
        ILLEGAL(j, "snap:R1", "%s has no fifth monster waiting to be placed now.", who(s, p));
        return;
    }
    if (j->o.ev->slot == OL_SLOT_ACTIVE || sd->bench[j->o.ev->slot].present) {
        if (j->o.ev->slot == OL_SLOT_ACTIVE)
            ILLEGAL(j, "snap:R1", "%s placed the fifth monster in the active slot; it waits face-down for an empty "
                    "Bench slot.", who(s, p));
        else
            ILLEGAL(j, "snap:R1", "%s placed the fifth monster in Bench slot %d, which is not empty; it goes to the "
                    "slot the promotion emptied.", who(s, p), j->o.ev->slot);
        return;
    }
    if (take_href(j, &j->o.ev->card, &h, "The fifth monster"))
        return;
    if (sd->fifth.card && h.card && h.card != sd->fifth.card) {
        ILLEGAL(j, "snap:R1", "%s places %s, but the lineup's fifth monster is %s.", who(s, p), h.card->name,
                sd->fifth.card->name);
        return;
    }
    snap_monster *m = &sd->bench[j->o.ev->slot];
    NOTE(s, m, sizeof *m);
    memset(m, 0, sizeof *m);
    m->present = 1;
    m->id = h;
    SET(s, sd->fifth_waiting, 0);
    SET(s, sd->fifth_due, 0);
    /* snap R4: "Whenever a player's active slot is empty and they control a
     * Bench monster, that player must promote one" -- the fifth monster may
     * come to a field whose last monster has just fallen (R5). */
    need_promotion(s, p);
}

static void do_bench(judge *j)
{
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A bench is announced by the player who makes it.");
        return;
    }
    if (j->o.ev->has_slots)
        do_bench_setup(j, p);
    else
        do_bench_fifth(j, p);
}

static void do_select(judge *j)
{
    snap_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A selection is announced by the player who makes it.");
        return;
    }
    snap_side *sd = P(s, p);
    size_t want;
    if (!sd->selected) {
        /* snap A24: "bench (8.3) before select (8.5)" for each player */
        if (!sd->benched) {
            ILLEGAL(j, "snap:A24", "%s selects Support cards before placing their Bench; setup places the Bench "
                    "first.", who(s, p));
            return;
        }
        /* 8.5: "Player 1 selects five (5) ... Player 2 selects six (6)" */
        want = s->hand_size[p];
        if (j->o.ev->n_cards != want) {
            ILLEGAL(j, "snap:8.5", "%s selects %zu Support cards at setup; they select exactly %zu.", who(s, p),
                    j->o.ev->n_cards, want);
            return;
        }
    } else if (sd->select_due) {
        /* snap A8: "its controller chooses that many cards from their Support
         * Deck (all of them, when fewer remain)" -- select_due is already the
         * smaller of the two */
        want = sd->select_due;
        if (j->o.ev->n_cards != want) {
            ILLEGAL(j, "snap:A8", "%s selects %zu cards; the effect gives them exactly %zu from their Support Deck.",
                    who(s, p), j->o.ev->n_cards, want);
            return;
        }
    } else if (sd->prevent.draw) {
        /* snap A8: a selection is a draw, and "draw prevention (9.8) stops it" */
        ILLEGAL(j, "snap:9.8", "%s selects Support cards while an effect prevents them from drawing, which "
                "stops selecting.", who(s, p));
        return;
    } else {
        /* 9.1: "Support cards are never drawn randomly" -- nor selected freely */
        ILLEGAL(j, "snap:9.1", "%s selects Support cards without an effect that lets them.", who(s, p));
        return;
    }
    for (size_t i = 0; i < j->o.ev->n_cards; i++) {
        openlog_card h;
        if (take_href(j, &j->o.ev->cards[i], &h, "A selected card") || take_support(j, p, &h, "The selection") ||
            add_to_hand(j, p, &h))
            return;
    }
    if (!sd->selected) {
        SET(s, sd->selected, 1);
        finish_setup(s);
    } else {
        SET(s, sd->select_due, 0);
    }
}

/* ---- the turn's steps ------------------------------------------------ */

static void do_unlock(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_UNLOCK, "an unlock");
    if (p < 0)
        return;
    snap_side *sd = P(s, p);
    if (s->round == 1 && !(p == 0 && s->p1_round1_unlock)) {
        ILLEGAL(j, "snap:8.6", "%s unlocked a Support in Round 1; no player unlocks in the first round.", who(s, p));
        return;
    }
    if (in_freeze(s)) {
        /* 9.4: "No Locked Supports may be unlocked." */
        ILLEGAL(j, "snap:9.4", "%s unlocked a Support in Round %u; no Support may be unlocked during the Lock "
                "Freeze.", who(s, p), s->round);
        return;
    }
    if (sd->prevent.unlock || sd->prevent.draw) {
        ILLEGAL(j, "snap:9.8", "%s unlocked a Support while an effect prevents unlocking.", who(s, p));
        return;
    }
    if (s->step > STEP_UNLOCK || s->unlocks_done >= s->unlocks_per_turn) {
        ILLEGAL(j, "snap:10.2", "%s unlocked a Support outside the Unlock Step; it comes once, at the start of "
                "the turn.", who(s, p));
        return;
    }
    if (j->o.ev->lock >= sd->n_locked) {
        if (sd->n_locked)
            ILLEGAL(j, "snap:9.6", "%s unlocked Locked Support %u, which does not exist: they hold %u, numbered 0 to %u "
                    "in lock order.", who(s, p), j->o.ev->lock, sd->n_locked, sd->n_locked - 1u);
        else
            ILLEGAL(j, "snap:9.6", "%s unlocked a Support, but holds no Locked Support.", who(s, p));
        return;
    }
    const card *c = NULL;
    openlog_card *h = &sd->locked[j->o.ev->lock];
    if (reveal(j, h, j->o.ev->card.card, j->o.ev->nonce, "The unlocked Support", &c))
        return;
    if (!h->card && support_revealed(j, p, c, "The unlock"))
        return;
    openlog_card known = {.card = c};
    NOTE(s, h, (size_t)(sd->n_locked - j->o.ev->lock) * sizeof *h);
    memmove(h, h + 1, (size_t)(sd->n_locked - j->o.ev->lock - 1) * sizeof *h);
    SET(s, sd->n_locked, sd->n_locked - 1);
    if (add_to_hand(j, p, &known))
        return;
    SET(s, s->unlocks_done, s->unlocks_done + 1);
}

static void do_flip(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_FLIP, "a flip");
    if (p < 0 || steps_done(j, p, STEP_FLIP, "a flip"))
        return;
    if (s->flipped) {
        /* 10.3: "they must flip exactly one of them face-up" */
        ILLEGAL(j, "snap:10.3", "%s flipped a second monster this turn; the Flip Step flips exactly one.", who(s, p));
        return;
    }
    if (!j->o.ev->has_slot) {
        /* the codec reads a flip without a slot when it names a time (a
         * classic Snap flip, SPEC.md 7.6); a Snap flip names its slot */
        ILLEGAL(j, "openlog:7", "%s flipped without naming the Bench slot; a Snap flip names its slot.", who(s, p));
        return;
    }
    snap_monster *m = monster_at(s, p, j->o.ev->slot);
    if (j->o.ev->slot == OL_SLOT_ACTIVE || !m->present || m->face_up) {
        ILLEGAL(j, "snap:10.3", "%s flipped slot %d, which holds no face-down Bench monster.", who(s, p), j->o.ev->slot);
        return;
    }
    const card *c = NULL;
    if (reveal(j, &m->id, j->o.ev->card.card, j->o.ev->nonce, "The flipped monster", &c) ||
        monster_revealed(j, p, c, "The flip"))
        return;
    SET(s, m->face_up, 1);
    SET(s, m->stack[0], c);
    SET(s, m->depth, 1);
    SET(s, s->flipped, 1);
    SET(s, s->step, STEP_FLIP);
    fire(s, p, j->o.ev->slot, c, TRIG_ON_REVEAL);   /* 12.1 [on reveal] */
}

static void do_promote(judge *j)
{
    snap_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A promotion is announced by the player who makes it.");
        return;
    }
    snap_side *sd = P(s, p);
    if (!sd->promote_due) {
        ILLEGAL(j, "snap:R4", "%s promoted a monster, but their active slot is not empty.", who(s, p));
        return;
    }
    /* snap A4: "p1, then p2, promotes one Bench monster, flipping it as it
     * is promoted, before the first turn of Round 1" -- p1's [on entry]
     * triggers may aim at p2's active monster, so the order matters. */
    if (p == 1 && P(s, 0)->promote_due && s->round == 1 && s->turn == 0 && s->step == STEP_UNLOCK) {
        ILLEGAL(j, "snap:A4", "%s promoted before p1; at the start of the game p1 promotes first, then p2.",
                who(s, p));
        return;
    }
    snap_monster *m = monster_at(s, p, j->o.ev->slot);
    if (j->o.ev->slot == OL_SLOT_ACTIVE || !m->present) {
        ILLEGAL(j, "snap:R4", "%s promoted from slot %d, which holds no Bench monster.", who(s, p), j->o.ev->slot);
        return;
    }
    /* R4: "A face-up Bench Monster is chosen if there is one" */
    if (!m->face_up) {
        for (int i = 0; i < SNAP_BENCH; i++)
            if (sd->bench[i].present && sd->bench[i].face_up) {
                ILLEGAL(j, "snap:R4", "%s promoted a face-down monster while a face-up one is on the Bench.",
                        who(s, p));
                return;
            }
        const card *c = NULL;
        if (j->o.ev->card.kind == OL_HREF_ABSENT) {
            ILLEGAL(j, "openlog:7", "A promoted face-down monster is revealed: the event must name its card.");
            return;
        }
        if (reveal(j, &m->id, j->o.ev->card.card, j->o.ev->nonce, "The promoted monster", &c) ||
            monster_revealed(j, p, c, "The promotion"))
            return;
        SET(s, m->face_up, 1);
        SET(s, m->stack[0], c);
        SET(s, m->depth, 1);
    }
    SET(s, sd->active, *m);
    NOTE(s, m, sizeof *m);
    memset(m, 0, sizeof *m);
    SET(s, sd->promote_due, 0);
    if (sd->fifth_waiting)
        SET(s, sd->fifth_due, 1);
    /* R4: "it fires [on entry], not [on reveal]" */
    fire(s, p, OL_SLOT_ACTIVE, top(&sd->active), TRIG_ON_ENTRY);
}

static void do_trigger(judge *j)
{
    snap_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev), at = -1;
    for (int i = 0; i < s->n_fired && at < 0; i++) {
        const snap_fired *f = &s->fired[i];
        if ((int)ev->source.p == f->player && ev->source.slot == f->slot && ev->ability == f->ability)
            at = i;
    }
    if (at < 0) {
        char where[32];
        slot_name(where, sizeof where, ev->source.slot);
        ILLEGAL(j, "snap:10.4", "%s announced Trigger ability %u of %s's monster in %s, but no such Trigger has "
                "fired.", ol_by_name(ev->by), ev->ability, ol_player_name(ev->source.p), where);
        return;
    }
    snap_fired f = s->fired[at];
    if (p != f.player) {
        ILLEGAL(j, "snap:R11", "A Trigger is announced by the player who controls its monster.");
        return;
    }
    const snap_trigger *tr = &f.card->snap.triggers[f.ability];
    uint8_t skip = 0;
    if (check_targets(j, tr->effects, tr->n_effects, ev->targets, ev->n_targets, p, f.card->name, 1, &skip))
        return;
    NOTE(s, &s->fired[at], (size_t)(s->n_fired - at) * sizeof s->fired[0]);
    memmove(&s->fired[at], &s->fired[at + 1], (size_t)(s->n_fired - at - 1) * sizeof s->fired[0]);
    SET(s, s->n_fired, s->n_fired - 1);
    NOTE(s, &s->trig, sizeof s->trig);
    memset(&s->trig, 0, sizeof s->trig);
    s->trig.seq = ev->seq;
    s->trig.player = (uint8_t)p;
    s->trig.ability = f.ability;
    s->trig.source = ev->source;
    s->trig.card = f.card;
    s->trig.skip = skip;
    s->trig.n_targets = (uint8_t)(ev->n_targets < CARD_MAX_EFFECTS ? ev->n_targets : CARD_MAX_EFFECTS);
    memcpy(s->trig.targets, ev->targets, s->trig.n_targets * sizeof(ol_ref));
    open_window(s, WIN_RESONANCE);   /* A3 */
}

static int push_link(judge *j, int p, const card *c, int is_spell)
{
    snap_state *s = j->s;
    if (s->n_chain >= SNAP_CHAIN_MAX)
        return ILLEGAL(j, "snap:15.3", "The chain already holds the most links arbiter can follow.");
    NOTE(s, &s->chain[s->n_chain], sizeof s->chain[0]);
    NOTE(s, &s->n_chain, sizeof s->n_chain);
    chain_link_set(&s->chain[s->n_chain++], j->o.ev, p, c, is_spell);
    return 0;
}

static void do_spell(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_SPELL, "a Spell");
    if (p < 0 || steps_done(j, p, STEP_SPELL, "a Spell"))
        return;
    const card *c = cards_find(s->ol.db, j->o.ev->card.card);
    if (c && c->kind != CARD_SPELL) {
        ILLEGAL(j, "snap:6.2", "%s played %s as a Spell, but it is a %s.", who(s, p), c->name, card_kind_name(c->kind));
        return;
    }
    /* 6.2: "you may play a Spell only if you control a face-up Monster of the same class" */
    if (c && !controls_class(P(s, p), c->cls)) {
        ILLEGAL(j, "snap:6.2", "%s played %s, %s %s Spell, without controlling a face-up %s Monster.", who(s, p),
                c->name, class_article(c->cls), class_title(c->cls), class_title(c->cls));
        return;
    }
    if (from_hand(j, p, j->o.ev->card.card, j->o.ev->nonce, "The Spell", &c) ||
        check_targets(j, c->snap.effects, c->snap.n_effects, j->o.ev->targets, j->o.ev->n_targets, p, c->name, 0, NULL) ||
        push_link(j, p, c, 1))
        return;
    SET(s, s->step, STEP_SPELL);
    open_window(s, WIN_COUNTER);   /* 10.5: "After each Spell is played, the opponent may respond" */
}

/* snap A36: does the card act on the attack in progress -- the attack
 * itself (fizzle, redirect), its attacker or its target? */
static int acts_on_attack(const card *c)
{
    for (int i = 0; i < c->snap.n_effects; i++) {
        const card_effect *e = &c->snap.effects[i];
        if (e->op == FX_FIZZLE || e->op == FX_REDIRECT || e->target == TGT_ATTACKER || e->target == TGT_DEFENDER)
            return 1;
    }
    return 0;
}

/* snap A35: "an attack's target is always a monster of the defending
 * player" -- a redirect may not name one of the attacking player's. */
static int redirect_fits(judge *j, const card *c, int p)
{
    snap_state *s = j->s;
    size_t k = 0;
    for (int i = 0; i < c->snap.n_effects && k < j->o.ev->n_targets; i++) {
        const card_effect *e = &c->snap.effects[i];
        if (!fx_target_is_chosen(e->target))
            continue;
        const ol_ref *r = &j->o.ev->targets[k++];
        if (e->op == FX_REDIRECT && (int)r->p == s->turn)
            return ILLEGAL(j, "snap:A35", "%s played %s to aim the attack at a monster of %s, the attacking player; "
                           "an attack's target is always a monster of the defending player.", who(s, p), c->name,
                           who(s, s->turn));
    }
    return 0;
}

static void do_counter(judge *j)
{
    snap_state *s = j->s;
    int p = player_of(j->o.ev);
    const card *c = cards_find(s->ol.db, j->o.ev->card.card);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A Counter is announced by the player who plays it.");
        return;
    }
    /* 15.2: "Counters may not be played outside these windows" */
    if (s->window == WIN_NONE) {
        ILLEGAL(j, "snap:15.2", "%s played a Counter with no Spell, attack or Trigger to respond to.", who(s, p));
        return;
    }
    /* 10.8.3: "After the Blocker window: Both players may play Counter cards."
     * -- inside it only the defending player acts (10.8.2, 15.7) */
    if (s->window == WIN_BLOCKER && p == s->turn) {
        ILLEGAL(j, "snap:10.8.3", "%s played a Counter in the Blocker Window of their own attack; the attacker's "
                "Counters come after it, once the defender has blocked, passed or countered.", who(s, p));
        return;
    }
    /* R3: "p1 may play no Counter during Round 1 (either turn)" */
    if (s->round == 1 && p == 0) {
        ILLEGAL(j, "snap:R3", "%s played a Counter in Round 1; Player 1 plays no Counters in the first round.",
                who(s, p));
        return;
    }
    if (c && c->kind != CARD_COUNTER) {
        ILLEGAL(j, "snap:6.3", "%s played %s as a Counter, but it is a %s.", who(s, p), c->name,
                card_kind_name(c->kind));
        return;
    }
    if (c && !controls_class(P(s, p), c->cls)) {
        ILLEGAL(j, "snap:6.3", "%s played %s, %s %s Counter, without controlling a face-up %s Monster.", who(s, p),
                c->name, class_article(c->cls), class_title(c->cls), class_title(c->cls));
        return;
    }
    /* snap A20: "A Resonance Counter starts no chain: nothing may answer it" */
    if (s->window == WIN_RESONANCE && s->trig.negated) {
        ILLEGAL(j, "snap:A20", "%s played %s after a Resonance Counter; it answered a Trigger, which does not use "
                "the chain, so no Counter may answer it.", who(s, p), c ? c->name : "a Counter");
        return;
    }
    /* A3: in a Trigger's window only a Resonance Counter that targets it */
    if (s->window == WIN_RESONANCE && c && !(c->snap.keywords & KW_RESONANCE)) {
        ILLEGAL(j, "snap:15.5", "%s played %s against a Trigger; only a Counter with Resonance may answer one.",
                who(s, p), c->name);
        return;
    }
    /* 10.5: "After each Spell is played, the opponent may respond with Counters" (A19) */
    if (own_spell_alone(s, p)) {
        ILLEGAL(j, "snap:10.5", "%s countered their own Spell; the opponent answers a Spell first.", who(s, p));
        return;
    }
    /* snap A36: "a Counter whose effect concerns an attack ... may be played
     * only while an attack is in progress" */
    if (c && acts_on_attack(c) && !s->attack_on) {
        ILLEGAL(j, "snap:A36", "%s played %s, which acts on an attack, while no attack is in progress.", who(s, p),
                c->name);
        return;
    }
    /* 15.3: "Each player may contribute up to three (3) Counter cards to a single chain." */
    if (s->chain_count[p] >= s->chain_cap) {
        ILLEGAL(j, "snap:15.3", "%s played a Counter beyond the chain cap of %u per player.", who(s, p), s->chain_cap);
        return;
    }
    if (from_hand(j, p, j->o.ev->card.card, j->o.ev->nonce, "The Counter", &c) ||
        check_targets(j, c->snap.effects, c->snap.n_effects, j->o.ev->targets, j->o.ev->n_targets, p, c->name, 0, NULL) ||
        redirect_fits(j, c, p))
        return;
    if (s->window == WIN_RESONANCE) {
        /* the Resonance Counter resolves at once against the Trigger */
        fx_ctx x = {p, -1, 0, s->attack_on};
        apply_effects(s, &x, c->snap.effects, c->snap.n_effects, j->o.ev->targets, j->o.ev->n_targets, 0);
        to_grave(s, p, c);
        return;
    }
    if (push_link(j, p, c, 0))
        return;
    SET(s, s->chain_count[p], s->chain_count[p] + 1);
    /* 10.8.3: the Counter Window follows the Blocker Window -- the
     * defender's Counter declines the block; A33: the passes start again */
    open_window(s, WIN_COUNTER);
}

static void do_evolve(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_EVOLVE, "an Evolution");
    if (p < 0)
        return;
    /* snap A2: an Evolution may also come "in the Attack Phase between
     * attacks" -- one has ended and another may still be declared
     * (Overdrive) -- and ends the Attack Phase.  No attack is in progress:
     * the evolve closed its window by arriving (A26), and its end was the
     * attack's (end_attack), which leaves the Attack Phase only while
     * another attack may be declared. */
    int in_attack = s->step == STEP_ATTACK && s->attacks_made > 0;
    snap_side *sd = P(s, p);
    /* 13.3: "A player may perform at most one Evolution per turn, globally." */
    if (s->evolved &&
        BREAK(j, "snap:13.3", "%s performed a second Evolution this turn; only one is allowed per turn.", who(s, p)))
        return;
    if (!in_attack && steps_done(j, p, STEP_EVOLVE, "an Evolution"))
        return;
    snap_monster *m = monster_at(s, p, j->o.ev->slot);
    if (!m->present || !m->face_up) {
        /* 13.1: "Face-down Monsters cannot be evolved." */
        ILLEGAL(j, "snap:13.1", "%s evolved the monster in slot %d, which is not a face-up monster.", who(s, p),
                j->o.ev->slot);
        return;
    }
    const card *c = cards_find(s->ol.db, j->o.ev->card.card);
    int r = -1;
    for (int i = 0; c && i < sd->n_reserve && r < 0; i++)
        if (sd->reserve[i] == c && !sd->reserve_used[i])
            r = i;
    if (r < 0) {
        ILLEGAL(j, "snap:13.2", "%s evolved with %s, which is not waiting unused in their Monster Reserve.", who(s, p),
                c ? c->name : j->o.ev->card.card);
        return;
    }
    /* 13.1: "the exact next Evolution stage for that Monster" */
    if (cards_next_stage(s->ol.db, top(m)) != c || m->depth >= 3) {
        ILLEGAL(j, "snap:13.1", "%s cannot evolve %s into %s: it is not that monster's exact next stage.", who(s, p),
                top(m)->name, c->name);
        return;
    }
    SET(s, m->stack[m->depth], c);
    SET(s, m->depth, m->depth + 1);
    SET(s, sd->reserve_used[r], 1);
    SET(s, s->evolved, 1);
    /* 13.5: "the active player may not declare attacks for the remainder of that turn" */
    SET(s, s->step, in_attack ? STEP_SWAP : STEP_PRIME);
    fire(s, p, j->o.ev->slot, c, TRIG_ON_ENTRY);   /* A1 */
}

static int condition_met(const snap_state *s, int p, card_condition c)
{
    switch (c.kind) {
    case COND_NONE: return 1;
    case COND_OWN_DEFEATED_MIN: return s->side[p].lost >= c.amount;
    case COND_OPP_DEFEATED_MIN: return s->side[1 - p].lost >= c.amount;
    case COND_OWN_FIELD_MAX: {
        int n = s->side[p].active.present;
        for (int i = 0; i < SNAP_BENCH; i++)
            n += s->side[p].bench[i].present;
        return n <= c.amount;
    }
    default: return 0;
    }
}

static void do_prime(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_PRIME, "a Prime Singular");
    if (p < 0 || steps_done(j, p, STEP_PRIME, "a Prime Singular"))
        return;
    snap_side *sd = P(s, p);
    const card *c = cards_find(s->ol.db, j->o.ev->card.card);
    if (!c || c != sd->prime || sd->lineup_seen[lineup_index(sd, c, 0)]) {
        ILLEGAL(j, "snap:14.2", "%s played %s, which is not a Prime Singular waiting in their Monster Reserve.",
                who(s, p), c ? c->name : j->o.ev->card.card);
        return;
    }
    /* 14.3: "At least four (4) of the player's Monsters have been revealed or played" */
    if (sd->revealed < 4 &&
        BREAK(j, "snap:14.3", "%s played %s with %u Monsters revealed; a Prime Singular needs at least four.",
              who(s, p), c->name, sd->revealed))
        return;
    if (!condition_met(s, p, c->snap.condition) &&
        BREAK(j, "snap:14.3", "%s played %s, but its printed activation condition (%s %d) is not met.", who(s, p),
              c->name, cond_kind_name(c->snap.condition.kind), c->snap.condition.amount))
        return;
    /* R4 keeps the active slot filled whenever a Bench monster exists, and
     * a player with neither has lost (R5): there is always one to replace. */
    /* 14.4: "It replaces the player's active Monster ... sent to the Graveyard" */
    stack_to_grave(s, p, &sd->active);
    NOTE(s, &sd->active, sizeof sd->active);
    memset(&sd->active, 0, sizeof sd->active);
    sd->active.present = sd->active.face_up = 1;
    sd->active.id.card = c;
    sd->active.stack[0] = c;
    sd->active.depth = 1;
    SET(s, sd->lineup_seen[lineup_index(sd, c, 0)], 1);
    SET(s, sd->revealed, sd->revealed + 1);
    SET(s, s->step, STEP_ATTACK);
    fire(s, p, OL_SLOT_ACTIVE, c, TRIG_ON_ENTRY);
}

static void do_attack(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_ATTACK, "an attack");
    snap_monster *att = &P(s, p < 0 ? 0 : p)->active;
    /* 11.7 / 12.5: Overdrive grants "one additional attack"; active-only (12.7) */
    uint8_t allowed = att->present && (top(att)->snap.keywords & KW_OVERDRIVE) ? 2 : 1;
    /* 10.8.1: "The active Monster may declare one attack." */
    if (p >= 0 && s->attacks_made >= allowed &&
        BREAK(j, s->attacks_made >= 2 ? "snap:11.7" : "snap:10.8.1", "%s declared attack %u this turn; %s may declare %u.",
              who(s, p), s->attacks_made + 1u, att->present ? top(att)->name : "their active monster", allowed))
        return;
    /* A14: Overdrive's additional attack belongs to the monster that made the first */
    if (p >= 0 && s->attacks_made && att->present && top(att) != s->attacker &&
        BREAK(j, "snap:A14",
              "%s declared a second attack with %s; only %s, which made the first attack, may "
              "make Overdrive's additional attack.",
              who(s, p), top(att)->name, s->attacker ? s->attacker->name : "the first attacker"))
        return;
    /* 13.5: "the active player may not declare attacks for the remainder of that turn" */
    if (p >= 0 && s->evolved &&
        BREAK(j, "snap:13.5",
              "%s declared an attack after an Evolution this turn; an Evolution ends that turn's "
              "attacks.",
              who(s, p)))
        return;
    if (p < 0 || steps_done(j, p, STEP_ATTACK, "an attack"))
        return;
    /* 8.6 / R8: "Neither player attacks in Round 1" */
    if (s->round == 1 && !s->round1_attacks &&
        BREAK(j, "snap:8.6", "%s declared an attack in Round 1; no player attacks in the first round.", who(s, p)))
        return;
    if (!att->present) {
        ILLEGAL(j, "snap:10.8.1", "%s declared an attack with no active monster.", who(s, p));
        return;
    }
    const ol_ref *t = &j->o.ev->target;
    snap_monster *def = (int)t->p == p ? NULL : monster_at(s, t->p, t->slot);
    if (!def || !def->present) {
        ILLEGAL(j, "snap:10.8.1", "%s attacked a slot that holds no monster of the opponent.", who(s, p));
        return;
    }
    /* 12.4: "A Monster with Disruptor may attack a face-up Bench Monster" -- only one with Disruptor */
    if (t->slot != OL_SLOT_ACTIVE && !(top(att)->snap.keywords & KW_DISRUPTOR) &&
        BREAK(j, "snap:12.4",
              "%s attacked a Bench monster with %s, which has no Disruptor; only a Disruptor "
              "may attack the Bench.",
              who(s, p), top(att)->name))
        return;
    /* 10.8.1: "If the attacking Monster has Disruptor, it may instead target a face-up Bench Monster." */
    if (t->slot != OL_SLOT_ACTIVE && !def->face_up) {
        ILLEGAL(j, "snap:10.8.1", "%s attacked %s's face-down monster in Bench slot %d with %s; a Disruptor may "
                "target only a face-up Bench monster.", who(s, p), who(s, t->p), t->slot, top(att)->name);
        return;
    }
    SET(s, s->attacks_allowed, allowed);
    SET(s, s->attacker, top(att));
    SET(s, s->attacks_made, s->attacks_made + 1);
    SET(s, s->attack_on, 1);
    SET(s, s->attack_target, *t);
    SET(s, s->blocked, 0);
    SET(s, s->step, STEP_ATTACK);
    open_window(s, WIN_BLOCKER);   /* 10.8.2 */
}

static void do_block(judge *j)
{
    snap_state *s = j->s;
    int p = player_of(j->o.ev);
    if (s->window != WIN_BLOCKER || p != OTHER(s->turn)) {
        /* 12.2: "Blocker may be used only during the Blocker Window." */
        ILLEGAL(j, "snap:12.2", "A Blocker may be assigned only by the defending player, in the Blocker Window right after an attack.");
        return;
    }
    snap_monster *m = monster_at(s, p, j->o.ev->slot);
    /* A16: the attack's own target cannot be its Blocker */
    if (s->attack_target.slot == j->o.ev->slot) {   /* the attack aims at the defender (10.8.1) */
        ILLEGAL(j, "snap:A16", "%s assigned the attacked monster itself as the Blocker; a Blocker intercepts an "
                "attack aimed at another monster.", who(s, p));
        return;
    }
    if (j->o.ev->slot == OL_SLOT_ACTIVE || !m->present || !m->face_up || !(top(m)->snap.keywords & KW_BLOCKER)) {
        ILLEGAL(j, "snap:12.2", "%s assigned slot %d as a Blocker; it must be a face-up Bench monster with Blocker.",
                who(s, p), j->o.ev->slot);
        return;
    }
    SET(s, s->attack_target, ((ol_ref){.kind = OL_REF_MONSTER, .p = (ol_player)p, .slot = j->o.ev->slot}));
    SET(s, s->blocked, 1);
    open_window(s, WIN_COUNTER);   /* 10.8.3 */
}

static void do_swap(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_SWAP, "a Swap");
    if (p < 0 || steps_done(j, p, STEP_SWAP, "a Swap"))
        return;
    snap_side *sd = P(s, p);
    /* 10.9 / R9: "Once per game, the active player may perform a Swap." */
    if (sd->swaps_used >= s->swaps_per_game) {
        ILLEGAL(j, "snap:R9", "%s swapped again; the Swap Phase swap is once per game per player.", who(s, p));
        return;
    }
    snap_monster *m = monster_at(s, p, j->o.ev->slot);
    if (j->o.ev->slot == OL_SLOT_ACTIVE || !m->present || !m->face_up || !sd->active.present) {
        ILLEGAL(j, "snap:10.9", "%s swapped with slot %d; the active monster is exchanged with a face-up Bench "
                "monster.", who(s, p), j->o.ev->slot);
        return;
    }
    SET(s, sd->swaps_used, sd->swaps_used + 1);
    SET(s, s->step, STEP_LOCK);
    swap_in(s, p, j->o.ev->slot);
}

static void do_lock(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_LOCK, "a lock");
    if (p < 0 || steps_done(j, p, STEP_LOCK, "a lock"))
        return;
    snap_side *sd = P(s, p);
    size_t n = j->o.ev->n_cards;
    int opening = s->round == 1;
    if (s->locked_this_turn) {
        ILLEGAL(j, "snap:10.10", "%s locked a second time this turn; the Lock-in Phase comes once.", who(s, p));
        return;
    }
    if (opening && p == 0 && !s->p1_opening_lock) {
        ILLEGAL(j, "snap:8.6", "%s locked Supports in Round 1; with p1_opening_lock off, Player 1 does not lock in "
                "the first round.", who(s, p));
        return;
    }
    if (in_freeze(s)) {
        /* 9.4: "No additional Support cards may be locked." */
        ILLEGAL(j, "snap:9.4", "%s locked a Support in Round %u; no Support may be locked during the Lock Freeze "
                "(Rounds 2-3).", who(s, p), s->round);
        return;
    }
    if (sd->prevent.lock || sd->prevent.draw) {
        ILLEGAL(j, "snap:9.8", "%s locked a Support while an effect prevents locking.", who(s, p));
        return;
    }
    /* 9.3: "up to three (3) Support cards"; 9.5: "exactly one (1)" */
    if (opening ? n > 3 : n != 1) {
        ILLEGAL(j, opening ? "snap:9.3" : "snap:9.5", "%s locked %zu Supports; the %s locks %s.", who(s, p), n,
                opening ? "Opening Lock-in" : "Standard Lock-in", opening ? "up to three" : "exactly one");
        return;
    }
    /* 9.7: "A player may never have more than three (3) Locked Supports" */
    if (sd->n_locked + n > SNAP_LOCK_MAX) {
        ILLEGAL(j, "snap:9.7", "%s would hold %zu Locked Supports; no player may have more than three.", who(s, p),
                sd->n_locked + n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        openlog_card h;
        if (take_href(j, &j->o.ev->cards[i], &h, "A locked card") || take_support(j, p, &h, "The lock"))
            return;
        SET(s, sd->locked[sd->n_locked], h);
        SET(s, sd->n_locked, sd->n_locked + 1);
    }
    SET(s, s->locked_this_turn, 1);
    SET(s, s->step, STEP_LOCK);
}

/* Does the active player owe a Standard Lock-in (9.5: "must ... if permitted")? */
static int lock_owed(const snap_state *s)
{
    const snap_side *sd = &s->side[s->turn];
    return s->round >= 2u + s->freeze_rounds && !s->locked_this_turn && !sd->prevent.lock && !sd->prevent.draw &&
           sd->n_locked < SNAP_LOCK_MAX && sd->support_taken < SNAP_SUPPORTS;
}

static void do_end(judge *j)
{
    snap_state *s = j->s;
    int p = active_player(j, STEP_END, "the end of the turn");
    if (p < 0 || steps_done(j, p, STEP_END, "the end of the turn"))
        return;
    if (lock_owed(s)) {
        ILLEGAL(j, "snap:9.5", "%s ended the turn without locking a Support; from Round %u on, exactly one is "
                "locked at the end of each turn.", who(s, p), 2u + s->freeze_rounds);
        return;
    }
    snap_side *sd = P(s, p);
    NOTE(s, &sd->prevent, sizeof sd->prevent);
    memset(&sd->prevent, 0, sizeof sd->prevent);   /* A28: "and ends when that turn ends" */
    expire_modifiers(s);   /* R7: "or the end of the turn" */
    if (p == 1)
        SET(s, s->round, s->round + 1);
    begin_turn(s, OTHER(p));
}

static void do_concede(judge *j)
{
    if (!openlog_concede(&j->o))
        SET(j->s, j->s->step, STEP_OVER);
}

static void do_judge(judge *j)
{
    /* snap 16.4: "Judges have final authority" -- openlog.c checks that the
     * judge announced it; A7: a game loss ends the game. */
    if (!openlog_ruling(&j->o) && j->s->ol.over)
        SET(j->s, j->s->step, STEP_OVER);
}

/* A5: a claim is compared, never applied. */
static void do_claim(judge *j)
{
    openlog_claim(&j->o, "snap:A5", "Bench slot");
}

/* snap A33: a logged pass.  Outside a window it passes nothing (R6: "pass
 * may be logged"); the defender's pass declines the block and opens the
 * Counter Window; a Counter or Resonance Window closes once every player
 * who may answer in it has passed since its last Counter. */
static void do_pass(judge *j)
{
    snap_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A pass is announced by the player who passes.");
        return;
    }
    /* snap A33: "Outside any window a pass passes nothing and changes nothing." */
    if (s->window == WIN_NONE)
        return;
    if (s->window == WIN_BLOCKER) {
        /* 10.8.3: "After the Blocker window: Both players may play Counter cards." */
        if (p == s->turn) {
            ILLEGAL(j, "snap:10.8.3", "%s passed in the Blocker Window of their own attack; only the defending "
                    "player acts there, and the attacker answers in the Counter Window after it.", who(s, p));
            return;
        }
        /* snap A33: "A `pass` by the defending player closes the Blocker Window" */
        open_window(s, WIN_COUNTER);
        return;
    }
    /* snap A33: "A pass by a player who may not act in that window is illegal" */
    const char *bar = answer_barred(s, p);
    if (bar) {
        ILLEGAL(j, bar, "%s passed %s.", who(s, p),
                !strcmp(bar, "snap:R3")    ? "in a window of Round 1, where Player 1 may play no Counter and so has "
                                             "nothing to pass"
                : !strcmp(bar, "snap:A20") ? "after a Resonance Counter answered the Trigger, whose window allows "
                                             "nothing more"
                                           : "on their own Spell, which only the opponent may answer first");
        return;
    }
    /* snap A33: "a pass by each player who may answer there, in a row with no
     * Counter between, closes the window and its chain or trigger resolves" */
    SET(s, s->passed, (uint8_t)(s->passed | (1u << p)));
    for (int q = 0; q < 2; q++)
        if (!answer_barred(s, q) && !(s->passed & (1u << q)))
            return;
    close_window(s);
}

static void do_header_again(judge *j)
{
    ILLEGAL(j, "openlog:4", "A match has one header, at seq 0.");
}

typedef void (*handler)(judge *j);

/* One handler per event type (openlog 7); the table is the dispatcher. */
static const handler handlers[OL_TYPE_COUNT] = {
    [OL_MATCH] = do_header_again, [OL_BENCH] = do_bench,     [OL_SELECT] = do_select,
    [OL_UNLOCK] = do_unlock,      [OL_FLIP] = do_flip,       [OL_PROMOTE] = do_promote,
    [OL_TRIGGER] = do_trigger,    [OL_SPELL] = do_spell,     [OL_COUNTER] = do_counter,
    [OL_PASS] = do_pass,          [OL_EVOLVE] = do_evolve,   [OL_PRIME] = do_prime,
    [OL_ATTACK] = do_attack,      [OL_BLOCK] = do_block,     [OL_SWAP] = do_swap,
    [OL_LOCK] = do_lock,          [OL_END] = do_end,         [OL_CONCEDE] = do_concede,
    [OL_CLAIM] = do_claim,        [OL_JUDGE] = do_judge,
};

/* What must happen before anything else: R11 triggers, R4 promotions,
 * 9.1 selections.  judge, claim and concede are never held up. */
static int check_obligations(judge *j)
{
    snap_state *s = j->s;
    ol_type t = j->o.ev->type;
    if (t == OL_JUDGE || t == OL_CLAIM || t == OL_CONCEDE || t == OL_MATCH)
        return 0;
    if (s->n_fired && t != OL_TRIGGER && !(t == OL_COUNTER && s->window == WIN_RESONANCE))
        /* R11: "An action that arrives while a fired trigger is unannounced is illegal" */
        return ILLEGAL(j, "snap:10.4", "%s's %s Trigger has fired and must be announced before any other action.",
                       who(s, s->fired[0].player), s->fired[0].card->name);
    int by = player_of(j->o.ev);
    int promoting = t == OL_PROMOTE && by >= 0 && P(s, by)->promote_due;
    for (int p = 0; p < 2; p++)
        if (P(s, p)->promote_due && !promoting && t != OL_TRIGGER)
            return ILLEGAL(j, "snap:R4", "%s's active slot is empty: they must promote a Bench monster before any "
                           "other action.", who(s, p));
    for (int p = 0; p < 2; p++)
        if (P(s, p)->select_due && !(t == OL_SELECT && player_of(j->o.ev) == p) && t != OL_TRIGGER && t != OL_PROMOTE)
            return ILLEGAL(j, "snap:9.1", "%s must first select the %u Support card%s an effect gave them.", who(s, p),
                           P(s, p)->select_due, P(s, p)->select_due == 1 ? "" : "s");
    if (!s->setup_done && t != OL_BENCH && t != OL_SELECT)
        return ILLEGAL(j, "snap:8", "Setup is not complete: both players bench four monsters (8.3) and select "
                       "their Supports (8.5) first.");
    return 0;
}

/* SPEC.md 7: the codec reads slots 0-6 for every format, and an attack on
 * a player; Snap has the active slot and Bench slots 0-3 (snap 7.1, 7.2)
 * and attacks monsters only (10.8.1).  NULL, or what does not fit. */
static const char *foreign_place(const olevent *ev)
{
    const ol_ref *lists[3] = {ev->targets, ev->defeated, &ev->source};
    size_t sizes[3] = {ev->n_targets, ev->n_defeated, ev->type == OL_TRIGGER};
    if (ev->has_slot && ev->slot >= SNAP_BENCH)
        return "a slot number above 3";
    if (ev->type == OL_ATTACK && ev->target.kind != OL_REF_MONSTER)
        return "an attack on a player";
    if (ev->type == OL_ATTACK && ev->target.slot >= SNAP_BENCH)
        return "a slot number above 3";
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < sizes[l]; i++)
            if (lists[l][i].kind == OL_REF_MONSTER && lists[l][i].slot >= SNAP_BENCH)
                return "a slot number above 3";
    return NULL;
}

void snap_apply(snap_state *s, const olevent *ev, olverdict *v)
{
    olverdict_set(v, ev->match, ev->seq, OL_V_OK, NULL, NULL);
    /* snap 3.4: "the game ends immediately" -- nothing
     * follows the end but `judge` and `claim` (openlog 8, A27). */
    if (openlog_over(&s->ol, ev, v, s->setup_done || s->ol.winner >= 0 ? "snap:3.4" : "snap:8.1",
                     s->setup_done || s->ol.winner >= 0 ? "The game is over; no action may follow its end."
                                                        : "The match cannot start: a deck in its header is illegal."))
        return;
    const char *foreign = foreign_place(ev);
    if (foreign) {
        /* openlog 7: the Snap page; such an event is no Snap action, and
         * closes no window (it was malformed before the codec served
         * Advanced and Master too). */
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:7",
                      "The event names %s; a Snap field has the active slot and Bench slots 0 to 3, and attacks "
                      "aim at monsters.", foreign);
        return;
    }
    close_windows(s, ev);   /* A26: by arriving, whatever the event's fate */
    if (openlog_over(&s->ol, ev, v, "snap:3.4", "The game ended when the last window resolved; no action may "
                     "follow its end."))
        return;
    /* R12: an illegal event changes nothing.  The handlers judge in place
     * and note each write in an undo log first (SET, NOTE: verifiers/undo.h),
     * which puts the bytes back when the event fails -- a legal event, the
     * usual case, costs the bytes it changes, not a copy of the state.
     * `spare` is touched only if the log overflows (or in a checking build). */
    snap_state spare;
    undo_log u;
    undo_begin(&u, s, sizeof *s, &spare, UNDO_JOURNAL, "snap");
    UNDO_SET(&u, s->ol.undo, &u);
    judge j = {{&s->ol, ev, v, 0}, s};
    if (!check_obligations(&j))
        handlers[ev->type](&j);
    s->ol.undo = NULL;
    undo_end(&u, j.o.failed);
    /* snap 16.1: "Players have up to 30 seconds for any defined decision window" (A6:
     * measured between consecutive events that carry `t`). */
    openlog_clock(&s->ol, ev, v, 30000, "snap:16.1");
}

static int unknown(const openlog_card *h)
{
    return !h->card;
}

void snap_unverifiable(const snap_state *s, snap_unverified out[2])
{
    for (int p = 0; p < 2; p++) {
        const snap_side *sd = &s->side[p];
        memset(&out[p], 0, sizeof out[p]);
        for (int i = 0; i < SNAP_BENCH; i++)
            out[p].bench += sd->bench[i].present && !sd->bench[i].face_up && unknown(&sd->bench[i].id);
        for (int i = 0; i < sd->n_hand; i++)
            out[p].hand += unknown(&sd->hand[i]);
        for (int i = 0; i < sd->n_locked; i++)
            out[p].locked += unknown(&sd->locked[i]);
        out[p].fifth = sd->fifth_waiting && unknown(&sd->fifth);
        out[p].grave = sd->buried;
    }
}

int snap_check_invariants(const snap_state *s)
{
    for (int p = 0; p < 2; p++) {
        const snap_side *sd = &s->side[p];
        if (sd->active.present && !sd->active.face_up)
            return 1;   /* 7.1: "The active Monster is always face-up." */
        if (sd->n_locked > SNAP_LOCK_MAX)
            return 2;   /* 9.7 */
        if (s->chain_count[p] > s->chain_cap)
            return 3;   /* 15.3 */
        if (sd->lost > SNAP_LINEUP)
            return 4;
        /* the boards draw a face-up monster from the top of its stack */
        if (sd->active.present && sd->active.face_up && !sd->active.depth)
            return 5;
        for (int i = 0; i < SNAP_BENCH; i++)
            if (sd->bench[i].present && sd->bench[i].face_up && !sd->bench[i].depth)
                return 5;
    }
    /* a Resonance window answers a Trigger whose card is known */
    if (s->window == WIN_RESONANCE && !s->trig.card)
        return 6;
    return 0;
}

/* R6: "windows close by silence" -- the end of the log is the last silence,
 * so an open window closes and what waits in it resolves (ruling A31). */
void snap_silence(snap_state *s)
{
    if (!s->ol.over && s->setup_done)
        close_window(s);
}

/* ---- the engine behind verifier.h ---------------------------------------------- */

static int snap_has_type(ol_type t)
{
    return (unsigned)t < OL_TYPE_COUNT && handlers[t] != NULL;
}

VERIFIER_OPS_ADAPTERS(snap_state, snap_start, snap_apply, snap_silence, snap_board_json, snap_board_words,
                      snap_encode)

static int ops_finished(const void *st, int *winner)
{
    const snap_state *s = st;
    if (winner)
        *winner = s->ol.over ? s->ol.winner : -1;
    /* TR 247 (TOURNAMENT.md T7): "A player voluntarily concedes defeat at
     * any point during the game." -- a concession, or a judge's game loss
     * (A7), in setup ends a game with a winner; snap 8.1: "If a deck is
     * illegal, it must be corrected before play begins." -- a refused
     * header (over, no winner) started none. */
    return s->ol.over && (s->setup_done || s->ol.winner >= 0);
}

static unsigned ops_round(const void *st)
{
    const snap_state *s = st;
    return s->setup_done ? s->round : 0;
}

/* T4 of TOURNAMENT.md: the opponent's monsters defeated, of five. */
static void ops_score(const void *st, int64_t out[OL_PLAYERS_MAX], int64_t *base)
{
    const snap_state *s = st;
    for (int p = 0; p < 2; p++)
        out[p] = s->side[!p].lost;
    *base = SNAP_LINEUP;
}

static void ops_unverified(const void *st, unsigned out[OL_PLAYERS_MAX])
{
    snap_unverified u[2];
    snap_unverifiable(st, u);
    for (int p = 0; p < 2; p++)
        out[p] = (unsigned)u[p].bench + u[p].hand + u[p].locked + u[p].fifth + u[p].grave;
}

/* A bench's face-down slots (all four at setup but those the
 * bench_facedown lever puts face-up, snap 18.6, A29; later the fifth
 * monster, R1), a selection's and a lock-in's cards: their owner's. */
static size_t snap_hidden(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX])
{
    int owner = openlog_player_of(ev);
    switch (ev->type) {
    case OL_BENCH:
        out[0] = (verifier_hidden_field){"slots", 1, header ? (size_t)ol_header_lever(&header->header, "bench_facedown", 4) : 4,
                                   owner};
        out[1] = (verifier_hidden_field){"card", 0, 0, owner};
        return 2;
    case OL_SELECT:
    case OL_LOCK:
        out[0] = (verifier_hidden_field){"cards", 1, SIZE_MAX, owner};
        return 1;
    default:
        return 0;
    }
}

const verifier_ops snap_verifier_ops = {
    .format = OL_FORMAT_SNAP,
    .title = "Snap",
    .deck = &snap_deck,
    .cards = &snap_cards,
    /* TOURNAMENT.md T4: a Snap game score is the opponent's monsters
     * defeated, out of 5 */
    .tournament = 1,
    .score_base = 5,
    .engine = SNAP_ENGINE,
    .state_size = sizeof(snap_state),
    .players_min = 2,
    .players_max = 2,
    .has_type = snap_has_type,
    .rules = snap_rules,
    .start = ops_start,
    .apply = ops_apply,
    .log_ended = ops_log_ended,
    .finished = ops_finished,
    .round = ops_round,
    .unverified = ops_unverified,
    .score = ops_score,
    .board_json = ops_board_json,
    .board_words = ops_board_words,
    .encode = ops_encode,
    .hidden = snap_hidden,
};
