// Tricky Tribes: the rule text's Examples 1-4 and the rules of docs/rules/tricky-tribes.md
// (TT-1..TT-17): tricks, the exchange, trim, dummy, teams and the end of the game.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "engine/core/match.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/tricky_tribes/tricky_tribes.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::tricky_tribes {
namespace {

using campfire::testing::play;
using campfire::testing::refusal;

using Cards = std::vector<std::string>;

const json kSkip = {{"move", "exchange-skip"}};
const json kDrawMove = {{"move", "exchange-draw"}};

json lead(const std::string& card, bool face_up) {
  return {{"move", "lead"}, {"card", card}, {"faceUp", face_up}};
}
json respond(const std::string& card) {
  return {{"move", "respond"}, {"card", card}};
}
json discard(const std::string& card) {
  return {{"move", "exchange-discard"}, {"card", card}};
}
json trim(const std::string& card) {
  return {{"move", "trim-discard"}, {"card", card}};
}

// A deck order for round 1 (seat n-1 deals, so seat i % n gets the i-th card). `hands[s]` are
// cards seat s must hold, filled up from unused cards; `reserved[s]` its exchange card; `stock`
// the top of what is left (the dummy's cards).
json deal(int seats, const json& options, const std::vector<Cards>& hands,
          const Cards& reserved = {}, const Cards& stock = {}) {
  const Game& g = game();
  auto parsed = g.parse_options(options, seats);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message;
  std::deque<Card> pool;
  for (Card c : g.deck(*parsed, seats)) pool.push_back(c);
  auto take = [&](const std::string& code) {
    const Card c = *g.parse_card(code);
    const auto it = std::find(pool.begin(), pool.end(), c);
    EXPECT_NE(it, pool.end()) << code << " is used twice or not in this deck";
    if (it != pool.end()) pool.erase(it);
    return c;
  };
  auto filler = [&] {
    const Card c = pool.front();
    pool.pop_front();
    return c;
  };
  const int jokers = options.value("jokers", 0);
  const bool trim_deal = seats == 6 && jokers < 2;
  const int hand = seats == 6 ? 8 : (options.value("tenCards", false) ? 10 : 9);
  const int total = static_cast<int>(pool.size());
  std::vector<std::vector<Card>> held(static_cast<std::size_t>(seats));
  for (int s = 0; s < seats; ++s) {
    if (s < static_cast<int>(hands.size())) {
      for (const auto& code : hands[s]) held[s].push_back(take(code));
    }
  }
  Cards wanted_reserved = reserved;
  wanted_reserved.resize(static_cast<std::size_t>(seats));
  std::vector<Card> res(static_cast<std::size_t>(seats), kNoCard);
  for (int s = 0; s < seats; ++s) {
    if (!wanted_reserved[s].empty()) res[s] = take(wanted_reserved[s]);
  }
  std::vector<Card> top;
  for (const auto& code : stock) top.push_back(take(code));
  for (int s = 0; s < seats; ++s) {
    const int count = trim_deal ? (s < total - 8 * seats ? 9 : 8) : hand;
    while (static_cast<int>(held[s].size()) < count) held[s].push_back(filler());
  }
  if (!trim_deal) {
    for (int s = 0; s < seats; ++s) {
      if (res[s] == kNoCard) res[s] = filler();
    }
  }
  json codes = json::array();
  const int dealt = trim_deal ? total : hand * seats;
  for (int i = 0; i < dealt; ++i) codes.push_back(g.card_code(held[i % seats][i / seats]));
  if (!trim_deal) {
    for (int s = 0; s < seats; ++s) codes.push_back(g.card_code(res[s]));
  }
  for (Card c : top) codes.push_back(g.card_code(c));
  for (Card c : pool) codes.push_back(g.card_code(c));
  return codes;
}

Match start(int seats, const std::vector<Cards>& hands, json options = json::object(),
            const Cards& reserved = {}, const Cards& stock = {}) {
  auto m = Match::create(game(), seats, options, 1, deal(seats, options, hands, reserved, stock));
  EXPECT_TRUE(m.ok()) << m.error().message;
  return std::move(*m);
}

json view(const Match& m, Seat s = kSpectator) {
  return m.state().view(s);
}

// Who may act now: the state says it, beside the view (the view does not repeat it).
json to_act(const Match& m) {
  json seats = json::array();
  m.state().to_act().for_each([&](Seat s) { seats.push_back(s); });
  return seats;
}

void skip_exchange(Match& m) {
  for (Seat s = 0; s < m.seats(); ++s) play(m, s, kSkip);
}

// Plays one trick: the leader's card, then each response in clockwise order.
void trick(Match& m, Seat leader, const std::string& first, bool face_up, const Cards& answers) {
  play(m, leader, lead(first, face_up));
  for (std::size_t i = 0; i < answers.size(); ++i) {
    play(m, (leader + 1 + static_cast<int>(i)) % m.seats(), respond(answers[i]));
  }
}

int total_points(const Cards& stack) {
  int p = 0;
  for (const auto& code : stack) p += card_points(*game().parse_card(code));
  return p;
}

// TT-8, Example 1: an open red 3 is collected by the highest red.
TEST(TrickyTribes, Example1_OpenRedTrick) {
  Match m = start(4, {{"3H"}, {"4S"}, {"JH"}, {"QD"}});
  skip_exchange(m);
  trick(m, 0, "3H", true, {"4S", "JH", "QD"});
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["kind"], "open-red");
  EXPECT_EQ(v["lastTrick"]["winner"], 3);
  EXPECT_EQ(v["lastTrick"]["cards"], json({"3H", "4S", "JH", "QD"}));
  EXPECT_EQ(v["lastTrick"]["collected"], json({"3H"}));
  EXPECT_EQ(v["stacks"], json({json::array(), json::array(), json::array(), {"3H"}}));
  EXPECT_EQ(v["stackPoints"][3], 1);
  EXPECT_EQ(v["discards"], json({"4S", "JH", "QD"}));
  EXPECT_EQ(to_act(m), json({3})) << "the winner leads next";
  EXPECT_EQ(v["phase"], "lead");
}

