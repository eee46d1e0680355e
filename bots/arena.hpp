// The arena: strategies play each other in-process, many games in a row, with the seats rotated
// so that no strategy keeps the advantage of a seat; it reports each strategy's share of the
// wins and its mean place with 95% confidence intervals, and its thinking time per move.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "bots/strategy.hpp"

namespace campfire::bots {

struct ArenaSetup {
  const Game* game = nullptr;
  json options = json::object();
  // One strategy name per seat; game i puts entry p on seat (p + i) % seats.
  std::vector<std::string> lineup;
  int games = 100;
  std::uint64_t seed = 1;
  StrategyOptions strategy;
  int jobs = 1;  // games played at once, each on its own thread
};

// One lineup entry's record.
struct ArenaEntry {
  std::string strategy;
  std::vector<double> wins;    // per game: 1, a share of a tie (1/k), or 0
  std::vector<double> places;  // per game: 1 for the best
  double think_seconds = 0;
  long moves = 0;
  double slowest_move = 0;  // seconds

  double win_share() const;
  // Games this entry won alone, shared with another seat (a tie), and did not win.
  int won_alone() const;
  int tied() const;
  int lost() const;
  // Wilson score interval of the win share at 95%.
  std::pair<double, double> win_interval() const;
  double mean_place() const;
  // Normal interval of the mean place at 95%.
  std::pair<double, double> place_interval() const;
  double millis_per_move() const { return moves ? 1000 * think_seconds / moves : 0; }
};

struct ArenaResult {
  std::string game;
  int seats = 0;
  int games = 0;
  long actions = 0;
  int tied = 0;  // games won by more than one seat
  std::vector<ArenaEntry> entries;
};

// Plays setup.games games. Refuses (error) an unknown strategy or a bad seat count or option.
Expected<ArenaResult> run_arena(const ArenaSetup& setup);

// The result as a Markdown table, one row per lineup entry, under a line that says how many
// games were played and how many of them tied.
std::string arena_table(const ArenaResult& result);

}  // namespace campfire::bots
