// Naked Gibbon: the rules of docs/rules/naked-gibbon.md (NG-1..NG-26), each test named after
// its case, plus the extensions and the contract details the generic suite cannot see.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/match.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/naked_gibbon/naked_gibbon.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::naked_gibbon {
namespace {

using campfire::testing::play;
using campfire::testing::refusal;
using Codes = std::vector<std::string>;

// A full deck whose first cards are `top`, the rest in code order.
json deck_with(const Codes& top, int jokers) {
  std::vector<Card> rest = standard::deck(jokers);
  json codes = json::array();
  for (const auto& code : top) {
    const Card c = *standard::parse(code);
    const auto it = std::find(rest.begin(), rest.end(), c);
    EXPECT_NE(it, rest.end()) << code << " is used twice in the test deck";
    if (it == rest.end()) continue;
    rest.erase(it);
    codes.push_back(code);
  }
  for (Card c : rest) codes.push_back(standard::code(c));
  return codes;
}

// Seat s is dealt hands[s] (dealing goes one card at a time from seat 0, the dealer being the
// last seat); then come the Veterans' burnmarks if any, then the draws in order.
Match start(const std::vector<Codes>& hands, const Codes& then, json options = json::object()) {
  Codes top;
  for (int r = 0; r < 3; ++r) {
    for (const Codes& h : hands) top.push_back(h[static_cast<std::size_t>(r)]);
  }
  top.insert(top.end(), then.begin(), then.end());
  const int jokers = options.value("jokers", 2);
  auto m =
      Match::create(game(), static_cast<int>(hands.size()), options, 1, deck_with(top, jokers));
  EXPECT_TRUE(m.ok()) << m.error().message;
  return std::move(*m);
}

json hands_up(const std::string& c) {
  return {{"move", "hands-up"}, {"card", c}};
}
json back_flip(const std::string& c) {
  return {{"move", "back-flip"}, {"card", c}};
}
json side_flip(const std::string& c) {
  return {{"move", "side-flip"}, {"card", c}};
}
json chest_up(int slot) {
  return {{"move", "chest-up"}, {"slot", slot}};
}
json spot_moult(const std::string& c, int slot) {
  return {{"move", "spot-moult"}, {"card", c}, {"slot", slot}};
}
json doubt(Seat target) {
  return {{"move", "doubt"}, {"target", target}};
}
json place(const std::vector<int>& slots) {
  return {{"move", "place"}, {"slots", slots}};
}
const json kRandomJump = {{"move", "random"}};
const json kFireBath = {{"move", "fire-bath"}};

json view(const Match& m, Seat s) {
  return m.state().view(s);
}
// One gibbon's facts as seen by itself, gathered from the per-seat arrays of the view.
json gibbon(const Match& m, Seat s) {
  const json v = view(m, s);
  json slots = json::array();
  for (int i = 0; i < kSlots; ++i) {
    slots.push_back({{"table", v["table"][s][i]}, {"burned", v["burned"][s][i]}});
  }
  return {{"hand", v["hand"]},       {"handCount", v["handCounts"][s]},
          {"slots", slots},          {"burnmarks", v["burnmarks"][s]},
          {"hat", v["hat"] == s},    {"out", v["out"][s]},
          {"losses", v["losses"][s]}};
}
int fire_number(const Match& m) {
  return view(m, kSpectator)["fireNumber"].get<int>();
}

int slot_of(const Match& m, Seat s, const std::string& code) {
  const json slots = gibbon(m, s)["slots"];
  for (int i = 0; i < kSlots; ++i) {
    if (slots[i]["table"] == code) return i;
  }
  ADD_FAILURE() << code << " is not on the table of seat " << s;
  return -1;
}

bool is_legal(const Match& m, Seat s, const json& move) {
  const auto a = game().action_from_json(move);
  if (!a) return false;
  const auto legal = m.state().legal_actions(s);
  return std::find(legal.begin(), legal.end(), *a) != legal.end();
}

// Where a punishment leaves a gibbon: burnmarks, hat and held cards.
void expect_slots(const Match& m, Seat s, const json& tables, const json& burned) {
  const json slots = gibbon(m, s)["slots"];
  for (int i = 0; i < kSlots; ++i) {
    EXPECT_EQ(slots[i]["table"], tables[i]) << "slot " << i;
    EXPECT_EQ(slots[i]["burned"], burned[i]) << "slot " << i;
  }
}

const std::vector<Codes> kFillers = {{"2S", "3S", "4S"}, {"2H", "3H", "4H"}, {"5S", "6S", "5D"}};

// NG-10 and NG-3: with the fire at 8 only 2..8 can be spot-moulted; 9, K, an ace and a joker
// cannot.
TEST(NakedGibbon, SpotMoultNeedsSameOrLower) {
  Match m = start({{"8S", "5C", "6C"}, {"2D", "8C", "9C"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up("8S"));
  ASSERT_EQ(fire_number(m), 8);
  EXPECT_TRUE(is_legal(m, 1, spot_moult("2D", 0)));
  EXPECT_TRUE(is_legal(m, 1, spot_moult("8C", 2)));
  EXPECT_EQ(refusal(m, 1, spot_moult("9C", 0)), "illegal_action");

  Match n = start({{"8S", "5C", "6C"}, {"KC", "AC", "X1"}, kFillers[0], kFillers[1]}, {});
  play(n, 0, hands_up("8S"));
  for (const char* c : {"KC", "AC", "X1"}) {
    EXPECT_EQ(refusal(n, 1, spot_moult(c, 0)), "illegal_action") << c;
  }
  for (const Action& a : n.state().legal_actions(1)) EXPECT_NE(a.kind, kSpotMoult);
}

// Seat 1 back-flips `card` on a fire of `fire` (set by seat 0), seat 2 doubts it.
struct Doubted {
  json last_doubt;
  bool hat;
  int fire_after_flip;
};
Doubted back_flip_doubted(const std::string& fire_card, const std::string& card) {
  Match m = start({{fire_card, "5C", "6C"}, {card, "2D", "3D"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up(fire_card));
  play(m, 1, back_flip(card));
  const int after = fire_number(m);
  play(m, 2, doubt(1));
  return {view(m, 0)["lastDoubt"], gibbon(m, 1)["hat"].get<bool>(), after};
}

// NG-6 and NG-16: a back flip at 5 makes 6; 6♥..A♥ or a joker keeps the promise; 5♥ and 9♠ are
// heart-cheats.
TEST(NakedGibbon, BackFlipAtFive) {
  for (const char* c : {"6H", "TH", "AH", "X1"}) {
    const Doubted d = back_flip_doubted("5S", c);
    EXPECT_EQ(d.fire_after_flip, 6);
    EXPECT_EQ(d.last_doubt["kept"], true) << c;
    EXPECT_FALSE(d.hat) << c;
  }
  for (const char* c : {"5H", "9S"}) {
    const Doubted d = back_flip_doubted("5S", c);
    EXPECT_EQ(d.last_doubt["kept"], false) << c;
    EXPECT_EQ(d.last_doubt["card"], c);
    EXPECT_TRUE(d.hat) << c << " is a heart-cheat";
  }
  EXPECT_TRUE(heart_cheat(Jump::kBackFlip, *standard::parse("9S"), 5));
  EXPECT_TRUE(heart_cheat(Jump::kBackFlip, *standard::parse("5H"), 5));
}

// NG-6: a back flip over a king makes 1; only A♥ or a joker keeps the promise.
TEST(NakedGibbon, BackFlipOverKing) {
  for (const char* c : {"AH", "X2"}) {
    const Doubted d = back_flip_doubted("KS", c);
    EXPECT_EQ(d.fire_after_flip, 1);
    EXPECT_EQ(d.last_doubt["kept"], true) << c;
  }
  const Doubted d = back_flip_doubted("KS", "KH");
  EXPECT_EQ(d.last_doubt["kept"], false);
  EXPECT_EQ(d.last_doubt["before"], 13);
  EXPECT_TRUE(d.hat);
}

// NG-5 and NG-6: a back flip on the empty fire makes 1; 2♥ keeps the promise.
TEST(NakedGibbon, BackFlipOnEmptyFire) {
  Match m = start({{"2H", "5C", "6C"}, {"7C", "2D", "3D"}, kFillers[0], kFillers[2]}, {});
  EXPECT_EQ(refusal(m, 0, hands_up("2H")), "illegal_action") << "a heart goes face down";
  play(m, 0, back_flip("2H"));
  EXPECT_EQ(fire_number(m), 1);
  play(m, 1, doubt(0));
  EXPECT_EQ(view(m, 0)["lastDoubt"]["kept"], true);
  // The false accuser is punished: naked, three cards face up on the table.
  EXPECT_EQ(gibbon(m, 1)["handCount"], 0);
  EXPECT_EQ(view(m, 0)["current"], 2);
}

// NG-3: a face-up ace (from hand, from the table, at random) drops the fire to 1.
TEST(NakedGibbon, FaceUpAceDropsFireToOne) {
  Match m = start({{"9S", "AC", "5C"}, {"2D", "3D", "4D"}, kFillers[0], kFillers[2]},
                  {"6C", "AH", "7C", "8C"});
  play(m, 0, hands_up("9S"));  // draws 6C
  play(m, 1, kFireBath);       // AH, 7C, 8C face up, no burned slot: placed at once
  EXPECT_EQ(view(m, 1)["phase"], "main");
  play(m, 1, chest_up(slot_of(m, 1, "AH")));
  EXPECT_EQ(fire_number(m), 1);
  play(m, 2, hands_up("2S"));
  play(m, 3, hands_up("5S"));
  play(m, 0, hands_up("AC"));
  EXPECT_EQ(fire_number(m), 1);

  Match r = start({{"KS", "5C", "6C"}, {"2D", "3D", "4D"}, kFillers[0], kFillers[1]}, {"7C", "AD"});
  play(r, 0, hands_up("KS"));
  play(r, 1, kRandomJump);
  EXPECT_EQ(fire_number(r), 1) << "a random ace succeeds over a king";
  EXPECT_EQ(view(r, 0)["fire"][1]["card"], "AD");
}

// NG-4: face-up jokers take the lowest number that fits; a joker never goes hands up.
TEST(NakedGibbon, FaceUpJokers) {
  {
    Match m = start({{"9S", "5C", "6C"}, kFillers[0], kFillers[1], kFillers[2]}, {"7C", "X1"});
    play(m, 0, hands_up("9S"));
    play(m, 1, kRandomJump);
    EXPECT_EQ(fire_number(m), 9) << "random joker at 9";
  }
  {
    Match m = start({kFillers[0], kFillers[1], kFillers[2], {"5C", "6C", "7C"}}, {"X1"});
    play(m, 0, kRandomJump);
    EXPECT_EQ(fire_number(m), 1) << "random joker on the empty fire";
  }
  struct Row {
    const char* fire_card;
    int expected;
  };
  for (const Row& row : {Row{"9S", 10}, Row{"KS", 1}}) {
    Match m = start({{row.fire_card, "5C", "6C"}, {"2D", "3D", "4D"}, kFillers[0], kFillers[1]},
                    {"7C", "X1", "8C", "9C"});
    play(m, 0, hands_up(row.fire_card));
    play(m, 1, kFireBath);
    play(m, 1, chest_up(slot_of(m, 1, "X1")));
    EXPECT_EQ(fire_number(m), row.expected) << "table joker over " << row.fire_card;
  }
  {
    Match m =
        start({{"2D", "3D", "4D"}, kFillers[0], kFillers[1], kFillers[2]}, {"X1", "8C", "9C"});
    play(m, 0, kFireBath);
    play(m, 0, chest_up(slot_of(m, 0, "X1")));
    EXPECT_EQ(fire_number(m), 1) << "table joker on the empty fire";
  }
  Match m = start({{"X2", "5C", "6C"}, kFillers[0], kFillers[1], kFillers[2]}, {});
  EXPECT_EQ(refusal(m, 0, hands_up("X2")), "illegal_action");
}

// NG-4: hands up needs a higher non-heart; chest up a higher card of any suit.
TEST(NakedGibbon, HandsUpAndChestUpAtNine) {
  Match m = start({{"9C", "5C", "6C"}, {"TS", "9S", "TH"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up("9C"));
  EXPECT_EQ(refusal(m, 1, hands_up("9S")), "illegal_action");
  EXPECT_EQ(refusal(m, 1, hands_up("TH")), "illegal_action");
  play(m, 1, hands_up("TS"));
  EXPECT_EQ(fire_number(m), 10);

  Match a = start({{"9C", "5C", "6C"}, {"AD", "2D", "3D"}, kFillers[0], kFillers[1]}, {});
  play(a, 0, hands_up("9C"));
  play(a, 1, hands_up("AD"));
  EXPECT_EQ(fire_number(a), 1);

  Match t = start({{"9C", "5C", "6C"}, {"2D", "3D", "4D"}, kFillers[0], kFillers[1]},
                  {"7C", "TH", "9D", "8D"});
  play(t, 0, hands_up("9C"));
  play(t, 1, kFireBath);
  EXPECT_EQ(refusal(t, 1, chest_up(slot_of(t, 1, "9D"))), "illegal_action");
  play(t, 1, chest_up(slot_of(t, 1, "TH")));
  EXPECT_EQ(fire_number(t), 10);
}

// NG-4 and NG-12: a random card of the same number or higher succeeds, a lower one crashes; after
// the crash the fire is discarded and the crasher's left starts.
TEST(NakedGibbon, RandomAtNine) {
  struct Row {
    const char* card;
    int fire;
  };
  for (const Row& row : {Row{"9C", 9}, Row{"KD", 13}}) {
    Match m = start({{"9S", "5C", "6C"}, kFillers[0], kFillers[1], kFillers[2]}, {"7C", row.card});
    play(m, 0, hands_up("9S"));
    play(m, 1, kRandomJump);
    EXPECT_EQ(fire_number(m), row.fire) << row.card;
    EXPECT_EQ(view(m, 0)["current"], 2);
  }
  Match m = start({{"9S", "5C", "6C"}, {"2D", "3D", "4D"}, kFillers[0], kFillers[1]}, {"7C", "8C"});
  play(m, 0, hands_up("9S"));
  play(m, 1, kRandomJump);
  const json v = view(m, 0);
  EXPECT_EQ(v["fireNumber"], 0);
  EXPECT_TRUE(v["fire"].empty()) << "the fire is discarded";
  EXPECT_EQ(v["current"], 2);
  EXPECT_EQ(v["phase"], "main");
  // Seat 1 had no table cards: it gets naked, its hand face up on the table.
  EXPECT_EQ(gibbon(m, 1)["handCount"], 0);
  EXPECT_EQ(gibbon(m, 1)["burnmarks"], 0);
  EXPECT_GE(slot_of(m, 1, "2D"), 0);
}

// Seat 1 side-flips `card` on a fire of 7, seat 2 doubts it.
Doubted side_flip_doubted(const std::string& card) {
  Match m = start({{"7C", "5C", "6C"}, {card, "2D", "3D"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up("7C"));
  play(m, 1, side_flip(card));
  const int after = fire_number(m);
  play(m, 2, doubt(1));
  return {view(m, 0)["lastDoubt"], gibbon(m, 1)["hat"].get<bool>(), after};
}

// NG-5 and NG-6: side flips at 7; a side flip on the empty fire is refused.
TEST(NakedGibbon, SideFlipAtSeven) {
  for (const char* c : {"7S", "X1"}) {
    const Doubted d = side_flip_doubted(c);
    EXPECT_EQ(d.fire_after_flip, 7);
    EXPECT_EQ(d.last_doubt["kept"], true) << c;
  }
  Doubted d = side_flip_doubted("7H");
  EXPECT_EQ(d.last_doubt["kept"], false);
  EXPECT_TRUE(d.hat) << "a heart side flip is a heart-cheat";
  d = side_flip_doubted("8S");
  EXPECT_EQ(d.last_doubt["kept"], false);
  EXPECT_FALSE(d.hat) << "a wrong number is a cheat but not with a heart";

  Match m = start({{"7S", "5C", "6C"}, kFillers[0], kFillers[1], kFillers[2]}, {});
  EXPECT_EQ(refusal(m, 0, side_flip("7S")), "illegal_action");
}

// The fire of the next two tests: P0 back flip 4→5, P1 hands up 9, P2 side flip at 9.
Match fire_of_t10(const std::string& p0_card, const std::string& p2_card) {
  Match m =
      start({{"2C", p0_card, "JC"}, {"3C", "9S", "JD"}, {"3D", p2_card, "JS"}, {"4C", "QC", "QD"}},
            {"KC", "KD", "KS", "QS", "AC", "AD", "AS", "TC"});
  play(m, 0, hands_up("2C"));
  play(m, 1, hands_up("3C"));
  play(m, 2, side_flip("3D"));
  play(m, 3, hands_up("4C"));
  play(m, 0, back_flip(p0_card));
  play(m, 1, hands_up("9S"));
  play(m, 2, side_flip(p2_card));
  return m;
}

// NG-8 and NG-7: only each other player's latest card, and only if face down, can be doubted; a
// promise is checked against the fire it was played on.
TEST(NakedGibbon, DoubtableCardsAndFireBefore) {
  Match m = fire_of_t10("5H", "9D");
  EXPECT_EQ(view(m, 3)["doubtable"], json({0, 2}));
  EXPECT_TRUE(is_legal(m, 3, doubt(0)));
  EXPECT_TRUE(is_legal(m, 3, doubt(2)));
  EXPECT_EQ(refusal(m, 3, doubt(1)), "illegal_action") << "P1's latest card is face up";
  EXPECT_EQ(refusal(m, 3, doubt(3)), "illegal_action") << "never your own";
  // 5♥ is below the fire now (9) but kept the promise made at 4.
  play(m, 3, doubt(0));
  EXPECT_EQ(view(m, 0)["lastDoubt"]["before"], 4);
  EXPECT_EQ(view(m, 0)["lastDoubt"]["kept"], true);
  EXPECT_EQ(view(m, 0)["current"], 0) << "the false accuser's left starts";

  Match lie = fire_of_t10("4H", "9D");
  play(lie, 3, doubt(0));
  EXPECT_EQ(view(lie, 0)["lastDoubt"]["kept"], false) << "4♥ is not above 4";
}

// NG-12 and NG-22: P3 doubts P2; a true card punishes P3 and P0 starts normally; a lie punishes P2
// and P3 starts the new fire at once, without moulting.
TEST(NakedGibbon, WhoStartsAfterADoubt) {
  Match m = fire_of_t10("5H", "9D");
  play(m, 3, doubt(2));
  EXPECT_EQ(view(m, 0)["lastDoubt"]["kept"], true);
  EXPECT_EQ(view(m, 0)["phase"], "main");
  EXPECT_EQ(view(m, 0)["current"], 0);
  EXPECT_TRUE(view(m, 0)["fire"].empty());
  EXPECT_TRUE(is_legal(m, 0, kFireBath)) << "a normal turn: moulting allowed";

  Match lie = fire_of_t10("5H", "4D");
  play(lie, 3, doubt(2));
  EXPECT_EQ(view(lie, 0)["lastDoubt"]["kept"], false);
  EXPECT_EQ(view(lie, 0)["phase"], "new-fire");
  EXPECT_EQ(view(lie, 0)["current"], 3);
  EXPECT_EQ(refusal(lie, 3, kFireBath), "illegal_action");
  const json hand = gibbon(lie, 3)["hand"];
  EXPECT_EQ(refusal(lie, 3, side_flip(hand[0])), "illegal_action");
  play(lie, 3, back_flip(hand[0]));
  EXPECT_EQ(fire_number(lie), 1);
  EXPECT_EQ(view(lie, 0)["current"], 0);
}

// NG-13 and NG-15 (with the hat, NG-16): s0 burned under 3♣, 7♦ exposed on s1, hand {K♠}: the 7♦
// burns, 3♣ and K♠ go, three new hand cards, two burnmarks, and the hat comes off.
TEST(NakedGibbon, Burnmark) {
  Match m = start({{"9S", "3C", "7D"}, {"2D", "5C", "6C"}, {"3D", "5D", "6D"}, {"4D", "5S", "6S"}},
                  {"8C", "8D", "8H", "8S",  // Veterans' burnmarks
                   "QC", "9C", "9D", "9H", "KS", "TC", "TD", "TS", "2H", "JC", "JD", "JS"},
                  {{"veterans", true}});
  play(m, 0, back_flip("9S"));  // a heart-cheat on the empty fire
  play(m, 1, doubt(0));
  EXPECT_EQ(view(m, 0)["phase"], "naked-place");
  EXPECT_EQ(m.state().to_act(), SeatSet::of(0)) << "placing naked cards out of turn";
  EXPECT_TRUE(gibbon(m, 0)["hat"]);
  play(m, 0, place({0, 1, 2}));  // 3C on the burned s0, 7D on s1, QC on s2
  EXPECT_EQ(view(m, 0)["phase"], "new-fire");
  play(m, 1, hands_up("2D"));
  play(m, 2, hands_up("3D"));
  play(m, 3, hands_up("4D"));
  play(m, 0, chest_up(2));  // QC, draws KS
  expect_slots(m, 0, {"3C", "7D", nullptr}, {true, false, false});
  EXPECT_EQ(gibbon(m, 0)["hand"], json({"KS"}));
  play(m, 1, side_flip("5C"));
  play(m, 2, side_flip("5D"));
  play(m, 3, side_flip("5S"));
  play(m, 0, kRandomJump);  // 2H under 12: a crash
  expect_slots(m, 0, {nullptr, nullptr, nullptr}, {true, true, false});
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 2);
  EXPECT_EQ(gibbon(m, 0)["hand"], json({"JC", "JD", "JS"}));
  EXPECT_FALSE(gibbon(m, 0)["hat"]) << "the burnmark relieves the hat";
  EXPECT_EQ(view(m, 0)["current"], 1);
}

// NG-14: naked with a burnmark in s0: all three cards go face up and the owner picks which
// sits on the safe spot; the default is the lowest.
TEST(NakedGibbon, Naked) {
  Match m = start({{"4C", "9D", "2S"}, {"2C", "5C", "6C"}, {"KC", "5D", "6D"}, {"KD", "5S", "6S"}},
                  {"8C", "8D", "8H", "8S", "QS", "TC", "TD", "TS"}, {{"veterans", true}});
  play(m, 0, hands_up("2S"));  // draws QS: hand {4C, 9D, QS}
  play(m, 1, side_flip("2C"));
  play(m, 2, hands_up("KC"));
  play(m, 3, side_flip("KD"));
  play(m, 0, doubt(3));  // a true card: P0 is punished
  EXPECT_EQ(view(m, 0)["phase"], "naked-place");
  EXPECT_EQ(view(m, 0)["placing"]["cards"], json({"4C", "9D", "QS"}));
  EXPECT_EQ(m.state().legal_actions(0).size(), 6u);
  EXPECT_EQ(game().action_to_json(m.state().fallback_action(0)), place({0, 1, 2}))
      << "by default the lowest card goes on the burned slot";
  play(m, 0, place({1, 0, 2}));
  expect_slots(m, 0, {"9D", "4C", "QS"}, {true, false, false});
  EXPECT_EQ(gibbon(m, 0)["handCount"], 0);
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 1);
  EXPECT_EQ(view(m, 0)["current"], 1);
  EXPECT_EQ(view(m, 0)["phase"], "main");
}

// The NG-19 scenario: Veterans, P0 takes its second and third burnmarks through false doubts.
// This far, P0 has taken the second.
Match second_burnmark(json options) {
  options["veterans"] = true;
  Match m = start({{"QH", "QD", "QS"}, {"4D", "7C", "8C"}, {"6D", "7S", "JH"}, {"6S", "7D", "JD"}},
                  {"2H", "3H", "4H", "5H",  // Veterans' burnmarks
                   "2C", "3C", "4C", "5C", "9D", "TH", "TD", "6C", "7H", "8D",
                   "JC", "JS", "KC", "9C", "TC", "8S", "KD", "KH", "KS", "AC"},
                  options);
  play(m, 0, kFireBath);
  EXPECT_EQ(view(m, 0)["phase"], "place") << "a burned slot and different cards: P0 chooses";
  play(m, 0, place({0, 1, 2}));
  play(m, 0, chest_up(2));  // 4C
  play(m, 1, side_flip("4D"));
  play(m, 2, hands_up("6D"));
  play(m, 3, side_flip("6S"));
  play(m, 0, doubt(3));  // 3C on s1 burns
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 2);
  return m;
}

Match third_burnmark(json options) {
  Match m = second_burnmark(std::move(options));
  play(m, 1, hands_up("7C"));
  play(m, 2, side_flip("7S"));
  play(m, 3, side_flip("7D"));
  play(m, 0, kFireBath);
  play(m, 0, place({0, 1, 2}));  // 9C and TC on burned slots, 8S exposed on s2
  play(m, 0, chest_up(0));
  play(m, 1, side_flip("9D"));
  play(m, 2, back_flip("TH"));
  play(m, 3, side_flip("TD"));
  play(m, 0, doubt(3));
  return m;
}

// NG-19: the third burnmark ends the round at once; in Survival the gibbon drops out instead.
TEST(NakedGibbon, ThirdBurnmarkEndsTheRound) {
  Match m = third_burnmark(json::object());
  EXPECT_TRUE(m.state().over());
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 3);
  const Result r = m.state().result();
  EXPECT_EQ(r.losers, std::vector<Seat>{0});
  EXPECT_EQ(r.winners, (std::vector<Seat>{1, 2, 3}));
  EXPECT_EQ(r.places, (std::vector<int>{4, 1, 1, 1}));

  Match s = third_burnmark({{"survival", true}});
  EXPECT_FALSE(s.state().over());
  const json p0 = gibbon(s, 0);
  EXPECT_TRUE(p0["out"]);
  EXPECT_EQ(p0["handCount"], 0);
  expect_slots(s, 0, {nullptr, nullptr, nullptr}, {false, false, false});
  EXPECT_EQ(view(s, 0)["eliminated"], json({0}));
  EXPECT_EQ(view(s, 0)["current"], 1);
  EXPECT_TRUE(s.state().legal_actions(0).empty());
}

// NG-16: a caught 8♠ back flip burns P0 first and then gives the hat; later back flips are
// refused.
TEST(NakedGibbon, HatAfterBurnmark) {
  Match m = start({{"QH", "QD", "QS"}, {"5C", "2D", "3D"}, {"6C", "3S", "4S"}, {"7C", "4D", "5D"}},
                  {"2C", "3C", "4C", "8S", "9C", "9D", "9H", "TC", "JC", "JD", "JS"});
  play(m, 0, kFireBath);  // 2C, 3C, 4C: no burned slot, placed at once
  EXPECT_EQ(view(m, 0)["phase"], "main");
  play(m, 0, chest_up(slot_of(m, 0, "4C")));  // draws 8S
  play(m, 1, hands_up("5C"));
  play(m, 2, hands_up("6C"));
  play(m, 3, hands_up("7C"));
  play(m, 0, back_flip("8S"));
  play(m, 1, doubt(0));
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 1);
  EXPECT_TRUE(gibbon(m, 0)["hat"]);
  EXPECT_EQ(gibbon(m, 0)["hand"], json({"JC", "JD", "JS"}));
  play(m, 1, hands_up("2D"));
  play(m, 2, hands_up("3S"));
  play(m, 3, hands_up("4D"));
  EXPECT_EQ(refusal(m, 0, back_flip("JC")), "wearing_hat");
  for (const Action& a : m.state().legal_actions(0)) EXPECT_NE(a.kind, kBackFlip);
  EXPECT_TRUE(is_legal(m, 0, side_flip("JC")));
}

// NG-10: a spot moult at 10 with {3♣, 9♠, K♦}: 3♣ goes to s1, the rest is discarded and two
// cards drawn; a new card of 10 or less (not a joker) can be moulted again.
TEST(NakedGibbon, SpotMoult) {
  Match m =
      start({{"TC", "5C", "6C"}, {"3C", "9S", "KD"}, kFillers[0], kFillers[1]}, {"7C", "5H", "X1"});
  play(m, 0, hands_up("TC"));
  const int discard = view(m, 1)["discard"].get<int>();
  Events ev;
  ASSERT_FALSE(m.apply(1, *game().action_from_json(spot_moult("3C", 1)), ev));
  for (const Event& e : ev.list()) {
    for (const char* hidden : {"9S", "KD", "9\u2660", "K\u2666"}) {
      EXPECT_EQ(e.body.dump().find(hidden), std::string::npos) << "moult discards stay hidden";
    }
    if (e.body["type"] == "drew") {
      EXPECT_EQ(e.to.seats, SeatSet::of(1));
    }
  }
  expect_slots(m, 1, {nullptr, "3C", nullptr}, {false, false, false});
  EXPECT_EQ(gibbon(m, 1)["hand"], json({"5H", "X1"}));
  EXPECT_EQ(view(m, 1)["discard"], discard + 2);
  EXPECT_EQ(view(m, 1)["current"], 1) << "moulting does not end the turn";
  EXPECT_EQ(refusal(m, 1, spot_moult("X1", 0)), "illegal_action");
  play(m, 1, spot_moult("5H", 0));
  EXPECT_EQ(gibbon(m, 1)["handCount"], 1) << "two table cards: the hand is topped up to one";
  EXPECT_EQ(view(m, 1)["discard"], discard + 3) << "the joker went with the rest";
}

// NG-10 and NG-14: a fire bath with 2 hand cards and 1 table card draws 2 face up, the owner places
// them (a burned slot makes it matter), then no more moulting.
TEST(NakedGibbon, FireBath) {
  Match m = start({{"TC", "5C", "6C"}, {"3C", "9S", "KD"}, kFillers[0], kFillers[2]},
                  {"8C", "8D", "8H", "8S", "7C", "5H", "JC", "2H", "QC"}, {{"veterans", true}});
  play(m, 0, hands_up("TC"));
  play(m, 1, spot_moult("3C", 1));  // hand {5H, JC}
  play(m, 1, kFireBath);
  EXPECT_EQ(view(m, 1)["phase"], "place");
  EXPECT_EQ(view(m, 1)["placing"]["cards"], json({"2H", "QC"}));
  EXPECT_EQ(m.state().legal_actions(1).size(), 2u);
  play(m, 1, place({2, 0}));  // QC safe on the burned s0
  expect_slots(m, 1, {"QC", "3C", "2H"}, {true, false, false});
  EXPECT_EQ(gibbon(m, 1)["handCount"], 0);
  for (const Action& a : m.state().legal_actions(1)) {
    EXPECT_NE(a.kind, kSpotMoult);
    EXPECT_NE(a.kind, kFireBath);
  }
  EXPECT_EQ(refusal(m, 1, kFireBath), "illegal_action");
}

// NG-9: with the deck and discards empty, a draw reshuffles the fire below each player's
// latest card; those stay doubtable and the fire number stays.
TEST(NakedGibbon, ReshuffleTheFire) {
  auto made = Match::create(game(), 2, {{"jokers", 0}}, 3);
  ASSERT_TRUE(made.ok());
  Match m = std::move(*made);
  // Back flips only: nobody doubts, nothing is discarded, the fire takes every card.
  while (view(m, 0)["deck"] != 0) {
    const Seat s = m.state().to_act().first();
    play(m, s, back_flip(gibbon(m, s)["hand"][0]));
  }
  ASSERT_EQ(view(m, 0)["discard"], 0);
  const Seat s = m.state().to_act().first();
  const json before = view(m, s)["fire"];
  play(m, s, back_flip(gibbon(m, s)["hand"][0]));
  const json v = view(m, 1 - s);
  ASSERT_EQ(v["fire"].size(), 2u);
  EXPECT_EQ(v["fire"][0]["by"], 1 - s);
  EXPECT_EQ(v["fire"][0]["after"], before.back()["after"]);
  EXPECT_EQ(v["fire"][1]["by"], s);
  EXPECT_EQ(v["fireNumber"], v["fire"][1]["after"]);
  EXPECT_EQ(v["doubtable"], json({s}));
  EXPECT_EQ(v["deck"], static_cast<int>(before.size()) + 1 - 2 - 1);
  EXPECT_EQ(gibbon(m, s)["handCount"], 3);
}

// NG-12: with 2 players, after a false accusation the doubted player starts.
TEST(NakedGibbon, TwoPlayersFalseAccusation) {
  Match m = start({{"5C", "6C", "7C"}, {"5D", "6D", "7D"}}, {});
  play(m, 0, hands_up("5C"));
  play(m, 1, side_flip("5D"));
  play(m, 0, doubt(1));
  EXPECT_EQ(view(m, 0)["lastDoubt"]["kept"], true);
  EXPECT_EQ(view(m, 0)["current"], 1);
  EXPECT_EQ(view(m, 0)["phase"], "main");
}

// NG-20: several rounds; the loser swaps places with a player of their choice and deals.
TEST(NakedGibbon, Rounds_LoserSwapsAndDeals) {
  Match m = third_burnmark({{"lossesToEndMatch", 2}});
  ASSERT_FALSE(m.state().over());
  json v = view(m, 0);
  EXPECT_EQ(v["phase"], "swap");
  EXPECT_EQ(v["current"], 0) << "the loser chooses";
  EXPECT_EQ(m.state().to_act(), SeatSet::of(0));
  EXPECT_EQ(m.state().legal_actions(0).size(), 3u);
  EXPECT_EQ(gibbon(m, 0)["losses"], 1);
  play(m, 0, {{"move", "swap"}, {"with", 2}});
  v = view(m, 0);
  EXPECT_EQ(v["round"], 2);
  EXPECT_EQ(v["seatOrder"], json({2, 1, 0, 3}));
  EXPECT_EQ(v["dealer"], 0);
  EXPECT_EQ(v["current"], 3) << "the player on the new dealer's left starts";
  for (Seat s = 0; s < 4; ++s) {
    EXPECT_EQ(gibbon(m, s)["handCount"], 3);
    EXPECT_EQ(gibbon(m, s)["burnmarks"], 1) << "fresh Veterans' burnmarks";
  }
  EXPECT_EQ(gibbon(m, 0)["losses"], 1);
  // Clockwise goes by places now: after seat 3 (last place) comes seat 2 (first place).
  const Seat after3 = v["seatOrder"][0].get<int>();
  play(m, 3, kRandomJump);
  EXPECT_EQ(view(m, 0)["current"], after3);
}

// NG-18: with Never My Tail the second burnmark burns the tail (here on top of a Veterans'
// burnmark, so P0's first false doubt ends the round).
TEST(NakedGibbon, NeverMyTail_SecondBurnmarkEndsTheRound) {
  Match m = second_burnmark({{"neverMyTail", true}});
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(gibbon(m, 0)["burnmarks"], 2);
  EXPECT_EQ(view(m, 0)["burnLimit"], 2);
  const Result r = m.state().result();
  EXPECT_EQ(r.losers, std::vector<Seat>{0});
  EXPECT_EQ(r.winners, (std::vector<Seat>{1, 2, 3}));
}

// NG-16 and NG-19: the hat comes off when its wearer drops out. P0 is caught back-flipping a
// spade, gets naked and the hat; later its panic jump crashes, the exposed 5♣ is its second
// burnmark (Never My Tail, on top of a Veterans' one) and P0 drops out, hat and all.
TEST(NakedGibbon, HatComesOffOnElimination) {
  const json options = {{"survival", true}, {"veterans", true}, {"neverMyTail", true}};
  Match m = start({{"9S", "5C", "6C"}, {"7D", "8D", "TD"}, {"KC", "2D", "3D"}},
                  {"2H", "3H", "4H",  // Veterans' burnmarks
                   "4C", "7S", "8S", "2S"},
                  options);
  play(m, 0, back_flip("9S"));  // draws 4♣
  play(m, 1, doubt(0));
  EXPECT_EQ(view(m, 0)["hat"], 0);
  EXPECT_EQ(view(m, 0)["phase"], "naked-place");
  play(m, 0, place({1, 2, 0}));  // 5♣ and 6♣ exposed, 4♣ on the burned slot
  play(m, 1, hands_up("TD"));    // the rightful doubter starts the new fire; draws 7♠
  play(m, 2, hands_up("KC"));    // draws 8♠
  play(m, 0, kRandomJump);       // 2♠ on 13: a crash
  const json v = view(m, kSpectator);
  EXPECT_EQ(v["out"][0], true);
  EXPECT_EQ(v["eliminated"], json({0}));
  EXPECT_EQ(v["hat"], nullptr) << "nobody wears the hat of a gibbon that dropped out";
  EXPECT_FALSE(m.state().over());
}

// NG-9: with the deck empty, a draw shuffles the discard pile into a new deck (the fire stays).
TEST(NakedGibbon, EmptyDeckReshufflesTheDiscards) {
  auto made = Match::create(game(), 2, {{"jokers", 0}}, 5);
  ASSERT_TRUE(made.ok());
  Match m = std::move(*made);
  play(m, 0, back_flip(gibbon(m, 0)["hand"][0]));
  play(m, 1, doubt(0));  // whoever is punished, the fire goes to the discards
  // Back flips (panic jumps without a hand card) until the deck is empty.
  while (view(m, 0)["deck"] != 0) {
    ASSERT_FALSE(m.state().over());
    const Seat s = m.state().to_act().first();
    const json v = view(m, s);
    if (v["phase"] == "naked-place" || v["phase"] == "place") {
      Events ev;
      ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev));
      continue;
    }
    play(m, s, v["hand"].empty() ? kRandomJump : back_flip(v["hand"][0]));
  }
  const int discards = view(m, 0)["discard"].get<int>();
  ASSERT_GT(discards, 0);
  const std::size_t fire = view(m, 0)["fire"].size();
  const Seat s = m.state().to_act().first();
  const json hand = gibbon(m, s)["hand"];
  ASSERT_FALSE(hand.empty());
  auto a = game().action_from_json(back_flip(hand[0]));
  Events ev;
  ASSERT_FALSE(m.apply(s, *a, ev));
  int reshuffles = 0;
  for (const Event& e : ev.list()) {
    if (e.body["type"] != "reshuffle") continue;
    ++reshuffles;
    EXPECT_TRUE(e.to.everyone);
    EXPECT_EQ(e.body["from"], "discard");
    EXPECT_EQ(e.body["cards"], discards);
  }
  EXPECT_EQ(reshuffles, 1);
  EXPECT_EQ(view(m, 0)["discard"], 0);
  EXPECT_EQ(view(m, 0)["deck"], discards - 1) << "one card drawn from the new deck";
  EXPECT_EQ(view(m, 0)["fire"].size(), fire + 1) << "the fire is not touched";
}

// NG-1 and NG-20 with two players: no seat swap; the loser of a round deals the next and the
// other gibbon starts it; the game ends at the second loss.
TEST(NakedGibbon, TwoPlayersPlaySeveralRounds) {
  int rounds_checked = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    auto made = Match::create(game(), 2, {{"lossesToEndMatch", 2}}, seed);
    ASSERT_TRUE(made.ok());
    Match m = std::move(*made);
    Rng rng(seed);
    int round = 1;
    while (!m.state().over()) {
      const Seat s = m.state().to_act().first();
      const auto legal = m.state().legal_actions(s);
      Events ev;
      ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], ev));
      const json v = view(m, kSpectator);
      EXPECT_NE(v["phase"], "swap") << "two gibbons never swap seats";
      for (const Event& e : ev.list()) {
        if (e.body["type"] != "round-over" || m.state().over()) continue;
        const Seat loser = e.body["loser"];
        ++round;
        ++rounds_checked;
        EXPECT_EQ(v["round"], round);
        EXPECT_EQ(v["dealer"], loser) << "the loser deals";
        EXPECT_EQ(v["current"], 1 - loser) << "the other gibbon starts";
        EXPECT_EQ(v["seatOrder"], json({0, 1}));
        EXPECT_EQ(v["phase"], "main");
        EXPECT_EQ(v["handCounts"], json({3, 3}));
      }
    }
    const Result r = m.state().result();
    ASSERT_EQ(r.losers.size(), 1u);
    EXPECT_EQ(r.scores[r.losers[0]], 2);
    EXPECT_EQ(r.winners, std::vector<Seat>{1 - r.losers[0]});
    EXPECT_LE(r.scores[1 - r.losers[0]], 1);
  }
  EXPECT_GE(rounds_checked, 10);
}

