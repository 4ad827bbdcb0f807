/* duel.c -- the rules Advanced and Master share (duel.h draws the machine).
 *
 * What: duel_apply() judges one open-log event of an Advanced or Master
 * match and either applies it (ok, warning) or leaves the game as it was
 * (illegal, mismatch), with a verdict citing the rule in one sentence.
 *
 * Why one file for two formats: the two rulebooks state most of their
 * rules in the same words -- "Each monster can only switch once per turn",
 * "Only face-up monsters can evolve", "Only Counters create chains",
 * "LIFO resolution" -- and a rule written twice is a rule that will one day
 * be judged two ways.  What differs is in each format's duel_format table:
 * its levers, how an attack is declared and fought, what a card costs and
 * the Mana Zone (Master).  Each check below quotes the line it enforces,
 * from both rulebooks when both state it.
 *
 * How: first the window this event closes by silence resolves (A7): its
 * chain last-in first-out, then the attack.  Then the obligations that come
 * before anything else (the opening selections, an effect's selection, the
 * Selection Step, the format's own).  Then the event's handler: the
 * format's own for its own types, else the shared one from the table at
 * the bottom.  Hidden cards, the end of the game, claims and the shot clock
 * are verifiers/openlog.c's.
 */
#include <stdarg.h>
#include <string.h>

#include "verifiers/deck.h"
#include "verifiers/duel.h"
#include "verifiers/openlog.h"
#include "verifiers/verifier.h"

#define P(s, i) (&(s)->side[(i)])
#define OTHER(p) (1 - (p))
#define ILLEGAL duel_illegal
#define SET DUEL_SET
#define NOTE DUEL_NOTE

const char *duel_rule(const duel_state *s, const char *rule, char *buf)
{
    if (strncmp(rule, "duel:", 5))
        return rule;
    olverdict_format(buf, OL_RULE_MAX, "%s:%s", s->fmt->prefix, rule + 5);
    return buf;
}

/* duel_illegal and duel_break: the rule as the format cites it, the
 * sentence, and the judgement failed (soft: unless a remedy makes it stand,
 * openlog_break). */
static int duel_judged(duel_judge *j, int soft, const char *rule, const char *fmt, va_list ap)
{
    char id[OL_RULE_MAX], msg[OL_MSG_MAX];
    rule = duel_rule(j->s, rule, id);
    olverdict_vformat(msg, sizeof msg, fmt, ap);
    return soft ? openlog_break(&j->o, rule, "%s", msg) : openlog_fail(&j->o, OL_V_ILLEGAL, rule, "%s", msg);
}

int duel_illegal(duel_judge *j, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = duel_judged(j, 0, rule, fmt, ap);
    va_end(ap);
    return rc;
}

int duel_break(duel_judge *j, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = duel_judged(j, 1, rule, fmt, ap);
    va_end(ap);
    return rc;
}
#define BREAK duel_break

const char *duel_who(const duel_state *s, int p)
{
    return openlog_who(&s->ol, p);
}

int duel_player_of(const olevent *ev)
{
    return openlog_player_of(ev);
}

#define who duel_who

const char *duel_step_words(const duel_state *s, duel_step st)
{
    static const char *const words[] = {"setup",        "Mana Step",     "Selection Step", NULL,
                                        "Summon Phase", "Position Step", "Evolution Step", "Attack Phase",
                                        "End Phase",    "game over"};
    _Static_assert(sizeof words / sizeof words[0] == DUEL_OVER + 1, "words for every step");
    return st == DUEL_MAIN ? s->fmt->main_words : words[st];
}
#define player_of duel_player_of

/* A present monster's stack holds at least its base card. */
const card *duel_top(const duel_monster *m)
{
    return m->stack[m->depth - 1];
}
#define top duel_top

/* The monster at (p, slot), or NULL when the slot is not one of the match's
 * Monster Zones or holds none (a negative slot is Snap's "a", refused
 * before any handler). */
duel_monster *duel_monster_at(duel_state *s, int p, int slot)
{
    if ((unsigned)slot >= s->zones)
        return NULL;
    duel_monster *m = &P(s, p)->zone[slot];
    return m->present ? m : NULL;
}
#define monster_at duel_monster_at

int duel_monsters_of(const duel_state *s, int p)
{
    int n = 0;
    for (int i = 0; i < s->zones; i++)
        n += s->side[p].zone[i].present;
    return n;
}
#define monsters_of duel_monsters_of

static const char *an(const char *word)
{
    return strchr("AEIOUaeiou", word[0]) ? "an" : "a";
}

/* "a Spell", "an Evolution", "a Prime Singular": a card's kind in words
 * (the card database loads only these kinds). */
static void kind_words(const card *c, char *out, size_t cap)
{
    static const char *const names[] = {"Monster", "Spell", "Counter", "Evolution", "Prime Evolution",
                                        "Prime Singular"};
    _Static_assert(sizeof names / sizeof names[0] == CARD_KIND_COUNT, "a name for every kind");
    olverdict_format(out, cap, "%s %s", an(names[c->kind]), names[c->kind]);
}

const char *duel_class_title(card_class c)
{
    static const char *const t[] = {"Coreon", "Fluxion", "Synaphera", "Obscura", "Aetherion"};
    _Static_assert(sizeof t / sizeof t[0] == CLASS_COUNT, "a title for every class");
    return t[c];
}
#define class_title duel_class_title

/* ---- setup ------------------------------------------------------------ */

int duel_start(duel_state *s, const duel_format *fmt, const cards *db, deck_memo *memo, const olevent *header, olverdict *v)
{
    const ol_header *h = &header->header;
    memset(s, 0, sizeof *s);
    s->fmt = fmt;
    openlog_start(&s->ol, db, h);
    for (int p = 0; p < 2; p++) {
        duel_side *sd = P(s, p);
        const ol_idlist *main = &h->players[p].deck.main;
        for (size_t i = 0; i < main->n && sd->n_deck < DUEL_DECK_MAX; i++)
            sd->deck[sd->n_deck++] = cards_find(db, main->ids[i]);
        sd->deck_left = sd->n_deck;
    }
    /* the levers, and the decks: a header whose deck is illegal starts no
     * match (SPEC.md 5) */
    int refused = fmt->start(s, db, memo, h, header, v);
    if (refused < 0)
        return VERIFIER_ENOMEM;
    for (int p = 0; p < 2; p++)
        P(s, p)->lp = (int32_t)s->starting_lp;
    if (refused) {
        olverdict_format(s->refused, sizeof s->refused, "%s", v->rule);
        openlog_end(&s->ol, -1);
        s->step = DUEL_OVER;
        return VERIFIER_OK;
    }
    s->step = DUEL_SETUP;
    olverdict_set(v, header->match, header->seq, OL_V_OK, NULL, NULL);
    return VERIFIER_OK;
}

/* ---- the deck and the hand (openlog.md 6) ------------------------------- */

int duel_class_unclaimed(const duel_state *s, int p, card_class c)
{
    /* a started match's decklist has every card in the database (a header
     * naming another starts none); in announced mode no mana card is known */
    const duel_side *sd = &s->side[p];
    int left = 0;
    for (int i = 0; i < sd->n_deck; i++)
        left += sd->deck[i]->cls == c && !sd->deck_used[i];
    for (int i = 0; i < sd->n_mana; i++)
        left -= sd->mana[i].cls == c;
    return left;
}

/* Take the revealed card `id` out of p's hand: it must be there (known,
 * committed, or -- announced mode -- a card the decklist still holds). */
