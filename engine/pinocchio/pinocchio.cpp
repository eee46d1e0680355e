#include "engine/pinocchio/pinocchio.hpp"
#include "engine/pinocchio/pinocchio_schema.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace campfire::pinocchio {

namespace {

constexpr std::array<std::string_view, kClothingCount> kClothingCodes = {"hat", "bow-tie", "shirt",
                                                                         "trousers", "shoes"};
constexpr std::array<std::string_view, kClothingCount> kClothingWords = {"Hat", "Bow Tie", "Shirt",
                                                                         "Trousers", "Shoes"};
constexpr std::array<std::string_view, kColourCount> kColourCodes = {"red", "yellow", "blue"};
constexpr std::array<std::string_view, kColourCount> kColourWords = {"Red", "Yellow", "Blue"};

enum class Phase : std::uint8_t { kChallenge, kPlay, kFinalChallenge, kOver };

constexpr std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kChallenge:
      return "challenge";
    case Phase::kPlay:
      return "play";
    case Phase::kFinalChallenge:
      return "final-challenge";
    case Phase::kOver:
      return "over";
  }
  return "";
}

// One card on the pile and what was said about it.
struct Claim {
  Seat by = 0;
  Card announced = 0;
  Card card = 0;
  bool free = false;           // announced without having to match
  bool challengeable = false;  // false right after a challenge (the Note)
  bool revealed = false;
  bool truthful = false;       // meaningful once revealed
  Seat challenger = -1;
  bool operator==(const Claim&) const = default;
};

class PinocchioState final : public StateBase<PinocchioState> {
 public:
  PinocchioState(int seats, Seat start, std::vector<Card> deck)
      : seats_(seats), current_(start), stacks_(seats), noses_(seats, 0) {
    const std::size_t each = deck.size() / static_cast<std::size_t>(seats);
    // Deal one at a time clockwise from the start seat; stacks keep their top at the back, so
    // the first card dealt to a seat is the first it plays.
    for (std::size_t round = 0; round < each; ++round) {
      for (int k = 0; k < seats; ++k) {
        stacks_[(start + k) % seats].push_back(deck[round * seats + k]);
      }
    }
    for (auto& stack : stacks_) std::reverse(stack.begin(), stack.end());
    box_.assign(deck.begin() + static_cast<std::ptrdiff_t>(each * seats), deck.end());
    pile_.reserve(each * seats);
    phase_ = Phase::kPlay;
    free_ = true;
  }

  bool operator==(const PinocchioState&) const = default;

  int seats() const override { return seats_; }
  bool over() const override { return phase_ == Phase::kOver; }

  SeatSet to_act() const override {
    return over() ? SeatSet() : SeatSet::of(current_);
  }

  Result result() const override {
    Result r;
    r.scores = noses_;
    r.places = Result::places_ascending(noses_);
    const auto [lo, hi] = std::minmax_element(noses_.begin(), noses_.end());
    for (Seat s = 0; s < seats_; ++s) {
      if (noses_[s] == *lo) r.winners.push_back(s);
      if (*hi > *lo && noses_[s] == *hi) r.losers.push_back(s);
    }
    return r;
  }

  std::string describe(Seat, const Action& a) const override {
    switch (a.kind) {
      case kChallenge:
        return "challenge " + seat_ref(pile_.back().by) + "'s " +
               item_words(pile_.back().announced) + ": \"I don't believe you!\"";
      case kBelieve:
        return "believe " + seat_ref(pile_.back().by) + "'s " +
               item_words(pile_.back().announced) + ": \"I believe you!\"";
      case kAnnounce:
        return "play your card as " + item_words(static_cast<Card>(a.arg(0)));
      default:
        return "?";
    }
  }

