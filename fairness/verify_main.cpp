// campfire-verify REPLAY.json: checks that a finished game was dealt fairly and played by the
// rules. It checks the server seed against the commitment every state carried, derives the seed
// from it and every seat's contribution, deals the deck again, replays every action with the
// engine and compares the result. It prints "fair" and exits 0, or prints each difference and
// exits 1 (2 when the file cannot be read).
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/core/registry.hpp"
#include "fairness/fairness.hpp"

int main(int argc, char** argv) {
  std::string path;
  bool verbose = false;
  CLI::App app{
      "campfire-verify: checks a Campfire replay (GET /api/replays/CODE): the commitment, the "
      "seed's derivation, the deal and every action"};
  app.add_option("replay", path, "the replay's JSON file ('-' reads standard input)")->required();
  app.add_flag("--verbose,-v", verbose, "list every check made");
  CLI11_PARSE(app, argc, argv);

  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path);
    if (!in) {
      std::cerr << "campfire-verify: cannot read " << path << "\n";
      return 2;
    }
    text << in.rdbuf();
  }
  nlohmann::json replay;
  try {
    replay = nlohmann::json::parse(text.str());
  } catch (const std::exception& e) {
    std::cerr << "campfire-verify: " << path << " is not JSON: " << e.what() << "\n";
    return 2;
  }
  const auto verdict = campfire::fairness::verify(campfire::Registry::builtin(), replay);
  if (verbose) {
    for (const auto& check : verdict.checks) std::cout << "checked: " << check << "\n";
  }
  if (verdict.fair) {
    std::cout << "fair" << std::endl;
    return 0;
  }
  std::cout << "not fair:"
            << "\n";
  for (const auto& p : verdict.problems) std::cout << "  " << p << "\n";
  std::cout.flush();
  return 1;
}
