// Fib-Fibonacci: the rules of docs/rules/fib-fibonacci.md (FF-1..FF-20), set up with deck orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "engine/core/match.hpp"
#include "engine/fib_fibonacci/fib_fibonacci.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::fib_fibonacci {
namespace {

using campfire::testing::play;
using campfire::testing::refusal;

const json kDrawMove = {{"move", "draw"}};
const json kPassMove = {{"move", "pass"}};

json joker(const std::string& card) {
  return {{"move", "joker"}, {"card", card}};
}
json joker(const std::string& card, const std::string& bonus, const std::string& side,
           int value = -1) {
  json j = {{"move", "joker"}, {"card", card}, {"bonus", bonus}, {"opening", side}};
  if (value >= 0) j["value"] = value;
  return j;
}
json run(const std::string& card, int index, int value = -1) {
  json j = {{"move", "run"}, {"card", card}, {"run", index}};
  if (value >= 0) j["value"] = value;
  return j;
}
json restart(const std::string& card, int index) {
  return {{"move", "restart"}, {"card", card}, {"run", index}};
}
json four_on_run(const std::string& card, int index, int position) {
  return {{"move", "four"}, {"card", card}, {"run", index}, {"position", position}};
}
json four_on_base(const std::string& card, int base) {
  return {{"move", "four"}, {"card", card}, {"base", base}};
}
json four_on_side(const std::string& card, int side) {
  return {{"move", "four"}, {"card", card}, {"sideCard", side}};
}
json pair(const std::string& card) {
  return {{"move", "pair"}, {"card", card}};
}

// A deck order dealing `p0` and `p1` (five cards each, dealt alternately from seat 0) with
// `pile` on top of the draw pile; the other cards follow in the game's own order.
json deal(const std::vector<std::string>& p0, const std::vector<std::string>& p1,
          const std::vector<std::string>& pile = {}) {
  const Game& g = game();
  std::vector<std::string> top;
  for (std::size_t i = 0; i < 5; ++i) {
    top.push_back(p0.at(i));
    top.push_back(p1.at(i));
  }
  top.insert(top.end(), pile.begin(), pile.end());
  json codes = json::array();
  for (const auto& code : top) codes.push_back(code);
  for (Card c : g.deck(Options(), 2)) {
    const std::string code = g.card_code(c);
    if (std::find(top.begin(), top.end(), code) == top.end()) codes.push_back(code);
  }
  EXPECT_EQ(codes.size(), 26u) << "a card is named twice";
  return codes;
}

Match start(const json& deck, json options = json::object()) {
  auto m = Match::create(game(), 2, options, 1, deck);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return std::move(*m);
}

json view(const Match& m, Seat s) {
  return m.state().view(s);
}
Seat current(const Match& m) {
  return m.state().to_act().first();
}

bool is_legal(const Match& m, Seat seat, const json& move) {
  auto a = game().action_from_json(move);
  EXPECT_TRUE(a.ok()) << move.dump();
  const auto legal = m.state().legal_actions(seat);
  return a.ok() && std::find(legal.begin(), legal.end(), *a) != legal.end();
}

// The legal moves of `seat` as JSON.
std::vector<json> legal_json(const Match& m, Seat seat) {
  std::vector<json> out;
  for (const Action& a : m.state().legal_actions(seat)) out.push_back(game().action_to_json(a));
  return out;
}

std::vector<int> run_values(const Match& m, int index) {
  std::vector<int> values;
  const json v = view(m, 0);
  for (const json& value : v["runs"][index]["values"]) values.push_back(value);
  return values;
}

// A refused move changes nothing at all.
void expect_refused(Match& m, Seat seat, const json& move, const std::string& code) {
  const auto before = m.state().clone();
  EXPECT_EQ(refusal(m, seat, move), code) << move.dump();
  EXPECT_TRUE(m.state().equals(*before)) << move.dump();
}

// The cards: 26: 2 jokers, four each of 2/3/5/7/8, two 4s and two 6s.
TEST(FibFibonacci, DeckOf26) {
  const auto deck = game().deck(Options(), 2);
  ASSERT_EQ(deck.size(), 26u);
  std::map<char, int> ranks;
  for (Card c : deck) ++ranks[game().card_code(c)[0]];
  EXPECT_EQ(ranks,
            (std::map<char, int>{
                {'X', 2}, {'2', 4}, {'3', 4}, {'4', 2}, {'5', 4}, {'6', 2}, {'7', 4}, {'8', 4}}));
  EXPECT_EQ(std::set<Card>(deck.begin(), deck.end()).size(), 26u);
  EXPECT_FALSE(game().parse_card("9S").has_value());
  EXPECT_FALSE(game().parse_card("4H").has_value());
  EXPECT_TRUE(game().parse_card("6D").has_value());
  // Five cards each, sixteen in the pile; seat 0 (the non-dealer) starts.
  Match m = start(deal({"2C", "3C", "5C", "7C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
  EXPECT_EQ(view(m, 0)["handCounts"], json({5, 5}));
  EXPECT_EQ(view(m, 0)["drawPile"], 16);
  EXPECT_EQ(view(m, 0)["dealer"], 1);
  EXPECT_EQ(current(m), 0);
  EXPECT_EQ(view(m, 0)["hand"], json({"2C", "3C", "5C", "7C", "8C"}));
}

// FF-3: on an empty table only a joker may be played; without one, drawing is all there is.
TEST(FibFibonacci, EmptyTableOnlyJoker) {
  Match m = start(deal({"2C", "3C", "5C", "7C", "8C"}, {"X1", "2D", "3D", "4C", "6C"}));
  EXPECT_EQ(legal_json(m, 0), std::vector<json>{kDrawMove});
  expect_refused(m, 0, run("2C", 0), "illegal_action");
  expect_refused(m, 0, kPassMove, "cannot_pass");
  play(m, 0, kDrawMove);
  // Seat 1 holds a joker: it is legal, alone or with a bonus; the 4 and 6 are not (nothing to
  // replace, no opening).
  EXPECT_TRUE(is_legal(m, 1, joker("X1")));
  EXPECT_TRUE(is_legal(m, 1, joker("X1", "2D", "A")));
  for (const json& move : legal_json(m, 1)) {
    EXPECT_TRUE(move["move"] == "draw" || move["move"] == "joker") << move.dump();
  }
  expect_refused(m, 1, four_on_base("4C", 0), "illegal_action");
  // FF-3: a joker may also be played when the table is not empty.
  play(m, 1, joker("X1"));
  play(m, 0, kDrawMove);
  EXPECT_TRUE(is_legal(m, 1, run("2D", 0)));
  play(m, 1, kDrawMove);
  play(m, 0, kDrawMove);
  EXPECT_EQ(view(m, 0)["bases"].size(), 1u);
}

// FF-4: the joker's bonus card is a 2, a 3 or a 6 worth 0..3.
TEST(FibFibonacci, JokerBonusCard) {
  struct Row {
    json move;
    bool legal;
  };
  const std::vector<Row> rows = {
      {joker("X1", "2C", "A"), true},    {joker("X1", "3C", "B"), true},
      {joker("X1", "6C", "A", 0), true}, {joker("X1", "6C", "A", 1), true},
      {joker("X1", "6C", "B", 2), true}, {joker("X1", "6C", "B", 3), true},
      {joker("X1", "5C", "A"), false},   {joker("X1", "6C", "A", 4), false},
      {joker("X1", "4C", "A"), false},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.move.dump());
    Match m = start(deal({"X1", "2C", "3C", "5C", "6C"}, {"2D", "3D", "5D", "7D", "8D"}));
    if (row.move["bonus"] == "4C") {
      m = start(deal({"X1", "2C", "3C", "4C", "6C"}, {"2D", "3D", "5D", "7D", "8D"}));
    }
    if (row.legal) {
      play(m, 0, row.move);
      const int index = row.move["opening"] == "A" ? 0 : 1;
      const json r = view(m, 1)["runs"][index];
      EXPECT_EQ(r["cards"].size(), 1u);
      EXPECT_EQ(r["cards"][0], row.move["bonus"]);
      EXPECT_EQ(view(m, 1)["handCounts"], json({3, 5})) << "joker and bonus: one play";
      EXPECT_EQ(current(m), 1);
    } else {
      expect_refused(m, 0, row.move, "illegal_action");
    }
  }
}

// A match where seat 0 has opened X1 with `first` on side A (run 0) and seat 1 holds `p1`.
Match opened_with(const json& first_move, const std::vector<std::string>& p1) {
  Match m = start(deal({"X1", "2C", "3C", "6C", "7C"}, p1));
  play(m, 0, first_move);
  return m;
}

// FF-5 and FF-7: second cards after a first card of 2.
TEST(FibFibonacci, SecondCardAfterTwo) {
  const std::vector<std::string> hand = {"3D", "5D", "6D", "2D", "8D"};
  const std::vector<std::pair<json, bool>> rows = {
      {run("3D", 0), true},    {run("5D", 0), true},     {run("6D", 0, 3), true},
      {run("6D", 0, 4), true}, {run("6D", 0, 5), true},  {run("2D", 0), false},
      {run("8D", 0), false},   {run("6D", 0, 2), false}, {run("6D", 0, 6), false},
  };
  for (const auto& [move, legal] : rows) {
    SCOPED_TRACE(move.dump());
    Match m = opened_with(joker("X1", "2C", "A"), hand);
    if (legal) {
      play(m, 1, move);
      EXPECT_EQ(view(m, 0)["runs"][0]["cards"].size(), 2u);
    } else {
      expect_refused(m, 1, move, "illegal_action");
    }
  }
}

// FF-5 and FF-7: after a first card of 3 (natural, or a 6 declared 3): 5 and 6 as 4 or 5 are legal;
// 3 and 6 as 3 are not.
TEST(FibFibonacci, SecondCardAfterThree) {
  for (const json& first : {joker("X1", "3C", "A"), joker("X1", "6C", "A", 3)}) {
    SCOPED_TRACE(first.dump());
    const std::vector<std::string> hand = {"3D", "5D", "6D", "2D", "8D"};
    const std::vector<std::pair<json, bool>> rows = {{run("5D", 0), true},
                                                     {run("6D", 0, 4), true},
                                                     {run("6D", 0, 5), true},
                                                     {run("3D", 0), false},
                                                     {run("6D", 0, 3), false}};
    for (const auto& [move, legal] : rows) {
      SCOPED_TRACE(move.dump());
      Match m = opened_with(first, hand);
      if (legal) {
        play(m, 1, move);
      } else {
        expect_refused(m, 1, move, "illegal_action");
      }
    }
  }
}

// FF-5: the text's 2-3-5-8; a 6 in third place is forced to 5; 7 does not follow 2-3.
TEST(FibFibonacci, TwoThreeFiveEight) {
  Match m = start(deal({"X1", "2C", "5C", "7C", "6C"}, {"3D", "8D", "2D", "3H", "5D"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("3D", 0));
  expect_refused(m, 0, run("7C", 0), "illegal_action");
  EXPECT_TRUE(is_legal(m, 0, run("6C", 0, 5)));
  EXPECT_FALSE(is_legal(m, 0, run("6C", 0, 4)));
  play(m, 0, run("5C", 0));
  play(m, 1, run("8D", 0));
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5, 8}));
  EXPECT_EQ(view(m, 0)["runs"][0]["closed"], true);
}

// FF-7: in 2-3-6 the 6 is worth 5, and the next card is an 8 or a 6 forced to 8.
TEST(FibFibonacci, SixForcedToSum) {
  Match m = start(deal({"X1", "2C", "6C", "7C", "5C"}, {"3D", "6D", "8D", "2D", "3H"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("3D", 0));
  play(m, 0, run("6C", 0, 5));
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5}));
  std::vector<json> on_run;
  for (const json& move : legal_json(m, 1)) {
    if (move["move"] == "run" && move["run"] == 0) on_run.push_back(move);
  }
  EXPECT_EQ(on_run, (std::vector<json>{run("6D", 0, 8), run("8D", 0)}));
  expect_refused(m, 1, run("6D", 0, 5), "illegal_action");
  expect_refused(m, 1, run("3H", 0), "illegal_action");
  play(m, 1, run("6D", 0, 8));
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5, 8}));
}

