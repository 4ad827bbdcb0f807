/* rules.c -- the catalogue of every rule id the Advanced engine may cite.
 *
 * WHAT.  One table, one row per rule: its id, the sentence of the rulebook
 * it rests on, and a one-line summary.  The ids are those of the verdicts
 * (openlog.md 8).  advanced.md has no numbered sections, so an id is a name:
 * advanced:<section>.<rule>, lowercase, [a-z0-9_.], where the section is the
 * topic of the rule (win, deck, cards, select, position, spell, counter,
 * field, attack, evolve, combat, prime, singular, chain, clock, log, turn,
 * summon, window, end) and the rule a short name for what it says
 * (advanced:attack.once, advanced:combat.ap_vs_dp).  The four deck ids
 * (advanced:deck.size, .monsters, .copies, .primes) are the ones deck_check
 * cites (verifiers/deck.c).  One id has no rule part: advanced:levers, the
 * Balance Levers list as a whole, which the lever table of the open log
 * (logformat/olevent.c) cites for every Advanced lever.  The wire contract's
 * own ids (openlog:commit) are not here: they belong to the contract, not
 * to the Advanced rules.
 *
 * WHY.  A verdict is only as good as a judge's ability to check it.  So the
 * engine never invents a rule id in the middle of its code: every id it
 * cites is a row here, and the row carries the EVIDENCE-OF line -- the exact
 * words the verdict leans on -- which a report or a judge's view can print
 * next to the verdict.  Because the ids are data, tests can enumerate them:
 * every id the engine can cite must have a test that makes the engine cite
 * it, and every quote must still be found, word for word, in the rulebook
 * it claims to come from.  A rulebook revision that moves or rewords a rule
 * then fails a test instead of silently changing what verdicts mean.  The
 * ids being names rather than positions, a revision that only moves a rule
 * keeps its id; one that changes what the rule says gets a new id.
 *
 * HOW.  Conventions of the table:
 *  - Rows are in rulebook order: the order in which their quotes appear in
 *    advanced.md.  Purely non-normative text (the title, the introduction
 *    and its duration, playstyle and audience bullets, the descriptive
 *    bullets of the card types, the match length target, the first
 *    sentence of the Timing Sequence) is left out.
 *  - The rulebook states many rules twice or three times (the Turn
 *    Structure, the Timing Sequence, Victory & End of Game and the
 *    Tournament Guidelines repeat earlier sections).  Because an id names a
 *    rule, not a place, such a rule has one row, quoting the statement that
 *    decides it; verifiers/advanced/README.md maps every sentence of
 *    advanced.md, repeats included, to its id.  A repeat that adds something
 *    gets its own row for what it adds (the Timing Sequence's draw
 *    prevention, the windows that do or do not open, "both players" in an
 *    attack's Counter Window).
 *  - A quote is copied verbatim, UTF-8 included (typographic apostrophes
 *    and quotation marks, en dashes, arrows).  Where it spans lines of the
 *    source, the lines are joined by one space and the list markers that
 *    begin them (bullets, the numbers of numbered lists) are dropped;
 *    nothing else is changed, except that the no-break spaces (U+00A0)
 *    advanced.md puts around its emphasised words are written as ordinary
 *    spaces: quotes are compared with the rulebook after whitespace is
 *    normalised, and an invisible character in a C string would only
 *    mislead the next editor.  A quote may be one clause of a sentence when
 *    the sentence states two rules (advanced:evolve.stack and
 *    advanced:evolve.graveyard share one).
 *
 * Pure: no I/O, no allocation; lookups are a linear scan (the table is under
 * a hundred rows and verdicts cite rules far less often than the engine does
 * anything else).
 */
#include <stddef.h>

#include "verifiers/advanced/rules.h"

/* The ids are spelled ADVANCED("attack.once") rather than as one literal:
 * the rule coverage check (tests/e2e_rule_coverage.sh) counts every quoted
 * advanced id in the C files of verifiers/advanced/ as a citation, and this
 * table cites nothing -- it lists what may be cited. */
#define ADVANCED(x) "advanced:" x