// TT-8, Example 2: nobody played red, so the lowest black takes the offered black 6.
TEST(TrickyTribes, Example2_OpenBlackPenalty) {
  Match m = start(3, {{"6S"}, {"8C"}, {"9S"}});
  skip_exchange(m);
  trick(m, 0, "6S", true, {"8C", "9S"});
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["kind"], "open-black");
  EXPECT_EQ(v["lastTrick"]["loser"], 1);
  EXPECT_FALSE(v["lastTrick"].contains("winner")) << "nobody won: no winner member";
  EXPECT_EQ(v["stacks"][1], json({"6S"}));
  EXPECT_EQ(v["stackPoints"][1], -1);
  EXPECT_EQ(to_act(m), json({1}));
}

// TT-8 and TT-9, Example 3 with six players (52 cards: seats 0-3 trim first).
Match six_player_black_trick(const std::string& third) {
  Match m = start(6, {{"4C", "2C"}, {"5H", "2D"}, {third, "2S"}, {"9C", "3C"}, {"7D"}, {"2H"}});
  for (Seat s = 0; s < 4; ++s) {
    play(m, s, trim(std::string(1, "2223"[s]) + "CDSC"[s]));
  }
  trick(m, 0, "4C", true, {"5H", third, "9C", "7D", "2H"});
  return m;
}

TEST(TrickyTribes, Example3_OpenBlackWithRewards) {
  Match m = six_player_black_trick("TS");
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 2);
  Cards stack = v["stacks"][2].get<Cards>();
  std::sort(stack.begin(), stack.end());
  EXPECT_EQ(stack, Cards({"2H", "5H", "7D"}));
  EXPECT_EQ(v["stackPoints"][2], 3);
  EXPECT_NE(std::find(v["discards"].begin(), v["discards"].end(), "4C"), v["discards"].end())
      << "the offered black card is discarded";
  EXPECT_EQ(to_act(m), json({2}));
}

TEST(TrickyTribes, Example3_HighCardLimitsLoot) {
  Match m = six_player_black_trick("JS");
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 2);
  EXPECT_EQ(v["stacks"][2], json({"7D"}));
  EXPECT_EQ(v["stackPoints"][2], 1);
  for (const char* gone : {"5H", "2H", "4C", "JS", "9C"}) {
    EXPECT_NE(std::find(v["discards"].begin(), v["discards"].end(), gone), v["discards"].end())
        << gone;
  }
}

// TT-7 and TT-9, Example 4: a dark trick; equal aces go to the later one, which takes one red only.
TEST(TrickyTribes, Example4_DarkTrick) {
  Match m = start(4, {{"AS"}, {"QC"}, {"5H"}, {"AH"}});
  skip_exchange(m);
  play(m, 0, lead("AS", false));
  EXPECT_EQ(view(m, 1)["currentTrick"]["cards"][0], nullptr) << "a dark lead stays hidden";
  EXPECT_EQ(view(m, 0)["currentTrick"]["cards"][0], "AS") << "but not from its player";
  for (Seat s = 1; s < 4; ++s) play(m, s, respond(Cards{"", "QC", "5H", "AH"}[s]));
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["kind"], "dark");
  EXPECT_EQ(v["lastTrick"]["cards"], json({"AS", "QC", "5H", "AH"}));
  EXPECT_EQ(v["lastTrick"]["by"], json({0, 1, 2, 3}));
  EXPECT_EQ(v["lastTrick"]["winner"], 3);
  EXPECT_EQ(v["stacks"][3], json({"5H"}));
  EXPECT_EQ(v["stackPoints"][3], 1);
  EXPECT_EQ(v["forcedOpen"], false);
  EXPECT_EQ(to_act(m), json({3}));
  const auto legal = m.state().legal_actions(3);
  EXPECT_EQ(legal.size(), 2u * 8u) << "both face up and face down for each of 8 cards";
}

TEST(TrickyTribes, Example4_LeaderWinsAndMustOpen) {
  Match m = start(4, {{"AS", "4D"}, {"QC"}, {"5H"}, {"KH"}});
  skip_exchange(m);
  trick(m, 0, "AS", false, {"QC", "5H", "KH"});
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 0);
  EXPECT_EQ(v["stacks"][0], json({"KH"}));
  EXPECT_EQ(v["stackPoints"][0], 2);
  EXPECT_NE(std::find(v["discards"].begin(), v["discards"].end(), "5H"), v["discards"].end());
  EXPECT_EQ(v["forcedOpen"], true);
  EXPECT_EQ(to_act(m), json({0}));
  const auto legal = m.state().legal_actions(0);
  EXPECT_EQ(legal.size(), 8u) << "face up only";
  for (const Action& a : legal) EXPECT_EQ(a.arg(1), 1);
  EXPECT_EQ(refusal(m, 0, lead("4D", false)), "must_lead_open");
  play(m, 0, lead("4D", true));
  EXPECT_EQ(view(m, 2)["currentTrick"]["cards"][0], "4D");
}

