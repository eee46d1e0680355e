#include "bots/expert.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "bots/basic.hpp"
#include "bots/models.hpp"

namespace campfire::bots {

namespace {

// Exploration constant of UCB1 for rewards in [0, 1].
constexpr double kExplore = 0.7;
// Attempts to draw a sample the belief weighting keeps before taking one anyway.
constexpr int kSampleTries = 30;

struct Edge {
  Action action;
  double reward = 0;
  int visits = 0;
  int available = 0;
};

struct Node {
  std::vector<Edge> edges;
  std::size_t edge(const Action& a) {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      if (edges[i].action == a) return i;
    }
    edges.push_back(Edge{a});
    return edges.size() - 1;
  }
};

std::uint64_t view_key(const State& s, Seat me) {
  std::string text;
  s.view_text(me, text);
  return std::hash<std::string>{}(text);
}

// The views seen so far and one more, as one key.
std::uint64_t and_then(std::uint64_t seen, std::uint64_t view) {
  return seen ^ (view + 0x9e3779b97f4a7c15ULL + (seen << 6) + (seen >> 2));
}

// One decision's search. Each sweep draws one sample and plays every root move still in the
// running from it, with the same random numbers for all of them, so that the moves are compared
// on the same deal and the same luck (common random numbers): the differences between their
// results are far less noisy than the results. A move that falls clearly behind the best is
// dropped. After the root move the seat's later decisions are a tree of its information sets
// (keyed by its view, or by every view since the root where the model asks), chosen by UCB1
// over the moves each sample offers, where the game's model says a tree pays (GameModel::tree);
// the other seats, and this one beyond the tree or without one, play the basic policy.
class Search {
 public:
  Search(const Situation& root, const Sampler& sample, Rng& rng, GameModel& model)
      : root_(root),
        sample_(sample),
        rng_(rng),
        model_(&model),
        policy_(basic_policy(root.game.info().id)) {
    model_->prepare(root);
    noise_ = model_->noise();
    for (Seat s = 0; s < kMaxSeats; ++s) {
      noise_of_[s] = s == root.seat ? noise_ : model_->noise_of(s);
    }
    searched_later_ = model_->tree();
    for (std::size_t i = 0; i < root.legal.size(); ++i) {
      if (model_->allowed(root, root.legal[i])) active_.push_back(i);
    }
    // The model leaves at least one move (else every one stays open).
    if (active_.empty()) {
      for (std::size_t i = 0; i < root.legal.size(); ++i) active_.push_back(i);
    }
    values_.resize(root.legal.size());
  }

  // Plays the moves still in the running once each; returns how many playouts that took.
  int sweep(ExpertStats& stats) {
    std::unique_ptr<State> sample = draw(stats);
    if (horizon_ < 0) horizon_ = model_->horizon(sample->seats());
    const std::uint64_t luck = rng_.next();
    for (std::size_t i : active_) {
      Rng sim(luck);
      auto s = sample->clone();
      Events none(false);
      s->apply(root_.seat, root_.legal[i], none);
      values_[i].push_back(playout(*s, sim));
    }
    ++sweeps_;
    stats.iterations += static_cast<int>(active_.size());
    if (sweeps_ % 4 == 0 && active_.size() > 2) prune();
    return static_cast<int>(active_.size());
  }

  std::size_t choices() const { return active_.size(); }

  // The move with the best mean result.
  std::size_t best() const {
    std::size_t pick = active_.front();
    double best_mean = -1;
    for (std::size_t i : active_) {
      const double m = mean(values_[i]);
      if (m > best_mean) {
        best_mean = m;
        pick = i;
      }
    }
    return pick;
  }

 private:
  static double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
  }

