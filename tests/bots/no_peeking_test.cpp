// No peeking: a bot decides from its seat's view and what the seat was shown, never from the
// cards it cannot see. Re-deal every card the seat does not know (as the engine's no-leak test
// does) and `basic` picks the same move, and so does `expert` with a fixed seed, having heard
// what its seat was told so far (its model of how the others play reads the public moves). Odd
// seats play at random, so that there is something to read. As a control, an expert handed the
// true state instead of samples does notice the re-deal: the test can fail.
#include <gtest/gtest.h>

#include "bots/strategy.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

namespace campfire::bots {
namespace {

struct Case {
  std::string game;
  int seats;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.game << " " << c.seats;
}

// The same state with every card `seat` does not know dealt again at random.
std::unique_ptr<State> redealt(const State& s, Seat seat, Rng& rng) {
  auto copy = s.clone();
  std::vector<Card*> slots;
  copy->unknown_to(seat, slots);
  std::vector<Card> cards;
  for (const Card* c : slots) cards.push_back(*c);
  rng.shuffle(cards);
  for (std::size_t i = 0; i < slots.size(); ++i) *slots[i] = cards[i];
  return copy;
}

// What `strategy` picks for `seat` of `s`, deciding with a generator seeded by `seed`. With
// `truth`, its samples are the state itself (a strategy that peeks).
std::size_t pick(const Game& game, const State& s, Seat seat, Strategy& strategy,
                 std::uint64_t seed, bool truth = false) {
  const std::vector<Action> legal = s.legal_actions(seat);
  Decision d(game, seat, legal, {}, [&] { return s.view(seat); });
  if (truth) {
    d.offer([&] { return s.recall(seat); }, [&](Rng&) { return s.clone(); });
  } else {
    d.offer([&] { return s.recall(seat); }, [&](Rng& r) { return s.determinize(seat, r); });
  }
  Rng rng(seed);
  return strategy.choose(d, rng);
}

class NoPeekingTest : public ::testing::TestWithParam<Case> {};

TEST_P(NoPeekingTest, RedealingUnknownCardsChangesNoChoice) {
  const Case& c = GetParam();
  const Game& game = *Registry::builtin().find(c.game);
  StrategyOptions quick;
  quick.think_ms = 0;
  quick.think_iterations = 40;
  long basic_checks = 0;
  long expert_checks = 0;
  long moved = 0;
  long peeker_noticed = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Match m = std::move(*Match::create(game, c.seats, json::object(), seed));
    Rng rng(seed * 31);
    // What each seat was told so far: an expert hears it before it decides, as in a game.
    std::vector<std::vector<Event>> heard(static_cast<std::size_t>(c.seats));
    const auto hear = [&](const Events& events) {
      for (const Event& e : events.list()) {
        for (Seat q = 0; q < c.seats; ++q) {
          if (e.to.includes(q)) heard[static_cast<std::size_t>(q)].push_back(e);
        }
      }
    };
    const auto told = [&](Seat seat, Strategy& strategy) {
      for (const Event& e : heard[static_cast<std::size_t>(seat)]) strategy.observe(e);
      return &strategy;
    };
    for (int step = 0; !m.state().over(); ++step) {
      const State& st = m.state();
      const SeatSet acting = st.to_act();
      if (acting.empty()) {
        Events events;
        ASSERT_FALSE(m.apply(kSystem, Action::timeout(st.window()->id), events).has_value());
        hear(events);
        continue;
      }
      std::vector<Seat> all;
      acting.for_each([&](Seat x) { all.push_back(x); });
      const Seat seat = all[rng.below(all.size())];
      const auto other = redealt(st, seat, rng);
      ASSERT_EQ(other->view(seat), st.view(seat));
      moved += !other->equals(st);
      const std::uint64_t choice_seed = rng.next();
      auto b1 = make_strategy("basic", game);
      auto b2 = make_strategy("basic", game);
      const std::size_t basic_here = pick(game, st, seat, *b1, choice_seed);
      EXPECT_EQ(pick(game, *other, seat, *b2, choice_seed), basic_here)
          << "basic chose differently after the unknown cards were re-dealt";
      ++basic_checks;
      if (step % 4 == 0 && st.legal_actions(seat).size() > 1) {
        auto e1 = make_strategy("expert", game, quick);
        auto e2 = make_strategy("expert", game, quick);
        EXPECT_EQ(pick(game, *other, seat, *told(seat, *e2), choice_seed),
                  pick(game, st, seat, *told(seat, *e1), choice_seed))
            << "expert chose differently after the unknown cards were re-dealt";
        ++expert_checks;
        auto p1 = make_strategy("expert", game, quick);
        auto p2 = make_strategy("expert", game, quick);
        peeker_noticed += pick(game, *other, seat, *told(seat, *p2), choice_seed, true) !=
                          pick(game, st, seat, *told(seat, *p1), choice_seed, true);
      }
      if (::testing::Test::HasFailure()) return;
      const std::vector<Action> legal = st.legal_actions(seat);
      Events events;
      const std::size_t played = seat % 2 == 1 ? rng.below(legal.size()) : basic_here;
      ASSERT_FALSE(m.apply(seat, legal[played], events).has_value());
      hear(events);
    }
  }
  std::cout << "[ stats    ] " << c.game << ": " << basic_checks << " basic and " << expert_checks
            << " expert choices compared, " << moved << " re-deals moved cards; a peeking expert "
            << "noticed " << peeker_noticed << "\n";
  EXPECT_GT(moved * 10, basic_checks * 8) << "the re-deals hardly moved anything";
  EXPECT_GT(peeker_noticed, 0) << "even a peeking expert never noticed: the test has no teeth";
}

INSTANTIATE_TEST_SUITE_P(Games, NoPeekingTest,
                         ::testing::Values(Case{"pinocchio", 3}, Case{"naked-gibbon", 3},
                                           Case{"fib-fibonacci", 2}, Case{"spider-monkey", 3},
                                           Case{"tricky-tribes", 3}),
                         [](const auto& p) {
                           std::string n = p.param.game + "_" + std::to_string(p.param.seats);
                           for (char& ch : n) ch = ch == '-' ? '_' : ch;
                           return n;
                         });

}  // namespace
}  // namespace campfire::bots
