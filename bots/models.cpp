#include "bots/models.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "bots/reading.hpp"
#include "engine/core/standard_cards.hpp"
#include "engine/naked_gibbon/naked_gibbon.hpp"
#include "engine/pinocchio/pinocchio.hpp"
#include "engine/spider_monkey/spider_monkey.hpp"
#include "engine/tricky_tribes/tricky_tribes.hpp"

namespace campfire::bots {

double place_value(const Result& r, Seat me, int seats) {
  if (r.places.empty() || seats < 2) return 0.5;
  const int place = r.places[static_cast<std::size_t>(me)];
  const auto tied = std::count(r.places.begin(), r.places.end(), place);
  const double mean_place = place + (static_cast<double>(tied) - 1) / 2;
  return (seats - mean_place) / (seats - 1);
}

double GameModel::final_value(const Result& result, Seat me, int seats) const {
  return place_value(result, me, seats);
}

namespace {

namespace pc = campfire::pinocchio;

// The mean over the other seats of a smooth "I am ahead of them" from a lead in points.
template <class Lead>
double ahead_of_others(int seats, Seat me, double scale, Lead lead) {
  double sum = 0;
  int n = 0;
  for (Seat s = 0; s < seats; ++s) {
    if (s == me) continue;
    sum += 1.0 / (1.0 + std::exp(-lead(s) / scale));
    ++n;
  }
  return n ? sum / n : 0.5;
}

// Pinocchio playouts stop a round after the searched move has been answered; fewer noses than
// the others is what counts, and counts for less while many cards are still to be played.
// A player who can tell the truth mostly does. When the seat must decide whether to
// challenge, a sample where the claimant's card is the claimed one is the likeliest; one where
// the card could have been told but was not is rare; one where the card could not match weighs
// in as one of the matching items a liar could name.
class PinocchioModel final : public GameModel {
 public:
  int horizon(int seats) const override { return 2 * seats + 2; }
  bool views_forget() const override { return true; }
  double estimate(const State& state, Seat me) const override {
    const json v = state.view(me);
    const json& noses = v["noses"];
    int left = 0;
    for (const json& n : v["stacks"]) left += n.get<int>();
    return ahead_of_others(state.seats(), me, 0.7 + 0.05 * left, [&](Seat s) {
      return noses[static_cast<std::size_t>(s)].get<double>() -
             noses[static_cast<std::size_t>(me)].get<double>();
    });
  }
  void prepare(const Situation& root) override {
    game_ = &root.game;
    const std::string phase = root.view["phase"].get<std::string>();
    const auto pile_size = root.view["pileSize"].get<std::size_t>();
    active_ = phase != "play" && pile_size > 0;
    if (!active_) return;
    const json& last = root.view["lastClaim"];
    at_ = pile_size - 1;
    claimant_ = last["by"].get<Seat>();
    claim_ = parse(last["claim"]);
    previous_ = last.contains("mustMatch") ? parse(last["mustMatch"]) : -1;
    matching_ = 0;
    for (int i = 0; i < pc::kItems; ++i) {
      matching_ += previous_ < 0 || pc::matches(static_cast<Card>(previous_), static_cast<Card>(i));
    }
  }

  double weight(const State& sample, Seat) const override {
    if (!active_) return 1.0;
    // The claimant remembers the card it played; so does the sample.
    const Card card = pc::recalled_card(sample, claimant_, at_).value_or(kNoCard);
    if (card == kNoCard) return 1.0;
    if (card == claim_) return 1.0;
    const bool could_match = previous_ < 0 || pc::matches(static_cast<Card>(previous_), card);
    // A deliberate lie (10%) spread over the other matching items, against a forced one spread
    // over all of them, each relative to telling the truth (90%).
    if (could_match) return 0.1 / std::max(1, matching_ - 1) / 0.9;
    return 1.0 / matching_ / 0.9;
  }

 private:
  Card parse(const json& code) const {
    return game_->parse_card(code.get<std::string>()).value_or(kNoCard);
  }

