// "random": every legal action equally likely. The baseline every other strategy must beat, and
// what the server plays for a seat whose player is away.
#pragma once

#include <memory>

#include "bots/strategy.hpp"

namespace campfire::bots {

std::unique_ptr<Strategy> make_random(const Game& game);

}  // namespace campfire::bots
