// Every game's rules page for players (docs/rules/<game-id>.md), built into the server.
#pragma once

#include <optional>
#include <string_view>

namespace campfire::server {

// The markdown rules of a game by its id ("spider-monkey"), or nothing for an unknown id.
std::optional<std::string_view> rules_document(std::string_view game_id);

}  // namespace campfire::server
