/* advanced.c -- the Advanced rules engine (advanced.h draws its state machine).
 *
 * What: advanced_apply() judges one open-log event of an Advanced match
 * against advanced.md and RULINGS.md and either applies it (ok, warning)
 * or leaves the game as it was (illegal, mismatch), with a verdict citing
 * the rule (ids of verifiers/advanced/rules.c) in one sentence.
 *
 * How: as the Snap engine does.  First the window this event closes by
 * silence resolves (A7): its chain last-in first-out, then an attack's
 * damage.  Then the obligations that come before anything else (the
 * opening selection, the Selection Step, an effect's selection).  Then the
 * event's own handler, from the table at the bottom.  Hidden cards, the end
 * of the game, claims and the shot clock are verifiers/openlog.c's.  Each
 * check quotes the line of advanced.md (or the ruling) it enforces.
 */
#include <stdarg.h>
#include <string.h>

#include "verifiers/advanced/advanced.h"
#include "verifiers/advanced/rules.h"
#include "verifiers/deck.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

#define P(s, i) (&(s)->side[(i)])
#define OTHER(p) (1 - (p))

typedef struct {
    openlog_judgement o;
    advanced_state *s;
} judge;

#define ILLEGAL(j, rule, ...) OPENLOG_ILLEGAL(&(j)->o, (rule), __VA_ARGS__)

static const char *who(const advanced_state *s, int p)
{
    return openlog_who(&s->ol, p);
}

static int player_of(const olevent *ev)
{
    return openlog_player_of(ev);
}

/* The card on top of a monster's stack.  m holds a monster: every caller
 * found it present (monster_at, or a check of `present`), and a present
 * monster's stack holds at least its base card. */
static const card *top(const adv_monster *m)
{
    return m->stack[m->depth - 1];
}

static int32_t atk_of(const adv_monster *m)
{
    int32_t v = top(m)->advanced.atk + m->atk_mod;
    return v > 0 ? v : 0;
}

static int32_t def_of(const adv_monster *m)
{
    int32_t v = top(m)->advanced.def + m->def_mod;
    return v > 0 ? v : 0;
}

/* The monster at (p, slot), or NULL when the slot is not one of the match's
 * Monster Zones or holds none. */
static adv_monster *monster_at(advanced_state *s, int p, int slot)
{
    if ((unsigned)slot >= s->zones)   /* a negative slot is none of them */
        return NULL;
    adv_monster *m = &P(s, p)->zone[slot];
    return m->present ? m : NULL;
}

static int monsters_of(const advanced_state *s, int p)
{
    int n = 0;
    for (int i = 0; i < s->zones; i++)
        n += s->side[p].zone[i].present;
    return n;
}

static const char *an(const char *word)
{
    return strchr("AEIOUaeiou", word[0]) ? "an" : "a";
}

/* "a Spell", "an Evolution", "a Prime Singular": a card's kind in words. */
static void kind_words(const card *c, char *out, size_t cap)
{
    static const char *const names[] = {"Monster", "Spell", "Counter", "Evolution", "Prime Evolution",
                                        "Prime Singular"};
    _Static_assert(sizeof names / sizeof names[0] == CARD_KIND_COUNT, "a name for every card kind");
    const char *n = names[c->kind];   /* the database loads no other kind */
    olverdict_format(out, cap, "%s %s", an(n), n);
}

/* ---- setup ------------------------------------------------------------ */

static void set_levers(advanced_state *s, const ol_header *h)
{
    s->starting_lp = (uint32_t)ol_header_lever(h, "starting_lp", 6000);
    s->zones = (uint8_t)ol_header_lever(h, "monster_zones", 7);
    s->hand_limit = (uint8_t)ol_header_lever(h, "hand_limit", 9);
    s->selection_rate = (uint8_t)ol_header_lever(h, "selection_rate", 1);
    s->chain_cap = (uint8_t)ol_header_lever(h, "chain_cap", 3);
}

void advanced_start(advanced_state *s, const cards *db, const olevent *header, olverdict *v)
{
    const ol_header *h = &header->header;
    memset(s, 0, sizeof *s);
    openlog_start(&s->ol, db, h);
    set_levers(s, h);
    for (int p = 0; p < 2; p++) {
        adv_side *sd = P(s, p);
        const ol_idlist *main = &h->players[p].deck.main;
        for (size_t i = 0; i < main->n && sd->n_deck < ADV_DECK_MAX; i++)
            sd->deck[sd->n_deck++] = cards_find(db, main->ids[i]);
        sd->deck_left = sd->n_deck;
        /* advanced.md: "Starting LP: 6000 per player" (the starting_lp lever) */
        sd->lp = (int32_t)s->starting_lp;
    }
    /* A header whose deck is illegal starts no match (SPEC.md 5). */
    for (int p = 0; p < 2; p++) {
        deck_violation dv;
        size_t n = 0;
        deck_check(FORMAT_ADVANCED, db, &h->players[p].deck, p ? "p2" : "p1", &dv, 1, &n);
        if (n) {
            olverdict_set(v, header->match, header->seq, OL_V_ILLEGAL, dv.rule, "%s", dv.msg);
            olverdict_format(s->refused, sizeof s->refused, "%s", dv.rule);
            openlog_end(&s->ol, -1);
            s->step = ADV_OVER;
            return;
        }
    }
    s->step = ADV_SETUP;
    olverdict_set(v, header->match, header->seq, OL_V_OK, NULL, NULL);
}

/* ---- the deck and the hand (openlog.md 6) ------------------------------- */

/* Take the revealed card `id` out of p's hand: it must be there (known,
 * committed, or -- announced mode -- a card the decklist still holds). */
