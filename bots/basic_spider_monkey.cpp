// Spider Monkey by rule of thumb: learn and lower your own line. A card whose value is unknown
// counts as the average of the cards not yet seen. Keep a drawn or discarded card when it is
// lower than the worst card of the line; slap only cards remembered to match, never on a guess;
// give the highest known card away with a Jack, look at an unknown card of your own with a
// Queen; call "Spider Monkey" only when the line is known and clearly lower than the others'.
#include <algorithm>
#include <map>
#include <vector>

#include "bots/policy.hpp"
#include "bots/reading.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/spider_monkey/spider_monkey.hpp"

namespace campfire::bots {

namespace {

namespace sm = campfire::spider_monkey;
namespace sc = campfire::standard;

struct Table {
  Seat me = 0;
  int seats = 0;
  std::vector<std::vector<int>> lines;         // slot ids per seat
  std::map<std::pair<Seat, int>, Card> known;  // (seat, slot) -> card this seat remembers
  double unknown_value = 6.75;                 // mean points of the cards not seen

  // Points of a slot for this seat: the card if known, else the mean of the unseen cards.
  double value(Seat seat, int slot) const {
    auto it = known.find({seat, slot});
    return it == known.end() ? unknown_value : sm::points(it->second);
  }
  bool knows(Seat seat, int slot) const { return known.count({seat, slot}) > 0; }
  double line_total(Seat seat) const {
    double t = 0;
    for (int slot : lines[static_cast<std::size_t>(seat)]) t += value(seat, slot);
    return t;
  }
  int unknown_in_line(Seat seat) const {
    int n = 0;
    for (int slot : lines[static_cast<std::size_t>(seat)]) n += !knows(seat, slot);
    return n;
  }
  // The own slot with the highest value (unknown slots count as the mean), or -1.
  int worst_own_slot() const {
    int best = -1;
    double worst = -1;
    for (int slot : lines[static_cast<std::size_t>(me)]) {
      const double v = value(me, slot);
      if (v > worst) {
        worst = v;
        best = slot;
      }
    }
    return best;
  }
};

Table read_table(const Situation& s) {
  Table t;
  t.me = s.seat;
  for (const json& line : s.view["lines"]) t.lines.push_back(line.get<std::vector<int>>());
  t.seats = static_cast<int>(t.lines.size());
  // Cards whose place the seat does not know: the deck minus the discards and remembered cards.
  std::vector<bool> seen(52, false);
  auto mark = [&](const json& code) {
    if (auto c = s.game.parse_card(code.get<std::string>())) seen[*c] = true;
    return s.game.parse_card(code.get<std::string>());
  };
  for (const json& c : s.view["discard"]) mark(c);
  if (s.view.contains("drawn")) mark(s.view["drawn"]);
  if (s.recall.contains("known")) {
    for (const json& k : s.recall["known"]) {
      if (auto c = mark(k["card"])) t.known[{k["seat"].get<Seat>(), k["slot"].get<int>()}] = *c;
    }
  }
  double sum = 0;
  int n = 0;
  for (int c = 0; c < 52; ++c) {
    if (seen[static_cast<std::size_t>(c)]) continue;
    sum += sm::points(static_cast<Card>(c));
    ++n;
  }
  if (n > 0) t.unknown_value = sum / n;
  return t;
}

std::size_t find(const Situation& s, std::uint8_t kind, int a = -1, int b = -1) {
  for (std::size_t i = 0; i < s.legal.size(); ++i) {
    const Action& x = s.legal[i];
    if (x.kind == kind && (a < 0 || x.arg(0) == a) && (b < 0 || x.arg(1) == b)) return i;
  }
  return s.legal.size();
}

std::size_t or_first(const Situation& s, std::size_t i) {
  return i < s.legal.size() ? i : 0;
}

int rank_of_words(const std::string& w) {
  if (w == "J") return sc::kJack;
  if (w == "Q") return sc::kQueen;
  if (w == "K") return sc::kKing;
  if (w == "A") return sc::kAce;
  return std::stoi(w);
}

bool sure_slap(const Situation& s, const Table& t, int slot) {
  auto it = t.known.find({t.me, slot});
  if (it == t.known.end()) return false;
  for (const json& r : s.view["slapRanks"]) {
    if (rank_of_words(r.get<std::string>()) == sc::rank(it->second)) return true;
  }
  return false;
}

std::size_t slap(const Situation& s, const Table& t) {
  for (int slot : t.lines[static_cast<std::size_t>(t.me)]) {
    if (sure_slap(s, t, slot)) return or_first(s, find(s, sm::kSlap, slot));
  }
  return or_first(s, find(s, sm::kSlapDone));
}

// The opponent card a Jack should take: the lowest this seat knows, else one of the caller's
// (confident players hold low cards), else one of the player with the shortest line.
std::pair<Seat, int> jack_target(const Table& t) {
  std::pair<Seat, int> best{-1, -1};
  double low = t.unknown_value - 1;
  for (Seat p = 0; p < t.seats; ++p) {
    if (p == t.me) continue;
    for (int slot : t.lines[static_cast<std::size_t>(p)]) {
      if (t.knows(p, slot) && t.value(p, slot) < low) {
        low = t.value(p, slot);
        best = {p, slot};
      }
    }
  }
  if (best.first >= 0) return best;
  for (Seat p = 0; p < t.seats; ++p) {
    if (p == t.me || t.lines[static_cast<std::size_t>(p)].empty()) continue;
    if (best.first < 0 || t.lines[static_cast<std::size_t>(p)].size() <
                              t.lines[static_cast<std::size_t>(best.first)].size()) {
      for (int slot : t.lines[static_cast<std::size_t>(p)]) {
        if (!t.knows(p, slot)) {
          best = {p, slot};
          break;
        }
      }
    }
  }
  return best;
}

std::size_t power(const Situation& s, const Table& t) {
  if (s.view["power"] == "queen") {
    for (int slot : t.lines[static_cast<std::size_t>(t.me)]) {
      if (!t.knows(t.me, slot)) return or_first(s, find(s, sm::kUseQueen, t.me, slot));
    }
    return or_first(s, find(s, sm::kSkipPower));
  }
  if (s.view.contains("jackFirst")) {
    const auto target = jack_target(t);
    const std::size_t i = find(s, sm::kUseJack, target.first, target.second);
    return i < s.legal.size() ? i : 0;
  }
  // Give away the highest known card when a lower one can be had.
  int mine = -1;
  double high = 0;
  for (int slot : t.lines[static_cast<std::size_t>(t.me)]) {
    if (t.knows(t.me, slot) && t.value(t.me, slot) > high) {
      high = t.value(t.me, slot);
      mine = slot;
    }
  }
  const auto target = jack_target(t);
  if (mine >= 0 && target.first >= 0 && high > t.value(target.first, target.second) + 2) {
    return or_first(s, find(s, sm::kUseJack, t.me, mine));
  }
  return or_first(s, find(s, sm::kSkipPower));
}

bool should_call(const Table& t) {
  const double mine = t.line_total(t.me);
  if (t.unknown_in_line(t.me) > 1) return false;
  double best_other = 1e9;
  for (Seat p = 0; p < t.seats; ++p) {
    if (p == t.me) continue;
    // Others improve their lines too: count their unknown cards a little below the mean.
    double est = 0;
    for (int slot : t.lines[static_cast<std::size_t>(p)]) {
      est += t.knows(p, slot) ? t.value(p, slot) : 0.8 * t.unknown_value;
    }
    best_other = std::min(best_other, est);
  }
  return mine <= 4 || mine + 6 <= best_other;
}

}  // namespace

bool spider_monkey_sure_slap(const Situation& s, const Action& slap) {
  return slap.kind == sm::kSlap && s.view["phase"] == "slap-window" &&
         sure_slap(s, read_table(s), slap.arg(0));
}

bool spider_monkey_believes_low(const Situation& s) {
  return should_call(read_table(s));
}

std::size_t basic_spider_monkey(const Situation& s, Rng& rng) {
  (void)rng;
  const std::string phase = s.view["phase"].get<std::string>();
  const Table t = read_table(s);
  if (phase == "peek") return 0;
  if (phase == "slap-window") return slap(s, t);
  if (phase == "power") return power(s, t);
  if (phase == "end-turn") return or_first(s, find(s, sm::kEndTurn, should_call(t) ? 1 : 0));
  const int worst = t.worst_own_slot();
  if (phase == "resolve") {
    const Card drawn = *s.game.parse_card(s.view["drawn"].get<std::string>());
    if (worst >= 0 && t.value(t.me, worst) > sm::points(drawn) + 0.5) {
      return or_first(s, find(s, sm::kReplace, worst));
    }
    return or_first(s, find(s, sm::kDiscardDrawn));
  }
  // Draw: take a low discard that beats the worst card by a margin, else draw from the stock.
  const Card top = *s.game.parse_card(s.view["discard"].back().get<std::string>());
  const std::size_t draw = find(s, sm::kDrawStock);
  if (worst >= 0 && (draw == s.legal.size() ||
                     (sm::points(top) <= 4 && t.value(t.me, worst) >= sm::points(top) + 3))) {
    return or_first(s, find(s, sm::kTakeDiscard, worst));
  }
  return or_first(s, draw);
}

}  // namespace campfire::bots
