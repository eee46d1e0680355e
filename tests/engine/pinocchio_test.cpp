// Pinocchio: the rules of docs/rules/pinocchio.md (PI-1..PI-14), named after the rule text's
// examples.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/match.hpp"
#include "engine/pinocchio/pinocchio.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire::pinocchio {
namespace {

using campfire::testing::play;
using campfire::testing::refusal;

const json kChallengeMove = {{"move", "challenge"}};
const json kBelieveMove = {{"move", "believe"}};

json say(const std::string& colour, const std::string& clothing) {
  return {{"move", "announce"}, {"colour", colour}, {"clothing", clothing}};
}

// A full 45-card deck whose first cards are `top` (in the order they will be played), the rest
// in a fixed order.
json deck_starting_with(const std::vector<std::string>& top) {
  const Game& g = game();
  std::vector<Card> rest = g.deck(Options(), 3);
  json codes = json::array();
  for (const auto& code : top) {
    const Card c = *g.parse_card(code);
    const auto it = std::find(rest.begin(), rest.end(), c);
    EXPECT_NE(it, rest.end()) << "the deck has only three " << code;
    if (it == rest.end()) continue;
    rest.erase(it);
    codes.push_back(code);
  }
  for (Card c : rest) codes.push_back(g.card_code(c));
  return codes;
}

Match start(int seats, const std::vector<std::string>& top, json options = json::object()) {
  auto m = Match::create(game(), seats, options, 1, deck_starting_with(top));
  EXPECT_TRUE(m.ok()) << m.error().message;
  return std::move(*m);
}

json view(const Match& m, Seat s) { return m.state().view(s); }

// PI-6, the rule text's Example 1: Bella lies about Red Trousers and is caught.
TEST(Pinocchio, Example1_LieCaught) {
  Match m = start(3, {"red-bow-tie", "blue-trousers", "yellow-hat"});
  play(m, 0, say("red", "bow-tie"));  // first card: free
  play(m, 1, kBelieveMove);
  play(m, 1, say("red", "trousers"));  // matches Red Bow Tie in colour
  play(m, 2, kChallengeMove);
  EXPECT_EQ(view(m, 0)["noses"], json({0, 1, 0}));
  const json last = view(m, 0)["lastClaim"];
  EXPECT_EQ(last["mustMatch"], "red-bow-tie");
  EXPECT_EQ(last["challenge"], json({{"by", 2}, {"revealed", "blue-trousers"}, {"truthful", false}}));
  // Claudio now announces freely (the claim on top was challenged); his card cannot be challenged.
  EXPECT_EQ(view(m, 2)["phase"], "play");
  EXPECT_EQ(m.state().legal_actions(2).size(), 15u);
  play(m, 2, say("blue", "shoes"));
  EXPECT_EQ(view(m, 0)["pileSize"], 3);
  EXPECT_EQ(view(m, 0)["lastClaim"], json({{"by", 2},
                                           {"challengeable", false},
                                           {"claim", "blue-shoes"},
                                           {"free", true}}));
  EXPECT_EQ(view(m, 0)["phase"], "play") << "Andrea has no challenge step";
  EXPECT_EQ(refusal(m, 0, kChallengeMove), "illegal_action");
}

// PI-8, Example 2 corrected: Bella's card really is Yellow Shoes, Claudio pays.
TEST(Pinocchio, Example2_TruthChallenged) {
  Match m = start(3, {"red-shoes", "yellow-shoes", "red-bow-tie"});
  play(m, 0, say("red", "shoes"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("yellow", "shoes"));
  play(m, 2, kChallengeMove);
  EXPECT_EQ(view(m, 1)["noses"], json({0, 0, 1}));
  EXPECT_EQ(view(m, 1)["lastClaim"]["challenge"]["truthful"], true);
  EXPECT_EQ(view(m, 1)["lastClaim"]["challenge"]["by"], 2);
}

// PI-7, the Note: after the challenge Claudio says Red Bow Tie, which matches nothing; Andrea
// gets no challenge step and must match Red Bow Tie.
TEST(Pinocchio, Note_FreeUnchallengeableAfterChallenge) {
  Match m = start(3, {"red-shoes", "yellow-shoes", "red-bow-tie", "blue-hat"});
  play(m, 0, say("red", "shoes"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("yellow", "shoes"));
  play(m, 2, kChallengeMove);
  play(m, 2, say("red", "bow-tie"));
  EXPECT_EQ(refusal(m, 0, kChallengeMove), "illegal_action");
  EXPECT_EQ(refusal(m, 0, kBelieveMove), "illegal_action");
  EXPECT_EQ(view(m, 0)["lastClaim"]["claim"], "red-bow-tie");
  EXPECT_FALSE(view(m, 0)["lastClaim"].contains("challenge")) << "so it must be matched";
  EXPECT_EQ(refusal(m, 0, say("yellow", "shoes")), "must_match");
  play(m, 0, say("red", "hat"));
  // Andrea's card can be challenged again by Bella.
  EXPECT_EQ(view(m, 1)["phase"], "challenge");
}

TEST(Pinocchio, Note_BlueBowTieAlsoMatches) {
  Match m = start(3, {"red-shoes", "yellow-shoes", "red-bow-tie", "blue-hat"});
  play(m, 0, say("red", "shoes"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("yellow", "shoes"));
  play(m, 2, kChallengeMove);
  play(m, 2, say("red", "bow-tie"));
  play(m, 0, say("blue", "bow-tie"));
}

// PI-5: what may follow Blue Shoes.
TEST(Pinocchio, AnnouncementMatching) {
  struct Row {
    const char* colour;
    const char* clothing;
    bool accepted;
  };
  for (const Row& row : {Row{"yellow", "shoes", true}, Row{"blue", "hat", true},
                         Row{"blue", "shoes", true}, Row{"red", "hat", false}}) {
    SCOPED_TRACE(std::string(row.colour) + " " + row.clothing);
    Match m = start(3, {"blue-shoes"});
    play(m, 0, say("blue", "shoes"));
    play(m, 1, kBelieveMove);
    EXPECT_EQ(refusal(m, 1, say(row.colour, row.clothing)), row.accepted ? "" : "must_match");
  }
  Match m = start(3, {"blue-shoes"});
  play(m, 0, say("blue", "shoes"));
  play(m, 1, kBelieveMove);
  EXPECT_EQ(m.state().legal_actions(1).size(), 7u) << "3 colours of shoes + 5 blue items - 1";
}

// PI-7 and PI-4: the starting player has no challenge step; the second may challenge card 1,
// and decides before seeing their own card.
TEST(Pinocchio, StartingPlayerHasNoChallengeStep) {
  Match m = start(3, {"red-hat", "yellow-hat"});
  EXPECT_EQ(view(m, 0)["phase"], "play");
  EXPECT_EQ(refusal(m, 0, kChallengeMove), "illegal_action");
  play(m, 0, say("red", "hat"));
  EXPECT_EQ(view(m, 1)["phase"], "challenge");
  EXPECT_FALSE(view(m, 1).contains("yourCard")) << "seen before deciding (PI-4)";
  play(m, 1, kChallengeMove);
  EXPECT_EQ(view(m, 1)["noses"], json({0, 1, 0})) << "Andrea told the truth";
  EXPECT_EQ(view(m, 1)["yourCard"], "yellow-hat");
  EXPECT_FALSE(view(m, 0).contains("yourCard"));
}

// The seat to act is told its card privately, and only it.
TEST(Pinocchio, TopCardIsPrivateEvent) {
  Match m = start(3, {"red-hat", "yellow-hat"});
  auto a = game().action_from_json(say("red", "hat"));
  Events ev;
  ASSERT_FALSE(m.apply(0, *a, ev));
  a = game().action_from_json(kBelieveMove);
  ev.clear();
  ASSERT_FALSE(m.apply(1, *a, ev));
  bool told = false;
  for (const Event& e : ev.list()) {
    if (e.body["type"] == "drew") {
      told = true;
      EXPECT_FALSE(e.to.everyone);
      EXPECT_EQ(e.to.seats, SeatSet::of(1));
      EXPECT_EQ(e.body["card"], "yellow-hat");
    } else {
      EXPECT_EQ(e.body.dump().find("yellow-hat"), std::string::npos) << e.body.dump();
    }
  }
  EXPECT_TRUE(told);
}

// Plays a whole game where nobody challenges, returning the match before the final decision.
Match play_out_believing(int seats) {
  auto m = Match::create(game(), seats, json::object(), 77);
  EXPECT_TRUE(m.ok());
  while (!m->state().over()) {
    const Seat s = m->state().to_act().first();
    const json v = m->state().view(s);
    if (v["phase"] == "final-challenge") break;
    const auto legal = m->state().legal_actions(s);
    const Action a = v["phase"] == "challenge" ? Action::make(kBelieve) : legal.front();
    Events ev;
    EXPECT_FALSE(m->apply(s, a, ev).has_value());
  }
  return std::move(*m);
}

// PI-10: 3 players, 15 cards each; seat 2 plays card 45, seat 0 gets the final challenge.
TEST(Pinocchio, FinalChallengeAfterLastCard) {
  Match m = play_out_believing(3);
  const json v = view(m, 0);
  EXPECT_EQ(v["phase"], "final-challenge");
  EXPECT_EQ(v["current"], 0);
  EXPECT_EQ(v["pileSize"], 45);
  EXPECT_EQ(v["lastClaim"]["by"], 2);
  EXPECT_EQ(v["stacks"], json({0, 0, 0}));
  play(m, 0, kChallengeMove);
  EXPECT_TRUE(m.state().over());
}

TEST(Pinocchio, FinalBelieveEndsTheGame) {
  Match m = play_out_believing(4);
  play(m, 0, kBelieveMove);
  EXPECT_TRUE(m.state().over());
  EXPECT_EQ(m.state().result().winners.size(), 4u) << "nobody has a nose: all share the win";
  EXPECT_TRUE(m.state().result().losers.empty());
}

// PI-10: when card 45 is the free announcement right after a challenge, there is no final
// challenge: the game ends at once.
TEST(Pinocchio, NoFinalChallengeAfterFreeLastCard) {
  auto m = Match::create(game(), 3, json::object(), 5);
  ASSERT_TRUE(m.ok());
  // Believe everything until seat 2's last turn, then challenge so its card 45 is free.
  while (true) {
    const Seat s = m->state().to_act().first();
    const json v = m->state().view(s);
    const bool last_turn = v["stacks"][2] == 1 && s == 2;
    const auto legal = m->state().legal_actions(s);
    Action a = legal.front();
    if (v["phase"] == "challenge") a = Action::make(last_turn ? kChallenge : kBelieve);
    Events ev;
    ASSERT_FALSE(m->apply(s, a, ev).has_value());
    if (last_turn && v["phase"] == "play") break;
  }
  EXPECT_TRUE(m->state().over());
  EXPECT_EQ(m->state().view(0)["pileSize"], 45);
  EXPECT_EQ(m->state().view(0)["lastClaim"]["challengeable"], false);
}

// PI-3: cards each and cards to the box for every player count.
TEST(Pinocchio, DealingAndLeftovers) {
  const int each[] = {0, 0, 22, 15, 11, 9, 7};
  const int box[] = {0, 0, 1, 0, 1, 0, 3};
  for (int seats = 2; seats <= 6; ++seats) {
    auto m = Match::create(game(), seats, json::object(), 3);
    ASSERT_TRUE(m.ok());
    const json v = m->state().view(kSpectator);
    for (Seat s = 0; s < seats; ++s) EXPECT_EQ(v["stacks"][s], each[seats]) << seats;
    EXPECT_EQ(v["box"], box[seats]) << seats;
  }
  EXPECT_FALSE(Match::create(game(), 1, json::object(), 3).ok());
  EXPECT_FALSE(Match::create(game(), 7, json::object(), 3).ok());
}

// PI-11: fewest noses wins, ties share the win; ranking by noses.
TEST(Pinocchio, ShareTheWinOnTies) {
  // Seat 1 lies twice and seat 3 once, caught each time: noses {0, 2, 0, 1}.
  // Four players, seat 0 starts; the deck is laid so that every claim below is a lie.
  Match m = start(4, {"red-hat", "blue-shoes", "red-hat", "blue-shoes", "red-hat", "blue-shoes"});
  play(m, 0, say("red", "hat"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("red", "shirt"));  // lie: it is Blue Shoes
  play(m, 2, kChallengeMove);           // seat 1: 1 nose
  play(m, 2, say("red", "hat"));    // free, unchallengeable
  play(m, 3, say("red", "shirt"));  // lie: Blue Shoes
  play(m, 0, kChallengeMove);           // seat 3: 1 nose
  play(m, 0, say("red", "hat"));    // free
  play(m, 1, say("red", "shirt"));  // lie again
  play(m, 2, kChallengeMove);           // seat 1: 2 noses
  EXPECT_EQ(view(m, 0)["noses"], json({0, 2, 0, 1}));
  // Believe to the end.
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    const json v = m.state().view(s);
    const auto legal = m.state().legal_actions(s);
    Events ev;
    ASSERT_FALSE(
        m.apply(s, v["phase"] == "play" ? legal.front() : Action::make(kBelieve), ev).has_value());
  }
  const Result r = m.state().result();
  EXPECT_EQ(r.winners, (std::vector<Seat>{0, 2}));
  EXPECT_EQ(r.losers, (std::vector<Seat>{1}));
  EXPECT_EQ(r.places, (std::vector<int>{1, 4, 1, 3}));
  EXPECT_EQ(r.scores, (std::vector<int>{0, 2, 0, 1}));
}

// PI-2: startSeat is the youngest player and must be one of the seats.
TEST(Pinocchio, StartSeatOption) {
  Match m = start(4, {"red-hat"}, {{"startSeat", 2}});
  EXPECT_EQ(view(m, 0)["current"], 2);
  EXPECT_EQ(view(m, 2)["yourCard"], "red-hat") << "the first card dealt goes to the start seat";
  EXPECT_EQ(refusal(m, 0, say("red", "hat")), "not_your_turn");
  auto bad = Match::create(game(), 3, {{"startSeat", 3}}, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_options");
}

// PI-6: a lie that happens to match in one attribute is still a lie.
TEST(Pinocchio, TrueMeansBothTypeAndColour) {
  Match m = start(3, {"red-hat", "red-shoes"});
  play(m, 0, say("red", "hat"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("red", "shirt"));  // the card is Red Shoes: same colour, other type
  play(m, 2, kChallengeMove);
  EXPECT_EQ(view(m, 0)["noses"], json({0, 1, 0}));
}

// PI-13: a seat learns the true card it played once, in a "played" event nobody else gets; no
// view shows it afterwards, not even the player's own, until a challenge turns it over.
TEST(Pinocchio, PlayedCardsAreToldOnceAndPrivately) {
  Match m = start(3, {"red-hat", "blue-shoes"});
  auto a = game().action_from_json(say("yellow", "hat"));
  Events ev;
  ASSERT_FALSE(m.apply(0, *a, ev));
  int told = 0;
  for (const Event& e : ev.list()) {
    if (e.body["type"] == "played") {
      ++told;
      EXPECT_EQ(e.to.seats, SeatSet::of(0)) << "only the player who played it";
      EXPECT_FALSE(e.to.everyone);
      EXPECT_EQ(e.body["card"], "red-hat");
    } else {
      EXPECT_EQ(e.body.dump().find("red-hat"), std::string::npos) << e.body.dump();
    }
  }
  EXPECT_EQ(told, 1);
  for (Seat v : {Seat(0), Seat(1), Seat(2), kSpectator}) {
    EXPECT_FALSE(view(m, v)["lastClaim"].contains("card")) << "viewer " << v;
    EXPECT_EQ(view(m, v).dump().find("red-hat"), std::string::npos) << "viewer " << v;
    EXPECT_EQ(view(m, v)["lastClaim"]["claim"], "yellow-hat");
  }
  play(m, 1, kChallengeMove);
  EXPECT_EQ(view(m, 2)["lastClaim"]["challenge"]["revealed"], "red-hat")
      << "a challenge shows it to all";
}

// What bots read of a seat's memory without JSON names the cards recall() names: the seat's own
// face-down cards on the pile, until a challenge turns one over.
TEST(Pinocchio, RecalledCardIsWhatRecallNames) {
  Match m = start(3, {"red-hat", "blue-shoes"});
  play(m, 0, say("yellow", "hat"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("blue", "hat"));
  const State& s = m.state();
  const json recalled = s.recall(0);
  ASSERT_EQ(recalled["played"].size(), 1u);
  const json& mine = recalled["played"].front();
  EXPECT_EQ(mine["pile"], 0);
  EXPECT_EQ(mine["card"], "red-hat");
  EXPECT_EQ(recalled_card(s, 0, 0), game().parse_card("red-hat"));
  EXPECT_EQ(recalled_card(s, 1, 1), game().parse_card("blue-shoes"));
  EXPECT_FALSE(recalled_card(s, 1, 0).has_value()) << "seat 0 played that card";
  EXPECT_FALSE(recalled_card(s, 0, 1).has_value()) << "seat 1 played that card";
  EXPECT_FALSE(recalled_card(s, 0, 2).has_value()) << "the pile has two cards";
  EXPECT_FALSE(recalled_card(s, kSpectator, 0).has_value());
  play(m, 2, kChallengeMove);
  EXPECT_FALSE(recalled_card(m.state(), 1, 1).has_value()) << "turned over for everyone";
  EXPECT_EQ(recalled_card(m.state(), 0, 0), game().parse_card("red-hat"));
}

// The pile lies face down: the view tells its size and the claim on top, with what that claim had
// to match; the claims under it were told in events and are not repeated.
TEST(Pinocchio, ViewShowsThePileSizeAndTheClaimOnTop) {
  Match m = start(3, {"red-hat", "blue-shoes", "yellow-shirt"});
  EXPECT_EQ(view(m, 0)["pileSize"], 0);
  EXPECT_FALSE(view(m, 0).contains("lastClaim")) << "no claim on an empty pile";
  play(m, 0, say("red", "hat"));
  EXPECT_EQ(view(m, 1)["lastClaim"], json({{"by", 0},
                                           {"challengeable", true},
                                           {"claim", "red-hat"},
                                           {"free", true}}));
  play(m, 1, kBelieveMove);
  play(m, 1, say("red", "shoes"));
  play(m, 2, kBelieveMove);
  play(m, 2, say("yellow", "shoes"));
  for (Seat v : {Seat(0), Seat(1), Seat(2), kSpectator}) {
    const json seen = view(m, v);
    EXPECT_EQ(seen["pileSize"], 3) << "viewer " << v;
    EXPECT_EQ(seen["lastClaim"], json({{"by", 2},
                                       {"challengeable", true},
                                       {"claim", "yellow-shoes"},
                                       {"free", false},
                                       {"mustMatch", "red-shoes"}}))
        << "viewer " << v;
    EXPECT_EQ(seen.dump().find("red-hat"), std::string::npos) << "the first claim is under it";
    EXPECT_FALSE(seen.contains("pile"));
  }
}

// What challenges turned over stays in every seat's memory once the claim is covered: recall()
// lists each revealed card by its place, with whose claim it was and whether it was the truth.
TEST(Pinocchio, RecallKeepsWhatChallengesRevealed) {
  // Seat 1 lies (Blue Shoes as Red Shirt), seat 0 tells the truth (Red Hat).
  Match m = start(3, {"red-hat", "blue-shoes", "yellow-hat", "red-hat"});
  play(m, 0, say("red", "hat"));
  play(m, 1, kBelieveMove);
  play(m, 1, say("red", "shirt"));
  play(m, 2, kChallengeMove);
  play(m, 2, say("yellow", "hat"));  // free, cannot be challenged
  play(m, 0, say("red", "hat"));
  play(m, 1, kChallengeMove);  // the truth: seat 1 pays
  const json lie = {{"pile", 1}, {"by", 1}, {"card", "blue-shoes"}, {"truthful", false}};
  const json truth = {{"pile", 3}, {"by", 0}, {"card", "red-hat"}, {"truthful", true}};
  for (Seat v : {Seat(0), Seat(1), Seat(2), kSpectator}) {
    EXPECT_EQ(m.state().recall(v)["revealed"], json({lie, truth})) << "viewer " << v;
  }
  EXPECT_EQ(m.state().recall(2)["played"],
            json({{{"pile", 2}, {"card", "yellow-hat"}}}))
      << "its own card under the pile, still face down";
  EXPECT_EQ(view(m, 0)["noses"], json({0, 2, 0}));
}

// A view does not grow with the pile: the claims already told are not sent again with every
// move. Over a whole seeded game, no view is much bigger than the first views were.
TEST(Pinocchio, ViewSizeDoesNotGrowWithThePile) {
  auto made = Match::create(game(), 3, json::object(), 11);
  ASSERT_TRUE(made.ok());
  Match m = std::move(*made);
  Rng rng(11);
  std::vector<std::size_t> sizes;  // the public view's bytes after each move
  while (!m.state().over()) {
    const Seat s = m.state().to_act().first();
    const auto legal = m.state().legal_actions(s);
    Events ev;
    ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], ev).has_value());
    std::string text;
    m.state().view_text(kSpectator, text);
    sizes.push_back(text.size());
  }
  ASSERT_GT(sizes.size(), 45u);
  // The top claim may carry a challenge's outcome and what it had to match: about 100 bytes at
  // most. A listed pile grows by about 50 bytes a card (some 1,800 more after 40 moves).
  const auto apart = [](std::size_t a, std::size_t b) { return a > b ? a - b : b - a; };
  EXPECT_LT(apart(sizes[39], sizes[4]), 100u) << "after 40 moves against after 5";
  EXPECT_LT(*std::max_element(sizes.begin(), sizes.end()), sizes[4] + 150) << "at any point";
}

// Malformed announcements are refused with a clear message and change nothing.
TEST(Pinocchio, MalformedActionsAreRefused) {
  Match m = start(3, {"red-hat"});
  EXPECT_EQ(refusal(m, 0, {{"move", "announce"}, {"colour", "green"}, {"clothing", "hat"}}),
            "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "announce"}, {"colour", "red"}}), "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "announce"}, {"colour", 1}, {"clothing", "hat"}}),
            "bad_action");
  EXPECT_EQ(refusal(m, 0, {{"move", "dance"}}), "bad_action");
  EXPECT_EQ(refusal(m, 1, say("red", "hat")), "not_your_turn");
  EXPECT_TRUE(m.log().empty());
}

// PI-14, the turn timer's default: believe, then repeat the previous item.
TEST(Pinocchio, FallbackBelievesAndRepeats) {
  Match m = start(3, {"red-hat", "blue-shoes"});
  play(m, 0, say("yellow", "hat"));
  EXPECT_EQ(m.state().fallback_action(1), Action::make(kBelieve));
  play(m, 1, kBelieveMove);
  EXPECT_EQ(game().action_to_json(m.state().fallback_action(1)), say("yellow", "hat"));
}

}  // namespace
}  // namespace campfire::pinocchio