static int take_from_hand(duel_judge *j, int p, const char *id, const char *nonce, const char *what, const char *rule,
                          const card **out)
{
    duel_state *s = j->s;
    duel_side *sd = P(s, p);
    const card *c = cards_find(s->ol.db, id);
    int at;
    if (!c)
        return ILLEGAL(j, "openlog:cards", "The card \"%s\" is not in the card database.", id);
    /* advanced.md: "Spells and Counters are played from hand" -- and so
     * is every card that enters play (summon, evolve, prime, discard, and
     * in Master a card placed as mana). */
    if ((at = openlog_zone_find(sd->hand, sd->n_hand, c, nonce)) < 0) {
        if (s->ol.hidden == OL_HIDDEN_COMMIT)
            return ILLEGAL(j, "openlog:commit", "%s %s, which matches no card committed to %s's hand.", what,
                           c->name, who(s, p));
        return ILLEGAL(j, rule, "%s %s, which is not in %s's hand.", what, c->name, who(s, p));
    }
    /* openlog 6: "at reveal checks that the card could have been there
     * (in the decklist, not already used)". */
    if (!sd->hand[at].card && openlog_deck_take(&j->o, sd->deck, sd->deck_used, sd->n_deck, c, p, what, "decklist"))
        return -1;
    /* Master, announced mode (M1): each face-down mana card of a class
     * stands for an unused card of that class of the decklist -- a card
     * revealed from the hand leaves them theirs (no Mana Zone: no change) */
    if (s->ol.hidden == OL_HIDDEN_ANNOUNCED && duel_class_unclaimed(s, p, c->cls) < 0)
        return ILLEGAL(j, "openlog:6", "%s %s, but the %s cards %s's decklist has left are the face-down %s mana "
                       "cards of their Mana Zone.", what, c->name, class_title(c->cls), who(s, p),
                       class_title(c->cls));
    NOTE(s, &sd->hand[at], (size_t)(sd->n_hand - at) * sizeof sd->hand[0]);
    memmove(&sd->hand[at], &sd->hand[at + 1], (size_t)(sd->n_hand - at - 1) * sizeof sd->hand[0]);
    SET(s, sd->n_hand, sd->n_hand - 1);
    *out = c;
    return 0;
}

int duel_from_hand(duel_judge *j, int p, const char *id, const char *nonce, const char *what, const card **out)
{
    return take_from_hand(j, p, id, nonce, what, "duel:field.from_hand", out);
}
#define from_hand duel_from_hand

/* A side's graveyard never outgrows its deck (DUEL_GRAVE_MAX > DUEL_DECK_MAX). */
void duel_to_grave(duel_state *s, int p, const card *c)
{
    duel_side *sd = P(s, p);
    if (sd->n_grave < DUEL_GRAVE_MAX) {
        SET(s, sd->grave[sd->n_grave], c);
        SET(s, sd->n_grave, sd->n_grave + 1);
    }
}
#define to_grave duel_to_grave

/* ---- the game's end and the board ----------------------------------------- */

static void game_over(duel_state *s, int winner)
{
    openlog_end(&s->ol, winner);
    SET(s, s->step, DUEL_OVER);
    SET(s, s->window, DUEL_WIN_NONE);
    SET(s, s->attack_on, 0);
}

/* A player loses Life Points; at 0 the game ends at once (A6).  Callers
 * stop once the game is over. */
void duel_lose_lp(duel_state *s, int p, int32_t amount)
{
    if (amount <= 0)
        return;
    duel_side *sd = P(s, p);
    SET(s, sd->lp, sd->lp > amount ? sd->lp - amount : 0);
    /* advanced.md: "A player wins immediately if their opponent’s LP
     * reaches 0."; master.md: "A player wins when the opponent’s LP reaches
     * 0." */
    if (!sd->lp)
        game_over(s, OTHER(p));
}
#define lose_lp duel_lose_lp

/* The monster at (p, slot) leaves the field: an Ongoing Spell that changed
 * it and no other monster on the field goes to its controller's Graveyard
 * (Master, M5). */
static void leave_field(duel_state *s, int p, int slot)
{
    for (int q = 0; q < 2; q++) {
        duel_side *sd = P(s, q);
        for (int i = 0; i < sd->n_ongoing;) {
            if (sd->ongoing[i].p == p && sd->ongoing[i].slot == slot) {
                to_grave(s, q, sd->ongoing[i].card);
                NOTE(s, &sd->ongoing[i], (size_t)(sd->n_ongoing - i) * sizeof sd->ongoing[0]);
                memmove(&sd->ongoing[i], &sd->ongoing[i + 1], (size_t)(sd->n_ongoing - i - 1) * sizeof sd->ongoing[0]);
                SET(s, sd->n_ongoing, sd->n_ongoing - 1);
            } else {
                i++;
            }
        }
    }
    duel_monster *m = &P(s, p)->zone[slot];
    for (int i = 0; i < m->depth; i++)
        to_grave(s, p, m->stack[i]);
    NOTE(s, m, sizeof *m);
    memset(m, 0, sizeof *m);
}

/* The monster at (p, slot), on the field, is destroyed: its whole stack to
 * the Graveyard ("defeated stacks go to Graveyard as a unit"; "If top card
 * is destroyed, the stack is destroyed."), a defeat a claim may name (A15). */
void duel_destroy(duel_state *s, int p, int slot)
{
    leave_field(s, p, slot);
    SET(s, P(s, p)->lost, P(s, p)->lost + 1);
    openlog_defeated(&s->ol, p, slot);
    if (s->attack_on && (int)s->turn == p && s->attacker == slot)
        SET(s, s->attack_on, 0);
}
#define destroy duel_destroy

/* ---- targets (openlog 7: one reference per chosen target, in order) ------- */

static int chain_has(const duel_state *s, uint64_t seq)
{
    for (int i = 0; i < s->n_chain; i++)
        if (s->chain[i].seq == seq)
            return 1;
    return 0;
}

/* Does reference r fit selector t for the card's controller p?  (The card
 * database gives these formats' cards no other chosen selector.) */
static int target_fits(duel_judge *j, fx_target t, const ol_ref *r, int p, const char *what)
{
    duel_state *s = j->s;
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
    default:   /* TGT_PLAYER */
        if (r->kind != OL_REF_PLAYER)
            return ILLEGAL(j, "openlog:7", "%s must target a player.", what);
        return 0;
    }
}

/* Could any reference fit chosen selector t for player p now? */
static int has_candidate(const duel_state *s, fx_target t, int p)
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
unsigned duel_choosing(const duel_state *s, const card_effect *fx, int n_fx, int p)
{
    unsigned mask = 0;
    for (int i = 0; i < n_fx; i++)
        if (fx_target_is_chosen(fx[i].target) && has_candidate(s, fx[i].target, p))
            mask |= 1u << i;
    return mask;
}
#define choosing duel_choosing

/* The event's targets against the card's effects: one chosen reference per
 * effect that chooses, in order (openlog 7, A27). */
int duel_check_targets(duel_judge *j, const card_effect *fx, int n_fx, int p, const char *what)
{
    const olevent *ev = j->o.ev;
    unsigned mask = choosing(j->s, fx, n_fx, p);
    size_t want = 0, left_out = 0;
    for (int i = 0; i < n_fx; i++) {
        want += (mask >> i) & 1u;
        left_out += fx_target_is_chosen(fx[i].target) && !((mask >> i) & 1u);
    }
    if (ev->n_targets != want)
        return ILLEGAL(j, left_out ? "duel:A27" : "openlog:7", "%s names %zu target%s; its effects choose %zu%s.", what,
                       ev->n_targets, ev->n_targets == 1 ? "" : "s", want,
                       left_out ? ", since an effect with nothing to choose from names no target" : "");
    for (int i = 0, k = 0; i < n_fx; i++)
        if (((mask >> i) & 1u) && target_fits(j, fx[i].target, &ev->targets[k++], p, what))
            return -1;
    return 0;
}
#define check_targets duel_check_targets