  const Game* game_ = nullptr;
  bool active_ = false;
  std::size_t at_ = 0;
  Seat claimant_ = 0;
  Card claim_ = 0;
  int previous_ = -1;
  int matching_ = pc::kItems;
};

// Tricky Tribes plays many rounds to a target: a playout stops when the round ends and the
// position is judged by how far each side still is from the target.
//
// Only number and colour matter in this game, never the suit: two cards of one colour and value
// are the same move, so the search considers one of them and spends its playouts on the others.
class TrickyTribesModel final : public GameModel {
 public:
  void prepare(const Situation& root) override {
    round_ = root.view["round"].get<int>();
    target_ = root.view.contains("target") ? root.view["target"].get<int>() : 0;
  }
  bool allowed(const Situation& root, const Action& move) const override {
    if (move.kind != tricky_tribes::kDraw && offers_draw(root)) return false;
    if (!carries_card(move)) return true;
    for (const Action& earlier : root.legal) {
      if (earlier == move) return true;
      if (carries_card(earlier) && earlier.kind == move.kind &&
          (move.kind != tricky_tribes::kLead || earlier.arg(1) == move.arg(1)) &&
          same_worth(static_cast<Card>(earlier.arg(0)), static_cast<Card>(move.arg(0)))) {
        return false;
      }
    }
    return true;
  }
  bool stop(const json& view) const override { return view["round"].get<int>() != round_; }
  // How often a player leaves the basic policy, judged from the two kinds of public move whose
  // agreement with it needs no hidden card: how a player opens its exchange (basic always draws
  // first) and which card it leads face up when it could have led face down (basic offers only
  // a black up to 8 or a red up to 6 face up). A player who picks at random agrees by chance
  // part of the time, so each judged move counts for the chance that a random one would have
  // disagreed: the estimate is the disagreements over the sum of those chances, starting from
  // the usual noise as if from one judged move, and never below it. Over the same games
  // (`--seed 1`, 300 iterations a move) expert's share against random rose from 90.3% to 92.5%
  // (1000 games); against basic, whose judged moves all agree, nothing changes.
  double noise_of(Seat seat) const override {
    if (seat < 0 || seat >= kMaxSeats) return noise();
    const Judged& j = judged_[static_cast<std::size_t>(seat)];
    const double p = (j.disagreed + noise()) / (j.chances + 1.0);
    return std::clamp(p, noise(), 1.0);
  }
  void observe(const json& e) override {
    if (!e.is_object() || !e.contains("type") || !e["type"].is_string()) return;
    const std::string& type = e["type"].get_ref<const std::string&>();
    if (type == "round-start") {
      if (e.value("round", 0) == 1) judged_.fill(Judged{});
      for (Judged& j : judged_) {
        j.exchanging = false;
        j.forced = false;
      }
      return;
    }
    if (type == "exchange-draw" || type == "exchange-discard" || type == "exchange-skip") {
      Judged* j = judged(e, "seat");
      if (j == nullptr || j->exchanging) return;
      j->exchanging = true;
      // A random first move of the exchange is a draw once in hand size + 2 (the draw, keeping
      // the hand, or discarding one of 9 cards).
      j->chances += 1.0 - 1.0 / 11.0;
      j->disagreed += type == "exchange-draw" ? 0 : 1;
      return;
    }
    if (type == "forced-open") {
      if (Judged* j = judged(e, "by")) j->forced = true;
      return;
    }
    if (type == "lead") {
      Judged* j = judged(e, "by");
      if (j == nullptr) return;
      if (j->forced) {
        j->forced = false;
        return;
      }
      // A random lead is face up half the time, and then, in a full deck, a card basic would
      // not offer 28 times in 52 (the blacks from 9 and the reds from 7).
      j->chances += 0.5 * 28.0 / 52.0;
      if (!e.value("faceUp", false) || !e.contains("card") || !e["card"].is_string()) return;
      const auto card = standard::parse(e["card"].get<std::string>());
      if (!card) return;
      const int v = tricky_tribes::card_value(*card);
      const bool offered_by_basic =
          (standard::is_red(*card) && v <= 6) ||
          (!standard::is_red(*card) && !standard::is_joker(*card) && v <= 8);
      j->disagreed += offered_by_basic ? 0 : 1;
    }
  }
  // The seat's next view shows the cards the others answered and what the sample's trick gave
  // whom, so a tree of its information sets meets almost every node once and plays a random move
  // there: the seat goes on with the basic policy instead, as in Naked Gibbon and Spider Monkey.
  // Over the same games (`--seed 1`, 300 iterations a move) expert's share rose from 69.0% to
  // 75.2% against basic (200 games) and from 89.8% to 90.9% against random (400 games).
  bool tree() const override { return false; }
  double estimate(const State& state, Seat me) const override {
    const json v = state.view(me);
    const json& totals = v["totals"];
    auto side = [&](Seat s) {
      return v.contains("sides") ? v["sides"][static_cast<std::size_t>(s)].get<int>() : s;
    };
    const int mine = totals[static_cast<std::size_t>(side(me))].get<int>();
    int best_other = -1000;
    for (Seat s = 0; s < state.seats(); ++s) {
      if (side(s) != side(me))
        best_other = std::max(best_other, totals[static_cast<std::size_t>(side(s))].get<int>());
    }
    if (best_other == -1000) return 0.5;
    if (target_ <= 0) return 1.0 / (1.0 + std::exp(-(mine - best_other) / 4.0));
    // A race to the target: what counts is the points each side still needs, and a lead counts
    // for more the nearer the end (a round moves a total by a few points either way).
    const double need_me = std::max(0, target_ - mine);
    const double need_other = std::max(0, target_ - best_other);
    const double scale = 2.0 + 0.15 * (need_me + need_other);
    return 1.0 / (1.0 + std::exp(-(need_other - need_me) / scale));
  }

