// How long games last under random play, and how often the bounds Campfire adds to the rule
// texts decide one: Naked Gibbon's jump cap per round, Fib-Fibonacci's turnLimit, Spider
// Monkey's turn cap and Tricky Tribes' round limit. Prints a table; asserts nothing.
//
//   campfire-game-lengths [--games N] [--seed S] [--game ID]
//
// Each case plays N seeded games where every acting seat picks a uniformly random legal action
// and an open window times out as often as the generic engine tests let it. Fib-Fibonacci is
// also played "eagerly": a player who can put a card on the table does so (a 4 only when
// nothing else fits) and draws only when nothing fits, as people play it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/tricky_tribes/tricky_tribes.hpp"

namespace campfire {
namespace {

struct Case {
  std::string game;
  int seats;
  json options;
  bool eager = false;
};

// What one game showed: its actions, the longest stretch the bound counts, and whether the
// bound decided it.
struct Length {
  long actions = 0;
  long longest = 0;  // jumps and doubts in a round, turns in a game, rounds
  bool bound = false;
};

// Whether an event says the game's own bound ended a round or game, and what it counts.
struct Watch {
  void on(const std::string& game, const json& e, Length& out) {
    const std::string type = e.value("type", "");
    if (game == "naked-gibbon") {
      if (type == "jump" || type == "doubt") out.longest = std::max(out.longest, ++count);
      if (type == "round-over") {
        count = 0;
        out.bound |= e.value("stalemate", false);
      }
    } else if (game == "fib-fibonacci") {
      if (type == "draw" || type == "pass" || type == "joker" || type == "run" ||
          type == "restart" || type == "four" || type == "pair") {
        out.longest = std::max(out.longest, ++count);
      }
      if (type == "game-over") {
        count = 0;
        out.bound |= e.value("ending", "") == "turn-limit";
      }
    } else if (game == "spider-monkey") {
      if (type == "turn") out.longest = std::max(out.longest, ++count);
      if (type == "reveal") out.bound |= e.value("end", "") == "turn-limit";
    } else if (game == "tricky-tribes") {
      if (type == "round-start") out.longest = std::max(out.longest, ++count);
      if (type == "game-over") out.bound |= count >= tricky_tribes::kRoundLimit;
    }
  }
  // Tricky Tribes deals its first round before any event can be seen.
  explicit Watch(const std::string& game) : count(game == "tricky-tribes" ? 1 : 0) {}
  long count;
};

// Fib-Fibonacci's eager player: a play that puts a card down, else a 4, else draw or pass.
std::size_t eager_pick(const Game& g, const std::vector<Action>& legal, Rng& rng) {
  std::vector<std::size_t> plays;
  std::vector<std::size_t> fours;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const std::string move = g.action_to_json(legal[i]).value("move", "");
    if (move == "four") {
      fours.push_back(i);
    } else if (move != "draw" && move != "pass") {
      plays.push_back(i);
    }
  }
  if (!plays.empty()) return plays[rng.below(plays.size())];
  if (!fours.empty() && rng.below(2) == 0) return fours[rng.below(fours.size())];
  return rng.below(legal.size());
}

Length play_one(const Game& g, const Case& c, std::uint64_t seed) {
  auto created = Match::create(g, c.seats, c.options, seed);
  if (!created) {
    std::fprintf(stderr, "%s: %s\n", c.game.c_str(), created.error().message.c_str());
    std::exit(1);
  }
  Match m = std::move(*created);
  Rng rng(seed * 7919 + 1);
  Length out;
  Watch watch(c.game);
  while (!m.state().over()) {
    const SeatSet acting = m.state().to_act();
    const auto w = m.state().window();
    Seat seat = kSystem;
    Action a;
    if (w && (acting.empty() || rng.below(4) == 0)) {
      a = Action::timeout(w->id);
    } else {
      std::vector<Seat> seats;
      acting.for_each([&](Seat s) { seats.push_back(s); });
      seat = seats[rng.below(seats.size())];
      const auto legal = m.state().legal_actions(seat);
      a = legal[c.eager ? eager_pick(g, legal, rng) : rng.below(legal.size())];
    }
    Events events;
    if (auto err = m.apply(seat, a, events)) {
      std::fprintf(stderr, "%s: a legal action was refused: %s\n", c.game.c_str(),
                   err->message.c_str());
      std::exit(1);
    }
    for (const Event& e : events.list()) watch.on(c.game, e.body, out);
    ++out.actions;
  }
  out.longest = std::max(out.longest, watch.count);
  return out;
}

long percentile(std::vector<long> v, double p) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  return v[i];
}

}  // namespace
}  // namespace campfire

