// Turns protocol messages into lines a person can read. Only the protocol's generic fields are
// needed; a game may add a view renderer, and every other game's view is shown as compact JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace campfire::cli {

using json = nlohmann::json;

// "blue-bow-tie" -> "Blue Bow Tie"; other card codes ("TH") are left as they are.
std::string card_words(const std::string& code);

// A full state: room line, players, the view, an open window and the numbered legal actions.
std::string render_state(const json& state);
// The view alone, indented; per game where a renderer exists, otherwise generic.
std::string render_view(const std::string& game, const json& view, const json& players);
std::string render_games(const json& games);
std::string render_rooms(const json& rooms);
// The result of a game, from `seat`'s point of view (seat < 0 for a spectator).
std::string render_result(const json& result, const json& players, int seat);

}  // namespace campfire::cli
