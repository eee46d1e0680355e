#include "engine/core/registry.hpp"

namespace campfire {

// Each game folder defines campfire::<folder>::game().
#define CAMPFIRE_GAME(folder) \
  namespace folder {          \
  const Game& game();         \
  }
#include "engine/games.def"
#undef CAMPFIRE_GAME

const Registry& Registry::builtin() {
  static const Registry registry = [] {
    Registry r;
#define CAMPFIRE_GAME(folder) r.games_.push_back(&folder::game());
#include "engine/games.def"
#undef CAMPFIRE_GAME
    return r;
  }();
  return registry;
}

const Game* Registry::find(std::string_view id) const {
  for (const Game* g : games_) {
    if (g->info().id == id) return g;
  }
  return nullptr;
}

}  // namespace campfire
