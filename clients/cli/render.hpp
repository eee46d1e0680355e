// Protocol messages as plain lines of text, for the line mode (a pipe, a script) and for pages
// of the full-screen client: the table of any game in words, the game list, the rooms, the result.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "clients/cli/seat_store.hpp"
#include "clients/cli/text.hpp"

namespace campfire::cli {

using json = nlohmann::json;

// A full state: room line, the seats while waiting, the table, an open window and the numbered
// legal actions.
std::string render_state(const json& state);
Lines games_lines(const json& games);
std::string render_games(const json& games);
// The seats you hold on this server (with what the open list says of them), then the open rooms.
Lines rooms_lines(const json& rooms, const std::vector<HeldSeat>& held, const json& games);
std::string render_rooms(const json& rooms, const std::vector<HeldSeat>& held = {},
                         const json& games = json());
// The result of a game, from `seat`'s point of view (seat < 0 for a spectator).
Lines result_lines(const json& result, const json& players, int seat);
std::string render_result(const json& result, const json& players, int seat);
// Event and label texts with their cards in colour.
Line decorate(const std::string& text);
// A game's display name from the list ("Tricky Tribes"), or its id.
std::string game_name(const json& games, const std::string& id);

std::string plain(const Lines& lines);

}  // namespace campfire::cli
