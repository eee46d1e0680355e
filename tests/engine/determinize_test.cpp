// Determinization, for every registered game: a determinized copy is a full state that the
// viewer cannot tell from the real one, drawn from the viewer's knowledge and the bot's
// generator alone. Random playouts check it at every step; per-game tests check that what a seat
// was shown and may remember stays where it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire {
namespace {

using testing::observation;
using testing::play;
using testing::random_step;
using testing::scaled;

std::vector<Card> sorted_cards(const State& s) {
  std::vector<Card> c;
  s.cards(c);
  std::sort(c.begin(), c.end());
  return c;
}

std::vector<Card> values(const std::vector<Card*>& slots) {
  std::vector<Card> v;
  for (const Card* c : slots) v.push_back(*c);
  return v;
}

// The cards of `s` that `viewer` cannot see, in the state's own layout order.
std::vector<Card> hidden_values(const State& s, Seat viewer) {
  auto copy = s.clone();
  std::vector<Card*> slots;
  copy->hidden_from(viewer, slots);
  return values(slots);
}

// Per hidden slot (hidden_from order): whether determinization may re-deal it.
std::vector<bool> unknown_mask(const State& s, Seat viewer) {
  auto copy = s.clone();
  std::vector<Card*> hidden;
  std::vector<Card*> unknown;
  copy->hidden_from(viewer, hidden);
  copy->unknown_to(viewer, unknown);
  const std::set<Card*> u(unknown.begin(), unknown.end());
  std::vector<bool> mask;
  for (Card* c : hidden) mask.push_back(u.count(c) > 0);
  return mask;
}

// Every card named anywhere in a recall (strings that are card codes of the game).
void collect_cards(const Game& game, const json& j, std::vector<Card>& out) {
  if (j.is_string()) {
    if (auto c = game.parse_card(j.get<std::string>())) out.push_back(*c);
  } else if (j.is_structured()) {
    for (const auto& x : j) collect_cards(game, x, out);
  }
}

struct Stats {
  long checked = 0;  // (state, viewer) pairs determinized
  long varied = 0;   // ...where two generators gave different copies
};

// Determinizes `s` for `viewer` and checks every promise of State::determinize.
void check_determinization(const Game& game, const State& s, Seat viewer, Rng& rng, Stats& stats) {
  SCOPED_TRACE("viewer " + std::to_string(viewer));
  const std::uint64_t seed = rng.next();
  Rng a(seed);
  const auto det = s.determinize(viewer, a);
  ++stats.checked;
  // The viewer cannot tell the copy from the real state.
  EXPECT_EQ(observation(game, *det, viewer), observation(game, s, viewer));
  EXPECT_EQ(sorted_cards(*det), sorted_cards(s)) << "cards are not conserved";
  // Only unknown slots may change; every one of them is a hidden slot.
  std::vector<Card*> hidden;
  std::vector<Card*> unknown;
  auto probe = s.clone();
  probe->hidden_from(viewer, hidden);
  probe->unknown_to(viewer, unknown);
  const std::set<Card*> hidden_set(hidden.begin(), hidden.end());
  for (Card* c : unknown) EXPECT_TRUE(hidden_set.count(c)) << "an unknown slot is not hidden";
  EXPECT_EQ(std::set<Card*>(unknown.begin(), unknown.end()).size(), unknown.size());
  const std::vector<bool> mask = unknown_mask(s, viewer);
  const std::vector<Card> before = hidden_values(s, viewer);
  const std::vector<Card> after = hidden_values(*det, viewer);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (!mask[i]) {
      EXPECT_EQ(after[i], before[i]) << "a card the viewer knows was moved";
    }
  }
  // Recall names every hidden card the viewer knows, and the copy recalls the same.
  std::vector<Card> remembered;
  collect_cards(game, s.recall(viewer), remembered);
  std::sort(remembered.begin(), remembered.end());
  std::vector<Card> known;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (!mask[i]) known.push_back(before[i]);
  }
  std::sort(known.begin(), known.end());
  EXPECT_TRUE(std::includes(remembered.begin(), remembered.end(), known.begin(), known.end()))
      << "a hidden card the viewer knows is missing from " << s.recall(viewer).dump();
  EXPECT_EQ(det->recall(viewer), s.recall(viewer));
  // The copy does not depend on where the unknown cards really are: re-deal them, determinize
  // with the same generator, get the same copy. Nor does what the viewer recalls.
  auto moved = s.clone();
  std::vector<Card*> slots;
  moved->unknown_to(viewer, slots);
  std::vector<Card> shuffled = values(slots);
  rng.shuffle(shuffled);
  for (std::size_t i = 0; i < slots.size(); ++i) *slots[i] = shuffled[i];
  EXPECT_EQ(moved->recall(viewer), s.recall(viewer));
  Rng b(seed);
  EXPECT_TRUE(moved->determinize(viewer, b)->equals(*det))
      << "the determinization depends on where the unknown cards really are";
  // Another generator deals other cards (counted: most states have something to re-deal).
  Rng c(seed + 1);
  if (hidden_values(*s.determinize(viewer, c), viewer) != after) ++stats.varied;
}

