// Policies: the rules of thumb behind the `basic` strategy, one per game, written from the rule
// texts. A policy reads only what its seat knows (its view, what it recalls having been shown,
// its legal actions) and returns the index of the action it picks. `expert` also plays them for
// every seat inside its simulations, so they are cheap: no search, a few passes over the view.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <span>
#include <string_view>

#include "engine/core/game.hpp"
#include "engine/core/rng.hpp"

namespace campfire::bots {

using json = nlohmann::json;

// Everything a seat may go by when it must move. Borrowed: it lives no longer than its parts.
struct Situation {
  const Game& game;
  Seat seat;
  std::span<const Action> legal;  // never empty
  const json& view;               // State::view(seat)
  const json& recall;             // State::recall(seat), or the same built from events
};

using Policy = std::size_t (*)(const Situation& situation, Rng& rng);

// The basic policy for a game id, or null when the game has none.
Policy basic_policy(std::string_view game_id);

std::size_t basic_pinocchio(const Situation& s, Rng& rng);
std::size_t basic_naked_gibbon(const Situation& s, Rng& rng);
std::size_t basic_fib_fibonacci(const Situation& s, Rng& rng);
std::size_t basic_spider_monkey(const Situation& s, Rng& rng);
std::size_t basic_tricky_tribes(const Situation& s, Rng& rng);

}  // namespace campfire::bots