// TT-7: of equal blacks the earlier is lower, so it loses.
TEST(TrickyTribes, EarlierEqualBlackLoses) {
  Match m = start(4, {{"7C"}, {"5S"}, {"5C"}, {"9S"}});
  skip_exchange(m);
  trick(m, 0, "7C", true, {"5S", "5C", "9S"});
  EXPECT_EQ(view(m)["lastTrick"]["loser"], 1);
  EXPECT_EQ(view(m)["stacks"][1], json({"7C"}));
}

// TT-7: of equal reds the later is higher.
TEST(TrickyTribes, LaterEqualRedWins) {
  Match m = start(3, {{"4D"}, {"9H"}, {"9D"}});
  skip_exchange(m);
  trick(m, 0, "4D", true, {"9H", "9D"});
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 2);
  EXPECT_EQ(view(m)["stacks"][2], json({"4D"}));
}

// TT-8: an all-black dark trick collects nothing and punishes nobody.
TEST(TrickyTribes, DarkAllBlack) {
  Match m = start(4, {{"2C"}, {"5S"}, {"8C"}, {"KS"}});
  skip_exchange(m);
  trick(m, 0, "2C", false, {"5S", "8C", "KS"});
  json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 3);
  for (int s = 0; s < 4; ++s) EXPECT_TRUE(v["stacks"][s].empty());
  EXPECT_EQ(v["discards"].size(), 4u);
  EXPECT_EQ(to_act(m), json({3}));
  EXPECT_EQ(v["forcedOpen"], false);
}

TEST(TrickyTribes, DarkAllBlackWonByLeader) {
  Match m = start(4, {{"AC"}, {"5S"}, {"8C"}, {"KS"}});
  skip_exchange(m);
  trick(m, 0, "AC", false, {"5S", "8C", "KS"});
  json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 0);
  for (int s = 0; s < 4; ++s) EXPECT_TRUE(v["stacks"][s].empty());
  EXPECT_EQ(to_act(m), json({0}));
  EXPECT_EQ(v["forcedOpen"], true);
}

// TT-7: in an open black trick any black beats any red.
TEST(TrickyTribes, BlackTwoBeatsRed) {
  Match m = start(3, {{"5C"}, {"4H"}, {"2S"}});
  skip_exchange(m);
  trick(m, 0, "5C", true, {"4H", "2S"});
  const json v = view(m);
  EXPECT_EQ(v["lastTrick"]["winner"], 2);
  EXPECT_EQ(v["stacks"][2], json({"4H"}));
  EXPECT_EQ(v["stackPoints"][2], 1);
  EXPECT_NE(std::find(v["discards"].begin(), v["discards"].end(), "5C"), v["discards"].end());
}

// TT-10: jokers, every row of the table.
const json kJokers = {{"jokers", 2}};

TEST(TrickyTribes, JokerInOpenRedIsRedTen) {
  Match m = start(3, {{"5H"}, {"X1"}, {"9H"}}, kJokers);
  skip_exchange(m);
  trick(m, 0, "5H", true, {"X1", "9H"});
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 1);
  EXPECT_EQ(view(m)["stacks"][1], json({"5H"}));
}

TEST(TrickyTribes, JokerInOpenBlackIsBlack) {
  Match m = start(3, {{"5S"}, {"3C"}, {"X1"}}, kJokers);
  skip_exchange(m);
  trick(m, 0, "5S", true, {"3C", "X1"});
  EXPECT_EQ(view(m)["lastTrick"]["loser"], 1) << "no real red: a penalty trick";
  EXPECT_EQ(view(m)["stacks"][1], json({"5S"}));
}

TEST(TrickyTribes, JokerIsLootAndTopsTheLimit) {
  Match m = start(4, {{"5S"}, {"4H"}, {"X1"}, {"JC"}}, kJokers);
  skip_exchange(m);
  trick(m, 0, "5S", true, {"4H", "X1", "JC"});
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 3);
  EXPECT_EQ(view(m)["stacks"][3], json({"X1"}));
  EXPECT_EQ(view(m)["stackPoints"][3], 1);
}

TEST(TrickyTribes, JokerWinsDarkTrickAndKeepsOwn) {
  Match m = start(3, {{"9S"}, {"X1"}, {"8H"}}, kJokers);
  skip_exchange(m);
  trick(m, 0, "9S", false, {"X1", "8H"});
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 1);
  EXPECT_EQ(view(m)["stacks"][1], json({"8H"}));
}

TEST(TrickyTribes, OpenJokerTrickHasNoColour) {
  Match m = start(3, {{"X1"}, {"7S"}, {"6H"}}, kJokers);
  skip_exchange(m);
  trick(m, 0, "X1", true, {"7S", "6H"});
  EXPECT_EQ(view(m)["lastTrick"]["kind"], "open-joker");
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 1);
  EXPECT_EQ(view(m)["stacks"][1], json({"X1"}));
  EXPECT_EQ(view(m)["stackPoints"][1], 1);
}

