// Every game Campfire hosts. Adding a game is one folder under engine/ and one line in games.def.
#pragma once

#include <string_view>
#include <vector>

#include "engine/core/game.hpp"

namespace campfire {

class Registry {
 public:
  static const Registry& builtin();

  const Game* find(std::string_view id) const;
  const std::vector<const Game*>& games() const { return games_; }

 private:
  std::vector<const Game*> games_;
};

}  // namespace campfire
