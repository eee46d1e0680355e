#include "clients/bot/strategy.hpp"

namespace campfire::bot {

namespace {

class RandomStrategy final : public Strategy {
 public:
  std::size_t choose(const json&, const json& legal, Rng& rng) override {
    return static_cast<std::size_t>(rng.below(legal.size()));
  }
};

}  // namespace

std::unique_ptr<Strategy> make_strategy(std::string_view name) {
  if (name == "random") return std::make_unique<RandomStrategy>();
  return nullptr;
}

const std::vector<std::string>& strategy_names() {
  static const std::vector<std::string> names = {"random"};
  return names;
}

}  // namespace campfire::bot