/* ---- effects (the card database's primitives of Advanced and Master) ----- */

/* The monster an effect acts on, or NULL: the attacker or the defender of
 * the attack in progress, the monster whose ability it is (`self`), or the
 * chosen one (target_fits made it a monster reference). */
static duel_monster *effect_monster(duel_state *s, int p, fx_target t, const ol_ref *chosen, int self_slot, int *owner,
                                    int *slot)
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
    } else if (t == TGT_SELF) {
        *owner = p;
        *slot = self_slot;
    } else {
        if (!chosen)
            return NULL;
        *owner = chosen->p;
        *slot = chosen->slot;
    }
    return monster_at(s, *owner, *slot);
}

/* `amount` damage against the target's DEF: destroyed when it is at least
 * the DEF (master.md "If damage ≥ DEF: monster is destroyed (stack goes to
 * Graveyard)."); with no monster to aim at -- no target was chosen, the
 * opponent controlling none when the attack was declared (M7) -- LP damage
 * to the opponent (master.md "LP damage = listed value of the chosen
 * attack.").  `damage` is an attack's only, and an attack's chosen target
 * is an opposing monster (M7). */
static void damage(duel_state *s, int p, const ol_ref *target, int32_t amount)
{
    if (!target) {
        lose_lp(s, OTHER(p), amount);
        return;
    }
    duel_monster *m = monster_at(s, target->p, target->slot);
    /* master.md: "If damage < DEF: attack fails, unless effect says
     * otherwise."  A target an earlier effect destroyed takes nothing. */
    if (m && amount >= s->fmt->def(m))
        destroy(s, target->p, target->slot);
}

/* Apply effects for controller p (duel.h).  A target gone since the card
 * was played is skipped (its effect does nothing).  Stops when the game
 * ends (A6).  With `kept` (an Ongoing Spell, M5) a DEF change lasts while
 * the spell stays: the monster it changed and the change are written to
 * *keep. */
static void effects_on(duel_state *s, int p, const card_effect *fx, int n, const ol_ref *refs, int n_refs, unsigned chose,
                       int self_slot, int kept, duel_ongoing *keep)
{
    int k = 0;
    for (int i = 0; i < n && !s->ol.over; i++) {
        const ol_ref *chosen = ((chose >> i) & 1u) && k < n_refs ? &refs[k++] : NULL;
        int owner = 0, slot = 0;
        int target_player = fx[i].target == TGT_OPPONENT ? OTHER(p)
                          : fx[i].target == TGT_PLAYER && chosen ? (int)chosen->p : p;
        duel_monster *m;
        switch (fx[i].op) {
        case FX_ATK:
            if ((m = effect_monster(s, p, fx[i].target, chosen, self_slot, &owner, &slot)))
                SET(s, m->atk_mod, m->atk_mod + fx[i].amount);
            break;
        case FX_DEF:
            if ((m = effect_monster(s, p, fx[i].target, chosen, self_slot, &owner, &slot))) {
                if (kept) {
                    SET(s, m->def_kept, m->def_kept + fx[i].amount);
                    NOTE(s, keep, sizeof *keep);   /* the caller's local: ignored */
                    keep->p = (int8_t)owner;
                    keep->slot = (int8_t)slot;
                    keep->def += fx[i].amount;
                } else {
                    SET(s, m->def_mod, m->def_mod + fx[i].amount);
                }
            }
            break;
        case FX_POSITION:
            /* A13: an effect's switch is not the Position Step's. */
            if ((m = effect_monster(s, p, fx[i].target, chosen, self_slot, &owner, &slot)))
                SET(s, m->pos, m->pos == OL_POS_AP ? OL_POS_DP : OL_POS_AP);
            break;
        case FX_DESTROY:
            if (effect_monster(s, p, fx[i].target, chosen, self_slot, &owner, &slot))
                destroy(s, owner, slot);
            break;
        case FX_DAMAGE: damage(s, p, chosen, fx[i].amount); break;
        case FX_NEGATE:
            for (int l = 0; chosen && l < s->n_chain; l++)
                if (s->chain[l].seq == chosen->seq)
                    SET(s, s->chain[l].negated, 1);
            break;
        case FX_FIZZLE:
            if (s->attack_on)
                SET(s, s->fizzled, 1);
            break;
        case FX_LP_DAMAGE: lose_lp(s, target_player, fx[i].amount); break;
        case FX_LP_GAIN: SET(s, P(s, target_player)->lp, P(s, target_player)->lp + fx[i].amount); break;
        case FX_PREVENT_DRAW: SET(s, P(s, target_player)->prevent_next, 1); break;   /* A14 */
        case FX_SELECT:   /* A11 */
            SET(s, P(s, target_player)->select_due, (uint8_t)(P(s, target_player)->select_due + fx[i].amount));
            break;
        case FX_MANA_ADD:   /* M9 */
            SET(s, P(s, target_player)->mana_add, (uint8_t)(P(s, target_player)->mana_add + fx[i].amount));
            break;
        case FX_MANA_REMOVE: {   /* M10: fewer when the zone holds fewer */
            duel_side *sd = P(s, target_player);
            unsigned due = sd->mana_remove_due + (unsigned)fx[i].amount;
            SET(s, sd->mana_remove_due, (uint8_t)(due < sd->n_mana ? due : sd->n_mana));
            break;
        }
        default: break;   /* Snap's primitives: the database refuses them here */
        }
    }
}

void duel_apply_effects(duel_state *s, int p, const card_effect *fx, int n, const ol_ref *refs, int n_refs,
                        unsigned chose, int self_slot)
{
    effects_on(s, p, fx, n, refs, n_refs, chose, self_slot, 0, NULL);
}

/* ---- conditions ------------------------------------------------------------ */

int duel_condition_met(const duel_state *s, int p, const card *c, card_condition cond)
{
    switch (cond.kind) {
    case COND_NONE: return 1;
    case COND_LP_MAX: return s->side[p].lp <= cond.amount;
    case COND_OWN_DEFEATED_MIN: return s->side[p].lost >= cond.amount;
    case COND_OPP_DEFEATED_MIN: return s->side[OTHER(p)].lost >= cond.amount;
    case COND_OWN_FIELD_MAX: return monsters_of(s, p) <= cond.amount;
    default: return s->fmt->condition && s->fmt->condition(s, p, c, cond);
    }
}

/* ---- windows and combat (A2, A7) ------------------------------------------ */

/* May p answer (counter or pass) in the window now open?  In a Spell's
 * window or a lone Counter's only the opponent of the active player does
 * (counter.timing: "during the opponent’s turn"); in an attack's, both. */
static int may_answer(const duel_state *s, int p)
{
    return s->window == DUEL_WIN_ATTACK || p != s->turn;
}

void duel_end_attack(duel_state *s)
{
    SET(s, s->attack_on, 0);
    SET(s, s->fizzled, 0);
}

void duel_declare_attack(duel_state *s, int slot, ol_ref target)
{
    SET(s, s->side[s->turn].zone[slot].attacked, 1);
    SET(s, s->attack_on, 1);
    SET(s, s->fizzled, 0);
    SET(s, s->attacker, (int8_t)slot);
    SET(s, s->attack_target, target);
    /* advanced.md: "Counter Window: Before damage resolves, both players
     * may play Counters."; master.md: "Counter Window: Opponents may
     * respond with Counters before the attack resolves." (both, A8) */
    SET(s, s->window, DUEL_WIN_ATTACK);
    SET(s, s->passed, 0);
    SET(s, s->n_chain, 0);
}

/* A Spell that resolved: an Ongoing one stays (M5) while a monster it
 * changed is on the field; any other goes to the Graveyard (A19). */
