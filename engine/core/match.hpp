// A game in progress together with everything needed to rebuild it: the game id, seat count,
// options, seed, optional deck order and the ordered log of accepted actions. Serialising a match
// writes exactly those; restoring replays the log.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"

namespace campfire {

using json = nlohmann::json;

struct LoggedAction {
  Seat seat;
  Action action;
};

class Match {
 public:
  // `deck_order` is null or an array of card codes, top card first.
  static Expected<Match> create(const Game& game, int seats, const json& options,
                                std::uint64_t seed, const json& deck_order = nullptr);
  static Expected<Match> restore(const Registry& registry, const json& saved);

  Match(const Match& other);
  Match& operator=(const Match& other);
  Match(Match&&) noexcept = default;
  Match& operator=(Match&&) noexcept = default;

  const Game& game() const { return *game_; }
  const State& state() const { return *state_; }
  const Options& options() const { return options_; }
  int seats() const { return seats_; }
  std::uint64_t seed() const { return seed_; }
  const std::vector<LoggedAction>& log() const { return log_; }

  // Applies and, when accepted, appends to the log.
  Status apply(Seat seat, const Action& action, Events& events);

  json save() const;
  json log_entry_json(const LoggedAction& entry) const;
  static std::optional<std::uint64_t> parse_seed(const json& seed);

 private:
  Match() = default;

  const Game* game_ = nullptr;
  int seats_ = 0;
  Options options_;
  std::uint64_t seed_ = 0;
  std::optional<std::vector<Card>> deck_order_;
  std::unique_ptr<State> state_;
  std::vector<LoggedAction> log_;
};

}  // namespace campfire
