// Naked Gibbon by rule of thumb. Jump honestly when a card allows it: exposed table cards first
// (they are what burns), then the lowest hand card that does, keeping aces (they put the fire
// out for the next player). Without an honest jump: spot moult a low card onto a burned (safe)
// slot for fresh cards, else a panic jump when the deck is likely high enough, else a bluff with
// the lowest card, promising what the unseen cards make most believable. Doubt a face-down card
// when its player probably held no card keeping the promise, the more readily the less this
// gibbon stands to lose (no exposed table card).
#include <algorithm>
#include <array>
#include <vector>

#include "bots/policy.hpp"
#include "bots/reading.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/naked_gibbon/naked_gibbon.hpp"

namespace campfire::bots {

namespace {

namespace ng = campfire::naked_gibbon;
namespace sc = campfire::standard;

int worth(Card c) {
  return sc::is_joker(c) ? 15 : sc::rank(c);
}

// The cards whose whereabouts this seat does not know.
struct Unseen {
  std::vector<Card> cards;

  // How many unseen cards would keep a face-down promise made on `fire`.
  int fitting(ng::Jump jump, int fire) const {
    int n = 0;
    for (Card c : cards) n += ng::promise_kept(jump, c, fire);
    return n;
  }
  // The chance that `held` unseen cards include at least one of `good`.
  double any_of(int good, int held) const {
    const int total = static_cast<int>(cards.size());
    double none = 1.0;
    for (int i = 0; i < held && total - i > 0; ++i) {
      none *= static_cast<double>(std::max(0, total - good - i)) / (total - i);
    }
    return 1.0 - none;
  }
};

Unseen unseen_by(const Situation& s) {
  const json& v = s.view;
  std::vector<bool> seen(54, false);
  int total = v["deck"].get<int>() + v["discard"].get<int>();
  auto see = [&](const json& code) {
    if (auto c = s.game.parse_card(code.get<std::string>())) seen[*c] = true;
  };
  for (const json& n : v["handCounts"]) total += n.get<int>();
  for (const json& n : v["burnmarks"]) total += n.get<int>();
  for (const json& row : v["table"]) {
    for (const json& c : row) {
      if (!c.is_null()) {
        see(c);
        ++total;
      }
    }
  }
  for (const json& p : v["fire"]) {
    ++total;
    if (p.contains("card")) see(p["card"]);
  }
  if (v.contains("placing")) {
    for (const json& c : v["placing"]["cards"]) {
      see(c);
      ++total;
    }
  }
  if (v.contains("hand")) {
    for (const json& c : v["hand"]) see(c);
  }
  for (const char* key : {"burnmarks", "discards"}) {
    if (!s.recall.contains(key)) continue;
    for (const json& e : s.recall[key]) see(e.is_object() ? e["card"] : e);
  }
  Unseen u;
  for (int c = 0; c < total && c < 54; ++c) {
    if (!seen[static_cast<std::size_t>(c)]) u.cards.push_back(static_cast<Card>(c));
  }
  return u;
}

// Whether this gibbon has a table card that a punishment would burn.
bool exposed(const Situation& s) {
  const json& table = s.view["table"][static_cast<std::size_t>(s.seat)];
  const json& burned = s.view["burned"][static_cast<std::size_t>(s.seat)];
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!table[i].is_null() && !burned[i].get<bool>()) return true;
  }
  return false;
}

std::size_t place(const Situation& s) {
  const json& burned = s.view["burned"][s.view["placing"]["seat"].get<std::size_t>()];
  std::vector<Card> cards;
  for (const json& c : s.view["placing"]["cards"])
    cards.push_back(*s.game.parse_card(c.get<std::string>()));
  // Low cards on burned slots, high ones on exposed slots (the lowest exposed card burns).
  std::size_t best = 0;
  int best_score = -1000;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    int score = 0;
    for (int k = 0; k < s.legal[i].argc; ++k) {
      const int w = worth(cards[static_cast<std::size_t>(k)]);
      score += burned[static_cast<std::size_t>(s.legal[i].arg(k))].get<bool>() ? -w : w;
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

// The best doubt, if any is worth it: the index in legal, or legal.size().
std::size_t doubt(const Situation& s, const Unseen& u) {
  std::size_t pick = s.legal.size();
  double lowest = exposed(s) ? 0.3 : 0.45;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    if (s.legal[i].kind != ng::kDoubt) continue;
    const Seat target = s.legal[i].arg(0);
    const json* play = nullptr;
    for (const json& p : s.view["fire"]) {
      if (p["by"].get<Seat>() == target) play = &p;
    }
    if (play == nullptr) continue;
    const ng::Jump jump =
        (*play)["jump"] == "back-flip" ? ng::Jump::kBackFlip : ng::Jump::kSideFlip;
    const int fire = (*play)["before"].get<int>();
    const double honest = u.any_of(u.fitting(jump, fire), 3);
    if (honest < lowest) {
      lowest = honest;
      pick = i;
    }
  }
  return pick;
}

}  // namespace

