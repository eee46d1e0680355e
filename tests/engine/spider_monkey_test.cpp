// Spider Monkey: the rules of docs/rules/spider-monkey.md (SM-1..SM-19), then the resolutions they
// rest on (peek, stockpile run-out, powers, the call, slap modes).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/spider_monkey/spider_monkey.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::spider_monkey {
namespace {

using campfire::testing::play;
using campfire::testing::refusal;

const json kDraw = {{"move", "draw"}};
const json kDiscardDrawn = {{"move", "discard-drawn"}};
const json kSlapDone = {{"move", "slap-done"}};
const json kSkipPower = {{"move", "skip-power"}};
const json kPass = {{"move", "end-turn"}, {"call", false}};
const json kCall = {{"move", "end-turn"}, {"call", true}};

json slap(int slot) {
  return {{"move", "slap"}, {"slot", slot}};
}
json replace(int slot) {
  return {{"move", "replace"}, {"slot", slot}};
}
json take(int slot) {
  return {{"move", "take-discard"}, {"slot", slot}};
}
json queen(int seat, int slot) {
  return {{"move", "queen"}, {"seat", seat}, {"slot", slot}};
}
json jack(int seat, int slot) {
  return {{"move", "jack"}, {"seat", seat}, {"slot", slot}};
}

using Lines = std::vector<std::vector<std::string>>;

// A deck that deals lines[k] (slot 0 first) to seat k, turns `discard` up and leaves `stock`
// (top first) on the stockpile; the other cards follow in code order. Seat n-1 deals, so seat k
// gets the deck's cards k, n+k, 2n+k and 3n+k.
json deck_for(const Lines& lines, const std::string& discard,
              const std::vector<std::string>& stock = {}) {
  const Game& g = game();
  const std::size_t n = lines.size();
  std::vector<std::string> top;
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t k = 0; k < n; ++k) top.push_back(lines[k].at(r));
  }
  top.push_back(discard);
  top.insert(top.end(), stock.begin(), stock.end());
  json codes = json::array();
  for (const auto& c : top) {
    EXPECT_TRUE(g.parse_card(c).has_value()) << c;
    codes.push_back(c);
  }
  for (Card c : g.deck(Options(), static_cast<int>(n))) {
    const std::string code = g.card_code(c);
    if (std::find(top.begin(), top.end(), code) == top.end()) codes.push_back(code);
  }
  EXPECT_EQ(codes.size(), 52u) << "a card is listed twice";
  return codes;
}

Match start(const Lines& lines, const std::string& discard,
            const std::vector<std::string>& stock = {}, json options = json::object()) {
  auto m = Match::create(game(), static_cast<int>(lines.size()), options, 1,
                         deck_for(lines, discard, stock));
  EXPECT_TRUE(m.ok()) << m.error().message;
  return std::move(*m);
}

json view(const Match& m, Seat s) {
  return m.state().view(s);
}

// Who may act now: the state says it, beside the view (the view does not repeat it).
json to_act(const Match& m) {
  json seats = json::array();
  m.state().to_act().for_each([&](Seat s) { seats.push_back(s); });
  return seats;
}

// The system closes the open window, as the room does when its time is up.
void timeout(Match& m) {
  const auto w = m.state().window();
  ASSERT_TRUE(w.has_value()) << "no window is open";
  Events ev;
  ASSERT_FALSE(m.apply(kSystem, Action::timeout(w->id), ev).has_value());
}

// Applies a move and returns the events it caused.
std::vector<Event> play_events(Match& m, Seat seat, const json& action) {
  auto a = m.game().action_from_json(action);
  EXPECT_TRUE(a.ok());
  Events ev;
  auto err = m.apply(seat, *a, ev);
  EXPECT_FALSE(err.has_value()) << action.dump() << ": " << err->message;
  return ev.list();
}

json top_discard(const Match& m) {
  return view(m, 0)["discard"].back();
}

json slot_ids(const Match& m, Seat s) {
  return view(m, 0)["lines"][s];
}

// A turn that draws the stockpile's top card and discards it, with the window timed out and
// no power used; `call` ends it with a call when the call step is offered.
void quiet_turn(Match& m, Seat s, bool call = false) {
  play(m, s, kDraw);
  play(m, s, kDiscardDrawn);
  timeout(m);
  if (view(m, s)["phase"] == "power") play(m, s, kSkipPower);
  if (view(m, s)["phase"] == "end-turn") play(m, s, call ? kCall : kPass);
}

const Lines kFour = {{"2C", "3C", "4C", "5C"},
                     {"2D", "3D", "4D", "5D"},
                     {"2H", "3H", "4H", "5H"},
                     {"2S", "3S", "4S", "5S"}};

// The scores: {A♠, K♦, K♣, 10♥} scores 1 + 0 + 13 + 10 = 24, at a real reveal too.
TEST(SpiderMonkey, LayoutScores24) {
  EXPECT_EQ(points(*game().parse_card("AS")) + points(*game().parse_card("KD")) +
                points(*game().parse_card("KC")) + points(*game().parse_card("TH")),
            24);
  EXPECT_EQ(points(*game().parse_card("KS")), 13);
  EXPECT_EQ(points(*game().parse_card("QH")), 12);
  EXPECT_EQ(points(*game().parse_card("JC")), 11);
  Match m = start({{"AS", "KD", "KC", "TH"}, {"2C", "3C", "4C", "5C"}}, "9S", {"6D", "7D"});
  timeout(m);
  quiet_turn(m, 0, true);
  quiet_turn(m, 1);
  ASSERT_TRUE(m.state().over());
  const Result r = m.state().result();
  EXPECT_EQ(r.scores, std::vector<int>({24, 14}));
  EXPECT_EQ(r.winners, std::vector<Seat>({1}));
  EXPECT_EQ(view(m, 0)["revealed"][0], json({"AS", "KD", "KC", "TH"}));
}