// FF-5 and FF-7: exactly 11 first pairs, found by enumerating the legal second cards after every
// legal first card.
TEST(FibFibonacci, ElevenStartingPairs) {
  std::set<std::pair<int, int>> pairs;
  std::vector<std::pair<json, int>> firsts = {{joker("X1", "2C", "A"), 2},
                                              {joker("X1", "3C", "A"), 3}};
  for (int v = 0; v <= 3; ++v) firsts.push_back({joker("X1", "6C", "A", v), v});
  // Every first card the bonus may be is one of these.
  Match probe = start(deal({"X1", "2C", "3C", "6C", "7C"}, {"3D", "5D", "6D", "7D", "8D"}));
  int bonus_moves = 0;
  for (const json& move : legal_json(probe, 0)) {
    if (move.contains("bonus") && move["opening"] == "A") ++bonus_moves;
  }
  EXPECT_EQ(bonus_moves, 6);
  for (const auto& [first, value] : firsts) {
    Match m = opened_with(first, {"3D", "5D", "6D", "7D", "8D"});
    for (const json& move : legal_json(m, 1)) {
      if (move["move"] != "run" || move["run"] != 0) continue;
      const std::string card = move["card"];
      const int second = card[0] == '6' ? move["value"].get<int>() : card[0] - '0';
      pairs.insert({value, second});
    }
  }
  const std::set<std::pair<int, int>> expected = {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5},
                                                  {2, 3}, {2, 4}, {2, 5}, {3, 4}, {3, 5}};
  EXPECT_EQ(pairs, expected);
  EXPECT_EQ(pairs.size(), 11u);
}