// A determinized copy is a real state: it plays on to its end under the engine's checks.
void play_out(const Game& game, std::unique_ptr<State> s, Rng& rng) {
  const std::vector<Card> deck = sorted_cards(*s);
  for (int step = 0; !s->over(); ++step) {
    ASSERT_LT(step, game.info().max_actions);
    if (!random_step(*s, rng)) return;
  }
  EXPECT_EQ(sorted_cards(*s), deck);
}

struct Case {
  const Game* game;
  int seats;
  json options;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name << " " << c.options.dump();
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const Game* g : Registry::builtin().games()) {
    std::string id = g->info().id;
    std::replace(id.begin(), id.end(), '-', '_');
    for (int seats = g->info().min_seats; seats <= std::min(g->info().max_seats, 4); ++seats) {
      out.push_back({g, seats, json::object(), id + "_" + std::to_string(seats) + "seats"});
    }
  }
  // Options that change what is hidden or how cards come back.
  const Registry& r = Registry::builtin();
  out.push_back({r.find("naked-gibbon"), 3, {{"veterans", true}}, "naked_gibbon_veterans"});
  out.push_back({r.find("naked-gibbon"),
                 4,
                 {{"survival", true}, {"lossesToEndMatch", 2}},
                 "naked_gibbon_survival"});
  out.push_back({r.find("spider-monkey"), 3, {{"cumulative", true}}, "spider_monkey_cumulative"});
  out.push_back({r.find("tricky-tribes"), 6, json::object(), "tricky_tribes_6seats_trim"});
  out.push_back({r.find("fib-fibonacci"), 2, {{"seriesGames", 3}}, "fib_fibonacci_series"});
  return out;
}

class DeterminizeTest : public ::testing::TestWithParam<Case> {};

TEST_P(DeterminizeTest, RandomPlayouts) {
  const Case& c = GetParam();
  const Game& game = *c.game;
  Stats stats;
  const int playouts = scaled(12);
  for (int i = 0; i < playouts; ++i) {
    const std::uint64_t seed = 7919ull * static_cast<std::uint64_t>(i) + 3;
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto m = Match::create(game, c.seats, c.options, seed);
    ASSERT_TRUE(m.ok()) << m.error().message;
    Rng rng(seed ^ 0xD37Eull);
    for (int step = 0; !m->state().over(); ++step) {
      const State& s = m->state();
      // Every few steps, every viewer (the spectator too).
      if (step % 5 == 0) {
        for (Seat v = kSpectator; v < s.seats(); ++v) {
          check_determinization(game, s, v, rng, stats);
          if (::testing::Test::HasFailure()) return;
        }
      }
      if (step % 40 == 0 && i < 3) {
        Rng r(rng.next());
        play_out(game, s.determinize(static_cast<Seat>(rng.below(s.seats())), r), rng);
        if (::testing::Test::HasFailure()) return;
      }
      if (!random_step(*m, rng)) return;
    }
  }
  std::cout << "[ stats    ] " << c.name << ": " << stats.checked << " determinizations, "
            << stats.varied << " differed with another generator\n";
  // Non-vacuity: re-dealing does happen.
  EXPECT_GT(stats.varied * 2, stats.checked);
}

INSTANTIATE_TEST_SUITE_P(AllGames, DeterminizeTest, ::testing::ValuesIn(cases()),
                         [](const auto& p) { return p.param.name; });