// SM-10, "Regicide": P2 slaps K♦ then K♥ on P1's K♠; K♦ is buried under K♥.
TEST(SpiderMonkey, Regicide) {
  Match m = start({{"2C", "3C", "4C", "5C"}, {"6C", "KD", "KH", "7C"}, {"2D", "3D", "4D", "5D"}},
                  "9S", {"KS"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  EXPECT_EQ(view(m, 1)["phase"], "slap-window");
  const auto first = play_events(m, 1, slap(1));
  const auto second = play_events(m, 1, slap(2));
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first[0].body["correct"], true);
  EXPECT_EQ(second[0].body["correct"], true);
  const json discard = view(m, 2)["discard"];
  EXPECT_EQ(discard, json({"9S", "KS", "KD", "KH"})) << "K♦ buried under K♥";
  EXPECT_EQ(slot_ids(m, 1), json({0, 3})) << "two fewer cards, other slots keep their ids";
}

// SM-10 and SM-6, "Royal Reclaim": P2 slaps K♦ on P1's K♣, then takes it back on their own turn.
TEST(SpiderMonkey, RoyalReclaim) {
  Match m = start({{"2C", "3C", "4C", "5C"}, {"KD", "8H", "9H", "TH"}, {"2D", "3D", "4D", "5D"}},
                  "9S", {"KC"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  play(m, 1, slap(0));
  timeout(m);
  play(m, 0, kPass);
  EXPECT_EQ(top_discard(m), "KD");
  const auto ev = play_events(m, 1, take(2));
  EXPECT_EQ(top_discard(m), "9H") << "the card in slot 2 is discarded";
  EXPECT_EQ(slot_ids(m, 1), json({1, 2, 3}));
  EXPECT_EQ(view(m, 0)["phase"], "slap-window");
  EXPECT_EQ(to_act(m), json({0, 2})) << "a window opens for the others";
  const auto w = m.state().window();
  ASSERT_TRUE(w.has_value());
  SeatSet others;
  others.insert(0);
  others.insert(2);
  EXPECT_EQ(w->seats, others);
  // Finish the game to see K♦ back in slot 2.
  timeout(m);
  play(m, 1, kCall);
  quiet_turn(m, 2);
  quiet_turn(m, 0);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 1)["revealed"][1], json({"8H", "KD", "TH"}));
}

// SM-11: a wrong 7 on a 9 stays on top, costs 2 unseen cards and closes the window.
TEST(SpiderMonkey, WrongSlapEndsSlapping) {
  Match m = start({{"2C", "3C", "4C", "5C"},
                   {"2D", "3D", "4D", "5D"},
                   {"7C", "3H", "4H", "5H"},
                   {"9C", "3S", "4S", "5S"}},
                  "6D", {"9H", "QC", "QD"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  const int stock = view(m, 0)["stock"];
  const auto ev = play_events(m, 2, slap(0));
  EXPECT_EQ(ev[0].body["correct"], false);
  EXPECT_EQ(top_discard(m), "7C");
  EXPECT_EQ(slot_ids(m, 2), json({1, 2, 3, 4, 5})) << "2 new slots at the end of the line";
  EXPECT_EQ(view(m, 0)["stock"], stock - 2);
  EXPECT_EQ(view(m, 0)["phase"], "end-turn") << "the window is closed";
  EXPECT_EQ(refusal(m, 3, slap(0)), "not_your_turn") << "P4's late 9 is refused";
  // The penalty cards are unseen by anyone, their new owner included.
  for (const Event& e : ev) {
    EXPECT_TRUE(e.to.everyone);
    EXPECT_FALSE(e.body.dump().find("QC") != std::string::npos);
  }
  EXPECT_FALSE(view(m, 2).contains("revealed"));
  play(m, 0, kPass);
  const auto legal = m.state().legal_actions(1);
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::make(kTakeDiscard, {0})), legal.end());
  const auto took = play_events(m, 1, take(0));
  EXPECT_EQ(took[0].body["card"], "7C") << "the next player may take the wrong card";
}

// SM-10: no slapping one's own discard, nor the deal's discard.
TEST(SpiderMonkey, NoSlapOnOwnDiscardOrDealCard) {
  Match m = start(kFour, "9S", {"9H"});
  EXPECT_EQ(view(m, 0)["phase"], "peek");
  EXPECT_EQ(m.state().window()->name, "peek");
  EXPECT_EQ(refusal(m, 1, slap(0)), "illegal_action") << "no window for the deal's card";
  timeout(m);
  EXPECT_FALSE(m.state().window().has_value());
  EXPECT_EQ(refusal(m, 1, slap(0)), "not_your_turn");
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  EXPECT_EQ(refusal(m, 0, slap(0)), "not_your_turn") << "the active player may not slap";
  EXPECT_FALSE(m.state().to_act().contains(0));
  EXPECT_TRUE(m.state().legal_actions(0).empty());
}

// SM-12: P2 slaps their only card, a 9, and wins when the window closes.
TEST(SpiderMonkey, ZeroCardsWins) {
  Match m = start({{"2C", "3C", "4C", "6C"}, {"9C", "5C", "5D", "5H"}, {"2D", "3D", "4D", "6D"}},
                  "TS", {"5S", "8H", "8C", "9S"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 5♠: P2 slaps three 5s and keeps only the 9
  for (int slot : {1, 2, 3}) play(m, 1, slap(slot));
  timeout(m);
  play(m, 0, kPass);
  quiet_turn(m, 1);  // 8♥
  quiet_turn(m, 2);  // 8♣
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  EXPECT_EQ(top_discard(m), "9S");
  play(m, 1, slap(0));
  EXPECT_EQ(slot_ids(m, 1), json::array());
  EXPECT_FALSE(m.state().over()) << "checked when the window closes";
  EXPECT_FALSE(m.state().to_act().contains(1)) << "no cards, nothing to slap";
  timeout(m);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(m.state().result().winners, std::vector<Seat>({1}));
  EXPECT_EQ(m.state().result().places[1], 1);
  EXPECT_TRUE(m.state().legal_actions(0).empty()) << "no power, no call, no further turns";
}

// SM-12, second half: P2 and P3 both reach zero in the same window and tie.
TEST(SpiderMonkey, ZeroCardsTie) {
  Match m = start({{"2C", "3C", "4C", "7C"},
                   {"9C", "5C", "5D", "5H"},
                   {"9D", "6C", "6D", "6H"},
                   {"2D", "3D", "4D", "7D"}},
                  "TS", {"5S", "6S", "8H", "8C", "9S"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 5♠
  for (int slot : {1, 2, 3}) play(m, 1, slap(slot));
  timeout(m);
  play(m, 0, kPass);
  play(m, 1, kDraw);
  play(m, 1, kDiscardDrawn);  // 6♠
  for (int slot : {1, 2, 3}) play(m, 2, slap(slot));
  timeout(m);
  play(m, 1, kPass);
  quiet_turn(m, 2);  // 8♥
  play(m, 3, kDraw);
  play(m, 3, kDiscardDrawn);  // 8♣: nothing to slap
  timeout(m);
  play(m, 3, kPass);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 9♠
  play(m, 1, slap(0));
  play(m, 2, slap(0));
  EXPECT_EQ(to_act(m), json({3}));
  play(m, 3, kSlapDone);  // the last eligible player is done: the window closes
  ASSERT_TRUE(m.state().over());
  const Result r = m.state().result();
  EXPECT_EQ(r.winners, std::vector<Seat>({1, 2}));
  EXPECT_EQ(r.places[1], 1);
  EXPECT_EQ(r.places[2], 1);
  EXPECT_EQ(view(m, 0)["lastRound"]["end"], "zero-cards");
}

// SM-12: a lone K♦ sums to 0 but does not share a zero-card win.
TEST(SpiderMonkey, ZeroCardsBeatALoneKingOfDiamonds) {
  Match m = start({{"KD", "3C", "4C", "7C"}, {"9C", "5C", "5D", "5H"}, {"2D", "3D", "4D", "7D"}},
                  "TS", {"3S", "4S", "7S", "5S", "8H", "8C", "9S"});
  timeout(m);
  // P1 keeps only the K♦ by slapping 3, 4 and 7 on the others' discards.
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 3♠
  play(m, 2, slap(1));        // P3 slaps 3♦ so the window has a slap
  timeout(m);
  play(m, 0, kPass);
  quiet_turn(m, 1);  // 4♠
  quiet_turn(m, 2);  // 7♠
  ASSERT_EQ(static_cast<int>(view(m, 0)["lines"][0].size()), 4);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 5♠
  for (int slot : {1, 2, 3}) play(m, 1, slap(slot));
  timeout(m);
  play(m, 0, kPass);
  play(m, 1, kDraw);
  play(m, 1, kDiscardDrawn);  // 8♥
  timeout(m);
  play(m, 1, kPass);
  play(m, 2, kDraw);
  play(m, 2, kDiscardDrawn);  // 8♣
  timeout(m);
  play(m, 2, kPass);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 9♠
  play(m, 1, slap(0));
  timeout(m);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(m.state().result().winners, std::vector<Seat>({1}));
  EXPECT_EQ(m.state().result().scores[1], 0);
}

// SM-13 and SM-14: P1 calls; P2 and P3 take one more turn each; sums {7, 7, 12} share the win.
TEST(SpiderMonkey, CallAndSharedWin) {
  Match m = start({{"AC", "2C", "2D", "2H"}, {"AD", "2S", "3C", "AH"}, {"4C", "4D", "4H", "KD"}},
                  "9S", {"TC", "TD", "TH", "TS"});
  timeout(m);
  quiet_turn(m, 0, true);
  EXPECT_EQ(view(m, 0)["caller"], 0);
  EXPECT_EQ(view(m, 0)["finalTurnsLeft"], 2);
  EXPECT_EQ(view(m, 0)["current"], 1);
  play(m, 1, kDraw);
  play(m, 1, kDiscardDrawn);
  timeout(m);
  EXPECT_EQ(view(m, 0)["phase"], "draw") << "no second call: the call step is skipped";
  EXPECT_EQ(view(m, 0)["current"], 2);
  quiet_turn(m, 2);
  ASSERT_TRUE(m.state().over()) << "the caller takes no more turns";
  const Result r = m.state().result();
  EXPECT_EQ(r.scores, std::vector<int>({7, 7, 12}));
  EXPECT_EQ(r.winners, std::vector<Seat>({0, 1}));
  EXPECT_EQ(r.losers, std::vector<Seat>({2}));
  EXPECT_EQ(r.places, std::vector<int>({1, 1, 3}));
  EXPECT_EQ(view(m, kSpectator)["revealed"][2], json({"4C", "4D", "4H", "KD"}));
}

// SM-13: only one call per round, and the caller may still slap.
TEST(SpiderMonkey, OneCallPerRoundCallerStillSlaps) {
  Match m = start({{"AC", "2C", "2D", "TH"}, {"AD", "2S", "3C", "AH"}, {"4C", "4D", "4H", "KD"}},
                  "9S", {"TC", "TD", "TS"});
  timeout(m);
  quiet_turn(m, 0, true);
  play(m, 1, kDraw);
  play(m, 1, kDiscardDrawn);  // 10♦
  EXPECT_TRUE(m.state().to_act().contains(0)) << "the caller may slap";
  const auto ev = play_events(m, 0, slap(3));
  EXPECT_EQ(ev[0].body["correct"], true);
  timeout(m);
  EXPECT_EQ(refusal(m, 1, kCall), "not_your_turn");
  EXPECT_EQ(view(m, 0)["current"], 2);
}

// SM-8: a discarded Queen lets P1 look at P3's slot 2; only P1 learns the card.
TEST(SpiderMonkey, QueenLook) {
  Match m = start({{"2C", "3C", "4C", "5C"}, {"2D", "3D", "4D", "5D"}, {"2H", "3H", "7H", "5H"}},
                  "9S", {"QH"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  EXPECT_EQ(view(m, 0)["phase"], "slap-window") << "the window comes first";
  EXPECT_EQ(refusal(m, 0, queen(2, 2)), "not_your_turn");
  play(m, 1, kSlapDone);
  play(m, 2, kSlapDone);
  EXPECT_EQ(view(m, 0)["phase"], "power");
  EXPECT_EQ(view(m, 0)["power"], "queen");
  EXPECT_EQ(refusal(m, 0, jack(1, 0)), "illegal_action");
  const auto ev = play_events(m, 0, queen(2, 2));
  int private_events = 0;
  for (const Event& e : ev) {
    if (e.to.everyone) {
      EXPECT_FALSE(e.body.contains("card"));
      EXPECT_EQ(e.body["text"], "{seat:0} looks at {seat:2}'s slot 3");
    } else {
      ++private_events;
      EXPECT_EQ(e.to.seats, SeatSet::of(0));
      EXPECT_EQ(e.body["card"], "7H");
    }
  }
  EXPECT_EQ(private_events, 1);
  EXPECT_EQ(view(m, 0)["phase"], "end-turn");
  EXPECT_EQ(view(m, 0).dump().find("7H"), std::string::npos) << "the view keeps it hidden";
}

// Seat 0 of the four-seat deal draws the Jack of Spades and discards it: the peek and then the
// slap window have run out, and its Jack power is to be used.
Match jack_power() {
  Match m = start(kFour, "9C", {"JS"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  timeout(m);
  return m;
}

// SM-8: a discarded Jack swaps P2#1 with P4#3; both stay hidden, everyone sees the swap.
TEST(SpiderMonkey, JackSwap) {
  Match m = jack_power();
  EXPECT_EQ(view(m, 0)["power"], "jack");
  // USE_JACK{P2#1, P4#3} is sent as two picks.
  EXPECT_EQ(m.state().legal_actions(0).size(), 16u + 1u) << "any of the 16 slots, or skip";
  const auto picked = play_events(m, 0, jack(3, 3));
  EXPECT_EQ(view(m, 1)["jackFirst"], json({{"seat", 3}, {"slot", 3}}));
  EXPECT_EQ(m.state().legal_actions(0).size(), 15u) << "any other slot; no skipping now";
  EXPECT_EQ(refusal(m, 0, jack(3, 3)), "illegal_action");
  EXPECT_EQ(refusal(m, 0, kSkipPower), "illegal_action");
  const auto ev = play_events(m, 0, jack(1, 1));
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_TRUE(ev[0].to.everyone);
  EXPECT_TRUE(picked[0].to.everyone);
  EXPECT_EQ(ev[0].body["a"], json({{"seat", 3}, {"slot", 3}}));
  EXPECT_EQ(ev[0].body["b"], json({{"seat", 1}, {"slot", 1}}));
  EXPECT_EQ(ev[0].body.dump().find("3D"), std::string::npos);
  EXPECT_EQ(ev[0].body.dump().find("5S"), std::string::npos);
  EXPECT_EQ(view(m, 0)["phase"], "end-turn");
  play(m, 0, kCall);
  quiet_turn(m, 1);
  quiet_turn(m, 2);
  quiet_turn(m, 3);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 0)["revealed"][1], json({"2D", "5S", "4D", "5D"}));
  EXPECT_EQ(view(m, 0)["revealed"][3], json({"2S", "3S", "4S", "3D"}));
}

// A turn timer running out after the first pick of a Jack swap completes the swap: skipping is no
// longer legal, so the fallback must not be skip-power (found by fuzzing).
TEST(SpiderMonkey, FallbackAfterTheFirstJackPickCompletesTheSwap) {
  Match m = jack_power();
  EXPECT_EQ(m.game().action_to_json(m.state().fallback_action(0)), kSkipPower)
      << "nothing picked yet";
  play(m, 0, jack(3, 3));
  const Action fallback = m.state().fallback_action(0);
  const auto legal = m.state().legal_actions(0);
  EXPECT_NE(std::find(legal.begin(), legal.end(), fallback), legal.end());
  Events ev;
  EXPECT_FALSE(m.apply(0, fallback, ev).has_value());
  EXPECT_EQ(view(m, 0)["phase"], "end-turn");
}

// The "Fateful Jack" tip (SM-13): after a call, the caller's cards may still be swapped.
TEST(SpiderMonkey, FatefulJackTargetsTheCaller) {
  Match m = start({{"AC", "2C", "2D", "2H"}, {"KC", "KH", "3C", "4C"}, {"5C", "6C", "7C", "8C"}},
                  "9S", {"TC", "JD", "TD"});
  timeout(m);
  quiet_turn(m, 0, true);
  play(m, 1, kDraw);
  play(m, 1, kDiscardDrawn);  // J♦
  timeout(m);
  play(m, 1, jack(1, 0));  // P2's K♣ ...
  play(m, 1, jack(0, 1));  // ... for the caller's 2♣
  EXPECT_EQ(view(m, 0)["phase"], "draw") << "no call step after a call";
  quiet_turn(m, 2);
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 0)["revealed"][0], json({"AC", "KC", "2D", "2H"}));
  EXPECT_EQ(m.state().result().scores, std::vector<int>({18, 22, 26}));
  EXPECT_EQ(m.state().result().winners, std::vector<Seat>({0}));
}

// SM-9: the window closes at its logged timeout; a slap after it is refused.
TEST(SpiderMonkey, LateSlapRefused) {
  Match m = start(kFour, "9S", {"6H"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);
  const int id = m.state().window()->id;
  timeout(m);
  EXPECT_EQ(refusal(m, 3, slap(3)), "not_your_turn");
  Events ev;
  EXPECT_EQ(m.apply(kSystem, Action::timeout(id), ev)->code, "stale_timeout");
  EXPECT_TRUE(ev.list().empty());
  EXPECT_EQ(static_cast<int>(view(m, 3)["lines"][3].size()), 4);
}

// SM-8: a slapped J grants no power, nor does a Jack taken from the pile; the power is the
// active player's, whichever way the J was discarded.
TEST(SpiderMonkey, PowersOnlyFromTheTurnDiscard) {
  Match m = start({{"JC", "3C", "4C", "5C"}, {"JD", "3D", "4D", "5D"}, {"2H", "3H", "4H", "5H"}},
                  "9S", {"6S"});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, replace(0));  // the J♣ from P1's line is the turn's discard
  play(m, 1, slap(0));     // J♦, correct, no power for P2
  timeout(m);
  EXPECT_EQ(view(m, 0)["phase"], "power");
  EXPECT_EQ(view(m, 0)["current"], 0);
  play(m, 0, kSkipPower);
  play(m, 0, kPass);
  play(m, 1, take(1));  // takes the J♦ back, discards 3♦
  timeout(m);
  EXPECT_EQ(view(m, 0)["phase"], "end-turn") << "no power from a Jack taken from the pile";
}

// SM-15: totals {118, 95, 60} plus {5, 10, 3} give {123, 105, 63}; the game ends and 63 wins.
TEST(SpiderMonkey, CumulativeTotals) {
  std::vector<int> totals = {118, 95, 60};
  EXPECT_TRUE(add_round(totals, {5, 10, 3}));
  EXPECT_EQ(totals, std::vector<int>({123, 105, 63}));
  EXPECT_EQ(Result::places_ascending(totals), std::vector<int>({3, 2, 1}));
  std::vector<int> at_limit = {110, 20};
  EXPECT_FALSE(add_round(at_limit, {10, 5})) << "exactly 120 is not over (strictly more)";
}

// SM-15 in play: rounds add up until a total passes 120; the dealer moves left each round.
TEST(SpiderMonkey, CumulativeGame) {
  auto created = Match::create(game(), 3, {{"cumulative", true}}, 77);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  std::vector<int> totals = {0, 0, 0};
  int rounds = 0;
  while (!m.state().over() && rounds < 40) {
    const json v = view(m, 0);
    EXPECT_EQ(v["dealer"], (2 + rounds) % 3);
    const Seat first = (v["dealer"].get<int>() + 1) % 3;
    timeout(m);
    quiet_turn(m, first, true);
    quiet_turn(m, (first + 1) % 3);
    quiet_turn(m, (first + 2) % 3);
    ++rounds;
    const json after = view(m, 0);
    ASSERT_EQ(after["lastRound"]["round"], rounds);
    bool past = false;
    for (Seat s = 0; s < 3; ++s) {
      totals[s] += after["lastRound"]["scores"][s].get<int>();
      past |= totals[s] > 120;
    }
    EXPECT_EQ(after["totals"], json(totals));
    EXPECT_EQ(m.state().over(), past);
  }
  ASSERT_TRUE(m.state().over());
  EXPECT_GT(rounds, 1);
  const Result r = m.state().result();
  EXPECT_EQ(r.scores, totals);
  const int lowest = *std::min_element(totals.begin(), totals.end());
  for (Seat w : r.winners) EXPECT_EQ(totals[w], lowest);
}

// SM-11, CONTINUE_NEW: after a wrong 7 on a 9, a 7 is correct and a 9 is now wrong.
TEST(SpiderMonkey, ContinueNew) {
  Match m = start({{"2C", "3C", "4C", "5C"},
                   {"7C", "3D", "4D", "5D"},
                   {"7D", "3H", "4H", "5H"},
                   {"9C", "3S", "4S", "5S"}},
                  "6D", {"9H"}, {{"incorrectSlapMode", "CONTINUE_NEW"}});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 9♥
  EXPECT_EQ(play_events(m, 1, slap(0))[0].body["correct"], false);
  EXPECT_EQ(view(m, 0)["phase"], "slap-window") << "slapping goes on";
  EXPECT_EQ(view(m, 0)["slapRanks"], json({"7"}));
  EXPECT_EQ(play_events(m, 2, slap(0))[0].body["correct"], true);
  const int before = static_cast<int>(view(m, 0)["lines"][3].size());
  // Refusing the 9 would tell P4 what the card is, so it is judged wrong instead.
  EXPECT_EQ(play_events(m, 3, slap(0))[0].body["correct"], false);
  EXPECT_EQ(static_cast<int>(view(m, 0)["lines"][3].size()), before + 1);
  EXPECT_EQ(view(m, 0)["discard"], json({"6D", "9H", "7C", "7D", "9C"}));
}

// SM-11 variations: CONTINUE_CORRECT keeps the first rank, CONTINUE_BOTH takes either.
TEST(SpiderMonkey, ContinueCorrectAndBoth) {
  const Lines lines = {{"2C", "3C", "4C", "5C"},
                       {"7C", "3D", "4D", "5D"},
                       {"7D", "9D", "4H", "5H"},
                       {"9C", "3S", "4S", "5S"}};
  {
    Match m = start(lines, "6D", {"9H"}, {{"incorrectSlapMode", "CONTINUE_CORRECT"}});
    timeout(m);
    play(m, 0, kDraw);
    play(m, 0, kDiscardDrawn);
    EXPECT_EQ(play_events(m, 1, slap(0))[0].body["correct"], false);
    EXPECT_EQ(view(m, 0)["slapRanks"], json({"9"}));
    EXPECT_EQ(play_events(m, 2, slap(0))[0].body["correct"], false) << "the 7 is still wrong";
    EXPECT_EQ(play_events(m, 3, slap(0))[0].body["correct"], true);
  }
  {
    Match m = start(lines, "6D", {"9H"}, {{"incorrectSlapMode", "CONTINUE_BOTH"}});
    timeout(m);
    play(m, 0, kDraw);
    play(m, 0, kDiscardDrawn);
    EXPECT_EQ(play_events(m, 1, slap(0))[0].body["correct"], false);
    EXPECT_EQ(view(m, 0)["slapRanks"], json({"7", "9"}));
    EXPECT_EQ(play_events(m, 2, slap(0))[0].body["correct"], true);
    EXPECT_EQ(play_events(m, 2, slap(1))[0].body["correct"], true);
    EXPECT_EQ(play_events(m, 3, slap(0))[0].body["correct"], true);
  }
}

// SM-4 and SM-5: everyone peeks at once, privately; the timeout peeks slots 0 and 1; nobody's
// view ever shows their own face-down cards.
TEST(SpiderMonkey, SimultaneousPeek) {
  Match m = start(kFour, "9S", {"8D"});
  const auto w = m.state().window();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->millis, 30000u);
  EXPECT_EQ(w->seats, SeatSet::all(4));
  const auto ev = play_events(m, 2, {{"move", "peek"}, {"slots", {3, 1}}});
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].to.seats, SeatSet::of(2));
  EXPECT_EQ(ev[0].body["cards"], json({"3H", "5H"}));
  EXPECT_FALSE(ev[1].body.contains("cards"));
  EXPECT_EQ(refusal(m, 2, {{"move", "peek"}, {"slots", {0, 2}}}), "not_your_turn");
  EXPECT_EQ(refusal(m, 1, {{"move", "peek"}, {"slots", {0, 0}}}), "bad_action");
  EXPECT_EQ(refusal(m, 1, {{"move", "peek"}, {"slots", {0, 4}}}), "no_such_slot");
  play(m, 0, {{"move", "peek"}, {"slots", {0, 2}}});
  EXPECT_EQ(m.state().window()->id, w->id) << "the same window until everyone has peeked";
  Events timed;
  ASSERT_FALSE(m.apply(kSystem, Action::timeout(w->id), timed).has_value());
  int reveals = 0;
  for (const Event& e : timed.list()) {
    if (e.to.everyone) continue;
    ++reveals;
    EXPECT_EQ(e.body["slots"], json({0, 1}));
  }
  EXPECT_EQ(reveals, 2) << "seats 1 and 3 peeked by the timeout";
  EXPECT_EQ(view(m, 0)["phase"], "draw");
  EXPECT_EQ(view(m, 0)["current"], 0);
  for (Seat s = 0; s < 4; ++s) {
    for (const char* code : {"2C", "3D", "4H", "5S"}) {
      EXPECT_EQ(view(m, s).dump().find(code), std::string::npos) << code;
    }
  }
}

// SM-6: the drawn card is private until placed; the placed card is told once, never shown.
TEST(SpiderMonkey, DrawnCardIsPrivate) {
  Match m = start(kFour, "9S", {"8D"});
  timeout(m);
  const auto drew = play_events(m, 0, kDraw);
  EXPECT_EQ(view(m, 0)["drawn"], "8D");
  EXPECT_FALSE(view(m, 1).contains("drawn"));
  EXPECT_FALSE(view(m, kSpectator).contains("drawn"));
  for (const Event& e : drew) {
    if (e.body.dump().find("8D") != std::string::npos) {
      EXPECT_EQ(e.to.seats, SeatSet::of(0));
    }
  }
  const auto placed = play_events(m, 0, replace(2));
  EXPECT_EQ(top_discard(m), "4C");
  EXPECT_EQ(view(m, 0).dump().find("8D"), std::string::npos);
  EXPECT_EQ(view(m, 0)["lastTurn"]["replaced"], 2);
  EXPECT_EQ(view(m, 0)["lastTurn"]["from"], "stock");
  EXPECT_EQ(placed[0].to.seats, SeatSet::of(0));
  EXPECT_EQ(placed[0].body["card"], "8D");
  EXPECT_EQ(refusal(m, 0, kDraw), "not_your_turn");
}

// Eight players whose lines hold only 2s to 9s, the deal's discard K♠ and A♠ on the stockpile:
// every slap on the A♠ is wrong. In CONTINUE_CORRECT the window stays open after each one.
Match eight_wrong_slappers() {
  Lines lines;
  const char* suits = "CDHS";
  const char* ranks = "23456789";
  for (int k = 0; k < 8; ++k) {
    std::vector<std::string> line;
    for (int r = 0; r < 4; ++r) {
      line.push_back(std::string(1, ranks[(k * 4 + r) / 4]) + suits[(k * 4 + r) % 4]);
    }
    lines.push_back(line);
  }
  Match m = start(lines, "KS", {"AS"}, {{"incorrectSlapMode", "CONTINUE_CORRECT"}});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // A♠
  return m;
}

int cards_in_lines(const Match& m) {
  const json v = view(m, 0);
  int n = 0;
  for (const json& line : v["lines"]) n += static_cast<int>(line.size());
  return n;
}

// SM-7: a penalty card needed from an empty stockpile first shuffles every discard but the top
// card (the wrong card just slapped) into a new stockpile.
TEST(SpiderMonkey, PenaltyCardsReshuffleTheDiscards) {
  Match m = eight_wrong_slappers();
  EXPECT_EQ(view(m, 0)["stock"], 18);
  for (int k = 0; k < 9; ++k) play(m, 1 + k % 7, slap(k / 7));  // 9 wrong slaps, 18 penalties
  ASSERT_EQ(view(m, 0)["stock"], 0);
  ASSERT_EQ(view(m, 0)["discard"].size(), 11u);  // K♠, A♠ and the nine wrong cards
  const int in_lines = cards_in_lines(m);
  const auto ev = play_events(m, 3, slap(1));
  ASSERT_GE(ev.size(), 2u);
  EXPECT_EQ(ev[0].body["type"], "reshuffle");
  EXPECT_EQ(ev[0].body["stock"], 11) << "all discards but the wrong card on top";
  EXPECT_EQ(ev[1].body["correct"], false);
  EXPECT_EQ(ev[1].body["penaltySlots"].size(), 2u) << "the wrong slap still costs two cards";
  EXPECT_EQ(cards_in_lines(m), in_lines + 1);
  EXPECT_EQ(view(m, 0)["discard"].size(), 1u);
  EXPECT_EQ(view(m, 0)["stock"], 9);
}

// SM-7: with nothing left to draw or to rebuild from, drawing is refused and the player must
// take the discard (the turn timer does so too). Nineteen wrong slaps leave 51 cards in the
// lines, the wrong card alone on the pile and the stockpile empty.
TEST(SpiderMonkey, NothingToDrawForcesTheDiscard) {
  Match m = eight_wrong_slappers();
  for (int k = 0; k < 19; ++k) play(m, 1 + k % 7, slap(k / 7));
  ASSERT_EQ(cards_in_lines(m), 51);
  ASSERT_EQ(view(m, 0)["stock"], 0);
  ASSERT_EQ(view(m, 0)["discard"].size(), 1u);
  timeout(m);
  play(m, 0, kPass);
  EXPECT_EQ(refusal(m, 1, kDraw), "stock_empty");
  for (const Action& a : m.state().legal_actions(1)) EXPECT_EQ(a.kind, kTakeDiscard);
  const Action fallback = m.state().fallback_action(1);
  EXPECT_EQ(fallback, Action::make(kTakeDiscard, {slot_ids(m, 1)[0].get<int>()}));
  const std::string wrong = top_discard(m);
  Events ev;
  ASSERT_FALSE(m.apply(1, fallback, ev));
  EXPECT_EQ(view(m, 0)["lastTurn"]["from"], "discard");
  EXPECT_NE(top_discard(m), wrong);
}

// SM-17: penalty cards cannot be slapped in the window that gave them.
TEST(SpiderMonkey, PenaltyCardsWaitForTheNextWindow) {
  Match m = eight_wrong_slappers();
  const auto ev = play_events(m, 1, slap(0));
  const json added = ev[0].body["penaltySlots"];
  ASSERT_EQ(added, json({4, 5}));
  for (const json& id : added) {
    EXPECT_EQ(refusal(m, 1, slap(id.get<int>())), "illegal_action") << id;
  }
  for (const Action& a : m.state().legal_actions(1)) {
    if (a.kind == kSlap) {
      EXPECT_LT(a.arg(0), 4) << "only the cards held when the window opened";
    }
  }
  play(m, 1, slap(1));  // an original card may still be slapped
  timeout(m);
  play(m, 0, kPass);
  quiet_turn(m, 1);
  play(m, 2, kDraw);
  play(m, 2, kDiscardDrawn);
  const auto legal = m.state().legal_actions(1);
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::make(kSlap, {4})), legal.end())
      << "in the next window they are cards like any other";
}