std::vector<Card> naked_gibbon_unseen(const Situation& s) {
  return unseen_by(s).cards;
}

double naked_gibbon_honest_chance(const std::vector<Card>& unseen, ng::Jump jump, int fire) {
  const Unseen u{unseen};
  return u.any_of(u.fitting(jump, fire), 3);
}

std::size_t basic_naked_gibbon(const Situation& s, Rng& rng) {
  (void)rng;
  const json& v = s.view;
  const std::string phase = v["phase"].get<std::string>();
  if (phase == "place" || phase == "naked-place") return place(s);
  if (phase == "swap") return 0;
  const Unseen u = unseen_by(s);
  if (const std::size_t d = doubt(s, u); d < s.legal.size()) return d;

  const int fire = v["fireNumber"].get<int>();
  const json& table = v["table"][static_cast<std::size_t>(s.seat)];
  const json& burned = v["burned"][static_cast<std::size_t>(s.seat)];
  std::size_t best = s.legal.size();
  double best_score = -1;
  auto consider = [&](std::size_t i, double score) {
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  };
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const Action& a = s.legal[i];
    const Card c = static_cast<Card>(a.arg(0));
    switch (a.kind) {
      case ng::kChestUp: {
        const Card t =
            *s.game.parse_card(table[static_cast<std::size_t>(a.arg(0))].get<std::string>());
        // Exposed table cards go first; among them the lowest.
        const bool safe = burned[static_cast<std::size_t>(a.arg(0))].get<bool>();
        consider(i, (safe ? 60 : 80) - worth(t));
        break;
      }
      case ng::kHandsUp:
        consider(i, 50 - worth(c) - (sc::rank(c) == sc::kAce ? 20 : 0));
        break;
      case ng::kBackFlip:
      case ng::kSideFlip: {
        const ng::Jump j = a.kind == ng::kBackFlip ? ng::Jump::kBackFlip : ng::Jump::kSideFlip;
        if (ng::promise_kept(j, c, fire)) consider(i, 45 - worth(c));
        break;
      }
      default:
        break;
    }
  }
  if (best < s.legal.size()) return best;

  // No honest jump. A spot moult onto a burned slot costs nothing and brings fresh cards.
  std::size_t moult = s.legal.size();
  int moult_worth = 100;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const Action& a = s.legal[i];
    if (a.kind != ng::kSpotMoult || !burned[static_cast<std::size_t>(a.arg(1))].get<bool>())
      continue;
    if (v["hand"].size() < 2) continue;  // moulting the last card brings nothing back
    if (worth(static_cast<Card>(a.arg(0))) < moult_worth) {
      moult_worth = worth(static_cast<Card>(a.arg(0)));
      moult = i;
    }
  }
  if (moult < s.legal.size()) return moult;

  // A panic jump when the deck is probably high enough.
  std::size_t panic = s.legal.size();
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    if (s.legal[i].kind == ng::kRandom) panic = i;
  }
  int high_enough = 0;
  for (Card c : u.cards) high_enough += sc::is_joker(c) || sc::rank(c) >= fire;
  const double p_panic = u.cards.empty() ? 0 : static_cast<double>(high_enough) / u.cards.size();
  if (panic < s.legal.size() && p_panic >= 0.55) return panic;

  // A bluff with the lowest card, promising what is more believable.
  const double back = u.fitting(ng::Jump::kBackFlip, fire);
  const double side = fire >= 1 ? u.fitting(ng::Jump::kSideFlip, fire) : -1;
  std::size_t bluff = s.legal.size();
  int bluff_worth = 100;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const Action& a = s.legal[i];
    const bool wanted = back >= side ? a.kind == ng::kBackFlip : a.kind == ng::kSideFlip;
    if (!wanted) continue;
    if (worth(static_cast<Card>(a.arg(0))) < bluff_worth) {
      bluff_worth = worth(static_cast<Card>(a.arg(0)));
      bluff = i;
    }
  }
  if (bluff == s.legal.size()) {
    for (std::size_t i = 0; i < s.legal.size(); ++i) {
      const Action& a = s.legal[i];
      if ((a.kind == ng::kBackFlip || a.kind == ng::kSideFlip) &&
          worth(static_cast<Card>(a.arg(0))) < bluff_worth) {
        bluff_worth = worth(static_cast<Card>(a.arg(0)));
        bluff = i;
      }
    }
  }
  if (bluff < s.legal.size() && (panic == s.legal.size() || p_panic < 0.35)) return bluff;
  if (panic < s.legal.size()) return panic;
  if (bluff < s.legal.size()) return bluff;
  // Nothing else: the first offered move (a fire bath or a moult onto an exposed slot).
  return 0;
}

}  // namespace campfire::bots
