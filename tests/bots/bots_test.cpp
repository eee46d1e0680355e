// The bots library: strategies are made by name for a game, choose among the legal actions of a
// Decision, and read the seat's view only when they ask for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "bots/models.hpp"
#include "bots/strategy.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/tricky_tribes/tricky_tribes.hpp"

namespace campfire::bots {
namespace {

TEST(Strategies, AreMadeByNameForEveryGame) {
  const auto& names = strategy_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "random"), names.end());
  for (const Game* g : Registry::builtin().games()) {
    for (const std::string& name : names) {
      EXPECT_NE(make_strategy(name, *g), nullptr) << name << " for " << g->info().id;
    }
    EXPECT_EQ(make_strategy("clairvoyant", *g), nullptr) << "an unknown name makes nothing";
    EXPECT_EQ(make_strategy("", *g), nullptr);
  }
}

// Plays a whole game in which every acting seat's strategy chooses from a Decision, observing the
// events addressed to it; a window nobody acts in is closed as the room's clock would.
struct Observer final : Strategy {
  explicit Observer(std::unique_ptr<Strategy> inner) : inner_(std::move(inner)) {}
  void observe(const Event& e) override {
    observed.push_back(e.body);
    inner_->observe(e);
  }
  std::size_t choose(const Decision& d, Rng& rng) override { return inner_->choose(d, rng); }
  std::vector<json> observed;

 private:
  std::unique_ptr<Strategy> inner_;
};

TEST(Random, PlaysEveryGameToItsEndWithLegalChoices) {
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    const int seats = g->info().min_seats;
    Match m = std::move(*Match::create(*g, seats, json::object(), 41));
    std::vector<std::unique_ptr<Observer>> players;
    for (int s = 0; s < seats; ++s) {
      players.push_back(std::make_unique<Observer>(make_strategy("random", *g)));
    }
    Rng rng(3);
    int moves = 0;
    while (!m.state().over() && moves < g->info().max_actions) {
      const State& st = m.state();
      const SeatSet acting = st.to_act();
      Seat seat = kSystem;
      Action a;
      if (acting.empty() || (st.window() && rng.below(8) == 0)) {
        ASSERT_TRUE(st.window().has_value()) << "nobody acts and no window is open";
        a = Action::timeout(st.window()->id);
      } else {
        seat = acting.first();
        const auto legal = st.legal_actions(seat);
        std::vector<std::string> labels;
        for (const Action& l : legal) labels.push_back(st.describe(seat, l));
        const Decision d(*g, seat, legal, labels, [&] { return st.view(seat); });
        EXPECT_EQ(d.label(0), labels[0]);
        const std::size_t pick = players[static_cast<std::size_t>(seat)]->choose(d, rng);
        ASSERT_LT(pick, legal.size());
        a = legal[pick];
      }
      Events events;
      ASSERT_FALSE(m.apply(seat, a, events).has_value());
      for (const Event& e : events.list()) {
        for (int s = 0; s < seats; ++s) {
          if (e.to.includes(s)) players[static_cast<std::size_t>(s)]->observe(e);
        }
      }
      ++moves;
    }
    EXPECT_TRUE(m.state().over());
    for (const auto& p : players) EXPECT_FALSE(p->observed.empty());
  }
}

TEST(Random, IsUniformAndRepeatsWithItsSeed) {
  const Game& g = *Registry::builtin().find("pinocchio");
  Match m = std::move(*Match::create(g, 3, json::object(), 5));
  const Seat seat = m.state().to_act().first();
  const auto legal = m.state().legal_actions(seat);
  ASSERT_GT(legal.size(), 2u);
  auto strategy = make_strategy("random", g);
  const Decision d(g, seat, legal, {}, [&] { return m.state().view(seat); });
  std::map<std::size_t, int> counts;
  std::vector<std::size_t> first;
  Rng rng(9);
  const int draws = 200 * static_cast<int>(legal.size());
  for (int i = 0; i < draws; ++i) {
    const std::size_t pick = strategy->choose(d, rng);
    ++counts[pick];
    if (i < 20) first.push_back(pick);
  }
  EXPECT_EQ(counts.size(), legal.size()) << "every legal action is chosen sometimes";
  for (const auto& [pick, n] : counts) {
    EXPECT_GT(n, 100) << "action " << pick << " is chosen far less than 1 in " << legal.size();
    EXPECT_LT(n, 300) << "action " << pick << " is chosen far more than 1 in " << legal.size();
  }
  Rng again(9);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(strategy->choose(d, again), first[i]);
}

TEST(Decision, BuildsTheViewOnlyWhenAskedAndOnce) {
  const Game& g = *Registry::builtin().find("pinocchio");
  Match m = std::move(*Match::create(g, 3, json::object(), 5));
  const Seat seat = m.state().to_act().first();
  const auto legal = m.state().legal_actions(seat);
  int built = 0;
  const Decision d(g, seat, legal, {}, [&] {
    ++built;
    return m.state().view(seat);
  });
  Rng rng(1);
  make_strategy("random", g)->choose(d, rng);
  EXPECT_EQ(built, 0) << "choosing at random needs no view";
  EXPECT_EQ(d.view(), m.state().view(seat));
  EXPECT_EQ(d.view(), m.state().view(seat));
  EXPECT_EQ(built, 1);
  EXPECT_EQ(d.label(0), "") << "no labels given, none invented";
  EXPECT_EQ(d.seat(), seat);
  EXPECT_EQ(&d.game(), &g);

  const Decision given(g, seat, legal, {}, json{{"phase", "play"}});
  EXPECT_EQ(given.view()["phase"], "play");
}

