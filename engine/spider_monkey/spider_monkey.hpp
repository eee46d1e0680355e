// Spider Monkey, 2-8 players, one standard 52-card deck without jokers.
//
// Everyone gets a face-down line of four cards nobody may look at; the rest is the stockpile,
// whose top card starts the discard pile. All players then peek at two of their own cards at the
// same time. In turn, from the dealer's left, a player draws from the stockpile (then keeps the
// card in place of one of theirs, or discards it) or takes the top discard (which must replace
// one of theirs). The card that goes to the pile opens a slap window: every other player may
// slap cards of the same rank from their own line onto the pile, first come first served. A
// wrong card costs two unseen penalty cards. A discarded Jack lets its player swap any two
// cards on the table unseen, a Queen lets them look at any one card. At the end of a turn a
// player may call "Spider Monkey": everyone else takes one more turn, then all cards are
// revealed and the lowest sum wins (A = 1, J 11, Q 12, K 13, K♦ 0). A player left with no
// cards after a slap window wins at once.
//
// Choices (docs/rules/spider-monkey.md, SM-1..SM-19):
// - Seat n-1 deals round 1, seat 0 starts; cards are dealt one at a time clockwise from the
//   dealer's left into slots 0..3, so with a test deck order seat k's slot r holds card r*n+k.
//   Later rounds (cumulative play) move the dealer one seat left and reshuffle all 52 cards.
// - Peek: one simultaneous window (peekTimeoutS); a seat that has not peeked when it times out
//   peeks slots 0 and 1.
// - Slap window after every turn's discard, always opened and always of slapWindowMs, for every
//   other player holding a card. A slap is an ordered list of one's own slots; it is sent as one
//   SLAP{slot} action per card, in order (an ordered list of any length would make the legal
//   list enormous, while a player may send several slaps in one window anyway), and each player
//   ends their part with SLAP_DONE. The window closes on its timeout, once every eligible
//   player is done or has nothing left to slap, or at the first wrong card in mode END. Legal
//   slaps never depend on the cards: any own slot held when the window opened may be slapped;
//   correctness is judged on apply (SM-18). In CONTINUE_NEW a later card of the original rank is
//   therefore judged wrong (it costs two cards) rather than refused, since refusing it would tell
//   the slapper their card. CONTINUE_BOTH accepts the original rank and the rank of the latest
//   wrong card.
// - Whenever a card must come from an empty stockpile (a draw or a penalty card), the discards
//   under the top card are shuffled into a new stockpile first (SM-7); when nothing can be
//   rebuilt, drawing is illegal (the player must take the discard) and a penalty gives what there
//   is. Penalty cards cannot be slapped in the window that gave them (SM-17): each player slaps
//   at most the cards it held when the window opened, so every window is finite.
// - The J/Q power is offered after the window to the player whose turn discard it was, then
//   the call. USE_JACK{a, b} is sent as two picks, JACK{seat, slot} for a, then for b (once
//   the first is picked the swap must be completed): one pick per action keeps the legal list
//   linear in the cards on the table rather than quadratic. The caller takes no more turns
//   but may still slap and be targeted; once somebody has called, the call step is skipped.
// - Zero cards after a window: all such players win together, the round is scored (0 for
//   them) and ends. At the reveal the lowest sum wins, ties shared.
// - cutForDiscard: the first discard is a card cut from a random depth of the stockpile, picked
//   by the room's one seeded generator like every other random choice (SM-3,
//   docs/rules/README.md C3).
// - cumulative: rounds are added up until some total exceeds 120; lowest total wins.
// - turnTimeoutS is read by the room's turn timer; the engine's part is fallback_action, the
//   SM-19 default (draw, discard the drawn card, no power, no call; slap-done in a window).
// - SM-16 has no turn limit; the engine stops a game after kMaxTurns turns (the round in play is
//   revealed and scored as if called), far beyond any real game, so that every game provably
//   ends and max_actions is a true bound.
//
// Views: public are each line's slot ids ("lines", in order), the whole discard pile, the
// stockpile count, phase, window, who acts, the call, the last turn, slap ranks, totals, the
// last round's reveal and, once the game is over, every line's cards ("revealed"). Nobody ever sees
// a face-down card in the view, not even its owner, until the reveal at the end of the game:
// players learn their cards through one-shot private events (peek, Queen look, the card they drew
// or placed). The player holding a drawn card sees it until it is placed or discarded.
// Labels and event texts number slots from 1 (slot id + 1), as players count.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/game.hpp"

namespace campfire::spider_monkey {

inline constexpr int kLineStart = 4;
inline constexpr int kCumulativeLimit = 120;
inline constexpr int kMaxTurns = 1000;
inline constexpr int kMaxPlayers = 8;
// Slot ids restart at 0 each round; a round gains at most 2 per wrong slap, and has at most
// kMaxTurns windows of at most 51 slaps, so ids stay far below this (the schema's bound).
inline constexpr int kMaxSlotId = 1000000;

// Points of a card at the reveal: A = 1, 2-10 face value, J 11, Q 12, K 13, K♦ 0.
int points(Card c);

// Cumulative play (SM-15): adds a round's scores to the running totals and says whether the
// game is over (some total now exceeds kCumulativeLimit).
bool add_round(std::vector<int>& totals, const std::vector<int>& round_scores);

// Action kinds.
enum Move : std::uint8_t {
  kPeek = 1,          // slotA, slotB (slotA < slotB)
  kDrawStock = 2,     //
  kReplace = 3,       // slot
  kDiscardDrawn = 4,  //
  kTakeDiscard = 5,   // slot
  kSlap = 6,          // slot
  kSlapDone = 7,      //
  kUseJack = 8,       // seat, slot: the first, then the second card of a swap
  kUseQueen = 9,      // seat, slot
  kSkipPower = 10,    //
  kEndTurn = 11,      // call (0 or 1)
};

const Game& game();

}  // namespace campfire::spider_monkey