// --- What a seat remembers stays where it is --------------------------------------------------

// The card in each hidden slot over many determinizations: which slots ever change.
std::vector<bool> slots_that_move(const State& s, Seat viewer, int draws = 40) {
  const std::vector<Card> real = hidden_values(s, viewer);
  std::vector<bool> moved(real.size(), false);
  Rng rng(99);
  for (int i = 0; i < draws; ++i) {
    const std::vector<Card> d = hidden_values(*s.determinize(viewer, rng), viewer);
    for (std::size_t k = 0; k < real.size(); ++k) moved[k] = moved[k] || d[k] != real[k];
  }
  return moved;
}

Match start(const char* game, int seats, const json& options, std::uint64_t seed) {
  auto m = Match::create(*Registry::builtin().find(game), seats, options, seed);
  EXPECT_TRUE(m.ok());
  return std::move(*m);
}

TEST(DeterminizeSpiderMonkey, PeekedQueenedAndPlacedCardsStay) {
  Match m = start("spider-monkey", 3, json::object(), 5);
  // Hidden slots list the lines first: seat s slot k is entry 4*s + k.
  play(m, 0, {{"move", "peek"}, {"slots", {1, 3}}});
  play(m, 1, {{"move", "peek"}, {"slots", {0, 1}}});
  play(m, 2, {{"move", "peek"}, {"slots", {0, 2}}});
  auto moved = slots_that_move(m.state(), 0);
  EXPECT_FALSE(moved[1]);
  EXPECT_FALSE(moved[3]);
  EXPECT_TRUE(moved[0]);
  EXPECT_TRUE(moved[2]);
  for (int k = 4; k < 12; ++k) EXPECT_TRUE(moved[k]) << "seat 1 or 2's card " << k;
  // Seat 0 draws and keeps the card in slot 0: it knows that one too now.
  play(m, 0, {{"move", "draw"}});
  play(m, 0, {{"move", "replace"}, {"slot", 0}});
  play(m, 1, {{"move", "slap-done"}});
  play(m, 2, {{"move", "slap-done"}});
  if (m.state().legal_actions(0).size() > 2) play(m, 0, {{"move", "skip-power"}});
  play(m, 0, {{"move", "end-turn"}, {"call", false}});
  moved = slots_that_move(m.state(), 0);
  EXPECT_FALSE(moved[0]);
  EXPECT_FALSE(moved[1]);
  EXPECT_TRUE(moved[2]);
  // Seat 1 takes the discard into its slot 2: everyone saw that card.
  play(m, 1, {{"move", "take-discard"}, {"slot", 2}});
  moved = slots_that_move(m.state(), 0);
  EXPECT_FALSE(moved[6]);
  EXPECT_TRUE(moved[4]);
  // Seat 1 remembers its own peeks; seat 0 does not know them.
  moved = slots_that_move(m.state(), 1);
  EXPECT_FALSE(moved[4]);
  EXPECT_FALSE(moved[5]);
  EXPECT_FALSE(moved[6]);
  EXPECT_TRUE(moved[7]);
}

TEST(DeterminizeSpiderMonkey, JackSwapsMoveWhatIsKnown) {
  // Seat 0 needs a Jack on the discard to use: a test deck puts J♠ on top of the stock.
  const Game& g = *Registry::builtin().find("spider-monkey");
  std::vector<Card> deck = g.deck(Options(), 2);
  json codes = json::array();
  const auto jack = g.parse_card("JS");
  ASSERT_TRUE(jack.has_value());
  // Two seats: 8 line cards, then the discard, then the top of the stock.
  std::vector<Card> order;
  for (Card c : deck) {
    if (c != *jack) order.push_back(c);
  }
  order.insert(order.begin() + 9, *jack);
  for (Card c : order) codes.push_back(g.card_code(c));
  auto made = Match::create(g, 2, json::object(), 1, codes);
  ASSERT_TRUE(made.ok()) << made.error().message;
  Match m = std::move(*made);
  play(m, 0, {{"move", "peek"}, {"slots", {0, 1}}});
  play(m, 1, {{"move", "peek"}, {"slots", {0, 1}}});
  play(m, 0, {{"move", "draw"}});
  play(m, 0, {{"move", "discard-drawn"}});
  play(m, 1, {{"move", "slap-done"}});
  // Swap seat 0's known slot 0 with seat 1's slot 3: seat 0 now knows seat 1's slot 3.
  play(m, 0, {{"move", "jack"}, {"seat", 0}, {"slot", 0}});
  play(m, 0, {{"move", "jack"}, {"seat", 1}, {"slot", 3}});
  const auto moved = slots_that_move(m.state(), 0);
  EXPECT_TRUE(moved[0]);
  EXPECT_FALSE(moved[1]);
  EXPECT_FALSE(moved[7]);
}

