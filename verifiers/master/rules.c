/* rules.c -- the catalogue of every rule id the Master engine may cite.
 *
 * WHAT.  One table, one row per rule: its id, the sentence of master.md it
 * rests on (or, for a ruling, the ruling's answer in RULINGS.md), and a
 * one-line summary.  The ids are those of the verdicts (openlog.md 8):
 * master:<section>.<rule>, as Advanced's (verifiers/advanced/rules.c gives
 * the conventions, which this table follows): a rule Master shares with
 * Advanced has the same name in both catalogues, since verifiers/duel.c
 * cites it once for both ("duel:summon.normal").  The deck ids are those
 * deck_check cites (verifiers/deck.c); master:levers is the Balance Levers
 * list as a whole, which the lever table of the open log cites.
 *
 * WHY.  A judge can check a verdict only against the words it leans on:
 * every id the engine cites is a row here with those words, and
 * tests/e2e_rule_coverage.sh fails when the engine cites an id that is not.
 *
 * HOW.  Rows in rulebook order (the order of the quotes in master.md), the
 * rulings last; quotes verbatim, lines joined by one space and list markers
 * dropped.  A sentence stating two rules gives each its clause.
 *
 * Pure: static data and one function.
 */
#include <stddef.h>

#include "verifiers/master/master.h"

#define MASTER(x) "master:" x   /* not a literal id: this table cites nothing */