static int from_hand(judge *j, int p, const char *id, const char *nonce, const char *what, const card **out)
{
    advanced_state *s = j->s;
    adv_side *sd = P(s, p);
    const card *c = cards_find(s->ol.db, id);
    int at;
    if (!c)
        return ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", id);
    /* advanced.md: "Spells and Counters are played from hand" -- and so
     * is every card that enters play (summon, evolve, prime, discard). */
    if ((at = openlog_zone_find(sd->hand, sd->n_hand, c, nonce)) < 0) {
        if (s->ol.hidden == OL_HIDDEN_COMMIT)
            return ILLEGAL(j, "openlog:commit", "%s %s, which matches no card committed to %s's hand.", what,
                           c->name, who(s, p));
        return ILLEGAL(j, "advanced:field.from_hand", "%s %s, which is not in %s's hand.", what, c->name,
                       who(s, p));
    }
    /* openlog 6: "at reveal checks that the card could have been there
     * (in the decklist, not already used)". */
    if (!sd->hand[at].card && openlog_deck_take(&j->o, sd->deck, sd->deck_used, sd->n_deck, c, p, what, "decklist"))
        return -1;
    memmove(&sd->hand[at], &sd->hand[at + 1], (size_t)(sd->n_hand - at - 1) * sizeof sd->hand[0]);
    sd->n_hand--;
    *out = c;
    return 0;
}

static void to_grave(adv_side *sd, const card *c)
{
    if (sd->n_grave < ADV_GRAVE_MAX)
        sd->grave[sd->n_grave++] = c;
}

/* ---- the game's end and the board ----------------------------------------- */

static void game_over(advanced_state *s, int winner)
{
    openlog_end(&s->ol, winner);
    s->step = ADV_OVER;
    s->window = ADV_WIN_NONE;
    s->attack_on = 0;
}

/* A player loses Life Points; at 0 the game ends at once (A6).  Never
 * called once the game is over: apply_effects and resolve_chain stop at
 * the end, close_window fights no combat after it, and a combat or an
 * effect takes Life Points once. */
static void lose_lp(advanced_state *s, int p, int32_t amount)
{
    if (amount <= 0)
        return;
    adv_side *sd = P(s, p);
    sd->lp = sd->lp > amount ? sd->lp - amount : 0;
    /* advanced.md: "A player wins immediately if their opponent’s LP
     * reaches 0." */
    if (!sd->lp)
        game_over(s, OTHER(p));
}

/* The monster at (p, slot) is destroyed: its whole stack to the Graveyard
 * (evolve.graveyard), a defeat a claim may name (A15).  The slot holds a
 * monster: the callers found it there with monster_at(). */
static void destroy(advanced_state *s, int p, int slot)
{
    adv_monster *m = &P(s, p)->zone[slot];
    for (int i = 0; i < m->depth; i++)
        to_grave(P(s, p), m->stack[i]);
    memset(m, 0, sizeof *m);
    P(s, p)->lost++;
    openlog_defeated(&s->ol, p, slot);
    if (s->attack_on && (int)s->turn == p && s->attacker == slot)
        s->attack_on = 0;
}

/* ---- targets (openlog 7: one reference per chosen target, in order) ------- */

static int chain_has(const advanced_state *s, uint64_t seq)
{
    for (int i = 0; i < s->n_chain; i++)
        if (s->chain[i].seq == seq)
            return 1;
    return 0;
}

/* Does reference r fit selector t for the card's controller p? */
static int target_fits(judge *j, fx_target t, const ol_ref *r, int p, const char *what)
{
    advanced_state *s = j->s;
    switch (t) {
    case TGT_OWN_MONSTER:
    case TGT_OPP_MONSTER:
    case TGT_MONSTER: {
        int want = t == TGT_OWN_MONSTER ? p : t == TGT_OPP_MONSTER ? OTHER(p) : -1;
        if (r->kind != OL_REF_MONSTER || !monster_at(s, r->p, r->slot) || (want >= 0 && (int)r->p != want))
            return ILLEGAL(j, "openlog:7", "%s must target %s monster on the field%s.", what,
                           want < 0 ? "a" : want == p ? "one of its player's" : "an opponent's",
                           r->kind == OL_REF_MONSTER ? ", and that slot holds none that fits" : "");
        return 0;
    }
    case TGT_CHAIN_LINK:
        if (r->kind != OL_REF_SEQ || !chain_has(s, r->seq))
            return ILLEGAL(j, "openlog:7", "%s must target a Spell or Counter on the chain, by its seq.", what);
        return 0;
    case TGT_PLAYER:
        if (r->kind != OL_REF_PLAYER)
            return ILLEGAL(j, "openlog:7", "%s must target a player.", what);
        return 0;
    default:
        return 0;
    }
}

/* Could any reference fit chosen selector t for player p now? */
static int has_candidate(const advanced_state *s, fx_target t, int p)
{
    switch (t) {
    case TGT_OWN_MONSTER: return monsters_of(s, p) > 0;
    case TGT_OPP_MONSTER: return monsters_of(s, OTHER(p)) > 0;
    case TGT_MONSTER: return monsters_of(s, 0) + monsters_of(s, 1) > 0;
    case TGT_CHAIN_LINK: return s->n_chain > 0;
    default: return 1;
    }
}

/* Which of the card's effects choose a target now: bit i for effect i.  A
 * chosen selector with no candidate at all is left out (A27). */
static unsigned choosing(const advanced_state *s, const card_effect *fx, int n_fx, int p)
{
    unsigned mask = 0;
    for (int i = 0; i < n_fx; i++)
        if (fx_target_is_chosen(fx[i].target) && has_candidate(s, fx[i].target, p))
            mask |= 1u << i;
    return mask;
}

/* The event's targets against the card's effects: one chosen reference per
 * effect that chooses, in order (openlog 7, A27). */
static int check_targets(judge *j, const card_effect *fx, int n_fx, int p, const char *what)
{
    const olevent *ev = j->o.ev;
    unsigned mask = choosing(j->s, fx, n_fx, p);
    size_t want = 0, left_out = 0;
    for (int i = 0; i < n_fx; i++) {
        want += (mask >> i) & 1u;
        left_out += fx_target_is_chosen(fx[i].target) && !((mask >> i) & 1u);
    }
    if (ev->n_targets != want)
        return ILLEGAL(j, left_out ? "advanced:A27" : "openlog:7", "%s names %zu target%s; its effects choose %zu%s.",
                       what, ev->n_targets, ev->n_targets == 1 ? "" : "s", want,
                       left_out ? ", since an effect with nothing to choose from names no target" : "");
    for (int i = 0, k = 0; i < n_fx; i++)
        if (((mask >> i) & 1u) && target_fits(j, fx[i].target, &ev->targets[k++], p, what))
            return -1;
    return 0;
}

/* ---- effects (the card database's Advanced primitives) --------------------- */

