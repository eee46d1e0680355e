// Engine micro-benchmarks for every registered game: random-playout throughput (legal_actions +
// apply), one seat's view written as text (as the room writes it), state clone, and
// replay from a saved log.
#include <benchmark/benchmark.h>

#include <string>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

namespace campfire {
namespace {

// Plays one seeded random game to the end with events off; returns the actions applied.
long random_playout(Match& m, Rng& rng, std::vector<Action>& legal) {
  Events silent(false);
  long actions = 0;
  while (!m.state().over()) {
    const SeatSet acting = m.state().to_act();
    const auto w = m.state().window();
    if (w && (acting.empty() || rng.below(4) == 0)) {
      m.apply(kSystem, Action::timeout(w->id), silent);
    } else {
      Seat seat = acting.first();
      if (acting.size() > 1) {
        for (auto k = rng.below(static_cast<std::uint64_t>(acting.size())); k > 0; --k) {
          SeatSet rest = acting;
          for (Seat s = 0; s <= seat; ++s) rest.erase(s);
          seat = rest.first();
        }
      }
      m.state().legal_actions(seat, legal);
      m.apply(seat, legal[rng.below(legal.size())], silent);
    }
    ++actions;
  }
  return actions;
}

Match fresh(const Game& g, int seats, std::uint64_t seed) {
  return std::move(*Match::create(g, seats, json::object(), seed));
}

// A match part-way through a game, where views have some history to show: the first half of
// the log of one seeded random game.
Match midgame(const Game& g, int seats) {
  Match full = fresh(g, seats, 99);
  Rng rng(5);
  std::vector<Action> legal;
  random_playout(full, rng, legal);
  Match m = fresh(g, seats, 99);
  Events silent(false);
  const auto& log = full.log();
  for (std::size_t i = 0; i < log.size() / 2; ++i) m.apply(log[i].seat, log[i].action, silent);
  return m;
}

void playout(benchmark::State& st, const Game* g, int seats) {
  Rng rng(1);
  std::vector<Action> legal;
  long actions = 0;
  std::uint64_t seed = 1;
  for (auto _ : st) {
    Match m = fresh(*g, seats, seed++);
    actions += random_playout(m, rng, legal);
  }
  st.counters["actions/s"] = benchmark::Counter(static_cast<double>(actions),
                                                benchmark::Counter::kIsRate);
  st.counters["actions/game"] =
      static_cast<double>(actions) / static_cast<double>(st.iterations());
}

void view(benchmark::State& st, const Game* g, int seats) {
  const Match m = midgame(*g, seats);
  Seat seat = 0;
  for (auto _ : st) {
    // Written as text, as the room writes it into every state frame.
    std::string text;
    m.state().view_text(seat, text);
    benchmark::DoNotOptimize(text);
    seat = (seat + 1) % seats;
  }
}

void clone(benchmark::State& st, const Game* g, int seats) {
  const Match m = midgame(*g, seats);
  for (auto _ : st) {
    auto copy = m.state().clone();
    benchmark::DoNotOptimize(copy);
  }
}

void replay(benchmark::State& st, const Game* g, int seats) {
  Match m = fresh(*g, seats, 7);
  Rng rng(3);
  std::vector<Action> legal;
  const long actions = random_playout(m, rng, legal);
  const json saved = m.save();
  for (auto _ : st) {
    auto restored = Match::restore(Registry::builtin(), saved);
    benchmark::DoNotOptimize(restored);
  }
  st.counters["actions"] = static_cast<double>(actions);
  st.counters["per action"] = benchmark::Counter(
      static_cast<double>(actions), benchmark::Counter::kIsIterationInvariantRate |
                                        benchmark::Counter::kInvert);
}

}  // namespace
}  // namespace campfire

int main(int argc, char** argv) {
  using campfire::Game;
  for (const Game* g : campfire::Registry::builtin().games()) {
    const std::string id = g->info().id;
    // The table sizes the benchmarks report on: the smallest, four (or the largest) seats.
    std::vector<int> sizes = {g->info().min_seats};
    const int typical = std::min(std::max(4, g->info().min_seats), g->info().max_seats);
    if (typical != sizes.front()) sizes.push_back(typical);
    for (int n : sizes) {
      const std::string suffix = id + "/" + std::to_string(n) + "seats";
      benchmark::RegisterBenchmark(("playout/" + suffix).c_str(), campfire::playout, g, n);
      benchmark::RegisterBenchmark(("view/" + suffix).c_str(), campfire::view, g, n);
      benchmark::RegisterBenchmark(("clone/" + suffix).c_str(), campfire::clone, g, n);
      benchmark::RegisterBenchmark(("replay/" + suffix).c_str(), campfire::replay, g, n);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
