// Fib-Fibonacci by rule of thumb: the first to empty their hand wins, so play a card whenever one
// fits and draw only when none does. Among the plays, take the ones that can rarely be made:
// a rule-8 pair first, then natural run cards (7s and 8s before the low ones), a joker with a
// bonus card, and keep the wild 6s and 4s for when nothing else fits. A 4 only swaps a card (the
// hand stays as large), so it is worth it only to fetch a joker or a 6.
#include "bots/policy.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/fib_fibonacci/fib_fibonacci.hpp"

namespace campfire::bots {

namespace {

namespace ff = campfire::fib_fibonacci;
namespace sc = campfire::standard;

int rank_of(std::int32_t card) {
  const Card c = static_cast<Card>(card);
  return sc::is_joker(c) ? 0 : sc::rank(c);
}

// The card a 4 would take into the hand, read from the view.
Card four_target(const Situation& s, const Action& a) {
  const json& v = s.view;
  std::string code;
  switch (a.arg(1)) {
    case ff::kZoneBase:
      code = v["bases"][static_cast<std::size_t>(a.arg(2))]["card"].get<std::string>();
      break;
    case ff::kZoneRun:
      code =
          v["runs"][static_cast<std::size_t>(a.arg(2))]["cards"][static_cast<std::size_t>(a.arg(3))]
              .get<std::string>();
      break;
    default:
      code = v["sideArea"][static_cast<std::size_t>(a.arg(2))].get<std::string>();
      break;
  }
  return s.game.parse_card(code).value_or(kNoCard);
}

double score(const Situation& s, const Action& a) {
  switch (a.kind) {
    case ff::kPair:
      return 100;
    case ff::kRun:
      if (rank_of(a.arg(0)) == 6) return 40;
      return 80 + rank_of(a.arg(0));
    case ff::kJoker:
      if (a.argc > 1) return rank_of(a.arg(1)) == 6 ? 55 : 70;
      return 50;
    case ff::kRestart:
      return 30;
    case ff::kFour: {
      const Card taken = four_target(s, a);
      if (taken != kNoCard && (sc::is_joker(taken) || rank_of(taken) == 6)) return 35;
      return 5;
    }
    case ff::kDraw:
      return 10;
    default:  // pass
      return 0;
  }
}

}  // namespace

std::size_t basic_fib_fibonacci(const Situation& s, Rng& rng) {
  std::size_t best = 0;
  double best_score = -1;
  int ties = 0;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const double v = score(s, s.legal[i]);
    if (v > best_score) {
      best = i;
      best_score = v;
      ties = 1;
    } else if (v == best_score && rng.below(static_cast<std::uint64_t>(++ties)) == 0) {
      best = i;
    }
  }
  return best;
}

}  // namespace campfire::bots