// TT-11: scoring and the text's cancelling-out example.
TEST(TrickyTribes, Scoring) {
  EXPECT_EQ(total_points({"JH", "8S", "6C"}), 0) << "a J cancels 8 and 6";
  EXPECT_EQ(total_points({"AH", "2H", "KS"}), 1);
  EXPECT_EQ(total_points({"TD", "QH", "X2", "9C", "AS"}), 1 + 2 + 1 - 1 - 2);
  EXPECT_EQ(card_value(*game().parse_card("X1")), 10);
}

// A whole round, played with the timer's moves: each total is the sum of its stack's points.
TEST(TrickyTribes, RoundScoresStacks) {
  auto created = Match::create(game(), 4, {{"endMode", "fixedRounds"}, {"rounds", 1}}, 99);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  const json v = view(m);
  int collected = 0;
  for (int s = 0; s < 4; ++s) {
    const Cards stack = v["stacks"][s].get<Cards>();
    collected += static_cast<int>(stack.size());
    EXPECT_EQ(v["totals"][s], total_points(stack));
    EXPECT_EQ(v["stackPoints"][s], total_points(stack));
    EXPECT_EQ(m.state().result().scores[s], total_points(stack));
  }
  EXPECT_GT(collected, 0);
}

// The dealer moves one seat left each round (TT-1).
TEST(TrickyTribes, DealerRotates) {
  auto created = Match::create(game(), 4, {{"endMode", "fixedRounds"}, {"rounds", 3}}, 99);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  EXPECT_EQ(view(m)["dealer"], 3);
  while (view(m)["round"] == 1) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  EXPECT_EQ(view(m)["dealer"], 0);
  EXPECT_EQ(view(m)["order"], json({1, 2, 3, 0}));
}