static void spell_resolved(duel_state *s, const chain_link *l, const card_effect *fx, int n)
{
    duel_side *sd = P(s, l->player);
    if (!l->negated && s->fmt->ongoing && s->fmt->ongoing(l->card) && sd->n_ongoing < DUEL_ONGOING_MAX) {
        duel_ongoing keep = {l->card, -1, -1, 0};
        effects_on(s, l->player, fx, n, l->targets, l->n_targets, l->chose, -1, 1, &keep);
        if (keep.p >= 0) {
            SET(s, sd->ongoing[sd->n_ongoing], keep);
            SET(s, sd->n_ongoing, sd->n_ongoing + 1);
            return;
        }
    } else if (!l->negated) {
        effects_on(s, l->player, fx, n, l->targets, l->n_targets, l->chose, -1, 0, NULL);
    }
    to_grave(s, l->player, l->card);
}

/* The chain resolves last-in first-out (chain.lifo); a negated link does
 * nothing. */
static void resolve_chain(duel_state *s)
{
    while (s->n_chain && !s->ol.over) {
        SET(s, s->n_chain, s->n_chain - 1);
        chain_link *l = &s->chain[s->n_chain];
        const card_effect *fx;
        int n = s->fmt->effects(l->card, &fx);
        if (l->is_spell) {
            spell_resolved(s, l, fx, n);
            continue;
        }
        if (!l->negated)
            effects_on(s, l->player, fx, n, l->targets, l->n_targets, l->chose, -1, 0, NULL);
        to_grave(s, l->player, l->card);
    }
    SET(s, s->n_chain, 0);
    SET(s, s->chain_count[0], 0);
    SET(s, s->chain_count[1], 0);
}

static void close_window(duel_state *s)
{
    duel_window w = s->window;
    if (w == DUEL_WIN_NONE)
        return;
    SET(s, s->window, DUEL_WIN_NONE);
    SET(s, s->passed, 0);
    resolve_chain(s);
    if (w == DUEL_WIN_ATTACK && !s->ol.over)
        s->fmt->fight(s);
}

/* A7: an event that does not answer the window closes it by arriving. */
static void close_by_silence(duel_state *s, const olevent *ev)
{
    ol_type t = ev->type;
    if (s->window == DUEL_WIN_NONE || t == OL_COUNTER || t == OL_PASS || t == OL_CLAIM || t == OL_JUDGE)
        return;
    close_window(s);
}

/* ---- the turn ----------------------------------------------------------------- */

static void begin_turn(duel_state *s, int p)
{
    duel_side *sd = P(s, p);
    SET(s, s->turns, s->turns + 1);
    SET(s, s->turn, (uint8_t)p);
    SET(s, s->normal_summoned, 0);
    SET(s, s->evolved, 0);
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < DUEL_ZONES_MAX; i++) {
            duel_monster *m = &P(s, q)->zone[i];
            if (m->switched || m->attacked || m->evolved || m->prime_entered) {   /* most are 0 */
                SET(s, m->switched, 0);
                SET(s, m->attacked, 0);
                SET(s, m->evolved, 0);
                SET(s, m->prime_entered, 0);
            }
        }
    SET(s, sd->prevent, sd->prevent_next);
    SET(s, sd->prevent_next, 0);
    /* advanced.md: "Player 1 does not select a card on their very first
     * turn." (Master has no such line: M11); "Effects that prevent drawing
     * also prevent this selection."; "No deck-out victory: if you cannot
     * select a card, the game continues". */
    SET(s, s->select_owed, !(s->turns == 1 && !s->fmt->first_turn_selects) && !sd->prevent && sd->deck_left);
    NOTE(s, &s->step, sizeof s->step);
    s->step = s->fmt->first_step == DUEL_MANA ? DUEL_MANA : s->select_owed ? DUEL_SELECT : DUEL_MAIN;
    if (s->fmt->turn_begins)
        s->fmt->turn_begins(s, p);
}

/* An action of `step` by the active player: the turn's steps go forward
 * only (turn.order).  Moves the turn to that step. */
int duel_in_step(duel_judge *j, duel_step step, const char *what)
{
    duel_state *s = j->s;
    int p = player_of(j->o.ev);
    /* openlog 3: a turn's actions are announced by the player who makes
     * them -- never by the table or the judge */
    if (p < 0)
        return ILLEGAL(j, "openlog:3", "The %s %s; only a player acts in a turn's steps.", ol_by_name(j->o.ev->by),
                       what);
    /* Out of turn or out of step, a judge may let the action stand: it is
     * then made where the turn stands, which stays where it is. */
    if (p != s->turn)
        return BREAK(j, "duel:turn.order", "%s %s in %s's turn; only the active player acts in their turn's steps.",
                     who(s, p), what, who(s, s->turn)) ? -1 : 0;
    /* advanced.md: "The sequence of play follows these steps"; master.md:
     * "Its turn sequence includes additional resource steps" */
    if (s->step > step)
        return BREAK(j, "duel:turn.order", "%s %s in the %s; the %s comes before it and has passed.", who(s, p), what,
                     duel_step_words(s, s->step), duel_step_words(s, step)) ? -1 : 0;
    SET(s, s->step, step);
    return 0;
}
#define in_step duel_in_step

/* ---- the handlers -------------------------------------------------------------- */

static void do_header_again(duel_judge *j)
{
    ILLEGAL(j, "openlog:4", "A match has one header, at seq 0.");
}

/* The opening hand: Player 1 and Player 2 select the format's numbers. */
static void select_opening(duel_judge *j, int p)
{
    duel_state *s = j->s;
    if (P(s, p)->opened) {
        ILLEGAL(j, "duel:select.opening", "%s has already selected their opening hand.", who(s, p));
        return;
    }
    /* advanced.md: "Player 1: selects 5 cards. Player 2: selects 6 cards.";
     * master.md: "Player 1 (P1): selects 7 cards. Player 2 (P2): selects 8
     * cards." (the p1_hand and p2_hand levers) */
    if (j->o.ev->n_cards != s->opening[p]) {
        ILLEGAL(j, "duel:select.opening", "%s selected %zu card%s for their opening hand; Player %d selects %u.",
                who(s, p), j->o.ev->n_cards, j->o.ev->n_cards == 1 ? "" : "s", p + 1, s->opening[p]);
        return;
    }
    SET(s, P(s, p)->opened, 1);
}

static int take_selection(duel_judge *j, int p)
{
    duel_state *s = j->s;
    duel_side *sd = P(s, p);
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
        SET(s, sd->hand[sd->n_hand], h);
        SET(s, sd->n_hand, sd->n_hand + 1);
    }
    SET(s, sd->deck_left, (uint8_t)(sd->deck_left - ev->n_cards));
    return 0;
}