// NG-16: there is one hat; the next caught heart-cheat takes it from the wearer.
TEST(NakedGibbon, HatPassesToTheNextHeartCheat) {
  Match m = start({{"5S", "5C", "6C"}, {"9S", "2D", "3D"}, {"9C", "7D", "8D"}, kFillers[1]}, {});
  play(m, 0, hands_up("5S"));
  play(m, 1, back_flip("9S"));
  play(m, 2, doubt(1));
  EXPECT_EQ(view(m, 0)["hat"], 1);
  play(m, 2, back_flip("9C"));  // starting the new fire with a lie
  play(m, 3, doubt(2));
  EXPECT_EQ(view(m, 0)["hat"], 2) << "seat 1 is relieved of it";
}

// NG-25: the bound that makes every round end lies at 1,000 jumps and doubts, far beyond any
// real round: a round of back flips nobody doubts goes on until then. With nobody burned, the
// loser is the first gibbon clockwise from the one to play.
TEST(NakedGibbon, RoundBoundIsAThousandJumps) {
  auto made = Match::create(game(), 2, json::object(), 11);
  ASSERT_TRUE(made.ok());
  Match m = std::move(*made);
  for (int turn = 0; turn < 1000; ++turn) {
    ASSERT_FALSE(m.state().over()) << "turn " << turn;
    const Seat s = m.state().to_act().first();
    play(m, s, back_flip(gibbon(m, s)["hand"][0]));
  }
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(m.state().result().losers, std::vector<Seat>{0});
  EXPECT_EQ(view(m, 0)["turnsThisRound"], 1000);
  EXPECT_LE(static_cast<int>(m.log().size()), game().info().max_actions);
}