TEST(DeterminizePinocchio, OwnPlayedCardsStay) {
  Match m = start("pinocchio", 3, json::object(), 11);
  play(m, 0, {{"move", "announce"}, {"colour", "red"}, {"clothing", "hat"}});
  play(m, 1, {{"move", "believe"}});
  play(m, 1, {{"move", "announce"}, {"colour", "red"}, {"clothing", "shirt"}});
  // Both cards on the pile are face down. Seat 0 played the first and was told it; seat 1's is
  // unknown to seat 0. The unrevealed pile cards come last in hidden_from's order.
  const std::vector<Card> real = hidden_values(m.state(), 0);
  ASSERT_GE(real.size(), 2u);
  const Card mine = real[real.size() - 2];
  const Card theirs = real.back();
  const json remembered = m.state().recall(0);
  ASSERT_EQ(remembered["played"].size(), 1u);
  EXPECT_EQ(remembered["played"][0]["card"], m.game().card_code(mine));
  Rng rng(3);
  bool theirs_moves = false;
  for (int i = 0; i < 20; ++i) {
    const auto d = m.state().determinize(0, rng);
    const std::vector<Card> copy = hidden_values(*d, 0);
    ASSERT_EQ(copy.size(), real.size());
    EXPECT_EQ(copy[copy.size() - 2], mine) << "seat 0's own card left its place on the pile";
    EXPECT_EQ(d->recall(0), remembered);
    theirs_moves |= copy.back() != theirs;
  }
  EXPECT_TRUE(theirs_moves) << "seat 1's face-down card was never re-dealt";
}

TEST(DeterminizeNakedGibbon, PublicBurnmarksStayVeteransMove) {
  const Game& g = *Registry::builtin().find("naked-gibbon");
  for (const bool veterans : {false, true}) {
    SCOPED_TRACE(veterans ? "veterans" : "plain");
    // Random games until a gibbon gets a burnmark of its own (beyond a Veteran's).
    bool seen = false;
    for (std::uint64_t seed = 1; seed < 60 && !seen; ++seed) {
      auto made = Match::create(g, 3, {{"veterans", veterans}}, seed);
      ASSERT_TRUE(made.ok());
      Match m = std::move(*made);
      Rng rng(seed);
      for (int step = 0; step < 400 && !m.state().over() && !seen; ++step) {
        const json v = m.state().view(0);
        int burns = 0;
        for (const auto& n : v["burnmarks"]) burns += n.get<int>();
        if (burns > (veterans ? 3 : 0)) {
          seen = true;
          // Hidden slots for seat 0, per seat: the hand (others only), then each burnmark.
          const auto moved = slots_that_move(m.state(), 0);
          std::size_t at = 0;
          for (Seat s = 0; s < 3; ++s) {
            if (s != 0) at += v["handCounts"][s].get<std::size_t>();
            for (int slot = 0; slot < 3; ++slot) {
              if (!v["burned"][s][slot].get<bool>()) continue;
              // A Veteran's burnmark lies in slot 0 and nobody saw it; the others burned in
              // plain sight.
              const bool hidden = veterans && slot == 0;
              EXPECT_EQ(moved[at], hidden) << "seat " << s << " slot " << slot;
              ++at;
            }
          }
          break;
        }
        const Seat seat = m.state().to_act().first();
        const auto legal = m.state().legal_actions(seat);
        Events ev(false);
        ASSERT_FALSE(m.apply(seat, legal[rng.below(legal.size())], ev).has_value());
      }
    }
    EXPECT_TRUE(seen) << "no burnmark in 60 random games";
  }
}

