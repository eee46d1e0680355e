// "basic": rules of thumb per game (bots/policy.hpp), from the seat's view and what it recalls.
#pragma once

#include <memory>

#include "bots/strategy.hpp"

namespace campfire::bots {

std::unique_ptr<Strategy> make_basic(const Game& game);

}  // namespace campfire::bots
