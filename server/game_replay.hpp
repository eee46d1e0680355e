// A stored game replayed move by move with its engine, for people: every step's views (one per
// seat and the spectators'), who acts, and the events of the step in words with their audience.
// The browser's replay viewer draws these steps (GET /api/replays/CODE/steps), and a page that
// reloads asks for its recent events (`history`), so no client ever needs a game's rules.
// Step 0 is the deal; step k follows the k-th action of the log.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

namespace campfire {

using json = nlohmann::json;

// A name a seat went by from one move of the log on (0: from the deal).
struct NameFrom {
  std::size_t from_move = 0;
  std::string name;
};
// Every seat's names, oldest first: a seat renamed during the game keeps its old name for the
// moves it made before.
using NameHistory = std::vector<std::vector<NameFrom>>;

class GameReplay {
 public:
  // `saved` is a match as Match::save() writes it (game, seats, options, seed, deckOrder, log);
  // `names` are the display names by seat, put in place of {seat:N} in every text: the names
  // each seat had when the step's move was made.
  static Expected<GameReplay> open(const Registry& registry, const json& saved, NameHistory names);
  // The same with one name per seat for the whole game.
  static Expected<GameReplay> open(const Registry& registry, const json& saved,
                                   const std::vector<std::string>& names);

  // How many steps there are: the deal and one per logged action.
  int steps() const { return static_cast<int>(log_.size()) + 1; }

  // Steps [from, from + count) clipped to the game, each
  //   {"step": k, "seat": who acted (null for the deal or a timeout), "toAct": [...],
  //    "events": [{"to": null | [seats], "type": ..., "text": ...}, ...],
  //    "views": [view of seat 0, ...], "public": spectators' view}
  json steps_json(int from, int count) const;

  // The newest `max` events `viewer` may read (a seat, or -1 for a spectator), oldest first,
  // as the room sends them ({"type", "text", ...} with names in the text).
  json recent_events(Seat viewer, int max) const;

 private:
  GameReplay(const Match& start, std::vector<LoggedAction> log, NameHistory names)
      : start_(start), log_(std::move(log)), names_(std::move(names)) {}

  // Every seat's name when move `move` of the log was made.
  std::vector<std::string> names_at(std::size_t move) const;
  json event_json(const Event& e, bool with_audience, const std::vector<std::string>& names) const;

  Match start_;  // the game as dealt, before any action
  std::vector<LoggedAction> log_;
  NameHistory names_;
};

// `text` with every {seat:N} replaced by names[N] ("seat N+1" where no name is known).
std::string with_names(const std::string& text, const std::vector<std::string>& names);

}  // namespace campfire
