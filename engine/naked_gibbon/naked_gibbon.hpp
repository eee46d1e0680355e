// Naked Gibbon v2.4, 2-6 players: a cheat-and-doubt game around a campfire.
//
// 52 cards and 0-2 jokers. Each gibbon holds 3 cards: hand cards (private) and face-up table
// cards on three limb slots, some of which may carry a face-down burnmark. On a turn the gibbon
// may first moult (spot moult: one hand card of at most the fire number goes face up onto a free
// slot, the rest of the hand is discarded and redrawn; fire bath: the whole hand is discarded
// and redrawn face up as table cards), then either jumps or doubts:
//   hands up   a non-heart hand card above the fire number, face up;
//   chest up   a table card above the fire number (any suit; a joker is always one above);
//   panic      the top card of the deck, face up: the same or higher succeeds, lower crashes;
//   back flip  a hand card face down, promised to be a heart above the fire (fire +1, K -> 1);
//   side flip  a hand card face down, promised to be a non-heart of the fire number;
//   doubt      turn over the latest card of another gibbon, if it went face down.
// A face-up ace (or joker over a king) drops the fire to 1; a face-up card sets the fire to its
// number. Whoever fails (crash, caught lie, false doubt) is punished: with an exposed table card
// (one not on a burnmark) the lowest exposed card becomes a burnmark and the rest is redrawn;
// otherwise the gibbon gets naked (the hand goes face up onto the table). Then the fire is
// discarded. A gibbon who burns the last limb (3 burnmarks) loses its tail and the round.
//
// Choices (docs/rules/naked-gibbon.md, NG-1..NG-26): seat n-1 deals the first round, so seat 0
// starts; cards are dealt one at a time clockwise from the dealer's left (with a test deck order
// the k-th card of the deck is the k-th card dealt). Aces count 14 themselves, only the fire
// drops to 1 (NG-3). A face-down promise is checked against the fire number when it was played
// (NG-7). The detailed rule decides who starts after a doubt (NG-12): a rightful doubter starts
// the new fire at once (a jump, no moulting), otherwise the player left of the one punished
// starts on a normal turn. The burnmark is the lowest exposed table card, joker counted 15, ties
// to the lowest slot (NG-13). The owner places naked or fire-bath cards on free slots only when
// it matters (NG-14); the fallback puts the lowest cards on burned slots. The hat is given after
// the burnmark (NG-16). Every draw tops the gibbon up to 3 cards; an empty deck is refilled from
// the discards, else from the fire minus each gibbon's latest card (NG-9).
//
// Extensions (options): heartlessHat (on by default), veterans (a hidden burnmark in slot 1 for
// everyone), neverMyTail (2 burnmarks burn the tail), survival (the burned gibbon drops out, the
// last one wins), lossesToEndMatch (several rounds; the loser swaps seats with a player of their
// choice and deals the next round).
//
// A rule of this engine, not of the text (docs/rules/naked-gibbon.md NG-25): a round ends after
// kRoundTurnLimit jumps and doubts. The loser is then the first gibbon out (Survival) or else the
// gibbon with most burnmarks, ties going to the first of them clockwise from the one to play.
// The bound only guarantees that every game ends: over 10,000 random games of every size the
// longest round had 211 jumps and doubts (bench/game_lengths.cpp).
//
// Views: public are the fire number, every play in the fire (owner, jump, fire before and after,
// and the card if it went face up), which cards can be doubted, the last doubt and its revealed
// card, every gibbon's hand size, table cards, burned slots, hat, out and losses, deck and discard
// sizes and cards waiting to be placed. A gibbon also sees its own hand and its own face-down
// cards in the fire. Nobody sees the deck, discards or burnmark cards.
#pragma once

#include <cstdint>

#include "engine/core/game.hpp"
#include "engine/core/standard_cards.hpp"

namespace campfire::naked_gibbon {

inline constexpr int kSlots = 3;
inline constexpr int kRoundTurnLimit = 1000;

// The five ways to jump onto (or over) the fire.
enum class Jump : std::uint8_t { kHandsUp, kChestUp, kRandom, kBackFlip, kSideFlip };

// Action kinds.
enum Move : std::uint8_t {
  kSpotMoult = 1,  // args: hand card, slot
  kFireBath = 2,
  kPlace = 3,     // args: a slot for each card waiting to be placed, in order
  kHandsUp = 4,   // args: hand card
  kChestUp = 5,   // args: slot
  kRandom = 6,    // the panic jump
  kBackFlip = 7,  // args: hand card
  kSideFlip = 8,  // args: hand card
  kDoubt = 9,     // args: seat
  kSwap = 10,     // args: seat
};

// The fire number after a face-down promise (back flip: one more, 13 -> 1; side flip: same).
constexpr int promised_fire(Jump jump, int fire_before) {
  if (jump == Jump::kSideFlip) return fire_before;
  return fire_before >= standard::kKing ? 1 : fire_before + 1;
}

// Whether a face-down card keeps its promise, checked against the fire it was played on (NG-6).
constexpr bool promise_kept(Jump jump, Card card, int fire_before) {
  if (standard::is_joker(card)) return true;
  const bool heart = standard::suit(card) == standard::kHearts;
  if (jump == Jump::kBackFlip) return heart && standard::rank(card) >= fire_before + 1;
  return !heart && standard::rank(card) == fire_before;
}

// A caught lie that earns the Heartless Monkey Hat (NG-16): a false back flip, or a heart
// played as a side flip.
constexpr bool heart_cheat(Jump jump, Card card, int fire_before) {
  if (standard::is_joker(card)) return false;
  if (jump == Jump::kBackFlip) return !promise_kept(jump, card, fire_before);
  return standard::suit(card) == standard::kHearts;
}

const Game& game();

}  // namespace campfire::naked_gibbon
