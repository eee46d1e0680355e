// A bot over the network builds its recall from the events addressed to its seat; it must come
// to what the engine's State::recall says at every step (Naked Gibbon: the burnmarks; Pinocchio:
// the seat's own face-down cards and every card a challenge turned over).
#include <gtest/gtest.h>

#include "bots/policy.hpp"
#include "bots/recollection.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

namespace campfire::bots {
namespace {

struct Case {
  std::string game;
  int seats;
  json options;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.game << " " << c.seats << " " << c.options.dump();
}

// How many card codes (strings) a recall names.
int cards_in(const json& j) {
  if (j.is_string()) return 1;
  int n = 0;
  if (j.is_structured()) {
    for (const auto& x : j) n += cards_in(x);
  }
  return n;
}

class RecollectionTest : public ::testing::TestWithParam<Case> {};

TEST_P(RecollectionTest, EventsGiveWhatTheEngineRecalls) {
  const Case& c = GetParam();
  const Game& game = *Registry::builtin().find(c.game);
  const Policy basic = basic_policy(c.game);
  long compared = 0;
  long remembered = 0;
  long revealed = 0;  // Pinocchio: recalls naming a card a challenge turned over
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto made = Match::create(game, c.seats, c.options, seed);
    ASSERT_TRUE(made.ok()) << made.error().message;
    Match m = std::move(*made);
    std::vector<std::unique_ptr<Recollection>> memory;
    for (Seat s = 0; s < c.seats; ++s) memory.push_back(make_recollection(game));
    Rng rng(seed);
    std::vector<Action> legal;
    while (!m.state().over()) {
      const State& st = m.state();
      for (Seat s = 0; s < c.seats; ++s) {
        json engine = st.recall(s);
        json built = memory[s]->recall();
        if (c.game == "naked-gibbon") {
          engine = engine["burnmarks"];
          built = built["burnmarks"];
        }
        ASSERT_EQ(built, engine) << "seat " << s;
        ++compared;
        remembered += cards_in(engine) > 0;
        revealed += engine.contains("revealed") && !engine["revealed"].empty();
      }
      // Mostly basic play (which peeks, keeps and swaps like a person), sometimes random, and
      // now and then a window left to time out.
      const SeatSet acting = st.to_act();
      Seat seat = kSystem;
      Action a;
      if (acting.empty() || (st.window() && rng.below(10) == 0)) {
        a = Action::timeout(st.window()->id);
      } else {
        std::vector<Seat> all;
        acting.for_each([&](Seat x) { all.push_back(x); });
        seat = all[rng.below(all.size())];
        st.legal_actions(seat, legal);
        if (rng.below(4) == 0) {
          a = legal[rng.below(legal.size())];
        } else {
          const json view = st.view(seat);
          const json recall = st.recall(seat);
          a = legal[basic(Situation{game, seat, legal, view, recall}, rng)];
        }
      }
      Events events;
      ASSERT_FALSE(m.apply(seat, a, events).has_value());
      for (const Event& e : events.list()) {
        for (Seat s = 0; s < c.seats; ++s) {
          if (e.to.includes(s)) memory[s]->observe(e.body, s);
        }
      }
    }
  }
  std::cout << "[ stats    ] " << c.game << ": " << compared << " recalls compared, " << remembered
            << " with something in them\n";
  EXPECT_GT(remembered, compared / 20) << "the games hardly ever gave anything to remember";
  if (c.game == "pinocchio") {
    EXPECT_GT(revealed, compared / 4) << "challenges hardly ever turned a card over";
  }
}

INSTANTIATE_TEST_SUITE_P(Games, RecollectionTest,
                         ::testing::Values(Case{"spider-monkey", 3, json::object()},
                                           Case{"spider-monkey", 4, {{"cumulative", true}}},
                                           Case{"pinocchio", 3, json::object()},
                                           Case{"tricky-tribes", 4, json::object()},
                                           Case{"fib-fibonacci", 2, {{"seriesGames", 3}}},
                                           Case{"naked-gibbon", 3, json::object()}),
                         [](const auto& p) {
                           std::string n = p.param.game + "_" + std::to_string(p.param.seats);
                           for (char& ch : n)
                             ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return n + "_" + std::to_string(p.index);
                         });

}  // namespace
}  // namespace campfire::bots
