// The engine core on its own: the generator, seat sets and results.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "engine/core/rng.hpp"
#include "engine/core/state.hpp"

namespace campfire {
namespace {

// Replays must agree across machines and library versions: the stream is pinned.
TEST(Rng, StreamIsPinned) {
  Rng r(0);
  EXPECT_EQ(r.next(), 0x99EC5F36CB75F2B4ull);
  EXPECT_EQ(r.next(), 0xBF6E1F784956452Aull);
  Rng s(12345);
  EXPECT_EQ(s.next(), 0xBE6A36374160D49Bull);
}

TEST(Rng, BelowIsInRangeAndRoughlyUniform) {
  Rng r(7);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60000; ++i) {
    const auto v = r.below(6);
    ASSERT_LT(v, 6u);
    ++counts[v];
  }
  for (int c : counts) EXPECT_NEAR(c, 10000, 500);
  EXPECT_EQ(r.below(1), 0u);
  EXPECT_EQ(r.below(0), 0u);
}

TEST(Rng, ShuffleIsAPermutationAndDependsOnSeed) {
  std::vector<int> a(52);
  std::iota(a.begin(), a.end(), 0);
  std::vector<int> b = a;
  Rng(1).shuffle(a);
  Rng(2).shuffle(b);
  EXPECT_NE(a, b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 52; ++i) EXPECT_EQ(sorted[i], i);
  std::vector<int> c(52);
  std::iota(c.begin(), c.end(), 0);
  Rng(1).shuffle(c);
  EXPECT_EQ(a, c);
}

TEST(SeatSet, Basics) {
  SeatSet s;
  EXPECT_TRUE(s.empty());
  s.insert(3);
  s.insert(0);
  EXPECT_EQ(s.size(), 2);
  EXPECT_TRUE(s.contains(3));
  EXPECT_FALSE(s.contains(1));
  EXPECT_FALSE(s.contains(-1));
  EXPECT_EQ(s.first(), 0);
  std::vector<Seat> seen;
  s.for_each([&](Seat x) { seen.push_back(x); });
  EXPECT_EQ(seen, (std::vector<Seat>{0, 3}));
  EXPECT_EQ(SeatSet::all(4).size(), 4);
}

TEST(Result, PlacesShareTies) {
  EXPECT_EQ(Result::places_ascending({0, 2, 0, 1}), (std::vector<int>{1, 4, 1, 3}));
  EXPECT_EQ(Result::places_descending({5, 9, 9, 1}), (std::vector<int>{3, 1, 1, 4}));
}

}  // namespace
}  // namespace campfire

#include "engine/core/standard_cards.hpp"

namespace campfire {
namespace {

TEST(StandardCards, CodesRoundTripAndName) {
  for (Card c : standard::deck(2)) EXPECT_EQ(standard::parse(standard::code(c)), c);
  EXPECT_EQ(standard::code(standard::card(10, standard::kHearts)), "TH");
  EXPECT_EQ(standard::words(standard::card(10, standard::kHearts)), "10♥");
  EXPECT_EQ(standard::words(standard::card(standard::kAce, standard::kSpades)), "A♠");
  EXPECT_EQ(standard::rank(standard::card(standard::kAce, standard::kSpades)), 14);
  EXPECT_TRUE(standard::is_red(standard::card(5, standard::kDiamonds)));
  EXPECT_FALSE(standard::is_red(standard::kJoker1));
  EXPECT_FALSE(standard::parse("1S").has_value());
  EXPECT_FALSE(standard::parse("").has_value());
  EXPECT_EQ(standard::deck(1).size(), 53u);
}

}  // namespace
}  // namespace campfire