static void do_select(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    duel_side *sd;
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A selection is announced by the player who selects.");
        return;
    }
    sd = P(s, p);
    if (ev->n_cards > sd->deck_left) {
        ILLEGAL(j, "duel:win.no_deck_out", "%s selected %zu card%s; their deck holds %u.", who(s, p), ev->n_cards,
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
            ILLEGAL(j, "duel:select.per_turn", "%s selected %zu card%s; the effect lets them select %u.", who(s, p),
                    ev->n_cards, ev->n_cards == 1 ? "" : "s", want);
            return;
        }
        SET(s, sd->select_due, 0);
    } else if (p == s->turn && s->select_owed) {
        /* advanced.md: "you choose 1 card from your deck" (the
         * selection_rate lever); master.md: "Choose 1 card from your deck
         * and add it to your hand."; fewer only when the deck holds fewer. */
        unsigned want = s->selection_rate < sd->deck_left ? s->selection_rate : sd->deck_left;
        if (ev->n_cards != want) {
            ILLEGAL(j, "duel:select.per_turn", "%s selected %zu card%s in their Selection Step; they select %u.",
                    who(s, p), ev->n_cards, ev->n_cards == 1 ? "" : "s", want);
            return;
        }
        SET(s, s->select_owed, 0);
        SET(s, s->step, DUEL_MAIN);
    } else if (p == s->turn && s->turns == 1 && s->fmt->rule_first_turn) {
        ILLEGAL(j, s->fmt->rule_first_turn, "%s selected a card in their very first turn; Player 1 does not.",
                who(s, p));
        return;
    } else if (p == s->turn && sd->prevent) {
        ILLEGAL(j, "duel:select.prevented", "%s selected a card, but an effect prevents their selection this turn.",
                who(s, p));
        return;
    } else {
        ILLEGAL(j, "duel:select.per_turn", "%s selected a card outside a Selection Step, with no effect letting them "
                "select.", who(s, p));
        return;
    }
    if (j->o.failed || take_selection(j, p))
        return;
    if (!s->setup_done && P(s, 0)->opened && P(s, 1)->opened) {
        SET(s, s->setup_done, 1);
        begin_turn(s, 0);
    }
}

static int controls_class(const duel_state *s, int p, card_class cls)
{
    for (int i = 0; i < s->zones; i++) {
        const duel_monster *m = &s->side[p].zone[i];
        if (m->present && top(m)->cls == cls)
            return 1;
    }
    return 0;
}

static void place_monster(duel_monster *m, const card *c, int pos)
{
    memset(m, 0, sizeof *m);
    m->present = 1;
    m->pos = (uint8_t)pos;
    m->stack[0] = c;
    m->depth = 1;
}

static void do_summon(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, s->fmt->summon_step, "summoned a monster"))
        return;
    /* advanced.md: "any number of Special Summons, provided card effects
     * allow it."; master.md: "Special Summon: only if effects allow." -- no
     * effect of the core card database does (A20). */
    if (ev->kind == OL_SUMMON_SPECIAL &&
        BREAK(j, "duel:summon.special", "%s made a Special Summon, but no effect allows one.", who(s, p)))
        return;
    if (ev->kind == OL_SUMMON_MANA && !s->fmt->has_mana) {
        ILLEGAL(j, "openlog:7", "%s made a Mana Summon, which is a Master action; a summon here is normal or special.",
                who(s, p));
        return;
    }
    /* advanced.md: "the active player may also perform one Normal Summon";
     * master.md: "Normal Summon: once per turn" */
    if (ev->kind == OL_SUMMON_NORMAL && s->normal_summoned &&
        BREAK(j, "duel:summon.normal", "%s made a second Normal Summon this turn; one is allowed per turn.", who(s, p)))
        return;
    /* advanced.md: "Monster Zone: up to 7 monsters may be controlled
     * simultaneously."; master.md: "Monster Zone: up to 7 monsters
     * simultaneously." */
    if ((unsigned)ev->slot >= s->zones || P(s, p)->zone[ev->slot].present) {
        ILLEGAL(j, "duel:field.limit", "%s summoned into slot %d, which is not a free slot of their %u Monster Zones.",
                who(s, p), ev->slot, s->zones);
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The summon reveals", &c))
        return;
    if (c->kind != CARD_MONSTER) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, ev->kind == OL_SUMMON_MANA ? s->fmt->rule_mana_summon : "duel:summon.normal",
                "%s summoned %s, %s; a %s Summon places a Monster card.", who(s, p), c->name, kind,
                ev->kind == OL_SUMMON_MANA ? "Mana" : "Normal");
        return;
    }
    if (s->fmt->summon && s->fmt->summon(j, p, c))
        return;
    NOTE(s, &P(s, p)->zone[ev->slot], sizeof P(s, p)->zone[0]);
    place_monster(&P(s, p)->zone[ev->slot], c, ev->position);   /* A1: face-up, in the position announced */
    if (ev->kind == OL_SUMMON_NORMAL)
        SET(s, s->normal_summoned, 1);
}

/* A Spell or Counter is paid for as it is played (Master; Advanced cards
 * cost nothing). */
static int pay_for(duel_judge *j, int p, const card *c, duel_pay what)
{
    return j->s->fmt->pay ? j->s->fmt->pay(j, p, c, what) : 0;   /* Advanced: free */
}

static void do_spell(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    const card_effect *fx;
    /* advanced.md: "Played during your own turn." -- in the Main Phase;
     * master.md: "Main/Spell Phase: Play any number of Spells" (by a
     * player: the table's and the judge's are in_step's) */
    if (p >= 0 && p != s->turn) {
        ILLEGAL(j, "duel:spell.own_turn", "%s played a Spell in %s's turn; Spells are played in their own turn.",
                who(s, p), who(s, s->turn));
        return;
    }
    if (in_step(j, DUEL_MAIN, "played a Spell"))
        return;
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Spell reveals", &c))
        return;
    if (c->kind != CARD_SPELL) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "duel:spell.main_phase", "%s played %s as a Spell, but it is %s.", who(s, p), c->name, kind);
        return;
    }
    /* advanced.md: "you must control a face-up monster of the same
     * class."; master.md: "are class-bound (need a matching monster)." */
    if (!controls_class(s, p, c->cls)) {
        ILLEGAL(j, "duel:spell.class", "%s played %s, %s %s Spell, without controlling a face-up %s monster.", who(s, p),
                c->name, an(class_title(c->cls)), class_title(c->cls), class_title(c->cls));
        return;
    }
    int n = s->fmt->effects(c, &fx);
    if (check_targets(j, fx, n, p, c->name) || pay_for(j, p, c, DUEL_PAY_SPELL))
        return;
    NOTE(s, &s->chain[0], sizeof s->chain[0]);
    chain_link_set(&s->chain[0], ev, p, c, 1);
    s->chain[0].chose = (uint8_t)choosing(s, fx, n, p);
    SET(s, s->n_chain, 1);
    /* advanced.md: "The opponent may respond with Counters"; master.md:
     * "The opponent may respond with Counters, creating chains" */
    SET(s, s->window, DUEL_WIN_SPELL);
    SET(s, s->passed, 0);
}

/* Counter effects that act on an attack need one (A22). */
static int acts_on_attack(const duel_state *s, const card *c)
{
    const card_effect *fx;
    int n = s->fmt->effects(c, &fx);
    for (int i = 0; i < n; i++)
        if (fx[i].op == FX_FIZZLE || fx[i].target == TGT_ATTACKER || fx[i].target == TGT_DEFENDER)
            return 1;
    return 0;
}

