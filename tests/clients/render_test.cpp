// The terminal client's rendering: readable for Pinocchio, generic for games it does not know.
#include <gtest/gtest.h>

#include "clients/cli/render.hpp"

namespace campfire::cli {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

json players() {
  return json::parse(R"([{"seat":0,"name":"Andrea","connected":true,"bot":false},
                         {"seat":1,"name":"Bella","connected":false,"bot":false},
                         {"seat":2,"name":"Bot 3","connected":true,"bot":true}])");
}

TEST(Render, CardCodesInWords) {
  EXPECT_EQ(card_words("blue-bow-tie"), "Blue Bow Tie");
  EXPECT_EQ(card_words("red-hat"), "Red Hat");
  EXPECT_EQ(card_words("TH"), "TH");
}

TEST(Render, PinocchioStateShowsStacksNosesPileAndYourCard) {
  json state = {{"type", "state"},      {"room", "K7QX2M"},    {"version", 14},
                {"game", "pinocchio"},  {"status", "playing"}, {"seat", 0},
                {"players", players()}, {"toAct", {0}},        {"window", nullptr}};
  state["view"] = json::parse(R"({"phase":"play","current":0,"stacks":[14,15,15],"box":0,
      "noses":[0,2,0],"pile":[{"by":2,"claim":"red-bow-tie","free":true,"challengeable":true},
      {"by":1,"claim":"red-hat","free":false,"challengeable":true,"revealed":"blue-hat",
       "truthful":false,"challenger":2}],
      "freeAnnouncement":false,"mustMatch":"red-hat","yourCard":"blue-trousers"})");
  state["legal"] = json::parse(R"([{"move":"announce","colour":"red","clothing":"hat"},
                                    {"move":"announce","colour":"blue","clothing":"hat"}])");
  state["labels"] = {"play your card as Red Hat", "play your card as Blue Hat"};
  const std::string out = render_state(state);
  EXPECT_TRUE(has(out, "room K7QX2M, pinocchio, playing, version 14, you are seat 0")) << out;
  EXPECT_TRUE(has(out, "seat 0  Andrea (you)  <- to act")) << out;
  EXPECT_TRUE(has(out, "seat 1  Bella [disconnected]")) << out;
  EXPECT_TRUE(has(out, "seat 2  Bot 3 [bot]")) << out;
  EXPECT_TRUE(has(out, "Bella: 15 cards left, nose 2")) << out;
  EXPECT_TRUE(has(out, "Bot 3 said Red Bow Tie (free)")) << out;
  EXPECT_TRUE(has(out, "Bella said Red Hat; Bot 3 challenged: it was Blue Hat, a lie")) << out;
  EXPECT_TRUE(has(out, "must match Red Hat")) << out;
  EXPECT_TRUE(has(out, "your card: Blue Trousers")) << out;
  EXPECT_TRUE(has(out, "1. play your card as Red Hat")) << out;
  EXPECT_TRUE(has(out, "2. play your card as Blue Hat")) << out;
}

// A game added later needs no change here: its view is printed field by field, its moves by label.
TEST(Render, UnknownGameFallsBackToTheGenericFields) {
  json state = {{"type", "state"},         {"room", "ABCDEF"},    {"version", 3},
                {"game", "spider-monkey"}, {"status", "playing"}, {"seat", nullptr},
                {"players", players()},    {"toAct", {1, 2}},     {"legal", json::array()},
                {"labels", json::array()}};
  state["view"] = {{"phase", "slap"}, {"table", {"7S", "7H"}}};
  state["window"] = {{"id", 3},
                     {"name", "slap"},
                     {"seats", {0, 1, 2}},
                     {"endsAt", 1795000000000},
                     {"remainingMs", 4870}};
  const std::string out = render_state(state);
  EXPECT_TRUE(has(out, "spectating")) << out;
  EXPECT_TRUE(has(out, "phase: \"slap\"")) << out;
  EXPECT_TRUE(has(out, "table: [\"7S\",\"7H\"]")) << out;
  EXPECT_TRUE(has(out, "window 'slap' for seats 0 1 2 closes in 4.9 s")) << out;
  EXPECT_TRUE(has(out, "waiting for Bella, Bot 3")) << out;
  EXPECT_FALSE(has(out, "your move")) << out;
}

TEST(Render, WaitingRoomShowsFreeSeats) {
  json state = {{"type", "state"},         {"room", "ABCDEF"},       {"version", 1},
                {"game", "pinocchio"},     {"status", "waiting"},    {"seat", 0},
                {"view", nullptr},         {"toAct", json::array()}, {"legal", json::array()},
                {"labels", json::array()}, {"window", nullptr}};
  state["players"] = json::array({players()[0], nullptr});
  const std::string out = render_state(state);
  EXPECT_TRUE(has(out, "seat 1  (free)")) << out;
}

TEST(Render, ResultNamesPlacesAndWinners) {
  const json result = json::parse(R"({"winners":[0,2],"losers":[1],"places":[1,3,1]})");
  const std::string out = render_result(result, players(), 1);
  EXPECT_TRUE(has(out, "places: Andrea 1, Bella 3, Bot 3 1")) << out;
  EXPECT_TRUE(has(out, "winners: Andrea, Bot 3")) << out;
  EXPECT_TRUE(has(out, "you did not win")) << out;
  EXPECT_TRUE(has(render_result(result, players(), 0), "you won!"));
}

}  // namespace
}  // namespace campfire::cli

namespace campfire::cli {
namespace {

// Fib-Fibonacci's table reads as columns of runs under each base, values beside the cards.
TEST(Render, FibFibonacciShowsRunsAsColumns) {
  const json view = json::parse(R"({
    "bases": [{"caps": null, "card": "X2", "role": "joker"}],
    "columns": [{"A": [0], "B": [1], "base": 0}],
    "drawPile": 3, "hand": ["7C", "X1"], "handCounts": [2, 6], "phase": "turn",
    "runs": [{"base": 0, "cards": ["2C", "5H"], "closed": false, "next": 7, "opening": "A",
              "values": [2, 5]},
             {"base": 0, "cards": ["2H", "3H", "TD"], "closed": true, "opening": "B",
              "values": [2, 3, 5]}],
    "sideArea": ["4D"]})");
  const json players = json::parse(R"([{"seat":0,"name":"Ana"},{"seat":1,"name":"Bo"}])");
  const std::string out = render_view("fib-fibonacci", view, players);
  EXPECT_NE(out.find("base 1: Joker (joker)"), std::string::npos) << out;
  EXPECT_NE(out.find("2♣ (2)"), std::string::npos) << out;
  EXPECT_NE(out.find("10♦ (5)"), std::string::npos) << out;
  EXPECT_NE(out.find(".. next 7"), std::string::npos) << out;
  EXPECT_NE(out.find("-- closed"), std::string::npos) << out;
  EXPECT_NE(out.find("side area: 4♦"), std::string::npos) << out;
  EXPECT_NE(out.find("your hand: 7♣ Joker"), std::string::npos) << out;
  EXPECT_NE(out.find("Bo 6"), std::string::npos) << out;
  // Side A's run and side B's run share lines: the first line holds both 2s.
  const auto line_start = out.find("2♣ (2)");
  const auto line_end = out.find('\n', line_start);
  EXPECT_NE(out.substr(line_start, line_end - line_start).find("2♥ (2)"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace campfire::cli
