#include "bots/arena.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "engine/core/match.hpp"

namespace campfire::bots {

namespace {

constexpr double kZ = 1.96;

struct GameRecord {
  std::vector<double> wins;
  std::vector<double> places;
  std::vector<double> think;
  std::vector<long> moves;
  std::vector<double> slowest;
  long actions = 0;
  bool tied = false;
};

// One game: lineup entry p plays seat (p + index) % seats.
Expected<GameRecord> play_game(const ArenaSetup& setup, int index) {
  const Game& game = *setup.game;
  const int seats = static_cast<int>(setup.lineup.size());
  const std::uint64_t seed = setup.seed * 1000003ull + static_cast<std::uint64_t>(index);
  auto made = Match::create(game, seats, setup.options, seed);
  if (!made) return made.error();
  Match& m = *made;
  std::vector<std::unique_ptr<Strategy>> by_seat(static_cast<std::size_t>(seats));
  std::vector<int> entry_of(static_cast<std::size_t>(seats));
  for (int p = 0; p < seats; ++p) {
    const int seat = (p + index) % seats;
    by_seat[seat] = make_strategy(setup.lineup[p], game, setup.strategy);
    entry_of[seat] = p;
  }
  GameRecord rec;
  rec.think.assign(static_cast<std::size_t>(seats), 0);
  rec.moves.assign(static_cast<std::size_t>(seats), 0);
  rec.slowest.assign(static_cast<std::size_t>(seats), 0);
  Rng rng(seed ^ 0xA7E4Aull);
  std::vector<Action> legal;
  while (!m.state().over()) {
    const State& s = m.state();
    const SeatSet acting = s.to_act();
    Seat seat = kSystem;
    Action action;
    if (acting.empty()) {
      action = Action::timeout(s.window()->id);
    } else {
      // Several seats at once (a window): whoever happens to be first.
      std::vector<Seat> all;
      acting.for_each([&](Seat x) { all.push_back(x); });
      seat = all[rng.below(all.size())];
      s.legal_actions(seat, legal);
      Decision d(game, seat, legal, {}, [&s, seat] { return s.view(seat); });
      d.offer([&s, seat] { return s.recall(seat); },
              [&s, seat](Rng& r) { return s.determinize(seat, r); });
      const auto start = std::chrono::steady_clock::now();
      const std::size_t pick = by_seat[seat]->choose(d, rng);
      const double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const int p = entry_of[seat];
      rec.think[p] += took;
      rec.slowest[p] = std::max(rec.slowest[p], took);
      ++rec.moves[p];
      action = legal.at(pick);
    }
    Events events;
    if (auto err = m.apply(seat, action, events)) return *err;
    ++rec.actions;
    for (const Event& e : events.list()) {
      for (Seat q = 0; q < seats; ++q) {
        if (e.to.includes(q)) by_seat[q]->observe(e);
      }
    }
  }
  const Result r = m.state().result();
  rec.tied = r.winners.size() > 1;
  rec.wins.assign(static_cast<std::size_t>(seats), 0);
  rec.places.assign(static_cast<std::size_t>(seats), 0);
  for (Seat s = 0; s < seats; ++s) {
    const int p = entry_of[s];
    const bool won = std::find(r.winners.begin(), r.winners.end(), s) != r.winners.end();
    rec.wins[p] = won ? 1.0 / static_cast<double>(r.winners.size()) : 0;
    rec.places[p] = r.places.empty() ? 1 : r.places[s];
  }
  return rec;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

}  // namespace

double ArenaEntry::win_share() const {
  return mean(wins);
}

std::pair<double, double> ArenaEntry::win_interval() const {
  const double n = static_cast<double>(wins.size());
  if (n == 0) return {0, 1};
  const double p = win_share();
  const double denom = 1 + kZ * kZ / n;
  const double centre = (p + kZ * kZ / (2 * n)) / denom;
  const double half = kZ * std::sqrt(p * (1 - p) / n + kZ * kZ / (4 * n * n)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

int ArenaEntry::won_alone() const {
  return static_cast<int>(std::count(wins.begin(), wins.end(), 1.0));
}

int ArenaEntry::tied() const {
  return static_cast<int>(
      std::count_if(wins.begin(), wins.end(), [](double w) { return w > 0 && w < 1; }));
}

int ArenaEntry::lost() const {
  return static_cast<int>(std::count(wins.begin(), wins.end(), 0.0));
}

double ArenaEntry::mean_place() const {
  return mean(places);
}

std::pair<double, double> ArenaEntry::place_interval() const {
  const double n = static_cast<double>(places.size());
  const double m = mean_place();
  if (n < 2) return {m, m};
  double ss = 0;
  for (double x : places) ss += (x - m) * (x - m);
  const double half = kZ * std::sqrt(ss / (n - 1) / n);
  return {m - half, m + half};
}

Expected<ArenaResult> run_arena(const ArenaSetup& setup) {
  if (setup.game == nullptr) return make_error("bad_game", "no game given");
  const int seats = static_cast<int>(setup.lineup.size());
  if (seats < setup.game->info().min_seats || seats > setup.game->info().max_seats) {
    return make_error("bad_seats", setup.game->info().name + " is played by " +
                                       std::to_string(setup.game->info().min_seats) + " to " +
                                       std::to_string(setup.game->info().max_seats) +
                                       " players, the lineup has " + std::to_string(seats));
  }
  for (const std::string& name : setup.lineup) {
    if (!make_strategy(name, *setup.game, setup.strategy)) {
      return make_error("bad_strategy", "unknown strategy '" + name + "'");
    }
  }
  if (auto opts = setup.game->parse_options(setup.options, seats); !opts) return opts.error();
  if (setup.games < 1) return make_error("bad_games", "play at least one game");

  std::vector<std::optional<GameRecord>> records(static_cast<std::size_t>(setup.games));
  std::optional<Error> failure;
  std::mutex lock;
  auto worker = [&](int first, int step) {
    for (int i = first; i < setup.games; i += step) {
      auto rec = play_game(setup, i);
      std::lock_guard<std::mutex> hold(lock);
      if (rec) {
        records[static_cast<std::size_t>(i)] = std::move(*rec);
      } else if (!failure) {
        failure = rec.error();
      }
    }
  };
  const int jobs = std::clamp(setup.jobs, 1, setup.games);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker, j, jobs);
  worker(0, jobs);
  for (auto& t : threads) t.join();
  if (failure) return *failure;

  ArenaResult result;
  result.game = setup.game->info().id;
  result.seats = seats;
  result.games = setup.games;
  result.entries.resize(static_cast<std::size_t>(seats));
  for (int p = 0; p < seats; ++p) result.entries[p].strategy = setup.lineup[p];
  for (const auto& rec : records) {
    result.actions += rec->actions;
    result.tied += rec->tied ? 1 : 0;
    for (int p = 0; p < seats; ++p) {
      ArenaEntry& e = result.entries[p];
      e.wins.push_back(rec->wins[p]);
      e.places.push_back(rec->places[p]);
      e.think_seconds += rec->think[p];
      e.moves += rec->moves[p];
      e.slowest_move = std::max(e.slowest_move, rec->slowest[p]);
    }
  }
  return result;
}

std::string arena_table(const ArenaResult& r) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line,
                "%s, %d seats, %d games (%.0f actions per game), %d tied (won by more than one "
                "seat)\n\n",
                r.game.c_str(), r.seats, r.games,
                r.games ? static_cast<double>(r.actions) / r.games : 0.0, r.tied);
  out += line;
  out +=
      "| player | strategy | win share | 95% CI | won | tied | lost | mean place | 95% CI | "
      "ms/move | slowest ms |\n";
  out += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t p = 0; p < r.entries.size(); ++p) {
    const ArenaEntry& e = r.entries[p];
    const auto [wl, wh] = e.win_interval();
    const auto [pl, ph] = e.place_interval();
    std::snprintf(
        line, sizeof line,
        "| %zu | %s | %.1f%% | %.1f-%.1f%% | %d | %d | %d | %.2f | %.2f-%.2f | %.1f | %.0f "
        "|\n",
        p + 1, e.strategy.c_str(), 100 * e.win_share(), 100 * wl, 100 * wh, e.won_alone(), e.tied(),
        e.lost(), e.mean_place(), pl, ph, e.millis_per_move(), 1000 * e.slowest_move);
    out += line;
  }
  return out;
}

}  // namespace campfire::bots