  // Drops the moves whose paired difference to the best is clearly negative (three standard
  // errors), keeping at least two.
  void prune() {
    const std::size_t lead = best();
    const std::vector<double>& b = values_[lead];
    std::vector<std::pair<double, std::size_t>> behind;
    for (std::size_t i : active_) {
      if (i == lead) continue;
      const std::vector<double>& v = values_[i];
      const std::size_t n = std::min(v.size(), b.size());
      double sum = 0;
      double sq = 0;
      for (std::size_t k = v.size() - n, j = b.size() - n; k < v.size(); ++k, ++j) {
        const double d = v[k] - b[j];
        sum += d;
        sq += d * d;
      }
      const double m = sum / static_cast<double>(n);
      const double var = std::max(0.0, sq / static_cast<double>(n) - m * m);
      const double se = std::sqrt(var / static_cast<double>(n)) + 1e-9;
      if (m + 3 * se < 0) behind.emplace_back(m, i);
    }
    std::vector<std::size_t> keep;
    for (std::size_t i : active_) {
      const bool dropped =
          std::any_of(behind.begin(), behind.end(), [&](const auto& d) { return d.second == i; });
      if (!dropped) keep.push_back(i);
    }
    if (keep.size() < 2) return;
    active_ = std::move(keep);
  }

  // From just after the root move to the end of the game or the model's horizon: the value for
  // the searching seat.
  double playout(State& s, Rng& sim) {
    std::vector<std::pair<Node*, std::size_t>> path;
    bool in_tree = searched_later_;
    bool stopped = false;
    int moves = 0;
    std::vector<Action>& legal = legal_;
    Events none(false);
    const bool remember = model_->views_forget();
    std::uint64_t seen = 0;  // with `remember`: every view of the seat since the root move
    while (!s.over()) {
      if (++moves > horizon_) {
        stopped = true;
        break;
      }
      if (remember && in_tree) seen = and_then(seen, view_key(s, root_.seat));
      const SeatSet acting = s.to_act();
      if (acting.empty()) {
        s.apply(kSystem, Action::timeout(s.window()->id), none);
        continue;
      }
      // Several seats at once (a window): one of them, at random, moves first.
      Seat seat = acting.first();
      if (acting.size() > 1) {
        std::vector<Seat> all;
        acting.for_each([&](Seat x) { all.push_back(x); });
        seat = all[sim.below(all.size())];
      }
      s.legal_actions(seat, legal);
      Action a;
      if (seat == root_.seat && in_tree) {
        Node& node = tree_[remember ? seen : view_key(s, seat)];
        const bool fresh = node.edges.empty();
        const std::size_t e = select(node, legal, sim);
        path.emplace_back(&node, e);
        a = node.edges[e].action;
        if (fresh) in_tree = false;
      } else {
        a = play(s, seat, legal, sim, stopped);
        if (stopped) break;
      }
      s.apply(seat, a, none);
    }
    const double value = s.over() ? model_->final_value(s.result(), root_.seat, s.seats())
                                  : model_->estimate(s, root_.seat);
    for (auto& [node, edge] : path) {
      ++node->edges[edge].visits;
      node->edges[edge].reward += value;
    }
    return value;
  }

  // A sample, kept with the probability the model gives it.
  std::unique_ptr<State> draw(ExpertStats& stats) {
    std::unique_ptr<State> s;
    for (int attempt = 0; attempt < kSampleTries; ++attempt) {
      s = sample_(rng_);
      const double w = model_->weight(*s, root_.seat);
      if (w >= 1.0 || static_cast<double>(rng_.below(1u << 20)) < w * (1u << 20)) break;
      ++stats.rejected;
    }
    return s;
  }