static void do_counter(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    const card_effect *fx;
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A Counter is announced by the player who plays it.");
        return;
    }
    /* advanced.md: "Played only during the opponent’s turn or during
     * combat windows."; master.md: "Playable only on the opponent’s turn or
     * during combat windows." (the opening hands come first: obligations) */
    if (p == s->turn && s->window != DUEL_WIN_ATTACK) {
        ILLEGAL(j, "duel:counter.timing", "%s played a Counter in their own turn outside an attack's Counter Window.",
                who(s, p));
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Counter reveals", &c))
        return;
    if (c->kind != CARD_COUNTER) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "duel:counter.timing", "%s played %s as a Counter, but it is %s.", who(s, p), c->name, kind);
        return;
    }
    /* advanced.md: "Also class-bound (require a matching monster)." */
    if (!controls_class(s, p, c->cls)) {
        ILLEGAL(j, "duel:counter.class", "%s played %s, %s %s Counter, without controlling a face-up %s monster.",
                who(s, p), c->name, an(class_title(c->cls)), class_title(c->cls), class_title(c->cls));
        return;
    }
    if (acts_on_attack(s, c) && s->window != DUEL_WIN_ATTACK) {
        ILLEGAL(j, "duel:A22", "%s played %s, which acts on an attack, with no attack in its Counter Window.", who(s, p),
                c->name);
        return;
    }
    /* advanced.md: "Maximum: 3 links per player, 6 total."; master.md:
     * "Cap: 3 links per player (6 total)." (chain_cap) */
    if (s->chain_count[p] >= s->chain_cap) {
        ILLEGAL(j, "duel:chain.cap", "%s added a Counter to a chain that already holds %u of theirs; the cap is %u per "
                "player.", who(s, p), s->chain_count[p], s->chain_cap);
        return;
    }
    int n = s->fmt->effects(c, &fx);
    if (check_targets(j, fx, n, p, c->name) || pay_for(j, p, c, DUEL_PAY_COUNTER))
        return;
    unsigned chose = choosing(s, fx, n, p);
    NOTE(s, &s->chain[s->n_chain], sizeof s->chain[0]);
    chain_link_set(&s->chain[s->n_chain], ev, p, c, 0);
    s->chain[s->n_chain].chose = (uint8_t)chose;
    SET(s, s->n_chain, s->n_chain + 1);
    SET(s, s->chain_count[p], s->chain_count[p] + 1);
    if (s->window == DUEL_WIN_NONE)
        SET(s, s->window, DUEL_WIN_COUNTER);   /* A2: a Counter in the opponent's turn */
    SET(s, s->passed, 0);
}

/* A7: a pass closes the window once each player who may answer has
 * passed since the last Counter; outside a window it changes nothing. */
static void do_pass(duel_judge *j)
{
    duel_state *s = j->s;
    int p = player_of(j->o.ev);
    if (p < 0) {
        ILLEGAL(j, "openlog:3", "A pass is announced by the player who passes.");
        return;
    }
    if (s->window == DUEL_WIN_NONE)
        return;
    if (!may_answer(s, p)) {
        ILLEGAL(j, "duel:counter.timing", "%s passed in a window of their own turn where only the opponent may answer.",
                who(s, p));
        return;
    }
    SET(s, s->passed, (uint8_t)(s->passed | (1u << p)));
    for (int q = 0; q < 2; q++)
        if (may_answer(s, q) && !(s->passed & (1u << q)))
            return;
    close_window(s);
}

static void do_position(duel_judge *j)
{
    duel_state *s = j->s;
    int p = player_of(j->o.ev);
    if (in_step(j, DUEL_POSITION, "changed a monster's position"))
        return;
    duel_monster *m = monster_at(s, p, j->o.ev->slot);
    if (!m) {
        ILLEGAL(j, "duel:position.step", "%s changed the position of slot %d, which holds no monster of theirs.", who(s, p),
                j->o.ev->slot);
        return;
    }
    /* advanced.md: "Each monster can only switch once per turn"; master.md:
     * "May change AP↔DP once per monster per turn" */
    if (m->switched) {
        ILLEGAL(j, "duel:position.once", "%s's %s has already switched position this turn.", who(s, p), top(m)->name);
        return;
    }
    SET(s, m->pos, m->pos == OL_POS_AP ? OL_POS_DP : OL_POS_AP);
    SET(s, m->switched, 1);
}

/* A Prime's effects, applied as it enters (singular.entry, A4): the
 * event's targets must fit them. */
static int prime_entry(duel_judge *j, int p, const card *c, int slot)
{
    const card_effect *fx;
    int n = j->s->fmt->effects(c, &fx);
    if (check_targets(j, fx, n, p, c->name))
        return -1;
    duel_apply_effects(j->s, p, fx, n, j->o.ev->targets, (int)j->o.ev->n_targets, choosing(j->s, fx, n, p), slot);
    return 0;
}

static void do_evolve(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, DUEL_EVOLVE, "evolved a monster"))
        return;
    /* advanced.md: "once per turn globally, evolve one monster."; master.md:
     * "Once per turn globally, evolve 1 monster by paying its cost." */
    if (s->evolved &&
        BREAK(j, "duel:evolve.once", "%s evolved a second monster this turn; one evolution per turn.", who(s, p)))
        return;
    duel_monster *m = monster_at(s, p, ev->slot);
    /* advanced.md: "Only face-up monsters can evolve."; master.md: "Evolve
     * only face-up monsters." (every monster on the field is face-up, A1:
     * the slot must hold one) */
    if (!m) {
        ILLEGAL(j, "duel:evolve.face_up", "%s evolved slot %d, which holds no face-up monster of theirs.", who(s, p),
                ev->slot);
        return;
    }
    if (take_from_hand(j, p, ev->card.card, ev->nonce, "The evolution reveals", s->fmt->rule_evolve_hand, &c))
        return;
    /* advanced.md: "Exact next stage card must be in hand."; master.md:
     * "Evolutions: strengthen monsters into their next stage." */
    if (m->depth >= 3 || cards_next_stage(s->ol.db, top(m)) != c) {
        ILLEGAL(j, "duel:evolve.next_stage", "%s is not the next stage of %s's %s.", c->name, who(s, p), top(m)->name);
        return;
    }
    if (pay_for(j, p, c, DUEL_PAY_EVOLVE))
        return;
    /* advanced.md: "Place on top of predecessor"; master.md: "Pay evolution
     * cost, stack next stage on top." */
    SET(s, m->stack[m->depth], c);
    SET(s, m->depth, m->depth + 1);
    SET(s, m->evolved, 1);
    SET(s, s->evolved, 1);
    if (c->kind == CARD_PRIME_EVOLUTION) {
        SET(s, m->prime_entered, 1);
        prime_entry(j, p, c, ev->slot);
    }
}

