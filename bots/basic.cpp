#include "bots/basic.hpp"

#include "bots/policy.hpp"
#include "bots/recollection.hpp"

namespace campfire::bots {

namespace {

class Basic final : public Strategy {
 public:
  explicit Basic(const Game& game)
      : policy_(basic_policy(game.info().id)), memory_(make_recollection(game)) {}

  // A private event names the seat it was addressed to: this one.
  void observe(const Event& event) override {
    if (!event.to.everyone && !event.to.seats.empty()) seat_ = event.to.seats.first();
    if (memory_) memory_->observe(event.body, seat_);
  }

  std::size_t choose(const Decision& d, Rng& rng) override {
    seat_ = d.seat();
    if (policy_ == nullptr) return static_cast<std::size_t>(rng.below(d.legal().size()));
    // The engine's recall where the game runs here, else the one built from events.
    const json* offered = d.recall();
    const json recalled = offered ? json() : (memory_ ? memory_->recall() : json::object());
    const Situation s{d.game(), d.seat(), d.legal(), d.view(), offered ? *offered : recalled};
    return policy_(s, rng);
  }

 private:
  Policy policy_;
  std::unique_ptr<Recollection> memory_;
  Seat seat_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_basic(const Game& game) {
  return std::make_unique<Basic>(game);
}

}  // namespace campfire::bots
