#include "bots/strategy.hpp"

#include <array>

#include "bots/basic.hpp"
#include "bots/expert.hpp"
#include "bots/random.hpp"

namespace campfire::bots {

namespace {

// Every strategy by name. A new one is a file of its own and one line here.
struct Entry {
  std::string_view name;
  std::unique_ptr<Strategy> (*make)(const Game& game, const StrategyOptions& options);
};
constexpr std::array kStrategies = {
    Entry{"random", [](const Game& g, const StrategyOptions&) { return make_random(g); }},
    Entry{"basic", [](const Game& g, const StrategyOptions&) { return make_basic(g); }},
    Entry{"expert", &make_expert},
};

}  // namespace

Decision::Decision(const Game& game, Seat seat, std::span<const Action> legal,
                   std::span<const std::string> labels, std::function<json()> view)
    : game_(&game), seat_(seat), legal_(legal), labels_(labels), make_view_(std::move(view)) {}

Decision::Decision(const Game& game, Seat seat, std::span<const Action> legal,
                   std::span<const std::string> labels, json view)
    : game_(&game), seat_(seat), legal_(legal), labels_(labels), view_(std::move(view)) {}

const json* Decision::recall() const {
  if (!recall_ && make_recall_) recall_ = make_recall_();
  return recall_ ? &*recall_ : nullptr;
}

std::unique_ptr<State> Decision::sample(Rng& rng) const {
  return sampler_ ? sampler_(rng) : nullptr;
}

void Decision::offer(std::function<json()> recall,
                     std::function<std::unique_ptr<State>(Rng&)> sampler) {
  make_recall_ = std::move(recall);
  sampler_ = std::move(sampler);
}

const std::string& Decision::label(std::size_t i) const {
  static const std::string none;
  return i < labels_.size() ? labels_[i] : none;
}

const json& Decision::view() const {
  if (!view_) view_ = make_view_ ? make_view_() : json();
  return *view_;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const Game& game,
                                        const StrategyOptions& options) {
  for (const Entry& e : kStrategies) {
    if (e.name == name) return e.make(game, options);
  }
  return nullptr;
}

const std::vector<std::string>& strategy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const Entry& e : kStrategies) all.emplace_back(e.name);
    return all;
  }();
  return names;
}

}  // namespace campfire::bots