// FF-5, FF-6, FF-7 and FF-12: runs built from value sequences (a 6 shown as "value(6)").
TEST(FibFibonacci, ValueRuns) {
  {  // 2-5-7: closed after the 7
    Match m = start(deal({"X1", "2C", "7C", "3C", "3H"}, {"5D", "2D", "3D", "8D", "8H"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("5D", 0));
    EXPECT_EQ(view(m, 0)["runs"][0]["closed"], false);
    play(m, 0, run("7C", 0));
    EXPECT_EQ(view(m, 0)["runs"][0]["closed"], true);
  }
  {  // 3-5-8: closed
    Match m = start(deal({"X1", "3C", "8C", "2C", "2H"}, {"5D", "2D", "3D", "7D", "7H"}));
    play(m, 0, joker("X1", "3C", "A"));
    play(m, 1, run("5D", 0));
    play(m, 0, run("8C", 0));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{3, 5, 8}));
    EXPECT_EQ(view(m, 0)["runs"][0]["closed"], true);
  }
  {  // 3-4(6)-7: a natural 7 is legal
    Match m = start(deal({"X1", "3C", "7C", "2C", "2H"}, {"6D", "2D", "3D", "5D", "5H"}));
    play(m, 0, joker("X1", "3C", "A"));
    play(m, 1, run("6D", 0, 4));
    play(m, 0, run("7C", 0));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{3, 4, 7}));
  }
  {  // 1(6)-3-4(6)-7: a natural 7 in fourth place
    Match m = start(deal({"X1", "6C", "6D", "2C", "2H"}, {"3D", "7D", "2D", "5D", "5H"}));
    play(m, 0, joker("X1", "6C", "A", 1));
    play(m, 1, run("3D", 0));
    play(m, 0, run("6D", 0, 4));
    play(m, 1, run("7D", 0));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{1, 3, 4, 7}));
  }
  {  // 0(6)-3-3-6(6 as 6): legal with both 6s
    Match m = start(deal({"X1", "6C", "3C", "2C", "2H"}, {"3D", "6D", "2D", "5D", "5H"}));
    play(m, 0, joker("X1", "6C", "A", 0));
    play(m, 1, run("3D", 0));
    play(m, 0, run("3C", 0));
    play(m, 1, run("6D", 0, 6));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{0, 3, 3, 6}));
  }
  {  // 2-4(6)-6(6) is legal; 2-4(6)-6 as 5 is not (the third place is forced to 6)
    Match m = start(deal({"X1", "2C", "6D", "3C", "3H"}, {"6C", "2D", "3D", "5D", "5H"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("6C", 0, 4));
    expect_refused(m, 0, run("6D", 0, 5), "illegal_action");
    play(m, 0, run("6D", 0, 6));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 4, 6}));
  }
  {  // 0(6)-3-3: a natural 3 in third place; 0(6)-5-5: a natural 5 in third place
    Match m = start(deal({"X1", "6C", "3C", "X2", "6D"}, {"3D", "5D", "2D", "5H", "8H"}));
    play(m, 0, joker("X1", "6C", "A", 0));
    play(m, 1, run("3D", 0));
    play(m, 0, run("3C", 0));
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{0, 3, 3}));
    play(m, 1, kDrawMove);
    play(m, 0, kDrawMove);
    play(m, 1, kDrawMove);
    play(m, 0, joker("X2", "6D", "A", 0));  // runs 2 (side A) and 3 (side B)
    play(m, 1, run("5D", 2));
    play(m, 0, kDrawMove);
    play(m, 1, run("5H", 2));
    EXPECT_EQ(run_values(m, 2), (std::vector<int>{0, 5, 5}));
  }
}

// FF-9: a 4 replaces the 5 of 2-3-5: the 5 goes to the hand, the run still reads 2-3-5 and
// wants an 8, and the 5 cannot be played in the same turn.
TEST(FibFibonacci, SmallWildReplacesRunCard) {
  Match m = start(deal({"X1", "2C", "5C", "7C", "8C"}, {"3D", "4C", "8D", "2D", "3H"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("3D", 0));
  play(m, 0, run("5C", 0));
  play(m, 1, four_on_run("4C", 0, 2));
  EXPECT_EQ(view(m, 1)["handCounts"][1], 4) << "four cards before, four after";
  const json hand = view(m, 1)["hand"];
  EXPECT_NE(std::find(hand.begin(), hand.end(), "5C"), hand.end());
  EXPECT_EQ(std::find(hand.begin(), hand.end(), "4C"), hand.end());
  EXPECT_EQ(view(m, 0)["runs"][0]["cards"][2], "4C");
  EXPECT_EQ(view(m, 0)["runs"][0]["values"][2], 5);
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5}));
  EXPECT_EQ(view(m, 0)["runs"][0]["next"], 8);
  // The play was the whole turn: the 5 must wait.
  EXPECT_EQ(current(m), 0);
  EXPECT_EQ(refusal(m, 1, run("5C", 1)), "not_your_turn");
  play(m, 0, run("8C", 0));
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5, 8}));
}

// FF-9: a 4 replacing a joker takes it; the 4 is the base with the same openings and runs.
TEST(FibFibonacci, SmallWildReplacesJoker) {
  Match m = start(deal({"X1", "2C", "7C", "8C", "5H"}, {"4C", "3D", "8D", "2D", "3H"}));
  play(m, 0, joker("X1", "2C", "A"));
  const json runs_before = view(m, 0)["runs"];
  play(m, 1, four_on_base("4C", 0));
  EXPECT_EQ(view(m, 0)["bases"][0]["card"], "4C");
  EXPECT_EQ(view(m, 0)["bases"][0]["role"], "joker");
  EXPECT_EQ(view(m, 0)["runs"], runs_before);
  const json hand = view(m, 1)["hand"];
  EXPECT_NE(std::find(hand.begin(), hand.end(), "X1"), hand.end());
  // Both openings still take cards.
  play(m, 0, kDrawMove);
  play(m, 1, run("2D", 1));
  EXPECT_EQ(run_values(m, 1), std::vector<int>{2});
}