TEST(DeterminizeFibFibonacci, CardsTakenWithAFourStayInHand) {
  // Find a random game where seat 1 plays a 4; seat 0 then knows the card it took.
  const Game& g = *Registry::builtin().find("fib-fibonacci");
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    auto made = Match::create(g, 2, json::object(), seed);
    ASSERT_TRUE(made.ok());
    Match m = std::move(*made);
    Rng rng(seed);
    for (int step = 0; step < 300 && !m.state().over(); ++step) {
      const Seat seat = m.state().to_act().first();
      const auto legal = m.state().legal_actions(seat);
      Action pick = legal[rng.below(legal.size())];
      for (const Action& a : legal) {
        if (seat == 1 && g.action_to_json(a)["move"] == "four") pick = a;
      }
      Events ev(false);
      ASSERT_FALSE(m.apply(seat, pick, ev).has_value());
      if (seat == 1 && g.action_to_json(pick)["move"] == "four" && !m.state().over()) {
        const std::string taken = m.state().view(0)["lastPlay"]["taken"].get<std::string>();
        const Card card = *g.parse_card(taken);
        // Whatever the generator, seat 1's hand still holds the taken card.
        Rng d(seed);
        for (int i = 0; i < 20; ++i) {
          const auto det = m.state().determinize(0, d);
          std::vector<Card*> slots;
          auto probe = det->clone();
          probe->hidden_from(0, slots);
          const int hand = m.state().view(0)["handCounts"][1].get<int>();
          bool held = false;
          for (int k = 0; k < hand; ++k) held |= *slots[static_cast<std::size_t>(k)] == card;
          EXPECT_TRUE(held) << taken << " left seat 1's hand in a determinization";
        }
        return;
      }
    }
  }
  FAIL() << "no game with a 4 played by seat 1";
}

TEST(DeterminizeTrickyTribes, OwnExchangeDiscardStays) {
  Match m = start("tricky-tribes", 3, json::object(), 21);
  const json hand = m.state().view(0)["hand"];
  play(m, 0, {{"move", "exchange-discard"}, {"card", hand[0]}});
  const Card discarded = *m.game().parse_card(hand[0].get<std::string>());
  Rng rng(5);
  for (int i = 0; i < 30; ++i) {
    const auto det = m.state().determinize(0, rng);
    // The card never reaches another hand: seat 1 and 2's views in the copy list their hands.
    for (Seat s = 1; s < 3; ++s) {
      const json view = det->view(s);
      ASSERT_TRUE(view.contains("hand"));
      for (const auto& c : view["hand"]) {
        EXPECT_NE(*m.game().parse_card(c.get<std::string>()), discarded);
      }
    }
  }
}

TEST(DeterminizeTrickyTribes, LaterRoundsFollowTheBotsGenerator) {
  // Two copies with different generators of one state near the end of round 1, played on with
  // the same (only) moves, deal round 2 differently: the real shuffle is never used.
  Match m = start("tricky-tribes", 3, json::object(), 8);
  Rng rng(1);
  while (m.state().view(0)["round"] == 1) {
    const json v = m.state().view(0);
    if (v["handCounts"][0] == 1 && v["handCounts"][1] == 1 && v["handCounts"][2] == 1) break;
    const SeatSet acting = m.state().to_act();
    Seat seat = kSystem;
    Action a;
    if (acting.empty()) {
      a = Action::timeout(m.state().window()->id);
    } else {
      seat = acting.first();
      const auto legal = m.state().legal_actions(seat);
      a = legal[rng.below(legal.size())];
    }
    Events ev(false);
    ASSERT_FALSE(m.apply(seat, a, ev).has_value());
  }
  ASSERT_EQ(m.state().view(0)["round"], 1);
  auto finish_round = [](std::unique_ptr<State> s) {
    while (s->view(0)["round"] == 1) {
      const Seat seat = s->to_act().first();
      Events ev(false);
      EXPECT_FALSE(s->apply(seat, s->legal_actions(seat).front(), ev).has_value());
    }
    return s->view(0)["hand"].dump();
  };
  Rng a(100);
  Rng b(200);
  const std::string one = finish_round(m.state().determinize(0, a));
  const std::string two = finish_round(m.state().determinize(0, b));
  const std::string real = finish_round(m.state().clone());
  EXPECT_NE(one, two);
  EXPECT_NE(one, real);
}

}  // namespace
}  // namespace campfire
