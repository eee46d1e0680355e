// A seat's memory built from the events addressed to it, for bots that play over the network and
// so have no engine state to ask: the same JSON State::recall gives in-process (for Naked Gibbon
// only the burnmarks; the discards are left out).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/event.hpp"
#include "engine/core/game.hpp"

namespace campfire::bots {

class Recollection {
 public:
  virtual ~Recollection() = default;
  // An event addressed to `me`, in order.
  virtual void observe(const json& event, Seat me) = 0;
  virtual json recall() const = 0;
};

// The recollection of a game, or null for a game whose views show all a seat was shown.
std::unique_ptr<Recollection> make_recollection(const Game& game);

}  // namespace campfire::bots