// Drawing first leaves every choice open (the drawn card may go straight back out), so a searching
// Tricky Tribes seat draws at the exchange and searches its discard with the new card in hand.
TEST(Expert, DrawsFirstAtTheTrickyTribesExchangeThenSearchesTheDiscard) {
  const Game& g = *Registry::builtin().find("tricky-tribes");
  StrategyOptions quick;
  quick.think_ms = 0;
  quick.think_iterations = 60;
  for (std::uint64_t seed : {3u, 8u, 21u}) {
    Match m = std::move(*Match::create(g, 2, json::object(), seed));
    const Seat seat = m.state().to_act().first();
    auto expert = make_strategy("expert", g, quick);
    auto choose = [&] {
      const State& st = m.state();
      const auto legal = st.legal_actions(seat);
      Decision d(g, seat, legal, {}, [&] { return st.view(seat); });
      d.offer([&] { return st.recall(seat); }, [&](Rng& r) { return st.determinize(seat, r); });
      Rng rng(seed);
      return legal.at(expert->choose(d, rng));
    };
    const Action first = choose();
    ASSERT_EQ(first.kind, tricky_tribes::kDraw) << "seed " << seed;
    Events events;
    ASSERT_FALSE(m.apply(seat, first, events).has_value());
    EXPECT_EQ(choose().kind, tricky_tribes::kDiscard) << "seed " << seed;
  }
}

// Tricky Tribes' `expert` lets a simulated player leave the basic policy as often as that
// player's public moves did: the first move of its exchange (basic draws first) and what it leads
// face up when it was free to lead face down (basic offers only low cards). Cards the others
// cannot see, and forced leads, are not judged.
TEST(Expert, TrickyTribesJudgesOnlyPublicMovesOfEachPlayer) {
  const Game& g = *Registry::builtin().find("tricky-tribes");
  auto model = model_for(g);
  const double floor = model->noise();
  const auto hear = [&](const char* text) { model->observe(json::parse(text)); };
  hear(R"({"type":"round-start","round":1,"dealer":1})");
  hear(R"({"type":"dealt","cards":["AS","KS","2H"]})");
  hear(R"({"type":"you-drew","card":"AH"})");
  hear(R"({"type":"you-played","card":"KS"})");
  EXPECT_EQ(model->noise_of(0), floor);
  EXPECT_EQ(model->noise_of(1), floor);
  // Seat 0 plays as basic would; seat 1 does not, twice.
  hear(R"({"type":"exchange-draw","seat":0})");
  hear(R"({"type":"exchange-discard","seat":0})");
  hear(R"({"type":"exchange-discard","seat":1})");
  hear(R"({"type":"exchange-draw","seat":1})");
  hear(R"({"type":"lead","by":"dummy","faceUp":false})");
  hear(R"({"type":"lead","by":0,"faceUp":true,"card":"5S"})");
  hear(R"({"type":"lead","by":0,"faceUp":false})");
  hear(R"({"type":"lead","by":1,"faceUp":true,"card":"KS"})");
  // A forced lead says nothing: it had to be face up.
  hear(R"({"type":"forced-open","by":0})");
  hear(R"({"type":"lead","by":0,"faceUp":true,"card":"AC"})");
  EXPECT_EQ(model->noise_of(0), floor);
  const double judged = model->noise_of(1);
  EXPECT_GT(judged, 0.5);
  EXPECT_LE(judged, 1.0);
  // The next round goes on from there; a new game starts afresh.
  hear(R"({"type":"round-start","round":2,"dealer":0})");
  hear(R"({"type":"exchange-skip","seat":1})");
  EXPECT_GT(model->noise_of(1), judged);
  hear(R"({"type":"round-start","round":1,"dealer":1})");
  EXPECT_EQ(model->noise_of(1), floor);
}

// Over whole games the estimate tells a random player from a basic one.
TEST(Expert, TrickyTribesFindsARandomPlayerFromTheGame) {
  const Game& g = *Registry::builtin().find("tricky-tribes");
  for (std::uint64_t seed : {2u, 5u, 9u}) {
    Match m = std::move(*Match::create(g, 2, json::object(), seed));
    std::vector<std::unique_ptr<Strategy>> players;
    players.push_back(make_strategy("basic", g));
    players.push_back(make_strategy("random", g));
    auto model = model_for(g);
    Rng rng(seed);
    while (!m.state().over()) {
      const State& st = m.state();
      const SeatSet acting = st.to_act();
      Seat seat = kSystem;
      Action a;
      if (acting.empty()) {
        a = Action::timeout(st.window()->id);
      } else {
        seat = acting.first();
        const auto legal = st.legal_actions(seat);
        Decision d(g, seat, legal, {}, [&] { return st.view(seat); });
        a = legal.at(players[static_cast<std::size_t>(seat)]->choose(d, rng));
      }
      Events events;
      ASSERT_FALSE(m.apply(seat, a, events).has_value());
      for (const Event& e : events.list()) {
        for (Seat q = 0; q < 2; ++q) {
          if (e.to.includes(q)) players[static_cast<std::size_t>(q)]->observe(e);
        }
        if (e.to.includes(0)) model->observe(e.body);
      }
    }
    EXPECT_EQ(model->noise_of(0), model->noise()) << "seed " << seed;
    EXPECT_GT(model->noise_of(1), 0.5) << "seed " << seed;
  }
}

}  // namespace
}  // namespace campfire::bots