static adv_monster *effect_monster(advanced_state *s, fx_target t, const ol_ref *chosen, int *owner, int *slot)
{
    if (t == TGT_ATTACKER || t == TGT_DEFENDER) {
        if (!s->attack_on)
            return NULL;
        if (t == TGT_ATTACKER) {
            *owner = s->turn;
            *slot = s->attacker;
        } else {
            if (s->attack_target.kind != OL_REF_MONSTER)
                return NULL;
            *owner = s->attack_target.p;
            *slot = s->attack_target.slot;
        }
    } else {
        /* a chosen monster selector's reference is a monster's
         * (target_fits); the database gives these ops no other chosen one */
        if (!chosen)
            return NULL;
        *owner = chosen->p;
        *slot = chosen->slot;
    }
    return monster_at(s, *owner, *slot);
}

/* Apply card c's effects for controller p; `refs` are the chosen targets,
 * one for each effect whose bit is set in `chose` (A27).  A target gone
 * since the card was played is skipped (its effect does nothing).  Stops
 * when the game ends (A6). */
static void apply_effects(advanced_state *s, int p, const card_effect *fx, int n, const ol_ref *refs, int n_refs,
                          unsigned chose)
{
    int k = 0;
    for (int i = 0; i < n && !s->ol.over; i++) {
        const ol_ref *chosen = ((chose >> i) & 1u) && k < n_refs ? &refs[k++] : NULL;
        int owner = 0, slot = 0;
        int target_player = fx[i].target == TGT_OPPONENT ? OTHER(p)
                          : fx[i].target == TGT_PLAYER && chosen ? (int)chosen->p : p;
        adv_monster *m;
        switch (fx[i].op) {
        case FX_ATK:
            if ((m = effect_monster(s, fx[i].target, chosen, &owner, &slot)))
                m->atk_mod += fx[i].amount;
            break;
        case FX_DEF:
            if ((m = effect_monster(s, fx[i].target, chosen, &owner, &slot)))
                m->def_mod += fx[i].amount;
            break;
        case FX_POSITION:
            /* A13: an effect's switch is not the Position Step's. */
            if ((m = effect_monster(s, fx[i].target, chosen, &owner, &slot)))
                m->pos = m->pos == OL_POS_AP ? OL_POS_DP : OL_POS_AP;
            break;
        case FX_DESTROY:
            if (effect_monster(s, fx[i].target, chosen, &owner, &slot))
                destroy(s, owner, slot);
            break;
        case FX_NEGATE:
            for (int l = 0; chosen && l < s->n_chain; l++)
                if (s->chain[l].seq == chosen->seq)
                    s->chain[l].negated = 1;
            break;
        case FX_FIZZLE:
            if (s->attack_on)
                s->fizzled = 1;
            break;
        case FX_LP_DAMAGE: lose_lp(s, target_player, fx[i].amount); break;
        case FX_LP_GAIN: P(s, target_player)->lp += fx[i].amount; break;
        case FX_PREVENT_DRAW: P(s, target_player)->prevent_next = 1; break;   /* A14 */
        case FX_SELECT: P(s, target_player)->select_due += (uint8_t)fx[i].amount; break;   /* A11 */
        default: break;   /* not an Advanced primitive: the database refuses it */
        }
    }
}

static int effects_of(const card *c, const card_effect **fx)
{
    *fx = c->advanced.effects;
    return c->advanced.n_effects;
}

/* ---- windows and combat (A2, A7) ------------------------------------------ */

/* May p answer (counter or pass) in the window now open?  In a Spell's
 * window or a lone Counter's only the opponent of the active player does
 * (counter.timing: "during the opponent’s turn"); in an attack's, both. */
static int may_answer(const advanced_state *s, int p)
{
    return s->window == ADV_WIN_ATTACK || p != s->turn;
}

static void end_attack(advanced_state *s)
{
    s->attack_on = 0;
    s->fizzled = 0;
}

/* advanced.md, Combat Resolution.  The attacker must still be there and in
 * Attack Position, the attack not fizzled (A16, A17). */
static void resolve_combat(advanced_state *s)
{
    int a = s->turn, d = OTHER(a);
    adv_monster *att = monster_at(s, a, s->attacker);
    if (!s->attack_on || s->fizzled || !att || att->pos != OL_POS_AP) {
        end_attack(s);
        return;
    }
    if (s->attack_target.kind == OL_REF_PLAYER) {
        /* advanced.md: "Direct attacks: ... LP damage = attacker’s ATK." */
        lose_lp(s, d, atk_of(att));
        end_attack(s);
        return;
    }
    int ds = s->attack_target.slot;
    adv_monster *def = monster_at(s, d, ds);
    if (!def) {
        end_attack(s);   /* A17: the target is gone: no damage */
        return;
    }
    int32_t atk = atk_of(att);
    if (def->pos == OL_POS_AP) {
        int32_t other = atk_of(def);
        /* advanced.md: "Higher ATK destroys lower; difference dealt as LP
         * damage." -- to the lower monster's controller (A5).
         * "Equal ATK = both destroyed, no damage." */
        if (atk > other) {
            destroy(s, d, ds);
            lose_lp(s, d, atk - other);
        } else if (atk < other) {
            destroy(s, a, s->attacker);
            lose_lp(s, a, other - atk);
        } else {
            destroy(s, d, ds);
            destroy(s, a, s->attacker);
        }
    } else if (atk > def_of(def)) {
        /* advanced.md: "ATK > DEF: defender destroyed, no LP damage (unless
         * Pierce)." -- no Pierce in the base release (A5); "ATK = DEF: no
         * destruction."  "ATK < DEF: no destruction, no damage." */
        destroy(s, d, ds);
    }
    end_attack(s);
}

/* The chain resolves last-in first-out (chain.lifo); a negated link does
 * nothing. */
static void resolve_chain(advanced_state *s)
{
    while (s->n_chain && !s->ol.over) {
        adv_link *l = &s->chain[--s->n_chain];
        const card_effect *fx;
        int n = effects_of(l->card, &fx);
        if (!l->negated)
            apply_effects(s, l->player, fx, n, l->targets, l->n_targets, l->chose);
        to_grave(P(s, l->player), l->card);   /* A19: no Spell stays */
    }
    s->n_chain = 0;
    s->chain_count[0] = s->chain_count[1] = 0;
}