// NG-25 in Survival: at the bound the first gibbon out loses the round and everyone still in
// shares the win.
TEST(NakedGibbon, RoundBoundInSurvival) {
  Match m = third_burnmark({{"survival", true}});
  ASSERT_FALSE(m.state().over());
  ASSERT_EQ(view(m, 0)["eliminated"], json({0}));
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    const json hand = gibbon(m, s)["hand"];
    play(m, s, hand.empty() ? kRandomJump : back_flip(hand[0]));
    ASSERT_LE(view(m, kSpectator)["turnsThisRound"], 1000);
  }
  const json v = view(m, kSpectator);
  ASSERT_EQ(v["turnsThisRound"], 1000) << "nobody doubts, so only the bound ends it";
  const Result r = m.state().result();
  EXPECT_EQ(r.losers, std::vector<Seat>{0});
  EXPECT_EQ(r.winners, (std::vector<Seat>{1, 2, 3}));
}

// Survival (NG-19): played out at random, the last gibbon jumping wins and the others rank in
// reverse order of dropping out.
TEST(NakedGibbon, Survival_LastGibbonWins) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto made = Match::create(game(), 4, {{"survival", true}, {"neverMyTail", true}}, seed);
    ASSERT_TRUE(made.ok());
    Match m = std::move(*made);
    Rng rng(seed);
    while (!m.state().over()) {
      const Seat s = m.state().to_act().first();
      const auto legal = m.state().legal_actions(s);
      Events ev;
      ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], ev));
    }
    const json v = view(m, kSpectator);
    const Result r = m.state().result();
    if (v["eliminated"].size() < 3) continue;  // ended by the turn limit
    const std::vector<Seat> out = v["eliminated"];
    ASSERT_EQ(r.winners.size(), 1u);
    EXPECT_FALSE(v["out"][r.winners[0]].get<bool>());
    EXPECT_EQ(r.losers, std::vector<Seat>{out[0]});
    EXPECT_EQ(r.places[out[0]], 4);
    EXPECT_EQ(r.places[out[1]], 3);
    EXPECT_EQ(r.places[out[2]], 2);
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