// FF-8: a 6 laid on the end of 2-5-7 is a new base with one opening and no bonus; the next
// card there is a 2, a 3 or a 6 worth 0..3.
TEST(FibFibonacci, RestartSix) {
  Match m = start(deal({"X1", "2C", "7C", "6C", "2H"}, {"5D", "3D", "6D", "2D", "8D"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("5D", 0));
  play(m, 0, run("7C", 0));
  play(m, 1, kDrawMove);
  // The text's "except a wild card": a 6 may still go on 2-5-7, forced to 12.
  EXPECT_TRUE(is_legal(m, 0, run("6C", 0, 12)));
  EXPECT_FALSE(is_legal(m, 0, run("6C", 0, 7)));
  play(m, 0, restart("6C", 0));
  const json v = view(m, 1);
  EXPECT_EQ(v["bases"].size(), 2u);
  EXPECT_EQ(v["bases"][1], json({{"card", "6C"}, {"role", "restart"}, {"caps", 0}}));
  EXPECT_EQ(v["runs"][0]["cappedBy"], 1);
  ASSERT_EQ(v["runs"].size(), 3u) << "the joker's two openings and the restart's one";
  EXPECT_EQ(v["runs"][2]["cards"].size(), 0u) << "no bonus card";
  EXPECT_EQ(v["runs"][2]["opening"], "A") << "it points the way of the run it caps";
  EXPECT_EQ(v["columns"][0]["A"], json({0, 2})) << "run 0, capped by base 1, then run 2";
  // Nothing more goes on the capped run, not even a 6.
  expect_refused(m, 1, run("6D", 0, 12), "illegal_action");
  expect_refused(m, 1, restart("6D", 0), "illegal_action");
  std::set<std::string> on_new;
  for (const json& move : legal_json(m, 1)) {
    if (move["move"] == "run" && move["run"] == 2) {
      on_new.insert(move["card"].get<std::string>() +
                    (move.contains("value") ? "=" + move["value"].dump() : ""));
    }
  }
  EXPECT_EQ(on_new, (std::set<std::string>{"2D", "3D", "6D=0", "6D=1", "6D=2", "6D=3"}));
}

// FF-11: rule 8 with 7♠ and 8♠.
TEST(FibFibonacci, SevenEightPair) {
  const json deck = deal({"X1", "2C", "8S", "8H", "3C"}, {"5D", "7S", "3D", "2D", "3H"});
  {  // 8♠ pairs with the opponent's 7♠: the whole turn
    Match m = start(deck);
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("5D", 0));
    play(m, 0, kDrawMove);
    play(m, 1, run("7S", 0));
    EXPECT_EQ(view(m, 0)["pairChance"]["partner"], "8S");
    EXPECT_TRUE(is_legal(m, 0, pair("8S")));
    expect_refused(m, 0, pair("8H"), "illegal_action");
    play(m, 0, pair("8S"));
    EXPECT_EQ(view(m, 1)["sideArea"], json({"8S"}));
    EXPECT_EQ(current(m), 1);
    EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 5, 7})) << "not part of the run";
  }
  {  // drawing instead: the chance is gone
    Match m = start(deck);
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("5D", 0));
    play(m, 0, kDrawMove);
    play(m, 1, run("7S", 0));
    play(m, 0, kDrawMove);
    play(m, 1, kDrawMove);
    EXPECT_EQ(view(m, 0)["pairChance"], nullptr);
    expect_refused(m, 0, pair("8S"), "illegal_action");
  }
  {  // holding only 8♥: no pair
    Match m = start(deal({"X1", "2C", "8H", "3H", "3C"}, {"5D", "7S", "3D", "2D", "8S"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("5D", 0));
    play(m, 0, kDrawMove);
    play(m, 1, run("7S", 0));
    for (const json& move : legal_json(m, 0)) EXPECT_NE(move["move"], "pair") << move.dump();
    expect_refused(m, 0, pair("8H"), "illegal_action");
  }
  {  // nobody pairs their own 7♠ and 8♠
    Match m = start(deal({"X1", "2C", "7S", "8S", "3C"}, {"5D", "3D", "2D", "3H", "8H"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, run("5D", 0));
    play(m, 0, run("7S", 0));
    play(m, 1, kDrawMove);
    expect_refused(m, 0, pair("8S"), "illegal_action");
    // 8♠ after 2-5-7 does not fit either.
    for (const json& move : legal_json(m, 0))
      EXPECT_NE(move.value("card", ""), "8S") << move.dump();
  }
}

// FF-13: J1 has 2-3-5-8 (closed) on side A and 3-5 (open) on side B; J2 has an empty side A
// and 2-5-7 (closed) on side B. Returns the match one draw before the pile runs out.
Match t14_table() {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"X2", "2D", "5D", "7D", "3D"}, {"5H"}));
  play(m, 0, joker("X1", "2C", "A"));  // runs 0 (J1 side A) and 1 (J1 side B)
  play(m, 1, kDrawMove);               // 5♥
  play(m, 0, run("3C", 0));
  play(m, 1, joker("X2", "2D", "B"));  // runs 2 (J2 side A, empty) and 3 (J2 side B)
  play(m, 0, run("5C", 0));
  play(m, 1, run("5D", 3));
  play(m, 0, kDrawMove);
  play(m, 1, run("7D", 3));
  play(m, 0, run("8C", 0));
  play(m, 1, kDrawMove);
  play(m, 0, kDrawMove);
  play(m, 1, run("3D", 1));
  play(m, 0, kDrawMove);
  play(m, 1, run("5H", 1));
  for (int i = 0; i < 10; ++i) play(m, current(m), kDrawMove);
  return m;
}