static void close_window(advanced_state *s)
{
    adv_window w = s->window;
    if (w == ADV_WIN_NONE)
        return;
    s->window = ADV_WIN_NONE;
    s->passed = 0;
    resolve_chain(s);
    if (w == ADV_WIN_ATTACK && !s->ol.over)
        resolve_combat(s);
}

/* A7: an event that does not answer the window closes it by arriving. */
static void close_by_silence(advanced_state *s, const olevent *ev)
{
    ol_type t = ev->type;
    if (s->window == ADV_WIN_NONE || t == OL_COUNTER || t == OL_PASS || t == OL_CLAIM || t == OL_JUDGE)
        return;
    close_window(s);
}

/* ---- the turn ----------------------------------------------------------------- */

static void begin_turn(advanced_state *s, int p)
{
    adv_side *sd = P(s, p);
    s->turns++;
    s->turn = (uint8_t)p;
    s->normal_summoned = s->evolved = 0;
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < ADV_ZONES_MAX; i++) {
            adv_monster *m = &P(s, q)->zone[i];
            m->switched = m->attacked = m->evolved = m->prime_entered = 0;
        }
    sd->prevent = sd->prevent_next;
    sd->prevent_next = 0;
    /* select.first_turn: "Player 1 does not select a card on their very
     * first turn."; select.prevented; win.no_deck_out: "if you cannot
     * select a card, the game continues". */
    s->step = s->turns == 1 || sd->prevent || !sd->deck_left ? ADV_MAIN : ADV_SELECT;
}

/* The step names, for sentences and the board. */
static const char *const step_names[] = {"setup", "Selection Step", "Main Phase", "Position Step",
                                         "Evolution Step", "Attack Phase", "End Phase", "game over"};

/* An action of `step` by the active player: the turn's steps go forward
 * only (turn.order).  Moves the turn to that step. */
static int in_step(judge *j, adv_step step, const char *what)
{
    advanced_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p != s->turn)
        return ILLEGAL(j, "advanced:turn.order", "%s %s in %s's turn; only the active player acts in their turn's "
                       "steps.", who(s, p), what, who(s, s->turn));
    /* advanced.md: "The sequence of play follows these steps" */
    if (s->step > step)
        return ILLEGAL(j, "advanced:turn.order", "%s %s in the %s; the %s comes before it and has passed.",
                       who(s, p), what, step_names[s->step], step_names[step]);
    s->step = step;
    return 0;
}

/* ---- the handlers -------------------------------------------------------------- */

static void do_header_again(judge *j)
{
    ILLEGAL(j, "openlog:4", "A match has one header, at seq 0.");
}

/* The opening hand: Player 1 selects 5 cards, Player 2 selects 6. */
static void select_opening(judge *j, int p)
{
    advanced_state *s = j->s;
    static const uint8_t size[2] = {5, 6};
    if (P(s, p)->opened) {
        ILLEGAL(j, "advanced:select.opening", "%s has already selected their opening hand.", who(s, p));
        return;
    }
    /* advanced.md: "Player 1: selects 5 cards. Player 2: selects 6 cards." */
    if (j->o.ev->n_cards != size[p]) {
        ILLEGAL(j, "advanced:select.opening", "%s selected %zu card%s for their opening hand; Player %d selects %u.",
                who(s, p), j->o.ev->n_cards, j->o.ev->n_cards == 1 ? "" : "s", p + 1, size[p]);
        return;
    }
    P(s, p)->opened = 1;
}

static int take_selection(judge *j, int p)
{
    advanced_state *s = j->s;
    adv_side *sd = P(s, p);
    const olevent *ev = j->o.ev;
    for (size_t i = 0; i < ev->n_cards; i++) {
        openlog_card h;
        char what[48];
        olverdict_format(what, sizeof what, "%s's card %zu", who(s, p), i + 1);
        if (openlog_take_href(&j->o, &ev->cards[i], &h, what))
            return -1;
        /* open mode names the card: the decklist must still hold it */
        olverdict_format(what, sizeof what, "%s selected", who(s, p));
        if (h.card && openlog_deck_take(&j->o, sd->deck, sd->deck_used, sd->n_deck, h.card, p, what, "decklist"))
            return -1;
        /* n_cards <= deck_left (do_select): the hand never outgrows the deck */
        sd->hand[sd->n_hand++] = h;
    }
    sd->deck_left = (uint8_t)(sd->deck_left - ev->n_cards);
    return 0;
}

static void do_select(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    adv_side *sd;
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A selection is announced by the player who selects.");
        return;
    }
    sd = P(s, p);
    if (ev->n_cards > sd->deck_left) {
        ILLEGAL(j, "advanced:win.no_deck_out", "%s selected %zu card%s; their deck holds %u.", who(s, p), ev->n_cards,
                ev->n_cards == 1 ? "" : "s", sd->deck_left);
        return;
    }
    if (!s->setup_done) {
        select_opening(j, p);
    } else if (sd->select_due) {
        /* A11: an effect's selection, `amount` cards (fewer only when the
         * deck holds fewer). */
        unsigned want = sd->select_due < sd->deck_left ? sd->select_due : sd->deck_left;
        if (ev->n_cards != want) {
            ILLEGAL(j, "advanced:select.per_turn", "%s selected %zu card%s; the effect lets them select %u.", who(s, p),
                    ev->n_cards, ev->n_cards == 1 ? "" : "s", want);
            return;
        }
        sd->select_due = 0;
    } else if (p == s->turn && s->step == ADV_SELECT) {
        /* advanced.md: "you choose 1 card from your deck" -- the
         * selection_rate lever; fewer only when the deck holds fewer. */
        unsigned want = s->selection_rate < sd->deck_left ? s->selection_rate : sd->deck_left;
        if (ev->n_cards != want) {
            ILLEGAL(j, "advanced:select.per_turn", "%s selected %zu card%s in their Selection Step; they select %u.",
                    who(s, p), ev->n_cards, ev->n_cards == 1 ? "" : "s", want);
            return;
        }
        s->step = ADV_MAIN;
    } else if (p == s->turn && s->turns == 1) {
        ILLEGAL(j, "advanced:select.first_turn", "%s selected a card in their very first turn; Player 1 does not.",
                who(s, p));
        return;
    } else if (p == s->turn && sd->prevent) {
        ILLEGAL(j, "advanced:select.prevented", "%s selected a card, but an effect prevents their selection this turn.",
                who(s, p));
        return;
    } else {
        ILLEGAL(j, "advanced:select.per_turn", "%s selected a card outside a Selection Step, with no effect letting "
                "them select.", who(s, p));
        return;
    }
    if (j->o.failed || take_selection(j, p))
        return;
    if (!s->setup_done && P(s, 0)->opened && P(s, 1)->opened) {
        s->setup_done = 1;
        begin_turn(s, 0);
    }
}