// NG-17, NG-18: Veterans' burnmarks are hidden from everyone, the owner included; Veterans with
// Never My Tail is allowed, with a warning.
TEST(NakedGibbon, Veterans_BurnmarksHidden) {
  Match m = start({kFillers[0], kFillers[1], kFillers[2], {"5C", "6C", "7C"}},
                  {"8C", "8D", "8H", "8S"}, {{"veterans", true}, {"neverMyTail", true}});
  for (Seat s = 0; s < 4; ++s) {
    const json v = view(m, s);
    EXPECT_EQ(v["burnmarks"][s], 1);
    const std::string text = v.dump();
    for (const char* c : {"8C", "8D", "8H", "8S"}) EXPECT_EQ(text.find(c), std::string::npos);
    EXPECT_TRUE(v.contains("warning"));
  }
  EXPECT_EQ(view(m, 0)["burnLimit"], 2);
}

// Face-down cards: the owner sees its own, nobody else does, until a doubt turns one over.
TEST(NakedGibbon, FaceDownCardsStayPrivate) {
  Match m = start({{"7C", "5C", "6C"}, {"8H", "2D", "3D"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up("7C"));
  auto a = game().action_from_json(back_flip("8H"));
  Events ev;
  ASSERT_FALSE(m.apply(1, *a, ev));
  for (const Event& e : ev.list()) {
    if (e.to.everyone) {
      EXPECT_EQ(e.body.dump().find("8H"), std::string::npos) << e.body.dump();
    }
  }
  EXPECT_EQ(view(m, 1)["fire"][1]["card"], "8H");
  EXPECT_FALSE(view(m, 2)["fire"][1].contains("card"));
  EXPECT_FALSE(view(m, kSpectator)["fire"][1].contains("card"));
  EXPECT_EQ(m.state().describe(2, *game().action_from_json(doubt(1))),
            "doubt {seat:1}'s back flip: 'higher heart' (fire 7\u21928)");
}

// How actions read in the terminal, and the turn timer's default (a panic jump).
TEST(NakedGibbon, DescribeAndFallback) {
  Match m = start({{"5C", "6C", "7C"}, {"7H", "5D", "TD"}, kFillers[0], kFillers[1]}, {});
  play(m, 0, hands_up("5C"));
  auto describe = [&](const json& move) {
    return m.state().describe(1, *game().action_from_json(move));
  };
  EXPECT_EQ(describe(back_flip("7H")), "back flip: 'higher heart' (fire 5\u21926) with 7\u2665");
  EXPECT_EQ(describe(side_flip("5D")), "side flip: 'same number' (fire 5) with 5\u2666");
  EXPECT_EQ(describe(hands_up("TD")), "hands up: 10\u2666 (fire 5\u219210)");
  EXPECT_EQ(m.state().fallback_action(1), Action::make(kRandom));
}

// Malformed moves are refused as bad_action and change nothing.
TEST(NakedGibbon, MalformedActionsAreRefused) {
  Match m = start({{"5C", "6C", "7C"}, kFillers[0], kFillers[1], kFillers[2]}, {});
  EXPECT_EQ(refusal(m, 0, {{"move", "hands-up"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "hands-up"}, {"card", "1Z"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "chest-up"}, {"slot", 3}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "spot-moult"}, {"card", "5C"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "place"}, {"slots", json::array()}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "doubt"}, {"target", "1"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "fly"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, hands_up("9C")), "not_in_hand");
  EXPECT_EQ(refusal(m, 1, hands_up("2C")), "not_your_turn");
  EXPECT_TRUE(m.log().empty());
}

}  // namespace
}  // namespace campfire::naked_gibbon
