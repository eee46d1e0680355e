// The commands a player types, shared by the full-screen client and the line mode: what each
// one sends, and the words for help and usage. Seats are numbered from 1 here, as people count;
// the protocol numbers them from 0.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "clients/cli/session.hpp"
#include "clients/cli/text.hpp"

namespace campfire::cli {

using json = nlohmann::json;

std::vector<std::string> words(const std::string& line);
bool all_digits(const std::string& s);

// Every command with a line of explanation (`keys` adds the full-screen keys).
Lines help_lines(bool keys);

// What a typed line asks for. At most one of the fields is set.
struct Outcome {
  std::optional<std::string> request_id;  // a request went out; its reply is on its way
  std::string request_type;               // and its type
  std::string say;                        // something to tell the player now
  bool error = false;                     // `say` is a refusal
  bool help = false;
  bool quit = false;
  bool wait = false;
  std::optional<std::string> rules;  // the game whose rules to show
};

// The create_room request for `create GAME SEATS [key=value ...] [private]`, or what is wrong
// with the line. Options are matched to the game's (when the game list is known) without regard
// to case; turn=, timeout=, grace= and takeover= set the room's timers.
struct CreateParse {
  json message;
  std::string error;
};
CreateParse parse_create(const std::vector<std::string>& w, const json& games);

// The id of the game `text` names: its id, a unique beginning of it, or its name.
std::string resolve_game(const std::string& text, const json& games);

// Runs one command line (not a move number: see play()).
Outcome run_command(const std::string& line, Session& session);

// Plays legal action `number` (from 1) of the latest state.
Outcome play(std::size_t number, Session& session, long long& acted_version);

}  // namespace campfire::cli