  // Members in name order, as the tree's dump() writes them.
  void write_view(Seat viewer, ViewWriter& w) const override {
    const bool playing = phase_ == Phase::kPlay;
    w.begin_object();
    w.member("box", box_.size());
    w.key("current");
    if (over()) {
      w.null();
    } else {
      w.value(current_);
    }
    // The pile lies face down: its size and the claim on top are on the table; the claims under
    // it were told once, in events (a view that listed them all would resend them every move).
    // What the next claim must match follows from the claim on top, so the view does not say it
    // twice: members that came and went with every phase cost each seat bytes on every move.
    if (!pile_.empty()) write_last_claim(w);
    w.key("noses").array(noses_);
    w.member("phase", phase_name(phase_));
    w.member("pileSize", pile_.size());
    if (over()) result().write(w.key("result"));
    w.key("stacks").begin_array();
    for (const auto& s : stacks_) w.value(s.size());
    w.end_array();
    if (playing && viewer == current_) w.member("yourCard", item_code(stacks_[current_].back()));
    w.end_object();
  }

  // The claim on top of the pile: who made it, what was said, what it had to match, and what a
  // challenge turned over. The challenge's outcome is one member, so that the next claim takes it
  // away with a single null in a patch.
  void write_last_claim(ViewWriter& w) const {
    const Claim& c = pile_.back();
    w.key("lastClaim").begin_object();
    w.member("by", c.by);
    if (c.revealed) {
      w.key("challenge").begin_object();
      w.member("by", c.challenger);
      w.member("revealed", item_code(c.card));
      w.member("truthful", c.truthful);
      w.end_object();
    }
    w.member("challengeable", c.challengeable);
    w.member("claim", item_code(c.announced));
    w.member("free", c.free);
    if (!c.free) w.member("mustMatch", item_code(pile_[pile_.size() - 2].announced));
    w.end_object();
  }

  Action fallback_action(Seat seat) const override {
    if (phase_ != Phase::kPlay) return Action::make(kBelieve);
    std::vector<Action> legal;
    legal_actions(seat, legal);
    // Repeat the previous announcement when one must match: it always matches itself.
    if (!free_) return Action::make(kAnnounce, {pile_.back().announced});
    return legal.front();
  }

  void cards(std::vector<Card>& out) const override {
    for (const auto& s : stacks_) out.insert(out.end(), s.begin(), s.end());
    out.insert(out.end(), box_.begin(), box_.end());
    for (const Claim& c : pile_) out.push_back(c.card);
  }

  void hidden_from(Seat viewer, std::vector<Card*>& out) override {
    for (Seat s = 0; s < seats_; ++s) {
      auto& stack = stacks_[s];
      const bool sees_top = s == viewer && phase_ == Phase::kPlay && current_ == viewer;
      for (std::size_t i = 0; i < stack.size(); ++i) {
        if (sees_top && i + 1 == stack.size()) continue;
        out.push_back(&stack[i]);
      }
    }
    for (Card& c : box_) out.push_back(&c);
    // A seat's own played cards too: it was told each once and must remember it (PI-13).
    for (Claim& c : pile_) {
      if (!c.revealed) out.push_back(&c.card);
    }
  }

  // What events told the viewer of the pile, which its view (the claim on top) no longer shows
  // once covered, by place on the pile (0 is the first card): its own cards still face down, and
  // every card a challenge turned over (public: a spectator recalls those too).
  json recall(Seat viewer) const override {
    json played = json::array();
    json revealed = json::array();
    for (std::size_t i = 0; i < pile_.size(); ++i) {
      const Claim& c = pile_[i];
      if (const auto card = played_by(viewer, i)) {
        played.push_back({{"pile", i}, {"card", item_code(*card)}});
      } else if (c.revealed) {
        revealed.push_back(
            {{"pile", i}, {"by", c.by}, {"card", item_code(c.card)}, {"truthful", c.truthful}});
      }
    }
    return {{"played", std::move(played)}, {"revealed", std::move(revealed)}};
  }

