/* rules.c -- the catalogue of every rule id the classic Snap engine may cite.
 *
 * WHAT.  One table, one row per rule: its id, the sentence of the rulebook
 * (classic-snap.md) it rests on, verbatim, and a one-line summary.  The
 * rulebook has no numbered sections, so an id is a name, as Advanced's:
 * classic:<topic>.<rule> (classic:snap.first_caller); the rulings of
 * verifiers/classic/RULINGS.md that verdicts cite are classic:A<n>, quoting
 * the ruling's answer.
 *
 * WHY.  A verdict is only as good as a judge's ability to check it: every
 * id the engine cites is a row here, every row's quote must still be found
 * word for word in the rulebook (tests/e2e_rule_quotes.sh), and every id the
 * engine cites has a test that makes it cite it (tests/e2e_rule_coverage.sh).
 *
 * HOW.  Rows are in rulebook order; verifiers/classic/README.md maps every
 * sentence of the rulebook, the non-normative ones too, to its row.  Quotes
 * keep the rulebook's typography (“Snap!”, ’).
 *
 * Pure: data and one function.
 */
#include <stddef.h>

#include "verifiers/classic/classic.h"

/* Spelled CLASSIC("deal.even") so that this table, which cites nothing,
 * does not count as citing (tests/e2e_rule_coverage.sh). */
#define CLASSIC(x) "classic:" x

