// A small arena in `make test`: heads-up, every game, `basic` and `expert` must each beat
// `random` by a margin that luck cannot reach at that number of games.
//
// The margin: if a strategy were no better than random, its share of N heads-up games (seats
// rotated, a tie counting 1/2 to each) would have mean 1/2, each game's share lying in [0, 1]
// independently of the others. Hoeffding's inequality bounds the chance that such a share
// reaches 1/2 + t by exp(-2 N t^2), with no assumption about how the games are distributed; the
// threshold takes t = sqrt(ln(10,000) / (2 N)), a chance below 1 in 10,000: 74.0% at 80 games,
// 65.2% at 200. The shares measured in the arena are far above it (README, The arena), so the
// test fails only when a strategy has really got worse. With fixed seeds and an iteration budget
// instead of a clock, every run plays the same games, so the test is deterministic.
#include <gtest/gtest.h>

#include <cmath>

#include "bots/arena.hpp"
#include "engine/core/registry.hpp"

namespace campfire::bots {
namespace {

double threshold(int games) {
  return 0.5 + std::sqrt(std::log(10000.0) / (2 * static_cast<double>(games)));
}

struct Case {
  std::string game;
  std::string strategy;
  int games;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.strategy << " " << c.game;
}

class ArenaTest : public ::testing::TestWithParam<Case> {};

TEST_P(ArenaTest, BeatsRandomBeyondLuck) {
  const Case& c = GetParam();
  ArenaSetup setup;
  setup.game = Registry::builtin().find(c.game);
  setup.lineup = {c.strategy, "random"};
  setup.games = c.games;
  setup.seed = 2026;
  setup.strategy.think_ms = 0;
  setup.strategy.think_iterations = 100;
  const auto result = run_arena(setup);
  ASSERT_TRUE(result.ok()) << result.error().message;
  std::cout << arena_table(*result);
  const double share = result->entries[0].win_share();
  EXPECT_GE(share, threshold(c.games))
      << c.strategy << " won " << 100 * share << "% of " << c.games << " games of " << c.game
      << " against random; luck alone reaches " << 100 * threshold(c.games) << "% once in 10,000";
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const Game* g : Registry::builtin().games()) {
    out.push_back({g->info().id, "basic", 200});
    out.push_back({g->info().id, "expert", 80});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(HeadsUp, ArenaTest, ::testing::ValuesIn(cases()), [](const auto& p) {
  std::string n = p.param.strategy + "_" + p.param.game;
  for (char& ch : n) ch = ch == '-' ? '_' : ch;
  return n;
});

TEST(Arena, RefusesWhatItCannotPlay) {
  ArenaSetup setup;
  setup.game = Registry::builtin().find("fib-fibonacci");
  setup.lineup = {"basic", "random", "random"};
  EXPECT_EQ(run_arena(setup).error().code, "bad_seats");
  setup.lineup = {"basic", "clairvoyant"};
  EXPECT_EQ(run_arena(setup).error().code, "bad_strategy");
  setup.lineup = {"basic", "random"};
  setup.options = {{"noSuchOption", 1}};
  EXPECT_EQ(run_arena(setup).error().code, "bad_options");
  setup.options = json::object();
  setup.games = 0;
  EXPECT_EQ(run_arena(setup).error().code, "bad_games");
}

TEST(Arena, RotatesSeatsAndCountsEveryGame) {
  ArenaSetup setup;
  setup.game = Registry::builtin().find("pinocchio");
  setup.lineup = {"random", "random", "random"};
  setup.games = 30;
  const auto r = run_arena(setup);
  ASSERT_TRUE(r.ok());
  double shares = 0;
  for (const ArenaEntry& e : r->entries) {
    EXPECT_EQ(e.wins.size(), 30u);
    shares += e.win_share();
    const auto [lo, hi] = e.win_interval();
    EXPECT_LE(lo, e.win_share());
    EXPECT_GE(hi, e.win_share());
  }
  // Every game has winners whose shares add up to one.
  EXPECT_NEAR(shares, 1.0, 1e-9);
  // The same seed plays the same games.
  const auto again = run_arena(setup);
  ASSERT_TRUE(again.ok());
  for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(again->entries[p].wins, r->entries[p].wins);
  // Every game is won alone, tied or lost by each entry, and a tied game is one in which some
  // entry shared the win.
  int tied = 0;
  for (std::size_t g = 0; g < 30; ++g) {
    bool shared = false;
    for (const ArenaEntry& e : r->entries) shared = shared || (e.wins[g] > 0 && e.wins[g] < 1);
    tied += shared ? 1 : 0;
  }
  EXPECT_EQ(r->tied, tied);
  for (const ArenaEntry& e : r->entries) EXPECT_EQ(e.won_alone() + e.tied() + e.lost(), 30);
  // Rows name the lineup in order.
  const std::string table = arena_table(*r);
  EXPECT_NE(table.find("| 1 | random |"), std::string::npos) << table;
  EXPECT_NE(table.find("30 games"), std::string::npos) << table;
  EXPECT_NE(table.find(std::to_string(tied) + " tied"), std::string::npos) << table;
}

TEST(Arena, TableCountsTies) {
  ArenaResult r;
  r.game = "tricky-tribes";
  r.seats = 2;
  r.games = 4;
  r.tied = 1;
  r.entries.resize(2);
  r.entries[0].strategy = "expert";
  r.entries[0].wins = {1, 1, 0.5, 0};
  r.entries[0].places = {1, 1, 1, 2};
  r.entries[1].strategy = "random";
  r.entries[1].wins = {0, 0, 0.5, 1};
  r.entries[1].places = {2, 2, 1, 1};
  EXPECT_EQ(r.entries[0].won_alone(), 2);
  EXPECT_EQ(r.entries[0].tied(), 1);
  EXPECT_EQ(r.entries[0].lost(), 1);
  const std::string table = arena_table(r);
  EXPECT_NE(table.find("4 games"), std::string::npos) << table;
  EXPECT_NE(table.find(", 1 tied"), std::string::npos) << table;
  EXPECT_NE(table.find("| won | tied | lost |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 1 | expert | 62.5% |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 2 | 1 | 1 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 1 | 1 | 2 |"), std::string::npos) << table;
}

}  // namespace
}  // namespace campfire::bots
