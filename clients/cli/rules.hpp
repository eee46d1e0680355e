// A game's rules, as the server serves them (GET /api/games/<id>/rules, Markdown).
#pragma once

#include <string>

#include "clients/cli/link.hpp"

namespace campfire::cli {

struct RulesPage {
  std::string markdown;
  std::string error;  // set instead when there is nothing to show, in words
};

RulesPage fetch_rules(const Endpoint& server, const std::string& game);

}  // namespace campfire::cli
