#include "bots/recollection.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace campfire::bots {

namespace {

std::string str(const json& e, const char* key) {
  return e[key].get<std::string>();
}

// Spider Monkey: the cards on the table the seat saw, by seat and slot; Jack swaps move them,
// replaced and slapped cards are forgotten, a new round starts afresh.
class SpiderMonkeyRecollection final : public Recollection {
 public:
  void observe(const json& e, Seat me) override {
    const std::string type = str(e, "type");
    if (type == "peek") {
      for (std::size_t i = 0; i < 2; ++i)
        known_[{me, e["slots"][i].get<int>()}] = e["cards"][i].get<std::string>();
    } else if (type == "placed") {
      known_[{me, e["slot"].get<int>()}] = str(e, "card");
    } else if (type == "replace") {
      if (e["seat"].get<Seat>() != me) known_.erase({e["seat"].get<Seat>(), e["slot"].get<int>()});
    } else if (type == "take-discard") {
      known_[{e["seat"].get<Seat>(), e["slot"].get<int>()}] = str(e, "card");
    } else if (type == "queen-look") {
      known_[{e["target"].get<Seat>(), e["slot"].get<int>()}] = str(e, "card");
    } else if (type == "jack") {
      const std::pair<Seat, int> a{e["a"]["seat"].get<Seat>(), e["a"]["slot"].get<int>()};
      const std::pair<Seat, int> b{e["b"]["seat"].get<Seat>(), e["b"]["slot"].get<int>()};
      auto ia = known_.find(a);
      auto ib = known_.find(b);
      std::optional<std::string> ca = ia == known_.end() ? std::nullopt : std::optional(ia->second);
      std::optional<std::string> cb = ib == known_.end() ? std::nullopt : std::optional(ib->second);
      known_.erase(a);
      known_.erase(b);
      if (cb) known_[a] = *cb;
      if (ca) known_[b] = *ca;
    } else if (type == "slap") {
      known_.erase({e["seat"].get<Seat>(), e["slot"].get<int>()});
    } else if (type == "deal" || type == "game-over") {
      known_.clear();
    }
  }
  json recall() const override {
    json known = json::array();
    for (const auto& [where, card] : known_) {
      known.push_back({{"seat", where.first}, {"slot", where.second}, {"card", card}});
    }
    return {{"known", std::move(known)}};
  }

 private:
  std::map<std::pair<Seat, int>, std::string> known_;
};

// Pinocchio: by place on the pile, the seat's own cards until a challenge turns one over, and
// every card a challenge turned over, with whose it was and whether it was the truth.
class PinocchioRecollection final : public Recollection {
 public:
  void observe(const json& e, Seat) override {
    const std::string type = str(e, "type");
    if (type == "announce") {
      ++pile_;
    } else if (type == "played") {
      played_[pile_ - 1] = str(e, "card");
    } else if (type == "challenge") {
      played_.erase(pile_ - 1);
      revealed_.push_back({{"pile", pile_ - 1},
                           {"by", e["target"]},
                           {"card", e["card"]},
                           {"truthful", e["truthful"]}});
    }
  }
  json recall() const override {
    json played = json::array();
    for (const auto& [at, card] : played_) played.push_back({{"pile", at}, {"card", card}});
    return {{"played", std::move(played)}, {"revealed", revealed_}};
  }

 private:
  int pile_ = 0;
  std::map<int, std::string> played_;
  json revealed_ = json::array();
};

// Tricky Tribes: the cards the seat discarded face down this round.
class TrickyTribesRecollection final : public Recollection {
 public:
  void observe(const json& e, Seat) override {
    const std::string type = str(e, "type");
    if (type == "round-start") discarded_.clear();
    if (type == "you-discarded") discarded_.push_back(str(e, "card"));
  }
  json recall() const override { return {{"discarded", discarded_}}; }

 private:
  std::vector<std::string> discarded_;
};

// Fib-Fibonacci: per seat, the cards it took from the table with a 4 and still holds.
class FibFibonacciRecollection final : public Recollection {
 public:
  explicit FibFibonacciRecollection(const Game& game) : game_(game) {}
  void observe(const json& e, Seat) override {
    const std::string type = str(e, "type");
    if (type == "new-game") {
      for (auto& t : taken_) t.clear();
      return;
    }
    if (!e.contains("seat") || !e.contains("card")) return;
    auto& mine = taken_[static_cast<std::size_t>(e["seat"].get<Seat>() & 1)];
    for (const char* key : {"card", "bonus"}) {
      if (!e.contains(key)) continue;
      const auto c = game_.parse_card(str(e, key));
      if (c) mine.erase(std::remove(mine.begin(), mine.end(), *c), mine.end());
    }
    if (type == "four") {
      if (auto c = game_.parse_card(str(e, "taken"))) mine.push_back(*c);
    }
  }
  json recall() const override {
    json taken = json::array();
    for (auto cards : taken_) {
      std::sort(cards.begin(), cards.end());
      json codes = json::array();
      for (Card c : cards) codes.push_back(game_.card_code(c));
      taken.push_back(std::move(codes));
    }
    return {{"taken", std::move(taken)}};
  }

 private:
  const Game& game_;
  std::array<std::vector<Card>, 2> taken_;
};

// Naked Gibbon: the burnmarks the seat saw burn (the discards are not followed).
class NakedGibbonRecollection final : public Recollection {
 public:
  void observe(const json& e, Seat) override {
    const std::string type = str(e, "type");
    if (type == "burnmark") {
      burns_[{e["seat"].get<Seat>(), e["slot"].get<int>()}] = str(e, "card");
    } else if (type == "out") {
      const Seat s = e["seat"].get<Seat>();
      for (auto it = burns_.begin(); it != burns_.end();) {
        it = it->first.first == s ? burns_.erase(it) : std::next(it);
      }
    } else if (type == "new-round") {
      burns_.clear();
    }
  }
  json recall() const override {
    json burns = json::array();
    for (const auto& [where, card] : burns_) {
      burns.push_back({{"seat", where.first}, {"slot", where.second}, {"card", card}});
    }
    return {{"burnmarks", std::move(burns)}, {"discards", json::array()}};
  }

 private:
  std::map<std::pair<Seat, int>, std::string> burns_;
};

}  // namespace

std::unique_ptr<Recollection> make_recollection(const Game& game) {
  const std::string& id = game.info().id;
  if (id == "spider-monkey") return std::make_unique<SpiderMonkeyRecollection>();
  if (id == "pinocchio") return std::make_unique<PinocchioRecollection>();
  if (id == "tricky-tribes") return std::make_unique<TrickyTribesRecollection>();
  if (id == "fib-fibonacci") return std::make_unique<FibFibonacciRecollection>(game);
  if (id == "naked-gibbon") return std::make_unique<NakedGibbonRecollection>();
  return nullptr;
}

}  // namespace campfire::bots