static void do_prime(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    /* A4: a Prime Singular enters where summons do (Advanced's Main Phase,
     * Master's Summon Phase), not as the Normal Summon. */
    if (in_step(j, s->fmt->summon_step, "played a Prime Singular"))
        return;
    if (!ev->has_slot || (unsigned)ev->slot >= s->zones) {
        ILLEGAL(j, "duel:singular.entry", "%s played a Prime Singular without naming one of their %u Monster Zones to "
                "fill or replace.", who(s, p), s->zones);
        return;
    }
    int replacing = P(s, p)->zone[ev->slot].present;
    /* advanced.md: "you must control at least 2 other monsters"; master.md:
     * "must control ≥2 monsters" -- other than the one it replaces (A4) */
    int others = monsters_of(s, p) - replacing;
    if (others < 2) {
        ILLEGAL(j, "duel:singular.condition", "%s played a Prime Singular controlling %d other monster%s; it needs at "
                "least 2.", who(s, p), others, others == 1 ? "" : "s");
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The Prime Singular reveals", &c))
        return;
    if (c->kind != CARD_PRIME_SINGULAR) {
        char kind[32];
        kind_words(c, kind, sizeof kind);
        ILLEGAL(j, "duel:singular.entry", "%s played %s as a Prime Singular, but it is %s.", who(s, p), c->name, kind);
        return;
    }
    /* advanced.md: "and meet the card’s printed condition"; master.md:
     * "and meet its printed condition" */
    card_condition cond = s->fmt->printed(c);
    if (!duel_condition_met(s, p, c, cond)) {
        ILLEGAL(j, "duel:singular.condition", "%s played %s without meeting its printed condition (%s %d).", who(s, p),
                c->name, cond_kind_name(cond.kind), (int)cond.amount);
        return;
    }
    if (pay_for(j, p, c, DUEL_PAY_SINGULAR))
        return;
    /* A4: the replaced stack goes to the Graveyard; no defeat */
    if (replacing)
        leave_field(s, p, ev->slot);
    NOTE(s, &P(s, p)->zone[ev->slot], sizeof P(s, p)->zone[0]);
    place_monster(&P(s, p)->zone[ev->slot], c, OL_POS_AP);   /* A4: it enters in Attack Position */
    prime_entry(j, p, c, ev->slot);
}

/* The checks every attack declaration makes (first turn, a monster of the
 * player's, Defense Position, once per turn, switched, evolved, a Prime
 * Evolution's entry): the attacking monster, or NULL with the judgement
 * failed. */
static duel_monster *attack_checks(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    if (in_step(j, DUEL_ATTACK, "attacked"))
        return NULL;
    /* advanced.md: "Player 1 cannot attack on their first turn."; master.md:
     * "First-turn restriction: P1 cannot attack on turn 1." */
    if (s->turns == 1 &&
        BREAK(j, "duel:attack.first_turn", "%s attacked on their first turn; Player 1 cannot.", who(s, p)))
        return NULL;
    duel_monster *m = ev->has_slot ? monster_at(s, p, ev->slot) : NULL;
    if (!m) {
        ILLEGAL(j, "duel:attack.declare", "%s declared an attack without naming one of their monsters to attack with.",
                who(s, p));
        return NULL;
    }
    const char *name = top(m)->name;
    /* advanced.md: "DP: ... cannot attack"; Master: ruling M6 */
    if (m->pos != OL_POS_AP && BREAK(j, s->fmt->rule_attack_dp, "%s's %s is in Defense Position and cannot attack.",
                                     who(s, p), name))
        return NULL;
    /* advanced.md: "Each monster in AP may attack once."; master.md: "Each
     * monster may declare 1 attack per turn" */
    if (m->attacked && BREAK(j, "duel:attack.once", "%s's %s has already attacked this turn.", who(s, p), name))
        return NULL;
    /* advanced.md: "switched monsters cannot attack this turn"; master.md:
     * "(but switched monsters cannot attack this turn)" */
    if (m->switched &&
        BREAK(j, "duel:position.no_attack", "%s's %s switched position this turn and cannot attack.", who(s, p), name))
        return NULL;
    /* advanced.md: "May not attack on the turn they enter."; master.md:
     * "Cannot attack the turn they are evolved." (Prime Evolutions) */
    if (m->prime_entered &&
        BREAK(j, "duel:prime.no_attack", "%s's %s is a Prime Evolution that entered this turn and cannot attack.",
              who(s, p), name))
        return NULL;
    /* advanced.md: "After evolving, that monster cannot attack this turn.";
     * master.md: "The evolved monster cannot attack this turn." */
    if (m->evolved &&
        BREAK(j, "duel:evolve.no_attack", "%s's %s evolved this turn and cannot attack.", who(s, p), name))
        return NULL;
    return m;
}

static void do_attack(duel_judge *j)
{
    duel_monster *m = attack_checks(j);
    if (m)
        j->s->fmt->attack(j, m);
}

static void do_discard(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    int p = player_of(ev);
    const card *c;
    if (in_step(j, DUEL_END, "discarded"))
        return;
    /* advanced.md: "The active player discards down to the hand limit";
     * master.md: "Discard to 10 cards in hand." (A12) */
    if (P(s, p)->n_hand <= s->hand_limit) {
        ILLEGAL(j, "duel:end.hand_limit", "%s discarded with %u card%s in hand; a discard is only down to the hand limit "
                "of %u.", who(s, p), P(s, p)->n_hand, P(s, p)->n_hand == 1 ? "" : "s", s->hand_limit);
        return;
    }
    if (from_hand(j, p, ev->card.card, ev->nonce, "The discard reveals", &c))
        return;
    to_grave(s, p, c);
}

static void do_end(duel_judge *j)
{
    duel_state *s = j->s;
    int p = player_of(j->o.ev);
    if (in_step(j, DUEL_END, "ended the turn"))
        return;
    /* advanced.md: "The active player discards down to the hand limit";
     * master.md: "The active player must discard down to the hand limit" */
    if (P(s, p)->n_hand > s->hand_limit) {
        ILLEGAL(j, "duel:end.hand_limit", "%s ended the turn with %u cards in hand; they discard down to %u first.",
                who(s, p), P(s, p)->n_hand, s->hand_limit);
        return;
    }
    /* advanced.md: "Resolve any “until end of turn” effects."; master.md:
     * "Resolve all “until end of turn” effects." */
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < DUEL_ZONES_MAX; i++)
            if (P(s, q)->zone[i].atk_mod || P(s, q)->zone[i].def_mod) {   /* most are 0 */
                SET(s, P(s, q)->zone[i].atk_mod, 0);
                SET(s, P(s, q)->zone[i].def_mod, 0);
            }
    SET(s, P(s, p)->prevent, 0);
    SET(s, P(s, p)->mana_add, 0);   /* M9: placements an effect allowed lapse */
    /* advanced.md: "The turn ends and play passes to the opponent." */
    begin_turn(s, OTHER(p));
}

static void do_concede(duel_judge *j)
{
    if (!openlog_concede(&j->o))
        SET(j->s, j->s->step, DUEL_OVER);
}

static void do_judge(duel_judge *j)
{
    if (!openlog_ruling(&j->o) && j->s->ol.over)
        SET(j->s, j->s->step, DUEL_OVER);
}

/* A9: a claim is compared, never applied -- the winner, the defeats since
 * the last claim, and the Life Points. */
static void do_claim(duel_judge *j)
{
    duel_state *s = j->s;
    int64_t lp[2] = {s->side[0].lp, s->side[1].lp};
    char buf[OL_RULE_MAX];
    const char *rule = duel_rule(s, "duel:A9", buf);
    if (!openlog_claim_lp(&j->o, rule, lp))
        openlog_claim(&j->o, rule, "Monster Zone");
}

/* One handler per event type both formats have (SPEC.md 7.2, 7.4); a
 * format adds its own (duel_format.own); a type with neither is not the
 * format's (verifier.c judges it, openlog:7). */
static const duel_handler handlers[OL_TYPE_COUNT] = {
    [OL_MATCH] = do_header_again, [OL_SELECT] = do_select,     [OL_SUMMON] = do_summon,
    [OL_SPELL] = do_spell,        [OL_COUNTER] = do_counter,   [OL_PASS] = do_pass,
    [OL_POSITION] = do_position,  [OL_EVOLVE] = do_evolve,     [OL_PRIME] = do_prime,
    [OL_ATTACK] = do_attack,      [OL_DISCARD] = do_discard,    [OL_END] = do_end,           [OL_CONCEDE] = do_concede,
    [OL_CLAIM] = do_claim,        [OL_JUDGE] = do_judge,
};

static duel_handler handler_of(const duel_format *fmt, ol_type t)
{
    return fmt->own[t] ? fmt->own[t] : handlers[t];
}

int duel_has_type(const duel_format *fmt, ol_type t)
{
    return (unsigned)t < OL_TYPE_COUNT && handler_of(fmt, t) != NULL;
}

/* What must come before anything else: the opening selections, an
 * effect's selection (A11), the Selection Step (select.per_turn), the
 * format's own.  judge, claim and concede are never held up. */