// FF-13: the refill shuffles the 9 cards of the closed runs and both bases; 3-5 floats on and
// still takes cards; J2's empty side A is lost.
TEST(FibFibonacci, Refill) {
  Match m = t14_table();
  ASSERT_EQ(view(m, 0)["drawPile"], 1);
  ASSERT_EQ(view(m, 0)["runs"].size(), 4u);
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 3, 5, 8}));
  EXPECT_EQ(run_values(m, 3), (std::vector<int>{2, 5, 7}));
  // The last draw empties the pile; the next turn begins with the refill.
  auto draw = game().action_from_json(kDrawMove);
  Events events;
  ASSERT_FALSE(m.apply(current(m), *draw, events));
  std::multiset<std::string> shuffled;
  int refills = 0;
  for (const Event& e : events.list()) {
    if (e.body["type"] != "refill") continue;
    ++refills;
    EXPECT_TRUE(e.to.everyone);
    for (const json& c : e.body["cards"]) shuffled.insert(c.get<std::string>());
    EXPECT_EQ(e.body["lostOpenings"], 1);
  }
  EXPECT_EQ(refills, 1);
  const std::multiset<std::string> expected = {"2C", "3C", "5C", "8C", "X1",
                                               "2D", "5D", "7D", "X2"};
  EXPECT_EQ(shuffled, expected);
  const json v = view(m, 1);
  EXPECT_EQ(v["drawPile"], 9);
  EXPECT_EQ(v["bases"], json::array());
  ASSERT_EQ(v["runs"].size(), 1u) << "J2's empty side A is lost";
  EXPECT_EQ(v["runs"][0]["base"], nullptr);
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{3, 5}));
  EXPECT_EQ(v["runs"][0]["next"], 8);
  EXPECT_EQ(v["columns"], json::parse(R"([{"base":null,"A":[],"B":[0]}])"));
  // Every card not on the table is in a hand; the 8s held by the player to move fit on 3-5.
  const Seat s = current(m);
  int eights = 0;
  for (Seat p : {Seat(0), Seat(1)}) {
    const json hand = view(m, p)["hand"];
    for (const json& c : hand) {
      const std::string code = c;
      if (code[0] != '8') continue;
      ++eights;
      if (p == s) {
        EXPECT_TRUE(is_legal(m, s, run(code, 0))) << code;
      }
    }
  }
  EXPECT_EQ(eights, 3);
  EXPECT_EQ(view(m, 0)["handCounts"][0].get<int>() + view(m, 0)["handCounts"][1].get<int>(), 15);
}

// FF-15: the last card wins at once, and so does a joker with its bonus as the last two.
TEST(FibFibonacci, LastCardWins) {
  {
    Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, kDrawMove);
    play(m, 0, run("3C", 0));
    play(m, 1, kDrawMove);
    play(m, 0, run("5C", 0));
    play(m, 1, kDrawMove);
    EXPECT_FALSE(m.state().over());
    play(m, 0, run("8C", 0));
    ASSERT_TRUE(m.state().over());
    EXPECT_EQ(m.state().result().winners, std::vector<Seat>{0});
    EXPECT_EQ(m.state().result().losers, std::vector<Seat>{1});
    EXPECT_EQ(view(m, 1)["lastGame"]["ending"], "emptied-hand");
  }
  {
    Match m = start(deal({"X1", "2C", "3C", "X2", "2H"}, {"2D", "3D", "5D", "7D", "8D"}));
    play(m, 0, joker("X1", "2C", "A"));
    play(m, 1, kDrawMove);
    play(m, 0, run("3C", 0));
    play(m, 1, kDrawMove);
    play(m, 0, joker("X2", "2H", "B"));
    ASSERT_TRUE(m.state().over());
    EXPECT_EQ(m.state().result().winners, std::vector<Seat>{0});
    EXPECT_TRUE(m.state().legal_actions(1).empty());
  }
}

// Draws until the pile is empty and stays empty: with nothing on the table, every card is then
// in a hand and the next turn starts a dry position (FF-14).
void draw_everything(Match& m) {
  while (view(m, 0)["drawPile"] != 0) play(m, current(m), kDrawMove);
}

// Plays a scripted list of (seat, move) in turn.
void script(Match& m, const std::vector<std::pair<Seat, json>>& moves) {
  for (const auto& [seat, move] : moves) {
    ASSERT_FALSE(m.state().over()) << move.dump();
    play(m, seat, move);
  }
}

// FF-14, equal hands give a draw. As written the case cannot arise: at a dry position the pile
// is empty and the refill has taken every base, so both jokers are in hands, and a joker can
// always be played (FF-3); two passes in a row never happen. The same ending is reached through
// the repetition rule: with an empty table the jokers go to and fro and the player without one
// passes. Here both hands hold 13 cards when it ends.
TEST(FibFibonacci, StalemateEqualHandsIsADraw) {
  Match m = start(deal({"2C", "3C", "5C", "7C", "8C"}, {"X1", "X2", "5D", "7D", "8D"}));
  draw_everything(m);  // turns 1..16
  ASSERT_EQ(view(m, 0)["handCounts"], json({13, 13}));
  EXPECT_EQ(view(m, 0)["dryRepeats"], 1);
  // Nothing to play and nothing to draw: seat 0 must pass.
  EXPECT_EQ(legal_json(m, 0), std::vector<json>{kPassMove});
  EXPECT_EQ(game().action_to_json(m.state().fallback_action(0)), kPassMove);
  expect_refused(m, 0, kDrawMove, "illegal_action");
  const std::vector<std::pair<Seat, json>> cycle = {
      {0, kPassMove}, {1, joker("X1")}, {0, kDrawMove}, {1, joker("X2")}, {0, kDrawMove},
      {1, kPassMove}, {0, joker("X1")}, {1, kDrawMove}, {0, joker("X2")}, {1, kDrawMove}};
  script(m, cycle);  // turns 17..26
  EXPECT_EQ(view(m, 0)["dryRepeats"], 2) << "turn 27 repeats turn 17";
  script(m, cycle);  // turns 27..36; turn 37 repeats it a third time
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 0)["lastGame"]["ending"], "repetition");
  EXPECT_EQ(view(m, 0)["handCounts"], json({13, 13}));
  EXPECT_EQ(m.state().result().winners, (std::vector<Seat>{0, 1}));
  EXPECT_TRUE(m.state().result().losers.empty());
  EXPECT_EQ(m.state().result().places, (std::vector<int>{1, 1}));
}

// A PASS never comes right after the opponent's PASS: a dry position always has a joker in a
// hand (checked over random games, together with FF-2's "no pass while a play exists").
TEST(FibFibonacci, NoTwoPassesInARow) {
  int passes = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    auto m = Match::create(game(), 2, json::object(), seed);
    ASSERT_TRUE(m.ok());
    Rng rng(seed);
    bool last_was_pass = false;
    while (!m->state().over()) {
      const Seat s = m->state().to_act().first();
      const auto legal = m->state().legal_actions(s);
      const Action a = legal[rng.below(legal.size())];
      const bool pass = a.kind == kPass;
      if (pass) {
        ++passes;
        EXPECT_EQ(legal.size(), 1u);
        EXPECT_FALSE(last_was_pass) << "seed " << seed;
      }
      last_was_pass = pass;
      Events ev(false);
      ASSERT_FALSE(m->apply(s, a, ev));
    }
  }
  EXPECT_GT(passes, 0) << "random games do reach forced passes";
}