static int controls_class(const advanced_state *s, int p, card_class cls)
{
    for (int i = 0; i < s->zones; i++) {
        const adv_monster *m = &s->side[p].zone[i];
        if (m->present && top(m)->cls == cls)
            return 1;
    }
    return 0;
}

static const char *class_title(card_class c)
{
    static const char *const t[] = {"Coreon", "Fluxion", "Synaphera", "Obscura", "Aetherion"};
    _Static_assert(sizeof t / sizeof t[0] == CLASS_COUNT, "a title for every class");
    return t[c];   /* the database loads no other class */
}

static void do_summon(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, ADV_MAIN, "summoned a monster"))
        return;
    /* advanced.md: "any number of Special Summons, provided card effects
     * allow it." -- no effect of the base card database does (A20). */
    if (ev->kind == OL_SUMMON_SPECIAL) {
        ILLEGAL(j, "advanced:summon.special", "%s made a Special Summon, but no effect allows one.", who(s, p));
        return;
    }
    /* advanced.md: "the active player may also perform one Normal Summon" */
    if (s->normal_summoned) {
        ILLEGAL(j, "advanced:summon.normal", "%s made a second Normal Summon this turn; one is allowed per turn.",
                who(s, p));
        return;
    }
    /* advanced.md: "Monster Zone: up to 7 monsters may be controlled simultaneously." */
    if ((unsigned)ev->slot >= s->zones || P(s, p)->zone[ev->slot].present) {
        ILLEGAL(j, "advanced:field.limit", "%s summoned into slot %d, which is not a free slot of their %u Monster "
                "Zones.", who(s, p), ev->slot, s->zones);
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The summon reveals", &c))
        return;
    if (c->kind != CARD_MONSTER) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "advanced:summon.normal", "%s summoned %s, %s; a Normal Summon places a Monster card.", who(s, p),
                c->name, kind);
        return;
    }
    adv_monster *m = &P(s, p)->zone[ev->slot];
    memset(m, 0, sizeof *m);
    m->present = 1;
    m->pos = (uint8_t)ev->position;   /* A1: face-up, in the position announced */
    m->stack[0] = c;
    m->depth = 1;
    s->normal_summoned = 1;
}

static void do_spell(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    const card_effect *fx;
    /* advanced.md: "Played during your own turn." -- in the Main Phase */
    if (p != s->turn) {
        ILLEGAL(j, "advanced:spell.own_turn", "%s played a Spell in %s's turn; Spells are played in their own turn.",
                who(s, p), who(s, s->turn));
        return;
    }
    if (in_step(j, ADV_MAIN, "played a Spell"))
        return;
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Spell reveals", &c))
        return;
    if (c->kind != CARD_SPELL) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "advanced:spell.main_phase", "%s played %s as a Spell, but it is %s.", who(s, p), c->name, kind);
        return;
    }
    /* advanced.md: "you must control a face-up monster of the same class." */
    if (!controls_class(s, p, c->cls)) {
        ILLEGAL(j, "advanced:spell.class", "%s played %s, %s %s Spell, without controlling a face-up %s monster.",
                who(s, p), c->name, an(class_title(c->cls)), class_title(c->cls), class_title(c->cls));
        return;
    }
    int n = effects_of(c, &fx);
    if (check_targets(j, fx, n, p, c->name))
        return;
    chain_link_set(&s->chain[0], ev, p, c, 1);
    s->chain[0].chose = (uint8_t)choosing(s, fx, n, p);
    s->n_chain = 1;
    /* advanced.md: "The opponent may respond with Counters" */
    s->window = ADV_WIN_SPELL;
    s->passed = 0;
}

/* Counter effects that act on an attack need one (A22). */
static int acts_on_attack(const card *c)
{
    for (int i = 0; i < c->advanced.n_effects; i++) {
        const card_effect *e = &c->advanced.effects[i];
        if (e->op == FX_FIZZLE || e->target == TGT_ATTACKER || e->target == TGT_DEFENDER)
            return 1;
    }
    return 0;
}

static void do_counter(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    const card_effect *fx;
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A Counter is announced by the player who plays it.");
        return;
    }
    /* advanced.md: "Played only during the opponent’s turn or during combat
     * windows." (Before the first turn check_obligations has refused it,
     * advanced:select.opening.) */
    if (p == s->turn && s->window != ADV_WIN_ATTACK) {
        ILLEGAL(j, "advanced:counter.timing", "%s played a Counter in their own turn outside an attack's Counter "
                "Window.", who(s, p));
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Counter reveals", &c))
        return;
    if (c->kind != CARD_COUNTER) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "advanced:counter.timing", "%s played %s as a Counter, but it is %s.", who(s, p), c->name, kind);
        return;
    }
    /* advanced.md: "Also class-bound (require a matching monster)." */
    if (!controls_class(s, p, c->cls)) {
        ILLEGAL(j, "advanced:counter.class", "%s played %s, %s %s Counter, without controlling a face-up %s monster.",
                who(s, p), c->name, an(class_title(c->cls)), class_title(c->cls), class_title(c->cls));
        return;
    }
    if (acts_on_attack(c) && s->window != ADV_WIN_ATTACK) {
        ILLEGAL(j, "advanced:A22", "%s played %s, which acts on an attack, with no attack in its Counter Window.",
                who(s, p), c->name);
        return;
    }
    /* advanced.md: "Maximum: 3 links per player, 6 total." (chain_cap) */
    if (s->chain_count[p] >= s->chain_cap) {
        ILLEGAL(j, "advanced:chain.cap", "%s added a Counter to a chain that already holds %u of theirs; the cap is %u "
                "per player.", who(s, p), s->chain_count[p], s->chain_cap);
        return;
    }
    int n = effects_of(c, &fx);
    if (check_targets(j, fx, n, p, c->name))
        return;
    unsigned chose = choosing(s, fx, n, p);
    chain_link_set(&s->chain[s->n_chain], ev, p, c, 0);
    s->chain[s->n_chain].chose = (uint8_t)chose;
    s->n_chain++;
    s->chain_count[p]++;
    if (s->window == ADV_WIN_NONE)
        s->window = ADV_WIN_COUNTER;   /* A2: a Counter in the opponent's turn */
    s->passed = 0;
}