  // The card at place `at` of the pile when `viewer` played it and it is still face down: what
  // recall() names at that place.
  std::optional<Card> played_by(Seat viewer, std::size_t at) const {
    if (at >= pile_.size()) return std::nullopt;
    const Claim& c = pile_[at];
    if (c.revealed || c.by != viewer) return std::nullopt;
    return c.card;
  }

  // What a determinization re-deals: every stack card but the top the viewer is looking at, the
  // box, and the unrevealed cards of the pile that others played. A seat saw each card it played
  // itself, so those stay where they are even if its view stops showing them.
  void unknown_to(Seat viewer, std::vector<Card*>& out) override {
    for (Seat s = 0; s < seats_; ++s) {
      auto& stack = stacks_[s];
      const bool sees_top = s == viewer && phase_ == Phase::kPlay && current_ == viewer;
      for (std::size_t i = 0; i + (sees_top ? 1 : 0) < stack.size(); ++i) out.push_back(&stack[i]);
    }
    for (Card& c : box_) out.push_back(&c);
    for (Claim& c : pile_) {
      if (!c.revealed && c.by != viewer) out.push_back(&c.card);
    }
  }

 protected:
  void do_legal_actions(Seat, std::vector<Action>& out) const override {
    if (phase_ == Phase::kPlay) {
      for (int i = 0; i < kItems; ++i) {
        const Card c = static_cast<Card>(i);
        if (free_ || matches(pile_.back().announced, c)) out.push_back(Action::make(kAnnounce, {i}));
      }
      return;
    }
    out.push_back(Action::make(kChallenge));
    out.push_back(Action::make(kBelieve));
  }

  Status do_apply(Seat seat, const Action& a, Events& events) override {
    switch (a.kind) {
      case kChallenge:
      case kBelieve:
        if (phase_ == Phase::kPlay) {
          return make_error("illegal_action",
                            "the previous card cannot be challenged now: play your card");
        }
        if (a.argc != 0) return make_error("bad_action", "challenge and believe take no fields");
        decide(seat, a.kind == kChallenge, events);
        return std::nullopt;
      case kAnnounce: {
        if (phase_ != Phase::kPlay) {
          return make_error("illegal_action",
                            "first challenge or believe the previous card, then play yours");
        }
        if (a.argc != 1 || a.arg(0) < 0 || a.arg(0) >= kItems) {
          return make_error("bad_action", "announce needs one of the 15 clothing items");
        }
        const Card said = static_cast<Card>(a.arg(0));
        if (!free_ && !matches(pile_.back().announced, said)) {
          return make_error("must_match", item_words(said) + " does not match " +
                                              item_words(pile_.back().announced) +
                                              " in type or colour");
        }
        announce(seat, said, events);
        return std::nullopt;
      }
      default:
        return make_error("bad_action", "Pinocchio has no such move");
    }
  }

 private:
  void decide(Seat seat, bool challenge, Events& events) {
    Claim& last = pile_.back();
    if (challenge) {
      last.revealed = true;
      last.truthful = last.card == last.announced;
      last.challenger = seat;
      const Seat nosed = last.truthful ? seat : last.by;
      ++noses_[nosed];
      events.emit(Audience::all(), [&] {
        return json{{"type", "challenge"},
                    {"seat", seat},
                    {"target", last.by},
                    {"claim", item_code(last.announced)},
                    {"card", item_code(last.card)},
                    {"truthful", last.truthful},
                    {"nose", nosed},
                    {"text", seat_ref(seat) + " does not believe " + seat_ref(last.by) +
                                 ": the card is " + item_words(last.card) +
                                 (last.truthful ? ", the truth. " : ", a lie! ") +
                                 seat_ref(nosed) + "'s nose grows."}};
      });
    } else {
      events.emit(Audience::all(), [&] {
        return json{{"type", "believe"},
                    {"seat", seat},
                    {"target", last.by},
                    {"text", seat_ref(seat) + " believes " + seat_ref(last.by) + "."}};
      });
    }
    if (phase_ == Phase::kFinalChallenge) {
      finish(events);
      return;
    }
    free_ = challenge;
    begin_play(events);
  }

