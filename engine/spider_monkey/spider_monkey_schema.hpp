// Spider Monkey's view, moves and events, declared once (engine/core/schema.hpp): the server serves
// them as JSON Schema and protocol/games/ renders them into the game's page.
#pragma once

#include "engine/core/schema.hpp"

namespace campfire {
class Game;
}

namespace campfire::spider_monkey {

schema::GameSchema game_schema(const Game& game);

}  // namespace campfire::spider_monkey
