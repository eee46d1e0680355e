// Pinocchio by rule of thumb: tell the truth whenever the card allows it; when it does not, claim
// the matching item that is most believable. Challenge a claim when it is more likely a lie than
// the truth, assuming players tell the truth when they can, and corrected by how often this
// player was caught lying so far.
#include <array>

#include "bots/policy.hpp"
#include "engine/pinocchio/pinocchio.hpp"

namespace campfire::bots {

namespace {

namespace pc = campfire::pinocchio;

// Copies of each item whose place the seat does not know (the box, stacks, others' hidden cards).
struct Unseen {
  std::array<int, pc::kItems> copies{};
  int total = 0;

  void remove(Card c) {
    if (c < pc::kItems && copies[c] > 0) {
      --copies[c];
      --total;
    }
  }
  // Unseen copies of items that may follow `previous` (every item when there is none).
  int matching(int previous) const {
    int n = 0;
    for (int i = 0; i < pc::kItems; ++i) {
      if (previous < 0 || pc::matches(static_cast<Card>(previous), static_cast<Card>(i))) {
        n += copies[i];
      }
    }
    return n;
  }
};

Card item_of(const Game& g, const json& code) {
  return g.parse_card(code.get<std::string>()).value_or(kNoCard);
}

// What the seat recalls of the pile under its top card (an empty list when it recalls nothing).
const json& recalled(const Situation& s, const char* key) {
  static const json none = json::array();
  const auto it = s.recall.find(key);
  return it == s.recall.end() ? none : *it;
}

Unseen unseen_by(const Situation& s) {
  Unseen u;
  u.copies.fill(pc::kCopies);
  u.total = pc::kItems * pc::kCopies;
  // The cards challenges turned over, and this seat's own cards still face down.
  for (const json& r : recalled(s, "revealed")) u.remove(item_of(s.game, r["card"]));
  for (const json& p : recalled(s, "played")) u.remove(item_of(s.game, p["card"]));
  if (s.view.contains("yourCard")) u.remove(item_of(s.game, s.view["yourCard"]));
  return u;
}

int items_matching(int previous) {
  if (previous < 0) return pc::kItems;
  int k = 0;
  for (int i = 0; i < pc::kItems; ++i)
    k += pc::matches(static_cast<Card>(previous), static_cast<Card>(i));
  return k;
}

// The chance that the last claim is true, if its player told the truth whenever the card
// allowed and otherwise named any matching item.
double chance_true(const Situation& s) {
  const json& last = s.view["lastClaim"];
  const Card claim = item_of(s.game, last["claim"]);
  const int previous = last.contains("mustMatch") ? item_of(s.game, last["mustMatch"]) : -1;
  const Unseen u = unseen_by(s);
  const double n_claim = u.copies[claim];
  if (n_claim <= 0 || u.total <= 0) return 0.0;
  const double cannot_match = u.total - u.matching(previous);
  double p = n_claim / (n_claim + cannot_match / items_matching(previous));
  // How often has this player been caught? Blend in what the challenges showed.
  int truths = 0;
  int lies = 0;
  for (const json& r : recalled(s, "revealed")) {
    if (r["by"] != last["by"]) continue;
    (r["truthful"].get<bool>() ? truths : lies) += 1;
  }
  if (truths + lies >= 3) p = 0.5 * p + 0.5 * (truths + 1.0) / (truths + lies + 2.0);
  return p;
}

}  // namespace

std::size_t basic_pinocchio(const Situation& s, Rng& rng) {
  const std::string phase = s.view["phase"].get<std::string>();
  auto find = [&](std::uint8_t kind, int item = -1) -> std::size_t {
    for (std::size_t i = 0; i < s.legal.size(); ++i) {
      if (s.legal[i].kind == kind && (item < 0 || s.legal[i].arg(0) == item)) return i;
    }
    return s.legal.size();
  };
  if (phase != "play") {
    const std::size_t pick = find(chance_true(s) < 0.5 ? pc::kChallenge : pc::kBelieve);
    return pick < s.legal.size() ? pick : 0;
  }
  const Card mine = item_of(s.game, s.view["yourCard"]);
  if (const std::size_t truth = find(pc::kAnnounce, mine); truth < s.legal.size()) return truth;
  // A lie: the matching item with the most copies nobody has seen, so it is believable.
  const Unseen u = unseen_by(s);
  std::size_t best = 0;
  int best_copies = -1;
  int ties = 0;
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const int copies = u.copies[static_cast<std::size_t>(s.legal[i].arg(0))];
    if (copies > best_copies) {
      best = i;
      best_copies = copies;
      ties = 1;
    } else if (copies == best_copies && rng.below(static_cast<std::uint64_t>(++ties)) == 0) {
      best = i;
    }
  }
  return best;
}

}  // namespace campfire::bots