static const verifier_rule rules[] = {
    {MASTER("win.lp_zero"), "Reduce opponent’s LP from 8000 (default) to 0.",
     "A player wins by bringing the opponent's Life Points down to 0."},
    {MASTER("win.no_deck_out"), "No deck-out win or loss: the game continues even if you cannot select.",
     "An empty deck ends nothing: a player with nothing to select selects nothing and plays on."},
    {MASTER("deck.size"), "60 cards total (Monsters, Spells, Counters in one deck).",
     "A deck holds exactly 60 cards (the deck_size lever)."},
    {MASTER("deck.copies"), "Copy limit: up to 3 copies of each card.",
     "At most 3 copies of a card, by name."},
    {MASTER("deck.primes"), "Exceptions: Prime Evolutions and Prime Singulars are 1× (singleton).",
     "One copy of each Prime Evolution and Prime Singular."},
    {MASTER("cards.data"), "Each format (here: Master) defines stats, costs, and abilities dynamically.",
     "The card database gives every Master stat, cost and effect; the engine applies them as data."},
    {MASTER("select.per_turn"), "At the start of your turn, you select 1 card from your deck and add it to your hand.",
     "Each turn's Selection Step selects one card, before anything but the Mana Step."},
    {MASTER("attack.condition"), "Condition (e.g., “requires ≥3 mana of same class,” “usable once per game”).",
     "An attack's printed condition must be met when it is declared."},
    {MASTER("field.ongoing"), "Ongoing Spells: remain on the field (count toward board presence).",
     "An Ongoing Spell stays on the field once it resolved (M5)."},
    {MASTER("spell.class"), "Require mana to cast; are class-bound (need a matching monster).",
     "A Spell needs a face-up monster of its class on its player's side."},
    {MASTER("counter.timing"), "Playable only on the opponent’s turn or during combat windows.",
     "A Counter is played in the opponent's turn or in an attack's Counter Window."},
    {MASTER("counter.cost"), "Require mana; are class-bound.",
     "A Counter is paid for in mana as it is played."},
    {MASTER("counter.class"), "Require mana; are class-bound.",
     "A Counter needs a face-up monster of its class on its player's side."},
    {MASTER("evolve.next_stage"), "Evolutions: strengthen monsters into their next stage.",
     "An evolution is the exact next stage of the monster, from the hand."},
    {MASTER("field.limit"), "Monster Zone: up to 7 monsters simultaneously. Evolved stacks count as 1.",
     "Seven Monster Zones; a stack is one monster."},
    {MASTER("mana.zone"), "Mana Zone: face-down cards used as mana (see §6.1).",
     "The Mana Zone holds face-down cards whose class is public (M1)."},
    {MASTER("end.hand_limit"), "Hand: max 10 cards at end of turn.",
     "The active player discards down to the hand limit (10, the hand_limit lever) before the turn ends."},
    {MASTER("win.starting_lp"), "Starting LP: 8000 each.",
     "Each player starts with 8000 LP unless the starting_lp lever says otherwise."},
    {MASTER("select.opening"), "Player 1 (P1): selects 7 cards. Player 2 (P2): selects 8 cards.",
     "The opening hands: 7 and 8 cards (p1_hand, p2_hand), before anything else."},
    {MASTER("attack.first_turn"), "First-turn restriction: P1 cannot attack on turn 1.",
     "Player 1 declares no attack in the first turn."},
    {MASTER("mana.step"), "At the start of your turn, you may place 1 card from hand face-down into your Mana Zone.",
     "The Mana Step places up to mana_rate cards from the hand as mana."},
    {MASTER("mana.class"), "Each card provides 1 mana of its class color (Coreon = red, Fluxion = blue, Synaphera = "
     "green, Obscura = black, Aetherion = white/neutral).",
     "A mana card gives mana of its own class; the class announced must be the card's."},
    {MASTER("mana.permanent"), "Mana remains permanently unless removed by effects.",
     "Mana stays in the zone until an effect removes it."},
    {MASTER("spell.cost"), "Play any number of Spells by paying their mana costs.",
     "A Spell is paid for exactly in ready mana as it is played (M2)."},
    {MASTER("spell.main_phase"), "Play any number of Spells by paying their mana costs.",
     "Spells are played in the Main/Spell Phase, and a card played as a Spell must be one."},
    {MASTER("spell.resolve"), "Instant Spells → Graveyard; Ongoing Spells → remain face-up.",
     "A resolved Spell goes to the Graveyard unless it is Ongoing."},
    {MASTER("summon.normal"), "Normal Summon: once per turn, you may summon a monster without mana cost if ≤ Level 3.",
     "One free Normal Summon a turn, of a Monster card of level 3 or below."},
    {MASTER("summon.mana"), "Mana Summon: play any monster by paying its mana cost.",
     "A Mana Summon pays the Monster's cost, any number a turn."},
    {MASTER("summon.special"), "Special Summon: only if effects allow.",
     "A Special Summon needs an effect that allows it (none in the core set)."},
    {MASTER("position.step"), "Monsters may be set to Attack Position (AP) or Defense Position (DP).",
     "Position changes happen in the Position Step, to the player's own monsters."},
    {MASTER("position.once"), "May change AP↔DP once per monster per turn",
     "A monster switches position at most once a turn."},
    {MASTER("position.no_attack"), "(but switched monsters cannot attack this turn)",
     "A monster that switched this turn declares no attack."},
    {MASTER("evolve.once"), "Once per turn globally, evolve 1 monster by paying its cost.",
     "One evolution a turn, for all the player's monsters together."},
    {MASTER("evolve.stack"), "Place the next stage on top of its predecessor.",
     "The evolution is stacked on the monster: the same monster, grown."},
    {MASTER("evolve.no_attack"), "The evolved monster cannot attack this turn.",
     "A monster that evolved this turn declares no attack."},
    {MASTER("attack.once"), "Each monster may declare 1 attack per turn",
     "A monster declares at most one attack a turn."},
    {MASTER("attack.choose"), "(choose 1 of its available attacks)",
     "An attack is one of the monster's own attacks, by index."},
    {MASTER("attack.cost"), "Pay the attack’s mana cost and check its condition.",
     "An attack's cost is paid exactly in ready mana as it is declared (M2)."},
    {MASTER("end.effects"), "Resolve “until end of turn” effects.",
     "Changes that last until the end of the turn end with it."},
    {MASTER("attack.target"), "Target (LP, opposing monster, board, or global).",
     "An attack that chooses a monster aims at one of the opponent's (M7)."},
    {MASTER("combat.destroy"), "If damage ≥ DEF: monster is destroyed (stack goes to Graveyard).",
     "Damage at least the DEF destroys the monster and its stack."},
    {MASTER("combat.fails"), "If damage < DEF: attack fails, unless effect says otherwise.",
     "Damage below the DEF does nothing."},
    {MASTER("attack.direct"), "If opponent controls no monsters, monsters may attack LP directly.",
     "A direct attack only when the opponent controls no monsters."},
    {MASTER("combat.direct"), "LP damage = listed value of the chosen attack.",
     "A direct attack's damage is lost as Life Points."},
    {MASTER("mana.pay"), "Mana provides colored resources to pay costs.",
     "Costs are paid in mana by class (M2)."},
    {MASTER("mana.remove"), "Some effects manipulate mana (add, remove, lock).",
     "An effect's mana_remove is carried out, card by card, before anything else (M10)."},
    {MASTER("evolve.face_up"), "Evolve only face-up monsters.",
     "Only a monster on the field evolves."},
    {MASTER("evolve.cost"), "Pay evolution cost, stack next stage on top.",
     "An evolution pays its cost exactly in ready mana (M2)."},
    {MASTER("evolve.graveyard"), "If top card is destroyed, the stack is destroyed.",
     "A destroyed stack goes to the Graveyard whole."},
    {MASTER("prime.no_attack"), "Cannot attack the turn they are evolved.",
     "A Prime Evolution declares no attack in the turn it entered."},
    {MASTER("singular.condition"), "Conditions: must control ≥2 monsters and meet its printed condition (e.g., ≤2000 LP).",
     "A Prime Singular needs two other monsters and its printed condition."},
    {MASTER("singular.entry"), "When played, may replace an active monster or occupy an empty slot.",
     "A Prime Singular fills an empty zone or replaces one of the player's monsters (A4)."},
    {MASTER("singular.cost"), "Mana Summon: play any monster by paying its mana cost.",
     "A Prime Singular pays its cost as a Mana Summon does (A4)."},
    {MASTER("chain.counters_only"), "Only Counters create chains.",
     "Chains are built of Counters."},
    {MASTER("chain.lifo"), "LIFO resolution.",
     "A chain resolves last-in first-out."},
    {MASTER("chain.cap"), "Cap: 3 links per player (6 total).",
     "At most chain_cap Counters of a player in one chain."},
    {MASTER("win.immediate"), "A player wins when the opponent’s LP reaches 0.",
     "The game ends at 0 LP; nothing but a ruling or a claim follows its end."},
    {MASTER("clock.shot"), "Shot-clock: 60 seconds per decision.",
     "A decision slower than 60 s is a warning."},
    {MASTER("turn.order"), "Its turn sequence includes additional resource steps:",
     "The steps come in the Timing Sequence's order, never revisited (A21)."},
    {MASTER("select.prevented"), "Opponents cannot interfere unless a card explicitly prevents selection.",
     "An effect that prevents selection removes the next Selection Step (A14)."},
    {MASTER("spell.own_turn"), "The active player may cast any number of Spells, paying their mana costs.",
     "Spells are played by the active player, in their own turn."},
    {MASTER("window.spell"), "The opponent may respond with Counters, creating chains that resolve in LIFO order.",
     "After a Spell the opponent may answer with Counters."},
    {MASTER("attack.declare"), "Attack Declaration: The chosen monster and attack option are declared, along with the "
     "target (another monster or directly to LP if allowed).",
     "An attack names its monster, its attack and its target."},
    {MASTER("window.attack"), "Counter Window: Opponents may respond with Counters before the attack resolves.",
     "An attack opens a Counter Window before it resolves."},
    {MASTER("levers"), "LP: 6000 (faster), 8000 (default), 10000 (epic).",
     "The Balance Levers are header levers (SPEC.md 5)."},
    {MASTER("field.from_hand"), "Every card that enters play or the Mana Zone -- summoned, cast, evolved into, played as "
     "a Prime Singular, placed as mana, discarded -- comes from its player's hand.",
     "Cards come from the hand (M12)."},
    /* ---- arbiter's rulings (verifiers/master/RULINGS.md: each answer) ----- */
    {MASTER("A1"), "A summoned monster is face-up, in Attack Position or Defense Position as the `summon` "
     "event says. The only face-down cards of Master are in the Mana Zone.",
     "Summons are face-up, in the position announced."},
    {MASTER("A2"), "A `spell` opens a window in which only the opponent answers; an `attack` opens the "
     "attack's Counter Window, where both players answer (A8); a Counter played in the "
     "opponent's turn with no window open starts a chain of its own. A summon, a mana "
     "placement, a position change, an evolution, a Prime Singular and a discard open no "
     "window.",
     "Which events open a Counter Window."},
    {MASTER("A3"), "Yes, whether Normal- or Mana-Summoned, and so may a Prime Singular; a Prime Evolution "
     "may not (`master:prime.no_attack`), nor any monster that evolved "
     "(`master:evolve.no_attack`).",
     "A monster may attack in the turn it was summoned."},
    {MASTER("A4"), "It is played from the hand with a `prime` event in the Summon Phase, as its own action "
     "(not the turn's Normal Summon), paying its cost as a Mana Summon does "
     "(`master:singular.cost`). `slot` names an empty Monster Zone or one of the player's "
     "monsters to replace (the replaced stack goes to the Graveyard and is no defeat). \"≥2 "
     "monsters\" counts the player's monsters other than the one it replaces. It enters in "
     "Attack Position and its printed effects apply at once, with the event's `targets`.",
     "A Prime Singular."},
    {MASTER("A6"), "Life Points change one effect at a time; the first player whose LP reaches 0 loses at "
     "once and nothing more resolves.",
     "Both players at 0 LP."},
    {MASTER("A7"), "As in Advanced: the next event that is not a Counter, a pass, a claim or a ruling closes "
     "the window, whatever its own verdict; then the chain resolves last-in first-out, then "
     "the attack.",
     "Windows close by silence."},
    {MASTER("A8"), "In a Spell's window, and in a chain a Counter started, only the opponent of the active "
     "player; in an attack's Counter Window both players.",
     "Who may answer in a window."},
    {MASTER("A9"), "A `claim` names a winner, the monsters defeated since the last claim, or both players' "
     "Life Points; any that differs from the engine's finding is a `mismatch` citing "
     "`master:A9`.",
     "Claims are compared, never applied."},
    {MASTER("A11"), "An effect that selects cards obliges its controller to `select` that many (fewer only "
     "when the deck holds fewer) before any other action.",
     "An effect's selection."},
    {MASTER("A12"), "`discard` is an End Phase action, allowed only while the hand holds more cards than "
     "`hand_limit` (default 10); `end` with more is illegal.",
     "Discards."},
    {MASTER("A14"), "An effect that prevents drawing removes the target player's next Selection Step.",
     "Selection prevented."},
    {MASTER("A15"), "A monster destroyed by an attack's damage or by an effect is defeated; one replaced by a "
     "Prime Singular is not. A fizzled attack resolves none of its effects (its cost stays "
     "paid). An attack whose attacker was destroyed or turned to Defense Position, or whose "
     "target monster is gone, resolves none of its effects.",
     "Defeats, fizzled attacks, attacks whose attacker or target is gone."},
    {MASTER("A16"), "A monster destroyed by an attack's damage or by an effect is defeated; one replaced by a "
     "Prime Singular is not. A fizzled attack resolves none of its effects (its cost stays "
     "paid). An attack whose attacker was destroyed or turned to Defense Position, or whose "
     "target monster is gone, resolves none of its effects.",
     "Defeats, fizzled attacks, attacks whose attacker or target is gone."},
    {MASTER("A17"), "A monster destroyed by an attack's damage or by an effect is defeated; one replaced by a "
     "Prime Singular is not. A fizzled attack resolves none of its effects (its cost stays "
     "paid). An attack whose attacker was destroyed or turned to Defense Position, or whose "
     "target monster is gone, resolves none of its effects.",
     "Defeats, fizzled attacks, attacks whose attacker or target is gone."},
    {MASTER("A20"), "No effect of the core card database allows one: every `summon` of kind `special` is "
     "illegal (`master:summon.special`).",
     "Special Summons."},
    {MASTER("A21"), "Mana Step, Selection Step, Main/Spell Phase, Summon Phase, Position Step, Evolution "
     "Step, Attack Phase, End Phase, in that order, never revisited: a Spell after a summon, "
     "or a mana placement after the selection, is illegal (`master:turn.order`).",
     "The steps go forward."},
    {MASTER("A22"), "A Counter any of whose effects acts on the attack (`fizzle`, or an effect on the "
     "`attacker` or `defender`) may be played only in an attack's Counter Window.",
     "Counters written against an attack."},
    {MASTER("A27"), "When a card is played, an effect whose target is chosen but has no candidate at all is "
     "left out: the event names no target for it, and it does nothing. Naming a target for it, "
     "or leaving out an effect that had a candidate, is illegal (`master:A27` when an effect "
     "was left out, else `openlog:7`).",
     "An effect with nothing to choose."},
    {MASTER("M1"), "In the Mana Step of their turn (before the Selection Step) the active player may place "
     "up to `mana_rate` cards (default 1) from the hand into the Mana Zone, one `mana` event "
     "each. The card is face-down: its identity travels as any hidden card's does -- its id in "
     "open mode, the hand card's commitment in commit mode, `null` in announced mode -- but "
     "its **class is announced and public**. In open mode the class must be the card's "
     "(`master:mana.class`); in announced mode the decklist must still hold an unused card of "
     "that class beside the Mana Zone's other unrevealed cards of that class (`openlog:6`), and "
     "a card revealed from the hand later must leave one for each of them (`openlog:6`); in "
     "commit mode the class is checked when the card is revealed (`master:mana.class`). A Mana "
     "Zone card that is never revealed counts as unverified, as a hand card does.",
     "A card placed as mana."},
    {MASTER("M2"), "Each mana card pays once per turn of its controller: once it has paid it is spent, and "
     "every mana card of a player is ready again when that player's next turn begins (mana "
     "spent on a Counter in the opponent's turn is ready again at the start of the player's "
     "own). An event that costs mana names its payment, `pay`, by class; the payment must be "
     "exact: each class part of the cost paid with mana of that class, the `any` part with "
     "mana of any class, no more and no less; and the player must have that much ready mana of "
     "each class named. A free action carries no payment.",
     "Paying: ready and spent mana, exact payments."},
    {MASTER("M3"), "A `class_mana_min` condition counts the player's Mana Zone cards of the card's class, "
     "ready or spent; it is not a payment. The attack's cost is paid besides.",
     "\"requires ≥3 mana of same class\"."},
    {MASTER("M4"), "In the Summon Phase: the Normal Summon, once per turn, places a Monster card (a stage 1 "
     "or line-less monster) of level 3 or below, free; a Mana Summon places a Monster card of "
     "any level, paying its `cost`, any number of times a turn. A Prime Singular is played as "
     "A4 says, paying its cost (`master:singular.cost`).",
     "Summons."},
    {MASTER("M5"), "A Spell the card database marks `ongoing` (core@1.1.0: those that only change DEF) "
     "resolves as an instant one does, then stays face-up in its controller's Spell/Support "
     "Zone instead of going to the Graveyard. A DEF change it made lasts while it stays, not "
     "until the end of the turn. It goes to the Graveyard when the monster it changed leaves "
     "the field; one that changed no monster (negated, or its target gone before it resolved) "
     "goes there at once. An Ongoing Spell does nothing more each turn. The zone has no size "
     "limit.",
     "Ongoing Spells."},
    {MASTER("M6"), "A monster's DEF is the same in either position. A monster in Defense Position cannot "
     "declare an attack.",
     "Positions."},
    {MASTER("M7"), "An `attack` names the attacking monster (`slot`), the attack by its index in the card's "
     "list (`attack`), a `target` and its payment. An attack whose effects choose a monster "
     "aims at one of the opponent's monsters, or -- when the opponent controls none -- at the "
     "opponent (a direct attack). An attack whose effects choose no monster names the "
     "opponent. A `once_per_game` attack is once per game for that card's attack of that "
     "index, whatever monster of the player declares it again.",
     "What an attack names."},
    {MASTER("M8"), "When its Counter Window closes, the attack's effects apply in order. `damage` against a "
     "monster destroys it (with its whole stack) when the damage is at least its DEF, "
     "modifiers included; less does nothing; no Life Points are lost. With no monster to aim "
     "at, `damage` is lost by the opponent as LP. `self` is the attacking monster; a DEF "
     "change lasts until the end of the turn.",
     "The attack resolves."},
    {MASTER("M9"), "`mana_add` lets its controller place up to `amount` more cards as mana with `mana` "
     "events, at any time until the end of that turn; the placements are optional and lapse "
     "then.",
     "Mana an effect adds."},
    {MASTER("M10"), "`mana_remove` obliges the target player to send that many of their Mana Zone cards "
     "(fewer when the zone holds fewer) to the Graveyard, one `mana_remove` event each, "
     "revealing the card, before any other action. A removed card is taken from the spent mana "
     "of its class first.",
     "Mana an effect removes."},
    {MASTER("M11"), "Player 1 places mana and selects in their first turn; only attacks are barred.",
     "Player 1's first turn."},
    {MASTER("M12"), "Every card that enters play or the Mana Zone -- summoned, cast, evolved into, played as "
     "a Prime Singular, placed as mana, discarded -- comes from its player's hand.",
     "Cards come from the hand."},
    {MASTER("M13"), "A deck holds `deck_size` cards (lever, default 60); a header whose deck does not is "
     "illegal (`master:deck.size`), as is one breaking any other construction rule.",
     "The deck and its size."},
};

RULE_CATALOGUE(master_rules, rules)
