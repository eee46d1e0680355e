// "expert": information-set Monte Carlo tree search (after Cowling, Powley and Whitehouse's
// single-observer ISMCTS). Every iteration draws a full state the seat cannot tell from the real
// one (State::determinize, then weighed by what the other players' moves suggest about their
// hidden cards), descends a tree of the seat's own information sets (keyed by its view), picks
// its moves there by UCB1 over the actions available in that sample, lets the other seats play
// the basic policy (leaving it for a random move as often as the game's model, which has heard
// the game so far, expects of each), plays the rest of the game out with it, and credits the
// result. The move played most often from the root is chosen. The true state is never read: only
// the sampler touches it, and the sampler forgets where the hidden cards are.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "bots/policy.hpp"
#include "bots/strategy.hpp"
#include "engine/core/state.hpp"

namespace campfire::bots {

struct ExpertBudget {
  // Iterations per move; 0 for no limit (then millis decides). With a limit and no time limit
  // the choice depends only on the seed, which tests and the arena rely on.
  int iterations = 0;
  // Wall-clock milliseconds per move; 0 for no limit. The server default stays under a second.
  int millis = 700;
  // Asked between sweeps: true ends the search with the best move found so far.
  std::function<bool()> abandoned;
};

// Draws a full state consistent with what the deciding seat knows.
using Sampler = std::function<std::unique_ptr<State>(Rng& rng)>;

struct ExpertStats {
  int iterations = 0;
  int rejected = 0;  // samples dropped by the belief weighting
};

// The "expert" strategy: searches where the decision offers samples, and plays basic where it
// does not (a bot over the network).
std::unique_ptr<Strategy> make_expert(const Game& game, const StrategyOptions& options);

class GameModel;

// The index of the chosen entry of situation.legal. `model` is the game's model as the seat's
// strategy keeps it (having heard the game so far), or null for a fresh one.
std::size_t expert_choose(const Situation& situation, const Sampler& sample,
                          const ExpertBudget& budget, Rng& rng, ExpertStats* stats = nullptr,
                          GameModel* model = nullptr);

}  // namespace campfire::bots
