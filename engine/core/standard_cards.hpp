// The standard 52-card deck with up to two jokers, shared by the games that use it.
//
// Card codes: suit * 13 + (rank - 2) for ranks 2..14 (ace high) in suits clubs, diamonds,
// hearts, spades; jokers are 52 and 53. Wire notation is rank then suit ("7S", "TH", "AD",
// "QC") and "X1"/"X2" for the jokers; words are "7♠", "10♥", "A♦", "Joker".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/types.hpp"

namespace campfire::standard {

// How the cards are written, for the games' pages and schemas.
inline constexpr const char* kCardsNote =
    "A card is written rank then suit: ranks 2 to 9, T (ten), J, Q, K and A; suits C (clubs), D "
    "(diamonds), H (hearts) and S (spades). The jokers are X1 and X2.";

enum Suit : int { kClubs = 0, kDiamonds = 1, kHearts = 2, kSpades = 3 };
inline constexpr int kJack = 11;
inline constexpr int kQueen = 12;
inline constexpr int kKing = 13;
inline constexpr int kAce = 14;
inline constexpr Card kJoker1 = 52;
inline constexpr Card kJoker2 = 53;

constexpr Card card(int rank, Suit suit) {
  return static_cast<Card>(static_cast<int>(suit) * 13 + (rank - 2));
}
constexpr bool is_joker(Card c) { return c == kJoker1 || c == kJoker2; }
// 2..14 for a suited card; 0 for a joker.
constexpr int rank(Card c) { return is_joker(c) ? 0 : c % 13 + 2; }
constexpr Suit suit(Card c) { return static_cast<Suit>(c / 13); }
constexpr bool is_red(Card c) {
  return !is_joker(c) && (suit(c) == kHearts || suit(c) == kDiamonds);
}

inline std::string code(Card c) {
  if (c == kJoker1) return "X1";
  if (c == kJoker2) return "X2";
  static constexpr std::string_view ranks = "23456789TJQKA";
  static constexpr std::string_view suits = "CDHS";
  return {ranks[static_cast<std::size_t>(rank(c) - 2)], suits[static_cast<std::size_t>(suit(c))]};
}

inline std::optional<Card> parse(std::string_view s) {
  if (s == "X1") return kJoker1;
  if (s == "X2") return kJoker2;
  if (s.size() != 2) return std::nullopt;
  static constexpr std::string_view ranks = "23456789TJQKA";
  static constexpr std::string_view suits = "CDHS";
  const auto r = ranks.find(s[0]);
  const auto u = suits.find(s[1]);
  if (r == std::string_view::npos || u == std::string_view::npos) return std::nullopt;
  return card(static_cast<int>(r) + 2, static_cast<Suit>(u));
}

inline std::string words(Card c) {
  if (is_joker(c)) return "Joker";
  static constexpr std::string_view suit_signs[] = {"♣", "♦", "♥", "♠"};
  std::string r;
  switch (rank(c)) {
    case kJack: r = "J"; break;
    case kQueen: r = "Q"; break;
    case kKing: r = "K"; break;
    case kAce: r = "A"; break;
    default: r = std::to_string(rank(c));
  }
  return r + std::string(suit_signs[suit(c)]);
}

// The 52 suited cards in code order, then `jokers` jokers.
inline std::vector<Card> deck(int jokers = 0) {
  std::vector<Card> d;
  for (int c = 0; c < 52; ++c) d.push_back(static_cast<Card>(c));
  for (int j = 0; j < jokers; ++j) d.push_back(static_cast<Card>(kJoker1 + j));
  return d;
}

}  // namespace campfire::standard