// FF-14, repetition. As written the position cannot arise (neither hand holds a joker, see
// T16). Here seat 0 opens with a lone joker, so the draws leave it 12 cards against 14. From the
// first dry position (turn 19) the jokers cycle with period 10; the position recurs at turns 29
// and 39, and at 39 the game ends: seat 0, with fewer cards, wins.
TEST(FibFibonacci, ThirdRepetitionEndsTheGame) {
  Match m = start(deal({"X1", "X2", "5C", "7C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
  play(m, 0, joker("X1"));
  draw_everything(m);  // turns 2..17, and turn 18: the refill took X1 and seat 1 drew it
  ASSERT_EQ(view(m, 0)["handCounts"], json({12, 14}));
  ASSERT_EQ(current(m), 0);
  const json turn19 = view(m, 0);
  EXPECT_EQ(turn19["dryRepeats"], 1);
  // Seat 0 may not pass while its joker is playable.
  expect_refused(m, 0, kPassMove, "cannot_pass");
  const std::vector<std::pair<Seat, json>> cycle = {
      {0, joker("X2")}, {1, kDrawMove}, {0, kPassMove}, {1, joker("X2")}, {0, kDrawMove},
      {1, joker("X1")}, {0, kDrawMove}, {1, kPassMove}, {0, joker("X1")}, {1, kDrawMove}};
  script(m, cycle);  // turns 19..28
  EXPECT_EQ(view(m, 0)["dryRepeats"], 2);
  EXPECT_EQ(view(m, 0)["hand"], turn19["hand"]);
  script(m, cycle);  // turns 29..38
  ASSERT_TRUE(m.state().over()) << "turn 39 repeats turn 19 a third time";
  EXPECT_EQ(view(m, 0)["lastGame"]["ending"], "repetition");
  EXPECT_EQ(view(m, 0)["handCounts"], json({12, 14}));
  EXPECT_EQ(m.state().result().winners, std::vector<Seat>{0});
  EXPECT_EQ(m.state().result().losers, std::vector<Seat>{1});
}

// FF-20: in the position of ThirdRepetitionEndsTheGame, both players see the repetition count
// grow; a spectator, who cannot tell which hand holds which card, sees no count at all (only the
// public ending). The count is all that differs between a spectator's view and a player's, hand
// aside.
TEST(FibFibonacci, SpectatorViewOfADryRepetitionHasNoCountAPlayersHas) {
  Match m = start(deal({"X1", "X2", "5C", "7C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
  auto public_part = [](json v) {
    v.erase("hand");
    v.erase("dryRepeats");
    return v;
  };
  auto expect_count = [&](int count) {
    for (Seat s = 0; s < 2; ++s) {
      SCOPED_TRACE("seat " + std::to_string(s));
      const json v = view(m, s);
      ASSERT_TRUE(v.contains("dryRepeats"));
      EXPECT_EQ(v["dryRepeats"], count);
      EXPECT_EQ(public_part(v), view(m, kSpectator));
    }
    EXPECT_FALSE(view(m, kSpectator).contains("dryRepeats"));
  };
  expect_count(0);  // the pile is not dry yet
  play(m, 0, joker("X1"));
  draw_everything(m);
  ASSERT_EQ(current(m), 0);
  expect_count(1);
  const std::vector<std::pair<Seat, json>> cycle = {
      {0, joker("X2")}, {1, kDrawMove}, {0, kPassMove}, {1, joker("X2")}, {0, kDrawMove},
      {1, joker("X1")}, {0, kDrawMove}, {1, kPassMove}, {0, joker("X1")}, {1, kDrawMove}};
  script(m, cycle);
  expect_count(2);
  script(m, cycle);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, kSpectator)["lastGame"]["ending"], "repetition");
  EXPECT_EQ(view(m, kSpectator)["result"], view(m, 0)["result"]);
}

// FF-9: a 4 may replace the side-area 8♠; the 4 lies there with no effect.
TEST(FibFibonacci, SmallWildReplacesSideCard) {
  Match m = start(deal({"X1", "2C", "8S", "3C", "3H"}, {"5D", "7S", "4C", "2D", "8H"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("5D", 0));
  play(m, 0, kDrawMove);
  play(m, 1, run("7S", 0));
  play(m, 0, pair("8S"));
  play(m, 1, four_on_side("4C", 0));
  EXPECT_EQ(view(m, 0)["sideArea"], json({"4C"}));
  const json hand = view(m, 1)["hand"];
  EXPECT_NE(std::find(hand.begin(), hand.end(), "8S"), hand.end());
  EXPECT_EQ(view(m, 0)["handCounts"][1], 3);
  EXPECT_EQ(view(m, 0)["pairChance"], nullptr) << "the card played was the 4";
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 5, 7}));
}

// FF-9: a 4 may replace the other 4, and a restart 6; the 4 keeps the role of what it replaced.
TEST(FibFibonacci, SmallWildReplacesFourAndRestart) {
  Match m = start(deal({"X1", "2C", "7C", "6C", "4C"}, {"5D", "4D", "3D", "2D", "8D"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("5D", 0));
  play(m, 0, run("7C", 0));
  play(m, 1, kDrawMove);
  play(m, 0, restart("6C", 0));
  play(m, 1, four_on_base("4D", 1));  // the restart base
  EXPECT_EQ(view(m, 0)["bases"][1]["card"], "4D");
  EXPECT_EQ(view(m, 0)["bases"][1]["role"], "restart");
  json hand = view(m, 1)["hand"];
  EXPECT_NE(std::find(hand.begin(), hand.end(), "6C"), hand.end());
  play(m, 0, four_on_base("4C", 1));  // 4 for 4
  EXPECT_EQ(view(m, 0)["bases"][1]["card"], "4C");
  hand = view(m, 0)["hand"];
  EXPECT_NE(std::find(hand.begin(), hand.end(), "4D"), hand.end());
  EXPECT_EQ(view(m, 0)["handCounts"][0], 1) << "a 4 never changes the hand size";
  // The restart's opening is unchanged and still takes a first card.
  play(m, 1, run("2D", 2));
  EXPECT_EQ(run_values(m, 2), std::vector<int>{2});
}

// FF-11 meets FF-13: the opponent's 7♠ closed the only run, and the refill at the start of this
// turn took it and left the table empty. Rule 1 ("no cards on the table: only the joker") wins:
// the pair chance is gone, and the view says so.
TEST(FibFibonacci, EmptyTableAfterRefillEndsThePairChance) {
  Match m = start(deal({"X1", "2C", "8S", "3C", "3H"}, {"5D", "7S", "2D", "3D", "8H"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("5D", 0));
  for (int i = 0; i < 16; ++i) play(m, current(m), kDrawMove);  // turns 3..18
  // Turn 19: the refill took the joker; 2-5 floats. Seat 0 draws the joker back.
  ASSERT_EQ(view(m, 0)["drawPile"], 1);
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 5}));
  play(m, 0, kDrawMove);
  // Turn 20: nothing to refill; seat 1 closes the floating run with 7♠.
  EXPECT_EQ(view(m, 1)["dryRepeats"], 1);
  play(m, 1, run("7S", 0));
  // Turn 21: the refill takes 2-5-7♠ and the table is empty.
  const json v = view(m, 0);
  EXPECT_EQ(v["tableEmpty"], true);
  EXPECT_EQ(v["drawPile"], 3);
  EXPECT_EQ(v["pairChance"], nullptr) << "the view offers no chance the rules refuse";
  expect_refused(m, 0, pair("8S"), "illegal_action");
  for (const json& move : legal_json(m, 0)) {
    EXPECT_TRUE(move["move"] == "draw" || move["move"] == "joker") << move.dump();
  }
}

// FF-11: when the refill shuffles the opponent's 7♠ away but another run stays on the table,
// the pair chance stands: 8♠ still goes to the side area.
TEST(FibFibonacci, RefillLeavingTheTableKeepsThePairChance) {
  Match m = start(deal({"X1", "2C", "8S", "3C", "3H"}, {"5D", "7S", "X2", "3D", "8H"}));
  play(m, 0, joker("X1", "2C", "A"));  // runs 0 and 1
  play(m, 1, joker("X2", "3D", "B"));  // runs 2 and 3
  play(m, 0, kDrawMove);
  play(m, 1, run("5D", 0));
  for (int i = 0; i < 15; ++i) play(m, current(m), kDrawMove);  // turns 5..19 empty the pile
  // Turn 20: the refill takes both jokers; 2-5 and 3 float.
  ASSERT_EQ(view(m, 1)["drawPile"], 2);
  ASSERT_EQ(view(m, 1)["runs"].size(), 2u);
  play(m, 1, kDrawMove);
  play(m, 0, kDrawMove);
  // Turn 22: nothing to refill; seat 1 closes 2-5 with 7♠.
  EXPECT_EQ(view(m, 1)["dryRepeats"], 1);
  play(m, 1, run("7S", 0));
  // Turn 23: the refill takes 2-5-7♠; the 3 floats on.
  const json v = view(m, 0);
  EXPECT_EQ(v["tableEmpty"], false);
  EXPECT_EQ(v["drawPile"], 3);
  EXPECT_EQ(run_values(m, 0), std::vector<int>{3});
  EXPECT_EQ(v["pairChance"]["card"], "7S");
  EXPECT_EQ(v["pairChance"]["partner"], "8S");
  play(m, 0, pair("8S"));
  EXPECT_EQ(view(m, 1)["sideArea"], json({"8S"}));
}

// FF-11: a 6 declared 7 or 8 is not a natural 7 or 8, and opens no pair chance.
TEST(FibFibonacci, SixDeclaredSevenOrEightOpensNoPairChance) {
  // 2-5-6(=7): seat 0 holds 8♣ and 8♦ (the 6 is a club or a diamond).
  Match m = start(deal({"X1", "2C", "8C", "8D", "3C"}, {"5D", "6C", "3D", "2D", "3H"}));
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, run("5D", 0));
  play(m, 0, kDrawMove);
  play(m, 1, run("6C", 0, 7));
  EXPECT_EQ(run_values(m, 0), (std::vector<int>{2, 5, 7}));
  EXPECT_EQ(view(m, 0)["pairChance"], nullptr);
  for (const json& move : legal_json(m, 0)) EXPECT_NE(move["move"], "pair") << move.dump();
  expect_refused(m, 0, pair("8C"), "illegal_action");
  // 2-3-5-6(=8) likewise.
  Match n = start(deal({"X1", "2C", "7C", "7D", "5C"}, {"3D", "6D", "2D", "3H", "8H"}));
  play(n, 0, joker("X1", "2C", "A"));
  play(n, 1, run("3D", 0));
  play(n, 0, run("5C", 0));
  play(n, 1, run("6D", 0, 8));
  EXPECT_EQ(run_values(n, 0), (std::vector<int>{2, 3, 5, 8}));
  EXPECT_EQ(view(n, 0)["pairChance"], nullptr);
  expect_refused(n, 0, pair("7D"), "illegal_action");
}

// Every legal move can be put into words for a person, and the words name real cards.
TEST(FibFibonacci, EveryLegalMoveHasWords) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    auto m = Match::create(game(), 2, json::object(), seed);
    ASSERT_TRUE(m.ok());
    Rng rng(seed);
    while (!m->state().over()) {
      const Seat s = m->state().to_act().first();
      const auto legal = m->state().legal_actions(s);
      for (const Action& a : legal) {
        const std::string words = m->state().describe(s, a);
        EXPECT_FALSE(words.empty());
        EXPECT_EQ(words.find('?'), std::string::npos) << words;
      }
      Events ev;
      ASSERT_FALSE(m->apply(s, legal[rng.below(legal.size())], ev));
      for (const Event& e : ev.list()) EXPECT_FALSE(e.body["text"].get<std::string>().empty());
    }
  }
}

// Runs are counted from 1 in words, as the tables show them; actions and views keep the index.
TEST(FibFibonacci, WordsCountRunsFromOne) {
  Match m = opened_with(joker("X1", "2C", "A"), {"3D", "5D", "6D", "2D", "8D"});
  auto words = [&](const json& move) {
    auto a = game().action_from_json(move);
    EXPECT_TRUE(a.ok()) << move.dump();
    return m.state().describe(1, *a);
  };
  EXPECT_EQ(words(run("3D", 0)), "play 3♦ on run 1 (2)");
  EXPECT_EQ(words(run("2D", 1)), "play 2♦ on run 2, the empty side B of Joker");
  Events ev;
  auto a = game().action_from_json(run("3D", 0));
  ASSERT_TRUE(a.ok());
  ASSERT_FALSE(m.apply(1, *a, ev).has_value());
  ASSERT_FALSE(ev.list().empty());
  EXPECT_NE(ev.list()[0].body["text"].get<std::string>().find("run 1 (2-3)"), std::string::npos)
      << ev.list()[0].body["text"];
  EXPECT_EQ(view(m, 0)["runs"][0]["cards"], json({"2C", "3D"})) << "the view keeps index 0";
}

// FF-2: drawing is allowed while a play exists; passing is not.
TEST(FibFibonacci, DrawIsAlwaysAllowedWhilePileLasts) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
  EXPECT_TRUE(is_legal(m, 0, kDrawMove));
  EXPECT_FALSE(is_legal(m, 0, kPassMove));
  // A player out of time draws.
  EXPECT_EQ(game().action_to_json(m.state().fallback_action(0)), kDrawMove);
  play(m, 0, kDrawMove);
  EXPECT_EQ(view(m, 0)["handCounts"], json({6, 5}));
  EXPECT_EQ(view(m, 0)["drawPile"], 15);
}