 private:
  // Drawing first is never worse than discarding first or keeping the hand: the drawn card may
  // go straight back out, which leaves the hand as dealt, and the seat has seen one card more.
  // The discard is then searched as a decision of its own, with the drawn card known; judged
  // from the exchange instead, "draw" was played out with whatever discard the playout's first
  // visit happened to try, and so looked worse than it is.
  static bool offers_draw(const Situation& root) {
    return std::any_of(root.legal.begin(), root.legal.end(),
                       [](const Action& a) { return a.kind == tricky_tribes::kDraw; });
  }
  static bool carries_card(const Action& a) {
    return a.kind == tricky_tribes::kLead || a.kind == tricky_tribes::kRespond ||
           a.kind == tricky_tribes::kTrim || a.kind == tricky_tribes::kDiscard;
  }
  static bool same_worth(Card a, Card b) {
    if (standard::is_joker(a) || standard::is_joker(b)) {
      return standard::is_joker(a) && standard::is_joker(b);
    }
    return standard::is_red(a) == standard::is_red(b) &&
           tricky_tribes::card_value(a) == tricky_tribes::card_value(b);
  }

  // What the public moves of one seat said so far.
  struct Judged {
    double disagreed = 0;     // judged moves basic would not have made
    double chances = 0;       // the sum, over judged moves, of a random move's chance to disagree
    bool exchanging = false;  // its first exchange move this round was judged
    bool forced = false;      // its next lead must be face up
  };

  // The record of the seat an event names under `key`, or null (the dummy, or no seat).
  Judged* judged(const json& e, const char* key) {
    if (!e.contains(key) || !e[key].is_number_integer()) return nullptr;
    const int seat = e[key].get<int>();
    if (seat < 0 || seat >= kMaxSeats) return nullptr;
    return &judged_[static_cast<std::size_t>(seat)];
  }

