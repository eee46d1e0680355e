// A game's page for protocol/games/<id>.md, made from its declaration (schema.hpp): the options,
// the cards, every field of the view, every move and every event in the game's own words, with
// examples taken from seeded games and a view in the middle of one.
#pragma once

#include <string>

#include "engine/core/game.hpp"

namespace campfire {

std::string game_page(const Game& game);

}  // namespace campfire