  // UCB1 over the actions this sample offers; untried ones first, in random order.
  std::size_t select(Node& node, const std::vector<Action>& legal, Rng& sim) {
    offered_.clear();
    for (const Action& a : legal) offered_.push_back(node.edge(a));
    untried_.clear();
    for (std::size_t i : offered_) {
      Edge& e = node.edges[i];
      ++e.available;
      if (e.visits == 0) untried_.push_back(i);
    }
    if (!untried_.empty()) return untried_[sim.below(untried_.size())];
    std::size_t best = offered_.front();
    double best_score = -1;
    for (std::size_t i : offered_) {
      const Edge& e = node.edges[i];
      const double score =
          e.reward / e.visits +
          kExplore * std::sqrt(std::log(static_cast<double>(e.available)) / e.visits);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return best;
  }

  // Another seat's move, or this seat's beyond the tree: the basic policy, now and then a random
  // move (as often as the model expects of that seat). Sets `stop` when the model ends the
  // playout here.
  Action play(const State& s, Seat seat, const std::vector<Action>& legal, Rng& sim, bool& stop) {
    const double noise = seat >= 0 && seat < kMaxSeats ? noise_of_[seat] : noise_;
    if (policy_ == nullptr || sim.below(1000) < static_cast<std::uint64_t>(noise * 1000)) {
      return legal[sim.below(legal.size())];
    }
    const json view = s.view(seat);
    if (seat == root_.seat && model_->stop(view)) {
      stop = true;
      return Action{};
    }
    const json recall = s.recall(seat);
    const Situation here{root_.game, seat, legal, view, recall};
    return legal[policy_(here, sim)];
  }

  const Situation& root_;
  const Sampler& sample_;
  Rng& rng_;
  GameModel* model_;
  Policy policy_;
  double noise_ = 0;
  std::array<double, kMaxSeats> noise_of_{};  // per seat, the root seat's own being noise_
  bool searched_later_ = true;                // the seat's later moves are a tree
  int horizon_ = -1;
  std::vector<std::size_t> active_;
  std::vector<std::vector<double>> values_;  // per root move, one result per sweep it played
  int sweeps_ = 0;
  std::unordered_map<std::uint64_t, Node> tree_;
  std::vector<Action> legal_;
  std::vector<std::size_t> offered_;
  std::vector<std::size_t> untried_;
};

}  // namespace

std::size_t expert_choose(const Situation& situation, const Sampler& sample,
                          const ExpertBudget& budget, Rng& rng, ExpertStats* stats,
                          GameModel* model) {
  if (situation.legal.size() == 1) return 0;
  ExpertStats local;
  ExpertStats& st = stats ? *stats : local;
  std::unique_ptr<GameModel> fresh;
  if (model == nullptr) {
    fresh = model_for(situation.game);
    model = fresh.get();
  }
  Search search(situation, sample, rng, *model);
  if (search.choices() == 1) return search.best();
  const auto start = std::chrono::steady_clock::now();
  const int most = budget.iterations > 0 ? budget.iterations
                   : budget.millis > 0   ? std::numeric_limits<int>::max()
                                         : 1000;
  for (int played = 0; played < most;) {
    if (budget.millis > 0 &&
        std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(budget.millis)) {
      break;
    }
    if (budget.abandoned && budget.abandoned()) break;
    played += search.sweep(st);
  }
  return search.best();
}

namespace {

class Expert final : public Strategy {
 public:
  Expert(const Game& game, const StrategyOptions& options)
      : basic_(make_basic(game)), model_(model_for(game)) {
    budget_.iterations = options.think_iterations;
    budget_.millis = options.think_ms;
  }

  void observe(const Event& event) override {
    basic_->observe(event);
    model_->observe(event.body);
  }

  std::size_t choose(const Decision& d, Rng& rng) override {
    if (!d.can_sample()) return basic_->choose(d, rng);
    const json* recall = d.recall();
    const json none = json::object();
    const Situation s{d.game(), d.seat(), d.legal(), d.view(), recall ? *recall : none};
    const Sampler sample = [&d](Rng& r) { return d.sample(r); };
    ExpertBudget budget = budget_;
    budget.abandoned = [&d] { return d.abandoned(); };
    return expert_choose(s, sample, budget, rng, nullptr, model_.get());
  }

  bool searches() const override { return true; }

 private:
  std::unique_ptr<Strategy> basic_;
  // Kept across decisions: it has heard the game so far (GameModel::observe).
  std::unique_ptr<GameModel> model_;
  ExpertBudget budget_;
};

}  // namespace

std::unique_ptr<Strategy> make_expert(const Game& game, const StrategyOptions& options) {
  return std::make_unique<Expert>(game, options);
}

}  // namespace campfire::bots