// SM-16: no rule ends a round that nobody calls; the engine's turn cap reveals it at
// kMaxTurns, so every game ends within max_actions.
TEST(SpiderMonkey, TurnCapEndsTheGame) {
  auto created = Match::create(game(), 2, json::object(), 3);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  timeout(m);
  for (int turn = 0; turn < kMaxTurns && !m.state().over(); ++turn) {
    quiet_turn(m, turn % 2);
    if (::testing::Test::HasFatalFailure()) return;
  }
  ASSERT_TRUE(m.state().over());
  EXPECT_EQ(view(m, 0)["turns"], kMaxTurns);
  EXPECT_EQ(view(m, 0)["lastRound"]["end"], "turn-limit");
  EXPECT_LE(static_cast<int>(m.log().size()), game().info().max_actions);
  EXPECT_FALSE(m.state().result().winners.empty());
}

// SM-19, the turn timer's default: draw, discard, no power, no call; slap-done in a window.
TEST(SpiderMonkey, FallbackActions) {
  Match m = start(kFour, "9S", {"QD"});
  EXPECT_EQ(m.state().fallback_action(2), Action::make(Move::kPeek, {0, 1}));
  timeout(m);
  EXPECT_EQ(m.state().fallback_action(0), Action::make(Move::kDrawStock));
  play(m, 0, kDraw);
  EXPECT_EQ(m.state().fallback_action(0), Action::make(Move::kDiscardDrawn));
  play(m, 0, kDiscardDrawn);
  EXPECT_EQ(m.state().fallback_action(1), Action::make(Move::kSlapDone));
  timeout(m);
  EXPECT_EQ(m.state().fallback_action(0), Action::make(Move::kSkipPower));
  play(m, 0, kSkipPower);
  EXPECT_EQ(m.state().fallback_action(0), Action::make(Move::kEndTurn, {0}));
}