static int check_obligations(duel_judge *j)
{
    duel_state *s = j->s;
    const olevent *ev = j->o.ev;
    ol_type t = ev->type;
    int by = player_of(ev);
    if (t == OL_JUDGE || t == OL_CLAIM || t == OL_CONCEDE || t == OL_MATCH)
        return 0;
    if (!s->setup_done && t != OL_SELECT)
        return ILLEGAL(j, "duel:select.opening", "The opening hands come first: Player 1 selects %u cards and Player 2 "
                       "selects %u before any other action.", s->opening[0], s->opening[1]);
    for (int p = 0; p < 2; p++)
        if (P(s, p)->select_due && !(t == OL_SELECT && by == p))
            return ILLEGAL(j, "duel:select.per_turn", "%s must first select the %u card%s an effect gave them.", who(s, p),
                           P(s, p)->select_due, P(s, p)->select_due == 1 ? "" : "s");
    if (s->fmt->obligations && s->fmt->obligations(j))
        return -1;
    /* advanced.md: "At the beginning of each of your turns, you choose 1
     * card from your deck to add to your hand."; master.md: "At the start
     * of your turn, you select 1 card from your deck" -- after Master's
     * Mana Step */
    if (s->setup_done && s->select_owed && !(t == OL_SELECT && by == s->turn) &&
        !(t == OL_MANA && by == s->turn && s->step == DUEL_MANA))
        return ILLEGAL(j, "duel:select.per_turn", "%s's turn begins with the Selection Step: they select before any other "
                       "action.", who(s, s->turn));
    return 0;
}

/* The codec reads Snap's active slot "a"; these formats have numbered
 * Monster Zones only (SPEC.md 7.2, 7.4). */
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

void duel_apply(duel_state *s, const olevent *ev, olverdict *v)
{
    char buf[OL_RULE_MAX];
    const char *over_rule = duel_rule(s, "duel:win.immediate", buf);
    olverdict_set(v, ev->match, ev->seq, OL_V_OK, NULL, NULL);
    /* A refused header started no match: every event cites the rule it
     * broke; else the game is over (win.immediate). */
    if (openlog_over(&s->ol, ev, v, s->refused[0] ? s->refused : over_rule,
                     s->refused[0] ? "The match cannot start: a deck in its header is illegal."
                                   : "The game is over; no action may follow its end."))
        return;
    if (snap_slot_named(ev)) {
        olverdict_set(v, ev->match, ev->seq, OL_V_ILLEGAL, "openlog:7", "The event names the slot \"a\", which is Snap's; "
                      "%s Monster Zones are numbered from 0.", s->fmt->format == OL_FORMAT_MASTER ? "Master" : "Advanced");
        return;
    }
    close_by_silence(s, ev);   /* A7: by arriving, whatever the event's fate */
    if (openlog_over(&s->ol, ev, v, over_rule, "The game ended when the last window resolved; no action may follow its "
                     "end."))
        return;
    /* R12: an illegal event changes nothing.  The handlers (here and the
     * format's) judge in place and note each write in an undo log first
     * (DUEL_SET, DUEL_NOTE: verifiers/undo.h), which puts the bytes back
     * when the event fails; a legal event costs the bytes it changes.
     * `spare` is touched only if the log overflows (or in a checking build). */
    duel_state spare;
    undo_log u;
    undo_begin(&u, s, sizeof *s, &spare, UNDO_JOURNAL, s->fmt->prefix);
    UNDO_SET(&u, s->ol.undo, &u);
    duel_judge j = {{&s->ol, ev, v, 0}, s};
    if (!check_obligations(&j))
        handler_of(s->fmt, ev->type)(&j);
    s->ol.undo = NULL;
    undo_end(&u, j.o.failed);
    /* advanced.md: "Decision shot-clock: 45 seconds."; master.md:
     * "Shot-clock: 60 seconds per decision." */
    openlog_clock(&s->ol, ev, v, s->fmt->clock_ms, s->fmt->clock_rule);
}

void duel_silence(duel_state *s)
{
    if (!s->ol.over)
        close_window(s);
}

void duel_unverifiable(const duel_state *s, unsigned out[2])
{
    for (int p = 0; p < 2; p++) {
        out[p] = 0;
        for (int i = 0; i < s->side[p].n_hand; i++)
            out[p] += !openlog_known(&s->side[p].hand[i]);
        for (int i = 0; i < s->side[p].n_mana; i++)
            out[p] += !openlog_known(&s->side[p].mana[i].card);
    }
}

int duel_finished(const duel_state *s, int *winner)
{
    if (winner)
        *winner = s->ol.over ? s->ol.winner : -1;
    return s->ol.over && (s->setup_done || s->ol.winner >= 0);
}

unsigned duel_round(const duel_state *s)
{
    return s->setup_done ? (s->turns + 1) / 2 : 0;
}

int duel_check_invariants(const duel_state *s)
{
    for (int p = 0; p < 2; p++) {
        const duel_side *sd = &s->side[p];
        if (sd->lp < 0 || (sd->lp == 0 && !s->ol.over))
            return 1;
        /* a monster only in one of the match's zones, a stack of 1-3 cards */
        for (int i = 0; i < DUEL_ZONES_MAX; i++) {
            const duel_monster *m = &sd->zone[i];
            if (m->present && (i >= s->zones || m->depth < 1 || m->depth > 3))
                return 3;
        }
        if (s->chain_count[p] > s->chain_cap)
            return 4;
        for (int c = 0; c < CLASS_COUNT; c++) {
            int n = 0;
            for (int i = 0; i < sd->n_mana; i++)
                n += sd->mana[i].cls == c;
            if (sd->spent[c] > n)
                return 5;
        }
        /* M5: a monster's kept DEF change is what the Ongoing Spells on
         * the field keep for it, and each of them changed one there */
        for (int i = 0; i < DUEL_ZONES_MAX; i++) {
            int32_t kept = 0;
            for (int q = 0; q < 2; q++)
                for (int k = 0; k < s->side[q].n_ongoing; k++)
                    if (s->side[q].ongoing[k].p == p && s->side[q].ongoing[k].slot == i)
                        kept += s->side[q].ongoing[k].def;
            if (kept != sd->zone[i].def_kept)
                return 6;
        }
        for (int k = 0; k < sd->n_ongoing; k++)
            if (!s->side[sd->ongoing[k].p].zone[sd->ongoing[k].slot].present)
                return 6;
    }
    return 0;
}

/* ---- the engine behind verifier.h (DUEL_VERIFIER_OPS) ---------------------------- */

void duel_ops_apply(void *st, const olevent *ev, olverdict *v)
{
    duel_apply(st, ev, v);
}

void duel_ops_log_ended(void *st)
{
    duel_silence(st);
}

int duel_ops_finished(const void *st, int *winner)
{
    return duel_finished(st, winner);
}

unsigned duel_ops_round(const void *st)
{
    return duel_round(st);
}

void duel_ops_unverified(const void *st, unsigned out[OL_PLAYERS_MAX])
{
    duel_unverifiable(st, out);
}

/* T5 of TOURNAMENT.md: the LP each player took from the other. */
void duel_ops_score(const void *st, int64_t out[OL_PLAYERS_MAX], int64_t *base)
{
    const duel_state *s = st;
    for (int p = 0; p < 2; p++)
        out[p] = (int64_t)s->starting_lp - s->side[!p].lp;
    *base = s->starting_lp;
}

int duel_ops_board_json(const void *st, const openlog_sight *sight, jtext *t)
{
    return duel_board_json(st, sight, t);
}

int duel_ops_board_words(const void *st, const openlog_sight *sight, jtext *t)
{
    return duel_board_words(st, sight, t);
}

int duel_ops_encode(const void *st, jtext *t)
{
    return duel_encode(st, t);
}

/* A selection's cards (into the hand) and a card placed face-down as mana
 * (Master; its class is public, SPEC.md 7.4): their owner's. */
size_t duel_ops_hidden(const olevent *ev, const olevent *header, verifier_hidden_field out[VERIFIER_HIDDEN_MAX])
{
    int owner = openlog_player_of(ev);
    (void)header;
    switch (ev->type) {
    case OL_SELECT:
        out[0] = (verifier_hidden_field){"cards", 1, SIZE_MAX, owner};
        return 1;
    case OL_MANA:
        out[0] = (verifier_hidden_field){"card", 0, 0, owner};
        return 1;
    default:
        return 0;
    }
}
