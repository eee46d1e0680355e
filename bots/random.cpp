#include "bots/random.hpp"

namespace campfire::bots {

namespace {

class Random final : public Strategy {
 public:
  std::size_t choose(const Decision& decision, Rng& rng) override {
    return static_cast<std::size_t>(rng.below(decision.legal().size()));
  }
};

}  // namespace

std::unique_ptr<Strategy> make_random(const Game&) {
  return std::make_unique<Random>();
}

}  // namespace campfire::bots