// Wire format: canonical actions, options and their checks.
TEST(SpiderMonkey, ActionsAndOptions) {
  const Game& g = game();
  auto peek = g.action_from_json({{"move", "peek"}, {"slots", {2, 0}}});
  ASSERT_TRUE(peek.ok());
  EXPECT_EQ(*peek, Action::make(kPeek, {0, 2}));
  auto pick = g.action_from_json(jack(3, 1));
  ASSERT_TRUE(pick.ok());
  EXPECT_EQ(*pick, Action::make(kUseJack, {3, 1}));
  EXPECT_FALSE(g.action_from_json(jack(8, 1)).ok()) << "no ninth seat";
  EXPECT_FALSE(g.action_from_json({{"move", "end-turn"}, {"call", 1}}).ok());
  EXPECT_FALSE(g.action_from_json({{"move", "slap"}, {"slot", -1}}).ok());
  EXPECT_EQ(g.info().id, "spider-monkey");
  EXPECT_FALSE(g.parse_options({{"turnTimeoutS", 3}}, 4).ok());
  EXPECT_TRUE(g.parse_options({{"turnTimeoutS", 0}}, 4).ok());
  EXPECT_EQ(g.parse_options({}, 9).error().code, "bad_seats");
  auto m = Match::create(g, 3, {{"slapWindowMs", 2000}, {"peekTimeoutS", 20}}, 5);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->state().window()->millis, 20000u);
  play(*m, 0, {{"move", "peek"}, {"slots", {0, 1}}});
  play(*m, 1, {{"move", "peek"}, {"slots", {0, 1}}});
  const int peek_window = m->state().window()->id;
  play(*m, 2, {{"move", "peek"}, {"slots", {0, 1}}});
  play(*m, 0, kDraw);
  play(*m, 0, kDiscardDrawn);
  ASSERT_TRUE(m->state().window().has_value());
  EXPECT_EQ(m->state().window()->millis, 2000u);
  EXPECT_NE(m->state().window()->id, peek_window);
  Events ev;
  EXPECT_EQ(m->apply(kSystem, Action::timeout(peek_window), ev)->code, "stale_timeout");
}

