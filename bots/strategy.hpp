// Bots: strategies that choose a seat's moves from what that seat knows. A strategy is made by
// name for a game, hears the events addressed to its seat, and when the seat must move is handed
// a Decision: the game, the seat, its legal actions (with their words) and the seat's view. It
// never sees the true state, so no bot can play on a card its seat has not seen.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/event.hpp"
#include "engine/core/game.hpp"
#include "engine/core/rng.hpp"

namespace campfire::bots {

using json = nlohmann::json;

// One moment where a seat must move. The legal actions and their labels are borrowed: the
// Decision lives no longer than whoever computed them. The view is built on first use, so a
// strategy that does not read it costs nothing for it.
//
// Where the game runs in this process (the server, the arena) a Decision also offers what the
// seat recalls (State::recall) and samples of full states it cannot tell from the real one
// (State::determinize): both come from the engine, which guarantees they tell nothing the seat
// was not shown. A bot over the network has neither and builds its recall from events.
class Decision {
 public:
  Decision(const Game& game, Seat seat, std::span<const Action> legal,
           std::span<const std::string> labels, std::function<json()> view);
  Decision(const Game& game, Seat seat, std::span<const Action> legal,
           std::span<const std::string> labels, json view);

  const Game& game() const { return *game_; }
  Seat seat() const { return seat_; }
  // Every action the seat may take now; never empty.
  std::span<const Action> legal() const { return legal_; }
  // Words for legal()[i] ("challenge Bella's Red Trousers"), or empty when none were given.
  const std::string& label(std::size_t i) const;
  // The seat's view, as its client receives it.
  const json& view() const;
  // What the seat was shown earlier that its view no longer shows; null when not offered.
  const json* recall() const;
  // A full state the seat cannot tell from the real one; null when not offered.
  std::unique_ptr<State> sample(Rng& rng) const;
  bool can_sample() const { return static_cast<bool>(sampler_); }
  // Offers recall() and sample() from the engine state of a game played in this process.
  void offer(std::function<json()> recall, std::function<std::unique_ptr<State>(Rng&)> sampler);
  // True once whoever asked no longer wants the answer (the table moved on, the server stops): a
  // strategy that searches ends its search early and answers with what it has.
  bool abandoned() const { return abandoned_ && abandoned_(); }
  void offer_abandon(std::function<bool()> abandoned) { abandoned_ = std::move(abandoned); }

 private:
  const Game* game_;
  Seat seat_;
  std::span<const Action> legal_;
  std::span<const std::string> labels_;
  std::function<json()> make_view_;
  mutable std::optional<json> view_;
  std::function<json()> make_recall_;
  mutable std::optional<json> recall_;
  std::function<std::unique_ptr<State>(Rng&)> sampler_;
  std::function<bool()> abandoned_;
};

// Tuning shared by every strategy made by name.
struct StrategyOptions {
  // expert: wall-clock milliseconds per move (0: no limit) and iterations per move (0: none).
  int think_ms = 700;
  int think_iterations = 0;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  // An event addressed to this strategy's seat, in the order they happen: what the seat was
  // shown. Strategies that remember (cards seen, claims made) keep it here.
  virtual void observe(const Event& event) { (void)event; }
  // The index of the chosen entry of decision.legal().
  virtual std::size_t choose(const Decision& decision, Rng& rng) = 0;
  // True when choose() may take the search budget (expert): a server then calls it on a worker,
  // with a Decision whose parts that worker owns, and calls nothing else on this strategy (not
  // even observe) until it has returned. Strategies that answer at once are called in place.
  virtual bool searches() const { return false; }
};

// The strategy called `name` for `game`, or null when there is none by that name for it.
std::unique_ptr<Strategy> make_strategy(std::string_view name, const Game& game,
                                        const StrategyOptions& options = {});
// Every strategy name, for help texts and request validation.
const std::vector<std::string>& strategy_names();

}  // namespace campfire::bots