// TT-3: six players with 52 cards: seats 0-3 get 9 and trim; with two jokers, everyone
// exchanges.
TEST(TrickyTribes, SixPlayersTrim) {
  auto created = Match::create(game(), 6, json::object(), 5);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  json v = view(m);
  EXPECT_EQ(v["phase"], "trim");
  EXPECT_EQ(v["handCounts"], json({9, 9, 9, 9, 8, 8}));
  EXPECT_EQ(v["deck"], 0);
  EXPECT_EQ(to_act(m), json({0, 1, 2, 3}));
  EXPECT_EQ(refusal(m, 0, kDrawMove), "illegal_action") << "no exchange";
  EXPECT_EQ(m.state().legal_actions(4).size(), 0u);
  for (Seat s = 0; s < 4; ++s) {
    play(m, s, trim(view(m, s)["hand"][0].get<std::string>()));
  }
  v = view(m);
  EXPECT_EQ(v["handCounts"], json({8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(v["hiddenDiscards"], 4);
  EXPECT_EQ(v["phase"], "lead");
  EXPECT_EQ(v["tricksPerRound"], 8);
}

TEST(TrickyTribes, SixPlayersOneJoker) {
  auto created = Match::create(game(), 6, {{"jokers", 1}}, 5);
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(view(*created)["handCounts"], json({9, 9, 9, 9, 9, 8}));
}

TEST(TrickyTribes, SixPlayersTwoJokersExchange) {
  auto created = Match::create(game(), 6, kJokers, 5);
  ASSERT_TRUE(created.ok());
  const json v = view(*created);
  EXPECT_EQ(v["phase"], "exchange");
  EXPECT_EQ(v["handCounts"], json({8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(v["deck"], 0) << "48 dealt and 6 reserved";
  EXPECT_EQ(to_act(*created), json({0, 1, 2, 3, 4, 5}));
}

// TT-6: two players and the dummy; the dummy sits on the dealer's left and leads dark.
TEST(TrickyTribes, DummyOrderAndDarkLead) {
  Match m = start(2, {{"2C"}, {"3C"}}, json::object(), {}, {"9S"});
  json v = view(m);
  EXPECT_EQ(v["dummy"], true);
  EXPECT_EQ(v["dealer"], 1);
  EXPECT_EQ(v["order"], json({"dummy", 0, 1}));
  skip_exchange(m);
  v = view(m, 0);
  EXPECT_EQ(v["currentTrick"]["open"], false) << "the dummy's first lead is dark";
  EXPECT_EQ(v["currentTrick"]["by"], json({"dummy"}));
  EXPECT_EQ(v["currentTrick"]["cards"], json({nullptr}));
  EXPECT_EQ(to_act(m), json({0}));
  EXPECT_EQ(v["deck"], 52 - 18 - 2 - 1);
  while (view(m)["round"] == 1) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  v = view(m);
  EXPECT_EQ(v["dealer"], 0);
  EXPECT_EQ(v["order"], json({"dummy", 1, 0}));
}

// TT-6 with three players and the dummy: the dummy sits on the dealer's left every round.
TEST(TrickyTribes, DummyOrderWithThreePlayers) {
  auto created = Match::create(game(), 3, {{"dummy", "yes"}, {"cutDeck", true}}, 2);
  ASSERT_TRUE(created.ok()) << created.error().message;
  Match m = std::move(*created);
  json v = view(m);
  EXPECT_EQ(v["dealer"], 2);
  EXPECT_EQ(v["order"], json({"dummy", 0, 1, 2}));
  skip_exchange(m);
  EXPECT_EQ(view(m)["currentTrick"]["by"], json({"dummy"}));
  EXPECT_EQ(to_act(m), json({0}));
  for (int round = 2; round <= 3; ++round) {
    while (view(m)["round"] < round) {
      const Seat s = m.state().to_act().first();
      Events ev;
      ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
    }
    v = view(m);
    const int dealer = v["dealer"];
    EXPECT_EQ(dealer, round - 2);
    EXPECT_EQ(v["order"], json({"dummy", (dealer + 1) % 3, (dealer + 2) % 3, dealer}));
  }
}

// TT-6 and C9: the dummy collects cards, but only the seats are scored, placed and ranked.
TEST(TrickyTribes, DummyIsLeftOutOfTheResult) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto created = Match::create(game(), 2, {{"endMode", "fixedRounds"}, {"rounds", 2}}, seed);
    ASSERT_TRUE(created.ok());
    Match m = std::move(*created);
    int dummy_points = 0;
    while (!m.state().over()) {
      const Seat s = m.state().to_act().first();
      Events ev;
      ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
      for (const Event& e : ev.list()) {
        if (e.body["type"] != "round-end") continue;
        EXPECT_EQ(e.body["points"].size(), 2u) << "one score per seat, none for the dummy";
      }
      const json v = view(m);
      int p = 0;
      for (const json& c : v["dummyStack"]) {
        p += card_points(*game().parse_card(c.get<std::string>()));
      }
      dummy_points += p != 0;
    }
    const Result r = m.state().result();
    EXPECT_EQ(r.places.size(), 2u);
    EXPECT_EQ(r.scores.size(), 2u);
    for (Seat w : r.winners) EXPECT_LT(w, 2);
    for (Seat l : r.losers) EXPECT_LT(l, 2);
    EXPECT_EQ(view(m)["totals"].size(), 2u);
    EXPECT_GT(dummy_points, 0) << "the dummy did collect scoring cards";
  }
}

// TT-5 and C7: a face-down lead or answer is announced to everyone without its card; only the
// player who played it is told the card.
TEST(TrickyTribes, FaceDownPlaysAreAnnouncedWithoutTheirCard) {
  Match m = start(3, {{"KH"}, {"QS"}, {"9S"}});
  skip_exchange(m);
  auto check = [&](Seat seat, const json& move, const std::string& code, const char* type) {
    auto a = game().action_from_json(move);
    ASSERT_TRUE(a.ok());
    Events ev;
    ASSERT_FALSE(m.apply(seat, *a, ev));
    int public_plays = 0;
    int told = 0;
    for (const Event& e : ev.list()) {
      if (e.to.everyone) {
        if (e.body["type"] == "trick") continue;  // the reveal shows every card, as it should
        EXPECT_FALSE(e.body.contains("card")) << e.body.dump();
        EXPECT_EQ(e.body.dump().find(code), std::string::npos) << e.body.dump();
        EXPECT_EQ(e.body["text"].get<std::string>().find(standard::words(*game().parse_card(code))),
                  std::string::npos);
        if (e.body["type"] == type) {
          ++public_plays;
          EXPECT_EQ(e.body["faceUp"], false);
        }
      } else {
        ++told;
        EXPECT_EQ(e.to.seats, SeatSet::of(seat));
        EXPECT_EQ(e.body["card"], code);
      }
    }
    EXPECT_EQ(public_plays, 1);
    EXPECT_EQ(told, 1);
  };
  check(0, lead("KH", false), "KH", "lead");
  check(1, respond("QS"), "QS", "respond");
  check(2, respond("9S"), "9S", "respond");
}

// TT-9: a leader who wins their own dark trick in the round's last trick is not forced to open
// the next round: the new round's first leader may lead face down.
TEST(TrickyTribes, ForcedOpenEndsWithTheRound) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 200 && found < 3; ++seed) {
    auto created = Match::create(game(), 3, json::object(), seed);
    ASSERT_TRUE(created.ok());
    Match m = std::move(*created);
    Rng rng(seed);
    while (view(m)["round"] == 1 && !m.state().over()) {
      const Seat s = m.state().to_act().first();
      const json before = view(m, s);
      const auto legal = m.state().legal_actions(s);
      Events ev;
      ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], ev));
      bool last_won_by_leader = false;
      for (const Event& e : ev.list()) {
        if (e.body["type"] == "forced-open") {
          EXPECT_LT(before["trick"], 9) << "no forced open after the last trick";
        }
        // In a dark trick the winner collects and leads next.
        if (e.body["type"] == "trick" && before["trick"] == 9 && e.body["kind"] == "dark" &&
            e.body["plays"][0]["by"] == e.body["collector"]) {
          last_won_by_leader = true;
        }
      }
      if (!last_won_by_leader) continue;
      ++found;
      skip_exchange(m);
      const json v = view(m);
      EXPECT_EQ(v["round"], 2);
      EXPECT_EQ(v["forcedOpen"], false);
      const Seat leader = v["leader"];
      bool dark_lead = false;
      for (const Action& a : m.state().legal_actions(leader)) {
        dark_lead |= a.kind == kLead && a.arg(1) == 0;
      }
      EXPECT_TRUE(dark_lead) << "the new round's first lead may be dark";
    }
  }
  EXPECT_GT(found, 0) << "random rounds do end with a leader winning its own dark trick";
}