static const verifier_rule rules[] = {
    {CLASSIC("players"), "Two to four players is standard, but the game can be played with more players.",
     "A match has two to eight players, seated clockwise p1 to pN."},
    {CLASSIC("deck.decks"),
     "Larger groups of players may wish to make a bigger deck by shuffling two or more decks together.",
     "The deck is every card of the card database, once per deck the decks lever names, and all of it is dealt."},
    {CLASSIC("deal.one_at_a_time"),
     "One player deals the cards one at a time into face-down stacks in front of each player.",
     "The table deals every player one face-down stack, before the first flip; dealt one at a time from the "
     "dealer's left, the extra cards go to the first players from there."},
    {CLASSIC("deal.even"),
     "The stacks may not all be even if the number of people playing the game of snap does not go evenly into "
     "the number of cards, but they should be as close as possible.",
     "No stack holds more than one card more than another."},
    {CLASSIC("play.first"),
     "Generally, the player to the left of the dealer begins, or it is common to allow the youngest player to "
     "go first.",
     "The first flip is the first lever's player's, or the dealer's left neighbour's."},
    {CLASSIC("play.clockwise"), "Play then proceeds clockwise.",
     "After a flip the next player still in on the left flips."},
    {CLASSIC("flip.stack"), "Players leave their stacks of cards face down in front of them.",
     "A player flips the top card of their own face-down stack, and only that."},
    {CLASSIC("flip.common"),
     "In the simplest version of the game of snap, each player quickly flips the card from the top of his or "
     "her stack face up onto a common discard pile.",
     "With the common_pile lever every flip lands on one common discard pile."},
    {CLASSIC("match.value"),
     "If the card has the same value as the card previously played, such as the previous player played the "
     "four of clubs and the current player plays the four of hearts, players must yell out the word “Snap!”",
     "Two cards match when their values are equal, whatever their suits."},
    {CLASSIC("snap.first_caller"),
     "The first player who yells “Snap!” gets to take the discard pile, shuffle it together, and place it on "
     "the bottom of his or her stack of cards.",
     "The first right call by the table's time takes the matched cards, shuffled, under the caller's stack."},
    {CLASSIC("simple.out"), "A player who runs out of cards to flip is out of the game.",
     "In the common-pile variant a player whose turn comes with no card to flip is out."},
    {CLASSIC("piles.own"),
     "When a player takes his or her turn, he or she quickly flips the top card from the face-up stack to the "
     "discard pile.",
     "Without the common_pile lever each player flips onto their own discard pile."},
    {CLASSIC("piles.match"),
     "The first player to notice two discard piles with a common value face up and yell “Snap!” gets to take "
     "those two piles, shuffle them, and place them on the bottom of his or her face-down pile.",
     "A Snap takes the discard piles whose tops match, and only those."},
    {CLASSIC("piles.turn_over"),
     "In this version of the game of snap, a player who runs out of face-down cards shuffles his or her "
     "discard pile and flips it over as a new face-down stack.",
     "A player with no face-down card turns their discard pile over before they flip, and only then."},
    {CLASSIC("pot.tie"),
     "In either variation, if two or more players yell “Snap!” at the same time, the disputed cards are set "
     "aside in a separate face-up pile, called the \"snap pot,\" with the matching cards on top.",
     "Right calls of the same word within the tie window put the matched cards on the snap pot; no one takes."},
    {CLASSIC("pot.snap_pot"),
     "If at any time a player plays a card that matches the card on top of the snap pot, the first player to "
     "yell “Snap Pot!” adds both the snap pot and the appropriate discard pile to the bottom of his or her "
     "face-down stack of cards.",
     "The first right Snap Pot! call takes the pot and the pile whose top matches it."},
    {CLASSIC("pot.grows"),
     "If there is a tie in yelling “Snap Pot!” or if another tie occurs before the snap pot is collected, the "
     "snap pot simply grows larger to include the cards disputed in the new tie.",
     "A tie on a Snap Pot! adds the matching pile to the pot."},
    {CLASSIC("prop"),
     "For too many ties in a game, players can be required to grab a physical prop as they yell “Snap!”, such "
     "as the joker or an index card with the label “Snap!” on it.",
     "With the prop lever calls never tie: the first by time takes."},
    {CLASSIC("penalty.pay"),
     "If a player makes an error, either by yelling “Snap!” when there is no match or by interchanging "
     "“Snap!” and “Snap Pot!”, he or she must pay a penalty by immediately giving a face-down card to each "
     "player still in the game to put on the bottom of that player's face-down pile, starting with the player "
     "on his or her left.",
     "A wrong call pays one face-down card to each other player still in, from the caller's left."},
    {CLASSIC("out.cards"),
     "If a player runs out of cards, either by not having enough cards to pay a penalty or by losing all of "
     "his or her cards to another player’s “Snap!”, then he or she is eliminated.",
     "A player who cannot pay a penalty, or has no card left, is out and may not flip or call."},
    {CLASSIC("end.winner"), "Once all but one player has been eliminated, the remaining player wins.",
     "The last player still in wins."},
    {CLASSIC("end.draw"),
     "It is sometimes possible for all likely matches to be locked away in the snap pot; if this should "
     "happen, the game is a draw between all surviving players.",
     "When no match can happen any more outside the snap pot, the game is a draw."},

    /* ---- arbiter's rulings (RULINGS.md) ------------------------------- */
    {CLASSIC("A2"),
     "A call is judged against the piles as they stood at its `at`; flips are announced in the order of their "
     "`at`, and a flip or a call whose `at` is earlier than a call the table has already resolved is announced "
     "too late.",
     "Time is the table's clock: calls are judged by it, and nothing is announced about a moment already "
     "settled."},
    {CLASSIC("A4"),
     "When the table announces the first consequence of a window's calls, the engine lists them all, in the "
     "time order of the calls they answer; each take, pot and penalty must be the next of them, and no flip is "
     "announced until the last has been.",
     "The table resolves the calls in their time order, before play goes on."},
    {CLASSIC("A15"),
     "A call waits for the table's next resolution, however many flips come after it; a call the table never "
     "resolves is caught by the next take, pot or penalty announced, which must come after its consequence, or "
     "at the latest by the claim of the end: the game does not end while a consequence is due.",
     "A forgotten call is caught at the next resolution, or at the end."},
};

RULE_CATALOGUE(classic_rules, rules)