  int round_ = 0;
  int target_ = 0;
  std::array<Judged, kMaxSeats> judged_{};
};

// Naked Gibbon: the first gibbon to burn its tail loses. A playout stops after a few turns; the
// more burnmarks (and exposed table cards) a gibbon has, the likelier it is to lose.
//
// A gibbon who can keep a face-down promise mostly does: a sample in which a doubtable card
// breaks its promise is kept only as often as the chance that its player held no fitting card.
class NakedGibbonModel final : public GameModel {
 public:
  void prepare(const Situation& root) override {
    doubtable_.clear();
    const json& v = root.view;
    if (v["doubtable"].empty()) return;
    const std::vector<Card> unseen = naked_gibbon_unseen(root);
    if (unseen.empty()) return;
    for (const json& seat : v["doubtable"]) {
      const Seat t = seat.get<Seat>();
      const json* play = nullptr;
      for (const json& p : v["fire"]) {
        if (p["by"].get<Seat>() == t) play = &p;
      }
      if (play == nullptr) continue;
      Doubtable d;
      d.seat = t;
      d.index = 0;
      for (std::size_t i = 0; i < v["fire"].size(); ++i) {
        if (&v["fire"][i] == play) d.index = i;
      }
      d.jump = (*play)["jump"] == "back-flip" ? naked_gibbon::Jump::kBackFlip
                                              : naked_gibbon::Jump::kSideFlip;
      d.fire = (*play)["before"].get<int>();
      int fitting = 0;
      for (Card c : unseen) fitting += naked_gibbon::promise_kept(d.jump, c, d.fire);
      const double f = static_cast<double>(fitting) / unseen.size();
      const double honest = naked_gibbon_honest_chance(unseen, d.jump, d.fire);
      // Uniform samples keep the promise with chance f; weighing the others by w makes it
      // `honest`: f / (f + w (1 - f)) = honest.
      d.lie_weight = honest <= f || f >= 1 ? 1.0 : f * (1 - honest) / (honest * (1 - f));
      doubtable_.push_back(d);
    }
  }

  double weight(const State& sample, Seat) const override {
    double w = 1.0;
    for (const Doubtable& d : doubtable_) {
      const json view = sample.view(d.seat);
      const json& entry = view["fire"][d.index];
      if (!entry.contains("card")) continue;
      const auto card = standard::parse(entry["card"].get<std::string>());
      if (card && !naked_gibbon::promise_kept(d.jump, *card, d.fire)) w *= d.lie_weight;
    }
    return w;
  }

  int horizon(int seats) const override { return 4 * seats + 4; }
  // Every turn tops the hand up from the deck, so the seat's next view hangs on the sample's
  // draw: a tree of its information sets would meet most nodes once and try a random move there.
  // Against basic over the same 200 games (300 iterations a move) expert's share rose from 56.5%
  // with the tree to 80.5% with the seat's later moves played by basic.
  bool tree() const override { return false; }
  double estimate(const State& state, Seat me) const override {
    const json v = state.view(me);
    const int seats = state.seats();
    std::vector<double> risk(static_cast<std::size_t>(seats), 0);
    double total = 0;
    for (Seat s = 0; s < seats; ++s) {
      if (v["out"][static_cast<std::size_t>(s)].get<bool>()) continue;
      int exposed = 0;
      const json& table = v["table"][static_cast<std::size_t>(s)];
      for (std::size_t k = 0; k < table.size(); ++k) {
        exposed += !table[k].is_null() && !v["burned"][static_cast<std::size_t>(s)][k].get<bool>();
      }
      risk[static_cast<std::size_t>(s)] =
          std::exp(1.5 * v["burnmarks"][static_cast<std::size_t>(s)].get<int>() + 0.3 * exposed);
      total += risk[static_cast<std::size_t>(s)];
    }
    if (total <= 0) return 0.5;
    const double lose = risk[static_cast<std::size_t>(me)] / total;
    // A gibbon that does not lose shares first place with the others.
    return (1 - lose) * (seats / 2.0) / (seats - 1);
  }