// TT-6/TT-9: the dummy wins its own dark trick and turns its next card face up.
TEST(TrickyTribes, DummyForcedOpenPlaysFaceUp) {
  Match m = start(2, {{"2C"}, {"3C"}}, json::object(), {}, {"AS", "7D"});
  skip_exchange(m);
  play(m, 0, respond("2C"));
  play(m, 1, respond("3C"));
  json v = view(m, 0);
  EXPECT_EQ(v["lastTrick"]["winner"], "dummy");
  EXPECT_EQ(v["currentTrick"]["open"], true);
  EXPECT_EQ(v["currentTrick"]["cards"], json({"7D"}));
  EXPECT_EQ(to_act(m), json({0}));
}

// TT-8: "You can never collect your own hand cards": a red winner keeps no red of its own.
TEST(TrickyTribes, DarkWinnerNeverCollectsOwnRed) {
  Match m = start(3, {{"3H"}, {"KD"}, {"9H"}});
  skip_exchange(m);
  trick(m, 0, "3H", false, {"KD", "9H"});
  EXPECT_EQ(view(m)["lastTrick"]["winner"], 1);
  EXPECT_EQ(view(m)["stacks"][1], json({"9H"})) << "the highest red that is not its own";
}

// TT-2: the exchange gives each player their own reserved card, whatever the order.
TEST(TrickyTribes, ExchangeDrawsReservedCard) {
  Match m = start(3, {{"2C"}, {"2D"}, {"2S"}}, json::object(), {"AH", "AD", "AS"});
  EXPECT_EQ(view(m)["phase"], "exchange");
  play(m, 2, kDrawMove);
  play(m, 0, discard("2C"));
  play(m, 0, kDrawMove);
  play(m, 2, discard("2S"));
  play(m, 1, kSkip);
  const json v0 = view(m, 0);
  EXPECT_NE(std::find(v0["hand"].begin(), v0["hand"].end(), "AH"), v0["hand"].end());
  EXPECT_EQ(std::find(v0["hand"].begin(), v0["hand"].end(), "2C"), v0["hand"].end());
  const json v2 = view(m, 2);
  EXPECT_NE(std::find(v2["hand"].begin(), v2["hand"].end(), "AS"), v2["hand"].end());
  const json v1 = view(m, 1);
  EXPECT_EQ(std::find(v1["hand"].begin(), v1["hand"].end(), "AD"), v1["hand"].end());
  EXPECT_EQ(v1["hiddenDiscards"], 3) << "two discards and the undrawn reserved card";
  EXPECT_EQ(v1["handCounts"], json({9, 9, 9}));
  EXPECT_EQ(v1["phase"], "lead");
  EXPECT_EQ(v1.dump().find("2C"), std::string::npos) << "exchange discards stay hidden";
}

TEST(TrickyTribes, ExchangeStepsAndRefusals) {
  Match m = start(3, {{"2C"}, {"2D"}, {"2S"}}, json::object(), {"AH", "AD", "AS"});
  EXPECT_EQ(m.state().legal_actions(0).size(), 1u + 9u + 1u) << "draw, 9 discards, skip";
  play(m, 0, kDrawMove);
  EXPECT_EQ(m.state().legal_actions(0).size(), 10u) << "discard any of 10 cards";
  EXPECT_EQ(refusal(m, 0, kDrawMove), "illegal_action");
  EXPECT_EQ(refusal(m, 0, kSkip), "illegal_action");
  EXPECT_EQ(refusal(m, 0, discard("AD")), "not_in_hand");
  EXPECT_EQ(refusal(m, 0, lead("2C", true)), "illegal_action");
  play(m, 0, discard("AH"));
  EXPECT_EQ(refusal(m, 0, kSkip), "not_your_turn");
  EXPECT_EQ(view(m)["exchange"], json({"exchanged", "deciding", "deciding"}));
}

// TT-2 and TT-17: the exchange window's timeout finishes half-done exchanges.
TEST(TrickyTribes, ExchangeTimeout) {
  Match m = start(3, {{"2C"}, {"2D"}, {"2S"}}, json::object(), {"AH", "AD", "AS"});
  play(m, 0, kDrawMove);
  play(m, 1, discard("2D"));
  const auto w = m.state().window();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->name, "exchange");
  Events ev;
  ASSERT_FALSE(m.apply(kSystem, Action::timeout(w->id), ev).has_value());
  const json v0 = view(m, 0);
  EXPECT_EQ(std::find(v0["hand"].begin(), v0["hand"].end(), "AH"), v0["hand"].end())
      << "the drawn card goes back out";
  EXPECT_NE(std::find(v0["hand"].begin(), v0["hand"].end(), "2C"), v0["hand"].end());
  const json v1 = view(m, 1);
  EXPECT_NE(std::find(v1["hand"].begin(), v1["hand"].end(), "AD"), v1["hand"].end())
      << "a discard is followed by the draw";
  EXPECT_EQ(v1["handCounts"], json({9, 9, 9}));
  EXPECT_EQ(v1["phase"], "lead");
  EXPECT_FALSE(m.state().window().has_value());
}