/* A7: a pass closes the window once each player who may answer has
 * passed since the last Counter; outside a window it changes nothing. */
static void do_pass(judge *j)
{
    advanced_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A pass is announced by the player who passes.");
        return;
    }
    if (s->window == ADV_WIN_NONE)
        return;
    if (!may_answer(s, p)) {
        ILLEGAL(j, "advanced:counter.timing", "%s passed in a window of their own turn where only the opponent may "
                "answer.", who(s, p));
        return;
    }
    s->passed |= (uint8_t)(1u << p);
    for (int q = 0; q < 2; q++)
        if (may_answer(s, q) && !(s->passed & (1u << q)))
            return;
    close_window(s);
}

static void do_position(judge *j)
{
    advanced_state *s = j->s;
    int p = player_of(j->o.ev);
    if (in_step(j, ADV_POSITION, "changed a monster's position"))
        return;
    adv_monster *m = monster_at(s, p, j->o.ev->slot);
    if (!m) {
        ILLEGAL(j, "advanced:position.step", "%s changed the position of slot %d, which holds no monster of theirs.",
                who(s, p), j->o.ev->slot);
        return;
    }
    /* advanced.md: "Each monster can only switch once per turn" */
    if (m->switched) {
        ILLEGAL(j, "advanced:position.once", "%s's %s has already switched position this turn.", who(s, p),
                top(m)->name);
        return;
    }
    m->pos = m->pos == OL_POS_AP ? OL_POS_DP : OL_POS_AP;
    m->switched = 1;
}

/* A Prime's effects, applied as it enters (singular.entry, A4): the
 * event's targets must fit them. */
static int prime_entry(judge *j, int p, const card *c)
{
    const card_effect *fx;
    int n = effects_of(c, &fx);
    if (check_targets(j, fx, n, p, c->name))
        return -1;
    apply_effects(j->s, p, fx, n, j->o.ev->targets, (int)j->o.ev->n_targets, choosing(j->s, fx, n, p));
    return 0;
}

static void do_evolve(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, ADV_EVOLVE, "evolved a monster"))
        return;
    /* advanced.md: "once per turn globally, evolve one monster." */
    if (s->evolved) {
        ILLEGAL(j, "advanced:evolve.once", "%s evolved a second monster this turn; one evolution per turn.", who(s, p));
        return;
    }
    adv_monster *m = monster_at(s, p, ev->slot);
    /* advanced.md: "Only face-up monsters can evolve." (every monster on
     * the field is face-up, A1: the slot must hold one) */
    if (!m) {
        ILLEGAL(j, "advanced:evolve.face_up", "%s evolved slot %d, which holds no face-up monster of theirs.",
                who(s, p), ev->slot);
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The evolution reveals", &c))
        return;
    /* advanced.md: "Exact next stage card must be in hand." */
    if (m->depth >= 3 || cards_next_stage(s->ol.db, top(m)) != c) {
        ILLEGAL(j, "advanced:evolve.next_stage", "%s is not the next stage of %s's %s.", c->name, who(s, p),
                top(m)->name);
        return;
    }
    /* advanced.md: "Place on top of predecessor" */
    m->stack[m->depth++] = c;
    m->evolved = 1;
    s->evolved = 1;
    if (c->kind == CARD_PRIME_EVOLUTION) {
        m->prime_entered = 1;
        prime_entry(j, p, c);
    }
}

static int condition_met(const advanced_state *s, int p, card_condition cond)
{
    switch (cond.kind) {
    case COND_NONE: return 1;
    case COND_LP_MAX: return s->side[p].lp <= cond.amount;
    case COND_OWN_DEFEATED_MIN: return s->side[p].lost >= cond.amount;
    case COND_OPP_DEFEATED_MIN: return s->side[OTHER(p)].lost >= cond.amount;
    case COND_OWN_FIELD_MAX: return monsters_of(s, p) <= cond.amount;
    default: return 0;
    }
}

static void do_prime(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    /* A4: a Prime Singular enters in the Main Phase, not as the Normal
     * Summon. */
    if (in_step(j, ADV_MAIN, "played a Prime Singular"))
        return;
    if (!ev->has_slot || (unsigned)ev->slot >= s->zones) {
        ILLEGAL(j, "advanced:singular.entry", "%s played a Prime Singular without naming one of their %u Monster "
                "Zones to fill or replace.", who(s, p), s->zones);
        return;
    }
    int replacing = P(s, p)->zone[ev->slot].present;
    /* advanced.md: "you must control at least 2 other monsters" -- other
     * than the one it replaces (A4) */
    int others = monsters_of(s, p) - replacing;
    if (others < 2) {
        ILLEGAL(j, "advanced:singular.condition", "%s played a Prime Singular controlling %d other monster%s; it needs "
                "at least 2.", who(s, p), others, others == 1 ? "" : "s");
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Prime Singular reveals", &c))
        return;
    if (c->kind != CARD_PRIME_SINGULAR) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "advanced:singular.entry", "%s played %s as a Prime Singular, but it is %s.", who(s, p), c->name,
                kind);
        return;
    }
    /* advanced.md: "and meet the card’s printed condition" */
    if (!condition_met(s, p, c->advanced.condition)) {
        ILLEGAL(j, "advanced:singular.condition", "%s played %s without meeting its printed condition (%s %d).",
                who(s, p), c->name, cond_kind_name(c->advanced.condition.kind), (int)c->advanced.condition.amount);
        return;
    }
    adv_monster *m = &P(s, p)->zone[ev->slot];
    if (replacing) {
        /* A4: the replaced stack goes to the Graveyard; no defeat */
        for (int i = 0; i < m->depth; i++)
            to_grave(P(s, p), m->stack[i]);
    }
    memset(m, 0, sizeof *m);
    m->present = 1;
    m->pos = OL_POS_AP;   /* A4: it enters in Attack Position */
    m->stack[0] = c;
    m->depth = 1;
    prime_entry(j, p, c);
}