// Refusals: malformed moves and moves with cards one does not hold.
TEST(FibFibonacci, RefusalsChangeNothing) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}));
  EXPECT_EQ(refusal(m, 0, {{"move", "run"}, {"card", "2C"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "joker"}, {"card", "9S"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, joker("X1", "6C", "A")), "bad_action") << "a 6 needs a value";
  EXPECT_EQ(refusal(m, 0, run("2C", 0, 2)), "bad_action") << "only a 6 has a value";
  EXPECT_EQ(refusal(m, 0, {{"move", "four"}, {"card", "4C"}, {"base", 0}, {"sideCard", 0}}),
            "bad_action");
  expect_refused(m, 0, joker("X2"), "not_in_hand");
  expect_refused(m, 1, kDrawMove, "not_your_turn");
  play(m, 0, joker("X1", "2C", "A"));
  expect_refused(m, 1, run("3C", 0), "not_in_hand");
  expect_refused(m, 1, run("3D", 5), "illegal_action");
}

// Views: a seat sees its own hand only; spectators see no hand; nobody sees the pile.
TEST(FibFibonacci, ViewsHideHandsAndPile) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}, {"7S"}));
  play(m, 0, kDrawMove);
  EXPECT_EQ(view(m, 0)["hand"].size(), 6u);
  EXPECT_FALSE(view(m, kSpectator).contains("hand"));
  for (Seat v : {Seat(1), kSpectator}) {
    EXPECT_EQ(view(m, v).dump().find("7S"), std::string::npos) << v;
    EXPECT_EQ(view(m, v).dump().find("X1"), std::string::npos) << v;
  }
  EXPECT_EQ(view(m, 1)["lastPlay"], json({{"seat", 0}, {"move", "draw"}}));
}