// TT-17: the trim timeout removes the lowest card.
TEST(TrickyTribes, TrimTimeoutDropsLowest) {
  Match m = start(6, {{"2C", "AS"}, {"3D"}, {"4H"}, {"5S"}});
  const auto w = m.state().window();
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->name, "trim");
  play(m, 1, trim("3D"));
  Events ev;
  ASSERT_FALSE(m.apply(kSystem, Action::timeout(w->id), ev).has_value());
  const json v = view(m, 0);
  EXPECT_EQ(v["handCounts"], json({8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(std::find(v["hand"].begin(), v["hand"].end(), "2C"), v["hand"].end());
}

// Private facts go to their seat only.
TEST(TrickyTribes, DrawnCardIsPrivate) {
  Match m = start(3, {{"2C"}}, json::object(), {"AH"});
  auto a = game().action_from_json(kDrawMove);
  Events ev;
  ASSERT_FALSE(m.apply(0, *a, ev).has_value());
  bool told = false;
  for (const Event& e : ev.list()) {
    if (e.body.dump().find("AH") != std::string::npos) {
      EXPECT_FALSE(e.to.everyone);
      EXPECT_TRUE(e.to.includes(0));
      EXPECT_FALSE(e.to.includes(1));
      told = true;
    }
  }
  EXPECT_TRUE(told);
  EXPECT_EQ(view(m, 1).dump().find("AH"), std::string::npos);
}

// TT-14, TT-3, TT-4, TT-6, TT-13: impossible setups are refused with a reason.
TEST(TrickyTribes, ImpossibleOptionsRefused) {
  const Game& g = game();
  struct Row {
    int seats;
    json options;
  };
  for (const Row& r : {Row{2, {{"dummy", "no"}}}, Row{4, {{"dummy", "yes"}}},
                       Row{4, {{"cutDeck", true}}}, Row{5, {{"tenCards", true}}},
                       Row{3, {{"teams", "pairs"}}}, Row{5, {{"teams", "triples"}}}}) {
    SCOPED_TRACE(r.options.dump());
    auto p = g.parse_options(r.options, r.seats);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, "bad_options");
    EXPECT_FALSE(p.error().message.empty());
  }
  EXPECT_TRUE(g.parse_options({{"dummy", "yes"}, {"cutDeck", true}, {"tenCards", true}}, 3).ok())
      << "43 of 44 cards (TT-4)";
  EXPECT_TRUE(g.parse_options({{"teams", "triples"}}, 6).ok());
  EXPECT_TRUE(g.parse_options({{"teams", "pairs"}}, 5).ok());
  auto two = Match::create(g, 2, json::object(), 1);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(view(*two)["dummy"], true) << "the dummy is added with two players";
}

// TT-13: pairs of five: 0+3 and 1+4 share totals; seat 2 plays solo at double score.
TEST(TrickyTribes, UnitedTribesPairsScoring) {
  auto created = Match::create(game(), 5, {{"teams", "pairs"}}, 11);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  EXPECT_EQ(view(m)["sides"], json({0, 1, 2, 0, 1}));
  EXPECT_EQ(view(m)["sideSolo"], json({false, false, true, false, false}));
  while (view(m)["round"] == 1) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  const json v = view(m);
  const json p = v["lastRoundPoints"];
  EXPECT_EQ(v["totals"][0], p[0].get<int>() + p[3].get<int>());
  EXPECT_EQ(v["totals"][1], p[1].get<int>() + p[4].get<int>());
  EXPECT_EQ(v["totals"][2], 2 * p[2].get<int>());
  EXPECT_EQ(v["target"], 30);
}

// TT-13: pairs sit opposite, the first pair at seat 0 and the seat half the table round: four
// players A B A B, six players A B C A B C.
TEST(TrickyTribes, UnitedTribesPairSeatingForFourAndSix) {
  auto four = Match::create(game(), 4, {{"teams", "pairs"}}, 1);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(view(*four)["sides"], json({0, 1, 0, 1}));
  EXPECT_EQ(view(*four)["sideSolo"], json({false, false, false, false}));
  EXPECT_EQ(view(*four)["target"], 30);
  auto six = Match::create(game(), 6, {{"teams", "pairs"}}, 1);
  ASSERT_TRUE(six.ok());
  EXPECT_EQ(view(*six)["sides"], json({0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(view(*six)["sideSolo"], json({false, false, false, false, false, false}));
  EXPECT_EQ(view(*six)["target"], 30);
}

// TT-13: fewer pairs than the table holds, the other seats solo ("any solo players somewhere in
// between"); no teammates side by side, solo scores doubled.
TEST(TrickyTribes, UnitedTribesPairsWithSoloPlayers) {
  struct Row {
    int seats;
    int pairs;
    json sides;
    json solo;
  };
  for (const Row& r : {Row{4, 1, {0, 1, 0, 3}, {false, true, false, true}},
                       Row{5, 1, {0, 1, 2, 0, 4}, {false, true, true, false, true}},
                       Row{6, 2, {0, 1, 2, 0, 1, 5}, {false, false, true, false, false, true}},
                       Row{6, 1, {0, 1, 2, 0, 4, 5}, {false, true, true, false, true, true}}}) {
    SCOPED_TRACE(std::to_string(r.seats) + " players, " + std::to_string(r.pairs) + " pairs");
    auto created = Match::create(game(), r.seats, {{"teams", "pairs"}, {"pairs", r.pairs}}, 4);
    ASSERT_TRUE(created.ok()) << created.error().message;
    Match m = std::move(*created);
    const json v = view(m);
    EXPECT_EQ(v["sides"], r.sides);
    EXPECT_EQ(v["sideSolo"], r.solo);
    EXPECT_EQ(v["target"], 30);
    for (Seat s = 0; s < r.seats; ++s) {
      EXPECT_NE(v["sides"][s], v["sides"][(s + 1) % r.seats]) << "teammates side by side";
    }
    while (view(m)["round"] == 1) {
      const Seat s = m.state().to_act().first();
      Events ev;
      ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
    }
    const json after = view(m);
    const json p = after["lastRoundPoints"];
    for (Seat s = 0; s < r.seats; ++s) {
      int expected = 0;
      for (Seat t = 0; t < r.seats; ++t) {
        if (r.sides[t] == s) expected += p[t].get<int>() * (r.solo[t].get<bool>() ? 2 : 1);
      }
      EXPECT_EQ(after["totals"][s], expected) << "side " << s;
    }
  }
  const Game& g = game();
  EXPECT_EQ(g.parse_options({{"teams", "pairs"}, {"pairs", 3}}, 5).error().code, "bad_options");
  EXPECT_EQ(g.parse_options({{"teams", "pairs"}, {"pairs", 3}}, 4).error().code, "bad_options");
  EXPECT_EQ(g.parse_options({{"pairs", 1}}, 4).error().code, "bad_options")
      << "pairs needs teams: pairs";
  EXPECT_EQ(g.parse_options({{"teams", "triples"}, {"pairs", 2}}, 6).error().code, "bad_options");
  EXPECT_TRUE(g.parse_options({{"teams", "pairs"}, {"pairs", 3}}, 6).ok());
}

TEST(TrickyTribes, UnitedTribesTriples) {
  auto created = Match::create(game(), 6, {{"teams", "triples"}}, 11);
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(view(*created)["sides"], json({0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(view(*created)["target"], 50);
}

// TT-12: fixed rounds end after N rounds; manual ends when most vote to stop.
TEST(TrickyTribes, FixedRoundsEnd) {
  auto created = Match::create(game(), 3, {{"endMode", "fixedRounds"}, {"rounds", 2}}, 3);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  int actions = 0;
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
    ++actions;
  }
  EXPECT_EQ(view(m)["round"], 2);
  const Result r = m.state().result();
  const int best = *std::max_element(r.scores.begin(), r.scores.end());
  for (Seat w : r.winners) EXPECT_EQ(r.scores[w], best);
  EXPECT_LE(actions, game().info().max_actions);
}

TEST(TrickyTribes, ManualEndByVote) {
  auto created = Match::create(game(), 3, {{"endMode", "manual"}}, 3);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  while (view(m)["phase"] != "vote") {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  play(m, 0, {{"move", "end-game"}});
  play(m, 1, {{"move", "next-round"}});
  EXPECT_EQ(view(m, 0)["yourVote"], "end-game");
  EXPECT_EQ(view(m, 1)["yourVote"], "next-round");
  EXPECT_FALSE(view(m, 2).contains("yourVote"));
  EXPECT_FALSE(view(m).contains("yourVote"));
  EXPECT_EQ(view(m)["voted"], json({true, true, false}));
  play(m, 2, {{"move", "end-game"}});
  EXPECT_TRUE(m.state().over());
  EXPECT_EQ(view(m)["round"], 1);
}

// TT-12: in target mode every tribe at or above the target wins, checked after whole rounds.
TEST(TrickyTribes, TargetEndsTheGame) {
  auto created = Match::create(game(), 4, {{"target", 1}}, 8);
  ASSERT_TRUE(created.ok());
  Match m = std::move(*created);
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    Events ev;
    ASSERT_FALSE(m.apply(s, m.state().fallback_action(s), ev).has_value());
  }
  const Result r = m.state().result();
  const json v = view(m);
  for (Seat s = 0; s < 4; ++s) {
    const bool won = std::find(r.winners.begin(), r.winners.end(), s) != r.winners.end();
    EXPECT_EQ(won, v["totals"][s].get<int>() >= 1);
  }
  EXPECT_EQ(v["phase"], "over");
  EXPECT_EQ(v["trick"], 9) << "the game ends only after a complete round";
}

// TT-11 and C7: stacks and totals are public; hands and face-down trick cards are not.
TEST(TrickyTribes, ViewsShowOnlyWhatASeatMaySee) {
  Match m = start(3, {{"2C"}, {"QS"}, {"9S", "KH"}});
  skip_exchange(m);
  trick(m, 0, "2C", true, {"QS", "9S"});
  play(m, 2, lead("KH", false));
  const json spectator = view(m);
  EXPECT_FALSE(spectator.contains("hand"));
  EXPECT_EQ(spectator["stacks"][2], json({"2C"})) << "the penalty is public";
  EXPECT_EQ(spectator["stackPoints"][2], -1);
  EXPECT_EQ(spectator["totals"], json({0, 0, 0})) << "no round is scored yet";
  EXPECT_EQ(spectator["currentTrick"]["cards"], json({nullptr}));
  EXPECT_EQ(view(m, 2)["currentTrick"]["cards"], json({"KH"}));
  EXPECT_EQ(view(m, 0)["currentTrick"]["cards"], json({nullptr}));
  EXPECT_EQ(view(m, 0)["handCounts"], json({8, 8, 7}));
  EXPECT_EQ(view(m, 1).dump().find("KH"), std::string::npos);
  EXPECT_EQ(to_act(m), json({0}));
}

}  // namespace
}  // namespace campfire::tricky_tribes
