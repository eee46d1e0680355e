// A game: immutable rules and options that make fresh states, plus the card and action notation
// that clients see on the wire.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/action.hpp"
#include "engine/core/options.hpp"
#include "engine/core/rng.hpp"
#include "engine/core/schema.hpp"
#include "engine/core/state.hpp"
#include "engine/core/types.hpp"

namespace campfire {

using json = nlohmann::json;

struct GameInfo {
  std::string id;       // on the wire: "pinocchio", "naked-gibbon", ...
  std::string name;     // for people: "Pinocchio"
  std::string summary;  // one sentence for the lobby
  int min_seats = 2;
  int max_seats = 2;
  std::vector<OptionSpec> options;
  // No game may take more actions than this; the generic tests hold every game to it.
  int max_actions = 100000;

  json to_json() const;
};

class Game {
 public:
  virtual ~Game() = default;

  virtual const GameInfo& info() const = 0;
  // Checks that go beyond one option's type and range ("Dummy Tribe needs 2 or 3 players").
  virtual Status check_options(const Options& options, int seats) const;
  // Every card the game is played with, in a fixed order.
  virtual std::vector<Card> deck(const Options& options, int seats) const = 0;
  // The starting state from a deck whose first card is the top, and the generator for any later
  // shuffles (already advanced past the initial shuffle).
  virtual std::unique_ptr<State> start(int seats, const Options& options,
                                       std::vector<Card> deck_top_first, Rng rng) const = 0;

  // Card notation, used for the test-mode deck order and in views and events.
  virtual std::string card_code(Card card) const = 0;
  virtual std::optional<Card> parse_card(std::string_view code) const = 0;

  // The shape of the game's view, moves and events, in the game's own words (see schema.hpp).
  virtual schema::GameSchema schema() const = 0;

  // Actions as clients send them: a JSON object with a "move" field. The system's timeout is
  // {"move": "timeout", "window": id} for every game.
  json action_to_json(const Action& action) const;
  Expected<Action> action_from_json(const json& action) const;

  // Validates seats and options, shuffles (or takes the given deck order) and starts.
  Expected<std::unique_ptr<State>> new_state(int seats, const Options& options,
                                             std::uint64_t seed,
                                             const std::vector<Card>* deck_order) const;
  Expected<Options> parse_options(const json& given, int seats) const;

 protected:
  // The game's own moves. decode_action gets an object whose "move" is a string; it must refuse
  // unknown moves, missing or mistyped fields, and produce the canonical Action.
  virtual json encode_action(const Action& action) const = 0;
  virtual Expected<Action> decode_action(const std::string& move, const json& action) const = 0;
};

}  // namespace campfire