// The drawn card is told to the drawer alone.
TEST(FibFibonacci, DrawnCardIsPrivate) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}, {"7S"}));
  auto a = game().action_from_json(kDrawMove);
  Events ev;
  ASSERT_FALSE(m.apply(0, *a, ev));
  bool told = false;
  for (const Event& e : ev.list()) {
    if (e.body["type"] == "drew") {
      told = true;
      EXPECT_EQ(e.to.seats, SeatSet::of(0));
      EXPECT_FALSE(e.to.everyone);
      EXPECT_EQ(e.body["card"], "7S");
    } else {
      EXPECT_EQ(e.body.dump().find("7S"), std::string::npos);
    }
  }
  EXPECT_TRUE(told);
}

// A series alternates the dealer and counts games won.
TEST(FibFibonacci, SeriesAlternatesDealer) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}),
                  {{"seriesGames", 3}});
  play(m, 0, joker("X1", "2C", "A"));
  play(m, 1, kDrawMove);
  play(m, 0, run("3C", 0));
  play(m, 1, kDrawMove);
  play(m, 0, run("5C", 0));
  play(m, 1, kDrawMove);
  play(m, 0, run("8C", 0));
  ASSERT_FALSE(m.state().over());
  const json v = view(m, 0);
  EXPECT_EQ(v["game"], 2);
  EXPECT_EQ(v["gamesWon"], json({1, 0}));
  EXPECT_EQ(v["dealer"], 0);
  EXPECT_EQ(current(m), 1) << "the non-dealer starts";
  EXPECT_EQ(v["handCounts"], json({5, 5}));
  EXPECT_EQ(v["drawPile"], 16);
  EXPECT_EQ(v["runs"], json::array());
  // The rest of the series, by random but legal play, ends with the series result.
  Rng rng(3);
  while (!m.state().over()) {
    const Seat s = current(m);
    const auto legal = m.state().legal_actions(s);
    Events ev;
    ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], ev));
  }
  const Result r = m.state().result();
  ASSERT_EQ(r.scores.size(), 2u);
  EXPECT_LE(r.scores[0] + r.scores[1], 3);
  EXPECT_GE(r.scores[0], 1);
}

// The turn limit ends a game as a stalemate: fewer cards wins.
TEST(FibFibonacci, TurnLimitEndsAsStalemate) {
  Match m = start(deal({"X1", "2C", "3C", "5C", "8C"}, {"2D", "3D", "5D", "7D", "8D"}),
                  {{"turnLimit", 50}});
  play(m, 0, joker("X1", "2C", "A"));
  for (int turn = 2; turn <= 49; ++turn) {
    const Seat s = current(m);
    if (is_legal(m, s, kDrawMove)) {
      play(m, s, kDrawMove);
    } else {
      play(m, s, legal_json(m, s).front());
    }
    ASSERT_FALSE(m.state().over()) << turn;
  }
  const Seat s = current(m);
  play(m, s, legal_json(m, s).front());
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 0)["lastGame"]["ending"], "turn-limit");
  const json counts = view(m, 0)["handCounts"];
  const auto r = m.state().result();
  if (counts[0] == counts[1]) {
    EXPECT_EQ(r.winners.size(), 2u);
  } else {
    EXPECT_EQ(r.winners, std::vector<Seat>{counts[0] < counts[1] ? 0 : 1});
  }
}

TEST(FibFibonacci, OptionsAreChecked) {
  EXPECT_TRUE(game().parse_options({{"seriesGames", 3}}, 2).ok());
  EXPECT_FALSE(game().parse_options({{"seriesGames", 4}}, 2).ok());
  EXPECT_FALSE(game().parse_options({{"seriesGames", 0}}, 2).ok());
  EXPECT_FALSE(game().parse_options({{"turnLimit", 10}}, 2).ok());
  EXPECT_EQ(game().parse_options({}, 3).error().code, "bad_seats");
  EXPECT_GE(game().info().max_actions, 3 * 1000);
}

}  // namespace
}  // namespace campfire::fib_fibonacci