int main(int argc, char** argv) {
  using namespace campfire;
  int games = 1000;
  std::uint64_t seed = 1;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--games") {
      games = std::atoi(argv[i + 1]);
    } else if (flag == "--seed") {
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (flag == "--game") {
      only = argv[i + 1];
    } else {
      std::fprintf(stderr, "usage: %s [--games N] [--seed S] [--game ID]\n", argv[0]);
      return 2;
    }
  }
  if (argc % 2 == 0 || games < 1) {
    std::fprintf(stderr, "usage: %s [--games N] [--seed S] [--game ID]\n", argv[0]);
    return 2;
  }
  std::vector<Case> cases;
  for (int n = 2; n <= 6; ++n) {
    cases.push_back({"naked-gibbon", n, json::object()});
    cases.push_back({"naked-gibbon", n, {{"survival", true}}});
  }
  cases.push_back({"naked-gibbon", 6, {{"survival", true}, {"lossesToEndMatch", 3}}});
  cases.push_back({"naked-gibbon", 4, {{"jokers", 0}, {"heartlessHat", false}}});
  cases.push_back({"fib-fibonacci", 2, json::object()});
  cases.push_back({"fib-fibonacci", 2, json::object(), true});
  cases.push_back({"fib-fibonacci", 2, {{"turnLimit", 1000}}});
  cases.push_back({"fib-fibonacci", 2, {{"turnLimit", 1000}}, true});
  for (int n : {2, 4, 8}) {
    cases.push_back({"spider-monkey", n, json::object()});
    cases.push_back({"spider-monkey", n, {{"cumulative", true}}});
    cases.push_back({"spider-monkey", n, {{"incorrectSlapMode", "CONTINUE_BOTH"}}});
  }
  for (int n : {2, 3, 4, 6}) {
    cases.push_back({"tricky-tribes", n, json::object()});
    cases.push_back({"tricky-tribes", n, {{"endMode", "manual"}}});
  }
  cases.push_back({"tricky-tribes", 6, {{"teams", "triples"}}});

  std::printf("%d games per case, seed %llu\n\n", games, static_cast<unsigned long long>(seed));
  std::printf(
      "| Game | Seats | Options | Actions p50 / p99 / max | Counted p50 / p99 / max | "
      "Decided by the bound |\n|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    if (!only.empty() && c.game != only) continue;
    const Game* g = Registry::builtin().find(c.game);
    std::vector<long> actions;
    std::vector<long> longest;
    int bound = 0;
    for (int i = 0; i < games; ++i) {
      const Length l = play_one(*g, c, seed + static_cast<std::uint64_t>(i) * 1000003ull);
      actions.push_back(l.actions);
      longest.push_back(l.longest);
      bound += l.bound;
    }
    std::string opts = c.options.empty() ? std::string("defaults") : c.options.dump();
    if (c.eager) opts += " (eager players)";
    std::printf("| %s | %d | %s | %ld / %ld / %ld | %ld / %ld / %ld | %d of %d |\n", c.game.c_str(),
                c.seats, opts.c_str(), percentile(actions, 0.5), percentile(actions, 0.99),
                percentile(actions, 1.0), percentile(longest, 0.5), percentile(longest, 0.99),
                percentile(longest, 1.0), bound, games);
    std::fflush(stdout);
  }
  std::printf(
      "\nCounted: Naked Gibbon the jumps and doubts of its longest round, Fib-Fibonacci the turns "
      "of its longest game, Spider Monkey its turns, Tricky Tribes its rounds.\n");
  return 0;
}
