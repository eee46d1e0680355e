// The bots library plays on engine actions; campfire-bot hears JSON. This adapter turns a `state`
// message into a Decision (the game from the registry, each legal action decoded by the game's
// own notation) and an `event` message into the Event a strategy observes. The action to send back
// is the chosen entry of the state's `legal`, unchanged.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "bots/strategy.hpp"
#include "engine/core/registry.hpp"

namespace campfire::bot {

using json = nlohmann::json;

// What a state message offers its seat, decoded. Owns what its Decision borrows.
class StateChoice {
 public:
  // Refuses a state that names no known game, has no seat, or lists an action the game does not
  // know (error code bad_state).
  static Expected<StateChoice> read(const json& state, const Registry& registry);

  const Game& game() const { return *game_; }
  Seat seat() const { return seat_; }
  const std::vector<Action>& legal() const { return legal_; }
  // Valid while this StateChoice lives and is not moved.
  bots::Decision decision() const;

 private:
  const Game* game_ = nullptr;
  Seat seat_ = 0;
  std::vector<Action> legal_;
  std::vector<std::string> labels_;
  json view_;
};

// An `event` message as the strategy of `seat` observes it.
Event observed_event(const json& message, Seat seat);

}  // namespace campfire::bot