  void announce(Seat seat, Card said, Events& events) {
    auto& stack = stacks_[seat];
    Claim c;
    c.by = seat;
    c.announced = said;
    c.card = stack.back();
    c.free = free_;
    // The card played right after a challenge is free and cannot be challenged (the Note);
    // the first card of the game is free but can be.
    c.challengeable = pile_.empty() || !pile_.back().revealed;
    stack.pop_back();
    pile_.push_back(c);
    events.emit(Audience::all(), [&] {
      return json{{"type", "announce"},
                  {"seat", seat},
                  {"claim", item_code(said)},
                  {"free", c.free},
                  {"challengeable", c.challengeable},
                  {"text", seat_ref(seat) + " plays a card: \"" + item_words(said) + "\"" +
                               (c.challengeable ? "" : " (cannot be challenged)")}};
    });
    events.emit(Audience::only(seat), [&] {
      return json{{"type", "played"},
                  {"card", item_code(c.card)},
                  {"text", "you played " + item_words(c.card) + " as " + item_words(said)}};
    });
    current_ = (seat + 1) % seats_;
    const bool last_card = std::all_of(stacks_.begin(), stacks_.end(),
                                       [](const auto& s) { return s.empty(); });
    if (last_card) {
      if (c.challengeable) {
        phase_ = Phase::kFinalChallenge;
      } else {
        finish(events);
      }
    } else if (c.challengeable) {
      phase_ = Phase::kChallenge;
    } else {
      free_ = false;
      begin_play(events);
    }
  }

  void begin_play(Events& events) {
    phase_ = Phase::kPlay;
    events.emit(Audience::only(current_), [&] {
      return json{{"type", "drew"},
                  {"card", item_code(stacks_[current_].back())},
                  {"text", "your top card is " + item_words(stacks_[current_].back())}};
    });
  }

  void finish(Events& events) {
    phase_ = Phase::kOver;
    events.emit(Audience::all(), [&] {
      const Result r = result();
      std::string names;
      for (std::size_t i = 0; i < r.winners.size(); ++i) {
        names += (i == 0 ? "" : (i + 1 == r.winners.size() ? " and " : ", "));
        names += seat_ref(r.winners[i]);
      }
      const int n = noses_[r.winners.front()];
      return json{{"type", "game-over"},
                  {"result", r.to_json()},
                  {"text", names + (r.winners.size() == 1 ? " wins" : " win") + " with " +
                               std::to_string(n) + (n == 1 ? " long nose." : " long noses.")}};
    });
  }

  int seats_;
  Seat current_;
  Phase phase_ = Phase::kPlay;
  bool free_ = true;  // the announcement to be made now needs no match
  std::vector<std::vector<Card>> stacks_;
  std::vector<Card> box_;
  std::vector<Claim> pile_;
  std::vector<int> noses_;
};

class PinocchioGame final : public Game {
 public:
  PinocchioGame() {
    info_.id = "pinocchio";
    info_.name = "Pinocchio";
    info_.summary =
        "Play your unseen top card and say what it is; liars caught out grow long noses.";
    info_.min_seats = 2;
    info_.max_seats = 6;
    info_.options = {OptionSpec::integer("startSeat", 0, 0, 5,
                                         "the seat that plays first (the youngest player)")};
    info_.max_actions = 2 * 45 + 1;
  }

  const GameInfo& info() const override { return info_; }

  Status check_options(const Options& o, int seats) const override {
    if (o.get_int("startSeat") >= seats) {
      return make_error("bad_options", "startSeat must be one of the " + std::to_string(seats) +
                                           " seats (0 to " + std::to_string(seats - 1) + ")");
    }
    return std::nullopt;
  }