static void do_attack(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev), d = OTHER(p);
    if (in_step(j, ADV_ATTACK, "attacked"))
        return;
    /* advanced.md: "Player 1 cannot attack on their first turn." */
    if (s->turns == 1) {
        ILLEGAL(j, "advanced:attack.first_turn", "%s attacked on their first turn; Player 1 cannot.", who(s, p));
        return;
    }
    adv_monster *m = ev->has_slot ? monster_at(s, p, ev->slot) : NULL;
    if (!m) {
        ILLEGAL(j, "advanced:attack.declare", "%s declared an attack without naming one of their monsters to attack "
                "with.", who(s, p));
        return;
    }
    const char *name = top(m)->name;
    /* advanced.md: "DP: ... cannot attack" */
    if (m->pos != OL_POS_AP) {
        ILLEGAL(j, "advanced:attack.dp", "%s's %s is in Defense Position and cannot attack.", who(s, p), name);
        return;
    }
    /* advanced.md: "Each monster in AP may attack once." */
    if (m->attacked) {
        ILLEGAL(j, "advanced:attack.once", "%s's %s has already attacked this turn.", who(s, p), name);
        return;
    }
    /* advanced.md: "switched monsters cannot attack this turn" */
    if (m->switched) {
        ILLEGAL(j, "advanced:position.no_attack", "%s's %s switched position this turn and cannot attack.", who(s, p),
                name);
        return;
    }
    /* advanced.md: "May not attack on the turn they enter." (Prime Evolutions) */
    if (m->prime_entered) {
        ILLEGAL(j, "advanced:prime.no_attack", "%s's %s is a Prime Evolution that entered this turn and cannot "
                "attack.", who(s, p), name);
        return;
    }
    /* advanced.md: "After evolving, that monster cannot attack this turn." */
    if (m->evolved) {
        ILLEGAL(j, "advanced:evolve.no_attack", "%s's %s evolved this turn and cannot attack.", who(s, p), name);
        return;
    }
    if (ev->target.kind == OL_REF_PLAYER) {
        /* advanced.md: "Direct attacks: allowed if opponent controls no monsters" */
        if ((int)ev->target.p != d || monsters_of(s, d)) {
            ILLEGAL(j, "advanced:attack.direct", "%s's %s attacked %s directly, but %s.", who(s, p), name,
                    ol_player_name(ev->target.p),
                    (int)ev->target.p != d ? "a player attacks only the opponent" : "the opponent controls monsters");
            return;
        }
    } else if ((int)ev->target.p != d || !monster_at(s, d, ev->target.slot)) {
        /* advanced.md: "Targets: opponent’s monsters" */
        ILLEGAL(j, "advanced:attack.target", "%s's %s attacked %s's Monster Zone %d, which holds no monster of the "
                "opponent.", who(s, p), name, ol_player_name(ev->target.p), ev->target.slot);
        return;
    }
    m->attacked = 1;
    s->attack_on = 1;
    s->fizzled = 0;
    s->attacker = (int8_t)ev->slot;
    s->attack_target = ev->target;
    /* advanced.md: "Counter Window: Before damage resolves, both players
     * may play Counters." */
    s->window = ADV_WIN_ATTACK;
    s->passed = 0;
    s->n_chain = 0;
}

static void do_discard(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, ADV_END, "discarded"))
        return;
    /* advanced.md: "The active player discards down to the hand limit" (A12) */
    if (P(s, p)->n_hand <= s->hand_limit) {
        ILLEGAL(j, "advanced:end.hand_limit", "%s discarded with %u card%s in hand; a discard is only down to the hand "
                "limit of %u.", who(s, p), P(s, p)->n_hand, P(s, p)->n_hand == 1 ? "" : "s", s->hand_limit);
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The discard reveals", &c))
        return;
    to_grave(P(s, p), c);
}

static void do_end(judge *j)
{
    advanced_state *s = j->s;
    int p = player_of(j->o.ev);
    if (in_step(j, ADV_END, "ended the turn"))
        return;
    /* advanced.md: "The active player discards down to the hand limit" */
    if (P(s, p)->n_hand > s->hand_limit) {
        ILLEGAL(j, "advanced:end.hand_limit", "%s ended the turn with %u cards in hand; they discard down to %u first.",
                who(s, p), P(s, p)->n_hand, s->hand_limit);
        return;
    }
    /* advanced.md: "Resolve any “until end of turn” effects." */
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < ADV_ZONES_MAX; i++)
            P(s, q)->zone[i].atk_mod = P(s, q)->zone[i].def_mod = 0;
    P(s, p)->prevent = 0;
    /* advanced.md: "The turn ends and play passes to the opponent." */
    begin_turn(s, OTHER(p));
}

static void do_concede(judge *j)
{
    if (!openlog_concede(&j->o))
        j->s->step = ADV_OVER;
}

static void do_judge(judge *j)
{
    if (!openlog_ruling(&j->o) && j->s->ol.over)
        j->s->step = ADV_OVER;
}

/* A9: a claim is compared, never applied -- the winner, the defeats since
 * the last claim, and the Life Points. */
static void do_claim(judge *j)
{
    advanced_state *s = j->s;
    int64_t lp[2] = {s->side[0].lp, s->side[1].lp};
    if (!openlog_claim_lp(&j->o, "advanced:A9", lp))
        openlog_claim(&j->o, "advanced:A9", "Monster Zone");
}

typedef void (*handler)(judge *j);

/* One handler per event type of the Advanced page (SPEC.md 7.2); a type
 * without one is not Advanced (verifier.c judges it, openlog:7). */