// Every action offered has words for the client, in every phase of a few random games.
TEST(SpiderMonkey, EveryLegalActionIsDescribed) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto created = Match::create(game(), 4, {{"cumulative", true}}, seed);
    ASSERT_TRUE(created.ok());
    Match m = std::move(*created);
    Rng pick(seed);
    while (!m.state().over()) {
      const SeatSet acting = m.state().to_act();
      for (Seat s = 0; s < 4; ++s) {
        for (const Action& a : m.state().legal_actions(s)) {
          const std::string words = m.state().describe(s, a);
          EXPECT_FALSE(words.empty() || words == "?") << game().action_to_json(a).dump();
        }
      }
      if (m.state().window() && (acting.empty() || pick.below(4) == 0)) {
        timeout(m);
        continue;
      }
      std::vector<Seat> seats;
      acting.for_each([&](Seat x) { seats.push_back(x); });
      const Seat s = seats[pick.below(seats.size())];
      const auto legal = m.state().legal_actions(s);
      Events ev;
      ASSERT_FALSE(m.apply(s, legal[pick.below(legal.size())], ev).has_value());
    }
  }
}

// SM-3: the cut turns up a card from inside the stockpile, picked by the room's one seeded
// generator like every other random choice: with the same deck order a different seed cuts
// elsewhere, and the same seed cuts the same card.
TEST(SpiderMonkey, CutForDiscard) {
  const json deck = deck_for(kFour, "9S", {"8D"});
  std::set<std::string> cuts;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto a = Match::create(game(), 4, {{"cutForDiscard", true}}, seed, deck);
    auto b = Match::create(game(), 4, {{"cutForDiscard", true}}, seed, deck);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(view(*a, 0)["discard"], view(*b, 0)["discard"]);
    EXPECT_EQ(view(*a, 0)["stock"], 35);
    EXPECT_EQ(view(*a, 0)["lines"], view(*b, 0)["lines"]);
    cuts.insert(view(*a, 0)["discard"][0].get<std::string>());
  }
  EXPECT_GT(cuts.size(), 5u) << "the seed decides the cut";
  std::set<std::string> tops;
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    auto m = Match::create(game(), 4, {{"cutForDiscard", true}}, seed);
    ASSERT_TRUE(m.ok());
    tops.insert(view(*m, 0)["discard"][0].get<std::string>());
  }
  EXPECT_GT(tops.size(), 10u);
}