  std::vector<Card> deck(const Options&, int) const override {
    std::vector<Card> d;
    for (int i = 0; i < kItems; ++i) d.insert(d.end(), kCopies, static_cast<Card>(i));
    return d;
  }

  std::unique_ptr<State> start(int seats, const Options& o, std::vector<Card> deck,
                               Rng) const override {
    return std::make_unique<PinocchioState>(seats, o.get_int("startSeat"), std::move(deck));
  }

  schema::GameSchema schema() const override { return game_schema(*this); }
  std::string card_code(Card c) const override { return item_code(c); }

  std::optional<Card> parse_card(std::string_view code) const override {
    for (int i = 0; i < kItems; ++i) {
      if (item_code(static_cast<Card>(i)) == code) return static_cast<Card>(i);
    }
    return std::nullopt;
  }

 protected:
  json encode_action(const Action& a) const override {
    switch (a.kind) {
      case kChallenge:
        return {{"move", "challenge"}};
      case kBelieve:
        return {{"move", "believe"}};
      case kAnnounce: {
        const Card c = static_cast<Card>(a.arg(0));
        return {{"move", "announce"},
                {"colour", kColourCodes[static_cast<int>(colour_of(c))]},
                {"clothing", kClothingCodes[static_cast<int>(clothing_of(c))]}};
      }
      default:
        return {{"move", "unknown"}};
    }
  }

  Expected<Action> decode_action(const std::string& move, const json& a) const override {
    if (move == "challenge") return Action::make(kChallenge);
    if (move == "believe") return Action::make(kBelieve);
    if (move != "announce") {
      return make_error("bad_action", "unknown move '" + move +
                                          "' (Pinocchio has challenge, believe and announce)");
    }
    auto colour = a.find("colour");
    auto clothing = a.find("clothing");
    if (colour == a.end() || clothing == a.end() || !colour->is_string() ||
        !clothing->is_string()) {
      return make_error("bad_action", "announce needs \"colour\" and \"clothing\" strings");
    }
    const auto k = std::find(kColourCodes.begin(), kColourCodes.end(), colour->get<std::string>());
    const auto c =
        std::find(kClothingCodes.begin(), kClothingCodes.end(), clothing->get<std::string>());
    if (k == kColourCodes.end()) {
      return make_error("bad_action", "colour must be red, yellow or blue");
    }
    if (c == kClothingCodes.end()) {
      return make_error("bad_action", "clothing must be hat, bow-tie, shirt, trousers or shoes");
    }
    return Action::make(kAnnounce, {item(static_cast<Clothing>(c - kClothingCodes.begin()),
                                         static_cast<Colour>(k - kColourCodes.begin()))});
  }

 private:
  GameInfo info_;
};

}  // namespace

std::string item_code(Card c) {
  // Views name every card on the pile, so the fifteen codes are made once.
  static const std::array<std::string, kItems> codes = [] {
    std::array<std::string, kItems> out;
    for (int i = 0; i < kItems; ++i) {
      const Card card = static_cast<Card>(i);
      out[static_cast<std::size_t>(i)] =
          std::string(kColourCodes[static_cast<int>(colour_of(card))]) + "-" +
          std::string(kClothingCodes[static_cast<int>(clothing_of(card))]);
    }
    return out;
  }();
  return c < kItems ? codes[c] : "?";
}

std::string item_words(Card c) {
  return std::string(kColourWords[static_cast<int>(colour_of(c))]) + " " +
         std::string(kClothingWords[static_cast<int>(clothing_of(c))]);
}

const Game& game() {
  static const PinocchioGame instance;
  return instance;
}

std::optional<Card> recalled_card(const State& state, Seat viewer, std::size_t at) {
  const auto* typed = dynamic_cast<const PinocchioState*>(&state);
  if (typed == nullptr) return std::nullopt;
  return typed->played_by(viewer, at);
}

}  // namespace campfire::pinocchio
