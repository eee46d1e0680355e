// The engine core on its own: the generator, seat sets, results and the view writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/core/rng.hpp"
#include "engine/core/state.hpp"
#include "engine/core/view_writer.hpp"

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

// One document written to both sinks, each object's members in name order (upper case before
// lower case, a name before the longer names it starts): the text is exactly what the tree
// serialises to (the same escapes, numbers, nesting and member order), and the tree is the
// document meant.
void write_sample(ViewWriter& w) {
  w.begin_object();
  w.member("Zed", 1);
  w.key("empty").begin_array().end_array();
  w.member("large", std::int64_t{9007199254740993});
  w.member("name", "Bella \"B\" \\ \n\t\x01 \u2665");
  w.member("negative", -42);
  w.key("nested").begin_array();
  w.begin_object().member("a", 1).key("b").array(std::vector<int>{1, 2, 3}).end_object();
  w.begin_array().value("x").null().value(false).end_array();
  w.end_array();
  w.key("none").begin_object().end_object();
  w.key("nothing").null();
  w.member("size", std::size_t{45});
  w.member("small", std::uint8_t{200});
  w.member("yes", true);
  w.member("yesterday", false);
  w.member("zero", 0);
  w.end_object();
}

TEST(ViewWriter, TextIsTheTreesDump) {
  std::string text = "prefix:";
  TextWriter to_text(text);
  write_sample(to_text);
  TreeWriter to_tree;
  write_sample(to_tree);
  const json tree = to_tree.take();
  EXPECT_EQ(tree["name"], "Bella \"B\" \\ \n\t\x01 \u2665");
  EXPECT_EQ(tree["large"], 9007199254740993LL);
  EXPECT_EQ(tree["small"], 200);
  EXPECT_TRUE(tree["nothing"].is_null());
  EXPECT_EQ(tree["nested"], json::parse(R"([{"a":1,"b":[1,2,3]},["x",null,false]])"));
  // The text sink appends, and writes the bytes of the tree's dump.
  ASSERT_EQ(text.rfind("prefix:", 0), 0u);
  const std::string body = text.substr(7);
  EXPECT_EQ(body, tree.dump());
  EXPECT_EQ(body, R"({"Zed":1,"empty":[],"large":9007199254740993,"name":)" + tree["name"].dump() +
                      R"(,"negative":-42,"nested":[{"a":1,"b":[1,2,3]},["x",null,false]],)"
                      R"("none":{},"nothing":null,"size":45,"small":200,"yes":true,)"
                      R"("yesterday":false,"zero":0})");
  EXPECT_EQ(tree["name"].dump(), R"("Bella \"B\" \\ \n\t\u0001 ♥")");
}

// Builds that check the order (without NDEBUG, like the sanitizer build) refuse a member out of
// order, naming the object and both members; the others write what they are given, unchecked.
TEST(ViewWriter, MembersOutOfOrderAreCaughtWhereChecked) {
  const auto write = [](ViewWriter& w, std::string_view second) {
    w.begin_object();
    w.key("pile").begin_array();
    w.begin_object().member("by", 0).end_object();
    w.begin_object().member("by", 1).key("nested").begin_object().end_object();
    w.member(second, true);
    w.end_object();
    w.end_array();
    w.end_object();
  };
  std::string text;
  TextWriter to_text(text);
  if constexpr (kViewWriterChecksOrder) {
    try {
      write(to_text, "claim");
      ADD_FAILURE() << "a member out of order was written: " << text;
    } catch (const std::logic_error& e) {
      EXPECT_EQ(std::string(e.what()),
                "the object at $.pile[1] has member \"claim\" after \"nested\": write each "
                "object's members in name order, as dump() orders them");
    }
    TreeWriter to_tree;
    try {
      write(to_tree, "nested");
      ADD_FAILURE() << "a member named twice was written";
    } catch (const std::logic_error& e) {
      EXPECT_EQ(std::string(e.what()),
                "the object at $.pile[1] names member \"nested\" twice: write each object's "
                "members in name order, as dump() orders them");
    }
  } else {
    write(to_text, "claim");
    EXPECT_EQ(text, R"({"pile":[{"by":0},{"by":1,"nested":{},"claim":true}]})");
  }
  // In name order, every build writes it.
  std::string ordered;
  TextWriter in_order(ordered);
  write(in_order, "top");
  EXPECT_EQ(ordered, R"({"pile":[{"by":0},{"by":1,"nested":{},"top":true}]})");
}

TEST(ViewWriter, AScalarAloneIsADocument) {
  std::string text;
  TextWriter to_text(text);
  to_text.value(-7);
  TreeWriter to_tree;
  to_tree.value(-7);
  EXPECT_EQ(text, "-7");
  EXPECT_EQ(to_tree.take(), -7);
}

TEST(Result, WritesWhatToJsonReturns) {
  Result r;
  r.winners = {2};
  r.losers = {0, 1};
  r.places = {2, 2, 1};
  std::string text;
  TextWriter w(text);
  r.write(w);
  EXPECT_EQ(text, r.to_json().dump());
  EXPECT_EQ(r.to_json(), json::parse(R"({"winners":[2],"losers":[0,1],"places":[2,2,1]})"));
  EXPECT_FALSE(r.to_json().contains("scores"));
  r.scores = {3, 3, 0};
  EXPECT_EQ(r.to_json()["scores"], json::parse("[3,3,0]"));
}

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