// Players count slots from 1: labels and event texts call the slot with id 0 "slot 1", while
// actions and views keep the ids.
TEST(SpiderMonkey, WordsCountSlotsFromOne) {
  Match m = start(kFour, "9S", {"8D"});
  const auto peek = play_events(m, 0, {{"move", "peek"}, {"slots", {0, 2}}});
  ASSERT_EQ(peek.size(), 2u);
  EXPECT_EQ(peek[0].body["slots"], json({0, 2}));
  EXPECT_EQ(peek[0].body["text"], "you look at your slot 1: 2♣, and slot 3: 4♣");
  EXPECT_EQ(peek[1].body["text"], "{seat:0} looks at their slots 1 and 3");
  timeout(m);
  play(m, 0, kDraw);
  auto keep = m.game().action_from_json(replace(1));
  ASSERT_TRUE(keep.ok());
  EXPECT_EQ(m.state().describe(0, *keep).rfind("keep the drawn card in slot 2", 0), 0u)
      << m.state().describe(0, *keep);
  const auto placed = play_events(m, 0, replace(1));
  ASSERT_GE(placed.size(), 2u);
  EXPECT_EQ(placed[0].body["slot"], 1);
  EXPECT_EQ(placed[0].body["text"], "you put the 8♦ in your slot 2");
  EXPECT_EQ(placed[1].body["text"], "{seat:0} keeps the drawn card in slot 2 and discards 3♣");
}

