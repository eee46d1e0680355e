// campfire-arena: strategies play each other in-process and the results are printed per game.
//
//   campfire-arena --game pinocchio --lineup expert,basic --games 200
//   campfire-arena --lineup basic,random,random,random --games 500 --jobs 2
#include <CLI/CLI.hpp>

#include <iostream>
#include <sstream>

#include "bots/arena.hpp"
#include "engine/core/registry.hpp"

int main(int argc, char** argv) {
  using namespace campfire;
  CLI::App app{
      "campfire-arena: plays strategies against each other in-process, seats rotated, "
      "and prints each game's win shares, games won, tied and lost, mean places (95% "
      "confidence intervals) and thinking time per move"};
  std::vector<std::string> games;
  std::string lineup = "expert,basic";
  std::string options = "{}";
  bots::ArenaSetup setup;
  app.add_option("--game", games, "game ids (repeat, or comma-separated); default every game")
      ->delimiter(',');
  app.add_option("--lineup", lineup,
                 "one strategy per seat, comma-separated (random, basic, expert)")
      ->capture_default_str();
  app.add_option("--games", setup.games, "games per game id")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--seed", setup.seed, "first seed (game i uses its own seed from it)")
      ->capture_default_str();
  app.add_option("--options", options, "table options as a JSON object")->capture_default_str();
  app.add_option("--think-ms", setup.strategy.think_ms,
                 "expert: milliseconds per move (0: no time limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 600000));
  app.add_option("--think-iterations", setup.strategy.think_iterations,
                 "expert: search iterations per move (0: no limit); with --think-ms 0 the "
                 "results depend only on the seed")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  app.add_option("--jobs", setup.jobs, "games played at once, one thread each")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  CLI11_PARSE(app, argc, argv);

  std::stringstream names(lineup);
  for (std::string name; std::getline(names, name, ',');) setup.lineup.push_back(name);
  try {
    setup.options = json::parse(options);
  } catch (const json::exception& e) {
    std::cerr << "--options is not JSON: " << e.what() << "\n";
    return 2;
  }
  if (games.empty()) {
    for (const Game* g : Registry::builtin().games()) games.push_back(g->info().id);
  }
  for (const std::string& id : games) {
    setup.game = Registry::builtin().find(id);
    if (setup.game == nullptr) {
      std::cerr << "unknown game '" << id << "'\n";
      return 2;
    }
    auto result = bots::run_arena(setup);
    if (!result) {
      std::cerr << id << ": " << result.error().message << "\n";
      return 2;
    }
    std::cout << bots::arena_table(*result) << "\n" << std::flush;
  }
  return 0;
}