 private:
  struct Doubtable {
    Seat seat = 0;
    std::size_t index = 0;  // in the fire
    naked_gibbon::Jump jump = naked_gibbon::Jump::kBackFlip;
    int fire = 0;
    double lie_weight = 1.0;
  };
  std::vector<Doubtable> doubtable_;
};

// Fib-Fibonacci: the first to empty their hand wins; a playout stops after a few turns and the
// shorter hand is ahead.
class FibFibonacciModel final : public GameModel {
 public:
  int horizon(int) const override { return 8; }
  double estimate(const State& state, Seat me) const override {
    const json v = state.view(me);
    const json& hands = v["handCounts"];
    return ahead_of_others(state.seats(), me, 2.0, [&](Seat s) {
      return hands[static_cast<std::size_t>(s)].get<double>() -
             hands[static_cast<std::size_t>(me)].get<double>();
    });
  }
};

// Spider Monkey: one random slap costs two cards and one random call can end the game, so
// simulated players never leave the basic policy.
//
// A bot slaps only a card it remembers to match, and calls only when it believes its line is low
// (the search then decides whether it should).
//
// Two players' sums decide the game, and one card more or less decides many: a playout is worth
// mostly its place, and partly how far the seat's sum was below (or above) the others', so that
// a line lost by one point counts for more than one lost by twenty.
//
// A sample deals the cards this seat has not seen at random, also into the slots another player
// knows; but a player keeps the low cards it knows and swaps the high ones out as it draws lower
// ones, so after a few turns a known card of theirs is more likely low. A sample is kept the less
// often the higher the cards the others know in their own lines (and this seat does not), the
// more so the more turns they have had to swap.
class SpiderMonkeyModel final : public GameModel {
 public:
  void prepare(const Situation& root) override {
    const double seats = static_cast<double>(std::max<std::size_t>(1, root.view["lines"].size()));
    settled_ = std::min(1.0, root.view["turns"].get<double>() / (3.0 * seats));
    seen_.clear();
    if (!root.recall.contains("known")) return;
    for (const json& k : root.recall["known"]) {
      seen_.emplace_back(k["seat"].get<Seat>(), k["slot"].get<int>());
    }
  }
  double weight(const State& sample, Seat me) const override {
    if (settled_ <= 0) return 1.0;
    double w = 1.0;
    for (Seat other = 0; other < sample.seats(); ++other) {
      if (other == me) continue;
      const json recall = sample.recall(other);
      for (const json& k : recall["known"]) {
        const std::pair<Seat, int> at{k["seat"].get<Seat>(), k["slot"].get<int>()};
        if (at.first != other || std::find(seen_.begin(), seen_.end(), at) != seen_.end()) {
          continue;
        }
        const auto card = standard::parse(k["card"].get<std::string>());
        if (!card) continue;
        const int points = spider_monkey::points(*card);
        if (points > kKept) w *= std::exp(-settled_ * (points - kKept) / 4.0);
      }
    }
    return w;
  }
  double noise() const override { return 0; }
  // The seat's next decision shows the card it drew, so a tree of its information sets would
  // meet almost every node once and play a random move there: playouts compare the root moves
  // better when the seat goes on with the basic policy.
  bool tree() const override { return false; }
  bool allowed(const Situation& root, const Action& move) const override {
    if (move.kind == spider_monkey::kSlap) return spider_monkey_sure_slap(root, move);
    if (move.kind == spider_monkey::kEndTurn && move.arg(0) == 1) {
      return spider_monkey_believes_low(root);
    }
    return true;
  }
  double final_value(const Result& result, Seat me, int seats) const override {
    const double place = place_value(result, me, seats);
    if (result.scores.size() != static_cast<std::size_t>(seats)) return place;
    const auto& sums = result.scores;
    const double margin = ahead_of_others(seats, me, 6.0, [&](Seat s) {
      return static_cast<double>(sums[static_cast<std::size_t>(s)] -
                                 sums[static_cast<std::size_t>(me)]);
    });
    return 0.75 * place + 0.25 * margin;
  }

 private:
  // Points up to which a known card is as likely kept as any other.
  static constexpr int kKept = 6;
  double settled_ = 0;
  std::vector<std::pair<Seat, int>> seen_;  // slots whose card this seat knows
};

}  // namespace

std::unique_ptr<GameModel> model_for(const Game& game) {
  const std::string& id = game.info().id;
  if (id == "pinocchio") return std::make_unique<PinocchioModel>();
  if (id == "tricky-tribes") return std::make_unique<TrickyTribesModel>();
  if (id == "naked-gibbon") return std::make_unique<NakedGibbonModel>();
  if (id == "spider-monkey") return std::make_unique<SpiderMonkeyModel>();
  if (id == "fib-fibonacci") return std::make_unique<FibFibonacciModel>();
  return std::make_unique<GameModel>();
}

}  // namespace campfire::bots