static const verifier_rule rules[] = {
    /* ---- Win Condition ------------------------------------------------- */
    {ADVANCED("win.lp_zero"), "Reduce your opponent’s LP (Life Points) to 0.",
     "A player wins by bringing the opponent's Life Points down to 0."},
    {ADVANCED("win.starting_lp"), "Starting LP: 6000 per player (tournament default).",
     "Each player starts with 6000 LP unless the starting_lp lever says otherwise."},
    {ADVANCED("win.no_deck_out"),
     "No deck-out victory: if you cannot select a card, the game continues.",
     "An empty deck ends nothing: a player who has nothing left to select selects nothing and plays on."},

    /* ---- Deck Size & Construction (cited by deck_check, verifiers/deck.c) */
    {ADVANCED("deck.size"), "40 cards total (Monsters, Spells, and Counters all in one deck).",
     "A deck is exactly 40 cards, Monsters, Spells and Counters together."},
    {ADVANCED("deck.monsters"), "Must include at least 5 Monsters (to fill your field).",
     "A deck holds at least 5 Monster cards (Monsters or Prime Singulars)."},
    {ADVANCED("deck.copies"), "Copy limits: up to 2 copies of each card.",
     "A deck holds at most 2 copies of any card, counted by name."},
    {ADVANCED("deck.primes"),
     "Exceptions: Prime Evolutions and Prime Singulars are limited to 1 copy.",
     "A deck holds at most 1 copy of each Prime Evolution and each Prime Singular."},

    /* ---- Format-Neutral Cards ------------------------------------------ */
    {ADVANCED("cards.data"),
     "ATK/DEF values, abilities, and effects are determined by the Advanced ruleset and "
     "displayed via companion data.",
     "A card's ATK, DEF and effects are those of the card database the match names, never the log's."},

    /* ---- Card Selection ------------------------------------------------ */
    {ADVANCED("select.per_turn"),
     "At the beginning of each of your turns, you choose 1 card from your deck to add to your hand.",
     "At the start of each of their turns a player chooses one card of their deck and adds it to their hand."},
    {ADVANCED("select.no_draw"), "No random drawing occurs.",
     "Nothing is ever drawn at random: every card that reaches the hand is chosen."},

    /* ---- Card Types ---------------------------------------------------- */
    {ADVANCED("cards.monster"),
     "Each monster has: ATK (Attack value) DEF (Defense value) Class (Coreon, Fluxion, "
     "Synaphera, Obscura, Aetherion)",
     "Every monster has an ATK, a DEF and one of the five classes."},
    {ADVANCED("position.kinds"),
     "Monsters can be placed in Attack Position (AP) or Defense Position (DP). "
     "Positions define which stat is used in battle.",
     "A monster on the field is in Attack Position or Defense Position, which decides the stat it fights with."},
    {ADVANCED("spell.own_turn"), "Played during your own turn.",
     "A Spell is played only during its player's own turn."},
    {ADVANCED("spell.class"),
     "Require class-matching: you must control a face-up monster of the same class.",
     "A Spell is played only while its player controls a face-up monster of the Spell's class."},
    {ADVANCED("counter.timing"),
     "Played only during the opponent’s turn or during combat windows.",
     "A Counter is played only during the opponent's turn or in a combat's Counter Window."},
    {ADVANCED("counter.class"), "Also class-bound (require a matching monster).",
     "Like a Spell, a Counter needs a face-up monster of its class under its player's control."},

    /* ---- Field & Zones ------------------------------------------------- */
    {ADVANCED("field.limit"), "Monster Zone: up to 7 monsters may be controlled simultaneously.",
     "A player controls at most 7 monsters at once (the monster_zones lever may lower it)."},
    {ADVANCED("field.from_hand"), "Spells and Counters are played from hand",
     "A Spell or Counter must be in its player's hand to be played."},
    {ADVANCED("field.ongoing"), "Ongoing Spells remain face-up.",
     "An Ongoing Spell stays face-up on the field after it is played."},
    {ADVANCED("field.graveyard"), "Graveyard: all destroyed monsters and used cards.",
     "Destroyed monsters and used Spells and Counters go to the Graveyard."},
    {ADVANCED("field.hand"), "Hand: cards selected into hand, subject to hand size limit.",
     "Cards reach the hand by selection, and the hand is held to the hand size limit (advanced:end.hand_limit)."},

    /* ---- Game Setup ---------------------------------------------------- */
    {ADVANCED("select.opening"),
     "Starting hands: Player 1: selects 5 cards. Player 2: selects 6 cards.",
     "The opening hand is 5 chosen cards for Player 1 and 6 for Player 2."},
    {ADVANCED("attack.first_turn"), "Player 1 cannot attack on their first turn.",
     "Player 1 declares no attack on their first turn."},
    {ADVANCED("select.first_turn"), "Player 1 does not select a card on their very first turn.",
     "Player 1 has no selection on their first turn."},

    /* ---- Turn Structure ------------------------------------------------ */
    {ADVANCED("position.step"),
     "Position Step: change monster positions (AP↔DP, once per monster per turn; switched "
     "monsters cannot attack this turn).",
     "Monsters change position in the Position Step, after the Main Phase and before the Evolution Step."},
    {ADVANCED("evolve.once"), "Evolution Step (optional): once per turn globally, evolve one monster.",
     "A player may evolve at most one monster per turn, in the Evolution Step."},
    {ADVANCED("evolve.no_attack"), "Evolved monsters cannot attack this turn.",
     "A monster that evolved this turn cannot attack this turn."},
    {ADVANCED("attack.once"), "Each monster in AP may attack once.",
     "Each monster in Attack Position may declare at most one attack per turn."},
    {ADVANCED("attack.target"), "Targets: opponent’s monsters; if none remain, attack directly.",
     "An attack targets one of the opponent's monsters, or the opponent directly when they have none."},

    /* ---- Combat System: Attack Positions ------------------------------- */
    {ADVANCED("attack.ap"),
     "AP: monster uses its ATK value; deals damage to opponent’s LP if attacking directly.",
     "A monster in Attack Position fights with its ATK, and its direct attack damages the opponent's LP."},
    {ADVANCED("attack.dp"),
     "DP: monster uses its DEF value; cannot attack, and if destroyed usually prevents LP damage.",
     "A monster in Defense Position fights with its DEF and cannot attack; its destruction deals no LP damage."},

    /* ---- Combat System: Combat Resolution ------------------------------ */
    {ADVANCED("combat.ap_vs_ap"), "AP vs AP: Higher ATK destroys lower; difference dealt as LP damage.",
     "When two AP monsters fight, the higher ATK destroys the lower and the difference is dealt as LP damage."},
    {ADVANCED("combat.ap_vs_ap_tie"), "Equal ATK = both destroyed, no damage.",
     "When two AP monsters of equal ATK fight, both are destroyed and no LP damage is dealt."},
    {ADVANCED("combat.ap_vs_dp"),
     "AP vs DP: ATK > DEF: defender destroyed, no LP damage (unless Pierce). "
     "ATK = DEF: no destruction. ATK < DEF: no destruction, no damage.",
     "Against a DP monster, ATK above its DEF destroys it and anything less destroys nothing; no LP damage is dealt."},
    {ADVANCED("attack.direct"), "Direct attacks: allowed if opponent controls no monsters",
     "A direct attack may be declared only when the opponent controls no monsters."},
    {ADVANCED("combat.direct"), "LP damage = attacker’s ATK.",
     "A direct attack deals the attacker's ATK as damage to the opponent's LP."},

    /* ---- No Keywords in Base Release ----------------------------------- */
    {ADVANCED("cards.no_keywords"),
     "In this core ruleset, Advanced monsters use only ATK/DEF and Evolutions. Special abilities "
     "(Blocker, Disruptor, etc.) are reserved for later expansions.",
     "Advanced monsters have no keyword abilities: no Blocker, Disruptor or the like."},

    /* ---- Special Mechanics: Evolution Rules ---------------------------- */
    {ADVANCED("evolve.face_up"), "Only face-up monsters can evolve.",
     "Only a face-up monster may be evolved."},
    {ADVANCED("evolve.next_stage"), "Exact next stage card must be in hand.",
     "A monster evolves only into the card of its exact next stage, played from its player's hand."},
    {ADVANCED("evolve.stack"), "Place on top of predecessor",
     "The Evolution is placed on top of the monster it evolves; the stack is one monster."},
    {ADVANCED("evolve.graveyard"), "defeated stacks go to Graveyard as a unit.",
     "A destroyed evolved monster goes to the Graveyard with its whole stack."},

    /* ---- Special Mechanics: Prime Evolutions --------------------------- */
    {ADVANCED("prime.third_stage"), "Third-stage evolutions, limited to 1 copy.",
     "A Prime Evolution is the third stage of a line and is evolved into by the Evolution rules (1 copy: advanced:deck.primes)."},
    {ADVANCED("prime.no_attack"), "May not attack on the turn they enter.",
     "A Prime Evolution cannot attack on the turn it enters play."},

    /* ---- Special Mechanics: Prime Singulars ---------------------------- */
    {ADVANCED("singular.condition"),
     "Conditions: you must control at least 2 other monsters and meet the card’s printed "
     "condition (e.g., ≤2000 LP).",
     "A Prime Singular is played only while its player controls at least 2 other monsters and meets the card's own condition."},
    {ADVANCED("singular.entry"), "Played by replacing an active monster or filling an empty slot.",
     "A Prime Singular enters by replacing one of its player's monsters or by taking an empty monster zone."},

    /* ---- Chains & Counterplay ------------------------------------------ */
    {ADVANCED("chain.counters_only"), "Only Counters create chains.",
     "Only Counters are links of a chain; what they answer (a Spell, an attack) is not."},
    {ADVANCED("chain.lifo"), "LIFO resolution.",
     "A chain resolves last in, first out: the Counter played last resolves first."},
    {ADVANCED("chain.cap"), "Maximum: 3 links per player, 6 total.",
     "A chain holds at most 3 Counters of each player, 6 in all."},

    /* ---- Victory & End of Game ----------------------------------------- */
    {ADVANCED("win.immediate"), "A player wins immediately if their opponent’s LP reaches 0.",
     "The game ends the moment a player's LP reaches 0, and their opponent wins."},

    /* ---- Tournament Guidelines ----------------------------------------- */
    {ADVANCED("clock.shot"), "Decision shot-clock: 45 seconds.",
     "A player has 45 seconds for each decision."},
    {ADVANCED("log.declare"), "Open log: players must declare all selections and plays aloud.",
     "Every selection and every play is announced, so each is an event of the log."},

    /* ---- Timing Sequence ----------------------------------------------- */
    {ADVANCED("turn.order"), "The sequence of play follows these steps:",
     "A turn runs Turn Start, Selection Step, Main Phase, Position Step, Evolution Step, Attack Phase and End Phase, in that order."},
    {ADVANCED("turn.start"), "Nothing resolves automatically.",
     "Nothing happens by itself at the start of a turn."},
    {ADVANCED("select.prevented"), "Effects that prevent drawing also prevent this selection.",
     "An effect that prevents drawing also prevents the Selection Step's selection."},
    {ADVANCED("select.no_interference"),
     "The opponent cannot interfere unless a card explicitly restricts selection.",
     "The opponent cannot answer a selection; only a card that restricts selection affects it."},
    {ADVANCED("spell.main_phase"),
     "The active player may play any number of Spells, as long as class-binding is respected "
     "(a face-up monster of the same class must be controlled).",
     "In the Main Phase the active player may play any number of Spells, each needing a face-up monster of its class."},
    {ADVANCED("spell.resolve"), "Spells resolve one by one.",
     "Each Spell resolves, with its chain, before the next one is played."},
    {ADVANCED("window.spell"),
     "The opponent may respond with Counters, which create chains resolved last-in, first-out (LIFO).",
     "After each Spell the opponent may respond with Counters, which chain and resolve last in, first out."},
    {ADVANCED("summon.normal"),
     "During this phase, the active player may also perform one Normal Summon (placing a monster "
     "without cost)",
     "In the Main Phase the active player may Normal Summon one monster per turn, at no cost."},
    {ADVANCED("summon.special"), "any number of Special Summons, provided card effects allow it.",
     "A Special Summon is made only when a card effect allows it, as many times as effects allow."},
    {ADVANCED("position.once"), "Each monster can only switch once per turn",
     "A monster changes position at most once per turn."},
    {ADVANCED("position.no_attack"), "monsters that switched this turn cannot attack.",
     "A monster that changed position this turn cannot attack this turn."},
    {ADVANCED("position.no_response"),
     "The opponent cannot respond to a simple position change unless an effect triggers it.",
     "A position change opens no Counter window unless an effect triggers on it."},
    {ADVANCED("evolve.no_response"), "Counters may only interfere if a specific card allows it.",
     "An Evolution opens no Counter window unless a specific card allows one."},
    {ADVANCED("attack.declare"),
     "Attack Declaration: The attacking player announces which monster is attacking and its target.",
     "An attack names its attacking monster and its target (a monster, or the opponent for a direct attack)."},
    {ADVANCED("window.attack"),
     "Counter Window: Before damage resolves, both players may play Counters.",
     "After an attack is declared and before its damage, both players may play Counters."},
    {ADVANCED("end.effects"), "Resolve any “until end of turn” effects.",
     "Effects that last until end of turn end in the End Phase."},
    {ADVANCED("end.hand_limit"), "The active player discards down to the hand limit (normally 9 cards).",
     "In the End Phase the active player discards down to 9 cards in hand (the hand_limit lever)."},
    {ADVANCED("end.pass"), "The turn ends and play passes to the opponent.",
     "The End Phase ends the turn and the opponent's turn begins."},

    /* ---- Balance Levers & Variants (the header's rules map) ----------- */
    {ADVANCED("levers"),
     "Starting LP: 5000 (faster), 6000 (default), 8000 (longer). Monster zones: 5 (smaller "
     "boards) or 7 (default). Hand limit: 7–10 depending on playstyle. Selection rate: 1 per "
     "turn (default), 2 for higher tempo.",
     "The starting_lp, monster_zones, hand_limit and selection_rate levers vary these defaults for a match."},

    /* ---- arbiter's rulings (verifiers/advanced/RULINGS.md: each answer) -- */
    {ADVANCED("A1"),
     "A summoned monster is face-up, in Attack Position or Defense Position as the `summon` event "
     "says.",
     "Summons are face-up, in the position announced."},
    {ADVANCED("A2"),
     "A `spell` opens a window in which the chain forms; an `attack` opens the attack's Counter "
     "Window; a Counter played in the opponent's turn with no window open starts a chain of its "
     "own. A summon, a position change, an evolution, a Prime Singular and a discard open no "
     "window.",
     "Which events open a Counter Window."},
    {ADVANCED("A3"),
     "Yes; so may a Prime Singular in the turn it entered. A Prime Evolution may not "
     "(`advanced:prime.no_attack`), nor any monster that evolved (`advanced:evolve.no_attack`).",
     "A monster may attack in the turn it was summoned."},
    {ADVANCED("A4"),
     "It is played from the hand with a `prime` event in the Main Phase, as its own action: it is "
     "not the turn's Normal Summon. `slot` names an empty Monster Zone to fill, or one of the "
     "player's monsters to replace: the replaced stack goes to the Graveyard and is no defeat. "
     "\"At least 2 other monsters\" counts the player's monsters other than the one it replaces. "
     "It enters in Attack Position, and its printed effects apply at once, with the event's "
     "`targets`.",
     "A Prime Singular."},
    {ADVANCED("A5"),
     "In AP vs AP the difference is dealt to the controller of the monster with the lower ATK. AP "
     "vs DP never deals LP damage: no monster of the base release has Pierce.",
     "Combat damage, and Pierce."},
    {ADVANCED("A6"),
     "Life Points change one effect or one combat at a time; the first player whose LP reaches 0 "
     "loses at once and nothing more resolves, so both players cannot reach 0 together.",
     "Both players at 0 LP."},
    {ADVANCED("A7"),
     "A window closes when an event arrives that is neither a Counter nor a pass (nor a claim or a "
     "ruling), or when each player who may answer has passed since the last Counter; at the end of "
     "a log an open window closes. Its chain then resolves last-in first-out, then an attack's "
     "damage. The arrival closes it whatever that event's own verdict: an illegal action closes "
     "the window too (as Snap's A26), and is then judged -- and changes nothing else.",
     "Windows close by silence."},
    {ADVANCED("A8"),
     "In a Spell's window, and in a chain a Counter started, only the opponent of the active "
     "player plays Counters; in an attack's window both players do.",
     "Who may answer in a window."},
    {ADVANCED("A9"),
     "A `claim` names a winner, the monsters defeated since the last claim, or both players' Life "
     "Points; any that differs from the engine's finding is a `mismatch` citing `advanced:A9`.",
     "Claims are compared, never applied."},
    {ADVANCED("A10"),
     "In every turn but Player 1's first, the active player's first action is `select`, with "
     "`selection_rate` cards (fewer only when the deck holds fewer, none when it is empty); nobody "
     "acts before it. Under draw prevention there is no Selection Step that turn.",
     "The Selection Step comes first."},
    {ADVANCED("A11"),
     "A Spell whose effect selects cards obliges its controller to `select` that many (fewer only "
     "when the deck holds fewer) before any other action.",
     "An effect's selection."},
    {ADVANCED("A12"),
     "`discard` is an End Phase action, allowed only while the hand holds more cards than "
     "`hand_limit`; `end` with more is illegal.",
     "Discards."},
    {ADVANCED("A13"),
     "It is not the monster's Position Step change: it does not use the once-per-turn switch and "
     "does not stop the monster attacking (a monster left in Defense Position cannot attack "
     "anyway).",
     "A position switched by an effect."},
    {ADVANCED("A14"),
     "An effect that prevents drawing removes the target player's next Selection Step.",
     "Draw prevention."},
    {ADVANCED("A15"),
     "A monster destroyed by combat or by an effect is defeated (for claims and for the "
     "`own_defeated_min` / `opp_defeated_min` conditions); one replaced by a Prime Singular is "
     "not.",
     "What counts as defeated."},
    {ADVANCED("A16"),
     "It deals no damage and destroys nothing; the attacker has used its attack this turn.",
     "A fizzled attack."},
    {ADVANCED("A17"),
     "If a Counter destroyed the target, or destroyed the attacker or turned it to Defense "
     "Position, the attack ends without damage.",
     "An attack whose target or attacker is gone."},
    {ADVANCED("A18"),
     "The new stage keeps the position and the modifiers in force until the end of the turn.",
     "Evolution keeps the monster's position and modifiers."},
    {ADVANCED("A19"),
     "Every Spell of the base card database is instant: it goes to the Graveyard once it resolves. "
     "The card database has no \"ongoing\" property; `advanced:field.ongoing` applies to no card "
     "yet (the Master issue settles whether the database needs one).",
     "No Spell stays on the field."},
    {ADVANCED("A20"),
     "No effect of the base card database allows a Special Summon, so every `summon` of kind "
     "`special` is illegal (`advanced:summon.special`).",
     "Special Summons."},
    {ADVANCED("A21"),
     "A turn's steps come in the rulebook's order and are never revisited: a Spell after an "
     "attack, or a position change after an evolution, is illegal (`advanced:turn.order`).",
     "The steps go forward."},
    {ADVANCED("A22"),
     "A Counter any of whose effects acts on the attack (`fizzle`, or an effect on the `attacker` "
     "or `defender`) may be played only in an attack's Counter Window.",
     "Counters written against an attack."},
    {ADVANCED("A23"),
     "`chain_cap` (default 3) Counters per player in one chain, so twice that in all; the Spell "
     "that began a chain is not one of its Counters.",
     "The chain cap."},
    {ADVANCED("A24"),
     "The player must control a face-up monster of the card's class when the Spell or Counter is "
     "played; what happens to that monster before the card resolves does not matter.",
     "Class binding is checked when the card is played."},
    {ADVANCED("A25"),
     "Before the first turn both players select their opening hands (Player 1 5 cards, Player 2 "
     "6), in either order, and nothing else happens before both have.",
     "The opening hands."},
    {ADVANCED("A26"),
     "A player has `monster_zones` Monster Zones (default 7), numbered from 0; a summon needs a "
     "free one. Snap's active slot `\"a\"` names none (`openlog:7`).",
     "Monster Zones."},
    {ADVANCED("A27"),
     "When a card is played, an effect whose target is chosen (`own_monster`, `opp_monster`, "
     "`monster`, `chain_link`) but has no candidate at all is left out: the event names no target "
     "for it, and it does nothing. Naming a target for it, or leaving out an effect that had a "
     "candidate, is illegal (`advanced:A27` when an effect was left out, else `openlog:7`).",
     "An effect with nothing to choose."},
};

RULE_CATALOGUE(advanced_rules, rules)