static const handler handlers[OL_TYPE_COUNT] = {
    [OL_MATCH] = do_header_again, [OL_SELECT] = do_select,     [OL_SUMMON] = do_summon,
    [OL_SPELL] = do_spell,        [OL_COUNTER] = do_counter,   [OL_PASS] = do_pass,
    [OL_POSITION] = do_position,  [OL_EVOLVE] = do_evolve,     [OL_PRIME] = do_prime,
    [OL_ATTACK] = do_attack,      [OL_DISCARD] = do_discard,   [OL_END] = do_end,
    [OL_CONCEDE] = do_concede,    [OL_CLAIM] = do_claim,       [OL_JUDGE] = do_judge,
};

/* What must come before anything else: the opening selections, an
 * effect's selection (A11), the Selection Step (select.per_turn).
 * judge, claim and concede are never held up. */
static int check_obligations(judge *j)
{
    advanced_state *s = j->s;
    const olevent *ev = j->o.ev;
    ol_type t = ev->type;
    int by = player_of(ev);
    if (t == OL_JUDGE || t == OL_CLAIM || t == OL_CONCEDE || t == OL_MATCH)
        return 0;
    if (!s->setup_done && t != OL_SELECT)
        return ILLEGAL(j, "advanced:select.opening", "The opening hands come first: Player 1 selects 5 cards and "
                       "Player 2 selects 6 before any other action.");
    for (int p = 0; p < 2; p++)
        if (P(s, p)->select_due && !(t == OL_SELECT && by == p))
            return ILLEGAL(j, "advanced:select.per_turn", "%s must first select the %u card%s an effect gave them.",
                           who(s, p), P(s, p)->select_due, P(s, p)->select_due == 1 ? "" : "s");
    /* advanced.md: "At the beginning of each of your turns, you choose 1
     * card from your deck to add to your hand." */
    if (s->setup_done && s->step == ADV_SELECT && !(t == OL_SELECT && by == s->turn))
        return ILLEGAL(j, "advanced:select.per_turn", "%s's turn begins with the Selection Step: they select "
                       "before any other action.", who(s, s->turn));
    return 0;
}

/* The codec reads Snap's active slot "a"; Advanced has numbered Monster
 * Zones only (SPEC.md 7.2). */
static int snap_slot_named(const olevent *ev)
{
    if (ev->has_slot && ev->slot == OL_SLOT_ACTIVE)
        return 1;
    if (ev->type == OL_ATTACK && ev->target.kind == OL_REF_MONSTER && ev->target.slot == OL_SLOT_ACTIVE)
        return 1;
    for (size_t i = 0; i < ev->n_targets; i++)
        if (ev->targets[i].kind == OL_REF_MONSTER && ev->targets[i].slot == OL_SLOT_ACTIVE)
            return 1;
    for (size_t i = 0; i < ev->n_defeated; i++)
        if (ev->defeated[i].slot == OL_SLOT_ACTIVE)
            return 1;
    return 0;
}

void advanced_apply(advanced_state *s, const olevent *ev, olverdict *v)
{
    olverdict_set(v, ev->match, ev->seq, OL_V_OK, NULL, NULL);
    /* A refused header started no match: every event cites the rule it
     * broke; else the game is over (win.immediate). */
    if (openlog_over(&s->ol, ev, v, s->refused[0] ? s->refused : "advanced:win.immediate",
                     s->refused[0] ? "The match cannot start: a deck in its header is illegal."
                                   : "The game is over; no action may follow its end."))
        return;
    if (snap_slot_named(ev)) {
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:7", "The event names the slot \"a\", which is "
                      "Snap's; Advanced Monster Zones are numbered from 0.");
        return;
    }
    close_by_silence(s, ev);   /* A7: by arriving, whatever the event's fate */
    if (openlog_over(&s->ol, ev, v, "advanced:win.immediate", "The game ended when the last window resolved; no "
                     "action may follow its end."))
        return;
    advanced_state saved = *s;
    judge j = {{&s->ol, ev, v, 0}, s};
    if (!check_obligations(&j))
        handlers[ev->type](&j);
    if (j.o.failed)
        *s = saved;
    /* advanced.md: "Decision shot-clock: 45 seconds." */
    openlog_clock(&s->ol, ev, v, 45000, "advanced:clock.shot");
}

void advanced_silence(advanced_state *s)
{
    /* (No window opens before the opening hands: close_window has nothing
     * to close then.) */
    if (!s->ol.over)
        close_window(s);
}

void advanced_unverifiable(const advanced_state *s, unsigned out[2])
{
    for (int p = 0; p < 2; p++) {
        out[p] = 0;
        for (int i = 0; i < s->side[p].n_hand; i++)
            out[p] += !openlog_known(&s->side[p].hand[i]);
    }
}

int advanced_check_invariants(const advanced_state *s)
{
    for (int p = 0; p < 2; p++) {
        if (s->side[p].lp < 0 || (s->side[p].lp == 0 && !s->ol.over))
            return 1;
        if (monsters_of(s, p) > s->zones)
            return 3;
        if (s->chain_count[p] > s->chain_cap)
            return 4;
    }
    return 0;
}

/* ---- the engine behind verifier.h ---------------------------------------------- */

static int has_type(ol_type t)
{
    return (unsigned)t < OL_TYPE_COUNT && handlers[t] != NULL;
}

VERIFIER_OPS_ADAPTERS(advanced_state, advanced_start, advanced_apply, advanced_silence, advanced_board_json,
                      advanced_board_words, advanced_encode)

static int ops_finished(const void *st, int *winner)
{
    const advanced_state *s = st;
    if (winner)
        *winner = s->ol.over ? s->ol.winner : -1;
    return s->ol.over && (s->setup_done || s->ol.winner >= 0);
}

static unsigned ops_round(const void *st)
{
    const advanced_state *s = st;
    return s->setup_done ? (s->turns + 1) / 2 : 0;
}

static void ops_unverified(const void *st, unsigned out[2])
{
    advanced_unverifiable(st, out);
}

const verifier_ops advanced_verifier_ops = {
    .format = OL_FORMAT_ADVANCED,
    .engine = ADVANCED_ENGINE,
    .state_size = sizeof(advanced_state),
    .has_type = has_type,
    .rules = advanced_rules,
    .start = ops_start,
    .apply = ops_apply,
    .log_ended = ops_log_ended,
    .finished = ops_finished,
    .round = ops_round,
    .unverified = ops_unverified,
    .board_json = ops_board_json,
    .board_words = ops_board_words,
    .encode = ops_encode,
};