// SM-11: after a wrong slap in END mode the window closes, and the player whose turn it was
// still uses the power of the Queen (or Jack) it discarded.
TEST(SpiderMonkey, PowerAfterAWrongSlap) {
  for (const char* card : {"QD", "JD"}) {
    Match m = start(kFour, "9S", {card});
    timeout(m);
    play(m, 0, kDraw);
    play(m, 0, kDiscardDrawn);
    const auto ev = play_events(m, 2, slap(0));  // 2♥ on the Queen or Jack: wrong
    EXPECT_EQ(ev[0].body["correct"], false);
    const json v = view(m, 0);
    EXPECT_EQ(v["phase"], "power") << card;
    EXPECT_EQ(v["power"], card[0] == 'Q' ? "queen" : "jack");
    EXPECT_EQ(m.state().to_act(), SeatSet::of(0));
    if (card[0] == 'Q') {
      play(m, 0, queen(1, 0));
    } else {
      play(m, 0, jack(1, 0));
      play(m, 0, jack(3, 2));
    }
    EXPECT_EQ(view(m, 0)["phase"], "end-turn");
    play(m, 0, kPass);
    const auto took = play_events(m, 1, take(0));
    EXPECT_EQ(took[0].body["card"], "2H") << "the next player may take the wrong card";
  }
}

