// Pinocchio (Dieter Gebhardt), 2-6 players.
//
// 45 clothes cards: five items (hat, bow tie, shirt, trousers, shoes) in three colours (red,
// yellow, blue), three copies each. Every player gets floor(45/n) cards as a face-down stack
// nobody may look at; the rest go back to the box unseen. In turn, each player
//   1. challenges or believes the previous card (before seeing their own card), then
//   2. sees their top card privately and plays it face down to the pile, and
//   3. announces an item that matches the previous announcement in type or colour (or both).
// A challenge turns the previous card over: a lie gives its player a long nose, the truth gives
// the challenger one. The card played right after a challenge is announced freely and cannot be
// challenged. After the last card the next player may challenge once more. Fewest noses wins.
//
// Choices (docs/rules/pinocchio.md, PI-1..PI-14): startSeat is the "youngest player"; the first
// card is announced freely but can be challenged; true means type and colour both match; ties share
// the win; noses are a counter (the 28 long-nose cards can never run out). Cards are dealt one at a
// time clockwise from the start seat, and each stack is played in the order it was dealt, so with a
// test deck order the k-th card played is the k-th card of the deck.
//
// Views: public are stack sizes, the box count, the pile's size and the claim on top of it (who,
// what, what it had to match, free or not, challengeable or not, and the card a challenge turned
// over), noses, phase and current player. A seat also sees its top card during its own play
// step. The pile lies face down: the claims under the top one, and what challenges showed of
// them, were told once in events and are remembered (recall()), not repeated by every view. The
// card a seat plays is told to it once, in a private "played" event, and must be remembered: no
// view shows an unrevealed pile card, not even to the seat that played it
// (docs/rules/pinocchio.md PI-13). Nobody sees stacks or the box.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "engine/core/game.hpp"

namespace campfire::pinocchio {

// Card = item * 3 + colour; the three copies of an item are the same card value.
enum class Clothing : int { kHat, kBowTie, kShirt, kTrousers, kShoes };
enum class Colour : int { kRed, kYellow, kBlue };
inline constexpr int kClothingCount = 5;
inline constexpr int kColourCount = 3;
inline constexpr int kItems = kClothingCount * kColourCount;
inline constexpr int kCopies = 3;

constexpr Card item(Clothing c, Colour k) {
  return static_cast<Card>(static_cast<int>(c) * kColourCount + static_cast<int>(k));
}
constexpr Clothing clothing_of(Card c) { return static_cast<Clothing>(c / kColourCount); }
constexpr Colour colour_of(Card c) { return static_cast<Colour>(c % kColourCount); }
// True when `next` may be announced after `previous`: same type, same colour, or both.
constexpr bool matches(Card previous, Card next) {
  return clothing_of(previous) == clothing_of(next) || colour_of(previous) == colour_of(next);
}

// "red-bow-tie" (wire code) and "Red Bow Tie" (words).
std::string item_code(Card c);
std::string item_words(Card c);

// Action kinds.
enum Move : std::uint8_t { kChallenge = 1, kBelieve = 2, kAnnounce = 3 };

const Game& game();

// What `viewer` remembers of the pile, as recall() names it but without building JSON (bots read
// it for every sampled deal): the card at place `at` (0 is the first card) when `viewer` played
// it and it is still face down. Nothing otherwise, or when `state` is not a Pinocchio state.
std::optional<Card> recalled_card(const State& state, Seat viewer, std::size_t at);

}  // namespace campfire::pinocchio