// SM-12 and SM-15: a round won by emptying a line is still scored in cumulative play (0 for
// the empty line) and the next round is dealt.
TEST(SpiderMonkey, ZeroCardRoundIsScoredInCumulativePlay) {
  Match m = start({{"2C", "3C", "4C", "6C"}, {"9C", "9D", "5C", "5D"}, {"2D", "3D", "4D", "6D"}},
                  "TS", {"9H", "8H", "5H"}, {{"cumulative", true}});
  timeout(m);
  play(m, 0, kDraw);
  play(m, 0, kDiscardDrawn);  // 9♥
  play(m, 1, slap(0));
  play(m, 1, slap(1));
  timeout(m);
  play(m, 0, kPass);
  quiet_turn(m, 1);  // 8♥
  play(m, 2, kDraw);
  play(m, 2, kDiscardDrawn);  // 5♥
  play(m, 1, slap(2));
  play(m, 1, slap(3));
  timeout(m);
  ASSERT_FALSE(m.state().over()) << "totals are far from 120: the game goes on";
  const json v = view(m, 0);
  EXPECT_EQ(v["lastRound"]["end"], "zero-cards");
  EXPECT_EQ(v["lastRound"]["winners"], json({1}));
  EXPECT_EQ(v["lastRound"]["scores"], json({15, 0, 15}));
  EXPECT_EQ(v["totals"], json({15, 0, 15}));
  EXPECT_EQ(v["round"], 2);
  EXPECT_EQ(v["dealer"], 0) << "the dealer moves one seat left";
  EXPECT_EQ(v["phase"], "peek");
}

}  // namespace
}  // namespace campfire::spider_monkey
